//! The server's network side: hyper's HTTP/1.1 on a Tokio runtime of the server's own
//! threads, axum's router and Server-Sent Events, tower-http's body limit, timeout and
//! compression. A connection is a task, not a thread: one that is idle or sends its head
//! slowly holds no worker, only its socket and a few kilobytes, and hyper closes it when its
//! next head has not arrived within [`Limits::header_timeout`].
//!
//! Connections are counted per address and in all: beyond [`Limits::max_connections_per_address`]
//! from one address, or [`Limits::max_connections`] in all, a new one is answered 503 at
//! once and closed. The cap per address is high on purpose: a hall's phones may all come
//! from one address (a venue's Wi-Fi behind one NAT router), each with a page's stream and a
//! connection or two kept alive, and none of them should be turned away; it is there so that
//! one address can never take the last descriptors from the others.

use super::events;
use super::routes::{Feed, Route};
use super::site::{self, Asked, Site, preferred_encoding};
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{
    ALLOW, CONNECTION, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HOST, HeaderValue, IF_NONE_MATCH,
    REFERRER_POLICY, TRANSFER_ENCODING, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{Method, Response, StatusCode, Version};
use axum::middleware::{self, Next};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::watch;
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

/// How long the open connections get to finish the answer they are writing when the server
/// stops; then they are closed.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// The content security policy of every page: no script but the pages' own, which may only
/// talk to this server.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; \
                   connect-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; \
                   frame-ancestors 'none'";

/// The bounds every connection and request is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest request head (request line and headers), in bytes: larger is 431.
    pub max_head_bytes: usize,
    /// The most header lines in a request: more is 431.
    pub max_headers: usize,
    /// The longest request target (path and query): longer is 414.
    pub max_target_bytes: usize,
    /// Time allowed for a request head to arrive, counted from the connection's start or
    /// the end of its last answer: a connection that has sent no whole head by then is
    /// closed (so an idle kept-alive connection is closed after it too).
    pub header_timeout: Duration,
    /// Time allowed to answer a request: only the first read of a tournament can take long
    /// (the database is asked); beyond it, 503.
    pub response_timeout: Duration,
    /// Connections open at once, in all; one more is answered 503.
    pub max_connections: usize,
    /// Connections open at once from one address; one more is answered 503.
    pub max_connections_per_address: usize,
    /// The runtime's threads serving connections.
    pub threads: usize,
    /// Threads rendering (and compressing) pages at most at once.
    pub render_threads: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        // Keep some descriptors for the database, the desk and the runtime.
        let max_connections = open_files_limit().saturating_sub(64).clamp(64, 16_384);
        Limits {
            max_head_bytes: 8 * 1024,
            max_headers: 48,
            max_target_bytes: 2 * 1024,
            header_timeout: Duration::from_secs(10),
            response_timeout: Duration::from_secs(20),
            max_connections,
            // Three quarters of all: one address never takes the last quarter.
            max_connections_per_address: (max_connections / 4 * 3).min(4_096),
            threads: 2,
            render_threads: 4,
        }
    }
}

/// This process's limit of open files (the soft one), from `/proc/self/limits`; 1024, the
/// usual default, when it cannot be read.
fn open_files_limit() -> usize {
    std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3))
                .and_then(|soft| soft.parse().ok())
        })
        .unwrap_or(1024)
}

/// Counters of a running server.
#[derive(Debug, Default)]
pub struct Counters {
    /// Connections accepted (including those refused with a 503).
    pub accepted: AtomicU64,
    /// Connections open now.
    pub open: AtomicUsize,
    /// Connections answered 503 because of a cap.
    pub refused: AtomicU64,
    /// Requests answered (any status).
    pub requests: AtomicU64,
    /// Pages and API answers rendered from a view of the database; every other answer came
    /// from the page cache (or needed no rendering).
    pub rendered: AtomicU64,
}

/// The connections open, per address.
struct Conns {
    per_address: Mutex<HashMap<IpAddr, usize>>,
    counters: Arc<Counters>,
    limits: Limits,
}

/// A connection's place in the counts, given back when it closes.
struct Slot {
    conns: Arc<Conns>,
    ip: IpAddr,
}

