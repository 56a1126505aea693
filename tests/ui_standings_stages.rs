//! The Standings page (F6) of an event in stages through its widgets (egui_kittest): the
//! chooser of the stages and the final placement, a group stage's tables with who goes on
//! marked, the knockout's placement, and Export CSV / Print following the view chosen;
//! names, points and places written by hand from the fixture. A tournament of one system
//! keeps its page.

mod common;

use common::{START_MS, all_text, click, has_text};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use ggdesk::store::{Actor, Store, TournamentId};
use ggdesk::ui::files::Launcher;
use ggdesk::ui::{DeskApp, Page};
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;

const GROUPS_THEN_KNOCKOUT: &str =
    include_str!("fixtures/stages/groups-then-cross-over-final.json");

type Desk = (
    tempfile::TempDir,
    Harness<'static, DeskApp>,
    TournamentId,
    Rc<RefCell<Vec<PathBuf>>>,
);

fn desk(file: &serde_json::Value) -> Desk {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Store::open(&dir.path().join("s.sqlite3")).expect("store");
    let tid = s
        .import_tournament(file, &Actor::director())
        .expect("import");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = common::desk(s, Page::Standings, Some(tid), &clock);
    let opened = Rc::new(RefCell::new(Vec::new()));
    h.state_mut().launcher = Launcher::Record(opened.clone());
    h.run();
    (dir, h, tid, opened)
}

/// The labels on screen, in order, each once (a label's node also carries it as its value).
fn labels(h: &Harness<'_, DeskApp>) -> Vec<String> {
    h.query_all(By::new().predicate(|_| true))
        .filter_map(|n| {
            let node = n.accesskit_node();
            // A label's text is also a text run of its own: each once.
            (node.role() != egui::accesskit::Role::TextRun)
                .then(|| node.label().or(node.value()))
                .flatten()
        })
        .filter(|t| !t.is_empty())
        .collect()
}

