//! Issue 31, section 3: the desk's words on a staged event, through its widgets
//! (egui_kittest). The knockout of an event of stages is started at the desk (round 8 of the
//! event is stage 2, round 1), and a result is entered by hand on one of its boards.
//!
//! - The audit log page: a result's change in words the desk's font can show (it had an
//!   arrow that showed as a box); the director's desk under one name (some lines said
//!   "director"); the round filter matches a line's own round (round 1 matched "round 8
//!   (stage 2 (Knockout), round 1)").
//! - The Tables page: a board whose result was entered by hand says so, not "NO GAME YET".

mod common;

use common::{START_MS, all_text, click, go, has_text, store, type_into};
use egui_kittest::Harness;
use ggdesk::store::{Actor, Store, TournamentId};
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::tournament::{GameResult, RoundNo};
use std::cell::Cell;
use std::path::PathBuf;
use std::rc::Rc;

/// The knockout's first round, as the event numbers its rounds.
const KNOCKOUT_ROUND: u32 = 8;

/// A desk on the event of `knockout-in-progress.json` (7 group rounds played, the knockout
/// not started), its knockout started on the Bracket page and board 1 of the knockout's
/// first round given to Black by hand. The result is entered under the name lines had before
/// the desk had one name ("director").
fn staged_desk() -> (tempfile::TempDir, Harness<'static, DeskApp>, TournamentId) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/stages/knockout-in-progress.json");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Store::open(&dir.path().join("staged.sqlite3")).expect("store");
    let tid = s
        .import_tournament(&file, &Actor::director())
        .expect("import");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = common::desk(s, Page::Bracket, Some(tid), &clock);
    click(&mut h, "Start the next games of the knockout");
    let round = RoundNo(KNOCKOUT_ROUND);
    let view = store(&h)
        .round_view(tid, round)
        .expect("view")
        .expect("the knockout's first round");
    assert!(view.boards.len() >= 2, "{} boards", view.boards.len());
    let board = view.boards[0].board;
    h.state_mut()
        .store_mut()
        .expect("store")
        .set_result(
            tid,
            round,
            board,
            GameResult::BlackWins,
            "",
            &Actor("director".into()),
        )
        .expect("a result by hand");
    h.run();
    (dir, h, tid)
}

#[test]
fn the_audit_log_names_one_desk_shows_no_arrow_and_finds_a_round_by_its_number() {
    let (_dir, mut h, _tid) = staged_desk();
    go(&mut h, Page::Settings);
    let texts = all_text(&h);
    // The result's change in words, without a glyph the font lacks.
    assert!(
        texts.iter().any(
            |t| t.starts_with("round 8, table ") && t.contains("): from pending to Black wins")
        ),
        "{texts:?}"
    );
    assert!(!texts.iter().any(|t| t.contains('→')), "{texts:?}");
    // One name for the director's desk: the import, the knockout started on the Bracket
    // page and the older line written as "director".
    assert!(texts.iter().any(|t| t == "director's desk"), "{texts:?}");
    assert!(!texts.iter().any(|t| t == "director"), "{texts:?}");

    // The knockout's lines are round 8's, though they mention its round 1.
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("round 8 (stage 2 (Knockout), round 1)")),
        "{texts:?}"
    );
    type_into(&mut h, "Round:", "1");
    let texts = all_text(&h);
    assert!(
        !texts.iter().any(|t| t.starts_with("round 8")),
        "round 1 shows no line of round 8: {texts:?}"
    );
    click(&mut h, "Clear");
    type_into(&mut h, "Round:", "8");
    let texts = all_text(&h);
    for line in ["round 8 (stage 2 (Knockout), round 1)", "round 8, table "] {
        assert!(
            texts.iter().any(|t| t.starts_with(line)),
            "{line:?} in {texts:?}"
        );
    }
    assert!(
        !texts.iter().any(|t| t == "round 1"),
        "round 8 shows no line of round 1: {texts:?}"
    );
}

/// The texts of each table's card on the Tables page, by its title ("Table 1").
fn cards(texts: &[String]) -> Vec<(String, Vec<String>)> {
    let mut cards: Vec<(String, Vec<String>)> = Vec::new();
    for t in texts {
        if t.starts_with("Table ") && t[6..].chars().all(|c| c.is_ascii_digit()) {
            if cards.last().is_none_or(|(title, _)| title != t) {
                cards.push((t.clone(), Vec::new()));
            }
        } else if let Some((_, lines)) = cards.last_mut() {
            lines.push(t.clone());
        }
    }
    cards
}

#[test]
fn a_board_with_a_result_entered_by_hand_says_so_on_the_tables_page() {
    let (_dir, mut h, tid) = staged_desk();
    go(&mut h, Page::Tables);
    let boards = store(&h)
        .round_view(tid, RoundNo(KNOCKOUT_ROUND))
        .expect("view")
        .expect("round")
        .boards;
    let texts = all_text(&h);
    let cards = cards(&texts);
    assert_eq!(cards.len(), boards.len(), "{texts:?}");
    for b in &boards {
        let title = format!("Table {}", b.table);
        let (_, lines) = cards
            .iter()
            .find(|(t, _)| *t == title)
            .unwrap_or_else(|| panic!("no card {title:?} in {texts:?}"));
        let has = |text: &str| lines.iter().any(|l| l == text);
        if b.result == GameResult::Pending {
            assert!(has("NO GAME YET"), "{title}: {lines:?}");
            assert!(!has("BY HAND"), "{title}: {lines:?}");
        } else {
            assert_eq!(b.result, GameResult::BlackWins);
            assert!(has("BY HAND"), "{title}: {lines:?}");
            assert!(
                has("Result entered by hand: Black wins"),
                "{title}: {lines:?}"
            );
            assert!(!has("NO GAME YET"), "{title}: {lines:?}");
        }
    }
    assert!(
        boards.iter().any(|b| b.result != GameResult::Pending),
        "a board has its result"
    );
    assert!(!has_text(&h, "(by hand)"), "{texts:?}");
}
