//! An event of stages, always valid: built from its parts by replaying them stage by
//! stage (seeding, groups, rounds, the cut and its playoffs, the bracket), so that a game
//! in a stage not yet seeded, a player in a stage they did not qualify for, or a game of a
//! group or match that does not exist is refused with where it is.

use super::bracket::{Bracket, MatchGame, Slot, bracket_order};
use super::fault::{EventFileError, StageFault, err, fault};
use super::playoff::{PlayedOff, Playoff, PlayoffState, playoff};
use super::settings::{EventSettings, GroupId, MatchId, Seeding, StageFormat, StageSpec};
use crate::tournament::file::model;
use crate::tournament::{
    FileFault, Game, GameResult, Penalty, Player, PlayerId, PointsScale, Ratio, Round, Score,
    Settings, StageNo, StandingRow, Standings, Tournament, TournamentError, standings,
};
use std::collections::{HashMap, HashSet};

/// A penalty with the stage it counts in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StagePenalty {
    pub stage: StageNo,
    pub penalty: Penalty,
}

/// A game of a stage's round: the group it belongs to (a grouped round robin) or the match
/// (a knockout).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageGame {
    pub group: Option<GroupId>,
    pub series: Option<MatchId>,
    pub game: Game,
}

/// A round of a stage, played or in play.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StageRound {
    pub games: Vec<StageGame>,
    pub byes: Vec<PlayerId>,
    pub absent: Vec<PlayerId>,
}

impl StageRound {
    /// Complete when no game is pending.
    pub fn is_complete(&self) -> bool {
        self.games
            .iter()
            .all(|g| g.game.result != GameResult::Pending)
    }
}

/// A playoff game at a stage's cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayoffGame {
    pub group: Option<GroupId>,
    pub white: PlayerId,
    pub black: PlayerId,
    pub result: GameResult,
}

/// What has been played in a stage.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StagePlay {
    pub rounds: Vec<StageRound>,
    pub playoffs: Vec<PlayoffGame>,
}

/// Everything an event is made of, unchecked.
#[derive(Debug, Clone, PartialEq)]
pub struct EventParts {
    pub name: String,
    pub settings: EventSettings,
    pub players: Vec<Player>,
    pub penalties: Vec<StagePenalty>,
    /// One per stage of the settings (missing ones are stages not played yet).
    pub stages: Vec<StagePlay>,
}

/// A group of a stage (a Swiss or a knockout is one group), with its players and its
/// rounds as a one-stage [`Tournament`] whose ratings are the players' seeds (so that its
/// pairing and its standings order players equal on everything by seed).
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub id: GroupId,
    /// In seed order.
    pub members: Vec<PlayerId>,
    /// How many rounds the group plays (a short group sits out the stage's later rounds).
    pub planned: usize,
    pub table: Tournament,
}

/// A group's standings with its cut.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupCut {
    pub group: GroupId,
    /// The group's standings, tied players who played off in their playoff order.
    pub standings: Standings,
    /// The playoff, when the players at places `advance` and `advance + 1` share a rank.
    pub playoff: Option<Playoff>,
}

impl GroupCut {
    pub fn is_clear(&self) -> bool {
        self.playoff
            .as_ref()
            .is_none_or(|p| p.state == PlayoffState::Clear)
    }
}

/// A stage that has been seeded, with what has been played in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reached {
    pub stage: StageNo,
    /// Its players in seed order.
    pub seeds: Vec<PlayerId>,
    pub groups: Vec<Group>,
    /// A round robin: its games, playoffs and standings name their group (`A` when the
    /// stage has one group, as the reference's files do).
    pub grouped: bool,
    pub bracket: Option<Bracket>,
    /// How many rounds the stage has (a knockout: as many as it takes).
    pub planned: Option<usize>,
    /// Every round played and complete (a knockout: every match decided).
    pub complete: bool,
    /// The cut of a complete stage that is not the last, group by group.
    pub cut: Vec<GroupCut>,
}

impl Reached {
    /// Whether the cut is clear (a stage not yet complete has none to be clear).
    pub fn cut_is_clear(&self) -> bool {
        self.complete && self.cut.iter().all(GroupCut::is_clear)
    }

