//! The public pages under a hall's load: a 500-player Swiss (rounds 1-5 complete, round 6
//! in play with half its results in) in a SQLite file, the server on loopback, and Rust
//! clients on keep-alive connections.
//!
//! - Throughput: 4 clients back to back on the standings and the pairing page, full 200s
//!   and 304s (`If-None-Match`) separately: requests/s, p50, p99.
//! - 200 requests/s (500 phones every 2.5 s), open loop (latency counted from the moment a
//!   request was due, so a slow answer delays the next one's count too), half standings
//!   half pairings, 200s and 304s separately, with the desk writing a move every 100 ms
//!   through its own connection: p50, p99, against the target p99 < 50 ms.
//! - How soon a result entered at the desk shows on the page.
//! - The desk's frame time (the Rounds page of the same event, drawn headless) with the
//!   server stopped and with it answering 200 requests/s; and a desk write's time likewise.
//!
//! `cargo bench --bench serve` prints the figures.

use egui_kittest::Harness;
use ggdesk::record::TimedEvent;
use ggdesk::serve::{ServeConfig, Server};
use ggdesk::store::TournamentId;
use ggdesk::store::{Actor, GameId, NewGame, Store};
use ggdesk::ui::{DeskApp, Page, Prefs, TimeSource};
use ggdesk_core::pairing::pair_next_round;
use ggdesk_core::tournament::{GameResult, Player, PlayerId, Settings, Tournament};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::cell::Cell;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[path = "../tests/support/games.rs"]
mod games;

const PLAYERS: u32 = 500;
const ROUNDS_DONE: usize = 5;

fn random_result(rng: &mut SmallRng) -> GameResult {
    match rng.random_range(0..100) {
        0..44 => GameResult::WhiteWins,
        44..86 => GameResult::BlackWins,
        86..97 => GameResult::Draw,
        97..99 => GameResult::WhiteWinsByForfeit,
        _ => GameResult::BlackWinsByForfeit,
    }
}

/// The event, paired round by round by ggdesk's Swiss, imported in one transaction.
fn build_event(path: &Path) -> TournamentId {
    let mut rng = SmallRng::seed_from_u64(500);
    let mut t = Tournament::new("Open 500", Settings::swiss(7)).expect("settings");
    for id in 1..=PLAYERS {
        let mut p = Player::new(
            PlayerId(id),
            format!("Surname{id:03}, Given"),
            2400 - i64::from(id) * 2,
        );
        p.club = Some(format!("Club {}", id % 40));
        t.add_player(p).expect("player");
    }
    for r in 1..=ROUNDS_DONE + 1 {
        let pairing = pair_next_round(&t, &[]).expect("a pairing");
        t.add_round(pairing.to_round()).expect("round");
        let games = t.rounds()[r - 1].games.len();
        for g in 0..games {
            if r <= ROUNDS_DONE || g % 2 == 0 {
                t.set_result(r, g, random_result(&mut rng)).expect("result");
            }
        }
    }
    let mut store = Store::open(path).expect("store");
    store
        .import_tournament(&t.to_value(), &Actor::director())
        .expect("import")
}

/// A keep-alive HTTP client: one request at a time, reconnecting when the server closes.
struct Client {
    addr: SocketAddr,
    stream: Option<TcpStream>,
    buf: Vec<u8>,
}

impl Client {
    fn new(addr: SocketAddr) -> Client {
        Client {
            addr,
            stream: None,
            buf: Vec::new(),
        }
    }

    /// GET `path`; returns the status and the ETag.
    fn get(&mut self, path: &str, etag: Option<&str>) -> (u16, Option<String>) {
        for _ in 0..3 {
            if let Some(r) = self.try_get(path, etag) {
                return r;
            }
            self.stream = None;
        }
        panic!("GET {path} failed three times");
    }

