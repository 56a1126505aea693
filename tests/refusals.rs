//! Databases the store must refuse, left exactly as they were: a database in WAL mode whose
//! last changes are still in its `-wal` file (with its `-shm` index beside it) written by a
//! newer ggdesk, or damaged; and, through the command line, the exit code (1) and the one
//! line that names each refusal (newer, damaged, another program's, not a database).

use ggdesk::store::{Actor, NewGame, SCHEMA_VERSION, Store, StoreError};
use ggdesk_core::record::TimedEvent;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

#[path = "support/games.rs"]
mod games;

/// Held by the tests that open a database without its `-shm` (the store looks at a copy in
/// the temporary folder), so that one can check that no copy is left behind.
static WITHOUT_SHM: Mutex<()> = Mutex::new(());

/// Every file of a folder and its bytes.
fn folder(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("read folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().expect("name").to_string_lossy().into_owned(),
                std::fs::read(&p).expect("read"),
            )
        })
        .collect()
}

/// Checks that a folder holds the same files with the same bytes as before; the message
/// names what changed.
fn unchanged(before: &BTreeMap<String, Vec<u8>>, dir: &Path, what: &str) {
    let after = folder(dir);
    let mut changes = Vec::new();
    for (name, bytes) in before {
        match after.get(name) {
            None => changes.push(format!("{name} removed")),
            Some(now) if now != bytes => {
                let at = now
                    .iter()
                    .zip(bytes)
                    .position(|(a, b)| a != b)
                    .unwrap_or(now.len().min(bytes.len()));
                changes.push(format!(
                    "{name} changed ({} bytes, now {}; first difference at byte {at})",
                    bytes.len(),
                    now.len()
                ));
            }
            Some(_) => {}
        }
    }
    for name in after.keys().filter(|n| !before.contains_key(*n)) {
        changes.push(format!("{name} created"));
    }
    assert!(changes.is_empty(), "{what}: {}", changes.join("; "));
}

/// A ggdesk database with 30 started games, each with one move, in `dir`.
fn database_with_games(path: &Path) {
    let mut store = Store::open(path).expect("create");
    let actor = Actor::arbiter(None);
    for seed in 0..30 {
        let setups = games::random_both(&mut StdRng::seed_from_u64(seed));
        let id = games::start_with(&mut store, &NewGame::standalone(), &setups, 0, &actor)
            .expect("game");
        let event = games::first_legal(&store, id);
        store
            .append_event(id, TimedEvent { t: 1.0, event }, &actor, "")
            .expect("move");
    }
}

/// A ggdesk database in WAL mode as a crashed program leaves it: its last changes (made by
/// `change` on a raw connection) only in the `-wal` file, with the `-shm` index beside it.
/// The three files are copied into `into` while the writer still has them open (so nothing
/// checkpoints the WAL into the database); the copy's path.
fn left_in_wal(scratch: &Path, into: &Path, change: impl FnOnce(&rusqlite::Connection)) -> PathBuf {
    let original = scratch.join("event.sqlite3");
    database_with_games(&original);
    let conn = rusqlite::Connection::open(&original).expect("sqlite");
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .expect("mode");
    assert_eq!(mode, "wal");
    conn.pragma_update(None, "wal_autocheckpoint", 0)
        .expect("no checkpoint");
    change(&conn);
    std::fs::create_dir_all(into).expect("folder");
    for suffix in ["", "-wal", "-shm"] {
        std::fs::copy(
            scratch.join(format!("event.sqlite3{suffix}")),
            into.join(format!("event.sqlite3{suffix}")),
        )
        .expect("copy");
    }
    drop(conn);
    let copy = into.join("event.sqlite3");
    let files = folder(into);
    assert_eq!(files.len(), 3, "{:?}", files.keys());
    assert!(
        files["event.sqlite3-wal"].len() > 32,
        "the last changes are in the WAL"
    );
    assert!(!files["event.sqlite3-shm"].is_empty());
    copy
}

/// What lies beside a database in WAL mode.
#[derive(Debug, Clone, Copy)]
enum Beside {
    /// Its `-wal` (holding the last changes) and its `-shm` index: a crash, or another
    /// program has it open.
    WalAndShm,
    /// Its `-wal` without the index (copied by hand).
    WalOnly,
    /// Nothing: closed cleanly, everything checkpointed into the file (still in WAL mode).
    Nothing,
    /// Its `-shm` and a `-wal` holding a header and no frame: a writer killed after it
    /// started a new WAL and before its first frame (SQLite cannot read this in place
    /// without writing the index).
    WalHeaderAndShm,
    /// See [`GARBAGE_WAL_HEADER`].
    GarbageWalAndShm,
}

const EVERY_LAYOUT: [Beside; 4] = [
    Beside::WalAndShm,
    Beside::WalOnly,
    Beside::Nothing,
    Beside::WalHeaderAndShm,
];

