//! The audit log as CSV, for an appeal argued from it: one row per change, in words, with
//! the time, who, what, where (tournament, round, table, game), the reason and the details.
//! Text typed by a person is formula-safe (see the module's note).
//!
//! The store keeps each line's details as it wrote them (an event as its record writes it,
//! `cancelled event 5: {...}` for an undo, plain words for a director's change);
//! [`details_in_words`] puts them in the words a director reads, and [`place_of`] finds the
//! round and table a director's line names.

use super::{defuse, record};
use serde_json::{Map, Value};

/// One line of the audit log as the desk shows it (already in words).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditLine {
    /// Local date and time, e.g. `2026-12-12 14:03:07`.
    pub at: String,
    pub who: String,
    pub what: String,
    pub tournament: String,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub game: Option<i64>,
    pub reason: String,
    pub details: String,
}

/// `at,who,what,tournament,round,table,game,reason,details`, one row per line.
pub fn audit_csv(lines: &[AuditLine]) -> String {
    let header: Vec<String> = [
        "at",
        "who",
        "what",
        "tournament",
        "round",
        "table",
        "game",
        "reason",
        "details",
    ]
    .iter()
    .map(|h| h.to_string())
    .collect();
    let mut out = record(&header);
    let num = |n: Option<String>| n.unwrap_or_default();
    for l in lines {
        out.push_str(&record(&[
            l.at.clone(),
            defuse(&l.who),
            defuse(&l.what),
            defuse(&l.tournament),
            num(l.round.map(|r| r.to_string())),
            num(l.table.map(|t| t.to_string())),
            num(l.game.map(|g| g.to_string())),
            defuse(&l.reason),
            defuse(&l.details),
        ]));
    }
    out
}

