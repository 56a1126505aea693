//! An arbiter station's desk on the event server's stations' API (`docs/station-api.md`):
//! a [`Store`] whose connection is not a database but the API, reached through a
//! [`Remote`] (the HTTPS client is `station::client`; the store knows nothing of HTTP).
//!
//! A station never logs into the database. The desk's Tables page calls the same store
//! methods on either kind of store; on this one each of those methods is one request of the
//! API (or two: a command, then the game read back), and the server checks it with the
//! core's rules and the station's scope and stamps its time. What the API does not give a
//! station (the whole event, other tables, the registry, the audit log) is refused in
//! words that say so ([`not_at_a_station`]).
//!
//! A game crosses the wire as [`stored_game_value`] writes it: its row's facts, its setups
//! as entered, every entry of its log (undos included) and its reading sheets, so the
//! station's desk derives the board, the clocks and the result exactly as a desk on the
//! database does.

use super::conn::{Conn, Store};
use super::error::{Result, StoreError};
use super::game_rows::{AppendOutcome, Expect, GameMeta, NewGame, StoredGame};
use super::games::{DeskGames, apply_checked};
use super::listen::Changes;
use super::stations::Station;
use super::tables::TableTimers;
use ggdesk_core::event::BoardView;
use ggdesk_core::game::{AnyEvent, Decision, GameMode, LogEntry, LogEntryKind, SheetRow};
use ggdesk_core::record::{parse_setup, setup_value};
use ggdesk_core::rules::{BySide, RuleSettings, Side, SideSetup};
use ggdesk_core::tournament::{GameId, PlayerId, RoundNo, TableNo, TournamentId};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The stations' API as the store uses it: one request, its JSON answer; the stream of
/// change notices. An answer other than success is the store's error already (a refusal in
/// the server's words, a lost connection as [`StoreError::Disconnected`]).
pub trait Remote: Send + Sync {
    /// `method` (`GET`, `POST`, `PUT`) on `path` under the station (`""` for who it is,
    /// `/boards`, `/games/12/events`), with a JSON body or none.
    fn call(&self, method: &'static str, path: &str, body: Option<Value>) -> Result<Value>;
    /// The server's change notices, from now on; `wake` is called after each.
    fn listen(&self, wake: Box<dyn Fn() + Send>) -> Result<Changes>;
    /// The station's link (`https://HOST:PORT/NAME`), to show.
    fn shown(&self) -> String;
    /// How far the server's clock is ahead of this machine's, in ms, as last measured: the
    /// desk shows the clocks of games the server timed on the server's time.
    fn clock_offset_ms(&self) -> i64 {
        0
    }
}

/// The refusal of what a station's desk cannot do through the API.
pub(crate) fn not_at_a_station(what: &str) -> StoreError {
    StoreError::Denied(format!(
        "{what}: an arbiter station reaches only its own tables through the event server"
    ))
}

impl Store {
    /// A store on the stations' API: the station's desk. Asks the server who the station is
    /// first, so a wrong secret, another authority or a server that cannot be reached is
    /// said at once.
    pub fn on_station_api(remote: Arc<dyn Remote>) -> Result<Store> {
        remote.call("GET", "", None)?;
        Ok(Store::remote_store(remote))
    }

    /// The API this store reaches, if it is a station's desk on one.
    pub(crate) fn remote(&self) -> Option<Arc<dyn Remote>> {
        match &*self.conn.borrow() {
            Conn::Station(r) => Some(r.clone()),
            _ => None,
        }
    }

    /// How far the clock of the times this store reads is ahead of this machine's (ms): the
    /// event server's, for a station's desk on the API; 0 for a database, whose times are
    /// the desks' own.
    pub fn clock_offset_ms(&self) -> i64 {
        self.remote().map_or(0, |r| r.clock_offset_ms())
    }

    /// The station's link, for a station's desk on the API.
    pub fn remote_shown(&self) -> Option<String> {
        self.remote().map(|r| r.shown())
    }

    /// Whether this store is a station's desk on the stations' API.
    pub fn is_on_station_api(&self) -> bool {
        self.remote().is_some()
    }

