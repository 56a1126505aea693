//! The commands of an event: everything the director (or a game at the desk) does to it.
//! [`Event::decide`] checks a command and says what it changes; [`Event::after`] is the
//! event with those changes made.

use super::change::{Changes, Edit};
use super::lifecycle::RoundState;
use super::model::{Damage, Event, parts};
use super::record::{
    Absence, BoardRecord, EventRecord, Format, PenaltyRecord, RoundRecord, TournamentSetup,
};
use super::refusal::Refusal;
use crate::stages::StageSpec;
use crate::tournament::{
    BoardNo, GameId, GameResult, PenaltyId, PlayerId, RegistryId, RoundNo, Score, TableNo,
};

/// Who did not come to the board within the grace period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absentee {
    White,
    Black,
    Both,
}

impl Absentee {
    /// The result it gives: the present player wins by forfeit; both absent, both lose.
    pub fn result(self) -> GameResult {
        match self {
            Absentee::White => GameResult::BlackWinsByForfeit,
            Absentee::Black => GameResult::WhiteWinsByForfeit,
            Absentee::Both => GameResult::DoubleForfeit,
        }
    }
}

/// Whether the director has confirmed what a change by hand breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    /// Not yet: a change with warnings is refused, naming them.
    Unconfirmed,
    /// Confirmed: the warnings go into the audit log.
    Confirmed,
}

/// A player withdrawn, or taken back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Withdrawal {
    Withdraw,
    Reenter,
}

/// An absence asked for a round, or taken back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AbsenceChange {
    Ask,
    TakeBack,
}

/// A registry player about to be registered, as the registry has them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registrant {
    pub registry: RegistryId,
    pub name: String,
    pub federation_id: String,
    pub club: String,
    /// The rating list's rating when the player is on it, else the registry's.
    pub rating: i64,
    pub banned: bool,
}

/// A command on an event.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Pair the next round (or the next step of an event of stages) as a draft.
    Pair,
    /// Pair and publish at once a step that leaves nothing to decide: the next games of a
    /// knockout, or the playoff games at a cut.
    StartNextGames,
    Publish(RoundNo),
    Discard(RoundNo),
    /// Withdraw the last round after it was published and pair it again.
    Repair {
        round: RoundNo,
        reason: String,
    },
    Complete(RoundNo),
    SetStart {
        round: RoundNo,
        at: Option<i64>,
    },
    /// Two players of a draft each take the other's seat.
    Swap {
        round: RoundNo,
        a: PlayerId,
        b: PlayerId,
        confirmation: Confirmation,
    },
    /// A board's result entered by hand (changing one needs a reason).
    SetResult {
        round: RoundNo,
        board: BoardNo,
        result: GameResult,
        reason: String,
    },
    /// A default loss after the grace period, asked at `now_ms`.
    DefaultLoss {
        round: RoundNo,
        board: BoardNo,
        absent: Absentee,
        now_ms: i64,
    },
    /// A game at the desk decided (or undecided again): its board follows.
    DeskResult {
        game: GameId,
        round: RoundNo,
        table: TableNo,
        /// Its players, where the game knows them (two boards may share a table).
        players: Option<(PlayerId, PlayerId)>,
        result: GameResult,
    },
    /// A game at the desk voided (replayed): its board is pending again.
    DeskVoided {
        round: RoundNo,
        table: TableNo,
        players: Option<(PlayerId, PlayerId)>,
        reason: String,
    },
    Register(Registrant),
    Unregister(PlayerId),
    SetWithdrawn {
        player: PlayerId,
        change: Withdrawal,
        reason: String,
    },
    SetAbsence {
        player: PlayerId,
        round: RoundNo,
        change: AbsenceChange,
        reason: String,
    },
    AddPenalty {
        player: PlayerId,
        points: Score,
        reason: String,
    },
    RemovePenalty {
        id: PenaltyId,
        reason: String,
    },
    ForbidPair(PlayerId, PlayerId),
    AllowPair(PlayerId, PlayerId),
    UpdateSetup {
        setup: TournamentSetup,
        reason: String,
    },
    /// Stages for the event (`None`: one system again).
    SetStages {
        stages: Option<Vec<StageSpec>>,
        reason: String,
    },
}

