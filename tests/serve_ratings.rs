//! The rating list on the public pages and in `/api/`, on both engines (on a server, read as
//! the database's public role through the `ggdesk_public` views): the list and each player's
//! history are the store's, numbers as `ggdesk ratings` prints them, provisional ratings
//! marked, the search without script, every name and id escaped, 404 for an id not on the
//! list, and a changed result of a rated event reaching the open rating pages.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/pg.rs"]
mod pg;
mod serve_support;

use engines::Engine;
use ggdesk::store::{Actor, Address, RatingRow, Store, TournamentId};
use ggdesk::tournament::{GameResult, RoundNo};
use ggdesk_core::rating::Date;
use serde_json::{Value, json};
use serve_support::{Notices, get, html_of, json_of, serve_at, until};
use std::time::Duration;

crate::on_both_engines!(
    the_rating_pages_show_the_list_and_histories_the_store_computed,
    a_changed_result_of_a_rated_event_reaches_the_open_rating_pages,
    without_a_rated_event_the_list_says_so_and_the_index_has_no_link,
);

/// A name that is markup, and an event's name with every character HTML escapes.
const MARKUP_NAME: &str = "<script>alert(1)</script>";
const MARKUP_EVENT: &str = "Spring & \"Summer\" <Open>";
/// A federation id that needs percent-encoding in a path.
const ODD_ID: &str = "PH 7/2";

fn director() -> Actor {
    Actor::director()
}

fn date(s: &str) -> Date {
    Date::parse(s).expect("a date")
}

fn fid(i: u32) -> String {
    if i == 7 {
        ODD_ID.to_string()
    } else {
        format!("GGF-{i}")
    }
}

fn name(i: u32) -> String {
    if i == 5 {
        MARKUP_NAME.to_string()
    } else {
        format!("Player {i}")
    }
}

/// A complete Swiss of `rounds` rounds among players `ids`, results from `seed`.
fn event_file(event: &str, ids: &[u32], rounds: usize, seed: usize) -> Value {
    let players: Vec<Value> = ids
        .iter()
        .map(|&i| json!({"id": i, "name": name(i), "rating": 1500, "federation_id": fid(i)}))
        .collect();
    let results = ["white", "black", "draw", "white", "black", "draw"];
    let n = ids.len();
    let rounds: Vec<Value> = (0..rounds)
        .map(|r| {
            let games: Vec<Value> = (0..n / 2)
                .map(|k| {
                    json!({
                        "table": k + 1,
                        "white": ids[(k + r) % n],
                        "black": ids[(n - 1 - k + r) % n],
                        "result": results[(seed + r * 7 + k * 3) % results.len()],
                    })
                })
                .collect();
            json!({ "games": games })
        })
        .collect();
    json!({
        "format": "ggdesk-tournament/1",
        "name": event,
        "settings": {"system": "swiss", "rounds": rounds.len()},
        "players": players,
        "rounds": rounds,
    })
}

/// Two players with first ratings of low deviation (so not provisional) and one listed
/// without ever playing, then three rated events.
fn rated_events(store: &mut Store) -> Vec<TournamentId> {
    store
        .import_players_csv(
            "name,federation_id,club,rating,deviation,volatility\n\
             Player 1,GGF-1,Secret Club,2100.4,60,0.05\n\
             Player 2,GGF-2,Secret Club,1950,70,0.06\n\
             Player 20,GGF-20,Secret Club,1700,90,0.06\n",
            &director(),
        )
        .expect("first ratings");
    let mut ids = Vec::new();
    for (event, players, rounds, on) in [
        (MARKUP_EVENT, &[1, 2, 3, 4, 5, 6][..], 3, "2026-03-01"),
        ("Summer Cup", &[3, 4, 5, 6, 7, 8, 1, 2], 4, "2026-05-10"),
        ("Autumn Open", &[1, 2, 7, 8], 2, "2026-09-20"),
    ] {
        let tid = store
            .import_tournament(&event_file(event, players, rounds, ids.len()), &director())
            .expect("import");
        store.mark_rated(tid, date(on), &director()).expect("rated");
        ids.push(tid);
    }
    ids
}

/// A new database on `engine` (a file in `dir`, or a database on the cluster), the store
/// writing to it, and its address.
fn database(engine: Engine, dir: &std::path::Path) -> (Store, Address) {
    let address = engines::fresh_address(engine, dir);
    let store = Store::connect(&address).expect("store");
    (store, address)
}

