//! The server against what a hall's network may send it: paths it does not serve (404),
//! malformed requests (400), other methods (405), oversize heads and too many headers (431),
//! long targets (414), bodies (413), heads that never end, connections over a cap (503),
//! random bytes; a thousand idle connections and 150 slow heads from one address while
//! another phone asks for every page; and after all of it, it still serves. Also keep-alive,
//! pipelining, and a stop that does not wait for idle connections or open streams.

mod serve_support;

use ggdesk::serve::Limits;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serve_support::{
    Notices, connect_from, event_with, get, raw, request, serve, serve_with, until,
};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Long enough for anything this machine does under load.
const PATIENCE: Duration = Duration::from_secs(60);

fn status_of(text: &str) -> u16 {
    text.strip_prefix("HTTP/1.1 ")
        .or_else(|| text.strip_prefix("HTTP/1.0 "))
        .and_then(|r| r.get(..3))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// Sends `bytes` on a new connection and reads until the server closes it; the text, and
/// whether the server closed it (rather than 60 s passing).
fn raw_closed(addr: SocketAddr, bytes: &[u8]) -> (String, bool) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let closed = s.read_to_end(&mut out).is_ok();
    (String::from_utf8_lossy(&out).into_owned(), closed)
}

fn small_event() -> (tempfile::TempDir, std::path::PathBuf) {
    let (dir, path, mut store, tid) = event_with(&["Reyes, Ana", "Cruz, Ben", "Lim, Cy"], 3);
    serve_support::publish_next(&mut store, tid);
    (dir, path)
}

