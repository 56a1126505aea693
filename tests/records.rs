//! Fixture records with independently derived verdicts (`tests/fixtures/records/**`, made by
//! `tests/fixtures/gen.py` from RULES.md and spec/record.md, never from the engine), and the
//! shared examples (copied into `tests/fixtures/examples`), through the real binary. The
//! same fixtures go through the library in the core's `tests/records.rs`, which checks the
//! kind of each rejection.
//!
//! `NAME.json` is a game record; `NAME.expected` is the verdict, or `{"exit": 2, "fault":
//! KIND, "event": N}` for a record that must be rejected. Every verdict field is compared;
//! all disagreements are listed before the test fails.

#[path = "fixtures/verdicts.rs"]
mod verdicts;

use ggdesk_core::record::{Record, replay};
use serde_json::Value;
use std::path::Path;
use std::process::Command;
use verdicts::{check_all, compare, expected, is_reject};

/// The real binary: a rejected record exits 2 with nothing on stdout and exactly one line on
/// stderr, which names the event at fault (and no event when the fault is not in one) and
/// says what the library says of the record; a well-formed one exits 0 and prints the
/// expected verdict.
#[test]
fn fixture_binary() {
    check_all(env!("CARGO_MANIFEST_DIR"), |path, want, named| {
        let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .arg("replay")
            .arg(path)
            .output()
            .expect("run ggdesk");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        if !is_reject(want) {
            if code != Some(0) {
                return vec![format!(
                    "exit code {code:?}, expected 0 (stderr: {})",
                    stderr.trim_end()
                )];
            }
            return match serde_json::from_str::<Value>(&stdout) {
                Err(e) => vec![format!("stdout is not JSON: {e}")],
                Ok(got) => compare(want, &got),
            };
        }
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
        match named {
            Some((_, index)) => {
                let events = verdicts::events_named(&stderr);
                if events != index.into_iter().collect::<Vec<_>>() {
                    problems.push(format!(
                        "stderr names events {events:?}, expected {index:?}: {:?}",
                        stderr.trim_end()
                    ));
                }
            }
            None => problems.push("a rejection that names no fault".into()),
        }
        // The library's error, whose kind the core's test checks, is what the binary says.
        if let Ok(text) = std::fs::read_to_string(path)
            && let Err(e) = Record::from_json_str(&text).and_then(|r| replay(&r))
            && !stderr.contains(&e.to_string())
        {
            problems.push(format!(
                "stderr {:?} does not say the library's {:?}",
                stderr.trim_end(),
                e.to_string()
            ));
        }
        problems
    });
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
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("ggdesk: cannot read ") && stderr.contains("no such record.json"),
        "the message names the file it could not read: {stderr}"
    );
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
