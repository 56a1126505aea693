//! Team events (`spec/teams.md`) through the binary: the shared worked examples
//! (`pair`, `standings --teams`, `standings --boards` answer exactly what
//! `tests/fixtures/teams/*.expected.json` holds) and refusals of bad line-ups (exit 2, one
//! line naming the match and the board).

#[path = "support/json.rs"]
mod json_support;
use json_support::board_prize_rows;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const EXAMPLES: [&str; 3] = [
    "team-round-robin",
    "team-swiss-with-bye",
    "board-groups-then-final",
];

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write");
    child.wait_with_output().expect("finishes")
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/teams")
        .join(name)
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("reads the fixture");
    serde_json::from_str(&text).expect("JSON")
}

/// Runs a command on a file and reads its JSON answer, or `{"exit": code}` when it fails.
fn answer(args: &[&str], file: &Path) -> Value {
    let mut all = args.to_vec();
    let path = file.to_str().expect("UTF-8 path");
    all.push(path);
    let o = run(&all, "");
    if !o.status.success() {
        return json!({"exit": o.status.code()});
    }
    serde_json::from_slice(&o.stdout).expect("JSON on stdout")
}

/// Numbers compared as numbers (`100` and `100.0` are the same percentage).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn the_fixtures_are_the_shared_examples() {
    // The shared examples sit beside the repository, as store_stages reads them.
    let shared = PathBuf::from("/work/shared/examples/teams");
    for name in EXAMPLES {
        for file in [format!("{name}.json"), format!("{name}.expected.json")] {
            let ours = std::fs::read(fixture(&file)).expect("fixture");
            let theirs = std::fs::read(shared.join(&file)).expect("shared example");
            assert_eq!(ours, theirs, "{file} differs from the shared example");
        }
    }
}

#[test]
fn pair_answers_as_the_examples_expect() {
    for name in EXAMPLES {
        let expected = read_json(&fixture(&format!("{name}.expected.json")));
        let got = answer(&["pair"], &fixture(&format!("{name}.json")));
        assert!(
            same(&got, &expected["pair"]),
            "{name}: pair gave {got}, expected {}",
            expected["pair"]
        );
    }
}

#[test]
fn team_standings_answer_as_the_examples_expect() {
    for name in EXAMPLES {
        let expected = read_json(&fixture(&format!("{name}.expected.json")));
        let got = answer(&["standings", "--teams"], &fixture(&format!("{name}.json")));
        let columns: Vec<&str> = expected["standings_teams_columns"]
            .as_array()
            .expect("columns")
            .iter()
            .map(|c| c.as_str().expect("a column name"))
            .collect();
        let rows: Vec<Value> = got
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| Value::Array(columns.iter().map(|c| r[*c].clone()).collect()))
            .collect();
        assert!(
            same(&Value::Array(rows.clone()), &expected["standings_teams"]),
            "{name}: standings --teams gave {rows:?}, expected {}",
            expected["standings_teams"]
        );
        let stage = expected["stage"].as_u64().expect("stage");
        let again = answer(
            &["standings", "--teams", "--stage", &stage.to_string()],
            &fixture(&format!("{name}.json")),
        );
        assert_eq!(again, got, "{name}: --stage {stage} is the current stage");
    }
}

#[test]
fn board_prizes_answer_as_the_examples_expect() {
    for name in EXAMPLES {
        let expected = read_json(&fixture(&format!("{name}.expected.json")));
        let got = answer(
            &["standings", "--boards"],
            &fixture(&format!("{name}.json")),
        );
        let boards = board_prize_rows(&got);
        assert!(
            same(&boards, &expected["boards"]),
            "{name}: standings --boards gave {boards:?}, expected {}",
            expected["boards"]
        );
    }
}

/// The round robin example with one board of one match changed.
fn with_board(change: impl FnOnce(&mut Value)) -> String {
    let mut file = read_json(&fixture("team-round-robin.json"));
    change(&mut file["stages"][0]["rounds"][1]["matches"][0]);
    file.to_string()
}

