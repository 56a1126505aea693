//! Games and their events. A game's board, clocks and result are never stored as such:
//! they are derived by replaying its events through the rules engine. Events are only ever
//! inserted; an arbiter's correction is an `undo` event naming the event it cancels.
//!
//! This module reads and writes rows; every derivation (the events in force, the record,
//! the status, the result, the reading-sheet check) is the core's `game` module.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::{Optional, Tx, args};
use super::error::{Result, StoreError, rejected};
use ggdesk_core::event::Command;
use ggdesk_core::game::desk::{self, GameRefusal, ReasonFor};
use ggdesk_core::game::{
    AnyEvent, Correction, GameMode, LogEntry, LogEntryKind, Restart, SheetRow,
};
use ggdesk_core::physical_record::{self, PhysicalRecord};
use ggdesk_core::record::{Record, TimedEvent, setup_value};
use ggdesk_core::rules::{Applied, BySide, GameState, PhysicalEvent, Position, Side, SideSetup};
use ggdesk_core::tournament::TournamentId;
use ggdesk_core::tournament::{GameResult, RoundNo, TableNo};
use serde_json::{Map, Value};

use super::game_rows::{
    AppendOutcome, Expect, GAME_COLUMNS, GameId, GameMeta, GameRow, NewGame, Restored, StoredGame,
    damaged, insert_event, insert_game, load, load_locked, read_row, side_code,
};

/// Writes the derived result into the game row and, for a tournament game that is not void,
/// lets its event take it: the result reaches the round's board in the same transaction as
/// the event that decided it, and the round's completion follows the one rule of every
/// result (the core's). Returns the round if it became complete (backed up by the caller
/// after the commit).
fn settle(tx: &mut Tx<'_>, game: &StoredGame, actor: &Actor) -> Result<Option<RoundNo>> {
    let decision = game.logged().decision();
    if decision == game.meta.result {
        return Ok(None);
    }
    tx.execute(
        "UPDATE games SET result = ?1 WHERE id = ?2",
        args![decision.code(), game.meta.id.0],
    )?;
    let m = &game.meta;
    let (Some(tid), Some(round), Some(table), false) =
        (m.tournament_id, m.round, m.table_no, m.void)
    else {
        return Ok(None);
    };
    let result = decision.board_result().unwrap_or(GameResult::Pending);
    let players = m.players.map(|p| (p.white, p.black));
    if super::team_rows::is_team_event(tx, tid)? {
        return super::team_tables::desk_result(
            tx,
            tid,
            (Some(m.id), round, table),
            players,
            (result, ""),
            actor,
        );
    }
    let command = Command::DeskResult {
        game: m.id,
        round,
        table,
        players,
        result,
    };
    let changes = super::events::desk_command(tx, tid, &command, actor)?;
    Ok(changes.completed.first().copied())
}

/// The games of the arbiter desk's Tables page ([`Store::desk_games`]).
#[derive(Debug, Default)]
pub struct DeskGames {
    /// Each game with its table's timers, by id.
    pub games: Vec<(GameMeta, super::tables::TableTimers)>,
    /// The games whose stored row cannot be read, with what is wrong.
    pub damaged: Vec<(GameId, String)>,
}

impl Store {
    /// Creates a game (its setups still to be entered).
    pub fn create_game(&mut self, new: &NewGame, actor: &Actor) -> Result<GameId> {
        if let Some(r) = self.remote() {
            return super::remote::create_game(&*r, new);
        }
        self.write(|tx| insert_game(tx, new, &Map::new(), actor))
    }

    /// Creates a game with both setups entered and its clocks started at `started_at`, in
    /// one transaction, for a writer that may have to try again after a lost connection
    /// (`feed`): a second call with the same `token` answers the game the first created.
    pub fn create_started_game(
        &mut self,
        new: &NewGame,
        setups: &BySide<SideSetup>,
        started_at: i64,
        token: &str,
        actor: &Actor,
    ) -> Result<GameId> {
        Position::from_setups(setups).map_err(rejected)?;
        self.write(|tx| {
            let known: Option<i64> = tx.query_opt(
                "SELECT id FROM games WHERE token = ?1",
                args![token],
                |r| r.get(0),
            )?;
            if let Some(id) = known {
                return Ok(GameId(id));
            }
            let id = insert_game(tx, new, &Map::new(), actor)?;
            tx.execute(
                "UPDATE games SET setup_white = ?1, setup_black = ?2, started_at = ?3, token = ?4 WHERE id = ?5",
                args![
                    setup_value(&setups.white).to_string(),
                    setup_value(&setups.black).to_string(),
                    started_at,
                    token,
                    id.0
                ],
            )?;
            audit(
                tx,
                actor,
                "game started",
                new.tournament_id,
                Some(id.0),
                "",
                &format!("setups entered, {} moves first", new.first),
            )?;
            Ok(id)
        })
    }

    pub fn load_game(&self, id: GameId) -> Result<StoredGame> {
        if let Some(r) = self.remote() {
            return super::remote::load_game(&*r, id);
        }
        self.read(|q| load(q, id))
    }

