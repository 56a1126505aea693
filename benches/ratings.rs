//! The rating list at a federation's size: 5,000 players, 300 events of 40-200 players
//! (seven rounds each: 35,262 player-events, 119,199 rated games).
//!
//! - `ratings/from_scratch`: the whole list from the events, in process (target < 1 s).
//! - `ratings/incremental_last_event`: after one changed result in the last event, the 299
//!   events before it replayed from their reports and the last one rated again (what the
//!   store's rebuild computes).
//! - `ratings/store_changed_result_last_event`: the same through the store on a SQLite file:
//!   one result of the last rated event changed, the list rebuilt in its transaction.

use criterion::{Criterion, criterion_group, criterion_main};
use ggdesk::store::{Actor, Store, TournamentId};
use ggdesk_core::rating::{
    Config, Date, EventReport, Played, RatedEvent, RatedGame, Ratings, rate_all,
};
use ggdesk_core::tournament::{BoardNo, GameResult, RoundNo};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use std::hint::black_box;

const PLAYERS: u32 = 5_000;
const EVENTS: usize = 300;
const ROUNDS: usize = 7;

/// One event: its date and, per round, the games (white, black, result name).
struct Spec {
    date: Date,
    players: Vec<u32>,
    rounds: Vec<Vec<(u32, u32, &'static str)>>,
}

fn specs() -> Vec<Spec> {
    let mut rng = SmallRng::seed_from_u64(21);
    let mut day = Date::parse("2023-01-07").expect("date").days_since_epoch();
    let pool: Vec<u32> = (1..=PLAYERS).collect();
    (0..EVENTS)
        .map(|_| {
            day += rng.random_range(1..5);
            let n = rng.random_range(40..=200usize);
            let mut players = pool.clone();
            players.shuffle(&mut rng);
            players.truncate(n);
            players.sort_unstable();
            let rounds = (0..ROUNDS)
                .map(|_| {
                    let mut order = players.clone();
                    order.shuffle(&mut rng);
                    order
                        .chunks_exact(2)
                        .map(|p| {
                            let result = match rng.random_range(0..100) {
                                0..44 => "white",
                                44..86 => "black",
                                86..97 => "draw",
                                _ => "white_forfeit",
                            };
                            (p[0], p[1], result)
                        })
                        .collect()
                })
                .collect();
            Spec {
                date: Date::from_days_since_epoch(day).expect("a date"),
                players,
                rounds,
            }
        })
        .collect()
}

fn rated(spec: &Spec, i: usize) -> RatedEvent<u32> {
    let games = spec
        .rounds
        .iter()
        .flatten()
        .filter_map(|(w, b, r)| {
            let result = match *r {
                "white" => Played::WhiteWins,
                "black" => Played::BlackWins,
                "draw" => Played::Draw,
                _ => return None,
            };
            Some(RatedGame {
                white: *w,
                black: *b,
                result,
            })
        })
        .collect();
    RatedEvent {
        name: format!("Event {i}"),
        date: spec.date,
        names: spec
            .players
            .iter()
            .map(|p| (*p, format!("Player {p}")))
            .collect(),
        games,
    }
}

fn core(c: &mut Criterion) {
    let events: Vec<RatedEvent<u32>> = specs()
        .iter()
        .enumerate()
        .map(|(i, s)| rated(s, i))
        .collect();
    let games: usize = events.iter().map(|e| e.games.len()).sum();
    eprintln!("{EVENTS} events, {games} rated games");
    let mut g = c.benchmark_group("ratings");
    g.sample_size(10);
    g.bench_function("from_scratch", |b| {
        b.iter(|| rate_all(Config::default(), Vec::new(), black_box(&events)))
    });
    let (_, reports) = rate_all(Config::default(), Vec::new(), &events);
    let reports: Vec<EventReport<u32>> = reports.into_iter().map(|(_, r)| r).collect();
    let mut last = events[EVENTS - 1].clone();
    last.games[0].result = match last.games[0].result {
        Played::WhiteWins => Played::BlackWins,
        _ => Played::WhiteWins,
    };
    g.bench_function("incremental_last_event", |b| {
        b.iter(|| {
            let mut r = Ratings::new(Config::default(), Vec::new());
            for report in &reports[..EVENTS - 1] {
                r.replay(report);
            }
            r.rate(black_box(&last))
        })
    });
    g.finish();
}

fn file(spec: &Spec, i: usize) -> Value {
    let players: Vec<Value> = spec
        .players
        .iter()
        .map(|p| json!({"id": p, "name": format!("Player {p}"), "federation_id": format!("F{p:05}")}))
        .collect();
    let rounds: Vec<Value> = spec
        .rounds
        .iter()
        .map(|games| {
            let games: Vec<Value> = games
                .iter()
                .map(|(w, b, r)| json!({"white": w, "black": b, "result": r}))
                .collect();
            json!({"games": games})
        })
        .collect();
    json!({
        "format": "ggdesk-tournament/1",
        "name": format!("Event {i}"),
        "settings": {"system": "swiss", "rounds": ROUNDS},
        "players": players,
        "rounds": rounds,
    })
}

fn store(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("ratings.sqlite3");
    let specs = specs();
    let mut ids: Vec<TournamentId> = Vec::new();
    {
        let mut s = Store::open(&path).expect("store");
        for (i, spec) in specs.iter().enumerate() {
            ids.push(
                s.import_tournament(&file(spec, i), &Actor::director())
                    .expect("import"),
            );
        }
    }
    // Every event rated at once (marking them one by one would rebuild 300 times), then
    // one full rebuild fills the cache.
    {
        let conn = rusqlite::Connection::open(&path).expect("sqlite");
        for (id, spec) in ids.iter().zip(&specs) {
            conn.execute(
                "UPDATE tournaments SET rated_date = ?1, rated_at = 0 WHERE id = ?2",
                rusqlite::params![spec.date.to_string(), id.0],
            )
            .expect("rated");
        }
    }
    let mut s = Store::open(&path).expect("store");
    let t0 = std::time::Instant::now();
    s.rebuild_ratings(&Actor::director()).expect("rebuild");
    eprintln!("full rebuild through the store: {:?}", t0.elapsed());
    let last = *ids.last().expect("events");
    let results = [GameResult::BlackWins, GameResult::WhiteWins];
    let mut k = 0;
    let mut g = c.benchmark_group("ratings");
    g.sample_size(10);
    g.bench_function("store_changed_result_last_event", |b| {
        b.iter(|| {
            k += 1;
            s.set_result(
                last,
                RoundNo(7),
                BoardNo(1),
                results[k % 2],
                "bench",
                &Actor::director(),
            )
            .expect("result changed")
        })
    });
    g.finish();
}

criterion_group!(benches, core, store);
criterion_main!(benches);
