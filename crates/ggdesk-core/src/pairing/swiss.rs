//! Swiss pairing: one global maximum-weight matching over every allowed pair, the spec's
//! criteria packed lexicographically into the edge weights (see "Pairing" in ARCHITECTURE.md).

use super::{Board, Pairing, PairingError, check_can_pair};
use crate::tournament::{PlayerId, Score, Tournament};
use integer_blossom::{Weight, max_weight_matching};
use std::collections::HashSet;

/// The largest field the Swiss pairing accepts: the matching needs O(n²) memory (about
/// 16 bytes × (2n)², 256 MB at this size) and O(n³) time.
pub const MAX_SWISS_PLAYERS: usize = 2000;

/// A player to pair, with what the pairing needs to know.
#[derive(Debug, Clone)]
pub(crate) struct Entrant {
    pub id: PlayerId,
    pub rating: i64,
    pub score: Score,
    /// Index of the score group (0 = highest score).
    pub group: usize,
    /// Position in the score group, by rating (highest first) then id.
    pub position: usize,
    /// May take the bye: has had no bye and no forfeit win.
    pub bye_eligible: bool,
    /// Why not, when not: the round (from 1) of the bye or the forfeit win.
    pub had_bye: Option<usize>,
    pub forfeit_win: Option<usize>,
    /// Rank for the bye among equals: 0 for the lowest rated (then highest id).
    pub bye_rank: usize,
}

/// The field of a Swiss round: entrants in pairing order (score, rating, id), with the
/// absolute rules as a matrix.
#[derive(Debug, Clone)]
pub(crate) struct Field {
    pub entrants: Vec<Entrant>,
    /// Size of each score group.
    pub group_sizes: Vec<usize>,
    /// Score of each group, highest first.
    pub group_scores: Vec<Score>,
    /// `met[i * n + j]`: the round (from 1) of their last game, if any.
    met: Vec<Option<usize>>,
    forbidden: Vec<bool>,
}

