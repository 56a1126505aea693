//! Settings: theme, backups on demand, the public pages, the audit log (readable,
//! searchable, exportable).

use super::audit::AuditView;
use super::common::LoadErrors;
use super::director::Watch;
use super::{PageCtx, ThemeChoice, files};
use egui::{RichText, Ui};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmd {
    BackUp,
}

#[derive(Default)]
pub struct SettingsPage {
    pub audit: AuditView,
    queued: Vec<Cmd>,
    public_pages: super::public_pages::PublicPages,
    /// The backup files as last listed: listed again when the database changed (a round
    /// transition writes one) or after "Back up now", not every frame.
    backups: Vec<std::path::PathBuf>,
    backups_load: LoadErrors,
    backups_watch: Watch,
}

impl SettingsPage {
    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, theme: &mut ThemeChoice) {
        ui.horizontal(|ui| {
            ui.heading("Settings");
            ui.separator();
            ui.label("Theme:");
            ui.radio_value(theme, ThemeChoice::System, "As the system");
            ui.radio_value(theme, ThemeChoice::Light, "Light");
            ui.radio_value(theme, ThemeChoice::Dark, "Dark");
        });
        ui.separator();
        // Backups and the public pages are the director's: a station's desk shows its
        // theme and the audit of its own games.
        if cx.my_tables.is_none() {
            self.backups_ui(ui, cx);
            ui.separator();
            self.public_pages.ui(ui, cx);
            ui.separator();
        }
        self.audit.ui(ui, cx);
        for cmd in std::mem::take(&mut self.queued) {
            match cmd {
                Cmd::BackUp => {
                    self.backups_watch.force();
                    let result = cx.store.backup("on-demand");
                    if let Some(file) = cx.notices.report(result, "") {
                        files::written(cx.notices, "Backup", &file);
                    }
                }
            }
        }
    }

    fn backups_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(path) = cx.store.path() else {
            ui.label(if cx.store.address().is_some() {
                "Backups: the event server keeps no backup files. Its copy is the standby \
                 (docs/standby.md); archive the event with `ggdesk --db URL copy FILE`."
            } else {
                "Backups: this database lives in memory, it has none."
            });
            return;
        };
        if self.backups_watch.stale(cx, None) {
            let mut load = LoadErrors::default();
            self.backups = load
                .check("the backups", cx.store.backups())
                .unwrap_or_default();
            self.backups_load = load;
        }
        ui.horizontal(|ui| {
            ui.label(RichText::new("Backups").strong());
            ui.label(format!(
                "written into {} at every round transition; the last {} are kept.",
                crate::store::backup_dir(path).display(),
                crate::store::BACKUPS_KEPT
            ));
            if ui.button("Back up now").clicked() {
                self.queued.push(Cmd::BackUp);
            }
        });
        if let Some(newest) = self.backups.last() {
            ui.label(
                RichText::new(format!(
                    "{} backup{}; newest {}",
                    self.backups.len(),
                    if self.backups.len() == 1 { "" } else { "s" },
                    newest.display()
                ))
                .weak(),
            );
        }
        self.backups_load.banner(ui);
    }
}
