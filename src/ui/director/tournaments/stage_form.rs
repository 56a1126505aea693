//! The stages of an event as the Tournaments page edits them: one form per stage (its name;
//! its system with its rounds, or its groups, or a knockout's series, seeding and
//! third-place match; how many players go on; its tie-breaks), the presets of the common
//! shapes, each field's own error as typed, and the core's check of the whole list
//! ([`EventSettings::check`]) shown beside the field it is about.

use super::{count_error, points_error, tiebreak_words};
use crate::ui::common;
use egui::{RichText, Ui};
use ggdesk_core::event::words::stage_line;
use ggdesk_core::stages::{
    EventSettings, MatchFormat, Seeding, SettingsFault, StageFormat, StageSpec,
};
use ggdesk_core::tournament::{PointsScale, Score, TieBreak};

/// A stage's system as chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageKind {
    Swiss,
    RoundRobin,
    Knockout,
}

/// A knockout's series as chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeriesKind {
    Single,
    BestOf,
    RaceTo,
    TwiceToBeat,
}

/// The field of a stage a fault is about: the core's part of a stage.
pub use ggdesk_core::stages::StagePart as StageField;

/// A fault of the stage list: the stage (from 0; `None` for the list as a whole), its
/// field, and the sentence shown beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageFault {
    pub stage: Option<usize>,
    pub field: StageField,
    pub text: String,
}

/// One stage as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct StageForm {
    pub name: String,
    pub kind: StageKind,
    /// A Swiss: how many rounds; a round robin: how many (empty: one full cycle).
    pub rounds: String,
    pub groups: String,
    /// How many players of each group go on (every stage but the last).
    pub advance: String,
    pub series: SeriesKind,
    /// Best of K: K; race to P: P points.
    pub series_value: String,
    pub seeding: Seeding,
    pub third_place: bool,
    pub tiebreaks: Vec<TieBreak>,
}

impl StageForm {
    /// A stage as the form shows it.
    pub fn of(s: &StageSpec) -> StageForm {
        let mut f = StageForm {
            name: s.name.clone(),
            kind: StageKind::Swiss,
            rounds: String::new(),
            groups: "1".into(),
            advance: s.advance.map_or_else(String::new, |a| a.to_string()),
            series: SeriesKind::Single,
            series_value: String::new(),
            seeding: Seeding::Standard,
            third_place: false,
            tiebreaks: s.tiebreaks.clone(),
        };
        match s.format {
            StageFormat::Swiss { rounds } => f.rounds = rounds.to_string(),
            StageFormat::RoundRobin { groups, rounds } => {
                f.kind = StageKind::RoundRobin;
                f.groups = groups.to_string();
                f.rounds = rounds.map_or_else(String::new, |r| r.to_string());
            }
            StageFormat::Knockout {
                series,
                seeding,
                third_place,
            } => {
                f.kind = StageKind::Knockout;
                f.seeding = seeding;
                f.third_place = third_place;
                match series {
                    MatchFormat::BestOf(1) => f.series = SeriesKind::Single,
                    MatchFormat::BestOf(k) => {
                        f.series = SeriesKind::BestOf;
                        f.series_value = k.to_string();
                    }
                    MatchFormat::RaceTo(p) => {
                        f.series = SeriesKind::RaceTo;
                        f.series_value = p.to_string();
                    }
                    MatchFormat::TwiceToBeat => f.series = SeriesKind::TwiceToBeat,
                }
            }
        }
        f
    }

