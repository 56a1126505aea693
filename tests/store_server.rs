//! What only the event server has: refusals of a database that is not ours, append-only
//! tables whoever asks, arbiter stations as rows of the stations' API (never logins), several desks
//! at once (one wins, the other is told), notifications, `copy` both ways, many `feed`
//! writers, and a lost connection.

#[path = "support/event.rs"]
mod event;
#[path = "support/feed.rs"]
mod feed;
#[path = "support/pg.rs"]
mod pg;

use ggdesk::store::{
    Actor, Address, AnyEvent, BackupNote, Change, Expect, GameId, NewGame, PlayerInput, Store,
    StoreError, TournamentId,
};
use ggdesk_core::Refusal;
use ggdesk_core::game::desk::GameRefusal;
use ggdesk_core::rules::{Event, Side};
use ggdesk_core::tournament::{GameResult, RoundNo, TableNo};

use event::games;
use event::{connect, event_paired, event_with_round, setups, table_game};
use feed::wait;

fn db_name(url: &str) -> String {
    url.rsplit('/').next().unwrap_or("").to_string()
}

/// The tables of a database and ggdesk's schema version, as psql sees them.
fn schema_of(url: &str) -> String {
    pg::cluster().psql(
        &db_name(url),
        "SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public'",
    )
}

#[test]
fn a_newer_or_foreign_database_is_refused_and_left_unchanged() {
    let cluster = pg::cluster();
    // Newer: a ggdesk database whose schema a later build wrote.
    let url = cluster.new_database();
    drop(connect(&url));
    cluster.psql(&db_name(&url), "UPDATE ggdesk_meta SET schema_version = 99");
    let before = schema_of(&url);
    let err = Store::connect(&Address::Server(url.clone())).expect_err("newer refused");
    assert!(
        matches!(err, StoreError::Newer { found: 99, .. }),
        "{err:?}"
    );
    assert_eq!(schema_of(&url), before);
    assert_eq!(
        cluster.psql(&db_name(&url), "SELECT schema_version FROM ggdesk_meta"),
        "99"
    );
    // Foreign: another program's tables, no ggdesk_meta.
    let url = cluster.new_database();
    cluster.psql(&db_name(&url), "CREATE TABLE inventory (item text)");
    let err = Store::connect(&Address::Server(url.clone())).expect_err("foreign refused");
    assert!(matches!(err, StoreError::Foreign { .. }), "{err:?}");
    assert_eq!(schema_of(&url), "inventory", "nothing created beside it");
    // The command line says so and exits 1.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["--db", &url, "export", "tournament", "1", "-"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a ggdesk database"), "{stderr}");
    assert!(
        !stderr.contains(pg::SUPERUSER_PASSWORD),
        "no password shown: {stderr}"
    );
}

#[test]
fn events_and_audit_rows_can_only_be_inserted_on_the_server() {
    let url = pg::new_database();
    let mut store = connect(&url);
    let actor = Actor::arbiter(None);
    let id = store
        .create_game(&NewGame::standalone(), &actor)
        .expect("game");
    let s = setups(1);
    for side in Side::BOTH {
        store.save_setup(id, side, &s[side], &actor).expect("setup");
    }
    store.start_game(id, 0, Side::White, &actor).expect("start");
    let e = games::first_legal(&store, id);
    store
        .append(id, 1.0, AnyEvent::Game(e), &actor, "")
        .expect("append");
    let db = db_name(&url);
    for (sql, table) in [
        ("UPDATE game_events SET t = 99", "game_events"),
        ("DELETE FROM game_events", "game_events"),
        ("TRUNCATE game_events CASCADE", "game_events"),
        ("UPDATE audit_log SET actor = 'x'", "audit_log"),
        ("DELETE FROM audit_log", "audit_log"),
        ("TRUNCATE audit_log", "audit_log"),
    ] {
        let out = pg::pg_command(&pg::cluster().bin, "psql")
            .arg("-h")
            .arg(&pg::cluster().dir)
            .args([
                "-p",
                &pg::cluster().port.to_string(),
                "-U",
                "postgres",
                "-d",
                &db,
            ])
            .args(["-v", "ON_ERROR_STOP=1", "-c", sql])
            .output()
            .expect("psql");
        assert!(
            !out.status.success(),
            "{sql} must be refused, even for the superuser"
        );
        // Refused by the append-only trigger, which names the table (not by anything else).
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("{table} is append-only")),
            "{sql}: {stderr}"
        );
    }
    assert_eq!(store.load_game(id).expect("load").events.len(), 1);
}

