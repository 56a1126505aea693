//! The arbiter desk as an arbiter uses it (issues 14 and 11): keys that never fire while a
//! text field has the keyboard, input paced one focus change per frame, a refused move kept
//! for correction, each table opening on its own state with its own name, the setup and
//! reading timers kept in the database and enforced, lots drawn once, setups typed, undo,
//! pause and penalties, draw for respect only when allowed, the ranks hidden by default and
//! the other side hidden during setup entry.

mod common;

use common::{
    START_MS, all_text, click, desk, enter_setup, has_text, key_event, one_frame, phase,
    started_practice_table, store, type_into, type_move,
};
use egui_kittest::kittest::{NodeT, Queryable};
use ggdesk::desk::Phase;
use ggdesk::store::{Actor, AuditFilter, NewGame, Store};
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::rules::{BySide, Side};
use std::cell::Cell;
use std::rc::Rc;

fn clock() -> Rc<Cell<i64>> {
    Rc::new(Cell::new(START_MS))
}

fn on_tables(clock: &Rc<Cell<i64>>) -> egui_kittest::Harness<'static, DeskApp> {
    desk(
        Store::open_in_memory().expect("store"),
        Page::Tables,
        None,
        clock,
    )
}

fn open_game(h: &egui_kittest::Harness<'_, DeskApp>) -> ggdesk::store::GameId {
    h.state().tables.selected.expect("a table is open")
}

fn plies(h: &egui_kittest::Harness<'_, DeskApp>, now: i64) -> u32 {
    let app = h.state();
    app.tables.tables.tables[&open_game(h)]
        .game_at(now)
        .expect("game")
        .plies()
}

fn is_enabled(h: &egui_kittest::Harness<'_, DeskApp>, label: &str) -> bool {
    !h.get_by_label(label).accesskit_node().is_disabled()
}

#[test]
fn a_space_typed_in_the_move_box_is_part_of_the_move_never_a_pause() {
    let clock = clock();
    let mut h = on_tables(&clock);
    started_practice_table(&mut h);
    clock.set(START_MS + 5_000);
    // The move box has the keyboard once the clocks start; "d2 d3" is typed as a person
    // types it: the space key arrives as a key and as a character.
    one_frame(
        &mut h,
        vec![
            egui::Event::Text("d2".into()),
            key_event(egui::Key::Space),
            egui::Event::Text(" ".into()),
            egui::Event::Text("d3".into()),
        ],
    );
    assert_eq!(phase(&h, clock.get()), Phase::Playing, "the space paused");
    assert_eq!(h.state().tables.move_text, "d2 d3");
    one_frame(&mut h, vec![key_event(egui::Key::Enter)]);
    assert_eq!(plies(&h, clock.get()), 1, "{:?}", all_text(&h));
    // Out of the box (Esc), Space pauses and resumes; F8 does whatever has the keyboard.
    one_frame(&mut h, vec![key_event(egui::Key::Escape)]);
    assert!(h.state().tables.selected.is_some(), "Esc left the box only");
    one_frame(&mut h, vec![key_event(egui::Key::Space)]);
    assert_eq!(phase(&h, clock.get()), Phase::Paused);
    one_frame(&mut h, vec![key_event(egui::Key::F8)]);
    assert_eq!(phase(&h, clock.get()), Phase::Playing);
    let field = h.get_by_label_contains("moves:");
    field.focus();
    h.run();
    one_frame(&mut h, vec![key_event(egui::Key::F8)]);
    assert_eq!(phase(&h, clock.get()), Phase::Paused, "F8 types nothing");
    // A second Esc (out of the box) goes back to the tables.
    one_frame(&mut h, vec![key_event(egui::Key::Escape)]);
    one_frame(&mut h, vec![key_event(egui::Key::Escape)]);
    assert!(h.state().tables.selected.is_none());
}

