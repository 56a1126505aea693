//! Defect 5: times a record may carry are bounded, so that no sum the clocks compute and no
//! conversion for display can overflow; a record beyond the bound is refused with the bound
//! named, never replayed with wrong arithmetic and never a panic.

use ggdesk_core::clock::Time;
use ggdesk_core::record::{Record, TimedEvent, replay, replay_game};
use ggdesk_core::rules::{Event, Game, RuleSettings};
use ggdesk_core::sim::{SimOptions, random_record};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    move |n| if n == 0 { 0 } else { rng.random_range(0..n) }
}

/// A well-formed record's JSON with the events and rules given.
fn record_json(seed: u64, rules: Value, events: Value) -> Value {
    let mut base = random_record(&mut picker(seed), SimOptions::default())
        .expect("a simulated game")
        .to_value();
    base["rules"] = rules;
    base["events"] = events;
    base
}

/// Everything the desk shows of a game's clocks, computed: none of it may overflow.
fn show(game: &Game) -> Vec<i64> {
    let c = game.clock();
    vec![
        game.last_time().as_ms(),
        game.last_time().as_ns(),
        c.now().as_ms(),
        c.thinking_ns(),
        c.game_used_ns(),
        c.move_remaining_ns(),
        c.game_remaining_ns(),
    ]
}

#[test]
fn a_resume_four_quintillion_seconds_after_a_pause_is_refused_naming_the_bound() {
    let v = record_json(
        1,
        json!({}),
        json!([{"t": 0, "pause": true}, {"t": 4e18, "resume": true}]),
    );
    let err = Record::from_value(&v)
        .and_then(|r| replay(&r))
        .expect_err("beyond the bound");
    let text = err.to_string();
    assert!(text.starts_with("event 1:"), "{text}");
    assert!(text.contains("2^50"), "the bound is named: {text}");
}

#[test]
fn a_rule_limit_beyond_the_bound_is_refused_not_cut_short() {
    // A game limit of 10^30 s with a move at 10^10 s: the game goes on (a limit cut to what
    // fits in nanoseconds ended it at 9.2 · 10^9 s instead).
    let v = record_json(
        2,
        json!({"game_limit_s": 1e30, "move_limit_s": 1e30}),
        json!([]),
    );
    let err = Record::from_value(&v).expect_err("beyond the bound");
    let text = err.to_string();
    assert!(text.contains("rules.game_limit_s"), "{text}");
    assert!(text.contains("2^33"), "the bound is named: {text}");
}

#[test]
fn times_at_the_bound_replay_and_show_without_overflow() {
    let max = Time::MAX_SECS;
    let v = record_json(
        3,
        json!({"game_limit_s": 8_589_934_592.0, "move_limit_s": 8_589_934_592.0}),
        json!([{"t": 0, "pause": true}, {"t": max, "resume": true}, {"t": max, "end": true}]),
    );
    let record = Record::from_value(&v).expect("at the bound");
    let (game, _) = replay_game(&record).expect("replays");
    show(&game);
    assert_eq!(
        game.last_time(),
        Time::from_secs_f64(max).expect("in range")
    );
    assert_eq!(game.last_time().as_ms(), 1_125_899_906_842_624_000);
}

#[test]
fn time_conversions_for_display_never_overflow() {
    for t in [Time(i128::MAX), Time(i128::MIN), Time(-1), Time(1 << 126)] {
        // Saturating: the nearest value the type holds.
        let _ = (t.as_ms(), t.as_ns(), t.as_secs_f64());
    }
    assert_eq!(Time(i128::MAX).as_ms(), i64::MAX);
    assert_eq!(Time(i128::MIN).as_ns(), i64::MIN);
    assert_eq!(Time::from_secs(3).as_ms(), 3000);
    assert_eq!(Time(-1).as_ms(), -1, "rounded down, as before");
}

/// Seconds a fuzzed record may write: ordinary, at and around the bounds, and absurd.
fn any_secs() -> impl Strategy<Value = f64> {
    prop_oneof![
        0.0..100_000.0f64,
        Just(Time::MAX_SECS),
        Just(Time::MAX_SECS * 1.000_000_1),
        Just(8_589_934_592.0),
        Just(9.3e9),
        Just(4e18),
        Just(4.611_686_018_427_388e18),
        Just(1e300),
        Just(f64::MAX),
        0.0..1e20f64,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any times and limits: a verdict or a refusal, never a panic, and a replayed game's
    /// clocks can always be shown.
    #[test]
    fn huge_times_and_limits_never_panic(
        seed in 0u64..1000,
        times in prop::collection::vec(any_secs(), 1..6),
        game_limit in any_secs(),
        move_limit in any_secs(),
    ) {
        let mut times = times;
        times.sort_by(f64::total_cmp);
        let mut events = Vec::new();
        for (i, t) in times.iter().enumerate() {
            let kind = if i % 2 == 0 { "pause" } else { "resume" };
            events.push(json!({"t": t, kind: true}));
        }
        let v = record_json(
            seed,
            json!({"game_limit_s": game_limit, "move_limit_s": move_limit}),
            Value::Array(events),
        );
        if let Ok(record) = Record::from_value(&v) {
            let _ = replay(&record);
            if let Ok((game, _)) = replay_game(&record) {
                show(&game);
            }
        }
    }

    /// A pause of any length within the bound changes nothing but the times after it.
    #[test]
    fn a_pause_of_any_length_changes_only_the_times_after_it(
        seed in 0u64..500,
        at in 0usize..60,
        gap_steps in 1u64..(1 << 29),
    ) {
        let options = SimOptions {
            max_events: 60,
            max_think_ms: 130_000,
            rules: RuleSettings {
                thirty_moves: 0,
                game_limit_ns: 1_200_000_000_000,
                ..RuleSettings::default()
            },
            ..SimOptions::default()
        };
        let mut base = random_record(&mut picker(seed), options).expect("a simulated game");
        // Quarter seconds, so that adding the gap (a multiple of 2^20 s below 2^49 s) is exact.
        for e in &mut base.events {
            e.t = (e.t * 4.0).round() / 4.0;
        }
        let Ok(want) = replay(&base) else {
            return Ok(()); // the rounded times made it another game
        };
        let at = at.min(base.events.len().saturating_sub(1));
        let mut prefix = base.clone();
        prefix.events.truncate(at + 1);
        let (game, _) = replay_game(&prefix).expect("a prefix of a valid record");
        prop_assume!(!game.is_over() && !game.clock().is_paused());
        prop_assume!(base.events[at].event != Event::End);
        let gap = gap_steps as f64 * 1_048_576.0;
        let t0 = base.events[at].t;
        let mut paused = base.clone();
        for e in &mut paused.events[at + 1..] {
            e.t += gap;
        }
        paused.events.insert(at + 1, TimedEvent { t: t0, event: Event::Pause });
        paused.events.insert(at + 2, TimedEvent { t: t0 + gap, event: Event::Resume });
        let got = replay(&paused).expect("the same game with a long pause");
        prop_assert_eq!(got.status, want.status);
        prop_assert_eq!(got.outcome, want.outcome);
        prop_assert_eq!(got.plies, want.plies);
        prop_assert_eq!(got.challenges, want.challenges);
        prop_assert_eq!(got.oversteps, want.oversteps);
        prop_assert_eq!(got.at, want.at + gap);
        let (game, _) = replay_game(&paused).expect("replays");
        show(&game);
    }
}
