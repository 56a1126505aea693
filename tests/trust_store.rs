//! Issue 19 through the store, as a station's desk (or `ggdesk --db <station URL>`) would
//! try it: a station runs the whole game of its table through its functions; everything
//! else is refused as `StoreError::Denied`, naming what, and nothing changes (the dump);
//! the audit log names the station whatever the desk says; station names that would be
//! another role are refused; a new password and a removal end the station's sessions;
//! a desk's restore writes only into games it runs; after a reconnection nothing is
//! written before the restore.

#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use event::{connect, games};
use ggdesk::desk::LiveTable;
use ggdesk::store::{
    Actor, Address, AnyEvent, AuditFilter, GameId, NewGame, RoundState, Store, StoreError,
};
use ggdesk_core::Refusal;
use ggdesk_core::game::Decision;
use ggdesk_core::game::desk::GameRefusal;
use ggdesk_core::rules::{Event, RuleSettings, Side};
use ggdesk_core::tournament::{GameResult, PlayerId, RoundNo, Score, TableNo};
use serde_json::json;
use trust::{START, dump, roles, sessions};

/// The refusal of a station, naming `subject`.
fn assert_denied<T: std::fmt::Debug>(r: Result<T, StoreError>, subject: &str, what: &str) {
    match r {
        Err(StoreError::Denied(m)) => assert!(
            m.contains(subject),
            "{what}: the refusal names {subject:?}: {m}"
        ),
        other => panic!("{what}: must be refused for this login, got {other:?}"),
    }
}

/// The kinds of a game's log, in order.
fn kinds(store: &Store, id: GameId) -> Vec<String> {
    store
        .load_game(id)
        .expect("game")
        .events
        .iter()
        .map(|e| e.kind.code().to_string())
        .collect()
}

