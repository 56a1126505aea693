//! An event in stages on the public pages and in `/api/`, on both engines (on a server, read
//! as the database's public role): the group tables with who goes on, the bracket with its
//! series scores and winners, the final placement, each with values written here by hand
//! from the fixture (not recomputed with the core); 404 for a stage or group the event does
//! not have and for these pages of a tournament of one system; the cache's 304 and the
//! compression; and, with a series game in progress at the desk, no rank on any page or
//! answer, while a result reaches the open bracket page.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/pg.rs"]
mod pg;
mod serve_support;

use engines::Engine;
use ggdesk::record::TimedEvent;
use ggdesk::rules::{Event, Side};
use ggdesk::store::{Actor, GameId, GameMode, NewGame, Store, TournamentId};
use ggdesk::tournament::{GameResult, PlayerId, RoundNo, TableNo};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use serve_support::{Notices, get, html_of, json_of, ranks_in, request, serve_at, text_of};

crate::on_both_engines!(
    an_event_in_stages_shows_its_groups_bracket_and_final_placement,
    a_series_game_in_progress_shows_no_rank_and_its_result_reaches_the_bracket,
);

const GROUPS_THEN_KNOCKOUT: &str =
    include_str!("fixtures/stages/groups-then-cross-over-final.json");
const KNOCKOUT_IN_PROGRESS: &str = include_str!("fixtures/stages/knockout-in-progress.json");

fn director() -> Actor {
    Actor::director()
}

fn import(store: &mut Store, text: &str) -> TournamentId {
    let file: Value = serde_json::from_str(text).expect("fixture JSON");
    store
        .import_tournament(&file, &director())
        .expect("import the fixture")
}

/// A tournament of one system beside the staged one: its pages stay as they were.
fn one_system(store: &mut Store) -> TournamentId {
    let file = json!({
        "format": "ggdesk-tournament/1",
        "name": "Plain Swiss",
        "settings": {"system": "swiss", "rounds": 1},
        "players": [{"id": 1, "name": "Uno, A", "rating": 1500}, {"id": 2, "name": "Dos, B", "rating": 1400}],
        "rounds": [{"games": [{"table": 1, "white": 1, "black": 2, "result": "white"}]}],
    });
    store.import_tournament(&file, &director()).expect("import")
}

/// The rows of every table in `html` (within the part starting at `from`), each as its
/// cells' text, with whether the row is marked as going on.
fn table_rows(html: &str) -> Vec<(bool, Vec<String>)> {
    html.split("<tr")
        .skip(1)
        .filter(|row| row.contains("<td"))
        .map(|row| {
            let row = &row[..row.find("</tr>").unwrap_or(row.len())];
            let on = row.starts_with(" class=\"on\"");
            let cells = row
                .split("<td")
                .skip(1)
                .map(|c| text_of(&format!("<td{c}")))
                .collect();
            (on, cells)
        })
        .collect()
}

/// The part of `html` from the heading holding `heading` to the next `<h3` (or the end).
fn section<'a>(html: &'a str, heading: &str) -> &'a str {
    let at = html
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?} in the page"));
    let rest = &html[at..];
    let end = rest[1..].find("<h3").map_or(rest.len(), |e| e + 1);
    &rest[..end]
}

