//! The stations' HTTPS API (`spec/server.md`, "Stations"; the contract is
//! `docs/station-api.md`): what an arbiter station's desk (or any HTTPS client with a
//! station's secret) may read and do, served by the event server beside PostgreSQL.
//!
//! A station never logs into the database. Its requests carry `Authorization: Bearer
//! SECRET` and the station's name as the path's first segment (`/NAME/...`, as the card's
//! link `https://HOST:PORT/NAME`); the server checks the secret against its salted hash
//! (`Store::station_by_secret`), then the station's scope (its tournament, its tables, the
//! round in play, a board with no result) and runs the command through the same store
//! method the director's desk calls (whose checks are the core's rules), on the server's
//! own director connection, with the station as the audit line's actor and the server's
//! clock as every time written.
//!
//! The network side follows the public pages' (`serve`): hyper's HTTP/1.1 through axum on a
//! Tokio runtime of the server's own threads, with rustls (tokio-rustls) in front. Each
//! station is held to [`Limits`] whatever it sends; [`StationServer::end_station`] ends a
//! station's requests and streams at once (a reset secret, a removed station).
//!
//! Files: `wire` (bodies and answers, [`wire::ApiError`]), `commands` (scope, then the
//! store), `guard` (each station's limits and end switch), `api` (routes, checks, the
//! connection pool, the stream), this file (the accept loop, the watcher of changes);
//! `card` (a station's card to print, written by `station add --card`).

mod api;
pub mod card;
pub mod client;
mod commands;
pub mod connect;
mod guard;
pub mod wire;

use crate::store::{Address, Change, Store};
use api::{Notice, Pool, Shared};
use guard::Guards;
pub use guard::Limits;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// How long open connections get to finish their answer when the server stops.
const STOP_GRACE: Duration = Duration::from_secs(2);
/// How often the watcher looks for a change when the database cannot announce them.
const POLL: Duration = Duration::from_millis(250);

/// A running stations' API. Dropping it stops it.
pub struct StationServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
    watcher_stop: Arc<AtomicBool>,
    watcher: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for StationServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StationServer")
            .field("addr", &self.addr)
            .finish()
    }
}

/// Serves the stations' API on `listener` (bound already) with TLS `tls` (the event
/// authority's server certificate, `tls::ServerCert::server_config`), on the database at
/// `db` through the director's login, with the default [`Limits`].
pub fn spawn(
    listener: TcpListener,
    tls: Arc<rustls::ServerConfig>,
    db: Address,
) -> std::io::Result<StationServer> {
    spawn_with(listener, tls, db, Limits::default())
}

/// [`spawn`] with other limits.
pub fn spawn_with(
    listener: TcpListener,
    tls: Arc<rustls::ServerConfig>,
    db: Address,
    limits: Limits,
) -> std::io::Result<StationServer> {
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(limits.threads.max(1))
        .max_blocking_threads(limits.db_connections.max(1) + 2)
        .thread_name("ggdesk-station")
        .enable_all()
        .build()?;
    let (notices, _) = broadcast::channel(256);
    let shared = Arc::new(Shared {
        limits,
        guards: Guards::new(limits),
        pool: Arc::new(Pool::new(
            bounded_statements(&db, limits.statement_timeout),
            limits.db_connections,
        )),
        notices: notices.clone(),
    });
    let watcher_stop = Arc::new(AtomicBool::new(false));
    let watcher = {
        let stop = watcher_stop.clone();
        std::thread::Builder::new()
            .name("ggdesk-station-watch".into())
            .spawn(move || watch_changes(&db, &notices, &stop))?
    };
    let (stop, stopped) = watch::channel(false);
    let app = api::router(shared.clone());
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    let thread = std::thread::Builder::new()
        .name("ggdesk-station-accept".into())
        .spawn(move || {
            runtime.block_on(accept(listener, acceptor, app, limits, stopped));
            runtime.shutdown_timeout(Duration::from_secs(1));
        })?;
    Ok(StationServer {
        addr,
        shared,
        stop,
        thread: Some(thread),
        watcher_stop,
        watcher: Some(watcher),
    })
}

impl StationServer {
    /// The address it listens on (with the port it got, for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Ends station `name`'s requests in flight (answered 401) and its open streams at
    /// once. Its later requests are checked against the database again: after a reset
    /// (`Store::issue_station_secret`) or a removal, the old secret no longer opens anything.
    /// A command already inside its transaction when this is called commits or not as the
    /// database decides (its answer is the 401).
    pub fn end_station(&self, name: &str) {
        self.shared.guards.end(name);
    }

