//! Standings and every tie-break on hand-checked examples. The expected values are worked
//! out by hand in the comments.

use ggdesk_core::tournament::{Ratio, Score, Standings, TieBreak, Tournament, standings};

/// Five players; 5 enters late (round 2). Default points: win 2, draw 1, bye 2, forfeit
/// win 2, forfeit loss 0, absent 0.
///
/// R1: 1-2 white wins, 3-4 draw (5 not entered yet).
/// R2: 1-3 black wins, 2-5 white by forfeit, 4 bye.
/// R3: 1-4 draw, 3-5 white wins, 2 absent.
/// Penalty: 4 loses 1 point.
///
/// Final scores: 1: 2+0+1 = 3, 2: 0+2+0 = 2, 3: 1+2+2 = 5, 4: 1+2+1-1 = 3, 5: 0.
///
/// Opponent values (own final score when unplayed or forfeited):
///   1: 2 (vs 2), 5 (vs 3), 3 (vs 4)      buchholz 10, cut1 8, median 3
///   2: 3 (vs 1), 2 (forfeit), 2 (absent)  buchholz 7, cut1 5, median 2
///   3: 3 (vs 4), 3 (vs 1), 0 (vs 5)      buchholz 6, cut1 6, median 3
///   4: 5 (vs 3), 3 (bye), 3 (vs 1)       buchholz 11, cut1 8, median 3
///   5: 0 (absent), 0 (forfeit), 5 (vs 3) buchholz 5, cut1 5, median 0
/// Sonneborn-Berger (value × points / 2):
///   1: 2·2/2 + 5·0 + 3·1/2 = 3.5; 2: 3·0 + 2·2/2 + 2·0 = 2; 3: 3·1/2 + 3·2/2 + 0 = 4.5;
///   4: 5·1/2 + 3·2/2 + 3·1/2 = 7; 5: 0.
/// Progressive (running score without penalties): 1: 2+2+3 = 7, 2: 0+2+2 = 4,
///   3: 1+3+5 = 9, 4: 1+3+4 = 8, 5: 0.
/// Wins over the board: 1: 1, 2: 0, 3: 2, 4: 0, 5: 0.
/// Direct encounter (first in the list): 1 and 4 tie on 3 and drew: 1 each.
const EXAMPLE: &str = r#"{
  "format": "ggdesk-tournament/1",
  "name": "hand-checked",
  "settings": {"system": "swiss", "rounds": 5,
    "tiebreaks": ["direct_encounter", "buchholz", "buchholz_cut1", "median_buchholz",
                  "sonneborn_berger", "progressive", "wins"]},
  "players": [
    {"id": 1, "name": "A", "rating": 1800},
    {"id": 2, "name": "B", "rating": 1700},
    {"id": 3, "name": "C", "rating": 1600},
    {"id": 4, "name": "D", "rating": 1500},
    {"id": 5, "name": "E", "rating": 1400}
  ],
  "rounds": [
    {"games": [{"white": 1, "black": 2, "result": "white"},
               {"white": 3, "black": 4, "result": "draw"}]},
    {"games": [{"white": 1, "black": 3, "result": "black"},
               {"white": 2, "black": 5, "result": "white_forfeit"}], "byes": [4]},
    {"games": [{"white": 1, "black": 4, "result": "draw"},
               {"white": 3, "black": 5, "result": "white"}], "absent": [2]}
  ],
  "penalties": [{"player": 4, "points": 1, "reason": "delay"}]
}"#;

fn load(text: &str) -> Tournament {
    Tournament::from_json(text).expect("valid file")
}

fn half(h: i64) -> Ratio {
    Ratio::new(i128::from(h), 2)
}

/// The rows as (id, rank, score in halves, tie-break values).
fn table(s: &Standings) -> Vec<(u32, u32, i64, Vec<Ratio>)> {
    s.rows
        .iter()
        .map(|r| (r.id.0, r.rank, r.score.halves(), r.tiebreaks.clone()))
        .collect()
}

#[test]
fn every_tie_break_on_a_hand_checked_tournament() {
    let t = load(EXAMPLE);
    let s = standings(&t, 3);
    let int = |n: i64| Ratio::integer(n);
    assert_eq!(
        table(&s),
        vec![
            (
                3,
                1,
                10,
                vec![int(0), int(6), int(6), int(3), half(9), int(9), int(2)]
            ),
            (
                4,
                2,
                6,
                vec![int(1), int(11), int(8), int(3), int(7), int(8), int(0)]
            ),
            (
                1,
                3,
                6,
                vec![int(1), int(10), int(8), int(3), half(7), int(7), int(1)]
            ),
            (
                2,
                4,
                4,
                vec![int(0), int(7), int(5), int(2), int(2), int(4), int(0)]
            ),
            (
                5,
                5,
                0,
                vec![int(0), int(5), int(5), int(0), int(0), int(0), int(0)]
            ),
        ]
    );
}

