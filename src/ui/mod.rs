//! The desk: the egui application. The only module that touches egui.
//!
//! The app reads the time once per frame and hands it to the pages; pages draw and queue
//! commands, which are applied through the store (one transaction each) after drawing.
//! eframe's own storage keeps only UI preferences; everything else lives in SQLite.

pub mod arbiter;
pub mod audit;
pub mod common;
mod connect;
pub mod director;
pub mod files;
pub mod help;
pub mod hosting;
pub mod input;
pub mod live;
mod public_pages;
pub mod ratings;
mod settings;
mod stations;
mod wake;

use crate::store::TournamentId;
use crate::store::{Address, Store};
use common::Notices;
use egui::{Key, RichText, Ui};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the desk draws a frame to look at the database when nothing else asks for
/// one. On a file, another program's write wakes the desk at once ([`wake::FileWatch`]);
/// this only makes sure a change missed between a look and a frame is found. On a server,
/// the server's notices wake it; this notices a server gone silent.
const POLL_FILE: Duration = Duration::from_secs(10);
const POLL_SERVER: Duration = Duration::from_secs(5);

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
    Stations,
    Ratings,
    Bracket,
    Teams,
}

impl Page {
    pub const ALL: [Page; 11] = [
        Page::Players,
        Page::Tournaments,
        Page::Registration,
        Page::Teams,
        Page::Rounds,
        Page::Tables,
        Page::Standings,
        Page::Settings,
        Page::Stations,
        Page::Ratings,
        Page::Bracket,
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
            Page::Stations => "Stations",
            Page::Ratings => "Ratings",
            Page::Bracket => "Bracket",
            Page::Teams => "Teams",
        }
    }

    /// Whether an arbiter station's desk shows the page: its tables, the round's pairings
    /// and the standings (read-only), and Settings (its theme and the audit of its own
    /// games). Players, tournaments, registration, stations and ratings are the director's.
    pub fn for_station(self) -> bool {
        matches!(
            self,
            Page::Tables | Page::Rounds | Page::Standings | Page::Settings
        )
    }

    /// Whether a station's desk on the event server's API shows the page: its tables and its
    /// own settings.
    pub fn for_station_api(self) -> bool {
        matches!(self, Page::Tables | Page::Settings)
    }

    /// The function key that opens the page (F1–F7, F9–F12; F8 pauses a table's clocks).
    pub fn key(self) -> Key {
        match self {
            Page::Players => Key::F1,
            Page::Tournaments => Key::F2,
            Page::Registration => Key::F3,
            Page::Rounds => Key::F4,
            Page::Tables => Key::F5,
            Page::Standings => Key::F6,
            Page::Settings => Key::F7,
            Page::Stations => Key::F9,
            Page::Ratings => Key::F10,
            Page::Bracket => Key::F11,
            Page::Teams => Key::F12,
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
    pub tournament: Option<TournamentId>,
    /// The folder the file pickers open on.
    #[serde(default)]
    pub last_folder: Option<PathBuf>,
}

impl Default for Prefs {
    fn default() -> Self {
        Prefs {
            page: Page::Tournaments,
            theme: ThemeChoice::System,
            tournament: None,
            last_folder: None,
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
    pub tournament: &'a mut Option<TournamentId>,
    pub notices: &'a mut Notices,
    /// A page asks to switch pages by setting this.
    pub goto: &'a mut Option<Page>,
    /// Opens pages to print and folders (tests record instead).
    pub launcher: &'a files::Launcher,
    /// The folder a file picker opens on: the last one a file was picked from.
    pub last_folder: &'a mut Option<PathBuf>,
    /// A text field has the keyboard (now, or had it when this frame's keys were typed: Esc
    /// leaves a field before the page sees the key). Shortcuts other than the function keys
    /// wait while it has: a key typed into a field is the field's, never also a command.
    pub typing: bool,
    /// Moves whenever the database may have changed, or the connection came back (see
    /// `Live::stamp`): pages key their reloads on it.
    pub stamp: i64,
    /// Pages also reload every few seconds (a file another program may write without the
    /// desk being told); on a server they reload when the server announces a change.
    pub poll: bool,
    /// The tables this desk runs: `None` for every table (the director's desk).
    pub my_tables: Option<&'a [ggdesk_core::tournament::TableNo]>,
    /// The desk reaches its database (on a server: it is connected and saving).
    pub connected: bool,
    /// Which arbiter station runs each table of each tournament (on a server).
    pub table_stations: &'a crate::store::TableStations,
    /// Which games this desk writes into by itself.
    pub keeper: &'a crate::store::Keeper,
    /// This desk as the audit log names it: its station ("hall-a"), or "director's desk".
    pub desk: &'a str,
}

/// The name of the desk that is no arbiter station, in the audit log.
pub const DIRECTOR_DESK: &str = crate::store::DIRECTOR_DESK;

impl PageCtx<'_> {
    /// Who acts at this desk, for the audit log: the desk itself ("hall-a", "director's
    /// desk"); where (the round and table) is the line's own.
    pub fn actor(&self) -> crate::store::Actor {
        crate::store::Actor(self.desk.to_string())
    }

    /// This desk acting by itself (a clock ran out, reading time ended).
    pub fn automatic(&self) -> crate::store::Actor {
        crate::store::Actor(format!("{} (automatic)", self.desk))
    }
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
    pub ratings: ratings::RatingsPage,
    pub bracket: director::bracket::BracketPage,
    pub teams: director::teams::TeamsPage,
    status: director::StatusCache,
    pacer: input::InputPacer,
    /// A text field had the keyboard at the end of the last frame.
    typing_last: bool,
    /// Opens pages to print and folders; tests replace it with a recorder.
    pub launcher: files::Launcher,
    /// Set when the process is asked to stop (SIGTERM, Ctrl+C): the desk closes its window
    /// cleanly on the next frame.
    quit: Arc<AtomicBool>,
    /// The connection, the changes other desks made, the stations and the standby.
    pub live: live::Live,
    stations: stations::StationsPage,
    /// An arbiter station's desk opened on its Tables page once.
    station_page_shown: bool,
    /// The list of every key (the "Keys" button, Shift+F1, `?`).
    help: help::Help,
    /// Another program's writes to the database file wake the desk (a file only).
    file_watch: Option<wake::FileWatch>,
    file_watch_started: bool,
    /// The event server this desk started ("Host this event on the network"): it runs while
    /// the desk is open.
    host: Option<crate::host::Host>,
}

const PREFS_KEY: &str = "ggdesk.prefs";

/// Reads the loaded tables `ids` again, as the database (or the event server) has them now.
/// At a station's desk, a table the server no longer lets it read (a game of a round no
/// longer in play) has left the station's tables: it is let go quietly, not reported.
fn reload_tables(
    tables: &mut crate::desk::Tables,
    notices: &mut Notices,
    store: &Store,
    ids: &[crate::store::GameId],
) {
    for id in ids {
        let Some(table) = tables.tables.get_mut(id) else {
            continue;
        };
        match table.reload(store) {
            Ok(()) => {}
            Err(crate::store::StoreError::Denied(_)) if store.is_on_station_api() => {
                tables.tables.remove(id);
            }
            Err(e) => notices.error(format!("game {id}: {e}")),
        }
    }
}

impl DeskApp {
    /// The desk on an opened store (or the reason it could not be opened), restoring the
    /// games in progress.
    pub fn new(store: Result<Store, String>, prefs: Prefs, time: TimeSource) -> DeskApp {
        let mut notices = Notices::default();
        let now = time.now_ms();
        notices.set_now(now);
        let store = store.map(|mut s| {
            s.set_now(now);
            // Only the games this desk runs are its to restore; on a server, of those, the
            // ones no desk wrote into for a while (another desk may be running them).
            let restored = match s.engine() {
                crate::store::Engine::Sqlite => s.restore_games_in_progress(now),
                crate::store::Engine::Postgres => s.restore_unattended_games(now, 10_000),
            };
            match restored {
                Ok(report) => {
                    if !report.restored.is_empty() {
                        notices.info(format!(
                            "{} game(s) in progress restored; their clocks continue from where they stopped",
                            report.restored.len()
                        ));
                    }
                    notices.restored(&report);
                }
                Err(e) => notices.error(format!("restoring games in progress: {e}")),
            }
            // From now on, a connection made again is restored before anything is written.
            s.hold_writes_to_this_connection();
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
            ratings: Default::default(),
            bracket: Default::default(),
            teams: Default::default(),
            status: Default::default(),
            live: live::Live::default(),
            stations: Default::default(),
            station_page_shown: false,
            file_watch: None,
            file_watch_started: false,
            help: help::Help::default(),
            pacer: Default::default(),
            typing_last: false,
            launcher: files::Launcher::System,
            quit: Arc::new(AtomicBool::new(false)),
            host: None,
        }
    }

    /// Whether this desk runs the event server it is on.
    pub fn hosts_the_event(&self) -> bool {
        self.host.is_some()
    }

    /// Goes on on the server this desk just started, with the event copied into it: the
    /// pages start afresh on the server's database (as a desk opened on its URL would).
    fn go_on_hosted(&mut self, hosted: hosting::Hosted) {
        let hosting::Hosted { host, store, dir } = hosted;
        let mut next = DeskApp::new(Ok(store), self.prefs.clone(), self.time.clone());
        next.launcher = self.launcher.clone();
        next.quit = self.quit.clone();
        next.notices.info(format!(
            "The event is hosted on this laptop ({}): stations' address {}, public pages {}",
            dir.display(),
            host.stations_address,
            host.pages_address
        ));
        for note in &host.notes {
            next.notices.error(note.clone());
        }
        next.stations.hosting = Some(stations::HostedHere {
            dir,
            pages: host.pages_address.clone(),
        });
        next.host = Some(host);
        *self = next;
    }

    /// Goes on as the station's desk of the event the Stations page just connected to (on
    /// the stations' API): its tables, as `ggdesk --station LINK` opens them.
    fn go_on_station(&mut self, connected: crate::station::connect::Connected) {
        let crate::station::connect::Connected {
            store,
            link,
            authority,
            first_use,
        } = connected;
        let mut next = DeskApp::new(Ok(store), self.prefs.clone(), self.time.clone());
        next.launcher = self.launcher.clone();
        next.quit = self.quit.clone();
        next.notices.info(format!(
            "Connected to the event server {} as station {}: authority sha256:{authority}{}",
            link.server(),
            link.station,
            if first_use {
                " (it matches the card; remembered for this server)"
            } else {
                ""
            }
        ));
        *self = next;
    }

    /// Where "Connect to an event" remembers the authorities it met (by default beside the
    /// default database).
    pub fn remember_authorities_in(&mut self, path: PathBuf) {
        self.stations.connect_panel.known = Some(path);
    }

    /// The flag that asks the desk to close (set from a signal handler).
    pub fn quit_flag(&self) -> Arc<AtomicBool> {
        self.quit.clone()
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
        if ctx
            .style_of(ctx.theme())
            .text_styles
            .get(&egui::TextStyle::Body)
            != Some(&text_size(BODY))
        {
            ctx.all_styles_mut(readable_text);
        }
        // No anti-aliasing fringe around shapes (text keeps its own): under a software
        // renderer most of an open table's frame went into the board's thousands of thin
        // fringe triangles (benches/README.md).
        if ctx.tessellation_options(|o| o.feathering) {
            ctx.tessellation_options_mut(|o| o.feathering = false);
        }
    }

    /// Draws one frame of the whole desk.
    ///
    /// The desk repaints only when something asks for it: input, a clock or timer reaching
    /// its next second (the pages ask for exactly that moment), a notice expiring, another
    /// program's write to the database file ([`wake::FileWatch`]), and a long look at the
    /// database every 10 s (5 s on a server).
    pub fn show(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        self.pacer.pace(&ctx);
        if self.quit.load(Ordering::SeqCst) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        // A station's desk on the event server's API shows the clocks on the server's time.
        let offset = self.store.as_ref().map_or(0, Store::clock_offset_ms);
        let now_ms = self.time.now_ms() + offset;
        self.notices.set_now(now_ms);
        self.notices.opens.wake(&ctx);
        self.notices.take_failed_opens();
        self.apply_theme(&ctx);
        let typing = self.typing_last || common::typing(&ctx);

        let store = match &mut self.store {
            Ok(store) => store,
            Err(message) => {
                let message = message.clone();
                egui::CentralPanel::default().show(ui, |ui| cannot_open(ui, &message));
                return;
            }
        };

        // The store writes the frame's time: the desk's clock (a manual one in the tests).
        store.set_now(now_ms);
        match (store.engine(), store.path()) {
            (crate::store::Engine::Postgres, _) => ctx.request_repaint_after(POLL_SERVER),
            (crate::store::Engine::Sqlite, Some(path)) => {
                if !self.file_watch_started {
                    self.file_watch_started = true;
                    let waker = ctx.clone();
                    self.file_watch =
                        wake::FileWatch::start(path, move || waker.request_repaint()).ok();
                }
                let poll = if self.file_watch.is_some() {
                    POLL_FILE
                } else {
                    POLL_SERVER
                };
                ctx.request_repaint_after(poll);
            }
            // In memory: nobody else writes it.
            (crate::store::Engine::Sqlite, None) => {}
        }
        let news = self.live.frame(store, &ctx, now_ms);
        if news.reconnected {
            // The restore is the first write on the new connection: what was typed while the
            // server could not be reached was refused (it stays in its box) and is entered
            // after the restore's pause. Only the tables this desk runs are restored.
            store.hold_writes_to_this_connection();
            let ids: Vec<_> = self.tables.tables.tables.keys().copied().collect();
            match store.restore_games(
                &ids,
                now_ms,
                None,
                "the desk could not reach the server: clocks stopped meanwhile",
            ) {
                Ok(report) => {
                    self.notices.info(format!(
                        "Connected again. {} table(s) of this desk restored: the time the server \
                         could not be reached counts as a pause",
                        report.restored.len()
                    ));
                    self.notices.restored(&report);
                }
                Err(e) => self
                    .notices
                    .error(format!("restoring this desk's tables: {e}")),
            }
            // What said "not connected" is over: the move box and the notices say so no more
            // (what was typed stays in its box, to be played again).
            self.tables.connection_back();
            self.notices.clear_disconnected();
            let all: Vec<crate::store::GameId> =
                self.tables.tables.tables.keys().copied().collect();
            reload_tables(&mut self.tables.tables, &mut self.notices, store, &all);
        }
        // Tables another desk changed: shown as the server has them now.
        if news.everything || !self.live.changed_games.is_empty() {
            let changed: Vec<crate::store::GameId> = self
                .tables
                .tables
                .tables
                .keys()
                .filter(|id| news.everything || self.live.changed_games.contains(id))
                .copied()
                .collect();
            reload_tables(&mut self.tables.tables, &mut self.notices, store, &changed);
        }
        // An arbiter station opens on its tables, in its tournament (not the one the
        // preferences remember).
        if let Some(station) = &self.live.station
            && !self.station_page_shown
        {
            self.station_page_shown = true;
            self.prefs.page = Page::Tables;
            self.prefs.tournament = Some(station.tournament);
        }
        let station = self.live.station.is_some();
        // A station's desk on the API has its tables (and its own settings) only: the
        // event's rounds and standings are the director's and the public pages'.
        let on_api = store.is_on_station_api();
        let shown = |p: Page| (!station || p.for_station()) && (!on_api || p.for_station_api());
        if !shown(self.prefs.page) {
            self.prefs.page = Page::Tables;
        }

        // Function keys switch pages whatever has the keyboard: they type nothing.
        let mut goto: Option<Page> = None;
        let keeper = self.live.keeper();
        // What every page gets this frame, with the tournament it follows.
        macro_rules! page_ctx {
            ($tournament:expr) => {
                PageCtx {
                    store,
                    now_ms,
                    tournament: &mut $tournament,
                    notices: &mut self.notices,
                    goto: &mut goto,
                    launcher: &self.launcher,
                    last_folder: &mut self.prefs.last_folder,
                    typing,
                    stamp: self.live.stamp,
                    poll: !matches!(self.live.engine, Some(crate::store::Engine::Postgres)),
                    my_tables: self.live.my_tables(),
                    connected: self.live.disconnected.is_none(),
                    table_stations: &self.live.table_stations,
                    keeper: &keeper,
                    desk: self
                        .live
                        .station
                        .as_ref()
                        .map_or(DIRECTOR_DESK, |s| s.name.as_str()),
                }
            };
        }
        // Shift+F1 is the list of keys, not the Players page.
        self.help.keys(&ctx, typing);
        let pages: Vec<Page> = Page::ALL.into_iter().filter(|p| shown(*p)).collect();
        for &page in &pages {
            if ui.input(|i| i.key_pressed(page.key())) {
                goto = Some(page);
            }
        }

        let mut tournament = self.prefs.tournament;
        egui::Panel::top("ggdesk-top").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading(RichText::new("ggdesk").strong());
                ui.separator();
                for &page in &pages {
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
                ui.separator();
                if ui
                    .selectable_label(self.help.open, "Keys")
                    .on_hover_text("Every key of the desk (Shift+F1, or ? outside a text field)")
                    .clicked()
                {
                    self.help.open = !self.help.open;
                }
            });
            connection_line(ui, &self.live);
            let mut frame = page_ctx!(tournament);
            director::status_line(ui, &mut frame, &mut self.status);
        });
        self.prefs.tournament = tournament;

        // The file, or the server's URL without its password.
        let db = match store.remote_shown() {
            Some(link) => format!("Arbiter station on the event server {link}"),
            None => format!(
                "Database: {}",
                store
                    .address()
                    .map_or_else(|| "in memory".to_string(), Address::shown)
            ),
        };
        let open_folder = notices_panel(ui, &self.notices, &db);
        if let Some(dir) = open_folder
            && !self.launcher.open(&dir)
        {
            self.notices
                .error(format!("No program could open {}", dir.display()));
        }

        let mut frame = page_ctx!(self.prefs.tournament);
        let on_tables = self.prefs.page == Page::Tables;
        self.tables.background(&ctx, &mut frame, on_tables);
        let page = self.prefs.page;
        if page == Page::Rounds {
            self.rounds.paused = self.tables.paused_games(now_ms);
        }
        let mut theme = self.prefs.theme;
        egui::CentralPanel::default().show(ui, |ui| match page {
            Page::Settings => self.settings.ui(ui, &mut frame, &mut theme),
            Page::Tables => self.tables.ui(ui, &mut frame),
            Page::Players => self.players.ui(ui, &mut frame),
            Page::Tournaments => self.tournaments.ui(ui, &mut frame),
            Page::Registration => self.registration.ui(ui, &mut frame),
            Page::Rounds => self.rounds.ui(ui, &mut frame),
            Page::Standings => self.standings.ui(ui, &mut frame),
            Page::Stations => self.stations.ui(ui, &mut frame),
            Page::Ratings => self.ratings.ui(ui, &mut frame),
            Page::Bracket => self.bracket.ui(ui, &mut frame),
            Page::Teams => self.teams.ui(ui, &mut frame),
        });
        self.prefs.theme = theme;
        if let Some(hosted) = self.stations.hosted.take() {
            self.go_on_hosted(hosted);
            ctx.request_repaint();
            return;
        }
        if let Some(connected) = self.stations.connected.take() {
            self.go_on_station(connected);
            ctx.request_repaint();
            return;
        }
        self.help.ui(&ctx);
        if let Some(page) = goto
            && shown(page)
        {
            self.prefs.page = page;
        }
        if let Some(ms) = self.notices.next_expiry_ms() {
            ctx.request_repaint_after(Duration::from_millis(ms as u64));
        }
        self.typing_last = common::typing(&ctx);
        // What this frame wrote is seen: only another program's writes wake the desk.
        if let Some(watch) = &self.file_watch {
            watch.seen();
        }
    }

    /// Before the desk closes: the running clocks are stored as seen now, so a restart
    /// continues them from this moment.
    pub fn closing(&mut self) {
        let now = self.time.now_ms();
        if let Ok(store) = &mut self.store
            && let Err(e) = self.tables.keep_clocks(store, now)
        {
            eprintln!("ggdesk: could not store the clocks on closing: {e}");
        }
        // The server this desk runs stops last, after the desk's own writes.
        if let Some(host) = self.host.take()
            && let Err(e) = host.stop()
        {
            eprintln!("ggdesk: the event server did not stop cleanly: {e}");
        }
    }
}

