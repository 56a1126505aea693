//! ggdesk: the tournament desk and table arbiter for Game of the Generals (Salpakan)
//! under the rules of the Game of the Generals Federation.
//!
//! This crate is the shell: the store (the only code that touches a database), the desk's
//! live tables, the egui pages and the command line. The functional core (rules, clocks,
//! adjudication, records, tournaments, pairing, exports) is the `ggdesk-core` crate,
//! re-exported here under its own module names. See ARCHITECTURE.md.

pub use ggdesk_core::{
    adjudication, clock, export, pairing, physical_record, record, rules, sim, tournament,
};

pub mod cli;
pub mod desk;
pub mod host;
pub mod serve;
pub mod station;
pub mod store;
pub mod tls;
pub mod ui;
