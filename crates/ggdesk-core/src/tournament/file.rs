//! The `ggdesk-tournament/1` file: read with every check of the spec, each fault named with
//! where it is (`rounds[2].games[0]: unknown player id 17`), and written back so that a
//! round trip keeps everything the standings and the pairing depend on.

use crate::tournament::Score;
use crate::tournament::model::{
    Game, GameResult, MAX_POINTS, Penalty, Player, PlayerId, PointsScale, Round, Settings, System,
    TieBreak, Tournament, TournamentError,
};
use serde_json::{Map, Value, json};
use std::fmt;

/// The value of the file's `format` key.
pub const FORMAT: &str = "ggdesk-tournament/1";

/// A fault and where it is: a JSON path such as `rounds[2].games[0]` (empty for the whole
/// file). Every file the core reads refuses with one ([`TournamentFileError`], the stages'
/// `EventFileError`, the rating files'), each with its own kind of fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultAt<F> {
    pub at: String,
    pub fault: F,
}

impl<F: fmt::Display> fmt::Display for FaultAt<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            write!(f, "{}", self.fault)
        } else {
            write!(f, "{}: {}", self.at, self.fault)
        }
    }
}

impl<F: fmt::Display + fmt::Debug> std::error::Error for FaultAt<F> {}

/// Why a tournament file is refused: where and what.
pub type TournamentFileError = FaultAt<FileFault>;

/// What is wrong at a place in a tournament file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileFault {
    #[error("not valid JSON: {0}")]
    Json(String),
    #[error("is missing")]
    Missing,
    #[error("must be {0}")]
    Expected(&'static str),
    #[error("unknown format {0:?} (expected \"{FORMAT}\")")]
    UnknownFormat(String),
    #[error("unknown system {0:?} (expected \"swiss\" or \"round_robin\")")]
    UnknownSystem(String),
    #[error(
        "unknown result {0:?} (expected white, black, draw, white_forfeit, black_forfeit, double_forfeit or pending)"
    )]
    UnknownResult(String),
    #[error(
        "unknown tie-break {0:?} (expected direct_encounter, buchholz, buchholz_cut1, median_buchholz, sonneborn_berger, progressive, wins or fewest_forfeit_wins)"
    )]
    UnknownTieBreak(String),
    #[error(
        "unknown outcome {0:?} (expected win, draw, loss, bye, forfeit_win, forfeit_loss or absent)"
    )]
    UnknownOutcome(String),
    #[error("must be a multiple of 0.5 between 0 and {MAX_POINTS}")]
    NotPoints,
    #[error("must be a pair of two player ids")]
    NotAPair,
    #[error("{0}")]
    Tournament(TournamentError),
}

pub(crate) fn err(at: impl Into<String>, fault: FileFault) -> TournamentFileError {
    TournamentFileError {
        at: at.into(),
        fault,
    }
}

pub(crate) fn expected(at: impl Into<String>, what: &'static str) -> TournamentFileError {
    err(at, FileFault::Expected(what))
}

pub(crate) fn object<'a>(
    v: &'a Value,
    at: &str,
) -> Result<&'a Map<String, Value>, TournamentFileError> {
    v.as_object().ok_or_else(|| expected(at, "an object"))
}

pub(crate) fn array<'a>(v: &'a Value, at: &str) -> Result<&'a [Value], TournamentFileError> {
    v.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| expected(at, "an array"))
}

/// An optional key: absent and `null` both count as not given.
pub(crate) fn optional<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

pub(crate) fn required<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<&'a Value, TournamentFileError> {
    optional(map, key).ok_or_else(|| err(at, FileFault::Missing))
}

pub(crate) fn string(v: &Value, at: &str) -> Result<String, TournamentFileError> {
    v.as_str()
        .map(str::to_owned)
        .ok_or_else(|| expected(at, "a string"))
}

pub(crate) fn player_id(v: &Value, at: &str) -> Result<PlayerId, TournamentFileError> {
    v.as_u64()
        .filter(|&n| n >= 1)
        .and_then(|n| u32::try_from(n).ok())
        .map(PlayerId)
        .ok_or_else(|| expected(at, "a positive integer player id"))
}

pub(crate) fn id_list(v: Option<&Value>, at: &str) -> Result<Vec<PlayerId>, TournamentFileError> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    array(v, at)?
        .iter()
        .enumerate()
        .map(|(i, x)| player_id(x, &format!("{at}[{i}]")))
        .collect()
}

