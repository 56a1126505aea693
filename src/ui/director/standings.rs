//! Standings (F6): the standings with every tie-break column, opening on the last complete
//! round (a round still in play counts only when chosen, and is then labelled
//! provisional), the cross-table, CSV exports through the core's writers and printable
//! pages.
//!
//! An event in stages has no standings over all its rounds: the page offers a chooser of
//! its stages (and "Final placement"). A round-robin stage shows one table per group (a
//! Swiss stage one table) with who goes on marked once the stage is complete; a knockout
//! stage its placement; the final placement once the event is over. Everything shown is
//! the core's answer on the event (`Store::load_event`), and Export CSV and Print follow
//! the view chosen.

use super::{Watch, file_stem, hint, need_tournament, write_export};
use crate::store::TournamentId;
use crate::ui::PageCtx;
use crate::ui::common::{self, LoadErrors};
use crate::ui::files;
use egui::{Key, Modifiers, RichText, Ui};
use egui_extras::{Column, TableBuilder};
use ggdesk_core::export::print::{self, CROSS_LEGEND, cross_cell, tiebreak_title};
use ggdesk_core::export::{crosstable_csv, standings_csv};
use ggdesk_core::export::{placement_csv, stage_standings_csv};
use ggdesk_core::rules::Side;
use ggdesk_core::stages::{Event, GroupId, Placed, StageStandings};
use ggdesk_core::tournament::{PlayerId, StageNo, Standings, Tournament, standings};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmd {
    ExportStandings,
    ExportCrosstable,
    PrintStandings,
    PrintCrosstable,
    ExportStaged,
    PrintStaged,
}

/// What the page shows of an event in stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StagedView {
    /// A stage's standings.
    Stage(StageNo),
    Final,
}

/// The Standings page's own state.
#[derive(Default)]
pub struct StandingsPage {
    /// A team event's standings (drawn instead of these when the tournament is one).
    pub team: super::team_standings::TeamStandingsPage,
    pub tournament: Option<Tournament>,
    pub standings: Option<Standings>,
    /// The rounds counted; `None` follows the last complete round.
    pub after: Option<usize>,
    pub crosstable: bool,
    watch: Watch,
    load: LoadErrors,
    tid: Option<TournamentId>,
    queued: Vec<Cmd>,
    /// An event in stages (`None` for a tournament of one system).
    pub event: Option<Event>,
    /// The view chosen; `None` follows the event: its current stage, or the final
    /// placement once it is over.
    pub view: Option<StagedView>,
}

/// One line of a stage's table: the core's row, and where the player stands at the cut.
struct CutRow<'a> {
    row: &'a ggdesk_core::tournament::StandingRow,
    through: bool,
    playoff: bool,
}

/// The players of a stage who go on (known once it is complete) and the other players of
/// a tie across the cut (playing off, or out after the playoff), as the core marks them.
fn cut_of(event: &Event, stage: StageNo) -> (Vec<PlayerId>, Vec<PlayerId>) {
    let marks = event.cut_marks(stage);
    let playoff = marks
        .tied
        .iter()
        .copied()
        .filter(|p| !marks.through.contains(p))
        .collect();
    (marks.through, playoff)
}

/// The view followed when none is chosen: the final placement once the event is over,
/// else the stage being played.
pub fn default_view(event: &Event) -> StagedView {
    if event.is_over() {
        StagedView::Final
    } else {
        StagedView::Stage(event.current().stage)
    }
}

/// A stage's name, or its system when it has none (the event's words).
fn stage_name(event: &Event, stage: StageNo) -> String {
    stage
        .index()
        .and_then(|k| event.settings().stages.get(k))
        .map(ggdesk_core::event::words::stage_name)
        .unwrap_or_default()
}

/// A stage with its number: `Stage 2: Knockout`.
fn stage_title(event: &Event, stage: StageNo) -> String {
    format!("Stage {stage}: {}", stage_name(event, stage))
}

/// The rounds counted by default: every round up to the last complete one, so pending
/// games never count (and never mix into the tie-breaks) unless the director asks.
pub fn default_after(t: &Tournament) -> usize {
    t.completed_rounds()
}

impl StandingsPage {
    /// The rounds counted now.
    pub fn counted(&self, t: &Tournament) -> usize {
        self.after
            .unwrap_or_else(|| default_after(t))
            .min(t.rounds().len())
    }