/// The labels on screen from the first `from` to the next `to` (or the end).
fn between(h: &Harness<'_, DeskApp>, from: &str, to: Option<&str>) -> Vec<String> {
    let texts = labels(h);
    let start = texts
        .iter()
        .position(|t| t == from)
        .unwrap_or_else(|| panic!("no {from:?} among {texts:?}"));
    let rest = &texts[start + 1..];
    let end = to
        .and_then(|to| rest.iter().position(|t| t == to))
        .unwrap_or(rest.len());
    rest[..end].to_vec()
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The one file in the exports folder whose name ends with `suffix`.
fn export(dir: &tempfile::TempDir, suffix: &str) -> String {
    let exports = dir.path().join("exports");
    let found: Vec<PathBuf> = std::fs::read_dir(&exports)
        .expect("exports")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    assert_eq!(found.len(), 1, "{suffix} in {exports:?}");
    std::fs::read_to_string(&found[0]).expect("the export")
}

#[test]
fn an_event_in_stages_shows_its_group_tables_knockout_and_final_placement() {
    let file: serde_json::Value = serde_json::from_str(GROUPS_THEN_KNOCKOUT).expect("JSON");
    let (dir, mut h, _tid, opened) = desk(&file);
    // Over: the page opens on the final placement.
    assert!(has_text(&h, "Stage 1: Groups") && has_text(&h, "Stage 2: Knockout"));
    let placement = between(&h, "Placed in", None);
    assert_eq!(
        placement[..16],
        strings(&[
            "1",
            "4",
            "Santos, P4",
            "Knockout",
            "2",
            "8",
            "Flores, P8",
            "Knockout",
            "3",
            "6",
            "Santos, P6",
            "Knockout",
            "3",
            "3",
            "Ramos, P3",
            "Knockout",
        ])
    );
    assert_eq!(
        placement[placement.len() - 8..],
        strings(&[
            "13",
            "10",
            "Ñora, P10",
            "Groups",
            "14",
            "7",
            "Lim, P7",
            "Groups",
        ])
    );
    click(&mut h, "Export CSV");
    let csv = export(&dir, "final-placement.csv");
    assert!(
        csv.starts_with("place,id,name,stage\n1,4,\"Santos, P4\",2\n2,8,\"Flores, P8\",2\n"),
        "{csv}"
    );
    assert!(csv.contains("\n5,5,\"Castillo, P5\",1\n"), "{csv}");
    click(&mut h, "Print");
    let printed = opened.borrow().last().cloned().expect("a page opened");
    let html = std::fs::read_to_string(&printed).expect("the printout");
    assert!(
        html.contains("<h2>Final placement</h2>")
            && html.contains("<tr><td class=\"n\">3</td><td class=\"n\">3</td><td>Ramos, P3</td><td>Knockout</td></tr>"),
        "{html}"
    );

    // The groups: one table per group, the top two marked as going on.
    click(&mut h, "Stage 1: Groups");
    let a = between(&h, "Group A", Some("Group B"));
    let cut = a.iter().position(|t| t == "Cut").expect("the headings");
    assert_eq!(
        a[cut + 1..],
        strings(&[
            "1",
            "4",
            "Santos, P4",
            "1520",
            "13",
            "0",
            "0",
            "5",
            "goes on",
            "2",
            "8",
            "Flores, P8",
            "2120",
            "10",
            "0",
            "0",
            "3",
            "goes on",
            "3",
            "5",
            "Castillo, P5",
            "1870",
            "9",
            "0",
            "0",
            "3",
            "4",
            "12",
            "Villanueva, P12",
            "1390",
            "7",
            "2",
            "-1",
            "1",
            "5",
            "11",
            "Castillo, P11",
            "2070",
            "7",
            "0",
            "-1",
            "0",
            "6",
            "14",
            "Bautista, P14",
            "2280",
            "6",
            "0",
            "-1",
            "1",
            "7",
            "7",
            "Lim, P7",
            "1450",
            "4",
            "0",
            "0",
            "0",
        ])
    );
    let b = between(&h, "Group B", None);
    let goes_on: Vec<&String> = b
        .windows(9)
        .filter(|w| w[8] == "goes on")
        .map(|w| &w[2])
        .collect();
    assert_eq!(goes_on, ["Santos, P6", "Ramos, P3"]);
    assert_eq!(
        b.iter().filter(|t| *t == "goes on").count(),
        2,
        "two of group B go on: {b:?}"
    );
    click(&mut h, "Export CSV");
    let csv = export(&dir, "stage-1-standings.csv");
    assert!(csv.starts_with("group,rank,id,name,rating,score,"), "{csv}");
    assert!(
        csv.contains("\nA,1,4,\"Santos, P4\",1520,13,0,0,5\n")
            && csv.contains("\nB,2,3,\"Ramos, P3\",1370,9,2,0,3\n"),
        "{csv}"
    );
    click(&mut h, "Print");
    let printed = opened.borrow().last().cloned().expect("a page opened");
    let html = std::fs::read_to_string(&printed).expect("the printout");
    assert!(html.contains("Groups: group tables"), "{html}");

    // The knockout: its placement.
    click(&mut h, "Stage 2: Knockout");
    assert_eq!(
        between(&h, "The knockout's placement", None)[3..],
        strings(&[
            "1",
            "4",
            "Santos, P4",
            "2",
            "8",
            "Flores, P8",
            "3",
            "6",
            "Santos, P6",
            "3",
            "3",
            "Ramos, P3",
        ])
    );
    click(&mut h, "Print");
    let printed = opened.borrow().last().cloned().expect("a page opened");
    let html = std::fs::read_to_string(&printed).expect("the printout");
    assert!(html.contains("Knockout: the bracket"), "{html}");
}

#[test]
fn a_tournament_of_one_system_keeps_its_standings_page() {
    let file = serde_json::json!({
        "format": "ggdesk-tournament/1", "name": "Club night",
        "settings": {"system": "swiss", "rounds": 1},
        "players": [{"id": 1, "name": "Uno, A", "rating": 1500}, {"id": 2, "name": "Dos, B", "rating": 1400}],
        "rounds": [{"games": [{"table": 1, "white": 1, "black": 2, "result": "white"}]}]
    });
    let (_dir, h, _tid, _opened) = desk(&file);
    assert!(has_text(&h, "After round:") && has_text(&h, "Cross-table"));
    assert!(!has_text(&h, "Final placement"), "{:?}", all_text(&h));
    assert!(h.state().standings.event.is_none());
}

#[test]
fn a_tie_at_the_cut_is_marked_playoff_and_only_the_player_above_it_goes_on() {
    let file: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/stages/playoff-at-the-cut.json"))
            .expect("JSON");
    let (_dir, h, _tid, _opened) = desk(&file);
    // Not over: the page opens on the Swiss stage, whose cut (top 4) falls inside a tie of
    // four players on 4 points behind Lim, P11 on 5.
    let rows = between(&h, "Cut", None);
    assert_eq!(
        rows[..20],
        strings(&[
            "1",
            "11",
            "Lim, P11",
            "1470",
            "5",
            "goes on",
            "2",
            "3",
            "Aquino, P3",
            "1870",
            "4",
            "playoff",
            "2",
            "9",
            "Lim, P9",
            "1700",
            "4",
            "playoff",
            "2",
            "2",
        ])
    );
    assert_eq!(rows.iter().filter(|t| *t == "goes on").count(), 1);
    assert_eq!(rows.iter().filter(|t| *t == "playoff").count(), 4);
    assert!(has_text(&h, "The top 4 go on to Stage 2: Finals"));
}
