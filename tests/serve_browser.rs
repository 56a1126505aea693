//! The public pages in a real browser: headless Chromium (Debian's `chromium`, which
//! `.ci/run` installs) loads each page from a server on a free loopback port. The rendered
//! DOM is checked, and a phone-sized screenshot of each page is
//! written under `target/serve-shots/` for a human to look at. And a phone-sized page stays
//! open while a result is entered at the desk: it shows the result by itself, without a
//! reload.
//!
//! Without Chromium this test fails: it never passes without having looked.

#[path = "support/debian.rs"]
mod debian;
mod serve_support;

use serde_json::{Value, json};
use serve_support::{
    director, event_with, hall, play_round_by_hand, publish_next, serve, team_cup,
};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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
            vec![
                "Reyes, Ana",
                "No. 1 · rating 2000",
                "Opponent",
                "Result",
                "title=\"White\"",
            ],
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

/// Chromium driven through its DevTools pipe (`--remote-debugging-pipe`: it reads commands
/// on descriptor 3 and writes answers on 4, each a JSON message ended by a NUL byte); a
/// shell hands it this test's pipes as 3 and 4. A watchdog ends it if the test hangs.
struct Browser {
    child: Child,
    commands: ChildStdin,
    answers: BufReader<ChildStdout>,
    next_id: u64,
    done: Arc<AtomicBool>,
    _profile: tempfile::TempDir,
}

impl Browser {
    fn start() -> Browser {
        let profile = tempfile::tempdir().expect("profile dir");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(r#"exec "$0" "$@" 3<&0 4>&1 0</dev/null 1>/dev/null"#)
            .arg(chromium())
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
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let commands = child.stdin.take().expect("stdin");
        let answers = BufReader::new(child.stdout.take().expect("stdout"));
        let done = Arc::new(AtomicBool::new(false));
        let (pid, watch) = (child.id(), done.clone());
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(240);
            while Instant::now() < deadline {
                if watch.load(Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
            // The browser this test started, by its id.
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        });
        Browser {
            child,
            commands,
            answers,
            next_id: 0,
            done,
            _profile: profile,
        }
    }

    /// Sends a command (to a page's session, if given) and returns its result; the events
    /// that come meanwhile are passed over.
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.commands
            .write_all(&bytes)
            .expect("a command to chromium");
        loop {
            let mut buf = Vec::new();
            let n = self
                .answers
                .read_until(0, &mut buf)
                .expect("chromium's answer");
            assert!(n > 0, "chromium closed its pipe during {method}");
            buf.pop();
            let answer: Value = serde_json::from_slice(&buf).expect("a JSON answer");
            if answer["id"] == id {
                assert!(answer.get("error").is_none(), "{method}: {answer}");
                return answer["result"].clone();
            }
        }
    }

    /// A new page of `width` × `height` CSS pixels at `scale` (a phone when `mobile`); its
    /// session.
    fn page(&mut self, width: u32, height: u32, scale: u32, mobile: bool) -> String {
        let target = self.call(None, "Target.createTarget", json!({"url": "about:blank"}));
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        let session = attached["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        self.call(
            Some(&session),
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile}),
        );
        session
    }

    /// The page's screenshot, written as `NAME.png` beside the others; its path.
    fn screenshot(&mut self, session: &str, name: &str) -> PathBuf {
        let shot = self.call(
            Some(session),
            "Page.captureScreenshot",
            json!({"format": "png"}),
        );
        let file = shots_dir().join(format!("{name}.png"));
        std::fs::write(&file, base64(shot["data"].as_str().expect("a picture"))).expect("write");
        file
    }

    /// Evaluates `expression` in the page and returns its value.
    fn eval(&mut self, session: &str, expression: &str) -> Value {
        let r = self.call(
            Some(session),
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        r["result"]["value"].clone()
    }

    /// Evaluates `expression` every 100 ms until it is true, for at most 60 s.
    fn eval_until(&mut self, session: &str, what: &str, expression: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.eval(session, expression) != json!(true) {
            assert!(Instant::now() < deadline, "waited 60 s in vain for: {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn close(mut self) {
        let _ = self.call(None, "Browser.close", json!({}));
        let _ = self.child.wait();
        self.done.store(true, Ordering::SeqCst);
    }
}

/// Standard base64, as DevTools sends a screenshot.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            other => panic!("not base64: {other}"),
        }
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for group in digits.chunks(4) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &c)| n | value(c) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..group.len()]);
    }
    out
}

