//! The desk's changes to a team event's teams (the Teams page): a team added, renamed or
//! removed, a registry player put into a team or taken out, a roster's board order, a
//! captain, a team players CSV imported all or nothing, and a player withdrawn from the
//! event or back in it (the only one of these allowed after the start). Each is one transaction: the
//! store loads the event, the core decides the change ([`TeamEvent::add_team`] and the
//! others, with their refusals' words), and the store writes the teams the core left and
//! audits the change. The store's own refusals are about storage only.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::{Tx, args};
use super::error::{Result, StoreError};
use super::event_rows;
use super::players::{by_federation_id, insert_player, load_player};
use super::team_rows;
use ggdesk_core::event::Entrant;
use ggdesk_core::event::TournamentSetup;
use ggdesk_core::export::{ImportedTeamPlayer, RowError};
use ggdesk_core::registry::{PlayerInput, RegistryRefusal};
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::teams::{TeamEvent, TeamId, TeamRefusal, TeamSystem};
use ggdesk_core::tournament::{Player, PlayerId, PointsScale, RegistryId, RoundNo, TournamentId};
use std::collections::HashMap;

fn refused(r: TeamRefusal) -> StoreError {
    StoreError::Refused(r.into())
}

/// The registration (registry player) of each player of the event.
fn registry_of(q: &mut Tx<'_>, tid: TournamentId) -> Result<HashMap<PlayerId, RegistryId>> {
    let rows: Vec<(PlayerId, i64)> = q.query_map(
        "SELECT player_no, player_id FROM registrations WHERE tournament_id = ?1",
        [tid],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(rows.into_iter().map(|(p, r)| (p, RegistryId(r))).collect())
}

/// Writes the teams of `after` over those of `before` (an event not started: no match or
/// bye names a team yet): the players gone leave the registrations, the players new join
/// them (each with its registry player in `registry`), and the teams and rosters are
/// written again in `after`'s order.
fn write_teams(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    (before, after): (&TeamEvent, &TeamEvent),
    registry: &HashMap<PlayerId, RegistryId>,
) -> Result<()> {
    tx.execute("DELETE FROM team_players WHERE tournament_id = ?1", [tid])?;
    tx.execute("DELETE FROM teams WHERE tournament_id = ?1", [tid])?;
    for p in &before.players {
        if after.player(p.id).is_none() {
            tx.execute(
                "DELETE FROM registrations WHERE tournament_id = ?1 AND player_no = ?2",
                args![tid, p.id],
            )?;
        }
    }
    let seq: i64 = tx.query_one(
        "SELECT COALESCE(MAX(seq), -1) + 1 FROM registrations WHERE tournament_id = ?1",
        [tid],
        |r| r.get(0),
    )?;
    let mut seq = seq;
    for p in &after.players {
        if before.player(p.id).is_some() {
            continue;
        }
        let reg = registry.get(&p.id).copied().ok_or_else(|| {
            StoreError::Database(format!("player {} has no registry player", p.id))
        })?;
        let entrant = Entrant {
            player: p.clone(),
            registry: reg,
            entry_round: RoundNo(1),
            banned: false,
        };
        event_rows::insert_entrant(tx, tid, &entrant, seq)?;
        seq += 1;
    }
    for (i, t) in after.teams.iter().enumerate() {
        tx.execute(
            "INSERT INTO teams (tournament_id, team_no, name, captain, seq)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            args![tid, t.id.0, t.name, t.captain, i],
        )?;
        for (k, p) in t.roster.iter().enumerate() {
            tx.execute(
                "INSERT INTO team_players (tournament_id, team_no, position, player_no)
                 VALUES (?1, ?2, ?3, ?4)",
                args![tid, t.id.0, k + 1, p],
            )?;
        }
    }
    Ok(())
}

/// The event of tournament `tid` if it is a team event (the store's words otherwise).
fn load_team_event(q: &mut Tx<'_>, tid: TournamentId) -> Result<TeamEvent> {
    if !team_rows::is_team_event(q, tid)? {
        return Err(StoreError::Rejected(format!(
            "tournament {tid} is not a team event: its players are registered one by one"
        )));
    }
    Ok(team_rows::load(q, tid)?.0)
}

/// Refuses a change of the teams while round 1 is paired as a draft (its matches name the
/// teams; the core's event, which holds the published rounds, does not see it).
fn no_draft(q: &mut Tx<'_>, tid: TournamentId) -> Result<()> {
    no_draft_before(q, tid, "the teams change")
}

/// Refuses a change while a round is paired as a draft, saying what waits for its discard.
fn no_draft_before(q: &mut Tx<'_>, tid: TournamentId, change: &str) -> Result<()> {
    let draft: Option<RoundNo> = q.query_opt(
        "SELECT number FROM rounds WHERE tournament_id = ?1 AND state = 'draft'
         ORDER BY number LIMIT 1",
        [tid],
        |r| r.get(0),
    )?;
    match draft {
        Some(n) => Err(StoreError::Rejected(format!(
            "round {n} is paired as a draft: discard it on the Rounds page before {change}"
        ))),
        None => Ok(()),
    }
}

/// A registry player as a player of the event, numbered `id`.
fn player_of(id: PlayerId, p: &PlayerInput) -> Player {
    let optional = |s: &str| (!s.trim().is_empty()).then(|| s.trim().to_string());
    Player {
        club: optional(&p.club),
        federation_id: optional(&p.federation_id),
        ..Player::new(id, p.name.trim(), p.rating)
    }
}

/// Whether a team players CSV is only checked or written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    Check,
    Write,
}

