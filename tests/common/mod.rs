//! What the desk's widget tests share: a desk on a store with an injected clock, clicks
//! found by accessible label, and the text the desk shows.
// Each test file uses only some of these.
#![allow(dead_code)]

use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use ggdesk::desk::Phase;
use ggdesk::store::Store;
use ggdesk::ui::{DeskApp, Page, Prefs, TimeSource};
use std::cell::Cell;
use std::rc::Rc;

/// The injected clock's start: a Unix time in milliseconds.
pub const START_MS: i64 = 1_800_000_000_000;

/// How many frames `Harness::run` may take to settle. A desk on the event server is also
/// woken by its change feed's thread whenever another connection commits (`ui/live.rs`), at
/// whatever frame the notice arrives on a loaded machine: kittest's default of 4 refused a
/// desk that settled after 6. A desk that never stops asking for frames still fails.
const MAX_STEPS: u64 = 32;

/// The desk on `store`, showing `page` (and `tournament`), its time taken from `clock`, on
/// a 1366 × 768 screen, after a first frame.
pub fn desk(
    store: Store,
    page: Page,
    tournament: Option<ggdesk::store::TournamentId>,
    clock: &Rc<Cell<i64>>,
) -> Harness<'static, DeskApp> {
    let prefs = Prefs {
        page,
        tournament,
        ..Prefs::default()
    };
    let app = DeskApp::new(Ok(store), prefs, TimeSource::Manual(clock.clone()));
    let mut h = Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .with_max_steps(MAX_STEPS)
        .build_ui_state(|ui, app: &mut DeskApp| app.show(ui), app);
    h.run();
    h
}

