//! The list as `ggdesk ratings` prints it (CSV, or JSON with each player's history), an
//! event's rating report as CSV, and the initial list read from CSV.
//!
//! Numbers: the exact `f64` the computation gives, formatted with Rust's `{:.2}` (rating,
//! deviation, expected score) or `{:.6}` (volatility), which rounds the exact binary value to
//! the nearest decimal; JSON carries the same decimals as numbers.

use super::{Date, ListRow, PlayerEvent, Rating};
use crate::csv_text::{csv_record, defuse};
use crate::tournament::Score;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// The list's CSV header.
pub const LIST_HEADER: [&str; 9] = [
    "rank",
    "federation_id",
    "name",
    "rating",
    "deviation",
    "volatility",
    "games",
    "events",
    "last_event",
];

/// The initial list's columns.
pub const INITIAL_HEADER: [&str; 5] =
    ["federation_id", "name", "rating", "deviation", "volatility"];

/// Two decimals, as printed.
pub fn fmt2(x: f64) -> String {
    format!("{x:.2}")
}

/// Six decimals, as printed.
pub fn fmt6(x: f64) -> String {
    format!("{x:.6}")
}

/// The printed decimals as a JSON number.
fn number(text: &str) -> Value {
    text.parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

fn score_value(s: Score) -> Value {
    if s.halves() % 2 == 0 {
        json!(s.halves() / 2)
    } else {
        json!(s.halves() as f64 / 2.0)
    }
}

/// The list as CSV: `rank,federation_id,name,rating,deviation,volatility,games,events,last_event`
/// (`last_event` empty for a player without a rated game). Text is formula-safe.
pub fn list_csv(rows: &[ListRow<String>]) -> String {
    let header: Vec<String> = LIST_HEADER.iter().map(|h| h.to_string()).collect();
    let mut out = csv_record(&header);
    for row in rows {
        let s = &row.standing;
        out.push_str(&csv_record(&[
            row.rank.to_string(),
            defuse(&row.key),
            defuse(&s.name),
            fmt2(s.rating.rating),
            fmt2(s.rating.deviation),
            fmt6(s.rating.volatility),
            s.games.to_string(),
            s.events.to_string(),
            s.last_event.map(|d| d.to_string()).unwrap_or_default(),
        ]));
    }
    out
}

/// One entry of a player's history: the event's name and date, and what it was for them.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryEntry {
    pub event: String,
    pub date: Date,
    pub rated: PlayerEvent,
}

/// The list as JSON: the CSV's rows as objects (numbers with the same decimals, `last_event`
/// null without a rated game), each with its `history`, oldest first: `event` (the event's
/// name), `date`, `before`, `after` (ratings), `deviation_before`, `deviation_after`,
/// `games`, `score`, `expected`.
pub fn list_json(rows: &[ListRow<String>], history: &HashMap<String, Vec<HistoryEntry>>) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .map(|row| {
            let s = &row.standing;
            let mut m = Map::new();
            m.insert("rank".into(), json!(row.rank));
            m.insert("federation_id".into(), json!(row.key));
            m.insert("name".into(), json!(s.name));
            m.insert("rating".into(), number(&fmt2(s.rating.rating)));
            m.insert("deviation".into(), number(&fmt2(s.rating.deviation)));
            m.insert("volatility".into(), number(&fmt6(s.rating.volatility)));
            m.insert("games".into(), json!(s.games));
            m.insert("events".into(), json!(s.events));
            m.insert(
                "last_event".into(),
                s.last_event.map_or(Value::Null, |d| json!(d.to_string())),
            );
            let entries: Vec<Value> = history
                .get(&row.key)
                .map(|h| h.iter().map(history_value).collect())
                .unwrap_or_default();
            m.insert("history".into(), Value::Array(entries));
            Value::Object(m)
        })
        .collect();
    Value::Array(rows)
}

fn history_value(h: &HistoryEntry) -> Value {
    let p = &h.rated;
    json!({
        "event": h.event,
        "date": h.date.to_string(),
        "before": number(&fmt2(p.before.rating)),
        "after": number(&fmt2(p.after.rating)),
        "deviation_before": number(&fmt2(p.before.deviation)),
        "deviation_after": number(&fmt2(p.after.deviation)),
        "games": p.games,
        "score": score_value(p.score),
        "expected": number(&fmt2(p.expected)),
    })
}

