//! `ggdesk host DIR` (spec/server.md, "`ggdesk host`"): a private cluster made the first
//! time, TLS only from the network, one host per DIR, a clean stop on SIGTERM, DIR reused
//! by the next start. Each test runs the real binary on loopback ports of its own.

#[path = "support/event.rs"]
mod event;
#[path = "support/https.rs"]
mod https;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;
#[path = "support/wait.rs"]
mod wait;

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};

/// A running `ggdesk host` and the lines it printed.
struct Hosted {
    child: Child,
    lines: Receiver<String>,
    printed: Vec<String>,
    port: u16,
    pages_port: u16,
}

fn dir_for(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ggh-{label}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn host_command(dir: &Path, port: u16, pages_port: u16) -> Command {
    host_command_with(dir, port, pages_port, &[])
}

fn host_command_with(dir: &Path, port: u16, pages_port: u16, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ggdesk"));
    c.arg("host")
        .arg(dir)
        .args(["--listen", "127.0.0.1", "--port"])
        .arg(port.to_string())
        .arg("--station-port")
        .arg(pg::free_port().to_string())
        .arg("--pages-port")
        .arg(pages_port.to_string());
    if pg::debian::is_root() {
        c.args(["--user", "postgres"]);
    }
    c.args(extra);
    c
}

impl Hosted {
    /// Starts `host` on DIR and waits for its `ready`.
    fn start(dir: &Path, port: u16) -> Hosted {
        Hosted::start_with(dir, port, &[])
    }

    fn start_with(dir: &Path, port: u16, extra: &[&str]) -> Hosted {
        pg::bin_dir();
        let pages_port = pg::free_port();
        let mut child = host_command_with(dir, port, pages_port, extra)
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
            port,
            pages_port,
        };
        hosted.until_line("ready");
        hosted
    }

    fn until_line(&mut self, want: &str) {
        loop {
            match self.lines.recv_timeout(wait::BOUND) {
                Ok(line) => {
                    let done = line == want;
                    self.printed.push(line);
                    if done {
                        return;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    let mut err = String::new();
                    if let Some(mut e) = self.child.stderr.take() {
                        let _ = e.read_to_string(&mut err);
                    }
                    panic!(
                        "ggdesk host did not print {want:?}; it printed {:?}, and on stderr: {err}",
                        self.printed
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
    fn terminate(mut self) -> (i32, Vec<String>) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("run kill");
        assert!(sent.success());
        let status = self.child.wait().expect("wait for host");
        // The reader thread may still hold the last lines: take them until `stopped`, the
        // end of the output, or the bound.
        let mut rest = Vec::new();
        let deadline = std::time::Instant::now() + wait::BOUND;
        loop {
            match self
                .lines
                .recv_timeout(std::time::Duration::from_millis(100))
            {
                Ok(line) => {
                    let last = line == "stopped";
                    rest.push(line);
                    if last {
                        break;
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if std::time::Instant::now() >= deadline {
                        break;
                    }
                }
            }
        }
        (status.code().unwrap_or(-1), rest)
    }
}

impl Drop for Hosted {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = Command::new("kill")
                .args(["-TERM", &self.child.id().to_string()])
                .status();
            let _ = self.child.wait();
        }
    }
}

/// Runs psql (the client: any user may) with a libpq connection string; answers (success,
/// standard output, standard error).
/// Runs `sql` with psql; a psql that does not answer within the bound (a commit waiting
/// for a synchronous standby that is gone, say) fails the test naming the statement
/// rather than hanging it.
fn psql(conninfo: &str, password: &str, sql: &str) -> (bool, String, String) {
    let mut child = Command::new(pg::bin_dir().join("psql"))
        .args(["-X", "-A", "-t", "-c", sql, conninfo])
        .env("PGPASSWORD", password)
        .env("PGCONNECT_TIMEOUT", "30")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run psql");
    let deadline = std::time::Instant::now() + wait::BOUND;
    while child.try_wait().expect("psql's state").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "psql did not answer within {} s: {sql} (a commit waiting for a synchronous \
                 standby that is gone?)",
                wait::BOUND.as_secs()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("psql's output");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
        String::from_utf8_lossy(&out.stderr).trim().to_string(),
    )
}

/// The director's password, read from the URL `host` printed.
fn password_of(url: &str) -> String {
    let creds = url
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('@'))
        .expect("a URL with a login")
        .0;
    creds.split_once(':').expect("a password").1.to_string()
}

/// The SHA-256 fingerprint of DIR/ca.crt.
fn ca_fingerprint(dir: &Path) -> String {
    let pem = std::fs::read_to_string(dir.join("ca.crt")).expect("DIR/ca.crt");
    let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let der = base64_decode(&body);
    ggdesk::tls::fingerprint(&der)
}

fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut n = 0;
    let mut out = Vec::new();
    for c in text.bytes().filter(|c| *c != b'=') {
        let v = ALPHABET.iter().position(|a| *a == c).expect("base64") as u32;
        bits = (bits << 6) | v;
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
        }
    }
    out
}

