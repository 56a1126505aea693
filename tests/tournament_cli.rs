//! `ggdesk pair`, `ggdesk standings` and `ggdesk crosstable` run as the binary: output and
//! exit codes as the spec says.

use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn file(v: &Value) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(v.to_string().as_bytes()).expect("write");
    f
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(text.as_bytes())
            .expect("write");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("finishes")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8")
}

fn tournament() -> Value {
    json!({
        "format": "ggdesk-tournament/1",
        "name": "CLI",
        "settings": {"system": "swiss", "rounds": 3},
        "players": [
            {"id": 1, "name": "Reyes, Ana", "rating": 1710},
            {"id": 2, "name": "=Cruz", "rating": 1650},
            {"id": 3, "name": "Lim", "rating": 1500},
            {"id": 4, "name": "Sy", "rating": 1400},
            {"id": 5, "name": "Go", "rating": 1300}
        ],
        "rounds": [
            {"games": [{"table": 1, "white": 1, "black": 3, "result": "white"},
                       {"table": 2, "white": 2, "black": 4, "result": "draw"}],
             "byes": [5]}
        ]
    })
}

/// A refusal: exit 2, one line on standard error, nothing on standard output.
fn assert_refused(o: &Output, message: &str) {
    assert_eq!(o.status.code(), Some(2), "stderr: {}", stderr(o));
    assert_eq!(stdout(o), "");
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(message), "{err}");
}

#[test]
fn pair_prints_the_next_round_as_json() {
    let f = file(&tournament());
    let o = run(&["pair", f.path().to_str().expect("path")], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    // Scores: 1: 2, 5: 2 (bye), 2: 1, 4: 1, 3: 0. The bye goes to 3 (5 had one); 2 and
    // 4 have met, so the two leaders each meet one of them, with white.
    assert_eq!(v["round"], json!(2));
    assert_eq!(v["byes"], json!([3]));
    let games = v["games"].as_array().expect("games");
    assert_eq!(games.len(), 2);
    for (k, g) in games.iter().enumerate() {
        assert_eq!(g["table"], json!(k + 1));
        assert!([json!(1), json!(5)].contains(&g["white"]), "{g}");
        assert!([json!(2), json!(4)].contains(&g["black"]), "{g}");
    }
    assert!(
        games
            .iter()
            .all(|g| g.as_object().map(|o| o.len()) == Some(3))
    );
}

#[test]
fn pair_explain_prints_text() {
    let f = file(&tournament());
    let o = run(
        &["pair", "--explain", f.path().to_str().expect("path")],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.starts_with("Round 2 (Swiss)"), "{text}");
    assert!(text.contains("Table 1:"), "{text}");
    assert!(text.contains("Bye: 3 Lim (0)"), "{text}");
}

#[test]
fn pair_reads_standard_input() {
    let o = run(&["pair", "-"], Some(&tournament().to_string()));
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("{\"round\":2,"));
}

#[test]
fn pair_refuses_an_incomplete_round_a_finished_event_and_an_impossible_pairing() {
    let mut v = tournament();
    v["rounds"][0]["games"][0]["result"] = json!("pending");
    let o = run(&["pair", "-"], Some(&v.to_string()));
    assert_refused(&o, "round 1 is not complete");

    let mut v = tournament();
    v["settings"]["rounds"] = json!(1);
    let o = run(&["pair", "-"], Some(&v.to_string()));
    assert_refused(&o, "all 1 rounds have been played");

    let v = json!({
        "format": "ggdesk-tournament/1",
        "settings": {"system": "swiss", "rounds": 3, "forbidden": [[1, 2]]},
        "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]
    });
    let o = run(&["pair", "-"], Some(&v.to_string()));
    assert_refused(&o, "no valid pairing exists");
}

#[test]
fn a_malformed_file_exits_2_with_one_line() {
    let mut v = tournament();
    v["rounds"][0]["games"][0]["black"] = json!(17);
    for cmd in ["pair", "standings", "crosstable"] {
        let o = run(&[cmd, "-"], Some(&v.to_string()));
        assert_refused(&o, "rounds[0].games[0]: unknown player id 17");
    }
    let o = run(&["standings", "-"], Some("{ not json"));
    assert_refused(&o, "not valid JSON");
    let mut v = tournament();
    v["rounds"][0]["games"][0]["result"] = json!("1-0");
    let o = run(&["standings", "--csv", "-"], Some(&v.to_string()));
    assert_refused(&o, "unknown result \"1-0\"");
}

#[test]
fn an_unreadable_file_exits_1() {
    let o = run(&["standings", "/nonexistent/ggdesk/t.json"], None);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("ggdesk: cannot read /nonexistent/ggdesk/t.json"),
        "the message names the file it could not read: {err}"
    );
}

#[test]
fn standings_print_json_and_csv() {
    let f = file(&tournament());
    let path = f.path().to_str().expect("path");
    let o = run(&["standings", path], None);
    assert_eq!(o.status.code(), Some(0));
    let rows: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let rows = rows.as_array().expect("list");
    assert_eq!(rows.len(), 5);
    let keys: Vec<&str> = rows[0]
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "rank",
            "id",
            "name",
            "rating",
            "score",
            "direct_encounter",
            "buchholz",
            "sonneborn_berger",
            "wins"
        ]
    );
    // 1 and 5 tie on 2; 1 has buchholz 0 (opponent 3), 5 its own score 2 for the bye.
    assert_eq!(rows[0]["id"], json!(5));
    assert_eq!(rows[1]["id"], json!(1));

    let o = run(&["standings", "--csv", path], None);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert_eq!(
        text.lines().next(),
        Some("rank,id,name,rating,score,direct_encounter,buchholz,sonneborn_berger,wins")
    );
    assert!(text.contains(",'=Cruz,"), "{text}");
    assert!(text.contains(",\"Reyes, Ana\","), "{text}");
}

#[test]
fn crosstable_prints_csv() {
    let f = file(&tournament());
    let o = run(&["crosstable", f.path().to_str().expect("path")], None);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert_eq!(text.lines().next(), Some("rank,id,name,rating,score,R1"));
    assert!(text.contains("1,5,Go,1300,2,BYE"), "{text}");
    assert!(text.contains(",'=Cruz,1650,1,D4"), "{text}");
}
