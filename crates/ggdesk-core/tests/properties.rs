//! Properties of the rules engine on random legal games. Legality is checked against the
//! movement rule of RULES.md stated here on its own (`rulebook_allows`), not against the
//! engine's own move checks.

use ggdesk_core::clock::Time;
use ggdesk_core::record::{Record, TimedEvent, Verdict, replay, replay_game};
use ggdesk_core::rules::{
    ByRank, BySide, Event, EventError, Game, Move, MoveError, Position, Rank, RuleSettings, Side,
    Square,
};
use ggdesk_core::sim::{SimOptions, random_record};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value, json};
use std::sync::OnceLock;

fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    move |n| if n == 0 { 0 } else { rng.random_range(0..n) }
}

fn options(seed: u64) -> SimOptions {
    SimOptions {
        max_events: 40 + (seed % 200) as usize,
        max_think_ms: if seed.is_multiple_of(3) {
            160_000
        } else {
            30_000
        },
        arbiter_events: seed.is_multiple_of(2),
        rules: RuleSettings {
            // Random games rarely challenge early; turn the thirty-move rule off in most.
            thirty_moves: if seed.is_multiple_of(5) { 30 } else { 0 },
            game_limit_ns: if seed.is_multiple_of(4) {
                600_000_000_000
            } else {
                7_200_000_000_000
            },
            ..RuleSettings::default()
        },
    }
}

/// The random game of a seed; the simulator fails when the engine refuses an event the rules
/// allow.
fn simulated(seed: u64) -> Record {
    random_record(&mut picker(seed), options(seed))
        .unwrap_or_else(|e| panic!("seed {seed}: the engine refused a legal event: {e}"))
}

/// A square by the rulebook's coordinates: file `a`-`i` as 0-8, rank 1-8.
type Coords = (i32, i32);

/// The board's squares by the rulebook's coordinates: `BOARD[file][rank - 1]` for file `a`-`i`
/// (0-8) and rank 1-8, each found from its name (`e4`).
fn board() -> &'static [[Square; 8]; 9] {
    static BOARD: OnceLock<[[Square; 8]; 9]> = OnceLock::new();
    BOARD.get_or_init(|| {
        std::array::from_fn(|file| {
            std::array::from_fn(|rank| {
                let name = format!("{}{}", char::from(b'a' + file as u8), rank + 1);
                name.parse().expect("a square of the board")
            })
        })
    })
}

/// The square at a file (0-8) and rank (1-8); `None` off the board.
fn square_at((file, rank): (i32, i32)) -> Option<Square> {
    let f = usize::try_from(file).ok()?;
    let r = usize::try_from(rank - 1).ok()?;
    board().get(f)?.get(r).copied()
}

/// A square's file (0-8) and rank (1-8).
fn coordinates(square: Square) -> (i32, i32) {
    for (f, files) in board().iter().enumerate() {
        for (r, &sq) in files.iter().enumerate() {
            if sq == square {
                return (f as i32, r as i32 + 1);
            }
        }
    }
    unreachable!("every square is on the board")
}

/// RULES.md, "Moving": a side moves one of its own pieces exactly one square forward,
/// backward or sideways (no diagonals, no jumps), never off the board and never onto a
/// friendly piece; onto an enemy piece is a challenge.
fn rulebook_allows(position: &Position, side: Side, from: (i32, i32), to: (i32, i32)) -> bool {
    let (Some(from_sq), Some(to_sq)) = (square_at(from), square_at(to)) else {
        return false;
    };
    let one_step = (from.0 - to.0).abs() + (from.1 - to.1).abs() == 1;
    let owner = |sq: Square| position.get(sq).map(|p| p.side);
    one_step && owner(from_sq) == Some(side) && owner(to_sq) != Some(side)
}

/// What RULES.md finds wrong with a move (the same rule as [`rulebook_allows`], fault by
/// fault).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RulebookFault {
    /// FROM holds no piece.
    NoPiece,
    /// FROM holds the other side's piece.
    NotYours,
    /// Not exactly one square forward, backward or sideways.
    NotOneStep,
    /// TO holds a piece of the side moving.
    OntoOwnPiece,
}