fn http_status(port: u16) -> String {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect to the pages");
    s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .expect("write the request");
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text.lines().next().unwrap_or_default().to_string()
}

#[test]
fn host_makes_a_private_server_speaks_tls_only_and_stops_on_sigterm() {
    let dir = dir_for("a");
    let port = pg::free_port();
    let host = Hosted::start(&dir, port);
    let url = host.printed("director");
    let fp = ca_fingerprint(&dir);
    assert_eq!(
        url,
        format!(
            "postgres://director:{}@127.0.0.1:{port}/event?ggdesk_ca=sha256:{fp}",
            password_of(&url)
        )
    );
    assert_eq!(host.printed("authority"), format!("sha256:{fp}"));
    assert!(host.printed("stations").starts_with("https://127.0.0.1:"));
    assert_eq!(
        host.printed("public pages"),
        format!("http://127.0.0.1:{}/", host.pages_port)
    );

    // DIR/director.url: the same URL, readable by its owner only.
    let saved = dir.join("director.url");
    assert_eq!(
        std::fs::read_to_string(&saved).expect("read director.url"),
        format!("{url}\n")
    );
    let mode = std::fs::metadata(&saved)
        .expect("director.url's metadata")
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600, "director.url mode {mode:o}");

    let password = password_of(&url);
    // Over TLS, the server's certificate checked against the event's authority: works.
    let (ok, out, err) = psql(
        &format!(
            "host=127.0.0.1 port={port} user=director dbname=event sslmode=verify-full sslrootcert={}",
            dir.join("ca.crt").display()
        ),
        &password,
        "SELECT current_user || ' ' || ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
    );
    assert!(ok, "{err}");
    assert_eq!(out, "director true");
    // The host made the event's tables.
    let (ok, out, err) = psql(
        &format!(
            "host=127.0.0.1 port={port} user=director dbname=event sslmode=verify-full sslrootcert={}",
            dir.join("ca.crt").display()
        ),
        &password,
        "SELECT count(*) FROM ggdesk_meta",
    );
    assert!(ok, "{err}");
    assert_ne!(out, "0");
    // Plain text from the network: refused by pg_hba.conf, before any password.
    let (ok, _, err) = psql(
        &format!("host=127.0.0.1 port={port} user=director dbname=event sslmode=disable"),
        &password,
        "SELECT 1",
    );
    assert!(!ok);
    assert!(
        err.contains(
            "no pg_hba.conf entry for host \"127.0.0.1\", user \"director\", database \"event\", no encryption"
        ),
        "{err}"
    );
    // The superuser from the network, even over TLS: refused.
    let superuser = if pg::debian::is_root() {
        "postgres".to_string()
    } else {
        String::from_utf8(
            Command::new("id")
                .arg("-un")
                .output()
                .expect("run id")
                .stdout,
        )
        .expect("id's output")
        .trim()
        .to_string()
    };
    let (ok, _, err) = psql(
        &format!("host=127.0.0.1 port={port} user={superuser} dbname=postgres sslmode=require"),
        "anything",
        "SELECT 1",
    );
    assert!(!ok);
    assert!(
        err.contains(&format!(
            "no pg_hba.conf entry for host \"127.0.0.1\", user \"{superuser}\", database \"postgres\", SSL encryption"
        )),
        "{err}"
    );
    let hba = std::fs::read_to_string(dir.join("data/pg_hba.conf")).expect("read pg_hba.conf");
    assert!(
        hba.lines()
            .filter(|l| !l.starts_with('#'))
            .all(|l| !l.contains("trust") && !l.starts_with("host ")),
        "{hba}"
    );
    // The public pages answer, in the same process.
    assert_eq!(http_status(host.pages_port), "HTTP/1.1 200 OK");

    // A second host on the same DIR: exit 1, naming the one that runs.
    let second = host_command(&dir, pg::free_port(), pg::free_port())
        .stdin(Stdio::null())
        .output()
        .expect("run a second host");
    assert_eq!(second.status.code(), Some(1));
    let dir_real = std::fs::canonicalize(&dir).expect("DIR's real path");
    assert_eq!(
        String::from_utf8_lossy(&second.stderr).trim(),
        format!(
            "ggdesk: another ggdesk host is running on {} (pid {}): stop it first",
            dir_real.display(),
            host.child.id()
        )
    );

    // Something the director keeps, to find again after the restart.
    let (ok, _, err) = psql(
        &format!(
            "host=127.0.0.1 port={port} user=director dbname=event sslmode=verify-full sslrootcert={}",
            dir.join("ca.crt").display()
        ),
        &password,
        "CREATE TABLE kept_across (n int); INSERT INTO kept_across VALUES (41)",
    );
    assert!(ok, "{err}");

    // SIGTERM: a clean stop, exit 0, the cluster down.
    let port_before = host.port;
    let (code, rest) = host.terminate();
    assert_eq!(code, 0, "{rest:?}");
    assert_eq!(rest.last().map(String::as_str), Some("stopped"));
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port_before)).is_err(),
        "PostgreSQL still listens after the host stopped"
    );
    let pid_file = dir.join("data/postmaster.pid");
    assert!(!pid_file.exists(), "{} left behind", pid_file.display());

    // A second start reuses DIR: the same authority, the same login, the data kept.
    let again = Hosted::start(&dir, port);
    assert_eq!(again.printed("director"), url);
    assert_eq!(ca_fingerprint(&dir), fp);
    let (ok, out, err) = psql(
        &format!(
            "host=127.0.0.1 port={port} user=director dbname=event sslmode=verify-full sslrootcert={}",
            dir.join("ca.crt").display()
        ),
        &password,
        "SELECT n FROM kept_across",
    );
    assert!(ok, "{err}");
    assert_eq!(out, "41");
    assert_eq!(again.printed.last().map(String::as_str), Some("ready"));
    let (code, _) = again.terminate();
    assert_eq!(code, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn host_refuses_to_run_the_cluster_as_root_or_as_another_user() {
    let dir = dir_for("root");
    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .arg("host")
        .arg(&dir)
        .args(if pg::debian::is_root() {
            vec![]
        } else {
            vec!["--user", "nobody-else"]
        })
        .stdin(Stdio::null())
        .output()
        .expect("run host as root");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
    if pg::debian::is_root() {
        assert_eq!(
            err,
            "ggdesk: PostgreSQL does not run as root: run `ggdesk host` as the user who keeps \
             the event, or as root with --user NAME (the user that runs the cluster and owns DIR)"
        );
    } else {
        assert!(
            err.starts_with(
                "ggdesk: --user nobody-else: only root may run the cluster as another user"
            ),
            "{err}"
        );
    }
    assert!(!dir.exists(), "a refused host made {}", dir.display());
    // As root with --user, a folder below one private to root (a home folder) is refused
    // before the cluster is made, naming why; the folder made for it goes again.
    if pg::debian::is_root() {
        let private = dir_for("private");
        std::fs::create_dir_all(&private).expect("a private folder");
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700))
            .expect("private");
        let event = private.join("event");
        let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .arg("host")
            .arg(&event)
            .args(["--user", "postgres"])
            .stdin(Stdio::null())
            .output()
            .expect("run host as root");
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim(),
            format!(
                "ggdesk: the user postgres cannot reach {}: a folder above it is private; \
                 choose a folder it can reach (such as /srv/event)",
                event.display()
            )
        );
        assert!(!event.exists(), "a refused host left {}", event.display());
        std::fs::remove_dir_all(&private).expect("clean up");
    }
}