#[test]
fn a_station_runs_the_whole_game_of_its_table_through_its_functions() {
    let ev = trust::event();
    let mut director = connect(&ev.url);
    // A tournament of its own whose two tables are hall-a's: its games decide the round.
    let tid = trust::tournament(&mut director, "s", 4);
    director
        .publish_round(tid, RoundNo(1), &Actor::director())
        .expect("publish");
    let mut a = connect(&ev.a.url);
    assert!(a.is_station());
    let me = Actor::arbiter(Some(1));
    // Table 1: lots, setup timer and ruling, setups, start, moves, an undo, a pause, and
    // game time running out: the adjudication, its reading timer, both sheets.
    let rules = RuleSettings {
        game_limit_ns: 60_000_000_000,
        ..RuleSettings::default()
    };
    let view = a.round_view(tid, RoundNo(1)).expect("view").expect("round");
    let board = view
        .boards
        .iter()
        .find(|b| b.table == TableNo(1))
        .expect("table 1");
    let new = NewGame::for_board(
        tid,
        RoundNo(1),
        board,
        ggdesk::store::GameMode::Arbitrated,
        rules,
    );
    let id = a
        .create_game(&new, &me)
        .expect("the station creates its table's game");
    a.draw_lots(id, Side::White, 500, &me).expect("lots");
    assert_eq!(a.start_setup_timer(id, 600, &me).expect("setup timer"), 600);
    assert_eq!(a.start_setup_timer(id, 900, &me).expect("kept"), 600);
    a.record_setup_overrun(id, 700_000, "Black arrived late: warned", &me)
        .expect("ruling");
    let s = event::setups(11);
    for side in Side::BOTH {
        a.save_setup(id, side, &s[side], &me).expect("setup");
    }
    a.start_game(id, 1_000, Side::White, &me).expect("start");
    trust::move_at(&mut a, id, 2.0);
    a.undo_last_event(id, 3.0, &me, "wrong square")
        .expect("undo");
    trust::move_at(&mut a, id, 4.0);
    a.append(id, 5.0, AnyEvent::Game(Event::Pause), &me, "")
        .expect("pause");
    a.append(id, 6.0, AnyEvent::Game(Event::Resume), &me, "")
        .expect("resume");
    a.record_clocks_seen(&[(id, 30.0)]).expect("heartbeat");
    let out = a
        .append(id, 70.0, AnyEvent::Game(Event::End), &me, "a clock ran out")
        .expect("end");
    assert!(matches!(
        out.state,
        ggdesk_core::rules::GameState::AdjudicationPending { .. }
    ));
    assert_eq!(
        a.start_reading_timer(id, 62_000, &me).expect("reading"),
        62_000
    );
    a.save_reading_sheet(id, Side::White, &json!({}), false, &me)
        .expect("a sheet as it stands");
    a.save_reading_sheet(id, Side::White, &json!({}), true, &me)
        .expect("handed in");
    a.save_reading_sheet(id, Side::Black, &json!({}), true, &me)
        .expect("handed in");
    a.confirm_result(id, &me).expect("confirmed");
    let decided = a.load_game(id).expect("game");
    assert!(
        matches!(decided.meta.result, Decision::Decided(_)),
        "{:?}",
        decided.meta.result
    );
    // Table 2: Black resigns; its result is the round's last: the round is complete.
    let board = view
        .boards
        .iter()
        .find(|b| b.table == TableNo(2))
        .expect("table 2");
    let new = NewGame::for_board(
        tid,
        RoundNo(1),
        board,
        ggdesk::store::GameMode::Arbitrated,
        RuleSettings::default(),
    );
    let two = games::start_with(&mut a, &new, &event::setups(12), 1_000, &me).expect("table 2");
    let out = a
        .append(
            two,
            3.0,
            AnyEvent::Game(Event::Resign(Side::Black)),
            &me,
            "",
        )
        .expect("resign");
    let completed = out.round_completed.expect("the round is complete");
    assert_eq!((completed.tournament, completed.round), (tid, RoundNo(1)));
    let round = director
        .round_view(tid, RoundNo(1))
        .expect("view")
        .expect("round");
    assert_eq!(round.state, RoundState::Complete);
    assert!(round.boards.iter().all(|b| b.result != GameResult::Pending));
    // Every row these wrote names the station, whoever the desk said it was.
    let log = director
        .audit_log(AuditFilter::Tournament(tid))
        .expect("log");
    let station_rows: Vec<_> = log
        .iter()
        .filter(|e| {
            e.game_id == Some(id.0) || e.game_id == Some(two.0) || e.action == "round complete"
        })
        .collect();
    assert!(station_rows.len() > 15, "{}", station_rows.len());
    for row in station_rows {
        assert_eq!(row.actor, "station hall-a", "{row:?}");
    }
    for action in [
        "game created",
        "lots drawn",
        "setup timer started",
        "setup time exceeded",
        "setup entered",
        "game started",
        "move",
        "undo",
        "pause",
        "resume",
        "end",
        "reading timer started",
        "reading sheet handed in",
        "result from the arbiter desk",
        "result confirmed",
        "resign",
        "round complete",
    ] {
        assert!(
            log.iter().any(|e| e.action == action),
            "{action} is in the log"
        );
    }
    // The games replay.
    for g in [id, two] {
        let stored = director.load_game(g).expect("game");
        assert!(
            stored.verdict().expect("record").is_ok(),
            "game {g} replays"
        );
    }
}

