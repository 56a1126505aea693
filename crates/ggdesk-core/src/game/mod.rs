//! One game model for both kinds of game the desk follows: a game it arbitrates (it holds
//! both setups; `rules::Game`) and a game on a physical board (it sees only what the arbiter
//! enters; `rules::PhysicalGame`). What they share is defined here once: the mode, an event
//! of either kind ([`AnyEvent`]), a game of either kind derived from its events
//! ([`AnyGame`]), and the undo-aware event log with every derivation from it (the record,
//! the status, the result: [`LoggedGame`], in `log.rs`).
//!
//! The store keeps only what it reads from the database and asks this module for the rest.

pub mod desk;
mod log;

pub use log::{
    Correction, CorrectionError, CorrectionSeen, Decision, LogEntry, LogEntryKind, LoggedGame,
    Overstep, SheetRow, effective,
};

use crate::adjudication::{self, SheetError, TallySheetError};
use crate::physical_record;
use crate::record::{self, RecordError, TimedEvent};
use crate::rules::clock::Time;
use crate::rules::turns::Turns;
use crate::rules::{
    Applied, Event, EventError, Game, GameState, PhysicalEvent, PhysicalGame, Side,
};
use serde_json::Value;

/// How the desk follows a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameMode {
    /// The desk holds both setups and is the arbiter.
    Arbitrated,
    /// Played on a real board with a human arbiter; the desk keeps clocks and the tally.
    Physical,
}

impl GameMode {
    pub const ALL: [GameMode; 2] = [GameMode::Arbitrated, GameMode::Physical];

    /// The code the database keeps.
    pub fn code(self) -> &'static str {
        match self {
            GameMode::Arbitrated => "arbitrated",
            GameMode::Physical => "physical",
        }
    }

    pub fn from_code(code: &str) -> Option<GameMode> {
        GameMode::ALL.into_iter().find(|m| m.code() == code)
    }
}

/// An arbiter event of either kind of game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnyEvent {
    Game(Event),
    Physical(PhysicalEvent),
}

impl AnyEvent {
    /// The kind of game this event belongs to.
    pub fn mode(&self) -> GameMode {
        match self {
            AnyEvent::Game(_) => GameMode::Arbitrated,
            AnyEvent::Physical(_) => GameMode::Physical,
        }
    }

    /// The arbiter stops all clocks of a game followed in `mode`.
    pub fn pause(mode: GameMode) -> AnyEvent {
        Self::common(mode, Event::Pause, PhysicalEvent::Pause)
    }

    /// The arbiter restarts the clocks of a game followed in `mode`.
    pub fn resume(mode: GameMode) -> AnyEvent {
        Self::common(mode, Event::Resume, PhysicalEvent::Resume)
    }

    /// The end of the record of a game followed in `mode`.
    pub fn end(mode: GameMode) -> AnyEvent {
        Self::common(mode, Event::End, PhysicalEvent::End)
    }

    /// An event both kinds of game take, for a game followed in `mode`: a game the desk
    /// arbitrates gets the record's event, a physical game its own (never the other kind).
    fn common(mode: GameMode, game: Event, physical: PhysicalEvent) -> AnyEvent {
        match mode {
            GameMode::Arbitrated => AnyEvent::Game(game),
            GameMode::Physical => AnyEvent::Physical(physical),
        }
    }

    /// An event common to both kinds of game (pause, resume, penalty, resignation, draw for
    /// respect, end) for a game followed in `mode`. `None` for a move on a physical board,
    /// which has its own events.
    pub fn for_mode(mode: GameMode, event: Event) -> Option<AnyEvent> {
        match mode {
            GameMode::Arbitrated => Some(AnyEvent::Game(event)),
            GameMode::Physical => event.common().map(|c| AnyEvent::Physical(c.into())),
        }
    }

    /// The event's kind, as its record names it (`move`, `challenge`, `pause`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            AnyEvent::Game(e) => e.code(),
            AnyEvent::Physical(e) => e.code(),
        }
    }

    /// The event as its record writes it, at time `t`.
    pub fn value(&self, t: f64) -> Value {
        match self {
            AnyEvent::Game(event) => record::event_value(&TimedEvent { t, event: *event }),
            AnyEvent::Physical(e) => physical_record::event_value(t, e),
        }
    }

    /// Reads an event of a game followed in `mode`, as its record writes it: its time and
    /// the event.
    pub fn parse(mode: GameMode, v: &Value) -> Result<(f64, AnyEvent), String> {
        match mode {
            GameMode::Arbitrated => record::parse_event(v).map(|e| (e.t, AnyEvent::Game(e.event))),
            GameMode::Physical => {
                physical_record::parse_event(v).map(|(t, e)| (t, AnyEvent::Physical(e)))
            }
        }
    }
}

/// A game derived from its events, whichever way the desk follows it.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyGame {
    Arbitrated(Game),
    Physical(PhysicalGame),
}