impl Event {
    /// Checks a command at time `now` (Unix ms, the time written) and says what it
    /// changes; refused, it changes nothing. Every command's changes leave a valid event.
    pub fn decide(&self, command: &Command, now: i64) -> Result<Changes, Refusal> {
        self.decided(command, now).map(|(changes, _)| changes)
    }

    /// Decides a command, with the event its changes make (replayed once: that replay is
    /// also the check that the event still holds together).
    fn decided(&self, command: &Command, now: i64) -> Result<(Changes, Event), Refusal> {
        let changes = match command {
            Command::Pair => self.pair(now),
            Command::StartNextGames => self.start_next_games(now),
            Command::Publish(n) => self.publish(*n, now),
            Command::Discard(n) => self.discard(*n),
            Command::Repair { round, reason } => self.repair(*round, reason, now),
            Command::Complete(n) => self.complete(*n, now),
            Command::SetStart { round, at } => self.set_start(*round, *at),
            Command::Swap {
                round,
                a,
                b,
                confirmation,
            } => self.swap(*round, *a, *b, *confirmation),
            Command::SetResult {
                round,
                board,
                result,
                reason,
            } => self.set_result(*round, *board, *result, reason, now),
            Command::DefaultLoss {
                round,
                board,
                absent,
                now_ms,
            } => self.default_loss(*round, *board, *absent, *now_ms, now),
            Command::DeskResult {
                game,
                round,
                table,
                players,
                result,
            } => self.desk_result(*game, *round, *table, *players, *result, now),
            Command::DeskVoided {
                round,
                table,
                players,
                reason,
            } => self.desk_voided(*round, *table, *players, reason, now),
            Command::Register(r) => self.register(r),
            Command::Unregister(p) => self.unregister(*p),
            Command::SetWithdrawn {
                player,
                change,
                reason,
            } => self.set_withdrawn(*player, *change, reason),
            Command::SetAbsence {
                player,
                round,
                change,
                reason,
            } => self.set_absence(*player, *round, *change, reason),
            Command::AddPenalty {
                player,
                points,
                reason,
            } => self.add_penalty(*player, *points, reason, now),
            Command::RemovePenalty { id, reason } => self.remove_penalty(*id, reason),
            Command::ForbidPair(a, b) => self.forbid_pair(*a, *b),
            Command::AllowPair(a, b) => self.allow_pair(*a, *b),
            Command::UpdateSetup { setup, reason } => self.update_setup(setup, reason),
            Command::SetStages { stages, reason } => self.set_stages(stages.as_deref(), reason),
        }?;
        let record = self.record_after(&changes);
        // A correction in a finished stage never re-seeds a stage being played, nor undoes
        // a playoff played: refused in the director's words before the event's own check.
        if let (Some(before), Format::Stages(specs)) = (self.staged(), &record.format)
            && let Ok(after) = parts(&record, specs)
        {
            crate::stages::check_correction(before, &after).map_err(|r| {
                Refusal::Reseeds(super::words::reseeding_words(&r, specs, &|p| {
                    self.named(p).name
                }))
            })?;
        }
        // Whatever a command changes, the event must still hold together (a double forfeit
        // in a knockout...).
        let after = Event::new(self.id, record).map_err(Refusal::Inconsistent)?;
        Ok((changes, after))
    }

    /// Decides several commands one after the other, each on the event the ones before
    /// made: all of them, or (one refused) none. Answers their changes and the event they
    /// make.
    pub fn decide_all(&self, commands: &[Command], now: i64) -> Result<(Changes, Event), Refusal> {
        let mut event: Option<Event> = None;
        let mut all = Changes::default();
        for c in commands {
            let (changes, next) = event.as_ref().unwrap_or(self).decided(c, now)?;
            event = Some(next);
            all = all.then(changes);
        }
        Ok((all, event.unwrap_or_else(|| self.clone())))
    }

    /// The event with `changes` made.
    pub fn after(&self, changes: &Changes) -> Result<Event, Damage> {
        Event::new(self.id, self.record_after(changes))
    }

    /// The record with `changes` made.
    fn record_after(&self, changes: &Changes) -> EventRecord {
        let mut r = self.record.clone();
        for e in &changes.edits {
            apply(&mut r, e);
        }
        r
    }
}