    /// The seed of a player in the stage (from 1).
    pub fn seed(&self, p: PlayerId) -> Option<usize> {
        self.seeds.iter().position(|&x| x == p).map(|i| i + 1)
    }

    /// The group of a player.
    pub fn group_of(&self, p: PlayerId) -> Option<&Group> {
        self.groups.iter().find(|g| g.members.contains(&p))
    }
}

/// An event of stages, valid whatever built it.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    parts: EventParts,
    reached: Vec<Reached>,
}

/// Where round `r` (from 0) of stage `k` (from 0) is in the file.
fn at_round(k: usize, r: usize) -> String {
    format!("stages[{k}].rounds[{r}]")
}

/// Players in the first stage's seed order: rating (highest first), then lowest id.
fn by_rating(players: &[Player]) -> Vec<PlayerId> {
    let mut order: Vec<&Player> = players.iter().collect();
    order.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.id.cmp(&b.id)));
    order.into_iter().map(|p| p.id).collect()
}

/// A round robin's cycle for `n` players: n − 1 rounds, n with an odd number.
fn cycle(n: usize) -> usize {
    if n.is_multiple_of(2) {
        n.saturating_sub(1)
    } else {
        n
    }
}

/// The groups of a round robin stage: seeds in serpentine order (1..G to A..G, then
/// G+1..2G back from G to A, …), each group in seed order.
pub fn serpentine(seeds: &[PlayerId], groups: usize) -> Vec<Vec<PlayerId>> {
    let g = groups.max(1);
    let mut out = vec![Vec::new(); g];
    for (i, &p) in seeds.iter().enumerate() {
        let (block, pos) = (i / g, i % g);
        let at = if block.is_multiple_of(2) {
            pos
        } else {
            g - 1 - pos
        };
        out[at].push(p);
    }
    out
}

/// The players of a group as the group's one-stage tournament holds them: rating replaced
/// by the seed (higher for a better seed), so that the pairing's and the standings' "by
/// rating" read "by seed".
fn seeded_players(
    players: &HashMap<PlayerId, &Player>,
    members: &[PlayerId],
    seeds: &[PlayerId],
) -> Vec<Player> {
    let n = i64::try_from(seeds.len()).unwrap_or(i64::MAX);
    members
        .iter()
        .filter_map(|id| {
            let p = players.get(id)?;
            let seed = seeds.iter().position(|x| x == id).unwrap_or(seeds.len());
            let mut q = (*p).clone();
            q.rating = n - i64::try_from(seed).unwrap_or(n);
            Some(q)
        })
        .collect()
}

impl Event {
    /// Checks and replays an event.
    pub fn new(parts: EventParts) -> Result<Event, EventFileError> {
        parts
            .settings
            .check()
            .map_err(|f| fault("stages", StageFault::Settings(f)))?;
        let mut ids = HashSet::new();
        for (i, p) in parts.players.iter().enumerate() {
            if p.id.0 == 0 {
                return Err(err(
                    format!("players[{i}]"),
                    FileFault::Tournament(TournamentError::ZeroId),
                ));
            }
            if !ids.insert(p.id) {
                return Err(err(
                    format!("players[{i}]"),
                    FileFault::Tournament(TournamentError::DuplicatePlayer(p.id)),
                ));
            }
        }
        for (i, &(a, b)) in parts.settings.forbidden.iter().enumerate() {
            let at = format!("settings.forbidden[{i}]");
            for id in [a, b] {
                if !ids.contains(&id) {
                    return Err(err(
                        at,
                        FileFault::Tournament(TournamentError::UnknownPlayer(id)),
                    ));
                }
            }
            if a == b {
                return Err(err(
                    at,
                    FileFault::Tournament(TournamentError::SamePlayer(a)),
                ));
            }
        }
        let stage_count = parts.settings.stages.len();
        if parts.stages.len() > stage_count {
            return Err(fault(
                format!("stages[{stage_count}]"),
                StageFault::NoSuchStage(u32::try_from(stage_count + 1).unwrap_or(u32::MAX)),
            ));
        }
        for (i, pen) in parts.penalties.iter().enumerate() {
            let at = format!("penalties[{i}]");
            if !ids.contains(&pen.penalty.player) {
                return Err(err(
                    format!("{at}.player"),
                    FileFault::Tournament(TournamentError::UnknownPlayer(pen.penalty.player)),
                ));
            }
            if pen.stage.index().is_none_or(|k| k >= stage_count) {
                return Err(fault(
                    format!("{at}.stage"),
                    StageFault::NoSuchStage(pen.stage.0),
                ));
            }
            if pen.penalty.points < Score::ZERO
                || pen.penalty.points > Score::from_points(crate::tournament::MAX_POINTS)
            {
                return Err(err(format!("{at}.points"), FileFault::NotPoints));
            }
        }
        // One play per stage, so that equal events are equal structs however built.
        let mut parts = parts;
        parts.stages.resize_with(stage_count, StagePlay::default);
        let mut event = Event {
            parts,
            reached: Vec::new(),
        };
        event.replay()?;
        Ok(event)
    }

