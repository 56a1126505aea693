//! The HTTP/1.1 of the public pages: a request head read into a [`Request`] under fixed
//! limits, and a [`Response`] written back. Only what a browser needs to GET a page: no
//! request bodies, no chunked encoding, no upgrades. Everything here is plain functions on
//! bytes, so every refusal is tested without a socket.

use std::sync::Arc;
use std::time::Duration;

/// The bounds every connection is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest request head (request line and headers), in bytes: larger is 431.
    pub max_head_bytes: usize,
    /// The most header lines in a request: more is 431.
    pub max_headers: usize,
    /// The longest request target (path and query): longer is 414.
    pub max_target_bytes: usize,
    /// Connections served at once (the worker threads).
    pub workers: usize,
    /// Connections accepted and waiting for a worker; one more is answered 503 and closed.
    pub queue: usize,
    /// Time allowed to send a whole request head once its first byte came: then 408.
    pub head_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// Time allowed for each write of a response.
    pub write_timeout: Duration,
    /// Requests served on one connection before it is closed.
    pub max_requests_per_connection: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_head_bytes: 8 * 1024,
            max_headers: 48,
            max_target_bytes: 2 * 1024,
            workers: 16,
            queue: 64,
            head_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(5),
            write_timeout: Duration::from_secs(10),
            max_requests_per_connection: 1000,
        }
    }
}

/// The two methods the pages answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
}

/// A request head that passed every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: Method,
    /// The path, as sent (not percent-decoded): routes match it literally.
    pub path: String,
    /// The query string after `?`, if any, as sent.
    pub query: Option<String>,
    /// The `Host` header, if any.
    pub host: Option<String>,
    /// The `If-None-Match` header, if any (several are joined with commas).
    pub if_none_match: Option<String>,
    /// Whether the client allows the connection to stay open after the response.
    pub keep_alive: bool,
}

/// Why a request head is refused; each maps to a status, and the connection is closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// 400: the head does not follow HTTP/1.1's grammar (the reason is for the body).
    Malformed(&'static str),
    /// 405: a method other than GET and HEAD.
    Method,
    /// 413: a request with a body.
    Body,
    /// 414: the request target is longer than the limit.
    TargetTooLong,
    /// 431: the head is larger than the limit, or has too many headers.
    HeadTooLarge,
    /// 505: an HTTP version other than 1.0 and 1.1.
    Version,
}

impl Refusal {
    pub fn status(&self) -> Status {
        match self {
            Refusal::Malformed(_) => Status::BAD_REQUEST,
            Refusal::Method => Status::METHOD_NOT_ALLOWED,
            Refusal::Body => Status::PAYLOAD_TOO_LARGE,
            Refusal::TargetTooLong => Status::URI_TOO_LONG,
            Refusal::HeadTooLarge => Status::HEADERS_TOO_LARGE,
            Refusal::Version => Status::VERSION_NOT_SUPPORTED,
        }
    }

    /// The text of the refusal's response.
    pub fn text(&self) -> String {
        match self {
            Refusal::Malformed(why) => format!("Bad request: {why}.\n"),
            Refusal::Method => "Only GET and HEAD are answered here.\n".into(),
            Refusal::Body => "Requests with a body are not accepted.\n".into(),
            Refusal::TargetTooLong => "The address is too long.\n".into(),
            Refusal::HeadTooLarge => "The request head is too large.\n".into(),
            Refusal::Version => "Only HTTP/1.0 and HTTP/1.1 are spoken here.\n".into(),
        }
    }
}

/// A status code with its reason phrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status(pub u16, pub &'static str);

impl Status {
    pub const OK: Status = Status(200, "OK");
    pub const NOT_MODIFIED: Status = Status(304, "Not Modified");
    pub const BAD_REQUEST: Status = Status(400, "Bad Request");
    pub const NOT_FOUND: Status = Status(404, "Not Found");
    pub const METHOD_NOT_ALLOWED: Status = Status(405, "Method Not Allowed");
    pub const REQUEST_TIMEOUT: Status = Status(408, "Request Timeout");
    pub const PAYLOAD_TOO_LARGE: Status = Status(413, "Content Too Large");
    pub const URI_TOO_LONG: Status = Status(414, "URI Too Long");
    pub const HEADERS_TOO_LARGE: Status = Status(431, "Request Header Fields Too Large");
    pub const UNAVAILABLE: Status = Status(503, "Service Unavailable");
    pub const VERSION_NOT_SUPPORTED: Status = Status(505, "HTTP Version Not Supported");
}

