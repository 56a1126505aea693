//! The players registry, shared by every tournament: add, edit, ban (collusion) and lift a
//! ban, and a players CSV imported all or nothing.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::{Tx, args};
use super::error::{Context, Result, StoreError};
use ggdesk_core::event::{Entrant, Link, Listed, links};
use ggdesk_core::export::{ImportedPlayer, RowError, import_players_csv};
use ggdesk_core::registry::{self, Holder, RegistryRefusal};
use ggdesk_core::tournament::TournamentId;

/// A player's row id in the registry (the core's typed key).
pub use ggdesk_core::tournament::RegistryId;

/// A player of the registry as the desk shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistryPlayer {
    pub id: RegistryId,
    pub name: String,
    /// Empty when not known.
    pub federation_id: String,
    pub club: String,
    pub rating: i64,
    /// The reason of the ban in force, if the player is banned.
    pub ban: Option<String>,
}

impl RegistryPlayer {
    pub fn is_banned(&self) -> bool {
        self.ban.is_some()
    }
}

/// What the director types for a new player or an edit, and the registry's rules: the
/// core's.
pub use ggdesk_core::registry::{MAX_RATING, PlayerInput, rows_message};

/// The registry's refusal as the store passes it on.
fn refused(r: RegistryRefusal) -> StoreError {
    StoreError::Refused(r.into())
}

/// The registry player holding a federation id, if any (ids are unique when not empty).
pub(crate) fn by_federation_id(
    tx: &mut Tx<'_>,
    federation_id: &str,
) -> Result<Option<(RegistryId, String, bool)>> {
    if federation_id.is_empty() {
        return Ok(None);
    }
    tx.query_opt(
        "SELECT id, name, status FROM players WHERE federation_id = ?1",
        args![federation_id],
        |r| {
            let id: i64 = r.get(0)?;
            Ok((
                RegistryId(id),
                r.get(1)?,
                player_banned(r).at("players", format!("player {id}"))?,
            ))
        },
    )
}

/// Inserts a registry player (already checked) and returns its id.
pub(crate) fn insert_player(tx: &mut Tx<'_>, p: &PlayerInput) -> Result<RegistryId> {
    let now = tx.now();
    tx.query_one(
        "INSERT INTO players (name, federation_id, club, rating, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
        args![&p.name, &p.federation_id, &p.club, p.rating, now],
        |r| Ok(RegistryId(r.get(0)?)),
    )
}

pub(crate) fn load_player(conn: &mut Tx<'_>, id: RegistryId) -> Result<RegistryPlayer> {
    conn.query_opt(
        &format!("{PLAYER_COLUMNS} WHERE p.id = ?1"),
        args![id.0],
        map_player,
    )?
    .ok_or_else(|| StoreError::NotFound(format!("player {id}")))
}

const PLAYER_COLUMNS: &str = "SELECT p.id, p.name, p.federation_id, p.club, p.rating, p.status,
        (SELECT reason FROM bans b WHERE b.player_id = p.id AND b.lifted_at IS NULL
         ORDER BY b.id DESC LIMIT 1) AS ban
     FROM players p";

/// Whether a players row says banned; a status this program never writes is an error.
fn player_banned(r: &super::db::Row) -> Result<bool> {
    r.code("status", |s| match s {
        "active" => Some(false),
        "banned" => Some(true),
        _ => None,
    })
}

fn map_player(r: &super::db::Row) -> Result<RegistryPlayer> {
    let id: i64 = r.get("id")?;
    (|| {
        let reason: Option<String> = r.get("ban")?;
        Ok(RegistryPlayer {
            id: RegistryId(id),
            name: r.get("name")?,
            federation_id: r.get("federation_id")?,
            club: r.get("club")?,
            rating: r.get("rating")?,
            ban: player_banned(r)?.then(|| reason.unwrap_or_else(|| "banned".into())),
        })
    })()
    .at("players", format!("player {id}"))
}

/// Refuses a federation id that another registry player holds (the core's rule on what
/// the registry holds).
fn check_federation_id(conn: &mut Tx<'_>, fid: &str, me: Option<RegistryId>) -> Result<()> {
    let holder = holder(conn, fid)?;
    registry::check_federation_id(fid, holder, me).map_err(refused)
}

/// Who holds a federation id in the registry.
fn holder(conn: &mut Tx<'_>, fid: &str) -> Result<Option<Holder>> {
    Ok(by_federation_id(conn, fid)?.map(|(id, name, _)| Holder { id, name }))
}

impl Store {
    /// Every player of the registry, by name.
    pub fn players(&self) -> Result<Vec<RegistryPlayer>> {
        let mut rows = self.read(|q| q.query_map(PLAYER_COLUMNS, args![], map_player))?;
        // Sorted here, not by the engine, so that both engines give the same order.
        rows.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
        Ok(rows)
    }