/// A script for the page: whether table `table`'s row shows `text`.
fn row_shows(table: u32, text: &str) -> String {
    format!(
        "Array.from(document.querySelectorAll('ul.list > li')).some(function (li) {{ \
           var n = li.querySelector('.tno'); \
           return !!n && n.lastChild.textContent === '{table}' && \
             li.querySelector('.st').textContent.indexOf('{text}') >= 0; }})"
    )
}

#[test]
fn an_open_page_on_a_phone_shows_a_result_entered_at_the_desk_without_reloading() {
    let h = hall();
    let server = serve(&h.path);
    let url = format!("http://{}/t/{}", server.addr(), h.tid);
    let mut browser = Browser::start();
    let session = browser.page(390, 844, 2, true);
    browser.call(Some(&session), "Page.navigate", json!({"url": url}));
    browser.eval_until(&session, "the round in play shown", &row_shows(5, "½–½"));
    // A mark a reload would wipe out.
    browser.eval(&session, "window.keptSinceLoad = 'yes'");
    // The director corrects table 5: White won.
    let mut desk = ggdesk::store::Store::open(&h.path).expect("desk");
    let board = desk
        .round_view(h.tid, h.round)
        .expect("view")
        .expect("round")
        .boards
        .iter()
        .find(|b| b.table == ggdesk::tournament::TableNo(5))
        .expect("table 5")
        .board;
    desk.set_result(
        h.tid,
        h.round,
        board,
        ggdesk::tournament::GameResult::WhiteWins,
        "correction",
        &director(),
    )
    .expect("result");
    browser.eval_until(&session, "table 5 shows 1–0", &row_shows(5, "1–0"));
    assert_eq!(
        browser.eval(&session, "window.keptSinceLoad"),
        json!("yes"),
        "the page was reloaded instead of updated"
    );
    let file = browser.screenshot(&session, "live-update");
    assert_eq!(png_size(&file), (780, 1688), "{}", file.display());
    browser.close();
}

