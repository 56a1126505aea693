//! Round robin against the published FIDE Berger tables (FIDE Handbook C.05, Annex 1), odd
//! fields, withdrawals and double cycles.

#[path = "../../../tests/fixtures/tournaments/random.rs"]
mod random;

use ggdesk_core::pairing::{PairingError, berger_round, pair_next_round};
use ggdesk_core::tournament::{GameResult, Player, PlayerId, Settings, Tournament};
use std::collections::HashMap;

/// The published Berger tables for 4, 6, 8 and 10 numbers (white first), one line per
/// round, as printed in the FIDE handbook.
const TABLES: &str = "
4: 1-4 2-3
4: 4-3 1-2
4: 2-4 3-1
6: 1-6 2-5 3-4
6: 6-4 5-3 1-2
6: 2-6 3-1 4-5
6: 6-5 1-4 2-3
6: 3-6 4-2 5-1
8: 1-8 2-7 3-6 4-5
8: 8-5 6-4 7-3 1-2
8: 2-8 3-1 4-7 5-6
8: 8-6 7-5 1-4 2-3
8: 3-8 4-2 5-1 6-7
8: 8-7 1-6 2-5 3-4
8: 4-8 5-3 6-2 7-1
10: 1-10 2-9 3-8 4-7 5-6
10: 10-6 7-5 8-4 9-3 1-2
10: 2-10 3-1 4-9 5-8 6-7
10: 10-7 8-6 9-5 1-4 2-3
10: 3-10 4-2 5-1 6-9 7-8
10: 10-8 9-7 1-6 2-5 3-4
10: 4-10 5-3 6-2 7-1 8-9
10: 10-9 1-8 2-7 3-6 4-5
10: 5-10 6-4 7-3 8-2 9-1
";

fn published() -> HashMap<u32, Vec<Vec<(u32, u32)>>> {
    let mut tables: HashMap<u32, Vec<Vec<(u32, u32)>>> = HashMap::new();
    for line in TABLES.lines().filter(|l| !l.trim().is_empty()) {
        let (n, games) = line.split_once(':').expect("n: games");
        let n: u32 = n.trim().parse().expect("number");
        let round = games
            .split_whitespace()
            .map(|g| {
                let (w, b) = g.split_once('-').expect("w-b");
                (w.parse().expect("white"), b.parse().expect("black"))
            })
            .collect();
        tables.entry(n).or_default().push(round);
    }
    tables
}

#[test]
fn berger_tables_match_the_published_ones() {
    let tables = published();
    for (n, rounds) in &tables {
        assert_eq!(rounds.len(), *n as usize - 1);
        for (r, games) in rounds.iter().enumerate() {
            assert_eq!(
                &berger_round(*n, r as u32 + 1),
                games,
                "n = {n}, round {}",
                r + 1
            );
        }
    }
}

#[test]
fn berger_tables_of_any_size_meet_everyone_once() {
    for n in (2..=40u32).step_by(2) {
        let mut met = HashMap::new();
        for r in 1..n {
            let games = berger_round(n, r);
            assert_eq!(games.len(), n as usize / 2);
            for (w, b) in games {
                assert!(w != b && w <= n && b <= n && w >= 1 && b >= 1);
                assert!(
                    met.insert((w.min(b), w.max(b)), r).is_none(),
                    "n {n}: {w}-{b} twice"
                );
            }
        }
        assert_eq!(met.len(), (n * (n - 1) / 2) as usize);
    }
    assert!(berger_round(5, 1).is_empty());
    assert!(berger_round(4, 4).is_empty());
    assert!(berger_round(4, 0).is_empty());
}

/// Players whose numbers are known: id 10·k has the k-th highest rating.
fn numbered(n: u32) -> Tournament {
    let mut t = Tournament::new("rr", Settings::round_robin()).expect("valid");
    // Added in scrambled order, with a rating tie broken by the lower id.
    let mut ids: Vec<u32> = (1..=n).collect();
    ids.reverse();
    for k in ids {
        let rating = if k == 2 {
            2000
        } else {
            2000 - 10 * (k as i64 - 1)
        };
        t.add_player(Player::new(PlayerId(10 * k), format!("N{k}"), rating))
            .expect("fresh");
    }
    t
}

fn play_round(t: &mut Tournament) -> ggdesk_core::pairing::Pairing {
    let p = pair_next_round(t, &[]).expect("a round to pair");
    let games = p.games.len();
    t.add_round(p.to_round()).expect("valid");
    let round = t.rounds().len();
    for g in 0..games {
        t.set_result(round, g, GameResult::Draw).expect("exists");
    }
    p
}

fn as_numbers(p: &ggdesk_core::pairing::Pairing) -> Vec<(u32, u32)> {
    p.games
        .iter()
        .map(|g| (g.white.0 / 10, g.black.0 / 10))
        .collect()
}

#[test]
fn even_fields_follow_the_tables_with_players_numbered_by_rating_then_id() {
    let tables = published();
    for n in [4u32, 6, 8, 10] {
        let mut t = numbered(n);
        for r in 0..n as usize - 1 {
            let p = play_round(&mut t);
            assert_eq!(as_numbers(&p), tables[&n][r], "n {n} round {}", r + 1);
            assert!(p.byes.is_empty());
            let tables: Vec<u32> = p.games.iter().map(|g| g.table).collect();
            assert_eq!(tables, (1..=n / 2).collect::<Vec<_>>());
        }
        assert_eq!(
            pair_next_round(&t, &[]),
            Err(PairingError::AllRoundsPlayed(n - 1))
        );
    }
}

