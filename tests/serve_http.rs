//! The server against what a hall's network may send it: paths it does not serve (404),
//! malformed requests (400), other methods (405), oversize heads and too many headers (431),
//! bodies (413), slow heads (408), more connections than it serves at once (503), random
//! bytes; and after all of it, it still serves. Also keep-alive, pipelining, and a stop that
//! does not wait for idle connections.

mod serve_support;

use ggdesk::serve::Limits;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serve_support::{event_with, get, raw, request, serve, serve_with};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn status_of(text: &str) -> u16 {
    text.strip_prefix("HTTP/1.1 ")
        .and_then(|r| r.get(..3))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
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
        "/api",
        "/api/",
        "/api/t/1/game/1",
        "/api/t/1/setup",
        "/api/games",
        "/api/t/1/round/7",
        "/audit",
        "/admin",
        "/wall/",
        "/refresh.js/",
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
        b"GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        b"GET / HTTP/1.x\r\nHost: a\r\n\r\n",
        b"GET \xff\xfe HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET /a b HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET * HTTP/1.1\r\nHost: a\r\n\r\n",
    ];
    for bytes in cases {
        let text = raw(addr, bytes);
        assert_eq!(
            status_of(&text),
            400,
            "{:?}: {text}",
            String::from_utf8_lossy(bytes)
        );
        assert!(text.contains("Connection: close\r\n"), "{text}");
    }
}

#[test]
fn other_methods_bodies_big_heads_and_unknown_versions_are_refused_each_with_its_status() {
    let (_dir, path) = small_event();
    let server = serve(&path);
    let addr = server.addr();
    for method in [
        "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "BREW",
    ] {
        let r = request(addr, method, "/t/1", "");
        assert_eq!(r.status, 405, "{method}");
        assert_eq!(r.header("allow").as_deref(), Some("GET, HEAD"));
    }
    let post = raw(
        addr,
        b"POST /api/t/1 HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n{\"x\":\"y\"}\r\n",
    );
    assert_eq!(status_of(&post), 405, "{post}");
    let body = raw(
        addr,
        b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd",
    );
    assert_eq!(status_of(&body), 413, "{body}");
    let big = format!(
        "GET / HTTP/1.1\r\nHost: a\r\nCookie: {}\r\n\r\n",
        "c".repeat(9000)
    );
    assert_eq!(status_of(&raw(addr, big.as_bytes())), 431);
    // A head that never ends is cut at the limit, not read forever.
    let endless = format!("GET / HTTP/1.1\r\nHost: a\r\nX: {}", "y".repeat(200_000));
    assert_eq!(status_of(&raw(addr, endless.as_bytes())), 431);
    let many: String = (0..60).map(|i| format!("X-H{i}: v\r\n")).collect();
    let text = raw(
        addr,
        format!("GET / HTTP/1.1\r\nHost: a\r\n{many}\r\n").as_bytes(),
    );
    assert_eq!(status_of(&text), 431, "{text}");
    let long = format!("GET /{} HTTP/1.1\r\nHost: a\r\n\r\n", "a".repeat(3000));
    assert_eq!(status_of(&raw(addr, long.as_bytes())), 414);
    assert_eq!(
        status_of(&raw(addr, b"GET / HTTP/2.0\r\nHost: a\r\n\r\n")),
        505
    );
    // HTTP/1.0 needs no Host, and is closed after the answer.
    let old = raw(addr, b"GET / HTTP/1.0\r\n\r\n");
    assert_eq!(status_of(&old), 200);
    assert!(old.contains("Connection: close"));
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
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .map_or(0, |v| v.trim().parse().expect("length"));
            let no_body = head.starts_with("HTTP/1.1 304") || head.contains("X-Head-Only");
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
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
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
    assert!(first.contains("Connection: keep-alive"));
    let second = read_response(&mut s, &mut buf);
    assert!(second.contains("Round 1 · by table"), "{second}");
    let etag = second
        .lines()
        .find_map(|l| l.strip_prefix("ETag: "))
        .expect("etag")
        .to_string();
    s.write_all(format!("GET /t/1 HTTP/1.1\r\n{h}\r\nIf-None-Match: {etag}\r\n\r\n").as_bytes())
        .expect("write");
    let third = read_response(&mut s, &mut buf);
    assert!(third.starts_with("HTTP/1.1 304"), "{third}");
    s.write_all(format!("GET /nowhere HTTP/1.1\r\n{h}\r\nConnection: close\r\n\r\n").as_bytes())
        .expect("write");
    let last = read_response(&mut s, &mut buf);
    assert!(last.starts_with("HTTP/1.1 404") && last.contains("Connection: close"));
    let mut rest = Vec::new();
    s.read_to_end(&mut rest).expect("closed");
    assert!(rest.is_empty());
}

