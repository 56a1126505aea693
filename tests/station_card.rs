//! Issue 32: `station add NAME --tournament TID --card FILE.pdf` on an event `ggdesk host`
//! runs writes the card to print, readable by its owner only: the station, the address, the
//! secret the command printed and the QR code of the card's link, module by module. A card
//! whose extension names no format (PNG is not made yet), or a station that cannot be made,
//! writes nothing and makes nothing; `station reset --card` writes the new secret's card.

#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;
#[path = "support/wait.rs"]
mod wait;

use ggdesk::serve::qr::QrMatrix;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, channel};

/// A running `ggdesk host` and the lines it printed (as in `tests/host.rs`).
struct Hosted {
    child: Child,
    lines: Receiver<String>,
    printed: Vec<String>,
}

impl Hosted {
    /// Starts `host` on DIR and waits for its `ready`.
    fn start(dir: &Path, port: u16) -> Hosted {
        pg::bin_dir();
        let mut c = Command::new(env!("CARGO_BIN_EXE_ggdesk"));
        c.arg("host")
            .arg(dir)
            .args(["--listen", "127.0.0.1", "--port"])
            .arg(port.to_string())
            .arg("--station-port")
            .arg(pg::free_port().to_string())
            .arg("--pages-port")
            .arg(pg::free_port().to_string());
        if pg::debian::is_root() {
            c.args(["--user", "postgres"]);
        }
        let mut child = c
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run ggdesk host");
        let out = child.stdout.take().expect("its output");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut hosted = Hosted {
            child,
            lines,
            printed: Vec::new(),
        };
        loop {
            match hosted.lines.recv_timeout(wait::BOUND) {
                Ok(line) => {
                    let done = line == "ready";
                    hosted.printed.push(line);
                    if done {
                        return hosted;
                    }
                }
                Err(_) => {
                    let _ = hosted.child.kill();
                    let mut err = String::new();
                    if let Some(mut e) = hosted.child.stderr.take() {
                        let _ = e.read_to_string(&mut err);
                    }
                    panic!(
                        "ggdesk host did not print ready; it printed {:?}, and on stderr: {err}",
                        hosted.printed
                    );
                }
            }
        }
    }

    /// The value of the printed line `key: value`.
    fn printed(&self, key: &str) -> String {
        let prefix = format!("{key}: ");
        self.printed
            .iter()
            .find_map(|l| l.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("no {key} line in {:?}", self.printed))
            .to_string()
    }

    /// Sends SIGTERM and waits for the exit.
    fn terminate(mut self) -> i32 {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success());
        let status = self.child.wait().expect("wait for host");
        status.code().unwrap_or(-1)
    }
}

fn ggdesk(url: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["--db", url])
        .args(args)
        .output()
        .expect("run ggdesk")
}

/// The value of the card's printed line `key: value`.
fn line(out: &Output, key: &str) -> String {
    let prefix = format!("{key}: ");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix(&prefix).map(str::to_string))
        .unwrap_or_else(|| panic!("no {key} line in {out:?}"))
}

/// The dark modules the card's rectangles cover, as (column, row) of the code: the code's
/// top left module is dark (a finder pattern), so the leftmost and highest edges are its
/// corner, and every rectangle is one module high.
fn drawn_modules(pdf: &str) -> BTreeSet<(usize, usize)> {
    let rects: Vec<[f64; 4]> = pdf
        .lines()
        .filter_map(|l| l.strip_suffix(" re"))
        .map(|l| {
            let v: Vec<f64> = l.split(' ').map(|n| n.parse().expect("a number")).collect();
            assert_eq!(v.len(), 4, "{l}");
            [v[0], v[1], v[2], v[3]]
        })
        .collect();
    assert!(!rects.is_empty(), "the card draws a QR code");
    let module = rects[0][3];
    assert!(rects.iter().all(|r| (r[3] - module).abs() < 1e-9));
    let left = rects.iter().map(|r| r[0]).fold(f64::MAX, f64::min);
    let top = rects.iter().map(|r| r[1] + r[3]).fold(f64::MIN, f64::max);
    let mut dark = BTreeSet::new();
    for [x, y, w, _] in rects {
        let col = ((x - left) / module).round() as usize;
        let row = ((top - y - module) / module).round() as usize;
        let run = (w / module).round() as usize;
        for c in col..col + run {
            assert!(dark.insert((c, row)), "module {c},{row} drawn twice");
        }
    }
    dark
}

fn group_in_fours(secret: &str) -> Vec<String> {
    let groups: Vec<String> = secret
        .as_bytes()
        .chunks(4)
        .map(|g| String::from_utf8_lossy(g).into_owned())
        .collect();
    groups.chunks(4).map(|l| l.join(" ")).collect()
}

