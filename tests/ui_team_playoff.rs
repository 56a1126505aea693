//! A team event's playoff on the Rounds page (F4): when teams tie across a stage's cut the
//! page shows the playoff's card, the director names each captain's nominee from the
//! team's roster and pairs the game, enters its result, and the next game keeps the
//! nominees; once the playoff is decided the next stage's round is paired. The status line
//! says what to do at each step.

mod common;
#[path = "support/team_files.rs"]
mod team_files;

use common::{START_MS, all_text, click, desk, has_text, store, until};
use egui_kittest::kittest::{NodeT, Queryable};
use ggdesk::store::{Actor, Store};
use ggdesk::ui::Page;
use ggdesk_core::tournament::{GameResult, PlayerId};
use serde_json::{Value, json};
use std::cell::Cell;
use std::rc::Rc;
use team_files::swiss_then_final;

#[test]
fn a_tie_at_the_cut_is_played_off_from_the_rounds_page() {
    let mut s = Store::open_in_memory().expect("store");
    let tid = s
        .import_tournament(&swiss_then_final(), &Actor::director())
        .expect("imported");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = desk(s, Page::Rounds, Some(tid), &clock);
    assert!(
        has_text(
            &h,
            "Next: Playoff at the cut of stage 1: name each captain's nominee and pair the game \
             on the card below"
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "Playoff at the cut of stage 1"));
    assert!(has_text(&h, "Next game: C (white) – D (black)"));
    assert!(
        has_text(
            &h,
            "all results in; teams tie at the cut of stage 1: name the captains' nominees and \
             pair the playoff on the Rounds page (F4)"
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(
        h.get_by_label("Pair the playoff game")
            .accesskit_node()
            .is_disabled(),
        "every team's nominee first"
    );
    click(&mut h, "Nominee of C:");
    click(&mut h, "P8 (Board 2)");
    click(&mut h, "Nominee of D:");
    click(&mut h, "P12 (Reserve 1)");
    click(&mut h, "Pair the playoff game");
    assert!(
        until(&mut h, |h| has_text(h, "Playoff paired: enter its result")),
        "{:?}",
        all_text(&h)
    );
    let e = store(&h).team_event(tid).expect("read").expect("team");
    let games: Vec<(u32, u32)> = e.stages[0]
        .playoffs
        .iter()
        .map(|g| (g.white.0, g.black.0))
        .collect();
    assert_eq!(games, [(8, 12)]);
    assert!(has_text(&h, "White: P8 (C)"), "{:?}", all_text(&h));
    assert!(has_text(&h, "Black: P12 (D)"));
    assert!(
        has_text(
            &h,
            "all results in; a playoff game awaits its result on the Rounds page (F4)"
        ),
        "{:?}",
        all_text(&h)
    );
    // Drawn: the next game swaps colours, the nominees kept.
    click(&mut h, "Result of playoff game 1 of stage 1");
    click(&mut h, "Draw");
    assert!(
        has_text(&h, "Next game: D (white) – C (black)"),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "P12 (named in an earlier playoff game)"));
    click(&mut h, "Pair the playoff game");
    click(&mut h, "Result of playoff game 2 of stage 1");
    click(&mut h, "White wins");
    let e = store(&h).team_event(tid).expect("read").expect("team");
    assert_eq!(
        e.stages[0]
            .playoffs
            .iter()
            .map(|g| (g.white, g.result))
            .collect::<Vec<_>>(),
        [
            (PlayerId(8), GameResult::Draw),
            (PlayerId(12), GameResult::WhiteWins)
        ]
    );
    // D goes on: the final is paired as the next round (after the playoff's round 2).
    assert!(!has_text(&h, "Next game:"), "{:?}", all_text(&h));
    assert!(
        has_text(&h, "Final: 2 games of the final"),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Pair round 3");
    assert!(
        has_text(&h, "Round 3 paired as a draft: check it and publish it"),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "White: P1 (A)"), "{:?}", all_text(&h));
    assert!(has_text(&h, "Black: P10 (D)"));
}

/// A final of A (1–3) and B (4–6) on two boards, both rounds played and every game drawn:
/// level on game points.
fn level_final() -> Value {
    let players: Vec<Value> = (1..=6)
        .map(|i| json!({"id": i, "name": format!("P{i}"), "rating": 2000 - 10 * i}))
        .collect();
    let game =
        |t: u32, w: u32, b: u32| json!({"table": t, "white": w, "black": b, "result": "draw"});
    json!({
        "format": "ggdesk-tournament/2",
        "name": "League final",
        "settings": {"points": {"win": 2, "draw": 1, "loss": 0, "bye": 2, "forfeit_win": 2,
                                "forfeit_loss": 0, "absent": 0}},
        "team": {"boards": 2},
        "players": players,
        "teams": [
            {"id": 1, "name": "A", "players": [1, 2, 3]},
            {"id": 2, "name": "B", "players": [4, 5, 6]}
        ],
        "penalties": [],
        "stages": [{"name": "Final", "system": "scheveningen", "rounds": [
            {"games": [game(1, 1, 4), game(2, 5, 2)]},
            {"games": [game(1, 5, 1), game(2, 2, 4)]}
        ]}]
    })
}

#[test]
fn a_level_final_shows_its_playoff_card_and_pairs_the_nominees() {
    let mut s = Store::open_in_memory().expect("store");
    let tid = s
        .import_tournament(&level_final(), &Actor::director())
        .expect("imported");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = desk(s, Page::Rounds, Some(tid), &clock);
    assert!(has_text(&h, "Final tie: playoff"), "{:?}", all_text(&h));
    assert!(
        has_text(
            &h,
            "all results in; the final ended level: name the captains' nominees and pair the \
             playoff on the Rounds page (F4)"
        ),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Nominee of A:");
    click(&mut h, "P3 (Reserve 1)");
    click(&mut h, "Nominee of B:");
    click(&mut h, "P4 (Board 1)");
    click(&mut h, "Pair the playoff game");
    click(&mut h, "Result of playoff game 1 of stage 1");
    click(&mut h, "Black wins");
    let e = store(&h).team_event(tid).expect("read").expect("team");
    let places: Vec<(u32, u32)> = e
        .final_placement()
        .expect("over")
        .iter()
        .map(|p| (p.place, p.team.0))
        .collect();
    assert_eq!(places, [(1, 2), (2, 1)]);
    assert!(
        has_text(
            &h,
            "No round to pair: the event is over: every stage has been played"
        ),
        "{:?}",
        all_text(&h)
    );
}
