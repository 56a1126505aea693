//! Team events (`spec/teams.md`) in the core: the line-up rules (each refusal naming the
//! match and the board), match scoring (forfeits, empty boards, pending boards, byes), the
//! exact team tie-breaks, the team image's rating, and what `pair` prints next.

use ggdesk_core::teams::{TeamEvent, TeamFault, TeamId, TeamStep};
use ggdesk_core::tournament::{PlayerId, Ratio};
use serde_json::{Value, json};

/// Four teams of two boards (plus a reserve each), a Swiss of 3 rounds.
fn base() -> Value {
    let players: Vec<Value> = (1..=12)
        .map(|i| json!({"id": i, "name": format!("P{i}"), "rating": 2000 - 10 * i}))
        .collect();
    json!({
        "format": "ggdesk-tournament/2",
        "name": "Cup",
        "settings": {"points": {"win": 2, "draw": 1, "loss": 0, "bye": 2, "forfeit_win": 2,
                                "forfeit_loss": 0, "absent": 0}},
        "team": {"boards": 2},
        "players": players,
        "teams": [
            {"id": 1, "name": "A", "players": [1, 2, 3], "captain": 1},
            {"id": 2, "name": "B", "players": [4, 5, 6]},
            {"id": 3, "name": "C", "players": [7, 8, 9]},
            {"id": 4, "name": "D", "players": [10, 11, 12]}
        ],
        "penalties": [],
        "stages": [{"name": "Swiss", "system": "swiss", "round_count": 3,
                    "team_tiebreaks": ["game_points", "direct_encounter", "buchholz",
                                       "sonneborn_berger", "board_count", "wins"],
                    "rounds": []}]
    })
}

fn board(white: Option<u32>, black: Option<u32>, result: &str) -> Value {
    json!({"white": white, "black": black, "result": result})
}

/// Round 1: A–B (home A) and C–D (home C), boards as given.
fn with_round(ab: [Value; 2], cd: [Value; 2]) -> Value {
    let mut file = base();
    file["stages"][0]["rounds"] = json!([{"matches": [
        {"table": 1, "home": 1, "away": 2, "boards": ab},
        {"table": 2, "home": 3, "away": 4, "boards": cd}
    ], "byes": []}]);
    file
}

fn ok_cd() -> [Value; 2] {
    // C (home) white on board 1, black on board 2.
    [
        board(Some(7), Some(10), "white"),
        board(Some(11), Some(8), "draw"),
    ]
}

fn refusal(file: &Value) -> String {
    TeamEvent::from_value(file)
        .expect_err("refused")
        .to_string()
}

#[test]
fn a_line_up_follows_the_roster_order() {
    // A plays 2 on board 1 and 1 on board 2.
    let file = with_round(
        [
            board(Some(2), Some(4), "white"),
            board(Some(5), Some(1), "draw"),
        ],
        ok_cd(),
    );
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].matches[0].boards[1]: player 1 plays board 2 but comes after \
         player 2 (board 1) in the roster of team 1: boards follow the roster order"
    );
}

#[test]
fn a_reserve_may_play_below_the_players_above_it() {
    let file = with_round(
        [
            board(Some(1), Some(4), "white"),
            board(Some(6), Some(3), "draw"),
        ],
        ok_cd(),
    );
    let event = TeamEvent::from_value(&file).expect("a reserve on the last board is fine");
    assert_eq!(
        event.stages[0].rounds[0].matches[0].boards[1].black,
        Some(PlayerId(3))
    );
}

#[test]
fn nobody_plays_twice_and_only_for_their_team() {
    let file = with_round(
        [
            board(Some(1), Some(4), "white"),
            board(Some(4), Some(2), "draw"),
        ],
        ok_cd(),
    );
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].matches[0].boards[1]: player 4 plays twice in this match"
    );
    let file = with_round(
        [
            board(Some(1), Some(4), "white"),
            board(Some(5), Some(8), "draw"),
        ],
        ok_cd(),
    );
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].matches[0].boards[1]: player 8 is not in team 1"
    );
}

