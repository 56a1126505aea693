//! The stations' HTTPS API under a hall's load (issue 32), on a PostgreSQL cluster of the
//! bench's own on loopback, with the API spawned in this process (`ggdesk::station::spawn`)
//! and Rust clients that pin the event's authority as a station's desk does
//! (`cargo bench --bench station_api`):
//!
//! 1. criterion: one HTTPS connection set up (TCP, a full TLS 1.3 handshake whose
//!    certificate is checked against the pinned authority, HTTP/1.1), alone and with one
//!    `GET /NAME`;
//!    the same with a resumed TLS session; the same `GET` on a connection already open; and
//!    one desk's move committed (`POST /NAME/games/ID/events`) on an open connection.
//! 2. 250 station desks, each its own station, secret and table (tables 1 to 250 of one
//!    tournament of 500 players, round 1 in play) and its own kept-alive connection, each
//!    sending a legal move every 1.5 to 2.5 s (one time in ten, three in a row: an arbiter
//!    catching up) for 60 s (`GGDESK_BENCH_SECONDS`; 0 leaves this part out): commits/s and
//!    the commit latency p50/p99 (request sent → its 2xx answer read). Target: p99 < 20 ms.
//! 3. Meanwhile the director's store listens for changes (`Store::listen`, as the director's
//!    desk does): the time from a commit's answer at the station to the director's store
//!    noticing it, p50/p99. Target: p99 < 1 s.
//!
//! Every event a desk had answered 200 must be stored once (checked at the end).

#[path = "../tests/support/event.rs"]
mod event;
#[path = "../tests/support/pg.rs"]
mod pg;
#[path = "../tests/support/trust.rs"]
mod trust;

use criterion::Criterion;
use futures_util::stream::{self, StreamExt};
use ggdesk::station::{self, Limits, StationServer};
use ggdesk::store::{Actor, Address, AnyEvent, Change, GameId, Store, TournamentId};
use ggdesk::tls::{Authority, Pin, PinnedAuthority};
use ggdesk_core::clock::Time;
use ggdesk_core::record::setup_value;
use ggdesk_core::rules::{Event, Game, Move, Position, RuleSettings, Side};
use ggdesk_core::tournament::{RoundNo, TableNo};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rustls::client::Resumption;
use rustls::pki_types::ServerName;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Station desks in the load, one table each.
const DESKS: u32 = 250;
/// Tables of the station the criterion part commits moves at (its second tournament).
const BENCH_TABLES: u32 = 100;
/// Moves made in a criterion game before it goes on at the next table: below the 30 complete
/// moves without a challenge that end a game, so a game never ends under the bench.
const BENCH_PLIES: u32 = 50;