    pub fn name(&self) -> &str {
        &self.parts.name
    }

    pub fn parts(&self) -> &EventParts {
        &self.parts
    }

    pub fn settings(&self) -> &EventSettings {
        &self.parts.settings
    }

    pub fn players(&self) -> &[Player] {
        &self.parts.players
    }

    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.parts.players.iter().find(|p| p.id == id)
    }

    /// The stages seeded so far, in order (the first is always seeded).
    pub fn reached(&self) -> &[Reached] {
        &self.reached
    }

    /// The current stage: the last one seeded.
    pub fn current(&self) -> &Reached {
        // `replay` always reaches the first stage.
        &self.reached[self.reached.len() - 1]
    }

    /// What has been played in stage `k` (from 0).
    pub fn play(&self, k: usize) -> Option<&StagePlay> {
        self.parts.stages.get(k)
    }

    /// Whether the event is over: its last stage is seeded and complete.
    pub fn is_over(&self) -> bool {
        self.reached.len() == self.parts.settings.stages.len() && self.current().complete
    }

    /// Replays the stages in order, seeding each from the one before.
    fn replay(&mut self) -> Result<(), EventFileError> {
        let stage_count = self.parts.settings.stages.len();
        let mut seeds = by_rating(&self.parts.players);
        for k in 0..stage_count {
            let reached = self.build_stage(k, seeds)?;
            let last = k + 1 == stage_count;
            let play = self.parts.stages.get(k).cloned().unwrap_or_default();
            if last && !play.playoffs.is_empty() {
                return Err(fault(
                    format!("stages[{k}].playoffs[0]"),
                    StageFault::PlayoffInLastStage,
                ));
            }
            let go_on = !last && reached.cut_is_clear();
            if !last && !reached.complete && !play.playoffs.is_empty() {
                return Err(fault(
                    format!("stages[{k}].playoffs[0]"),
                    StageFault::PlayoffTooEarly,
                ));
            }
            seeds = if go_on {
                self.next_seeds(k, &reached)
            } else {
                Vec::new()
            };
            self.reached.push(reached);
            if !go_on {
                break;
            }
        }
        // Nothing may be played in a stage not seeded.
        for k in self.reached.len()..stage_count {
            if let Some(play) = self.parts.stages.get(k) {
                let at = if !play.rounds.is_empty() {
                    Some(format!("stages[{k}].rounds[0]"))
                } else if !play.playoffs.is_empty() {
                    Some(format!("stages[{k}].playoffs[0]"))
                } else {
                    None
                };
                if let Some(at) = at {
                    return Err(fault(at, StageFault::NotSeeded(StageNo::from_index(k))));
                }
            }
        }
        Ok(())
    }

    /// The players of stage `k + 1` in seed order: each group's qualifiers (the top
    /// `advance`, playoffs settled), all winners first, then all seconds, …; within one
    /// place by score, then the tie-breaks in order, then group letter.
    fn next_seeds(&self, k: usize, reached: &Reached) -> Vec<PlayerId> {
        let advance = self.parts.settings.stages[k]
            .advance
            .map_or(0, |a| usize::try_from(a).unwrap_or(usize::MAX));
        let mut q: Vec<(usize, &StandingRow, GroupId)> = Vec::new();
        for cut in &reached.cut {
            for (place, row) in cut.standings.rows.iter().take(advance).enumerate() {
                q.push((place, row, cut.group));
            }
        }
        sort_by_place(&mut q);
        q.into_iter().map(|(_, r, _)| r.id).collect()
    }

    /// Seeds stage `k` with `seeds` and replays what has been played in it: its groups'
    /// tables, its bracket, whether it is complete and, when it is and is not the last
    /// stage, its cut.
    fn build_stage(&self, k: usize, seeds: Vec<PlayerId>) -> Result<Reached, EventFileError> {
        let spec = &self.parts.settings.stages[k];
        let stage = StageNo::from_index(k);
        let play = self.parts.stages.get(k).cloned().unwrap_or_default();
        let in_stage: HashSet<PlayerId> = seeds.iter().copied().collect();
        let (member_lists, stage_planned) = stage_groups(spec.format, &seeds);
        let groups = self.build_groups(k, member_lists, stage_planned, &seeds)?;
        self.check_penalties_in_stage(stage, &in_stage)?;
        if let Some(planned) = stage_planned
            && play.rounds.len() > planned
        {
            return Err(fault(
                at_round(k, planned),
                StageFault::TooManyRounds { planned },
            ));
        }
        let mut replay = StageReplay {
            k,
            stage,
            in_stage,
            group_of: groups
                .iter()
                .enumerate()
                .flat_map(|(g, grp)| grp.members.iter().map(move |&p| (p, g)))
                .collect(),
            groups,
            bracket: self.stage_bracket(k, &seeds),
        };
        for r in 0..play.rounds.len() {
            replay.round(&play.rounds, r)?;
        }
        let StageReplay {
            groups, bracket, ..
        } = replay;
        // A stage of fewer than two players cannot be played, so it is never complete.
        let complete =
            seeds.len() >= 2 && stage_complete(bracket.as_ref(), stage_planned, &play.rounds);
        let mut reached = Reached {
            stage,
            seeds,
            groups,
            grouped: matches!(spec.format, StageFormat::RoundRobin { .. }),
            bracket,
            planned: stage_planned,
            complete,
            cut: Vec::new(),
        };
        let last = k + 1 == self.parts.settings.stages.len();
        if complete && !last {
            reached.cut = self.cut(k, &reached, &play.playoffs)?;
        }
        Ok(reached)
    }

    /// The groups of stage `k`, each with how many rounds it plays and its table.
    fn build_groups(
        &self,
        k: usize,
        member_lists: Vec<Vec<PlayerId>>,
        stage_planned: Option<usize>,
        seeds: &[PlayerId],
    ) -> Result<Vec<Group>, EventFileError> {
        let format = self.parts.settings.stages[k].format;
        let by_id: HashMap<PlayerId, &Player> =
            self.parts.players.iter().map(|p| (p.id, p)).collect();
        let longest = member_lists
            .iter()
            .map(|l| cycle(l.len()))
            .max()
            .unwrap_or(0)
            .max(1);
        let mut groups = Vec::new();
        for (g, members) in member_lists.into_iter().enumerate() {
            let planned = match format {
                StageFormat::RoundRobin { .. } => {
                    let all = stage_planned.unwrap_or(0);
                    let cycles = all.div_ceil(longest).max(1);
                    all.min(cycle(members.len()).saturating_mul(cycles))
                }
                _ => stage_planned.unwrap_or(usize::MAX),
            };
            let table = self.group_table(k, &members, planned, &by_id, seeds)?;
            groups.push(Group {
                id: GroupId::from_index(g),
                members,
                planned,
                table,
            });
        }
        Ok(groups)
    }

    /// A group's one-stage table: its players by seed, the forbidden pairs among them (in
    /// a Swiss) and their penalties in the stage.
    fn group_table(
        &self,
        k: usize,
        members: &[PlayerId],
        planned: usize,
        by_id: &HashMap<PlayerId, &Player>,
        seeds: &[PlayerId],
    ) -> Result<Tournament, EventFileError> {
        let spec = &self.parts.settings.stages[k];
        let stage = StageNo::from_index(k);
        let settings = group_settings(spec, planned, self.parts.settings.points);
        let mut table = Tournament::new(spec.name.clone(), settings).map_err(model("stages"))?;
        for p in seeded_players(by_id, members, seeds) {
            table.add_player(p).map_err(model("players"))?;
        }
        if matches!(spec.format, StageFormat::Swiss { .. }) {
            for &(a, b) in &self.parts.settings.forbidden {
                if members.contains(&a) && members.contains(&b) {
                    table
                        .add_forbidden_pair(a, b)
                        .map_err(model("settings.forbidden"))?;
                }
            }
        }
        for (i, pen) in self.parts.penalties.iter().enumerate() {
            if pen.stage == stage && members.contains(&pen.penalty.player) {
                table
                    .add_penalty(pen.penalty.clone())
                    .map_err(model(format!("penalties[{i}]")))?;
            }
        }
        Ok(table)
    }

    /// Refuses a penalty in `stage` for a player who is not in it.
    fn check_penalties_in_stage(
        &self,
        stage: StageNo,
        in_stage: &HashSet<PlayerId>,
    ) -> Result<(), EventFileError> {
        for (i, pen) in self.parts.penalties.iter().enumerate() {
            if pen.stage == stage && !in_stage.contains(&pen.penalty.player) {
                return Err(fault(
                    format!("penalties[{i}].player"),
                    StageFault::NotInStage {
                        player: pen.penalty.player,
                        stage,
                    },
                ));
            }
        }
        Ok(())
    }

    /// The bracket of stage `k` when it is a knockout, its first round drawn from the
    /// seeds; none for a stage of groups.
    fn stage_bracket(&self, k: usize, seeds: &[PlayerId]) -> Option<Bracket> {
        match self.parts.settings.stages[k].format {
            StageFormat::Knockout {
                series,
                seeding,
                third_place,
            } => Some(Bracket::new(
                series,
                third_place,
                self.parts.settings.points,
                self.first_bracket_round(k, seeds, seeding),
            )),
            _ => None,
        }
    }

    /// A knockout's first bracket round (top first) from the stage's seeds.
    fn first_bracket_round(
        &self,
        k: usize,
        seeds: &[PlayerId],
        seeding: Seeding,
    ) -> Vec<[Slot; 2]> {
        let n = seeds.len();
        let slot = |s: u32| Slot {
            seed: Some(s),
            player: usize::try_from(s)
                .ok()
                .and_then(|s| s.checked_sub(1))
                .and_then(|i| seeds.get(i).copied()),
        };
        if n < 2 {
            return Vec::new();
        }
        match seeding {
            Seeding::Standard => {
                let order = bracket_order(u32::try_from(n).unwrap_or(u32::MAX));
                order.chunks(2).map(|c| [slot(c[0]), slot(c[1])]).collect()
            }
            Seeding::CrossOver => {
                // The winner and the second of each group of the stage before, by seed.
                let prev = k.checked_sub(1).and_then(|p| self.reached.get(p));
                let groups = prev.map_or(0, |p| p.groups.len());
                let place = |g: usize, place: usize| -> Slot {
                    let p = prev
                        .and_then(|pr| pr.cut.get(g))
                        .and_then(|c| c.standings.rows.get(place))
                        .map(|r| r.id);
                    match p.and_then(|p| seeds.iter().position(|&x| x == p)) {
                        Some(i) => Slot {
                            seed: Some(u32::try_from(i + 1).unwrap_or(u32::MAX)),
                            player: Some(seeds[i]),
                        },
                        None => Slot {
                            seed: None,
                            player: None,
                        },
                    }
                };
                let mut first = Vec::new();
                for j in 0..groups / 2 {
                    first.push([place(2 * j, 0), place(2 * j + 1, 1)]);
                }
                for j in 0..groups / 2 {
                    first.push([place(2 * j + 1, 0), place(2 * j, 1)]);
                }
                first
            }
        }
    }

    /// The cut of a complete stage, group by group, with the playoffs recorded.
    fn cut(
        &self,
        k: usize,
        reached: &Reached,
        playoffs: &[PlayoffGame],
    ) -> Result<Vec<GroupCut>, EventFileError> {
        let advance = self.parts.settings.stages[k]
            .advance
            .map_or(0, |a| usize::try_from(a).unwrap_or(usize::MAX));
        let games = playoffs_by_group(k, reached, playoffs)?;
        let mut out = Vec::new();
        for (grp, mine) in reached.groups.iter().zip(&games) {
            out.push(self.group_cut(k, grp, advance, mine)?);
        }
        Ok(out)
    }

    /// One group's cut: its standings with the players tied at the cut in their playoff
    /// order, refusing playoff games in a group with no tie there. `mine` are the group's
    /// playoff games with where each is in the stage's playoffs.
    fn group_cut(
        &self,
        k: usize,
        grp: &Group,
        advance: usize,
        mine: &[(usize, PlayedOff)],
    ) -> Result<GroupCut, EventFileError> {
        let mut st = standings(&grp.table, grp.table.rounds().len());
        let rows = &st.rows;
        let tie =
            advance >= 1 && advance < rows.len() && rows[advance - 1].rank == rows[advance].rank;
        let mut result = None;
        if tie {
            let rank = rows[advance].rank;
            let start = rows.iter().position(|r| r.rank == rank).unwrap_or(0);
            let tied: Vec<PlayerId> = rows
                .iter()
                .filter(|r| r.rank == rank)
                .map(|r| r.id)
                .collect();
            let list: Vec<PlayedOff> = mine.iter().map(|x| x.1).collect();
            let p = playoff(&tied, advance - start, &list, &self.parts.settings.points).map_err(
                |(i, f)| {
                    let at = format!("stages[{k}].playoffs[{}]", mine[i].0);
                    fault(at, StageFault::Playoff(f))
                },
            )?;
            // The tied players in their playoff order, keeping their shared rank.
            let block: Vec<StandingRow> = p
                .order
                .iter()
                .filter_map(|id| st.rows.iter().find(|r| r.id == *id).cloned())
                .collect();
            let n = block.len();
            st.rows.splice(start..start + n, block);
            result = Some(p);
        } else if let Some((i, _)) = mine.first() {
            return Err(fault(
                format!("stages[{k}].playoffs[{i}]"),
                StageFault::NoTieInGroup(grp.id),
            ));
        }
        Ok(GroupCut {
            group: grp.id,
            standings: st,
            playoff: result,
        })
    }
}