fn assert_card(file: &Path, station: &str, stations: &str, secret: &str, fp16: &str) {
    let mode = std::fs::metadata(file)
        .expect("the card")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "the card holds the secret");
    let bytes = std::fs::read(file).expect("read the card");
    assert!(bytes.starts_with(b"%PDF-1.4\n") && bytes.ends_with(b"%%EOF\n"));
    let pdf = String::from_utf8_lossy(&bytes);
    let link = format!("{stations}{station}");
    let mut want = vec![
        format!("({station}) Tj"),
        format!("({stations}) Tj"),
        format!("(sha256:{fp16}) Tj"),
        format!("({link}) Tj"),
    ];
    want.extend(group_in_fours(secret).iter().map(|l| format!("({l}) Tj")));
    for w in want {
        assert!(pdf.contains(&w), "{w} on the card");
    }
    let qr = QrMatrix::new(&link).expect("the link's code");
    let expected: BTreeSet<(usize, usize)> = (0..qr.width)
        .flat_map(|y| (0..qr.width).map(move |x| (x, y)))
        .filter(|&(x, y)| qr.is_dark(x, y))
        .collect();
    assert_eq!(drawn_modules(&pdf), expected, "the QR code of {link}");
}

fn dir_for(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ggh-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn station_add_with_a_card_writes_a_private_pdf_with_the_secret_and_the_links_qr_code() {
    let dir = dir_for("cardpdf");
    let host = Hosted::start(&dir, pg::free_port());
    let url = host.printed("director");
    let stations = host.printed("stations");
    let cards = tempfile::tempdir().expect("a folder for the cards");
    let mut director = ggdesk::store::Store::connect(&ggdesk::store::Address::Server(url.clone()))
        .expect("the director connects over TLS");
    let tid = trust::tournament(&mut director, "c", 4).0.to_string();

    // An extension that names no format: exit 2 naming .pdf, before anything is made.
    for name in ["card.txt", "card.png", "card"] {
        let file = cards.path().join(name);
        let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .args([
                "--db",
                &url,
                "station",
                "add",
                "hall-b",
                "--tournament",
                &tid,
            ])
            .arg("--card")
            .arg(&file)
            .output()
            .expect("run ggdesk");
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("FILE.pdf"),
            "{out:?}"
        );
        assert!(!file.exists());
        assert!(out.stdout.is_empty(), "no card printed: {out:?}");
    }
    // A station needs its tournament, card or not: no card is written.
    let no_tournament = cards.path().join("no-tournament.pdf");
    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["--db", &url, "station", "add", "hall-b", "--card"])
        .arg(&no_tournament)
        .output()
        .expect("run ggdesk");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "ggdesk: a station needs its tournament: add it with --tournament TID, on a server \
         `ggdesk host` runs, which prints its card (a station speaks to that server with the \
         card's secret and never logs into the database)\n"
    );
    assert!(!no_tournament.exists());

    let pdf = cards.path().join("hall-a.pdf");
    let pdf_arg = pdf.to_str().expect("a UTF-8 path");
    let out = ggdesk(
        &url,
        &[
            "station",
            "add",
            "hall-a",
            "--tournament",
            &tid,
            "--tables",
            "1-2",
            "--card",
            pdf_arg,
        ],
    );
    assert!(out.status.success(), "{out:?}");
    let secret = line(&out, "secret");
    let fp16 = line(&out, "authority")
        .strip_prefix("sha256:")
        .expect("sha256:")
        .to_string();
    assert_eq!(line(&out, "address"), stations);
    assert_card(&pdf, "hall-a", &stations, &secret, &fp16);

    // The station made, a second one of that name cannot be: its card is not written.
    let again = cards.path().join("again.pdf");
    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args([
            "--db",
            &url,
            "station",
            "add",
            "hall-a",
            "--tournament",
            &tid,
        ])
        .arg("--card")
        .arg(&again)
        .output()
        .expect("run ggdesk");
    assert!(!out.status.success(), "{out:?}");
    assert!(!again.exists(), "no card for a station not made");

    // Nothing of hall-b was made by the refused card.
    let out = ggdesk(&url, &["station", "list"]);
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(
        list.contains("hall-a") && !list.contains("hall-b"),
        "{list}"
    );

    // A reset writes the new secret's card over the old one, still private.
    std::fs::set_permissions(&pdf, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let out = ggdesk(&url, &["station", "reset", "hall-a", "--card", pdf_arg]);
    assert!(out.status.success(), "{out:?}");
    let new_secret = line(&out, "secret");
    assert_ne!(new_secret, secret);
    assert_card(&pdf, "hall-a", &stations, &new_secret, &fp16);
    let text = String::from_utf8_lossy(&std::fs::read(&pdf).expect("the card")).into_owned();
    let old_line = format!("({}) Tj", group_in_fours(&secret)[0]);
    assert!(!text.contains(&old_line), "the old secret is gone");

    drop(director);
    assert_eq!(host.terminate(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
