//! The durable store: the only module that touches a database.
//!
//! Two engines behind one API: SQLite (a file, the embedded default) and PostgreSQL (an
//! event server shared by the director's desk and the arbiter stations). Every statement is
//! written once ([`db`]); only opening, migrating and what one engine alone has (SQLite's
//! backup API, PostgreSQL's roles and notifications) differ.
//!
//! Every director or arbiter action is one transaction, committed before the caller reports
//! it done, with a row in the append-only audit log. Games are event-sourced: their board,
//! clocks and result are derived by replaying the stored events through the rules engine.
//! The store never reads the wall clock on its own: the time it writes comes from the clock
//! its owner gives it ([`Store::set_clock`]), read once per transaction.

mod backup;
mod copy;
pub(crate) mod db;
mod details;
mod games;
mod listen;
mod pairings;
mod pg;
mod players;
mod public;
mod ratings;
mod registrations;
mod replication;
mod round_rules;
mod rounds;
mod seen;
mod sqlite;
mod stages;
mod stations;
mod tables;
mod tournaments;

pub use backup::{BACKUPS_KEPT, backup_dir};
pub use copy::CopyCounts;
pub use db::Engine;
pub use games::{AppendOutcome, Expect, GameId, GameMeta, NewGame, Restored, StoredGame};
/// The kind of an entry of a game's log: the core's `LogEntryKind`, under the name the
/// desk's pages use.
pub use ggdesk_core::game::LogEntryKind as StoredEventKind;
/// The game model is the core's; these names keep the store's call sites as they were.
pub use ggdesk_core::game::{AnyEvent, AnyGame, GameMode, LogEntry, SheetRow};
pub use listen::{Change, Changes};
pub use pairings::{Absentee, BackupNote, Paired, ResultSaved, RoundCompleted};
pub use players::{MAX_RATING, PlayerInput, RegistryId, RegistryPlayer, rows_message};
pub use public::{PublicRatingEvent, PublicRatingRow};
pub use ratings::{EventRatingRow, RatingEvent, RatingHistoryRow, RatingRow};
pub use registrations::{PenaltyRow, Registration};
pub use replication::{ServerState, StandbyState, server_status};
pub use round_rules::NextRound;
pub use rounds::{BoardPlayer, BoardStatus, RoundBoard, RoundInfo, RoundState, RoundView};
pub use sqlite::SqliteSettings;
pub use stages::{RoundPlace, series_words, stage_line};
pub use stations::{
    DIRECTOR_ROOM, Keeper, STATION_CONNECTIONS, Station, StationLogin, parse_tables, tables_text,
};
pub use tables::TableTimers;
pub use tournaments::{TournamentSetup, TournamentSummary};

use db::Tx;
use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The schema version this build writes, on either engine: migration N of SQLite and
/// migration N of PostgreSQL bring the same tables to the same version.
pub const SCHEMA_VERSION: i64 = sqlite::MIGRATIONS.len() as i64;

/// Marks a SQLite file as a ggdesk database (`PRAGMA application_id`): "GGDK".
pub const APPLICATION_ID: i64 = 0x4747_444b;

/// Why the store refused or failed. Refusals leave the database untouched.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path} is not a ggdesk database (not a valid SQLite file: {detail})")]
    NotADatabase { path: String, detail: String },
    #[error("{path} is a database of another program, not a ggdesk database")]
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
    /// A row holds what this program never writes (an unknown code, a value of the wrong
    /// kind): refused rather than read as a default.
    #[error("the database is damaged: table {table}, {row}: {detail}")]
    Damaged {
        table: &'static str,
        row: String,
        detail: String,
    },
    /// A column could not be decoded; [`Context::at`] turns it into [`StoreError::Damaged`].
    #[error("{0}")]
    Decode(String),
    #[error("{0} not found")]
    NotFound(String),
    /// The input does not make sense (an illegal move, a bad record): nothing was written.
    #[error("{0}")]
    Rejected(String),
    /// Another desk changed the same thing first: nothing was written; reload and look.
    #[error("{0}")]
    Conflict(String),
    /// The database refused the change for this login (an arbiter station doing what only the
    /// director may): nothing was written.
    #[error("not allowed for this login: {0}")]
    Denied(String),
    /// The server cannot be reached. Nothing is being saved; a change whose confirmation was
    /// lost is looked for again when the connection is back.
    #[error("not connected: nothing is being saved ({0})")]
    Disconnected(String),
    #[error("database error: {0}")]
    Database(String),
    /// A statement the store expected to return a row returned none.
    #[error("database error: a row the store expected is missing")]
    NoRow,
    #[error("{0}")]
    Io(String),
}