    /// Stops accepting (the port is free when this returns), lets the open connections finish
    /// the answer they are writing for a moment, closes them and the streams, and waits for
    /// the threads.
    pub fn stop(mut self) {
        self.stop_threads();
    }

    fn stop_threads(&mut self) {
        self.watcher_stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = self.stop.send(true);
            let _ = thread.join();
        }
        if let Some(watcher) = self.watcher.take() {
            let _ = watcher.join();
        }
    }
}

impl Drop for StationServer {
    fn drop(&mut self) {
        self.stop_threads();
    }
}

/// The address of the server's own connections: a server's URL with `statement_timeout`
/// set for their sessions (`options=-c statement_timeout=MS`).
fn bounded_statements(db: &Address, timeout: Duration) -> Address {
    match db {
        Address::File(_) => db.clone(),
        Address::Server(url) => {
            let sep = if url.contains('?') { '&' } else { '?' };
            Address::Server(format!(
                "{url}{sep}options=-c%20statement_timeout%3D{}",
                timeout.as_millis()
            ))
        }
    }
}

/// The watcher: one connection of its own that hears the database's change notices (on a
/// server; on a file it looks at the change stamp every [`POLL`]) and passes each on to the
/// open streams, until `stop`.
fn watch_changes(db: &Address, notices: &broadcast::Sender<Notice>, stop: &AtomicBool) {
    while !stop.load(Ordering::SeqCst) {
        let store = match Store::connect(db) {
            Ok(s) => s,
            Err(_) => {
                std::thread::sleep(Duration::from_secs(1));
                continue;
            }
        };
        match store.listen(|| {}) {
            Ok(Some(changes)) => {
                while !stop.load(Ordering::SeqCst) {
                    if let Some(change) = changes.next(POLL) {
                        let notice = match change {
                            Change::Row { tournament, .. } => Notice::Tournament(tournament),
                            Change::Everything => Notice::Everything,
                        };
                        let _ = notices.send(notice);
                    }
                }
            }
            Ok(None) => {
                let mut seen = store.change_stamp().ok();
                while !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(POLL);
                    let now = store.change_stamp().ok();
                    if now != seen {
                        seen = now;
                        let _ = notices.send(Notice::Everything);
                    }
                }
            }
            Err(_) => std::thread::sleep(Duration::from_secs(1)),
        }
    }
}

/// Accepts connections until `stopped`: each gets its TLS handshake, then hyper's HTTP/1.1.
async fn accept(
    listener: TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
    app: axum::Router,
    limits: Limits,
    mut stopped: watch::Receiver<bool>,
) {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("ggdesk stations' API: cannot listen: {e}");
            return;
        }
    };
    let open = Arc::new(AtomicUsize::new(0));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .half_close(true)
        .header_read_timeout(limits.handshake_timeout)
        .max_headers(48)
        .max_header_size(MAX_HEAD);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopped.changed() => break,
        };
        let Ok((stream, _peer)) = accepted else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        if open.fetch_add(1, Ordering::SeqCst) >= limits.max_connections {
            open.fetch_sub(1, Ordering::SeqCst);
            drop(stream);
            continue;
        }
        let _ = stream.set_nodelay(true);
        let (acceptor, app, http, open) =
            (acceptor.clone(), app.clone(), http.clone(), open.clone());
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let handshake =
                tokio::time::timeout(limits.handshake_timeout, acceptor.accept(stream)).await;
            if let Ok(Ok(tls)) = handshake {
                let conn = http.serve_connection(TokioIo::new(tls), TowerToHyperService::new(app));
                let mut conn = std::pin::pin!(conn);
                tokio::select! {
                    _ = conn.as_mut() => {}
                    _ = stopped.changed() => {
                        conn.as_mut().graceful_shutdown();
                        let _ = tokio::time::timeout(STOP_GRACE, conn).await;
                    }
                }
            }
            open.fetch_sub(1, Ordering::SeqCst);
        });
    }
    drop(listener);
    let deadline = tokio::time::Instant::now() + STOP_GRACE;
    while open.load(Ordering::SeqCst) > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The largest request head, in bytes.
const MAX_HEAD: usize = 16 * 1024;
