//! The architecture's boundaries, checked on the source: the core does no IO and reads no
//! clock, only `store` touches SQLite, only `ui` touches egui.

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

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
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

fn relative(path: &Path) -> String {
    path.strip_prefix(src())
        .expect("inside src")
        .to_string_lossy()
        .replace('\\', "/")
}

const CORE: [&str; 9] = [
    "rules/",
    "physical_record.rs",
    "clock.rs",
    "adjudication.rs",
    "record.rs",
    "tournament/",
    "pairing/",
    "export/",
    "sim.rs",
];

/// Every use of a forbidden text in the core's code, as "file: text".
fn core_files_containing(forbidden: &[&str]) -> Vec<String> {
    let mut bad = Vec::new();
    for path in sources(&src()) {
        let rel = relative(&path);
        if !CORE.iter().any(|c| rel.starts_with(c)) {
            continue;
        }
        let code = code_of(&path);
        for f in forbidden {
            if code.contains(f) {
                bad.push(format!("{rel}: {f}"));
            }
        }
    }
    bad
}

#[test]
fn the_core_does_no_io_and_reads_no_clock() {
    let forbidden = [
        "std::fs",
        "std::io",
        "std::net",
        "std::process",
        "SystemTime",
        "Instant::now",
        "rusqlite",
        "egui",
        "eframe",
        "println!",
        "eprintln!",
        "chrono::Local",
        "thread_rng",
        "OsRng",
    ];
    let bad = core_files_containing(&forbidden);
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn only_the_store_touches_sqlite_and_only_the_ui_touches_egui() {
    let mut bad = Vec::new();
    for path in sources(&src()) {
        let rel = relative(&path);
        let code = code_of(&path);
        if !rel.starts_with("store/") && code.contains("rusqlite") {
            bad.push(format!("{rel} uses rusqlite"));
        }
        if !rel.starts_with("ui/") && (code.contains("egui") || code.contains("eframe")) {
            bad.push(format!("{rel} uses egui"));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
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
    let bad = core_files_containing(&forbidden);
    assert!(bad.is_empty(), "{bad:#?}");
}
