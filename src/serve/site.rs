//! The pages' answers, and the cache that keeps a crowd of phones cheap.
//!
//! Each page is rendered from the view the watcher last read (`watch::Views`) and kept with
//! that view's [`Version`]: until the view changes (or the pages go stale or come back), every
//! request for it is answered from the cache, with no database read and no rendering. A page
//! kept is kept compressed too, in each coding once a phone has asked for it in that coding
//! (computed once, on a thread of the blocking pool, whoever asks meanwhile waiting for the
//! same work): phones all ask for brotli, so gzip is never made for nothing, and a page
//! nobody asks for again before it changes is compressed once at most. After the first, a
//! phone's request costs a copy of bytes whatever it accepts. Its ETag is weak (`W/"…"`, the same for every encoding of the same body), a
//! hash of the body: an unchanged page is a 304 even after the view changed elsewhere.
//!
//! A search (`?q=`) and the wall page (which shows the address the phone used) are rendered
//! for each request and never kept: varied at will, searches would push everyone's pages out
//! of the cache. tower-http's compression layer compresses those as they go out.

use super::api;
use super::html;
use super::net::Counters;
use super::public::{EventIndex, PlayerRatings, RatingList, TournamentData};
use super::qr::QrMatrix;
use super::routes::{ENDPOINTS, Route, View};
use super::team_html;
use super::teams::TeamData;
use super::watch::{Unavailable, Version, Views, lock};
use axum::body::Body;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, HeaderName, HeaderValue, RETRY_AFTER, VARY,
};
use axum::http::{Response, StatusCode};
use bytes::Bytes;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::OnceCell;

pub const HTML: &str = "text/html; charset=utf-8";
pub const JSON: &str = "application/json";
const JS: &str = "text/javascript; charset=utf-8";
const TEXT: &str = "text/plain; charset=utf-8";

/// The rendered pages kept, in bytes (all encodings); beyond it the cache starts again empty.
const PAGE_CACHE_BYTES: usize = 64 * 1024 * 1024;
/// Smaller bodies are sent as they are: compressing them saves nothing worth the work.
const COMPRESS_FROM_BYTES: usize = 256;
/// Brotli's quality and window for a page kept, and gzip's level. Measured on a 100 KB
/// standings page and a 6 KB player's page (release build, `brotli` 8): quality 9 with a
/// 4 MiB window took 73-103 ms and 15-25 ms (most of the small page's time is setting up
/// the window's tables), quality 5 with a 256 KiB window 4-6 ms and 0.3 ms, for at most 5 %
/// more bytes on the large page (the bench's standings: 7,031 B instead of 7,000); gzip
/// 9 took 5-8 ms on the large page, 6 took 2.6 ms for 1.5 % more. At a result every few
/// seconds a large event's pages are all made again, so the cheaper settings are what lets a
/// 2-core machine keep up. The window holds any page up to 256 KiB whole.
const BROTLI_QUALITY: i32 = 5;
const BROTLI_WINDOW: i32 = 18;
const GZIP_LEVEL: u32 = 6;

/// A content coding a phone accepts, in the server's order of preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

/// The coding to answer with for an `Accept-Encoding` header: brotli if accepted, else gzip,
/// else none. A coding with `q=0` is refused; `*` stands for any coding not named.
pub fn preferred_encoding(accept: Option<&str>) -> Encoding {
    let (mut br, mut gzip, mut star) = (None, None, false);
    for item in accept.unwrap_or("").split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .find_map(|p| {
                let p = p.trim();
                p.strip_prefix("q=").or_else(|| p.strip_prefix("Q="))
            })
            .map_or(1.0, |v| v.trim().parse::<f32>().unwrap_or(0.0));
        let accepted = q > 0.0;
        match name.as_str() {
            "br" => br = Some(accepted),
            "gzip" | "x-gzip" => gzip = Some(accepted),
            "*" => star = accepted,
            _ => {}
        }
    }
    if br.unwrap_or(star) {
        Encoding::Brotli
    } else if gzip.unwrap_or(star) {
        Encoding::Gzip
    } else {
        Encoding::Identity
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

fn etag_of(body: &[u8]) -> HeaderValue {
    // SipHash with fixed keys: the same body always gets the same tag, across restarts.
    let mut h = std::hash::DefaultHasher::new();
    body.hash(&mut h);
    let tag = format!("W/\"{:016x}{:04x}\"", h.finish(), body.len() & 0xffff);
    HeaderValue::from_str(&tag).unwrap_or_else(|_| HeaderValue::from_static("W/\"0\""))
}

pub fn gzip(body: &[u8]) -> Option<Vec<u8>> {
    let mut enc = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4),
        flate2::Compression::new(GZIP_LEVEL),
    );
    enc.write_all(body).ok()?;
    enc.finish().ok()
}