    /// Every game's facts, for one tournament round or (with `None`) all games.
    pub fn game_metas(&self, round: Option<(TournamentId, RoundNo)>) -> Result<Vec<GameMeta>> {
        let (sql, params): (String, Vec<super::db::Value>) = match round {
            Some((t, r)) => (
                format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE tournament_id = ?1 AND round = ?2 ORDER BY table_no, id"
                ),
                args![t, r].to_vec(),
            ),
            None => (
                format!("SELECT {GAME_COLUMNS} FROM games ORDER BY id"),
                vec![],
            ),
        };
        let rows = self.read(|q| {
            q.query_map(&sql, &params[..], |r| {
                use super::error::Context;
                let id: i64 = r.get("id")?;
                read_row(r).at("games", format!("game {id}"))
            })
        })?;
        rows.iter().map(GameRow::meta).collect()
    }

    /// The games the arbiter desk's Tables page shows, with their timers, in one read: the
    /// live (not void) games of `round` and the live games of no round (practice tables,
    /// imported records still waiting for their readings), by id. The page reads them
    /// whenever anything was written, so it reads neither the whole event's games nor each
    /// table's timers on its own. A game whose stored row cannot be read is answered apart,
    /// with what is wrong, so that one damaged game hides no other table.
    pub fn desk_games(&self, round: Option<(TournamentId, RoundNo)>) -> Result<DeskGames> {
        if let Some(r) = self.remote() {
            return super::remote::desk_games(&*r, round);
        }
        let (tournament, number) = (round.map(|r| r.0), round.map(|r| r.1));
        let rows = self.read(|q| {
            q.query_map(
                &format!(
                    "SELECT {GAME_COLUMNS}, {timers} FROM games
                     WHERE void = 0
                       AND (round IS NULL AND (origin <> 'import' OR result = ?3)
                            OR tournament_id = ?1 AND round = ?2)
                     ORDER BY id",
                    timers = super::tables::TIMER_COLUMNS
                ),
                args![
                    tournament,
                    number,
                    ggdesk_core::record::Status::AdjudicationPending.code()
                ],
                |r| {
                    use super::error::Context;
                    let id: i64 = r.get("id")?;
                    let read = super::tables::TableTimers::read(r).and_then(|timers| {
                        Ok((read_row(r).at("games", format!("game {id}"))?, timers))
                    });
                    Ok((GameId(id), read))
                },
            )
        })?;
        let mut games = DeskGames::default();
        for (id, read) in rows {
            match read.and_then(|(row, timers)| Ok((row.meta()?, timers))) {
                Ok(game) => games.games.push(game),
                Err(e) if e.is_disconnected() => return Err(e),
                Err(e) => games.damaged.push((id, e.to_string())),
            }
        }
        Ok(games)
    }

    /// Games started and not yet decided (nor void): the ones to restore on start.
    pub fn games_in_progress(&self) -> Result<Vec<GameId>> {
        self.read(|q| {
            q.query_map(
                "SELECT id FROM games WHERE started_at IS NOT NULL AND void = 0 AND result IS NULL ORDER BY id",
                args![],
                |r| r.get::<i64>(0).map(GameId),
            )
        })
    }

    /// Stores one side's setup as entered so far. Allowed until the game starts.
    pub fn save_setup(
        &mut self,
        id: GameId,
        side: Side,
        setup: &SideSetup,
        actor: &Actor,
    ) -> Result<()> {
        if let Some(r) = self.remote() {
            return super::remote::save_setup(&*r, id, side, setup);
        }
        self.write(|tx| {
            let game = load_locked(tx, id)?;
            desk::may_enter_setup(id, game.meta.started_at.is_some())?;
            let column = match side {
                Side::White => "setup_white",
                Side::Black => "setup_black",
            };
            tx.execute(
                &format!("UPDATE games SET {column} = ?1 WHERE id = ?2"),
                args![setup_value(setup).to_string(), id.0],
            )?;
            audit(
                tx,
                actor,
                "setup entered",
                game.meta.tournament_id,
                Some(id.0),
                "",
                &format!("{side}: {} pieces placed", setup.placements.len()),
            )
        })
    }

    /// Starts the clocks with `first` to move (drawn by lot, or chosen by the arbiter): both
    /// setups must be complete and legal. `started_at` is the Unix ms of t = 0.
    pub fn start_game(
        &mut self,
        id: GameId,
        started_at: i64,
        first: Side,
        actor: &Actor,
    ) -> Result<()> {
        if let Some(r) = self.remote() {
            return super::remote::start_game(&*r, id, first);
        }
        self.write(|tx| {
            let game = load_locked(tx, id)?;
            desk::may_start(
                id,
                game.meta.started_at.is_some(),
                game.meta.mode,
                game.setups(),
            )?;
            // Who moves first was drawn by lot at the desk (and is kept), or the arbiter
            // chose it: the audit log says which (at a station, its start function writes
            // the same words, after checking the lots itself: migration 7).
            let lots: Option<i64> = tx.query_row(
                "SELECT lots_drawn_at FROM games WHERE id = ?1",
                [id.0],
                |r| r.get(0),
            )?;
            let by_lot = lots.is_some() && game.meta.first == first;
            let how = if by_lot {
                "by lot"
            } else {
                "chosen by the arbiter"
            };
            tx.execute(
                "UPDATE games SET started_at = ?1, first = ?2 WHERE id = ?3",
                args![started_at, side_code(first), id.0],
            )?;
            audit(
                tx,
                actor,
                "game started",
                game.meta.tournament_id,
                Some(id.0),
                "",
                &format!("{first} moves first ({how})"),
            )
        })
    }

    /// Appends one arbiter event after checking it against the game replayed so far. An
    /// event the rules refuse is not written ([`StoreError::Rejected`] with the reason).
    pub fn append_event(
        &mut self,
        id: GameId,
        event: TimedEvent,
        actor: &Actor,
        reason: &str,
    ) -> Result<AppendOutcome> {
        self.append(id, event.t, AnyEvent::Game(event.event), actor, reason)
    }

    /// Appends one event of a physical-board game.
    pub fn append_physical_event(
        &mut self,
        id: GameId,
        t: f64,
        event: PhysicalEvent,
        actor: &Actor,
        reason: &str,
    ) -> Result<AppendOutcome> {
        self.append(id, t, AnyEvent::Physical(event), actor, reason)
    }

    /// Appends an event of either kind (it must be the kind of the game).
    pub fn append(
        &mut self,
        id: GameId,
        t: f64,
        event: AnyEvent,
        actor: &Actor,
        reason: &str,
    ) -> Result<AppendOutcome> {
        self.append_expecting(id, None, t, event, actor, reason)
    }

    /// Appends an event where the writer expects it: at `expect.seq` (the game as the writer
    /// last saw it). When another desk added an event first, nothing is written and the
    /// answer is [`StoreError::Conflict`]: the writer reloads and shows the game as it is.
    /// When the writer's own earlier attempt with the same `expect.token` was committed (its
    /// confirmation lost with the connection), that event is the answer: never stored twice.
    pub fn append_expecting(
        &mut self,
        id: GameId,
        expect: Option<Expect<'_>>,
        t: f64,
        event: AnyEvent,
        actor: &Actor,
        reason: &str,
    ) -> Result<AppendOutcome> {
        if let Some(r) = self.remote() {
            return super::remote::append(&*r, id, expect, event, reason);
        }
        self.write(|tx| append_in(tx, id, expect, t, event, actor, reason))
            .map(|(mut outcome, completed)| {
                outcome.round_completed =
                    completed.map(|(round, tid)| self.completion_backup(tid, round));
                outcome
            })
    }

    /// Appends several events to one game, each where the writer expects it (as
    /// [`Store::append_expecting`]), in one transaction: all of them are stored, or none.
    /// Returns the round they completed, if any, with its backup.
    fn append_all_expecting(
        &mut self,
        id: GameId,
        events: &[(Expect<'_>, f64, AnyEvent)],
        actor: &Actor,
        reason: &str,
    ) -> Result<Option<super::events::RoundCompleted>> {
        let completed = self.write(|tx| {
            let mut completed = None;
            for &(expect, t, event) in events {
                let (_, done) = append_in(tx, id, Some(expect), t, event, actor, reason)?;
                completed = completed.or(done);
            }
            Ok(completed)
        })?;
        Ok(completed.map(|(round, tid)| self.completion_backup(tid, round)))
    }

    /// Cancels the last event still in force, with a reason (an arbiter's correction). The
    /// cancelled event stays in the database; the undo is a new event.
    pub fn undo_last_event(
        &mut self,
        id: GameId,
        t: f64,
        actor: &Actor,
        reason: &str,
    ) -> Result<u32> {
        if let Some(r) = self.remote() {
            return super::remote::undo(&*r, id, reason);
        }
        desk::reason_given(ReasonFor::Undo, reason)?;
        self.write(|tx| {
            let mut game = load_locked(tx, id)?;
            let (target, undone_t, undone) = game
                .effective()
                .last()
                .copied()
                .ok_or(GameRefusal::NothingToUndo)?;
            let seq = game.logged().next_seq();
            let undo = LogEntryKind::Undo { seq: target };
            insert_event(tx, id, seq, t.max(0.0), undo.code(), &undo.value(t), None)?;
            game.events.push(LogEntry { seq, t, kind: undo });
            audit(
                tx,
                actor,
                "undo",
                game.meta.tournament_id,
                Some(id.0),
                reason,
                &format!("cancelled event {target}: {}", undone.value(undone_t)),
            )?;
            // An undo only takes an event away: it can reopen a round, never complete one.
            settle(tx, &game, actor)?;
            Ok(target)
        })
    }

    /// Corrects the last move in force: it is cancelled by an undo and `replacement` is
    /// entered at the time the cancelled move was made, so the clocks count from the moment
    /// it was really made (pauses and resumes entered after it are kept at their times; the
    /// core's `LoggedGame::correction`). `corrected_at` is the game time now, the undo's.
    /// One transaction: the undo, the move and one audit row naming both, or nothing. With
    /// `expect`, as [`Store::append_expecting`]: refused when another desk wrote first, and
    /// answered as done when this attempt (its token) was committed already.
    #[allow(clippy::too_many_arguments)]
    pub fn correct_last_move(
        &mut self,
        id: GameId,
        expect: Option<Expect<'_>>,
        corrected_at: f64,
        replacement: AnyEvent,
        actor: &Actor,
        reason: &str,
    ) -> Result<AppendOutcome> {
        if let Some(r) = self.remote() {
            return super::remote::correct(&*r, id, expect, replacement, reason);
        }
        desk::reason_given(ReasonFor::Correction, reason)?;
        let written = self.write(|tx| {
            let mut game = load_locked(tx, id)?;
            if let Some(expect) = expect {
                if let Some(outcome) = correction_committed_before(tx, id, &game, expect)? {
                    return Ok((outcome, None));
                }
                let next = game.logged().next_seq();
                if expect.seq != next {
                    return Err(StoreError::Conflict(format!(
                        "game {id} changed at another desk: nothing was corrected; the game is \
                         shown as it now is"
                    )));
                }
            }
            desk::may_record(id, game.meta.void, game.meta.started_at.is_some())?;
            let correction = game
                .logged()
                .correction(replacement, corrected_at.max(0.0))
                .map_err(GameRefusal::Correction)?;
            let (_, t, _) = correction.cancelled;
            let applied = replacement_applied(&game, &correction, t, &replacement)?;
            let seq = replacement_seq(&correction, replacement, t);
            let completed = correct_at_desk(tx, id, &mut game, &correction, expect, actor, reason)?;
            let state = game
                .derive()
                .and_then(|g| g.ok())
                .map_or(GameState::Playing, |g| g.state());
            Ok((
                AppendOutcome {
                    seq,
                    applied,
                    state,
                    round_completed: None,
                },
                completed.zip(game.meta.tournament_id),
            ))
        })?;
        let (mut outcome, completed) = written;
        outcome.round_completed = completed.map(|(round, tid)| self.completion_backup(tid, round));
        Ok(outcome)
    }

    /// Stores (or replaces) one side's reading sheet for the adjudication, as entered so far
    /// or handed in (`complete`). The sheet is checked against the position the game stopped
    /// in; the result is decided once both sheets are handed in.
    pub fn save_reading_sheet(
        &mut self,
        id: GameId,
        side: Side,
        sheet: &Value,
        complete: bool,
        actor: &Actor,
    ) -> Result<Option<super::events::RoundCompleted>> {
        if let Some(r) = self.remote() {
            return super::remote::save_reading_sheet(&*r, id, side, sheet, complete)
                .map(|()| None);
        }
        let completed = self.write(|tx| {
            let mut game = load_locked(tx, id)?;
            let derived = game
                .derive()
                .and_then(|g| g.ok())
                .ok_or(GameRefusal::NotWaiting(id))?;
            derived
                .check_sheet(side, sheet)
                .map_err(|e| desk::sheet_refusal(id, e))?;
            tx.execute(
                "INSERT INTO adjudication_sheets (game_id, side, sheet, complete, entered_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (game_id, side) DO UPDATE SET sheet = excluded.sheet,
                     complete = excluded.complete, entered_at = excluded.entered_at",
                args![id.0, side_code(side), sheet.to_string(), complete, tx.now()],
            )?;
            game.sheets[side] = Some(SheetRow {
                sheet: sheet.clone(),
                complete,
            });
            if complete {
                audit(
                    tx,
                    actor,
                    "reading sheet handed in",
                    game.meta.tournament_id,
                    Some(id.0),
                    "",
                    &format!("{side}: {sheet}"),
                )?;
            }
            Ok(settle(tx, &game, actor)?.zip(game.meta.tournament_id))
        })?;
        Ok(completed.map(|(round, tid)| self.completion_backup(tid, round)))
    }

    /// Remembers, for the running games given, the last t at which the desk saw their
    /// clocks (one transaction for all), so a restart brings the clocks back to it.
    pub fn record_clocks_seen(&mut self, seen: &[(GameId, f64)]) -> Result<()> {
        if let Some(r) = self.remote() {
            return super::remote::clocks_seen(&*r, seen);
        }
        if seen.is_empty() {
            return Ok(());
        }
        self.write(|tx| {
            let mut stmt = tx.prepare_cached("UPDATE games SET clock_seen_t = ?1 WHERE id = ?2")?;
            for (id, t) in seen {
                stmt.execute(args![t, id.0])?;
            }
            Ok(())
        })
    }

    /// Restores the games in progress after a start: a game whose clocks were running when
    /// the desk stopped gets a pause at the last moment the desk saw its clocks and a resume
    /// now, so its clocks continue exactly from where they were and the time the desk was
    /// down is charged to nobody. A clock that had run out by then ends the game there. A
    /// game whose clocks had stopped (paused, or waiting for the thirty-move counts or for
    /// the adjudication) comes back as it was: nothing is written for it. Only the games
    /// this desk runs are restored (`stations::Keeper`): never a game `feed` plays.
    ///
    /// One game's problem never stops the others: each game that could not be restored is
    /// reported with its error, after every other game was restored.
    pub fn restore_games_in_progress(&mut self, now_ms: i64) -> Result<Restored> {
        if let Some(r) = self.remote() {
            return super::remote::restore(&*r, None, None);
        }
        let ids = self.games_in_progress()?;
        self.restore_games_as(
            &ids,
            now_ms,
            None,
            "the desk restarted: clocks stopped while it was down",
            &Actor::restore_after_restart(),
        )
    }

    /// The restore of a desk starting on an event server, where other desks may be running
    /// their games: of the games this desk runs, only those with no event written for
    /// `quiet_ms` (their desk is gone too) are restored; the others are left to the desk that
    /// keeps them.
    pub fn restore_unattended_games(&mut self, now_ms: i64, quiet_ms: i64) -> Result<Restored> {
        if let Some(r) = self.remote() {
            return super::remote::restore(&*r, None, Some(quiet_ms));
        }
        let ids = self.games_in_progress()?;
        self.restore_games_as(
            &ids,
            now_ms,
            Some(quiet_ms),
            "no desk kept the clocks: they stopped when the last desk saw them",
            &Actor::restore_after_restart(),
        )
    }

    /// Restores the given games (a desk whose connection to the server came back restores
    /// its own tables: the time it could not reach the server is charged to nobody), of
    /// those the games this desk runs (`stations::Keeper`: a station's desk its tables, the
    /// director's desk the tables no station runs and the games at no table, never a game
    /// `feed` plays); the others are left to their desk. With `quiet_ms`, a game whose last
    /// event was written less than that long ago is left alone too (its desk is there).
    pub fn restore_games(
        &mut self,
        ids: &[GameId],
        now_ms: i64,
        quiet_ms: Option<i64>,
        why: &str,
    ) -> Result<Restored> {
        if let Some(r) = self.remote() {
            return super::remote::restore(&*r, Some(ids), quiet_ms);
        }
        let actor = Actor::restore_after_reconnection();
        self.restore_games_as(ids, now_ms, quiet_ms, why, &actor)
    }

    /// Restores the given games, with `actor` (which restore this is) in the audit log.
    fn restore_games_as(
        &mut self,
        ids: &[GameId],
        now_ms: i64,
        quiet_ms: Option<i64>,
        why: &str,
        actor: &Actor,
    ) -> Result<Restored> {
        let keeper = self.keeper()?;
        self.restore_games_kept_by(&keeper, ids, now_ms, quiet_ms, why, actor)
    }

    /// Restores the given games of those `keeper` runs (the event server restores a
    /// station's games on its desk's behalf, with the station as `actor`).
    pub fn restore_games_kept_by(
        &mut self,
        keeper: &super::stations::Keeper,
        ids: &[GameId],
        now_ms: i64,
        quiet_ms: Option<i64>,
        why: &str,
        actor: &Actor,
    ) -> Result<Restored> {
        let mut report = Restored::default();
        for &id in ids {
            let runs = self
                .read(|q| {
                    q.query_row(
                        "SELECT tournament_id, table_no, token IS NOT NULL AS fed FROM games
                         WHERE id = ?1",
                        [id.0],
                        |r| {
                            Ok((
                                r.get::<Option<TournamentId>>(0)?,
                                r.get::<Option<TableNo>>(1)?,
                                r.get::<bool>(2)?,
                            ))
                        },
                    )
                    .optional()
                })
                .map(|row| {
                    row.is_some_and(|(tournament, table, fed)| {
                        keeper.runs_table(tournament, table, fed)
                    })
                });
            match runs {
                Ok(true) => {}
                Ok(false) => {
                    report.left_to_their_desk.push(id);
                    continue;
                }
                Err(e) => {
                    report.failed.push((id, e));
                    continue;
                }
            }
            match self.restore_game(id, now_ms, quiet_ms, why, actor, &mut report.completed) {
                Ok(true) => report.restored.push(id),
                Ok(false) => report.left_to_their_desk.push(id),
                Err(e) => report.failed.push((id, e)),
            }
        }
        Ok(report)
    }

    /// Restores one game in progress (see [`Store::restore_games_in_progress`]); false when
    /// another desk keeps it. A round it completes goes into `completed`.
    fn restore_game(
        &mut self,
        id: GameId,
        now_ms: i64,
        quiet_ms: Option<i64>,
        why: &str,
        actor: &Actor,
        completed: &mut Vec<super::events::RoundCompleted>,
    ) -> Result<bool> {
        let game = self.load_game(id)?;
        let derived = match game.derive() {
            None => return Ok(true), // setups still being entered: no clocks yet
            Some(derived) => derived.map_err(|e| damaged(id, e))?,
        };
        // Idle: no event written for `quiet` ms (the game's own last event, when it was
        // stored; its start before any), whoever wrote it and whatever its `t` says.
        if let (Some(quiet), Some(started)) = (quiet_ms, game.meta.started_at) {
            let last: Option<i64> = self.read(|q| {
                q.query_one(
                    "SELECT max(wall_time) FROM game_events WHERE game_id = ?1",
                    [id.0],
                    |r| r.get(0),
                )
            })?;
            if now_ms.saturating_sub(last.unwrap_or(started).max(started)) < quiet {
                return Ok(false);
            }
        }
        let mode = game.meta.mode;
        let next = game.logged().next_seq();
        let events = match derived.restart(game.meta.clock_seen_t, game.t_at(now_ms)) {
            Restart::Nothing => return Ok(true),
            Restart::End { at } => vec![(next, at, AnyEvent::end(mode))],
            // One transaction: a pause stored without its resume (the connection lost between
            // the two) would leave the game paused for good, as the next restore finds its
            // clocks stopped.
            Restart::PauseAndResume {
                pause_at,
                resume_at,
            } => vec![
                (next, pause_at, AnyEvent::pause(mode)),
                (next + 1, resume_at, AnyEvent::resume(mode)),
            ],
        };
        let tokens: Vec<String> = events
            .iter()
            .map(|(seq, _, _)| format!("restore-{id}-{seq}-{now_ms}"))
            .collect();
        // Written where this desk saw the game: if another desk wrote first, it keeps it.
        let expected: Vec<(Expect<'_>, f64, AnyEvent)> = events
            .iter()
            .zip(&tokens)
            .map(|(&(seq, t, event), token)| (Expect { seq, token }, t, event))
            .collect();
        match self.append_all_expecting(id, &expected, actor, why) {
            Ok(done) => {
                completed.extend(done);
                Ok(true)
            }
            Err(StoreError::Conflict(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The arbiter confirms the result the rules reached (audit log).
    pub fn confirm_result(&mut self, id: GameId, actor: &Actor) -> Result<()> {
        if let Some(r) = self.remote() {
            return super::remote::confirm_result(&*r, id);
        }
        self.write(|tx| {
            let game = load_locked(tx, id)?;
            let result = desk::result_to_confirm(id, game.meta.result)?;
            audit(
                tx,
                actor,
                "result confirmed",
                game.meta.tournament_id,
                Some(id.0),
                "",
                &result,
            )
        })
    }

    /// Whether the arbiter has confirmed the game's result.
    pub fn result_confirmed(&self, id: GameId) -> Result<bool> {
        if let Some(r) = self.remote() {
            return super::remote::result_confirmed(&*r, id);
        }
        let n: i64 = self.read(|q| {
            q.query_row(
                "SELECT count(*) FROM audit_log WHERE game_id = ?1 AND action = 'result confirmed'",
                [id.0],
                |r| r.get(0),
            )
        })?;
        Ok(n > 0)
    }

    /// Marks a game void (an arbiter's mistake, or exposure by nature, confirmed by the
    /// director) and creates the game that replays it: same pairing, setups to be entered
    /// again. The void game's record is kept.
    pub fn void_and_replay(&mut self, id: GameId, reason: &str, actor: &Actor) -> Result<GameId> {
        desk::reason_given(ReasonFor::Void, reason)?;
        self.write(|tx| {
            let game = load_locked(tx, id)?;
            desk::may_void(id, game.meta.void)?;
            tx.execute(
                "UPDATE games SET void = 1, void_reason = ?1 WHERE id = ?2",
                args![reason, id.0],
            )?;
            let m = &game.meta;
            let new = NewGame {
                tournament_id: m.tournament_id,
                round: m.round,
                table_no: m.table_no,
                players: m.players,
                mode: m.mode,
                first: m.first,
                ratings: m.ratings,
                rules: m.rules,
                replaces: Some(id),
            };
            let replay = insert_game(tx, &new, &Map::new(), actor)?;
            if let (Some(tid), Some(round), Some(table)) = (m.tournament_id, m.round, m.table_no) {
                // The board is pending again: a complete round reopens.
                if super::team_rows::is_team_event(tx, tid)? {
                    super::team_tables::desk_result(
                        tx,
                        tid,
                        (None, round, table),
                        m.players.map(|p| (p.white, p.black)),
                        (GameResult::Pending, reason),
                        actor,
                    )?;
                } else {
                    let command = Command::DeskVoided {
                        round,
                        table,
                        players: m.players.map(|p| (p.white, p.black)),
                        reason: reason.to_string(),
                    };
                    super::events::desk_command(tx, tid, &command, actor)?;
                }
            }
            audit(
                tx,
                actor,
                "game void, replayed",
                m.tournament_id,
                Some(id.0),
                reason,
                &format!("replayed as game {replay}"),
            )?;
            Ok(replay)
        })
    }

    /// Imports a game record in one transaction: all of it or nothing. The record must be
    /// well formed (it is replayed first). An imported game is an archive, not a live table:
    /// it has no start time, so it is never restored as a game in progress.
    pub fn import_record(&mut self, record: &Record, actor: &Actor) -> Result<GameId> {
        ggdesk_core::record::replay(record).map_err(rejected)?;
        self.write(|tx| {
            let new = NewGame {
                first: record.first,
                ratings: record.ratings,
                rules: record.rules,
                ..NewGame::standalone()
            };
            let mut extra = record.extra.clone();
            // The readings as written are kept whole (an empty object still means "both
            // abstain"); each side's sheet also goes where the desk enters sheets.
            if let Some(readings) = &record.readings {
                extra.insert("readings".into(), readings.clone());
            }
            let sheets = match &record.readings {
                Some(Value::Object(obj)) => BySide::from_fn(|s| obj.get(s.name()).filter(|v| !v.is_null()).cloned()),
                _ => BySide::default(),
            };
            let id = insert_game(tx, &new, &extra, actor)?;
            tx.execute(
                "UPDATE games SET setup_white = ?1, setup_black = ?2, origin = 'import' WHERE id = ?3",
                args![
                    setup_value(&record.setup.white).to_string(),
                    setup_value(&record.setup.black).to_string(),
                    id.0
                ],
            )?;
            for (seq, e) in record.events.iter().enumerate() {
                let event = AnyEvent::Game(e.event);
                insert_event(tx, id, seq as u32, e.t, event.code(), &event.value(e.t), None)?;
            }
            for side in Side::BOTH {
                if let Some(sheet) = &sheets[side] {
                    tx.execute(
                        "INSERT INTO adjudication_sheets (game_id, side, sheet, complete, entered_at) VALUES (?1, ?2, ?3, 1, ?4)",
                        args![id.0, side_code(side), sheet.to_string(), tx.now()],
                    )?;
                }
            }
            let game = load_locked(tx, id)?;
            settle(tx, &game, actor)?;
            audit(tx, actor, "game imported", None, Some(id.0), "", &format!("{} events", record.events.len()))?;
            Ok(id)
        })
    }

    /// Imports a physical-board game record in one transaction.
    pub fn import_physical(&mut self, record: &PhysicalRecord, actor: &Actor) -> Result<GameId> {
        record.judge().map_err(rejected)?;
        self.write(|tx| {
            let new = NewGame {
                mode: GameMode::Physical,
                first: record.first,
                ratings: record.ratings,
                rules: record.rules,
                ..NewGame::standalone()
            };
            let id = insert_game(tx, &new, &record.extra, actor)?;
            tx.execute("UPDATE games SET origin = 'import' WHERE id = ?1", [id.0])?;
            for (seq, (t, e)) in record.events.iter().enumerate() {
                let event = AnyEvent::Physical(*e);
                insert_event(tx, id, seq as u32, *t, event.code(), &event.value(*t), None)?;
            }
            if let Some(readings) = &record.readings {
                for side in Side::BOTH {
                    tx.execute(
                        "INSERT INTO adjudication_sheets (game_id, side, sheet, complete, entered_at) VALUES (?1, ?2, ?3, 1, ?4)",
                        args![id.0, side_code(side), physical_record::sheet_value(&readings[side]).to_string(), tx.now()],
                    )?;
                }
            }
            let game = load_locked(tx, id)?;
            settle(tx, &game, actor)?;
            audit(tx, actor, "game imported", None, Some(id.0), "", &format!("{} events, physical board", record.events.len()))?;
            Ok(id)
        })
    }

    /// The game's record for export (a game the desk arbitrated).
    pub fn export_record(&self, id: GameId) -> Result<Record> {
        Ok(self
            .load_game(id)?
            .record()
            .ok_or(GameRefusal::NoRecordYet(id))?)
    }

    /// The game's export file, whichever kind of game it is.
    pub fn export_game(&self, id: GameId) -> Result<Value> {
        if let Some(r) = self.remote() {
            return super::remote::export_game(&*r, id);
        }
        Ok(self
            .load_game(id)?
            .export_value()
            .ok_or(GameRefusal::NoRecordYet(id))?)
    }
}

/// Checks `event` against the game replayed so far, returning what it does.
pub(crate) fn apply_checked(
    game: &StoredGame,
    t: f64,
    event: &AnyEvent,
) -> Result<(Applied, GameState)> {
    desk::may_record(game.meta.id, game.meta.void, game.meta.started_at.is_some())?;
    Ok(game
        .logged()
        .check_event(t, event)
        .map_err(|e| GameRefusal::Event(e.to_string()))?)
}

/// What a correction already committed under `expect`'s token (its confirmation lost)
/// answers: the game as it now is. None when this attempt is new.
fn correction_committed_before(
    tx: &mut Tx<'_>,
    id: GameId,
    game: &StoredGame,
    expect: Expect<'_>,
) -> Result<Option<AppendOutcome>> {
    let done: Option<u32> = tx.query_opt(
        "SELECT seq FROM game_events WHERE game_id = ?1 AND token = ?2",
        args![id.0, expect.token],
        |r| r.get(0),
    )?;
    let Some(seq) = done else {
        return Ok(None);
    };
    let derived = game.derive().and_then(|g| g.ok());
    let state = derived.map_or(GameState::Playing, |g| g.state());
    let applied = Applied {
        challenge: None,
        ended: state != GameState::Playing,
    };
    Ok(Some(AppendOutcome {
        seq,
        applied,
        state,
        round_completed: None,
    }))
}

/// What the replacement move does, checked on the game as it stood before the cancelled
/// move was made (the correction's undos added), at the cancelled move's time `t`.
fn replacement_applied(
    game: &StoredGame,
    correction: &Correction,
    t: f64,
    replacement: &AnyEvent,
) -> Result<Applied> {
    let mut before = game.clone();
    before.events.extend(
        correction
            .entries
            .iter()
            .take_while(|e| matches!(e.kind, LogEntryKind::Undo { .. })),
    );
    let (applied, _) = apply_checked(&before, t, replacement)?;
    Ok(applied)
}

/// The sequence number the replacement move takes among the correction's entries (the
/// first entry's when none is the replacement at the cancelled move's time `t`).
fn replacement_seq(correction: &Correction, replacement: AnyEvent, t: f64) -> u32 {
    let first_new = correction.entries.first().map_or(0, |e| e.seq);
    correction
        .entries
        .iter()
        .rev()
        .find(|e| e.kind.event() == Some(replacement) && e.t == t)
        .map_or(first_new, |e| e.seq)
}

/// Writes a correction at the desk: its entries (the attempt's token with the first), one
/// "move corrected" audit row naming both moves, and the result the game now has. Adds the
/// entries to `game`; returns the round it completed.
fn correct_at_desk(
    tx: &mut Tx<'_>,
    id: GameId,
    game: &mut StoredGame,
    correction: &Correction,
    expect: Option<Expect<'_>>,
    actor: &Actor,
    reason: &str,
) -> Result<Option<RoundNo>> {
    let first_new = correction.entries.first().map_or(0, |e| e.seq);
    for entry in &correction.entries {
        let token = (entry.seq == first_new)
            .then(|| expect.map(|e| e.token))
            .flatten();
        insert_event(
            tx,
            id,
            entry.seq,
            entry.t,
            entry.kind.code(),
            &entry.kind.value(entry.t),
            token,
        )?;
        game.events.push(*entry);
    }
    audit(
        tx,
        actor,
        "move corrected",
        game.meta.tournament_id,
        Some(id.0),
        reason,
        &correction.value().to_string(),
    )?;
    settle(tx, game, actor)
}

/// Appends one event inside the caller's transaction (see [`Store::append_expecting`]): what
/// it did, and the round it completed with its tournament (backed up by the caller after the
/// commit).
fn append_in(
    tx: &mut Tx<'_>,
    id: GameId,
    expect: Option<Expect<'_>>,
    t: f64,
    event: AnyEvent,
    actor: &Actor,
    reason: &str,
) -> Result<(AppendOutcome, Option<(RoundNo, TournamentId)>)> {
    let mut game = load_locked(tx, id)?;
    if let Some(expect) = expect {
        if let Some(outcome) = event_committed_before(tx, id, &game, expect, t, &event)? {
            return Ok((outcome, None));
        }
        refuse_if_changed(&game, id, expect)?;
    }
    let (applied, state) = apply_checked(&game, t, &event)?;
    let seq = game.logged().next_seq();
    let payload = event.value(t);
    let completed = {
        log_overstep(tx, actor, &game, id, t)?;
        insert_event(
            tx,
            id,
            seq,
            t,
            event.code(),
            &payload,
            expect.map(|e| e.token),
        )?;
        game.events.push(LogEntry {
            seq,
            t,
            kind: event.into(),
        });
        audit(
            tx,
            actor,
            event.code(),
            game.meta.tournament_id,
            Some(id.0),
            reason,
            &payload.to_string(),
        )?;
        settle(tx, &game, actor)?
    };
    Ok((
        AppendOutcome {
            seq,
            applied,
            state,
            round_completed: None,
        },
        completed.zip(game.meta.tournament_id),
    ))
}

/// What an event already committed under `expect`'s token (its confirmation lost)
/// answers: what it did the first time. None when this attempt is new; refused when the
/// token is that of another game's event.
fn event_committed_before(
    tx: &mut Tx<'_>,
    id: GameId,
    game: &StoredGame,
    expect: Expect<'_>,
    t: f64,
    event: &AnyEvent,
) -> Result<Option<AppendOutcome>> {
    let stored: Option<(i64, u32)> = tx.query_opt(
        "SELECT game_id, seq FROM game_events WHERE token = ?1",
        args![expect.token],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let Some((game_id, seq)) = stored else {
        return Ok(None);
    };
    if game_id != id.0 {
        return Err(rejected(format!(
            "token {} belongs to an event of game {game_id}",
            expect.token
        )));
    }
    // Our own event, committed before: answer as the first time.
    let mut before = game.clone();
    before.events.retain(|e| e.seq < seq);
    let (applied, state) = apply_checked(&before, t, event)?;
    Ok(Some(AppendOutcome {
        seq,
        applied,
        state,
        round_completed: None,
    }))
}

/// Refuses an event when another desk wrote to the game since the writer last saw it.
fn refuse_if_changed(game: &StoredGame, id: GameId, expect: Expect<'_>) -> Result<()> {
    let next = game.logged().next_seq();
    if expect.seq != next {
        let added = next.saturating_sub(expect.seq);
        return Err(StoreError::Conflict(format!(
            "game {id} changed at another desk ({added} event{} added since): \
             nothing was saved; the game is shown as it now is",
            if added == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

/// Logs a move limit passed since the game's last event, before the event at `t` that
/// records it (the clocks count it; nobody entered it).
fn log_overstep(
    tx: &mut Tx<'_>,
    actor: &Actor,
    game: &StoredGame,
    id: GameId,
    t: f64,
) -> Result<()> {
    if let Some(overstep) = game.logged().overstep_before(t) {
        let details = overstep.value().to_string();
        audit(
            tx,
            actor,
            "overstep",
            game.meta.tournament_id,
            Some(id.0),
            "",
            &details,
        )?;
    }
    Ok(())
}
