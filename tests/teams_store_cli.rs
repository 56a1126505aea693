//! Team events through the binary and a database (issue 33), on both engines: `ggdesk --db
//! DB import FILE`, then `export tournament ID OUT`, then `pair`, `standings --teams`,
//! `--boards` and `--final` on OUT answer what the shared examples expect (and what the file
//! itself answers); a bad team file is refused by `import` (exit 2, one line naming the file,
//! the match and the board) and the database holds nothing after it.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/json.rs"]
mod json_support;
#[path = "support/pg.rs"]
mod pg;

use engines::Engine;
use ggdesk::store::Address;
use json_support::{board_prize_rows, norm};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

crate::on_both_engines!(
    import_then_export_answers_as_the_examples_expect,
    a_bad_team_file_is_refused_by_import_and_writes_nothing,
);

const EXAMPLES: [&str; 3] = [
    "team-round-robin",
    "team-swiss-with-bye",
    "board-groups-then-final",
];

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(args)
        .output()
        .expect("runs")
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/teams")
        .join(name)
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).expect("reads");
    serde_json::from_str(&text).expect("JSON")
}

/// The `--db` argument of a new empty database.
fn fresh_db(engine: Engine, dir: &Path) -> String {
    match engines::fresh_address(engine, dir) {
        Address::File(path) => path.to_str().expect("UTF-8 path").to_string(),
        Address::Server(url) => url,
    }
}

fn path_text(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// A command's JSON answer, or `{"exit": code, "stderr": …}` when it fails.
fn answer(args: &[&str], file: &Path) -> Value {
    let mut all = args.to_vec();
    all.push(path_text(file));
    let o = run(&all);
    if !o.status.success() {
        return json!({"exit": o.status.code(), "stderr": String::from_utf8_lossy(&o.stderr)});
    }
    serde_json::from_slice(&o.stdout).expect("JSON on stdout")
}

fn import(db: &str, file: &Path) -> String {
    let o = run(&["--db", db, "import", path_text(file)]);
    assert!(
        o.status.success(),
        "import {file:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout)
        .expect("UTF-8")
        .trim()
        .to_string()
}

fn import_then_export_answers_as_the_examples_expect(engine: Engine) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = fresh_db(engine, dir.path());
    for name in EXAMPLES {
        let original = fixture(&format!("{name}.json"));
        let expected = read_json(&fixture(&format!("{name}.expected.json")));
        let id = import(&db, &original);
        let out = dir.path().join(format!("{name}-exported.json"));
        let o = run(&["--db", &db, "export", "tournament", &id, path_text(&out)]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

        let pair = answer(&["pair"], &out);
        let pair = match pair.get("exit") {
            Some(code) => json!({"exit": code}),
            None => pair,
        };
        assert_eq!(norm(&pair), norm(&expected["pair"]), "{name}: pair");

        let columns: Vec<&str> = expected["standings_teams_columns"]
            .as_array()
            .expect("columns")
            .iter()
            .map(|c| c.as_str().expect("a column"))
            .collect();
        let rows: Vec<Value> = answer(&["standings", "--teams"], &out)
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| Value::Array(columns.iter().map(|c| r[*c].clone()).collect()))
            .collect();
        assert_eq!(
            norm(&Value::Array(rows)),
            norm(&expected["standings_teams"]),
            "{name}: standings --teams"
        );

        let boards = board_prize_rows(&answer(&["standings", "--boards"], &out));
        assert_eq!(
            norm(&boards),
            norm(&expected["boards"]),
            "{name}: standings --boards"
        );

        // The examples hold no final placement: the exported file's is the file's own
        // (the same refusal, word for word, while the final is being played).
        let fin = answer(&["standings", "--final"], &out);
        let want = answer(&["standings", "--final"], &original);
        let fin = match fin.get("stderr") {
            Some(e) => json!({"exit": fin["exit"], "stderr": e.as_str().expect("text")
                .replace(path_text(&out), "FILE")}),
            None => fin,
        };
        let want = match want.get("stderr") {
            Some(e) => json!({"exit": want["exit"], "stderr": e.as_str().expect("text")
                .replace(path_text(&original), "FILE")}),
            None => want,
        };
        assert_eq!(fin, want, "{name}: standings --final");
    }
}

fn a_bad_team_file_is_refused_by_import_and_writes_nothing(engine: Engine) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = fresh_db(engine, dir.path());
    let mut file = read_json(&fixture("team-round-robin.json"));
    // Team 1 (home) leaves board 2 empty and fills board 3 below it.
    file["stages"][0]["rounds"][1]["matches"][0]["boards"][1] =
        json!({"white": 11, "black": null, "result": "white_forfeit"});
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, file.to_string()).expect("writes");
    let o = run(&["--db", &db, "import", path_text(&bad)]);
    assert_eq!(o.status.code(), Some(2), "a bad file exits 2");
    assert!(o.stdout.is_empty(), "no tournament id");
    let err = String::from_utf8(o.stderr).expect("UTF-8");
    assert_eq!(
        err.trim_end(),
        format!(
            "ggdesk: {}: stages[0].rounds[1].matches[0].boards[2]: team 1 fills board 3 \
             below its empty board 2",
            path_text(&bad)
        )
    );
    // Nothing was written: the next import is tournament 1, and there is no tournament 2.
    assert_eq!(import(&db, &fixture("team-round-robin.json")), "1");
    let o = run(&["--db", &db, "export", "tournament", "2", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim_end(),
        "ggdesk: tournament 2 not found"
    );
}