pub fn brotli(body: &[u8]) -> Option<Vec<u8>> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: BROTLI_QUALITY,
        lgwin: BROTLI_WINDOW,
        size_hint: body.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(body.len() / 5);
    brotli::BrotliCompress(&mut &body[..], &mut out, &params).ok()?;
    Some(out)
}

/// Whether a page is kept for the requests to come (and so worth compressing once now), or
/// rendered for one request only (tower-http compresses it as it goes out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reuse {
    Kept,
    ThisRequest,
}

/// A coding's compression of a body ([`brotli`], [`gzip`]).
type Compressor = fn(&[u8]) -> Option<Vec<u8>>;

/// An answer ready to send: its body as rendered and, for a page kept, compressed in each
/// coding once asked for.
#[derive(Debug)]
pub struct Page {
    status: StatusCode,
    content_type: &'static str,
    etag: Option<HeaderValue>,
    identity: Bytes,
    /// Kept and large enough to be worth compressing.
    compressible: bool,
    /// The body in brotli and in gzip, once asked for (`None`: no smaller than the body).
    br: OnceCell<Option<Bytes>>,
    gzip: OnceCell<Option<Bytes>>,
}

impl Page {
    /// A page as rendered, with its ETag; compressed later, in the codings asked for, when
    /// kept (and worth it).
    fn new(content_type: &'static str, body: Vec<u8>, reuse: Reuse) -> Page {
        Page {
            status: StatusCode::OK,
            content_type,
            etag: Some(etag_of(&body)),
            compressible: reuse == Reuse::Kept && body.len() >= COMPRESS_FROM_BYTES,
            identity: Bytes::from(body),
            br: OnceCell::new(),
            gzip: OnceCell::new(),
        }
    }

    fn plain(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> Page {
        Page {
            status,
            content_type,
            etag: None,
            identity: body.into(),
            compressible: false,
            br: OnceCell::new(),
            gzip: OnceCell::new(),
        }
    }

    /// Bytes held, all encodings made so far.
    fn size(&self) -> usize {
        let made =
            |c: &OnceCell<Option<Bytes>>| c.get().and_then(Option::as_ref).map_or(0, Bytes::len);
        self.identity.len() + made(&self.br) + made(&self.gzip)
    }

    /// The body in `encoding` and its `Content-Encoding`, compressed now if this is the first
    /// request for it (on the blocking pool; a request meanwhile waits for the same work);
    /// the body as it is when it is not kept, too small, or no smaller compressed. Also
    /// the bytes this call added to the page.
    async fn coded(&self, encoding: Encoding) -> (Bytes, Option<&'static str>, usize) {
        let (cell, name, compress): (_, _, Compressor) = match encoding {
            _ if !self.compressible => return (self.identity.clone(), None, 0),
            Encoding::Identity => return (self.identity.clone(), None, 0),
            Encoding::Brotli => (&self.br, "br", brotli),
            Encoding::Gzip => (&self.gzip, "gzip", gzip),
        };
        let mut added = 0;
        let made = cell
            .get_or_init(|| async {
                let body = self.identity.clone();
                let made = tokio::task::spawn_blocking(move || {
                    compress(&body).filter(|c| c.len() < body.len())
                })
                .await
                .ok()
                .flatten()
                .map(Bytes::from);
                added = made.as_ref().map_or(0, Bytes::len);
                made
            })
            .await;
        match made {
            Some(coded) => (coded.clone(), Some(name), added),
            None => (self.identity.clone(), None, 0),
        }
    }

    /// Whether a request with this `If-None-Match` has the page already (a 304).
    fn not_modified(&self, if_none_match: Option<&str>) -> bool {
        self.status == StatusCode::OK
            && match (&self.etag, if_none_match) {
                (Some(etag), Some(inm)) => etag.to_str().is_ok_and(|e| etag_matches(inm, e)),
                _ => false,
            }
    }

    /// The response for a phone that accepts `encoding`: a 304 when its `If-None-Match`
    /// holds the page's tag. Also the bytes compressing it for this request added to the
    /// page.
    async fn respond(
        &self,
        encoding: Encoding,
        if_none_match: Option<&str>,
    ) -> (Response<Body>, usize) {
        if self.not_modified(if_none_match) {
            return (self.response(Bytes::new(), None, true), 0);
        }
        let (body, coding, added) = self.coded(encoding).await;
        (self.response(body, coding, false), added)
    }

    /// The response of a page never compressed (an error's), whatever the phone accepts.
    fn respond_plain(&self) -> Response<Body> {
        self.response(self.identity.clone(), None, false)
    }

    fn response(
        &self,
        body: Bytes,
        coding: Option<&'static str>,
        not_modified: bool,
    ) -> Response<Body> {
        let mut res = Response::new(Body::from(body));
        *res.status_mut() = if not_modified {
            StatusCode::NOT_MODIFIED
        } else {
            self.status
        };
        let h = res.headers_mut();
        h.insert(CONTENT_TYPE, HeaderValue::from_static(self.content_type));
        // Every answer may be kept, but must be checked again (a 304 when unchanged).
        h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        if let Some(etag) = &self.etag {
            h.insert(ETAG, etag.clone());
        }
        if self.compressible {
            h.insert(VARY, HeaderValue::from_static("accept-encoding"));
        }
        if let Some(coding) = coding {
            h.insert(CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            h.insert(RETRY_AFTER, HeaderValue::from_static("2"));
        }
        res
    }
}

/// What a request brings besides its route.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    pub host: Option<&'a str>,
    pub if_none_match: Option<&'a str>,
    pub encoding: Encoding,
}

/// Why a page could not be given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    /// No view of it was ever read, and the database cannot be read now.
    Unavailable,
    /// Rendering it failed (a bug): the page is not kept.
    Internal,
}

