//! The station's desk side of the stations' API: a blocking HTTPS client the store calls
//! ([`crate::store::Remote`]), hyper 1's HTTP/1.1 client over tokio-rustls on a runtime of
//! its own, the server's certificate checked against the event's authority pinned by its
//! fingerprint ([`PinnedAuthority`]) before the secret is sent; and the live stream of the
//! server's change notices read on a thread of its own.
//!
//! One connection is kept and used again for the next request (a handshake per command
//! would cost the arbiter a round trip and the server its CPU); a connection found closed
//! before a request is sent is made again, once. An answer that does not come within
//! [`REQUEST_LIMIT`] is a lost connection: the desk says "not connected" and the command
//! is sent again when the arbiter enters it again (an event carries its token, so it is
//! never entered twice).

use crate::store::{Change, Changes, Remote, StoreError};
use crate::tls::{Pin, PinnedAuthority};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

/// How long a request may take, answer included.
pub const REQUEST_LIMIT: Duration = Duration::from_secs(15);
/// A stream that said nothing for this long is lost (the server's keep-alive comes every
/// 15 s).
const STREAM_SILENCE: Duration = Duration::from_secs(40);
/// The pause before the stream is opened again after it ended.
const STREAM_RETRY: Duration = Duration::from_secs(1);

/// A station's card as the desk connects with it: `https://HOST:PORT/NAME`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StationLink {
    pub host: String,
    pub port: u16,
    pub station: String,
}

impl StationLink {
    /// Reads a card's link (`https://HOST:PORT/NAME`; the port 8443 when absent), or says
    /// what is wrong with it.
    pub fn parse(text: &str) -> Result<StationLink, String> {
        let text = text.trim();
        let rest = text.strip_prefix("https://").ok_or_else(|| {
            format!(
                "\"{text}\" is not a station's link: it starts https:// (as the card prints it)"
            )
        })?;
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let station = path.trim_end_matches('/');
        if station.is_empty() || station.contains('/') {
            return Err(format!(
                "\"{text}\" names no station: the link ends with the station's name (https://HOST:PORT/NAME)"
            ));
        }
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || authority.starts_with('[') => {
                let port = p
                    .parse::<u16>()
                    .map_err(|_| format!("\"{text}\": the port \"{p}\" is not a number"))?;
                (h, port)
            }
            _ => (authority, 8443),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() {
            return Err(format!("\"{text}\" names no host"));
        }
        Ok(StationLink {
            host: host.to_string(),
            port,
            station: station.to_string(),
        })
    }

    /// The server's address with the station (`https://HOST:PORT/NAME`).
    pub fn shown(&self) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        format!("https://{host}:{}/{}", self.port, self.station)
    }

    /// `HOST:PORT`, the key under which a desk remembers the server's authority.
    pub fn server(&self) -> String {
        let shown = self.shown();
        shown
            .trim_start_matches("https://")
            .trim_end_matches(&format!("/{}", self.station))
            .to_string()
    }
}

/// A station's desk's connection to the event server.
pub struct StationClient {
    link: StationLink,
    /// The link and then each standby's: the desk speaks to whichever answers (the primary
    /// now), beginning with the one that answered last.
    servers: Arc<Servers>,
    secret: String,
    pinned: Arc<PinnedAuthority>,
    tls: Arc<rustls::ClientConfig>,
    runtime: Arc<tokio::runtime::Runtime>,
    sender: Mutex<Option<SendRequest<Full<Bytes>>>>,
    reads: Arc<Reads>,
    /// The server's clock ahead of this machine's (ms), measured at each `GET /NAME`.
    offset_ms: AtomicI64,
}

/// What the desk read lately, kept true by the server's stream: every answer to a `GET`
/// while the stream is up, until the next change notice (or this desk's own command, or the
/// stream going down) makes it stale. A page drawn twice, or a table read back after its
/// game was, costs no second request, and what another desk changed is read again as soon
/// as the server announces it.
#[derive(Default)]
struct Reads {
    answers: Mutex<HashMap<String, Value>>,
    /// Moves at each notice and each command: an answer read across a move is not kept.
    generation: AtomicU64,
    /// The stream is up: only then does a notice come for every change.
    streaming: AtomicBool,
}

