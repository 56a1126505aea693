//! The pages while the event goes on: a result entered at the desk reaches an open page's
//! stream by itself; one change is one notice to every open page; the pages keep serving
//! what they last read, saying as of when, while the event server is down, and come back
//! by themselves; and what a phone downloads is compressed (a 500-player event's standings
//! in under 20 KB).

#[path = "support/pg.rs"]
mod pg;
mod serve_support;

use ggdesk::serve::{ServeConfig, Server};
use ggdesk::store::{Address, Store, TournamentId};
use ggdesk::tournament::GameResult;
use ggdesk_core::tournament::{Game, Player, PlayerId, Round, Settings, TableNo, Tournament};
use serve_support::{Notices, director, get, hall, request, serve, until};
use std::io::Read;
use std::time::Duration;

/// Long enough for anything this machine does under load.
const PATIENCE: Duration = Duration::from_secs(60);

/// Enters a result at table `table` of the hall's round in play, through the desk's store.
fn result_at(h: &serve_support::Hall, table: u32, result: GameResult) {
    let mut store = Store::open(&h.path).expect("desk");
    let board = store
        .round_view(h.tid, h.round)
        .expect("view")
        .expect("round")
        .boards
        .iter()
        .find(|b| b.table == TableNo(table))
        .expect("the table")
        .board;
    store
        .set_result(h.tid, h.round, board, result, "correction", &director())
        .expect("result");
}

/// The result shown for `table` on the API's round in play.
fn shown_result(addr: std::net::SocketAddr, h: &serve_support::Hall, table: u64) -> String {
    let r = get(addr, &format!("/api/t/{}/round", h.tid));
    let v: serde_json::Value = serde_json::from_str(&r.body).expect("json");
    v["boards"]
        .as_array()
        .expect("boards")
        .iter()
        .find(|b| b["table"] == table)
        .map(|b| b["result"].as_str().expect("result").to_string())
        .expect("the table")
}

#[test]
fn a_result_entered_at_the_desk_reaches_an_open_page_by_itself() {
    let h = hall();
    // As `ggdesk serve` runs: nothing here tells the server to look.
    let server = serve(&h.path);
    let addr = server.addr();
    let mut page = Notices::open(addr, &format!("/t/{}/events", h.tid));
    assert_eq!(shown_result(addr, &h, 5), "draw");
    result_at(&h, 5, GameResult::WhiteWins);
    let notice = page.next_event().expect("a notice within 60 s");
    assert_eq!(notice.event, "change");
    assert!(
        notice.data.parse::<u64>().is_ok_and(|n| n > 0),
        "{notice:?}"
    );
    // Told, the page fetches itself again and finds the result.
    assert_eq!(shown_result(addr, &h, 5), "white");
    let body = get(addr, &format!("/t/{}", h.tid)).body;
    let row = &body[body.find("<small>Table</small>5</div>").expect("row 5")..];
    assert!(row[..row.find("</li>").expect("end")].contains("<b>1–0</b>"));
}

#[test]
fn one_change_is_one_notice_to_every_open_page_of_its_tournament() {
    let h = hall();
    let server = serve(&h.path);
    let addr = server.addr();
    let mut pages: Vec<Notices> = (0..5)
        .map(|_| Notices::open(addr, &format!("/t/{}/events", h.tid)))
        .collect();
    // The event's list shows no result: its pages are not told of one.
    let mut list = Notices::open(addr, "/events");
    result_at(&h, 5, GameResult::BlackWins);
    server.check_now();
    let first: Vec<String> = pages
        .iter_mut()
        .map(|p| p.next_event().expect("a notice").data)
        .collect();
    assert!(first.iter().all(|d| *d == first[0]), "{first:?}");
    // The next notice each page gets is the next change's, not the first one again.
    result_at(&h, 5, GameResult::WhiteWins);
    server.check_now();
    for p in &mut pages {
        let next = p.next_event().expect("a notice").data;
        assert_ne!(next, first[0], "the first change was told twice");
        assert!(
            next.parse::<u64>().expect("a serial") > first[0].parse::<u64>().expect("a serial")
        );
    }
    // A new tournament changes the list: its pages are told (and this is their first
    // notice, so they were not told of the results).
    let mut store = Store::open(&h.path).expect("desk");
    let setup = ggdesk::store::TournamentSetup {
        name: "Juniors".into(),
        ..Default::default()
    };
    store.create_tournament(&setup, &director()).expect("new");
    server.check_now();
    let notice = list.next_event().expect("a notice for the list");
    assert!(
        notice.data.parse::<u64>().expect("a serial")
            > first[0].parse::<u64>().expect("a serial") + 1,
        "the list's first notice is the new tournament's: {notice:?}"
    );
}

