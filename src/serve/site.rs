//! The routes, and the two caches that keep a crowd of phones cheap.
//!
//! - **Data**: the event's list and each tournament's public view are read from the source
//!   in one read transaction and kept with the database's change stamp. A view younger than
//!   the refresh interval is used as it is; an older one is checked against the stamp (one
//!   cheap query) and read again when the database changed, or in any case after a few
//!   intervals (a server's stamp can miss a late commit); a view read again that is
//!   equal to the one kept (the stamp moves with every move at a desk, which no page shows)
//!   is kept as it was, so its pages are not rendered again. While one thread checks,
//!   the others go on with the view they have, so a request never waits for the database
//!   except on the very first read.
//! - **Pages**: each rendered body is kept with the view it was rendered from, and its ETag is
//!   a hash of the body: an unchanged page is a 304, even after the database changed
//!   elsewhere (a move at another table). A search (`?q=`) is rendered for each request and
//!   never kept: varied at will, searches would push everyone's pages out of the cache.

use super::api;
use super::html;
use super::http::{Request, Response, Status, etag_matches};
use super::public::{EventIndex, TournamentData};
use super::qr::QrMatrix;
use super::server::Counters;
use super::source::Source;
use crate::store::StoreError;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

const HTML: &str = "text/html; charset=utf-8";
const JSON: &str = "application/json";
const JS: &str = "text/javascript; charset=utf-8";

/// The rendered pages kept, in bytes; beyond it the cache starts again empty.
const PAGE_CACHE_BYTES: usize = 64 * 1024 * 1024;
/// The longest search kept from `?q=`, in characters.
const MAX_QUERY_CHARS: usize = 80;
/// A check of the database that has not come back after this long is given up on, so a
/// failed one never leaves a view unchecked forever.
const CHECK_GIVE_UP: Duration = Duration::from_secs(20);

/// A view is read again after this many refresh intervals even when the change stamp did
/// not move: on a server, a transaction that took its audit row before another one's but
/// committed after it leaves the stamp (the highest audit id) where it was. A view read
/// again equal to the one kept renders no page again, so this costs one read.
const REREAD_AFTER_REFRESHES: u32 = 5;

/// A path the server answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Index,
    Wall,
    Script,
    Round { t: i64, n: Option<u32> },
    Names { t: i64, q: Option<String> },
    Standings(i64),
    Crosstable(i64),
    Player { t: i64, no: u32 },
    ApiIndex,
    ApiTournament(i64),
    ApiRound { t: i64, n: Option<u32> },
    ApiPlayers { t: i64, q: Option<String> },
    ApiStandings(i64),
    ApiCrosstable(i64),
    ApiPlayer { t: i64, no: u32 },
}

/// A number in a path: ASCII digits without a leading zero.
fn number<T: std::str::FromStr>(s: &str) -> Option<T> {
    let canonical = !s.is_empty()
        && s.len() <= 12
        && s.bytes().all(|b| b.is_ascii_digit())
        && !(s.len() > 1 && s.starts_with('0'));
    if canonical { s.parse().ok() } else { None }
}

