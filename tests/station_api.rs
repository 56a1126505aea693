//! Issue 32, part 2: the stations' HTTPS API on a real PostgreSQL cluster, through a real
//! HTTPS client that pins the event's authority. A station plays a game through it and the
//! director's store sees it; and the attacks: a game for a board that has its result (C3),
//! another tournament's game at the same table number (C4), input the rules refuse (S1), a
//! time the client chooses (S4), a body too large (S5), a wrong secret, another station's
//! table, a reset secret. Every refusal is checked with its exact status and words, and the
//! event is left exactly as it was (its dump); meanwhile another station and the director
//! go on.

#[path = "support/event.rs"]
mod event;
#[path = "support/https.rs"]
mod https;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;
#[path = "support/wait.rs"]
mod wait;

use ggdesk::station::{self, Limits, StationServer};
use ggdesk::store::{Actor, Address, AuditFilter, GameId, Store, TournamentId, now_ms};
use ggdesk::tls::Authority;
use ggdesk_core::record::{parse_event, parse_setup, setup_value};
use ggdesk_core::rules::{Event, Move, Side};
use ggdesk_core::tournament::{BoardNo, GameResult, RoundNo, TableNo};
use https::{Answer, Client};
use serde_json::{Value, json};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

static NEXT: AtomicU32 = AtomicU32::new(1);

/// An event on its own database with the stations' API running: tournament `t1` (8
/// players, round 1 in play at tables 1 to 4) with stations hall-a (tables 1, 2) and hall-b
/// (3, 4); tournament `t2` (4 players, round 1 in play at tables 1 and 2) with station
/// hall-c (tables 1, 2).
struct Api {
    db: String,
    url: String,
    director: Store,
    t1: TournamentId,
    t2: TournamentId,
    server: StationServer,
    fingerprint: String,
    client: Client,
    a: String,
    b: String,
    c: String,
}

fn api() -> Api {
    api_with(Limits::default())
}

fn api_with(limits: Limits) -> Api {
    let cluster = pg::cluster();
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let pid = std::process::id();
    let (login, db) = (format!("apidir_{pid}_{n}"), format!("api_{pid}_{n}"));
    let url = cluster.director_database(&login, &db);
    let mut director = event::connect(&url);
    let d = Actor::director();
    let t1 = trust::tournament(&mut director, "x", 8);
    director.publish_round(t1, RoundNo(1), &d).expect("publish");
    let t2 = trust::tournament(&mut director, "y", 4);
    director.publish_round(t2, RoundNo(1), &d).expect("publish");
    let mut station = |name: &str, tid: TournamentId, tables: [u32; 2]| {
        director
            .add_station(name, tid, &tables.map(TableNo), &d)
            .expect("station and its secret")
    };
    let a = station("hall-a", t1, [1, 2]);
    let b = station("hall-b", t1, [3, 4]);
    let c = station("hall-c", t2, [1, 2]);
    let ca = Authority::create("ggdesk station API test").expect("authority");
    let cert = ca.issue(&["127.0.0.1".into()]).expect("certificate");
    let tls = Arc::new(cert.server_config().expect("TLS"));
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let server =
        station::spawn_with(listener, tls, Address::Server(url.clone()), limits).expect("spawn");
    let fingerprint = ca.fingerprint();
    let client = Client::new(server.addr(), &fingerprint);
    Api {
        db,
        url,
        director,
        t1,
        t2,
        server,
        fingerprint,
        client,
        a,
        b,
        c,
    }
}

impl Api {
    fn board_at(&self, tid: TournamentId, table: u32) -> BoardNo {
        self.director
            .round_view(tid, RoundNo(1))
            .expect("view")
            .expect("round 1")
            .boards
            .iter()
            .find(|b| b.table == TableNo(table))
            .expect("the table")
            .board
    }

    /// Creates the game at `table` through the API: its id.
    fn create(&self, station: &str, secret: &str, table: u32) -> GameId {
        let r = self.client.post(
            &format!("/{station}/games"),
            secret,
            &json!({ "table": table }),
        );
        assert_eq!(r.status, 201, "{}", r.text);
        GameId(r.json["game"].as_i64().expect("a game id"))
    }