#[test]
fn a_tournament_not_in_the_event_has_no_stream() {
    let h = hall();
    let server = serve(&h.path);
    let r = request(server.addr(), "GET", "/t/99/events", "");
    assert_eq!(r.status, 404);
}

/// The hall copied onto a database of a cluster this test may stop; that database's URL.
fn hall_on_own_cluster(cluster: &pg::Cluster) -> (serve_support::Hall, String) {
    let h = hall();
    // A second tournament, which no page asks for until the server is down.
    let setup = ggdesk::store::TournamentSetup {
        name: "Juniors".into(),
        ..Default::default()
    };
    Store::open(&h.path)
        .expect("file")
        .create_tournament(&setup, &director())
        .expect("a second tournament");
    let url = cluster.new_database();
    let src = Store::open(&h.path).expect("file");
    let mut dst = Store::connect(&Address::Server(url.clone())).expect("server");
    src.copy_into(&mut dst)
        .expect("copy the hall onto the server");
    (h, url)
}

/// The line every page shows while the database cannot be read.
fn stale_line(body: &str) -> Option<String> {
    let start = body.find("<p class=\"stale\"")?;
    let end = body[start..].find("</p>")? + start;
    let inner = &body[start..end];
    Some(inner[inner.find('>')? + 1..].to_string())
}

