//! Properties of the rules engine on random legal games.

use ggdesk_core::record::{Record, TimedEvent, Verdict, replay, replay_game};
use ggdesk_core::rules::{ByRank, BySide, Move, Position, Rank, RuleSettings, Side, Square};
use ggdesk_core::sim::{SimOptions, random_record};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value, json};

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
    fn generated_moves_are_exactly_the_legal_moves(seed in any::<u64>()) {
        let record = random_record(&mut picker(seed), options(seed));
        for (position, _) in positions_of(&record) {
            for side in Side::BOTH {
                let mut generated = position.legal_moves(side);
                let mut legal: Vec<Move> = Square::all()
                    .flat_map(|from| Square::all().map(move |to| Move::new(from, to)))
                    .filter(|&mv| position.check_move(side, mv).is_ok())
                    .collect();
                generated.sort_by_key(|m| (m.from, m.to));
                legal.sort_by_key(|m| (m.from, m.to));
                prop_assert_eq!(generated, legal);
            }
        }
    }

    #[test]
    fn piece_counts_never_grow(seed in any::<u64>()) {
        let record = random_record(&mut picker(seed), options(seed));
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
        let mut record = random_record(&mut picker(seed), options(seed));
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
        let mut record = random_record(&mut picker(seed), options(seed));
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
        let record = random_record(&mut picker(seed), options(seed));
        assert!(replay(&record).is_ok(), "seed {seed}");
    }
}
