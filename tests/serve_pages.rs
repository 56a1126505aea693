//! The public pages over HTTP on a loopback port: what each page and API answer says about a
//! hall in the middle of a round, names escaped, 304s for unchanged pages, and a change at the
//! desk shown once the server has checked the database.

mod serve_support;

use ggdesk::record::TimedEvent;
use ggdesk::rules::{Event, Side};
use ggdesk::store::{Actor, Store};
use ggdesk::tournament::{PlayerId, RoundNo, TieBreak, standings};
use ggdesk_core::export::print::tiebreak_title;
use serde_json::Value;
use serve_support::{Hall, SCRIPT_NAME, get, hall, request, serve};
use std::sync::atomic::Ordering;

fn json(addr: std::net::SocketAddr, path: &str) -> Value {
    let r = get(addr, path);
    assert_eq!(r.status, 200, "{path}: {}", r.head);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/json")
    );
    serde_json::from_str(&r.body).unwrap_or_else(|e| panic!("{path}: {e}: {}", r.body))
}

fn writer(h: &Hall) -> Store {
    Store::open(&h.path).expect("writable store")
}

/// The hall's tournament as the core plays it.
fn tournament(h: &Hall) -> ggdesk_core::tournament::Tournament {
    writer(h)
        .event(h.tid)
        .expect("load")
        .one_system()
        .cloned()
        .expect("a tournament of one system")
}

#[test]
fn the_round_in_play_shows_each_tables_players_and_state() {
    let h = hall();
    let server = serve(&h.path);
    let addr = server.addr();
    let api = json(addr, &format!("/api/t/{}/round", h.tid));
    assert_eq!(api["round"], 3);
    assert_eq!(api["in_play"], true);
    let states: Vec<(u64, String, String)> = api["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| {
            (
                b["table"].as_u64().expect("table"),
                b["state"].as_str().expect("state").to_string(),
                b["result"].as_str().expect("result").to_string(),
            )
        })
        .collect();
    let expect = |t: u64, state: &str, result: &str| {
        assert!(
            states.contains(&(t, state.into(), result.into())),
            "table {t}: {states:?}"
        );
    };
    expect(1, "playing", "pending");
    expect(2, "adjudication", "pending");
    expect(3, "finished", "white");
    expect(4, "playing", "pending");
    expect(5, "finished", "draw");
    expect(6, "playing", "pending");

    // The page says the same, table by table, in the same order.
    let page = get(addr, &format!("/t/{}", h.tid));
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type").as_deref(),
        Some("text/html; charset=utf-8")
    );
    let body = &page.body;
    assert!(body.contains("Round 3 · by table"), "{body}");
    assert!(
        body.contains("3 playing · 1 in adjudication · 2 of 6 finished"),
        "{body}"
    );
    let mut at = 0;
    for b in api["boards"].as_array().expect("boards") {
        let w = ggdesk_html(b["white"]["name"].as_str().expect("name"));
        let k = ggdesk_html(b["black"]["name"].as_str().expect("name"));
        let i = body[at..]
            .find(&w)
            .unwrap_or_else(|| panic!("{w} after {at}"));
        let j = body[at + i..].find(&k).expect("black after white");
        at += i + j;
    }
    let row = |table: u32| -> &str {
        let start = body
            .find(&format!("<small>Table</small>{table}</div>"))
            .expect("row");
        let end = body[start..].find("</li>").expect("end of row") + start;
        &body[start..end]
    };
    assert!(row(1).contains(">Playing<"), "{}", row(1));
    assert!(row(2).contains(">Adjudication<"), "{}", row(2));
    assert!(row(3).contains("<b>1–0</b>"), "{}", row(3));
    assert!(row(5).contains("<b>½–½</b>"), "{}", row(5));
    assert!(!body.contains("Bye:"), "12 players: no bye");
}

