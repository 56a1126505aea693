//! Issue 23 at an arbiter station (items 2 and 5 of the station's part): the last move is
//! corrected at its time through the station's functions at its own table and refused at
//! another station's, naming why, with nothing changed; the station's desk shows only what
//! the station may do, opens on the tournament whose round in play has its tables, clears a
//! stale "not connected" under the move box on reconnection.

mod common;
#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use common::{
    START_MS, all_text, click, desk, go, has_text, key_event, one_frame, type_into, until,
};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use event::{connect, games};
use ggdesk::store::{AnyEvent, AuditFilter, Expect, StoreError};
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::rules::{Event, Side};
use ggdesk_core::tournament::RoundNo;
use std::cell::Cell;
use std::rc::Rc;
use trust::{dump, log, made_and_other};

/// The page buttons of the navigation bar on screen.
fn nav(h: &Harness<'_, DeskApp>) -> Vec<Page> {
    Page::ALL
        .into_iter()
        .filter(|p| {
            h.query_by_label(&format!("{}  {:?}", p.title(), p.key()))
                .is_some()
        })
        .collect()
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
    // One audit line (migration 7), the station's (from its login, not what the desk says),
    // with the reason, naming both moves (its exact words: tests/trust_station_audit.rs).
    let lines = ev
        .director
        .audit_log(AuditFilter::Game(ev.game_a.0))
        .expect("audit");
    let written: Vec<_> = lines
        .iter()
        .filter(|l| l.reason == "typed the wrong square")
        .collect();
    assert_eq!(written.len(), 1, "{lines:?}");
    assert_eq!(written[0].actor, "station hall-a");
    assert_eq!(written[0].action, "move corrected");
    let text = &written[0].details;
    assert!(text.contains(&other.to_string()), "{text}");
    assert!(text.contains(&made.to_string()), "{text}");
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

#[test]
fn a_stations_desk_shows_only_what_the_station_may_do() {
    let ev = trust::event();
    let clock = Rc::new(Cell::new(START_MS + 5_000));
    // The director's desk on the same event: every page, and the round's commands.
    let d = desk(connect(&ev.url), Page::Rounds, Some(ev.open), &clock);
    assert_eq!(nav(&d), Page::ALL, "the director's desk has every page");
    for label in [
        "Re-pair round 1",
        "Start the round now",
        "Result of table 1",
    ] {
        assert!(
            d.query_by_label(label).is_some(),
            "{label}: {:?}",
            all_text(&d)
        );
    }
    drop(d);

    // hall-a's desk, its preferences remembering the draft tournament and the Players page.
    let mut h = desk(connect(&ev.a.url), Page::Players, Some(ev.draft), &clock);
    h.run();
    assert_eq!(
        h.state().prefs.tournament,
        Some(ev.open),
        "it opens on the tournament whose round in play has its tables"
    );
    assert_eq!(h.state().prefs.page, Page::Tables);
    assert_eq!(
        nav(&h),
        [Page::Rounds, Page::Tables, Page::Standings, Page::Settings],
        "{:?}",
        all_text(&h)
    );
    // The director's pages do not open by their keys either.
    for key in [
        egui::Key::F1,
        egui::Key::F2,
        egui::Key::F3,
        egui::Key::F9,
        egui::Key::F10,
    ] {
        one_frame(&mut h, vec![key_event(key)]);
        assert_eq!(h.state().prefs.page, Page::Tables, "{key:?}");
    }
    // Tables: its own tables, no practice table or import.
    assert!(has_text(&h, "Table 1 · hall-a"), "{:?}", all_text(&h));
    assert!(has_text(&h, "Table 2 · hall-a"), "{:?}", all_text(&h));
    assert!(!has_text(&h, "Table 3"), "{:?}", all_text(&h));
    for label in [
        "New practice table",
        "New physical-board table",
        "Import a game record…",
    ] {
        assert!(h.query_by_label(label).is_none(), "{label}");
    }
    // Rounds: the round's pairings, read-only.
    one_frame(&mut h, vec![key_event(egui::Key::F4)]);
    h.run();
    assert_eq!(h.state().prefs.page, Page::Rounds);
    assert!(has_text(&h, "Player o0"), "{:?}", all_text(&h));
    assert!(has_text(&h, "read-only"), "{:?}", all_text(&h));
    for label in [
        "Re-pair round 1",
        "Start the round now",
        "Set start",
        "Result of table 1",
        "Result of table 3",
        "Complete round",
        "Pair round 2",
        "Print pairings",
    ] {
        let shown = h.query_by_label(label).is_some();
        assert_eq!(
            shown,
            label == "Print pairings",
            "{label}: {:?}",
            all_text(&h)
        );
    }
    // The result keys do nothing at a station.
    one_frame(&mut h, vec![key_event(egui::Key::ArrowDown)]);
    one_frame(&mut h, vec![key_event(egui::Key::W)]);
    h.run();
    let view = ev
        .director
        .round_view(ev.open, RoundNo(1))
        .expect("view")
        .expect("round");
    assert!(
        view.boards
            .iter()
            .all(|b| b.result == ggdesk_core::tournament::GameResult::Pending),
        "no result entered"
    );
    // The draft tournament: its draft is not shown, nor its Publish.
    h.state_mut().prefs.tournament = Some(ev.draft);
    h.run();
    h.run();
    assert!(!has_text(&h, "draft"), "{:?}", all_text(&h));
    assert!(h.query_by_label("Publish round 1").is_none());
    assert!(has_text(&h, "No round of this tournament is published yet"));
    h.state_mut().prefs.tournament = Some(ev.open);
    // Settings: the theme and the audit of its own games; no backups, no public pages.
    go(&mut h, Page::Settings);
    h.run();
    assert!(has_text(&h, "Audit log"), "{:?}", all_text(&h));
    assert!(!has_text(&h, "Public pages"), "{:?}", all_text(&h));
    assert!(!has_text(&h, "Backups"), "{:?}", all_text(&h));
    assert!(has_text(&h, "station hall-a"), "{:?}", all_text(&h));
    assert!(!has_text(&h, "station hall-b"), "{:?}", all_text(&h));
    assert!(!has_text(&h, "director"), "{:?}", all_text(&h));
}

#[test]
fn a_stale_not_connected_under_the_move_box_goes_on_reconnection() {
    let ev = trust::event();
    let role = ev.a.station.role.clone();
    let clock = Rc::new(Cell::new(START_MS + 5_000));
    let mut h = desk(connect(&ev.a.url), Page::Tables, Some(ev.open), &clock);
    h.get_by_label("Open Table 1 · hall-a").click();
    h.run();
    h.run();
    assert!(
        until(&mut h, |_| trust::sessions(&role) == 2),
        "the desk and its listener connected"
    );
    let mv = match games::first_legal(&ev.director, ev.game_a) {
        Event::Move { mv, .. } => mv,
        other => panic!("a move: {other:?}"),
    };
    let label = match games::live(&ev.director, ev.game_a).to_move() {
        Side::White => "White moves:",
        Side::Black => "Black moves:",
    };
    // The server ends the store's connection (not the listener's).
    let ended = pg::cluster().psql(
        "postgres",
        &format!(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE usename = '{role}' AND query NOT LIKE 'LISTEN%' AND query <> '') x"
        ),
    );
    assert_eq!(ended, "1", "the store's connection ended");
    clock.set(START_MS + 5_500);
    type_into(&mut h, label, &mv.to_string());
    click(&mut h, "Play move");
    assert!(
        has_text(&h, "not connected: nothing is being saved"),
        "the move box says the move was not saved: {:?}",
        all_text(&h)
    );
    // Time passes at the desk (its clock is the test's): its next look at the server
    // reconnects, and it restores its table.
    let ticking = clock.clone();
    assert!(
        until(&mut h, |h| {
            ticking.set(ticking.get() + 250);
            has_text(h, "Connected again")
        }),
        "the desk restores: {:?}",
        all_text(&h)
    );
    h.run();
    let said = all_text(&h);
    assert!(
        !said.iter().any(|t| t.contains("not connected")),
        "nothing says \"not connected\" once connected again: {said:?}"
    );
    assert!(has_text(&h, &mv.to_string()), "the move stays in its box");
    click(&mut h, "Play move");
    assert_eq!(
        ev.director
            .load_game(ev.game_a)
            .expect("game")
            .events
            .iter()
            .map(|e| e.kind.code())
            .collect::<Vec<_>>(),
        ["move", "pause", "resume", "move"],
        "{:?}",
        all_text(&h)
    );
}