#[test]
fn a_player_outside_every_team_may_not_play() {
    let mut file = with_round(
        [
            board(Some(1), Some(4), "white"),
            board(Some(5), Some(13), "draw"),
        ],
        ok_cd(),
    );
    file["players"]
        .as_array_mut()
        .expect("players")
        .push(json!({"id": 13, "name": "Free", "rating": 1500}));
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].matches[0].boards[1]: player 13 is in no team, so may not play"
    );
}

#[test]
fn no_filled_board_below_an_empty_one() {
    let file = with_round(
        [
            board(None, Some(4), "black_forfeit"),
            board(Some(5), Some(2), "draw"),
        ],
        ok_cd(),
    );
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].matches[0].boards[1]: team 1 fills board 2 below its empty board 1"
    );
}

#[test]
fn a_result_on_an_empty_board_is_the_forfeit_that_says_so() {
    for (white, black, result, message) in [
        (
            Some(1),
            None,
            "white",
            "result white with black empty: expected white_forfeit",
        ),
        (
            None,
            Some(4),
            "white_forfeit",
            "result white_forfeit with white empty: expected black_forfeit",
        ),
        (
            None,
            None,
            "draw",
            "result draw with both sides empty: expected double_forfeit",
        ),
    ] {
        let file = with_round(
            [
                board(Some(1), Some(4), "white"),
                board(Some(5), Some(2), "draw"),
            ],
            [
                board(white.map(|_| 7), black.map(|_| 10), result),
                board(None, None, "double_forfeit"),
            ],
        );
        assert_eq!(
            refusal(&file),
            format!("stages[0].rounds[0].matches[1].boards[0]: {message}")
        );
    }
}

#[test]
fn a_match_has_exactly_b_boards() {
    let mut file = with_round(
        [
            board(Some(1), Some(4), "white"),
            board(Some(5), Some(2), "draw"),
        ],
        ok_cd(),
    );
    file["stages"][0]["rounds"][0]["matches"][0]["boards"]
        .as_array_mut()
        .expect("boards")
        .pop();
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].matches[0].boards: a match has 2 boards (team.boards), this one has 1"
    );
}

#[test]
fn a_team_is_in_one_match_or_bye_a_round() {
    let mut file = with_round(
        [
            board(Some(1), Some(4), "white"),
            board(Some(5), Some(2), "draw"),
        ],
        ok_cd(),
    );
    file["stages"][0]["rounds"][0]["byes"] = json!([3]);
    let e = TeamEvent::from_value(&file).expect_err("refused");
    assert_eq!(e.at, "stages[0].rounds[0].byes[0]");
    assert_eq!(e.fault, TeamFault::TeamTwice(TeamId(3)));
}