    /// The stage the form describes (`last`: the last stage, which has no cut), or each
    /// field's own error as typed.
    fn spec(&self, last: bool, i: usize) -> Result<StageSpec, Vec<StageFault>> {
        let mut faults = Vec::new();
        let mut fault = |field: StageField, text: String| {
            faults.push(StageFault {
                stage: Some(i),
                field,
                text,
            })
        };
        let format = match self.kind {
            StageKind::Swiss => StageFormat::Swiss {
                rounds: count(StageField::Rounds, &self.rounds, &mut fault),
            },
            StageKind::RoundRobin => StageFormat::RoundRobin {
                groups: count(StageField::Groups, &self.groups, &mut fault),
                rounds: match self.rounds.trim() {
                    "" => None,
                    r => Some(count(StageField::Rounds, r, &mut fault)),
                },
            },
            StageKind::Knockout => {
                let series = match self.series {
                    SeriesKind::Single => MatchFormat::BestOf(1),
                    SeriesKind::BestOf => MatchFormat::BestOf(count(
                        StageField::Series,
                        &self.series_value,
                        &mut fault,
                    )),
                    SeriesKind::RaceTo => match points_error(&self.series_value) {
                        Some(e) => {
                            fault(StageField::Series, e);
                            MatchFormat::RaceTo(Score::ZERO)
                        }
                        None => {
                            let v = self.series_value.trim().parse::<f64>().unwrap_or_default();
                            MatchFormat::RaceTo(Score::from_halves((v * 2.0) as i64))
                        }
                    },
                    SeriesKind::TwiceToBeat => MatchFormat::TwiceToBeat,
                };
                StageFormat::Knockout {
                    series,
                    seeding: self.seeding,
                    third_place: self.third_place,
                }
            }
        };
        let advance = if last {
            None
        } else {
            Some(count(StageField::Advance, &self.advance, &mut fault))
        };
        if !faults.is_empty() {
            return Err(faults);
        }
        Ok(StageSpec {
            name: self.name.clone(),
            format,
            // A knockout ranks nobody by them: its tie-breaks are not shown, and kept as
            // they are (a stage read back gives the same stage).
            tiebreaks: self.tiebreaks.clone(),
            advance,
        })
    }
}

/// A whole number as typed, or its error given to `fault` (and 0).
fn count(field: StageField, text: &str, fault: &mut dyn FnMut(StageField, String)) -> u32 {
    match count_error(text) {
        Some(e) => {
            fault(field, e);
            0
        }
        None => text.trim().parse().unwrap_or_default(),
    }
}

/// The stages the forms describe, checked as the core checks them, or every field's own
/// error (each stage's) and else the core's fault, placed beside its field.
pub fn check(forms: &[StageForm], points: PointsScale) -> Result<Vec<StageSpec>, Vec<StageFault>> {
    let mut specs = Vec::new();
    let mut faults = Vec::new();
    for (i, f) in forms.iter().enumerate() {
        match f.spec(i + 1 == forms.len(), i) {
            Ok(s) => specs.push(s),
            Err(mut e) => faults.append(&mut e),
        }
    }
    if !faults.is_empty() {
        return Err(faults);
    }
    let settings = EventSettings {
        points,
        forbidden: Vec::new(),
        stages: specs,
    };
    match settings.check() {
        Ok(()) => Ok(settings.stages),
        Err(e) => Err(vec![core_fault(&e)]),
    }
}

/// The core's fault at its stage and field, in the core's desk words ("stage 2: a knockout
/// is always the last stage" beside stage 2's system: "A knockout is always the last
/// stage").
fn core_fault(e: &SettingsFault) -> StageFault {
    let (stage, field) = e.place();
    StageFault {
        stage: stage.and_then(|s| s.index()),
        field,
        text: e.desk_words(),
    }
}

/// A preset of a common shape: its name and its stages.
pub struct Preset {
    pub name: &'static str,
    pub stages: fn() -> Vec<StageSpec>,
}

fn stage(
    name: &str,
    format: StageFormat,
    tiebreaks: Vec<TieBreak>,
    advance: Option<u32>,
) -> StageSpec {
    StageSpec {
        name: name.into(),
        format,
        tiebreaks,
        advance,
    }
}

/// The common shapes of the Generals League's events.
pub const PRESETS: [Preset; 3] = [
    Preset {
        name: "Swiss then final, top seed twice to beat",
        stages: || {
            vec![
                stage(
                    "Swiss",
                    StageFormat::Swiss { rounds: 6 },
                    TieBreak::default_order(),
                    Some(2),
                ),
                stage(
                    "Final",
                    StageFormat::Knockout {
                        series: MatchFormat::TwiceToBeat,
                        seeding: Seeding::Standard,
                        third_place: false,
                    },
                    Vec::new(),
                    None,
                ),
            ]
        },
    },
    Preset {
        name: "Groups then cross-over knockout",
        stages: || {
            vec![
                stage(
                    "Groups",
                    StageFormat::RoundRobin {
                        groups: 4,
                        rounds: None,
                    },
                    vec![
                        TieBreak::DirectEncounter,
                        TieBreak::FewestForfeitWins,
                        TieBreak::Wins,
                    ],
                    Some(2),
                ),
                stage(
                    "Knockout",
                    StageFormat::Knockout {
                        series: MatchFormat::RaceTo(Score::from_halves(8)),
                        seeding: Seeding::CrossOver,
                        third_place: true,
                    },
                    Vec::new(),
                    None,
                ),
            ]
        },
    },
    Preset {
        name: "Round robin, final round, best-of-3 final",
        stages: || {
            vec![
                stage(
                    "Qualifying",
                    StageFormat::RoundRobin {
                        groups: 1,
                        rounds: None,
                    },
                    vec![TieBreak::DirectEncounter, TieBreak::Wins],
                    Some(4),
                ),
                stage(
                    "Final round",
                    StageFormat::RoundRobin {
                        groups: 1,
                        rounds: None,
                    },
                    vec![TieBreak::DirectEncounter, TieBreak::Wins],
                    Some(2),
                ),
                stage(
                    "Final",
                    StageFormat::Knockout {
                        series: MatchFormat::BestOf(3),
                        seeding: Seeding::Standard,
                        third_place: false,
                    },
                    Vec::new(),
                    None,
                ),
            ]
        },
    },
];

