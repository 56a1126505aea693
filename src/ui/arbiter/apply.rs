//! The Tables page's commands applied through the store, after drawing: one transaction
//! each, the table reloaded after it, the outcome said in the notices.

use super::{Cap, TableCmd, TablesPage};
use crate::desk::{LiveTable, Phase};
use crate::store::{Actor, AnyEvent, GameId, GameMode, NewGame};
use crate::ui::PageCtx;
use crate::ui::common::{LoadErrors, fmt_hms};
use crate::ui::files;
use ggdesk_core::event::BoardView as RoundBoard;
use ggdesk_core::rules::{Event, Side};
use ggdesk_core::tournament::RoundNo;

/// How long a write the desk makes by itself (a reading timer, a sheet handed in at time)
/// waits before it is tried again after a failure.
const OWN_WRITE_RETRY_MS: i64 = 3_000;

impl TablesPage {
    /// Applies one of the page's commands, by its group.
    pub(super) fn apply(&mut self, cmd: TableCmd, cx: &mut PageCtx<'_>) {
        match cmd {
            TableCmd::Open(_)
            | TableCmd::Back
            | TableCmd::CreateForBoard { .. }
            | TableCmd::CreatePractice { .. }
            | TableCmd::VoidAndReplay { .. }
            | TableCmd::RemovePractice { .. } => self.apply_tables(cmd, cx),
            TableCmd::Event { .. }
            | TableCmd::Any { .. }
            | TableCmd::Undo { .. }
            | TableCmd::Correct { .. } => self.apply_play(cmd, cx),
            TableCmd::SaveSetup { .. }
            | TableCmd::DrawLots { .. }
            | TableCmd::Start { .. }
            | TableCmd::StartSetupTimer { .. }
            | TableCmd::SetupRuling { .. } => self.apply_setup(cmd, cx),
            TableCmd::StartReadingTimer { .. }
            | TableCmd::SaveSheet { .. }
            | TableCmd::HandInAtTime { .. }
            | TableCmd::ConfirmResult { .. }
            | TableCmd::PrintAdjudication { .. } => self.apply_adjudication(cmd, cx),
            TableCmd::ImportRecord(_) | TableCmd::Export { .. } => self.apply_records(cmd, cx),
        }
    }

    /// Applies a command that opens, leaves, creates or takes away a table.
    fn apply_tables(&mut self, cmd: TableCmd, cx: &mut PageCtx<'_>) {
        match cmd {
            TableCmd::Open(id) => self.open(id, cx),
            TableCmd::Back => {
                self.selected = None;
                self.player_fullscreen = false;
            }
            TableCmd::CreateForBoard { board, round, mode } => {
                self.create_for_board(board, round, mode, cx)
            }
            TableCmd::CreatePractice { mode } => self.create_practice(mode, cx),
            TableCmd::VoidAndReplay { game, reason } => {
                let r = cx.store.void_and_replay(game, &reason, &cx.actor());
                if let Some(new) = cx
                    .notices
                    .report(r, "Game voided; the replay is ready for new setups")
                {
                    self.reload(game, cx);
                    self.refresh_cards(cx, true);
                    self.queued.push(TableCmd::Open(new));
                }
            }
            TableCmd::RemovePractice { game, reason } => {
                let r = cx.store.remove_practice_table(game, &reason, &cx.actor());
                if cx
                    .notices
                    .report(r, "Practice table removed (its record is kept)")
                    .is_some()
                {
                    self.tables.tables.remove(&game);
                    self.selected = None;
                    self.refresh_cards(cx, true);
                }
            }
            // `apply` sends only the commands above here.
            _ => {}
        }
    }

