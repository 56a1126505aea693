//! The rules of `spec/stages.md` as properties and worked cases: bracket order, series
//! (best of K, race to P, twice to beat), playoffs that end, serpentine groups, cross-over
//! seeding, and random staged events played to the end whose final placement covers every
//! player once and whose file round-trips. Oracles here are written from the spec, not
//! from the library.

#[path = "../../../tests/fixtures/stages/random.rs"]
mod random;

use ggdesk_core::stages::{
    Event, EventParts, EventSettings, MatchFormat, MatchId, NextStep, PlayedOff, PlayoffState,
    Seeding, StageFormat, StageSpec, StepRefusal, bracket_order, playoff, series, serpentine,
};
use ggdesk_core::tournament::{
    GameOutcome, GameResult, Player, PlayerId, PointsScale, Score, StageNo, TieBreak,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::collections::HashSet;

fn ids(v: &[u32]) -> Vec<PlayerId> {
    v.iter().map(|&x| PlayerId(x)).collect()
}

// ---------------------------------------------------------------- bracket order

#[test]
fn bracket_order_is_the_standard_one() {
    assert_eq!(bracket_order(2), [1, 2]);
    assert_eq!(bracket_order(4), [1, 4, 2, 3]);
    assert_eq!(bracket_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
    assert_eq!(
        bracket_order(16),
        [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    );
    // Not a power of two: the slots of the next one, the seeds above it byes.
    assert_eq!(bracket_order(6), [1, 8, 4, 5, 2, 7, 3, 6]);
    assert_eq!(bracket_order(3), [1, 4, 2, 3]);
}

#[test]
fn bracket_order_keeps_the_top_seeds_apart_until_the_late_rounds() {
    for n in 2..=64u32 {
        let order = bracket_order(n);
        let slots = n.next_power_of_two() as usize;
        assert_eq!(order.len(), slots, "{n} seeds");
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            (1..=slots as u32).collect::<Vec<_>>(),
            "a permutation"
        );
        // Each first-round pair sums to slots + 1 (1 v B, 2 v B−1, …).
        for pair in order.chunks(2) {
            assert_eq!(pair[0] + pair[1], slots as u32 + 1, "{n}: {pair:?}");
        }
        // Seeds 1..2^j sit in 2^j different parts of size slots / 2^j: seeds 1 and 2 meet
        // only in the final, 1–4 only in the semi-finals, and so on.
        let mut parts = 2;
        while parts <= slots {
            let size = slots / parts;
            let where_: HashSet<usize> = (1..=parts as u32)
                .map(|s| order.iter().position(|&x| x == s).expect("seed") / size)
                .collect();
            assert_eq!(where_.len(), parts, "{n} seeds: top {parts} apart");
            parts *= 2;
        }
    }
}

// ---------------------------------------------------------------- series

/// The series decided from the spec's words, step by step: (winner, games it took).
fn oracle(format: MatchFormat, higher: usize, games: &[GameOutcome]) -> Option<(usize, usize)> {
    let scale = PointsScale::default();
    let (mut wins, mut pts, mut both_at_p) = ([0u32; 2], [0i64; 2], false);
    for (n, g) in games.iter().enumerate() {
        let (a, b) = match g {
            GameOutcome::Win => (scale.win, scale.loss),
            GameOutcome::Loss => (scale.loss, scale.win),
            GameOutcome::Draw => (scale.draw, scale.draw),
            GameOutcome::ForfeitWin => (scale.forfeit_win, scale.forfeit_loss),
            GameOutcome::ForfeitLoss => (scale.forfeit_loss, scale.forfeit_win),
            _ => return None,
        };
        let winner = match g {
            GameOutcome::Win | GameOutcome::ForfeitWin => Some(0),
            GameOutcome::Loss | GameOutcome::ForfeitLoss => Some(1),
            _ => None,
        };
        if let Some(w) = winner {
            wins[w] += 1;
        }
        pts[0] += a.halves();
        pts[1] += b.halves();
        match format {
            MatchFormat::BestOf(k) => {
                if let Some(w) = (0..2).find(|&p| wins[p] * 2 > k) {
                    return Some((w, n + 1));
                }
            }
            MatchFormat::TwiceToBeat => {
                if wins[higher] == 1 {
                    return Some((higher, n + 1));
                }
                if wins[1 - higher] == 2 {
                    return Some((1 - higher, n + 1));
                }
            }
            MatchFormat::RaceTo(p) => {
                if both_at_p {
                    if let Some(w) = winner {
                        return Some((w, n + 1));
                    }
                    continue;
                }
                let target = p.halves();
                match (pts[0] >= target, pts[1] >= target) {
                    (true, false) => return Some((0, n + 1)),
                    (false, true) => return Some((1, n + 1)),
                    (true, true) => both_at_p = true,
                    _ => {}
                }
            }
        }
    }
    None
}

fn outcome() -> impl Strategy<Value = GameOutcome> {
    prop_oneof![
        4 => Just(GameOutcome::Win),
        4 => Just(GameOutcome::Loss),
        6 => Just(GameOutcome::Draw),
        1 => Just(GameOutcome::ForfeitWin),
        1 => Just(GameOutcome::ForfeitLoss),
    ]
}

fn format() -> impl Strategy<Value = MatchFormat> {
    prop_oneof![
        (0u32..4).prop_map(|k| MatchFormat::BestOf(2 * k + 1)),
        (1i64..9).prop_map(|h| MatchFormat::RaceTo(Score::from_halves(h))),
        Just(MatchFormat::TwiceToBeat),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_series_is_decided_as_the_spec_says(
        format in format(),
        higher in 0usize..2,
        games in proptest::collection::vec(outcome(), 0..14),
    ) {
        let s = series(format, &PointsScale::default(), higher, &games);
        let want = oracle(format, higher, &games);
        prop_assert_eq!(s.winner.zip(s.decided_after), want);
    }

    #[test]
    fn a_race_ends_only_on_a_game_that_puts_a_side_at_p(
        target in 1i64..9,
        games in proptest::collection::vec(outcome(), 0..16),
    ) {
        let format = MatchFormat::RaceTo(Score::from_halves(target));
        let s = series(format, &PointsScale::default(), 0, &games);
        if let (Some(w), Some(n)) = (s.winner, s.decided_after) {
            let after = series(format, &PointsScale::default(), 0, &games[..n]);
            prop_assert!(after.points[w].halves() >= target, "winner below P: {:?}", after);
            // Before that game, nobody was alone at P or more.
            let before = series(format, &PointsScale::default(), 0, &games[..n - 1]);
            prop_assert_eq!(before.winner, None);
            // Decided means one at P while the other was not, or a game won with both at P.
            let alone = after.points[1 - w].halves() < target;
            let won = matches!(
                (w, games[n - 1]),
                (0, GameOutcome::Win | GameOutcome::ForfeitWin)
                    | (1, GameOutcome::Loss | GameOutcome::ForfeitLoss)
            );
            prop_assert!(alone || won);
        }
    }
}

#[test]
fn best_of_three_needs_two_won_games_and_draws_count_for_nothing() {
    use GameOutcome::*;
    let bo3 = MatchFormat::BestOf(3);
    let p = PointsScale::default();
    let s = series(bo3, &p, 0, &[Win, Loss, Draw, Draw, Win]);
    assert_eq!(
        (s.winner, s.decided_after, s.wins),
        (Some(0), Some(5), [2, 1])
    );
    let s = series(bo3, &p, 0, &[Draw, ForfeitLoss, Loss]);
    assert_eq!((s.winner, s.decided_after), (Some(1), Some(3)));
    assert_eq!(series(bo3, &p, 0, &[Draw; 6]).winner, None);
    // Best of 1: the first won game.
    let s = series(MatchFormat::BestOf(1), &p, 1, &[Draw, Loss]);
    assert_eq!((s.winner, s.decided_after), (Some(1), Some(2)));
}

#[test]
fn twice_to_beat_favours_the_higher_seed() {
    use GameOutcome::*;
    let p = PointsScale::default();
    // Higher seed first (player 0): one win is enough.
    let s = series(MatchFormat::TwiceToBeat, &p, 0, &[Draw, Win]);
    assert_eq!((s.winner, s.decided_after), (Some(0), Some(2)));
    // The lower seed must win twice: after one win it goes on.
    let s = series(MatchFormat::TwiceToBeat, &p, 0, &[Loss]);
    assert_eq!(s.winner, None);
    let s = series(MatchFormat::TwiceToBeat, &p, 0, &[Loss, Draw, Loss]);
    assert_eq!((s.winner, s.decided_after), (Some(1), Some(3)));
    // The higher seed's one win after the lower seed's first still wins it.
    let s = series(MatchFormat::TwiceToBeat, &p, 1, &[Win, Loss]);
    assert_eq!((s.winner, s.decided_after), (Some(1), Some(2)));
}

#[test]
fn a_draw_heavy_race_to_four_goes_to_sudden_death() {
    use GameOutcome::*;
    let race = MatchFormat::RaceTo(Score::from_points(4));
    let p = PointsScale::default();
    // Four draws: both at 4 on the same game; more draws change nothing; the next won game
    // decides.
    let s = series(race, &p, 0, &[Draw, Draw, Draw, Draw, Draw, Draw]);
    assert_eq!(s.winner, None);
    assert_eq!(s.points, [Score::from_points(6), Score::from_points(6)]);
    let s = series(race, &p, 0, &[Draw, Draw, Draw, Draw, Draw, Loss]);
    assert_eq!((s.winner, s.decided_after), (Some(1), Some(6)));
    assert_eq!(s.points, [Score::from_points(5), Score::from_points(7)]);
    // A win and two draws: 4 against 2, decided.
    let s = series(race, &p, 0, &[Win, Draw, Draw]);
    assert_eq!((s.winner, s.decided_after), (Some(0), Some(3)));
}

// ---------------------------------------------------------------- playoffs

fn points(games: &[PlayedOff], p: PlayerId) -> i64 {
    let scale = PointsScale::default();
    games
        .iter()
        .map(|g| {
            let (w, b) = match g.result {
                GameResult::WhiteWins => (scale.win, scale.loss),
                GameResult::BlackWins => (scale.loss, scale.win),
                GameResult::Draw => (scale.draw, scale.draw),
                GameResult::WhiteWinsByForfeit => (scale.forfeit_win, scale.forfeit_loss),
                GameResult::BlackWinsByForfeit => (scale.forfeit_loss, scale.forfeit_win),
                _ => (Score::ZERO, Score::ZERO),
            };
            if g.white == p {
                w.halves()
            } else if g.black == p {
                b.halves()
            } else {
                0
            }
        })
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn playoffs_end_with_a_clear_cut(
        size in 2usize..7,
        cut_at in 1usize..6,
        draws in 0u32..90,
        seed in any::<u64>(),
    ) {
        let tied: Vec<PlayerId> = (1..=size as u32).map(PlayerId).collect();
        let cut = cut_at.min(size - 1);
        let mut rng = SmallRng::seed_from_u64(seed);
        let odds = random::Odds { draw: draws, forfeit: 3 };
        let mut games: Vec<PlayedOff> = Vec::new();
        let scale = PointsScale::default();
        let mut steps = 0;
        let done = loop {
            let p = playoff(&tied, cut, &games, &scale).expect("the games recorded fit");
            match p.state {
                PlayoffState::Clear => break p,
                PlayoffState::Next(next) => {
                    prop_assert!(!next.is_empty());
                    for (white, black) in next {
                        let result = random::result(&mut rng, odds, true);
                        games.push(PlayedOff { white, black, result });
                    }
                }
                PlayoffState::Waiting => prop_assert!(false, "no game is pending"),
            }
            steps += 1;
            prop_assert!(steps < 5000, "the playoff does not end");
        };
        // Every tied player once.
        let mut sorted = done.order.clone();
        sorted.sort();
        prop_assert_eq!(&sorted, &tied);
        // The first round robin (or game) places for good: a player ahead on its points
        // is never overtaken by a later round robin (points never add up across them).
        let first = if size == 2 { 1 } else { size * (size - 1) / 2 };
        let opening = &games[..first.min(games.len())];
        for (i, a) in done.order.iter().enumerate() {
            for b in &done.order[i + 1..] {
                prop_assert!(
                    points(opening, *a) >= points(opening, *b),
                    "{a} is above {b} with fewer points in the first round robin"
                );
            }
        }
        // The cut is clear: the two players either side of it differ in some phase.
        prop_assert_ne!(
            &done.points[cut - 1],
            &done.points[cut],
            "the players either side of the cut are level"
        );
    }
}

#[test]
fn a_second_round_robin_orders_only_the_players_still_level() {
    // Four tied for two places; number 4 (the lowest seed) wins the first round robin,
    // the other three win one game each and play again; 1 wins the second twice. Added
    // up, 1 would draw level with 4 and pass it on seed: points never add up, so 4 stays
    // first and 1 second.
    let tied = ids(&[1, 2, 3, 4]);
    let scale = PointsScale::default();
    let beats = |w: u32, l: u32| (w, l);
    let first = [
        beats(4, 1),
        beats(4, 2),
        beats(4, 3),
        beats(1, 2),
        beats(2, 3),
        beats(3, 1),
    ];
    let second = [beats(1, 2), beats(1, 3), beats(2, 3)];
    let step = |games: &mut Vec<PlayedOff>, wins: &[(u32, u32)]| {
        let p = playoff(&tied, 2, games, &scale).expect("fits");
        let PlayoffState::Next(next) = p.state else {
            panic!("a game is due, not {:?}", p.state);
        };
        let won = |x: PlayerId, y: PlayerId| wins.contains(&(x.0, y.0));
        for (white, black) in next {
            let result = if won(white, black) {
                GameResult::WhiteWins
            } else if won(black, white) {
                GameResult::BlackWins
            } else {
                panic!("{white}-{black} is not a game of this round robin");
            };
            games.push(PlayedOff {
                white,
                black,
                result,
            });
        }
    };
    let mut games: Vec<PlayedOff> = Vec::new();
    while games.len() < first.len() {
        step(&mut games, &first);
    }
    let after_first = playoff(&tied, 2, &games, &scale).expect("fits");
    assert_eq!(after_first.order[0], PlayerId(4));
    assert!(matches!(after_first.state, PlayoffState::Next(_)));
    while games.len() < first.len() + second.len() {
        step(&mut games, &second);
    }
    let done = playoff(&tied, 2, &games, &scale).expect("fits");
    assert_eq!(done.state, PlayoffState::Clear);
    assert_eq!(done.order, ids(&[4, 1, 2, 3]));
}

#[test]
fn two_tied_players_play_single_games_alternating_colours_until_one_is_won() {
    let tied = ids(&[5, 2]);
    let scale = PointsScale::default();
    let mut games = Vec::new();
    for (expected, result) in [
        ((5, 2), GameResult::Draw),
        ((2, 5), GameResult::Draw),
        ((5, 2), GameResult::BlackWins),
    ] {
        let p = playoff(&tied, 1, &games, &scale).expect("fits");
        assert_eq!(
            p.state,
            PlayoffState::Next(vec![(PlayerId(expected.0), PlayerId(expected.1))])
        );
        games.push(PlayedOff {
            white: PlayerId(expected.0),
            black: PlayerId(expected.1),
            result,
        });
    }
    let p = playoff(&tied, 1, &games, &scale).expect("fits");
    assert_eq!(p.state, PlayoffState::Clear);
    assert_eq!(p.order, ids(&[2, 5]));
}

#[test]
fn three_tied_players_play_a_round_robin_then_those_still_level_again() {
    let tied = ids(&[1, 2, 3]);
    let scale = PointsScale::default();
    // One round robin (Berger for 4 numbers, the one meeting number 4 sitting out):
    // 2-3, 1-2, 3-1; each wins once.
    let rr = [
        (2, 3, GameResult::WhiteWins),
        (1, 2, GameResult::WhiteWins),
        (3, 1, GameResult::WhiteWins),
    ];
    let mut games: Vec<PlayedOff> = Vec::new();
    for (w, b, r) in rr {
        let p = playoff(&tied, 1, &games, &scale).expect("fits");
        let PlayoffState::Next(next) = p.state else {
            panic!("a game is due");
        };
        assert_eq!(next, vec![(PlayerId(w), PlayerId(b))]);
        games.push(PlayedOff {
            white: PlayerId(w),
            black: PlayerId(b),
            result: r,
        });
    }
    // All level: another round robin among the three.
    let p = playoff(&tied, 1, &games, &scale).expect("fits");
    assert!(matches!(p.state, PlayoffState::Next(_)));
    // A game that is not due is refused, naming what was.
    let wrong = PlayedOff {
        white: PlayerId(2),
        black: PlayerId(9),
        result: GameResult::Draw,
    };
    let mut bad = games.clone();
    bad.push(wrong);
    assert!(matches!(
        playoff(&tied, 1, &bad, &scale),
        Err((3, ggdesk_core::stages::PlayoffFault::NotExpected { .. }))
    ));
}

// ---------------------------------------------------------------- groups and seeding

#[test]
fn groups_are_filled_in_serpentine_order() {
    let seeds: Vec<PlayerId> = (1..=10).map(PlayerId).collect();
    let g = serpentine(&seeds, 4);
    assert_eq!(g[0], ids(&[1, 8, 9]));
    assert_eq!(g[1], ids(&[2, 7, 10]));
    assert_eq!(g[2], ids(&[3, 6]));
    assert_eq!(g[3], ids(&[4, 5]));
    let g = serpentine(&seeds, 3);
    assert_eq!(
        g,
        vec![ids(&[1, 6, 7]), ids(&[2, 5, 8]), ids(&[3, 4, 9, 10])]
    );
}

/// Plays every step, the better seed (lower id: ratings fall with the id) winning every
/// game, until the event is over.
fn play_seeds_win(mut e: Event) -> Event {
    loop {
        let Ok(step) = e.next_step() else {
            return e;
        };
        e = e.record(&step).expect("records");
        let k = step.stage().index().expect("stage");
        match &step {
            NextStep::Round { round, games, .. } => {
                for (i, b) in games.iter().enumerate() {
                    let r = if b.white < b.black {
                        GameResult::WhiteWins
                    } else {
                        GameResult::BlackWins
                    };
                    e = e.set_result(step.stage(), *round, i, r).expect("result");
                }
            }
            NextStep::Playoff { games, .. } => {
                let n = e.play(k).expect("stage").playoffs.len();
                for (i, b) in games.iter().enumerate() {
                    let r = if b.white < b.black {
                        GameResult::WhiteWins
                    } else {
                        GameResult::BlackWins
                    };
                    e = e
                        .set_playoff_result(step.stage(), n - games.len() + i, r)
                        .expect("result");
                }
            }
        }
    }
}

fn settings(stages: Vec<StageSpec>) -> EventSettings {
    EventSettings {
        points: PointsScale::default(),
        forbidden: Vec::new(),
        stages,
    }
}

fn field(n: u32) -> Vec<Player> {
    (1..=n)
        .map(|id| Player::new(PlayerId(id), format!("P{id}"), 3000 - i64::from(id) * 10))
        .collect()
}

#[test]
fn cross_over_seeding_puts_a_groups_winner_and_second_in_opposite_halves() {
    let e = Event::new(EventParts {
        name: "GL".into(),
        settings: settings(vec![
            StageSpec {
                name: "Groups".into(),
                format: StageFormat::RoundRobin {
                    groups: 4,
                    rounds: None,
                },
                tiebreaks: vec![TieBreak::DirectEncounter],
                advance: Some(2),
            },
            StageSpec {
                name: "Knockout".into(),
                format: StageFormat::Knockout {
                    series: MatchFormat::RaceTo(Score::from_points(4)),
                    seeding: Seeding::CrossOver,
                    third_place: true,
                },
                tiebreaks: vec![],
                advance: None,
            },
        ]),
        players: field(16),
        penalties: vec![],
        stages: vec![],
    })
    .expect("valid");
    // Serpentine: A 1 8 9 16, B 2 7 10 15, C 3 6 11 14, D 4 5 12 13; the better seed wins
    // every game, so each group's first two are its two best seeds.
    let mut e = e;
    for _ in 0..3 {
        let step = e.next_step().expect("a round");
        e = e.record(&step).expect("records");
        let NextStep::Round { round, games, .. } = &step else {
            panic!("a round");
        };
        for (i, b) in games.iter().enumerate() {
            let r = if b.white < b.black {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            };
            e = e.set_result(step.stage(), *round, i, r).expect("result");
        }
    }
    let step = e.next_step().expect("the knockout's first round");
    let NextStep::Round {
        stage,
        round,
        games,
        ..
    } = &step
    else {
        panic!("a round");
    };
    assert_eq!((*stage, round.0), (StageNo(2), 1));
    let got: Vec<(String, u32, u32)> = games
        .iter()
        .map(|b| {
            (
                b.series.expect("match").to_string(),
                b.white.0.min(b.black.0),
                b.white.0.max(b.black.0),
            )
        })
        .collect();
    // A1–B2, C1–D2, B1–A2, D1–C2.
    assert_eq!(
        got,
        [
            ("1.1".to_string(), 1, 7),
            ("1.2".to_string(), 3, 5),
            ("1.3".to_string(), 2, 8),
            ("1.4".to_string(), 4, 6),
        ]
    );
    // Game 1 gives white to the higher seed: the group winners.
    assert!(games.iter().all(|b| b.white < b.black));
    let end = play_seeds_win(e);
    let places: Vec<(u32, u32)> = end
        .final_placement()
        .expect("over")
        .iter()
        .map(|p| (p.place, p.id.0))
        .collect();
    assert_eq!(&places[..4], &[(1, 1), (2, 2), (3, 3), (4, 4)]);
    // Quarter-final losers share 5, by seed; then places 3 and 4 of the groups.
    // (The seconds are seeded A2 8, B2 7, C2 6, D2 5: equal on everything, by group letter.)
    assert_eq!(&places[4..8], &[(5, 8), (5, 7), (5, 6), (5, 5)]);
    assert_eq!(places.len(), 16);
    assert_eq!(places[8], (9, 9));
    assert_eq!(places[15], (16, 13));
}

#[test]
fn the_third_place_match_is_played_beside_the_final() {
    let e = Event::new(EventParts {
        name: "KO".into(),
        settings: settings(vec![StageSpec {
            name: "Knockout".into(),
            format: StageFormat::Knockout {
                series: MatchFormat::BestOf(1),
                seeding: Seeding::Standard,
                third_place: true,
            },
            tiebreaks: vec![],
            advance: None,
        }]),
        players: field(6),
        penalties: vec![],
        stages: vec![],
    })
    .expect("valid");
    // Six players in eight slots: seeds 1 and 2 have byes.
    let step = e.next_step().expect("round 1");
    let pairs: Vec<(String, u32, u32)> = step
        .games()
        .iter()
        .map(|b| (b.series.expect("m").to_string(), b.white.0, b.black.0))
        .collect();
    assert_eq!(
        pairs,
        [("1.2".to_string(), 4, 5), ("1.4".to_string(), 3, 6)]
    );
    let e = play_seeds_win(e);
    let bracket: serde_json::Value =
        serde_json::from_str(&e.bracket_json().expect("bracket")).expect("JSON");
    assert_eq!(
        bracket["rounds"][0][0]["players"],
        serde_json::json!([1, null])
    );
    assert_eq!(bracket["rounds"][0][0]["seeds"], serde_json::json!([1, 8]));
    assert_eq!(bracket["rounds"][0][0]["winner"], serde_json::json!(1));
    assert_eq!(bracket["third_place"]["match"], serde_json::json!("3rd"));
    assert_eq!(bracket["third_place"]["players"], serde_json::json!([4, 3]));
    let places: Vec<(u32, u32)> = e
        .final_placement()
        .expect("over")
        .iter()
        .map(|p| (p.place, p.id.0))
        .collect();
    assert_eq!(places, [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6)]);
}

#[test]
fn fewest_forfeit_wins_ranks_a_player_without_a_default_win_ahead() {
    use ggdesk_core::tournament::{Game, Round, Settings, Tournament, standings};
    let mut s = Settings::swiss(2);
    s.tiebreaks = vec![TieBreak::FewestForfeitWins];
    let mut t = Tournament::new("T", s).expect("settings");
    for id in 1..=4 {
        t.add_player(Player::new(PlayerId(id), "x", 2000 - i64::from(id)))
            .expect("player");
    }
    let game = |w, b, result| Game {
        table: None,
        white: PlayerId(w),
        black: PlayerId(b),
        result,
    };
    t.add_round(Round {
        games: vec![
            game(1, 2, GameResult::WhiteWinsByForfeit),
            game(3, 4, GameResult::WhiteWins),
        ],
        byes: vec![],
        absent: vec![],
    })
    .expect("round");
    let st = standings(&t, 1);
    // 1 and 3 both have 2 points; 3 won over the board and ranks first.
    assert_eq!(st.rows[0].id, PlayerId(3));
    assert_eq!(
        st.rows[0].tiebreaks[0],
        ggdesk_core::tournament::Ratio::ZERO
    );
    assert_eq!(st.rows[1].id, PlayerId(1));
    assert_eq!(
        st.rows[1].tiebreaks[0],
        ggdesk_core::tournament::Ratio::integer(-1)
    );
    assert_eq!(st.rows[1].rank, 2);
}

// ---------------------------------------------------------------- whole events

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_events_end_with_every_player_placed_once(seed in any::<u64>()) {
        let (fresh, seen) = random::played(seed);
        let Some(end) = seen.last() else {
            return Err(TestCaseError::fail("nothing was paired"));
        };
        // Every step round-trips through the file.
        for e in seen.iter().step_by(7).chain([end]) {
            let back = Event::from_json(&e.to_json()).expect("the written file reads back");
            prop_assert_eq!(&back, e);
        }
        match end.next_step() {
            Err(StepRefusal::Over) => {}
            // A small Swiss stage may run out of valid pairings (forfeits bar byes).
            Err(StepRefusal::Pairing { .. }) => return Ok(()),
            other => return Err(TestCaseError::fail(format!("stopped early: {other:?}"))),
        }
        let places = end.final_placement().expect("over");
        let mut placed: Vec<PlayerId> = places.iter().map(|p| p.id).collect();
        placed.sort();
        let mut all: Vec<PlayerId> = fresh.players().iter().map(|p| p.id).collect();
        all.sort();
        prop_assert_eq!(placed, all);
        prop_assert_eq!(places[0].place, 1);
        for (i, w) in places.windows(2).enumerate() {
            prop_assert!(w[0].place <= w[1].place);
            // A shared place is the place after those above.
            prop_assert!(w[1].place == w[0].place || w[1].place as usize == i + 2);
        }
        // A knockout's winner is first.
        if let Some(b) = &end.current().bracket {
            prop_assert_eq!(Some(places[0].id), b.champion().or(end.current().seeds.first().copied()));
        }
    }
}

#[test]
fn a_match_id_names_the_third_place_match() {
    assert_eq!(MatchId::parse("3rd"), Some(MatchId::ThirdPlace));
}

#[test]
fn too_few_players_for_the_shape_are_refused_saying_how_many_it_needs() {
    let event = |n: u32| {
        let players: Vec<serde_json::Value> = (1..=n)
            .map(|i| serde_json::json!({"id": i, "name": format!("P{i}"), "rating": 2000 - i}))
            .collect();
        Event::from_value(&serde_json::json!({
            "format": "ggdesk-tournament/2",
            "name": "Shape",
            "players": players,
            "stages": [
                {"name": "Groups", "system": "round_robin", "groups": 4, "advance": 1,
                 "rounds": [], "playoffs": []},
                {"name": "Final", "system": "knockout", "match": {"best_of": 1}, "rounds": []}
            ]
        }))
        .expect("a valid event")
    };
    // Seven players in four groups would leave a group of one that only gets byes.
    let seven = event(7);
    assert_eq!(
        seven.next_step().map_err(|e| e.to_string()),
        Err(
            "7 players are registered: too few; the first stage needs at least 8 players \
             (2 in each of its 4 groups)"
                .to_string()
        )
    );
    // None at all: the event is not over, it has not begun.
    let none = event(0);
    assert!(!none.is_over());
    assert_eq!(
        none.next_step().map_err(|e| e.to_string()),
        Err(
            "no player is registered yet: register players; the first stage needs at least \
             8 players (2 in each of its 4 groups)"
                .to_string()
        )
    );
    // Eight: round 1 of the groups.
    assert!(matches!(event(8).next_step(), Ok(NextStep::Round { .. })));
}
