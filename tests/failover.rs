//! The event survives the loss of the server laptop: a primary and a synchronous standby on
//! loopback, set up with docs/standby.sh; `feed` writers append games through a URL naming
//! both hosts; the primary is killed with SIGKILL at a random moment and the standby
//! promoted; the writers finish by themselves. Every acknowledged event must be on the new
//! primary, none twice, and every game must replay. Five times, at other moments.

#[path = "support/feed.rs"]
mod feed;
#[path = "support/pg.rs"]
mod pg;

use ggdesk::store::{Address, ServerState, Store, server_status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const REPLICATION_PASSWORD: &str = "replicate-me";

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/standby.sh")
}

/// Runs a step of docs/standby.sh as the clusters' owner.
fn step(bin: &Path, socket: &Path, args: &[&str]) -> String {
    let mut c = pg::pg_command(Path::new("/usr/bin"), "env");
    c.arg(format!("PGBIN={}", bin.display()))
        .arg(format!("SOCKETDIR={}", socket.display()))
        .arg(format!("REPLICATION_PASSWORD={REPLICATION_PASSWORD}"))
        .arg("LISTEN=127.0.0.1")
        // A standby needs at least the primary's max_connections (the test cluster's).
        .arg("EXTRA_OPTIONS=-c max_connections=300")
        .arg(format!("GGDESK={}", env!("CARGO_BIN_EXE_ggdesk")))
        .arg("bash")
        .arg(script())
        .args(args);
    let out = c.output().expect("run standby.sh");
    assert!(
        out.status.success(),
        "standby.sh {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn url(ports: &[u16]) -> String {
    let hosts: Vec<String> = ports.iter().map(|p| format!("127.0.0.1:{p}")).collect();
    format!(
        "postgres://postgres:{}@{}/postgres?target_session_attrs=read-write",
        pg::SUPERUSER_PASSWORD,
        hosts.join(",")
    )
}

/// The postmaster of a cluster and every process it started, killed at once.
fn kill_cluster(data: &Path) {
    let pid = std::fs::read_to_string(data.join("postmaster.pid"))
        .ok()
        .and_then(|t| t.lines().next().map(str::to_string))
        .expect("postmaster.pid");
    let _ = Command::new("pkill").args(["-9", "-P", &pid]).status();
    let _ = Command::new("kill").args(["-9", &pid]).status();
}

fn stop_cluster(bin: &Path, data: &Path) {
    let _ = pg::pg_command(bin, "pg_ctl")
        .arg("-D")
        .arg(data)
        .args(["-m", "immediate", "stop"])
        .output();
}

/// How long each writer writes; the primary is killed well within it (at most 1.2 s in).
const WRITING: Duration = Duration::from_secs(3);

/// One failover: returns the time from the promotion to the first commit after it.
fn failover(round: u64, kill_after: Duration) -> Duration {
    let bin = pg::bin_dir();
    let primary = pg::server_folder("primary");
    let standby = pg::server_folder("standby");
    let (p1, p2) = (pg::free_port(), pg::free_port());
    pg::init_and_start(&bin, &primary, p1, &[]);
    pg::stop_when_done(&bin, &primary);
    pg::stop_when_done(&bin, &standby);
    let primary_data = primary.join("data");
    let standby_data = standby.join("data");
    // The event's schema first, then the standby.
    drop(Store::connect(&Address::Server(url(&[p1]))).expect("schema on the primary"));
    step(
        &bin,
        &primary,
        &[
            "prepare-primary",
            &primary_data.display().to_string(),
            "127.0.0.1",
        ],
    );
    step(
        &bin,
        &standby,
        &[
            "clone",
            "127.0.0.1",
            &p1.to_string(),
            &standby_data.display().to_string(),
            "standby1",
        ],
    );
    step(
        &bin,
        &standby,
        &[
            "start",
            &standby_data.display().to_string(),
            &p2.to_string(),
        ],
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let states = server_status(&Address::Server(url(&[p1]))).expect("status");
        if matches!(&states[0], ServerState::Primary { standbys, .. } if standbys.iter().any(|s| s.state == "streaming"))
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the standby never streamed: {states:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    step(
        &bin,
        &primary,
        &["sync", &primary_data.display().to_string(), "standby1"],
    );
    // Both servers, on one line each, and the primary protected by a synchronous standby.
    let states = server_status(&Address::Server(url(&[p1, p2]))).expect("status");
    assert!(
        matches!(&states[0], ServerState::Primary { .. }) && !states[0].unprotected(),
        "{states:?}"
    );
    assert!(
        matches!(
            &states[1],
            ServerState::Standby {
                streaming: true,
                ..
            }
        ),
        "{states:?}"
    );
    let printed = step(&bin, &standby, &["status", &url(&[p1, p2])]);
    assert_eq!(printed.lines().count(), 2, "{printed}");
    assert!(printed.contains("standby1 sync"), "{printed}");

    let both = url(&[p1, p2]);
    // Each writer spreads its game over WRITING (a short game is paced slower), so that the
    // primary always dies while every writer is still writing.
    let writers: Vec<_> = (0..4)
        .map(|i| {
            let lines = feed::feed_lines_up_to(round * 100 + i, 400);
            let pace = (WRITING / lines.len().max(1) as u32).max(Duration::from_millis(4));
            feed::spawn_feed_paced(&both, lines, pace)
        })
        .collect();
    std::thread::sleep(kill_after);
    kill_cluster(&primary_data);
    step(
        &bin,
        &standby,
        &["promote", &standby_data.display().to_string()],
    );
    let promoted = Instant::now();
    let mut first_after: Option<Instant> = None;
    let mut acked_total = 0;
    let mut games = Vec::new();
    for (mut child, reader) in writers {
        let status = child.wait().expect("wait");
        let lines = reader.join().expect("reader");
        assert!(
            status.success(),
            "round {round}: a writer gave up: {lines:?}"
        );
        for (at, line) in &lines {
            if line.starts_with("ack ") && *at > promoted {
                first_after = Some(first_after.map_or(*at, |f| f.min(*at)));
            }
        }
        let text: Vec<String> = lines.into_iter().map(|(_, l)| l).collect();
        games.push(feed::acknowledged(&text).expect("game and acks"));
    }
    let store = Store::connect(&Address::Server(url(&[p2]))).expect("the new primary");
    for (game, acks) in &games {
        feed::check_game(&store, *game, acks, round);
        let stored = store
            .load_game(ggdesk::store::GameId(*game))
            .expect("game")
            .events
            .len();
        assert_eq!(
            stored,
            acks.len(),
            "round {round}: every event read was stored once"
        );
        acked_total += acks.len();
    }
    assert!(acked_total > 0);
    stop_cluster(&bin, &standby_data);
    stop_cluster(&bin, &primary_data);
    first_after.map_or(Duration::ZERO, |f| f - promoted)
}

#[test]
fn nothing_acknowledged_is_lost_when_the_primary_dies_and_the_standby_is_promoted() {
    let mut rng = StdRng::seed_from_u64(0xFA11);
    let mut delays = Vec::new();
    for round in 0..5 {
        let kill_after = Duration::from_millis(rng.random_range(200..1200));
        delays.push(failover(round, kill_after));
    }
    let worst = delays.iter().max().copied().unwrap_or_default();
    println!("promotion to first commit: {delays:?} (worst {worst:?})");
    assert!(
        delays.iter().all(|d| *d > Duration::ZERO),
        "every round committed after the promotion"
    );
}
