//! Fixture records with independently derived verdicts (`tests/fixtures/records/**` of the
//! workspace, made by `tests/fixtures/gen.py` from RULES.md and spec/record.md, never from
//! the engine), and the shared examples, replayed through the library. Every verdict field
//! is compared; a rejected record must be rejected for the fault the referee names, at the
//! event it names. All disagreements are listed before the test fails. (The binary's side
//! is the root package's `tests/records.rs`.)

#[path = "../../../tests/fixtures/verdicts.rs"]
mod verdicts;

use ggdesk_core::record::{Record, replay};
use verdicts::{check_all, compare, is_reject, name, report};

#[test]
fn fixture_verdicts() {
    check_all(env!("CARGO_MANIFEST_DIR"), |path, want, named| {
        let bytes = std::fs::read(path).expect("fixture readable");
        // JSON text is UTF-8: bytes that are not are a record the library cannot even take.
        let Ok(text) = String::from_utf8(bytes) else {
            if !is_reject(want) {
                return vec!["not UTF-8 but a verdict is expected".into()];
            }
            return match named {
                Some((kind, None)) if kind == "bad_json" => Vec::new(),
                Some((kind, index)) => vec![format!(
                    "not UTF-8, which is bad JSON, but {kind} {index:?} is expected"
                )],
                None => vec!["a rejection that names no fault".into()],
            };
        };
        let result = Record::from_json_str(&text).and_then(|r| replay(&r));
        match (is_reject(want), result) {
            (true, Ok(v)) => vec![format!("expected exit 2, got verdict {}", v.to_value())],
            (true, Err(e)) => {
                let Some((kind, index)) = named else {
                    return vec![format!("a rejection that names no fault: {e}")];
                };
                let got = (e.fault().code(), e.event_index().map(|i| i as u64));
                if got == (kind.as_str(), index) {
                    return Vec::new();
                }
                vec![format!(
                    "expected {kind} at event {index:?}, got {} at event {:?} ({e})",
                    got.0, got.1
                )]
            }
            (false, Err(e)) => vec![format!("expected a verdict, got error: {e}")],
            (false, Ok(v)) => compare(want, &v.to_value()),
        }
    });
}

/// The message of a rejection names the event it gives the index of, and only then.
#[test]
fn rejection_messages_name_the_event() {
    let root = verdicts::workspace_root(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in verdicts::fixtures(&verdicts::records_dir(&root)) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Err(e) = Record::from_json_str(&text).and_then(|r| replay(&r)) else {
            continue;
        };
        checked += 1;
        let want: Vec<u64> = e.event_index().map(|i| i as u64).into_iter().collect();
        let named = verdicts::events_named(&e.to_string());
        if named != want {
            failures.push(format!(
                "{}: the message {:?} names events {named:?}, the error {want:?}",
                name(&path),
                e.to_string()
            ));
        }
    }
    assert!(checked > 80, "too few rejected fixtures: {checked}");
    report(&failures, checked);
}
