//! What only the SQLite engine has: opening a file, refusing one that is not ours (read-only,
//! before anything is written), the pragmas that make a commit durable, and migrations by
//! `PRAGMA user_version`.

use super::error::{Result, StoreError};

/// The schema version this build writes, on either engine: migration N of SQLite and
/// migration N of PostgreSQL bring the same tables to the same version.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Marks a SQLite file as a ggdesk database (`PRAGMA application_id`): "GGDK".
pub const APPLICATION_ID: i64 = 0x4747_444b;

use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use std::path::Path;

/// The migrations, in order; migration N brings `user_version` from N−1 to N. Never edit one
/// that has been released: add a new one (and its PostgreSQL twin in `pg.rs`).
pub(crate) const MIGRATIONS: &[&str] = &[
    include_str!("../../schema.sql"),
    include_str!("../../migrations/002-event-tokens.sql"),
    include_str!("../../migrations/003-desk-timers.sql"),
    include_str!("../../migrations/004-station-functions.sql"),
    include_str!("../../migrations/005-ratings.sql"),
    include_str!("../../migrations/006-stages.sql"),
    include_str!("../../migrations/007-station-audit.sql"),
    include_str!("../../migrations/008-station-api.sql"),
    include_str!("../../migrations/009-standby-addresses.sql"),
    include_str!("../../migrations/010-teams.sql"),
    include_str!("../../migrations/011-no-station-logins.sql"),
    include_str!("../../migrations/012-public-teams.sql"),
];

/// Opens (or creates) the database file at `path` and migrates it.
pub(crate) fn open(path: &Path) -> Result<Connection> {
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
    let mut conn = Connection::open(path).map_err(|e| StoreError::NotADatabase {
        path: shown.clone(),
        detail: e.to_string(),
    })?;
    // An upgrade runs in the journal mode the file has, before the switch to WAL: an upgrade
    // that fails leaves the file as it was, byte for byte.
    pragmas(&conn)?;
    migrate(&mut conn, &shown)?;
    configure(&conn, true)?;
    Ok(conn)
}

/// Opens an existing database for reading only; refuses a missing, foreign, damaged,
/// newer, empty or unmigrated file without writing to it.
pub(crate) fn open_read_only(path: &Path) -> Result<Connection> {
    let shown = path.display().to_string();
    if !path.is_file() {
        return Err(StoreError::NotFound(format!("database {shown}")));
    }
    inspect_read_only(path)?;
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| StoreError::NotADatabase {
        path: shown.clone(),
        detail: e.to_string(),
    })?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.pragma_update(None, "query_only", "ON")?;
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    match version {
        SCHEMA_VERSION => Ok(conn),
        0 => Err(StoreError::Rejected(format!(
            "{shown} holds no ggdesk data yet: open it with the desk first"
        ))),
        found if found > SCHEMA_VERSION => Err(StoreError::Newer {
            path: shown,
            found,
            supported: SCHEMA_VERSION,
        }),
        found => Err(StoreError::Rejected(format!(
            "{shown} has the older schema version {found}: open it once with the desk to \
             bring it to version {SCHEMA_VERSION}"
        ))),
    }
}

/// A fresh database in memory (tests).
pub(crate) fn open_in_memory() -> Result<Connection> {
    let mut conn = Connection::open_in_memory()?;
    pragmas(&conn)?;
    configure(&conn, false)?;
    migrate(&mut conn, ":memory:")?;
    Ok(conn)
}

/// Foreign keys, FULL syncs and the busy wait: set on every connection, before any upgrade.
fn pragmas(conn: &Connection) -> Result<()> {
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(())
}

/// The journal switched to WAL, and the settings of every connection read back: a connection that did not take them
/// is refused rather than used with weaker guarantees.
fn configure(conn: &Connection, file: bool) -> Result<()> {
    // WAL keeps readers and the writer apart; FULL (set by `pragmas`) syncs the WAL on
    // every commit, so an acknowledged event survives a power cut.
    let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
    let taken = settings(conn)?;
    // An in-memory database has no journal file: it reports "memory".
    let wanted = SqliteSettings {
        journal_mode: if file { "wal" } else { "memory" }.to_string(),
        synchronous: 2,
        foreign_keys: true,
    };
    if !mode.eq_ignore_ascii_case(&wanted.journal_mode) || taken != wanted {
        return Err(StoreError::Database(format!(
            "the database did not take its settings (journal {}, synchronous {}, foreign keys {}): \
             refusing to write with weaker guarantees",
            taken.journal_mode, taken.synchronous, taken.foreign_keys
        )));
    }
    Ok(())
}

/// The durability settings in force on a SQLite connection, as the connection reports them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SqliteSettings {
    /// `PRAGMA journal_mode`, lower case: `wal` for a file, `memory` in memory.
    pub journal_mode: String,
    /// `PRAGMA synchronous`: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
    pub synchronous: i64,
    /// `PRAGMA foreign_keys`.
    pub foreign_keys: bool,
}

/// Reads the durability settings back from a connection.
pub(crate) fn settings(conn: &Connection) -> Result<SqliteSettings> {
    let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0))?;
    let sync: i64 = conn.pragma_query_value(None, "synchronous", |r| r.get(0))?;
    let fk: i64 = conn.pragma_query_value(None, "foreign_keys", |r| r.get(0))?;
    Ok(SqliteSettings {
        journal_mode: mode.to_ascii_lowercase(),
        synchronous: sync,
        foreign_keys: fk == 1,
    })
}

