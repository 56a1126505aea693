//! What the public pages read: one consistent moment of the database for a whole page's
//! worth of reads, and a tournament as the pages show it, read from what the public may
//! see alone.
//!
//! On an event server the pages' connection reads as the database's public role, whose only
//! privileges are the views of schema `ggdesk_public` (migration 4), named like the tables
//! and alone on its search_path: published and complete rounds, and of them names, numbers,
//! ratings, clubs, results, states and points; no federation id, registration extra,
//! penalty reason, absence reason, forbidden pair, pairing explanation, setup, event,
//! reading sheet, audit detail or draft. The statements below read only those columns, so
//! they run the same on a SQLite file (its tables) and on the views.
//!
//! The rating list is read from the views `public_rating_list` and `public_rating_history`
//! (migration 5), which exist under the same names on a SQLite file and in both schemas of
//! a server (the public role's `ggdesk_public` among them): the rank, federation id, name
//! and numbers of each rated player, and of each rated event the event's name and date and
//! what it was for the player. Nothing of the registry beyond those columns.

use super::conn::{Conn, Store};
use super::db::{Row, args};
use super::error::{Context, Result, StoreError};
use ggdesk_core::rating::Date;
use ggdesk_core::tournament::Score;
use ggdesk_core::tournament::TournamentId;

/// A player on the rating list, as the public may see them (`public_rating_list`).
#[derive(Debug, Clone, PartialEq)]
pub struct PublicRatingRow {
    /// 1, 2, 3, … as `ggdesk ratings` ranks (rating, then federation id).
    pub rank: u32,
    pub federation_id: String,
    /// The name in the player's latest rated event.
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games and events in which the player had one.
    pub games: u32,
    pub events: u32,
    /// The date of the latest of those events (none for a first rating without a game).
    pub last_event: Option<Date>,
}

/// One rated event of a player's history, as the public may see it
/// (`public_rating_history`).
#[derive(Debug, Clone, PartialEq)]
pub struct PublicRatingEvent {
    pub tournament: TournamentId,
    /// The tournament's name, and the date it was rated with.
    pub event: String,
    pub date: Date,
    /// The player's name in that event.
    pub name: String,
    pub before: f64,
    pub before_deviation: f64,
    pub after: f64,
    pub after_deviation: f64,
    pub games: u32,
    pub score: Score,
    /// The sum of the expected scores against the opponents' pre-event ratings.
    pub expected: f64,
}

const RATING_LIST_COLUMNS: &str =
    "rank, federation_id, name, rating, deviation, volatility, games, events, last_event";

fn date_in(text: &str, table: &'static str, row: impl std::fmt::Display) -> Result<Date> {
    Date::parse(text).map_err(|e| StoreError::Damaged {
        table,
        row: row.to_string(),
        detail: e.to_string(),
    })
}

/// A row selected with [`RATING_LIST_COLUMNS`].
fn rating_row(r: &Row) -> Result<PublicRatingRow> {
    let id: String = r.get(1).at("public_rating_list", "a row")?;
    let at = || format!("player {id}");
    let (rank, name, rating, deviation, volatility, games, events, last): (
        u32,
        String,
        f64,
        f64,
        f64,
        u32,
        u32,
        Option<String>,
    ) = (|| {
        Ok((
            r.get(0)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
            r.get(6)?,
            r.get(7)?,
            r.get(8)?,
        ))
    })()
    .at("public_rating_list", at())?;
    let last_event = match last {
        Some(text) => Some(date_in(&text, "public_rating_list", at())?),
        None => None,
    };
    Ok(PublicRatingRow {
        rank,
        federation_id: id,
        name,
        rating,
        deviation,
        volatility,
        games,
        events,
        last_event,
    })
}

