//! Team events (issue 33): the team standings of 64 teams × 4 boards after 9 rounds of a team
//! Swiss, and the pairing of that Swiss's 9th round (64 teams through the team image), each
//! with a target of under 100 ms. In process, from the event as a file reads it
//! (`TeamEvent::from_value`), as the desk and the commands do.

use criterion::{Criterion, criterion_group, criterion_main};
use ggdesk_core::teams::{TeamEvent, TeamStep};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use std::hint::black_box;

const TEAMS: u32 = 64;
const BOARDS: u32 = 4;
const ROUNDS: usize = 9;

/// The event before any round: 64 teams of 5 (4 boards and a reserve), one Swiss stage of 9
/// rounds with the spec's default team tie-breaks.
fn empty_event() -> Value {
    let per_team = BOARDS + 1;
    let players: Vec<Value> = (1..=TEAMS * per_team)
        .map(|id| json!({"id": id, "name": format!("Player {id}"), "rating": 1400 + (id * 37) % 900}))
        .collect();
    let teams: Vec<Value> = (1..=TEAMS)
        .map(|t| {
            let first = (t - 1) * per_team + 1;
            json!({
                "id": t,
                "name": format!("Team {t}"),
                "players": (first..first + per_team).collect::<Vec<_>>(),
                "captain": first,
            })
        })
        .collect();
    json!({
        "format": "ggdesk-tournament/2",
        "name": "Team Swiss bench",
        "settings": {},
        "team": {"boards": BOARDS, "match_points": {"win": 2, "draw": 1, "loss": 0}},
        "players": players,
        "teams": teams,
        "penalties": [],
        "stages": [{"name": "Swiss", "system": "swiss", "round_count": ROUNDS, "rounds": []}],
    })
}

/// The next round paired by the core and played with random results: each board's line-up
/// the team's first four players, White on odd boards the home team's.
fn play_round(file: &mut Value, rng: &mut SmallRng) {
    let event = TeamEvent::from_value(file).expect("the event reads");
    let TeamStep::Matches { matches, byes, .. } = event.next_step().expect("the next round") else {
        panic!("a round of matches")
    };
    let per_team = BOARDS + 1;
    let player = |team: u32, board: u32| (team - 1) * per_team + board;
    let results = ["white", "black", "draw"];
    let matches: Vec<Value> = matches
        .iter()
        .map(|(table, home, away)| {
            let boards: Vec<Value> = (1..=BOARDS)
                .map(|b| {
                    let (h, a) = (player(home.0, b), player(away.0, b));
                    let (white, black) = if b % 2 == 1 { (h, a) } else { (a, h) };
                    json!({"white": white, "black": black, "result": results[rng.random_range(0..3)]})
                })
                .collect();
            json!({"table": table, "home": home.0, "away": away.0, "boards": boards})
        })
        .collect();
    let byes: Vec<u32> = byes.iter().map(|t| t.0).collect();
    file["stages"][0]["rounds"]
        .as_array_mut()
        .expect("rounds")
        .push(json!({"matches": matches, "byes": byes}));
}

fn bench(c: &mut Criterion) {
    let mut rng = SmallRng::seed_from_u64(64);
    let mut file = empty_event();
    for _ in 0..ROUNDS - 1 {
        play_round(&mut file, &mut rng);
    }
    let before_last = file.clone();
    play_round(&mut file, &mut rng);
    let mut group = c.benchmark_group("teams");
    group.sample_size(20);
    group.bench_function("standings, 64 teams x 4 boards after 9 rounds", |b| {
        b.iter(|| {
            let event = TeamEvent::from_value(black_box(&file)).expect("reads");
            black_box(event.team_standings(None).expect("standings"))
        })
    });
    group.bench_function("pair round 9 of a team Swiss of 64 teams", |b| {
        b.iter(|| {
            let event = TeamEvent::from_value(black_box(&before_last)).expect("reads");
            black_box(event.next_step().expect("pairs"))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
