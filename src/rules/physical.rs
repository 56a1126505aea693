//! Games played on a real board with a human arbiter. The desk never sees the setups: it
//! runs the clocks, counts complete moves, resolves each challenge from the two ranks the
//! arbiter saw, keeps each side's tally of remaining pieces, and applies the rules it can
//! judge from that. What it cannot see (the pieces across the midpoint at the thirty-move
//! rule, a perpetual, a Flag through) the arbiter enters.

use super::challenge::resolve;
use super::game::{GameState, Outcome, PenaltyKind, Reason};
use super::piece::{BySide, Rank, Side};
use super::settings::RuleSettings;
use crate::clock::{Clock, ClockError, ClockSettings, Expiry, Time};

/// One event of a game on a physical board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhysicalEvent {
    /// The side to move moved; for a challenge, the ranks the arbiter saw (attacker first).
    Move {
        challenge: Option<(Rank, Rank)>,
    },
    Penalty {
        kind: PenaltyKind,
        side: Side,
    },
    Resign(Side),
    DrawForRespect,
    Pause,
    Resume,
    /// The pieces of each side across the midpoint, counted when the thirty-move rule ends
    /// the game.
    ThirtyCount {
        white: u32,
        black: u32,
    },
    /// The arbiter declares a perpetual: a draw (`perpetual_5` or `perpetual_16`).
    Perpetual {
        long: bool,
    },
    /// The arbiter declares that `side`'s Flag came through and survived.
    FlagThrough(Side),
    End,
}

impl PhysicalEvent {
    pub fn code(&self) -> &'static str {
        match self {
            PhysicalEvent::Move { challenge: None } => "move",
            PhysicalEvent::Move { challenge: Some(_) } => "challenge",
            PhysicalEvent::Penalty { .. } => "penalty",
            PhysicalEvent::Resign(_) => "resign",
            PhysicalEvent::DrawForRespect => "draw_for_respect",
            PhysicalEvent::Pause => "pause",
            PhysicalEvent::Resume => "resume",
            PhysicalEvent::ThirtyCount { .. } => "thirty_count",
            PhysicalEvent::Perpetual { .. } => "perpetual",
            PhysicalEvent::FlagThrough(_) => "flag_through",
            PhysicalEvent::End => "end",
        }
    }
}

/// Why a physical-board event is refused. Nothing changes.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PhysicalError {
    #[error(transparent)]
    Clock(#[from] ClockError),
    #[error("the game already ended")]
    GameOver,
    #[error("no move may be made while the clocks are paused")]
    Paused,
    #[error("{side} has no {rank} left on the board")]
    NoSuchPiece { side: Side, rank: Rank },
    #[error("the thirty-move rule needs the counts of pieces across the midpoint first")]
    CountsNeeded,
    #[error("counts across the midpoint are asked only at the thirty-move rule")]
    CountsNotAsked,
    #[error("{side} has only {left} pieces, not {count} across the midpoint")]
    CountTooHigh { side: Side, count: u32, left: u32 },
    #[error("a draw for respect is not allowed here: {0}")]
    RespectNotAllowed(String),
}

/// A physical-board game: clocks, move counts, the tally of remaining pieces.
#[derive(Debug, Clone, PartialEq)]
pub struct PhysicalGame {
    settings: RuleSettings,
    ratings: Option<BySide<f64>>,
    clock: Clock,
    to_move: Side,
    last_t: Time,
    plies: u32,
    challenges: u32,
    moves_by: BySide<u32>,
    lost_turns: BySide<u32>,
    tally: BySide<[u8; 15]>,
    /// The thirty-move rule ended the game at this moment; the counts are awaited.
    thirty_at: Option<Time>,
    state: GameState,
}

fn full_set() -> [u8; 15] {
    Rank::ALL.map(|r| r.count_in_set() as u8)
}

impl PhysicalGame {
    pub fn new(settings: RuleSettings, first: Side, ratings: Option<BySide<f64>>) -> PhysicalGame {
        PhysicalGame {
            settings,
            ratings,
            clock: Clock::new(
                ClockSettings {
                    move_limit_ns: settings.move_limit_ns,
                    oversteps_to_lose: settings.oversteps_to_lose,
                    game_limit_ns: settings.game_limit_ns,
                },
                first,
            ),
            to_move: first,
            last_t: Time(0),
            plies: 0,
            challenges: 0,
            moves_by: BySide::default(),
            lost_turns: BySide::default(),
            tally: BySide::new(full_set(), full_set()),
            thirty_at: None,
            state: GameState::Playing,
        }
    }