/// What the stage editor was asked to do this frame.
enum Edit {
    Add,
    Remove(usize),
    Swap(usize, usize),
    Preset(usize),
}

/// A fault beside its field (a whole sentence, wrapped when long), or nothing.
fn fault_label(ui: &mut Ui, faults: &[StageFault], stage: Option<usize>, field: StageField) {
    for f in faults
        .iter()
        .filter(|f| f.stage == stage && f.field == field)
    {
        ui.label(RichText::new(&f.text).color(common::RED));
    }
}

/// A radio button named for its stage (several stages show the same choices).
fn radio(ui: &mut Ui, on: bool, text: &str, name: String) -> bool {
    ui.radio(on, text).accessible_name(name).clicked()
}

/// The stage editor: the presets, each stage (read-only once a round of it is paired),
/// adding, removing and moving stages, the list in words and its faults.
pub fn stages_ui(
    ui: &mut Ui,
    forms: &mut Vec<StageForm>,
    fixed: usize,
    points: PointsScale,
) -> Result<Vec<StageSpec>, Vec<StageFault>> {
    let mut edit = None;
    ui.horizontal_wrapped(|ui| {
        ui.label("Start from a common shape:");
        for (i, p) in PRESETS.iter().enumerate() {
            if ui
                .add_enabled(fixed == 0, egui::Button::new(p.name))
                .on_hover_text("Fills the stages below; change anything before saving")
                .on_disabled_hover_text("A stage has a round paired: it is fixed")
                .clicked()
            {
                edit = Some(Edit::Preset(i));
            }
        }
    });
    let checked = check(forms, points);
    let faults: &[StageFault] = checked.as_ref().err().map_or(&[], Vec::as_slice);
    let n = forms.len();
    for (i, form) in forms.iter_mut().enumerate() {
        ui.add_space(4.0);
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width().min(980.0));
            if i < fixed {
                fixed_stage_ui(ui, i, form, n);
                return;
            }
            if let Some(e) = stage_ui(ui, i, form, n, fixed, faults) {
                edit = Some(e);
            }
        });
    }
    ui.horizontal(|ui| {
        if ui.button("Add a stage").clicked() {
            edit = Some(Edit::Add);
        }
        fault_label(ui, faults, None, StageField::System);
    });
    if let Ok(specs) = &checked {
        let words: Vec<String> = specs
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{}. {}", i + 1, stage_line(s)))
            .collect();
        ui.label(format!("The event: {}", words.join("  >  ")));
    }
    match edit {
        Some(Edit::Add) => forms.push(StageForm::of(&StageSpec {
            name: format!("Stage {}", forms.len() + 1),
            format: StageFormat::Knockout {
                series: MatchFormat::BestOf(1),
                seeding: Seeding::Standard,
                third_place: false,
            },
            tiebreaks: Vec::new(),
            advance: None,
        })),
        Some(Edit::Remove(i)) if i >= fixed && i < forms.len() => {
            forms.remove(i);
        }
        Some(Edit::Swap(a, b)) if a >= fixed && b >= fixed && b < forms.len() => forms.swap(a, b),
        Some(Edit::Preset(p)) if fixed == 0 => {
            *forms = (PRESETS[p].stages)().iter().map(StageForm::of).collect();
        }
        _ => {}
    }
    checked
}

