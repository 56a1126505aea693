//! Tournaments (F2): the list of events, a new one or the chosen one's settings (one
//! system with its rounds and tie-break order as a reorderable list, or an event in stages
//! edited stage by stage from a preset or by hand; points; the GGF rule settings with their
//! defaults), forbidden pairs, and tournament files in and out.

mod stage_form;
mod team_form;

pub use stage_form::{PRESETS, StageFault, StageField, StageForm};
pub use team_form::TeamForm;

use super::{Watch, display_name, file_stem, hint, next_step, write_export};
use crate::store::TournamentId;
use crate::store::TournamentSummary;
use crate::ui::PageCtx;
use crate::ui::common::{self, Confirm, LoadErrors, Reasoned, labelled_text, poll_confirm};
use crate::ui::files::{self, FilePicker, poll_picker};
use egui::{RichText, Ui};
use ggdesk_core::event::{Registration, TournamentSetup};
use ggdesk_core::export::print::{Details, tiebreak_title};
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::stages::StageSpec;
use ggdesk_core::teams::{Primary, TeamEvent, TeamSystem};
use ggdesk_core::tournament::{PlayerId, PointsScale, Score, System, TieBreak};

const NS: i64 = 1_000_000_000;

/// The width of a tie-break's name in the order list.
const TIEBREAK_NAME_WIDTH: f32 = 250.0;

/// The settings form, as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupForm {
    /// `None`: a new tournament.
    pub editing: Option<TournamentId>,
    pub name: String,
    pub system: System,
    pub rounds: String,
    pub points: [String; 7],
    pub tiebreaks: Vec<TieBreak>,
    pub move_s: String,
    pub oversteps: String,
    pub game_min: String,
    pub thirty: String,
    pub perpetual_short: String,
    pub perpetual_long: String,
    pub respect: String,
    pub setup_min: String,
    pub reading_min: String,
    pub grace_min: String,
    /// Played in stages (else in one system).
    pub staged: bool,
    /// The stages, as typed (while `staged`).
    pub stages: Vec<StageForm>,
    /// How many stages, from the first, have a round paired: they are fixed.
    pub fixed: usize,
    /// A new team event, as typed (else an event of players).
    pub team: Option<TeamForm>,
}

fn minutes(ns: i64) -> String {
    let secs = ns / NS;
    if secs % 60 == 0 {
        (secs / 60).to_string()
    } else {
        format!("{}", secs as f64 / 60.0)
    }
}

impl SetupForm {
    pub fn of(editing: Option<TournamentId>, s: &TournamentSetup) -> SetupForm {
        let mut points: [String; 7] = Default::default();
        for (i, key) in PointsScale::KEYS.iter().enumerate() {
            points[i] = s.points.get(key).unwrap_or_default().to_string();
        }
        let mut form = SetupForm {
            editing,
            name: s.name.clone(),
            system: s.system,
            rounds: s.rounds.map(|n| n.to_string()).unwrap_or_default(),
            points,
            tiebreaks: s.tiebreaks.clone(),
            move_s: String::new(),
            oversteps: String::new(),
            game_min: String::new(),
            thirty: String::new(),
            perpetual_short: String::new(),
            perpetual_long: String::new(),
            respect: String::new(),
            setup_min: String::new(),
            reading_min: String::new(),
            grace_min: String::new(),
            staged: false,
            stages: Vec::new(),
            fixed: 0,
            team: None,
        };
        form.set_rules(&s.rules);
        form
    }

    /// The points as typed, the default for any not a number of points (each has its error
    /// beside it).
    pub fn points(&self) -> PointsScale {
        let mut points = PointsScale::default();
        for (i, key) in PointsScale::KEYS.iter().enumerate() {
            let text = self.points[i].trim();
            if points_error(text).is_none() {
                let halves = text.parse::<f64>().unwrap_or_default() * 2.0;
                points.set(key, Score::from_halves(halves as i64));
            }
        }
        points
    }

    /// The stages the form describes (`None`: one system), or the first fault in a
    /// sentence naming its stage ("Stage 2, seeding: …"). Each fault is shown beside its
    /// field.
    pub fn stage_specs(&self) -> Result<Option<Vec<StageSpec>>, String> {
        if !self.staged {
            return Ok(None);
        }
        stage_form::check(&self.stages, self.points())
            .map(Some)
            .map_err(|faults| {
                faults.first().map_or_else(String::new, |f| match f.stage {
                    Some(i) => format!("Stage {}: {}", i + 1, lower_first(&f.text)),
                    None => f.text.clone(),
                })
            })
    }

    fn set_rules(&mut self, r: &RuleSettings) {
        self.move_s = (r.move_limit_ns / NS).to_string();
        self.oversteps = r.oversteps_to_lose.to_string();
        self.game_min = minutes(r.game_limit_ns);
        self.thirty = r.thirty_moves.to_string();
        self.perpetual_short = r.perpetual_short.to_string();
        self.perpetual_long = r.perpetual_long.to_string();
        self.respect = r.respect_min_moves.to_string();
        self.setup_min = minutes(r.setup_limit_ns);
        self.reading_min = minutes(r.reading_limit_ns);
        self.grace_min = minutes(r.grace_ns);
    }

