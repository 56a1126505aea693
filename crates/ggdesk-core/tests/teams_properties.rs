//! The rules of `spec/teams.md` as properties: a line-up is accepted exactly when the rule
//! allows it, a match's match points always follow its game points, and the team image's
//! Swiss never pairs two teams twice.

use ggdesk_core::teams::{
    BoardGame, MatchPoints, MatchResult, MatchScore, TeamEvent, TeamId, TeamMatch, TeamStep,
};
use ggdesk_core::tournament::{GameResult, PlayerId, PointsScale};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Teams of 5 (B = 3): team 1 is players 1-5, team 2 is 6-10, team 3 is 11-15.
fn event(matches: Value) -> Value {
    let players: Vec<Value> = (1..=15)
        .map(|i| json!({"id": i, "name": format!("P{i}"), "rating": 2000 - i}))
        .collect();
    json!({
        "format": "ggdesk-tournament/2",
        "team": {"boards": 3},
        "players": players,
        "teams": [
            {"id": 1, "name": "A", "players": [1, 2, 3, 4, 5]},
            {"id": 2, "name": "B", "players": [6, 7, 8, 9, 10]},
            {"id": 3, "name": "C", "players": [11, 12, 13, 14, 15]}
        ],
        "stages": [{"name": "Swiss", "system": "swiss", "round_count": 2,
                    "rounds": [{"matches": matches, "byes": [3]}]}]
    })
}

/// The board's result for its two sides: a draw when both are filled, else the forfeit.
fn result(white: Option<u32>, black: Option<u32>) -> &'static str {
    match (white, black) {
        (Some(_), Some(_)) => "draw",
        (Some(_), None) => "white_forfeit",
        (None, Some(_)) => "black_forfeit",
        (None, None) => "double_forfeit",
    }
}

const RESULTS: [GameResult; 6] = [
    GameResult::WhiteWins,
    GameResult::BlackWins,
    GameResult::Draw,
    GameResult::WhiteWinsByForfeit,
    GameResult::BlackWinsByForfeit,
    GameResult::DoubleForfeit,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// `slots[b]`: the home team's player on board b: `None` empty, 0..=4 its roster's
    /// player at that index, 5 a player of team 3.
    #[test]
    fn a_line_up_is_accepted_exactly_when_the_rule_allows_it(
        slots in proptest::collection::vec(proptest::option::of(0u32..6), 3)
    ) {
        let home: Vec<Option<u32>> = slots.iter().map(|s| s.map(|i| if i == 5 { 11 } else { i + 1 })).collect();
        let away = [Some(6), Some(7), Some(8)];
        let boards: Vec<Value> = (0..3usize)
            .map(|b| {
                // The home team has white on odd boards (b even from 0).
                let (w, k) = if b.is_multiple_of(2) { (home[b], away[b]) } else { (away[b], home[b]) };
                json!({"white": w, "black": k, "result": result(w, k)})
            })
            .collect();
        let file = event(json!([{"table": 1, "home": 1, "away": 2, "boards": boards}]));
        let filled: Vec<u32> = home.iter().flatten().copied().collect();
        let allowed = filled.iter().all(|p| *p <= 5)
            && filled.windows(2).all(|w| w[0] < w[1])
            && home.iter().skip_while(|p| p.is_some()).all(Option::is_none);
        let got = TeamEvent::from_value(&file);
        prop_assert_eq!(got.is_ok(), allowed, "{:?}: {:?}", home, got.err().map(|e| e.to_string()));
        if let Err(e) = TeamEvent::from_value(&file) {
            prop_assert!(e.at.starts_with("stages[0].rounds[0].matches[0].boards["), "{}", e);
        }
    }

    #[test]
    fn match_points_follow_game_points(results in proptest::collection::vec(0usize..6, 1..6)) {
        let boards: Vec<BoardGame> = results
            .iter()
            .map(|&r| BoardGame { white: Some(PlayerId(1)), black: Some(PlayerId(2)), result: RESULTS[r] })
            .collect();
        let m = TeamMatch { table: None, home: TeamId(1), away: TeamId(2), boards };
        let mp = MatchPoints::default();
        let s = MatchScore::of(&m, &PointsScale::default(), &mp);
        let (h, a) = s.game_points;
        let expected = if h > a {
            (MatchResult::HomeWins, (mp.win, mp.loss))
        } else if a > h {
            (MatchResult::AwayWins, (mp.loss, mp.win))
        } else {
            (MatchResult::Drawn, (mp.draw, mp.draw))
        };
        prop_assert_eq!((s.result, s.match_points), expected);
    }

    /// A team Swiss of n teams over 3 rounds with any results: no two teams meet twice.
    #[test]
    fn the_team_swiss_never_pairs_two_teams_twice(
        n in 4u32..9,
        outcomes in proptest::collection::vec(0usize..3, 12)
    ) {
        let players: Vec<Value> = (1..=2 * n)
            .map(|i| json!({"id": i, "name": format!("P{i}"), "rating": 1500 + 7 * (i % 5)}))
            .collect();
        let teams: Vec<Value> = (1..=n)
            .map(|t| json!({"id": t, "name": format!("T{t}"), "players": [2 * t - 1, 2 * t]}))
            .collect();
        let mut file = json!({
            "format": "ggdesk-tournament/2",
            "team": {"boards": 2},
            "players": players,
            "teams": teams,
            "stages": [{"name": "Swiss", "system": "swiss", "round_count": 3, "rounds": []}]
        });
        let mut met: Vec<(u32, u32)> = Vec::new();
        let mut next = outcomes.iter().cycle();
        for _ in 0..3 {
            let event = TeamEvent::from_value(&file).expect("valid");
            let Ok(TeamStep::Matches { matches, byes, .. }) = event.next_step() else {
                break; // no valid pairing is a refusal, not a repeat
            };
            let mut played = Vec::new();
            for (table, home, away) in matches {
                let pair = (home.0.min(away.0), home.0.max(away.0));
                prop_assert!(!met.contains(&pair), "{:?} met twice", pair);
                met.push(pair);
                let results = match next.next() {
                    Some(0) => ["white", "black"],
                    Some(1) => ["draw", "draw"],
                    _ => ["black", "white"],
                };
                played.push(json!({"table": table, "home": home.0, "away": away.0, "boards": [
                    {"white": 2 * home.0 - 1, "black": 2 * away.0 - 1, "result": results[0]},
                    {"white": 2 * away.0, "black": 2 * home.0, "result": results[1]}]}));
            }
            let byes: Vec<u32> = byes.iter().map(|t| t.0).collect();
            file["stages"][0]["rounds"]
                .as_array_mut()
                .expect("rounds")
                .push(json!({"matches": played, "byes": byes}));
        }
        prop_assert!(met.len() >= (n as usize) / 2, "round 1 is always paired: {:?}", met);
    }
}