/// A stage with a round paired: in words, read-only.
fn fixed_stage_ui(ui: &mut Ui, i: usize, form: &StageForm, n: usize) {
    let words = form
        .spec(i + 1 == n, i)
        .map_or_else(|_| form.name.clone(), |s| stage_line(&s));
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("Stage {}", i + 1)).strong());
        ui.label(words);
        ui.label(RichText::new("fixed: a round of it is paired").color(common::AMBER));
    });
}

/// One stage's fields; the edit of the list asked from it.
fn stage_ui(
    ui: &mut Ui,
    i: usize,
    f: &mut StageForm,
    n: usize,
    fixed: usize,
    faults: &[StageFault],
) -> Option<Edit> {
    let no = i + 1;
    let last = no == n;
    let at = Some(i);
    let mut edit = None;
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("Stage {no}")).strong());
        let l = ui.label("Name:");
        ui.add(egui::TextEdit::singleline(&mut f.name).desired_width(160.0))
            .labelled_by(l.id)
            .accessible_name(format!("Stage {no} name"));
        ui.add_space(12.0);
        if ui
            .add_enabled(i > fixed, egui::Button::new("Up").small())
            .accessible_name(format!("Move stage {no} up"))
            .clicked()
        {
            edit = Some(Edit::Swap(i - 1, i));
        }
        if ui
            .add_enabled(!last, egui::Button::new("Down").small())
            .accessible_name(format!("Move stage {no} down"))
            .clicked()
        {
            edit = Some(Edit::Swap(i, i + 1));
        }
        if ui
            .small_button("Remove")
            .accessible_name(format!("Remove stage {no}"))
            .clicked()
        {
            edit = Some(Edit::Remove(i));
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("System:");
        for (kind, text, word) in [
            (StageKind::Swiss, "Swiss", "Swiss"),
            (StageKind::RoundRobin, "Round robin", "round robin"),
            (StageKind::Knockout, "Knockout", "knockout"),
        ] {
            if radio(ui, f.kind == kind, text, format!("Stage {no}: {word}")) && f.kind != kind {
                f.kind = kind;
                // Rounds typed for a Swiss do not carry over to a round robin's cycle.
                f.rounds = if kind == StageKind::Swiss {
                    "5".into()
                } else {
                    String::new()
                };
            }
        }
        fault_label(ui, faults, at, StageField::System);
    });
    ui.horizontal_wrapped(|ui| match f.kind {
        StageKind::Swiss => {
            let l = ui.label("Rounds:");
            ui.add(egui::TextEdit::singleline(&mut f.rounds).desired_width(40.0))
                .labelled_by(l.id)
                .accessible_name(format!("Stage {no} rounds"));
            fault_label(ui, faults, at, StageField::Rounds);
        }
        StageKind::RoundRobin => {
            let l = ui.label("Groups:");
            ui.add(egui::TextEdit::singleline(&mut f.groups).desired_width(40.0))
                .labelled_by(l.id)
                .accessible_name(format!("Stage {no} groups"));
            fault_label(ui, faults, at, StageField::Groups);
            let l = ui.label("Rounds (empty: one full cycle):");
            ui.add(egui::TextEdit::singleline(&mut f.rounds).desired_width(40.0))
                .labelled_by(l.id)
                .accessible_name(format!("Stage {no} rounds"));
            fault_label(ui, faults, at, StageField::Rounds);
        }
        StageKind::Knockout => {
            ui.label("Each match:");
            for (kind, text) in [
                (SeriesKind::Single, "single game"),
                (SeriesKind::BestOf, "best of"),
                (SeriesKind::RaceTo, "race to (points)"),
                (SeriesKind::TwiceToBeat, "twice to beat"),
            ] {
                if radio(ui, f.series == kind, text, format!("Stage {no}: {text}"))
                    && f.series != kind
                {
                    f.series = kind;
                    f.series_value = match kind {
                        SeriesKind::BestOf => "3".into(),
                        SeriesKind::RaceTo => "4".into(),
                        _ => String::new(),
                    };
                }
            }
            if matches!(f.series, SeriesKind::BestOf | SeriesKind::RaceTo) {
                ui.add(egui::TextEdit::singleline(&mut f.series_value).desired_width(40.0))
                    .accessible_name(format!("Stage {no} match length"));
            }
            fault_label(ui, faults, at, StageField::Series);
        }
    });
    if f.kind == StageKind::Knockout {
        ui.horizontal_wrapped(|ui| {
            ui.label("Seeding:");
            for (s, text, word) in [
                (Seeding::Standard, "standard (1 v 8, 4 v 5…)", "standard"),
                (Seeding::CrossOver, "cross-over (A1 v B2…)", "cross-over"),
            ] {
                if radio(
                    ui,
                    f.seeding == s,
                    text,
                    format!("Stage {no}: {word} seeding"),
                ) {
                    f.seeding = s;
                }
            }
            fault_label(ui, faults, at, StageField::Seeding);
            ui.checkbox(&mut f.third_place, "third-place match")
                .accessible_name(format!("Stage {no}: third-place match"));
        });
    }
    if !last {
        ui.horizontal_wrapped(|ui| {
            let l = ui.label(if f.kind == StageKind::RoundRobin {
                "Players of each group who go on:"
            } else {
                "Players who go on:"
            });
            ui.add(egui::TextEdit::singleline(&mut f.advance).desired_width(40.0))
                .labelled_by(l.id)
                .accessible_name(format!("Stage {no} players who go on"));
            fault_label(ui, faults, at, StageField::Advance);
        });
    }
    if f.kind != StageKind::Knockout {
        tiebreaks_ui(ui, no, &mut f.tiebreaks);
        fault_label(ui, faults, at, StageField::Tiebreaks);
    }
    edit
}

