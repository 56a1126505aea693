//! The crash test: `ggdesk feed` appends a game's events one transaction at a time and is
//! killed with SIGKILL, 50 times on each engine, each time at a point the test has observed:
//! right after it printed `ack N` (N drawn at random from the game's events), while it holds
//! more events to store (they were given to it; its standard input stays open, so it is
//! still in the middle of its game, storing the next events or waiting for more). After
//! each kill the database must be intact and hold every event the child had acknowledged,
//! each with its audit row, no event twice, and the game must replay. Every tenth game is
//! fed whole instead and must end by itself with exit 0, every event acknowledged.
//!
//! A kill cannot tell an `ack` printed after the commit from one printed just before it (the
//! commit usually finishes before the kill lands), nor a commit that was synced from one
//! left in the page cache (SIGKILL keeps the page cache). Both are checked at the
//! system-call level in `tests/durability.rs`
//! (`feed_syncs_the_wal_after_each_commit_and_only_then_acknowledges`): under strace, each
//! `ack N` is written to standard output only after event N's commit wrote the WAL and the
//! WAL was synced, so "ack cannot be printed before the commit returns" is covered there.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/feed.rs"]
mod feed;
#[path = "support/pg.rs"]
mod pg;

use engines::Engine;
use feed::{Feed, acknowledged, check_game, feed_lines_up_to};
use ggdesk::store::{Address, Store};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Games of at most this many events: long enough for kills deep into a game, short
/// enough that 50 of them stay cheap (each acknowledged event is a synced commit).
const MAX_EVENTS: usize = 100;

fn kills(engine: Engine) {
    let dir = tempfile::tempdir().expect("tempdir");
    let address = engines::fresh_address(engine, dir.path());
    let db = match &address {
        Address::File(p) => p.display().to_string(),
        Address::Server(url) => url.clone(),
    };
    // Create the database first so every child appends to an existing one.
    drop(Store::connect(&address).expect("create"));
    let mut rng = StdRng::seed_from_u64(0xC0FFEE);
    let (mut killed, mut whole) = (0, 0);
    for round in 0..50u64 {
        let lines = feed_lines_up_to(round, MAX_EVENTS);
        // The header, then one event per line.
        let events = lines.len() - 1;
        let mut feed = Feed::spawn(&db);
        if round % 10 == 9 || events < 2 {
            feed.give(lines);
            let status = feed.finish();
            assert!(
                status.success(),
                "round {round}: a feed that read its whole game exits 0: {status}"
            );
            let (game, acks) = acknowledged(&feed.text()).expect("game and acks");
            assert_eq!(
                acks.len(),
                events,
                "round {round}: every event acknowledged"
            );
            let store = Store::connect(&address).expect("open");
            check_game(&store, game, &acks, round);
            whole += 1;
            continue;
        }
        // Killed after `ack n`, with `more` events beyond it given and not all stored yet.
        let n = rng.random_range(0..events - 1);
        let more = rng.random_range(1..=(events - 1 - n).min(8));
        feed.give(lines[..=n + 1 + more].to_vec());
        feed.until_line(&format!("ack {n}"));
        let status = feed.kill();
        assert!(
            !status.success(),
            "round {round}: the feed, waiting for more of its game, was killed: {status}"
        );
        killed += 1;
        feed.close_input();
        // Every line it wrote before it died is in the pipe.
        let status = feed.finish();
        assert!(!status.success());
        let store = Store::connect(&address).expect("the database opens after a kill");
        assert_eq!(store.integrity_check().expect("integrity"), "ok");
        let (game, acks) = acknowledged(&feed.text()).expect("game and acks");
        assert!(
            acks.len() > n && acks.len() <= n + 1 + more,
            "round {round}: killed after ack {n} with {more} more given: {} acknowledged",
            acks.len()
        );
        check_game(&store, game, &acks, round);
    }
    assert_eq!(killed + whole, 50);
    assert!(
        killed >= 40,
        "only {killed} kills: the games were too short to kill in their middle"
    );
}

#[test]
fn every_acknowledged_event_survives_sigkill_on_sqlite() {
    kills(Engine::Sqlite);
}

#[test]
fn every_acknowledged_event_survives_sigkill_on_postgres() {
    kills(Engine::Postgres);
}
