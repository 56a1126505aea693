//! The events the desk keeps: every director's action on one is one transaction that loads
//! the event ([`event_rows::load`]), asks the core ([`Event::decide`]) and writes what it
//! decided ([`event_rows::write`]); the store refuses only for storage reasons (another desk
//! changed the round first, a lost connection, a login's privilege). A rated event's rating
//! list follows in the same transaction; a round that became complete or was published is
//! backed up after the commit.

use super::audit::{Actor, audit};
use super::backup::BackupNote;
use super::conn::Store;
use super::db::{Tx, args};
use super::error::{Context, Result, StoreError};
use super::event_rows::{self, Reader};
use super::seen::{Scope, conflict, round_print};
use ggdesk_core::event::{
    AbsenceChange, Absentee, Changes, Command, Confirmation, Event, Registrant, Registration,
    RoundState, RoundView, TournamentSetup, Withdrawal, read_file, words,
};
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::stages::StageSpec;
use ggdesk_core::tournament::{
    BoardNo, GameResult, PenaltyId, PlayerId, RegistryId, RoundNo, Score, System, TableNo,
    TournamentId,
};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// What a result entered did to its round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultSaved {
    /// The round became complete with this result (and was backed up).
    pub completed: Option<BackupNote>,
}

/// A round just paired as a draft, and the round before it if pairing completed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paired {
    pub round: RoundNo,
    pub completed: Option<RoundCompleted>,
}

/// A round that became complete with the result that was its last, and its backup
/// (written after the commit; a failed backup is reported here, never dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundCompleted {
    pub tournament: TournamentId,
    pub round: RoundNo,
    pub backup: BackupNote,
}

/// A tournament in the list of the Tournaments page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSummary {
    pub id: TournamentId,
    pub name: String,
    pub system: System,
    pub rounds: Option<u32>,
    pub players: u32,
    /// Rounds published or complete.
    pub rounds_started: u32,
    pub created_at: i64,
    /// An event of stages: its stages' names in order (a stage without a name by its
    /// system); empty for a tournament of one system.
    pub stages: Vec<String>,
    /// A team event (spec/teams.md, migration 10): run on the desk's team pages.
    pub team: bool,
}

/// The round a tournament's tables play, read alone (the stations' API checks each
/// command's scope with it, without replaying the whole event): the same round as the
/// core's [`Event::playing_round`] (the last round not a draft), with the result of the
/// board at one table, if the round has one there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundInPlay {
    pub number: RoundNo,
    pub state: RoundState,
    pub result_at_table: Option<GameResult>,
}

/// What a decided command wrote: its changes, and the ids of the penalties it added.
struct Written {
    changes: Changes,
    penalties: Vec<PenaltyId>,
}

/// The core's refusal as the store passes it on.
fn refused(r: ggdesk_core::event::Refusal) -> StoreError {
    StoreError::Refused(r.into())
}

impl Store {
    /// The event of a tournament: its record and what has been played, as the core
    /// replays it. Everything the desk shows of an event is the core's answer on it.
    pub fn event(&self, tid: TournamentId) -> Result<Event> {
        self.read(|q| event_rows::load(q, tid, Reader::Desk))
    }

    /// The round in play of tournament `tid` and the result of its board at `table`;
    /// `None` when no round is published yet. See [`RoundInPlay`].
    pub fn round_in_play(&self, tid: TournamentId, table: TableNo) -> Result<Option<RoundInPlay>> {
        self.read(|q| {
            let round: Option<(RoundNo, RoundState)> = q.query_opt(
                "SELECT number, state FROM rounds
                 WHERE tournament_id = ?1 AND state <> 'draft'
                 ORDER BY number DESC LIMIT 1",
                args![tid],
                |r| Ok((r.get(0)?, r.code("state", RoundState::from_code)?)),
            )?;
            let Some((number, state)) = round else {
                return Ok(None);
            };
            let result_at_table = q.query_opt(
                "SELECT result FROM pairings
                 WHERE tournament_id = ?1 AND round = ?2 AND table_no = ?3
                 ORDER BY board_no LIMIT 1",
                args![tid, number, table],
                |r| r.code("result", GameResult::from_name),
            )?;
            Ok(Some(RoundInPlay {
                number,
                state,
                result_at_table,
            }))
        })
    }

