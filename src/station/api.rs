//! The stations' API as axum serves it: the routes, the checks every request passes before
//! it reaches the store (its secret, its station's rate, requests in flight, the body's
//! size, the time limit, the end switch), the pool of the server's connections to the
//! store, and the live stream of change notices.

use super::commands::{self, Caller};
use super::guard::{Guards, Limits, Permit};
use super::wire::{ApiError, MAX_BODY};
use crate::store::{Address, GameId, Store, TournamentId};
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{
    AUTHORIZATION, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE, HeaderMap, HeaderValue,
    RETRY_AFTER, WWW_AUTHENTICATE,
};
use axum::http::{Method, Response, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, StreamExt};
use serde_json::{Value, json};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{Semaphore, broadcast, watch};

/// A change the watcher saw: one tournament's (or none's), or anything at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Notice {
    Tournament(Option<TournamentId>),
    Everything,
}

/// How long a stream gathers notices into one `change`.
const COALESCE: Duration = Duration::from_millis(100);
/// How often an open stream checks its secret again even when nothing changed (a reset
/// made by another process than the server's).
const RECHECK: Duration = Duration::from_secs(5);
/// A comment sent on a quiet stream this often, so that a dead connection is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The server's connections to the store: each request's work takes one, on a blocking
/// thread, and gives it back. At most [`Limits::db_connections`] at once.
pub(crate) struct Pool {
    address: Address,
    idle: Mutex<Vec<Store>>,
    permits: Arc<Semaphore>,
}

impl Pool {
    pub(crate) fn new(address: Address, size: usize) -> Pool {
        Pool {
            address,
            idle: Mutex::new(Vec::new()),
            permits: Arc::new(Semaphore::new(size.max(1))),
        }
    }

    /// Runs `f` on a connection of the pool, on a blocking thread.
    async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        f: impl FnOnce(&mut Store) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| unavailable("the server is stopping"))?;
        let pool = self.clone();
        let work = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let taken = super::guard::lock(&pool.idle).pop();
            let mut store = match taken {
                Some(s) => s,
                None => Store::connect(&pool.address).map_err(ApiError::from)?,
            };
            let out = f(&mut store);
            super::guard::lock(&pool.idle).push(store);
            out
        });
        work.await.unwrap_or_else(|e| {
            Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                e.to_string(),
            ))
        })
    }
}

fn unavailable(why: &str) -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, why)
}

/// What the handlers share.
pub(crate) struct Shared {
    pub(crate) limits: Limits,
    pub(crate) guards: Guards,
    pub(crate) pool: Arc<Pool>,
    pub(crate) notices: broadcast::Sender<Notice>,
}

/// What a request asks, by its path and method.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Action {
    WhoAmI,
    Boards,
    Stream,
    Create,
    Game(GameId),
    Setup(GameId, String),
    Lots(GameId),
    Start(GameId),
    Event(GameId),
    Undo(GameId),
    Correct(GameId),
    Reading(GameId, String),
    Confirm(GameId),
    SetupTimer(GameId),
    SetupOverrun(GameId),
    ReadingTimer(GameId),
    Seen,
    Restore,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Route {
    station: String,
    action: Action,
}