/// Its `-shm` and a `-wal` whose header is garbage (a power cut): SQLite ignores such a WAL,
/// but cannot read it in place without writing the index (it gives up after ten seconds of
/// retries), so the store looks at a copy. Only for a good database: it takes that long.
const GARBAGE_WAL_HEADER: Beside = Beside::GarbageWalAndShm;

fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Leaves the files beside a database left by [`left_in_wal`] as `layout` says.
fn arrange(path: &Path, layout: Beside) {
    match layout {
        Beside::WalAndShm => {}
        Beside::WalOnly => std::fs::remove_file(beside(path, "-shm")).expect("remove the shm"),
        Beside::Nothing => {
            // The last connection to close checkpoints the WAL and removes both files.
            let conn = rusqlite::Connection::open(path).expect("sqlite");
            let _: i64 = conn
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .expect("read");
            drop(conn);
            assert!(!beside(path, "-wal").exists() && !beside(path, "-shm").exists());
            let header = std::fs::read(path).expect("read");
            assert_eq!(header[18..20], [2, 2], "the file is still in WAL mode");
        }
        Beside::WalHeaderAndShm => {
            let wal = std::fs::OpenOptions::new()
                .write(true)
                .open(beside(path, "-wal"))
                .expect("open the wal");
            wal.set_len(32).expect("keep the header");
        }
        Beside::GarbageWalAndShm => {
            let wal = beside(path, "-wal");
            let len = std::fs::metadata(&wal).expect("wal").len();
            std::fs::write(&wal, vec![0xA5; usize::try_from(len).expect("size")]).expect("garbage");
        }
    }
}

/// The change [`newer_in_wal`] and [`damaged_in_wal`] leave in the WAL: for a layout that
/// keeps no frame of the WAL, `first` is checkpointed into the file before the last change.
fn change_for(
    layout: Beside,
    first: fn(&rusqlite::Connection),
) -> impl FnOnce(&rusqlite::Connection) {
    move |c| {
        first(c);
        if let Beside::WalHeaderAndShm | Beside::GarbageWalAndShm = layout {
            let _: (i64, i64, i64) = c
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .expect("checkpoint");
            c.execute(
                "INSERT INTO audit_log (at, actor, action, tournament_id, game_id, reason, details)
                 VALUES (2, 'x', 'lost with the frames', NULL, NULL, '', '')",
                [],
            )
            .expect("a change in the WAL");
        }
    }
}

fn newer_in_wal(dir: &Path, layout: Beside) -> PathBuf {
    let path = left_in_wal(
        &dir.join("scratch"),
        &dir.join("newer"),
        change_for(layout, |c| {
            c.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
                .expect("bump");
        }),
    );
    arrange(&path, layout);
    path
}

/// Damaged in the database file itself (a WAL frame with a bad checksum is not damage: SQLite
/// ignores it as the end of the log); the WAL holds the last good changes.
fn damaged_in_wal(dir: &Path, layout: Beside) -> PathBuf {
    let path = left_in_wal(
        &dir.join("scratch"),
        &dir.join("damaged"),
        change_for(layout, |c| {
            c.execute(
                "INSERT INTO audit_log (at, actor, action, tournament_id, game_id, reason, details)
                 VALUES (1, 'x', 'note', NULL, NULL, '', '')",
                [],
            )
            .expect("a change in the WAL");
        }),
    );
    arrange(&path, layout);
    let mut bytes = std::fs::read(&path).expect("read");
    let page = 4096;
    assert!(bytes.len() > 4 * page, "{} bytes", bytes.len());
    // Every page but the first (the header and the start of the schema) overwritten.
    for b in &mut bytes[page..] {
        *b = 0xA5;
    }
    std::fs::write(&path, &bytes).expect("damage");
    path
}

/// The refusal of `make`'s database, whatever lies beside it, leaves its folder as it was:
/// the database, its `-wal` and its `-shm` byte for byte, no file added (no `-journal`, no
/// new `-wal` or `-shm`), and no copy left in the temporary folder.
fn refused_untouched(make: fn(&Path, Beside) -> PathBuf, refusal: fn(&StoreError) -> bool) {
    let _alone = WITHOUT_SHM.lock().unwrap_or_else(|e| e.into_inner());
    for layout in EVERY_LAYOUT {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = make(dir.path(), layout);
        let before = folder(path.parent().expect("folder"));
        let err = Store::open(&path).expect_err("refused");
        assert!(refusal(&err), "{layout:?}: {err:?}");
        let shown = path.display().to_string();
        assert!(
            err.to_string().starts_with(&format!("{shown} ")),
            "{layout:?}: the message names the file: {err}"
        );
        unchanged(
            &before,
            path.parent().expect("folder"),
            &format!("after the refusal ({layout:?})"),
        );
        let prefix = format!("ggdesk-inspect-{}-", std::process::id());
        let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
            .expect("temp")
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
            .collect();
        assert!(left.is_empty(), "copies left behind: {left:?}");
    }
}

#[test]
fn a_newer_database_in_wal_mode_is_refused_and_its_wal_and_shm_left_byte_for_byte() {
    refused_untouched(
        newer_in_wal,
        |e| matches!(e, StoreError::Newer { found, .. } if *found == SCHEMA_VERSION + 1),
    );
}

