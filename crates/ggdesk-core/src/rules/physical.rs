//! Games played on a real board with a human arbiter. The desk never sees the setups: it
//! runs the clocks, counts complete moves, resolves each challenge from the two ranks the
//! arbiter saw, keeps each side's tally of remaining pieces, and applies the rules it can
//! judge from that. What it cannot see (the pieces across the midpoint at the thirty-move
//! rule, a perpetual, a Flag through) the arbiter enters.

use super::challenge::resolve;
use super::clock::{ClockError, Time};
use super::game::{EventError, GameState, Outcome, PenaltyKind, Reason, thirty_moves_outcome};
use super::piece::{ByRank, BySide, Rank, Side};
use super::settings::RuleSettings;
use super::turns::{Begin, Common, Turns};

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

/// Why a physical-board event is refused: the same errors as any game's. Nothing changes.
pub type PhysicalError = EventError;

/// A physical-board game: clocks, move counts, the tally of remaining pieces. When the
/// thirty-move rule ends it, its state is [`GameState::ThirtyCountPending`] until the
/// arbiter enters the counts.
#[derive(Debug, Clone, PartialEq)]
pub struct PhysicalGame {
    turns: Turns,
    tally: BySide<ByRank<u32>>,
}

impl From<Common> for PhysicalEvent {
    fn from(c: Common) -> Self {
        match c {
            Common::Penalty { kind, side } => PhysicalEvent::Penalty { kind, side },
            Common::Resign(side) => PhysicalEvent::Resign(side),
            Common::DrawForRespect => PhysicalEvent::DrawForRespect,
            Common::Pause => PhysicalEvent::Pause,
            Common::Resume => PhysicalEvent::Resume,
            Common::End => PhysicalEvent::End,
        }
    }
}

impl PhysicalEvent {
    /// The event as one every kind of game takes, if it is one.
    fn common(self) -> Option<Common> {
        Some(match self {
            PhysicalEvent::Penalty { kind, side } => Common::Penalty { kind, side },
            PhysicalEvent::Resign(side) => Common::Resign(side),
            PhysicalEvent::DrawForRespect => Common::DrawForRespect,
            PhysicalEvent::Pause => Common::Pause,
            PhysicalEvent::Resume => Common::Resume,
            PhysicalEvent::End => Common::End,
            _ => return None,
        })
    }
}

impl PhysicalGame {
    pub fn new(settings: RuleSettings, first: Side, ratings: Option<BySide<f64>>) -> PhysicalGame {
        PhysicalGame {
            turns: Turns::new(settings, first, ratings),
            tally: BySide::new(ByRank::full_set(), ByRank::full_set()),
        }
    }

    super::turns::every_game_accessors!();

    /// What every kind of game keeps (clocks, turns, counters, state).
    pub(crate) fn turns(&self) -> &Turns {
        &self.turns
    }

    /// Whether the thirty-move rule is waiting for the counts across the midpoint.
    pub fn awaiting_thirty_count(&self) -> bool {
        matches!(self.turns.state, GameState::ThirtyCountPending { .. })
    }

    /// How many pieces of `rank` `side` still has.
    pub fn remaining(&self, side: Side, rank: Rank) -> u32 {
        self.tally[side][rank]
    }

    /// Every piece `side` still has, by rank, in the rulebook's order (for adjudication).
    pub fn remaining_pieces(&self, side: Side) -> Vec<Rank> {
        Rank::ALL
            .into_iter()
            .flat_map(|r| std::iter::repeat_n(r, self.remaining(side, r) as usize))
            .collect()
    }

    pub fn count(&self, side: Side) -> u32 {
        self.tally[side].total()
    }

    /// Judges the clocks up to `t` without an event. The clocks stand still once the game
    /// stopped, also while the thirty-move rule waits for the counts.
    pub fn judge_clocks(&mut self, t: Time) -> Result<(), PhysicalError> {
        self.turns.judge_clocks(t)
    }

