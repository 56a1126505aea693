//! The desk and the database, frame by frame: what changed since the last frame (on an event
//! server, as the server announces it), whether the desk is connected, which arbiter station
//! this desk is, which station runs each table, and how the server's standby stands.

use crate::store::{
    Change, Changes, Engine, ServerState, Station, Store, StoreError, server_status,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a desk on a server asks for the change stamp when no notice arrived (a notice
/// brings a change within milliseconds; this only notices a server that went silent).
const QUIET_POLL_MS: i64 = 2000;

/// How often the stations and the standby are looked at.
const SLOW_MS: i64 = 5000;

/// The least time between two reloads of the pages for other desks' changes: a flood of
/// change notices (hundreds a second from busy stations, or a hostile client) costs the
/// desk at most one frame and one reload in this time, and a change is still shown well
/// within a second.
pub const COALESCE_MS: u64 = 250;

fn coalesce() -> Duration {
    Duration::from_millis(COALESCE_MS)
}

/// What the desk learnt this frame.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FrameNews {
    /// Something was written since the last frame (by anyone): pages reload.
    pub changed: bool,
    /// The server said something changed but not what (a gap in the notices): every open
    /// table reloads.
    pub everything: bool,
    /// The connection came back after it was lost: the desk restores its tables.
    pub reconnected: bool,
}

/// The servers' state, read by a thread of its own (a server that does not answer must not
/// hold the frame).
#[derive(Default)]
struct Probe {
    latest: Arc<Mutex<Option<Vec<ServerState>>>>,
    stop: Arc<AtomicBool>,
}

impl Drop for Probe {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// The desk's view of its database connection.
#[derive(Default)]
pub struct Live {
    changes: Option<Changes>,
    listening: bool,
    /// What the pages key their reloads on: it moves whenever the database may have
    /// changed (its change stamp moved, the server announced a commit, or the connection
    /// came back). A count of its
    /// own, not the database's stamp: on a server, a transaction that took its audit row
    /// before another one's but committed after it leaves the highest audit id (the
    /// database's stamp) where the other one put it, and only its notice tells.
    pub stamp: i64,
    /// The database's change stamp as last read.
    db_stamp: Option<i64>,
    stamp_read_ms: i64,
    /// Why the desk is not connected, if it is not.
    pub disconnected: Option<String>,
    /// The station this desk's login is (an arbiter desk), on a server.
    pub station: Option<Station>,
    /// Which station runs each table.
    pub table_stations: crate::store::TableStations,
    stations_read_ms: Option<i64>,
    probe: Option<Probe>,
    /// The engine of the database, once seen.
    pub engine: Option<Engine>,
    /// The games other desks changed since the last reload (from the server's notices).
    pub changed_games: Vec<crate::store::GameId>,
    /// What came in since the last reload and waits for the next ([`COALESCE_MS`]).
    held_games: Vec<crate::store::GameId>,
    held_everything: bool,
    held_change: bool,
    /// When the pages last reloaded for a change (real time: a desk's clock may be set).
    reloaded: Option<Instant>,
}

impl Live {
    /// Looks at the database once for this frame.
    pub fn frame(&mut self, store: &Store, ctx: &egui::Context, now_ms: i64) -> FrameNews {
        let mut news = FrameNews::default();
        self.engine = Some(store.engine());
        let server = store.engine() == Engine::Postgres;
        if server && !self.listening {
            self.listening = true;
            let waker = ctx.clone();
            // Notices wake the desk once per [`COALESCE_MS`] however many come.
            self.changes = store
                .listen(move || waker.request_repaint_after(coalesce()))
                .ok()
                .flatten();
        }
        let mut ask = !server || now_ms - self.stamp_read_ms >= QUIET_POLL_MS;
        let mut moved = false;
        self.changed_games.clear();
        if let Some(changes) = &self.changes {
            let drained = changes.drain();
            if !drained.is_empty() {
                // A commit was announced: whatever the stamp says, something changed. It is
                // taken at the next reload (at most one per COALESCE_MS on a server).
                self.held_change = true;
            }
            for change in drained {
                match change {
                    Change::Row { game: Some(g), .. } => {
                        let g = crate::store::GameId(g);
                        if !self.held_games.contains(&g) {
                            self.held_games.push(g);
                        }
                    }
                    Change::Row { .. } => {}
                    Change::Everything => self.held_everything = true,
                }
            }
            if !changes.connected() {
                ask = true;
            }
        }
        // Coalesced: the changes held are taken once COALESCE_MS passed since the last reload.
        let since = self.reloaded.map(|at| at.elapsed());
        let due = since.is_none_or(|d| d >= coalesce());
        if self.held_change && due {
            ask = true;
            moved = true;
        }
        if self.disconnected.is_some() {
            ask = true;
        }
        if ask {
            self.stamp_read_ms = now_ms;
            match store.change_stamp() {
                Ok(stamp) => {
                    if self.disconnected.take().is_some() {
                        news.reconnected = true;
                        // A page whose read failed while offline reads again, even if
                        // nothing was written meanwhile.
                        moved = true;
                        self.stations_read_ms = None;
                    }
                    if self.db_stamp != Some(stamp) {
                        moved = true;
                    }
                    self.db_stamp = Some(stamp);
                }
                // The cause alone: the desk's line already says that nothing is being saved.
                Err(StoreError::Disconnected(why)) => {
                    self.disconnected = Some(why);
                }
                // Any other failure is the pages' to show (they read and say what failed).
                Err(_) => news.changed = true,
            }
        }
        // A connection made again since the desk last restored (a page's read or a write
        // reconnected, even if no look at the stamp failed): the desk restores first.
        if server && self.disconnected.is_none() && store.reconnected_since_hold() {
            news.reconnected = true;
            moved = true;
            self.stations_read_ms = None;
        }
        if moved || self.held_change {
            // On a server, at most one reload per COALESCE_MS; a reconnection restores at
            // once. On a file only this desk's writes and another program's move the stamp:
            // at once too.
            if news.reconnected || !server || due {
                news.changed = true;
                news.everything |= std::mem::take(&mut self.held_everything);
                self.changed_games = std::mem::take(&mut self.held_games);
                self.held_change = false;
                self.reloaded = Some(Instant::now());
                self.stamp += 1;
            } else {
                self.held_change = true;
                let wait = coalesce().saturating_sub(since.unwrap_or_default());
                ctx.request_repaint_after(wait.max(Duration::from_millis(1)));
            }
        }
        if self.disconnected.is_some() {
            // Try again within the second: the store reconnects on its next call.
            ctx.request_repaint_after(Duration::from_secs(1));
        }
        if server && self.disconnected.is_none() {
            self.slow_reads(store, now_ms, news.changed);
        }
        news
    }

    /// The stations (when something changed, or every few seconds) and the standby's state.
    fn slow_reads(&mut self, store: &Store, now_ms: i64, changed: bool) {
        let due = self
            .stations_read_ms
            .is_none_or(|at| changed || now_ms - at >= SLOW_MS);
        if due {
            self.stations_read_ms = Some(now_ms);
            if let Ok(me) = store.my_station() {
                self.station = me;
            }
            if let Ok(map) = store.table_stations() {
                self.table_stations = map;
            }
        }
        // The director's desk follows the standby; an arbiter station does not need to.
        if self.station.is_none()
            && self.probe.is_none()
            && let Some(address) = store.address().cloned()
        {
            let probe = Probe::default();
            let (latest, stop) = (probe.latest.clone(), probe.stop.clone());
            let spawned = std::thread::Builder::new()
                .name("ggdesk-status".into())
                .spawn(move || {
                    while !stop.load(Ordering::SeqCst) {
                        // Whatever goes wrong, the line says so and the next look comes: a
                        // failure (or a panic) never ends this thread with a stale line.
                        let states = std::panic::catch_unwind(|| server_status(&address))
                            .unwrap_or_else(|_| {
                                Err(StoreError::Database(
                                    "reading the servers' state failed".into(),
                                ))
                            })
                            .unwrap_or_else(|e| {
                                vec![ServerState::Unreachable {
                                    host: address.shown(),
                                    detail: e.to_string(),
                                }]
                            });
                        if let Ok(mut slot) = latest.lock() {
                            *slot = Some(states);
                        }
                        for _ in 0..(SLOW_MS / 100) {
                            if stop.load(Ordering::SeqCst) {
                                return;
                            }
                            std::thread::sleep(Duration::from_millis(100));
                        }
                    }
                });
            if spawned.is_ok() {
                self.probe = Some(probe);
            }
        }
    }

    /// The servers as last seen (the director's desk on a server).
    pub fn servers(&self) -> Option<Vec<ServerState>> {
        self.probe
            .as_ref()
            .and_then(|p| p.latest.lock().ok().and_then(|s| s.clone()))
    }

    /// Whether a change came in that the pages have not reloaded for yet (it waits at most
    /// [`COALESCE_MS`] for the next frame).
    pub fn holds_a_change(&self) -> bool {
        self.held_change
    }

    /// Whether the server's change notices reach this desk (on a server; `false` on a file).
    pub fn listening(&self) -> bool {
        self.changes.as_ref().is_some_and(Changes::connected)
    }

    /// The tables this desk runs: `None` for the director's desk (every table).
    pub fn my_tables(&self) -> Option<&[ggdesk_core::tournament::TableNo]> {
        self.station.as_ref().map(|s| s.tables.as_slice())
    }

    /// Which games this desk writes into by itself (a station: its tournament's tables).
    pub fn keeper(&self) -> crate::store::Keeper {
        crate::store::Keeper::new(
            self.station
                .as_ref()
                .map(|s| (s.tournament, s.tables.as_slice())),
            &self.table_stations,
        )
    }
}
