//! The director's desk as a director uses it (issues 14 and 11): shortcuts that wait while
//! a field has the keyboard, Tab and digits typed fast landing in their own fields, the
//! Tables page following the round in play, printouts with the tournament's details and a
//! way to their folder, the refusal screens for a newer and a damaged database, a damaged
//! row shown as such, standings on the last complete round, the audit log searched and
//! exported, bans, discards and re-pairing, a warning when a desk game's result is
//! overridden, and a confirmation before a result for a board still played at the desk.

mod common;
#[path = "support/games.rs"]
mod games;

use common::{
    START_MS, all_text, click, desk, desk_recording, go, has_text, key_event, one_frame,
    shown_players, store, type_into,
};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ggdesk::store::{
    Actor, AnyEvent, AuditFilter, GameMode, NewGame, PlayerInput, RoundState, Store,
    TournamentSetup,
};
use ggdesk::store::{GameId, TournamentId};
use ggdesk::ui::{DeskApp, Page, Prefs, TimeSource};
use ggdesk_core::rules::{Event, Side};
use ggdesk_core::tournament::{GameResult, RoundNo, TableNo};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::cell::Cell;
use std::rc::Rc;

fn clock() -> Rc<Cell<i64>> {
    Rc::new(Cell::new(START_MS))
}

const NAMES: [(&str, i64); 8] = [
    ("Villanueva, Jo", 2000),
    ("Ñora, Ana", 1900),
    ("Cruz, Ben", 1800),
    ("Émile, Dee", 1700),
    ("Abad, Cy", 1600),
    ("Bautista, Ed", 1500),
    ("Lim, Fay", 1400),
    ("Go, Gus", 1300),
];

/// A tournament of `n` players (from `NAMES`) with round 1 published.
fn event(store: &mut Store, n: usize) -> TournamentId {
    let tid = drafted_event(store, n);
    store
        .publish_round(tid, RoundNo(1), &Actor::director())
        .expect("publish");
    tid
}

/// A tournament of `n` players (from `NAMES`) with round 1 paired as a draft.
fn drafted_event(store: &mut Store, n: usize) -> TournamentId {
    let tid = registered_event(store, n);
    let d = Actor::director();
    assert_eq!(store.pair_round(tid, &d).expect("pair").round, RoundNo(1));
    tid
}

/// A tournament of `n` players (from `NAMES`), registered, with no round paired.
fn registered_event(store: &mut Store, n: usize) -> TournamentId {
    let d = Actor::director();
    let setup = TournamentSetup {
        name: "Hall Open".into(),
        ..TournamentSetup::default()
    };
    let tid = store.create_tournament(&setup, &d).expect("t");
    let ids: Vec<_> = NAMES[..n]
        .iter()
        .map(|(name, rating)| {
            let p = PlayerInput {
                name: (*name).into(),
                federation_id: String::new(),
                club: String::new(),
                rating: *rating,
            };
            store.add_player(&p, &d).expect("player")
        })
        .collect();
    store.register_all(tid, &ids, &d).expect("register");
    tid
}

/// A desk game of round 1 at `table`, started, ended by a resignation of `loser`.
fn desk_game(store: &mut Store, tid: TournamentId, round: u32, table: u32, loser: Side) -> i64 {
    let id = started_desk_game(store, tid, round, table, Default::default());
    store
        .append(
            id,
            2.0,
            AnyEvent::Game(Event::Resign(loser)),
            &arbiter_of(table),
            "",
        )
        .expect("resign");
    id.0
}

/// The desk game of a round's board at `table` under `rules`, set up at random and started
/// at `START_MS`, White to move.
fn started_desk_game(
    store: &mut Store,
    tid: TournamentId,
    round: u32,
    table: u32,
    rules: ggdesk_core::rules::RuleSettings,
) -> GameId {
    let setups = games::random_both(&mut StdRng::seed_from_u64(u64::from(table)));
    let new = board_game(store, tid, round, table, rules);
    games::start_with(store, &new, &setups, START_MS, &arbiter_of(table)).expect("start")
}

