//! The event: a record replayed into what has been played, always valid. A tournament of
//! one system is an event of one stage of one group; an event of stages replays its stages
//! (seeding, groups, cuts, playoffs, the bracket). Every question the desk, the prints and
//! the pages ask of an event is answered here or by the modules beside it.

use super::lifecycle::RoundState;
use super::record::{
    Absence, BoardRecord, DeskGame, DeskOutcome, Entrant, EventRecord, Format, RoundKind,
    RoundRecord, TournamentSetup,
};
use crate::pairing::Named;
use crate::stages::{
    self, EventFileError, EventParts, EventSettings, PlayoffGame, StageGame, StagePenalty,
    StagePlay, StageRound, StageSpec,
};
use crate::tournament::{
    Penalty, Player, PlayerId, Round, RoundNo, StageNo, TableNo, Tournament, TournamentError,
    TournamentId,
};
use std::collections::HashMap;
use std::fmt;

/// Where a round stands in its event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundPlace {
    /// Round `round` of stage `stage` (a tournament of one system: every round is stage 1's).
    Round { stage: StageNo, round: RoundNo },
    /// The `number`-th set of playoff games (from 1) at the cut of stage `stage`.
    Playoff { stage: StageNo, number: u32 },
}

impl RoundPlace {
    pub fn stage(self) -> StageNo {
        match self {
            RoundPlace::Round { stage, .. } | RoundPlace::Playoff { stage, .. } => stage,
        }
    }

    pub fn is_playoff(self) -> bool {
        matches!(self, RoundPlace::Playoff { .. })
    }
}

/// The places of rounds, from each round's stage and kind in number order.
pub fn places(rows: impl IntoIterator<Item = (StageNo, RoundKind)>) -> Vec<RoundPlace> {
    let mut rounds: HashMap<StageNo, u32> = HashMap::new();
    let mut playoffs: HashMap<StageNo, u32> = HashMap::new();
    rows.into_iter()
        .map(|(stage, kind)| {
            let counter = match kind {
                RoundKind::Playoff => &mut playoffs,
                RoundKind::Round => &mut rounds,
            };
            let n = counter.entry(stage).or_insert(0);
            *n += 1;
            match kind {
                RoundKind::Playoff => RoundPlace::Playoff { stage, number: *n },
                RoundKind::Round => RoundPlace::Round {
                    stage,
                    round: RoundNo(*n),
                },
            }
        })
        .collect()
}

/// Why a record is not an event: its rows contradict each other or the rules of its format
/// (a database another program wrote, or damaged; or a change that would break the event).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Damage {
    /// The rounds or stages are out of order.
    Rows(String),
    /// A round of one system breaks the tournament's rules.
    Tournament(TournamentError),
    /// The rounds do not fit the stages.
    Stages(EventFileError),
}

impl Damage {
    /// What is wrong, without saying where it was found.
    pub fn detail(&self) -> String {
        match self {
            Damage::Rows(s) => s.clone(),
            Damage::Tournament(e) => e.to_string(),
            Damage::Stages(e) => e.to_string(),
        }
    }
}

impl Damage {
    /// What is wrong in words for the desk: a fault of the stages without its place in
    /// the file's terms (`stages[0].playoffs[0]`), which means nothing at the desk.
    pub fn words(&self) -> String {
        match self {
            Damage::Stages(e) => e.fault.to_string(),
            other => other.detail(),
        }
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::Stages(e) => write!(f, "its rounds do not fit its stages: {e}"),
            other => f.write_str(&other.detail()),
        }
    }
}

/// What has been played, replayed by the rules of the event's format.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Played {
    /// One system: the tournament of its published and complete rounds.
    One(Tournament),
    /// Stages: the event of stages of its published and complete rounds.
    Stages(stages::Event),
}

/// An event as the desk runs it: its record and what has been played, replayed and
/// checked. Always valid: [`Event::new`] refuses a record that does not make one.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub(crate) id: TournamentId,
    pub(crate) record: EventRecord,
    pub(crate) played: Played,
    places: Vec<RoundPlace>,
}

