//! Standings (F6): the standings with every tie-break column, opening on the last complete
//! round (a round still in play counts only when chosen, and is then labelled
//! provisional), the cross-table, CSV exports through the core's writers and printable
//! pages.

use super::{Watch, file_stem, hint, need_tournament, write_export};
use crate::store::TournamentId;
use crate::ui::PageCtx;
use crate::ui::common::{self, LoadErrors};
use crate::ui::files;
use egui::{Key, Modifiers, RichText, Ui};
use egui_extras::{Column, TableBuilder};
use ggdesk_core::export::print::{self, CROSS_LEGEND, cross_cell, tiebreak_title};
use ggdesk_core::export::{crosstable_csv, standings_csv};
use ggdesk_core::rules::Side;
use ggdesk_core::tournament::{Standings, Tournament, standings};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmd {
    ExportStandings,
    ExportCrosstable,
    PrintStandings,
    PrintCrosstable,
}

/// The Standings page's own state.
#[derive(Default)]
pub struct StandingsPage {
    pub tournament: Option<Tournament>,
    pub standings: Option<Standings>,
    /// The rounds counted; `None` follows the last complete round.
    pub after: Option<usize>,
    pub crosstable: bool,
    watch: Watch,
    load: LoadErrors,
    tid: Option<TournamentId>,
    queued: Vec<Cmd>,
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
        self.tournament = load.check("the tournament", cx.store.load_tournament(tid));
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
        self.reload(cx, tid);
        if self.load.banner(ui) {
            return;
        }
        if !cx.typing && ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::E)) {
            self.queued.push(Cmd::ExportStandings);
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
        }
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