    /// Creates the game at `table`, enters both setups and starts it (White first): its id.
    fn started(&self, station: &str, secret: &str, table: u32) -> GameId {
        let id = self.create(station, secret, table);
        let setups = event::setups(u64::from(table));
        for side in Side::BOTH {
            let r = self.client.put(
                &format!("/{station}/games/{id}/setup/{}", side.name()),
                secret,
                &setup_value(&setups[side]),
            );
            assert_eq!(r.status, 200, "{}", r.text);
        }
        let r = self.client.post(
            &format!("/{station}/games/{id}/start"),
            secret,
            &json!({ "first": "white" }),
        );
        assert_eq!(r.status, 200, "{}", r.text);
        id
    }

    /// A legal move of the side to move, as the API takes it.
    fn legal_move(&self, id: GameId) -> Value {
        match event::games::first_legal(&self.director, id) {
            Event::Move { mv, .. } => json!({ "move": mv.to_string() }),
            other => panic!("a move: {other:?}"),
        }
    }

    fn dump(&self) -> String {
        trust::dump(&self.db)
    }
}

/// Asserts a refusal's exact status and words.
fn refused(r: &Answer, status: u16, error: &str) {
    assert_eq!(
        (r.status, r.error()),
        (status, error),
        "the whole answer: {}",
        r.text
    );
}

#[test]
fn a_station_plays_a_game_through_the_api_and_the_director_sees_it() {
    let api = api();
    let (c, a) = (&api.client, api.a.as_str());
    let before = now_ms();
    let me = c.get("/hall-a", a);
    let after = now_ms();
    assert_eq!(me.status, 200, "{}", me.text);
    // The server's clock, for the desk to show the clocks on the server's time.
    let server_now = me.json["now"].as_i64().expect("the server's time");
    assert!((before..=after).contains(&server_now), "{}", me.text);
    let rules = api
        .director
        .tournament_rules(api.t1)
        .expect("rules")
        .to_value();
    assert_eq!(
        me.json,
        json!({
            "now": server_now,
            "station": "hall-a",
            "tournament": { "id": api.t1.0, "name": "Open x" },
            "tables": [1, 2],
            "round": { "number": 1, "state": "published" },
            "rules": rules,
        })
    );
    let boards = c.get("/hall-a/boards", a);
    assert_eq!(boards.status, 200, "{}", boards.text);
    let tables: Vec<i64> = boards.json["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| b["table"].as_i64().expect("table"))
        .collect();
    assert_eq!(tables, [1, 2]);
    assert_eq!(boards.json["boards"][0]["status"], "awaiting_result");
    assert_eq!(boards.json["boards"][0]["game"], Value::Null);

    let mut stream = c.stream("/hall-a/stream", a);
    assert_eq!(stream.status, 200);
    assert!(stream.wait_for(": open"), "opened: {}", stream.seen);

    let id = api.create("hall-a", a, 1);
    assert!(
        stream.wait_for("event: change"),
        "a change announced: {}",
        stream.seen
    );
    let setups = event::setups(7);
    for side in Side::BOTH {
        let r = c.put(
            &format!("/hall-a/games/{id}/setup/{}", side.name()),
            a,
            &setup_value(&setups[side]),
        );
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["pieces"], 21);
    }
    let lots = c.post(&format!("/hall-a/games/{id}/lots"), a, &json!({}));
    assert_eq!(lots.status, 200, "{}", lots.text);
    let first = lots.json["first"].as_str().expect("a side").to_string();
    let start = c.post(&format!("/hall-a/games/{id}/start"), a, &json!({}));
    assert_eq!(start.status, 200, "{}", start.text);
    assert_eq!(start.json["first"], first.as_str(), "the lots' side");

    let mv = api.legal_move(id);
    let r = c.post(&format!("/hall-a/games/{id}/events"), a, &mv);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (r.json["seq"].as_i64(), r.json["state"].as_str()),
        (Some(0), Some("playing"))
    );
    let r = c.post(
        &format!("/hall-a/games/{id}/events"),
        a,
        &json!({ "resign": "black" }),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["state"], "finished");
    let r = c.post(&format!("/hall-a/games/{id}/confirm"), a, &json!({}));
    assert_eq!(r.status, 200, "{}", r.text);

    // The game as the station reads it: its record as `export_game` gives it.
    let read = c.get(&format!("/hall-a/games/{id}"), a);
    assert_eq!(read.status, 200, "{}", read.text);
    assert_eq!(
        read.json["record"],
        api.director.export_game(id).expect("record")
    );
    assert_eq!(read.json["table"], 1);

    // The director's store sees it: the events, the board's result, the audit lines.
    let stored = api.director.load_game(id).expect("game");
    assert_eq!(stored.events.len(), 2);
    let view = api
        .director
        .round_view(api.t1, RoundNo(1))
        .expect("view")
        .expect("round");
    let board = view
        .boards
        .iter()
        .find(|b| b.table == TableNo(1))
        .expect("table 1");
    assert_eq!(board.result, GameResult::WhiteWins);
    assert_eq!(board.game, Some(id));
    assert!(api.director.result_confirmed(id).expect("confirmed"));
    let lines = api
        .director
        .audit_log(AuditFilter::Game(id.0))
        .expect("audit");
    assert!(lines.len() >= 6, "{lines:#?}");
    assert!(
        lines.iter().all(|l| l.actor == "station hall-a"),
        "every line the station's: {lines:#?}"
    );
}

