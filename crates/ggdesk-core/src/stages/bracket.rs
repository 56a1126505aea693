//! Knockouts: the standard bracket order, cross-over seeding, a match's series (best of K,
//! race to P, twice to beat) and the bracket as its rounds are played. Pure.

use super::settings::{MatchFormat, MatchId};
use crate::rules::Side;
use crate::tournament::{GameOutcome, GameResult, PlayerId, PointsScale, Score};

/// The standard bracket order of `slots` seeds (rounded up to a power of two): seeds from
/// the top of the bracket. `order(2) = [1, 2]`; `order(2B)` replaces each seed s of
/// `order(B)` by s, 2B+1−s. Seeds 1 and 2 meet only in the final, 1–4 only in the
/// semi-finals, and so on.
pub fn bracket_order(slots: u32) -> Vec<u32> {
    let mut order = vec![1u32];
    let mut size = 1u32;
    while size < slots {
        let Some(next) = size.checked_mul(2) else {
            break;
        };
        order = order.iter().flat_map(|&s| [s, next + 1 - s]).collect();
        size = next;
    }
    order
}

/// Where a series stands after its games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Series {
    /// Games won by each player (forfeits count as won), in the match's order.
    pub wins: [u32; 2],
    /// The event's points each player scored in the series (what `race_to` counts).
    pub points: [Score; 2],
    /// The winner (0 or 1) once the series is decided.
    pub winner: Option<usize>,
    /// How many games the series took to be decided.
    pub decided_after: Option<usize>,
}

impl Series {
    /// The match's score as the bracket shows it: won games, or points for `race_to`.
    pub fn score(&self, format: MatchFormat) -> [Score; 2] {
        match format {
            MatchFormat::RaceTo(_) => self.points,
            _ => self.wins.map(|w| Score::from_points(i64::from(w))),
        }
    }
}

/// The series between two players after `games`, each given as what it was for the
/// match's first player (player 0); `higher` is the higher seed (0 or 1), who has the
/// advantage of `twice_to_beat`. A pending game stops the count: nothing after it counts.
pub fn series(
    format: MatchFormat,
    points: &PointsScale,
    higher: usize,
    games: &[GameOutcome],
) -> Series {
    let mut s = Series {
        wins: [0, 0],
        points: [Score::ZERO, Score::ZERO],
        winner: None,
        decided_after: None,
    };
    let mut sudden_death = false;
    for (n, &first) in games.iter().enumerate() {
        if first == GameOutcome::Pending {
            break;
        }
        let second = mirror(first);
        let outcomes = [first, second];
        let won = outcomes
            .iter()
            .position(|o| matches!(o, GameOutcome::Win | GameOutcome::ForfeitWin));
        if let Some(w) = won {
            s.wins[w] += 1;
        }
        for (p, o) in outcomes.iter().enumerate() {
            s.points[p] += points.points(&crate::tournament::Entry::Game {
                opponent: PlayerId(0),
                colour: Side::White,
                outcome: *o,
            });
        }
        if s.winner.is_some() {
            continue;
        }
        let winner = match format {
            MatchFormat::BestOf(k) => {
                let need = k.div_ceil(2).max(1);
                s.wins.iter().position(|&w| w >= need)
            }
            MatchFormat::TwiceToBeat => {
                let lower = 1 - higher.min(1);
                if s.wins[higher.min(1)] >= 1 {
                    Some(higher.min(1))
                } else if s.wins[lower] >= 2 {
                    Some(lower)
                } else {
                    None
                }
            }
            MatchFormat::RaceTo(target) => {
                if sudden_death {
                    won
                } else {
                    let reached = s.points.map(|p| p >= target);
                    match reached {
                        [true, false] => Some(0),
                        [false, true] => Some(1),
                        [true, true] => {
                            // Both at P on the same game: the next won game decides.
                            sudden_death = true;
                            None
                        }
                        [false, false] => None,
                    }
                }
            }
        };
        if winner.is_some() {
            s.winner = winner;
            s.decided_after = Some(n + 1);
        }
    }
    s
}

/// What a game is for the other player.
fn mirror(o: GameOutcome) -> GameOutcome {
    match o {
        GameOutcome::Win => GameOutcome::Loss,
        GameOutcome::Loss => GameOutcome::Win,
        GameOutcome::ForfeitWin => GameOutcome::ForfeitLoss,
        GameOutcome::ForfeitLoss => GameOutcome::ForfeitWin,
        other => other,
    }
}

