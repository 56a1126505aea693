//! Issue 23 at an arbiter station (items 1, 2 and 4), on the real cluster: a correction of
//! the last move is ONE audit line in the director's desk's words, written by the database
//! (migration 7's `ggdesk_station_correct`) in the transaction of its entries; a clock start
//! says "by lot" or "chosen by the arbiter", checked against the lots; the event function
//! takes no correction in disguise; another table's game and a game not in play are refused
//! with nothing changed; a database made at migration 6 with a station keeps working for that
//! station once migrated.

#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use event::{connect, games, setups};
use ggdesk::store::{
    Actor, Address, AnyEvent, AuditEntry, AuditFilter, Expect, GameId, GameMode, NewGame, Store,
    StoreError, TournamentId,
};
use ggdesk_core::export::audit::details_in_words;
use ggdesk_core::rules::{Event, Move, RuleSettings, Side};
use ggdesk_core::tournament::{RoundNo, TableNo};
use trust::{assert_denied, dump, log, made_and_other, refusal, sql_client};

/// The audit lines of a game, as the director reads them.
fn lines(store: &Store, id: GameId) -> Vec<AuditEntry> {
    store.audit_log(AuditFilter::Game(id.0)).expect("audit")
}

fn a_move(mv: Move) -> AnyEvent {
    AnyEvent::Game(Event::Move { mv, by: None })
}

/// The details the director's desk writes for a correction of move `seq` made at `t`,
/// corrected at `at` (written by hand, as `Correction::value` prints them).
fn correction_details(made: Move, other: Move, seq: u32, t: &str, at: &str) -> String {
    format!(
        r#"{{"corrected_at":{at},"cancelled":{{"t":{t},"move":"{made}"}},"cancelled_seq":{seq},"entered":{{"t":{t},"move":"{other}"}}}}"#
    )
}

/// Round 1's game at `table` of `tid`, created by `store` with both setups entered, not
/// started.
fn set_up_table(store: &mut Store, tid: TournamentId, table: u32, actor: &Actor) -> GameId {
    let view = store
        .round_view(tid, RoundNo(1))
        .expect("view")
        .expect("round 1");
    let board = view
        .boards
        .iter()
        .find(|b| b.table == TableNo(table))
        .expect("the table")
        .clone();
    let new = NewGame::for_board(
        tid,
        RoundNo(1),
        &board,
        GameMode::Arbitrated,
        RuleSettings::default(),
    );
    games::set_up(store, &new, &setups(u64::from(table)), actor).expect("set up")
}

/// A correction of the last move of `id` as a station's desk sends it to
/// `ggdesk_station_correct` (the core's entries and details), for SQL by hand.
fn correction_sql(store: &Store, id: GameId, replacement: AnyEvent, at: f64) -> String {
    let game = store.load_game(id).expect("game");
    let correction = game
        .logged()
        .correction(replacement, at)
        .expect("a correction the rules take");
    let entries: Vec<serde_json::Value> = correction
        .entries
        .iter()
        .map(|e| {
            serde_json::json!({"seq": e.seq, "t": e.t, "kind": e.kind.code(),
                               "payload": e.kind.value(e.t).to_string()})
        })
        .collect();
    let quote = |s: &str| format!("'{}'", s.replace('\'', "''"));
    format!(
        "SELECT public.ggdesk_station_correct({}, {}, NULL, 'by hand', {}, NULL, 'pending', 0)",
        id.0,
        quote(&serde_json::Value::Array(entries).to_string()),
        quote(&correction.value().to_string())
    )
}

