//! The rated games of one event file: [`event_file`] is the one function that reads them,
//! from a `ggdesk-tournament/1` file (through the tournament file reader, with all its
//! checks) or a `ggdesk-tournament/2` file (through the stages reader, with all the checks
//! `pair` makes: seeding, groups, cuts, playoffs, the bracket; a team event, `spec/teams.md`,
//! through the team event reader, with every line-up checked).
//!
//! Which games count (`spec/ratings.md`): every game played over the board (`white`,
//! `black`, `draw`) in any round of any stage, playoffs included. Forfeits, byes, absences
//! and pending games are not games. A player without a `federation_id` is not rated: their
//! games count for nobody (the opponent has no rating to be rated against) and the caller
//! is told who they are ([`EventFile::unrated`]).

use super::{Date, Played, RatedEvent, RatedGame};
use crate::event::read_file;
use crate::tournament::{FaultAt, GameResult, PlayerId};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};

/// The `format` of a staged event file (the stages reader's).
pub use crate::stages::FORMAT_2;

/// The rated games of one event file, and the players it does not rate.
#[derive(Debug, Clone, PartialEq)]
pub struct EventFile {
    /// Keyed by federation id.
    pub event: RatedEvent<String>,
    /// Players without a federation id, in file order.
    pub unrated: Vec<Unrated>,
}

/// A player of the file who is not rated (no federation id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unrated {
    pub id: PlayerId,
    pub name: String,
}

/// Why an event file cannot be rated: where (a JSON path, empty for the whole file) and
/// what.
pub type EventFileError = FaultAt<EventFault>;

/// What is wrong at a place of an event file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventFault {
    /// The tournament file reader's own refusal (it names its place itself).
    #[error("{0}")]
    Event(crate::event::Refusal),
    /// The team event reader's own refusal (its place is the error's `at`).
    #[error("{0}")]
    Team(crate::teams::TeamFault),
    #[error("not valid JSON: {0}")]
    Json(String),
    #[error("is missing")]
    Missing,
    #[error("must be {0}")]
    Expected(&'static str),
    #[error("unknown format {0:?} (expected \"ggdesk-tournament/1\" or \"{FORMAT_2}\")")]
    UnknownFormat(String),
    #[error("is missing: an event without a date cannot be rated")]
    NoDate,
    #[error("{0}")]
    Date(super::DateError),
    #[error("federation id {federation_id:?} is also that of player {first} in this event")]
    DuplicateFederationId {
        federation_id: String,
        first: PlayerId,
    },
}

fn err(at: impl Into<String>, fault: EventFault) -> EventFileError {
    EventFileError {
        at: at.into(),
        fault,
    }
}

fn expected(at: impl Into<String>, what: &'static str) -> EventFileError {
    err(at, EventFault::Expected(what))
}

fn object<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>, EventFileError> {
    v.as_object().ok_or_else(|| expected(at, "an object"))
}

/// Absent and `null` both count as not given.
fn optional<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

fn required<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'a Value, EventFileError> {
    optional(map, key).ok_or_else(|| err(at, EventFault::Missing))
}

fn string<'a>(v: &'a Value, at: &str) -> Result<&'a str, EventFileError> {
    v.as_str().ok_or_else(|| expected(at, "a string"))
}

/// A player as the ratings see them: id, name, federation id (empty = none).
struct FilePlayer {
    id: PlayerId,
    name: String,
    federation_id: Option<String>,
}

/// A game as the ratings see it.
struct FileGame {
    white: PlayerId,
    black: PlayerId,
    result: GameResult,
}

/// Reads the rated games of an event file (`ggdesk-tournament/1` or `/2`), with its
/// `date`. Refused, naming the place: a file that is not valid, a missing date or one not of
/// the form `YYYY-MM-DD`, a federation id twice among the event's players.
pub fn event_file(text: &str) -> Result<EventFile, EventFileError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| err("", EventFault::Json(e.to_string())))?;
    let top = object(&value, "").map_err(|_| expected("", "a JSON object (the event)"))?;
    let format = string(required(top, "format", "format")?, "format")?;
    let (name, players, games) = match format {
        crate::tournament::FORMAT | FORMAT_2 => read_event(&value)?,
        other => return Err(err("format", EventFault::UnknownFormat(other.to_string()))),
    };
    let date = match optional(top, "date") {
        None => return Err(err("date", EventFault::NoDate)),
        Some(d) => Date::parse(string(d, "date")?).map_err(|e| err("date", EventFault::Date(e)))?,
    };
    rated(name, date, players, games)
}

