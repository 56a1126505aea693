//! What a station may do, each on the server's own (director's) connection to the store, run
//! on a blocking thread: first the station's scope is checked (its tournament, its tables,
//! the round in play, a board with no result yet), then the one store method the director's
//! desk calls too, whose checks are the core's rules, with the station as the audit line's
//! actor. The time of every write is the server's clock (the store's), never the caller's.
//!
//! Scope is checked outside the store method's own transaction: what it reads (the round in
//! play, a board's result) can change in between only by the director's hand, and each
//! store method checks the game itself again inside its transaction (a game that started,
//! ended or was voided meanwhile is refused there).

use super::wire::{self, ApiError};
use crate::store::{
    Actor, AnyEvent, GameId, GameMode, NewGame, RoundInPlay, RoundState, Station, Store,
    StoredGame, TablesRound,
};
use ggdesk_core::record::setup_value;
use ggdesk_core::rules::{Event, GameState, Move, Side};
use ggdesk_core::tournament::{GameResult, RoundNo, TableNo, TournamentId};
use serde_json::{Value, json};

/// An authenticated station with its tournament.
#[derive(Debug, Clone)]
pub struct Caller {
    pub station: Station,
    pub tournament: TournamentId,
}

impl Caller {
    /// The actor of its audit lines, in the words the station functions of the database
    /// write (`station NAME`).
    pub fn actor(&self) -> Actor {
        Actor(format!("station {}", self.station.name))
    }

    fn runs(&self, table: Option<TableNo>) -> bool {
        table.is_some_and(|t| self.station.tables.contains(&t))
    }
}

/// What a command needs of the round its game is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    /// Reading: the round in play, published or complete.
    Read,
    /// Changing a game: the round published, the board without a result.
    Write,
    /// Confirming a game's result: the round published or complete.
    Confirm,
}

fn no_round(caller: &Caller) -> ApiError {
    ApiError::conflict(format!(
        "tournament {} has no round in play",
        caller.tournament
    ))
}

/// Whether the round in play (`number`, in `state`) allows what the command needs of it.
fn round_allows(
    caller: &Caller,
    number: RoundNo,
    state: RoundState,
    need: Need,
) -> Result<(), ApiError> {
    if need == Need::Write && state != RoundState::Published {
        return Err(ApiError::conflict(format!(
            "round {number} of tournament {} is {}: only the director changes its games",
            caller.tournament,
            state.code()
        )));
    }
    Ok(())
}

/// The round the station's tables play (the tournament's last published or complete round,
/// as the core's `Event::playing_round` names it, or a team event's), with its boards.
fn playing_round(store: &Store, caller: &Caller, need: Need) -> Result<TablesRound, ApiError> {
    let round = store
        .tables_round(caller.tournament)?
        .1
        .ok_or_else(|| no_round(caller))?;
    round_allows(caller, round.number, round.state, need)?;
    Ok(round)
}

/// The round in play with the result of the board at `table`, read alone: a command on one
/// game does not replay the whole event.
fn round_in_play(
    store: &Store,
    caller: &Caller,
    table: TableNo,
    need: Need,
) -> Result<RoundInPlay, ApiError> {
    let round = store
        .round_in_play(caller.tournament, table)?
        .ok_or_else(|| no_round(caller))?;
    round_allows(caller, round.number, round.state, need)?;
    Ok(round)
}

/// The refusal of a game outside the station's scope, in the same words whether the game
/// does not exist, is of another tournament, at another table or of another round: a
/// station learns nothing of games that are not its own.
fn not_mine(caller: &Caller, id: GameId) -> ApiError {
    ApiError::forbidden(format!(
        "game {id} is not a game at the tables of station {} in tournament {}'s round in play",
        caller.station.name, caller.tournament
    ))
}