fn quick_limits() -> Limits {
    Limits {
        workers: 2,
        queue: 2,
        head_timeout: Duration::from_millis(400),
        idle_timeout: Duration::from_millis(400),
        ..Limits::default()
    }
}

/// A small pool (`workers`, `queue`) that waits long for heads: a stalled request holds
/// its worker for the whole test.
fn patient_limits(workers: usize, queue: usize) -> Limits {
    Limits {
        workers,
        queue,
        head_timeout: Duration::from_secs(30),
        idle_timeout: Duration::from_secs(30),
        ..quick_limits()
    }
}

/// Waits (up to 10 s) until `f` holds.
fn until(what: &str, f: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !f() {
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_head_that_arrives_too_slowly_gets_408_and_an_idle_connection_is_closed() {
    let (_dir, path) = small_event();
    let server = serve_with(&path, quick_limits());
    let addr = server.addr();
    let mut slow = TcpStream::connect(addr).expect("connect");
    slow.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    slow.write_all(b"GET / HTTP/1.1\r\nHost: a\r\n")
        .expect("write");
    let mut text = String::new();
    slow.read_to_string(&mut text).expect("read");
    assert_eq!(status_of(&text), 408, "{text}");
    let mut idle = TcpStream::connect(addr).expect("connect");
    idle.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let mut got = Vec::new();
    idle.read_to_end(&mut got).expect("closed by the server");
    assert!(
        got.is_empty(),
        "nothing is sent to a connection that asked nothing"
    );
}

#[test]
fn connections_beyond_the_pool_and_the_queue_get_503_and_service_resumes() {
    let (_dir, path) = small_event();
    let server = serve_with(&path, patient_limits(2, 2));
    let addr = server.addr();
    let c = server.counters();
    // Two connections that started a request and stall hold both workers (an idle one
    // would give its worker up); two more wait in the queue.
    let busy: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut s = TcpStream::connect(addr).expect("c");
            s.write_all(b"GET / HTTP/1.1\r\n").expect("write");
            s
        })
        .collect();
    until("both workers busy", || c.active.load(Ordering::SeqCst) == 2);
    let queued: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(addr).expect("c"))
        .collect();
    until("two waiting", || c.waiting.load(Ordering::SeqCst) == 2);
    let mut extra = TcpStream::connect(addr).expect("connect");
    extra
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let mut text = String::new();
    let _ = extra.read_to_string(&mut text);
    assert_eq!(status_of(&text), 503, "{text}");
    assert!(text.contains("Retry-After:"));
    assert_eq!(c.refused.load(Ordering::SeqCst), 1);
    drop(busy);
    drop(queued);
    until("the pool is free", || {
        c.active.load(Ordering::SeqCst) == 0 && c.waiting.load(Ordering::SeqCst) == 0
    });
    assert_eq!(get(addr, "/").status, 200);
}