/// Opens the database at `path` for the desk: the store, or the reason it was refused
/// (shown on the refusal screen; the file is not touched).
pub fn open_store(address: impl Into<Address>) -> Result<Store, String> {
    Store::connect(&address.into()).map_err(|e| e.to_string())
}

/// The notices at the bottom of the window (or the database's path when there are none);
/// returns the folder of a written file whose "Open folder" was clicked.
fn notices_panel(ui: &mut Ui, notices: &Notices, db: &str) -> Option<PathBuf> {
    // `db`: where the desk's data is ("Database: PATH", or the station's event server).
    let mut open_folder = None;
    egui::Panel::bottom("ggdesk-notices").show(ui, |ui| {
        if notices.items.is_empty() {
            ui.label(RichText::new(db).weak());
        }
        // The newest three, one to a line, newest last: older ones are in the audit log.
        let skip = notices.items.len().saturating_sub(3);
        for n in notices.items.iter().skip(skip) {
            ui.horizontal(|ui| {
                let color = if n.error { common::RED } else { common::GREEN };
                // The button first: a long path is cut at the window's edge, not the button.
                if let Some(file) = &n.file
                    && ui
                        .small_button("Open folder")
                        .on_hover_text("Open the folder of this file in the file manager")
                        .clicked()
                {
                    open_folder = file.parent().map(Path::to_path_buf);
                }
                ui.add(egui::Label::new(RichText::new(&n.text).color(color).strong()).truncate())
                    .on_hover_text(&n.text);
            });
        }
    });
    open_folder
}

