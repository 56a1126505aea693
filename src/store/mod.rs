//! The durable store: the only module that touches SQLite.
//!
//! Every director or arbiter action is one transaction, committed before the caller reports
//! it done, with a row in the append-only audit log. Games are event-sourced: their board,
//! clocks and result are derived by replaying the stored events through the rules engine.

mod backup;
mod details;
mod games;
mod pairings;
mod players;
mod registrations;
mod round_rules;
mod rounds;
mod tables;
mod tournaments;

pub use backup::{BACKUPS_KEPT, backup_dir};
pub use games::{
    AnyEvent, AppendOutcome, Derived, GameId, GameMeta, GameMode, NewGame, SheetRow, StoredEvent,
    StoredEventKind, StoredGame,
};
pub use pairings::{Absentee, BackupNote, ResultSaved, RoundCompleted};
pub use players::{MAX_RATING, PlayerInput, RegistryId, RegistryPlayer, rows_message};
pub use registrations::{PenaltyRow, Registration};
pub use round_rules::NextRound;
pub use rounds::{Board, BoardPlayer, BoardStatus, RoundBoard, RoundInfo, RoundState, RoundView};
pub use tables::TableTimers;
pub use tournaments::{TournamentSetup, TournamentSummary};

use rusqlite::{Connection, OpenFlags, OptionalExtension, Transaction, TransactionBehavior};
use std::path::{Path, PathBuf};

/// The migrations, in order; migration N brings `user_version` from N−1 to N. Never edit one
/// that has been released: add a new one.
const MIGRATIONS: &[&str] = &[
    include_str!("../../schema.sql"),
    include_str!("../../migrations/002_desk_timers.sql"),
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Marks a SQLite file as a ggdesk database (`PRAGMA application_id`): "GGDK".
pub const APPLICATION_ID: i64 = 0x4747_444b;

/// Why the store refused or failed. Refusals leave the database untouched.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path} is not a ggdesk database (not a valid SQLite file: {detail})")]
    NotADatabase { path: String, detail: String },
    #[error("{path} is a SQLite database of another program, not a ggdesk database")]
    Foreign { path: String },
    #[error(
        "{path} was written by a newer ggdesk (schema version {found}; this ggdesk knows up to {supported}): \
         open it with the newer ggdesk"
    )]
    Newer {
        path: String,
        found: i64,
        supported: i64,
    },
    #[error("{path} is damaged: {detail}")]
    Corrupt { path: String, detail: String },
    #[error("{0} not found")]
    NotFound(String),
    /// The input does not make sense (an illegal move, a bad record): nothing was written.
    #[error("{0}")]
    Rejected(String),
    #[error("database error: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("{0}")]
    Io(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Who made a change, for the audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor(pub String);

impl Actor {
    pub fn director() -> Actor {
        Actor("director".into())
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
}

/// The current time in Unix milliseconds. The store is the shell: it may read the clock for
/// the audit log; the rules never do.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// An open ggdesk database.
pub struct Store {
    conn: Connection,
    path: Option<PathBuf>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

impl Store {
    /// `ggdesk.sqlite3` in the user's data directory (`~/.local/share/ggdesk/` on Linux).
    pub fn default_path() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "ggdesk")
            .map(|dirs| dirs.data_dir().join("ggdesk.sqlite3"))
    }

    /// Opens (or creates) the database at `path`, migrating it to this build's schema. A file
    /// that is not a ggdesk database, is damaged, or was written by a newer ggdesk is refused
    /// before anything is written to it.
    pub fn open(path: &Path) -> Result<Store> {
        let shown = path.display().to_string();
        if path.is_dir() {
            return Err(StoreError::Io(format!(
                "{shown} is a folder, not a database file"
            )));
        }
        if path.exists() {
            inspect_read_only(path)?;
        } else if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| StoreError::Io(format!("cannot create {}: {e}", parent.display())))?;
        }
        let conn = Connection::open(path).map_err(|e| StoreError::NotADatabase {
            path: shown.clone(),
            detail: e.to_string(),
        })?;
        let mut store = Store {
            conn,
            path: Some(path.to_path_buf()),
        };
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    /// A fresh database in memory, for tests.
    pub fn open_in_memory() -> Result<Store> {
        let mut store = Store {
            conn: Connection::open_in_memory()?,
            path: None,
        };
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    fn configure(&mut self) -> Result<()> {
        self.conn.pragma_update(None, "foreign_keys", "ON")?;
        // WAL keeps readers and the writer apart; FULL syncs the WAL on every commit, so an
        // acknowledged event survives a power cut.
        let _mode: String = self
            .conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        self.conn.pragma_update(None, "synchronous", "FULL")?;
        self.conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Ok(())
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    fn migrate(&mut self) -> Result<()> {
        let path = self.shown_path();
        let version = self.schema_version()?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::Newer {
                path,
                found: version,
                supported: SCHEMA_VERSION,
            });
        }
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Exclusive)?;
        for migration in &MIGRATIONS[version as usize..] {
            tx.execute_batch(migration)?;
        }
        tx.pragma_update(None, "application_id", APPLICATION_ID)?;
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.commit()?;
        Ok(())
    }

    fn shown_path(&self) -> String {
        self.path
            .as_ref()
            .map_or_else(|| ":memory:".to_string(), |p| p.display().to_string())
    }

    /// Runs `f` in one immediate transaction: all of it is committed, or none of it.
    pub(crate) fn write<T>(&mut self, f: impl FnOnce(&Transaction<'_>) -> Result<T>) -> Result<T> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// `PRAGMA integrity_check`: "ok" or the problems found.
    pub fn integrity_check(&self) -> Result<String> {
        let mut stmt = self.conn.prepare("PRAGMA integrity_check")?;
        let rows: Vec<String> = stmt
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rows.join("; "))
    }

    /// The audit log, newest last, optionally for one tournament or game.
    pub fn audit_log(&self, filter: AuditFilter) -> Result<Vec<AuditEntry>> {
        let (sql, id) = match filter {
            AuditFilter::All => (
                "SELECT at, actor, action, tournament_id, game_id, reason, details FROM audit_log ORDER BY id",
                None,
            ),
            AuditFilter::Tournament(t) => (
                "SELECT at, actor, action, tournament_id, game_id, reason, details FROM audit_log WHERE tournament_id = ?1 ORDER BY id",
                Some(t),
            ),
            AuditFilter::Game(g) => (
                "SELECT at, actor, action, tournament_id, game_id, reason, details FROM audit_log WHERE game_id = ?1 ORDER BY id",
                Some(g),
            ),
        };
        let mut stmt = self.conn.prepare(sql)?;
        let map = |r: &rusqlite::Row<'_>| {
            Ok(AuditEntry {
                at: r.get(0)?,
                actor: r.get(1)?,
                action: r.get(2)?,
                tournament_id: r.get(3)?,
                game_id: r.get(4)?,
                reason: r.get(5)?,
                details: r.get(6)?,
            })
        };
        let rows = match id {
            Some(id) => stmt
                .query_map([id], map)?
                .collect::<rusqlite::Result<Vec<_>>>()?,
            None => stmt
                .query_map([], map)?
                .collect::<rusqlite::Result<Vec<_>>>()?,
        };
        Ok(rows)
    }
}