#[test]
fn a_move_the_rules_refuse_stays_in_the_box_with_the_reason() {
    let clock = clock();
    let mut h = on_tables(&clock);
    started_practice_table(&mut h);
    clock.set(START_MS + 3_000);
    type_move(&mut h, "d2-d4");
    assert_eq!(plies(&h, clock.get()), 0);
    assert_eq!(h.state().tables.move_text, "d2-d4", "the text is kept");
    let texts = all_text(&h);
    assert!(
        texts
            .iter()
            .any(|t| t.contains("d2-d4") && t.to_lowercase().contains("one square")),
        "{texts:?}"
    );
    // Corrected in place: the box is cleared once the move is played.
    let field = h.get_by_label_contains("moves:");
    field.focus();
    h.run();
    h.state_mut().tables.move_text = "d2-d3".into();
    click(&mut h, "Play move");
    assert_eq!(plies(&h, clock.get()), 1);
    assert_eq!(h.state().tables.move_text, "");
}

#[test]
fn a_new_table_opens_on_whites_setup_and_a_new_adjudication_on_whites_reading() {
    let clock = clock();
    let mut h = on_tables(&clock);
    click(&mut h, "New practice table");
    h.get_by_label_contains("Black's setup (").click();
    h.run();
    click(&mut h, "b8");
    assert!(has_text(&h, "Only Black's pieces are shown"));
    click(&mut h, "Back to tables");
    click(&mut h, "New practice table");
    assert!(
        has_text(&h, "Only White's pieces are shown"),
        "{:?}",
        all_text(&h)
    );
    // Two games in adjudication: the second does not open on the first one's reader.
    let mut h = on_tables(&clock);
    started_practice_table(&mut h);
    click(&mut h, "Back to tables");
    started_practice_table(&mut h);
    clock.set(START_MS + 7_300_000);
    h.run();
    h.run();
    h.get_by_label_contains("Black reads White's pieces")
        .click();
    h.run();
    click(&mut h, "read c3");
    assert!(has_text(&h, "Reading for c3"));
    click(&mut h, "Back to tables");
    h.get_by_label_contains("Open Practice 1").click();
    h.run();
    assert!(
        has_text(&h, "then the rank White names"),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "Choose a piece on the board"));
}

#[test]
fn the_setup_timer_survives_reopening_and_a_restart_and_its_end_needs_a_ruling() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("desk.sqlite3");
    let clock = clock();
    let id = {
        let mut h = desk(
            Store::open(&path).expect("store"),
            Page::Tables,
            None,
            &clock,
        );
        click(&mut h, "New practice table");
        assert!(has_text(&h, "Setup time left: 5:00"), "{:?}", all_text(&h));
        clock.set(START_MS + 100_000);
        click(&mut h, "Back to tables");
        h.get_by_label_contains("Open Practice").click();
        h.run();
        assert!(has_text(&h, "Setup time left: 3:20"), "{:?}", all_text(&h));
        open_game(&h)
    };
    // The desk restarts: the timer runs on from where it started.
    clock.set(START_MS + 200_000);
    let mut h = desk(
        Store::open(&path).expect("reopen"),
        Page::Tables,
        None,
        &clock,
    );
    h.get_by_label_contains("Open Practice").click();
    h.run();
    assert_eq!(open_game(&h), id);
    assert!(has_text(&h, "Setup time left: 1:40"), "{:?}", all_text(&h));
    click(&mut h, "Random setup");
    click(&mut h, "Enter Black's setup");
    click(&mut h, "Random setup");
    clock.set(START_MS + 301_000);
    h.run();
    assert!(has_text(&h, "Setup time is over (0:01 ago)"));
    assert!(has_text(
        &h,
        "Setup time is over (both setups are in, late)"
    ));
    assert!(!is_enabled(&h, "Start clocks"));
    click(&mut h, "Record the ruling…");
    type_into(
        &mut h,
        "Reason (kept in the audit log):",
        "both late, warned",
    );
    click(&mut h, "Record the ruling");
    click(&mut h, "White moves first");
    assert!(is_enabled(&h, "Start clocks"));
    click(&mut h, "Start clocks");
    assert_eq!(phase(&h, clock.get()), Phase::Playing);
    let log = store(&h).audit_log(AuditFilter::Game(id.0)).expect("log");
    assert!(
        log.iter()
            .any(|e| e.action == "setup time exceeded" && e.reason == "both late, warned")
    );
}

