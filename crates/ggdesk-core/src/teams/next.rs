//! What a team event is at: the teams of each stage (the first stage: every team by seed;
//! a later one: the top `advance` of the stage before, in its standings' order), when a
//! stage is complete, the current stage, the checks that need them, and what `pair`
//! prints next.

use super::fault::{TeamFault, TeamFileError, fault};
use super::model::{TeamEvent, TeamId, TeamSystem};
use super::score::MatchScore;
use super::standings::TeamStandings;
use crate::pairing::{berger_round, pair_next_round};
use crate::stages::{PlayedOff, Playoff, PlayoffState, playoff};
use crate::tournament::{Game, Player, PlayerId, PointsScale, Round, Settings, Tournament};
use serde_json::{Value, json};

/// The next round of a team event, as `pair` prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamStep {
    /// A round of matches of a team Swiss or round robin (stage and round from 1).
    Matches {
        stage: usize,
        round: usize,
        /// (table, home, away).
        matches: Vec<(u32, TeamId, TeamId)>,
        byes: Vec<TeamId>,
    },
    /// A round of a `board_groups` stage: (group board, table, white, black).
    BoardGroups {
        stage: usize,
        round: usize,
        games: Vec<GroupBoard>,
        byes: Vec<PlayerId>,
    },
    /// The next games of a playoff at a cut: (white's team, black's team, and their
    /// nominees once the captains have named them in an earlier playoff game).
    Playoff {
        stage: usize,
        games: Vec<(TeamId, TeamId, Option<PlayerId>, Option<PlayerId>)>,
    },
    /// A round of the final: (table, white, black).
    Final {
        stage: usize,
        round: usize,
        games: Vec<(u32, PlayerId, PlayerId)>,
    },
}

impl TeamStep {
    pub fn to_json(&self) -> Value {
        match self {
            TeamStep::Matches {
                stage,
                round,
                matches,
                byes,
            } => {
                let matches: Vec<Value> = matches
                    .iter()
                    .map(|(t, h, a)| json!({"table": t, "home": h.0, "away": a.0}))
                    .collect();
                let byes: Vec<u32> = byes.iter().map(|t| t.0).collect();
                json!({"stage": stage, "round": round, "matches": matches, "byes": byes})
            }
            TeamStep::BoardGroups {
                stage,
                round,
                games,
                byes,
            } => {
                let games: Vec<Value> = games
                    .iter()
                    .map(|(b, t, w, k)| {
                        json!({"group": format!("B{b}"), "table": t, "white": w.0, "black": k.0})
                    })
                    .collect();
                let byes: Vec<u32> = byes.iter().map(|p| p.0).collect();
                json!({"stage": stage, "round": round, "games": games, "byes": byes})
            }
            TeamStep::Playoff { stage, games } => {
                let games: Vec<Value> = games
                    .iter()
                    .map(|(wt, bt, w, b)| {
                        json!({"white_team": wt.0, "black_team": bt.0,
                               "white": w.map(|p| p.0), "black": b.map(|p| p.0)})
                    })
                    .collect();
                json!({"stage": stage, "playoff": true, "games": games})
            }
            TeamStep::Final {
                stage,
                round,
                games,
            } => {
                let games: Vec<Value> = games
                    .iter()
                    .map(|(t, w, k)| json!({"table": t, "white": w.0, "black": k.0}))
                    .collect();
                json!({"stage": stage, "round": round, "games": games})
            }
        }
    }
}

/// The next playoff games of stage `k` by team, with the nominees known so far.
fn playoff_step(
    k: usize,
    games: &[(PlayerId, PlayerId)],
    nominees: &[(TeamId, PlayerId)],
) -> TeamStep {
    let nominee = |p: PlayerId| nominees.iter().find(|(t, _)| t.0 == p.0).map(|(_, n)| *n);
    TeamStep::Playoff {
        stage: k + 1,
        games: games
            .iter()
            .map(|(w, b)| (TeamId(w.0), TeamId(b.0), nominee(*w), nominee(*b)))
            .collect(),
    }
}

/// A board-groups game to play: (group board, table, white, black).
type GroupBoard = (usize, u32, PlayerId, PlayerId);