/// One side of a match: the seed of its slot (none for a slot no seed fills) and its
/// player (none for a bye, or where no player came through).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub seed: Option<u32>,
    pub player: Option<PlayerId>,
}

/// One game of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchGame {
    pub white: PlayerId,
    pub black: PlayerId,
    pub result: GameResult,
}

/// A match of the bracket with its games and where its series stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub id: MatchId,
    /// Top of the bracket first.
    pub slots: [Slot; 2],
    pub games: Vec<MatchGame>,
    pub series: Series,
    /// The winner: the series' winner, or the only player of a bye.
    pub winner: Option<PlayerId>,
}

impl Match {
    fn new(id: MatchId, slots: [Slot; 2]) -> Match {
        let mut m = Match {
            id,
            slots,
            games: Vec::new(),
            series: Series {
                wins: [0, 0],
                points: [Score::ZERO, Score::ZERO],
                winner: None,
                decided_after: None,
            },
            winner: None,
        };
        m.winner = match slots.map(|s| s.player) {
            [Some(p), None] | [None, Some(p)] => Some(p),
            _ => None,
        };
        m
    }

    /// Both players, when the match is played (not a bye).
    pub fn players(&self) -> Option<[PlayerId; 2]> {
        match self.slots.map(|s| s.player) {
            [Some(a), Some(b)] => Some([a, b]),
            _ => None,
        }
    }

    /// Decided: a winner is known, or nobody came through to it at all.
    pub fn is_decided(&self) -> bool {
        self.winner.is_some() || self.players().is_none()
    }

    /// The player who lost the series (none for a bye or an open match).
    pub fn loser(&self) -> Option<PlayerId> {
        let [a, b] = self.players()?;
        match self.winner? {
            w if w == a => Some(b),
            _ => Some(a),
        }
    }

    /// The higher seed of the two (0 or 1): the lower seed number.
    pub fn higher(&self) -> usize {
        match self.slots.map(|s| s.seed) {
            [Some(a), Some(b)] if b < a => 1,
            _ => 0,
        }
    }

    /// The next game's (white, black): game 1 gives white to the higher seed, then colours
    /// alternate. `None` when the match is decided or is a bye.
    pub fn next_game(&self) -> Option<(PlayerId, PlayerId)> {
        if self.is_decided() {
            return None;
        }
        let players = self.players()?;
        let h = self.higher();
        let (first, second) = (players[h], players[1 - h]);
        Some(if self.games.len().is_multiple_of(2) {
            (first, second)
        } else {
            (second, first)
        })
    }

    /// Adds a game (either colour order of the match's two players), recounting the
    /// series. The caller checks the players.
    fn add(&mut self, game: MatchGame, format: MatchFormat, points: &PointsScale) {
        self.games.push(game);
        let Some(players) = self.players() else {
            return;
        };
        let outcomes: Vec<GameOutcome> = self
            .games
            .iter()
            .map(|g| {
                let side = if g.white == players[0] {
                    Side::White
                } else {
                    Side::Black
                };
                g.result.outcome_for(side)
            })
            .collect();
        self.series = series(format, points, self.higher(), &outcomes);
        self.winner = self.series.winner.map(|w| players[w]);
    }

    /// Whether a game of this match is still without a result.
    pub fn has_pending(&self) -> bool {
        self.games.iter().any(|g| g.result == GameResult::Pending)
    }
}

fn bracket_id(round: u32, index: usize) -> MatchId {
    MatchId::Bracket {
        round,
        number: u32::try_from(index + 1).unwrap_or(u32::MAX),
    }
}

/// The seed of a player in a match.
fn seed_in(m: &Match, p: Option<PlayerId>) -> Option<u32> {
    p.and_then(|p| m.slots.iter().find(|s| s.player == Some(p)))
        .and_then(|s| s.seed)
}

/// The slots of the round after `last`: the winners of matches 2m−1 and 2m meet in match m
/// (a winner not known yet is an empty slot).
fn following(last: &[Match]) -> Vec<[Slot; 2]> {
    let slot = |x: Option<&Match>| match x {
        Some(x) => Slot {
            seed: seed_in(x, x.winner),
            player: x.winner,
        },
        None => Slot {
            seed: None,
            player: None,
        },
    };
    last.chunks(2)
        .map(|pair| [slot(pair.first()), slot(pair.get(1))])
        .collect()
}

