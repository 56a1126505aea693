//! The values of a team event: teams, the `team` settings, team stages and their rounds.

use crate::stages::PlayedOff;
use crate::tournament::{GameResult, Player, PlayerId, PointsScale, Ratio, Score};
use std::fmt;

/// A team's id (its `id` in the file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TeamId(pub u32);

impl fmt::Display for TeamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A team: its roster in board order (the players after the first B are reserves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    pub id: TeamId,
    pub name: String,
    pub roster: Vec<PlayerId>,
    pub captain: Option<PlayerId>,
}

/// What a match won, drawn or lost scores (`team.match_points`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchPoints {
    pub win: Score,
    pub draw: Score,
    pub loss: Score,
}

impl Default for MatchPoints {
    fn default() -> MatchPoints {
        MatchPoints {
            win: Score::from_points(2),
            draw: Score::from_points(1),
            loss: Score::ZERO,
        }
    }
}

/// What a team's bye scores (`team.bye`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamBye {
    pub match_points: Score,
    pub game_points: Score,
}

/// The score that orders teams (`team.primary`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Primary {
    MatchPoints,
    GamePoints,
}

impl Primary {
    /// Its name in the file (`match_points`, `game_points`).
    pub fn name(self) -> &'static str {
        match self {
            Primary::MatchPoints => "match_points",
            Primary::GamePoints => "game_points",
        }
    }
}

/// The file's `team` settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamSettings {
    /// B ≥ 1.
    pub boards: usize,
    pub match_points: MatchPoints,
    pub bye: TeamBye,
    pub primary: Primary,
}

impl TeamSettings {
    /// The settings of an event of `boards` boards with the spec's defaults: match points
    /// 2/1/0, a bye scoring a drawn match and B drawn games (`points.draw` each), match
    /// points first.
    pub fn new(boards: usize, scale: &PointsScale) -> TeamSettings {
        let match_points = MatchPoints::default();
        TeamSettings {
            boards,
            match_points,
            bye: TeamBye {
                match_points: match_points.draw,
                game_points: Score::from_halves(
                    scale
                        .draw
                        .halves()
                        .saturating_mul(i64::try_from(boards).unwrap_or(i64::MAX)),
                ),
            },
            primary: Primary::MatchPoints,
        }
    }
}

/// A team stage's system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamSystem {
    Swiss,
    RoundRobin,
    BoardGroups,
    Scheveningen,
}

impl TeamSystem {
    /// The system's name in the file (`swiss`, `round_robin`, `board_groups`,
    /// `scheveningen`).
    pub fn name(self) -> &'static str {
        match self {
            TeamSystem::Swiss => "swiss",
            TeamSystem::RoundRobin => "round_robin",
            TeamSystem::BoardGroups => "board_groups",
            TeamSystem::Scheveningen => "scheveningen",
        }
    }

    pub fn from_name(name: &str) -> Option<TeamSystem> {
        Some(match name {
            "swiss" => TeamSystem::Swiss,
            "round_robin" => TeamSystem::RoundRobin,
            "board_groups" => TeamSystem::BoardGroups,
            "scheveningen" => TeamSystem::Scheveningen,
            _ => return None,
        })
    }

    /// Whether the stage's rounds hold matches (else games).
    pub fn has_matches(self) -> bool {
        matches!(self, TeamSystem::Swiss | TeamSystem::RoundRobin)
    }
}

/// A team tie-break (`team_tiebreaks`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamTieBreak {
    GamePoints,
    MatchPoints,
    DirectEncounter,
    Buchholz,
    SonnebornBerger,
    BoardCount,
    Wins,
}

impl TeamTieBreak {
    /// Whether the tie-break is one of the two scores (game points, match points), which a
    /// standings table shows as its own column: a column of it again would repeat it.
    pub fn is_a_score(self) -> bool {
        matches!(self, TeamTieBreak::GamePoints | TeamTieBreak::MatchPoints)
    }

    pub const ALL: [TeamTieBreak; 7] = [
        TeamTieBreak::GamePoints,
        TeamTieBreak::MatchPoints,
        TeamTieBreak::DirectEncounter,
        TeamTieBreak::Buchholz,
        TeamTieBreak::SonnebornBerger,
        TeamTieBreak::BoardCount,
        TeamTieBreak::Wins,
    ];

    pub fn name(self) -> &'static str {
        match self {
            TeamTieBreak::GamePoints => "game_points",
            TeamTieBreak::MatchPoints => "match_points",
            TeamTieBreak::DirectEncounter => "direct_encounter",
            TeamTieBreak::Buchholz => "buchholz",
            TeamTieBreak::SonnebornBerger => "sonneborn_berger",
            TeamTieBreak::BoardCount => "board_count",
            TeamTieBreak::Wins => "wins",
        }
    }

    pub fn from_name(name: &str) -> Option<TeamTieBreak> {
        TeamTieBreak::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The spec's default: game points, direct encounter, Sonneborn-Berger.
    pub fn default_order() -> Vec<TeamTieBreak> {
        vec![
            TeamTieBreak::GamePoints,
            TeamTieBreak::DirectEncounter,
            TeamTieBreak::SonnebornBerger,
        ]
    }

    /// Whether a `board_groups` stage can compute it (it has no matches).
    pub fn for_board_groups(self) -> bool {
        matches!(
            self,
            TeamTieBreak::GamePoints
                | TeamTieBreak::MatchPoints
                | TeamTieBreak::BoardCount
                | TeamTieBreak::Wins
        )
    }
}