/// Which part of the audit log to read.
#[derive(Debug, Clone, Copy)]
pub enum AuditFilter {
    All,
    Tournament(i64),
    Game(i64),
}

/// One line of the audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub at: i64,
    pub actor: String,
    pub action: String,
    pub tournament_id: Option<i64>,
    pub game_id: Option<i64>,
    pub reason: String,
    pub details: String,
}

/// Appends one line to the audit log inside the caller's transaction.
pub(crate) fn audit(
    tx: &Transaction<'_>,
    actor: &Actor,
    action: &str,
    tournament_id: Option<i64>,
    game_id: Option<i64>,
    reason: &str,
    details: &str,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO audit_log (at, actor, action, tournament_id, game_id, reason, details)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(rusqlite::params![
        now_ms(),
        actor.0,
        action,
        tournament_id,
        game_id,
        reason,
        details
    ])?;
    Ok(())
}

/// Looks at an existing file without writing to it: it must be a SQLite database, intact, a
/// ggdesk one (or empty), and not newer than this build.
fn inspect_read_only(path: &Path) -> Result<()> {
    let shown = path.display().to_string();
    let not_db = |e: rusqlite::Error| StoreError::NotADatabase {
        path: shown.clone(),
        detail: e.to_string(),
    };
    if std::fs::metadata(path).map(|m| m.len()).unwrap_or(0) == 0 {
        return Ok(()); // SQLite treats an empty file as an empty database.
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(not_db)?;
    let app_id: i64 = conn
        .pragma_query_value(None, "application_id", |r| r.get(0))
        .map_err(not_db)?;
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(not_db)?;
    let tables: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
        .map_err(not_db)?;
    if app_id != APPLICATION_ID && (app_id != 0 || tables > 0) {
        return Err(StoreError::Foreign { path: shown });
    }
    if version > SCHEMA_VERSION {
        return Err(StoreError::Newer {
            path: shown,
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    let check: Option<String> = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .optional()
        .map_err(|e| StoreError::Corrupt {
            path: shown.clone(),
            detail: e.to_string(),
        })?;
    match check.as_deref() {
        Some("ok") => Ok(()),
        other => Err(StoreError::Corrupt {
            path: shown,
            detail: other
                .unwrap_or("integrity check gave no answer")
                .to_string(),
        }),
    }
}
