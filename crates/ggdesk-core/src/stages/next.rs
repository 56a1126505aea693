//! What comes next in an event of stages, and what it looks like: the next round of the
//! current stage (or the next playoff games, or the first round of the stage just seeded),
//! a stage's standings, the event's final placement and the bracket. Pure.

use super::bracket::{Bracket, Match};
use super::event::{
    Event, EventParts, PlayoffGame, Reached, StageGame, StagePlay, StageRound, sort_by_place,
};
use super::fault::{EventFileError, err};
use super::playoff::PlayoffState;
use super::settings::{GroupId, MatchFormat, MatchId, StageFormat};
use crate::pairing::{PairingError, pair_round_robin, pair_swiss};
use crate::tournament::{
    FileFault, Game, GameResult, PlayerId, Ratio, RoundNo, Score, StageNo, StandingRow, TableNo,
    TieBreak, TournamentError,
};
use serde_json::{Map, Value, json};

/// One board of the next round or playoff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageBoard {
    /// The group, in a round robin (played in groups, `A` when there is one).
    pub group: Option<GroupId>,
    /// The match, in a knockout.
    pub series: Option<MatchId>,
    pub table: TableNo,
    pub white: PlayerId,
    pub black: PlayerId,
}

/// What `pair` does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextStep {
    /// The next round of the current stage (the first round of a stage just seeded).
    Round {
        stage: StageNo,
        round: RoundNo,
        games: Vec<StageBoard>,
        byes: Vec<PlayerId>,
    },
    /// The next playoff games at the current stage's cut, every group's together.
    Playoff {
        stage: StageNo,
        games: Vec<StageBoard>,
    },
}

/// Why nothing can be paired now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepRefusal {
    #[error(
        "stage {stage}, round {round} is not complete: every game needs a result before the next round is paired"
    )]
    RoundNotComplete { stage: StageNo, round: RoundNo },
    #[error("stage {0}: a playoff game has no result yet")]
    PlayoffNotComplete(StageNo),
    #[error("the event is over: every stage is complete")]
    Over,
    #[error(
        "{}the first stage needs at least {needs} players{}",
        if *.players == 0 { "no player is registered yet: register players; ".to_string() }
        else { format!("{} player{} registered: too few; ", .players, if *.players == 1 { " is" } else { "s are" }) },
        if *.groups > 1 { format!(" (2 in each of its {} groups)", .groups) } else { String::new() }
    )]
    TooFewPlayers {
        players: usize,
        needs: usize,
        groups: usize,
    },
    #[error("stage {stage}: {error}")]
    Pairing { stage: StageNo, error: PairingError },
}

fn number(n: usize) -> TableNo {
    TableNo::from_index(n)
}

impl NextStep {
    /// The spec's output of `ggdesk pair` on a `/2` file.
    pub fn to_json(&self) -> String {
        let board = |b: &StageBoard| {
            let mut m = Map::new();
            if let Some(g) = b.group {
                m.insert("group".into(), json!(g.to_string()));
            }
            if let Some(s) = b.series {
                m.insert("match".into(), json!(s.to_string()));
            }
            m.insert("table".into(), json!(b.table.0));
            m.insert("white".into(), json!(b.white.0));
            m.insert("black".into(), json!(b.black.0));
            Value::Object(m)
        };
        match self {
            NextStep::Round {
                stage,
                round,
                games,
                byes,
            } => json!({
                "stage": stage.0,
                "round": round.0,
                "games": games.iter().map(board).collect::<Vec<_>>(),
                "byes": byes.iter().map(|p| p.0).collect::<Vec<_>>(),
            }),
            NextStep::Playoff { stage, games } => json!({
                "stage": stage.0,
                "playoff": true,
                "games": games.iter().map(board).collect::<Vec<_>>(),
            }),
        }
        .to_string()
    }
}

/// A stage's standings, group by group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageStandings {
    pub stage: StageNo,
    pub tiebreaks: Vec<TieBreak>,
    /// Whether the stage is a round robin, played in groups (then every row names its
    /// group, `A` when there is one).
    pub grouped: bool,
    /// In group order; within a group in rank order, tied players who played off in their
    /// playoff order (keeping their shared rank), then by seed.
    pub rows: Vec<(GroupId, StandingRow)>,
}

/// One line of the event's final placement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub place: u32,
    pub id: PlayerId,
    pub name: String,
    /// The stage the player was placed in (their last).
    pub stage: StageNo,
}

