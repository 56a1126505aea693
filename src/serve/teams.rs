//! What the public pages show of a team event (spec/teams.md, "Public pages and `/api/`"),
//! as types that hold nothing else: the teams with their rosters in board order, each
//! stage's team standings as the core ranks them, each published round's matches with their
//! boards (board, players, result) and running score, a board-group stage's or the final's
//! games, the board prizes and, once the event is over, the final placement. Like
//! `super::public`, no type here has a place for a rank, a setup or a move: the source
//! copies only names, numbers and results out of the core's event.

use crate::store::{PublicTeamEvent, team_board_table};
use ggdesk_core::event::RoundKind;
use ggdesk_core::teams::{
    BoardPrizes, MatchScore, Primary, TeamEvent, TeamId, TeamPlace, TeamStandings, TeamSystem,
    TeamTieBreak, board_prizes_json, team_placement_json,
};
use ggdesk_core::tournament::{GameResult, PointsScale, Score};

/// A team and its roster in board order (the players after the first B are reserves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamLine {
    pub id: TeamId,
    pub name: String,
    /// Player numbers, board 1 first.
    pub roster: Vec<u32>,
    pub captain: Option<u32>,
}

/// One board of a match. A side `None` is a board its team left empty (no game: the board
/// has the forfeit result that says so, and no table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchBoard {
    /// From 1.
    pub board: usize,
    pub table: Option<u32>,
    pub white: Option<u32>,
    pub black: Option<u32>,
    pub result: GameResult,
}

/// A match between two teams and its running score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchLine {
    /// The match's table, as the round's list gives it (its place in the round when none).
    pub table: u32,
    pub home: TeamId,
    pub away: TeamId,
    /// Board order; the home team has white on odd boards.
    pub boards: Vec<MatchBoard>,
    /// The core's score: game points of the boards finished so far, and match points once
    /// no board is pending.
    pub score: MatchScore,
}

impl MatchLine {
    /// The match's board points of `team` (game points so far) and match points, or `None`
    /// when the team does not play in it.
    pub fn points_of(&self, team: TeamId) -> Option<(Score, Score)> {
        if team == self.home {
            Some((self.score.game_points.0, self.score.match_points.0))
        } else if team == self.away {
            Some((self.score.game_points.1, self.score.match_points.1))
        } else {
            None
        }
    }

    /// The other team of the match.
    pub fn opponent_of(&self, team: TeamId) -> Option<TeamId> {
        if team == self.home {
            Some(self.away)
        } else if team == self.away {
            Some(self.home)
        } else {
            None
        }
    }
}

/// A game of a board-group stage (its board group), of the final, or of a playoff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameLine {
    pub table: u32,
    /// The board group (`B2` is 2); none in the final or a playoff.
    pub board_group: Option<usize>,
    pub white: u32,
    pub black: u32,
    pub result: GameResult,
}

/// A published round of a team event, as the tournament numbers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRoundData {
    pub number: u32,
    /// From 1.
    pub stage: usize,
    pub system: TeamSystem,
    /// The playoff games at a stage's cut.
    pub playoff: bool,
    pub matches: Vec<MatchLine>,
    pub byes: Vec<TeamId>,
    pub games: Vec<GameLine>,
}

impl TeamRoundData {
    /// Every board and game of the round is decided.
    pub fn complete(&self) -> bool {
        self.matches
            .iter()
            .flat_map(|m| &m.boards)
            .all(|b| b.result != GameResult::Pending)
            && self.games.iter().all(|g| g.result != GameResult::Pending)
    }
}

/// A stage of a team event and, once its teams are known, its team standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamStageData {
    /// From 1.
    pub number: usize,
    pub name: String,
    pub system: TeamSystem,
    pub advance: Option<u32>,
    pub tiebreaks: Vec<TeamTieBreak>,
    pub standings: Option<TeamStandings>,
}

impl TeamStageData {
    /// The stage's name, or its number when it has none.
    pub fn title(&self) -> String {
        if self.name.trim().is_empty() {
            format!("Stage {}", self.number)
        } else {
            self.name.clone()
        }
    }
}

/// A team event, everything its team pages show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamData {
    /// B: boards per team.
    pub boards: usize,
    /// What a game scores (a board's points).
    pub points: PointsScale,
    pub primary: Primary,
    /// In the event's order.
    pub teams: Vec<TeamLine>,
    pub stages: Vec<TeamStageData>,
    /// The stage being played (the last once the event is over), from 1.
    pub current: usize,
    /// Published and complete rounds, in order.
    pub rounds: Vec<TeamRoundData>,
    pub prizes: BoardPrizes,
    /// The core's `standings --boards` JSON.
    pub prizes_json: String,
    /// The final placement, once the event is over.
    pub placement: Option<Vec<TeamPlace>>,
    pub placement_json: Option<String>,
}