#[test]
fn a_request_already_sent_is_served_even_when_others_wait_for_the_worker() {
    let (_dir, path) = small_event();
    let server = serve_with(&path, patient_limits(1, 4));
    let addr = server.addr();
    let c = server.counters();
    // The only worker is held by a request that has begun.
    let mut first = TcpStream::connect(addr).expect("connect");
    first.write_all(b"GET / HTTP/1.1\r\n").expect("write");
    until("the worker busy", || c.active.load(Ordering::SeqCst) == 1);
    // A phone sends its whole request and waits in the queue; another phone, silent,
    // waits behind it.
    let mut phone = TcpStream::connect(addr).expect("connect");
    phone
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    phone
        .write_all(b"GET /t/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        .expect("write");
    let _silent = TcpStream::connect(addr).expect("connect");
    until("two waiting", || c.waiting.load(Ordering::SeqCst) == 2);
    // The first request ends; the worker takes the phone while the silent one waits: the
    // phone's request is in the socket, so it is not an idle connection to give up.
    first
        .write_all(b"Host: a\r\nConnection: close\r\n\r\n")
        .expect("write");
    let mut text = String::new();
    let _ = phone.read_to_string(&mut text);
    assert_eq!(status_of(&text), 200, "{text}");
}

/// Sends `bytes`, says it has sent everything (half-close), and reads what comes back.
fn sent_whole(addr: SocketAddr, bytes: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let _ = s.write_all(bytes);
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn an_idle_kept_alive_connection_gives_its_worker_to_one_that_waits() {
    let (_dir, path) = small_event();
    let limits = Limits {
        workers: 1,
        queue: 4,
        idle_timeout: Duration::from_secs(60),
        ..Limits::default()
    };
    let server = serve_with(&path, limits);
    let addr = server.addr();
    let mut phone = TcpStream::connect(addr).expect("connect");
    phone
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    phone
        .write_all(format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .expect("write");
    let mut buf = Vec::new();
    let first = read_response(&mut phone, &mut buf);
    assert!(first.contains("Connection: keep-alive"), "{first}");
    // The only worker now waits for the phone's next request, for up to a minute; another
    // phone is answered all the same.
    let other = get(addr, "/t/1");
    assert_eq!(other.status, 200);
    let mut rest = Vec::new();
    phone
        .read_to_end(&mut rest)
        .expect("the idle one was closed");
    assert!(rest.is_empty());
}

#[test]
fn random_bytes_and_cut_requests_never_stop_the_server() {
    let (_dir, path) = small_event();
    let server = serve_with(&path, quick_limits());
    let addr = server.addr();
    let mut rng = StdRng::seed_from_u64(15);
    let seeds: [&[u8]; 4] = [
        b"GET / HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET /t/1/names?q=%ff%fe%00 HTTP/1.1\r\nHost: a\r\n\r\n",
        b"HEAD /api/t/1/player/1 HTTP/1.0\r\n\r\n",
        b"GET /t/1 HTTP/1.1\r\nHost: a\r\nIf-None-Match: *\r\n\r\n",
    ];
    let allowed = [200, 304, 400, 404, 405, 408, 413, 414, 431, 505];
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
    // Cut in the middle of a head, and gone (some of these find the pool busy: 503).
    let c = server.counters();
    let accepted = c.accepted.load(Ordering::SeqCst);
    for _ in 0..20 {
        let mut s = TcpStream::connect(addr).expect("connect");
        let _ = s.write_all(b"GET /t/1 HT");
    }
    until("the pool is free", || {
        c.accepted.load(Ordering::SeqCst) == accepted + 20
            && c.active.load(Ordering::SeqCst) == 0
            && c.waiting.load(Ordering::SeqCst) == 0
    });
    assert_eq!(get(addr, "/t/1").status, 200);
    // The mutations reach both answers and refusals (0: closed without an answer).
    assert!(seen.get(&200).is_some_and(|&n| n > 20), "{seen:?}");
    assert!(seen.get(&400).is_some_and(|&n| n > 20), "{seen:?}");
}

#[test]
fn stopping_does_not_wait_for_idle_or_slow_connections() {
    let (_dir, path) = small_event();
    let server = serve(&path);
    let addr: SocketAddr = server.addr();
    let idle: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(addr).expect("c"))
        .collect();
    let mut slow = TcpStream::connect(addr).expect("connect");
    slow.write_all(b"GET / HTTP/1.1\r\n").expect("write");
    until("all four served", || {
        server.counters().active.load(Ordering::SeqCst) == 4
    });
    // The default timeouts are seconds long; stop closes the connections instead.
    server.stop();
    assert!(
        TcpStream::connect(addr).is_err(),
        "nothing listens any more"
    );
    drop(idle);
}
