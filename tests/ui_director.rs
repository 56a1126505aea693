//! The director's pages through their widgets (egui_kittest), found by their accessible
//! labels: a small event run from an empty database (players added, a tournament created,
//! players registered, round 1 paired and published, results entered, the standings
//! changing, CSV exported), a manual rematch that asks first, a CSV import previewed, and
//! default losses after the grace period.

mod common;

use common::{START_MS, all_text, click, shown_players};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ggdesk::store::TournamentId;
use ggdesk::store::{AuditFilter, RoundState, Store};
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::tournament::{GameResult, RoundNo, Score};
use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;

fn harness(db: &Path, page: Page, clock: &Rc<Cell<i64>>) -> Harness<'static, DeskApp> {
    common::desk(Store::open(db).expect("store"), page, None, clock)
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

fn go(h: &mut Harness<'_, DeskApp>, page: Page) {
    h.state_mut().prefs.page = page;
    h.run();
}

fn store<'a>(h: &'a Harness<'_, DeskApp>) -> &'a Store {
    h.state().store().expect("store")
}

/// Adds players through the Players page form.
fn add_players(h: &mut Harness<'_, DeskApp>, players: &[(&str, &str)]) {
    go(h, Page::Players);
    for (name, rating) in players {
        type_into(h, "Name:", name);
        type_into(h, "Rating:", rating);
        click(h, "Add player");
        // The form is cleared for the next one.
        assert_eq!(h.state().players.form.name, "");
    }
}

/// Creates a tournament and registers everyone in the registry; returns its id.
fn create_and_register(h: &mut Harness<'_, DeskApp>, name: &str) -> TournamentId {
    go(h, Page::Tournaments);
    type_into(h, "Tournament name:", name);
    click(h, "Create tournament");
    let tid = h
        .state()
        .prefs
        .tournament
        .expect("the new tournament is chosen");
    go(h, Page::Registration);
    let n = store(h).players().expect("players").len();
    click(h, &format!("Register all {n} shown"));
    click(h, "Register them");
    assert_eq!(store(h).registrations(tid).expect("regs").len(), n);
    tid
}

fn pair_and_publish(h: &mut Harness<'_, DeskApp>, tid: TournamentId, round: u32) {
    go(h, Page::Rounds);
    click(h, &format!("Pair round {round}"));
    let view = store(h)
        .round_view(tid, RoundNo(round))
        .expect("view")
        .expect("draft");
    assert_eq!(view.state, RoundState::Draft);
    assert!(has_text(h, "Why these boards"));
    click(h, &format!("Publish round {round}"));
    let view = store(h)
        .round_view(tid, RoundNo(round))
        .expect("view")
        .expect("round");
    assert_eq!(view.state, RoundState::Published);
}

/// Chooses a file in the players page's picker by typing its whole path.
fn pick_file(h: &mut Harness<'_, DeskApp>, path: &Path) {
    click(h, "Choose a CSV file…");
    type_into(
        h,
        "File (a name here, or a whole path):",
        path.to_str().expect("path"),
    );
    click(h, "Open");
}

fn enter_result(h: &mut Harness<'_, DeskApp>, table: u32, result: &str) {
    click(h, &format!("Result of table {table}"));
    click(h, result);
}

const SIX: [(&str, &str); 6] = [
    ("Reyes, Ana", "2000"),
    ("Cruz, Ben", "1900"),
    ("Lim, Cy", "1800"),
    ("Tan, Dee", "1700"),
    ("Uy, Eve", "1600"),
    ("Go, Fay", "1500"),
];

