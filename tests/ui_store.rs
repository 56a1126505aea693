//! The store functions the desk's pages rely on (migration 2 and the rules the pages no
//! longer recompute): a version-1 database migrates and keeps its data; the timers, the
//! lots, the setup ruling and the details are kept; a round completes by the same rule
//! whichever way its last result arrives, and is backed up.

use ggdesk::store::TournamentId;
use ggdesk::store::{
    Actor, AnyEvent, AuditFilter, BackupNote, GameMode, NewGame, PlayerInput, RoundState,
    SCHEMA_VERSION, Store, StoreError, TournamentSetup,
};
use ggdesk_core::Refusal;
use ggdesk_core::event::{self, NextAction};
use ggdesk_core::export::print::Details;
use ggdesk_core::game::desk::{GameRefusal, ReasonFor};
use ggdesk_core::rules::{Event, Side, SideSetup};
use ggdesk_core::tournament::{GameResult, RoundNo, TableNo};

fn director() -> Actor {
    Actor::director()
}

/// A tournament of `n` players with round 1 published; returns its id.
fn published_round(store: &mut Store, n: usize) -> TournamentId {
    let setup = TournamentSetup {
        name: "Club".into(),
        ..TournamentSetup::default()
    };
    let tid = store.create_tournament(&setup, &director()).expect("t");
    let mut ids = Vec::new();
    for i in 0..n {
        let p = PlayerInput {
            name: format!("Player {i}"),
            federation_id: String::new(),
            club: String::new(),
            rating: 2000 - i as i64 * 10,
        };
        ids.push(store.add_player(&p, &director()).expect("player"));
    }
    store
        .register_all(tid, &ids, &director())
        .expect("register");
    let r = store.pair_round(tid, &director()).expect("pair").round;
    store.publish_round(tid, r, &director()).expect("publish");
    tid
}

#[test]
fn a_version_1_database_migrates_and_keeps_its_data() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("old.sqlite3");
    {
        // A database as version 1 wrote it: the first schema only.
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.execute_batch(include_str!("../schema.sql"))
            .expect("schema 1");
        conn.pragma_update(None, "application_id", ggdesk::store::APPLICATION_ID)
            .expect("id");
        conn.pragma_update(None, "user_version", 1)
            .expect("version");
        conn.execute(
            "INSERT INTO tournaments (name, system, rounds, tiebreaks, rules, created_at)
             VALUES ('Old open', 'swiss', 5, 'buchholz', '{}', 0)",
            [],
        )
        .expect("tournament");
    }
    let store = Store::open(&path).expect("migrates");
    assert_eq!(store.schema_version().expect("v"), SCHEMA_VERSION);
    assert_eq!(SCHEMA_VERSION, 12);
    let d = store.tournament_details(TournamentId(1)).expect("details");
    assert_eq!(d.event, "Old open");
    assert_eq!(d.venue, "");
    drop(store);
    // Opening again is a no-op.
    let store = Store::open(&path).expect("again");
    assert_eq!(store.schema_version().expect("v"), SCHEMA_VERSION);
    assert_eq!(store.integrity_check().expect("check"), "ok");
}

#[test]
fn details_are_kept_and_refused_when_not_one_line() {
    let mut store = Store::open_in_memory().expect("store");
    let tid = store
        .create_tournament(
            &TournamentSetup {
                name: "Open".into(),
                ..TournamentSetup::default()
            },
            &director(),
        )
        .expect("t");
    let d = Details {
        event: String::new(),
        dates: "12-13 December".into(),
        venue: "Quezon City".into(),
        organiser: "GGF".into(),
        chief_arbiter: "M. Santos".into(),
    };
    store
        .set_tournament_details(tid, &d, &director())
        .expect("saved");
    let back = store.tournament_details(tid).expect("read");
    assert_eq!(back.venue, "Quezon City");
    assert_eq!(back.chief_arbiter, "M. Santos");
    let bad = Details {
        venue: "two\nlines".into(),
        ..d
    };
    let e = store
        .set_tournament_details(tid, &bad, &director())
        .expect_err("refused");
    assert!(
        matches!(
            &e,
            StoreError::Refused(Refusal::Event(event::Refusal::DetailTooLong {
                what: "venue",
                ..
            }))
        ) && e.to_string().starts_with("venue: one line"),
        "{e:?}"
    );
    assert_eq!(
        store.tournament_details(tid).expect("read").venue,
        "Quezon City"
    );
}