/// A stage's groups of players (the seeds in serpentine order for a round robin, all in
/// one group otherwise) and how many rounds the stage plays (a knockout: as many as it
/// takes).
fn stage_groups(format: StageFormat, seeds: &[PlayerId]) -> (Vec<Vec<PlayerId>>, Option<usize>) {
    match format {
        StageFormat::Swiss { rounds } => (
            vec![seeds.to_vec()],
            Some(usize::try_from(rounds).unwrap_or(usize::MAX)),
        ),
        StageFormat::RoundRobin { groups, rounds } => {
            let lists = serpentine(seeds, usize::try_from(groups).unwrap_or(1));
            let longest = lists.iter().map(|l| cycle(l.len())).max().unwrap_or(0);
            let planned = rounds.map_or(longest, |r| usize::try_from(r).unwrap_or(usize::MAX));
            (lists, Some(planned))
        }
        StageFormat::Knockout { .. } => (vec![seeds.to_vec()], None),
    }
}

/// The settings of a group's one-stage table, which plays `planned` rounds: a round
/// robin's, or a Swiss's (a knockout's, with no set number of rounds).
fn group_settings(spec: &StageSpec, planned: usize, points: PointsScale) -> Settings {
    Settings {
        system: match spec.format {
            StageFormat::RoundRobin { .. } => crate::tournament::System::RoundRobin,
            _ => crate::tournament::System::Swiss,
        },
        rounds: match spec.format {
            StageFormat::Knockout { .. } => None,
            _ => Some(u32::try_from(planned.max(1)).unwrap_or(u32::MAX)),
        },
        points,
        tiebreaks: spec.tiebreaks.clone(),
        forbidden: Vec::new(),
    }
}

