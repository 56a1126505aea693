//! A game as a state machine over the arbiter's events: the one place where the rules of
//! `RULES.md` decide how a game goes on and how it ends. `ggdesk replay`, the store and the
//! desk all derive a game's board, clocks and result by feeding its events through here.

use super::clock::{ClockError, Time};
use super::piece::{BySide, Rank, Side};
use super::position::{Challenge, MoveError, Position};
use super::settings::RuleSettings;
use super::square::{Move, Square};
use super::turns::{Begin, Common, Turns};
use std::fmt;

/// Why a game ended, with the codes of the record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    FlagCaptured,
    FlagThrough,
    Resignation,
    MoveTime,
    ThirtyMoves,
    Perpetual5,
    Perpetual16,
    CausedExposure,
    Removal,
    Respect,
    GameTime,
}

impl Reason {
    pub const ALL: [Reason; 11] = [
        Reason::FlagCaptured,
        Reason::FlagThrough,
        Reason::Resignation,
        Reason::MoveTime,
        Reason::ThirtyMoves,
        Reason::Perpetual5,
        Reason::Perpetual16,
        Reason::CausedExposure,
        Reason::Removal,
        Reason::Respect,
        Reason::GameTime,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Reason::FlagCaptured => "flag_captured",
            Reason::FlagThrough => "flag_through",
            Reason::Resignation => "resignation",
            Reason::MoveTime => "move_time",
            Reason::ThirtyMoves => "thirty_moves",
            Reason::Perpetual5 => "perpetual_5",
            Reason::Perpetual16 => "perpetual_16",
            Reason::CausedExposure => "caused_exposure",
            Reason::Removal => "removal",
            Reason::Respect => "respect",
            Reason::GameTime => "game_time",
        }
    }

    pub fn from_code(code: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.code() == code)
    }

    /// Words for the desk: "flag captured", "move time".
    pub fn describe(self) -> &'static str {
        match self {
            Reason::FlagCaptured => "flag captured",
            Reason::FlagThrough => "flag through",
            Reason::Resignation => "resignation",
            Reason::MoveTime => "move time (oversteps)",
            Reason::ThirtyMoves => "thirty-move rule",
            Reason::Perpetual5 => "5-move perpetual",
            Reason::Perpetual16 => "16-move perpetual",
            Reason::CausedExposure => "caused exposure",
            Reason::Removal => "removal of a piece",
            Reason::Respect => "draw for respect",
            Reason::GameTime => "game time (adjudication)",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A decided game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win { side: Side, reason: Reason },
    Draw { reason: Reason },
}

impl Outcome {
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win { side, .. } => Some(side),
            Outcome::Draw { .. } => None,
        }
    }

    pub fn reason(self) -> Reason {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    /// The same outcome with the sides swapped.
    pub fn mirrored(self) -> Outcome {
        match self {
            Outcome::Win { side, reason } => Outcome::Win {
                side: side.opponent(),
                reason,
            },
            draw => draw,
        }
    }
}

/// Where a game stands. Every state but `Playing` has stopped the clocks for good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameState {
    Playing,
    Finished {
        outcome: Outcome,
        at: Time,
    },
    /// Game time ran out at `at`: the game stopped and its result waits for the
    /// adjudication (the record's `adjudication_pending`).
    AdjudicationPending {
        at: Time,
    },
    /// The thirty-move rule ended a game on a physical board at `at`: its result waits for
    /// the arbiter's counts of the pieces across the midpoint.
    ThirtyCountPending {
        at: Time,
    },
}

/// The penalties an arbiter can give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PenaltyKind {
    /// The side exposed its own piece: it loses its next move.
    OwnExposure,
    /// The side caused the exposure of an opponent's piece: it loses.
    CausedExposure,
    /// The side removed an opponent's piece by hand: it loses.
    Removal,
}

impl PenaltyKind {
    pub const ALL: [PenaltyKind; 3] = [
        PenaltyKind::OwnExposure,
        PenaltyKind::CausedExposure,
        PenaltyKind::Removal,
    ];

    pub fn code(self) -> &'static str {
        match self {
            PenaltyKind::OwnExposure => "own_exposure",
            PenaltyKind::CausedExposure => "caused_exposure",
            PenaltyKind::Removal => "removal",
        }
    }

    pub fn from_code(code: &str) -> Option<PenaltyKind> {
        PenaltyKind::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// One arbiter event, as recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    /// The side to move moves; `by`, when given, must name that side.
    Move {
        mv: Move,
        by: Option<Side>,
    },
    Penalty {
        kind: PenaltyKind,
        side: Side,
    },
    Resign(Side),
    DrawForRespect,
    Pause,
    Resume,
    /// The record stops here; clocks are judged up to this moment.
    End,
}

