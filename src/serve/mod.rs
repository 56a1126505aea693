//! The public pages: pairings, results and standings on every phone in the hall, read-only.
//!
//! `ggdesk --db DB serve` and the desk's Settings page start the same [`Server`]: hyper's
//! HTTP/1.1 through axum and tower-http on a Tokio runtime of its own threads (`net`, every
//! bound in [`Limits`]), with its own read-only connection to the database held by one
//! watcher thread (`watch`), which tells every open page when what it shows changed
//! (Server-Sent Events, `events`). It can show only what `public`'s types hold: names,
//! tables, states, results, scores and standings; never a rank, a setup, a move or a reading
//! sheet.
//!
//! Routes (`GET` and `HEAD`; anything else is 405, a malformed request 400, any other path
//! 404; the table itself is `routes`):
//!
//! | path | what |
//! |---|---|
//! | `/` | the event's tournaments |
//! | `/t/ID` | the round in play by table, with the search box |
//! | `/t/ID/names[?q=]` | the round in play by name ("find your name, find your table") |
//! | `/t/ID/round/N` | a round's tables and results |
//! | `/t/ID/standings` | standings after the last complete round, with the tie-breaks |
//! | `/t/ID/crosstable` | the cross-table after the last complete round |
//! | `/t/ID/player/NO` | a player: opponents, colours, results, score after each round |
//! | `/t/ID/standings` (an event in stages) | its stages with their state, and the final placement once over |
//! | `/t/ID/stage/N`, `/t/ID/stage/N/group/X` | stage N's group tables, who goes on marked, its playoff games (a knockout: its bracket); one group's table |
//! | `/t/ID/bracket` | the knockout: each bracket round's matches with players, seeds, games, series score, winner, byes, the third-place match |
//! | `/t/ID/final` | the event's final placement |
//! | `/wall` | the page to print for the wall: the address and its QR code |
//! | `/live.js` | the optional script that keeps a shown page up to date |
//! | `/t/ID/hall` | the hall display for a projector: pairings by name, standings (groups, bracket), paged and cycling, large type, a QR code to the phone pages |
//! | `/hall.js` | the hall display's script: one slide after the other |
//! | `/events`, `/t/ID/events` | the change notices of the event's list, of a tournament's pages (Server-Sent Events) |
//! | `/api/` | the API's endpoints |
//! | `/api/tournaments`, `/api/t/ID`, `/api/t/ID/round[/N]`, `/api/t/ID/players[?q=]`, `/api/t/ID/standings`, `/api/t/ID/crosstable`, `/api/t/ID/player/NO`, `/api/t/ID/stages`, `/api/t/ID/stage/N[/group/X]`, `/api/t/ID/bracket`, `/api/t/ID/final` | the same as JSON |

mod api;
mod events;
mod html;
mod net;
mod public;
pub mod qr;
mod routes;
mod site;
mod source;
mod team_html;
mod teams;
mod watch;

pub use net::{Counters, Limits};

use crate::store::{Address, StoreError};
use std::net::{IpAddr, SocketAddr, TcpListener, UdpSocket};
use std::sync::Arc;
use std::time::Duration;

/// The address `ggdesk serve` listens on unless told otherwise.
pub(crate) const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

/// How to run the server.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// The database: a SQLite file or an event server.
    pub db: Address,
    pub listen: SocketAddr,
    pub limits: Limits,
    /// How often the database is asked whether it changed: an open page shows a change
    /// within this time (plus one read and the page's own fetch).
    pub refresh: Duration,
    /// How old a view may get before it is read again even though the database's change
    /// stamp did not move (on a server the stamp can miss a late commit).
    pub reread: Duration,
}

impl ServeConfig {
    pub fn new(db: impl Into<Address>, listen: SocketAddr) -> ServeConfig {
        ServeConfig {
            db: db.into(),
            listen,
            limits: Limits::default(),
            refresh: Duration::from_millis(250),
            reread: Duration::from_secs(5),
        }
    }
}

/// Why the server did not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{0}")]
    Database(#[from] StoreError),
    #[error("cannot listen on {addr}: {detail}")]
    Listen { addr: SocketAddr, detail: String },
}

/// A running server. Dropping it stops it.
pub struct Server {
    // Field order is drop order: the watcher stops first (which ends the pages' streams),
    // then the network side.
    watcher: watch::Watcher,
    net: net::Running,
    counters: Arc<Counters>,
    url: String,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("url", &self.url).finish()
    }
}

impl Server {
    /// Opens the database read-only, binds the address and starts the threads.
    pub fn start(config: &ServeConfig) -> Result<Server, ServeError> {
        let source = source::Source::open(&config.db)?;
        let listener = TcpListener::bind(config.listen).map_err(|e| ServeError::Listen {
            addr: config.listen,
            detail: e.to_string(),
        })?;
        let addr = listener.local_addr().map_err(|e| ServeError::Listen {
            addr: config.listen,
            detail: e.to_string(),
        })?;
        let failed = |e: std::io::Error| ServeError::Listen {
            addr,
            detail: e.to_string(),
        };
        let url = public_url(addr);
        let timing = watch::Timing {
            refresh: config.refresh,
            reread: config.reread,
        };
        let watcher = watch::Watcher::start(source, config.db.clone(), timing).map_err(failed)?;
        let counters = Arc::new(Counters::default());
        let site = site::Site::new(
            watcher.views().clone(),
            counters.clone(),
            config.limits.response_timeout,
            url.clone(),
        );
        let net =
            net::Running::start(listener, site, config.limits, counters.clone()).map_err(failed)?;
        Ok(Server {
            watcher,
            net,
            counters,
            url,
        })
    }

    /// The address the server listens on (with the port it got, for port 0).
    pub fn addr(&self) -> SocketAddr {
        self.net.addr()
    }

    /// The address phones should open: the listening one, or this computer's address on the
    /// local network when it listens on every interface.
    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Makes the server check the database at once and returns when it has: every change
    /// committed before the call is then on the pages, and the open pages have been told
    /// (unless the database cannot be read). Without it, the server checks every
    /// [`ServeConfig::refresh`].
    pub fn check_now(&self) {
        self.watcher.views().check_now();
    }

    /// Stops accepting (the port is free when this returns), closes the connections (one
    /// in the middle of an answer gets a moment to finish it) and the pages' streams, and
    /// waits for the threads.
    pub fn stop(self) {
        let Server { watcher, net, .. } = self;
        watcher.stop();
        net.stop();
    }
}

/// This computer's address on the local network: the one its default route leaves from.
/// Connecting a UDP socket sends nothing; it only chooses the route.
fn lan_address() -> Option<IpAddr> {
    let socket = UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// The address to give phones for a server listening on `addr`.
fn public_url(addr: SocketAddr) -> String {
    let ip = if addr.ip().is_unspecified() {
        lan_address().unwrap_or(IpAddr::from([127, 0, 0, 1]))
    } else {
        addr.ip()
    };
    format!("http://{}/", SocketAddr::new(ip, addr.port()))
}

/// Reads an `ADDR:PORT` to listen on.
pub(crate) fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    text.trim().parse::<SocketAddr>().map_err(|_| {
        format!("{text:?} is not an address to listen on: give ADDR:PORT, e.g. 0.0.0.0:8080")
    })
}
