//! The rating list in the database (`spec/ratings.md`, migration 5): a completed tournament
//! is marked rated by the director with its date; the list and every player's history are a
//! cache computed by the core's fold (`ggdesk_core::rating`) from the rated events in date
//! order, rebuilt in the transaction of whatever changes them (a rated event's result, its
//! mark or date, a federation id, first ratings), with the change named in the audit log.
//!
//! The list is keyed by the registry player; a player is rated while the registry gives them
//! a federation id (the spec's rule for files: a player without one is not rated). A rebuild
//! after a change in event E replays the cached reports of the events before E and rates E
//! and every later event again, which is what rating all of them from scratch gives
//! (`Ratings::replay`); changes that touch every event (first ratings, who is rated) rebuild
//! from the first event.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::{Tx, args};
use super::error::{Context, Result, StoreError};
use ggdesk_core::rating::{
    Config, Date, EventReport, Played, PlayerEvent, RatedEvent, RatedGame, Rating, Ratings,
    Standing, check_mark, check_unmark, event_words,
};
use ggdesk_core::tournament::RegistryId;
use ggdesk_core::tournament::TournamentId;
use ggdesk_core::tournament::{GameResult, PlayerId, Score};
use std::collections::{BTreeMap, HashMap};

/// A player on the list.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingRow {
    pub rank: u32,
    pub player: RegistryId,
    pub federation_id: String,
    pub standing: Standing,
}

/// One rated event of a player's history.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingHistoryRow {
    pub tournament: TournamentId,
    pub event: String,
    pub date: Date,
    pub rated: PlayerEvent,
}

/// One player of an event's rating report.
#[derive(Debug, Clone, PartialEq)]
pub struct EventRatingRow {
    pub player: RegistryId,
    pub federation_id: String,
    pub rated: PlayerEvent,
}

/// A tournament as the Ratings page lists it: rated (with its date) or not, and whether it
/// can be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingEvent {
    pub id: TournamentId,
    pub name: String,
    pub rated: Option<Date>,
    /// Why it cannot be marked rated (not complete), if so.
    pub not_ready: Option<String>,
    /// The `date` of the tournament file it was imported from, if it had one.
    pub file_date: Option<String>,
}

/// What a rebuild changed: the names of the players whose rating or standing moved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Rebuilt {
    pub changed: Vec<String>,
}

impl Rebuilt {
    /// "3 ratings changed: Reyes, Ana; Cruz, Ben; Lim, Cy" (at most ten names).
    fn describe(&self) -> String {
        let n = self.changed.len();
        if n == 0 {
            return "no rating changed".into();
        }
        let shown: Vec<&str> = self.changed.iter().take(10).map(String::as_str).collect();
        let more = if n > 10 {
            format!(" and {} more", n - 10)
        } else {
            String::new()
        };
        format!(
            "{n} rating{} changed: {}{more}",
            if n == 1 { "" } else { "s" },
            shown.join("; ")
        )
    }
}

fn parse_date(text: &str, table: &'static str, row: impl std::fmt::Display) -> Result<Date> {
    Date::parse(text).map_err(|e| StoreError::Damaged {
        table,
        row: row.to_string(),
        detail: e.to_string(),
    })
}