/// The search of a query string (`q=`), percent-decoded, `+` as a space, trimmed and cut to
/// a bounded length; `None` when there is none.
pub fn search_query(query: Option<&str>) -> Option<String> {
    let raw = query?.split('&').find_map(|pair| pair.strip_prefix("q="))?;
    let mut bytes = Vec::with_capacity(raw.len());
    let mut it = raw.bytes();
    while let Some(b) = it.next() {
        match b {
            b'+' => bytes.push(b' '),
            b'%' => {
                let hex: Vec<u8> = it.clone().take(2).collect();
                let value = std::str::from_utf8(&hex)
                    .ok()
                    .filter(|h| h.len() == 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match value {
                    Some(v) => {
                        bytes.push(v);
                        it.nth(1);
                    }
                    None => bytes.push(b'%'),
                }
            }
            b => bytes.push(b),
        }
    }
    let text: String = String::from_utf8_lossy(&bytes)
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_QUERY_CHARS)
        .collect();
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

impl Route {
    /// The route of a path and query, or `None` (404).
    pub fn parse(path: &str, query: Option<&str>) -> Option<Route> {
        let parts: Vec<&str> = path.split('/').collect();
        // Every path starts with '/', so parts[0] is empty.
        let route = match parts.get(1..)? {
            [""] => Route::Index,
            ["wall"] => Route::Wall,
            ["refresh.js"] => Route::Script,
            ["t", t] => Route::Round {
                t: number(t)?,
                n: None,
            },
            ["t", t, "round", n] => Route::Round {
                t: number(t)?,
                n: Some(number(n)?),
            },
            ["t", t, "names"] => Route::Names {
                t: number(t)?,
                q: search_query(query),
            },
            ["t", t, "standings"] => Route::Standings(number(t)?),
            ["t", t, "crosstable"] => Route::Crosstable(number(t)?),
            ["t", t, "player", no] => Route::Player {
                t: number(t)?,
                no: number(no)?,
            },
            ["api", "tournaments"] => Route::ApiIndex,
            ["api", "t", t] => Route::ApiTournament(number(t)?),
            ["api", "t", t, "round"] => Route::ApiRound {
                t: number(t)?,
                n: None,
            },
            ["api", "t", t, "round", n] => Route::ApiRound {
                t: number(t)?,
                n: Some(number(n)?),
            },
            ["api", "t", t, "players"] => Route::ApiPlayers {
                t: number(t)?,
                q: search_query(query),
            },
            ["api", "t", t, "standings"] => Route::ApiStandings(number(t)?),
            ["api", "t", t, "crosstable"] => Route::ApiCrosstable(number(t)?),
            ["api", "t", t, "player", no] => Route::ApiPlayer {
                t: number(t)?,
                no: number(no)?,
            },
            _ => return None,
        };
        Some(route)
    }

    fn tournament(&self) -> Option<i64> {
        match *self {
            Route::Round { t, .. }
            | Route::Names { t, .. }
            | Route::Standings(t)
            | Route::Crosstable(t)
            | Route::Player { t, .. }
            | Route::ApiTournament(t)
            | Route::ApiRound { t, .. }
            | Route::ApiPlayers { t, .. }
            | Route::ApiStandings(t)
            | Route::ApiCrosstable(t)
            | Route::ApiPlayer { t, .. } => Some(t),
            Route::Index | Route::Wall | Route::Script | Route::ApiIndex => None,
        }
    }

    fn is_api(&self) -> bool {
        matches!(
            self,
            Route::ApiIndex
                | Route::ApiTournament(_)
                | Route::ApiRound { .. }
                | Route::ApiPlayers { .. }
                | Route::ApiStandings(_)
                | Route::ApiCrosstable(_)
                | Route::ApiPlayer { .. }
        )
    }

    /// The key of the rendered page: the route itself, so that a query string the route
    /// does not read cannot fill the cache. A search has none: anyone can send any number of
    /// different ones, and kept they would push everyone's pages out of the cache, while
    /// filtering one tournament's names is cheap.
    fn cache_key(&self) -> Option<String> {
        match self {
            Route::Names { q: Some(_), .. } | Route::ApiPlayers { q: Some(_), .. } => None,
            _ => Some(format!("{self:?}")),
        }
    }
}

/// A view read from the source, with the stamp it was read at.
struct Snap<T> {
    generation: u64,
    stamp: i64,
    checked: Instant,
    /// When the view was last read from the source (not only checked against the stamp).
    read: Instant,
    value: Arc<T>,
}

struct Slot<T> {
    snap: Option<Snap<T>>,
    checking_since: Option<Instant>,
}

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot {
            snap: None,
            checking_since: None,
        }
    }
}

#[derive(Default)]
struct Data {
    next_generation: u64,
    index: Slot<EventIndex>,
    tournaments: HashMap<i64, Slot<TournamentData>>,
}

struct CachedPage {
    generation: u64,
    response: Response,
}

#[derive(Default)]
struct Pages {
    map: HashMap<String, CachedPage>,
    bytes: usize,
}