/// Whether a stage is complete: a knockout's bracket decided, or every planned round
/// played and complete.
fn stage_complete(
    bracket: Option<&Bracket>,
    planned: Option<usize>,
    rounds: &[StageRound],
) -> bool {
    match (bracket, planned) {
        (Some(b), _) => b.is_complete(),
        (None, Some(planned)) => {
            rounds.len() == planned && rounds.iter().all(StageRound::is_complete)
        }
        (None, None) => false,
    }
}

/// A stage while its rounds are replayed: its groups' tables and its bracket, with who is
/// in the stage and in which group (by index).
struct StageReplay {
    k: usize,
    stage: StageNo,
    in_stage: HashSet<PlayerId>,
    group_of: HashMap<PlayerId, usize>,
    groups: Vec<Group>,
    bracket: Option<Bracket>,
}

/// A round's games sorted by where they count: a round for each group and, in a knockout,
/// the games with their match.
struct RoundGames {
    per_group: Vec<Round>,
    ko_games: Vec<(MatchId, MatchGame)>,
}

impl StageReplay {
    /// Replays round `r` of `rounds` into the groups' tables (and a knockout's bracket).
    fn round(&mut self, rounds: &[StageRound], r: usize) -> Result<(), EventFileError> {
        let round = &rounds[r];
        let at = at_round(self.k, r);
        let mut seen = HashSet::new();
        let mut sorted = self.sort_games(round, r, &at, &mut seen)?;
        self.sort_sitting_out(round, r, &at, &mut seen, &mut sorted.per_group)?;
        let per_group = &mut sorted.per_group;
        if let Some(b) = self.bracket.as_mut() {
            if r > 0 && !rounds[r - 1].is_complete() {
                return Err(fault(&at, StageFault::AfterIncompleteRound));
            }
            b.play_round(&sorted.ko_games).map_err(|(i, f)| {
                let place = if i < round.games.len() {
                    format!("{at}.games[{i}]")
                } else {
                    at.clone()
                };
                fault(place, StageFault::Bracket(f))
            })?;
            // The knockout's games also make a round of its one table, for standings.
            per_group[0].games = round.games.iter().map(|g| g.game).collect();
            per_group[0].absent = round.absent.clone();
        }
        for (g, grp) in self.groups.iter_mut().enumerate() {
            if r < grp.planned {
                let rd = std::mem::take(&mut per_group[g]);
                grp.table.add_round(rd).map_err(model(&at))?;
            }
        }
        Ok(())
    }