/// A playoff of teams and each team's nominee named so far.
type TeamPlayoff = (Playoff, Vec<(TeamId, PlayerId)>);

/// The cut of a complete stage that is not the last.
enum Cut {
    /// The teams going on, in their standings' order.
    Clear(Vec<TeamId>),
    /// Teams tie across the cut: those ranked above it go on, the tied play off through
    /// their nominees (the playoff's players are the tied teams, `PlayerId(team id)`).
    Playoff {
        above: Vec<TeamId>,
        tied: Vec<TeamId>,
        playoff: Playoff,
        nominees: Vec<(TeamId, PlayerId)>,
    },
}

impl TeamEvent {
    /// The teams of stage `k` (from 0) in seed order, or why it is not seeded yet.
    pub(crate) fn stage_teams(&self, k: usize) -> Result<Vec<TeamId>, TeamFault> {
        if k == 0 {
            return Ok(self.teams_by_seed());
        }
        let before = self.stage_teams(k - 1)?;
        if !self.is_complete(k - 1, &before) {
            return Err(TeamFault::NotSeeded(k + 1));
        }
        match self.cut(k - 1, &before).map_err(|(_, f)| f)?.1 {
            Cut::Clear(q) => Ok(q),
            Cut::Playoff {
                above,
                tied,
                playoff,
                ..
            } if playoff.state == PlayoffState::Clear => {
                let cut = self.stages[k - 1].advance.unwrap_or(0) as usize - above.len();
                let order = playoff.order.iter().take(cut).map(|p| TeamId(p.0));
                debug_assert!(order.clone().all(|t| tied.contains(&t)));
                Ok(above.into_iter().chain(order).collect())
            }
            Cut::Playoff { .. } => Err(TeamFault::NotSeeded(k + 1)),
        }
    }

    /// The standings of the complete stage `k` (not the last) and its cut; a refused
    /// playoff game with its index in the stage's `playoffs`.
    fn cut(&self, k: usize, teams: &[TeamId]) -> Result<(TeamStandings, Cut), (usize, TeamFault)> {
        let s = self.standings_of(k, teams);
        let stage = &self.stages[k];
        let a = (stage.advance.unwrap_or(0) as usize).min(s.rows.len());
        let tie = a >= 1 && a < s.rows.len() && s.rows[a - 1].rank == s.rows[a].rank;
        if !tie {
            if !stage.playoffs.is_empty() {
                return Err((0, TeamFault::NoTieAtCut(k + 1)));
            }
            let q = s.rows[..a].iter().map(|r| r.team).collect();
            return Ok((s, Cut::Clear(q)));
        }
        let rank = s.rows[a].rank;
        let above: Vec<TeamId> = s
            .rows
            .iter()
            .filter(|r| r.rank < rank)
            .map(|r| r.team)
            .collect();
        let tied: Vec<TeamId> = s
            .rows
            .iter()
            .filter(|r| r.rank == rank)
            .map(|r| r.team)
            .collect();
        let (playoff, nominees) = self.team_playoff(k, &tied, a - above.len())?;
        Ok((
            s,
            Cut::Playoff {
                above,
                tied,
                playoff,
                nominees,
            },
        ))
    }

    /// The playoff of the `tied` teams (in seed order) at stage `k`, the first `cut` of
    /// them going on, through their nominees: each playoff player plays for a tied team,
    /// one player a team; the playoff's players are the teams (`PlayerId(team id)`).
    fn team_playoff(
        &self,
        k: usize,
        tied: &[TeamId],
        cut: usize,
    ) -> Result<TeamPlayoff, (usize, TeamFault)> {
        let mut nominees: Vec<(TeamId, PlayerId)> = Vec::new();
        let mut games = Vec::new();
        for (i, g) in self.stages[k].playoffs.iter().enumerate() {
            let mut as_teams = [PlayerId(0); 2];
            for (slot, p) in as_teams.iter_mut().zip([g.white, g.black]) {
                let team = self.team_of(p).filter(|t| tied.contains(t));
                let Some(team) = team else {
                    let team = self.team_of(p).unwrap_or(TeamId(0));
                    return Err((i, TeamFault::NotTied { player: p, team }));
                };
                match nominees.iter().find(|(t, _)| *t == team) {
                    Some(&(_, nominee)) if nominee != p => {
                        return Err((
                            i,
                            TeamFault::OtherNominee {
                                team,
                                nominee,
                                player: p,
                            },
                        ));
                    }
                    Some(_) => {}
                    None => nominees.push((team, p)),
                }
                *slot = PlayerId(team.0);
            }
            games.push(PlayedOff {
                white: as_teams[0],
                black: as_teams[1],
                result: g.result,
            });
        }
        let as_players: Vec<PlayerId> = tied.iter().map(|t| PlayerId(t.0)).collect();
        let playoff = playoff(&as_players, cut, &games, &self.points)
            .map_err(|(i, f)| (i, TeamFault::Playoff(f)))?;
        Ok((playoff, nominees))
    }

