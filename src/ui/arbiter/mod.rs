//! The arbiter desk: one card per table of the playing round, and the table view where the
//! setups are entered, moves are played, clocks run and every rule applies by itself.
//!
//! Pages draw; commands apply. Drawing only reads the page's state and queues a
//! [`TableCmd`]; `apply` runs the queued commands through the store after drawing (one
//! transaction each). A command that needs the arbiter's confirmation waits in the
//! confirmation dialog, and is queued with the reason once confirmed.

mod adjudication;
mod apply;
mod board;
mod overview;
mod parts;
mod physical;
mod setup;
mod setup_text;
mod table;

pub use board::{CellView, draw_player_view};
pub(crate) use parts::{
    Cap, StartGate, adjudication_heading, capitalise, clock_panel, confirmation, move_clock_color,
    oversteps_marks, paused_banner, result_banner, start_clocks, thirty_line, timer_line,
};
pub use parts::{phase_badge, player_view_panel};
pub use setup_text::{parse_setup_text, setup_text};

use super::PageCtx;
use super::common::{Confirm, LoadErrors, Reasoned, poll_confirm};
use crate::desk::{LiveTable, Phase, Tables};
use crate::store::TournamentId;
use crate::store::{AnyEvent, AnyGame, GameId, GameMeta, GameMode, TableTimers};
use egui::{Key, Ui};
use ggdesk_core::event::BoardView as RoundBoard;
use ggdesk_core::rules::{Event, GameState, Side, SideSetup, Square};
use ggdesk_core::tournament::{RoundNo, TableNo};
use std::collections::HashMap;
use std::time::Duration;

/// A card of the overview: a board of the round, with or without its game yet.
#[derive(Debug, Clone)]
pub struct Card {
    pub table_no: Option<TableNo>,
    pub names: (String, String),
    pub game: Option<GameId>,
    pub board: Option<RoundBoard>,
}

/// How a table is named on its page, from the game's own facts (its tournament, round and
/// table), never from the cards of the round shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableLabel {
    /// "Table 3 · round 2 · GGF Open", "Practice table 5", "Imported game 7".
    pub title: String,
    /// White's and Black's names ("White", "Black" when the game has no players).
    pub names: (String, String),
    /// The arbiter's table for the audit log.
    pub table_no: Option<TableNo>,
}

/// An action the arbiter asked for, applied after drawing.
#[derive(Debug, Clone, PartialEq)]
pub enum TableCmd {
    Open(GameId),
    Back,
    CreateForBoard {
        board: RoundBoard,
        round: RoundNo,
        mode: GameMode,
    },
    CreatePractice {
        mode: GameMode,
    },
    /// An event of the record format, or one common to both kinds of game.
    Event {
        game: GameId,
        event: Event,
        reason: String,
    },
    /// An event of the table's own kind.
    Any {
        game: GameId,
        event: AnyEvent,
        reason: String,
    },
    Undo {
        game: GameId,
        reason: String,
    },
    /// The last move replaced by `mv` at the time it was made.
    Correct {
        game: GameId,
        mv: ggdesk_core::rules::Move,
        reason: String,
    },
    SaveSetup {
        game: GameId,
        side: Side,
        setup: SideSetup,
    },
    DrawLots {
        game: GameId,
    },
    Start {
        game: GameId,
        first: Side,
    },
    StartSetupTimer {
        game: GameId,
    },
    /// The arbiter's ruling once setup time ran out.
    SetupRuling {
        game: GameId,
        reason: String,
    },
    StartReadingTimer {
        game: GameId,
        at_ms: i64,
    },
    VoidAndReplay {
        game: GameId,
        reason: String,
    },
    RemovePractice {
        game: GameId,
        reason: String,
    },
    Export {
        game: GameId,
    },
    SaveSheet {
        game: GameId,
        side: Side,
        sheet: serde_json::Value,
        complete: bool,
    },
    /// Reading time ran out: the side's sheet is handed in as it stands.
    HandInAtTime {
        game: GameId,
        side: Side,
        sheet: serde_json::Value,
    },
    PrintAdjudication {
        game: GameId,
    },
    ConfirmResult {
        game: GameId,
    },
    /// A game record (`ggdesk-record/1`) or a physical-board record (`ggdesk-physical/1`)
    /// chosen in the file picker.
    ImportRecord(std::path::PathBuf),
}