#[test]
fn a_station_is_refused_what_only_the_director_may_and_nothing_changes() {
    let ev = trust::event();
    let before = dump(&ev.db);
    let roles_before = roles(&ev);
    let mut a = connect(&ev.a.url);
    let d = Actor::director();
    let me = Actor::arbiter(Some(1));
    let director_writes = "is the director's to change";
    assert_denied(
        a.publish_round(ev.draft, RoundNo(1), &d),
        director_writes,
        "a draft published",
    );
    assert_denied(
        a.discard_draft(ev.draft, RoundNo(1), &d),
        director_writes,
        "a draft discarded",
    );
    // Table 2's result was entered by hand (a draw); table 1's game was decided at hall-a.
    let done_board = ev
        .director
        .round_view(ev.done, RoundNo(1))
        .expect("view")
        .expect("round")
        .boards
        .iter()
        .find(|b| b.table == TableNo(2))
        .expect("table 2")
        .board;
    assert_denied(
        a.set_result(
            ev.done,
            RoundNo(1),
            done_board,
            GameResult::BlackWins,
            "changed my mind",
            &d,
        ),
        director_writes,
        "a result in a completed round",
    );
    // An end is the one event the rules still take after a resignation.
    assert_denied(
        a.append(ev.game_done, 9.0, AnyEvent::Game(Event::End), &me, ""),
        "is not in a round in play (round 1 is complete)",
        "an event in a completed round",
    );
    assert_denied(
        a.undo_last_event(ev.game_done, 9.0, &me, "reopen it"),
        "is not in a round in play (round 1 is complete)",
        "an undo reopening a completed round",
    );
    assert_denied(
        a.set_round_start(ev.open, RoundNo(1), Some(0), &d),
        director_writes,
        "a round's start moved",
    );
    assert_denied(
        a.repair_round(ev.open, RoundNo(1), "pair it again", &d),
        director_writes,
        "the round in play paired again",
    );
    assert_denied(
        a.void_and_replay(ev.game_a, "the arbiter's own idea", &me),
        director_writes,
        "a game voided",
    );
    assert_denied(
        a.add_penalty(ev.open, PlayerId(1), Score::from_points(1), "delay", &d),
        director_writes,
        "a penalty",
    );
    assert_denied(
        a.add_station("rogue", &[TableNo(5)], &d),
        "only the director's login may add arbiter stations",
        "a station added",
    );
    assert_denied(
        a.reset_station("hall-b", &d),
        "only the director's login may give a station a new password",
        "another station's password",
    );
    assert_denied(
        a.remove_station("hall-b", &d),
        "only the director's login may remove arbiter stations",
        "another station removed",
    );
    assert_denied(
        a.set_station_tables(
            "hall-a",
            &[TableNo(1), TableNo(2), TableNo(3), TableNo(4)],
            &d,
        ),
        "only the director's login may change a station's tables",
        "more tables",
    );
    // Another station's game: not read, not exported, not written.
    let other = format!("game {} is not at a table of this station", ev.game_b);
    assert_denied(
        a.export_game(ev.game_b),
        &other,
        "an export of hall-b's game",
    );
    assert_denied(a.load_game(ev.game_b), &other, "hall-b's game read");
    assert_denied(
        a.append(ev.game_b, 9.0, AnyEvent::Game(Event::Pause), &me, ""),
        &other,
        "an event at hall-b's table",
    );
    assert_denied(
        a.record_clocks_seen(&[(ev.game_b, 9.0)]),
        &format!("game {} is not at a table of station hall-a", ev.game_b),
        "hall-b's heartbeat",
    );
    let view = a
        .round_view(ev.open, RoundNo(1))
        .expect("view")
        .expect("round");
    for table in [TableNo(1), TableNo(3)] {
        let board = view
            .boards
            .iter()
            .find(|b| b.table == table)
            .expect("table");
        let new = NewGame::for_board(
            ev.open,
            RoundNo(1),
            board,
            ggdesk::store::GameMode::Arbitrated,
            RuleSettings::default(),
        );
        let subject = if table == TableNo(1) {
            format!("table 1 has a game in play already (game {})", ev.game_a)
        } else {
            "table 3 is not a table of station hall-a".to_string()
        };
        assert_denied(a.create_game(&new, &me), &subject, "a second game");
    }
    // Its own game, rewritten after the start.
    let s = event::setups(99);
    let fixed = a.save_setup(ev.game_a, Side::White, &s[Side::White], &me);
    assert!(
        matches!(
            &fixed,
            Err(StoreError::Refused(Refusal::Game(GameRefusal::SetupsFixed(g)))) if *g == ev.game_a
        ),
        "{fixed:?}"
    );
    let again = a.start_game(ev.game_a, 5, Side::Black, &me);
    assert!(
        matches!(
            &again,
            Err(StoreError::Refused(Refusal::Game(GameRefusal::AlreadyStarted(g)))) if *g == ev.game_a
        ),
        "{again:?}"
    );
    // A practice table or a feed's game: not a game of its tables.
    assert_denied(
        a.create_game(&NewGame::standalone(), &me),
        "table none is not a table of station hall-a",
        "a practice table",
    );
    drop(a);
    assert_eq!(dump(&ev.db), before, "the event is as it was");
    assert_eq!(roles(&ev), roles_before);
}

