//! Files for the director: a file picker drawn by egui itself (it works on every desktop
//! and under Xvfb, with no portal or system library), and where exports went.
//!
//! `egui-file-dialog` 0.15 needs egui 0.36, not the 0.37 the desk is built on, so the desk
//! has its own small picker: folders and files of one folder, a filter by extension, a
//! typed path, and the last folder remembered between runs (in the preferences).

use super::common::{self, Notices};
use egui::{RichText, Ui};
use std::path::{Path, PathBuf};

/// One line of the picker's list.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Item {
    name: String,
    is_dir: bool,
}

/// A file picker for opening a file, shown as a modal dialog.
#[derive(Debug, Clone)]
pub struct FilePicker {
    pub title: String,
    /// The folder listed.
    pub dir: PathBuf,
    /// A path or a file name typed by hand (relative to the folder).
    pub typed: String,
    /// The extensions shown (lower case, without the dot); empty shows every file.
    pub extensions: Vec<String>,
    /// Show every file, whatever its extension.
    pub all_files: bool,
    items: Vec<Item>,
    listed: Option<(PathBuf, bool)>,
    error: Option<String>,
}

/// What the picker did this frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picked {
    Open,
    Cancelled,
    File(PathBuf),
}

impl FilePicker {
    /// A picker titled `title` on `dir` (else the home folder), showing files ending in one
    /// of `extensions`.
    pub fn new(title: &str, dir: Option<&Path>, extensions: &[&str]) -> FilePicker {
        let dir = dir
            .filter(|d| d.is_dir())
            .map(Path::to_path_buf)
            .or_else(|| directories::UserDirs::new().map(|u| u.home_dir().to_path_buf()))
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("/"));
        FilePicker {
            title: title.to_string(),
            dir,
            typed: String::new(),
            extensions: extensions.iter().map(|e| e.to_lowercase()).collect(),
            all_files: false,
            items: Vec::new(),
            listed: None,
            error: None,
        }
    }

    fn shown(&self, name: &str) -> bool {
        if self.all_files || self.extensions.is_empty() {
            return true;
        }
        let ext = Path::new(name)
            .extension()
            .map(|e| e.to_string_lossy().to_lowercase());
        ext.is_some_and(|e| self.extensions.contains(&e))
    }

    /// Reads the folder when it (or the filter) changed.
    fn list(&mut self) {
        let key = (self.dir.clone(), self.all_files);
        if self.listed.as_ref() == Some(&key) {
            return;
        }
        self.listed = Some(key);
        self.items.clear();
        self.error = None;
        match std::fs::read_dir(&self.dir) {
            Err(e) => self.error = Some(format!("cannot read {}: {e}", self.dir.display())),
            Ok(entries) => {
                for entry in entries.flatten() {
                    let name = entry.file_name().to_string_lossy().to_string();
                    if name.starts_with('.') {
                        continue;
                    }
                    let is_dir = entry.path().is_dir();
                    if is_dir || self.shown(&name) {
                        self.items.push(Item { name, is_dir });
                    }
                }
            }
        }
        // Folders first, then files, each by name as people sort them.
        self.items.sort_by(|a, b| {
            b.is_dir.cmp(&a.is_dir).then_with(|| {
                ggdesk_core::export::print::sort_key(&a.name)
                    .cmp(&ggdesk_core::export::print::sort_key(&b.name))
            })
        });
    }

    /// The file a typed path names: absolute, `~/...`, or relative to the folder shown.
    fn typed_path(&self) -> Option<PathBuf> {
        let t = self.typed.trim();
        if t.is_empty() {
            return None;
        }
        let home = || directories::UserDirs::new().map(|u| u.home_dir().to_path_buf());
        let p = match t.strip_prefix("~/") {
            Some(rest) => home()?.join(rest),
            None if Path::new(t).is_absolute() => PathBuf::from(t),
            None => self.dir.join(t),
        };
        Some(p)
    }

    /// Opens a typed path: a folder is listed, a file chosen.
    fn open_typed(&mut self) -> Option<PathBuf> {
        let p = self.typed_path()?;
        if p.is_dir() {
            self.dir = p;
            self.typed.clear();
            None
        } else if p.is_file() {
            Some(p)
        } else {
            self.error = Some(format!("{} does not exist", p.display()));
            None
        }
    }

    /// Shows the picker; Escape cancels.
    pub fn show(&mut self, ctx: &egui::Context) -> Picked {
        self.list();
        let mut outcome = Picked::Open;
        let modal = egui::Modal::new(egui::Id::unique("ggdesk-file-picker")).show(ctx, |ui| {
            ui.set_width(620.0);
            ui.heading(&self.title);
            outcome = self.body(ui);
        });
        if modal.should_close() && outcome == Picked::Open {
            outcome = Picked::Cancelled;
        }
        outcome
    }

    fn body(&mut self, ui: &mut Ui) -> Picked {
        let mut outcome = Picked::Open;
        ui.horizontal(|ui| {
            if ui
                .button("Up")
                .on_hover_text("The folder above this one")
                .clicked()
                && let Some(parent) = self.dir.parent()
            {
                self.dir = parent.to_path_buf();
            }
            if ui.button("Home").clicked()
                && let Some(u) = directories::UserDirs::new()
            {
                self.dir = u.home_dir().to_path_buf();
            }
            ui.label(RichText::new(self.dir.display().to_string()).strong());
        });
        if !self.extensions.is_empty() {
            let exts: Vec<String> = self.extensions.iter().map(|e| format!(".{e}")).collect();
            ui.checkbox(
                &mut self.all_files,
                format!("Show every file, not only {}", exts.join(" ")),
            );
        }
        let mut open_dir = None;
        egui::ScrollArea::vertical()
            .max_height(330.0)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for item in &self.items {
                    let text = if item.is_dir {
                        format!("[folder]  {}", item.name)
                    } else {
                        item.name.clone()
                    };
                    let r = ui.selectable_label(self.typed == item.name, text);
                    if r.clicked() {
                        if item.is_dir {
                            open_dir = Some(self.dir.join(&item.name));
                        } else {
                            self.typed = item.name.clone();
                        }
                    }
                    if r.double_clicked() && !item.is_dir {
                        outcome = Picked::File(self.dir.join(&item.name));
                    }
                }
                if self.items.is_empty() && self.error.is_none() {
                    ui.label(RichText::new("No matching file in this folder.").weak());
                }
            });
        if let Some(d) = open_dir {
            self.dir = d;
            self.typed.clear();
        }
        let l = ui.label("File (a name here, or a whole path):");
        let field = ui
            .add(egui::TextEdit::singleline(&mut self.typed).desired_width(f32::INFINITY))
            .labelled_by(l.id);
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if let Some(e) = &self.error {
            ui.colored_label(common::RED, e);
        }
        ui.horizontal(|ui| {
            let open = ui.add_enabled(
                !self.typed.trim().is_empty(),
                egui::Button::new(RichText::new("Open").strong()),
            );
            if (open.clicked() || entered)
                && let Some(p) = self.open_typed()
            {
                outcome = Picked::File(p);
            }
            if ui.button("Cancel").clicked() {
                outcome = Picked::Cancelled;
            }
        });
        outcome
    }
}