    /// The playoff of a complete Scheveningen final that ended level on game points (the
    /// home team the better seed), if it did.
    fn final_playoff(
        &self,
        k: usize,
        teams: &[TeamId],
    ) -> Result<Option<TeamPlayoff>, (usize, TeamFault)> {
        let stage = &self.stages[k];
        let complete = self.is_complete(k, teams);
        let level = complete && {
            let s = self.standings_of(k, teams);
            s.rows.len() == 2 && s.rows[0].game_points == s.rows[1].game_points
        };
        if !level {
            return match stage.playoffs.is_empty() {
                true => Ok(None),
                false if !complete => Err((0, TeamFault::PlayoffTooEarly(k + 1))),
                false => Err((0, TeamFault::FinalNotLevel)),
            };
        }
        self.team_playoff(k, teams, 1).map(Some)
    }

    /// How many rounds stage `k` has with `n` teams.
    fn planned_rounds(&self, k: usize, n: usize) -> usize {
        let s = &self.stages[k];
        let cycle = if n.is_multiple_of(2) {
            n.saturating_sub(1)
        } else {
            n
        };
        match s.system {
            TeamSystem::Swiss => s.round_count.unwrap_or(0) as usize,
            TeamSystem::RoundRobin | TeamSystem::BoardGroups => {
                s.round_count.map_or(cycle, |r| r as usize)
            }
            TeamSystem::Scheveningen => self.settings.boards,
        }
    }

    fn is_complete(&self, k: usize, teams: &[TeamId]) -> bool {
        let s = &self.stages[k];
        s.rounds.len() >= self.planned_rounds(k, teams.len())
            && s.rounds.iter().all(|r| r.is_complete())
    }

    /// The current stage (from 0): the first that is not complete or whose cut is not
    /// clear yet, else the last.
    pub fn current_stage(&self) -> usize {
        let last = self.stages.len().saturating_sub(1);
        for k in 0..last {
            let Ok(teams) = self.stage_teams(k) else {
                return k.saturating_sub(1);
            };
            if !self.is_complete(k, &teams) || self.stage_teams(k + 1).is_err() {
                return k;
            }
        }
        last
    }

    /// The team standings of stage `stage` (from 1; the current stage when `None`).
    pub fn team_standings(&self, stage: Option<u32>) -> Result<TeamStandings, TeamFileError> {
        let k = match stage {
            None => self.current_stage(),
            Some(s) if s >= 1 && (s as usize) <= self.stages.len() => s as usize - 1,
            Some(s) => return Err(fault("", TeamFault::NoSuchStage(s))),
        };
        let teams = self.stage_teams(k).map_err(|f| fault("", f))?;
        let last = k + 1 == self.stages.len();
        if last && self.stages[k].system == TeamSystem::Scheveningen {
            let mut s = self.standings_of(k, &teams);
            let playoff = self
                .final_playoff(k, &teams)
                .map_err(|(i, f)| fault(format!("stages[{k}].playoffs[{i}]"), f))?;
            if let Some((Playoff { order, .. }, _)) = playoff {
                // Level on game points: rank 1 shared, listed in the playoff's order.
                s.rows
                    .sort_by_key(|r| order.iter().position(|p| p.0 == r.team.0));
            }
            return Ok(s);
        }
        if last || !self.is_complete(k, &teams) {
            return Ok(self.standings_of(k, &teams));
        }
        match self.cut(k, &teams) {
            Ok((
                mut s,
                Cut::Playoff {
                    tied,
                    playoff: Playoff { order, .. },
                    ..
                },
            )) => {
                // The tied teams keep their shared rank, listed in their playoff order.
                let first = s.rows.iter().position(|r| tied.contains(&r.team));
                if let Some(first) = first {
                    let block = &mut s.rows[first..first + tied.len()];
                    block.sort_by_key(|r| order.iter().position(|p| p.0 == r.team.0));
                }
                Ok(s)
            }
            Ok((s, Cut::Clear(_))) => Ok(s),
            Err((i, f)) => Err(fault(format!("stages[{k}].playoffs[{i}]"), f)),
        }
    }

