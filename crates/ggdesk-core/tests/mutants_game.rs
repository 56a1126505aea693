//! Tests the game model's mutants showed missing (`cargo mutants` on `game/`, see
//! "Mutation testing" in ARCHITECTURE.md): the mode's database code, an event of either
//! kind for a game followed in a mode, a game of either kind seen as its own kind, and the
//! arbitrated game of a log.

use ggdesk_core::game::{AnyEvent, AnyGame, GameMode, LogEntry, LoggedGame};
use ggdesk_core::rules::{
    BySide, Event, PenaltyKind, PhysicalEvent, PhysicalGame, RuleSettings, Side,
};
use ggdesk_core::sim::{SimOptions, random_record};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Map;

/// The codes the database keeps (schema.sql's `games.mode` check), written by hand.
#[test]
fn each_mode_has_the_code_the_database_keeps_and_reads_back() {
    assert_eq!(GameMode::Arbitrated.code(), "arbitrated");
    assert_eq!(GameMode::Physical.code(), "physical");
    assert_eq!(
        GameMode::from_code("arbitrated"),
        Some(GameMode::Arbitrated)
    );
    assert_eq!(GameMode::from_code("physical"), Some(GameMode::Physical));
    assert_eq!(GameMode::from_code(""), None);
    assert_eq!(GameMode::from_code("Physical"), None);
}

/// An event common to both kinds (penalty, resignation, draw for respect, pause, resume,
/// end) becomes the physical board's own event for a physical game and stays the record's
/// event for an arbitrated one; a move has no physical counterpart here.
#[test]
fn a_common_event_is_given_to_a_game_of_either_mode_and_a_move_only_to_an_arbitrated_one() {
    let pairs = [
        (
            Event::Penalty {
                kind: PenaltyKind::OwnExposure,
                side: Side::Black,
            },
            PhysicalEvent::Penalty {
                kind: PenaltyKind::OwnExposure,
                side: Side::Black,
            },
        ),
        (
            Event::Resign(Side::White),
            PhysicalEvent::Resign(Side::White),
        ),
        (Event::DrawForRespect, PhysicalEvent::DrawForRespect),
        (Event::Pause, PhysicalEvent::Pause),
        (Event::Resume, PhysicalEvent::Resume),
        (Event::End, PhysicalEvent::End),
    ];
    for (event, physical) in pairs {
        assert_eq!(
            AnyEvent::for_mode(GameMode::Arbitrated, event),
            Some(AnyEvent::Game(event))
        );
        assert_eq!(
            AnyEvent::for_mode(GameMode::Physical, event),
            Some(AnyEvent::Physical(physical))
        );
    }
    let record = random_record(&mut picker(5), SimOptions::default()).expect("a simulated game");
    let a_move = record
        .events
        .iter()
        .map(|e| e.event)
        .find(|e| matches!(e, Event::Move { .. }))
        .expect("a simulated game has a move");
    assert_eq!(
        AnyEvent::for_mode(GameMode::Arbitrated, a_move),
        Some(AnyEvent::Game(a_move))
    );
    assert_eq!(AnyEvent::for_mode(GameMode::Physical, a_move), None);
}

/// `as_arbitrated` gives the arbitrated game itself (its moves), `as_physical` the
/// physical one; each refuses the other kind.
#[test]
fn a_game_of_either_kind_is_seen_as_its_own_kind_only() {
    let record = random_record(&mut picker(8), SimOptions::default()).expect("a simulated game");
    let (game, _) = ggdesk_core::record::replay_game(&record).expect("replays");
    let plies = game.plies();
    let arbitrated = AnyGame::Arbitrated(game);
    assert_eq!(arbitrated.as_arbitrated().map(|g| g.plies()), Some(plies));
    assert!(arbitrated.as_physical().is_none());

    let physical = AnyGame::Physical(PhysicalGame::new(
        RuleSettings::default(),
        Side::Black,
        None,
    ));
    assert!(physical.as_arbitrated().is_none());
    assert_eq!(
        physical.as_physical().map(|g| g.to_move()),
        Some(Side::Black)
    );
}

/// The arbitrated game of a log is its record replayed: as many plies and the same state as
/// the record's own replay, and its export is the record; nothing before both setups are in.
#[test]
fn a_logged_game_is_its_record_replayed_once_both_setups_are_in() {
    let record = random_record(&mut picker(13), SimOptions::default()).expect("a simulated game");
    let (replayed, _) = ggdesk_core::record::replay_game(&record).expect("replays");
    let log: Vec<LogEntry> = record
        .events
        .iter()
        .zip(0u32..)
        .map(|(e, seq)| LogEntry {
            seq,
            t: e.t,
            kind: AnyEvent::Game(e.event).into(),
        })
        .collect();
    let both = BySide {
        white: Some(record.setup.white.clone()),
        black: Some(record.setup.black.clone()),
    };
    let sheets = BySide {
        white: None,
        black: None,
    };
    let extra = Map::new();
    let logged = LoggedGame {
        mode: GameMode::Arbitrated,
        first: record.first,
        ratings: record.ratings,
        rules: record.rules,
        setup: &both,
        log: &log,
        sheets: &sheets,
        extra: &extra,
    };
    let game = logged
        .game()
        .expect("both setups are in")
        .expect("the log replays");
    assert_eq!(game.plies(), replayed.plies());
    assert_eq!(game.state(), replayed.state());
    assert!(game.plies() > 0, "the simulated game has moves");
    // The events in force are the record's, numbered from 0; its verdict is the record's.
    let in_force: Vec<(u32, f64)> = logged
        .effective_events()
        .iter()
        .map(|(seq, e)| (*seq, e.t))
        .collect();
    let expected: Vec<(u32, f64)> = record
        .events
        .iter()
        .zip(0u32..)
        .map(|(e, s)| (s, e.t))
        .collect();
    assert_eq!(in_force, expected);
    assert_eq!(
        logged
            .effective_events()
            .iter()
            .map(|(_, e)| *e)
            .collect::<Vec<_>>(),
        record.events
    );
    assert_eq!(logged.verdict(), Some(ggdesk_core::record::replay(&record)));
    // Its export is the record itself.
    assert_eq!(logged.export_value(), Some(record.to_value()));

    let one = BySide {
        white: Some(record.setup.white.clone()),
        black: None,
    };
    let waiting = LoggedGame {
        setup: &one,
        ..logged
    };
    assert!(waiting.game().is_none());
    assert_eq!(waiting.export_value(), None);
    assert_eq!(waiting.verdict(), None);
}

fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    move |n| if n == 0 { 0 } else { rng.random_range(0..n) }
}

/// The simulator stops at `max_events`. Two events cannot end a game (a move of each side
/// from the starting rows: rows 4 and 5 lie between them, so no challenge yet) and a few
/// seconds each cannot run a clock out, so every record has exactly the limit's events.
#[test]
fn a_random_game_stops_at_its_event_limit() {
    for max_events in [0, 2] {
        for seed in 0..8u64 {
            let options = SimOptions {
                max_events,
                max_think_ms: 5_000,
                ..SimOptions::default()
            };
            let record = random_record(&mut picker(seed), options).expect("a random game");
            assert_eq!(record.events.len(), max_events, "seed {seed}");
        }
    }
}

/// The simulator reads its picks as documented: `pick(2) == 1` gives Black the first move,
/// and an arbiter's penalty (drawn when `pick(40)` is not 0 and `pick(60)` is 0) goes to
/// White on `pick(2) == 0`. A scripted pick answers 0 to everything else (the setups, the
/// thinking time), so the one event is that penalty at 0 s.
#[test]
fn the_simulator_turns_its_picks_into_the_first_mover_and_the_penalised_side() {
    for (coin, side) in [(0, Side::White), (1, Side::Black)] {
        let mut pick = |n: usize| match n {
            2 => coin,
            40 => 1,
            _ => 0,
        };
        let options = SimOptions {
            max_events: 1,
            arbiter_events: true,
            ..SimOptions::default()
        };
        let record = random_record(&mut pick, options).expect("a scripted game");
        assert_eq!(record.first, side, "coin {coin}");
        assert_eq!(record.events.len(), 1, "coin {coin}");
        assert_eq!(record.events[0].t, 0.0, "coin {coin}");
        assert_eq!(
            record.events[0].event,
            Event::Penalty {
                kind: PenaltyKind::OwnExposure,
                side
            },
            "coin {coin}"
        );
    }
}

/// Thinking times add up: a scripted pick that thinks 1.5 s before each move gives moves at
/// 1.5, 3 and 4.5 s. `pick(2) == 0` marks a move as made by the side to move (the record's
/// `by`), and also (as `pick(2) != 1`) leaves White the first move; every other pick is 0:
/// the first legal move.
#[test]
fn the_simulator_adds_thinking_times_and_marks_who_moved_as_picked() {
    for (coin, first, by) in [(0, Side::White, true), (1, Side::Black, false)] {
        let mut pick = |n: usize| match n {
            2 => coin,
            5_001 => 1_500,
            _ => 0,
        };
        let options = SimOptions {
            max_events: 3,
            max_think_ms: 5_000,
            ..SimOptions::default()
        };
        let record = random_record(&mut pick, options).expect("a scripted game");
        assert_eq!(record.first, first, "coin {coin}");
        let times: Vec<f64> = record.events.iter().map(|e| e.t).collect();
        assert_eq!(times, [1.5, 3.0, 4.5], "coin {coin}");
        let mut mover = first;
        for e in &record.events {
            let Event::Move { by: got, .. } = e.event else {
                panic!("a move, not {:?}", e.event);
            };
            assert_eq!(got, by.then_some(mover), "coin {coin}");
            mover = mover.opponent();
        }
    }
}

/// The arbiter's events of a random game, scripted: `pick(40) == 0` pauses the clocks and
/// the next event resumes them; `pick(400) == 0` (after `pick(40)` and `pick(60)` drew
/// nothing) is a resignation of the side to move, which ends the game and the record; a
/// first thinking time beyond the 2-hour game clock ends the record with `end` at that time
/// (the 2-minute move clock alone does not: three oversteps lose, not one).
#[test]
fn the_simulators_pauses_resignations_and_flag_falls_follow_the_picks() {
    let arbiter = SimOptions {
        max_events: 4,
        max_think_ms: 5_000,
        arbiter_events: true,
        ..SimOptions::default()
    };
    let record = random_record(&mut |_| 0, arbiter).expect("pauses");
    let events: Vec<&Event> = record.events.iter().map(|e| &e.event).collect();
    assert_eq!(
        events,
        [&Event::Pause, &Event::Resume, &Event::Pause, &Event::Resume]
    );

    let mut resign = |n: usize| match n {
        40 | 60 => 1,
        _ => 0,
    };
    let record = random_record(&mut resign, arbiter).expect("a resignation");
    let events: Vec<&Event> = record.events.iter().map(|e| &e.event).collect();
    assert_eq!(events, [&Event::Resign(Side::White)]);

    let slow = SimOptions {
        max_events: 4,
        max_think_ms: 8_000_000,
        ..SimOptions::default()
    };
    let mut think = |n: usize| if n == 8_000_001 { 7_300_000 } else { 0 };
    let record = random_record(&mut think, slow).expect("a flag fall");
    assert_eq!(record.events.len(), 1);
    assert_eq!(record.events[0].event, Event::End);
    assert_eq!(record.events[0].t, 7_300.0);
}