#[test]
fn while_the_event_server_is_down_the_pages_show_the_last_view_as_of_when_and_come_back() {
    let cluster = pg::own_cluster("serve-stale");
    let (h, url) = hall_on_own_cluster(&cluster);
    let mut config = ServeConfig::new(
        Address::Server(url.clone()),
        "127.0.0.1:0".parse().expect("addr"),
    );
    config.limits.response_timeout = Duration::from_secs(30);
    let server = Server::start(&config).expect("server starts");
    let addr = server.addr();
    let round = format!("/t/{}", h.tid);
    let standings = format!("/t/{}/standings", h.tid);
    for p in [&round, &standings, &"/".to_string()] {
        let r = get(addr, p);
        assert_eq!(r.status, 200, "{p}");
        assert_eq!(stale_line(&r.body), None, "{p}: current");
    }
    let before = get(addr, &round).body;
    let api_before = get(addr, &format!("/api/t/{}/standings", h.tid));
    assert_eq!(api_before.header("ggdesk-stale"), None);
    let api_before = api_before.body;
    let mut page = Notices::open(addr, &format!("/t/{}/events", h.tid));

    cluster.stop();
    // Every open page is told, and every page read before says as of when.
    page.next_event()
        .expect("a notice that the pages went stale");
    until("the pages say they are stale", PATIENCE, || {
        stale_line(&get(addr, &round).body).is_some()
    });
    let stale = get(addr, &round);
    assert_eq!(stale.status, 200);
    let line = stale_line(&stale.body).expect("the stale line");
    let (as_of, rest) = line.split_at(line.find(" \u{2014} ").expect("a dash"));
    let time = as_of.strip_prefix("as of ").expect("as of");
    assert!(
        time.len() == 5
            && time.as_bytes()[2] == b':'
            && time[..2].parse::<u32>().is_ok_and(|h| h < 24)
            && time[3..].parse::<u32>().is_ok_and(|m| m < 60),
        "{line}"
    );
    assert_eq!(rest, " \u{2014} results since then are not shown yet");
    // For a human to look at (serve_browser.rs takes the screenshots of the live pages).
    let shots = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target folder")
        .join("serve-shots");
    std::fs::create_dir_all(&shots).expect("shots folder");
    std::fs::write(shots.join("stale-round.html"), &stale.body).expect("write");
    // The rest of the page is what it was.
    assert_eq!(
        stale.body.replace(
            &format!("<p class=\"stale\" role=\"status\">{line}</p>\n"),
            ""
        ),
        before
    );
    assert!(stale_line(&get(addr, &standings).body).is_some());
    assert!(stale_line(&get(addr, "/").body).is_some());
    // The JSON keeps its shape (the same body as before) and says as of when in a header,
    // as the list of endpoints does.
    let json = get(addr, &format!("/api/t/{}/standings", h.tid));
    assert_eq!(json.status, 200);
    assert_eq!(json.body, api_before);
    assert_eq!(json.header("ggdesk-stale"), Some(format!("as of {time}")));
    assert_eq!(
        get(addr, "/api/").header("ggdesk-stale"),
        Some(format!("as of {time}"))
    );
    assert_eq!(stale.header("ggdesk-stale"), Some(format!("as of {time}")));
    // A tournament never read has nothing to show: 503, and the server goes on.
    let never = get(addr, &format!("/t/{}", h.tid.0 + 1));
    assert_eq!(never.status, 503, "{}", never.head);
    assert_eq!(never.header("retry-after").as_deref(), Some("2"));

    cluster.start();
    // Back by themselves, and current: a result entered now shows.
    page.next_event()
        .expect("a notice that the pages are current again");
    until("the pages are current again", PATIENCE, || {
        stale_line(&get(addr, &round).body).is_none()
    });
    assert_eq!(
        get(addr, &format!("/api/t/{}/standings", h.tid)).header("ggdesk-stale"),
        None
    );
    let mut desk = Store::connect(&Address::Server(url)).expect("the desk reconnects");
    let board = desk
        .round_view(h.tid, h.round)
        .expect("view")
        .expect("round")
        .boards
        .iter()
        .find(|b| b.table == TableNo(5))
        .expect("table 5")
        .board;
    desk.set_result(
        h.tid,
        h.round,
        board,
        GameResult::WhiteWins,
        "correction",
        &director(),
    )
    .expect("result");
    server.check_now();
    assert_eq!(shown_result(addr, &h, 5), "white");
    assert_eq!(get(addr, &format!("/t/{}", h.tid.0 + 1)).status, 200);
}

/// A 500-player Swiss in a new database file: rounds 1-5 complete (paired by the circle
/// method, which never pairs two players twice), round 6 published with half its results.
fn event_500() -> (tempfile::TempDir, std::path::PathBuf, TournamentId) {
    const N: u32 = 500;
    let mut t = Tournament::new("Open 500", Settings::swiss(7)).expect("settings");
    for id in 1..=N {
        let mut p = Player::new(
            PlayerId(id),
            format!("Surname{id:03}, Given"),
            2400 - i64::from(id) * 2,
        );
        p.club = Some(format!("Club {}", id % 40));
        t.add_player(p).expect("player");
    }
    for r in 0..6usize {
        // Player 1 stays, the others turn one place each round.
        let others: Vec<u32> = (0..N - 1).map(|i| 2 + (i + r as u32) % (N - 1)).collect();
        let seats: Vec<u32> = std::iter::once(1).chain(others).collect();
        let games: Vec<Game> = (0..N as usize / 2)
            .map(|i| {
                let (a, b) = (PlayerId(seats[i]), PlayerId(seats[N as usize - 1 - i]));
                let (white, black) = if (i + r) % 2 == 0 { (a, b) } else { (b, a) };
                Game::pending(Some(i as u32 + 1), white, black)
            })
            .collect();
        let count = games.len();
        t.add_round(Round {
            games,
            byes: Vec::new(),
            absent: Vec::new(),
        })
        .expect("round");
        for g in 0..count {
            let result = match (g * 7 + r * 3) % 10 {
                0..4 => GameResult::WhiteWins,
                4..8 => GameResult::BlackWins,
                _ => GameResult::Draw,
            };
            if r < 5 || g % 2 == 0 {
                t.set_result(r + 1, g, result).expect("result");
            }
        }
    }
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("open500.sqlite3");
    let mut store = Store::open(&path).expect("store");
    let tid = store
        .import_tournament(&t.to_value(), &director())
        .expect("import");
    (dir, path, tid)
}

