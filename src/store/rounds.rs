//! Read-only views of tournaments, rounds and boards for the desk pages.

use super::{Result, Store, StoreError};
use crate::record::parse_rules;
use crate::rules::RuleSettings;
use rusqlite::{OptionalExtension, params};
use serde_json::Value;

/// A round's state: drafted (proposed pairing), published (being played), complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundState {
    Draft,
    Published,
    Complete,
}

impl RoundState {
    pub fn code(self) -> &'static str {
        match self {
            RoundState::Draft => "draft",
            RoundState::Published => "published",
            RoundState::Complete => "complete",
        }
    }

    pub fn from_code(code: &str) -> Option<RoundState> {
        match code {
            "draft" => Some(RoundState::Draft),
            "published" => Some(RoundState::Published),
            "complete" => Some(RoundState::Complete),
            _ => None,
        }
    }
}

/// A player as seated at a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardPlayer {
    pub no: u32,
    pub name: String,
    pub rating: i64,
}

/// One board of a round with its result code (`spec/tournament.md`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub table_no: u32,
    pub white: BoardPlayer,
    pub black: BoardPlayer,
    pub result: String,
}

/// A round's number, state and official start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundInfo {
    pub number: u32,
    pub state: RoundState,
    pub starts_at: Option<i64>,
}

impl Store {
    /// Every tournament's id and name, newest first.
    pub fn tournament_names(&self) -> Result<Vec<(i64, String)>> {
        let mut stmt = self
            .conn()
            .prepare("SELECT id, name FROM tournaments ORDER BY id DESC")?;
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// The GGF rule settings a tournament's games are played under.
    pub fn tournament_rules(&self, tournament_id: i64) -> Result<RuleSettings> {
        let text: String = self
            .conn()
            .query_row(
                "SELECT rules FROM tournaments WHERE id = ?1",
                [tournament_id],
                |r| r.get(0),
            )
            .optional()?
            .ok_or_else(|| StoreError::NotFound(format!("tournament {tournament_id}")))?;
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        Ok(parse_rules(Some(&value)).unwrap_or_default())
    }

    /// The rounds of a tournament, in order.
    pub fn rounds_of(&self, tournament_id: i64) -> Result<Vec<RoundInfo>> {
        let mut stmt = self.conn().prepare(
            "SELECT number, state, starts_at FROM rounds WHERE tournament_id = ?1 ORDER BY number",
        )?;
        let rows = stmt
            .query_map([tournament_id], |r| {
                let state: String = r.get(1)?;
                Ok(RoundInfo {
                    number: r.get(0)?,
                    state: RoundState::from_code(&state).unwrap_or(RoundState::Draft),
                    starts_at: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// The round the tables are playing: the last published or complete one.
    pub fn playing_round(&self, tournament_id: i64) -> Result<Option<RoundInfo>> {
        Ok(self
            .rounds_of(tournament_id)?
            .into_iter()
            .rev()
            .find(|r| r.state != RoundState::Draft))
    }

    /// The boards of a round, by table number, with the players as registered.
    pub fn round_boards(&self, tournament_id: i64, round: u32) -> Result<Vec<Board>> {
        let mut stmt = self.conn().prepare(
            "SELECT p.table_no, p.result,
                    w.player_no, w.name, w.rating,
                    b.player_no, b.name, b.rating
             FROM pairings p
             JOIN registrations w ON w.tournament_id = p.tournament_id AND w.player_no = p.white
             JOIN registrations b ON b.tournament_id = p.tournament_id AND b.player_no = p.black
             WHERE p.tournament_id = ?1 AND p.round = ?2
             ORDER BY p.table_no",
        )?;
        let rows = stmt
            .query_map(params![tournament_id, round], |r| {
                Ok(Board {
                    table_no: r.get(0)?,
                    result: r.get(1)?,
                    white: BoardPlayer {
                        no: r.get(2)?,
                        name: r.get(3)?,
                        rating: r.get(4)?,
                    },
                    black: BoardPlayer {
                        no: r.get(5)?,
                        name: r.get(6)?,
                        rating: r.get(7)?,
                    },
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }
}
