//! The durable store: migrations (from version 1 too), refusals that change nothing,
//! event-sourced games, undo, void and replay, append-only events and audit log, restore
//! after a restart (a Flag waiting included), adjudication, physical-board perpetuals,
//! backups (kept, and at a round's completion) and record import/export.

use ggdesk::store::TournamentId;
use ggdesk::store::{
    APPLICATION_ID, Actor, Address, AnyEvent, AuditFilter, BACKUPS_KEPT, GameId, GameMode, NewGame,
    SCHEMA_VERSION, Store, StoreError,
};
use ggdesk_core::game::Decision;
use ggdesk_core::record::{Record, TimedEvent, replay};
use ggdesk_core::rules::{BySide, Event, GameState, Move, Side, SideSetup};
use ggdesk_core::tournament::{BoardNo, RoundNo};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

#[path = "support/engines.rs"]
mod engines;
#[path = "support/games.rs"]
mod games;
#[path = "support/pg.rs"]
mod pg;
use engines::Engine;

crate::on_both_engines!(
    a_game_waiting_for_the_counts_does_not_stop_the_restore_of_the_games_after_it,
    a_games_board_and_result_are_derived_from_its_events,
    an_illegal_event_is_refused_and_changes_nothing,
    an_undo_is_a_new_event_with_its_reason_and_the_undone_event_stays_stored,
    a_running_game_comes_back_after_a_restart_with_its_clocks_where_they_were,
    a_restart_whose_resume_cannot_be_written_stores_no_pause_either,
    a_paused_game_stays_paused_after_a_restart,
    a_clock_that_ran_out_while_the_desk_was_down_ends_the_game_where_it_ran_out,
    records_round_trip_through_the_database,
    reading_sheets_settle_an_adjudication_and_bad_sheets_are_refused,
    the_audit_log_and_the_events_refuse_updates_and_deletes,
    a_pending_flag_survives_a_restart_and_wins_when_the_opponents_turn_ends,
    void_and_replay_keeps_the_void_record_and_replays_the_pairing,
    a_perpetual_declared_on_a_physical_board_draws,
    the_desks_tables_are_the_rounds_games_and_the_practice_tables_with_their_timers,
    a_round_a_restore_completes_is_reported_with_its_backup,
);

fn sha(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("read file")
}

/// Asserts that `err` is a refusal of the input, nothing written (the core's rules'
/// `StoreError::Refused`, or the store's `Rejected` of what it cannot keep), and that its
/// message says `subject`.
fn assert_rejected(err: &StoreError, subject: &str) {
    let words = match err {
        StoreError::Rejected(m) => m.clone(),
        StoreError::Refused(r) => r.to_string(),
        other => panic!("expected a refusal saying {subject:?}, got {other:?}"),
    };
    assert!(
        words.contains(subject),
        "expected a refusal saying {subject:?}, got {err:?}"
    );
}

/// Opens `path`, which must be refused, and checks the file is byte for byte as it was.
fn refused_untouched(path: &Path) -> StoreError {
    let before = sha(path);
    let err = Store::open(path).expect_err("refused");
    assert_eq!(sha(path), before, "a refused file was changed");
    err
}

fn mv(s: &str) -> Event {
    Event::Move {
        mv: s.parse::<Move>().expect("move"),
        by: None,
    }
}

fn at(t: f64, event: Event) -> TimedEvent {
    TimedEvent { t, event }
}

/// A started standalone game with random setups; White moves first.
fn started_game(store: &mut Store, seed: u64) -> GameId {
    started_with(store, &NewGame::standalone(), seed, 1_000_000).0
}

/// A game started at `started_at` (Unix ms) from random setups, with its setups.
fn started_with(
    store: &mut Store,
    new: &NewGame,
    seed: u64,
    started_at: i64,
) -> (GameId, BySide<SideSetup>) {
    let setups = games::random_both(&mut StdRng::seed_from_u64(seed));
    let actor = Actor::arbiter(Some(1));
    let id = games::start_with(store, new, &setups, started_at, &actor).expect("start");
    (id, setups)
}

#[test]
fn a_fresh_database_gets_the_whole_schema_and_opening_twice_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sub").join("t.sqlite3");
    let store = Store::open(&path).expect("create");
    assert_eq!(store.schema_version().expect("version"), SCHEMA_VERSION);
    drop(store);
    let conn = rusqlite::Connection::open(&path).expect("sqlite");
    let tables = |c: &rusqlite::Connection| -> Vec<String> {
        let mut s = c
            .prepare("SELECT name FROM sqlite_master ORDER BY name")
            .expect("prepare");
        s.query_map([], |r| r.get(0))
            .expect("query")
            .map(|r| r.expect("row"))
            .collect()
    };
    let before = tables(&conn);
    assert!(
        before.contains(&"game_events".to_string()) && before.contains(&"audit_log".to_string())
    );
    let app_id: i64 = conn
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .expect("app id");
    assert_eq!(app_id, APPLICATION_ID);
    drop(conn);
    let again = Store::open(&path).expect("reopen");
    assert_eq!(again.schema_version().expect("version"), SCHEMA_VERSION);
    drop(again);
    let conn = rusqlite::Connection::open(&path).expect("sqlite");
    assert_eq!(tables(&conn), before);
}

#[test]
fn a_database_from_a_newer_ggdesk_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("newer.sqlite3");
    drop(Store::open(&path).expect("create"));
    {
        let conn = rusqlite::Connection::open(&path).expect("sqlite");
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .expect("bump");
        conn.pragma_update(None, "journal_mode", "DELETE")
            .expect("no wal");
    }
    let err = refused_untouched(&path);
    assert!(
        matches!(err, StoreError::Newer { found, .. } if found == SCHEMA_VERSION + 1),
        "{err}"
    );
    assert!(err.to_string().contains("newer ggdesk"), "{err}");
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("notes.sqlite3");
    std::fs::write(
        &path,
        b"Round 3 pairings, not a database at all\n".repeat(200),
    )
    .expect("write");
    let err = refused_untouched(&path);
    let shown = path.display().to_string();
    assert!(
        matches!(&err, StoreError::NotADatabase { path, .. } if *path == shown),
        "{err:?}"
    );
}

#[test]
fn another_programs_sqlite_database_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("other.sqlite3");
    {
        let conn = rusqlite::Connection::open(&path).expect("sqlite");
        conn.execute_batch("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('x');")
            .expect("other schema");
    }
    let err = refused_untouched(&path);
    let shown = path.display().to_string();
    assert!(
        matches!(&err, StoreError::Foreign { path } if *path == shown),
        "{err:?}"
    );
}

