//! What a command decided: the edits the store writes (in this order, in one transaction),
//! the lines it adds to the audit log, and what the caller reports (a round paired, a round
//! complete, the rating list to follow).

use super::record::{Absence, ByeRecord, Entrant, RoundRecord, TournamentSetup};
use crate::stages::StageSpec;
use crate::tournament::{
    BoardNo, GameId, GameResult, PenaltyId, PlayerId, RoundNo, Score, StageNo,
};

/// One change to what the desk keeps.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// A new round (a draft, or published at once) with its boards and byes.
    AddRound(RoundRecord),
    /// A round with its boards and byes (the absences asked for it stay).
    DeleteRound(RoundNo),
    /// A draft published at `at` (Unix ms).
    Publish {
        round: RoundNo,
        at: i64,
    },
    /// Every result in, at `at`.
    Complete {
        round: RoundNo,
        at: i64,
    },
    /// A result set back to pending: the round is in play again.
    Reopen(RoundNo),
    /// The official start set or cleared.
    SetStart {
        round: RoundNo,
        at: Option<i64>,
    },
    SetResult {
        round: RoundNo,
        board: BoardNo,
        result: GameResult,
    },
    /// A board's players as a change by hand made them, with why.
    SetBoard {
        round: RoundNo,
        board: BoardNo,
        white: PlayerId,
        black: PlayerId,
        explanation: String,
    },
    AddBye {
        round: RoundNo,
        bye: ByeRecord,
    },
    RemoveBye {
        round: RoundNo,
        player: PlayerId,
    },
    AddAbsence(Absence),
    RemoveAbsence {
        round: RoundNo,
        player: PlayerId,
    },
    /// A registration, at the end of the players list.
    Register(Entrant),
    /// A registration taken back, with the absences recorded for it.
    Unregister(PlayerId),
    SetWithdrawn {
        player: PlayerId,
        withdrawn: bool,
    },
    /// A penalty decided at `at` (the store gives it its id).
    AddPenalty {
        stage: StageNo,
        player: PlayerId,
        points: Score,
        reason: String,
        at: i64,
    },
    RemovePenalty(PenaltyId),
    /// The desk's games of a round voided (their records kept), with why.
    VoidGames {
        round: RoundNo,
        reason: String,
    },
    AddForbidden(PlayerId, PlayerId),
    RemoveForbidden(PlayerId, PlayerId),
    SetSetup(TournamentSetup),
    /// The event's stages (`None`: one system again).
    SetStages(Option<Vec<StageSpec>>),
}

/// One line for the audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditLine {
    pub action: &'static str,
    pub reason: String,
    pub details: String,
    /// The desk's game the line is about, if any.
    pub game: Option<GameId>,
}

impl AuditLine {
    pub fn new(
        action: &'static str,
        reason: impl Into<String>,
        details: impl Into<String>,
    ) -> Self {
        AuditLine {
            action,
            reason: reason.into(),
            details: details.into(),
            game: None,
        }
    }
}

/// What a command decided.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Changes {
    pub edits: Vec<Edit>,
    /// In the order they happened.
    pub audit: Vec<AuditLine>,
    /// The round the command paired (a draft, or started at once).
    pub paired: Option<RoundNo>,
    /// The round the command published.
    pub published: Option<RoundNo>,
    /// Rounds that became complete (each is backed up after the commit).
    pub completed: Vec<RoundNo>,
    /// The players the command registered.
    pub registered: Vec<PlayerId>,
    /// What changed the event's games: a rated event's rating list follows.
    pub games_changed: Option<GamesChanged>,
}

/// What changed an event's games, for a rated event's rating list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamesChanged {
    /// In words: `a result of round 3`, `round 4`.
    pub what: String,
    /// The reason given for the change (empty when none was asked).
    pub reason: String,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.edits.is_empty() && self.audit.is_empty()
    }

    pub(crate) fn edit(&mut self, e: Edit) {
        self.edits.push(e);
    }

    pub(crate) fn audit(
        &mut self,
        action: &'static str,
        reason: impl Into<String>,
        details: impl Into<String>,
    ) {
        self.audit.push(AuditLine::new(action, reason, details));
    }

    /// Another command's changes after these, as one.
    pub fn then(mut self, next: Changes) -> Changes {
        self.edits.extend(next.edits);
        self.audit.extend(next.audit);
        self.paired = next.paired.or(self.paired);
        self.published = next.published.or(self.published);
        self.completed.extend(next.completed);
        self.registered.extend(next.registered);
        self.games_changed = next.games_changed.or(self.games_changed);
        self
    }
}