/// Every fault RULES.md finds with `side` moving between two squares of the board (none when
/// it allows the move).
fn rulebook_faults(position: &Position, side: Side, mv: Move) -> Vec<RulebookFault> {
    let (from, to) = (coordinates(mv.from), coordinates(mv.to));
    let owner = |sq: Square| position.get(sq).map(|p| p.side);
    let mut faults = Vec::new();
    match owner(mv.from) {
        None => faults.push(RulebookFault::NoPiece),
        Some(s) if s != side => faults.push(RulebookFault::NotYours),
        Some(_) => {}
    }
    if (from.0 - to.0).abs() + (from.1 - to.1).abs() != 1 {
        faults.push(RulebookFault::NotOneStep);
    }
    if owner(mv.to) == Some(side) {
        faults.push(RulebookFault::OntoOwnPiece);
    }
    faults
}

/// Whether the engine's refusal of `side`'s move `mv` names a fault the rulebook finds in it
/// (the move itself, and what is wrong with it), when the game is on and the clocks run.
fn names_a_rulebook_fault(err: &EventError, position: &Position, side: Side, mv: Move) -> bool {
    let faults = rulebook_faults(position, side, mv);
    let (named, fault) = match *err {
        EventError::Move(MoveError::NoPiece { mv: m }) => (m, RulebookFault::NoPiece),
        EventError::Move(MoveError::NotYours {
            mv: m,
            side: s,
            owner,
        }) => {
            if s != side || owner == side {
                return false;
            }
            (m, RulebookFault::NotYours)
        }
        EventError::Move(MoveError::NotAdjacent { mv: m }) => (m, RulebookFault::NotOneStep),
        EventError::Move(MoveError::OntoOwnPiece { mv: m, side: s }) => {
            if s != side {
                return false;
            }
            (m, RulebookFault::OntoOwnPiece)
        }
        _ => return false,
    };
    named == mv && faults.contains(&fault)
}

/// Every (from, to) pair of squares of the board, by coordinates.
fn all_pairs() -> &'static [(Coords, Coords)] {
    static PAIRS: OnceLock<Vec<(Coords, Coords)>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let squares: Vec<(i32, i32)> = (0..9).flat_map(|f| (1..=8).map(move |r| (f, r))).collect();
        squares
            .iter()
            .flat_map(|&a| squares.iter().map(move |&b| (a, b)))
            .collect()
    })
}

fn as_move(from: (i32, i32), to: (i32, i32)) -> Option<Move> {
    Some(Move::new(square_at(from)?, square_at(to)?))
}

/// Every position a record's game passes through.
fn positions_of(record: &Record) -> Vec<(Position, Side)> {
    let mut out = Vec::new();
    let mut partial = record.clone();
    for n in 0..=record.events.len() {
        partial.events = record.events[..n].to_vec();
        if let Ok((game, _)) = replay_game(&partial) {
            out.push((game.position().clone(), game.to_move()));
        }
    }
    out
}

/// A record with the board turned round and the sides swapped.
fn mirrored(record: &Record) -> Record {
    let mut m = record.clone();
    m.first = record.first.opponent();
    m.ratings = record.ratings.map(|r| BySide::new(r.black, r.white));
    m.setup = BySide::new(record.setup.black.mirrored(), record.setup.white.mirrored());
    m.events = record
        .events
        .iter()
        .map(|e| TimedEvent {
            t: e.t,
            event: e.event.mirrored(),
        })
        .collect();
    m.readings = record.readings.as_ref().map(|r| {
        let sheet = |side: &str| -> Value {
            let mut out = Map::new();
            if let Some(obj) = r.get(side).and_then(Value::as_object) {
                for (sq, code) in obj {
                    let sq: Square = sq.parse().expect("square in generated sheet");
                    out.insert(sq.mirror().to_string(), code.clone());
                }
            }
            Value::Object(out)
        };
        json!({"white": sheet("black"), "black": sheet("white")})
    });
    m
}

fn mirrored_verdict(v: &Verdict) -> Verdict {
    let mut m = v.clone();
    m.outcome = v.outcome.map(|o| o.mirrored());
    m.oversteps = BySide::new(v.oversteps.black, v.oversteps.white);
    m.adjudication = v.adjudication.as_ref().map(|a| {
        let mut a = a.clone();
        a.scores = BySide::new(a.scores.black.clone(), a.scores.white.clone());
        a.winner = a.winner.map(Side::opponent);
        a
    });
    m
}

