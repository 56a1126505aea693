//! Game records (`ggdesk-record/1`, see `spec/record.md`) and the verdict of a replay.
//!
//! A record is read from JSON into validated types at the edge, with an error that names the
//! field or the event index; the replay then runs the events through the one rules engine.

use crate::adjudication::{self, Adjudication, ReadingSheet, SheetError};
use crate::rules::clock::{ClockError, Time};
use crate::rules::{
    BySide, Event, EventError, Game, GameState, Move, Outcome, PenaltyKind, Position, Rank,
    RuleSettings, RulesError, SetupError, Side, SideSetup, Square,
};
use serde_json::{Map, Value, json};

pub const FORMAT: &str = "ggdesk-record/1";

/// One event with its time in seconds since the game started, as the record writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimedEvent {
    pub t: f64,
    pub event: Event,
}

impl TimedEvent {
    /// The exact time used for every comparison; `None` beyond what a record may carry.
    pub fn time(&self) -> Option<Time> {
        Time::from_secs_f64(self.t)
    }
}

/// A well-formed game record. Readings are kept as written: the spec checks them only when
/// the game goes to adjudication.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub first: Side,
    pub ratings: Option<BySide<f64>>,
    pub rules: RuleSettings,
    pub setup: BySide<SideSetup>,
    pub events: Vec<TimedEvent>,
    pub readings: Option<Value>,
    /// Unknown top-level keys (names, table, round…), kept for export.
    pub extra: Map<String, Value>,
}

/// Why a record is not well formed. One line, naming the field or the event.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RecordError {
    #[error("not valid JSON: {0}")]
    Json(String),
    #[error("{0}")]
    Field(String),
    /// A side's setup is missing or names a square or a piece code that does not exist.
    #[error("{0}")]
    SetupEntry(String),
    #[error("{0}")]
    Setup(#[from] SetupError),
    #[error("{0}")]
    Rules(#[from] RulesError),
    #[error("event {index}: {fault}")]
    Event { index: usize, fault: EventFault },
    #[error("readings: {0}")]
    Readings(String),
    #[error("readings: {0}")]
    Sheet(#[from] SheetError),
}

/// What is wrong with one event of a record.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EventFault {
    /// The event is not well formed (its object, time, kind or value).
    #[error("{0}")]
    Form(String),
    #[error("\"end\" must be the last event")]
    EndNotLast,
    /// The rules engine refused it where it stands.
    #[error(transparent)]
    Refused(EventError),
}

/// The kind of fault that makes a record not well formed, as a stable code (the `fault` of
/// the rejected fixtures), whatever the wording of the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    BadJson,
    BadField,
    BadSetup,
    BadEvent,
    TimeDecreases,
    EndNotLast,
    IllegalMove,
    WrongSide,
    MoveWhilePaused,
    PauseWhilePaused,
    ResumeWhileRunning,
    AfterEnd,
    RespectNotAllowed,
    BadReadings,
}

impl Fault {
    pub fn code(self) -> &'static str {
        match self {
            Fault::BadJson => "bad_json",
            Fault::BadField => "bad_field",
            Fault::BadSetup => "bad_setup",
            Fault::BadEvent => "bad_event",
            Fault::TimeDecreases => "time_decreases",
            Fault::EndNotLast => "end_not_last",
            Fault::IllegalMove => "illegal_move",
            Fault::WrongSide => "wrong_side",
            Fault::MoveWhilePaused => "move_while_paused",
            Fault::PauseWhilePaused => "pause_while_paused",
            Fault::ResumeWhileRunning => "resume_while_running",
            Fault::AfterEnd => "after_end",
            Fault::RespectNotAllowed => "respect_not_allowed",
            Fault::BadReadings => "bad_readings",
        }
    }
}

