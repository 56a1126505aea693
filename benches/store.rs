//! The store: committing one arbiter event with `synchronous=FULL` (median and p99), and
//! restoring 100 games in progress on start.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use ggdesk::desk::Tables;
use ggdesk::store::{Actor, GameId, NewGame, Store};
use ggdesk_core::record::TimedEvent;
use ggdesk_core::rules::RuleSettings;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::path::Path;
use std::time::Instant;

#[path = "../tests/support/games.rs"]
mod games;

const START_MS: i64 = 1_800_000_000_000;

fn new_game(store: &mut Store, rng: &mut StdRng) -> GameId {
    let mut new = NewGame::standalone();
    new.rules = RuleSettings {
        thirty_moves: 0,
        ..RuleSettings::default()
    };
    let setups = games::random_both(rng);
    games::start_with(store, &new, &setups, START_MS, &Actor::arbiter(None)).expect("game")
}

/// Appends one random legal move; false when the game has ended.
fn append_move(store: &mut Store, id: GameId, t: f64, rng: &mut StdRng) -> bool {
    let Some(event) = games::random_legal(&games::live(store, id), rng) else {
        return false;
    };
    store
        .append_event(id, TimedEvent { t, event }, &Actor::arbiter(None), "")
        .is_ok()
}

fn commit_one_event(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = Store::open(&dir.path().join("bench.sqlite3")).expect("store");
    let mut rng = StdRng::seed_from_u64(1);
    let mut game = new_game(&mut store, &mut rng);
    let mut t = 0.0;
    let mut next = |store: &mut Store, rng: &mut StdRng| {
        t += 1.0;
        if t > 120.0 || !append_move(store, game, t, rng) {
            game = new_game(store, rng);
            t = 1.0;
            append_move(store, game, t, rng);
        }
    };
    // Latency distribution of single commits, as the arbiter feels them.
    let mut samples: Vec<f64> = (0..600)
        .map(|_| {
            let start = Instant::now();
            next(&mut store, &mut rng);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    let pct = |p: f64| samples[((samples.len() - 1) as f64 * p) as usize];
    eprintln!(
        "commit one arbiter event (synchronous=FULL, games up to 120 moves): median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
    c.bench_function("store_commit_one_arbiter_event", |b| {
        b.iter(|| next(&mut store, &mut rng))
    });
}

/// A database with 100 games in progress, their clocks last seen running.
fn hundred_games(path: &Path) {
    let mut store = Store::open(path).expect("store");
    let mut rng = StdRng::seed_from_u64(2);
    let mut seen = Vec::new();
    for _ in 0..100 {
        let id = new_game(&mut store, &mut rng);
        let mut t = 0.0;
        for _ in 0..40 {
            t += 3.0;
            if !append_move(&mut store, id, t, &mut rng) {
                break;
            }
        }
        seen.push((id, t + 2.0));
    }
    store.record_clocks_seen(&seen).expect("seen");
}

fn restore_hundred(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let master = dir.path().join("master.sqlite3");
    hundred_games(&master);
    let copy = dir.path().join("copy.sqlite3");
    let mut group = c.benchmark_group("store");
    group.sample_size(10);
    group.bench_function("restore_100_games_in_progress_on_start", |b| {
        b.iter_batched(
            || {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", copy.display()));
                }
                std::fs::copy(&master, &copy).expect("copy");
            },
            |()| {
                let mut store = Store::open(&copy).expect("open");
                let report = store
                    .restore_games_in_progress(START_MS + 600_000)
                    .expect("restore");
                let mut tables = Tables::default();
                for id in report.restored {
                    tables.ensure(&store, id).expect("table");
                }
                tables
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, commit_one_event, restore_hundred);
criterion_main!(benches);
