//! Stations (F9): on an event server, the director creates one station per group of tables,
//! gives it its tables, a new secret (a card lost or seen), and removes it.
//!
//! A station speaks to the HTTPS API of the event server `ggdesk host` runs (it recorded its
//! event server) and never logs into the database: it belongs to a tournament, and its card
//! (the stations' address, the station, its secret, the authority's fingerprint and a QR
//! code of its link) is shown once and saved as an A6 PDF to print. The server keeps only a
//! hash of the secret; a new secret and a removal end what the station has open.

use super::PageCtx;
use super::common::{self, LoadErrors};
use super::director::Watch;
use super::files;
use crate::station::card::{Card, CardFormat};
use crate::store::{
    Actor, Engine, EventServer, Station, Store, StoreError, TournamentId, parse_tables, tables_text,
};
use egui::{RichText, Ui};
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Cmd {
    Add {
        name: String,
        tables: Vec<ggdesk_core::tournament::TableNo>,
        /// The station's tournament (its card is made).
        tournament: TournamentId,
    },
    SetTables {
        name: String,
        tables: Vec<ggdesk_core::tournament::TableNo>,
    },
    Reset(String),
    Remove(String),
    /// Saves the card shown to this file and opens it to print.
    SaveCard(PathBuf),
}

#[derive(Default)]
pub struct StationsPage {
    name: String,
    tables: String,
    /// The tables being edited, by station.
    editing: Option<(String, String)>,
    error: Option<String>,
    queued: Vec<Cmd>,
    confirm_remove: Option<String>,
    confirm_reset: Option<String>,
    /// The stations as last read: read again when the database changed, not every frame
    /// (each read is a round trip to the server).
    stations: Vec<Station>,
    /// The event server `ggdesk host` runs on this database, if any: stations are then the
    /// API's, each with a card.
    server: Option<EventServer>,
    /// The stations' addresses of the server's standbys (a card names them too).
    standbys: Vec<String>,
    tournaments: Vec<(TournamentId, String)>,
    /// The tournament a new station is for.
    tournament: Option<TournamentId>,
    /// The card of the station just added, or just given a new secret (true): its secret
    /// is shown only while this is kept.
    card: Option<(Card, bool)>,
    /// Where the card is saved, as typed.
    card_path: String,
    load: LoadErrors,
    watch: Watch,
    /// On a desk opened on a file: the form that hosts the event.
    host_panel: super::hosting::HostPanel,
    /// Whether the desk runs as root (asked once: the cluster then needs another user).
    root: Option<bool>,
    /// The server the form just started, for the desk to go on on.
    pub hosted: Option<super::hosting::Hosted>,
    /// On a desk opened on a file: the form that connects it to an event as a station.
    pub connect_panel: super::connect::ConnectPanel,
    /// The event the form just connected to, for the desk to go on as its station.
    pub connected: Option<crate::station::connect::Connected>,
    /// The server this desk runs, if it does.
    pub hosting: Option<HostedHere>,
}

/// The event server this desk runs: its folder and public pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostedHere {
    pub dir: PathBuf,
    pub pages: String,
}

impl StationsPage {
    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        ui.heading("Arbiter stations");
        if cx.store.engine() != Engine::Postgres {
            ui.label(
                "This desk runs on a database file: one laptop, no stations. For an arbiter \
                 station at every table, host the event on the network (below), or run it on a \
                 server you keep (README: \"Running an event on a server\"). An arbiter with a \
                 station's card connects this laptop to the event instead.",
            );
            ui.separator();
            // A laptop with no event of its own is most likely a station's: its form first.
            let empty = cx
                .store
                .tournament_names()
                .map(|names| names.is_empty())
                .unwrap_or(false);
            let root = *self
                .root
                .get_or_insert_with(|| crate::host::cluster::whoami().0);
            if empty {
                self.connected = self.connect_panel.ui(ui);
                ui.separator();
                self.hosted = self.host_panel.ui(ui, cx.store.path(), root);
            } else {
                self.hosted = self.host_panel.ui(ui, cx.store.path(), root);
                ui.separator();
                self.connected = self.connect_panel.ui(ui);
            }
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
            self.server = load
                .check("the event server", cx.store.event_server())
                .flatten();
            self.standbys = load
                .check("the standbys", cx.store.standby_addresses())
                .unwrap_or_default();
            self.tournaments = load
                .check("the tournaments", cx.store.tournament_names())
                .unwrap_or_default();
            if self
                .tournament
                .is_none_or(|t| !self.tournaments.iter().any(|(id, _)| *id == t))
            {
                self.tournament = (*cx.tournament)
                    .filter(|t| self.tournaments.iter().any(|(id, _)| id == t))
                    .or_else(|| self.tournaments.first().map(|(id, _)| *id));
            }
            self.load = load;
        }
        if self.load.banner(ui) {
            return;
        }
        if let Some(here) = &self.hosting {
            ui.label(
                RichText::new(format!(
                    "This desk runs the event server (folder {}; public pages {}): keep it open \
                     while the event runs. Closing it stops the server; every saved result is \
                     kept.",
                    here.dir.display(),
                    here.pages
                ))
                .strong(),
            );
        }
        if let Some(server) = &self.server {
            ui.label(format!(
                "This event's server runs the stations' HTTPS API at {} (authority sha256:{}…). \
                 A station never logs into the database: its card holds its secret.",
                server.stations_address,
                crate::tls::short(&server.authority)
            ));
            ui.add_space(4.0);
        }
        self.card_ui(ui);
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

