//! Issue 19 at the desk: after its connection was lost without its noticing (a failover),
//! a move entered at a station's desk is refused and stays in the box until the desk has
//! restored its table (the outage a pause, charged to nobody), then goes in after it; and
//! the director's desk writes nothing by itself into a station's tables, whose clocks the
//! station's desk keeps.

mod common;
#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use common::{START_MS, all_text, click, desk, has_text, type_into, until};
use egui_kittest::kittest::Queryable;
use event::{connect, games};
use ggdesk::store::{AuditFilter, GameId, Store};
use ggdesk::ui::Page;
use ggdesk_core::rules::{Event, Side};
use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

fn kinds(store: &Store, id: GameId) -> Vec<String> {
    store
        .load_game(id)
        .expect("game")
        .events
        .iter()
        .map(|e| e.kind.code().to_string())
        .collect()
}

#[test]
fn a_move_entered_after_a_silent_reconnection_waits_for_the_restore() {
    assert_eq!(
        trust::START,
        START_MS,
        "the fixture's games start at the desk's time"
    );
    let ev = trust::event();
    let role = ev.a.station.role.clone();
    let clock = Rc::new(Cell::new(START_MS + 5_000));
    let mut h = desk(connect(&ev.a.url), Page::Tables, Some(ev.open), &clock);
    h.get_by_label("Open Table 1 · hall-a").click();
    h.run();
    h.run();
    // The desk's two connections: its store's and its listener's.
    let both = (0..1500).any(|_| {
        if trust::sessions(&role) == 2 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
        false
    });
    assert!(both, "the desk and its listener connected");
    let mv = match games::first_legal(&ev.director, ev.game_a) {
        Event::Move { mv, .. } => mv,
        other => panic!("a move: {other:?}"),
    };
    let to_move = games::live(&ev.director, ev.game_a).to_move();
    let label = match to_move {
        Side::White => "White moves:",
        Side::Black => "Black moves:",
    };
    // The server drops the store's connection (not the listener's: the desk notices
    // nothing until it writes).
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
    // The first write finds the connection gone, or made again: either way it is refused,
    // and once made again it is refused for that reason until the desk has restored.
    // (The desk may restore within the frames after the refusal: never the move first;
    // once it has restored, the refusal's words are gone with the connection's trouble.)
    let mut said = String::new();
    for _ in 0..2 {
        click(&mut h, "Play move");
        let stored = kinds(&ev.director, ev.game_a);
        assert!(
            stored == ["move"] || stored == ["move", "pause", "resume"],
            "the move was not written: {stored:?}"
        );
        said = all_text(&h).join(" | ");
        if said.contains("the connection to the server was made again")
            || said.contains("Connected again")
        {
            break;
        }
    }
    assert!(
        said.contains("the connection to the server was made again")
            || said.contains("Connected again"),
        "the move was refused until the desk restored: {said}"
    );
    assert!(
        has_text(&h, &mv.to_string()),
        "the move stays in its box: {said}"
    );
    assert!(
        until(&mut h, |h| has_text(h, "Connected again")),
        "the desk restores: {:?}",
        all_text(&h)
    );
    assert_eq!(
        kinds(&ev.director, ev.game_a),
        ["move", "pause", "resume"],
        "the outage is a pause"
    );
    click(&mut h, "Play move");
    assert_eq!(
        kinds(&ev.director, ev.game_a),
        ["move", "pause", "resume", "move"],
        "the move goes in after the restore: {:?}",
        all_text(&h)
    );
}

#[test]
fn the_directors_desk_writes_nothing_by_itself_into_a_stations_tables() {
    let ev = trust::event();
    // hall-a's desk runs its table: it stores its clocks (t = 5 s).
    let at_a = Rc::new(Cell::new(START_MS + 5_000));
    let mut a = desk(connect(&ev.a.url), Page::Tables, Some(ev.open), &at_a);
    a.run();
    let seen = |g: GameId| ev.director.load_game(g).expect("game").meta.clock_seen_t;
    assert_eq!(seen(ev.game_a), Some(5.0), "hall-a's heartbeat");
    // The director's desk, past the two hours of game time of both station games: it shows
    // them, and writes nothing into them (no end, no pause, no heartbeat).
    let at_d = Rc::new(Cell::new(START_MS + 7_300_000));
    let mut d = desk(connect(&ev.url), Page::Tables, Some(ev.open), &at_d);
    for _ in 0..5 {
        at_d.set(at_d.get() + 1_000);
        d.run();
    }
    assert!(has_text(&d, "Table 1 · hall-a"), "{:?}", all_text(&d));
    for g in [ev.game_a, ev.game_b] {
        assert_eq!(
            kinds(&ev.director, g),
            ["move"],
            "game {g}: nothing written"
        );
    }
    assert_eq!(
        seen(ev.game_a),
        Some(5.0),
        "no heartbeat from the director's desk"
    );
    assert_eq!(seen(ev.game_b), None);
    // hall-a's desk, at the same moment, ends its game where game time ran out.
    at_a.set(START_MS + 7_300_000);
    a.run();
    assert_eq!(
        kinds(&ev.director, ev.game_a),
        ["move", "end"],
        "{:?}",
        all_text(&a)
    );
    assert_eq!(
        kinds(&ev.director, ev.game_b),
        ["move"],
        "hall-b's is hall-b's"
    );
    let log = ev
        .director
        .audit_log(AuditFilter::Game(ev.game_a.0))
        .expect("log");
    let end = log
        .iter()
        .find(|e| e.action == "end")
        .expect("the end's row");
    assert_eq!(end.actor, "station hall-a");
}

#[test]
fn the_stations_page_gives_a_new_password_and_removes_a_station() {
    let ev = trust::event();
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = desk(connect(&ev.url), Page::Stations, Some(ev.open), &clock);
    let role = ev.a.station.role.clone();
    let _held = connect(&ev.a.url);
    assert!(trust::sessions(&role) >= 1, "hall-a's desk is connected");
    // The first row is hall-a's.
    h.get_all_by_label("New password")
        .next()
        .expect("a New password button")
        .click();
    h.run();
    click(
        &mut h,
        "New password: its desk stops until it uses the new card",
    );
    assert!(
        has_text(&h, "Station hall-a has a new password"),
        "{:?}",
        all_text(&h)
    );
    let url = all_text(&h)
        .into_iter()
        .find(|t| t.starts_with("postgres://") && t.contains("hall-a"))
        .expect("the new address, shown once");
    assert_ne!(url, ev.a.url);
    assert_eq!(trust::sessions(&role), 0, "its sessions were ended");
    trust::assert_login_refused(&ev.a.url);
    assert!(Store::connect(&ggdesk::store::Address::Server(url.clone())).is_ok());
    click(&mut h, "Done: hide it");
    h.get_all_by_label("Remove")
        .next()
        .expect("a Remove button")
        .click();
    h.run();
    click(&mut h, "Remove: its desk stops");
    assert!(has_text(&h, "Station hall-a removed"), "{:?}", all_text(&h));
    trust::assert_login_refused(&url);
    assert_eq!(
        ev.director
            .stations()
            .expect("stations")
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>(),
        ["hall-b"]
    );
}