impl Reasoned for TableCmd {
    fn with_reason(mut self, text: String) -> Self {
        match &mut self {
            TableCmd::Event { reason, .. }
            | TableCmd::Any { reason, .. }
            | TableCmd::Undo { reason, .. }
            | TableCmd::SetupRuling { reason, .. }
            | TableCmd::VoidAndReplay { reason, .. }
            | TableCmd::RemovePractice { reason, .. } => *reason = text,
            _ => {}
        }
        self
    }
}

/// The Tables page's own state.
#[derive(Default)]
pub struct TablesPage {
    pub tables: Tables,
    pub selected: Option<GameId>,
    cards: Vec<Card>,
    cards_key: Option<(Option<TournamentId>, Option<RoundNo>)>,
    cards_loaded_ms: i64,
    /// The change stamp and the reconnections the cards were read at.
    cards_stamp: i64,
    round: Option<RoundNo>,
    tournament_name: Option<String>,
    /// Each table's name and players, from its game's facts.
    labels: HashMap<GameId, TableLabel>,
    /// Each table's timers and lots, as stored.
    timers: HashMap<GameId, TableTimers>,
    /// The games whose stored data cannot be read, with what is wrong: their tables say so,
    /// and every other table shows as usual.
    damaged: HashMap<GameId, String>,
    /// The writes the desk makes by itself for an adjudication (a reading timer started,
    /// `None`; a sheet handed in when reading time ran out, `Some(side)`), each with the
    /// moment it may be asked again: never once asked, unless the write failed, then a few
    /// seconds later (not at every frame while the database is away).
    own_writes: HashMap<(GameId, Option<Side>), i64>,
    pub show_ranks: bool,
    pub move_text: String,
    /// Put the keyboard in the move box on the next frame (a table opened, a move played).
    focus_move: bool,
    from: Option<Square>,
    setup: setup::SetupState,
    adjudication: adjudication::AdjudicationState,
    physical: physical::PhysicalState,
    /// Who moves first, as the arbiter chose it at a table whose lots were not drawn.
    first: HashMap<GameId, Side>,
    confirm: Option<Confirm<TableCmd>>,
    /// The "Correct the last move" dialog, when open.
    correcting: Option<table::Correcting>,
    pub player_window: bool,
    pub player_fullscreen: bool,
    queued: Vec<TableCmd>,
    move_error: Option<String>,
    /// The move box's error said the server could not be reached (or was reached again
    /// before the desk restored): it goes when the connection is back.
    move_error_offline: Option<String>,
    load: LoadErrors,
    /// A text field has the keyboard this frame (single keys are then the field's).
    typing: bool,
    picker: Option<super::files::FilePicker>,
}