#[test]
fn a_station_is_a_row_with_the_hash_of_its_secret_and_never_a_login() {
    let url = pg::new_database();
    let db = db_name(&url);
    let mut director = connect(&url);
    let tid = event_with_round(&mut director, 8);
    let d = Actor::director();
    // The roles named after the event's database, as a station's login was (other tests
    // make directors' logins on the cluster meanwhile).
    let like = format!("SELECT count(*) FROM pg_roles WHERE rolname LIKE '{db}\\_%'");
    let roles = || pg::cluster().psql("postgres", &like);
    let roles_before = roles();
    let secret = director
        .add_station("hall-a", tid, &[TableNo(1), TableNo(2)], &d)
        .expect("station");
    assert!(
        secret.len() == 32 && secret.chars().all(|c| c.is_ascii_hexdigit()),
        "{secret}"
    );
    // No login was made, and the secret is nowhere in the database in plain text.
    assert_eq!(roles(), roles_before, "no role");
    let row = pg::cluster().psql(&db, "SELECT string_agg(t::text, ' ') FROM stations t");
    assert!(row.contains("sha256$") && !row.contains(&secret), "{row}");
    let found = director
        .station_by_secret("hall-a", &secret)
        .expect("read")
        .expect("its secret opens it");
    assert_eq!(
        (found.tables, found.tournament),
        (vec![TableNo(1), TableNo(2)], tid)
    );
    assert_eq!(
        director
            .station_by_secret("hall-a", "0123456789abcdef0123456789abcdef")
            .expect("read"),
        None
    );
    // Refused, nothing made: a table another station of the tournament runs, a name taken,
    // a name that is no station's, a tournament that does not exist.
    let rejected = |r: Result<String, StoreError>, says: &str| match r {
        Err(StoreError::Rejected(m)) => assert_eq!(m, says),
        other => panic!("must be refused saying {says:?}, got {other:?}"),
    };
    rejected(
        director.add_station("hall-b", tid, &[TableNo(2), TableNo(3)], &d),
        &format!(
            "station hall-a runs table 2 of tournament {tid} already: two stations never hold \
             the same table of one tournament"
        ),
    );
    rejected(
        director.add_station("HALL-A", tid, &[TableNo(5)], &d),
        "station HALL-A exists already",
    );
    rejected(
        director.add_station("hall a", tid, &[TableNo(5)], &d),
        "\"hall a\" is not a station name: use letters, digits, - and _ (at most 32)",
    );
    match director.add_station("hall-c", TournamentId(999), &[TableNo(5)], &d) {
        Err(StoreError::NotFound(m)) => assert_eq!(m, "tournament 999"),
        other => panic!("a tournament that does not exist: {other:?}"),
    }
    assert_eq!(director.stations().expect("stations").len(), 1);
    assert_eq!(roles(), roles_before, "no role");
    // Removed: its row goes, and its secret opens nothing.
    director.remove_station("hall-a", &d).expect("removed");
    assert!(director.stations().expect("stations").is_empty());
    assert_eq!(
        director.station_by_secret("hall-a", &secret).expect("read"),
        None
    );
}

