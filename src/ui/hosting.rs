//! "Host this event on the network" (Stations, F9, on a desk opened on a file): this desk
//! becomes the event server. In the background it starts what `ggdesk host DIR` starts (the
//! cluster in DIR, the stations' HTTPS API, the public pages: [`crate::host::Host`]), copies
//! the open event into it in one transaction, and hands both to the desk, which goes on on
//! the server's database and keeps the server running while it is open (closing the desk
//! stops it, every commit kept). The event file stays as it was, a copy of the moment.

use super::common;
use crate::host::{DEFAULT_PAGES_PORT, DEFAULT_PORT, DEFAULT_STATION_PORT, Host, HostOptions};
use crate::store::{Address, Store};
use egui::{RichText, Ui};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// A server this desk started, with the event copied into it.
pub struct Hosted {
    pub host: Host,
    /// The desk's store on the server (the director's login over TLS).
    pub store: Store,
    pub dir: PathBuf,
}

/// The form, and the start under way.
pub struct HostPanel {
    folder: String,
    listen: String,
    /// The user that runs the cluster, asked for when the desk runs as root.
    user: String,
    port: String,
    station_port: String,
    pages_port: String,
    starting: Option<Receiver<Result<Hosted, String>>>,
    error: Option<String>,
    /// Whether the folder as typed holds a hosted event, looked at once per folder typed
    /// (not a file-system look every frame).
    made: Option<(String, bool)>,
}

impl Default for HostPanel {
    fn default() -> HostPanel {
        HostPanel {
            folder: String::new(),
            listen: String::new(),
            user: String::new(),
            port: DEFAULT_PORT.to_string(),
            station_port: DEFAULT_STATION_PORT.to_string(),
            pages_port: DEFAULT_PAGES_PORT.to_string(),
            starting: None,
            error: None,
            made: None,
        }
    }
}

/// The folder a hosted event goes to by default: `hosted/NAME` beside the default database,
/// named after the event's file.
fn default_folder(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map_or_else(|| "event".to_string(), |s| s.to_string_lossy().into_owned());
    Store::default_path()
        .and_then(|p| p.parent().map(|d| d.join("hosted")))
        .unwrap_or_else(|| PathBuf::from("hosted"))
        .join(stem)
}

impl HostPanel {
    /// Draws the form for the event in `file`; returns the server once it runs with the
    /// event in it.
    pub fn ui(&mut self, ui: &mut Ui, file: Option<&Path>, root: bool) -> Option<Hosted> {
        let Some(file) = file else {
            ui.label("This desk runs on a database in memory: there is no event to host.");
            return None;
        };
        if self.folder.is_empty() {
            self.folder = default_folder(file).display().to_string();
        }
        ui.heading("The event server on this laptop");
        ui.label(
            "This laptop becomes the event server: a PostgreSQL of its own in the folder below \
             (made the first time, with the event's certificate authority), the stations' \
             HTTPS API and the public pages. The event is copied into it and this desk goes on \
             there; the stations' cards are then made here. Keep this desk open: closing it \
             stops the server (every saved result is kept, and the next start goes on).",
        );
        let busy = self.starting.is_some();
        egui::Grid::new("ggdesk-host-form")
            .num_columns(2)
            .show(ui, |ui| {
                let l = ui.label("Folder");
                ui.add(egui::TextEdit::singleline(&mut self.folder).desired_width(420.0))
                    .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Address on the hall's network");
                ui.add(
                    egui::TextEdit::singleline(&mut self.listen)
                        .desired_width(200.0)
                        .hint_text("every address"),
                )
                .labelled_by(l.id);
                ui.end_row();
                if root {
                    let l = ui.label("Run PostgreSQL as");
                    ui.add(
                        egui::TextEdit::singleline(&mut self.user)
                            .desired_width(200.0)
                            .hint_text("a user, not root"),
                    )
                    .labelled_by(l.id);
                    ui.end_row();
                }
                for (label, value) in [
                    ("PostgreSQL port", &mut self.port),
                    ("Stations' port", &mut self.station_port),
                    ("Public pages' port", &mut self.pages_port),
                ] {
                    let l = ui.label(label);
                    ui.add(egui::TextEdit::singleline(value).desired_width(80.0))
                        .labelled_by(l.id);
                    ui.end_row();
                }
            });
        if busy {
            ui.label(
                RichText::new("Starting the server and copying the event… (a few seconds)")
                    .strong(),
            );
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        } else {
            // A folder a host made already (the desk that hosted it was closed): its server
            // starts again with its event as it is.
            let folder = self.folder.trim();
            let made = match &self.made {
                Some((seen, made)) if seen == folder => *made,
                _ => {
                    let made = Path::new(folder).join("director.url").exists();
                    self.made = Some((folder.to_string(), made));
                    made
                }
            };
            ui.horizontal(|ui| {
                if ui.button("Host this event on the network").clicked() {
                    match self.options(root) {
                        Ok(options) => self.start(options, Some(file.to_path_buf())),
                        Err(e) => self.error = Some(e),
                    }
                }
                if made
                    && ui
                        .button("Start this folder's server and go on there")
                        .clicked()
                {
                    match self.options(root) {
                        Ok(options) => self.start(options, None),
                        Err(e) => self.error = Some(e),
                    }
                }
            });
            if made {
                ui.label(
                    RichText::new(
                        "This folder holds a hosted event already: start its server to go on \
                         with it (this file is not copied).",
                    )
                    .weak(),
                );
            }
        }
        if let Some(e) = &self.error {
            ui.label(RichText::new(e).color(common::RED));
        }
        self.poll()
    }

