//! Board prizes: for each board, every player who played on it in the team-match and
//! board-group stages (forfeits count as games, byes do not), by exact percentage, then
//! games (more first), then rating, then lowest id.

use super::model::{TeamEvent, TeamId, TeamSystem};
use super::score::board_points;
use crate::rules::Side;
use crate::tournament::file::score_value;
use crate::tournament::{PlayerId, Score};
use serde_json::{Value, json};
use std::cmp::Ordering;

/// One player's line under a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardPrizeRow {
    pub id: PlayerId,
    pub name: String,
    pub team: Option<TeamId>,
    pub games: u32,
    pub points: Score,
    /// The percentage in hundredths of a percent, rounded half up (8000 is 80%).
    pub percentage_cents: i64,
}

/// Per board (from 1), its players in prize order.
pub type BoardPrizes = Vec<(usize, Vec<BoardPrizeRow>)>;

/// `[{"board": 1, "players": [{"id", "name", "team", "games", "points", "percentage"}]}]`.
pub fn board_prizes_json(prizes: &BoardPrizes) -> Value {
    Value::Array(
        prizes
            .iter()
            .map(|(board, rows)| {
                let players: Vec<Value> = rows
                    .iter()
                    .map(|r| {
                        json!({"id": r.id.0, "name": r.name, "team": r.team.map(|t| t.0),
                               "games": r.games, "points": score_value(r.points),
                               "percentage": percentage_value(r.percentage_cents)})
                    })
                    .collect();
                json!({"board": board, "players": players})
            })
            .collect(),
    )
}

/// The printed percentage: the only float, rounded to two decimals.
fn percentage_value(cents: i64) -> Value {
    if cents % 100 == 0 {
        json!(cents / 100)
    } else {
        json!(cents as f64 / 100.0)
    }
}

/// points ÷ (games × win) × 100, in hundredths, rounded half up.
fn percentage_cents(points: Score, games: u32, win: Score) -> i64 {
    let den = i128::from(games) * i128::from(win.halves());
    if den <= 0 {
        return 0;
    }
    let num = i128::from(points.halves()) * 10_000;
    i64::try_from((2 * num + den) / (2 * den)).unwrap_or(i64::MAX)
}

impl TeamEvent {
    /// The board prizes of the event.
    pub fn board_prizes(&self) -> BoardPrizes {
        let b_count = self.settings.boards;
        // (board, player, games, points) in the order met.
        let mut tally: Vec<(usize, PlayerId, u32, Score)> = Vec::new();
        let mut count = |board: usize, p: PlayerId, points: Score| match tally
            .iter_mut()
            .find(|t| t.0 == board && t.1 == p)
        {
            Some(t) => {
                t.2 += 1;
                t.3 += points;
            }
            None => tally.push((board, p, 1, points)),
        };
        for stage in self
            .stages
            .iter()
            .filter(|s| s.system != TeamSystem::Scheveningen)
        {
            for round in &stage.rounds {
                for m in &round.matches {
                    for (b, g) in m.boards.iter().enumerate() {
                        for (p, side) in [(g.white, Side::White), (g.black, Side::Black)] {
                            if let (Some(p), Some(points)) =
                                (p, board_points(&self.points, g.result, side))
                            {
                                count(b + 1, p, points);
                            }
                        }
                    }
                }
                for g in &round.games {
                    let Some(board) = g.board else { continue };
                    for (p, side) in [(g.white, Side::White), (g.black, Side::Black)] {
                        if let Some(points) = board_points(&self.points, g.result, side) {
                            count(board, p, points);
                        }
                    }
                }
            }
        }
        let win = self.points.win;
        (1..=b_count)
            .map(|board| {
                let mut rows: Vec<BoardPrizeRow> = tally
                    .iter()
                    .filter(|t| t.0 == board)
                    .map(|&(_, id, games, points)| BoardPrizeRow {
                        id,
                        name: self.player(id).map(|p| p.name.clone()).unwrap_or_default(),
                        team: self.team_of(id),
                        games,
                        points,
                        percentage_cents: percentage_cents(points, games, win),
                    })
                    .collect();
                let rating = |id: PlayerId| self.player(id).map_or(0, |p| p.rating);
                rows.sort_by(|a, b| {
                    // points_a / games_a against points_b / games_b, exactly.
                    let lhs = i128::from(b.points.halves()) * i128::from(a.games);
                    let rhs = i128::from(a.points.halves()) * i128::from(b.games);
                    lhs.cmp(&rhs)
                        .then(b.games.cmp(&a.games))
                        .then(rating(b.id).cmp(&rating(a.id)))
                        .then(a.id.cmp(&b.id))
                        .then(Ordering::Equal)
                });
                (board, rows)
            })
            .collect()
    }
}