#[test]
fn a_dead_hosts_line_does_not_say_nothing_is_saved_while_the_desk_saves_on_the_other() {
    let ev = trust::event();
    // A port nobody listens on: the address's first host is dead, its second the server.
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("its address")
        .port();
    let port = pg::cluster().port;
    let url = ev.url.replace(
        &format!("127.0.0.1:{port}"),
        &format!("127.0.0.1:{dead},127.0.0.1:{port}"),
    ) + "?target_session_attrs=read-write";
    let clock = Rc::new(Cell::new(START_MS + 5_000));
    let mut h = desk(connect(&url), Page::Rounds, Some(ev.open), &clock);
    assert!(
        until(&mut h, |h| has_text(
            h,
            &format!("127.0.0.1:{dead}: unreachable")
        )),
        "the dead host's line: {:?}",
        all_text(&h)
    );
    let said = all_text(&h);
    let line = said
        .iter()
        .find(|t| t.contains(&format!("127.0.0.1:{dead}: unreachable")))
        .expect("the line");
    assert!(!line.contains("nothing is being saved"), "{line}");
    assert!(
        said.iter()
            .any(|t| t == "This desk is connected and saving."),
        "{said:?}"
    );
    assert!(
        !said.iter().any(|t| t.contains("NOT CONNECTED")),
        "{said:?}"
    );
    // It does save: a start time set on Rounds is in the database.
    click(&mut h, "Start the round now");
    let view = ev
        .director
        .round_view(ev.open, RoundNo(1))
        .expect("view")
        .expect("round");
    assert!(view.starts_at.is_some(), "{:?}", all_text(&h));
}