    /// An event as the public pages show it, read from what the public may see alone (on a
    /// server, the public role's views): `None` when there is no such tournament, or it is
    /// a team event (whose public view is `Store::public_team_event`).
    pub fn public_event(&self, tid: TournamentId) -> Result<Option<Event>> {
        let read = self.read(|q| {
            if super::team_rows::is_team_event(q, tid)? {
                return Ok(None);
            }
            event_rows::load(q, tid, Reader::Public).map(Some)
        });
        match read {
            Err(StoreError::NotFound(_)) => Ok(None),
            other => other,
        }
    }

    /// Round `n` with its boards, byes and absences, and each board's status; this store
    /// remembers it as shown (a change of the round by another desk since is refused).
    pub fn round_view(&self, tid: TournamentId, n: RoundNo) -> Result<Option<RoundView>> {
        let event = self.event(tid)?;
        self.shown(&event, n);
        Ok(event.round_view(n))
    }

    /// Remembers round `n` of `event` as this store shows it.
    pub fn shown(&self, event: &Event, n: RoundNo) {
        self.seen
            .borrow_mut()
            .insert((event.id(), n), round_print(event.round(n)));
    }

    /// The players of a tournament, by number.
    pub fn registrations(&self, tid: TournamentId) -> Result<Vec<Registration>> {
        Ok(self.event(tid)?.registrations())
    }

    /// The players of a tournament by number with their names, whatever its kind (an event
    /// of players' entrants, a team event's players).
    pub fn player_names(&self, tid: TournamentId) -> Result<Vec<(PlayerId, String)>> {
        if let Some(e) = self.team_event(tid)? {
            return Ok(e.players.into_iter().map(|p| (p.id, p.name)).collect());
        }
        Ok(self
            .registrations(tid)?
            .into_iter()
            .map(|r| (r.no, r.name))
            .collect())
    }

    /// The registry players of a tournament, whatever its kind: an event of players' entrants,
    /// a team event's players (in its teams).
    pub fn tournament_players(&self, tid: TournamentId) -> Result<Vec<RegistryId>> {
        if self.team_event(tid)?.is_some() {
            return self.team_members(tid);
        }
        Ok(self
            .registrations(tid)?
            .into_iter()
            .map(|r| r.player)
            .collect())
    }

    /// A tournament's settings (an event of stages: its name, points and rules).
    pub fn tournament_setup(&self, tid: TournamentId) -> Result<TournamentSetup> {
        Ok(self.read(|q| event_rows::read_setup(q, tid))?.0)
    }

    /// The GGF rule settings a tournament's games are played under, with the desk's setup,
    /// reading and grace timers.
    pub fn tournament_rules(&self, tid: TournamentId) -> Result<RuleSettings> {
        if let Some(r) = self.remote() {
            return super::remote::tournament_rules(&*r, tid);
        }
        Ok(self.tournament_setup(tid)?.rules)
    }