#[test]
fn a_station_undoes_and_corrects_through_the_api_with_its_reasons() {
    let mut api = api();
    let (c, a) = (&api.client, api.a.clone());
    let id = api.started("hall-a", &a, 2);
    let mv = api.legal_move(id);
    let events = format!("/hall-a/games/{id}/events");
    assert_eq!(c.post(&events, &a, &mv).status, 200);
    // An undo without a reason: the store's words, and nothing written.
    let no_reason = api
        .director
        .undo_last_event(id, 0.0, &Actor::director(), "")
        .expect_err("a reason is required");
    refused(
        &c.post(
            &format!("/hall-a/games/{id}/undo"),
            &a,
            &json!({ "reason": "" }),
        ),
        422,
        &no_reason.to_string(),
    );
    let r = c.post(
        &format!("/hall-a/games/{id}/undo"),
        &a,
        &json!({ "reason": "entered on the wrong table" }),
    );
    assert_eq!(
        (r.status, r.json["undone"].as_i64()),
        (200, Some(0)),
        "{}",
        r.text
    );
    assert_eq!(c.post(&events, &a, &mv).status, 200);
    let (_, other) = trust::made_and_other(&api.director, id);
    let r = c.post(
        &format!("/hall-a/games/{id}/correct"),
        &a,
        &json!({ "move": other.to_string(), "reason": "the arbiter misread the move" }),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    let stored = api.director.load_game(id).expect("game");
    let in_force: Vec<Value> = stored
        .effective()
        .iter()
        .map(|(_, _, e)| e.value(0.0))
        .collect();
    assert_eq!(in_force, [json!({ "t": 0.0, "move": other.to_string() })]);
    let lines = api
        .director
        .audit_log(AuditFilter::Game(id.0))
        .expect("audit");
    let said = |action: &str, reason: &str| {
        lines
            .iter()
            .any(|l| l.action == action && l.reason == reason && l.actor == "station hall-a")
    };
    assert!(said("undo", "entered on the wrong table"), "{lines:#?}");
    assert!(
        said("move corrected", "the arbiter misread the move"),
        "{lines:#?}"
    );
}

#[test]
fn c3_no_game_is_created_for_a_board_that_has_its_result() {
    let mut api = api();
    let board = api.board_at(api.t1, 2);
    api.director
        .set_result(
            api.t1,
            RoundNo(1),
            board,
            GameResult::Draw,
            "",
            &Actor::director(),
        )
        .expect("result by hand");
    let before = api.dump();
    let r = api
        .client
        .post("/hall-a/games", &api.a, &json!({ "table": 2 }));
    refused(
        &r,
        409,
        "the board at table 2 has its result (draw): no game is created for it",
    );
    assert_eq!(api.dump(), before, "nothing written");
    // The station's other table is still its own.
    api.create("hall-a", &api.a, 1);
}

#[test]
fn c4_another_tournaments_game_at_the_same_table_number_is_neither_read_nor_written() {
    let api = api();
    let mine = api.started("hall-a", &api.a, 1);
    let theirs = api.started("hall-c", &api.c, 1);
    let before = api.dump();
    let words = |station: &str, t: TournamentId, id: GameId| {
        format!(
            "game {id} is not a game at the tables of station {station} in tournament {t}'s round in play"
        )
    };
    let c = &api.client;
    let a_on_c = words("hall-a", api.t1, theirs);
    refused(
        &c.get(&format!("/hall-a/games/{theirs}"), &api.a),
        403,
        &a_on_c,
    );
    refused(
        &c.post(
            &format!("/hall-a/games/{theirs}/events"),
            &api.a,
            &api.legal_move(theirs),
        ),
        403,
        &a_on_c,
    );
    refused(
        &c.post(
            &format!("/hall-a/games/{theirs}/undo"),
            &api.a,
            &json!({ "reason": "mine" }),
        ),
        403,
        &a_on_c,
    );
    refused(
        &c.get(&format!("/hall-c/games/{mine}"), &api.c),
        403,
        &words("hall-c", api.t2, mine),
    );
    // A game that does not exist reads the same.
    refused(
        &c.get("/hall-a/games/999999", &api.a),
        403,
        &words("hall-a", api.t1, GameId(999_999)),
    );
    // Another station's table of its own tournament.
    refused(
        &c.post("/hall-b/games", &api.b, &json!({ "table": 1 })),
        403,
        "table 1 is not a table of station hall-b",
    );
    refused(
        &c.get(&format!("/hall-b/games/{mine}"), &api.b),
        403,
        &words("hall-b", api.t1, mine),
    );
    // One station's secret does not open another.
    refused(
        &c.get("/hall-b", &api.a),
        401,
        "the secret is not station hall-b's",
    );
    assert_eq!(api.dump(), before, "nothing written");
}

#[test]
fn s1_input_the_rules_refuse_is_422_naming_the_fault_and_nothing_is_written() {
    let api = api();
    let id = api.started("hall-a", &api.a, 1);
    let c = &api.client;
    let before = api.dump();
    let bad_square = "z9-a1".parse::<Move>().expect_err("no square z9");
    refused(
        &c.post(
            &format!("/hall-a/games/{id}/events"),
            &api.a,
            &json!({ "move": "z9-a1" }),
        ),
        422,
        &format!("the event: {bad_square}"),
    );
    let bad_setup = json!({ "a1": "XXX" });
    let setup_fault = parse_setup(&bad_setup, Side::White).expect_err("no piece XXX");
    refused(
        &c.put(
            &format!("/hall-a/games/{id}/setup/white"),
            &api.a,
            &bad_setup,
        ),
        422,
        &setup_fault.to_string(),
    );
    refused(
        &c.post(
            &format!("/hall-a/games/{id}/correct"),
            &api.a,
            &json!({ "move": "a1", "reason": "typo" }),
        ),
        422,
        &format!("move: {}", "a1".parse::<Move>().expect_err("no move")),
    );
    let rules = br#"{"table": 2, "rules": "abc"}"#;
    let rules_fault =
        serde_json::from_slice::<station::wire::CreateGame>(rules).expect_err("no rules key");
    refused(
        &c.request("POST", "/hall-a/games", Some(&api.a), rules),
        400,
        &format!("the body: {rules_fault}"),
    );
    refused(
        &c.request(
            "POST",
            &format!("/hall-a/games/{id}/events"),
            Some(&api.a),
            b"{\"move\":",
        ),
        400,
        &format!(
            "the body: {}",
            serde_json::from_slice::<Value>(b"{\"move\":").expect_err("not JSON")
        ),
    );
    refused(
        &c.post(
            &format!("/hall-a/games/{id}/events"),
            &api.a,
            &json!({ "move": "a1-a2", "by": "purple" }),
        ),
        422,
        &format!(
            "the event: {}",
            parse_event(&json!({ "t": 0, "move": "a1-a2", "by": "purple" })).expect_err("no side")
        ),
    );
    assert_eq!(api.dump(), before, "nothing written");
}

#[test]
fn s4_the_server_stamps_every_time_and_a_clients_time_has_no_effect() {
    let api = api();
    let c = &api.client;
    let id = api.create("hall-a", &api.a, 1);
    let setups = event::setups(3);
    for side in Side::BOTH {
        let r = c.put(
            &format!("/hall-a/games/{id}/setup/{}", side.name()),
            &api.a,
            &setup_value(&setups[side]),
        );
        assert_eq!(r.status, 200, "{}", r.text);
    }
    // A start at a time of the client's choosing: no such field.
    let r = c.post(
        &format!("/hall-a/games/{id}/start"),
        &api.a,
        &json!({ "started_at": 1 }),
    );
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.error()
            .starts_with("the body: unknown field `started_at`"),
        "{}",
        r.text
    );
    let before_start = now_ms();
    let r = c.post(&format!("/hall-a/games/{id}/start"), &api.a, &json!({}));
    let after_start = now_ms();
    assert_eq!(r.status, 200, "{}", r.text);
    let started_at = r.json["started_at"].as_i64().expect("started_at");
    assert!((before_start..=after_start).contains(&started_at));
    let stored = api.director.load_game(id).expect("game");
    assert_eq!(stored.meta.started_at, Some(started_at));

    // An event with its own time is refused, and nothing is written.
    let mut mv = api.legal_move(id);
    mv["t"] = json!(0.5);
    let dumped = api.dump();
    refused(
        &c.post(&format!("/hall-a/games/{id}/events"), &api.a, &mv),
        422,
        "t: the server stamps every event's time by its own clock; send the event without \"t\"",
    );
    assert_eq!(api.dump(), dumped, "nothing written");

    // Without it, the server's clock decides its t and the audit line's time.
    let mv = api.legal_move(id);
    let before = now_ms();
    let r = c.post(&format!("/hall-a/games/{id}/events"), &api.a, &mv);
    let after = now_ms();
    assert_eq!(r.status, 200, "{}", r.text);
    let stored = api.director.load_game(id).expect("game");
    let t = stored.events[0].t;
    let secs = |ms: i64| (ms - started_at) as f64 / 1000.0;
    assert!(
        secs(before) - 0.001 <= t && t <= secs(after) + 0.001,
        "t = {t} between {} and {}",
        secs(before),
        secs(after)
    );
    assert_eq!(r.json["t"].as_f64(), Some(t));
    let lines = api
        .director
        .audit_log(AuditFilter::Game(id.0))
        .expect("audit");
    let last = lines.last().expect("a line");
    assert_eq!(last.actor, "station hall-a");
    assert!(
        (before..=after).contains(&last.at),
        "the audit line's time {} is the server's, between {before} and {after}",
        last.at
    );
}

