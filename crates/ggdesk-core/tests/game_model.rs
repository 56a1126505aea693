//! The one game model: both kinds of game behind `AnyEvent` / `AnyGame`, the undo-aware log
//! and what is derived from it, the rule settings' one encoding in records, the records'
//! required keys.

use ggdesk_core::clock::Time;
use ggdesk_core::game::{
    AnyEvent, AnyGame, Decision, GameMode, LogEntry, LogEntryKind, LoggedGame, Restart,
    SheetEntryError, SheetRow,
};
use ggdesk_core::physical_record::PhysicalRecord;
use ggdesk_core::record::{DESK_TIMERS_KEY, Fault, Record, RecordError};
use ggdesk_core::rules::{
    BySide, Event, EventError, GameState, Outcome, PhysicalEvent, PhysicalGame, Reason,
    RuleSettings, Side, SideSetup,
};
use ggdesk_core::sim::{SimOptions, random_record};
use ggdesk_core::tournament::GameResult;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value, json};

fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    move |n| if n == 0 { 0 } else { rng.random_range(0..n) }
}

fn timers() -> RuleSettings {
    RuleSettings {
        setup_limit_ns: 420_000_000_000,
        reading_limit_ns: 600_000_000_000,
        grace_ns: 1_200_000_000_000,
        ..RuleSettings::default()
    }
}

/// Defect 1, the record's part: an exported record keeps the spec's seven rule keys in
/// `rules` and carries the desk's timers beside them, and reading it back restores them.
#[test]
fn a_record_carries_the_desk_timers_beside_its_seven_rule_keys() {
    let mut record =
        random_record(&mut picker(1), SimOptions::default()).expect("a simulated game");
    record.rules = timers();
    let v = record.to_value();
    let rules = v["rules"].as_object().expect("rules");
    assert_eq!(rules.len(), 7, "{rules:?}");
    assert_eq!(
        v[DESK_TIMERS_KEY],
        json!({"setup_s": 420, "reading_s": 600, "grace_s": 1200})
    );
    let back = Record::from_value(&v).expect("reads back");
    assert_eq!(back.rules, timers());
    assert!(back.extra.is_empty(), "a known key, not an unknown one");

    let physical = PhysicalRecord {
        first: Side::White,
        ratings: None,
        rules: timers(),
        events: vec![],
        readings: None,
        extra: Map::new(),
    };
    let back = PhysicalRecord::from_value(&physical.to_value()).expect("reads back");
    assert_eq!(back.rules, timers());

    // A bad timer is named.
    let mut v = record.to_value();
    v[DESK_TIMERS_KEY]["reading_s"] = json!(-5);
    let err = Record::from_value(&v).expect_err("refused");
    assert!(matches!(err, RecordError::Rules(_)), "{err:?}");
    assert_eq!(err.fault(), Fault::BadField);
    let err = err.to_string();
    assert!(err.contains("desk_timers.reading_s"), "{err}");
}

/// Defect 7: `format`, `setup` and `events` are required; a record without one is
/// malformed, and the message names the key.
#[test]
fn a_record_without_a_required_key_is_refused_naming_it() {
    let full = random_record(&mut picker(2), SimOptions::default())
        .expect("a simulated game")
        .to_value();
    for key in ["format", "setup", "events"] {
        let mut v = full.clone();
        v.as_object_mut().expect("object").remove(key);
        let err = Record::from_value(&v).expect_err(key);
        // A top-level field of the wrong form (referee.py's FAULTS: the setup as a whole is
        // a field; a side's setup missing inside it would be bad_setup).
        assert_eq!(err.fault(), Fault::BadField, "{key}: {err}");
        let err = err.to_string();
        assert!(err.starts_with(key), "{key}: {err}");
        assert!(err.contains("missing"), "{key}: {err}");
    }
    let mut v = full.clone();
    v["events"] = Value::Null;
    assert_eq!(
        Record::from_value(&v),
        Err(RecordError::Field("events must be a list".into())),
        "null is not a list of events"
    );
    // The optional keys may go.
    let mut v = full;
    for key in ["first", "ratings", "rules", "readings", DESK_TIMERS_KEY] {
        v.as_object_mut().expect("object").remove(key);
    }
    Record::from_value(&v).expect("optional keys absent");
}

