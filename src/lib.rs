//! ggdesk: the tournament desk and table arbiter for Game of the Generals (Salpakan)
//! under the rules of the Game of the Generals Federation.
//!
//! The core (`rules`, `clock`, `adjudication`, `record`) is pure: values in, values out.
//! Only the shell (`cli`, and later `store` and `ui`) does IO. See ARCHITECTURE.md.

pub mod adjudication;
pub mod cli;
pub mod clock;
pub mod desk;
pub mod export;
pub mod pairing;
pub mod physical_record;
pub mod record;
pub mod rules;
pub mod sim;
pub mod store;
pub mod tournament;
pub mod ui;