    pub fn player(&self, id: RegistryId) -> Result<RegistryPlayer> {
        self.read(|q| load_player(q, id))
    }

    /// Adds a player to the registry.
    pub fn add_player(&mut self, input: &PlayerInput, actor: &Actor) -> Result<RegistryId> {
        let p = input.checked().map_err(refused)?;
        self.write(|tx| {
            check_federation_id(tx, &p.federation_id, None)?;
            let id = insert_player(tx, &p)?;
            audit(
                tx,
                actor,
                "player added",
                None,
                None,
                "",
                &format!(
                    "player {id}: {}{}, rating {}",
                    p.name,
                    match p.federation_id.as_str() {
                        "" => String::new(),
                        fid => format!(" ({fid})"),
                    },
                    p.rating
                ),
            )?;
            Ok(id)
        })
    }

    /// Changes a registry player. Registrations in tournaments that have not started yet
    /// follow the change; in a tournament under way a player stays as registered.
    pub fn update_player(
        &mut self,
        id: RegistryId,
        input: &PlayerInput,
        actor: &Actor,
    ) -> Result<()> {
        let p = input.checked().map_err(refused)?;
        self.write(|tx| {
            let old = load_player(tx, id)?;
            check_federation_id(tx, &p.federation_id, Some(id))?;
            tx.execute(
                "UPDATE players SET name = ?1, federation_id = ?2, club = ?3, rating = ?4 WHERE id = ?5",
                args![&p.name, &p.federation_id, &p.club, p.rating, id.0],
            )?;
            tx.execute(
                "UPDATE registrations SET name = ?1,
                        federation_id = CASE WHEN ?2 = '' THEN NULL ELSE ?2 END,
                        club = CASE WHEN ?3 = '' THEN NULL ELSE ?3 END, rating = ?4
                 WHERE player_id = ?5 AND NOT EXISTS
                       (SELECT 1 FROM rounds r WHERE r.tournament_id = registrations.tournament_id
                        AND r.state <> 'draft')",
                args![&p.name, &p.federation_id, &p.club, p.rating, id.0],
            )?;
            // A player on the rating list keeps the list's rating in those registrations.
            super::ratings::reseed(tx, id)?;
            let before = PlayerInput {
                name: old.name.clone(),
                federation_id: old.federation_id.clone(),
                club: old.club.clone(),
                rating: old.rating,
            };
            let changes = registry::edit_words(&before, &p);
            audit(
                tx,
                actor,
                "player edited",
                None,
                None,
                "",
                &format!("player {id}: {}", changes.join(", ")),
            )?;
            // Who is rated is who has a federation id: given or taken away, the list changes.
            if old.federation_id.is_empty() != p.federation_id.is_empty() {
                super::ratings::after_registry_change(
                    tx,
                    actor,
                    &format!("federation id of {} {:?} -> {:?}", p.name, old.federation_id, p.federation_id),
                )?;
            }
            Ok(())
        })
    }

    /// Bans a player (collusion): from now on the player cannot be registered, re-entered
    /// or paired. Every tournament the player is registered in withdraws them in the same
    /// transaction, so no later round pairs them.
    pub fn ban_player(
        &mut self,
        id: RegistryId,
        reason: &str,
        tournament: Option<TournamentId>,
        actor: &Actor,
    ) -> Result<()> {
        let reason = reason.trim();
        self.write(|tx| {
            let p = load_player(tx, id)?;
            registry::check_ban(&p.name, p.is_banned(), reason).map_err(refused)?;
            let now = tx.now();
            tx.execute(
                "INSERT INTO bans (player_id, tournament_id, reason, banned_at) VALUES (?1, ?2, ?3, ?4)",
                args![id.0, tournament, reason, now],
            )?;
            tx.execute("UPDATE players SET status = 'banned' WHERE id = ?1", args![id.0])?;
            let regs = tx.query_map(
                "SELECT tournament_id, player_no FROM registrations WHERE player_id = ?1 AND withdrawn = 0",
                args![id.0],
                |r| Ok((r.get::<TournamentId>(0)?, r.get::<i64>(1)?)),
            )?;
            for (tid, no) in regs {
                tx.execute(
                    "UPDATE registrations SET withdrawn = 1 WHERE tournament_id = ?1 AND player_no = ?2",
                    args![tid, no],
                )?;
                audit(
                    tx,
                    actor,
                    "player withdrawn",
                    Some(tid),
                    None,
                    reason,
                    &format!("player {no} ({}) banned", p.name),
                )?;
            }
            audit(
                tx,
                actor,
                "player banned",
                tournament,
                None,
                reason,
                &format!("player {id}: {}", p.name),
            )
        })
    }

