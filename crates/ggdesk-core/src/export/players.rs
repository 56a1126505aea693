//! Reading a players list from CSV: `name,federation_id,club,rating` with a header, extra
//! columns ignored. All rows or nothing: every bad row is reported with its line number.
//!
//! The list may carry first ratings for the rating list, as `ggdesk ratings --initial` takes
//! them: with the optional columns `deviation` and `volatility`, a row that fills both has
//! the initial rating (rating, deviation, volatility; the rating may then have decimals).

use crate::rating::Rating;
use crate::rating::list::read_number;
use std::collections::HashMap;
use std::fmt;

/// A player read from the CSV, not yet registered (the desk gives the id).
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedPlayer {
    /// The line of the file the player was on (the header is line 1).
    pub line: u64,
    pub name: String,
    pub federation_id: Option<String>,
    pub club: Option<String>,
    /// 0 when the cell is empty (an initial rating's, rounded).
    pub rating: i64,
    /// The player's first rating on the rating list, when the row gives a deviation and a
    /// volatility.
    pub initial: Option<Rating>,
}

/// One bad row: its line and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub line: u64,
    pub reason: String,
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

/// Why a players CSV was refused: every bad row, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayersCsvError {
    pub rows: Vec<RowError>,
}

impl fmt::Display for PlayersCsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.rows.iter().map(RowError::to_string).collect();
        write!(f, "{}", lines.join("; "))
    }
}

impl std::error::Error for PlayersCsvError {}

const COLUMNS: [&str; 4] = ["name", "federation_id", "club", "rating"];
/// The optional columns of an initial rating.
const INITIAL_COLUMNS: [&str; 2] = ["deviation", "volatility"];

fn bad(line: u64, reason: impl Into<String>) -> RowError {
    RowError {
        line,
        reason: reason.into(),
    }
}

/// Reads a players list. The header must name the columns `name`, `federation_id`, `club`
/// and `rating` (in any order, any case; other columns are ignored). A row needs a name; a
/// rating is an integer or empty (0); a federation id may appear only once in the file.
/// Returns every player, or every bad row and nothing else.
pub fn import_players_csv(text: &str) -> Result<Vec<ImportedPlayer>, PlayersCsvError> {
    Ok(read_rows(text, &COLUMNS)?
        .into_iter()
        .map(|(_, player)| player)
        .collect())
}

/// A player of a team event's CSV, with the name of their team.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedTeamPlayer {
    pub team: String,
    pub player: ImportedPlayer,
}

/// The columns of a team event's players list.
const TEAM_COLUMNS: [&str; 5] = ["team", "name", "federation_id", "club", "rating"];

/// Reads a team event's players list (spec/teams.md, "Teams page"): the columns of a
/// players list and `team`, one row per player, each team's roster in the file's order.
/// A row needs a team as it needs a name; otherwise as [`import_players_csv`].
pub fn import_team_players_csv(text: &str) -> Result<Vec<ImportedTeamPlayer>, PlayersCsvError> {
    Ok(read_rows(text, &TEAM_COLUMNS)?
        .into_iter()
        .map(|(team, player)| ImportedTeamPlayer { team, player })
        .collect())
}