#[test]
fn the_json_has_the_spec_keys_in_order_and_plain_numbers() {
    let t = load(EXAMPLE);
    let json = standings(&t, 3).to_json();
    let first = json.lines().nth(1).expect("a row");
    assert_eq!(
        first,
        r#"{"rank":1,"id":3,"name":"C","rating":1600,"score":5,"direct_encounter":0,"buchholz":6,"buchholz_cut1":6,"median_buchholz":3,"sonneborn_berger":4.5,"progressive":9,"wins":2},"#
    );
    let parsed: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    assert_eq!(parsed.as_array().map(Vec::len), Some(5));
}

#[test]
fn direct_encounter_counts_only_players_tied_on_every_earlier_tie_break() {
    let text = EXAMPLE.replace(
        r#""tiebreaks": ["direct_encounter", "buchholz","#,
        r#""tiebreaks": ["buchholz", "direct_encounter","#,
    );
    let t = load(&text);
    let s = standings(&t, 3);
    // 1 and 4 differ on buchholz (10 against 11): each alone in its group, so 0.
    for row in &s.rows {
        assert_eq!(s.value(row, TieBreak::DirectEncounter), Some(Ratio::ZERO));
    }
    assert_eq!(s.rows[1].id.0, 4);
}

#[test]
fn standings_after_an_earlier_round() {
    let t = load(EXAMPLE);
    let s = standings(&t, 1);
    assert_eq!(s.after_round, 1);
    // After round 1: 1: 2, 3: 1, 4: 1 - 1 (penalty) = 0, 2: 0, 5: 0 (not entered).
    let scores: Vec<(u32, i64)> = s.rows.iter().map(|r| (r.id.0, r.score.halves())).collect();
    assert_eq!(scores[0], (1, 4));
    assert_eq!(scores[1], (3, 2));
    assert_eq!(
        t.score(ggdesk_core::tournament::PlayerId(4), 1),
        Some(Score::ZERO)
    );
    // Buchholz after round 1 for 1: the opponent 2 has 0.
    assert_eq!(s.value(&s.rows[0], TieBreak::Buchholz), Some(Ratio::ZERO));
}

fn two_rounds(tiebreaks: &str, ratings: [i64; 4]) -> Tournament {
    // R1: 1 beats 2, 3 beats 4. R2: 1 beats 3, 2 beats 4. Scores 4, 2, 2, 0.
    load(&format!(
        r#"{{"format": "ggdesk-tournament/1", "name": "t",
        "settings": {{"system": "swiss", "rounds": 3, "tiebreaks": {tiebreaks}}},
        "players": [{{"id": 1, "name": "a", "rating": {}}}, {{"id": 2, "name": "b", "rating": {}}},
                    {{"id": 3, "name": "c", "rating": {}}}, {{"id": 4, "name": "d", "rating": {}}}],
        "rounds": [
          {{"games": [{{"white": 1, "black": 2, "result": "white"}}, {{"white": 3, "black": 4, "result": "white"}}]}},
          {{"games": [{{"white": 1, "black": 3, "result": "white"}}, {{"white": 2, "black": 4, "result": "white"}}]}}
        ]}}"#,
        ratings[0], ratings[1], ratings[2], ratings[3]
    ))
}

#[test]
fn equal_players_share_the_lowest_rank_and_are_listed_by_rating_then_id() {
    // 2 and 3 tie on score, direct encounter (never met: 0), buchholz (4 each), SB (0
    // each) and wins (1 each).
    let t = two_rounds(
        r#"["direct_encounter", "buchholz", "sonneborn_berger", "wins"]"#,
        [1500, 1500, 1600, 1400],
    );
    let s = standings(&t, 2);
    let ranks: Vec<(u32, u32)> = s.rows.iter().map(|r| (r.id.0, r.rank)).collect();
    assert_eq!(ranks, vec![(1, 1), (3, 2), (2, 2), (4, 4)]);
    let t = two_rounds(r#"[]"#, [1500, 1600, 1600, 1400]);
    let ranks: Vec<(u32, u32)> = standings(&t, 2)
        .rows
        .iter()
        .map(|r| (r.id.0, r.rank))
        .collect();
    assert_eq!(ranks, vec![(1, 1), (2, 2), (3, 2), (4, 4)]);
}

#[test]
fn progressive_breaks_the_tie_the_others_leave() {
    // 2: 0 then 2, progressive 2; 3: 2 then 2, progressive 4.
    let t = two_rounds(r#"["progressive"]"#, [1500, 1600, 1600, 1400]);
    let s = standings(&t, 2);
    let ranks: Vec<(u32, u32)> = s.rows.iter().map(|r| (r.id.0, r.rank)).collect();
    assert_eq!(ranks, vec![(1, 1), (3, 2), (2, 3), (4, 4)]);
}

fn one_game(result: &str, points: &str) -> Tournament {
    load(&format!(
        r#"{{"format": "ggdesk-tournament/1", "name": "t",
        "settings": {{"system": "swiss", "rounds": 3, "points": {points},
                     "tiebreaks": ["direct_encounter", "sonneborn_berger", "buchholz"]}},
        "players": [{{"id": 1, "name": "a"}}, {{"id": 2, "name": "b"}}],
        "rounds": [{{"games": [{{"white": 1, "black": 2, "result": "{result}"}}]}}]}}"#
    ))
}