fn refused(file: &str, args: &[&str], message: &str) {
    let mut all = args.to_vec();
    all.push("-");
    let o = run(&all, file);
    assert_eq!(o.status.code(), Some(2), "{args:?} exits 2");
    assert!(o.stdout.is_empty(), "nothing on stdout");
    let err = String::from_utf8(o.stderr).expect("UTF-8");
    assert!(
        err.contains(message),
        "{args:?}: stderr {err:?} lacks {message:?}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
}

#[test]
fn a_line_up_out_of_roster_order_is_refused_naming_the_match_and_board() {
    // Team 1 (home) plays 1, 2, 3, 4 on boards 1-4; 3 on board 2 and 2 on board 3.
    let file = with_board(|m| {
        m["boards"][1] = json!({"white": 11, "black": 3, "result": "black"});
        m["boards"][2] = json!({"white": 2, "black": 12, "result": "white"});
    });
    for args in [
        &["pair"][..],
        &["standings", "--teams"],
        &["standings", "--boards"],
    ] {
        refused(
            &file,
            args,
            "stages[0].rounds[1].matches[0].boards[2]: player 2 plays board 3 but comes after \
             player 3 (board 2) in the roster of team 1: boards follow the roster order",
        );
    }
}

#[test]
fn an_empty_board_above_a_filled_one_is_refused() {
    let file = with_board(|m| {
        m["boards"][1] = json!({"white": 11, "black": null, "result": "white_forfeit"});
    });
    refused(
        &file,
        &["pair"],
        "stages[0].rounds[1].matches[0].boards[2]: team 1 fills board 3 below its empty board 2",
    );
}

#[test]
fn a_player_of_another_team_is_refused() {
    let file = with_board(|m| {
        m["boards"][3] = json!({"white": 13, "black": 5, "result": "white"});
    });
    refused(
        &file,
        &["standings", "--teams"],
        "stages[0].rounds[1].matches[0].boards[3]: player 5 is not in team 1",
    );
}

#[test]
fn a_forfeit_result_that_does_not_match_the_empty_side_is_refused() {
    let file = with_board(|m| {
        m["boards"][3] = json!({"white": 13, "black": null, "result": "black_forfeit"});
    });
    refused(
        &file,
        &["standings", "--boards"],
        "stages[0].rounds[1].matches[0].boards[3]: result black_forfeit with black empty: \
         expected white_forfeit",
    );
}

#[test]
fn a_player_twice_in_a_match_is_refused() {
    let file = with_board(|m| {
        m["boards"][3] = json!({"white": 10, "black": 4, "result": "white"});
    });
    refused(
        &file,
        &["pair"],
        "stages[0].rounds[1].matches[0].boards[3]: player 10 plays twice in this match",
    );
}

#[test]
fn teams_and_boards_are_for_team_events() {
    let file = json!({"format": "ggdesk-tournament/1", "name": "x",
        "settings": {"system": "swiss", "rounds": 3},
        "players": [{"id": 1, "name": "A"}], "rounds": []})
    .to_string();
    refused(
        &file,
        &["standings", "--teams"],
        "--teams and --boards are for team events",
    );
}

#[test]
fn the_final_placement_of_a_team_event() {
    let got = answer(&["standings", "--final"], &fixture("team-round-robin.json"));
    let places: Vec<(u64, u64)> = got
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["place"].as_u64().expect("place"),
                r["team"].as_u64().expect("team"),
            )
        })
        .collect();
    assert_eq!(places, vec![(1, 1), (2, 4), (3, 3), (4, 2)]);
    let file = std::fs::read_to_string(fixture("board-groups-then-final.json")).expect("reads");
    refused(
        &file,
        &["standings", "--final"],
        "the event is not over: stage 2 is still being played",
    );
}

/// The fields of one CSV line (RFC 4180 quotes: `"Reyes, Ana"`, `""` for a quote).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().expect("a field").push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            (c, _) => fields.last_mut().expect("a field").push(c),
        }
    }
    fields
}

/// The CSV of `standings --teams --csv` and `standings --boards --csv` says what the JSON
/// says, row for row (issue 33: CSV of team standings and board prizes).
#[test]
fn team_standings_and_board_prizes_as_csv_say_what_the_json_says() {
    let csv_of = |args: &[&str], file: &Path| -> Vec<Vec<String>> {
        let mut all = args.to_vec();
        all.push(file.to_str().expect("UTF-8 path"));
        let o = run(&all, "");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout)
            .expect("UTF-8")
            .lines()
            .map(csv_fields)
            .collect()
    };
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    for name in EXAMPLES {
        let file = fixture(&format!("{name}.json"));
        // Team standings: the JSON's keys as the header, its values in each row.
        let rows = answer(&["standings", "--teams"], &file);
        let rows = rows.as_array().expect("rows");
        let csv = csv_of(&["standings", "--teams", "--csv"], &file);
        let header: Vec<String> = rows[0]
            .as_object()
            .expect("a row")
            .keys()
            .cloned()
            .collect();
        let mut sorted_header = csv[0].clone();
        sorted_header.sort();
        let mut json_keys = header.clone();
        json_keys.sort();
        assert_eq!(sorted_header, json_keys, "{name}: the same columns");
        assert_eq!(csv.len(), rows.len() + 1, "{name}: a line per team");
        for (line, row) in csv[1..].iter().zip(rows) {
            for (col, value) in csv[0].iter().zip(line) {
                let want = text(&row[col]);
                let same_number = want.parse::<f64>().ok() == value.parse::<f64>().ok()
                    && value.parse::<f64>().is_ok();
                assert!(
                    *value == want || same_number,
                    "{name}: {col} is {value} in the CSV, {want} in the JSON"
                );
            }
        }
        // Board prizes: one line per player and board, in the JSON's order.
        let boards = answer(&["standings", "--boards"], &file);
        let csv = csv_of(&["standings", "--boards", "--csv"], &file);
        assert_eq!(
            csv[0],
            [
                "board",
                "id",
                "name",
                "team",
                "games",
                "points",
                "percentage"
            ]
        );
        let mut lines = csv[1..].iter();
        for b in boards.as_array().expect("boards") {
            for p in b["players"].as_array().expect("players") {
                let line = lines.next().expect("a line for each player");
                assert_eq!(line[0], text(&b["board"]), "{name}");
                assert_eq!(line[1], text(&p["id"]), "{name}");
                let pct = p["percentage"].as_f64().expect("a percentage");
                assert_eq!(
                    line[6].parse::<f64>().expect("a number"),
                    pct,
                    "{name}: player {}",
                    line[1]
                );
            }
        }
        assert!(lines.next().is_none(), "{name}: no more lines than players");
    }
}
