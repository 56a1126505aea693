//! The event survives the loss of the server laptop: a primary and a synchronous standby on
//! loopback, set up with docs/standby.sh (each step waits for what it needs: the test does
//! not wait for the servers itself); `feed` writers append games through a URL naming both
//! hosts; the primary is killed with SIGKILL at a point the test has observed (every writer
//! has printed `ack N`, N drawn at random for each, and holds more of its game to store) and
//! the standby promoted; the writers are given the rest of their games and finish by
//! themselves. Every acknowledged event must be on the new primary, none twice, every game
//! whole, and every game must replay. Five times, at other points.

#[path = "support/feed.rs"]
mod feed;
#[path = "support/pg.rs"]
mod pg;

use feed::Feed;
use ggdesk::store::{Address, ServerState, Store, server_status};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const REPLICATION_PASSWORD: &str = "replicate-me";

/// docs/standby.sh where the clusters' owner can read it: the clone may be a folder only its
/// owner can enter (a 0700 home), so the script is copied into a folder of its own.
fn script() -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    static COPY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    COPY.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("ggdesk-standby-sh-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder for the script");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))
            .expect("the folder readable by all");
        let copy = dir.join("standby.sh");
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/standby.sh"),
            &copy,
        )
        .expect("copy docs/standby.sh");
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755))
            .expect("the script readable by all");
        copy
    })
    .clone()
}

/// Runs a step of docs/standby.sh as the clusters' owner.
fn step(bin: &Path, socket: &Path, args: &[&str]) -> String {
    step_by(
        pg::pg_command(Path::new("/usr/bin"), "env"),
        bin,
        socket,
        args,
    )
}

/// Runs a step of docs/standby.sh as this process's user (`status` runs ggdesk, whose binary
/// in a private clone only its owner may run).
fn step_as_me(bin: &Path, socket: &Path, args: &[&str]) -> String {
    step_by(Command::new("env"), bin, socket, args)
}

fn step_by(mut c: Command, bin: &Path, socket: &Path, args: &[&str]) -> String {
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

/// A writer's game and where the primary dies in it: after `ack n`, with the events up to
/// `given` (the header and events 0..given-1 of `lines`) handed to the writer, the rest
/// after the promotion.
struct Writer {
    lines: Vec<String>,
    n: usize,
    given: usize,
}

/// Four writers' games (of at least four events, so that some are stored before the kill,
/// some in flight when it comes, and some after the promotion), with their kill points.
fn writers(round: u64, rng: &mut StdRng) -> Vec<Writer> {
    (0..4)
        .map(|i| {
            let lines = (0..)
                .map(|k| feed::feed_lines_up_to(round * 100 + i * 10 + k, 200))
                .find(|l| l.len() > 4)
                .expect("a game of a few events");
            let events = lines.len() - 1;
            // ack n seen; events n+1 .. given-1 given and perhaps in flight; the rest after.
            let n = rng.random_range(0..events - 2);
            let given = n + 2 + rng.random_range(0..(events - n - 2).min(8));
            Writer { lines, n, given }
        })
        .collect()
}

/// One failover: returns the time from the promotion to the first commit after it.
fn failover(round: u64, rng: &mut StdRng) -> Duration {
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
    // `start` returned once the standby streams, `sync` once the primary treats it as
    // synchronous: nothing to wait for here.
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
    let printed = step_as_me(&bin, &standby, &["status", &url(&[p1, p2])]);
    assert_eq!(printed.lines().count(), 2, "{printed}");
    assert!(printed.contains("standby1 sync"), "{printed}");

    let both = url(&[p1, p2]);
    // Each writer is given the first part of its game and holds its standard input open:
    // when the primary dies, every writer is in the middle of its game, its `ack n` seen
    // and later events given (stored, in flight or waiting to be read).
    let plan = writers(round, rng);
    let mut feeds: Vec<Feed> = plan
        .iter()
        .map(|w| {
            let mut f = Feed::spawn(&both);
            f.give(w.lines[..=w.given].to_vec());
            f
        })
        .collect();
    for (f, w) in feeds.iter_mut().zip(&plan) {
        f.until_line(&format!("ack {}", w.n));
    }
    kill_cluster(&primary_data);
    step(
        &bin,
        &standby,
        &["promote", &standby_data.display().to_string()],
    );
    let promoted = Instant::now();
    let mut first_after: Option<Instant> = None;
    for (f, w) in feeds.iter_mut().zip(&plan) {
        f.give(w.lines[w.given + 1..].to_vec());
    }
    let store = Store::connect(&Address::Server(url(&[p2]))).expect("the new primary");
    for (f, w) in feeds.iter_mut().zip(&plan) {
        let status = f.finish();
        assert!(
            status.success(),
            "round {round}: a writer gave up: {:?}",
            f.text()
        );
        for (at, line) in &f.seen {
            if line.starts_with("ack ") && *at > promoted {
                first_after = Some(first_after.map_or(*at, |t| t.min(*at)));
            }
        }
        let (game, acks) = feed::acknowledged(&f.text()).expect("game and acks");
        assert_eq!(
            acks.len(),
            w.lines.len() - 1,
            "round {round}: a writer that read its whole game acknowledged every event"
        );
        feed::check_game(&store, game, &acks, round);
        let stored = store
            .load_game(ggdesk::store::GameId(game))
            .expect("game")
            .events
            .len();
        assert_eq!(
            stored,
            acks.len(),
            "round {round}: every event read was stored once"
        );
    }
    stop_cluster(&bin, &standby_data);
    stop_cluster(&bin, &primary_data);
    first_after.map_or(Duration::ZERO, |f| f - promoted)
}

#[test]
fn nothing_acknowledged_is_lost_when_the_primary_dies_and_the_standby_is_promoted() {
    let mut rng = StdRng::seed_from_u64(0xFA11);
    let mut delays = Vec::new();
    for round in 0..5 {
        delays.push(failover(round, &mut rng));
    }
    let worst = delays.iter().max().copied().unwrap_or_default();
    println!("promotion to first commit: {delays:?} (worst {worst:?})");
    assert!(
        delays.iter().all(|d| *d > Duration::ZERO),
        "every round committed after the promotion"
    );
}
