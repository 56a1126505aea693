//! The Debian packages some tests need (the PostgreSQL server, Chromium, strace): installed
//! when missing and the tests run as root, as `.ci/run` does first anyway; otherwise the
//! test stops and says what to install.
#![allow(dead_code)]

use std::process::{Command, Stdio};
use std::sync::Mutex;

/// One install at a time in a test process (apt takes a lock of its own).
static APT: Mutex<()> = Mutex::new(());

/// Whether this process runs as root.
pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Whether `package` is there (`present`), after installing it when it was not and this
/// process may. A fresh machine has no package lists: they are fetched when the first
/// install fails.
pub fn ensure(package: &str, present: impl Fn() -> bool) -> bool {
    let _one_at_a_time = APT.lock().unwrap_or_else(|e| e.into_inner());
    if present() {
        return true;
    }
    if !is_root() {
        return false;
    }
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let install = ["install", "-y", "-qq", "--no-install-recommends", package];
    if !apt(&install) {
        apt(&["update", "-qq"]);
        apt(&install);
    }
    present()
}
