//! Records of games played on a physical board (`ggdesk-physical/1`): what the desk knew of
//! them. No setups and no squares; moves, the ranks of each challenge as the arbiter saw
//! them, the arbiter's declarations, and the adjudication readings piece by piece.
//!
//! ```json
//! {"format": "ggdesk-physical/1", "first": "white", "ratings": {...}, "rules": {...},
//!  "events": [{"t": 4.5, "move": true}, {"t": 9.0, "challenge": ["SPY", "G5"]},
//!             {"t": 60.0, "thirty_count": {"white": 3, "black": 1}},
//!             {"t": 70.0, "perpetual": "perpetual_5"}, {"t": 80.0, "flag_through": "black"},
//!             {"t": 95.0, "resign": "black"}],
//!  "readings": {"white": [["G5", "G5"], ["PVT", null]], "black": [...]}}
//! ```
//! Pauses, penalties, resignations, draws for respect and `end` are written as in
//! `ggdesk-record/1`.

use crate::adjudication::{TallyAdjudication, adjudicate_tally};
use crate::record::{
    RECORD_KEYS, Status, events_list, header_value, parse_first, parse_ratings,
    parse_rule_settings, time_out_of_range, unknown_keys,
};
use crate::rules::clock::Time;
use crate::rules::{
    BySide, GameState, Outcome, PenaltyKind, PhysicalEvent, PhysicalGame, Rank, Reason,
    RuleSettings, Side,
};
use serde_json::{Map, Value, json};

pub const FORMAT: &str = "ggdesk-physical/1";

/// Readings of one side: each of the opponent's remaining pieces (its real rank) and the
/// rank the reader named, or `None` for an abstention.
pub type TallySheet = Vec<(Rank, Option<Rank>)>;

/// A physical-board game as recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct PhysicalRecord {
    pub first: Side,
    pub ratings: Option<BySide<f64>>,
    pub rules: RuleSettings,
    pub events: Vec<(f64, PhysicalEvent)>,
    pub readings: Option<BySide<TallySheet>>,
    pub extra: Map<String, Value>,
}

fn side_of(v: &Value, what: &str) -> Result<Side, String> {
    v.as_str()
        .ok_or_else(|| format!("{what} must be \"white\" or \"black\""))?
        .parse()
}

fn rank_of(v: &Value, what: &str) -> Result<Rank, String> {
    v.as_str()
        .ok_or_else(|| format!("{what} must be a piece code"))?
        .parse()
}

/// Reads one event object.
pub fn parse_event(v: &Value) -> Result<(f64, PhysicalEvent), String> {
    let obj = v.as_object().ok_or("an event must be an object")?;
    let t = obj
        .get("t")
        .and_then(Value::as_f64)
        .ok_or("the event needs a time \"t\" in seconds")?;
    if Time::from_secs_f64(t).is_none() {
        return Err(time_out_of_range(t));
    }
    let is_true = |k: &str| obj.get(k) == Some(&Value::Bool(true));
    let event = if is_true("move") {
        PhysicalEvent::Move { challenge: None }
    } else if let Some(c) = obj.get("challenge") {
        let pair = c
            .as_array()
            .filter(|a| a.len() == 2)
            .ok_or("\"challenge\" must be [attacker, defender]")?;
        PhysicalEvent::Move {
            challenge: Some((
                rank_of(&pair[0], "attacker")?,
                rank_of(&pair[1], "defender")?,
            )),
        }
    } else if let Some(p) = obj.get("penalty") {
        let code = p.as_str().ok_or("\"penalty\" must be a string")?;
        let kind =
            PenaltyKind::from_code(code).ok_or_else(|| format!("unknown penalty {code:?}"))?;
        let side = side_of(obj.get("side").ok_or("a penalty needs \"side\"")?, "side")?;
        PhysicalEvent::Penalty { kind, side }
    } else if let Some(s) = obj.get("resign") {
        PhysicalEvent::Resign(side_of(s, "resign")?)
    } else if is_true("draw_for_respect") {
        PhysicalEvent::DrawForRespect
    } else if is_true("pause") {
        PhysicalEvent::Pause
    } else if is_true("resume") {
        PhysicalEvent::Resume
    } else if let Some(c) = obj.get("thirty_count") {
        let count = |side: &str| {
            c.get(side)
                .and_then(Value::as_u64)
                .filter(|&n| n <= 21)
                .map(|n| n as u32)
                .ok_or_else(|| format!("thirty_count.{side} must be a count of pieces"))
        };
        PhysicalEvent::ThirtyCount {
            white: count("white")?,
            black: count("black")?,
        }
    } else if let Some(p) = obj.get("perpetual") {
        match p.as_str() {
            Some("perpetual_5") => PhysicalEvent::Perpetual { long: false },
            Some("perpetual_16") => PhysicalEvent::Perpetual { long: true },
            _ => return Err("\"perpetual\" must be \"perpetual_5\" or \"perpetual_16\"".into()),
        }
    } else if let Some(s) = obj.get("flag_through") {
        PhysicalEvent::FlagThrough(side_of(s, "flag_through")?)
    } else if is_true("end") {
        PhysicalEvent::End
    } else {
        return Err("unknown event".into());
    };
    Ok((t, event))
}

