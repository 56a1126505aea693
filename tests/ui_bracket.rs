//! The Bracket page (F11) through its widgets (egui_kittest): a finished event's bracket
//! with its matches, series scores, winners and the final placement; the next games of a
//! knockout started in one click (they appear on the Rounds page as a published round);
//! the bracket printed; a tournament of one system told it has no bracket.

mod common;

use common::{START_MS, all_text, click, go, has_text, store, until};
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

#[test]
fn ctrl_p_starts_the_next_games_on_the_bracket_page_too() {
    let (_dir, mut h, tid, _opened) = desk(&fixture("knockout-in-progress.json"));
    h.key_press(egui::Key::F11);
    h.run();
    let before = store(&h).event(tid).expect("event").rounds().len();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::P);
    h.run();
    let event = store(&h).event(tid).expect("event");
    assert_eq!(event.rounds().len(), before + 1, "Ctrl+P started a round");
    let last = event.rounds().last().expect("the new round");
    assert_eq!(last.state, RoundState::Published);
    // The status line names the round as the Rounds page and the bracket do.
    let status = format!("Round {} ({})", last.number, event.place_words(last.number));
    assert!(status.contains("Stage 2 · Knockout · "), "{status}");
    assert!(has_text(&h, &status), "{status} in {:?}", all_text(&h));
}

#[test]
fn a_knockout_round_shows_matches_seeds_and_series_and_offers_no_re_pair() {
    let (_dir, mut h, tid, _opened) = desk(&fixture("knockout-in-progress.json"));
    h.key_press(egui::Key::F11);
    h.run();
    click(&mut h, "Start the next games of the knockout");
    go(&mut h, Page::Rounds);
    let event = store(&h).event(tid).expect("event");
    let last = event.rounds().last().expect("the new round").number;
    let view = store(&h)
        .round_view(tid, last)
        .expect("view")
        .expect("round");
    let texts = all_text(&h);
    assert!(texts.iter().any(|t| t == "Table · match"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "Series"), "{texts:?}");
    // Each board: its match id beside the table, each player by seed.
    for b in &view.boards {
        let series = event.board_series(last, b).expect("a knockout board");
        assert!(
            texts.iter().any(|t| *t == series.id.to_string()),
            "match {} in {texts:?}",
            series.id
        );
        let seed = series.seeds[0].expect("seeded");
        let white = format!("({seed}) {}", b.white.name);
        assert!(texts.contains(&white), "{white} in {texts:?}");
    }
    // A knockout round's boards follow from the bracket: no re-pair offered, and the
    // store refuses one saying why.
    assert!(
        !texts.iter().any(|t| t.starts_with("Re-pair round")),
        "{texts:?}"
    );
    let refused = store(&h)
        .event(tid)
        .expect("event")
        .can_repair(last)
        .map_err(|e| e.to_string());
    assert_eq!(
        refused,
        Err(format!(
            "round {last}'s boards follow from the rules of stage 2 (Knockout) (a group's \
             table, a knockout's bracket or a playoff): re-pairing would give the same boards; \
             correct a result instead"
        ))
    );
}