/// The HTML form of a name, as the pages write it.
fn ggdesk_html(name: &str) -> String {
    name.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[test]
fn find_your_name_finds_your_table_without_javascript() {
    let h = hall();
    let server = serve(&h.path);
    let addr = server.addr();
    let players = json(addr, &format!("/api/t/{}/players?q=CRUZ", h.tid));
    let list = players["players"].as_array().expect("players");
    assert_eq!(list.len(), 1, "{players}");
    assert_eq!(list[0]["name"], "Cruz, Ben");
    let seat = &list[0]["seat"];
    let table = seat["table"].as_u64().expect("a table");
    let page = get(addr, &format!("/t/{}/names?q=cruz", h.tid));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("1 player found"), "{}", page.body);
    assert!(page.body.contains("Cruz, Ben"));
    assert!(
        page.body.contains(&format!("<b>Table {table}</b>")),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains("Reyes, Ana"),
        "only the match is listed"
    );
    assert!(
        page.body.contains("value=\"cruz\""),
        "the search stays in the box"
    );
    // Everyone, alphabetically, without a search.
    let all = get(addr, &format!("/t/{}/names", h.tid)).body;
    let order: Vec<usize> = ["Aquino, Lea", "Bautista, Ivy", "Cruz, Ben", "Uy, Hana"]
        .iter()
        .map(|n| all.find(n).expect("listed"))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    // A search by number, and one that finds nobody.
    let by_no = json(addr, &format!("/api/t/{}/players?q=7", h.tid));
    assert_eq!(by_no["players"][0]["no"], 7);
    let nobody = get(addr, &format!("/t/{}/names?q=zzzz", h.tid)).body;
    assert!(nobody.contains("Nobody found"), "{nobody}");
}

