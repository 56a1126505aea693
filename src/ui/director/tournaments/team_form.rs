//! A new team event as the Tournaments page creates it (spec/teams.md): one of the three
//! shapes the core presets ([`TeamShape`]: team Swiss, team round robin, the Generals
//! League's board groups and final), its boards per team and, for a Swiss, its rounds. Each
//! field says what is wrong beside it as typed; the event is the core's preset. The same
//! form corrects an event's settings before its first round.

use super::{count_error, field_error};
use crate::ui::common::labelled_text;
use egui::{RichText, Ui};
use ggdesk_core::teams::{TeamEvent, TeamShape, TeamSystem};
use ggdesk_core::tournament::PointsScale;

/// The most boards a team fields at the desk (a match's boards are tables side by side).
pub const MAX_BOARDS: usize = 12;

/// The team event's form, as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct TeamForm {
    pub shape: TeamShape,
    pub boards: String,
    pub rounds: String,
}

impl Default for TeamForm {
    fn default() -> Self {
        TeamForm {
            shape: TeamShape::Swiss,
            boards: "3".into(),
            rounds: "5".into(),
        }
    }
}

impl TeamForm {
    /// The form filled with a team event's shape, boards and rounds (a shape the desk's
    /// presets do not make shows as a team Swiss; a Swiss's rounds, else the default).
    pub fn of(e: &TeamEvent) -> TeamForm {
        let rounds = e
            .stages
            .iter()
            .find(|s| s.system == TeamSystem::Swiss)
            .and_then(|s| s.round_count);
        TeamForm {
            shape: e.shape().unwrap_or(TeamShape::Swiss),
            boards: e.settings.boards.to_string(),
            rounds: rounds.map_or_else(|| TeamForm::default().rounds, |n| n.to_string()),
        }
    }

    /// What is wrong with the boards as typed.
    pub fn boards_error(&self) -> Option<String> {
        match self.boards.trim().parse::<usize>() {
            Ok(b) if (1..=MAX_BOARDS).contains(&b) => None,
            Ok(_) => Some(format!("From 1 to {MAX_BOARDS} boards")),
            Err(_) => Some(count_error(&self.boards).unwrap_or_else(|| "Not a number".into())),
        }
    }

    /// What is wrong with the rounds as typed (a Swiss only).
    pub fn rounds_error(&self) -> Option<String> {
        if self.shape != TeamShape::Swiss {
            return None;
        }
        match self.rounds.trim().parse::<u32>() {
            Ok(0) => Some("A Swiss needs at least one round".into()),
            Ok(_) => None,
            Err(_) => Some(
                count_error(&self.rounds)
                    .unwrap_or_else(|| "A Swiss needs a number of rounds".into()),
            ),
        }
    }

    /// The event the form describes, or the first field in error in a sentence.
    pub fn event(&self, name: &str, points: PointsScale) -> Result<TeamEvent, String> {
        if let Some(e) = self.boards_error() {
            return Err(format!("Boards per team: {e}"));
        }
        if let Some(e) = self.rounds_error() {
            return Err(format!("Rounds: {e}"));
        }
        let boards = self.boards.trim().parse::<usize>().unwrap_or(1);
        let rounds = self.rounds.trim().parse::<u32>().unwrap_or(1);
        Ok(TeamEvent::preset(self.shape, name, points, boards, rounds))
    }

    pub fn ui(&mut self, ui: &mut Ui) {
        ui.label(RichText::new("Team event").strong());
        ui.horizontal_wrapped(|ui| {
            ui.label("Shape:");
            for shape in TeamShape::ALL {
                ui.radio_value(&mut self.shape, shape, shape.words());
            }
        });
        ui.label(
            RichText::new(match self.shape {
                TeamShape::Swiss => {
                    "Team matches board against board, paired by Swiss on match points."
                }
                TeamShape::RoundRobin => "Team matches, every team against every other once.",
                TeamShape::GeneralsLeague => {
                    "A round robin per board among the teams' players of that board, team \
                     points the sum; the two best teams meet in a final where every player \
                     meets every opposing player."
                }
            })
            .weak(),
        );
        ui.horizontal(|ui| {
            labelled_text(ui, "Boards per team:", &mut self.boards, 40.0);
            field_error(ui, self.boards_error());
        });
        if self.shape == TeamShape::Swiss {
            ui.horizontal(|ui| {
                labelled_text(ui, "Rounds:", &mut self.rounds, 40.0);
                field_error(ui, self.rounds_error());
            });
        }
    }
}