/// Why the final placement cannot be given yet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacementRefusal {
    #[error("the event is not over: stage {0} is still being played")]
    NotOver(StageNo),
}

/// Why a stage's standings cannot be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StandingsRefusal {
    #[error("there is no stage {0}")]
    NoSuchStage(StageNo),
    #[error("stage {0} is not seeded yet")]
    NotSeeded(StageNo),
}

impl Event {
    /// The next step of the event: the next round of the current stage, the next playoff
    /// games at its cut, or (the stage complete and its cut clear, which `Event` has
    /// already seeded) the next stage's first round.
    pub fn next_step(&self) -> Result<NextStep, StepRefusal> {
        let cur = self.current();
        let k = cur.stage.index().unwrap_or(0);
        let stage = cur.stage;
        let play = self.play(k).cloned().unwrap_or_default();
        // Every group of the first stage needs two players, or some only get byes.
        if k == 0 && play.rounds.is_empty() {
            let groups = match self.settings().stages.first().map(|s| s.format) {
                Some(StageFormat::RoundRobin { groups, .. }) => {
                    usize::try_from(groups).unwrap_or(usize::MAX).max(1)
                }
                _ => 1,
            };
            let needs = groups.saturating_mul(2);
            if cur.seeds.len() < needs {
                return Err(StepRefusal::TooFewPlayers {
                    players: cur.seeds.len(),
                    needs,
                    groups,
                });
            }
        }
        if cur.complete {
            if self.is_over() {
                return Err(StepRefusal::Over);
            }
            return self.next_playoff(cur);
        }
        let played = play.rounds.len();
        if let Some(b) = &cur.bracket {
            if b.has_pending() || play.rounds.last().is_some_and(|r| !r.is_complete()) {
                return Err(StepRefusal::RoundNotComplete {
                    stage,
                    round: RoundNo::from_index(played.saturating_sub(1)),
                });
            }
            let games = b
                .open()
                .iter()
                .filter_map(|m| m.next_game().map(|g| (m.id, g)))
                .enumerate()
                .map(|(t, (id, (white, black)))| StageBoard {
                    group: None,
                    series: Some(id),
                    table: number(t),
                    white,
                    black,
                })
                .collect();
            return Ok(NextStep::Round {
                stage,
                round: RoundNo::from_index(played),
                games,
                byes: Vec::new(),
            });
        }
        // A Swiss or a round robin: the last round must be complete; when every round is
        // there, the first one still pending is the one to finish.
        let incomplete = if cur.planned.is_some_and(|p| played >= p) {
            play.rounds.iter().position(|r| !r.is_complete())
        } else {
            play.rounds
                .last()
                .filter(|r| !r.is_complete())
                .map(|_| played - 1)
        };
        if let Some(r) = incomplete {
            return Err(StepRefusal::RoundNotComplete {
                stage,
                round: RoundNo::from_index(r),
            });
        }
        let grouped = cur.grouped;
        let mut games = Vec::new();
        let mut byes = Vec::new();
        for grp in &cur.groups {
            if grp.planned <= played || grp.members.is_empty() {
                continue;
            }
            let pairing = match self.settings().stages[k].format {
                StageFormat::Swiss { .. } => pair_swiss(&grp.table, &[]),
                _ => pair_round_robin(&grp.table),
            }
            .map_err(|error| StepRefusal::Pairing { stage, error })?;
            for b in &pairing.games {
                games.push(StageBoard {
                    group: grouped.then_some(grp.id),
                    series: None,
                    table: number(games.len()),
                    white: b.white,
                    black: b.black,
                });
            }
            byes.extend(pairing.byes.iter().copied());
        }
        Ok(NextStep::Round {
            stage,
            round: RoundNo::from_index(played),
            games,
            byes,
        })
    }

    fn next_playoff(&self, cur: &Reached) -> Result<NextStep, StepRefusal> {
        let grouped = cur.grouped;
        let mut games = Vec::new();
        for cut in &cur.cut {
            let Some(p) = &cut.playoff else {
                continue;
            };
            match &p.state {
                PlayoffState::Clear => {}
                PlayoffState::Waiting => return Err(StepRefusal::PlayoffNotComplete(cur.stage)),
                PlayoffState::Next(next) => {
                    for &(white, black) in next {
                        games.push(StageBoard {
                            group: grouped.then_some(cut.group),
                            series: None,
                            table: number(games.len()),
                            white,
                            black,
                        });
                    }
                }
            }
        }
        Ok(NextStep::Playoff {
            stage: cur.stage,
            games,
        })
    }