impl Reads {
    fn stale(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut a) = self.answers.lock() {
            a.clear();
        }
    }

    fn get(&self, path: &str) -> Option<Value> {
        if !self.streaming.load(Ordering::SeqCst) {
            return None;
        }
        self.answers.lock().ok()?.get(path).cloned()
    }

    fn keep(&self, path: &str, generation: u64, value: &Value) {
        if let Ok(mut a) = self.answers.lock()
            && self.streaming.load(Ordering::SeqCst)
            && self.generation.load(Ordering::SeqCst) == generation
        {
            a.insert(path.to_string(), value.clone());
        }
    }
}

impl std::fmt::Debug for StationClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StationClient")
            .field("link", &self.link)
            .finish()
    }
}

impl StationClient {
    /// A client of the station at `link` whose server's certificate the authority `pin`
    /// signed, with the station's secret. Nothing is sent yet.
    pub fn new(link: StationLink, secret: &str, pin: Pin) -> Result<StationClient, StoreError> {
        let secret = secret.trim().to_string();
        if secret.is_empty() {
            return Err(StoreError::Rejected(format!(
                "station {}: the secret is empty (it is on the station's card)",
                link.station
            )));
        }
        let pinned = PinnedAuthority::new(pin);
        let tls = Arc::new(
            pinned
                .client_config()
                .map_err(|e| StoreError::Tls(e.to_string()))?,
        );
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ggdesk-station")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Io(format!("cannot start the station's client: {e}")))?;
        Ok(StationClient {
            servers: Arc::new(Servers {
                list: vec![link.clone()],
                current: AtomicUsize::new(0),
            }),
            link,
            secret,
            pinned,
            tls,
            runtime: Arc::new(runtime),
            sender: Mutex::new(None),
            reads: Arc::default(),
            offset_ms: AtomicI64::new(0),
        })
    }

    /// The same client, trying each standby's address (as the card lists them:
    /// `https://HOST:PORT/`) when the server at the link does not answer.
    pub fn with_standbys(mut self, addresses: &[String]) -> Result<StationClient, String> {
        let mut list = vec![self.link.clone()];
        for a in addresses {
            let a = a.trim().trim_end_matches('/');
            if a.is_empty() {
                continue;
            }
            list.push(StationLink::parse(&format!("{a}/{}", self.link.station))?);
        }
        self.servers = Arc::new(Servers {
            list,
            current: AtomicUsize::new(0),
        });
        Ok(self)
    }

    /// The server that answered last (the link's, or a standby's).
    pub fn answering(&self) -> StationLink {
        self.servers.now().clone()
    }

    /// The station's link.
    pub fn link(&self) -> &StationLink {
        &self.link
    }

    /// The whole fingerprint of the authority the server presented at the last handshake
    /// that checked (to remember after a first connection).
    pub fn authority_seen(&self) -> Option<String> {
        self.pinned.seen()
    }

    fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> hyper::Request<Full<Bytes>> {
        let mut b = hyper::Request::builder()
            .method(method)
            .uri(format!("/{}{path}", self.link.station))
            .header("host", self.link.server())
            .header("authorization", format!("Bearer {}", self.secret));
        let bytes = match body {
            Some(v) => {
                b = b.header("content-type", "application/json");
                Bytes::from(v.to_string())
            }
            None => Bytes::new(),
        };
        // The method, path and headers are ours: they always make a request.
        b.body(Full::new(bytes))
            .unwrap_or_else(|_| hyper::Request::new(Full::new(Bytes::new())))
    }
}

/// The addresses a station's desk may find the event server at.
struct Servers {
    list: Vec<StationLink>,
    current: AtomicUsize,
}

impl Servers {
    fn now(&self) -> &StationLink {
        let i = self.current.load(Ordering::SeqCst);
        &self.list[i.min(self.list.len() - 1)]
    }
}

