//! Why the event refuses a command: one typed value per rule, its words what the desk says.
//! A refused command changes nothing.

use super::lifecycle::{SwapRefusal, SwapWarning};
use super::model::Damage;
use crate::pairing::{Named, PairingError};
use crate::rules::RulesError;
use crate::stages::{EventFileError, SettingsFault, StepRefusal};
use crate::tournament::{
    BoardNo, GameId, GameResult, PenaltyId, PlayerId, RoundNo, Score, StageNo, TableNo,
    TournamentError, TournamentFileError, TournamentId,
};
use std::fmt;

/// What needs a reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReasonFor {
    Repair,
    Penalty,
    CancelPenalty,
}

impl fmt::Display for ReasonFor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ReasonFor::Repair => "re-pairing a published round",
            ReasonFor::Penalty => "a penalty",
            ReasonFor::CancelPenalty => "cancelling a penalty",
        })
    }
}

/// Why a player cannot sit at a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unable {
    Banned,
    Withdrawn,
}

impl fmt::Display for Unable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unable::Banned => "banned",
            Unable::Withdrawn => "withdrawn",
        })
    }
}

/// A setting of the games' rules out of its range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadTimer {
    MoveTime,
    GameTime,
    LosingOverstep,
    SetupTime,
    ReadingTime,
    Grace,
}

impl fmt::Display for BadTimer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BadTimer::MoveTime => "the move time must be more than 0 seconds",
            BadTimer::GameTime => "the game time must be more than 0 seconds",
            BadTimer::LosingOverstep => "the losing overstep must be at least the 1st",
            BadTimer::SetupTime => "the setup time must be a whole number of seconds above 0",
            BadTimer::ReadingTime => "the reading time must be a whole number of seconds above 0",
            BadTimer::Grace => "the grace period must be a whole number of seconds",
        })
    }
}

