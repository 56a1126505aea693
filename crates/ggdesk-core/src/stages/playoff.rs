//! Playoffs at a cut: the players who share the rank across a stage's cut play off until
//! the cut is clear. Two players play single games (the higher seed white first, colours
//! alternating) until one is won; three or more play one round robin (Berger order by
//! seed); players still level on playoff points across the cut play again among
//! themselves, and so on. A later round robin orders only the players who were still
//! level: points of different round robins never add up.

use crate::pairing::berger_round;
use crate::rules::Side;
use crate::tournament::{GameResult, PlayerId, PointsScale, Score};

/// One playoff game as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayedOff {
    pub white: PlayerId,
    pub black: PlayerId,
    pub result: GameResult,
}

/// Where a group's playoff stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playoff {
    /// The tied players in their playoff order so far: their points in the first playoff
    /// round robin (or game), then among those still level their points in the next, and so
    /// on (highest first), then their earlier order (their seed).
    pub order: Vec<PlayerId>,
    /// Each tied player's points in each playoff round robin (or sudden-death game) played,
    /// in `order`; a player placed before a later one has 0 there (never compared).
    pub points: Vec<Vec<Score>>,
    pub state: PlayoffState,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayoffState {
    /// The cut is clear: `order` is final.
    Clear,
    /// These games (white, black) are to be played next.
    Next(Vec<(PlayerId, PlayerId)>),
    /// A game recorded without a result must be decided before the playoff can go on.
    Waiting,
}

/// Why a recorded playoff game does not fit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayoffFault {
    #[error("{white} against {black} is not a playoff game now (expected {})", pairs(.expected))]
    NotExpected {
        white: PlayerId,
        black: PlayerId,
        expected: Vec<(PlayerId, PlayerId)>,
    },
    #[error("the playoff is over: the cut is clear")]
    Over,
    #[error("who plays off next depends on a playoff game without a result before this one")]
    AfterPending,
}

fn pairs(list: &[(PlayerId, PlayerId)]) -> String {
    if list.is_empty() {
        return "none".into();
    }
    list.iter()
        .map(|(a, b)| format!("{a}-{b}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The games of one round robin among `players` (in seed order), round by round.
fn round_robin(players: &[PlayerId]) -> Vec<Vec<(PlayerId, PlayerId)>> {
    let n = players.len();
    let numbers = u32::try_from(n + n % 2).unwrap_or(0);
    (1..numbers)
        .map(|r| {
            berger_round(numbers, r)
                .into_iter()
                .filter_map(|(w, b)| {
                    let at = |x: u32| players.get(usize::try_from(x).ok()?.checked_sub(1)?);
                    Some((*at(w)?, *at(b)?))
                })
                .collect()
        })
        .collect()
}

fn points_of(points: &PointsScale, result: GameResult, side: Side) -> Score {
    points.points(&crate::tournament::Entry::Game {
        opponent: PlayerId(0),
        colour: side,
        outcome: result.outcome_for(side),
    })
}

/// The playoff of `tied` (in seed order, at least two) whose first `cut` players qualify
/// (1 ≤ cut < tied.len()), after the recorded `games` in order. A recorded game that does
/// not fit is refused with its index in `games`.
pub fn playoff(
    tied: &[PlayerId],
    cut: usize,
    games: &[PlayedOff],
    points: &PointsScale,
) -> Result<Playoff, (usize, PlayoffFault)> {
    let seed = |p: PlayerId| tied.iter().position(|&x| x == p).unwrap_or(usize::MAX);
    // Each player's points in every finished phase (a round robin or a sudden-death game):
    // compared phase by phase, so a later phase orders only the players still level.
    let mut keys: Vec<Vec<Score>> = vec![Vec::new(); tied.len()];
    // The keys with one more phase (finished or under way) appended.
    let with_phase = |keys: &[Vec<Score>], phase: &[PlayedOff]| -> Vec<Vec<Score>> {
        let mut extra = vec![Score::ZERO; tied.len()];
        for g in phase.iter().filter(|g| g.result != GameResult::Pending) {
            for (p, side) in [(g.white, Side::White), (g.black, Side::Black)] {
                if let Some(t) = extra.get_mut(seed(p)) {
                    *t += points_of(points, g.result, side);
                }
            }
        }
        keys.iter()
            .zip(extra)
            .map(|(k, e)| {
                let mut k = k.clone();
                k.push(e);
                k
            })
            .collect()
    };
    let ordered = |keys: &[Vec<Score>]| -> Vec<usize> {
        let mut order: Vec<usize> = (0..tied.len()).collect();
        order.sort_by(|&a, &b| keys[b].cmp(&keys[a]).then(a.cmp(&b)));
        order
    };
    let finish = |keys: &[Vec<Score>], state: PlayoffState| -> Playoff {
        let order = ordered(keys);
        Playoff {
            order: order.iter().map(|&i| tied[i]).collect(),
            points: order.iter().map(|&i| keys[i].clone()).collect(),
            state,
        }
    };
    let cut = cut.clamp(1, tied.len().saturating_sub(1).max(1));
    let mut pos = 0;
    // The pair of a sudden death and how many games it has played.
    let mut sudden: Option<([PlayerId; 2], usize)> = None;
    loop {
        let order = ordered(&keys);
        let (above, below) = (&keys[order[cut - 1]], &keys[order[cut]]);
        if above != below {
            if pos < games.len() {
                return Err((pos, PlayoffFault::Over));
            }
            return Ok(finish(&keys, PlayoffState::Clear));
        }
        let level: Vec<PlayerId> = (0..tied.len())
            .filter(|&i| &keys[i] == below)
            .map(|i| tied[i])
            .collect();
        let batches = if let [a, b] = level.as_slice() {
            let k = match sudden {
                Some((pair, k)) if pair == [*a, *b] => k,
                _ => 0,
            };
            sudden = Some(([*a, *b], k + 1));
            vec![vec![if k.is_multiple_of(2) {
                (*a, *b)
            } else {
                (*b, *a)
            }]]
        } else {
            sudden = None;
            round_robin(&level)
        };
        let mut phase: Vec<PlayedOff> = Vec::new();
        for batch in batches {
            let mut remaining = batch;
            while !remaining.is_empty() {
                let Some(g) = games.get(pos) else {
                    let shown = with_phase(&keys, &phase);
                    let state = if phase.iter().any(|g| g.result == GameResult::Pending) {
                        PlayoffState::Waiting
                    } else {
                        PlayoffState::Next(remaining)
                    };
                    return Ok(finish(&shown, state));
                };
                let at = remaining.iter().position(|&(w, b)| {
                    (w == g.white && b == g.black) || (w == g.black && b == g.white)
                });
                let Some(at) = at else {
                    return Err((
                        pos,
                        PlayoffFault::NotExpected {
                            white: g.white,
                            black: g.black,
                            expected: remaining,
                        },
                    ));
                };
                remaining.remove(at);
                phase.push(*g);
                pos += 1;
            }
        }
        if phase.iter().any(|g| g.result == GameResult::Pending) {
            if pos < games.len() {
                return Err((pos, PlayoffFault::AfterPending));
            }
            return Ok(finish(&with_phase(&keys, &phase), PlayoffState::Waiting));
        }
        keys = with_phase(&keys, &phase);
    }
}
