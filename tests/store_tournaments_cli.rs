//! `ggdesk import` and `ggdesk export tournament` through the binary: a big tournament
//! imported, exported and re-imported gives the same standings (`ggdesk standings` on the
//! files); a bad file changes nothing; an import killed with SIGKILL inside its transaction
//! (the child says where it is, and waits there) leaves no tournament, and as it commits none
//! or the whole of it.

use ggdesk::store::{Store, TRACE_ENV, TRACE_PAUSE};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn ggdesk(args: &[&str], db: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .expect("run ggdesk")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A tournament file of `n` players and `rounds` rounds of random games (not paired by
/// ggdesk: fast to make at any size), with byes, absences, withdrawals, penalties,
/// forbidden pairs, missing table numbers and extra player keys.
fn big_file(seed: u64, n: u32, rounds: usize) -> Value {
    let mut rng = SmallRng::seed_from_u64(seed);
    let players: Vec<Value> = (1..=n)
        .map(|id| {
            let mut p = json!({
                "id": id,
                "name": format!("Player {id}, Q."),
                "rating": rng.random_range(800..2400),
                "club": format!("Club {}", id % 37),
                "federation_id": format!("T{seed}-{id:05}"),
            });
            if id % 101 == 0 {
                p["withdrawn"] = json!(true);
            }
            if id % 7 == 0 {
                p["note"] = json!("vegetarian");
            }
            p
        })
        .collect();
    let results = [
        "white",
        "black",
        "draw",
        "white",
        "black",
        "white_forfeit",
        "black_forfeit",
        "double_forfeit",
    ];
    let mut all: Vec<u32> = (1..=n).collect();
    let mut round_values = Vec::new();
    for r in 0..rounds {
        all.shuffle(&mut rng);
        let absent: Vec<u32> = all.iter().take(n as usize / 40).copied().collect();
        let mut field: Vec<u32> = all[absent.len()..].to_vec();
        let bye = if field.len() % 2 == 1 {
            field.pop()
        } else {
            None
        };
        let games: Vec<Value> = field
            .chunks(2)
            .enumerate()
            .map(|(k, pair)| {
                let result = if r + 1 == rounds && k % 5 == 0 {
                    "pending"
                } else {
                    results[rng.random_range(0..results.len())]
                };
                let mut g = json!({"white": pair[0], "black": pair[1], "result": result});
                if k % 11 != 3 {
                    g["table"] = json!(k + 1);
                }
                g
            })
            .collect();
        round_values.push(
            json!({"games": games, "byes": bye.into_iter().collect::<Vec<_>>(), "absent": absent}),
        );
    }
    let penalties: Vec<Value> = (0..n / 50)
        .map(|k| {
            let points = [json!(0.5), json!(1), json!(1.5)][k as usize % 3].clone();
            json!({"player": 1 + (k * 13) % n, "points": points, "reason": format!("delay {k}")})
        })
        .collect();
    json!({
        "format": "ggdesk-tournament/1",
        "name": format!("Big open {seed}"),
        "settings": {
            "system": "swiss",
            "rounds": rounds + 1,
            "points": {"win": 3, "draw": 1.5, "loss": 0, "bye": 3, "forfeit_win": 3, "forfeit_loss": 0, "absent": 0.5},
            "tiebreaks": ["buchholz", "sonneborn_berger", "median_buchholz", "progressive", "wins", "direct_encounter"],
            "forbidden": [[1, 2], [9, 4], [n, n - 1]]
        },
        "players": players,
        "rounds": round_values,
        "penalties": penalties,
    })
}

fn standings_of(file: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .arg("standings")
        .arg(file)
        .output()
        .expect("standings");
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn a_1500_player_tournament_round_trips_with_identical_standings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.sqlite3");
    let file = dir.path().join("big.json");
    let value = big_file(7, 1500, 9);
    std::fs::write(&file, value.to_string()).expect("write");

    let out = ggdesk(&["import", file.to_str().expect("path")], &db);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let id = text(&out.stdout);
    assert_eq!(id, "1\n", "the new id alone on a line");
    let exported = dir.path().join("out.json");
    let out = ggdesk(
        &["export", "tournament", "1", exported.to_str().expect("p")],
        &db,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));

    let before = standings_of(&file);
    assert_eq!(standings_of(&exported), before);
    // Re-import the export (a second tournament in the same database) and export again.
    let out = ggdesk(&["import", exported.to_str().expect("p")], &db);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "2\n");
    let again = dir.path().join("again.json");
    let out = ggdesk(
        &["export", "tournament", "2", again.to_str().expect("p")],
        &db,
    );
    assert!(out.status.success());
    assert_eq!(standings_of(&again), before);

    // Everything the file holds comes back, in the file's order.
    let back: Value =
        serde_json::from_str(&std::fs::read_to_string(&again).expect("read")).expect("json");
    assert_eq!(back["players"], value["players"]);
    assert_eq!(back["penalties"], value["penalties"]);
    assert_eq!(back["name"], value["name"]);
    for (a, b) in back["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .zip(value["rounds"].as_array().expect("rounds"))
    {
        assert_eq!(a, b);
    }
    let forbidden = back["settings"]["forbidden"]
        .as_array()
        .expect("pairs")
        .len();
    assert_eq!(forbidden, 3);
}

#[test]
fn a_bad_file_exits_2_and_changes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("t.sqlite3");
    drop(Store::open(&db).expect("create"));
    let bytes = std::fs::read(&db).expect("read");
    let file = dir.path().join("bad.json");
    std::fs::write(
        &file,
        r#"{"format":"ggdesk-tournament/1","settings":{"system":"swiss","rounds":2},
            "players":[{"id":1,"name":"A"},{"id":1,"name":"B"}]}"#,
    )
    .expect("write");
    let out = ggdesk(&["import", file.to_str().expect("p")], &db);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.contains("players[1]") && err.contains("duplicate player id 1"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
    assert_eq!(
        std::fs::read(&db).expect("read"),
        bytes,
        "the database is untouched"
    );
    let out = ggdesk(&["export", "tournament", "5", "-"], &db);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("tournament 5"));
}

