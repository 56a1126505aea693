//! Team events on the public pages and in `/api/`, on both engines (on a server, read as the
//! database's public role through migration 12's views): the worked examples of
//! `shared/examples/teams/` imported, their team standings and board prizes in `/api/` equal
//! to the examples' expected values, the standings page's rows, a team's page with its roster
//! in board order, each round's matches with their boards, a player's games, and 404s for a
//! team the event does not have and for the team pages of an event of players. No page holds
//! a rank.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/pg.rs"]
mod pg;
mod serve_support;

use engines::Engine;
use ggdesk::serve::{ServeConfig, Server};
use ggdesk::store::{Actor, Address, Store, TournamentId};
use serde_json::{Value, json};
use serve_support::{Reply, get, ranks_in};

crate::on_both_engines!(
    team_events_show_their_standings_matches_teams_and_board_prizes,
    the_board_groups_and_the_final_show_their_games_and_standings,
);

/// The worked examples of `shared/examples/teams/`, as the repository keeps them.
const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/teams/");

fn example(name: &str) -> (Value, Value) {
    let read = |file: String| -> Value {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        serde_json::from_str(&text).expect("example JSON")
    };
    (
        read(format!("{EXAMPLES}{name}.json")),
        read(format!("{EXAMPLES}{name}.expected.json")),
    )
}

fn import(store: &mut Store, file: &Value) -> TournamentId {
    store
        .import_tournament(file, &Actor::director())
        .expect("import the example")
}

fn one_system(store: &mut Store) -> TournamentId {
    let file = json!({
        "format": "ggdesk-tournament/1",
        "name": "Plain Swiss",
        "settings": {"system": "swiss", "rounds": 1},
        "players": [{"id": 1, "name": "Uno, A", "rating": 1500}, {"id": 2, "name": "Dos, B", "rating": 1400}],
        "rounds": [{"games": [{"table": 1, "white": 1, "black": 2, "result": "white"}]}],
    });
    store
        .import_tournament(&file, &Actor::director())
        .expect("import")
}

fn serve(address: Address) -> Server {
    Server::start(&ServeConfig::new(
        address,
        "127.0.0.1:0".parse().expect("addr"),
    ))
    .expect("server starts")
}

fn html_of(r: &Reply) -> &str {
    assert_eq!(r.status, 200, "{}", r.head);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("text/html; charset=utf-8")
    );
    &r.body
}

fn json_of(r: &Reply) -> Value {
    assert_eq!(r.status, 200, "{}", r.head);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/json")
    );
    serde_json::from_str(&r.body).expect("JSON")
}

/// Text without its tags, entities of the pages' escaping undone, spaces collapsed.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The body rows of the first table after `from` in `html`, each as its cells' text.
fn rows_after(html: &str, from: &str) -> Vec<Vec<String>> {
    let at = html
        .find(from)
        .unwrap_or_else(|| panic!("no {from:?} in the page"));
    let rest = &html[at..];
    let table = &rest[..rest.find("</table>").unwrap_or(rest.len())];
    table
        .split("<tr")
        .skip(1)
        .filter(|row| row.contains("<td"))
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|c| text_of(&format!("<td{c}")))
                .collect()
        })
        .collect()
}

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

/// The API's team standings as the example's rows: one number per named column.
fn standings_as_expected(api: &Value, columns: &[Value]) -> Vec<Vec<f64>> {
    api["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            columns
                .iter()
                .map(|c| number(&row[c.as_str().expect("column name")]))
                .collect()
        })
        .collect()
}

fn numbers(rows: &Value) -> Vec<Vec<f64>> {
    rows.as_array()
        .expect("rows")
        .iter()
        .map(|r| r.as_array().expect("row").iter().map(number).collect())
        .collect()
}

/// The API's board prizes as the example's: `[board, [[id, games, points, percentage]]]`.
fn prizes_as_expected(api: &Value) -> Vec<(u64, Vec<Vec<f64>>)> {
    api.as_array()
        .expect("boards")
        .iter()
        .map(|b| {
            let players = b["players"]
                .as_array()
                .expect("players")
                .iter()
                .map(|p| {
                    ["id", "games", "points", "percentage"]
                        .iter()
                        .map(|k| number(&p[*k]))
                        .collect()
                })
                .collect();
            (b["board"].as_u64().expect("board"), players)
        })
        .collect()
}