pub(crate) fn points(v: &Value, at: &str) -> Result<Score, TournamentFileError> {
    let halves = if let Some(n) = v.as_i64() {
        n.checked_mul(2)
    } else if let Some(x) = v.as_f64() {
        let h = x * 2.0;
        (h.is_finite() && h.fract() == 0.0 && h.abs() <= (4 * MAX_POINTS) as f64)
            .then_some(h as i64)
    } else {
        return Err(expected(at, "a number"));
    };
    match halves {
        Some(h) if (0..=2 * MAX_POINTS).contains(&h) => Ok(Score::from_halves(h)),
        _ => Err(err(at, FileFault::NotPoints)),
    }
}

/// The points of each outcome (`settings.points`), defaults for the keys not given.
pub(crate) fn read_points(v: Option<&Value>, at: &str) -> Result<PointsScale, TournamentFileError> {
    let mut scale = PointsScale::default();
    if let Some(v) = v {
        for (key, value) in object(v, at)? {
            let key_at = format!("{at}.{key}");
            if scale.get(key).is_none() {
                return Err(err(key_at, FileFault::UnknownOutcome(key.clone())));
            }
            scale.set(key, points(value, &key_at)?);
        }
    }
    Ok(scale)
}

/// A list of tie-breaks, each once; the spec's default order when not given.
pub(crate) fn read_tiebreaks(
    v: Option<&Value>,
    at: &str,
) -> Result<Vec<TieBreak>, TournamentFileError> {
    let Some(v) = v else {
        return Ok(TieBreak::default_order());
    };
    let mut list = Vec::new();
    for (i, t) in array(v, at)?.iter().enumerate() {
        let t_at = format!("{at}[{i}]");
        let name = string(t, &t_at)?;
        let tb = TieBreak::from_name(&name)
            .ok_or_else(|| err(&t_at, FileFault::UnknownTieBreak(name)))?;
        if list.contains(&tb) {
            return Err(err(
                t_at,
                FileFault::Tournament(TournamentError::DuplicateTieBreak(tb)),
            ));
        }
        list.push(tb);
    }
    Ok(list)
}

fn read_settings(v: &Value) -> Result<Settings, TournamentFileError> {
    let at = "settings";
    let map = object(v, at)?;
    let system_at = "settings.system";
    let system_name = string(required(map, "system", system_at)?, system_at)?;
    let system = System::from_name(&system_name)
        .ok_or_else(|| err(system_at, FileFault::UnknownSystem(system_name)))?;

    let rounds = match optional(map, "rounds") {
        None if system == System::Swiss => return Err(err("settings.rounds", FileFault::Missing)),
        None => None,
        Some(v) => Some(
            v.as_u64()
                .filter(|&n| n >= 1)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| expected("settings.rounds", "a positive integer"))?,
        ),
    };

    let scale = read_points(optional(map, "points"), "settings.points")?;

    let tiebreaks = read_tiebreaks(optional(map, "tiebreaks"), "settings.tiebreaks")?;

    Ok(Settings {
        system,
        rounds,
        points: scale,
        tiebreaks,
        forbidden: Vec::new(),
    })
}

pub(crate) fn read_forbidden(
    v: Option<&Value>,
) -> Result<Vec<(PlayerId, PlayerId)>, TournamentFileError> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    let mut pairs = Vec::new();
    for (i, p) in array(v, "settings.forbidden")?.iter().enumerate() {
        let at = format!("settings.forbidden[{i}]");
        match p.as_array().map(Vec::as_slice) {
            Some([a, b]) => pairs.push((
                player_id(a, &format!("{at}[0]"))?,
                player_id(b, &format!("{at}[1]"))?,
            )),
            _ => return Err(err(at, FileFault::NotAPair)),
        }
    }
    Ok(pairs)
}

const PLAYER_KEYS: [&str; 6] = ["id", "name", "rating", "club", "federation_id", "withdrawn"];

