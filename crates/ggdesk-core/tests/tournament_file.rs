//! The `ggdesk-tournament/1` file: every fault refused with its place, defaults, and the
//! round trip.

use ggdesk_core::tournament::{
    FileFault, GameResult, PlayerId, PointsScale, Score, System, TieBreak, Tournament,
    TournamentError,
};
use serde_json::{Value, json};

fn base() -> Value {
    json!({
        "format": "ggdesk-tournament/1",
        "name": "GGF Open 2026",
        "settings": {
            "system": "swiss",
            "rounds": 5,
            "points": {"win": 2, "draw": 1, "loss": 0, "bye": 2,
                       "forfeit_win": 2, "forfeit_loss": 0, "absent": 0},
            "tiebreaks": ["direct_encounter", "buchholz", "sonneborn_berger", "wins"],
            "forbidden": [[1, 3]]
        },
        "players": [
            {"id": 1, "name": "Reyes, Ana", "rating": 1710, "club": "QC", "federation_id": "GGF-0012"},
            {"id": 2, "name": "Cruz, Ben", "rating": 1650, "withdrawn": true},
            {"id": 3, "name": "Lim, Cy", "rating": 1500},
            {"id": 4, "name": "Sy, Di"}
        ],
        "rounds": [
            {"games": [{"table": 1, "white": 1, "black": 2, "result": "white"}],
             "byes": [3], "absent": [4]}
        ],
        "penalties": [{"player": 3, "points": 1, "reason": "unreasonable delay, round 2"}]
    })
}