impl Field {
    pub fn new(t: &Tournament, absent: &[PlayerId]) -> Result<Field, PairingError> {
        for id in absent {
            if t.player(*id).is_none() {
                return Err(PairingError::UnknownPlayer(*id));
            }
        }
        let played = t.rounds().len();
        let scores = t.scores(played);
        let absent: HashSet<PlayerId> = absent.iter().copied().collect();
        let mut chosen: Vec<usize> = (0..t.players().len())
            .filter(|&i| {
                let p = &t.players()[i];
                !p.withdrawn && !absent.contains(&p.id)
            })
            .collect();
        if chosen.is_empty() {
            return Err(PairingError::NoPlayers);
        }
        if chosen.len() > MAX_SWISS_PLAYERS {
            return Err(PairingError::TooManyPlayers(chosen.len()));
        }
        let players = t.players();
        chosen.sort_by(|&a, &b| {
            scores[b]
                .cmp(&scores[a])
                .then(players[b].rating.cmp(&players[a].rating))
                .then(players[a].id.cmp(&players[b].id))
        });
        let n = chosen.len();
        let mut slot = vec![usize::MAX; players.len()];
        for (k, &i) in chosen.iter().enumerate() {
            slot[i] = k;
        }

        let mut had_bye = vec![None; n];
        let mut forfeit_win = vec![None; n];
        let mut met = vec![None; n * n];
        let at = |id: PlayerId| t.player_index(id).map(|i| slot[i]).filter(|&k| k < n);
        for (r, round) in t.rounds().iter().enumerate() {
            for id in &round.byes {
                if let Some(k) = at(*id) {
                    had_bye[k] = Some(r + 1);
                }
            }
            for g in &round.games {
                let (w, b) = (at(g.white), at(g.black));
                if let (Some(w), Some(b)) = (w, b) {
                    met[w * n + b] = Some(r + 1);
                    met[b * n + w] = Some(r + 1);
                }
                use crate::tournament::GameResult as R;
                match g.result {
                    R::WhiteWinsByForfeit => {
                        if let Some(w) = w {
                            forfeit_win[w] = Some(r + 1);
                        }
                    }
                    R::BlackWinsByForfeit => {
                        if let Some(b) = b {
                            forfeit_win[b] = Some(r + 1);
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut forbidden = vec![false; n * n];
        for &(a, b) in &t.settings().forbidden {
            if let (Some(a), Some(b)) = (at(a), at(b)) {
                forbidden[a * n + b] = true;
                forbidden[b * n + a] = true;
            }
        }

        // Bye rank: lowest rating first, then highest id.
        let mut by_rating: Vec<usize> = (0..n).collect();
        by_rating.sort_by(|&a, &b| {
            let (pa, pb) = (&players[chosen[a]], &players[chosen[b]]);
            pa.rating.cmp(&pb.rating).then(pb.id.cmp(&pa.id))
        });
        let mut bye_rank = vec![0; n];
        for (rank, &k) in by_rating.iter().enumerate() {
            bye_rank[k] = rank;
        }

        let mut entrants = Vec::with_capacity(n);
        let mut group_sizes: Vec<usize> = Vec::new();
        let mut group_scores: Vec<Score> = Vec::new();
        for (k, &i) in chosen.iter().enumerate() {
            let score = scores[i];
            if group_scores.last() != Some(&score) {
                group_scores.push(score);
                group_sizes.push(0);
            }
            let group = group_scores.len() - 1;
            let position = group_sizes[group];
            group_sizes[group] += 1;
            entrants.push(Entrant {
                id: players[i].id,
                rating: players[i].rating,
                score,
                group,
                position,
                bye_eligible: had_bye[k].is_none() && forfeit_win[k].is_none(),
                had_bye: had_bye[k],
                forfeit_win: forfeit_win[k],
                bye_rank: bye_rank[k],
            });
        }
        Ok(Field {
            entrants,
            group_sizes,
            group_scores,
            met,
            forbidden,
        })
    }

    pub fn len(&self) -> usize {
        self.entrants.len()
    }

    /// The round of the last game between entrants `a` and `b`, if they have met.
    pub fn met_in(&self, a: usize, b: usize) -> Option<usize> {
        self.met[a * self.len() + b]
    }

    pub fn is_forbidden(&self, a: usize, b: usize) -> bool {
        self.forbidden[a * self.len() + b]
    }

    /// Whether `a` and `b` may meet under the absolute rules.
    pub fn allowed(&self, a: usize, b: usize) -> bool {
        a != b && self.met_in(a, b).is_none() && !self.is_forbidden(a, b)
    }

    /// Criterion 4's layout cost of a game between entrants `a` and `b`: 0 for the ideal
    /// top-half-against-bottom-half game of a score group, growing with the distance from
    /// it, and a game inside one half of the group (top against top, bottom against bottom)
    /// costs m² more; between score groups, how far the one moved down is from the bottom
    /// of its group plus how far the one moved up is from the top of its group.
    pub fn layout_cost(&self, a: usize, b: usize) -> i128 {
        let (hi, lo) = if a < b { (a, b) } else { (b, a) };
        let (eh, el) = (&self.entrants[hi], &self.entrants[lo]);
        if eh.group == el.group {
            let m = self.group_sizes[eh.group] as i128;
            let d = (el.position - eh.position) as i128;
            // |2d − m| alone rates 1–2 like 1–4 in a group of four. A group kept whole has
            // its games inside a half in pairs, which then cost more than any layout of
            // the group across the halves ((m/2)(m − 2) at most): the spec's top half
            // against bottom half comes first, as far as it is allowed. (The middle player
            // of an odd group is in neither half.)
            let (p, q) = (eh.position as i128, el.position as i128);
            let top = |x: i128| 2 * x < m - 1;
            let bottom = |x: i128| 2 * x > m - 1;
            let same_half = (top(p) && top(q)) || (bottom(p) && bottom(q));
            (2 * d - m).abs() + if same_half { m * m } else { 0 }
        } else {
            let m = self.group_sizes[eh.group];
            ((m - 1 - eh.position) + el.position) as i128
        }
    }

    /// Criterion 3's cost of a game: the squared score difference, in quarter-points.
    pub fn square_cost(&self, a: usize, b: usize) -> i128 {
        let d = i128::from(self.entrants[a].score.halves())
            - i128::from(self.entrants[b].score.halves());
        d.saturating_mul(d)
    }

    /// Criterion 2's cost of a bye: the index of the entrant's score among the field's
    /// distinct scores from the lowest (0 for the lowest score).
    pub fn bye_score_cost(&self, a: usize) -> i128 {
        (self.group_sizes.len() - 1 - self.entrants[a].group) as i128
    }
}

/// The cost of one edge of the matching graph, criteria from the most important.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
struct EdgeCost {
    bye_score: i128,
    square: i128,
    bye_rating: i128,
    layout: i128,
}

/// Packs edge costs into one integer per edge so that comparing the totals of two perfect
/// matchings compares their cost vectors lexicographically, and turns them into weights
/// so that the maximum-weight matching is first of maximum cardinality.
struct Packing {
    m_bye_rating: i128,
    m_square: i128,
    m_bye_score: i128,
    big: i128,
}

impl Packing {
    /// `max` holds the largest value of each criterion over all edges; `pairs` is the
    /// number of edges in a perfect matching. `None` if the weights would not fit an i128
    /// with the solver's headroom.
    fn new(max: EdgeCost, pairs: i128) -> Option<Packing> {
        // Each multiplier exceeds the largest total the lower criteria can reach together.
        let cap_layout = max.layout.checked_mul(pairs)?;
        let m_bye_rating = cap_layout.checked_add(1)?;
        let cap = cap_layout.checked_add(m_bye_rating.checked_mul(max.bye_rating)?)?;
        let m_square = cap.checked_add(1)?;
        let cap = cap.checked_add(m_square.checked_mul(max.square.checked_mul(pairs)?)?)?;
        let m_bye_score = cap.checked_add(1)?;
        let cap = cap.checked_add(m_bye_score.checked_mul(max.bye_score)?)?;
        // One edge more must outweigh any difference in cost: a maximum-weight matching is
        // then of maximum cardinality.
        let big = cap.checked_add(1)?;
        (big <= i128::MAX / 64).then_some(Packing {
            m_bye_rating,
            m_square,
            m_bye_score,
            big,
        })
    }

    fn weight(&self, c: EdgeCost) -> i128 {
        let cost = c.layout
            + c.bye_rating * self.m_bye_rating
            + c.square * self.m_square
            + c.bye_score * self.m_bye_score;
        self.big - cost
    }
}

/// Runs the matching with weights of type `W` (i64 when they fit: half the memory and
/// faster than i128).
fn solve<W: Weight + TryFrom<i128>>(weights: &[i128], v: usize) -> Vec<Option<usize>> {
    let w: Vec<W> = weights
        .iter()
        .map(|&x| W::try_from(x).unwrap_or(W::ZERO))
        .collect();
    max_weight_matching(&w, v)
}

/// The optimal matching of a field: for each entrant its opponent's index, or `None` for
/// the bye.
pub(crate) fn optimal_matching(field: &Field) -> Result<Vec<Option<usize>>, PairingError> {
    let n = field.len();
    let odd = n % 2 == 1;
    let v = if odd { n + 1 } else { n };
    let bye = n; // the dummy vertex, when the field is odd
    if odd && !field.entrants.iter().any(|e| e.bye_eligible) {
        return Err(PairingError::NoByeCandidate);
    }

    let cost = |a: usize, b: usize| -> Option<EdgeCost> {
        if b == bye {
            field.entrants[a].bye_eligible.then(|| EdgeCost {
                bye_score: field.bye_score_cost(a),
                bye_rating: field.entrants[a].bye_rank as i128,
                ..EdgeCost::default()
            })
        } else {
            field.allowed(a, b).then(|| EdgeCost {
                square: field.square_cost(a, b),
                layout: field.layout_cost(a, b),
                ..EdgeCost::default()
            })
        }
    };

    let mut max = EdgeCost::default();
    for a in 0..v {
        for b in a + 1..v {
            if let Some(c) = cost(a, b) {
                max.bye_score = max.bye_score.max(c.bye_score);
                max.square = max.square.max(c.square);
                max.bye_rating = max.bye_rating.max(c.bye_rating);
                max.layout = max.layout.max(c.layout);
            }
        }
    }
    let packing = Packing::new(max, (v / 2) as i128).ok_or(PairingError::WeightOverflow)?;

    let mut weights = vec![0i128; v * v];
    for a in 0..v {
        for b in a + 1..v {
            if let Some(c) = cost(a, b) {
                weights[a * v + b] = packing.weight(c);
            }
        }
    }
    let mate = if packing.big <= i128::from(i64::MAX / 64) {
        solve::<i64>(&weights, v)
    } else {
        solve::<i128>(&weights, v)
    };

    let unpaired: Vec<PlayerId> = (0..n)
        .filter(|&a| mate.get(a).copied().flatten().is_none())
        .map(|a| field.entrants[a].id)
        .collect();
    if !unpaired.is_empty() {
        return Err(PairingError::NoValidPairing { unpaired });
    }
    Ok((0..n).map(|a| mate[a].filter(|&b| b != bye)).collect())
}

/// Pairs the next Swiss round. `absent` lists players not to pair this round (by request);
/// withdrawn players are never paired.
pub fn pair_swiss(t: &Tournament, absent: &[PlayerId]) -> Result<Pairing, PairingError> {
    check_can_pair(t)?;
    let field = Field::new(t, absent)?;
    let mate = optimal_matching(&field)?;
    Ok(boards_from_matching(t, &field, &mate, absent))
}

/// Colours, tables and the bye from a matching.
pub(crate) fn boards_from_matching(
    t: &Tournament,
    field: &Field,
    mate: &[Option<usize>],
    absent: &[PlayerId],
) -> Pairing {
    let mut pairs = Vec::new();
    let mut byes = Vec::new();
    for (a, m) in mate.iter().enumerate() {
        match m {
            // Entrants are in pairing order: the lower index has the higher score, then
            // the higher rating, then the lower id, and so gets white.
            Some(b) if a < *b => pairs.push((a, *b)),
            Some(_) => {}
            None => byes.push(field.entrants[a].id),
        }
    }
    // FIDE order of boards: the higher score on the board, then the sum of the scores,
    // then the higher-placed player.
    pairs.sort_by(|&(a1, b1), &(a2, b2)| {
        let (e, f) = (&field.entrants, &field.entrants);
        e[a2]
            .score
            .cmp(&e[a1].score)
            .then((f[a2].score + f[b2].score).cmp(&(f[a1].score + f[b1].score)))
            .then(a1.cmp(&a2))
    });
    let games = pairs
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| Board {
            table: u32::try_from(k + 1).unwrap_or(u32::MAX),
            white: field.entrants[a].id,
            black: field.entrants[b].id,
        })
        .collect();
    let mut seen = HashSet::new();
    Pairing {
        round: t.rounds().len() + 1,
        games,
        byes,
        absent: absent
            .iter()
            .copied()
            .filter(|id| seen.insert(*id))
            .collect(),
    }
}
