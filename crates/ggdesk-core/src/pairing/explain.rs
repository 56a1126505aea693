//! Why each board of a pairing is what it is, as data: the round (score groups or the
//! Berger table, who was left out), each board (the groups and positions of its players,
//! who moved down or up, which colour rule gave white, which ideal opponent was not given
//! and why) and each bye (the rule, who was passed over and why). The `Display` of each
//! part is the text a director shows a player; the whole explanation prints what
//! `ggdesk pair --explain` prints.

use super::round_robin::{berger_round, numbering};
use super::swiss::{Entrant, Field};
use super::{Board, Pairing};
use crate::tournament::{PlayerId, Score, System, Tournament};
use std::collections::HashMap;
use std::fmt;

/// The explanation of a pairing made for `t` (by [`super::pair_next_round`]).
pub fn explain(t: &Tournament, pairing: &Pairing) -> Explanation {
    match t.settings().system {
        System::Swiss => explain_swiss(t, pairing),
        System::RoundRobin => explain_round_robin(t, pairing),
    }
}

/// Why a pairing is what it is: the round, each board (in table order) and each bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    pub round: RoundExplanation,
    pub boards: Vec<BoardExplanation>,
    pub byes: Vec<ByeExplanation>,
}

impl Explanation {
    /// The part about the board at `table`, if the explanation has one.
    pub fn board(&self, table: u32) -> Option<&BoardExplanation> {
        self.boards.iter().find(|b| b.table == table)
    }

    /// The part about `player`'s bye, if the explanation has one.
    pub fn bye(&self, player: PlayerId) -> Option<&ByeExplanation> {
        self.byes.iter().find(|b| b.player.id == player)
    }
}

/// A player as an explanation names them: `7 Ana`, or `7` without a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub id: PlayerId,
    pub name: String,
}

impl Named {
    /// A player of `t` by id, with the name it has there (empty for an unknown id).
    pub fn of(t: &Tournament, id: PlayerId) -> Named {
        Named {
            id,
            name: t.player(id).map(|p| p.name.clone()).unwrap_or_default(),
        }
    }
}

/// What the explanation says about the round as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundExplanation {
    /// The round number, from 1.
    pub number: usize,
    pub kind: RoundKind,
    /// Players left out at their request (Swiss).
    pub absent: Vec<PlayerId>,
    /// Withdrawn players, not paired (Swiss; a round robin's numbering shows them).
    pub withdrawn: Vec<PlayerId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundKind {
    /// A Swiss round: how many were paired, and the score groups in pairing order.
    Swiss {
        players: usize,
        boards: usize,
        byes: usize,
        groups: Vec<ScoreGroup>,
    },
    /// A round-robin round: its round of the Berger table and the players' numbers.
    RoundRobin {
        /// The round of the Berger table, from 1.
        in_cycle: usize,
        /// The numbers of the table (the players, plus one for an odd field).
        numbers: usize,
        numbered: Vec<Numbered>,
    },
    /// The field of the pairing cannot be rebuilt from the tournament (the pairing names a
    /// player it does not know): why.
    Unexplained(String),
}

/// One score group of a Swiss round, its players by rating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreGroup {
    pub score: Score,
    pub players: Vec<PlayerId>,
}

/// A round-robin player's number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbered {
    /// From 1.
    pub number: usize,
    pub player: Named,
    pub rating: i64,
    pub withdrawn: bool,
}

/// Why a board is what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardExplanation {
    pub table: u32,
    pub white: Named,
    pub black: Named,
    pub reasons: BoardReasons,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardReasons {
    Swiss {
        scores: (Score, Score),
        placement: Placement,
        /// Why White has white.
        colour: ColourRule,
        /// The ideal opponents (top half against bottom half) not given, and why.
        avoided: Vec<Avoided>,
    },
    /// The Berger table pairs these numbers (White's, Black's).
    RoundRobin { numbers: (usize, usize) },
}

/// Where a player of a Swiss board stands in its score group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seat {
    pub player: PlayerId,
    pub score: Score,
    /// By rating, from 1.
    pub position: usize,
    pub group_size: usize,
}

/// How the two players of a Swiss board came together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Both from the same score group.
    SameGroup {
        score: Score,
        positions: (usize, usize),
        size: usize,
    },
    /// From two groups: one moved down, the other up.
    Floated { down: Seat, up: Seat },
}

/// The colour rule that gave White white.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourRule {
    HigherScore,
    HigherRating,
    LowerId,
}

