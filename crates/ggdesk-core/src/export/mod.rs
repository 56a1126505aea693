//! CSV in and out of the desk: standings, cross-table and pairing lists written with
//! RFC 4180 quoting and formula-safe text, and the players list read in. Pure: values in,
//! strings out.
//!
//! Formula safety: a *text* field (a name, a club, an audit line's words) that begins with
//! `=`, `+`, `-`, `@`, a tab or a carriage return is written with a `'` in front, so that a
//! spreadsheet never runs it as a formula.
//! Numbers (`-1.5`, a score after a penalty) and the cross-table's own codes (`+5`, `-5`)
//! are not text typed by a person and are written as they are.

pub mod audit;
pub mod forms;
mod players;
pub mod print;
pub mod team_print;

pub use crate::csv_text::{csv_record, defuse};
pub use players::{
    ImportedPlayer, ImportedTeamPlayer, PlayersCsvError, RowError, import_players_csv,
    import_team_players_csv,
};

use crate::csv_text::csv_record as record;

use crate::pairing::Pairing;
use crate::stages::{Placed, StageStandings};
use crate::tournament::{Entry, GameOutcome, StandingRow, Standings, Tournament, standings};

/// The columns the standings and the cross-table begin with.
const LEADING: [&str; 5] = ["rank", "id", "name", "rating", "score"];

/// A player's values for [`LEADING`].
fn leading_fields(row: &StandingRow) -> Vec<String> {
    vec![
        row.rank.to_string(),
        row.id.to_string(),
        defuse(&row.name),
        row.rating.to_string(),
        row.score.to_string(),
    ]
}

/// The standings as the spec's CSV: `rank,id,name,rating,score,<tie-breaks>`, numbers in
/// plain decimal.
pub fn standings_csv(s: &Standings) -> String {
    let mut header: Vec<String> = LEADING.iter().map(|h| h.to_string()).collect();
    header.extend(s.tiebreaks.iter().map(|t| t.name().to_string()));
    let mut out = record(&header);
    for row in &s.rows {
        let mut fields = leading_fields(row);
        fields.extend(row.tiebreaks.iter().map(|v| v.to_string()));
        out.push_str(&record(&fields));
    }
    out
}

/// A stage's standings as CSV: the columns of [`standings_csv`], with a leading `group`
/// column in a stage with groups.
pub fn stage_standings_csv(s: &StageStandings) -> String {
    let mut header: Vec<String> = Vec::new();
    if s.grouped {
        header.push("group".into());
    }
    header.extend(LEADING.iter().map(|h| h.to_string()));
    header.extend(s.tiebreaks.iter().map(|t| t.name().to_string()));
    let mut out = record(&header);
    for (g, row) in &s.rows {
        let mut fields = Vec::new();
        if s.grouped {
            fields.push(g.to_string());
        }
        fields.extend(leading_fields(row));
        fields.extend(row.tiebreaks.iter().map(|v| v.to_string()));
        out.push_str(&record(&fields));
    }
    out
}

/// An event's final placement as CSV: `place,id,name,stage`.
pub fn placement_csv(rows: &[Placed]) -> String {
    placement_table(
        "id",
        rows.iter().map(|p| {
            [
                p.place.to_string(),
                p.id.to_string(),
                defuse(&p.name),
                p.stage.to_string(),
            ]
        }),
    )
}

/// A final placement's CSV: `place,<who>,name,stage`, then a row per place.
fn placement_table(who: &str, rows: impl Iterator<Item = [String; 4]>) -> String {
    let mut out = record(&["place", who, "name", "stage"].map(String::from));
    for row in rows {
        out.push_str(&record(&row));
    }
    out
}

