//! Durability below what a kill can see. SIGKILL keeps the page cache, so the crash test
//! (`tests/crash.rs`) passes even when nothing is ever synced to the disk; these tests check
//! the two things a power cut would punish:
//!
//! - every SQLite connection the store opens runs in WAL mode with `synchronous=FULL` and
//!   foreign keys on (read back from the connection, not assumed);
//! - `ggdesk feed` syncs the WAL file after each event's commit and only then prints its
//!   `ack`: checked at the system-call level, under `strace`.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/feed.rs"]
mod feed;
#[path = "support/pg.rs"]
mod pg;

use ggdesk::store::{Address, SqliteSettings, Store};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

fn settings_of(store: &Store) -> SqliteSettings {
    store
        .sqlite_settings()
        .expect("a SQLite store")
        .expect("the settings read back")
}

fn wal_full_fk() -> SqliteSettings {
    SqliteSettings {
        journal_mode: "wal".into(),
        synchronous: 2,
        foreign_keys: true,
    }
}

#[test]
fn every_sqlite_connection_the_store_opens_runs_with_wal_full_sync_and_foreign_keys() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("event.sqlite3");
    // A new file.
    let store = Store::open(&path).expect("create");
    assert_eq!(settings_of(&store), wal_full_fk(), "a new file");
    drop(store);
    // An existing file, opened again, by path and by address (`--db FILE`, the desk).
    let store = Store::open(&path).expect("reopen");
    assert_eq!(settings_of(&store), wal_full_fk(), "an existing file");
    drop(store);
    let store = Store::connect(&Address::File(path.clone())).expect("connect");
    assert_eq!(settings_of(&store), wal_full_fk(), "connect to a file");
    // A file two stores have open at once (the desk and a command line).
    let second = Store::open(&path).expect("second connection");
    assert_eq!(settings_of(&second), wal_full_fk(), "a second connection");
    drop((store, second));
    // A file some other program left in rollback-journal mode with synchronous OFF: the
    // settings are a connection's, not the file's, and the store sets its own.
    {
        let conn = rusqlite::Connection::open(&path).expect("sqlite");
        conn.pragma_update(None, "journal_mode", "DELETE")
            .expect("leave wal");
        conn.pragma_update(None, "synchronous", "OFF")
            .expect("sync off");
    }
    let store = Store::open(&path).expect("reopen after another program");
    assert_eq!(settings_of(&store), wal_full_fk(), "after another program");
    // A backup opens like any database.
    let backup = store.backup("settings").expect("backup");
    let store = Store::open(&backup).expect("open the backup");
    assert_eq!(settings_of(&store), wal_full_fk(), "a backup");
    // In memory there is no journal file; the rest holds.
    let memory = Store::open_in_memory().expect("memory");
    assert_eq!(
        settings_of(&memory),
        SqliteSettings {
            journal_mode: "memory".into(),
            synchronous: 2,
            foreign_keys: true,
        }
    );
}

#[test]
fn a_server_has_no_sqlite_settings() {
    let store = engines::fresh_store(engines::Engine::Postgres);
    assert!(store.sqlite_settings().is_none());
}

/// One system call of interest, from `strace -y` output.
#[derive(Debug, Clone, PartialEq)]
enum Call {
    /// A write into the database's `-wal` file.
    WalWrite,
    /// `fsync` or `fdatasync` of the `-wal` file.
    WalSync,
    /// A line written to standard output.
    Out(String),
}

/// Reads `strace -f -y` lines (`PID name(FD<path>, ...) = RET`) into the calls the test
/// looks at, in order. Lines of other calls or files are skipped.
fn calls(trace: &str, wal: &str) -> Vec<Call> {
    let mut out = Vec::new();
    for line in trace.lines() {
        // Without a pid prefix when there is only one process; with it under -f.
        let body = line
            .split_once(' ')
            .filter(|(pid, _)| pid.chars().all(|c| c.is_ascii_digit()))
            .map_or(line, |(_, rest)| rest.trim_start());
        let Some((name, args)) = body.split_once('(') else {
            continue;
        };
        let (fd, rest) = match args.split_once('<') {
            Some((fd, rest)) => (fd, rest),
            None => continue,
        };
        let Some((path, after)) = rest.split_once('>') else {
            continue;
        };
        match name {
            "fsync" | "fdatasync" if path == wal => out.push(Call::WalSync),
            "write" | "pwrite64" | "pwrite" | "pwritev" | "pwritev2" | "writev" if path == wal => {
                out.push(Call::WalWrite)
            }
            "write" if fd == "1" => {
                // `, "ack 3\n", 6) = 6`
                let text = after
                    .split_once('"')
                    .and_then(|(_, s)| s.rsplit_once('"'))
                    .map(|(s, _)| s.replace("\\n", "\n"))
                    .unwrap_or_default();
                for l in text.lines() {
                    out.push(Call::Out(l.to_string()));
                }
            }
            _ => {}
        }
    }
    out
}