impl TablesPage {
    /// Reloads the cards (boards of the playing round and practice tables) every two seconds
    /// or when the tournament changes. A read that fails is shown as such, never as an
    /// empty round.
    fn refresh_cards(&mut self, cx: &mut PageCtx<'_>, force: bool) {
        let tournament = *cx.tournament;
        // When anything was written or the connection came back; on a file also every two
        // seconds.
        let stamp = cx.stamp;
        let due =
            self.cards_stamp != stamp || (cx.poll && cx.now_ms - self.cards_loaded_ms >= 2000);
        if !force && !due && self.cards_key.map(|k| k.0) == Some(tournament) {
            return;
        }
        let playing = match tournament {
            Some(t) => {
                self.load.clear();
                // An event of players or a team event alike (every board of a match is a
                // table of its own); a station on the event server's API has the server's
                // round in play.
                let what = format!("the rounds of tournament {t}");
                match self.load.check(&what, cx.store.playing_boards(t)) {
                    Some(p) => p,
                    None => return,
                }
            }
            None => None,
        };
        let round = playing.as_ref().map(|(r, _)| *r);
        let key = (tournament, round);
        let moved = self.cards_key != Some(key);
        self.cards_stamp = stamp;
        self.cards_key = Some(key);
        self.cards_loaded_ms = cx.now_ms;
        self.round = round;
        self.load.clear();
        let mut load = LoadErrors::default();
        self.tournament_name = match tournament {
            Some(t) => load
                .check("the tournaments", cx.store.tournament_names())
                .and_then(|names| names.into_iter().find(|(id, _)| *id == t))
                .map(|(_, n)| n),
            None => None,
        };
        let mut cards = Vec::new();
        // The round's games and the practice tables, with every table's timers, in one read.
        let desk_games = load
            .check(
                "the desk's games",
                cx.store.desk_games(tournament.zip(round)),
            )
            .unwrap_or_default();
        self.damaged = desk_games.damaged.into_iter().collect();
        let games = desk_games.games;
        for (meta, timers) in &games {
            self.timers.insert(meta.id, *timers);
        }
        let games: Vec<GameMeta> = games.into_iter().map(|(meta, _)| meta).collect();
        if let Some((_, boards)) = playing {
            for b in boards {
                // An arbiter station shows the tables it runs.
                if cx.my_tables.is_some_and(|mine| !mine.contains(&b.table)) {
                    continue;
                }
                cards.push(Card {
                    table_no: Some(b.table),
                    names: (b.white.name.clone(), b.black.name.clone()),
                    game: b.game,
                    board: Some(b),
                });
            }
        }
        for meta in &games {
            if cx.my_tables.is_none() && practice_card(meta, tournament) {
                cards.push(Card {
                    table_no: None,
                    names: ("White".into(), "Black".into()),
                    game: Some(meta.id),
                    board: None,
                });
            }
        }
        // A damaged game not at a board of the round: its own card says so.
        if cx.my_tables.is_none() {
            let mut damaged: Vec<GameId> = self
                .damaged
                .keys()
                .filter(|id| !cards.iter().any(|c| c.game == Some(**id)))
                .copied()
                .collect();
            damaged.sort_by_key(|g| g.0);
            for id in damaged {
                cards.push(Card {
                    table_no: None,
                    names: ("White".into(), "Black".into()),
                    game: Some(id),
                    board: None,
                });
            }
        }
        for card in &cards {
            if let Some(id) = card.game
                && !self.damaged.contains_key(&id)
            {
                self.ensure(cx, id, &mut load);
            }
        }
        self.load = load;
        // A table of another round or tournament is not the one the desk is about now.
        if moved
            && let Some(s) = self.selected
            && !cards.iter().any(|c| c.game == Some(s))
        {
            self.selected = None;
            self.player_fullscreen = false;
        }
        self.cards = cards;
    }

    /// Loads a table (once) with its label and timers. A game whose stored data cannot be
    /// read is marked damaged (its table says so); a server out of reach is the page's.
    fn ensure(&mut self, cx: &mut PageCtx<'_>, id: GameId, load: &mut LoadErrors) -> bool {
        let what = format!("game {id}");
        let meta = match self
            .tables
            .ensure(cx.store, id)
            .map(|t| t.stored.meta.clone())
        {
            Ok(meta) => meta,
            Err(e) if e.is_disconnected() => {
                load.check::<()>(&what, Err(e));
                return false;
            }
            Err(e) => {
                self.damaged.insert(id, e.to_string());
                return false;
            }
        };
        if !self.labels.contains_key(&id)
            && let Some(label) = load.check(&what, label_of(cx, &meta))
        {
            self.labels.insert(id, label);
        }
        // The cards bring their tables' timers (`refresh_cards`); a table opened otherwise
        // reads its own.
        if !self.timers.contains_key(&id)
            && let Some(timers) = load.check(&what, cx.store.table_timers(id))
        {
            self.timers.insert(id, timers);
        }
        true
    }

