//! `ggdesk --db DB round TID pair|publish|result` (issue 34, item 7): a tournament's rounds
//! driven from the command line as the desk drives them. `pair` prints what `ggdesk pair`
//! prints for the same event's file; refusals exit 2 with the desk's words and change
//! nothing.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ggdesk(db: &Path, args: &[&str], input: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .arg("--db")
        .arg(db)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run ggdesk");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(input.unwrap_or("").as_bytes())
        .expect("write stdin");
    drop(stdin);
    child.wait_with_output().expect("ggdesk ends")
}

fn ok(db: &Path, args: &[&str], input: Option<&str>) -> String {
    let o = ggdesk(db, args, input);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8")
}

/// A refusal: exit 2, nothing printed, the message on standard error.
fn refused(db: &Path, args: &[&str]) -> String {
    let o = ggdesk(db, args, None);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    assert!(o.stdout.is_empty(), "{args:?}");
    String::from_utf8(o.stderr)
        .expect("UTF-8")
        .trim()
        .to_string()
}

fn import(db: &Path, file: &Value) -> String {
    ok(db, &["import", "-"], Some(&file.to_string()))
        .trim()
        .to_string()
}

fn exported(db: &Path, tid: &str) -> String {
    ok(db, &["export", "tournament", tid, "-"], None)
}

/// What `ggdesk pair FILE` answers for the event's exported file.
fn pair_of_file(db: &Path, tid: &str) -> Value {
    let file = exported(db, tid);
    let out = ok(db, &["pair", "-"], Some(&file));
    serde_json::from_str(&out).expect("JSON")
}

#[test]
fn a_swiss_is_paired_published_and_its_results_entered_from_the_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("event.sqlite3");
    let players: Vec<Value> = (1..=6)
        .map(|i| json!({"id": i, "name": format!("Player {i}"), "rating": 2000 - 10 * i}))
        .collect();
    let tid = import(
        &db,
        &json!({"format": "ggdesk-tournament/1", "name": "Club night",
                "settings": {"system": "swiss", "rounds": 3},
                "players": players, "rounds": []}),
    );
    let expected = pair_of_file(&db, &tid);
    let paired: Value =
        serde_json::from_str(&ok(&db, &["round", &tid, "pair"], None)).expect("JSON");
    assert_eq!(
        paired, expected,
        "the same pairing as `ggdesk pair` on its file"
    );
    assert_eq!(paired["round"], json!(1));
    // A draft takes no result; a second pair is refused while it waits.
    let before = exported(&db, &tid);
    assert_eq!(
        refused(&db, &["round", &tid, "result", "1", "white"]),
        "ggdesk: no round has been published"
    );
    assert_eq!(
        refused(&db, &["round", &tid, "pair"]),
        "ggdesk: round 1 is drafted already: publish or discard it first"
    );
    assert_eq!(exported(&db, &tid), before);
    assert_eq!(
        ok(&db, &["round", &tid, "publish"], None),
        "round 1 published\n"
    );
    // Results: a table that is not there, a result that is not one, a change without a
    // reason: refused in the desk's words, nothing changed.
    let before = exported(&db, &tid);
    assert_eq!(
        refused(&db, &["round", &tid, "result", "9", "white"]),
        "ggdesk: round 1 has no table 9"
    );
    assert_eq!(
        refused(&db, &["round", &tid, "result", "1", "purple"]),
        "ggdesk: unknown result \"purple\" (expected white, black, draw, white_forfeit, \
         black_forfeit, double_forfeit or pending)"
    );
    assert_eq!(exported(&db, &tid), before);
    assert_eq!(
        ok(&db, &["round", &tid, "result", "1", "white"], None),
        "round 1, table 1: white\n"
    );
    assert_eq!(
        refused(&db, &["round", &tid, "result", "1", "black"]),
        "ggdesk: table 1 already has a result (white): changing it needs a reason"
    );
    assert_eq!(
        ok(
            &db,
            &[
                "round",
                &tid,
                "result",
                "1",
                "black",
                "--reason",
                "scoresheet misread"
            ],
            None
        ),
        "round 1, table 1: black\n"
    );
    assert_eq!(
        ok(&db, &["round", &tid, "result", "2", "draw"], None),
        "round 1, table 2: draw\n"
    );
    // The last result completes the round.
    assert_eq!(
        ok(&db, &["round", &tid, "result", "3", "white_forfeit"], None),
        "round 1, table 3: white_forfeit\nround 1 is complete\n"
    );
    let file: Value = serde_json::from_str(&exported(&db, &tid)).expect("JSON");
    let results: Vec<&Value> = file["rounds"][0]["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| &g["result"])
        .collect();
    assert_eq!(
        results,
        [&json!("black"), &json!("draw"), &json!("white_forfeit")]
    );
    // Round 2 as the file's pairing would have it.
    let expected = pair_of_file(&db, &tid);
    let paired: Value =
        serde_json::from_str(&ok(&db, &["round", &tid, "pair"], None)).expect("JSON");
    assert_eq!(paired, expected);
}