/// A team players CSV applied to the event `before`: the event it makes, the registry
/// player of each player new to it, and every bad row with why. On the `Write` pass a row
/// whose federation id the registry does not hold adds a registry player.
type Planned = (TeamEvent, HashMap<PlayerId, RegistryId>, Vec<RowError>);

fn plan_import(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    before: &TeamEvent,
    rows: &[ImportedTeamPlayer],
    pass: Pass,
) -> Result<Planned> {
    if before.has_started() {
        return Err(refused(TeamRefusal::Started));
    }
    let mut registered: HashMap<RegistryId, PlayerId> = registry_of(tx, tid)?
        .into_iter()
        .map(|(p, r)| (r, p))
        .collect();
    let mut after = before.clone();
    let mut registry = HashMap::new();
    let mut bad = Vec::new();
    for row in rows {
        let line = row.player.line;
        let mut no = |reason: String| {
            bad.push(RowError { line, reason });
        };
        let input = match PlayerInput::of_row(&row.player).checked() {
            Ok(i) => i,
            Err(e) => {
                no(e.to_string());
                continue;
            }
        };
        let linked = match by_federation_id(tx, input.federation_id.trim())? {
            Some((_, name, true)) => {
                no(ggdesk_core::event::Refusal::BannedCannotRegister(name).to_string());
                continue;
            }
            Some((reg, _, false)) => Some(reg),
            None => None,
        };
        let id = linked
            .and_then(|r| registered.get(&r).copied())
            .unwrap_or_else(|| after.next_player_id());
        let team = match after
            .teams
            .iter()
            .find(|t| t.name.trim().to_lowercase() == row.team.trim().to_lowercase())
        {
            Some(t) => t.id,
            None => match after.add_team(&row.team) {
                Ok(t) => t,
                Err(r) => {
                    no(r.to_string());
                    continue;
                }
            },
        };
        if let Err(r) = after.add_to_team(team, player_of(id, &input)) {
            no(r.to_string());
            continue;
        }
        let reg = match (linked, pass) {
            (Some(reg), _) => reg,
            (None, Pass::Check) => RegistryId(0),
            (None, Pass::Write) => insert_player(tx, &input)?,
        };
        registered.insert(reg, id);
        registry.insert(id, reg);
    }
    Ok((after, registry, bad))
}