    pub fn settings(&self) -> &RuleSettings {
        &self.settings
    }
    pub fn clock(&self) -> &Clock {
        &self.clock
    }
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    pub fn state(&self) -> GameState {
        self.state
    }
    pub fn is_over(&self) -> bool {
        self.state != GameState::Playing
    }
    pub fn plies(&self) -> u32 {
        self.plies
    }
    pub fn challenges(&self) -> u32 {
        self.challenges
    }
    pub fn moves_by(&self) -> BySide<u32> {
        self.moves_by
    }
    pub fn lost_turns(&self) -> BySide<u32> {
        self.lost_turns
    }
    pub fn last_time(&self) -> Time {
        self.last_t
    }
    /// Whether the thirty-move rule is waiting for the counts across the midpoint.
    pub fn awaiting_thirty_count(&self) -> bool {
        self.thirty_at.is_some()
    }

    /// How many pieces of `rank` `side` still has.
    pub fn remaining(&self, side: Side, rank: Rank) -> u32 {
        u32::from(self.tally[side][rank.index()])
    }

    /// Every piece `side` still has, by rank, in the rulebook's order (for adjudication).
    pub fn remaining_pieces(&self, side: Side) -> Vec<Rank> {
        Rank::ALL
            .into_iter()
            .flat_map(|r| std::iter::repeat_n(r, self.remaining(side, r) as usize))
            .collect()
    }

    pub fn count(&self, side: Side) -> u32 {
        self.tally[side].iter().map(|&n| u32::from(n)).sum()
    }

    pub fn respect_allowed(&self) -> Result<(), String> {
        let Some(r) = self.ratings else {
            return Err("the players' ratings are not known".into());
        };
        if r.white != r.black {
            return Err(format!(
                "the ratings differ (white {}, black {})",
                r.white, r.black
            ));
        }
        let need = self.settings.respect_min_moves;
        if self.moves_by.white < need || self.moves_by.black < need {
            return Err(format!(
                "each side needs {need} complete moves (white has {}, black {})",
                self.moves_by.white, self.moves_by.black
            ));
        }
        Ok(())
    }

    fn expire(&mut self, expiry: Expiry) {
        self.thirty_at = None;
        self.state = match expiry {
            Expiry::MoveTime { side, at } => GameState::Finished {
                outcome: Outcome::Win {
                    side: side.opponent(),
                    reason: Reason::MoveTime,
                },
                at,
            },
            Expiry::GameTime { at } => GameState::GameTimeUp { at },
        };
    }

    /// Judges the clocks up to `t` without an event.
    pub fn judge_clocks(&mut self, t: Time) -> Result<(), PhysicalError> {
        if self.is_over() || self.thirty_at.is_some() {
            return Ok(());
        }
        let mut clock = self.clock;
        let expiry = clock.advance(t)?;
        self.clock = clock;
        self.last_t = self.last_t.max(t);
        if let Some(e) = expiry {
            self.expire(e);
        }
        Ok(())
    }

    fn finish(&mut self, outcome: Outcome, at: Time) {
        self.state = GameState::Finished { outcome, at };
    }

