//! The live tables of the arbiter desk, without any drawing: each table's stored game and
//! the game derived from it, the time of a new event, clocks judged every frame, and the
//! events that end a game by itself (a clock that ran out) written as soon as it happens.
//!
//! This is shell code (it writes through the store), kept apart from egui so it can be
//! tested on its own and shared by every page that shows a table.

use crate::store::{
    Actor, AnyEvent, AnyGame, BackupNote, Expect, GameId, GameMode, Keeper, Store, StoreError,
    StoredGame,
};
use ggdesk_core::clock::Time;
use ggdesk_core::rules::{Applied, Challenge, Event, Game, GameState, Outcome, PlayerView, Side};
use ggdesk_core::tournament::RoundNo;
use std::collections::BTreeMap;

/// Where a table stands, as the overview shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Setups being entered (or not yet).
    Setup,
    /// Both setups in; the clocks have not started.
    Ready,
    Playing,
    Paused,
    /// A Flag waits on the enemy back rank for the opponent's one turn.
    FlagPending(Side),
    /// Game time ran out: reading sheets are awaited (`GameState::AdjudicationPending`).
    AdjudicationPending,
    /// The thirty-move rule stopped a game on a physical board: the arbiter's counts of the
    /// pieces across the midpoint are awaited (`GameState::ThirtyCountPending`).
    ThirtyCountPending,
    Finished(Outcome),
    Void,
}

impl Phase {
    /// A game still being played at its table: running, paused, a Flag waiting, or the
    /// arbiter's thirty-move counts awaited.
    pub fn is_live(self) -> bool {
        matches!(
            self,
            Phase::Playing | Phase::Paused | Phase::FlagPending(_) | Phase::ThirtyCountPending
        )
    }
}

/// What the desk announces after an event: only which pieces left the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Announcement {
    pub text: String,
}

impl Announcement {
    /// The words for a challenge, naming squares and sides, never ranks.
    pub fn of_challenge(c: &Challenge, square: ggdesk_core::rules::Square) -> Announcement {
        let (attacker_out, defender_out) = c.removed();
        let a = c.attacker.side;
        let d = c.defender.side;
        let text = match (attacker_out, defender_out) {
            (true, true) => format!("Challenge on {square}: both pieces left the board"),
            (true, false) => format!("Challenge on {square}: {a}'s attacking piece left the board"),
            (false, true) => format!("Challenge on {square}: {d}'s piece left the board"),
            (false, false) => format!("Challenge on {square}"),
        };
        Announcement { text }
    }
}

/// One table: its stored game and the game derived from its events.
#[derive(Debug, Clone)]
pub struct LiveTable {
    pub stored: StoredGame,
    /// The game replayed up to its last event; `None` before both setups are in.
    derived: Option<AnyGame>,
    /// A replay error (a damaged database); shown instead of the board.
    pub error: Option<String>,
    pub last_announcement: Option<Announcement>,
    /// Whether the arbiter has confirmed the result.
    pub confirmed: bool,
    /// The round the last event completed (its last result), with its backup.
    pub round_completed: Option<crate::store::RoundCompleted>,
}

impl LiveTable {
    pub fn load(store: &Store, id: GameId) -> Result<LiveTable, StoreError> {
        let stored = store.load_game(id)?;
        let mut table = LiveTable {
            stored,
            derived: None,
            error: None,
            last_announcement: None,
            confirmed: store.result_confirmed(id)?,
            round_completed: None,
        };
        table.derive();
        Ok(table)
    }

    fn derive(&mut self) {
        // Setups being entered are not a game yet, nor an error.
        let setups_legal = self.mode() == GameMode::Physical
            || self
                .stored
                .setups()
                .is_some_and(|s| ggdesk_core::rules::Position::from_setups(&s).is_ok());
        if !setups_legal && !self.started() {
            self.derived = None;
            self.error = None;
            return;
        }
        match self.stored.derive() {
            None => {
                self.derived = None;
                self.error = None;
            }
            Some(Ok(game)) => {
                self.derived = Some(game);
                self.error = None;
            }
            Some(Err(e)) => {
                self.derived = None;
                self.error = Some(e.to_string());
            }
        }
    }

