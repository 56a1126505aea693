//! Team events in the store (issue 33, migration 10), on both engines: a team file
//! (`spec/teams.md`) imported and exported comes back as the core's writing of the same
//! event, and the exported file answers `pair`, `--teams` and `--boards` as the shared
//! examples expect; every board game is a pairing at the spec's table; `copy` carries a team
//! event; a bad file is refused naming the match and the board, and a file refused inside the
//! transaction leaves nothing behind; the desk, the public pages and the Ratings page say
//! what a team event is to them rather than fail on it.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/json.rs"]
mod json_support;
#[path = "support/pg.rs"]
mod pg;

use engines::Engine;
use ggdesk::store::{Actor, PlayerInput, Store, StoreError};
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::teams::{TeamEvent, board_prizes_json};
use ggdesk_core::tournament::{GameResult, RoundNo, TableNo};
use json_support::{board_prize_rows, missing_from, norm, shared};
use serde_json::{Value, json};

crate::on_both_engines!(
    every_example_round_trips_as_the_core_writes_it,
    every_optional_key_and_a_pending_board_round_trip,
    a_final_played_off_round_trips,
    the_exported_examples_answer_as_expected,
    every_board_game_is_a_pairing_at_its_table,
    copy_carries_a_team_event,
    a_bad_line_up_is_refused_naming_the_match_and_board_and_writes_nothing,
    a_file_refused_inside_the_transaction_leaves_nothing,
    the_desk_the_pages_and_the_ratings_say_what_a_team_event_is_to_them,
);

const EXAMPLES: [&str; 3] = [
    "team-round-robin",
    "team-swiss-with-bye",
    "board-groups-then-final",
];

fn director() -> Actor {
    Actor::director()
}

fn every_example_round_trips_as_the_core_writes_it(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    for name in EXAMPLES {
        let file = shared("teams", &format!("{name}.json"));
        let id = s.import_tournament(&file, &director()).expect(name);
        let out = s.export_tournament(id).expect("export");
        // Everything the file says comes back unchanged, ...
        if let Some(at) = missing_from(&norm(&file), &norm(&out), "") {
            panic!("{name}: {at}");
        }
        // ... the export is the core's own writing of the file's event with the games'
        // rules the desk adds, and it reads back to the same event.
        let event = TeamEvent::from_value(&file).expect("the example reads");
        let mut canonical = event.to_value();
        canonical["settings"]["rules"] = RuleSettings::default().to_value();
        assert_eq!(out, canonical, "{name}");
        assert_eq!(
            TeamEvent::from_value(&out).expect("the export reads"),
            event,
            "{name}"
        );
        // And again from the database's own export: the same file, literally.
        let again = s.import_tournament(&out, &director()).expect("re-import");
        assert_ne!(again, id);
        assert_eq!(s.export_tournament(again).expect("export 2"), out, "{name}");
    }
}

/// What the examples leave out: half points, the bye and primary score set, a match without
/// a table, a board still pending, a team without a captain, a player's club, federation id
/// and own keys, keys of the file the store does not use.
fn every_optional_key_and_a_pending_board_round_trip(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let file = json!({
        "format": "ggdesk-tournament/2", "name": "Club night", "date": "2025-03-01",
        "organiser": {"name": "GG Club"},
        "settings": {"points": {"win": 1, "draw": 0.5, "loss": 0, "bye": 1,
                                "forfeit_win": 1, "forfeit_loss": 0, "absent": 0}},
        "team": {"boards": 2, "match_points": {"win": 3, "draw": 1, "loss": 0},
                 "bye": {"match_points": 2, "game_points": 1.5}, "primary": "game_points"},
        "players": [
            {"id": 1, "name": "A", "rating": 1500, "club": "North", "federation_id": "PH-7",
             "title": "GM"},
            {"id": 2, "name": "B", "rating": 1400}, {"id": 3, "name": "C", "rating": 1300},
            {"id": 4, "name": "D", "rating": 1200}, {"id": 5, "name": "E", "rating": 1100},
            {"id": 6, "name": "F", "rating": 1000}, {"id": 7, "name": "G", "rating": 900}],
        "teams": [{"id": 1, "name": "One", "players": [1, 2, 7], "captain": 7},
                  {"id": 2, "name": "Two", "players": [3, 4], "captain": 3},
                  {"id": 3, "name": "Three", "players": [5, 6]}],
        "penalties": [],
        "stages": [{"name": "", "system": "round_robin", "team_tiebreaks": ["wins"],
                    "rounds": [
                        {"matches": [{"home": 1, "away": 2, "boards": [
                            {"white": 1, "black": 3, "result": "draw"},
                            {"white": 4, "black": 7, "result": "pending"}]}],
                         "byes": [3]}]}]
    });
    let id = s.import_tournament(&file, &director()).expect("imports");
    let out = s.export_tournament(id).expect("exports");
    if let Some(at) = missing_from(&norm(&file), &norm(&out), "") {
        panic!("{at}");
    }
    let event = TeamEvent::from_value(&file).expect("the file reads");
    assert_eq!(
        TeamEvent::from_value(&out).expect("the export reads"),
        event
    );
    // The round is in play: its pending board is a game at the desk's table 2.
    let round = s
        .round_in_play(id, TableNo(2))
        .expect("reads")
        .expect("a round in play");
    assert_eq!(round.state, ggdesk::store::RoundState::Published);
    assert_eq!(round.result_at_table, Some(GameResult::Pending));
}