    /// The group of player `p` named at `at` in a round, refusing a player not in the
    /// stage or named twice in the round (`seen` holds those named so far).
    fn mention(
        &self,
        p: PlayerId,
        at: &str,
        seen: &mut HashSet<PlayerId>,
    ) -> Result<usize, EventFileError> {
        if !self.in_stage.contains(&p) {
            return Err(fault(
                at,
                StageFault::NotQualified {
                    player: p,
                    stage: self.stage,
                },
            ));
        }
        if !seen.insert(p) {
            return Err(err(
                at,
                FileFault::Tournament(TournamentError::TwiceInRound(p)),
            ));
        }
        Ok(self.group_of.get(&p).copied().unwrap_or(0))
    }

    /// Round `r`'s games sorted by group (in a knockout, by match), each checked: two
    /// different players of the stage, named once in the round, both in the game's group,
    /// a group that still plays in that round.
    fn sort_games(
        &self,
        round: &StageRound,
        r: usize,
        at: &str,
        seen: &mut HashSet<PlayerId>,
    ) -> Result<RoundGames, EventFileError> {
        let group_count = self.groups.len();
        let mut per_group: Vec<Round> = vec![Round::default(); group_count];
        let mut ko_games: Vec<(MatchId, MatchGame)> = Vec::new();
        for (i, sg) in round.games.iter().enumerate() {
            let g_at = format!("{at}.games[{i}]");
            let g = sg.game;
            if g.white == g.black {
                return Err(err(
                    g_at,
                    FileFault::Tournament(TournamentError::SamePlayer(g.white)),
                ));
            }
            let gw = self.mention(g.white, &g_at, seen)?;
            let gb = self.mention(g.black, &g_at, seen)?;
            if self.bracket.is_some() {
                let id = sg.series.ok_or_else(|| fault(&g_at, StageFault::NoMatch))?;
                ko_games.push((
                    id,
                    MatchGame {
                        white: g.white,
                        black: g.black,
                        result: g.result,
                    },
                ));
                continue;
            }
            let named = named_group(sg.group, group_count, &g_at)?;
            for (p, pg) in [(g.white, gw), (g.black, gb)] {
                if pg != named {
                    return Err(fault(
                        &g_at,
                        StageFault::NotInGroup {
                            player: p,
                            group: GroupId::from_index(named),
                        },
                    ));
                }
            }
            if r >= self.groups[named].planned {
                return Err(fault(
                    &g_at,
                    StageFault::GroupSatOut {
                        group: GroupId::from_index(named),
                        round: r + 1,
                    },
                ));
            }
            per_group[named].games.push(g);
        }
        Ok(RoundGames {
            per_group,
            ko_games,
        })
    }

