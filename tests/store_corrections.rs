//! The store's side of issue 23: the last move corrected at the time it was made (one
//! transaction: the undo, the move, one audit line naming both; refusals that change
//! nothing), the oversteps written into the audit log, who moved first by lot or by the
//! arbiter, and which restore wrote a pause and a resume.

use ggdesk::store::{Actor, AnyEvent, AuditFilter, Expect, GameId, NewGame, Store, StoreError};
use ggdesk_core::Refusal;
use ggdesk_core::game::LogEntryKind;
use ggdesk_core::game::desk::{GameRefusal, ReasonFor};
use ggdesk_core::rules::{Event, Move, Side};
use rand::SeedableRng;
use rand::rngs::StdRng;

#[path = "support/engines.rs"]
mod engines;
#[path = "support/games.rs"]
mod games;
#[path = "support/pg.rs"]
mod pg;
use engines::Engine;

crate::on_both_engines!(
    the_last_move_is_corrected_at_its_time_in_one_transaction,
    a_refused_correction_changes_nothing,
    a_correction_sent_again_is_stored_once_and_a_stale_one_is_refused,
    an_overstep_is_in_the_audit_log_before_the_event_that_records_it,
    the_audit_says_whether_lots_or_the_arbiter_chose_who_moves_first,
    a_restore_says_which_restore_it_is,
);

const START: i64 = 1_800_000_000_000;

fn arbiter() -> Actor {
    Actor("director's desk".into())
}

fn mv(s: &str) -> AnyEvent {
    AnyEvent::Game(Event::Move {
        mv: s.parse::<Move>().expect("move"),
        by: None,
    })
}

/// A started game of random setups, White first, with White's first legal move at 5 s and
/// Black's at 9 s; returns Black's other legal moves too.
fn two_moves(store: &mut Store) -> (GameId, Vec<Move>) {
    let mut rng = StdRng::seed_from_u64(23);
    let setups = games::random_both(&mut rng);
    let id = games::start_with(store, &NewGame::standalone(), &setups, START, &arbiter())
        .expect("started");
    let white = games::first_legal(store, id);
    store
        .append(id, 5.0, AnyEvent::Game(white), &arbiter(), "")
        .expect("White moves");
    let game = games::live(store, id);
    let moves = game.position().legal_moves(Side::Black);
    assert!(moves.len() >= 2, "Black has a choice");
    store
        .append(
            id,
            9.0,
            AnyEvent::Game(Event::Move {
                mv: moves[0],
                by: None,
            }),
            &arbiter(),
            "",
        )
        .expect("Black moves");
    (id, moves)
}

fn the_last_move_is_corrected_at_its_time_in_one_transaction(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let (id, black) = two_moves(&mut store);
    let right = AnyEvent::Game(Event::Move {
        mv: black[1],
        by: None,
    });
    let outcome = store
        .correct_last_move(id, None, 30.0, right, &arbiter(), "typed the wrong square")
        .expect("corrected");
    assert_eq!(outcome.seq, 3);
    // The log keeps both: the undo at the moment of the correction, the move at 0:09.
    let stored = store.load_game(id).expect("game");
    let log: Vec<(u32, f64, &str)> = stored
        .events
        .iter()
        .map(|e| (e.seq, e.t, e.kind.code()))
        .collect();
    assert_eq!(
        log,
        vec![
            (0, 5.0, "move"),
            (1, 9.0, "move"),
            (2, 30.0, "undo"),
            (3, 9.0, "move")
        ]
    );
    assert!(matches!(
        stored.events[2].kind,
        LogEntryKind::Undo { seq: 1 }
    ));
    // The record holds the moves in force, in time order, the corrected one at 0:09.
    let record = store.export_record(id).expect("record");
    let ts: Vec<f64> = record.events.iter().map(|e| e.t).collect();
    assert_eq!(ts, vec![5.0, 9.0]);
    assert_eq!(AnyEvent::Game(record.events[1].event), right);
    ggdesk_core::record::replay(&record).expect("replays");
    // White's clock counts from 0:09.
    let mut game = games::live(&store, id);
    game.judge_clocks(ggdesk_core::clock::Time::from_secs(30))
        .expect("judged");
    assert_eq!(game.to_move(), Side::White);
    assert_eq!(game.clock().thinking_ns(), 21_000_000_000);
    // One audit line names both moves, with the reason.
    let log = store.audit_log(AuditFilter::Game(id.0)).expect("audit");
    let corrected: Vec<_> = log
        .iter()
        .filter(|e| e.action == "move corrected")
        .collect();
    assert_eq!(corrected.len(), 1, "{log:?}");
    assert_eq!(corrected[0].reason, "typed the wrong square");
    assert_eq!(corrected[0].actor, "director's desk");
    let words =
        ggdesk_core::export::audit::details_in_words("move corrected", &corrected[0].details);
    assert_eq!(
        words,
        format!(
            "cancelled move {} (made at 0:09), entered move {} at 0:09 in its place; corrected at 0:30",
            black[0], black[1]
        )
    );
    assert!(!log.iter().any(|e| e.action == "undo"), "one line, not two");
}