    /// The options of the form, or what is wrong with it (nothing is started).
    fn options(&self, root: bool) -> Result<HostOptions, String> {
        let port = |what: &str, text: &str| {
            text.trim()
                .parse::<u16>()
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| format!("{what}: {:?} is not a port (1 to 65535)", text.trim()))
        };
        let folder = self.folder.trim();
        if folder.is_empty() {
            return Err("Folder: give the folder the server keeps the event in".into());
        }
        let listen = match self.listen.trim() {
            "" => None,
            text => Some(text.parse().map_err(|_| {
                format!("Address on the hall's network: {text:?} is not an IP address")
            })?),
        };
        let user = self.user.trim();
        Ok(HostOptions {
            dir: PathBuf::from(folder),
            listen,
            port: port("PostgreSQL port", &self.port)?,
            station_port: port("Stations' port", &self.station_port)?,
            pages_port: port("Public pages' port", &self.pages_port)?,
            user: (root && !user.is_empty()).then(|| user.to_string()),
            standby_of: None,
            standby_wait: std::time::Duration::from_secs(crate::host::DEFAULT_STANDBY_WAIT_S),
        })
    }

    /// Starts the server and the copy of `file` (none: the folder's event as it is) on a
    /// thread of their own (initdb takes seconds).
    fn start(&mut self, options: HostOptions, file: Option<PathBuf>) {
        self.error = None;
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("ggdesk-host".into())
            .spawn(move || {
                let _ = tx.send(start_and_copy(&options, file.as_deref()));
            });
        match spawned {
            Ok(_) => self.starting = Some(rx),
            Err(e) => self.error = Some(format!("the server could not be started: {e}")),
        }
    }

    fn poll(&mut self) -> Option<Hosted> {
        let rx = self.starting.as_ref()?;
        match rx.try_recv() {
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.starting = None;
                self.error = Some("the server's start ended without a word".into());
                None
            }
            Ok(result) => {
                self.starting = None;
                self.made = None;
                match result {
                    Ok(hosted) => Some(hosted),
                    Err(e) => {
                        self.error = Some(e);
                        None
                    }
                }
            }
        }
    }
}

/// The server started, and the event in `file` copied into its (empty) database; on a
/// failure the server is stopped again and nothing else is changed.
fn start_and_copy(options: &HostOptions, file: Option<&Path>) -> Result<Hosted, String> {
    let host = Host::start(options).map_err(|e| e.to_string())?;
    let mut store = Store::connect(&Address::Server(host.director_url.clone()))
        .map_err(|e| format!("the server's database: {e}"))?;
    if let Some(file) = file {
        let source = Store::open(file).map_err(|e| format!("the event {}: {e}", file.display()))?;
        source.copy_into(&mut store).map_err(|e| {
            format!(
                "the event could not be copied into {}: {e}",
                options.dir.display()
            )
        })?;
    }
    Ok(Hosted {
        host,
        store,
        dir: options.dir.clone(),
    })
}
