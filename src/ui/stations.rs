//! Stations (F9): on an event server, the director creates one login per arbiter station,
//! gives it its tables, gives it a new password (a card lost or seen), and removes it. The
//! URL of a new station or a new password is shown once, to be written on the station's
//! card; the server keeps only a verifier. A new password and a removal end the sessions
//! the station's login has open.

use super::PageCtx;
use super::common::{self, LoadErrors};
use super::director::Watch;
use crate::store::{Actor, Engine, Station, parse_tables, tables_text};
use egui::{RichText, Ui};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Cmd {
    Add {
        name: String,
        tables: Vec<ggdesk_core::tournament::TableNo>,
    },
    SetTables {
        name: String,
        tables: Vec<ggdesk_core::tournament::TableNo>,
    },
    Reset(String),
    Remove(String),
}

#[derive(Default)]
pub struct StationsPage {
    name: String,
    tables: String,
    /// The tables being edited, by station.
    editing: Option<(String, String)>,
    /// The URL of the station just added, or just given a new password (true): shown once.
    created: Option<(String, String, bool)>,
    error: Option<String>,
    queued: Vec<Cmd>,
    confirm_remove: Option<String>,
    confirm_reset: Option<String>,
    /// The stations as last read: read again when the database changed, not every frame
    /// (each read is a round trip to the server).
    stations: Vec<Station>,
    load: LoadErrors,
    watch: Watch,
}