/// A libpq connection string to a host's cluster over TLS, checked with DIR/ca.crt.
fn tls_conninfo(dir: &Path, port: u16) -> String {
    format!(
        "host=127.0.0.1 port={port} user=director dbname=event sslmode=verify-full sslrootcert={}",
        dir.join("ca.crt").display()
    )
}

#[test]
fn a_standby_made_by_host_is_synchronous_over_tls_and_takes_over_when_promoted() {
    let (dir_a, dir_b) = (dir_for("pa"), dir_for("sb"));
    let (port_a, port_b) = (pg::free_port(), pg::free_port());
    let primary = Hosted::start(&dir_a, port_a);
    let url_a = primary.printed("director");
    let password = password_of(&url_a);
    let fp = ca_fingerprint(&dir_a);
    // A primary that named a standby before (one since lost): a standby copied from it must
    // not inherit the setting, or once promoted it would wait at every commit for it.
    superuser_sql(
        &dir_a,
        port_a,
        "postgres",
        "ALTER SYSTEM SET synchronous_standby_names = 'FIRST 1 (ggdesk_standby_gone)'",
    );
    superuser_sql(&dir_a, port_a, "postgres", "SELECT pg_reload_conf()");

    let mut standby = Hosted::start_with(&dir_b, port_b, &["--standby-of", &url_a]);
    // The standby keeps the same authority, and its URL names both hosts.
    assert_eq!(ca_fingerprint(&dir_b), fp);
    assert_eq!(
        standby.printed("director"),
        format!(
            "postgres://director:{password}@127.0.0.1:{port_a},127.0.0.1:{port_b}/event\
             ?target_session_attrs=read-write&ggdesk_ca=sha256:{fp}"
        )
    );
    // A card made on the primary names the standby's stations' address too.
    let mut director =
        ggdesk::store::Store::connect(&ggdesk::store::Address::Server(url_a.clone()))
            .expect("the director connects over TLS");
    let tid = trust::tournament(&mut director, "s", 4);
    director
        .publish_round(
            tid,
            ggdesk_core::tournament::RoundNo(1),
            &ggdesk::store::Actor::director(),
        )
        .expect("publish");
    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args([
            "--db", &url_a, "station", "add", "hall-s", "--tables", "1-2",
        ])
        .arg("--tournament")
        .arg(tid.0.to_string())
        .output()
        .expect("run station add");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let addresses: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("address: ").map(str::to_string))
        .collect();
    assert_eq!(
        addresses,
        vec![primary.printed("stations"), standby.printed("stations")]
    );
    drop(director);
    // The station's desk, from its card: the link (the primary's) and the standby's address.
    let card = String::from_utf8_lossy(&out.stdout).to_string();
    let field = |key: &str| {
        card.lines()
            .find_map(|l| l.strip_prefix(key))
            .expect("the card's line")
            .to_string()
    };
    let client = ggdesk::station::client::StationClient::new(
        ggdesk::station::client::StationLink::parse(&field("link: ")).expect("link"),
        &field("secret: "),
        ggdesk::tls::Pin::parse(&fp).expect("pin"),
    )
    .expect("client")
    .with_standbys(&[standby.printed("stations")])
    .expect("the standby's address");
    let mut desk =
        ggdesk::store::Store::on_station_api(std::sync::Arc::new(client)).expect("the desk");
    let arbiter = ggdesk::store::Actor("hall-s".into());
    let (round, boards) = desk
        .playing_boards(tid)
        .expect("boards")
        .expect("round 1 in play");
    let rules = desk.tournament_rules(tid).expect("rules");
    let new = ggdesk::store::NewGame::for_board(
        tid,
        round,
        &boards[0],
        ggdesk::store::GameMode::Arbitrated,
        rules,
    );
    let game = desk.create_game(&new, &arbiter).expect("the game");
    let setups = event::setups(3);
    for side in ggdesk_core::rules::Side::BOTH {
        desk.save_setup(game, side, &setups[side], &arbiter)
            .expect("setup");
    }
    desk.start_game(game, 0, ggdesk_core::rules::Side::White, &arbiter)
        .expect("started");
    let play = |desk: &mut ggdesk::store::Store| {
        let e = event::games::first_legal(desk, game);
        desk.append(game, 0.0, ggdesk::store::AnyEvent::Game(e), &arbiter, "")
    };
    play(&mut desk).expect("a move through the primary's server");
    // The primary names it synchronous once it streams.
    wait::until("the standby to be synchronous", || {
        let (ok, out, _) = psql(
            &tls_conninfo(&dir_a, port_a),
            &password,
            "SELECT sync_state FROM pg_stat_replication",
        );
        ok && out == "sync"
    });
    let (ok, _, err) = psql(
        &tls_conninfo(&dir_a, port_a),
        &password,
        "CREATE TABLE kept_on_both (n int); INSERT INTO kept_on_both VALUES (7)",
    );
    assert!(ok, "{err}");
    // Read on the standby, over TLS checked with the standby's own certificate.
    let (ok, out, err) = psql(
        &tls_conninfo(&dir_b, port_b),
        &password,
        "SELECT n FROM kept_on_both",
    );
    assert!(ok, "{err}");
    assert_eq!(
        out, "7",
        "a synchronous commit is on the standby when acknowledged"
    );
    let (ok, _, err) = psql(
        &tls_conninfo(&dir_b, port_b),
        &password,
        "INSERT INTO kept_on_both VALUES (8)",
    );
    assert!(!ok);
    assert!(
        err.contains("cannot execute INSERT in a read-only transaction"),
        "{err}"
    );

    // The primary's laptop is lost; the standby is promoted and takes the writes.
    let (code, _) = primary.terminate();
    assert_eq!(code, 0);
    let mut promote = Command::new(pg::bin_dir().join("pg_ctl"));
    if pg::debian::is_root() {
        promote = Command::new("runuser");
        promote
            .args(["-u", "postgres", "--"])
            .arg(pg::bin_dir().join("pg_ctl"));
    }
    let promoted = promote
        .arg("promote")
        .arg("-w")
        .arg("-D")
        .arg(dir_b.join("data"))
        .output()
        .expect("run pg_ctl promote");
    assert!(
        promoted.status.success(),
        "{}",
        String::from_utf8_lossy(&promoted.stderr)
    );
    let (ok, out, err) = psql(
        &tls_conninfo(&dir_b, port_b),
        &password,
        "INSERT INTO kept_on_both VALUES (8); SELECT sum(n) FROM kept_on_both",
    );
    assert!(ok, "{err}");
    assert_eq!(out, "INSERT 0 1\n15");
    // Promoted, it runs the event server the primary ran.
    standby.until_line("promoted: the stations' API and the public pages run here");
    assert_eq!(http_status(standby.pages_port), "HTTP/1.1 200 OK");
    // The station's desk carries on: its next move goes to the standby's server, and the
    // move acknowledged before the loss is there.
    play(&mut desk).expect("a move through the promoted standby's server");
    assert_eq!(desk.load_game(game).expect("the game").effective().len(), 2);
    let (code, _) = standby.terminate();
    assert_eq!(code, 0);
    let _ = std::fs::remove_dir_all(&dir_a);
    let _ = std::fs::remove_dir_all(&dir_b);
}

