//! Replay throughput: plies per second through the rules engine in-process, and
//! `ggdesk replay` on a 200-ply record end to end.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ggdesk_core::record::{Record, replay, replay_game};
use ggdesk_core::rules::{Game, Position, RuleSettings};
use ggdesk_core::sim::{SimOptions, random_record};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::process::Command;

fn options(max_events: usize) -> SimOptions {
    SimOptions {
        max_events,
        max_think_ms: 30_000,
        arbiter_events: false,
        rules: RuleSettings {
            thirty_moves: 0,
            ..RuleSettings::default()
        },
    }
}

fn games(count: usize) -> Vec<Record> {
    let mut rng = StdRng::seed_from_u64(2026);
    (0..count)
        .map(|_| {
            random_record(&mut |n| rng.random_range(0..n.max(1)), options(400))
                .expect("the engine takes every event of a random game")
        })
        .collect()
}

/// A record whose game is still going after exactly 200 plies.
fn record_of_200_plies() -> Record {
    let mut rng = StdRng::seed_from_u64(200);
    loop {
        let mut record = random_record(&mut |n| rng.random_range(0..n.max(1)), options(200))
            .expect("the engine takes every event of a random game");
        record.rules = RuleSettings::default();
        if let Ok(verdict) = replay(&record)
            && verdict.plies == 200
            && verdict.outcome.is_none()
        {
            return record;
        }
    }
}

fn in_process(c: &mut Criterion) {
    let records = games(200);
    let prepared: Vec<(Position, &Record)> = records
        .iter()
        .map(|r| (Position::from_setups(&r.setup).expect("legal setups"), r))
        .collect();
    let plies: u64 = records
        .iter()
        .map(|r| replay_game(r).map(|(g, _)| g.plies() as u64).unwrap_or(0))
        .sum();
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(plies));
    group.bench_function("random_games_in_process", |b| {
        b.iter(|| {
            for (position, record) in &prepared {
                let mut game =
                    Game::new(record.rules, record.first, record.ratings, position.clone());
                for e in &record.events {
                    let _ = black_box(game.apply(e.time().unwrap_or_default(), &e.event));
                }
                black_box(game.plies());
            }
        })
    });
    group.finish();
}

fn end_to_end(c: &mut Criterion) {
    let record = record_of_200_plies();
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("game200.json");
    std::fs::write(&path, record.to_json_pretty()).expect("write the record");
    let binary = env!("CARGO_BIN_EXE_ggdesk");
    let mut group = c.benchmark_group("replay");
    group.sample_size(30);
    group.bench_function("ggdesk_replay_200_plies_end_to_end", |b| {
        b.iter(|| {
            let out = Command::new(binary)
                .arg("replay")
                .arg(&path)
                .output()
                .expect("run ggdesk replay");
            assert!(out.status.success());
            black_box(out.stdout);
        })
    });
    group.finish();
}

criterion_group!(benches, in_process, end_to_end);
criterion_main!(benches);
