//! The crash test: a child `ggdesk` appends game events one transaction at a time and is
//! killed with SIGKILL at 50 random moments. After each kill the database must pass
//! `PRAGMA integrity_check` and hold every event the child had acknowledged.

use ggdesk::store::{GameId, Store};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn every_acknowledged_event_survives_sigkill() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("crash.sqlite3");
    // Create the database first so every child appends to an existing one.
    drop(Store::open(&db).expect("create"));
    let mut rng = StdRng::seed_from_u64(0xC0FFEE);
    let mut acknowledged_in_all = 0;
    for round in 0..50u64 {
        // The child plays game after game until it is killed.
        let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .arg("--db")
            .arg(&db)
            .args(["crash-child", "--seed"])
            .arg(round.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn the child");
        let stdout = child.stdout.take().expect("piped stdout");
        let reader = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .collect::<Vec<String>>()
        });
        std::thread::sleep(Duration::from_millis(rng.random_range(0..250)));
        child.kill().expect("SIGKILL");
        let status = child.wait().expect("reap");
        assert!(
            !status.success(),
            "round {round}: the child must die by the kill"
        );
        let lines = reader.join().expect("reader");

        let store = Store::open(&db).expect("the database opens after a kill");
        assert_eq!(store.integrity_check().expect("integrity check"), "ok");
        // Every acknowledged (game, seq) must be stored.
        let mut acked: BTreeMap<i64, Vec<u32>> = BTreeMap::new();
        for line in &lines {
            let mut parts = line.split_whitespace();
            if parts.next() != Some("ack") {
                continue;
            }
            let game = parts.next().and_then(|g| g.parse().ok()).expect("game id");
            let seq = parts.next().and_then(|s| s.parse().ok()).expect("sequence");
            acked.entry(game).or_default().push(seq);
        }
        for (game, seqs) in acked {
            let stored = store
                .load_game(GameId(game))
                .expect("the acknowledged game exists");
            let stored_seqs: Vec<u32> = stored.events.iter().map(|e| e.seq).collect();
            assert_eq!(
                stored_seqs,
                (0..stored_seqs.len() as u32).collect::<Vec<_>>(),
                "round {round}: no gaps"
            );
            for s in &seqs {
                assert!(
                    stored_seqs.contains(s),
                    "round {round}: acknowledged event {s} of game {game} lost"
                );
            }
            assert!(
                stored.verdict().expect("setups").is_ok(),
                "the stored game replays"
            );
            acknowledged_in_all += seqs.len();
        }
    }
    assert!(acknowledged_in_all > 0, "the children acknowledged nothing");
}