impl Event {
    /// The event's kind, as the record names it (`move`, `penalty`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            Event::Move { .. } => "move",
            Event::Penalty { .. } => "penalty",
            Event::Resign(_) => "resign",
            Event::DrawForRespect => "draw_for_respect",
            Event::Pause => "pause",
            Event::Resume => "resume",
            Event::End => "end",
        }
    }

    /// The same event with the board turned round and the sides swapped.
    pub fn mirrored(self) -> Event {
        match self {
            Event::Move { mv, by } => Event::Move {
                mv: mv.mirror(),
                by: by.map(Side::opponent),
            },
            Event::Penalty { kind, side } => Event::Penalty {
                kind,
                side: side.opponent(),
            },
            Event::Resign(side) => Event::Resign(side.opponent()),
            other => other,
        }
    }
}

/// Why an event cannot be applied. The game is left as it was.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EventError {
    #[error(transparent)]
    Clock(#[from] ClockError),
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error("the game already ended at {at:.3} s ({reason})")]
    GameOver { at: f64, reason: &'static str },
    #[error("move by {by}, but {to_move} is to move")]
    WrongSide { by: Side, to_move: Side },
    #[error("no move may be made while the clocks are paused")]
    Paused,
    #[error("a draw for respect is not allowed here: {0}")]
    RespectNotAllowed(String),
    #[error("{side} has no {rank} left on the board")]
    NoSuchPiece { side: Side, rank: Rank },
    #[error("the thirty-move rule needs the counts of pieces across the midpoint first")]
    CountsNeeded,
    #[error("counts across the midpoint are asked only at the thirty-move rule")]
    CountsNotAsked,
    #[error("{side} has only {left} pieces, not {count} across the midpoint")]
    CountTooHigh { side: Side, count: u32, left: u32 },
    #[error("this event belongs to the other kind of game")]
    OtherKindOfGame,
}

/// What an applied event did, for the desk to announce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Applied {
    /// The challenge this move made, if any (ranks inside: arbiter eyes only).
    pub challenge: Option<Challenge>,
    /// Whether the game is over after this event.
    pub ended: bool,
}

/// The moves of one attacked piece on a side's consecutive turns (the perpetual rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Streak {
    /// Where the piece of the streak stands now (the last move's destination).
    at: Option<Square>,
    /// The square it came from on the last move.
    came_from: Option<Square>,
    /// Moves in the streak.
    count: u32,
    /// The latest moves that all go back and forth between the same two squares.
    pair_run: u32,
}

impl Streak {
    fn reset(&mut self) {
        *self = Streak::default();
    }

    /// Records a move that is not a challenge; `attacked` tells whether the piece was
    /// attacked when it moved.
    fn record(&mut self, mv: Move, attacked: bool) {
        if !attacked {
            self.reset();
            return;
        }
        if self.at == Some(mv.from) {
            self.count += 1;
            self.pair_run = if self.came_from == Some(mv.to) {
                self.pair_run + 1
            } else {
                1
            };
        } else {
            self.count = 1;
            self.pair_run = 1;
        }
        self.at = Some(mv.to);
        self.came_from = Some(mv.from);
    }
}

/// A game in progress or over: position, side to move, clocks and every counter the rules
/// need, derived from the events applied so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    turns: Turns,
    position: Position,
    /// A Flag that arrived on the enemy back rank next to an enemy piece: the opponent is on
    /// its one turn to take it.
    pending_flag: Option<Side>,
    streaks: BySide<Streak>,
}

impl Event {
    /// The event as one every kind of game takes (all but a move).
    pub(crate) fn common(self) -> Option<Common> {
        Some(match self {
            Event::Move { .. } => return None,
            Event::Penalty { kind, side } => Common::Penalty { kind, side },
            Event::Resign(side) => Common::Resign(side),
            Event::DrawForRespect => Common::DrawForRespect,
            Event::Pause => Common::Pause,
            Event::Resume => Common::Resume,
            Event::End => Common::End,
        })
    }
}

impl Game {
    pub fn new(
        settings: RuleSettings,
        first: Side,
        ratings: Option<BySide<f64>>,
        position: Position,
    ) -> Game {
        Game {
            turns: Turns::new(settings, first, ratings),
            position,
            pending_flag: None,
            streaks: BySide::default(),
        }
    }

    super::turns::every_game_accessors!();

    /// What every kind of game keeps (clocks, turns, counters, state).
    pub(crate) fn turns(&self) -> &Turns {
        &self.turns
    }

    /// The true position, ranks included: for the arbiter's eyes and the adjudication only.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The side whose Flag waits on the enemy back rank for the opponent's one turn.
    pub fn pending_flag(&self) -> Option<Side> {
        self.pending_flag
    }

    /// How many moves of one attacked piece each side has in a row (the perpetual count).
    pub fn perpetual_counts(&self) -> BySide<u32> {
        BySide::from_fn(|s| self.streaks[s].count)
    }

