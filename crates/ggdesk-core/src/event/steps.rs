//! The next step of an event of stages as a round: the next round of the current stage (of
//! the stage just seeded), or the next playoff games at its cut, each board with why it is
//! what it is; and the steps that leave nothing to decide, paired and published at once.

use super::change::{Changes, Edit};
use super::lifecycle::RoundState;
use super::model::{Event, Played};
use super::record::{BoardRecord, ByeRecord, RoundKind, RoundRecord};
use super::refusal::Refusal;
use super::words::{series_words, stage_words};
use crate::stages::{self, NextStep, StageBoard};
use crate::tournament::{BoardNo, GameResult, PlayerId, RoundNo, StageNo};

/// Whether a step leaves nothing to decide: a knockout round or playoff games (a Swiss or a
/// round robin round is proposed as a draft to look at).
pub(crate) fn forced(event: &stages::Event, step: &NextStep) -> bool {
    match step {
        NextStep::Playoff { .. } => true,
        NextStep::Round { stage, .. } => stage
            .index()
            .and_then(|k| event.settings().stages.get(k))
            .is_some_and(|s| s.format.is_knockout()),
    }
}

/// Why a board of a step is what it is.
fn board_reason(event: &stages::Event, step: &NextStep, b: &StageBoard) -> String {
    let name = |p: PlayerId| {
        event
            .player(p)
            .map_or_else(|| p.to_string(), |x| format!("{p} {}", x.name))
    };
    let cur = event.current();
    match (step, b.series, b.group) {
        (NextStep::Playoff { .. }, _, group) => {
            let at = group.map_or_else(|| "the cut".to_string(), |g| format!("group {g}'s cut"));
            format!(
                "Playoff at {at}: {} and {} are level on score and every tie-break across the cut; \
                 the playoff goes on until the cut is clear.",
                name(b.white),
                name(b.black)
            )
        }
        (_, Some(id), _) => {
            let played = cur
                .bracket
                .as_ref()
                .and_then(|br| br.current().into_iter().find(|m| m.id == id))
                .map_or(0, |m| m.games.len());
            let series = cur
                .bracket
                .as_ref()
                .map_or_else(String::new, |br| series_words(br.format));
            format!(
                "Match {id} ({series}), game {}: game 1 gives White to the higher seed, then colours \
                 alternate.",
                played + 1
            )
        }
        (_, None, Some(g)) => format!(
            "Group {g}: the round-robin (Berger) table of the group, players numbered by seed."
        ),
        _ => "Swiss pairing within the stage: points in this stage, seeds in place of ratings."
            .into(),
    }
}

/// What the round of a step says of itself.
fn round_text(what: &str, step: &NextStep, stage: StageNo, is_forced: bool) -> String {
    match step {
        NextStep::Round { round, .. } if round.0 == 1 && stage.0 > 1 => format!(
            "{what}: the first round of the stage, which seeds it from the qualifiers of the \
             stage before."
        ),
        NextStep::Round { .. } if is_forced => {
            format!("{what}: every open match plays its next game.")
        }
        NextStep::Round { .. } => format!("{what}."),
        NextStep::Playoff { .. } => {
            format!("{what}: players level on score and every tie-break across a cut play off.")
        }
    }
}

