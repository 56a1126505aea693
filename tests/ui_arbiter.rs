//! The arbiter desk through its widgets (egui_kittest): setups entered from the palette,
//! moves typed to a challenge, the player view without a rank, three oversteps on an
//! injected clock ending the game, and a game restored from the database mid-move.

mod common;

use common::{
    START_MS, all_text, assert_shows, click, desk, phase, started_practice_table, tables_desk,
    type_move,
};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ggdesk::desk::Phase;
use ggdesk::store::Store;
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::rules::{Rank, Side};
use std::cell::Cell;
use std::rc::Rc;

#[test]
fn setups_entered_from_the_palette_a_challenge_and_a_player_view_without_ranks() {
    let (mut h, clock) = tables_desk();
    h.run();
    started_practice_table(&mut h);
    assert_eq!(phase(&h, clock.get()), Phase::Playing);

    // The setups are as entered: the palette placed the ranks in the rulebook's order.
    {
        let app = h.state();
        let id = app.tables.selected.expect("open");
        let game = app.tables.tables.tables[&id].game().expect("started");
        let at = |s: &str| {
            game.position()
                .get(s.parse().expect("square"))
                .map(|p| p.rank)
        };
        assert_eq!(at("a1"), Some(Rank::G5));
        assert_eq!(at("c3"), Some(Rank::Flag));
        assert_eq!(at("a6"), Some(Rank::Spy));
        assert_eq!(at("c6"), Some(Rank::Flag));
    }

    // Spy against Spy on a5: both leave the board.
    clock.set(START_MS + 5_000);
    type_move(&mut h, "a3-a4");
    clock.set(START_MS + 9_000);
    type_move(&mut h, "a6-a5");
    clock.set(START_MS + 14_000);
    type_move(&mut h, "a4-a5");
    let texts = all_text(&h);
    assert!(
        texts
            .iter()
            .any(|t| t.contains("Challenge on a5: both pieces left the board")),
        "{texts:?}"
    );

    // The player view shows a5 empty and no rank anywhere.
    click(&mut h, "Player view full screen");
    let texts = all_text(&h);
    assert_shows(&texts, "player view a5: empty");
    assert_shows(&texts, "player view b3: white piece");
    let rank_words: Vec<String> = Rank::ALL
        .iter()
        .flat_map(|r| [r.code().to_string(), r.name().to_string()])
        .collect();
    for t in &texts {
        for word in t.split(|c: char| !c.is_alphanumeric()) {
            assert!(
                !rank_words.iter().any(|r| r == word),
                "the player view shows {word:?} in {t:?}"
            );
        }
        for name in Rank::ALL.iter().map(|r| r.name()) {
            assert!(!t.contains(name), "the player view shows {name:?} in {t:?}");
        }
    }
}

#[test]
fn three_oversteps_on_the_injected_clock_end_the_game() {
    let (mut h, clock) = tables_desk();
    h.run();
    started_practice_table(&mut h);
    // White overthinks three times; Black answers at once.
    let mut t = START_MS;
    for (white, black) in [("a3-a4", "a6-a5"), ("a4-a3", "a5-a6")] {
        t += 125_000;
        clock.set(t);
        h.run();
        type_move(&mut h, white);
        t += 2_000;
        clock.set(t);
        type_move(&mut h, black);
    }
    assert_eq!(phase(&h, t), Phase::Playing);
    assert!(
        all_text(&h)
            .iter()
            .any(|s| s.contains("Oversteps  White 2/3"))
    );
    // The third overstep ends the game by itself, at 2:00 of thinking, even while the desk
    // shows another page.
    click(&mut h, "Players  F1");
    clock.set(t + 121_000);
    h.run();
    h.run();
    {
        let app = h.state();
        let id = app.tables.selected.expect("open");
        let stored = app.store().expect("store").load_game(id).expect("game");
        assert_eq!(
            stored.meta.result.code().as_deref(),
            Some("black move_time")
        );
    }
    click(&mut h, "Tables  F5");
    match phase(&h, t + 121_000) {
        Phase::Finished(o) => {
            assert_eq!(o.winner(), Some(Side::Black));
            assert_eq!(o.reason().code(), "move_time");
        }
        other => panic!("expected the game to end on move time, got {other:?}"),
    }
    // The end is in the database, not only on screen.
    let app = h.state();
    let id = app.tables.selected.expect("open");
    let verdict = app
        .store()
        .expect("store")
        .load_game(id)
        .expect("game")
        .verdict()
        .expect("setups")
        .expect("verdict");
    assert_eq!(
        verdict.outcome.map(|o| o.reason().code()),
        Some("move_time")
    );
    assert_eq!(verdict.oversteps.white, 3);
    // The arbiter confirms the result the rules reached.
    assert!(
        !app.store()
            .expect("store")
            .result_confirmed(id)
            .expect("query")
    );
    click(&mut h, "Confirm result");
    let app = h.state();
    assert!(
        app.store()
            .expect("store")
            .result_confirmed(id)
            .expect("query")
    );
    assert!(
        all_text(&h)
            .iter()
            .any(|t| t == "Confirmed by the arbiter.")
    );
}