    /// Round `r`'s byes and absent players into their groups' rounds (in a knockout they
    /// are only checked), refusing a player not in the stage, named twice in the round, or
    /// whose group no longer plays.
    fn sort_sitting_out(
        &self,
        round: &StageRound,
        r: usize,
        at: &str,
        seen: &mut HashSet<PlayerId>,
        per_group: &mut [Round],
    ) -> Result<(), EventFileError> {
        for (list, what) in [(&round.byes, "byes"), (&round.absent, "absent")] {
            for (i, &p) in list.iter().enumerate() {
                let p_at = format!("{at}.{what}[{i}]");
                let g = self.mention(p, &p_at, seen)?;
                if self.bracket.is_some() {
                    continue;
                }
                if r >= self.groups[g].planned {
                    return Err(fault(
                        &p_at,
                        StageFault::GroupSatOut {
                            group: GroupId::from_index(g),
                            round: r + 1,
                        },
                    ));
                }
                if what == "byes" {
                    per_group[g].byes.push(p);
                } else {
                    per_group[g].absent.push(p);
                }
            }
        }
        Ok(())
    }
}

/// The group (by index) a game at `at` names in a stage of `group_count` groups, refusing
/// a game that names none when there are several, or a group that does not exist.
fn named_group(
    group: Option<GroupId>,
    group_count: usize,
    at: &str,
) -> Result<usize, EventFileError> {
    match (group, group_count > 1) {
        (None, true) => Err(fault(at, StageFault::NoGroup)),
        (None, false) => Ok(0),
        (Some(gid), _) => {
            if gid.index() >= group_count {
                return Err(fault(
                    format!("{at}.group"),
                    StageFault::NoSuchGroup(gid.to_string()),
                ));
            }
            Ok(gid.index())
        }
    }
}