/// The third-place match's slots after the semi-finals `last`: their losers (not known yet:
/// empty). None when there are not two semi-finals both played (a bye has no loser).
fn third_slots(last: &[Match]) -> Option<[Slot; 2]> {
    if last.len() != 2 || last.iter().any(|m| m.players().is_none()) {
        return None;
    }
    let slot = |m: &Match| {
        let p = m.loser();
        Slot {
            seed: if p.is_some() { seed_in(m, p) } else { None },
            player: p,
        }
    };
    Some([slot(&last[0]), slot(&last[1])])
}

/// Why a knockout round of the file does not fit the bracket.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BracketFault {
    #[error("match {0} does not exist (not in the bracket round being played)")]
    NoSuchMatch(MatchId),
    #[error("match {0} is already decided: it plays no more games")]
    Decided(MatchId),
    #[error("match {0} is a bye: it has no games")]
    Bye(MatchId),
    #[error("match {0} has two games in one round")]
    TwiceInRound(MatchId),
    #[error("player {player} does not play in match {id}")]
    NotInMatch { id: MatchId, player: PlayerId },
    #[error("match {0} has no game in this round: every open match plays its next game")]
    Missing(MatchId),
    #[error("a knockout game cannot be a double_forfeit")]
    DoubleForfeit,
    #[error("the knockout is over: no more rounds")]
    Over,
}

/// A knockout as far as it has been played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bracket {
    pub format: MatchFormat,
    pub third_place: bool,
    /// The bracket rounds begun so far, each top of the bracket first.
    pub rounds: Vec<Vec<Match>>,
    /// The third-place match, once both semi-finals are decided.
    pub third: Option<Match>,
    points: PointsScale,
}

impl Bracket {
    /// A bracket whose first round pairs `first_round` (top first).
    pub fn new(
        format: MatchFormat,
        third_place: bool,
        points: PointsScale,
        first_round: Vec<[Slot; 2]>,
    ) -> Bracket {
        let matches: Vec<Match> = first_round
            .into_iter()
            .enumerate()
            .map(|(m, slots)| {
                Match::new(
                    MatchId::Bracket {
                        round: 1,
                        number: u32::try_from(m + 1).unwrap_or(u32::MAX),
                    },
                    slots,
                )
            })
            .collect();
        let mut b = Bracket {
            format,
            third_place,
            rounds: if matches.is_empty() {
                Vec::new()
            } else {
                vec![matches]
            },
            third: None,
            points,
        };
        b.advance();
        b
    }

    /// The matches being played now: the open ones of the current bracket round, top first,
    /// then the third-place match.
    pub fn current(&self) -> Vec<&Match> {
        let mut out: Vec<&Match> = self.rounds.last().into_iter().flatten().collect();
        out.extend(self.third.as_ref());
        out
    }

    /// The matches still to play a game, top first, the final before the third-place match.
    pub fn open(&self) -> Vec<&Match> {
        self.current()
            .into_iter()
            .filter(|m| !m.is_decided())
            .collect()
    }

    /// Whether every match is decided: the knockout is over.
    pub fn is_complete(&self) -> bool {
        self.open().is_empty()
    }

    /// The winner of the knockout, once it is over.
    pub fn champion(&self) -> Option<PlayerId> {
        let last = self.rounds.last()?;
        match last.as_slice() {
            [final_] if self.is_complete() => final_.winner,
            _ => None,
        }
    }

    /// Starts the next bracket round (and the third-place match) while the current one is
    /// decided.
    fn advance(&mut self) {
        loop {
            let Some(last) = self.rounds.last() else {
                return;
            };
            if last.len() <= 1 || !last.iter().all(Match::is_decided) {
                return;
            }
            let round = u32::try_from(self.rounds.len() + 1).unwrap_or(u32::MAX);
            let next: Vec<Match> = following(last)
                .into_iter()
                .enumerate()
                .map(|(m, slots)| Match::new(bracket_id(round, m), slots))
                .collect();
            if next.len() == 1
                && self.third_place
                && let Some(slots) = third_slots(last)
                && slots.iter().all(|s| s.player.is_some())
            {
                self.third = Some(Match::new(MatchId::ThirdPlace, slots));
            }
            self.rounds.push(next);
        }
    }