/// Where the head ends in `buf`: the head's length (without the blank line) and the bytes to
/// consume (with it), once a blank line follows at least one line. Lines end in CRLF or, as
/// RFC 9112 lets a server accept, a bare LF. Empty lines before the request line are skipped
/// by the caller ([`skip_leading_blank_lines`]).
pub fn find_head_end(buf: &[u8]) -> Option<(usize, usize)> {
    let mut line_start = 0;
    for (i, &b) in buf.iter().enumerate() {
        if b != b'\n' {
            continue;
        }
        let line = &buf[line_start..i];
        let blank = line.is_empty() || line == b"\r";
        if blank && line_start > 0 {
            return Some((line_start, i + 1));
        }
        line_start = i + 1;
    }
    None
}

/// Drops the empty lines a client may send before a request line (RFC 9112, 2.2).
pub fn skip_leading_blank_lines(buf: &mut Vec<u8>) {
    let n = buf
        .iter()
        .take_while(|&&b| b == b'\r' || b == b'\n')
        .count();
    if n > 0 {
        buf.drain(..n);
    }
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn is_token(s: &[u8]) -> bool {
    !s.is_empty() && s.iter().all(|&b| is_tchar(b))
}

/// Header values: visible ASCII, space, tab and bytes above 0x7F (obs-text); no controls.
fn is_field_value(s: &[u8]) -> bool {
    s.iter()
        .all(|&b| b == b'\t' || b == b' ' || (0x21..=0x7e).contains(&b) || b >= 0x80)
}

fn trim_ows(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

/// Reads a request head (without its final blank line) into a [`Request`], or says why it
/// is refused.
pub fn parse_head(head: &[u8], limits: &Limits) -> Result<Request, Refusal> {
    if head.len() > limits.max_head_bytes {
        return Err(Refusal::HeadTooLarge);
    }
    // The head as found ends with its last line's terminator.
    let head = head.strip_suffix(b"\n").unwrap_or(head);
    let mut lines = head.split(|&b| b == b'\n').map(|l| match l {
        [rest @ .., b'\r'] => rest,
        l => l,
    });
    let request_line = lines.next().unwrap_or_default();
    if request_line.contains(&b'\r') {
        return Err(Refusal::Malformed(
            "a bare carriage return in the request line",
        ));
    }
    let mut parts = request_line.split(|&b| b == b' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Refusal::Malformed(
            "the request line must be METHOD TARGET VERSION, separated by single spaces",
        ));
    };
    if !is_token(method) {
        return Err(Refusal::Malformed("the method is not a token"));
    }
    if target.len() > limits.max_target_bytes {
        return Err(Refusal::TargetTooLong);
    }
    if target.is_empty() || !target.iter().all(|&b| (0x21..=0x7e).contains(&b)) {
        return Err(Refusal::Malformed(
            "the request target must be visible ASCII without spaces",
        ));
    }
    let http11 = match version {
        b"HTTP/1.1" => true,
        b"HTTP/1.0" => false,
        [b'H', b'T', b'T', b'P', b'/', major, b'.', minor]
            if major.is_ascii_digit() && minor.is_ascii_digit() =>
        {
            return Err(Refusal::Version);
        }
        _ => return Err(Refusal::Malformed("the HTTP version is not HTTP/1.x")),
    };

    let mut host: Option<String> = None;
    let mut hosts = 0;
    let mut if_none_match: Option<String> = None;
    let mut connection_close = false;
    let mut connection_keep_alive = false;
    let mut content_length: Option<u64> = None;
    let mut chunked = false;
    let mut count = 0;
    for line in lines {
        count += 1;
        if count > limits.max_headers {
            return Err(Refusal::HeadTooLarge);
        }
        if line.first().is_some_and(|&b| b == b' ' || b == b'\t') {
            return Err(Refusal::Malformed(
                "a header line is folded (starts with white space)",
            ));
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return Err(Refusal::Malformed("a header line has no colon"));
        };
        let (name, value) = (&line[..colon], trim_ows(&line[colon + 1..]));
        if !is_token(name) {
            return Err(Refusal::Malformed(
                "a header name is not a token (no white space before the colon)",
            ));
        }
        if !is_field_value(value) {
            return Err(Refusal::Malformed(
                "a header value holds a control character",
            ));
        }
        let text = String::from_utf8_lossy(value);
        match name.to_ascii_lowercase().as_slice() {
            b"host" => {
                hosts += 1;
                host = Some(text.into_owned());
            }
            b"if-none-match" => {
                if_none_match = Some(match if_none_match {
                    Some(before) => format!("{before}, {text}"),
                    None => text.into_owned(),
                });
            }
            b"connection" => {
                for option in text.split(',') {
                    let option = option.trim();
                    connection_close |= option.eq_ignore_ascii_case("close");
                    connection_keep_alive |= option.eq_ignore_ascii_case("keep-alive");
                }
            }
            b"content-length" => {
                let valid = !value.is_empty() && value.iter().all(u8::is_ascii_digit);
                let n = if valid {
                    text.parse::<u64>().ok()
                } else {
                    None
                };
                match (n, content_length) {
                    (None, _) => return Err(Refusal::Malformed("Content-Length is not a number")),
                    (Some(n), Some(before)) if n != before => {
                        return Err(Refusal::Malformed("two different Content-Length headers"));
                    }
                    (Some(n), _) => content_length = Some(n),
                }
            }
            b"transfer-encoding" => chunked = true,
            _ => {}
        }
    }
    if http11 && hosts != 1 {
        return Err(Refusal::Malformed(
            "an HTTP/1.1 request needs exactly one Host header",
        ));
    }
    if hosts > 1 {
        return Err(Refusal::Malformed("more than one Host header"));
    }
    if chunked {
        // A body of unknown length cannot be skipped safely: refuse it whatever the method.
        return Err(Refusal::Malformed("Transfer-Encoding is not accepted"));
    }
    let method = match method {
        b"GET" => Method::Get,
        b"HEAD" => Method::Head,
        _ => return Err(Refusal::Method),
    };
    if content_length.is_some_and(|n| n > 0) {
        return Err(Refusal::Body);
    }
    let target = String::from_utf8_lossy(target);
    let origin =
        origin_form(&target).ok_or(Refusal::Malformed("the request target must be a path"))?;
    let (path, query) = match origin.split_once('?') {
        Some((p, q)) => (p.to_string(), Some(q.to_string())),
        None => (origin.to_string(), None),
    };
    Ok(Request {
        method,
        path,
        query,
        host,
        if_none_match,
        keep_alive: if http11 {
            !connection_close
        } else {
            connection_keep_alive && !connection_close
        },
    })
}

