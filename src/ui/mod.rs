//! The desk: the egui application. The only module that touches egui.
//!
//! The app reads the time once per frame and hands it to the pages; pages draw and queue
//! commands, which are applied through the store (one transaction each) after drawing.
//! eframe's own storage keeps only UI preferences; everything else lives in SQLite.

pub mod arbiter;
pub mod common;
pub mod director;
mod public_pages;
mod settings;

use crate::store::Store;
use common::Notices;
use egui::{Key, RichText, Ui};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::rc::Rc;

/// The pages of the desk, in the order of the navigation bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Page {
    Players,
    Tournaments,
    Registration,
    Rounds,
    Tables,
    Standings,
    Settings,
}

impl Page {
    pub const ALL: [Page; 7] = [
        Page::Players,
        Page::Tournaments,
        Page::Registration,
        Page::Rounds,
        Page::Tables,
        Page::Standings,
        Page::Settings,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Page::Players => "Players",
            Page::Tournaments => "Tournaments",
            Page::Registration => "Registration",
            Page::Rounds => "Rounds",
            Page::Tables => "Tables",
            Page::Standings => "Standings",
            Page::Settings => "Settings",
        }
    }

    /// The function key that opens the page (F1–F7).
    pub fn key(self) -> Key {
        match self {
            Page::Players => Key::F1,
            Page::Tournaments => Key::F2,
            Page::Registration => Key::F3,
            Page::Rounds => Key::F4,
            Page::Tables => Key::F5,
            Page::Standings => Key::F6,
            Page::Settings => Key::F7,
        }
    }
}

/// Light, dark, or as the system says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ThemeChoice {
    #[default]
    System,
    Light,
    Dark,
}

/// What eframe remembers between runs: UI preferences only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prefs {
    pub page: Page,
    pub theme: ThemeChoice,
    pub tournament: Option<i64>,
}

impl Default for Prefs {
    fn default() -> Self {
        Prefs {
            page: Page::Tournaments,
            theme: ThemeChoice::System,
            tournament: None,
        }
    }
}

/// Where the desk gets the time: the system clock, or a clock the tests move by hand.
#[derive(Debug, Clone)]
pub enum TimeSource {
    System,
    Manual(Rc<Cell<i64>>),
}

impl TimeSource {
    pub fn now_ms(&self) -> i64 {
        match self {
            TimeSource::System => crate::store::now_ms(),
            TimeSource::Manual(t) => t.get(),
        }
    }
}

/// What every page gets for a frame.
pub struct PageCtx<'a> {
    pub store: &'a mut Store,
    pub now_ms: i64,
    pub tournament: &'a mut Option<i64>,
    pub notices: &'a mut Notices,
    /// A page asks to switch pages by setting this.
    pub goto: &'a mut Option<Page>,
}

/// The desk application.
pub struct DeskApp {
    store: Result<Store, String>,
    pub prefs: Prefs,
    time: TimeSource,
    pub notices: Notices,
    settings: settings::SettingsPage,
    pub tables: arbiter::TablesPage,
    pub players: director::players::PlayersPage,
    pub tournaments: director::tournaments::TournamentsPage,
    pub registration: director::registration::RegistrationPage,
    pub rounds: director::rounds::RoundsPage,
    pub standings: director::standings::StandingsPage,
    status: director::StatusCache,
}

const PREFS_KEY: &str = "ggdesk.prefs";

impl DeskApp {
    /// The desk on an opened store (or the reason it could not be opened), restoring the
    /// games in progress.
    pub fn new(store: Result<Store, String>, prefs: Prefs, time: TimeSource) -> DeskApp {
        let mut notices = Notices::default();
        let now = time.now_ms();
        notices.set_now(now);
        let store = store.map(|mut s| {
            match s.restore_games_in_progress(now) {
                Ok(report) => {
                    if !report.restored.is_empty() {
                        notices.info(format!(
                            "{} game(s) in progress restored; their clocks continue from where they stopped",
                            report.restored.len()
                        ));
                    }
                    for (id, e) in &report.failed {
                        notices.error(format!("restoring game {id}: {e}"));
                    }
                }
                Err(e) => notices.error(format!("restoring games in progress: {e}")),
            }
            s
        });
        DeskApp {
            store,
            prefs,
            time,
            notices,
            settings: settings::SettingsPage::default(),
            tables: arbiter::TablesPage::default(),
            players: Default::default(),
            tournaments: Default::default(),
            registration: Default::default(),
            rounds: Default::default(),
            standings: Default::default(),
            status: Default::default(),
        }
    }