    /// Lifts a player's ban (a decision reversed on appeal). Tournaments do not re-enter
    /// the player by themselves.
    pub fn lift_ban(&mut self, id: RegistryId, reason: &str, actor: &Actor) -> Result<()> {
        let reason = reason.trim();
        self.write(|tx| {
            let p = load_player(tx, id)?;
            registry::check_lift(&p.name, p.is_banned(), reason).map_err(refused)?;
            let now = tx.now();
            tx.execute(
                "UPDATE bans SET lifted_at = ?1, lift_reason = ?2 WHERE player_id = ?3 AND lifted_at IS NULL",
                args![now, reason, id.0],
            )?;
            tx.execute("UPDATE players SET status = 'active' WHERE id = ?1", args![id.0])?;
            audit(
                tx,
                actor,
                "ban lifted",
                None,
                None,
                reason,
                &format!("player {id}: {}", p.name),
            )
        })
    }

    /// What is wrong with a list of players read from CSV against the registry: a row whose
    /// federation id another player already holds, or a name or rating the desk refuses.
    /// Empty when the list can be imported. Read on one snapshot.
    pub fn check_players_import(&self, rows: &[ImportedPlayer]) -> Result<Vec<RowError>> {
        self.read(|q| bad_rows(q, rows))
    }

    /// Adds every player of the list in one transaction, or none: any bad row refuses the
    /// whole list, naming every bad row by its line. The rows are checked in that same
    /// transaction, so a federation id another desk registers meanwhile is caught too.
    pub fn import_players(
        &mut self,
        rows: &[ImportedPlayer],
        actor: &Actor,
    ) -> Result<Vec<RegistryId>> {
        self.write(|tx| {
            let bad = bad_rows(tx, rows)?;
            if !bad.is_empty() {
                return Err(refused(RegistryRefusal::BadRows(bad)));
            }
            let mut ids = Vec::with_capacity(rows.len());
            let mut initial = 0;
            for row in rows {
                let input = PlayerInput::of_row(row).checked().map_err(refused)?;
                let id = insert_player(tx, &input)?;
                // A first rating for the rating list (`--initial` semantics).
                if let Some(r) = row.initial {
                    tx.execute(
                        "INSERT INTO rating_initial (player_id, rating, deviation, volatility)
                         VALUES (?1, ?2, ?3, ?4)",
                        args![id.0, r.rating, r.deviation, r.volatility],
                    )?;
                    initial += 1;
                }
                ids.push(id);
            }
            audit(
                tx,
                actor,
                "players imported",
                None,
                None,
                "",
                &format!("{} players from CSV", ids.len()),
            )?;
            if initial > 0 {
                super::ratings::after_registry_change(
                    tx,
                    actor,
                    &format!("first ratings of {initial} player(s) imported from CSV"),
                )?;
            }
            Ok(ids)
        })
    }

    /// Reads a players CSV (`name,federation_id,club,rating`, optionally `deviation` and
    /// `volatility` for first ratings) and imports it all or nothing.
    pub fn import_players_csv(&mut self, text: &str, actor: &Actor) -> Result<Vec<RegistryId>> {
        let rows =
            import_players_csv(text).map_err(|e| refused(RegistryRefusal::BadRows(e.rows)))?;
        self.import_players(&rows, actor)
    }
}

/// The rows of a players list the registry refuses, each with why (see
/// [`Store::check_players_import`]): the core's rules on who holds each row's federation id.
fn bad_rows(tx: &mut Tx<'_>, rows: &[ImportedPlayer]) -> Result<Vec<RowError>> {
    let holders = rows
        .iter()
        .map(|row| holder(tx, PlayerInput::of_row(row).federation_id.trim()))
        .collect::<Result<Vec<_>>>()?;
    Ok(registry::bad_rows(rows, &holders))
}

/// Links the players of an imported file to the registry, as the core links them: each to
/// the registry player with the same federation id, or to a new one added to the registry.
pub(crate) fn link_entrants(tx: &mut Tx<'_>, entrants: &mut [Entrant]) -> Result<()> {
    let mut listed = Vec::new();
    for e in entrants.iter() {
        let fid = e.player.federation_id.as_deref().unwrap_or("").trim();
        listed.push(
            by_federation_id(tx, fid)?.map(|(registry, name, banned)| Listed {
                registry,
                name,
                banned,
            }),
        );
    }
    let links = links(entrants, &listed).map_err(|r| StoreError::Refused(r.into()))?;
    for (e, link) in entrants.iter_mut().zip(links) {
        e.registry = match link {
            Link::To(id) => id,
            Link::New { federation_id } => insert_player(
                tx,
                &PlayerInput {
                    name: e.player.name.clone(),
                    federation_id,
                    club: e.player.club.clone().unwrap_or_default(),
                    rating: e.player.rating,
                },
            )?,
        };
    }
    Ok(())
}
