//! Random legal games, for property tests, benchmarks and demonstrations. Randomness comes
//! from a caller-supplied `pick(n)` (a number in `0..n`), so this stays pure and seeded.

use crate::record::{Record, TimedEvent};
use crate::rules::clock::Time;
use crate::rules::{
    BySide, Event, EventError, Game, PenaltyKind, Position, RuleSettings, Side, SideSetup,
};

/// What a random game may contain besides moves.
#[derive(Debug, Clone, Copy)]
pub struct SimOptions {
    /// Stop after this many events.
    pub max_events: usize,
    /// Thinking time per move is drawn from 0 to this many milliseconds.
    pub max_think_ms: u64,
    /// Add pauses, own-exposure penalties and occasional resignations.
    pub arbiter_events: bool,
    /// The rules the game is played under.
    pub rules: RuleSettings,
}

impl Default for SimOptions {
    fn default() -> Self {
        SimOptions {
            max_events: 200,
            max_think_ms: 30_000,
            arbiter_events: false,
            rules: RuleSettings::default(),
        }
    }
}

/// Both sides' random legal setups.
pub fn random_setups(pick: &mut impl FnMut(usize) -> usize) -> BySide<SideSetup> {
    BySide::new(
        SideSetup::random(Side::White, &mut *pick),
        SideSetup::random(Side::Black, &mut *pick),
    )
}

/// The rules engine refused an event that the rules allow where it stands: a move of the side
/// to move from the legal moves, a pause or resume that fits the clocks, a penalty or a
/// resignation, in a game not over. Always a bug, which the simulator reports instead of
/// hiding it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("event {index} ({event:?} at {t} s) of a random game was refused: {error}")]
pub struct SimError {
    /// The record up to the refused event.
    pub record: Box<Record>,
    pub index: usize,
    pub t: f64,
    pub event: Event,
    pub error: EventError,
}

/// A random well-formed record: random setups and random legal events until the game ends or
/// `max_events` is reached. Every event is accepted by the rules engine; a clock that runs
/// out before the next event ends the record with `end` at that event's time. An event the
/// engine refuses otherwise is an error.
pub fn random_record(
    pick: &mut impl FnMut(usize) -> usize,
    options: SimOptions,
) -> Result<Record, SimError> {
    let setup = random_setups(pick);
    let mut record = Record::new(setup);
    record.rules = options.rules;
    if pick(2) == 1 {
        record.first = Side::Black;
    }
    let rating = 1500.0 + pick(3) as f64;
    record.ratings = Some(BySide::new(rating, 1500.0 + pick(3) as f64));
    let Ok(position) = Position::from_setups(&record.setup) else {
        return Ok(record);
    };
    let mut game = Game::new(record.rules, record.first, record.ratings, position);
    let mut t_ms: u64 = 0;
    let mut paused = false;
    while record.events.len() < options.max_events && !game.is_over() {
        t_ms += pick(options.max_think_ms as usize + 1) as u64;
        let t = t_ms as f64 / 1000.0;
        let Some(time) = Time::from_secs_f64(t) else {
            break;
        };
        // A clock that ran out before this moment ended the game then: close the record.
        if game.over_by(time) {
            record.events.push(TimedEvent {
                t,
                event: Event::End,
            });
            break;
        }
        let event = if paused {
            paused = false;
            Event::Resume
        } else if options.arbiter_events && pick(40) == 0 {
            paused = true;
            Event::Pause
        } else if options.arbiter_events && pick(60) == 0 {
            Event::Penalty {
                kind: PenaltyKind::OwnExposure,
                side: if pick(2) == 0 {
                    Side::White
                } else {
                    Side::Black
                },
            }
        } else if options.arbiter_events && pick(400) == 0 {
            Event::Resign(game.to_move())
        } else {
            let moves = game.position().legal_moves(game.to_move());
            if moves.is_empty() {
                // A side without a legal move can only resign.
                Event::Resign(game.to_move())
            } else {
                let by = (pick(2) == 0).then_some(game.to_move());
                Event::Move {
                    mv: moves[pick(moves.len())],
                    by,
                }
            }
        };
        if let Err(error) = game.apply(time, &event) {
            return Err(SimError {
                index: record.events.len(),
                record: Box::new(record),
                t,
                event,
                error,
            });
        }
        record.events.push(TimedEvent { t, event });
    }
    Ok(record)
}