    /// Applies an event entered at a table in play: an event, an undo or a corrected move.
    fn apply_play(&mut self, cmd: TableCmd, cx: &mut PageCtx<'_>) {
        match cmd {
            TableCmd::Event {
                game,
                event,
                reason,
            } => {
                let Some(mode) = self.tables.tables.get(&game).map(LiveTable::mode) else {
                    return;
                };
                match AnyEvent::for_mode(mode, event) {
                    Some(event) => self.event(game, event, &reason, cx),
                    None => cx
                        .notices
                        .error("moves on a physical board are entered as \"move made\""),
                }
            }
            TableCmd::Any {
                game,
                event,
                reason,
            } => self.event(game, event, &reason, cx),
            TableCmd::Undo { game, reason } => {
                let actor = cx.actor();
                if let Some(table) = self.tables.tables.get_mut(&game) {
                    let r = table.undo(cx.store, cx.now_ms, &actor, &reason);
                    cx.notices.report(r, "Last event undone");
                }
            }
            TableCmd::Correct { game, mv, reason } => {
                let actor = cx.actor();
                let replacement = AnyEvent::Game(Event::Move { mv, by: None });
                if let Some(table) = self.tables.tables.get_mut(&game) {
                    let r = table.correct(cx.store, replacement, cx.now_ms, &actor, &reason);
                    match r {
                        Ok(_) => {
                            cx.notices.info(format!(
                                "Last move corrected: {mv} entered at the time the move was made"
                            ));
                            if let Some(a) = &table.last_announcement {
                                cx.notices.info(a.text.clone());
                            }
                            if let Phase::Finished(o) = table.phase(cx.now_ms) {
                                cx.notices
                                    .info(format!("Game over: {}", super::parts::outcome_words(o)));
                            }
                            if let Some(c) = table.round_completed.clone() {
                                cx.notices.round_complete(c.round, &c.backup);
                            }
                            self.move_error = None;
                            self.focus_move = true;
                        }
                        Err(e) => cx.notices.error(e.to_string()),
                    }
                }
            }
            // `apply` sends only the commands above here.
            _ => {}
        }
    }

    /// Applies a command of the time before the clocks: a setup, lots, the start, the setup
    /// timer and the ruling on its overrun.
    fn apply_setup(&mut self, cmd: TableCmd, cx: &mut PageCtx<'_>) {
        match cmd {
            TableCmd::SaveSetup { game, side, setup } => {
                let r = cx.store.save_setup(game, side, &setup, &cx.actor());
                if cx.notices.report(r, "").is_some() {
                    self.reload(game, cx);
                }
            }
            TableCmd::DrawLots { game } => self.draw_lots(game, cx),
            TableCmd::Start { game, first } => {
                let r = cx.store.start_game(game, cx.now_ms, first, &cx.actor());
                if cx
                    .notices
                    .report(r, &format!("Clocks started: {} moves first", Cap(first)))
                    .is_some()
                {
                    self.reload(game, cx);
                    self.focus_move = true;
                }
            }
            TableCmd::StartSetupTimer { game } => {
                let r = cx.store.start_setup_timer(game, cx.now_ms, &cx.actor());
                if cx.notices.report(r, "").is_some() {
                    self.reload(game, cx);
                }
            }
            TableCmd::SetupRuling { game, reason } => {
                let r = cx
                    .store
                    .record_setup_overrun(game, cx.now_ms, &reason, &cx.actor());
                if cx
                    .notices
                    .report(r, "Ruling on the setup time recorded in the audit log")
                    .is_some()
                {
                    self.reload(game, cx);
                }
            }
            // `apply` sends only the commands above here.
            _ => {}
        }
    }