/// A federation id as a path segment (every byte but letters, digits, `-`, `_`, `~`
/// percent-encoded), written here independently of the server's own function.
fn path_id(id: &str) -> String {
    id.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// HTML's escaping of text, written here independently of the server's.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A number as `ggdesk ratings` prints it (two decimals), as JSON has it.
fn two(x: f64) -> Value {
    json!(format!("{x:.2}").parse::<f64>().expect("a number"))
}

/// A score of `h` half-points as JSON has it: a whole number, else one decimal.
fn halves(h: i64) -> Value {
    if h % 2 == 0 {
        json!(h / 2)
    } else {
        json!(h as f64 / 2.0)
    }
}

/// The list as `/api/ratings` must give it, from the store's own list.
fn expected_rows(list: &[RatingRow]) -> Vec<Value> {
    list.iter()
        .map(|r| {
            let s = &r.standing;
            json!({
                "rank": r.rank,
                "federation_id": r.federation_id,
                "name": s.name,
                "rating": two(s.rating.rating),
                "deviation": two(s.rating.deviation),
                "volatility": json!(format!("{:.6}", s.rating.volatility).parse::<f64>().expect("n")),
                "games": s.games,
                "events": s.events,
                "last_event": s.last_event.map(|d| d.to_string()),
                "provisional": s.rating.deviation > 110.0,
            })
        })
        .collect()
}

/// The table row of the list page that links to `id`'s page.
fn list_row<'a>(page: &'a str, id: &str) -> &'a str {
    let link = format!("href=\"/ratings/player/{}\"", path_id(id));
    let at = page
        .find(&link)
        .unwrap_or_else(|| panic!("no link {link} in the list"));
    let start = page[..at].rfind("<tr>").expect("the row's start");
    let end = at + page[at..].find("</tr>").expect("the row's end");
    &page[start..end]
}