    fn label(&self, id: GameId) -> TableLabel {
        self.labels.get(&id).cloned().unwrap_or_else(|| TableLabel {
            title: format!("Game {id}"),
            names: ("White".into(), "Black".into()),
            table_no: None,
        })
    }

    fn timers(&self, id: GameId) -> TableTimers {
        self.timers.get(&id).copied().unwrap_or_default()
    }

    /// Who moves first at a table not started, once decided: drawn by lot (stored), or
    /// chosen by the arbiter on this desk. `None` until then: the clocks cannot start.
    fn first_mover(&self, table: &LiveTable, timers: TableTimers) -> Option<Side> {
        if timers.lots_drawn_at.is_some() {
            return Some(table.stored.meta.first);
        }
        self.first.get(&table.id()).copied()
    }

    /// What the desk does every frame, whichever page is shown: follow the round's tables,
    /// judge every live clock (a clock that runs out ends its game at once), keep the
    /// heartbeat that brings the clocks back after a crash, start and enforce the reading
    /// timer, and ask for the next frame when a clock or a timer reaches its next second.
    ///
    /// On the Tables page, a frame when a clock or timer on screen shows its next second (at
    /// most five a second, however many tables run); on another page, one a second while a
    /// game runs (the heartbeat, and a clock that runs out ends its game within the second,
    /// at the exact moment the rules compute).
    pub fn background(&mut self, ctx: &egui::Context, cx: &mut PageCtx<'_>, shown: bool) {
        self.refresh_cards(cx, false);
        let keeper = cx.keeper;
        let automatic = cx.automatic();
        for note in self.tables.tick(cx.store, cx.now_ms, keeper, &automatic) {
            cx.notices.say(note.text, note.failed);
        }
        self.reading_timers(cx);
        if !self.queued.is_empty() {
            self.apply_queued(cx);
        }
        if let Some(ms) = self.next_second(cx.now_ms, shown) {
            // At most five frames a second, however many tables run.
            ctx.request_repaint_after(Duration::from_millis(ms.max(200) as u64));
        }
        // The heartbeat of the running clocks (kept for the restart after a crash): once a
        // second while a game runs, whatever is on screen.
        if self.tables.tables.values().any(|t| {
            t.started() && !t.stored.meta.void && t.derived().is_some_and(AnyGame::clocks_running)
        }) {
            ctx.request_repaint_after(Duration::from_secs(1));
        }
    }

    /// Starts the reading timer of a table waiting for its adjudication and, once reading
    /// time has run out, hands in the sheets as they stand (RULES.md gives the readings 15
    /// minutes: what was read by then counts, every other piece is an abstention).
    fn reading_timers(&mut self, cx: &mut PageCtx<'_>) {
        let now = cx.now_ms;
        // Only at the tables this desk runs: another desk's timers are its own.
        let keeper = cx.keeper;
        for (id, table) in &self.tables.tables {
            if table.phase(now) != Phase::AdjudicationPending || !keeper.runs(&table.stored.meta) {
                continue;
            }
            let timers = self.timers(*id);
            let mut ask = |key| match self.own_writes.get(&key) {
                Some(&after) if now < after => false,
                _ => {
                    self.own_writes.insert(key, i64::MAX);
                    true
                }
            };
            let Some(start) = timers.reading_started_at else {
                if ask((*id, None)) {
                    let at = reading_start(table).unwrap_or(now);
                    self.queued.push(TableCmd::StartReadingTimer {
                        game: *id,
                        at_ms: at,
                    });
                }
                continue;
            };
            let limit_ms = table.stored.meta.rules.reading_limit_ns / 1_000_000;
            if now < start + limit_ms {
                continue;
            }
            for side in Side::BOTH {
                let handed = table.stored.sheets[side]
                    .as_ref()
                    .is_some_and(|r| r.complete);
                if handed || !ask((*id, Some(side))) {
                    continue;
                }
                if let Some(sheet) = sheet_as_it_stands(table, side) {
                    self.queued.push(TableCmd::HandInAtTime {
                        game: *id,
                        side,
                        sheet,
                    });
                }
            }
        }
    }

