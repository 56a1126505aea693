//! Sides, ranks and pieces: the vocabulary of the rulebook.

use std::fmt;
use std::str::FromStr;

/// One of the two armies. White sets up on ranks 1–3, Black on ranks 6–8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// The opponent's back rank, where this side's Flag wins by flag through.
    pub fn target_rank(self) -> u8 {
        match self {
            Side::White => 7,
            Side::Black => 0,
        }
    }

    /// The three board rows (0-based) a side sets up on.
    pub fn home_rows(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Side::White => 0..=2,
            Side::Black => 5..=7,
        }
    }

    /// Whether a row (0-based) is across the midpoint for this side.
    pub fn is_across(self, row: u8) -> bool {
        match self {
            Side::White => row >= 4,
            Side::Black => row <= 3,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Side {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "white" => Ok(Side::White),
            "black" => Ok(Side::Black),
            _ => Err(format!(
                "unknown side {s:?} (expected \"white\" or \"black\")"
            )),
        }
    }
}

/// A value for each side, instead of a two-element array indexed by convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct BySide<T> {
    pub white: T,
    pub black: T,
}

impl<T> BySide<T> {
    pub fn new(white: T, black: T) -> Self {
        BySide { white, black }
    }

    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> Self {
        BySide {
            white: f(Side::White),
            black: f(Side::Black),
        }
    }

    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }

    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        }
    }

    pub fn map<U>(self, mut f: impl FnMut(Side, T) -> U) -> BySide<U> {
        BySide {
            white: f(Side::White, self.white),
            black: f(Side::Black, self.black),
        }
    }

    pub fn as_ref(&self) -> BySide<&T> {
        BySide {
            white: &self.white,
            black: &self.black,
        }
    }
}

impl<T> std::ops::Index<Side> for BySide<T> {
    type Output = T;
    fn index(&self, side: Side) -> &T {
        self.get(side)
    }
}

impl<T> std::ops::IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        self.get_mut(side)
    }
}

/// The fifteen ranks of a set, highest officer first, then Private, Spy and Flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rank {
    G5,
    G4,
    G3,
    G2,
    G1,
    Colonel,
    LtColonel,
    Major,
    Captain,
    FirstLt,
    SecondLt,
    Sergeant,
    Private,
    Spy,
    Flag,
}

impl Rank {
    /// Every rank, in the order of the rulebook's table.
    pub const ALL: [Rank; 15] = [
        Rank::G5,
        Rank::G4,
        Rank::G3,
        Rank::G2,
        Rank::G1,
        Rank::Colonel,
        Rank::LtColonel,
        Rank::Major,
        Rank::Captain,
        Rank::FirstLt,
        Rank::SecondLt,
        Rank::Sergeant,
        Rank::Private,
        Rank::Spy,
        Rank::Flag,
    ];

    /// Pieces in a set: 21 in all.
    pub const SET_SIZE: usize = 21;

    /// The code used in records, CSV and the database.
    pub fn code(self) -> &'static str {
        match self {
            Rank::G5 => "G5",
            Rank::G4 => "G4",
            Rank::G3 => "G3",
            Rank::G2 => "G2",
            Rank::G1 => "G1",
            Rank::Colonel => "COL",
            Rank::LtColonel => "LTC",
            Rank::Major => "MAJ",
            Rank::Captain => "CPT",
            Rank::FirstLt => "1LT",
            Rank::SecondLt => "2LT",
            Rank::Sergeant => "SGT",
            Rank::Private => "PVT",
            Rank::Spy => "SPY",
            Rank::Flag => "FLG",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rank::G5 => "Five-Star General",
            Rank::G4 => "Four-Star General",
            Rank::G3 => "Three-Star General",
            Rank::G2 => "Two-Star General",
            Rank::G1 => "One-Star General",
            Rank::Colonel => "Colonel",
            Rank::LtColonel => "Lieutenant Colonel",
            Rank::Major => "Major",
            Rank::Captain => "Captain",
            Rank::FirstLt => "First Lieutenant",
            Rank::SecondLt => "Second Lieutenant",
            Rank::Sergeant => "Sergeant",
            Rank::Private => "Private",
            Rank::Spy => "Spy",
            Rank::Flag => "Flag",
        }
    }

    /// How many of this rank a set holds.
    pub fn count_in_set(self) -> usize {
        match self {
            Rank::Private => 6,
            Rank::Spy => 2,
            _ => 1,
        }
    }

    /// The Aliwalas value in exact hundredths.
    pub fn aliwalas_value(self) -> i64 {
        match self {
            Rank::G5 => 780,
            Rank::G4 => 695,
            Rank::G3 => 615,
            Rank::G2 => 540,
            Rank::G1 => 470,
            Rank::Colonel => 405,
            Rank::LtColonel => 345,
            Rank::Major => 290,
            Rank::Captain => 240,
            Rank::FirstLt => 195,
            Rank::SecondLt => 155,
            Rank::Sergeant => 120,
            Rank::Private => 137,
            Rank::Spy => 750,
            Rank::Flag => 0,
        }
    }

    pub fn from_code(code: &str) -> Option<Rank> {
        Rank::ALL.into_iter().find(|r| r.code() == code)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Rank {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rank::from_code(s).ok_or_else(|| format!("unknown piece code {s:?}"))
    }
}

/// A value for each of the fifteen ranks, instead of an array indexed by `rank.index()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByRank<T>([T; 15]);

impl<T> ByRank<T> {
    pub fn from_fn(mut f: impl FnMut(Rank) -> T) -> Self {
        ByRank(Rank::ALL.map(&mut f))
    }

    /// Each rank with its value, in the order of the rulebook's table.
    pub fn iter(&self) -> impl Iterator<Item = (Rank, &T)> {
        Rank::ALL.into_iter().zip(self.0.iter())
    }
}

impl ByRank<u32> {
    /// How many of each rank a full set holds.
    pub fn full_set() -> Self {
        ByRank::from_fn(|r| r.count_in_set() as u32)
    }

    /// How many of each rank `ranks` names.
    pub fn count(ranks: impl IntoIterator<Item = Rank>) -> Self {
        let mut counts = ByRank::default();
        for rank in ranks {
            counts[rank] += 1;
        }
        counts
    }

    pub fn total(&self) -> u32 {
        self.0.iter().sum()
    }
}

impl<T> std::ops::Index<Rank> for ByRank<T> {
    type Output = T;
    fn index(&self, rank: Rank) -> &T {
        &self.0[rank as usize]
    }
}

impl<T> std::ops::IndexMut<Rank> for ByRank<T> {
    fn index_mut(&mut self, rank: Rank) -> &mut T {
        &mut self.0[rank as usize]
    }
}

/// A piece on the board: whose it is and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub rank: Rank,
}