/// The plumbing: the API's standings are the core's (the values themselves are checked by
/// hand in `the_standings_of_a_small_event_are_those_worked_out_by_hand`).
#[test]
fn standings_and_crosstable_follow_the_last_complete_round_with_the_tiebreaks() {
    let h = hall();
    let server = serve(&h.path);
    let addr = server.addr();
    let t = tournament(&h);
    let expected: Value = serde_json::from_str(&standings(&t, 2).to_json()).expect("core json");
    let api = json(addr, &format!("/api/t/{}/standings", h.tid));
    assert_eq!(api["after_round"], 2);
    assert_eq!(
        api["tiebreaks"],
        serde_json::json!(["direct_encounter", "buchholz", "sonneborn_berger", "wins"])
    );
    assert_eq!(api["rows"], expected, "the core's standings after round 2");
    let page = get(addr, &format!("/t/{}/standings", h.tid)).body;
    assert!(page.contains("Standings after round 2"), "{page}");
    // Each column is headed by its abbreviation, titled with the name the printouts use.
    for short in [
        format!(
            "<th class=\"n\" title=\"{}\">DE</th>",
            tiebreak_title(TieBreak::DirectEncounter)
        ),
        format!(
            "<th class=\"n\" title=\"{}\">SB</th>",
            tiebreak_title(TieBreak::SonnebornBerger)
        ),
        ">BH<".into(),
        ">SB<".into(),
        ">Wins<".into(),
    ] {
        assert!(page.contains(&short), "{short}");
    }
    assert!(
        page.contains("broken in this order: DE: Direct encounter · BH: Buchholz"),
        "{page}"
    );
    // Rows in rank order.
    let mut at = 0;
    for row in expected.as_array().expect("rows") {
        let name = ggdesk_html(row["name"].as_str().expect("name"));
        at += page[at..].find(&name).expect("in order");
    }
    let cross = json(addr, &format!("/api/t/{}/crosstable", h.tid));
    assert_eq!(cross["after_round"], 2);
    let rows = cross["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 12);
    for row in rows {
        let id = row["id"].as_u64().expect("id") as u32;
        let cells = row["rounds"].as_array().expect("rounds");
        assert_eq!(cells.len(), 2);
        for (r, cell) in cells.iter().enumerate() {
            let entry = t.entry(PlayerId(id), r + 1).expect("entry");
            match entry {
                ggdesk::tournament::Entry::Game { opponent, .. } => {
                    assert_eq!(cell["opponent"], opponent.0)
                }
                other => panic!("12 players all play: {other:?}"),
            }
        }
    }
    let page = get(addr, &format!("/t/{}/crosstable", h.tid)).body;
    assert!(page.contains("Cross-table after round 2"));
    // Cells that cannot be misread, as on the desk and its printouts: the result's sign,
    // the opponent's number, the colour apart (never "W5", which reads as White).
    for row in rows {
        let row_html = &page[page
            .find(&format!("/player/{}\"", row["id"]))
            .expect("the player's row")..];
        let row_html = &row_html[..row_html.find("</tr>").expect("row end")];
        for cell in row["rounds"].as_array().expect("rounds") {
            let (sign, forfeit) = match cell["outcome"].as_str().expect("outcome") {
                "win" => ("+", ""),
                "draw" => ("=", ""),
                "loss" => ("\u{2212}", ""),
                "forfeit_win" => ("+", "f"),
                "forfeit_loss" | "double_forfeit" => ("\u{2212}", "f"),
                other => panic!("12 players all paired in complete rounds: {other}"),
            };
            let colour = &cell["colour"].as_str().expect("colour")[..1];
            let expected = format!(
                "<td class=\"c\">{sign}{}{forfeit}<span class=\"side\">{colour}</span></td>",
                cell["opponent"]
            );
            assert!(row_html.contains(&expected), "{expected} in {row_html}");
        }
    }
    assert!(page.contains("+5 won against player 5"), "the legend");
    assert!(
        page.contains("<th>R1</th><th>R2</th><th class=\"n\">Pts</th>"),
        "{page}"
    );
}

/// The standings of a small event worked out by hand from the rules (the GG scale: a win 2
/// points, a draw 1), not from ggdesk's own code: four players, two rounds.
///
/// Round 1: Reyes (1) – Santos (3) 0–1, Cruz (2) – Dizon (4) drawn. Round 2: Santos – Cruz
/// 1–0, Dizon – Reyes 0–1. Points: Santos 4, Reyes 2, Cruz 1, Dizon 1. Cruz and Dizon drew
/// their game (the direct encounter does not part them) and Buchholz does: Cruz's opponents
/// scored 1 + 4 = 5, Dizon's 1 + 2 = 3 (Santos 2 + 1 = 3, Reyes 4 + 1 = 5). Sonneborn-Berger,
/// the points of the opponents beaten and half those of the opponents drawn: Santos 2 + 1 =
/// 3, Reyes 1, Cruz and Dizon ½ × 1 = ½. Wins: 2, 1, 0, 0.
#[test]
fn the_standings_of_a_small_event_are_those_worked_out_by_hand() {
    use ggdesk::tournament::GameResult;
    let names = ["Reyes, Ana", "Cruz, Ben", "Santos, Carla", "Dizon, Dan"];
    let (_dir, path, mut store, tid) = serve_support::event_with(&names, 2);
    let director = serve_support::director();
    let mut play = |pairs: [(u32, u32, GameResult); 2]| {
        let n = serve_support::publish_next(&mut store, tid);
        let view = store.round_view(tid, n).expect("view").expect("round");
        for (white, black, result) in pairs {
            let board = view
                .boards
                .iter()
                .find(|b| b.white.no == PlayerId(white) && b.black.no == PlayerId(black))
                .unwrap_or_else(|| panic!("round {n} pairs {white} (White) with {black}"));
            store
                .set_result(tid, n, board.board, result, "", &director)
                .expect("result");
        }
    };
    play([(1, 3, GameResult::BlackWins), (2, 4, GameResult::Draw)]);
    play([(3, 2, GameResult::WhiteWins), (4, 1, GameResult::BlackWins)]);
    let server = serve(&path);
    let addr = server.addr();
    let api = json(addr, &format!("/api/t/{tid}/standings"));
    assert_eq!(api["after_round"], 2);
    let rows: Vec<(u64, u64, &str, f64, f64, f64, f64)> = api["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            let n = |k: &str| r[k].as_f64().unwrap_or_else(|| panic!("{k} in {r}"));
            (
                r["rank"].as_u64().expect("rank"),
                r["id"].as_u64().expect("id"),
                r["name"].as_str().expect("name"),
                n("score"),
                n("buchholz"),
                n("sonneborn_berger"),
                n("wins"),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (1, 3, "Santos, Carla", 4.0, 3.0, 3.0, 2.0),
            (2, 1, "Reyes, Ana", 2.0, 5.0, 1.0, 1.0),
            (3, 2, "Cruz, Ben", 1.0, 5.0, 0.5, 0.0),
            (4, 4, "Dizon, Dan", 1.0, 3.0, 0.5, 0.0),
        ]
    );
    let de = |i: usize| api["rows"][i]["direct_encounter"].clone();
    assert_eq!(
        de(2),
        de(3),
        "Cruz and Dizon drew: the direct encounter does not part them"
    );
    // The page lists them in that order.
    let page = get(addr, &format!("/t/{tid}/standings")).body;
    let at: Vec<usize> = ["Santos, Carla", "Reyes, Ana", "Cruz, Ben", "Dizon, Dan"]
        .iter()
        .map(|n| page.find(n).unwrap_or_else(|| panic!("{n} in {page}")))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
}

#[test]
fn a_players_page_lists_opponents_colours_results_and_the_score_after_each_round() {
    let h = hall();
    let server = serve(&h.path);
    let addr = server.addr();
    let t = tournament(&h);
    for no in 1..=12u32 {
        let api = json(addr, &format!("/api/t/{}/player/{no}", h.tid));
        let rounds = api["rounds"].as_array().expect("rounds");
        assert_eq!(rounds.len(), 3);
        for (r, pr) in rounds.iter().enumerate() {
            let entry = t.entry(PlayerId(no), r + 1).expect("entry");
            let ggdesk::tournament::Entry::Game {
                opponent,
                colour,
                outcome,
            } = entry
            else {
                panic!("a game each round");
            };
            assert_eq!(pr["opponent"], opponent.0);
            assert_eq!(pr["colour"], colour.name());
            if outcome == ggdesk::tournament::GameOutcome::Pending {
                assert_eq!(pr["score_after"], Value::Null);
            } else {
                let s = t.score(PlayerId(no), r + 1).expect("score");
                assert_eq!(
                    pr["score_after"],
                    s.to_ratio().to_json(),
                    "player {no} round {r}"
                );
            }
        }
    }
    let p1 = get(addr, &format!("/t/{}/player/1", h.tid)).body;
    assert!(p1.contains("Reyes, Ana"));
    assert!(p1.contains("No. 1 · rating 2000 · QC Club"), "{p1}");
    assert!(
        p1.contains("<div class=\"now\" data-round=\"3\">Round 3: <b>Table"),
        "{p1}"
    );
    // The colour is a swatch before the opponent (four columns fit a phone), and the title
    // says where the player sits.
    assert!(p1.contains("<th>Opponent</th><th>Result</th><th class=\"n\">Score</th>"));
    assert!(p1.contains("<title>Table "), "{p1}");
    assert_eq!(get(addr, &format!("/t/{}/player/13", h.tid)).status, 404);
    assert_eq!(get(addr, &format!("/api/t/{}/player/0", h.tid)).status, 404);
}

#[test]
fn every_name_is_escaped_as_text() {
    let h = hall();
    let server = serve(&h.path);
    let addr = server.addr();
    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;";
    for path in serve_support::every_path(h.tid, RoundNo(3), 12) {
        let r = get(addr, &path);
        assert_eq!(r.status, 200, "{path}");
        assert!(!r.body.contains(SCRIPT_NAME), "{path} holds the raw markup");
        assert!(!r.body.to_lowercase().contains("<script>"), "{path}");
    }
    for path in [
        "/t/1/names?q=script",
        "/t/1/player/5",
        "/t/1/standings",
        "/t/1/crosstable",
    ] {
        let body = get(addr, path).body;
        assert!(body.contains(escaped), "{path}: {body}");
    }
    // JSON keeps the name exact, with the markup characters escaped.
    let api = json(addr, "/api/t/1/player/5");
    assert_eq!(api["name"], SCRIPT_NAME);
    assert!(
        get(addr, "/api/t/1/player/5")
            .body
            .contains("\\u003cscript\\u003e")
    );
    // A search echoed back is escaped too.
    let body = get(addr, "/t/1/names?q=%22%3E%3Cimg+src%3Dx%3E").body;
    assert!(
        body.contains("value=\"&quot;&gt;&lt;img src=x&gt;\""),
        "{body}"
    );
    assert!(!body.contains("<img"), "{body}");
}

#[test]
fn an_unchanged_page_is_a_304_and_head_has_the_headers_without_the_body() {
    let h = hall();
    let server = serve(&h.path);
    let addr = server.addr();
    for path in [
        "/",
        "/t/1",
        "/t/1/standings",
        "/api/t/1/standings",
        "/live.js",
        "/api/",
    ] {
        let full = get(addr, path);
        assert_eq!(full.status, 200);
        let etag = full.header("etag").expect("an ETag");
        assert_eq!(full.header("cache-control").as_deref(), Some("no-cache"));
        let again = request(addr, "GET", path, &format!("If-None-Match: {etag}\r\n"));
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty());
        assert_eq!(again.header("etag").as_deref(), Some(etag.as_str()));
        let weak = request(
            addr,
            "GET",
            path,
            &format!("If-None-Match: \"x\", W/{etag}\r\n"),
        );
        assert_eq!(weak.status, 304, "{path}: weak comparison");
        let other = request(addr, "GET", path, "If-None-Match: \"nope\"\r\n");
        assert_eq!(other.status, 200);
        assert_eq!(other.body, full.body);
        let head = request(addr, "HEAD", path, "");
        assert_eq!(head.status, 200);
        assert!(head.body.is_empty(), "{path}");
        assert_eq!(
            head.header("content-length"),
            Some(full.body.len().to_string())
        );
        assert_eq!(head.header("etag").as_deref(), Some(etag.as_str()));
    }
}