fn physical_waiting_for_counts() -> PhysicalGame {
    let mut g = PhysicalGame::new(RuleSettings::default(), Side::White, None);
    for i in 1..=30 {
        g.apply(Time::from_secs(i), &PhysicalEvent::Move { challenge: None })
            .expect("move");
    }
    g
}

/// Defect 2, the core's part: a game waiting for the thirty-move counts is a state of the
/// game whose clocks have stopped, so a restart writes nothing for it.
#[test]
fn a_game_waiting_for_the_counts_has_stopped_its_clocks() {
    let g = physical_waiting_for_counts();
    assert_eq!(
        g.state(),
        GameState::ThirtyCountPending {
            at: Time::from_secs(30)
        }
    );
    assert!(g.awaiting_thirty_count());
    let any = AnyGame::Physical(g);
    assert!(any.is_over());
    assert!(!any.clocks_running());
    assert_eq!(any.restart(Some(40.0), Some(900.0)), Restart::Nothing);
    // The pause a restart used to write is refused: only the counts may follow.
    let mut probe = any.clone();
    assert_eq!(
        probe.apply(Time::from_secs(40), &AnyEvent::pause(GameMode::Physical)),
        Err(EventError::CountsNeeded)
    );
    // Judging the clocks later changes nothing: no clock runs.
    probe
        .judge_clocks(Time::from_secs(100_000))
        .expect("judged");
    assert_eq!(probe, any);
}

#[test]
fn a_running_game_is_paused_where_the_desk_last_saw_it_and_resumed_now() {
    let record = random_record(
        &mut picker(3),
        SimOptions {
            max_events: 6,
            max_think_ms: 10_000,
            ..SimOptions::default()
        },
    )
    .expect("a simulated game");
    let (game, _) = ggdesk_core::record::replay_game(&record).expect("replays");
    let game = AnyGame::Arbitrated(game);
    assert!(game.clocks_running());
    let last = game.last_time().as_secs_f64();
    assert_eq!(
        game.restart(Some(last + 20.0), Some(last + 600.0)),
        Restart::PauseAndResume {
            pause_at: last + 20.0,
            resume_at: last + 600.0
        }
    );
    // No time lost since the clocks were seen (or none known): no empty pause is written.
    assert_eq!(
        game.restart(Some(last + 20.0), Some(last + 20.0)),
        Restart::Nothing
    );
    assert_eq!(game.restart(Some(last + 20.0), None), Restart::Nothing);
    // Seen after the game time ran out: the game ends where the desk saw it.
    assert_eq!(
        game.restart(Some(7300.0), Some(9000.0)),
        Restart::End { at: 7300.0 }
    );
}

#[test]
fn an_event_of_the_other_kind_of_game_is_refused() {
    let mut g = AnyGame::Physical(PhysicalGame::new(
        RuleSettings::default(),
        Side::White,
        None,
    ));
    assert_eq!(
        g.apply(Time::from_secs(1), &AnyEvent::Game(Event::Pause)),
        Err(EventError::OtherKindOfGame)
    );
    assert_eq!(
        AnyEvent::pause(GameMode::Physical).mode(),
        GameMode::Physical
    );
    assert_eq!(
        AnyEvent::resume(GameMode::Arbitrated),
        AnyEvent::Game(Event::Resume)
    );
    assert_eq!(
        AnyEvent::end(GameMode::Physical),
        AnyEvent::Physical(PhysicalEvent::End)
    );
}

fn entry(seq: u32, t: f64, kind: LogEntryKind) -> LogEntry {
    LogEntry { seq, t, kind }
}

/// A physical game's log, borrowed as the store borrows its rows.
fn physical_log<'a>(
    log: &'a [LogEntry],
    setup: &'a BySide<Option<SideSetup>>,
    sheets: &'a BySide<Option<SheetRow>>,
    extra: &'a Map<String, Value>,
) -> LoggedGame<'a> {
    LoggedGame {
        mode: GameMode::Physical,
        first: Side::White,
        ratings: None,
        rules: RuleSettings {
            game_limit_ns: 60_000_000_000,
            ..RuleSettings::default()
        },
        setup,
        log,
        sheets,
        extra,
    }
}