impl RecordError {
    /// The kind of fault.
    pub fn fault(&self) -> Fault {
        match self {
            RecordError::Json(_) => Fault::BadJson,
            RecordError::Field(_) | RecordError::Rules(_) => Fault::BadField,
            RecordError::SetupEntry(_) | RecordError::Setup(_) => Fault::BadSetup,
            RecordError::Event { fault, .. } => match fault {
                EventFault::Form(_) => Fault::BadEvent,
                EventFault::EndNotLast => Fault::EndNotLast,
                EventFault::Refused(e) => refusal_fault(e),
            },
            RecordError::Readings(_) | RecordError::Sheet(_) => Fault::BadReadings,
        }
    }

    /// The index (from 0) of the event at fault, when the fault is in an event.
    pub fn event_index(&self) -> Option<usize> {
        match self {
            RecordError::Event { index, .. } => Some(*index),
            _ => None,
        }
    }
}

fn refusal_fault(e: &EventError) -> Fault {
    match e {
        EventError::Clock(ClockError::TimeWentBack { .. }) => Fault::TimeDecreases,
        EventError::Clock(ClockError::AlreadyPaused) => Fault::PauseWhilePaused,
        EventError::Clock(ClockError::NotPaused) => Fault::ResumeWhileRunning,
        EventError::Move(_) | EventError::NoSuchPiece { .. } => Fault::IllegalMove,
        EventError::GameOver { .. } => Fault::AfterEnd,
        EventError::WrongSide { .. } => Fault::WrongSide,
        EventError::Paused => Fault::MoveWhilePaused,
        EventError::RespectNotAllowed(_) => Fault::RespectNotAllowed,
        // The counts across the midpoint are declared only in a physical game, never in a
        // game record: an event that does not fit where it stands.
        EventError::CountsNeeded
        | EventError::CountsNotAsked
        | EventError::CountTooHigh { .. }
        | EventError::OtherKindOfGame => Fault::BadEvent,
    }
}

fn field(msg: impl Into<String>) -> RecordError {
    RecordError::Field(msg.into())
}

fn event_err(index: usize, fault: EventFault) -> RecordError {
    RecordError::Event { index, fault }
}

fn parse_side(v: &Value, what: &str) -> Result<Side, String> {
    v.as_str()
        .ok_or_else(|| format!("{what} must be \"white\" or \"black\""))?
        .parse()
        .map_err(|e: String| format!("{what}: {e}"))
}

/// The top-level key that carries the desk's timers (setup, reading, grace) in a record
/// ggdesk writes. The spec's `rules` keeps its seven keys (outside tools check them);
/// readers that do not know this key ignore it, as the spec allows.
pub const DESK_TIMERS_KEY: &str = "desk_timers";

/// The top-level keys both record formats read (a game record adds `setup`); any other key
/// is kept as it came, for export.
pub(crate) const RECORD_KEYS: [&str; 7] = [
    "format",
    "first",
    "ratings",
    "rules",
    DESK_TIMERS_KEY,
    "events",
    "readings",
];

/// The opening keys every record writes: format, first, ratings (when known), rules, and
/// the desk's timers.
pub(crate) fn header_value(
    format: &str,
    first: Side,
    ratings: Option<BySide<f64>>,
    rules: &RuleSettings,
) -> Map<String, Value> {
    let mut obj = Map::new();
    obj.insert("format".into(), json!(format));
    obj.insert("first".into(), json!(first.name()));
    if let Some(r) = ratings {
        obj.insert(
            "ratings".into(),
            json!({"white": r.white, "black": r.black}),
        );
    }
    obj.insert("rules".into(), rules.record_value());
    obj.insert(DESK_TIMERS_KEY.into(), rules.timers_value());
    obj
}

/// A record's rule settings: its `rules` (seven keys) and, when ggdesk wrote it, the desk's
/// timers.
pub(crate) fn parse_rule_settings(obj: &Map<String, Value>) -> Result<RuleSettings, RulesError> {
    let mut rules = RuleSettings::from_record_value(obj.get("rules"))?;
    if let Some(timers) = obj.get(DESK_TIMERS_KEY).filter(|v| !v.is_null()) {
        rules.read_timers(timers, DESK_TIMERS_KEY)?;
    }
    Ok(rules)
}

