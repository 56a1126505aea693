//! The tournament rules the desk's pages ask about, decided here once instead of being
//! recomputed by each page: whether the next round can be paired, and when a round's grace
//! period ends (the tournament's setting, never a default).

use super::db::{Optional, args};
use super::tournaments::{load, read_setup};
use super::{Result, Store, StoreError, TournamentId};
use ggdesk_core::event as lifecycle;
use ggdesk_core::tournament::RoundNo;

/// Where a tournament stands for pairing its next round: the core's
/// [`ggdesk_core::tournament::NextRound`] with plain round numbers, as the desk's pages
/// take them.
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

impl From<lifecycle::NextRound> for NextRound {
    fn from(n: lifecycle::NextRound) -> NextRound {
        use lifecycle::NextRound as N;
        match n {
            N::Ready(r) => NextRound::Ready(r.0),
            N::TooFewPlayers => NextRound::TooFewPlayers,
            N::DraftWaiting(r) => NextRound::DraftWaiting(r.0),
            N::InPlay(r) => NextRound::InPlay(r.0),
            N::AllPlayed => NextRound::AllPlayed,
        }
    }
}

impl Store {
    /// Whether the next round of a tournament can be paired, and if not, why (decided by
    /// the core's `next_round`).
    pub fn next_round(&self, tid: TournamentId) -> Result<NextRound> {
        let rounds = self.rounds_of(tid)?;
        let t = self.read(|q| load(q, tid))?;
        let last = rounds.last().map(|r| (RoundNo(r.number), r.state));
        Ok(lifecycle::next_round(&t, last).into())
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
