//! Issue 23 at an arbiter station: the last move is corrected at its time through the
//! station's functions at its own table and refused at another station's, naming why, with
//! nothing changed.

#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use event::connect;
use ggdesk::store::{AnyEvent, AuditFilter, Expect, GameId, Store, StoreError};
use ggdesk_core::rules::{Event, Move};
use trust::dump;

/// The log of a game: sequence number, time and kind of each entry.
fn log(store: &Store, id: GameId) -> Vec<(u32, f64, String)> {
    store
        .load_game(id)
        .expect("game")
        .events
        .iter()
        .map(|e| (e.seq, e.t, e.kind.code().to_string()))
        .collect()
}

/// The move made in the fixture's game (its only event) and another legal move of the
/// same side from the same position.
fn made_and_other(store: &Store, id: GameId) -> (Move, Move) {
    let stored = store.load_game(id).expect("game");
    let made = match stored.events[0].kind.event() {
        Some(AnyEvent::Game(Event::Move { mv, .. })) => mv,
        other => panic!("the fixture's game begins with a move: {other:?}"),
    };
    let mut before = stored.clone();
    before.events.clear();
    let game = before.game().expect("setups").expect("replays");
    let other = game
        .position()
        .legal_moves(game.to_move())
        .into_iter()
        .find(|m| *m != made)
        .expect("another legal move");
    (made, other)
}

#[test]
fn a_station_corrects_the_last_move_at_its_table_and_not_at_another() {
    let ev = trust::event();
    let mut a = connect(&ev.a.url);
    a.set_now(trust::START + 30_000);
    assert!(a.is_station());
    let (made, other) = made_and_other(&ev.director, ev.game_a);
    let replacement = AnyEvent::Game(Event::Move {
        mv: other,
        by: None,
    });
    let outcome = a
        .correct_last_move(
            ev.game_a,
            Some(Expect {
                seq: 1,
                token: "tok-correct-a",
            }),
            30.0,
            replacement,
            &ggdesk::store::Actor("hall-a".into()),
            "typed the wrong square",
        )
        .expect("corrected at its own table");
    assert_eq!(outcome.seq, 2, "the move entered after the undo");
    // The undo at the moment of the correction, the move at the cancelled move's own time.
    assert_eq!(
        log(&ev.director, ev.game_a),
        [
            (0, 2.0, "move".to_string()),
            (1, 30.0, "undo".to_string()),
            (2, 2.0, "move".to_string())
        ]
    );
    let record = ev.director.export_record(ev.game_a).expect("record");
    assert_eq!(record.events.len(), 1);
    assert_eq!(AnyEvent::Game(record.events[0].event), replacement);
    assert_ne!(made, other);
    // The audit lines are the station's (from its login, not what the desk says), with the
    // reason, and name both moves.
    let lines = ev
        .director
        .audit_log(AuditFilter::Game(ev.game_a.0))
        .expect("audit");
    let written: Vec<_> = lines
        .iter()
        .filter(|l| l.reason == "typed the wrong square")
        .collect();
    assert!(!written.is_empty(), "{lines:?}");
    assert!(
        written.iter().all(|l| l.actor == "station hall-a"),
        "{written:?}"
    );
    let text: String = written.iter().map(|l| l.details.clone()).collect();
    assert!(text.contains(&other.to_string()), "{text}");
    // Sent again with the same token (its confirmation lost): stored once.
    let again = a
        .correct_last_move(
            ev.game_a,
            Some(Expect {
                seq: 1,
                token: "tok-correct-a",
            }),
            31.0,
            replacement,
            &ggdesk::store::Actor("hall-a".into()),
            "typed the wrong square",
        )
        .expect("found again by its token");
    assert_eq!(again.seq, 1, "the entry its token names");
    assert_eq!(log(&ev.director, ev.game_a).len(), 3, "nothing added");

    // hall-b's table: refused, naming why, nothing changed.
    let before = dump(&ev.db);
    let (_, other_b) = made_and_other(&ev.director, ev.game_b);
    let r = a.correct_last_move(
        ev.game_b,
        None,
        30.0,
        AnyEvent::Game(Event::Move {
            mv: other_b,
            by: None,
        }),
        &ggdesk::store::Actor("hall-a".into()),
        "not mine",
    );
    match r {
        Err(StoreError::Denied(m)) => assert!(
            m.contains(&format!(
                "game {} is not at a table of this station",
                ev.game_b
            )),
            "{m}"
        ),
        other => panic!("another station's table must be refused for this login: {other:?}"),
    }
    assert_eq!(dump(&ev.db), before, "nothing changed");
}
