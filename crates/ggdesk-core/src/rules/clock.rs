//! Clock accounting: the move clock with its oversteps and the game clock, from timestamps
//! given to it. It never reads the system clock; the desk passes the time in once per frame
//! and `ggdesk replay` passes each event's `t`, so the same code judges both.

use super::piece::{BySide, Side};

pub const NS_PER_S: i64 = 1_000_000_000;

/// Units of [`Time`] per second: 2^64.
const UNITS_PER_S: f64 = 18_446_744_073_709_551_616.0;

/// Wall time since the game started (paused time included), as an exact count of 2^-64
/// seconds. Every `t` a record can write (an `f64`) is held exactly, so sums and
/// differences of times are exact: a move after exactly 120.0 s of thinking is in time, one
/// after 120.0000000001 s is not, and a computed moment such as the end of a move limit is
/// the exact sum, rounded to the nearest `f64` only when written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Time(pub i128);

impl Time {
    /// The largest time a record may carry: 2^50 s (about 35.7 million years). It leaves
    /// headroom for every sum the clocks compute (a time is below 2^114 units, so thousands
    /// of them add up inside an `i128`) and for the desk's whole milliseconds in an `i64`.
    pub const MAX_SECS: f64 = 1_125_899_906_842_624.0;

    /// How the bound reads in an error message.
    pub const MAX_TEXT: &str = "2^50 s, about 35 million years";

    /// Seconds as written in a record. `None` for negative, non-finite or absurd values
    /// (beyond [`Time::MAX_SECS`]).
    pub fn from_secs_f64(secs: f64) -> Option<Time> {
        if secs.is_finite() && (0.0..=Self::MAX_SECS).contains(&secs) {
            // Multiplying by a power of two is exact; rounding only touches values below
            // 2^-64 s.
            Some(Time((secs * UNITS_PER_S).round() as i128))
        } else {
            None
        }
    }

    pub fn from_secs(secs: i64) -> Time {
        Time(i128::from(secs) << 64)
    }

    /// A duration in whole nanoseconds (exact for whole seconds and for every dyadic
    /// fraction of a second; otherwise rounded to the nearest unit).
    pub fn from_ns(ns: i64) -> Time {
        let scaled = i128::from(ns) << 64;
        let ns_per_s = i128::from(NS_PER_S);
        let half = ns_per_s / 2;
        Time(if scaled >= 0 {
            (scaled + half) / ns_per_s
        } else {
            (scaled - half) / ns_per_s
        })
    }

    /// The nearest `f64` to the exact number of seconds.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / UNITS_PER_S
    }

    /// Whole nanoseconds, rounded down (for display); beyond what an `i64` holds (292
    /// years), the nearest value it holds.
    pub fn as_ns(self) -> i64 {
        self.scaled_down(i128::from(NS_PER_S))
    }

    /// Whole milliseconds, rounded down (for display); saturating like [`Time::as_ns`].
    pub fn as_ms(self) -> i64 {
        self.scaled_down(1000)
    }

    /// `floor(self × per_s / 2^64)`, computed on the whole seconds and the fraction apart so
    /// that no product overflows, then saturated into an `i64`.
    fn scaled_down(self, per_s: i128) -> i64 {
        let whole = self.0 >> 64; // floor, also for negative times
        let fraction = self.0 & ((1i128 << 64) - 1); // 0 ≤ fraction < 2^64
        let value = whole * per_s + ((fraction * per_s) >> 64);
        i64::try_from(value).unwrap_or(if value < 0 { i64::MIN } else { i64::MAX })
    }

    pub fn plus(self, d: Time) -> Time {
        Time(self.0.saturating_add(d.0))
    }
}

/// The clock settings, durations in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockSettings {
    pub move_limit_ns: i64,
    pub oversteps_to_lose: u32,
    pub game_limit_ns: i64,
}

/// A clock running out ends the game at this moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expiry {
    /// `side` passed the move limit for the losing time.
    MoveTime { side: Side, at: Time },
    /// The game clock passed its limit; the game goes to adjudication.
    GameTime { at: Time },
}

