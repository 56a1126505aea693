//! Printing and "Open folder" start `xdg-open`; the desk waits for it when it ends, so no
//! zombie process stays behind (issue 23, item 6). `true` stands in for `xdg-open`.

use ggdesk::ui::files::Launcher;
use std::path::Path;
use std::time::{Duration, Instant};

/// The state letter of a process (`Z` for a zombie), or `None` once it is gone.
fn state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the name in parentheses (which may hold spaces): " S ...".
    let after = &stat[stat.rfind(')')? + 1..];
    after.trim_start().chars().next()
}

#[test]
fn the_program_that_opens_a_file_is_reaped_when_it_ends() {
    let launcher = Launcher::Program("true".into());
    let mut pids = Vec::new();
    for _ in 0..3 {
        let pid = launcher
            .start(Path::new("/tmp"))
            .expect("started")
            .expect("a process");
        pids.push(pid);
    }
    // Each is gone once it ended (a zombie would stay as `Z` until reaped): awaited for up to
    // 30 s on a loaded machine.
    let deadline = Instant::now() + Duration::from_secs(30);
    for pid in pids {
        loop {
            match state(pid) {
                None => break,
                Some(s) => assert!(
                    Instant::now() < deadline,
                    "process {pid} is still there in state {s} after 30 s (not reaped)"
                ),
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn a_program_that_cannot_start_is_an_error_not_a_process() {
    let launcher = Launcher::Program("/nonexistent/xdg-open".into());
    let started = launcher.start(Path::new("/tmp")).map_err(|e| e.kind());
    assert_eq!(started, Err(std::io::ErrorKind::NotFound));
    assert!(!launcher.open(Path::new("/tmp")));
}