    /// Milliseconds until the desk must draw again for its tables: a move clock or a timer
    /// on screen showing its next second, or a clock running out (the moment the rules
    /// compute, on every page: its game ends then). The game clocks beside the move clocks
    /// are not waited for: they are read at the move clock's frames (at most a second
    /// late on screen, never late in the record). `shown` is whether the Tables page is on
    /// screen; with a table open, only its clocks are.
    fn next_second(&self, now: i64, shown: bool) -> Option<i64> {
        let mut next: Option<i64> = None;
        let mut at = |ms: i64| {
            let ms = ms.max(1);
            next = Some(next.map_or(ms, |n: i64| n.min(ms)));
        };
        // A shown value counting down in nanoseconds changes its whole second when what is
        // left past the second has run (and 1 ms later it shows the new one). On a whole
        // second it already shows the new one: the next change is a second away (not 1 ms,
        // which would draw a frame showing nothing new).
        let second = |left_ns: i64| match left_ns.rem_euclid(1_000_000_000) {
            0 => 1_001,
            past => past / 1_000_000 + 1,
        };
        for (id, table) in &self.tables.tables {
            let on_screen = shown && self.selected.is_none_or(|s| s == *id);
            match table.phase(now) {
                Phase::Playing | Phase::FlagPending(_) => {
                    if let Some(g) = table.derived_at(now) {
                        let c = g.clock();
                        if on_screen {
                            at(second(c.move_remaining_ns()));
                        }
                        // The last overstep and the end of game time end the game at once.
                        let limit = g.settings().oversteps_to_lose;
                        let turn_oversteps = c.oversteps()[c.turn()];
                        if c.move_remaining_ns() > 0 && turn_oversteps + 1 >= limit {
                            at(c.move_remaining_ns() / 1_000_000 + 1);
                        }
                        if c.game_remaining_ns() > 0 {
                            at(c.game_remaining_ns() / 1_000_000 + 1);
                        }
                    }
                }
                Phase::Setup | Phase::Ready if on_screen => {
                    if let Some(s) = self.timers(*id).setup_started_at {
                        let limit = table.stored.meta.rules.setup_limit_ns;
                        at(second(limit - (now - s) * 1_000_000));
                    }
                }
                Phase::AdjudicationPending => {
                    if let Some(s) = self.timers(*id).reading_started_at {
                        let limit = table.stored.meta.rules.reading_limit_ns;
                        let left = limit - (now - s) * 1_000_000;
                        if on_screen {
                            at(second(left));
                        } else if left > 0 {
                            // The sheets are handed in as they stand when reading time is up.
                            at(left / 1_000_000 + 1);
                        }
                    }
                }
                _ => {}
            }
        }
        next
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        self.typing = cx.typing;
        self.keyboard(ui, cx);
        if let Some(cmd) = poll_confirm(&mut self.confirm, ui.ctx()) {
            self.queued.push(cmd);
            self.focus_move = true;
        }
        self.correction_dialog(ui, cx);
        if let Some(path) = super::files::poll_picker(&mut self.picker, ui.ctx(), cx.last_folder) {
            self.queued.push(TableCmd::ImportRecord(path));
        }
        if self.load.banner(ui) {
            return;
        }
        match self.selected {
            Some(id) if self.tables.tables.contains_key(&id) => self.table_ui(ui, cx, id),
            _ => {
                self.selected = None;
                self.overview(ui, cx);
            }
        }
        self.player_window_ui(ui, cx);
        if !self.queued.is_empty() {
            self.apply_queued(cx);
            ui.ctx().request_repaint();
        }
    }

    /// Applies the queued commands; a command may queue follow-ups (a created table opens).
    fn apply_queued(&mut self, cx: &mut PageCtx<'_>) {
        for _ in 0..4 {
            let cmds = std::mem::take(&mut self.queued);
            if cmds.is_empty() {
                break;
            }
            for cmd in cmds {
                self.apply(cmd, cx);
            }
        }
    }