#[test]
fn matches_score_board_points_game_points_and_match_points() {
    // A–B: A wins board 1, B's board 2 empty: A 4 game points, B 0. C–D: C 3, D 1.
    let file = with_round(
        [
            board(Some(1), Some(4), "white"),
            board(None, Some(2), "black_forfeit"),
        ],
        ok_cd(),
    );
    let event = TeamEvent::from_value(&file).expect("valid");
    let s = event.team_standings(None).expect("standings");
    let rows: Vec<(u32, u32, String, String)> = s
        .rows
        .iter()
        .map(|r| {
            (
                r.rank,
                r.team.0,
                r.match_points.to_string(),
                r.game_points.to_string(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            (1, 1, "2".into(), "4".into()),
            (2, 3, "2".into(), "3".into()),
            (3, 4, "0".into(), "1".into()),
            (4, 2, "0".into(), "0".into()),
        ]
    );
    // board_count of A: 2 × 2 (board 1) + 2 × 1 (board 2) = 6; C: 2 × 2 + 1 × 1 = 5.
    let value = |team: u32, name: &str| -> Ratio {
        let i = s
            .tiebreaks
            .iter()
            .position(|t| t.name() == name)
            .expect("listed");
        s.rows
            .iter()
            .find(|r| r.team.0 == team)
            .expect("row")
            .tiebreaks[i]
    };
    assert_eq!(value(1, "board_count"), Ratio::integer(6));
    assert_eq!(value(3, "board_count"), Ratio::integer(5));
    assert_eq!(value(1, "wins"), Ratio::integer(1));
    // Sonneborn-Berger: the opponent's match points × the team's game points: C 0 × 3.
    assert_eq!(value(3, "sonneborn_berger"), Ratio::ZERO);
    assert_eq!(value(4, "sonneborn_berger"), Ratio::integer(2));
}

#[test]
fn a_pending_board_makes_the_match_count_nothing_but_the_board_prizes_count_the_others() {
    let file = with_round(
        [
            board(Some(1), Some(4), "white"),
            board(Some(5), Some(2), "pending"),
        ],
        ok_cd(),
    );
    let event = TeamEvent::from_value(&file).expect("valid");
    let s = event.team_standings(None).expect("standings");
    let a = s.rows.iter().find(|r| r.team == TeamId(1)).expect("A");
    assert_eq!(
        (a.match_points.to_string(), a.game_points.to_string()),
        ("0".into(), "0".into())
    );
    let prizes = event.board_prizes();
    let one: Vec<(u32, u32)> = prizes[0].1.iter().map(|r| (r.id.0, r.games)).collect();
    assert!(one.contains(&(1, 1)) && one.contains(&(4, 1)), "{one:?}");
    assert!(
        prizes[1]
            .1
            .iter()
            .all(|r| r.id != PlayerId(5) && r.id != PlayerId(2))
    );
    let e = event.next_step().expect_err("round 1 is not complete");
    assert_eq!(e.to_string(), "round 1 of stage 1 is not complete");
}

#[test]
fn a_team_bye_scores_the_draw_and_b_draws_by_default() {
    let mut file = base();
    file["teams"].as_array_mut().expect("teams").pop();
    file["stages"][0]["rounds"] = json!([{"matches": [
        {"table": 1, "home": 1, "away": 2,
         "boards": [board(Some(1), Some(4), "draw"), board(Some(5), Some(2), "draw")]}
    ], "byes": [3]}]);
    let event = TeamEvent::from_value(&file).expect("valid");
    let s = event.team_standings(Some(1)).expect("standings");
    let c = s.rows.iter().find(|r| r.team == TeamId(3)).expect("C");
    assert_eq!(
        (c.match_points.to_string(), c.game_points.to_string()),
        ("1".into(), "2".into())
    );
}

#[test]
fn the_team_rating_is_the_exact_mean_of_the_first_b_players() {
    let mut file = base();
    file["players"][1]["rating"] = json!(1981); // team A: 1990 and 1981
    let event = TeamEvent::from_value(&file).expect("valid");
    assert_eq!(event.team_rating(TeamId(1)), Ratio::new(3971, 2));
    assert_eq!(
        event.teams_by_seed(),
        vec![TeamId(1), TeamId(2), TeamId(3), TeamId(4)]
    );
}

#[test]
fn pair_prints_the_first_round_of_matches_from_the_team_image() {
    let event = TeamEvent::from_value(&base()).expect("valid");
    let step = event.next_step().expect("a round");
    assert_eq!(
        step.to_json(),
        json!({"stage": 1, "round": 1,
               "matches": [{"table": 1, "home": 1, "away": 3}, {"table": 2, "home": 2, "away": 4}],
               "byes": []})
    );
    assert!(matches!(step, TeamStep::Matches { .. }));
}

#[test]
fn the_scheveningen_final_pairs_every_player_with_every_opponent() {
    let mut file = base();
    file["team"] = json!({"boards": 3});
    file["teams"] = json!([
        {"id": 1, "name": "A", "players": [1, 2, 3]},
        {"id": 2, "name": "B", "players": [4, 5, 6]}
    ]);
    file["stages"] = json!([{"name": "Final", "system": "scheveningen", "rounds": []}]);
    let mut event = TeamEvent::from_value(&file).expect("valid");
    let mut met = Vec::new();
    for round in 1..=3 {
        let TeamStep::Final { games, .. } = event.next_step().expect("a round") else {
            panic!("a round of the final");
        };
        let mut played = Vec::new();
        for (table, white, black) in &games {
            let home = if white.0 <= 3 { *white } else { *black };
            assert_eq!(home.0, *table, "table i holds the home team's board i");
            // The home team has white where i + r is even.
            assert_eq!(white.0 <= 3, (table + round).is_multiple_of(2));
            met.push((white.0.min(black.0), white.0.max(black.0)));
            played.push(
                json!({"table": table, "white": white.0, "black": black.0, "result": "draw"}),
            );
        }
        file["stages"][0]["rounds"]
            .as_array_mut()
            .expect("rounds")
            .push(json!({"games": played}));
        event = TeamEvent::from_value(&file).expect("valid");
    }
    met.sort();
    met.dedup();
    assert_eq!(met.len(), 9, "every player met every opponent once");
    let s = event.team_standings(None).expect("standings");
    assert_eq!(
        s.rows
            .iter()
            .map(|r| (r.rank, r.team.0))
            .collect::<Vec<_>>(),
        vec![(1, 1), (1, 2)],
        "equal game points share rank 1"
    );
    // Level: the captains' nominees play single games, the better seed white first.
    assert_eq!(
        event.next_step().expect("a playoff game").to_json(),
        json!({"stage": 1, "playoff": true, "games": [
            {"white_team": 1, "black_team": 2, "white": null, "black": null}]})
    );
    assert_eq!(
        event.final_placement().expect_err("level").to_string(),
        "the final ended level on game points: the captains' nominees play off until one game is won"
    );
    file["stages"][0]["playoffs"] = json!([{"white": 2, "black": 5, "result": "draw"}]);
    let event = TeamEvent::from_value(&file).expect("valid");
    assert_eq!(
        event.next_step().expect("another playoff game").to_json(),
        json!({"stage": 1, "playoff": true, "games": [
            {"white_team": 2, "black_team": 1, "white": 5, "black": 2}]})
    );
    file["stages"][0]["playoffs"]
        .as_array_mut()
        .expect("playoffs")
        .push(json!({"white": 5, "black": 2, "result": "white"}));
    let event = TeamEvent::from_value(&file).expect("valid");
    assert_eq!(
        event.next_step().expect_err("over").to_string(),
        "the event is over: every stage has been played"
    );
    let s = event.team_standings(None).expect("standings");
    assert_eq!(
        s.rows
            .iter()
            .map(|r| (r.rank, r.team.0))
            .collect::<Vec<_>>(),
        vec![(1, 2), (1, 1)],
        "the playoff orders the teams sharing rank 1"
    );
    let places: Vec<(u32, u32)> = event
        .final_placement()
        .expect("over")
        .iter()
        .map(|p| (p.place, p.team.0))
        .collect();
    assert_eq!(places, vec![(1, 2), (2, 1)]);
    // A playoff game of a final that was not level is refused.
    file["stages"][0]["rounds"][0]["games"][0]["result"] = json!("white");
    assert_eq!(
        refusal(&file),
        "stages[0].playoffs[0]: the final did not end level on game points: no playoff"
    );
}

#[test]
fn board_groups_pair_each_board_by_the_berger_tables_numbered_by_team_seed() {
    let mut file = base();
    // Team seeds: D (1980, 1970 → highest after the change), A, B, C.
    file["players"][9]["rating"] = json!(2500);
    file["teams"].as_array_mut().expect("teams").pop();
    file["teams"]
        .as_array_mut()
        .expect("teams")
        .push(json!({"id": 4, "name": "D", "players": [10, 11, 12]}));
    file["stages"] = json!([
        {"name": "Boards", "system": "board_groups", "advance": 2, "rounds": []},
        {"name": "Final", "system": "scheveningen", "rounds": []}
    ]);
    let event = TeamEvent::from_value(&file).expect("valid");
    assert_eq!(
        event.teams_by_seed(),
        vec![TeamId(4), TeamId(1), TeamId(2), TeamId(3)]
    );
    // Berger round 1 of 4: 1–4, 2–3 (first number white): D–C and A–B, board by board.
    assert_eq!(
        event.next_step().expect("round 1").to_json(),
        json!({"stage": 1, "round": 1, "games": [
            {"group": "B1", "table": 1, "white": 10, "black": 7},
            {"group": "B1", "table": 2, "white": 1, "black": 4},
            {"group": "B2", "table": 3, "white": 11, "black": 8},
            {"group": "B2", "table": 4, "white": 2, "black": 5}
        ], "byes": []})
    );
    // A board-group game names players of that board only.
    file["stages"][0]["rounds"] = json!([{"games": [
        {"group": "B1", "table": 1, "white": 10, "black": 8, "result": "white"}
    ]}]);
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].games[0].black: player 8 does not play board 1 of a team in this stage"
    );
}