/// The rated events in rating order (date, then tournament id): id, name, date.
fn rated_events(tx: &mut Tx<'_>) -> Result<Vec<(TournamentId, String, Date)>> {
    let rows = tx.query_map(
        "SELECT id, name, rated_date FROM tournaments WHERE rated_date IS NOT NULL",
        args![],
        |r| {
            let id: TournamentId = r.get(0)?;
            let name: String = r.get(1).at("tournaments", format!("tournament {id}"))?;
            let date: String = r.get(2).at("tournaments", format!("tournament {id}"))?;
            Ok((id, name, date))
        },
    )?;
    let mut events = rows
        .into_iter()
        .map(|(id, name, date)| {
            Ok((
                id,
                name,
                parse_date(&date, "tournaments", format!("tournament {id}"))?,
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    events.sort_by_key(|(id, _, date)| (*date, *id));
    Ok(events)
}

/// First ratings of the players the registry rates (a federation id).
fn initial(tx: &mut Tx<'_>) -> Result<Vec<(RegistryId, String, Rating)>> {
    let rows = tx.query_map(
        "SELECT i.player_id, p.name, i.rating, i.deviation, i.volatility
         FROM rating_initial i JOIN players p ON p.id = i.player_id
         WHERE p.federation_id <> ''",
        args![],
        |r| {
            let id: i64 = r.get(0)?;
            (|| Ok((r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))()
                .at("rating_initial", format!("player {id}"))
                .map(|v: (String, f64, f64, f64)| (id, v))
        },
    )?;
    rows.into_iter()
        .map(|(id, (name, rating, deviation, volatility))| {
            let r = Rating::checked(rating, deviation, volatility).map_err(|detail| {
                StoreError::Damaged {
                    table: "rating_initial",
                    row: format!("player {id}"),
                    detail,
                }
            })?;
            Ok((RegistryId(id), name, r))
        })
        .collect()
}

/// The rated games of a tournament (the core's games over the board, in published or
/// complete rounds; of a team event, its players' games in every stage, playoffs included)
/// between players the registry rates; and the name each rated player has in it. A team
/// event's players are registrations as an event of players' are.
fn event_games(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    name: &str,
    date: Date,
) -> Result<RatedEvent<RegistryId>> {
    let players = tx.query_map(
        "SELECT r.player_no, r.player_id, r.name FROM registrations r
         JOIN players p ON p.id = r.player_id
         WHERE r.tournament_id = ?1 AND p.federation_id <> ''",
        args![tid],
        |r| {
            Ok((
                PlayerId(r.get(0)?),
                RegistryId(r.get(1)?),
                r.get::<String>(2)?,
            ))
        },
    )?;
    let key: HashMap<PlayerId, RegistryId> = players.iter().map(|(no, id, _)| (*no, *id)).collect();
    let names: BTreeMap<RegistryId, String> =
        players.into_iter().map(|(_, id, n)| (id, n)).collect();
    let played = if super::team_rows::is_team_event(tx, tid)? {
        super::team_rows::load(tx, tid)?.0.games_over_the_board()
    } else {
        super::event_rows::load(tx, tid, super::event_rows::Reader::Desk)?.games_over_the_board()
    };
    let games = played
        .into_iter()
        .filter_map(|(w, b, result)| {
            Some(RatedGame {
                white: *key.get(&w)?,
                black: *key.get(&b)?,
                result: match result {
                    GameResult::WhiteWins => Played::WhiteWins,
                    GameResult::BlackWins => Played::BlackWins,
                    _ => Played::Draw,
                },
            })
        })
        .collect();
    Ok(RatedEvent {
        name: name.to_string(),
        date,
        names,
        games,
    })
}

const HISTORY_COLUMNS: &str = "h.player_id, h.name, h.before_rating, h.before_deviation,
     h.before_volatility, h.after_rating, h.after_deviation, h.after_volatility, h.games,
     h.score, h.expected";

/// A `rating_history` row (selected with [`HISTORY_COLUMNS`] first).
fn history_row(r: &super::db::Row) -> Result<(RegistryId, PlayerEvent)> {
    let id: i64 = r.get(0)?;
    (|| {
        let rating = |i: usize| -> Result<Rating> {
            Ok(Rating {
                rating: r.get(i)?,
                deviation: r.get(i + 1)?,
                volatility: r.get(i + 2)?,
            })
        };
        Ok((
            RegistryId(id),
            PlayerEvent {
                name: r.get(1)?,
                before: rating(2)?,
                after: rating(5)?,
                games: r.get(8)?,
                score: Score::from_halves(r.get(9)?),
                expected: r.get(10)?,
            },
        ))
    })()
    .at("rating_history", format!("player {id}"))
}

/// The cached report of a rated event.
fn cached_report(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    date: Date,
) -> Result<EventReport<RegistryId>> {
    let players = tx.query_map(
        &format!("SELECT {HISTORY_COLUMNS} FROM rating_history h WHERE h.tournament_id = ?1"),
        args![tid],
        history_row,
    )?;
    Ok(EventReport {
        date,
        players: players.into_iter().collect(),
    })
}

/// The list as cached: registry player -> standing.
fn cached_list(tx: &mut Tx<'_>) -> Result<BTreeMap<RegistryId, Standing>> {
    let rows = tx.query_map(
        "SELECT player_id, name, rating, deviation, volatility, games, events, last_event
         FROM rating_list",
        args![],
        |r| {
            let id: i64 = r.get(0)?;
            let row = (|| {
                Ok((
                    r.get::<String>(1)?,
                    Rating {
                        rating: r.get(2)?,
                        deviation: r.get(3)?,
                        volatility: r.get(4)?,
                    },
                    r.get::<u32>(5)?,
                    r.get::<u32>(6)?,
                    r.get::<Option<String>>(7)?,
                ))
            })()
            .at("rating_list", format!("player {id}"))?;
            Ok((id, row))
        },
    )?;
    rows.into_iter()
        .map(|(id, (name, rating, games, events, last))| {
            let last_event = last
                .map(|d| parse_date(&d, "rating_list", format!("player {id}")))
                .transpose()?;
            Ok((
                RegistryId(id),
                Standing {
                    name,
                    rating,
                    games,
                    events,
                    last_event,
                },
            ))
        })
        .collect()
}

/// Where a rebuild starts: the first rated event at or after this place in rating order
/// (`None`: from the first event).
type From = Option<(Date, TournamentId)>;

/// Rebuilds the cache from `from` on, inside the caller's transaction: the events before it
/// replayed from their cached reports, it and every later one rated again, the list rows that
/// changed rewritten, and the registrations of tournaments not yet started given the new
/// ratings (they seed by the list).
pub(crate) fn rebuild(tx: &mut Tx<'_>, from: From) -> Result<Rebuilt> {
    let events = rated_events(tx)?;
    let start = match from {
        None => 0,
        Some(place) => events
            .iter()
            .position(|(id, _, date)| (*date, *id) >= place)
            .unwrap_or(events.len()),
    };
    let mut ratings = Ratings::new(Config::default(), initial(tx)?);
    for (id, _, date) in &events[..start] {
        let report = cached_report(tx, *id, *date)?;
        ratings.replay(&report);
    }
    // Reports of events no longer rated go; those from `start` on are written again.
    tx.execute(
        "DELETE FROM rating_history WHERE tournament_id IN
             (SELECT id FROM tournaments WHERE rated_date IS NULL)",
        args![],
    )?;
    for (id, name, date) in &events[start..] {
        tx.execute(
            "DELETE FROM rating_history WHERE tournament_id = ?1",
            args![id],
        )?;
        let event = event_games(tx, *id, name, *date)?;
        let report = ratings.rate(&event);
        for (player, p) in &report.players {
            tx.execute(
                "INSERT INTO rating_history (tournament_id, player_id, name, before_rating,
                     before_deviation, before_volatility, after_rating, after_deviation,
                     after_volatility, games, score, expected)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                args![
                    id,
                    player.0,
                    p.name,
                    p.before.rating,
                    p.before.deviation,
                    p.before.volatility,
                    p.after.rating,
                    p.after.deviation,
                    p.after.volatility,
                    p.games,
                    p.score.halves(),
                    p.expected
                ],
            )?;
        }
    }
    // The list: only the rows that changed are written.
    let old = cached_list(tx)?;
    let mut rebuilt = Rebuilt::default();
    let new: BTreeMap<RegistryId, Standing> = ratings
        .list()
        .into_iter()
        .map(|row| (row.key, row.standing))
        .collect();
    for (player, s) in &new {
        if old.get(player) == Some(s) {
            continue;
        }
        if old.get(player).map(|o| o.rating) != Some(s.rating) {
            rebuilt.changed.push(s.name.clone());
        }
        let last = s.last_event.map(|d| d.to_string());
        let values = args![
            player.0,
            s.name,
            s.rating.rating,
            s.rating.deviation,
            s.rating.volatility,
            s.games,
            s.events,
            last
        ];
        if old.contains_key(player) {
            tx.execute(
                "UPDATE rating_list SET name = ?2, rating = ?3, deviation = ?4, volatility = ?5,
                        games = ?6, events = ?7, last_event = ?8
                 WHERE player_id = ?1",
                values,
            )?;
        } else {
            tx.execute(
                "INSERT INTO rating_list (player_id, name, rating, deviation, volatility, games,
                        events, last_event)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                values,
            )?;
        }
        seed_registrations(tx, *player, Some(s.rating.rating))?;
    }
    for (player, s) in &old {
        if !new.contains_key(player) {
            tx.execute(
                "DELETE FROM rating_list WHERE player_id = ?1",
                args![player.0],
            )?;
            rebuilt.changed.push(s.name.clone());
            seed_registrations(tx, *player, None)?;
        }
    }
    rebuilt.changed.sort();
    Ok(rebuilt)
}

/// The rating a registration of `player` takes: the list's, rounded; off the list, the
/// registry's own.
fn seed_registrations(tx: &mut Tx<'_>, player: RegistryId, listed: Option<f64>) -> Result<()> {
    let rating: i64 = match listed {
        Some(r) => list_rating(r),
        None => tx.query_one(
            "SELECT rating FROM players WHERE id = ?1",
            args![player.0],
            |r| r.get(0),
        )?,
    };
    tx.execute(
        "UPDATE registrations SET rating = ?1
         WHERE player_id = ?2 AND rating <> ?1 AND NOT EXISTS
               (SELECT 1 FROM rounds r WHERE r.tournament_id = registrations.tournament_id
                AND r.state <> 'draft')",
        args![rating, player.0],
    )?;
    Ok(())
}

/// A list rating as the whole number a registration and the pairing use.
fn list_rating(r: f64) -> i64 {
    // Ratings are far inside i64; `as` saturates anyway.
    r.round() as i64
}

/// Gives the registrations of `player` in tournaments not yet started the list's rating,
/// if the player is listed (after the registry wrote its own).
pub(crate) fn reseed(tx: &mut Tx<'_>, player: RegistryId) -> Result<()> {
    let listed: Option<f64> = tx.query_opt(
        "SELECT rating FROM rating_list WHERE player_id = ?1",
        args![player.0],
        |r| {
            r.get::<f64>(0)
                .at("rating_list", format!("player {player}"))
        },
    )?;
    match listed {
        Some(r) => seed_registrations(tx, player, Some(r)),
        None => Ok(()),
    }
}

/// The rating a new registration of `player` takes from the list (rounded), if listed.
pub(crate) fn listed_rating(tx: &mut Tx<'_>, player: RegistryId) -> Result<Option<i64>> {
    tx.query_opt(
        "SELECT rating FROM rating_list WHERE player_id = ?1",
        args![player.0],
        |r| {
            r.get::<f64>(0)
                .at("rating_list", format!("player {player}"))
        },
    )
    .map(|r| r.map(list_rating))
}

/// After `what` changed the games of tournament `tid` (a result, a round re-paired), inside
/// its transaction: when the tournament is rated, the list is rebuilt from it on and the
/// audit log says what changed.
pub(crate) fn after_change(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    what: &str,
    actor: &Actor,
    reason: &str,
) -> Result<()> {
    let Some((name, date)) = rated_date(tx, tid)? else {
        return Ok(());
    };
    let rebuilt = rebuild(tx, Some((date, tid))).map_err(|e| match e {
        StoreError::Denied(m) => StoreError::Denied(format!(
            "{m}: {} is a rated event; its results change the rating list, which only the \
             director's desk may write",
            display(&name, tid)
        )),
        other => other,
    })?;
    audit(
        tx,
        actor,
        "ratings recomputed",
        Some(tid),
        None,
        reason,
        &format!(
            "{what} of the rated event {} ({date}) changed: {}",
            display(&name, tid),
            rebuilt.describe()
        ),
    )
}

/// After the registry changed who is rated or a first rating: the whole list is rebuilt,
/// and the audit log says what changed (nothing is written when nothing did).
pub(crate) fn after_registry_change(tx: &mut Tx<'_>, actor: &Actor, why: &str) -> Result<()> {
    let rebuilt = rebuild(tx, None)?;
    if rebuilt.changed.is_empty() {
        return Ok(());
    }
    audit(
        tx,
        actor,
        "ratings recomputed",
        None,
        None,
        "",
        &format!("{why}: {}", rebuilt.describe()),
    )
}

/// A tournament's name and rated date, if it is rated.
fn rated_date(tx: &mut Tx<'_>, tid: TournamentId) -> Result<Option<(String, Date)>> {
    let row: Option<(String, Option<String>)> = tx.query_opt(
        "SELECT name, rated_date FROM tournaments WHERE id = ?1",
        args![tid],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let Some((name, date)) = row else {
        return Err(StoreError::NotFound(format!("tournament {tid}")));
    };
    date.map(|d| {
        Ok((
            name,
            parse_date(&d, "tournaments", format!("tournament {tid}"))?,
        ))
    })
    .transpose()
}

fn display(name: &str, tid: TournamentId) -> String {
    event_words(name, tid)
}

/// Why tournament `tid` cannot be rated yet (`None`: it can): the core's answer on its
/// event, an event of players or a team event (whose draft rounds, which the event read
/// from the desk leaves out, the core is told of).
fn not_ready(tx: &mut Tx<'_>, tid: TournamentId) -> Result<Option<String>> {
    if super::team_rows::is_team_event(tx, tid)? {
        let drafts: i64 = tx.query_one(
            "SELECT COUNT(*) FROM rounds WHERE tournament_id = ?1 AND state = ?2",
            args![tid, ggdesk_core::event::RoundState::Draft.code()],
            |r| r.get(0),
        )?;
        let (event, _) = super::team_rows::load(tx, tid)?;
        return Ok(event.not_ready_to_rate(usize::try_from(drafts).unwrap_or(usize::MAX)));
    }
    let event = super::event_rows::load(tx, tid, super::event_rows::Reader::Desk)?;
    Ok(event.not_ready_to_rate())
}

/// Every tournament with its rating state, for the Ratings page: whether it can be rated
/// is the core's answer on its event (a team event's too).
fn rating_events_in(tx: &mut Tx<'_>) -> Result<Vec<RatingEvent>> {
    let rows = tx.query_map(
        "SELECT id, name, rated_date, extra FROM tournaments ORDER BY id DESC",
        args![],
        |r| {
            let id: TournamentId = r.get(0)?;
            (|| {
                Ok((
                    r.get::<String>(1)?,
                    r.get::<Option<String>>(2)?,
                    r.get::<String>(3)?,
                ))
            })()
            .at("tournaments", format!("tournament {id}"))
            .map(|row| (id, row))
        },
    )?;
    rows.into_iter()
        .map(|(id, (name, rated, extra))| {
            let not_ready = not_ready(tx, id)?;
            let file_date = serde_json::from_str::<serde_json::Value>(&extra)
                .ok()
                .and_then(|v| v.get("date").and_then(|d| d.as_str()).map(str::to_string));
            Ok(RatingEvent {
                id,
                name,
                rated: rated
                    .map(|d| parse_date(&d, "tournaments", format!("tournament {id}")))
                    .transpose()?,
                not_ready,
                file_date,
            })
        })
        .collect()
}

/// The list in order (highest rating, then federation id; ranks 1, 2, 3, …).
fn list_in(tx: &mut Tx<'_>) -> Result<Vec<RatingRow>> {
    let list = cached_list(tx)?;
    let fids: HashMap<RegistryId, String> = tx
        .query_map(
            "SELECT l.player_id, p.federation_id FROM rating_list l
             JOIN players p ON p.id = l.player_id",
            args![],
            |r| Ok((RegistryId(r.get(0)?), r.get(1)?)),
        )?
        .into_iter()
        .collect();
    let mut rows: Vec<RatingRow> = list
        .into_iter()
        .map(|(player, standing)| RatingRow {
            rank: 0,
            player,
            federation_id: fids.get(&player).cloned().unwrap_or_default(),
            standing,
        })
        .collect();
    rows.sort_by(|a, b| {
        b.standing
            .rating
            .rating
            .total_cmp(&a.standing.rating.rating)
            .then_with(|| a.federation_id.cmp(&b.federation_id))
    });
    for (i, r) in rows.iter_mut().enumerate() {
        r.rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
    }
    Ok(rows)
}

impl Store {
    /// The rating list in order, as cached.
    pub fn rating_list(&self) -> Result<Vec<RatingRow>> {
        self.read(list_in)
    }

    /// The rating list computed from scratch from the rated events, without writing
    /// anything: what the cache must hold.
    pub fn rating_list_from_scratch(&self) -> Result<Vec<RatingRow>> {
        self.read(|tx| {
            let fids: HashMap<RegistryId, String> = tx
                .query_map("SELECT id, federation_id FROM players", args![], |r| {
                    Ok((RegistryId(r.get(0)?), r.get(1)?))
                })?
                .into_iter()
                .collect();
            let mut ratings = Ratings::new(Config::default(), initial(tx)?);
            for (id, name, date) in rated_events(tx)? {
                let event = event_games(tx, id, &name, date)?;
                ratings.rate(&event);
            }
            let mut rows: Vec<RatingRow> = ratings
                .list()
                .into_iter()
                .map(|row| RatingRow {
                    rank: 0,
                    player: row.key,
                    federation_id: fids.get(&row.key).cloned().unwrap_or_default(),
                    standing: row.standing,
                })
                .collect();
            rows.sort_by(|a, b| {
                b.standing
                    .rating
                    .rating
                    .total_cmp(&a.standing.rating.rating)
                    .then_with(|| a.federation_id.cmp(&b.federation_id))
            });
            for (i, r) in rows.iter_mut().enumerate() {
                r.rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
            }
            Ok(rows)
        })
    }

    /// A player's rated events, oldest first.
    pub fn rating_history(&self, player: RegistryId) -> Result<Vec<RatingHistoryRow>> {
        self.read(|tx| {
            let rows = tx.query_map(
                &format!(
                    "SELECT {HISTORY_COLUMNS}, t.id, t.name, t.rated_date FROM rating_history h
                     JOIN tournaments t ON t.id = h.tournament_id
                     WHERE h.player_id = ?1"
                ),
                args![player.0],
                |r| {
                    let (_, rated) = history_row(r)?;
                    let tid: TournamentId = r.get(11)?;
                    let event: String = r.get(12)?;
                    let date: Option<String> = r.get(13)?;
                    Ok((tid, event, date, rated))
                },
            )?;
            let mut out = rows
                .into_iter()
                .map(|(tournament, event, date, rated)| {
                    let date = parse_date(
                        date.as_deref().unwrap_or(""),
                        "tournaments",
                        format!("tournament {tournament}"),
                    )?;
                    Ok(RatingHistoryRow {
                        tournament,
                        event,
                        date,
                        rated,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            out.sort_by_key(|h| (h.date, h.tournament));
            Ok(out)
        })
    }

    /// The rating report of a rated event: each player of its period (before, after,
    /// games, score, expected), by name.
    pub fn event_ratings(&self, tid: TournamentId) -> Result<Vec<EventRatingRow>> {
        self.read(|tx| {
            let rows = tx.query_map(
                &format!(
                    "SELECT {HISTORY_COLUMNS}, p.federation_id FROM rating_history h
                     JOIN players p ON p.id = h.player_id WHERE h.tournament_id = ?1"
                ),
                args![tid],
                |r| {
                    let (player, rated) = history_row(r)?;
                    Ok(EventRatingRow {
                        player,
                        federation_id: r.get(11)?,
                        rated,
                    })
                },
            )?;
            let mut rows = rows;
            rows.sort_by(|a, b| {
                ggdesk_core::export::print::sort_key(&a.rated.name)
                    .cmp(&ggdesk_core::export::print::sort_key(&b.rated.name))
                    .then(a.player.cmp(&b.player))
            });
            Ok(rows)
        })
    }

    /// Every tournament with whether it is rated (and on which date) or can be.
    pub fn rating_events(&self) -> Result<Vec<RatingEvent>> {
        self.read(rating_events_in)
    }

    /// Marks a completed tournament rated with the date of its last day of play, or moves
    /// the date of one already rated; the list is rebuilt from it on, in the same
    /// transaction.
    pub fn mark_rated(&mut self, tid: TournamentId, date: Date, actor: &Actor) -> Result<()> {
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", args![tid])?;
            let old = rated_date(tx, tid)?;
            let event = rating_events_in(tx)?
                .into_iter()
                .find(|e| e.id == tid)
                .ok_or_else(|| StoreError::NotFound(format!("tournament {tid}")))?;
            let shown = display(&event.name, tid);
            check_mark(
                &shown,
                event.not_ready.as_deref(),
                old.as_ref().map(|(_, d)| *d),
                date,
            )
            .map_err(|r| StoreError::Refused(r.into()))?;
            let now = tx.now();
            tx.execute(
                "UPDATE tournaments SET rated_date = ?1, rated_at = ?2 WHERE id = ?3",
                args![date.to_string(), now, tid],
            )?;
            let from = match &old {
                Some((_, d)) if *d < date => (*d, tid),
                _ => (date, tid),
            };
            let rebuilt = rebuild(tx, Some(from))?;
            let (action, what) = match old {
                None => ("event rated", format!("{shown} rated on {date}")),
                Some((_, d)) => (
                    "rated date changed",
                    format!("{shown}: rated date {d} -> {date}"),
                ),
            };
            audit(
                tx,
                actor,
                action,
                Some(tid),
                None,
                "",
                &format!("{what}; {}", rebuilt.describe()),
            )
        })
    }

    /// Takes a tournament off the rated events (a mistake; a reason is needed); the list is
    /// rebuilt without it.
    pub fn unmark_rated(&mut self, tid: TournamentId, reason: &str, actor: &Actor) -> Result<()> {
        let reason = reason.trim();
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", args![tid])?;
            let rated = rated_date(tx, tid)?;
            let shown = display(&check_name(tx, tid)?, tid);
            check_unmark(&shown, rated.is_some(), reason)
                .map_err(|r| StoreError::Refused(r.into()))?;
            let Some((name, date)) = rated else {
                return Ok(());
            };
            tx.execute(
                "UPDATE tournaments SET rated_date = NULL, rated_at = NULL WHERE id = ?1",
                args![tid],
            )?;
            let rebuilt = rebuild(tx, Some((date, tid)))?;
            audit(
                tx,
                actor,
                "event unrated",
                Some(tid),
                None,
                reason,
                &format!(
                    "{} (rated on {date}) is no longer rated; {}",
                    display(&name, tid),
                    rebuilt.describe()
                ),
            )
        })
    }

    /// Computes the whole list again from the first rated event (the cache is a function of
    /// the rated events: this changes nothing unless the cache was wrong) and says what
    /// changed in the audit log.
    pub fn rebuild_ratings(&mut self, actor: &Actor) -> Result<usize> {
        self.write(|tx| {
            let rebuilt = rebuild(tx, None)?;
            audit(
                tx,
                actor,
                "ratings recomputed",
                None,
                None,
                "",
                &format!(
                    "the whole list from the first rated event: {}",
                    rebuilt.describe()
                ),
            )?;
            Ok(rebuilt.changed.len())
        })
    }
}

fn check_name(tx: &mut Tx<'_>, tid: TournamentId) -> Result<String> {
    Ok(super::event_rows::read_setup(tx, tid)?.0.name)
}