impl Event {
    /// Replays a record: the rounds played (published or complete, never a draft) by the
    /// rules of its format.
    pub fn new(id: TournamentId, record: EventRecord) -> Result<Event, Damage> {
        for (k, r) in record.rounds.iter().enumerate() {
            if r.number != RoundNo::from_index(k) {
                return Err(Damage::Rows(format!(
                    "round {} follows round {k}",
                    r.number
                )));
            }
        }
        let played = match &record.format {
            Format::OneSystem => Played::One(one_system(&record)?),
            Format::Stages(stages) => {
                Played::Stages(stages::Event::new(parts(&record, stages)?).map_err(Damage::Stages)?)
            }
        };
        let places = places(record.rounds.iter().map(|r| (r.stage, r.kind)));
        Ok(Event {
            id,
            record,
            played,
            places,
        })
    }

    pub fn id(&self) -> TournamentId {
        self.id
    }

    pub fn record(&self) -> &EventRecord {
        &self.record
    }

    pub fn setup(&self) -> &TournamentSetup {
        &self.record.setup
    }

    pub fn name(&self) -> &str {
        &self.record.setup.name
    }

    /// The stages of an event of stages (`None`: one system over its rounds).
    pub fn stage_specs(&self) -> Option<&[StageSpec]> {
        match &self.record.format {
            Format::Stages(s) => Some(s),
            Format::OneSystem => None,
        }
    }

    /// Whether the event is played in stages (`ggdesk-tournament/2`).
    pub fn in_stages(&self) -> bool {
        matches!(self.record.format, Format::Stages(_))
    }

    /// The stages' replay of an event of stages.
    pub fn staged(&self) -> Option<&stages::Event> {
        match &self.played {
            Played::Stages(e) => Some(e),
            Played::One(_) => None,
        }
    }

    /// The tournament of an event of one system: its players, settings and rounds played.
    pub fn one_system(&self) -> Option<&Tournament> {
        match &self.played {
            Played::One(t) => Some(t),
            Played::Stages(_) => None,
        }
    }

    pub fn entrants(&self) -> &[Entrant] {
        &self.record.entrants
    }

    pub fn entrant(&self, id: PlayerId) -> Option<&Entrant> {
        self.record.entrants.iter().find(|e| e.player.id == id)
    }

    /// A player by number, with the name they have here (empty for an unknown number).
    pub fn named(&self, id: PlayerId) -> Named {
        Named {
            id,
            name: self
                .entrant(id)
                .map(|e| e.player.name.clone())
                .unwrap_or_default(),
        }
    }

    /// Every round, drafts included, in number order.
    pub fn rounds(&self) -> &[RoundRecord] {
        &self.record.rounds
    }

    pub fn round(&self, n: RoundNo) -> Option<&RoundRecord> {
        n.index().and_then(|i| self.record.rounds.get(i))
    }

    /// The last round, drafts included.
    pub fn last_round(&self) -> Option<&RoundRecord> {
        self.record.rounds.last()
    }

    /// The round the tables play: the last published or complete one.
    pub fn playing_round(&self) -> Option<&RoundRecord> {
        self.record
            .rounds
            .iter()
            .rev()
            .find(|r| r.state != RoundState::Draft)
    }

    /// Where round `n` stands in its event.
    pub fn place(&self, n: RoundNo) -> Option<RoundPlace> {
        n.index().and_then(|i| self.places.get(i)).copied()
    }

    /// The absences of round `n` (asked, a late entry's, or as a file listed them).
    pub fn absences(&self, n: RoundNo) -> impl Iterator<Item = &Absence> {
        self.record.absences.iter().filter(move |a| a.round == n)
    }

    /// The live game at the desk at a table of a round (the newest, if several).
    pub fn desk_game(&self, round: RoundNo, table: TableNo) -> Option<&DeskGame> {
        self.record
            .desk
            .iter()
            .rev()
            .find(|g| g.round == round && g.table == table)
    }

    /// The game at a table that has started and has no result yet.
    pub(crate) fn desk_game_in_progress(
        &self,
        round: RoundNo,
        table: TableNo,
    ) -> Option<&DeskGame> {
        self.record.desk.iter().rev().find(|g| {
            g.round == round && g.table == table && g.started && g.outcome == DeskOutcome::Undecided
        })
    }

    /// Whether a game at a table has started (then both players came).
    pub(crate) fn desk_game_started(&self, round: RoundNo, table: TableNo) -> bool {
        self.record
            .desk
            .iter()
            .any(|g| g.round == round && g.table == table && g.started)
    }