#[test]
fn two_desks_appending_to_one_game_one_wins_and_the_other_is_told() {
    let url = pg::new_database();
    let mut a = connect(&url);
    let mut b = connect(&url);
    let actor = Actor::arbiter(Some(1));
    let id = a.create_game(&NewGame::standalone(), &actor).expect("game");
    let s = setups(3);
    for side in Side::BOTH {
        a.save_setup(id, side, &s[side], &actor).expect("setup");
    }
    a.start_game(id, 0, Side::White, &actor).expect("start");
    // Both desks show the game with no event yet.
    let e = games::first_legal(&a, id);
    a.append_expecting(
        id,
        Some(Expect {
            seq: 0,
            token: "a-0",
        }),
        1.0,
        AnyEvent::Game(e),
        &actor,
        "",
    )
    .expect("the first desk wins");
    let late = b.append_expecting(
        id,
        Some(Expect {
            seq: 0,
            token: "b-0",
        }),
        1.5,
        AnyEvent::Game(e),
        &actor,
        "",
    );
    match late {
        Err(StoreError::Conflict(m)) => assert!(m.contains("another desk"), "{m}"),
        other => panic!("the second desk must be told, got {other:?}"),
    }
    // The second desk reloads and goes on from the game as it is.
    let stored = b.load_game(id).expect("load");
    assert_eq!(stored.events.len(), 1);
    let next = AnyEvent::Game(games::first_legal(&b, id));
    let expect = Some(Expect {
        seq: 1,
        token: "b-1",
    });
    b.append_expecting(id, expect, 2.0, next, &actor, "")
        .expect("after reloading");
    // A retry of an attempt whose confirmation was lost (the same call again) finds its
    // event: stored once.
    let again = b
        .append_expecting(id, expect, 2.0, next, &actor, "")
        .expect("the retry is recognised");
    assert_eq!(again.seq, 1);
    assert_eq!(b.load_game(id).expect("load").events.len(), 2);
}

/// Runs `desk` on a connection of its own while another connection holds game `id` started
/// (as `start_game` does: its row locked, then `started_at` and `first` set) in a
/// transaction not yet committed; commits it once `desk`'s connection waits for a lock, and
/// returns what `desk` answered.
fn while_another_desk_starts<T: Send + 'static>(
    url: &str,
    id: GameId,
    first: Side,
    desk: impl FnOnce(&mut Store) -> T + Send + 'static,
) -> T {
    let mut starter = ::postgres::Client::connect(url, ::postgres::NoTls).expect("connect");
    let mut watcher = ::postgres::Client::connect(url, ::postgres::NoTls).expect("connect");
    let mut tx = starter.transaction().expect("begin");
    tx.batch_execute(&format!(
        "SELECT 1 FROM games WHERE id = {id} FOR UPDATE;
         UPDATE games SET started_at = 1000, first = '{}' WHERE id = {id}",
        first.name()
    ))
    .expect("start the game");
    let url = url.to_string();
    let other = std::thread::spawn(move || desk(&mut connect(&url)));
    until_locks_are_awaited(&mut watcher, 1, &other);
    tx.commit().expect("commit the start");
    other.join().expect("the desk's thread")
}

/// Returns once `n` connections to the watcher's database wait for a lock (a condition, not
/// a time: the deadline only keeps a broken test from hanging); `desk` must not end before.
fn until_locks_are_awaited<T>(
    watcher: &mut ::postgres::Client,
    n: i64,
    desk: &std::thread::JoinHandle<T>,
) {
    wait::until(&format!("{n} connections to wait for a lock"), || {
        let waiting: i64 = watcher
            .query_one(
                "SELECT count(*) FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock'",
                &[],
            )
            .expect("pg_stat_activity")
            .get(0);
        assert!(
            waiting >= n || !desk.is_finished(),
            "the desk finished without waiting for a lock"
        );
        waiting >= n
    });
}

#[test]
fn lots_and_a_setup_timer_are_refused_for_a_game_another_desk_has_just_started() {
    let url = pg::new_database();
    let mut store = connect(&url);
    let actor = Actor::arbiter(Some(1));
    // Lots: the start's side to move stands, and no lots are recorded.
    let id = store
        .create_game(&NewGame::standalone(), &actor)
        .expect("game");
    let drawn = while_another_desk_starts(&url, id, Side::White, move |desk| {
        desk.draw_lots(id, Side::Black, 2_000, &Actor::arbiter(Some(1)))
    });
    match drawn {
        Err(e @ StoreError::Refused(Refusal::Game(GameRefusal::TooLateForLots(g)))) => {
            assert_eq!(g, id);
            assert!(e.to_string().contains("too late for lots"), "{e}");
        }
        other => panic!("lots for a started game must be refused, got {other:?}"),
    }
    let game = store.load_game(id).expect("load");
    assert_eq!(game.meta.started_at, Some(1000));
    assert_eq!(game.meta.first, Side::White, "the start's side moves first");
    assert_eq!(store.table_timers(id).expect("timers").lots_drawn_at, None);
    // The setup timer does not start for a game past its setups.
    let id = store
        .create_game(&NewGame::standalone(), &actor)
        .expect("game");
    let timer = while_another_desk_starts(&url, id, Side::Black, move |desk| {
        desk.start_setup_timer(id, 2_000, &Actor::arbiter(Some(1)))
    });
    match timer {
        Err(e @ StoreError::Refused(Refusal::Game(GameRefusal::PastSetups(g)))) => {
            assert_eq!(g, id);
            assert!(e.to_string().contains("past its setups"), "{e}");
        }
        other => panic!("a setup timer for a started game must be refused, got {other:?}"),
    }
    assert_eq!(
        store.table_timers(id).expect("timers").setup_started_at,
        None
    );
}