/// A time since the game started as the desk's clocks show it, in whole seconds (rounded
/// down): `0:31`, `12:05`, `1:02:03`.
pub fn game_time(t: f64) -> String {
    let secs = if t.is_finite() && t > 0.0 {
        t.floor() as u64
    } else {
        0
    };
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, (secs % 3600) / 60, secs % 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// A side's name as the desk writes it in a sentence: `white` → `White`.
fn side_word(side: &str) -> String {
    match side {
        "white" => "White".into(),
        "black" => "Black".into(),
        other => other.replace('_', " "),
    }
}

/// A text with its first letter in capitals.
fn sentence(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// What an event is, in words, without its time: `move e4-e5`, `clocks paused`, `White
/// resigns`. `None` for an object that is not an event.
fn event_words(obj: &Map<String, Value>) -> Option<String> {
    let text = |k: &str| obj.get(k).and_then(Value::as_str);
    let words = if let Some(mv) = text("move") {
        match text("by") {
            Some(by) => format!("move {mv} by {}", side_word(by)),
            None => format!("move {mv}"),
        }
    } else if obj.get("move") == Some(&Value::Bool(true)) {
        "move made".into()
    } else if let Some(Value::Array(ranks)) = obj.get("challenge") {
        let r: Vec<&str> = ranks.iter().filter_map(Value::as_str).collect();
        format!("challenge: {}", r.join(" against "))
    } else if let Some(kind) = text("penalty") {
        let side = text("side").map_or_else(String::new, |s| format!(" for {}", side_word(s)));
        format!("penalty {}{side}", kind.replace('_', " "))
    } else if let Some(side) = text("resign") {
        format!("{} resigns", side_word(side))
    } else if obj.contains_key("draw_for_respect") {
        "draw for respect".into()
    } else if obj.contains_key("pause") {
        "clocks paused".into()
    } else if obj.contains_key("resume") {
        "clocks resumed".into()
    } else if obj.contains_key("end") {
        "end of the game's record".into()
    } else if let Some(Value::Object(counts)) = obj.get("thirty_count") {
        let n = |s: &str| counts.get(s).map_or_else(|| "?".into(), Value::to_string);
        format!(
            "thirty-move counts: White {}, Black {}",
            n("white"),
            n("black")
        )
    } else if let Some(kind) = text("perpetual") {
        let moves = kind.trim_start_matches("perpetual_");
        format!("perpetual declared ({moves} moves)")
    } else if let Some(side) = text("flag_through") {
        format!("{}'s Flag came through", side_word(side))
    } else {
        return None;
    };
    Some(words)
}

/// An event's JSON (as its record writes it) in words with its time: `move e4-e5 at 0:31`.
fn event_at(v: &Value) -> Option<(String, Option<f64>)> {
    let obj = v.as_object()?;
    Some((event_words(obj)?, obj.get("t").and_then(Value::as_f64)))
}

/// Any JSON object in plain words, for a line no rule above knows (keys without their
/// underscores, values as written).
fn plain_words(obj: &Map<String, Value>) -> String {
    let mut parts = Vec::new();
    for (k, v) in obj {
        let key = k.replace('_', " ");
        match v {
            Value::Bool(true) => parts.push(key),
            Value::Bool(false) | Value::Null => {}
            Value::String(s) => parts.push(format!("{key} {}", s.replace('_', " "))),
            Value::Number(n) if k == "t" => {
                parts.push(format!("at {}", game_time(n.as_f64().unwrap_or(0.0))))
            }
            Value::Number(n) => parts.push(format!("{key} {n}")),
            other => parts.push(format!("{key} {other}")),
        }
    }
    parts.join(", ")
}

/// A reading sheet as the store logs it (`white: {"a8":"G5",...}`, or a physical board's
/// tally `black: [["G5","G4"], ...]`) in words.
fn sheet_words(details: &str) -> Option<String> {
    let (side, json) = details.split_once(": ")?;
    if side != "white" && side != "black" {
        return None;
    }
    let value: Value = serde_json::from_str(json).ok()?;
    let readings: Vec<String> = match &value {
        Value::Object(o) => o
            .iter()
            .map(|(sq, r)| format!("{sq} as {}", r.as_str().unwrap_or("?")))
            .collect(),
        // A physical board's tally sheet: each remaining piece by its real rank, and what the
        // reader wrote for it.
        Value::Array(items) => items
            .iter()
            .filter_map(|i| {
                let pair = i.as_array()?;
                let real = pair.first()?.as_str()?;
                Some(match pair.get(1)?.as_str() {
                    Some(read) => format!("{real} read as {read}"),
                    None => format!("{real} not read"),
                })
            })
            .collect(),
        _ => return None,
    };
    let side = side_word(side);
    Some(if readings.is_empty() {
        format!("{side} read nothing (every piece abstained)")
    } else {
        format!("{side} read {}", readings.join(", "))
    })
}

/// An undo as the store logs it (`cancelled event 5: {"t":31.0,"move":"e4-e5"}`) in words:
/// `cancelled move e4-e5 (made at 0:31)`.
fn undo_words(details: &str) -> Option<String> {
    let rest = details.strip_prefix("cancelled event ")?;
    let (_, json) = rest.split_once(": ")?;
    let (what, t) = event_at(&serde_json::from_str(json).ok()?)?;
    Some(match t {
        Some(t) => format!("cancelled {what} (made at {})", game_time(t)),
        None => format!("cancelled {what}"),
    })
}

/// A correction of the last move in words: `cancelled move e4-e5 (made at 0:31), entered
/// move e4-e3 at 0:31 in its place; corrected at 0:51`.
fn correction_words(details: &str) -> Option<String> {
    let v: Value = serde_json::from_str(details).ok()?;
    let (old, t) = event_at(v.get("cancelled")?)?;
    let (new, _) = event_at(v.get("entered")?)?;
    let at = game_time(t?);
    let mut text = format!("cancelled {old} (made at {at}), entered {new} at {at} in its place");
    if let Some(c) = v.get("corrected_at").and_then(Value::as_f64) {
        text.push_str(&format!("; corrected at {}", game_time(c)));
    }
    Some(text)
}

/// An overstep as the store logs it in words: `White passed the move limit at 2:00
/// (overstep 1 of 3)`.
fn overstep_words(details: &str) -> Option<String> {
    let v: Value = serde_json::from_str(details).ok()?;
    let side = side_word(v.get("overstep")?.as_str()?);
    let t = v.get("t")?.as_f64()?;
    let count = v.get("count")?.as_u64()?;
    let of = v.get("of")?.as_u64()?;
    Some(format!(
        "{side} passed the move limit at {} (overstep {count} of {of})",
        game_time(t)
    ))
}

/// A board's result as the store names it (`white`, `black_forfeit`) in words.
fn result_words(name: &str) -> Option<&'static str> {
    use crate::tournament::GameResult;
    Some(match GameResult::from_name(name.trim())? {
        GameResult::WhiteWins => "White wins",
        GameResult::BlackWins => "Black wins",
        GameResult::Draw => "draw",
        GameResult::WhiteWinsByForfeit => "White wins by forfeit",
        GameResult::BlackWinsByForfeit => "Black wins by forfeit",
        GameResult::DoubleForfeit => "double forfeit",
        GameResult::Pending => "pending",
    })
}

/// A line about a board's result (`round 1, table 2 (...): pending -> white`) with the
/// results in words: `round 1, table 2 (...): from pending to White wins`. In words, not
/// with an arrow: the desk's font has no `→` (it showed a box), and the CSV says what the
/// desk shows.
fn board_result_words(details: &str) -> Option<String> {
    let (place, results) = details.rsplit_once(": ")?;
    let words = match results.split_once(" -> ") {
        Some((old, new)) => format!("from {} to {}", result_words(old)?, result_words(new)?),
        None => result_words(results)?.to_string(),
    };
    Some(format!("{place}: {words}"))
}

/// A game's result as the store keeps it (`white resignation`, `draw respect`) in words:
/// `White wins (resignation)`.
fn game_result_words(details: &str) -> Option<String> {
    let (who, reason) = details.split_once(' ')?;
    let who = match who {
        "white" => "White wins",
        "black" => "Black wins",
        "draw" => "Draw",
        _ => return None,
    };
    Some(format!("{who} ({})", reason.replace('_', " ")))
}

/// An audit line's details in the words a director reads: an event with its time (`move
/// e4-e5 at 0:31`, `clocks paused at 4:10`), an undo with what it cancelled (`cancelled
/// move e4-e5 (made at 0:31)`), a correction naming both moves, an overstep, the lots, a
/// reading sheet. Details no rule knows are shown as they were written.
pub fn details_in_words(action: &str, details: &str) -> String {
    let words = match action {
        "undo" => undo_words(details),
        "move corrected" => correction_words(details),
        "overstep" => overstep_words(details),
        "lots drawn" => Some(format!("{}, by lot", sentence(details))),
        "game started" => Some(sentence(details)),
        "reading sheet handed in" => sheet_words(details),
        "result from the arbiter desk" | "result entered" | "result changed" | "default loss" => {
            board_result_words(details)
        }
        "result confirmed" => game_result_words(details),
        _ => None,
    };
    if let Some(words) = words {
        return words;
    }
    match serde_json::from_str::<Value>(details) {
        Ok(Value::Object(obj)) => match event_words(&obj) {
            Some(what) => match obj.get("t").and_then(Value::as_f64) {
                Some(t) => format!("{what} at {}", game_time(t)),
                None => what,
            },
            None => plain_words(&obj),
        },
        _ => sheet_words(details).unwrap_or_else(|| details.to_string()),
    }
}

/// The round and table a line's details name when it is about no game (a director's
/// result, `round 2, table 13 (...): pending -> white`; a round's change, `round 2: ...`;
/// an absence, `player 4 (...), round 3`).
pub fn place_of(details: &str) -> (Option<u32>, Option<u32>) {
    fn number_after<'a>(text: &'a str, word: &str) -> Option<(u32, &'a str)> {
        let rest = text.strip_prefix(word)?;
        let end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        Some((rest[..end].parse().ok()?, &rest[end..]))
    }
    if let Some((round, rest)) = number_after(details, "round ") {
        let table = number_after(rest, ", table ").map(|(t, _)| t);
        return (Some(round), table);
    }
    if details.starts_with("player ")
        && let Some(i) = details.rfind(", round ")
        && let Some((round, rest)) = number_after(&details[i..], ", round ")
        && rest.is_empty()
    {
        return (Some(round), None);
    }
    (None, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_quoted_and_formula_safe() {
        let csv = audit_csv(&[AuditLine {
            at: "2026-12-12 14:03:07".into(),
            who: "arbiter (table 3)".into(),
            what: "move".into(),
            tournament: "GGF Open".into(),
            round: Some(2),
            table: Some(3),
            game: Some(17),
            reason: "=HYPERLINK(\"x\")".into(),
            details: "White: a3-a4, at 0:12".into(),
        }]);
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("at,who,what,tournament,round,table,game,reason,details")
        );
        assert_eq!(
            lines.next(),
            Some(
                "2026-12-12 14:03:07,arbiter (table 3),move,GGF Open,2,3,17,\"'=HYPERLINK(\"\"x\"\")\",\"White: a3-a4, at 0:12\""
            )
        );
    }
}