/// A final level on game points and its playoff games (kept as one round of kind playoff):
/// the export places the teams as the file does.
fn a_final_played_off_round_trips(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let file = json!({
        "format": "ggdesk-tournament/2", "name": "Final only", "team": {"boards": 1},
        "players": [{"id": 1, "name": "A", "rating": 1500}, {"id": 2, "name": "B", "rating": 1400}],
        "teams": [{"id": 1, "name": "One", "players": [1]}, {"id": 2, "name": "Two", "players": [2]}],
        "stages": [{"name": "Final", "system": "scheveningen",
                    "rounds": [{"games": [{"table": 1, "white": 1, "black": 2, "result": "draw"}]}],
                    "playoffs": [{"white": 1, "black": 2, "result": "draw"},
                                 {"white": 2, "black": 1, "result": "white"}]}]
    });
    let id = s.import_tournament(&file, &director()).expect("imports");
    let out = s.export_tournament(id).expect("exports");
    if let Some(at) = missing_from(&norm(&file), &norm(&out), "") {
        panic!("{at}");
    }
    let event = TeamEvent::from_value(&file).expect("the file reads");
    let exported = TeamEvent::from_value(&out).expect("the export reads");
    assert_eq!(exported, event);
    let places: Vec<u32> = exported
        .final_placement()
        .expect("the event is over")
        .iter()
        .map(|p| p.team.0)
        .collect();
    assert_eq!(places, [2, 1], "the playoff's winner first");
}

fn the_exported_examples_answer_as_expected(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    for name in EXAMPLES {
        let expected = shared("teams", &format!("{name}.expected.json"));
        let id = s
            .import_tournament(&shared("teams", &format!("{name}.json")), &director())
            .expect(name);
        let out = s.export_tournament(id).expect("export");
        let event = TeamEvent::from_value(&out).expect("the export reads");
        let pair = match event.next_step() {
            Ok(step) => step.to_json(),
            Err(_) => json!({"exit": 2}),
        };
        assert_eq!(norm(&pair), norm(&expected["pair"]), "{name}: pair");
        let columns: Vec<&str> = expected["standings_teams_columns"]
            .as_array()
            .expect("columns")
            .iter()
            .map(|c| c.as_str().expect("a column"))
            .collect();
        let rows: Vec<Value> = event
            .team_standings(None)
            .expect("team standings")
            .to_json()
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| Value::Array(columns.iter().map(|c| r[*c].clone()).collect()))
            .collect();
        assert_eq!(
            norm(&Value::Array(rows)),
            norm(&expected["standings_teams"]),
            "{name}: --teams"
        );
        let boards = board_prize_rows(&board_prizes_json(&event.board_prizes()));
        assert_eq!(norm(&boards), norm(&expected["boards"]), "{name}: --boards");
    }
}

fn every_board_game_is_a_pairing_at_its_table(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let id = s
        .import_tournament(&shared("teams", "team-round-robin.json"), &director())
        .expect("imports");
    // Round 3, the match at table 2 (teams of 4 boards): its boards are tables 5 to 8.
    // Board 1 (5 against 9) black won; board 4 (13 against nobody) is no game at all.
    let at = |table: u32| {
        s.round_in_play(id, TableNo(table))
            .expect("reads")
            .expect("a round in play")
    };
    let round = at(5);
    assert_eq!(round.number, RoundNo(3));
    assert_eq!(round.result_at_table, Some(GameResult::BlackWins));
    assert_eq!(at(7).result_at_table, Some(GameResult::WhiteWins));
    assert_eq!(at(8).result_at_table, None);
    assert_eq!(at(9).result_at_table, None);
}

fn copy_carries_a_team_event(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let mut ids = Vec::new();
    for name in EXAMPLES {
        ids.push(
            s.import_tournament(&shared("teams", &format!("{name}.json")), &director())
                .expect(name),
        );
    }
    let mut dst = Store::open_in_memory().expect("an empty SQLite store");
    s.copy_into(&mut dst).expect("copies");
    for id in ids {
        assert_eq!(
            dst.export_tournament(id).expect("the copy exports"),
            s.export_tournament(id).expect("the source exports"),
            "tournament {id}"
        );
    }
}