#[test]
fn a_change_at_the_desk_shows_once_the_server_checked_and_changes_the_etag() {
    let h = hall();
    let server = serve(&h.path);
    let addr = server.addr();
    let before = get(addr, "/t/1");
    let etag = before.header("etag").expect("etag");
    let standings_before = get(addr, "/t/1/standings").header("etag");
    // The game at table 1 ends: Black resigns at the desk.
    let mut store = writer(&h);
    let (table, game) = h.games[0];
    let t = store
        .load_game(game)
        .expect("game")
        .events
        .last()
        .map_or(0.0, |e| e.t);
    store
        .append_event(
            game,
            TimedEvent {
                t: t + 1.0,
                event: Event::Resign(Side::Black),
            },
            &Actor::arbiter(Some(1)),
            "",
        )
        .expect("resign");
    server.check_now();
    let after = request(addr, "GET", "/t/1", &format!("If-None-Match: {etag}\r\n"));
    assert_eq!(after.status, 200, "the page changed");
    let start = after
        .body
        .find(&format!("<small>Table</small>{table}</div>"))
        .expect("row");
    let row = &after.body[start..start + after.body[start..].find("</li>").expect("end")];
    assert!(row.contains("<b>1–0</b>"), "{row}");
    // The standings count complete rounds only: round 3 is not, so they are unchanged.
    assert_eq!(get(addr, "/t/1/standings").header("etag"), standings_before);
}