    /// Applies a command of the adjudication: the reading timer, a reading sheet, the result
    /// confirmed, the form printed.
    fn apply_adjudication(&mut self, cmd: TableCmd, cx: &mut PageCtx<'_>) {
        match cmd {
            TableCmd::StartReadingTimer { game, at_ms } => {
                let r = cx.store.start_reading_timer(game, at_ms, &cx.automatic());
                if cx.notices.report(r, "").is_some() {
                    self.reload(game, cx);
                } else {
                    self.ask_again_later((game, None), cx.now_ms);
                }
            }
            TableCmd::SaveSheet {
                game,
                side,
                sheet,
                complete,
            } => {
                let actor = cx.actor();
                let done = if complete {
                    format!("{}'s reading sheet handed in", Cap(side))
                } else {
                    String::new()
                };
                self.save_sheet(game, side, &sheet, complete, &actor, &done, cx);
                // A sheet handed in: the other reader's turn, if that sheet is still out.
                let other_out = self.tables.tables.get(&game).is_some_and(|t| {
                    t.stored.sheets[side.opponent()]
                        .as_ref()
                        .is_none_or(|r| !r.complete)
                });
                if complete && other_out {
                    self.adjudication.black_reads = side == Side::White;
                    self.adjudication.picked = None;
                    self.physical.black_reads = side == Side::White;
                    self.physical.picked = None;
                }
            }
            TableCmd::HandInAtTime { game, side, sheet } => {
                let done = format!(
                    "Reading time is over: {}'s sheet handed in as it stood",
                    Cap(side)
                );
                let actor = cx.automatic();
                if !self.save_sheet(game, side, &sheet, true, &actor, &done, cx) {
                    self.ask_again_later((game, Some(side)), cx.now_ms);
                }
            }
            TableCmd::ConfirmResult { game } => {
                let r = cx.store.confirm_result(game, &cx.actor());
                if cx.notices.report(r, "Result confirmed").is_some() {
                    self.reload(game, cx);
                }
            }
            TableCmd::PrintAdjudication { game } => {
                let result = self.adjudication_form(cx, game);
                if let Some(file) = cx.notices.report(result, "") {
                    files::print_page(cx.notices, cx.launcher, "Adjudication form", &file);
                }
            }
            // `apply` sends only the commands above here.
            _ => {}
        }
    }

    /// Applies a game record imported or exported.
    fn apply_records(&mut self, cmd: TableCmd, cx: &mut PageCtx<'_>) {
        match cmd {
            TableCmd::ImportRecord(path) => {
                let r = import_record(cx, &path);
                if let Some(id) = cx.notices.report(r, "") {
                    cx.notices
                        .info(format!("Game {id} imported from {}", path.display()));
                    self.refresh_cards(cx, true);
                    self.queued.push(TableCmd::Open(id));
                }
            }
            TableCmd::Export { game } => {
                let result = export_record(cx, game);
                if let Some(file) = cx.notices.report(result, "") {
                    files::written(cx.notices, "Game record", &file);
                }
            }
            // `apply` sends only the commands above here.
            _ => {}
        }
    }

    /// Reloads a table after a write (its events, sheets and timers).
    fn reload(&mut self, game: GameId, cx: &mut PageCtx<'_>) {
        if let Some(t) = self.tables.tables.get_mut(&game)
            && let Err(e) = t.reload(cx.store)
        {
            cx.notices.error(e.to_string());
        }
        match cx.store.table_timers(game) {
            Ok(timers) => {
                self.timers.insert(game, timers);
            }
            Err(e) => cx.notices.error(e.to_string()),
        }
    }

    /// Opens a table. What was being entered at another table (the setup tab, the reader,
    /// a picked square or piece) stays there: a table opens on White, with nothing picked.
    fn open(&mut self, id: GameId, cx: &mut PageCtx<'_>) {
        let mut load = LoadErrors::default();
        if !self.ensure(cx, id, &mut load) {
            cx.notices.error(load.joined());
            return;
        }
        if self.selected != Some(id) {
            self.setup = Default::default();
            self.adjudication = Default::default();
            self.physical = Default::default();
            self.move_text.clear();
            self.move_error = None;
            self.from = None;
        }
        self.selected = Some(id);
        self.focus_move = true;
    }

    fn create_for_board(
        &mut self,
        board: RoundBoard,
        round: RoundNo,
        mode: GameMode,
        cx: &mut PageCtx<'_>,
    ) {
        let Some(tid) = *cx.tournament else { return };
        let Some(rules) = cx.notices.report(cx.store.tournament_rules(tid), "") else {
            return;
        };
        let new = NewGame::for_board(tid, round, &board, mode, rules);
        let actor = cx.actor();
        if let Some(id) = cx.notices.report(cx.store.create_game(&new, &actor), "") {
            self.refresh_cards(cx, true);
            self.queued.push(TableCmd::Open(id));
        }
    }