    fn try_get(&mut self, path: &str, etag: Option<&str>) -> Option<(u16, Option<String>)> {
        if self.stream.is_none() {
            let s = TcpStream::connect(self.addr).ok()?;
            s.set_nodelay(true).ok()?;
            s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
            self.stream = Some(s);
            self.buf.clear();
        }
        let s = self.stream.as_mut()?;
        let inm = etag.map_or(String::new(), |e| format!("If-None-Match: {e}\r\n"));
        s.write_all(format!("GET {path} HTTP/1.1\r\nHost: hall\r\n{inm}\r\n").as_bytes())
            .ok()?;
        let mut chunk = [0u8; 65536];
        loop {
            if let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.buf[..end]).into_owned();
                let status: u16 = head.get(9..12)?.parse().ok()?;
                let header = |name: &str| {
                    head.lines().find_map(|l| {
                        l.strip_prefix(name)
                            .and_then(|v| v.strip_prefix(": "))
                            .map(str::to_string)
                    })
                };
                let len: usize = header("Content-Length").map_or(0, |v| v.parse().unwrap_or(0));
                let total = end + 4 + if status == 304 { 0 } else { len };
                if self.buf.len() >= total {
                    self.buf.drain(..total);
                    if header("Connection").as_deref() == Some("close") {
                        self.stream = None;
                    }
                    return Some((status, header("ETag")));
                }
            }
            let n = self.stream.as_mut()?.read(&mut chunk).ok()?;
            if n == 0 {
                return None;
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn report(what: &str, mut lat: Vec<Duration>, secs: f64) {
    lat.sort();
    println!(
        "{what:<44} {:>8.0} req/s   p50 {:>9}   p99 {:>9}   max {:>9}   ({} requests)",
        lat.len() as f64 / secs,
        ms(pct(&lat, 0.5)),
        ms(pct(&lat, 0.99)),
        ms(pct(&lat, 1.0)),
        lat.len()
    );
}

/// `clients` threads back to back for `secs` on `path` (with the ETag: 304s).
fn saturate(addr: SocketAddr, path: &str, etag: Option<String>, clients: usize, secs: f64) {
    let expect = if etag.is_some() { 304 } else { 200 };
    let until = Instant::now() + Duration::from_secs_f64(secs);
    let threads: Vec<_> = (0..clients)
        .map(|_| {
            let path = path.to_string();
            let etag = etag.clone();
            std::thread::spawn(move || {
                let mut c = Client::new(addr);
                let mut lat = Vec::new();
                while Instant::now() < until {
                    let t0 = Instant::now();
                    let (status, _) = c.get(&path, etag.as_deref());
                    lat.push(t0.elapsed());
                    assert_eq!(status, expect, "{path}");
                }
                lat
            })
        })
        .collect();
    let lat: Vec<Duration> = threads
        .into_iter()
        .flat_map(|t| t.join().expect("client"))
        .collect();
    report(
        &format!("{path} {expect} ({clients} clients, keep-alive)"),
        lat,
        secs,
    );
}

/// Open loop: `rate` requests a second over `conns` connections for `secs`, alternating
/// `paths`; with `etags`, as 304s. Latency counts from the moment each request was due.
fn at_rate(
    addr: SocketAddr,
    paths: &[String],
    etags: Option<Vec<String>>,
    rate: f64,
    conns: usize,
    secs: f64,
) -> Vec<Duration> {
    let interval = Duration::from_secs_f64(conns as f64 / rate);
    let start = Instant::now() + Duration::from_millis(50);
    let n = (secs * rate / conns as f64) as u32;
    let threads: Vec<_> = (0..conns)
        .map(|i| {
            let paths = paths.to_vec();
            let etags = etags.clone();
            std::thread::spawn(move || {
                let mut c = Client::new(addr);
                let offset = interval.mul_f64(i as f64 / conns as f64);
                let mut lat = Vec::with_capacity(n as usize);
                for k in 0..n {
                    let due = start + offset + interval * k;
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                    let j = (k as usize + i) % paths.len();
                    let etag = etags.as_ref().map(|e| e[j].as_str());
                    let (status, _) = c.get(&paths[j], etag);
                    assert!(status == 200 || status == 304);
                    lat.push(due.elapsed());
                }
                lat
            })
        })
        .collect();
    threads
        .into_iter()
        .flat_map(|t| t.join().expect("client"))
        .collect()
}

/// The desk at work: a move every 100 ms in one of ten games at its own connection, until
/// told to stop.
fn desk_writer(path: &Path, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<u32> {
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let mut store = Store::open(&path).expect("desk store");
        let mut rng = SmallRng::seed_from_u64(9);
        let actor = Actor::arbiter(None);
        let new_game = |store: &mut Store, rng: &mut SmallRng| -> (GameId, f64) {
            let setups = games::random_both(rng);
            let new = NewGame::standalone();
            let id =
                games::start_with(store, &new, &setups, 1_800_000_000_000, &actor).expect("game");
            (id, 0.0)
        };
        let mut games: Vec<(GameId, f64)> =
            (0..10).map(|_| new_game(&mut store, &mut rng)).collect();
        let mut moves = 0;
        let mut k = 0;
        while !stop.load(Ordering::SeqCst) {
            let slot = k % games.len();
            k += 1;
            let (id, t) = games[slot];
            let Some(event) = games::random_legal(&games::live(&store, id), &mut rng) else {
                games[slot] = new_game(&mut store, &mut rng);
                continue;
            };
            let t = t + 1.0;
            if store
                .append_event(id, TimedEvent { t, event }, &actor, "")
                .is_ok()
            {
                moves += 1;
            }
            games[slot].1 = t;
            std::thread::sleep(Duration::from_millis(100));
        }
        moves
    })
}

/// CPU time of `frames` frames of the desk's Rounds page on the event.
fn desk_frames(path: &Path, tid: TournamentId, frames: usize) -> Vec<Duration> {
    let clock = Rc::new(Cell::new(1_800_000_000_000i64));
    let prefs = Prefs {
        page: Page::Rounds,
        tournament: Some(tid),
        ..Prefs::default()
    };
    let app = DeskApp::new(
        Ok(Store::open(path).expect("desk")),
        prefs,
        TimeSource::Manual(clock.clone()),
    );
    let mut h = Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .build_ui_state(|ui, app: &mut DeskApp| app.show(ui), app);
    h.run();
    let mut out = Vec::with_capacity(frames);
    for _ in 0..frames {
        clock.set(clock.get() + 16);
        let t0 = Instant::now();
        h.step();
        out.push(t0.elapsed());
    }
    out
}

/// Time of one desk write (a result entered and taken back) on its own connection.
fn desk_writes(path: &Path, tid: TournamentId, n: usize) -> Vec<Duration> {
    let mut store = Store::open(path).expect("desk");
    let board = store
        .round_view(tid, ROUNDS_DONE as u32 + 1)
        .expect("view")
        .expect("round")
        .boards
        .iter()
        .find(|b| b.result == GameResult::Pending)
        .expect("a pending board")
        .board_no;
    let round = ROUNDS_DONE as u32 + 1;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let result = if i % 2 == 0 {
            GameResult::Draw
        } else {
            GameResult::Pending
        };
        let t0 = Instant::now();
        store
            .set_result(tid, round, board, result, "bench", &Actor::director())
            .expect("result");
        out.push(t0.elapsed());
    }
    out
}