pub(crate) fn read_player(v: &Value, at: &str) -> Result<Player, TournamentFileError> {
    let map = object(v, at)?;
    let id = player_id(
        required(map, "id", &format!("{at}.id"))?,
        &format!("{at}.id"),
    )?;
    let name_at = format!("{at}.name");
    let name = string(required(map, "name", &name_at)?, &name_at)?;
    let rating = match optional(map, "rating") {
        None => 0,
        Some(r) => r
            .as_i64()
            .ok_or_else(|| expected(format!("{at}.rating"), "an integer"))?,
    };
    let text = |key: &str| -> Result<Option<String>, TournamentFileError> {
        optional(map, key)
            .map(|v| string(v, &format!("{at}.{key}")))
            .transpose()
    };
    let club = text("club")?;
    let federation_id = text("federation_id")?;
    let withdrawn = match optional(map, "withdrawn") {
        None => false,
        Some(w) => w
            .as_bool()
            .ok_or_else(|| expected(format!("{at}.withdrawn"), "true or false"))?,
    };
    let extra = map
        .iter()
        .filter(|(k, _)| !PLAYER_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Ok(Player {
        id,
        name,
        rating,
        club,
        federation_id,
        withdrawn,
        extra,
    })
}

/// One game of a round: `table` (optional), `white`, `black`, `result`.
pub(crate) fn read_game(g: &Value, g_at: &str) -> Result<Game, TournamentFileError> {
    let gm = object(g, g_at)?;
    let table = match optional(gm, "table") {
        None => None,
        Some(t) => Some(
            t.as_u64()
                .filter(|&n| n >= 1)
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| expected(format!("{g_at}.table"), "a positive integer"))?,
        ),
    };
    let white_at = format!("{g_at}.white");
    let white = player_id(required(gm, "white", &white_at)?, &white_at)?;
    let black_at = format!("{g_at}.black");
    let black = player_id(required(gm, "black", &black_at)?, &black_at)?;
    let result_at = format!("{g_at}.result");
    let result_name = string(required(gm, "result", &result_at)?, &result_at)?;
    let result = GameResult::from_name(&result_name)
        .ok_or_else(|| err(&result_at, FileFault::UnknownResult(result_name)))?;
    Ok(Game {
        table,
        white,
        black,
        result,
    })
}

fn read_round(v: &Value, at: &str) -> Result<Round, TournamentFileError> {
    let map = object(v, at)?;
    let games_at = format!("{at}.games");
    let mut games = Vec::new();
    for (i, g) in array(required(map, "games", &games_at)?, &games_at)?
        .iter()
        .enumerate()
    {
        games.push(read_game(g, &format!("{games_at}[{i}]"))?);
    }
    let byes = id_list(optional(map, "byes"), &format!("{at}.byes"))?;
    let absent = id_list(optional(map, "absent"), &format!("{at}.absent"))?;
    Ok(Round {
        games,
        byes,
        absent,
    })
}

pub(crate) fn read_penalty(v: &Value, at: &str) -> Result<Penalty, TournamentFileError> {
    let map = object(v, at)?;
    let player_at = format!("{at}.player");
    let player = player_id(required(map, "player", &player_at)?, &player_at)?;
    let points_at = format!("{at}.points");
    let points = points(required(map, "points", &points_at)?, &points_at)?;
    let reason = match optional(map, "reason") {
        None => String::new(),
        Some(r) => string(r, &format!("{at}.reason"))?,
    };
    Ok(Penalty {
        player,
        points,
        reason,
    })
}

pub(crate) fn model(at: impl Into<String>) -> impl FnOnce(TournamentError) -> TournamentFileError {
    let at = at.into();
    move |e| err(at, FileFault::Tournament(e))
}

pub(crate) fn score_value(s: Score) -> Value {
    if s.halves() % 2 == 0 {
        json!(s.halves() / 2)
    } else {
        // A multiple of 0.5 of bounded size is exact in a double.
        json!(s.halves() as f64 / 2.0)
    }
}

