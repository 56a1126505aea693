//! The `ggdesk-tournament/2` file (spec/stages.md): read with every check, each fault named
//! with where it is (`stages[1].rounds[0].games[2]: player 5 did not qualify for stage 2`),
//! and written back.

use super::event::{
    Event, EventParts, PlayoffGame, StageGame, StagePenalty, StagePlay, StageRound,
};
use super::fault::{EventFileError, StageFault, err, fault};

fn expected(at: impl Into<String>, what: &'static str) -> EventFileError {
    err(at, FileFault::Expected(what))
}
use super::settings::{
    EventSettings, GroupId, MatchFormat, MatchId, Seeding, StageFormat, StageSpec,
};
use crate::tournament::file::{
    array, id_list, object, optional, player_value, points, read_forbidden, read_game,
    read_penalty, read_player, read_points, read_tiebreaks, required, score_value, string,
};
use crate::tournament::{FileFault, PointsScale, StageNo};
use serde_json::{Map, Value, json};

/// The value of a staged file's `format` key.
pub const FORMAT_2: &str = "ggdesk-tournament/2";

fn positive(v: &Value, at: &str) -> Result<u32, EventFileError> {
    v.as_u64()
        .filter(|&n| n >= 1)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| expected(at, "a positive integer"))
}

fn optional_positive(
    map: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<u32>, EventFileError> {
    optional(map, key)
        .map(|v| positive(v, &format!("{at}.{key}")))
        .transpose()
}

fn read_series(v: &Value, at: &str) -> Result<MatchFormat, EventFileError> {
    let map = object(v, at)?;
    let given: Vec<&str> = ["best_of", "race_to", "twice_to_beat"]
        .into_iter()
        .filter(|k| optional(map, k).is_some())
        .collect();
    match given.as_slice() {
        ["best_of"] => {
            let k_at = format!("{at}.best_of");
            let k = positive(required(map, "best_of", &k_at)?, &k_at)?;
            Ok(MatchFormat::BestOf(k))
        }
        ["race_to"] => {
            let p_at = format!("{at}.race_to");
            Ok(MatchFormat::RaceTo(points(
                required(map, "race_to", &p_at)?,
                &p_at,
            )?))
        }
        ["twice_to_beat"] => {
            let t_at = format!("{at}.twice_to_beat");
            match required(map, "twice_to_beat", &t_at)?.as_bool() {
                Some(true) => Ok(MatchFormat::TwiceToBeat),
                _ => Err(expected(t_at, "true")),
            }
        }
        _ => Err(expected(
            at,
            "one of {\"best_of\": K}, {\"race_to\": P} or {\"twice_to_beat\": true}",
        )),
    }
}

fn read_spec(v: &Value, k: usize) -> Result<StageSpec, EventFileError> {
    let at = &format!("stages[{k}]");
    let map = object(v, at)?;
    let name = match optional(map, "name") {
        None => String::new(),
        Some(n) => string(n, &format!("{at}.name"))?,
    };
    let system_at = format!("{at}.system");
    let system = string(required(map, "system", &system_at)?, &system_at)?;
    let tiebreaks = read_tiebreaks(optional(map, "tiebreaks"), &format!("{at}.tiebreaks"))?;
    let advance = match optional(map, "advance") {
        None => None,
        Some(a) => Some(
            a.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| expected(format!("{at}.advance"), "a positive integer"))?,
        ),
    };
    let groups = optional_positive(map, "groups", at)?;
    let round_count = optional_positive(map, "round_count", at)?;
    let format = match system.as_str() {
        "swiss" => StageFormat::Swiss {
            rounds: round_count
                .ok_or_else(|| err(format!("{at}.round_count"), FileFault::Missing))?,
        },
        "round_robin" => StageFormat::RoundRobin {
            groups: groups.unwrap_or(1),
            rounds: round_count,
        },
        "knockout" => {
            let m_at = format!("{at}.match");
            let series = read_series(required(map, "match", &m_at)?, &m_at)?;
            let seeding = match optional(map, "seeding") {
                None => Seeding::Standard,
                Some(s) => match string(s, &format!("{at}.seeding"))?.as_str() {
                    "standard" => Seeding::Standard,
                    "cross_over" => Seeding::CrossOver,
                    other => {
                        return Err(fault(
                            format!("{at}.seeding"),
                            StageFault::UnknownSeeding(other.to_string()),
                        ));
                    }
                },
            };
            let third_place = match optional(map, "third_place") {
                None => false,
                Some(t) => t
                    .as_bool()
                    .ok_or_else(|| expected(format!("{at}.third_place"), "true or false"))?,
            };
            StageFormat::Knockout {
                series,
                seeding,
                third_place,
            }
        }
        other => {
            return Err(fault(
                system_at,
                StageFault::UnknownStageSystem(other.to_string()),
            ));
        }
    };
    if system != "round_robin" && groups.is_some_and(|g| g != 1) {
        return Err(fault(
            format!("{at}.groups"),
            StageFault::Settings(super::settings::SettingsFault::GroupsOutsideRoundRobin(
                StageNo::from_index(k),
            )),
        ));
    }
    Ok(StageSpec {
        name,
        format,
        tiebreaks,
        advance,
    })
}