/// Every label and value on screen.
pub fn all_text(h: &Harness<'_, DeskApp>) -> Vec<String> {
    h.query_all(By::new().predicate(|_| true))
        .flat_map(|n| {
            let node = n.accesskit_node();
            [node.label(), node.value()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Clicks the widget labelled exactly `label` (saying what is on screen when it is not).
pub fn click(h: &mut Harness<'_, DeskApp>, label: &str) {
    if h.query_by_label(label).is_none() {
        panic!("no {label:?} among {:?}", all_text(h));
    }
    // As a person scrolls to a button below the fold before clicking it.
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
    // Commands queued while drawing are applied in the same frame; long ones on the next.
    h.run();
}

/// Clicks the widget whose label contains `part`.
pub fn click_containing(h: &mut Harness<'_, DeskApp>, part: &str) {
    if h.query_by_label_contains(part).is_none() {
        panic!("nothing labelled with {part:?} among {:?}", all_text(h));
    }
    h.get_by_label_contains(part).click();
    h.run();
    h.run();
}

/// The phase of the table open on the Tables page.
pub fn phase(h: &Harness<'_, DeskApp>, now: i64) -> Phase {
    let app = h.state();
    let id = app.tables.selected.expect("a table is open");
    app.tables.tables.tables[&id].phase(now)
}

/// The desk on `store` as [`desk`] does, with a launcher that records the pages and folders
/// it would open instead of starting a program.
pub fn desk_recording(
    store: Store,
    page: Page,
    tournament: Option<ggdesk::store::TournamentId>,
    clock: &Rc<Cell<i64>>,
) -> (
    Harness<'static, DeskApp>,
    Rc<std::cell::RefCell<Vec<std::path::PathBuf>>>,
) {
    let opened = Rc::new(std::cell::RefCell::new(Vec::new()));
    let prefs = Prefs {
        page,
        tournament,
        ..Prefs::default()
    };
    let mut app = DeskApp::new(Ok(store), prefs, TimeSource::Manual(clock.clone()));
    app.launcher = ggdesk::ui::files::Launcher::Record(opened.clone());
    let mut h = Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .with_max_steps(MAX_STEPS)
        .build_ui_state(|ui, app: &mut DeskApp| app.show(ui), app);
    h.run();
    (h, opened)
}

/// Whether some label or value on screen contains `needle`.
pub fn has_text(h: &Harness<'_, DeskApp>, needle: &str) -> bool {
    all_text(h).iter().any(|t| t.contains(needle))
}

/// Focuses the field labelled `label` and types `text` into it.
pub fn type_into(h: &mut Harness<'_, DeskApp>, label: &str, text: &str) {
    if h.query_by_label(label).is_none() {
        panic!("no field {label:?} among {:?}", all_text(h));
    }
    let field = h.get_by_label(label);
    field.focus();
    field.type_text(text);
    h.run();
}

/// Shows another page, as its function key would.
pub fn go(h: &mut Harness<'_, DeskApp>, page: Page) {
    h.state_mut().prefs.page = page;
    h.run();
}

/// The store under the desk.
pub fn store<'a>(h: &'a Harness<'_, DeskApp>) -> &'a Store {
    h.state().store().expect("store")
}

/// A key pressed, as one event of the next frame (with no modifier).
pub fn key_event(key: egui::Key) -> egui::Event {
    egui::Event::Key {
        key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    }
}

/// Puts `events` into one frame (kittest otherwise runs a frame per event) and runs it.
pub fn one_frame(h: &mut Harness<'_, DeskApp>, events: Vec<egui::Event>) {
    h.input_mut().events.extend(events);
    h.run();
}

/// White's squares a1..i1, a2..i2, a3..c3; Black's a8..i8, a7..i7, a6..c6.
pub fn setup_squares(side: ggdesk_core::rules::Side) -> Vec<String> {
    let rows: [u8; 3] = match side {
        ggdesk_core::rules::Side::White => [1, 2, 3],
        ggdesk_core::rules::Side::Black => [8, 7, 6],
    };
    rows.iter()
        .flat_map(|r| ('a'..='i').map(move |f| format!("{f}{r}")))
        .take(21)
        .collect()
}

/// Enters one side's setup from the palette: the brush starts at the Five-Star General and
/// moves on to the next rank left after each piece, so 21 clicks place the whole set in
/// the order of the rulebook's table.
pub fn enter_setup(h: &mut Harness<'_, DeskApp>, side: ggdesk_core::rules::Side) {
    let tab = match side {
        ggdesk_core::rules::Side::White => "White's setup (",
        ggdesk_core::rules::Side::Black => "Black's setup (",
    };
    h.get_by_label_contains(tab).click();
    h.run();
    click(h, "G5 Five-Star General");
    for sq in setup_squares(side) {
        click(h, &sq);
    }
}

/// Types a move into the move box and plays it.
pub fn type_move(h: &mut Harness<'_, DeskApp>, mv: &str) {
    let field = h.get_by_label_contains("moves:");
    field.focus();
    field.type_text(mv);
    h.run();
    click(h, "Play move");
}

/// A practice table with both setups entered through the palette and the clocks started.
pub fn started_practice_table(h: &mut Harness<'_, DeskApp>) {
    click(h, "New practice table");
    enter_setup(h, ggdesk_core::rules::Side::White);
    enter_setup(h, ggdesk_core::rules::Side::Black);
    click(h, "White moves first");
    click(h, "Start clocks");
}

/// A desk on a fresh in-memory store showing the Tables page, and the clock it reads
/// (at [`START_MS`]).
pub fn tables_desk() -> (Harness<'static, DeskApp>, Rc<Cell<i64>>) {
    let clock = Rc::new(Cell::new(START_MS));
    let h = desk(
        Store::open_in_memory().expect("store"),
        Page::Tables,
        None,
        &clock,
    );
    (h, clock)
}

/// Asserts that one of `texts` (what the desk shows) is exactly `text`.
pub fn assert_shows(texts: &[String], text: &str) {
    assert!(texts.iter().any(|t| t == text), "{text:?} not in {texts:?}");
}

/// The names the Players page lists, in its order.
pub fn shown_players(h: &Harness<'_, DeskApp>) -> Vec<String> {
    h.state()
        .players
        .shown()
        .iter()
        .map(|p| p.name.clone())
        .collect()
}

/// Runs frames (real time passing: the listener and the server are real) until `done`, for
/// at most thirty seconds; false if it never came.
pub fn until(
    h: &mut Harness<'_, DeskApp>,
    mut done: impl FnMut(&Harness<'_, DeskApp>) -> bool,
) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::time::Instant::now() < deadline {
        h.run();
        if done(h) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}