fn the_rating_pages_show_the_list_and_histories_the_store_computed(engine: Engine) {
    let dir = tempfile::tempdir().expect("dir");
    let (mut store, address) = database(engine, dir.path());
    let events = rated_events(&mut store);
    let list = store.rating_list().expect("list");
    assert_eq!(
        list.len(),
        9,
        "8 players of the events and one first rating"
    );
    let provisional = list
        .iter()
        .filter(|r| r.standing.rating.deviation > 110.0)
        .count();
    assert!(
        provisional > 0 && provisional < list.len(),
        "the data has provisional ratings and others: {provisional}"
    );
    let server = serve_at(address);
    let addr = server.addr();

    // The API: the store's list, row for row.
    let api = json_of(&get(addr, "/api/ratings"));
    assert_eq!(api["players"], json!(9));
    assert_eq!(api["latest_event"], json!("2026-09-20"));
    assert_eq!(api["rows"], Value::Array(expected_rows(&list)));
    let endpoints = json_of(&get(addr, "/api/")).to_string();
    assert!(
        endpoints.contains("/api/ratings?q=TEXT")
            && endpoints.contains("/api/ratings/player/FEDERATION_ID"),
        "{endpoints}"
    );

    // The page: every row, numbers as printed, the provisional ones marked, every name
    // escaped; nothing of the registry beyond the list's columns.
    let reply = get(addr, "/ratings");
    let page = html_of(&reply);
    assert!(!page.contains(MARKUP_NAME) && !page.contains("Secret Club"));
    for r in &list {
        let row = list_row(page, &r.federation_id);
        let s = &r.standing;
        assert!(
            row.starts_with(&format!("<tr><td class=\"n\">{}</td>", r.rank)),
            "{row}"
        );
        for text in [
            escaped(&s.name),
            escaped(&r.federation_id),
            format!("<b>{:.2}</b>", s.rating.rating),
            format!("{:.2}", s.rating.deviation),
            s.last_event.map_or("–".into(), |d| d.to_string()),
        ] {
            assert!(row.contains(&text), "{text} in {row}");
        }
        assert_eq!(
            row.contains("title=\"Provisional"),
            s.rating.deviation > 110.0,
            "{row}"
        );
    }
    // The search is a plain form (no script); its text comes back escaped.
    assert!(page.contains("<form class=\"find\" action=\"/ratings\" method=\"get\""));
    let found = get(addr, "/ratings?q=SCRIPT");
    let found = html_of(&found);
    assert!(found.contains(&escaped(MARKUP_NAME)) && !found.contains(MARKUP_NAME));
    assert_eq!(
        found.matches("href=\"/ratings/player/").count(),
        1,
        "{found}"
    );
    let markup = get(addr, "/ratings?q=%3Cb%3E%26");
    let markup = html_of(&markup);
    assert!(markup.contains("value=\"&lt;b&gt;&amp;\"") && !markup.contains("<b>&"));
    assert!(markup.contains("Nobody found"), "{markup}");
    let by_id = json_of(&get(addr, "/api/ratings?q=ph%207"));
    assert_eq!(by_id["rows"].as_array().map(Vec::len), Some(1));
    assert_eq!(by_id["rows"][0]["federation_id"], json!(ODD_ID));
    assert_eq!(by_id["players"], json!(9));

    // Each player's history, as the store keeps it.
    for r in &list {
        let history = store.rating_history(r.player).expect("history");
        let id = path_id(&r.federation_id);
        let player = json_of(&get(addr, &format!("/api/ratings/player/{id}")));
        let mut want = expected_rows(std::slice::from_ref(r)).remove(0);
        want["of"] = json!(9);
        want["history"] = Value::Array(
            history
                .iter()
                .map(|h| {
                    let e = &h.rated;
                    json!({
                        "tournament": h.tournament.0,
                        "event": h.event,
                        "date": h.date.to_string(),
                        "name": e.name,
                        "before": two(e.before.rating),
                        "after": two(e.after.rating),
                        "change": two(e.after.rating - e.before.rating),
                        "deviation_before": two(e.before.deviation),
                        "deviation_after": two(e.after.deviation),
                        "games": e.games,
                        "score": halves(e.score.halves()),
                        "expected": two(e.expected),
                    })
                })
                .collect(),
        );
        assert_eq!(player, want, "{}", r.federation_id);

        let reply = get(addr, &format!("/ratings/player/{id}"));
        let page = html_of(&reply);
        for raw in [MARKUP_NAME, &MARKUP_EVENT[7..]] {
            let at = page.find(raw);
            assert!(
                at.is_none(),
                "{raw} unescaped on {id}'s page: {}",
                &page[at.unwrap_or(0).saturating_sub(200)..]
            );
        }
        assert!(page.contains(&format!("<h1>{}</h1>", escaped(&r.standing.name))));
        assert!(page.contains(&format!("rank {} of 9", r.rank)), "{page}");
        assert_eq!(page.contains("<svg class=\"plot\""), !history.is_empty());
        assert!(!page.contains("<script>") && !page.contains("<script src=\"http"));
        for h in &history {
            let e = &h.rated;
            for text in [
                format!(
                    "<a href=\"/t/{}/standings\">{}</a>",
                    h.tournament.0,
                    escaped(&h.event)
                ),
                format!("{:.2} → <b>{:.2}</b>", e.before.rating, e.after.rating),
                format!("± {:.2} → ± {:.2}", e.before.deviation, e.after.deviation),
                format!("{:.2}", e.expected),
            ] {
                assert!(page.contains(&text), "{text} on {id}'s page");
            }
        }
        if history.is_empty() {
            assert!(page.contains("first rating from the federation"), "{page}");
        }
    }
    // Player 1 played the first and last events, Player 20 none.
    let p1 = list.iter().find(|r| r.federation_id == "GGF-1").expect("1");
    let h1 = store.rating_history(p1.player).expect("history");
    assert_eq!(
        h1.iter().map(|h| h.tournament).collect::<Vec<_>>(),
        events,
        "oldest first"
    );

    // Not on the list: 404, as a page and in the API, whatever the id holds.
    for id in ["GGF-99", "ggf-1", "%3Cscript%3E", "GGF-1%20"] {
        for path in [
            format!("/ratings/player/{id}"),
            format!("/api/ratings/player/{id}"),
        ] {
            let r = get(addr, &path);
            assert_eq!(r.status, 404, "{path}: {}", r.head);
            assert!(!r.body.contains("<script>"), "{path}");
        }
    }
    let api404 = get(addr, "/api/ratings/player/GGF-99");
    assert_eq!(
        api404.header("content-type").as_deref(),
        Some("application/json")
    );

    // The index links to the list.
    let index = get(addr, "/");
    let index = html_of(&index);
    assert!(
        index.contains("<a class=\"card\" href=\"/ratings\">"),
        "{index}"
    );
    assert!(index.contains("9 players"), "{index}");
    server.stop();
}