#[test]
fn every_path_outside_the_routes_is_404() {
    let (_dir, path) = small_event();
    let server = serve(&path);
    let addr = server.addr();
    let long = format!("/{}", "x".repeat(1500));
    let mut paths: Vec<&str> = vec![
        "/favicon.ico",
        "/index.html",
        "/robots.txt",
        "/t",
        "/t/",
        "/t/1/",
        "/T/1",
        "//t/1",
        "/t/1/standings.json",
        "/t/1/player/1/x",
        "/t/1/round/0",
        "/t/1/round/2",
        "/t/01",
        "/t/%31",
        "/t/1%2Fstandings",
        "/t/2/events",
        "/events/",
        "/api//",
        "/api/t/1/game/1",
        "/api/t/1/setup",
        "/api/games",
        "/api/t/1/round/7",
        "/audit",
        "/admin",
        "/wall/",
        "/live.js/",
        "/refresh.js",
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/.git/config",
        "/t/1/../../etc/passwd",
    ];
    paths.push(&long);
    for p in paths {
        for method in ["GET", "HEAD"] {
            let r = request(addr, method, p, "");
            assert_eq!(r.status, 404, "{method} {p}: {}", r.head);
            assert!(r.header("etag").is_none(), "{p}: a 404 is never cached");
        }
    }
    assert!(get(addr, "/nowhere").body.contains("Page not found"));
    assert_eq!(
        get(addr, "/api/nowhere").body,
        "{\"error\":\"not found\"}\n"
    );
    // The same routes through an absolute target.
    let text = raw(
        addr,
        format!("GET http://{addr}/t/1 HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert_eq!(status_of(&text), 200, "{text}");
}

#[test]
fn the_api_answers_with_an_index_of_its_endpoints() {
    let (_dir, path) = small_event();
    let server = serve(&path);
    let r = get(server.addr(), "/api/");
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/json")
    );
    let index: serde_json::Value = serde_json::from_str(&r.body).expect("json");
    let paths: Vec<&str> = index["endpoints"]
        .as_array()
        .expect("endpoints")
        .iter()
        .map(|e| e["path"].as_str().expect("path"))
        .collect();
    assert_eq!(
        paths,
        [
            "/api/tournaments",
            "/api/t/ID",
            "/api/t/ID/round",
            "/api/t/ID/round/N",
            "/api/t/ID/players?q=TEXT",
            "/api/t/ID/standings",
            "/api/t/ID/crosstable",
            "/api/t/ID/player/NO",
            "/api/t/ID/stages",
            "/api/t/ID/stage/N",
            "/api/t/ID/stage/N/group/X",
            "/api/t/ID/bracket",
            "/api/t/ID/final",
            "/api/t/ID/teams",
            "/api/t/ID/team/NO",
            "/api/t/ID/boards",
            "/api/ratings?q=TEXT",
            "/api/ratings/player/FEDERATION_ID",
        ]
    );
    // Each one listed answers (with the event's tournament, round and player); nobody is
    // on this event's rating list (no event is rated), so a rated player is 404 here
    // (`serve_ratings` asks for them where there are).
    for p in paths {
        // This event is of one system: the stage endpoints are 404 here (`serve_stages`
        // asks for them on an event in stages), and so are a team event's (`serve_teams`).
        if [
            "/stage", "/bracket", "/final", "/teams", "/team/", "/boards",
        ]
        .iter()
        .any(|s| p.contains(s))
        {
            let p = p.replace("ID", "1").replace("/N", "/1").replace("/X", "/A");
            assert_eq!(get(server.addr(), &p).status, 404, "{p}");
            continue;
        }
        if p.ends_with("FEDERATION_ID") {
            let p = p.replace("FEDERATION_ID", "PH-0001");
            assert_eq!(get(server.addr(), &p).status, 404, "{p}");
            continue;
        }
        let p = p
            .replace("ID", "1")
            .replace("NO", "2")
            .replace("/N", "/1")
            .replace("TEXT", "cruz");
        assert_eq!(get(server.addr(), &p).status, 200, "{p}");
    }
    assert_eq!(get(server.addr(), "/api").status, 200);
}

#[test]
fn malformed_requests_get_400_and_the_connection_is_closed() {
    let (_dir, path) = small_event();
    let server = serve(&path);
    let addr = server.addr();
    let cases: Vec<&[u8]> = vec![
        b"GET / HTTP/1.1\r\n\r\n",
        b"hello\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET /\r\n\r\n",
        b"\x00\x01\x02\x03\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\n folded: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nX-A\x7fb: c\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        b"GET / HTTP/1.x\r\nHost: a\r\n\r\n",
        b"GET / HTTP/2.0\r\nHost: a\r\n\r\n",
        b"GET \xff\xfe HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET /a b HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET * HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET nowhere HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost : a\r\n\r\n",
    ];
    for bytes in cases {
        let (text, closed) = raw_closed(addr, bytes);
        let shown = String::from_utf8_lossy(bytes);
        assert_eq!(status_of(&text), 400, "{shown:?}: {text}");
        assert!(closed, "{shown:?}: the connection stays open");
    }
}

#[test]
fn other_methods_bodies_big_heads_and_long_targets_are_refused_each_with_its_status() {
    let (_dir, path) = small_event();
    let server = serve(&path);
    let addr = server.addr();
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW"] {
        let r = request(addr, method, "/t/1", "");
        assert_eq!(r.status, 405, "{method}");
        assert_eq!(r.header("allow").as_deref(), Some("GET, HEAD"));
        assert!(r.body.contains("Only GET and HEAD"), "{}", r.body);
    }
    let post = raw(
        addr,
        b"POST /api/t/1 HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n{\"x\":\"y\"}\r\n",
    );
    assert_eq!(status_of(&post), 405, "{post}");
    let (body, closed) = raw_closed(
        addr,
        b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd",
    );
    assert_eq!(status_of(&body), 413, "{body}");
    assert!(closed);
    let (chunked, closed) = raw_closed(
        addr,
        b"GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n0\r\n\r\n",
    );
    assert_eq!(status_of(&chunked), 413, "{chunked}");
    assert!(closed);
    let big = format!(
        "GET / HTTP/1.1\r\nHost: a\r\nCookie: {}\r\n\r\n",
        "c".repeat(9000)
    );
    assert_eq!(status_of(&raw(addr, big.as_bytes())), 431);
    // A head that never ends is cut at the limit, not read forever.
    let endless = format!("GET / HTTP/1.1\r\nHost: a\r\nX: {}", "y".repeat(200_000));
    let (text, closed) = raw_closed(addr, endless.as_bytes());
    assert_eq!(status_of(&text), 431, "{text}");
    assert!(closed);
    let many: String = (0..60).map(|i| format!("X-H{i}: v\r\n")).collect();
    let text = raw(
        addr,
        format!("GET / HTTP/1.1\r\nHost: a\r\n{many}\r\n").as_bytes(),
    );
    assert_eq!(status_of(&text), 431, "{text}");
    let long = format!("GET /{} HTTP/1.1\r\nHost: a\r\n\r\n", "a".repeat(3000));
    let text = raw(addr, long.as_bytes());
    assert_eq!(status_of(&text), 414, "{text}");
    // HTTP/1.0 needs no Host, and is closed after the answer.
    let (old, closed) = raw_closed(addr, b"GET / HTTP/1.0\r\n\r\n");
    assert_eq!(status_of(&old), 200, "{old}");
    assert!(closed);
}