    /// Whether the standings shown count a round still in play.
    pub fn provisional(&self, t: &Tournament) -> bool {
        let after = self.counted(t);
        (1..=after).any(|r| !t.is_round_complete(r))
    }

    fn reload(&mut self, cx: &mut PageCtx<'_>, tid: TournamentId) {
        if self.tid != Some(tid) {
            self.tid = Some(tid);
            self.after = None;
            self.watch.force();
        }
        if !self.watch.stale(cx, Some(tid)) {
            return;
        }
        let mut load = LoadErrors::default();
        let event = super::event_of(&mut load, cx.store, tid, "the standings");
        self.event = event.as_ref().and_then(|e| e.staged().cloned());
        if self.event.is_none() {
            self.view = None;
        }
        self.tournament = event.as_ref().and_then(|e| e.one_system().cloned());
        self.standings = self
            .tournament
            .as_ref()
            .map(|t| standings(t, self.counted(t)));
        self.load = load;
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(tid) = need_tournament(ui, cx, "Standings") else {
            return;
        };
        // A team event's standings are its teams' and its boards': their own page.
        if self.team.is_team_event(cx, tid) {
            self.team.ui(ui, cx, tid);
            return;
        }
        self.reload(cx, tid);
        if self.load.banner(ui) {
            return;
        }
        if !cx.typing && ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::E)) {
            self.queued.push(Cmd::ExportStandings);
        }
        if let Some(event) = self.event.clone() {
            if !cx.typing && ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::E)) {
                self.queued.retain(|c| *c != Cmd::ExportStandings);
                self.queued.push(Cmd::ExportStaged);
            }
            self.staged_ui(ui, &event);
            for cmd in std::mem::take(&mut self.queued) {
                self.apply_staged(cmd, cx, tid, &event);
            }
            return;
        }
        let Some(t) = self.tournament.clone() else {
            return;
        };
        self.controls(ui, &t);
        if let Some(s) = &self.standings {
            let names: Vec<&str> = s.tiebreaks.iter().map(|t| tiebreak_title(*t)).collect();
            hint(
                ui,
                &format!(
                    "Ranked by points{}{}. Penalties are subtracted.",
                    if names.is_empty() { "" } else { ", then " },
                    names.join(", then ")
                ),
            );
        }
        if self.crosstable {
            self.crosstable_ui(ui, &t);
        } else {
            self.table_ui(ui, &t);
        }
        for cmd in std::mem::take(&mut self.queued) {
            self.apply(cmd, cx, tid, &t);
        }
    }

    /// The round chooser, the provisional label and the exports, on one line whose items
    /// keep their places.
    fn controls(&mut self, ui: &mut Ui, t: &Tournament) {
        let rounds = t.rounds().len();
        let after = self.counted(t);
        let complete = default_after(t);
        ui.horizontal(|ui| {
            ui.heading("Standings");
            let l = ui.label("After round:");
            let mut choice = after;
            egui::ComboBox::from_id_salt("standings-after")
                .selected_text(if after == 0 {
                    "none yet".to_string()
                } else {
                    after.to_string()
                })
                .width(150.0)
                .show_ui(ui, |ui| {
                    for r in (0..=rounds).rev() {
                        let text = if t.is_round_complete(r) || r == 0 {
                            r.to_string()
                        } else {
                            format!("{r} (in play: provisional)")
                        };
                        ui.selectable_value(&mut choice, r, text);
                    }
                })
                .response
                .labelled_by(l.id);
            if choice != after {
                self.after = (choice != complete).then_some(choice);
                self.watch.force();
            }
            // The label's place is kept when there is nothing to say, so nothing moves.
            let (text, color) = if self.provisional(t) {
                ("PROVISIONAL: a round counted is in play", common::AMBER)
            } else if rounds > complete {
                (
                    "Final for the rounds counted; a round is in play",
                    common::GREEN,
                )
            } else {
                ("Final for the rounds counted", common::GREEN)
            };
            ui.allocate_ui_with_layout(
                egui::vec2(330.0, 22.0),
                egui::Layout::left_to_right(egui::Align::Center),
                |ui| {
                    ui.set_min_width(330.0);
                    ui.label(RichText::new(text).color(color).strong());
                },
            );
            ui.separator();
            ui.checkbox(&mut self.crosstable, "Cross-table");
            if ui
                .button("Export CSV")
                .on_hover_text("Ctrl+E; the standings (or the cross-table) into the exports folder")
                .clicked()
            {
                self.queued.push(if self.crosstable {
                    Cmd::ExportCrosstable
                } else {
                    Cmd::ExportStandings
                });
            }
            if ui
                .button("Print")
                .on_hover_text(
                    "A page to print, with the tournament's details, opened in the browser",
                )
                .clicked()
            {
                self.queued.push(if self.crosstable {
                    Cmd::PrintCrosstable
                } else {
                    Cmd::PrintStandings
                });
            }
        });
    }

    fn table_ui(&self, ui: &mut Ui, t: &Tournament) {
        let Some(s) = &self.standings else { return };
        let mut builder = TableBuilder::new(ui)
            .id_salt("standings-table")
            .striped(true)
            .column(Column::exact(48.0))
            .column(Column::exact(44.0))
            .column(Column::remainder().at_least(180.0).clip(true))
            .column(Column::exact(64.0))
            .column(Column::exact(64.0));
        for _ in &s.tiebreaks {
            builder = builder.column(Column::exact(130.0));
        }
        builder
            .header(24.0, |mut h| {
                common::header_cells(&mut h, &["Rank", "No", "Name", "Rating", "Points"]);
                for tb in &s.tiebreaks {
                    h.col(|ui| {
                        ui.label(RichText::new(tiebreak_title(*tb)).strong());
                    });
                }
            })
            .body(|body| {
                body.rows(24.0, s.rows.len(), |mut row| {
                    let r = &s.rows[row.index()];
                    let withdrawn = t.player(r.id).is_some_and(|p| p.withdrawn);
                    row.col(|ui| {
                        ui.label(RichText::new(r.rank.to_string()).strong());
                    });
                    row.col(|ui| {
                        ui.label(r.id.to_string());
                    });
                    row.col(|ui| {
                        let text = if withdrawn {
                            format!("{} (withdrawn)", r.name)
                        } else {
                            r.name.clone()
                        };
                        common::cut_label(ui, text);
                    });
                    row.col(|ui| {
                        ui.label(r.rating.to_string());
                    });
                    row.col(|ui| {
                        ui.label(RichText::new(r.score.to_string()).strong());
                    });
                    for v in &r.tiebreaks {
                        row.col(|ui| {
                            ui.label(v.to_string());
                        });
                    }
                });
            });
    }

    fn crosstable_ui(&self, ui: &mut Ui, t: &Tournament) {
        let Some(s) = &self.standings else { return };
        hint(ui, CROSS_LEGEND);
        let after = s.after_round;
        let entries = t.entries(after);
        let mut builder = TableBuilder::new(ui)
            .id_salt("crosstable")
            .striped(true)
            .column(Column::exact(48.0))
            .column(Column::exact(44.0))
            .column(Column::exact(200.0).clip(true))
            .column(Column::exact(64.0));
        for _ in 0..after {
            builder = builder.column(Column::exact(64.0));
        }
        builder
            .header(24.0, |mut h| {
                common::header_cells(&mut h, &["Rank", "No", "Name", "Points"]);
                for r in 1..=after {
                    h.col(|ui| {
                        ui.label(RichText::new(format!("R{r}")).strong());
                    });
                }
            })
            .body(|body| {
                body.rows(24.0, s.rows.len(), |mut row| {
                    let r = &s.rows[row.index()];
                    row.col(|ui| {
                        ui.label(r.rank.to_string());
                    });
                    row.col(|ui| {
                        ui.label(r.id.to_string());
                    });
                    row.col(|ui| {
                        common::cut_label(ui, &r.name);
                    });
                    row.col(|ui| {
                        ui.label(RichText::new(r.score.to_string()).strong());
                    });
                    let cells = t.player_index(r.id).and_then(|i| entries.get(i));
                    for k in 0..after {
                        row.col(|ui| {
                            if let Some(e) = cells.and_then(|c| c.get(k)) {
                                cross_cell_ui(ui, e);
                            }
                        });
                    }
                });
            });
    }

    /// The view shown now of an event in stages.
    pub fn staged_view(&self, event: &Event) -> StagedView {
        match self.view {
            Some(StagedView::Stage(k)) if k.index().is_some_and(|i| i < event.reached().len()) => {
                StagedView::Stage(k)
            }
            Some(StagedView::Final) if event.is_over() => StagedView::Final,
            _ => default_view(event),
        }
    }

    /// An event in stages: the chooser of its stages and the final placement, the exports,
    /// and the view chosen.
    fn staged_ui(&mut self, ui: &mut Ui, event: &Event) {
        let shown = self.staged_view(event);
        ui.horizontal(|ui| {
            ui.heading("Standings");
            ui.label("Show:");
            for i in 0..event.settings().stages.len() {
                let k = StageNo::from_index(i);
                let seeded = i < event.reached().len();
                let r = ui
                    .add_enabled(
                        seeded,
                        egui::Button::selectable(
                            shown == StagedView::Stage(k),
                            stage_title(event, k),
                        ),
                    )
                    .on_disabled_hover_text("Not seeded yet: the stage before is being played");
                if r.clicked() {
                    self.view = Some(StagedView::Stage(k));
                }
            }
            let r = ui
                .add_enabled(
                    event.is_over(),
                    egui::Button::selectable(shown == StagedView::Final, "Final placement"),
                )
                .on_disabled_hover_text("The final placement is known when the last stage is over");
            if r.clicked() {
                self.view = Some(StagedView::Final);
            }
            ui.separator();
            if ui
                .button("Export CSV")
                .on_hover_text("Ctrl+E; the view shown into the exports folder")
                .clicked()
            {
                self.queued.push(Cmd::ExportStaged);
            }
            if ui
                .button("Print")
                .on_hover_text("The view shown as a page to print, opened in the browser")
                .clicked()
            {
                self.queued.push(Cmd::PrintStaged);
            }
        });
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| match shown {
                StagedView::Final => placement_ui(ui, event),
                StagedView::Stage(k) => stage_ui(ui, event, k),
            });
    }

    fn apply_staged(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: TournamentId, event: &Event) {
        let stem = file_stem(event.name());
        let shown = self.staged_view(event);
        let (what, name, csv) = match shown {
            StagedView::Final => match event.final_placement() {
                Ok(rows) => (
                    "Final placement".to_string(),
                    "final-placement".to_string(),
                    Ok(placement_csv(&rows)),
                ),
                Err(e) => (String::new(), String::new(), Err(e.to_string())),
            },
            StagedView::Stage(k) => match event.stage_standings(Some(k)) {
                Ok(st) => (
                    format!("Stage {k} standings"),
                    format!("stage-{k}-standings"),
                    Ok(stage_standings_csv(&st)),
                ),
                Err(e) => (String::new(), String::new(), Err(e.to_string())),
            },
        };
        match cmd {
            Cmd::ExportStaged => {
                let r = csv
                    .and_then(|text| write_export(cx.store, &format!("{stem}-{name}.csv"), &text));
                if let Some(file) = cx.notices.report(r, "") {
                    files::written(cx.notices, &format!("{what} (CSV)"), &file);
                }
            }
            Cmd::PrintStaged => {
                let r = cx
                    .store
                    .tournament_details(tid)
                    .map_err(|e| e.to_string())
                    .and_then(|d| {
                        let html = match shown {
                            StagedView::Stage(k) => staged_print(&d, event, k),
                            StagedView::Final => placement_page(&d, event),
                        };
                        let html = html.ok_or_else(|| {
                            "there is nothing of this view to print yet".to_string()
                        })?;
                        let name = match shown {
                            StagedView::Final => "final-placement".to_string(),
                            StagedView::Stage(_) => name.clone(),
                        };
                        write_export(cx.store, &format!("{stem}-{name}.html"), &html)
                    });
                if let Some(file) = cx.notices.report(r, "") {
                    files::print_page(cx.notices, cx.launcher, &what, &file);
                }
            }
            _ => {}
        }
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: TournamentId, t: &Tournament) {
        let stem = file_stem(t.name());
        let after = self.counted(t);
        let provisional = self.provisional(t);
        let s = standings(t, after);
        let suffix = if provisional { "-provisional" } else { "" };
        match cmd {
            Cmd::ExportStandings => {
                let r = write_export(
                    cx.store,
                    &format!("{stem}-standings-after-round-{after}{suffix}.csv"),
                    &standings_csv(&s),
                );
                if let Some(file) = cx.notices.report(r, "") {
                    files::written(cx.notices, "Standings (CSV)", &file);
                }
            }
            Cmd::ExportCrosstable => {
                let r = write_export(
                    cx.store,
                    &format!("{stem}-crosstable.csv"),
                    &crosstable_csv(t),
                );
                if let Some(file) = cx.notices.report(r, "") {
                    files::written(cx.notices, "Cross-table (CSV)", &file);
                }
            }
            Cmd::PrintStandings | Cmd::PrintCrosstable => {
                let r = cx
                    .store
                    .tournament_details(tid)
                    .map_err(|e| e.to_string())
                    .and_then(|d| {
                        let (name, html) = if cmd == Cmd::PrintStandings {
                            ("standings", print::standings_page(&d, t, &s, provisional))
                        } else {
                            ("crosstable", print::crosstable_page(&d, t, &s, provisional))
                        };
                        write_export(
                            cx.store,
                            &format!("{stem}-{name}-after-round-{after}{suffix}.html"),
                            &html,
                        )
                    });
                if let Some(file) = cx.notices.report(r, "") {
                    let what = if cmd == Cmd::PrintStandings {
                        "Standings"
                    } else {
                        "Cross-table"
                    };
                    files::print_page(cx.notices, cx.launcher, what, &file);
                }
            }
            Cmd::ExportStaged | Cmd::PrintStaged => {}
        }
    }
}