impl From<Unavailable> for Failure {
    fn from(_: Unavailable) -> Failure {
        Failure::Unavailable
    }
}

struct Entry {
    version: Version,
    cell: Arc<OnceCell<Option<Arc<Page>>>>,
}

#[derive(Default)]
struct Pages {
    map: HashMap<String, Entry>,
    bytes: usize,
}

/// The view a page is rendered from.
#[derive(Clone)]
enum Rendered {
    Index(Arc<EventIndex>),
    Tournament(Arc<TournamentData>),
    Ratings(Arc<RatingList>),
    RatedPlayer(Arc<PlayerRatings>),
}

/// The public site: the cache, the views it renders from, and the pages that never change.
pub struct Site {
    views: Arc<Views>,
    pages: Mutex<Pages>,
    counters: Arc<Counters>,
    /// How long a request waits for a view never read before it is answered 503.
    wait: Duration,
    /// The address phones use, for the wall page when the request's own is a loopback one.
    public_url: String,
    script: Arc<Page>,
    hall_script: Arc<Page>,
    endpoints: Arc<Page>,
}

impl Site {
    pub fn new(
        views: Arc<Views>,
        counters: Arc<Counters>,
        wait: Duration,
        public_url: String,
    ) -> Site {
        let endpoints = api::endpoints(ENDPOINTS);
        Site {
            views,
            pages: Mutex::new(Pages::default()),
            counters,
            wait,
            public_url,
            script: Arc::new(Page::new(
                JS,
                html::LIVE_JS.as_bytes().to_vec(),
                Reuse::Kept,
            )),
            hall_script: Arc::new(Page::new(
                JS,
                html::HALL_JS.as_bytes().to_vec(),
                Reuse::Kept,
            )),
            endpoints: Arc::new(Page::new(JSON, json_bytes(&endpoints), Reuse::Kept)),
        }
    }

    pub fn views(&self) -> &Arc<Views> {
        &self.views
    }

