//! The rated games of an event file, `/1` and `/2`: which games count, who is not rated,
//! and the refusals the ratings need, each naming its place.

use ggdesk_core::rating::{EventFault, Played, event_file};
use ggdesk_core::tournament::PlayerId;
use serde_json::json;

fn one(date: Option<&str>, rounds: serde_json::Value) -> String {
    let mut v = json!({
        "format": "ggdesk-tournament/1",
        "name": "Club Open",
        "settings": {"system": "swiss", "rounds": 3},
        "players": [
            {"id": 1, "name": "Reyes, Ana", "federation_id": "GGF-1"},
            {"id": 2, "name": "Cruz, Ben", "federation_id": "GGF-2"},
            {"id": 3, "name": "Lim, Cy", "federation_id": "GGF-3"},
            {"id": 4, "name": "Tan, Dee"},
            {"id": 5, "name": "Uy, Eve", "federation_id": ""}
        ],
        "rounds": rounds
    });
    if let Some(d) = date {
        v["date"] = json!(d);
    }
    v.to_string()
}

#[test]
fn a_version_1_file_counts_only_games_over_the_board_between_rated_players() {
    let text = one(
        Some("2026-04-12"),
        json!([
            {"games": [{"white": 1, "black": 2, "result": "white"},
                       {"white": 3, "black": 4, "result": "black"}], "byes": [5]},
            {"games": [{"white": 2, "black": 3, "result": "draw"},
                       {"white": 1, "black": 5, "result": "white_forfeit"}], "absent": [4]},
            {"games": [{"white": 3, "black": 1, "result": "double_forfeit"},
                       {"white": 2, "black": 5, "result": "pending"}]}
        ]),
    );
    let f = event_file(&text).expect("a valid file");
    assert_eq!(f.event.name, "Club Open");
    assert_eq!(f.event.date.to_string(), "2026-04-12");
    let games: Vec<(&str, &str, Played)> = f
        .event
        .games
        .iter()
        .map(|g| (g.white.as_str(), g.black.as_str(), g.result))
        .collect();
    assert_eq!(
        games,
        [
            ("GGF-1", "GGF-2", Played::WhiteWins),
            ("GGF-2", "GGF-3", Played::Draw)
        ]
    );
    assert_eq!(f.event.names["GGF-1"], "Reyes, Ana");
    let unrated: Vec<(PlayerId, &str)> =
        f.unrated.iter().map(|u| (u.id, u.name.as_str())).collect();
    assert_eq!(
        unrated,
        [(PlayerId(4), "Tan, Dee"), (PlayerId(5), "Uy, Eve")]
    );
}

#[test]
fn a_version_2_file_counts_every_stage_and_the_playoffs() {
    let text = json!({
        "format": "ggdesk-tournament/2",
        "name": "August Championship",
        "date": "2026-08-30",
        "settings": {},
        "players": [
            {"id": 1, "name": "A", "federation_id": "F1"},
            {"id": 2, "name": "B", "federation_id": "F2"},
            {"id": 3, "name": "C", "federation_id": "F3"},
            {"id": 4, "name": "D", "federation_id": "F4"}
        ],
        "stages": [
            {"name": "Groups", "system": "round_robin", "groups": 2, "advance": 1,
             "rounds": [{"games": [{"group": "A", "white": 1, "black": 2, "result": "white"},
                                   {"group": "B", "white": 3, "black": 4, "result": "black_forfeit"}]}],
             "playoffs": [{"white": 2, "black": 1, "result": "draw"},
                          {"white": 1, "black": 2, "result": "black"}]},
            {"name": "Final", "system": "knockout", "match": {"best_of": 3},
             "rounds": [{"games": [{"match": "1.1", "white": 1, "black": 4, "result": "draw"}]},
                        {"games": [{"match": "1.1", "white": 4, "black": 1, "result": "white"}]}]}
        ]
    })
    .to_string();
    let f = event_file(&text).expect("a valid /2 file");
    let games: Vec<(&str, &str, Played)> = f
        .event
        .games
        .iter()
        .map(|g| (g.white.as_str(), g.black.as_str(), g.result))
        .collect();
    assert_eq!(
        games,
        [
            ("F1", "F2", Played::WhiteWins),
            ("F2", "F1", Played::Draw),
            ("F1", "F2", Played::BlackWins),
            ("F1", "F4", Played::Draw),
            ("F4", "F1", Played::WhiteWins),
        ]
    );
    assert!(f.unrated.is_empty());
}