#[test]
fn a_correction_at_a_station_is_one_audit_line_in_the_directors_words() {
    let ev = trust::event();
    let me = Actor("hall-a".into());
    let mut a = connect(&ev.a.url);
    // After the fixture's move at 0:02, the clocks paused at 0:05 and resumed at 0:08.
    a.set_now(trust::START + 5_000);
    a.append(ev.game_a, 5.0, AnyEvent::Game(Event::Pause), &me, "")
        .expect("pause");
    a.set_now(trust::START + 8_000);
    a.append(ev.game_a, 8.0, AnyEvent::Game(Event::Resume), &me, "")
        .expect("resume");
    let (made, other) = made_and_other(&ev.director, ev.game_a);
    let before = lines(&ev.director, ev.game_a).len();

    a.set_now(trust::START + 30_000);
    let outcome = a
        .correct_last_move(
            ev.game_a,
            Some(Expect {
                seq: 3,
                token: "tok-audit-a",
            }),
            30.0,
            a_move(other),
            &me,
            "typed the wrong square",
        )
        .expect("corrected at its own table");
    assert_eq!(outcome.seq, 6, "the move entered after the three undos");
    // The record: the undos at the moment of the correction, the right move at the
    // cancelled move's own time, the pause and resume again at theirs; the token with the
    // first entry.
    let expected_log: Vec<(u32, f64, String)> = [
        (0, 2.0, "move"),
        (1, 5.0, "pause"),
        (2, 8.0, "resume"),
        (3, 30.0, "undo"),
        (4, 30.0, "undo"),
        (5, 30.0, "undo"),
        (6, 2.0, "move"),
        (7, 5.0, "pause"),
        (8, 8.0, "resume"),
    ]
    .into_iter()
    .map(|(s, t, k)| (s, t, k.to_string()))
    .collect();
    assert_eq!(log(&ev.director, ev.game_a), expected_log);
    let token_seq = pg::cluster().psql(
        &ev.db,
        &format!(
            "SELECT seq FROM game_events WHERE game_id = {} AND token = 'tok-audit-a'",
            ev.game_a.0
        ),
    );
    assert_eq!(token_seq, "3");
    let record = ev.director.export_record(ev.game_a).expect("record");
    let events: Vec<(f64, AnyEvent)> = record
        .events
        .iter()
        .map(|e| (e.t, AnyEvent::Game(e.event)))
        .collect();
    assert_eq!(
        events,
        [
            (2.0, a_move(other)),
            (5.0, AnyEvent::Game(Event::Pause)),
            (8.0, AnyEvent::Game(Event::Resume))
        ]
    );

    // ONE audit line, the station's, in the director's desk's words.
    let after = lines(&ev.director, ev.game_a);
    let new: Vec<&AuditEntry> = after[before..].iter().collect();
    assert_eq!(new.len(), 1, "one line for the correction: {new:?}");
    let line = new[0];
    assert_eq!(line.actor, "station hall-a");
    assert_eq!(line.action, "move corrected");
    assert_eq!(line.reason, "typed the wrong square");
    assert_eq!(
        line.details,
        correction_details(made, other, 0, "2.0", "30.0")
    );
    assert_eq!(
        details_in_words(&line.action, &line.details),
        format!(
            "cancelled move {made} (made at 0:02), entered move {other} at 0:02 in its place; \
             corrected at 0:30"
        )
    );

    // The director's desk writes the same line for the same correction at hall-b's table.
    let (made_b, other_b) = made_and_other(&ev.director, ev.game_b);
    let mut director = connect(&ev.url);
    director.set_now(trust::START + 30_000);
    let before_b = lines(&ev.director, ev.game_b).len();
    director
        .correct_last_move(
            ev.game_b,
            None,
            30.0,
            a_move(other_b),
            &Actor::director(),
            "typed the wrong square",
        )
        .expect("the director corrects");
    let after_b = lines(&ev.director, ev.game_b);
    assert_eq!(after_b.len(), before_b + 1);
    assert_eq!(after_b[before_b].action, "move corrected");
    assert_eq!(
        after_b[before_b].details,
        correction_details(made_b, other_b, 0, "2.0", "30.0")
    );

    // Sent again with the same token (its confirmation lost): nothing more, no line more.
    let again = a
        .correct_last_move(
            ev.game_a,
            Some(Expect {
                seq: 3,
                token: "tok-audit-a",
            }),
            31.0,
            a_move(other),
            &me,
            "typed the wrong square",
        )
        .expect("found again by its token");
    assert_eq!(again.seq, 3, "the entry its token names");
    assert_eq!(log(&ev.director, ev.game_a), expected_log);
    assert_eq!(lines(&ev.director, ev.game_a).len(), after.len());

    // An undo at the station reads as the director's: the event it cancelled, with its time.
    a.set_now(trust::START + 35_000);
    trust::move_at(&mut a, ev.game_a, 35.0);
    let next = match ev.director.load_game(ev.game_a).expect("game").events[9]
        .kind
        .event()
    {
        Some(AnyEvent::Game(Event::Move { mv, .. })) => mv,
        other => panic!("the move at 0:35: {other:?}"),
    };
    a.set_now(trust::START + 40_000);
    a.undo_last_event(ev.game_a, 40.0, &me, "not this one")
        .expect("undo");
    let undo = lines(&ev.director, ev.game_a)
        .pop()
        .expect("the undo's line");
    assert_eq!(undo.action, "undo");
    assert_eq!(undo.actor, "station hall-a");
    assert_eq!(
        undo.details,
        format!(r#"cancelled event 9: {{"t":35.0,"move":"{next}"}}"#)
    );
    assert_eq!(
        details_in_words(&undo.action, &undo.details),
        format!("cancelled move {next} (made at 0:35)")
    );
}

#[test]
fn the_event_function_takes_no_correction_in_disguise() {
    let ev = trust::event();
    let me = Actor("hall-a".into());
    let mut a = connect(&ev.a.url);
    a.set_now(trust::START + 30_000);
    let (_, other) = made_and_other(&ev.director, ev.game_a);
    let before = dump(&ev.db);
    // An undo of the move stamped at the move's own time, then the other move at that time:
    // a correction without its line. The undo is refused: an undo is stamped when it is made.
    let mut sql = sql_client(&ev.a.url);
    assert_denied(
        &mut sql,
        &format!(
            "SELECT public.ggdesk_station_event({}, 1, 1.0, 'undo', '{{\"t\":1.0,\"undo\":0}}', \
             NULL, 'x', NULL, 'pending', 0)",
            ev.game_a.0
        ),
        &format!(
            "game {}: an undo is entered when it is made: t = 1 is before t = 2, the latest \
             entry of the log",
            ev.game_a.0
        ),
    );
    assert_eq!(dump(&ev.db), before, "nothing changed");
    // The undo at the time it is made, then the other move back at 0:02 through the event
    // function: refused, it is a correction.
    a.undo_last_event(ev.game_a, 30.0, &me, "wrong square")
        .expect("undo");
    let undone = dump(&ev.db);
    let r = a.append(ev.game_a, 2.0, a_move(other), &me, "");
    match r {
        Err(StoreError::Denied(m)) => assert!(
            m.contains(&format!(
                "game {}: move at t = 2 is before an undo at t = 30: a move replaced at its own \
                 time is a correction",
                ev.game_a.0
            )),
            "{m}"
        ),
        other => panic!("a move before the undo must be refused: {other:?}"),
    }
    assert_eq!(dump(&ev.db), undone, "nothing changed");
    // Entered now, it is an ordinary move.
    a.append(ev.game_a, 31.0, a_move(other), &me, "")
        .expect("the move, now");
    // A correction's details that do not name what it writes are refused.
    a.set_now(trust::START + 40_000);
    let good = correction_sql(&ev.director, ev.game_a, a_move(other), 40.0);
    let forged = good.replace("\"corrected_at\":40.0", "\"corrected_at\":39.0");
    assert_ne!(good, forged);
    let before = dump(&ev.db);
    assert_denied(
        &mut sql,
        &forged,
        &format!(
            "game {}: the details of a correction name the move cancelled (event 2), when it \
             was corrected and the move entered, as written",
            ev.game_a.0
        ),
    );
    // Nor entries that are not a correction of the last move: the move entered back at
    // 0:30, not at 0:31 when the move it replaces was made.
    let elsewhen = good.replace("31.0", "30.0");
    assert_ne!(good, elsewhen);
    assert_denied(
        &mut sql,
        &elsewhen,
        &format!(
            "game {}: entry 2 of the correction is not what a correction of event 2 writes",
            ev.game_a.0
        ),
    );
    assert_eq!(dump(&ev.db), before, "nothing changed");
    // And the same correction with its true details goes through, one line.
    let n = lines(&ev.director, ev.game_a).len();
    assert_eq!(refusal(&mut sql, &good), None);
    let after = lines(&ev.director, ev.game_a);
    assert_eq!(after.len(), n + 1);
    assert_eq!(after[n].action, "move corrected");
    assert_eq!(after[n].reason, "by hand");
}

#[test]
fn a_clock_start_at_a_station_says_by_lot_or_by_the_arbiter() {
    let ev = trust::event();
    // hall-a, table 2: the lots give Black the first move, and the clocks start so.
    let me_a = Actor("hall-a".into());
    let mut a = connect(&ev.a.url);
    a.set_now(trust::START);
    let by_lot = set_up_table(&mut a, ev.open, 2, &me_a);
    a.draw_lots(by_lot, Side::Black, trust::START, &me_a)
        .expect("lots");
    a.start_game(by_lot, trust::START + 1_000, Side::Black, &me_a)
        .expect("start");
    let started = lines(&ev.director, by_lot).pop().expect("a line");
    assert_eq!(started.action, "game started");
    assert_eq!(started.actor, "station hall-a");
    assert_eq!(started.details, "black moves first (by lot)");
    assert_eq!(
        details_in_words(&started.action, &started.details),
        "Black moves first (by lot)"
    );

    // hall-b, table 4: the lots give White, the arbiter lets Black begin.
    let me_b = Actor("hall-b".into());
    let mut b = connect(&ev.b.url);
    b.set_now(trust::START);
    let chosen = set_up_table(&mut b, ev.open, 4, &me_b);
    b.draw_lots(chosen, Side::White, trust::START, &me_b)
        .expect("lots");
    // What the store would never send, by hand: a start "by lot" for the side the lots did
    // not give, "by the arbiter" for the side they gave, no "how", migration 4's start.
    let mut sql = sql_client(&ev.b.url);
    let before = dump(&ev.db);
    let g = chosen.0;
    for (call, subject) in [
        (
            format!("SELECT public.ggdesk_station_start({g}, 5, 'black', 'lot', 0)"),
            format!("game {g}: no lot drawn gave black the first move"),
        ),
        (
            format!("SELECT public.ggdesk_station_start({g}, 5, 'white', 'arbiter', 0)"),
            format!("game {g}: the lots drawn gave white the first move: the start is by lot"),
        ),
        (
            format!("SELECT public.ggdesk_station_start({g}, 5, 'white', NULL, 0)"),
            format!("game {g}: a start says how the first mover was decided (lot or arbiter)"),
        ),
    ] {
        assert_denied(&mut sql, &call, &subject);
    }
    match refusal(
        &mut sql,
        &format!("SELECT public.ggdesk_station_start({g}, 5, 'white', 0)"),
    ) {
        Some((code, message)) => {
            assert_eq!(code, "42883", "{message}");
            assert!(
                message.contains("function public.ggdesk_station_start(integer, integer, unknown, integer) does not exist"),
                "{message}"
            );
        }
        None => panic!("migration 4's start must be gone"),
    }
    assert_eq!(dump(&ev.db), before, "nothing changed");
    b.start_game(chosen, trust::START + 1_000, Side::Black, &me_b)
        .expect("start");
    let started = lines(&ev.director, chosen).pop().expect("a line");
    assert_eq!(started.action, "game started");
    assert_eq!(started.actor, "station hall-b");
    assert_eq!(started.details, "black moves first (chosen by the arbiter)");
    assert_eq!(
        details_in_words(&started.action, &started.details),
        "Black moves first (chosen by the arbiter)"
    );
}

#[test]
fn a_station_is_refused_correcting_another_tables_game_or_a_game_not_in_play() {
    let ev = trust::event();
    let me = Actor("hall-a".into());
    let mut a = connect(&ev.a.url);
    a.set_now(trust::START + 30_000);
    // A game decided in the round in play: hall-a's table 2, Black resigned.
    let decided = set_up_table(&mut a, ev.open, 2, &me);
    a.start_game(decided, trust::START, Side::White, &me)
        .expect("start");
    trust::move_at(&mut a, decided, 2.0);
    a.append(
        decided,
        3.0,
        AnyEvent::Game(Event::Resign(Side::Black)),
        &me,
        "",
    )
    .expect("resigned");
    let before = dump(&ev.db);

    // Another station's table, through the store: refused before anything is sent.
    let (_, other_b) = made_and_other(&ev.director, ev.game_b);
    match a.correct_last_move(ev.game_b, None, 30.0, a_move(other_b), &me, "not mine") {
        Err(StoreError::Denied(m)) => assert!(
            m.contains(&format!(
                "game {} is not at a table of this station",
                ev.game_b
            )),
            "{m}"
        ),
        other => panic!("another station's table must be refused: {other:?}"),
    }
    // And by the database, sent by hand.
    let mut sql = sql_client(&ev.a.url);
    assert_denied(
        &mut sql,
        &correction_sql(&ev.director, ev.game_b, a_move(other_b), 30.0),
        &format!("game {} is not at a table of station hall-a", ev.game_b.0),
    );
    // A game decided (its round still in play): only the director changes it. Sent by hand
    // as a correction of its move (the store finds no move to correct after the resignation).
    let (_, other_d) = made_and_other(&ev.director, decided);
    let mut at_move = ev.director.load_game(decided).expect("game");
    at_move.events.truncate(1);
    let correction = at_move
        .logged()
        .correction(a_move(other_d), 30.0)
        .expect("a correction of the move");
    let entries: Vec<serde_json::Value> = correction
        .entries
        .iter()
        .map(|e| {
            serde_json::json!({"seq": e.seq + 1, "t": e.t, "kind": e.kind.code(),
                               "payload": e.kind.value(e.t).to_string()})
        })
        .collect();
    let call = |id: GameId| {
        format!(
            "SELECT public.ggdesk_station_correct({}, '{}', NULL, 'by hand', '{}', NULL, \
             'pending', 0)",
            id.0,
            serde_json::Value::Array(entries.clone()),
            correction.value()
        )
    };
    assert_denied(
        &mut sql,
        &call(decided),
        &format!(
            "game {} is decided (white resignation): only the director may change it",
            decided.0
        ),
    );
    // A game of a completed round.
    assert_denied(
        &mut sql,
        &call(ev.game_done),
        &format!(
            "game {} is not in a round in play (round 1 is complete)",
            ev.game_done.0
        ),
    );
    assert_eq!(dump(&ev.db), before, "nothing changed");
}

/// A database made by migrations 1 to 6 with a station added as migration 6's `station add`
/// did (its grants from that migration's `ggdesk_station_grants`), then opened by the
/// director's desk: migration 7 runs, and the station starts a game by lot and corrects a
/// move through the new functions, each with its line; migration 4's start is gone.
#[test]
fn an_upgraded_database_keeps_working_for_an_existing_station() {
    let cluster = pg::cluster();
    let n = std::process::id();
    let login = format!("up7_dir_{n}");
    cluster.psql(
        "postgres",
        &format!("CREATE ROLE {login} LOGIN PASSWORD 'director-pw' NOSUPERUSER CREATEROLE"),
    );
    let db = format!("up7_{n}");
    cluster.psql("postgres", &format!("CREATE DATABASE {db} OWNER {login}"));
    let root = env!("CARGO_MANIFEST_DIR");
    let mut sql = format!("SET ROLE {login};\n");
    for file in [
        "schema.postgres.sql",
        "migrations/002-event-tokens.postgres.sql",
        "migrations/003-desk-timers.postgres.sql",
        "migrations/004-station-functions.postgres.sql",
        "migrations/005-ratings.postgres.sql",
        "migrations/006-stages.postgres.sql",
    ] {
        sql.push_str(&std::fs::read_to_string(format!("{root}/{file}")).expect("migration"));
        sql.push('\n');
    }
    let role = format!("{db}_hall-a");
    sql.push_str(&format!(
        "UPDATE ggdesk_meta SET schema_version = 6;
         CREATE ROLE \"{role}\" LOGIN CONNECTION LIMIT 4 PASSWORD 'station-pw';
         GRANT CONNECT ON DATABASE {db} TO \"{role}\";
         INSERT INTO stations (name, role, created_at) VALUES ('hall-a', '{role}', 0);
         INSERT INTO station_tables VALUES ('hall-a', 1), ('hall-a', 2);
         SELECT public.ggdesk_station_grants('{role}');\n"
    ));
    cluster.psql(&db, &sql);
    let granted = cluster.psql(
        &db,
        &format!(
            "SELECT has_function_privilege('{role}', \
             'public.ggdesk_station_start(BIGINT, BIGINT, TEXT, BIGINT)', 'EXECUTE')"
        ),
    );
    assert_eq!(granted, "t", "the station as migration 6 left it");

    let director_url = format!(
        "postgres://{login}:director-pw@127.0.0.1:{}/{db}",
        cluster.port
    );
    let mut director = Store::connect(&Address::Server(director_url)).expect("upgraded");
    assert_eq!(
        director.schema_version().expect("version"),
        ggdesk::store::SCHEMA_VERSION
    );
    assert_eq!(ggdesk::store::SCHEMA_VERSION, 9);
    director.set_now(trust::START);
    let tid = trust::tournament(&mut director, "u", 4);
    director
        .publish_round(tid, RoundNo(1), &Actor::director())
        .expect("publish");

    // The station made before the migration: a start by lot and a correction, each its line.
    let station_url = format!(
        "postgres://{role}:station-pw@127.0.0.1:{}/{db}",
        cluster.port
    );
    let mut a = connect(&station_url);
    assert!(a.is_station());
    let me = Actor("hall-a".into());
    a.set_now(trust::START);
    let id = set_up_table(&mut a, tid, 1, &me);
    a.draw_lots(id, Side::White, trust::START, &me)
        .expect("lots");
    a.start_game(id, trust::START, Side::White, &me)
        .expect("start");
    assert_eq!(
        lines(&director, id).pop().expect("a line").details,
        "white moves first (by lot)"
    );
    a.set_now(trust::START + 2_000);
    trust::move_at(&mut a, id, 2.0);
    let (made, other) = made_and_other(&director, id);
    a.set_now(trust::START + 20_000);
    let before = lines(&director, id).len();
    a.correct_last_move(id, None, 20.0, a_move(other), &me, "wrong square")
        .expect("corrected");
    let after = lines(&director, id);
    assert_eq!(after.len(), before + 1);
    assert_eq!(after[before].actor, "station hall-a");
    assert_eq!(after[before].action, "move corrected");
    assert_eq!(
        after[before].details,
        correction_details(made, other, 0, "2.0", "20.0")
    );
    // Migration 4's start is gone, its grant with it.
    let gone = cluster.psql(
        &db,
        "SELECT count(*) FROM pg_proc WHERE proname = 'ggdesk_station_start' AND pronargs = 4",
    );
    assert_eq!(gone, "0");
    let mut by_hand = sql_client(&station_url);
    let second = set_up_table(&mut a, tid, 2, &me);
    match refusal(
        &mut by_hand,
        &format!(
            "SELECT public.ggdesk_station_start({}, 5, 'white', 0)",
            second.0
        ),
    ) {
        Some((code, _)) => assert_eq!(code, "42883", "no such function"),
        None => panic!("migration 4's start must be gone"),
    }
    assert_eq!(
        director.load_game(second).expect("game").meta.started_at,
        None
    );
}