/// Shows the picker in `slot`, if any; returns the file chosen (the picker closes, and its
/// folder is remembered in `last_folder`).
pub fn poll_picker(
    slot: &mut Option<FilePicker>,
    ctx: &egui::Context,
    last_folder: &mut Option<PathBuf>,
) -> Option<PathBuf> {
    let picker = slot.as_mut()?;
    match picker.show(ctx) {
        Picked::Open => None,
        Picked::Cancelled => {
            *last_folder = Some(picker.dir.clone());
            *slot = None;
            None
        }
        Picked::File(p) => {
            *last_folder = p.parent().map(Path::to_path_buf);
            *slot = None;
            Some(p)
        }
    }
}

/// Opens files and folders with the desktop's programs (`xdg-open`). Tests use `Record`,
/// which notes what would have been opened and starts nothing, or `Program`, another
/// program in place of `xdg-open`.
#[derive(Debug, Clone, Default)]
pub enum Launcher {
    #[default]
    System,
    Program(PathBuf),
    Record(std::rc::Rc<std::cell::RefCell<Vec<PathBuf>>>),
}

/// A program started to open a file that ended in failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenFailure {
    /// What was to be opened, in the desk's words ("Bracket").
    pub what: String,
    pub path: PathBuf,
    /// How the program ended: `xdg-open exited with status 3`.
    pub status: String,
}

/// Where the threads that wait for openers leave their failures, and the desk to wake.
#[derive(Debug, Clone, Default)]
pub struct OpenWatch {
    failed: std::sync::Arc<std::sync::Mutex<Vec<OpenFailure>>>,
    wake: Option<egui::Context>,
}

impl OpenWatch {
    /// The desk to repaint when an opener fails.
    pub fn wake(&mut self, ctx: &egui::Context) {
        if self.wake.is_none() {
            self.wake = Some(ctx.clone());
        }
    }