#[test]
fn the_reading_timer_runs_from_the_end_of_game_time_hands_in_the_sheets_and_stops() {
    let clock = clock();
    let mut h = on_tables(&clock);
    started_practice_table(&mut h);
    let id = open_game(&h);
    // Game time (2 hours) ran out at START + 7,200 s; the desk sees it 100 s later.
    clock.set(START_MS + 7_300_000);
    h.run();
    h.run();
    assert_eq!(phase(&h, clock.get()), Phase::AdjudicationPending);
    let timers = store(&h).table_timers(id).expect("timers");
    assert_eq!(timers.reading_started_at, Some(START_MS + 7_200_000));
    assert!(
        has_text(&h, "Reading time left: 13:20"),
        "{:?}",
        all_text(&h)
    );
    // White reads one piece; Black reads nothing; then reading time runs out.
    click(&mut h, "read a8");
    click(&mut h, "G5 Five-Star General");
    clock.set(START_MS + 7_200_000 + 15 * 60_000 + 1);
    h.run();
    h.run();
    let game = store(&h).load_game(id).expect("game");
    assert!(game.sheets.white.as_ref().is_some_and(|s| s.complete));
    assert!(game.sheets.black.as_ref().is_some_and(|s| s.complete));
    assert_eq!(game.meta.result.code().as_deref(), Some("white game_time"));
    assert!(has_text(&h, "both sheets are in: reading finished"));
    assert!(!has_text(&h, "Reading time left"), "{:?}", all_text(&h));
    assert!(
        !has_text(&h, "Reading time is over ("),
        "the timer stopped at the result"
    );
    let log = store(&h).audit_log(AuditFilter::Game(id.0)).expect("log");
    let by_time: Vec<_> = log
        .iter()
        .filter(|e| {
            e.action == "reading sheet handed in" && e.actor == "director's desk (automatic)"
        })
        .collect();
    assert_eq!(by_time.len(), 2, "{log:?}");
}

#[test]
fn lots_are_drawn_once_and_shown() {
    let clock = clock();
    let mut h = on_tables(&clock);
    click(&mut h, "New practice table");
    let id = open_game(&h);
    click(&mut h, "Random setup");
    click(&mut h, "Enter Black's setup");
    click(&mut h, "Random setup");
    click(&mut h, "Draw lots");
    assert!(h.query_by_label("Draw lots").is_none(), "drawn once");
    let first = store(&h).load_game(id).expect("g").meta.first;
    let words = match first {
        Side::White => "Drawn by lot: White moves first",
        Side::Black => "Drawn by lot: Black moves first",
    };
    assert!(has_text(&h, words), "{:?}", all_text(&h));
    click(&mut h, "Start clocks");
    let game = h.state().tables.tables.tables[&id]
        .game_at(clock.get())
        .expect("started");
    assert_eq!(game.to_move(), first);
    let log = store(&h).audit_log(AuditFilter::Game(id.0)).expect("log");
    assert_eq!(log.iter().filter(|e| e.action == "lots drawn").count(), 1);
}

const WHITE_SHEET: &str = "PVT PVT PVT PVT PVT PVT SPY SPY -\n\
                           G5 G4 G3 G2 G1 COL LTC MAJ CPT\n\
                           1LT 2LT SGT FLG - - - - -";