fn a_changed_result_of_a_rated_event_reaches_the_open_rating_pages(engine: Engine) {
    let dir = tempfile::tempdir().expect("dir");
    let (mut store, address) = database(engine, dir.path());
    let events = rated_events(&mut store);
    let server = serve_at(address);
    let addr = server.addr();
    let before = json_of(&get(addr, "/api/ratings"));
    let player_page = format!("/ratings/player/{}", path_id(ODD_ID));
    let old_page = get(addr, &player_page);
    let old_etag = old_page.header("etag").expect("an ETag");
    assert_eq!(
        get(addr, &format!("/api/ratings/player/{}", path_id(ODD_ID))).status,
        200
    );
    let mut notices = Notices::open(addr, "/ratings/events");

    // The last event's game of the player with the odd id, in round 2, goes the other way.
    let last = *events.last().expect("events");
    let view = store
        .round_view(last, RoundNo(2))
        .expect("view")
        .expect("round 2");
    let board = view
        .boards
        .iter()
        .find(|b| b.white.name == name(7) || b.black.name == name(7))
        .expect("the player's board");
    let result = match board.result {
        GameResult::WhiteWins => GameResult::BlackWins,
        _ => GameResult::WhiteWins,
    };
    store
        .set_result(
            last,
            RoundNo(2),
            board.board,
            result,
            "corrected",
            &director(),
        )
        .expect("changed result");
    let list = store.rating_list().expect("list");
    server.check_now();
    let notice = notices
        .next_event()
        .expect("a change notice on the rating pages' stream");
    assert_eq!(notice.event, "change");
    let after = json_of(&get(addr, "/api/ratings"));
    assert_ne!(after, before, "the list moved");
    assert_eq!(after["rows"], Value::Array(expected_rows(&list)));
    // The player's page kept was made again.
    until(
        "the player's page made again",
        Duration::from_secs(60),
        || get(addr, &player_page).header("etag").as_deref() != Some(old_etag.as_str()),
    );
    let odd = list
        .iter()
        .find(|r| r.federation_id == ODD_ID)
        .expect("on the list");
    let page = get(addr, &player_page);
    assert!(
        html_of(&page).contains(&format!(
            "<b>{:.2}</b> ± {:.2}",
            odd.standing.rating.rating, odd.standing.rating.deviation
        )),
        "{}",
        page.body
    );
    server.stop();
}

fn without_a_rated_event_the_list_says_so_and_the_index_has_no_link(engine: Engine) {
    let dir = tempfile::tempdir().expect("dir");
    let (mut store, address) = database(engine, dir.path());
    store
        .import_tournament(&event_file("Unrated", &[1, 2, 3, 4], 2, 0), &director())
        .expect("import");
    let server = serve_at(address);
    let addr = server.addr();
    let index = get(addr, "/");
    let index = html_of(&index);
    assert!(index.contains("Unrated") && !index.contains("href=\"/ratings\""));
    let page = get(addr, "/ratings");
    assert!(html_of(&page).contains("No rated event yet"));
    let api = json_of(&get(addr, "/api/ratings"));
    assert_eq!(api["players"], json!(0));
    assert_eq!(api["rows"], json!([]));
    assert_eq!(api["latest_event"], Value::Null);
    assert_eq!(get(addr, "/ratings/player/GGF-1").status, 404);
    server.stop();
}

/// On a server, the rating pages are read as the public role, and are those of the same
/// database in a file, page for page.
#[test]
fn the_rating_pages_from_a_server_are_those_from_the_file() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("ratings.sqlite3");
    let mut file = Store::open(&path).expect("file");
    rated_events(&mut file);
    let list = file.rating_list().expect("list");
    let url = pg::new_database();
    let mut dst = Store::connect(&Address::Server(url.clone())).expect("server");
    file.copy_into(&mut dst).expect("copy onto the server");
    drop(dst);
    let from_file = serve_at(Address::File(path.clone()));
    let from_server = serve_at(Address::Server(url));
    let mut paths = vec![
        "/".to_string(),
        "/ratings".into(),
        "/ratings?q=player".into(),
        "/api/ratings".into(),
        "/api/ratings?q=GGF".into(),
        "/ratings/player/nobody".into(),
    ];
    for r in &list {
        let id = path_id(&r.federation_id);
        paths.push(format!("/ratings/player/{id}"));
        paths.push(format!("/api/ratings/player/{id}"));
    }
    for path in &paths {
        let a = get(from_file.addr(), path);
        let b = get(from_server.addr(), path);
        assert_eq!(a.status, b.status, "{path}");
        assert_eq!(a.body, b.body, "{path}: the same from either engine");
        assert_eq!(a.header("etag"), b.header("etag"), "{path}");
    }
    from_file.stop();
    from_server.stop();
}
