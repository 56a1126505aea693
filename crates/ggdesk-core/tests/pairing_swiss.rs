//! Swiss pairing on hand-made situations: score groups, the bye, colours, tables, what is
//! avoided, the errors, and the explanation.

use ggdesk_core::pairing::{Board, PairingError, explain, pair_next_round};
use ggdesk_core::tournament::{
    Game, GameResult, Penalty, Player, PlayerId, Round, Score, Settings, Tournament,
};

/// A Swiss of `ratings.len()` players with ids 1.. and the given ratings.
fn swiss(ratings: &[i64]) -> Tournament {
    let mut t = Tournament::new("test", Settings::swiss(5)).expect("valid");
    for (i, &r) in ratings.iter().enumerate() {
        t.add_player(Player::new(
            PlayerId(i as u32 + 1),
            format!("P{}", i + 1),
            r,
        ))
        .expect("fresh");
    }
    t
}

fn game(w: u32, b: u32, result: GameResult) -> Game {
    Game {
        table: None,
        white: PlayerId(w),
        black: PlayerId(b),
        result,
    }
}

fn boards(games: &[Board]) -> Vec<(u32, u32)> {
    games.iter().map(|g| (g.white.0, g.black.0)).collect()
}

#[test]
fn round_one_pairs_the_top_half_against_the_bottom_half() {
    let t = swiss(&[1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100]);
    let p = pair_next_round(&t, &[]).expect("pairs");
    assert_eq!(p.round, 1);
    assert_eq!(boards(&p.games), vec![(1, 5), (2, 6), (3, 7), (4, 8)]);
    assert_eq!(
        p.games.iter().map(|g| g.table).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert!(p.byes.is_empty());
}

#[test]
fn an_odd_field_gives_the_bye_to_the_lowest_rated() {
    let t = swiss(&[1800, 1700, 1600, 1500, 1100, 1400, 1300]);
    let p = pair_next_round(&t, &[]).expect("pairs");
    assert_eq!(p.byes, vec![PlayerId(5)]);
    // The other six: 1800 1700 1600 | 1500 1400 1300.
    assert_eq!(boards(&p.games), vec![(1, 4), (2, 6), (3, 7)]);
}

#[test]
fn among_equal_ratings_the_bye_goes_to_the_higher_id() {
    let t = swiss(&[1500, 1200, 1200]);
    let p = pair_next_round(&t, &[]).expect("pairs");
    assert_eq!(p.byes, vec![PlayerId(3)]);
}

/// Pairs the next round of `t` and returns the bye, checking that nobody met twice.
fn bye_of(t: &Tournament) -> Vec<PlayerId> {
    let p = pair_next_round(t, &[]).expect("pairs");
    for g in &p.games {
        assert!(!t.has_met(g.white, g.black), "{} - {}", g.white, g.black);
    }
    p.byes
}

#[test]
fn the_bye_goes_to_the_lowest_score_and_never_twice() {
    // A bye worth nothing, like an absence: whoever had it is still among the lowest.
    let mut settings = Settings::swiss(5);
    settings.points.bye = Score::ZERO;
    let round_one = |bye: bool| {
        let mut t = swiss(&[1800, 1700, 1600, 1500, 1400]);
        t.set_settings(settings.clone()).expect("valid");
        t.add_round(Round {
            games: vec![
                game(1, 2, GameResult::WhiteWins),
                game(3, 4, GameResult::WhiteWins),
            ],
            byes: if bye { vec![PlayerId(5)] } else { vec![] },
            absent: if bye { vec![] } else { vec![PlayerId(5)] },
        })
        .expect("valid");
        t
    };
    // Scores either way: 1 and 3 at 2; 2, 4 and 5 at 0. Absent in round 1, 5 (the lowest
    // rated of the lowest score) gets the bye; after a bye in round 1, never again: the
    // next lowest rated at that score, 4, gets it.
    assert_eq!(bye_of(&round_one(false)), vec![PlayerId(5)]);
    assert_eq!(bye_of(&round_one(true)), vec![PlayerId(4)]);
}

#[test]
fn no_bye_after_a_forfeit_win() {
    let history = |five_won: GameResult| {
        let mut t = swiss(&[1800, 1700, 1600, 1500, 1400]);
        for round in [
            Round {
                games: vec![game(1, 2, GameResult::WhiteWins), game(4, 5, five_won)],
                byes: vec![PlayerId(3)],
                absent: vec![],
            },
            Round {
                games: vec![
                    game(1, 3, GameResult::WhiteWins),
                    game(2, 5, GameResult::WhiteWins),
                ],
                byes: vec![PlayerId(4)],
                absent: vec![],
            },
        ] {
            t.add_round(round).expect("valid");
        }
        t
    };
    // Scores either way: 1 at 4; 2, 3, 4 and 5 at 2; 3 and 4 have had the bye. When 5 beat
    // 4 over the board, 5 (the lowest rated) gets the bye; after a forfeit win, never: 2
    // gets it.
    assert_eq!(bye_of(&history(GameResult::BlackWins)), vec![PlayerId(5)]);
    assert_eq!(
        bye_of(&history(GameResult::BlackWinsByForfeit)),
        vec![PlayerId(2)]
    );
}

#[test]
fn the_bye_skips_a_low_scorer_who_had_one() {
    let mut t = swiss(&[1800, 1700, 1600]);
    t.add_round(Round {
        games: vec![game(1, 2, GameResult::WhiteWins)],
        byes: vec![PlayerId(3)],
        absent: vec![],
    })
    .expect("valid");
    t.add_penalty(Penalty {
        player: PlayerId(3),
        points: Score::from_points(3),
        reason: "delay".into(),
    })
    .expect("known");
    // 3 has the lowest score (-1) but had the bye; 2 (0) gets it; 1 meets 3.
    let p = pair_next_round(&t, &[]).expect("pairs");
    assert_eq!(p.byes, vec![PlayerId(2)]);
    assert_eq!(boards(&p.games), vec![(1, 3)]);
}

#[test]
fn rematches_and_forbidden_pairs_are_avoided_at_the_least_cost() {
    let mut t = swiss(&[1800, 1700, 1600, 1500]);
    t.add_round(Round {
        games: vec![
            game(1, 3, GameResult::WhiteWins),
            game(2, 4, GameResult::WhiteWins),
        ],
        byes: vec![],
        absent: vec![],
    })
    .expect("valid");
    // Winners 1 and 2 would meet, but are forbidden; losers 3 and 4 likewise.
    t.add_forbidden_pair(PlayerId(1), PlayerId(2))
        .expect("known");
    let p = pair_next_round(&t, &[]).expect("pairs");
    assert_eq!(boards(&p.games), vec![(1, 4), (2, 3)]);
    let text = explain(&t, &p).to_string();
    assert!(text.contains("1 - 2 (a forbidden pair)"), "{text}");
    assert!(text.contains("1 moved down from score group 2"), "{text}");
}

#[test]
fn higher_score_then_higher_rating_gets_white_and_tables_go_by_score() {
    let mut t = swiss(&[1500, 1600, 1700, 1800]);
    t.add_round(Round {
        games: vec![
            game(4, 2, GameResult::BlackWins),
            game(3, 1, GameResult::BlackWins),
        ],
        byes: vec![],
        absent: vec![],
    })
    .expect("valid");
    // Winners 2 (1600) and 1 (1500) meet: 2 has white; losers 4 (1800) and 3 (1700).
    let p = pair_next_round(&t, &[]).expect("pairs");
    assert_eq!(boards(&p.games), vec![(2, 1), (4, 3)]);
}

#[test]
fn withdrawn_and_absent_players_are_not_paired() {
    let mut t = swiss(&[1800, 1700, 1600, 1500, 1400, 1300]);
    t.set_withdrawn(PlayerId(2), true).expect("known");
    let p = pair_next_round(&t, &[PlayerId(5)]).expect("pairs");
    let paired: Vec<u32> = p
        .games
        .iter()
        .flat_map(|g| [g.white.0, g.black.0])
        .chain(p.byes.iter().map(|b| b.0))
        .collect();
    assert_eq!(paired.len(), 4);
    assert!(!paired.contains(&2) && !paired.contains(&5));
    assert_eq!(p.absent, vec![PlayerId(5)]);
    let round = p.to_round();
    assert_eq!(round.absent, vec![PlayerId(5)]);
    assert!(round.games.iter().all(|g| g.result == GameResult::Pending));
    t.add_round(round).expect("a pairing is a valid round");
}

#[test]
fn when_no_pairing_is_valid_the_pairing_says_so() {
    let mut t = swiss(&[1800, 1700]);
    t.add_round(Round {
        games: vec![game(1, 2, GameResult::Draw)],
        ..Round::default()
    })
    .expect("valid");
    let e = pair_next_round(&t, &[]).expect_err("they have met");
    assert_eq!(
        e,
        PairingError::NoValidPairing {
            unpaired: vec![PlayerId(1), PlayerId(2)]
        }
    );
    assert!(e.to_string().starts_with("no valid pairing exists"));

    let mut t = swiss(&[1800]);
    t.add_round(Round {
        byes: vec![PlayerId(1)],
        ..Round::default()
    })
    .expect("valid");
    assert_eq!(pair_next_round(&t, &[]), Err(PairingError::NoByeCandidate));
}

#[test]
fn pairing_needs_a_complete_last_round_and_rounds_left() {
    let mut t = Tournament::new("two rounds", Settings::swiss(1)).expect("valid");
    for id in 1..=2 {
        t.add_player(Player::new(PlayerId(id), "x", 0))
            .expect("fresh");
    }
    let p = pair_next_round(&t, &[]).expect("round 1");
    t.add_round(p.to_round()).expect("valid");
    assert_eq!(
        pair_next_round(&t, &[]),
        Err(PairingError::RoundNotComplete(1))
    );
    t.set_result(1, 0, GameResult::DoubleForfeit)
        .expect("exists");
    assert_eq!(
        pair_next_round(&t, &[]),
        Err(PairingError::AllRoundsPlayed(1))
    );
    assert_eq!(
        pair_next_round(&swiss(&[1, 2]), &[PlayerId(9)]),
        Err(PairingError::UnknownPlayer(PlayerId(9)))
    );
    let mut empty = swiss(&[1500]);
    empty.set_withdrawn(PlayerId(1), true).expect("known");
    assert_eq!(pair_next_round(&empty, &[]), Err(PairingError::NoPlayers));
}

#[test]
fn a_late_entry_is_paired_with_the_score_of_their_absences() {
    let mut t = swiss(&[1800, 1700, 1600, 1500]);
    t.add_round(Round {
        games: vec![
            game(1, 3, GameResult::WhiteWins),
            game(2, 4, GameResult::WhiteWins),
        ],
        ..Round::default()
    })
    .expect("valid");
    t.add_player(Player::new(PlayerId(5), "late", 2000))
        .expect("fresh");
    t.add_player(Player::new(PlayerId(6), "late too", 1900))
        .expect("fresh");
    assert_eq!(t.score(PlayerId(5), 1), Some(Score::ZERO));
    let p = pair_next_round(&t, &[]).expect("pairs");
    // Score 2: 1, 2. Score 0: 5 (2000), 6 (1900), 3 (1600), 4 (1500).
    assert_eq!(boards(&p.games), vec![(1, 2), (5, 3), (6, 4)]);
}

#[test]
fn an_odd_score_group_sends_its_lowest_rated_down_to_the_top_of_the_next() {
    let mut t = swiss(&[1800, 1700, 1600, 1500, 1400, 1300, 1200, 1100]);
    // After round 1: 1, 2, 3 won, 4 drew with 8; 5, 6, 7 lost.
    t.add_round(Round {
        games: vec![
            game(1, 5, GameResult::WhiteWins),
            game(2, 6, GameResult::WhiteWins),
            game(3, 7, GameResult::WhiteWins),
            game(4, 8, GameResult::Draw),
        ],
        ..Round::default()
    })
    .expect("valid");
    let p = pair_next_round(&t, &[]).expect("pairs");
    // Group 2: 1, 2, 3 → 1-2 and 3 moves down; group 1: 4, 8 → 3-4, 8 moves down to
    // group 0: 5, 6, 7 → 8-5 would be the next float... the least squared differences make
    // two games across groups; the ones moved are the lowest rated.
    assert_eq!(boards(&p.games), vec![(1, 2), (3, 4), (8, 5), (6, 7)]);
    let text = explain(&t, &p).to_string();
    assert!(
        text.contains("3 moved down from score group 2 (#3 of 3)"),
        "{text}"
    );
}

#[test]
fn the_explanation_names_the_bye_and_who_was_passed_over() {
    let mut t = swiss(&[1800, 1700, 1600, 1500, 1400]);
    t.add_round(Round {
        games: vec![
            game(1, 3, GameResult::WhiteWins),
            game(2, 4, GameResult::WhiteWins),
        ],
        byes: vec![PlayerId(5)],
        absent: vec![],
    })
    .expect("valid");
    let p = pair_next_round(&t, &[]).expect("pairs");
    assert_eq!(p.byes, vec![PlayerId(4)]);
    let text = explain(&t, &p).to_string();
    assert!(text.contains("Bye: 4 P4 (0)"), "{text}");
    assert!(
        text.contains("Round 2 (Swiss): 5 players paired on 2 boards, 1 bye."),
        "{text}"
    );
    assert!(text.contains("Score groups"), "{text}");
}

#[test]
fn the_explanation_of_a_round_robin_names_the_table_and_the_byes() {
    let mut t = Tournament::new("rr", Settings::round_robin()).expect("valid");
    for id in 1..=3 {
        t.add_player(Player::new(
            PlayerId(id),
            format!("R{id}"),
            2000 - id as i64,
        ))
        .expect("fresh");
    }
    let p = pair_next_round(&t, &[]).expect("pairs");
    assert_eq!(boards(&p.games), vec![(2, 3)]);
    assert_eq!(p.byes, vec![PlayerId(1)]);
    let text = explain(&t, &p).to_string();
    assert!(text.contains("round 1 of the Berger table for 4"), "{text}");
    assert!(
        text.contains("Bye: 1 R1 (#1): meets the missing number 4."),
        "{text}"
    );
}
