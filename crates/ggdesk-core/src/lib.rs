//! The functional core of ggdesk: the GGF rules, clocks, adjudication, game records,
//! tournaments, pairing and exports. Values in, values out: this crate does no IO, never
//! reads the system clock, and never panics on input. Its manifest has no database, UI or
//! OS-randomness dependency, so the compiler keeps that boundary. See ARCHITECTURE.md.

pub mod adjudication;
pub use rules::clock;
pub mod csv_text;
pub mod date;
pub mod event;
pub mod export;
pub mod game;
pub mod pairing;
pub mod physical_record;
pub mod rating;
pub mod record;
pub mod refusal;
pub mod registry;
pub mod rules;
pub mod sim;
pub mod stages;
pub mod teams;
pub mod tournament;

pub use refusal::Refusal;
