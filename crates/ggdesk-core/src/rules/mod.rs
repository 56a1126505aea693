//! The rules engine: squares, ranks, setups, moves, challenges and every way a game ends,
//! exactly as `RULES.md` says. Pure: no IO, no clock reading.

mod challenge;
pub mod clock;
mod game;
mod physical;
mod piece;
mod player_view;
mod position;
mod settings;
mod setup;
mod square;
pub(crate) mod turns;

pub use challenge::{ChallengeResult, resolve};
pub use game::{Applied, Event, EventError, Game, GameState, Outcome, PenaltyKind, Reason};
pub use physical::{PhysicalError, PhysicalEvent, PhysicalGame};
pub use piece::{ByRank, BySide, Piece, Rank, Side};
pub use player_view::PlayerView;
pub use position::{Challenge, MoveError, Position};
pub use settings::{MAX_SETTING_SECS, RuleSettings, RulesError};
pub use setup::{SetupError, SideSetup};
pub use square::{FILES, Move, ROWS, SQUARES, Square};
