//! The crash test: `ggdesk feed` appends a game's events one transaction at a time and is
//! killed with SIGKILL at 50 random moments, on each engine. After each kill the database
//! must be intact and hold every event the child had acknowledged, each with its audit row,
//! no event twice, and every game must replay.
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
use feed::{acknowledged, check_game, feed_lines, spawn_feed};
use ggdesk::store::{Address, Store};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

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
    let mut acknowledged_in_all = 0;
    let mut killed_mid_game = 0;
    for round in 0..50u64 {
        let deadline = Instant::now() + Duration::from_millis(rng.random_range(20..300));
        let mut games = 0;
        // Game after game until the deadline: the one running then is killed.
        loop {
            let (mut child, reader) = spawn_feed(&db, feed_lines(round * 1000 + games));
            games += 1;
            let finished = loop {
                if let Some(status) = child.try_wait().expect("poll") {
                    break Some(status);
                }
                if Instant::now() >= deadline {
                    break None;
                }
                std::thread::sleep(Duration::from_millis(2));
            };
            if finished.is_none() {
                child.kill().expect("SIGKILL");
                child.wait().expect("reap");
            }
            let lines = reader.join().expect("reader");
            let store = Store::connect(&address).expect("the database opens after a kill");
            assert_eq!(store.integrity_check().expect("integrity"), "ok");
            if let Some((game, acks)) = acknowledged(&lines) {
                check_game(&store, game, &acks, round);
                acknowledged_in_all += acks.len();
                if finished.is_none() && !acks.is_empty() {
                    killed_mid_game += 1;
                }
            }
            if finished.is_none() {
                break;
            }
            assert!(
                finished.is_some_and(|s| s.success()),
                "round {round}: a feed that read its whole game exits 0"
            );
        }
    }
    assert!(acknowledged_in_all > 0, "the children acknowledged nothing");
    assert!(
        killed_mid_game >= 10,
        "only {killed_mid_game} kills landed while a game was being fed"
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