/// A record's `events`: required (a game without events is `"events": []`), a list.
pub(crate) fn events_list(obj: &Map<String, Value>) -> Result<&Vec<Value>, String> {
    match obj.get("events") {
        None => {
            Err("events is missing (a record of a game without events has \"events\": [])".into())
        }
        Some(Value::Array(items)) => Ok(items),
        Some(_) => Err("events must be a list".into()),
    }
}

/// The error for a time beyond what a record may carry.
pub(crate) fn time_out_of_range(t: f64) -> String {
    format!("\"t\" = {t} is out of range (0 to {})", Time::MAX_TEXT)
}

/// A record's `first`: absent means White.
pub(crate) fn parse_first(obj: &Map<String, Value>) -> Result<Side, String> {
    match obj.get("first") {
        None => Ok(Side::White),
        Some(v) => parse_side(v, "first"),
    }
}

/// A record's `ratings`. They matter only to judge a draw for respect: without both as
/// numbers they are unknown (and a draw for respect is then refused), never an error.
pub(crate) fn parse_ratings(obj: &Map<String, Value>) -> Option<BySide<f64>> {
    let r = obj.get("ratings")?;
    let get = |side: Side| r.get(side.name()).and_then(Value::as_f64);
    Some(BySide::new(get(Side::White)?, get(Side::Black)?))
}