/// A stage's printout: a round robin's group tables, a knockout's bracket, a Swiss stage's
/// standings (its one group as a tournament of its own).
fn staged_print(d: &print::Details, event: &Event, stage: StageNo) -> Option<String> {
    let k = stage.index()?;
    let spec = event.settings().stages.get(k)?;
    match spec.format {
        ggdesk_core::stages::StageFormat::RoundRobin { .. } => {
            print::group_tables_page(d, event, stage)
        }
        ggdesk_core::stages::StageFormat::Knockout { .. } => print::bracket_page(d, event),
        ggdesk_core::stages::StageFormat::Swiss { .. } => {
            let group = event.reached().get(k)?.groups.first()?;
            let st = event.stage_standings(Some(stage)).ok()?;
            let s = Standings {
                after_round: group.table.rounds().len(),
                tiebreaks: st.tiebreaks.clone(),
                rows: st.rows.into_iter().map(|(_, r)| r).collect(),
            };
            Some(print::standings_page(d, &group.table, &s, false))
        }
    }
}

/// The final placement as a page to print: the event's title line, then place, number,
/// name and the stage each player was placed in. `None` before the event is over.
fn placement_page(d: &print::Details, event: &Event) -> Option<String> {
    use ggdesk_core::export::forms::html_escape as esc;
    let rows = event.final_placement().ok()?;
    let mut out = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} \u{2014} \
         final placement</title><style>body{{font:11pt sans-serif;margin:16mm}}\
         table{{border-collapse:collapse}}th,td{{padding:3px 10px;border-bottom:1px solid #bbb;\
         text-align:left}}td.n{{text-align:right}}</style></head><body>\n<h1>{}</h1>\n\
         <h2>Final placement</h2>\n<table><thead><tr><th>Place</th><th>No</th><th>Name</th>\
         <th>Placed in</th></tr></thead><tbody>\n",
        esc(event.name()),
        esc(&d.title_line())
    );
    for p in &rows {
        out.push_str(&format!(
            "<tr><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>\n",
            p.place,
            p.id,
            esc(&p.name),
            esc(&stage_name(event, p.stage))
        ));
    }
    out.push_str("</tbody></table>\n</body></html>\n");
    Some(out)
}