#[test]
fn s5_a_body_over_64_kib_is_413_and_nothing_is_written() {
    let api = api();
    let id = api.create("hall-a", &api.a, 1);
    let before = api.dump();
    let mut big = br#"{"a1": "FLG", "pad": ""#.to_vec();
    big.resize(64 * 1024 + 1, b' ');
    let r = api.client.request(
        "PUT",
        &format!("/hall-a/games/{id}/setup/white"),
        Some(&api.a),
        &big,
    );
    refused(&r, 413, "the body is larger than 64 KiB");
    assert_eq!(api.dump(), before, "nothing written");
    // Exactly 64 KiB is read (and refused for what it says, not its size).
    big.truncate(64 * 1024);
    let r = api.client.request(
        "PUT",
        &format!("/hall-a/games/{id}/setup/white"),
        Some(&api.a),
        &big,
    );
    assert_eq!(r.status, 400, "{}", r.text);
}

#[test]
fn a_wrong_or_missing_secret_is_401() {
    let api = api();
    let c = &api.client;
    refused(
        &c.get("/hall-a", "0123456789abcdef0123456789abcdef"),
        401,
        "the secret is not station hall-a's",
    );
    refused(
        &c.request("GET", "/hall-a/boards", None, b""),
        401,
        "a request needs the header Authorization: Bearer SECRET (the secret of the station's card)",
    );
    refused(
        &c.get("/no-such-station", &api.a),
        401,
        "the secret is not station no-such-station's",
    );
    refused(
        &c.request("GET", "/hall-a/games", Some(&api.a), b""),
        405,
        "GET /hall-a/games: this endpoint takes POST only",
    );
}