impl Route {
    /// The route of a request; 404 for a path that is none, 405 for a method the path does
    /// not take.
    fn parse(method: &Method, path: &str) -> Result<Route, ApiError> {
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let missing = || {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!("{method} {path}: no such endpoint (see docs/station-api.md)"),
            )
        };
        let station = segments.first().copied().unwrap_or_default();
        if station.is_empty() {
            return Err(missing());
        }
        let game = |s: &str| s.parse::<i64>().ok().map(GameId).ok_or_else(missing);
        let (action, allowed) = match segments[1..] {
            [] => (Action::WhoAmI, Method::GET),
            ["boards"] => (Action::Boards, Method::GET),
            ["stream"] => (Action::Stream, Method::GET),
            ["games"] => (Action::Create, Method::POST),
            ["games", id] => (Action::Game(game(id)?), Method::GET),
            ["games", id, "setup", side] => {
                (Action::Setup(game(id)?, side.to_string()), Method::PUT)
            }
            ["games", id, "lots"] => (Action::Lots(game(id)?), Method::POST),
            ["games", id, "start"] => (Action::Start(game(id)?), Method::POST),
            ["games", id, "events"] => (Action::Event(game(id)?), Method::POST),
            ["games", id, "undo"] => (Action::Undo(game(id)?), Method::POST),
            ["games", id, "correct"] => (Action::Correct(game(id)?), Method::POST),
            ["games", id, "readings", side] => {
                (Action::Reading(game(id)?, side.to_string()), Method::PUT)
            }
            ["games", id, "confirm"] => (Action::Confirm(game(id)?), Method::POST),
            ["games", id, "setup-timer"] => (Action::SetupTimer(game(id)?), Method::POST),
            ["games", id, "setup-overrun"] => (Action::SetupOverrun(game(id)?), Method::POST),
            ["games", id, "reading-timer"] => (Action::ReadingTimer(game(id)?), Method::POST),
            ["seen"] => (Action::Seen, Method::POST),
            ["restore"] => (Action::Restore, Method::POST),
            _ => return Err(missing()),
        };
        if *method != allowed {
            return Err(ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{method} {path}: this endpoint takes {allowed} only"),
            ));
        }
        Ok(Route {
            station: station.to_string(),
            action,
        })
    }
}

/// An answer of JSON, never kept by a cache.
fn json_response(status: StatusCode, value: &Value) -> Response<Body> {
    let mut res = Response::new(Body::from(value.to_string()));
    *res.status_mut() = status;
    let h = res.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn error_response(e: &ApiError) -> Response<Body> {
    let mut res = json_response(e.status, &e.body());
    let h = res.headers_mut();
    if e.status == StatusCode::UNAUTHORIZED {
        h.insert(
            WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"ggdesk station\""),
        );
    }
    if e.status == StatusCode::TOO_MANY_REQUESTS || e.status == StatusCode::SERVICE_UNAVAILABLE {
        h.insert(RETRY_AFTER, HeaderValue::from_static("1"));
    }
    res
}

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new().fallback(answer).with_state(shared)
}

/// Every request: a stream, or a command or read under the time limit.
async fn answer(State(shared): State<Arc<Shared>>, req: Request) -> Response<Body> {
    let (parts, body) = req.into_parts();
    let route = match Route::parse(&parts.method, parts.uri.path()) {
        Ok(r) => r,
        Err(e) => return error_response(&e),
    };
    let limit = shared.limits.request_timeout;
    if route.action == Action::Stream {
        let opened = tokio::time::timeout(limit, open_stream(shared, &parts.headers, route)).await;
        return match opened {
            Ok(Ok(res)) => res,
            Ok(Err(e)) => error_response(&e),
            Err(_) => error_response(&timed_out(limit)),
        };
    }
    let handled = tokio::time::timeout(limit, handle(shared, parts.headers, body, route)).await;
    match handled {
        Ok(Ok((status, value))) => json_response(status, &value),
        Ok(Err(e)) => error_response(&e),
        Err(_) => error_response(&timed_out(limit)),
    }
}

fn timed_out(limit: Duration) -> ApiError {
    unavailable(&format!(
        "the request took longer than {} s and was cut off: try again",
        limit.as_secs()
    ))
}

/// The secret of `Authorization: Bearer SECRET`.
fn bearer(headers: &HeaderMap) -> Result<String, ApiError> {
    let refused = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "a request needs the header Authorization: Bearer SECRET (the secret of the station's card)",
        )
    };
    let value = headers.get(AUTHORIZATION).ok_or_else(refused)?;
    let text = value.to_str().map_err(|_| refused())?;
    let secret = text.strip_prefix("Bearer ").ok_or_else(refused)?.trim();
    if secret.is_empty() || secret.len() > 128 {
        return Err(refused());
    }
    Ok(secret.to_string())
}

/// The station of the path, when the request carries its secret; with the moment its
/// secret was checked.
async fn authenticate(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    name: &str,
) -> Result<(Caller, Instant), ApiError> {
    let secret = bearer(headers)?;
    if !shared.guards.may_check_secret() {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many wrong secrets lately: try again in a moment",
        ));
    }
    let began = Instant::now();
    let asked = name.to_string();
    let station = shared
        .pool
        .run(move |store| Ok(store.station_by_secret(&asked, &secret)?))
        .await?;
    let Some(station) = station else {
        shared.guards.refused_secret();
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            format!("the secret is not station {name}'s"),
        ));
    };
    let tournament = station.tournament;
    Ok((
        Caller {
            station,
            tournament,
        },
        began,
    ))
}