    /// The team image of a stage of matches: the teams as players (rating: the sum of
    /// the first B ratings, which orders as their mean, in the first stage; the seed
    /// order in a later one), the matches as games, match points as the points.
    fn team_image(&self, k: usize, teams: &[TeamId]) -> Result<Tournament, TeamFileError> {
        let s = &self.stages[k];
        let image_err = |at: String| {
            move |e: crate::tournament::TournamentError| {
                fault(
                    at,
                    TeamFault::File(crate::tournament::FileFault::Tournament(e)),
                )
            }
        };
        let mut settings = match s.system {
            TeamSystem::Swiss => Settings::swiss(s.round_count.unwrap_or(1)),
            _ => {
                let mut r = Settings::round_robin();
                r.rounds = s.round_count;
                r
            }
        };
        let mp = self.settings.match_points;
        settings.points = PointsScale {
            win: mp.win,
            draw: mp.draw,
            loss: mp.loss,
            bye: self.settings.bye.match_points,
            forfeit_win: mp.win,
            forfeit_loss: mp.loss,
            absent: crate::tournament::Score::ZERO,
        };
        let at = format!("stages[{k}]");
        let mut t = Tournament::new(s.name.clone(), settings).map_err(image_err(at.clone()))?;
        for (i, id) in teams.iter().enumerate() {
            let Some(team) = self.team(*id) else { continue };
            let rating = if k == 0 {
                team.roster
                    .iter()
                    .take(self.settings.boards)
                    .map(|p| self.player(*p).map_or(0, |p| p.rating))
                    .sum()
            } else {
                (teams.len() - i) as i64
            };
            t.add_player(Player::new(PlayerId(id.0), team.name.clone(), rating))
                .map_err(image_err(at.clone()))?;
        }
        for (r, round) in s.rounds.iter().enumerate() {
            let games = round
                .matches
                .iter()
                .map(|m| Game {
                    table: m.table,
                    white: PlayerId(m.home.0),
                    black: PlayerId(m.away.0),
                    result: MatchScore::of(m, &self.points, &mp).result.as_game(),
                })
                .collect();
            let byes = round.byes.iter().map(|t| PlayerId(t.0)).collect();
            t.add_round(Round {
                games,
                byes,
                absent: Vec::new(),
            })
            .map_err(|e| {
                let e = match e {
                    crate::tournament::TournamentError::InRound { error, .. } => *error,
                    e => e,
                };
                image_err(format!("{at}.rounds[{r}]"))(e)
            })?;
        }
        Ok(t)
    }

