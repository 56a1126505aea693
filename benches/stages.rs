//! `ggdesk pair` and `ggdesk standings --final` on a 512-player event of stages: a 7-round
//! Swiss whose top 64 play a best-of-3 knockout (issue 20, item 7; target under 1 s each).
//! In process (reading the file, replaying the event, answering, writing the JSON, as the
//! command does) and through the binary.
//!
//! - pair, Swiss round 7: the heaviest Swiss pairing of the event (512 players).
//! - pair, knockout round 1: the Swiss complete, its cut read, the knockout seeded.
//! - standings --final: the event over (the Swiss and every bracket round replayed).

#[path = "../tests/fixtures/stages/random.rs"]
mod random;

use criterion::{Criterion, criterion_group, criterion_main};
use ggdesk_core::stages::{Event, MatchFormat, Seeding, StageFormat, StageSpec, placement_json};
use ggdesk_core::tournament::TieBreak;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::hint::black_box;
use std::io::Write;
use std::process::Command;

/// The event's three moments, as files: after Swiss round 6, after the Swiss, over.
fn files() -> [String; 3] {
    let mut rng = SmallRng::seed_from_u64(512);
    let stages = vec![
        StageSpec {
            name: "Swiss".into(),
            format: StageFormat::Swiss { rounds: 7 },
            tiebreaks: vec![
                TieBreak::DirectEncounter,
                TieBreak::Buchholz,
                TieBreak::SonnebornBerger,
                TieBreak::Wins,
            ],
            advance: Some(64),
        },
        StageSpec {
            name: "Knockout".into(),
            format: StageFormat::Knockout {
                series: MatchFormat::BestOf(3),
                seeding: Seeding::Standard,
                third_place: true,
            },
            tiebreaks: vec![],
            advance: None,
        },
    ];
    let mut e = random::event(&mut rng, 512, stages);
    let mut after_six = None;
    let mut after_swiss = None;
    loop {
        let rounds = e.play(0).map_or(0, |p| p.rounds.len());
        if rounds == 6 && after_six.is_none() {
            after_six = Some(e.to_json());
        }
        if e.reached().len() == 2 && after_swiss.is_none() {
            after_swiss = Some(e.to_json());
        }
        let Ok(step) = e.next_step() else {
            break;
        };
        e = random::play_step(&e, &step, &mut rng, random::USUAL);
    }
    assert!(e.is_over(), "the bench event ends");
    [
        after_six.expect("six rounds"),
        after_swiss.expect("the Swiss"),
        e.to_json(),
    ]
}

fn pair(text: &str) -> String {
    let e = Event::from_json(text).expect("valid");
    e.next_step().expect("a next step").to_json()
}

fn final_standings(text: &str) -> String {
    let e = Event::from_json(text).expect("valid");
    placement_json(&e.final_placement().expect("over"))
}

fn bench(c: &mut Criterion) {
    let [six, swiss, over] = files();
    let mut group = c.benchmark_group("stages 512 players");
    group.sample_size(10);
    group.bench_function("pair: Swiss round 7 (in process)", |b| {
        b.iter(|| black_box(pair(black_box(&six))))
    });
    group.bench_function("pair: knockout round 1 (in process)", |b| {
        b.iter(|| black_box(pair(black_box(&swiss))))
    });
    group.bench_function("standings --final (in process)", |b| {
        b.iter(|| black_box(final_standings(black_box(&over))))
    });
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .expect("write");
        path
    };
    let (six_path, swiss_path, over_path) = (
        write("six.json", &six),
        write("swiss.json", &swiss),
        write("over.json", &over),
    );
    let cli = |args: &[&std::ffi::OsStr]| {
        let o = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .args(args)
            .output()
            .expect("runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o.stdout.len()
    };
    group.bench_function("ggdesk pair: Swiss round 7", |b| {
        b.iter(|| cli(&["pair".as_ref(), six_path.as_os_str()]))
    });
    group.bench_function("ggdesk pair: knockout round 1", |b| {
        b.iter(|| cli(&["pair".as_ref(), swiss_path.as_os_str()]))
    });
    group.bench_function("ggdesk standings --final", |b| {
        b.iter(|| {
            cli(&[
                "standings".as_ref(),
                "--final".as_ref(),
                over_path.as_os_str(),
            ])
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