/// The rating report of one event as CSV, one row per player of its period, by name:
/// `federation_id,name,before,after,change,deviation,games,score,expected`.
pub fn report_csv(rows: &[(String, PlayerEvent)]) -> String {
    let header: Vec<String> = [
        "federation_id",
        "name",
        "before",
        "after",
        "change",
        "deviation",
        "games",
        "score",
        "expected",
    ]
    .iter()
    .map(|h| h.to_string())
    .collect();
    let mut out = csv_record(&header);
    for (fid, p) in rows {
        out.push_str(&csv_record(&[
            defuse(fid),
            defuse(&p.name),
            fmt2(p.before.rating),
            fmt2(p.after.rating),
            fmt2(p.change()),
            fmt2(p.after.deviation),
            p.games.to_string(),
            p.score.to_string(),
            fmt2(p.expected),
        ]));
    }
    out
}

/// An entry of the initial list.
#[derive(Debug, Clone, PartialEq)]
pub struct InitialEntry {
    pub line: u64,
    pub federation_id: String,
    pub name: String,
    pub rating: Rating,
}

/// Why an initial list was refused: the line (the header is line 1) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialListError {
    pub line: u64,
    pub reason: String,
}

impl fmt::Display for InitialListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for InitialListError {}

fn bad(line: u64, reason: impl Into<String>) -> InitialListError {
    InitialListError {
        line,
        reason: reason.into(),
    }
}

/// Reads a number of an initial rating: a plain decimal.
pub fn read_number(what: &str, text: &str) -> Result<f64, String> {
    let t = text.trim();
    t.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("the {what} {t:?} is not a number"))
}

/// Reads the initial list: CSV with the header `federation_id,name,rating,deviation,volatility`
/// (any order, any case; other columns ignored). Every row needs a federation id (once in
/// the list) and a rating as [`Rating::checked`] accepts it. The first bad row refuses the
/// list.
pub fn read_initial_csv(text: &str) -> Result<Vec<InitialEntry>, InitialListError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    let line_of = |rec: &csv::StringRecord| rec.position().map_or(0, csv::Position::line);
    let header = match records.next() {
        None => {
            return Err(bad(
                1,
                format!(
                    "the file is empty: expected the header {}",
                    INITIAL_HEADER.join(",")
                ),
            ));
        }
        Some(Err(e)) => return Err(bad(1, format!("unreadable header: {e}"))),
        Some(Ok(h)) => h,
    };
    let mut column: HashMap<&str, usize> = HashMap::new();
    for (i, h) in header.iter().enumerate() {
        let h = h.trim().to_ascii_lowercase();
        if let Some(c) = INITIAL_HEADER.iter().find(|c| **c == h) {
            column.entry(c).or_insert(i);
        }
    }
    let missing: Vec<&str> = INITIAL_HEADER
        .iter()
        .copied()
        .filter(|c| !column.contains_key(c))
        .collect();
    if !missing.is_empty() {
        return Err(bad(
            line_of(&header).max(1),
            format!("the header lacks the column(s) {}", missing.join(", ")),
        ));
    }
    let mut entries = Vec::new();
    let mut seen: HashMap<String, u64> = HashMap::new();
    for rec in records {
        let rec = rec.map_err(|e| {
            bad(
                e.position().map_or(0, csv::Position::line),
                format!("unreadable row: {e}"),
            )
        })?;
        let line = line_of(&rec);
        if rec.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let cell = |c: &str| {
            column
                .get(c)
                .and_then(|&i| rec.get(i))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let federation_id = cell("federation_id");
        if federation_id.is_empty() {
            return Err(bad(line, "the federation_id is empty"));
        }
        if let Some(first) = seen.get(&federation_id) {
            return Err(bad(
                line,
                format!("federation id {federation_id:?} is already on line {first}"),
            ));
        }
        seen.insert(federation_id.clone(), line);
        let rating = (|| {
            Rating::checked(
                read_number("rating", &cell("rating"))?,
                read_number("deviation", &cell("deviation"))?,
                read_number("volatility", &cell("volatility"))?,
            )
        })()
        .map_err(|e| bad(line, e))?;
        entries.push(InitialEntry {
            line,
            federation_id,
            name: cell("name"),
            rating,
        });
    }
    Ok(entries)
}

/// A player's history from the reports, oldest first (the events' names and dates given).
pub fn histories(
    reports: &[(String, Date, &BTreeMap<String, PlayerEvent>)],
) -> HashMap<String, Vec<HistoryEntry>> {
    let mut out: HashMap<String, Vec<HistoryEntry>> = HashMap::new();
    for (event, date, players) in reports {
        for (key, p) in *players {
            out.entry(key.clone()).or_default().push(HistoryEntry {
                event: event.clone(),
                date: *date,
                rated: p.clone(),
            });
        }
    }
    out
}