fn ended(name: &str) -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        format!("station {name} was ended (its secret reset, or the station removed)"),
    )
}

/// Checks the station's rate and requests in flight, and takes its end switch.
fn admit(
    shared: &Shared,
    caller: &Caller,
    began: Instant,
) -> Result<(Permit, watch::Receiver<u64>), ApiError> {
    let name = &caller.station.name;
    let guard = shared.guards.of(name);
    let end = guard.watch_end(began).ok_or_else(|| ended(name))?;
    let limits = &shared.limits;
    if !guard.take_rate(limits) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "station {name} sends more than {} requests a second: slow down",
                limits.rate_per_second
            ),
        ));
    }
    let permit = guard.request(limits).ok_or_else(|| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "station {name} has {} requests in flight already: wait for their answers",
                limits.in_flight
            ),
        )
    })?;
    Ok((permit, end))
}

/// The request's body, at most [`MAX_BODY`] bytes.
async fn read_body(headers: &HeaderMap, body: Body) -> Result<axum::body::Bytes, ApiError> {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than {} KiB", MAX_BODY / 1024),
        )
    };
    let announced = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    axum::body::to_bytes(body, MAX_BODY).await.map_err(|e| {
        let over = std::error::Error::source(&e)
            .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
        if over {
            too_large()
        } else {
            ApiError::bad_request(format!("the body could not be read: {e}"))
        }
    })
}