/// What a check of the source found.
enum Checked<T> {
    Unchanged,
    Loaded(Option<(i64, T)>),
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while a lock was held leaves consistent data (every update is one
    // assignment), so a poisoned lock is used as it is.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The public site: routes, caches, and the source they read.
pub struct Site {
    source: Mutex<Source>,
    data: Mutex<Data>,
    pages: Mutex<Pages>,
    refresh: Duration,
    /// A view older than this is read again even when the stamp did not move.
    reread: Duration,
    /// The address phones use, for the wall page when the request's own is a loopback one.
    public_url: String,
    script: Response,
}

impl Site {
    pub fn new(source: Source, refresh: Duration, public_url: String) -> Site {
        let mut script = Response::text(Status::OK, html::REFRESH_JS);
        script.content_type = JS;
        script.etag = Some(etag_of(html::REFRESH_JS.as_bytes()));
        Site {
            source: Mutex::new(source),
            data: Mutex::new(Data::default()),
            pages: Mutex::new(Pages::default()),
            refresh,
            reread: refresh * REREAD_AFTER_REFRESHES,
            public_url,
            script,
        }
    }

    /// A view from its slot: fresh enough as it is, or checked against the source. A view
    /// read again because the stamp moved but equal to the one kept (a move at a desk moves
    /// the stamp and shows on no page) keeps its generation, so no page is rendered again.
    fn view<T: PartialEq>(
        &self,
        slot: impl Fn(&mut Data) -> &mut Slot<T>,
        load: impl FnOnce(&Source) -> Result<Option<(i64, T)>, StoreError>,
    ) -> Result<Option<(u64, Arc<T>)>, StoreError> {
        let now = Instant::now();
        let known = {
            let mut data = lock(&self.data);
            let s = slot(&mut data);
            let checking = s
                .checking_since
                .is_some_and(|t| now.duration_since(t) < CHECK_GIVE_UP);
            if let Some(snap) = &s.snap
                && (now.duration_since(snap.checked) < self.refresh || checking)
            {
                return Ok(Some((snap.generation, snap.value.clone())));
            }
            s.checking_since = Some(now);
            s.snap
                .as_ref()
                .map(|snap| (snap.stamp, snap.read, snap.value.clone()))
        };
        let reread_after = self.reread;
        let checked = {
            let source = lock(&self.source);
            match &known {
                Some((stamp, read, _)) => match source.stamp() {
                    Ok(now_stamp)
                        if now_stamp == *stamp && now.duration_since(*read) < reread_after =>
                    {
                        Ok(Checked::Unchanged)
                    }
                    Ok(_) => load(&source).map(Checked::Loaded),
                    Err(e) => Err(e),
                },
                None => load(&source).map(Checked::Loaded),
            }
        };
        // The view this check started from, when the one read is equal to it (compared
        // outside the lock).
        let unchanged = match (&checked, known) {
            (Ok(Checked::Loaded(Some((_, value)))), Some((_, _, kept))) if *kept == *value => {
                Some(kept)
            }
            _ => None,
        };
        let mut data = lock(&self.data);
        data.next_generation += 1;
        let generation = data.next_generation;
        let s = slot(&mut data);
        s.checking_since = None;
        match checked {
            Ok(Checked::Unchanged) => match &mut s.snap {
                Some(snap) => {
                    snap.checked = now;
                    Ok(Some((snap.generation, snap.value.clone())))
                }
                None => Ok(None),
            },
            Ok(Checked::Loaded(None)) => {
                s.snap = None;
                Ok(None)
            }
            Ok(Checked::Loaded(Some((stamp, value)))) => match &mut s.snap {
                Some(snap)
                    if unchanged
                        .as_ref()
                        .is_some_and(|kept| Arc::ptr_eq(kept, &snap.value)) =>
                {
                    snap.stamp = stamp;
                    snap.checked = now;
                    snap.read = now;
                    Ok(Some((snap.generation, snap.value.clone())))
                }
                _ => {
                    let value = Arc::new(value);
                    s.snap = Some(Snap {
                        generation,
                        stamp,
                        checked: now,
                        read: now,
                        value: value.clone(),
                    });
                    Ok(Some((generation, value)))
                }
            },
            // The database could not be read just now: the last view read is still true
            // as of its moment, and the next request tries again.
            Err(e) => match &s.snap {
                Some(snap) => Ok(Some((snap.generation, snap.value.clone()))),
                None => Err(e),
            },
        }
    }

    fn index(&self) -> Result<(u64, Arc<EventIndex>), StoreError> {
        self.view(|d| &mut d.index, |s| s.index().map(Some))
            .map(|v| v.unwrap_or_else(|| (0, Arc::new(EventIndex::default()))))
    }

    fn tournament(&self, id: i64) -> Result<Option<(u64, Arc<TournamentData>)>, StoreError> {
        let (_, index) = self.index()?;
        if !index.contains(id) {
            // Only tournaments that exist get a slot: made-up ids cannot grow the cache.
            lock(&self.data).tournaments.remove(&id);
            return Ok(None);
        }
        self.view(
            |d| d.tournaments.entry(id).or_default(),
            |s| s.tournament(id),
        )
    }

    /// The answer to a request that passed the HTTP checks; a page rendered for it is
    /// counted in `counters`.
    pub fn respond(&self, req: &Request, counters: &Counters) -> Response {
        let Some(route) = Route::parse(&req.path, req.query.as_deref()) else {
            return not_found(req.path.starts_with("/api/"));
        };
        let response = match route {
            Route::Script => self.script.clone(),
            Route::Wall => match self.index() {
                Ok((_, index)) => {
                    let url = self.wall_url(req.host.as_deref());
                    let svg = QrMatrix::new(&url)
                        .map(|q| q.to_svg(&url))
                        .unwrap_or_default();
                    counters.rendered.fetch_add(1, Ordering::Relaxed);
                    page(HTML, html::wall(&index, &url, &svg).into_bytes())
                }
                Err(e) => unavailable(&e),
            },
            _ => match self.cached(&route, counters) {
                Ok(Some(r)) => r,
                Ok(None) => not_found(route.is_api()),
                Err(e) => unavailable(&e),
            },
        };
        match (&response.etag, &req.if_none_match) {
            (Some(etag), Some(inm)) if response.status == Status::OK && etag_matches(inm, etag) => {
                Response {
                    status: Status::NOT_MODIFIED,
                    body: Arc::from(&b""[..]),
                    ..response
                }
            }
            _ => response,
        }
    }

    /// A page from the cache when it was rendered from the current view, else rendered now.
    fn cached(&self, route: &Route, counters: &Counters) -> Result<Option<Response>, StoreError> {
        let (generation, rendered) = match route.tournament() {
            None => {
                let (generation, index) = self.index()?;
                (generation, Rendered::Index(index))
            }
            Some(t) => match self.tournament(t)? {
                Some((generation, data)) => (generation, Rendered::Tournament(data)),
                None => return Ok(None),
            },
        };
        let key = route.cache_key();
        if let Some(key) = &key
            && let Some(hit) = lock(&self.pages).map.get(key)
            && hit.generation == generation
        {
            return Ok(Some(hit.response.clone()));
        }
        let Some(response) = render(route, &rendered) else {
            return Ok(None);
        };
        counters.rendered.fetch_add(1, Ordering::Relaxed);
        let Some(key) = key else {
            return Ok(Some(response));
        };
        let mut pages = lock(&self.pages);
        if pages.bytes + response.body.len() > PAGE_CACHE_BYTES {
            pages.map.clear();
            pages.bytes = 0;
        }
        pages.bytes += response.body.len();
        if let Some(old) = pages.map.insert(
            key,
            CachedPage {
                generation,
                response: response.clone(),
            },
        ) {
            pages.bytes = pages.bytes.saturating_sub(old.response.body.len());
        }
        Ok(Some(response))
    }

    fn wall_url(&self, host: Option<&str>) -> String {
        match host.filter(|h| valid_host(h) && !is_loopback_host(h)) {
            Some(h) => format!("http://{h}/"),
            None => self.public_url.clone(),
        }
    }
}

enum Rendered {
    Index(Arc<EventIndex>),
    Tournament(Arc<TournamentData>),
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

/// Renders a route from its view; `None` when the thing asked for does not exist.
fn render(route: &Route, rendered: &Rendered) -> Option<Response> {
    let (content_type, body) = match (route, rendered) {
        (Route::Index, Rendered::Index(ev)) => (HTML, html::index(ev).into_bytes()),
        (Route::ApiIndex, Rendered::Index(ev)) => (JSON, json_bytes(&api::index(ev))),
        (Route::Round { n, .. }, Rendered::Tournament(t)) => {
            (HTML, html::round(t, *n)?.into_bytes())
        }
        (Route::Names { q, .. }, Rendered::Tournament(t)) => {
            (HTML, html::names(t, q.as_deref()).into_bytes())
        }
        (Route::Standings(_), Rendered::Tournament(t)) => (HTML, html::standings(t).into_bytes()),
        (Route::Crosstable(_), Rendered::Tournament(t)) => (HTML, html::crosstable(t).into_bytes()),
        (Route::Player { no, .. }, Rendered::Tournament(t)) => {
            (HTML, html::player(t, *no)?.into_bytes())
        }
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
        (Route::ApiCrosstable(_), Rendered::Tournament(t)) => {
            (JSON, json_bytes(&api::crosstable(t)))
        }
        (Route::ApiPlayer { no, .. }, Rendered::Tournament(t)) => {
            (JSON, json_bytes(&api::player_page(t, *no)?))
        }
        _ => return None,
    };
    Some(page(content_type, body))
}

fn etag_of(body: &[u8]) -> Arc<str> {
    // SipHash with fixed keys: the same body always gets the same tag, across restarts.
    let mut h = std::hash::DefaultHasher::new();
    body.hash(&mut h);
    Arc::from(format!(
        "\"{:016x}{:04x}\"",
        h.finish(),
        body.len() & 0xffff
    ))
}

fn page(content_type: &'static str, body: Vec<u8>) -> Response {
    Response {
        status: Status::OK,
        content_type,
        etag: Some(etag_of(&body)),
        body: Arc::from(body),
        html: content_type == HTML,
        close: false,
    }
}

fn not_found(api: bool) -> Response {
    if api {
        let mut r = Response::text(Status::NOT_FOUND, "{\"error\":\"not found\"}\n");
        r.content_type = JSON;
        r
    } else {
        Response {
            status: Status::NOT_FOUND,
            etag: None,
            ..page(HTML, html::not_found().into_bytes())
        }
    }
}

fn unavailable(e: &StoreError) -> Response {
    eprintln!("ggdesk serve: the database could not be read: {e}");
    Response::text(
        Status::UNAVAILABLE,
        "The tournament database cannot be read just now. Try again in a moment.\n",
    )
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
    use crate::serve::public::TournamentLine;
    use crate::store::Store;
    use ggdesk_core::tournament::System;

    /// A site on a new, empty database file, checking the database on every request.
    fn site() -> (tempfile::TempDir, Site) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("event.sqlite3");
        drop(Store::open(&path).expect("database"));
        let source = Source::open(&path.as_path().into()).expect("source");
        (
            dir,
            Site::new(source, Duration::ZERO, "http://127.0.0.1/".into()),
        )
    }

    fn event(names: &[&str]) -> EventIndex {
        EventIndex {
            tournaments: names
                .iter()
                .enumerate()
                .map(|(i, name)| TournamentLine {
                    id: i as i64 + 1,
                    name: (*name).into(),
                    system: System::Swiss,
                    rounds_planned: Some(5),
                    players: 8,
                    round_in_play: Some(2),
                })
                .collect(),
        }
    }

    /// The index's view as `site.view` gives it when the source reads `ev`, at a stamp the
    /// database never has (so every call reads again).
    fn index_read(site: &Site, ev: EventIndex) -> (u64, Arc<EventIndex>) {
        site.view(|d| &mut d.index, |_| Ok(Some((-1, ev))))
            .expect("read")
            .expect("a view")
    }

    /// A GET of `target` (a path and maybe `?query`).
    fn get(target: &str) -> Request {
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p, Some(q.to_string())),
            None => (target, None),
        };
        Request {
            method: super::super::http::Method::Get,
            path: path.into(),
            query,
            host: None,
            if_none_match: None,
            keep_alive: false,
        }
    }