/// The desk game of a round's board at `table` under `rules`, created by its arbiter.
fn new_desk_game(
    store: &mut Store,
    tid: TournamentId,
    round: u32,
    table: u32,
    rules: ggdesk_core::rules::RuleSettings,
) -> GameId {
    let new = board_game(store, tid, round, table, rules);
    store.create_game(&new, &arbiter_of(table)).expect("game")
}

/// The game of a round's board at `table` under `rules`, not created yet.
fn board_game(
    store: &Store,
    tid: TournamentId,
    round: u32,
    table: u32,
    rules: ggdesk_core::rules::RuleSettings,
) -> NewGame {
    let board = store
        .event(tid)
        .expect("event")
        .boards_by_table(RoundNo(round))
        .into_iter()
        .find(|b| b.table == TableNo(table))
        .expect("board");
    NewGame::for_board(tid, RoundNo(round), &board, GameMode::Arbitrated, rules)
}

fn arbiter_of(table: u32) -> Actor {
    Actor::arbiter(Some(table.into()))
}

/// Makes the backups of the database in `dir` impossible to write: a file stands where
/// their folder goes.
fn break_backups(dir: &std::path::Path) {
    let backups = dir.join("backups");
    if backups.exists() {
        std::fs::remove_dir_all(&backups).expect("remove the folder");
    }
    std::fs::write(&backups, b"not a folder").expect("a file in its place");
}

#[test]
fn result_keys_wait_while_the_start_time_field_has_the_keyboard() {
    let clock = clock();
    let mut s = Store::open_in_memory().expect("store");
    let tid = event(&mut s, 4);
    let mut h = desk(s, Page::Rounds, Some(tid), &clock);
    one_frame(&mut h, vec![key_event(egui::Key::ArrowDown)]);
    h.get_by_label("or official start at (HH:MM):").focus();
    h.run();
    // W, B and D typed as a keyboard sends them: a key press and a character each.
    let mut keys = Vec::new();
    for (key, ch) in [
        (egui::Key::W, "w"),
        (egui::Key::B, "b"),
        (egui::Key::D, "d"),
    ] {
        keys.push(key_event(key));
        keys.push(egui::Event::Text(ch.into()));
    }
    one_frame(&mut h, keys);
    let v = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r");
    assert!(v.boards.iter().all(|b| b.result == GameResult::Pending));
    assert_eq!(h.state().rounds.start_text, "wbd");
    // Out of the field, W enters White's win on the table chosen.
    one_frame(&mut h, vec![key_event(egui::Key::Escape)]);
    one_frame(&mut h, vec![key_event(egui::Key::W)]);
    let v = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r");
    assert_eq!(v.boards[0].result, GameResult::WhiteWins);
}

#[test]
fn tab_and_digits_typed_in_one_frame_land_in_their_own_fields() {
    let clock = clock();
    let mut h = desk(
        Store::open_in_memory().expect("store"),
        Page::Players,
        None,
        &clock,
    );
    type_into(&mut h, "Club:", "Q");
    // "C", Tab, "18" reach the desk in one frame, as a fast typist's or a scanner's keys do.
    one_frame(
        &mut h,
        vec![
            egui::Event::Text("C".into()),
            key_event(egui::Key::Tab),
            egui::Event::Text("1".into()),
            egui::Event::Text("8".into()),
        ],
    );
    let form = &h.state().players.form;
    assert_eq!(form.club, "QC");
    assert_eq!(form.rating, "18");
    // Shift+Tab goes back the same way.
    one_frame(
        &mut h,
        vec![
            egui::Event::Text("0".into()),
            egui::Event::Key {
                key: egui::Key::Tab,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers: egui::Modifiers::SHIFT,
            },
            egui::Event::Text("!".into()),
        ],
    );
    let form = &h.state().players.form;
    assert_eq!(form.rating, "180");
    assert_eq!(form.club, "QC!");
}