impl Event {
    /// The event of stages' next step drafted as a round numbered after the last one. A
    /// withdrawn or banned player's knockout or playoff game is drafted with the opponent's
    /// forfeit win already entered (nothing else can seat them).
    pub(crate) fn draft_step(&self, reason: &str) -> Result<Changes, Refusal> {
        let Played::Stages(event) = &self.played else {
            return Err(Refusal::NotStaged);
        };
        let step = event.next_step().map_err(Refusal::Step)?;
        let number = RoundNo::from_index(self.rounds().len());
        let stage = step.stage();
        let is_forced = forced(event, &step);
        let specs = &event.settings().stages;
        let out: Vec<PlayerId> = self
            .entrants()
            .iter()
            .filter(|e| e.player.withdrawn)
            .map(|e| e.player.id)
            .collect();
        let (what, kind) = match &step {
            NextStep::Round { round, .. } => (
                format!("{}, round {round}", stage_words(specs, stage)),
                RoundKind::Round,
            ),
            NextStep::Playoff { .. } => (
                format!("{}: playoff games at the cut", stage_words(specs, stage)),
                RoundKind::Playoff,
            ),
        };
        let mut text = round_text(&what, &step, stage, is_forced);
        let mut forfeits = Vec::new();
        let mut boards = Vec::new();
        for (i, b) in step.games().iter().enumerate() {
            let result = match (is_forced, out.contains(&b.white), out.contains(&b.black)) {
                (true, true, false) => GameResult::BlackWinsByForfeit,
                // Both gone: a knockout game cannot be a double forfeit; the higher seed
                // (White in game 1) goes through.
                (true, false, true) | (true, true, true) => GameResult::WhiteWinsByForfeit,
                _ => GameResult::Pending,
            };
            if result != GameResult::Pending {
                forfeits.push(format!("table {}: {}", b.table, result.name()));
            }
            boards.push(BoardRecord {
                board: BoardNo::from_index(i),
                table: b.table,
                table_given: true,
                white: b.white,
                black: b.black,
                result,
                explanation: board_reason(event, &step, b),
                group: b.group,
                series: b.series,
            });
        }
        let byes: Vec<ByeRecord> = match &step {
            NextStep::Round { byes, .. } => byes
                .iter()
                .map(|p| ByeRecord {
                    player: *p,
                    explanation: format!(
                        "Bye: {} {} (the pairing of the stage leaves them without an opponent).",
                        p,
                        event.player(*p).map_or("", |x| x.name.as_str())
                    ),
                })
                .collect(),
            NextStep::Playoff { .. } => Vec::new(),
        };
        if !forfeits.is_empty() {
            text.push_str(&format!(
                "\nWithdrawn players lose their games by forfeit: {}.",
                forfeits.join(", ")
            ));
        }
        let details = format!(
            "round {number} ({what}): {} board(s){}",
            boards.len(),
            if byes.is_empty() {
                String::new()
            } else {
                format!(", {} bye(s)", byes.len())
            }
        );
        let mut changes = Changes::default();
        changes.edit(Edit::AddRound(RoundRecord {
            number,
            stage,
            kind,
            state: RoundState::Draft,
            starts_at: None,
            published_at: None,
            explanation: text,
            boards,
            byes,
        }));
        changes.audit("round paired (draft)", reason, details);
        changes.paired = Some(number);
        Ok(changes)
    }

    /// Pairs and publishes, in one action, the next step of an event of stages when it
    /// leaves nothing to decide: the next games of the knockout (one for every open match)
    /// or the next playoff games at a cut. Refused for a Swiss or round-robin round (pair
    /// it as a draft, look at it, publish it) and for a tournament of one system.
    pub(crate) fn start_next_games(&self, now: i64) -> Result<Changes, Refusal> {
        if !self.in_stages() {
            return Err(Refusal::NotStaged);
        }
        let mut changes = Changes::default();
        self.last_round_done(now, &mut changes)?;
        let after = self.after(&changes).map_err(Refusal::Inconsistent)?;
        let Played::Stages(event) = &after.played else {
            return Err(Refusal::NotStaged);
        };
        let step = event.next_step().map_err(Refusal::Step)?;
        if !forced(event, &step) {
            return Err(Refusal::NotForced(stage_words(
                &event.settings().stages,
                step.stage(),
            )));
        }
        let drafted = after.draft_step("")?;
        let number = drafted.paired.ok_or(Refusal::NotStaged)?;
        let changes = changes.then(drafted);
        let after = self.after(&changes).map_err(Refusal::Inconsistent)?;
        Ok(changes.then(after.publish(number, now)?))
    }
}