/// What an import child said on standard error about its transaction (with
/// `GGDESK_TRACE_TRANSACTIONS` set), as it said it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marker {
    Begun,
    Committing,
}

/// `ggdesk --db DB import FILE` with the transaction markers on, stopping at each until it
/// reads a line on its standard input (`GGDESK_TRACE_TRANSACTIONS=pause`); a channel
/// receives each marker the moment the child writes it (closed when the child's standard
/// error is).
fn traced_import(db: &Path, file: &Path) -> (Child, ChildStdin, mpsc::Receiver<Marker>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .env(TRACE_ENV, TRACE_PAUSE)
        .arg("--db")
        .arg(db)
        .arg("import")
        .arg(file)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let stdin = child.stdin.take().expect("stdin");
    let stderr = child.stderr.take().expect("stderr");
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let marker = match line.as_str() {
                "ggdesk-trace: import transaction begun" => Marker::Begun,
                "ggdesk-trace: import transaction committing" => Marker::Committing,
                _ => continue,
            };
            if send.send(marker).is_err() {
                break;
            }
        }
    });
    (child, stdin, receive)
}

/// The next marker the child writes; fails naming `what` when none comes in a generous
/// bound or the child ends first.
fn next_marker(markers: &mpsc::Receiver<Marker>, what: &str) -> Marker {
    markers
        .recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|e| panic!("{what}: no marker from the import ({e})"))
}

/// Lets a paused import go on past the point where it stopped.
fn go_on(stdin: &mut ChildStdin) {
    writeln!(stdin).expect("the import reads its standard input");
}

/// Where the import is killed, each a point the test has seen the child reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KillAt {
    /// Stopped just after its transaction began: nothing written yet.
    Begun,
    /// Stopped inside its transaction after writing everything, just before the commit.
    BeforeCommit,
    /// Let go on to commit, and killed at once: before, during or after the commit.
    Committing,
    /// Not killed: it runs to its end.
    Never,
}

