//! The arbiter desk: one card per table of the playing round, and the table view where the
//! setups are entered, moves are played, clocks run and every rule applies by itself.

mod adjudication;
mod board;
mod physical;
mod setup;
mod table;

pub use board::{CellView, draw_player_view};

use super::PageCtx;
use super::common::{self, Confirm, badge, fmt_clock, fmt_hms, poll_confirm};
use crate::desk::{LiveTable, Phase, Tables};
use crate::store::{Actor, AnyEvent, Board, GameId, GameMode, NewGame};
use egui::{Color32, Key, RichText, Ui};
use ggdesk_core::rules::{Event, PenaltyKind, Side, SideSetup, Square};
use std::collections::HashMap;

/// A card of the overview: a board of the round, with or without its game yet.
#[derive(Debug, Clone)]
pub struct Card {
    pub table_no: Option<u32>,
    pub names: (String, String),
    pub game: Option<GameId>,
    pub board: Option<Board>,
}

/// An action the arbiter asked for, applied after drawing.
#[derive(Debug, Clone)]
pub enum TableCmd {
    Open(GameId),
    Back,
    CreateForBoard {
        board: Board,
        round: u32,
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
    SaveSetup {
        game: GameId,
        side: Side,
        setup: SideSetup,
    },
    Start {
        game: GameId,
        first: Side,
    },
    VoidAndReplay {
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
    PrintAdjudication {
        game: GameId,
    },
    ConfirmResult {
        game: GameId,
    },
}

/// Actions that need a confirmation (and some a reason).
#[derive(Debug, Clone, PartialEq)]
pub enum Guarded {
    Resign(Side),
    Penalty(PenaltyKind, Side),
    Respect,
    Undo,
    Void,
    /// A declaration on a physical board (perpetual, Flag through).
    Physical(ggdesk_core::rules::PhysicalEvent),
}

/// The Tables page's own state.
#[derive(Default)]
pub struct TablesPage {
    pub tables: Tables,
    pub selected: Option<GameId>,
    cards: Vec<Card>,
    cards_key: Option<(Option<i64>, Option<u32>)>,
    cards_loaded_ms: i64,
    round: Option<u32>,
    pub show_ranks: bool,
    pub move_text: String,
    from: Option<Square>,
    setup: setup::SetupState,
    adjudication: adjudication::AdjudicationState,
    physical: physical::PhysicalState,
    first: HashMap<GameId, Side>,
    confirm: Option<Confirm<Guarded>>,
    pub player_window: bool,
    pub player_fullscreen: bool,
    queued: Vec<TableCmd>,
    move_error: Option<String>,
}

impl TablesPage {
    /// Reloads the cards (boards of the playing round and practice tables) every two seconds
    /// or when the tournament changes.
    fn refresh_cards(&mut self, cx: &mut PageCtx<'_>, force: bool) {
        let tournament = *cx.tournament;
        let round = tournament.and_then(|t| cx.store.playing_round(t).ok().flatten());
        let key = (tournament, round.map(|r| r.number));
        if !force && self.cards_key == Some(key) && cx.now_ms - self.cards_loaded_ms < 2000 {
            return;
        }
        self.cards_key = Some(key);
        self.cards_loaded_ms = cx.now_ms;
        self.round = round.map(|r| r.number);
        let mut cards = Vec::new();
        if let (Some(t), Some(r)) = (tournament, round) {
            let boards = cx.store.round_boards(t, r.number).unwrap_or_default();
            let games = cx.store.game_metas(Some((t, r.number))).unwrap_or_default();
            for b in boards {
                let game = games
                    .iter()
                    .filter(|g| g.table_no == Some(b.table_no) && !g.void)
                    .map(|g| g.id)
                    .next_back();
                cards.push(Card {
                    table_no: Some(b.table_no),
                    names: (b.white.name.clone(), b.black.name.clone()),
                    game,
                    board: Some(b),
                });
            }
        }
        for meta in cx.store.game_metas(None).unwrap_or_default() {
            // Practice tables, and imported records still waiting for their readings.
            let awaiting = meta.result.as_deref() == Some("adjudication_pending");
            if meta.tournament_id.is_none() && !meta.void && (!meta.imported || awaiting) {
                cards.push(Card {
                    table_no: None,
                    names: ("White".into(), "Black".into()),
                    game: Some(meta.id),
                    board: None,
                });
            }
        }
        for card in &cards {
            if let Some(id) = card.game
                && let Err(e) = self.tables.ensure(cx.store, id)
            {
                cx.notices.error(e.to_string());
            }
        }
        self.cards = cards;
    }

    fn card_of(&self, id: GameId) -> Option<&Card> {
        self.cards.iter().find(|c| c.game == Some(id))
    }

    /// What the desk does every frame, whichever page is shown: follow the round's tables,
    /// judge every live clock (a clock that runs out ends its game at once) and keep the
    /// heartbeat that brings the clocks back after a crash.
    pub fn background(&mut self, cx: &mut PageCtx<'_>) {
        self.refresh_cards(cx, false);
        for note in self.tables.tick(cx.store, cx.now_ms) {
            cx.notices.info(note.text);
        }
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        self.keyboard(ui, cx);
        if let Some((action, reason)) = poll_confirm(&mut self.confirm, ui.ctx()) {
            self.guarded(action, reason);
        }
        match self.selected {
            Some(id) if self.tables.tables.contains_key(&id) => self.table_ui(ui, cx, id),
            _ => {
                self.selected = None;
                self.overview(ui, cx);
            }
        }
        self.player_window_ui(ui, cx);
        // Commands may queue follow-ups (a created table opens): apply those too.
        for _ in 0..4 {
            let cmds = std::mem::take(&mut self.queued);
            if cmds.is_empty() {
                break;
            }
            for cmd in cmds {
                self.apply(cmd, cx);
            }
            ui.ctx().request_repaint();
        }
    }

    fn keyboard(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        if self.confirm.is_some() {
            return;
        }
        let (esc, next, prev, space) = ui.input(|i| {
            (
                i.key_pressed(Key::Escape),
                i.key_pressed(Key::PageDown),
                i.key_pressed(Key::PageUp),
                i.key_pressed(Key::Space),
            )
        });
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
        if space && let Some(id) = self.selected {
            self.move_text.retain(|c| !c.is_whitespace());
            if let Some(t) = self.tables.tables.get(&id) {
                match t.phase(cx.now_ms) {
                    Phase::Paused => self.queued.push(TableCmd::Event {
                        game: id,
                        event: Event::Resume,
                        reason: String::new(),
                    }),
                    Phase::Playing | Phase::FlagPending(_) => self.queued.push(TableCmd::Event {
                        game: id,
                        event: Event::Pause,
                        reason: String::new(),
                    }),
                    _ => {}
                }
            }
        }
    }

    fn overview(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let tournament_name = cx.tournament.and_then(|t| {
            cx.store
                .tournament_names()
                .ok()?
                .into_iter()
                .find(|(id, _)| *id == t)
                .map(|(_, n)| n)
        });
        // playing, finished, adjudication, not opened, setting up
        let mut counts = [0usize; 5];
        for card in &self.cards {
            match card
                .game
                .and_then(|g| self.tables.tables.get(&g))
                .map(|t| t.phase(cx.now_ms))
            {
                Some(p) if p.is_live() => counts[0] += 1,
                Some(Phase::Finished(_)) => counts[1] += 1,
                Some(Phase::AdjudicationPending) => counts[2] += 1,
                Some(Phase::Setup | Phase::Ready) => counts[4] += 1,
                _ => counts[3] += 1,
            }
        }
        ui.horizontal(|ui| {
            ui.heading("Tables");
            match (&tournament_name, self.round) {
                (Some(name), Some(r)) => {
                    ui.label(RichText::new(format!("{name} — round {r}")).strong());
                }
                (Some(name), None) => {
                    ui.label(format!(
                        "{name}: no round published yet (publish one on the Rounds page)"
                    ));
                }
                _ => {
                    ui.label("No tournament chosen: practice tables only");
                }
            }
            ui.separator();
            badge(ui, &format!("{} playing", counts[0]), common::GREEN);
            badge(ui, &format!("{} finished", counts[1]), common::BLUE);
            if counts[2] > 0 {
                badge(ui, &format!("{} adjudication", counts[2]), common::AMBER);
            }
            if counts[4] > 0 {
                badge(ui, &format!("{} setting up", counts[4]), common::BLUE);
            }
            badge(ui, &format!("{} not opened", counts[3]), Color32::GRAY);
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("New physical-board table").clicked() {
                    self.queued.push(TableCmd::CreatePractice {
                        mode: GameMode::Physical,
                    });
                }
                if ui.button("New practice table").clicked() {
                    self.queued.push(TableCmd::CreatePractice {
                        mode: GameMode::Arbitrated,
                    });
                }
            });
        });
        ui.label(
            RichText::new("Click a table to arbitrate it. PageUp/PageDown switch tables, Esc comes back here.")
                .weak(),
        );
        ui.add_space(4.0);
        let now = cx.now_ms;
        let round = self.round;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                // As many cards per row as the width takes.
                let per_row = ((ui.available_width() + 8.0) / (CARD_WIDTH + 8.0 + 18.0))
                    .floor()
                    .max(1.0) as usize;
                ui.spacing_mut().item_spacing = egui::vec2(8.0, 8.0);
                for row in self.cards.chunks(per_row) {
                    ui.horizontal(|ui| {
                        for card in row {
                            let table = card.game.and_then(|g| self.tables.tables.get(&g));
                            if let Some(cmd) = card_ui(ui, card, table, now, round) {
                                self.queued.push(cmd);
                            }
                        }
                    });
                }
                if self.cards.is_empty() {
                    ui.label("No tables yet.");
                }
            });
    }

    fn guarded(&mut self, action: Guarded, reason: String) {
        let Some(game) = self.selected else { return };
        let cmd = match action {
            Guarded::Resign(side) => TableCmd::Event {
                game,
                event: Event::Resign(side),
                reason,
            },
            Guarded::Penalty(kind, side) => TableCmd::Event {
                game,
                event: Event::Penalty { kind, side },
                reason,
            },
            Guarded::Respect => TableCmd::Event {
                game,
                event: Event::DrawForRespect,
                reason,
            },
            Guarded::Undo => TableCmd::Undo { game, reason },
            Guarded::Void => TableCmd::VoidAndReplay { game, reason },
            Guarded::Physical(event) => TableCmd::Any {
                game,
                event: AnyEvent::Physical(event),
                reason,
            },
        };
        self.queued.push(cmd);
    }

    fn apply(&mut self, cmd: TableCmd, cx: &mut PageCtx<'_>) {
        let now = cx.now_ms;
        let table_actor =
            |t: Option<&Card>| Actor::arbiter(t.and_then(|c| c.table_no).map(i64::from));
        match cmd {
            TableCmd::Open(id) => {
                if let Err(e) = self.tables.ensure(cx.store, id) {
                    cx.notices.error(e.to_string());
                } else {
                    self.selected = Some(id);
                    self.from = None;
                    self.move_text.clear();
                    self.move_error = None;
                }
            }
            TableCmd::Back => {
                self.selected = None;
                self.player_fullscreen = false;
            }
            TableCmd::CreateForBoard { board, round, mode } => {
                let Some(tid) = *cx.tournament else { return };
                let rules = cx.store.tournament_rules(tid).unwrap_or_default();
                let new = NewGame {
                    tournament_id: Some(tid),
                    round: Some(round),
                    table_no: Some(board.table_no),
                    players: Some(ggdesk_core::rules::BySide::new(
                        board.white.no,
                        board.black.no,
                    )),
                    mode,
                    first: Side::White,
                    ratings: Some(ggdesk_core::rules::BySide::new(
                        board.white.rating as f64,
                        board.black.rating as f64,
                    )),
                    rules,
                    replaces: None,
                };
                let actor = Actor::arbiter(Some(board.table_no.into()));
                if let Some(id) = cx.notices.report(cx.store.create_game(&new, &actor), "") {
                    self.refresh_cards(cx, true);
                    self.queued.push(TableCmd::Open(id));
                }
            }
            TableCmd::CreatePractice { mode } => {
                let actor = Actor::arbiter(None);
                let new = NewGame {
                    mode,
                    ..NewGame::standalone()
                };
                if let Some(id) = cx
                    .notices
                    .report(cx.store.create_game(&new, &actor), "Practice table created")
                {
                    self.refresh_cards(cx, true);
                    self.queued.push(TableCmd::Open(id));
                }
            }
            TableCmd::Event {
                game,
                event,
                reason,
            } => {
                let Some(mode) = self.tables.tables.get(&game).map(LiveTable::mode) else {
                    return;
                };
                match AnyEvent::for_mode(mode, event) {
                    Some(any) => self.apply(
                        TableCmd::Any {
                            game,
                            event: any,
                            reason,
                        },
                        cx,
                    ),
                    None => cx
                        .notices
                        .error("moves on a physical board are entered as \"move made\""),
                }
            }
            TableCmd::Any {
                game,
                event,
                reason,
            } => {
                let actor = table_actor(self.card_of(game));
                let Some(table) = self.tables.tables.get_mut(&game) else {
                    return;
                };
                match table.submit_any(cx.store, event, now, &actor, &reason) {
                    Ok(_) => {
                        self.move_error = None;
                        if let Some(a) = &table.last_announcement {
                            cx.notices.info(a.text.clone());
                        }
                        if let Phase::Finished(o) = table.phase(now) {
                            cx.notices.info(format!(
                                "Game over: {} — {}",
                                o.winner()
                                    .map_or("draw".to_string(), |w| format!("{w} wins")),
                                o.reason().describe()
                            ));
                        }
                    }
                    Err(e) => {
                        self.move_error = Some(e.to_string());
                        cx.notices.error(e.to_string());
                    }
                }
            }
            TableCmd::Undo { game, reason } => {
                let actor = table_actor(self.card_of(game));
                if let Some(table) = self.tables.tables.get_mut(&game) {
                    let r = table.undo(cx.store, now, &actor, &reason);
                    cx.notices.report(r, "Last event undone");
                }
            }
            TableCmd::SaveSetup { game, side, setup } => {
                let actor = table_actor(self.card_of(game));
                let r = cx.store.save_setup(game, side, &setup, &actor);
                if cx.notices.report(r, "").is_some()
                    && let Some(t) = self.tables.tables.get_mut(&game)
                    && let Err(e) = t.reload(cx.store)
                {
                    cx.notices.error(e.to_string());
                }
            }
            TableCmd::Start { game, first } => {
                let actor = table_actor(self.card_of(game));
                let r = cx.store.start_game(game, now, first, &actor);
                if cx
                    .notices
                    .report(r, &format!("Clocks started: {first} moves first"))
                    .is_some()
                    && let Some(t) = self.tables.tables.get_mut(&game)
                    && let Err(e) = t.reload(cx.store)
                {
                    cx.notices.error(e.to_string());
                }
            }
            TableCmd::VoidAndReplay { game, reason } => {
                let actor = Actor::director();
                let r = cx.store.void_and_replay(game, &reason, &actor);
                if let Some(new) = cx
                    .notices
                    .report(r, "Game voided; the replay is ready for new setups")
                {
                    if let Some(t) = self.tables.tables.get_mut(&game) {
                        let _ = t.reload(cx.store);
                    }
                    self.refresh_cards(cx, true);
                    self.queued.push(TableCmd::Open(new));
                }
            }
            TableCmd::SaveSheet {
                game,
                side,
                sheet,
                complete,
            } => {
                let actor = table_actor(self.card_of(game));
                let r = cx
                    .store
                    .save_reading_sheet(game, side, &sheet, complete, &actor);
                let done = if complete {
                    format!("{}'s reading sheet handed in", Cap(side))
                } else {
                    String::new()
                };
                if cx.notices.report(r, &done).is_some()
                    && let Some(t) = self.tables.tables.get_mut(&game)
                    && let Err(e) = t.reload(cx.store)
                {
                    cx.notices.error(e.to_string());
                }
            }
            TableCmd::ConfirmResult { game } => {
                let actor = table_actor(self.card_of(game));
                let r = cx.store.confirm_result(game, &actor);
                if cx.notices.report(r, "Result confirmed").is_some()
                    && let Some(t) = self.tables.tables.get_mut(&game)
                    && let Err(e) = t.reload(cx.store)
                {
                    cx.notices.error(e.to_string());
                }
            }
            TableCmd::PrintAdjudication { game } => {
                let card = self.card_of(game).cloned();
                let result = self.adjudication_form(cx, game, card.as_ref());
                if let Some(file) = cx.notices.report(result, "") {
                    open_in_browser(&file, cx.notices);
                }
            }
            TableCmd::Export { game } => {
                let result = cx
                    .store
                    .export_record(game)
                    .map_err(|e| e.to_string())
                    .and_then(|record| {
                        let dir = cx
                            .store
                            .path()
                            .and_then(|p| p.parent().map(|d| d.join("records")))
                            .unwrap_or_else(|| std::path::PathBuf::from("records"));
                        std::fs::create_dir_all(&dir)
                            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                        let file = dir.join(format!("game-{game}.json"));
                        std::fs::write(&file, record.to_json_pretty() + "\n")
                            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
                        Ok(file)
                    });
                if let Some(file) = cx.notices.report(result, "") {
                    cx.notices
                        .info(format!("Record written: {}", file.display()));
                }
            }
        }
    }

    /// The players' board in its own window (or full screen in the main one).
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
        let title = match self.card_of(id).and_then(|c| c.table_no) {
            Some(n) => format!("ggdesk — table {n}, player view"),
            None => "ggdesk — practice table, player view".to_string(),
        };
        let game = table.game_at(cx.now_ms);
        let mut close = false;
        ui.ctx().show_viewport_immediate(
            egui::ViewportId::from_hash_of("ggdesk-player-view"),
            egui::ViewportBuilder::default()
                .with_title(&title)
                .with_inner_size([760.0, 720.0]),
            |ui, _class| {
                egui::CentralPanel::default().show(ui, |ui| {
                    player_view_panel(ui, &view, game.as_ref());
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
}

impl TablesPage {
    /// Writes the printable adjudication form of a game beside the database.
    fn adjudication_form(
        &self,
        cx: &mut PageCtx<'_>,
        game: GameId,
        card: Option<&Card>,
    ) -> Result<std::path::PathBuf, String> {
        let stored = cx.store.load_game(game).map_err(|e| e.to_string())?;
        let verdict = stored
            .verdict()
            .ok_or("the setups are not in")?
            .map_err(|e| e.to_string())?;
        let adj = verdict
            .adjudication
            .ok_or("both reading sheets must be handed in first")?;
        let event = match stored.meta.tournament_id {
            Some(t) => cx
                .store
                .tournament_names()
                .ok()
                .and_then(|names| names.into_iter().find(|(id, _)| *id == t).map(|(_, n)| n))
                .unwrap_or_default(),
            None => "Practice table".into(),
        };
        let (white, black) = card.map_or(("White".into(), "Black".into()), |c| c.names.clone());
        let heading = ggdesk_core::export::forms::FormHeading {
            event,
            round: stored.meta.round,
            table: stored.meta.table_no,
            white,
            black,
            stopped_at: fmt_hms((verdict.at * 1e9) as i64),
        };
        let html = ggdesk_core::export::forms::adjudication_form(&heading, &adj);
        let dir = cx
            .store
            .path()
            .and_then(|p| p.parent().map(|d| d.join("forms")))
            .unwrap_or_else(|| std::path::PathBuf::from("forms"));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let file = dir.join(format!("adjudication-game-{game}.html"));
        std::fs::write(&file, html).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        Ok(file)
    }
}

/// The result of a decided game, large: who won (or a draw) and why.
pub(crate) fn result_banner(ui: &mut Ui, outcome: ggdesk_core::rules::Outcome) {
    let text = match outcome.winner() {
        Some(w) => format!("{} wins", Cap(w)),
        None => "Draw".to_string(),
    };
    ui.label(RichText::new(text).size(26.0).strong().color(common::BLUE));
    ui.label(RichText::new(outcome.reason().describe()).size(16.0));
}

/// Who moves first (decided by lot) and the button that starts the clocks.
pub(crate) fn start_clocks(
    ui: &mut Ui,
    game: GameId,
    first: &mut Side,
    queued: &mut Vec<TableCmd>,
) {
    ui.horizontal(|ui| {
        ui.label("Moves first (by lot):");
        ui.radio_value(first, Side::White, "White");
        ui.radio_value(first, Side::Black, "Black");
        if ui.button("Draw lots").clicked() {
            use rand::{Rng, SeedableRng};
            let heads = rand::rngs::StdRng::from_os_rng().random::<bool>();
            *first = if heads { Side::White } else { Side::Black };
        }
    });
    if ui
        .button(RichText::new("Start clocks").strong().size(18.0))
        .clicked()
    {
        queued.push(TableCmd::Start {
            game,
            first: *first,
        });
    }
}

/// The colour of a move clock: amber in its last 20 seconds, red once overstepped.
pub(crate) fn move_clock_color(ui: &Ui, left_ns: i64) -> Color32 {
    if left_ns < 0 {
        common::RED
    } else if left_ns < 20_000_000_000 {
        common::AMBER
    } else {
        ui.visuals().strong_text_color()
    }
}

/// The clocks of a table: the move clock of the side to move (while it runs), the game
/// clock, and both sides' oversteps.
pub(crate) fn clock_panel(
    ui: &mut Ui,
    clock: &ggdesk_core::clock::Clock,
    oversteps_to_lose: u32,
    move_clock: bool,
) {
    if move_clock {
        let left = clock.move_remaining_ns();
        let color = move_clock_color(ui, left);
        ui.horizontal(|ui| {
            ui.label("Move clock");
            ui.label(
                RichText::new(fmt_clock(left))
                    .monospace()
                    .size(34.0)
                    .strong()
                    .color(color),
            );
            if clock.turn_overstepped() {
                badge(ui, "OVERSTEP", common::RED);
            }
        });
    }
    ui.label(
        RichText::new(format!(
            "Game clock {} left",
            fmt_hms(clock.game_remaining_ns())
        ))
        .monospace()
        .size(18.0),
    );
    ui.label(format!(
        "Oversteps  White {}   Black {}",
        oversteps_marks(clock.oversteps().white, oversteps_to_lose),
        oversteps_marks(clock.oversteps().black, oversteps_to_lose)
    ));
}

/// The heading of an adjudication with its reading timer, which runs from the moment game
/// time ran out.
pub(crate) fn adjudication_heading(
    ui: &mut Ui,
    table: &LiveTable,
    stopped: ggdesk_core::clock::Time,
    reading_limit_ns: i64,
    now_ms: i64,
) {
    let started = table.stored.meta.started_at.unwrap_or(now_ms);
    let left = reading_limit_ns - (now_ms - (started + stopped.as_ms())) * 1_000_000;
    ui.horizontal(|ui| {
        ui.label(
            RichText::new("Adjudication")
                .size(22.0)
                .strong()
                .color(common::AMBER),
        );
        let color = if left < 0 {
            common::RED
        } else {
            ui.visuals().text_color()
        };
        ui.label(
            RichText::new(format!("Reading time left: {}", fmt_clock(left)))
                .strong()
                .color(color),
        );
    });
}

/// Under a decided result: it has gone to the round; the arbiter confirms it (or records an
/// arbiter's mistake with the void-and-replay action).
pub(crate) fn confirmation(ui: &mut Ui, table: &LiveTable, queued: &mut Vec<TableCmd>) {
    ui.label("The result has gone to the round.");
    if table.confirmed {
        ui.label(RichText::new("Confirmed by the arbiter.").color(common::GREEN));
    } else {
        ui.horizontal(|ui| {
            if ui
                .button(RichText::new("Confirm result").strong())
                .clicked()
            {
                queued.push(TableCmd::ConfirmResult { game: table.id() });
            }
            ui.label(RichText::new("or record an arbiter's mistake below").weak());
        });
    }
}

/// Opens a file in the user's browser; says where the file is either way.
pub fn open_in_browser(file: &std::path::Path, notices: &mut common::Notices) {
    let opened = std::process::Command::new("xdg-open")
        .arg(file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .is_ok();
    if opened {
        notices.info(format!("Opened {} in the browser", file.display()));
    } else {
        notices.info(format!(
            "Written {}: open it in a browser to print",
            file.display()
        ));
    }
}

/// The clocks and state as the players may see them: nothing about any rank.
pub fn player_view_panel(
    ui: &mut Ui,
    view: &ggdesk_core::rules::PlayerView,
    game: Option<&ggdesk_core::rules::Game>,
) {
    ui.vertical_centered(|ui| {
        let status = match view.finished {
            Some((Some(w), reason)) => format!("{w} wins ({})", reason.replace('_', " ")),
            Some((None, "game_time")) => "Game time is up: adjudication".to_string(),
            Some((None, reason)) => format!("Draw ({})", reason.replace('_', " ")),
            None if view.paused => "Paused by the arbiter".to_string(),
            None => format!("{} to move", capitalise(view.to_move.name())),
        };
        ui.heading(RichText::new(status).size(26.0).strong());
        if let Some(g) = game {
            let c = g.clock();
            ui.label(
                RichText::new(format!(
                    "Move clock {}   ·   Game clock {} left",
                    fmt_clock(c.move_remaining_ns()),
                    fmt_hms(c.game_remaining_ns())
                ))
                .size(20.0),
            );
        }
        ui.label(format!(
            "Oversteps: White {}  Black {}   ·   Pieces: White {}  Black {}",
            view.oversteps.white, view.oversteps.black, view.pieces.white, view.pieces.black
        ));
    });
    ui.add_space(6.0);
    draw_player_view(ui, view, &[]);
}

/// A side's name as a proper noun in the desk's sentences: "White", "Black".
pub(crate) struct Cap(pub Side);

impl std::fmt::Display for Cap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            Side::White => "White",
            Side::Black => "Black",
        })
    }
}

pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The status word and colour of a table.
pub fn phase_badge(phase: Phase) -> (String, Color32) {
    match phase {
        Phase::Setup => ("SETUP".into(), Color32::GRAY),
        Phase::Ready => ("READY".into(), common::BLUE),
        Phase::Playing => ("PLAYING".into(), common::GREEN),
        Phase::Paused => ("PAUSED".into(), common::AMBER),
        Phase::FlagPending(_) => ("FLAG PENDING".into(), common::RED),
        Phase::AdjudicationPending => ("ADJUDICATION".into(), common::AMBER),
        Phase::ThirtyCountPending => ("COUNTS".into(), common::AMBER),
        Phase::Finished(o) => (
            match o.winner() {
                Some(w) => format!("{} WINS", w.name().to_uppercase()),
                None => "DRAW".into(),
            },
            common::BLUE,
        ),
        Phase::Void => ("VOID".into(), Color32::GRAY),
    }
}

fn oversteps_marks(n: u32, limit: u32) -> String {
    format!("{n}/{limit}")
}

/// The width of a table's card on the overview.
const CARD_WIDTH: f32 = 236.0;

/// One card of the overview. Returns a command when clicked.
fn card_ui(
    ui: &mut Ui,
    card: &Card,
    table: Option<&LiveTable>,
    now: i64,
    round: Option<u32>,
) -> Option<TableCmd> {
    let mut cmd = None;
    let title = match card.table_no {
        Some(n) => format!("Table {n}"),
        None => match table.filter(|t| t.stored.meta.imported) {
            Some(_) => format!("Imported game {}", card.game.map_or(0, |g| g.0)),
            None => format!("Practice {}", card.game.map_or(0, |g| g.0)),
        },
    };
    let phase = table.map(|t| t.phase(now));
    let frame = egui::Frame::group(ui.style())
        .inner_margin(8.0)
        .corner_radius(6.0);
    let response = frame
        .show(ui, |ui| {
            // The cards flow in a wrapping row; each card's own lines stack.
            ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
            ui.set_width(CARD_WIDTH);
            ui.set_height(104.0);
            ui.horizontal(|ui| {
                ui.label(RichText::new(&title).strong().size(16.0));
                ui.with_layout(
                    egui::Layout::right_to_left(egui::Align::Center),
                    |ui| match phase {
                        Some(p) => {
                            let (text, color) = phase_badge(p);
                            badge(ui, &text, color);
                        }
                        None => {
                            badge(ui, "NO GAME YET", Color32::GRAY);
                        }
                    },
                );
            });
            ui.label(format!("{}  vs  {}", card.names.0, card.names.1));
            match (table, table.and_then(|t| t.derived_at(now))) {
                (Some(t), Some(g)) if t.started() => {
                    let c = g.clock();
                    let limit = g.settings().oversteps_to_lose;
                    let move_left = c.move_remaining_ns();
                    let color = move_clock_color(ui, move_left);
                    ui.horizontal(|ui| {
                        if !g.is_over() {
                            ui.label(format!("{} to move", capitalise(g.to_move().name())));
                            ui.label(
                                RichText::new(fmt_clock(move_left))
                                    .monospace()
                                    .strong()
                                    .color(color)
                                    .size(16.0),
                            );
                        }
                    });
                    ui.label(
                        RichText::new(format!(
                            "W {}  B {}   game {} left · moves {}",
                            oversteps_marks(c.oversteps().white, limit),
                            oversteps_marks(c.oversteps().black, limit),
                            fmt_hms(c.game_remaining_ns()),
                            g.plies()
                        ))
                        .small(),
                    );
                    if let Some(Phase::Finished(o)) = phase {
                        ui.label(RichText::new(o.reason().describe()).small());
                    }
                }
                (Some(t), _) if t.mode() == GameMode::Physical => {
                    ui.label("Physical board: clocks not started");
                }
                (Some(t), _) => {
                    let placed =
                        |s: Side| t.stored.setup[s].as_ref().map_or(0, |x| x.placements.len());
                    ui.label(format!(
                        "Setups: White {}/21, Black {}/21",
                        placed(Side::White),
                        placed(Side::Black)
                    ));
                }
                (None, _) => {
                    let decided = card.board.as_ref().filter(|b| b.result != ggdesk_core::tournament::GameResult::Pending);
                    if let Some(board) = decided {
                        // A result entered at the director's desk: nothing to arbitrate.
                        ui.label(format!("Result: {}", board.result.name().replace('_', " ")));
                    } else if let (Some(board), Some(round)) = (&card.board, round) {
                        ui.horizontal(|ui| {
                            if ui.button("Arbitrate here").clicked() {
                                cmd = Some(TableCmd::CreateForBoard {
                                    board: board.clone(),
                                    round,
                                    mode: GameMode::Arbitrated,
                                });
                            }
                            if ui
                                .button("Physical board")
                                .on_hover_text("Played on a real board: the desk keeps the clocks and the tally")
                                .clicked()
                            {
                                cmd = Some(TableCmd::CreateForBoard {
                                    board: board.clone(),
                                    round,
                                    mode: GameMode::Physical,
                                });
                            }
                        });
                    }
                }
            }
        });
        })
        .response;
    if let Some(id) = card.game {
        let click = ui.interact(
            response.rect,
            ui.scope_id().with(("card", id.0)),
            egui::Sense::click(),
        );
        click.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Button, true, format!("Open {title}"))
        });
        if click.clicked() && cmd.is_none() {
            cmd = Some(TableCmd::Open(id));
        }
    }
    cmd
}
