//! `ggdesk pair` on a 1,000-player Swiss after 6 rounds: reading the file, pairing round 7
//! and writing the JSON, as the command does.

use criterion::{Criterion, criterion_group, criterion_main};
use ggdesk_core::pairing::pair_next_round;
use ggdesk_core::tournament::{GameResult, Player, PlayerId, Settings, Tournament};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

/// A 1,000-player Swiss after `rounds` rounds paired by ggdesk itself, with random results
/// (some draws and forfeits), as a tournament file.
fn swiss_file(players: u32, rounds: usize) -> String {
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut t = Tournament::new("bench", Settings::swiss(9)).expect("valid settings");
    for id in 1..=players {
        let rating = rng.random_range(1000..2400);
        t.add_player(Player::new(PlayerId(id), format!("Player {id}"), rating))
            .expect("fresh id");
    }
    for round in 1..=rounds {
        let pairing = pair_next_round(&t, &[]).expect("a pairing exists");
        let games = pairing.games.len();
        t.add_round(pairing.to_round()).expect("valid round");
        for g in 0..games {
            let result = match rng.random_range(0..100) {
                0..45 => GameResult::WhiteWins,
                45..88 => GameResult::BlackWins,
                88..98 => GameResult::Draw,
                98 => GameResult::WhiteWinsByForfeit,
                _ => GameResult::BlackWinsByForfeit,
            };
            t.set_result(round, g, result).expect("game exists");
        }
    }
    t.to_json()
}

fn bench(c: &mut Criterion) {
    let file = swiss_file(1000, 6);
    let mut group = c.benchmark_group("pair");
    group.sample_size(10);
    group.bench_function("swiss 1000 players, round 7", |b| {
        b.iter(|| {
            let t = Tournament::from_json(black_box(&file)).expect("valid file");
            let pairing = pair_next_round(&t, &[]).expect("a pairing exists");
            black_box(pairing.to_json())
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