#[test]
fn a_setup_is_typed_from_the_sheet_with_the_palettes_checks() {
    let clock = clock();
    let mut h = on_tables(&clock);
    click(&mut h, "New practice table");
    let id = open_game(&h);
    let label = "Or type White's sheet: ranks 3, 2, 1, one line each, files a-i (- for empty)";
    type_into(&mut h, label, &WHITE_SHEET.replace("MAJ", "MJR"));
    click(&mut h, "Use the typed setup for White");
    assert!(
        has_text(&h, "line 2 (rank 2), h2: \"MJR\""),
        "{:?}",
        all_text(&h)
    );
    assert!(store(&h).load_game(id).expect("g").setup.white.is_none());
    // The text was kept for correction: select it all and paste the corrected sheet.
    h.get_by_label(label).focus();
    h.run();
    one_frame(
        &mut h,
        vec![
            egui::Event::Key {
                key: egui::Key::A,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers: egui::Modifiers::COMMAND,
            },
            egui::Event::Paste(WHITE_SHEET.to_string()),
        ],
    );
    click(&mut h, "Use the typed setup for White");
    let setup = store(&h)
        .load_game(id)
        .expect("g")
        .setup
        .white
        .expect("saved");
    assert_eq!(setup.placements.len(), 21);
    assert!(has_text(&h, "White's setup (21/21) complete"));
}

#[test]
fn undo_names_the_event_it_undoes_and_pause_and_penalties_go_through_the_desk() {
    let clock = clock();
    let mut h = on_tables(&clock);
    started_practice_table(&mut h);
    let id = open_game(&h);
    clock.set(START_MS + 5_000);
    type_move(&mut h, "d2-d3");
    click(&mut h, "Undo last event…");
    assert!(
        has_text(&h, "This undoes event 0, move d2-d3 at 0:05"),
        "{:?}",
        all_text(&h)
    );
    type_into(
        &mut h,
        "Reason (kept in the audit log):",
        "wrong piece entered",
    );
    click(&mut h, "Undo");
    assert_eq!(plies(&h, clock.get()), 0);
    // Pause and resume by the button.
    click(&mut h, "Pause (F8)");
    assert_eq!(phase(&h, clock.get()), Phase::Paused);
    click(&mut h, "Resume (F8)");
    assert_eq!(phase(&h, clock.get()), Phase::Playing);
    // White exposes its own piece: White loses its move (it is White's turn: Black moves).
    h.get_all_by_label("Own exposure")
        .next()
        .expect("White's")
        .click();
    h.run();
    type_into(
        &mut h,
        "Reason (kept in the audit log):",
        "turned a piece over",
    );
    click(&mut h, "Penalise White");
    let game = h.state().tables.tables.tables[&id]
        .game_at(clock.get())
        .expect("game");
    assert_eq!(game.to_move(), Side::Black);
    // Black causes the exposure of White's piece: Black loses.
    h.get_all_by_label("Caused exposure")
        .nth(1)
        .expect("Black's")
        .click();
    h.run();
    type_into(
        &mut h,
        "Reason (kept in the audit log):",
        "showed the opponent's piece",
    );
    click(&mut h, "Penalise Black");
    match phase(&h, clock.get()) {
        Phase::Finished(o) => {
            assert_eq!(o.winner(), Some(Side::White));
            assert_eq!(o.reason().code(), "caused_exposure");
        }
        other => panic!("expected a win by caused exposure, got {other:?}"),
    }
}

