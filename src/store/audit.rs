//! The audit log: who did what, when and why, one line for every change a director or an
//! arbiter makes, written in the change's own transaction. Append-only.

use super::conn::Store;
use super::db::{self, Tx};
use super::error::{Context, Result};
use ggdesk_core::tournament::TournamentId;

/// Who made a change, for the audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor(pub String);

/// The desk that is no arbiter station, as the audit log names it. The director's changes
/// have this one name, made at the desk or from the command line.
pub const DIRECTOR_DESK: &str = "director's desk";

/// How lines written before issue 31 name the director's desk: the audit log page shows
/// them as [`DIRECTOR_DESK`].
pub const DIRECTOR_BEFORE: &str = "director";

impl Actor {
    /// The director: [`DIRECTOR_DESK`].
    pub fn director() -> Actor {
        Actor(DIRECTOR_DESK.into())
    }
    pub fn arbiter(table: Option<i64>) -> Actor {
        match table {
            Some(t) => Actor(format!("arbiter (table {t})")),
            None => Actor("arbiter".into()),
        }
    }
    pub fn system() -> Actor {
        Actor("ggdesk".into())
    }
    /// The restore of the games in progress when a desk starts again.
    pub fn restore_after_restart() -> Actor {
        Actor("restore after restart".into())
    }
    /// The restore of a desk's tables when its connection to the server came back.
    pub fn restore_after_reconnection() -> Actor {
        Actor("restore after reconnection".into())
    }
}

/// Which part of the audit log to read.
#[derive(Debug, Clone, Copy)]
pub enum AuditFilter {
    All,
    Tournament(TournamentId),
    Game(i64),
    /// The lines numbered `id` and after (the log is append-only: a reader that has the
    /// lines before reads only the tail).
    From(i64),
}

/// One line of the audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    /// Its number in the log: increasing, though on a server a line may commit after a
    /// higher-numbered one.
    pub id: i64,
    pub at: i64,
    pub actor: String,
    pub action: String,
    pub tournament_id: Option<TournamentId>,
    pub game_id: Option<i64>,
    pub reason: String,
    pub details: String,
}

/// Appends one line to the audit log inside the caller's transaction, at the transaction's
/// time.
pub(crate) fn audit(
    tx: &mut Tx<'_>,
    actor: &Actor,
    action: &str,
    tournament_id: Option<TournamentId>,
    game_id: Option<i64>,
    reason: &str,
    details: &str,
) -> Result<()> {
    let now = tx.now();
    tx.execute(
        "INSERT INTO audit_log (at, actor, action, tournament_id, game_id, reason, details)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        db::args![
            now,
            actor.0.as_str(),
            action,
            tournament_id,
            game_id,
            reason,
            details
        ],
    )?;
    Ok(())
}

impl Store {
    /// The audit log, newest last, optionally for one tournament or game.
    pub fn audit_log(&self, filter: AuditFilter) -> Result<Vec<AuditEntry>> {
        const COLUMNS: &str =
            "SELECT id, at, actor, action, tournament_id, game_id, reason, details FROM audit_log";
        let (sql, args) = match filter {
            AuditFilter::All => (format!("{COLUMNS} ORDER BY id"), vec![]),
            AuditFilter::Tournament(t) => (
                format!("{COLUMNS} WHERE tournament_id = ?1 ORDER BY id"),
                vec![db::Value::Int(t.0)],
            ),
            AuditFilter::Game(g) => (
                format!("{COLUMNS} WHERE game_id = ?1 ORDER BY id"),
                vec![db::Value::Int(g)],
            ),
            AuditFilter::From(id) => (
                format!("{COLUMNS} WHERE id >= ?1 ORDER BY id"),
                vec![db::Value::Int(id)],
            ),
        };
        self.read(|q| {
            q.query_map(&sql, &args[..], |r| {
                let id: i64 = r.get("id")?;
                (|| {
                    Ok(AuditEntry {
                        id,
                        at: r.get("at")?,
                        actor: r.get("actor")?,
                        action: r.get("action")?,
                        tournament_id: r.get("tournament_id")?,
                        game_id: r.get("game_id")?,
                        reason: r.get("reason")?,
                        details: r.get("details")?,
                    })
                })()
                .at("audit_log", format!("row {id}"))
            })
        })
    }
}
