//! An event's settings decided: its system, rounds, points, tie-breaks and game rules, and
//! its stages. A stage is fixed once a round of it is paired.

use super::change::{Changes, Edit};
use super::model::Event;
use super::record::{Format, TournamentSetup};
use super::refusal::{BadTimer, Refusal};
use super::words::{setup_changes, stage_line};
use crate::rules::clock::NS_PER_S;
use crate::stages::{EventSettings, StageSpec};
use crate::tournament::{PointsScale, StageNo, TieBreak, Tournament};

impl TournamentSetup {
    /// The setup with its name trimmed, checked as the core model checks settings, with the
    /// game rules' timers: a name, points in range, no tie-break twice, at least one round,
    /// timers above 0 in whole seconds.
    pub fn checked(&self) -> Result<TournamentSetup, Refusal> {
        let mut setup = self.clone();
        setup.name = setup.name.trim().to_string();
        if setup.name.is_empty() {
            return Err(Refusal::NoName);
        }
        setup.check()?;
        Ok(setup)
    }

    /// Checks the settings as the core model does, and the rule settings.
    pub fn check(&self) -> Result<(), Refusal> {
        Tournament::new(&self.name, self.settings()).map_err(Refusal::Settings)?;
        let r = &self.rules;
        let whole = |ns: i64| ns % NS_PER_S == 0;
        let checks = [
            (r.move_limit_ns > 0, BadTimer::MoveTime),
            (r.game_limit_ns > 0, BadTimer::GameTime),
            (r.oversteps_to_lose >= 1, BadTimer::LosingOverstep),
            (
                r.setup_limit_ns > 0 && whole(r.setup_limit_ns),
                BadTimer::SetupTime,
            ),
            (
                r.reading_limit_ns > 0 && whole(r.reading_limit_ns),
                BadTimer::ReadingTime,
            ),
            (r.grace_ns >= 0 && whole(r.grace_ns), BadTimer::Grace),
        ];
        for (ok, why) in checks {
            if !ok {
                return Err(Refusal::Timer(why));
            }
        }
        Ok(())
    }
}

/// Checks a stage list with the event's points, as the core does.
pub fn check_stages(points: PointsScale, stages: &[StageSpec]) -> Result<(), Refusal> {
    EventSettings {
        points,
        forbidden: Vec::new(),
        stages: stages.to_vec(),
    }
    .check()
    .map_err(Refusal::Stages)
}

impl Event {
    /// How many stages are fixed: a stage is once a round of it is paired (a draft
    /// included), and so is every stage before it.
    pub fn stages_fixed(&self) -> usize {
        self.rounds()
            .iter()
            .filter_map(|r| r.stage.index())
            .max()
            .map_or(0, |k| k + 1)
    }

    /// The number of rounds paired so far, drafts included.
    fn paired_rounds(&self) -> u32 {
        u32::try_from(self.rounds().len()).unwrap_or(u32::MAX)
    }

    /// Changes a tournament's settings. The system cannot change once a round is paired,
    /// nor the number of rounds fall below the rounds already paired. Changing points or
    /// tie-breaks after round 1 is allowed (the desk warns first); in an event of stages its
    /// stages keep the system, rounds and tie-breaks.
    pub(crate) fn update_setup(
        &self,
        setup: &TournamentSetup,
        reason: &str,
    ) -> Result<Changes, Refusal> {
        let mut setup = setup.checked()?;
        let old = self.setup();
        if self.in_stages() {
            setup.system = old.system;
            setup.rounds = old.rounds;
            setup.tiebreaks.clone_from(&old.tiebreaks);
        }
        let paired = self.paired_rounds();
        if paired > 0 && old.system != setup.system {
            return Err(Refusal::SystemFixed);
        }
        if let Some(n) = setup.rounds
            && n < paired
        {
            return Err(Refusal::TooFewRounds { paired, rounds: n });
        }
        let mut changes = Changes::default();
        let words = setup_changes(old, &setup);
        if words.is_empty() {
            return Ok(changes);
        }
        changes.edit(Edit::SetSetup(setup));
        changes.audit(
            "tournament settings changed",
            reason.trim(),
            words.join("; "),
        );
        Ok(changes)
    }

    /// Sets an event's stages: `Some` makes it an event of stages (or changes its stages),
    /// `None` a tournament of one system again. Only the stages after the last one paired
    /// can change, be added or removed, and a tournament with a round paired cannot change
    /// between one system and stages.
    pub(crate) fn set_stages(
        &self,
        stages: Option<&[StageSpec]>,
        reason: &str,
    ) -> Result<Changes, Refusal> {
        let old = self.stage_specs();
        let fixed = self.stages_fixed();
        let mut changes = Changes::default();
        match (old, stages) {
            (None, None) => return Ok(changes),
            (None, Some(_)) | (Some(_), None) if !self.rounds().is_empty() => {
                return Err(Refusal::FormatFixed);
            }
            _ => {}
        }
        let Some(new) = stages else {
            changes.edit(Edit::SetStages(None));
            changes.edit(Edit::SetSetup(TournamentSetup {
                system: crate::tournament::System::Swiss,
                rounds: Some(5),
                tiebreaks: TieBreak::default_order(),
                ..self.setup().clone()
            }));
            changes.audit(
                "tournament settings changed",
                reason.trim(),
                "one system (a 5-round Swiss) instead of stages",
            );
            return Ok(changes);
        };
        check_stages(self.setup().points, new)?;
        let old = old.unwrap_or_default();
        for k in 0..fixed {
            if old.get(k) != new.get(k) {
                return Err(Refusal::StageFixed(StageNo::from_index(k)));
            }
        }
        if old == new {
            return Ok(changes);
        }
        if matches!(self.record.format, Format::OneSystem) {
            changes.edit(Edit::SetSetup(self.setup().for_stages()));
        }
        changes.edit(Edit::SetStages(Some(new.to_vec())));
        let lines: Vec<String> = new.iter().map(stage_line).collect();
        changes.audit(
            "tournament settings changed",
            reason.trim(),
            format!("stages: {}", lines.join(" -> ")),
        );
        Ok(changes)
    }
}