/// A stage's tie-breaks in order, each to move up or remove, and the ones left to add.
fn tiebreaks_ui(ui: &mut Ui, no: usize, list: &mut Vec<TieBreak>) {
    let mut up = None;
    let mut remove = None;
    ui.horizontal_wrapped(|ui| {
        ui.label("Tie-breaks:");
        if list.is_empty() {
            ui.label(RichText::new("none (equal players by seed)").weak());
        }
        for (i, tb) in list.iter().enumerate() {
            ui.label(format!("{}. {}", i + 1, tiebreak_words(*tb)));
            if i > 0
                && ui
                    .small_button("<")
                    .accessible_name(format!("Stage {no}: move {} up", tb.name()))
                    .on_hover_text("Earlier in the order")
                    .clicked()
            {
                up = Some(i);
            }
            if ui
                .small_button("x")
                .accessible_name(format!("Stage {no}: remove {}", tb.name()))
                .on_hover_text(format!("Remove {}", tiebreak_words(*tb)))
                .clicked()
            {
                remove = Some(i);
            }
        }
        let missing: Vec<TieBreak> = TieBreak::ALL
            .into_iter()
            .filter(|t| !list.contains(t))
            .collect();
        if !missing.is_empty() {
            let mut add = None;
            egui::ComboBox::from_id_salt(("stage-add-tiebreak", no))
                .selected_text("add…")
                .width(90.0)
                .show_ui(ui, |ui| {
                    for t in &missing {
                        if ui.selectable_label(false, tiebreak_words(*t)).clicked() {
                            add = Some(*t);
                        }
                    }
                })
                .response
                .accessible_name(format!("Stage {no}: add a tie-break"));
            if let Some(t) = add {
                list.push(t);
            }
        }
    });
    if let Some(i) = up {
        list.swap(i - 1, i);
    }
    if let Some(i) = remove {
        list.remove(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_passes_the_core_check_and_reads_back_unchanged() {
        for p in &PRESETS {
            let specs = (p.stages)();
            let forms: Vec<StageForm> = specs.iter().map(StageForm::of).collect();
            assert_eq!(
                check(&forms, PointsScale::default()),
                Ok(specs),
                "{}",
                p.name
            );
        }
    }

    #[test]
    fn a_fault_of_the_core_stands_beside_its_stage_and_field() {
        let mut forms: Vec<StageForm> = (PRESETS[1].stages)().iter().map(StageForm::of).collect();
        forms[0].groups = "3".into();
        let faults = check(&forms, PointsScale::default()).expect_err("3 groups cannot cross over");
        assert_eq!(
            faults,
            vec![StageFault {
                stage: Some(1),
                field: StageField::Seeding,
                text: "Cross-over seeding needs a stage before it with an even number of groups \
                       and advance 2"
                    .into(),
            }]
        );
        forms[0].groups = "four".into();
        forms[1].series_value = "x".into();
        let faults = check(&forms, PointsScale::default()).expect_err("not numbers");
        assert_eq!(
            faults
                .iter()
                .map(|f| (f.stage, f.field))
                .collect::<Vec<_>>(),
            vec![(Some(0), StageField::Groups), (Some(1), StageField::Series)]
        );
    }
}
