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
use ggdesk::store::{Actor, Store, TournamentId};
use serde_json::{Value, json};
use serve_support::{get, html_of, json_of, ranks_in, serve_at, team_cup, text_of};

crate::on_both_engines!(
    team_events_show_their_standings_matches_teams_and_board_prizes,
    the_board_groups_and_the_final_show_their_games_and_standings,
    a_team_players_page_says_where_they_play_in_the_round_in_play,
    the_hall_display_of_a_team_event_shows_matches_standings_and_board_prizes,
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
    let server = serve_at(address);
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
    let server = serve_at(address);
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
    // A player's page names their table in the final (the example's names hold numbers),
    // or says their team is not in it.
    let top = |no: u32| {
        let html = html_of(&get(addr, &format!("/t/{tid}/player/{no}"))).to_string();
        (div_text(&html, "now"), title_of(&html))
    };
    assert_eq!(
        top(11),
        (
            "Round 4: Table 1 · White · vs Flores, Fe 14 (Iloilo Eagles) · 1–0".to_string(),
            "Table 1 · White · vs Flores (Iloilo Eagles) · Team event 2".to_string()
        )
    );
    assert_eq!(
        top(1),
        (
            "Round 4: Not playing this round".to_string(),
            "Flores, Kiko 1 · Team event 2".to_string()
        )
    );
    server.stop();
}

/// The text of the first element of class `class` (a `div`) in `html`.
fn div_text(html: &str, class: &str) -> String {
    let open = format!("<div class=\"{class}\"");
    let at = html
        .find(&open)
        .unwrap_or_else(|| panic!("no {open:?} in {html}"));
    let rest = &html[at..];
    text_of(&rest[..rest.find("</div>").unwrap_or(rest.len())])
}

/// The page's title, as the browser shows it.
fn title_of(html: &str) -> String {
    let from = html.find("<title>").expect("a title") + "<title>".len();
    let to = html[from..].find("</title>").expect("the title's end") + from;
    text_of(&html[from..to])
}

/// The player's page of a team event (issue 34, items 1, 2, 6): at the top, before anything
/// is published, "Not paired yet"; once the round is published (a draft is not), their
/// table, board, colour, opponent and the opponent's team, the match, or "Not in the
/// line-up" / "Team bye"; the page title says the same in short; the follow and alert
/// buttons are there for the script, hidden to a browser without it, which reads the board
/// in the page itself; a result entered shows, with the player's points.
fn a_team_players_page_says_where_they_play_in_the_round_in_play(engine: Engine) {
    use ggdesk::tournament::{GameResult, TableNo};
    let dir = tempfile::tempdir().expect("dir");
    let address = engines::fresh_address(engine, dir.path());
    let mut store = Store::connect(&address).expect("store");
    let tid = team_cup(&mut store);
    let server = serve_at(address);
    let addr = server.addr();
    let page = |no: u32| html_of(&get(addr, &format!("/t/{tid}/player/{no}"))).to_string();

    let ana = page(1);
    assert_eq!(div_text(&ana, "now"), "Not paired yet");
    assert_eq!(title_of(&ana), "Reyes, Ana · Team Cup");
    assert!(
        ana.contains(&format!(
            "<button id=\"follow\" type=\"button\" hidden data-follow=\"{tid}/1\">This is me\
             </button> <button id=\"alert\" type=\"button\" hidden>Alert me</button>"
        )),
        "{ana}"
    );
    assert!(
        text_of(&ana).contains("No. 1 · rating 1900 · Tondo Tigers · board 1"),
        "{}",
        text_of(&ana)
    );

    // A draft is not shown.
    let n = store
        .pair_team_round(tid, &Actor::director())
        .expect("paired");
    server.check_now();
    assert_eq!(div_text(&page(1), "now"), "Not paired yet");

    store
        .publish_team_round(tid, n, &Actor::director())
        .expect("published");
    server.check_now();
    let ana = page(1);
    assert_eq!(
        div_text(&ana, "now"),
        "Round 1: Table 1 · Board 1 · White · vs Cruz, Ben (Cebu Colonels) · Awaiting result"
    );
    assert!(
        ana.contains("<div class=\"now\" data-round=\"1\">"),
        "the round the script remembers: {ana}"
    );
    assert_eq!(
        title_of(&ana),
        "Table 1 · Board 1 · White · vs Cruz (Cebu Colonels) · Team Cup"
    );
    let text = text_of(&ana);
    assert!(
        text.contains("Match 1 : Tondo Tigers vs Cebu Colonels · 0–0 after 0 of 2 boards"),
        "{text}"
    );
    let dan = page(2);
    assert_eq!(
        div_text(&dan, "now"),
        "Round 1: Table 2 · Board 2 · Black · vs Santos, Eve (Cebu Colonels) · Awaiting result"
    );
    assert_eq!(
        title_of(&dan),
        "Table 2 · Board 2 · Black · vs Santos (Cebu Colonels) · Team Cup"
    );
    let cid = page(3);
    assert_eq!(
        div_text(&cid, "now"),
        "Round 1: Not in the line-up this round"
    );
    assert_eq!(title_of(&cid), "Not in the line-up · Lim, Cid · Team Cup");
    let fay = page(6);
    assert_eq!(div_text(&fay, "now"), "Round 1: Team bye");
    assert_eq!(title_of(&fay), "Team bye · Uy, Fay · Team Cup");
    assert!(text_of(&fay).contains("No game played yet."));

    // A result entered: the board's result at the top, the player's points (a win is two)
    // and games; the team's place waits for a complete round.
    store
        .set_team_board_result(
            tid,
            n,
            TableNo(1),
            GameResult::WhiteWins,
            &Actor::director(),
        )
        .expect("result");
    server.check_now();
    let ana = page(1);
    assert_eq!(
        div_text(&ana, "now"),
        "Round 1: Table 1 · Board 1 · White · vs Cruz, Ben (Cebu Colonels) · 1–0"
    );
    let text = text_of(&ana);
    assert!(text.contains("Points 2 from 1 game"), "{text}");
    assert_eq!(
        rows_after(&ana, "<table class=\"mine\">"),
        vec![vec![
            "1".to_string(),
            "1".into(),
            "Cruz, Ben 4 Cebu Colonels · table 1".into(),
            "2".into()
        ]]
    );
    assert!(!text.contains("place"), "{text}");
    let ben = text_of(&page(4));
    assert!(ben.contains("Points 0 from 1 game"), "{ben}");
    server.stop();
}

