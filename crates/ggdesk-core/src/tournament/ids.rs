//! Typed identities of a tournament's places: a round's number, a table's number, a board's
//! place in its round, a stage's number. Each is counted from 1, as the director and the
//! files count them; none is an index. And the identities of what the desk keeps: a
//! tournament, a game, a registry player, a penalty (the keys the database gives them).

use std::fmt;

macro_rules! number {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            /// The number after this one (saturating: no file reaches `u32::MAX`).
            pub fn next(self) -> $name {
                $name(self.0.saturating_add(1))
            }

            /// The number of the `index`-th (from 0) of a list.
            pub fn from_index(index: usize) -> $name {
                $name(u32::try_from(index).map_or(u32::MAX, |i| i.saturating_add(1)))
            }

            /// The place of this number in a list counted from 0 (`None` for 0).
            pub fn index(self) -> Option<usize> {
                usize::try_from(self.0).ok()?.checked_sub(1)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

number!(
    /// A round's number in its tournament or stage, from 1.
    RoundNo
);
number!(
    /// A table's number in a round, from 1 (what the players look for in the hall).
    TableNo
);
number!(
    /// A board's place in its round, from 1: the key for its result and for swaps (two
    /// boards may share a table number in an imported file; never two places).
    BoardNo
);
number!(
    /// A stage's number in its event, from 1.
    StageNo
);

macro_rules! key {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize,
            serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

key!(
    /// A tournament kept by the desk.
    TournamentId
);
key!(
    /// A game kept by the desk (arbitrated at a table, logged from a physical board, or
    /// imported).
    GameId
);
key!(
    /// A player of the registry shared by every tournament.
    RegistryId
);
key!(
    /// A penalty deduction decided by the director.
    PenaltyId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_count_from_one() {
        assert_eq!(RoundNo::from_index(0), RoundNo(1));
        assert_eq!(RoundNo(3).index(), Some(2));
        assert_eq!(RoundNo(0).index(), None);
        assert_eq!(TableNo(4).next(), TableNo(5));
        assert_eq!(BoardNo(7).to_string(), "7");
    }
}