#[test]
fn a_reset_ends_the_open_stream_at_once_and_the_old_secret_fails() {
    let mut api = api();
    let c = &api.client;
    let mut stream = c.stream("/hall-a/stream", &api.a);
    assert_eq!(stream.status, 200);
    assert!(stream.wait_for(": open"), "{}", stream.seen);
    let new = api
        .director
        .issue_station_secret("hall-a", api.t1, &Actor::director())
        .expect("reset");
    api.server.end_station("hall-a");
    assert!(stream.wait_end(), "the stream ended: {}", stream.seen);
    refused(
        &c.get("/hall-a", &api.a),
        401,
        "the secret is not station hall-a's",
    );
    assert_eq!(c.get("/hall-a", &new).status, 200);
    // The other stations were not touched.
    assert_eq!(c.get("/hall-b", &api.b).status, 200);
}

#[test]
fn a_reset_made_by_another_process_ends_the_stream_too() {
    let api = api();
    let mut stream = api.client.stream("/hall-b/stream", &api.b);
    assert!(stream.wait_for(": open"), "{}", stream.seen);
    // The director's desk on another laptop: only the database knows.
    let mut elsewhere = event::connect(&api.url);
    elsewhere
        .issue_station_secret("hall-b", api.t1, &Actor::director())
        .expect("reset");
    assert!(stream.wait_end(), "the stream ended: {}", stream.seen);
    refused(
        &api.client.get("/hall-b", &api.b),
        401,
        "the secret is not station hall-b's",
    );
}

