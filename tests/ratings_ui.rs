//! The Ratings page (F10) through its widgets (egui_kittest): a completed tournament rated
//! from the Rated events tab, the list searched and a player's history opened, an event's
//! report printed and exported, and an event taken off the list with a reason.

mod common;

use common::{START_MS, all_text, click};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ggdesk::store::{Actor, AuditFilter, Store, TournamentId};
use ggdesk::ui::files::Launcher;
use ggdesk::ui::ratings::Tab;
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::rating::Date;
use serde_json::json;
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;

/// A complete tournament file: players 1-6 (federation ids GGF-1..6), three rounds.
fn event(name: &str, date: &str) -> serde_json::Value {
    let players: Vec<_> = (1..=6)
        .map(|i| json!({"id": i, "name": format!("Player {i}"), "federation_id": format!("GGF-{i}")}))
        .collect();
    json!({
        "format": "ggdesk-tournament/1", "name": name, "date": date,
        "settings": {"system": "swiss", "rounds": 3},
        "players": players,
        "rounds": [
            {"games": [{"white": 1, "black": 2, "result": "white"}, {"white": 3, "black": 4, "result": "draw"},
                       {"white": 5, "black": 6, "result": "black"}]},
            {"games": [{"white": 1, "black": 3, "result": "white"}, {"white": 6, "black": 2, "result": "white"},
                       {"white": 4, "black": 5, "result": "white_forfeit"}]},
            {"games": [{"white": 6, "black": 1, "result": "black"}, {"white": 2, "black": 3, "result": "black"},
                       {"white": 5, "black": 4, "result": "draw"}]}
        ]
    })
}

fn type_into(h: &mut Harness<'_, DeskApp>, label: &str, text: &str) {
    let field = h.get_by_label(label);
    field.focus();
    field.type_text(text);
    h.run();
}

fn has_text(h: &Harness<'_, DeskApp>, needle: &str) -> bool {
    all_text(h).iter().any(|t| t.contains(needle))
}

fn store<'a>(h: &'a Harness<'_, DeskApp>) -> &'a Store {
    h.state().store().expect("store")
}

fn desk() -> (
    tempfile::TempDir,
    Harness<'static, DeskApp>,
    TournamentId,
    Rc<RefCell<Vec<PathBuf>>>,
) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Store::open(&dir.path().join("r.sqlite3")).expect("store");
    let tid = s
        .import_tournament(&event("Club Open", "2026-04-12"), &Actor::director())
        .expect("import");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = common::desk(s, Page::Tournaments, Some(tid), &clock);
    let opened = Rc::new(RefCell::new(Vec::new()));
    h.state_mut().launcher = Launcher::Record(opened.clone());
    h.run();
    (dir, h, tid, opened)
}