#[test]
fn a_damaged_database_is_refused_and_left_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("damaged.sqlite3");
    {
        let mut store = Store::open(&path).expect("create");
        for seed in 0..30 {
            let id = started_game(&mut store, seed);
            let e = games::first_legal(&store, id);
            store
                .append_event(id, at(1.0, e), &Actor::arbiter(None), "")
                .expect("append");
        }
    }
    {
        let conn = rusqlite::Connection::open(&path).expect("sqlite");
        conn.pragma_update(None, "journal_mode", "DELETE")
            .expect("checkpoint and leave wal");
    }
    let mut bytes = sha(&path);
    assert!(bytes.len() > 8192);
    // Overwrite the second page (a b-tree page) with garbage, keeping the header intact.
    for b in &mut bytes[4096..8192] {
        *b = 0xA5;
    }
    std::fs::write(&path, &bytes).expect("damage");
    let err = refused_untouched(&path);
    // The header is intact (a SQLite file, and ours): the damage inside is what is said.
    let shown = path.display().to_string();
    assert!(
        matches!(&err, StoreError::Corrupt { path, .. } if *path == shown),
        "{err:?}"
    );
}

fn a_games_board_and_result_are_derived_from_its_events(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let id = started_game(&mut store, 3);
    let actor = Actor::arbiter(Some(1));
    for i in 0..6 {
        let e = games::first_legal(&store, id);
        store
            .append_event(id, at(1.0 + i as f64, e), &actor, "")
            .expect("append");
    }
    let out = store
        .append_event(id, at(10.0, Event::Resign(Side::Black)), &actor, "")
        .expect("resign");
    assert!(matches!(out.state, GameState::Finished { .. }));
    let game = store.load_game(id).expect("load");
    assert_eq!(game.events.len(), 7);
    assert_eq!(
        game.meta.result.code().as_deref(),
        Some("white resignation")
    );
    let verdict = game.verdict().expect("setups").expect("verdict");
    assert_eq!(verdict.plies, 6);
    // After the end, nothing more may be appended.
    let err = store
        .append_event(id, at(11.0, Event::Pause), &actor, "")
        .expect_err("game over");
    assert_rejected(&err, "the game already ended at 10.000 s");
}

fn an_illegal_event_is_refused_and_changes_nothing(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let id = started_game(&mut store, 4);
    let actor = Actor::arbiter(Some(1));
    let before_game = store.load_game(id).expect("load");
    let before_log = store.audit_log(AuditFilter::Game(id.0)).expect("log").len();
    // White pieces stand on ranks 1-3: a move from rank 5 has no piece.
    let err = store
        .append_event(id, at(1.0, mv("e5-e4")), &actor, "")
        .expect_err("refused");
    assert_rejected(&err, "illegal move e5-e4: there is no piece on e5");
    let err = store
        .append_event(id, at(1.0, Event::Resume), &actor, "")
        .expect_err("refused");
    assert_rejected(&err, "the clocks are not paused");
    assert_eq!(store.load_game(id).expect("load"), before_game);
    assert_eq!(
        store.audit_log(AuditFilter::Game(id.0)).expect("log").len(),
        before_log
    );
}

fn an_undo_is_a_new_event_with_its_reason_and_the_undone_event_stays_stored(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let id = started_game(&mut store, 5);
    let actor = Actor::arbiter(Some(2));
    let first = games::first_legal(&store, id);
    store
        .append_event(id, at(2.0, first), &actor, "")
        .expect("move");
    let second = games::first_legal(&store, id);
    store
        .append_event(id, at(4.0, second), &actor, "")
        .expect("move");
    let err = store
        .undo_last_event(id, 5.0, &actor, " ")
        .expect_err("needs a reason");
    assert_rejected(&err, "an undo needs a reason");
    let undone = store
        .undo_last_event(id, 5.0, &actor, "wrong square entered")
        .expect("undo");
    assert_eq!(undone, 1);
    let game = store.load_game(id).expect("load");
    assert_eq!(
        game.events.len(),
        3,
        "the undone move and the undo are both stored"
    );
    let effective: Vec<Event> = game
        .effective_events()
        .into_iter()
        .map(|(_, e)| e.event)
        .collect();
    assert_eq!(effective, vec![first]);
    let log = store.audit_log(AuditFilter::Game(id.0)).expect("log");
    assert!(
        log.iter()
            .any(|e| e.action == "undo" && e.reason == "wrong square entered")
    );
    // The event rows cannot be rewritten.
    let path_less = store.integrity_check().expect("check");
    assert_eq!(path_less, "ok");
}

fn a_running_game_comes_back_after_a_restart_with_its_clocks_where_they_were(engine: Engine) {
    let dir = tempfile::tempdir().expect("tempdir");
    let address = engines::fresh_address(engine, dir.path());
    let start_ms = 1_700_000_000_000;
    let (id, clock_before) = {
        let mut store = Store::connect(&address).expect("store");
        let (id, _) = started_with(&mut store, &NewGame::standalone(), 9, start_ms);
        let actor = Actor::arbiter(Some(1));
        for i in 0..4 {
            let e = games::first_legal(&store, id);
            store
                .append_event(id, at(10.0 * (i + 1) as f64, e), &actor, "")
                .expect("move");
        }
        // The desk saw the clocks at t = 95: White has been thinking 55 s.
        store.record_clocks_seen(&[(id, 95.0)]).expect("seen");
        let mut game = games::live(&store, id);
        game.judge_clocks(ggdesk_core::clock::Time::from_secs(95))
            .expect("judge");
        (id, *game.clock())
    };
    // The desk was down for ten minutes; it restarts at t = 695.
    let mut store = Store::connect(&address).expect("reopen");
    let restored = store
        .restore_games_in_progress(start_ms + 695_000)
        .expect("restore");
    assert_eq!(restored.restored, vec![id]);
    assert!(restored.failed.is_empty());
    let mut game = games::live(&store, id);
    assert!(!game.clock().is_paused(), "a running game continues");
    game.judge_clocks(ggdesk_core::clock::Time::from_secs(695))
        .expect("judge");
    assert_eq!(game.clock().thinking_ns(), clock_before.thinking_ns());
    assert_eq!(game.clock().game_used_ns(), clock_before.game_used_ns());
    assert_eq!(game.clock().oversteps(), clock_before.oversteps());
    assert_eq!(game.plies(), 4);
}

