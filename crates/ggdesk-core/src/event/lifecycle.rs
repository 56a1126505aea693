//! A round's life, decided here and nowhere else: its state (draft, published, complete),
//! whether the next round can be paired, and what swapping two players of a draft would
//! break (a typed refusal) or needs confirmed (typed warnings). Pure: the store loads what
//! these functions need, runs them inside its transaction and saves what they decide.

use crate::pairing::Named;
use crate::rules::Side;
use crate::tournament::{BoardNo, PlayerId, RoundNo, Tournament};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// A round's state: drafted (the pairing's proposal, changed by hand), published (being
/// played), complete (every result in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundState {
    Draft,
    Published,
    Complete,
}

impl RoundState {
    /// The code the store writes.
    pub fn code(self) -> &'static str {
        match self {
            RoundState::Draft => "draft",
            RoundState::Published => "published",
            RoundState::Complete => "complete",
        }
    }

    pub fn from_code(code: &str) -> Option<RoundState> {
        match code {
            "draft" => Some(RoundState::Draft),
            "published" => Some(RoundState::Published),
            "complete" => Some(RoundState::Complete),
            _ => None,
        }
    }

    /// The state a published round takes when its boards are as given: complete once no
    /// board is pending, published again when a result was set back to pending. A draft
    /// stays a draft: only publishing changes it.
    pub fn after_results(self, pending_boards: u32) -> RoundState {
        match (self, pending_boards) {
            (RoundState::Draft, _) => RoundState::Draft,
            (_, 0) => RoundState::Complete,
            _ => RoundState::Published,
        }
    }
}

/// Where a tournament stands for pairing its next round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextRound {
    /// This round can be paired now.
    Ready(RoundNo),
    /// Fewer than two players are registered.
    TooFewPlayers,
    /// The draft of this round waits: publish or discard it first.
    DraftWaiting(RoundNo),
    /// This round is in play: some of its results are not in.
    InPlay(RoundNo),
    /// Every planned round has been paired.
    AllPlayed,
}

/// Whether the round after `last` (the tournament's last round, drafts included, with its
/// state) can be paired. `t` holds the published and complete rounds.
pub fn next_round(t: &Tournament, last: Option<(RoundNo, RoundState)>) -> NextRound {
    let Some((number, state)) = last else {
        return if t.players().len() >= 2 {
            NextRound::Ready(RoundNo(1))
        } else {
            NextRound::TooFewPlayers
        };
    };
    if state == RoundState::Draft {
        return NextRound::DraftWaiting(number);
    }
    if t.planned_rounds().is_some_and(|p| number.0 >= p) {
        return NextRound::AllPlayed;
    }
    if !t.is_round_complete(t.rounds().len()) {
        return NextRound::InPlay(number);
    }
    NextRound::Ready(number.next())
}

/// Where a player sits in a drafted round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    Board(BoardNo, Side),
    Bye,
    /// Registered but not in the round (asked to be absent, or left out by the pairing).
    Out,
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Board(n, side) => write!(f, "{side} on table {n}"),
            Seat::Bye => f.write_str("the bye"),
            Seat::Out => f.write_str("not paired"),
        }
    }
}

/// A drafted round as a swap sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftRound {
    pub number: RoundNo,
    pub state: RoundState,
    /// Each board's (white, black), by its place.
    pub boards: BTreeMap<BoardNo, (PlayerId, PlayerId)>,
    pub byes: Vec<PlayerId>,
    /// Players who asked not to be paired in this round.
    pub asked_absent: Vec<PlayerId>,
}

impl DraftRound {
    /// The seat of every player of `t` in this round.
    pub fn seats(&self, t: &Tournament) -> HashMap<PlayerId, Seat> {
        let mut seats: HashMap<PlayerId, Seat> =
            t.players().iter().map(|p| (p.id, Seat::Out)).collect();
        for (&n, &(w, b)) in &self.boards {
            seats.insert(w, Seat::Board(n, Side::White));
            seats.insert(b, Seat::Board(n, Side::Black));
        }
        for &p in &self.byes {
            seats.insert(p, Seat::Bye);
        }
        seats
    }
}

/// Why a swap is not allowed at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwapRefusal {
    #[error("round {0} is published: only a draft can be changed by hand (re-pair it first)")]
    NotADraft(RoundNo),
    #[error("choose two different players to swap")]
    SamePlayer,
    #[error("player {0} is not registered")]
    NotRegistered(PlayerId),
    #[error("neither {a} nor {b} is in round {round}")]
    NeitherInRound { a: Named, b: Named, round: RoundNo },
    #[error("both players already sit there")]
    SameSeat,
    #[error("{0} is banned: a banned player cannot be paired")]
    Banned(Named),
    #[error("{0} has withdrawn: re-enter the player first")]
    Withdrawn(Named),
}

