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

/// A `/2` event of four players (seeded by rating: groups A = 1, 4 and B = 2, 3), a
/// group stage of one round whose group A is drawn and played off (1 wins it) and whose
/// group B is won by 3 by forfeit, then a best-of-3 final between 1 and 3.
fn staged() -> serde_json::Value {
    json!({
        "format": "ggdesk-tournament/2",
        "name": "August Championship",
        "date": "2026-08-30",
        "settings": {},
        "players": [
            {"id": 1, "name": "A", "rating": 2000, "federation_id": "F1"},
            {"id": 2, "name": "B", "rating": 1900, "federation_id": "F2"},
            {"id": 3, "name": "C", "rating": 1800, "federation_id": "F3"},
            {"id": 4, "name": "D", "rating": 1700, "federation_id": "F4"}
        ],
        "stages": [
            {"name": "Groups", "system": "round_robin", "groups": 2, "advance": 1,
             "rounds": [{"games": [{"group": "A", "white": 1, "black": 4, "result": "draw"},
                                   {"group": "B", "white": 2, "black": 3, "result": "black_forfeit"}]}],
             "playoffs": [{"group": "A", "white": 1, "black": 4, "result": "draw"},
                          {"group": "A", "white": 4, "black": 1, "result": "black"}]},
            {"name": "Final", "system": "knockout", "match": {"best_of": 3},
             "rounds": [{"games": [{"match": "1.1", "white": 1, "black": 3, "result": "draw"}]},
                        {"games": [{"match": "1.1", "white": 3, "black": 1, "result": "white"}]},
                        {"games": [{"match": "1.1", "white": 1, "black": 3, "result": "white"}]}]}
        ]
    })
}

#[test]
fn a_version_2_file_counts_every_stage_and_the_playoffs() {
    let f = event_file(&staged().to_string()).expect("a valid /2 file");
    let games: Vec<(&str, &str, Played)> = f
        .event
        .games
        .iter()
        .map(|g| (g.white.as_str(), g.black.as_str(), g.result))
        .collect();
    assert_eq!(
        games,
        [
            ("F1", "F4", Played::Draw),
            ("F1", "F4", Played::Draw),
            ("F4", "F1", Played::BlackWins),
            ("F1", "F3", Played::Draw),
            ("F3", "F1", Played::WhiteWins),
            ("F1", "F3", Played::WhiteWins),
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
    assert!(matches!(
        e.fault,
        EventFault::Event(ggdesk_core::event::Refusal::File(_))
    ));
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

/// A change to a file, and the start of the refusal it must get.
type Case = (fn(&mut serde_json::Value), &'static str);

#[test]
fn version_2_files_are_checked_as_pair_checks_them() {
    let cases: [Case; 5] = [
        (
            |f| f["stages"][0]["rounds"][0]["games"][0]["black"] = json!(9),
            "stages[0].rounds[0].games[0]: player 9 did not qualify for stage 1",
        ),
        (
            |f| f["stages"][0]["rounds"][0]["games"][0]["result"] = json!("won"),
            "stages[0].rounds[0].games[0].result: unknown result \"won\"",
        ),
        (
            |f| f["players"][1]["id"] = json!(1),
            "players[1]: duplicate player id 1",
        ),
        // What the ratings' own reader let through: a final with a player who did not
        // qualify for it (4 lost group A's playoff).
        (
            |f| f["stages"][1]["rounds"][0]["games"][0]["black"] = json!(4),
            "stages[1].rounds[0].games[0]",
        ),
        // A game of a group between players of two groups.
        (
            |f| f["stages"][0]["rounds"][0]["games"][0]["black"] = json!(2),
            "stages[0].rounds[0].games[0]",
        ),
    ];
    for (change, message) in cases {
        let mut file = staged();
        change(&mut file);
        let e = event_file(&file.to_string()).expect_err(message);
        assert!(
            matches!(
                e.fault,
                EventFault::Event(ggdesk_core::event::Refusal::StagedFile(_))
            ),
            "{e}"
        );
        assert!(e.to_string().starts_with(message), "{message}: {e}");
    }
}
