//! `ggdesk copy`: everything from one database into another that holds no ggdesk data yet,
//! whatever the two engines, ids kept: a director prepares an event on a laptop and moves it
//! onto the server, and archives the server's event into one SQLite file afterwards.

use super::conn::Store;
use super::db::{Row, Tx, args};
use super::error::{Result, StoreError};

/// The tables that hold an event, in an order where every row's references come first.
/// (The stations of a server, with their secrets' hashes, stay with the server: a copy's
/// stations are issued new cards there.)
pub(crate) const TABLES: [(&str, &str); 25] = [
    ("players", "id"),
    ("tournaments", "id"),
    // The stages of an event (migration 6); its rounds, boards and penalties carry their
    // stage, group and match in their own rows.
    ("stages", "tournament_id, stage_no"),
    ("bans", "id"),
    ("registrations", "tournament_id, player_no"),
    ("forbidden_pairs", "tournament_id, player_a, player_b"),
    ("rounds", "tournament_id, number"),
    ("pairings", "tournament_id, round, board_no"),
    ("round_byes", "tournament_id, round, player_no"),
    // A team event (migration 10): its settings, stages, teams and rosters, and each
    // round's matches with their line-ups and team byes.
    ("team_events", "tournament_id"),
    ("team_stages", "tournament_id, stage_no"),
    ("teams", "tournament_id, team_no"),
    ("team_players", "tournament_id, team_no, position"),
    ("team_matches", "tournament_id, round, match_no"),
    ("team_boards", "tournament_id, round, match_no, board"),
    ("team_byes", "tournament_id, round, team_no"),
    ("absences", "tournament_id, round, player_no"),
    ("penalties", "id"),
    ("games", "id"),
    ("game_events", "game_id, seq"),
    ("adjudication_sheets", "game_id, side"),
    // The rating list (migration 5): first ratings, and the cache as it stands.
    ("rating_initial", "player_id"),
    ("rating_history", "tournament_id, player_id"),
    ("rating_list", "player_id"),
    ("audit_log", "id"),
];

/// The tables whose `id` a server numbers by itself: after ids are copied in, its counters
/// must continue above them.
const NUMBERED: [&str; 6] = [
    "players",
    "tournaments",
    "bans",
    "penalties",
    "games",
    "audit_log",
];

/// How many rows of each table were copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyCounts(pub Vec<(&'static str, usize)>);

impl std::fmt::Display for CopyCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(table, n)| format!("{table} {n}"))
            .collect();
        write!(f, "copied: {}", parts.join(", "))
    }
}

/// Every table's rows, read on one snapshot.
type Snapshot = Vec<(&'static str, Vec<Row>)>;

fn read_all(q: &mut Tx<'_>) -> Result<Snapshot> {
    TABLES
        .iter()
        .map(|&(table, key)| {
            Ok((
                table,
                q.query(&format!("SELECT * FROM {table} ORDER BY {key}"), args![])?,
            ))
        })
        .collect()
}

/// Whether a database holds any ggdesk data.
fn holds_data(q: &mut Tx<'_>) -> Result<Option<&'static str>> {
    for (table, _) in TABLES {
        let n: i64 = q.query_one(&format!("SELECT count(*) FROM {table}"), args![], |r| {
            r.get(0)
        })?;
        if n > 0 {
            return Ok(Some(table));
        }
    }
    Ok(None)
}

fn write_all(tx: &mut Tx<'_>, snapshot: &Snapshot) -> Result<CopyCounts> {
    let mut counts = Vec::new();
    for (table, rows) in snapshot {
        for row in rows {
            let names = row.names().join(", ");
            let marks: Vec<String> = (1..=row.names().len()).map(|i| format!("?{i}")).collect();
            tx.execute(
                &format!(
                    "INSERT INTO {table} ({names}) VALUES ({})",
                    marks.join(", ")
                ),
                row.values(),
            )?;
        }
        counts.push((*table, rows.len()));
    }
    if tx.engine() == super::db::Engine::Postgres {
        for table in NUMBERED {
            tx.execute(
                &format!(
                    "SELECT setval(pg_get_serial_sequence('{table}', 'id'), coalesce(max(id), 0) + 1, false) FROM {table}"
                ),
                args![],
            )?;
        }
    }
    Ok(CopyCounts(counts))
}

impl Store {
    /// Copies everything this database holds into `dst`, in one transaction on `dst`: all
    /// of it, or (after any failure) none of it. `dst` must hold no ggdesk data yet; the ids
    /// stay the same.
    pub fn copy_into(&self, dst: &mut Store) -> Result<CopyCounts> {
        let snapshot = self.read(read_all)?;
        let shown = dst
            .address()
            .map_or_else(|| "the destination".to_string(), |a| a.shown());
        dst.write(|tx| {
            if let Some(table) = holds_data(tx)? {
                return Err(StoreError::Rejected(format!(
                    "{shown} already holds ggdesk data (its {table} table is not empty): \
                     copy into an empty database"
                )));
            }
            write_all(tx, &snapshot)
        })
    }
}
