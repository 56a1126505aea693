//! What other desks changed, as an event server announces it: every audit row inserted is
//! notified on the `ggdesk` channel at commit (migration 2), and a listening desk reloads only
//! what the notice names. A dedicated connection listens on its own thread, reconnecting by
//! itself; after a reconnect it says that anything may have changed meanwhile.

use super::conn::Store;
use super::db::Engine;
use super::error::Result;
use postgres::fallible_iterator::FallibleIterator;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How long the listener waits before it connects again after a failed attempt.
const RETRY_PAUSE: Duration = Duration::from_millis(500);

/// One change another desk (or this one) committed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// An audit row: what it names changed.
    Row {
        audit: i64,
        tournament: Option<ggdesk_core::tournament::TournamentId>,
        game: Option<i64>,
    },
    /// The listener was disconnected for a while: reload everything.
    Everything,
}

/// The changes announced since the last look.
pub struct Changes {
    rx: mpsc::Receiver<Change>,
    connected: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
}

impl Changes {
    /// Changes announced on `rx` by a listener of another kind (the stations' API's stream):
    /// `connected` says whether it is up; `stop` is set when these changes are dropped.
    pub fn from_listener(
        rx: mpsc::Receiver<Change>,
        connected: Arc<AtomicBool>,
        stop: Arc<AtomicBool>,
    ) -> Changes {
        Changes {
            rx,
            connected,
            stop,
        }
    }

    /// Every change announced since the last call, without waiting.
    pub fn drain(&self) -> Vec<Change> {
        self.rx.try_iter().collect()
    }

    /// The next change, waiting at most `timeout`.
    pub fn next(&self, timeout: Duration) -> Option<Change> {
        self.rx.recv_timeout(timeout).ok()
    }

    /// Whether the listening connection is up.
    pub fn connected(&self) -> bool {
        self.connected.load(Ordering::SeqCst)
    }
}

impl Drop for Changes {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

fn parse(payload: &str) -> Option<Change> {
    let v: serde_json::Value = serde_json::from_str(payload).ok()?;
    Some(Change::Row {
        audit: v.get("audit")?.as_i64()?,
        tournament: v
            .get("tournament")
            .and_then(serde_json::Value::as_i64)
            .map(ggdesk_core::tournament::TournamentId),
        game: v.get("game").and_then(serde_json::Value::as_i64),
    })
}

impl Store {
    /// Starts listening for changes on an event server; `wake` is called after each notice
    /// (the desk asks for a new frame). `None` on SQLite, where the desk watches the change
    /// stamp instead.
    pub fn listen(&self, wake: impl Fn() + Send + 'static) -> Result<Option<Changes>> {
        if self.engine() != Engine::Postgres {
            return Ok(None);
        }
        let endpoint = match &*self.borrow()? {
            super::conn::Conn::Postgres(pg) => pg.endpoint().clone(),
            super::conn::Conn::Sqlite(_) => return Ok(None),
            super::conn::Conn::Station(remote) => return remote.listen(Box::new(wake)).map(Some),
        };
        let (tx, rx) = mpsc::channel();
        let connected = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (up, halt) = (connected.clone(), stop.clone());
        std::thread::Builder::new()
            .name("ggdesk-listen".into())
            .spawn(move || {
                let mut first = true;
                while !halt.load(Ordering::SeqCst) {
                    let mut client = match endpoint.connect() {
                        Ok(c) => c,
                        Err(_) => {
                            std::thread::sleep(RETRY_PAUSE);
                            continue;
                        }
                    };
                    if client
                        .batch_execute(&format!("LISTEN {}", super::pg::CHANNEL))
                        .is_err()
                    {
                        // A server that accepts connections but refuses the LISTEN (still
                        // starting, or failing over) is asked again after the same pause,
                        // not in a busy loop of connections.
                        std::thread::sleep(RETRY_PAUSE);
                        continue;
                    }
                    up.store(true, Ordering::SeqCst);
                    if !first && tx.send(Change::Everything).is_err() {
                        return;
                    }
                    first = false;
                    wake();
                    'listening: while !halt.load(Ordering::SeqCst) {
                        let mut lost = false;
                        {
                            let mut notices = client.notifications();
                            let mut iter = notices.timeout_iter(Duration::from_millis(250));
                            loop {
                                match iter.next() {
                                    Ok(Some(n)) => {
                                        if let Some(change) = parse(n.payload()) {
                                            if tx.send(change).is_err() {
                                                return;
                                            }
                                            wake();
                                        }
                                    }
                                    Ok(None) => break,
                                    Err(_) => {
                                        lost = true;
                                        break;
                                    }
                                }
                            }
                        }
                        if lost {
                            break 'listening;
                        }
                        // A quiet quarter second: is the connection still there?
                        if client.is_closed() || client.simple_query("").is_err() {
                            break;
                        }
                    }
                    up.store(false, Ordering::SeqCst);
                    wake();
                }
            })
            .map_err(|e| super::error::StoreError::Io(format!("cannot start the listener: {e}")))?;
        Ok(Some(Changes {
            rx,
            connected,
            stop,
        }))
    }
}