    /// The failures told since the last call.
    pub fn take(&self) -> Vec<OpenFailure> {
        self.failed
            .lock()
            .map(|mut f| std::mem::take(&mut *f))
            .unwrap_or_default()
    }

    fn tell(&self, failure: OpenFailure) {
        if let Ok(mut f) = self.failed.lock() {
            f.push(failure);
        }
        if let Some(ctx) = &self.wake {
            ctx.request_repaint();
        }
    }
}

/// What the thread waiting for an opener does with how it ended.
type OnExit = Box<dyn FnOnce(std::io::Result<std::process::ExitStatus>) + Send>;

impl Launcher {
    /// Opens `path` (a page in the browser, a folder in the file manager); false if no
    /// program could be started.
    pub fn open(&self, path: &Path) -> bool {
        self.start(path).is_ok()
    }

    /// Opens `path` as [`Launcher::open`] does; if the program then ends in failure (no
    /// browser, a browser that exited with an error), `watch` is told, naming `what`.
    pub fn open_watched(&self, path: &Path, what: &str, watch: &OpenWatch) -> bool {
        let (watch, what, full) = (watch.clone(), what.to_string(), path.to_path_buf());
        let program = self.program_name();
        let on_exit: OnExit = Box::new(move |status| {
            let status = match status {
                Ok(s) if s.success() => return,
                Ok(s) => match s.code() {
                    Some(code) => format!("{program} exited with status {code}"),
                    None => format!("{program} was stopped ({s})"),
                },
                Err(e) => format!("{program} could not be waited for: {e}"),
            };
            watch.tell(OpenFailure {
                what,
                path: full,
                status,
            });
        });
        self.start_then(path, Some(on_exit)).is_ok()
    }

    /// Starts the program that opens `path`: its process id (`None` when recording). The
    /// program is waited for when it ends, so that it never stays behind as a zombie.
    pub fn start(&self, path: &Path) -> std::io::Result<Option<u32>> {
        self.start_then(path, None)
    }

    fn start_then(&self, path: &Path, on_exit: Option<OnExit>) -> std::io::Result<Option<u32>> {
        match self {
            Launcher::System => start_reaped(Path::new("xdg-open"), path, on_exit).map(Some),
            Launcher::Program(program) => start_reaped(program, path, on_exit).map(Some),
            Launcher::Record(list) => {
                list.borrow_mut().push(path.to_path_buf());
                Ok(None)
            }
        }
    }

    fn program_name(&self) -> String {
        match self {
            Launcher::System => "xdg-open".into(),
            Launcher::Program(p) => p.display().to_string(),
            Launcher::Record(_) => "the recorder".into(),
        }
    }
}

/// Starts `program path` with no input or output, and a thread that waits for it: a child
/// that ends is reaped at once (`xdg-open` ends as soon as it has handed the file to the
/// browser or the file manager).
fn start_reaped(program: &Path, path: &Path, on_exit: Option<OnExit>) -> std::io::Result<u32> {
    let mut child = std::process::Command::new(program)
        .arg(path)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("ggdesk-launcher".into())
        .spawn(move || {
            // The child moves to the thread only once the thread runs.
            if let Ok(mut child) = rx.recv() {
                let status = std::process::Child::wait(&mut child);
                if let Some(f) = on_exit {
                    f(status);
                }
            }
        });
    match spawned {
        Ok(_) => {
            if let Err(std::sync::mpsc::SendError(mut child)) = tx.send(child) {
                let _ = child.wait();
            }
        }
        // No thread to spare: wait here (the opener ends at once).
        Err(_) => {
            let _ = child.wait();
        }
    }
    Ok(pid)
}

/// The full path of a file just written, for the notice that says where it went.
pub fn full_path(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Says where a file was written, with a way to open its folder.
pub fn written(notices: &mut Notices, what: &str, path: &Path) {
    let full = full_path(path);
    notices.written(format!("{what} written: {}", full.display()), &full);
}

/// Writes a page to print and opens it in the browser; says where it went either way, and,
/// if the program that opens it ends in failure, says so when it does.
pub fn print_page(notices: &mut Notices, launcher: &Launcher, what: &str, path: &Path) {
    let full = full_path(path);
    if launcher.open_watched(&full, what, &notices.opens) {
        notices.written(
            format!(
                "{what} written: {}; opening it in the browser to print",
                full.display()
            ),
            &full,
        );
    } else {
        notices.written(
            format!(
                "{what} written: {} (open it in a browser to print)",
                full.display()
            ),
            &full,
        );
    }
}