    /// Applies one event at `t`; on error nothing changes.
    pub fn apply(&mut self, t: Time, event: &PhysicalEvent) -> Result<(), PhysicalError> {
        if let GameState::ThirtyCountPending { at } = self.turns.state {
            // The game ended at the thirty-move rule; only the counts follow.
            let PhysicalEvent::ThirtyCount { white, black } = *event else {
                return Err(EventError::CountsNeeded);
            };
            if t < self.turns.last_t {
                return Err(ClockError::TimeWentBack {
                    from: self.turns.last_t.as_secs_f64(),
                    to: t.as_secs_f64(),
                }
                .into());
            }
            for (side, count) in [(Side::White, white), (Side::Black, black)] {
                let left = self.count(side);
                if count > left {
                    return Err(EventError::CountTooHigh { side, count, left });
                }
            }
            self.turns.last_t = t;
            self.turns
                .finish(thirty_moves_outcome(BySide::new(white, black)), at);
            return Ok(());
        }
        let clock = match self.turns.begin(t, *event == PhysicalEvent::End)? {
            Begin::Done => return Ok(()),
            Begin::Go(clock) => clock,
        };
        if let Some(common) = event.common() {
            if self.turns.apply_common(t, clock, common)? {
                self.turns.end_turn(t, None);
            }
            return Ok(());
        }
        match *event {
            PhysicalEvent::Move { challenge } => {
                if clock.is_paused() {
                    return Err(EventError::Paused);
                }
                let side = self.turns.to_move;
                if let Some((a, d)) = challenge {
                    for (s, r) in [(side, a), (side.opponent(), d)] {
                        if self.remaining(s, r) == 0 {
                            return Err(EventError::NoSuchPiece { side: s, rank: r });
                        }
                    }
                }
                self.turns.commit(t, clock);
                self.turns.count_move(challenge.is_some());
                if let Some((a, d)) = challenge {
                    let (a_out, d_out) = match resolve(a, d) {
                        super::ChallengeResult::AttackerWins => (false, true),
                        super::ChallengeResult::DefenderWins => (true, false),
                        super::ChallengeResult::BothRemoved => (true, true),
                    };
                    if a_out {
                        self.tally[side][a] -= 1;
                    }
                    if d_out {
                        self.tally[side.opponent()][d] -= 1;
                    }
                    let flag_lost = [(side, a, a_out), (side.opponent(), d, d_out)]
                        .into_iter()
                        .find(|&(_, r, out)| out && r == Rank::Flag);
                    if let Some((owner, _, _)) = flag_lost {
                        self.turns.win(owner.opponent(), Reason::FlagCaptured, t);
                        return Ok(());
                    }
                }
                // Off at 0: the move just counted makes the plies at least 1.
                let thirty = self.turns.settings.thirty_moves;
                if self.turns.plies == thirty && self.turns.challenges == 0 {
                    self.turns.state = GameState::ThirtyCountPending { at: t };
                    return Ok(());
                }
                self.turns.end_turn(t, None);
            }
            PhysicalEvent::ThirtyCount { .. } => return Err(EventError::CountsNotAsked),
            PhysicalEvent::Perpetual { long } => {
                self.turns.commit(t, clock);
                let reason = if long {
                    Reason::Perpetual16
                } else {
                    Reason::Perpetual5
                };
                self.turns.finish(Outcome::Draw { reason }, t);
            }
            PhysicalEvent::FlagThrough(side) => {
                self.turns.commit(t, clock);
                self.turns.win(side, Reason::FlagThrough, t);
            }
            _ => {}
        }
        Ok(())
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
        assert_eq!(g.apply(at(31), &mv()), Err(EventError::CountsNeeded));
        assert!(matches!(
            g.apply(
                at(32),
                &PhysicalEvent::ThirtyCount {
                    white: 22,
                    black: 1
                }
            ),
            Err(EventError::CountTooHigh { .. })
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