    /// The grace period's end of round `n` (Unix ms): its official start plus the
    /// tournament's grace period; `None` while it has no official start.
    pub fn grace_ends_at(&self, n: RoundNo) -> Option<i64> {
        let starts = self.round(n)?.starts_at?;
        Some(starts.saturating_add(self.record.setup.grace_ms()))
    }

    /// Every published or complete round as one tournament of the event's setup (an event
    /// of stages: its rounds one after the other, as the flat views of the public pages
    /// and the rating list show them); for an event of one system, what has been played.
    pub fn flat(&self) -> Result<Tournament, Damage> {
        match &self.played {
            Played::One(t) => Ok(t.clone()),
            Played::Stages(_) => one_system(&self.record),
        }
    }

    /// The stage a penalty given now counts in: the current stage (the last one seeded).
    pub fn current_stage(&self) -> StageNo {
        match &self.played {
            Played::Stages(e) => e.current().stage,
            Played::One(_) => StageNo(1),
        }
    }
}

/// The tournament of a record of one system: its players, settings, forbidden pairs, every
/// round that is published or complete, penalties.
fn one_system(record: &EventRecord) -> Result<Tournament, Damage> {
    let damage = Damage::Tournament;
    let mut t =
        Tournament::new(record.setup.name.clone(), record.setup.settings()).map_err(damage)?;
    for e in &record.entrants {
        t.add_player(e.player.clone()).map_err(damage)?;
    }
    for &(a, b) in &record.forbidden {
        t.add_forbidden_pair(a, b).map_err(damage)?;
    }
    for r in record
        .rounds
        .iter()
        .filter(|r| r.state != RoundState::Draft)
    {
        let round = Round {
            games: r.boards.iter().map(BoardRecord::game).collect(),
            byes: r.byes.iter().map(|b| b.player).collect(),
            absent: record.absent_in(r.number),
        };
        t.add_round(round).map_err(damage)?;
    }
    for p in &record.penalties {
        t.add_penalty(Penalty {
            player: p.player,
            points: p.points,
            reason: p.reason.clone(),
        })
        .map_err(damage)?;
    }
    Ok(t)
}

/// The parts of an event of stages: its players, settings, penalties with their stages,
/// and every published or complete round in its stage (a stage's playoff games, every set
/// of them, one list).
pub(crate) fn parts(record: &EventRecord, specs: &[StageSpec]) -> Result<EventParts, Damage> {
    let count = specs.len();
    if count == 0 {
        return Err(Damage::Rows("an event of stages without a stage".into()));
    }
    let mut plays: Vec<StagePlay> = vec![StagePlay::default(); count];
    let mut last_stage = 0;
    for r in record
        .rounds
        .iter()
        .filter(|r| r.state != RoundState::Draft)
    {
        let s = r.stage.index().unwrap_or(usize::MAX);
        if s >= count || s < last_stage {
            return Err(Damage::Rows(format!(
                "round {}: stage {} is not a stage of the event, or comes after stage {}",
                r.number,
                r.stage,
                last_stage + 1
            )));
        }
        last_stage = s;
        let play = &mut plays[s];
        match r.kind {
            RoundKind::Playoff => play.playoffs.extend(r.boards.iter().map(|b| PlayoffGame {
                group: b.group,
                white: b.white,
                black: b.black,
                result: b.result,
            })),
            RoundKind::Round => play.rounds.push(StageRound {
                games: r
                    .boards
                    .iter()
                    .map(|b| StageGame {
                        group: b.group,
                        series: b.series,
                        game: b.game(),
                    })
                    .collect(),
                byes: r.byes.iter().map(|b| b.player).collect(),
                absent: record.absent_in(r.number),
            }),
        }
    }
    Ok(EventParts {
        name: record.setup.name.clone(),
        settings: EventSettings {
            points: record.setup.points,
            forbidden: record.forbidden.clone(),
            stages: specs.to_vec(),
        },
        players: record
            .entrants
            .iter()
            .map(|e| e.player.clone())
            .collect::<Vec<Player>>(),
        penalties: record
            .penalties
            .iter()
            .map(|p| StagePenalty {
                stage: p.stage,
                penalty: Penalty {
                    player: p.player,
                    points: p.points,
                    reason: p.reason.clone(),
                },
            })
            .collect(),
        stages: plays,
    })
}