/// The path and query of a target in origin form (`/a?b`) or absolute form
/// (`http://host/a?b`, which a server must accept); `None` for any other form.
fn origin_form(target: &str) -> Option<&str> {
    if target.starts_with('/') {
        return Some(target);
    }
    let lower = target.get(..8).map(str::to_ascii_lowercase);
    let rest = match lower.as_deref() {
        Some(p) if p.starts_with("http://") => &target[7..],
        Some("https://") => &target[8..],
        _ => return None,
    };
    match rest.find(['/', '?']) {
        Some(i) if rest[i..].starts_with('/') => Some(&rest[i..]),
        Some(_) => None,
        None => Some("/"),
    }
}

/// Whether an `If-None-Match` header matches `etag` (weak comparison, as RFC 9110 asks
/// for GET and HEAD).
pub fn etag_matches(if_none_match: &str, etag: &str) -> bool {
    let bare = |t: &str| -> String { t.trim().trim_start_matches("W/").to_string() };
    let etag = bare(etag);
    if_none_match
        .split(',')
        .any(|t| t.trim() == "*" || bare(t) == etag)
}

/// A response to write.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: Status,
    pub content_type: &'static str,
    pub body: Arc<[u8]>,
    pub etag: Option<Arc<str>>,
    /// The page is HTML: it gets the content security policy.
    pub html: bool,
    /// Close the connection after this response.
    pub close: bool,
}

