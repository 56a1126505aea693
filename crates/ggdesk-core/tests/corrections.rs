//! Correcting the last move (issue 23, item 1): the move is replaced at the time it was
//! made, so the clocks count from that moment; the log keeps the undo and the new move; the
//! record holds the events in force, whose `t` never decreases; the oversteps the clocks
//! count between two events are found with the moment the limit was passed.

use ggdesk_core::clock::Time;
use ggdesk_core::game::{
    AnyEvent, CorrectionError, GameMode, LogEntry, LogEntryKind, LoggedGame, SheetRow,
};
use ggdesk_core::record::{self, Record};
use ggdesk_core::rules::{
    BySide, Event, Move, PenaltyKind, Position, Rank, RuleSettings, Side, SideSetup, Square,
};
use ggdesk_core::sim::{SimOptions, random_record};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value};

/// One side's pieces in the rulebook's order on its rows from the back: White's Spies on
/// a3 and b3 and its Flag on c3, Black's Spies on a6 and b6 and its Flag on c6.
fn setup(side: Side) -> SideSetup {
    let rows: [u8; 3] = match side {
        Side::White => [0, 1, 2],
        Side::Black => [7, 6, 5],
    };
    let squares = rows
        .iter()
        .flat_map(|&r| (0..9).filter_map(move |f| Square::new(f, r)));
    let ranks = Rank::ALL
        .iter()
        .flat_map(|r| std::iter::repeat_n(*r, r.count_in_set()));
    SideSetup::new(squares.zip(ranks).collect())
}

fn mv(text: &str) -> AnyEvent {
    AnyEvent::Game(Event::Move {
        mv: Move::parse_typed(text).expect("a move"),
        by: None,
    })
}

fn entry(seq: u32, t: f64, event: AnyEvent) -> LogEntry {
    LogEntry {
        seq,
        t,
        kind: event.into(),
    }
}

struct Facts {
    setup: BySide<Option<SideSetup>>,
    sheets: BySide<Option<SheetRow>>,
    extra: Map<String, Value>,
}

fn facts() -> Facts {
    Facts {
        setup: BySide::new(Some(setup(Side::White)), Some(setup(Side::Black))),
        sheets: BySide::default(),
        extra: Map::new(),
    }
}

fn logged<'a>(f: &'a Facts, log: &'a [LogEntry]) -> LoggedGame<'a> {
    LoggedGame {
        mode: GameMode::Arbitrated,
        first: Side::White,
        ratings: None,
        rules: RuleSettings::default(),
        setup: &f.setup,
        log,
        sheets: &f.sheets,
        extra: &f.extra,
    }
}

fn secs(s: f64) -> Time {
    Time::from_secs_f64(s).expect("a time")
}

/// The arbiter typed a6-a5 at 0:09 when Black played b6-b5; noticed at 0:30. The move is
/// replaced at 0:09: White's clock has run since then, exactly as if it had been entered
/// right, and the record says b6-b5 at 0:09.
#[test]
fn the_last_move_is_replaced_at_the_time_it_was_made() {
    let f = facts();
    let log = vec![entry(0, 5.0, mv("a3-a4")), entry(1, 9.0, mv("a6-a5"))];
    let game = logged(&f, &log);
    let c = game.correction(mv("b6-b5"), 30.0).expect("corrected");
    assert_eq!(
        c.entries,
        vec![
            LogEntry {
                seq: 2,
                t: 30.0,
                kind: LogEntryKind::Undo { seq: 1 }
            },
            entry(3, 9.0, mv("b6-b5")),
        ]
    );
    assert_eq!(c.cancelled, (1, 9.0, mv("a6-a5")));
    // The audit log's account of it: both moves as the record writes them, at 0:09.
    assert_eq!(
        c.value(),
        serde_json::json!({
            "corrected_at": 30.0,
            "cancelled": {"t": 9.0, "move": "a6-a5"},
            "cancelled_seq": 1,
            "entered": {"t": 9.0, "move": "b6-b5"},
        })
    );
    let mut corrected = log.clone();
    corrected.extend(c.entries.iter().copied());
    let after = logged(&f, &corrected);
    let record = after.record().expect("a record");
    let events: Vec<(f64, String)> = record
        .events
        .iter()
        .map(|e| (e.t, record::event_value(e)["move"].to_string()))
        .collect();
    assert_eq!(
        events,
        vec![(5.0, "\"a3-a4\"".into()), (9.0, "\"b6-b5\"".into())]
    );
    // White has thought since 0:09: 21 s at 0:30 (1:39 left on the move clock).
    let now = after.derive().expect("setups").expect("replays");
    assert_eq!(now.to_move(), Side::White);
    let mut at_30 = now.clone();
    at_30.judge_clocks(secs(30.0)).expect("judged");
    assert_eq!(at_30.clock().move_remaining_ns(), 99_000_000_000);
    assert_eq!(
        after.used_between(9.0, secs(30.0)),
        Some(BySide::new(21_000_000_000, 0))
    );
    // Entered again at 0:30 instead (an undo and a new move), White's clock would have
    // lost the 21 s Black's thinking was charged with.
    let seen = after.last_correction().expect("a correction in the log");
    assert_eq!(seen.cancelled, mv("a6-a5"));
    assert_eq!(seen.replacement, mv("b6-b5"));
    assert_eq!((seen.seq, seen.t, seen.corrected_at), (3, 9.0, 30.0));
    assert!(logged(&f, &log).last_correction().is_none());
}