fn a_refused_correction_changes_nothing(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let (id, black) = two_moves(&mut store);
    let before = (
        store.load_game(id).expect("game").events,
        store.audit_log(AuditFilter::All).expect("audit"),
    );
    let unchanged = |store: &Store| {
        assert_eq!(store.load_game(id).expect("game").events, before.0);
        assert_eq!(store.audit_log(AuditFilter::All).expect("audit"), before.1);
    };
    let right = AnyEvent::Game(Event::Move {
        mv: black[1],
        by: None,
    });
    // No reason.
    let e = store
        .correct_last_move(id, None, 30.0, right, &arbiter(), "  ")
        .expect_err("refused");
    assert!(
        matches!(
            &e,
            StoreError::Refused(Refusal::Game(GameRefusal::NeedsReason(
                ReasonFor::Correction
            )))
        ) && e.to_string() == "a correction needs a reason",
        "{e}"
    );
    unchanged(&store);
    // A move the rules refuse where the cancelled one stood: White's piece moving for Black.
    let e = store
        .correct_last_move(id, None, 30.0, mv("e3-e4"), &arbiter(), "wrong")
        .expect_err("refused");
    assert!(
        matches!(
            &e,
            StoreError::Refused(Refusal::Game(GameRefusal::Correction(_)))
        ) && e.to_string().starts_with("the corrected move is refused"),
        "{e}"
    );
    unchanged(&store);
    // Not a move.
    let e = store
        .correct_last_move(
            id,
            None,
            30.0,
            AnyEvent::Game(Event::Pause),
            &arbiter(),
            "x",
        )
        .expect_err("refused");
    assert!(
        matches!(
            &e,
            StoreError::Refused(Refusal::Game(GameRefusal::Correction(_)))
        ) && e.to_string() == "a correction replaces a move with a move, not a pause",
        "{e}"
    );
    unchanged(&store);
    // A resignation after the move: only the last move can be corrected.
    store
        .append(
            id,
            12.0,
            AnyEvent::Game(Event::Resign(Side::White)),
            &arbiter(),
            "",
        )
        .expect("resigns");
    let before = (
        store.load_game(id).expect("game").events,
        store.audit_log(AuditFilter::All).expect("audit"),
    );
    let e = store
        .correct_last_move(id, None, 30.0, right, &arbiter(), "x")
        .expect_err("refused");
    assert!(
        matches!(
            &e,
            StoreError::Refused(Refusal::Game(GameRefusal::Correction(_)))
        ) && e
            .to_string()
            .starts_with("event 2 (resign) came after the last move"),
        "{e}"
    );
    assert_eq!(store.load_game(id).expect("game").events, before.0);
    assert_eq!(store.audit_log(AuditFilter::All).expect("audit"), before.1);
}

fn a_correction_sent_again_is_stored_once_and_a_stale_one_is_refused(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let (id, black) = two_moves(&mut store);
    let right = AnyEvent::Game(Event::Move {
        mv: black[1],
        by: None,
    });
    let token = ggdesk::store::new_token();
    let expect = Expect {
        seq: 2,
        token: &token,
    };
    store
        .correct_last_move(id, Some(expect), 30.0, right, &arbiter(), "again")
        .expect("corrected");
    // The confirmation was lost: the same attempt again is answered, not stored twice.
    store
        .correct_last_move(id, Some(expect), 31.0, right, &arbiter(), "again")
        .expect("answered");
    assert_eq!(store.load_game(id).expect("game").events.len(), 4);
    let corrections = store
        .audit_log(AuditFilter::Game(id.0))
        .expect("audit")
        .into_iter()
        .filter(|e| e.action == "move corrected")
        .count();
    assert_eq!(corrections, 1);
    // Another desk's view of the game from before: refused, nothing written.
    let other = ggdesk::store::new_token();
    let e = store
        .correct_last_move(
            id,
            Some(Expect {
                seq: 2,
                token: &other,
            }),
            40.0,
            right,
            &arbiter(),
            "stale",
        )
        .expect_err("refused");
    assert!(
        matches!(e, StoreError::Conflict(ref m) if m.starts_with(&format!("game {id} changed at another desk"))),
        "{e}"
    );
    assert_eq!(store.load_game(id).expect("game").events.len(), 4);
}