    /// Checks what needs the stages' teams: a stage is played only once seeded, by its
    /// teams, with no more rounds than it has.
    pub(crate) fn check_stages(&self) -> Result<(), TeamFileError> {
        for (k, s) in self.stages.iter().enumerate() {
            let at = format!("stages[{k}]");
            if !s.playoffs.is_empty() && s.system == TeamSystem::Scheveningen {
                let p_at = format!("{at}.playoffs[0]");
                let teams = self.stage_teams(k).map_err(|f| fault(&p_at, f))?;
                self.final_playoff(k, &teams)
                    .map_err(|(i, f)| fault(format!("{at}.playoffs[{i}]"), f))?;
            } else if !s.playoffs.is_empty() {
                let p_at = format!("{at}.playoffs[0]");
                let teams = self.stage_teams(k).map_err(|f| fault(&p_at, f))?;
                if !self.is_complete(k, &teams) {
                    return Err(fault(p_at, TeamFault::PlayoffTooEarly(k + 1)));
                }
                self.cut(k, &teams)
                    .map_err(|(i, f)| fault(format!("{at}.playoffs[{i}]"), f))?;
            }
            if s.rounds.is_empty() {
                continue;
            }
            let teams = self
                .stage_teams(k)
                .map_err(|f| fault(format!("{at}.rounds[0]"), f))?;
            let planned = self.planned_rounds(k, teams.len());
            if s.rounds.len() > planned {
                return Err(fault(
                    format!("{at}.rounds[{planned}]"),
                    TeamFault::TooManyRounds { planned },
                ));
            }
            let stage = k + 1;
            for (r, round) in s.rounds.iter().enumerate() {
                let r_at = format!("{at}.rounds[{r}]");
                for (i, m) in round.matches.iter().enumerate() {
                    for (key, team) in [("home", m.home), ("away", m.away)] {
                        if !teams.contains(&team) {
                            return Err(fault(
                                format!("{r_at}.matches[{i}].{key}"),
                                TeamFault::TeamNotInStage { team, stage },
                            ));
                        }
                    }
                }
                for (i, team) in round.byes.iter().enumerate() {
                    if !teams.contains(team) {
                        return Err(fault(
                            format!("{r_at}.byes[{i}]"),
                            TeamFault::TeamNotInStage { team: *team, stage },
                        ));
                    }
                }
                for (i, g) in round.games.iter().enumerate() {
                    for (key, p) in [("white", g.white), ("black", g.black)] {
                        let team = self.team_of(p);
                        let in_stage = team.is_some_and(|t| teams.contains(&t));
                        let fits = match s.system {
                            TeamSystem::Scheveningen => in_stage && self.board_of(p).is_some(),
                            _ => in_stage,
                        };
                        if !fits {
                            let f = match (s.system, team) {
                                (TeamSystem::Scheveningen, _) => {
                                    TeamFault::NotInFinal { player: p }
                                }
                                (_, Some(team)) => TeamFault::TeamNotInStage { team, stage },
                                (_, None) => TeamFault::NoTeam(p),
                            };
                            return Err(fault(format!("{r_at}.games[{i}].{key}"), f));
                        }
                    }
                }
            }
            if s.system.has_matches() {
                self.team_image(k, &teams)?;
            }
            self.check_schedule(k, &teams)?;
        }
        Ok(())
    }