    /// What a bracket shows beyond the rounds begun: the next round's matches while any of
    /// their players is known (a winner through, the other still playing), and the
    /// third-place match likewise; their unknown players are none, nothing is decided.
    pub fn preview(&self) -> (Option<Vec<Match>>, Option<Match>) {
        let Some(last) = self.rounds.last() else {
            return (None, None);
        };
        if last.len() <= 1 || last.iter().all(Match::is_decided) {
            return (None, None);
        }
        let slots = following(last);
        if slots.iter().flatten().all(|s| s.player.is_none()) {
            return (None, None);
        }
        let round = u32::try_from(self.rounds.len() + 1).unwrap_or(u32::MAX);
        let undecided = |id, slots| {
            let mut m = Match::new(id, slots);
            m.winner = None;
            m
        };
        let next: Vec<Match> = slots
            .into_iter()
            .enumerate()
            .map(|(m, s)| undecided(bracket_id(round, m), s))
            .collect();
        let third = (next.len() == 1 && self.third_place)
            .then(|| third_slots(last))
            .flatten()
            .filter(|s| s.iter().any(|x| x.player.is_some()))
            .map(|s| undecided(MatchId::ThirdPlace, s));
        (Some(next), third)
    }

    /// Plays one round of the file: one game for every open match, each naming its match.
    /// A round with a pending game leaves its match open; the bracket goes on to its next
    /// round once every match of this one is decided.
    pub fn play_round(
        &mut self,
        games: &[(MatchId, MatchGame)],
    ) -> Result<(), (usize, BracketFault)> {
        let open: Vec<MatchId> = self.open().iter().map(|m| m.id).collect();
        if open.is_empty() {
            return Err((0, BracketFault::Over));
        }
        let mut played: Vec<MatchId> = Vec::new();
        for (i, (id, g)) in games.iter().enumerate() {
            let m = self.find(*id).ok_or((i, BracketFault::NoSuchMatch(*id)))?;
            let Some(players) = m.players() else {
                return Err((i, BracketFault::Bye(*id)));
            };
            if !open.contains(id) {
                return Err((i, BracketFault::Decided(*id)));
            }
            if played.contains(id) {
                return Err((i, BracketFault::TwiceInRound(*id)));
            }
            for p in [g.white, g.black] {
                if !players.contains(&p) {
                    return Err((i, BracketFault::NotInMatch { id: *id, player: p }));
                }
            }
            if g.white == g.black {
                let other = players.iter().copied().find(|&p| p != g.white);
                return Err((
                    i,
                    BracketFault::NotInMatch {
                        id: *id,
                        player: other.unwrap_or(g.black),
                    },
                ));
            }
            if g.result == GameResult::DoubleForfeit {
                return Err((i, BracketFault::DoubleForfeit));
            }
            played.push(*id);
        }
        if let Some(missing) = open.iter().find(|id| !played.contains(id)) {
            return Err((games.len(), BracketFault::Missing(*missing)));
        }
        let (format, points) = (self.format, self.points);
        for (id, g) in games {
            if let Some(m) = self.find_mut(*id) {
                m.add(*g, format, &points);
            }
        }
        self.advance();
        Ok(())
    }

    /// Whether a game of the current round is still without a result.
    pub fn has_pending(&self) -> bool {
        self.current().iter().any(|m| m.has_pending())
    }

    fn find(&self, id: MatchId) -> Option<&Match> {
        match id {
            MatchId::ThirdPlace => self.third.as_ref(),
            MatchId::Bracket { round, .. } => {
                let r = self.rounds.len();
                (usize::try_from(round).ok() == Some(r))
                    .then(|| self.rounds.last())
                    .flatten()
                    .and_then(|ms| ms.iter().find(|m| m.id == id))
            }
        }
    }

    fn find_mut(&mut self, id: MatchId) -> Option<&mut Match> {
        match id {
            MatchId::ThirdPlace => self.third.as_mut(),
            MatchId::Bracket { .. } => self
                .rounds
                .last_mut()
                .and_then(|ms| ms.iter_mut().find(|m| m.id == id)),
        }
    }

    /// Every player out of the knockout with the bracket round they lost in (from 1), the
    /// third-place match's players excluded; the final's loser is out in the last round.
    pub fn eliminated(&self) -> Vec<(PlayerId, usize)> {
        let mut out = Vec::new();
        for (r, ms) in self.rounds.iter().enumerate() {
            for m in ms {
                if let Some(l) = m.loser() {
                    out.push((l, r + 1));
                }
            }
        }
        out
    }

    /// The seed of a player in the bracket (from the first round).
    pub fn seed_of(&self, p: PlayerId) -> Option<u32> {
        self.rounds
            .first()?
            .iter()
            .flat_map(|m| m.slots)
            .find(|s| s.player == Some(p))
            .and_then(|s| s.seed)
    }
}