    /// The answer to a route (streams apart: `net` answers those).
    pub async fn respond(&self, route: &Route, asked: Asked<'_>) -> Response<Body> {
        let page = match route {
            Route::Script => Ok(Some(self.script.clone())),
            Route::ApiEndpoints => Ok(Some(self.endpoints.clone())),
            Route::Events(_) => Ok(None),
            Route::Wall => self.wall(asked.host).await,
            Route::HallScript => Ok(Some(self.hall_script.clone())),
            Route::Hall(t) => self.hall(*t, asked.host).await,
            _ => self.cached(route).await,
        };
        match page {
            Ok(Some(page)) => {
                let (mut res, added) = page.respond(asked.encoding, asked.if_none_match).await;
                if added > 0 {
                    lock(&self.pages).bytes += added;
                }
                if let Some(value) = self.views.stale().and_then(|as_of| stale_header(&as_of)) {
                    res.headers_mut().insert(STALE, value);
                }
                res
            }
            Ok(None) => not_found(route.is_api()),
            Err(Failure::Unavailable) => unavailable(),
            Err(Failure::Internal) => Page::plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                TEXT,
                "This page could not be made. The other pages are not affected.\n",
            )
            .respond_plain(),
        }
    }

    /// Renders a page on the blocking pool (a large event's pages take milliseconds).
    async fn render(
        &self,
        route: Route,
        rendered: Rendered,
        stale: Option<Arc<str>>,
        reuse: Reuse,
    ) -> Result<Option<Page>, Failure> {
        let counters = self.counters.clone();
        tokio::task::spawn_blocking(move || {
            let page = render(&route, &rendered, stale.as_deref(), reuse);
            if page.is_some() {
                counters.rendered.fetch_add(1, Ordering::Relaxed);
            }
            page
        })
        .await
        .map_err(|_| Failure::Internal)
    }

    /// A page from the cache when it was rendered from the current view, else rendered now
    /// (once, whoever else asks meanwhile: they wait for the same rendering).
    async fn cached(&self, route: &Route) -> Result<Option<Arc<Page>>, Failure> {
        let (version, rendered) = match route.view() {
            View::Index => {
                let (version, index) = self.views.index(self.wait).await?;
                (version, Rendered::Index(index))
            }
            View::Tournament(t) => match self.views.tournament(t, self.wait).await? {
                Some((version, data)) => (version, Rendered::Tournament(data)),
                None => return Ok(None),
            },
            View::Ratings => {
                let (version, list) = self.views.ratings(self.wait).await?;
                (version, Rendered::Ratings(list))
            }
            View::RatedPlayer(id) => match self.views.rated_player(id, self.wait).await? {
                Some((version, player)) => (version, Rendered::RatedPlayer(player)),
                None => return Ok(None),
            },
        };
        let Some(key) = route.cache_key() else {
            let page = self
                .render(
                    route.clone(),
                    rendered,
                    version.stale.clone(),
                    Reuse::ThisRequest,
                )
                .await?;
            return Ok(page.map(Arc::new));
        };
        let cell = {
            let mut pages = lock(&self.pages);
            match pages.map.get(key.as_str()) {
                Some(e) if e.version == version => e.cell.clone(),
                _ => {
                    let cell = Arc::new(OnceCell::new());
                    let old = pages.map.insert(
                        key.clone(),
                        Entry {
                            version: version.clone(),
                            cell: cell.clone(),
                        },
                    );
                    if let Some(Some(old)) = old.as_ref().and_then(|e| e.cell.get()) {
                        pages.bytes = pages.bytes.saturating_sub(old.size());
                    }
                    cell
                }
            }
        };
        let page = cell
            .get_or_try_init(|| async {
                let page = self
                    .render(route.clone(), rendered, version.stale.clone(), Reuse::Kept)
                    .await?
                    .map(Arc::new);
                if let Some(page) = &page {
                    let mut pages = lock(&self.pages);
                    pages.bytes += page.size();
                    if pages.bytes > PAGE_CACHE_BYTES {
                        pages.map.clear();
                        pages.bytes = 0;
                    }
                }
                Ok::<_, Failure>(page)
            })
            .await?;
        if page.is_none() {
            // Nothing to show (a number no player has): nothing is kept for it, so that made-up
            // addresses cannot fill the cache with entries.
            let mut pages = lock(&self.pages);
            if pages
                .map
                .get(&key)
                .is_some_and(|e| Arc::ptr_eq(&e.cell, &cell))
            {
                pages.map.remove(&key);
            }
        }
        Ok(page.clone())
    }

    async fn wall(&self, host: Option<&str>) -> Result<Option<Arc<Page>>, Failure> {
        let (version, index) = self.views.index(self.wait).await?;
        let url = self.wall_url(host);
        self.with_qr(url, version.stale.clone(), move |url, svg| {
            html::wall(&index, url, svg)
        })
        .await
    }

    /// A tournament's hall display, its QR code to the tournament's phone pages at the
    /// address the screen asked (or the server's public one).
    async fn hall(&self, t: i64, host: Option<&str>) -> Result<Option<Arc<Page>>, Failure> {
        let Some((version, data)) = self.views.tournament(t, self.wait).await? else {
            return Ok(None);
        };
        let url = format!("{}t/{t}", self.wall_url(host));
        self.with_qr(url, version.stale.clone(), move |url, svg| {
            html::hall(&data, url, svg)
        })
        .await
    }

    /// A page made for this request only (it names the address asked), with a QR code of
    /// `url`: rendered off the runtime, marked stale when its view is.
    async fn with_qr(
        &self,
        url: String,
        stale: Option<Arc<str>>,
        render: impl FnOnce(&str, &str) -> String + Send + 'static,
    ) -> Result<Option<Arc<Page>>, Failure> {
        let counters = self.counters.clone();
        let page = tokio::task::spawn_blocking(move || {
            let svg = QrMatrix::new(&url)
                .map(|q| q.to_svg(&url))
                .unwrap_or_default();
            let mut text = render(&url, &svg);
            if let Some(as_of) = &stale {
                text = html::mark_stale(&text, as_of);
            }
            counters.rendered.fetch_add(1, Ordering::Relaxed);
            Page::new(HTML, text.into_bytes(), Reuse::ThisRequest)
        })
        .await
        .map_err(|_| Failure::Internal)?;
        Ok(Some(Arc::new(page)))
    }

    fn wall_url(&self, host: Option<&str>) -> String {
        match host.filter(|h| valid_host(h) && !is_loopback_host(h)) {
            Some(h) => format!("http://{h}/"),
            None => self.public_url.clone(),
        }
    }

    /// Pages kept now (for the tests of the cache).
    #[cfg(test)]
    fn kept(&self) -> usize {
        lock(&self.pages).map.len()
    }
}