/// The body text size: egui's 13 points are small at arm's length on a hall's screen.
const BODY: f32 = 14.5;

fn text_size(size: f32) -> egui::FontId {
    egui::FontId::proportional(size)
}

/// Text that reads at arm's length: nothing smaller than 12 points (egui's "small" is 9).
fn readable_text(style: &mut egui::Style) {
    use egui::{FontId, TextStyle};
    style.text_styles = [
        (TextStyle::Small, FontId::proportional(12.0)),
        (TextStyle::Body, text_size(BODY)),
        (TextStyle::Button, FontId::proportional(BODY)),
        (TextStyle::Heading, FontId::proportional(21.0)),
        (TextStyle::Monospace, FontId::monospace(13.5)),
    ]
    .into();
    // A blinking text cursor asks for a frame twice a second while a field has the
    // keyboard (the move box, most of the time): a steady one costs nothing.
    style.visuals.text_cursor.blink = false;
    // The panels are not painted: the window is cleared to their colour instead
    // (`clear_color`). A software renderer (Xvfb, a laptop without a GPU driver) otherwise
    // shades every pixel of the window once more at every frame.
    style.visuals.panel_fill = egui::Color32::TRANSPARENT;
}

/// The colour the panels would have in the theme of `visuals` (see [`readable_text`]).
fn panel_colour(visuals: &egui::Visuals) -> egui::Color32 {
    if visuals.dark_mode {
        egui::Visuals::dark().panel_fill
    } else {
        egui::Visuals::light().panel_fill
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

    /// The window is cleared to the panels' colour; the panels themselves are not painted.
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        panel_colour(visuals).to_normalized_gamma_f32()
    }

    /// The preferences are small: keep them every few seconds, so a desk that is killed
    /// comes back on the page and tournament it showed.
    fn auto_save_interval(&self) -> std::time::Duration {
        std::time::Duration::from_secs(5)
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, PREFS_KEY, &self.prefs);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.closing();
    }
}