fn expected_prizes(expected: &Value) -> Vec<(u64, Vec<Vec<f64>>)> {
    expected["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| (b[0].as_u64().expect("board"), numbers(&b[1])))
        .collect()
}

/// The rank scan, with the example's team names and the team role "captain" taken out
/// first: the examples name teams after ranks ("Cebu Colonels", "Pasig Privates") and a
/// team's captain is the player who leads it, words a page may show.
fn ranks_on(page: &str, file: &Value) -> Vec<String> {
    let mut text = page.to_lowercase();
    for team in file["teams"].as_array().expect("teams") {
        let name = team["name"].as_str().expect("team name").to_lowercase();
        text = text.replace(&name, "");
    }
    ranks_in(&text.replace("captain", ""))
}

fn team_events_show_their_standings_matches_teams_and_board_prizes(engine: Engine) {
    let dir = tempfile::tempdir().expect("dir");
    let address = engines::fresh_address(engine, dir.path());
    let mut store = Store::connect(&address).expect("store");
    let plain = one_system(&mut store);
    let (swiss, swiss_expected) = example("team-swiss-with-bye");
    let (robin, robin_expected) = example("team-round-robin");
    let swiss_id = import(&mut store, &swiss);
    let robin_id = import(&mut store, &robin);
    drop(store);
    let server = serve(address);
    let addr = server.addr();

    // The list shows the team events, which have pages now.
    let index = text_of(html_of(&get(addr, "/")));
    assert!(index.contains("Team event 0"), "{index}");
    assert!(index.contains("Team event 1"), "{index}");
    let list = json_of(&get(addr, "/api/tournaments"));
    let line = list
        .as_array()
        .expect("list")
        .iter()
        .find(|t| t["id"] == json!(swiss_id.0))
        .expect("the team Swiss is listed");
    assert_eq!(line["team_event"], json!(true));

    for (tid, file, expected) in [
        (swiss_id, &swiss, &swiss_expected),
        (robin_id, &robin, &robin_expected),
    ] {
        // The team standings: exactly the example's, column by column.
        let api = json_of(&get(addr, &format!("/api/t/{tid}/standings")));
        assert_eq!(api["stage"], expected["stage"]);
        let columns = expected["standings_teams_columns"]
            .as_array()
            .expect("columns");
        assert_eq!(
            standings_as_expected(&api, columns),
            numbers(&expected["standings_teams"]),
            "tournament {tid}"
        );
        // The board prizes: exactly the example's.
        let boards = json_of(&get(addr, &format!("/api/t/{tid}/boards")));
        assert_eq!(prizes_as_expected(&boards), expected_prizes(expected));
        // Every page of the event answers, and none holds a rank.
        for path in [
            format!("/t/{tid}"),
            format!("/t/{tid}/round/1"),
            format!("/t/{tid}/names"),
            format!("/t/{tid}/standings"),
            format!("/t/{tid}/boards"),
            format!("/t/{tid}/team/1"),
            format!("/t/{tid}/player/1"),
            format!("/api/t/{tid}"),
            format!("/api/t/{tid}/round"),
            format!("/api/t/{tid}/teams"),
            format!("/api/t/{tid}/team/1"),
        ] {
            let r = get(addr, &path);
            assert_eq!(r.status, 200, "{path}: {}", r.head);
            let ranks = ranks_on(&r.body, file);
            assert!(ranks.is_empty(), "{path}: {ranks:?}");
        }
    }

    // The standings page: rank, team, match points, game points and the tie-breaks.
    let page = get(addr, &format!("/t/{swiss_id}/standings"));
    let html = html_of(&page);
    let rows = rows_after(html, "<table class=\"teams\">");
    let cells = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(rows.len(), 9);
    assert_eq!(
        rows[0],
        cells(&["1", "Iloilo Eagles", "9", "16", "3", "29"])
    );
    assert_eq!(
        rows[1],
        cells(&["2", "Pasig Privates", "9", "14", "3", "24"])
    );
    assert_eq!(
        rows[2],
        cells(&["2", "Cebu Colonels", "9", "17", "3", "24"])
    );
    assert!(
        text_of(html).contains("Teams are ordered by match points"),
        "{}",
        text_of(html)
    );

    // A team's page: the roster in board order, the reserve after the first three boards,
    // the captain named; its place and points; its matches.
    let team = html_of(&get(addr, &format!("/t/{swiss_id}/team/1"))).to_string();
    assert_eq!(
        rows_after(&team, "<h3>Roster</h3>"),
        vec![
            cells(&["1", "Torres, Nina 1 1 (captain)", "1460"]),
            cells(&["2", "Dela Cruz, Jun 2 2", "2160"]),
            cells(&["3", "Reyes, Hans 3 3", "1260"]),
            cells(&["–", "Mercado, Kiko 4 4 (reserve)", "2140"]),
        ]
    );
    let api_team = json_of(&get(addr, &format!("/api/t/{swiss_id}/team/1")));
    assert_eq!(api_team["name"], json!("Tondo Tigers"));
    assert_eq!(
        api_team["roster"]
            .as_array()
            .expect("roster")
            .iter()
            .map(|p| (p["board"].clone(), p["no"].clone()))
            .collect::<Vec<_>>(),
        vec![
            (json!(1), json!(1)),
            (json!(2), json!(2)),
            (json!(3), json!(3)),
            (Value::Null, json!(4)),
        ]
    );
    let matches = api_team["matches"].as_array().expect("matches").len();
    let byes = api_team["byes"].as_array().expect("byes").len();
    assert_eq!(matches + byes, 4, "four rounds: a match or a bye each");
    let played = rows_after(&team, "<h3>Matches</h3>");
    assert_eq!(played.len(), 4);

    // Each round's matches: three boards each, a running score, the bye named.
    let round = json_of(&get(addr, &format!("/api/t/{swiss_id}/round/1")));
    assert_eq!(round["round"], json!(1));
    let ms = round["matches"].as_array().expect("matches");
    assert_eq!(ms.len(), 4);
    assert_eq!(round["byes"].as_array().expect("byes").len(), 1);
    for m in ms {
        assert_eq!(m["boards"].as_array().expect("boards").len(), 3);
        assert_eq!(m["complete"], json!(true));
        let gp: f64 = m["game_points"]
            .as_array()
            .expect("game points")
            .iter()
            .map(number)
            .sum();
        assert_eq!(gp, 6.0, "three boards of two points each: {m}");
    }
    let html = text_of(html_of(&get(addr, &format!("/t/{swiss_id}/round/1"))));
    assert!(html.contains("Round 1 · "), "{html}");
    assert!(html.contains("Match 1 · tables 1–3"), "{html}");
    assert!(html.contains("Bye:"), "{html}");

    // What is not there is a 404; a team event's page no longer is.
    for path in [
        format!("/t/{swiss_id}/team/99"),
        format!("/api/t/{swiss_id}/team/99"),
        format!("/t/{swiss_id}/round/99"),
        format!("/t/{swiss_id}/crosstable"),
        format!("/t/{plain}/team/1"),
        format!("/t/{plain}/boards"),
        format!("/api/t/{plain}/boards"),
        format!("/api/t/{plain}/teams"),
    ] {
        assert_eq!(get(addr, &path).status, 404, "{path}");
    }
    server.stop();
}

fn the_board_groups_and_the_final_show_their_games_and_standings(engine: Engine) {
    let dir = tempfile::tempdir().expect("dir");
    let address = engines::fresh_address(engine, dir.path());
    let mut store = Store::connect(&address).expect("store");
    let (file, expected) = example("board-groups-then-final");
    let tid = import(&mut store, &file);
    drop(store);
    let server = serve(address);
    let addr = server.addr();

    let api = json_of(&get(addr, &format!("/api/t/{tid}/standings")));
    assert_eq!(api["stage"], expected["stage"]);
    let columns = expected["standings_teams_columns"]
        .as_array()
        .expect("columns");
    assert_eq!(
        standings_as_expected(&api, columns),
        numbers(&expected["standings_teams"])
    );
    let boards = json_of(&get(addr, &format!("/api/t/{tid}/boards")));
    assert_eq!(prizes_as_expected(&boards), expected_prizes(&expected));

    // The first round: games by table, each naming its board group.
    let round = json_of(&get(addr, &format!("/api/t/{tid}/round/1")));
    assert_eq!(round["system"], json!("board_groups"));
    let games = round["games"].as_array().expect("games");
    assert!(!games.is_empty());
    assert!(games.iter().all(|g| g["board_group"].is_u64()), "{round}");
    let html = text_of(html_of(&get(addr, &format!("/t/{tid}/round/1"))));
    assert!(html.contains("Board group B1"), "{html}");
    // The round in play is the final's.
    let now = json_of(&get(addr, &format!("/api/t/{tid}/round")));
    assert_eq!(now["system"], json!("scheveningen"));
    let page = get(addr, &format!("/t/{tid}/standings"));
    assert!(ranks_on(html_of(&page), &file).is_empty());
    server.stop();
}