/// The header every answer carries while the database cannot be read (the JSON's too, whose
/// bodies keep their shape): `Ggdesk-Stale: as of 14:32`, the local time of the last check
/// that could read it.
pub const STALE: HeaderName = HeaderName::from_static("ggdesk-stale");

fn stale_header(as_of: &str) -> Option<HeaderValue> {
    HeaderValue::from_str(&format!("as of {as_of}")).ok()
}

/// JSON text with `<`, `>` and `&` written as `\u` escapes (they occur only inside strings),
/// so that no answer holds markup even if something mistook it for HTML.
fn json_bytes(v: &serde_json::Value) -> Vec<u8> {
    let text = serde_json::to_string(v).unwrap_or_else(|_| "null".into());
    let mut out = String::with_capacity(text.len() + 1);
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    out.push('\n');
    out.into_bytes()
}

/// Renders a route from its view (with the stale line when `stale` says as of when); `None`
/// when the thing asked for does not exist.
fn render(route: &Route, rendered: &Rendered, stale: Option<&str>, reuse: Reuse) -> Option<Page> {
    let html_page = |text: String| {
        let text = match stale {
            Some(as_of) => html::mark_stale(&text, as_of),
            None => text,
        };
        (HTML, text.into_bytes())
    };
    if let Rendered::Tournament(t) = rendered
        && let Some(td) = &t.teams
    {
        return render_team_event(route, t, td, html_page).map(|(c, b)| Page::new(c, b, reuse));
    }
    let (content_type, body) = match (route, rendered) {
        (Route::Index, Rendered::Index(ev)) => html_page(html::index(ev)),
        (Route::ApiIndex, Rendered::Index(ev)) => (JSON, json_bytes(&api::index(ev))),
        (Route::Round { n, .. }, Rendered::Tournament(t)) => html_page(html::round(t, *n)?),
        (Route::Names { q, .. }, Rendered::Tournament(t)) => {
            html_page(html::names(t, q.as_deref()))
        }
        (Route::Standings(_), Rendered::Tournament(t)) => html_page(html::standings(t)),
        // An event of stages has no cross-table over all its rounds (as `crosstable`
        // refuses a `/2` file): its stages' pages have the tables.
        (Route::Crosstable(_), Rendered::Tournament(t)) if t.staged.is_some() => return None,
        (Route::Crosstable(_), Rendered::Tournament(t)) => html_page(html::crosstable(t)),
        (Route::Stage { n, .. }, Rendered::Tournament(t)) => html_page(html::stage(t, *n)?),
        (Route::Group { n, g, .. }, Rendered::Tournament(t)) => html_page(html::group(t, *n, *g)?),
        (Route::Bracket(_), Rendered::Tournament(t)) => html_page(html::bracket(t)?),
        (Route::Final(_), Rendered::Tournament(t)) => html_page(html::final_placement(t)?),
        (Route::ApiStages(_), Rendered::Tournament(t)) => (JSON, json_bytes(&api::stages(t)?)),
        (Route::ApiStage { n, .. }, Rendered::Tournament(t)) => {
            (JSON, json_bytes(&api::stage(t, *n, None)?))
        }
        (Route::ApiGroup { n, g, .. }, Rendered::Tournament(t)) => {
            (JSON, json_bytes(&api::stage(t, *n, Some(*g))?))
        }
        (Route::ApiBracket(_), Rendered::Tournament(t)) => (JSON, json_bytes(&api::bracket(t)?)),
        (Route::ApiFinal(_), Rendered::Tournament(t)) => {
            (JSON, json_bytes(&api::final_placement(t)?))
        }
        (Route::Player { no, .. }, Rendered::Tournament(t)) => html_page(html::player(t, *no)?),
        (Route::ApiTournament(_), Rendered::Tournament(t)) => {
            (JSON, json_bytes(&api::tournament(t)))
        }
        (Route::ApiRound { n, .. }, Rendered::Tournament(t)) => {
            let r = match n {
                Some(n) => t.round(*n)?,
                None => t.round_in_play()?,
            };
            (JSON, json_bytes(&api::round(t, r)))
        }
        (Route::ApiPlayers { q, .. }, Rendered::Tournament(t)) => {
            (JSON, json_bytes(&api::players(t, q.as_deref())))
        }
        (Route::ApiStandings(_), Rendered::Tournament(t)) => (JSON, json_bytes(&api::standings(t))),
        (Route::ApiCrosstable(_), Rendered::Tournament(t)) if t.staged.is_some() => return None,
        (Route::ApiCrosstable(_), Rendered::Tournament(t)) => {
            (JSON, json_bytes(&api::crosstable(t)))
        }
        (Route::ApiPlayer { no, .. }, Rendered::Tournament(t)) => {
            (JSON, json_bytes(&api::player_page(t, *no)?))
        }
        (Route::Ratings { q }, Rendered::Ratings(list)) => {
            html_page(html::ratings(list, q.as_deref()))
        }
        (Route::RatedPlayer(_), Rendered::RatedPlayer(p)) => html_page(html::rated_player(p)),
        (Route::ApiRatings { q }, Rendered::Ratings(list)) => {
            (JSON, json_bytes(&api::ratings(list, q.as_deref())))
        }
        (Route::ApiRatedPlayer(_), Rendered::RatedPlayer(p)) => {
            (JSON, json_bytes(&api::rated_player(p)))
        }
        _ => return None,
    };
    Some(Page::new(content_type, body, reuse))
}