/// A restart writes a pause and a resume: were the pause stored without its resume (the
/// connection lost between the two), the game would stay paused for good, since the next
/// restore finds its clocks stopped and leaves it so. Both are one transaction.
fn a_restart_whose_resume_cannot_be_written_stores_no_pause_either(engine: Engine) {
    let dir = tempfile::tempdir().expect("tempdir");
    let address = engines::fresh_address(engine, dir.path());
    let start_ms = 1_700_000_000_000;
    let id = {
        let mut store = Store::connect(&address).expect("store");
        let (id, _) = started_with(&mut store, &NewGame::standalone(), 9, start_ms);
        let e = games::first_legal(&store, id);
        store
            .append_event(id, at(10.0, e), &Actor::arbiter(Some(1)), "")
            .expect("move");
        store.record_clocks_seen(&[(id, 30.0)]).expect("seen");
        id
    };
    // The database refuses the resume, as a connection lost after the pause would.
    let refuse = match engine {
        Engine::Sqlite => {
            "CREATE TRIGGER no_resume BEFORE INSERT ON game_events WHEN NEW.kind = 'resume'
             BEGIN SELECT RAISE(ABORT, 'no resume now'); END;"
        }
        Engine::Postgres => {
            "CREATE FUNCTION no_resume() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN RAISE EXCEPTION 'no resume now'; END $$;
             CREATE TRIGGER no_resume BEFORE INSERT ON game_events
             FOR EACH ROW WHEN (NEW.kind = 'resume') EXECUTE FUNCTION no_resume();"
        }
    };
    behind_the_stores_back(&address, refuse).expect("the trigger");
    let mut store = Store::connect(&address).expect("reopen");
    let events_before = store.load_game(id).expect("load").events;
    let restored = store
        .restore_games_in_progress(start_ms + 600_000)
        .expect("restore");
    assert_eq!(restored.failed.len(), 1, "{restored:?}");
    assert_eq!(
        store.load_game(id).expect("load").events,
        events_before,
        "neither the pause nor the resume is stored"
    );
    // Once the resume can be written, the next restore brings the game back running.
    behind_the_stores_back(&address, "DROP TRIGGER no_resume ON game_events")
        .or_else(|_| behind_the_stores_back(&address, "DROP TRIGGER no_resume"))
        .expect("drop the trigger");
    let restored = store
        .restore_games_in_progress(start_ms + 700_000)
        .expect("restore");
    assert_eq!(restored.restored, vec![id]);
    let game = games::live(&store, id);
    assert!(!game.clock().is_paused(), "a running game continues");
    assert_eq!(
        store.load_game(id).expect("load").events.len(),
        events_before.len() + 2
    );
}

/// Defect 2: a physical-board game waiting for the thirty-move counts refused the restart's
/// `pause`, and that one refusal stopped the restore of every later game, whose downtime was
/// then charged to the players.
fn a_game_waiting_for_the_counts_does_not_stop_the_restore_of_the_games_after_it(engine: Engine) {
    use ggdesk_core::rules::PhysicalEvent;
    let dir = tempfile::tempdir().expect("tempdir");
    let address = engines::fresh_address(engine, dir.path());
    let start_ms = 1_700_000_000_000;
    let actor = Actor::arbiter(None);
    let (waiting, running) = {
        let mut store = Store::connect(&address).expect("store");
        let mut new = NewGame::standalone();
        new.mode = GameMode::Physical;
        let waiting = store.create_game(&new, &actor).expect("physical game");
        store
            .start_game(waiting, start_ms, Side::White, &actor)
            .expect("start");
        for i in 1..=30 {
            store
                .append(
                    waiting,
                    f64::from(i),
                    AnyEvent::Physical(PhysicalEvent::Move { challenge: None }),
                    &actor,
                    "",
                )
                .expect("move");
        }
        let (running, _) = started_with(&mut store, &NewGame::standalone(), 21, start_ms);
        let e = games::first_legal(&store, running);
        store
            .append_event(running, at(40.0, e), &actor, "")
            .expect("move");
        store.record_clocks_seen(&[(running, 50.0)]).expect("seen");
        (waiting, running)
    };
    let mut store = Store::connect(&address).expect("reopen");
    let restored = store.restore_games_in_progress(start_ms + 600_000);
    let running_game = store.load_game(running).expect("load");
    let kinds: Vec<_> = running_game
        .effective()
        .into_iter()
        .map(|(_, t, e)| (t, e))
        .collect();
    assert_eq!(
        kinds[1..],
        [
            (50.0, AnyEvent::Game(Event::Pause)),
            (600.0, AnyEvent::Game(Event::Resume))
        ],
        "the running game after the one waiting for counts gets its pause and resume"
    );
    let waiting_game = store.load_game(waiting).expect("load");
    assert_eq!(
        waiting_game.events.len(),
        30,
        "nothing is added while counts are awaited"
    );
    let derived = waiting_game.derive().expect("physical").expect("replays");
    assert!(
        derived
            .as_physical()
            .expect("physical")
            .awaiting_thirty_count()
    );
    let report = restored.expect("restore");
    assert_eq!(report.restored, vec![waiting, running]);
    assert!(report.failed.is_empty(), "{:?}", report.failed);
}

fn a_paused_game_stays_paused_after_a_restart(engine: Engine) {
    let dir = tempfile::tempdir().expect("tempdir");
    let address = engines::fresh_address(engine, dir.path());
    let id = {
        let mut store = Store::connect(&address).expect("store");
        let id = started_game(&mut store, 10);
        let e = games::first_legal(&store, id);
        let actor = Actor::arbiter(None);
        store
            .append_event(id, at(5.0, e), &actor, "")
            .expect("move");
        store
            .append_event(id, at(8.0, Event::Pause), &actor, "")
            .expect("pause");
        id
    };
    let mut store = Store::connect(&address).expect("reopen");
    store
        .restore_games_in_progress(9_999_999_999)
        .expect("restore");
    let game = store.load_game(id).expect("load");
    assert_eq!(game.events.len(), 2, "nothing is added to a paused game");
    assert!(
        game.game()
            .expect("setups")
            .expect("replay")
            .clock()
            .is_paused()
    );
}

fn a_clock_that_ran_out_while_the_desk_was_down_ends_the_game_where_it_ran_out(engine: Engine) {
    let dir = tempfile::tempdir().expect("tempdir");
    let address = engines::fresh_address(engine, dir.path());
    let id = {
        let mut store = Store::connect(&address).expect("store");
        let mut new = NewGame::standalone();
        new.rules.oversteps_to_lose = 1;
        let (id, _) = started_with(&mut store, &new, 11, 0);
        store.record_clocks_seen(&[(id, 130.0)]).expect("seen");
        id
    };
    let mut store = Store::connect(&address).expect("reopen");
    store.restore_games_in_progress(500_000).expect("restore");
    let verdict = store
        .load_game(id)
        .expect("load")
        .verdict()
        .expect("setups")
        .expect("verdict");
    assert_eq!(
        verdict.outcome.map(|o| o.reason().code()),
        Some("move_time")
    );
    assert_eq!(verdict.at, 120.0);
}

fn records_round_trip_through_the_database(engine: Engine) {
    // The shared example records, copied into the repository.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/examples");
    let mut store = engines::fresh_store(engine);
    let mut imported = 0;
    for entry in std::fs::read_dir(&dir).expect("examples") {
        let path = entry.expect("entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let Ok(record) = Record::from_json_str(&text) else {
            continue;
        };
        let Ok(verdict) = replay(&record) else {
            // A malformed record is refused and nothing is stored.
            let before = store.game_metas(None).expect("games").len();
            let fault = replay(&record).expect_err("malformed").to_string();
            let err = store
                .import_record(&record, &Actor::director())
                .expect_err("a malformed record");
            assert!(
                matches!(&err, StoreError::Rejected(m) if *m == fault),
                "{}: refused as the rules refuse it ({fault}), got {err:?}",
                path.display()
            );
            assert_eq!(store.game_metas(None).expect("games").len(), before);
            continue;
        };
        let id = store
            .import_record(&record, &Actor::director())
            .expect("import");
        let back = store.export_record(id).expect("export");
        assert_eq!(back.events, record.events, "{}", path.display());
        assert_eq!(back.setup, record.setup);
        assert_eq!(
            replay(&back).expect("replays").to_value(),
            verdict.to_value(),
            "{}",
            path.display()
        );
        imported += 1;
    }
    assert!(
        imported >= 10,
        "only {imported} imported from {}",
        dir.display()
    );
}

