//! What the trials of issue 23 asked of the arbiter desk, through its widgets
//! (egui_kittest): the clocks wait for the first mover, a mistyped move corrected at the
//! time it was made with the time each side used since, and the audit log in words.

mod common;

use common::{
    START_MS, all_text, assert_shows, click, enter_setup, go, has_text, phase, store, tables_desk,
    type_into, type_move,
};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ggdesk::desk::Phase;
use ggdesk::store::AuditFilter;
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::rules::Side;

fn is_enabled(h: &Harness<'_, DeskApp>, label: &str) -> bool {
    !h.get_by_label(label).accesskit_node().is_disabled()
}

fn open_game(h: &Harness<'_, DeskApp>) -> ggdesk::store::GameId {
    h.state().tables.selected.expect("a table is open")
}

/// Issue 23 item 2: until lots are drawn or the arbiter chooses, the clocks cannot start;
/// the audit log says the arbiter chose.
#[test]
fn start_clocks_waits_until_the_first_mover_is_decided() {
    let (mut h, clock) = tables_desk();
    click(&mut h, "New practice table");
    enter_setup(&mut h, Side::White);
    enter_setup(&mut h, Side::Black);
    assert!(
        !is_enabled(&h, "Start clocks"),
        "nobody decided who moves first"
    );
    assert!(has_text(
        &h,
        "Decide who moves first: draw lots, or choose White or Black"
    ));
    // Clicking it anyway does nothing.
    h.get_by_label("Start clocks").click();
    h.run();
    assert_eq!(phase(&h, clock.get()), Phase::Ready);
    click(&mut h, "Black moves first");
    assert!(is_enabled(&h, "Start clocks"));
    click(&mut h, "Start clocks");
    assert_eq!(phase(&h, clock.get()), Phase::Playing);
    let id = open_game(&h);
    let game = h.state().tables.tables.tables[&id]
        .game_at(clock.get())
        .expect("started");
    assert_eq!(game.to_move(), Side::Black);
    let started = store(&h)
        .audit_log(AuditFilter::Game(id.0))
        .expect("audit")
        .into_iter()
        .find(|e| e.action == "game started")
        .expect("the start is logged");
    assert_eq!(started.details, "black moves first (chosen by the arbiter)");
    assert_eq!(started.actor, "director's desk");
}