/// The game `id`, when it is the station's to `need`: of its tournament, at one of its
/// tables, of the round in play; to change it, not void and its board without a result.
fn game_in_scope(
    store: &Store,
    caller: &Caller,
    id: GameId,
    need: Need,
) -> Result<StoredGame, ApiError> {
    let game = match store.load_game(id) {
        Ok(g) => g,
        Err(crate::store::StoreError::NotFound(_)) => return Err(not_mine(caller, id)),
        Err(e) => return Err(e.into()),
    };
    let m = &game.meta;
    let table = match m.table_no {
        Some(t) if m.tournament_id == Some(caller.tournament) && caller.runs(Some(t)) => t,
        _ => return Err(not_mine(caller, id)),
    };
    let round = round_in_play(store, caller, table, need)?;
    if m.round != Some(round.number) {
        return Err(not_mine(caller, id));
    }
    if need != Need::Read && m.void {
        return Err(ApiError::conflict(format!(
            "game {id} is void: only the director changes it"
        )));
    }
    if need == Need::Write
        && let Some(result) = round.result_at_table.filter(|r| *r != GameResult::Pending)
    {
        return Err(ApiError::conflict(format!(
            "the board at table {table} has its result ({}): only the director changes it",
            result.name()
        )));
    }
    Ok(game)
}

/// The game clock's t now, by the server's clock: never before the last entry of its log
/// (a clock set back does not make the record's times decrease). 0 before the game starts.
fn t_now(store: &Store, game: &StoredGame) -> f64 {
    let last = game.events.last().map_or(0.0, |e| e.t);
    game.t_at(store.now()).unwrap_or(0.0).max(last)
}

fn side(text: &str, at: &str) -> Result<Side, ApiError> {
    text.parse()
        .map_err(|e: String| ApiError::unprocessable(format!("{at}: {e}")))
}

/// `GET /NAME`.
pub fn whoami(store: &Store, caller: &Caller) -> Result<Value, ApiError> {
    let (name, round) = store.tables_round(caller.tournament)?;
    let round = round.map(|r| wire::round_value(r.number, r.state));
    let rules = store.tournament_rules(caller.tournament)?.to_value();
    Ok(wire::whoami(
        &caller.station,
        caller.tournament,
        &name,
        round,
        rules,
        store.now(),
    ))
}

/// `GET /NAME/boards`.
pub fn boards(store: &Store, caller: &Caller) -> Result<Value, ApiError> {
    let round = playing_round(store, caller, Need::Read)?;
    let boards: Vec<Value> = round
        .boards
        .iter()
        .filter(|b| caller.runs(Some(b.table)))
        .map(wire::board_value)
        .collect();
    Ok(json!({
        "round": wire::round_value(round.number, round.state),
        "boards": boards,
    }))
}

/// `GET /NAME/games/ID`.
pub fn game(store: &Store, caller: &Caller, id: GameId) -> Result<Value, ApiError> {
    let game = game_in_scope(store, caller, id, Need::Read)?;
    let m = &game.meta;
    let setups = json!({
        "white": game.setup.white.as_ref().map(setup_value),
        "black": game.setup.black.as_ref().map(setup_value),
    });
    Ok(json!({
        "game": id.0,
        "round": m.round.map(|r| r.0),
        "table": m.table_no.map(|t| t.0),
        "mode": m.mode.code(),
        "first": m.first.name(),
        "started_at": m.started_at,
        "void": m.void,
        "result": m.result.code(),
        "setups": setups,
        "record": game.export_value(),
        "stored": crate::store::stored_game_value(&game),
        "timers": crate::store::timers_value(&store.table_timers(id)?),
        "confirmed": store.result_confirmed(id)?,
    }))
}

