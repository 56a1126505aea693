//! What the arbiter desk keeps about a table besides its events (migration 2): the moment
//! its setup timer and its reading timer started, so that reopening the table or
//! restarting the desk does not restart them; the arbiter's ruling when setup time ran
//! out; the lots drawn for the first move; and practice tables removed from the desk.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::{Optional, Tx, args};
use super::error::{Result, StoreError};
use super::game_rows::GameId;
use ggdesk_core::game::desk::{self, GameRefusal, ReasonFor};
use ggdesk_core::tournament::TournamentId;

use ggdesk_core::rules::{GameState, Side};

/// A table's timers and lots, as stored (Unix ms).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableTimers {
    /// When the setup timer started (the table was first opened for its setups).
    pub setup_started_at: Option<i64>,
    /// When the arbiter recorded a ruling after setup time ran out.
    pub setup_overrun_at: Option<i64>,
    /// When the reading timer of the adjudication started.
    pub reading_started_at: Option<i64>,
    /// When lots decided who moves first.
    pub lots_drawn_at: Option<i64>,
}

/// The columns of a game's row that hold its timers ([`TableTimers::read`]).
pub(crate) const TIMER_COLUMNS: &str =
    "setup_started_at, setup_overrun_at, reading_started_at, lots_drawn_at";

impl TableTimers {
    /// The timers from a row that holds [`TIMER_COLUMNS`].
    pub(crate) fn read(r: &super::db::Row) -> Result<TableTimers> {
        Ok(TableTimers {
            setup_started_at: r.get("setup_started_at")?,
            setup_overrun_at: r.get("setup_overrun_at")?,
            reading_started_at: r.get("reading_started_at")?,
            lots_drawn_at: r.get("lots_drawn_at")?,
        })
    }
}

/// The facts these functions check: (tournament, started, void, round).
type Row = (Option<TournamentId>, bool, bool, Option<u32>);

/// The facts of a game about to be changed. Its row stays locked until the transaction ends,
/// as every writer of a game locks it (`games::load_locked`): on PostgreSQL (READ
/// COMMITTED) a start committed by another desk meanwhile is then seen here, instead of
/// lots drawn for a game that has just started overwriting who moves first.
fn game_row(conn: &mut Tx<'_>, id: GameId) -> Result<Row> {
    conn.lock("games", "id = ?1", [id.0])?;
    conn.query_row(
        "SELECT tournament_id, started_at IS NOT NULL, void, round FROM games WHERE id = ?1",
        [id.0],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound(format!("game {id}")))
}

impl Store {
    /// A table's timers and lots.
    pub fn table_timers(&self, id: GameId) -> Result<TableTimers> {
        if let Some(r) = self.remote() {
            return super::remote::table_timers(&*r, id);
        }
        self.read(|q| {
            q.query_row(
                &format!("SELECT {TIMER_COLUMNS} FROM games WHERE id = ?1"),
                [id.0],
                TableTimers::read,
            )
            .optional()
        })?
        .ok_or_else(|| StoreError::NotFound(format!("game {id}")))
    }

    /// Starts a table's setup timer at `now_ms`, once: a timer already running keeps its
    /// start. Returns the start. Refused once the game has started.
    pub fn start_setup_timer(&mut self, id: GameId, now_ms: i64, actor: &Actor) -> Result<i64> {
        if let Some(r) = self.remote() {
            return super::remote::start_timer(&*r, id, "setup-timer");
        }
        self.write(|tx| {
            let (tid, started, void, _) = game_row(tx, id)?;
            let current: Option<i64> = tx.query_row(
                "SELECT setup_started_at FROM games WHERE id = ?1",
                [id.0],
                |r| r.get(0),
            )?;
            if let Some(at) = current {
                return Ok(at);
            }
            desk::may_start_setup_timer(id, started, void)?;
            tx.execute(
                "UPDATE games SET setup_started_at = ?1 WHERE id = ?2",
                args![now_ms, id.0],
            )?;
            audit(tx, actor, "setup timer started", tid, Some(id.0), "", "")?;
            Ok(now_ms)
        })
    }