fn cells(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn an_event_in_stages_shows_its_groups_bracket_and_final_placement(engine: Engine) {
    let dir = tempfile::tempdir().expect("dir");
    let address = engines::fresh_address(engine, dir.path());
    let mut store = Store::connect(&address).expect("store");
    let plain = one_system(&mut store);
    let tid = import(&mut store, GROUPS_THEN_KNOCKOUT);
    drop(store);
    let server = serve_at(address);
    let addr = server.addr();

    // The list says the event's stages.
    let index = text_of(html_of(&get(addr, "/")));
    assert!(index.contains("Groups → Knockout · 14 players"), "{index}");

    // Stage 1: two group tables, rank, player (number), points, the three tie-breaks, the
    // top two of each marked as going on.
    let page = get(addr, &format!("/t/{tid}/stage/1"));
    let html = html_of(&page);
    assert!(
        text_of(html).contains("Stage 1 · round robin in 2 groups, top 2 go on · complete"),
        "{}",
        text_of(html)
    );
    let row = |on: bool, c: &[&str]| (on, cells(c));
    assert_eq!(
        table_rows(section(html, "Group A</a></h3>")),
        vec![
            row(true, &["1", "Santos, P4 4 goes on", "13", "0", "0", "5"]),
            row(true, &["2", "Flores, P8 8 goes on", "10", "0", "0", "3"]),
            row(false, &["3", "Castillo, P5 5", "9", "0", "0", "3"]),
            row(false, &["4", "Villanueva, P12 12", "7", "2", "-1", "1"]),
            row(false, &["5", "Castillo, P11 11", "7", "0", "-1", "0"]),
            row(false, &["6", "Bautista, P14 14", "6", "0", "-1", "1"]),
            row(false, &["7", "Lim, P7 7", "4", "0", "0", "0"]),
        ]
    );
    let group_b = vec![
        row(true, &["1", "Santos, P6 6 goes on", "12", "0", "0", "5"]),
        row(true, &["2", "Ramos, P3 3 goes on", "9", "2", "0", "3"]),
        row(false, &["3", "Torres, P13 13", "9", "0", "0", "3"]),
        row(false, &["4", "Villanueva, P9 9", "8", "1", "0", "2"]),
        row(false, &["4", "Castillo, P1 1", "8", "1", "0", "2"]),
        row(false, &["6", "Bautista, P2 2", "5", "1", "0", "1"]),
        row(false, &["7", "Ñora, P10 10", "5", "1", "0", "0"]),
    ];
    assert_eq!(table_rows(section(html, "Group B</a></h3>")), group_b);
    assert!(
        text_of(html).contains("The top 2 of each group go on to Knockout."),
        "{}",
        text_of(html)
    );
    // One group alone, for a phone.
    let b = get(addr, &format!("/t/{tid}/stage/1/group/B"));
    assert_eq!(table_rows(html_of(&b)), group_b);

    // The bracket: semi-finals and final, seeds, series scores, winners marked, games.
    let bracket = html_of(&get(addr, &format!("/t/{tid}/bracket"))).to_string();
    let card = |id: &str| {
        let at = bracket
            .find(&format!("Match {id} ·"))
            .unwrap_or_else(|| panic!("no match {id}"));
        let rest = &bracket[at..];
        text_of(&rest[..rest.find("</ol>").expect("its games")])
    };
    assert_eq!(
        card("1.1"),
        "Match 1.1 · decided #1 Santos, P4 4 ✓ 1 #4 Ramos, P3 3 0 \
         Santos, P4 – Ramos, P3: ½–½ Ramos, P3 – Santos, P4: 0–1"
    );
    assert_eq!(
        card("1.2"),
        "Match 1.2 · decided #2 Santos, P6 6 0 #3 Flores, P8 8 ✓ 1 Santos, P6 – Flores, P8: 0–1"
    );
    assert_eq!(
        card("2.1"),
        "Match 2.1 · decided #1 Santos, P4 4 ✓ 1 #3 Flores, P8 8 0 Santos, P4 – Flores, P8: 1–0"
    );
    let semis = bracket.find("<h3>Semi-finals</h3>").expect("semi-finals");
    let final_ = bracket.find("<h3>Final</h3>").expect("the final");
    assert!(semis < final_);
    // The stage's own page is the bracket.
    assert_eq!(
        html_of(&get(addr, &format!("/t/{tid}/stage/2"))),
        bracket.as_str()
    );

    // The final placement, and the overview's stages.
    let placement = [
        ["1", "Santos, P4 4", "Knockout"],
        ["2", "Flores, P8 8", "Knockout"],
        ["3", "Santos, P6 6", "Knockout"],
        ["3", "Ramos, P3 3", "Knockout"],
        ["5", "Castillo, P5 5", "Groups"],
        ["6", "Torres, P13 13", "Groups"],
        ["7", "Villanueva, P9 9", "Groups"],
        ["8", "Villanueva, P12 12", "Groups"],
        ["9", "Castillo, P1 1", "Groups"],
        ["10", "Castillo, P11 11", "Groups"],
        ["11", "Bautista, P14 14", "Groups"],
        ["12", "Bautista, P2 2", "Groups"],
        ["13", "Ñora, P10 10", "Groups"],
        ["14", "Lim, P7 7", "Groups"],
    ];
    let expected: Vec<(bool, Vec<String>)> = placement.iter().map(|r| (false, cells(r))).collect();
    assert_eq!(
        table_rows(html_of(&get(addr, &format!("/t/{tid}/final")))),
        expected
    );
    // A staged round's boards name their group, a knockout's their match (issue 34, item 5).
    let first = text_of(html_of(&get(addr, &format!("/t/{tid}/round/1")))).to_string();
    assert!(
        first.contains("Group A") && first.contains("Group B"),
        "{first}"
    );
    let last = text_of(html_of(&get(addr, &format!("/t/{tid}/round/10")))).to_string();
    assert!(last.contains("Match 2.1"), "{last}");
    assert!(!last.contains("Group A"), "{last}");
    // A player's page says where they stand in the stages: the bracket path of a player in
    // the knockout, the group's table and place of one out after the groups.
    let champion = text_of(html_of(&get(addr, &format!("/t/{tid}/player/4")))).to_string();
    assert!(
        champion.contains("The bracket : Match 1.1 against Ramos, P3: 1–0 · won; Match 2.1 against Flores, P8: 1–0 · won"),
        "{champion}"
    );
    let out = text_of(html_of(&get(addr, &format!("/t/{tid}/player/5")))).to_string();
    assert!(out.contains("Groups: group A's table · place 3"), "{out}");
    assert!(!out.contains("goes on"), "{out}");
    // The hall display of an event of stages: its last round by name, the current stage's
    // table (who went on marked), the bracket's matches; a QR code; its script.
    let hall = html_of(&get(addr, &format!("/t/{tid}/hall"))).to_string();
    for part in [
        "<h2>Round 10 · pairings by name</h2>",
        "<h2>Knockout</h2>",
        "<h2>The bracket</h2>",
        "<span class=\"tb\">2.1</span>",
        "<svg",
        "<script src=\"/hall.js\" defer>",
    ] {
        assert!(hall.contains(part), "{part} in {hall}");
    }
    assert_eq!(get(addr, "/hall.js").status, 200);
    let overview = html_of(&get(addr, &format!("/t/{tid}/standings"))).to_string();
    assert_eq!(table_rows(&overview), expected);
    let text = text_of(&overview);
    assert!(
        text.contains("1. Groups round robin in 2 groups, top 2 go on · complete")
            && text.contains("2. Knockout single game, cross-over · complete"),
        "{text}"
    );
    // The nav: the stages' tabs and the final placement, no cross-table.
    assert!(
        overview.contains(&format!("href=\"/t/{tid}/stage/1\">Groups</a>"))
            && overview.contains(&format!("href=\"/t/{tid}/stage/2\">Knockout</a>"))
            && overview.contains(&format!("href=\"/t/{tid}/final\">Final placement</a>"))
            && !overview.contains("/crosstable"),
        "{overview}"
    );

    // The same in /api/.
    let stage = json_of(&get(addr, &format!("/api/t/{tid}/stage/1/group/A")));
    let rows: Vec<(String, u64, u64, Value, bool)> = stage["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["group"].as_str().expect("group").to_string(),
                r["rank"].as_u64().expect("rank"),
                r["id"].as_u64().expect("id"),
                r["score"].clone(),
                r["goes_on"].as_bool().expect("goes_on"),
            )
        })
        .collect();
    let a = |rank, id, score: i64, on| ("A".to_string(), rank, id, json!(score), on);
    assert_eq!(
        rows,
        vec![
            a(1, 4, 13, true),
            a(2, 8, 10, true),
            a(3, 5, 9, false),
            a(4, 12, 7, false),
            a(5, 11, 7, false),
            a(6, 14, 6, false),
            a(7, 7, 4, false),
        ]
    );
    assert_eq!(
        stage["standings"][3],
        json!({"group": "A", "rank": 4, "id": 12, "name": "Villanueva, P12", "rating": 1390,
               "score": 7, "direct_encounter": 2, "fewest_forfeit_wins": -1, "wins": 1,
               "goes_on": false, "playoff": false})
    );
    assert_eq!(
        (&stage["state"], &stage["advance"], &stage["group"]),
        (&json!("complete"), &json!(2), &json!("A"))
    );
    let whole = json_of(&get(addr, &format!("/api/t/{tid}/stage/1")));
    assert_eq!(whole["standings"].as_array().map(Vec::len), Some(14));
    let goes_on: Vec<u64> = whole["standings"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["goes_on"] == json!(true))
        .map(|r| r["id"].as_u64().expect("id"))
        .collect();
    assert_eq!(goes_on, [4, 8, 6, 3]);
    let bracket_json = json!({
        "stage": 2,
        "rounds": [
            [
                {"match": "1.1", "seeds": [1, 4], "players": [4, 3],
                 "games": [{"white": 4, "black": 3, "result": "draw"},
                           {"white": 3, "black": 4, "result": "black"}],
                 "score": [1, 0], "winner": 4},
                {"match": "1.2", "seeds": [2, 3], "players": [6, 8],
                 "games": [{"white": 6, "black": 8, "result": "black"}],
                 "score": [0, 1], "winner": 8},
            ],
            [
                {"match": "2.1", "seeds": [1, 3], "players": [4, 8],
                 "games": [{"white": 4, "black": 8, "result": "white"}],
                 "score": [1, 0], "winner": 4},
            ],
        ],
        "third_place": null,
    });
    assert_eq!(
        json_of(&get(addr, &format!("/api/t/{tid}/bracket"))),
        bracket_json
    );
    assert_eq!(
        json_of(&get(addr, &format!("/api/t/{tid}/stage/2")))["bracket"],
        bracket_json
    );
    let placed = json_of(&get(addr, &format!("/api/t/{tid}/final")));
    assert_eq!(placed["over"], json!(true));
    let got: Vec<(u64, u64, String, u64)> = placed["placement"]
        .as_array()
        .expect("placement")
        .iter()
        .map(|p| {
            (
                p["place"].as_u64().expect("place"),
                p["id"].as_u64().expect("id"),
                p["name"].as_str().expect("name").to_string(),
                p["stage"].as_u64().expect("stage"),
            )
        })
        .collect();
    let want: Vec<(u64, u64, String, u64)> = [
        (1, 4, "Santos, P4", 2),
        (2, 8, "Flores, P8", 2),
        (3, 6, "Santos, P6", 2),
        (3, 3, "Ramos, P3", 2),
        (5, 5, "Castillo, P5", 1),
        (6, 13, "Torres, P13", 1),
        (7, 9, "Villanueva, P9", 1),
        (8, 12, "Villanueva, P12", 1),
        (9, 1, "Castillo, P1", 1),
        (10, 11, "Castillo, P11", 1),
        (11, 14, "Bautista, P14", 1),
        (12, 2, "Bautista, P2", 1),
        (13, 10, "Ñora, P10", 1),
        (14, 7, "Lim, P7", 1),
    ]
    .iter()
    .map(|&(p, i, n, s)| (p, i, n.to_string(), s))
    .collect();
    assert_eq!(got, want);
    let stages = json_of(&get(addr, &format!("/api/t/{tid}/stages")));
    assert_eq!(
        (&stages["over"], &stages["current"]),
        (&json!(true), &json!(2))
    );
    assert_eq!(
        stages["stages"][0],
        json!({"stage": 1, "name": "Groups", "system": "round_robin",
               "format": "round robin in 2 groups, top 2 go on", "state": "complete",
               "advance": 2, "groups": ["A", "B"],
               "tiebreaks": ["direct_encounter", "fewest_forfeit_wins", "wins"]})
    );
    let endpoints = json_of(&get(addr, "/api/"));
    let paths: Vec<&str> = endpoints["endpoints"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|e| e["path"].as_str())
        .collect();
    for p in [
        "/api/t/ID/stages",
        "/api/t/ID/stage/N",
        "/api/t/ID/stage/N/group/X",
        "/api/t/ID/bracket",
        "/api/t/ID/final",
    ] {
        assert!(paths.contains(&p), "{p} in {paths:?}");
    }

    // A stage or group the event does not have, malformed ones, these pages of a
    // tournament of one system, and the flat cross-table of the event: 404 (JSON under
    // /api/).
    for path in [
        format!("/t/{tid}/stage/3"),
        format!("/t/{tid}/stage/0"),
        format!("/t/{tid}/stage/01"),
        format!("/t/{tid}/stage/x"),
        format!("/t/{tid}/stage/1/group/C"),
        format!("/t/{tid}/stage/1/group/a"),
        format!("/t/{tid}/stage/1/group/AB"),
        format!("/t/{tid}/stage/2/group/A"),
        format!("/t/{tid}/crosstable"),
        format!("/t/{plain}/stage/1"),
        format!("/t/{plain}/bracket"),
        format!("/t/{plain}/final"),
    ] {
        let r = get(addr, &path);
        assert_eq!(r.status, 404, "{path}: {}", r.head);
        assert!(r.body.contains("Page not found"), "{path}");
    }
    for path in [
        format!("/api/t/{tid}/stage/3"),
        format!("/api/t/{tid}/stage/1/group/Z"),
        format!("/api/t/{tid}/stage/1/group/%41"),
        format!("/api/t/{tid}/crosstable"),
        format!("/api/t/{plain}/stages"),
        format!("/api/t/{plain}/bracket"),
        format!("/api/t/{plain}/final"),
    ] {
        let r = get(addr, &path);
        assert_eq!(r.status, 404, "{path}: {}", r.head);
        assert_eq!(r.body.trim(), "{\"error\":\"not found\"}", "{path}");
    }
    // The tournament of one system: its standings and cross-table as before.
    let st = html_of(&get(addr, &format!("/t/{plain}/standings"))).to_string();
    assert!(st.contains("Standings after round 1") && st.contains("Cross-table"));
    assert_eq!(get(addr, &format!("/t/{plain}/crosstable")).status, 200);

    // Kept, compressed and revalidated like every page.
    let first = get(addr, &format!("/t/{tid}/bracket"));
    let etag = first.header("etag").expect("an ETag");
    let again = request(
        addr,
        "GET",
        &format!("/t/{tid}/bracket"),
        &format!("If-None-Match: {etag}\r\n"),
    );
    assert_eq!(again.status, 304, "{}", again.head);
    let br = request(
        addr,
        "GET",
        &format!("/t/{tid}/stage/1"),
        "Accept-Encoding: gzip, br\r\n",
    );
    assert_eq!(br.header("content-encoding").as_deref(), Some("br"));
    server.stop();
}