/// `POST /NAME/games`: the game of the board at a table of the station, in the round in
/// play, whose board has no result and no game yet.
pub fn create(store: &mut Store, caller: &Caller, body: &[u8]) -> Result<Value, ApiError> {
    let asked: wire::CreateGame = wire::parse(body)?;
    let mode = match asked.mode.as_deref() {
        None => GameMode::Arbitrated,
        Some(code) => GameMode::from_code(code).ok_or_else(|| {
            ApiError::unprocessable(format!(
                "mode: unknown mode {code:?} (expected \"arbitrated\" or \"physical\")"
            ))
        })?,
    };
    let table = TableNo(asked.table);
    let t = caller.tournament;
    if !caller.runs(Some(table)) {
        return Err(ApiError::forbidden(format!(
            "table {table} is not a table of station {}",
            caller.station.name
        )));
    }
    let playing = playing_round(store, caller, Need::Write)?;
    let round = playing.number;
    let board = playing
        .boards
        .into_iter()
        .find(|b| b.table == table)
        .ok_or_else(|| {
            ApiError::new(
                axum::http::StatusCode::NOT_FOUND,
                format!("round {round} of tournament {t} has no board at table {table}"),
            )
        })?;
    if board.result != GameResult::Pending {
        return Err(ApiError::conflict(format!(
            "the board at table {table} has its result ({}): no game is created for it",
            board.result.name()
        )));
    }
    if let Some(g) = board.game {
        return Err(ApiError::conflict(format!(
            "the board at table {table} has its game already: game {g}"
        )));
    }
    let rules = store.tournament_rules(t)?;
    let new = NewGame::for_board(t, round, &board, mode, rules);
    let id = store.create_game(&new, &caller.actor())?;
    Ok(json!({ "game": id.0, "round": round.0, "table": table.0 }))
}

/// `PUT /NAME/games/ID/setup/SIDE`: one side's setup as entered so far (square → piece).
pub fn setup(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    side_text: &str,
    body: &[u8],
) -> Result<Value, ApiError> {
    let side = side(side_text, "the path's side")?;
    let value: Value = wire::parse(body)?;
    let setup = ggdesk_core::record::parse_setup(&value, side)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    game_in_scope(store, caller, id, Need::Write)?;
    store.save_setup(id, side, &setup, &caller.actor())?;
    Ok(json!({ "game": id.0, "side": side.name(), "pieces": setup.placements.len() }))
}

/// `POST /NAME/games/ID/lots`: the server draws who moves first.
pub fn lots(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    body: &[u8],
) -> Result<Value, ApiError> {
    refuse_keys(body)?;
    game_in_scope(store, caller, id, Need::Write)?;
    use rand::{Rng, SeedableRng};
    let heads = rand::rngs::StdRng::from_os_rng().random::<bool>();
    let first = if heads { Side::White } else { Side::Black };
    let now = store.now();
    store.draw_lots(id, first, now, &caller.actor())?;
    Ok(json!({ "game": id.0, "first": first.name() }))
}

/// `POST /NAME/games/ID/start`: the clocks start now, by the server's clock.
pub fn start(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    body: &[u8],
) -> Result<Value, ApiError> {
    let asked: wire::Start = if body.iter().all(u8::is_ascii_whitespace) {
        wire::Start::default()
    } else {
        wire::parse(body)?
    };
    let asked_first = asked
        .first
        .as_deref()
        .map(|f| side(f, "first"))
        .transpose()?;
    let game = game_in_scope(store, caller, id, Need::Write)?;
    let first = asked_first.unwrap_or(game.meta.first);
    let started_at = store.now();
    store.start_game(id, started_at, first, &caller.actor())?;
    Ok(json!({ "game": id.0, "started_at": started_at, "first": first.name() }))
}

/// The state of a game after an event, as the API names it.
fn state_code(state: &GameState) -> &'static str {
    match state {
        GameState::Playing => "playing",
        GameState::Finished { .. } => "finished",
        GameState::AdjudicationPending { .. } => "adjudication_pending",
        _ => "counts_pending",
    }
}