impl Conns {
    fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Slot> {
        let mut map = super::watch::lock(&self.per_address);
        let open = self.counters.open.load(Ordering::SeqCst);
        let mine = map.get(&ip).copied().unwrap_or(0);
        if open >= self.limits.max_connections || mine >= self.limits.max_connections_per_address {
            return None;
        }
        map.insert(ip, mine + 1);
        self.counters.open.fetch_add(1, Ordering::SeqCst);
        Some(Slot {
            conns: self.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut map = super::watch::lock(&self.conns.per_address);
        if let Some(n) = map.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
        self.conns.counters.open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// What the request handlers share.
struct Shared {
    site: Site,
    limits: Limits,
    counters: Arc<Counters>,
}

/// The running network side; dropping it stops it.
pub struct Running {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    /// Serves `site` on a bound listener, on a runtime of its own threads.
    pub fn start(
        listener: std::net::TcpListener,
        site: Site,
        limits: Limits,
        counters: Arc<Counters>,
    ) -> std::io::Result<Running> {
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(limits.threads.max(1))
            .max_blocking_threads(limits.render_threads.max(1))
            .thread_name("ggdesk-serve")
            .enable_all()
            .build()?;
        let (stop, stopped) = watch::channel(false);
        let shared = Arc::new(Shared {
            site,
            limits,
            counters,
        });
        let thread = std::thread::Builder::new()
            .name("ggdesk-serve-accept".into())
            .spawn(move || {
                runtime.block_on(accept(listener, shared, stopped));
                // What is left (a stream, a connection past its grace) is cancelled.
                runtime.shutdown_timeout(Duration::from_secs(1));
            })?;
        Ok(Running {
            addr,
            stop,
            thread: Some(thread),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting (the port is free when this returns), lets the open connections
    /// finish the answer they are writing for a moment, and closes them.
    pub fn stop(mut self) {
        self.stop_thread();
    }

    fn stop_thread(&mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = self.stop.send(true);
            let _ = thread.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

/// The answer to a connection over a cap, written at once without reading its request.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
Content-Length: 49\r\n\
Retry-After: 2\r\n\
Cache-Control: no-store\r\n\
Connection: close\r\n\r\n\
Too many connections at once: try again shortly.\n";

/// Answers a connection over a cap with 503 and closes it, without waiting for it.
async fn refuse(stream: tokio::net::TcpStream) {
    let write = async {
        let mut sent = 0;
        while sent < BUSY.len() {
            stream.writable().await?;
            match stream.try_write(&BUSY[sent..]) {
                Ok(n) => sent += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
        // What the client already sent is read away, so that closing sends an orderly end
        // rather than a reset that could destroy the answer before it is read.
        let mut sink = [0u8; 4096];
        while matches!(stream.try_read(&mut sink), Ok(n) if n > 0) {}
        Ok::<_, std::io::Error>(())
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), write).await;
    if let Ok(std) = stream.into_std() {
        let _ = std.shutdown(std::net::Shutdown::Write);
    }
}

async fn accept(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    mut stopped: watch::Receiver<bool>,
) {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("ggdesk serve: cannot listen: {e}");
            return;
        }
    };
    let limits = shared.limits;
    let counters = shared.counters.clone();
    let conns = Arc::new(Conns {
        per_address: Mutex::new(HashMap::new()),
        counters: counters.clone(),
        limits,
    });
    let app = router(shared);
    let mut http = hyper::server::conn::http1::Builder::new();
    // A client may close its side once its request is sent (half-close): it still gets
    // its answer.
    http.timer(TokioTimer::new())
        .half_close(true)
        .header_read_timeout(limits.header_timeout)
        .max_headers(limits.max_headers)
        .max_header_size(limits.max_head_bytes);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopped.changed() => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was taken:
                // breathe and go on.
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        counters.accepted.fetch_add(1, Ordering::Relaxed);
        let Some(slot) = conns.admit(peer.ip().to_canonical()) else {
            counters.refused.fetch_add(1, Ordering::Relaxed);
            tokio::spawn(refuse(stream));
            continue;
        };
        let _ = stream.set_nodelay(true);
        let conn =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stopped.changed() => {
                    // An idle connection closes at once, one answering finishes its answer.
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(STOP_GRACE, conn).await;
                }
            }
        });
    }
    drop(listener);
    // The connections see the stop too: wait for them, a little.
    let deadline = tokio::time::Instant::now() + STOP_GRACE;
    while counters.open.load(Ordering::SeqCst) > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn router(shared: Arc<Shared>) -> Router {
    let limits = shared.limits;
    Router::new()
        .fallback(answer)
        .layer(
            tower::ServiceBuilder::new()
                .layer(middleware::from_fn_with_state(shared.clone(), checks))
                // No route takes a body: a request that announces one is 413.
                .layer(RequestBodyLimitLayer::new(0))
                .layer(TimeoutLayer::with_status_code(
                    StatusCode::SERVICE_UNAVAILABLE,
                    limits.response_timeout,
                ))
                // Answers not kept compressed (a search, the wall, a 404) are compressed
                // here as they go out; a kept page already says its encoding and passes.
                .layer(CompressionLayer::new().quality(CompressionLevel::Precise(5))),
        )
        .with_state(shared)
}

/// Why a request is refused before it reaches a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    /// 405: only GET and HEAD are answered.
    Method,
    /// 400: the request is not what HTTP/1.1 asks of it.
    Malformed(&'static str),
    /// 413: a body in chunks (a length is tower-http's to refuse).
    Body,
    /// 414: the target is longer than the limit.
    TargetTooLong,
}

impl Refusal {
    fn response(self) -> Response<Body> {
        let (status, text) = match self {
            Refusal::Method => (
                StatusCode::METHOD_NOT_ALLOWED,
                "Only GET and HEAD are answered here.\n".to_string(),
            ),
            Refusal::Malformed(why) => (StatusCode::BAD_REQUEST, format!("Bad request: {why}.\n")),
            Refusal::Body => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "Requests with a body are not accepted.\n".to_string(),
            ),
            Refusal::TargetTooLong => (
                StatusCode::URI_TOO_LONG,
                "The address is too long.\n".to_string(),
            ),
        };
        let mut res = Response::new(Body::from(text));
        *res.status_mut() = status;
        let h = res.headers_mut();
        h.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        h.insert(CONNECTION, HeaderValue::from_static("close"));
        if self == Refusal::Method {
            h.insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        }
        res
    }
}

/// What hyper lets through that the pages do not take.
fn refusal(req: &Request, limits: &Limits) -> Option<Refusal> {
    let uri = req.uri();
    let target = uri.path_and_query().map_or(0, |p| p.as_str().len());
    if target > limits.max_target_bytes {
        return Some(Refusal::TargetTooLong);
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return Some(Refusal::Method);
    }
    let hosts = req.headers().get_all(HOST).iter().count();
    if hosts > 1 || (hosts == 0 && req.version() == Version::HTTP_11) {
        return Some(Refusal::Malformed(
            "an HTTP/1.1 request needs exactly one Host header",
        ));
    }
    // Origin form (`/a?b`) or absolute form (`http://host/a?b`); not `*` nor a bare
    // authority.
    if !uri.path().starts_with('/') || (uri.scheme().is_none() && uri.authority().is_some()) {
        return Some(Refusal::Malformed("the request target must be a path"));
    }
    if req.headers().contains_key(TRANSFER_ENCODING) {
        return Some(Refusal::Body);
    }
    None
}

/// Counts the request, refuses what the pages do not take, and puts the headers every answer
/// carries.
async fn checks(State(shared): State<Arc<Shared>>, req: Request, next: Next) -> Response<Body> {
    shared.counters.requests.fetch_add(1, Ordering::Relaxed);
    let mut res = match refusal(&req, &shared.limits) {
        Some(refusal) => refusal.response(),
        None => next.run(req).await,
    };
    let h = res.headers_mut();
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    let html = h
        .get(CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/html"));
    if html {
        h.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    }
    res
}

/// Every path: a page, an API answer, a stream, or a 404.
async fn answer(State(shared): State<Arc<Shared>>, req: Request) -> Response<Body> {
    let uri = req.uri();
    let Some(route) = Route::parse(uri.path(), uri.query()) else {
        let api = uri.path() == "/api" || uri.path().starts_with("/api/");
        return site::not_found(api);
    };
    if let Route::Events(feed) = route {
        let views = shared.site.views();
        // Asking for a stream makes the watcher read (and keep reading) its pages' view, so
        // that their changes are found; only a tournament of the event has a stream.
        let wait = shared.limits.response_timeout;
        let known = match feed {
            Feed::Event => Ok(true),
            Feed::Tournament(id) => views.tournament(id, wait).await.map(|t| t.is_some()),
            Feed::Ratings => views.ratings(wait).await.map(|_| true),
        };
        match known {
            Ok(true) => {}
            Ok(false) => return site::not_found(false),
            Err(_) => return site::unavailable(),
        }
        return axum::response::IntoResponse::into_response(events::stream(views, feed));
    }
    let headers = req.headers();
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let host = text(HOST).or_else(|| uri.authority().map(|a| a.as_str()));
    let asked = Asked {
        host,
        if_none_match: text(IF_NONE_MATCH),
        encoding: preferred_encoding(text(axum::http::header::ACCEPT_ENCODING)),
    };
    shared.site.respond(&route, asked).await
}