#[test]
fn a_small_event_from_an_empty_database_to_exported_standings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("event.sqlite3");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = harness(&db, Page::Players, &clock);
    add_players(&mut h, &SIX);
    assert_eq!(store(&h).players().expect("players").len(), 6);
    let tid = create_and_register(&mut h, "Club night");
    pair_and_publish(&mut h, tid, 1);
    // The status line shows the round at a glance.
    assert!(has_text(&h, "3 awaiting result"), "{:?}", all_text(&h));
    // Publishing wrote a backup beside the database.
    assert!(!store(&h).backups().expect("backups").is_empty());

    // Standings before any result: everyone on 0.
    go(&mut h, Page::Standings);
    let s = h.state().standings.standings.clone().expect("standings");
    assert!(s.rows.iter().all(|r| r.score == Score::ZERO));

    go(&mut h, Page::Rounds);
    enter_result(&mut h, 1, "White wins");
    enter_result(&mut h, 2, "Draw");
    enter_result(&mut h, 3, "Black wins by forfeit");
    let view = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r");
    assert_eq!(
        view.state,
        RoundState::Complete,
        "the last result completes the round"
    );
    assert_eq!(view.boards[0].result, GameResult::WhiteWins);
    assert_eq!(view.boards[2].result, GameResult::BlackWinsByForfeit);
    assert!(has_text(&h, "3 finished"));

    go(&mut h, Page::Standings);
    let s = h.state().standings.standings.clone().expect("standings");
    assert_eq!(s.rows[0].score, Score::from_points(2));
    let winner = view.boards[0].white.no;
    let row = s.rows.iter().find(|r| r.id == winner).expect("row");
    assert_eq!(row.score, Score::from_points(2));
    assert!(has_text(&h, &view.boards[0].white.name));
    // Player numbers follow the ratings: the highest rated is player 1.
    assert_eq!(
        store(&h).registrations(tid).expect("regs")[0].name,
        "Reyes, Ana"
    );
    click(&mut h, "Export CSV");
    let csv = std::fs::read_to_string(
        dir.path()
            .join("exports")
            .join("club-night-standings-after-round-1.csv"),
    )
    .expect("the CSV is written beside the database");
    assert!(csv.starts_with("rank,id,name,rating,score,direct_encounter,buchholz"));
    assert!(csv.contains("\"Reyes, Ana\""), "{csv}");
    // The cross-table shows the games.
    h.get_by_label("Cross-table").click();
    h.run();
    assert!(has_text(&h, "R1"));

    // Changing an entered result asks for a reason, which goes into the audit log.
    go(&mut h, Page::Rounds);
    enter_result(&mut h, 2, "White wins");
    assert!(has_text(&h, "Change the result of table 2"));
    type_into(
        &mut h,
        "Reason (kept in the audit log):",
        "scoresheet misread",
    );
    click(&mut h, "Change the result");
    let log = store(&h)
        .audit_log(AuditFilter::Tournament(tid))
        .expect("log");
    let last = log
        .iter()
        .rev()
        .find(|e| e.action == "result changed")
        .expect("logged");
    assert_eq!(last.reason, "scoresheet misread");

    // Round 2 is paired from the standings after round 1.
    pair_and_publish(&mut h, tid, 2);
}

#[test]
fn a_manual_rematch_warns_and_needs_confirmation() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("event.sqlite3");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = harness(&db, Page::Players, &clock);
    add_players(&mut h, &SIX[..4]);
    let tid = create_and_register(&mut h, "Rematch test");
    pair_and_publish(&mut h, tid, 1);
    enter_result(&mut h, 1, "White wins");
    enter_result(&mut h, 2, "White wins");
    let r1 = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r");
    click(&mut h, "Pair round 2");
    let r2 = store(&h)
        .round_view(tid, RoundNo(2))
        .expect("v")
        .expect("r");
    // Table 1 of round 2: swap its Black with the round-1 opponent of its White.
    let b = &r2.boards[0];
    let w = b.white.no;
    let old = r1
        .boards
        .iter()
        .find_map(|x| {
            if x.white.no == w {
                Some(x.black.clone())
            } else if x.black.no == w {
                Some(x.white.clone())
            } else {
                None
            }
        })
        .expect("met in round 1");
    click(&mut h, &format!("{} {}", b.black.no, b.black.name));
    assert!(has_text(&h, "now click the player to swap with"));
    click(&mut h, &format!("{} {}", old.no, old.name));
    assert!(has_text(&h, "This change breaks a pairing rule"));
    assert!(has_text(&h, "already met in round 1"), "{:?}", all_text(&h));
    // Cancel changes nothing.
    click(&mut h, "Cancel");
    assert_eq!(
        store(&h)
            .round_view(tid, RoundNo(2))
            .expect("v")
            .expect("r")
            .boards,
        r2.boards
    );
    click(&mut h, &format!("{} {}", b.black.no, b.black.name));
    click(&mut h, &format!("{} {}", old.no, old.name));
    click(&mut h, "Swap anyway");
    let after = store(&h)
        .round_view(tid, RoundNo(2))
        .expect("v")
        .expect("r");
    assert!(after.boards[0].white.no == old.no || after.boards[0].black.no == old.no);
    let log = store(&h)
        .audit_log(AuditFilter::Tournament(tid))
        .expect("log");
    let last = log.last().expect("entry");
    assert_eq!(last.action, "pairing changed by hand");
    assert!(last.reason.contains("rematch"), "{}", last.reason);
}

