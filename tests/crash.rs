//! The crash test: `ggdesk feed` appends a game's events one transaction at a time and is
//! killed with SIGKILL at 50 random moments, on each engine. After each kill the database
//! must be intact and hold every event the child had acknowledged, each with its audit row,
//! no event twice, and every game must replay.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/pg.rs"]
mod pg;

use engines::Engine;
use ggdesk::store::{Address, AuditFilter, GameId, Store};
use ggdesk_core::record::Record;
use ggdesk_core::sim::{SimOptions, random_record};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The lines `feed` reads for one random game: the header, then one event per line.
pub fn feed_lines(seed: u64) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut options = SimOptions {
        max_events: 3000,
        max_think_ms: 5_000,
        arbiter_events: true,
        ..SimOptions::default()
    };
    options.rules.thirty_moves = 0;
    let record: Record = random_record(&mut |n| rng.random_range(0..n.max(1)), options);
    let mut value = record.to_value();
    let events = value
        .as_object_mut()
        .and_then(|o| o.remove("events"))
        .and_then(|e| e.as_array().cloned())
        .unwrap_or_default();
    if let Some(o) = value.as_object_mut() {
        o.remove("readings");
    }
    let mut lines = vec![value.to_string()];
    lines.extend(events.iter().map(Value::to_string));
    lines
}

/// A `feed` child writing into `db`, its input written by a thread.
pub fn spawn_feed(db: &str, lines: Vec<String>) -> (Child, std::thread::JoinHandle<Vec<String>>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["--db", db, "feed", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn feed");
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::spawn(move || {
        for line in lines {
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
    });
    let stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<String>>()
    });
    (child, reader)
}

/// The game a feed's output names, and the sequence numbers it acknowledged.
pub fn acknowledged(lines: &[String]) -> Option<(i64, Vec<u32>)> {
    let game = lines.first()?.strip_prefix("game ")?.trim().parse().ok()?;
    let acks = lines
        .iter()
        .filter_map(|l| l.strip_prefix("ack ")?.trim().parse().ok())
        .collect();
    Some((game, acks))
}

/// Checks that the database holds every acknowledged event of `game`, each once with its
/// audit row, and that the game replays.
pub fn check_game(store: &Store, game: i64, acks: &[u32], round: u64) {
    let stored = store
        .load_game(GameId(game))
        .expect("the acknowledged game exists");
    let seqs: Vec<u32> = stored.events.iter().map(|e| e.seq).collect();
    assert_eq!(
        seqs,
        (0..seqs.len() as u32).collect::<Vec<_>>(),
        "round {round}: no gaps, no event twice"
    );
    assert_eq!(
        acks,
        (0..acks.len() as u32).collect::<Vec<_>>(),
        "round {round}: feed acknowledges 0, 1, 2, ..."
    );
    assert!(
        acks.len() <= seqs.len(),
        "round {round}: game {game}: {} acknowledged, {} stored",
        acks.len(),
        seqs.len()
    );
    let audited = store
        .audit_log(AuditFilter::Game(game))
        .expect("audit")
        .iter()
        .filter(|a| {
            !matches!(
                a.action.as_str(),
                "game created" | "setup entered" | "game started"
            )
        })
        .count();
    assert_eq!(
        audited,
        seqs.len(),
        "round {round}: game {game}: every stored event has its audit row"
    );
    assert!(
        stored.verdict().expect("setups").is_ok(),
        "round {round}: the stored game replays"
    );
}

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