    /// Records the arbiter's ruling after setup time ran out (who was late, what was
    /// decided), once, with a reason. The setups may then be completed and the clocks
    /// started.
    pub fn record_setup_overrun(
        &mut self,
        id: GameId,
        now_ms: i64,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        if let Some(r) = self.remote() {
            return super::remote::record_setup_overrun(&*r, id, reason);
        }
        let reason = reason.trim();
        desk::reason_given(ReasonFor::SetupRuling, reason)?;
        self.write(|tx| {
            let (tid, started, _, _) = game_row(tx, id)?;
            let (start, limit_over): (Option<i64>, Option<i64>) = tx.query_row(
                "SELECT setup_started_at, setup_overrun_at FROM games WHERE id = ?1",
                [id.0],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let start = desk::may_rule_on_setup(id, started, limit_over.is_some(), start)?;
            tx.execute(
                "UPDATE games SET setup_overrun_at = ?1 WHERE id = ?2",
                args![now_ms, id.0],
            )?;
            audit(
                tx,
                actor,
                "setup time exceeded",
                tid,
                Some(id.0),
                reason,
                &format!(
                    "ruling {} s after the setup timer started",
                    (now_ms - start) / 1000
                ),
            )
        })
    }

    /// Starts the reading timer of a game waiting for its adjudication at `at_ms` (the
    /// moment game time ran out, or the moment an imported record's adjudication was
    /// opened), once. Returns the start.
    pub fn start_reading_timer(&mut self, id: GameId, at_ms: i64, actor: &Actor) -> Result<i64> {
        if let Some(r) = self.remote() {
            return super::remote::start_timer(&*r, id, "reading-timer");
        }
        self.write(|tx| {
            let (tid, _, _, _) = game_row(tx, id)?;
            let current: Option<i64> = tx.query_row(
                "SELECT reading_started_at FROM games WHERE id = ?1",
                [id.0],
                |r| r.get(0),
            )?;
            if let Some(at) = current {
                return Ok(at);
            }
            // Judged on the game as it stands under the lock: an event another desk
            // committed meanwhile (the game resumed) is seen.
            let game = super::game_rows::load_locked(tx, id)?;
            let waiting = matches!(
                game.derive().and_then(|g| g.ok()).map(|g| g.state()),
                Some(GameState::AdjudicationPending { .. })
            );
            if !waiting {
                return Err(StoreError::from(GameRefusal::NotWaiting(id)));
            }
            tx.execute(
                "UPDATE games SET reading_started_at = ?1 WHERE id = ?2",
                args![at_ms, id.0],
            )?;
            audit(tx, actor, "reading timer started", tid, Some(id.0), "", "")?;
            Ok(at_ms)
        })
    }

    /// Records the lots drawn for the first move: `first` moves first. Once per game,
    /// before the clocks start.
    pub fn draw_lots(&mut self, id: GameId, first: Side, now_ms: i64, actor: &Actor) -> Result<()> {
        if let Some(r) = self.remote() {
            return super::remote::draw_lots(&*r, id);
        }
        self.write(|tx| {
            let (tid, started, void, _) = game_row(tx, id)?;
            let drawn: Option<i64> = tx.query_row(
                "SELECT lots_drawn_at FROM games WHERE id = ?1",
                [id.0],
                |r| r.get(0),
            )?;
            desk::may_draw_lots(id, started, void, drawn.is_some())?;
            tx.execute(
                "UPDATE games SET first = ?1, lots_drawn_at = ?2 WHERE id = ?3",
                args![first.name(), now_ms, id.0],
            )?;
            audit(
                tx,
                actor,
                "lots drawn",
                tid,
                Some(id.0),
                "",
                &format!("{first} moves first"),
            )
        })
    }

    /// Removes a practice table from the desk (its record is kept, marked void, as every
    /// game is). Refused for a game of a round and for an imported record.
    pub fn remove_practice_table(&mut self, id: GameId, reason: &str, actor: &Actor) -> Result<()> {
        self.write(|tx| {
            let (tid, _, void, round) = game_row(tx, id)?;
            let imported: bool = tx.query_row(
                "SELECT origin = 'import' FROM games WHERE id = ?1",
                [id.0],
                |r| r.get(0),
            )?;
            desk::may_remove_practice(id, round.is_some(), imported, void)?;
            let why = if reason.trim().is_empty() {
                "practice table removed".to_string()
            } else {
                format!("practice table removed: {}", reason.trim())
            };
            tx.execute(
                "UPDATE games SET void = 1, void_reason = ?1 WHERE id = ?2",
                args![why, id.0],
            )?;
            audit(
                tx,
                actor,
                "practice table removed",
                tid,
                Some(id.0),
                reason.trim(),
                "",
            )
        })
    }
}
