//! The server's threads: one accepts connections, a fixed pool serves them. Everything is
//! bounded: connections served at once (the pool), connections waiting (a bounded queue;
//! beyond it a 503 and the connection is closed), the size and the time of a request head,
//! requests per connection. A connection that is between requests (kept alive, or opened
//! ahead by a browser) is closed as soon as another one waits, so idle phones never hold the
//! pool; one that sends its head slowly holds a worker at most the head's time limit. No input can stop a worker: a
//! refusal closes its connection, and a bug is caught at the connection.

use super::http::{self, Limits, Method, Refusal, Response, Status};
use super::site::Site;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Counters of a running server.
#[derive(Debug, Default)]
pub struct Counters {
    /// Connections accepted (including those refused with a 503).
    pub accepted: AtomicU64,
    /// Connections a worker is serving now.
    pub active: AtomicUsize,
    /// Connections accepted and waiting for a worker.
    pub waiting: AtomicUsize,
    /// Connections answered 503 because the queue was full.
    pub refused: AtomicU64,
    /// Requests answered (any status).
    pub requests: AtomicU64,
    /// Pages and API answers rendered from a view of the database; every other answer came
    /// from the page cache (or needed no rendering).
    pub rendered: AtomicU64,
}

/// What the threads share.
struct Shared {
    site: Site,
    limits: Limits,
    stopping: AtomicBool,
    counters: Counters,
    /// The connection each worker is serving, to shut it down on stop.
    serving: Vec<Mutex<Option<TcpStream>>>,
}