/// A team event's page or answer: its own pages for its rounds, standings, teams, players
/// and board prizes, the pages every tournament has for the rest (its players by name, its
/// tournament line), and `None` for the pages of an event of players or of stages.
fn render_team_event(
    route: &Route,
    t: &TournamentData,
    td: &TeamData,
    html_page: impl Fn(String) -> (&'static str, Vec<u8>),
) -> Option<(&'static str, Vec<u8>)> {
    Some(match route {
        Route::Round { n, .. } => html_page(team_html::round(t, td, *n)?),
        Route::Names { q, .. } => html_page(html::names(t, q.as_deref())),
        Route::Standings(_) => html_page(team_html::standings(t, td)),
        Route::Team { no, .. } => html_page(team_html::team(t, td, *no)?),
        Route::Player { no, .. } => html_page(team_html::player(t, td, *no)?),
        Route::Boards(_) => html_page(team_html::boards(t, td)),
        Route::ApiTournament(_) => (JSON, json_bytes(&api::tournament(t))),
        Route::ApiPlayers { q, .. } => (JSON, json_bytes(&api::players(t, q.as_deref()))),
        Route::ApiRound { n, .. } => {
            let r = match n {
                Some(n) => td.round(*n)?,
                None => td.round_in_play()?,
            };
            (JSON, json_bytes(&api::team_round(t, td, r)))
        }
        Route::ApiStandings(_) => (JSON, json_bytes(&api::team_standings(t, td))),
        Route::ApiTeams(_) => (JSON, json_bytes(&api::teams(t, td))),
        Route::ApiTeam { no, .. } => (JSON, json_bytes(&api::team(t, td, *no)?)),
        Route::ApiBoards(_) => (JSON, json_bytes(&api::board_prizes(td))),
        _ => return None,
    })
}

/// The 404 of a path the server does not answer: a page, or JSON under `/api/`.
pub fn not_found(api: bool) -> Response<Body> {
    let page = if api {
        Page::plain(StatusCode::NOT_FOUND, JSON, "{\"error\":\"not found\"}\n")
    } else {
        Page::plain(StatusCode::NOT_FOUND, HTML, html::not_found())
    };
    page.respond_plain()
}

/// The 503 of a page whose view was never read while the database cannot be read.
pub fn unavailable() -> Response<Body> {
    Page::plain(
        StatusCode::SERVICE_UNAVAILABLE,
        TEXT,
        "The tournament database cannot be read just now. Try again in a moment.\n",
    )
    .respond_plain()
}

/// A `Host` value fit to print as an address: a name or address and a port, nothing else.
fn valid_host(h: &str) -> bool {
    !h.is_empty()
        && h.len() <= 255
        && h.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
}

fn is_loopback_host(h: &str) -> bool {
    let name = match h.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => h,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::source::Source;
    use crate::serve::watch::{Timing, Watcher};
    use crate::store::Store;
    use std::io::Read;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("runtime")
    }

    #[test]
    fn searches_are_answered_without_filling_the_page_cache() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("event.sqlite3");
        let mut store = Store::open(&path).expect("store");
        let setup = crate::store::TournamentSetup {
            name: "Open".into(),
            rounds: Some(3),
            ..Default::default()
        };
        let tid = store
            .create_tournament(&setup, &crate::store::Actor::director())
            .expect("tournament");
        let source = Source::open(&path.as_path().into()).expect("source");
        let timing = Timing {
            refresh: Duration::from_secs(3600),
            reread: Duration::from_secs(3600),
        };
        let watcher = Watcher::start(source, path.as_path().into(), timing).expect("watcher");
        let site = Site::new(
            watcher.views().clone(),
            Arc::new(Counters::default()),
            Duration::from_secs(60),
            "http://127.0.0.1/".into(),
        );
        let asked = Asked {
            host: None,
            if_none_match: None,
            encoding: Encoding::Identity,
        };
        runtime().block_on(async {
            let ok = |target: String| {
                let site = &site;
                async move {
                    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
                    let route = Route::parse(path, Some(query)).expect("a route");
                    let r = site.respond(&route, asked).await;
                    assert_eq!(r.status(), StatusCode::OK, "{target}");
                }
            };
            ok(format!("/t/{tid}/standings")).await;
            ok(format!("/t/{tid}/names")).await;
            assert_eq!(site.kept(), 2);
            // Anyone can vary a search: kept, each would take room from everyone's pages.
            for i in 0..40 {
                ok(format!("/t/{tid}/names?q=x{i}")).await;
                ok(format!("/api/t/{tid}/players?q=x{i}")).await;
            }
            assert_eq!(site.kept(), 2);
        });
        watcher.stop();
    }

    #[test]
    fn the_encoding_follows_accept_encoding_with_brotli_first() {
        assert_eq!(preferred_encoding(None), Encoding::Identity);
        assert_eq!(
            preferred_encoding(Some("gzip, deflate, br, zstd")),
            Encoding::Brotli
        );
        assert_eq!(preferred_encoding(Some("gzip, deflate")), Encoding::Gzip);
        assert_eq!(preferred_encoding(Some("br;q=0, gzip")), Encoding::Gzip);
        assert_eq!(preferred_encoding(Some("BR;Q=0.5")), Encoding::Brotli);
        assert_eq!(preferred_encoding(Some("*")), Encoding::Brotli);
        assert_eq!(preferred_encoding(Some("*, br;q=0")), Encoding::Gzip);
        assert_eq!(
            preferred_encoding(Some("gzip;q=0, br;q=0, *;q=1")),
            Encoding::Identity
        );
        assert_eq!(
            preferred_encoding(Some("identity, deflate")),
            Encoding::Identity
        );
        assert_eq!(preferred_encoding(Some("gzip;q=x")), Encoding::Identity);
    }

    #[test]
    fn a_kept_page_is_compressed_in_the_coding_asked_once_and_a_304_carries_no_body() {
        let body = "<p>Reyes, Ana</p>\n".repeat(200).into_bytes();
        let page = Page::new(HTML, body.clone(), Reuse::Kept);
        let rt = runtime();
        let body_of = |r: Response<Body>| {
            rt.block_on(axum::body::to_bytes(r.into_body(), usize::MAX))
                .expect("body")
        };
        // Nothing is compressed before a phone asks; brotli asked makes brotli only.
        assert!(page.br.get().is_none() && page.gzip.get().is_none());
        let (r, added) = rt.block_on(page.respond(Encoding::Brotli, None));
        assert_eq!(r.headers()[CONTENT_ENCODING], "br");
        assert_eq!(r.headers()[VARY], "accept-encoding");
        let etag = r.headers()[ETAG].to_str().expect("etag").to_string();
        assert!(etag.starts_with("W/\""), "{etag}");
        let br = body_of(r);
        assert_eq!(added, br.len());
        assert!(
            page.gzip.get().is_none(),
            "gzip not made before it is asked for"
        );
        assert_eq!(page.size(), body.len() + br.len());
        let mut out = Vec::new();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_end(&mut out)
            .expect("unbrotli");
        assert_eq!(out, body);
        // Asked again: the same bytes, nothing made.
        let (r, added) = rt.block_on(page.respond(Encoding::Brotli, None));
        assert_eq!((body_of(r), added), (br.clone(), 0));
        let (r, added) = rt.block_on(page.respond(Encoding::Gzip, None));
        assert_eq!(r.headers()[CONTENT_ENCODING], "gzip");
        let gz = body_of(r);
        assert_eq!(added, gz.len());
        assert!(br.len() < body.len() / 10 && gz.len() < body.len() / 10);
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut out)
            .expect("gunzip");
        assert_eq!(out, body);
        let (r, added) = rt.block_on(page.respond(Encoding::Gzip, Some(&etag)));
        assert_eq!((r.status(), added), (StatusCode::NOT_MODIFIED, 0));
        assert!(r.headers().get(CONTENT_ENCODING).is_none());
        assert!(body_of(r).is_empty());
        let (r, _) = rt.block_on(page.respond(Encoding::Identity, Some("\"other\"")));
        assert_eq!(r.status(), StatusCode::OK);
        assert!(r.headers().get(CONTENT_ENCODING).is_none());
        assert_eq!(body_of(r), body);
        // A small page, or one made for one request, is sent as it is.
        for page in [
            Page::new(HTML, b"<p>x</p>".to_vec(), Reuse::Kept),
            Page::new(HTML, body.clone(), Reuse::ThisRequest),
        ] {
            let (r, added) = rt.block_on(page.respond(Encoding::Brotli, None));
            assert!(r.headers().get(CONTENT_ENCODING).is_none() && added == 0);
            assert!(r.headers().get(VARY).is_none());
        }
    }

    #[test]
    fn if_none_match_compares_weakly_and_accepts_lists_and_a_star() {
        assert!(etag_matches("\"abc\"", "\"abc\""));
        assert!(etag_matches("W/\"abc\"", "\"abc\""));
        assert!(etag_matches("\"abc\"", "W/\"abc\""));
        assert!(etag_matches("\"x\", \"abc\"", "\"abc\""));
        assert!(etag_matches("*", "\"abc\""));
        assert!(!etag_matches("\"abd\"", "\"abc\""));
    }

    #[test]
    fn the_wall_uses_the_requests_host_unless_it_is_a_loopback_one() {
        assert!(is_loopback_host("127.0.0.1:8080"));
        assert!(is_loopback_host("localhost"));
        assert!(is_loopback_host("[::1]:80"));
        assert!(!is_loopback_host("192.168.1.4:8080"));
        assert!(!valid_host("a b"));
        assert!(!valid_host("x\"><script>"));
        assert!(valid_host("desk.local:8080"));
    }
}
