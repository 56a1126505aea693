//! What every game has, whatever the desk sees of its board: the clocks, whose turn it is,
//! the move counters, the turns a side must lose, and how the game ended. Games the desk
//! arbitrates (`Game`) and games on a physical board (`PhysicalGame`) both keep their turns
//! here, so pauses, penalties, resignations, draws for respect, oversteps and game time are
//! judged by one piece of code.

use super::clock::{Clock, ClockError, ClockSettings, Expiry, Time};
use super::game::{EventError, GameState, Outcome, PenaltyKind, Reason};
use super::piece::{BySide, Side};
use super::settings::RuleSettings;

/// The accessors every kind of game has, written once: each kind (and `game::AnyGame`)
/// defines `fn turns(&self) -> &Turns` and `fn judge_clocks(&mut self, t: Time) ->
/// Result<(), EventError>`, is `Clone`, and invokes this inside its `impl`.
macro_rules! every_game_accessors {
    () => {
        pub fn settings(&self) -> &$crate::rules::RuleSettings {
            &self.turns().settings
        }

        pub fn clock(&self) -> &$crate::rules::clock::Clock {
            &self.turns().clock
        }

        pub fn to_move(&self) -> $crate::rules::Side {
            self.turns().to_move
        }

        pub fn state(&self) -> $crate::rules::GameState {
            self.turns().state
        }

        /// Whether the game stopped: decided, or waiting for the adjudication or for the
        /// thirty-move counts.
        pub fn is_over(&self) -> bool {
            self.turns().is_over()
        }

        /// Moves made (challenges included).
        pub fn plies(&self) -> u32 {
            self.turns().plies
        }

        pub fn challenges(&self) -> u32 {
            self.turns().challenges
        }

        /// Complete moves made by each side.
        pub fn moves_by(&self) -> $crate::rules::BySide<u32> {
            self.turns().moves_by
        }

        /// Moves each side still has to lose for exposing its own pieces.
        pub fn lost_turns(&self) -> $crate::rules::BySide<u32> {
            self.turns().lost_turns
        }

        /// The time of the last applied event (or of the last clock judgement).
        pub fn last_time(&self) -> $crate::rules::clock::Time {
            self.turns().last_t
        }

        pub fn ratings(&self) -> Option<$crate::rules::BySide<f64>> {
            self.turns().ratings
        }

        /// Whether a draw for respect may be agreed now, and if not, why.
        pub fn respect_allowed(&self) -> Result<(), String> {
            self.turns().respect_allowed()
        }

        /// Whether the game is over once its clocks are judged up to `t` (a clock that ran
        /// out before then ended it); false when `t` is before the last event. Judges a copy:
        /// the game itself is left as it is.
        pub fn over_by(&self, t: $crate::rules::clock::Time) -> bool {
            let mut judged = self.clone();
            judged.judge_clocks(t).is_ok() && judged.is_over()
        }
    };
}
pub(crate) use every_game_accessors;

/// The events every kind of game takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Common {
    Penalty { kind: PenaltyKind, side: Side },
    Resign(Side),
    DrawForRespect,
    Pause,
    Resume,
    End,
}

/// How an event starts: it goes on with the clock judged up to its time, or it was the end
/// of a record after the game had ended and nothing more is to be done.
pub(crate) enum Begin {
    Go(Clock),
    Done,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Turns {
    pub(crate) settings: RuleSettings,
    pub(crate) ratings: Option<BySide<f64>>,
    pub(crate) clock: Clock,
    pub(crate) to_move: Side,
    pub(crate) last_t: Time,
    pub(crate) plies: u32,
    pub(crate) challenges: u32,
    pub(crate) moves_by: BySide<u32>,
    /// Moves each side still has to lose for exposing its own pieces.
    pub(crate) lost_turns: BySide<u32>,
    pub(crate) state: GameState,
}

impl Turns {
    pub(crate) fn new(settings: RuleSettings, first: Side, ratings: Option<BySide<f64>>) -> Turns {
        let clock_settings = ClockSettings {
            move_limit_ns: settings.move_limit_ns,
            oversteps_to_lose: settings.oversteps_to_lose,
            game_limit_ns: settings.game_limit_ns,
        };
        Turns {
            settings,
            ratings,
            clock: Clock::new(clock_settings, first),
            to_move: first,
            last_t: Time(0),
            plies: 0,
            challenges: 0,
            moves_by: BySide::default(),
            lost_turns: BySide::default(),
            state: GameState::Playing,
        }
    }

    pub(crate) fn is_over(&self) -> bool {
        self.state != GameState::Playing
    }