/// The body of `path` as sent for `Accept-Encoding: accept`: its bytes and its encoding.
fn fetch(addr: std::net::SocketAddr, path: &str, accept: &str) -> (Vec<u8>, Option<String>) {
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(PATIENCE)).expect("timeout");
    std::io::Write::write_all(
        &mut s,
        format!(
            "GET {path} HTTP/1.1\r\nHost: hall\r\nAccept-Encoding: {accept}\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .expect("write");
    let mut all = Vec::new();
    s.read_to_end(&mut all).expect("read");
    let end = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&all[..end]).to_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    let rest = &all[end + 4..];
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(rest)
    } else {
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .expect("a length");
        assert_eq!(rest.len(), length, "{path}");
        rest.to_vec()
    };
    let encoding = head
        .lines()
        .find_map(|l| l.strip_prefix("content-encoding:"))
        .map(|v| v.trim().to_string());
    (body, encoding)
}

/// A chunked body put back together.
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let line_end = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size");
        let size = usize::from_str_radix(String::from_utf8_lossy(&rest[..line_end]).trim(), 16)
            .expect("a hexadecimal size");
        rest = &rest[line_end + 2..];
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

#[test]
fn a_500_player_events_standings_reach_a_phone_in_under_20_kb() {
    let (_dir, path, tid) = event_500();
    let server = serve(&path);
    let addr = server.addr();
    for page in [
        format!("/t/{}/standings", tid.0),
        format!("/t/{}", tid.0),
        format!("/t/{}/crosstable", tid.0),
        format!("/api/t/{}/standings", tid.0),
        "/live.js".to_string(),
    ] {
        let (plain, none) = fetch(addr, &page, "identity");
        assert_eq!(none, None, "{page}");
        let (br, coding) = fetch(addr, &page, "gzip, deflate, br");
        assert_eq!(coding.as_deref(), Some("br"), "{page}");
        let mut unpacked = Vec::new();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut unpacked)
            .expect("brotli");
        assert_eq!(unpacked, plain, "{page}: the same page");
        let (gz, coding) = fetch(addr, &page, "gzip");
        assert_eq!(coding.as_deref(), Some("gzip"), "{page}");
        let mut unpacked = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut unpacked)
            .expect("gzip");
        assert_eq!(unpacked, plain, "{page}: the same page");
        println!(
            "{page}: {} bytes, brotli {}, gzip {}",
            plain.len(),
            br.len(),
            gz.len()
        );
        if page.ends_with("/standings") && !page.starts_with("/api") {
            assert!(plain.len() > 60_000, "500 rows: {} bytes", plain.len());
            assert!(br.len() < 20_000, "brotli: {} bytes", br.len());
            assert!(gz.len() < 20_000, "gzip: {} bytes", gz.len());
        }
    }
    // A search is compressed as it goes out (tower-http), not kept.
    let (body, coding) = fetch(addr, &format!("/t/{}/names?q=Surname1", tid.0), "br");
    assert_eq!(coding.as_deref(), Some("br"));
    let mut unpacked = Vec::new();
    brotli::Decompressor::new(&body[..], 4096)
        .read_to_end(&mut unpacked)
        .expect("brotli");
    assert!(String::from_utf8_lossy(&unpacked).contains("Surname100, Given"));
}