#[test]
fn a_move_at_the_desk_renders_no_page_again() {
    let h = hall();
    let server = serve(&h.path);
    let addr = server.addr();
    let paths = [
        "/".to_string(),
        format!("/t/{}", h.tid),
        format!("/t/{}/standings", h.tid),
        format!("/api/t/{}/round", h.tid),
    ];
    let before: Vec<String> = paths.iter().map(|p| get(addr, p).body).collect();
    let rendered = server.counters().rendered.load(Ordering::SeqCst);
    // A move at table 1: the database changed (an event, an audit row), but nothing a page
    // shows did, so every page comes from the cache and none is rendered again.
    let (_, game) = h.games[0];
    serve_support::quiet_move(&mut writer(&h), game);
    server.check_now();
    let after: Vec<String> = paths.iter().map(|p| get(addr, p).body).collect();
    assert_eq!(after, before);
    assert_eq!(
        server.counters().rendered.load(Ordering::SeqCst),
        rendered,
        "pages rendered again after a move that changed none of them"
    );
}

#[test]
fn a_tournament_without_a_round_says_so_and_unknown_ones_are_404() {
    let (_dir, path, _store, tid) = serve_support::event_with(&["Reyes, Ana", "Cruz, Ben"], 3);
    let server = serve(&path);
    let addr = server.addr();
    let index = get(addr, "/").body;
    assert!(
        index.contains("Hall Open 2026") && index.contains("not started"),
        "{index}"
    );
    assert!(
        get(addr, &format!("/t/{tid}"))
            .body
            .contains("No round published yet")
    );
    assert!(
        get(addr, &format!("/t/{tid}/standings"))
            .body
            .contains("once the first round is complete")
    );
    assert_eq!(
        json(addr, &format!("/api/t/{tid}/standings"))["rows"],
        serde_json::json!([])
    );
    assert_eq!(get(addr, &format!("/api/t/{tid}/round")).status, 404);
    for path in [
        "/t/2",
        "/t/2/standings",
        "/api/t/2",
        "/t/1/round/1",
        "/api/t/1/round/1",
    ] {
        assert_eq!(get(addr, path).status, 404, "{path}");
    }
}

