//! Importing a 1,500-player, 9-round tournament file into the store (one transaction),
//! building the core model back from the tables, as every director page does, and one
//! director's command on it (the whole event loaded and decided by the core each time).

use criterion::{Criterion, criterion_group, criterion_main};
use ggdesk::store::{Actor, Store};
use ggdesk_core::tournament::{
    BoardNo, Game, GameResult, Player, PlayerId, Round, RoundNo, Settings, Tournament,
};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

/// Random rounds (not a real Swiss: the store does not care how they were paired).
fn big_file(players: u32, rounds: usize) -> serde_json::Value {
    let mut rng = SmallRng::seed_from_u64(3);
    let mut t = Tournament::new("bench", Settings::swiss(rounds as u32)).expect("settings");
    for id in 1..=players {
        let mut p = Player::new(
            PlayerId(id),
            format!("Player {id}"),
            rng.random_range(1000..2400),
        );
        p.federation_id = Some(format!("B-{id}"));
        t.add_player(p).expect("fresh id");
    }
    let results = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
    ];
    for _ in 0..rounds {
        let mut ids: Vec<u32> = (1..=players).collect();
        ids.shuffle(&mut rng);
        let mut round = Round::default();
        for (k, pair) in ids.chunks(2).enumerate() {
            match pair {
                [w, b] => round.games.push(Game {
                    table: Some(k as u32 + 1),
                    white: PlayerId(*w),
                    black: PlayerId(*b),
                    result: results[rng.random_range(0..3)],
                }),
                [p] => round.byes.push(PlayerId(*p)),
                _ => {}
            }
        }
        t.add_round(round).expect("valid round");
    }
    t.to_value()
}

fn import(c: &mut Criterion) {
    let file = big_file(1500, 9);
    let mut group = c.benchmark_group("store");
    group.sample_size(10);
    group.bench_function("import 1500 players x 9 rounds", |b| {
        b.iter(|| {
            let mut store = Store::open_in_memory().expect("store");
            black_box(
                store
                    .import_tournament(&file, &Actor::director())
                    .expect("import"),
            )
        })
    });
    let mut store = Store::open_in_memory().expect("store");
    let id = store
        .import_tournament(&file, &Actor::director())
        .expect("import");
    // The tournament as the desk loads it now: its event (`Store::event`, which replaced
    // `load_tournament`); the name is kept so the measurements compare.
    group.bench_function("load_tournament 1500 x 9", |b| {
        b.iter(|| black_box(store.event(id).expect("load")))
    });
    group.bench_function("export 1500 x 9", |b| {
        b.iter(|| black_box(store.export_tournament(id).expect("export")))
    });
    // One director's command on the big event: load it, the core decides, the edits are
    // written (a result changed on a complete round, with its reason), one transaction.
    let mut flip = [GameResult::WhiteWins, GameResult::BlackWins]
        .into_iter()
        .cycle();
    group.bench_function("set_result 1500 x 9 (load, decide, write)", |b| {
        b.iter(|| {
            let result = flip.next().unwrap_or(GameResult::Draw);
            black_box(
                store
                    .set_result(
                        id,
                        RoundNo(9),
                        BoardNo(1),
                        result,
                        "bench: a result corrected",
                        &Actor::director(),
                    )
                    .expect("result"),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, import);
criterion_main!(benches);