#[test]
fn refusals_name_the_place_and_the_fault() {
    let ok_rounds = json!([{"games": [{"white": 1, "black": 2, "result": "white"}]}]);
    let e = event_file(&one(None, ok_rounds.clone())).expect_err("no date");
    assert_eq!(e.at, "date");
    assert!(matches!(e.fault, EventFault::NoDate));
    assert_eq!(
        e.to_string(),
        "date: is missing: an event without a date cannot be rated"
    );

    for bad in ["2026-4-12", "12/04/2026", "2026-02-30"] {
        let e = event_file(&one(Some(bad), ok_rounds.clone())).expect_err(bad);
        assert_eq!(e.at, "date", "{bad}");
        assert!(matches!(e.fault, EventFault::Date(_)), "{bad}");
        assert!(e.to_string().contains(bad), "{e}");
    }

    // The /1 reader's own checks hold.
    let e = event_file(&one(
        Some("2026-04-12"),
        json!([{"games": [{"white": 1, "black": 9, "result": "white"}]}]),
    ))
    .expect_err("unknown player");
    assert!(matches!(e.fault, EventFault::Tournament(_)));
    assert_eq!(e.to_string(), "rounds[0].games[0]: unknown player id 9");

    let dup = json!({
        "format": "ggdesk-tournament/1", "date": "2026-01-01",
        "settings": {"system": "swiss", "rounds": 1},
        "players": [{"id": 1, "name": "A", "federation_id": "X"},
                    {"id": 2, "name": "B", "federation_id": "X"}]
    })
    .to_string();
    let e = event_file(&dup).expect_err("duplicate federation id");
    assert_eq!(
        e.to_string(),
        "players[1].federation_id: federation id \"X\" is also that of player 1 in this event"
    );
    assert!(matches!(e.fault, EventFault::DuplicateFederationId { .. }));

    let e = event_file("{\"format\": \"ggdesk-tournament/3\"}").expect_err("format");
    assert!(matches!(e.fault, EventFault::UnknownFormat(_)));
    let e = event_file("[1, 2").expect_err("json");
    assert!(matches!(e.fault, EventFault::Json(_)));
}

#[test]
fn version_2_refusals_name_the_place() {
    let file = |stages: serde_json::Value, players: serde_json::Value| {
        json!({"format": "ggdesk-tournament/2", "date": "2026-08-30",
               "players": players, "stages": stages})
        .to_string()
    };
    let players = json!([{"id": 1, "name": "A", "federation_id": "F1"},
                         {"id": 2, "name": "B", "federation_id": "F2"}]);
    let cases = [
        (
            file(
                json!([{"rounds": [{"games": [{"white": 1, "black": 3, "result": "white"}]}]}]),
                players.clone(),
            ),
            "stages[0].rounds[0].games[0].black: unknown player id 3",
        ),
        (
            file(
                json!([{"rounds": [{"games": [{"white": 1, "black": 2, "result": "won"}]}]}]),
                players.clone(),
            ),
            "stages[0].rounds[0].games[0].result: unknown result \"won\" (expected white, black, draw, white_forfeit, black_forfeit, double_forfeit or pending)",
        ),
        (
            file(
                json!([{"rounds": [], "playoffs": [{"white": 2, "black": 2, "result": "draw"}]}]),
                players.clone(),
            ),
            "stages[0].playoffs[0]: player 2 cannot play themself",
        ),
        (
            file(
                json!([{"rounds": [{"games": [{"white": 1, "black": 2, "result": "draw"},
                                                {"white": 2, "black": 1, "result": "draw"}]}]}]),
                players.clone(),
            ),
            "stages[0].rounds[0].games[1]: player 2 appears twice in the round",
        ),
        (
            file(json!([{"name": "no rounds"}]), players.clone()),
            "stages[0].rounds: is missing",
        ),
        (
            file(
                json!([]),
                json!([{"id": 1, "name": "A"}, {"id": 1, "name": "B"}]),
            ),
            "players[1].id: duplicate player id 1",
        ),
        (
            file(json!([]), json!([{"id": 0, "name": "A"}])),
            "players[0].id: must be a positive integer player id",
        ),
        (
            json!({"format": "ggdesk-tournament/2", "date": "2026-08-30", "players": []})
                .to_string(),
            "stages: is missing",
        ),
    ];
    for (text, message) in cases {
        let e = event_file(&text).expect_err(message);
        assert_eq!(e.to_string(), message);
    }
}