#[test]
fn draw_for_respect_is_offered_only_when_the_rules_allow_it() {
    let clock = clock();
    let mut s = Store::open_in_memory().expect("store");
    let new = NewGame {
        ratings: Some(BySide::new(1500.0, 1500.0)),
        ..NewGame::standalone()
    };
    s.create_game(&new, &Actor::arbiter(None)).expect("game");
    let mut h = desk(s, Page::Tables, None, &clock);
    h.get_by_label_contains("Open Practice").click();
    h.run();
    enter_setup(&mut h, Side::White);
    enter_setup(&mut h, Side::Black);
    click(&mut h, "White moves first");
    click(&mut h, "Start clocks");
    assert!(!is_enabled(&h, "Draw for respect"));
    assert!(has_text(&h, "each side needs 10 complete moves"));
    let mut t = START_MS;
    for i in 0..10 {
        let (w, b) = if i % 2 == 0 {
            ("d2-d3", "d7-d6")
        } else {
            ("d3-d2", "d6-d7")
        };
        t += 2_000;
        clock.set(t);
        type_move(&mut h, w);
        t += 2_000;
        clock.set(t);
        type_move(&mut h, b);
    }
    assert_eq!(plies(&h, t), 20, "{:?}", all_text(&h));
    assert!(is_enabled(&h, "Draw for respect"));
    click(&mut h, "Draw for respect");
    click(&mut h, "Record the draw");
    match phase(&h, t) {
        Phase::Finished(o) => {
            assert_eq!(o.winner(), None);
            assert_eq!(o.reason().code(), "respect");
        }
        other => panic!("expected a draw for respect, got {other:?}"),
    }
}

#[test]
fn ranks_are_hidden_by_default_and_the_other_side_is_hidden_during_setup_entry() {
    let clock = clock();
    let mut h = on_tables(&clock);
    click(&mut h, "New practice table");
    enter_setup(&mut h, Side::White);
    h.get_by_label_contains("Black's setup (").click();
    h.run();
    // While Black's setup is entered, White's squares show nothing.
    let texts = all_text(&h);
    assert!(texts.iter().any(|t| t == "empty"));
    assert!(!texts.iter().any(|t| t.starts_with("white ")), "{texts:?}");
    enter_setup(&mut h, Side::Black);
    assert!(all_text(&h).iter().any(|t| t == "black G5"));
    assert!(!all_text(&h).iter().any(|t| t.starts_with("white ")));
    click(&mut h, "White moves first");
    click(&mut h, "Start clocks");
    assert!(!h.state().tables.show_ranks, "ranks are off by default");
    let texts = all_text(&h);
    assert!(texts.iter().any(|t| t == "white piece"));
    assert!(!texts.iter().any(|t| t == "white G5"), "{texts:?}");
    click(&mut h, "Show ranks (arbiter only)");
    assert!(all_text(&h).iter().any(|t| t == "white G5"));
}

#[test]
fn a_practice_table_belongs_to_the_chosen_tournament_and_can_be_removed() {
    let clock = clock();
    let mut s = Store::open_in_memory().expect("store");
    let a = s
        .create_tournament(
            &ggdesk::store::TournamentSetup {
                name: "Open".into(),
                ..ggdesk::store::TournamentSetup::default()
            },
            &Actor::director(),
        )
        .expect("t");
    let mut h = desk(s, Page::Tables, Some(a), &clock);
    click(&mut h, "New practice table");
    let id = open_game(&h);
    assert_eq!(
        store(&h).load_game(id).expect("g").meta.tournament_id,
        Some(a)
    );
    click(&mut h, "Remove this practice table…");
    click(&mut h, "Remove");
    assert!(h.state().tables.selected.is_none());
    assert!(store(&h).load_game(id).expect("kept").meta.void);
    assert!(h.query_by_label_contains("Open Practice").is_none());
}

#[test]
fn handing_in_a_sheet_with_no_reading_asks_first() {
    let clock = clock();
    let mut h = on_tables(&clock);
    started_practice_table(&mut h);
    let id = open_game(&h);
    clock.set(START_MS + 7_200_500);
    h.run();
    h.run();
    click(&mut h, "Hand in White's sheet");
    assert!(has_text(&h, "Hand in White's sheet with no reading?"));
    click(&mut h, "Cancel");
    assert!(store(&h).load_game(id).expect("g").sheets.white.is_none());
    click(&mut h, "Hand in White's sheet");
    click(&mut h, "Hand in the empty sheet");
    let game = store(&h).load_game(id).expect("g");
    assert!(game.sheets.white.as_ref().is_some_and(|s| s.complete));
}

