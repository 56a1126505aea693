//! What the tests of the shared examples share: an example read (and checked to be the
//! shared folder's own file), JSON compared with every number as a float, a file looked for
//! unchanged in an export, and the board prizes as the team examples write them.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::path::PathBuf;

fn read(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).expect("reads the example");
    serde_json::from_str(&text).expect("JSON")
}

/// The worked example `name` of the shared folder `kind` (`stages`, `teams`): the project's
/// copy in `tests/fixtures/KIND/`, which must be the same file.
pub fn shared(kind: &str, name: &str) -> Value {
    let shared = read(PathBuf::from(format!(
        "/work/shared/examples/{kind}/{name}"
    )));
    let ours = read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/{kind}/{name}")),
    );
    assert_eq!(shared, ours, "{name}: the fixture is the shared example");
    ours
}

/// Every number as a float, so that `1` and `1.0` compare equal.
pub fn norm(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().expect("number")),
        Value::Array(a) => Value::Array(a.iter().map(norm).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), norm(v))).collect()),
        other => other.clone(),
    }
}

/// The first place where `file` is not found unchanged in `out`: every key of an object
/// with its value, every element of an array (of the same length), every other value equal.
/// `out` may hold more keys (the defaults a reader takes, written out).
pub fn missing_from(file: &Value, out: &Value, at: &str) -> Option<String> {
    match (file, out) {
        (Value::Object(x), Value::Object(y)) => x.iter().find_map(|(k, v)| match y.get(k) {
            Some(w) => missing_from(v, w, &format!("{at}.{k}")),
            None => Some(format!("{at}.{k} is missing")),
        }),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| missing_from(p, q, &format!("{at}[{i}]"))),
        _ if file == out => None,
        _ => Some(format!("{at}: the file has {file}, the export {out}")),
    }
}

/// Board prizes (`standings --boards`) as the team examples' `.expected.json` write them:
/// `[board, [[id, games, points, percentage], …]]` per board.
pub fn board_prize_rows(boards: &Value) -> Value {
    Value::Array(
        boards
            .as_array()
            .expect("boards")
            .iter()
            .map(|b| {
                let players: Vec<Value> = b["players"]
                    .as_array()
                    .expect("players")
                    .iter()
                    .map(|p| json!([p["id"], p["games"], p["points"], p["percentage"]]))
                    .collect();
                json!([b["board"], players])
            })
            .collect(),
    )
}