#[test]
fn the_tables_page_follows_the_round_in_play_and_names_a_table_from_its_game() {
    let clock = clock();
    let mut s = Store::open_in_memory().expect("store");
    let tid = event(&mut s, 4);
    desk_game(&mut s, tid, 1, 1, Side::White);
    let mut h = desk(s, Page::Tables, Some(tid), &clock);
    h.get_by_label("Open Table 1").click();
    h.run();
    assert!(
        has_text(&h, "Table 1 · round 1 · Hall Open"),
        "{:?}",
        all_text(&h)
    );
    // Round 1 ends by hand at table 2; round 2 is paired and published.
    go(&mut h, Page::Rounds);
    click(&mut h, "Result of table 2");
    click(&mut h, "Draw");
    click(&mut h, "Pair round 2");
    click(&mut h, "Publish round 2");
    // F5: the tables of round 2, not the round-1 game last looked at.
    one_frame(&mut h, vec![key_event(egui::Key::F5)]);
    assert_eq!(h.state().tables.selected, None);
    assert!(has_text(&h, "Hall Open — round 2"), "{:?}", all_text(&h));
    h.get_all_by_label("Arbitrate here")
        .next()
        .expect("a board")
        .click();
    h.run();
    assert!(has_text(&h, "Table 1 · round 2 · Hall Open"));
}

#[test]
fn printouts_carry_the_details_and_say_where_they_went() {
    let dir = tempfile::tempdir().expect("dir");
    let clock = clock();
    let mut s = Store::open(&dir.path().join("hall.sqlite3")).expect("store");
    let tid = event(&mut s, 5);
    let (mut h, opened) = desk_recording(s, Page::Tournaments, Some(tid), &clock);
    type_into(&mut h, "Venue:", "Quezon City");
    type_into(&mut h, "Chief arbiter:", "M. Santos");
    click(&mut h, "Save details");
    go(&mut h, Page::Rounds);
    click(&mut h, "Print pairings");
    click(&mut h, "Print by name");
    click(&mut h, "Print result slips");
    let exports = dir.path().join("exports");
    let read = |name: &str| std::fs::read_to_string(exports.join(name)).expect(name);
    let by_table = read("hall-open-round-1-pairings.html");
    let by_name = read("hall-open-round-1-pairings-by-name.html");
    let slips = read("hall-open-round-1-result-slips.html");
    for html in [&by_table, &by_name, &slips] {
        assert!(html.contains("<h1>Hall Open</h1>"));
        assert!(html.contains("Quezon City"));
        assert!(html.contains("Chief arbiter: M. Santos"));
    }
    assert!(read("hall-open-round-1-pairings.csv").starts_with("table,white_id"));
    // By name: Abad before Bautista before Cruz before Émile before Ñora before Villanueva.
    let pos = |n: &str| {
        by_name
            .find(&format!("<b>{n}</b>"))
            .unwrap_or_else(|| panic!("{n}"))
    };
    assert!(pos("Abad, Cy") < pos("Cruz, Ben"));
    assert!(pos("Cruz, Ben") < pos("Émile, Dee"));
    assert!(pos("Émile, Dee") < pos("Ñora, Ana"));
    assert!(pos("Ñora, Ana") < pos("Villanueva, Jo"));
    assert_eq!(slips.matches("<div>Arbiter</div>").count(), 2);
    assert_eq!(opened.borrow().len(), 3, "each page opened to print");
    // Each notice says the full path, and its folder opens from the notice.
    let full = std::fs::canonicalize(exports.join("hall-open-round-1-result-slips.html"))
        .expect("written");
    assert!(
        has_text(&h, &full.display().to_string()),
        "{:?}",
        all_text(&h)
    );
    h.get_all_by_label("Open folder")
        .last()
        .expect("a notice")
        .click();
    h.run();
    let last = opened.borrow().last().cloned().expect("folder opened");
    assert_eq!(last, std::fs::canonicalize(&exports).expect("dir"));
}

fn refusal_desk(path: &std::path::Path, clock: &Rc<Cell<i64>>) -> Harness<'static, DeskApp> {
    let app = DeskApp::new(
        ggdesk::ui::open_store(path),
        Prefs::default(),
        TimeSource::Manual(clock.clone()),
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .build_ui_state(|ui, app: &mut DeskApp| app.show(ui), app);
    h.run();
    h
}

