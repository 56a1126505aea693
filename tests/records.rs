//! Fixture records with independently derived verdicts (`tests/fixtures/records/**`, made by
//! `tests/fixtures/gen.py` from RULES.md and spec/record.md, never from the engine), and the
//! shared examples (copied into `tests/fixtures/examples`).
//!
//! `NAME.json` is a game record; `NAME.expected` is the verdict, or `{"exit": 2}` for a
//! record that must be rejected. Every verdict field is compared; all disagreements are
//! listed before the test fails.

use ggdesk_core::record::{Record, replay};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    vec![
        root.join("tests/fixtures/records"),
        root.join("tests/fixtures/examples"),
    ]
}

/// Every `*.json` under `dir` (recursively) that has a `.expected` beside it, sorted.
fn fixtures(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "json")
                && path.with_extension("expected").exists()
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn all_fixtures() -> Vec<PathBuf> {
    let all: Vec<PathBuf> = fixture_dirs().iter().flat_map(|d| fixtures(d)).collect();
    assert!(all.len() > 100, "too few fixtures found: {}", all.len());
    all
}

fn name(path: &Path) -> String {
    let s = path.with_extension("").display().to_string();
    let root = env!("CARGO_MANIFEST_DIR");
    s.strip_prefix(root)
        .map_or(s.clone(), |r| r.trim_start_matches('/').to_string())
}

fn expected(path: &Path) -> Value {
    let text = std::fs::read_to_string(path.with_extension("expected")).expect("expected file");
    serde_json::from_str(&text).expect("expected file is JSON")
}

fn is_reject(expected: &Value) -> bool {
    expected.get("exit").is_some()
}

fn hundredths(v: &Value) -> Option<i64> {
    v.as_f64().map(|x| (x * 100.0).round() as i64)
}

/// The fields of `got` that disagree with `want`, one line each.
fn compare(want: &Value, got: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let mut differ = |field: &str, w: &Value, g: &Value| {
        diffs.push(format!("{field}: expected {w}, got {g}"));
    };
    for field in ["status", "winner", "reason", "plies", "challenges"] {
        if want.get(field) != got.get(field) {
            differ(field, &want[field], &got[field]);
        }
    }
    match (want["at"].as_f64(), got["at"].as_f64()) {
        // Exactly equal: `at` is a moment the record's own numbers give exactly, and the
        // verdict must agree field by field.
        (Some(w), Some(g)) if w == g => {}
        _ => differ("at", &want["at"], &got["at"]),
    }
    for side in ["white", "black"] {
        if want["oversteps"][side] != got["oversteps"][side] {
            differ(
                &format!("oversteps.{side}"),
                &want["oversteps"][side],
                &got["oversteps"][side],
            );
        }
    }
    let (wa, ga) = (&want["adjudication"], &got["adjudication"]);
    if wa.is_null() || ga.is_null() {
        if wa.is_null() != ga.is_null() {
            differ("adjudication", wa, ga);
        }
    } else {
        for side in ["white", "black"] {
            if wa[side]["nrs"].as_i64() != ga[side]["nrs"].as_i64() {
                differ(
                    &format!("adjudication.{side}.nrs"),
                    &wa[side]["nrs"],
                    &ga[side]["nrs"],
                );
            }
            for f in ["avp", "tas"] {
                let (w, g) = (&wa[side][f], &ga[side][f]);
                if hundredths(w).is_none() || hundredths(w) != hundredths(g) {
                    differ(&format!("adjudication.{side}.{f}"), w, g);
                }
            }
        }
    }
    diffs
}

fn report(failures: &[String], total: usize) {
    if !failures.is_empty() {
        panic!(
            "{} of {} fixtures disagree:\n{}",
            failures.len(),
            total,
            failures.join("\n")
        );
    }
}

