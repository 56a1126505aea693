//! Tables played on a physical board, through the desk's widgets: moves tapped, challenges
//! entered as two ranks and resolved by the rules, the tally, the thirty-move prompt, and an
//! adjudication read piece by piece from the tally, and Enter confirming a dialog without
//! also making a move.

mod common;

use common::{
    START_MS, all_text, assert_shows, click, click_containing, key_event, one_frame, phase,
    tables_desk,
};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ggdesk::desk::Phase;
use ggdesk::ui::DeskApp;
use ggdesk_core::rules::Side;

fn started_physical_table(h: &mut Harness<'_, DeskApp>) {
    h.run();
    click(h, "New physical-board table");
    click(h, "White moves first");
    click(h, "Start clocks");
}

#[test]
fn a_challenge_entered_as_two_ranks_is_resolved_and_the_tally_follows() {
    let (mut h, clock) = tables_desk();
    started_physical_table(&mut h);
    clock.set(START_MS + 4_000);
    click(&mut h, "Move made (Enter)");
    clock.set(START_MS + 8_000);
    click(&mut h, "Move made (Enter)");
    // White's Spy attacks Black's Five-Star General: the General leaves.
    clock.set(START_MS + 12_000);
    click(&mut h, "W SPY x2");
    click(&mut h, "B G5 x1");
    click_containing(&mut h, "Record challenge: White's SPY attacks Black's G5");
    let texts = all_text(&h);
    assert_shows(&texts, "B G5 x0");
    assert_shows(&texts, "Pieces left: White 21, Black 20");
    assert!(h.get_by_label("B G5 x0").accesskit_node().is_disabled());
    // Black's Private takes a Spy; then Black's Flag attacks and is lost: White wins.
    click(&mut h, "B PVT x6");
    click(&mut h, "W SPY x2");
    click_containing(&mut h, "Record challenge");
    assert!(all_text(&h).iter().any(|t| t == "W SPY x1"));
    click(&mut h, "Move made (Enter)");
    click(&mut h, "B FLG x1");
    click(&mut h, "W PVT x6");
    click_containing(&mut h, "Record challenge");
    match phase(&h, clock.get()) {
        Phase::Finished(o) => {
            assert_eq!(o.winner(), Some(Side::White));
            assert_eq!(o.reason().code(), "flag_captured");
        }
        other => panic!("expected the game over, got {other:?}"),
    }
    // The physical record is exported with what was known.
    let app = h.state();
    let id = app.tables.selected.expect("open");
    let value = app.store().expect("store").export_game(id).expect("export");
    assert_eq!(value["format"], "ggdesk-physical/1");
    assert_eq!(
        value["events"][2]["challenge"],
        serde_json::json!(["SPY", "G5"])
    );
}

#[test]
fn the_thirty_move_rule_asks_for_the_pieces_across_the_midpoint() {
    let (mut h, clock) = tables_desk();
    started_physical_table(&mut h);
    for i in 0..30 {
        clock.set(START_MS + 1_000 * (i + 1));
        click(&mut h, "Move made (Enter)");
    }
    let field = h.get_by_label("White pieces on ranks 5-8:");
    field.focus();
    field.type_text("4");
    h.run();
    let field = h.get_by_label("Black pieces on ranks 1-4:");
    field.focus();
    field.type_text("2");
    h.run();
    click(&mut h, "Record counts");
    match phase(&h, clock.get()) {
        Phase::Finished(o) => {
            assert_eq!(o.winner(), Some(Side::White));
            assert_eq!(o.reason().code(), "thirty_moves");
        }
        other => panic!("expected the thirty-move rule, got {other:?}"),
    }
}

#[test]
fn an_adjudication_reads_the_remaining_pieces_of_the_tally() {
    let (mut h, clock) = tables_desk();
    started_physical_table(&mut h);
    clock.set(START_MS + 7_200_500);
    h.run();
    h.run();
    assert_eq!(phase(&h, clock.get()), Phase::AdjudicationPending);
    // White reads Black's first piece (the Five-Star General) right, the second (the Four-Star
    // General) wrongly; a second Five-Star General cannot be named.
    click(&mut h, "piece 1: G5 read as -");
    click(&mut h, "G5 Five-Star General");
    click(&mut h, "piece 2: G4 read as -");
    assert!(
        h.get_by_label("G5 Five-Star General")
            .accesskit_node()
            .is_disabled()
    );
    click(&mut h, "G3 Three-Star General");
    click(&mut h, "Hand in White's sheet");
    click(&mut h, "Hand in Black's sheet");
    click(&mut h, "Hand in the empty sheet");
    let texts = all_text(&h);
    assert_shows(&texts, "White wins by adjudication");
    assert_shows(&texts, "NRS 1");
    assert_shows(&texts, "AVP 71.72   TAS 72.72");
}

/// Enter confirms a dialog and does nothing else: the "Move made (Enter)" key of the page
/// under it does not also record a move (which the resigned game refused with an error).
#[test]
fn enter_that_confirms_a_resignation_makes_no_move() {
    let (mut h, clock) = tables_desk();
    started_physical_table(&mut h);
    clock.set(START_MS + 4_000);
    click(&mut h, "Move made (Enter)");
    let id = h.state().tables.selected.expect("open");
    let logged = |h: &Harness<'_, DeskApp>| {
        h.state()
            .store()
            .expect("store")
            .load_game(id)
            .expect("game")
            .events
            .len()
    };
    let before = logged(&h);
    h.get_all_by_label("Resigns")
        .next()
        .expect("White's")
        .click();
    h.run();
    assert!(
        all_text(&h).iter().any(|t| t == "White resigns"),
        "{:?}",
        all_text(&h)
    );
    clock.set(START_MS + 6_000);
    one_frame(&mut h, vec![key_event(egui::Key::Enter)]);
    h.run();
    match phase(&h, clock.get()) {
        Phase::Finished(o) => assert_eq!(o.winner(), Some(Side::Black)),
        other => panic!("expected the resignation, got {other:?}"),
    }
    assert_eq!(logged(&h), before + 1, "the resignation and nothing else");
    let errors: Vec<_> = h
        .state()
        .notices
        .items
        .iter()
        .filter(|n| n.error)
        .map(|n| n.text.clone())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}
