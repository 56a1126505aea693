//! What each station is held to, whatever it sends: requests in flight, a rate, open
//! streams; and the switch that ends its requests and streams at once (a reset secret, a
//! removed station). One [`Guard`] per station that ever authenticated (so their number is
//! the stations', never the names an attacker tries), and one bucket for refused secrets in
//! all, which keeps a flood of wrong secrets from keeping the database busy.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The bounds every station and connection is held to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// One station's requests in flight at once; one more is 429.
    pub in_flight: usize,
    /// One station's requests a second, on average; faster is 429.
    pub rate_per_second: f64,
    /// How many requests a station may send at once above its rate (the bucket's size).
    pub rate_burst: f64,
    /// One station's open streams; one more is 429.
    pub streams: usize,
    /// Wrong secrets a second in all (a flood of guesses); beyond, 429 without a look.
    pub refused_per_second: f64,
    pub refused_burst: f64,
    /// The time to answer a request (a stream: to open it); beyond, 503.
    pub request_timeout: Duration,
    /// The longest any one statement of the server's store runs (PostgreSQL's
    /// `statement_timeout` on its connections): a request's transaction ends soon after
    /// its answer even if the answer was cut off.
    pub statement_timeout: Duration,
    /// Time for a connection's TLS handshake, and for each request head to arrive.
    pub handshake_timeout: Duration,
    /// Connections open at once, in all; one more is closed at once.
    pub max_connections: usize,
    /// The server's connections to the store.
    pub db_connections: usize,
    /// The runtime's threads.
    pub threads: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            in_flight: 4,
            rate_per_second: 40.0,
            rate_burst: 120.0,
            streams: 2,
            refused_per_second: 20.0,
            refused_burst: 40.0,
            request_timeout: Duration::from_secs(10),
            statement_timeout: Duration::from_secs(8),
            handshake_timeout: Duration::from_secs(10),
            max_connections: 512,
            db_connections: 4,
            threads: 2,
        }
    }
}