/// An ideal opponent not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Avoided {
    pub player: PlayerId,
    pub ideal: PlayerId,
    pub because: AvoidedBecause,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AvoidedBecause {
    /// They met in this round (from 1).
    Rematch {
        round: usize,
    },
    ForbiddenPair,
    /// The ideal opponent was needed on another board for the best pairing overall.
    NeededElsewhere,
}

/// Why a player has the bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByeExplanation {
    pub player: Named,
    pub reasons: ByeReasons,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ByeReasons {
    /// The lowest score possible, then the lowest rated; those passed over, and why.
    Swiss {
        score: Score,
        passed_over: Vec<PassedOver>,
    },
    RoundRobin {
        number: u32,
        because: RoundRobinBye,
    },
}

/// A player who would have come before in the order of the bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassedOver {
    pub player: PlayerId,
    pub score: Score,
    pub because: PassedOverBecause,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassedOverBecause {
    HadBye {
        round: usize,
    },
    WonByForfeit {
        round: usize,
    },
    /// A lower score: the rest could not then be paired without a rematch or a forbidden
    /// pair.
    RestUnpairable,
    /// The same score, rated lower: the rest would then have needed larger score
    /// differences or a rematch.
    RestWorse,
}

/// Why a round-robin player has the bye.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundRobinBye {
    /// The table pairs the player with the number an odd field lacks.
    MissingNumber(u32),
    /// The scheduled opponent (number, player) has withdrawn.
    OpponentWithdrawn {
        number: u32,
        player: PlayerId,
    },
    /// The scheduled opponent's number, whose player is unknown.
    Opponent(u32),
    NotScheduled,
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn ids(list: &[PlayerId]) -> String {
    list.iter()
        .map(PlayerId::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
            write!(f, "{}", self.id)
        } else {
            write!(f, "{} {}", self.id, self.name)
        }
    }
}

impl RoundExplanation {
    /// The lines of the round's heading (before the boards), each ending in a newline.
    fn heading(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.number;
        match &self.kind {
            RoundKind::Unexplained(why) => writeln!(f, "Round {n}: {why}"),
            RoundKind::Swiss {
                players,
                boards,
                byes,
                groups,
            } => {
                writeln!(
                    f,
                    "Round {n} (Swiss): {} paired on {}, {}.",
                    plural(*players, "player", "players"),
                    plural(*boards, "board", "boards"),
                    plural(*byes, "bye", "byes"),
                )?;
                writeln!(f, "Score groups, each by rating:")?;
                for g in groups {
                    writeln!(f, "  {}: {}", g.score, ids(&g.players))?;
                }
                Ok(())
            }
            RoundKind::RoundRobin {
                in_cycle,
                numbers,
                numbered,
            } => {
                writeln!(
                    f,
                    "Round {n} (round robin): round {in_cycle} of the Berger table for {numbers}."
                )?;
                writeln!(f, "Numbers by rating (highest first), then id:")?;
                for p in numbered {
                    let withdrawn = if p.withdrawn { ", withdrawn" } else { "" };
                    writeln!(
                        f,
                        "  {}: {} (rating {}){withdrawn}",
                        p.number, p.player, p.rating
                    )?;
                }
                Ok(())
            }
        }
    }

    fn absent_line(&self) -> Option<String> {
        (!self.absent.is_empty())
            .then(|| format!("Not paired at their request: {}.", ids(&self.absent)))
    }

    fn withdrawn_line(&self) -> Option<String> {
        (!self.withdrawn.is_empty())
            .then(|| format!("Withdrawn, not paired: {}.", ids(&self.withdrawn)))
    }
}

/// The round's part on its own (what the desk keeps with the round): the heading, then who
/// was left out, one line each, without a final newline.
impl fmt::Display for RoundExplanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Heading(self).to_string();
        for line in [self.absent_line(), self.withdrawn_line()]
            .into_iter()
            .flatten()
        {
            text.push_str(&line);
            text.push('\n');
        }
        f.write_str(text.trim_end())
    }
}

/// The heading of a round, for writing it where the whole explanation wants it.
struct Heading<'a>(&'a RoundExplanation);

impl fmt::Display for Heading<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.heading(f)
    }
}

/// The whole explanation, as `ggdesk pair --explain` prints it: the round's heading, a
/// paragraph per board and per bye, then who was left out.
impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Heading(&self.round))?;
        for board in &self.boards {
            write!(f, "\n{board}\n")?;
        }
        for bye in &self.byes {
            write!(f, "\n{bye}\n")?;
        }
        // Who was left out is one paragraph of its own, whichever of its lines there are
        // (a withdrawn line alone was written onto the last board's or bye's paragraph).
        let left_out: Vec<String> = [self.round.absent_line(), self.round.withdrawn_line()]
            .into_iter()
            .flatten()
            .collect();
        if !left_out.is_empty() {
            write!(f, "\n{}\n", left_out.join("\n"))?;
        }
        Ok(())
    }
}