#[test]
fn a_station_over_its_rate_is_answered_429() {
    let api = api_with(Limits {
        rate_per_second: 0.001,
        rate_burst: 3.0,
        ..Limits::default()
    });
    for _ in 0..3 {
        assert_eq!(api.client.get("/hall-a", &api.a).status, 200);
    }
    refused(
        &api.client.get("/hall-a", &api.a),
        429,
        "station hall-a sends more than 0.001 requests a second: slow down",
    );
    // Its own rate only: another station goes on.
    assert_eq!(api.client.get("/hall-b", &api.b).status, 200);
}

#[test]
fn while_a_station_attacks_another_station_and_the_director_go_on() {
    let mut api = api();
    let id = api.started("hall-a", &api.a, 1);
    let attacker = Client::new(api.server.addr(), &api.fingerprint);
    let secret = api.a.clone();
    let t2_board = api.board_at(api.t2, 2);
    std::thread::scope(|s| {
        let attack = s.spawn(|| {
            let bad_square = "z9-a1".parse::<Move>().expect_err("no square z9");
            for _ in 0..6 {
                refused(
                    &attacker.post(
                        &format!("/hall-a/games/{id}/events"),
                        &secret,
                        &json!({ "move": "z9-a1" }),
                    ),
                    422,
                    &format!("the event: {bad_square}"),
                );
                let big = vec![b' '; 64 * 1024 + 1];
                refused(
                    &attacker.request(
                        "POST",
                        &format!("/hall-a/games/{id}/events"),
                        Some(&secret),
                        &big,
                    ),
                    413,
                    "the body is larger than 64 KiB",
                );
                refused(
                    &attacker.get("/hall-a", "ffffffffffffffffffffffffffffffff"),
                    401,
                    "the secret is not station hall-a's",
                );
            }
        });
        // Meanwhile hall-b plays at table 3 and the director records a result by hand.
        let other = api.started("hall-b", &api.b, 3);
        let r = api.client.post(
            &format!("/hall-b/games/{other}/events"),
            &api.b,
            &api.legal_move(other),
        );
        assert_eq!(r.status, 200, "{}", r.text);
        api.director
            .set_result(
                api.t2,
                RoundNo(1),
                t2_board,
                GameResult::BlackWins,
                "",
                &Actor::director(),
            )
            .expect("the director's result");
        attack.join().expect("the attack's checks");
    });
    assert_eq!(
        api.director.load_game(id).expect("game").events.len(),
        0,
        "the attacked game is as it was"
    );
}

/// A station holds no connection of the database's (it speaks HTTPS to the event server,
/// which writes on its own connections): 250 stations on a server of 300 connections, and
/// not one of them a login.
#[test]
fn stations_need_no_connection_room_and_are_no_logins() {
    let mut api = api();
    let d = Actor::director();
    // The roles named after the event's database, as a station's login was (other tests
    // make directors' logins on the cluster meanwhile).
    let like = format!(
        "SELECT count(*) FROM pg_roles WHERE rolname LIKE '{}\\_%'",
        api.db
    );
    let roles = || pg::cluster().psql("postgres", &like);
    let before = roles();
    for n in 3..250 {
        let table = TableNo(100 + n as u32);
        api.director
            .add_station(&format!("extra-{n}"), api.t1, &[table], &d)
            .expect("a station");
    }
    assert_eq!(api.director.stations().expect("stations").len(), 250);
    assert_eq!(roles(), before, "no station is a login");
}