/// A command or a read: the station authenticated and admitted, its body read, the work
/// done on a connection of the pool, unless the station is ended meanwhile.
async fn handle(
    shared: Arc<Shared>,
    headers: HeaderMap,
    body: Body,
    route: Route,
) -> Result<(StatusCode, Value), ApiError> {
    let (caller, began) = authenticate(&shared, &headers, &route.station).await?;
    let (_permit, mut end) = admit(&shared, &caller, began)?;
    let body = read_body(&headers, body).await?;
    let name = caller.station.name.clone();
    let action = route.action;
    let status = if action == Action::Create {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    let work = shared.pool.run(move |store| {
        let b = &body[..];
        let c = &caller;
        match action {
            Action::WhoAmI => commands::whoami(store, c),
            Action::Boards => commands::boards(store, c),
            Action::Game(id) => commands::game(store, c, id),
            Action::Create => commands::create(store, c, b),
            Action::Setup(id, side) => commands::setup(store, c, id, &side, b),
            Action::Lots(id) => commands::lots(store, c, id, b),
            Action::Start(id) => commands::start(store, c, id, b),
            Action::Event(id) => commands::event(store, c, id, b),
            Action::Undo(id) => commands::undo(store, c, id, b),
            Action::Correct(id) => commands::correct(store, c, id, b),
            Action::Reading(id, side) => commands::reading(store, c, id, &side, b),
            Action::Confirm(id) => commands::confirm(store, c, id, b),
            Action::SetupTimer(id) => commands::setup_timer(store, c, id, b),
            Action::SetupOverrun(id) => commands::setup_overrun(store, c, id, b),
            Action::ReadingTimer(id) => commands::reading_timer(store, c, id, b),
            Action::Seen => commands::seen(store, c, b),
            Action::Restore => commands::restore(store, c, b),
            Action::Stream => Err(ApiError::bad_request("the stream is not a command")),
        }
    });
    tokio::select! {
        done = work => done.map(|v| (status, v)),
        _ = end.changed() => Err(ended(&name)),
    }
}

/// Whether the station's secret still opens it, for its tournament (a database that cannot
/// be read now keeps the stream open: the next check decides).
async fn still_valid(shared: &Arc<Shared>, caller: &Caller, secret: &str) -> bool {
    let (name, secret, tournament) = (
        caller.station.name.clone(),
        secret.to_string(),
        caller.tournament,
    );
    let found = shared
        .pool
        .run(move |store| Ok(store.station_by_secret(&name, &secret)?))
        .await;
    match found {
        Ok(Some(s)) => s.tournament == tournament,
        Ok(None) => false,
        Err(_) => true,
    }
}

/// What an open stream holds.
struct Open {
    shared: Arc<Shared>,
    caller: Caller,
    secret: String,
    notices: broadcast::Receiver<Notice>,
    end: watch::Receiver<u64>,
    recheck: tokio::time::Interval,
    serial: u64,
    _permit: Permit,
}

impl Open {
    fn concerns(&self, notice: Notice) -> bool {
        match notice {
            Notice::Tournament(t) => t == Some(self.caller.tournament),
            Notice::Everything => true,
        }
    }

    /// The next `change`, or `None` when the stream ends (the station ended, its secret no
    /// longer valid, the server stopping).
    async fn next(&mut self) -> Option<Event> {
        loop {
            tokio::select! {
                _ = self.end.changed() => return None,
                _ = self.recheck.tick() => {
                    if !still_valid(&self.shared, &self.caller, &self.secret).await {
                        return None;
                    }
                }
                notice = self.notices.recv() => {
                    let wanted = match notice {
                        Ok(n) => self.concerns(n),
                        Err(broadcast::error::RecvError::Lagged(_)) => true,
                        Err(broadcast::error::RecvError::Closed) => return None,
                    };
                    if !wanted {
                        continue;
                    }
                    // Several changes in a moment are one notice.
                    tokio::select! {
                        _ = self.end.changed() => return None,
                        _ = tokio::time::sleep(COALESCE) => {}
                    }
                    while self.notices.try_recv().is_ok() {}
                    // A reset writes an audit row of the station's tournament: the stream
                    // of the old secret ends there.
                    if !still_valid(&self.shared, &self.caller, &self.secret).await {
                        return None;
                    }
                    self.serial += 1;
                    return Some(
                        Event::default()
                            .event("change")
                            .data(json!({ "serial": self.serial }).to_string()),
                    );
                }
            }
        }
    }
}

/// `GET /NAME/stream`: the station's change notices (Server-Sent Events).
async fn open_stream(
    shared: Arc<Shared>,
    headers: &HeaderMap,
    route: Route,
) -> Result<Response<Body>, ApiError> {
    let secret = bearer(headers)?;
    let (caller, began) = authenticate(&shared, headers, &route.station).await?;
    let name = caller.station.name.clone();
    let guard = shared.guards.of(&name);
    let end = guard.watch_end(began).ok_or_else(|| ended(&name))?;
    if !guard.take_rate(&shared.limits) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("station {name} sends too many requests: slow down"),
        ));
    }
    let permit = guard.stream(&shared.limits).ok_or_else(|| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "station {name} has {} streams open already",
                shared.limits.streams
            ),
        )
    })?;
    let mut recheck = tokio::time::interval(RECHECK);
    recheck.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    recheck.reset();
    let open = Open {
        notices: shared.notices.subscribe(),
        shared,
        caller,
        secret,
        end,
        recheck,
        serial: 0,
        _permit: permit,
    };
    let first = Event::default()
        .retry(Duration::from_secs(2))
        .comment("open");
    let changes = stream::unfold(open, |mut open| async move {
        open.next().await.map(|e| (e, open))
    });
    let sse = Sse::new(
        stream::once(async move { first })
            .chain(changes)
            .map(Ok::<_, Infallible>),
    )
    .keep_alive(KeepAlive::new().interval(KEEP_ALIVE));
    let mut res = axum::response::IntoResponse::into_response(sse);
    res.headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_read_from_the_path_and_method() {
        let r = Route::parse(&Method::GET, "/hall-a").expect("whoami");
        assert_eq!(r.station, "hall-a");
        assert_eq!(r.action, Action::WhoAmI);
        assert_eq!(
            Route::parse(&Method::PUT, "/hall-a/games/7/setup/white")
                .expect("setup")
                .action,
            Action::Setup(GameId(7), "white".into())
        );
        let e = Route::parse(&Method::GET, "/hall-a/games").expect_err("a POST");
        assert_eq!(e.status, StatusCode::METHOD_NOT_ALLOWED);
        let e = Route::parse(&Method::GET, "/hall-a/games/x").expect_err("no id");
        assert_eq!(e.status, StatusCode::NOT_FOUND);
        let e = Route::parse(&Method::GET, "/").expect_err("no station");
        assert_eq!(e.status, StatusCode::NOT_FOUND);
    }
}
