//! The board: where every piece stands, legal moves and challenges.

use super::challenge::{ChallengeResult, resolve};
use super::piece::{BySide, Piece, Rank, Side};
use super::setup::{SetupError, SideSetup};
use super::square::{Move, SQUARES, Square};

/// Why a move is refused. The position is left untouched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("illegal move {mv}: there is no piece on {}", mv.from)]
    NoPiece { mv: Move },
    #[error("illegal move {mv}: the piece on {} is {owner}'s, and {side} is to move", mv.from)]
    NotYours { mv: Move, side: Side, owner: Side },
    #[error("illegal move {mv}: a piece moves one square forward, backward or sideways")]
    NotAdjacent { mv: Move },
    #[error("illegal move {mv}: {} holds one of {side}'s own pieces", mv.to)]
    OntoOwnPiece { mv: Move, side: Side },
}

/// A challenge as the arbiter sees it. What a player may be told is only which squares
/// were emptied: see [`Challenge::removed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Challenge {
    pub attacker: Piece,
    pub defender: Piece,
    pub result: ChallengeResult,
}

impl Challenge {
    /// Which of the two pieces left the board: (attacker removed, defender removed).
    pub fn removed(&self) -> (bool, bool) {
        match self.result {
            ChallengeResult::AttackerWins => (false, true),
            ChallengeResult::DefenderWins => (true, false),
            ChallengeResult::BothRemoved => (true, true),
        }
    }

    /// The pieces that left the board.
    pub fn losers(&self) -> impl Iterator<Item = Piece> {
        let (a, d) = self.removed();
        [a.then_some(self.attacker), d.then_some(self.defender)]
            .into_iter()
            .flatten()
    }
}

/// The pieces on the board. Validated: built from two legal setups (or by tests).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; SQUARES],
}

impl Position {
    /// An empty board, for tests and diagrams.
    pub fn empty() -> Position {
        Position {
            board: [None; SQUARES],
        }
    }

    /// The starting position from both sides' setups, each checked.
    pub fn from_setups(setups: &BySide<SideSetup>) -> Result<Position, SetupError> {
        let mut position = Position::empty();
        for side in Side::BOTH {
            let setup = &setups[side];
            setup.validate(side)?;
            for &(square, rank) in &setup.placements {
                position.board[square.index()] = Some(Piece { side, rank });
            }
        }
        Ok(position)
    }

    pub fn get(&self, square: Square) -> Option<Piece> {
        self.board[square.index()]
    }

    /// Puts a piece on a square (or clears it). For building test positions and diagrams;
    /// games change the board only through [`Position::play`].
    pub fn set(&mut self, square: Square, piece: Option<Piece>) {
        self.board[square.index()] = piece;
    }

    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|s| self.get(s).map(|p| (s, p)))
    }

    pub fn pieces_of(&self, side: Side) -> impl Iterator<Item = (Square, Rank)> + '_ {
        self.pieces()
            .filter(move |(_, p)| p.side == side)
            .map(|(s, p)| (s, p.rank))
    }

    pub fn count(&self, side: Side) -> usize {
        self.pieces_of(side).count()
    }

    /// Pieces of `side` across the midpoint (White on ranks 5–8, Black on 1–4).
    pub fn count_across(&self, side: Side) -> usize {
        self.pieces_of(side)
            .filter(|(s, _)| side.is_across(s.row()))
            .count()
    }

    /// A piece is attacked when an enemy piece stands orthogonally next to it.
    pub fn is_attacked(&self, square: Square) -> bool {
        match self.get(square) {
            Some(piece) => square
                .neighbours()
                .any(|n| self.get(n).is_some_and(|p| p.side != piece.side)),
            None => false,
        }
    }

    /// Where `side`'s Flag stands, if it is still on the board.
    pub fn flag_square(&self, side: Side) -> Option<Square> {
        self.pieces_of(side)
            .find(|&(_, r)| r == Rank::Flag)
            .map(|(s, _)| s)
    }

    /// Checks a move for `side` without playing it.
    pub fn check_move(&self, side: Side, mv: Move) -> Result<(), MoveError> {
        let piece = self.get(mv.from).ok_or(MoveError::NoPiece { mv })?;
        if piece.side != side {
            return Err(MoveError::NotYours {
                mv,
                side,
                owner: piece.side,
            });
        }
        if !mv.from.is_adjacent(mv.to) {
            return Err(MoveError::NotAdjacent { mv });
        }
        if self.get(mv.to).is_some_and(|p| p.side == side) {
            return Err(MoveError::OntoOwnPiece { mv, side });
        }
        Ok(())
    }

    /// Every legal move of `side`, in square order.
    pub fn legal_moves(&self, side: Side) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        for (from, _) in self.pieces_of(side) {
            for to in from.neighbours() {
                if self.get(to).is_none_or(|p| p.side != side) {
                    moves.push(Move::new(from, to));
                }
            }
        }
        moves
    }

    /// Plays a move for `side`. A move onto an enemy piece is a challenge, resolved here.
    /// On an illegal move the position is unchanged.
    pub fn play(&mut self, side: Side, mv: Move) -> Result<Option<Challenge>, MoveError> {
        self.check_move(side, mv)?;
        Ok(self.play_unchecked(mv))
    }

    fn play_unchecked(&mut self, mv: Move) -> Option<Challenge> {
        let attacker = self.board[mv.from.index()].take()?;
        match self.board[mv.to.index()] {
            None => {
                self.board[mv.to.index()] = Some(attacker);
                None
            }
            Some(defender) => {
                let result = resolve(attacker.rank, defender.rank);
                self.board[mv.to.index()] = match result {
                    ChallengeResult::AttackerWins => Some(attacker),
                    ChallengeResult::DefenderWins => Some(defender),
                    ChallengeResult::BothRemoved => None,
                };
                Some(Challenge {
                    attacker,
                    defender,
                    result,
                })
            }
        }
    }

    /// The board turned round with the armies swapped: White's pieces become Black's on the
    /// mirrored squares and the other way round.
    pub fn mirrored(&self) -> Position {
        let mut out = Position::empty();
        for (s, p) in self.pieces() {
            out.set(
                s.mirror(),
                Some(Piece {
                    side: p.side.opponent(),
                    rank: p.rank,
                }),
            );
        }
        out
    }

    /// An ASCII diagram, rank 8 at the top, for tests and debugging: `W:G5`, `b:...`.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for row in (0..super::square::ROWS).rev() {
            out.push_str(&format!("{} ", row + 1));
            for file in 0..super::square::FILES {
                let cell = Square::new(file, row)
                    .and_then(|s| self.get(s))
                    .map(|p| {
                        let c = if p.side == Side::White { 'w' } else { 'b' };
                        format!("{c}{:<3}", p.rank.code())
                    })
                    .unwrap_or_else(|| " .  ".to_string());
                out.push_str(&cell);
                out.push(' ');
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out.push_str("   a    b    c    d    e    f    g    h    i\n");
        out
    }
}