impl Tournament {
    /// Reads a `ggdesk-tournament/1` file, with every check of the spec.
    pub fn from_json(text: &str) -> Result<Tournament, TournamentFileError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| err("", FileFault::Json(e.to_string())))?;
        Tournament::from_value(&value)
    }

    /// Reads a tournament from an already parsed JSON value.
    pub fn from_value(value: &Value) -> Result<Tournament, TournamentFileError> {
        let top = object(value, "")
            .map_err(|_| err("", FileFault::Expected("a JSON object (the tournament)")))?;
        let format = string(required(top, "format", "format")?, "format")?;
        if format != FORMAT {
            return Err(err("format", FileFault::UnknownFormat(format)));
        }
        let name = match optional(top, "name") {
            None => String::new(),
            Some(n) => string(n, "name")?,
        };
        let settings_value = required(top, "settings", "settings")?;
        let settings = read_settings(settings_value)?;
        let mut t = Tournament::new(name, settings).map_err(model("settings"))?;

        for (i, p) in array(required(top, "players", "players")?, "players")?
            .iter()
            .enumerate()
        {
            let at = format!("players[{i}]");
            let player = read_player(p, &at)?;
            t.add_player(player).map_err(model(at))?;
        }

        let forbidden = read_forbidden(optional(object(settings_value, "settings")?, "forbidden"))?;
        for (i, (a, b)) in forbidden.into_iter().enumerate() {
            t.add_forbidden_pair(a, b)
                .map_err(model(format!("settings.forbidden[{i}]")))?;
        }

        if let Some(rounds) = optional(top, "rounds") {
            for (k, r) in array(rounds, "rounds")?.iter().enumerate() {
                let at = format!("rounds[{k}]");
                let round = read_round(r, &at)?;
                if let Err((part, e)) = t.check_round(&round) {
                    return Err(err(format!("{at}{part}"), FileFault::Tournament(e)));
                }
                t.add_round(round).map_err(model(at))?;
            }
        }

        if let Some(penalties) = optional(top, "penalties") {
            for (i, p) in array(penalties, "penalties")?.iter().enumerate() {
                let at = format!("penalties[{i}]");
                let penalty = read_penalty(p, &at)?;
                t.add_penalty(penalty)
                    .map_err(model(format!("{at}.player")))?;
            }
        }
        Ok(t)
    }

    /// The tournament as a `ggdesk-tournament/1` JSON value.
    pub fn to_value(&self) -> Value {
        let s = self.settings();
        let mut settings = Map::new();
        settings.insert("system".into(), json!(s.system.name()));
        if let Some(n) = s.rounds {
            settings.insert("rounds".into(), json!(n));
        }
        let mut points = Map::new();
        for key in PointsScale::KEYS {
            if let Some(v) = s.points.get(key) {
                points.insert(key.into(), score_value(v));
            }
        }
        settings.insert("points".into(), Value::Object(points));
        settings.insert(
            "tiebreaks".into(),
            s.tiebreaks.iter().map(|t| json!(t.name())).collect(),
        );
        settings.insert(
            "forbidden".into(),
            s.forbidden.iter().map(|(a, b)| json!([a.0, b.0])).collect(),
        );

        let players: Vec<Value> = self.players().iter().map(player_value).collect();

        let rounds: Vec<Value> = self
            .rounds()
            .iter()
            .map(|r| {
                let games: Vec<Value> = r
                    .games
                    .iter()
                    .map(|g| {
                        let mut m = Map::new();
                        if let Some(t) = g.table {
                            m.insert("table".into(), json!(t));
                        }
                        m.insert("white".into(), json!(g.white.0));
                        m.insert("black".into(), json!(g.black.0));
                        m.insert("result".into(), json!(g.result.name()));
                        Value::Object(m)
                    })
                    .collect();
                json!({
                    "games": games,
                    "byes": r.byes.iter().map(|p| p.0).collect::<Vec<_>>(),
                    "absent": r.absent.iter().map(|p| p.0).collect::<Vec<_>>(),
                })
            })
            .collect();

        let penalties: Vec<Value> = self
            .penalties()
            .iter()
            .map(|p| json!({"player": p.player.0, "points": score_value(p.points), "reason": p.reason}))
            .collect();

        json!({
            "format": FORMAT,
            "name": self.name(),
            "settings": settings,
            "players": players,
            "rounds": rounds,
            "penalties": penalties,
        })
    }

    /// The tournament as a `ggdesk-tournament/1` file (pretty-printed JSON).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.to_value()).unwrap_or_default()
    }
}

/// A player as a tournament file (`/1` or `/2`) writes them: the known keys, then the extra
/// keys read with them.
pub(crate) fn player_value(p: &Player) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), json!(p.id.0));
    m.insert("name".into(), json!(p.name));
    m.insert("rating".into(), json!(p.rating));
    if let Some(c) = &p.club {
        m.insert("club".into(), json!(c));
    }
    if let Some(f) = &p.federation_id {
        m.insert("federation_id".into(), json!(f));
    }
    if p.withdrawn {
        m.insert("withdrawn".into(), json!(true));
    }
    for (k, v) in &p.extra {
        if !m.contains_key(k) {
            m.insert(k.clone(), v.clone());
        }
    }
    Value::Object(m)
}
