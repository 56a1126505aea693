//! What only the PostgreSQL engine has: connecting (to whichever of several hosts is primary
//! now), reconnecting after a lost connection, refusing a database that is not ours or is
//! newer, migrations kept in a `ggdesk_meta` row, serializable transactions retried on a
//! serialization failure, and the notifications other desks see.
//!
//! Why the `postgres` crate: it is the maintained synchronous client of the Rust PostgreSQL
//! family (a blocking wrapper over `tokio-postgres`, whose runtime it keeps private): the
//! desk calls the store from its frame loop and needs no async runtime of its own, and the
//! crate speaks libpq's URL syntax with several hosts and `target_session_attrs`.

use super::db::{Statements, Tx, args};
use super::error::{Result, StoreError};
use super::pgtls::{ConnectError, Endpoint};
use super::sqlite::SCHEMA_VERSION;
use postgres::error::SqlState;
use postgres::{Client, IsolationLevel};
use std::time::Duration;

/// The PostgreSQL migrations, one for each SQLite migration of the same number.
pub(crate) const MIGRATIONS: &[&str] = &[
    include_str!("../../schema.postgres.sql"),
    include_str!("../../migrations/002-event-tokens.postgres.sql"),
    include_str!("../../migrations/003-desk-timers.postgres.sql"),
    include_str!("../../migrations/004-station-functions.postgres.sql"),
    include_str!("../../migrations/005-ratings.postgres.sql"),
    include_str!("../../migrations/006-stages.postgres.sql"),
    include_str!("../../migrations/007-station-audit.postgres.sql"),
    include_str!("../../migrations/008-station-api.postgres.sql"),
    include_str!("../../migrations/009-standby-addresses.postgres.sql"),
    include_str!("../../migrations/010-teams.postgres.sql"),
    include_str!("../../migrations/011-no-station-logins.postgres.sql"),
    include_str!("../../migrations/012-public-teams.postgres.sql"),
];

/// The channel the database notifies changes on (`LISTEN ggdesk`).
pub const CHANNEL: &str = "ggdesk";

/// How often a write is tried again when the server refuses it for a concurrent change.
const RETRIES: u32 = 20;

/// A connection to an event server.
pub(crate) struct Pg {
    client: Option<Client>,
    statements: Statements,
    endpoint: Endpoint,
    shown: String,
    /// Statements every new connection runs first (a read-only connection's role and mode).
    on_connect: Vec<String>,
    /// Writes are refused before they reach the server (the public pages' connection).
    read_only: bool,
    /// How many connections were made so far: a new one after a lost one counts up.
    generation: u64,
    /// Writes go only through connection number `g` (see [`Pg::hold_writes`]).
    writes_on: Option<u64>,
}

pub(crate) use super::pgtls::without_password;

/// Reads a URL ([`Endpoint::parse`]: its encryption too) and gives it the desk's timeouts: a
/// connection attempt gives up after 3 s per host, and a silent server is noticed within
/// seconds.
pub(crate) fn endpoint(url: &str) -> Result<Endpoint> {
    let mut endpoint = Endpoint::parse(url)?;
    let config = endpoint.config_mut();
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(3));
    }
    config
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(5))
        .keepalives_interval(Duration::from_secs(1))
        .keepalives_retries(3);
    if config.get_tcp_user_timeout().is_none() {
        config.tcp_user_timeout(Duration::from_secs(6));
    }
    if config.get_application_name().is_none() {
        config.application_name("ggdesk");
    }
    Ok(endpoint)
}

impl From<ConnectError> for StoreError {
    fn from(e: ConnectError) -> StoreError {
        match e {
            ConnectError::Tls(why) => StoreError::Tls(why),
            ConnectError::Server(e) => classify(&e),
        }
    }
}

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> StoreError {
        classify(&e)
    }
}