    /// Every tournament's id and name, newest first.
    pub fn tournament_names(&self) -> Result<Vec<(TournamentId, String)>> {
        if let Some(r) = self.remote() {
            return super::remote::tournament_names(&*r);
        }
        self.read(|q| {
            q.query_map(
                "SELECT id, name FROM tournaments ORDER BY id DESC",
                args![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
    }

    /// Every tournament with its size and progress, newest first.
    pub fn tournaments(&self) -> Result<Vec<TournamentSummary>> {
        self.read(|q| {
            let mut stages: HashMap<TournamentId, Vec<String>> = HashMap::new();
            for (id, spec) in event_rows::every_stage(q)? {
                stages.entry(id).or_default().push(words::stage_name(&spec));
            }
            let mut list = q.query_map(
                "SELECT t.id, t.name, t.system, t.rounds, t.created_at,
                        (SELECT count(*) FROM registrations r WHERE r.tournament_id = t.id),
                        (SELECT count(*) FROM rounds r WHERE r.tournament_id = t.id AND r.state <> 'draft'),
                        EXISTS (SELECT 1 FROM team_events e WHERE e.tournament_id = t.id)
                 FROM tournaments t ORDER BY t.id DESC",
                args![],
                |r| {
                    let id: TournamentId = r.get(0)?;
                    (|| {
                        Ok(TournamentSummary {
                            id,
                            name: r.get(1)?,
                            system: r.code("system", System::from_name)?,
                            rounds: r.get(3)?,
                            created_at: r.get(4)?,
                            players: r.get(5)?,
                            rounds_started: r.get(6)?,
                            stages: Vec::new(),
                            team: r.get(7)?,
                        })
                    })()
                    .at("tournaments", format!("tournament {id}"))
                },
            )?;
            for t in &mut list {
                t.stages = stages.remove(&t.id).unwrap_or_default();
            }
            Ok(list)
        })
    }

    /// A number that grows with the changes written to the database by a director or an
    /// arbiter (the newest audit log row): pages reload their data when it moves. On a
    /// server it can miss a change: a transaction that took its audit row before another
    /// one's and committed after it leaves the number where the other put it. The desk also
    /// reloads on the server's notices, and the public pages read again every few seconds.
    pub fn change_stamp(&self) -> Result<i64> {
        if let Some(r) = self.remote() {
            // A station's desk learns of changes from the server's stream; asking who it is
            // tells whether the server is reached.
            return r.call("GET", "", None).map(|_| 0);
        }
        self.read(|q| {
            q.query_row("SELECT coalesce(max(id), 0) FROM audit_log", args![], |r| {
                r.get(0)
            })
        })
    }

    /// Runs commands on an event in one transaction: the event is loaded under the
    /// tournament's lock (and, with `guard`, the round's, refused when another desk changed
    /// what the change depends on since this store showed the round), the core decides, and
    /// what it decided is written with its audit lines; a rated event's rating list
    /// follows.
    fn decide(
        &mut self,
        tid: TournamentId,
        guard: Option<(RoundNo, Scope)>,
        commands: &[Command],
        actor: &Actor,
    ) -> Result<Written> {
        let shown = guard.and_then(|(n, _)| self.seen.borrow().get(&(tid, n)).cloned());
        let (written, print) = self.write(|tx| {
            // Tournament first, then round, then game: one order for every writer.
            tx.lock("tournaments", "id = ?1", [tid])?;
            if let Some((n, _)) = guard {
                tx.lock(
                    "rounds",
                    "tournament_id = ?1 AND number = ?2",
                    args![tid, n],
                )?;
            } else {
                // A command with no round of its own (pairing the next round, starting the
                // next games) may complete the last round: its rounds are locked before the
                // event is read, so a round another desk is completing is read as that desk
                // leaves it, never completed a second time from a stale read.
                tx.lock("rounds", "tournament_id = ?1", [tid])?;
            }
            let event = event_rows::load(tx, tid, Reader::Desk)?;
            if let (Some((n, scope)), Some(shown)) = (guard, &shown)
                && let Some(refusal) = conflict(n, shown, &round_print(event.round(n)), scope)
            {
                return Err(refusal);
            }
            let (changes, after) = event.decide_all(commands, tx.now()).map_err(refused)?;
            let penalties = keep(tx, tid, &changes, actor)?;
            let print = guard.map(|(n, _)| round_print(after.round(n)));
            Ok((Written { changes, penalties }, print))
        })?;
        if let (Some((n, _)), Some(print)) = (guard, print) {
            self.seen.borrow_mut().insert((tid, n), print);
        }
        Ok(written)
    }

    /// The backups of the rounds a command completed, after its commit.
    fn completed(&self, tid: TournamentId, changes: &Changes) -> Vec<RoundCompleted> {
        changes
            .completed
            .iter()
            .map(|&n| self.completion_backup(tid, n))
            .collect()
    }

    /// The backup of a round that just became complete (after the commit), and how it went.
    pub(crate) fn completion_backup(&self, tid: TournamentId, round: RoundNo) -> RoundCompleted {
        RoundCompleted {
            tournament: tid,
            round,
            backup: self.backup_note(&format!("t{tid}-round-{round}-complete")),
        }
    }

    /// Pairs the next round (or the next step of an event of stages) as a draft, for the
    /// director to look at, change and publish. The last round must be complete: a
    /// published round whose results are all in is completed here and backed up.
    pub fn pair_round(&mut self, tid: TournamentId, actor: &Actor) -> Result<Paired> {
        let w = self.decide(tid, None, &[Command::Pair], actor)?;
        Ok(Paired {
            round: w.changes.paired.unwrap_or(RoundNo(0)),
            completed: self.completed(tid, &w.changes).into_iter().next(),
        })
    }

    /// Pairs and publishes, in one action, the next step of an event of stages that leaves
    /// nothing to decide: the next games of the knockout or the next playoff games at a cut.
    /// Returns the round's number and its backup.
    pub fn start_next_games(
        &mut self,
        tid: TournamentId,
        actor: &Actor,
    ) -> Result<(RoundNo, BackupNote)> {
        let w = self.decide(tid, None, &[Command::StartNextGames], actor)?;
        let number = w.changes.paired.unwrap_or(RoundNo(0));
        let complete = w.changes.completed.contains(&number);
        let label = if complete {
            format!("t{tid}-round-{number}-complete")
        } else {
            format!("t{tid}-round-{number}-published")
        };
        Ok((number, self.backup_note(&label)))
    }

    /// Throws a draft away (its requested absences stay).
    pub fn discard_draft(
        &mut self,
        tid: TournamentId,
        round: RoundNo,
        actor: &Actor,
    ) -> Result<()> {
        let guard = Some((round, Scope::Round));
        self.decide(tid, guard, &[Command::Discard(round)], actor)
            .map(|_| ())
    }

    /// Publishes a draft: the round is on, the tables can start. Refused while the draft
    /// seats a withdrawn or banned player. Backed up after the commit.
    pub fn publish_round(
        &mut self,
        tid: TournamentId,
        round: RoundNo,
        actor: &Actor,
    ) -> Result<BackupNote> {
        let guard = Some((round, Scope::Round));
        self.decide(tid, guard, &[Command::Publish(round)], actor)?;
        Ok(self.backup_note(&format!("t{tid}-round-{round}-published")))
    }

    /// Re-pairs the last round after it was published (the director confirmed, with a
    /// reason): its games at the desk are voided (records kept), its results dropped, and a
    /// new draft takes its place. Returns the draft's number.
    pub fn repair_round(
        &mut self,
        tid: TournamentId,
        round: RoundNo,
        reason: &str,
        actor: &Actor,
    ) -> Result<RoundNo> {
        let command = Command::Repair {
            round,
            reason: reason.to_string(),
        };
        let w = self.decide(tid, Some((round, Scope::Round)), &[command], actor)?;
        Ok(w.changes.paired.unwrap_or(round))
    }

    /// Marks a published round complete once every result is in. Backed up after.
    pub fn complete_round(
        &mut self,
        tid: TournamentId,
        round: RoundNo,
        actor: &Actor,
    ) -> Result<BackupNote> {
        let guard = Some((round, Scope::Round));
        self.decide(tid, guard, &[Command::Complete(round)], actor)?;
        Ok(self.backup_note(&format!("t{tid}-round-{round}-complete")))
    }

    /// Sets (or clears) a round's official start, from which the grace period runs.
    pub fn set_round_start(
        &mut self,
        tid: TournamentId,
        round: RoundNo,
        at: Option<i64>,
        actor: &Actor,
    ) -> Result<()> {
        let command = Command::SetStart { round, at };
        self.decide(tid, Some((round, Scope::Round)), &[command], actor)
            .map(|_| ())
    }

    /// What swapping two players of a draft would need confirmed (a rematch, a forbidden
    /// pair, a second bye, an absence asked); an error if the swap is not allowed at all.
    pub fn check_swap(
        &self,
        tid: TournamentId,
        round: RoundNo,
        a: PlayerId,
        b: PlayerId,
    ) -> Result<Vec<String>> {
        let (plan, _) = self.event(tid)?.plan_swap(round, a, b).map_err(refused)?;
        Ok(plan.warnings.iter().map(ToString::to_string).collect())
    }

    /// Swaps two players of a draft: each takes the other's seat (a board side, the bye, or
    /// out of the round). With warnings it needs confirming. In the audit log, with what was
    /// confirmed.
    pub fn swap_players(
        &mut self,
        tid: TournamentId,
        round: RoundNo,
        a: PlayerId,
        b: PlayerId,
        confirmation: Confirmation,
        actor: &Actor,
    ) -> Result<()> {
        let command = Command::Swap {
            round,
            a,
            b,
            confirmation,
        };
        self.decide(tid, Some((round, Scope::Round)), &[command], actor)
            .map(|_| ())
    }

    /// Enters a board's result by hand. Changing a result already entered needs a reason;
    /// a game still being played at the desk takes its result from there. The round is
    /// complete (and backed up) when its last result is in; setting a result back to
    /// pending reopens it.
    pub fn set_result(
        &mut self,
        tid: TournamentId,
        round: RoundNo,
        board: BoardNo,
        result: GameResult,
        reason: &str,
        actor: &Actor,
    ) -> Result<ResultSaved> {
        let command = Command::SetResult {
            round,
            board,
            result,
            reason: reason.to_string(),
        };
        let guard = Some((round, Scope::Board(board)));
        let w = self.decide(tid, guard, &[command], actor)?;
        Ok(ResultSaved {
            completed: self
                .completed(tid, &w.changes)
                .into_iter()
                .next()
                .map(|c| c.backup),
        })
    }

    /// A default loss after the grace period: the absent player loses by forfeit; both
    /// absent, both lose. Refused before the grace period is over (`now_ms`), for a board
    /// with a result, and for a game already started at the desk.
    pub fn default_loss(
        &mut self,
        tid: TournamentId,
        round: RoundNo,
        board: BoardNo,
        absent: Absentee,
        now_ms: i64,
        actor: &Actor,
    ) -> Result<ResultSaved> {
        let command = Command::DefaultLoss {
            round,
            board,
            absent,
            now_ms,
        };
        let guard = Some((round, Scope::Board(board)));
        let w = self.decide(tid, guard, &[command], actor)?;
        Ok(ResultSaved {
            completed: self
                .completed(tid, &w.changes)
                .into_iter()
                .next()
                .map(|c| c.backup),
        })
    }

    /// Registers registry players in a tournament in one transaction: all of them or, if
    /// any is refused (banned, already registered, a late entry into an event of stages),
    /// none. After rounds have been played this is a late entry: absent (recorded so) in
    /// every round already published.
    pub fn register_all(
        &mut self,
        tid: TournamentId,
        players: &[RegistryId],
        actor: &Actor,
    ) -> Result<Vec<PlayerId>> {
        let commands = self.read(|q| {
            players
                .iter()
                .map(|&p| registrant(q, p).map(Command::Register))
                .collect::<Result<Vec<_>>>()
        })?;
        Ok(self.decide(tid, None, &commands, actor)?.changes.registered)
    }

    /// Registers a registry player in a tournament and returns the player's number (see
    /// [`Store::register_all`]).
    pub fn register(
        &mut self,
        tid: TournamentId,
        player: RegistryId,
        actor: &Actor,
    ) -> Result<PlayerId> {
        let numbers = self.register_all(tid, &[player], actor)?;
        numbers
            .first()
            .copied()
            .ok_or_else(|| StoreError::Database("the registration wrote no player".into()))
    }

    /// Takes back a registration made by mistake: only while the player is in no round, no
    /// forbidden pair and has no penalty.
    pub fn unregister(&mut self, tid: TournamentId, no: PlayerId, actor: &Actor) -> Result<()> {
        self.decide(tid, None, &[Command::Unregister(no)], actor)
            .map(|_| ())
    }

    /// Withdraws a player (not paired from the next round on) or re-enters one (paired again
    /// from the next round; the rounds missed count as absent). A banned player cannot
    /// re-enter.
    pub fn set_withdrawn(
        &mut self,
        tid: TournamentId,
        no: PlayerId,
        change: Withdrawal,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        let command = Command::SetWithdrawn {
            player: no,
            change,
            reason: reason.to_string(),
        };
        self.decide(tid, None, &[command], actor).map(|_| ())
    }

    /// Records (or takes back) a player's wish to miss a round not paired yet.
    pub fn set_absence(
        &mut self,
        tid: TournamentId,
        no: PlayerId,
        round: RoundNo,
        change: AbsenceChange,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        let command = Command::SetAbsence {
            player: no,
            round,
            change,
            reason: reason.to_string(),
        };
        self.decide(tid, None, &[command], actor).map(|_| ())
    }

    /// Deducts points from a player (unreasonable delay…), with the reason; returns the
    /// penalty's id.
    pub fn add_penalty(
        &mut self,
        tid: TournamentId,
        no: PlayerId,
        points: Score,
        reason: &str,
        actor: &Actor,
    ) -> Result<PenaltyId> {
        let command = Command::AddPenalty {
            player: no,
            points,
            reason: reason.to_string(),
        };
        let w = self.decide(tid, None, &[command], actor)?;
        w.penalties
            .first()
            .copied()
            .ok_or_else(|| StoreError::Database("the penalty was not written".into()))
    }

    /// Cancels a penalty decided by mistake, with the reason.
    pub fn remove_penalty(
        &mut self,
        tid: TournamentId,
        penalty: PenaltyId,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        let command = Command::RemovePenalty {
            id: penalty,
            reason: reason.to_string(),
        };
        self.decide(tid, None, &[command], actor).map(|_| ())
    }

    /// Forbids pairing two registered players; forbidding a pair twice is harmless.
    pub fn forbid_pair(
        &mut self,
        tid: TournamentId,
        a: PlayerId,
        b: PlayerId,
        actor: &Actor,
    ) -> Result<()> {
        self.decide(tid, None, &[Command::ForbidPair(a, b)], actor)
            .map(|_| ())
    }

    /// Allows a forbidden pair again.
    pub fn allow_pair(
        &mut self,
        tid: TournamentId,
        a: PlayerId,
        b: PlayerId,
        actor: &Actor,
    ) -> Result<()> {
        self.decide(tid, None, &[Command::AllowPair(a, b)], actor)
            .map(|_| ())
    }

    /// Changes a tournament's settings (every change in the audit log with `reason`).
    pub fn update_tournament(
        &mut self,
        tid: TournamentId,
        setup: &TournamentSetup,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        let command = Command::UpdateSetup {
            setup: setup.clone(),
            reason: reason.to_string(),
        };
        self.decide(tid, None, &[command], actor).map(|_| ())
    }

    /// Sets a tournament's stages: `Some` makes it an event of stages (or changes its
    /// stages), `None` a tournament of one system again.
    pub fn set_stages(
        &mut self,
        tid: TournamentId,
        stages: Option<&[StageSpec]>,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        let command = Command::SetStages {
            stages: stages.map(<[StageSpec]>::to_vec),
            reason: reason.to_string(),
        };
        self.decide(tid, None, &[command], actor).map(|_| ())
    }

    /// Creates a tournament of one system.
    pub fn create_tournament(
        &mut self,
        setup: &TournamentSetup,
        actor: &Actor,
    ) -> Result<TournamentId> {
        self.create(setup, None, actor)
    }

    /// Creates an event of stages: `setup` gives its name, points and game rules (its
    /// system, rounds and tie-breaks are the stages'), `stages` its stages.
    pub fn create_staged_tournament(
        &mut self,
        setup: &TournamentSetup,
        stages: &[StageSpec],
        actor: &Actor,
    ) -> Result<TournamentId> {
        self.create(setup, Some(stages), actor)
    }

    fn create(
        &mut self,
        setup: &TournamentSetup,
        stages: Option<&[StageSpec]>,
        actor: &Actor,
    ) -> Result<TournamentId> {
        let mut setup = setup.checked().map_err(refused)?;
        if let Some(stages) = stages {
            setup = setup.for_stages();
            ggdesk_core::event::check_stages(setup.points, stages).map_err(refused)?;
        }
        self.write(|tx| {
            let id = event_rows::insert_tournament(tx, &setup, stages, &Map::new())?;
            audit(
                tx,
                actor,
                "tournament created",
                Some(id),
                None,
                "",
                &words::created_line(&setup, stages),
            )?;
            Ok(id)
        })
    }

    /// Imports a tournament file (`ggdesk-tournament/1`, or `/2`: an event of stages or a
    /// team event, spec/teams.md) in one transaction: the whole tournament or nothing.
    /// Players keep the file's numbers; each is linked to the registry player with the same
    /// federation id, or added to the registry. A player banned in the registry refuses the
    /// file.
    pub fn import_tournament(&mut self, file: &Value, actor: &Actor) -> Result<TournamentId> {
        if file.get("format").and_then(Value::as_str) == Some(ggdesk_core::stages::FORMAT_2)
            && ggdesk_core::teams::is_team_file(file)
        {
            return self.import_team_event(file, actor);
        }
        let read = read_file(file, self.now()).map_err(refused)?;
        let event = &read.event;
        self.write(|tx| {
            super::error::trace("import transaction begun");
            let mut record = event.record().clone();
            super::players::link_entrants(tx, &mut record.entrants)?;
            let stages = event.stage_specs();
            let id = event_rows::insert_tournament(tx, &record.setup, stages, &read.extra)?;
            event_rows::write_record(tx, id, &record)?;
            // What was written is the file's event again.
            let stored = event_rows::load(tx, id, Reader::Desk)?;
            if stored.to_file(&Map::new(), None) != event.to_file(&Map::new(), None) {
                return Err(StoreError::Database(
                    "the event read back from the database differs from the file's (nothing was imported)".into(),
                ));
            }
            let played = event.rounds().iter().filter(|r| r.kind == ggdesk_core::event::RoundKind::Round).count();
            let details = match stages {
                Some(s) => format!(
                    "{}: {} players, {} stages, {played} rounds",
                    event.name(),
                    event.entrants().len(),
                    s.len()
                ),
                None => format!(
                    "{}: {} players, {played} rounds",
                    event.name(),
                    event.entrants().len()
                ),
            };
            audit(tx, actor, "tournament imported", Some(id), None, "", &details)?;
            super::error::trace("import transaction committing");
            Ok(id)
        })
    }

    /// The tournament as its file (`ggdesk-tournament/1`, or `/2` for an event of stages or a
    /// team event):
    /// every published or complete round, the games' rules in `settings.rules`, a rated
    /// event's `date`, and the keys of an imported file this desk does not use.
    pub fn export_tournament(&self, tid: TournamentId) -> Result<Value> {
        self.read(|q| {
            // A team event keeps its own rows beside an event's (migration 10).
            if super::team_rows::is_team_event(q, tid)? {
                return super::team_rows::file(q, tid);
            }
            let event = event_rows::load(q, tid, Reader::Desk)?;
            let (extra, rated): (String, Option<String>) = q.query_row(
                "SELECT extra, rated_date FROM tournaments WHERE id = ?1",
                [tid],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let extra = match serde_json::from_str(&extra) {
                Ok(Value::Object(m)) => m,
                _ => Map::new(),
            };
            Ok(event.to_file(&extra, rated.as_deref()))
        })
    }
}

/// A registry player as a registration command takes them: the rating list's rating when
/// the player is on it (a new tournament seeds by the list), else the registry's.
fn registrant(q: &mut Tx<'_>, player: RegistryId) -> Result<Registrant> {
    let p = super::players::load_player(q, player)?;
    let rating = super::ratings::listed_rating(q, player)?.unwrap_or(p.rating);
    Ok(Registrant {
        registry: player,
        banned: p.is_banned(),
        name: p.name,
        federation_id: p.federation_id,
        club: p.club,
        rating,
    })
}

/// Commands on an event from a game at the desk, inside the game's own transaction.
pub(crate) fn desk_command(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    command: &Command,
    actor: &Actor,
) -> Result<Changes> {
    let event = event_rows::load(tx, tid, Reader::Desk)?;
    let changes = event.decide(command, tx.now()).map_err(refused)?;
    keep(tx, tid, &changes, actor)?;
    Ok(changes)
}

/// Keeps what the core decided, in the command's transaction: the event's rows, then the
/// rating list's cache when a rated event's games changed. Returns what `write` does.
fn keep(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    changes: &Changes,
    actor: &Actor,
) -> Result<Vec<PenaltyId>> {
    let written = event_rows::write(tx, tid, changes, actor)?;
    if let Some(g) = &changes.games_changed {
        super::ratings::after_change(tx, tid, &g.what, actor, &g.reason)?;
    }
    Ok(written)
}
