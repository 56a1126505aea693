//! Issue 19 at the desk: the director's desk writes nothing by itself into a station's
//! tables (no end, no pause, no heartbeat), whose clocks the station's desk keeps.

mod common;
#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use common::{START_MS, all_text, desk, has_text};
use event::connect;
use ggdesk::store::{GameId, Store};
use ggdesk::ui::Page;
use std::cell::Cell;
use std::rc::Rc;

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
fn the_directors_desk_writes_nothing_by_itself_into_a_stations_tables() {
    let ev = trust::event();
    let seen = |g: GameId| ev.director.load_game(g).expect("game").meta.clock_seen_t;
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
    for g in [ev.game_a, ev.game_b] {
        assert_eq!(
            seen(g),
            None,
            "game {g}: no heartbeat from the director's desk"
        );
    }
}