/// The server may refuse a pairing for a concurrent change (a deadlock broken, a
/// serialization failure) and the store runs it again: a completion of the last round that
/// only the refused run made is not reported (nor backed up) when the run that commits
/// finds the round completed by another desk.
#[test]
fn a_pairing_run_again_after_the_server_refused_it_reports_only_what_its_last_run_completed() {
    let url = pg::new_database();
    let mut store = connect(&url);
    let tid = event_with_round(&mut store, 4);
    let mut gate = ::postgres::Client::connect(&url, ::postgres::NoTls).expect("connect");
    let mut watcher = ::postgres::Client::connect(&url, ::postgres::NoTls).expect("connect");
    // Every result of round 1 is in, but the round is still published (as a database from
    // before every last result completed its round). The first board of a new round waits
    // at a gate this test holds, then is refused as a serialization failure for as long as
    // `pairing_gate.refuse` says so.
    gate.batch_execute(&format!(
        "UPDATE pairings SET result = 'draw' WHERE tournament_id = {tid} AND round = 1;
         CREATE TABLE pairing_gate (refuse BOOLEAN NOT NULL);
         INSERT INTO pairing_gate VALUES (true);
         CREATE FUNCTION pairing_gate() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
             PERFORM pg_advisory_xact_lock(7);
             IF (SELECT refuse FROM pairing_gate) THEN
                 RAISE EXCEPTION 'refused by the test' USING ERRCODE = 'serialization_failure';
             END IF;
             RETURN NEW;
         END $$;
         CREATE TRIGGER pairing_gate BEFORE INSERT ON pairings
             FOR EACH ROW EXECUTE FUNCTION pairing_gate();
         SELECT pg_advisory_lock(7);"
    ))
    .expect("the gate");
    let desk_url = url.clone();
    let pairing =
        std::thread::spawn(move || connect(&desk_url).pair_round(tid, &Actor::director()));
    // The pairing has completed round 1 and waits at the gate.
    until_locks_are_awaited(&mut watcher, 1, &pairing);
    // Another desk completes round 1 too: it waits for the pairing's lock on the round, and
    // commits once the pairing's first run is refused (the next run then waits for it).
    let other_url = url.clone();
    let other = std::thread::spawn(move || {
        let mut client =
            ::postgres::Client::connect(&other_url, ::postgres::NoTls).expect("connect");
        let mut tx = client.transaction().expect("begin");
        tx.batch_execute(&format!(
            "UPDATE rounds SET state = 'complete', completed_at = 5
                 WHERE tournament_id = {tid} AND number = 1;
             UPDATE pairing_gate SET refuse = false"
        ))
        .expect("the other desk completes round 1");
        tx.commit().expect("commit");
    });
    until_locks_are_awaited(&mut watcher, 2, &pairing);
    gate.batch_execute("SELECT pg_advisory_unlock(7)")
        .expect("open the gate");
    other.join().expect("the other desk's thread");
    let paired = pairing
        .join()
        .expect("the pairing's thread")
        .expect("paired on a later run");
    assert_eq!(paired.round, RoundNo(2));
    assert!(
        paired.completed.is_none(),
        "round 1 was completed by the other desk, not by this pairing: {:?}",
        paired.completed
    );
}