impl StoreError {
    /// The server could not be reached, or the connection broke.
    pub fn is_disconnected(&self) -> bool {
        matches!(self, StoreError::Disconnected(_))
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

/// A request the database refuses as it stands (what is wrong is said in `why`): nothing
/// was written.
pub(crate) fn rejected(why: impl std::fmt::Display) -> StoreError {
    StoreError::Rejected(why.to_string())
}

/// A migration of an existing database that failed (its transaction is rolled back): says
/// from which version to which step, and that the database is as it was.
pub(crate) fn upgrade_failed(shown: &str, found: i64, step: usize, why: &str) -> StoreError {
    StoreError::Database(format!(
        "{shown} has schema version {found} but could not be brought to version {} \
         ({why}); nothing was changed. Was it written by another build of ggdesk?",
        step + 1
    ))
}

/// Adds the table and row to a decoding error.
pub(crate) trait Context<T> {
    fn at(self, table: &'static str, row: impl std::fmt::Display) -> Result<T>;
}

impl<T> Context<T> for Result<T> {
    fn at(self, table: &'static str, row: impl std::fmt::Display) -> Result<T> {
        self.map_err(|e| match e {
            StoreError::Decode(detail) => StoreError::Damaged {
                table,
                row: row.to_string(),
                detail,
            },
            other => other,
        })
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Set in the environment (to anything), the store says on standard error when a tournament
/// import's transaction has begun and when it is about to commit, one line each
/// (`ggdesk-trace: import transaction begun` / `... committing`): the kill test watches for
/// them to know where its kills land. Set to [`TRACE_PAUSE`], the process also stops after
/// each line until it reads a line on its standard input, so that the test kills it at that
/// very point. Unset, nothing is printed and nothing waits.
pub const TRACE_ENV: &str = "GGDESK_TRACE_TRANSACTIONS";

/// The value of [`TRACE_ENV`] that makes each traced point wait for a line on standard input.
pub const TRACE_PAUSE: &str = "pause";

/// One line on standard error when [`TRACE_ENV`] is set (and the wait it asks for).
pub(crate) fn trace(what: &str) {
    let Some(mode) = std::env::var_os(TRACE_ENV) else {
        return;
    };
    eprintln!("ggdesk-trace: {what}");
    if mode == TRACE_PAUSE {
        // Whatever comes (a line, the end of the input, an error) lets it go on.
        let _ = std::io::stdin().read_line(&mut String::new());
    }
}

/// A tournament's id in the database.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct TournamentId(pub i64);

impl std::fmt::Display for TournamentId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl db::ToValue for TournamentId {
    fn to_value(&self) -> db::Value {
        db::Value::Int(self.0)
    }
}

impl db::FromValue for TournamentId {
    const EXPECTED: &'static str = "a tournament id";
    fn from_value(v: &db::Value) -> Option<TournamentId> {
        i64::from_value(v).map(TournamentId)
    }
}

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
    /// The restore of the games in progress when a desk starts again.
    pub fn restore_after_restart() -> Actor {
        Actor("restore after restart".into())
    }
    /// The restore of a desk's tables when its connection to the server came back.
    pub fn restore_after_reconnection() -> Actor {
        Actor("restore after reconnection".into())
    }
}

/// The current time in Unix milliseconds, from the system clock: the default clock of a
/// store, and the desk's. Only the shell calls it.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// A token no other writer will ever use, for an append that may have to be sent again
/// ([`Expect`]): 128 bits from the operating system's randomness.
pub fn new_token() -> String {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::from_os_rng();
    format!("{:032x}", rng.random::<u128>())
}

/// Where the store's time comes from: Unix milliseconds.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// A database address as `--db` takes it: a SQLite file path, or a PostgreSQL URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Address {
    File(PathBuf),
    /// `postgres://...` or `postgresql://...` in libpq's syntax (several hosts allowed).
    Server(String),
}

impl Address {
    /// Reads `--db`: a URL starting `postgres://` or `postgresql://` names a server; anything
    /// else is a file path.
    pub fn parse(text: &str) -> Address {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Address::Server(text.to_string())
        } else {
            Address::File(PathBuf::from(text))
        }
    }

    /// The address as it may be shown: a URL without its password.
    pub fn shown(&self) -> String {
        match self {
            Address::File(p) => p.display().to_string(),
            Address::Server(url) => pg::without_password(url),
        }
    }
}

impl From<&Path> for Address {
    fn from(path: &Path) -> Address {
        Address::File(path.to_path_buf())
    }
}

impl From<PathBuf> for Address {
    fn from(path: PathBuf) -> Address {
        Address::File(path)
    }
}

impl From<&PathBuf> for Address {
    fn from(path: &PathBuf) -> Address {
        Address::File(path.clone())
    }
}

impl std::fmt::Display for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown())
    }
}