/// Every fixture through the library: parse, replay, compare every verdict field.
#[test]
fn fixture_verdicts() {
    let all = all_fixtures();
    let mut failures = Vec::new();
    for path in &all {
        let want = expected(path);
        let bytes = std::fs::read(path).expect("fixture readable");
        // JSON text is UTF-8: bytes that are not are a record the library cannot even take.
        let Ok(text) = String::from_utf8(bytes) else {
            if !is_reject(&want) {
                failures.push(format!(
                    "{}: not UTF-8 but a verdict is expected",
                    name(path)
                ));
            }
            continue;
        };
        let result = Record::from_json_str(&text).and_then(|r| replay(&r));
        match (is_reject(&want), result) {
            (true, Ok(v)) => failures.push(format!(
                "{}: expected exit 2, got verdict {}",
                name(path),
                v.to_value()
            )),
            (true, Err(_)) => {}
            (false, Err(e)) => failures.push(format!(
                "{}: expected a verdict, got error: {e}",
                name(path)
            )),
            (false, Ok(v)) => {
                let diffs = compare(&want, &v.to_value());
                if !diffs.is_empty() {
                    failures.push(format!("{}: {}", name(path), diffs.join("; ")));
                }
            }
        }
    }
    report(&failures, all.len());
}

/// The real binary: a rejected record exits 2 with nothing on stdout and exactly one line on
/// stderr; a well-formed one exits 0 and prints the expected verdict.
#[test]
fn fixture_binary() {
    let all = all_fixtures();
    let mut failures = Vec::new();
    for path in &all {
        let want = expected(path);
        let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .arg("replay")
            .arg(path)
            .output()
            .expect("run ggdesk");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        if is_reject(&want) {
            let mut problems = Vec::new();
            if code != Some(2) {
                problems.push(format!("exit code {code:?}, expected 2"));
            }
            if !stdout.is_empty() {
                problems.push(format!("stdout not empty: {:?}", stdout.trim_end()));
            }
            if stderr.lines().count() != 1 || !stderr.ends_with('\n') || stderr.trim().is_empty() {
                problems.push(format!("stderr is not exactly one line: {stderr:?}"));
            }
            if !problems.is_empty() {
                failures.push(format!("{}: {}", name(path), problems.join("; ")));
            }
        } else if code != Some(0) {
            failures.push(format!(
                "{}: exit code {code:?}, expected 0 (stderr: {})",
                name(path),
                stderr.trim_end()
            ));
        } else {
            match serde_json::from_str::<Value>(&stdout) {
                Err(e) => failures.push(format!("{}: stdout is not JSON: {e}", name(path))),
                Ok(got) => {
                    let diffs = compare(&want, &got);
                    if !diffs.is_empty() {
                        failures.push(format!("{}: {}", name(path), diffs.join("; ")));
                    }
                }
            }
        }
    }
    report(&failures, all.len());
}

/// `ggdesk replay -` reads standard input; an unreadable file exits 1.
#[test]
fn binary_stdin_and_unreadable_file() {
    use std::io::Write;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records");
    let path = dir.join("resign_white.json");
    let want = expected(&path);
    let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["replay", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run ggdesk");
    let text = std::fs::read(&path).expect("fixture readable");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&text)
        .expect("write stdin");
    let out = child.wait_with_output().expect("ggdesk finishes");
    assert_eq!(out.status.code(), Some(0));
    let got: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(compare(&want, &got), Vec::<String>::new());

    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .arg("replay")
        .arg(dir.join("no such record.json"))
        .output()
        .expect("run ggdesk");
    assert_eq!(out.status.code(), Some(1), "an unreadable file exits 1");
    assert!(out.stdout.is_empty());
}

/// Defect 5: a record whose times go beyond what a record may carry (a resume 4 · 10^18 s
/// after a pause) is refused with exit 2 and the bound named, never replayed with
/// arithmetic that overflows.
#[test]
fn binary_refuses_a_time_beyond_the_bound_naming_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records");
    let text = std::fs::read_to_string(dir.join("resign_white.json")).expect("fixture");
    let mut record: Value = serde_json::from_str(&text).expect("JSON");
    record["events"] = serde_json::json!([{"t": 0, "pause": true}, {"t": 4e18, "resume": true}]);
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), record.to_string()).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .arg("replay")
        .arg(file.path())
        .output()
        .expect("run ggdesk");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("event 1") && stderr.contains("2^50"),
        "{stderr}"
    );
}