/// A desk game at `table` of `round` with random setups entered; started and played with
/// challenges until at least two were made and the game goes on, when `play`.
fn series_game(
    store: &mut Store,
    tid: TournamentId,
    round: RoundNo,
    table: TableNo,
    players: (PlayerId, PlayerId),
    play: bool,
) -> GameId {
    let actor = Actor::arbiter(Some(i64::from(table.0)));
    for seed in 0..200u64 {
        let mut new = NewGame::standalone();
        new.tournament_id = Some(tid);
        new.round = Some(round);
        new.table_no = Some(table);
        new.players = Some(ggdesk::rules::BySide::new(players.0, players.1));
        new.mode = GameMode::Arbitrated;
        let mut rng = StdRng::seed_from_u64(seed);
        let setups = ggdesk_core::sim::random_setups(&mut |n| rng.random_range(0..n.max(1)));
        let id = store
            .create_game(&new, &actor)
            .expect("a game at the table");
        for side in Side::BOTH {
            store
                .save_setup(id, side, &setups[side], &actor)
                .expect("a setup");
        }
        if !play {
            return id;
        }
        store
            .start_game(id, 1_800_000_000_000, Side::White, &actor)
            .expect("start");
        let mut challenges = 0;
        let mut t = 0.0;
        for _ in 0..40 {
            let game = store
                .load_game(id)
                .expect("load")
                .game()
                .expect("setups")
                .expect("replays");
            if game.is_over() {
                break;
            }
            let moves = game.position().legal_moves(game.to_move());
            let (attacks, quiet): (Vec<_>, Vec<_>) = moves
                .iter()
                .copied()
                .partition(|m| game.position().get(m.to).is_some());
            let pick = |list: &[_], rng: &mut StdRng| list[rng.random_range(0..list.len())];
            let mv = if challenges < 2 && !attacks.is_empty() {
                pick(&attacks, &mut rng)
            } else if !quiet.is_empty() {
                pick(&quiet, &mut rng)
            } else {
                break;
            };
            t += 3.0;
            let out = store
                .append_event(
                    id,
                    TimedEvent {
                        t,
                        event: Event::Move { mv, by: None },
                    },
                    &actor,
                    "",
                )
                .expect("move");
            if out.applied.challenge.is_some() {
                challenges += 1;
            }
            if out.applied.ended {
                break;
            }
        }
        let g = store.load_game(id).expect("game");
        if challenges >= 2 && g.meta.result.code().is_none() {
            return id;
        }
        store
            .void_and_replay(id, "test set-up: try another game", &director())
            .expect("void");
    }
    panic!("no seed gave a game going on after two challenges");
}