    #[test]
    fn searches_are_answered_without_filling_the_page_cache() {
        let (dir, site) = site();
        let mut store = Store::open(&dir.path().join("event.sqlite3")).expect("store");
        let setup = crate::store::TournamentSetup {
            name: "Open".into(),
            rounds: Some(3),
            ..Default::default()
        };
        let tid = store
            .create_tournament(&setup, &crate::store::Actor::director())
            .expect("tournament");
        let counters = Counters::default();
        let ok = |target: &str| {
            let r = site.respond(&get(target), &counters);
            assert_eq!(r.status, Status::OK, "{target}");
        };
        ok(&format!("/t/{tid}/standings"));
        ok(&format!("/t/{tid}/names"));
        let kept = lock(&site.pages).map.len();
        assert_eq!(kept, 2);
        // Anyone can vary a search: kept, each would take room from everyone's pages.
        for i in 0..40 {
            ok(&format!("/t/{tid}/names?q=x{i}"));
            ok(&format!("/api/t/{tid}/players?q=x{i}"));
        }
        assert_eq!(lock(&site.pages).map.len(), kept);
    }

    /// An index view the site gives, counting the reads of the source.
    fn index_counted(site: &Site, reads: &std::cell::Cell<u32>) -> Arc<EventIndex> {
        site.view(
            |d| &mut d.index,
            |s| {
                reads.set(reads.get() + 1);
                s.index().map(Some)
            },
        )
        .expect("read")
        .expect("a view")
        .1
    }