#[test]
fn the_desk_refuses_a_newer_and_a_damaged_database_and_leaves_them_untouched() {
    let dir = tempfile::tempdir().expect("dir");
    let clock = clock();
    let newer = dir.path().join("newer.sqlite3");
    drop(Store::open(&newer).expect("create"));
    {
        let conn = rusqlite::Connection::open(&newer).expect("open");
        conn.pragma_update(None, "user_version", 99).expect("v");
    }
    let before = std::fs::read(&newer).expect("bytes");
    let h = refusal_desk(&newer, &clock);
    assert!(has_text(&h, "The database cannot be opened"));
    assert!(
        has_text(&h, "written by a newer ggdesk"),
        "{:?}",
        all_text(&h)
    );
    assert!(h.state().store().is_none());
    drop(h);
    assert_eq!(std::fs::read(&newer).expect("bytes"), before);

    let damaged = dir.path().join("damaged.sqlite3");
    let mut bytes = std::fs::read(&newer).expect("bytes");
    // A page of the file overwritten: no longer a database.
    for b in bytes.iter_mut().skip(20).take(4000) {
        *b = 0x5a;
    }
    std::fs::write(&damaged, &bytes).expect("write");
    let h = refusal_desk(&damaged, &clock);
    assert!(has_text(&h, "The database cannot be opened"));
    assert!(
        has_text(&h, "not a ggdesk database") || has_text(&h, "damaged"),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "Nothing was changed in the file"));
    drop(h);
    assert_eq!(std::fs::read(&damaged).expect("bytes"), bytes);
}

#[test]
fn a_damaged_row_is_shown_as_a_failure_never_as_an_empty_page() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("hall.sqlite3");
    let clock = clock();
    let tid = {
        let mut s = Store::open(&path).expect("store");
        event(&mut s, 4)
    };
    {
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.execute(
            "UPDATE registrations SET rating = 'high' WHERE player_no = 2",
            [],
        )
        .expect("damage");
    }
    let mut h = desk(
        Store::open(&path).expect("store"),
        Page::Registration,
        Some(tid),
        &clock,
    );
    h.run();
    assert!(
        has_text(&h, "The database could not be read"),
        "{:?}",
        all_text(&h)
    );
    assert!(
        has_text(&h, "Could not read the registrations"),
        "{:?}",
        all_text(&h)
    );
    assert!(!has_text(&h, "0 registered"));
}

#[test]
fn standings_open_on_the_last_complete_round_and_label_a_round_in_play() {
    let clock = clock();
    let mut s = Store::open_in_memory().expect("store");
    let tid = event(&mut s, 4);
    let d = Actor::director();
    for b in s.round_view(tid, RoundNo(1)).expect("v").expect("r").boards {
        s.set_result(tid, RoundNo(1), b.board, GameResult::WhiteWins, "", &d)
            .expect("result");
    }
    let r2 = s.pair_round(tid, &d).expect("pair").round;
    s.publish_round(tid, r2, &d).expect("publish");
    let first = s.round_view(tid, RoundNo(2)).expect("v").expect("r").boards[0].board;
    s.set_result(tid, RoundNo(2), first, GameResult::BlackWins, "", &d)
        .expect("one result of round 2");
    let mut h = desk(s, Page::Standings, Some(tid), &clock);
    let shown = h.state().standings.standings.clone().expect("standings");
    assert_eq!(shown.after_round, 1, "the last complete round");
    assert!(has_text(
        &h,
        "Final for the rounds counted; a round is in play"
    ));
    click(&mut h, "After round:");
    click(&mut h, "2 (in play: provisional)");
    assert_eq!(
        h.state()
            .standings
            .standings
            .as_ref()
            .expect("s")
            .after_round,
        2
    );
    assert!(has_text(&h, "PROVISIONAL: a round counted is in play"));
    // The cross-table's cells: sign, opponent, and the colour apart.
    click(&mut h, "Cross-table");
    let texts = all_text(&h);
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with('+') || t.starts_with('-'))
    );
    assert!(texts.iter().any(|t| t == "w") && texts.iter().any(|t| t == "b"));
    assert!(
        !texts
            .iter()
            .any(|t| t.starts_with('W') && t[1..].parse::<u32>().is_ok())
    );
}

