//! Why the core refuses a command, whatever it is about: the one type a store passes on
//! when the rules say no. Each kind keeps its own typed refusal and its words.

/// A refusal of the core's rules.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// A command on an event (pairing, results, players, settings).
    #[error("{0}")]
    Event(#[from] crate::event::Refusal),
    /// A step of a game at the desk (setups, clocks, timers, lots, undo, correction, void).
    #[error("{0}")]
    Game(#[from] crate::game::desk::GameRefusal),
    /// A change of the players registry.
    #[error("{0}")]
    Registry(#[from] crate::registry::RegistryRefusal),
    /// A change of which events the rating list rates.
    #[error("{0}")]
    Rating(#[from] crate::rating::RatingRefusal),
    /// A change of a team event's teams.
    #[error("{0}")]
    Team(#[from] crate::teams::TeamRefusal),
    /// A step of a team event's rounds (its pairing, a line-up), in the file's words.
    #[error("{0}")]
    TeamEvent(#[from] crate::teams::TeamFileError),
    /// A step of a team playoff at the desk (the captains' nominees, a playoff result).
    #[error("{0}")]
    TeamPlayoff(#[from] crate::teams::PlayoffRefusal),
}