#[test]
fn a_station_card_of_a_hosted_event_opens_the_api_and_no_database_login() {
    let dir = dir_for("card");
    let port = pg::free_port();
    let host = Hosted::start(&dir, port);
    let url = host.printed("director");
    let fp = ca_fingerprint(&dir);
    // The director's own connection, over TLS with the authority pinned by the URL.
    let mut director = ggdesk::store::Store::connect(&ggdesk::store::Address::Server(url.clone()))
        .expect("the director connects over TLS");
    let tid = trust::tournament(&mut director, "h", 4);
    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["--db", &url, "station", "add", "hall-a", "--tournament"])
        .arg(tid.0.to_string())
        .args(["--tables", "1-2"])
        .output()
        .expect("run station add");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let card: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let stations = host.printed("stations");
    let secret = card
        .iter()
        .find_map(|l| l.strip_prefix("secret: "))
        .expect("a secret on the card")
        .to_string();
    assert_eq!(
        card,
        vec![
            format!("address: {stations}"),
            "station: hall-a".to_string(),
            format!("secret: {secret}"),
            format!("authority: sha256:{}", &fp[..16]),
            format!("link: {stations}hall-a"),
        ]
    );
    assert_eq!(secret.len(), 32);
    // The card opens the stations' API, checked by the 16 digits it carries.
    let addr: std::net::SocketAddr = stations
        .trim_start_matches("https://")
        .trim_end_matches('/')
        .parse()
        .expect("the stations' address");
    let client = https::Client::new(addr, &fp[..16]);
    let me = client.get("/hall-a", &secret);
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json["station"], "hall-a");
    assert_eq!(me.json["tournament"]["id"], tid.0);
    let refused = client.get("/hall-a", "0123456789abcdef0123456789abcdef");
    assert_eq!(refused.status, 401);
    // The secret is no database login: PostgreSQL refuses every login but the director's
    // before it asks for a password.
    let (ok, _, err) = psql(
        &format!(
            "host=127.0.0.1 port={port} user=event_hall-a dbname=event sslmode=verify-full sslrootcert={}",
            dir.join("ca.crt").display()
        ),
        &secret,
        "SELECT 1",
    );
    assert!(!ok);
    assert!(
        err.contains(
            "no pg_hba.conf entry for host \"127.0.0.1\", user \"event_hall-a\", database \"event\", SSL encryption"
        ),
        "{err}"
    );
    drop(director);
    let (code, _) = host.terminate();
    assert_eq!(code, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// tcpdump on the loopback, writing what it captures of `filter` into `file`; answers once
/// it listens.
fn capture(file: &Path, filter: &str) -> Child {
    assert!(
        pg::debian::ensure("tcpdump", || Path::new("/usr/bin/tcpdump").exists()
            || Path::new("/usr/sbin/tcpdump").exists()),
        "the capture test needs tcpdump: apt-get install tcpdump, or run the tests as root"
    );
    let mut child = Command::new("tcpdump")
        .args([
            "-i",
            "lo",
            "--immediate-mode",
            "-U",
            "-s",
            "0",
            "-Z",
            "root",
            "-w",
        ])
        .arg(file)
        .arg(filter)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tcpdump");
    let err = child.stderr.take().expect("tcpdump's messages");
    let mut lines = BufReader::new(err).lines();
    loop {
        match lines.next() {
            Some(Ok(line)) if line.contains("listening on lo") => break,
            Some(Ok(_)) => {}
            other => panic!("tcpdump did not start listening: {other:?}"),
        }
    }
    std::thread::spawn(move || for _ in lines {});
    child
}

/// Whether `needle` occurs in `hay`.
fn holds(hay: &[u8], needle: &str) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[test]
fn a_capture_of_the_hall_network_holds_no_setup_move_or_secret() {
    use ggdesk::store::{Actor, GameId};
    use ggdesk_core::record::setup_value;
    use ggdesk_core::rules::{Event, Side};
    use ggdesk_core::tournament::RoundNo;
    use serde_json::json;

    let dir = dir_for("cap");
    let port = pg::free_port();
    let host = Hosted::start(&dir, port);
    let url = host.printed("director");
    let password = password_of(&url);
    let fp = ca_fingerprint(&dir);
    let stations = host.printed("stations");
    let station_port = stations
        .trim_end_matches('/')
        .rsplit_once(':')
        .and_then(|(_, p)| p.parse::<u16>().ok())
        .expect("the stations' port");
    let file = std::env::temp_dir().join(format!("ggdesk-capture-{}.pcap", std::process::id()));
    let mut tcpdump = capture(
        &file,
        &format!(
            "tcp port {port} or tcp port {station_port} or tcp port {}",
            host.pages_port
        ),
    );

    // The director over the network (TLS to PostgreSQL), a station through its card.
    let mut director = ggdesk::store::Store::connect(&ggdesk::store::Address::Server(url.clone()))
        .expect("the director connects over TLS");
    let tid = trust::tournament(&mut director, "c", 4);
    director
        .publish_round(tid, RoundNo(1), &Actor::director())
        .expect("publish");
    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(["--db", &url, "station", "add", "hall-a", "--tournament"])
        .arg(tid.0.to_string())
        .args(["--tables", "1"])
        .output()
        .expect("run station add");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let secret = String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("secret: ").map(str::to_string))
        .expect("a secret on the card");
    let addr: std::net::SocketAddr = stations
        .trim_start_matches("https://")
        .trim_end_matches('/')
        .parse()
        .expect("the stations' address");
    let client = https::Client::new(addr, &fp[..16]);

    // A game played through the API: setups, the start, moves.
    let created = client.post("/hall-a/games", &secret, &json!({ "table": 1 }));
    assert_eq!(created.status, 201, "{}", created.text);
    let id = GameId(created.json["game"].as_i64().expect("a game id"));
    let setups = event::setups(3);
    let mut secrets_sent: Vec<String> = vec![secret.clone(), password.clone()];
    for side in Side::BOTH {
        let body = setup_value(&setups[side]);
        let r = client.put(
            &format!("/hall-a/games/{id}/setup/{}", side.name()),
            &secret,
            &body,
        );
        assert_eq!(r.status, 200, "{}", r.text);
        secrets_sent.push(body.to_string());
        if let serde_json::Value::Object(map) = &body {
            for (square, piece) in map {
                secrets_sent.push(format!("\"{square}\":{piece}"));
            }
        }
    }
    let r = client.post(
        &format!("/hall-a/games/{id}/start"),
        &secret,
        &json!({ "first": "white" }),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    for _ in 0..6 {
        let mv = match event::games::first_legal(&director, id) {
            Event::Move { mv, .. } => json!({ "move": mv.to_string() }),
            other => panic!("a move: {other:?}"),
        };
        let r = client.post(&format!("/hall-a/games/{id}/events"), &secret, &mv);
        if r.status != 200 {
            break;
        }
        secrets_sent.push(mv.to_string());
        secrets_sent.push(format!("\"move\":{}", mv["move"]));
    }
    // The director reads the game back (setups and moves cross to this desk too).
    let record = director.export_game(id).expect("the record").to_string();
    assert!(record.contains("\"setup\""));
    // The public pages: plain HTTP, as they should be (and proof the capture sees clear text).
    assert_eq!(http_status(host.pages_port), "HTTP/1.1 200 OK");
    drop(director);

    // The pages' clear text reaching the file says the capture has everything before it.
    wait::until("the capture to hold the pages' request", || {
        std::fs::read(&file).is_ok_and(|b| holds(&b, "GET / HTTP/1.1"))
    });
    let stopped = Command::new("kill")
        .args(["-INT", &tcpdump.id().to_string()])
        .status()
        .expect("stop tcpdump");
    assert!(stopped.success());
    let _ = tcpdump.wait();
    let bytes = std::fs::read(&file).expect("the capture");
    assert!(
        holds(&bytes, "GET / HTTP/1.1"),
        "the capture holds the pages' clear text"
    );
    assert!(
        bytes.len() > 20_000,
        "the capture holds the traffic: {} bytes",
        bytes.len()
    );
    for text in secrets_sent.iter().chain(
        ["Bearer", "Authorization", "\"setup\""]
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .iter(),
    ) {
        assert!(
            !holds(&bytes, text),
            "the capture holds {text:?} in clear text"
        );
    }
    let (code, _) = host.terminate();
    assert_eq!(code, 0);
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The director's URL without its password.
fn without_password(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").expect("a URL");
    let (login, rest) = rest.split_once('@').expect("a login");
    let user = login.split_once(':').map_or(login, |(u, _)| u);
    format!("{scheme}://{user}@{rest}")
}

/// `ggdesk station list` on `db` with `env`: its exit code and its output (or error).
fn station_list(db: &str, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ggdesk"));
    c.args(["--db", db, "station", "list"])
        .env_remove("PGPASSWORD");
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().expect("run station list");
    let text = if out.status.success() {
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    } else {
        String::from_utf8_lossy(&out.stderr).trim().to_string()
    };
    (out.status.code(), text)
}

#[test]
fn the_director_types_no_password_on_a_command_line() {
    use std::os::unix::fs::PermissionsExt;
    let dir = dir_for("pw");
    let port = pg::free_port();
    let host = Hosted::start(&dir, port);
    let url = host.printed("director");
    let password = password_of(&url);
    let bare = without_password(&url);
    let home = std::env::temp_dir().join(format!("ggh-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("a home");
    let home_s = home.display().to_string();
    // The host's folder stands for its director's URL.
    let dir_s = dir.display().to_string();
    assert_eq!(station_list(&dir_s, &[]), (Some(0), "no stations".into()));
    // PGPASSWORD.
    assert_eq!(
        station_list(&bare, &[("PGPASSWORD", &password), ("HOME", &home_s)]),
        (Some(0), "no stations".into())
    );
    // ~/.pgpass, readable by its owner only.
    let pgpass = home.join(".pgpass");
    std::fs::write(
        &pgpass,
        format!("127.0.0.1:{port}:event:director:{password}\n"),
    )
    .expect("write .pgpass");
    std::fs::set_permissions(&pgpass, std::fs::Permissions::from_mode(0o600)).expect("0600");
    assert_eq!(
        station_list(&bare, &[("HOME", &home_s)]),
        (Some(0), "no stations".into())
    );
    // A password file others may read is not used (as libpq does): the server asks in vain.
    std::fs::set_permissions(&pgpass, std::fs::Permissions::from_mode(0o644)).expect("0644");
    let (code, said) = station_list(&bare, &[("HOME", &home_s)]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("password"), "{said}");
    // A folder that is no host's: its words.
    let (code, said) = station_list(&home_s, &[]);
    assert_eq!(code, Some(2));
    assert!(
        said.starts_with(&format!(
            "ggdesk: {home_s} is a folder, not a database, and holds no director.url of `ggdesk host`"
        )),
        "{said}"
    );
    let (code, _) = host.terminate();
    assert_eq!(code, 0);
    let _ = std::fs::remove_dir_all(&home);
    let _ = std::fs::remove_dir_all(&dir);
}

/// SQL as the cluster's superuser over DIR's own socket (peer): its output.
fn superuser_sql(dir: &Path, port: u16, db: &str, sql: &str) -> String {
    let mut c = if pg::debian::is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"])
            .arg(pg::bin_dir().join("psql"));
        c
    } else {
        Command::new(pg::bin_dir().join("psql"))
    };
    let out = c
        .arg("-h")
        .arg(dir)
        .args(["-p", &port.to_string(), "-d", db, "-XAtc", sql])
        .output()
        .expect("psql as the cluster's superuser");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// m5: the public pages the host runs read with a login of their own, a member of the
/// pages' read-only role and nothing else, allowed over the cluster's socket only: not the
/// director's login.
#[test]
fn the_public_pages_read_with_a_login_of_their_own() {
    let dir = dir_for("pages");
    let port = pg::free_port();
    let host = Hosted::start(&dir, port);
    // A page is served (the pages' watcher has read the event).
    let mut stream =
        std::net::TcpStream::connect(("127.0.0.1", host.pages_port)).expect("the pages' port");
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .expect("a request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let logins = superuser_sql(
        &dir,
        port,
        "event",
        "SELECT string_agg(DISTINCT usename, ',' ORDER BY usename) FROM pg_stat_activity \
         WHERE datname = 'event' AND backend_type = 'client backend'",
    );
    assert!(
        logins.split(',').any(|l| l == "event_pages"),
        "the pages' login reads: {logins}"
    );
    assert_eq!(
        superuser_sql(
            &dir,
            port,
            "event",
            "SELECT has_table_privilege('event_pages', 'public.games', 'SELECT')::text \
             || has_table_privilege('event_pages', 'public.game_events', 'SELECT')::text \
             || pg_has_role('event_pages', 'event_public', 'MEMBER')::text \
             || (SELECT (rolsuper OR rolcreaterole OR rolcreatedb OR rolinherit)::text \
                 FROM pg_roles WHERE rolname = 'event_pages')"
        ),
        "falsefalsetruefalse"
    );
    // Not from the network, even over TLS.
    let (ok, _, err) = psql(
        &format!(
            "host=127.0.0.1 port={port} user=event_pages dbname=event sslmode=verify-full sslrootcert={}",
            dir.join("ca.crt").display()
        ),
        "anything",
        "SELECT 1",
    );
    assert!(!ok);
    assert!(
        err.contains(
            "no pg_hba.conf entry for host \"127.0.0.1\", user \"event_pages\", database \"event\", SSL encryption"
        ),
        "{err}"
    );
    let (code, _) = host.terminate();
    assert_eq!(code, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A primary restarted after its synchronous standby was lost waits for it a while
/// (`--standby-wait`), then says it no longer waits for it at each commit and goes on (it
/// held every commit before, its own start's among them, without a word); the standby,
/// back, is named synchronous again.
#[test]
fn a_primary_whose_standby_is_gone_waits_a_while_then_says_so_and_goes_on() {
    let (dir_a, dir_b) = (dir_for("lonely-a"), dir_for("lonely-b"));
    let (port_a, port_b) = (pg::free_port(), pg::free_port());
    let primary = Hosted::start(&dir_a, port_a);
    let url_a = primary.printed("director");
    let password = password_of(&url_a);
    let standby = Hosted::start_with(&dir_b, port_b, &["--standby-of", &url_a]);
    let sync_state = || {
        psql(
            &tls_conninfo(&dir_a, port_a),
            &password,
            "SELECT application_name || ' ' || sync_state FROM pg_stat_replication",
        )
    };
    let name = wait::for_value("the standby to be synchronous", || {
        let (ok, out, _) = sync_state();
        out.strip_suffix(" sync").filter(|_| ok).map(str::to_string)
    });
    // The standby's laptop is lost, then the primary restarts.
    assert_eq!(standby.terminate().0, 0);
    assert_eq!(primary.terminate().0, 0);
    let primary = Hosted::start_with(&dir_a, port_a, &["--standby-wait", "1"]);
    assert!(
        primary.printed.contains(&format!(
            "warning: the synchronous standby {name} did not connect within 1 s: commits no \
             longer wait for it (it is named again as soon as it streams; make a standby with \
             ggdesk host DIR --standby-of URL)"
        )),
        "{:?}",
        primary.printed
    );
    let (ok, _, err) = psql(
        &tls_conninfo(&dir_a, port_a),
        &password,
        "CREATE TABLE after_the_loss (n int); INSERT INTO after_the_loss VALUES (1)",
    );
    assert!(ok, "{err}");
    // Back: named synchronous again as soon as it streams.
    let standby = Hosted::start_with(&dir_b, port_b, &["--standby-of", &url_a]);
    wait::until("the standby to be synchronous again", || {
        let (ok, out, _) = sync_state();
        ok && out == format!("{name} sync")
    });
    assert_eq!(standby.terminate().0, 0);
    assert_eq!(primary.terminate().0, 0);
    let _ = std::fs::remove_dir_all(&dir_a);
    let _ = std::fs::remove_dir_all(&dir_b);
}