/// The arbiter paused the clocks to sort it out, then corrected: the pause stays where it
/// was, and the clocks stay paused.
#[test]
fn a_pause_entered_after_the_move_is_kept_at_its_time() {
    let f = facts();
    let log = vec![
        entry(0, 5.0, mv("a3-a4")),
        entry(1, 9.0, mv("a6-a5")),
        entry(2, 20.0, AnyEvent::Game(Event::Pause)),
    ];
    let game = logged(&f, &log);
    let c = game.correction(mv("b6-b5"), 25.0).expect("corrected");
    let kinds: Vec<(u32, f64, &str)> = c
        .entries
        .iter()
        .map(|e| (e.seq, e.t, e.kind.code()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (3, 25.0, "undo"),
            (4, 25.0, "undo"),
            (5, 9.0, "move"),
            (6, 20.0, "pause")
        ]
    );
    let mut corrected = log.clone();
    corrected.extend(c.entries.iter().copied());
    let after = logged(&f, &corrected);
    let record = after.record().expect("record");
    let ts: Vec<f64> = record.events.iter().map(|e| e.t).collect();
    assert_eq!(ts, vec![5.0, 9.0, 20.0]);
    assert!(
        after
            .derive()
            .expect("setups")
            .expect("replays")
            .clock()
            .is_paused()
    );
    // From 0:09 to the pause White thought 11 s; nothing counts while paused.
    assert_eq!(
        after.used_between(9.0, secs(60.0)),
        Some(BySide::new(11_000_000_000, 0))
    );
}

#[test]
fn a_correction_is_refused_with_its_reason_and_nothing_to_append() {
    let f = facts();
    let empty: Vec<LogEntry> = Vec::new();
    assert_eq!(
        logged(&f, &empty).correction(mv("a3-a4"), 1.0),
        Err(CorrectionError::NoMove)
    );
    let log = vec![
        entry(0, 5.0, mv("a3-a4")),
        entry(1, 9.0, mv("a6-a5")),
        entry(
            2,
            12.0,
            AnyEvent::Game(Event::Penalty {
                kind: PenaltyKind::OwnExposure,
                side: Side::White,
            }),
        ),
    ];
    assert_eq!(
        logged(&f, &log).correction(mv("b6-b5"), 20.0),
        Err(CorrectionError::EventAfter {
            seq: 2,
            code: "penalty"
        })
    );
    let log = &log[..2];
    assert_eq!(
        logged(&f, log).correction(AnyEvent::Game(Event::Pause), 20.0),
        Err(CorrectionError::NotAMove("pause"))
    );
    assert!(
        matches!(
            logged(&f, log).correction(mv("a6-a4"), 20.0),
            Err(CorrectionError::Refused(_))
        ),
        "a move two squares away is refused"
    );
    // White's move cannot replace Black's.
    assert!(matches!(
        logged(&f, log).correction(mv("b3-b4"), 20.0),
        Err(CorrectionError::Refused(_))
    ));
}