/// What a change of a team event's settings changed, in the audit log's words ("boards 3 ->
/// 4; Swiss rounds 5 -> 7"), or "nothing".
fn settings_changes(
    (before, old): (&TeamEvent, &TournamentSetup),
    (after, new): (&TeamEvent, &TournamentSetup),
) -> String {
    let mut out = Vec::new();
    let mut diff = |what: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{what} {a} -> {b}"));
        }
    };
    diff("name", before.name.clone(), after.name.clone());
    let stages = |e: &TeamEvent| {
        let systems: Vec<&str> = e.stages.iter().map(|s| s.system.name()).collect();
        systems.join(", ")
    };
    diff("stages", stages(before), stages(after));
    diff(
        "boards",
        before.settings.boards.to_string(),
        after.settings.boards.to_string(),
    );
    let swiss_rounds = |e: &TeamEvent| {
        e.stages
            .iter()
            .find(|s| s.system == TeamSystem::Swiss)
            .and_then(|s| s.round_count)
            .map_or_else(|| "none".to_string(), |n| n.to_string())
    };
    diff("Swiss rounds", swiss_rounds(before), swiss_rounds(after));
    for key in PointsScale::KEYS {
        let points = |p: &PointsScale| p.get(key).unwrap_or_default().to_string();
        diff(
            &format!("points for {}", key.replace('_', " ")),
            points(&old.points),
            points(&new.points),
        );
    }
    let rules = |r: &RuleSettings| match r.to_value() {
        serde_json::Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    let (a, b) = (rules(&old.rules), rules(&new.rules));
    for (key, was) in &a {
        if let Some(now) = b.get(key) {
            // 120.0 seconds read 120.
            let shown = |v: &serde_json::Value| {
                let text = v.to_string();
                text.strip_suffix(".0").map_or(text.clone(), str::to_string)
            };
            diff(&format!("rules.{key}"), shown(was), shown(now));
        }
    }
    if out.is_empty() {
        "nothing".to_string()
    } else {
        out.join("; ")
    }
}

impl Store {
    /// The games' rules of team event `tid` (the desk's form shows them with its settings).
    pub fn team_event_rules(&self, tid: TournamentId) -> Result<RuleSettings> {
        self.read(|q| {
            load_team_event(q, tid)?;
            Ok(event_rows::read_setup(q, tid)?.0.rules)
        })
    }