#[test]
fn after_the_final_the_status_line_says_the_event_is_over() {
    let (_dir, mut h, _tid, _opened) = desk(&fixture("groups-then-cross-over-final.json"));
    go(&mut h, Page::Rounds);
    assert!(
        has_text(
            &h,
            "the event is over: the final placement is on the Bracket page (F11)"
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(!has_text(&h, "the next step is on the Rounds page"));
}

#[test]
fn an_empty_event_in_stages_says_to_register_players_not_that_it_is_over() {
    let file = serde_json::json!({
        "format": "ggdesk-tournament/2", "name": "New cup",
        "players": [],
        "stages": [
            {"name": "Groups", "system": "round_robin", "groups": 2, "advance": 2,
             "rounds": [], "playoffs": []},
            {"name": "Knockout", "system": "knockout", "match": {"best_of": 1}, "rounds": []}
        ]
    });
    let (_dir, mut h, _tid, _opened) = desk(&file);
    h.key_press(egui::Key::F11);
    h.run();
    let needs = "no player is registered yet: register players; the first stage needs at \
                 least 4 players (2 in each of its 2 groups)";
    assert!(has_text(&h, needs), "{:?}", all_text(&h));
    assert!(has_text(
        &h,
        "Stages: 1 Groups (not started)  >  2 Knockout (to come)"
    ));
    assert!(!has_text(&h, "the event is over"));
    go(&mut h, Page::Rounds);
    assert!(has_text(&h, needs), "{:?}", all_text(&h));
    assert!(!has_text(&h, "the event is over"));
}

#[test]
fn a_browser_that_fails_to_open_the_print_is_reported_with_the_files_path() {
    let (_dir, mut h, _tid, _opened) = desk(&fixture("groups-then-cross-over-final.json"));
    // `false` in place of xdg-open: it starts, then ends with status 1.
    h.state_mut().launcher = Launcher::Program("false".into());
    h.key_press(egui::Key::F11);
    h.run();
    click(&mut h, "Print the bracket");
    assert!(
        has_text(&h, "; opening it in the browser to print"),
        "{:?}",
        all_text(&h)
    );
    // The opener ends on its own thread: waited for (a generous bound), then said.
    let said = until(&mut h, |h| {
        has_text(
            h,
            "Bracket could not be opened in the browser (false exited with status 1): it is at",
        )
    });
    assert!(said, "{:?}", all_text(&h));
    assert!(has_text(&h, "-bracket.html; open it in a browser to print"));
}

/// At the desk, a group result changed once the knockout has started: each kind the
/// fixture's first round holds (harmless, seed-changing, cut-changing), entered as a
/// director does (the board chosen, W/B/D, a reason) shows the core's words, never the
/// file's (`stages[0]…`), and a refused one changes nothing.
#[test]
fn a_group_result_changed_after_the_cut_is_refused_in_the_directors_words() {
    use ggdesk_core::event::{Command, Refusal as EventRefusal};
    use ggdesk_core::tournament::{GameResult, RoundNo};
    let (_dir, mut h, tid, _opened) = desk(&fixture("groups-then-cross-over-final.json"));
    go(&mut h, Page::Rounds);
    // The group rounds (stage 1).
    let event = store(&h).event(tid).expect("event");
    let groups: Vec<RoundNo> = event
        .rounds()
        .iter()
        .filter(|r| r.stage == ggdesk_core::tournament::StageNo(1))
        .map(|r| r.number)
        .collect();
    // What the core says of every other result of every board of the group rounds.
    let mut kinds: Vec<(RoundNo, usize, GameResult, Option<String>)> = Vec::new();
    for (round, i, b) in groups.iter().flat_map(|&n| {
        let v = store(&h).round_view(tid, n).expect("view").expect("round");
        v.boards
            .into_iter()
            .enumerate()
            .map(move |(i, b)| (n, i, b))
    }) {
        for r in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ] {
            if r == b.result {
                continue;
            }
            let command = Command::SetResult {
                round,
                board: b.board,
                result: r,
                reason: "misread".into(),
            };
            let said = match store(&h)
                .event(tid)
                .expect("event")
                .decide(&command, START_MS)
            {
                Ok(_) => None,
                Err(e @ EventRefusal::Reseeds(_)) => Some(e.to_string()),
                Err(other) => panic!("only re-seeding is refused here, not {other}"),
            };
            let kind = |s: &Option<String>| match s {
                None => "harmless",
                Some(m) if m.contains("would go from seed") => "seed",
                Some(m) if m.contains("would no longer go on") => "out",
                Some(_) => "tie",
            };
            if !kinds.iter().any(|k| kind(&k.3) == kind(&said)) {
                kinds.push((round, i, r, said));
            }
        }
    }
    assert!(
        kinds.iter().filter(|k| k.3.is_some()).count() >= 2,
        "the fixture holds refused corrections of two kinds at least: {kinds:?}"
    );
    // Refused ones first (a harmless one changes the event).
    kinds.sort_by_key(|k| k.3.is_none());
    for (round, i, result, said) in kinds {
        let before = store(&h).export_tournament(tid).expect("export");
        // Choose the round and the board with the keys, enter the result, confirm with a
        // reason.
        click(&mut h, &format!("Round {round}"));
        for _ in 0..=i {
            h.key_press(egui::Key::ArrowDown);
            h.run();
        }
        h.key_press(match result {
            GameResult::WhiteWins => egui::Key::W,
            GameResult::BlackWins => egui::Key::B,
            _ => egui::Key::D,
        });
        h.run();
        common::type_into(
            &mut h,
            "Reason (kept in the audit log):",
            "scoresheet misread",
        );
        click(&mut h, "Change the result");
        let texts = all_text(&h);
        assert!(
            !texts.iter().any(|t| t.contains("stages[")),
            "no words of the file format: {texts:?}"
        );
        let now = store(&h)
            .round_view(tid, round)
            .expect("view")
            .expect("round");
        let entered = &now.boards[i];
        match said {
            Some(words) => {
                assert!(
                    texts.iter().any(|t| t.contains(&words)),
                    "{words} in {texts:?}"
                );
                assert_eq!(store(&h).export_tournament(tid).expect("export"), before);
            }
            None => assert_eq!(entered.result, result, "a harmless change is simply made"),
        }
    }
}

/// The cut box names every group: with a tie at group B's cut and none at A's, it says
/// "Group A: through: …" and "Group B: tie at the cut: …".
#[test]
fn the_cut_box_names_every_group() {
    use ggdesk_core::stages::Event;
    // The groups of the finished fixture without its knockout and without tie-breaks:
    // Torres and Ramos share group B's second place; group A's cut is clear.
    let mut file = fixture("groups-then-cross-over-final.json");
    file["stages"][1]["rounds"] = serde_json::json!([]);
    file["stages"][0]["tiebreaks"] = serde_json::json!([]);
    let event = Event::from_value(&file).expect("a valid event");
    let cut = &event.reached()[0].cut;
    assert!(
        cut[0].playoff.is_none() && cut[1].playoff.is_some(),
        "a tie at B's cut only"
    );
    let (_dir, mut h, _tid, _opened) = desk(&file);
    go(&mut h, Page::Rounds);
    assert!(
        has_text(&h, "Group A: through: 4 Santos, P4, 8 Flores, P8"),
        "{:?}",
        all_text(&h)
    );
    assert!(
        has_text(&h, "Group B: tie at the cut: "),
        "{:?}",
        all_text(&h)
    );
    assert!(!all_text(&h).iter().any(|t| t.starts_with("Through: ")));
}
