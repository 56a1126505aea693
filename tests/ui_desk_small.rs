//! The smaller things the trials of issue 23 saw (item 6), through the desk's widgets
//! (egui_kittest): the list of keys, the tournament form's counts and tie-breaks, the
//! players CSV preview with the club, the bye and the withdrawn apart, a paused game on
//! Rounds, a table waiting for thirty-move counts with its clocks stopped.

mod common;

use common::{START_MS, all_text, click, desk, go, has_text, store, type_into};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ggdesk::store::{Actor, PlayerInput, Store, TournamentSetup, Withdrawal};
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::tournament::{System, TieBreak};
use std::cell::Cell;
use std::rc::Rc;

fn clock() -> Rc<Cell<i64>> {
    Rc::new(Cell::new(START_MS))
}

#[test]
fn the_keys_list_every_shortcut_and_f1_still_opens_players() {
    let clock = clock();
    let mut h = desk(
        Store::open_in_memory().expect("store"),
        Page::Tables,
        None,
        &clock,
    );
    click(&mut h, "Keys");
    let texts = all_text(&h);
    for (_, key, what) in ggdesk::ui::help::SHORTCUTS {
        assert!(texts.iter().any(|t| t == key), "{key:?} is not listed");
        assert!(texts.iter().any(|t| t == what), "{what:?} is not listed");
    }
    for key in [
        "Ctrl+Shift+P",
        "PageUp / PageDown",
        "W / B / D",
        "Ctrl+E",
        "F8",
    ] {
        assert!(has_text(&h, key), "{key:?}");
    }
    click(&mut h, "Keys");
    assert!(!has_text(&h, "Ctrl+Shift+P"), "closed again");
    // Shift+F1 opens it without leaving the page; F1 alone opens Players.
    common::one_frame(
        &mut h,
        vec![egui::Event::Key {
            key: egui::Key::F1,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: egui::Modifiers::SHIFT,
        }],
    );
    assert!(has_text(&h, "Ctrl+Shift+P"));
    assert_eq!(h.state().prefs.page, Page::Tables);
    common::one_frame(&mut h, vec![common::key_event(egui::Key::F1)]);
    assert_eq!(h.state().prefs.page, Page::Players);
}

fn tournaments_page() -> Harness<'static, DeskApp> {
    let clock = clock();
    desk(
        Store::open_in_memory().expect("store"),
        Page::Tournaments,
        None,
        &clock,
    )
}