/// Every row of a list with the columns `required`: its `team` cell (empty when the list
/// has none) and its player.
fn read_rows(
    text: &str,
    required: &[&'static str],
) -> Result<Vec<(String, ImportedPlayer)>, PlayersCsvError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    let column = read_header(text, records.next(), required)?;
    let needed = required
        .iter()
        .map(|c| column.get(c).copied().unwrap_or(0))
        .max()
        .unwrap_or(0)
        + 1;

    let mut players = Vec::new();
    let mut errors = Vec::new();
    let mut federation_ids: HashMap<String, u64> = HashMap::new();
    for rec in records {
        let rec = match rec {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, |p| line_at(text, p.byte()));
                errors.push(bad(line, format!("unreadable row: {e}")));
                continue;
            }
        };
        let line = rec.position().map_or(0, |p| line_at(text, p.byte()));
        if rec.iter().all(|f| f.trim().is_empty()) {
            continue; // a blank line, as spreadsheets leave at the end
        }
        if rec.len() < needed {
            errors.push(bad(
                line,
                format!("{} fields, the header needs at least {needed}", rec.len()),
            ));
            continue;
        }
        let team = column
            .get("team")
            .and_then(|&i| rec.get(i))
            .unwrap_or("")
            .trim()
            .to_string();
        let player = read_player(&rec, line, &column, &mut federation_ids);
        match (player, required.contains(&"team") && team.is_empty()) {
            (Ok(player), false) => players.push((team, player)),
            (Ok(_), true) => errors.push(bad(line, "the team is empty")),
            (Err(mut reasons), no_team) => {
                if no_team {
                    reasons.insert(0, "the team is empty".to_string());
                }
                errors.push(bad(line, reasons.join(", ")));
            }
        }
    }
    if errors.is_empty() {
        Ok(players)
    } else {
        Err(PlayersCsvError { rows: errors })
    }
}

/// The line (from 1) of the record at `byte` of `text`, counted from the text itself: the
/// reader's own line count skips blank lines, and a record's offset may be that of the
/// blank lines before it.
fn line_at(text: &str, byte: u64) -> u64 {
    let bytes = text.as_bytes();
    let mut end = usize::try_from(byte).unwrap_or(usize::MAX).min(bytes.len());
    while end < bytes.len() && (bytes[end] == b'\n' || bytes[end] == b'\r') {
        end += 1;
    }
    1 + bytes[..end].iter().filter(|&&b| b == b'\n').count() as u64
}

/// The header's columns we read, each with its index (the first of a column named
/// twice), refusing an empty file, an unreadable header or one that lacks a column.
fn read_header(
    text: &str,
    header: Option<csv::Result<csv::StringRecord>>,
    required: &[&'static str],
) -> Result<HashMap<&'static str, usize>, PlayersCsvError> {
    let header = match header {
        None => {
            return Err(PlayersCsvError {
                rows: vec![bad(
                    1,
                    format!(
                        "the file is empty: expected the header {}",
                        required.join(",")
                    ),
                )],
            });
        }
        Some(Err(e)) => {
            let line = e.position().map_or(1, |p| line_at(text, p.byte()));
            return Err(PlayersCsvError {
                rows: vec![bad(line, format!("unreadable header: {e}"))],
            });
        }
        Some(Ok(h)) => h,
    };
    let mut column: HashMap<&'static str, usize> = HashMap::new();
    for (i, h) in header.iter().enumerate() {
        let h = h.trim().to_ascii_lowercase();
        if let Some(c) = TEAM_COLUMNS
            .iter()
            .chain(&INITIAL_COLUMNS)
            .find(|c| **c == h)
        {
            column.entry(c).or_insert(i);
        }
    }
    let missing: Vec<&str> = required
        .iter()
        .copied()
        .filter(|c| !column.contains_key(c))
        .collect();
    if !missing.is_empty() {
        return Err(PlayersCsvError {
            rows: vec![bad(
                1,
                format!("the header lacks the column(s) {}", missing.join(", ")),
            )],
        });
    }
    Ok(column)
}