    /// Whether a draw for respect may be agreed now, and if not, why: equal ratings, and the
    /// minimum of complete moves made by each side.
    pub(crate) fn respect_allowed(&self) -> Result<(), String> {
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

    pub(crate) fn finish(&mut self, outcome: Outcome, at: Time) {
        self.state = GameState::Finished { outcome, at };
    }

    pub(crate) fn win(&mut self, side: Side, reason: Reason, at: Time) {
        self.finish(Outcome::Win { side, reason }, at);
    }

    fn expire(&mut self, expiry: Expiry) {
        self.state = match expiry {
            Expiry::MoveTime { side, at } => GameState::Finished {
                outcome: Outcome::Win {
                    side: side.opponent(),
                    reason: Reason::MoveTime,
                },
                at,
            },
            Expiry::GameTime { at } => GameState::AdjudicationPending { at },
        };
    }

    fn over_error(&self) -> EventError {
        let (at, reason) = match self.state {
            GameState::Finished { outcome, at } => (at, outcome.reason().code()),
            GameState::AdjudicationPending { at } => (at, Reason::GameTime.code()),
            GameState::ThirtyCountPending { at } => (at, Reason::ThirtyMoves.code()),
            GameState::Playing => (self.last_t, "playing"),
        };
        EventError::GameOver {
            at: at.as_secs_f64(),
            reason,
        }
    }

    /// Judges the clocks up to `t` without an event: a clock that ran out ends the game at
    /// the moment it did.
    pub(crate) fn judge_clocks(&mut self, t: Time) -> Result<(), EventError> {
        if self.is_over() {
            return Ok(());
        }
        let mut clock = self.clock;
        let expiry = clock.advance(t)?;
        self.clock = clock;
        self.last_t = self.last_t.max(t);
        if let Some(expiry) = expiry {
            self.expire(expiry);
        }
        Ok(())
    }

    /// Starts an event at `t`: time must not go back; after the game ended (also by a clock
    /// that ran out before `t`) only the end of the record may follow. Nothing changes
    /// unless the event was that end.
    pub(crate) fn begin(&mut self, t: Time, is_end: bool) -> Result<Begin, EventError> {
        if t < self.last_t {
            return Err(ClockError::TimeWentBack {
                from: self.last_t.as_secs_f64(),
                to: t.as_secs_f64(),
            }
            .into());
        }
        if self.is_over() {
            if is_end {
                self.last_t = t;
                return Ok(Begin::Done);
            }
            return Err(self.over_error());
        }
        let mut clock = self.clock;
        if let Some(expiry) = clock.advance(t)? {
            if !is_end {
                let mut over = self.clone();
                over.expire(expiry);
                return Err(over.over_error());
            }
            self.commit(t, clock);
            self.expire(expiry);
            return Ok(Begin::Done);
        }
        Ok(Begin::Go(clock))
    }

    /// Keeps the clock judged up to `t` for an event that is being applied.
    pub(crate) fn commit(&mut self, t: Time, clock: Clock) {
        self.clock = clock;
        self.last_t = t;
    }

    /// Applies an event every game takes. Returns true when it ended the turn of the side to
    /// move (own exposure on its own turn): the caller then ends the turn, so that a Flag
    /// waiting for that turn can win.
    pub(crate) fn apply_common(
        &mut self,
        t: Time,
        mut clock: Clock,
        event: Common,
    ) -> Result<bool, EventError> {
        match event {
            Common::Penalty { kind, side } => {
                self.commit(t, clock);
                match kind {
                    PenaltyKind::OwnExposure if side == self.to_move => return Ok(true),
                    PenaltyKind::OwnExposure => self.lost_turns[side] += 1,
                    PenaltyKind::CausedExposure => {
                        self.win(side.opponent(), Reason::CausedExposure, t)
                    }
                    PenaltyKind::Removal => self.win(side.opponent(), Reason::Removal, t),
                }
            }
            Common::Resign(side) => {
                self.commit(t, clock);
                self.win(side.opponent(), Reason::Resignation, t);
            }
            Common::DrawForRespect => {
                self.respect_allowed()
                    .map_err(EventError::RespectNotAllowed)?;
                self.commit(t, clock);
                self.finish(
                    Outcome::Draw {
                        reason: Reason::Respect,
                    },
                    t,
                );
            }
            Common::Pause => {
                clock.pause()?;
                self.commit(t, clock);
            }
            Common::Resume => {
                clock.resume()?;
                self.commit(t, clock);
            }
            Common::End => self.commit(t, clock),
        }
        Ok(false)
    }

    /// Counts a move of the side to move.
    pub(crate) fn count_move(&mut self, challenge: bool) {
        self.plies += 1;
        self.moves_by[self.to_move] += 1;
        if challenge {
            self.challenges += 1;
        }
    }

    /// Ends the turn of the side to move at `t` (by a move, or lost to a penalty) and starts
    /// the next one, skipping the turns a side has to lose. A turn that ends while the
    /// opponent's Flag waits for it (`pending_flag`) lets that Flag win.
    pub(crate) fn end_turn(&mut self, t: Time, pending_flag: Option<Side>) {
        let mut ending = self.to_move;
        loop {
            if let Some(flag_side) = pending_flag
                && flag_side == ending.opponent()
            {
                self.win(flag_side, Reason::FlagThrough, t);
                return;
            }
            let next = ending.opponent();
            if self.lost_turns[next] > 0 {
                self.lost_turns[next] -= 1;
                ending = next;
                continue;
            }
            self.to_move = next;
            self.clock.start_turn(next);
            return;
        }
    }
}