    /// The games of a board-groups stage and of the final are those of their schedules:
    /// in board groups each game's two players meet in that round (colours are the
    /// director's), in the final each game is the scheduled one, colours included.
    fn check_schedule(&self, k: usize, teams: &[TeamId]) -> Result<(), TeamFileError> {
        let s = &self.stages[k];
        for (r, round) in s.rounds.iter().enumerate() {
            let expected: Vec<(PlayerId, PlayerId)> = match s.system {
                TeamSystem::BoardGroups => self
                    .board_groups_round(teams, r + 1)
                    .0
                    .iter()
                    .map(|g| (g.2, g.3))
                    .collect(),
                TeamSystem::Scheveningen => match (teams.first(), teams.get(1)) {
                    (Some(&h), Some(&a)) => self
                        .final_round(h, a, r + 1)
                        .iter()
                        .map(|g| (g.1, g.2))
                        .collect(),
                    _ => continue,
                },
                _ => continue,
            };
            for (i, g) in round.games.iter().enumerate() {
                let fits = expected.iter().any(|&(w, b)| {
                    (w, b) == (g.white, g.black)
                        || (s.system == TeamSystem::BoardGroups && (b, w) == (g.white, g.black))
                });
                if !fits {
                    let list: Vec<String> =
                        expected.iter().map(|(w, b)| format!("{w}-{b}")).collect();
                    return Err(fault(
                        format!("stages[{k}].rounds[{r}].games[{i}]"),
                        TeamFault::NotScheduled {
                            white: g.white,
                            black: g.black,
                            round: r + 1,
                            expected: list.join(", "),
                        },
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether a round of team matches comes next, or will once the round in play is over
    /// (what captains' line-up sheets are for): not when board groups, the final or a
    /// playoff come next, nor once the event is over.
    pub fn matches_to_come(&self) -> bool {
        match self.next_step() {
            Ok(TeamStep::Matches { .. }) => true,
            Ok(_) => false,
            Err(e) => match e.fault {
                TeamFault::RoundIncomplete { stage, round } => {
                    self.stage_plays_matches(stage)
                        && self
                            .stages
                            .get(stage.wrapping_sub(1))
                            .and_then(|s| s.round_count)
                            .is_none_or(|c| u32::try_from(round).is_ok_and(|r| r < c))
                }
                _ => false,
            },
        }
    }

    /// The next round of the event, as `pair` prints it, or why there is none.
    pub fn next_step(&self) -> Result<TeamStep, TeamFileError> {
        let at_whole = |f| fault("", f);
        let mut k = self.current_stage();
        let mut teams = self.stage_teams(k).map_err(at_whole)?;
        if self.is_complete(k, &teams) {
            if k + 1 >= self.stages.len() {
                let playoff = self
                    .final_playoff(k, &teams)
                    .map_err(|(i, f)| fault(format!("stages[{k}].playoffs[{i}]"), f))?;
                return match playoff {
                    Some((p, nominees)) => match p.state {
                        PlayoffState::Clear => Err(at_whole(TeamFault::EventOver)),
                        PlayoffState::Waiting => Err(at_whole(TeamFault::PlayoffWaiting)),
                        PlayoffState::Next(games) => Ok(playoff_step(k, &games, &nominees)),
                    },
                    None => Err(at_whole(TeamFault::EventOver)),
                };
            }
            let cut = self
                .cut(k, &teams)
                .map_err(|(i, f)| fault(format!("stages[{k}].playoffs[{i}]"), f))?
                .1;
            if let Cut::Playoff {
                playoff, nominees, ..
            } = cut
            {
                match playoff.state {
                    PlayoffState::Clear => {}
                    PlayoffState::Waiting => return Err(at_whole(TeamFault::PlayoffWaiting)),
                    PlayoffState::Next(games) => return Ok(playoff_step(k, &games, &nominees)),
                }
            }
            k += 1;
            teams = self.stage_teams(k).map_err(at_whole)?;
        } else if let Some(last) = self.stages[k].rounds.last()
            && !last.is_complete()
        {
            return Err(at_whole(TeamFault::RoundIncomplete {
                stage: k + 1,
                round: self.stages[k].rounds.len(),
            }));
        }
        let s = &self.stages[k];
        let round = s.rounds.len() + 1;
        let stage = k + 1;
        match s.system {
            TeamSystem::Swiss | TeamSystem::RoundRobin => {
                let image = self.team_image(k, &teams)?;
                let pairing = pair_next_round(&image, &[])
                    .map_err(|e| at_whole(TeamFault::Pairing(e.to_string())))?;
                Ok(TeamStep::Matches {
                    stage,
                    round,
                    matches: pairing
                        .games
                        .iter()
                        .map(|b| (b.table, TeamId(b.white.0), TeamId(b.black.0)))
                        .collect(),
                    byes: pairing.byes.iter().map(|p| TeamId(p.0)).collect(),
                })
            }
            TeamSystem::BoardGroups => {
                let (games, byes) = self.board_groups_round(&teams, round);
                Ok(TeamStep::BoardGroups {
                    stage,
                    round,
                    games,
                    byes,
                })
            }
            TeamSystem::Scheveningen => {
                let (Some(&home), Some(&away)) = (teams.first(), teams.get(1)) else {
                    return Err(at_whole(TeamFault::FinalNeedsTwo(teams.len())));
                };
                Ok(TeamStep::Final {
                    stage,
                    round,
                    games: self.final_round(home, away, round),
                })
            }
        }
    }

    /// The player of a team on a board (from 1).
    fn on_board(&self, team: TeamId, board: usize) -> PlayerId {
        self.team(team)
            .and_then(|t| t.roster.get(board - 1).copied())
            .unwrap_or(PlayerId(0))
    }

    /// Round `round` (from 1) of a board-groups stage: each board's group paired by the
    /// Berger tables, the teams numbered by seed (rating, highest first, then lowest id);
    /// (group board, table, white, black) and the players with a bye.
    fn board_groups_round(
        &self,
        teams: &[TeamId],
        round: usize,
    ) -> (Vec<GroupBoard>, Vec<PlayerId>) {
        let mut teams = teams.to_vec();
        teams.sort_by(|a, b| {
            self.team_rating(*b)
                .cmp(&self.team_rating(*a))
                .then(a.cmp(b))
        });
        let n = teams.len();
        let even = n + n % 2;
        let cycle = even.saturating_sub(1).max(1);
        let r = (round.max(1) - 1) % cycle + 1;
        let mut games = Vec::new();
        let mut byes = Vec::new();
        let mut table = 0;
        for b in 1..=self.settings.boards {
            for (w, k) in berger_round(even as u32, r as u32) {
                let (w, k) = (w as usize, k as usize);
                if w > n || k > n {
                    byes.push(self.on_board(teams[w.min(k) - 1], b));
                    continue;
                }
                table += 1;
                games.push((
                    b,
                    table,
                    self.on_board(teams[w - 1], b),
                    self.on_board(teams[k - 1], b),
                ));
            }
        }
        (games, byes)
    }

    /// Round `round` (1…B) of the final: the home team's board i against the away team's
    /// board ((i + r − 2) mod B) + 1 at table i, home white where i + r is even.
    fn final_round(
        &self,
        home: TeamId,
        away: TeamId,
        round: usize,
    ) -> Vec<(u32, PlayerId, PlayerId)> {
        let b_count = self.settings.boards;
        (1..=b_count)
            .map(|i| {
                let j = (i + round.max(1) - 2) % b_count + 1;
                let (h, a) = (self.on_board(home, i), self.on_board(away, j));
                let (w, k) = if (i + round).is_multiple_of(2) {
                    (h, a)
                } else {
                    (a, h)
                };
                (i as u32, w, k)
            })
            .collect()
    }
}

/// A team's place in the event's final placement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamPlace {
    pub place: u32,
    pub team: TeamId,
    pub name: String,
    /// The stage (from 1) the team went out in, or the last.
    pub stage: usize,
}

/// `[{"place", "team", "name", "stage"}]`.
pub fn team_placement_json(rows: &[TeamPlace]) -> Value {
    Value::Array(
        rows.iter()
            .map(|r| json!({"place": r.place, "team": r.team.0, "name": r.name, "stage": r.stage}))
            .collect(),
    )
}

impl TeamEvent {
    /// The event's final placement once it is over: the final's winner 1 and loser 2 (or
    /// the last stage's ranks), then the teams out after each earlier stage, last stage
    /// first, in its standings' order, each on a place of its own.
    pub fn final_placement(&self) -> Result<Vec<TeamPlace>, TeamFileError> {
        let last = self.stages.len().saturating_sub(1);
        let k = self.current_stage();
        let teams = self.stage_teams(k).map_err(|f| fault("", f))?;
        if k != last || !self.is_complete(last, &teams) {
            return Err(fault("", TeamFault::NotOver(k + 1)));
        }
        let s = self.team_standings(Some(last as u32 + 1))?;
        if self.stages[last].system == TeamSystem::Scheveningen {
            let playoff = self
                .final_playoff(last, &teams)
                .map_err(|(i, f)| fault(format!("stages[{last}].playoffs[{i}]"), f))?;
            if playoff.is_some_and(|(p, _)| p.state != PlayoffState::Clear) {
                return Err(fault("", TeamFault::FinalLevel));
            }
        }
        let mut rows: Vec<TeamPlace> = s
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| TeamPlace {
                place: if self.stages[last].system == TeamSystem::Scheveningen {
                    i as u32 + 1
                } else {
                    r.rank
                },
                team: r.team,
                name: r.name.clone(),
                stage: last + 1,
            })
            .collect();
        for k in (0..last).rev() {
            let s = self.team_standings(Some(k as u32 + 1))?;
            for r in s.rows {
                if rows.iter().any(|p| p.team == r.team) {
                    continue;
                }
                rows.push(TeamPlace {
                    place: rows.len() as u32 + 1,
                    team: r.team,
                    name: r.name,
                    stage: k + 1,
                });
            }
        }
        Ok(rows)
    }
}