/// Writes one event object.
pub fn event_value(t: f64, e: &PhysicalEvent) -> Value {
    let mut obj = Map::new();
    obj.insert("t".into(), json!(t));
    let (k, v) = match *e {
        PhysicalEvent::Move { challenge: None } => ("move", json!(true)),
        PhysicalEvent::Move {
            challenge: Some((a, d)),
        } => ("challenge", json!([a.code(), d.code()])),
        PhysicalEvent::Penalty { kind, side } => {
            obj.insert("side".into(), json!(side.name()));
            ("penalty", json!(kind.code()))
        }
        PhysicalEvent::Resign(side) => ("resign", json!(side.name())),
        PhysicalEvent::DrawForRespect => ("draw_for_respect", json!(true)),
        PhysicalEvent::Pause => ("pause", json!(true)),
        PhysicalEvent::Resume => ("resume", json!(true)),
        PhysicalEvent::ThirtyCount { white, black } => {
            ("thirty_count", json!({"white": white, "black": black}))
        }
        PhysicalEvent::Perpetual { long } => (
            "perpetual",
            json!(if long { "perpetual_16" } else { "perpetual_5" }),
        ),
        PhysicalEvent::FlagThrough(side) => ("flag_through", json!(side.name())),
        PhysicalEvent::End => ("end", json!(true)),
    };
    obj.insert(k.into(), v);
    Value::Object(obj)
}

/// Reads one side's sheet: a list of `[real rank, reading or null]`.
pub fn parse_sheet(v: &Value) -> Result<TallySheet, String> {
    v.as_array()
        .ok_or("a sheet must be a list of [piece, reading]")?
        .iter()
        .map(|pair| {
            let p = pair
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or("each reading must be [piece, reading]")?;
            let read = if p[1].is_null() {
                None
            } else {
                Some(rank_of(&p[1], "reading")?)
            };
            Ok((rank_of(&p[0], "piece")?, read))
        })
        .collect()
}

pub fn sheet_value(sheet: &TallySheet) -> Value {
    Value::Array(
        sheet
            .iter()
            .map(|(a, r)| json!([a.code(), r.map(Rank::code)]))
            .collect(),
    )
}

impl PhysicalRecord {
    pub fn from_value(value: &Value) -> Result<PhysicalRecord, String> {
        let obj = value.as_object().ok_or("a record must be a JSON object")?;
        if obj.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(format!("format must be {FORMAT:?}"));
        }
        let first = parse_first(obj)?;
        let ratings = parse_ratings(obj);
        let rules = parse_rule_settings(obj).map_err(|e| e.to_string())?;
        let events = events_list(obj)?
            .iter()
            .enumerate()
            .map(|(i, v)| parse_event(v).map_err(|e| format!("event {i}: {e}")))
            .collect::<Result<_, _>>()?;
        let readings = match obj.get("readings") {
            None | Some(Value::Null) => None,
            Some(r) => {
                let get = |s: &str| match r.get(s) {
                    None | Some(Value::Null) => Ok(Vec::new()),
                    Some(v) => parse_sheet(v).map_err(|e| format!("readings.{s}: {e}")),
                };
                Some(BySide::new(get("white")?, get("black")?))
            }
        };
        let extra = unknown_keys(obj, &RECORD_KEYS);
        Ok(PhysicalRecord {
            first,
            ratings,
            rules,
            events,
            readings,
            extra,
        })
    }

    pub fn to_value(&self) -> Value {
        let mut obj = header_value(FORMAT, self.first, self.ratings, &self.rules);
        obj.insert(
            "events".into(),
            Value::Array(
                self.events
                    .iter()
                    .map(|(t, e)| event_value(*t, e))
                    .collect(),
            ),
        );
        if let Some(r) = &self.readings {
            obj.insert(
                "readings".into(),
                json!({"white": sheet_value(&r.white), "black": sheet_value(&r.black)}),
            );
        }
        for (k, v) in &self.extra {
            obj.insert(k.clone(), v.clone());
        }
        Value::Object(obj)
    }

    /// The game replayed through its events.
    pub fn replay_game(&self) -> Result<PhysicalGame, String> {
        let mut game = PhysicalGame::new(self.rules, self.first, self.ratings);
        for (i, (t, e)) in self.events.iter().enumerate() {
            let time = Time::from_secs_f64(*t)
                .ok_or_else(|| format!("event {i}: {}", time_out_of_range(*t)))?;
            game.apply(time, e)
                .map_err(|err| format!("event {i}: {err}"))?;
        }
        Ok(game)
    }

    /// Status, outcome and, when game time ran out and both sheets are in, the adjudication.
    pub fn judge(&self) -> Result<PhysicalVerdict, String> {
        let game = self.replay_game()?;
        let mut verdict = PhysicalVerdict {
            status: Status::Ongoing,
            outcome: None,
            adjudication: None,
            game,
        };
        match verdict.game.state() {
            // Waiting for the counts: no result yet.
            GameState::Playing | GameState::ThirtyCountPending { .. } => {}
            GameState::Finished { outcome, .. } => {
                verdict.status = Status::Finished;
                verdict.outcome = Some(outcome);
            }
            GameState::AdjudicationPending { .. } => match &self.readings {
                None => verdict.status = Status::AdjudicationPending,
                Some(readings) => {
                    let remaining = BySide::from_fn(|s| verdict.game.remaining_pieces(s));
                    let adj = adjudicate_tally(readings, &remaining).map_err(|e| e.to_string())?;
                    verdict.status = Status::Finished;
                    verdict.outcome = Some(match adj.winner {
                        Some(side) => Outcome::Win {
                            side,
                            reason: Reason::GameTime,
                        },
                        None => Outcome::Draw {
                            reason: Reason::GameTime,
                        },
                    });
                    verdict.adjudication = Some(adj);
                }
            },
        }
        Ok(verdict)
    }
}