/// A stage's playoff games by the group of their players (with where each is in the
/// stage's playoffs), refusing a game whose players are not both of one group of the
/// stage, or that names another group.
fn playoffs_by_group(
    k: usize,
    reached: &Reached,
    playoffs: &[PlayoffGame],
) -> Result<Vec<Vec<(usize, PlayedOff)>>, EventFileError> {
    let stage = reached.stage;
    // Each playoff game belongs to its players' group.
    let mut games: Vec<Vec<(usize, PlayedOff)>> = vec![Vec::new(); reached.groups.len()];
    for (i, g) in playoffs.iter().enumerate() {
        let at = format!("stages[{k}].playoffs[{i}]");
        let mut gs = Vec::new();
        for p in [g.white, g.black] {
            let Some(x) = reached
                .groups
                .iter()
                .position(|grp| grp.members.contains(&p))
            else {
                return Err(fault(at, StageFault::NotQualified { player: p, stage }));
            };
            gs.push(x);
        }
        if g.white == g.black {
            return Err(err(
                at,
                FileFault::Tournament(TournamentError::SamePlayer(g.white)),
            ));
        }
        if gs[0] != gs[1] {
            return Err(fault(at, StageFault::GroupsDiffer(g.white, g.black)));
        }
        if let Some(named) = g.group
            && named.index() != gs[0]
        {
            let player = g.white;
            return Err(fault(
                at,
                StageFault::NotInGroup {
                    player,
                    group: named,
                },
            ));
        }
        games[gs[0]].push((
            i,
            PlayedOff {
                white: g.white,
                black: g.black,
                result: g.result,
            },
        ));
    }
    Ok(games)
}

/// Orders players by place (from 0), then score, then the tie-breaks in order (higher
/// first), then group letter: the seed order of qualifiers, and the order of the players
/// of one place who did not qualify.
pub(crate) fn sort_by_place(q: &mut [(usize, &StandingRow, GroupId)]) {
    q.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(b.1.score.cmp(&a.1.score))
            .then_with(|| {
                let ta: &[Ratio] = &a.1.tiebreaks;
                let tb: &[Ratio] = &b.1.tiebreaks;
                tb.cmp(ta)
            })
            .then(a.2.cmp(&b.2))
    });
}