impl Response {
    /// A plain-text response.
    pub fn text(status: Status, text: &str) -> Response {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: Arc::from(text.as_bytes()),
            etag: None,
            html: false,
            close: false,
        }
    }

    /// The response to a refused head: the connection is closed after it.
    pub fn refusal(refusal: &Refusal) -> Response {
        Response {
            close: true,
            ..Response::text(refusal.status(), &refusal.text())
        }
    }

    /// The bytes to send: status line, headers and (unless `head_only` or a 304) the body.
    /// `keep_alive` says whether the connection stays open afterwards.
    pub fn to_bytes(&self, head_only: bool, keep_alive: bool, date: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(400 + self.body.len());
        let mut line = |s: &str| {
            out.extend_from_slice(s.as_bytes());
            out.extend_from_slice(b"\r\n");
        };
        line(&format!("HTTP/1.1 {} {}", self.status.0, self.status.1));
        line(&format!("Date: {date}"));
        line("Server: ggdesk");
        let not_modified = self.status == Status::NOT_MODIFIED;
        if !not_modified {
            line(&format!("Content-Type: {}", self.content_type));
            line(&format!("Content-Length: {}", self.body.len()));
        }
        if let Some(etag) = &self.etag {
            line(&format!("ETag: {etag}"));
        }
        // Every answer may be kept, but must be checked again (a 304 when unchanged).
        line("Cache-Control: no-cache");
        line("X-Content-Type-Options: nosniff");
        line("Referrer-Policy: no-referrer");
        if self.html {
            line(
                "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; \
                 script-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; \
                 frame-ancestors 'none'",
            );
        }
        if self.status == Status::METHOD_NOT_ALLOWED {
            line("Allow: GET, HEAD");
        }
        if self.status == Status::UNAVAILABLE {
            line("Retry-After: 2");
        }
        line(if keep_alive {
            "Connection: keep-alive"
        } else {
            "Connection: close"
        });
        out.extend_from_slice(b"\r\n");
        if !head_only && !not_modified {
            out.extend_from_slice(&self.body);
        }
        out
    }
}