    /// The table's keys. F8 pauses or resumes whatever has the keyboard (it types
    /// nothing); Space does too, Esc goes back to the overview and PageUp/PageDown switch
    /// tables, but only while no text field has the keyboard: a space typed into the move
    /// box is part of the move ("f4 f5"), never also a pause.
    fn keyboard(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        if self.confirm.is_some() || self.correcting.is_some() {
            return;
        }
        let f8 = ui.input(|i| i.key_pressed(Key::F8));
        let (esc, next, prev, space) = if cx.typing {
            (false, false, false, false)
        } else {
            ui.input(|i| {
                (
                    i.key_pressed(Key::Escape),
                    i.key_pressed(Key::PageDown),
                    i.key_pressed(Key::PageUp),
                    i.key_pressed(Key::Space),
                )
            })
        };
        if esc && self.selected.is_some() {
            self.queued.push(TableCmd::Back);
        }
        if next || prev {
            let ids: Vec<GameId> = self.cards.iter().filter_map(|c| c.game).collect();
            if !ids.is_empty() {
                let pos = self.selected.and_then(|s| ids.iter().position(|&i| i == s));
                let n = ids.len();
                let i = match (pos, next) {
                    (Some(p), true) => (p + 1) % n,
                    (Some(p), false) => (p + n - 1) % n,
                    (None, true) => 0,
                    (None, false) => n - 1,
                };
                self.queued.push(TableCmd::Open(ids[i]));
            }
        }
        if (space || f8)
            && let Some(id) = self.selected
            && let Some(t) = self.tables.tables.get(&id)
            && let Some(event) = pause_toggle(t.phase(cx.now_ms))
        {
            self.queued.push(TableCmd::Event {
                game: id,
                event,
                reason: String::new(),
            });
        }
    }

    /// The players' board in its own window (the last move marked, the result once
    /// decided), drawn from a `PlayerView` only.
    fn player_window_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        if !self.player_window {
            return;
        }
        let Some(id) = self.selected else { return };
        let Some(table) = self.tables.tables.get(&id) else {
            return;
        };
        let Some(view) = table.player_view(cx.now_ms) else {
            return;
        };
        let title = format!("ggdesk — {}, player view", self.label(id).title);
        let game = table.game_at(cx.now_ms);
        let marked = table::last_move_squares(table);
        let outcome = match table.phase(cx.now_ms) {
            Phase::Finished(o) => Some(o),
            _ => None,
        };
        let mut close = false;
        ui.ctx().show_viewport_immediate(
            egui::ViewportId::from_hash_of("ggdesk-player-view"),
            egui::ViewportBuilder::default()
                .with_title(&title)
                .with_inner_size([760.0, 720.0]),
            |ui, _class| {
                // The desk's panels are not painted (the main window is cleared to their
                // colour); this window is cleared to black, so its panel is filled.
                let fill = crate::ui::panel_colour(ui.visuals());
                let frame = egui::Frame::central_panel(ui.style()).fill(fill);
                egui::CentralPanel::default().frame(frame).show(ui, |ui| {
                    player_view_panel(ui, &view, game.as_ref(), &marked, outcome);
                });
                if ui.input(|i| i.viewport().close_requested()) {
                    close = true;
                }
            },
        );
        if close {
            self.player_window = false;
        }
    }

    /// Asks for a confirmation (with a reason when `reason`) before `cmd` is queued.
    fn ask(&mut self, title: &str, message: &str, label: &str, cmd: TableCmd, reason: bool) {
        let c = Confirm::new(title, message, label, cmd);
        self.confirm = Some(if reason { c.with_reason() } else { c });
    }

    /// The games at this desk's tables whose clocks are paused now.
    /// The connection is back (the desk restored its tables): a "not connected" under the
    /// move box is over. What was typed stays in the box, to be played again.
    pub fn connection_back(&mut self) {
        if let Some(offline) = self.move_error_offline.take()
            && self.move_error.as_ref() == Some(&offline)
        {
            self.move_error = None;
        }
    }

    pub fn paused_games(&self, now_ms: i64) -> std::collections::HashSet<GameId> {
        self.tables
            .tables
            .values()
            .filter(|t| t.phase(now_ms) == Phase::Paused)
            .map(|t| t.id())
            .collect()
    }

    /// Stores, for every running game, the clocks as seen now (on closing the desk).
    pub fn keep_clocks(
        &self,
        store: &mut crate::store::Store,
        now_ms: i64,
    ) -> Result<(), crate::store::StoreError> {
        let seen: Vec<(GameId, f64)> = self
            .tables
            .tables
            .values()
            .filter(|t| matches!(t.phase(now_ms), Phase::Playing | Phase::FlagPending(_)))
            .map(|t| (t.id(), t.event_t(now_ms)))
            .collect();
        store.record_clocks_seen(&seen)
    }
}