fn percentile<T: Copy + Default>(sorted: &[T], p: f64) -> T {
    if sorted.is_empty() {
        return T::default();
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// CPU time counted in `/proc` (ticks of 10 ms, `getconf CLK_TCK` = 100), in seconds.
const TICK: f64 = 0.01;

/// The fields of a `/proc/.../stat` line after its command's name (which may hold spaces),
/// with that name.
fn stat_fields(path: &std::path::Path) -> Option<(String, Vec<u64>)> {
    let text = std::fs::read_to_string(path).ok()?;
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let name = text[open + 1..close].to_string();
    // Fields from the state on (the 3rd); numbers only (the state is a letter).
    let rest = text[close + 1..]
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    Some((name, rest))
}

/// Where the CPU went: this process's threads by kind, the cluster's processes, the machine.
#[derive(Debug, Default, Clone, Copy)]
struct Cpu {
    /// The stations' API: its runtime's workers and blocking threads (`ggdesk-station*`).
    server: f64,
    /// The change listeners' threads (`ggdesk-listen`: the director's and the API's watcher).
    listeners: f64,
    /// Everything else in this process: the desks' clients and the bench's main thread.
    clients: f64,
    /// The cluster: the postmaster and its children, those ended included.
    postgres: f64,
    /// The whole machine: busy time over all cores, and the wall time.
    machine: f64,
    at: Option<Instant>,
}

impl Cpu {
    fn now(cluster: &pg::Cluster) -> Cpu {
        let mut cpu = Cpu {
            at: Some(Instant::now()),
            ..Cpu::default()
        };
        // Fields after the state (`proc(5)`'s 4th on): the parent's pid first, utime the
        // 11th, stime, then the ended children's cutime and cstime.
        let own = |f: &[u64]| (f[10] + f[11]) as f64 * TICK;
        if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
            for task in tasks.flatten() {
                if let Some((name, f)) = stat_fields(&task.path().join("stat")) {
                    let slot = if name.starts_with("ggdesk-station") {
                        &mut cpu.server
                    } else if name.starts_with("ggdesk-listen") {
                        &mut cpu.listeners
                    } else {
                        &mut cpu.clients
                    };
                    *slot += own(&f);
                }
            }
        }
        let postmaster: Option<u64> =
            std::fs::read_to_string(cluster.dir.join("data/postmaster.pid"))
                .ok()
                .and_then(|t| t.lines().next().and_then(|l| l.trim().parse().ok()));
        if let (Some(pm), Ok(procs)) = (postmaster, std::fs::read_dir("/proc")) {
            for entry in procs.flatten() {
                let Ok(pid) = entry.file_name().to_string_lossy().parse::<u64>() else {
                    continue;
                };
                if let Some((_, f)) = stat_fields(&entry.path().join("stat")) {
                    if pid == pm {
                        cpu.postgres += (f[10] + f[11] + f[12] + f[13]) as f64 * TICK;
                    } else if f[0] == pm {
                        cpu.postgres += own(&f);
                    }
                }
            }
        }
        if let Ok(text) = std::fs::read_to_string("/proc/stat") {
            let f: Vec<u64> = text
                .lines()
                .next()
                .unwrap_or_default()
                .split_whitespace()
                .skip(1)
                .map(|n| n.parse().unwrap_or(0))
                .collect();
            // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
            let idle = f.get(3).copied().unwrap_or(0) + f.get(4).copied().unwrap_or(0);
            cpu.machine = (f.iter().take(8).sum::<u64>() - idle) as f64 * TICK;
        }
        cpu
    }

    /// What was used between `before` and now, as shares of one core.
    fn report(&self, before: &Cpu) -> String {
        let wall = match (self.at, before.at) {
            (Some(a), Some(b)) => (a - b).as_secs_f64(),
            _ => 1.0,
        };
        let share = |a: f64, b: f64| 100.0 * (a - b) / wall;
        let ours = (self.server - before.server)
            + (self.listeners - before.listeners)
            + (self.clients - before.clients)
            + (self.postgres - before.postgres);
        format!(
            "CPU over {wall:.0} s, in % of one core: the API's threads {:.0} %, PostgreSQL {:.0} %, \
             the desks' clients {:.0} %, the listeners {:.0} %; the whole machine (2 cores) \
             {:.0} %, of which other processes {:.0} %",
            share(self.server, before.server),
            share(self.postgres, before.postgres),
            share(self.clients, before.clients),
            share(self.listeners, before.listeners),
            share(self.machine, before.machine),
            share(self.machine - ours, before.machine),
        )
    }
}

/// The bench's own cluster, as the tests' (`tests/support/pg.rs`): stations hold no
/// connection of their own (they speak HTTPS to the event server only), so the default room
/// is enough for 250 of them.
fn cluster() -> pg::Cluster {
    let bin = pg::bin_dir();
    let dir = pg::server_folder("station-api-bench");
    let port = pg::free_port();
    pg::init_and_start(&bin, &dir, port, &[]);
    pg::stop_when_done(&bin, &dir);
    pg::Cluster { dir, port, bin }
}

/// A station: its name, its secret, its tables.
#[derive(Clone)]
struct Desk {
    name: String,
    secret: String,
    table: u32,
}

/// The event: the director's login and store, the 250 desks' stations of tournament `open`,
/// and station `bench` (tables 1 to [`BENCH_TABLES`] of tournament `other`).
struct Hall {
    url: String,
    director: Store,
    open: TournamentId,
    desks: Vec<Desk>,
    bench: Desk,
}

fn hall(cluster: &pg::Cluster) -> Hall {
    let began = Instant::now();
    let (login, db) = ("bench_director", "bench_event");
    cluster.psql(
        "postgres",
        &format!("CREATE ROLE {login} LOGIN PASSWORD 'director-pw' NOSUPERUSER CREATEROLE"),
    );
    cluster.psql("postgres", &format!("CREATE DATABASE {db} OWNER {login}"));
    let url = format!(
        "postgres://{login}:director-pw@127.0.0.1:{}/{db}",
        cluster.port
    );
    let mut director = event::connect(&url);
    let d = Actor::director();
    let open = trust::tournament(&mut director, "o", 2 * DESKS);
    director
        .publish_round(open, RoundNo(1), &d)
        .expect("publish the desks' round");
    let other = trust::tournament(&mut director, "b", 2 * BENCH_TABLES);
    director
        .publish_round(other, RoundNo(1), &d)
        .expect("publish the bench station's round");
    let players = Instant::now();
    let mut station = |name: &str, tables: &[TableNo], tid: TournamentId| {
        director
            .add_station(name, tid, tables, &d)
            .expect("a station and its secret")
    };
    let desks: Vec<Desk> = (1..=DESKS)
        .map(|table| {
            let name = format!("desk-{table}");
            let secret = station(&name, &[TableNo(table)], open);
            Desk {
                name,
                secret,
                table,
            }
        })
        .collect();
    let tables: Vec<TableNo> = (1..=BENCH_TABLES).map(TableNo).collect();
    let bench = Desk {
        name: "bench".into(),
        secret: station("bench", &tables, other),
        table: 1,
    };
    println!(
        "event made: {} + {} players paired in {:.1} s, {} stations with their secrets in {:.1} s",
        2 * DESKS,
        2 * BENCH_TABLES,
        (players - began).as_secs_f64(),
        DESKS + 1,
        players.elapsed().as_secs_f64()
    );
    Hall {
        url,
        director,
        open,
        desks,
        bench,
    }
}

/// The clients' side: the API's address and the TLS a station's desk speaks, with a pin of
/// the event's authority; `full` never resumes a session (every handshake checks the
/// certificate), `resuming` keeps rustls' default session cache.
struct Clients {
    addr: SocketAddr,
    full: Arc<rustls::ClientConfig>,
    resuming: Arc<rustls::ClientConfig>,
}

impl Clients {
    fn new(addr: SocketAddr, fingerprint: &str) -> Clients {
        let pinned = PinnedAuthority::new(Pin::parse(fingerprint).expect("the authority's pin"));
        let mut resuming = pinned.client_config().expect("a client configuration");
        resuming.alpn_protocols = vec![b"http/1.1".to_vec()];
        let mut full = resuming.clone();
        full.resumption = Resumption::disabled();
        Clients {
            addr,
            full: Arc::new(full),
            resuming: Arc::new(resuming),
        }
    }
}

type Sender = SendRequest<Full<Bytes>>;

/// Opens a connection: TCP, TLS (checked against the pinned authority), HTTP/1.1; with how
/// the TLS handshake went (full or resumed).
async fn connect(addr: SocketAddr, tls: Arc<rustls::ClientConfig>) -> (Sender, String) {
    let tcp = tokio::net::TcpStream::connect(addr)
        .await
        .expect("a TCP connection to the API");
    tcp.set_nodelay(true).expect("TCP_NODELAY");
    let stream = tokio_rustls::TlsConnector::from(tls)
        .connect(ServerName::IpAddress(addr.ip().into()), tcp)
        .await
        .expect("a TLS handshake the pinned authority accepts");
    let (_, session) = stream.get_ref();
    let kind = format!(
        "{} {}",
        session
            .protocol_version()
            .map(|v| format!("{v:?}"))
            .unwrap_or_default(),
        session
            .handshake_kind()
            .map(|k| format!("{k:?}"))
            .unwrap_or_default()
    );
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("an HTTP/1.1 connection");
    tokio::spawn(async move {
        let _ = conn.await;
    });
    (sender, kind)
}

fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    secret: &str,
    body: Option<&Value>,
) -> hyper::Request<Full<Bytes>> {
    let mut b = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", addr.to_string())
        .header("authorization", format!("Bearer {secret}"));
    let bytes = match body {
        Some(v) => {
            b = b.header("content-type", "application/json");
            v.to_string().into_bytes()
        }
        None => Vec::new(),
    };
    b.body(Full::new(Bytes::from(bytes)))
        .expect("a well-formed request")
}