#[cfg(test)]
mod words {
    use super::*;

    #[test]
    fn events_read_as_words_with_their_time() {
        let w = |d: &str| details_in_words("move", d);
        assert_eq!(w(r#"{"t":12.5,"move":"a3-a4"}"#), "move a3-a4 at 0:12");
        assert_eq!(
            details_in_words(
                "penalty",
                r#"{"t":61.0,"penalty":"own_exposure","side":"black"}"#
            ),
            "penalty own exposure for Black at 1:01"
        );
        assert_eq!(
            details_in_words("pause", r#"{"t":250.2,"pause":true}"#),
            "clocks paused at 4:10"
        );
        assert_eq!(
            details_in_words("resume", r#"{"t":3725.0,"resume":true}"#),
            "clocks resumed at 1:02:05"
        );
        assert_eq!(
            details_in_words("challenge", r#"{"t":9.0,"challenge":["G5","SPY"]}"#),
            "challenge: G5 against SPY at 0:09"
        );
    }

    #[test]
    fn an_undo_says_what_it_cancelled_and_when_that_was_made() {
        assert_eq!(
            details_in_words("undo", r#"cancelled event 5: {"t":31.4,"move":"e4-e5"}"#),
            "cancelled move e4-e5 (made at 0:31)"
        );
        assert_eq!(
            details_in_words("undo", r#"cancelled event 7: {"t":95.0,"pause":true}"#),
            "cancelled clocks paused (made at 1:35)"
        );
    }

    #[test]
    fn a_correction_names_both_moves_and_an_overstep_its_count() {
        let details = r#"{"corrected_at":51.2,"cancelled":{"t":31.0,"move":"e4-e5"},"cancelled_seq":5,"entered":{"t":31.0,"move":"e4-e3"}}"#;
        assert_eq!(
            details_in_words("move corrected", details),
            "cancelled move e4-e5 (made at 0:31), entered move e4-e3 at 0:31 in its place; corrected at 0:51"
        );
        assert_eq!(
            details_in_words(
                "overstep",
                r#"{"t":120.0,"overstep":"white","count":1,"of":3}"#
            ),
            "White passed the move limit at 2:00 (overstep 1 of 3)"
        );
        assert_eq!(
            details_in_words("lots drawn", "black moves first"),
            "Black moves first, by lot"
        );
        assert_eq!(
            details_in_words("game started", "setups entered, white moves first"),
            "Setups entered, white moves first"
        );
    }

    #[test]
    fn results_read_as_words() {
        assert_eq!(
            details_in_words("result from the arbiter desk", "round 1, table 2: black"),
            "round 1, table 2: Black wins"
        );
        assert_eq!(
            details_in_words(
                "result changed",
                "round 2, table 13 (Reyes - Cruz): white -> draw"
            ),
            "round 2, table 13 (Reyes - Cruz): from White wins to draw"
        );
        assert_eq!(
            details_in_words(
                "result entered",
                "round 6, table 1 (7 Ana - 12 Ben): pending -> black"
            ),
            "round 6, table 1 (7 Ana - 12 Ben): from pending to Black wins"
        );
        assert_eq!(
            details_in_words("default loss", "round 3, table 1 (A - B): white_forfeit"),
            "round 3, table 1 (A - B): White wins by forfeit"
        );
        assert_eq!(
            details_in_words("result confirmed", "white flag_captured"),
            "White wins (flag captured)"
        );
        // Something else is kept as written.
        assert_eq!(
            details_in_words("result entered", "round 1, table 2: maybe"),
            "round 1, table 2: maybe"
        );
    }

    #[test]
    fn sheets_and_plain_lines() {
        assert_eq!(
            details_in_words(
                "reading sheet handed in",
                r#"white: {"a8":"G5","c6":"FLG"}"#
            ),
            "White read a8 as G5, c6 as FLG"
        );
        assert_eq!(
            details_in_words("round complete", "round 1: every result is in"),
            "round 1: every result is in"
        );
        // Something that only looks like JSON stays as written.
        assert_eq!(details_in_words("note", "{not json"), "{not json");
        // A JSON line no rule knows: keys without underscores, `t` as the game's time,
        // other numbers as written, true as the key alone, false and null left out.
        assert_eq!(
            details_in_words(
                "note",
                r#"{"bell_kind":"long_ring","t":61.5,"count":3,"loud":true,"quiet":false,"who":null}"#
            ),
            "bell kind long ring, at 1:01, count 3, loud"
        );
    }

    #[test]
    fn a_directors_line_names_its_round_and_table() {
        assert_eq!(
            place_of("round 2, table 13 (Reyes - Cruz): pending -> white"),
            (Some(2), Some(13))
        );
        assert_eq!(place_of("round 3: every result is in"), (Some(3), None));
        assert_eq!(place_of("round 4"), (Some(4), None));
        assert_eq!(place_of("player 4 (Ana Cruz), round 3"), (Some(3), None));
        assert_eq!(place_of("player 4: Ana Cruz"), (None, None));
        assert_eq!(place_of("roundabout 4"), (None, None));
    }
}