/// A one-round Swiss sending 2 teams on to the final: A beats B 4–0, C and D draw 2–2, so
/// C and D tie across the cut.
fn swiss_then_final() -> Value {
    let mut file = with_round(
        [
            board(Some(1), Some(4), "white"),
            board(Some(5), Some(2), "black"),
        ],
        [
            board(Some(7), Some(10), "white"),
            board(Some(11), Some(8), "white"),
        ],
    );
    file["stages"][0]["round_count"] = json!(1);
    file["stages"][0]["advance"] = json!(2);
    file["stages"][0]["team_tiebreaks"] = json!(["game_points", "direct_encounter"]);
    file["stages"]
        .as_array_mut()
        .expect("stages")
        .push(json!({"name": "Final", "system": "scheveningen", "rounds": []}));
    file
}

#[test]
fn teams_tied_across_the_cut_play_off_through_their_captains_nominees() {
    let mut file = swiss_then_final();
    let event = TeamEvent::from_value(&file).expect("valid");
    let s = event.team_standings(None).expect("standings");
    assert_eq!(
        s.rows
            .iter()
            .map(|r| (r.rank, r.team.0))
            .collect::<Vec<_>>(),
        vec![(1, 1), (2, 3), (2, 4), (4, 2)]
    );
    assert_eq!(
        event.next_step().expect("a playoff").to_json(),
        json!({"stage": 1, "playoff": true, "games": [
            {"white_team": 3, "black_team": 4, "white": null, "black": null}]})
    );
    // D's nominee wins: D goes on, listed before C on their shared rank.
    file["stages"][0]["playoffs"] = json!([{"white": 8, "black": 10, "result": "black"}]);
    let event = TeamEvent::from_value(&file).expect("valid");
    let s = event.team_standings(Some(1)).expect("standings");
    assert_eq!(
        s.rows
            .iter()
            .map(|r| (r.rank, r.team.0))
            .collect::<Vec<_>>(),
        vec![(1, 1), (2, 4), (2, 3), (4, 2)]
    );
    // The final: A (home) against D; board 1 of round 1 is A's 1 (white) against D's 10.
    assert_eq!(
        event.next_step().expect("the final").to_json(),
        json!({"stage": 2, "round": 1, "games": [
            {"table": 1, "white": 1, "black": 10},
            {"table": 2, "white": 11, "black": 2}]})
    );
}

