//! The server's side of the database: a read-only connection that cannot write, refuses
//! what the desk refuses without touching it, and leaves the file as it found it; and
//! `ggdesk serve` as a process: it says where it listens, serves, and stops at once on
//! SIGTERM or SIGINT.

mod serve_support;

use ggdesk::store::{
    Actor, NewGame, PlayerInput, SCHEMA_VERSION, Store, StoreError, TournamentSetup,
};
use ggdesk::tournament::{BoardNo, GameResult, RoundNo};
use serve_support::{director, every_path, get, hall, serve};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The files of a folder with a hash of their contents.
fn files_in(dir: &Path) -> Vec<(String, u64)> {
    use std::hash::{Hash, Hasher};
    let mut out: Vec<(String, u64)> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            let mut h = std::hash::DefaultHasher::new();
            std::fs::read(&p).expect("read").hash(&mut h);
            (
                p.file_name().expect("name").to_string_lossy().into_owned(),
                h.finish(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_write_through_the_read_only_store_fails_and_changes_nothing() {
    let h = hall();
    let stamp = Store::open(&h.path)
        .expect("rw")
        .change_stamp()
        .expect("stamp");
    let mut ro = Store::open_read_only(&h.path).expect("read-only");
    assert_eq!(ro.change_stamp().expect("reads"), stamp);
    assert_eq!(
        ro.event(h.tid)
            .expect("reads")
            .one_system()
            .expect("a tournament of one system")
            .rounds()
            .len(),
        3
    );
    let failures = [
        ro.add_player(
            &PlayerInput {
                name: "Intruder".into(),
                federation_id: String::new(),
                club: String::new(),
                rating: 1,
            },
            &director(),
        )
        .map(|_| ())
        .err(),
        ro.create_tournament(&TournamentSetup::default(), &director())
            .map(|_| ())
            .err(),
        ro.create_game(&NewGame::standalone(), &Actor::arbiter(None))
            .map(|_| ())
            .err(),
        ro.set_result(
            h.tid,
            RoundNo(3),
            BoardNo(1),
            GameResult::Draw,
            "x",
            &director(),
        )
        .map(|_| ())
        .err(),
        ro.complete_round(h.tid, RoundNo(3), &director())
            .map(|_| ())
            .err(),
    ];
    for (i, e) in failures.into_iter().enumerate() {
        let e = e.unwrap_or_else(|| panic!("write {i} went through"));
        assert!(
            matches!(
                e,
                StoreError::Database(_)
                    | StoreError::Rejected(_)
                    | StoreError::Refused(ggdesk_core::Refusal::Event(_))
                    | StoreError::Denied(_)
            ),
            "write {i}: {e}"
        );
    }
    drop(ro);
    let rw = Store::open(&h.path).expect("rw");
    assert_eq!(
        rw.change_stamp().expect("stamp"),
        stamp,
        "nothing was written"
    );
}

#[test]
fn the_read_only_open_refuses_what_the_desk_refuses_and_touches_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let missing = dir.path().join("missing.sqlite3");
    assert!(matches!(
        Store::open_read_only(&missing),
        Err(StoreError::NotFound(_))
    ));
    assert!(!missing.exists(), "a missing database is not created");

    let text = dir.path().join("notes.sqlite3");
    std::fs::write(&text, "not a database at all, just some words").expect("write");
    let empty = dir.path().join("empty.sqlite3");
    std::fs::write(&empty, "").expect("write");
    let foreign = dir.path().join("foreign.sqlite3");
    rusqlite::Connection::open(&foreign)
        .expect("sqlite")
        .execute_batch("CREATE TABLE recipes (id INTEGER PRIMARY KEY, name TEXT);")
        .expect("foreign");
    let newer = dir.path().join("newer.sqlite3");
    drop(Store::open(&newer).expect("create"));
    rusqlite::Connection::open(&newer)
        .expect("sqlite")
        .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .expect("bump");
    let damaged = dir.path().join("damaged.sqlite3");
    {
        let mut store = Store::open(&damaged).expect("create");
        for i in 0..300 {
            store
                .add_player(
                    &PlayerInput {
                        name: format!("Player {i}"),
                        federation_id: String::new(),
                        club: "QC".into(),
                        rating: 1500,
                    },
                    &director(),
                )
                .expect("player");
        }
    }
    // Scribble over the middle of the file, past the header.
    let mut bytes = std::fs::read(&damaged).expect("read");
    let len = bytes.len();
    assert!(len > 16 * 1024, "{len}");
    for b in &mut bytes[8192..len - 4096] {
        *b = 0x5a;
    }
    std::fs::write(&damaged, &bytes).expect("write");
    let before = files_in(dir.path());
    assert!(matches!(
        Store::open_read_only(&text),
        Err(StoreError::NotADatabase { .. })
    ));
    let e = Store::open_read_only(&empty).expect_err("empty");
    assert!(e.to_string().contains("no ggdesk data"), "{e}");
    assert!(matches!(
        Store::open_read_only(&foreign),
        Err(StoreError::Foreign { .. })
    ));
    assert!(matches!(
        Store::open_read_only(&newer),
        Err(StoreError::Newer { found, .. }) if found == SCHEMA_VERSION + 1
    ));
    let e = Store::open_read_only(&damaged).expect_err("damaged");
    assert!(
        matches!(
            e,
            StoreError::Corrupt { .. } | StoreError::NotADatabase { .. }
        ),
        "{e}"
    );
    assert!(matches!(
        Store::open_read_only(dir.path()),
        Err(StoreError::NotFound(_))
    ));
    // No file changed. A reader of a WAL database (the newer and the damaged ones are
    // ggdesk files, in WAL mode) may leave the -shm and an empty -wal file that every WAL
    // reader needs; nothing else is added.
    let after: Vec<_> = files_in(dir.path())
        .into_iter()
        .filter(|(name, _)| {
            !matches!(
                name.as_str(),
                "newer.sqlite3-shm"
                    | "newer.sqlite3-wal"
                    | "damaged.sqlite3-shm"
                    | "damaged.sqlite3-wal"
            )
        })
        .collect();
    assert_eq!(after, before, "no file changed, none was added");
    for wal in ["newer.sqlite3-wal", "damaged.sqlite3-wal"] {
        let wal = dir.path().join(wal);
        assert!(!wal.exists() || std::fs::metadata(&wal).expect("wal").len() == 0);
    }
}

#[test]
fn serving_every_page_leaves_the_database_file_as_it_was() {
    let h = hall();
    let before = std::fs::read(&h.path).expect("db");
    let server = serve(&h.path);
    for path in every_path(h.tid, h.round, 12) {
        assert_eq!(get(server.addr(), &path).status, 200, "{path}");
    }
    server.stop();
    assert_eq!(std::fs::read(&h.path).expect("db"), before);
}

/// Starts `ggdesk --db DB serve --listen 127.0.0.1:0` and reads the address it prints.
fn spawn_serve(db: &Path) -> (Child, std::net::SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .arg("--db")
        .arg(db)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ggdesk serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("a line");
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|s| s.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .parse()
        .expect("an address");
    (child, addr)
}

/// Sends `signal` to a child this test started, by its id.
fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

fn wait(child: &mut Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("ggdesk serve did not stop");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ggdesk_serve_serves_until_sigterm_or_sigint_and_then_exits_cleanly() {
    let h = hall();
    for sig in ["TERM", "INT"] {
        let (mut child, addr) = spawn_serve(&h.path);
        let r = get(addr, "/");
        assert_eq!(r.status, 200);
        assert!(r.body.contains("Hall Open 2026"));
        // An idle kept-alive connection does not hold the stop back.
        let _idle = std::net::TcpStream::connect(addr).expect("connect");
        signal(&child, sig);
        let status = wait(&mut child);
        assert!(status.success(), "SIG{sig}: {status}");
        let after = std::net::TcpStream::connect(addr).map_err(|e| e.kind());
        assert_eq!(
            after.err(),
            Some(std::io::ErrorKind::ConnectionRefused),
            "SIG{sig}: the port is closed"
        );
    }
}

#[test]
fn ggdesk_serve_refuses_a_bad_address_and_a_missing_database() {
    let dir = tempfile::tempdir().expect("dir");
    let db = dir.path().join("absent.sqlite3");
    let run = |listen: &str| {
        Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .arg("--db")
            .arg(&db)
            .args(["serve", "--listen", listen])
            .output()
            .expect("runs")
    };
    let out = run("somewhere");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ADDR:PORT"));
    let out = run("127.0.0.1:0");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not found"));
    assert!(!db.exists(), "serve never creates a database");
}

/// The server reads the database through `serve/source.rs` alone, where the lead plugs in
/// another engine, and that file holds the store only by shared reference: a write needs
/// `&mut Store`, so it cannot be called there, and it opens the store read-only (the
/// files' unit tests apart).
#[test]
fn the_server_reads_the_database_only_through_its_source_and_never_mutably() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/serve");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("src/serve") {
        let path = entry.expect("entry").path();
        let whole = std::fs::read_to_string(&path).expect("read");
        // A file's unit tests may make a database to serve; the server's own code may not.
        let code = whole.split("#[cfg(test)]").next().unwrap_or_default();
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let names_store = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == "Store");
        if name == "source.rs" {
            seen += 1;
            assert!(names_store);
            for forbidden in ["&mut", "Store::open(", "Store::connect(", "open_in_memory"] {
                assert!(!code.contains(forbidden), "source.rs uses {forbidden}");
            }
            assert!(code.contains("Store::connect_read_only("));
        } else {
            assert!(
                !names_store,
                "{name} names the store: read through source.rs"
            );
        }
    }
    assert_eq!(seen, 1);
}
