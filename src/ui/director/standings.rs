//! Standings (F6): the live standings with every tie-break column, after the last round or
//! any earlier one, the cross-table, and CSV exports through the core's writers.

use super::tournaments::tiebreak_words;
use super::{Watch, file_stem, hint, need_tournament, write_export};
use crate::ui::PageCtx;
use crate::ui::common;
use egui::{Key, Modifiers, RichText, Ui};
use egui_extras::{Column, TableBuilder};
use ggdesk_core::export::{crosstable_cell, crosstable_csv, standings_csv};
use ggdesk_core::tournament::{Standings, Tournament, standings};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmd {
    ExportStandings,
    ExportCrosstable,
}

/// The Standings page's own state.
#[derive(Default)]
pub struct StandingsPage {
    pub tournament: Option<Tournament>,
    pub standings: Option<Standings>,
    /// The rounds counted; `None` follows the newest.
    pub after: Option<usize>,
    pub crosstable: bool,
    watch: Watch,
    tid: Option<i64>,
    queued: Vec<Cmd>,
}

impl StandingsPage {
    fn reload(&mut self, cx: &mut PageCtx<'_>, tid: i64) {
        if self.tid != Some(tid) {
            self.tid = Some(tid);
            self.after = None;
            self.watch.force();
        }
        if !self.watch.stale(cx.store, Some(tid), cx.now_ms) {
            return;
        }
        match cx.store.load_tournament(tid) {
            Ok(t) => {
                let n = self.after.unwrap_or(t.rounds().len()).min(t.rounds().len());
                self.standings = Some(standings(&t, n));
                self.tournament = Some(t);
            }
            Err(e) => {
                cx.notices.error(e.to_string());
                self.tournament = None;
                self.standings = None;
            }
        }
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(tid) = need_tournament(ui, cx, "Standings") else {
            return;
        };
        self.reload(cx, tid);
        if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::E)) {
            self.queued.push(Cmd::ExportStandings);
        }
        let Some(t) = self.tournament.clone() else {
            return;
        };
        let rounds = t.rounds().len();
        let after = self.after.unwrap_or(rounds).min(rounds);
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
                .show_ui(ui, |ui| {
                    for r in (0..=rounds).rev() {
                        let text = if r == rounds {
                            format!("{r} (latest)")
                        } else {
                            r.to_string()
                        };
                        ui.selectable_value(&mut choice, r, text);
                    }
                })
                .response
                .labelled_by(l.id);
            if choice != after {
                self.after = (choice != rounds).then_some(choice);
                self.watch.force();
            }
            let complete = t.is_round_complete(after);
            if after > 0 && !complete {
                common::badge(ui, "round in play: pending games count 0", common::AMBER);
            }
            ui.separator();
            ui.checkbox(&mut self.crosstable, "Cross-table");
            if ui
                .button("Export standings CSV")
                .on_hover_text("Ctrl+E; written into the exports folder beside the database")
                .clicked()
            {
                self.queued.push(Cmd::ExportStandings);
            }
            if ui.button("Export cross-table CSV").clicked() {
                self.queued.push(Cmd::ExportCrosstable);
            }
        });
        if let Some(s) = &self.standings {
            let names: Vec<&str> = s.tiebreaks.iter().map(|t| tiebreak_words(*t)).collect();
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
            self.crosstable_ui(ui, &t, after);
        } else {
            self.table_ui(ui, &t);
        }
        for cmd in std::mem::take(&mut self.queued) {
            self.apply(cmd, cx, &t, after);
        }
    }

    fn table_ui(&self, ui: &mut Ui, t: &Tournament) {
        let Some(s) = &self.standings else { return };
        let mut builder = TableBuilder::new(ui)
            .id_salt("standings-table")
            .striped(true)
            .column(Column::exact(44.0))
            .column(Column::exact(44.0))
            .column(Column::remainder().at_least(180.0))
            .column(Column::exact(60.0))
            .column(Column::exact(60.0));
        for _ in &s.tiebreaks {
            builder = builder.column(Column::exact(110.0));
        }
        builder
            .header(22.0, |mut h| {
                for title in ["Rank", "No", "Name", "Rating", "Points"] {
                    h.col(|ui| {
                        ui.label(RichText::new(title).strong());
                    });
                }
                for tb in &s.tiebreaks {
                    h.col(|ui| {
                        ui.label(RichText::new(tiebreak_words(*tb)).strong());
                    });
                }
            })
            .body(|body| {
                body.rows(22.0, s.rows.len(), |mut row| {
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
                        ui.label(text);
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

    fn crosstable_ui(&self, ui: &mut Ui, t: &Tournament, after: usize) {
        let Some(s) = &self.standings else { return };
        hint(
            ui,
            "W win, L loss, D draw, + forfeit win, - forfeit loss, ? pending, then the opponent's number; BYE, ABS absent.",
        );
        let entries = t.entries(after);
        let mut builder = TableBuilder::new(ui)
            .id_salt("crosstable")
            .striped(true)
            .column(Column::exact(44.0))
            .column(Column::exact(44.0))
            .column(Column::exact(200.0))
            .column(Column::exact(60.0));
        for _ in 0..after {
            builder = builder.column(Column::exact(56.0));
        }
        builder
            .header(22.0, |mut h| {
                for title in ["Rank", "No", "Name", "Points"] {
                    h.col(|ui| {
                        ui.label(RichText::new(title).strong());
                    });
                }
                for r in 1..=after {
                    h.col(|ui| {
                        ui.label(RichText::new(format!("R{r}")).strong());
                    });
                }
            })
            .body(|body| {
                body.rows(22.0, s.rows.len(), |mut row| {
                    let r = &s.rows[row.index()];
                    row.col(|ui| {
                        ui.label(r.rank.to_string());
                    });
                    row.col(|ui| {
                        ui.label(r.id.to_string());
                    });
                    row.col(|ui| {
                        ui.label(&r.name);
                    });
                    row.col(|ui| {
                        ui.label(RichText::new(r.score.to_string()).strong());
                    });
                    let cells = t.player_index(r.id).map(|i| &entries[i]);
                    for k in 0..after {
                        row.col(|ui| {
                            if let Some(e) = cells.and_then(|c| c.get(k)) {
                                ui.label(RichText::new(crosstable_cell(e)).monospace());
                            }
                        });
                    }
                });
            });
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, t: &Tournament, after: usize) {
        let stem = file_stem(t.name());
        let result = match cmd {
            Cmd::ExportStandings => {
                let s = standings(t, after);
                write_export(
                    cx.store,
                    &format!("{stem}-standings-after-round-{after}.csv"),
                    &standings_csv(&s),
                )
            }
            Cmd::ExportCrosstable => write_export(
                cx.store,
                &format!("{stem}-crosstable.csv"),
                &crosstable_csv(t),
            ),
        };
        if let Some(file) = cx.notices.report(result, "") {
            cx.notices.info(format!("Written {}", file.display()));
        }
    }
}