#[test]
fn two_directors_editing_one_round_the_later_is_refused_with_what_changed() {
    let url = pg::new_database();
    let mut one = connect(&url);
    let tid = event_with_round(&mut one, 6);
    let mut two = connect(&url);
    let d = Actor::director();
    let view_one = one
        .round_view(tid, RoundNo(1))
        .expect("view")
        .expect("round");
    let view_two = two
        .round_view(tid, RoundNo(1))
        .expect("view")
        .expect("round");
    assert_eq!(view_one, view_two);
    let board = view_one.boards[0].board;
    one.set_result(tid, RoundNo(1), board, GameResult::WhiteWins, "", &d)
        .expect("the first director's result");
    let err = two
        .set_result(tid, RoundNo(1), board, GameResult::BlackWins, "", &d)
        .expect_err("the second director saw the board pending");
    match err {
        StoreError::Conflict(m) => {
            assert!(m.contains("result pending is now white"), "{m}")
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    // A result on another board is not held up by that change.
    let other_board = view_two.boards[1].board;
    two.set_result(tid, RoundNo(1), other_board, GameResult::Draw, "", &d)
        .expect("another board");
    // After looking again, the second director may change it, with a reason.
    two.round_view(tid, RoundNo(1)).expect("view");
    two.set_result(
        tid,
        RoundNo(1),
        board,
        GameResult::BlackWins,
        "misread the sheet",
        &d,
    )
    .expect("after reloading");
}

#[test]
fn a_round_published_on_the_server_says_the_server_keeps_it_not_a_backup_file() {
    let url = pg::new_database();
    let mut director = connect(&url);
    let (tid, round) = event_paired(&mut director, 4);
    let note = director
        .publish_round(tid, round, &Actor::director())
        .expect("publish");
    assert_eq!(note, BackupNote::OnServer);
    assert!(
        note.describe().contains("event server"),
        "{}",
        note.describe()
    );
}

/// The notice is awaited, not timed: how soon it comes is the server benchmark's to measure.
#[test]
fn a_change_at_one_desk_is_announced_to_the_others() {
    let url = pg::new_database();
    let mut director = connect(&url);
    let tid = event_with_round(&mut director, 4);
    let watcher = connect(&url);
    let changes = watcher
        .listen(|| {})
        .expect("listen")
        .expect("a server listens");
    wait::until("the watcher's listener to connect", || changes.connected());
    let board = director
        .round_view(tid, RoundNo(1))
        .expect("view")
        .expect("round")
        .boards[0]
        .board;
    director
        .set_result(
            tid,
            RoundNo(1),
            board,
            GameResult::Draw,
            "",
            &Actor::director(),
        )
        .expect("result");
    let change = changes
        .next(wait::BOUND)
        .expect("the result is announced to the watcher");
    assert!(
        matches!(change, Change::Row { tournament: Some(t), .. } if t == tid),
        "{change:?}"
    );
}

#[test]
fn copy_both_ways_gives_identical_exports() {
    let dir = tempfile::tempdir().expect("tempdir");
    let lite = Address::File(dir.path().join("event.sqlite3"));
    let mut src = Store::connect(&lite).expect("sqlite");
    let tid = event_with_round(&mut src, 7);
    let actor = Actor::arbiter(Some(1));
    let id = table_game(&mut src, tid, 1, &actor).expect("game");
    let e = games::first_legal(&src, id);
    src.append(id, 4.0, AnyEvent::Game(e), &actor, "")
        .expect("move");
    src.void_and_replay(id, "arbiter's mistake", &Actor::director())
        .expect("void");
    let exports = |s: &Store| {
        let games: Vec<_> = s
            .game_metas(None)
            .expect("games")
            .iter()
            .map(|m| (m.id, s.load_game(m.id).expect("game")))
            .collect();
        (
            s.export_tournament(tid).expect("tournament"),
            games,
            s.audit_log(ggdesk::store::AuditFilter::All).expect("audit"),
            s.players().expect("players"),
        )
    };
    let original = exports(&src);
    let url = pg::new_database();
    let mut server = connect(&url);
    let counts = src.copy_into(&mut server).expect("to the server");
    assert!(counts.to_string().contains("games 2"), "{counts}");
    assert_eq!(
        exports(&server),
        original,
        "the server holds the same event"
    );
    // Copying into a database that holds data is refused and changes nothing.
    let err = src.copy_into(&mut server).expect_err("not empty");
    assert!(
        matches!(&err, StoreError::Rejected(m) if m.contains("already holds ggdesk data")),
        "{err:?}"
    );
    assert_eq!(exports(&server), original);
    // The server numbers new rows after the copied ones.
    let p = server
        .add_player(
            &PlayerInput {
                name: "Late".into(),
                ..PlayerInput::default()
            },
            &Actor::director(),
        )
        .expect("a new player after the copy");
    assert!(original.3.iter().all(|q| q.id < p));
    // And back into a new SQLite file, through the command line.
    let back = dir.path().join("archive.sqlite3");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["--db", &url, "copy"])
        .arg(&back)
        .output()
        .expect("run copy");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let archive = Store::open(&back).expect("archive");
    let mut expected = exports(&server);
    let mut got = exports(&archive);
    // The player added on the server came along too.
    assert_eq!(got.3.len(), expected.3.len());
    expected.3.clear();
    got.3.clear();
    assert_eq!(got, expected);
    // Into a file that holds data: exit 2, unchanged.
    let before = std::fs::read(&back).expect("read");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["--db", &url, "copy"])
        .arg(&back)
        .output()
        .expect("run copy");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("archive.sqlite3") && stderr.contains("already holds ggdesk data"),
        "the file and why: {stderr}"
    );
    assert_eq!(std::fs::read(&back).expect("read"), before);
}