enum Conn {
    Sqlite(rusqlite::Connection),
    Postgres(Box<pg::Pg>),
}

/// An open ggdesk database.
pub struct Store {
    conn: RefCell<Conn>,
    /// The file of a SQLite database (`None` in memory or on a server).
    path: Option<PathBuf>,
    address: Option<Address>,
    clock: Clock,
    /// Rounds as this store last showed them (two directors editing one round).
    seen: RefCell<seen::Seen>,
    /// A read snapshot is open around several reads ([`Store::read_consistent`]).
    snapshot: Cell<bool>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("address", &self.address)
            .finish()
    }
}

impl Store {
    /// A store on an open connection.
    fn with(conn: Conn, path: Option<PathBuf>, address: Option<Address>) -> Store {
        Store {
            conn: RefCell::new(conn),
            path,
            address,
            clock: Arc::new(now_ms),
            seen: RefCell::default(),
            snapshot: Cell::new(false),
        }
    }

    /// `ggdesk.sqlite3` in the user's data directory (`~/.local/share/ggdesk/` on Linux).
    pub fn default_path() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "ggdesk")
            .map(|dirs| dirs.data_dir().join("ggdesk.sqlite3"))
    }

    /// Opens the database at an address: a SQLite file (created if missing) or a PostgreSQL
    /// server (its schema created on an empty database).
    pub fn connect(address: &Address) -> Result<Store> {
        match address {
            Address::File(path) => Store::open(path),
            Address::Server(url) => {
                let pg = pg::Pg::connect(url)?;
                Ok(Store::with(
                    Conn::Postgres(Box::new(pg)),
                    None,
                    Some(address.clone()),
                ))
            }
        }
    }

    /// Opens (or creates) the SQLite database at `path`, migrating it to this build's schema.
    /// A file that is not a ggdesk database, is damaged, or was written by a newer ggdesk is
    /// refused before anything is written to it.
    pub fn open(path: &Path) -> Result<Store> {
        let conn = sqlite::open(path)?;
        Ok(Store::with(
            Conn::Sqlite(conn),
            Some(path.to_path_buf()),
            Some(Address::File(path.to_path_buf())),
        ))
    }

    /// Opens an existing SQLite database for reading only (`SQLITE_OPEN_READ_ONLY`, and
    /// `query_only` on top): every write through this store fails. The public pages read
    /// through it. A missing file, a file that is not a ggdesk database, a damaged one, or one
    /// of another schema version (a newer ggdesk's, or an older one that only a writable open
    /// can migrate) is refused, and nothing is written to it. In WAL mode SQLite may create the
    /// `-wal` and `-shm` files a reader needs, as any reader does.
    pub fn open_read_only(path: &Path) -> Result<Store> {
        let conn = sqlite::open_read_only(path)?;
        Ok(Store::with(
            Conn::Sqlite(conn),
            Some(path.to_path_buf()),
            Some(Address::File(path.to_path_buf())),
        ))
    }

    /// Opens a database for reading only, whatever its engine: a SQLite file read-only
    /// ([`Store::open_read_only`]), or a server connection whose session reads as the
    /// database's public role in read-only transactions. Nothing is created or migrated.
    pub fn connect_read_only(address: &Address) -> Result<Store> {
        match address {
            Address::File(path) => Store::open_read_only(path),
            Address::Server(url) => Ok(Store::with(
                Conn::Postgres(Box::new(pg::Pg::connect_read_only(url)?)),
                None,
                Some(address.clone()),
            )),
        }
    }

    /// A fresh SQLite database in memory, for tests.
    pub fn open_in_memory() -> Result<Store> {
        Ok(Store::with(
            Conn::Sqlite(sqlite::open_in_memory()?),
            None,
            None,
        ))
    }

    /// Replaces the clock the store writes its times with (audit rows, creation times, event
    /// wall times): the desk passes its own, tests a manual one.
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// Writes the time `now_ms` from now on, until told another (the desk tells it once per
    /// frame: every write of a frame carries the frame's time).
    pub fn set_now(&mut self, now_ms: i64) {
        self.set_clock(Arc::new(move || now_ms));
    }

    /// The time the store writes now (Unix ms), from its clock.
    pub fn now(&self) -> i64 {
        (self.clock)()
    }

    /// The file of a SQLite database.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Where the database is, as `--db` names it (`None` in memory).
    pub fn address(&self) -> Option<&Address> {
        self.address.as_ref()
    }

    pub fn engine(&self) -> Engine {
        match &*self.conn.borrow() {
            Conn::Sqlite(_) => Engine::Sqlite,
            Conn::Postgres(_) => Engine::Postgres,
        }
    }

    /// The durability settings of the SQLite connection, read back from it (`None` on a
    /// server, which keeps its own).
    pub fn sqlite_settings(&self) -> Option<Result<SqliteSettings>> {
        self.with_sqlite(sqlite::settings)
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<i64> {
        match &mut *self.borrow()? {
            Conn::Sqlite(c) => Ok(c.pragma_query_value(None, "user_version", |r| r.get(0))?),
            Conn::Postgres(pg) => pg.schema_version(),
        }
    }

    /// Whether this login is an arbiter station's (on an event server): it reads through
    /// its views and writes only through the station functions the database checks.
    pub fn is_station(&self) -> bool {
        matches!(&*self.conn.borrow(), Conn::Postgres(pg) if pg.is_station())
    }

    /// From now on this store writes only through the server connection it has now: once
    /// that is lost and made again, every write is refused ([`StoreError::Disconnected`],
    /// nothing written) until this is called again. The desk calls it once it has restored
    /// its tables after a start or a reconnection, so that the restore's pause is committed
    /// before anything typed while the server could not be reached. Nothing on SQLite.
    pub fn hold_writes_to_this_connection(&self) {
        if let Ok(mut conn) = self.borrow()
            && let Conn::Postgres(pg) = &mut *conn
        {
            pg.hold_writes();
        }
    }

    /// The server connection was made again since [`Store::hold_writes_to_this_connection`]:
    /// the desk restores its tables before it writes anything else.
    pub fn reconnected_since_hold(&self) -> bool {
        matches!(&*self.conn.borrow(), Conn::Postgres(pg) if pg.reconnected_since_hold())
    }

    fn borrow(&self) -> Result<std::cell::RefMut<'_, Conn>> {
        self.conn.try_borrow_mut().map_err(|_| {
            StoreError::Database("the store was used from inside one of its own calls".into())
        })
    }

    /// Runs `f` in one writing transaction: all of it is committed, or none of it. SQLite
    /// takes the write lock at the start (`IMMEDIATE`); on PostgreSQL the transaction runs
    /// READ COMMITTED and `f` locks the rows it changes (`Tx::lock`), and `f` runs again (up
    /// to a few times) when the server breaks a deadlock, so `f` must only write through
    /// the transaction.
    pub(crate) fn write<T>(&mut self, mut f: impl FnMut(&mut Tx<'_>) -> Result<T>) -> Result<T> {
        let now = self.now();
        match self.conn.get_mut() {
            Conn::Sqlite(c) => {
                let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                let mut tx = Tx::sqlite(tx, now);
                let value = f(&mut tx)?;
                tx.commit()?;
                Ok(value)
            }
            Conn::Postgres(pg) => pg.write(now, f),
        }
    }

    /// Runs `f` on one consistent snapshot of the database, writing nothing.
    pub(crate) fn read<T>(&self, f: impl FnOnce(&mut Tx<'_>) -> Result<T>) -> Result<T> {
        let now = self.now();
        let snapshot = self.snapshot.get();
        match &mut *self.borrow()? {
            Conn::Sqlite(c) if snapshot => f(&mut Tx::sqlite_snapshot(c, now)),
            Conn::Postgres(pg) if snapshot => pg.in_snapshot(now, f),
            Conn::Sqlite(c) => {
                let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Deferred)?;
                let mut tx = Tx::sqlite(tx, now);
                let value = f(&mut tx)?;
                tx.commit()?;
                Ok(value)
            }
            Conn::Postgres(pg) => pg.read(now, f),
        }
    }

    /// Runs `f` on the SQLite connection itself (backups, integrity checks).
    pub(crate) fn with_sqlite<T>(
        &self,
        f: impl FnOnce(&rusqlite::Connection) -> Result<T>,
    ) -> Option<Result<T>> {
        match &mut *self.borrow().ok()? {
            Conn::Sqlite(c) => Some(f(c)),
            Conn::Postgres(_) => None,
        }
    }

    /// The integrity check of the database: "ok" or the problems found. On SQLite this is
    /// `PRAGMA integrity_check`; a PostgreSQL server checks its own pages, so there it only
    /// confirms that the schema is this build's.
    pub fn integrity_check(&self) -> Result<String> {
        match self.with_sqlite(sqlite::integrity_check) {
            Some(r) => r,
            None => self.schema_version().map(|_| "ok".to_string()),
        }
    }

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