/// A `Date` header value for a Unix time in seconds (RFC 9110's IMF-fixdate).
pub fn http_date(unix_seconds: i64) -> String {
    match chrono::DateTime::from_timestamp(unix_seconds, 0) {
        Some(t) => t.format("%a, %d %b %Y %H:%M:%S GMT").to_string(),
        None => "Thu, 01 Jan 1970 00:00:00 GMT".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Request, Refusal> {
        let bytes = text.as_bytes();
        let (len, _) = find_head_end(bytes).expect("a whole head");
        parse_head(&bytes[..len], &Limits::default())
    }

    #[test]
    fn a_browser_get_is_read_with_its_path_query_and_validators() {
        let r = parse(
            "GET /t/1/names?q=cruz HTTP/1.1\r\nHost: 10.0.0.5:8080\r\nIf-None-Match: \"ab\"\r\n\
             Accept: text/html\r\n\r\n",
        )
        .expect("valid");
        assert_eq!(r.method, Method::Get);
        assert_eq!(r.path, "/t/1/names");
        assert_eq!(r.query.as_deref(), Some("q=cruz"));
        assert_eq!(r.host.as_deref(), Some("10.0.0.5:8080"));
        assert_eq!(r.if_none_match.as_deref(), Some("\"ab\""));
        assert!(r.keep_alive);
    }

    #[test]
    fn keep_alive_follows_the_version_and_the_connection_header() {
        let r = parse("HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").expect("ok");
        assert_eq!(r.method, Method::Head);
        assert!(!r.keep_alive);
        assert!(!parse("GET / HTTP/1.0\r\n\r\n").expect("1.0").keep_alive);
        assert!(
            parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")
                .expect("1.0")
                .keep_alive
        );
    }

    #[test]
    fn bare_line_feeds_and_absolute_targets_are_accepted() {
        let r = parse("GET http://h:1/api/tournaments?x HTTP/1.1\nHost: h:1\n\n").expect("ok");
        assert_eq!(r.path, "/api/tournaments");
        assert_eq!(r.query.as_deref(), Some("x"));
        assert_eq!(
            parse("GET http://h HTTP/1.1\nHost: h\n\n")
                .expect("ok")
                .path,
            "/"
        );
    }

    #[test]
    fn malformed_heads_are_refused_with_400() {
        for bad in [
            "GET / HTTP/1.1\r\n\r\n",                           // no Host
            "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",     // two Hosts
            "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",               // double space
            "GET /\r\nHost: a\r\n\r\n",                         // no version
            "GET / HTTP/1.1 x\r\nHost: a\r\n\r\n",              // four parts
            "G(T / HTTP/1.1\r\nHost: a\r\n\r\n",                // method not a token
            "GET / FTP/1.1\r\nHost: a\r\n\r\n",                 // not HTTP
            "GET nowhere HTTP/1.1\r\nHost: a\r\n\r\n",          // not a path
            "GET * HTTP/1.1\r\nHost: a\r\n\r\n",                // asterisk form
            "GET / HTTP/1.1\r\nHost: a\r\nBad Name: v\r\n\r\n", // space in name
            "GET / HTTP/1.1\r\nHost : a\r\n\r\n",               // space before colon
            "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\x01b\r\n\r\n", // control character
            "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n",
            "GET /\x7f HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET / HT\rTP/1.1\r\nHost: a\r\n\r\n",
        ] {
            match parse(bad) {
                Err(Refusal::Malformed(_)) => {}
                other => panic!("{bad:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn other_methods_bodies_versions_and_sizes_get_their_own_status() {
        let limits = Limits::default();
        let status = |text: &str| {
            let bytes = text.as_bytes();
            let (len, _) = find_head_end(bytes).expect("head");
            parse_head(&bytes[..len], &limits)
                .map(|_| Status::OK)
                .unwrap_or_else(|r| r.status())
        };
        assert_eq!(
            status("POST / HTTP/1.1\r\nHost: a\r\n\r\n"),
            Status::METHOD_NOT_ALLOWED
        );
        assert_eq!(
            status("DELETE /t/1 HTTP/1.1\r\nHost: a\r\n\r\n"),
            Status::METHOD_NOT_ALLOWED
        );
        assert_eq!(
            status("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n"),
            Status::PAYLOAD_TOO_LARGE
        );
        assert_eq!(
            status("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"),
            Status::OK
        );
        assert_eq!(
            status("GET / HTTP/2.0\r\nHost: a\r\n\r\n"),
            Status::VERSION_NOT_SUPPORTED
        );
        let long = format!("GET /{} HTTP/1.1\r\nHost: a\r\n\r\n", "a".repeat(3000));
        assert_eq!(status(&long), Status::URI_TOO_LONG);
        let many: String = (0..49).map(|i| format!("X-{i}: v\r\n")).collect();
        assert_eq!(
            status(&format!("GET / HTTP/1.1\r\nHost: a\r\n{many}\r\n")),
            Status::HEADERS_TOO_LARGE
        );
        let big = format!(
            "GET / HTTP/1.1\r\nHost: a\r\nX: {}\r\n\r\n",
            "v".repeat(9000)
        );
        assert_eq!(status(&big), Status::HEADERS_TOO_LARGE);
    }

    #[test]
    fn the_head_ends_at_the_first_blank_line_and_leading_blank_lines_are_skipped() {
        assert_eq!(find_head_end(b"GET / HTTP/1.1\r\nHost: a\r\n"), None);
        assert_eq!(
            find_head_end(b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET"),
            Some((25, 27))
        );
        assert_eq!(find_head_end(b"GET / HTTP/1.0\n\nrest"), Some((15, 16)));
        let mut buf = b"\r\n\r\nGET / HTTP/1.0\r\n\r\n".to_vec();
        skip_leading_blank_lines(&mut buf);
        assert!(buf.starts_with(b"GET"));
    }

    #[test]
    fn if_none_match_compares_weakly_and_accepts_lists_and_a_star() {
        assert!(etag_matches("\"abc\"", "\"abc\""));
        assert!(etag_matches("W/\"abc\"", "\"abc\""));
        assert!(etag_matches("\"x\", \"abc\"", "\"abc\""));
        assert!(etag_matches("*", "\"abc\""));
        assert!(!etag_matches("\"abd\"", "\"abc\""));
    }

    #[test]
    fn a_304_carries_no_body_and_a_head_answer_no_body_but_its_length() {
        let mut r = Response::text(Status::OK, "hello");
        r.etag = Some(Arc::from("\"e\""));
        let head = String::from_utf8(r.to_bytes(true, true, "d")).expect("utf8");
        assert!(head.contains("Content-Length: 5\r\n"), "{head}");
        assert!(head.ends_with("\r\n\r\n"), "{head}");
        r.status = Status::NOT_MODIFIED;
        let nm = String::from_utf8(r.to_bytes(false, true, "d")).expect("utf8");
        assert!(nm.starts_with("HTTP/1.1 304 Not Modified\r\n"), "{nm}");
        assert!(
            nm.contains("ETag: \"e\"\r\n") && !nm.contains("hello"),
            "{nm}"
        );
        assert_eq!(http_date(784111777), "Sun, 06 Nov 1994 08:49:37 GMT");
    }
}