    pub fn id(&self) -> GameId {
        self.stored.meta.id
    }

    pub fn mode(&self) -> GameMode {
        self.stored.meta.mode
    }

    /// Whether the game is under way (or was played elsewhere and imported).
    pub fn started(&self) -> bool {
        self.stored.meta.started_at.is_some() || self.stored.meta.imported
    }

    /// The arbitrated game as of its last event (ranks inside: arbiter eyes only).
    pub fn game(&self) -> Option<&Game> {
        self.derived.as_ref().and_then(AnyGame::as_arbitrated)
    }

    /// The game of either kind as of its last event.
    pub fn derived(&self) -> Option<&AnyGame> {
        self.derived.as_ref()
    }

    /// The game of either kind with its clocks judged up to `now_ms`.
    pub fn derived_at(&self, now_ms: i64) -> Option<AnyGame> {
        let mut game = self.derived.clone()?;
        if self.started() {
            let t = self.time_at(now_ms);
            // Judging forward from the last event cannot fail; a clock set back is ignored.
            let _ = game.judge_clocks(t);
        }
        Some(game)
    }

    /// The arbitrated game with its clocks judged up to `now_ms`.
    pub fn game_at(&self, now_ms: i64) -> Option<Game> {
        match self.derived_at(now_ms)? {
            AnyGame::Arbitrated(g) => Some(g),
            AnyGame::Physical(_) => None,
        }
    }

    /// What the players may see now.
    pub fn player_view(&self, now_ms: i64) -> Option<PlayerView> {
        self.game_at(now_ms).map(|g| PlayerView::of(&g))
    }

    /// The game clock time of `now_ms`, never before the last event.
    pub fn time_at(&self, now_ms: i64) -> Time {
        let last = self.derived.as_ref().map_or(Time(0), AnyGame::last_time);
        let t = self
            .stored
            .t_at(now_ms)
            .and_then(Time::from_secs_f64)
            .unwrap_or(last);
        t.max(last)
    }

    /// `t` in seconds (millisecond precision) for an event entered at `now_ms`.
    pub fn event_t(&self, now_ms: i64) -> f64 {
        let t = self.time_at(now_ms);
        // Whole milliseconds, as a wall clock gives them, but never before the last event.
        let ms = t.as_ms() + i64::from(Time::from_ns(t.as_ms() * 1_000_000) < t);
        ms as f64 / 1000.0
    }

    pub fn phase(&self, now_ms: i64) -> Phase {
        if self.stored.meta.void {
            return Phase::Void;
        }
        let Some(game) = self.derived_at(now_ms) else {
            return Phase::Setup;
        };
        if !self.started() {
            return Phase::Ready;
        }
        match game.state() {
            GameState::Finished { outcome, .. } => Phase::Finished(outcome),
            GameState::AdjudicationPending { .. } => match self.stored.status() {
                Some((_, Some(outcome))) => Phase::Finished(outcome),
                _ => Phase::AdjudicationPending,
            },
            GameState::ThirtyCountPending { .. } => Phase::ThirtyCountPending,
            GameState::Playing if game.clock().is_paused() => Phase::Paused,
            GameState::Playing => match game.as_arbitrated().and_then(Game::pending_flag) {
                Some(side) => Phase::FlagPending(side),
                None => Phase::Playing,
            },
        }
    }

    /// Reloads the table from the store after a write.
    pub fn reload(&mut self, store: &Store) -> Result<(), StoreError> {
        self.stored = store.load_game(self.id())?;
        self.confirmed = store.result_confirmed(self.id())?;
        self.derive();
        Ok(())
    }

    /// Writes one arbiter event at `now_ms` (one transaction) and refreshes the table. The
    /// rules refuse an illegal event with the reason; nothing is written then.
    pub fn submit(
        &mut self,
        store: &mut Store,
        event: Event,
        now_ms: i64,
        actor: &Actor,
        reason: &str,
    ) -> Result<Applied, StoreError> {
        self.submit_any(store, AnyEvent::Game(event), now_ms, actor, reason)
    }