#[test]
fn a_playoff_game_is_played_by_one_nominee_of_each_tied_team() {
    let mut file = swiss_then_final();
    file["stages"][0]["playoffs"] = json!([{"white": 1, "black": 10, "result": "black"}]);
    assert_eq!(
        refusal(&file),
        "stages[0].playoffs[0]: team 1 of player 1 is not tied at the cut"
    );
    file["stages"][0]["playoffs"] = json!([
        {"white": 8, "black": 10, "result": "draw"},
        {"white": 11, "black": 7, "result": "draw"}
    ]);
    assert_eq!(
        refusal(&file),
        "stages[0].playoffs[1]: team 4 nominated player 10, not player 11"
    );
}

#[test]
fn a_team_swiss_of_five_pairs_every_round_without_repeats_and_one_bye_each() {
    let mut file = base();
    file["team"]["match_points"] = json!({"win": 3, "draw": 1, "loss": 0});
    file["players"] = json!(
        (1..=15)
            .map(|i| json!({"id": i, "name": format!("P{i}"), "rating": 2000 - 10 * i}))
            .collect::<Vec<_>>()
    );
    file["teams"]
        .as_array_mut()
        .expect("teams")
        .push(json!({"id": 5, "name": "E", "players": [13, 14, 15]}));
    let roster = |t: u32| -> [u32; 2] { [3 * t - 2, 3 * t - 1] };
    let mut met: Vec<(u32, u32)> = Vec::new();
    let mut byes: Vec<u32> = Vec::new();
    for round in 1..=3 {
        let event = TeamEvent::from_value(&file).expect("valid");
        let TeamStep::Matches {
            round: r,
            matches,
            byes: bye,
            ..
        } = event.next_step().expect("a round")
        else {
            panic!("a round of matches");
        };
        assert_eq!(r, round);
        assert_eq!(matches.len(), 2);
        assert_eq!(bye.len(), 1);
        byes.push(bye[0].0);
        let mut played = Vec::new();
        for (table, home, away) in &matches {
            let pair = (home.0.min(away.0), home.0.max(away.0));
            assert!(!met.contains(&pair), "round {round}: {pair:?} meet again");
            met.push(pair);
            // The home team wins board 1 (its white) and board 2 (its black).
            let (h, a) = (roster(home.0), roster(away.0));
            played.push(
                json!({"table": table, "home": home.0, "away": away.0, "boards": [
                {"white": h[0], "black": a[0], "result": "white"},
                {"white": a[1], "black": h[1], "result": "black"}]}),
            );
        }
        file["stages"][0]["rounds"]
            .as_array_mut()
            .expect("rounds")
            .push(json!({"matches": played, "byes": [bye[0].0]}));
    }
    byes.sort_unstable();
    byes.dedup();
    assert_eq!(byes.len(), 3, "three different teams had the bye");
    let event = TeamEvent::from_value(&file).expect("valid");
    assert_eq!(
        event.next_step().expect_err("over").to_string(),
        "the event is over: every stage has been played"
    );
    // Every team's match points are 3 per win and 1 per bye (the draw's), exactly.
    let s = event.team_standings(None).expect("standings");
    let total: i64 = s.rows.iter().map(|r| r.match_points.halves()).sum();
    assert_eq!(total, 2 * (6 * 3 + 3));
}