/// What a server error means for the desk.
fn classify(e: &postgres::Error) -> StoreError {
    let Some(db) = e.as_db_error() else {
        let text = e.to_string();
        let lost = e.is_closed()
            || text.starts_with("error communicating")
            || text.starts_with("error connecting")
            || text.starts_with("timeout waiting");
        let detail = match std::error::Error::source(e) {
            Some(cause) => format!("{text}: {cause}"),
            None => text,
        };
        return if lost {
            StoreError::Disconnected(detail)
        } else {
            StoreError::Database(detail)
        };
    };
    let message = db.message().to_string();
    let code = db.code();
    if code == &SqlState::T_R_SERIALIZATION_FAILURE || code == &SqlState::T_R_DEADLOCK_DETECTED {
        StoreError::Conflict(format!("{RETRY_MARK}{message}"))
    } else if code == &SqlState::INSUFFICIENT_PRIVILEGE {
        StoreError::Denied(message)
    } else if code == &SqlState::LOCK_NOT_AVAILABLE {
        StoreError::Database(format!("{LOCK_MARK}{message}"))
    } else if code == &SqlState::UNIQUE_VIOLATION
        && db
            .constraint()
            .is_some_and(|c| c.starts_with("game_events"))
    {
        StoreError::Conflict(
            "another desk added an event to this game first: the game is shown as it now is".into(),
        )
    } else if code == &SqlState::ADMIN_SHUTDOWN
        || code == &SqlState::CRASH_SHUTDOWN
        || code == &SqlState::CANNOT_CONNECT_NOW
        || code == &SqlState::READ_ONLY_SQL_TRANSACTION
    {
        // A server going down, still starting, or a standby that is not (yet) the primary:
        // try the hosts again.
        StoreError::Disconnected(message)
    } else {
        StoreError::Database(message)
    }
}

/// Marks a lock the server would not wait for any longer (`lock_timeout`, set only while
/// migrating: [`MIGRATION_LOCK_WAIT`]).
const LOCK_MARK: &str = "\u{1}lock: ";

/// How long an upgrade of the schema waits for the tables it changes while other sessions
/// hold them (an open desk's transaction): then it gives up, changes nothing and says who.
pub const MIGRATION_LOCK_WAIT: Duration = Duration::from_secs(10);

/// Marks a conflict the server reports for serializable transactions, which the store
/// resolves by running the transaction again.
const RETRY_MARK: &str = "\u{1}retry: ";

fn is_retry(e: &StoreError) -> bool {
    matches!(e, StoreError::Conflict(m) if m.starts_with(RETRY_MARK))
}

/// The role the public pages read a database as.
pub(crate) fn public_role_name(database: &str) -> String {
    format!("{database}_public").to_lowercase()
}

impl Pg {
    /// Connects, refuses a database that is not a ggdesk one or is newer than this build,
    /// and creates or migrates the schema.
    fn new(url: &str) -> Result<Pg> {
        Ok(Pg {
            client: None,
            statements: Statements::new(),
            endpoint: endpoint(url)?,
            shown: without_password(url),
            on_connect: Vec::new(),
            read_only: false,
            generation: 0,
            writes_on: None,
        })
    }

    pub(crate) fn connect(url: &str) -> Result<Pg> {
        let mut pg = Pg::new(url)?;
        pg.client()?;
        pg.migrate()?;
        Ok(pg)
    }

    /// From now on writes go only through the connection in use: once it is lost and made
    /// again, every write is refused ([`StoreError::Disconnected`]) until this is called
    /// again. The desk calls it after restoring its tables, so that nothing typed while the
    /// server could not be reached is committed before the restore's pause.
    pub(crate) fn hold_writes(&mut self) {
        self.writes_on = Some(self.generation);
    }

    /// The connection was made again since [`Pg::hold_writes`].
    pub(crate) fn reconnected_since_hold(&self) -> bool {
        self.writes_on.is_some_and(|g| g != self.generation)
    }