fn a_bad_line_up_is_refused_naming_the_match_and_board_and_writes_nothing(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let mut file = shared("teams", "team-round-robin.json");
    // Team 1 (home) fields 3 on board 2 and 2 on board 3: out of roster order.
    let m = &mut file["stages"][0]["rounds"][1]["matches"][0];
    m["boards"][1] = json!({"white": 11, "black": 3, "result": "black"});
    m["boards"][2] = json!({"white": 2, "black": 12, "result": "white"});
    match s.import_tournament(&file, &director()) {
        Err(StoreError::Rejected(m)) => assert_eq!(
            m,
            "stages[0].rounds[1].matches[0].boards[2]: player 2 plays board 3 but comes after \
             player 3 (board 2) in the roster of team 1: boards follow the roster order"
        ),
        other => panic!("must be refused, got {other:?}"),
    }
    // A board left empty with a result that does not say so.
    let mut file = shared("teams", "team-swiss-with-bye.json");
    file["stages"][0]["rounds"][2]["matches"][1]["boards"][2]["result"] = json!("white");
    match s.import_tournament(&file, &director()) {
        Err(StoreError::Rejected(m)) => assert_eq!(
            m,
            "stages[0].rounds[2].matches[1].boards[2]: result white with black empty: \
             expected white_forfeit"
        ),
        other => panic!("must be refused, got {other:?}"),
    }
    assert!(s.tournaments().expect("list").is_empty());
    assert!(s.players().expect("registry").is_empty());
}

fn a_file_refused_inside_the_transaction_leaves_nothing(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let banned = s
        .add_player(
            &PlayerInput {
                name: "Reyes, Quin".into(),
                federation_id: "PH-1".into(),
                ..Default::default()
            },
            &director(),
        )
        .expect("adds");
    s.ban_player(banned, "collusion", None, &director())
        .expect("bans");
    let mut file = shared("teams", "team-round-robin.json");
    file["players"][0]["federation_id"] = json!("PH-1");
    match s.import_tournament(&file, &director()) {
        Err(e @ StoreError::Refused(_)) => assert_eq!(
            e.to_string(),
            "players[0]: Reyes, Quin 1 (federation id PH-1) is banned in the registry \
             (Reyes, Quin): a banned player cannot be registered"
        ),
        other => panic!("must be refused, got {other:?}"),
    }
    assert!(s.tournaments().expect("list").is_empty());
    assert_eq!(
        s.players().expect("registry").len(),
        1,
        "only the banned one"
    );
}

fn the_desk_the_pages_and_the_ratings_say_what_a_team_event_is_to_them(engine: Engine) {
    let dir = tempfile::tempdir().expect("temp dir");
    let address = engines::fresh_address(engine, dir.path());
    let mut s = Store::connect(&address).expect("the director's store");
    let id = s
        .import_tournament(
            &shared("teams", "board-groups-then-final.json"),
            &director(),
        )
        .expect("imports");
    match s.event(id) {
        Err(StoreError::Rejected(m)) => assert_eq!(
            m,
            format!(
                "tournament {id} is a team event: the desk runs it on its team pages (Teams \
                 F12, Rounds F4, Standings F6), not as an event of players (`ggdesk export \
                 tournament {id} FILE` writes its file, which `ggdesk pair` and `ggdesk \
                 standings --teams` read)"
            )
        ),
        other => panic!("the desk must say it does not run it, got {other:?}"),
    }
    let listed = s.tournaments().expect("the Tournaments page lists it");
    assert_eq!(
        listed
            .iter()
            .map(|t| (t.id, t.name.as_str(), t.team))
            .collect::<Vec<_>>(),
        [(id, "Team event 2", true)]
    );
    // The public pages (on a server, the public role), which do not show team events yet,
    // find none there.
    assert_eq!(s.public_event(id).expect("reads"), None);
    let pages = Store::connect_read_only(&address).expect("the public pages' store");
    assert_eq!(pages.public_event(id).expect("reads"), None);
    assert!(
        pages
            .tournaments()
            .expect("the index")
            .iter()
            .all(|t| t.team)
    );
    // The Ratings page lists it as any event: its final has one round of three played.
    let rating = s.rating_events().expect("the Ratings page");
    assert_eq!(
        rating
            .iter()
            .map(|e| (e.id, e.name.as_str(), e.rated, e.not_ready.as_deref()))
            .collect::<Vec<_>>(),
        [(
            id,
            "Team event 2",
            None,
            Some("stage 2 is still being played")
        )]
    );
}