impl fmt::Display for ColourRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ColourRule::HigherScore => "higher score",
            ColourRule::HigherRating => "same score, higher rating",
            ColourRule::LowerId => "same score and rating, lower id",
        })
    }
}

impl fmt::Display for Avoided {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} - {} (", self.player, self.ideal)?;
        match self.because {
            AvoidedBecause::Rematch { round } => write!(f, "already met in round {round}")?,
            AvoidedBecause::ForbiddenPair => f.write_str("a forbidden pair")?,
            AvoidedBecause::NeededElsewhere => write!(
                f,
                "{} was needed on another board for the best pairing overall",
                self.ideal
            )?,
        }
        f.write_str(")")
    }
}

/// One board's part: `Table N: ...` and its reasons, one line each, without a final
/// newline.
impl fmt::Display for BoardExplanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (table, white, black) = (self.table, &self.white, &self.black);
        match &self.reasons {
            BoardReasons::RoundRobin { numbers: (w, b) } => write!(
                f,
                "Table {table}: {white} (#{w}) - {black} (#{b}), as the table pairs {w} - {b}."
            ),
            BoardReasons::Swiss {
                scores: (ws, bs),
                placement,
                colour,
                avoided,
            } => {
                writeln!(f, "Table {table}: {white} ({ws}) - {black} ({bs})")?;
                match placement {
                    Placement::SameGroup {
                        score,
                        positions: (pw, pb),
                        size,
                    } => write!(
                        f,
                        "  Both in score group {score}: #{pw} and #{pb} of {size} by rating (the ideal is the top half against the bottom half)."
                    )?,
                    Placement::Floated { down, up } => write!(
                        f,
                        "  {} moved down from score group {} (#{} of {}); {} moved up from score group {} (#{} of {}).",
                        down.player,
                        down.score,
                        down.position,
                        down.group_size,
                        up.player,
                        up.score,
                        up.position,
                        up.group_size
                    )?,
                }
                write!(f, "\n  {} has white: {colour}.", white.id)?;
                if !avoided.is_empty() {
                    let list: Vec<String> = avoided.iter().map(Avoided::to_string).collect();
                    write!(f, "\n  Instead of: {}.", list.join("; "))?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for PassedOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): ", self.player, self.score)?;
        match self.because {
            PassedOverBecause::HadBye { round } => write!(f, "had a bye in round {round}"),
            PassedOverBecause::WonByForfeit { round } => {
                write!(f, "won by forfeit in round {round}")
            }
            PassedOverBecause::RestUnpairable => f.write_str(
                "the rest could not then be paired without a rematch or a forbidden pair",
            ),
            PassedOverBecause::RestWorse => {
                f.write_str("the rest would then have needed larger score differences or a rematch")
            }
        }
    }
}

impl fmt::Display for RoundRobinBye {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundRobinBye::MissingNumber(o) => write!(f, "meets the missing number {o}"),
            RoundRobinBye::OpponentWithdrawn { number, player } => {
                write!(
                    f,
                    "the scheduled opponent #{number} ({player}) has withdrawn"
                )
            }
            RoundRobinBye::Opponent(o) => write!(f, "the scheduled opponent is #{o}"),
            RoundRobinBye::NotScheduled => f.write_str("not in the schedule"),
        }
    }
}

/// One bye's part: `Bye: ...` and its reasons, one line each, without a final newline.
impl fmt::Display for ByeExplanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let player = &self.player;
        match &self.reasons {
            ByeReasons::RoundRobin { number, because } => {
                write!(f, "Bye: {player} (#{number}): {because}.")
            }
            ByeReasons::Swiss { score, passed_over } => {
                writeln!(f, "Bye: {player} ({score})")?;
                writeln!(
                    f,
                    "  An odd number of players: the bye goes to the lowest score possible, then the lowest rated."
                )?;
                if passed_over.is_empty() {
                    write!(f, "  Nobody scored less or is rated lower in that score.")
                } else {
                    let list: Vec<String> = passed_over.iter().map(PassedOver::to_string).collect();
                    write!(f, "  Passed over: {}.", list.join("; "))
                }
            }
        }
    }
}