#[test]
fn the_player_view_marks_the_last_move_and_shows_the_result_in_words() {
    let clock = clock();
    let mut h = on_tables(&clock);
    started_practice_table(&mut h);
    clock.set(START_MS + 4_000);
    type_move(&mut h, "d2-d3");
    click(&mut h, "Player view full screen");
    assert!(has_text(&h, "Black to move"));
    click(&mut h, "Leave player view");
    h.get_all_by_label("Resigns")
        .nth(1)
        .expect("Black's")
        .click();
    h.run();
    click(&mut h, "Record resignation");
    click(&mut h, "Player view full screen");
    assert!(
        has_text(&h, "White wins — resignation"),
        "{:?}",
        all_text(&h)
    );
}

#[test]
fn an_imported_record_is_picked_from_a_file_and_its_result_goes_to_no_round() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("waiting.json");
    std::fs::write(
        &file,
        include_str!("fixtures/examples/game_time_pending.json"),
    )
    .expect("write");
    let clock = clock();
    let (mut h, opened) = common::desk_recording(
        Store::open(&dir.path().join("desk.sqlite3")).expect("store"),
        Page::Tables,
        None,
        &clock,
    );
    click(&mut h, "Import a game record…");
    type_into(
        &mut h,
        "File (a name here, or a whole path):",
        &file.display().to_string(),
    );
    click(&mut h, "Open");
    assert_eq!(
        phase(&h, clock.get()),
        Phase::AdjudicationPending,
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "Imported game"));
    click(&mut h, "Hand in White's sheet");
    click(&mut h, "Hand in the empty sheet");
    click(&mut h, "Hand in Black's sheet");
    click(&mut h, "Hand in the empty sheet");
    assert!(
        has_text(
            &h,
            "An imported record: the result stays with the game (it belongs to no round)."
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(!has_text(&h, "has gone to round"));
    click(&mut h, "Print adjudication form");
    let form = opened.borrow().last().cloned().expect("the form opened");
    let html = std::fs::read_to_string(form).expect("written");
    assert!(html.contains("Imported game"), "{html}");
    assert!(!html.contains("Practice table"));
}

#[test]
fn a_damaged_game_marks_its_own_table_and_every_other_table_shows() {
    let clock = clock();
    let file = std::env::temp_dir().join(format!("ggdesk-damaged-{}.sqlite3", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let mut store = Store::open(&file).expect("store");
    let d = Actor::director();
    let mut ids = Vec::new();
    for _ in 0..2 {
        ids.push(
            store
                .create_game(&NewGame::standalone(), &d)
                .expect("a practice table"),
        );
    }
    // The stored rules of the first game are damaged outside ggdesk (S1: a value the rules
    // cannot read).
    let raw = rusqlite::Connection::open(&file).expect("the file");
    raw.execute(
        "UPDATE games SET rules = '{\"move_limit_s\": \"abc\"}' WHERE id = ?1",
        [ids[0].0],
    )
    .expect("damage the row");
    drop(raw);
    let mut h = desk(store, Page::Tables, None, &clock);
    one_frame(&mut h, vec![]);
    let text = all_text(&h).join("\n");
    assert!(
        !text.contains("The database could not be read"),
        "one damaged game blanks the page: {text}"
    );
    assert!(has_text(&h, "DAMAGED"), "{text}");
    assert!(
        text.contains(&format!("Practice {}", ids[1].0)),
        "the sound table shows: {text}"
    );
    assert!(
        text.contains(&format!(
            "This table's stored game cannot be read: the database is damaged: table games, \
             game {}: rules.move_limit_s must be a number of seconds, not negative.",
            ids[0].0
        )),
        "{text}"
    );
    let _ = std::fs::remove_file(&file);
}
