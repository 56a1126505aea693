//! Issue 19 at the command line: `feed` stores nothing after `end`, refuses a line over its
//! limit without holding it or repeating it, and takes invalid UTF-8 as bad input; the
//! station commands (`add` refusing a name that would be another role, `reset`, `remove`);
//! a station's `export` of another table's game refused; `status` without `pg_monitor`
//! says what it cannot see, and never panics.

#[path = "support/event.rs"]
mod event;
#[path = "support/feed.rs"]
mod feed;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use ggdesk::store::{Address, GameId, Store};
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn ggdesk(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(args)
        .output()
        .expect("run ggdesk")
}

/// `feed` on `db` with `input` on its standard input (written by a thread, which reports
/// how many bytes it could write before `feed` stopped reading).
fn feed_with(db: &str, input: Vec<u8>) -> (Output, usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["--db", db, "feed", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn feed");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let mut written = 0;
        for chunk in input.chunks(64 * 1024) {
            if stdin.write_all(chunk).is_err() {
                break;
            }
            written += chunk.len();
        }
        written
    });
    let out = child.wait_with_output().expect("feed ends");
    (out, writer.join().expect("writer"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The events stored for the game `feed` created (its first output line: `game ID`).
fn stored_events(db: &str, out: &Output) -> usize {
    let text = String::from_utf8_lossy(&out.stdout);
    let id: i64 = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("game "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("feed named its game: {text}"));
    Store::open(std::path::Path::new(db))
        .expect("open")
        .load_game(GameId(id))
        .expect("game")
        .events
        .len()
}

#[test]
fn feed_stores_nothing_after_end() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("feed.sqlite3").display().to_string();
    let lines = feed::feed_lines_up_to(7, 12);
    let header = lines[0].clone();
    let first = lines[1].clone();
    let t: f64 = serde_json::from_str::<serde_json::Value>(&first).expect("event")["t"]
        .as_f64()
        .expect("t");
    let input = format!(
        "{header}\n{first}\n{{\"t\": {}, \"end\": true}}\n{{\"t\": {}, \"pause\": true}}\n",
        t + 1.0,
        t + 2.0
    );
    let (out, _) = feed_with(&db, input.into_bytes());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim(),
        "ggdesk: event 2: the record has ended (event 1 is \"end\"): nothing may follow it"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("ack 1") && !stdout.contains("ack 2"),
        "{stdout}"
    );
    assert_eq!(
        stored_events(&db, &out),
        2,
        "the move and the end, nothing after"
    );
    // What is stored replays.
    let export = dir.path().join("game.json");
    let id = stdout
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("game "))
        .expect("id");
    let out = ggdesk(&[
        "--db",
        &db,
        "export",
        "game",
        id,
        &export.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = ggdesk(&["replay", &export.display().to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn feed_refuses_a_line_over_its_limit_without_holding_or_repeating_it() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("feed.sqlite3").display().to_string();
    let lines = feed::feed_lines_up_to(8, 4);
    // 64 MiB of one line: far more than feed may hold.
    let mut input = format!("{}\n{{\"t\": 1.0, \"move\": \"", lines[0]).into_bytes();
    let huge = 64 * 1024 * 1024;
    input.resize(input.len() + huge, b'a');
    let (out, written) = feed_with(&db, input);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim(),
        format!(
            "ggdesk: event 0: the line is longer than {} bytes (the limit of a line): refused",
            1024 * 1024
        )
    );
    assert!(
        written < huge / 2,
        "feed stopped reading soon after the limit: {written} bytes were taken"
    );
    assert_eq!(stored_events(&db, &out), 0);
}

#[test]
fn feed_takes_a_line_that_is_not_utf8_as_bad_input() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("feed.sqlite3").display().to_string();
    let lines = feed::feed_lines_up_to(9, 4);
    let mut input = format!("{}\n{}\n", lines[0], lines[1]).into_bytes();
    input.extend_from_slice(b"{\"t\": 50.0, \"move\": \"a1\xff\"}\n");
    let (out, _) = feed_with(&db, input);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim(),
        "ggdesk: event 1: not valid JSON: the line is not UTF-8 (byte 23)"
    );
    assert_eq!(stored_events(&db, &out), 1);
}