/// Sends a request on an open connection and reads its whole answer: status and body.
async fn call(sender: &mut Sender, req: hyper::Request<Full<Bytes>>) -> (u16, Value) {
    sender
        .ready()
        .await
        .expect("the connection takes a request");
    let res = sender
        .send_request(req)
        .await
        .expect("an answer from the API");
    let status = res.status().as_u16();
    let bytes = res
        .into_body()
        .collect()
        .await
        .expect("the answer's body")
        .to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Creates the game at `table` through the API, enters both setups and starts it (White
/// first), as a station's desk does: its id and a replica to choose legal moves from.
async fn start_game(
    sender: &mut Sender,
    addr: SocketAddr,
    desk: &Desk,
    table: u32,
) -> (GameId, Game) {
    let (name, secret) = (&desk.name, desk.secret.as_str());
    let path = format!("/{name}/games");
    let (status, answer) = call(
        sender,
        request(
            addr,
            "POST",
            &path,
            secret,
            Some(&json!({ "table": table })),
        ),
    )
    .await;
    assert_eq!(status, 201, "the game at table {table}: {answer}");
    let id = GameId(answer["game"].as_i64().expect("a game id"));
    let setups = event::setups(u64::from(table) * 7919 + name.len() as u64);
    for side in Side::BOTH {
        let path = format!("/{name}/games/{id}/setup/{}", side.name());
        let body = setup_value(&setups[side]);
        let (status, answer) = call(sender, request(addr, "PUT", &path, secret, Some(&body))).await;
        assert_eq!(status, 200, "a setup at table {table}: {answer}");
    }
    let path = format!("/{name}/games/{id}/start");
    let body = json!({ "first": "white" });
    let (status, answer) = call(sender, request(addr, "POST", &path, secret, Some(&body))).await;
    assert_eq!(status, 200, "the start at table {table}: {answer}");
    let position = Position::from_setups(&setups).expect("legal setups");
    let game = Game::new(RuleSettings::default(), Side::White, None, position);
    (id, game)
}

/// The game after `mv`, when it goes on (not decided, not waiting for counts).
fn goes_on(game: &Game, mv: Move) -> Option<Game> {
    let mut after = game.clone();
    let applied = after.apply(game.last_time(), &Event::Move { mv, by: None });
    (applied.is_ok() && !after.is_over()).then_some(after)
}

/// A random legal move after which the game goes on and the other side too has a move that
/// keeps it going (a flag brought to the far row leaves the other side none): an arbiter's
/// desk in the middle of a game, never its last move.
fn lasting_move(game: &Game, rng: &mut StdRng) -> Option<Move> {
    let mut moves = game.position().legal_moves(game.to_move());
    while !moves.is_empty() {
        let mv = moves.swap_remove(rng.random_range(0..moves.len()));
        let Some(after) = goes_on(game, mv) else {
            continue;
        };
        let replies = after.position().legal_moves(after.to_move());
        if replies.into_iter().any(|r| goes_on(&after, r).is_some()) {
            return Some(mv);
        }
    }
    None
}

/// The move as the API takes it, and the replica moved on at the server's time `t`.
fn move_body(mv: Move) -> Value {
    json!({ "move": mv.to_string() })
}

fn follow(game: &mut Game, mv: Move, answer: &Value) {
    let t = answer["t"]
        .as_f64()
        .expect("the server's time of the event");
    game.apply(
        Time::from_secs_f64(t).expect("a time"),
        &Event::Move { mv, by: None },
    )
    .expect("the replica agrees with the server");
}

fn runtime(threads: usize) -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .expect("a client runtime")
}

/// The criterion part: a connection's cost, a read and one commit, one desk at a time.
fn single_desk(c: &mut Criterion, clients: &Clients, bench: &Desk) {
    let rt = runtime(1);
    let addr = clients.addr;
    let me = format!("/{}", bench.name);
    let get = || request(addr, "GET", &me, &bench.secret, None);
    rt.block_on(async {
        let mut kinds = Vec::new();
        for tls in [
            &clients.full,
            &clients.full,
            &clients.resuming,
            &clients.resuming,
        ] {
            // The GET also reads the session tickets the server sends after its handshake.
            let (mut s, kind) = connect(addr, tls.clone()).await;
            assert_eq!(call(&mut s, get()).await.0, 200, "GET {me}");
            kinds.push(kind);
        }
        println!(
            "TLS handshakes: without resumption {}, then {}; with it {}, then {}",
            kinds[0], kinds[1], kinds[2], kinds[3]
        );
    });

    let mut group = c.benchmark_group("station_api");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("connect only (TCP + full TLS 1.3 handshake, pinned)", |b| {
        b.iter(|| rt.block_on(connect(addr, clients.full.clone())))
    });
    group.bench_function(
        "connect (TCP + full TLS 1.3 handshake, pinned) + GET /NAME",
        |b| {
            b.iter(|| {
                rt.block_on(async {
                    let (mut s, _) = connect(addr, clients.full.clone()).await;
                    assert_eq!(call(&mut s, get()).await.0, 200);
                })
            })
        },
    );
    let (mut resumed, mut handshakes) = (0, 0);
    group.bench_function("connect (TCP + resumed TLS 1.3 session) + GET /NAME", |b| {
        b.iter(|| {
            rt.block_on(async {
                let (mut s, kind) = connect(addr, clients.resuming.clone()).await;
                assert_eq!(call(&mut s, get()).await.0, 200);
                handshakes += 1;
                resumed += usize::from(kind.ends_with("Resumed"));
            })
        })
    });
    println!("  ({resumed} of its {handshakes} handshakes resumed a session)");
    let (mut open, _) = rt.block_on(connect(addr, clients.full.clone()));
    group.bench_function("GET /NAME on an open connection", |b| {
        b.iter(|| rt.block_on(async { assert_eq!(call(&mut open, get()).await.0, 200) }))
    });

    // One move committed: the game at the station's next table once this one has had its
    // moves (set up and started outside the measured time).
    let mut rng = StdRng::seed_from_u64(32);
    let mut table = 0;
    let mut current: Option<(GameId, Game)> = None;
    group.bench_function(
        "one move committed (POST /NAME/games/ID/events) on an open connection",
        |b| {
            b.iter_custom(|iters| {
                let mut took = Duration::ZERO;
                for _ in 0..iters {
                    let fresh = match &current {
                        Some((_, game)) => game.plies() >= BENCH_PLIES,
                        None => true,
                    };
                    let mv = current
                        .as_ref()
                        .filter(|_| !fresh)
                        .and_then(|(_, game)| lasting_move(game, &mut rng));
                    let mv = match mv {
                        Some(mv) => mv,
                        None => {
                            table += 1;
                            assert!(
                                table <= BENCH_TABLES,
                                "the bench station ran out of tables: raise BENCH_TABLES"
                            );
                            let started = rt.block_on(start_game(&mut open, addr, bench, table));
                            let mv = lasting_move(&started.1, &mut rng)
                                .expect("a game just started has a move");
                            current = Some(started);
                            mv
                        }
                    };
                    let (id, game) = current.as_mut().expect("a game in play");
                    let path = format!("/{}/games/{id}/events", bench.name);
                    let req = request(addr, "POST", &path, &bench.secret, Some(&move_body(mv)));
                    let sent = Instant::now();
                    let (status, answer) = rt.block_on(call(&mut open, req));
                    took += sent.elapsed();
                    assert_eq!(status, 200, "a move: {answer}");
                    follow(game, mv, &answer);
                }
                took
            })
        },
    );
    group.finish();
    println!("criterion's games: {table} tables of the bench station played");
}

/// One commit at a desk: its game, when its request was sent and its answer read.
struct Commit {
    game: i64,
    sent: Instant,
    answered: Instant,
}

/// What one desk did in the load.
#[derive(Default)]
struct DeskRun {
    commits: Vec<Commit>,
    refusals: Vec<String>,
    reconnects: u32,
    stuck: bool,
}

/// One desk in the load: from its start (spread over the first 2 s) until `end`, a move every
/// 1.5-2.5 s, one time in ten three in a row, on one kept-alive connection.
async fn desk_load(
    clients: Arc<Clients>,
    desk: Desk,
    (id, mut game): (GameId, Game),
    start: Instant,
    end: Instant,
) -> DeskRun {
    let mut rng = StdRng::seed_from_u64(1000 + u64::from(desk.table));
    let mut run = DeskRun::default();
    let mut next = start + Duration::from_millis(rng.random_range(0..2000));
    tokio::time::sleep_until(next.into()).await;
    let addr = clients.addr;
    let (mut sender, _) = connect(addr, clients.resuming.clone()).await;
    let path = format!("/{}/games/{id}/events", desk.name);
    'desk: while next < end {
        tokio::time::sleep_until(next.into()).await;
        let burst = if rng.random_range(0..10) == 0 { 3 } else { 1 };
        for _ in 0..burst {
            let Some(mv) = lasting_move(&game, &mut rng) else {
                run.stuck = true;
                break 'desk;
            };
            // A connection the server closed meanwhile is opened again before the
            // measured request (counted).
            if sender.is_closed() || sender.ready().await.is_err() {
                sender = connect(addr, clients.resuming.clone()).await.0;
                run.reconnects += 1;
            }
            let req = request(addr, "POST", &path, &desk.secret, Some(&move_body(mv)));
            let sent = Instant::now();
            let (status, answer) = call(&mut sender, req).await;
            let answered = Instant::now();
            if status != 200 {
                run.refusals.push(format!("{status} {answer}"));
                break;
            }
            follow(&mut game, mv, &answer);
            run.commits.push(Commit {
                game: id.0,
                sent,
                answered,
            });
        }
        next += Duration::from_millis(rng.random_range(1500..2500));
    }
    run
}

