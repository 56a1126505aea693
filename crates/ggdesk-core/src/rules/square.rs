//! Squares of the 9 × 8 board, written file then rank (`e4`).

use std::fmt;
use std::str::FromStr;

/// Files `a`–`i`.
pub const FILES: u8 = 9;
/// Ranks `1`–`8`.
pub const ROWS: u8 = 8;
/// 72 squares.
pub const SQUARES: usize = (FILES as usize) * (ROWS as usize);

/// A square of the board. Index = row × 9 + file, both 0-based, so `a1` is 0 and `i8` is 71.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub fn new(file: u8, row: u8) -> Option<Square> {
        (file < FILES && row < ROWS).then_some(Square(row * FILES + file))
    }

    pub fn from_index(index: usize) -> Option<Square> {
        (index < SQUARES).then_some(Square(index as u8))
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (`a` = 0).
    pub fn file(self) -> u8 {
        self.0 % FILES
    }

    /// 0-based row (rank `1` = 0).
    pub fn row(self) -> u8 {
        self.0 / FILES
    }

    /// The square seen from the other side of the table: both file and rank reversed.
    pub fn mirror(self) -> Square {
        Square(SQUARES as u8 - 1 - self.0)
    }

    /// The orthogonal neighbours that are on the board.
    pub fn neighbours(self) -> impl Iterator<Item = Square> {
        let (f, r) = (self.file() as i8, self.row() as i8);
        [(0i8, 1i8), (0, -1), (-1, 0), (1, 0)]
            .into_iter()
            .filter_map(move |(df, dr)| {
                let (nf, nr) = (f + df, r + dr);
                if (0..FILES as i8).contains(&nf) && (0..ROWS as i8).contains(&nr) {
                    Square::new(nf as u8, nr as u8)
                } else {
                    None
                }
            })
    }

    pub fn is_adjacent(self, other: Square) -> bool {
        let df = (self.file() as i8 - other.file() as i8).abs();
        let dr = (self.row() as i8 - other.row() as i8).abs();
        df + dr == 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.row() + 1)
    }
}

impl FromStr for Square {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let b = s.as_bytes();
        if b.len() == 2 && (b'a'..=b'i').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
            Ok(Square(((b[1] - b'1') * FILES) + (b[0] - b'a')))
        } else {
            Err(format!("{s:?} is not a square (files a-i, ranks 1-8)"))
        }
    }
}

/// One step of one piece, from a square to an orthogonal neighbour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    pub fn mirror(self) -> Move {
        Move::new(self.from.mirror(), self.to.mirror())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl FromStr for Move {
    type Err = String;
    /// Exactly `FROM-TO`, as records write it (`e3-e4`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (a, b) = s
            .split_once('-')
            .ok_or_else(|| format!("{s:?} is not a move (write it FROM-TO, like e3-e4)"))?;
        Ok(Move::new(a.parse()?, b.parse()?))
    }
}

impl Move {
    /// A move as an arbiter types it: blanks around, upper case and `e3e4` are accepted.
    pub fn parse_typed(s: &str) -> Result<Move, String> {
        let t: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        if t.len() == 4 && t.is_ascii() && !t.contains('-') {
            return format!("{}-{}", &t[..2], &t[2..]).parse();
        }
        t.parse()
    }
}
