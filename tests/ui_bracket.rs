//! The Bracket page (F11) through its widgets (egui_kittest): a finished event's bracket
//! with its matches, series scores, winners and the final placement; the next games of a
//! knockout started in one click (they appear on the Rounds page as a published round);
//! the bracket printed; a tournament of one system told it has no bracket.

mod common;

use common::{START_MS, all_text, click, has_text, store};
use egui_kittest::Harness;
use ggdesk::store::{Actor, RoundState, Store, TournamentId};
use ggdesk::ui::files::Launcher;
use ggdesk::ui::{DeskApp, Page};
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;

fn fixture(name: &str) -> Value {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/stages/{name}"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON")
}

fn desk(
    file: &Value,
) -> (
    tempfile::TempDir,
    Harness<'static, DeskApp>,
    TournamentId,
    Rc<RefCell<Vec<PathBuf>>>,
) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Store::open(&dir.path().join("b.sqlite3")).expect("store");
    let tid = s
        .import_tournament(file, &Actor::director())
        .expect("import");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = common::desk(s, Page::Tournaments, Some(tid), &clock);
    let opened = Rc::new(RefCell::new(Vec::new()));
    h.state_mut().launcher = Launcher::Record(opened.clone());
    h.run();
    (dir, h, tid, opened)
}

#[test]
fn a_finished_event_shows_its_bracket_winners_and_final_placement_and_prints_it() {
    let (_dir, mut h, _tid, opened) = desk(&fixture("groups-then-cross-over-final.json"));
    h.key_press(egui::Key::F11);
    h.run();
    assert_eq!(h.state().prefs.page, Page::Bracket);
    let texts = all_text(&h);
    for m in ["Match 1.1", "Match 1.2", "Match 2.1"] {
        assert!(texts.iter().any(|t| t == m), "{m} in {texts:?}");
    }
    // Semi-final 1.1: seed 1, player 4 (Santos, P4), won 1 to 0 against seed 4 (Ramos, P3)
    // after a draw and a win; the final: 4 beat 8.
    assert!(
        texts.iter().any(|t| t == "(1) Santos, P4  (winner)   1"),
        "{texts:?}"
    );
    assert!(texts.iter().any(|t| t == "(4) Ramos, P3   0"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "Games: ½ 1"), "{texts:?}");
    assert!(has_text(
        &h,
        "Stages: 1 Groups (complete)  >  2 Knockout (complete)"
    ));
    // The event is over: nothing to start, and the final placement from the core.
    assert!(has_text(&h, "Next: the event is over"));
    assert!(has_text(&h, "Final placement"));
    assert!(texts.iter().any(|t| t == "4 Santos, P4"), "{texts:?}");
    // Printed: the landscape bracket page, opened for printing.
    click(&mut h, "Print the bracket");
    let printed = opened.borrow().last().cloned().expect("a page opened");
    let html = std::fs::read_to_string(&printed).expect("the printout");
    assert!(html.contains("Knockout: the bracket (single game)"));
    assert!(html.contains("@page{size:landscape"));
    click(&mut h, "Print stage 1's group tables");
    let printed = opened.borrow().last().cloned().expect("a page opened");
    let html = std::fs::read_to_string(&printed).expect("the printout");
    assert!(html.contains("Groups: group tables"));
}

#[test]
fn the_next_games_of_the_knockout_start_in_one_click() {
    let (_dir, mut h, tid, _opened) = desk(&fixture("knockout-in-progress.json"));
    h.key_press(egui::Key::F11);
    h.run();
    assert!(
        has_text(&h, "Next: a round of stage 2 (start it here)"),
        "{:?}",
        all_text(&h)
    );
    let before = store(&h).event(tid).expect("event").rounds().len();
    click(&mut h, "Start the next games of the knockout");
    let event = store(&h).event(tid).expect("event");
    let rounds = event.rounds();
    assert_eq!(rounds.len(), before + 1);
    let last = rounds.last().expect("the new round");
    assert_eq!(last.state, RoundState::Published);
    let view = store(&h)
        .round_view(tid, last.number)
        .expect("view")
        .expect("round");
    assert!(!view.boards.is_empty());
    assert!(view.boards.iter().all(|b| b.series.is_some()));
    // While its games are played, nothing more starts: the button is off and says why.
    assert!(
        has_text(&h, "Next: stage 2, round 1 is not complete"),
        "{:?}",
        all_text(&h)
    );
}

#[test]
fn a_tournament_of_one_system_has_no_bracket() {
    let file = serde_json::json!({
        "format": "ggdesk-tournament/1", "name": "Club night",
        "settings": {"system": "swiss", "rounds": 3},
        "players": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}],
        "rounds": []
    });
    let (_dir, mut h, _tid, _opened) = desk(&file);
    h.key_press(egui::Key::F11);
    h.run();
    assert!(has_text(
        &h,
        "played in one system: it has no stages and no bracket"
    ));
}