/// One board of a match: `None` is a board the team left empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardGame {
    pub white: Option<PlayerId>,
    pub black: Option<PlayerId>,
    pub result: GameResult,
}

/// A match between two teams: B boards in board order; on odd boards the home team has
/// white.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamMatch {
    pub table: Option<u32>,
    pub home: TeamId,
    pub away: TeamId,
    pub boards: Vec<BoardGame>,
}

/// The table of board `b` (from 0) of the match at table `t`: (t−1)×B + b + 1
/// (`spec/teams.md`: the match at table t plays at tables (t−1)×B + 1 … t×B).
pub fn board_table(t: u32, boards: usize, b: usize) -> u32 {
    let boards = u32::try_from(boards).unwrap_or(u32::MAX);
    let b = u32::try_from(b).unwrap_or(u32::MAX);
    t.saturating_sub(1)
        .saturating_mul(boards)
        .saturating_add(b.saturating_add(1))
}

impl TeamMatch {
    /// The match's table: its own, else its place `i` (from 0) in the round plus one.
    pub fn table_or(&self, i: usize) -> u32 {
        self.table
            .unwrap_or_else(|| u32::try_from(i + 1).unwrap_or(u32::MAX))
    }

    /// The home team's player and the away team's player of board `b` (from 0).
    pub fn sides(&self, b: usize) -> Option<(Option<PlayerId>, Option<PlayerId>)> {
        let g = self.boards.get(b)?;
        Some(if b.is_multiple_of(2) {
            (g.white, g.black)
        } else {
            (g.black, g.white)
        })
    }
}

/// A game of a `board_groups` stage (its group `B1`…`BB`, from 1 here) or of the final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupGame {
    /// The board of the group (`B2` is 2); `None` in the final.
    pub board: Option<usize>,
    pub table: Option<u32>,
    pub white: PlayerId,
    pub black: PlayerId,
    pub result: GameResult,
}

/// One round of a team stage: matches and team byes, or games.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TeamRound {
    pub matches: Vec<TeamMatch>,
    pub byes: Vec<TeamId>,
    pub games: Vec<GroupGame>,
}

impl TeamRound {
    /// Whether no board or game of the round is pending.
    pub fn is_complete(&self) -> bool {
        self.matches
            .iter()
            .flat_map(|m| &m.boards)
            .all(|b| b.result != GameResult::Pending)
            && self.games.iter().all(|g| g.result != GameResult::Pending)
    }
}

/// A stage of a team event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamStage {
    pub name: String,
    pub system: TeamSystem,
    pub round_count: Option<u32>,
    /// How many teams go on (every stage but the last).
    pub advance: Option<u32>,
    pub tiebreaks: Vec<TeamTieBreak>,
    pub rounds: Vec<TeamRound>,
    /// The games of the tied teams' nominees at this stage's cut, in order.
    pub playoffs: Vec<PlayedOff>,
}

/// A team event, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamEvent {
    pub name: String,
    pub points: PointsScale,
    pub settings: TeamSettings,
    pub players: Vec<Player>,
    pub teams: Vec<Team>,
    pub stages: Vec<TeamStage>,
}

impl TeamEvent {
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }

    pub fn team(&self, id: TeamId) -> Option<&Team> {
        self.teams.iter().find(|t| t.id == id)
    }

    /// The team a player is in.
    pub fn team_of(&self, player: PlayerId) -> Option<TeamId> {
        self.teams
            .iter()
            .find(|t| t.roster.contains(&player))
            .map(|t| t.id)
    }

    /// The team's rating: the exact mean of its first B roster players' ratings.
    pub fn team_rating(&self, id: TeamId) -> Ratio {
        let b = self.settings.boards;
        let Some(team) = self.team(id) else {
            return Ratio::ZERO;
        };
        let sum: i128 = team
            .roster
            .iter()
            .take(b)
            .map(|p| i128::from(self.player(*p).map_or(0, |p| p.rating)))
            .sum();
        Ratio::new(sum, b as i128)
    }

    /// The teams by seed: rating (highest first), then lowest id.
    pub fn teams_by_seed(&self) -> Vec<TeamId> {
        let mut ids: Vec<TeamId> = self.teams.iter().map(|t| t.id).collect();
        ids.sort_by(|a, b| {
            self.team_rating(*b)
                .cmp(&self.team_rating(*a))
                .then(a.cmp(b))
        });
        ids
    }
}
