//! Setups: any arrangement of one side's pieces (unvalidated), checked against the rules.

use super::piece::{ByRank, Rank, Side};
use super::square::{FILES, Square};

/// One side's arrangement as entered: possibly wrong, checked by [`SideSetup::validate`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct SideSetup {
    pub placements: Vec<(Square, Rank)>,
}

/// What is wrong with a setup. The first fault found is reported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{side} setup puts two pieces on {square}")]
    SquareTwice { side: Side, square: Square },
    #[error("{side} setup puts a piece on {square}, outside {side}'s ranks {ranks}")]
    OutsideHome {
        side: Side,
        square: Square,
        ranks: &'static str,
    },
    #[error("{side} setup has {found} {rank} but a set holds {expected}")]
    WrongCount {
        side: Side,
        rank: Rank,
        expected: usize,
        found: usize,
    },
}

impl SideSetup {
    pub fn new(placements: Vec<(Square, Rank)>) -> SideSetup {
        SideSetup { placements }
    }

    /// The rank on `square`, if the setup places one there.
    pub fn rank_at(&self, square: Square) -> Option<Rank> {
        self.placements
            .iter()
            .find(|(s, _)| *s == square)
            .map(|(_, r)| *r)
    }

    /// How many pieces of each rank the setup places.
    pub fn counts(&self) -> ByRank<u32> {
        ByRank::count(self.placements.iter().map(|(_, rank)| *rank))
    }

    /// Checks the setup for `side`: one piece per square, all on its three ranks, exactly a set.
    pub fn validate(&self, side: Side) -> Result<(), SetupError> {
        let mut seen = [false; super::square::SQUARES];
        for &(square, _) in &self.placements {
            if std::mem::replace(&mut seen[square.index()], true) {
                return Err(SetupError::SquareTwice { side, square });
            }
            if !side.home_rows().contains(&square.row()) {
                let ranks = match side {
                    Side::White => "1-3",
                    Side::Black => "6-8",
                };
                return Err(SetupError::OutsideHome {
                    side,
                    square,
                    ranks,
                });
            }
        }
        for (rank, &found) in self.counts().iter() {
            let (found, expected) = (found as usize, rank.count_in_set());
            if found != expected {
                return Err(SetupError::WrongCount {
                    side,
                    rank,
                    expected,
                    found,
                });
            }
        }
        Ok(())
    }

    /// The same arrangement seen from the other side of the table (for the other army).
    pub fn mirrored(&self) -> SideSetup {
        SideSetup::new(
            self.placements
                .iter()
                .map(|&(s, r)| (s.mirror(), r))
                .collect(),
        )
    }

    /// A legal setup for `side`, placed by a caller-supplied source of randomness
    /// (`pick(n)` returns a number in `0..n`), so this module stays free of IO.
    pub fn random(side: Side, mut pick: impl FnMut(usize) -> usize) -> SideSetup {
        let mut squares: Vec<Square> = side
            .home_rows()
            .flat_map(|row| (0..FILES).filter_map(move |file| Square::new(file, row)))
            .collect();
        // Fisher–Yates shuffle driven by `pick`.
        for i in (1..squares.len()).rev() {
            let j = pick(i + 1).min(i);
            squares.swap(i, j);
        }
        let ranks = Rank::ALL
            .into_iter()
            .flat_map(|r| std::iter::repeat_n(r, r.count_in_set()));
        SideSetup::new(squares.into_iter().zip(ranks).collect())
    }
}