    /// The standings of stage `stage` (from 1; `None` for the current stage).
    pub fn stage_standings(
        &self,
        stage: Option<StageNo>,
    ) -> Result<StageStandings, StandingsRefusal> {
        let count = self.settings().stages.len();
        let k = match stage {
            None => self.current().stage.index().unwrap_or(0),
            Some(s) => {
                let k = s
                    .index()
                    .filter(|&k| k < count)
                    .ok_or(StandingsRefusal::NoSuchStage(s))?;
                if k >= self.reached().len() {
                    return Err(StandingsRefusal::NotSeeded(StageNo::from_index(k)));
                }
                k
            }
        };
        let r = &self.reached()[k];
        let real = |mut row: StandingRow| {
            if let Some(p) = self.player(row.id) {
                row.rating = p.rating;
            }
            row
        };
        let mut rows = Vec::new();
        if r.cut.is_empty() {
            for grp in &r.groups {
                let st = crate::tournament::standings(&grp.table, grp.table.rounds().len());
                rows.extend(st.rows.into_iter().map(|row| (grp.id, real(row))));
            }
        } else {
            for cut in &r.cut {
                rows.extend(
                    cut.standings
                        .rows
                        .iter()
                        .cloned()
                        .map(|row| (cut.group, real(row))),
                );
            }
        }
        Ok(StageStandings {
            stage: r.stage,
            tiebreaks: self.settings().stages[k].tiebreaks.clone(),
            grouped: r.grouped,
            rows,
        })
    }

    /// The event's final placement (`standings --final`): the knockout's winner, finalist,
    /// third and fourth (or both semi-final losers third), then the players out in each
    /// earlier bracket round sharing a place, listed by seed; or the last stage's ranks when
    /// it is a Swiss or a round robin; then, back to the first stage, the players who did not
    /// qualify, by their place in their group, each on a place of their own.
    pub fn final_placement(&self) -> Result<Vec<Placed>, PlacementRefusal> {
        if !self.is_over() {
            return Err(PlacementRefusal::NotOver(self.current().stage));
        }
        let mut out: Vec<Placed> = Vec::new();
        let name = |id: PlayerId| self.player(id).map(|p| p.name.clone()).unwrap_or_default();
        let last = self.current();
        let push = |out: &mut Vec<Placed>, place: usize, id: PlayerId, stage: StageNo| {
            out.push(Placed {
                place: u32::try_from(place).unwrap_or(u32::MAX),
                id,
                name: name(id),
                stage,
            });
        };
        match &last.bracket {
            Some(b) => {
                for (place, id) in knockout_places(b, last) {
                    push(&mut out, place, id, last.stage);
                }
            }
            None => {
                let st = self
                    .stage_standings(Some(last.stage))
                    .map_err(|_| PlacementRefusal::NotOver(last.stage))?;
                for (_, row) in st.rows {
                    push(
                        &mut out,
                        usize::try_from(row.rank).unwrap_or(usize::MAX),
                        row.id,
                        last.stage,
                    );
                }
            }
        }
        for r in self.reached().iter().rev().skip(1) {
            let k = r.stage.index().unwrap_or(0);
            let advance = self.settings().stages[k]
                .advance
                .map_or(0, |a| usize::try_from(a).unwrap_or(usize::MAX));
            let mut rest: Vec<(usize, &StandingRow, GroupId)> = Vec::new();
            for cut in &r.cut {
                for (place, row) in cut.standings.rows.iter().enumerate().skip(advance) {
                    rest.push((place, row, cut.group));
                }
            }
            sort_by_place(&mut rest);
            for (_, row, _) in rest {
                let place = out.len() + 1;
                push(&mut out, place, row.id, r.stage);
            }
        }
        Ok(out)
    }
}