/// The final placement: place, number, name, the stage the player was placed in.
fn placement_ui(ui: &mut Ui, event: &Event) {
    let rows: Vec<Placed> = match event.final_placement() {
        Ok(rows) => rows,
        Err(e) => {
            hint(ui, &format!("No final placement yet: {e}."));
            return;
        }
    };
    ui.label(RichText::new("Final placement").strong().size(16.0));
    egui::Grid::new("final-placement")
        .striped(true)
        .min_col_width(44.0)
        .show(ui, |ui| {
            for h in ["Place", "No", "Name", "Placed in"] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for p in &rows {
                ui.label(RichText::new(p.place.to_string()).strong());
                ui.label(p.id.to_string());
                ui.label(&p.name);
                ui.label(stage_name(event, p.stage));
                ui.end_row();
            }
        });
}

/// A stage's standings: a table per group (one for a Swiss), who goes on marked; a
/// knockout stage's placement (from the final placement, once it is over).
fn stage_ui(ui: &mut Ui, event: &Event, stage: StageNo) {
    let Some(k) = stage.index() else {
        return;
    };
    let Some(spec) = event.settings().stages.get(k) else {
        return;
    };
    let complete = event.reached().get(k).is_some_and(|r| r.complete);
    // How the stage is played, in the audit log's words without its name (the button
    // above says it).
    let line = ggdesk_core::event::words::stage_line(spec);
    let how = line
        .strip_prefix(spec.name.trim())
        .map_or(line.as_str(), str::trim_start);
    hint(
        ui,
        &format!(
            "{how} · {}",
            if complete { "complete" } else { "being played" }
        ),
    );
    if spec.format.is_knockout() {
        match event.final_placement() {
            Ok(rows) => {
                ui.label(
                    RichText::new("The knockout's placement")
                        .strong()
                        .size(16.0),
                );
                egui::Grid::new("knockout-placement")
                    .striped(true)
                    .min_col_width(44.0)
                    .show(ui, |ui| {
                        for h in ["Place", "No", "Name"] {
                            ui.label(RichText::new(h).strong());
                        }
                        ui.end_row();
                        for p in rows.iter().filter(|p| p.stage == stage) {
                            ui.label(RichText::new(p.place.to_string()).strong());
                            ui.label(p.id.to_string());
                            ui.label(&p.name);
                            ui.end_row();
                        }
                    });
            }
            Err(_) => hint(
                ui,
                "The knockout's placement is known when its last match is decided; its matches are on the Bracket page (F11).",
            ),
        }
        return;
    }
    let st: StageStandings = match event.stage_standings(Some(stage)) {
        Ok(st) => st,
        Err(e) => {
            hint(ui, &e.to_string());
            return;
        }
    };
    let (through, playoff) = cut_of(event, stage);
    if let Some(a) = spec.advance {
        let next = stage_title(event, stage.next());
        hint(
            ui,
            &format!(
                "The top {a}{} go on to {next}{}",
                if st.grouped { " of each group" } else { "" },
                if complete {
                    "; a tie across the cut is played off."
                } else {
                    ", marked once the stage is complete."
                }
            ),
        );
    }
    let mut groups: Vec<(GroupId, Vec<CutRow<'_>>)> = Vec::new();
    for (g, row) in &st.rows {
        if groups.last().is_none_or(|(last, _)| last != g) {
            groups.push((*g, Vec::new()));
        }
        if let Some((_, rows)) = groups.last_mut() {
            rows.push(CutRow {
                row,
                through: through.contains(&row.id),
                playoff: playoff.contains(&row.id),
            });
        }
    }
    for (g, rows) in groups {
        if st.grouped {
            ui.add_space(6.0);
            ui.label(RichText::new(format!("Group {g}")).strong().size(16.0));
        }
        egui::Grid::new(("stage-group", stage, g.0))
            .striped(true)
            .min_col_width(44.0)
            .show(ui, |ui| {
                for h in ["Rank", "No", "Name", "Rating", "Points"] {
                    ui.label(RichText::new(h).strong());
                }
                for tb in &st.tiebreaks {
                    ui.label(RichText::new(tiebreak_title(*tb)).strong());
                }
                ui.label(RichText::new("Cut").strong());
                ui.end_row();
                for r in rows {
                    ui.label(RichText::new(r.row.rank.to_string()).strong());
                    ui.label(r.row.id.to_string());
                    ui.label(&r.row.name);
                    ui.label(r.row.rating.to_string());
                    ui.label(RichText::new(r.row.score.to_string()).strong());
                    for v in &r.row.tiebreaks {
                        ui.label(v.to_string());
                    }
                    if r.through {
                        ui.label(RichText::new("goes on").color(common::GREEN).strong());
                    } else if r.playoff {
                        ui.label(RichText::new("playoff").color(common::AMBER).strong());
                    } else {
                        ui.label("");
                    }
                    ui.end_row();
                }
            });
    }
}

/// A cross-table cell: `+5`, `=5`, `-5` and, apart, the colour played (a small w or b).
fn cross_cell_ui(ui: &mut Ui, entry: &ggdesk_core::tournament::Entry) {
    let (text, colour) = cross_cell(entry);
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 2.0;
        ui.label(RichText::new(text).monospace().strong());
        match colour {
            Some(Side::White) => {
                ui.label(RichText::new("w").weak())
                    .on_hover_text("played White");
            }
            Some(Side::Black) => {
                ui.label(RichText::new("b").weak())
                    .on_hover_text("played Black");
            }
            None => {}
        }
    });
}