impl StationsPage {
    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        ui.heading("Arbiter stations");
        if cx.store.engine() != Engine::Postgres {
            ui.label(
                "This desk runs on a database file: one laptop, no stations. For an arbiter \
                 desk at every table, run the event on a server (README: \"Running an event on a \
                 server\") and open the director's desk on its URL.",
            );
            return;
        }
        if let Some(tables) = cx.my_tables {
            ui.label(format!(
                "This desk is an arbiter station (tables {}). The director adds and changes \
                 stations.",
                tables_text(tables)
            ));
            return;
        }
        if self.watch.stale(cx, None) {
            let mut load = LoadErrors::default();
            self.stations = load
                .check("the stations", cx.store.stations())
                .unwrap_or_default();
            self.load = load;
        }
        if self.load.banner(ui) {
            return;
        }
        self.created_ui(ui);
        self.add_ui(ui);
        ui.separator();
        let stations = std::mem::take(&mut self.stations);
        self.list_ui(ui, &stations);
        self.stations = stations;
        if let Some(e) = &self.error {
            ui.label(RichText::new(e).color(common::RED));
        }
        for cmd in std::mem::take(&mut self.queued) {
            self.apply(cmd, cx);
        }
    }

    fn created_ui(&mut self, ui: &mut Ui) {
        let Some((name, url, reset)) = &self.created else {
            return;
        };
        let mut close = false;
        egui::Frame::group(ui.style()).show(ui, |ui| {
            let text = if *reset {
                format!(
                    "Station {name} has a new password. Its desk connects with this address, \
                     shown only now: write it on a new card (the old card no longer works)."
                )
            } else {
                format!(
                    "Station {name} is ready. Its desk connects with this address, shown only now: \
                     write it on the station's card."
                )
            };
            ui.label(RichText::new(text).strong());
            ui.label(RichText::new(url).monospace().size(16.0));
            ui.horizontal(|ui| {
                if ui.button("Copy the address").clicked() {
                    ui.ctx().copy_text(url.clone());
                }
                if ui.button("Done: hide it").clicked() {
                    close = true;
                }
            });
        });
        if close {
            self.created = None;
        }
    }

    fn add_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let l = ui.label("New station");
            ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(140.0))
                .labelled_by(l.id);
            let l = ui.label("tables");
            let tables = ui
                .add(
                    egui::TextEdit::singleline(&mut self.tables)
                        .desired_width(140.0)
                        .hint_text("1-10, 12"),
                )
                .labelled_by(l.id);
            // Enter in the tables box adds the station, as the button does.
            let entered = tables.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Add the station").clicked() || entered {
                match parse_tables(&self.tables) {
                    Ok(tables) => self.queued.push(Cmd::Add {
                        name: self.name.trim().to_string(),
                        tables,
                    }),
                    Err(e) => self.error = Some(format!("tables: {e}")),
                }
            }
        });
        ui.label(
            RichText::new(
                "A station may run the games of its tables and nothing else: the server refuses \
                 the rest.",
            )
            .weak(),
        );
    }

    fn list_ui(&mut self, ui: &mut Ui, stations: &[Station]) {
        if stations.is_empty() {
            ui.label("No station yet.");
            return;
        }
        egui::Grid::new("ggdesk-stations")
            .striped(true)
            .num_columns(4)
            .show(ui, |ui| {
                ui.label(RichText::new("Station").strong());
                ui.label(RichText::new("Login").strong());
                ui.label(RichText::new("Tables").strong());
                ui.label("");
                ui.end_row();
                for s in stations {
                    ui.label(&s.name);
                    ui.label(RichText::new(&s.role).monospace());
                    match &mut self.editing {
                        Some((name, text)) if *name == s.name => {
                            let l = ui.label("");
                            let r = ui
                                .add(egui::TextEdit::singleline(text).desired_width(140.0))
                                .labelled_by(l.id);
                            let enter =
                                r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                            ui.horizontal(|ui| {
                                if ui.button("Save").clicked() || enter {
                                    match parse_tables(text) {
                                        Ok(tables) => self.queued.push(Cmd::SetTables {
                                            name: s.name.clone(),
                                            tables,
                                        }),
                                        Err(e) => self.error = Some(format!("tables: {e}")),
                                    }
                                }
                            });
                        }
                        _ => {
                            ui.label(tables_text(&s.tables));
                            ui.horizontal(|ui| {
                                if ui.button("Change tables").clicked() {
                                    self.editing = Some((s.name.clone(), tables_text(&s.tables)));
                                }
                                if self.confirm_reset.as_deref() == Some(s.name.as_str()) {
                                    if ui
                                        .button(
                                            RichText::new(
                                                "New password: its desk stops until it uses the new card",
                                            )
                                            .color(common::RED),
                                        )
                                        .clicked()
                                    {
                                        self.queued.push(Cmd::Reset(s.name.clone()));
                                    }
                                    if ui.button("Keep the password").clicked() {
                                        self.confirm_reset = None;
                                    }
                                } else if ui.button("New password").clicked() {
                                    self.confirm_reset = Some(s.name.clone());
                                    self.confirm_remove = None;
                                }
                                if self.confirm_remove.as_deref() == Some(s.name.as_str()) {
                                    if ui
                                        .button(
                                            RichText::new("Remove: its desk stops")
                                                .color(common::RED),
                                        )
                                        .clicked()
                                    {
                                        self.queued.push(Cmd::Remove(s.name.clone()));
                                    }
                                    if ui.button("Keep it").clicked() {
                                        self.confirm_remove = None;
                                    }
                                } else if ui.button("Remove").clicked() {
                                    self.confirm_remove = Some(s.name.clone());
                                    self.confirm_reset = None;
                                }
                            });
                        }
                    }
                    ui.end_row();
                }
            });
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>) {
        let actor = Actor::director();
        self.error = None;
        self.watch.force();
        match cmd {
            Cmd::Add { name, tables } => match cx.store.add_station(&name, &tables, &actor) {
                Ok(login) => {
                    cx.notices.info(format!(
                        "Station {name} added (tables {})",
                        tables_text(&tables)
                    ));
                    self.created = Some((name, login.url, false));
                    self.name.clear();
                    self.tables.clear();
                }
                Err(e) => self.error = Some(e.to_string()),
            },
            Cmd::SetTables { name, tables } => {
                match cx.store.set_station_tables(&name, &tables, &actor) {
                    Ok(()) => {
                        cx.notices
                            .info(format!("Station {name}: tables {}", tables_text(&tables)));
                        self.editing = None;
                    }
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
            Cmd::Reset(name) => match cx.store.reset_station(&name, &actor) {
                Ok(login) => {
                    cx.notices.info(format!(
                        "Station {name} has a new password; its open sessions were ended"
                    ));
                    self.created = Some((name, login.url, true));
                    self.confirm_reset = None;
                }
                Err(e) => self.error = Some(e.to_string()),
            },
            Cmd::Remove(name) => match cx.store.remove_station(&name, &actor) {
                Ok(()) => {
                    cx.notices.info(format!("Station {name} removed"));
                    self.confirm_remove = None;
                }
                Err(e) => self.error = Some(e.to_string()),
            },
        }
    }
}