    #[test]
    fn a_view_is_read_again_when_the_stamp_moves_or_once_it_is_old_and_not_otherwise() {
        let (dir, mut site) = site();
        site.reread = Duration::from_secs(3600);
        let reads = std::cell::Cell::new(0);
        index_counted(&site, &reads);
        assert_eq!(reads.get(), 1, "the first request reads");
        index_counted(&site, &reads);
        assert_eq!(
            reads.get(),
            1,
            "the stamp did not move: the view kept is used"
        );
        let mut store = Store::open(&dir.path().join("event.sqlite3")).expect("store");
        let setup = crate::store::TournamentSetup {
            name: "Open".into(),
            ..Default::default()
        };
        store
            .create_tournament(&setup, &crate::store::Actor::director())
            .expect("tournament");
        let view = index_counted(&site, &reads);
        assert_eq!(reads.get(), 2, "the stamp moved: read again");
        assert_eq!(view.tournaments.len(), 1);
        // Old enough, a view is read again though the stamp did not move.
        site.reread = Duration::ZERO;
        index_counted(&site, &reads);
        assert_eq!(reads.get(), 3);
    }

    #[test]
    fn a_view_read_again_unchanged_keeps_its_generation() {
        let (_dir, site) = site();
        let (first, _) = index_read(&site, event(&["Open"]));
        // The stamp moved (a move at a desk) but the view is the same: the pages rendered
        // from it still hold.
        let (again, view) = index_read(&site, event(&["Open"]));
        assert_eq!(again, first);
        assert_eq!(*view, event(&["Open"]));
        // A change a page shows is a new generation.
        let (changed, view) = index_read(&site, event(&["Open", "Juniors"]));
        assert_ne!(changed, first);
        assert_eq!(*view, event(&["Open", "Juniors"]));
    }

