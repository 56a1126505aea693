//! Settings: theme, backups on demand, the public pages, the audit log.

use super::common::{self, fmt_local_datetime};
use super::{PageCtx, ThemeChoice};
use crate::store::{AuditEntry, AuditFilter};
use egui::{RichText, Ui};

#[derive(Default)]
pub struct SettingsPage {
    log: Vec<AuditEntry>,
    log_loaded: bool,
    public_pages: super::public_pages::PublicPages,
}

impl SettingsPage {
    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, theme: &mut ThemeChoice) {
        ui.heading("Settings");
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.label("Theme:");
            ui.radio_value(theme, ThemeChoice::System, "As the system");
            ui.radio_value(theme, ThemeChoice::Light, "Light");
            ui.radio_value(theme, ThemeChoice::Dark, "Dark");
        });
        ui.add_space(10.0);
        ui.separator();
        ui.heading("Backups");
        match cx.store.path() {
            Some(path) => {
                ui.label(format!(
                    "The database is {}. A backup is written into {} at every round \
                     transition; the last {} are kept.",
                    path.display(),
                    crate::store::backup_dir(path).display(),
                    crate::store::BACKUPS_KEPT
                ));
                if ui.button("Back up now").clicked() {
                    let result = cx.store.backup("on-demand");
                    if let Some(file) = cx.notices.report(result, "") {
                        cx.notices
                            .info(format!("Backup written: {}", file.display()));
                    }
                }
                if let Ok(list) = cx.store.backups()
                    && let Some(last) = list.last()
                {
                    ui.label(
                        RichText::new(format!("{} backups; newest {}", list.len(), last.display()))
                            .weak(),
                    );
                }
            }
            None => {
                ui.label("This database lives in memory: it has no backups.");
            }
        }
        ui.add_space(10.0);
        ui.separator();
        self.public_pages.ui(ui, cx);
        ui.add_space(10.0);
        ui.separator();
        ui.horizontal(|ui| {
            ui.heading("Audit log");
            if ui.button("Refresh").clicked() || !self.log_loaded {
                match cx.store.audit_log(AuditFilter::All) {
                    Ok(mut log) => {
                        log.reverse();
                        log.truncate(500);
                        self.log = log;
                    }
                    Err(e) => cx.notices.error(e.to_string()),
                }
                self.log_loaded = true;
            }
        });
        ui.label(RichText::new("Every change a director or arbiter made, newest first.").weak());
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                egui::Grid::new("audit-log").striped(true).show(ui, |ui| {
                    for h in ["When", "Who", "What", "Reason", "Details"] {
                        ui.label(RichText::new(h).strong());
                    }
                    ui.end_row();
                    for e in &self.log {
                        ui.label(fmt_local_datetime(e.at));
                        ui.label(&e.actor);
                        ui.label(&e.action);
                        ui.label(RichText::new(&e.reason).color(common::AMBER));
                        ui.label(&e.details);
                        ui.end_row();
                    }
                });
            });
    }
}