/// How a physical-board game stands.
#[derive(Debug, Clone, PartialEq)]
pub struct PhysicalVerdict {
    pub status: Status,
    pub outcome: Option<Outcome>,
    pub adjudication: Option<TallyAdjudication>,
    pub game: PhysicalGame,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_physical_record_round_trips_and_judges_an_adjudication() {
        let mut record = PhysicalRecord {
            first: Side::White,
            ratings: None,
            rules: RuleSettings {
                game_limit_ns: 60_000_000_000,
                ..RuleSettings::default()
            },
            events: vec![
                (
                    5.0,
                    PhysicalEvent::Move {
                        challenge: Some((Rank::Spy, Rank::G5)),
                    },
                ),
                (9.0, PhysicalEvent::Move { challenge: None }),
                (70.0, PhysicalEvent::End),
            ],
            readings: None,
            extra: Map::new(),
        };
        let back = PhysicalRecord::from_value(&record.to_value()).expect("reads back");
        assert_eq!(back, record);
        assert_eq!(
            record.judge().expect("judged").status,
            Status::AdjudicationPending
        );
        // White reads the Flag right; Black abstains: White 2 + 71.72, Black 71.72 − 7.80.
        let black_left = record
            .replay_game()
            .expect("replays")
            .remaining_pieces(Side::Black);
        let white_left = record
            .replay_game()
            .expect("replays")
            .remaining_pieces(Side::White);
        let white_sheet: TallySheet = black_left
            .iter()
            .map(|&r| (r, (r == Rank::Flag).then_some(Rank::Flag)))
            .collect();
        let black_sheet: TallySheet = white_left.iter().map(|&r| (r, None)).collect();
        record.readings = Some(BySide::new(white_sheet, black_sheet));
        let verdict = record.judge().expect("judged");
        let adj = verdict.adjudication.expect("adjudicated");
        assert_eq!(adj.scores.white.net_reading_score, 2);
        assert_eq!(adj.scores.white.total.to_string(), "73.72");
        assert_eq!(adj.scores.black.total.to_string(), "63.92");
        assert_eq!(verdict.outcome.and_then(|o| o.winner()), Some(Side::White));
    }

    #[test]
    fn a_sheet_that_does_not_list_the_remaining_pieces_is_refused() {
        let mut record = PhysicalRecord {
            first: Side::White,
            ratings: None,
            rules: RuleSettings {
                game_limit_ns: 10_000_000_000,
                ..RuleSettings::default()
            },
            events: vec![(20.0, PhysicalEvent::End)],
            readings: None,
            extra: Map::new(),
        };
        record.readings = Some(BySide::new(vec![(Rank::G5, None)], Vec::new()));
        let err = record.judge().expect_err("refused");
        assert!(err.contains("lists 1 pieces"), "{err}");
    }
}