/// The load: 250 desks set up their games through the API, then play for `seconds` while
/// the director's store listens.
fn load(hall: &Hall, cluster: &pg::Cluster, clients: Arc<Clients>, seconds: u64) -> GameId {
    let rt = runtime(2);
    let addr = clients.addr;

    // Each desk creates, sets up and starts its table's game through the API (16 at once).
    let began = Instant::now();
    let games: Vec<(GameId, Game)> = rt.block_on(
        stream::iter(hall.desks.clone())
            .map(|desk| {
                let tls = clients.resuming.clone();
                async move {
                    let (mut s, _) = connect(addr, tls).await;
                    start_game(&mut s, addr, &desk, desk.table).await
                }
            })
            .buffered(16)
            .collect(),
    );
    println!(
        "{DESKS} games created, set up and started through the API in {:.1} s ({} requests)",
        began.elapsed().as_secs_f64(),
        4 * DESKS
    );

    // The director's desk listens as src/ui/live.rs does.
    let changes = hall
        .director
        .listen(|| {})
        .expect("the director's store listens")
        .expect("a server announces changes");
    let waiting = Instant::now();
    while !changes.connected() {
        assert!(
            waiting.elapsed() < Duration::from_secs(60),
            "the director's listener never connected"
        );
        std::thread::sleep(Duration::from_millis(10));
    }

    let start = Instant::now() + Duration::from_secs(1);
    let end = start + Duration::from_secs(seconds);

    let handles: Vec<_> = hall
        .desks
        .iter()
        .cloned()
        .zip(games)
        .map(|(desk, game)| rt.spawn(desk_load(clients.clone(), desk, game, start, end)))
        .collect();
    // What the director's store noticed, from the start on (the setups' notices are past).
    std::thread::sleep(start.saturating_duration_since(Instant::now()));
    changes.drain();
    let cpu_before = Cpu::now(cluster);
    let mut cpu_after = None;
    let mut noticed: HashMap<i64, Vec<Instant>> = HashMap::new();
    let mut others = 0;
    while Instant::now() < end + Duration::from_secs(3) {
        if cpu_after.is_none() && Instant::now() >= end {
            cpu_after = Some(Cpu::now(cluster));
        }
        match changes.next(Duration::from_millis(100)) {
            Some(Change::Row { game: Some(g), .. }) => {
                noticed.entry(g).or_default().push(Instant::now());
            }
            Some(_) => others += 1,
            None => {}
        }
    }
    let runs: Vec<DeskRun> = handles
        .into_iter()
        .map(|h| rt.block_on(h).expect("a desk's task"))
        .collect();

    let mut latencies: Vec<Duration> = Vec::new();
    let mut after_answer: Vec<f64> = Vec::new();
    let mut after_sent: Vec<Duration> = Vec::new();
    let (mut refusals, mut reconnects, mut stuck, mut unmatched) = (Vec::new(), 0, 0, 0);
    let mut stored_wrong = 0;
    for run in &runs {
        latencies.extend(run.commits.iter().map(|c| c.answered - c.sent));
        refusals.extend(run.refusals.iter().cloned());
        reconnects += run.reconnects;
        stuck += usize::from(run.stuck);
        let Some(first) = run.commits.first() else {
            continue;
        };
        // One audit row per event, each announced at its commit: the desk's i-th commit
        // is its game's i-th notice.
        let seen = noticed.get(&first.game).map(Vec::as_slice).unwrap_or(&[]);
        if seen.len() == run.commits.len() {
            for (c, at) in run.commits.iter().zip(seen) {
                after_sent.push(at.saturating_duration_since(c.sent));
                after_answer.push(if *at >= c.answered {
                    ms(*at - c.answered)
                } else {
                    -ms(c.answered - *at)
                });
            }
        } else {
            unmatched += 1;
        }
        let stored = hall
            .director
            .load_game(GameId(first.game))
            .expect("a desk's game")
            .events
            .len();
        if stored != run.commits.len() {
            stored_wrong += 1;
        }
    }
    latencies.sort();
    after_sent.sort();
    after_answer.sort_by(f64::total_cmp);
    let committed = latencies.len();
    println!(
        "{DESKS} desks, each on its own kept-alive HTTPS connection, a move every ~2 s \
         (one time in ten three in a row), {seconds} s:"
    );
    println!(
        "  {committed} commits answered 200, {:.1}/s; latency (sent → answer read) p50 {:.2} ms, \
         p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms (target p99 < 20 ms)",
        committed as f64 / seconds as f64,
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.9)),
        ms(percentile(&latencies, 0.99)),
        ms(latencies.last().copied().unwrap_or_default()),
    );
    println!(
        "  refused: {} {:?}; connections opened again: {reconnects}; desks whose game could \
         not go on: {stuck}",
        refusals.len(),
        refusals.iter().take(3).collect::<Vec<_>>()
    );
    let before = after_answer.iter().filter(|d| **d < 0.0).count();
    println!(
        "  the director's store noticed each commit (Store::listen), {} commits matched \
         ({unmatched} desks' notices did not pair with their commits, {others} other notices):",
        after_answer.len()
    );
    println!(
        "    after the station's answer: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (target p99 \
         < 1 s; negative: noticed before the answer was read, {before} commits)",
        percentile(&after_answer, 0.5),
        percentile(&after_answer, 0.99),
        after_answer.last().copied().unwrap_or_default(),
    );
    println!(
        "    after the request was sent: p50 {:.2} ms, p99 {:.2} ms",
        ms(percentile(&after_sent, 0.5)),
        ms(percentile(&after_sent, 0.99)),
    );
    println!("  desks whose stored events differ from their answered commits: {stored_wrong}");
    if let Some(after) = cpu_after {
        println!("  {}", after.report(&cpu_before));
        let per = |a: f64, b: f64| 1000.0 * (a - b) / committed.max(1) as f64;
        println!(
            "  CPU per commit: the API's threads {:.2} ms, PostgreSQL {:.2} ms",
            per(after.server, cpu_before.server),
            per(after.postgres, cpu_before.postgres)
        );
    }
    assert_eq!(
        stored_wrong, 0,
        "every event answered 200 is stored, once (no event lost or stored twice)"
    );
    runs.iter()
        .find(|r| !r.stuck)
        .and_then(|r| r.commits.first())
        .map_or(GameId(0), |c| GameId(c.game))
}