/// The slides' titles and lines of a hall display page.
fn slides_of(html: &str) -> Vec<(String, Vec<String>)> {
    html.split("<section class=\"slide\">")
        .skip(1)
        .map(|s| {
            let s = &s[..s.find("</section>").unwrap_or(s.len())];
            let h2 = s.find("</h2>").expect("a slide's title");
            let lines = s[h2..]
                .split("<li>")
                .skip(1)
                .map(|l| text_of(&l[..l.find("</li>").unwrap_or(l.len())]))
                .collect();
            (text_of(&s[..h2]), lines)
        })
        .collect()
}

/// The hall display of a team event (issue 34, item 4): the round in play's matches board by
/// board with their running score and the team bye, the team standings and the board
/// prizes' leaders, each a slide; before a round, the line that says the pairings come.
fn the_hall_display_of_a_team_event_shows_matches_standings_and_board_prizes(engine: Engine) {
    use ggdesk::tournament::{GameResult, TableNo};
    let dir = tempfile::tempdir().expect("dir");
    let address = engines::fresh_address(engine, dir.path());
    let mut store = Store::connect(&address).expect("store");
    let tid = team_cup(&mut store);
    let server = serve_at(address);
    let addr = server.addr();
    let hall = || {
        let html = html_of(&get(addr, &format!("/t/{tid}/hall"))).to_string();
        assert!(html.contains("<script src=\"/hall.js\" defer></script>"));
        slides_of(&html)
    };
    let s = |list: &[&str]| list.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        hall(),
        vec![(
            "Pairings".to_string(),
            s(&["The pairings appear here as soon as a round is published."])
        )]
    );
    let n = store
        .pair_team_round(tid, &Actor::director())
        .expect("paired");
    store
        .publish_team_round(tid, n, &Actor::director())
        .expect("published");
    store
        .set_team_board_result(
            tid,
            n,
            TableNo(1),
            GameResult::WhiteWins,
            &Actor::director(),
        )
        .expect("result");
    server.check_now();
    let slides = hall();
    let titles: Vec<&str> = slides.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        titles,
        ["Round 1 · Swiss", "Team standings · Swiss", "Board prizes"]
    );
    assert_eq!(
        slides[0].1,
        s(&[
            "Match 1 Tondo Tigers – Cebu Colonels 2–0",
            "Table 1 1. Reyes, Ana – Cruz, Ben 1–0",
            "Table 2 2. Santos, Eve – Dizon, Dan …",
            "Bye Davao Sharks",
        ])
    );
    // As the standings page has them: the bye scored, the match not yet.
    assert_eq!(
        slides[1].1,
        s(&[
            "# Team MP GP",
            "1 Davao Sharks 1 2",
            "2 Tondo Tigers 0 0",
            "2 Cebu Colonels 0 0",
        ])
    );
    assert_eq!(
        slides[2].1,
        s(&[
            "Board 1 Pts G %",
            "1 Reyes, Ana (Tondo Tigers) 2 1 100",
            "2 Cruz, Ben (Cebu Colonels) 0 1 0",
        ])
    );
    server.stop();
}
