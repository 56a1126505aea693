//! Players in a tournament: registration (a late entry is absent in the rounds before it),
//! withdrawal and re-entry, absences asked for a round, penalty deductions.

use super::db::{Optional, Tx, args};
use super::players::RegistryId;
use super::rounds::RoundState;
use super::tournaments::{check_tournament, round_counts};
use super::{Actor, Result, Store, StoreError, TournamentId, audit, rejected};
use ggdesk_core::tournament::{PlayerId, Score};

/// A registered player as the Registration page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// The player's id in the tournament (the file's and the pairing's id).
    pub no: PlayerId,
    pub player: RegistryId,
    pub name: String,
    pub rating: i64,
    pub club: Option<String>,
    pub federation_id: Option<String>,
    /// The first round the player could be paired in.
    pub entry_round: u32,
    pub withdrawn: bool,
    /// Banned in the registry (then also withdrawn).
    pub banned: bool,
    /// Rounds the player asked to miss (including those of a late entry).
    pub absences: Vec<u32>,
    /// The total of the player's penalties.
    pub penalty: Score,
}

/// A penalty deduction as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PenaltyRow {
    pub id: i64,
    pub player: PlayerId,
    pub points: Score,
    pub reason: String,
    pub decided_at: i64,
}

/// The name of a registered player, or an error naming the number.
pub(crate) fn registration_name(
    conn: &mut Tx<'_>,
    tid: TournamentId,
    no: PlayerId,
) -> Result<String> {
    conn.prepare_cached(
        "SELECT name FROM registrations WHERE tournament_id = ?1 AND player_no = ?2",
    )?
    .query_row(args![tid, no.0], |r| r.get(0))
    .optional()?
    .ok_or_else(|| rejected(format!("player {no} is not registered in tournament {tid}")))
}

/// Whether the registry player behind a registration is banned.
pub(crate) fn registration_banned(
    conn: &mut Tx<'_>,
    tid: TournamentId,
    no: PlayerId,
) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT p.status FROM registrations r JOIN players p ON p.id = r.player_id
             WHERE r.tournament_id = ?1 AND r.player_no = ?2",
        )?
        .query_row(args![tid, no.0], |r| r.get::<String>(0))
        .optional()?
        .is_some_and(|s| s == "banned"))
}

/// Whether a player appears in any round of the tournament (drafts included).
fn appears_in_rounds(conn: &mut Tx<'_>, tid: TournamentId, no: PlayerId) -> Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM pairings WHERE tournament_id = ?1 AND (white = ?2 OR black = ?2))
             OR EXISTS (SELECT 1 FROM round_byes WHERE tournament_id = ?1 AND player_no = ?2)
             OR EXISTS (SELECT 1 FROM penalties WHERE tournament_id = ?1 AND player_no = ?2)
             OR EXISTS (SELECT 1 FROM forbidden_pairs WHERE tournament_id = ?1 AND (player_a = ?2 OR player_b = ?2))",
        args![tid, no.0],
        |r| r.get(0),
    )
}

/// The state of round `round`: `None` when it is not paired yet.
pub(crate) fn round_state(
    conn: &mut Tx<'_>,
    tid: TournamentId,
    round: u32,
) -> Result<Option<RoundState>> {
    Ok(super::rounds::rounds_in(conn, tid)?
        .into_iter()
        .find(|r| r.number == round)
        .map(|r| r.state))
}