/// Opens a connection to whichever server answers, beginning with the one that answered
/// last: an address that cannot be reached is passed over; a certificate that does not
/// check is refused at once (nothing is sent to it, and no other is tried for it).
async fn connect_any(
    servers: &Servers,
    tls: Arc<rustls::ClientConfig>,
) -> Result<SendRequest<Full<Bytes>>, StoreError> {
    let first = servers.current.load(Ordering::SeqCst);
    let n = servers.list.len();
    let mut failure = None;
    for k in 0..n {
        let i = (first + k) % n;
        match connect(&servers.list[i], tls.clone()).await {
            Ok(sender) => {
                servers.current.store(i, Ordering::SeqCst);
                return Ok(sender);
            }
            Err(e @ StoreError::Disconnected(_)) => {
                failure.get_or_insert(e);
            }
            Err(e) => return Err(e),
        }
    }
    Err(failure.unwrap_or_else(|| StoreError::Disconnected("no address to reach".into())))
}

/// Opens a connection to the server: TCP, TLS with the authority checked (before anything
/// is sent), HTTP/1.1.
async fn connect(
    link: &StationLink,
    tls: Arc<rustls::ClientConfig>,
) -> Result<SendRequest<Full<Bytes>>, StoreError> {
    let unreachable = |e: &dyn std::fmt::Display| {
        StoreError::Disconnected(format!(
            "the event server {}:{} cannot be reached: {e}",
            link.host, link.port
        ))
    };
    let tcp = tokio::net::TcpStream::connect((link.host.as_str(), link.port))
        .await
        .map_err(|e| unreachable(&e))?;
    let _ = tcp.set_nodelay(true);
    let name = match link.host.parse::<std::net::IpAddr>() {
        Ok(ip) => ServerName::IpAddress(ip.into()),
        Err(_) => ServerName::try_from(link.host.clone())
            .map_err(|e| StoreError::Rejected(format!("\"{}\": {e}", link.host)))?,
    };
    let stream = tokio_rustls::TlsConnector::from(tls)
        .connect(name, tcp)
        .await
        .map_err(|e| {
            // Our check's words when it refused the certificate; else the TLS failure.
            let text = e.to_string();
            if let Some(at) = text.find("the server's certificate") {
                StoreError::Tls(text[at..].to_string())
            } else {
                unreachable(&e)
            }
        })?;
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| unreachable(&e))?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

fn did_not_answer(link: &StationLink, e: &hyper::Error) -> StoreError {
    StoreError::Disconnected(format!(
        "the event server {}:{} did not answer: {e}",
        link.host, link.port
    ))
}

/// The words of a secret the server no longer accepts (a reset, a removed station).
pub const CARD_REFUSED: &str = "the event server does not accept station";

/// The store's error for an answer that is not a success, in the server's words.
fn refusal(status: u16, words: String, station: &str) -> StoreError {
    match status {
        // The station was removed or its secret reset: nothing this desk enters can be
        // saved, as when the server cannot be reached, until it is opened with a new card.
        401 => StoreError::Disconnected(format!(
            "{CARD_REFUSED} {station}'s secret ({words}): the director issues a new card"
        )),
        403 => StoreError::Denied(words),
        409 => StoreError::Conflict(words),
        400 | 404 | 405 | 413 | 422 => StoreError::Rejected(words),
        // Not done, but the server is there: the arbiter enters it again.
        429 => StoreError::Rejected(format!("the event server is busy: {words}")),
        503 => StoreError::Disconnected(format!("the event server: {words}")),
        _ => StoreError::Database(format!("the event server: {words}")),
    }
}

impl Remote for StationClient {
    fn call(
        &self,
        method: &'static str,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, StoreError> {
        let generation = self.reads.generation.load(Ordering::SeqCst);
        if method == "GET" {
            if let Some(kept) = self.reads.get(path) {
                return Ok(kept);
            }
        } else {
            self.reads.stale();
        }
        let sent = crate::store::now_ms();
        let value = self.send(method, path, body)?;
        if method == "GET" {
            self.reads.keep(path, generation, &value);
        }
        // The server's time, against the middle of the round trip.
        if let Some(server) = value
            .get("now")
            .and_then(Value::as_i64)
            .filter(|_| path.is_empty())
        {
            let middle = sent + (crate::store::now_ms() - sent) / 2;
            self.offset_ms.store(server - middle, Ordering::SeqCst);
        }
        Ok(value)
    }

