//! A round from the director's desk to the arbiter's table and back: a published round's
//! boards appear on the Tables page, a game arbitrated there ends, and its result reaches the
//! round and the standings in the same transaction.

mod common;

use common::{START_MS, click, desk};
use egui_kittest::kittest::{NodeT, Queryable};
use ggdesk::store::{Actor, PlayerInput, Store, TournamentSetup};
use ggdesk::ui::Page;
use ggdesk_core::tournament::{TableNo, standings};
use std::cell::Cell;
use std::rc::Rc;

#[test]
fn a_game_arbitrated_at_the_desk_sends_its_result_to_the_round_and_the_standings() {
    let mut store = Store::open_in_memory().expect("store");
    let director = Actor::director();
    let setup = TournamentSetup {
        name: "Club night".into(),
        ..TournamentSetup::default()
    };
    let tid = store
        .create_tournament(&setup, &director)
        .expect("tournament");
    let mut ids = Vec::new();
    for (name, rating) in [
        ("Reyes, Ana", 1800),
        ("Cruz, Ben", 1700),
        ("Dizon, Cai", 1600),
        ("Lim, Dan", 1500),
    ] {
        let input = PlayerInput {
            name: name.into(),
            federation_id: String::new(),
            club: String::new(),
            rating,
        };
        ids.push(store.add_player(&input, &director).expect("player"));
    }
    store.register_all(tid, &ids, &director).expect("register");
    let round = store.pair_round(tid, &director).expect("pair").round;
    store.publish_round(tid, round, &director).expect("publish");
    let boards = store.event(tid).expect("event").boards_by_table(round);
    assert_eq!(boards.len(), 2);

    let clock = Rc::new(Cell::new(START_MS));
    let mut h = desk(store, Page::Tables, Some(tid), &clock);
    // Both boards are on the Tables page; arbitrate table 1.
    assert_eq!(h.get_all_by_label("Arbitrate here").count(), 2);
    h.get_all_by_label("Arbitrate here")
        .next()
        .expect("a board")
        .click();
    h.run();
    click(&mut h, "Random setup");
    click(&mut h, "Enter Black's setup");
    click(&mut h, "Random setup");
    click(&mut h, "White moves first");
    click(&mut h, "Start clocks");
    clock.set(START_MS + 30_000);
    h.run();
    // White resigns (confirmed): Black wins table 1.
    h.get_all_by_label("Resigns")
        .next()
        .expect("White's resign")
        .click();
    h.run();
    click(&mut h, "Record resignation");

    let app = h.state();
    let store = app.store().expect("store");
    let after = store.event(tid).expect("event").boards_by_table(round);
    let table1 = after
        .iter()
        .find(|b| b.table == TableNo(1))
        .expect("table 1");
    assert_eq!(
        table1.result,
        ggdesk_core::tournament::GameResult::BlackWins
    );
    let t = store
        .event(tid)
        .expect("event")
        .one_system()
        .cloned()
        .expect("model");
    let s = standings(&t, 1);
    let black_row = s
        .rows
        .iter()
        .find(|r| r.id == table1.black.no)
        .expect("black's row");
    assert_eq!(black_row.score.to_string(), "2");
    let white_row = s
        .rows
        .iter()
        .find(|r| r.id == table1.white.no)
        .expect("white's row");
    assert_eq!(white_row.score.to_string(), "0");
    // The other board is still awaiting its result.
    let table2 = after
        .iter()
        .find(|b| b.table == TableNo(2))
        .expect("table 2");
    assert_eq!(table2.result, ggdesk_core::tournament::GameResult::Pending);
    assert!(
        !h.get_by_label("Confirm result")
            .accesskit_node()
            .is_disabled()
    );
}
