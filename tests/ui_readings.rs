//! The reading sheets of an adjudication are the store's: a sheet another desk changed is
//! what the desk shows and builds on once the table is reloaded (its next reading never
//! puts back what the other desk replaced), and a reading the store refused is not shown
//! as read. Both for a practice table (readings by square) and a physical board (readings
//! piece by piece of the tally).

mod common;

use common::{START_MS, all_text, assert_shows, click, desk, started_practice_table};
use egui_kittest::Harness;
use ggdesk::desk::Phase;
use ggdesk::store::{Actor, GameId, Store};
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::rules::Side;
use serde_json::{Value, json};
use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;

/// A desk on the SQLite file at `path`, showing the Tables page.
fn file_desk(path: &Path, clock: &Rc<Cell<i64>>) -> Harness<'static, DeskApp> {
    let mut h = desk(Store::open(path).expect("store"), Page::Tables, None, clock);
    h.run();
    h
}

/// The clock runs past the two hours of game time: the open table turns to adjudication.
fn to_adjudication(h: &mut Harness<'_, DeskApp>, clock: &Rc<Cell<i64>>) -> GameId {
    clock.set(START_MS + 7_200_500);
    h.run();
    h.run();
    let id = h.state().tables.selected.expect("a table is open");
    assert_eq!(
        h.state().tables.tables.tables[&id].phase(clock.get()),
        Phase::AdjudicationPending
    );
    id
}

/// The open table read again from the database, as the desk does when the server says
/// another desk changed the game.
fn reload_open_table(h: &mut Harness<'_, DeskApp>, id: GameId, store: &Store) {
    h.state_mut()
        .tables
        .tables
        .tables
        .get_mut(&id)
        .expect("loaded")
        .reload(store)
        .expect("reload");
    h.run();
}

/// White's reading sheet as stored.
fn stored_sheet(store: &Store, id: GameId) -> Value {
    store.load_game(id).expect("game").sheets[Side::White]
        .as_ref()
        .expect("a sheet")
        .sheet
        .clone()
}

/// From now on the database refuses every reading sheet written, as a failing disk or a
/// lost connection would.
fn refuse_sheets(path: &Path) {
    let conn = rusqlite::Connection::open(path).expect("open");
    conn.execute_batch(
        "CREATE TRIGGER refuse_insert BEFORE INSERT ON adjudication_sheets
             BEGIN SELECT RAISE(ABORT, 'the disk is full'); END;
         CREATE TRIGGER refuse_update BEFORE UPDATE ON adjudication_sheets
             BEGIN SELECT RAISE(ABORT, 'the disk is full'); END;",
    )
    .expect("triggers");
}

#[test]
fn a_reading_after_another_desks_change_keeps_what_that_desk_stored() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("desk.sqlite3");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = file_desk(&path, &clock);
    started_practice_table(&mut h);
    let id = to_adjudication(&mut h, &clock);
    // White reads Black's Five-Star General on a8.
    click(&mut h, "read a8");
    click(&mut h, "G5 Five-Star General");
    // Another desk adds White's reading of the Flag on c6 to the sheet as stored.
    let mut other = Store::open(&path).expect("other desk");
    assert_eq!(stored_sheet(&other, id), json!({"a8": "G5"}));
    other
        .save_reading_sheet(
            id,
            Side::White,
            &json!({"a8": "G5", "c6": "FLG"}),
            false,
            &Actor::arbiter(None),
        )
        .expect("saved at the other desk");
    reload_open_table(&mut h, id, &other);
    assert_shows(&all_text(&h), "White reads Black's pieces (2 read)");
    // The desk reads the Major on h8: the Flag on c6 stays read.
    click(&mut h, "read h8");
    click(&mut h, "PVT Private");
    assert_eq!(
        stored_sheet(&other, id),
        json!({"a8": "G5", "c6": "FLG", "h8": "PVT"})
    );
    assert_shows(&all_text(&h), "White reads Black's pieces (3 read)");
}

#[test]
fn a_reading_the_store_refused_is_not_shown_as_read() {
    let texts = read_while_refused(
        |h, clock| {
            started_practice_table(h);
            to_adjudication(h, clock);
        },
        "read a8",
    );
    assert_shows(&texts, "White reads Black's pieces (0 read)");
    assert_shows(&texts, "0 of 21 pieces read; the rest abstain.");
}