    /// Applies one event at `t`; on error nothing changes.
    pub fn apply(&mut self, t: Time, event: &PhysicalEvent) -> Result<(), PhysicalError> {
        if t < self.last_t {
            return Err(ClockError::TimeWentBack {
                from: self.last_t.as_secs_f64(),
                to: t.as_secs_f64(),
            }
            .into());
        }
        if let Some(at) = self.thirty_at {
            // The clocks stopped at the thirty-move rule; only the counts (or the end) follow.
            return match *event {
                PhysicalEvent::ThirtyCount { white, black } => {
                    for (side, count) in [(Side::White, white), (Side::Black, black)] {
                        let left = self.count(side);
                        if count > left {
                            return Err(PhysicalError::CountTooHigh { side, count, left });
                        }
                    }
                    let outcome = match white.cmp(&black) {
                        std::cmp::Ordering::Greater => Outcome::Win {
                            side: Side::White,
                            reason: Reason::ThirtyMoves,
                        },
                        std::cmp::Ordering::Less => Outcome::Win {
                            side: Side::Black,
                            reason: Reason::ThirtyMoves,
                        },
                        std::cmp::Ordering::Equal => Outcome::Draw {
                            reason: Reason::ThirtyMoves,
                        },
                    };
                    self.thirty_at = None;
                    self.last_t = t;
                    self.finish(outcome, at);
                    Ok(())
                }
                _ => Err(PhysicalError::CountsNeeded),
            };
        }
        if self.is_over() {
            if *event == PhysicalEvent::End {
                self.last_t = t;
                return Ok(());
            }
            return Err(PhysicalError::GameOver);
        }
        let mut clock = self.clock;
        if let Some(expiry) = clock.advance(t)? {
            if *event != PhysicalEvent::End {
                return Err(PhysicalError::GameOver);
            }
            self.clock = clock;
            self.last_t = t;
            self.expire(expiry);
            return Ok(());
        }
        match *event {
            PhysicalEvent::Move { challenge } => {
                if clock.is_paused() {
                    return Err(PhysicalError::Paused);
                }
                let side = self.to_move;
                if let Some((a, d)) = challenge {
                    for (s, r) in [(side, a), (side.opponent(), d)] {
                        if self.remaining(s, r) == 0 {
                            return Err(PhysicalError::NoSuchPiece { side: s, rank: r });
                        }
                    }
                }
                self.clock = clock;
                self.last_t = t;
                self.plies += 1;
                self.moves_by[side] += 1;
                if let Some((a, d)) = challenge {
                    self.challenges += 1;
                    let (a_out, d_out) = match resolve(a, d) {
                        super::ChallengeResult::AttackerWins => (false, true),
                        super::ChallengeResult::DefenderWins => (true, false),
                        super::ChallengeResult::BothRemoved => (true, true),
                    };
                    if a_out {
                        self.tally[side][a.index()] -= 1;
                    }
                    if d_out {
                        self.tally[side.opponent()][d.index()] -= 1;
                    }
                    let flag_lost = [(side, a, a_out), (side.opponent(), d, d_out)]
                        .into_iter()
                        .find(|&(_, r, out)| out && r == Rank::Flag);
                    if let Some((owner, _, _)) = flag_lost {
                        self.finish(
                            Outcome::Win {
                                side: owner.opponent(),
                                reason: Reason::FlagCaptured,
                            },
                            t,
                        );
                        return Ok(());
                    }
                }
                let thirty = self.settings.thirty_moves;
                if thirty > 0 && self.plies == thirty && self.challenges == 0 {
                    self.thirty_at = Some(t);
                    return Ok(());
                }
                self.end_turn();
            }
            PhysicalEvent::Penalty { kind, side } => {
                self.clock = clock;
                self.last_t = t;
                match kind {
                    PenaltyKind::OwnExposure if side == self.to_move => self.end_turn(),
                    PenaltyKind::OwnExposure => self.lost_turns[side] += 1,
                    PenaltyKind::CausedExposure => self.finish(
                        Outcome::Win {
                            side: side.opponent(),
                            reason: Reason::CausedExposure,
                        },
                        t,
                    ),
                    PenaltyKind::Removal => self.finish(
                        Outcome::Win {
                            side: side.opponent(),
                            reason: Reason::Removal,
                        },
                        t,
                    ),
                }
            }
            PhysicalEvent::Resign(side) => {
                self.clock = clock;
                self.last_t = t;
                self.finish(
                    Outcome::Win {
                        side: side.opponent(),
                        reason: Reason::Resignation,
                    },
                    t,
                );
            }
            PhysicalEvent::DrawForRespect => {
                self.respect_allowed()
                    .map_err(PhysicalError::RespectNotAllowed)?;
                self.clock = clock;
                self.last_t = t;
                self.finish(
                    Outcome::Draw {
                        reason: Reason::Respect,
                    },
                    t,
                );
            }
            PhysicalEvent::Pause => {
                clock.pause()?;
                self.clock = clock;
                self.last_t = t;
            }
            PhysicalEvent::Resume => {
                clock.resume()?;
                self.clock = clock;
                self.last_t = t;
            }
            PhysicalEvent::ThirtyCount { .. } => return Err(PhysicalError::CountsNotAsked),
            PhysicalEvent::Perpetual { long } => {
                self.clock = clock;
                self.last_t = t;
                let reason = if long {
                    Reason::Perpetual16
                } else {
                    Reason::Perpetual5
                };
                self.finish(Outcome::Draw { reason }, t);
            }
            PhysicalEvent::FlagThrough(side) => {
                self.clock = clock;
                self.last_t = t;
                self.finish(
                    Outcome::Win {
                        side,
                        reason: Reason::FlagThrough,
                    },
                    t,
                );
            }
            PhysicalEvent::End => {
                self.clock = clock;
                self.last_t = t;
            }
        }
        Ok(())
    }