/// A team event's standings as CSV: `rank,team,name,match_points,game_points,<tie-breaks>`
/// (the columns of `standings --teams`), numbers in plain decimal.
pub fn team_standings_csv(s: &crate::teams::TeamStandings) -> String {
    let mut header: Vec<String> = ["rank", "team", "name", "match_points", "game_points"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    header.extend(s.tiebreaks.iter().map(|t| t.name().to_string()));
    let mut out = record(&header);
    for r in &s.rows {
        let mut fields = vec![
            r.rank.to_string(),
            r.team.0.to_string(),
            defuse(&r.name),
            r.match_points.to_string(),
            r.game_points.to_string(),
        ];
        fields.extend(r.tiebreaks.iter().map(|v| v.to_string()));
        out.push_str(&record(&fields));
    }
    out
}

/// A team event's board prizes as CSV, one row per player and board, in prize order:
/// `board,id,name,team,games,points,percentage` (the percentage to two decimals, exact).
pub fn board_prizes_csv(prizes: &crate::teams::BoardPrizes) -> String {
    let header: Vec<String> = [
        "board",
        "id",
        "name",
        "team",
        "games",
        "points",
        "percentage",
    ]
    .iter()
    .map(|h| h.to_string())
    .collect();
    let mut out = record(&header);
    for (board, rows) in prizes {
        for r in rows {
            let (whole, cents) = (r.percentage_cents / 100, r.percentage_cents % 100);
            out.push_str(&record(&[
                board.to_string(),
                r.id.to_string(),
                defuse(&r.name),
                r.team.map_or_else(String::new, |t| t.0.to_string()),
                r.games.to_string(),
                r.points.to_string(),
                if cents == 0 {
                    whole.to_string()
                } else {
                    format!("{whole}.{cents:02}")
                },
            ]));
        }
    }
    out
}

/// A team event's final placement as CSV: `place,team,name,stage`.
pub fn team_placement_csv(rows: &[crate::teams::TeamPlace]) -> String {
    placement_table(
        "team",
        rows.iter().map(|p| {
            [
                p.place.to_string(),
                p.team.0.to_string(),
                defuse(&p.name),
                p.stage.to_string(),
            ]
        }),
    )
}

/// A cross-table cell of the CSV: what round `r` was for a player.
///
/// `W12`, `L3`, `D7` (played against 12, 3, 7), `W5f` / `L5f` (won / lost by forfeit
/// against 5; each side of a double forfeit loses by forfeit), `?5` (pending against 5),
/// `BYE`, `ABS` (absent, withdrawn, or not yet entered). Letters, not the printouts' `+5`
/// `=5` `-5`: a spreadsheet would read a cell beginning with `+`, `-` or `=` as a number or
/// a formula.
pub fn crosstable_cell(entry: &Entry) -> String {
    match entry {
        Entry::Game {
            opponent, outcome, ..
        } => match outcome {
            GameOutcome::Win => format!("W{opponent}"),
            GameOutcome::Loss => format!("L{opponent}"),
            GameOutcome::Draw => format!("D{opponent}"),
            GameOutcome::ForfeitWin => format!("W{opponent}f"),
            GameOutcome::ForfeitLoss | GameOutcome::DoubleForfeit => format!("L{opponent}f"),
            GameOutcome::Pending => format!("?{opponent}"),
        },
        Entry::Bye => "BYE".into(),
        Entry::Absent => "ABS".into(),
    }
}

/// The cross-table as CSV, one row per player in standings order:
/// `rank,id,name,rating,score,R1,R2,…` with a cell per round (see [`crosstable_cell`]).
pub fn crosstable_csv(t: &Tournament) -> String {
    let rounds = t.rounds().len();
    let s = standings(t, rounds);
    let entries = t.entries(rounds);
    let mut header: Vec<String> = LEADING.iter().map(|h| h.to_string()).collect();
    header.extend((1..=rounds).map(|r| format!("R{r}")));
    let mut out = record(&header);
    for row in &s.rows {
        let mut fields = leading_fields(row);
        if let Some(i) = t.player_index(row.id) {
            fields.extend(entries[i].iter().map(crosstable_cell));
        }
        out.push_str(&record(&fields));
    }
    out
}

/// The printable pairing list as CSV: `table,white_id,white,black_id,black`, one row per
/// board, then one per bye (`table` empty, `black` = `BYE`).
pub fn pairing_csv(t: &Tournament, pairing: &Pairing) -> String {
    let name = |id| t.player(id).map(|p| defuse(&p.name)).unwrap_or_default();
    let header: Vec<String> = ["table", "white_id", "white", "black_id", "black"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    let mut out = record(&header);
    for b in &pairing.games {
        out.push_str(&record(&[
            b.table.to_string(),
            b.white.to_string(),
            name(b.white),
            b.black.to_string(),
            name(b.black),
        ]));
    }
    for id in &pairing.byes {
        out.push_str(&record(&[
            String::new(),
            id.to_string(),
            name(*id),
            String::new(),
            "BYE".into(),
        ]));
    }
    out
}