/// The places of a finished knockout, best first: (place, player).
fn knockout_places(b: &Bracket, r: &Reached) -> Vec<(usize, PlayerId)> {
    let mut out: Vec<(usize, PlayerId)> = Vec::new();
    let seed = |p: &PlayerId| r.seed(*p).unwrap_or(usize::MAX);
    let rounds = b.rounds.len();
    if rounds == 0 {
        // One player (or none): the winner without a game.
        out.extend(r.seeds.first().map(|&p| (1, p)));
        return out;
    }
    if let Some(f) = b.rounds[rounds - 1].first() {
        out.extend(f.winner.map(|w| (1, w)));
        out.extend(f.loser().map(|l| (2, l)));
    }
    let mut down_to = rounds - 1;
    if let Some(third) = &b.third {
        out.extend(third.winner.map(|w| (3, w)));
        out.extend(third.loser().map(|l| (4, l)));
        down_to = rounds.saturating_sub(2);
    }
    for r in (0..down_to).rev() {
        let mut losers: Vec<PlayerId> = b.rounds[r].iter().filter_map(Match::loser).collect();
        losers.sort_by_key(seed);
        let place = out.len() + 1;
        out.extend(losers.into_iter().map(|p| (place, p)));
    }
    out
}

/// A number of points as JSON: an integer when whole.
fn points_json(s: Score) -> Value {
    Ratio::from(s).to_json()
}

/// The spec's JSON of a stage's standings: the rows of `tournament.md`, each with its
/// `group` in a stage with groups.
pub fn stage_standings_json(s: &StageStandings) -> String {
    let mut out = String::from("[");
    for (n, (g, row)) in s.rows.iter().enumerate() {
        out.push_str(if n == 0 { "\n" } else { ",\n" });
        let mut m = Map::new();
        if s.grouped {
            m.insert("group".into(), json!(g.to_string()));
        }
        m.insert("rank".into(), json!(row.rank));
        m.insert("id".into(), json!(row.id.0));
        m.insert("name".into(), json!(row.name));
        m.insert("rating".into(), json!(row.rating));
        m.insert("score".into(), points_json(row.score));
        for (tb, v) in s.tiebreaks.iter().zip(&row.tiebreaks) {
            m.insert(tb.name().into(), v.to_json());
        }
        out.push_str(&Value::Object(m).to_string());
    }
    out.push_str(if s.rows.is_empty() { "]" } else { "\n]" });
    out
}

/// The spec's JSON of the final placement: `{"place", "id", "name", "stage"}` rows.
pub fn placement_json(rows: &[Placed]) -> String {
    let mut out = String::from("[");
    for (n, p) in rows.iter().enumerate() {
        out.push_str(if n == 0 { "\n" } else { ",\n" });
        out.push_str(
            &json!({"place": p.place, "id": p.id.0, "name": p.name, "stage": p.stage.0})
                .to_string(),
        );
    }
    out.push_str(if rows.is_empty() { "]" } else { "\n]" });
    out
}

fn match_json(m: &Match, format: MatchFormat) -> Value {
    let score = m.series.score(format);
    json!({
        "match": m.id.to_string(),
        "seeds": m.slots.iter().map(|s| s.seed.map_or(Value::Null, |x| json!(x))).collect::<Vec<_>>(),
        "players": m.slots.iter().map(|s| s.player.map_or(Value::Null, |x| json!(x.0))).collect::<Vec<_>>(),
        "games": m.games.iter().map(|g| json!({"white": g.white.0, "black": g.black.0, "result": g.result.name()})).collect::<Vec<_>>(),
        "score": [points_json(score[0]), points_json(score[1])],
        "winner": m.winner.map_or(Value::Null, |w| json!(w.0)),
    })
}

impl Event {
    /// The knockout stage as `ggdesk bracket` prints it, if the event has one seeded.
    pub fn bracket_json(&self) -> Option<String> {
        let r = self.reached().iter().rev().find(|r| r.bracket.is_some())?;
        let b = r.bracket.as_ref()?;
        let (next, next_third) = b.preview();
        let rounds: Vec<Vec<Value>> = b
            .rounds
            .iter()
            .chain(next.as_ref())
            .map(|ms| ms.iter().map(|m| match_json(m, b.format)).collect())
            .collect();
        let third = b.third.as_ref().or(next_third.as_ref());
        Some(
            json!({
                "stage": r.stage.0,
                "rounds": rounds,
                "third_place": third.map_or(Value::Null, |m| match_json(m, b.format)),
            })
            .to_string(),
        )
    }
}

impl NextStep {
    /// The stage the step belongs to.
    pub fn stage(&self) -> StageNo {
        match self {
            NextStep::Round { stage, .. } | NextStep::Playoff { stage, .. } => *stage,
        }
    }

    /// The boards of the step.
    pub fn games(&self) -> &[StageBoard] {
        match self {
            NextStep::Round { games, .. } | NextStep::Playoff { games, .. } => games,
        }
    }
}