impl Store {
    /// Runs `f` inside one read snapshot, so that everything it reads comes from the same
    /// moment of the database: a write committed meanwhile is seen by the next call, never
    /// half by this one. Nothing is written. (SQLite: one deferred transaction; PostgreSQL:
    /// one `REPEATABLE READ READ ONLY` transaction.)
    pub fn read_consistent<T>(&self, f: impl FnOnce(&Store) -> Result<T>) -> Result<T> {
        if self.snapshot.get() {
            return f(self);
        }
        match &mut *self.borrow()? {
            Conn::Sqlite(c) => {
                if !c.is_autocommit() {
                    // A read left open by an earlier call that did not finish: end it first.
                    c.execute_batch("ROLLBACK")?;
                }
                c.execute_batch("BEGIN DEFERRED")?;
            }
            Conn::Postgres(pg) => pg.begin_snapshot()?,
            Conn::Station(_) => return Err(super::remote::not_at_a_station("this read")),
        }
        self.snapshot.set(true);
        let value = f(self);
        self.snapshot.set(false);
        let ok = value.is_ok();
        let end = match &mut *self.borrow()? {
            Conn::Sqlite(c) => c
                .execute_batch(if ok { "COMMIT" } else { "ROLLBACK" })
                .map_err(Into::into),
            Conn::Postgres(pg) => pg.end_snapshot(ok),
            Conn::Station(_) => Ok(()),
        };
        let value = value?;
        end?;
        Ok(value)
    }

    /// How many players the rating list holds.
    pub fn public_rating_count(&self) -> Result<u32> {
        self.read(|q| {
            q.query_row(
                "SELECT CAST(count(*) AS BIGINT) FROM public_rating_list",
                args![],
                |r| r.get(0),
            )
        })
    }

    /// The rating list by rank, as the public pages show it.
    pub fn public_rating_list(&self) -> Result<Vec<PublicRatingRow>> {
        self.read(|q| {
            q.query_map(
                &format!("SELECT {RATING_LIST_COLUMNS} FROM public_rating_list ORDER BY rank"),
                args![],
                rating_row,
            )
        })
    }

    /// A player of the rating list by federation id, with their rated events oldest first
    /// (by date, then tournament); `None` when the list has no such player.
    pub fn public_rating_player(
        &self,
        federation_id: &str,
    ) -> Result<Option<(PublicRatingRow, Vec<PublicRatingEvent>)>> {
        self.read(|q| {
            let Some(row) = q.query_opt(
                &format!(
                    "SELECT {RATING_LIST_COLUMNS} FROM public_rating_list WHERE federation_id = ?1"
                ),
                args![federation_id],
                rating_row,
            )?
            else {
                return Ok(None);
            };
            let mut events = q.query_map(
                "SELECT tournament_id, event, date, name, before_rating, before_deviation,
                        after_rating, after_deviation, games, score_halves, expected
                 FROM public_rating_history WHERE federation_id = ?1",
                args![federation_id],
                |r| {
                    let tournament: TournamentId = r.get(0).at("public_rating_history", "a row")?;
                    let at = || format!("player {federation_id}, tournament {tournament}");
                    let (event, date, name): (String, Option<String>, String) =
                        (|| Ok((r.get(1)?, r.get(2)?, r.get(3)?)))()
                            .at("public_rating_history", at())?;
                    let date = date_in(
                        date.as_deref().unwrap_or("(none)"),
                        "public_rating_history",
                        at(),
                    )?;
                    (|| {
                        Ok(PublicRatingEvent {
                            tournament,
                            event,
                            date,
                            name,
                            before: r.get(4)?,
                            before_deviation: r.get(5)?,
                            after: r.get(6)?,
                            after_deviation: r.get(7)?,
                            games: r.get(8)?,
                            score: Score::from_halves(r.get(9)?),
                            expected: r.get(10)?,
                        })
                    })()
                    .at("public_rating_history", at())
                },
            )?;
            events.sort_by_key(|e| (e.date, e.tournament));
            Ok(Some((row, events)))
        })
    }
}