#[test]
fn an_undo_cancels_the_last_event_in_force_and_the_decision_follows() {
    let resign = LogEntryKind::Physical(PhysicalEvent::Resign(Side::Black));
    let mut log = vec![
        entry(
            0,
            5.0,
            LogEntryKind::Physical(PhysicalEvent::Move { challenge: None }),
        ),
        entry(1, 9.0, resign),
    ];
    let (setup, sheets, extra) = (BySide::default(), BySide::default(), Map::new());
    let decided = physical_log(&log, &setup, &sheets, &extra).decision();
    let white_wins = Outcome::Win {
        side: Side::White,
        reason: Reason::Resignation,
    };
    assert_eq!(decided, Decision::Decided(white_wins));
    assert_eq!(decided.code().as_deref(), Some("white resignation"));
    assert_eq!(decided.board_result(), Some(GameResult::WhiteWins));

    log.push(entry(2, 12.0, LogEntryKind::Undo { seq: 1 }));
    // An undo naming an event no longer last in force cancels nothing.
    log.push(entry(3, 13.0, LogEntryKind::Undo { seq: 1 }));
    let game = physical_log(&log, &setup, &sheets, &extra);
    assert_eq!(game.effective().len(), 1);
    assert_eq!(game.next_seq(), 4);
    assert_eq!(game.decision(), Decision::Undecided);
    assert_eq!(game.decision().code(), None);
    assert_eq!(game.decision().board_result(), None);

    // Game time runs out: waiting for the adjudication, the board stays pending.
    log.push(entry(4, 70.0, LogEntryKind::Physical(PhysicalEvent::End)));
    let game = physical_log(&log, &setup, &sheets, &extra);
    assert_eq!(game.decision(), Decision::AdjudicationPending);
    assert_eq!(
        game.decision().code().as_deref(),
        Some("adjudication_pending")
    );
    assert_eq!(game.decision().board_result(), None);
}

#[test]
fn each_entry_is_written_and_read_back_the_same() {
    let entries = [
        (
            GameMode::Physical,
            LogEntryKind::Physical(PhysicalEvent::ThirtyCount { white: 3, black: 1 }),
        ),
        (GameMode::Physical, LogEntryKind::Undo { seq: 7 }),
        (
            GameMode::Arbitrated,
            LogEntryKind::Game(Event::Resign(Side::Black)),
        ),
    ];
    for (mode, kind) in entries {
        let v = kind.value(12.5);
        assert_eq!(LogEntryKind::parse(mode, kind.code(), &v), Ok(kind));
    }
    // The kind column must agree with the event.
    let v = LogEntryKind::Game(Event::Pause).value(1.0);
    assert_eq!(
        LogEntryKind::parse(GameMode::Arbitrated, "resume", &v),
        Err("the kind is \"resume\" but the event is a \"pause\"".into())
    );
}

#[test]
fn a_reading_sheet_is_checked_once_for_both_kinds_of_game() {
    let log = vec![entry(0, 70.0, LogEntryKind::Physical(PhysicalEvent::End))];
    let (setup, sheets, extra) = (BySide::default(), BySide::default(), Map::new());
    let game = physical_log(&log, &setup, &sheets, &extra)
        .derive()
        .expect("physical")
        .expect("replays");
    let err = game
        .check_sheet(Side::White, &json!([["G5", null]]))
        .expect_err("lists one piece");
    assert!(matches!(err, SheetEntryError::Tally(_)), "{err}");
    let all: Vec<Value> = game
        .as_physical()
        .expect("physical")
        .remaining_pieces(Side::Black)
        .iter()
        .map(|r| json!([r.code(), null]))
        .collect();
    game.check_sheet(Side::White, &Value::Array(all))
        .expect("every piece listed, all abstained");
    let playing = AnyGame::Physical(PhysicalGame::new(
        RuleSettings::default(),
        Side::White,
        None,
    ));
    assert_eq!(
        playing.check_sheet(Side::White, &json!([])),
        Err(SheetEntryError::NotWaiting)
    );
}
