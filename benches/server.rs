//! The event server, measured side by side in one run (`cargo bench --bench server`):
//!
//! 1. one arbiter event committed on PostgreSQL (loopback, `synchronous_commit=on`) and on
//!    SQLite (`synchronous=FULL`): median and p99;
//! 2. 250 simulated desks on one server, each appending an event every 2 s with bursts, for
//!    60 s (`GGDESK_BENCH_SECONDS` to change): commits/s, p50/p99 latency, and a count of
//!    lost or duplicated events (must be zero);
//! 3. meanwhile, the time from a commit at one desk to the change seen at another (through
//!    `LISTEN`/`NOTIFY`): p50/p99.
//!
//! Targets: p99 commit under 20 ms and the change seen elsewhere under 1 s, at 250 desks.

#[path = "../tests/support/games.rs"]
mod games;
#[path = "../tests/support/pg.rs"]
mod pg;

use ggdesk::store::{Actor, Address, AnyEvent, Change, Expect, GameId, NewGame, Store};
use ggdesk_core::clock::Time;
use ggdesk_core::rules::{Event, Game, Position, RuleSettings, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A desk's game: the stored game and a replica to choose legal moves from.
struct DeskGame {
    id: GameId,
    game: Game,
    started: Instant,
    next_seq: u32,
}

fn new_game(store: &mut Store, rng: &mut StdRng, actor: &Actor) -> DeskGame {
    let mut new = NewGame::standalone();
    new.rules = RuleSettings {
        thirty_moves: 0,
        ..RuleSettings::default()
    };
    let setups = games::random_both(rng);
    let now = store.now();
    let id = games::start_with(store, &new, &setups, now, actor).expect("game");
    let position = Position::from_setups(&setups).expect("legal setups");
    DeskGame {
        id,
        game: Game::new(new.rules, Side::White, None, position),
        started: Instant::now(),
        next_seq: 0,
    }
}

/// Appends the desk's next move (a new game when its game ended); the commit's latency.
fn desk_event(
    store: &mut Store,
    desk: &mut DeskGame,
    rng: &mut StdRng,
    actor: &Actor,
    token: &str,
) -> Duration {
    if desk.game.is_over()
        || desk
            .game
            .position()
            .legal_moves(desk.game.to_move())
            .is_empty()
    {
        *desk = new_game(store, rng, actor);
    }
    let moves = desk.game.position().legal_moves(desk.game.to_move());
    let event = Event::Move {
        mv: moves[rng.random_range(0..moves.len())],
        by: None,
    };
    let t = desk.started.elapsed().as_secs_f64();
    let began = Instant::now();
    let outcome = store
        .append_expecting(
            desk.id,
            Some(Expect {
                seq: desk.next_seq,
                token,
            }),
            t,
            AnyEvent::Game(event),
            actor,
            "",
        )
        .expect("the desk's event");
    let took = began.elapsed();
    desk.next_seq = outcome.seq + 1;
    let time = Time::from_secs_f64(t).expect("time");
    desk.game.apply(time, &event).expect("the replica agrees");
    took
}

/// Commit latency of one event, `n` times, on a store.
fn single_commits(store: &mut Store, n: usize) -> Vec<Duration> {
    let mut rng = StdRng::seed_from_u64(1);
    let actor = Actor::arbiter(Some(1));
    let mut desk = new_game(store, &mut rng, &actor);
    let mut out: Vec<Duration> = (0..n)
        .map(|i| desk_event(store, &mut desk, &mut rng, &actor, &format!("single-{i}")))
        .collect();
    out.sort();
    out
}

fn main() {
    let seconds: u64 = std::env::var("GGDESK_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let desks: u64 = std::env::var("GGDESK_BENCH_DESKS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(250);
    let cluster = pg::cluster();
    println!(
        "server: PostgreSQL on 127.0.0.1:{} (synchronous_commit = {})",
        cluster.port,
        cluster.psql("postgres", "SHOW synchronous_commit")
    );

    // 1. One event, side by side.
    let dir = tempfile::tempdir().expect("tempdir");
    let mut lite = Store::open(&dir.path().join("bench.sqlite3")).expect("sqlite");
    let lite_times = single_commits(&mut lite, 500);
    let url = cluster.new_database();
    let mut server = Store::connect(&Address::Server(url.clone())).expect("server");
    let pg_times = single_commits(&mut server, 500);
    println!("one arbiter event committed (500 each, one desk):");
    println!(
        "  SQLite synchronous=FULL     median {:.2} ms, p99 {:.2} ms",
        ms(percentile(&lite_times, 0.5)),
        ms(percentile(&lite_times, 0.99))
    );
    println!(
        "  PostgreSQL loopback, sync   median {:.2} ms, p99 {:.2} ms",
        ms(percentile(&pg_times, 0.5)),
        ms(percentile(&pg_times, 0.99))
    );

    // 2 and 3. Many desks on one server, and a probe for the change seen elsewhere.
    let url = cluster.new_database();
    drop(Store::connect(&Address::Server(url.clone())).expect("schema"));
    let run = Duration::from_secs(seconds);
    let (tx, rx) = mpsc::channel::<(u64, Vec<Duration>, GameId, Vec<(GameId, u32)>)>();
    let start = Instant::now() + Duration::from_secs(3);
    let handles: Vec<_> = (0..desks)
        .map(|k| {
            let url = url.clone();
            let tx = tx.clone();
            std::thread::spawn(move || {
                let mut store = Store::connect(&Address::Server(url)).expect("desk");
                let mut rng = StdRng::seed_from_u64(1000 + k);
                let actor = Actor::arbiter(Some(k as i64 + 1));
                let mut desk = new_game(&mut store, &mut rng, &actor);
                let mut games = Vec::new();
                let mut latencies = Vec::new();
                // Desks start spread over the first two seconds.
                let mut next = start + Duration::from_millis(rng.random_range(0..2000));
                let mut i = 0u64;
                while next < start + run {
                    if let Some(wait) = next.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                    // A burst now and then: an arbiter entering a challenge, a penalty and
                    // a pause in a row.
                    let burst = if rng.random_range(0..10) == 0 { 3 } else { 1 };
                    for _ in 0..burst {
                        let before = desk.id;
                        latencies.push(desk_event(
                            &mut store,
                            &mut desk,
                            &mut rng,
                            &actor,
                            &format!("desk-{k}-{i}"),
                        ));
                        if desk.id != before {
                            games.push((before, 0));
                        }
                        i += 1;
                    }
                    next += Duration::from_millis(rng.random_range(1500..2500));
                }
                games.push((desk.id, desk.next_seq));
                tx.send((k, latencies, desk.id, games)).expect("report");
            })
        })
        .collect();
    drop(tx);
    // The probe: a desk commits; a watcher on another connection sees it.
    let watcher = Store::connect(&Address::Server(url.clone())).expect("watcher");
    let changes = watcher.listen(|| {}).expect("listen").expect("server");
    while !changes.connected() {
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut probe = Store::connect(&Address::Server(url.clone())).expect("probe");
    let mut rng = StdRng::seed_from_u64(7);
    let actor = Actor::arbiter(Some(9999));
    let mut probe_desk = new_game(&mut probe, &mut rng, &actor);
    let mut seen_after = Vec::new();
    let mut i = 0;
    while Instant::now() < start + run {
        changes.drain();
        let before = Instant::now();
        desk_event(
            &mut probe,
            &mut probe_desk,
            &mut rng,
            &actor,
            &format!("probe-{i}"),
        );
        let id = probe_desk.id.0;
        loop {
            match changes.next(Duration::from_secs(5)) {
                Some(Change::Row { game: Some(g), .. }) if g == id => {
                    seen_after.push(before.elapsed());
                    break;
                }
                Some(_) => {}
                None => {
                    seen_after.push(Duration::from_secs(5));
                    break;
                }
            }
        }
        i += 1;
        std::thread::sleep(Duration::from_millis(500));
    }
    let mut latencies = Vec::new();
    let mut committed = 0usize;
    let mut games = Vec::new();
    for (_, l, _, g) in rx {
        committed += l.len();
        latencies.extend(l);
        games.extend(g);
    }
    for h in handles {
        h.join().expect("desk thread");
    }
    latencies.sort();
    seen_after.sort();
    // Lost or duplicated: every desk's games hold exactly the events it committed.
    let store = Store::connect(&Address::Server(url)).expect("check");
    let mut wrong = 0;
    let mut stored_total = 0;
    for (id, expected) in &games {
        let stored = store.load_game(*id).expect("game").events.len();
        stored_total += stored;
        if *expected > 0 && stored != *expected as usize {
            wrong += 1;
        }
    }
    let lost_or_duplicated =
        (committed as i64 - stored_total as i64).unsigned_abs() as usize + wrong;
    println!("{desks} desks, each an event every ~2 s with bursts, for {seconds} s:");
    println!(
        "  {committed} commits, {:.1} commits/s, latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        committed as f64 / run.as_secs_f64(),
        ms(percentile(&latencies, 0.5)),
        ms(percentile(&latencies, 0.99)),
        ms(latencies.last().copied().unwrap_or_default())
    );
    println!("  lost or duplicated events: {lost_or_duplicated}");
    println!(
        "  change seen at another desk ({} probes): p50 {:.2} ms, p99 {:.2} ms",
        seen_after.len(),
        ms(percentile(&seen_after, 0.5)),
        ms(percentile(&seen_after, 0.99))
    );
    assert_eq!(
        lost_or_duplicated, 0,
        "no event may be lost or stored twice"
    );
}