/// Why the event refuses a command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    // Rounds.
    #[error("round {0} has not been paired")]
    NotPaired(RoundNo),
    #[error("round {0} is drafted already: publish or discard it first")]
    DraftWaiting(RoundNo),
    #[error("round {round} still has {pending} game{} without a result", if *.pending == 1 { "" } else { "s" })]
    ResultsMissing { round: RoundNo, pending: u32 },
    #[error("{0} is banned but not withdrawn: withdraw the player first")]
    BannedNotWithdrawn(Named),
    #[error("{0}")]
    Pairing(PairingError),
    #[error("{0}")]
    Step(StepRefusal),
    #[error("round {0} is published: it can be re-paired, not discarded")]
    DiscardPublished(RoundNo),
    #[error("round {0} is not a draft")]
    NotADraft(RoundNo),
    #[error("{0} is banned and cannot play: swap the player out first")]
    PublishBanned(Named),
    #[error("{0} has withdrawn since the draft was made: swap the player out or re-pair")]
    PublishWithdrawn(Named),
    #[error("{player} is {why} and seated at table {table}: enter the forfeit, or re-pair")]
    SeatedUnable {
        player: Named,
        why: Unable,
        table: TableNo,
    },
    #[error("{0} needs a reason")]
    NeedsReason(ReasonFor),
    #[error("no round has been paired")]
    NoRound,
    #[error("only the last round ({0}) can be re-paired")]
    NotLastRound(RoundNo),
    #[error("round {0} is a draft: discard it and pair again")]
    RepairDraft(RoundNo),
    #[error("round {0} is complete already")]
    AlreadyComplete(RoundNo),
    #[error("round {0} is a draft: publish it first")]
    DraftNotPublished(RoundNo),
    #[error("{0}")]
    Swap(SwapRefusal),
    #[error("needs confirmation: {}", join(.0))]
    NeedsConfirmation(Vec<SwapWarning>),
    #[error(
        "round {round}'s boards follow from the rules of {stage} (a round-robin group's table, \
         a knockout's bracket or a playoff): they cannot be changed by hand"
    )]
    FixedBoards { round: RoundNo, stage: String },
    #[error(
        "round {round}'s boards follow from the rules of {stage} (a group's table, a \
         knockout's bracket or a playoff): re-pairing would give the same boards; correct a \
         result instead"
    )]
    RepairFixed { round: RoundNo, stage: String },
    #[error("stage {0} is not seeded")]
    StageNotSeeded(StageNo),
    #[error("round {0} is a draft: publish it before entering results")]
    ResultInDraft(RoundNo),
    #[error("round {round} has no board {board}")]
    NoSuchBoard { round: RoundNo, board: BoardNo },
    #[error("table {table} already has a result ({}): changing it needs a reason", .old.name())]
    ChangeNeedsReason { table: TableNo, old: GameResult },
    #[error(
        "table {table} is being played at the desk (game {game}): its result comes from the \
         arbiter; void the game on the Tables page if it must not count"
    )]
    AtTheDesk { table: TableNo, game: GameId },
    #[error("round {0} has no official start yet: start the round first")]
    NoStart(RoundNo),
    #[error("the grace period is not over: {minutes} more minute{}", if *.minutes == 1 { "" } else { "s" })]
    GraceNotOver { minutes: i64 },
    #[error("table {table} already has a result ({}): change it by hand, with a reason", .old.name())]
    DefaultOnResult { table: TableNo, old: GameResult },
    #[error("the game at table {0} has started at the desk: both players came")]
    BothCame(TableNo),
    #[error("this change would leave the event's stages inconsistent ({}); nothing was changed", .0.words())]
    Inconsistent(Damage),
    #[error("{0}; nothing was changed")]
    Reseeds(String),
    #[error("only an event of stages has knockout or playoff games: pair the round")]
    NotStaged,
    #[error("the next round of {0} is a pairing to look at: pair it as a draft, then publish it")]
    NotForced(String),

    // Players.
    #[error("player {player} is not registered in tournament {tournament}")]
    NotRegistered {
        player: PlayerId,
        tournament: TournamentId,
    },
    #[error("{0} is banned: a banned player cannot be registered")]
    BannedCannotRegister(String),
    #[error("{name} is already registered as player {no}")]
    AlreadyRegistered { name: String, no: PlayerId },
    #[error(
        "an event in stages takes no late entries: its first stage was seeded when round 1 \
         was paired (its seeds and groups are fixed)"
    )]
    NoLateEntryInStages,
    #[error("{0} is already paired, penalised or in a forbidden pair: withdraw the player instead")]
    CannotUnregister(String),
    #[error("{0} is banned: a banned player cannot re-enter")]
    BannedCannotReenter(String),
    #[error("{0} is withdrawn already")]
    AlreadyWithdrawn(String),
    #[error("{0} is playing already")]
    AlreadyPlaying(String),
    #[error("rounds are numbered from 1")]
    RoundZero,
    #[error(
        "an event in stages pairs every player of the stage: a player who cannot come loses \
         by default, or withdraw them"
    )]
    NoAbsenceInStages,
    #[error("round {round} is already drafted: discard the draft first, or swap {name} out of it")]
    AbsenceInDraft { round: RoundNo, name: String },
    #[error("round {round} is already published: enter a forfeit for {name} instead")]
    AbsenceInPublished { round: RoundNo, name: String },
    #[error("a penalty must be a positive number of points, not {0}")]
    PenaltyPoints(Score),
    #[error("penalty {0} not found")]
    NoSuchPenalty(PenaltyId),
    #[error("player {0} cannot be paired with themself anyway")]
    ForbidSelf(PlayerId),
    #[error("{0} - {1} is not a forbidden pair")]
    NotForbidden(PlayerId, PlayerId),
    #[error(
        "players[{index}]: {name} (federation id {federation_id}) is banned in the registry \
         ({registry_name}): a banned player cannot be registered"
    )]
    FileBanned {
        index: usize,
        name: String,
        federation_id: String,
        registry_name: String,
    },

    // Settings.
    #[error("a tournament needs a name")]
    NoName,
    #[error("{0}")]
    Settings(TournamentError),
    #[error("{0}")]
    Timer(BadTimer),
    #[error("the system cannot change once a round has been paired")]
    SystemFixed,
    #[error("{paired} rounds are already paired: the event cannot have only {rounds}")]
    TooFewRounds { paired: u32, rounds: u32 },
    #[error("a round has been paired: the tournament cannot change between one system and stages")]
    FormatFixed,
    #[error("stage {0} has a round paired: it is fixed (only the stages after it can change)")]
    StageFixed(StageNo),
    #[error("{0}")]
    Stages(SettingsFault),
    #[error("{what}: one line of at most {max} characters")]
    DetailTooLong { what: &'static str, max: usize },

    // Files.
    #[error("{0}")]
    File(TournamentFileError),
    #[error("{0}")]
    StagedFile(EventFileError),
    #[error("{0}")]
    Rules(RulesError),
}

fn join(warnings: &[SwapWarning]) -> String {
    warnings
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
