//! The public pages in a real browser: headless Chromium (Debian's `chromium`, which
//! `.ci/run` installs) loads each page from a server on a free loopback port. The rendered
//! DOM is checked, and a phone-sized screenshot of each page is
//! written under `target/serve-shots/` for a human to look at.
//!
//! Without Chromium this test fails: it never passes without having looked.

#[path = "support/debian.rs"]
mod debian;
mod serve_support;

use serve_support::{hall, serve};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";

fn chromium() -> &'static str {
    assert!(
        debian::ensure("chromium", || Path::new(CHROMIUM).exists()),
        "{CHROMIUM} is missing: the browser test needs Debian's chromium package \
         (`apt-get install -y chromium`, as .ci/run does; run as root, the test installs it)"
    );
    CHROMIUM
}

fn shots_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is target/tmp: the screenshots go beside it.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target folder")
        .join("serve-shots");
    std::fs::create_dir_all(&dir).expect("shots folder");
    dir
}

/// Runs Chromium headless with a fresh profile and `args`; returns its standard output.
fn run(args: &[String]) -> String {
    let profile = tempfile::tempdir().expect("profile dir");
    let out = tempfile::NamedTempFile::new().expect("stdout file");
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .stdin(Stdio::null())
        .stdout(out.reopen().expect("stdout"))
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        match child.try_wait().expect("wait") {
            Some(status) => {
                assert!(status.success(), "chromium {args:?} exited with {status}");
                break;
            }
            None if Instant::now() > deadline => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("chromium {args:?} did not finish in 90 s");
            }
            None => std::thread::sleep(Duration::from_millis(100)),
        }
    }
    std::fs::read_to_string(out.path()).expect("chromium's output")
}

fn dump_dom(url: &str) -> String {
    run(&["--dump-dom".to_string(), url.to_string()])
}

/// A phone-sized screenshot (390 × 844 CSS pixels at twice the density); returns its path.
fn screenshot(url: &str, name: &str) -> PathBuf {
    let file = shots_dir().join(format!("{name}.png"));
    let _ = std::fs::remove_file(&file);
    run(&[
        format!("--screenshot={}", file.display()),
        "--window-size=390,844".into(),
        "--force-device-scale-factor=2".into(),
        url.into(),
    ]);
    file
}

/// The width and height of a PNG file (its IHDR chunk).
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "{} is not a PNG",
        path.display()
    );
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}

#[test]
fn every_page_renders_in_chromium_with_its_content_and_a_phone_screenshot() {
    let h = hall();
    let server = serve(&h.path);
    let base = format!("http://{}", server.addr());
    let t = h.tid;
    let pages: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "index",
            "/".into(),
            vec!["Tournaments", "Hall Open 2026", "round 3 of 5"],
        ),
        (
            "round",
            format!("/t/{t}"),
            vec![
                "Round 3 · by table",
                "Reyes, Ana",
                "&lt;script&gt;alert(1)&lt;/script&gt;",
                "Playing",
                "Adjudication",
                "½–½",
            ],
        ),
        (
            "names",
            format!("/t/{t}/names?q=cruz"),
            vec!["Round 3 · by name", "1 player found", "Cruz, Ben", "Table "],
        ),
        (
            "standings",
            format!("/t/{t}/standings"),
            vec!["Standings after round 2", "Buchholz", "Aquino, Lea"],
        ),
        (
            "crosstable",
            format!("/t/{t}/crosstable"),
            vec!["Cross-table after round 2", "R1", "R2"],
        ),
        (
            "player",
            format!("/t/{t}/player/1"),
            vec!["Reyes, Ana", "No. 1 · rating 2000", "Opponent", "Colour"],
        ),
        (
            "round1",
            format!("/t/{t}/round/1"),
            vec!["Round 1 · by table", "1–0", "forfeit"],
        ),
        (
            "wall",
            "/wall".into(),
            vec!["Pairings and standings on your phone", "<svg"],
        ),
    ];
    for (name, path, expect) in &pages {
        let url = format!("{base}{path}");
        let dom = dump_dom(&url);
        for text in expect {
            assert!(
                dom.contains(text),
                "{path}: {text:?} not in the rendered page:\n{dom}"
            );
        }
        // The markup in a name stays text: no script element carries it.
        assert!(!dom.contains("<script>alert(1)</script>"), "{path}:\n{dom}");
        let shot = screenshot(&url, name);
        assert_eq!(png_size(&shot), (780, 1688), "{}", shot.display());
    }
}

#[test]
fn the_search_form_is_a_plain_get_that_finds_a_name_as_the_browser_sends_it() {
    let h = hall();
    let server = serve(&h.path);
    let base = format!("http://{}", server.addr());
    let dom = dump_dom(&format!("{base}/t/{}", h.tid));
    assert!(
        dom.contains(&format!("action=\"/t/{}/names\"", h.tid))
            && dom.contains("method=\"get\"")
            && dom.contains("name=\"q\""),
        "a plain GET form: {dom}"
    );
    // What the form sends when submitted: the text as a browser encodes it.
    let dom = dump_dom(&format!("{base}/t/{}/names?q=Dizon%2C+Dan", h.tid));
    assert!(
        dom.contains("1 player found") && dom.contains("Dizon, Dan"),
        "{dom}"
    );
}