/// Where one commit's store work goes: the calls the API makes for `POST /NAME/games/ID/events`
/// (the secret, the scope: the game and the round in play, then the append), each timed alone
/// on the director's connection, one at a time, 30 times on a desk's game.
fn breakdown(hall: &mut Hall, id: GameId) {
    let store = &mut hall.director;
    let table = store
        .load_game(id)
        .expect("a desk's game")
        .meta
        .table_no
        .expect("its table");
    let desk = hall.desks[table.0 as usize - 1].clone();
    let mut rng = StdRng::seed_from_u64(9);
    let (mut secret, mut game, mut event, mut append) = (vec![], vec![], vec![], vec![]);
    let timed = |samples: &mut Vec<Duration>, f: &mut dyn FnMut()| {
        let began = Instant::now();
        f();
        samples.push(began.elapsed());
    };
    for _ in 0..30 {
        timed(&mut secret, &mut || {
            store
                .station_by_secret(&desk.name, &desk.secret)
                .expect("the secret read")
                .expect("the station's secret");
        });
        let mut stored = None;
        timed(&mut game, &mut || {
            stored = Some(store.load_game(id).expect("the game"));
        });
        timed(&mut event, &mut || {
            store
                .round_in_play(hall.open, table)
                .expect("the round in play")
                .expect("round 1");
        });
        let stored = stored.expect("the game loaded");
        let live = stored
            .game()
            .expect("its setups")
            .expect("its events replay");
        let Some(mv) = lasting_move(&live, &mut rng) else {
            break;
        };
        let last = stored.events.last().map_or(0.0, |e| e.t);
        let t = stored.t_at(store.now()).unwrap_or(0.0).max(last);
        timed(&mut append, &mut || {
            store
                .append(
                    id,
                    t,
                    AnyEvent::Game(Event::Move { mv, by: None }),
                    &Actor::arbiter(Some(1)),
                    "",
                )
                .expect("a move appended");
        });
    }
    let line = |what: &str, samples: &mut Vec<Duration>| {
        samples.sort();
        println!(
            "  {what}: median {:.2} ms, p90 {:.2} ms",
            ms(percentile(samples, 0.5)),
            ms(percentile(samples, 0.9))
        );
    };
    println!(
        "one commit's store work, call by call, alone on the director's connection ({} players, \
         {} moves in the game):",
        2 * DESKS,
        hall.director.load_game(id).expect("the game").events.len()
    );
    line("the station's secret (station_by_secret)", &mut secret);
    line("the game (load_game)", &mut game);
    line(
        "the round in play and the board's result at the table (round_in_play)",
        &mut event,
    );
    line("the move appended and committed (append)", &mut append);
}