    /// Connects for reading only (the public pages): the database must already be a ggdesk
    /// database of this build's version (nothing is created or migrated), and the session
    /// then reads as the database's public role, which may read the tables the public pages
    /// show and nothing else (no setup, no event, no reading sheet), in read-only
    /// transactions. The role is created (when this login may create roles) on first use.
    pub(crate) fn connect_read_only(url: &str) -> Result<Pg> {
        let mut pg = Pg::new(url)?;
        let shown = pg.shown.clone();
        match pg.inspect()? {
            Some(v) if v == SCHEMA_VERSION => {}
            Some(v) if v > SCHEMA_VERSION => {
                return Err(StoreError::Newer {
                    path: shown,
                    found: v,
                    supported: SCHEMA_VERSION,
                });
            }
            _ => {
                return Err(StoreError::Rejected(format!(
                    "{shown} holds no ggdesk data of this version: open it with the desk first"
                )));
            }
        }
        let role = pg.public_role()?;
        pg.on_connect
            .push(format!("SET ROLE \"{}\"", role.replace('"', "\"\"")));
        // The role reads the views of what the pages show (migration 4), by the tables'
        // names: nothing else is on its path.
        pg.on_connect.push("SET search_path = ggdesk_public".into());
        pg.on_connect
            .push("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY".into());
        pg.read_only = true;
        // Connect again with the role and the mode.
        pg.client = None;
        pg.client()?;
        Ok(pg)
    }