#[test]
fn the_audit_log_reads_in_words_is_searched_and_exported() {
    let dir = tempfile::tempdir().expect("dir");
    let clock = clock();
    let mut s = Store::open(&dir.path().join("hall.sqlite3")).expect("store");
    let tid = event(&mut s, 4);
    desk_game(&mut s, tid, 1, 2, Side::Black);
    let (mut h, _) = desk_recording(s, Page::Settings, Some(tid), &clock);
    let texts = all_text(&h);
    assert!(
        texts.iter().any(|t| t.contains("Black resigns at 0:02")),
        "{texts:?}"
    );
    assert!(
        !texts.iter().any(|t| t.contains("{\"t\"")),
        "raw JSON shown"
    );
    type_into(&mut h, "Table:", "2");
    type_into(&mut h, "Who:", "arbiter");
    let rows = all_text(&h);
    assert!(rows.iter().any(|t| t.contains("Black resigns")));
    assert!(!rows.iter().any(|t| t == "round published"), "{rows:?}");
    h.get_by_label_contains("lines as CSV").click();
    h.run();
    let exports = dir.path().join("exports");
    let file = std::fs::read_dir(&exports)
        .expect("exports")
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("audit-log-"))
        .expect("the CSV");
    let csv = std::fs::read_to_string(file.path()).expect("read");
    assert!(csv.starts_with("at,who,what,tournament,round,table,game,reason,details"));
    assert!(csv.contains("Black resigns at 0:02"));
    assert!(
        csv.lines().skip(1).all(|l| l.contains("arbiter (table 2)")),
        "{csv}"
    );
}

#[test]
fn discard_repair_and_ban_go_through_the_desk() {
    let clock = clock();
    let mut s = Store::open_in_memory().expect("store");
    let tid = event(&mut s, 4);
    let mut h = desk(s, Page::Rounds, Some(tid), &clock);
    // Re-pair the published round, with a reason.
    click(&mut h, "Re-pair round 1");
    type_into(
        &mut h,
        "Reason (kept in the audit log):",
        "wrong players registered",
    );
    click(&mut h, "Re-pair");
    h.run();
    let v = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r");
    assert_eq!(v.state, RoundState::Draft);
    // Discard the draft.
    click(&mut h, "Discard draft");
    click(&mut h, "Discard");
    assert!(store(&h).round_view(tid, RoundNo(1)).expect("v").is_none());
    // Ban a player for collusion: withdrawn, never paired again.
    go(&mut h, Page::Registration);
    let row = store(&h).registrations(tid).expect("r")[0].clone();
    h.state_mut().registration.selected = Some(row.no);
    h.run();
    click(&mut h, "Ban for collusion");
    type_into(
        &mut h,
        "Reason (kept in the audit log):",
        "collusion in round 1",
    );
    click(&mut h, "Ban");
    let after = store(&h).registrations(tid).expect("r");
    assert!(after[0].banned && after[0].withdrawn);
    go(&mut h, Page::Rounds);
    click(&mut h, "Pair round 1");
    let v = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("draft");
    assert!(
        v.boards
            .iter()
            .all(|b| b.white.no != row.no && b.black.no != row.no)
    );
}

#[test]
fn overriding_a_desk_games_result_warns_that_it_contradicts_the_record() {
    let clock = clock();
    let mut s = Store::open_in_memory().expect("store");
    let tid = event(&mut s, 4);
    desk_game(&mut s, tid, 1, 1, Side::White);
    let mut h = desk(s, Page::Rounds, Some(tid), &clock);
    click(&mut h, "Result of table 1");
    click(&mut h, "White wins");
    assert!(
        has_text(&h, "contradicts the game's record"),
        "{:?}",
        all_text(&h)
    );
    type_into(&mut h, "Reason (kept in the audit log):", "appeal upheld");
    click(&mut h, "Change the result");
    let v = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r");
    assert_eq!(v.boards[0].result, GameResult::WhiteWins);
    let log = store(&h)
        .audit_log(AuditFilter::Tournament(tid))
        .expect("log");
    assert!(
        log.iter()
            .any(|e| e.action == "result changed" && e.reason == "appeal upheld")
    );
}