fn read_stage_game(g: &Value, at: &str) -> Result<StageGame, EventFileError> {
    let game = read_game(g, at)?;
    let map = object(g, at)?;
    let group = match optional(map, "group") {
        None => None,
        Some(v) => {
            let text = string(v, &format!("{at}.group"))?;
            Some(GroupId::from_letter(&text).ok_or_else(|| {
                fault(format!("{at}.group"), StageFault::NoSuchGroup(text.clone()))
            })?)
        }
    };
    let series =
        match optional(map, "match") {
            None => None,
            Some(v) => {
                let text = string(v, &format!("{at}.match"))?;
                Some(MatchId::parse(&text).ok_or_else(|| {
                    fault(format!("{at}.match"), StageFault::BadMatch(text.clone()))
                })?)
            }
        };
    Ok(StageGame {
        group,
        series,
        game,
    })
}

fn read_stage_round(v: &Value, at: &str) -> Result<StageRound, EventFileError> {
    let map = object(v, at)?;
    let games_at = format!("{at}.games");
    let games = array(required(map, "games", &games_at)?, &games_at)?
        .iter()
        .enumerate()
        .map(|(i, g)| read_stage_game(g, &format!("{games_at}[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(StageRound {
        games,
        byes: id_list(optional(map, "byes"), &format!("{at}.byes"))?,
        absent: id_list(optional(map, "absent"), &format!("{at}.absent"))?,
    })
}

fn read_playoff(v: &Value, at: &str) -> Result<PlayoffGame, EventFileError> {
    let g = read_stage_game(v, at)?;
    Ok(PlayoffGame {
        group: g.group,
        white: g.game.white,
        black: g.game.black,
        result: g.game.result,
    })
}

impl Event {
    /// Reads a `ggdesk-tournament/2` file, with every check of the spec.
    pub fn from_json(text: &str) -> Result<Event, EventFileError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| err("", FileFault::Json(e.to_string())))?;
        Event::from_value(&value)
    }

    /// Reads an event from an already parsed JSON value.
    pub fn from_value(value: &Value) -> Result<Event, EventFileError> {
        let top = object(value, "")
            .map_err(|_| err("", FileFault::Expected("a JSON object (the tournament)")))?;
        let format = string(required(top, "format", "format")?, "format")?;
        if format != FORMAT_2 {
            return Err(err("format", FileFault::UnknownFormat(format)));
        }
        let name = match optional(top, "name") {
            None => String::new(),
            Some(n) => string(n, "name")?,
        };
        let (points_scale, forbidden) = match optional(top, "settings") {
            None => (PointsScale::default(), Vec::new()),
            Some(s) => {
                let map = object(s, "settings")?;
                (
                    read_points(optional(map, "points"), "settings.points")?,
                    read_forbidden(optional(map, "forbidden"))?,
                )
            }
        };
        let players = array(required(top, "players", "players")?, "players")?
            .iter()
            .enumerate()
            .map(|(i, p)| read_player(p, &format!("players[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let mut penalties = Vec::new();
        if let Some(list) = optional(top, "penalties") {
            for (i, p) in array(list, "penalties")?.iter().enumerate() {
                let at = format!("penalties[{i}]");
                let penalty = read_penalty(p, &at)?;
                let stage = match optional(object(p, &at)?, "stage") {
                    None => StageNo(1),
                    Some(s) => StageNo(positive(s, &format!("{at}.stage"))?),
                };
                penalties.push(StagePenalty { stage, penalty });
            }
        }
        let list = array(required(top, "stages", "stages")?, "stages")?;
        let mut specs = Vec::new();
        let mut plays = Vec::new();
        for (k, s) in list.iter().enumerate() {
            let at = format!("stages[{k}]");
            specs.push(read_spec(s, k)?);
            let map = object(s, &at)?;
            let rounds = match optional(map, "rounds") {
                None => Vec::new(),
                Some(r) => array(r, &format!("{at}.rounds"))?
                    .iter()
                    .enumerate()
                    .map(|(i, r)| read_stage_round(r, &format!("{at}.rounds[{i}]")))
                    .collect::<Result<Vec<_>, _>>()?,
            };
            let playoffs = match optional(map, "playoffs") {
                None => Vec::new(),
                Some(p) => array(p, &format!("{at}.playoffs"))?
                    .iter()
                    .enumerate()
                    .map(|(i, g)| read_playoff(g, &format!("{at}.playoffs[{i}]")))
                    .collect::<Result<Vec<_>, _>>()?,
            };
            plays.push(StagePlay { rounds, playoffs });
        }
        let parts = EventParts {
            name,
            settings: EventSettings {
                points: points_scale,
                forbidden,
                stages: specs,
            },
            players,
            penalties,
            stages: plays,
        };
        Event::new(parts.clone()).map_err(|e| super::correction::explain_file_fault(&parts, e))
    }

    /// The event as a `ggdesk-tournament/2` JSON value.
    pub fn to_value(&self) -> Value {
        let parts = self.parts();
        let mut points = Map::new();
        for key in PointsScale::KEYS {
            if let Some(v) = parts.settings.points.get(key) {
                points.insert(key.into(), score_value(v));
            }
        }
        let players: Vec<Value> = parts.players.iter().map(player_value).collect();
        let penalties: Vec<Value> = parts.penalties.iter().map(penalty_value).collect();
        let stages: Vec<Value> = (0..parts.settings.stages.len())
            .map(|k| stage_value(parts, k))
            .collect();
        json!({
            "format": FORMAT_2,
            "name": parts.name,
            "settings": {
                "points": points,
                "forbidden": parts.settings.forbidden.iter().map(|(a, b)| json!([a.0, b.0])).collect::<Vec<_>>(),
            },
            "players": players,
            "penalties": penalties,
            "stages": stages,
        })
    }

    /// The event as a `ggdesk-tournament/2` file (pretty-printed JSON).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.to_value()).unwrap_or_default()
    }
}

/// A penalty as the file writes it, with the stage it counts in.
fn penalty_value(p: &StagePenalty) -> Value {
    json!({"player": p.penalty.player.0, "points": score_value(p.penalty.points),
           "reason": p.penalty.reason, "stage": p.stage.0})
}

/// Stage `k` of the event as the file writes it: its settings, its rounds and (a stage of
/// groups that is not the last) its playoffs.
fn stage_value(parts: &EventParts, k: usize) -> Value {
    let spec = &parts.settings.stages[k];
    let empty = StagePlay::default();
    let play = parts.stages.get(k).unwrap_or(&empty);
    let mut m = Map::new();
    m.insert("name".into(), json!(spec.name));
    m.insert("system".into(), json!(spec.format.system_name()));
    insert_format(&mut m, spec.format);
    if let Some(a) = spec.advance {
        m.insert("advance".into(), json!(a));
    }
    m.insert(
        "tiebreaks".into(),
        spec.tiebreaks.iter().map(|t| json!(t.name())).collect(),
    );
    let rounds: Vec<Value> = play.rounds.iter().map(round_value).collect();
    m.insert("rounds".into(), Value::Array(rounds));
    if !spec.format.is_knockout() && k + 1 < parts.settings.stages.len() {
        let playoffs: Vec<Value> = play.playoffs.iter().map(playoff_value).collect();
        m.insert("playoffs".into(), Value::Array(playoffs));
    }
    Value::Object(m)
}

/// Writes the keys of a stage's system into the stage's object: a Swiss's round count, a
/// round robin's groups and round count, a knockout's match, seeding and third place.
fn insert_format(m: &mut Map<String, Value>, format: StageFormat) {
    match format {
        StageFormat::Swiss { rounds } => {
            m.insert("round_count".into(), json!(rounds));
        }
        StageFormat::RoundRobin { groups, rounds } => {
            m.insert("groups".into(), json!(groups));
            if let Some(r) = rounds {
                m.insert("round_count".into(), json!(r));
            }
        }
        StageFormat::Knockout {
            series,
            seeding,
            third_place,
        } => {
            m.insert(
                "match".into(),
                match series {
                    MatchFormat::BestOf(k) => json!({"best_of": k}),
                    MatchFormat::RaceTo(p) => json!({"race_to": score_value(p)}),
                    MatchFormat::TwiceToBeat => json!({"twice_to_beat": true}),
                },
            );
            m.insert(
                "seeding".into(),
                json!(match seeding {
                    Seeding::Standard => "standard",
                    Seeding::CrossOver => "cross_over",
                }),
            );
            m.insert("third_place".into(), json!(third_place));
        }
    }
}

/// A stage's round as the file writes it: its games, byes and absent players.
fn round_value(r: &StageRound) -> Value {
    let games: Vec<Value> = r.games.iter().map(game_value).collect();
    json!({
        "games": games,
        "byes": r.byes.iter().map(|p| p.0).collect::<Vec<_>>(),
        "absent": r.absent.iter().map(|p| p.0).collect::<Vec<_>>(),
    })
}

/// A playoff game as the file writes it: a game with its group and no table.
fn playoff_value(g: &PlayoffGame) -> Value {
    game_value(&StageGame {
        group: g.group,
        series: None,
        game: crate::tournament::Game {
            table: None,
            white: g.white,
            black: g.black,
            result: g.result,
        },
    })
}

fn game_value(g: &StageGame) -> Value {
    let mut m = Map::new();
    if let Some(grp) = g.group {
        m.insert("group".into(), json!(grp.to_string()));
    }
    if let Some(s) = g.series {
        m.insert("match".into(), json!(s.to_string()));
    }
    if let Some(t) = g.game.table {
        m.insert("table".into(), json!(t));
    }
    m.insert("white".into(), json!(g.game.white.0));
    m.insert("black".into(), json!(g.game.black.0));
    m.insert("result".into(), json!(g.game.result.name()));
    Value::Object(m)
}