/// Registers one registry player inside `tx` (see [`Store::register`]).
fn register_in(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    player: RegistryId,
    actor: &Actor,
) -> Result<PlayerId> {
    tx.lock("tournaments", "id = ?1", [tid])?;
    check_tournament(tx, tid)?;
    let (name, fid, club, rating, status): (String, String, String, i64, String) = tx
        .query_row(
            "SELECT name, federation_id, club, rating, status FROM players WHERE id = ?1",
            [player.0],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?
        .ok_or_else(|| StoreError::NotFound(format!("player {player}")))?;
    if status == "banned" {
        return Err(rejected(format!(
            "{name} is banned: a banned player cannot be registered"
        )));
    }
    let already: Option<u32> = tx
        .query_row(
            "SELECT player_no FROM registrations WHERE tournament_id = ?1 AND player_id = ?2",
            args![tid, player.0],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(no) = already {
        return Err(rejected(format!(
            "{name} is already registered as player {no}"
        )));
    }
    let no: u32 = tx.query_row(
        "SELECT coalesce(max(player_no), 0) + 1 FROM registrations WHERE tournament_id = ?1",
        [tid],
        |r| r.get(0),
    )?;
    // The list's rating when the player is on it: a new tournament seeds by the list.
    let rating = super::ratings::listed_rating(tx, player)?.unwrap_or(rating);
    super::stages::refuse_late_entry(tx, tid)?;
    let (_, started) = round_counts(tx, tid)?;
    let entry = started + 1;
    let text = |s: String| (!s.is_empty()).then_some(s);
    let now = tx.now();
    tx.execute(
        "INSERT INTO registrations (tournament_id, player_no, player_id, name, rating, club,
                 federation_id, entry_round, seq, registered_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?2, ?9)",
        args![
            tid,
            no,
            player.0,
            name,
            rating,
            text(club),
            text(fid),
            entry,
            now
        ],
    )?;
    for round in 1..entry {
        tx.execute(
                "INSERT INTO absences (tournament_id, round, player_no, reason) VALUES (?1, ?2, ?3, 'late entry')",
                args![tid, round, no],
            )?;
    }
    let late = if entry > 1 {
        format!(", late entry from round {entry}")
    } else {
        String::new()
    };
    audit(
        tx,
        actor,
        "player registered",
        Some(tid),
        None,
        "",
        &format!("player {no}: {name} (registry {player}){late}"),
    )?;
    Ok(PlayerId(no))
}

impl Store {
    /// The players of a tournament, by number.
    pub fn registrations(&self, tid: TournamentId) -> Result<Vec<Registration>> {
        self.read(|q| registrations_in(q, tid))
    }
}

fn registrations_in(conn: &mut Tx<'_>, tid: TournamentId) -> Result<Vec<Registration>> {
    {
        let mut stmt = conn.prepare(
            "SELECT r.player_no, r.player_id, r.name, r.rating, r.club, r.federation_id,
                    r.entry_round, r.withdrawn, p.status,
                    (SELECT CAST(coalesce(sum(points), 0) AS BIGINT) FROM penalties x
                     WHERE x.tournament_id = r.tournament_id AND x.player_no = r.player_no)
             FROM registrations r JOIN players p ON p.id = r.player_id
             WHERE r.tournament_id = ?1 ORDER BY r.player_no",
        )?;
        let mut regs = stmt
            .query_map([tid], |r| {
                Ok(Registration {
                    no: PlayerId(r.get(0)?),
                    player: RegistryId(r.get(1)?),
                    name: r.get(2)?,
                    rating: r.get(3)?,
                    club: r.get(4)?,
                    federation_id: r.get(5)?,
                    entry_round: r.get(6)?,
                    withdrawn: r.get::<i64>(7)? != 0,
                    banned: r.get::<String>(8)? == "banned",
                    absences: Vec::new(),
                    penalty: Score::from_halves(r.get(9)?),
                })
            })?
            .collect::<Result<Vec<_>>>()?;
        let mut stmt = conn.prepare(
            "SELECT player_no, round FROM absences WHERE tournament_id = ?1 ORDER BY player_no, round",
        )?;
        let absences = stmt
            .query_map([tid], |r| Ok((PlayerId(r.get(0)?), r.get::<u32>(1)?)))?
            .collect::<Result<Vec<_>>>()?;
        let index: std::collections::HashMap<PlayerId, usize> =
            regs.iter().enumerate().map(|(i, r)| (r.no, i)).collect();
        for (no, round) in absences {
            if let Some(&i) = index.get(&no) {
                regs[i].absences.push(round);
            }
        }
        Ok(regs)
    }
}

impl Store {
    /// Registers a registry player in a tournament and returns the player's number. After
    /// rounds have been played this is a late entry: absent (recorded so) in every round
    /// already published. A banned player is refused.
    pub fn register(
        &mut self,
        tid: TournamentId,
        player: RegistryId,
        actor: &Actor,
    ) -> Result<PlayerId> {
        self.write(|tx| register_in(tx, tid, player, actor))
    }

    /// Registers several registry players in one transaction: all of them or, if any is
    /// refused (banned, already registered), none.
    pub fn register_all(
        &mut self,
        tid: TournamentId,
        players: &[RegistryId],
        actor: &Actor,
    ) -> Result<Vec<PlayerId>> {
        self.write(|tx| {
            players
                .iter()
                .map(|&p| register_in(tx, tid, p, actor))
                .collect()
        })
    }

    /// Takes back a registration made by mistake: only while the player is in no round, no
    /// forbidden pair and has no penalty.
    pub fn unregister(&mut self, tid: TournamentId, no: PlayerId, actor: &Actor) -> Result<()> {
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [tid])?;
            let name = registration_name(tx, tid, no)?;
            if appears_in_rounds(tx, tid, no)? {
                return Err(rejected(format!(
                    "{name} is already paired, penalised or in a forbidden pair: withdraw the player instead"
                )));
            }
            tx.execute(
                "DELETE FROM absences WHERE tournament_id = ?1 AND player_no = ?2",
                args![tid, no.0],
            )?;
            tx.execute(
                "DELETE FROM registrations WHERE tournament_id = ?1 AND player_no = ?2",
                args![tid, no.0],
            )?;
            audit(tx, actor, "registration removed", Some(tid), None, "", &format!("player {no}: {name}"))
        })
    }

    /// Withdraws a player (not paired from the next round on) or re-enters one (paired again
    /// from the next round; the rounds missed count as absent). A banned player cannot
    /// re-enter.
    pub fn set_withdrawn(
        &mut self,
        tid: TournamentId,
        no: PlayerId,
        withdrawn: bool,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [tid])?;
            let name = registration_name(tx, tid, no)?;
            if !withdrawn && registration_banned(tx, tid, no)? {
                return Err(rejected(format!(
                    "{name} is banned: a banned player cannot re-enter"
                )));
            }
            let changed = tx.execute(
                "UPDATE registrations SET withdrawn = ?1 WHERE tournament_id = ?2 AND player_no = ?3 AND withdrawn <> ?1",
                args![withdrawn, tid, no.0],
            )?;
            if changed == 0 {
                return Err(rejected(format!(
                    "{name} is {} already",
                    if withdrawn { "withdrawn" } else { "playing" }
                )));
            }
            audit(
                tx,
                actor,
                if withdrawn { "player withdrawn" } else { "player re-entered" },
                Some(tid),
                None,
                reason.trim(),
                &format!("player {no}: {name}"),
            )
        })
    }

    /// Records (or takes back) a player's wish to miss round `round`. Only for a round not
    /// paired yet: a drafted round must be discarded first, a published one is being played.
    pub fn set_absence(
        &mut self,
        tid: TournamentId,
        no: PlayerId,
        round: u32,
        absent: bool,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        if round == 0 {
            return Err(rejected("rounds are numbered from 1"));
        }
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [tid])?;
            let name = registration_name(tx, tid, no)?;
            super::stages::refuse_absence(tx, tid)?;
            match round_state(tx, tid, round)? {
                None => {}
                Some(RoundState::Draft) => {
                    return Err(rejected(format!(
                        "round {round} is already drafted: discard the draft first, or swap {name} out of it"
                    )));
                }
                Some(_) => {
                    return Err(rejected(format!(
                        "round {round} is already published: enter a forfeit for {name} instead"
                    )));
                }
            }
            let changed = if absent {
                tx.execute(
                    "INSERT INTO absences (tournament_id, round, player_no, reason) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
                    args![tid, round, no.0, reason.trim()],
                )?
            } else {
                tx.execute(
                    "DELETE FROM absences WHERE tournament_id = ?1 AND round = ?2 AND player_no = ?3",
                    args![tid, round, no.0],
                )?
            };
            if changed > 0 {
                audit(
                    tx,
                    actor,
                    if absent { "absence asked" } else { "absence taken back" },
                    Some(tid),
                    None,
                    reason.trim(),
                    &format!("player {no} ({name}), round {round}"),
                )?;
            }
            Ok(())
        })
    }

    /// The penalties of a tournament, in the order they were decided.
    pub fn penalties(&self, tid: TournamentId) -> Result<Vec<PenaltyRow>> {
        self.read(|q| {
            q.query_map(
                "SELECT id, player_no, points, reason, decided_at FROM penalties WHERE tournament_id = ?1 ORDER BY id",
                [tid],
                |r| {
                    Ok(PenaltyRow {
                        id: r.get(0)?,
                        player: PlayerId(r.get(1)?),
                        points: Score::from_halves(r.get(2)?),
                        reason: r.get(3)?,
                        decided_at: r.get(4)?,
                    })
                },
            )
        })
    }

    /// Deducts points from a player (unreasonable delay…), with the reason.
    pub fn add_penalty(
        &mut self,
        tid: TournamentId,
        no: PlayerId,
        points: Score,
        reason: &str,
        actor: &Actor,
    ) -> Result<i64> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(rejected("a penalty needs a reason"));
        }
        if points <= Score::ZERO || points > Score::from_points(ggdesk_core::tournament::MAX_POINTS)
        {
            return Err(rejected(format!(
                "a penalty must be a positive number of points, not {points}"
            )));
        }
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [tid])?;
            let name = registration_name(tx, tid, no)?;
            let now = tx.now();
            // In an event of stages a penalty counts in the stage being played.
            let stage = super::stages::penalty_stage(tx, tid)?;
            let id: i64 = tx.query_one(
                "INSERT INTO penalties (tournament_id, player_no, points, reason, decided_at, stage)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                args![tid, no.0, points.halves(), reason, now, stage],
                |r| r.get(0),
            )?;
            super::stages::check_event(tx, tid)?;
            audit(
                tx,
                actor,
                "penalty",
                Some(tid),
                None,
                reason,
                &format!("player {no} ({name}): -{points}"),
            )?;
            Ok(id)
        })
    }

    /// Cancels a penalty decided by mistake, with the reason.
    pub fn remove_penalty(
        &mut self,
        tid: TournamentId,
        penalty: i64,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(rejected("cancelling a penalty needs a reason"));
        }
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [tid])?;
            let (no, points, why): (u32, i64, String) = tx
                .query_row(
                    "SELECT player_no, points, reason FROM penalties WHERE id = ?1 AND tournament_id = ?2",
                    args![penalty, tid],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?
                .ok_or_else(|| StoreError::NotFound(format!("penalty {penalty}")))?;
            tx.execute("DELETE FROM penalties WHERE id = ?1", [penalty])?;
            super::stages::check_event(tx, tid)?;
            audit(
                tx,
                actor,
                "penalty cancelled",
                Some(tid),
                None,
                reason,
                &format!("player {no}: -{} ({why})", Score::from_halves(points)),
            )
        })
    }
}