#[test]
fn a_lost_server_is_reported_and_the_store_reconnects_by_itself() {
    let server = pg::own_cluster("restart");
    let url = server.url("postgres");
    let mut store = connect(&url);
    let changes = store.listen(|| {}).expect("listen").expect("server");
    wait::until("the listener to be up before the server goes", || {
        changes.connected()
    });
    let actor = Actor::arbiter(None);
    store
        .create_game(&NewGame::standalone(), &actor)
        .expect("game");
    server.stop();
    let err = store
        .create_game(&NewGame::standalone(), &actor)
        .expect_err("nothing can be saved");
    assert!(err.is_disconnected(), "{err:?}");
    assert!(
        err.to_string()
            .starts_with("not connected: nothing is being saved")
    );
    server.start();
    // The store reconnects by itself on a later call; a call made while the server is
    // still busy starting may find it unreachable once more (and saves nothing either).
    let id = wait::for_value("the store to reconnect by itself", || {
        match store.create_game(&NewGame::standalone(), &actor) {
            Ok(id) => Some(id),
            Err(e) if e.is_disconnected() => None,
            Err(e) => panic!("only a lost connection may stop it: {e:?}"),
        }
    });
    assert_eq!(id, GameId(2), "the failed attempts saved nothing");
    wait::until(
        "the listener to come back and ask for a full reload",
        || changes.drain().contains(&Change::Everything),
    );
}

#[test]
fn twenty_feed_writers_and_two_desks_lose_and_repeat_nothing() {
    let url = pg::new_database();
    drop(connect(&url));
    let children: Vec<_> = (0..20)
        .map(|i| feed::spawn_feed(&url, feed::feed_lines_up_to(7_000 + i, 300)))
        .collect();
    let desks: Vec<_> = (0..2u64)
        .map(|k| {
            let url = url.clone();
            std::thread::spawn(move || {
                let mut store = connect(&url);
                let actor = Actor::arbiter(Some(k as i64 + 1));
                let id = store
                    .create_game(&NewGame::standalone(), &actor)
                    .expect("game");
                let s = setups(100 + k);
                for side in Side::BOTH {
                    store.save_setup(id, side, &s[side], &actor).expect("setup");
                }
                store.start_game(id, 0, Side::White, &actor).expect("start");
                let mut appended = 0u32;
                for i in 0..60u32 {
                    let stored = store.load_game(id).expect("load");
                    let game = stored.game().expect("setups").expect("replay");
                    if game.is_over() {
                        break;
                    }
                    let moves = game.position().legal_moves(game.to_move());
                    let Some(mv) = moves.first() else { break };
                    let token = format!("desk-{k}-{i}");
                    store
                        .append_expecting(
                            id,
                            Some(Expect {
                                seq: appended,
                                token: &token,
                            }),
                            f64::from(i + 1),
                            AnyEvent::Game(Event::Move { mv: *mv, by: None }),
                            &actor,
                            "",
                        )
                        .expect("the desk's own game");
                    appended += 1;
                    // What a desk reads every frame meanwhile.
                    store.game_metas(None).expect("metas");
                }
                (id, appended)
            })
        })
        .collect();
    let mut acked_total = 0;
    let mut results = Vec::new();
    for (mut child, reader) in children {
        let status = child.wait().expect("wait");
        let lines = reader.join().expect("reader");
        assert!(status.success(), "a feed writer failed: {lines:?}");
        results.push(feed::acknowledged(&lines).expect("game and acks"));
    }
    let store = connect(&url);
    for (game, acks) in &results {
        feed::check_game(&store, *game, acks, 0);
        let stored = store.load_game(GameId(*game)).expect("game");
        assert_eq!(
            stored.events.len(),
            acks.len(),
            "feed stores exactly what it reads"
        );
        acked_total += acks.len();
    }
    for desk in desks {
        let (id, appended) = desk.join().expect("desk");
        assert_eq!(
            store.load_game(id).expect("game").events.len(),
            appended as usize
        );
    }
    assert!(acked_total > 20 * 10, "the writers wrote: {acked_total}");
}