#[test]
fn a_damaged_database_in_wal_mode_is_refused_and_its_wal_and_shm_left_byte_for_byte() {
    refused_untouched(damaged_in_wal, |e| matches!(e, StoreError::Corrupt { .. }));
}

/// `ggdesk --db PATH import RECORD`: a command that opens the database only after its input
/// was found good.
fn import_into(db: &Path, record: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .arg("--db")
        .arg(db)
        .arg("import")
        .arg(record)
        .output()
        .expect("run ggdesk")
}

fn a_record(dir: &Path) -> PathBuf {
    let record = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/examples");
    let source = std::fs::read_dir(&record)
        .expect("examples")
        .map(|e| e.expect("entry").path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n == "clock_pause_overstep.json")
        })
        .expect("the example record");
    let to = dir.join("record.json");
    std::fs::copy(source, &to).expect("copy");
    to
}

/// Runs the import against `db` and checks the refusal: exit 1, nothing on standard output,
/// one line on standard error naming the file and containing `says`, the folder unchanged.
fn refused_by_the_command_line(db: &Path, record: &Path, says: &str) {
    let folder_of_db = db.parent().expect("folder");
    let before = folder(folder_of_db);
    let out = import_into(db, record);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing on standard output");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr:?}");
    assert!(stderr.ends_with('\n'), "{stderr:?}");
    assert!(stderr.starts_with("ggdesk: "), "{stderr}");
    assert!(
        stderr.contains(&db.display().to_string()),
        "names the file: {stderr}"
    );
    assert!(stderr.contains(says), "{says:?} in {stderr}");
    unchanged(&before, folder_of_db, says);
}

#[test]
fn the_command_line_refuses_each_bad_database_with_exit_1_and_one_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let record = a_record(dir.path());

    for layout in EVERY_LAYOUT {
        let newer = newer_in_wal(&dir.path().join(format!("a-{layout:?}")), layout);
        refused_by_the_command_line(
            &newer,
            &record,
            &format!(
                "was written by a newer ggdesk (schema version {}; this ggdesk knows up to {}): \
                 open it with the newer ggdesk",
                SCHEMA_VERSION + 1,
                SCHEMA_VERSION
            ),
        );
        let damaged = damaged_in_wal(&dir.path().join(format!("b-{layout:?}")), layout);
        refused_by_the_command_line(&damaged, &record, " is damaged: ");
    }

    let foreign_dir = dir.path().join("c");
    std::fs::create_dir_all(&foreign_dir).expect("folder");
    let foreign = foreign_dir.join("contacts.sqlite3");
    {
        let conn = rusqlite::Connection::open(&foreign).expect("sqlite");
        conn.execute_batch("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('x');")
            .expect("another program's table");
    }
    refused_by_the_command_line(
        &foreign,
        &record,
        "is a database of another program, not a ggdesk database",
    );

    let text_dir = dir.path().join("d");
    std::fs::create_dir_all(&text_dir).expect("folder");
    let notes = text_dir.join("notes.sqlite3");
    std::fs::write(
        &notes,
        b"Round 3 pairings, not a database at all\n".repeat(200),
    )
    .expect("write");
    refused_by_the_command_line(
        &notes,
        &record,
        "is not a ggdesk database (not a valid SQLite file: ",
    );

    // The same import into a good database works: the refusals were the database's.
    let good_dir = dir.path().join("e");
    std::fs::create_dir_all(&good_dir).expect("folder");
    let out = import_into(&good_dir.join("good.sqlite3"), &record);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A good database opens with its last committed change whatever lies beside it: without
/// its `-shm` index (a WAL copied by hand), with a WAL a killed writer left with a header and
/// no frame, or with a WAL whose header is garbage.
#[test]
fn a_good_database_opens_whatever_its_wal_and_shm_hold() {
    let _alone = WITHOUT_SHM.lock().unwrap_or_else(|e| e.into_inner());
    for layout in EVERY_LAYOUT.into_iter().chain([GARBAGE_WAL_HEADER]) {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = left_in_wal(
            &dir.path().join("scratch"),
            &dir.path().join("good"),
            change_for(layout, |c| {
                c.execute(
                    "INSERT INTO audit_log (at, actor, action, tournament_id, game_id, reason, details)
                     VALUES (1, 'x', 'the last change', NULL, NULL, '', '')",
                    [],
                )
                .expect("a change in the WAL");
            }),
        );
        arrange(&path, layout);
        let store = Store::open(&path).unwrap_or_else(|e| panic!("{layout:?}: {e}"));
        let log = store
            .audit_log(ggdesk::store::AuditFilter::All)
            .expect("audit");
        assert!(
            log.iter().any(|e| e.action == "the last change"),
            "{layout:?}: the change committed last is there"
        );
        assert_eq!(
            store.game_metas(None).expect("games").len(),
            30,
            "{layout:?}"
        );
        assert_eq!(store.integrity_check().expect("check"), "ok");
    }
}
