//! Standings: players ranked by score, then by the tie-breaks in the order of the settings,
//! with shared ranks, after the last round or any earlier one. Exact: half-points and
//! rationals.
//!
//! For player P, each of P's rounds is a game against a real opponent (played or
//! forfeited) or unplayed (bye, absence, a round before P entered). The *opponent value*
//! of a round is P's own final score for an unplayed round or a forfeited game (the dummy
//! opponent of FIDE's 2023 tie-break rules) and the opponent's final score otherwise. A
//! game still pending (a round in play) counts for nothing until it has a result: no
//! points, and its round is left out of both players' rounds for every tie-break (it is
//! neither a game against an opponent nor an unplayed round). Final scores include
//! penalties.

use crate::tournament::{Entry, GameOutcome, PlayerId, Ratio, Score, TieBreak, Tournament};
use std::cmp::Ordering;
use std::collections::HashMap;

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandingRow {
    /// Shared by players equal on score and every tie-break (1, 2, 2, 4).
    pub rank: u32,
    pub id: PlayerId,
    pub name: String,
    pub rating: i64,
    /// Penalties included.
    pub score: Score,
    /// One value per tie-break of [`Standings::tiebreaks`], in that order.
    pub tiebreaks: Vec<Ratio>,
}

/// The standings after some round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standings {
    /// The rounds counted (1..=after_round).
    pub after_round: usize,
    pub tiebreaks: Vec<TieBreak>,
    /// In rank order; within a shared rank by rating (highest first), then id.
    pub rows: Vec<StandingRow>,
}

impl Standings {
    /// The value of a tie-break in a row, if the standings have it.
    pub fn value(&self, row: &StandingRow, tiebreak: TieBreak) -> Option<Ratio> {
        let i = self.tiebreaks.iter().position(|t| *t == tiebreak)?;
        row.tiebreaks.get(i).copied()
    }

    /// The spec's JSON: a list of rows with the keys `rank`, `id`, `name`, `rating`,
    /// `score` and one per tie-break, numbers in plain decimal. One row per line.
    pub fn to_json(&self) -> String {
        let mut out = String::from("[");
        for (n, row) in self.rows.iter().enumerate() {
            out.push_str(if n == 0 { "\n" } else { ",\n" });
            out.push_str(&format!(
                "{{\"rank\":{},\"id\":{},\"name\":{},\"rating\":{},\"score\":{}",
                row.rank,
                row.id,
                serde_json::to_string(&row.name).unwrap_or_else(|_| "\"\"".into()),
                row.rating,
                row.score
            ));
            for (tb, v) in self.tiebreaks.iter().zip(&row.tiebreaks) {
                out.push_str(&format!(",\"{}\":{}", tb.name(), v));
            }
            out.push('}');
        }
        out.push_str(if self.rows.is_empty() { "]" } else { "\n]" });
        out
    }
}

/// What the tie-breaks need to know about each player, computed once.
struct Sheet {
    /// Final score (penalties included).
    score: Vec<Score>,
    /// Per player, per round: points scored.
    points: Vec<Vec<Score>>,
    /// Per player, per round: the opponent value (see the module docs), in half-points.
    opponent_value: Vec<Vec<i64>>,
    /// Per player: games won over the board.
    wins: Vec<i64>,
    /// Per player: games won by forfeit.
    forfeit_wins: Vec<i64>,
    /// Per player: over-the-board opponents (player index) and P's points against them,
    /// summed over every game they played.
    played: Vec<HashMap<usize, Score>>,
}

fn sheet(t: &Tournament, after_round: usize) -> Sheet {
    // A pending game's round is left out of the player's rounds altogether.
    let entries: Vec<Vec<Entry>> = t
        .entries(after_round)
        .into_iter()
        .map(|row| row.into_iter().filter(|e| !is_pending(e)).collect())
        .collect();
    let scale = &t.settings().points;
    let points: Vec<Vec<Score>> = entries
        .iter()
        .map(|row| row.iter().map(|e| scale.points(e)).collect())
        .collect();
    let mut score: Vec<Score> = points.iter().map(|row| row.iter().copied().sum()).collect();
    for p in t.penalties() {
        if let Some(i) = t.player_index(p.player) {
            score[i] -= p.points;
        }
    }
    let mut opponent_value = Vec::with_capacity(entries.len());
    let mut wins = Vec::with_capacity(entries.len());
    let mut forfeit_wins = Vec::with_capacity(entries.len());
    let mut played = Vec::with_capacity(entries.len());
    for (i, row) in entries.iter().enumerate() {
        let mut values = Vec::with_capacity(row.len());
        let mut w = 0;
        let mut fw = 0;
        let mut met: HashMap<usize, Score> = HashMap::new();
        for (r, e) in row.iter().enumerate() {
            // The opponent whose score counts: a game played over the board.
            let opponent = match e {
                Entry::Game {
                    opponent, outcome, ..
                } if outcome.is_played() => t.player_index(*opponent),
                _ => None,
            };
            match opponent {
                Some(o) => {
                    values.push(score[o].halves());
                    *met.entry(o).or_default() += points[i][r];
                }
                None => values.push(score[i].halves()),
            }
            if matches!(
                e,
                Entry::Game {
                    outcome: GameOutcome::Win,
                    ..
                }
            ) {
                w += 1;
            }
            if matches!(
                e,
                Entry::Game {
                    outcome: GameOutcome::ForfeitWin,
                    ..
                }
            ) {
                fw += 1;
            }
        }
        opponent_value.push(values);
        wins.push(w);
        forfeit_wins.push(fw);
        played.push(met);
    }
    Sheet {
        score,
        points,
        opponent_value,
        wins,
        forfeit_wins,
        played,
    }
}