#[test]
fn a_players_csv_is_previewed_with_every_bad_row_before_anything_is_saved() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("event.sqlite3");
    let bad = dir.path().join("bad.csv");
    std::fs::write(
        &bad,
        "name,federation_id,club,rating\nAna,G1,QC,1700\n,G2,QC,1\nBen,G3,QC,high\n",
    )
    .expect("write");
    let good = dir.path().join("good.csv");
    std::fs::write(
        &good,
        "name,federation_id,club,rating\nAna,G1,QC,1700\nBen,G3,QC,1650\n",
    )
    .expect("write");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = harness(&db, Page::Players, &clock);
    pick_file(&mut h, &bad);
    assert!(has_text(&h, "2 bad rows"));
    assert!(has_text(&h, "line 3"));
    assert!(has_text(&h, "line 4"));
    assert!(h.query_by_label_contains("Import 2 players").is_none());
    assert!(store(&h).players().expect("players").is_empty());
    pick_file(&mut h, &good);
    assert!(has_text(&h, "2 players ready to import"));
    click(&mut h, "Import 2 players");
    let players = store(&h).players().expect("players");
    assert_eq!(players.len(), 2);
    // Sorting by rating, highest first after a second click.
    click(&mut h, "Rating");
    click(&mut h, "Rating ^");
    let shown = shown_players(&h);
    assert_eq!(shown, ["Ana", "Ben"]);
    type_into(&mut h, "Search players:", "ben");
    assert_eq!(h.state().players.shown().len(), 1);
}

#[test]
fn default_losses_are_offered_once_the_grace_period_is_over() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("event.sqlite3");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = harness(&db, Page::Players, &clock);
    add_players(&mut h, &SIX[..4]);
    let tid = create_and_register(&mut h, "Grace");
    pair_and_publish(&mut h, tid, 1);
    click(&mut h, "Start the round now");
    assert!(
        has_text(&h, "Grace period: 30:00 left"),
        "{:?}",
        all_text(&h)
    );
    assert!(h.query_by_label("Both absent at table 1").is_none());
    clock.set(START_MS + 30 * 60 * 1000);
    h.run();
    assert!(has_text(&h, "Grace period over"));
    click(&mut h, "Both absent at table 1");
    click(&mut h, "White absent at table 2");
    let v = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r");
    assert_eq!(v.boards[0].result, GameResult::DoubleForfeit);
    assert_eq!(v.boards[1].result, GameResult::BlackWinsByForfeit);
    assert_eq!(v.state, RoundState::Complete);
}

#[test]
fn keyboard_shortcuts_pair_publish_and_enter_results() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("event.sqlite3");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = harness(&db, Page::Players, &clock);
    add_players(&mut h, &SIX[..4]);
    let tid = create_and_register(&mut h, "Keys");
    go(&mut h, Page::Rounds);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::P);
    h.run();
    h.run();
    let v = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("drafted by Ctrl+P");
    assert_eq!(v.state, RoundState::Draft);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    h.run();
    assert_eq!(
        store(&h)
            .round_view(tid, RoundNo(1))
            .expect("v")
            .expect("r")
            .state,
        RoundState::Published
    );
    // Down selects table 1, W enters White's win; Down, D a draw.
    h.key_press(egui::Key::ArrowDown);
    h.run();
    h.key_press(egui::Key::W);
    h.run();
    h.key_press(egui::Key::ArrowDown);
    h.run();
    h.key_press(egui::Key::D);
    h.run();
    let v = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r");
    assert_eq!(v.boards[0].result, GameResult::WhiteWins);
    assert_eq!(v.boards[1].result, GameResult::Draw);
    assert_eq!(v.state, RoundState::Complete);
}

#[test]
fn tie_breaks_are_reordered_and_changing_them_after_round_1_warns() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("event.sqlite3");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = harness(&db, Page::Players, &clock);
    add_players(&mut h, &SIX[..4]);
    let tid = create_and_register(&mut h, "Order");
    go(&mut h, Page::Tournaments);
    // Before round 1 a change is saved at once.
    h.get_by_label("Move wins up").click();
    h.run();
    click(&mut h, "Save settings");
    let tbs: Vec<&str> = store(&h)
        .tournament_setup(tid)
        .expect("setup")
        .tiebreaks
        .iter()
        .map(|t| t.name())
        .collect();
    assert_eq!(
        tbs,
        ["direct_encounter", "buchholz", "wins", "sonneborn_berger"]
    );
    pair_and_publish(&mut h, tid, 1);
    go(&mut h, Page::Tournaments);
    h.get_by_label("Remove buchholz").click();
    h.run();
    click(&mut h, "Save settings");
    assert!(has_text(
        &h,
        "Change the scoring of a tournament under way?"
    ));
    type_into(
        &mut h,
        "Reason (kept in the audit log):",
        "agreed at the captains' meeting",
    );
    click(&mut h, "Change the scoring");
    let setup = store(&h).tournament_setup(tid).expect("setup");
    assert_eq!(setup.tiebreaks.len(), 3);
    let log = store(&h)
        .audit_log(AuditFilter::Tournament(tid))
        .expect("log");
    let last = log.last().expect("entry");
    assert_eq!(last.action, "tournament settings changed");
    assert_eq!(last.reason, "agreed at the captains' meeting");
}