    /// A practice table of the chosen tournament (played under its rules), or of none.
    fn create_practice(&mut self, mode: GameMode, cx: &mut PageCtx<'_>) {
        let mut new = NewGame {
            mode,
            tournament_id: *cx.tournament,
            ..NewGame::standalone()
        };
        if let Some(tid) = *cx.tournament {
            let Some(rules) = cx.notices.report(cx.store.tournament_rules(tid), "") else {
                return;
            };
            new.rules = rules;
        }
        let r = cx.store.create_game(&new, &cx.actor());
        if let Some(id) = cx.notices.report(r, "Practice table created") {
            self.refresh_cards(cx, true);
            self.queued.push(TableCmd::Open(id));
        }
    }

    /// One event at a table. A move refused by the rules keeps its text in the move box,
    /// with the reason, for the arbiter to correct.
    fn event(&mut self, game: GameId, event: AnyEvent, reason: &str, cx: &mut PageCtx<'_>) {
        let actor = cx.actor();
        let now = cx.now_ms;
        let Some(table) = self.tables.tables.get_mut(&game) else {
            return;
        };
        match table.submit_any(cx.store, event, now, &actor, reason) {
            Ok(_) => {
                self.move_error = None;
                cx.notices.clear_errors();
                if let AnyEvent::Game(Event::Move { .. }) = event {
                    self.move_text.clear();
                    self.focus_move = true;
                }
                if let Some(a) = &table.last_announcement {
                    cx.notices.info(a.text.clone());
                }
                if let Phase::Finished(o) = table.phase(now) {
                    cx.notices.info(format!(
                        "Game over: {} — {}",
                        o.winner()
                            .map_or("draw".to_string(), |w| format!("{} wins", Cap(w))),
                        o.reason().describe()
                    ));
                }
                if let Some(c) = table.round_completed.clone() {
                    cx.notices.round_complete(c.round, &c.backup);
                }
            }
            Err(e) => {
                self.move_error = Some(e.to_string());
                self.move_error_offline = e.is_disconnected().then(|| e.to_string());
                cx.notices.error(e.to_string());
            }
        }
    }

    fn draw_lots(&mut self, game: GameId, cx: &mut PageCtx<'_>) {
        use rand::{Rng, SeedableRng};
        let heads = rand::rngs::StdRng::from_os_rng().random::<bool>();
        let first = if heads { Side::White } else { Side::Black };
        let r = cx.store.draw_lots(game, first, cx.now_ms, &cx.actor());
        if cx.notices.report(r, "").is_none() {
            return;
        }
        // The side as stored: a station on the event server's API has the server draw.
        let first = match cx.store.load_game(game) {
            Ok(g) => g.meta.first,
            Err(_) => first,
        };
        cx.notices
            .info(format!("Lots drawn: {} moves first", Cap(first)));
        self.first.insert(game, first);
        self.reload(game, cx);
    }

    /// A write the desk made by itself failed: it is asked again a few seconds from now.
    fn ask_again_later(&mut self, key: (GameId, Option<Side>), now_ms: i64) {
        self.own_writes.insert(key, now_ms + OWN_WRITE_RETRY_MS);
    }

    /// Saves a reading sheet, saying how it went; whether it was saved.
    #[allow(clippy::too_many_arguments)]
    fn save_sheet(
        &mut self,
        game: GameId,
        side: Side,
        sheet: &serde_json::Value,
        complete: bool,
        actor: &Actor,
        done: &str,
        cx: &mut PageCtx<'_>,
    ) -> bool {
        let r = cx
            .store
            .save_reading_sheet(game, side, sheet, complete, actor);
        let Some(c) = cx.notices.report(r, done) else {
            return false;
        };
        self.reload(game, cx);
        if let Some(c) = c {
            cx.notices.round_complete(c.round, &c.backup);
        }
        true
    }