/// The player on a row at `line` that has every column the header needs, or every reason
/// the row is bad. A federation id not seen before is kept in `federation_ids` with its
/// line, even on a bad row.
fn read_player(
    rec: &csv::StringRecord,
    line: u64,
    column: &HashMap<&'static str, usize>,
    federation_ids: &mut HashMap<String, u64>,
) -> Result<ImportedPlayer, Vec<String>> {
    let cell = |c: &str| match column.get(c) {
        Some(&i) => rec.get(i).unwrap_or("").trim().to_string(),
        None => String::new(),
    };
    let name = cell("name");
    let mut reasons = Vec::new();
    if name.is_empty() {
        reasons.push("the name is empty".to_string());
    }
    let rating_text = cell("rating");
    let (deviation, volatility) = (cell("deviation"), cell("volatility"));
    let initial = initial_rating(&rating_text, &deviation, &volatility).unwrap_or_else(|r| {
        reasons.push(r);
        None
    });
    let rating = if let Some(r) = initial {
        // Ratings are far inside i64; `as` saturates anyway.
        r.rating.round() as i64
    } else if !deviation.is_empty() || !volatility.is_empty() || rating_text.is_empty() {
        // A half-given initial rating is refused above; an empty cell is 0.
        0
    } else {
        match rating_text.parse::<i64>() {
            Ok(r) => r,
            Err(_) => {
                reasons.push(format!("the rating {rating_text:?} is not a whole number"));
                0
            }
        }
    };
    let optional = |s: String| (!s.is_empty()).then_some(s);
    let federation_id = optional(cell("federation_id"));
    if initial.is_some() && federation_id.is_none() {
        reasons.push("an initial rating needs a federation id".to_string());
    }
    if let Some(f) = &federation_id {
        if let Some(first) = federation_ids.get(f) {
            reasons.push(format!("federation id {f:?} is already on line {first}"));
        } else {
            federation_ids.insert(f.clone(), line);
        }
    }
    if reasons.is_empty() {
        Ok(ImportedPlayer {
            line,
            name,
            federation_id,
            club: optional(cell("club")),
            rating,
            initial,
        })
    } else {
        Err(reasons)
    }
}

/// A row's initial rating from its rating, deviation and volatility cells: none when the
/// last two are empty, or why it is refused.
fn initial_rating(
    rating_text: &str,
    deviation: &str,
    volatility: &str,
) -> Result<Option<Rating>, String> {
    match (deviation.is_empty(), volatility.is_empty()) {
        (true, true) => Ok(None),
        (false, false) => {
            match (|| {
                Rating::checked(
                    read_number("rating", rating_text)?,
                    read_number("deviation", deviation)?,
                    read_number("volatility", volatility)?,
                )
            })() {
                Ok(r) => Ok(Some(r)),
                Err(e) => Err(format!("initial rating: {e}")),
            }
        }
        _ => Err("an initial rating needs both a deviation and a volatility".to_string()),
    }
}

#[cfg(test)]
mod team_tests {
    use super::*;

    #[test]
    fn a_team_list_keeps_each_row_with_its_team_in_file_order() {
        let text = "team,name,federation_id,club,rating\n\
                    Tigers,\"Reyes, Ana\",PH-1,Tondo,1710\n\
                    Tigers,Bo Cruz,,,1600\n\
                    Eagles,Cy Lim,PH-3,,\n";
        let rows = import_team_players_csv(text).expect("read");
        let seen: Vec<(&str, &str, u64, i64)> = rows
            .iter()
            .map(|r| {
                (
                    r.team.as_str(),
                    r.player.name.as_str(),
                    r.player.line,
                    r.player.rating,
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("Tigers", "Reyes, Ana", 2, 1710),
                ("Tigers", "Bo Cruz", 3, 1600),
                ("Eagles", "Cy Lim", 4, 0)
            ]
        );
    }

    #[test]
    fn a_team_list_names_every_bad_row() {
        let text = "team,name,federation_id,club,rating\n,Ana,,,1\nT,,,,x\n";
        let e = import_team_players_csv(text).expect_err("refused");
        assert_eq!(
            e.to_string(),
            "line 2: the team is empty; line 3: the name is empty, the rating \"x\" is not a whole number"
        );
        let e = import_team_players_csv("name,federation_id,club,rating\n").expect_err("refused");
        assert_eq!(e.to_string(), "line 1: the header lacks the column(s) team");
        // A players list still reads without the team column.
        assert!(import_players_csv("name,federation_id,club,rating\nAna,,,1\n").is_ok());
    }
}