#[test]
fn station_names_that_would_be_another_role_are_refused() {
    let ev = trust::event();
    let mut director = connect(&ev.url);
    let d = Actor::director();
    // A role of that name exists already (the director's login may be one such).
    pg::cluster().psql(
        "postgres",
        &format!("CREATE ROLE \"{}_boss\" LOGIN PASSWORD 'x'", ev.db),
    );
    let before = dump(&ev.db);
    let roles_before = roles(&ev);
    for (name, why) in [
        ("public", "would be the public pages' role"),
        ("PUBLIC", "would be the public pages' role"),
        ("boss", "is a role of the server already"),
        ("Hall-A", "station Hall-A exists already"),
        ("a b", "is not a station name"),
        ("", "is not a station name"),
    ] {
        match director.add_station(name, &[TableNo(9)], &d) {
            Err(StoreError::Rejected(m)) => assert!(m.contains(why), "{name:?}: {m}"),
            other => panic!("{name:?} must be refused: {other:?}"),
        }
    }
    assert_eq!(dump(&ev.db), before);
    assert_eq!(roles(&ev), roles_before);
    // The public pages' role stays a role no one logs in with.
    drop(Store::connect_read_only(&Address::Server(ev.url.clone())).expect("public pages"));
    let login = pg::cluster().psql(
        "postgres",
        &format!(
            "SELECT rolcanlogin FROM pg_roles WHERE rolname = '{}_public'",
            ev.db
        ),
    );
    assert_eq!(login, "f");
}

#[test]
fn a_new_password_and_a_removal_end_the_stations_sessions() {
    let ev = trust::event();
    let mut director = connect(&ev.url);
    let d = Actor::director();
    let role = ev.a.station.role.clone();
    let a = connect(&ev.a.url);
    let _listening = a.listen(|| {}).expect("listen").expect("a server");
    assert!(sessions(&role) >= 1);
    let login = director.reset_station("hall-a", &d).expect("new password");
    assert_ne!(login.url, ev.a.url);
    assert_eq!(sessions(&role), 0, "its sessions are ended");
    // The old card no longer connects; the new one does, and runs its table.
    let old = Store::connect(&Address::Server(ev.a.url.clone()));
    assert!(
        matches!(&old, Err(StoreError::Disconnected(m)) if m.contains("password authentication failed")),
        "{old:?}"
    );
    let mut again = connect(&login.url);
    trust::move_at(&mut again, ev.game_a, 7.0);
    let log = director.audit_log(AuditFilter::All).expect("log");
    assert!(
        log.iter()
            .any(|e| e.action == "station password reset" && e.actor == "director's desk"),
        "{log:?}"
    );
    // Removed: its sessions end, its login is gone, its games stay.
    let _listening = again.listen(|| {}).expect("listen").expect("a server");
    director.remove_station("hall-a", &d).expect("removed");
    assert_eq!(sessions(&role), 0, "its sessions are ended");
    let gone = pg::cluster().psql(
        "postgres",
        &format!("SELECT count(*) FROM pg_roles WHERE rolname = '{role}'"),
    );
    assert_eq!(gone, "0");
    trust::assert_login_refused(&login.url);
    assert_eq!(
        director.stations().expect("stations").len(),
        1,
        "hall-b stays"
    );
    assert!(director.load_game(ev.game_a).is_ok(), "its games stay");
    assert!(matches!(
        director.remove_station("hall-a", &d),
        Err(StoreError::NotFound(_))
    ));
}