    /// The setup the form describes, or what is wrong with it: the first field in error,
    /// in a sentence ("Move time: not a whole number (\"2m\")"). Each field's own error is
    /// shown beside it ([`count_error`], [`minutes_error`], [`points_error`]).
    pub fn setup(&self) -> Result<TournamentSetup, String> {
        let count = |what: &str, text: &str| -> Result<u32, String> {
            match count_error(text) {
                Some(e) => Err(format!("{what}: {}", lower_first(&e))),
                None => Ok(text.trim().parse::<u32>().unwrap_or_default()),
            }
        };
        let secs_of_minutes = |what: &str, text: &str| -> Result<i64, String> {
            match minutes_error(text) {
                Some(e) => Err(format!("{what}: {}", lower_first(&e))),
                None => Ok((text.trim().parse::<f64>().unwrap_or_default() * 60.0) as i64 * NS),
            }
        };
        if let Some(e) = self.rounds_error().filter(|_| !self.staged) {
            return Err(format!("Rounds: {}", lower_first(&e)));
        }
        let rounds = match self.rounds.trim() {
            _ if self.staged => None,
            "" => None,
            r => Some(count("Rounds", r)?),
        };
        let mut points = PointsScale::default();
        for (i, key) in PointsScale::KEYS.iter().enumerate() {
            let text = self.points[i].trim();
            if let Some(e) = points_error(text) {
                return Err(format!(
                    "Points for {}: {}",
                    key.replace('_', " "),
                    lower_first(&e)
                ));
            }
            let halves = text.parse::<f64>().unwrap_or_default() * 2.0;
            points.set(key, Score::from_halves(halves as i64));
        }
        let rules = RuleSettings {
            move_limit_ns: i64::from(count("Move time", &self.move_s)?) * NS,
            oversteps_to_lose: count("Overstep that loses", &self.oversteps)?,
            game_limit_ns: secs_of_minutes("Game time", &self.game_min)?,
            thirty_moves: count("Thirty-move rule", &self.thirty)?,
            perpetual_short: count("Short perpetual", &self.perpetual_short)?,
            perpetual_long: count("Long perpetual", &self.perpetual_long)?,
            respect_min_moves: count("Moves before a draw for respect", &self.respect)?,
            setup_limit_ns: secs_of_minutes("Setup time", &self.setup_min)?,
            reading_limit_ns: secs_of_minutes("Reading time", &self.reading_min)?,
            grace_ns: secs_of_minutes("Grace period", &self.grace_min)?,
        };
        // An event in stages: its stages hold the system, rounds and tie-breaks.
        Ok(TournamentSetup {
            name: self.name.clone(),
            system: if self.staged {
                System::RoundRobin
            } else {
                self.system
            },
            rounds,
            points,
            tiebreaks: if self.staged {
                Vec::new()
            } else {
                self.tiebreaks.clone()
            },
            rules,
        })
    }

    /// What is wrong with the number of rounds as typed: a Swiss needs one; a round robin
    /// takes one full cycle when it is empty.
    pub fn rounds_error(&self) -> Option<String> {
        match self.rounds.trim() {
            "" if self.system == System::RoundRobin => None,
            "" => Some("A Swiss needs a number of rounds".into()),
            r => count_error(r),
        }
    }
}

/// What is wrong with a count as typed (a whole number from 0), in a sentence.
pub fn count_error(text: &str) -> Option<String> {
    let t = text.trim();
    if t.is_empty() {
        return Some("Type a whole number".into());
    }
    t.parse::<u32>()
        .err()
        .map(|_| format!("Not a whole number ({t:?})"))
}

/// What is wrong with a number of minutes as typed (whole seconds, from 0).
pub fn minutes_error(text: &str) -> Option<String> {
    let t = text.trim();
    if t.is_empty() {
        return Some("Type a number of minutes".into());
    }
    let Ok(m) = t.parse::<f64>() else {
        return Some(format!("Not a number of minutes ({t:?})"));
    };
    let s = m * 60.0;
    if !(0.0..=1e7).contains(&s) || s.fract() != 0.0 {
        return Some(format!("Not a whole number of seconds ({t} minutes)"));
    }
    None
}

/// What is wrong with points as typed (a multiple of 0.5 from 0).
pub fn points_error(text: &str) -> Option<String> {
    let t = text.trim();
    let Ok(v) = t.parse::<f64>() else {
        return Some(if t.is_empty() {
            "Type a number of points".into()
        } else {
            format!("Not a number ({t:?})")
        });
    };
    let halves = v * 2.0;
    if halves.fract() != 0.0 || !(0.0..=2e6).contains(&halves) {
        return Some(format!("Not a multiple of 0.5 from 0 ({t})"));
    }
    None
}

/// A sentence's words after a colon: "Not a whole number" → "not a whole number".
fn lower_first(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The width kept beside a field for its error, so that the fields beside it do not move
/// when one appears.
const FIELD_ERROR_WIDTH: f32 = 170.0;

/// A field's error beside it, in red (or the same space left empty); a long one ends with
/// an ellipsis, in full on hover.
fn field_error(ui: &mut Ui, error: Option<String>) {
    ui.allocate_ui_with_layout(
        egui::vec2(FIELD_ERROR_WIDTH, 18.0),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_min_width(FIELD_ERROR_WIDTH);
            if let Some(e) = error {
                common::cut_label(ui, RichText::new(e).color(common::RED));
            }
        },
    );
}