    /// The public role of this database (`<database>_public`), created with its grants when
    /// missing and this login may; refused when it can neither be created nor used. Its
    /// grants are the views of schema `ggdesk_public` and nothing else
    /// (`ggdesk_public_grants`, migration 4).
    pub(crate) fn public_role(&mut self) -> Result<String> {
        let result = self.write(0, |tx| {
            let (db, user): (String, String) =
                tx.query_one("SELECT current_database(), current_user", args![], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?;
            let role = public_role_name(&db);
            let login: Option<bool> = tx.query_opt(
                "SELECT rolcanlogin FROM pg_catalog.pg_roles WHERE rolname = ?1",
                args![role],
                |r| r.get(0),
            )?;
            let q = |ident: &str| format!("\"{}\"", ident.replace('"', "\"\""));
            match login {
                None => tx.batch(&format!("CREATE ROLE {} NOLOGIN", q(&role)))?,
                // A login of that name is somebody's: the pages never read with its rights.
                Some(true) => {
                    return Err(StoreError::Denied(format!(
                        "the role {role} the public pages read as is a login: the public pages \
                         do not use it; have the database's owner drop it"
                    )));
                }
                Some(false) => {}
            }
            tx.query(
                "SELECT public.ggdesk_public_grants(?1) AS done",
                args![role],
            )?;
            tx.batch(&format!("GRANT {} TO {}", q(&role), q(&user)))?;
            Ok(role)
        });
        let refused = match result {
            Ok(role) => return Ok(role),
            Err(StoreError::Denied(m)) if m.contains("is a login") => {
                return Err(StoreError::Denied(m));
            }
            Err(StoreError::Denied(m)) | Err(StoreError::Database(m)) => m,
            Err(e) => return Err(e),
        };
        // This login may not create the role or grant its rights: a role its owner made
        // beforehand serves as well. Without one the public pages do not run, rather than
        // read with this login's rights (setups and reading sheets among them).
        let (role, member): (String, bool) = self.read(0, |tx| {
            let db: String = tx.query_one("SELECT current_database()", args![], |r| r.get(0))?;
            let role = public_role_name(&db);
            let member = tx.query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_roles
                                 WHERE rolname = ?1 AND pg_has_role(current_user, oid, 'MEMBER'))",
                args![role],
                |r| r.get(0),
            )?;
            Ok((role, member))
        })?;
        if member {
            return Ok(role);
        }
        Err(StoreError::Denied(format!(
            "the public pages read {shown} as its role {role}, which may read only what \
             players may see; this login may neither create that role nor use it ({refused}): \
             start the public pages once with the database's owner (that creates the role), \
             then have the owner run GRANT \"{role}\" TO this login",
            shown = self.shown
        )))
    }

    pub(crate) fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The connection, made again if it was lost.
    fn client(&mut self) -> Result<&mut Client> {
        if self.client.as_ref().is_some_and(Client::is_closed) {
            self.client = None;
        }
        if self.client.is_none() {
            self.statements.clear();
            let mut client = self
                .endpoint
                .connect()
                .map_err(|e| match StoreError::from(e) {
                    StoreError::Database(detail) => StoreError::Disconnected(detail),
                    other => other,
                })?;
            for sql in &self.on_connect {
                client.batch_execute(sql)?;
            }
            self.client = Some(client);
            self.generation += 1;
        }
        self.client
            .as_mut()
            .ok_or_else(|| StoreError::Disconnected(format!("{} cannot be reached", self.shown)))
    }

    /// Forgets a connection that failed, so the next call connects again.
    fn drop_if_lost(&mut self, e: &StoreError) {
        if e.is_disconnected() {
            self.client = None;
            self.statements.clear();
        }
    }

    /// Runs statements without parameters on the connection (made again if it was lost),
    /// forgetting a connection that fails.
    fn batch_on_client(&mut self, sql: &str) -> Result<()> {
        let result = self
            .client()
            .and_then(|c| c.batch_execute(sql).map_err(StoreError::from));
        if let Err(e) = &result {
            self.drop_if_lost(e);
        }
        result
    }

    /// Runs `f` in a READ COMMITTED transaction whose writers lock the rows of what they
    /// change first (`Tx::lock`), again when the server breaks a deadlock or refuses it for
    /// a concurrent change.
    pub(crate) fn write<T>(
        &mut self,
        now: i64,
        mut f: impl FnMut(&mut Tx<'_>) -> Result<T>,
    ) -> Result<T> {
        if self.read_only {
            return Err(StoreError::Denied(
                "this connection only reads (the public pages)".into(),
            ));
        }
        let mut attempt = 0;
        loop {
            let result = self.run(now, IsolationLevel::ReadCommitted, false, &mut f);
            match result {
                Err(e) if is_retry(&e) && attempt < RETRIES => {
                    attempt += 1;
                    // Let the other transaction finish before trying again.
                    std::thread::sleep(Duration::from_millis(2 * u64::from(attempt)));
                }
                Err(StoreError::Conflict(m)) if m.starts_with(RETRY_MARK) => {
                    return Err(StoreError::Conflict(format!(
                        "the server was busy with other desks' changes ({}): nothing was saved, try again",
                        &m[RETRY_MARK.len()..]
                    )));
                }
                other => return other,
            }
        }
    }

    /// Runs `f` on one snapshot, read only.
    pub(crate) fn read<T>(
        &mut self,
        now: i64,
        f: impl FnOnce(&mut Tx<'_>) -> Result<T>,
    ) -> Result<T> {
        let mut f = Some(f);
        self.run(
            now,
            IsolationLevel::RepeatableRead,
            true,
            &mut |tx| match f.take() {
                Some(f) => f(tx),
                None => Err(StoreError::Database("a read ran twice".into())),
            },
        )
    }

    fn run<T>(
        &mut self,
        now: i64,
        level: IsolationLevel,
        read_only: bool,
        f: &mut impl FnMut(&mut Tx<'_>) -> Result<T>,
    ) -> Result<T> {
        if !read_only {
            // A write on a connection made again since the desk restored its tables waits for
            // that restore (see `hold_writes`): refused, the new connection kept for it.
            if let Err(e) = self.client().map(|_| ()) {
                self.drop_if_lost(&e);
                return Err(e);
            }
            if self.reconnected_since_hold() {
                return Err(StoreError::Disconnected(
                    "the connection to the server was made again: this desk first restores its \
                     tables (the time it could not reach the server counts as a pause); \
                     nothing was saved, enter it again"
                        .into(),
                ));
            }
        }
        let result = (|| {
            self.client()?;
            let Pg {
                client, statements, ..
            } = self;
            let tx = connected(client)?
                .build_transaction()
                .isolation_level(level)
                .read_only(read_only)
                .start()?;
            let mut tx = Tx::postgres(tx, statements, now);
            let value = f(&mut tx)?;
            tx.commit()?;
            Ok(value)
        })();
        if let Err(e) = &result {
            self.drop_if_lost(e);
        }
        result
    }

    /// Opens a read-only snapshot that later reads share ([`Pg::in_snapshot`]).
    pub(crate) fn begin_snapshot(&mut self) -> Result<()> {
        self.batch_on_client("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    }

    /// Runs `f` inside the open snapshot.
    pub(crate) fn in_snapshot<T>(
        &mut self,
        now: i64,
        f: impl FnOnce(&mut Tx<'_>) -> Result<T>,
    ) -> Result<T> {
        let Pg {
            client, statements, ..
        } = self;
        let result = f(&mut Tx::postgres_snapshot(
            connected(client)?,
            statements,
            now,
        ));
        if let Err(e) = &result {
            self.drop_if_lost(e);
        }
        result
    }

    /// Ends the snapshot.
    pub(crate) fn end_snapshot(&mut self, ok: bool) -> Result<()> {
        let result = match self.client.as_mut() {
            Some(c) => c
                .batch_execute(if ok { "COMMIT" } else { "ROLLBACK" })
                .map_err(StoreError::from),
            None => Ok(()),
        };
        if let Err(e) = &result {
            self.drop_if_lost(e);
        }
        result
    }

    pub(crate) fn schema_version(&mut self) -> Result<i64> {
        self.read(0, |q| {
            q.query_one("SELECT schema_version FROM ggdesk_meta", args![], |r| {
                r.get(0)
            })
        })
    }

    /// Creates the schema on an empty database, migrates an older one, and refuses one that
    /// is not a ggdesk database or is newer than this build, before writing anything.
    fn migrate(&mut self) -> Result<()> {
        let shown = self.shown.clone();
        let found = self.inspect()?;
        match found {
            Some(v) if v > SCHEMA_VERSION => {
                return Err(StoreError::Newer {
                    path: shown,
                    found: v,
                    supported: SCHEMA_VERSION,
                });
            }
            Some(v) if v == SCHEMA_VERSION => return Ok(()),
            _ => {}
        }
        let migrated = self.write(0, |tx| {
            // One desk creates or migrates the schema; any other waits here and finds it done.
            tx.query(
                "SELECT pg_advisory_xact_lock(?1)",
                super::db::args![super::sqlite::APPLICATION_ID],
            )?;
            // A table another session holds (a desk's open transaction) is waited for a
            // while, not for ever.
            tx.batch(&format!(
                "SET LOCAL lock_timeout = '{}ms'",
                MIGRATION_LOCK_WAIT.as_millis()
            ))?;
            let version = inspect_in(tx, &shown)?.unwrap_or(0);
            if version > SCHEMA_VERSION {
                return Err(StoreError::Newer {
                    path: shown.clone(),
                    found: version,
                    supported: SCHEMA_VERSION,
                });
            }
            let from = usize::try_from(version).unwrap_or(0);
            for (k, migration) in MIGRATIONS.iter().enumerate().skip(from) {
                tx.batch(migration).map_err(|e| match e {
                    StoreError::Denied(m) if version > 0 => StoreError::Denied(format!(
                        "{shown} has schema version {version}: open it once with the director's \
                         login (the owner of its tables) to bring it to version {SCHEMA_VERSION} ({m})"
                    )),
                    StoreError::Denied(m) => StoreError::Denied(format!(
                        "creating the ggdesk schema needs a login allowed to create tables ({m})"
                    )),
                    StoreError::Database(m) if version > 0 && !m.starts_with(LOCK_MARK) => {
                        super::error::upgrade_failed(&shown, version, k, &m)
                    }
                    other => other,
                })?;
            }
            tx.execute(
                "UPDATE ggdesk_meta SET schema_version = ?1",
                super::db::args![SCHEMA_VERSION],
            )?;
            // The public pages' role made before migration 4 had grants on the tables, which
            // it revoked: the role reads the views from now on (its name is built in Rust
            // alone, see `public_role_name`).
            let db: String = tx.query_one("SELECT current_database()", args![], |r| r.get(0))?;
            let role = public_role_name(&db);
            let exists: i64 = tx.query_one(
                "SELECT count(*) FROM pg_catalog.pg_roles WHERE rolname = ?1 AND NOT rolcanlogin",
                args![role],
                |r| r.get(0),
            )?;
            if exists > 0 {
                tx.query(
                    "SELECT public.ggdesk_public_grants(?1) AS done",
                    args![role],
                )?;
            }
            Ok(())
        });
        match migrated {
            Err(StoreError::Database(m)) if m.starts_with(LOCK_MARK) => {
                let who = match self.lock_holders() {
                    Ok(holders) if holders.is_empty() => "they ended since".to_string(),
                    Ok(holders) => holders.join("; "),
                    Err(e) => format!("who could not be read: {e}"),
                };
                Err(StoreError::Conflict(format!(
                    "{shown} could not be brought to schema version {SCHEMA_VERSION}: after \
                     waiting {} s it still could not change tables that other sessions hold \
                     ({who}); nothing was changed. Close those desks or end their sessions \
                     (SELECT pg_terminate_backend(PID)), then open it again",
                    MIGRATION_LOCK_WAIT.as_secs()
                )))
            }
            other => other,
        }
    }

    /// Who holds locks on ggdesk's tables in this database, besides this session: one
    /// `login NAME, pid PID: TABLE, …` per session.
    fn lock_holders(&mut self) -> Result<Vec<String>> {
        let rows: Vec<(String, i64, String)> = self.read(0, |q| {
            q.query_map(
                "SELECT DISTINCT coalesce(a.usename::text, '?') AS login, l.pid::bigint AS pid,
                        c.relname::text AS relname
                 FROM pg_catalog.pg_locks l
                 JOIN pg_catalog.pg_class c ON c.oid = l.relation
                 JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                 LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
                 WHERE l.granted AND l.pid <> pg_backend_pid()
                   AND l.database = (SELECT oid FROM pg_catalog.pg_database
                                     WHERE datname = current_database())
                   AND n.nspname IN ('public', 'ggdesk_station', 'ggdesk_public')
                   AND c.relkind IN ('r', 'p', 'v')
                 ORDER BY 2, 3",
                args![],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })?;
        let mut holders: Vec<(String, i64, Vec<String>)> = Vec::new();
        for (login, pid, table) in rows {
            match holders.last_mut() {
                Some((_, p, tables)) if *p == pid => tables.push(table),
                _ => holders.push((login, pid, vec![table])),
            }
        }
        Ok(holders
            .into_iter()
            .map(|(login, pid, tables)| format!("login {login}, pid {pid}: {}", tables.join(", ")))
            .collect())
    }

    /// The schema version of a ggdesk database, `None` for an empty one; an error for a
    /// database of another program.
    fn inspect(&mut self) -> Result<Option<i64>> {
        let shown = self.shown.clone();
        self.read(0, |q| inspect_in(q, &shown))
    }
}

/// What the login's first schema holds: the event's tables.
const RELATIONS: &str = "SELECT count(*) AS n FROM pg_catalog.pg_class c
     JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v')";

fn inspect_in(q: &mut Tx<'_>, shown: &str) -> Result<Option<i64>> {
    let tables: i64 = q.query_one(RELATIONS, args![], |r| r.get(0))?;
    let meta: i64 = q.query_one(
        &format!("{RELATIONS} AND c.relname = 'ggdesk_meta'"),
        args![],
        |r| r.get(0),
    )?;
    if tables == 0 {
        return Ok(None);
    }
    if meta == 0 {
        return Err(StoreError::Foreign {
            path: shown.to_string(),
        });
    }
    let row = q.query_opt(
        "SELECT application, schema_version FROM ggdesk_meta",
        args![],
        |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)?)),
    )?;
    match row {
        Some((app, version)) if app == "ggdesk" => Ok(Some(version)),
        _ => Err(StoreError::Foreign {
            path: shown.to_string(),
        }),
    }
}

/// The connection, or the error every call gives while there is none.
fn connected(client: &mut Option<Client>) -> Result<&mut Client> {
    client
        .as_mut()
        .ok_or_else(|| StoreError::Disconnected("no connection".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_never_shown() {
        assert_eq!(
            without_password(
                "postgres://arb:s3cret@h1:5432,h2:5433/event?target_session_attrs=read-write"
            ),
            "postgres://arb@h1:5432,h2:5433/event?target_session_attrs=read-write"
        );
        assert_eq!(
            without_password("postgresql://h/db?password=x&sslmode=disable"),
            "postgresql://h/db?sslmode=disable"
        );
        assert_eq!(
            without_password("postgres://h/db?password=x"),
            "postgres://h/db"
        );
        assert_eq!(without_password("postgres://u@h/db"), "postgres://u@h/db");
    }
}