/// Why a reading sheet cannot be entered for a game.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SheetEntryError {
    #[error("the game is not waiting for an adjudication")]
    NotWaiting,
    /// The sheet is not even a sheet (squares, codes, the shape of the JSON).
    #[error("{0}")]
    Form(String),
    #[error(transparent)]
    Sheet(#[from] SheetError),
    #[error(transparent)]
    Tally(#[from] TallySheetError),
}

impl From<RecordError> for SheetEntryError {
    fn from(e: RecordError) -> Self {
        SheetEntryError::Form(e.to_string())
    }
}

/// What the desk writes for a game in progress when it starts again after it stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Restart {
    /// Nothing: the clocks were not running (over, paused, or waiting for the counts), so
    /// the time the desk was down is charged to nobody already.
    Nothing,
    /// A clock ran out while the desk was down (by the last moment it saw): the game ends
    /// at that moment.
    End { at: f64 },
    /// A pause at the last moment the desk saw the clocks and a resume now: the clocks
    /// continue exactly from where they were.
    PauseAndResume { pause_at: f64, resume_at: f64 },
}

impl AnyGame {
    /// What every kind of game keeps: one place for the accessors below.
    fn turns(&self) -> &Turns {
        match self {
            AnyGame::Arbitrated(g) => g.turns(),
            AnyGame::Physical(g) => g.turns(),
        }
    }

    pub fn mode(&self) -> GameMode {
        match self {
            AnyGame::Arbitrated(_) => GameMode::Arbitrated,
            AnyGame::Physical(_) => GameMode::Physical,
        }
    }

    crate::rules::turns::every_game_accessors!();

    /// Whether the clocks are running: the game goes on and is not paused. A game waiting
    /// for the thirty-move counts or for the adjudication has stopped its clocks for good.
    pub fn clocks_running(&self) -> bool {
        !self.is_over() && !self.clock().is_paused()
    }

    /// Judges the clocks up to `t` without an event: a clock that ran out ends the game at
    /// the moment it did.
    pub fn judge_clocks(&mut self, t: Time) -> Result<(), EventError> {
        match self {
            AnyGame::Arbitrated(g) => g.judge_clocks(t),
            AnyGame::Physical(g) => g.judge_clocks(t),
        }
    }

    /// Applies an event of the game's kind; on error nothing changes.
    pub fn apply(&mut self, t: Time, event: &AnyEvent) -> Result<Applied, EventError> {
        match (self, event) {
            (AnyGame::Arbitrated(g), AnyEvent::Game(e)) => g.apply(t, e),
            (AnyGame::Physical(g), AnyEvent::Physical(e)) => {
                g.apply(t, e)?;
                Ok(Applied {
                    challenge: None,
                    ended: g.is_over(),
                })
            }
            _ => Err(EventError::OtherKindOfGame),
        }
    }

    pub fn as_arbitrated(&self) -> Option<&Game> {
        match self {
            AnyGame::Arbitrated(g) => Some(g),
            AnyGame::Physical(_) => None,
        }
    }

    pub fn as_physical(&self) -> Option<&PhysicalGame> {
        match self {
            AnyGame::Physical(g) => Some(g),
            AnyGame::Arbitrated(_) => None,
        }
    }

    /// Checks one side's reading sheet, as entered so far or handed in, against the game
    /// that stopped for the adjudication: for a game the desk arbitrated, enemy square →
    /// piece code, checked against the position; on a physical board, each of the
    /// opponent's remaining pieces with its reading, checked against the tally.
    pub fn check_sheet(&self, side: Side, sheet: &Value) -> Result<(), SheetEntryError> {
        if !matches!(self.state(), GameState::AdjudicationPending { .. }) {
            return Err(SheetEntryError::NotWaiting);
        }
        match self {
            AnyGame::Arbitrated(g) => {
                let sheet = record::parse_reading_sheet(side, sheet)?;
                adjudication::validate_sheet(side, &sheet, g.position())?;
            }
            AnyGame::Physical(g) => {
                let sheet = physical_record::parse_sheet(sheet).map_err(SheetEntryError::Form)?;
                let left = g.remaining_pieces(side.opponent());
                adjudication::check_tally_sheet(side, &sheet, &left)?;
            }
        }
        Ok(())
    }

    /// What to write for this game when the desk starts again: `seen_t` is the last moment
    /// the desk saw its clocks, `now_t` the game time now (both `None` when unknown).
    /// Nothing when no time passed between them.
    pub fn restart(&self, seen_t: Option<f64>, now_t: Option<f64>) -> Restart {
        if !self.clocks_running() {
            return Restart::Nothing;
        }
        let last = self.last_time();
        let seen = seen_t
            .and_then(Time::from_secs_f64)
            .unwrap_or(last)
            .max(last);
        let seen_s = seen.as_secs_f64();
        if self.over_by(seen) {
            return Restart::End { at: seen_s };
        }
        // No time lost since the clocks were last seen (a connection that came back at
        // once): an empty pause would only clutter the record.
        let Some(now_s) = now_t.filter(|t| *t > seen_s) else {
            return Restart::Nothing;
        };
        Restart::PauseAndResume {
            pause_at: seen_s,
            resume_at: now_s,
        }
    }
}
