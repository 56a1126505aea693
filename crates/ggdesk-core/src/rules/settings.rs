//! The rule settings of `RULES.md`, each with its GGF default.

/// Every number `RULES.md` marks *(setting)*. Durations are whole nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleSettings {
    /// Thinking time per move before an overstep (2 minutes).
    pub move_limit_ns: i64,
    /// The overstep that loses the game (the 3rd).
    pub oversteps_to_lose: u32,
    /// Playing time before the game is adjudicated (2 hours).
    pub game_limit_ns: i64,
    /// Complete moves without a challenge that end the game (30; 0 turns it off).
    pub thirty_moves: u32,
    /// Moves of one attacked piece between two squares that draw (5; 0 turns it off).
    pub perpetual_short: u32,
    /// Moves of one attacked piece through more squares that draw (16; 0 turns it off).
    pub perpetual_long: u32,
    /// Complete moves each side must have made before a draw for respect (10).
    pub respect_min_moves: u32,
    /// Setup time per side (5 minutes); the desk's setup timer.
    pub setup_limit_ns: i64,
    /// Reading time for adjudication (15 minutes); the desk's reading timer.
    pub reading_limit_ns: i64,
    /// Grace period after the official start before a default loss (30 minutes).
    pub grace_ns: i64,
}

pub const NS_PER_S: i64 = 1_000_000_000;

impl Default for RuleSettings {
    fn default() -> Self {
        RuleSettings {
            move_limit_ns: 120 * NS_PER_S,
            oversteps_to_lose: 3,
            game_limit_ns: 7200 * NS_PER_S,
            thirty_moves: 30,
            perpetual_short: 5,
            perpetual_long: 16,
            respect_min_moves: 10,
            setup_limit_ns: 300 * NS_PER_S,
            reading_limit_ns: 900 * NS_PER_S,
            grace_ns: 1800 * NS_PER_S,
        }
    }
}