fn is_pending(e: &Entry) -> bool {
    matches!(
        e,
        Entry::Game {
            outcome: GameOutcome::Pending,
            ..
        }
    )
}

/// A tie-break that depends on nothing but the player's own rounds (all but
/// `direct_encounter`).
fn own_value(t: &Tournament, s: &Sheet, i: usize, tb: TieBreak) -> Ratio {
    let values = &s.opponent_value[i];
    // Sums in i128: no file can make them overflow.
    let sum: i128 = values.iter().map(|&v| i128::from(v)).sum();
    let half = |h: i128| Ratio::new(h, 2);
    match tb {
        TieBreak::Buchholz => half(sum),
        TieBreak::BuchholzCut1 => half(sum - values.iter().min().copied().map_or(0, i128::from)),
        TieBreak::MedianBuchholz => {
            let (lo, hi) = match (values.iter().min(), values.iter().max()) {
                (Some(&lo), Some(&hi)) if values.len() >= 2 => (lo, hi),
                // One round: its value is both the highest and the lowest.
                (Some(&lo), Some(_)) => (lo, 0),
                _ => (0, 0),
            };
            half(sum - i128::from(lo) - i128::from(hi))
        }
        TieBreak::SonnebornBerger => {
            let win = t.settings().points.win.halves();
            if win == 0 {
                // Points divided by a win worth nothing: defined as 0 rather than refused.
                return Ratio::ZERO;
            }
            let total: i128 = values
                .iter()
                .zip(&s.points[i])
                .map(|(&v, p)| i128::from(v) * i128::from(p.halves()))
                .sum();
            // value/2 × points/2 ÷ (win/2), in points.
            Ratio::new(total, 2 * i128::from(win))
        }
        TieBreak::Progressive => {
            let mut running = 0i128;
            let mut total = 0i128;
            for p in &s.points[i] {
                running += i128::from(p.halves());
                total += running;
            }
            half(total)
        }
        TieBreak::Wins => Ratio::integer(s.wins[i]),
        TieBreak::FewestForfeitWins => Ratio::integer(-s.forfeit_wins[i]),
        TieBreak::DirectEncounter => Ratio::ZERO,
    }
}

/// `direct_encounter` for one group of players tied on everything before it.
fn direct_encounter(s: &Sheet, group: &[usize], rounds: usize, out: &mut [Ratio]) {
    if group.len() < 2 || group.len() - 1 > rounds {
        // Alone, nothing to count; more players than a player has rounds, they cannot all
        // have met.
        for &i in group {
            out[i] = Ratio::ZERO;
        }
        return;
    }
    let all_met = group
        .iter()
        .enumerate()
        .all(|(n, &a)| group[n + 1..].iter().all(|b| s.played[a].contains_key(b)));
    for &i in group {
        out[i] = if all_met {
            let total: Score = group
                .iter()
                .filter_map(|o| s.played[i].get(o).copied())
                .sum();
            total.to_ratio()
        } else {
            Ratio::ZERO
        };
    }
}

/// The standings counting rounds 1..=`after_round` (use `t.rounds().len()` for the final
/// standings). Every player is ranked, withdrawn ones included.
pub fn standings(t: &Tournament, after_round: usize) -> Standings {
    let after_round = after_round.min(t.rounds().len());
    let tiebreaks = t.settings().tiebreaks.clone();
    let s = sheet(t, after_round);
    let n = t.players().len();
    let mut values: Vec<Vec<Ratio>> = tiebreaks
        .iter()
        .map(|&tb| (0..n).map(|i| own_value(t, &s, i, tb)).collect())
        .collect();

    // Compares players on score and on the first `k` tie-breaks, best first.
    let key_cmp = |values: &Vec<Vec<Ratio>>, k: usize, a: usize, b: usize| -> Ordering {
        s.score[b].cmp(&s.score[a]).then_with(|| {
            values[..k]
                .iter()
                .map(|col| col[b].cmp(&col[a]))
                .find(|o| o.is_ne())
                .unwrap_or(Ordering::Equal)
        })
    };

    for (k, &tb) in tiebreaks.iter().enumerate() {
        if tb != TieBreak::DirectEncounter {
            continue;
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| key_cmp(&values, k, a, b));
        let mut column = vec![Ratio::ZERO; n];
        let mut start = 0;
        while start < n {
            let mut end = start + 1;
            while end < n && key_cmp(&values, k, order[start], order[end]).is_eq() {
                end += 1;
            }
            direct_encounter(&s, &order[start..end], after_round, &mut column);
            start = end;
        }
        values[k] = column;
    }

    let players = t.players();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        key_cmp(&values, tiebreaks.len(), a, b)
            .then_with(|| players[b].rating.cmp(&players[a].rating))
            .then_with(|| players[a].id.cmp(&players[b].id))
    });
    let mut rows = Vec::with_capacity(n);
    let mut rank = 1;
    for (pos, &i) in order.iter().enumerate() {
        if pos > 0 && key_cmp(&values, tiebreaks.len(), order[pos - 1], i).is_ne() {
            rank = u32::try_from(pos + 1).unwrap_or(u32::MAX);
        }
        let p = &players[i];
        rows.push(StandingRow {
            rank,
            id: p.id,
            name: p.name.clone(),
            rating: p.rating,
            score: s.score[i],
            tiebreaks: values.iter().map(|col| col[i]).collect(),
        });
    }
    Standings {
        after_round,
        tiebreaks,
        rows,
    }
}