/// A desk game of `round` at `table` whose setups are being entered (not started).
fn game_in_setup(store: &mut Store, tid: TournamentId, round: u32, table: u32) -> i64 {
    new_desk_game(store, tid, round, table, Default::default()).0
}

/// A result entered by hand for a board whose game is under way at the desk (seen in a
/// trial: table 2's game was in setup, D on the Rounds page completed the round and the
/// table played on) asks first, naming the game and saying its result will replace this
/// one; nothing is written until confirmed.
#[test]
fn a_result_for_a_board_played_at_the_desk_asks_first_and_says_the_game_replaces_it() {
    let clock = clock();
    let mut s = Store::open_in_memory().expect("store");
    let tid = event(&mut s, 4);
    let game = game_in_setup(&mut s, tid, 1, 1);
    let mut h = desk(s, Page::Rounds, Some(tid), &clock);
    let board = |h: &Harness<'_, DeskApp>| {
        store(h)
            .round_view(tid, RoundNo(1))
            .expect("v")
            .expect("r")
            .boards
            .into_iter()
            .find(|b| b.table == TableNo(1))
            .expect("table 1")
    };
    assert_eq!(board(&h).game, Some(GameId(game)));
    one_frame(&mut h, vec![key_event(egui::Key::ArrowDown)]);
    assert_eq!(h.state().rounds.board, Some(board(&h).board));
    for key in [egui::Key::W, egui::Key::B, egui::Key::D] {
        one_frame(&mut h, vec![key_event(key)]);
        assert!(
            has_text(&h, &format!("Game {game} of table 1 is being set up"))
                && has_text(&h, "replaces this one"),
            "{key:?}: {:?}",
            all_text(&h)
        );
        assert_eq!(board(&h).result, GameResult::Pending, "{key:?} waits");
        one_frame(&mut h, vec![key_event(egui::Key::Escape)]);
        assert!(!has_text(&h, "replaces this one"), "{key:?}: cancelled");
        assert_eq!(board(&h).result, GameResult::Pending, "{key:?} cancelled");
    }
    // Confirmed with a reason, the result is entered (the game still to replace it).
    one_frame(&mut h, vec![key_event(egui::Key::D)]);
    type_into(
        &mut h,
        "Reason (kept in the audit log):",
        "players agreed a draw",
    );
    click(&mut h, "Enter the result");
    assert_eq!(board(&h).result, GameResult::Draw);
    let log = store(&h)
        .audit_log(AuditFilter::Tournament(tid))
        .expect("log");
    assert!(
        log.iter()
            .any(|e| e.action == "result entered" && e.reason == "players agreed a draw")
    );
}

/// A round completed by a clock running out at the desk, whose backup cannot be written
/// (a file where the backups folder goes), says so as an error, not as good news.
#[test]
fn a_round_completed_by_a_clock_with_a_failed_backup_says_so_as_an_error() {
    let dir = tempfile::tempdir().expect("dir");
    let clock = clock();
    let mut s = Store::open(&dir.path().join("hall.sqlite3")).expect("store");
    let tid = event(&mut s, 2);
    let table = s.event(tid).expect("event").boards_by_table(RoundNo(1))[0]
        .table
        .0;
    let rules = ggdesk_core::rules::RuleSettings {
        oversteps_to_lose: 1,
        ..Default::default()
    };
    started_desk_game(&mut s, tid, 1, table, rules);
    break_backups(dir.path());
    let mut h = desk(s, Page::Tables, Some(tid), &clock);
    // White's move time runs out: the one overstep loses, the round's only board is decided.
    clock.set(START_MS + 121_000);
    h.run();
    h.run();
    assert_eq!(
        store(&h)
            .round_view(tid, RoundNo(1))
            .expect("v")
            .expect("r")
            .state,
        RoundState::Complete
    );
    let notices = &h.state().notices.items;
    let complete = notices
        .iter()
        .find(|n| n.text.starts_with("Round 1 is complete"))
        .unwrap_or_else(|| panic!("no completion notice in {notices:?}"));
    assert!(complete.text.contains("the backup failed"), "{complete:?}");
    assert!(complete.error, "a failed backup is an error: {complete:?}");
}