    fn clock_offset_ms(&self) -> i64 {
        self.offset_ms.load(Ordering::SeqCst)
    }

    fn listen(&self, wake: Box<dyn Fn() + Send>) -> Result<Changes, StoreError> {
        self.stream(wake)
    }

    /// The server that answers now (the link's, or a standby's once it took over).
    fn shown(&self) -> String {
        self.servers.now().shown()
    }
}

impl StationClient {
    /// One request and its answer, in the store's words when it is not a success.
    fn send(
        &self,
        method: &'static str,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, StoreError> {
        let build = || self.request(method, path, body.as_ref());
        let (first, again) = (build(), build());
        let kept = self.sender.lock().ok().and_then(|mut s| s.take());
        let (servers, tls) = (self.servers.clone(), self.tls.clone());
        let answer = self.runtime.block_on(async move {
            tokio::time::timeout(REQUEST_LIMIT, async move {
                // A kept connection that closed meanwhile is made again; nothing was sent on
                // it. One the server closed as the request went (it closes idle ones) is
                // made again once, and the request sent on the new one.
                let kept = match kept {
                    Some(mut s) => s.ready().await.is_ok().then_some(s),
                    None => None,
                };
                let (mut sender, reused) = match kept {
                    Some(s) => (s, true),
                    None => (connect_any(&servers, tls.clone()).await?, false),
                };
                let res = match sender.send_request(first).await {
                    Ok(res) => res,
                    Err(_) if reused => {
                        sender = connect_any(&servers, tls).await?;
                        sender.send_request(again).await
                    }
                    .map_err(|e| did_not_answer(servers.now(), &e))?,
                    Err(e) => return Err(did_not_answer(servers.now(), &e)),
                };
                let status = res.status().as_u16();
                let bytes = res
                    .into_body()
                    .collect()
                    .await
                    .map_err(|e| {
                        StoreError::Disconnected(format!(
                            "the event server's answer broke off: {e}"
                        ))
                    })?
                    .to_bytes();
                Ok::<_, StoreError>((sender, status, bytes))
            })
            .await
            .unwrap_or_else(|_| {
                Err(StoreError::Disconnected(format!(
                    "the event server did not answer within {} s",
                    REQUEST_LIMIT.as_secs()
                )))
            })
        });
        let (sender, status, bytes) = answer?;
        if let Ok(mut slot) = self.sender.lock() {
            *slot = Some(sender);
        }
        let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if (200..300).contains(&status) {
            return Ok(value);
        }
        let words = value
            .get("error")
            .and_then(Value::as_str)
            .map_or_else(|| format!("status {status}"), str::to_string);
        Err(refusal(status, words, &self.link.station))
    }