/// What the director must confirm before a swap is made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwapWarning {
    #[error("{a} and {b} already met in round {round}: a rematch")]
    Rematch { a: Named, b: Named, round: RoundNo },
    #[error("{a} and {b} are a forbidden pair")]
    Forbidden { a: Named, b: Named },
    #[error("{0} already had a bye")]
    SecondBye(Named),
    #[error("{0} has won by forfeit, and so should not get the bye")]
    ByeAfterForfeitWin(Named),
    #[error("{player} asked to be absent in round {round}")]
    AskedAbsent { player: Named, round: RoundNo },
}

/// A swap checked: each player's seat before it (each takes the other's), and what needs
/// the director's confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwapPlan {
    pub a_seat: Seat,
    pub b_seat: Seat,
    pub warnings: Vec<SwapWarning>,
}

/// What the director should confirm about a board made by hand.
fn board_warnings(t: &Tournament, w: PlayerId, b: PlayerId) -> Vec<SwapWarning> {
    let mut out = Vec::new();
    if let Some(r) = t.rounds().iter().position(|r| {
        r.games
            .iter()
            .any(|g| (g.white == w && g.black == b) || (g.white == b && g.black == w))
    }) {
        out.push(SwapWarning::Rematch {
            a: Named::of(t, w),
            b: Named::of(t, b),
            round: RoundNo::from_index(r),
        });
    }
    if t.is_forbidden(w, b) {
        out.push(SwapWarning::Forbidden {
            a: Named::of(t, w),
            b: Named::of(t, b),
        });
    }
    out
}

fn bye_warnings(t: &Tournament, p: PlayerId) -> Vec<SwapWarning> {
    let mut out = Vec::new();
    if t.had_bye(p) {
        out.push(SwapWarning::SecondBye(Named::of(t, p)));
    }
    if t.has_forfeit_win(p) {
        out.push(SwapWarning::ByeAfterForfeitWin(Named::of(t, p)));
    }
    out
}

/// Checks swapping `a` and `b` in a draft (each takes the other's seat: a board side, the
/// bye, or out of the round): a refusal when it is not allowed at all, otherwise the seats
/// and the warnings to confirm (a rematch or a forbidden pair on a board it makes, a second
/// bye or a bye after a forfeit win, seating a player who asked to be absent). `banned`
/// lists the players banned from the tournament (only `a` and `b` are looked at).
pub fn plan_swap(
    t: &Tournament,
    round: &DraftRound,
    a: PlayerId,
    b: PlayerId,
    banned: &[PlayerId],
) -> Result<SwapPlan, SwapRefusal> {
    if round.state != RoundState::Draft {
        return Err(SwapRefusal::NotADraft(round.number));
    }
    if a == b {
        return Err(SwapRefusal::SamePlayer);
    }
    let seats = round.seats(t);
    let a_seat = *seats.get(&a).ok_or(SwapRefusal::NotRegistered(a))?;
    let b_seat = *seats.get(&b).ok_or(SwapRefusal::NotRegistered(b))?;
    if a_seat == Seat::Out && b_seat == Seat::Out {
        return Err(SwapRefusal::NeitherInRound {
            a: Named::of(t, a),
            b: Named::of(t, b),
            round: round.number,
        });
    }
    if a_seat == b_seat {
        return Err(SwapRefusal::SameSeat);
    }
    // Whoever moves into a seat must be allowed to play.
    for (p, to) in [(a, b_seat), (b, a_seat)] {
        if to == Seat::Out {
            continue;
        }
        if banned.contains(&p) {
            return Err(SwapRefusal::Banned(Named::of(t, p)));
        }
        if t.player(p).is_some_and(|x| x.withdrawn) {
            return Err(SwapRefusal::Withdrawn(Named::of(t, p)));
        }
    }
    let mut boards = round.boards.clone();
    let mut bye = None;
    for (p, to) in [(a, b_seat), (b, a_seat)] {
        match to {
            Seat::Board(n, side) => {
                if let Some(board) = boards.get_mut(&n) {
                    match side {
                        Side::White => board.0 = p,
                        Side::Black => board.1 = p,
                    }
                }
            }
            Seat::Bye => bye = Some(p),
            Seat::Out => {}
        }
    }
    let mut warnings = Vec::new();
    let mut touched: Vec<BoardNo> = Vec::new();
    for s in [a_seat, b_seat] {
        if let Seat::Board(n, _) = s
            && !touched.contains(&n)
        {
            touched.push(n);
        }
    }
    for n in touched {
        if let Some(&(w, b)) = boards.get(&n) {
            warnings.extend(board_warnings(t, w, b));
        }
    }
    if let Some(p) = bye {
        warnings.extend(bye_warnings(t, p));
    }
    for (p, to) in [(a, b_seat), (b, a_seat)] {
        if to != Seat::Out && seats.get(&p) == Some(&Seat::Out) && round.asked_absent.contains(&p) {
            warnings.push(SwapWarning::AskedAbsent {
                player: Named::of(t, p),
                round: round.number,
            });
        }
    }
    Ok(SwapPlan {
        a_seat,
        b_seat,
        warnings,
    })
}
