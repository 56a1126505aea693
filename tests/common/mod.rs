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

/// The desk on `store`, showing `page` (and `tournament`), its time taken from `clock`, on
/// a 1366 × 768 screen, after a first frame.
pub fn desk(
    store: Store,
    page: Page,
    tournament: Option<i64>,
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