#[test]
fn odd_fields_give_the_bye_to_whoever_meets_the_missing_number() {
    let tables = published();
    for n in [5u32, 7, 9] {
        let mut t = numbered(n);
        for (r, full) in tables[&(n + 1)].iter().enumerate() {
            let p = play_round(&mut t);
            let expected: Vec<(u32, u32)> = full
                .iter()
                .copied()
                .filter(|&(w, b)| w <= n && b <= n)
                .collect();
            let bye: Vec<u32> = full
                .iter()
                .filter_map(|&(w, b)| (w == n + 1).then_some(b).or((b == n + 1).then_some(w)))
                .collect();
            assert_eq!(as_numbers(&p), expected, "n {n} round {}", r + 1);
            assert_eq!(p.byes.iter().map(|b| b.0 / 10).collect::<Vec<_>>(), bye);
        }
        assert_eq!(t.planned_rounds(), Some(n));
        assert_eq!(
            pair_next_round(&t, &[]),
            Err(PairingError::AllRoundsPlayed(n)),
            "n {n}: all rounds played"
        );
    }
}

#[test]
fn a_withdrawn_players_opponent_gets_a_bye_and_the_schedule_stays() {
    let tables = published();
    let mut t = numbered(6);
    play_round(&mut t);
    t.set_withdrawn(PlayerId(30), true).expect("known");
    for full in &tables[&6][1..] {
        let p = play_round(&mut t);
        let expected: Vec<(u32, u32)> = full
            .iter()
            .copied()
            .filter(|&(w, b)| w != 3 && b != 3)
            .collect();
        let opponent = full
            .iter()
            .find_map(|&(w, b)| (w == 3).then_some(b).or((b == 3).then_some(w)))
            .expect("3 plays every round");
        assert_eq!(as_numbers(&p), expected);
        assert_eq!(p.byes, vec![PlayerId(opponent * 10)]);
    }
}

/// spec/tournament.md: a double cycle is 2 × (n − 1) rounds, or 2 × n with an odd number,
/// "the second repeating the first": round c + k of the second cycle is round k of the
/// first, the same games with the same colours and the same byes.
#[test]
fn a_double_cycle_repeats_the_first_exactly() {
    let tables = published();
    for (size, cycle) in [(4u32, 3usize), (5, 5), (6, 5)] {
        let mut t = numbered(size);
        let mut s = t.settings().clone();
        s.rounds = Some(2 * cycle as u32);
        t.set_settings(s).expect("valid");
        let rounds: Vec<_> = (0..2 * cycle).map(|_| play_round(&mut t)).collect();
        for k in 0..cycle {
            let (first, second) = (&rounds[k], &rounds[cycle + k]);
            assert_eq!(
                second.games,
                first.games,
                "{size} players, round {}",
                cycle + k + 1
            );
            assert_eq!(
                second.byes,
                first.byes,
                "{size} players, round {}",
                cycle + k + 1
            );
        }
        if size == 4 {
            for (r, p) in rounds.iter().enumerate() {
                assert_eq!(as_numbers(p), tables[&4][r % 3], "round {}", r + 1);
            }
        }
        assert_eq!(
            pair_next_round(&t, &[]),
            Err(PairingError::AllRoundsPlayed(2 * cycle as u32))
        );
    }
}

#[test]
fn random_round_robins_meet_everyone_once_per_cycle() {
    for seed in 0..12u64 {
        let size = 2 + (seed as u32 * 7) % 15;
        let cycles = 1 + (seed as u32 % 2);
        let t = random::round_robin(seed, size, cycles);
        let n = t.players().len();
        let cycle = if n.is_multiple_of(2) { n - 1 } else { n };
        assert_eq!(t.rounds().len(), cycle * cycles as usize, "seed {seed}");
        for c in 0..cycles as usize {
            let mut meetings: HashMap<(PlayerId, PlayerId), usize> = HashMap::new();
            for r in &t.rounds()[c * cycle..(c + 1) * cycle] {
                for g in &r.games {
                    let k = (g.white.min(g.black), g.white.max(g.black));
                    *meetings.entry(k).or_default() += 1;
                }
                for b in &r.byes {
                    assert!(!r.games.iter().any(|g| g.white == *b || g.black == *b));
                }
            }
            assert!(
                meetings.values().all(|&m| m == 1),
                "seed {seed}: a pair met twice in a cycle"
            );
        }
    }
}

#[test]
fn a_round_robin_waits_for_the_last_round_to_finish() {
    let mut t = numbered(4);
    let p = pair_next_round(&t, &[]).expect("round 1");
    t.add_round(p.to_round()).expect("valid");
    assert_eq!(
        pair_next_round(&t, &[]),
        Err(PairingError::RoundNotComplete(1))
    );
    let empty = Tournament::new("rr", Settings::round_robin()).expect("valid");
    assert_eq!(pair_next_round(&empty, &[]), Err(PairingError::NoPlayers));
}
