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

use super::db::{Row, Tx, args};
use super::rounds::{BoardPlayer, BoardStatus, RoundBoard, RoundState, RoundView};
use super::stages::RoundPlace;
use super::{Conn, Context, Result, Store, StoreError, TournamentId};
use ggdesk_core::rating::Date;
use ggdesk_core::tournament::StageNo;
use ggdesk_core::tournament::{
    Game, GameResult, Penalty, Player, PlayerId, Round, Score, Tournament,
};
use std::collections::HashMap;

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
        };
        let value = value?;
        end?;
        Ok(value)
    }

    /// A tournament as the public pages show it: the core model (its players with their
    /// names, ratings, clubs and withdrawals, its published and complete rounds, its
    /// penalties' points) and each of those rounds with its boards' states, in one read.
    /// `None` when there is no such tournament. Nothing a page does not show is read: the
    /// players have no federation id and no extra keys, penalties no reason, the rounds no
    /// explanation, and there are no forbidden pairs.
    pub fn public_tournament(
        &self,
        id: TournamentId,
    ) -> Result<Option<(Tournament, Vec<RoundView>)>> {
        self.read(|q| public_tournament_in(q, id))
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

/// A row the public views hold that this build cannot read.
fn damaged(id: TournamentId, what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        path: format!("tournament {id}"),
        detail: what.to_string(),
    }
}