    /// The round in play of a tournament and its boards by table (the Tables page's cards):
    /// on the API, the station's boards.
    pub fn playing_boards(&self, tid: TournamentId) -> Result<Option<(RoundNo, Vec<BoardView>)>> {
        if let Some(r) = self.remote() {
            let boards = match r.call("GET", "/boards", None) {
                Ok(b) => b,
                Err(StoreError::Conflict(_)) => return Ok(None),
                Err(e) => return Err(e),
            };
            let round = round_of(&boards).ok_or_else(|| bad_answer("the boards", "no round"))?;
            let list = boards_of(&boards)?.into_iter().map(|(b, _)| b).collect();
            return Ok(Some((round, list)));
        }
        Ok(self.tables_round(tid)?.1.map(|r| (r.number, r.boards)))
    }

    /// The board at `table` of `round` (the Tables page's label of a table).
    pub fn board_at(
        &self,
        tid: TournamentId,
        round: RoundNo,
        table: TableNo,
    ) -> Result<Option<BoardView>> {
        if let Some(r) = self.remote() {
            let boards = r.call("GET", "/boards", None)?;
            if round_of(&boards) != Some(round) {
                return Ok(None);
            }
            return Ok(boards_of(&boards)?
                .into_iter()
                .find(|(b, _)| b.table == table)
                .map(|(b, _)| b));
        }
        Ok(self
            .boards_of_round(tid, round)?
            .into_iter()
            .find(|b| b.table == table))
    }
}

fn bad_answer(what: &str, detail: impl std::fmt::Display) -> StoreError {
    StoreError::Database(format!(
        "the event server's answer ({what}) cannot be read: {detail}"
    ))
}

fn get_i64(v: &Value, key: &str, what: &str) -> Result<i64> {
    v.get(key)
        .and_then(Value::as_i64)
        .ok_or_else(|| bad_answer(what, format!("no {key}")))
}

fn opt_i64(v: &Value, key: &str) -> Option<i64> {
    v.get(key).and_then(Value::as_i64)
}

fn opt_u32(v: &Value, key: &str) -> Option<u32> {
    opt_i64(v, key).and_then(|n| u32::try_from(n).ok())
}

/// The station as the server says who it is (`GET /NAME`).
pub(crate) fn my_station(r: &dyn Remote) -> Result<Station> {
    let me = r.call("GET", "", None)?;
    station_of(&me)
}

fn station_of(me: &Value) -> Result<Station> {
    let name = me
        .get("station")
        .and_then(Value::as_str)
        .ok_or_else(|| bad_answer("who am I", "no station"))?;
    let tables = me
        .get("tables")
        .and_then(Value::as_array)
        .ok_or_else(|| bad_answer("who am I", "no tables"))?
        .iter()
        .map(|t| {
            t.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .map(TableNo)
                .ok_or_else(|| bad_answer("who am I", format!("table {t}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let tournament = TournamentId(get_i64(&me["tournament"], "id", "who am I")?);
    Ok(Station {
        name: name.to_string(),
        tables,
        tournament,
    })
}

/// The station's tournament, with its name.
pub(crate) fn tournament_names(r: &dyn Remote) -> Result<Vec<(TournamentId, String)>> {
    let me = r.call("GET", "", None)?;
    let t = &me["tournament"];
    Ok(vec![(
        TournamentId(get_i64(t, "id", "who am I")?),
        t.get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
    )])
}

/// The rules the station's tournament plays by (`GET /NAME`'s `rules`).
pub(crate) fn tournament_rules(r: &dyn Remote, tid: TournamentId) -> Result<RuleSettings> {
    let me = r.call("GET", "", None)?;
    if opt_i64(&me["tournament"], "id") != Some(tid.0) {
        return Err(not_at_a_station(&format!("tournament {tid}")));
    }
    RuleSettings::from_value(&me["rules"], "rules").map_err(|e| bad_answer("who am I", e))
}

/// Which station runs each table: this one, its tables.
pub(crate) fn table_stations(r: &dyn Remote) -> Result<super::stations::TableStations> {
    let me = my_station(r)?;
    Ok(me
        .tables
        .iter()
        .map(|t| ((me.tournament, *t), me.name.clone()))
        .collect())
}

/// The round the answer of `/boards` is about.
fn round_of(boards: &Value) -> Option<RoundNo> {
    opt_u32(&boards["round"], "number").map(RoundNo)
}

/// The boards of `/boards`, each with its live game.
fn boards_of(answer: &Value) -> Result<Vec<(BoardView, Option<GameId>)>> {
    let what = "the boards";
    let list = answer
        .get("boards")
        .and_then(Value::as_array)
        .ok_or_else(|| bad_answer(what, "no boards"))?;
    list.iter()
        .map(|b| {
            let seated = |side: &str| -> Result<ggdesk_core::event::Seated> {
                let p = &b[side];
                Ok(ggdesk_core::event::Seated {
                    no: PlayerId(opt_u32(p, "no").ok_or_else(|| bad_answer(what, "no player"))?),
                    name: p
                        .get("name")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    rating: p.get("rating").and_then(Value::as_i64).unwrap_or_default(),
                })
            };
            let result = b
                .get("result")
                .and_then(Value::as_str)
                .and_then(ggdesk_core::tournament::GameResult::from_name)
                .ok_or_else(|| bad_answer(what, "a board's result"))?;
            let status = match b.get("status").and_then(Value::as_str) {
                Some("finished") => ggdesk_core::event::BoardStatus::Finished,
                Some("setting_up") => ggdesk_core::event::BoardStatus::SettingUp,
                Some("playing") => ggdesk_core::event::BoardStatus::Playing,
                Some("adjudication") => ggdesk_core::event::BoardStatus::Adjudication,
                Some("awaiting_result") => ggdesk_core::event::BoardStatus::AwaitingResult,
                other => return Err(bad_answer(what, format!("a board's status {other:?}"))),
            };
            let game = opt_i64(b, "game").map(GameId);
            let view = BoardView {
                board: ggdesk_core::tournament::BoardNo(
                    opt_u32(b, "board").ok_or_else(|| bad_answer(what, "no board"))?,
                ),
                table: TableNo(opt_u32(b, "table").ok_or_else(|| bad_answer(what, "no table"))?),
                white: seated("white")?,
                black: seated("black")?,
                result,
                explanation: String::new(),
                status,
                game,
                group: None,
                series: None,
            };
            Ok((view, game))
        })
        .collect()
}

/// A game as the API sends it: the stored game, its table's timers, whether its result
/// was confirmed.
struct WireGame {
    stored: StoredGame,
    timers: TableTimers,
    confirmed: bool,
    record: Value,
}

fn fetch_game(r: &dyn Remote, id: GameId) -> Result<WireGame> {
    let v = r.call("GET", &format!("/games/{id}"), None)?;
    let stored = stored_game_from(&v["stored"])?;
    let t = &v["timers"];
    let timers = TableTimers {
        setup_started_at: opt_i64(t, "setup_started_at"),
        setup_overrun_at: opt_i64(t, "setup_overrun_at"),
        reading_started_at: opt_i64(t, "reading_started_at"),
        lots_drawn_at: opt_i64(t, "lots_drawn_at"),
    };
    Ok(WireGame {
        stored,
        timers,
        confirmed: v.get("confirmed").and_then(Value::as_bool).unwrap_or(false),
        record: v["record"].clone(),
    })
}

/// The timers as the API sends them.
pub fn timers_value(t: &TableTimers) -> Value {
    json!({
        "setup_started_at": t.setup_started_at,
        "setup_overrun_at": t.setup_overrun_at,
        "reading_started_at": t.reading_started_at,
        "lots_drawn_at": t.lots_drawn_at,
    })
}

/// A stored game as the API sends it to its station (`GET /NAME/games/ID`'s `stored`).
pub fn stored_game_value(g: &StoredGame) -> Value {
    let m = &g.meta;
    let by_side =
        |f: &dyn Fn(Side) -> Value| json!({"white": f(Side::White), "black": f(Side::Black)});
    json!({
        "id": m.id.0,
        "tournament": m.tournament_id.map(|t| t.0),
        "round": m.round.map(|r| r.0),
        "table": m.table_no.map(|t| t.0),
        "players": m.players.map(|p| json!({"white": p.white.0, "black": p.black.0})),
        "mode": m.mode.code(),
        "first": m.first.name(),
        "ratings": m.ratings.map(|r| json!({"white": r.white, "black": r.black})),
        "rules": m.rules.to_value(),
        "started_at": m.started_at,
        "clock_seen_t": m.clock_seen_t,
        "result": m.result.code(),
        "void": m.void,
        "void_reason": m.void_reason,
        "replaces": m.replaces.map(|g| g.0),
        "extra": Value::Object(m.extra.clone()),
        "imported": m.imported,
        "fed": m.fed,
        "created_at": m.created_at,
        "setups": by_side(&|s| g.setup[s].as_ref().map_or(Value::Null, setup_value)),
        "log": g.events.iter().map(|e| json!({
            "seq": e.seq, "t": e.t, "kind": e.kind.code(), "entry": e.kind.value(e.t)
        })).collect::<Vec<_>>(),
        "sheets": by_side(&|s| g.sheets[s].as_ref().map_or(Value::Null, |row| {
            json!({"sheet": row.sheet, "complete": row.complete})
        })),
    })
}

/// A stored game read back from [`stored_game_value`], every part checked as the store
/// checks a row it reads.
fn stored_game_from(v: &Value) -> Result<StoredGame> {
    let id = GameId(get_i64(v, "id", "a game")?);
    let what = format!("game {id}");
    let bad = |detail: String| bad_answer(&what, detail);
    let pair = |key: &str| -> Option<(i64, i64)> {
        let p = v.get(key)?;
        Some((p.get("white")?.as_i64()?, p.get("black")?.as_i64()?))
    };
    let mode_code = v.get("mode").and_then(Value::as_str).unwrap_or_default();
    let mode = GameMode::from_code(mode_code).ok_or_else(|| bad(format!("mode {mode_code:?}")))?;
    let first: Side = v
        .get("first")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .parse()
        .map_err(|e: String| bad(format!("first: {e}")))?;
    let rules = RuleSettings::from_value(&v["rules"], "rules").map_err(|e| bad(e.to_string()))?;
    let result = Decision::from_code(v.get("result").and_then(Value::as_str))
        .map_err(|e| bad(e.to_string()))?;
    let extra = match v.get("extra") {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    let meta = GameMeta {
        id,
        tournament_id: opt_i64(v, "tournament").map(TournamentId),
        round: opt_u32(v, "round").map(RoundNo),
        table_no: opt_u32(v, "table").map(TableNo),
        players: pair("players").and_then(|(w, b)| {
            Some(BySide::new(
                PlayerId(u32::try_from(w).ok()?),
                PlayerId(u32::try_from(b).ok()?),
            ))
        }),
        mode,
        first,
        ratings: v.get("ratings").and_then(|r| {
            Some(BySide::new(
                r.get("white")?.as_f64()?,
                r.get("black")?.as_f64()?,
            ))
        }),
        rules,
        started_at: opt_i64(v, "started_at"),
        clock_seen_t: v.get("clock_seen_t").and_then(Value::as_f64),
        result,
        void: v.get("void").and_then(Value::as_bool).unwrap_or(false),
        void_reason: v
            .get("void_reason")
            .and_then(Value::as_str)
            .map(str::to_string),
        replaces: opt_i64(v, "replaces").map(GameId),
        extra,
        imported: v.get("imported").and_then(Value::as_bool).unwrap_or(false),
        fed: v.get("fed").and_then(Value::as_bool).unwrap_or(false),
        created_at: opt_i64(v, "created_at").unwrap_or_default(),
    };
    let mut setup = BySide::<Option<SideSetup>>::default();
    for side in Side::BOTH {
        let s = &v["setups"][side.name()];
        if !s.is_null() {
            setup[side] = Some(parse_setup(s, side).map_err(|e| bad(e.to_string()))?);
        }
    }
    let events = v
        .get("log")
        .and_then(Value::as_array)
        .ok_or_else(|| bad("no log".into()))?
        .iter()
        .map(|e| {
            let seq = opt_u32(e, "seq").ok_or_else(|| bad("an entry without seq".into()))?;
            let t = e
                .get("t")
                .and_then(Value::as_f64)
                .ok_or_else(|| bad(format!("entry {seq} without t")))?;
            let code = e.get("kind").and_then(Value::as_str).unwrap_or_default();
            let kind = LogEntryKind::parse(mode, code, &e["entry"])
                .map_err(|err| bad(format!("entry {seq}: {err}")))?;
            Ok(LogEntry { seq, t, kind })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut sheets = BySide::<Option<SheetRow>>::default();
    for side in Side::BOTH {
        let s = &v["sheets"][side.name()];
        if !s.is_null() {
            sheets[side] = Some(SheetRow {
                sheet: s["sheet"].clone(),
                complete: s.get("complete").and_then(Value::as_bool).unwrap_or(false),
            });
        }
    }
    Ok(StoredGame {
        meta,
        setup,
        events,
        sheets,
    })
}

pub(crate) fn load_game(r: &dyn Remote, id: GameId) -> Result<StoredGame> {
    Ok(fetch_game(r, id)?.stored)
}

pub(crate) fn result_confirmed(r: &dyn Remote, id: GameId) -> Result<bool> {
    Ok(fetch_game(r, id)?.confirmed)
}

pub(crate) fn table_timers(r: &dyn Remote, id: GameId) -> Result<TableTimers> {
    Ok(fetch_game(r, id)?.timers)
}

/// The game's record, as `export game` writes it.
pub(crate) fn export_game(r: &dyn Remote, id: GameId) -> Result<Value> {
    let game = fetch_game(r, id)?;
    if game.record.is_null() {
        return Err(StoreError::Rejected(format!(
            "game {id} has no record yet: both setups must be entered"
        )));
    }
    Ok(game.record)
}

/// The games of the station's round in play, with their timers (the Tables page's read).
pub(crate) fn desk_games(
    r: &dyn Remote,
    round: Option<(TournamentId, RoundNo)>,
) -> Result<DeskGames> {
    let mut out = DeskGames::default();
    let Some((_, number)) = round else {
        return Ok(out);
    };
    let boards = match r.call("GET", "/boards", None) {
        Ok(b) => b,
        // No round in play: no table to show.
        Err(StoreError::Conflict(_)) => return Ok(out),
        Err(e) => return Err(e),
    };
    if round_of(&boards) != Some(number) {
        return Ok(out);
    }
    for (_, game) in boards_of(&boards)? {
        let Some(id) = game else { continue };
        match fetch_game(r, id) {
            Ok(g) => out.games.push((g.stored.meta, g.timers)),
            Err(e) if e.is_disconnected() => return Err(e),
            Err(e) => out.damaged.push((id, e.to_string())),
        }
    }
    Ok(out)
}

pub(crate) fn create_game(r: &dyn Remote, new: &NewGame) -> Result<GameId> {
    let table = new
        .table_no
        .ok_or_else(|| not_at_a_station("a practice table"))?;
    let answer = r.call(
        "POST",
        "/games",
        Some(json!({"table": table.0, "mode": new.mode.code()})),
    )?;
    Ok(GameId(get_i64(&answer, "game", "the game created")?))
}

pub(crate) fn save_setup(r: &dyn Remote, id: GameId, side: Side, setup: &SideSetup) -> Result<()> {
    r.call(
        "PUT",
        &format!("/games/{id}/setup/{}", side.name()),
        Some(setup_value(setup)),
    )
    .map(drop)
}

pub(crate) fn start_game(r: &dyn Remote, id: GameId, first: Side) -> Result<()> {
    r.call(
        "POST",
        &format!("/games/{id}/start"),
        Some(json!({"first": first.name()})),
    )
    .map(drop)
}

/// Lots are drawn by the server: the side it drew is read back with the game.
pub(crate) fn draw_lots(r: &dyn Remote, id: GameId) -> Result<()> {
    r.call("POST", &format!("/games/{id}/lots"), None).map(drop)
}

/// An event without its time (the server stamps it), where this desk saw the game.
fn event_body(event: AnyEvent, expect: Option<Expect<'_>>, reason: &str) -> Value {
    let mut body = event.value(0.0);
    if let Value::Object(map) = &mut body {
        map.remove("t");
        if !reason.is_empty() {
            map.insert("reason".into(), json!(reason));
        }
        if let Some(e) = expect {
            map.insert("expect".into(), json!({"seq": e.seq, "token": e.token}));
        }
    }
    body
}

/// What the entry `seq` did, replayed on the game as it stood before it (the desk's
/// announcement of a challenge), and the game's state after the whole log.
fn outcome_of(stored: &StoredGame, seq: u32) -> Result<AppendOutcome> {
    let entry = stored
        .events
        .iter()
        .find(|e| e.seq == seq)
        .ok_or_else(|| bad_answer("the event entered", format!("no entry {seq}")))?;
    let event = entry
        .kind
        .event()
        .ok_or_else(|| bad_answer("the event entered", format!("entry {seq} is an undo")))?;
    let mut before = stored.clone();
    before.events.retain(|e| e.seq < seq);
    let (applied, _) = apply_checked(&before, entry.t, &event)?;
    let state = stored
        .derive()
        .and_then(|g| g.ok())
        .map_or(ggdesk_core::rules::GameState::Playing, |g| g.state());
    Ok(AppendOutcome {
        seq,
        applied,
        state,
        round_completed: None,
    })
}

pub(crate) fn append(
    r: &dyn Remote,
    id: GameId,
    expect: Option<Expect<'_>>,
    event: AnyEvent,
    reason: &str,
) -> Result<AppendOutcome> {
    let answer = r.call(
        "POST",
        &format!("/games/{id}/events"),
        Some(event_body(event, expect, reason)),
    )?;
    let seq = opt_u32(&answer, "seq").ok_or_else(|| bad_answer("the event entered", "no seq"))?;
    outcome_of(&load_game(r, id)?, seq)
}

pub(crate) fn undo(r: &dyn Remote, id: GameId, reason: &str) -> Result<u32> {
    let answer = r.call(
        "POST",
        &format!("/games/{id}/undo"),
        Some(json!({"reason": reason})),
    )?;
    opt_u32(&answer, "undone").ok_or_else(|| bad_answer("the undo", "no undone"))
}

pub(crate) fn correct(
    r: &dyn Remote,
    id: GameId,
    expect: Option<Expect<'_>>,
    replacement: AnyEvent,
    reason: &str,
) -> Result<AppendOutcome> {
    let AnyEvent::Game(ggdesk_core::rules::Event::Move { mv, .. }) = replacement else {
        return Err(StoreError::Rejected(format!(
            "game {id}: only a move replaces the last move"
        )));
    };
    let mut body = json!({"move": mv.to_string(), "reason": reason});
    if let Some(e) = expect {
        body["expect"] = json!({"seq": e.seq, "token": e.token});
    }
    let answer = r.call("POST", &format!("/games/{id}/correct"), Some(body))?;
    let seq = opt_u32(&answer, "seq").ok_or_else(|| bad_answer("the correction", "no seq"))?;
    outcome_of(&load_game(r, id)?, seq)
}

pub(crate) fn save_reading_sheet(
    r: &dyn Remote,
    id: GameId,
    side: Side,
    sheet: &Value,
    complete: bool,
) -> Result<()> {
    r.call(
        "PUT",
        &format!("/games/{id}/readings/{}", side.name()),
        Some(json!({"sheet": sheet, "complete": complete})),
    )
    .map(drop)
}

pub(crate) fn confirm_result(r: &dyn Remote, id: GameId) -> Result<()> {
    r.call("POST", &format!("/games/{id}/confirm"), None)
        .map(drop)
}

/// Starts one of a table's timers on the server's clock: `setup-timer` or `reading-timer`;
/// the start as the server keeps it.
pub(crate) fn start_timer(r: &dyn Remote, id: GameId, which: &str) -> Result<i64> {
    let answer = r.call("POST", &format!("/games/{id}/{which}"), None)?;
    get_i64(&answer, "started_at", which)
}

pub(crate) fn record_setup_overrun(r: &dyn Remote, id: GameId, reason: &str) -> Result<()> {
    r.call(
        "POST",
        &format!("/games/{id}/setup-overrun"),
        Some(json!({"reason": reason})),
    )
    .map(drop)
}

/// The running clocks of these games were seen now (the server takes their t itself).
pub(crate) fn clocks_seen(r: &dyn Remote, seen: &[(GameId, f64)]) -> Result<()> {
    let games: Vec<i64> = seen.iter().map(|(g, _)| g.0).collect();
    r.call("POST", "/seen", Some(json!({"games": games})))
        .map(drop)
}

/// The restore of the station's own games after its desk started or reconnected: the
/// server pauses a game's clocks at the last moment they were seen and resumes them now.
pub(crate) fn restore(
    r: &dyn Remote,
    games: Option<&[GameId]>,
    quiet_ms: Option<i64>,
) -> Result<super::game_rows::Restored> {
    let mut body = json!({"quiet_ms": quiet_ms});
    if let Some(ids) = games {
        body["games"] = json!(ids.iter().map(|g| g.0).collect::<Vec<_>>());
    }
    let answer = r.call("POST", "/restore", Some(body))?;
    let ids = |key: &str| -> Vec<GameId> {
        answer[key]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_i64).map(GameId).collect())
            .unwrap_or_default()
    };
    let mut report = super::game_rows::Restored {
        restored: ids("restored"),
        left_to_their_desk: ids("left_to_their_desk"),
        ..Default::default()
    };
    if let Some(failed) = answer["failed"].as_array() {
        for f in failed {
            if let Some(g) = opt_i64(f, "game") {
                let why = f["error"].as_str().unwrap_or_default().to_string();
                report.failed.push((GameId(g), StoreError::Rejected(why)));
            }
        }
    }
    Ok(report)
}