    /// Writes an event of either kind (the kind of this table's game).
    pub fn submit_any(
        &mut self,
        store: &mut Store,
        event: AnyEvent,
        now_ms: i64,
        actor: &Actor,
        reason: &str,
    ) -> Result<Applied, StoreError> {
        let t = self.event_t(now_ms);
        // Where this desk saw the game: another desk that wrote first wins, and this one is
        // told and shows the game as it is now.
        let seq = self.stored.logged().next_seq();
        let token = crate::store::new_token();
        let written = store.append_expecting(
            self.id(),
            Some(Expect { seq, token: &token }),
            t,
            event,
            actor,
            reason,
        );
        let outcome = match written {
            Ok(outcome) => outcome,
            Err(e @ StoreError::Conflict(_)) => {
                self.reload(store)?;
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        self.round_completed = outcome.round_completed.clone();
        self.reload(store)?;
        self.last_announcement = match (event, outcome.applied.challenge) {
            (AnyEvent::Game(Event::Move { mv, .. }), Some(c)) => {
                Some(Announcement::of_challenge(&c, mv.to))
            }
            _ => None,
        };
        Ok(outcome.applied)
    }

    /// Replaces the last move in force by `replacement` at the time it was made (one
    /// transaction: an undo and the move, see [`Store::correct_last_move`]), where this desk
    /// saw the game: another desk that wrote first wins, and this one shows the game as it
    /// now is.
    pub fn correct(
        &mut self,
        store: &mut Store,
        replacement: AnyEvent,
        now_ms: i64,
        actor: &Actor,
        reason: &str,
    ) -> Result<Applied, StoreError> {
        let t = self.event_t(now_ms);
        let seq = self.stored.logged().next_seq();
        let token = crate::store::new_token();
        let written = store.correct_last_move(
            self.id(),
            Some(Expect { seq, token: &token }),
            t,
            replacement,
            actor,
            reason,
        );
        let outcome = match written {
            Ok(outcome) => outcome,
            Err(e @ StoreError::Conflict(_)) => {
                self.reload(store)?;
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        self.round_completed = outcome.round_completed.clone();
        self.reload(store)?;
        self.last_announcement = match (replacement, outcome.applied.challenge) {
            (AnyEvent::Game(Event::Move { mv, .. }), Some(c)) => {
                Some(Announcement::of_challenge(&c, mv.to))
            }
            _ => None,
        };
        Ok(outcome.applied)
    }

    /// The last move in force, if it can be corrected (only pauses and resumes came after
    /// it): its sequence number, its time and the move.
    pub fn correctable_move(&self) -> Option<(u32, f64, AnyEvent)> {
        let effective = self.stored.effective();
        let k = effective.iter().rposition(|(_, _, e)| {
            matches!(
                e,
                AnyEvent::Game(Event::Move { .. })
                    | AnyEvent::Physical(ggdesk_core::rules::PhysicalEvent::Move { .. })
            )
        })?;
        let after_only_clocks = effective[k + 1..].iter().all(|(_, _, e)| {
            *e == AnyEvent::pause(self.mode()) || *e == AnyEvent::resume(self.mode())
        });
        after_only_clocks.then_some(effective[k])
    }

    /// The thinking time each side has used on its move clock since `since` (seconds since
    /// the start) until `now_ms`, pauses excluded, in nanoseconds.
    pub fn used_since(&self, since: f64, now_ms: i64) -> Option<ggdesk_core::rules::BySide<i64>> {
        self.stored
            .logged()
            .used_between(since, self.time_at(now_ms))
    }

    /// Cancels the last event with a reason (an arbiter's correction).
    pub fn undo(
        &mut self,
        store: &mut Store,
        now_ms: i64,
        actor: &Actor,
        reason: &str,
    ) -> Result<(), StoreError> {
        let t = self.event_t(now_ms);
        store.undo_last_event(self.id(), t, actor, reason)?;
        self.last_announcement = None;
        self.reload(store)
    }
}

/// All the tables the desk follows, keyed by game.
#[derive(Debug, Default)]
pub struct Tables {
    pub tables: BTreeMap<GameId, LiveTable>,
    last_heartbeat_ms: i64,
}

/// Something that happened by itself during a tick.
#[derive(Debug, Clone, PartialEq)]
pub struct TickNote {
    pub game: GameId,
    pub text: String,
    /// Something failed (shown as an error, not as news).
    pub failed: bool,
}

/// News that came with a backup (a round complete, a round published), in the words of
/// every notice that gives it: the news with how the backup went, and whether that is an
/// error. A failed backup is never shown as good news (what was done stands all the same).
pub fn backup_news(news: &str, backup: &BackupNote) -> (String, bool) {
    (
        format!("{news}; {}", backup.describe()),
        matches!(backup, BackupNote::Failed(_)),
    )
}

/// A round become complete, however its last result came in (a clock run out in the tick,
/// a result at a table or on the Rounds page, the round completed by hand or on pairing the
/// next), with its backup: see [`backup_news`].
pub fn round_complete_news(round: RoundNo, backup: &BackupNote) -> (String, bool) {
    backup_news(
        &format!("Round {round} is complete: its last result is in"),
        backup,
    )
}

impl Tables {
    /// Makes sure a game is loaded, returning it.
    pub fn ensure(&mut self, store: &Store, id: GameId) -> Result<&mut LiveTable, StoreError> {
        match self.tables.entry(id) {
            std::collections::btree_map::Entry::Occupied(e) => Ok(e.into_mut()),
            std::collections::btree_map::Entry::Vacant(e) => {
                Ok(e.insert(LiveTable::load(store, id)?))
            }
        }
    }

    /// Judges the clocks, at `now_ms`, of every live table this desk runs (`keeper`: a
    /// table another desk runs, or a game `feed` plays, is that writer's alone). A clock
    /// that ran out ends its game: the `end` is written at once by `actor` (the desk by
    /// itself: the rules decided; the arbiter only confirms). Once a second, the moment the
    /// clocks were seen is stored for the restart after a crash.
    pub fn tick(
        &mut self,
        store: &mut Store,
        now_ms: i64,
        keeper: &Keeper,
        actor: &Actor,
    ) -> Vec<TickNote> {
        let mut notes = Vec::new();
        let mut seen = Vec::new();
        for table in self.tables.values_mut() {
            if !table.started() || table.stored.meta.void || !keeper.runs(&table.stored.meta) {
                continue;
            }
            if !table.derived().is_some_and(AnyGame::clocks_running) {
                continue;
            }
            let Some(now) = table.derived_at(now_ms) else {
                continue;
            };
            if now.is_over() {
                let id = table.id();
                let end = AnyEvent::end(table.mode());
                match table.submit_any(store, end, now_ms, actor, "a clock ran out") {
                    Ok(_) => {
                        let text = match now.state() {
                            GameState::Finished { outcome, .. } => format!(
                                "Game {id}: {} — {}",
                                outcome.reason().describe(),
                                outcome
                                    .winner()
                                    .map_or("draw".to_string(), |w| format!("{w} wins"))
                            ),
                            _ => format!("Game {id}: game time is up — adjudication"),
                        };
                        notes.push(TickNote {
                            game: id,
                            text,
                            failed: false,
                        });
                        if let Some(c) = &table.round_completed {
                            let (text, failed) = round_complete_news(c.round, &c.backup);
                            notes.push(TickNote {
                                game: id,
                                text,
                                failed,
                            });
                        }
                    }
                    // Another desk recorded it first: the table now shows its end.
                    Err(StoreError::Conflict(_)) => {}
                    // Not connected: the desk says so on every page, and the end is recorded
                    // by the first tick after the connection is back.
                    Err(e) if e.is_disconnected() => {}
                    Err(e) => notes.push(TickNote {
                        game: id,
                        text: format!("Game {id}: could not record the end: {e}"),
                        failed: true,
                    }),
                }
            } else {
                seen.push((table.id(), table.event_t(now_ms)));
            }
        }
        if now_ms - self.last_heartbeat_ms >= 1000 && !seen.is_empty() {
            match store.record_clocks_seen(&seen) {
                // Not connected: said on every page already; the next heartbeat stores them.
                Err(e) if e.is_disconnected() => {}
                Err(e) => notes.push(TickNote {
                    game: seen[0].0,
                    text: format!("could not store the clocks: {e}"),
                    failed: true,
                }),
                Ok(()) => {}
            }
            self.last_heartbeat_ms = now_ms;
        }
        notes
    }
}