impl Default for SetupForm {
    fn default() -> Self {
        SetupForm::of(None, &TournamentSetup::default())
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Cmd {
    Select(TournamentId),
    New,
    /// Save the settings and the stages (`None`: one system); after round 1, a change of
    /// points or tie-breaks needs a reason.
    Save(Box<TournamentSetup>, Option<Vec<StageSpec>>, String),
    SaveDetails(TournamentId, Details),
    Forbid(PlayerId, PlayerId),
    Allow(PlayerId, PlayerId),
    Import(std::path::PathBuf),
    Export(TournamentId),
    /// Create a team event from the core's preset, with its games' rules.
    CreateTeams(Box<TeamEvent>, RuleSettings),
    /// Open the team event's settings in the creation's form, filled with them.
    EditTeamSettings(TournamentId),
    /// Save a team event's settings (before its first round): the preset the form makes
    /// and its games' rules.
    SaveTeamSettings(TournamentId, Box<TeamEvent>, RuleSettings),
    /// Close the team event's settings form unsaved.
    CancelTeamSettings,
    /// The tie-breaks back to the default order (asked first).
    DefaultTiebreaks,
}

impl Reasoned for Cmd {
    fn with_reason(self, reason: String) -> Self {
        match self {
            Cmd::Save(setup, stages, _) => Cmd::Save(setup, stages, reason),
            other => other,
        }
    }
}

/// The Tournaments page's own state.
#[derive(Default)]
pub struct TournamentsPage {
    list: Vec<TournamentSummary>,
    players: Vec<Registration>,
    forbidden: Vec<(PlayerId, PlayerId)>,
    watch: Watch,
    pub form: SetupForm,
    /// The settings as saved, to tell what changed.
    saved: Option<TournamentSetup>,
    /// The stages as saved (`None`: one system).
    saved_stages: Option<Vec<StageSpec>>,
    loaded_for: Option<TournamentId>,
    pair_a: Option<PlayerId>,
    pair_b: Option<PlayerId>,
    /// The tournament's details for the printouts, as typed.
    pub details: Details,
    picker: Option<FilePicker>,
    /// An import waiting one frame so that the busy notice is drawn first.
    busy: Option<Cmd>,
    confirm: Option<Confirm<Cmd>>,
    queued: Vec<Cmd>,
    load: LoadErrors,
    /// The chosen tournament when it is a team event (shown here; its settings edited in
    /// the creation's form until round 1 is paired).
    team_event: Option<TeamEvent>,
    /// Whether a round of the team event is paired (a draft too): its settings are fixed.
    team_paired: bool,
}

impl TournamentsPage {
    /// Reads the page when the database changed, the connection came back or the
    /// tournament changed (the watch's key holds it), not at every frame: a failed read
    /// keeps its banner until one of those.
    fn reload(&mut self, cx: &mut PageCtx<'_>) {
        if !self.watch.stale(cx, *cx.tournament) {
            return;
        }
        let mut load = LoadErrors::default();
        // A team event keeps its settings beside an event's: shown from its own rows.
        self.team_event = match *cx.tournament {
            Some(t) => load.check("the settings", cx.store.team_event(t)).flatten(),
            None => None,
        };
        self.team_paired = match (*cx.tournament, &self.team_event) {
            (Some(t), Some(_)) => load
                .check("the rounds", cx.store.team_rounds(t))
                .is_some_and(|r| !r.is_empty()),
            _ => false,
        };
        // A team event's settings form open for another tournament, or for one paired
        // since, closes.
        if self.form.team.is_some()
            && self.form.editing.is_some()
            && (self.form.editing != *cx.tournament || self.team_paired)
        {
            self.form = SetupForm::default();
        }
        // The chosen tournament's event, read once for the form and its registrations.
        let event = match *cx.tournament {
            Some(t) if self.team_event.is_none() && load.is_empty() => {
                load.check("the settings", cx.store.event(t))
            }
            _ => None,
        };
        if self.loaded_for != *cx.tournament {
            // The players picked for a forbidden pair are numbers of the last tournament.
            self.pair_a = None;
            self.pair_b = None;
            match *cx.tournament {
                Some(t) => {
                    let details = load.check("the details", cx.store.tournament_details(t));
                    // Loaded only once all are read: until then the banner stays (the form
                    // must never show, or save, the last tournament's settings under this
                    // one), and the next change or reconnection reads again.
                    if let (Some(event), Some(d)) = (&event, details) {
                        let s = event.setup().clone();
                        let stages = event.stage_specs().map(<[StageSpec]>::to_vec);
                        self.form = SetupForm::of(Some(t), &s);
                        if let Some(list) = &stages {
                            self.form.staged = true;
                            self.form.stages = list.iter().map(StageForm::of).collect();
                        }
                        self.saved_stages = stages;
                        self.saved = Some(s);
                        self.details = d;
                        self.loaded_for = Some(t);
                    }
                }
                None => {
                    self.form = SetupForm::default();
                    self.saved = None;
                    self.saved_stages = None;
                    self.details = Details::default();
                    self.loaded_for = None;
                }
            }
        }
        self.list = load
            .check("the tournaments", cx.store.tournaments())
            .unwrap_or_default();
        // The registrations of the tournament the form holds, once it is the one chosen.
        match self
            .form
            .editing
            .filter(|_| self.loaded_for == *cx.tournament)
        {
            Some(t) => {
                if let Some(event) = event.as_ref().filter(|e| e.id() == t) {
                    self.players = event.registrations();
                    self.forbidden = event.record().forbidden.clone();
                    // A stage is fixed once a round of it is paired (the event says which).
                    self.form.fixed = event.stages_fixed();
                }
            }
            None => {
                self.players.clear();
                self.forbidden.clear();
                self.form.fixed = 0;
            }
        }
        self.load = load;
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        if let Some(cmd) = self.busy.take() {
            self.apply(cmd, cx);
        }
        self.reload(cx);
        if let Some(cmd) = poll_confirm(&mut self.confirm, ui.ctx()) {
            self.queued.push(cmd);
        }
        if let Some(path) = poll_picker(&mut self.picker, ui.ctx(), cx.last_folder) {
            self.queued.push(Cmd::Import(path));
        }
        if self.load.banner(ui) {
            return;
        }
        egui::Panel::left("tournaments-list")
            .resizable(false)
            .exact_size(330.0)
            .show(ui, |ui| self.list_ui(ui, cx));
        egui::CentralPanel::default().show(ui, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| self.form_ui(ui, cx));
        });
        for cmd in std::mem::take(&mut self.queued) {
            if matches!(cmd, Cmd::Import(_)) {
                // Drawn once with the busy notice, applied on the next frame.
                self.busy = Some(cmd);
                ui.ctx().request_repaint();
            } else {
                self.apply(cmd, cx);
            }
        }
    }

