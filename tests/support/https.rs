//! A small blocking HTTPS client for the stations' API tests: hyper 1's HTTP/1.1 client over
//! tokio-rustls, the server's certificate checked against the event's authority pinned by
//! its fingerprint (`tls::PinnedAuthority`), one connection per request, on a runtime of its
//! own; and a Server-Sent Events stream read on that runtime, its chunks handed over on a
//! channel.
#![allow(dead_code)]

use super::wait::BOUND;
use ggdesk::tls::{Pin, PinnedAuthority};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// An answer: its status, its body as text and as JSON (`Null` when it is not JSON).
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub text: String,
    pub json: serde_json::Value,
}

impl Answer {
    /// The `error` of a refusal's body.
    pub fn error(&self) -> &str {
        self.json["error"].as_str().unwrap_or("")
    }
}

/// A client of one server.
pub struct Client {
    runtime: tokio::runtime::Runtime,
    addr: SocketAddr,
    tls: Arc<rustls::ClientConfig>,
}

/// An open stream: each chunk of its body as it comes; `None` once it ended.
pub struct Stream {
    pub status: u16,
    chunks: mpsc::Receiver<Option<String>>,
    pub seen: String,
    pub ended: bool,
}

impl Client {
    /// A client of the server at `addr` whose certificate the authority of fingerprint
    /// `fingerprint` signed.
    pub fn new(addr: SocketAddr, fingerprint: &str) -> Client {
        let pinned = PinnedAuthority::new(Pin::parse(fingerprint).expect("pin"));
        let tls = Arc::new(pinned.client_config().expect("client config"));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        Client { runtime, addr, tls }
    }

    async fn send(
        addr: SocketAddr,
        tls: Arc<rustls::ClientConfig>,
        request: hyper::Request<Full<Bytes>>,
    ) -> hyper::Response<hyper::body::Incoming> {
        let tcp = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let name = ServerName::IpAddress(addr.ip().into());
        let stream = tokio_rustls::TlsConnector::from(tls)
            .connect(name, tcp)
            .await
            .expect("TLS handshake");
        let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .expect("HTTP handshake");
        tokio::spawn(async move {
            let _ = conn.await;
        });
        sender.send_request(request).await.expect("an answer")
    }

    fn build(
        &self,
        method: &str,
        path: &str,
        secret: Option<&str>,
        body: Vec<u8>,
    ) -> hyper::Request<Full<Bytes>> {
        let mut b = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header("host", self.addr.to_string());
        if let Some(s) = secret {
            b = b.header("authorization", format!("Bearer {s}"));
        }
        if !body.is_empty() {
            b = b.header("content-type", "application/json");
        }
        b.body(Full::new(Bytes::from(body))).expect("request")
    }

    /// Sends a request and reads its whole answer.
    pub fn request(&self, method: &str, path: &str, secret: Option<&str>, body: &[u8]) -> Answer {
        let request = self.build(method, path, secret, body.to_vec());
        let (addr, tls) = (self.addr, self.tls.clone());
        self.runtime.block_on(async move {
            let res = tokio::time::timeout(BOUND, async {
                let res = Client::send(addr, tls, request).await;
                let status = res.status().as_u16();
                let bytes = res
                    .into_body()
                    .collect()
                    .await
                    .expect("the body")
                    .to_bytes();
                let text = String::from_utf8_lossy(&bytes).to_string();
                let json = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
                Answer { status, text, json }
            })
            .await;
            res.expect("an answer within the bound")
        })
    }

    pub fn get(&self, path: &str, secret: &str) -> Answer {
        self.request("GET", path, Some(secret), b"")
    }

    pub fn post(&self, path: &str, secret: &str, body: &serde_json::Value) -> Answer {
        self.request("POST", path, Some(secret), body.to_string().as_bytes())
    }

    pub fn put(&self, path: &str, secret: &str, body: &serde_json::Value) -> Answer {
        self.request("PUT", path, Some(secret), body.to_string().as_bytes())
    }

    /// Opens a stream: its status once its head came, then its chunks as they come.
    pub fn stream(&self, path: &str, secret: &str) -> Stream {
        let request = self.build("GET", path, Some(secret), Vec::new());
        let (addr, tls) = (self.addr, self.tls.clone());
        let (head_tx, head_rx) = mpsc::channel();
        let (tx, rx) = mpsc::channel();
        self.runtime.spawn(async move {
            let res = Client::send(addr, tls, request).await;
            let _ = head_tx.send(res.status().as_u16());
            let mut body = res.into_body();
            while let Some(frame) = body.frame().await {
                match frame {
                    Ok(f) => {
                        if let Some(data) = f.data_ref() {
                            let _ = tx.send(Some(String::from_utf8_lossy(data).to_string()));
                        }
                    }
                    Err(_) => break,
                }
            }
            let _ = tx.send(None);
        });
        let status = head_rx.recv_timeout(BOUND).expect("the stream's head");
        Stream {
            status,
            chunks: rx,
            seen: String::new(),
            ended: false,
        }
    }
}

impl Stream {
    /// Waits until what the stream sent contains `text` (or it ended); whether it does.
    pub fn wait_for(&mut self, text: &str) -> bool {
        let deadline = Instant::now() + BOUND;
        while !self.seen.contains(text) && !self.ended && Instant::now() < deadline {
            self.pull(Duration::from_millis(50));
        }
        self.seen.contains(text)
    }

    /// Waits until the stream ends; whether it did within the bound.
    pub fn wait_end(&mut self) -> bool {
        let deadline = Instant::now() + BOUND;
        while !self.ended && Instant::now() < deadline {
            self.pull(Duration::from_millis(50));
        }
        self.ended
    }

    fn pull(&mut self, wait: Duration) {
        match self.chunks.recv_timeout(wait) {
            Ok(Some(chunk)) => self.seen.push_str(&chunk),
            Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => self.ended = true,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
    }
}