/// A team event's match at table 1 (two boards: tables 1 and 2) is run by the station of
/// tables 1-2 (spec/teams.md "Tables"): it sees the match's boards and their players, makes
/// and plays the game of a board, and the board's result reaches the director's match; the
/// other match's tables are not the station's.
#[test]
fn a_station_runs_the_boards_of_its_team_match() {
    use ggdesk_core::export::import_team_players_csv;
    use ggdesk_core::rules::RuleSettings;
    use ggdesk_core::teams::{TeamEvent, TeamShape};
    use ggdesk_core::tournament::PointsScale;
    let mut api = api();
    let d = Actor::director();
    let e = TeamEvent::preset(TeamShape::Swiss, "League", PointsScale::default(), 2, 3);
    let t = api
        .director
        .create_team_event(&e, &RuleSettings::default(), &d)
        .expect("a team event");
    let rows = import_team_players_csv(
        "team,name,federation_id,club,rating\n\
         Tigers,Ana,,,1900\nTigers,Ben,,,1800\n\
         Eagles,Dee,,,1600\nEagles,Eve,,,1500\n\
         Sharks,Fay,,,1400\nSharks,Gil,,,1300\n\
         Bears,Hal,,,1200\nBears,Ivy,,,1100\n",
    )
    .expect("read");
    api.director.import_teams(t, &rows, &d).expect("teams");
    let n = api.director.pair_team_round(t, &d).expect("paired");
    api.director
        .publish_team_round(t, n, &d)
        .expect("published");
    let secret = api
        .director
        .add_station("team-a", t, &[TableNo(1), TableNo(2)], &d)
        .expect("the station");
    let c = &api.client;
    let me = c.get("/team-a", &secret);
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(
        (&me.json["tournament"], &me.json["round"]),
        (
            &json!({ "id": t.0, "name": "League" }),
            &json!({ "number": 1, "state": "published" })
        )
    );
    let boards = c.get("/team-a/boards", &secret);
    assert_eq!(boards.status, 200, "{}", boards.text);
    let seen: Vec<(i64, String, String)> = boards.json["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .map(|b| {
            (
                b["table"].as_i64().expect("table"),
                b["white"]["name"].as_str().expect("white").to_string(),
                b["black"]["name"].as_str().expect("black").to_string(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (1, "Ana".to_string(), "Fay".to_string()),
            (2, "Gil".to_string(), "Ben".to_string())
        ]
    );
    let r = c.post("/team-a/games", &secret, &json!({ "table": 3 }));
    refused(&r, 403, "table 3 is not a table of station team-a");
    let id = api.started("team-a", &secret, 2);
    let r = c.post(
        &format!("/team-a/games/{id}/events"),
        &secret,
        &json!({ "resign": "white" }),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["state"], "finished");
    // The station rules hold for a team board as for any: a board with its result gets no
    // other game, and a finished game takes no more events.
    let again = c.post("/team-a/games", &secret, &json!({ "table": 2 }));
    refused(
        &again,
        409,
        "the board at table 2 has its result (black): no game is created for it",
    );
    let r = c.post(
        &format!("/team-a/games/{id}/events"),
        &secret,
        &json!({ "resign": "black" }),
    );
    refused(
        &r,
        409,
        "the board at table 2 has its result (black): only the director changes it",
    );
    let rounds = api.director.team_rounds(t).expect("rounds");
    let m = &rounds[0].round.matches[0];
    assert_eq!(
        (m.boards[0].result, m.boards[1].result),
        (GameResult::Pending, GameResult::BlackWins)
    );
    let line = api
        .director
        .audit_log(AuditFilter::Game(id.0))
        .expect("audit")
        .into_iter()
        .find(|l| l.action == "result from the arbiter desk")
        .expect("the board's result line");
    assert_eq!(line.actor, "station team-a");
}
