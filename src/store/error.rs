//! Why the store refused or failed: one error type for every engine, with what a row the
//! store cannot read and a refusal of the core's rules become.

use ggdesk_core::Refusal;
use ggdesk_core::game::desk::GameRefusal;

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
    /// The core's rules refuse the command (its words are the refusal's): nothing was
    /// written.
    #[error("{0}")]
    Refused(Refusal),
    /// Another desk changed the same thing first: nothing was written; reload and look.
    #[error("{0}")]
    Conflict(String),
    /// The database refused the change for this login (a login that is not the director's
    /// doing what only the director may): nothing was written.
    #[error("not allowed for this login: {0}")]
    Denied(String),
    /// The server cannot be reached. Nothing is being saved; a change whose confirmation was
    /// lost is looked for again when the connection is back.
    #[error("not connected: nothing is being saved ({0})")]
    Disconnected(String),
    /// The connection could not be encrypted as the address asks (the server's certificate
    /// does not check, or the server speaks no TLS): nothing, no password either, was sent.
    #[error("{0}")]
    Tls(String),
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

impl From<GameRefusal> for StoreError {
    /// The rules' refusal of a step of a game, as the store passes it on.
    fn from(r: GameRefusal) -> StoreError {
        StoreError::Refused(r.into())
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