    /// The tournament of station `name`.
    fn api_station(&self, name: &str) -> Option<TournamentId> {
        self.stations
            .iter()
            .find(|s| s.name == name)
            .map(|s| s.tournament)
    }

    /// A new secret for station `name` of the API, and its card.
    fn new_card(&self, store: &mut Store, name: &str) -> Result<Card, StoreError> {
        let (Some(server), Some(tournament)) = (&self.server, self.api_station(name)) else {
            return Err(StoreError::Rejected(format!(
                "station {name} has no card: it is not a station of this event's server"
            )));
        };
        let secret = store.issue_station_secret(name, tournament, &Actor::director())?;
        Ok(Card::of_station(server, &self.standbys, name, secret))
    }

    fn show_card(&mut self, card: Card, reset: bool) {
        let dir = Store::default_path()
            .and_then(|p| p.parent().map(|d| d.join("cards")))
            .unwrap_or_else(|| PathBuf::from("cards"));
        self.card_path = dir
            .join(format!("{}.pdf", card.station))
            .display()
            .to_string();
        self.card = Some((card, reset));
    }

    /// The card just made: every line of it, the secret large, a place to save it as a PDF
    /// to print; shown until the director hides it (the secret is shown nowhere else).
    fn card_ui(&mut self, ui: &mut Ui) {
        let Some((card, reset)) = &self.card else {
            return;
        };
        let mut close = false;
        egui::Frame::group(ui.style()).show(ui, |ui| {
            let text = if *reset {
                format!(
                    "Station {} has a new secret, shown only now: print its new card (the old \
                     card no longer works).",
                    card.station
                )
            } else {
                format!(
                    "Station {} is ready. Its card, shown only now: print it and leave it at \
                     its tables.",
                    card.station
                )
            };
            ui.label(RichText::new(text).strong());
            egui::Grid::new("ggdesk-station-card")
                .num_columns(2)
                .show(ui, |ui| {
                    ui.label("Address");
                    ui.label(RichText::new(&card.address).monospace());
                    ui.end_row();
                    for standby in &card.standbys {
                        ui.label("or (standby)");
                        ui.label(RichText::new(standby).monospace());
                        ui.end_row();
                    }
                    ui.label("Station");
                    ui.label(RichText::new(&card.station).monospace());
                    ui.end_row();
                    ui.label("Secret");
                    ui.label(
                        RichText::new(card.secret_lines().join("\n"))
                            .monospace()
                            .size(18.0),
                    );
                    ui.end_row();
                    ui.label("Authority");
                    ui.label(RichText::new(format!("sha256:{}", card.authority16)).monospace());
                    ui.end_row();
                    ui.label("Link");
                    ui.label(RichText::new(&card.link).monospace());
                    ui.end_row();
                });
            ui.horizontal(|ui| {
                let l = ui.label("Save the card as");
                ui.add(egui::TextEdit::singleline(&mut self.card_path).desired_width(360.0))
                    .labelled_by(l.id);
                if ui.button("Save and open the PDF").clicked() {
                    let path = PathBuf::from(self.card_path.trim());
                    match path.parent() {
                        Some(dir) if !dir.as_os_str().is_empty() => {
                            if let Err(e) = std::fs::create_dir_all(dir) {
                                self.error = Some(format!("cannot create {}: {e}", dir.display()));
                                return;
                            }
                        }
                        _ => {}
                    }
                    self.queued.push(Cmd::SaveCard(path));
                }
            });
            if ui.button("Done: hide the secret").clicked() {
                close = true;
            }
        });
        if close {
            self.card = None;
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
            {
                let of = ui.label("of");
                let shown = self
                    .tournaments
                    .iter()
                    .find(|(id, _)| Some(*id) == self.tournament)
                    .map_or_else(
                        || "no tournament yet".to_string(),
                        |(id, n)| format!("{n} ({id})"),
                    );
                egui::ComboBox::from_id_salt("ggdesk-station-tournament")
                    .selected_text(shown)
                    .width(220.0)
                    .show_ui(ui, |ui| {
                        for (id, name) in &self.tournaments {
                            ui.selectable_value(
                                &mut self.tournament,
                                Some(*id),
                                format!("{name} ({id})"),
                            );
                        }
                    })
                    .response
                    .labelled_by(of.id);
            }
            // Enter in the tables box adds the station, as the button does.
            let entered = tables.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Add the station").clicked() || entered {
                match parse_tables(&self.tables) {
                    Ok(tables) => match self.tournament {
                        Some(tournament) => self.queued.push(Cmd::Add {
                            name: self.name.trim().to_string(),
                            tables,
                            tournament,
                        }),
                        None => {
                            self.error = Some(
                                "a station runs the tables of one tournament: create the \
                                 tournament first (Tournaments, F2)"
                                    .into(),
                            )
                        }
                    },
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
                ui.label(RichText::new("Tournament").strong());
                ui.label(RichText::new("Tables").strong());
                ui.label("");
                ui.end_row();
                for s in stations {
                    ui.label(&s.name);
                    let t = s.tournament;
                    ui.label(
                        self.tournaments
                            .iter()
                            .find(|(id, _)| *id == t)
                            .map_or_else(|| t.to_string(), |(_, n)| format!("{n} ({t})")),
                    );
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
                                let word = "secret";
                                if self.confirm_reset.as_deref() == Some(s.name.as_str()) {
                                    if ui
                                        .button(
                                            RichText::new(format!(
                                                "New {word}: its desk stops until it uses the new card"
                                            ))
                                            .color(common::RED),
                                        )
                                        .clicked()
                                    {
                                        self.queued.push(Cmd::Reset(s.name.clone()));
                                    }
                                    if ui.button(format!("Keep the {word}")).clicked() {
                                        self.confirm_reset = None;
                                    }
                                } else if ui.button(format!("New {word}")).clicked() {
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
            Cmd::Add {
                name,
                tables,
                tournament,
            } => match add_with_card(
                cx.store,
                &name,
                &tables,
                tournament,
                self.server.as_ref(),
                &self.standbys,
            ) {
                Ok(card) => {
                    cx.notices.info(format!(
                        "Station {name} added (tables {}); its card is shown",
                        tables_text(&tables)
                    ));
                    self.show_card(card, false);
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
            Cmd::Reset(name) => match self.new_card(cx.store, &name) {
                Ok(card) => {
                    cx.notices.info(format!(
                        "Station {name} has a new secret; its open requests were ended"
                    ));
                    self.show_card(card, true);
                    self.confirm_reset = None;
                }
                Err(e) => self.error = Some(e.to_string()),
            },
            Cmd::SaveCard(path) => {
                let Some((card, _)) = &self.card else {
                    return;
                };
                match card.write_private(&path, CardFormat::Pdf) {
                    Ok(()) => {
                        files::print_page(cx.notices, cx.launcher, "The station's card", &path)
                    }
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
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

/// Adds station `name` of the API for `tournament` with its secret: its card.
fn add_with_card(
    store: &mut Store,
    name: &str,
    tables: &[ggdesk_core::tournament::TableNo],
    tournament: TournamentId,
    server: Option<&EventServer>,
    standbys: &[String],
) -> Result<Card, StoreError> {
    let Some(server) = server else {
        return Err(StoreError::Rejected(
            "this database has no event server: start it with ggdesk host".into(),
        ));
    };
    let secret = store.add_station(name, tournament, tables, &Actor::director())?;
    Ok(Card::of_station(server, standbys, name, secret))
}