/// `POST /NAME/games/ID/events`: one event of `record.md` (or of the physical record) without
/// its time, which the server stamps: a body that carries `t` is refused.
pub fn event(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    body: &[u8],
) -> Result<Value, ApiError> {
    let mut object = wire::object(body)?;
    if object.contains_key("t") {
        return Err(ApiError::unprocessable(
            "t: the server stamps every event's time by its own clock; send the event without \"t\"",
        ));
    }
    let reason = match object.remove("reason") {
        None => String::new(),
        Some(Value::String(r)) => r,
        Some(_) => return Err(ApiError::bad_request("reason: must be a string")),
    };
    let expect: Option<wire::Expect> = match object.remove("expect") {
        None => None,
        Some(v) => Some(
            serde_json::from_value(v).map_err(|e| ApiError::bad_request(format!("expect: {e}")))?,
        ),
    };
    let game = game_in_scope(store, caller, id, Need::Write)?;
    let t = t_now(store, &game);
    object.insert("t".into(), json!(t));
    let (_, event) = AnyEvent::parse(game.meta.mode, &Value::Object(object))
        .map_err(|e| ApiError::unprocessable(format!("the event: {e}")))?;
    let expected = expect.as_ref().map(|e| crate::store::Expect {
        seq: e.seq,
        token: &e.token,
    });
    let outcome = store.append_expecting(id, expected, t, event, &caller.actor(), &reason)?;
    Ok(json!({
        "game": id.0,
        "seq": outcome.seq,
        "t": t,
        "state": state_code(&outcome.state),
    }))
}

/// `POST /NAME/games/ID/undo`: the last event in force cancelled, at the server's time.
pub fn undo(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    body: &[u8],
) -> Result<Value, ApiError> {
    let asked: wire::Undo = wire::parse(body)?;
    let game = game_in_scope(store, caller, id, Need::Write)?;
    let t = t_now(store, &game);
    let undone = store.undo_last_event(id, t, &caller.actor(), &asked.reason)?;
    Ok(json!({ "game": id.0, "undone": undone }))
}

/// `POST /NAME/games/ID/correct`: the last move replaced by another at its own time.
pub fn correct(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    body: &[u8],
) -> Result<Value, ApiError> {
    let asked: wire::Correct = wire::parse(body)?;
    let mv: Move = asked
        .mv
        .parse()
        .map_err(|e: String| ApiError::unprocessable(format!("move: {e}")))?;
    let game = game_in_scope(store, caller, id, Need::Write)?;
    if game.meta.mode != GameMode::Arbitrated {
        return Err(ApiError::unprocessable(format!(
            "game {id} is played on a physical board: its moves are not entered, so none is corrected"
        )));
    }
    let t = t_now(store, &game);
    let replacement = AnyEvent::Game(Event::Move { mv, by: None });
    let expected = asked.expect.as_ref().map(|e| crate::store::Expect {
        seq: e.seq,
        token: &e.token,
    });
    let outcome =
        store.correct_last_move(id, expected, t, replacement, &caller.actor(), &asked.reason)?;
    Ok(json!({
        "game": id.0,
        "seq": outcome.seq,
        "state": state_code(&outcome.state),
    }))
}

/// `PUT /NAME/games/ID/readings/SIDE`: one side's reading sheet.
pub fn reading(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    side_text: &str,
    body: &[u8],
) -> Result<Value, ApiError> {
    let side = side(side_text, "the path's side")?;
    let asked: wire::Reading = wire::parse(body)?;
    game_in_scope(store, caller, id, Need::Write)?;
    store.save_reading_sheet(id, side, &asked.sheet, asked.complete, &caller.actor())?;
    Ok(json!({ "game": id.0, "side": side.name(), "complete": asked.complete }))
}

/// `POST /NAME/games/ID/confirm`: the arbiter confirms the game's result.
pub fn confirm(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    body: &[u8],
) -> Result<Value, ApiError> {
    refuse_keys(body)?;
    game_in_scope(store, caller, id, Need::Confirm)?;
    store.confirm_result(id, &caller.actor())?;
    Ok(json!({ "game": id.0, "confirmed": true }))
}

/// `POST /NAME/games/ID/setup-timer`: the table's setup timer starts now, by the server's
/// clock (a timer already running keeps its start).
pub fn setup_timer(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    body: &[u8],
) -> Result<Value, ApiError> {
    refuse_keys(body)?;
    game_in_scope(store, caller, id, Need::Write)?;
    let now = store.now();
    let at = store.start_setup_timer(id, now, &caller.actor())?;
    Ok(json!({ "game": id.0, "started_at": at }))
}