fn strace_present() -> bool {
    Command::new("strace")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `ggdesk --db DB feed -` under strace with `lines` on its standard input; its
/// standard output lines and the calls traced.
fn feed_under_strace(db: &Path, trace: &Path, lines: &[String]) -> (Vec<String>, Vec<Call>) {
    assert!(
        pg::debian::ensure("strace", strace_present),
        "this test needs strace to see the fsync calls: install it (apt-get install strace; \
         .ci/run does; run as root, the test installs it)"
    );
    let mut child = Command::new("strace")
        .args(["-f", "-y", "-qq", "-s", "256"])
        .args(["-e", "trace=fsync,fdatasync,write,pwrite64,pwritev,writev"])
        .arg("-o")
        .arg(trace)
        .arg(env!("CARGO_BIN_EXE_ggdesk"))
        .arg("--db")
        .arg(db)
        .args(["feed", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run strace");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = lines.to_vec();
    let writer = std::thread::spawn(move || {
        for line in input {
            if writeln!(stdin, "{line}").is_err() {
                break;
            }
        }
    });
    let out: Vec<String> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map_while(Result::ok)
        .collect();
    writer.join().expect("writer");
    let result = child.wait_with_output().expect("wait");
    assert!(
        result.status.success(),
        "feed under strace failed: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    let text = std::fs::read_to_string(trace).expect("read the trace");
    let wal = format!("{}-wal", db.display());
    (out, calls(&text, &wal))
}

/// The calls that lead up to each `ack`: for `ack N`, those after the previous line on
/// standard output (`game ID` or `ack N-1`).
fn before_each_ack(calls: &[Call]) -> Vec<(String, &[Call])> {
    let mut out = Vec::new();
    let mut since = 0;
    for (i, c) in calls.iter().enumerate() {
        if let Call::Out(line) = c {
            if line.starts_with("ack ") {
                out.push((line.clone(), &calls[since..i]));
            }
            since = i + 1;
        }
    }
    out
}

/// `ack N` is printed only after event N's commit reached the disk: between one line on
/// standard output and the next `ack`, the commit wrote the WAL and the WAL was synced after
/// its last write. This is also what makes the crash test's "nothing is acknowledged before
/// it is committed" hold: an `ack` printed before the commit returned would come before the
/// commit's WAL writes and sync, and fail here.
#[test]
fn feed_syncs_the_wal_after_each_commit_and_only_then_acknowledges() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("feed.sqlite3");
    drop(Store::open(&db).expect("create"));
    // The first random game of at least 120 events: its header and first 120 events.
    let mut lines = (0..)
        .map(feed::feed_lines)
        .find(|l| l.len() > 120)
        .expect("a long game");
    lines.truncate(121);
    let events = lines.len() - 1;
    let (out, calls) = feed_under_strace(&db, &dir.path().join("trace"), &lines);
    assert!(out[0].starts_with("game "), "{out:?}");
    let expected: Vec<String> = (0..events).map(|n| format!("ack {n}")).collect();
    assert_eq!(out[1..], expected[..], "feed acknowledges every event");
    let acks = before_each_ack(&calls);
    assert_eq!(
        acks.iter().map(|(a, _)| a.clone()).collect::<Vec<_>>(),
        expected,
        "the trace shows every ack written to standard output"
    );
    for (ack, before) in acks {
        let last_write = before
            .iter()
            .rposition(|c| *c == Call::WalWrite)
            .unwrap_or_else(|| panic!("{ack}: its commit wrote nothing into the WAL: {before:?}"));
        assert!(
            before[last_write..].contains(&Call::WalSync),
            "{ack} was written before the WAL was synced after its commit: {before:?}"
        );
    }
}
