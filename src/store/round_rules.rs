//! The tournament rules the desk's pages ask about, decided here once instead of being
//! recomputed by each page: whether the next round can be paired, and when a round's grace
//! period ends (the tournament's setting, never a default).

use super::db::{Optional, args};
use super::rounds::RoundState;
use super::tournaments::{load, read_setup};
use super::{Result, Store, StoreError, TournamentId};

/// Where a tournament stands for pairing its next round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextRound {
    /// Round `n` can be paired now.
    Ready(u32),
    /// Fewer than two players are registered.
    TooFewPlayers,
    /// The draft of round `n` waits: publish or discard it first.
    DraftWaiting(u32),
    /// Round `n` is in play: some of its results are not in.
    InPlay(u32),
    /// Every planned round has been paired.
    AllPlayed,
}

impl Store {
    /// Whether the next round of a tournament can be paired, and if not, why.
    pub fn next_round(&self, tid: TournamentId) -> Result<NextRound> {
        let rounds = self.rounds_of(tid)?;
        let t = self.read(|q| load(q, tid))?;
        let Some(last) = rounds.last() else {
            return Ok(if t.players().len() >= 2 {
                NextRound::Ready(1)
            } else {
                NextRound::TooFewPlayers
            });
        };
        if last.state == RoundState::Draft {
            return Ok(NextRound::DraftWaiting(last.number));
        }
        if t.planned_rounds().is_some_and(|p| last.number >= p) {
            return Ok(NextRound::AllPlayed);
        }
        if !t.is_round_complete(t.rounds().len()) {
            return Ok(NextRound::InPlay(last.number));
        }
        Ok(NextRound::Ready(last.number + 1))
    }

    /// When a round's grace period ends (Unix ms): its official start plus the tournament's
    /// grace period. `None` while the round has no official start.
    pub fn grace_ends_at(&self, tid: TournamentId, round: u32) -> Result<Option<i64>> {
        let starts_at: Option<i64> = self
            .read(|q| {
                q.query_row(
                    "SELECT starts_at FROM rounds WHERE tournament_id = ?1 AND number = ?2",
                    args![tid, round],
                    |r| r.get(0),
                )
                .optional()
            })?
            .ok_or_else(|| StoreError::NotFound(format!("round {round} of tournament {tid}")))?;
        let grace_ms = self.read(|q| read_setup(q, tid))?.rules.grace_ns / 1_000_000;
        Ok(starts_at.map(|s| s.saturating_add(grace_ms)))
    }
}