/// A desk brought to its first reading by `to_reading`, its database then refusing every
/// sheet: White's reading of `piece` as the Five-Star General is refused, and says so.
/// What the desk shows then.
fn read_while_refused(
    to_reading: impl FnOnce(&mut Harness<'_, DeskApp>, &Rc<Cell<i64>>),
    piece: &str,
) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("desk.sqlite3");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = file_desk(&path, &clock);
    to_reading(&mut h, &clock);
    refuse_sheets(&path);
    click(&mut h, piece);
    click(&mut h, "G5 Five-Star General");
    let texts = all_text(&h);
    assert!(
        texts.iter().any(|t| t.contains("the disk is full")),
        "the refusal is said: {texts:?}"
    );
    texts
}

/// A physical-board table, started, run to adjudication.
fn physical_adjudication(h: &mut Harness<'_, DeskApp>, clock: &Rc<Cell<i64>>) -> GameId {
    click(h, "New physical-board table");
    click(h, "White moves first");
    click(h, "Start clocks");
    to_adjudication(h, clock)
}

#[test]
fn a_physical_reading_after_another_desks_change_keeps_what_that_desk_stored() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("desk.sqlite3");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = file_desk(&path, &clock);
    let id = physical_adjudication(&mut h, &clock);
    // White reads Black's first piece, the Five-Star General.
    click(&mut h, "piece 1: G5 read as -");
    click(&mut h, "G5 Five-Star General");
    // Another desk reads the second piece (the Four-Star General) as a Two-Star General.
    let mut other = Store::open(&path).expect("other desk");
    let mut sheet = stored_sheet(&other, id);
    assert_eq!(sheet[0], json!(["G5", "G5"]));
    assert_eq!(sheet[1], json!(["G4", null]));
    sheet[1] = json!(["G4", "G2"]);
    other
        .save_reading_sheet(id, Side::White, &sheet, false, &Actor::arbiter(None))
        .expect("saved at the other desk");
    reload_open_table(&mut h, id, &other);
    assert_shows(&all_text(&h), "piece 2: G4 read as G2");
    // The desk reads the third piece (a Three-Star General) right: the second stays read.
    click(&mut h, "piece 3: G3 read as -");
    click(&mut h, "G3 Three-Star General");
    let stored = stored_sheet(&other, id);
    assert_eq!(stored[0], json!(["G5", "G5"]));
    assert_eq!(stored[1], json!(["G4", "G2"]));
    assert_eq!(stored[2], json!(["G3", "G3"]));
}

#[test]
fn a_physical_reading_the_store_refused_is_not_shown_as_read() {
    let texts = read_while_refused(
        |h, clock| {
            physical_adjudication(h, clock);
        },
        "piece 1: G5 read as -",
    );
    assert_shows(&texts, "piece 1: G5 read as -");
}

/// Reading time runs out while the database refuses the sheets: the sheet is handed in as
/// it stood once the database takes it again (it is not given up after the first refusal,
/// and not tried at every frame either: a few seconds later), and the refusal stays one
/// line on the screen.
#[test]
fn a_sheet_handed_in_at_time_is_tried_again_until_the_database_takes_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("desk.sqlite3");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = file_desk(&path, &clock);
    started_practice_table(&mut h);
    let id = to_adjudication(&mut h, &clock);
    refuse_sheets(&path);
    // Fifteen minutes of reading time pass, then a few more frames.
    clock.set(START_MS + 7_200_500 + 15 * 60_000 + 1_000);
    for _ in 0..4 {
        h.run();
    }
    let refusals: Vec<&str> = h
        .state()
        .notices
        .items
        .iter()
        .filter(|n| n.error && n.text.contains("the disk is full"))
        .map(|n| n.text.as_str())
        .collect();
    let distinct: std::collections::BTreeSet<&str> = refusals.iter().copied().collect();
    assert!(!refusals.is_empty(), "the refusal is said");
    assert_eq!(
        refusals.len(),
        distinct.len(),
        "each refusal once: {refusals:?}"
    );
    let other = Store::open(&path).expect("other desk");
    assert!(other.load_game(id).expect("game").sheets[Side::White].is_none());
    // The database takes sheets again: both are handed in at the next frames.
    rusqlite::Connection::open(&path)
        .expect("open")
        .execute_batch("DROP TRIGGER refuse_insert; DROP TRIGGER refuse_update;")
        .expect("drop the triggers");
    // Not at every frame: a few seconds later.
    h.run();
    assert!(other.load_game(id).expect("game").sheets[Side::White].is_none());
    clock.set(clock.get() + 3_000);
    h.run();
    h.run();
    let stored = other.load_game(id).expect("game");
    for side in Side::BOTH {
        assert!(
            stored.sheets[side].as_ref().is_some_and(|s| s.complete),
            "{side:?}'s sheet is handed in"
        );
    }
}
