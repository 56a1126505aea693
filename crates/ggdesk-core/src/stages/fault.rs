//! Why an event of stages is refused: a fault of the file's shape (the `/1` file's own
//! [`FileFault`]s, which a `/2` file shares) or of the stages' rules ([`StageFault`]), with
//! the place where it is (`stages[1].rounds[0].games[2]`).

use super::bracket::BracketFault;
use super::playoff::PlayoffFault;
use super::settings::{GroupId, SettingsFault};
use crate::tournament::{FaultAt, FileFault, PlayerId, StageNo, TournamentFileError};

/// Why an event breaks the rules of its stages (the place is the error's `at`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StageFault {
    #[error("{0}")]
    Settings(SettingsFault),
    #[error(
        "stage {0} is not seeded yet: the stage before it is not complete or its cut is not clear"
    )]
    NotSeeded(StageNo),
    #[error("player {player} did not qualify for stage {stage}")]
    NotQualified { player: PlayerId, stage: StageNo },
    #[error("group {0:?} does not exist in this stage")]
    NoSuchGroup(String),
    #[error("a game of a stage with groups names its group")]
    NoGroup,
    #[error("player {player} is not in group {group}")]
    NotInGroup { player: PlayerId, group: GroupId },
    #[error("group {group} has no round {round}: its cycle is shorter")]
    GroupSatOut { group: GroupId, round: usize },
    #[error("the stage has {planned} rounds, the file has more")]
    TooManyRounds { planned: usize },
    #[error("a knockout game names its match")]
    NoMatch,
    #[error("match {0:?} is neither \"R.M\" nor \"3rd\"")]
    BadMatch(String),
    #[error("{0}")]
    Bracket(BracketFault),
    #[error("a knockout round follows a round that is not complete")]
    AfterIncompleteRound,
    #[error("the stage is not complete: no playoff yet")]
    PlayoffTooEarly,
    #[error("the last stage has no cut, so no playoffs")]
    PlayoffInLastStage,
    #[error("group {0} has no tie at its cut: no playoff there")]
    NoTieInGroup(GroupId),
    #[error("{0}")]
    Playoff(PlayoffFault),
    #[error("players {0} and {1} are in different groups")]
    GroupsDiffer(PlayerId, PlayerId),
    #[error("there is no stage {0}")]
    NoSuchStage(u32),
    #[error("player {player} does not play in stage {stage}")]
    NotInStage { player: PlayerId, stage: StageNo },
    #[error("unknown system {0:?} (expected \"swiss\", \"round_robin\" or \"knockout\")")]
    UnknownStageSystem(String),
    #[error("unknown seeding {0:?} (expected \"standard\" or \"cross_over\")")]
    UnknownSeeding(String),
    /// A later stage played with players or seeds its stage before does not give (a
    /// result changed after the cut).
    #[error(
        "{fault}: by the results of stage {before}, the players going on to stage {stage} are, \
         by seed, {}; a result cannot change who went on or their seeds",
        ids(.seeds)
    )]
    Reseeded {
        fault: Box<StageFault>,
        before: StageNo,
        stage: StageNo,
        seeds: Vec<PlayerId>,
    },
}

fn ids(list: &[PlayerId]) -> String {
    list.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What is wrong at a place of an event of stages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventFault {
    /// A fault any tournament file can have (a key missing, an unknown player...).
    #[error("{0}")]
    File(FileFault),
    /// A fault of the stages' rules.
    #[error("{0}")]
    Stage(StageFault),
}

/// Why an event of stages (a `ggdesk-tournament/2` file, or the parts the desk keeps) is
/// refused: where (a JSON path such as `stages[1].rounds[0]`, empty for the whole file) and
/// what.
pub type EventFileError = FaultAt<EventFault>;

impl From<TournamentFileError> for EventFileError {
    fn from(e: TournamentFileError) -> EventFileError {
        EventFileError {
            at: e.at,
            fault: EventFault::File(e.fault),
        }
    }
}

/// A file fault at a place.
pub(crate) fn err(at: impl Into<String>, f: FileFault) -> EventFileError {
    EventFileError {
        at: at.into(),
        fault: EventFault::File(f),
    }
}

/// A fault of the stages' rules at a place.
pub(crate) fn fault(at: impl Into<String>, f: StageFault) -> EventFileError {
    EventFileError {
        at: at.into(),
        fault: EventFault::Stage(f),
    }
}