impl Expiry {
    pub fn at(self) -> Time {
        match self {
            Expiry::MoveTime { at, .. } | Expiry::GameTime { at } => at,
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClockError {
    #[error("time goes back from {from:.3} s to {to:.3} s")]
    TimeWentBack { from: f64, to: f64 },
    #[error("the clocks are already paused")]
    AlreadyPaused,
    #[error("the clocks are not paused")]
    NotPaused,
}

/// Both clocks of one game, judged up to `now`.
///
/// Only the side to move has a running move clock; the game clock runs whenever the clocks
/// are not paused. Once a clock has expired the state is frozen at that moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    settings: ClockSettings,
    now: Time,
    paused: bool,
    /// Playing time used up to `now` (pauses excluded).
    game_used: i128,
    turn: Side,
    /// Thinking time of the current turn up to `now`.
    turn_used: i128,
    /// The limits in [`Time`] units.
    move_limit: i128,
    game_limit: i128,
    /// A turn passes the move limit at most once.
    turn_overstepped: bool,
    oversteps: BySide<u32>,
    expired: Option<Expiry>,
}

impl Clock {
    /// A clock at the start of the game (time 0, running), `first` to move.
    pub fn new(settings: ClockSettings, first: Side) -> Clock {
        Clock {
            settings,
            now: Time(0),
            paused: false,
            game_used: 0,
            turn: first,
            turn_used: 0,
            move_limit: Time::from_ns(settings.move_limit_ns).0,
            game_limit: Time::from_ns(settings.game_limit_ns).0,
            turn_overstepped: false,
            oversteps: BySide::default(),
            expired: None,
        }
    }

    pub fn settings(&self) -> ClockSettings {
        self.settings
    }

    /// The moment the clocks have been judged up to.
    pub fn now(&self) -> Time {
        self.now
    }

    pub fn is_paused(&self) -> bool {
        self.paused
    }

    pub fn turn(&self) -> Side {
        self.turn
    }

    pub fn oversteps(&self) -> BySide<u32> {
        self.oversteps
    }

    pub fn expired(&self) -> Option<Expiry> {
        self.expired
    }

    /// Thinking time of the side to move, in nanoseconds.
    pub fn thinking_ns(&self) -> i64 {
        Time(self.turn_used).as_ns()
    }

    /// Whether the current turn has already passed the move limit.
    pub fn turn_overstepped(&self) -> bool {
        self.turn_overstepped
    }

    /// Playing time used, in nanoseconds.
    pub fn game_used_ns(&self) -> i64 {
        Time(self.game_used).as_ns()
    }

    /// Time left on the move clock of the current turn, in nanoseconds; negative once
    /// overstepped.
    pub fn move_remaining_ns(&self) -> i64 {
        Time(self.move_limit - self.turn_used).as_ns()
    }

    /// Time left on the game clock, in nanoseconds.
    pub fn game_remaining_ns(&self) -> i64 {
        Time(self.game_limit - self.game_used).as_ns()
    }

    /// Judges the clocks up to `t`: counts an overstep when the move clock goes beyond its
    /// limit and stops at the first expiry, which it returns (also when it happened
    /// earlier). A clock exactly at its limit has not passed it.
    pub fn advance(&mut self, t: Time) -> Result<Option<Expiry>, ClockError> {
        if t < self.now {
            return Err(ClockError::TimeWentBack {
                from: self.now.as_secs_f64(),
                to: t.as_secs_f64(),
            });
        }
        if self.expired.is_some() {
            return Ok(self.expired);
        }
        if self.paused {
            self.now = t;
            return Ok(None);
        }
        let dt = t.0 - self.now.0;
        let to_game_limit = self.game_limit - self.game_used;
        let to_move_limit = self.move_limit - self.turn_used;
        let overstep = !self.turn_overstepped && dt > to_move_limit;
        let game_over = dt > to_game_limit;
        // The overstep happens first when it is earlier or at the same moment: the rulebook
        // checks move time before game time.
        if overstep && (!game_over || to_move_limit <= to_game_limit) {
            self.run_for(to_move_limit.max(0));
            self.turn_overstepped = true;
            self.oversteps[self.turn] += 1;
            if self.oversteps[self.turn] >= self.settings.oversteps_to_lose {
                let expiry = Expiry::MoveTime {
                    side: self.turn,
                    at: self.now,
                };
                self.expired = Some(expiry);
                return Ok(Some(expiry));
            }
            return self.advance(t);
        }
        if game_over {
            self.run_for(to_game_limit.max(0));
            let expiry = Expiry::GameTime { at: self.now };
            self.expired = Some(expiry);
            return Ok(Some(expiry));
        }
        self.run_for(dt);
        Ok(None)
    }

    fn run_for(&mut self, units: i128) {
        self.now = Time(self.now.0 + units);
        self.game_used += units;
        self.turn_used += units;
    }

    /// Starts `side`'s turn at `now`: its move clock starts from zero.
    pub fn start_turn(&mut self, side: Side) {
        self.turn = side;
        self.turn_used = 0;
        self.turn_overstepped = false;
    }

    pub fn pause(&mut self) -> Result<(), ClockError> {
        if self.paused {
            return Err(ClockError::AlreadyPaused);
        }
        self.paused = true;
        Ok(())
    }

    pub fn resume(&mut self) -> Result<(), ClockError> {
        if !self.paused {
            return Err(ClockError::NotPaused);
        }
        self.paused = false;
        Ok(())
    }
}