/// The top-level keys a reader does not know, kept for export.
pub(crate) fn unknown_keys(obj: &Map<String, Value>, known: &[&str]) -> Map<String, Value> {
    obj.iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Reads one side's setup object (square → piece code), without checking it is legal.
pub fn parse_setup(v: &Value, side: Side) -> Result<SideSetup, RecordError> {
    let obj = v.as_object().ok_or_else(|| {
        RecordError::SetupEntry(format!("setup.{side} must be an object of square: piece"))
    })?;
    let mut placements = Vec::with_capacity(obj.len());
    for (sq, code) in obj {
        let square: Square = sq
            .parse()
            .map_err(|e| RecordError::SetupEntry(format!("setup.{side}: {e}")))?;
        let code = code.as_str().ok_or_else(|| {
            RecordError::SetupEntry(format!("setup.{side}.{sq} must be a piece code"))
        })?;
        let rank: Rank = code
            .parse()
            .map_err(|e| RecordError::SetupEntry(format!("setup.{side}.{sq}: {e}")))?;
        placements.push((square, rank));
    }
    Ok(SideSetup::new(placements))
}

const EVENT_KINDS: [&str; 7] = [
    "move",
    "penalty",
    "resign",
    "draw_for_respect",
    "pause",
    "resume",
    "end",
];

fn expect_true(obj: &Map<String, Value>, key: &str) -> Result<(), String> {
    match obj.get(key) {
        Some(Value::Bool(true)) => Ok(()),
        _ => Err(format!("\"{key}\" must be true")),
    }
}

/// Reads one event object of a record (`{"t": 4.5, "move": "c3-c4"}`).
pub fn parse_event(v: &Value) -> Result<TimedEvent, String> {
    let obj = v.as_object().ok_or("an event must be an object")?;
    let t = obj
        .get("t")
        .ok_or("the event has no time \"t\"")?
        .as_f64()
        .ok_or("\"t\" must be a number of seconds")?;
    if Time::from_secs_f64(t).is_none() {
        return Err(time_out_of_range(t));
    }
    let kinds: Vec<&str> = EVENT_KINDS
        .into_iter()
        .filter(|k| obj.contains_key(*k))
        .collect();
    let kind = match kinds.as_slice() {
        [one] => *one,
        [] => {
            return Err(format!(
                "unknown event: it needs one of {}",
                EVENT_KINDS.join(", ")
            ));
        }
        many => {
            return Err(format!(
                "an event has one kind, this one has {}",
                many.join(" and ")
            ));
        }
    };
    let event = match kind {
        "move" => {
            let text = obj["move"]
                .as_str()
                .ok_or("\"move\" must be a string FROM-TO")?;
            let mv: Move = text.parse()?;
            let by = match obj.get("by") {
                None => None,
                Some(b) => Some(parse_side(b, "\"by\"")?),
            };
            Event::Move { mv, by }
        }
        "penalty" => {
            let code = obj["penalty"]
                .as_str()
                .ok_or("\"penalty\" must be a string")?;
            let kind = PenaltyKind::from_code(code).ok_or_else(|| {
                format!(
                    "unknown penalty {code:?} (expected own_exposure, caused_exposure or removal)"
                )
            })?;
            let side = parse_side(
                obj.get("side").ok_or("a penalty needs \"side\"")?,
                "\"side\"",
            )?;
            Event::Penalty { kind, side }
        }
        "resign" => Event::Resign(parse_side(&obj["resign"], "\"resign\"")?),
        "draw_for_respect" => {
            expect_true(obj, kind)?;
            Event::DrawForRespect
        }
        "pause" => {
            expect_true(obj, kind)?;
            Event::Pause
        }
        "resume" => {
            expect_true(obj, kind)?;
            Event::Resume
        }
        _ => {
            expect_true(obj, kind)?;
            Event::End
        }
    };
    Ok(TimedEvent { t, event })
}

impl Record {
    /// A record of a game not yet played: both setups, White first, default rules.
    pub fn new(setup: BySide<SideSetup>) -> Record {
        Record {
            first: Side::White,
            ratings: None,
            rules: RuleSettings::default(),
            setup,
            events: Vec::new(),
            readings: None,
            extra: Map::new(),
        }
    }

    pub fn from_json_str(text: &str) -> Result<Record, RecordError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))?;
        Record::from_value(&value)
    }

    pub fn from_value(value: &Value) -> Result<Record, RecordError> {
        let obj = value
            .as_object()
            .ok_or_else(|| field("a record must be a JSON object"))?;
        match obj.get("format") {
            Some(Value::String(f)) if f == FORMAT => {}
            Some(other) => return Err(field(format!("format must be {FORMAT:?}, not {other}"))),
            None => return Err(field(format!("format is missing (expected {FORMAT:?})"))),
        }
        let first = parse_first(obj).map_err(field)?;
        let ratings = parse_ratings(obj);
        let rules = parse_rule_settings(obj)?;
        let setup_obj = obj
            .get("setup")
            .ok_or_else(|| field("setup is missing (each side's pieces, square: piece code)"))?
            .as_object()
            .ok_or_else(|| field("setup must be an object with white and black"))?;
        let mut setup = BySide::<SideSetup>::default();
        for side in Side::BOTH {
            let v = setup_obj
                .get(side.name())
                .ok_or_else(|| RecordError::SetupEntry(format!("setup.{side} is missing")))?;
            setup[side] = parse_setup(v, side)?;
            setup[side].validate(side)?;
        }
        let events = events_list(obj)
            .map_err(field)?
            .iter()
            .enumerate()
            .map(|(i, v)| parse_event(v).map_err(|m| event_err(i, EventFault::Form(m))))
            .collect::<Result<Vec<_>, _>>()?;
        let readings = obj.get("readings").filter(|v| !v.is_null()).cloned();
        let extra = unknown_keys(obj, &[&RECORD_KEYS[..], &["setup"]].concat());
        Ok(Record {
            first,
            ratings,
            rules,
            setup,
            events,
            readings,
            extra,
        })
    }

    /// The record as JSON, every rule setting written out (the seven of `rules`, and the
    /// desk's timers under [`DESK_TIMERS_KEY`]).
    pub fn to_value(&self) -> Value {
        let mut obj = header_value(FORMAT, self.first, self.ratings, &self.rules);
        obj.insert(
            "setup".into(),
            json!({"white": setup_value(&self.setup.white), "black": setup_value(&self.setup.black)}),
        );
        obj.insert(
            "events".into(),
            Value::Array(self.events.iter().map(event_value).collect()),
        );
        if let Some(readings) = &self.readings {
            obj.insert("readings".into(), readings.clone());
        }
        for (k, v) in &self.extra {
            obj.insert(k.clone(), v.clone());
        }
        Value::Object(obj)
    }

    pub fn to_json_pretty(&self) -> String {
        // Serializing a `Value` cannot fail.
        serde_json::to_string_pretty(&self.to_value()).unwrap_or_default()
    }

    /// Both sheets of the `readings` field, checked for form (squares and codes). `None`
    /// when the record has no readings.
    pub fn reading_sheets(&self) -> Result<Option<BySide<ReadingSheet>>, RecordError> {
        let Some(v) = &self.readings else {
            return Ok(None);
        };
        let obj = v.as_object().ok_or_else(|| {
            RecordError::Readings("must be an object with white and black".into())
        })?;
        let mut sheets = BySide::<ReadingSheet>::default();
        for side in Side::BOTH {
            if let Some(sheet) = obj.get(side.name()).filter(|s| !s.is_null()) {
                sheets[side] = parse_reading_sheet(side, sheet)?;
            }
        }
        Ok(Some(sheets))
    }
}