    /// The server's change notices, read on a thread of its own.
    fn stream(&self, wake: Box<dyn Fn() + Send>) -> Result<Changes, StoreError> {
        let (tx, rx) = mpsc::channel();
        let connected = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (up, halt) = (connected.clone(), stop.clone());
        let request = {
            let (link, secret) = (self.link.clone(), self.secret.clone());
            move || {
                hyper::Request::builder()
                    .method("GET")
                    .uri(format!("/{}/stream", link.station))
                    .header("host", link.server())
                    .header("authorization", format!("Bearer {secret}"))
                    .body(Full::new(Bytes::new()))
                    .unwrap_or_else(|_| hyper::Request::new(Full::new(Bytes::new())))
            }
        };
        let (servers, tls, runtime) =
            (self.servers.clone(), self.tls.clone(), self.runtime.clone());
        let reads = self.reads.clone();
        std::thread::Builder::new()
            .name("ggdesk-station-stream".into())
            .spawn(move || {
                let mut first = true;
                while !halt.load(Ordering::SeqCst) {
                    let opened = runtime.block_on(async {
                        let mut sender = connect_any(&servers, tls.clone()).await.ok()?;
                        let res =
                            tokio::time::timeout(REQUEST_LIMIT, sender.send_request(request()))
                                .await
                                .ok()?
                                .ok()?;
                        (res.status() == hyper::StatusCode::OK).then_some((sender, res.into_body()))
                    });
                    if let Some((_sender, mut body)) = opened {
                        up.store(true, Ordering::SeqCst);
                        // What was read while no notice could come is read again.
                        reads.stale();
                        reads.streaming.store(true, Ordering::SeqCst);
                        if !first && tx.send(Change::Everything).is_err() {
                            return;
                        }
                        first = false;
                        wake();
                        // Each frame: a change (or the comment that keeps it alive). The
                        // frame is awaited a quarter second at a time, to see `halt`.
                        let mut pending = String::new();
                        let mut heard = std::time::Instant::now();
                        loop {
                            if halt.load(Ordering::SeqCst) {
                                return;
                            }
                            // The server speaks at least every 15 s: a stream silent for
                            // longer is lost (a cable pulled sends no end).
                            if heard.elapsed() > STREAM_SILENCE {
                                break;
                            }
                            let next = runtime.block_on(async {
                                tokio::time::timeout(Duration::from_millis(250), body.frame()).await
                            });
                            match next {
                                Err(_) => continue,
                                Ok(Some(Ok(frame))) => {
                                    heard = std::time::Instant::now();
                                    if let Some(data) = frame.data_ref() {
                                        pending.push_str(&String::from_utf8_lossy(data));
                                    }
                                    while let Some(end) = pending.find("\n\n") {
                                        let block: String = pending.drain(..end + 2).collect();
                                        if block.lines().any(|l| l == "event: change") {
                                            reads.stale();
                                            if tx.send(Change::Everything).is_err() {
                                                return;
                                            }
                                            wake();
                                        }
                                    }
                                }
                                Ok(Some(Err(_)) | None) => break,
                            }
                        }
                        reads.streaming.store(false, Ordering::SeqCst);
                        reads.stale();
                        up.store(false, Ordering::SeqCst);
                        wake();
                    }
                    std::thread::sleep(STREAM_RETRY);
                }
            })
            .map_err(|e| StoreError::Io(format!("cannot start the station's stream: {e}")))?;
        Ok(Changes::from_listener(rx, connected, stop))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cards_link_is_read_into_host_port_and_station() {
        let l = StationLink::parse("https://192.168.1.20:8443/hall-a").expect("link");
        assert_eq!(
            l,
            StationLink {
                host: "192.168.1.20".into(),
                port: 8443,
                station: "hall-a".into()
            }
        );
        assert_eq!(l.server(), "192.168.1.20:8443");
        assert_eq!(l.shown(), "https://192.168.1.20:8443/hall-a");
        let l = StationLink::parse("https://event.local/hall-b/").expect("no port");
        assert_eq!((l.host.as_str(), l.port), ("event.local", 8443));
        let l = StationLink::parse("https://[::1]:9443/t1").expect("v6");
        assert_eq!(
            (l.host.as_str(), l.port, l.server().as_str()),
            ("::1", 9443, "[::1]:9443")
        );
    }

    #[test]
    fn a_link_that_is_not_a_stations_is_refused_naming_what_is_wrong() {
        assert_eq!(
            StationLink::parse("http://10.0.0.1:8443/a").expect_err("http"),
            "\"http://10.0.0.1:8443/a\" is not a station's link: it starts https:// (as the card prints it)"
        );
        assert_eq!(
            StationLink::parse("https://10.0.0.1:8443/").expect_err("no station"),
            "\"https://10.0.0.1:8443/\" names no station: the link ends with the station's name (https://HOST:PORT/NAME)"
        );
        assert_eq!(
            StationLink::parse("https://10.0.0.1:x/a").expect_err("port"),
            "\"https://10.0.0.1:x/a\": the port \"x\" is not a number"
        );
    }
}
