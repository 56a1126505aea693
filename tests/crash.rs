//! The crash test: a child `ggdesk` appends game events one transaction at a time and is
//! killed with SIGKILL at 50 random moments. After each kill the database must pass
//! `PRAGMA integrity_check` and hold every event the child had acknowledged.

use ggdesk::store::{GameId, Store};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
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
    let mut kills_mid_game = 0;
    for round in 0..50u64 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .arg("--db")
            .arg(&db)
            .args(["crash-child", "--events", "400", "--seed"])
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
        let lines = reader.join().expect("reader");
        if !status.success() {
            kills_mid_game += 1;
        }

        let store = Store::open(&db).expect("the database opens after a kill");
        assert_eq!(store.integrity_check().expect("integrity check"), "ok");
        let Some(game) = lines
            .iter()
            .find_map(|l| l.strip_prefix("game ").and_then(|n| n.parse::<i64>().ok()))
        else {
            continue; // killed before the game was created
        };
        let acked: Vec<u32> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("ack ").and_then(|n| n.parse().ok()))
            .collect();
        let stored = store
            .load_game(GameId(game))
            .expect("the acknowledged game exists");
        let seqs: Vec<u32> = stored.events.iter().map(|e| e.seq).collect();
        assert!(
            seqs.len() >= acked.len(),
            "round {round}: {} events stored, {} acknowledged",
            seqs.len(),
            acked.len()
        );
        assert_eq!(seqs, (0..seqs.len() as u32).collect::<Vec<_>>(), "no gaps");
        for a in acked {
            assert!(
                seqs.contains(&a),
                "round {round}: acknowledged event {a} lost"
            );
        }
        assert!(
            stored.verdict().expect("setups").is_ok(),
            "the stored game replays"
        );
    }
    assert!(
        kills_mid_game >= 25,
        "most kills must land mid-game ({kills_mid_game})"
    );
}