    /// Writes the printable adjudication form of a game beside the database.
    fn adjudication_form(
        &self,
        cx: &mut PageCtx<'_>,
        game: GameId,
    ) -> Result<std::path::PathBuf, String> {
        let stored = cx.store.load_game(game).map_err(|e| e.to_string())?;
        let verdict = stored
            .verdict()
            .ok_or("the setups are not in")?
            .map_err(|e| e.to_string())?;
        let adj = verdict
            .adjudication
            .ok_or("both reading sheets must be handed in first")?;
        let label = self.label(game);
        let event = match stored.meta.tournament_id {
            // A station on the API has its tournament's name, not its details.
            Some(t) if cx.store.is_on_station_api() => cx
                .store
                .tournament_names()
                .map_err(|e| e.to_string())?
                .into_iter()
                .find(|(id, _)| *id == t)
                .map_or_else(|| label.title.clone(), |(_, name)| name),
            Some(t) => cx
                .store
                .tournament_details(t)
                .map_err(|e| e.to_string())?
                .title_line(),
            None => label.title.clone(),
        };
        // The playing time on the game clock (pauses excluded), and the time since the start
        // only when pauses make it differ.
        let played_ns = stored
            .derive()
            .and_then(Result::ok)
            .map_or((verdict.at * 1e9) as i64, |g| g.clock().game_used_ns());
        let wall_ns = (verdict.at * 1e9) as i64;
        let heading = ggdesk_core::export::forms::FormHeading {
            event,
            round: stored.meta.round.map(|r| r.0),
            table: stored.meta.table_no.map(|t| t.0),
            white: label.names.0,
            black: label.names.1,
            played: fmt_hms(played_ns),
            stopped_at: if fmt_hms(wall_ns) == fmt_hms(played_ns) {
                String::new()
            } else {
                fmt_hms(wall_ns)
            },
        };
        let html = ggdesk_core::export::forms::adjudication_form(&heading, &adj);
        let dir = beside_db(cx, "forms");
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let file = dir.join(format!("adjudication-game-{game}.html"));
        std::fs::write(&file, html).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        Ok(file)
    }
}

/// A folder beside the database (or the working folder for a database in memory).
fn beside_db(cx: &PageCtx<'_>, name: &str) -> std::path::PathBuf {
    cx.store
        .path()
        .and_then(|p| p.parent().map(|d| d.join(name)))
        .unwrap_or_else(|| std::path::PathBuf::from(name))
}

/// Writes a game's record into `records/` beside the database.
fn export_record(cx: &PageCtx<'_>, game: GameId) -> Result<std::path::PathBuf, String> {
    let value = cx.store.export_game(game).map_err(|e| e.to_string())?;
    let dir = beside_db(cx, "records");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join(format!("game-{game}.json"));
    let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())? + "\n";
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    Ok(file)
}

/// Imports a game record or a physical-board record, by its `format`, in one transaction.
fn import_record(cx: &mut PageCtx<'_>, path: &std::path::Path) -> Result<GameId, String> {
    use ggdesk_core::{physical_record, record};
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{shown}: not valid JSON: {e}"))?;
    let actor = cx.actor();
    match value.get("format").and_then(serde_json::Value::as_str) {
        Some(record::FORMAT) => {
            let r = record::Record::from_value(&value).map_err(|e| format!("{shown}: {e}"))?;
            cx.store
                .import_record(&r, &actor)
                .map_err(|e| format!("{shown}: {e}"))
        }
        Some(physical_record::FORMAT) => {
            let r = physical_record::PhysicalRecord::from_value(&value)
                .map_err(|e| format!("{shown}: {e}"))?;
            cx.store
                .import_physical(&r, &actor)
                .map_err(|e| format!("{shown}: {e}"))
        }
        other => Err(format!(
            "{shown}: not a game record (format {:?}; expected {:?} or {:?})",
            other.unwrap_or(""),
            record::FORMAT,
            physical_record::FORMAT
        )),
    }
}