/// Opens the desk window on the database at `db`.
pub fn run(db: Address) -> Result<(), String> {
    run_store(open_store(db.clone()), &db.to_string())
}

/// Opens the desk window on a store (or the reason it could not be opened), titled `shown`.
pub fn run_store(store: Result<Store, String>, shown: &str) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(format!("ggdesk — {shown}"))
            .with_inner_size([1366.0, 768.0])
            .with_min_inner_size([1024.0, 640.0]),
        renderer: eframe::Renderer::Glow,
        // No dithering: the desk's flat colours do not band, and it is work for every pixel
        // of every frame on a software renderer (Xvfb, a laptop without a GPU driver).
        dithering: false,
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
            let app = DeskApp::new(store, prefs, TimeSource::System);
            // SIGTERM or Ctrl+C: close the window on the next frame (the preferences are
            // saved and the clocks kept on the way out); every action is already committed.
            let quit = app.quit_flag();
            let ctx = cc.egui_ctx.clone();
            if let Err(e) = ctrlc::set_handler(move || {
                quit.store(true, Ordering::SeqCst);
                ctx.request_repaint();
            }) {
                eprintln!("ggdesk: cannot handle SIGTERM: {e}");
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| format!("the desk window could not open: {e}"))
}

/// The line under the navigation bar on a server: the connection, and for the director the
/// standby. Not connected, it says so in red on every page.
fn connection_line(ui: &mut Ui, live: &live::Live) {
    if let Some(why) = &live.disconnected {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new("NOT CONNECTED: nothing is being saved.")
                    .color(common::RED)
                    .strong()
                    .size(18.0),
            );
            // A station's card that no longer opens the server (a new secret, the station
            // removed) will not come back by itself: the arbiter needs the new card.
            let advice = if why.contains(crate::station::client::CARD_REFUSED) {
                "This station's card no longer works (the director gave it a new secret, or \
                 removed the station): keep the clocks and moves on the paper sheet and open the \
                 desk again with the new card."
            } else {
                "Keep the clocks and moves on the paper sheet; the desk reconnects by itself \
                 and enters nothing until then."
            };
            ui.label(RichText::new(advice).color(common::RED));
            ui.label(RichText::new(format!("({why})")).weak().small());
        });
        return;
    }
    if let Some(station) = &live.station {
        ui.label(format!(
            "Arbiter station {}: tables {}",
            station.name,
            crate::store::tables_text(&station.tables)
        ));
        return;
    }
    if let Some(servers) = live.servers() {
        ui.horizontal_wrapped(|ui| {
            // A host that does not answer while this desk is connected to the other: the
            // desk saves there, and the line says so before the host's trouble.
            if servers
                .iter()
                .any(|s| matches!(s, crate::store::ServerState::Unreachable { .. }))
            {
                ui.label(
                    RichText::new("This desk is connected and saving.")
                        .color(common::GREEN)
                        .strong(),
                );
            }
            for s in &servers {
                let text = s.to_string();
                if s.warning() {
                    ui.label(RichText::new(text).color(common::RED).strong());
                } else {
                    ui.label(RichText::new(text).weak());
                }
            }
        });
    }
}
