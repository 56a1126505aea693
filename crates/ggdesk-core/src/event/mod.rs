//! The event as the desk runs it: every step of a tournament decided here, the store only
//! keeps what is decided.
//!
//! # The shape
//!
//! - [`EventRecord`] is what the desk keeps, as typed values: the setup and format (one
//!   system, or stages), the players as registered, every round (drafts included) with its
//!   boards and byes, the absences, the penalties, the forbidden pairs and the live games at
//!   the desk's tables. A store reads its rows into one and writes back what is decided.
//! - [`Event`] is a record replayed: what has been played, by the rules of its format (a
//!   tournament of one system is an event of one stage of one group; an event of stages
//!   seeds, groups, cuts, plays off and brackets, `crate::stages`). Always valid.
//! - [`Event::decide`] checks a [`Command`] (pair, publish, discard, re-pair, swap, start,
//!   set or change a result, a default loss, a game decided at the desk, a registration, a
//!   withdrawal, an absence, a penalty, a forbidden pair, the settings, the stages) and
//!   answers `Result<Changes, Refusal>`: the [`Edit`]s to write and the audit lines, in one
//!   transaction, or the typed [`Refusal`] whose words the desk shows. [`Event::after`] is
//!   the event with the changes made (the "evolve" of a decider).
//! - [`words`] is the event's vocabulary: one name for a stage, a series, a bracket round, a
//!   game of a match, a result, a round's place.

mod change;
mod command;
mod entrants;
mod file;
mod lifecycle;
mod model;
mod record;
mod refusal;
mod rounds;
mod settings;
mod steps;
mod views;
pub mod words;

pub use change::{AuditLine, Changes, Edit, GamesChanged};
pub use command::{AbsenceChange, Absentee, Command, Confirmation, Registrant, Withdrawal};
pub use file::{FileEvent, Link, Listed, links, read_file};
pub use lifecycle::{
    DraftRound, NextRound, RoundState, Seat, SwapPlan, SwapRefusal, SwapWarning, next_round,
    plan_swap,
};
pub use model::{Damage, Event, RoundPlace, places};
pub use record::{
    Absence, BoardRecord, ByeRecord, DeskGame, DeskOutcome, Entrant, EventRecord, Format,
    PenaltyRecord, RoundKind, RoundRecord, TournamentSetup,
};
pub use refusal::{BadTimer, ReasonFor, Refusal, Unable};
pub use settings::check_stages;
pub use views::{
    BoardSeries, BoardStatus, BoardView, CutGroup, CutTie, CutView, NextAction, Registration,
    RoundView, Seated, SeededStage,
};