fn main() {
    let seconds: u64 = std::env::var("GGDESK_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let cluster = cluster();
    println!(
        "station API: PostgreSQL on 127.0.0.1:{} (synchronous_commit = {}, max_connections = {})",
        cluster.port,
        cluster.psql("postgres", "SHOW synchronous_commit"),
        cluster.psql("postgres", "SHOW max_connections"),
    );
    let mut hall = hall(&cluster);
    let ca = Authority::create("ggdesk station API bench").expect("an authority");
    let cert = ca
        .issue(&["127.0.0.1".into()])
        .expect("the API's certificate");
    let tls = Arc::new(cert.server_config().expect("the API's TLS"));
    let db = Address::Server(hall.url.clone());

    // Criterion's single desk sends far faster than a station may (20 requests a second):
    // its own server, every other limit the host's.
    {
        let fast = Limits {
            rate_per_second: 1e9,
            rate_burst: 1e9,
            ..Limits::default()
        };
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let server: StationServer =
            station::spawn_with(listener, tls.clone(), db.clone(), fast).expect("the API");
        let clients = Clients::new(server.addr(), &ca.fingerprint());
        let mut c = Criterion::default().configure_from_args();
        single_desk(&mut c, &clients, &hall.bench);
        c.final_summary();
        server.stop();
    }

    if seconds > 0 {
        // The load on the API as `ggdesk host` runs it (`station::spawn`, default limits).
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let server = station::spawn(listener, tls, db).expect("the API");
        let clients = Arc::new(Clients::new(server.addr(), &ca.fingerprint()));
        let game = load(&hall, &cluster, clients, seconds);
        server.stop();
        breakdown(&mut hall, game);
    }
}