/// A running server; dropping it stops it.
pub struct Running {
    addr: SocketAddr,
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl Running {
    /// Starts the threads on a bound listener.
    pub fn start(listener: TcpListener, site: Site, limits: Limits) -> std::io::Result<Running> {
        let addr = listener.local_addr()?;
        let workers = limits.workers.max(1);
        let shared = Arc::new(Shared {
            site,
            limits,
            stopping: AtomicBool::new(false),
            counters: Counters::default(),
            serving: (0..workers).map(|_| Mutex::new(None)).collect(),
        });
        let (tx, rx) = sync_channel::<TcpStream>(limits.queue.max(1));
        let rx = Arc::new(Mutex::new(rx));
        let mut threads = Vec::with_capacity(workers + 1);
        for i in 0..workers {
            let shared = shared.clone();
            let rx = rx.clone();
            threads.push(
                std::thread::Builder::new()
                    .name(format!("ggdesk-serve-{i}"))
                    .spawn(move || worker(i, &shared, &rx))?,
            );
        }
        let accept_shared = shared.clone();
        threads.push(
            std::thread::Builder::new()
                .name("ggdesk-serve-accept".into())
                .spawn(move || acceptor(listener, &accept_shared, tx))?,
        );
        Ok(Running {
            addr,
            shared,
            threads,
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn counters(&self) -> &Counters {
        &self.shared.counters
    }

    /// Stops accepting, closes every connection and waits for the threads.
    pub fn stop(mut self) {
        self.stop_threads();
    }

    fn stop_threads(&mut self) {
        if self.threads.is_empty() {
            return;
        }
        self.shared.stopping.store(true, Ordering::SeqCst);
        // Wake the acceptor from its blocking accept with a connection of our own.
        let wake = wake_address(self.addr);
        let _ = TcpStream::connect_timeout(&wake, Duration::from_secs(1));
        for slot in &self.shared.serving {
            if let Some(stream) = lock(slot).as_ref() {
                let _ = stream.shutdown(Shutdown::Both);
            }
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop_threads();
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Where to connect to reach a listener: its own address, or loopback for a wildcard one.
fn wake_address(addr: SocketAddr) -> SocketAddr {
    let mut wake = addr;
    if addr.ip().is_unspecified() {
        wake.set_ip(match addr {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    wake
}

fn now_date() -> String {
    http::http_date(crate::store::now_ms() / 1000)
}

fn acceptor(listener: TcpListener, shared: &Shared, tx: SyncSender<TcpStream>) {
    for stream in listener.incoming() {
        if shared.stopping.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else {
            // Out of file descriptors or a connection reset before accept: breathe, go on.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        shared.counters.accepted.fetch_add(1, Ordering::SeqCst);
        shared.counters.waiting.fetch_add(1, Ordering::SeqCst);
        match tx.try_send(stream) {
            Ok(()) => {}
            Err(TrySendError::Full(mut stream) | TrySendError::Disconnected(mut stream)) => {
                shared.counters.waiting.fetch_sub(1, Ordering::SeqCst);
                shared.counters.refused.fetch_add(1, Ordering::SeqCst);
                let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
                let busy = Response {
                    close: true,
                    ..Response::text(
                        Status::UNAVAILABLE,
                        "Too many phones at once: try again in a moment.\n",
                    )
                };
                let _ = stream.write_all(&busy.to_bytes(false, false, &now_date()));
                let _ = stream.shutdown(Shutdown::Write);
            }
        }
    }
    // Dropping the sender lets the workers finish what is queued and stop.
}

fn worker(i: usize, shared: &Shared, rx: &Mutex<Receiver<TcpStream>>) {
    loop {
        let next = lock(rx).recv();
        let Ok(stream) = next else {
            return; // The acceptor stopped.
        };
        shared.counters.waiting.fetch_sub(1, Ordering::SeqCst);
        if shared.stopping.load(Ordering::SeqCst) {
            continue;
        }
        if let Ok(clone) = stream.try_clone() {
            *lock(&shared.serving[i]) = Some(clone);
        }
        shared.counters.active.fetch_add(1, Ordering::SeqCst);
        // A bug must cost one connection, never a worker.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            serve_connection(stream, shared);
        }));
        if outcome.is_err() {
            eprintln!("ggdesk serve: a connection ended in an internal error");
        }
        shared.counters.active.fetch_sub(1, Ordering::SeqCst);
        *lock(&shared.serving[i]) = None;
    }
}

/// Whether a connection waits in the queue while every worker is serving one.
fn others_wait(shared: &Shared) -> bool {
    shared.counters.waiting.load(Ordering::SeqCst) > 0
        && shared.counters.active.load(Ordering::SeqCst) >= shared.serving.len()
}

/// How often a connection waiting for its next request looks whether others wait.
const IDLE_CHECK: Duration = Duration::from_millis(20);

/// Why no request head could be read.
enum ReadFailure {
    /// The client closed, or waited too long before starting a request: close quietly.
    Gone,
    /// The head grew past the limit.
    TooLarge,
    /// The head started but did not finish in time.
    TimedOut,
}

/// Reads until `buf` holds a whole request head, within the limits. Returns the head's
/// length and the bytes it takes (with the blank line).
fn read_head(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    limits: &Limits,
    shared: &Shared,
) -> Result<(usize, usize), ReadFailure> {
    let stopping = &shared.stopping;
    let mut chunk = [0u8; 4096];
    http::skip_leading_blank_lines(buf);
    let mut deadline = Instant::now()
        + if buf.is_empty() {
            limits.idle_timeout
        } else {
            limits.head_timeout
        };
    loop {
        if let Some(end) = http::find_head_end(buf) {
            return Ok(end);
        }
        if buf.len() > limits.max_head_bytes {
            return Err(ReadFailure::TooLarge);
        }
        if stopping.load(Ordering::SeqCst) {
            return Err(ReadFailure::Gone);
        }
        let idle = buf.is_empty();
        let now = Instant::now();
        if now >= deadline {
            return Err(if idle {
                ReadFailure::Gone
            } else {
                ReadFailure::TimedOut
            });
        }
        let mut wait = (deadline - now).max(Duration::from_millis(1));
        if idle {
            wait = wait.min(IDLE_CHECK);
        }
        let _ = stream.set_read_timeout(Some(wait));
        let room = (limits.max_head_bytes + 1 - buf.len()).min(chunk.len());
        match stream.read(&mut chunk[..room]) {
            Ok(0) => return Err(ReadFailure::Gone),
            Ok(n) => {
                let first = buf.is_empty();
                buf.extend_from_slice(&chunk[..n]);
                http::skip_leading_blank_lines(buf);
                if first && !buf.is_empty() {
                    // The head's own clock starts with its first byte.
                    deadline = Instant::now() + limits.head_timeout;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) =>
            {
                // A connection that has not started a request gives its worker up as soon
                // as another connection waits for one: idle phones never hold the pool.
                // Only after a read found nothing: a request already on its way (its bytes
                // in the socket, not yet read) is not idle.
                if buf.is_empty() && others_wait(shared) {
                    return Err(ReadFailure::Gone);
                }
            }
            Err(_) => return Err(ReadFailure::Gone),
        }
    }
}

fn serve_connection(mut stream: TcpStream, shared: &Shared) {
    let limits = &shared.limits;
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(limits.write_timeout));
    let mut buf: Vec<u8> = Vec::with_capacity(1024);
    let mut served = 0;
    loop {
        let (response, head_only, keep_alive) =
            match read_head(&mut stream, &mut buf, limits, shared) {
                Err(ReadFailure::Gone) => return,
                Err(ReadFailure::TooLarge) => {
                    (Response::refusal(&Refusal::HeadTooLarge), false, false)
                }
                Err(ReadFailure::TimedOut) => (
                    Response {
                        close: true,
                        ..Response::text(
                            Status::REQUEST_TIMEOUT,
                            "The request took too long to arrive.\n",
                        )
                    },
                    false,
                    false,
                ),
                Ok((head_len, taken)) => {
                    let parsed = http::parse_head(&buf[..head_len], limits);
                    buf.drain(..taken);
                    match parsed {
                        Ok(req) => {
                            let response = shared.site.respond(&req, &shared.counters);
                            (response, req.method == Method::Head, req.keep_alive)
                        }
                        Err(refusal) => (Response::refusal(&refusal), false, false),
                    }
                }
            };
        served += 1;
        shared.counters.requests.fetch_add(1, Ordering::Relaxed);
        let keep_alive = keep_alive
            && !response.close
            && served < limits.max_requests_per_connection
            && !shared.stopping.load(Ordering::SeqCst)
            // Others wait for a worker: this one is free after this answer.
            && !others_wait(shared);
        let bytes = response.to_bytes(head_only, keep_alive, &now_date());
        if stream
            .write_all(&bytes)
            .and_then(|()| stream.flush())
            .is_err()
        {
            return;
        }
        if !keep_alive {
            linger_close(stream, response.close);
            return;
        }
    }
}

/// Closes a connection after its last response. After a refusal the client may still be
/// sending (a body, the rest of a huge head): reading a little of it first keeps the kernel
/// from resetting the connection before the client has read the answer.
fn linger_close(mut stream: TcpStream, refused: bool) {
    let _ = stream.shutdown(Shutdown::Write);
    if refused {
        let _ = stream.set_read_timeout(Some(Duration::from_millis(250)));
        let mut sink = [0u8; 4096];
        let mut left: usize = 64 * 1024;
        while left > 0 {
            match stream.read(&mut sink) {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    }
}