#[test]
fn a_typed_count_says_what_is_wrong_beside_its_field() {
    let mut h = tournaments_page();
    assert!(!has_text(&h, "Not a whole number"));
    let field = h.get_by_label("Move time (seconds):");
    field.focus();
    field.type_text("2m");
    h.run();
    let texts = all_text(&h);
    assert!(
        texts.iter().any(|t| t == "Not a whole number (\"1202m\")"),
        "{texts:?}"
    );
    type_into(&mut h, "Grace period (minutes):", "x");
    assert!(
        has_text(&h, "Not a number of minutes (\"30x\")"),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Create tournament");
    let errors: Vec<String> = h
        .state()
        .notices
        .items
        .iter()
        .filter(|n| n.error)
        .map(|n| n.text.clone())
        .collect();
    assert_eq!(
        errors,
        vec!["Move time: not a whole number (\"1202m\")".to_string()]
    );
    assert!(store(&h).tournaments().expect("list").is_empty());
}

#[test]
fn round_robin_plays_one_full_cycle_unless_told_otherwise() {
    let mut h = tournaments_page();
    type_into(&mut h, "Rounds:", "7");
    assert_eq!(
        h.state().tournaments.form.rounds,
        "57",
        "typed after the default 5"
    );
    click(&mut h, "Round robin");
    assert_eq!(h.state().tournaments.form.system, System::RoundRobin);
    assert_eq!(h.state().tournaments.form.rounds, "", "one full cycle");
    assert!(has_text(&h, "Rounds (empty: one full cycle):"));
    // Back to a Swiss: it needs a number, and says so beside the field.
    click(&mut h, "Swiss");
    assert!(has_text(&h, "A Swiss needs a number of rounds"));
}

#[test]
fn back_to_the_default_tie_break_order_asks_first() {
    let mut h = tournaments_page();
    let default = TieBreak::default_order();
    assert!(
        h.query_by_label("Back to the default order…").is_none(),
        "nothing to go back to"
    );
    click(&mut h, &format!("Move {} down", default[0].name()));
    let moved = h.state().tournaments.form.tiebreaks.clone();
    assert_ne!(moved, default);
    click(&mut h, "Back to the default order…");
    click(&mut h, "Cancel");
    assert_eq!(h.state().tournaments.form.tiebreaks, moved, "cancelled");
    click(&mut h, "Back to the default order…");
    click(&mut h, "Use the default order");
    assert_eq!(h.state().tournaments.form.tiebreaks, default);
}

#[test]
fn the_players_csv_preview_shows_the_club() {
    let dir = tempfile::tempdir().expect("dir");
    let csv = dir.path().join("players.csv");
    std::fs::write(
        &csv,
        "name,federation_id,club,rating\nAna Reyes,G1,Quezon City GG Club,1700\n",
    )
    .expect("write");
    let clock = clock();
    let mut h = desk(
        Store::open(&dir.path().join("event.sqlite3")).expect("store"),
        Page::Players,
        None,
        &clock,
    );
    click(&mut h, "Choose a CSV file…");
    type_into(
        &mut h,
        "File (a name here, or a whole path):",
        csv.to_str().expect("path"),
    );
    click(&mut h, "Open");
    assert!(
        has_text(&h, "1 player ready to import"),
        "{:?}",
        all_text(&h)
    );
    assert!(
        has_text(
            &h,
            "line 2: Ana Reyes · club Quezon City GG Club · id G1 · rating 1700"
        ),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Import 1 player");
    assert_eq!(store(&h).players().expect("players").len(), 1);
}

/// Three players: one bye; a fourth withdrawn before round 1.
fn event_with_bye_and_withdrawn(s: &mut Store) -> ggdesk::store::TournamentId {
    let d = Actor::director();
    let tid = s
        .create_tournament(
            &TournamentSetup {
                name: "Open".into(),
                ..TournamentSetup::default()
            },
            &d,
        )
        .expect("tournament");
    let mut ids = Vec::new();
    for (i, name) in ["Ana Reyes", "Ben Cruz", "Ñora Villareal", "Dan Lim"]
        .into_iter()
        .enumerate()
    {
        let p = s
            .add_player(
                &PlayerInput {
                    name: name.into(),
                    federation_id: format!("F{i}"),
                    club: String::new(),
                    rating: 2000 - 10 * i as i64,
                },
                &d,
            )
            .expect("player");
        let no = s.register(tid, p, &d).expect("register");
        ids.push(no);
    }
    s.set_withdrawn(tid, ids[3], Withdrawal::Withdraw, "left the venue", &d)
        .expect("withdrawn");
    let round = s.pair_round(tid, &d).expect("pair").round;
    s.publish_round(tid, round, &d).expect("publish");
    tid
}

#[test]
fn the_bye_and_the_withdrawn_are_said_apart() {
    let mut s = Store::open_in_memory().expect("store");
    let tid = event_with_bye_and_withdrawn(&mut s);
    let clock = clock();
    let h = desk(s, Page::Rounds, Some(tid), &clock);
    let texts = all_text(&h);
    assert!(texts.iter().any(|t| t == "Bye:"), "{texts:?}");
    assert!(
        texts
            .iter()
            .any(|t| t == "Withdrawn from the tournament (not paired): 4 Dan Lim"),
        "{texts:?}"
    );
    assert!(
        !texts.iter().any(|t| t.ends_with(" withdrawn")),
        "{texts:?}"
    );
}

#[test]
fn a_paused_game_shows_paused_on_rounds() {
    let mut s = Store::open_in_memory().expect("store");
    let tid = event_with_bye_and_withdrawn(&mut s);
    let clock = clock();
    let mut h = desk(s, Page::Tables, Some(tid), &clock);
    click(&mut h, "Arbitrate here");
    click(&mut h, "Random setup");
    click(&mut h, "Enter Black's setup");
    click(&mut h, "Random setup");
    click(&mut h, "White moves first");
    click(&mut h, "Start clocks");
    go(&mut h, Page::Rounds);
    assert!(has_text(&h, "PLAYING"));
    assert!(!has_text(&h, "PAUSED"));
    go(&mut h, Page::Tables);
    clock.set(START_MS + 10_000);
    click(&mut h, "Pause (F8)");
    go(&mut h, Page::Rounds);
    let texts = all_text(&h);
    assert!(texts.iter().any(|t| t == "PAUSED"), "{texts:?}");
    assert!(!texts.iter().any(|t| t == "PLAYING"), "{texts:?}");
}

#[test]
fn a_table_waiting_for_thirty_move_counts_shows_its_clocks_stopped() {
    let clock = clock();
    let mut h = desk(
        Store::open_in_memory().expect("store"),
        Page::Tables,
        None,
        &clock,
    );
    click(&mut h, "New physical-board table");
    click(&mut h, "White moves first");
    click(&mut h, "Start clocks");
    for i in 0..30 {
        clock.set(START_MS + 1_000 * (i + 1));
        click(&mut h, "Move made (Enter)");
    }
    assert_eq!(
        common::phase(&h, clock.get()),
        ggdesk::desk::Phase::ThirtyCountPending
    );
    // Much later, the card still shows no clock running.
    clock.set(START_MS + 600_000);
    click(&mut h, "Back to tables");
    let texts = all_text(&h);
    assert!(
        texts
            .iter()
            .any(|t| t == "clocks stopped: thirty-move counts awaited"),
        "{texts:?}"
    );
    assert!(!texts.iter().any(|t| t.starts_with("-")), "{texts:?}");
}