    #[test]
    fn routes_take_canonical_numbers_only() {
        assert_eq!(Route::parse("/", None), Some(Route::Index));
        assert_eq!(
            Route::parse("/t/3/player/12", None),
            Some(Route::Player { t: 3, no: 12 })
        );
        assert_eq!(
            Route::parse("/api/t/3/round/2", None),
            Some(Route::ApiRound { t: 3, n: Some(2) })
        );
        for bad in [
            "/t/03",
            "/t/-1",
            "/t/1/",
            "/t/x",
            "/t/1/player/",
            "/t//standings",
            "//",
            "/index.html",
            "/api",
            "/api/",
            "/t/99999999999999999999",
            "/t/1/standings/x",
            "/../etc/passwd",
            "/t/%31",
        ] {
            assert_eq!(Route::parse(bad, None), None, "{bad}");
        }
    }

    #[test]
    fn the_search_is_decoded_bounded_and_free_of_controls() {
        assert_eq!(
            search_query(Some("q=Cruz%2C+Ben")).as_deref(),
            Some("Cruz, Ben")
        );
        assert_eq!(
            search_query(Some("x=1&q=%E2%80%9Cana")).as_deref(),
            Some("\u{201c}ana")
        );
        assert_eq!(search_query(Some("q=%zz%4")).as_deref(), Some("%zz%4"));
        assert_eq!(search_query(Some("q=a%00b%0a")).as_deref(), Some("ab"));
        assert_eq!(search_query(Some("q=+++")), None);
        assert_eq!(search_query(Some("q")), None);
        assert_eq!(search_query(None), None);
        let long = format!("q={}", "a".repeat(500));
        assert_eq!(
            search_query(Some(&long)).map(|q| q.len()),
            Some(MAX_QUERY_CHARS)
        );
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
