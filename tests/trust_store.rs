//! Issue 19 through the store on an event server: a desk's restore writes only into games
//! it runs (never a station's tables, nor a game `feed` plays); after a reconnection nothing
//! is written before the restore; nothing follows an end, whoever writes. (What a station
//! may do is the stations' API's to check: `station_api.rs`; a station is never a database
//! login.)

#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use event::{connect, games};
use ggdesk::desk::LiveTable;
use ggdesk::store::{Actor, AnyEvent, GameId, NewGame, Store, StoreError};
use ggdesk_core::Refusal;
use ggdesk_core::game::desk::GameRefusal;
use ggdesk_core::rules::Event;
use trust::{START, dump};

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
    // The director's desk, long after the clocks were last seen: the practice table only,
    // never a station's table (hall-a's, hall-b's) nor the feed's.
    director.set_now(START + 60_000);
    let report = director
        .restore_unattended_games(START + 60_000, 10_000)
        .expect("restore");
    assert_eq!(report.restored, vec![practice], "{report:?}");
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    for g in [ev.game_a, ev.game_b, feed_game] {
        assert!(report.left_to_their_desk.contains(&g), "{g}: {report:?}");
    }
    for (i, &g) in every.iter().enumerate() {
        let now = kinds(&director, g);
        if g == practice {
            assert_eq!(now, ["move", "pause", "resume"], "game {g}");
        } else {
            assert_eq!(now, before[i], "game {g} is another desk's");
        }
    }
    // A reconnection's restore too: the desk names every table it shows, restores its own.
    director.set_now(START + 200_000);
    let report = director
        .restore_games(&every, START + 200_000, None, "reconnected")
        .expect("restore");
    assert_eq!(report.restored, vec![practice]);
    assert_eq!(kinds(&director, ev.game_a), before[0]);
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
    // A director's desk of its own (its sessions named, to be dropped alone), running a
    // game at no table.
    let mut a = connect(&format!("{}?application_name=desk_a", ev.url));
    let game = practice(&mut a);
    a.set_now(START + 12_000);
    a.hold_writes_to_this_connection();
    let mut table = LiveTable::load(&a, game).expect("table");
    // The server drops the desk's connection (a failover, a restart).
    pg::cluster().psql(
        "postgres",
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'desk_a'",
    );
    let mv = games::first_legal(&ev.director, game);
    let before = kinds(&ev.director, game);
    // The first write finds the connection gone (or already made again); once it is made
    // again, every write is refused for that until the desk has restored.
    let made_again = |r: &Result<_, StoreError>| matches!(r, Err(StoreError::Disconnected(m)) if m.contains("the connection to the server was made again"));
    let first = table.submit(&mut a, mv, START + 12_000, &Actor::director(), "");
    assert!(
        matches!(first, Err(StoreError::Disconnected(_))),
        "{first:?}"
    );
    assert_eq!(kinds(&ev.director, game), before, "nothing was saved");
    let refused = if made_again(&first) {
        first
    } else {
        table.submit(&mut a, mv, START + 12_000, &Actor::director(), "")
    };
    assert!(made_again(&refused), "{refused:?}");
    assert_eq!(kinds(&ev.director, game), before, "nothing was saved");
    assert!(a.reconnected_since_hold());
    // The desk restores, then the move goes in after the pause.
    a.hold_writes_to_this_connection();
    let report = a
        .restore_games(&[game], START + 12_000, None, "reconnected")
        .expect("restore");
    assert_eq!(report.restored, vec![game], "{report:?}");
    table.reload(&a).expect("reload");
    table
        .submit(&mut a, mv, START + 12_000, &Actor::director(), "")
        .expect("the move");
    assert_eq!(
        kinds(&ev.director, game),
        ["move", "pause", "resume", "move"]
    );
}

#[test]
fn nothing_follows_an_end_whoever_writes() {
    let ev = trust::event();
    // The arbiter of table 1, at the director's desk.
    let mut a = connect(&ev.url);
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