#[test]
fn the_wall_page_holds_the_address_and_its_qr_code() {
    let h = hall();
    let server = serve(&h.path);
    let addr = server.addr();
    // Asked through a LAN name, the page gives that address.
    let r = request(addr, "GET", "/wall", "");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("<svg"), "the QR code is inline SVG");
    // Through loopback (the test's own Host), the server's public address instead.
    assert!(
        r.body.contains(&format!(">{}</p>", server.url())),
        "{}",
        r.body
    );
    let text = serve_support::raw(
        addr,
        b"GET /wall HTTP/1.1\r\nHost: 192.168.7.20:8080\r\nConnection: close\r\n\r\n",
    );
    assert!(text.contains(">http://192.168.7.20:8080/</p>"), "{text}");
    let hostile = serve_support::raw(
        addr,
        b"GET /wall HTTP/1.1\r\nHost: x\"><b>y\r\nConnection: close\r\n\r\n",
    );
    assert!(!hostile.contains("<b>y"), "{hostile}");
}

#[test]
fn a_draft_is_never_shown_and_a_published_bye_is() {
    let (_dir, path, mut store, tid) =
        serve_support::event_with(&["Reyes, Ana", "Cruz, Ben", "Lim, Cy"], 3);
    let n = store
        .pair_round(tid, &serve_support::director())
        .expect("draft")
        .round;
    let server = serve(&path);
    let addr = server.addr();
    let page = get(addr, &format!("/t/{tid}")).body;
    assert!(page.contains("No round published yet"), "{page}");
    assert!(!page.contains("Table"), "{page}");
    assert_eq!(get(addr, &format!("/api/t/{tid}/round")).status, 404);
    assert_eq!(get(addr, &format!("/t/{tid}/round/{n}")).status, 404);
    let api = json(addr, &format!("/api/t/{tid}/player/1"));
    assert_eq!(api["rounds"], serde_json::json!([]), "{api}");
    store
        .publish_round(tid, n, &serve_support::director())
        .expect("publish");
    server.check_now();
    let round = json(addr, &format!("/api/t/{tid}/round"));
    let byes = round["byes"].as_array().expect("byes");
    assert_eq!(byes.len(), 1, "{round}");
    let bye_name = byes[0]["name"].as_str().expect("name").to_string();
    let page = get(addr, &format!("/t/{tid}")).body;
    assert!(
        page.contains("<b>Bye:</b>") && page.contains(&bye_name),
        "{page}"
    );
    let names = get(addr, &format!("/t/{tid}/names")).body;
    assert!(names.contains("<b>Bye</b>"), "{names}");
}

/// The change stamp (the highest audit id) can miss a change: on a server, a transaction
/// that took its audit row before another one's may commit after it. Here the late commit
/// is played on the file: an audit row numbered after it is already in, then a result
/// arrives with the free number below. The pages show it all the same, on a later read
/// (here every check reads again: `reread` is zero).
#[test]
fn a_change_the_stamp_does_not_show_reaches_the_pages_on_a_later_read() {
    let h = hall();
    let server = serve_support::serve_config(&h.path, |c| c.reread = std::time::Duration::ZERO);
    let addr = server.addr();
    let round_api = format!("/api/t/{}/round", h.tid);
    let result_of_table_1 = |api: &Value| -> String {
        api["boards"]
            .as_array()
            .expect("boards")
            .iter()
            .find(|b| b["table"] == 1)
            .map(|b| b["result"].as_str().expect("result").to_string())
            .expect("table 1")
    };
    assert_eq!(result_of_table_1(&json(addr, &round_api)), "pending");
    let conn = rusqlite::Connection::open(&h.path).expect("open");
    let max: i64 = conn
        .query_row("SELECT max(id) FROM audit_log", [], |r| r.get(0))
        .expect("max");
    // The other desk's row, numbered max + 2, is in: the pages read it.
    conn.execute(
        "INSERT INTO audit_log (id, at, actor, action) VALUES (?1, 0, 'director', 'later')",
        [max + 2],
    )
    .expect("the later row");
    server.check_now();
    assert_eq!(result_of_table_1(&json(addr, &round_api)), "pending");
    // Then the earlier transaction commits: table 1's result, with audit row max + 1.
    conn.execute_batch(&format!(
        "BEGIN;
         UPDATE pairings SET result = 'white'
          WHERE tournament_id = {t} AND round = {r} AND table_no = 1;
         INSERT INTO audit_log (id, at, actor, action, tournament_id)
          VALUES ({id}, 0, 'director', 'result', {t});
         COMMIT;",
        t = h.tid.0,
        r = h.round,
        id = max + 1
    ))
    .expect("the earlier transaction");
    server.check_now();
    assert_eq!(result_of_table_1(&json(addr, &round_api)), "white");
}