fn a_series_game_in_progress_shows_no_rank_and_its_result_reaches_the_bracket(engine: Engine) {
    let dir = tempfile::tempdir().expect("dir");
    let address = engines::fresh_address(engine, dir.path());
    let mut store = Store::connect(&address).expect("store");
    let tid = import(&mut store, KNOCKOUT_IN_PROGRESS);
    // The knockout's first games, at tables 1 (1.1: 4 against 3) and 2 (1.2: 6 against 8).
    let (round, _) = store
        .start_next_games(tid, &director())
        .expect("the knockout's first games");
    let view = store.round_view(tid, round).expect("view").expect("round");
    let seat = |table: u32| {
        let b = view
            .boards
            .iter()
            .find(|b| b.table == TableNo(table))
            .expect("table");
        (b.board, (b.white.no, b.black.no))
    };
    assert_eq!(
        (seat(1).1, seat(2).1),
        ((PlayerId(4), PlayerId(3)), (PlayerId(6), PlayerId(8)))
    );
    let playing = series_game(&mut store, tid, round, TableNo(1), seat(1).1, true);
    let setting_up = series_game(&mut store, tid, round, TableNo(2), seat(2).1, false);
    // What the scan must not find is there: the game's record has ranks.
    for id in [playing, setting_up] {
        let record = store.export_game(id).expect("export").to_string();
        assert!(!ranks_in(&record).is_empty(), "game {id:?}'s record");
    }

    let server = serve_at(address);
    let addr = server.addr();
    let mut paths = vec![
        "/".to_string(),
        "/api/tournaments".into(),
        format!("/t/{tid}"),
        format!("/t/{tid}/names"),
        format!("/t/{tid}/standings"),
        format!("/t/{tid}/stage/1"),
        format!("/t/{tid}/stage/1/group/A"),
        format!("/t/{tid}/stage/1/group/B"),
        format!("/t/{tid}/stage/2"),
        format!("/t/{tid}/bracket"),
        format!("/t/{tid}/final"),
        format!("/t/{tid}/round/{round}"),
        format!("/api/t/{tid}"),
        format!("/api/t/{tid}/round"),
        format!("/api/t/{tid}/stages"),
        format!("/api/t/{tid}/stage/1"),
        format!("/api/t/{tid}/stage/1/group/B"),
        format!("/api/t/{tid}/stage/2"),
        format!("/api/t/{tid}/bracket"),
        format!("/api/t/{tid}/final"),
    ];
    for no in [3, 4, 6, 8] {
        paths.push(format!("/t/{tid}/player/{no}"));
        paths.push(format!("/api/t/{tid}/player/{no}"));
    }
    for path in &paths {
        for method in ["GET", "HEAD"] {
            let r = request(addr, method, path, "");
            assert_eq!(r.status, 200, "{method} {path}: {}", r.head);
            let whole = format!("{}\r\n\r\n{}", r.head, r.body);
            assert_eq!(
                ranks_in(&whole),
                Vec::<String>::new(),
                "{method} {path}:\n{whole}"
            );
        }
    }

    // The bracket as the hall sees it now: both semi-finals' first games in play, the
    // final still to come, no placement yet.
    let bracket = text_of(html_of(&get(addr, &format!("/t/{tid}/bracket"))));
    assert!(
        bracket.contains(
            "Match 1.1 · game 1 in play #1 Santos, P4 4 0 #4 Ramos, P3 3 0 \
             Santos, P4 – Ramos, P3: in play"
        ),
        "{bracket}"
    );
    let api = json_of(&get(addr, &format!("/api/t/{tid}/bracket")));
    assert_eq!(
        api["rounds"][0][1],
        json!({"match": "1.2", "seeds": [2, 3], "players": [6, 8],
               "games": [{"white": 6, "black": 8, "result": "pending"}],
               "score": [0, 0], "winner": null})
    );
    assert_eq!(
        json_of(&get(addr, &format!("/api/t/{tid}/final"))),
        json!({"tournament": tid.0, "over": false, "placement": []})
    );

    // A result at table 2 reaches the open bracket page: its stream is told, and the page
    // then shows the winner and the final's known player.
    let mut notices = Notices::open(addr, &format!("/t/{tid}/events"));
    store
        .set_result(
            tid,
            round,
            seat(2).0,
            GameResult::BlackWinsByForfeit,
            "",
            &director(),
        )
        .expect("a result by the director");
    let notice = notices.next_event().expect("a change notice");
    assert_eq!(notice.event, "change");
    server.check_now();
    let bracket = text_of(html_of(&get(addr, &format!("/t/{tid}/bracket"))));
    assert!(
        bracket.contains(
            "Match 1.2 · decided #2 Santos, P6 6 0 #3 Flores, P8 8 ✓ 1 \
             Santos, P6 – Flores, P8: 0–1 (forfeit)"
        ),
        "{bracket}"
    );
    assert!(
        bracket.contains(
            "Match 2.1 · waiting for its players winner of 1.1 #3 Flores, P8 8 Read-only pages"
        ),
        "{bracket}"
    );
    server.stop();
}