/// Reads one side's reading sheet (enemy square → piece code, `null` to abstain), checked
/// for form only: squares and codes.
pub fn parse_reading_sheet(side: Side, sheet: &Value) -> Result<ReadingSheet, RecordError> {
    let sheet = sheet.as_object().ok_or_else(|| {
        RecordError::Readings(format!("{side}'s sheet must be an object of square: piece"))
    })?;
    let mut out = ReadingSheet::default();
    for (sq, code) in sheet {
        let square: Square = sq
            .parse()
            .map_err(|e| RecordError::Readings(format!("{side}'s sheet: {e}")))?;
        if code.is_null() {
            continue; // an explicit abstention
        }
        let rank: Rank = code
            .as_str()
            .ok_or_else(|| format!("{sq} must be a piece code"))
            .and_then(str::parse)
            .map_err(|e| RecordError::Readings(format!("{side}'s sheet: {e}")))?;
        out.readings.push((square, rank));
    }
    Ok(out)
}

/// Writes one side's setup as an object of square → piece code.
pub fn setup_value(s: &SideSetup) -> Value {
    Value::Object(
        s.placements
            .iter()
            .map(|(sq, r)| (sq.to_string(), json!(r.code())))
            .collect(),
    )
}

/// Writes one event object of a record.
pub fn event_value(e: &TimedEvent) -> Value {
    let mut obj = Map::new();
    obj.insert("t".into(), json!(e.t));
    match e.event {
        Event::Move { mv, by } => {
            obj.insert("move".into(), json!(mv.to_string()));
            if let Some(by) = by {
                obj.insert("by".into(), json!(by.name()));
            }
        }
        Event::Penalty { kind, side } => {
            obj.insert("penalty".into(), json!(kind.code()));
            obj.insert("side".into(), json!(side.name()));
        }
        Event::Resign(side) => {
            obj.insert("resign".into(), json!(side.name()));
        }
        Event::DrawForRespect | Event::Pause | Event::Resume | Event::End => {
            obj.insert(e.event.code().into(), json!(true));
        }
    }
    Value::Object(obj)
}

impl serde::Serialize for Record {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for Record {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Record::from_value(&value).map_err(serde::de::Error::custom)
    }
}

/// The verdict's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Finished,
    Ongoing,
    AdjudicationPending,
}

impl Status {
    pub fn code(self) -> &'static str {
        match self {
            Status::Finished => "finished",
            Status::Ongoing => "ongoing",
            Status::AdjudicationPending => "adjudication_pending",
        }
    }
}

/// What `ggdesk replay` prints for a well-formed record.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub status: Status,
    /// The outcome, when finished (by adjudication too).
    pub outcome: Option<Outcome>,
    /// When the game ended, or the last event's time while it goes on (seconds).
    pub at: f64,
    pub plies: u32,
    pub challenges: u32,
    pub oversteps: BySide<u32>,
    pub adjudication: Option<Adjudication>,
}

