//! Team standings of a stage: teams by their primary score, then the stage's
//! `team_tiebreaks` in order, then team rating, then lowest id; equal on the primary score
//! and every tie-break: equal rank. Exact: half-points and rationals.

use super::model::{Primary, TeamEvent, TeamId, TeamSystem, TeamTieBreak};
use super::score::{MatchResult, MatchScore, board_points};
use crate::rules::Side;
use crate::tournament::file::score_value;
use crate::tournament::{GameOutcome, PlayerId, Ratio, Score};
use serde_json::{Map, Value, json};
use std::cmp::Ordering;

/// One team's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRow {
    /// Shared by teams equal on the primary score and every tie-break.
    pub rank: u32,
    pub team: TeamId,
    pub name: String,
    pub match_points: Score,
    pub game_points: Score,
    /// One value per tie-break of [`TeamStandings::tiebreaks`], in that order.
    pub tiebreaks: Vec<Ratio>,
}

/// The team standings of a stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamStandings {
    /// From 1.
    pub stage: usize,
    pub tiebreaks: Vec<TeamTieBreak>,
    /// In rank order.
    pub rows: Vec<TeamRow>,
}

impl TeamStandings {
    /// `[{"rank", "team", "name", "match_points", "game_points", …tie-breaks}]`.
    pub fn to_json(&self) -> Value {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|r| {
                let mut m = Map::new();
                m.insert("rank".into(), json!(r.rank));
                m.insert("team".into(), json!(r.team.0));
                m.insert("name".into(), json!(r.name));
                m.insert("match_points".into(), score_value(r.match_points));
                m.insert("game_points".into(), score_value(r.game_points));
                for (tb, v) in self.tiebreaks.iter().zip(&r.tiebreaks) {
                    m.insert(tb.name().into(), v.to_json());
                }
                Value::Object(m)
            })
            .collect();
        Value::Array(rows)
    }
}

/// What one round of a stage was for a team.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Rec {
    Match {
        opponent: TeamId,
        game_points: Score,
        match_points: Score,
    },
    Bye,
    Unplayed,
}

/// A team's totals and rounds in a stage.
#[derive(Debug, Clone)]
struct Sheet {
    team: TeamId,
    match_points: Score,
    game_points: Score,
    wins: i64,
    /// In half-points times the board weights.
    board_count: i128,
    rounds: Vec<Rec>,
}

/// `a × b` in quarter-points.
fn times(a: Score, b: Score) -> i128 {
    i128::from(a.halves()) * i128::from(b.halves())
}

impl Sheet {
    /// A team's sheet before any round.
    fn empty(team: TeamId) -> Sheet {
        Sheet {
            team,
            match_points: Score::ZERO,
            game_points: Score::ZERO,
            wins: 0,
            board_count: 0,
            rounds: Vec::new(),
        }
    }
}

/// `points × weight` in half-points.
fn weighted(points: Score, weight: usize) -> i128 {
    i128::from(points.halves()) * weight as i128
}

impl TeamEvent {
    /// The sheets of the teams of a stage of matches (swiss or round robin).
    fn match_sheets(&self, stage: usize, teams: &[TeamId]) -> Vec<Sheet> {
        let b_count = self.settings.boards;
        let mut sheets: Vec<Sheet> = teams.iter().map(|&team| Sheet::empty(team)).collect();
        let Some(s) = self.stages.get(stage) else {
            return sheets;
        };
        for round in &s.rounds {
            let mut recs: Vec<Option<Rec>> = vec![Some(Rec::Unplayed); teams.len()];
            for m in &round.matches {
                let score = MatchScore::of(m, &self.points, &self.settings.match_points);
                for (team, opponent, home) in [(m.home, m.away, true), (m.away, m.home, false)] {
                    let Some(i) = teams.iter().position(|t| *t == team) else {
                        continue;
                    };
                    if score.result == MatchResult::Pending {
                        recs[i] = None;
                        continue;
                    }
                    let pick = |p: (Score, Score)| if home { p.0 } else { p.1 };
                    let boards: Vec<Score> =
                        score.boards.iter().flatten().map(|p| pick(*p)).collect();
                    let won = match score.result {
                        MatchResult::HomeWins => home,
                        MatchResult::AwayWins => !home,
                        _ => false,
                    };
                    let sheet = &mut sheets[i];
                    sheet.match_points += pick(score.match_points);
                    sheet.game_points += pick(score.game_points);
                    sheet.wins += i64::from(won);
                    for (b, p) in boards.iter().enumerate() {
                        sheet.board_count += weighted(*p, b_count - b);
                    }
                    recs[i] = Some(Rec::Match {
                        opponent,
                        game_points: pick(score.game_points),
                        match_points: pick(score.match_points),
                    });
                }
            }
            for t in &round.byes {
                if let Some(i) = teams.iter().position(|x| x == t) {
                    sheets[i].match_points += self.settings.bye.match_points;
                    sheets[i].game_points += self.settings.bye.game_points;
                    recs[i] = Some(Rec::Bye);
                }
            }
            for (sheet, rec) in sheets.iter_mut().zip(recs) {
                if let Some(rec) = rec {
                    sheet.rounds.push(rec);
                }
            }
        }
        sheets
    }