pub(crate) fn public_tournament_in(
    q: &mut Tx<'_>,
    id: TournamentId,
) -> Result<Option<(Tournament, Vec<RoundView>)>> {
    let name: Option<String> =
        q.query_opt("SELECT name FROM tournaments WHERE id = ?1", [id], |r| {
            r.get(0)
        })?;
    let Some(name) = name else {
        return Ok(None);
    };
    let setup = super::tournaments::read_setup(q, id)?;
    let mut t = Tournament::new(name, setup.settings()).map_err(|e| damaged(id, e))?;

    let rows = q.query_map(
        "SELECT player_no, name, rating, club, withdrawn FROM registrations
         WHERE tournament_id = ?1 ORDER BY seq, player_no",
        [id],
        |r| {
            let no: u32 = r.get(0)?;
            (|| {
                Ok(Player {
                    club: r.get(3)?,
                    withdrawn: r.get::<i64>(4)? != 0,
                    ..Player::new(PlayerId(no), r.get::<String>(1)?, r.get(2)?)
                })
            })()
            .at("registrations", format!("tournament {id}, player {no}"))
        },
    )?;
    let mut players: HashMap<u32, BoardPlayer> = HashMap::new();
    for p in rows {
        players.insert(
            p.id.0,
            BoardPlayer {
                no: p.id.0,
                name: p.name.clone(),
                rating: p.rating,
            },
        );
        t.add_player(p).map_err(|e| damaged(id, e))?;
    }
    let player = |no: u32| {
        players.get(&no).cloned().unwrap_or(BoardPlayer {
            no,
            name: String::new(),
            rating: 0,
        })
    };

    let rows = q.query_map(
        "SELECT number, state, stage, kind FROM rounds WHERE tournament_id = ?1 AND state <> 'draft'
         ORDER BY number",
        [id],
        |r| {
            let number: u32 = r.get(0)?;
            (|| {
                Ok((
                    number,
                    r.code("state", RoundState::from_code)?,
                    StageNo(r.get(2)?),
                    r.code("kind", super::stages::parse_kind)?,
                ))
            })()
            .at("rounds", format!("tournament {id}, round {number}"))
        },
    )?;
    let places = super::stages::places(
        &rows
            .iter()
            .map(|&(n, _, stage, playoff)| (n, stage, playoff))
            .collect::<Vec<_>>(),
    );
    let rounds: Vec<(u32, RoundState, RoundPlace)> = rows
        .iter()
        .zip(places)
        .map(|(&(n, state, _, _), place)| (n, state, place))
        .collect();
    for (k, &(n, _, _)) in rounds.iter().enumerate() {
        if n as usize != k + 1 {
            return Err(damaged(id, format!("round {n} follows round {k}")));
        }
    }
    let slot =
        |round: u32| (round >= 1 && round as usize <= rounds.len()).then(|| round as usize - 1);

    // The newest live game at each table of each round: (id, started, result).
    let mut games: HashMap<(u32, u32), (i64, bool, Option<String>)> = HashMap::new();
    for (round, table, game, started, result) in q.query_map(
        "SELECT round, table_no, id, started_at IS NOT NULL, result FROM games
         WHERE tournament_id = ?1 AND void = 0 AND round IS NOT NULL AND table_no IS NOT NULL
         ORDER BY id",
        [id],
        |r| {
            let game: i64 = r.get(2)?;
            (|| Ok((r.get(0)?, r.get(1)?, game, r.get(3)?, r.get(4)?)))()
                .at("games", format!("game {game}"))
        },
    )? {
        games.insert((round, table), (game, started, result));
    }

    let mut core_rounds = vec![Round::default(); rounds.len()];
    let mut views: Vec<RoundView> = rounds
        .iter()
        .map(|&(number, state, place)| RoundView {
            number,
            state,
            place,
            starts_at: None,
            published_at: None,
            explanation: String::new(),
            boards: Vec::new(),
            byes: Vec::new(),
            absent: Vec::new(),
        })
        .collect();
    let boards = q.query_map(
        "SELECT p.round, p.board_no, p.table_no, p.table_given, p.white, p.black, p.result,
                p.group_letter, p.match_id
         FROM pairings p JOIN rounds r ON r.tournament_id = p.tournament_id AND r.number = p.round
         WHERE p.tournament_id = ?1 AND r.state <> 'draft' ORDER BY p.round, p.board_no",
        [id],
        |r| {
            let (round, board): (u32, u32) = (r.get(0)?, r.get(1)?);
            (|| {
                Ok((
                    round,
                    board,
                    r.get::<u32>(2)?,
                    r.get::<i64>(3)? != 0,
                    r.get::<u32>(4)?,
                    r.get::<u32>(5)?,
                    r.code("result", GameResult::from_name)?,
                    super::rounds::stage_of_board(r, 7)?,
                ))
            })()
            .at(
                "pairings",
                format!("tournament {id}, round {round}, board {board}"),
            )
        },
    )?;
    for (round, board_no, table_no, given, white, black, result, (group, series)) in boards {
        let Some(k) = slot(round) else { continue };
        core_rounds[k].games.push(Game {
            table: given.then_some(table_no),
            white: PlayerId(white),
            black: PlayerId(black),
            result,
        });
        let game = games.get(&(round, table_no));
        let status = match (result, game) {
            (r, _) if r != GameResult::Pending => BoardStatus::Finished,
            (_, Some((_, _, Some(res))))
                if res == ggdesk_core::record::Status::AdjudicationPending.code() =>
            {
                BoardStatus::Adjudication
            }
            (_, Some((_, false, None))) => BoardStatus::SettingUp,
            (_, Some((_, true, None))) => BoardStatus::Playing,
            _ => BoardStatus::AwaitingResult,
        };
        views[k].boards.push(RoundBoard {
            board_no,
            table_no,
            white: player(white),
            black: player(black),
            result,
            explanation: String::new(),
            status,
            game: game.map(|g| g.0),
            group,
            series,
        });
    }
    // The byes and the absences of each round: rows of the same shape.
    for (table, absent) in [("round_byes", false), ("absences", true)] {
        let rows = q.query_map(
            &format!(
                "SELECT x.round, x.player_no FROM {table} x
                 JOIN rounds r ON r.tournament_id = x.tournament_id AND r.number = x.round
                 WHERE x.tournament_id = ?1 AND r.state <> 'draft'
                 ORDER BY x.round, x.seq, x.player_no"
            ),
            [id],
            |r| Ok((r.get::<u32>(0)?, r.get::<u32>(1)?)),
        )?;
        for (round, no) in rows {
            let Some(k) = slot(round) else { continue };
            if absent {
                core_rounds[k].absent.push(PlayerId(no));
                views[k].absent.push(player(no));
            } else {
                core_rounds[k].byes.push(PlayerId(no));
                views[k].byes.push((player(no), String::new()));
            }
        }
    }
    for round in core_rounds {
        t.add_round(round).map_err(|e| damaged(id, e))?;
    }
    let penalties = q.query_map(
        "SELECT player_no, points FROM penalties WHERE tournament_id = ?1 ORDER BY id",
        [id],
        |r| Ok((r.get::<u32>(0)?, r.get::<i64>(1)?)),
    )?;
    for (no, points) in penalties {
        t.add_penalty(Penalty {
            player: PlayerId(no),
            points: Score::from_halves(points),
            reason: String::new(),
        })
        .map_err(|e| damaged(id, e))?;
    }
    // The desk's Rounds page shows the byes and absences by player number.
    for view in &mut views {
        view.byes.sort_by_key(|(p, _)| p.no);
        view.absent.sort_by_key(|p| p.no);
    }
    Ok(Some((t, views)))
}