    /// Judges the clocks up to `t` without an event (the desk calls this every frame): a
    /// clock that ran out ends the game at the moment it did.
    pub fn judge_clocks(&mut self, t: Time) -> Result<(), EventError> {
        self.turns.judge_clocks(t)?;
        self.settle_flag();
        Ok(())
    }

    /// Checks an event at `t` without applying it.
    pub fn check(&self, t: Time, event: &Event) -> Result<(), EventError> {
        self.clone().apply(t, event).map(|_| ())
    }

    /// Applies one event at time `t`. On error nothing changes.
    pub fn apply(&mut self, t: Time, event: &Event) -> Result<Applied, EventError> {
        let clock = match self.turns.begin(t, *event == Event::End)? {
            Begin::Done => {
                self.settle_flag();
                return Ok(Applied {
                    challenge: None,
                    ended: true,
                });
            }
            Begin::Go(clock) => clock,
        };
        let mut applied = Applied::default();
        match event.common() {
            None => {
                let Event::Move { mv, by } = *event else {
                    return Ok(applied);
                };
                let to_move = self.turns.to_move;
                if clock.is_paused() {
                    return Err(EventError::Paused);
                }
                if let Some(by) = by
                    && by != to_move
                {
                    return Err(EventError::WrongSide { by, to_move });
                }
                self.position.check_move(to_move, mv)?;
                self.turns.commit(t, clock);
                applied.challenge = self.play_move(t, mv);
            }
            Some(common) => {
                if self.turns.apply_common(t, clock, common)? {
                    self.turns.end_turn(t, self.pending_flag);
                }
            }
        }
        self.settle_flag();
        applied.ended = self.is_over();
        Ok(applied)
    }

    /// A decided game has no Flag waiting any more.
    fn settle_flag(&mut self) {
        if self.turns.is_over() {
            self.pending_flag = None;
        }
    }

    /// Plays a checked move of the side to move at `t` and applies every rule it triggers,
    /// in the order of `RULES.md`.
    fn play_move(&mut self, t: Time, mv: Move) -> Option<Challenge> {
        let side = self.turns.to_move;
        let attacked = self.position.is_attacked(mv.from);
        let moved_rank = self.position.get(mv.from).map(|p| p.rank);
        let challenge = self.position.play(side, mv).ok().flatten();
        self.turns.count_move(challenge.is_some());
        match challenge {
            Some(_) => self.streaks[side].reset(),
            None => self.streaks[side].record(mv, attacked),
        }

        // The opponent's Flag was waiting for this one turn: unless this move took it, the
        // first Flag to arrive and survive wins, before anything else this move decides.
        if self.pending_flag == Some(side.opponent()) {
            let took_flag =
                challenge.is_some_and(|c| c.defender.rank == Rank::Flag && c.removed().1);
            if took_flag {
                self.turns.win(side, Reason::FlagCaptured, t);
            } else {
                self.turns.win(side.opponent(), Reason::FlagThrough, t);
            }
            return challenge;
        }

        // 1. Flag captured: a Flag left the board, its owner loses.
        if let Some(flag) = challenge.and_then(|c| c.losers().find(|p| p.rank == Rank::Flag)) {
            self.turns
                .win(flag.side.opponent(), Reason::FlagCaptured, t);
            return challenge;
        }

        // 2. Flag through: the Flag arrived on the enemy back rank.
        if challenge.is_none()
            && moved_rank == Some(Rank::Flag)
            && mv.to.row() == side.target_rank()
        {
            if !self.position.is_attacked(mv.to) {
                self.turns.win(side, Reason::FlagThrough, t);
                return challenge;
            }
            self.pending_flag = Some(side);
        }

        // 5. Thirty-move rule (off at 0: a move has just been counted, so the plies are
        // never 0).
        let thirty = self.turns.settings.thirty_moves;
        if self.turns.plies == thirty && self.turns.challenges == 0 {
            let across = BySide::from_fn(|s| self.position.count_across(s) as u32);
            self.turns.finish(thirty_moves_outcome(across), t);
            return challenge;
        }

        // 6. Perpetuals (the long one off at 0: no run is shorter than 0).
        let streak = self.streaks[side];
        let settings = &self.turns.settings;
        let (short, long) = (settings.perpetual_short, settings.perpetual_long);
        let perpetual = if short > 0 && streak.pair_run >= short {
            Some(Reason::Perpetual5)
        } else if streak.count >= long && streak.pair_run < long {
            Some(Reason::Perpetual16)
        } else {
            None
        };
        if let Some(reason) = perpetual {
            self.turns.finish(Outcome::Draw { reason }, t);
            return challenge;
        }

        self.turns.end_turn(t, self.pending_flag);
        challenge
    }
}

/// The thirty-move rule's result: the side with more pieces across the midpoint wins; equal
/// counts draw.
pub(crate) fn thirty_moves_outcome(across: BySide<u32>) -> Outcome {
    match across.white.cmp(&across.black) {
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
    }
}