/// Random valid reading sheets for the position the game stopped in.
fn random_readings(record: &Record, seed: u64) -> Option<Value> {
    let (game, _) = replay_game(record).ok()?;
    let mut pick = picker(seed ^ 0x5eed);
    let mut sheets = Map::new();
    for reader in Side::BOTH {
        let mut used = ByRank::<u32>::default();
        let mut sheet = Map::new();
        for (sq, _) in game.position().pieces_of(reader.opponent()) {
            if pick(3) == 0 {
                continue;
            }
            let rank = Rank::ALL[pick(15)];
            if (used[rank] as usize) < rank.count_in_set() {
                used[rank] += 1;
                sheet.insert(sq.to_string(), json!(rank.code()));
            }
        }
        sheets.insert(reader.name().into(), Value::Object(sheet));
    }
    Some(Value::Object(sheets))
}

/// The verdict as `ggdesk replay` prints it.
fn strip_ranks(v: &Verdict) -> Value {
    v.to_value()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn generated_moves_are_exactly_the_rulebook_moves(seed in any::<u64>()) {
        let record = simulated(seed);
        for (position, _) in positions_of(&record) {
            for side in Side::BOTH {
                let mut generated = position.legal_moves(side);
                let mut rulebook: Vec<Move> = all_pairs()
                    .iter()
                    .copied()
                    .filter(|&(a, b)| rulebook_allows(&position, side, a, b))
                    .filter_map(|(a, b)| as_move(a, b))
                    .collect();
                generated.sort_by_key(|m| (m.from, m.to));
                rulebook.sort_by_key(|m| (m.from, m.to));
                prop_assert_eq!(&generated, &rulebook, "\n{}", position.diagram());
                for &(a, b) in all_pairs() {
                    let mv = as_move(a, b).expect("squares of the board");
                    let allowed = rulebook_allows(&position, side, a, b);
                    match position.check_move(side, mv) {
                        Ok(()) => prop_assert!(
                            allowed,
                            "{} {} taken on\n{}", side, mv, position.diagram()
                        ),
                        // A refusal names a fault the rulebook finds in the move.
                        Err(e) => prop_assert!(
                            !allowed
                                && names_a_rulebook_fault(
                                    &EventError::Move(e.clone()),
                                    &position,
                                    side,
                                    mv
                                ),
                            "{} {} refused with {:?} on\n{}", side, mv, e, position.diagram()
                        ),
                    }
                }
            }
        }
    }

    /// A random game driven by the rulebook, not by the engine's move generator. Before
    /// each event the candidates are the engine's generated moves of both sides, the
    /// rulebook's moves, random pairs of squares, and every square up to two files and ranks
    /// away from a few pieces (diagonals and jumps included); the engine must take exactly
    /// the moves the rulebook allows to the side to move (tracked here: the sides alternate,
    /// as no turn is lost in these games) while the game is on and the clocks run, and must
    /// be left unchanged by every refusal. The move played is one of the rulebook's.
    #[test]
    fn the_engine_takes_exactly_the_rulebook_moves(seed in any::<u64>()) {
        let mut pick = picker(seed);
        let setups = ggdesk_core::sim::random_setups(&mut pick);
        let first = if pick(2) == 0 { Side::White } else { Side::Black };
        let rules = RuleSettings {
            thirty_moves: if seed.is_multiple_of(3) { 30 } else { 0 },
            ..RuleSettings::default()
        };
        let position = Position::from_setups(&setups).expect("random setups are legal");
        let mut game = Game::new(rules, first, None, position);
        let mut to_move = first;
        let mut paused = false;
        let mut ms: i64 = 0;
        for _ in 0..(50 + pick(250)) {
            // At most 20 s between events and 300 events: no clock runs out.
            ms += pick(20_000) as i64;
            let t = Time::from_ns(ms * 1_000_000);
            let over = game.is_over();
            let position = game.position().clone();
            let rulebook: Vec<_> = all_pairs()
                .iter()
                .copied()
                .filter(|&(a, b)| rulebook_allows(&position, to_move, a, b))
                .collect();
            let mut candidates = rulebook.clone();
            for side in Side::BOTH {
                for mv in position.legal_moves(side) {
                    candidates.push((coordinates(mv.from), coordinates(mv.to)));
                }
            }
            for _ in 0..30 {
                let a = (pick(9) as i32, 1 + pick(8) as i32);
                candidates.push((a, (pick(9) as i32, 1 + pick(8) as i32)));
            }
            let pieces: Vec<Square> = position.pieces().map(|(sq, _)| sq).collect();
            for _ in 0..3 {
                let a = coordinates(pieces[pick(pieces.len())]);
                for df in -2..=2 {
                    for dr in -2..=2 {
                        candidates.push((a, (a.0 + df, a.1 + dr)));
                    }
                }
            }
            for (a, b) in candidates {
                let Some(mv) = as_move(a, b) else { continue };
                let allowed = !over && !paused && rulebook_allows(&position, to_move, a, b);
                let event = Event::Move { mv, by: None };
                prop_assert_eq!(
                    game.check(t, &event).is_ok(),
                    allowed,
                    "{} to move, {}, over {}, paused {} on\n{}",
                    to_move, mv, over, paused, position.diagram()
                );
                if !allowed {
                    let mut refused = game.clone();
                    let err = refused.apply(t, &event).expect_err("refused");
                    // The refusal names why: the game is over, the clocks are paused, or a
                    // fault the rulebook finds in this very move.
                    let named = if over {
                        matches!(err, EventError::GameOver { .. })
                    } else if paused {
                        err == EventError::Paused
                    } else {
                        names_a_rulebook_fault(&err, &position, to_move, mv)
                    };
                    prop_assert!(
                        named,
                        "{} to move, {}, over {}, paused {}: refused with {:?} on\n{}",
                        to_move, mv, over, paused, err, position.diagram()
                    );
                    prop_assert_eq!(&refused, &game);
                }
                let by_other = Event::Move { mv, by: Some(to_move.opponent()) };
                let err = game.check(t, &by_other).expect_err("a move by the side not to move");
                let named = if over {
                    matches!(err, EventError::GameOver { .. })
                } else if paused {
                    err == EventError::Paused
                } else {
                    err == EventError::WrongSide { by: to_move.opponent(), to_move }
                };
                prop_assert!(named, "{} by {}: refused with {:?}", mv, to_move.opponent(), err);
            }
            if over {
                break;
            }
            let event = if paused {
                paused = false;
                Event::Resume
            } else if pick(25) == 0 {
                paused = true;
                Event::Pause
            } else {
                let Some(&(a, b)) = rulebook.get(pick(rulebook.len().max(1))) else {
                    break; // no legal move: the side could only resign
                };
                to_move = to_move.opponent();
                let by = (pick(2) == 0).then_some(to_move.opponent());
                Event::Move { mv: as_move(a, b).expect("squares of the board"), by }
            };
            let applied = game.apply(t, &event);
            prop_assert!(applied.is_ok(), "{:?} refused: {:?}", event, applied);
        }
    }

    #[test]
    fn piece_counts_never_grow(seed in any::<u64>()) {
        let record = simulated(seed);
        let count = |p: &Position| {
            BySide::from_fn(|side| ByRank::count(p.pieces_of(side).map(|(_, rank)| rank)))
        };
        let positions = positions_of(&record);
        let start = count(&positions[0].0);
        prop_assert_eq!(start.white.total() + start.black.total(), 42);
        for pair in positions.windows(2) {
            let (before, after) = (count(&pair[0].0), count(&pair[1].0));
            for side in Side::BOTH {
                for rank in Rank::ALL {
                    prop_assert!(after[side][rank] <= before[side][rank]);
                }
            }
        }
    }

    #[test]
    fn mirroring_the_board_and_swapping_sides_mirrors_the_outcome(seed in any::<u64>()) {
        let mut record = simulated(seed);
        if seed.is_multiple_of(4) {
            // Short games reach adjudication; give them sheets.
            record.readings = random_readings(&record, seed);
        }
        let verdict = replay(&record);
        let mirror = replay(&mirrored(&record));
        prop_assert!(verdict.is_ok(), "{verdict:?}");
        prop_assert!(mirror.is_ok(), "{mirror:?}");
        if let (Ok(v), Ok(m)) = (verdict, mirror) {
            prop_assert_eq!(strip_ranks(&mirrored_verdict(&v)), strip_ranks(&m));
        }
    }

    #[test]
    fn records_round_trip_through_serde(seed in any::<u64>()) {
        let mut record = simulated(seed);
        record.extra.insert("table".into(), json!(seed % 50));
        record.rules.move_limit_ns = 60_000_000_000 + (seed % 1000) as i64 * 1_000_000;
        let text = serde_json::to_string(&record).expect("a record serializes");
        let back: Record = serde_json::from_str(&text).expect("a written record reads back");
        prop_assert_eq!(back, record);
    }
}

#[test]
fn random_games_replay_without_error() {
    // The generator only writes events the engine accepted, so every replay must succeed.
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..200 {
        let seed = rng.random::<u64>();
        let record = simulated(seed);
        assert!(replay(&record).is_ok(), "seed {seed}");
    }
}