    /// The sheets of a stage of games (board groups or the final): game points are the
    /// team's players' points.
    fn game_sheets(&self, stage: usize, teams: &[TeamId]) -> Vec<Sheet> {
        let b_count = self.settings.boards;
        let mut sheets: Vec<Sheet> = teams.iter().map(|&team| Sheet::empty(team)).collect();
        let Some(s) = self.stages.get(stage) else {
            return sheets;
        };
        for g in s.rounds.iter().flat_map(|r| &r.games) {
            for (p, side) in [(g.white, Side::White), (g.black, Side::Black)] {
                let Some(points) = board_points(&self.points, g.result, side) else {
                    continue;
                };
                let Some(i) = self
                    .team_of(p)
                    .and_then(|t| teams.iter().position(|x| *x == t))
                else {
                    continue;
                };
                let sheet = &mut sheets[i];
                sheet.game_points += points;
                sheet.wins += i64::from(g.result.outcome_for(side) == GameOutcome::Win);
                let board = g.board.or_else(|| self.board_of(p)).unwrap_or(b_count);
                sheet.board_count += weighted(points, b_count + 1 - board.min(b_count));
            }
        }
        sheets
    }

    /// The score that ranks stage `stage` (from 1): `team.primary` in a stage of team
    /// matches; game points in board groups and the final, which play no matches (their
    /// match points are 0).
    pub fn stage_primary(&self, stage: usize) -> Primary {
        if self.stage_plays_matches(stage) {
            self.settings.primary
        } else {
            Primary::GamePoints
        }
    }

    /// Whether stage `stage` (from 1) is played as team matches (a Swiss or a round robin),
    /// not as board groups or the final's games.
    pub fn stage_plays_matches(&self, stage: usize) -> bool {
        !matches!(
            self.stages.get(stage.wrapping_sub(1)).map(|s| s.system),
            Some(TeamSystem::BoardGroups | TeamSystem::Scheveningen)
        )
    }

    /// A player's board: their place in the first B of the roster (from 1).
    pub(crate) fn board_of(&self, p: PlayerId) -> Option<usize> {
        let team = self.team(self.team_of(p)?)?;
        let i = team.roster.iter().position(|x| *x == p)?;
        (i < self.settings.boards).then_some(i + 1)
    }