/// A game a director's desk runs, at no table: started at [`START`], one move at t = 2
/// (written at START + 2 s).
fn practice(store: &mut Store) -> GameId {
    store.set_now(START);
    let id = games::start_with(
        store,
        &NewGame::standalone(),
        &event::setups(21),
        START,
        &Actor::director(),
    )
    .expect("practice game");
    store.set_now(START + 2_000);
    trust::move_at(store, id, 2.0);
    id
}

/// A game `feed` plays (created with its token, as `feed` creates it).
fn fed(store: &mut Store) -> GameId {
    store.set_now(START);
    let id = store
        .create_started_game(
            &NewGame::standalone(),
            &event::setups(22),
            START,
            "feed-test-token",
            &Actor("feed".into()),
        )
        .expect("a fed game");
    trust::move_at(store, id, 2.0);
    id
}

#[test]
fn a_restore_writes_only_into_the_games_its_desk_runs() {
    let ev = trust::event();
    let mut director = connect(&ev.url);
    let practice = practice(&mut director);
    let feed_game = fed(&mut director);
    let every = [ev.game_a, ev.game_b, practice, feed_game];
    let before: Vec<Vec<String>> = every.iter().map(|&g| kinds(&director, g)).collect();
    // hall-a's desk starts long after its clocks were last seen: its table only.
    let mut a = connect(&ev.a.url);
    a.set_now(START + 60_000);
    let report = a
        .restore_unattended_games(START + 60_000, 10_000)
        .expect("restore");
    assert_eq!(report.restored, vec![ev.game_a], "{report:?}");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    for g in [ev.game_b, practice, feed_game] {
        assert!(report.left_to_their_desk.contains(&g), "{g}: {report:?}");
    }
    assert_eq!(
        kinds(&director, ev.game_a),
        ["move", "pause", "resume"],
        "hall-a's table restored"
    );
    // The director's desk: the practice table only, never a station's table nor the feed's.
    director.set_now(START + 60_000);
    let report = director
        .restore_unattended_games(START + 60_000, 10_000)
        .expect("restore");
    assert_eq!(report.restored, vec![practice], "{report:?}");
    for (i, &g) in every.iter().enumerate() {
        let now = kinds(&director, g);
        match g {
            g if g == ev.game_a || g == practice => {
                assert_eq!(now, ["move", "pause", "resume"], "game {g}")
            }
            _ => assert_eq!(now, before[i], "game {g} is another desk's"),
        }
    }
    // A reconnection's restore too: the desk names every table it shows, restores its own.
    director.set_now(START + 200_000);
    let report = director
        .restore_games(&every, START + 200_000, None, "reconnected")
        .expect("restore");
    assert_eq!(report.restored, vec![practice]);
    assert_eq!(kinds(&director, ev.game_b), before[1]);
    assert_eq!(kinds(&director, feed_game), before[3]);
}

#[test]
fn the_idle_test_reads_the_games_own_last_event() {
    let url = pg::new_database();
    let mut director = connect(&url);
    // Its last event was written at START + 2 s; no desk has stored its clocks.
    let id = practice(&mut director);
    director.set_now(START + 7_000);
    let report = director
        .restore_unattended_games(START + 7_000, 10_000)
        .expect("restore");
    assert_eq!(report.left_to_their_desk, vec![id], "written 5 s ago");
    assert_eq!(kinds(&director, id), ["move"]);
    director.set_now(START + 13_000);
    let report = director
        .restore_unattended_games(START + 13_000, 10_000)
        .expect("restore");
    assert_eq!(report.restored, vec![id], "idle for 11 s");
    assert_eq!(kinds(&director, id), ["move", "pause", "resume"]);
}