    /// The store, when the database opened.
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref().ok()
    }

    pub fn store_mut(&mut self) -> Option<&mut Store> {
        self.store.as_mut().ok()
    }

    fn apply_theme(&self, ctx: &egui::Context) {
        let pref = match self.prefs.theme {
            ThemeChoice::System => egui::ThemePreference::System,
            ThemeChoice::Light => egui::ThemePreference::Light,
            ThemeChoice::Dark => egui::ThemePreference::Dark,
        };
        ctx.set_theme(pref);
    }

    /// Draws one frame of the whole desk.
    pub fn show(&mut self, ui: &mut Ui) {
        let now_ms = self.time.now_ms();
        self.notices.set_now(now_ms);
        self.apply_theme(ui.ctx());
        // The clocks need a fresh frame at least every quarter second.
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_millis(250));

        let store = match &mut self.store {
            Ok(store) => store,
            Err(message) => {
                let message = message.clone();
                egui::CentralPanel::default().show(ui, |ui| cannot_open(ui, &message));
                return;
            }
        };

        // Function keys switch pages, unless a dialog has the keyboard.
        let mut goto: Option<Page> = None;
        for page in Page::ALL {
            if ui.input(|i| i.key_pressed(page.key())) {
                goto = Some(page);
            }
        }

        let mut tournament = self.prefs.tournament;
        egui::Panel::top("ggdesk-top").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading(RichText::new("ggdesk").strong());
                ui.separator();
                for page in Page::ALL {
                    let selected = self.prefs.page == page;
                    let label = format!("{}  {:?}", page.title(), page.key());
                    if ui
                        .selectable_label(selected, label)
                        .on_hover_text(format!("Open {} ({:?})", page.title(), page.key()))
                        .clicked()
                    {
                        goto = Some(page);
                    }
                }
            });
            let mut frame = PageCtx {
                store,
                now_ms,
                tournament: &mut tournament,
                notices: &mut self.notices,
                goto: &mut goto,
            };
            director::status_line(ui, &mut frame, &mut self.status);
        });
        self.prefs.tournament = tournament;

        egui::Panel::bottom("ggdesk-notices").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                if self.notices.items.is_empty() {
                    let db = store
                        .path()
                        .map_or_else(|| "in memory".to_string(), |p| p.display().to_string());
                    ui.label(RichText::new(format!("Database: {db}")).weak());
                }
                for n in &self.notices.items {
                    let color = if n.error { common::RED } else { common::GREEN };
                    ui.label(RichText::new(&n.text).color(color).strong());
                }
            });
        });

        let mut frame = PageCtx {
            store,
            now_ms,
            tournament: &mut self.prefs.tournament,
            notices: &mut self.notices,
            goto: &mut goto,
        };
        self.tables.background(&mut frame);
        let page = self.prefs.page;
        let mut theme = self.prefs.theme;
        egui::CentralPanel::default().show(ui, |ui| match page {
            Page::Settings => self.settings.ui(ui, &mut frame, &mut theme),
            Page::Tables => self.tables.ui(ui, &mut frame),
            Page::Players => self.players.ui(ui, &mut frame),
            Page::Tournaments => self.tournaments.ui(ui, &mut frame),
            Page::Registration => self.registration.ui(ui, &mut frame),
            Page::Rounds => self.rounds.ui(ui, &mut frame),
            Page::Standings => self.standings.ui(ui, &mut frame),
        });
        self.prefs.theme = theme;
        if let Some(page) = goto {
            self.prefs.page = page;
        }
    }
}

fn cannot_open(ui: &mut Ui, message: &str) {
    ui.add_space(40.0);
    ui.vertical_centered(|ui| {
        ui.heading(RichText::new("The database cannot be opened").color(common::RED));
        ui.add_space(10.0);
        ui.label(message);
        ui.add_space(10.0);
        ui.label(
            "Nothing was changed in the file. Start ggdesk with --db PATH to open another \
             database, or move this one aside to start a new one.",
        );
        ui.add_space(10.0);
        if ui.button("Quit").clicked() {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    });
}

impl eframe::App for DeskApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    /// The preferences are small: keep them every few seconds, so a desk that is killed
    /// comes back on the page and tournament it showed.
    fn auto_save_interval(&self) -> std::time::Duration {
        std::time::Duration::from_secs(5)
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, PREFS_KEY, &self.prefs);
    }
}

/// Opens the desk window on the database at `db`.
pub fn run(db: crate::store::Address) -> Result<(), String> {
    let store = Store::connect(&db).map_err(|e| e.to_string());
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(format!("ggdesk — {db}"))
            .with_inner_size([1366.0, 768.0])
            .with_min_inner_size([1024.0, 640.0]),
        renderer: eframe::Renderer::Glow,
        persist_window: true,
        ..Default::default()
    };
    eframe::run_native(
        "ggdesk",
        options,
        Box::new(move |cc| {
            let prefs = cc
                .storage
                .and_then(|s| eframe::get_value::<Prefs>(s, PREFS_KEY))
                .unwrap_or_default();
            Ok(Box::new(DeskApp::new(store, prefs, TimeSource::System)))
        }),
    )
    .map_err(|e| format!("the desk window could not open: {e}"))
}
