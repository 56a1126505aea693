//! The connection to a ggdesk database, on either engine: where it is ([`Address`]), opening
//! and creating it, and one writing or reading transaction at a time ([`Store::write`],
//! [`Store::read`]) at the time of the store's clock.

use super::db::{Engine, Tx};
use super::error::{Result, StoreError};
use super::sqlite::SqliteSettings;
use super::time::{Clock, now_ms};
use super::{pg, seen, sqlite};
use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

pub(crate) enum Conn {
    Sqlite(rusqlite::Connection),
    Postgres(Box<pg::Pg>),
    /// An arbiter station's desk on the event server's stations' API (`remote`): no
    /// database at all.
    Station(Arc<dyn super::remote::Remote>),
}

/// An open ggdesk database.
pub struct Store {
    pub(crate) conn: RefCell<Conn>,
    /// The file of a SQLite database (`None` in memory or on a server).
    path: Option<PathBuf>,
    address: Option<Address>,
    clock: Clock,
    /// Rounds as this store last showed them (two directors editing one round).
    pub(crate) seen: RefCell<seen::Seen>,
    /// A read snapshot is open around several reads ([`Store::read_consistent`]).
    pub(crate) snapshot: Cell<bool>,
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

    /// A store on the stations' API (see [`Store::on_station_api`]).
    pub(crate) fn remote_store(remote: Arc<dyn super::remote::Remote>) -> Store {
        Store::with(Conn::Station(remote), None, None)
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
            // A station's desk on the API behaves as a desk on a server: another desk's
            // change is announced, its connection may be lost.
            Conn::Postgres(_) | Conn::Station(_) => Engine::Postgres,
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
            Conn::Station(_) => Err(super::remote::not_at_a_station("the schema")),
        }
    }

    /// Whether this is an arbiter station's desk: a store on the stations' API
    /// ([`Store::on_station_api`]), which never logs into the database.
    pub fn is_station(&self) -> bool {
        matches!(&*self.conn.borrow(), Conn::Station(_))
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

    pub(crate) fn borrow(&self) -> Result<std::cell::RefMut<'_, Conn>> {
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
            Conn::Station(_) => Err(super::remote::not_at_a_station("this change")),
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
            Conn::Station(_) => Err(super::remote::not_at_a_station("this page")),
        }
    }

    /// Runs `f` on the SQLite connection itself (backups, integrity checks).
    pub(crate) fn with_sqlite<T>(
        &self,
        f: impl FnOnce(&rusqlite::Connection) -> Result<T>,
    ) -> Option<Result<T>> {
        match &mut *self.borrow().ok()? {
            Conn::Sqlite(c) => Some(f(c)),
            Conn::Postgres(_) | Conn::Station(_) => None,
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
}