#[test]
fn a_tournament_is_rated_from_the_page_and_the_list_shows_it() {
    let (_dir, mut h, tid, opened) = desk();
    // F10 opens the page; the list is empty and says what to do.
    h.key_press(egui::Key::F10);
    h.run();
    assert_eq!(h.state().prefs.page, Page::Ratings);
    assert!(has_text(&h, "No player is rated yet"));

    click(&mut h, "Rated events");
    assert_eq!(h.state().ratings.tab, Tab::Events);
    // The file's date is offered; rating it writes it and recomputes the list.
    let field = h.get_by_label("Last day of play of Club Open:");
    assert_eq!(field.value().as_deref(), Some("2026-04-12"));
    click(&mut h, "Rate Club Open");
    let list = store(&h).rating_list().expect("list");
    assert_eq!(list.len(), 6);
    let events = store(&h).rating_events().expect("events");
    assert_eq!(events[0].rated, Date::parse("2026-04-12").ok());
    assert!(has_text(&h, "Rating report: Club Open, 2026-04-12"));

    // The report printed (opened in the browser) and exported.
    click(&mut h, "Print report");
    let printed = opened.borrow().last().cloned().expect("a page opened");
    let html = std::fs::read_to_string(&printed).expect("the page");
    assert!(
        html.contains("Rating report") && html.contains("Player 1"),
        "{html}"
    );
    click(&mut h, "Export report (CSV)");
    let csv_file = std::fs::read_dir(printed.parent().expect("exports"))
        .expect("exports")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "csv"))
        .expect("a CSV written");
    let csv = std::fs::read_to_string(csv_file).expect("csv");
    assert!(
        csv.starts_with("federation_id,name,before,after,change,deviation,games,score,expected\n")
    );
    assert_eq!(csv.lines().count(), 7);

    // The list: every player, provisional ratings marked; searching narrows it.
    click(&mut h, "Rating list");
    for i in 1..=6 {
        assert!(has_text(&h, &format!("Player {i}")), "Player {i}");
    }
    assert!(
        h.query_all_by_label("P").count() >= 6,
        "new players are provisional"
    );
    type_into(&mut h, "Search:", "ggf-3");
    assert_eq!(h.state().ratings.shown().len(), 1);
    assert!(!has_text(&h, "Player 5"));
    // A click on the name opens the history.
    click(&mut h, "Player 3");
    assert!(has_text(&h, "History of Player 3"));
    assert_eq!(h.state().ratings.history.len(), 1);
    assert!(has_text(&h, "Club Open"));

    // Taken off the list, with a reason.
    click(&mut h, "Rated events");
    click(&mut h, "Report of Club Open");
    type_into(&mut h, "Reason to take it off the list:", "friendly match");
    click(&mut h, "Take Club Open off the list");
    assert!(store(&h).rating_list().expect("list").is_empty());
    let audit = store(&h)
        .audit_log(AuditFilter::Tournament(tid))
        .expect("audit");
    assert!(
        audit
            .iter()
            .any(|a| a.action == "event unrated" && a.reason == "friendly match")
    );
}

#[test]
fn an_incomplete_tournament_says_why_and_offers_no_rating() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Store::open(&dir.path().join("r.sqlite3")).expect("store");
    let mut file = event("Unfinished", "2026-04-12");
    file["rounds"][2]["games"][0]["result"] = json!("pending");
    s.import_tournament(&file, &Actor::director())
        .expect("import");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = common::desk(s, Page::Ratings, None, &clock);
    click(&mut h, "Rated events");
    assert!(has_text(&h, "not complete: 1 round is not complete"));
    assert!(h.query_by_label("Rate Unfinished").is_none());
}

#[test]
fn a_team_event_is_rated_from_the_page() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Store::open(&dir.path().join("r.sqlite3")).expect("store");
    let path = format!(
        "{}/tests/fixtures/teams/team-round-robin.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the team example");
    let mut file: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    file["date"] = json!("2026-11-01");
    // Players 1-18, federation ids GGT-1..18.
    for p in file["players"].as_array_mut().expect("players") {
        let id = p["id"].as_u64().expect("an id");
        p["federation_id"] = json!(format!("GGT-{id}"));
    }
    let tid = s
        .import_tournament(&file, &Actor::director())
        .expect("import");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = common::desk(s, Page::Ratings, None, &clock);
    click(&mut h, "Rated events");
    let field = h.get_by_label("Last day of play of Team event 1:");
    assert_eq!(field.value().as_deref(), Some("2026-11-01"));
    click(&mut h, "Rate Team event 1");
    let events = store(&h).rating_events().expect("events");
    let rated = events.iter().find(|e| e.id == tid).expect("listed");
    assert_eq!(rated.rated, Date::parse("2026-11-01").ok());
    assert!(has_text(&h, "Rating report: Team event 1, 2026-11-01"));
    // Everyone who played a board over the board is on the list (all 18); player 1 played
    // three boards, player 13 two (their third was a forfeit win on an empty board).
    assert_eq!(store(&h).rating_list().expect("list").len(), 18);
    let list = store(&h).rating_list().expect("list");
    let games: std::collections::BTreeMap<&str, u32> = list
        .iter()
        .map(|r| (r.federation_id.as_str(), r.standing.games))
        .collect();
    assert_eq!(games.get("GGT-13"), Some(&2));
    assert_eq!(games.get("GGT-1"), Some(&3));
}