/// The hall display (issue 34, item 4): at 1920×1080 a slide shows at least 20 pairing
/// lines in type of at least 28 px, and the slides move on by themselves.
#[test]
fn the_hall_display_shows_twenty_pairing_lines_in_large_type_and_moves_on() {
    let names: Vec<String> = (1..=30).map(|i| format!("Player {i:02}, Hall")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let (_dir, path, mut store, tid) = event_with(&refs, 5);
    let round = publish_next(&mut store, tid);
    drop(store);
    let server = serve(&path);
    let url = format!("http://{}/t/{}/hall?every=2", server.addr(), tid);
    let mut browser = Browser::start();
    let session = browser.page(1920, 1080, 1, false);
    browser.call(Some(&session), "Page.navigate", json!({"url": url}));
    browser.eval_until(
        &session,
        "the first slide shown",
        "document.documentElement.getAttribute('data-slide') === '0'",
    );
    // Every line of the slide on the screen, in type of 28 px or more.
    let lines = "Array.from(document.querySelectorAll('.slide.on li')).filter(function (li) { \
                   var r = li.getBoundingClientRect(); \
                   return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && \
                     parseFloat(getComputedStyle(li).fontSize) >= 28; }).length";
    let shown = browser.eval(&session, lines);
    assert!(
        shown.as_u64().is_some_and(|n| n >= 20),
        "{shown} pairing lines on the screen"
    );
    let title = browser.eval(
        &session,
        "document.querySelector('.slide.on h2').textContent",
    );
    assert_eq!(
        title,
        json!(format!("Round {round} · pairings by name (1/2)")),
        "30 players, 22 lines a slide"
    );
    let file = browser.screenshot(&session, "hall");
    assert_eq!(png_size(&file), (1920, 1080), "{}", file.display());
    // It moves on by itself (every 2 s here).
    browser.eval_until(
        &session,
        "the next slide",
        "document.documentElement.getAttribute('data-slide') === '1'",
    );
    let title = browser.eval(
        &session,
        "document.querySelector('.slide.on h2').textContent",
    );
    assert_eq!(
        title,
        json!(format!("Round {round} · pairings by name (2/2)"))
    );
    browser.close();
}

/// The player's phone (issue 34, items 1-3, 6): "This is me" follows a player on this phone;
/// their page shows their new board by itself when the round is published (`ggdesk round
/// TID publish`), with no reload, and its title says where they sit; the standings page
/// carries their board in a banner; the page fits 390 pixels; with scripts off the page
/// shows the same board after a reload.
#[test]
fn a_followed_players_page_shows_the_new_round_by_itself_and_the_banner_follows() {
    let names = [
        "Reyes, Ana",
        "Cruz, Ben",
        "Santos, Carla",
        "Dizon, Dan",
        "Lim, Eva",
        "Uy, Fe",
    ];
    let (_dir, path, mut store, tid) = event_with(&names, 3);
    let first = publish_next(&mut store, tid);
    play_round_by_hand(&mut store, tid, first);
    drop(store);
    let server = serve(&path);
    let page = format!("http://{}/t/{}/player/1", server.addr(), tid);
    let mut browser = Browser::start();
    let session = browser.page(390, 844, 2, true);
    let shot = |browser: &mut Browser, name: &str| {
        let file = browser.screenshot(&session, name);
        assert_eq!(png_size(&file), (780, 1688), "{}", file.display());
    };
    browser.call(Some(&session), "Page.navigate", json!({"url": page}));
    browser.eval_until(
        &session,
        "the follow button shown",
        "!!document.getElementById('follow') && !document.getElementById('follow').hidden",
    );
    // No sideways scrolling on a 390-pixel phone.
    assert_eq!(
        browser.eval(
            &session,
            "document.documentElement.scrollWidth <= window.innerWidth"
        ),
        json!(true),
        "the player's page scrolls sideways"
    );
    browser.eval(&session, "document.getElementById('follow').click()");
    assert_eq!(
        browser.eval(&session, "localStorage.getItem('ggdesk-follow')"),
        json!(format!("{tid}/1"))
    );
    browser.eval_until(
        &session,
        "Alert me offered",
        "!document.getElementById('alert').hidden",
    );
    shot(&mut browser, "phone-player-before");
    let before_title = browser.eval(&session, "document.title");
    browser.eval(&session, "window.keptSinceLoad = 'yes'");
    // The director pairs and publishes round 2 from the command line.
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .arg("--db")
            .arg(&path)
            .arg("round")
            .arg(tid.0.to_string())
            .args(args)
            .output()
            .expect("ggdesk round");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&["pair"]);
    run(&["publish"]);
    browser.eval_until(
        &session,
        "round 2 on the followed player's page",
        "!!document.querySelector('.now[data-round=\"2\"]')",
    );
    assert_eq!(
        browser.eval(&session, "window.keptSinceLoad"),
        json!("yes"),
        "the page was reloaded instead of updated"
    );
    let title = browser.eval(&session, "document.title");
    assert_ne!(title, before_title);
    assert!(
        title.as_str().is_some_and(|t| t.starts_with("Table ")),
        "{title}"
    );
    shot(&mut browser, "phone-player-after");
    let now = browser.eval(&session, "document.querySelector('.now').textContent");
    // The standings page: the followed player's board in the banner at the top.
    let standings = format!("http://{}/t/{}/standings", server.addr(), tid);
    browser.call(Some(&session), "Page.navigate", json!({"url": standings}));
    browser.eval_until(
        &session,
        "the banner on the standings page",
        "!!document.getElementById('me') && \
         document.getElementById('me').textContent.indexOf('Round 2: Table') >= 0",
    );
    let banner = browser.eval(&session, "document.getElementById('me').textContent");
    assert_eq!(
        banner,
        json!(format!(
            "Reyes, Ana · {}",
            now.as_str().expect("the board's words")
        ))
    );
    // Scripts off: the page itself shows the same board after a reload.
    browser.call(
        Some(&session),
        "Emulation.setScriptExecutionDisabled",
        json!({"value": true}),
    );
    browser.call(Some(&session), "Page.navigate", json!({"url": page}));
    browser.eval_until(
        &session,
        "the board without scripts",
        &format!(
            "!!document.querySelector('.now') && \
             document.querySelector('.now').textContent === {now}"
        ),
    );
    assert_eq!(
        browser.eval(&session, "document.getElementById('follow').hidden"),
        json!(true),
        "without scripts there is nothing to follow with"
    );
    browser.close();
}