#[test]
fn the_setup_timer_starts_once_and_a_ruling_is_recorded_once() {
    let mut store = Store::open_in_memory().expect("store");
    let id = store
        .create_game(&NewGame::standalone(), &Actor::arbiter(None))
        .expect("game");
    let a = Actor::arbiter(None);
    assert_eq!(
        store.start_setup_timer(id, 1_000, &a).expect("start"),
        1_000
    );
    // Opened again later: the timer keeps its start.
    assert_eq!(
        store.start_setup_timer(id, 9_000, &a).expect("again"),
        1_000
    );
    assert_eq!(
        store.table_timers(id).expect("timers").setup_started_at,
        Some(1_000)
    );
    let e = store
        .record_setup_overrun(id, 400_000, " ", &a)
        .expect_err("a ruling without a reason");
    assert!(
        matches!(
            &e,
            StoreError::Refused(Refusal::Game(GameRefusal::NeedsReason(
                ReasonFor::SetupRuling
            )))
        ) && e.to_string() == "the ruling on the setup time needs a reason",
        "{e:?}"
    );
    store
        .record_setup_overrun(id, 400_000, "Black late, warned", &a)
        .expect("ruling");
    let e = store
        .record_setup_overrun(id, 401_000, "again", &a)
        .expect_err("a second ruling");
    assert!(
        matches!(
            &e,
            StoreError::Refused(Refusal::Game(GameRefusal::RulingRecorded))
        ) && e.to_string() == "the ruling on the setup time is recorded already",
        "{e:?}"
    );
    let log = store.audit_log(AuditFilter::Game(id.0)).expect("log");
    let ruling = log
        .iter()
        .find(|e| e.action == "setup time exceeded")
        .expect("logged");
    assert_eq!(ruling.reason, "Black late, warned");
}

#[test]
fn lots_are_drawn_once_before_the_start_and_set_who_moves_first() {
    let mut store = Store::open_in_memory().expect("store");
    let a = Actor::arbiter(None);
    let id = store.create_game(&NewGame::standalone(), &a).expect("game");
    store.draw_lots(id, Side::Black, 5_000, &a).expect("drawn");
    assert_eq!(store.load_game(id).expect("g").meta.first, Side::Black);
    let e = store
        .draw_lots(id, Side::White, 6_000, &a)
        .expect_err("once");
    assert!(
        matches!(&e, StoreError::Refused(Refusal::Game(GameRefusal::LotsDrawn(g))) if *g == id)
            && e.to_string() == format!("lots were drawn for game {id} already"),
        "{e:?}"
    );
    assert_eq!(
        store.table_timers(id).expect("t").lots_drawn_at,
        Some(5_000)
    );
}

#[test]
fn practice_tables_are_removed_but_round_games_are_not() {
    let mut store = Store::open_in_memory().expect("store");
    let a = Actor::arbiter(None);
    let id = store.create_game(&NewGame::standalone(), &a).expect("game");
    store
        .remove_practice_table(id, "test table", &a)
        .expect("removed");
    assert!(store.load_game(id).expect("kept").meta.void);
    let tid = published_round(&mut store, 2);
    let board = store.event(tid).expect("event").boards_by_table(RoundNo(1))[0].clone();
    let new = NewGame {
        tournament_id: Some(tid),
        round: Some(RoundNo(1)),
        table_no: Some(board.table),
        ..NewGame::standalone()
    };
    let g = store.create_game(&new, &a).expect("game");
    let e = store
        .remove_practice_table(g, "", &a)
        .expect_err("a round's game");
    assert!(
        matches!(&e, StoreError::Refused(Refusal::Game(GameRefusal::NotPractice(n))) if *n == g)
            && e.to_string() == format!("game {g} is not a practice table"),
        "{e:?}"
    );
    assert!(
        !store.load_game(g).expect("kept").meta.void,
        "and left as it was"
    );
}