    /// Corrects a team event's settings before its first round: `new` is the preset the
    /// desk's form makes (shape, name, points, boards, a Swiss's rounds), `rules` its games'
    /// rules. One transaction: refused while a round is paired as a draft, and in the core's
    /// words once one is published ([`TeamEvent::with_settings`]); checked as creation
    /// checks them; the tournament row, `team_events` and `team_stages` written again (the
    /// teams and rosters as they are), the event read back as the core's, and audited with
    /// what changed.
    pub fn set_team_event_settings(
        &mut self,
        tid: TournamentId,
        new: &TeamEvent,
        rules: &RuleSettings,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            let before = load_team_event(tx, tid)?;
            no_draft_before(tx, tid, "the settings change")?;
            let after = before.with_settings(new).map_err(refused)?;
            let setup = team_rows::desk_setup(&after, rules)?;
            let (old, _) = event_rows::read_setup(tx, tid)?;
            event_rows::update_setup(tx, tid, &setup)?;
            team_rows::write_settings(tx, tid, &after)?;
            // What was written is the core's event again.
            if load_team_event(tx, tid)? != after {
                return Err(StoreError::Database(
                    "the team event read back from the database differs from the settings \
                     written (nothing was changed)"
                        .into(),
                ));
            }
            let details = settings_changes((&before, &old), (&after, &setup));
            audit(tx, actor, "settings changed", Some(tid), None, "", &details)?;
            Ok(())
        })
    }

    /// The team event of tournament `tid`, or `None` when it is an event of players.
    pub fn team_event(&self, tid: TournamentId) -> Result<Option<TeamEvent>> {
        self.read(|q| {
            if team_rows::is_team_event(q, tid)? {
                Ok(Some(team_rows::load(q, tid)?.0))
            } else {
                Ok(None)
            }
        })
    }

    /// The registry players in a team event's teams.
    pub fn team_members(&self, tid: TournamentId) -> Result<Vec<RegistryId>> {
        self.read(|q| {
            let rows: Vec<i64> = q.query_map(
                "SELECT r.player_id FROM team_players tp
                 JOIN registrations r
                   ON r.tournament_id = tp.tournament_id AND r.player_no = tp.player_no
                 WHERE tp.tournament_id = ?1 ORDER BY r.player_id",
                [tid],
                |r| r.get(0),
            )?;
            Ok(rows.into_iter().map(RegistryId).collect())
        })
    }

    /// Loads the team event, lets `decide` change it (the core's refusal refuses), writes
    /// the teams it leaves and audits `action` with the details `decide` gives.
    fn change_teams<T>(
        &mut self,
        tid: TournamentId,
        actor: &Actor,
        action: &str,
        mut decide: impl FnMut(
            &mut Tx<'_>,
            &mut TeamEvent,
            &mut HashMap<PlayerId, RegistryId>,
        ) -> Result<(T, String)>,
    ) -> Result<T> {
        self.write(|tx| {
            let before = load_team_event(tx, tid)?;
            no_draft(tx, tid)?;
            let mut after = before.clone();
            let mut registry = HashMap::new();
            let (out, details) = decide(tx, &mut after, &mut registry)?;
            write_teams(tx, tid, (&before, &after), &registry)?;
            audit(tx, actor, action, Some(tid), None, "", &details)?;
            Ok(out)
        })
    }

    /// Adds a team with an empty roster.
    pub fn add_team(&mut self, tid: TournamentId, name: &str, actor: &Actor) -> Result<TeamId> {
        self.change_teams(tid, actor, "team added", |_, e, _| {
            let id = e.add_team(name).map_err(refused)?;
            let name = e.team(id).map(|t| t.name.clone()).unwrap_or_default();
            Ok((id, format!("team {id}: {name}")))
        })
    }

    /// Renames a team.
    pub fn rename_team(
        &mut self,
        tid: TournamentId,
        team: TeamId,
        name: &str,
        actor: &Actor,
    ) -> Result<()> {
        self.change_teams(tid, actor, "team renamed", |_, e, _| {
            let old = e.team(team).map(|t| t.name.clone()).unwrap_or_default();
            e.rename_team(team, name).map_err(refused)?;
            Ok(((), format!("team {team}: {old} -> {}", name.trim())))
        })
    }

    /// Removes a team, its players leaving the event (they stay in the registry).
    pub fn remove_team(&mut self, tid: TournamentId, team: TeamId, actor: &Actor) -> Result<()> {
        self.change_teams(tid, actor, "team removed", |_, e, _| {
            let name = e.team(team).map(|t| t.name.clone()).unwrap_or_default();
            let gone = e.remove_team(team).map_err(refused)?;
            Ok((
                (),
                format!("team {team}: {name}, with {} player(s)", gone.len()),
            ))
        })
    }

    /// Puts a registry player at the end of a team's roster (registering them in the event);
    /// returns their player number.
    pub fn add_team_player(
        &mut self,
        tid: TournamentId,
        team: TeamId,
        player: RegistryId,
        actor: &Actor,
    ) -> Result<PlayerId> {
        self.change_teams(tid, actor, "team player added", |tx, e, registry| {
            let p = load_player(tx, player)?;
            if p.is_banned() {
                return Err(StoreError::Refused(
                    ggdesk_core::event::Refusal::BannedCannotRegister(p.name).into(),
                ));
            }
            let id = match registry_of(tx, tid)?
                .into_iter()
                .find(|(_, r)| *r == player)
            {
                Some((no, _)) => no,
                None => e.next_player_id(),
            };
            let input = PlayerInput {
                name: p.name.clone(),
                federation_id: p.federation_id.clone(),
                club: p.club.clone(),
                rating: p.rating,
            };
            e.add_to_team(team, player_of(id, &input))
                .map_err(refused)?;
            registry.insert(id, player);
            let team_name = e.team(team).map(|t| t.name.clone()).unwrap_or_default();
            Ok((id, format!("{} (player {id}) into {team_name}", p.name)))
        })
    }

    /// Takes a player out of their team and out of the event.
    pub fn remove_team_player(
        &mut self,
        tid: TournamentId,
        player: PlayerId,
        actor: &Actor,
    ) -> Result<()> {
        self.change_teams(tid, actor, "team player removed", |_, e, _| {
            let name = e.player(player).map(|p| p.name.clone()).unwrap_or_default();
            e.remove_from_team(player).map_err(refused)?;
            Ok(((), format!("{name} (player {player})")))
        })
    }

    /// Moves a player to place `to` (from 0) of their team's roster (board order).
    pub fn move_team_player(
        &mut self,
        tid: TournamentId,
        player: PlayerId,
        to: usize,
        actor: &Actor,
    ) -> Result<()> {
        self.change_teams(tid, actor, "roster reordered", |_, e, _| {
            let name = e.player(player).map(|p| p.name.clone()).unwrap_or_default();
            e.move_in_roster(player, to).map_err(refused)?;
            Ok(((), format!("{name} (player {player}) to place {}", to + 1)))
        })
    }

    /// Names a team's captain (one of its players), or none.
    pub fn set_team_captain(
        &mut self,
        tid: TournamentId,
        team: TeamId,
        captain: Option<PlayerId>,
        actor: &Actor,
    ) -> Result<()> {
        self.change_teams(tid, actor, "team captain set", |_, e, _| {
            e.set_captain(team, captain).map_err(refused)?;
            let who = captain
                .and_then(|c| e.player(c))
                .map_or_else(|| "none".to_string(), |p| p.name.clone());
            Ok(((), format!("team {team}: {who}")))
        })
    }

    /// Withdraws a team's player from the event (`withdrawn`) or brings them back, before
    /// or after its start (spec/teams.md, "Line-ups": the next rounds' default line-ups
    /// skip a withdrawn player, so a reserve moves up). One transaction: the core decides
    /// ([`TeamEvent::set_withdrawn`], refused in its words); once a round is published the
    /// change needs a reason; the flag is the player's registration's (the file's
    /// `"withdrawn": true`); audited as "player withdrawn" or "player back" with the reason.
    /// No round already paired changes.
    pub fn set_team_player_withdrawn(
        &mut self,
        tid: TournamentId,
        player: PlayerId,
        withdrawn: bool,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            let mut event = load_team_event(tx, tid)?;
            event.set_withdrawn(player, withdrawn).map_err(refused)?;
            let reason = reason.trim();
            if event.has_started() && reason.is_empty() {
                let change = if withdrawn {
                    "withdrawing a player"
                } else {
                    "bringing a player back"
                };
                return Err(StoreError::Rejected(format!(
                    "the event has started: {change} needs a reason"
                )));
            }
            tx.execute(
                "UPDATE registrations SET withdrawn = ?1 WHERE tournament_id = ?2 AND player_no = ?3",
                args![withdrawn, tid, player],
            )?;
            let name = event.player(player).map(|p| p.name.clone()).unwrap_or_default();
            let team = event
                .team_of(player)
                .and_then(|t| event.team(t))
                .map(|t| t.name.clone())
                .unwrap_or_default();
            let action = if withdrawn {
                "player withdrawn"
            } else {
                "player back"
            };
            audit(
                tx,
                actor,
                action,
                Some(tid),
                None,
                reason,
                &format!("{name} (player {player}) of {team}"),
            )?;
            Ok(())
        })
    }

    /// What is wrong with a team players CSV for this event: a row the registry refuses (a
    /// name, a rating, a banned player's federation id) or the teams do (a player in a team
    /// already). Empty when the list can be imported. Read on one snapshot.
    pub fn check_teams_import(
        &self,
        tid: TournamentId,
        rows: &[ImportedTeamPlayer],
    ) -> Result<Vec<RowError>> {
        self.read(|q| {
            let before = load_team_event(q, tid)?;
            Ok(plan_import(q, tid, &before, rows, Pass::Check)?.2)
        })
    }

    /// Puts every row's player into their team (a team named for the first time is added,
    /// a federation id the registry holds is that registry player, any other row adds one)
    /// in one transaction, or nothing: any bad row refuses the whole list, naming every bad
    /// row by its line. Returns the number of players put into teams.
    pub fn import_teams(
        &mut self,
        tid: TournamentId,
        rows: &[ImportedTeamPlayer],
        actor: &Actor,
    ) -> Result<usize> {
        self.write(|tx| {
            let before = load_team_event(tx, tid)?;
            no_draft(tx, tid)?;
            let (after, registry, bad) = plan_import(tx, tid, &before, rows, Pass::Write)?;
            if !bad.is_empty() {
                return Err(StoreError::Refused(RegistryRefusal::BadRows(bad).into()));
            }
            write_teams(tx, tid, (&before, &after), &registry)?;
            let teams = after.teams.len() - before.teams.len();
            audit(
                tx,
                actor,
                "teams imported",
                Some(tid),
                None,
                "",
                &format!(
                    "{} players into teams from CSV ({teams} new teams)",
                    rows.len()
                ),
            )?;
            Ok(rows.len())
        })
    }
}