/// The player's phone in a team event (issue 34, items 1-3 for team events): a followed
/// team player's page, left open on a 390-pixel phone, shows their new table, board,
/// colour and opponent by itself when the director publishes the next round of the team
/// event in the database, with no reload, and its title says it; the standings page carries
/// the same board in the banner; without scripts the page shows it after a reload.
#[test]
fn a_followed_team_players_page_shows_the_new_board_when_the_round_is_published() {
    use ggdesk::store::Store;
    use ggdesk::tournament::{GameResult, TableNo};
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("teams.sqlite3");
    let mut store = Store::open(&path).expect("store");
    let tid = team_cup(&mut store);
    // Round 1 played: the Tigers win both boards, the Sharks have the bye.
    let first = store.pair_team_round(tid, &director()).expect("paired");
    store
        .publish_team_round(tid, first, &director())
        .expect("published");
    for (table, result) in [(1, GameResult::WhiteWins), (2, GameResult::BlackWins)] {
        store
            .set_team_board_result(tid, first, TableNo(table), result, &director())
            .expect("result");
    }
    let server = serve(&path);
    // Dizon, Dan: board 2 of the Tondo Tigers.
    let page = format!("http://{}/t/{}/player/2", server.addr(), tid);
    let mut browser = Browser::start();
    let session = browser.page(390, 844, 2, true);
    let shot = |browser: &mut Browser, name: &str| {
        let file = browser.screenshot(&session, name);
        assert_eq!(png_size(&file), (780, 1688), "{}", file.display());
    };
    browser.call(Some(&session), "Page.navigate", json!({"url": page}));
    browser.eval_until(
        &session,
        "the follow button shown",
        "!!document.getElementById('follow') && !document.getElementById('follow').hidden",
    );
    assert_eq!(
        browser.eval(&session, "document.querySelector('.now').textContent"),
        json!("Round 1: Table 2 · Board 2 · Black · vs Santos, Eve (Cebu Colonels) · 0–1")
    );
    assert_eq!(
        browser.eval(&session, "document.title"),
        json!("Table 2 · Board 2 · Black · vs Santos (Cebu Colonels) · Team Cup")
    );
    assert_eq!(
        browser.eval(
            &session,
            "document.documentElement.scrollWidth <= window.innerWidth"
        ),
        json!(true),
        "the team player's page scrolls sideways"
    );
    browser.eval(&session, "document.getElementById('follow').click()");
    assert_eq!(
        browser.eval(&session, "localStorage.getItem('ggdesk-follow')"),
        json!(format!("{tid}/2"))
    );
    browser.eval_until(
        &session,
        "Alert me offered",
        "!document.getElementById('alert').hidden",
    );
    shot(&mut browser, "phone-team-player-before");
    browser.eval(&session, "window.keptSinceLoad = 'yes'");

    // The director pairs and publishes round 2 at the desk.
    let second = store.pair_team_round(tid, &director()).expect("paired");
    store
        .publish_team_round(tid, second, &director())
        .expect("published");
    drop(store);
    browser.eval_until(
        &session,
        "round 2 on the followed team player's page",
        "!!document.querySelector('.now[data-round=\"2\"]')",
    );
    assert_eq!(
        browser.eval(&session, "window.keptSinceLoad"),
        json!("yes"),
        "the page was reloaded instead of updated"
    );
    let now = browser.eval(&session, "document.querySelector('.now').textContent");
    assert_eq!(
        now,
        json!("Round 2: Table 2 · Board 2 · Black · vs Go, Gil (Davao Sharks) · Awaiting result")
    );
    assert_eq!(
        browser.eval(&session, "document.title"),
        json!("Table 2 · Board 2 · Black · vs Go (Davao Sharks) · Team Cup")
    );
    assert_eq!(
        browser.eval(
            &session,
            "document.documentElement.scrollWidth <= window.innerWidth"
        ),
        json!(true),
        "the team player's page scrolls sideways after the update"
    );
    shot(&mut browser, "phone-team-player-after");

    // The standings page: the followed player's board in the banner at the top.
    let standings = format!("http://{}/t/{}/standings", server.addr(), tid);
    browser.call(Some(&session), "Page.navigate", json!({"url": standings}));
    let banner = format!("Dizon, Dan · {}", now.as_str().expect("the board's words"));
    browser.eval_until(
        &session,
        "the banner on the standings page",
        &format!(
            "!!document.getElementById('me') && \
             document.getElementById('me').textContent === {}",
            json!(banner)
        ),
    );
    // Scripts off: the page itself shows the same board after a reload.
    browser.call(
        Some(&session),
        "Emulation.setScriptExecutionDisabled",
        json!({"value": true}),
    );
    browser.call(Some(&session), "Page.navigate", json!({"url": page}));
    browser.eval_until(
        &session,
        "the board without scripts",
        &format!(
            "!!document.querySelector('.now') && \
             document.querySelector('.now').textContent === {now}"
        ),
    );
    assert_eq!(
        browser.eval(&session, "document.getElementById('follow').hidden"),
        json!(true),
        "without scripts there is nothing to follow with"
    );
    // The hall display of the team event at 1920×1080: the round's match first, in large
    // type, then the team standings, by itself.
    let hall = browser.page(1920, 1080, 1, false);
    let url = format!("http://{}/t/{}/hall?every=2", server.addr(), tid);
    browser.call(Some(&hall), "Page.navigate", json!({"url": url}));
    browser.eval_until(
        &hall,
        "the first slide shown",
        "document.documentElement.getAttribute('data-slide') === '0'",
    );
    assert_eq!(
        browser.eval(&hall, "document.querySelector('.slide.on h2').textContent"),
        json!("Round 2 · Swiss")
    );
    assert_eq!(
        browser.eval(
            &hall,
            "Array.from(document.querySelectorAll('.slide.on li')).map(function (li) { \
               return parseFloat(getComputedStyle(li).fontSize) >= 28 ? li.textContent : ''; })"
        ),
        json!([
            "Match 1Tondo Tigers – Davao Sharks0–0",
            "Table 11. Reyes, Ana – Uy, Fay…",
            "Table 22. Go, Gil – Dizon, Dan…",
            "ByeCebu Colonels"
        ])
    );
    let file = browser.screenshot(&hall, "hall-team");
    assert_eq!(png_size(&file), (1920, 1080), "{}", file.display());
    browser.eval_until(
        &hall,
        "the next slide",
        "document.documentElement.getAttribute('data-slide') === '1'",
    );
    assert_eq!(
        browser.eval(&hall, "document.querySelector('.slide.on h2').textContent"),
        json!("Team standings · Swiss")
    );
    // The browser follows a player (this profile's storage), but the hall's screen is
    // everyone's: no banner there.
    assert_eq!(
        browser.eval(&hall, "!!document.getElementById('me')"),
        json!(false),
        "the hall's screen shows no followed player's banner"
    );
    browser.close();
}
