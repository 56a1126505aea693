//! What a player may see: the board with every piece face down. A separate type that holds
//! no rank at all, so nothing drawn from it can reveal one.

use super::game::{Game, GameState};
use super::piece::{BySide, Side};
use super::square::{SQUARES, Square};

/// The board as the players see it: which side stands on each square, nothing more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerView {
    cells: [Option<Side>; SQUARES],
    pub to_move: Side,
    pub plies: u32,
    pub pieces: BySide<usize>,
    pub oversteps: BySide<u32>,
    pub paused: bool,
    /// The result, once the game is over: winner (None for a draw) and the reason code.
    pub finished: Option<(Option<Side>, &'static str)>,
}

impl PlayerView {
    pub fn of(game: &Game) -> PlayerView {
        let mut cells = [None; SQUARES];
        let mut pieces = BySide::<usize>::default();
        for (square, piece) in game.position().pieces() {
            cells[square.index()] = Some(piece.side);
            pieces[piece.side] += 1;
        }
        let finished = match game.state() {
            GameState::Playing => None,
            GameState::Finished { outcome, .. } => {
                Some((outcome.winner(), outcome.reason().code()))
            }
            GameState::AdjudicationPending { .. } => Some((None, "game_time")),
            GameState::ThirtyCountPending { .. } => Some((None, "thirty_moves")),
        };
        PlayerView {
            cells,
            to_move: game.to_move(),
            plies: game.plies(),
            pieces,
            oversteps: game.clock().oversteps(),
            paused: game.clock().is_paused(),
            finished,
        }
    }

    /// Which side's piece stands on a square, if any.
    pub fn occupant(&self, square: Square) -> Option<Side> {
        self.cells[square.index()]
    }
}