impl TeamData {
    /// Copies out of the public read of a team event what its pages show.
    pub fn build(read: &PublicTeamEvent) -> TeamData {
        let e = &read.event;
        let teams = e
            .teams
            .iter()
            .map(|t| TeamLine {
                id: t.id,
                name: t.name.clone(),
                roster: t.roster.iter().map(|p| p.0).collect(),
                captain: t.captain.map(|p| p.0),
            })
            .collect();
        let current = e.current_stage();
        let stages = e
            .stages
            .iter()
            .enumerate()
            .map(|(k, s)| TeamStageData {
                number: k + 1,
                name: s.name.clone(),
                system: s.system,
                advance: s.advance,
                tiebreaks: s.tiebreaks.clone(),
                // A stage after the current one has no teams yet.
                standings: (k <= current)
                    .then(|| e.team_standings(u32::try_from(k + 1).ok()).ok())
                    .flatten(),
            })
            .collect();
        let prizes = e.board_prizes();
        let placement = e.final_placement().ok();
        TeamData {
            boards: e.settings.boards,
            points: e.points,
            primary: e.settings.primary,
            teams,
            stages,
            current: current + 1,
            rounds: Self::rounds(read),
            prizes_json: board_prizes_json(&prizes).to_string(),
            prizes,
            placement_json: placement
                .as_deref()
                .map(|p| team_placement_json(p).to_string()),
            placement,
        }
    }

    /// The published rounds, numbered as the tournament numbers them: each stage's rounds
    /// in order, then its playoff games as one round.
    fn rounds(read: &PublicTeamEvent) -> Vec<TeamRoundData> {
        let e = &read.event;
        let mut next_round = vec![0usize; e.stages.len()];
        let mut out = Vec::new();
        for no in &read.rounds {
            let Some(k) = no.stage.checked_sub(1) else {
                continue;
            };
            let Some(stage) = e.stages.get(k) else {
                continue;
            };
            let mut round = TeamRoundData {
                number: no.number.0,
                stage: no.stage,
                system: stage.system,
                playoff: no.kind == RoundKind::Playoff,
                matches: Vec::new(),
                byes: Vec::new(),
                games: Vec::new(),
            };
            if round.playoff {
                round.games = stage
                    .playoffs
                    .iter()
                    .enumerate()
                    .map(|(i, g)| GameLine {
                        table: u32::try_from(i + 1).unwrap_or(u32::MAX),
                        board_group: None,
                        white: g.white.0,
                        black: g.black.0,
                        result: g.result,
                    })
                    .collect();
            } else if let Some(r) = stage.rounds.get(next_round[k]) {
                next_round[k] += 1;
                round.matches = r
                    .matches
                    .iter()
                    .enumerate()
                    .map(|(i, m)| Self::match_line(e, i, m))
                    .collect();
                round.byes = r.byes.clone();
                round.games = r
                    .games
                    .iter()
                    .enumerate()
                    .map(|(i, g)| GameLine {
                        table: g
                            .table
                            .unwrap_or_else(|| u32::try_from(i + 1).unwrap_or(u32::MAX)),
                        board_group: g.board,
                        white: g.white.0,
                        black: g.black.0,
                        result: g.result,
                    })
                    .collect();
            }
            out.push(round);
        }
        out
    }

    fn match_line(e: &TeamEvent, i: usize, m: &ggdesk_core::teams::TeamMatch) -> MatchLine {
        let b_count = e.settings.boards;
        MatchLine {
            table: m
                .table
                .unwrap_or_else(|| u32::try_from(i + 1).unwrap_or(u32::MAX)),
            home: m.home,
            away: m.away,
            boards: m
                .boards
                .iter()
                .enumerate()
                .map(|(b, g)| MatchBoard {
                    board: b + 1,
                    table: (g.white.is_some() && g.black.is_some())
                        .then(|| team_board_table(m, i, b_count, b)),
                    white: g.white.map(|p| p.0),
                    black: g.black.map(|p| p.0),
                    result: g.result,
                })
                .collect(),
            score: MatchScore::of(m, &e.points, &e.settings.match_points),
        }
    }

    pub fn team(&self, id: TeamId) -> Option<&TeamLine> {
        self.teams.iter().find(|t| t.id == id)
    }

    /// The name of a team (empty for an unknown id).
    pub fn team_name(&self, id: TeamId) -> &str {
        self.team(id).map_or("", |t| t.name.as_str())
    }

    /// The team a player is in, with their place on its roster (from 1).
    pub fn team_of(&self, no: u32) -> Option<(&TeamLine, usize)> {
        self.teams
            .iter()
            .find_map(|t| t.roster.iter().position(|p| *p == no).map(|i| (t, i + 1)))
    }

    pub fn round(&self, number: u32) -> Option<&TeamRoundData> {
        self.rounds.iter().find(|r| r.number == number)
    }

    /// The round the tables play: the last one published.
    pub fn round_in_play(&self) -> Option<&TeamRoundData> {
        self.rounds.last()
    }

    /// The standings of the current stage (none before its teams are known).
    pub fn current_standings(&self) -> Option<(&TeamStageData, &TeamStandings)> {
        let st = self.stages.get(self.current.checked_sub(1)?)?;
        Some((st, st.standings.as_ref()?))
    }

    /// The matches a team played or plays, with their round, in order.
    pub fn matches_of(&self, team: TeamId) -> Vec<(&TeamRoundData, &MatchLine)> {
        self.rounds
            .iter()
            .flat_map(|r| r.matches.iter().map(move |m| (r, m)))
            .filter(|(_, m)| m.home == team || m.away == team)
            .collect()
    }

    /// The rounds in which a team had a bye.
    pub fn byes_of(&self, team: TeamId) -> Vec<u32> {
        self.rounds
            .iter()
            .filter(|r| r.byes.contains(&team))
            .map(|r| r.number)
            .collect()
    }
}