/// The error for the base file changed by `edit`.
fn refused(edit: impl FnOnce(&mut Value)) -> String {
    let mut v = base();
    edit(&mut v);
    match Tournament::from_json(&v.to_string()) {
        Ok(_) => panic!("accepted: {v}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_base_file_is_valid() {
    let t = Tournament::from_json(&base().to_string()).expect("valid");
    assert_eq!(t.name(), "GGF Open 2026");
    assert_eq!(t.players().len(), 4);
    assert_eq!(t.rounds().len(), 1);
    assert!(t.is_forbidden(PlayerId(3), PlayerId(1)));
}

#[test]
fn syntax_and_shape_faults() {
    let e = Tournament::from_json("{\"format\": ").expect_err("broken");
    assert!(matches!(e.fault, FileFault::Json(_)));
    assert!(e.to_string().starts_with("not valid JSON: "));
    let e = Tournament::from_json("[]").expect_err("not an object");
    assert_eq!(e.to_string(), "must be a JSON object (the tournament)");
    assert_eq!(
        refused(|v| v["rounds"] = json!({})),
        "rounds: must be an array"
    );
    assert_eq!(
        refused(|v| v["rounds"][0] = json!(3)),
        "rounds[0]: must be an object"
    );
}

#[test]
fn format_and_settings_faults() {
    assert_eq!(
        refused(|v| {
            v.as_object_mut().map(|o| o.remove("format"));
        }),
        "format: is missing"
    );
    assert_eq!(
        refused(|v| v["format"] = json!("ggdesk-tournament/2")),
        "format: unknown format \"ggdesk-tournament/2\" (expected \"ggdesk-tournament/1\")"
    );
    assert_eq!(
        refused(|v| {
            v.as_object_mut().map(|o| o.remove("settings"));
        }),
        "settings: is missing"
    );
    assert_eq!(
        refused(|v| v["settings"]["system"] = Value::Null),
        "settings.system: is missing"
    );
    assert_eq!(
        refused(|v| v["settings"]["system"] = json!("dutch")),
        "settings.system: unknown system \"dutch\" (expected \"swiss\" or \"round_robin\")"
    );
    assert_eq!(
        refused(|v| v["settings"]["system"] = json!(1)),
        "settings.system: must be a string"
    );
    assert_eq!(
        refused(|v| {
            v["settings"].as_object_mut().map(|o| o.remove("rounds"));
        }),
        "settings.rounds: is missing"
    );
    assert_eq!(
        refused(|v| v["settings"]["rounds"] = json!(0)),
        "settings.rounds: must be a positive integer"
    );
    assert_eq!(
        refused(|v| v["settings"]["tiebreaks"][1] = json!("koya")),
        "settings.tiebreaks[1]: unknown tie-break \"koya\" (expected direct_encounter, buchholz, buchholz_cut1, median_buchholz, sonneborn_berger, progressive, wins or fewest_forfeit_wins)"
    );
    assert_eq!(
        refused(|v| v["settings"]["tiebreaks"] = json!(["wins", "wins"])),
        "settings.tiebreaks[1]: a tie-break may be listed only once: wins"
    );
    assert_eq!(
        refused(|v| v["settings"]["tiebreaks"] = json!("wins")),
        "settings.tiebreaks: must be an array"
    );
}

#[test]
fn points_faults() {
    let not_points = "settings.points.win: must be a multiple of 0.5 between 0 and 1000000";
    assert_eq!(
        refused(|v| v["settings"]["points"]["win"] = json!(-1)),
        not_points
    );
    assert_eq!(
        refused(|v| v["settings"]["points"]["win"] = json!(0.3)),
        not_points
    );
    assert_eq!(
        refused(|v| v["settings"]["points"]["win"] = json!(2_000_000)),
        not_points
    );
    assert_eq!(
        refused(|v| v["settings"]["points"]["win"] = json!("2")),
        "settings.points.win: must be a number"
    );
    assert_eq!(
        refused(|v| v["settings"]["points"]["victory"] = json!(3)),
        "settings.points.victory: unknown outcome \"victory\" (expected win, draw, loss, bye, forfeit_win, forfeit_loss or absent)"
    );
    assert_eq!(
        refused(|v| v["settings"]["points"] = json!([2])),
        "settings.points: must be an object"
    );
}

#[test]
fn player_faults() {
    assert_eq!(
        refused(|v| {
            v.as_object_mut().map(|o| o.remove("players"));
        }),
        "players: is missing"
    );
    let not_id = "players[0].id: must be a positive integer player id";
    assert_eq!(refused(|v| v["players"][0]["id"] = json!(0)), not_id);
    assert_eq!(refused(|v| v["players"][0]["id"] = json!(-3)), not_id);
    assert_eq!(refused(|v| v["players"][0]["id"] = json!("1")), not_id);
    assert_eq!(refused(|v| v["players"][0]["id"] = json!(1.5)), not_id);
    assert_eq!(
        refused(|v| v["players"][1]["id"] = json!(1)),
        "players[1]: duplicate player id 1"
    );
    assert_eq!(
        refused(|v| {
            v["players"][0].as_object_mut().map(|o| o.remove("name"));
        }),
        "players[0].name: is missing"
    );
    assert_eq!(
        refused(|v| v["players"][0]["rating"] = json!(1500.5)),
        "players[0].rating: must be an integer"
    );
    assert_eq!(
        refused(|v| v["players"][0]["withdrawn"] = json!("yes")),
        "players[0].withdrawn: must be true or false"
    );
    assert_eq!(
        refused(|v| v["players"][0]["club"] = json!(5)),
        "players[0].club: must be a string"
    );
    assert_eq!(
        refused(|v| v["players"][2] = json!([])),
        "players[2]: must be an object"
    );
}

#[test]
fn forbidden_pair_faults() {
    assert_eq!(
        refused(|v| v["settings"]["forbidden"] = json!([[1, 99]])),
        "settings.forbidden[0]: unknown player id 99"
    );
    assert_eq!(
        refused(|v| v["settings"]["forbidden"] = json!([[2, 2]])),
        "settings.forbidden[0]: player 2 cannot be paired with themself"
    );
    assert_eq!(
        refused(|v| v["settings"]["forbidden"] = json!([[1, 2, 3]])),
        "settings.forbidden[0]: must be a pair of two player ids"
    );
    assert_eq!(
        refused(|v| v["settings"]["forbidden"] = json!([[1, "x"]])),
        "settings.forbidden[0][1]: must be a positive integer player id"
    );
}

#[test]
fn round_faults() {
    assert_eq!(
        refused(|v| v["rounds"][0]["games"][0]["black"] = json!(17)),
        "rounds[0].games[0]: unknown player id 17"
    );
    assert_eq!(
        refused(|v| v["rounds"][0]["games"][0]["black"] = json!(1)),
        "rounds[0].games[0]: player 1 cannot be paired with themself"
    );
    assert_eq!(
        refused(|v| v["rounds"][0]["byes"] = json!([1])),
        "rounds[0].byes[0]: player 1 appears twice in the round"
    );
    assert_eq!(
        refused(|v| v["rounds"][0]["absent"] = json!([4, 4])),
        "rounds[0].absent[1]: player 4 appears twice in the round"
    );
    assert_eq!(
        refused(|v| {
            if let Some(games) = v["rounds"][0]["games"].as_array_mut() {
                games.push(json!({"white": 3, "black": 2, "result": "draw"}));
            }
        }),
        "rounds[0].games[1]: player 2 appears twice in the round"
    );
    assert_eq!(
        refused(|v| v["rounds"][0]["games"][0]["result"] = json!("win")),
        "rounds[0].games[0].result: unknown result \"win\" (expected white, black, draw, white_forfeit, black_forfeit, double_forfeit or pending)"
    );
    assert_eq!(
        refused(|v| {
            v["rounds"][0]["games"][0]
                .as_object_mut()
                .map(|o| o.remove("result"));
        }),
        "rounds[0].games[0].result: is missing"
    );
    assert_eq!(
        refused(|v| {
            v["rounds"][0]["games"][0]
                .as_object_mut()
                .map(|o| o.remove("white"));
        }),
        "rounds[0].games[0].white: is missing"
    );
    assert_eq!(
        refused(|v| v["rounds"][0]["games"][0]["table"] = json!(0)),
        "rounds[0].games[0].table: must be a positive integer"
    );
    assert_eq!(
        refused(|v| {
            v["rounds"][0]["byes"] = json!([3, 4]);
            v["rounds"][0]["absent"] = json!([]);
        }),
        "rounds[0]: a Swiss round has at most one bye, this one has 2"
    );
    assert_eq!(
        refused(|v| v["rounds"][0]["byes"] = json!([42])),
        "rounds[0].byes[0]: unknown player id 42"
    );
    assert_eq!(
        refused(|v| v["rounds"][0]["absent"] = json!(4)),
        "rounds[0].absent: must be an array"
    );
    assert_eq!(
        refused(|v| {
            v["rounds"][0].as_object_mut().map(|o| o.remove("games"));
        }),
        "rounds[0].games: is missing"
    );
}

#[test]
fn penalty_faults() {
    assert_eq!(
        refused(|v| v["penalties"][0]["player"] = json!(8)),
        "penalties[0].player: unknown player id 8"
    );
    assert_eq!(
        refused(|v| v["penalties"][0]["points"] = json!(-1)),
        "penalties[0].points: must be a multiple of 0.5 between 0 and 1000000"
    );
    assert_eq!(
        refused(|v| {
            v["penalties"][0]
                .as_object_mut()
                .map(|o| o.remove("points"));
        }),
        "penalties[0].points: is missing"
    );
    assert_eq!(
        refused(|v| v["penalties"] = json!({})),
        "penalties: must be an array"
    );
}

#[test]
fn a_round_robin_may_have_two_byes_in_a_round() {
    let mut v = base();
    v["settings"]["system"] = json!("round_robin");
    v["rounds"][0]["byes"] = json!([3, 4]);
    v["rounds"][0]["absent"] = json!([]);
    assert!(Tournament::from_json(&v.to_string()).is_ok());
}

#[test]
fn defaults_apply_when_keys_are_left_out() {
    let t = Tournament::from_json(
        r#"{"format": "ggdesk-tournament/1",
            "settings": {"system": "round_robin", "points": {"win": 3}, "forbidden": null},
            "players": [{"id": 7, "name": "x"}, {"id": 8, "name": "y", "rating": null}]}"#,
    )
    .expect("valid");
    let s = t.settings();
    assert_eq!(s.system, System::RoundRobin);
    assert_eq!(s.rounds, None);
    assert_eq!(t.planned_rounds(), Some(1));
    assert_eq!(
        s.points,
        PointsScale {
            win: Score::from_points(3),
            ..PointsScale::default()
        }
    );
    assert_eq!(s.tiebreaks, TieBreak::default_order());
    assert_eq!(t.player(PlayerId(8)).map(|p| p.rating), Some(0));
    assert_eq!(t.name(), "");
    assert!(t.rounds().is_empty() && t.penalties().is_empty());
}

#[test]
fn unknown_player_keys_are_kept_and_the_file_round_trips() {
    let mut v = base();
    v["players"][0]["title"] = json!("GM");
    v["players"][0]["nested"] = json!({"a": [1, 2]});
    v["settings"]["points"]["draw"] = json!(0.5);
    let t = Tournament::from_json(&v.to_string()).expect("valid");
    let p = t.player(PlayerId(1)).expect("known");
    assert_eq!(p.extra.get("title"), Some(&json!("GM")));
    assert_eq!(p.club.as_deref(), Some("QC"));
    assert_eq!(p.federation_id.as_deref(), Some("GGF-0012"));
    let written = t.to_json();
    let back = Tournament::from_json(&written).expect("reads back");
    assert_eq!(back, t);
    let w: Value = serde_json::from_str(&written).expect("JSON");
    assert_eq!(w["players"][0]["title"], json!("GM"));
    assert_eq!(w["settings"]["points"]["draw"], json!(0.5));
    assert_eq!(w["rounds"][0]["games"][0]["result"], json!("white"));
    assert_eq!(
        w["penalties"][0]["reason"],
        json!("unreasonable delay, round 2")
    );
}

#[test]
fn the_model_refuses_what_the_file_refuses() {
    let mut t = Tournament::from_json(&base().to_string()).expect("valid");
    assert_eq!(
        t.add_player(ggdesk_core::tournament::Player::new(
            PlayerId(3),
            "again",
            0
        )),
        Err(TournamentError::DuplicatePlayer(PlayerId(3)))
    );
    assert_eq!(
        t.add_player(ggdesk_core::tournament::Player::new(PlayerId(0), "zero", 0)),
        Err(TournamentError::ZeroId)
    );
    assert_eq!(
        t.set_result(2, 0, GameResult::Draw),
        Err(TournamentError::NoSuchRound(2))
    );
    assert_eq!(
        t.set_result(1, 3, GameResult::Draw),
        Err(TournamentError::NoSuchGame { round: 1, game: 3 })
    );
    assert_eq!(
        t.set_absent(1, PlayerId(1)),
        Err(TournamentError::AlreadyInRound {
            player: PlayerId(1),
            round: 1
        })
    );
    let before = t.clone();
    let bad = ggdesk_core::tournament::Round {
        games: vec![ggdesk_core::tournament::Game::pending(
            None,
            PlayerId(1),
            PlayerId(9),
        )],
        ..Default::default()
    };
    let e = t.add_round(bad).expect_err("unknown player");
    assert_eq!(e.to_string(), "round 2.games[0]: unknown player id 9");
    assert_eq!(
        t, before,
        "a refused change leaves the tournament as it was"
    );
}