    fn end_turn(&mut self) {
        let mut next = self.to_move.opponent();
        while self.lost_turns[next] > 0 {
            self.lost_turns[next] -= 1;
            next = next.opponent();
        }
        self.to_move = next;
        self.clock.start_turn(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> Time {
        Time::from_secs(s)
    }

    fn mv() -> PhysicalEvent {
        PhysicalEvent::Move { challenge: None }
    }

    #[test]
    fn a_challenge_is_resolved_from_the_ranks_seen_and_the_tally_follows() {
        let mut g = PhysicalGame::new(RuleSettings::default(), Side::White, None);
        g.apply(
            at(5),
            &PhysicalEvent::Move {
                challenge: Some((Rank::Spy, Rank::G5)),
            },
        )
        .expect("spy takes the five-star general");
        assert_eq!(g.remaining(Side::Black, Rank::G5), 0);
        assert_eq!(g.remaining(Side::White, Rank::Spy), 2);
        // Black has no Five-Star General left to challenge with.
        let err = g
            .apply(
                at(6),
                &PhysicalEvent::Move {
                    challenge: Some((Rank::G5, Rank::Private)),
                },
            )
            .expect_err("no such piece");
        assert_eq!(
            err,
            PhysicalError::NoSuchPiece {
                side: Side::Black,
                rank: Rank::G5
            }
        );
        g.apply(
            at(7),
            &PhysicalEvent::Move {
                challenge: Some((Rank::Private, Rank::Spy)),
            },
        )
        .expect("private takes spy");
        assert_eq!(g.remaining(Side::White, Rank::Spy), 1);
        assert_eq!(g.count(Side::White), 20);
        assert_eq!(g.count(Side::Black), 20);
    }

    #[test]
    fn a_flag_lost_in_a_challenge_ends_the_game() {
        let mut g = PhysicalGame::new(RuleSettings::default(), Side::Black, None);
        g.apply(
            at(3),
            &PhysicalEvent::Move {
                challenge: Some((Rank::Flag, Rank::Private)),
            },
        )
        .expect("flag attacks");
        assert_eq!(
            g.state(),
            GameState::Finished {
                outcome: Outcome::Win {
                    side: Side::White,
                    reason: Reason::FlagCaptured
                },
                at: at(3)
            }
        );
    }

    #[test]
    fn the_thirty_move_rule_asks_for_the_counts_across_the_midpoint() {
        let mut g = PhysicalGame::new(RuleSettings::default(), Side::White, None);
        for i in 0..30 {
            g.apply(at(i + 1), &mv()).expect("move");
        }
        assert!(g.awaiting_thirty_count());
        assert_eq!(g.apply(at(31), &mv()), Err(PhysicalError::CountsNeeded));
        assert!(matches!(
            g.apply(
                at(32),
                &PhysicalEvent::ThirtyCount {
                    white: 22,
                    black: 1
                }
            ),
            Err(PhysicalError::CountTooHigh { .. })
        ));
        g.apply(at(32), &PhysicalEvent::ThirtyCount { white: 2, black: 2 })
            .expect("counts");
        assert_eq!(
            g.state(),
            GameState::Finished {
                outcome: Outcome::Draw {
                    reason: Reason::ThirtyMoves
                },
                at: at(30)
            }
        );
    }

    #[test]
    fn the_third_overstep_loses_and_penalties_skip_turns() {
        let settings = RuleSettings::default();
        let mut g = PhysicalGame::new(settings, Side::White, None);
        g.apply(
            at(1),
            &PhysicalEvent::Penalty {
                kind: PenaltyKind::OwnExposure,
                side: Side::Black,
            },
        )
        .expect("penalty");
        g.apply(at(2), &mv())
            .expect("white moves; black's turn is lost");
        assert_eq!(g.to_move(), Side::White);
        let mut t = 2;
        for _ in 0..2 {
            t += 121;
            g.apply(at(t), &mv()).expect("late move");
            t += 1;
            g.apply(at(t), &mv()).expect("quick reply");
        }
        assert_eq!(g.clock().oversteps().white, 2);
        g.judge_clocks(at(t + 200)).expect("judge");
        assert_eq!(
            g.state(),
            GameState::Finished {
                outcome: Outcome::Win {
                    side: Side::Black,
                    reason: Reason::MoveTime
                },
                at: at(t + 120)
            }
        );
    }
}