    /// The team standings of stage `stage` (from 0) among `teams` (its teams by seed).
    pub(crate) fn standings_of(&self, stage: usize, teams: &[TeamId]) -> TeamStandings {
        let Some(s) = self.stages.get(stage) else {
            return TeamStandings {
                stage: stage + 1,
                tiebreaks: Vec::new(),
                rows: Vec::new(),
            };
        };
        let (sheets, primary, tiebreaks) = match s.system {
            TeamSystem::Swiss | TeamSystem::RoundRobin => (
                self.match_sheets(stage, teams),
                self.settings.primary,
                s.tiebreaks.clone(),
            ),
            TeamSystem::BoardGroups => (
                self.game_sheets(stage, teams),
                self.stage_primary(stage + 1),
                s.tiebreaks.clone(),
            ),
            TeamSystem::Scheveningen => (
                self.game_sheets(stage, teams),
                self.stage_primary(stage + 1),
                Vec::new(),
            ),
        };
        let prim = |sh: &Sheet| match primary {
            Primary::MatchPoints => sh.match_points,
            Primary::GamePoints => sh.game_points,
        };
        let n = sheets.len();
        let mut values: Vec<Vec<Ratio>> = vec![Vec::new(); n];
        for (k, tb) in tiebreaks.iter().enumerate() {
            for i in 0..n {
                let sh = &sheets[i];
                let v = match tb {
                    TeamTieBreak::GamePoints => sh.game_points.to_ratio(),
                    TeamTieBreak::MatchPoints => sh.match_points.to_ratio(),
                    TeamTieBreak::Wins => Ratio::integer(sh.wins),
                    TeamTieBreak::BoardCount => Ratio::new(sh.board_count, 2),
                    TeamTieBreak::Buchholz => {
                        let own = prim(sh);
                        let sum: Score = sh
                            .rounds
                            .iter()
                            .map(|r| match r {
                                Rec::Match { opponent, .. } => sheets
                                    .iter()
                                    .find(|o| o.team == *opponent)
                                    .map_or(own, prim),
                                Rec::Bye | Rec::Unplayed => own,
                            })
                            .sum();
                        sum.to_ratio()
                    }
                    TeamTieBreak::SonnebornBerger => {
                        let quarters = sh.rounds.iter().fold(0i128, |acc, r| match r {
                            Rec::Match {
                                opponent,
                                game_points,
                                ..
                            } => {
                                let opp = sheets
                                    .iter()
                                    .find(|o| o.team == *opponent)
                                    .map_or(Score::ZERO, |o| o.match_points);
                                acc + times(opp, *game_points)
                            }
                            Rec::Bye => acc + times(sh.match_points, self.settings.bye.game_points),
                            Rec::Unplayed => acc,
                        });
                        Ratio::new(quarters, 4)
                    }
                    TeamTieBreak::DirectEncounter => {
                        let tied: Vec<usize> = (0..n)
                            .filter(|&j| {
                                prim(&sheets[j]) == prim(sh) && values[j][..k] == values[i][..k]
                            })
                            .collect();
                        direct_encounter(&sheets, &tied, i, primary)
                    }
                };
                values[i].push(v);
            }
        }
        let mut order: Vec<usize> = (0..n).collect();
        let key = |a: usize, b: usize| -> Ordering {
            prim(&sheets[b])
                .cmp(&prim(&sheets[a]))
                .then_with(|| values[b].cmp(&values[a]))
        };
        order.sort_by(|&a, &b| {
            key(a, b)
                .then_with(|| {
                    self.team_rating(sheets[b].team)
                        .cmp(&self.team_rating(sheets[a].team))
                })
                .then(sheets[a].team.cmp(&sheets[b].team))
        });
        let mut rows = Vec::with_capacity(n);
        let mut rank = 0;
        for (pos, &i) in order.iter().enumerate() {
            if pos == 0 || key(order[pos - 1], i) != Ordering::Equal {
                rank = pos as u32 + 1;
            }
            let sh = &sheets[i];
            rows.push(TeamRow {
                rank,
                team: sh.team,
                name: self
                    .team(sh.team)
                    .map(|t| t.name.clone())
                    .unwrap_or_default(),
                match_points: sh.match_points,
                game_points: sh.game_points,
                tiebreaks: values[i].clone(),
            });
        }
        TeamStandings {
            stage: stage + 1,
            tiebreaks,
            rows,
        }
    }
}

/// Among the `tied` teams, if every two of them have met, team `i`'s primary score from
/// those matches; otherwise 0.
fn direct_encounter(sheets: &[Sheet], tied: &[usize], i: usize, primary: Primary) -> Ratio {
    if tied.len() < 2 {
        return Ratio::ZERO;
    }
    let met = |a: usize, b: usize| {
        sheets[a]
            .rounds
            .iter()
            .any(|r| matches!(r, Rec::Match { opponent, .. } if *opponent == sheets[b].team))
    };
    for (x, &a) in tied.iter().enumerate() {
        for &b in &tied[x + 1..] {
            if !met(a, b) {
                return Ratio::ZERO;
            }
        }
    }
    let members: Vec<TeamId> = tied.iter().map(|&j| sheets[j].team).collect();
    let sum: Score = sheets[i]
        .rounds
        .iter()
        .map(|r| match r {
            Rec::Match {
                opponent,
                game_points,
                match_points,
                ..
            } if members.contains(opponent) => match primary {
                Primary::MatchPoints => *match_points,
                Primary::GamePoints => *game_points,
            },
            _ => Score::ZERO,
        })
        .sum();
    sum.to_ratio()
}