fn migrate(conn: &mut Connection, shown: &str) -> Result<()> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::Newer {
            path: shown.to_string(),
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    if version == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Exclusive)?;
    let from = usize::try_from(version).unwrap_or(0);
    for (k, migration) in MIGRATIONS.iter().enumerate().skip(from) {
        tx.execute_batch(migration).map_err(|e| {
            if version > 0 {
                super::error::upgrade_failed(shown, version, k, &e.to_string())
            } else {
                StoreError::from(e)
            }
        })?;
    }
    tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(())
}

/// `PRAGMA integrity_check`: "ok" or the problems found.
pub(crate) fn integrity_check(conn: &Connection) -> Result<String> {
    let mut stmt = conn.prepare("PRAGMA integrity_check")?;
    let rows: Vec<String> = stmt
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows.join("; "))
}

/// Looks at an existing file without writing to it: it must be a SQLite database, intact, a
/// ggdesk one (or empty), and not newer than this build. Nothing beside the file is created
/// or changed either: a read-only connection would otherwise create a `-wal` and a `-shm`
/// for a database in WAL mode, or rebuild the `-shm` index of one a crash left.
fn inspect_read_only(path: &Path) -> Result<()> {
    let shown = path.display().to_string();
    let beside = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        std::path::PathBuf::from(name)
    };
    let wal = beside("-wal");
    // A WAL's header is 32 bytes: a shorter one holds no frame (a writer killed after it
    // started a new WAL leaves just the header), and SQLite cannot read a header-only WAL
    // without writing an index for it.
    if std::fs::metadata(&wal).map_or(true, |m| m.len() <= 32) {
        // No WAL, or no frame in it: the file holds the whole database.
        return inspect_file(path, &shown, "immutable=1").map_err(Look::refusal);
    }
    if beside("-shm").exists() {
        // The WAL and its index: SQLite reads the index without writing to it, or (when no
        // other connection has it open) reads the WAL into its own memory.
        match inspect_file(path, &shown, "readonly_shm=1") {
            Ok(()) => return Ok(()),
            Err(Look::Refused(e)) => return Err(e),
            // A WAL it cannot read that way (a damaged header): look at a copy.
            Err(Look::NotInPlace(_)) => {}
        }
    }
    // A WAL without its index: SQLite could read it only by building one beside it, so look
    // at a private copy of the database and its WAL instead.
    let dir = std::env::temp_dir().join(format!(
        "ggdesk-inspect-{}-{}",
        std::process::id(),
        super::time::now_ms()
    ));
    let copy = dir.join("db.sqlite3");
    let copied = std::fs::create_dir(&dir)
        .and_then(|()| std::fs::copy(path, &copy))
        .and_then(|_| std::fs::copy(&wal, dir.join("db.sqlite3-wal")));
    let result = match copied {
        Ok(_) => inspect_file(&copy, &shown, "").map_err(Look::refusal),
        Err(e) => Err(StoreError::Io(format!(
            "cannot look at {shown} and its WAL in {}: {e}",
            dir.display()
        ))),
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Why a look at a file found no answer.
enum Look {
    /// The file is refused.
    Refused(StoreError),
    /// SQLite cannot read the file as it lies without writing beside it.
    NotInPlace(StoreError),
}

impl Look {
    fn refusal(self) -> StoreError {
        match self {
            Look::Refused(e) | Look::NotInPlace(e) => e,
        }
    }
}

/// [`inspect_read_only`] on `path` opened read-only with the URI parameters `params`; its
/// refusals name the database as `shown`.
fn inspect_file(path: &Path, shown: &str, params: &str) -> std::result::Result<(), Look> {
    let shown = shown.to_string();
    // A file SQLite reads as a database whose pages are bad is damaged; anything else it
    // cannot read is not a database, unless SQLite could not read it in place.
    let not_db = |e: rusqlite::Error| {
        let not_a_database = StoreError::NotADatabase {
            path: shown.clone(),
            detail: e.to_string(),
        };
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseCorrupt) => Look::Refused(StoreError::Corrupt {
                path: shown.clone(),
                detail: e.to_string(),
            }),
            Some(
                rusqlite::ErrorCode::FileLockingProtocolFailed | rusqlite::ErrorCode::ReadOnly,
            ) => Look::NotInPlace(not_a_database),
            _ => Look::Refused(not_a_database),
        }
    };
    if std::fs::metadata(path).map(|m| m.len()).unwrap_or(0) == 0 {
        return Ok(()); // SQLite treats an empty file as an empty database.
    }
    let conn = Connection::open_with_flags(
        read_only_uri(path, params),
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
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
        return Err(Look::Refused(StoreError::Foreign { path: shown }));
    }
    if version > SCHEMA_VERSION {
        return Err(Look::Refused(StoreError::Newer {
            path: shown,
            found: version,
            supported: SCHEMA_VERSION,
        }));
    }
    let check: Option<String> = conn
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .optional()
        .map_err(|e| {
            Look::Refused(StoreError::Corrupt {
                path: shown.clone(),
                detail: e.to_string(),
            })
        })?;
    match check.as_deref() {
        Some("ok") => Ok(()),
        other => Err(Look::Refused(StoreError::Corrupt {
            path: shown,
            detail: other
                .unwrap_or("integrity check gave no answer")
                .to_string(),
        })),
    }
}

/// `file:PATH?mode=ro&PARAMS`, the path percent-encoded where a URI needs it.
fn read_only_uri(path: &Path, params: &str) -> String {
    let mut uri = String::from("file:");
    for &b in path.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?mode=ro");
    if !params.is_empty() {
        uri.push('&');
        uri.push_str(params);
    }
    uri
}