fn an_overstep_is_in_the_audit_log_before_the_event_that_records_it(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let mut rng = StdRng::seed_from_u64(7);
    let setups = games::random_both(&mut rng);
    let id = games::start_with(
        &mut store,
        &NewGame::standalone(),
        &setups,
        START,
        &arbiter(),
    )
    .expect("started");
    let white = games::first_legal(&store, id);
    store
        .append(id, 5.0, AnyEvent::Game(white), &arbiter(), "")
        .expect("White moves");
    let black = games::first_legal(&store, id);
    // Black thinks 3:15: the move limit passed at 2:05.
    store
        .append(id, 200.0, AnyEvent::Game(black), &arbiter(), "")
        .expect("Black moves");
    let log = store.audit_log(AuditFilter::Game(id.0)).expect("audit");
    let at = |action: &str| log.iter().rposition(|e| e.action == action);
    let overstep = at("overstep").expect("an overstep line");
    assert_eq!(at("move"), Some(overstep + 1), "{log:?}");
    assert_eq!(
        ggdesk_core::export::audit::details_in_words("overstep", &log[overstep].details),
        "Black passed the move limit at 2:05 (overstep 1 of 3)"
    );
    assert_eq!(
        log.iter().filter(|e| e.action == "overstep").count(),
        1,
        "White moved in time"
    );
}

fn the_audit_says_whether_lots_or_the_arbiter_chose_who_moves_first(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let mut rng = StdRng::seed_from_u64(9);
    let setups = games::random_both(&mut rng);
    let by_lot =
        games::set_up(&mut store, &NewGame::standalone(), &setups, &arbiter()).expect("set up");
    store
        .draw_lots(by_lot, Side::Black, START, &arbiter())
        .expect("lots");
    store
        .start_game(by_lot, START + 1000, Side::Black, &arbiter())
        .expect("started");
    let by_hand =
        games::set_up(&mut store, &NewGame::standalone(), &setups, &arbiter()).expect("set up");
    store
        .start_game(by_hand, START + 2000, Side::White, &arbiter())
        .expect("started");
    let started = |id: GameId| {
        store
            .audit_log(AuditFilter::Game(id.0))
            .expect("audit")
            .into_iter()
            .find(|e| e.action == "game started")
            .expect("a start line")
            .details
    };
    assert_eq!(started(by_lot), "black moves first (by lot)");
    assert_eq!(
        started(by_hand),
        "white moves first (chosen by the arbiter)"
    );
}

fn a_restore_says_which_restore_it_is(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let mut rng = StdRng::seed_from_u64(11);
    let setups = games::random_both(&mut rng);
    let id = games::start_with(
        &mut store,
        &NewGame::standalone(),
        &setups,
        START,
        &arbiter(),
    )
    .expect("started");
    store.record_clocks_seen(&[(id, 10.0)]).expect("seen");
    store
        .restore_games_in_progress(START + 60_000)
        .expect("restored");
    store.record_clocks_seen(&[(id, 70.0)]).expect("seen");
    store
        .restore_games(&[id], START + 90_000, None, "connection lost")
        .expect("restored");
    let who: Vec<(String, String)> = store
        .audit_log(AuditFilter::Game(id.0))
        .expect("audit")
        .into_iter()
        .filter(|e| e.action == "pause" || e.action == "resume")
        .map(|e| (e.action, e.actor))
        .collect();
    let after = |s: &str| s.to_string();
    assert_eq!(
        who,
        vec![
            (after("pause"), after("restore after restart")),
            (after("resume"), after("restore after restart")),
            (after("pause"), after("restore after reconnection")),
            (after("resume"), after("restore after reconnection")),
        ]
    );
}
