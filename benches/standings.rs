//! Standings with every tie-break for 10,000 players after 9 rounds.

use criterion::{Criterion, criterion_group, criterion_main};
use ggdesk_core::tournament::{
    Game, GameResult, Penalty, Player, PlayerId, Round, Score, Settings, TieBreak, Tournament,
    standings,
};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

/// 10,000 players, 9 rounds paired by score order (fast, not a real Swiss: standings do not
/// care how the rounds were paired), random results, a few byes and penalties.
fn big_tournament(players: u32, rounds: usize) -> Tournament {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut settings = Settings::swiss(rounds as u32);
    settings.tiebreaks = TieBreak::ALL.to_vec();
    let mut t = Tournament::new("bench", settings).expect("valid settings");
    for id in 1..=players {
        let rating = rng.random_range(1000..2400);
        t.add_player(Player::new(PlayerId(id), format!("Player {id}"), rating))
            .expect("fresh id");
    }
    for _ in 0..rounds {
        let scores = t.scores(t.rounds().len());
        let shuffle: Vec<u32> = (0..players).map(|_| rng.random()).collect();
        let mut order: Vec<usize> = (0..players as usize).collect();
        order.sort_by_key(|&i| std::cmp::Reverse((scores[i], shuffle[i])));
        let mut round = Round::default();
        for pair in order.chunks(2) {
            let id = |i: usize| t.players()[i].id;
            match pair {
                [a, b] => {
                    let result = match rng.random_range(0..100) {
                        0..45 => GameResult::WhiteWins,
                        45..88 => GameResult::BlackWins,
                        88..98 => GameResult::Draw,
                        98 => GameResult::WhiteWinsByForfeit,
                        _ => GameResult::DoubleForfeit,
                    };
                    round.games.push(Game {
                        table: None,
                        white: id(*a),
                        black: id(*b),
                        result,
                    });
                }
                [a] => round.byes.push(id(*a)),
                _ => {}
            }
        }
        t.add_round(round).expect("valid round");
    }
    for id in (1..=players).step_by(97) {
        t.add_penalty(Penalty {
            player: PlayerId(id),
            points: Score::from_halves(1),
            reason: "delay".into(),
        })
        .expect("known player");
    }
    t
}

fn bench(c: &mut Criterion) {
    let t = big_tournament(10_000, 9);
    let mut group = c.benchmark_group("standings");
    group.sample_size(20);
    group.bench_function("10000 players, 9 rounds, every tie-break", |b| {
        b.iter(|| black_box(standings(black_box(&t), 9)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