#[test]
fn the_next_games_of_a_knockout_start_as_ggdesk_pair_prints_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("event.sqlite3");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/stages/knockout-in-progress.json");
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON");
    let tid = import(&db, &file);
    let expected = pair_of_file(&db, &tid);
    let paired: Value =
        serde_json::from_str(&ok(&db, &["round", &tid, "pair"], None)).expect("JSON");
    assert_eq!(paired, expected);
    assert!(
        paired["games"]
            .as_array()
            .expect("games")
            .iter()
            .all(|g| g.get("match").is_some())
    );
    // Started at once, as the desk's Ctrl+P does: nothing to publish.
    assert_eq!(
        refused(&db, &["round", &tid, "publish"]),
        format!(
            "ggdesk: round {} is not a draft",
            file["stages"][0]["rounds"]
                .as_array()
                .expect("rounds")
                .len()
                + 1
        )
    );
    // An unknown tournament is bad input.
    assert_eq!(
        refused(&db, &["round", "99", "pair"]),
        "ggdesk: no tournament 99 in the database"
    );
}

/// A team event's rounds from the command line (spec/teams.md): `pair` drafts the next
/// round of matches and prints what `ggdesk pair` prints for the event's file, `publish`
/// publishes it, `result` enters a board's result at its table; refusals in the desk's
/// words, exit 2.
#[test]
fn a_team_swiss_is_paired_published_and_played_from_the_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("event.sqlite3");
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/teams/team-swiss-with-bye.json");
    let mut file: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("reads")).expect("JSON");
    for st in file["stages"].as_array_mut().expect("stages") {
        st["rounds"] = json!([]);
    }
    let tid = import(&db, &file);
    let expected = pair_of_file(&db, &tid);
    let paired: Value =
        serde_json::from_str(&ok(&db, &["round", &tid, "pair"], None)).expect("JSON");
    assert_eq!(
        paired, expected,
        "the same matches as `ggdesk pair` on its file"
    );
    assert_eq!(
        refused(&db, &["round", &tid, "result", "1", "white"]),
        "ggdesk: no round has been published"
    );
    assert_eq!(
        ok(&db, &["round", &tid, "publish"], None),
        "round 1 published\n"
    );
    assert_eq!(
        refused(&db, &["round", &tid, "publish"]),
        "ggdesk: no round is drafted"
    );
    let matches = paired["matches"].as_array().expect("matches").len();
    let boards = file["team"]["boards"].as_u64().expect("boards") as usize;
    let tables = matches * boards;
    assert_eq!(
        refused(
            &db,
            &["round", &tid, "result", &(tables + 1).to_string(), "white"]
        ),
        format!("ggdesk: round 1 has no table {}", tables + 1)
    );
    for table in 1..tables {
        assert_eq!(
            ok(
                &db,
                &["round", &tid, "result", &table.to_string(), "draw"],
                None
            ),
            format!("round 1, table {table}: draw\n")
        );
    }
    assert_eq!(
        ok(
            &db,
            &["round", &tid, "result", &tables.to_string(), "white"],
            None
        ),
        format!("round 1, table {tables}: white\nround 1 is complete\n")
    );
    // The exported file holds the round as played: its first match's boards drawn.
    let out: Value = serde_json::from_str(&exported(&db, &tid)).expect("JSON");
    let first = &out["stages"][0]["rounds"][0]["matches"][0]["boards"];
    assert_eq!(first[0]["result"], json!("draw"));
}
