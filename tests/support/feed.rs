//! `ggdesk feed` children for the tests: a random game's lines, a child fed by a thread, and
//! the checks that every acknowledged event is stored once with its audit row.
#![allow(dead_code)]

use ggdesk::store::{AuditFilter, GameId, Store};
use ggdesk_core::record::Record;
use ggdesk_core::sim::{SimOptions, random_record};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The lines `feed` reads for one random game: the header, then one event per line.
pub fn feed_lines(seed: u64) -> Vec<String> {
    feed_lines_up_to(seed, 3000)
}

/// The same for a game of at most `max_events` events.
pub fn feed_lines_up_to(seed: u64, max_events: usize) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut options = SimOptions {
        max_events,
        max_think_ms: 5_000,
        arbiter_events: true,
        ..SimOptions::default()
    };
    options.rules.thirty_moves = 0;
    let record: Record = random_record(&mut |n| rng.random_range(0..n.max(1)), options)
        .expect("the simulator plays only what the rules allow");
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
    let (child, timed) = spawn_feed_paced(db, lines, Duration::ZERO);
    let reader = std::thread::spawn(move || {
        let lines = timed.join().unwrap_or_default();
        lines.into_iter().map(|(_, line)| line).collect()
    });
    (child, reader)
}

/// A `feed` child whose input lines are written `pace` apart (so that it is still writing
/// when something happens to the server); each output line comes with its arrival time.
pub fn spawn_feed_paced(
    db: &str,
    lines: Vec<String>,
    pace: Duration,
) -> (Child, std::thread::JoinHandle<Vec<(Instant, String)>>) {
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
            if !pace.is_zero() {
                std::thread::sleep(pace);
            }
        }
    });
    let stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .map(|line| (Instant::now(), line))
            .collect()
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
    // One snapshot for the game and its audit rows: a killed writer's server process may
    // still commit its last transaction between two separate reads.
    let (stored, log) = store
        .read_consistent(|s| {
            Ok((
                s.load_game(GameId(game))?,
                s.audit_log(AuditFilter::Game(game))?,
            ))
        })
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
    let audited: Vec<&str> = log
        .iter()
        .filter(|a| {
            !matches!(
                a.action.as_str(),
                "game created" | "setup entered" | "game started"
            )
        })
        .map(|a| a.action.as_str())
        .collect();
    assert_eq!(
        audited.len(),
        seqs.len(),
        "round {round}: game {game}: every stored event has its audit row: {audited:?} for {:?}",
        stored
            .events
            .iter()
            .map(|e| e.kind.code())
            .collect::<Vec<_>>()
    );
    assert!(
        stored.verdict().expect("setups").is_ok(),
        "round {round}: the stored game replays"
    );
}