#[test]
fn the_final_placement_puts_the_finals_winner_first_then_the_teams_out_before() {
    let mut file = swiss_then_final();
    file["stages"][0]["playoffs"] = json!([{"white": 8, "black": 10, "result": "black"}]);
    for round in 0..2 {
        let event = TeamEvent::from_value(&file).expect("valid");
        assert_eq!(
            event.final_placement().expect_err("not over").to_string(),
            "the event is not over: stage 2 is still being played"
        );
        let TeamStep::Final { games, .. } = event.next_step().expect("a round") else {
            panic!("a round of the final");
        };
        let played: Vec<Value> = games
            .iter()
            .map(|(t, w, b)| {
                // A's player 1 wins the first game of the final; the rest are drawn.
                let result = if round == 0 && *t == 1 {
                    "white"
                } else {
                    "draw"
                };
                json!({"table": t, "white": w.0, "black": b.0, "result": result})
            })
            .collect();
        file["stages"][1]["rounds"]
            .as_array_mut()
            .expect("rounds")
            .push(json!({"games": played}));
    }
    let event = TeamEvent::from_value(&file).expect("valid");
    let places: Vec<(u32, u32, usize)> = event
        .final_placement()
        .expect("over")
        .iter()
        .map(|p| (p.place, p.team.0, p.stage))
        .collect();
    assert_eq!(places, vec![(1, 1, 2), (2, 4, 2), (3, 3, 1), (4, 2, 1)]);
}

