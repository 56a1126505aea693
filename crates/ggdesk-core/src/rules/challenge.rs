//! Challenge resolution, in the order `RULES.md` gives it.

use super::piece::Rank;

/// What happens when an attacker moves onto a defender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChallengeResult {
    AttackerWins,
    DefenderWins,
    BothRemoved,
}

/// Resolves attacker `a` against defender `d`.
pub fn resolve(a: Rank, d: Rank) -> ChallengeResult {
    use ChallengeResult::*;
    // 1. Anything that attacks the Flag takes it, the enemy Flag included.
    if d == Rank::Flag {
        return AttackerWins;
    }
    // 2. A Flag that attacks anything else loses.
    if a == Rank::Flag {
        return DefenderWins;
    }
    // 3. Equal ranks remove each other.
    if a == d {
        return BothRemoved;
    }
    match (a, d) {
        // 4. The Private takes the Spy, whichever attacks.
        (Rank::Spy, Rank::Private) => DefenderWins,
        (Rank::Private, Rank::Spy) => AttackerWins,
        // 5. The Spy takes every officer and the Sergeant.
        (Rank::Spy, _) => AttackerWins,
        (_, Rank::Spy) => DefenderWins,
        // 6. Otherwise the higher rank wins; `Rank` is declared highest first.
        _ if a < d => AttackerWins,
        _ => DefenderWins,
    }
}