#[test]
fn direct_encounter_needs_a_game_over_the_board() {
    let drawn = one_game("draw", "{}");
    let s = standings(&drawn, 1);
    assert!(s.rows.iter().all(|r| r.tiebreaks[0] == Ratio::integer(1)));
    let forfeited = one_game("double_forfeit", "{}");
    let s = standings(&forfeited, 1);
    assert!(s.rows.iter().all(|r| r.tiebreaks[0] == Ratio::ZERO));
    // Forfeits count the player's own score as the opponent's value.
    assert!(
        s.rows
            .iter()
            .all(|r| r.tiebreaks[2] == Ratio::ZERO && r.score == Score::ZERO)
    );
}

#[test]
fn sonneborn_berger_is_exact_when_a_win_is_worth_three() {
    let t = one_game("draw", r#"{"win": 3, "draw": 1}"#);
    let s = standings(&t, 1);
    // Opponent's score 1, own points 1, divided by a win of 3: 1/3.
    assert_eq!(s.rows[0].tiebreaks[1], Ratio::new(1, 3));
    assert!(
        s.to_json()
            .contains(r#""sonneborn_berger":0.3333333333333333"#)
    );
    let zero_win = one_game("draw", r#"{"win": 0}"#);
    assert_eq!(standings(&zero_win, 1).rows[0].tiebreaks[1], Ratio::ZERO);
}

#[test]
fn a_three_way_tie_where_all_have_met_shares_the_direct_encounter() {
    // 1 beats 2, 2 beats 3, 3 beats 1; 4 loses every game. 1, 2, 3 tie on 4 and each
    // scored 2 against the other two.
    let t = load(
        r#"{"format": "ggdesk-tournament/1", "name": "t",
        "settings": {"system": "round_robin", "tiebreaks": ["direct_encounter"]},
        "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"id": 3, "name": "c"}, {"id": 4, "name": "d"}],
        "rounds": [
          {"games": [{"white": 1, "black": 2, "result": "white"}, {"white": 3, "black": 4, "result": "white"}]},
          {"games": [{"white": 2, "black": 3, "result": "white"}, {"white": 4, "black": 1, "result": "black"}]},
          {"games": [{"white": 3, "black": 1, "result": "white"}, {"white": 2, "black": 4, "result": "white"}]}
        ]}"#,
    );
    let s = standings(&t, 3);
    let rows: Vec<(u32, u32, i64, Ratio)> = s
        .rows
        .iter()
        .map(|r| (r.id.0, r.rank, r.score.halves(), r.tiebreaks[0]))
        .collect();
    assert_eq!(
        rows,
        vec![
            (1, 1, 8, Ratio::integer(2)),
            (2, 1, 8, Ratio::integer(2)),
            (3, 1, 8, Ratio::integer(2)),
            (4, 4, 0, Ratio::ZERO),
        ]
    );
}

#[test]
fn direct_encounter_adds_up_every_game_of_a_double_round_robin() {
    // 1 wins the first game, 2 the second: 2 points each from their games.
    let t = load(
        r#"{"format": "ggdesk-tournament/1", "name": "t",
        "settings": {"system": "round_robin", "rounds": 2, "tiebreaks": ["direct_encounter"]},
        "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}],
        "rounds": [
          {"games": [{"white": 1, "black": 2, "result": "white"}]},
          {"games": [{"white": 2, "black": 1, "result": "white"}]}
        ]}"#,
    );
    let s = standings(&t, 2);
    assert!(
        s.rows
            .iter()
            .all(|r| r.tiebreaks[0] == Ratio::integer(2) && r.rank == 1)
    );
}

#[test]
fn a_pending_game_counts_nothing_and_its_round_is_left_out_of_the_tie_breaks() {
    // R1: 1 beats 2, 3 absent. R2: 1 - 3 pending, 2 bye. Scores 1: 2, 2: 2, 3: 0.
    let t = load(
        r#"{"format": "ggdesk-tournament/1", "name": "t",
        "settings": {"system": "swiss", "rounds": 3, "tiebreaks": ["buchholz", "direct_encounter", "wins"]},
        "players": [{"id": 1, "name": "a", "rating": 3}, {"id": 2, "name": "b", "rating": 2}, {"id": 3, "name": "c", "rating": 1}],
        "rounds": [
          {"games": [{"white": 1, "black": 2, "result": "white"}], "absent": [3]},
          {"games": [{"white": 1, "black": 3, "result": "pending"}], "byes": [2]}
        ]}"#,
    );
    let s = standings(&t, 2);
    let rows: Vec<(u32, i64, Vec<Ratio>)> = s
        .rows
        .iter()
        .map(|r| (r.id.0, r.score.halves(), r.tiebreaks.clone()))
        .collect();
    let int = Ratio::integer;
    // Buchholz, the pending round left out: 1: 2 (vs 2) = 2; 2: 2 (vs 1) + 2 (bye, own)
    // = 4; 3: 0 (absent, own) = 0. 1 and 2 tie on 2 but not on buchholz.
    assert_eq!(
        rows,
        vec![
            (2, 4, vec![int(4), int(0), int(0)]),
            (1, 4, vec![int(2), int(0), int(1)]),
            (3, 0, vec![int(0), int(0), int(0)]),
        ]
    );
    assert!(!t.is_round_complete(2));
    // Sonneborn-Berger and the rest leave the pending round out too: with the game
    // pending, the standings are those of round 1 plus 2's bye.
    let t = load(
        r#"{"format": "ggdesk-tournament/1", "name": "t",
        "settings": {"system": "swiss", "rounds": 3, "tiebreaks": ["sonneborn_berger", "buchholz_cut1", "progressive"]},
        "players": [{"id": 1, "name": "a", "rating": 3}, {"id": 2, "name": "b", "rating": 2}, {"id": 3, "name": "c", "rating": 1}],
        "rounds": [
          {"games": [{"white": 3, "black": 2, "result": "white"}], "byes": [1]},
          {"games": [{"white": 1, "black": 3, "result": "pending"}], "byes": [2]}
        ]}"#,
    );
    let s = standings(&t, 2);
    let row = |id: u32| s.rows.iter().find(|r| r.id.0 == id).expect("ranked");
    // 3 beat 2 and has only that round: SB = 2's score (bye, 2) × 1 = 2; cut1 of one
    // round = 0; progressive 2. Counting the pending game would add 1's score (2) to
    // buchholz_cut1 and a second running total to progressive.
    assert_eq!(
        row(3).tiebreaks,
        vec![int(2), int(0), int(2)],
        "player 3's tie-breaks"
    );
}