/// Round `n` of a record.
fn round_mut(r: &mut EventRecord, n: RoundNo) -> Option<&mut RoundRecord> {
    n.index().and_then(|i| r.rounds.get_mut(i))
}

/// A board of round `n` of a record.
fn board_mut(r: &mut EventRecord, n: RoundNo, board: BoardNo) -> Option<&mut BoardRecord> {
    round_mut(r, n).and_then(|x| x.boards.iter_mut().find(|b| b.board == board))
}

/// Makes one edit on a record, as the store writes it.
fn apply(r: &mut EventRecord, e: &Edit) {
    match e {
        Edit::AddRound(rec) => r.rounds.push(rec.clone()),
        Edit::DeleteRound(n) => r.rounds.retain(|x| x.number != *n),
        Edit::Publish { round, at } => {
            if let Some(x) = round_mut(r, *round) {
                x.state = RoundState::Published;
                x.published_at = Some(*at);
            }
        }
        Edit::Complete { round, .. } => {
            if let Some(x) = round_mut(r, *round) {
                x.state = RoundState::Complete;
            }
        }
        Edit::Reopen(n) => {
            if let Some(x) = round_mut(r, *n) {
                x.state = RoundState::Published;
            }
        }
        Edit::SetStart { round, at } => {
            if let Some(x) = round_mut(r, *round) {
                x.starts_at = *at;
            }
        }
        Edit::SetResult {
            round,
            board,
            result,
        } => {
            if let Some(b) = board_mut(r, *round, *board) {
                b.result = *result;
            }
        }
        Edit::SetBoard {
            round,
            board,
            white,
            black,
            explanation,
        } => {
            if let Some(b) = board_mut(r, *round, *board) {
                b.white = *white;
                b.black = *black;
                b.explanation.clone_from(explanation);
            }
        }
        Edit::AddBye { round, bye } => {
            if let Some(x) = round_mut(r, *round) {
                x.byes.push(bye.clone());
            }
        }
        Edit::RemoveBye { round, player } => {
            if let Some(x) = round_mut(r, *round) {
                x.byes.retain(|b| b.player != *player);
            }
        }
        other => apply_beside_rounds(r, other),
    }
}

/// Makes an edit of what is kept beside the rounds.
fn apply_beside_rounds(r: &mut EventRecord, e: &Edit) {
    match e {
        Edit::AddAbsence(a)
            if !r
                .absences
                .iter()
                .any(|x| x.round == a.round && x.player == a.player) =>
        {
            r.absences.push(a.clone());
        }
        Edit::RemoveAbsence { round, player } => r
            .absences
            .retain(|a| !(a.round == *round && a.player == *player)),
        Edit::Register(entrant) => r.entrants.push(entrant.clone()),
        Edit::Unregister(p) => {
            r.entrants.retain(|e| e.player.id != *p);
            r.absences.retain(|a: &Absence| a.player != *p);
        }
        Edit::SetWithdrawn { player, withdrawn } => {
            if let Some(e) = r.entrants.iter_mut().find(|e| e.player.id == *player) {
                e.player.withdrawn = *withdrawn;
            }
        }
        Edit::AddPenalty {
            stage,
            player,
            points,
            reason,
            at,
        } => {
            let id = r.penalties.iter().map(|p| p.id.0).max().unwrap_or(0) + 1;
            r.penalties.push(PenaltyRecord {
                id: PenaltyId(id),
                stage: *stage,
                player: *player,
                points: *points,
                reason: reason.clone(),
                decided_at: *at,
            });
        }
        Edit::RemovePenalty(id) => r.penalties.retain(|p| p.id != *id),
        Edit::VoidGames { round, .. } => r.desk.retain(|g| g.round != *round),
        Edit::AddForbidden(a, b) => r.forbidden.push((*a, *b)),
        Edit::RemoveForbidden(a, b) => r.forbidden.retain(|p| *p != (*a, *b)),
        Edit::SetSetup(s) => r.setup = s.clone(),
        Edit::SetStages(s) => {
            r.format = match s {
                Some(s) => Format::Stages(s.clone()),
                None => Format::OneSystem,
            }
        }
        // The round edits are made by `apply`.
        _ => {}
    }
}
