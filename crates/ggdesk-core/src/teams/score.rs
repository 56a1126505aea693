//! Scoring a match: each board a game of `tournament.md`'s points (an empty side is a
//! forfeit loss), game points the sum of a team's boards, the match won by more game
//! points. A board still pending leaves the match counting nothing.

use super::model::{MatchPoints, TeamMatch};
use crate::rules::Side;
use crate::tournament::{Entry, GameOutcome, GameResult, PointsScale, Score};

/// The points of one side of a board (`None` while it is pending).
pub fn board_points(points: &PointsScale, result: GameResult, side: Side) -> Option<Score> {
    let outcome = result.outcome_for(side);
    if outcome == GameOutcome::Pending {
        return None;
    }
    Some(points.points(&Entry::Game {
        opponent: crate::tournament::PlayerId(0),
        colour: side,
        outcome,
    }))
}

/// A match's result for the home team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchResult {
    HomeWins,
    AwayWins,
    Drawn,
    /// A board is still pending: the match counts nothing yet.
    Pending,
}

impl MatchResult {
    /// The team image's game result (white = home).
    pub fn as_game(self) -> GameResult {
        match self {
            MatchResult::HomeWins => GameResult::WhiteWins,
            MatchResult::AwayWins => GameResult::BlackWins,
            MatchResult::Drawn => GameResult::Draw,
            MatchResult::Pending => GameResult::Pending,
        }
    }
}

/// What a match scored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchScore {
    pub result: MatchResult,
    /// Per board (from 0), the home team's and the away team's points (`None` pending).
    pub boards: Vec<Option<(Score, Score)>>,
    /// Game points of home and away (finished boards only).
    pub game_points: (Score, Score),
    /// Match points of home and away (zero while pending).
    pub match_points: (Score, Score),
}

impl MatchScore {
    pub fn of(m: &TeamMatch, points: &PointsScale, mp: &MatchPoints) -> MatchScore {
        let boards: Vec<Option<(Score, Score)>> = m
            .boards
            .iter()
            .enumerate()
            .map(|(b, g)| {
                let w = board_points(points, g.result, Side::White)?;
                let k = board_points(points, g.result, Side::Black)?;
                Some(if b.is_multiple_of(2) { (w, k) } else { (k, w) })
            })
            .collect();
        let home: Score = boards.iter().flatten().map(|p| p.0).sum();
        let away: Score = boards.iter().flatten().map(|p| p.1).sum();
        let result = if boards.iter().any(Option::is_none) {
            MatchResult::Pending
        } else if home > away {
            MatchResult::HomeWins
        } else if away > home {
            MatchResult::AwayWins
        } else {
            MatchResult::Drawn
        };
        let match_points = match result {
            MatchResult::HomeWins => (mp.win, mp.loss),
            MatchResult::AwayWins => (mp.loss, mp.win),
            MatchResult::Drawn => (mp.draw, mp.draw),
            MatchResult::Pending => (Score::ZERO, Score::ZERO),
        };
        MatchScore {
            result,
            boards,
            game_points: (home, away),
            match_points,
        }
    }
}