/// The explanation of a Swiss pairing: the round's score groups, then each board and each
/// bye as the round's field saw them (only the round, unexplained, when the field cannot
/// be made).
fn explain_swiss(t: &Tournament, pairing: &Pairing) -> Explanation {
    let mut out = Explanation {
        round: RoundExplanation {
            number: pairing.round,
            kind: RoundKind::Unexplained(String::new()),
            absent: Vec::new(),
            withdrawn: Vec::new(),
        },
        boards: Vec::new(),
        byes: Vec::new(),
    };
    let field = match Field::new(t, &pairing.absent) {
        Ok(f) => f,
        Err(e) => {
            out.round.kind = RoundKind::Unexplained(e.to_string());
            return out;
        }
    };
    let slot: HashMap<PlayerId, usize> = field
        .entrants
        .iter()
        .enumerate()
        .map(|(k, e)| (e.id, k))
        .collect();
    out.round.kind = swiss_round_kind(&field, pairing);
    let group_start = group_starts(&field);
    for board in &pairing.games {
        let (Some(&w), Some(&b)) = (slot.get(&board.white), slot.get(&board.black)) else {
            continue;
        };
        out.boards
            .push(explain_swiss_board(t, &field, &group_start, board, (w, b)));
    }
    for id in &pairing.byes {
        let Some(&k) = slot.get(id) else {
            continue;
        };
        out.byes.push(explain_swiss_bye(t, &field, k));
    }
    out.round.absent = pairing.absent.clone();
    out.round.withdrawn = t
        .players()
        .iter()
        .filter(|p| p.withdrawn)
        .map(|p| p.id)
        .collect();
    out
}

/// A Swiss round as a whole: how many were paired, and the score groups in pairing order.
fn swiss_round_kind(field: &Field, pairing: &Pairing) -> RoundKind {
    let mut groups = Vec::with_capacity(field.group_sizes.len());
    let mut start = 0;
    for (g, &size) in field.group_sizes.iter().enumerate() {
        groups.push(ScoreGroup {
            score: field.group_scores[g],
            players: field.entrants[start..start + size]
                .iter()
                .map(|e| e.id)
                .collect(),
        });
        start += size;
    }
    RoundKind::Swiss {
        players: field.len(),
        boards: pairing.games.len(),
        byes: pairing.byes.len(),
        groups,
    }
}

/// Where each score group starts in the field's pairing order.
fn group_starts(field: &Field) -> Vec<usize> {
    field
        .group_sizes
        .iter()
        .scan(0, |acc, &s| {
            let here = *acc;
            *acc += s;
            Some(here)
        })
        .collect()
}

/// The ideal opponent of entrant `k` inside their score group: top half against bottom
/// half (none for the odd one out of a group).
fn ideal_opponent(field: &Field, group_start: &[usize], k: usize) -> Option<usize> {
    let e = &field.entrants[k];
    let m = field.group_sizes[e.group];
    let h = m / 2;
    let p = e.position;
    let q = if p < h {
        p + h
    } else if p < 2 * h {
        p - h
    } else {
        return None;
    };
    Some(group_start[e.group] + q)
}

/// One Swiss board's part: where its players came from, which colour rule gave white, and
/// which ideal opponents were not given. `slots` are its white and black entrants.
fn explain_swiss_board(
    t: &Tournament,
    field: &Field,
    group_start: &[usize],
    board: &Board,
    slots: (usize, usize),
) -> BoardExplanation {
    let (w, b) = slots;
    let (ew, eb) = (&field.entrants[w], &field.entrants[b]);
    BoardExplanation {
        table: board.table,
        white: Named::of(t, ew.id),
        black: Named::of(t, eb.id),
        reasons: BoardReasons::Swiss {
            scores: (ew.score, eb.score),
            placement: placement(field, ew, eb),
            colour: colour_rule(ew, eb),
            avoided: avoided(field, group_start, w, b),
        },
    }
}

/// How two entrants came together: from one score group, or one floated down to the
/// other.
fn placement(field: &Field, ew: &Entrant, eb: &Entrant) -> Placement {
    let seat = |e: &Entrant| Seat {
        player: e.id,
        score: e.score,
        position: e.position + 1,
        group_size: field.group_sizes[e.group],
    };
    if ew.group == eb.group {
        Placement::SameGroup {
            score: ew.score,
            positions: (ew.position + 1, eb.position + 1),
            size: field.group_sizes[ew.group],
        }
    } else {
        let (hi, lo) = if ew.group < eb.group {
            (ew, eb)
        } else {
            (eb, ew)
        };
        Placement::Floated {
            down: seat(hi),
            up: seat(lo),
        }
    }
}

/// The colour rule that gave white to `ew` over `eb`.
fn colour_rule(ew: &Entrant, eb: &Entrant) -> ColourRule {
    if ew.score != eb.score {
        ColourRule::HigherScore
    } else if ew.rating != eb.rating {
        ColourRule::HigherRating
    } else {
        ColourRule::LowerId
    }
}