/// The move limit passed between two events is found, with the moment it was passed.
#[test]
fn an_overstep_between_two_events_is_found_with_its_moment() {
    let f = facts();
    let log = vec![entry(0, 5.0, mv("a3-a4"))];
    let game = logged(&f, &log);
    assert_eq!(game.overstep_before(100.0), None);
    let o = game.overstep_before(200.0).expect("Black passed 2:00");
    assert_eq!((o.side, o.count, o.limit), (Side::Black, 1, 3));
    assert_eq!(o.at, 125.0);
    // Paused before the limit: no overstep however long the pause.
    let paused = vec![
        entry(0, 5.0, mv("a3-a4")),
        entry(1, 60.0, AnyEvent::Game(Event::Pause)),
    ];
    assert_eq!(logged(&f, &paused).overstep_before(900.0), None);
    // A turn passes the limit once: the second look finds nothing new.
    let late = vec![entry(0, 5.0, mv("a3-a4")), entry(1, 200.0, mv("a6-a5"))];
    let o = logged(&f, &late)
        .overstep_before(400.0)
        .expect("White passed it too");
    assert_eq!((o.side, o.count, o.at), (Side::White, 1, 320.0));
}

/// Any last move of a random game, replaced by any other legal move at its time: the log
/// takes the undo and the new move, the record holds the events in force with `t` never
/// decreasing, and it replays.
#[test]
fn corrections_of_random_games_keep_the_record_in_order() {
    let mut rng = StdRng::seed_from_u64(23);
    let options = SimOptions {
        max_events: 60,
        arbiter_events: true,
        ..SimOptions::default()
    };
    let f = |record: &Record| Facts {
        setup: BySide::new(
            Some(record.setup.white.clone()),
            Some(record.setup.black.clone()),
        ),
        sheets: BySide::default(),
        extra: Map::new(),
    };
    let mut checked = 0;
    for _ in 0..40 {
        let mut pick = |n: usize| if n == 0 { 0 } else { rng.random_range(0..n) };
        let record = random_record(&mut pick, options).expect("a random game");
        let facts = f(&record);
        // Every prefix that ends on a move, with the pauses and resumes after it.
        for k in 0..record.events.len() {
            if !matches!(record.events[k].event, Event::Move { .. }) {
                continue;
            }
            let mut end = k + 1;
            while end < record.events.len()
                && matches!(record.events[end].event, Event::Pause | Event::Resume)
            {
                end += 1;
            }
            let log: Vec<LogEntry> = record.events[..end]
                .iter()
                .enumerate()
                .map(|(i, e)| entry(i as u32, e.t, AnyEvent::Game(e.event)))
                .collect();
            let game = LoggedGame {
                first: record.first,
                ratings: record.ratings,
                rules: record.rules,
                ..logged(&facts, &log)
            };
            // The game before the move: its other legal moves.
            let mut before = record.clone();
            before.events.truncate(k);
            let (g, _) = record::replay_game(&before).expect("the prefix replays");
            if g.is_over() {
                continue;
            }
            let legal = Position::legal_moves(g.position(), g.to_move());
            let Some(&other) = legal.get(pick(legal.len())) else {
                continue;
            };
            let replacement = AnyEvent::Game(Event::Move {
                mv: other,
                by: None,
            });
            let now = log.last().map_or(0.0, |e| e.t) + pick(30) as f64;
            let c = game
                .correction(replacement, now)
                .expect("a legal move at the same time is taken");
            let mut corrected = log.clone();
            corrected.extend(c.entries.iter().copied());
            let after = LoggedGame {
                log: &corrected,
                ..game
            };
            let out = after.record().expect("a record");
            assert!(
                out.events.windows(2).all(|w| w[0].t <= w[1].t),
                "t decreases in {:?}",
                out.events
            );
            assert_eq!(out.events.len(), end);
            assert_eq!(out.events[k].t, record.events[k].t);
            assert_eq!(AnyEvent::Game(out.events[k].event), replacement);
            record::replay(&out).expect("the corrected record replays");
            assert_eq!(
                after.last_correction().map(|s| s.replacement),
                Some(replacement)
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} corrections were tried");
}