#[test]
fn the_next_round_and_the_grace_period_are_the_stores_to_say() {
    let mut store = Store::open_in_memory().expect("store");
    let tid = store
        .create_tournament(
            &TournamentSetup {
                name: "Open".into(),
                ..TournamentSetup::default()
            },
            &director(),
        )
        .expect("t");
    assert_eq!(
        store.event(tid).expect("event").next_action(),
        NextAction::TooFewPlayers
    );
    let tid = published_round(&mut store, 4);
    assert_eq!(
        store.event(tid).expect("event").next_action(),
        NextAction::InPlay(RoundNo(1))
    );
    assert_eq!(
        store.event(tid).expect("event").grace_ends_at(RoundNo(1)),
        None
    );
    store
        .set_round_start(tid, RoundNo(1), Some(1_000_000), &director())
        .expect("start");
    // The tournament's grace period (the GGF 30 minutes here), from the official start.
    assert_eq!(
        store.event(tid).expect("event").grace_ends_at(RoundNo(1)),
        Some(1_000_000 + 30 * 60_000)
    );
    let mut setup = store.tournament_setup(tid).expect("setup");
    setup.rules.grace_ns = 10 * 60 * 1_000_000_000;
    store
        .update_tournament(tid, &setup, "", &director())
        .expect("update");
    assert_eq!(
        store.event(tid).expect("event").grace_ends_at(RoundNo(1)),
        Some(1_000_000 + 10 * 60_000)
    );
    for b in store
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r")
        .boards
    {
        store
            .set_result(tid, RoundNo(1), b.board, GameResult::Draw, "", &director())
            .expect("result");
    }
    let next = store.event(tid).expect("event").next_action();
    assert!(
        matches!(
            next,
            NextAction::Pair {
                number: RoundNo(2),
                ..
            }
        ),
        "{next:?}"
    );
}

/// Plays a desk game of a round to a resignation: its result reaches the board.
fn resign_at_desk(
    store: &mut Store,
    tid: TournamentId,
    table: u32,
) -> ggdesk::store::AppendOutcome {
    let board = store
        .event(tid)
        .expect("event")
        .boards_by_table(RoundNo(1))
        .into_iter()
        .find(|b| b.table == TableNo(table))
        .expect("board");
    let a = Actor::arbiter(Some(table.into()));
    let new = NewGame::for_board(
        tid,
        RoundNo(1),
        &board,
        GameMode::Arbitrated,
        Default::default(),
    );
    let id = store.create_game(&new, &a).expect("game");
    let mut n = 7;
    let mut pick = |k: usize| {
        n = (n * 31 + 11) % 1000;
        n % k.max(1)
    };
    for side in Side::BOTH {
        let s = SideSetup::random(side, &mut pick);
        store.save_setup(id, side, &s, &a).expect("setup");
    }
    store.start_game(id, 0, Side::White, &a).expect("start");
    store
        .append(id, 1.0, AnyEvent::Game(Event::Resign(Side::White)), &a, "")
        .expect("resign")
}

#[test]
fn the_last_result_from_the_desk_completes_the_round_and_backs_it_up() {
    let dir = tempfile::tempdir().expect("dir");
    let mut store = Store::open(&dir.path().join("event.sqlite3")).expect("store");
    let tid = published_round(&mut store, 4);
    // Table 2 by hand, table 1 from the desk: the desk's is the last result.
    let boards = store
        .round_view(tid, RoundNo(1))
        .expect("v")
        .expect("r")
        .boards;
    let by_hand = boards
        .iter()
        .find(|b| b.table == TableNo(2))
        .expect("table 2");
    let saved = store
        .set_result(
            tid,
            RoundNo(1),
            by_hand.board,
            GameResult::Draw,
            "",
            &director(),
        )
        .expect("result");
    assert!(saved.completed.is_none());
    let backups_before = store.backups().expect("b").len();
    let outcome = resign_at_desk(&mut store, tid, 1);
    let completed = outcome.round_completed.expect("the round completed");
    assert_eq!(completed.round, RoundNo(1));
    assert!(matches!(completed.backup, BackupNote::Written(_)));
    assert_eq!(store.backups().expect("b").len(), backups_before + 1);
    let view = store.round_view(tid, RoundNo(1)).expect("v").expect("r");
    assert_eq!(view.state, RoundState::Complete);
    let log = store.audit_log(AuditFilter::Tournament(tid)).expect("log");
    let last_two: Vec<&str> = log
        .iter()
        .rev()
        .take(2)
        .map(|e| e.action.as_str())
        .collect();
    assert_eq!(last_two, ["round complete", "result from the arbiter desk"]);
}

#[test]
fn voiding_the_last_games_result_reopens_its_complete_round() {
    let mut store = Store::open_in_memory().expect("store");
    let tid = published_round(&mut store, 2);
    let outcome = resign_at_desk(&mut store, tid, 1);
    assert!(outcome.round_completed.is_some());
    let game = store.game_metas(Some((tid, RoundNo(1)))).expect("games")[0].id;
    store
        .void_and_replay(game, "arbiter's mistake", &director())
        .expect("void");
    assert_eq!(
        store
            .round_view(tid, RoundNo(1))
            .expect("v")
            .expect("r")
            .state,
        RoundState::Published
    );
}
