//! Why a team event is refused, with the place (`stages[0].rounds[1].matches[2].boards[1]`).

use super::model::TeamId;
use crate::tournament::{FaultAt, FileFault, PlayerId, TournamentFileError};

/// What breaks the rules of a team event (the place is the error's `at`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamFault {
    /// A fault any tournament file can have (a key missing, a wrong type…).
    #[error("{0}")]
    File(FileFault),
    #[error("unknown team id {0}")]
    UnknownTeam(TeamId),
    #[error("duplicate team id {0}")]
    DuplicateTeam(TeamId),
    #[error("a team's roster needs at least {boards} players (team.boards), it has {has}")]
    ShortRoster { boards: usize, has: usize },
    #[error("player {player} is in team {first} and in team {second}")]
    TwoTeams {
        player: PlayerId,
        first: TeamId,
        second: TeamId,
    },
    #[error("player {player} is twice in the roster of team {team}")]
    TwiceInRoster { player: PlayerId, team: TeamId },
    #[error("the captain {0} is not in the team's roster")]
    CaptainNotInRoster(PlayerId),
    #[error(
        "unknown system {0:?} (expected \"swiss\", \"round_robin\", \"board_groups\" or \"scheveningen\")"
    )]
    UnknownSystem(String),
    #[error(
        "unknown team tie-break {0:?} (expected game_points, match_points, direct_encounter, buchholz, sonneborn_berger, board_count or wins)"
    )]
    UnknownTieBreak(String),
    #[error("team tie-break {0} is listed twice")]
    DuplicateTieBreak(&'static str),
    #[error(
        "team tie-break {0} is not available in a board_groups stage (wins, board_count, game_points, match_points are)"
    )]
    TieBreakNotForBoardGroups(&'static str),
    #[error("unknown primary score {0:?} (expected \"match_points\" or \"game_points\")")]
    UnknownPrimary(String),
    #[error("a team event has no {0:?} key in a stage")]
    NotInTeamEvent(&'static str),
    #[error("only the last stage may be a scheveningen final")]
    FinalNotLast,
    #[error("a scheveningen final needs exactly two teams, the event has {0}")]
    FinalNeedsTwo(usize),
    #[error("a scheveningen final comes after a stage that sends on 2 teams (advance 2)")]
    FinalAfterAdvance,
    #[error("every stage but the last says how many teams go on (advance)")]
    NoAdvance,
    #[error("a swiss stage says how many rounds it has (round_count)")]
    NoRoundCount,
    #[error("a match has {boards} boards (team.boards), this one has {has}")]
    BoardCount { boards: usize, has: usize },
    #[error("team {0} plays itself")]
    PlaysItself(TeamId),
    #[error("team {0} is twice in this round")]
    TeamTwice(TeamId),
    #[error("team {team} does not play in stage {stage}")]
    TeamNotInStage { team: TeamId, stage: usize },
    #[error("player {player} is not in team {team}")]
    NotInTeam { player: PlayerId, team: TeamId },
    #[error("player {0} is in no team, so may not play")]
    NoTeam(PlayerId),
    #[error("player {0} plays twice in this match")]
    TwiceInMatch(PlayerId),
    #[error(
        "player {player} plays board {board} but comes after player {above} (board {above_board}) in the roster of team {team}: boards follow the roster order"
    )]
    RosterOrder {
        player: PlayerId,
        board: usize,
        above: PlayerId,
        above_board: usize,
        team: TeamId,
    },
    #[error("team {team} fills board {board} below its empty board {empty}")]
    FilledBelowEmpty {
        team: TeamId,
        board: usize,
        empty: usize,
    },
    #[error("result {result} with {side}: expected {expected}")]
    ForfeitMismatch {
        result: &'static str,
        side: &'static str,
        expected: &'static str,
    },
    #[error("a team stage's rounds hold matches, not games")]
    GamesInMatchStage,
    #[error("this stage's rounds hold games, not matches")]
    MatchesInGameStage,
    #[error("group {0:?} does not exist (expected B1…B{1})")]
    NoSuchGroup(String, usize),
    #[error("player {player} does not play board {board} of a team in this stage")]
    NotInGroup { player: PlayerId, board: usize },
    #[error("player {player} does not play in the final")]
    NotInFinal { player: PlayerId },
    #[error("players {0} and {1} are of the same team")]
    SameTeam(PlayerId, PlayerId),
    #[error(
        "{white} against {black} is not a game of round {round} of this stage (expected {expected})"
    )]
    NotScheduled {
        white: PlayerId,
        black: PlayerId,
        round: usize,
        expected: String,
    },
    #[error("player {0} plays twice in this round")]
    PlayerTwice(PlayerId),
    #[error("the stage has {planned} rounds, the file has more")]
    TooManyRounds { planned: usize },
    #[error(
        "stage {0} is not seeded yet: the stage before it is not complete or its cut is not clear"
    )]
    NotSeeded(usize),
    #[error("the last stage has no cut, so no playoffs (only a Scheveningen final has one)")]
    PlayoffInLastStage,
    #[error("the final did not end level on game points: no playoff")]
    FinalNotLevel,
    #[error("stage {0} is not complete: no playoff yet")]
    PlayoffTooEarly(usize),
    #[error("no teams tie across the cut of stage {0}: no playoff there")]
    NoTieAtCut(usize),
    #[error("team {team} of player {player} is not tied at the cut")]
    NotTied { player: PlayerId, team: TeamId },
    #[error("team {team} nominated player {nominee}, not player {player}")]
    OtherNominee {
        team: TeamId,
        nominee: PlayerId,
        player: PlayerId,
    },
    #[error("{0}")]
    Playoff(crate::stages::PlayoffFault),
    #[error("a playoff game has no result yet")]
    PlayoffWaiting,
    #[error("the event is not over: stage {0} is still being played")]
    NotOver(usize),
    #[error(
        "the final ended level on game points: the captains' nominees play off until one game is won"
    )]
    FinalLevel,
    #[error("the event is over: every stage has been played")]
    EventOver,
    #[error("round {round} of stage {stage} is not complete")]
    RoundIncomplete { stage: usize, round: usize },
    #[error("there is no stage {0}")]
    NoSuchStage(u32),
    #[error("{0}")]
    Pairing(String),
}

/// Why a team event is refused: where (a JSON path, empty for the whole file) and what.
pub type TeamFileError = FaultAt<TeamFault>;

impl From<TournamentFileError> for TeamFileError {
    fn from(e: TournamentFileError) -> TeamFileError {
        TeamFileError {
            at: e.at,
            fault: TeamFault::File(e.fault),
        }
    }
}

/// A fault at a place.
pub(crate) fn fault(at: impl Into<String>, f: TeamFault) -> TeamFileError {
    TeamFileError {
        at: at.into(),
        fault: f,
    }
}
