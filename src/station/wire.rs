//! What crosses the wire of the stations' API: the request bodies as typed values (serde,
//! every unknown key refused), the answers as JSON, and [`ApiError`], one refusal with its
//! HTTP status and its words (`{"error": "..."}`). `docs/station-api.md` is the contract.

use crate::store::{BoardStatus, BoardView, RoundState, Station, StoreError};
use axum::http::StatusCode;
use ggdesk_core::event::Seated;
use ggdesk_core::tournament::{RoundNo, TournamentId};
use serde::Deserialize;
use serde_json::{Value, json};

/// The largest request body a station may send, in bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// A request refused, or a failure: its status and its words, which name what was refused
/// and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub error: String,
}

impl ApiError {
    pub fn new(status: StatusCode, error: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error: error.into(),
        }
    }

    /// 400: the body is not what the endpoint reads (not JSON, a key it does not know, a
    /// value of the wrong kind).
    pub fn bad_request(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, error)
    }

    /// 422: well formed, but the rules refuse it (a move, a setup, a sheet): nothing written.
    pub fn unprocessable(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, error)
    }

    /// 403: outside the station's tournament, tables or round in play.
    pub fn forbidden(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, error)
    }

    /// 409: not now (the board has a result, the table has its game, the round is over).
    pub fn conflict(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, error)
    }

    /// The answer's body.
    pub fn body(&self) -> Value {
        json!({ "error": self.error })
    }
}

impl From<StoreError> for ApiError {
    /// The store's refusal or failure as the API answers it: the rules' refusals are 422,
    /// another desk's change first 409, a login's privilege 403, a missing thing 404, a
    /// database that cannot be reached 503, anything else 500.
    fn from(e: StoreError) -> ApiError {
        let status = match &e {
            StoreError::Refused(_) | StoreError::Rejected(_) => StatusCode::UNPROCESSABLE_ENTITY,
            StoreError::Conflict(_) => StatusCode::CONFLICT,
            StoreError::Denied(_) => StatusCode::FORBIDDEN,
            StoreError::NotFound(_) => StatusCode::NOT_FOUND,
            StoreError::Disconnected(_) => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, e.to_string())
    }
}

/// Reads a JSON body into `T`, refusing (400) what is not JSON or not its shape, in serde's
/// words (which name the key, and the line and column).
pub fn parse<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad_request(format!("the body: {e}")))
}

/// Reads a JSON body that must be an object (an empty body is `{}`).
pub fn object(body: &[u8]) -> Result<serde_json::Map<String, Value>, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(serde_json::Map::new());
    }
    match parse::<Value>(body)? {
        Value::Object(map) => Ok(map),
        _ => Err(ApiError::bad_request("the body must be a JSON object")),
    }
}

/// `POST /NAME/games`: the game of the board at a table of the round in play.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    pub table: u32,
    /// `arbitrated` (the default: the desk follows every move) or `physical`.
    #[serde(default)]
    pub mode: Option<String>,
}

/// `POST /NAME/games/ID/start`: the clocks start now.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// The side the arbiter chose to move first; absent: the lots' side (White if no lots
    /// were drawn).
    #[serde(default)]
    pub first: Option<String>,
}

/// Where the station's desk saw the game when it sent an event: the sequence number the
/// event takes if nobody wrote meanwhile, and a token unique to the attempt (sent again
/// unchanged when an answer was lost, so the event is never entered twice).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub seq: u32,
    pub token: String,
}

/// `POST /NAME/games/ID/setup-overrun`: the arbiter's ruling after setup time ran out.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Overrun {
    pub reason: String,
}

/// `POST /NAME/seen`: the station's running games whose clocks its desk shows now.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seen {
    pub games: Vec<i64>,
}

/// `POST /NAME/restore`: the station's desk started or reconnected; its games (all of
/// them, or these) are restored, each only if no event was written for `quiet_ms`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Restore {
    #[serde(default)]
    pub games: Option<Vec<i64>>,
    #[serde(default)]
    pub quiet_ms: Option<i64>,
}

/// `POST /NAME/games/ID/undo`: the last event in force cancelled, with why.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    pub reason: String,
}

/// `POST /NAME/games/ID/correct`: the last move replaced, with why.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Correct {
    #[serde(rename = "move")]
    pub mv: String,
    pub reason: String,
    #[serde(default)]
    pub expect: Option<Expect>,
}

/// `PUT /NAME/games/ID/readings/SIDE`: one side's reading sheet.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reading {
    pub sheet: Value,
    #[serde(default)]
    pub complete: bool,
}

/// A round's state as the API names it.
pub fn round_value(number: RoundNo, state: RoundState) -> Value {
    json!({ "number": number.0, "state": state.code() })
}

/// A board's status as the API names it.
pub fn status_code(status: BoardStatus) -> &'static str {
    match status {
        BoardStatus::Finished => "finished",
        BoardStatus::SettingUp => "setting_up",
        BoardStatus::Playing => "playing",
        BoardStatus::Adjudication => "adjudication",
        BoardStatus::AwaitingResult => "awaiting_result",
    }
}

fn seated(p: &Seated) -> Value {
    json!({ "no": p.no.0, "name": p.name, "rating": p.rating })
}

/// One board of the round in play.
pub fn board_value(b: &BoardView) -> Value {
    json!({
        "board": b.board.0,
        "table": b.table.0,
        "white": seated(&b.white),
        "black": seated(&b.black),
        "result": b.result.name(),
        "status": status_code(b.status),
        "game": b.game.map(|g| g.0),
    })
}

/// Who the caller is: its station, tournament, tables and the round in play.
pub fn whoami(
    station: &Station,
    tournament: TournamentId,
    tournament_name: &str,
    round: Option<Value>,
    rules: Value,
    now_ms: i64,
) -> Value {
    json!({
        "now": now_ms,
        "station": station.name,
        "tournament": { "id": tournament.0, "name": tournament_name },
        "tables": station.tables.iter().map(|t| t.0).collect::<Vec<_>>(),
        "round": round,
        "rules": rules,
    })
}