/// On the Rounds page too, a publication and a completion whose backup cannot be written
/// say so as errors (the round is published, then complete, all the same).
#[test]
fn a_round_published_and_completed_with_a_failed_backup_says_so_as_errors() {
    let dir = tempfile::tempdir().expect("dir");
    let clock = clock();
    let mut s = Store::open(&dir.path().join("hall.sqlite3")).expect("store");
    let tid = drafted_event(&mut s, 2);
    break_backups(dir.path());
    let mut h = desk(s, Page::Rounds, Some(tid), &clock);
    let notice = |h: &Harness<'_, DeskApp>, start: &str| {
        let notices = &h.state().notices.items;
        notices
            .iter()
            .find(|n| n.text.starts_with(start))
            .cloned()
            .unwrap_or_else(|| panic!("no {start:?} in {notices:?}"))
    };
    click(&mut h, "Publish round 1");
    assert_eq!(
        store(&h)
            .round_view(tid, RoundNo(1))
            .expect("v")
            .expect("r")
            .state,
        RoundState::Published
    );
    let published = notice(&h, "Round 1 published");
    assert!(
        published.text.contains("the backup failed"),
        "{published:?}"
    );
    assert!(
        published.error,
        "a failed backup is an error: {published:?}"
    );
    one_frame(&mut h, vec![key_event(egui::Key::ArrowDown)]);
    one_frame(&mut h, vec![key_event(egui::Key::W)]);
    assert_eq!(
        store(&h)
            .round_view(tid, RoundNo(1))
            .expect("v")
            .expect("r")
            .state,
        RoundState::Complete
    );
    let complete = notice(&h, "Round 1 is complete");
    assert!(complete.text.contains("the backup failed"), "{complete:?}");
    assert!(complete.error, "a failed backup is an error: {complete:?}");
}

