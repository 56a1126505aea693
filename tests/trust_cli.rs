//! Issue 19 at the command line: `feed` stores nothing after `end`, refuses a line over its
//! limit without holding it or repeating it, and takes invalid UTF-8 as bad input; the
//! station commands (`add` refused without its tournament, `reset`, `remove`, and never a
//! database login); `status` without `pg_monitor` says what it cannot see, and never panics.

#[path = "support/event.rs"]
mod event;
#[path = "support/feed.rs"]
mod feed;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use ggdesk::store::{Address, EventServer, GameId, Store};
use ggdesk_core::tournament::TableNo;
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

/// A station needs its tournament: `station add` without one is refused before anything is
/// opened (a station is never a database login). With it, on an event whose server runs,
/// the card is printed and no role is made; `reset` gives a new secret (the old one opens
/// nothing), `remove` ends the station.
#[test]
fn the_station_commands_need_a_tournament_and_make_no_login() {
    let mut ev = trust::event();
    let before = (trust::dump(&ev.db), trust::roles(&ev));
    let out = ggdesk(&["--db", &ev.url, "station", "add", "hall-c", "--tables", "5"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim(),
        "ggdesk: a station needs its tournament: add it with --tournament TID, on a server \
         `ggdesk host` runs, which prints its card (a station speaks to that server with the \
         card's secret and never logs into the database)"
    );
    assert!(out.stdout.is_empty());
    let tid = ev.open.to_string();
    // No event server runs on this database: no card can name it.
    let add = [
        "--db",
        &ev.url,
        "station",
        "add",
        "hall-c",
        "--tournament",
        &tid,
        "--tables",
        "5",
    ];
    let out = ggdesk(&add);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim(),
        "ggdesk: this database has no event server: a station's card names the server that \
         `ggdesk host` runs (start it, then add the station)"
    );
    assert_eq!(
        (trust::dump(&ev.db), trust::roles(&ev)),
        before,
        "nothing was made"
    );
    ev.director
        .set_event_server(&EventServer {
            stations_address: "https://127.0.0.1:8443/".into(),
            authority: "ab".repeat(32),
        })
        .expect("the event server");
    let out = ggdesk(&add);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let secret_of = |out: &Output| {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("secret: ").map(str::to_string))
            .expect("the card's secret")
    };
    let secret = secret_of(&out);
    assert_eq!(trust::roles(&ev), before.1, "no login was made");
    let found = ev
        .director
        .station_by_secret("hall-c", &secret)
        .expect("read")
        .expect("the card's secret opens the API");
    assert_eq!(
        (found.tournament, found.tables),
        (ev.open, vec![TableNo(5)])
    );
    // A new secret: the old one opens nothing.
    let out = ggdesk(&["--db", &ev.url, "station", "reset", "hall-c"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let renewed = secret_of(&out);
    assert_ne!(renewed, secret);
    assert_eq!(
        ev.director
            .station_by_secret("hall-c", &secret)
            .expect("read"),
        None
    );
    assert!(
        ev.director
            .station_by_secret("hall-c", &renewed)
            .expect("read")
            .is_some()
    );
    let out = ggdesk(&["--db", &ev.url, "station", "list"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "hall-a: tournament {tid}, tables 1-2\nhall-b: tournament {tid}, tables 3-4\n\
             hall-c: tournament {tid}, tables 5\n"
        )
    );
    // Removed: its secret opens nothing.
    let out = ggdesk(&["--db", &ev.url, "station", "remove", "hall-c"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "station hall-c removed"
    );
    assert_eq!(
        ev.director
            .station_by_secret("hall-c", &renewed)
            .expect("read"),
        None
    );
    assert_eq!(trust::roles(&ev), before.1, "no login was ever made");
}

/// A director's login without `pg_monitor` on a server with a standby connected (a WAL
/// receiver, as a standby's): `status` panicked reading the replication view's NULLs. It
/// says the standby's state is unknown and what to grant; granted, it shows the standby.
#[test]
fn status_without_pg_monitor_says_so_and_never_panics() {
    let server = pg::own_cluster("status");
    let n = std::process::id();
    let login = format!("st_dir_{n}");
    let url = server.director_database(&login, &format!("st_{n}"));
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