#[test]
fn a_game_is_restored_from_the_database_mid_move() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("desk.sqlite3");
    let clock = Rc::new(Cell::new(START_MS));
    let id = {
        let mut h = desk(
            Store::open(&path).expect("store"),
            Page::Tables,
            None,
            &clock,
        );
        h.run();
        started_practice_table(&mut h);
        clock.set(START_MS + 10_000);
        type_move(&mut h, "b3-b4");
        // Black thinks for 40 s; the desk keeps seeing the clocks, then dies.
        for s in 1..=40 {
            clock.set(START_MS + 10_000 + s * 1000);
            h.run();
        }
        h.state().tables.selected.expect("open")
    };
    // Five minutes later the desk starts again on the same database.
    clock.set(START_MS + 350_000);
    let mut h = desk(
        Store::open(&path).expect("reopen"),
        Page::Tables,
        None,
        &clock,
    );
    h.run();
    h.get_by_label_contains("Open Practice").click();
    h.run();
    let app = h.state();
    assert_eq!(app.tables.selected, Some(id));
    let table = &app.tables.tables.tables[&id];
    let game = table.game_at(clock.get()).expect("restored");
    assert_eq!(game.to_move(), Side::Black);
    assert_eq!(game.plies(), 1);
    assert!(!game.clock().is_paused(), "a running game keeps running");
    // Black's thinking time continues from 40 s (the heartbeat is written once a second).
    let thinking_s = game.clock().thinking_ns() / 1_000_000_000;
    assert!((39..=40).contains(&thinking_s), "thinking {thinking_s} s");
    assert!(all_text(&h).iter().any(|s| s.contains("restored")));
}

/// The clock runs past the two hours of game time: the table turns to adjudication.
fn to_adjudication(h: &mut Harness<'_, DeskApp>, clock: &Rc<Cell<i64>>) {
    clock.set(START_MS + 7_200_500);
    h.run();
    h.run();
    assert_eq!(phase(h, clock.get()), Phase::AdjudicationPending);
}

fn is_enabled(h: &Harness<'_, DeskApp>, label: &str) -> bool {
    !h.get_by_label(label).accesskit_node().is_disabled()
}

#[test]
fn readings_are_entered_piece_by_piece_and_scored_when_both_sheets_are_in() {
    let (mut h, clock) = tables_desk();
    h.run();
    started_practice_table(&mut h);
    to_adjudication(&mut h, &clock);

    // White reads Black's Five-Star General on a8 and Flag on c6 correctly, and the Major
    // on h8 wrongly (as a Private).
    for (square, rank) in [
        ("a8", "G5 Five-Star General"),
        ("c6", "FLG Flag"),
        ("h8", "PVT Private"),
    ] {
        click(&mut h, &format!("read {square}"));
        click(&mut h, rank);
    }
    // A second Five-Star General or a second Flag cannot be named.
    click(&mut h, "read b8");
    assert!(!is_enabled(&h, "G5 Five-Star General"));
    assert!(!is_enabled(&h, "FLG Flag"));
    assert!(is_enabled(&h, "G4 Four-Star General"));
    click(&mut h, "Hand in White's sheet");
    // Black abstains on everything (an empty sheet is handed in after a confirmation).
    click(&mut h, "Hand in Black's sheet");
    click(&mut h, "Hand in the empty sheet");
    let texts = all_text(&h);
    assert_shows(&texts, "White wins by adjudication");
    // White: 2 + 2 - 1 = 3; all 21 of each side remain (71.72).
    assert_shows(&texts, "NRS 3");
    assert_shows(&texts, "AVP 71.72   TAS 74.72");
    assert_shows(&texts, "AVP 71.72   TAS 71.72");
    let app = h.state();
    let id = app.tables.selected.expect("open");
    let game = app.store().expect("store").load_game(id).expect("game");
    assert_eq!(game.meta.result.code().as_deref(), Some("white game_time"));
}