/// The event that Space or F8 sends in a phase: pause a running game, resume a paused one.
fn pause_toggle(phase: Phase) -> Option<Event> {
    match phase {
        Phase::Paused => Some(Event::Resume),
        Phase::Playing | Phase::FlagPending(_) => Some(Event::Pause),
        _ => None,
    }
}

/// Whether a game of no round has a card: a practice table of the chosen tournament (or,
/// with none chosen, of none), or an imported record still waiting for its readings.
fn practice_card(meta: &GameMeta, tournament: Option<TournamentId>) -> bool {
    if meta.void || meta.round.is_some() {
        return false;
    }
    if meta.imported {
        return meta.result == ggdesk_core::game::Decision::AdjudicationPending;
    }
    meta.tournament_id == tournament
}

/// The moment game time ran out at the desk (Unix ms), for a game played here.
fn reading_start(table: &LiveTable) -> Option<i64> {
    let started = table.stored.meta.started_at?;
    let game = table.derived()?;
    match game.state() {
        GameState::AdjudicationPending { at } => Some(started + at.as_ms()),
        _ => None,
    }
}

/// A side's reading sheet as it stands: the stored draft, or every piece abstained.
fn sheet_as_it_stands(table: &LiveTable, side: Side) -> Option<serde_json::Value> {
    if let Some(row) = &table.stored.sheets[side] {
        return Some(row.sheet.clone());
    }
    match table.derived()? {
        crate::store::AnyGame::Arbitrated(_) => Some(serde_json::json!({})),
        crate::store::AnyGame::Physical(g) => {
            let sheet: ggdesk_core::physical_record::TallySheet = g
                .remaining_pieces(side.opponent())
                .into_iter()
                .map(|r| (r, None))
                .collect();
            Some(ggdesk_core::physical_record::sheet_value(&sheet))
        }
    }
}

/// A table's name and players from its game's facts.
fn label_of(cx: &PageCtx<'_>, meta: &GameMeta) -> Result<TableLabel, crate::store::StoreError> {
    let tournament = match meta.tournament_id {
        Some(t) => cx
            .store
            .tournament_names()?
            .into_iter()
            .find(|(id, _)| *id == t)
            .map(|(id, n)| super::director::display_name(id, &n)),
        None => None,
    };
    let mut names = ("White".to_string(), "Black".to_string());
    let title = match (meta.tournament_id, meta.round, meta.table_no) {
        (Some(t), Some(r), Some(table)) => {
            if let Some(b) = cx.store.board_at(t, r, table)?.filter(|b| {
                meta.players
                    .is_none_or(|p| p.white == b.white.no && p.black == b.black.no)
            }) {
                names = (b.white.name, b.black.name);
            }
            format!(
                "Table {table} · round {r}{}",
                tournament.map_or_else(String::new, |n| format!(" · {n}"))
            )
        }
        _ if meta.imported => format!("Imported game {}", meta.id),
        _ => format!(
            "Practice table {}{}",
            meta.id,
            tournament.map_or_else(String::new, |n| format!(" · {n}"))
        ),
    };
    Ok(TableLabel {
        title,
        names,
        table_no: meta.table_no,
    })
}
