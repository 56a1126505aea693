//! What a page keeps when the director switches tournaments: nothing that belongs to the
//! tournament left. Player numbers start at 1 in every tournament, so a player picked in
//! one would otherwise be whoever has the same number in the next.

mod common;

use common::{START_MS, all_text, click, click_containing, desk, go, has_text, type_into};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ggdesk::store::{Actor, PlayerInput, Store, TournamentId, TournamentSetup};
use ggdesk::ui::{DeskApp, Page};
use std::cell::Cell;
use std::rc::Rc;

/// A tournament named `name` with four players of its own registered (numbers 1 to 4).
fn tournament(store: &mut Store, name: &str) -> TournamentId {
    let d = Actor::director();
    let setup = TournamentSetup {
        name: name.into(),
        ..TournamentSetup::default()
    };
    let tid = store.create_tournament(&setup, &d).expect("tournament");
    let ids: Vec<_> = (0..4)
        .map(|i| {
            let p = PlayerInput {
                name: format!("{name} player {i}"),
                federation_id: String::new(),
                club: String::new(),
                rating: 2000 - i * 10,
            };
            store.add_player(&p, &d).expect("player")
        })
        .collect();
    store.register_all(tid, &ids, &d).expect("register");
    tid
}

/// A desk on a store with the tournaments Alpha and Beta, showing `page` on Alpha.
fn two_tournaments(page: Page) -> (Harness<'static, DeskApp>, TournamentId, Rc<Cell<i64>>) {
    let mut store = Store::open_in_memory().expect("store");
    let alpha = tournament(&mut store, "Alpha");
    let beta = tournament(&mut store, "Beta");
    let clock = Rc::new(Cell::new(START_MS));
    let h = desk(store, page, Some(alpha), &clock);
    (h, beta, clock)
}

/// Chooses the tournament on the Tournaments page, as the director does.
fn choose(h: &mut Harness<'_, DeskApp>, name: &str) {
    go(h, Page::Tournaments);
    click_containing(h, &format!("{name}\n"));
}

#[test]
fn a_player_picked_in_one_tournament_is_not_picked_in_the_next() {
    let (mut h, beta, _clock) = two_tournaments(Page::Registration);
    click(&mut h, "Alpha player 0");
    assert!(h.state().registration.selected.is_some());
    assert!(has_text(&h, "Mark absent"), "{:?}", all_text(&h));
    type_into(&mut h, "Absent in round:", "5");
    choose(&mut h, "Beta");
    assert_eq!(h.state().prefs.tournament, Some(beta));
    go(&mut h, Page::Registration);
    assert_eq!(h.state().registration.selected, None);
    assert!(
        !has_text(&h, "Mark absent"),
        "nobody of Beta is picked: {:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "Click a registered player"));
    // The round offered is Beta's next one, not what was typed for Alpha's player.
    assert_eq!(h.state().registration.absence_round, "1");
}

#[test]
fn the_players_picked_for_a_forbidden_pair_are_not_kept_for_the_next_tournament() {
    let (mut h, beta, _clock) = two_tournaments(Page::Tournaments);
    // Every menu with nothing chosen yet says so (the tie-break menu among them).
    let choices = |h: &Harness<'_, DeskApp>| {
        all_text(h)
            .iter()
            .filter(|t| t.as_str() == "choose...")
            .count()
    };
    let none_picked = choices(&h);
    // The menu is below the fold: scrolled to first, as a person would.
    h.get_by_label("Player:").scroll_to_me();
    h.run();
    h.get_by_label("Player:").click();
    h.run();
    click(&mut h, "1 Alpha player 0");
    assert_eq!(choices(&h), none_picked - 1, "{:?}", all_text(&h));
    choose(&mut h, "Beta");
    assert_eq!(h.state().prefs.tournament, Some(beta));
    assert!(has_text(&h, "Settings of Beta"), "{:?}", all_text(&h));
    assert!(
        !has_text(&h, "1 Beta player 0"),
        "Beta's player 1 is not picked in Alpha's place: {:?}",
        all_text(&h)
    );
    assert_eq!(choices(&h), none_picked, "{:?}", all_text(&h));
}

#[test]
fn a_tournament_whose_settings_cannot_be_read_never_shows_the_last_ones() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("switch.sqlite3");
    let beta = {
        let mut store = Store::open(&path).expect("store");
        tournament(&mut store, "Alpha");
        tournament(&mut store, "Beta")
    };
    {
        // Beta's rules are damaged: its name is listed, its settings cannot be read.
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.execute(
            "UPDATE tournaments SET rules = 'not json' WHERE id = ?1",
            [beta.0],
        )
        .expect("damage");
    }
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = desk(
        Store::open(&path).expect("store"),
        Page::Tournaments,
        Some(TournamentId(1)),
        &clock,
    );
    assert!(has_text(&h, "Settings of Alpha"), "{:?}", all_text(&h));
    choose(&mut h, "Beta");
    assert_eq!(h.state().prefs.tournament, Some(beta));
    assert!(
        has_text(&h, "Could not read the settings"),
        "{:?}",
        all_text(&h)
    );
    // The page reads again (every two seconds on a file): still nothing to show, and never
    // Alpha's settings under Beta.
    for _ in 0..3 {
        clock.set(clock.get() + 2_500);
        h.run();
    }
    assert_eq!(h.state().prefs.tournament, Some(beta));
    assert!(!has_text(&h, "Settings of Alpha"), "{:?}", all_text(&h));
    assert!(
        has_text(&h, "Could not read the settings"),
        "{:?}",
        all_text(&h)
    );
}