/// Issue 23 item 1: a6-a5 typed at 0:09 for Black's b6-b5, noticed at 0:30. The correction
/// enters b6-b5 at 0:09: White's move clock has run since then (1:39 left at 0:30, not
/// 2:00), and the table shows the time each side used since.
#[test]
fn a_mistyped_move_is_corrected_at_the_time_it_was_made() {
    let (mut h, clock) = tables_desk();
    common::started_practice_table(&mut h);
    clock.set(START_MS + 5_000);
    type_move(&mut h, "a3-a4");
    clock.set(START_MS + 9_000);
    type_move(&mut h, "a6-a5");
    clock.set(START_MS + 30_000);
    h.run();
    click(&mut h, "Correct the last move…");
    let texts = all_text(&h);
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("The last move in force is move a6-a5, made at 0:09.")),
        "{texts:?}"
    );
    // Issue 31: where the move replaced is kept, truthfully (the exported record below
    // holds only the right move; the audit log names both).
    assert!(
        texts.iter().any(|t| t.ends_with(
            "The game's record keeps only the right move; the audit log keeps the move it \
             replaces, when it was made, and your reason."
        )),
        "{texts:?}"
    );
    assert!(!texts.iter().any(|t| t.contains("keeps both")), "{texts:?}");
    assert_shows(
        &texts,
        "Used since 0:09 (pauses excluded): White 0:21, Black 0:00. That time stays where it is.",
    );
    assert!(
        !is_enabled(&h, "Correct the move"),
        "a move and a reason first"
    );
    type_into(&mut h, "The right move:", "b6-b5");
    type_into(
        &mut h,
        "Reason (kept in the audit log):",
        "typed the wrong file",
    );
    click(&mut h, "Correct the move");
    assert!(
        h.query_by_label("Correct the move").is_none(),
        "the dialog closed"
    );

    let id = open_game(&h);
    let table = &h.state().tables.tables.tables[&id];
    let game = table.game_at(clock.get()).expect("playing");
    assert_eq!(game.to_move(), Side::White);
    assert_eq!(game.clock().move_remaining_ns(), 99_000_000_000);
    let texts = all_text(&h);
    assert_shows(
        &texts,
        "Corrected: move a6-a5 replaced by move b6-b5, both at 0:09 (when the move was made).",
    );
    assert_shows(
        &texts,
        "Used since 0:09 (pauses excluded): White 0:21, Black 0:00",
    );
    // The record: both moves in force, in time order, the corrected one at 0:09.
    let record = store(&h).export_record(id).expect("record");
    let moves: Vec<(f64, String)> = record
        .events
        .iter()
        .map(|e| {
            (
                e.t,
                ggdesk_core::record::event_value(e)["move"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(
        moves,
        vec![(5.0, "a3-a4".to_string()), (9.0, "b6-b5".to_string())]
    );
    // The audit log keeps the move replaced, when it was made, and the reason.
    let corrected = store(&h)
        .audit_log(AuditFilter::Game(id.0))
        .expect("audit")
        .into_iter()
        .find(|e| e.action == "move corrected")
        .expect("the correction is logged");
    assert_eq!(corrected.reason, "typed the wrong file");
    assert!(
        ggdesk_core::export::audit::details_in_words(&corrected.action, &corrected.details)
            .starts_with("cancelled move a6-a5 (made at 0:09), entered move b6-b5 at 0:09"),
        "{corrected:?}"
    );
    // The next move replaces the line with the game as it goes on.
    clock.set(START_MS + 40_000);
    type_move(&mut h, "a4-a5");
    assert!(!has_text(&h, "Corrected: move a6-a5"));
}

/// A correction whose move the rules refuse keeps the game as it was and says why.
#[test]
fn a_correction_the_rules_refuse_changes_nothing_and_says_why() {
    let (mut h, clock) = tables_desk();
    common::started_practice_table(&mut h);
    clock.set(START_MS + 5_000);
    type_move(&mut h, "a3-a4");
    let id = open_game(&h);
    let before = store(&h).load_game(id).expect("game").events;
    click(&mut h, "Correct the last move…");
    type_into(&mut h, "The right move:", "a3-a5");
    type_into(&mut h, "Reason (kept in the audit log):", "wrong");
    click(&mut h, "Correct the move");
    assert_eq!(store(&h).load_game(id).expect("game").events, before);
    assert!(
        all_text(&h)
            .iter()
            .any(|t| t.starts_with("the corrected move is refused")),
        "{:?}",
        all_text(&h)
    );
}

/// Issue 23 item 4: the audit log in words, the desk as the actor, the singular, the file
/// named after the search.
#[test]
fn the_audit_log_says_what_happened_by_whom() {
    let dir = tempfile::tempdir().expect("dir");
    let clock = std::rc::Rc::new(std::cell::Cell::new(START_MS));
    let db = ggdesk::store::Store::open(&dir.path().join("event.sqlite3")).expect("store");
    let mut h = common::desk(db, Page::Tables, None, &clock);
    common::started_practice_table(&mut h);
    // White thinks 2:05: an overstep at 2:00.
    clock.set(START_MS + 125_000);
    type_move(&mut h, "a3-a4");
    clock.set(START_MS + 130_000);
    type_move(&mut h, "a6-a5");
    click(&mut h, "Undo last event…");
    type_into(&mut h, "Reason (kept in the audit log):", "wrong move");
    click(&mut h, "Undo");
    clock.set(START_MS + 140_000);
    h.run();
    click(&mut h, "Pause (F8)");
    go(&mut h, Page::Settings);
    let texts = all_text(&h);
    for words in [
        "White passed the move limit at 2:00 (overstep 1 of 3)",
        "move a3-a4 at 2:05",
        "cancelled move a6-a5 (made at 2:10)",
        "clocks paused at 2:20",
        "White moves first (chosen by the arbiter)",
    ] {
        assert!(
            texts.iter().any(|t| t.starts_with(words)),
            "{words:?} not in {texts:?}"
        );
    }
    let actors: std::collections::BTreeSet<String> = store(&h)
        .audit_log(AuditFilter::All)
        .expect("audit")
        .into_iter()
        .map(|e| e.actor)
        .collect();
    assert_eq!(
        actors.into_iter().collect::<Vec<_>>(),
        vec!["director's desk".to_string()]
    );
    // Searched down to one line: singular, and the file says what was searched.
    type_into(&mut h, "Any text:", "cancelled move");
    click(&mut h, "Export 1 line as CSV");
    let exports = dir.path().join("exports");
    let written: Vec<String> = std::fs::read_dir(&exports)
        .expect("exports")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.starts_with("audit-log-text-cancelled-move-"))
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    let csv = std::fs::read_to_string(exports.join(&written[0])).expect("csv");
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(csv.contains("cancelled move a6-a5 (made at 2:10)"), "{csv}");
}

/// The delay before the next frame the desk asked for in its last frame.
fn next_frame(h: &Harness<'_, DeskApp>) -> std::time::Duration {
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map_or(std::time::Duration::MAX, |v| v.repaint_delay)
}

/// Issue 23 item 3: an open table with its move box focused asks for its next frame when
/// the move clock shows its next second, not at the text cursor's blink (half a second).
#[test]
fn an_open_table_draws_again_at_the_move_clocks_next_second_not_at_a_blink() {
    let (mut h, clock) = tables_desk();
    common::started_practice_table(&mut h);
    clock.set(START_MS + 5_000);
    type_move(&mut h, "a3-a4");
    assert!(h.state().tables.move_text.is_empty(), "the move was played");
    assert!(h.ctx.text_edit_focused(), "the move box has the keyboard");
    assert!(!h.ctx.style_of(h.ctx.theme()).visuals.text_cursor.blink);
    // Black's move clock: 1:59.9 left at 0:05.1, so its next second is 0.9 s away.
    clock.set(START_MS + 5_100);
    h.step();
    let delay = next_frame(&h);
    assert!(
        delay >= std::time::Duration::from_millis(850)
            && delay <= std::time::Duration::from_millis(1000),
        "the next frame in {delay:?}"
    );
}

/// Issue 23 item 3: a page with nothing happening (no game running, no notice showing)
/// asks for no frame before its long look at the database.
#[test]
fn an_idle_page_asks_for_no_frame_for_seconds() {
    let dir = tempfile::tempdir().expect("dir");
    let clock = std::rc::Rc::new(std::cell::Cell::new(START_MS));
    let db = ggdesk::store::Store::open(&dir.path().join("event.sqlite3")).expect("store");
    for page in [
        Page::Players,
        Page::Tournaments,
        Page::Registration,
        Page::Rounds,
        Page::Tables,
        Page::Standings,
        Page::Settings,
    ] {
        let mut h = common::desk(
            ggdesk::store::Store::open(&dir.path().join("event.sqlite3")).expect("store"),
            page,
            None,
            &clock,
        );
        // Past any notice's time on screen.
        clock.set(clock.get() + 60_000);
        h.run();
        h.step();
        let delay = next_frame(&h);
        assert!(
            delay >= std::time::Duration::from_secs(5),
            "{page:?}: the next frame in {delay:?}"
        );
    }
    drop(db);
}