/// The event set up as the README says: a director login that is no superuser, may create
/// roles, and owns the event's database. Its first connection creates the schema; it adds
/// an arbiter station (of the stations' API); and the public pages started with it read as
/// the database's public role.
#[test]
fn the_readmes_director_login_creates_the_event_its_stations_and_its_public_pages() {
    let cluster = pg::cluster();
    let n = std::process::id();
    let (login, db) = (format!("director_{n}"), format!("event_{n}"));
    let url = cluster.director_database(&login, &db);
    let mut director = connect(&url);
    let tid = event_with_round(&mut director, 4);
    director
        .add_station("hall-a", tid, &[TableNo(1)], &Actor::director())
        .expect("the director's login adds a station");
    assert!(director.stations().expect("stations").len() == 1);
    let public = Store::connect_read_only(&Address::Server(url.clone())).expect("the public pages");
    assert!(!public.tournaments().expect("tournaments").is_empty());
    let role = cluster.psql(
        &db,
        &format!("SELECT pg_has_role('{login}', '{db}_public', 'MEMBER')"),
    );
    assert_eq!(role, "t", "the director's login reads as the public role");
}

/// m4: an upgrade of the schema waits for a table another session holds (a desk's open
/// transaction) a while, not for ever: then it changes nothing and names the session (its
/// login, its pid, the tables it holds). Once that session ends, the upgrade goes through.
#[test]
fn an_upgrade_blocked_by_another_sessions_lock_gives_up_and_names_it() {
    let cluster = pg::cluster();
    let url = cluster.new_database();
    let db = db_name(&url);
    // A database as schema version 7 left it.
    let root = env!("CARGO_MANIFEST_DIR");
    let mut sql = String::new();
    for file in [
        "schema.postgres.sql",
        "migrations/002-event-tokens.postgres.sql",
        "migrations/003-desk-timers.postgres.sql",
        "migrations/004-station-functions.postgres.sql",
        "migrations/005-ratings.postgres.sql",
        "migrations/006-stages.postgres.sql",
        "migrations/007-station-audit.postgres.sql",
    ] {
        sql.push_str(&std::fs::read_to_string(format!("{root}/{file}")).expect("migration"));
        sql.push('\n');
    }
    sql.push_str("UPDATE ggdesk_meta SET schema_version = 7;\n");
    cluster.psql(&db, &sql);
    // Another session holds the stations table (migration 8 changes it).
    let mut holder = pg::pg_command(&cluster.bin, "psql")
        .arg("-h")
        .arg(&cluster.dir)
        .args(["-p", &cluster.port.to_string(), "-U", "postgres", "-d", &db])
        .args([
            "-c",
            "BEGIN; LOCK TABLE public.stations IN ACCESS SHARE MODE; SELECT pg_sleep(600);",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("psql holding a lock");
    let holding = "SELECT coalesce(min(pid), 0) FROM pg_locks \
                   WHERE relation = 'public.stations'::regclass AND granted";
    let pid = wait::for_value("the other session to hold the stations table", || {
        let pid = cluster.psql(&db, holding);
        (pid != "0").then_some(pid)
    });
    let err =
        Store::connect(&Address::Server(url.clone())).expect_err("the lock outlasts the wait");
    let shown = format!("postgres://postgres@127.0.0.1:{}/{db}", cluster.port);
    let expected = format!(
        "{shown} could not be brought to schema version {}: after waiting {} s it still could \
             not change tables that other sessions hold (login postgres, pid {pid}: stations); \
             nothing was changed. Close those desks or end their sessions \
             (SELECT pg_terminate_backend(PID)), then open it again",
        ggdesk::store::SCHEMA_VERSION,
        ggdesk::store::MIGRATION_LOCK_WAIT.as_secs()
    );
    assert_eq!(err.to_string(), expected);
    assert_eq!(
        cluster.psql(&db, "SELECT schema_version FROM ggdesk_meta"),
        "7"
    );
    cluster.psql(&db, &format!("SELECT pg_terminate_backend({pid})"));
    let _ = holder.wait();
    let store = Store::connect(&Address::Server(url)).expect("upgraded once the lock is gone");
    assert_eq!(
        store.schema_version().expect("version"),
        ggdesk::store::SCHEMA_VERSION
    );
}

/// m5 of issue 32 on a server ggdesk does not host: `pages-login` makes `serve` a login of its
/// own that reads what the public pages show and nothing else; it never takes over the
/// director's (or any other) login; run again, the old password stops working.
#[test]
fn a_pages_login_serves_the_pages_and_reads_nothing_else() {
    let url = pg::new_database();
    let mut director = connect(&url);
    event_with_round(&mut director, 8);
    drop(director);
    let ggdesk = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .args(["--db", &url])
            .args(args)
            .output()
            .expect("run ggdesk")
    };
    let out = ggdesk(&["pages-login"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pages_url = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .trim()
        .to_string();
    assert!(pages_url.contains("://ggdesk_pages:"), "{pages_url}");
    // The pages serve with it.
    let server = ggdesk::serve::Server::start(&ggdesk::serve::ServeConfig::new(
        Address::Server(pages_url.clone()),
        "127.0.0.1:0".parse().expect("addr"),
    ))
    .expect("the pages start with their own login");
    let mut s = std::net::TcpStream::connect(server.addr()).expect("connect");
    use std::io::{Read, Write};
    s.write_all(b"GET /api/tournaments HTTP/1.1\r\nHost: hall\r\nConnection: close\r\n\r\n")
        .expect("request");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // It reads no table of the event itself: setups and moves stay out of its reach.
    let mut raw = postgres::Client::connect(&pages_url, postgres::NoTls).expect("pages login");
    let denied = raw
        .simple_query("SELECT count(*) FROM public.games")
        .expect_err("the games are not the pages' to read");
    assert_eq!(
        denied.as_db_error().map(|e| e.message()),
        Some("permission denied for table games"),
        "{denied:?}"
    );
    // The director's login (the cluster's superuser here) is never taken over.
    let out = ggdesk(&["pages-login", "postgres"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "ggdesk: postgres is already a login of this server: choose another name for the \
         public pages' login"
    );
    // Whatever the login set on itself goes with its password (S3).
    raw.batch_execute("ALTER ROLE CURRENT_USER SET search_path = pg_temp, public")
        .expect("a login may set its own settings");
    drop(raw);
    // Again: a new password; the old one no longer logs in, its settings are gone.
    let out = ggdesk(&["pages-login"]);
    assert!(out.status.success());
    let again = String::from_utf8(out.stdout).expect("UTF-8");
    assert_ne!(again.trim(), pages_url);
    let old = postgres::Client::connect(&pages_url, postgres::NoTls)
        .err()
        .expect("the old password is refused");
    assert_eq!(
        old.as_db_error().map(|e| e.message()),
        Some("password authentication failed for user \"ggdesk_pages\""),
        "{old:?}"
    );
    assert_eq!(
        pg::cluster().psql(
            "postgres",
            "SELECT count(*) FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole \
             WHERE r.rolname = 'ggdesk_pages'"
        ),
        "0",
        "the settings the login gave itself survived a new password"
    );
}