/// Reads one response (head and Content-Length body) from a kept-alive connection.
fn read_response(s: &mut TcpStream, buf: &mut Vec<u8>) -> String {
    let mut chunk = [0u8; 8192];
    loop {
        let text = String::from_utf8_lossy(buf).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let head = &text[..end];
            let len: usize = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().expect("length"))
                })
                .unwrap_or(0);
            let no_body = head.starts_with("HTTP/1.1 304");
            let total = end + 4 + if no_body { 0 } else { len };
            if buf.len() >= total {
                let out = String::from_utf8_lossy(&buf[..total]).into_owned();
                buf.drain(..total);
                return out;
            }
        }
        let n = s.read(&mut chunk).expect("read");
        assert!(n > 0, "closed early: {text}");
        buf.extend_from_slice(&chunk[..n]);
    }
}

#[test]
fn a_kept_alive_connection_serves_pipelined_requests_in_order() {
    let (_dir, path) = small_event();
    let server = serve(&path);
    let addr = server.addr();
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let h = format!("Host: {addr}");
    s.write_all(
        format!("GET /api/tournaments HTTP/1.1\r\n{h}\r\n\r\nGET /t/1 HTTP/1.1\r\n{h}\r\n\r\n")
            .as_bytes(),
    )
    .expect("write");
    let mut buf = Vec::new();
    let first = read_response(&mut s, &mut buf);
    assert!(
        first.starts_with("HTTP/1.1 200") && first.contains("application/json"),
        "{first}"
    );
    let second = read_response(&mut s, &mut buf);
    assert!(second.contains("Round 1 · by table"), "{second}");
    let etag = second
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("etag")
                .then(|| value.trim().to_string())
        })
        .expect("etag");
    s.write_all(format!("GET /t/1 HTTP/1.1\r\n{h}\r\nIf-None-Match: {etag}\r\n\r\n").as_bytes())
        .expect("write");
    let third = read_response(&mut s, &mut buf);
    assert!(third.starts_with("HTTP/1.1 304"), "{third}");
    s.write_all(format!("GET /nowhere HTTP/1.1\r\n{h}\r\nConnection: close\r\n\r\n").as_bytes())
        .expect("write");
    let last = read_response(&mut s, &mut buf);
    assert!(last.starts_with("HTTP/1.1 404"), "{last}");
    let mut rest = Vec::new();
    s.read_to_end(&mut rest).expect("closed");
    assert!(rest.is_empty());
}

#[test]
fn a_head_not_finished_in_time_and_an_idle_connection_are_closed_without_an_answer() {
    let (_dir, path) = small_event();
    // A short timeout, so the test is short; it only waits for the close, as long as the
    // machine needs.
    let limits = Limits {
        header_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = serve_with(&path, limits);
    let addr = server.addr();
    let started = Instant::now();
    let (text, closed) = raw_closed(addr, b"GET / HTTP/1.1\r\nHost: a\r\n");
    assert!(closed, "a head that never ends is closed");
    assert!(text.is_empty(), "{text}");
    assert!(started.elapsed() >= limits.header_timeout);
    let (text, closed) = raw_closed(addr, b"");
    assert!(
        closed && text.is_empty(),
        "an idle connection is closed: {text}"
    );
    // A kept-alive connection that asked once is closed after the same time.
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(PATIENCE)).expect("timeout");
    s.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        .expect("write");
    let mut buf = Vec::new();
    assert!(read_response(&mut s, &mut buf).starts_with("HTTP/1.1 200"));
    let mut rest = Vec::new();
    s.read_to_end(&mut rest).expect("closed by the server");
    assert!(rest.is_empty());
    until("every connection closed", PATIENCE, || {
        server.counters().open.load(Ordering::SeqCst) == 0
    });
}

#[test]
fn a_head_sent_slowly_within_the_time_is_answered() {
    let (_dir, path) = small_event();
    let limits = Limits {
        header_timeout: Duration::from_secs(120),
        ..Limits::default()
    };
    let server = serve_with(&path, limits);
    let mut s = TcpStream::connect(server.addr()).expect("connect");
    s.set_read_timeout(Some(PATIENCE)).expect("timeout");
    for piece in [
        &b"GET /t/1 HT"[..],
        b"TP/1.1\r\nHo",
        b"st: a\r\nConnection: close\r\n",
        b"\r\n",
    ] {
        s.write_all(piece).expect("write");
        std::thread::sleep(Duration::from_millis(200));
    }
    let mut text = String::new();
    s.read_to_string(&mut text).expect("read");
    assert_eq!(status_of(&text), 200, "{text}");
}

