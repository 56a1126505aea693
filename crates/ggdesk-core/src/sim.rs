//! Random legal games, for property tests, benchmarks and demonstrations. Randomness comes
//! from a caller-supplied `pick(n)` (a number in `0..n`), so this stays pure and seeded.

use crate::clock::Time;
use crate::record::{Record, TimedEvent};
use crate::rules::{BySide, Event, Game, PenaltyKind, Position, RuleSettings, Side, SideSetup};

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

/// A random well-formed record: random setups and random legal events until the game ends or
/// `max_events` is reached. Every event is accepted by the rules engine.
pub fn random_record(pick: &mut impl FnMut(usize) -> usize, options: SimOptions) -> Record {
    let setup = random_setups(pick);
    let mut record = Record::new(setup);
    record.rules = options.rules;
    if pick(2) == 1 {
        record.first = Side::Black;
    }
    let rating = 1500.0 + pick(3) as f64;
    record.ratings = Some(BySide::new(rating, 1500.0 + pick(3) as f64));
    let Ok(position) = Position::from_setups(&record.setup) else {
        return record;
    };
    let mut game = Game::new(record.rules, record.first, record.ratings, position);
    let mut t_ms: u64 = 0;
    let mut paused = false;
    while record.events.len() < options.max_events && !game.is_over() {
        t_ms += pick(options.max_think_ms as usize + 1) as u64;
        let t = t_ms as f64 / 1000.0;
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
        let Some(time) = Time::from_secs_f64(t) else {
            break;
        };
        if game.apply(time, &event).is_ok() {
            record.events.push(TimedEvent { t, event });
        } else {
            // Only a clock that ran out before this event refuses it: close the record there.
            record.events.push(TimedEvent {
                t,
                event: Event::End,
            });
            break;
        }
    }
    record
}
