//! Waiting for an event, not for a time: a test that needs something to happen (a listener
//! connected, a notice arrived, a server streaming) checks for it again and again, and fails
//! only after a bound generous enough for a loaded 2-core machine, saying what it waited
//! for. The bound keeps a broken test from hanging; it is never what the test measures.
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// How long a test waits for something before it calls it missing: far beyond what any
/// event takes on a busy machine (a second or two), short enough to fail a broken run.
pub const BOUND: Duration = Duration::from_secs(90);

/// How often the condition is checked again.
const EVERY: Duration = Duration::from_millis(20);

/// Returns once `done()` holds; panics after [`BOUND`] naming `what` was awaited.
pub fn until(what: &str, done: impl FnMut() -> bool) {
    until_or(what, done, String::new);
}

/// As [`until`], and the panic also says what `seen()` describes (the state at the end).
pub fn until_or(what: &str, mut done: impl FnMut() -> bool, seen: impl FnOnce() -> String) {
    let deadline = Instant::now() + BOUND;
    loop {
        if done() {
            return;
        }
        if Instant::now() >= deadline {
            let seen = seen();
            let sep = if seen.is_empty() { "" } else { ": " };
            panic!("waited {BOUND:?} for {what}, in vain{sep}{seen}");
        }
        std::thread::sleep(EVERY);
    }
}

/// The first `Some` that `next()` gives; panics after [`BOUND`] naming `what`.
pub fn for_value<T>(what: &str, mut next: impl FnMut() -> Option<T>) -> T {
    let mut found = None;
    until(what, || {
        found = next();
        found.is_some()
    });
    found.expect("until returned, so a value was found")
}