#[test]
fn a_row_gives_the_value_of_each_tie_break_it_has() {
    let t = load(EXAMPLE);
    let s = standings(&t, 3);
    let row = |id: u32| s.rows.iter().find(|r| r.id.0 == id).expect("ranked");
    // Player 4 of the example: buchholz 11, Sonneborn-Berger 7, progressive 8, wins 0.
    assert_eq!(s.value(row(4), TieBreak::Buchholz), Some(half(22)));
    assert_eq!(s.value(row(4), TieBreak::SonnebornBerger), Some(half(14)));
    assert_eq!(s.value(row(4), TieBreak::Progressive), Some(half(16)));
    assert_eq!(s.value(row(4), TieBreak::Wins), Some(Ratio::ZERO));
    // Player 3: median buchholz 3, direct encounter 0 (nobody shares 5 points).
    assert_eq!(s.value(row(3), TieBreak::MedianBuchholz), Some(half(6)));
    assert_eq!(
        s.value(row(3), TieBreak::DirectEncounter),
        Some(Ratio::ZERO)
    );
    // A tie-break the settings do not list has no value.
    let mut t = t;
    let mut settings = t.settings().clone();
    settings.tiebreaks = vec![TieBreak::Wins];
    t.set_settings(settings).expect("valid");
    let s = standings(&t, 3);
    let row = s.rows.iter().find(|r| r.id.0 == 3).expect("ranked");
    assert_eq!(s.value(row, TieBreak::Wins), Some(Ratio::integer(2)));
    assert_eq!(s.value(row, TieBreak::Buchholz), None);
}