/// A store clock that moves on a second each time it is read, from `start` (Unix ms): every
/// backup gets its own time stamp.
fn ticking_clock(start: i64) -> ggdesk::store::Clock {
    let now = Arc::new(AtomicI64::new(start));
    Arc::new(move || now.fetch_add(1000, Ordering::SeqCst))
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn backups_are_written_beside_the_database_and_only_the_last_twenty_kept() {
    assert_eq!(BACKUPS_KEPT, 20, "the number of backups kept");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("event.sqlite3");
    let mut store = Store::open(&path).expect("store");
    store.set_clock(ticking_clock(1_700_000_000_000));
    let id = started_game(&mut store, 12);
    let mut written = Vec::new();
    for i in 0..23 {
        let file = store.backup(&format!("round {i}")).expect("backup");
        assert_eq!(file.parent(), Some(dir.path().join("backups").as_path()));
        let name = file
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        assert!(
            name.starts_with("event-") && name.ends_with(&format!("-round-{i}.sqlite3")),
            "{name}"
        );
        written.push(name);
    }
    // The three oldest went; the twenty newest stay, listed oldest first.
    let kept = file_names(&dir.path().join("backups"));
    assert_eq!(kept.len(), 20);
    assert_eq!(kept, written[3..].to_vec());
    for old in ["round-0", "round-1", "round-2"] {
        assert!(
            !kept.iter().any(|n| n.ends_with(&format!("-{old}.sqlite3"))),
            "{old} removed"
        );
    }
    let listed: Vec<String> = store
        .backups()
        .expect("list")
        .iter()
        .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
        .collect();
    assert_eq!(listed, kept);
    let newest = dir.path().join("backups").join(&written[22]);
    let copy = Store::open(&newest).expect("a backup opens as a database");
    assert_eq!(copy.load_game(id).expect("game").meta.id, id);
}

/// A round of four players (two boards), published, on a file database.
fn published_round(store: &mut Store) -> (TournamentId, Vec<BoardNo>) {
    use ggdesk::store::{PlayerInput, TournamentSetup};
    let director = Actor::director();
    let setup = TournamentSetup {
        name: "Backups".into(),
        rounds: Some(2),
        ..TournamentSetup::default()
    };
    let tid = store.create_tournament(&setup, &director).expect("create");
    for i in 0..4 {
        let p = store
            .add_player(
                &PlayerInput {
                    name: format!("Player {i}"),
                    federation_id: format!("B-{i}"),
                    club: String::new(),
                    rating: 1500 - i * 10,
                },
                &director,
            )
            .expect("player");
        store.register(tid, p, &director).expect("register");
    }
    assert_eq!(
        store.pair_round(tid, &director).expect("pair").round,
        RoundNo(1)
    );
    store
        .publish_round(tid, RoundNo(1), &director)
        .expect("publish");
    let boards = store
        .round_view(tid, RoundNo(1))
        .expect("view")
        .expect("round")
        .boards
        .iter()
        .map(|b| b.board)
        .collect();
    (tid, boards)
}

/// The round's last result completes it and writes a backup holding the completed round; a
/// backup that cannot be written is reported in the result, and the completion stands.
#[test]
fn the_last_result_of_a_round_writes_a_backup_and_a_failed_backup_is_reported() {
    use ggdesk::store::{BackupNote, RoundState};
    use ggdesk_core::tournament::GameResult;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("event.sqlite3");
    let backups = dir.path().join("backups");
    let mut store = Store::open(&path).expect("store");
    store.set_clock(ticking_clock(1_700_000_000_000));
    let director = Actor::director();
    let (tid, boards) = published_round(&mut store);
    assert_eq!(boards.len(), 2);
    let before = file_names(&backups);
    let first = store
        .set_result(
            tid,
            RoundNo(1),
            boards[0],
            GameResult::WhiteWins,
            "",
            &director,
        )
        .expect("first result");
    assert_eq!(first.completed, None, "one result of two completes nothing");
    assert_eq!(file_names(&backups), before, "and writes no backup");
    let last = store
        .set_result(tid, RoundNo(1), boards[1], GameResult::Draw, "", &director)
        .expect("last result");
    let Some(BackupNote::Written(file)) = last.completed else {
        panic!("the last result completes the round and backs it up: {last:?}");
    };
    assert_eq!(file.parent(), Some(backups.as_path()));
    let name = file
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(
        name.ends_with(&format!("-t{tid}-round-1-complete.sqlite3")),
        "{name}"
    );
    let mut after = before.clone();
    after.push(name);
    after.sort();
    assert_eq!(file_names(&backups), after, "one new file");
    let copy = Store::open(&file).expect("the backup opens");
    assert_eq!(
        copy.round_view(tid, RoundNo(1))
            .expect("view")
            .expect("round")
            .state,
        RoundState::Complete,
        "the backup holds the completed round"
    );
    drop(copy);

    // The last result again, with a file where the backups folder should be.
    store
        .set_result(
            tid,
            RoundNo(1),
            boards[1],
            GameResult::Pending,
            "wrong table",
            &director,
        )
        .expect("reopen");
    std::fs::remove_dir_all(&backups).expect("remove the folder");
    std::fs::write(&backups, b"not a folder").expect("a file in its place");
    let last = store
        .set_result(
            tid,
            RoundNo(1),
            boards[1],
            GameResult::BlackWins,
            "",
            &director,
        )
        .expect("the result is saved although the backup fails");
    let Some(BackupNote::Failed(message)) = &last.completed else {
        panic!("a failed backup is reported: {last:?}");
    };
    assert!(
        message.contains(&backups.display().to_string()),
        "names the folder: {message}"
    );
    assert_eq!(
        store
            .round_view(tid, RoundNo(1))
            .expect("view")
            .expect("round")
            .state,
        RoundState::Complete,
        "the completion stands"
    );
    assert_eq!(std::fs::read(&backups).expect("the file"), b"not a folder");
}

/// A setup from its ranks as text, files a to i, `.` for an empty square:
/// `[(3, "PVT PVT . ...")]`.
fn setup_of(rows: &[(u8, &str)]) -> SideSetup {
    let mut placements = Vec::new();
    for &(rank, row) in rows {
        for (file, code) in ('a'..='i').zip(row.split_whitespace()) {
            if code != "." {
                placements.push((
                    format!("{file}{rank}").parse().expect("square"),
                    code.parse().expect("rank"),
                ));
            }
        }
    }
    SideSetup::new(placements)
}

fn reading_sheets_settle_an_adjudication_and_bad_sheets_are_refused(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let mut new = NewGame::standalone();
    new.rules.game_limit_ns = 60_000_000_000;
    let actor = Actor::arbiter(None);
    let white = setup_of(&[
        (3, "PVT PVT PVT PVT G5  PVT PVT SGT 2LT"),
        (2, "1LT CPT MAJ LTC COL G1  G2  G3  G4"),
        (1, "FLG SPY SPY .   .   .   .   .   ."),
    ]);
    let black = setup_of(&[
        (6, "SGT PVT PVT PVT PVT PVT PVT 2LT 1LT"),
        (7, "CPT MAJ LTC COL SPY G1  G2  G3  G4"),
        (8, "G5  SPY FLG .   .   .   .   .   ."),
    ]);
    let id = store.create_game(&new, &actor).expect("create");
    for (side, setup) in [(Side::White, &white), (Side::Black, &black)] {
        store.save_setup(id, side, setup, &actor).expect("setup");
    }
    store.start_game(id, 0, Side::White, &actor).expect("start");
    // White's G5 walks up the e-file and takes the Private on e6; Black's Spy on e7 takes
    // the G5; Black's Sergeant ends on a4, White's 2LT on i4.
    for (t, m) in [
        (1.0, "e3-e4"),
        (2.0, "a6-a5"),
        (3.0, "e4-e5"),
        (4.0, "a5-a4"),
        (5.0, "e5-e6"),
        (6.0, "e7-e6"),
        (7.0, "i3-i4"),
    ] {
        store.append_event(id, at(t, mv(m)), &actor, "").expect(m);
    }
    store
        .append_event(id, at(70.0, Event::End), &actor, "")
        .expect("end after game time");
    let game = store.load_game(id).expect("load");
    assert_eq!(
        game.meta.result.code().as_deref(),
        Some("adjudication_pending")
    );
    // White reads two Flags: refused.
    let bad = serde_json::json!({"c8": "FLG", "e6": "FLG"});
    let err = store
        .save_reading_sheet(id, Side::White, &bad, true, &actor)
        .expect_err("two flags");
    assert_rejected(&err, "FLG");
    // Black reads a1 (the Flag) as G5, c3 (a Private) as SGT, i4 (the 2LT) right, d2 (the
    // LTC) as COL.
    let sheet = serde_json::json!({"a1": "G5", "c3": "SGT", "i4": "2LT", "d2": "COL"});
    store
        .save_reading_sheet(id, Side::Black, &sheet, true, &actor)
        .expect("black sheet");
    // A sheet still being entered decides nothing.
    store
        .save_reading_sheet(id, Side::White, &serde_json::json!({}), false, &actor)
        .expect("white's draft");
    let game = store.load_game(id).expect("load");
    assert_eq!(
        game.meta.result.code().as_deref(),
        Some("adjudication_pending")
    );
    // White reads e6 (the Spy) right, a4 (the Sergeant) as PVT, c8 (the Flag) right, and
    // abstains on the rest.
    let sheet = serde_json::json!({"e6": "SPY", "a4": "PVT", "c8": "FLG"});
    store
        .save_reading_sheet(id, Side::White, &sheet, true, &actor)
        .expect("white sheet");
    let game = store.load_game(id).expect("load");
    assert_eq!(game.meta.result.code().as_deref(), Some("black game_time"));
    let verdict = game.verdict().expect("setups").expect("verdict");
    let adj = verdict.adjudication.expect("adjudicated");
    // By hand, in hundredths. A full set is worth 71.72 = 7172.
    // White: NRS = 2 right × 2 − 1 wrong × 1 = 3. AVP = 7172 − G5 780 = 6392.
    //        TAS = 300 + 6392 = 6692.
    // Black: NRS = 1 right × 2 − 3 wrong × 1 = −1. AVP = 7172 − PVT 137 = 7035.
    //        TAS = −100 + 7035 = 6935. Black's TAS is higher: Black wins.
    let w = &adj.scores.white;
    let b = &adj.scores.black;
    assert_eq!(
        (w.net_reading_score, w.aliwalas_value.0, w.total.0),
        (3, 6392, 6692),
        "White"
    );
    assert_eq!(
        (b.net_reading_score, b.aliwalas_value.0, b.total.0),
        (-1, 7035, 6935),
        "Black"
    );
    assert_eq!(adj.winner, Some(Side::Black));
}

/// A game's rules are stored with every setting (the record's seven and the desk's timers).
/// A row written with the seven record keys only (before the timers were stored) means the
/// GGF timers and still loads; a value this build cannot read is an error naming the game,
/// never a default (the game would be replayed under other rules).
#[test]
fn stored_rules_load_old_rows_and_refuse_damaged_ones_naming_the_game() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("rules.sqlite3");
    let id = {
        let mut store = Store::open(&path).expect("store");
        let mut new = NewGame::standalone();
        new.rules.move_limit_ns = 60_000_000_000;
        new.rules.reading_limit_ns = 600_000_000_000;
        let id = store.create_game(&new, &Actor::director()).expect("create");
        let meta = store.load_game(id).expect("load").meta;
        assert_eq!(meta.rules, new.rules);
        id
    };
    let conn = rusqlite::Connection::open(&path).expect("sqlite");
    let set = |rules: &str| {
        conn.execute("UPDATE games SET rules = ?1 WHERE id = ?2", (rules, id.0))
            .expect("update");
    };
    set(
        r#"{"move_limit_s": 60.0, "oversteps_to_lose": 3, "game_limit_s": 7200.0, "thirty_moves": 30, "perpetual_short": 5, "perpetual_long": 16, "respect_min_moves": 10}"#,
    );
    let store = Store::open(&path).expect("reopen");
    let rules = store.load_game(id).expect("an old row loads").meta.rules;
    assert_eq!(rules.move_limit_ns, 60_000_000_000);
    assert_eq!(rules.reading_limit_ns, 900_000_000_000, "GGF reading time");
    for (bad, key) in [
        (r#"{"move_limit_s": "sixty"}"#, "rules.move_limit_s"),
        (r#"{"thirty_moves": -1}"#, "rules.thirty_moves"),
        (r#"{"reading_s": 1e300}"#, "rules.reading_s"),
        (r#"{"move_limt_s": 60}"#, "rules.move_limt_s"),
    ] {
        set(bad);
        // A row the store never writes: the database is damaged there, and says where.
        let damaged_at = |err: &StoreError| {
            matches!(err, StoreError::Damaged { table: "games", row, detail }
                if *row == format!("game {id}") && detail.contains(key))
        };
        let err = store.load_game(id).expect_err(bad);
        assert!(damaged_at(&err), "{bad}: {err:?}");
        let err = store.game_metas(None).expect_err(bad);
        assert!(damaged_at(&err), "{bad}: {err:?}");
    }
}

/// Runs SQL on the database behind the store's back, as another program could: an error
/// message when the database refuses it.
fn behind_the_stores_back(address: &Address, sql: &str) -> Result<(), String> {
    match address {
        Address::File(path) => rusqlite::Connection::open(path)
            .and_then(|c| c.execute_batch(sql))
            .map_err(|e| e.to_string()),
        Address::Server(url) => {
            let mut client =
                ::postgres::Client::connect(url, ::postgres::NoTls).expect("connect to the server");
            client.batch_execute(sql).map_err(|e| {
                e.as_db_error()
                    .map_or_else(|| e.to_string(), |d| d.message().to_string())
            })
        }
    }
}

fn the_audit_log_and_the_events_refuse_updates_and_deletes(engine: Engine) {
    let dir = tempfile::tempdir().expect("tempdir");
    let address = engines::fresh_address(engine, dir.path());
    let mut store = Store::connect(&address).expect("store");
    let id = started_game(&mut store, 6);
    let e = games::first_legal(&store, id);
    store
        .append_event(id, at(1.0, e), &Actor::arbiter(None), "")
        .expect("append");
    let log = store.audit_log(AuditFilter::All).expect("log");
    assert!(log.len() >= 4, "{log:?}");
    let game = store.load_game(id).expect("load");
    // The connection itself works: an insert goes through.
    behind_the_stores_back(
        &address,
        "INSERT INTO audit_log (at, actor, action, reason, details) VALUES (5, 'x', 'note', '', '')",
    )
    .expect("an insert is allowed");
    let log = store.audit_log(AuditFilter::All).expect("log");
    for sql in [
        "UPDATE audit_log SET actor = 'someone else'",
        "UPDATE audit_log SET reason = 'rewritten' WHERE action = 'note'",
        "DELETE FROM audit_log WHERE action = 'note'",
        "UPDATE game_events SET t = 99",
        "DELETE FROM game_events",
    ] {
        let err = behind_the_stores_back(&address, sql).expect_err(sql);
        // The database's own refusal, naming the table (each engine's trigger says it).
        let table = if sql.contains("audit_log") {
            "audit_log"
        } else {
            "game_events"
        };
        let says = match (engine, table) {
            (Engine::Sqlite, "audit_log") => "the audit log is append-only".to_string(),
            (Engine::Sqlite, _) => "game events are append-only".to_string(),
            (Engine::Postgres, _) => format!("{table} is append-only"),
        };
        assert!(err.contains(&says), "{sql}: {says:?} not in {err}");
    }
    assert_eq!(store.audit_log(AuditFilter::All).expect("log"), log);
    assert_eq!(store.load_game(id).expect("load"), game);
}

fn a_pending_flag_survives_a_restart_and_wins_when_the_opponents_turn_ends(engine: Engine) {
    let dir = tempfile::tempdir().expect("tempdir");
    let address = engines::fresh_address(engine, dir.path());
    let start_ms = 1_700_000_000_000;
    let actor = Actor::arbiter(Some(1));
    // White's Flag on a3 walks up the empty a-file to a8, next to Black's G4 on b8; Black's
    // 2LT goes back and forth between i6 and i5, attacking nothing.
    let white = setup_of(&[
        (3, "FLG PVT PVT PVT PVT PVT PVT SGT 2LT"),
        (2, "1LT CPT MAJ LTC COL G1  G2  G3  G4"),
        (1, "G5  SPY SPY .   .   .   .   .   ."),
    ]);
    let black = setup_of(&[
        (6, ".   PVT PVT PVT PVT PVT PVT SGT 2LT"),
        (7, ".   1LT CPT MAJ LTC COL G1  G2  G3"),
        (8, ".   G4  G5  SPY SPY FLG .   .   ."),
    ]);
    let id = {
        let mut store = Store::connect(&address).expect("store");
        let id = store
            .create_game(&NewGame::standalone(), &actor)
            .expect("create");
        store
            .save_setup(id, Side::White, &white, &actor)
            .expect("white");
        store
            .save_setup(id, Side::Black, &black, &actor)
            .expect("black");
        store
            .start_game(id, start_ms, Side::White, &actor)
            .expect("start");
        for (t, m) in [
            (1.0, "a3-a4"),
            (2.0, "i6-i5"),
            (3.0, "a4-a5"),
            (4.0, "i5-i6"),
            (5.0, "a5-a6"),
            (6.0, "i6-i5"),
            (7.0, "a6-a7"),
            (8.0, "i5-i6"),
            (9.0, "a7-a8"),
        ] {
            store.append_event(id, at(t, mv(m)), &actor, "").expect(m);
        }
        let game = games::live(&store, id);
        assert_eq!(game.pending_flag(), Some(Side::White), "the Flag waits");
        assert_eq!(game.state(), GameState::Playing);
        store.record_clocks_seen(&[(id, 10.0)]).expect("seen");
        id
    };
    // The desk was down; it restarts at t = 600.
    let mut store = Store::connect(&address).expect("reopen");
    let report = store
        .restore_games_in_progress(start_ms + 600_000)
        .expect("restore");
    assert_eq!(report.restored, vec![id]);
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    let stored = store.load_game(id).expect("load");
    assert_eq!(
        stored.meta.result.code(),
        None,
        "the restart decides nothing"
    );
    let game = stored.game().expect("setups").expect("replays");
    assert_eq!(
        game.pending_flag(),
        Some(Side::White),
        "the Flag still waits for the end of Black's turn"
    );
    assert_eq!(game.state(), GameState::Playing);
    assert!(!game.clock().is_paused());
    // Black's turn ends without taking the Flag: White wins.
    store
        .append_event(id, at(601.0, mv("i6-i5")), &actor, "")
        .expect("black moves elsewhere");
    let stored = store.load_game(id).expect("load");
    assert_eq!(
        stored.meta.result.code().as_deref(),
        Some("white flag_through")
    );
    let verdict = stored.verdict().expect("setups").expect("verdict");
    assert_eq!(verdict.at, 601.0);
    assert_eq!(verdict.plies, 10);
}

fn void_and_replay_keeps_the_void_record_and_replays_the_pairing(engine: Engine) {
    use ggdesk_core::tournament::GameResult;
    let mut store = engines::fresh_store(engine);
    let director = Actor::director();
    let actor = Actor::arbiter(Some(1));
    let (tid, boards) = published_round(&mut store);
    let board_of = |store: &Store| {
        store
            .round_view(tid, RoundNo(1))
            .expect("view")
            .expect("round")
            .boards
            .into_iter()
            .find(|b| b.board == boards[0])
            .expect("the board")
    };
    let board = board_of(&store);
    let mut new = NewGame::for_board(
        tid,
        RoundNo(1),
        &board,
        GameMode::Arbitrated,
        Default::default(),
    );
    new.rules.move_limit_ns = 90_000_000_000;
    let (id, _) = started_with(&mut store, &new, 31, 1_000);
    let e = games::first_legal(&store, id);
    store
        .append_event(id, at(2.0, e), &actor, "")
        .expect("move");
    store
        .append_event(id, at(3.0, Event::Resign(Side::Black)), &actor, "")
        .expect("resign");
    assert_eq!(board_of(&store).result, GameResult::WhiteWins);
    let before = store.load_game(id).expect("load");
    let games_before = store.game_metas(None).expect("games").len();

    let err = store
        .void_and_replay(id, "  ", &director)
        .expect_err("a reason is needed");
    assert_rejected(&err, "voiding a game needs a reason");
    assert_eq!(store.load_game(id).expect("load"), before);
    assert_eq!(store.game_metas(None).expect("games").len(), games_before);

    let replay = store
        .void_and_replay(id, "arbiter's mistake", &director)
        .expect("void");
    assert_ne!(replay, id);
    let old = store.load_game(id).expect("the void game is kept");
    assert!(old.meta.void);
    assert_eq!(old.meta.void_reason.as_deref(), Some("arbiter's mistake"));
    assert_eq!(old.events, before.events, "its record is kept");
    assert_eq!(old.setup, before.setup);
    assert_eq!(old.meta.result, before.meta.result);
    let new_game = store.load_game(replay).expect("the replay");
    let m = &new_game.meta;
    assert_eq!(m.replaces, Some(id));
    assert!(!m.void);
    assert_eq!(
        (m.tournament_id, m.round, m.table_no, m.players),
        (Some(tid), Some(RoundNo(1)), Some(board.table), new.players),
        "the same pairing"
    );
    assert_eq!(
        (m.mode, m.first, m.rules),
        (old.meta.mode, old.meta.first, new.rules)
    );
    assert_eq!(m.started_at, None, "the replay starts from the setups");
    assert_eq!(m.result, Decision::Undecided);
    assert!(new_game.setup.white.is_none() && new_game.setup.black.is_none());
    assert!(new_game.events.is_empty());
    assert_eq!(
        board_of(&store).result,
        GameResult::Pending,
        "the board waits for the replay"
    );
    let log = store.audit_log(AuditFilter::Game(id.0)).expect("log");
    let entry = log.last().expect("an entry");
    assert_eq!(entry.action, "game void, replayed");
    assert_eq!(entry.reason, "arbiter's mistake");
    assert_eq!(entry.details, format!("replayed as game {replay}"));
    let err = store
        .void_and_replay(id, "again", &director)
        .expect_err("void once");
    assert_rejected(&err, &format!("game {id} is already void"));
}

fn a_perpetual_declared_on_a_physical_board_draws(engine: Engine) {
    use ggdesk_core::rules::PhysicalEvent;
    use ggdesk_core::tournament::GameResult;
    let mut store = engines::fresh_store(engine);
    let actor = Actor::arbiter(None);
    let (tid, boards) = published_round(&mut store);
    let view = store
        .round_view(tid, RoundNo(1))
        .expect("view")
        .expect("round");
    for (board, long, reason) in [
        (boards[0], false, "perpetual_5"),
        (boards[1], true, "perpetual_16"),
    ] {
        let b = view
            .boards
            .iter()
            .find(|x| x.board == board)
            .expect("board");
        let new = NewGame::for_board(tid, RoundNo(1), b, GameMode::Physical, Default::default());
        let id = store.create_game(&new, &actor).expect("physical game");
        store.start_game(id, 0, Side::White, &actor).expect("start");
        let moved = AnyEvent::Physical(PhysicalEvent::Move { challenge: None });
        for t in 1..=4 {
            store
                .append(id, f64::from(t), moved, &actor, "")
                .expect("move");
        }
        store
            .append(
                id,
                5.0,
                AnyEvent::Physical(PhysicalEvent::Perpetual { long }),
                &actor,
                "",
            )
            .expect("the arbiter declares a perpetual");
        let stored = store.load_game(id).expect("load");
        assert_eq!(stored.meta.result.code(), Some(format!("draw {reason}")));
        let exported = store.export_game(id).expect("export");
        assert_eq!(exported["format"], "ggdesk-physical/1");
        let events = exported["events"].as_array().expect("events");
        assert_eq!(events.len(), 5);
        assert_eq!(
            events[4],
            serde_json::json!({"t": 5.0, "perpetual": reason})
        );
        let err = store
            .append(id, 6.0, moved, &actor, "")
            .expect_err("nothing after the end");
        assert_rejected(&err, "the game already ended at 5.000 s");
        assert_eq!(store.load_game(id).expect("load").events.len(), 5);
        let board_now = store
            .round_view(tid, RoundNo(1))
            .expect("view")
            .expect("round")
            .boards
            .into_iter()
            .find(|x| x.board == board)
            .expect("board");
        assert_eq!(board_now.result, GameResult::Draw, "{reason}");
    }
}

/// A database of schema version 1 (`schema.sql` alone, `user_version` 1) holding what an
/// event leaves (players, a tournament and its round, games with their events and an undo,
/// the audit log) is migrated to this build's version with every row intact; opening it
/// again changes nothing.
#[test]
fn a_version_1_database_is_migrated_with_its_rows_and_opening_it_again_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    // The rows, as this build writes them.
    let source = dir.path().join("source.sqlite3");
    let (tid, expected) = {
        let mut store = Store::open(&source).expect("source");
        store.set_clock(ticking_clock(1_700_000_000_000));
        let (tid, _) = published_round(&mut store);
        let actor = Actor::arbiter(None);
        let id = started_game(&mut store, 40);
        for i in 0..3 {
            let e = games::first_legal(&store, id);
            store
                .append_event(id, at(f64::from(i + 1), e), &actor, "")
                .expect("move");
        }
        store
            .undo_last_event(id, 4.0, &actor, "wrong square")
            .expect("undo");
        (tid, snapshot(&store, tid))
    };
    // Version 1: its schema alone, and the same rows.
    let old = dir.path().join("old.sqlite3");
    {
        let conn = rusqlite::Connection::open(&old).expect("sqlite");
        conn.execute_batch(include_str!("../schema.sql"))
            .expect("schema 1");
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .expect("id");
        conn.pragma_update(None, "user_version", 1)
            .expect("version");
        conn.execute("ATTACH ?1 AS source", [source.display().to_string()])
            .expect("attach");
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table'")
            .expect("tables")
            .query_map([], |r| r.get(0))
            .expect("query")
            .map(|r| r.expect("name"))
            .collect();
        assert!(tables.contains(&"game_events".to_string()));
        for table in tables {
            let columns: Vec<String> = conn
                .prepare(&format!("PRAGMA main.table_info({table})"))
                .expect("columns")
                .query_map([], |r| r.get(1))
                .expect("query")
                .map(|r| r.expect("column"))
                .collect();
            let columns = columns.join(", ");
            conn.execute(
                &format!(
                    "INSERT INTO main.{table} ({columns}) SELECT {columns} FROM source.{table}"
                ),
                [],
            )
            .expect("copy the rows");
        }
        conn.execute("DETACH source", []).expect("detach");
        let columns: Vec<String> = conn
            .prepare("PRAGMA table_info(game_events)")
            .expect("columns")
            .query_map([], |r| r.get(1))
            .expect("query")
            .map(|r| r.expect("column"))
            .collect();
        assert!(
            !columns.contains(&"token".to_string()),
            "version 1 has no tokens"
        );
    }
    let store = Store::open(&old).expect("migrated");
    assert_eq!(store.schema_version().expect("version"), SCHEMA_VERSION);
    assert_eq!(SCHEMA_VERSION, 12);
    assert_eq!(snapshot(&store, tid), expected, "every row intact");
    drop(store);
    {
        let conn = rusqlite::Connection::open(&old).expect("sqlite");
        let token_index: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'game_events_token'",
                [],
                |r| r.get(0),
            )
            .expect("index");
        assert_eq!(token_index, 1, "migration 2 ran");
    }
    let bytes = std::fs::read(&old).expect("read");
    let store = Store::open(&old).expect("again");
    assert_eq!(store.schema_version().expect("version"), SCHEMA_VERSION);
    assert_eq!(snapshot(&store, tid), expected);
    drop(store);
    assert_eq!(
        std::fs::read(&old).expect("read"),
        bytes,
        "the second open is a no-op"
    );
}

/// A database at an older version whose tables do not match that version (here one that
/// already has a column the next migration adds, as a development build could leave it) is
/// refused with the failed step named, and left as it was.
#[test]
fn a_database_whose_upgrade_fails_is_refused_with_the_step_named_and_left_as_it_was() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("odd.sqlite3");
    drop(Store::open(&path).expect("create"));
    // It says it is at version 2: migration 3, which adds columns, cannot run again.
    let older = 2;
    {
        let conn = rusqlite::Connection::open(&path).expect("sqlite");
        conn.pragma_update(None, "user_version", older)
            .expect("an older version");
        conn.pragma_update(None, "journal_mode", "DELETE")
            .expect("no wal");
    }
    let err = refused_untouched(&path);
    let text = err.to_string();
    assert!(
        text.contains(&format!("schema version {older}"))
            && text.contains(&format!("to version {}", older + 1))
            && text.contains("duplicate column")
            && text.contains("nothing was changed"),
        "{text}"
    );
    let conn = rusqlite::Connection::open(&path).expect("sqlite");
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .expect("version");
    assert_eq!(version, older, "the version is as it was");
}

/// Everything a store shows of an event: the tournament file, every game as stored, the
/// players and the audit log.
fn snapshot(
    store: &Store,
    tid: TournamentId,
) -> (
    serde_json::Value,
    Vec<ggdesk::store::StoredGame>,
    Vec<ggdesk::store::RegistryPlayer>,
    Vec<ggdesk::store::AuditEntry>,
) {
    let games = store
        .game_metas(None)
        .expect("games")
        .iter()
        .map(|m| store.load_game(m.id).expect("game"))
        .collect();
    (
        store.export_tournament(tid).expect("tournament"),
        games,
        store.players().expect("players"),
        store.audit_log(AuditFilter::All).expect("audit"),
    )
}

/// What the Tables page reads in one go: the live games of the round in play and of no
/// round (practice tables; an imported record only while it waits for its readings), each
/// with its timers; never a void game, another round's game or a decided import.
fn the_desks_tables_are_the_rounds_games_and_the_practice_tables_with_their_timers(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let director = Actor::director();
    let (tid, _) = published_round(&mut store);
    let boards = store.event(tid).expect("event").boards_by_table(RoundNo(1));
    let a = Actor::arbiter(Some(1));
    let board_game = |store: &mut Store, i: usize| {
        let new = NewGame::for_board(
            tid,
            RoundNo(1),
            &boards[i],
            GameMode::Arbitrated,
            Default::default(),
        );
        store.create_game(&new, &a).expect("game")
    };
    let first = board_game(&mut store, 0);
    store
        .start_setup_timer(first, 5_000, &a)
        .expect("setup timer");
    let voided = board_game(&mut store, 1);
    let replay = store
        .void_and_replay(voided, "wrong colours", &director)
        .expect("replay");
    let practice = store
        .create_game(&NewGame::standalone(), &director)
        .expect("practice");
    // Every example record the store takes.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/examples");
    let mut imported = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("examples") {
        let path = entry.expect("entry").path();
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Ok(record) = Record::from_json_str(&text)
            && let Ok(id) = store.import_record(&record, &director)
        {
            imported.push(id);
        }
    }
    let metas = store.game_metas(None).expect("every game");
    let waiting: Vec<GameId> = metas
        .iter()
        .filter(|m| imported.contains(&m.id))
        .filter(|m| m.result == Decision::AdjudicationPending)
        .map(|m| m.id)
        .collect();
    assert!(
        !waiting.is_empty() && waiting.len() < imported.len(),
        "the examples hold records waiting for readings and decided ones"
    );
    let desk = store
        .desk_games(Some((tid, RoundNo(1))))
        .expect("desk games");
    assert!(desk.damaged.is_empty(), "{:?}", desk.damaged);
    let shown = desk.games;
    let mut ids: Vec<GameId> = shown.iter().map(|(m, _)| m.id).collect();
    let mut expected = vec![first, replay, practice];
    expected.extend(&waiting);
    ids.sort_by_key(|g| g.0);
    expected.sort_by_key(|g| g.0);
    assert_eq!(ids, expected);
    for (meta, timers) in &shown {
        assert_eq!(*timers, store.table_timers(meta.id).expect("timers"));
        assert_eq!(*meta, store.load_game(meta.id).expect("game").meta);
    }
    let timers = shown.iter().find(|(m, _)| m.id == first).expect("first").1;
    assert_eq!(timers.setup_started_at, Some(5_000));
    // Without a round in play: the practice tables and the records waiting alone.
    let off_round: Vec<GameId> = store
        .desk_games(None)
        .expect("desk games")
        .games
        .iter()
        .map(|(m, _)| m.id)
        .collect();
    assert!(off_round.contains(&practice));
    assert!(!off_round.contains(&first) && !off_round.contains(&replay));
    assert_eq!(off_round.len(), 1 + waiting.len());
}

/// A game whose clock ran out while the desk was down decides the last board of its round
/// when the desk restores it: the restore says so, with the round's backup.
fn a_round_a_restore_completes_is_reported_with_its_backup(engine: Engine) {
    use ggdesk::tournament::GameResult;
    let mut store = engines::fresh_store(engine);
    let (tid, boards) = published_round(&mut store);
    let director = Actor::director();
    store
        .set_result(tid, RoundNo(1), boards[1], GameResult::Draw, "", &director)
        .expect("the other board");
    let board = store.event(tid).expect("event").boards_by_table(RoundNo(1))[0].clone();
    let rules = ggdesk::rules::RuleSettings {
        oversteps_to_lose: 1,
        ..Default::default()
    };
    let new = NewGame::for_board(tid, RoundNo(1), &board, GameMode::Arbitrated, rules);
    let (id, _) = started_with(&mut store, &new, 12, 0);
    // The desk saw the clocks at 130 s: White's move time had run out at 120 s.
    store.record_clocks_seen(&[(id, 130.0)]).expect("seen");
    let report = store.restore_games_in_progress(500_000).expect("restore");
    assert_eq!(report.restored.len(), 1, "{report:?}");
    assert_eq!(
        report
            .completed
            .iter()
            .map(|c| (c.tournament, c.round))
            .collect::<Vec<_>>(),
        vec![(tid, RoundNo(1))]
    );
}