#[test]
fn players_are_imported_through_the_file_picker_and_sort_as_people_expect() {
    let dir = tempfile::tempdir().expect("dir");
    let csv = dir.path().join("players.csv");
    std::fs::write(
        &csv,
        "name,federation_id,club,rating\nVillanueva,G1,QC,1700\nÑora,G2,QC,1600\nAbad,G3,QC,1500\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("notes.txt"), "not a csv").expect("write");
    let clock = clock();
    let mut h = desk(
        Store::open(&dir.path().join("hall.sqlite3")).expect("store"),
        Page::Players,
        None,
        &clock,
    );
    click(&mut h, "Choose a CSV file…");
    type_into(
        &mut h,
        "File (a name here, or a whole path):",
        &dir.path().display().to_string(),
    );
    click(&mut h, "Open");
    // The folder is listed: the CSV file, not the text file.
    assert!(
        h.query_by_label("players.csv").is_some(),
        "{:?}",
        all_text(&h)
    );
    assert!(h.query_by_label("notes.txt").is_none());
    click(&mut h, "players.csv");
    click(&mut h, "Open");
    assert!(
        has_text(&h, "3 players ready to import"),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Import 3 players");
    let names = shown_players(&h);
    assert_eq!(names, ["Abad", "Ñora", "Villanueva"]);
    // The folder is remembered for the next picker.
    assert_eq!(h.state().prefs.last_folder.as_deref(), Some(dir.path()));
}

/// The Settings page lists the backups once, not every frame, and lists them again after
/// "Back up now": the new backup is counted.
#[test]
fn the_backups_listed_on_settings_count_a_backup_made_there() {
    let dir = tempfile::tempdir().expect("dir");
    let clock = clock();
    let mut s = Store::open(&dir.path().join("hall.sqlite3")).expect("store");
    let tid = event(&mut s, 2);
    let before = s.backups().expect("backups").len();
    assert!(before > 0, "publishing the round wrote a backup");
    let mut h = desk(s, Page::Settings, Some(tid), &clock);
    let words = |n: usize| {
        if n == 1 {
            "1 backup; newest".to_string()
        } else {
            format!("{n} backups; newest")
        }
    };
    assert!(has_text(&h, &words(before)), "{:?}", all_text(&h));
    click(&mut h, "Back up now");
    h.run();
    assert!(has_text(&h, &words(before + 1)), "{:?}", all_text(&h));
}

/// Before round 1, the status line says how many players are in and what comes next:
/// registering them while fewer than two are, then pairing round 1.
#[test]
fn the_status_line_before_round_one_follows_the_registration() {
    let clock = clock();
    for (n, next) in [
        (
            0,
            "No round paired yet, 0 registered: register the players (F3)",
        ),
        (
            1,
            "No round paired yet, 1 registered: register the players (F3)",
        ),
        (
            4,
            "No round paired yet: 4 players registered; pair round 1 on the Rounds page (F4)",
        ),
    ] {
        let mut s = Store::open_in_memory().expect("store");
        let tid = registered_event(&mut s, n);
        let h = desk(s, Page::Players, Some(tid), &clock);
        assert!(has_text(&h, next), "{n}: {:?}", all_text(&h));
    }
}

/// A result for a board whose game's clocks run at the desk is refused at once, saying the
/// result comes from the arbiter: no dialog asks for a reason the store would refuse anyway.
#[test]
fn a_result_for_a_board_whose_clocks_run_at_the_desk_is_refused_without_a_dialog() {
    let clock = clock();
    let mut s = Store::open_in_memory().expect("store");
    let tid = event(&mut s, 4);
    let table = s.event(tid).expect("event").boards_by_table(RoundNo(1))[0]
        .table
        .0;
    started_desk_game(&mut s, tid, 1, table, Default::default());
    let mut h = desk(s, Page::Rounds, Some(tid), &clock);
    one_frame(&mut h, vec![key_event(egui::Key::ArrowDown)]);
    one_frame(&mut h, vec![key_event(egui::Key::W)]);
    assert!(
        !has_text(&h, "Reason (kept in the audit log):"),
        "no dialog"
    );
    let notices = &h.state().notices.items;
    assert!(
        notices
            .iter()
            .any(|n| n.error && n.text.contains("its result comes from the arbiter")),
        "{notices:?}"
    );
    let v = store(&h)
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r");
    let board = v
        .boards
        .iter()
        .find(|b| b.table == TableNo(table))
        .expect("board");
    assert_eq!(board.result, GameResult::Pending);
}

/// The audit log is read by its tail once it is held; a line that commits after a
/// higher-numbered one (as on a server) is read all the same, and the lines already held
/// stay, in words, newest first.
#[test]
fn the_audit_log_reads_its_tail_and_a_line_committed_late_is_not_missed() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("hall.sqlite3");
    let clock = clock();
    let mut s = Store::open(&path).expect("store");
    let tid = event(&mut s, 4);
    desk_game(&mut s, tid, 1, 2, Side::Black);
    let mut h = desk(s, Page::Settings, Some(tid), &clock);
    assert!(has_text(&h, "Black resigns at 0:02"), "{:?}", all_text(&h));
    let conn = rusqlite::Connection::open(&path).expect("open");
    let max: i64 = conn
        .query_row("SELECT max(id) FROM audit_log", [], |r| r.get(0))
        .expect("max");
    let line = |id: i64, details: &str| {
        conn.execute(
            "INSERT INTO audit_log (id, at, actor, action, details) VALUES (?1, ?2, 'director', 'note', ?3)",
            rusqlite::params![id, START_MS, details],
        )
        .expect("a line");
    };
    line(max + 2, "the later line");
    clock.set(START_MS + 3_000);
    h.run();
    assert!(has_text(&h, "the later line"), "{:?}", all_text(&h));
    // The earlier line commits now: the highest number does not move.
    line(max + 1, "the earlier line");
    clock.set(START_MS + 6_000);
    h.run();
    let texts = all_text(&h);
    assert!(has_text(&h, "the earlier line"), "{texts:?}");
    assert!(has_text(&h, "Black resigns at 0:02"), "{texts:?}");
    let at = |needle: &str| texts.iter().position(|t| t.contains(needle)).expect(needle);
    assert!(
        at("the later line") < at("the earlier line"),
        "newest first"
    );
    assert!(
        at("the earlier line") < at("Black resigns at 0:02"),
        "newest first"
    );
}