/// The players and games of a file.
type Read = (String, Vec<FilePlayer>, Vec<FileGame>);

/// The players and the games over the board of a tournament file of either shape, read by
/// the one reader of the event's files (`crate::event::read_file`) with every check of its
/// spec (`spec/stages.md` for `/2`: seeding, groups, cuts, playoffs, the bracket): every game
/// of every round of every stage, each stage's playoff games after its rounds.
fn read_event(value: &Value) -> Result<Read, EventFileError> {
    if crate::teams::is_team_file(value) {
        return read_team_event(value);
    }
    let event = read_file(value, 0)
        .map_err(|r| err("", EventFault::Event(r)))?
        .event;
    let players = event
        .entrants()
        .iter()
        .map(|e| FilePlayer {
            id: e.player.id,
            name: e.player.name.clone(),
            federation_id: e.player.federation_id.clone(),
        })
        .collect();
    let games = event
        .games_over_the_board()
        .into_iter()
        .map(|(white, black, result)| FileGame {
            white,
            black,
            result,
        })
        .collect();
    Ok((event.name().to_string(), players, games))
}

/// The players and the games over the board of a team event (`spec/teams.md`), read by
/// the team event reader with every check (line-ups, stages, playoffs): every game of every
/// round of every stage (a match's boards with both players, a board-groups or final game),
/// each stage's playoff games after its rounds.
fn read_team_event(value: &Value) -> Result<Read, EventFileError> {
    let event = crate::teams::TeamEvent::from_value(value).map_err(|e| EventFileError {
        at: e.at,
        fault: EventFault::Team(e.fault),
    })?;
    let players = event
        .players
        .iter()
        .map(|p| FilePlayer {
            id: p.id,
            name: p.name.clone(),
            federation_id: p.federation_id.clone(),
        })
        .collect();
    let games = event
        .games_over_the_board()
        .into_iter()
        .map(|(white, black, result)| FileGame {
            white,
            black,
            result,
        })
        .collect();
    Ok((event.name, players, games))
}

/// The event keyed by federation id: games between two rated players, played over the
/// board.
fn rated(
    name: String,
    date: Date,
    players: Vec<FilePlayer>,
    games: Vec<FileGame>,
) -> Result<EventFile, EventFileError> {
    let mut key: HashMap<PlayerId, String> = HashMap::new();
    let mut holder: HashMap<String, PlayerId> = HashMap::new();
    let mut names = BTreeMap::new();
    let mut unrated = Vec::new();
    for (i, p) in players.into_iter().enumerate() {
        match p.federation_id.filter(|f| !f.is_empty()) {
            None => unrated.push(Unrated {
                id: p.id,
                name: p.name,
            }),
            Some(f) => {
                if let Some(first) = holder.get(&f) {
                    return Err(err(
                        format!("players[{i}].federation_id"),
                        EventFault::DuplicateFederationId {
                            federation_id: f,
                            first: *first,
                        },
                    ));
                }
                holder.insert(f.clone(), p.id);
                key.insert(p.id, f.clone());
                names.insert(f, p.name);
            }
        }
    }
    let games = games
        .into_iter()
        .filter_map(|g| {
            let result = match g.result {
                GameResult::WhiteWins => Played::WhiteWins,
                GameResult::BlackWins => Played::BlackWins,
                GameResult::Draw => Played::Draw,
                _ => return None,
            };
            Some(RatedGame {
                white: key.get(&g.white)?.clone(),
                black: key.get(&g.black)?.clone(),
                result,
            })
        })
        .collect();
    Ok(EventFile {
        event: RatedEvent {
            name,
            date,
            names,
            games,
        },
        unrated,
    })
}