#[test]
fn games_of_board_groups_and_of_the_final_follow_their_schedules() {
    let mut file = base();
    file["team"] = json!({"boards": 3});
    file["teams"] = json!([
        {"id": 1, "name": "A", "players": [1, 2, 3]},
        {"id": 2, "name": "B", "players": [4, 5, 6]}
    ]);
    file["stages"] = json!([{"name": "Final", "system": "scheveningen", "rounds": [
        {"games": [{"table": 1, "white": 4, "black": 1, "result": "draw"}]}]}]);
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].games[0]: 4 against 1 is not a game of round 1 of this stage \
         (expected 1-4, 5-2, 3-6)"
    );
    // Board groups of three teams: round 1 pairs seeds 2 and 3 (seed 1 has the bye).
    file["teams"]
        .as_array_mut()
        .expect("teams")
        .push(json!({"id": 3, "name": "C", "players": [7, 8, 9]}));
    file["stages"] = json!([
        {"name": "Boards", "system": "board_groups", "advance": 2, "rounds": [
            {"games": [{"group": "B1", "table": 1, "white": 1, "black": 4, "result": "draw"}]}]},
        {"name": "Final", "system": "scheveningen", "rounds": []}
    ]);
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].games[0]: 1 against 4 is not a game of round 1 of this stage \
         (expected 4-7, 5-8, 6-9)"
    );
    // Colours in a board group are the director's.
    file["stages"][0]["rounds"][0]["games"][0] =
        json!({"group": "B1", "table": 1, "white": 7, "black": 4, "result": "draw"});
    TeamEvent::from_value(&file).expect("the scheduled pair, colours reversed");
}

#[test]
fn the_away_team_is_black_on_odd_boards_and_white_on_even_ones() {
    // B (away) plays 5 on board 1 (black) and 4 on board 2 (white): out of roster order.
    let file = with_round(
        [
            board(Some(1), Some(5), "white"),
            board(Some(4), Some(2), "draw"),
        ],
        ok_cd(),
    );
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].matches[0].boards[1]: player 4 plays board 2 but comes after \
         player 5 (board 1) in the roster of team 2: boards follow the roster order"
    );
    // The away team's empty board 1 is its black side.
    let file = with_round(
        [
            board(Some(1), None, "white_forfeit"),
            board(Some(4), Some(2), "draw"),
        ],
        ok_cd(),
    );
    assert_eq!(
        refusal(&file),
        "stages[0].rounds[0].matches[0].boards[1]: team 2 fills board 2 below its empty board 1"
    );
}