#[test]
fn connections_over_the_cap_of_an_address_get_503_while_other_addresses_are_served() {
    let (_dir, path) = small_event();
    let limits = Limits {
        max_connections_per_address: 4,
        max_connections: 6,
        header_timeout: Duration::from_secs(120),
        ..Limits::default()
    };
    let server = serve_with(&path, limits);
    let addr = server.addr();
    let c = server.counters();
    // Four connections from 127.0.0.2, idle: the address's cap.
    let held: Vec<TcpStream> = (0..4).map(|_| connect_from([127, 0, 0, 2], addr)).collect();
    until("four connections open", PATIENCE, || {
        c.open.load(Ordering::SeqCst) == 4
    });
    let mut extra = connect_from([127, 0, 0, 2], addr);
    extra.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let mut text = String::new();
    let _ = extra.read_to_string(&mut text);
    assert_eq!(status_of(&text), 503, "{text}");
    assert!(text.contains("Retry-After: 2"), "{text}");
    assert_eq!(c.refused.load(Ordering::SeqCst), 1);
    // Another address is served all the same.
    assert_eq!(get(addr, "/t/1").status, 200);
    // That request's connection is closed on the server's side too before the third
    // address comes (on a loaded machine the client may see the end of the answer first:
    // then one of the third address's two would be refused over the cap of six).
    until("the request's connection closed", PATIENCE, || {
        c.open.load(Ordering::SeqCst) == 4
    });
    // Two more from a third address fill the server's cap of six; the next from anywhere is
    // refused.
    let third: Vec<TcpStream> = (0..2).map(|_| connect_from([127, 0, 0, 3], addr)).collect();
    until("six connections open", PATIENCE, || {
        c.open.load(Ordering::SeqCst) == 6
    });
    let mut text = String::new();
    let mut over = TcpStream::connect(addr).expect("connect");
    over.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let _ = over.read_to_string(&mut text);
    assert_eq!(status_of(&text), 503, "{text}");
    // Once they close, the address is served again.
    drop(held);
    drop(third);
    until("the connections closed", PATIENCE, || {
        c.open.load(Ordering::SeqCst) == 0
    });
    let mut again = connect_from([127, 0, 0, 2], addr);
    again.set_read_timeout(Some(PATIENCE)).expect("timeout");
    again
        .write_all(b"GET /t/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        .expect("write");
    let mut text = String::new();
    again.read_to_string(&mut text).expect("read");
    assert_eq!(status_of(&text), 200, "{text}");
}

/// The hall's worst: one address holds a thousand idle kept-alive connections and 150 that
/// send their heads a byte at a time, and another phone still gets every page, each answer
/// complete.
#[test]
fn a_thousand_idle_connections_and_150_slow_heads_from_one_address_leave_every_page_served() {
    let limit = serve_support::open_files_limit();
    assert!(
        limit >= 4096,
        "this test holds 1,150 connections (2,300 descriptors in one process): the limit of \
         open files is {limit}; raise it (ulimit -n 4096)"
    );
    let (_dir, path) = small_event();
    // Long timeouts: every connection stays open for the whole test, however slow the
    // machine (the default closes an idle one after 10 s).
    let limits = Limits {
        header_timeout: Duration::from_secs(600),
        ..Limits::default()
    };
    let server = serve_with(&path, limits);
    let addr = server.addr();
    let c = server.counters();
    let from = [127, 0, 0, 2];
    let mut idle = Vec::new();
    // Half asked once and stay kept alive, half never asked.
    for i in 0..1000 {
        let mut s = connect_from(from, addr);
        if i % 2 == 0 {
            s.set_read_timeout(Some(PATIENCE)).expect("timeout");
            s.write_all(b"GET /api/tournaments HTTP/1.1\r\nHost: a\r\n\r\n")
                .expect("write");
            let mut buf = Vec::new();
            assert!(read_response(&mut s, &mut buf).starts_with("HTTP/1.1 200"));
        }
        idle.push(s);
    }
    let mut slow: Vec<TcpStream> = (0..150)
        .map(|_| {
            let mut s = connect_from(from, addr);
            s.write_all(b"GET /t/1 HTTP/1.1\r\nX-Slow: ")
                .expect("write");
            s
        })
        .collect();
    until("1,150 connections open", PATIENCE, || {
        c.open.load(Ordering::SeqCst) >= 1150
    });
    let paths = serve_support::every_path(
        ggdesk::store::TournamentId(1),
        ggdesk::tournament::RoundNo(1),
        3,
    );
    for round in 0..3 {
        // The slow ones send another byte of their heads.
        for s in &mut slow {
            s.write_all(b"y").expect("a slow head goes on");
        }
        for p in &paths {
            let r = get(addr, p);
            assert_eq!(r.status, 200, "round {round}: {p}: {}", r.head);
            let len: usize = r
                .header("content-length")
                .and_then(|l| l.parse().ok())
                .expect("a length");
            assert_eq!(r.body.len(), len, "{p}: the whole answer");
        }
    }
    assert!(
        c.open.load(Ordering::SeqCst) >= 1150,
        "the flood was held while the pages were served"
    );
    drop(idle);
    drop(slow);
    until("every connection closed", PATIENCE, || {
        c.open.load(Ordering::SeqCst) == 0
    });
}

/// Sends `bytes`, says it has sent everything (half-close), and reads what comes back.
fn sent_whole(addr: SocketAddr, bytes: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let _ = s.write_all(bytes);
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn random_bytes_and_cut_requests_never_stop_the_server() {
    let (_dir, path) = small_event();
    let server = serve(&path);
    let addr = server.addr();
    let mut rng = StdRng::seed_from_u64(15);
    let seeds: [&[u8]; 4] = [
        b"GET / HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET /t/1/names?q=%ff%fe%00 HTTP/1.1\r\nHost: a\r\n\r\n",
        b"HEAD /api/t/1/player/1 HTTP/1.0\r\n\r\n",
        b"GET /t/1 HTTP/1.1\r\nHost: a\r\nIf-None-Match: *\r\n\r\n",
    ];
    let allowed = [200, 304, 400, 404, 405, 413, 414, 431];
    let mut seen = std::collections::BTreeMap::new();
    for i in 0..300 {
        let mut bytes = seeds[i % seeds.len()].to_vec();
        // Mutate: flip, insert or cut bytes.
        for _ in 0..rng.random_range(0..6) {
            let at = rng.random_range(0..bytes.len().max(1));
            match rng.random_range(0..3) {
                0 if !bytes.is_empty() => bytes[at] = rng.random(),
                1 => bytes.insert(at.min(bytes.len()), rng.random()),
                _ => bytes.truncate(at),
            }
        }
        if i % 7 == 0 {
            bytes = (0..rng.random_range(0..600))
                .map(|_| rng.random())
                .collect();
        }
        let text = sent_whole(addr, &bytes);
        let status = status_of(&text);
        *seen.entry(status).or_insert(0) += 1;
        assert!(
            text.is_empty() || allowed.contains(&status),
            "{:?} got {text}",
            String::from_utf8_lossy(&bytes)
        );
    }
    // Cut in the middle of a head, and gone.
    let c = server.counters();
    let accepted = c.accepted.load(Ordering::SeqCst);
    for _ in 0..20 {
        let mut s = TcpStream::connect(addr).expect("connect");
        let _ = s.write_all(b"GET /t/1 HT");
    }
    until("the cut connections closed", PATIENCE, || {
        c.accepted.load(Ordering::SeqCst) == accepted + 20 && c.open.load(Ordering::SeqCst) == 0
    });
    assert_eq!(get(addr, "/t/1").status, 200);
    // The mutations reach both answers and refusals (0: closed without an answer).
    assert!(seen.get(&200).is_some_and(|&n| n > 20), "{seen:?}");
    assert!(seen.get(&400).is_some_and(|&n| n > 20), "{seen:?}");
}

#[test]
fn stopping_does_not_wait_for_idle_or_slow_connections_or_open_streams() {
    let (_dir, path) = small_event();
    let server = serve(&path);
    let addr: SocketAddr = server.addr();
    let idle: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(addr).expect("c"))
        .collect();
    let mut slow = TcpStream::connect(addr).expect("connect");
    slow.write_all(b"GET / HTTP/1.1\r\n").expect("write");
    let mut stream = Notices::open(addr, "/t/1/events");
    until("all five open", PATIENCE, || {
        server.counters().open.load(Ordering::SeqCst) == 5
    });
    // The default timeouts are seconds long, a stream never ends: stop closes them.
    server.stop();
    assert!(
        TcpStream::connect(addr).is_err(),
        "nothing listens any more"
    );
    assert_eq!(stream.next_event(), None, "the stream ended");
    drop(idle);
}