impl Event {
    fn rebuilt(
        &self,
        change: impl FnOnce(&mut EventParts) -> Result<(), EventFileError>,
    ) -> Result<Event, EventFileError> {
        let mut parts = self.parts().clone();
        change(&mut parts)?;
        Event::new(parts)
    }

    /// The event with a next step recorded as paired: its games pending.
    pub fn record(&self, step: &NextStep) -> Result<Event, EventFileError> {
        let k = step.stage().index().unwrap_or(0);
        self.rebuilt(|parts| {
            while parts.stages.len() <= k {
                parts.stages.push(StagePlay::default());
            }
            let play = &mut parts.stages[k];
            match step {
                NextStep::Round { games, byes, .. } => play.rounds.push(StageRound {
                    games: games
                        .iter()
                        .map(|b| StageGame {
                            group: b.group,
                            series: b.series,
                            game: Game::pending(Some(b.table.0), b.white, b.black),
                        })
                        .collect(),
                    byes: byes.clone(),
                    absent: Vec::new(),
                }),
                NextStep::Playoff { games, .. } => {
                    play.playoffs.extend(games.iter().map(|b| PlayoffGame {
                        group: b.group,
                        white: b.white,
                        black: b.black,
                        result: GameResult::Pending,
                    }));
                }
            }
            Ok(())
        })
    }

    /// The event with the result of game `game` (from 0) of round `round` of `stage`.
    pub fn set_result(
        &self,
        stage: StageNo,
        round: RoundNo,
        game: usize,
        result: GameResult,
    ) -> Result<Event, EventFileError> {
        self.rebuilt(|parts| {
            let at = format!("stages[{}].rounds[{}].games[{game}]", stage.0, round.0);
            let g = stage
                .index()
                .and_then(|k| parts.stages.get_mut(k))
                .and_then(|p| round.index().and_then(|r| p.rounds.get_mut(r)))
                .and_then(|r| r.games.get_mut(game))
                .ok_or_else(|| {
                    err(
                        at,
                        FileFault::Tournament(TournamentError::NoSuchGame {
                            round: round.0 as usize,
                            game,
                        }),
                    )
                })?;
            g.game.result = result;
            Ok(())
        })
    }

    /// The event with the result of playoff game `game` (from 0) of `stage`.
    pub fn set_playoff_result(
        &self,
        stage: StageNo,
        game: usize,
        result: GameResult,
    ) -> Result<Event, EventFileError> {
        self.rebuilt(|parts| {
            let g = stage
                .index()
                .and_then(|k| parts.stages.get_mut(k))
                .and_then(|p| p.playoffs.get_mut(game))
                .ok_or_else(|| {
                    err(
                        format!("stages[{}].playoffs[{game}]", stage.0),
                        FileFault::Missing,
                    )
                })?;
            g.result = result;
            Ok(())
        })
    }
}

/// Who of a stage goes on and who plays off at its cut, as the desk and the pages mark
/// them: the top `advance` of each group's standings (in playoff order) once the cut is
/// clear; above a tie still being played off, only those ranked above it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CutMarks {
    /// The players who go on (known once the stage is complete).
    pub through: Vec<PlayerId>,
    /// The players of a tie across the cut: they play (or played) off.
    pub tied: Vec<PlayerId>,
}

impl Event {
    /// The marks of stage `stage`'s cut (from 1): empty while it is not complete, and for
    /// the last stage (no cut).
    pub fn cut_marks(&self, stage: StageNo) -> CutMarks {
        let mut marks = CutMarks::default();
        let Some(k) = stage.index() else {
            return marks;
        };
        let (Some(r), Some(spec)) = (self.reached().get(k), self.settings().stages.get(k)) else {
            return marks;
        };
        let Some(advance) = spec.advance.filter(|_| r.complete) else {
            return marks;
        };
        let advance = usize::try_from(advance).unwrap_or(usize::MAX);
        for cut in &r.cut {
            let tied: Vec<PlayerId> = cut
                .playoff
                .as_ref()
                .map(|p| p.order.clone())
                .unwrap_or_default();
            for (place, row) in cut.standings.rows.iter().enumerate() {
                let plays_off = tied.contains(&row.id);
                if place < advance && (cut.is_clear() || !plays_off) {
                    marks.through.push(row.id);
                }
                if plays_off {
                    marks.tied.push(row.id);
                }
            }
        }
        marks
    }
}