/// The desk's playoff: the captains' nominees for the core's next playoff games, each one
/// of its team's players still in the event, fixed once the team has played off; a result
/// of a playoff game, checked against the games after it and the stages it seeded.
#[test]
fn the_desk_pairs_a_playoff_with_the_captains_nominees_and_checks_its_results() {
    use ggdesk_core::stages::PlayedOff;
    use ggdesk_core::tournament::GameResult;
    let mut file = swiss_then_final();
    let event = TeamEvent::from_value(&file).expect("valid");
    let words = |r: Result<(usize, Vec<PlayedOff>), ggdesk_core::teams::PlayoffRefusal>| {
        r.expect_err("refused").to_string()
    };
    let (c, d) = (TeamId(3), TeamId(4));
    assert!(!event.is_final_playoff(1));
    assert!(event.is_final_playoff(2));
    assert_eq!(
        words(event.playoff_games(&[])),
        "C has no nominee: its captain names one of its players for the playoff"
    );
    assert_eq!(
        words(event.playoff_games(&[(c, PlayerId(10)), (d, PlayerId(10))])),
        "P10 is not in the team C: a nominee is one of its players"
    );
    assert_eq!(
        words(event.playoff_games(&[(TeamId(1), PlayerId(1))])),
        "A does not play off now: it needs no nominee"
    );
    let mut gone = event.clone();
    if let Some(p) = gone.players.iter_mut().find(|p| p.id == PlayerId(9)) {
        p.withdrawn = true;
    }
    assert_eq!(
        words(gone.playoff_games(&[(c, PlayerId(9)), (d, PlayerId(10))])),
        "P9 of C has withdrawn from the event: a nominee is a player still in it"
    );
    // A reserve may be nominated; colours as the step gives them (C, the better seed,
    // white first).
    let (stage, games) = event
        .playoff_games(&[(d, PlayerId(12)), (c, PlayerId(8))])
        .expect("paired");
    assert_eq!(stage, 1);
    assert_eq!(
        games,
        [PlayedOff {
            white: PlayerId(8),
            black: PlayerId(12),
            result: GameResult::Pending
        }]
    );
    // Drawn: the next game swaps colours, both nominees fixed.
    file["stages"][0]["playoffs"] = json!([{"white": 8, "black": 12, "result": "draw"}]);
    let event = TeamEvent::from_value(&file).expect("valid");
    assert_eq!(
        event.playoff_games(&[]).expect("the nominees are known"),
        (
            1,
            vec![PlayedOff {
                white: PlayerId(12),
                black: PlayerId(8),
                result: GameResult::Pending
            }]
        )
    );
    assert_eq!(
        words(event.playoff_games(&[(d, PlayerId(11))])),
        "D nominated P12 in an earlier playoff game: P11 cannot play off for it (a team \
         keeps its nominee until the playoff ends)"
    );
    assert_eq!(
        event
            .playoff_games(&[(d, PlayerId(12))])
            .map(|(_, g)| g.len()),
        Ok(1),
        "the fixed nominee named again is no change"
    );
    // Results: a game that does not exist; a result deciding the playoff before a game
    // played after it; the decisive game.
    file["stages"][0]["playoffs"]
        .as_array_mut()
        .expect("playoffs")
        .push(json!({"white": 12, "black": 8, "result": "pending"}));
    let event = TeamEvent::from_value(&file).expect("valid");
    let result_words = |r: Result<TeamEvent, ggdesk_core::teams::PlayoffRefusal>| {
        r.expect_err("refused").to_string()
    };
    assert_eq!(
        result_words(event.with_playoff_result(1, 3, GameResult::WhiteWins)),
        "stage 1 has no playoff game 3"
    );
    assert_eq!(
        result_words(event.with_playoff_result(1, 1, GameResult::WhiteWins)),
        "stages[0].playoffs[1]: the playoff is over: the cut is clear"
    );
    let decided = event
        .with_playoff_result(1, 2, GameResult::WhiteWins)
        .expect("decided");
    assert_eq!(decided.stages[0].playoffs[1].result, GameResult::WhiteWins);
    let TeamStep::Final { games, .. } = decided.next_step().expect("the final") else {
        panic!("the final is seeded");
    };
    // D won the playoff: the final is A against D.
    assert_eq!(games[0].1, PlayerId(1));
    assert_eq!(games[0].2, PlayerId(10));
    // Once the final has a round, the playoff that seeded it keeps its results.
    let mut started = decided.clone();
    started.stages[1].rounds.push(Default::default());
    assert_eq!(
        result_words(started.with_playoff_result(1, 2, GameResult::BlackWins)),
        "stage 2 has started: the playoff at the cut of stage 1 that seeded it keeps its results"
    );
}
