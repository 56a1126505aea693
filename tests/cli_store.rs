//! `ggdesk import` and `ggdesk export game` through the binary: game records
//! (`ggdesk-record/1`) and physical-board records (`ggdesk-physical/1`) go in and come back
//! out as they went in; and without `--db`, the commands use `ggdesk.sqlite3` in the user's
//! data directory.

use ggdesk::store::{GameId, Store};
use ggdesk_core::record::{Record, replay};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ggdesk(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ggdesk"));
    c.args(args);
    c
}

fn run(c: &mut Command) -> Output {
    c.output().expect("run ggdesk")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs and expects success; standard output.
fn ok(c: &mut Command) -> String {
    let out = run(c);
    assert!(
        out.status.success(),
        "{c:?}: exit {:?}: {}",
        out.status.code(),
        text(&out.stderr)
    );
    text(&out.stdout)
}

fn with_db(db: &Path, args: &[&str]) -> Command {
    let mut c = ggdesk(&["--db", db.to_str().expect("path")]);
    c.args(args);
    c
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/examples")
}

/// The value with every number as a float: `1620` and `1620.0` are the same number in a
/// record.
fn numbers_as_f64(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().expect("a finite number")),
        Value::Array(a) => Value::Array(a.iter().map(numbers_as_f64).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), numbers_as_f64(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The keys of a game record that hold the game: what must come back as it went in.
const GAME_KEYS: [&str; 6] = ["format", "first", "setup", "events", "readings", "ratings"];

#[test]
fn a_game_record_imported_and_exported_comes_back_as_it_went_in() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("games.sqlite3");
    let mut checked = 0;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(examples())
        .expect("examples")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let file = path.to_str().expect("path");
        let verdict = run(&mut ggdesk(&["replay", file]));
        if verdict.status.code() != Some(0) {
            // A record the rules refuse is refused by import too (exit 2), and adds nothing.
            let out = run(&mut with_db(&db, &["import", file]));
            assert_eq!(out.status.code(), Some(2), "{file}: {}", text(&out.stderr));
            assert!(out.stdout.is_empty());
            assert_eq!(text(&out.stderr).lines().count(), 1);
            // Refused for what `replay` finds wrong with the record, said the same way.
            let fault = Record::from_json_str(&std::fs::read_to_string(&path).expect("read"))
                .and_then(|r| replay(&r))
                .expect_err("a record replay refused");
            assert!(
                text(&out.stderr).contains(&fault.to_string()),
                "{file}: {} does not say {fault}",
                text(&out.stderr)
            );
            continue;
        }
        let id = ok(&mut with_db(&db, &["import", file]));
        let id = id.strip_suffix('\n').expect("one line");
        assert!(id.parse::<i64>().is_ok(), "the new game's id alone: {id:?}");
        let out = dir.path().join(format!("export-{id}.json"));
        ok(&mut with_db(
            &db,
            &["export", "game", id, out.to_str().expect("path")],
        ));
        let original = read_json(&path);
        let exported = read_json(&out);
        for key in GAME_KEYS {
            assert_eq!(
                exported.get(key).map(numbers_as_f64),
                original.get(key).map(numbers_as_f64),
                "{file}: {key}"
            );
        }
        // The rules the record gave, each as it gave it.
        if let Some(rules) = original.get("rules").and_then(Value::as_object) {
            for (k, v) in rules {
                assert_eq!(
                    exported["rules"].get(k).and_then(Value::as_f64),
                    v.as_f64(),
                    "{file}: rules.{k}"
                );
            }
        }
        // The same verdict from the file that came out.
        let again = run(&mut ggdesk(&["replay", out.to_str().expect("path")]));
        assert_eq!(text(&again.stdout), text(&verdict.stdout), "{file}");
        // To standard output, the same record.
        let printed = ok(&mut with_db(&db, &["export", "game", id, "-"]));
        let printed: Value = serde_json::from_str(&printed).expect("json on stdout");
        assert_eq!(printed, exported);
        // Imported again, it exports to the same file.
        let id2 = ok(&mut with_db(&db, &["import", out.to_str().expect("path")]));
        let id2 = id2.trim();
        assert_ne!(id2, id);
        let printed2 = ok(&mut with_db(&db, &["export", "game", id2, "-"]));
        assert_eq!(
            serde_json::from_str::<Value>(&printed2).expect("json"),
            exported,
            "{file}: a fixed point"
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} records round-tripped");
    // A game that is not there: exit 2, its id named.
    let out = run(&mut with_db(&db, &["export", "game", "999", "-"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("game 999"),
        "{}",
        text(&out.stderr)
    );
}

/// Two physical-board games: one drawn by a perpetual the arbiter declared after a
/// challenge, a pause and a penalty; one won by resignation after the Spy took the G5.
fn physical_records() -> Vec<Value> {
    vec![
        json!({
            "format": "ggdesk-physical/1",
            "first": "black",
            "ratings": {"white": 1600.0, "black": 1550.0},
            "rules": {"move_limit_s": 90.0},
            "events": [
                {"t": 3.0, "move": true},
                {"t": 7.5, "move": true},
                {"t": 12.0, "challenge": ["PVT", "SGT"]},
                {"t": 20.0, "pause": true},
                {"t": 50.0, "resume": true},
                {"t": 55.0, "penalty": "own_exposure", "side": "white"},
                {"t": 61.0, "move": true},
                {"t": 70.0, "perpetual": "perpetual_16"}
            ]
        }),
        json!({
            "format": "ggdesk-physical/1",
            "first": "white",
            "events": [
                {"t": 2.0, "move": true},
                {"t": 4.0, "move": true},
                {"t": 9.0, "challenge": ["SPY", "G5"]},
                {"t": 15.5, "resign": "black"}
            ]
        }),
    ]
}

#[test]
fn a_physical_record_imported_and_exported_comes_back_as_it_went_in() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("physical.sqlite3");
    for (k, record) in physical_records().into_iter().enumerate() {
        let file = dir.path().join(format!("physical-{k}.json"));
        std::fs::write(&file, record.to_string()).expect("write");
        let id = ok(&mut with_db(&db, &["import", file.to_str().expect("path")]));
        let id = id.trim().to_string();
        let out = dir.path().join(format!("out-{k}.json"));
        ok(&mut with_db(
            &db,
            &["export", "game", &id, out.to_str().expect("path")],
        ));
        let exported = read_json(&out);
        for key in ["format", "first", "events", "ratings"] {
            assert_eq!(
                exported.get(key).map(numbers_as_f64),
                record.get(key).map(numbers_as_f64),
                "record {k}: {key}"
            );
        }
        assert_eq!(exported["format"], "ggdesk-physical/1");
        assert!(
            exported.get("setup").is_none(),
            "no setups on a physical board"
        );
        if let Some(rules) = record.get("rules").and_then(Value::as_object) {
            for (key, v) in rules {
                assert_eq!(exported["rules"][key].as_f64(), v.as_f64(), "rules.{key}");
            }
        }
        // The game as stored: physical, its result decided by the events.
        let store = Store::open(&db).expect("open");
        let game = store
            .load_game(GameId(id.parse().expect("id")))
            .expect("game");
        let wanted = ["draw perpetual_16", "white resignation"][k];
        assert_eq!(
            game.meta.result.code().as_deref(),
            Some(wanted),
            "record {k}"
        );
        drop(store);
        // Imported again, it exports to the same file.
        let id2 = ok(&mut with_db(&db, &["import", out.to_str().expect("path")]));
        let printed = ok(&mut with_db(&db, &["export", "game", id2.trim(), "-"]));
        assert_eq!(
            serde_json::from_str::<Value>(&printed).expect("json"),
            exported,
            "record {k}: a fixed point"
        );
    }
}

/// Without `--db`: `ggdesk.sqlite3` in `$XDG_DATA_HOME/ggdesk/`, or in
/// `$HOME/.local/share/ggdesk/` when `XDG_DATA_HOME` is not set; created with its folders.
#[test]
fn without_db_the_commands_use_the_data_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let record = examples().join("spy_takes_five_star.json");
    let record = record.to_str().expect("path");
    let home = dir.path().join("home");
    let xdg = dir.path().join("xdg");
    std::fs::create_dir_all(&home).expect("home");

    // HOME only.
    let in_home = home.join(".local/share/ggdesk/ggdesk.sqlite3");
    let id = ok(ggdesk(&["import", record])
        .env("HOME", &home)
        .env_remove("XDG_DATA_HOME"));
    assert_eq!(id, "1\n");
    assert!(in_home.is_file(), "{} created", in_home.display());
    let store = Store::open(&in_home).expect("a ggdesk database");
    assert_eq!(store.game_metas(None).expect("games").len(), 1);
    drop(store);
    let exported = ok(ggdesk(&["export", "game", "1", "-"])
        .env("HOME", &home)
        .env_remove("XDG_DATA_HOME"));
    let exported: Value = serde_json::from_str(&exported).expect("json");
    assert_eq!(exported["events"], read_json(Path::new(record))["events"]);

    // XDG_DATA_HOME set: there, and nothing more under HOME.
    let in_xdg = xdg.join("ggdesk/ggdesk.sqlite3");
    let id = ok(ggdesk(&["import", record])
        .env("HOME", &home)
        .env("XDG_DATA_HOME", &xdg));
    assert_eq!(id, "1\n", "a new database");
    assert!(in_xdg.is_file(), "{} created", in_xdg.display());
    let store = Store::open(&in_home).expect("open");
    assert_eq!(
        store.game_metas(None).expect("games").len(),
        1,
        "the database under HOME was not used"
    );
}