/// An import killed with SIGKILL inside its transaction leaves nothing (no tournament, no
/// player in the registry); killed as it commits, it leaves nothing or all of it; run to
/// its end, all of it. The child stops at each marker (its transaction has begun; it is
/// about to commit) until the test lets it go on, so that each kill lands where the test
/// has seen it stand, however busy the machine.
#[test]
fn an_import_killed_inside_its_transaction_leaves_nothing_and_as_it_commits_all_or_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("crash.sqlite3");
    drop(Store::open(&db).expect("create"));
    let file = dir.path().join("big.json");
    let value = big_file(11, 1500, 9);
    let players = value["players"].as_array().expect("players").len();
    let games: usize = value["rounds"]
        .as_array()
        .expect("rounds")
        .iter()
        .map(|r| r["games"].as_array().expect("games").len())
        .sum();
    let penalties = value["penalties"].as_array().expect("penalties").len();
    std::fs::write(&file, value.to_string()).expect("write");
    let plan = [
        KillAt::Begun,
        KillAt::BeforeCommit,
        KillAt::Committing,
        KillAt::BeforeCommit,
        KillAt::Never,
        KillAt::Committing,
        KillAt::Begun,
        KillAt::Committing,
    ];
    let mut imported = 0;
    for (attempt, &at) in plan.iter().enumerate() {
        let (before_tournaments, before_players) = {
            let store = Store::open(&db).expect("open");
            (
                store.tournaments().expect("list").len(),
                store.players().expect("players").len(),
            )
        };
        let (mut child, mut stdin, markers) = traced_import(&db, &file);
        let what = format!("attempt {attempt} ({at:?})");
        assert_eq!(next_marker(&markers, &what), Marker::Begun, "{what}");
        if at != KillAt::Begun {
            go_on(&mut stdin);
            assert_eq!(
                next_marker(&markers, &what),
                Marker::Committing,
                "{what}: the import wrote everything and is about to commit"
            );
        }
        if matches!(at, KillAt::Committing | KillAt::Never) {
            go_on(&mut stdin);
        }
        let status = if at == KillAt::Never {
            drop(stdin);
            child.wait().expect("wait")
        } else {
            child.kill().expect("SIGKILL");
            child.wait().expect("reap")
        };
        // Nothing more was said: the child was killed before its transaction's end or
        // ended with no other transaction.
        assert_eq!(markers.iter().count(), 0, "{what}");
        let store = Store::open(&db).expect("the database opens after a kill");
        assert_eq!(store.integrity_check().expect("check"), "ok");
        let now = store.tournaments().expect("list");
        match at {
            KillAt::Begun | KillAt::BeforeCommit => {
                assert!(!status.success(), "{what}: killed");
                assert_eq!(
                    now.len(),
                    before_tournaments,
                    "{what}: killed inside the transaction, no tournament"
                );
                assert_eq!(
                    store.players().expect("players").len(),
                    before_players,
                    "{what}: killed inside the transaction, no player"
                );
            }
            KillAt::Committing => {
                assert!(
                    now.len() == before_tournaments || now.len() == before_tournaments + 1,
                    "{what}: one import adds at most one tournament"
                );
            }
            KillAt::Never => {
                assert!(status.success(), "{what}: {status}");
                assert_eq!(
                    now.len(),
                    before_tournaments + 1,
                    "{what}: an import that finished added its tournament"
                );
            }
        }
        imported = now.len();
        for t in &now {
            let loaded = store
                .event(t.id)
                .expect("a whole tournament")
                .one_system()
                .cloned()
                .expect("one system");
            assert_eq!(loaded.players().len(), players, "{what}");
            let n: usize = loaded.rounds().iter().map(|r| r.games.len()).sum();
            assert_eq!(n, games, "{what}");
            assert_eq!(loaded.penalties().len(), penalties, "{what}");
        }
    }
    assert!(imported >= 1, "the import that ran to its end is there");
}