    fn list_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        ui.horizontal(|ui| {
            ui.heading("Tournaments");
            if ui.button("New tournament").clicked() {
                self.queued.push(Cmd::New);
            }
        });
        hint(
            ui,
            "Click one to make it the tournament every page works on.",
        );
        egui::ScrollArea::vertical()
            .id_salt("tournament-list")
            .max_height(ui.available_height() - 150.0)
            .show(ui, |ui| {
                for t in &self.list {
                    let chosen = *cx.tournament == Some(t.id);
                    let planned = match (t.system, t.rounds) {
                        _ if t.team => "team event".to_string(),
                        _ if !t.stages.is_empty() => format!("in stages: {}", t.stages.join(" > ")),
                        (System::RoundRobin, None) => "round robin".to_string(),
                        (System::RoundRobin, Some(n)) => format!("round robin, {n} rounds"),
                        (System::Swiss, n) => format!("Swiss, {} rounds", n.unwrap_or(0)),
                    };
                    let plural = |n: u32| if n == 1 { "" } else { "s" };
                    let text = format!(
                        "{}\n{planned}; {} player{}; {} round{} started",
                        display_name(t.id, &t.name),
                        t.players,
                        plural(t.players),
                        t.rounds_started,
                        plural(t.rounds_started)
                    );
                    if ui.selectable_label(chosen, text).clicked() {
                        self.queued.push(Cmd::Select(t.id));
                    }
                }
                if self.list.is_empty() {
                    ui.label("No tournament yet: fill in the form and create one.");
                }
            });
        ui.separator();
        ui.label(RichText::new("Tournament file (ggdesk-tournament/1 or /2)").strong());
        ui.horizontal_wrapped(|ui| {
            if ui.button("Import tournament file…").clicked() {
                self.picker = Some(FilePicker::new(
                    "Import a tournament file",
                    cx.last_folder.as_deref(),
                    &["json"],
                ));
            }
            if let Some(t) = *cx.tournament
                && ui
                    .button("Export tournament file")
                    .on_hover_text("Written into the exports folder beside the database")
                    .clicked()
            {
                self.queued.push(Cmd::Export(t));
            }
        });
        if let Some(Cmd::Import(path)) = &self.busy {
            ui.label(
                RichText::new(format!("Importing {}...", path.display()))
                    .color(common::AMBER)
                    .strong(),
            );
        }
    }

    fn started(&self) -> u32 {
        self.form
            .editing
            .and_then(|id| self.list.iter().find(|t| t.id == id))
            .map_or(0, |t| t.rounds_started)
    }

    fn form_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        if let Some(e) = &self.team_event {
            if self.form.team.is_some() && self.form.editing.is_some() {
                let (name, preset) = (e.name.clone(), e.shape().is_some());
                self.team_settings_ui(ui, cx, &name, preset);
            } else {
                team_event_ui(ui, cx, e, self.team_paired, &mut self.queued);
            }
            return;
        }
        let started = self.started();
        self.form_heading(ui, started);
        ui.add_space(4.0);
        labelled_text(ui, "Tournament name:", &mut self.form.name, 320.0);
        ui.horizontal(|ui| {
            ui.label("Played:");
            // Between one system and stages only before any round is paired.
            ui.add_enabled_ui(started == 0 && self.form.fixed == 0, |ui| {
                let teams = self.form.team.is_some();
                if ui
                    .radio(!self.form.staged && !teams, "One system")
                    .clicked()
                {
                    self.form.staged = false;
                    self.form.team = None;
                }
                if ui.radio(self.form.staged && !teams, "In stages").clicked()
                    && (!self.form.staged || teams)
                {
                    self.form.team = None;
                    self.form.staged = true;
                    if self.form.stages.is_empty() {
                        self.form.stages =
                            (PRESETS[0].stages)().iter().map(StageForm::of).collect();
                    }
                }
                // A team event is created as one; an event of players stays one.
                if self.form.editing.is_none()
                    && ui
                        .radio(teams, "By teams")
                        .on_hover_text("Teams play matches on boards (the Teams page, F12)")
                        .clicked()
                    && !teams
                {
                    self.form.team = Some(TeamForm::default());
                }
            });
        });
        if self.form.team.is_some() {
            self.team_fields_ui(ui);
        } else if self.form.staged {
            ui.add_space(4.0);
            ui.label(RichText::new("Stages").strong());
            hint(
                ui,
                "Played in order: each stage's best players go on to the next. A stage is \
                 fixed once a round of it is paired; the stages after it stay editable.",
            );
            let points = self.form.points();
            let _ = stage_form::stages_ui(ui, &mut self.form.stages, self.form.fixed, points);
            ui.add_space(6.0);
            self.points_ui(ui);
        } else {
            self.one_system_ui(ui, started);
        }
        ui.add_space(6.0);
        self.rules_ui(ui);
        ui.add_space(8.0);
        self.save_button(ui, cx, started);
        if let Some(id) = self.form.editing {
            ui.add_space(10.0);
            ui.separator();
            self.details_ui(ui, id);
            ui.add_space(10.0);
            ui.separator();
            self.forbidden_ui(ui);
        }
    }

    /// A team event's shape, boards, rounds and points: the creation's fields, and those of
    /// its settings corrected before round 1.
    fn team_fields_ui(&mut self, ui: &mut Ui) {
        if let Some(team) = &mut self.form.team {
            ui.add_space(4.0);
            team.ui(ui);
            ui.add_space(6.0);
            self.points_ui(ui);
        }
    }

    /// The team event the form describes (the core's preset) and its games' rules, or the
    /// first field in error in a sentence.
    fn team_preset(&self) -> Option<Result<(TeamEvent, RuleSettings), String>> {
        let team = self.form.team.as_ref()?;
        // The points and the games' rules as any event's (a team event has no system or
        // rounds of its own: its stages hold them).
        let mut form = self.form.clone();
        form.staged = true;
        Some(
            form.setup()
                .and_then(|s| Ok((team.event(&s.name, s.points)?, s.rules))),
        )
    }

    /// A team event's settings in the creation's form, to correct before round 1.
    fn team_settings_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, name: &str, preset: bool) {
        let Some(tid) = self.form.editing else {
            return;
        };
        ui.heading(format!("Settings of {name} (team event)"));
        hint(
            ui,
            "Correct them before round 1 is paired: the teams and their rosters stay as they \
             are.",
        );
        if !preset {
            ui.label(
                RichText::new(
                    "Its stages are not one of the shapes below: saving puts the chosen \
                     shape's stages in their place.",
                )
                .color(common::AMBER),
            );
        }
        ui.add_space(4.0);
        labelled_text(ui, "Tournament name:", &mut self.form.name, 320.0);
        self.team_fields_ui(ui);
        ui.add_space(6.0);
        self.rules_ui(ui);
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui
                .button(RichText::new("Save the settings").strong())
                .clicked()
            {
                match self.team_preset() {
                    Some(Err(e)) => cx.notices.error(e),
                    Some(Ok((event, rules))) => {
                        self.queued
                            .push(Cmd::SaveTeamSettings(tid, Box::new(event), rules))
                    }
                    None => {}
                }
            }
            if ui.button("Cancel").clicked() {
                self.queued.push(Cmd::CancelTeamSettings);
            }
        });
    }

    /// A tournament of one system: its system, rounds and tie-break order.
    fn one_system_ui(&mut self, ui: &mut Ui, started: u32) {
        ui.horizontal(|ui| {
            ui.label("System:");
            ui.add_enabled_ui(started == 0, |ui| {
                ui.radio_value(&mut self.form.system, System::Swiss, "Swiss");
                if ui
                    .radio(self.form.system == System::RoundRobin, "Round robin")
                    .clicked()
                    && self.form.system != System::RoundRobin
                {
                    // A round robin plays one full cycle unless told otherwise: the rounds
                    // typed for a Swiss do not carry over.
                    self.form.system = System::RoundRobin;
                    self.form.rounds.clear();
                }
            });
        });
        let rounds_hint = if self.form.system == System::RoundRobin {
            "Rounds (empty: one full cycle):"
        } else {
            "Rounds:"
        };
        ui.horizontal(|ui| {
            labelled_text(ui, rounds_hint, &mut self.form.rounds, 60.0);
            field_error(ui, self.form.rounds_error());
        });
        ui.add_space(6.0);
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| self.points_ui(ui));
            ui.add_space(60.0);
            ui.vertical(|ui| self.tiebreaks_ui(ui));
        });
    }

    fn form_heading(&mut self, ui: &mut Ui, started: u32) {
        match self.form.editing {
            Some(id) => {
                ui.heading(format!(
                    "Settings of {}",
                    display_name(id, self.saved.as_ref().map_or("", |s| s.name.as_str()))
                ));
                if started > 0 {
                    let fixed = if self.form.staged {
                        "a stage with a round paired is fixed; changing points"
                    } else {
                        "the system is fixed; changing points or tie-breaks"
                    };
                    ui.label(
                        RichText::new(format!(
                            "{started} round{} started: {fixed} now changes the standings \
                             already published.",
                            if started == 1 { "" } else { "s" }
                        ))
                        .color(common::AMBER),
                    );
                } else if self.players.is_empty() {
                    next_step(ui, "register the players on the Registration page (F3)");
                }
            }
            None => {
                ui.heading("New tournament");
                hint(
                    ui,
                    "The defaults are the GGF's: change only what your event does differently.",
                );
            }
        }
    }

    fn points_ui(&mut self, ui: &mut Ui) {
        ui.label(RichText::new("Points").strong());
        egui::Grid::new("points-grid")
            .num_columns(3)
            .show(ui, |ui| {
                for (i, key) in PointsScale::KEYS.iter().enumerate() {
                    let l = ui.label(format!("Points for {}:", key.replace('_', " ")));
                    ui.add(
                        egui::TextEdit::singleline(&mut self.form.points[i]).desired_width(50.0),
                    )
                    .labelled_by(l.id);
                    field_error(ui, points_error(&self.form.points[i]));
                    ui.end_row();
                }
            });
    }

    /// The tie-break order as a list to reorder, with the ones left to add.
    fn tiebreaks_ui(&mut self, ui: &mut Ui) {
        ui.set_max_width(440.0);
        ui.label(RichText::new("Tie-break order").strong());
        let mut action: Option<(usize, i32)> = None;
        let n = self.form.tiebreaks.len();
        for (i, tb) in self.form.tiebreaks.iter().enumerate() {
            ui.horizontal(|ui| {
                // A fixed width for the name: the buttons stay where they are, whichever
                // tie-break a row holds.
                ui.allocate_ui_with_layout(
                    egui::vec2(TIEBREAK_NAME_WIDTH, 20.0),
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| {
                        ui.set_min_width(TIEBREAK_NAME_WIDTH);
                        let text = format!("{}. {}", i + 1, tiebreak_words(*tb));
                        ui.add(egui::Label::new(&text).truncate())
                            .on_hover_text(text);
                    },
                );
                if ui
                    .add_enabled(i > 0, egui::Button::new("Up").small())
                    .accessible_name(format!("Move {} up", tb.name()))
                    .on_hover_text(format!("Move {} up", tiebreak_words(*tb)))
                    .clicked()
                {
                    action = Some((i, -1));
                }
                if ui
                    .add_enabled(i + 1 < n, egui::Button::new("Down").small())
                    .accessible_name(format!("Move {} down", tb.name()))
                    .on_hover_text(format!("Move {} down", tiebreak_words(*tb)))
                    .clicked()
                {
                    action = Some((i, 1));
                }
                if ui
                    .small_button("Remove")
                    .accessible_name(format!("Remove {}", tb.name()))
                    .on_hover_text(format!("Remove {}", tiebreak_words(*tb)))
                    .clicked()
                {
                    action = Some((i, 0));
                }
            });
        }
        match action {
            Some((i, 0)) => {
                self.form.tiebreaks.remove(i);
            }
            Some((i, d)) => {
                let j = (i as i32 + d) as usize;
                self.form.tiebreaks.swap(i, j);
            }
            None => {}
        }
        let missing: Vec<TieBreak> = TieBreak::ALL
            .into_iter()
            .filter(|t| !self.form.tiebreaks.contains(t))
            .collect();
        if !missing.is_empty() {
            let l = ui.label("Add a tie-break:");
            let mut add: Option<TieBreak> = None;
            egui::ComboBox::from_id_salt("add-tiebreak")
                .selected_text("choose...")
                .width(200.0)
                .show_ui(ui, |ui| {
                    for t in &missing {
                        if ui.selectable_label(false, tiebreak_words(*t)).clicked() {
                            add = Some(*t);
                        }
                    }
                })
                .response
                .labelled_by(l.id);
            if let Some(t) = add {
                self.form.tiebreaks.push(t);
            }
        }
        if self.form.tiebreaks != TieBreak::default_order()
            && ui
                .add(egui::Button::new("Back to the default order…").small())
                .clicked()
        {
            let order: Vec<&str> = TieBreak::default_order()
                .into_iter()
                .map(tiebreak_words)
                .collect();
            self.confirm = Some(Confirm::new(
                "Back to the default tie-break order?",
                format!(
                    "The order above is replaced by: {}. Nothing is saved until you save the settings.",
                    order.join(", ")
                ),
                "Use the default order",
                Cmd::DefaultTiebreaks,
            ));
        }
    }

    fn rules_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.label(RichText::new("Game rules (GGF defaults)").strong());
            if ui
                .small_button("Reset the rules to the GGF defaults")
                .clicked()
            {
                self.form.set_rules(&RuleSettings::default());
            }
        });
        egui::Grid::new("rules-grid").num_columns(6).show(ui, |ui| {
            let f = &mut self.form;
            // Each field with its error beside it, as typed.
            let count = |ui: &mut Ui, label: &str, value: &mut String| {
                let l = ui.label(label);
                ui.add(egui::TextEdit::singleline(value).desired_width(50.0))
                    .labelled_by(l.id);
                field_error(ui, count_error(value));
            };
            let minutes = |ui: &mut Ui, label: &str, value: &mut String| {
                let l = ui.label(label);
                ui.add(egui::TextEdit::singleline(value).desired_width(50.0))
                    .labelled_by(l.id);
                field_error(ui, minutes_error(value));
            };
            count(ui, "Move time (seconds):", &mut f.move_s);
            count(ui, "Overstep that loses:", &mut f.oversteps);
            ui.end_row();
            minutes(ui, "Game time (minutes):", &mut f.game_min);
            count(ui, "Thirty-move rule (moves, 0 off):", &mut f.thirty);
            ui.end_row();
            count(ui, "Short perpetual (moves):", &mut f.perpetual_short);
            count(ui, "Long perpetual (moves):", &mut f.perpetual_long);
            ui.end_row();
            count(ui, "Moves before a draw for respect:", &mut f.respect);
            minutes(ui, "Setup time (minutes):", &mut f.setup_min);
            ui.end_row();
            minutes(ui, "Reading time (minutes):", &mut f.reading_min);
            minutes(ui, "Grace period (minutes):", &mut f.grace_min);
            ui.end_row();
        });
    }

    fn save_button(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, started: u32) {
        let label = if self.form.editing.is_some() {
            "Save settings"
        } else {
            "Create tournament"
        };
        if !ui.button(RichText::new(label).strong()).clicked() {
            return;
        }
        if let Some(checked) = self.team_preset() {
            match checked {
                Err(e) => cx.notices.error(e),
                Ok((event, rules)) => self.queued.push(Cmd::CreateTeams(Box::new(event), rules)),
            }
            return;
        }
        // Nothing is saved while a field or a stage is wrong (each says so beside it).
        let checked = self
            .form
            .setup()
            .and_then(|s| self.form.stage_specs().map(|stages| (s, stages)));
        match checked {
            Err(e) => cx.notices.error(e),
            Ok((setup, stages)) => {
                let scoring_changed = self.saved.as_ref().is_some_and(|old| {
                    old.points != setup.points || old.tiebreaks != setup.tiebreaks
                });
                let cmd = Cmd::Save(Box::new(setup), stages, String::new());
                if started > 0 && scoring_changed {
                    self.confirm = Some(
                        Confirm::new(
                            "Change the scoring of a tournament under way?",
                            format!(
                                "{started} round(s) have started. New points or tie-breaks change \
                                 every standings already shown or printed."
                            ),
                            "Change the scoring",
                            cmd,
                        )
                        .with_reason(),
                    );
                } else {
                    self.queued.push(cmd);
                }
            }
        }
    }

    /// The details every printout carries as its header.
    fn details_ui(&mut self, ui: &mut Ui, id: TournamentId) {
        ui.label(RichText::new("Details for the printouts").strong());
        hint(
            ui,
            "Printed at the head of every pairing list, slip, standings and cross-table.",
        );
        let d = &mut self.details;
        for pair in [
            [("Dates:", &mut d.dates), ("Venue:", &mut d.venue)],
            [
                ("Organiser:", &mut d.organiser),
                ("Chief arbiter:", &mut d.chief_arbiter),
            ],
        ] {
            ui.horizontal(|ui| {
                for (label, value) in pair {
                    let l = ui.add_sized([95.0, 20.0], egui::Label::new(label));
                    ui.add(egui::TextEdit::singleline(value).desired_width(260.0))
                        .labelled_by(l.id);
                }
            });
        }
        if ui.button("Save details").clicked() {
            self.queued.push(Cmd::SaveDetails(id, self.details.clone()));
        }
    }

    fn forbidden_ui(&mut self, ui: &mut Ui) {
        ui.label(RichText::new("Forbidden pairs").strong());
        hint(
            ui,
            "Players who must never be paired together (relatives, teammates).",
        );
        let name = |no: PlayerId| {
            self.players
                .iter()
                .find(|p| p.no == no)
                .map_or_else(|| no.to_string(), |p| format!("{} {}", p.no, p.name))
        };
        let mut remove = None;
        for &(a, b) in &self.forbidden {
            ui.horizontal(|ui| {
                ui.label(format!("{}  and  {}", name(a), name(b)));
                if ui
                    .small_button("Allow")
                    .on_hover_text(format!("Allow {a} and {b} to be paired"))
                    .clicked()
                {
                    remove = Some((a, b));
                }
            });
        }
        if let Some((a, b)) = remove {
            self.queued.push(Cmd::Allow(a, b));
        }
        if self.players.len() < 2 {
            ui.label("Register players first.");
            return;
        }
        ui.horizontal(|ui| {
            for (which, salt) in [(0, "forbid-a"), (1, "forbid-b")] {
                let l = ui.label(if which == 0 { "Player:" } else { "and:" });
                let slot = if which == 0 {
                    &mut self.pair_a
                } else {
                    &mut self.pair_b
                };
                let shown = slot.map_or_else(|| "choose...".to_string(), &name);
                egui::ComboBox::from_id_salt(salt)
                    .selected_text(shown)
                    .width(180.0)
                    .show_ui(ui, |ui| {
                        for p in &self.players {
                            ui.selectable_value(slot, Some(p.no), format!("{} {}", p.no, p.name));
                        }
                    })
                    .response
                    .labelled_by(l.id);
            }
            if ui.button("Forbid this pair").clicked()
                && let (Some(a), Some(b)) = (self.pair_a, self.pair_b)
            {
                self.queued.push(Cmd::Forbid(a, b));
            }
        });
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>) {
        let actor = cx.actor();
        match cmd {
            Cmd::Select(id) => {
                *cx.tournament = Some(id);
            }
            Cmd::New => {
                *cx.tournament = None;
                self.loaded_for = None;
                self.form = SetupForm::default();
                self.saved = None;
                self.details = Details::default();
            }
            Cmd::Save(setup, stages, reason) => self.save(*setup, stages, &reason, cx),
            Cmd::CreateTeams(event, rules) => {
                let r = cx.store.create_team_event(&event, &rules, &actor);
                if let Some(id) = cx.notices.report(r, "") {
                    cx.notices.info(format!(
                        "{} created: now build its teams on the Teams page (F12)",
                        event.name
                    ));
                    *cx.tournament = Some(id);
                    self.form.team = None;
                }
            }
            Cmd::EditTeamSettings(t) => {
                let rules = cx.store.team_event_rules(t);
                if let (Some(e), Some(rules)) =
                    (self.team_event.clone(), cx.notices.report(rules, ""))
                {
                    let setup = TournamentSetup {
                        name: e.name.clone(),
                        points: e.points,
                        rules,
                        ..TournamentSetup::default()
                    };
                    self.form = SetupForm::of(Some(t), &setup);
                    self.form.team = Some(TeamForm::of(&e));
                }
            }
            Cmd::SaveTeamSettings(t, event, rules) => {
                let r = cx.store.set_team_event_settings(t, &event, &rules, &actor);
                if cx.notices.report(r, "Settings saved").is_some() {
                    self.form = SetupForm::default();
                }
            }
            Cmd::CancelTeamSettings => self.form = SetupForm::default(),
            Cmd::DefaultTiebreaks => {
                self.form.tiebreaks = TieBreak::default_order();
                return;
            }
            Cmd::SaveDetails(id, details) => {
                let r = cx.store.set_tournament_details(id, &details, &actor);
                cx.notices
                    .report(r, "Details saved: every printout carries them");
            }
            Cmd::Forbid(a, b) => {
                if let Some(t) = self.form.editing {
                    let r = cx.store.forbid_pair(t, a, b, &actor);
                    cx.notices
                        .report(r, &format!("{a} and {b} will never be paired"));
                }
            }
            Cmd::Allow(a, b) => {
                if let Some(t) = self.form.editing {
                    let r = cx.store.allow_pair(t, a, b, &actor);
                    cx.notices
                        .report(r, &format!("{a} and {b} may be paired again"));
                }
            }
            Cmd::Import(path) => {
                let shown = path.display().to_string();
                let result = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {shown}: {e}"))
                    .and_then(|text| {
                        serde_json::from_str::<serde_json::Value>(&text)
                            .map_err(|e| format!("{shown}: not valid JSON: {e}"))
                    })
                    .and_then(|value| {
                        cx.store
                            .import_tournament(&value, &actor)
                            .map_err(|e| format!("{shown}: {e}"))
                    });
                if let Some(id) = cx.notices.report(result, "") {
                    cx.notices.info(format!("Tournament imported from {shown}"));
                    *cx.tournament = Some(id);
                }
            }
            Cmd::Export(id) => {
                let result = cx
                    .store
                    .export_tournament(id)
                    .map_err(|e| e.to_string())
                    .and_then(|v| {
                        let name = self.saved.as_ref().map_or("", |s| s.name.as_str());
                        let text =
                            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())? + "\n";
                        write_export(cx.store, &format!("{}-{id}.json", file_stem(name)), &text)
                    });
                if let Some(file) = cx.notices.report(result, "") {
                    files::written(cx.notices, "Tournament file", &file);
                }
            }
        }
        self.watch.force();
    }

    fn save(
        &mut self,
        setup: TournamentSetup,
        stages: Option<Vec<StageSpec>>,
        reason: &str,
        cx: &mut PageCtx<'_>,
    ) {
        let actor = cx.actor();
        match self.form.editing {
            Some(id) => {
                // The stages first: a tournament becoming one system again takes the
                // system typed, one becoming an event in stages keeps its stages' own.
                if (stages.is_some() || self.saved_stages.is_some()) && stages != self.saved_stages
                {
                    let r = cx.store.set_stages(id, stages.as_deref(), reason, &actor);
                    if cx.notices.report(r, "").is_none() {
                        return;
                    }
                    self.saved_stages = stages;
                }
                let r = cx.store.update_tournament(id, &setup, reason, &actor);
                if cx.notices.report(r, "Settings saved").is_some() {
                    self.saved = Some(setup);
                }
            }
            None => {
                let r = match &stages {
                    Some(list) => cx.store.create_staged_tournament(&setup, list, &actor),
                    None => cx.store.create_tournament(&setup, &actor),
                };
                if let Some(id) = cx.notices.report(r, "") {
                    cx.notices.info(format!(
                        "{} created: now register its players (F3)",
                        setup.name.trim()
                    ));
                    *cx.tournament = Some(id);
                }
            }
        }
    }
}

