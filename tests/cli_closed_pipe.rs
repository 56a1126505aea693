//! Issue 31, section 3: `ggdesk standings FILE | head -1` panicked with a backtrace when
//! `head` closed the pipe. Every command that prints ends quietly when its reader goes:
//! nothing on standard error and exit 0 (as `head` expects: it took what it wanted).
//!
//! Each command here prints far more than a pipe holds (64 KiB), so after the test reads one
//! line and closes its end, the command still has to write: it meets the closed pipe.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// A tournament file of `n` players and no round yet.
fn players(n: u32) -> tempfile::NamedTempFile {
    let players: Vec<Value> = (1..=n)
        .map(|i| json!({"id": i, "name": format!("Player number {i}"), "rating": 1000 + i % 900}))
        .collect();
    let file = json!({
        "format": "ggdesk-tournament/1",
        "name": "Many players",
        "settings": {"system": "swiss", "rounds": 5},
        "players": players,
        "rounds": []
    });
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(file.to_string().as_bytes()).expect("write");
    f
}

/// Each command, and how its first line starts.
fn commands<'a>(many: &'a str, pairable: &'a str) -> [(Vec<&'a str>, &'static str); 4] {
    [
        (vec!["standings", many], "["),
        (vec!["standings", "--csv", many], "rank,id,name,"),
        (vec!["crosstable", many], "rank,id,name,"),
        (
            vec!["pair", "--explain", pairable],
            "Round 1 (Swiss): 2000 players paired",
        ),
    ]
}

/// Runs `ggdesk ARGS`, reads its first line, closes the pipe, and waits for the command:
/// the line, the exit code and standard error.
fn first_line_then_close(args: &[&str]) -> (String, Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut reader = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    reader.read_line(&mut line).expect("a first line");
    drop(reader);
    let output = child.wait_with_output().expect("finishes");
    (
        line,
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_closed_output_ends_every_printing_command_quietly() {
    let many = players(6000);
    let many = many.path().to_str().expect("UTF-8 path");
    // Pairing is refused past 2000 players.
    let pairable = players(2000);
    let pairable = pairable.path().to_str().expect("UTF-8 path");
    for (args, first) in commands(many, pairable) {
        let (line, code, stderr) = first_line_then_close(&args);
        assert!(line.starts_with(first), "{args:?}: first line {line:?}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("backtrace"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr, "", "{args:?}: nothing on standard error");
        assert_eq!(code, Some(0), "{args:?}: exit 0, as head expects");
    }
}

/// What the test above relies on: each command prints more than twice what a pipe holds
/// (64 KiB), so it is still writing when the test has read its first line and closed the
/// pipe.
#[test]
fn the_commands_above_print_more_than_a_pipe_holds() {
    let many = players(6000);
    let many = many.path().to_str().expect("UTF-8 path");
    let pairable = players(2000);
    let pairable = pairable.path().to_str().expect("UTF-8 path");
    for (args, _) in commands(many, pairable) {
        let output = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .args(&args)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        assert!(
            output.stdout.len() > 2 * 65536,
            "{args:?}: {} bytes",
            output.stdout.len()
        );
    }
}