/// The ideal opponents the players of a board (entrants `w` and `b`) were not given, and
/// why.
fn avoided(field: &Field, group_start: &[usize], w: usize, b: usize) -> Vec<Avoided> {
    let mut avoided = Vec::new();
    for (me, partner) in [(w, b), (b, w)] {
        let Some(q) = ideal_opponent(field, group_start, me) else {
            continue;
        };
        if q == partner || q == w || q == b {
            continue;
        }
        let because = if let Some(round) = field.met_in(me, q) {
            AvoidedBecause::Rematch { round }
        } else if field.is_forbidden(me, q) {
            AvoidedBecause::ForbiddenPair
        } else {
            AvoidedBecause::NeededElsewhere
        };
        avoided.push(Avoided {
            player: field.entrants[me].id,
            ideal: field.entrants[q].id,
            because,
        });
    }
    avoided
}

/// A Swiss bye's part (entrant `k`): the players who would have come before in the order
/// of the bye, and why they were passed over.
fn explain_swiss_bye(t: &Tournament, field: &Field, k: usize) -> ByeExplanation {
    let e = &field.entrants[k];
    let mut passed_over = Vec::new();
    for (j, other) in field.entrants.iter().enumerate() {
        let lower =
            other.score < e.score || (other.score == e.score && other.bye_rank < e.bye_rank);
        if j == k || !lower {
            continue;
        }
        let because = match (other.had_bye, other.forfeit_win) {
            (Some(round), _) => PassedOverBecause::HadBye { round },
            (None, Some(round)) => PassedOverBecause::WonByForfeit { round },
            (None, None) if other.score < e.score => PassedOverBecause::RestUnpairable,
            (None, None) => PassedOverBecause::RestWorse,
        };
        passed_over.push(PassedOver {
            player: other.id,
            score: other.score,
            because,
        });
    }
    ByeExplanation {
        player: Named::of(t, e.id),
        reasons: ByeReasons::Swiss {
            score: e.score,
            passed_over,
        },
    }
}

fn explain_round_robin(t: &Tournament, pairing: &Pairing) -> Explanation {
    let order = numbering(t);
    let players = t.players();
    let count = order.len();
    let numbers = count + count % 2;
    let cycle = numbers.saturating_sub(1).max(1);
    let played = pairing.round.saturating_sub(1);
    let in_cycle = played % cycle + 1;
    let number_of: HashMap<PlayerId, usize> = order
        .iter()
        .enumerate()
        .map(|(n, &i)| (players[i].id, n + 1))
        .collect();
    let numbered = order
        .iter()
        .enumerate()
        .map(|(n, &i)| Numbered {
            number: n + 1,
            player: Named::of(t, players[i].id),
            rating: players[i].rating,
            withdrawn: players[i].withdrawn,
        })
        .collect();
    let number = |id: &PlayerId| number_of.get(id).copied().unwrap_or(0);
    let boards = pairing
        .games
        .iter()
        .map(|board| BoardExplanation {
            table: board.table,
            white: Named::of(t, board.white),
            black: Named::of(t, board.black),
            reasons: BoardReasons::RoundRobin {
                numbers: (number(&board.white), number(&board.black)),
            },
        })
        .collect();
    let schedule = berger_round(
        u32::try_from(numbers).unwrap_or(0),
        u32::try_from(in_cycle).unwrap_or(0),
    );
    let byes = pairing
        .byes
        .iter()
        .map(|id| {
            let me = u32::try_from(number(id)).unwrap_or(0);
            let opponent = schedule
                .iter()
                .find_map(|&(w, b)| (w == me).then_some(b).or((b == me).then_some(w)));
            let because = match opponent {
                Some(o) if o as usize > count => RoundRobinBye::MissingNumber(o),
                Some(o) => {
                    let other = (o as usize)
                        .checked_sub(1)
                        .and_then(|k| order.get(k))
                        .map(|&i| players[i].id);
                    match other {
                        Some(player) => RoundRobinBye::OpponentWithdrawn { number: o, player },
                        None => RoundRobinBye::Opponent(o),
                    }
                }
                None => RoundRobinBye::NotScheduled,
            };
            ByeExplanation {
                player: Named::of(t, *id),
                reasons: ByeReasons::RoundRobin {
                    number: me,
                    because,
                },
            }
        })
        .collect();
    Explanation {
        round: RoundExplanation {
            number: pairing.round,
            kind: RoundKind::RoundRobin {
                in_cycle,
                numbers,
                numbered,
            },
            absent: Vec::new(),
            withdrawn: Vec::new(),
        },
        boards,
        byes,
    }
}