/// A tie-break in words.
pub fn tiebreak_words(t: TieBreak) -> &'static str {
    tiebreak_title(t)
}

/// A team event's settings, as the core holds them: boards, match points, the score that
/// orders the teams, the stages; whether they can still be corrected (until round 1 is
/// `paired`); and where its teams are built.
fn team_event_ui(
    ui: &mut Ui,
    cx: &mut PageCtx<'_>,
    e: &TeamEvent,
    paired: bool,
    queued: &mut Vec<Cmd>,
) {
    ui.heading(format!("{} (team event)", e.name));
    let s = &e.settings;
    // Board groups and the final play games, not matches: in an event of those only (the
    // Generals League) match points and a team's bye never count.
    let matches = (1..=e.stages.len()).any(|k| e.stage_plays_matches(k));
    if matches {
        ui.label(format!(
            "{} boards a team; a match won {}, drawn {}, lost {}; a bye {} match points and {} \
             game points; teams ordered by {}",
            s.boards,
            s.match_points.win,
            s.match_points.draw,
            s.match_points.loss,
            s.bye.match_points,
            s.bye.game_points,
            match s.primary {
                Primary::MatchPoints => "match points",
                Primary::GamePoints => "game points",
            }
        ));
    } else {
        ui.label(format!(
            "{} boards a team; no team matches: teams ordered by game points, the sum of their \
             players' points",
            s.boards
        ));
    }
    let stages: Vec<String> = e
        .stages
        .iter()
        .map(|st| {
            let system = match st.system {
                TeamSystem::Swiss => format!("team Swiss, {} rounds", st.round_count.unwrap_or(0)),
                TeamSystem::RoundRobin => "team round robin".to_string(),
                TeamSystem::BoardGroups => "board groups".to_string(),
                TeamSystem::Scheveningen => {
                    "final, every player against every opponent".to_string()
                }
            };
            let advance = st
                .advance
                .map_or_else(String::new, |n| format!(", {n} teams go on"));
            format!("{} ({system}{advance})", st.name)
        })
        .collect();
    ui.label(format!("Stages: {}", stages.join(" > ")));
    ui.label(format!(
        "{} teams, {} players",
        e.teams.len(),
        e.players.len()
    ));
    if paired {
        hint(
            ui,
            "The settings are fixed from round 1 on: its pairings depend on the shape, the \
             boards, the rounds and the points.",
        );
    } else {
        hint(
            ui,
            "Until round 1 is paired the settings can be corrected; the teams and their \
             rosters stay as they are.",
        );
    }
    ui.horizontal(|ui| {
        if !paired
            && let Some(t) = *cx.tournament
            && ui.button("Edit the settings").clicked()
        {
            queued.push(Cmd::EditTeamSettings(t));
        }
        if ui.button("Open the Teams page (F12)").clicked() {
            *cx.goto = Some(crate::ui::Page::Teams);
        }
    });
}