#[test]
fn the_station_commands_refuse_a_name_that_is_another_role_and_reset_and_remove() {
    let ev = trust::event();
    let before = trust::dump(&ev.db);
    let out = ggdesk(&["--db", &ev.url, "station", "add", "public", "--tables", "5"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("would be the public pages' role"),
        "{}",
        stderr(&out)
    );
    assert_eq!(trust::dump(&ev.db), before, "nothing was made");
    // A station may not manage stations.
    let out = ggdesk(&["--db", &ev.a.url, "station", "reset", "hall-b"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "not allowed for this login: only the director's login may give a station a new password"
        ),
        "{}",
        stderr(&out)
    );
    // A new password: a new URL, the old one refused.
    let out = ggdesk(&["--db", &ev.url, "station", "reset", "hall-b"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let url = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert!(
        url.starts_with("postgres://") && url.contains("hall-b"),
        "{url}"
    );
    trust::assert_login_refused(&ev.b.url);
    assert!(Store::connect(&Address::Server(url.clone())).is_ok());
    // Removed: its login is gone.
    let out = ggdesk(&["--db", &ev.url, "station", "remove", "hall-b"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "station hall-b removed"
    );
    trust::assert_login_refused(&url);
    let out = ggdesk(&["--db", &ev.url, "station", "list"]);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed.contains("hall-a") && !listed.contains("hall-b"),
        "{listed}"
    );
}

#[test]
fn a_station_exports_no_game_of_another_table() {
    let ev = trust::event();
    let out = ggdesk(&[
        "--db",
        &ev.a.url,
        "export",
        "game",
        &ev.game_b.0.to_string(),
        "-",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim(),
        format!(
            "ggdesk: not allowed for this login: game {} is not at a table of this station: \
             its setups, events and reading sheets are not this login's to read",
            ev.game_b
        )
    );
    assert!(out.stdout.is_empty(), "nothing written");
    // Its own table's game exports whole.
    let out = ggdesk(&[
        "--db",
        &ev.a.url,
        "export",
        "game",
        &ev.game_a.0.to_string(),
        "-",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a record");
    assert!(record["setup"]["white"].is_object(), "{record}");
}

/// A director's login without `pg_monitor` on a server with a standby connected (a WAL
/// receiver, as a standby's): `status` panicked reading the replication view's NULLs. It
/// says the standby's state is unknown and what to grant; granted, it shows the standby.
#[test]
fn status_without_pg_monitor_says_so_and_never_panics() {
    let server = pg::own_cluster("status");
    let n = std::process::id();
    let login = format!("st_dir_{n}");
    server.psql(
        "postgres",
        &format!("CREATE ROLE {login} LOGIN PASSWORD 'director-pw' NOSUPERUSER CREATEROLE"),
    );
    server.psql("postgres", &format!("CREATE DATABASE st_{n} OWNER {login}"));
    let url = format!(
        "postgres://{login}:director-pw@127.0.0.1:{}/st_{n}",
        server.port
    );
    drop(Store::connect(&Address::Server(url.clone())).expect("the event"));
    // A standby's stream: pg_receivewal, as the superuser.
    let wal = pg::server_folder("wal");
    // Run directly (a client program may run as root), so that it is this test's child to
    // end; --no-loop: it does not try again once its server is gone.
    let mut receiver = Command::new(server.bin.join("pg_receivewal"))
        .arg("-D")
        .arg(&wal)
        .args([
            "--no-loop",
            "-h",
            "127.0.0.1",
            "-p",
            &server.port.to_string(),
            "-U",
            "postgres",
        ])
        .env("PGPASSWORD", pg::SUPERUSER_PASSWORD)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("pg_receivewal");
    // Connected and past its catch-up (a receiver still catching up is reported as such).
    let streaming = (0..900).any(|_| {
        let n = server.psql(
            "postgres",
            "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'",
        );
        if n == "1" {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        false
    });
    assert!(
        streaming,
        "the WAL receiver connected and streamed within 90 s"
    );
    let out = ggdesk(&["--db", &url, "status"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!(
            "127.0.0.1:{}: primary; standby state unknown: grant pg_monitor to the director",
            server.port
        )
    );
    server.psql("postgres", &format!("GRANT pg_monitor TO {login}"));
    let out = ggdesk(&["--db", &url, "status"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let line = String::from_utf8_lossy(&out.stdout);
    assert!(
        line.contains("primary; standby pg_receivewal async (streaming)"),
        "{line}"
    );
    let _ = receiver.kill();
    let _ = receiver.wait();
}

/// S2: the tokens `feed` stores with its game and events carry 128 random bits, so no other
/// writer can derive them (before, they were the game's id and the time, which a desk can
/// read off the game's `created_at`), and two feeds never share one.
#[test]
fn feed_tokens_are_random_and_nobody_can_derive_them() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("feed.sqlite3").display().to_string();
    let lines = feed::feed_lines_up_to(7, 5);
    let input = lines.join("\n") + "\n";
    let is_random = |hex: &str| hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit());
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let (out, _) = feed_with(&db, input.clone().into_bytes());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let id: i64 = stdout
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("game "))
            .and_then(|n| n.parse().ok())
            .expect("game ID");
        let conn = rusqlite::Connection::open(&db).expect("open");
        let (game_token, created_at): (String, i64) = conn
            .query_row(
                "SELECT token, created_at FROM games WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .expect("the game's token");
        let game_random = game_token.strip_prefix("feed-").expect("feed-");
        assert!(is_random(game_random), "{game_token}");
        let mut rows = conn
            .prepare("SELECT seq, token FROM game_events WHERE game_id = ?1 ORDER BY seq")
            .expect("prepare");
        let tokens: Vec<(i64, String)> = rows
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("query")
            .map(|r| r.expect("row"))
            .collect();
        assert_eq!(tokens.len(), lines.len() - 1);
        let session = tokens[0]
            .1
            .rsplit_once('-')
            .expect("SESSION-SEQ")
            .0
            .to_string();
        let random = session.strip_prefix("feed-").expect("feed-");
        assert!(is_random(random), "{session}");
        assert_ne!(random, game_random);
        for (seq, token) in &tokens {
            assert_eq!(token, &format!("{session}-{seq}"));
            assert!(!token.contains(&created_at.to_string()), "{token}");
            assert!(!token.contains(&format!("-{id}-")), "{token}");
        }
        sessions.push(session);
    }
    assert_ne!(sessions[0], sessions[1]);
}
