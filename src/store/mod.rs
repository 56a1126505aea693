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

mod audit;
mod backup;
mod conn;
mod copy;
pub(crate) mod db;
mod details;
mod error;
mod event_rows;
mod events;
mod game_rows;
mod games;
mod listen;
mod passwords;
mod pg;
mod pgtls;
mod players;
mod public;
mod ratings;
mod remote;
mod replication;
mod seen;
mod sqlite;
mod stations;
mod tables;
mod team_desk;
mod team_playoffs;
mod team_rounds;
mod team_rows;
mod team_tables;
mod time;

pub use backup::{BACKUPS_KEPT, BackupNote, backup_dir};
pub use copy::CopyCounts;
pub use db::Engine;
pub use events::{Paired, ResultSaved, RoundCompleted, RoundInPlay, TournamentSummary};
pub use game_rows::{AppendOutcome, Expect, GameId, GameMeta, NewGame, Restored, StoredGame};
pub use games::DeskGames;
/// The event's types the store's API takes and gives, as the core names them.
pub use ggdesk_core::event::{
    AbsenceChange, Absentee, BoardStatus, BoardView, Confirmation, Registration, RoundPlace,
    RoundState, RoundView, TournamentSetup, Withdrawal,
};
/// The game model is the core's; these names keep the store's call sites as they were.
pub use ggdesk_core::game::{AnyEvent, AnyGame, GameMode, LogEntry, SheetRow};
pub use listen::{Change, Changes};
pub use players::{MAX_RATING, PlayerInput, RegistryId, RegistryPlayer, rows_message};
pub use public::{PublicRatingEvent, PublicRatingRow};
pub use ratings::{EventRatingRow, RatingEvent, RatingHistoryRow, RatingRow};
pub use remote::{Remote, stored_game_value, timers_value};
pub use replication::{ServerState, StandbyState, server_status};
pub use sqlite::SqliteSettings;
pub use stations::{EventServer, Keeper, Station, TableStations, parse_tables, tables_text};
pub use tables::TableTimers;
pub use team_rounds::TeamRoundView;
pub use team_rows::{PublicTeamEvent, TeamRoundNo, team_board_table};
pub use team_tables::TablesRound;

pub use error::{Result, StoreError, TRACE_ENV, TRACE_PAUSE};

pub use audit::{Actor, AuditEntry, AuditFilter, DIRECTOR_BEFORE, DIRECTOR_DESK};

pub use conn::{Address, Store};
/// A tournament's id in the database (the core's typed key).
pub use ggdesk_core::tournament::TournamentId;
pub use pg::MIGRATION_LOCK_WAIT;
pub use sqlite::{APPLICATION_ID, SCHEMA_VERSION};
pub use time::{Clock, new_token, now_ms};
