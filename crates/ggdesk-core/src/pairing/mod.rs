//! Swiss pairing by one global maximum-weight matching, and round-robin schedules by the
//! FIDE Berger tables. Pure: no IO.
//!
//! [`pair_next_round`] pairs the round after the last one of a tournament (which must be
//! complete), by the tournament's system; [`explain`] says, board by board, why, as data
//! whose `Display` is the text. The result is a [`Pairing`]: its [`Pairing::to_round`] is
//! what the desk adds to the tournament with `Tournament::add_round`, and
//! [`Pairing::to_json`] is what `ggdesk pair` prints. See "Pairing" in ARCHITECTURE.md for
//! how the Swiss weights are built.

mod explain;
mod round_robin;
mod swiss;

pub use explain::{
    Avoided, AvoidedBecause, BoardExplanation, BoardReasons, ByeExplanation, ByeReasons,
    ColourRule, Explanation, Named, Numbered, PassedOver, PassedOverBecause, Placement,
    RoundExplanation, RoundKind, RoundRobinBye, ScoreGroup, Seat, explain,
};
pub use round_robin::{berger_round, pair_round_robin};
pub use swiss::{MAX_SWISS_PLAYERS, pair_swiss};

use crate::tournament::{Game, PlayerId, Round, System, Tournament};
use serde_json::json;

/// One board of a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// From 1.
    pub table: u32,
    pub white: PlayerId,
    pub black: PlayerId,
}

/// A paired round, not yet played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// The round number, from 1.
    pub round: usize,
    /// In table order.
    pub games: Vec<Board>,
    pub byes: Vec<PlayerId>,
    /// Players left out at their request (Swiss), as passed to the pairing.
    pub absent: Vec<PlayerId>,
}

impl Pairing {
    /// The round to add to the tournament: every game pending.
    pub fn to_round(&self) -> Round {
        Round {
            games: self
                .games
                .iter()
                .map(|b| Game::pending(Some(b.table), b.white, b.black))
                .collect(),
            byes: self.byes.clone(),
            absent: self.absent.clone(),
        }
    }

    /// The spec's output of `ggdesk pair`:
    /// `{"round": 3, "games": [{"table": 1, "white": 7, "black": 2}, ...], "byes": [5]}`.
    pub fn to_json(&self) -> String {
        let games: Vec<_> = self
            .games
            .iter()
            .map(|b| json!({"table": b.table, "white": b.white.0, "black": b.black.0}))
            .collect();
        let byes: Vec<u32> = self.byes.iter().map(|p| p.0).collect();
        json!({"round": self.round, "games": games, "byes": byes}).to_string()
    }
}

/// Why no pairing was made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("round {0} is not complete: every game needs a result before the next round is paired")]
    RoundNotComplete(usize),
    #[error("all {0} rounds have been played")]
    AllRoundsPlayed(u32),
    #[error("there is nobody to pair")]
    NoPlayers,
    #[error("unknown player id {0}")]
    UnknownPlayer(PlayerId),
    #[error(
        "no valid pairing exists: an odd number of players and nobody can take the bye (each has had one or won by forfeit)"
    )]
    NoByeCandidate,
    #[error("no valid pairing exists: players {} cannot all be paired without a rematch, a forbidden pair or a second bye", list(.unpaired))]
    NoValidPairing { unpaired: Vec<PlayerId> },
    #[error("too many players to pair a Swiss round: {0} (at most {MAX_SWISS_PLAYERS})")]
    TooManyPlayers(usize),
    #[error("the scores are too large to weigh the pairing exactly")]
    WeightOverflow,
}

fn list(ids: &[PlayerId]) -> String {
    ids.iter()
        .map(PlayerId::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks shared by both systems: the last round is complete and the event is not over.
fn check_can_pair(t: &Tournament) -> Result<(), PairingError> {
    let played = t.rounds().len();
    if played > 0 && !t.is_round_complete(played) {
        return Err(PairingError::RoundNotComplete(played));
    }
    if let Some(planned) = t.planned_rounds()
        && played >= planned as usize
    {
        return Err(PairingError::AllRoundsPlayed(planned));
    }
    Ok(())
}

/// Pairs the round after the last one, by the tournament's system. `absent` lists players
/// who asked not to be paired this round (Swiss only; a round robin's schedule is fixed,
/// so there it is ignored).
pub fn pair_next_round(t: &Tournament, absent: &[PlayerId]) -> Result<Pairing, PairingError> {
    match t.settings().system {
        System::Swiss => pair_swiss(t, absent),
        System::RoundRobin => pair_round_robin(t),
    }
}