/// `POST /NAME/games/ID/setup-overrun`: the arbiter's ruling after setup time ran out.
pub fn setup_overrun(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    body: &[u8],
) -> Result<Value, ApiError> {
    let asked: wire::Overrun = wire::parse(body)?;
    game_in_scope(store, caller, id, Need::Write)?;
    let now = store.now();
    store.record_setup_overrun(id, now, &asked.reason, &caller.actor())?;
    Ok(json!({ "game": id.0, "overrun_at": now }))
}

/// `POST /NAME/games/ID/reading-timer`: the adjudication's reading timer starts now, by the
/// server's clock (once; a timer already running keeps its start).
pub fn reading_timer(
    store: &mut Store,
    caller: &Caller,
    id: GameId,
    body: &[u8],
) -> Result<Value, ApiError> {
    refuse_keys(body)?;
    game_in_scope(store, caller, id, Need::Write)?;
    let now = store.now();
    let at = store.start_reading_timer(id, now, &caller.actor())?;
    Ok(json!({ "game": id.0, "started_at": at }))
}

/// `POST /NAME/seen`: the clocks of these running games were seen now, at the t the
/// server's clock gives (a restore brings them back to it).
pub fn seen(store: &mut Store, caller: &Caller, body: &[u8]) -> Result<Value, ApiError> {
    let asked: wire::Seen = wire::parse(body)?;
    let mut seen = Vec::new();
    for id in asked.games {
        let game = game_in_scope(store, caller, GameId(id), Need::Write)?;
        if game.meta.started_at.is_some() {
            seen.push((GameId(id), t_now(store, &game)));
        }
    }
    store.record_clocks_seen(&seen)?;
    Ok(json!({ "seen": seen.len() }))
}

/// `POST /NAME/restore`: the station's desk started or reconnected. Its games in play (or
/// the ones named) get a pause at the moment their clocks were last seen and a resume now,
/// each only when no event was written for `quiet_ms` (another desk of the station may be
/// running it).
pub fn restore(store: &mut Store, caller: &Caller, body: &[u8]) -> Result<Value, ApiError> {
    let asked: wire::Restore = if body.iter().all(u8::is_ascii_whitespace) {
        wire::Restore::default()
    } else {
        wire::parse(body)?
    };
    let ids: Vec<GameId> = match asked.games {
        Some(ids) => ids.into_iter().map(GameId).collect(),
        None => store.games_in_progress()?,
    };
    // Only the station's own games of its round in play; others are not its to restore
    // (and not named, as for every read).
    let mine: Vec<GameId> = ids
        .into_iter()
        .filter(|id| game_in_scope(store, caller, *id, Need::Write).is_ok())
        .collect();
    let keeper = crate::store::Keeper::new(
        Some((caller.tournament, &caller.station.tables)),
        &Default::default(),
    );
    let now = store.now();
    let report = store.restore_games_kept_by(
        &keeper,
        &mine,
        now,
        asked.quiet_ms,
        "the station's desk could not reach the event server: its clocks stopped when it last saw them",
        &caller.actor(),
    )?;
    let ids = |v: &[GameId]| v.iter().map(|g| g.0).collect::<Vec<_>>();
    Ok(json!({
        "restored": ids(&report.restored),
        "left_to_their_desk": ids(&report.left_to_their_desk),
        "failed": report.failed.iter().map(|(g, e)| json!({"game": g.0, "error": e.to_string()})).collect::<Vec<_>>(),
    }))
}

/// A body that must be empty or `{}`.
fn refuse_keys(body: &[u8]) -> Result<(), ApiError> {
    match wire::object(body)?.keys().next() {
        None => Ok(()),
        Some(k) => Err(ApiError::bad_request(format!(
            "the body: unknown field `{k}`: this endpoint takes none"
        ))),
    }
}