/// The failover of the trial: the desk's connection is lost without its noticing, and the
/// next write would reach the new server first. That write is refused (nothing saved, the
/// desk keeps what was typed), the desk restores its tables, and then the move goes in:
/// the outage is a pause, charged to nobody.
#[test]
fn after_a_reconnection_nothing_is_written_before_the_restore() {
    let ev = trust::event();
    let mut a = connect(&ev.a.url);
    a.set_now(START + 12_000);
    a.hold_writes_to_this_connection();
    let mut table = LiveTable::load(&a, ev.game_a).expect("table");
    // The server drops the desk's connection (a failover, a restart).
    pg::cluster().psql(
        "postgres",
        &format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{}'",
            ev.a.station.role
        ),
    );
    let mv = games::first_legal(&ev.director, ev.game_a);
    let before = kinds(&ev.director, ev.game_a);
    // The first write finds the connection gone (or already made again); once it is made
    // again, every write is refused for that until the desk has restored.
    let made_again = |r: &Result<_, StoreError>| matches!(r, Err(StoreError::Disconnected(m)) if m.contains("the connection to the server was made again"));
    let first = table.submit(&mut a, mv, START + 12_000, &Actor::arbiter(Some(1)), "");
    assert!(
        matches!(first, Err(StoreError::Disconnected(_))),
        "{first:?}"
    );
    assert_eq!(kinds(&ev.director, ev.game_a), before, "nothing was saved");
    let refused = if made_again(&first) {
        first
    } else {
        table.submit(&mut a, mv, START + 12_000, &Actor::arbiter(Some(1)), "")
    };
    assert!(made_again(&refused), "{refused:?}");
    assert_eq!(kinds(&ev.director, ev.game_a), before, "nothing was saved");
    assert!(a.reconnected_since_hold());
    // The desk restores, then the move goes in after the pause.
    a.hold_writes_to_this_connection();
    let report = a
        .restore_games(&[ev.game_a], START + 12_000, None, "reconnected")
        .expect("restore");
    assert_eq!(report.restored, vec![ev.game_a], "{report:?}");
    table.reload(&a).expect("reload");
    table
        .submit(&mut a, mv, START + 12_000, &Actor::arbiter(Some(1)), "")
        .expect("the move");
    assert_eq!(
        kinds(&ev.director, ev.game_a),
        ["move", "pause", "resume", "move"]
    );
}

#[test]
fn nothing_follows_an_end_whoever_writes() {
    let ev = trust::event();
    let mut a = connect(&ev.a.url);
    let me = Actor::arbiter(Some(1));
    a.append(ev.game_a, 5.0, AnyEvent::Game(Event::End), &me, "")
        .expect("end");
    let before = dump(&ev.db);
    let refused = a.append(ev.game_a, 6.0, AnyEvent::Game(Event::Pause), &me, "");
    assert!(
        matches!(
            &refused,
            Err(StoreError::Refused(Refusal::Game(GameRefusal::Event(m))))
                if m.contains("nothing may follow it")
        ),
        "{refused:?}"
    );
    assert_eq!(dump(&ev.db), before);
    let mut d = connect(&ev.url);
    let id = practice(&mut d);
    d.append(id, 5.0, AnyEvent::Game(Event::End), &Actor::director(), "")
        .expect("end");
    let refused = d.append(
        id,
        6.0,
        AnyEvent::Game(Event::Resume),
        &Actor::director(),
        "",
    );
    assert!(
        matches!(
            &refused,
            Err(StoreError::Refused(Refusal::Game(GameRefusal::Event(m))))
                if m.contains("nothing may follow it")
        ),
        "{refused:?}"
    );
}