#[test]
fn equal_total_adjudication_scores_draw() {
    let (mut h, clock) = tables_desk();
    h.run();
    started_practice_table(&mut h);
    to_adjudication(&mut h, &clock);
    // Each reads the other's Flag right and nothing else: NRS 2 each, equal AVP.
    click(&mut h, "read c6");
    click(&mut h, "FLG Flag");
    click(&mut h, "Hand in White's sheet");
    click(&mut h, "read c3");
    click(&mut h, "FLG Flag");
    click(&mut h, "Hand in Black's sheet");
    let texts = all_text(&h);
    assert!(
        texts
            .iter()
            .any(|t| t == "Draw: equal Total Adjudication Scores"),
        "{texts:?}"
    );
    let app = h.state();
    let id = app.tables.selected.expect("open");
    let game = app.store().expect("store").load_game(id).expect("game");
    assert_eq!(game.meta.result.code().as_deref(), Some("draw game_time"));
}

#[test]
fn an_imported_record_is_adjudicated_at_the_desk_as_the_replay_scores_it() {
    // The shared example whose game time ran out without readings.
    let text = include_str!("fixtures/examples/game_time_pending.json");
    let record = ggdesk_core::record::Record::from_json_str(text).expect("record");
    let mut store = Store::open_in_memory().expect("store");
    let id = store
        .import_record(&record, &ggdesk::store::Actor::director())
        .expect("import");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = desk(store, Page::Tables, None, &clock);
    h.run();
    h.get_by_label_contains("Open Imported game").click();
    h.run();
    assert_eq!(phase(&h, clock.get()), Phase::AdjudicationPending);
    // White reads three of Black's pieces, one of them wrongly; Black reads two.
    let black = |sq: &str| {
        record
            .setup
            .black
            .rank_at(sq.parse().expect("square"))
            .expect("piece")
    };
    let white = |sq: &str| {
        record
            .setup
            .white
            .rank_at(sq.parse().expect("square"))
            .expect("piece")
    };
    let palette = |r: Rank| format!("{} {}", r.code(), r.name());
    for (sq, rank) in [
        ("d7", black("d7")),
        ("a8", black("a8")),
        ("b8", Rank::Private),
    ] {
        click(&mut h, &format!("read {sq}"));
        click(&mut h, &palette(rank));
    }
    click(&mut h, "Hand in White's sheet");
    for (sq, rank) in [("c1", white("c1")), ("i1", white("i1"))] {
        click(&mut h, &format!("read {sq}"));
        click(&mut h, &palette(rank));
    }
    click(&mut h, "Hand in Black's sheet");
    // What the desk shows is what the replay of the exported record says.
    let exported = h
        .state()
        .store()
        .expect("store")
        .export_record(id)
        .expect("export");
    let verdict = ggdesk_core::record::replay(&exported).expect("replays");
    let adj = verdict.adjudication.expect("adjudicated");
    let texts = all_text(&h);
    for side in Side::BOTH {
        let s = &adj.scores[side];
        let line = format!("AVP {}   TAS {}", s.aliwalas_value, s.total);
        assert!(texts.contains(&line), "{line} not in {texts:?}");
        assert!(
            texts
                .iter()
                .any(|t| *t == format!("NRS {}", s.net_reading_score))
        );
    }
    assert_eq!(adj.scores.white.net_reading_score, 3);
    assert_eq!(adj.scores.black.net_reading_score, 4);
}