/// A mutex whose holder panicked is still usable: what it guards are counters.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A token bucket: `rate` tokens a second, at most `burst` kept.
#[derive(Debug)]
pub(crate) struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    pub(crate) fn full(burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            at: Instant::now(),
        }
    }

    /// Takes a token if there is one.
    pub(crate) fn take(&mut self, rate: f64, burst: f64) -> bool {
        let now = Instant::now();
        let earned = now.duration_since(self.at).as_secs_f64() * rate;
        self.tokens = (self.tokens + earned).min(burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether a token is there, without taking it.
    pub(crate) fn has(&mut self, rate: f64, burst: f64) -> bool {
        let now = Instant::now();
        let earned = now.duration_since(self.at).as_secs_f64() * rate;
        self.tokens = (self.tokens + earned).min(burst);
        self.at = now;
        self.tokens >= 1.0
    }
}

/// One station's counts and its end switch.
#[derive(Debug)]
pub(crate) struct Guard {
    in_flight: AtomicUsize,
    streams: AtomicUsize,
    rate: Mutex<Bucket>,
    /// Counts up each time the station is ended; requests and streams watch it.
    ended: watch::Sender<u64>,
    /// When the station was last ended: a request that began before (its secret checked
    /// before a reset) is refused even if it looks at the switch only after.
    ended_at: Mutex<Option<Instant>>,
}

/// Which count a [`Permit`] holds.
#[derive(Debug, Clone, Copy)]
enum Count {
    Request,
    Stream,
}

/// A place among a station's requests in flight or open streams, given back when dropped.
#[derive(Debug)]
pub(crate) struct Permit {
    guard: Arc<Guard>,
    count: Count,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let counter = match self.count {
            Count::Request => &self.guard.in_flight,
            Count::Stream => &self.guard.streams,
        };
        counter.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Guard {
    fn new(burst: f64) -> Guard {
        Guard {
            in_flight: AtomicUsize::new(0),
            streams: AtomicUsize::new(0),
            rate: Mutex::new(Bucket::full(burst)),
            ended: watch::channel(0).0,
            ended_at: Mutex::new(None),
        }
    }

    /// The end switch to watch, or `None` when the station was ended after `began` (the
    /// moment the request's secret was about to be checked).
    pub(crate) fn watch_end(&self, began: Instant) -> Option<watch::Receiver<u64>> {
        let rx = self.ended.subscribe();
        match *lock(&self.ended_at) {
            Some(at) if at >= began => None,
            _ => Some(rx),
        }
    }

    /// Takes a token of the station's rate.
    pub(crate) fn take_rate(&self, limits: &Limits) -> bool {
        lock(&self.rate).take(limits.rate_per_second, limits.rate_burst)
    }

    fn enter(self: &Arc<Self>, count: Count, cap: usize) -> Option<Permit> {
        let counter = match count {
            Count::Request => &self.in_flight,
            Count::Stream => &self.streams,
        };
        if counter.fetch_add(1, Ordering::SeqCst) >= cap {
            counter.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Permit {
            guard: self.clone(),
            count,
        })
    }

    /// A place among the requests in flight, if one is free.
    pub(crate) fn request(self: &Arc<Self>, limits: &Limits) -> Option<Permit> {
        self.enter(Count::Request, limits.in_flight)
    }

    /// A place among the open streams, if one is free.
    pub(crate) fn stream(self: &Arc<Self>, limits: &Limits) -> Option<Permit> {
        self.enter(Count::Stream, limits.streams)
    }

    /// Ends the station's requests and streams now.
    fn end(&self) {
        *lock(&self.ended_at) = Some(Instant::now());
        self.ended.send_modify(|n| *n += 1);
    }
}

/// Every station's guard, and the bucket of refused secrets.
#[derive(Debug)]
pub(crate) struct Guards {
    stations: Mutex<HashMap<String, Arc<Guard>>>,
    refused: Mutex<Bucket>,
    limits: Limits,
}

impl Guards {
    pub(crate) fn new(limits: Limits) -> Guards {
        Guards {
            stations: Mutex::new(HashMap::new()),
            refused: Mutex::new(Bucket::full(limits.refused_burst)),
            limits,
        }
    }

    /// The guard of a station that authenticated.
    pub(crate) fn of(&self, name: &str) -> Arc<Guard> {
        lock(&self.stations)
            .entry(name.to_string())
            .or_insert_with(|| Arc::new(Guard::new(self.limits.rate_burst)))
            .clone()
    }

    /// Whether a secret may be checked now: not while refused secrets come faster than
    /// [`Limits::refused_per_second`].
    pub(crate) fn may_check_secret(&self) -> bool {
        lock(&self.refused).has(self.limits.refused_per_second, self.limits.refused_burst)
    }

    /// Counts a refused secret.
    pub(crate) fn refused_secret(&self) {
        lock(&self.refused).take(self.limits.refused_per_second, self.limits.refused_burst);
    }

    /// Ends station `name`'s requests in flight and open streams at once; its later requests
    /// are checked against the database again (a reset secret no longer passes).
    pub(crate) fn end(&self, name: &str) {
        // Made if missing: a request whose secret was checked just before the reset and
        // that takes its guard only now is refused too.
        self.of(name).end();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_gives_its_burst_then_its_rate() {
        let mut b = Bucket::full(3.0);
        assert!(b.take(0.0, 3.0) && b.take(0.0, 3.0) && b.take(0.0, 3.0));
        assert!(!b.take(0.0, 3.0), "empty, nothing earned");
        assert!(!b.has(0.0, 3.0));
    }

    #[test]
    fn a_station_holds_its_requests_and_streams_to_their_caps() {
        let limits = Limits {
            in_flight: 2,
            streams: 1,
            ..Limits::default()
        };
        let guards = Guards::new(limits);
        let g = guards.of("hall-a");
        let (one, two) = (g.request(&limits), g.request(&limits));
        assert!(one.is_some() && two.is_some());
        assert!(g.request(&limits).is_none(), "a third in flight");
        drop(one);
        assert!(g.request(&limits).is_some(), "a place given back");
        let s = g.stream(&limits);
        assert!(s.is_some() && g.stream(&limits).is_none());
        // Another station has its own.
        assert!(guards.of("hall-b").request(&limits).is_some());
    }

    #[test]
    fn ending_a_station_reaches_its_watchers_and_what_began_before() {
        let guards = Guards::new(Limits::default());
        let began = Instant::now();
        let g = guards.of("hall-a");
        let mut rx = g.watch_end(began).expect("not ended");
        guards.end("hall-a");
        assert!(rx.has_changed().expect("sender alive"));
        assert!(g.watch_end(began).is_none(), "began before the end");
        assert!(g.watch_end(Instant::now()).is_some(), "a request after it");
        rx.mark_unchanged();
    }
}