impl Verdict {
    pub fn to_value(&self) -> Value {
        let adjudication = match &self.adjudication {
            None => Value::Null,
            Some(a) => {
                let side = |s: Side| {
                    let sc = &a.scores[s];
                    json!({
                        "nrs": sc.net_reading_score,
                        "avp": sc.aliwalas_value.as_f64(),
                        "tas": sc.total.as_f64(),
                    })
                };
                json!({"white": side(Side::White), "black": side(Side::Black)})
            }
        };
        json!({
            "status": self.status.code(),
            "winner": self.outcome.and_then(Outcome::winner).map(Side::name),
            "reason": self.outcome.map(|o| o.reason().code())
                .or((self.status == Status::AdjudicationPending).then_some("game_time")),
            "at": self.at,
            "plies": self.plies,
            "challenges": self.challenges,
            "oversteps": {"white": self.oversteps.white, "black": self.oversteps.black},
            "adjudication": adjudication,
        })
    }
}

/// The game a record describes, replayed up to its last event. Also returns, for an ended
/// game, the record time at which it ended when that was an event's own time.
pub fn replay_game(record: &Record) -> Result<(Game, Option<f64>), RecordError> {
    let position = Position::from_setups(&record.setup)?;
    let mut game = Game::new(record.rules, record.first, record.ratings, position);
    let last = record.events.len().saturating_sub(1);
    let mut end_t = None;
    for (index, e) in record.events.iter().enumerate() {
        if e.event == Event::End && index != last {
            return Err(event_err(index, EventFault::EndNotLast));
        }
        let time = e
            .time()
            .ok_or_else(|| event_err(index, EventFault::Form(time_out_of_range(e.t))))?;
        let was_over = game.is_over();
        game.apply(time, &e.event)
            .map_err(|err| event_err(index, EventFault::Refused(err)))?;
        if !was_over && game.is_over() {
            end_t = Some(e.t);
        }
    }
    Ok((game, end_t))
}

/// Replays a record and judges it, as `ggdesk replay` does.
pub fn replay(record: &Record) -> Result<Verdict, RecordError> {
    let (game, end_t) = replay_game(record)?;
    let last_t = record.events.last().map_or(0.0, |e| e.t);
    // A game that ended at an event's own time reports that time as written; a clock that
    // ran out reports the exact moment it did.
    let at_secs = |at: Time| match end_t {
        Some(t) if Time::from_secs_f64(t) == Some(at) => t,
        _ => at.as_secs_f64(),
    };
    let mut verdict = Verdict {
        status: Status::Ongoing,
        outcome: None,
        at: last_t,
        plies: game.plies(),
        challenges: game.challenges(),
        oversteps: game.clock().oversteps(),
        adjudication: None,
    };
    match game.state() {
        GameState::Playing => {}
        GameState::Finished { outcome, at } => {
            verdict.status = Status::Finished;
            verdict.outcome = Some(outcome);
            verdict.at = at_secs(at);
        }
        // Only a game on a physical board waits for counts; a record's game never does.
        GameState::ThirtyCountPending { .. } => {}
        GameState::AdjudicationPending { at } => {
            verdict.at = at_secs(at);
            match record.reading_sheets()? {
                None => verdict.status = Status::AdjudicationPending,
                Some(sheets) => {
                    let adj = adjudication::adjudicate(game.position(), &sheets)?;
                    verdict.status = Status::Finished;
                    verdict.outcome = Some(match adj.winner {
                        Some(side) => Outcome::Win {
                            side,
                            reason: crate::rules::Reason::GameTime,
                        },
                        None => Outcome::Draw {
                            reason: crate::rules::Reason::GameTime,
                        },
                    });
                    verdict.adjudication = Some(adj);
                }
            }
        }
    }
    Ok(verdict)
}