fn summary(what: &str, mut d: Vec<Duration>) {
    d.sort();
    println!(
        "{what:<44} p50 {:>9}   p99 {:>9}   max {:>9}   ({} samples)",
        ms(pct(&d, 0.5)),
        ms(pct(&d, 0.99)),
        ms(pct(&d, 1.0)),
        d.len()
    );
}

fn main() {
    // `cargo test --benches` runs bench targets with --bench absent: do nothing then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("open500.sqlite3");
    let t0 = Instant::now();
    let tid = build_event(&path);
    println!(
        "event: {PLAYERS} players, rounds 1-{ROUNDS_DONE} complete, round {} in play, built in {:.1} s",
        ROUNDS_DONE + 1,
        t0.elapsed().as_secs_f64()
    );
    let server = Server::start(&ServeConfig::new(
        &path,
        "127.0.0.1:0".parse().expect("addr"),
    ))
    .expect("server");
    let addr = server.addr();
    let standings = format!("/t/{tid}/standings");
    let pairing = format!("/t/{tid}");
    let mut c = Client::new(addr);
    let t1 = Instant::now();
    let (_, standings_etag) = c.get(&standings, None);
    println!(
        "first request (reads the event, renders the standings): {}",
        ms(t1.elapsed())
    );
    let (_, pairing_etag) = c.get(&pairing, None);
    let standings_etag = standings_etag.expect("etag");
    let pairing_etag = pairing_etag.expect("etag");
    for (p, n) in [(&standings, "standings"), (&pairing, "pairing")] {
        let mut len = 0;
        if let Ok(mut s) = TcpStream::connect(addr) {
            let _ = s.write_all(format!("GET {p} HTTP/1.0\r\n\r\n").as_bytes());
            let mut body = Vec::new();
            let _ = s.read_to_end(&mut body);
            len = body.len();
        }
        println!("{n} page: {} KiB", len / 1024);
    }

    println!("\n-- throughput, server idle otherwise --");
    for (path, etag) in [(&standings, &standings_etag), (&pairing, &pairing_etag)] {
        saturate(addr, path, None, 4, 3.0);
        saturate(addr, path, Some(etag.clone()), 4, 3.0);
    }

    println!("\n-- 200 requests/s, 8 keep-alive connections, desk writing a move every 100 ms --");
    let stop = Arc::new(AtomicBool::new(false));
    let writer = desk_writer(&path, stop.clone());
    let paths = vec![standings.clone(), pairing.clone()];
    let full = at_rate(addr, &paths, None, 200.0, 8, 10.0);
    let mut full_sorted = full.clone();
    full_sorted.sort();
    report("standings + pairing, 200s", full, 10.0);
    // Fresh ETags: the moves at the desk do not change these pages.
    let (_, se) = c.get(&standings, None);
    let (_, pe) = c.get(&pairing, None);
    let etags = vec![se.expect("etag"), pe.expect("etag")];
    let cached = at_rate(addr, &paths, Some(etags), 200.0, 8, 10.0);
    let mut cached_sorted = cached.clone();
    cached_sorted.sort();
    report("standings + pairing, 304s", cached, 10.0);
    stop.store(true, Ordering::SeqCst);
    let moves = writer.join().expect("writer");
    println!("(the desk wrote {moves} moves meanwhile)");
    let p99 = pct(&full_sorted, 0.99).max(pct(&cached_sorted, 0.99));
    println!(
        "target p99 < 50 ms at 200 requests/s: {} (worst p99 {})",
        if p99 < Duration::from_millis(50) {
            "met"
        } else {
            "NOT MET"
        },
        ms(p99)
    );

    println!("\n-- a result entered at the desk, until the pairing page shows it --");
    let mut desk = Store::open(&path).expect("desk");
    let round = ROUNDS_DONE as u32 + 1;
    let pending: Vec<u32> = desk
        .round_view(tid, round)
        .expect("view")
        .expect("round")
        .boards
        .iter()
        .filter(|b| b.result == GameResult::Pending)
        .map(|b| b.board_no)
        .take(10)
        .collect();
    let mut shown = Vec::new();
    for board in pending {
        let (_, before) = c.get(&pairing, None);
        desk.set_result(tid, round, board, GameResult::Draw, "", &Actor::director())
            .expect("result");
        let t = Instant::now();
        loop {
            let (status, _) = c.get(&pairing, before.as_deref());
            if status == 200 {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        shown.push(t.elapsed());
    }
    summary("shown on the page after", shown);
    drop(desk);

    println!("\n-- the desk while the server works --");
    let frames_alone = desk_frames(&path, tid, 200);
    let writes_alone = desk_writes(&path, tid, 40);
    let stop = Arc::new(AtomicBool::new(false));
    let load = {
        let stop = stop.clone();
        let paths = paths.clone();
        std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                at_rate(addr, &paths, None, 200.0, 8, 1.0);
            }
        })
    };
    std::thread::sleep(Duration::from_millis(300));
    let frames_loaded = desk_frames(&path, tid, 200);
    let writes_loaded = desk_writes(&path, tid, 40);
    stop.store(true, Ordering::SeqCst);
    load.join().expect("load");
    summary("desk frame (Rounds page), server idle", frames_alone);
    summary("desk frame (Rounds page), server at 200/s", frames_loaded);
    summary("desk write (set_result), server idle", writes_alone);
    summary("desk write (set_result), server at 200/s", writes_loaded);
    let counters = server.counters();
    println!(
        "\nserver: {} connections, {} requests, {} refused",
        counters.accepted.load(Ordering::SeqCst),
        counters.requests.load(Ordering::SeqCst),
        counters.refused.load(Ordering::SeqCst)
    );
    server.stop();
}
