//! The architecture's boundaries that the crates themselves cannot state.
//!
//! The core is its own crate (`crates/ggdesk-core`): its manifest decides which libraries it
//! can reach, so a database, a UI toolkit or a clock-reading crate cannot creep in without a
//! change to that manifest, which the first test pins. The standard library is always
//! reachable, so the second test scans the core's code for IO, clocks and process state,
//! grouped imports (`use std::{fs, io}`) included. Inside the shell, only `store` touches a
//! database and only `ui` touches egui.

use std::path::{Path, PathBuf};

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn core_src() -> PathBuf {
    root().join("crates/ggdesk-core/src")
}

/// The code of a file without its comments and test modules, so that documentation may
/// mention what the code must not use.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("read source");
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn relative(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .expect("inside the folder")
        .to_string_lossy()
        .replace('\\', "/")
}

/// The dependency names of a manifest's `[dependencies]` table.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && let Some((name, _)) = line.split_once('=') {
            out.push(name.trim().to_string());
        }
    }
    out
}

#[test]
fn the_core_manifest_reaches_no_database_ui_clock_or_os_randomness() {
    let manifest =
        std::fs::read_to_string(root().join("crates/ggdesk-core/Cargo.toml")).expect("manifest");
    let allowed = [
        "serde",
        "serde_json",
        "thiserror",
        "csv",
        "integer-blossom",
        "skillratings",
    ];
    let deps = dependencies(&manifest);
    assert!(deps.contains(&"serde_json".to_string()), "{deps:?}");
    let extra: Vec<_> = deps
        .iter()
        .filter(|d| !allowed.contains(&d.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "the core may not depend on {extra:?}: it does no IO and reads no clock"
    );
}

/// The modules of `std` the core may not name, however they are imported.
const FORBIDDEN_STD: [&str; 7] = ["fs", "io", "net", "process", "env", "thread", "time"];

/// Every `std::` path the code names, with grouped imports expanded to their first segment:
/// `use std::{fs, io::Write}` gives `fs` and `io`.
fn std_modules(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("std::") {
        rest = &rest[i + 5..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let first = item.trim().split("::").next().unwrap_or("").trim();
                out.push(first.to_string());
            }
        } else {
            let first: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(first);
        }
    }
    out
}

#[test]
fn the_core_does_no_io_and_reads_no_clock() {
    let mut bad = Vec::new();
    for path in sources(&core_src()) {
        let rel = relative(&path, &core_src());
        let code = code_of(&path);
        for m in std_modules(&code) {
            if FORBIDDEN_STD.contains(&m.as_str()) {
                bad.push(format!("{rel}: std::{m}"));
            }
        }
        for f in [
            "println!",
            "eprintln!",
            "print!(",
            "dbg!(",
            "SystemTime",
            "Instant",
        ] {
            if code.contains(f) {
                bad.push(format!("{rel}: {f}"));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn the_scan_sees_grouped_imports() {
    let code = "use std::{fmt, fs, io::Write};\nfn f() { std::thread::sleep(d) }";
    let found = std_modules(code);
    assert_eq!(found, ["fmt", "fs", "io", "thread"]);
}

#[test]
fn the_core_has_no_unwrap_or_panic() {
    let forbidden = [
        ".unwrap()",
        ".expect(",
        "panic!(",
        "unreachable!(",
        "todo!(",
        "unimplemented!(",
    ];
    let mut bad = Vec::new();
    for path in sources(&core_src()) {
        let code = code_of(&path);
        for f in forbidden {
            if code.contains(f) {
                bad.push(format!("{}: {f}", relative(&path, &core_src())));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn only_the_store_touches_a_database_and_only_the_ui_touches_egui() {
    let src = root().join("src");
    let mut bad = Vec::new();
    for path in sources(&src) {
        let rel = relative(&path, &src);
        let code = code_of(&path);
        let database = code.contains("rusqlite") || code.contains("postgres::");
        if !rel.starts_with("store/") && database {
            bad.push(format!("{rel} uses a database client"));
        }
        if !rel.starts_with("ui/") && (code.contains("egui") || code.contains("eframe")) {
            bad.push(format!("{rel} uses egui"));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Issue 31: `print!` and `println!` panic when the reader of standard output has closed
/// the pipe (`ggdesk standings FILE | head -1`). The binary and its commands print through
/// `cli::say` and `cli::out`, which end the command quietly instead.
#[test]
fn the_commands_print_only_through_say() {
    let mut files = sources(&root().join("src/cli"));
    files.push(root().join("src/main.rs"));
    let mut bad = Vec::new();
    for path in files {
        let code = code_of(&path);
        let printing = code.match_indices("print").any(|(i, _)| {
            let after = &code[i + "print".len()..];
            let before = code[..i].chars().next_back();
            (after.starts_with("ln!") || after.starts_with('!'))
                && !before.is_some_and(|c| c == 'e' || c.is_alphanumeric() || c == '_')
        });
        if printing {
            bad.push(relative(&path, &root()));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
