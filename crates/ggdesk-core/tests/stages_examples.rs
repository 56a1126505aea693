//! The shared worked examples of `spec/stages.md` (copied into `tests/fixtures/stages/`),
//! checked through the library: the next step, the current stage's standings, the bracket
//! and the final placement must be what the reference answered. (The binary is checked on
//! the same files by `tests/stages_cli.rs`.)

use ggdesk_core::stages::{Event, StepRefusal, placement_json, stage_standings_json};
use serde_json::Value;
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/stages")
}

/// A JSON value with every number as a float, so that `1` and `1.0` compare equal.
fn norm(v: &Value) -> Value {
    match v {
        Value::Number(n) => serde_json::json!(n.as_f64().expect("number")),
        Value::Array(a) => Value::Array(a.iter().map(norm).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), norm(v))).collect()),
        other => other.clone(),
    }
}

/// The games of a pairing as unordered pairs, sorted: for the places where the spec leaves
/// colours and tables open.
fn pairs(games: &Value) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = games
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let (w, b) = (
                g["white"].as_u64().expect("w"),
                g["black"].as_u64().expect("b"),
            );
            (w.min(b), w.max(b))
        })
        .collect();
    out.sort();
    out
}

fn check(name: &str) {
    let dir = fixtures();
    let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).expect("example");
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("{name}.expected.json"))).expect("expected"),
    )
    .expect("JSON");
    let event = Event::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));

    if let Some(want) = expected.get("pair") {
        let got = event.next_step();
        if want.get("exit").is_some() {
            // The fixtures' README: exit 2 when the event is over or a round is not
            // complete.
            match got {
                Err(StepRefusal::Over) => assert!(event.is_over(), "{name}: refused as over"),
                Err(StepRefusal::RoundNotComplete { .. }) => {
                    assert!(!event.is_over(), "{name}: refused as a round not complete")
                }
                other => panic!("{name}: pair should refuse as the README says, gave {other:?}"),
            }
        } else {
            let got: Value =
                serde_json::from_str(&got.expect("a next step").to_json()).expect("JSON");
            if want.get("note").is_some() {
                let mut want_rest = want.clone();
                let mut got_rest = got.clone();
                for v in [&mut want_rest, &mut got_rest] {
                    let o = v.as_object_mut().expect("object");
                    o.remove("note");
                    o.remove("games");
                }
                assert_eq!(got_rest, want_rest, "{name}: pair");
                assert_eq!(
                    pairs(&got["games"]),
                    pairs(&want["games"]),
                    "{name}: pair games"
                );
            } else {
                assert_eq!(norm(&got), norm(want), "{name}: pair");
            }
        }
    }
    if let Some(want) = expected.get("standings_stage") {
        let stage = want["stage"].as_u64().expect("stage") as u32;
        let s = event
            .stage_standings(Some(ggdesk_core::tournament::StageNo(stage)))
            .expect("standings");
        let rows: Value = serde_json::from_str(&stage_standings_json(&s)).expect("JSON");
        let got: Vec<Value> = rows
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                let mut row = vec![r["rank"].clone(), r["id"].clone(), r["score"].clone()];
                if let Some(g) = r.get("group") {
                    row.insert(0, g.clone());
                }
                Value::Array(row)
            })
            .collect();
        let want_rows = want
            .get("rows_rank_id_score")
            .or_else(|| want.get("rows"))
            .expect("rows");
        assert_eq!(
            norm(&Value::Array(got)),
            norm(want_rows),
            "{name}: standings"
        );
    }
    if let Some(want) = expected.get("bracket") {
        let got: Value =
            serde_json::from_str(&event.bracket_json().expect("a bracket")).expect("JSON");
        assert_eq!(norm(&got), norm(want), "{name}: bracket");
    }
    if let Some(want) = expected.get("final_place_id") {
        let rows: Value = serde_json::from_str(&placement_json(
            &event.final_placement().expect("the event is over"),
        ))
        .expect("JSON");
        let got: Vec<Value> = rows
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| Value::Array(vec![r["place"].clone(), r["id"].clone()]))
            .collect();
        assert_eq!(
            norm(&Value::Array(got)),
            norm(want),
            "{name}: final placement"
        );
    }
}

#[test]
fn groups_then_cross_over_final() {
    check("groups-then-cross-over-final");
}

#[test]
fn knockout_in_progress() {
    check("knockout-in-progress");
}

#[test]
fn playoff_at_the_cut() {
    check("playoff-at-the-cut");
}

#[test]
fn rr_rr_best_of_3_final() {
    check("rr-rr-best-of-3-final");
}

#[test]
fn swiss_then_final_twice_to_beat() {
    check("swiss-then-final-twice-to-beat");
}
