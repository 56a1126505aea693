//! Ratings (F10): the rating list (searchable, sortable, provisional ratings marked), a
//! player's history as a plot (the rating after each event with its deviation band), and
//! the rated events: marking a completed tournament rated with its date, taking one off,
//! and an event's rating report on screen, printable and as CSV.

use super::PageCtx;
use super::common::{self, LoadErrors};
use super::director::{Watch, file_stem, hint, write_export};
use super::files;
use crate::store::{
    Actor, EventRatingRow, RatingEvent, RatingHistoryRow, RatingRow, RegistryId, TournamentId,
};
use egui::{RichText, Ui};
use egui_extras::{Column, Size, StripBuilder, TableBuilder};
use egui_plot::{FilledArea, Legend, Line, Plot, PlotPoints, Points};
use ggdesk_core::export::print::{rating_report_page, sort_key};
use ggdesk_core::rating::list::{fmt2, fmt6, list_csv, report_csv};
use ggdesk_core::rating::{Date, ListRow, PROVISIONAL_DEVIATION};

/// Which part of the page is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    #[default]
    List,
    Events,
}

/// The column the list is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortBy {
    #[default]
    Rank,
    Name,
    Games,
    LastEvent,
}

#[derive(Debug, Clone, PartialEq)]
enum Cmd {
    Mark(TournamentId, Date),
    Unmark(TournamentId, String),
    Recompute,
    ExportList,
    ExportReport(TournamentId),
    PrintReport(TournamentId),
}

/// The Ratings page's own state.
#[derive(Default)]
pub struct RatingsPage {
    pub tab: Tab,
    pub list: Vec<RatingRow>,
    pub events: Vec<RatingEvent>,
    pub search: String,
    pub sort: SortBy,
    /// The player whose history is shown.
    pub selected: Option<RegistryId>,
    pub history: Vec<RatingHistoryRow>,
    /// The event whose report is shown.
    pub event: Option<TournamentId>,
    pub report: Vec<EventRatingRow>,
    /// The date typed for each event to mark rated.
    pub dates: std::collections::HashMap<TournamentId, String>,
    /// The reason typed for taking the chosen event off the list.
    pub reason: String,
    watch: Watch,
    load: LoadErrors,
    queued: Vec<Cmd>,
}

impl RatingsPage {
    fn reload(&mut self, cx: &mut PageCtx<'_>) {
        if !self.watch.stale(cx, None) {
            return;
        }
        let mut load = LoadErrors::default();
        self.list = load
            .check("the rating list", cx.store.rating_list())
            .unwrap_or_default();
        self.events = load
            .check("the tournaments", cx.store.rating_events())
            .unwrap_or_default();
        self.history = match self.selected {
            Some(p) => load
                .check("the player's history", cx.store.rating_history(p))
                .unwrap_or_default(),
            None => Vec::new(),
        };
        self.report = match self.event {
            Some(t) => load
                .check("the event's rating report", cx.store.event_ratings(t))
                .unwrap_or_default(),
            None => Vec::new(),
        };
        self.load = load;
    }

    /// The list rows the search and the sort show, in order.
    pub fn shown(&self) -> Vec<&RatingRow> {
        let needle = sort_key(self.search.trim());
        let mut rows: Vec<&RatingRow> = self
            .list
            .iter()
            .filter(|r| {
                needle.is_empty()
                    || sort_key(&r.standing.name).contains(&needle)
                    || sort_key(&r.federation_id).contains(&needle)
            })
            .collect();
        match self.sort {
            SortBy::Rank => {}
            SortBy::Name => rows.sort_by_key(|r| sort_key(&r.standing.name)),
            SortBy::Games => rows.sort_by_key(|r| std::cmp::Reverse(r.standing.games)),
            SortBy::LastEvent => {
                rows.sort_by_key(|r| std::cmp::Reverse(r.standing.last_event));
            }
        }
        rows
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        self.reload(cx);
        ui.horizontal(|ui| {
            ui.heading("Ratings");
            ui.selectable_value(&mut self.tab, Tab::List, "Rating list");
            ui.selectable_value(&mut self.tab, Tab::Events, "Rated events");
            ui.separator();
            if ui
                .button("Export list (CSV)")
                .on_hover_text("The list as ggdesk ratings prints it, into the exports folder")
                .clicked()
            {
                self.queued.push(Cmd::ExportList);
            }
            if ui
                .button("Recompute the list")
                .on_hover_text(
                    "Rates every rated event again from the first (the list is kept up to date \
                     by itself: this only confirms it)",
                )
                .clicked()
            {
                self.queued.push(Cmd::Recompute);
            }
        });
        if self.load.banner(ui) {
            return;
        }
        match self.tab {
            Tab::List => self.list_ui(ui),
            Tab::Events => self.events_ui(ui),
        }
        for cmd in std::mem::take(&mut self.queued) {
            self.apply(cmd, cx);
        }
    }

    fn list_ui(&mut self, ui: &mut Ui) {
        let rated = self.events.iter().filter(|e| e.rated.is_some()).count();
        hint(
            ui,
            &format!(
                "Glicko-2 over {rated} rated event{} in date order; games over the board only. \
                 P: provisional (deviation above {PROVISIONAL_DEVIATION:.0}). \
                 Click a name for the player's history.",
                if rated == 1 { "" } else { "s" }
            ),
        );
        ui.horizontal(|ui| {
            let l = ui.label("Search:");
            ui.add(
                egui::TextEdit::singleline(&mut self.search)
                    .hint_text("name or federation id")
                    .desired_width(220.0),
            )
            .labelled_by(l.id);
            let l = ui.label("Sort by:");
            egui::ComboBox::from_id_salt("ratings-sort")
                .selected_text(sort_name(self.sort))
                .show_ui(ui, |ui| {
                    for s in [SortBy::Rank, SortBy::Name, SortBy::Games, SortBy::LastEvent] {
                        ui.selectable_value(&mut self.sort, s, sort_name(s));
                    }
                })
                .response
                .labelled_by(l.id);
            ui.label(format!(
                "{} of {} shown",
                self.shown().len(),
                self.list.len()
            ));
        });
        if self.list.is_empty() {
            ui.add_space(12.0);
            ui.label(
                "No player is rated yet. Mark completed tournaments rated on the Rated events \
                 tab; players with a federation id are rated from their games.",
            );
            return;
        }
        let width = ui.available_width();
        let list_width = if self.selected.is_some() {
            (width * 0.55).max(560.0)
        } else {
            width
        };
        let mut clicked = None;
        if self.selected.is_some() {
            StripBuilder::new(ui)
                .size(Size::exact(list_width))
                .size(Size::exact(12.0))
                .size(Size::remainder())
                .horizontal(|mut strip| {
                    strip.cell(|ui| clicked = self.table_ui(ui));
                    strip.cell(|ui| {
                        ui.separator();
                    });
                    strip.cell(|ui| self.history_ui(ui));
                });
        } else {
            clicked = self.table_ui(ui);
        }
        if let Some(p) = clicked {
            self.selected = if self.selected == Some(p) {
                None
            } else {
                Some(p)
            };
            self.watch.force();
        }
    }

    /// The list's table; returns the player whose name was clicked.
    fn table_ui(&self, ui: &mut Ui) -> Option<RegistryId> {
        let rows = self.shown();
        let mut clicked = None;
        TableBuilder::new(ui)
            .id_salt("rating-list")
            .striped(true)
            .column(Column::exact(48.0))
            .column(Column::exact(100.0))
            .column(Column::remainder().at_least(160.0))
            .column(Column::exact(76.0))
            .column(Column::exact(76.0))
            .column(Column::exact(52.0))
            .column(Column::exact(52.0))
            .column(Column::exact(96.0))
            .header(24.0, |mut h| {
                common::header_cells(
                    &mut h,
                    &[
                        "Rank",
                        "Fed. id",
                        "Name",
                        "Rating",
                        "Deviation",
                        "Games",
                        "Events",
                        "Last event",
                    ],
                );
            })
            .body(|body| {
                body.rows(24.0, rows.len(), |mut row| {
                    let r = rows[row.index()];
                    let s = &r.standing;
                    row.col(|ui| {
                        ui.label(RichText::new(r.rank.to_string()).strong());
                    });
                    row.col(|ui| {
                        ui.label(&r.federation_id);
                    });
                    row.col(|ui| {
                        let chosen = self.selected == Some(r.player);
                        if ui
                            .selectable_label(chosen, &s.name)
                            .on_hover_text("Show this player's history")
                            .clicked()
                        {
                            clicked = Some(r.player);
                        }
                    });
                    row.col(|ui| {
                        ui.horizontal(|ui| {
                            ui.label(RichText::new(fmt2(s.rating.rating)).strong());
                            if s.rating.is_provisional() {
                                ui.label(RichText::new("P").color(common::AMBER).strong())
                                    .on_hover_text(format!(
                                        "Provisional: deviation above {PROVISIONAL_DEVIATION:.0}"
                                    ));
                            }
                        });
                    });
                    row.col(|ui| {
                        ui.label(fmt2(s.rating.deviation))
                            .on_hover_text(format!("volatility {}", fmt6(s.rating.volatility)));
                    });
                    row.col(|ui| {
                        ui.label(s.games.to_string());
                    });
                    row.col(|ui| {
                        ui.label(s.events.to_string());
                    });
                    row.col(|ui| {
                        ui.label(s.last_event.map_or_else(|| "-".into(), |d| d.to_string()));
                    });
                });
            });
        clicked
    }

    /// The chosen player's history: a plot of the rating after each event with its
    /// deviation band, and the events in a small table.
    fn history_ui(&self, ui: &mut Ui) {
        let Some(row) = self.list.iter().find(|r| Some(r.player) == self.selected) else {
            return;
        };
        ui.label(
            RichText::new(format!("History of {}", row.standing.name))
                .heading()
                .strong(),
        );
        if self.history.is_empty() {
            ui.label("No rated game yet: the first rating is the initial list's.");
            return;
        }
        let xs: Vec<f64> = self
            .history
            .iter()
            .map(|h| h.date.days_since_epoch() as f64)
            .collect();
        let after: Vec<f64> = self.history.iter().map(|h| h.rated.after.rating).collect();
        let low: Vec<f64> = self
            .history
            .iter()
            .map(|h| h.rated.after.rating - h.rated.after.deviation)
            .collect();
        let high: Vec<f64> = self
            .history
            .iter()
            .map(|h| h.rated.after.rating + h.rated.after.deviation)
            .collect();
        let points: Vec<[f64; 2]> = xs.iter().zip(&after).map(|(x, y)| [*x, *y]).collect();
        Plot::new("rating-history")
            .height(260.0)
            .legend(Legend::default().position(egui_plot::Corner::RightBottom))
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .x_axis_formatter(|mark, _| {
                Date::from_days_since_epoch(mark.value.round() as i64)
                    .map(|d| d.to_string())
                    .unwrap_or_default()
            })
            .label_formatter(|hover| {
                let (egui_plot::HoverPosition::NearDataPoint { position, .. }
                | egui_plot::HoverPosition::Elsewhere { position }) = hover;
                let date = Date::from_days_since_epoch(position.x.round() as i64)
                    .map_or_else(String::new, |d| d.to_string());
                Some(format!("{date}\n{:.0}", position.y))
            })
            .show(ui, |plot| {
                plot.add(
                    FilledArea::new("rating ± deviation", &xs, &low, &high)
                        .fill_color(common::BLUE.gamma_multiply(0.35))
                        .stroke(egui::Stroke::new(1.0, common::BLUE.gamma_multiply(0.6))),
                );
                plot.line(
                    Line::new("rating", PlotPoints::from(points.clone()))
                        .width(2.0)
                        .color(common::AMBER),
                );
                plot.points(Points::new("after each event", PlotPoints::from(points)).radius(4.0));
            });
        TableBuilder::new(ui)
            .id_salt("rating-history-table")
            .striped(true)
            .column(Column::exact(96.0))
            .column(Column::remainder().at_least(120.0))
            .column(Column::exact(70.0))
            .column(Column::exact(70.0))
            .column(Column::exact(60.0))
            .column(Column::exact(50.0))
            .header(22.0, |mut h| {
                common::header_cells(
                    &mut h,
                    &["Date", "Event", "Before", "After", "Dev.", "Score"],
                );
            })
            .body(|body| {
                body.rows(22.0, self.history.len(), |mut row| {
                    let h = &self.history[self.history.len() - 1 - row.index()];
                    row.col(|ui| {
                        ui.label(h.date.to_string());
                    });
                    row.col(|ui| {
                        ui.label(&h.event);
                    });
                    row.col(|ui| {
                        ui.label(fmt2(h.rated.before.rating));
                    });
                    row.col(|ui| {
                        ui.label(RichText::new(fmt2(h.rated.after.rating)).strong());
                    });
                    row.col(|ui| {
                        ui.label(fmt2(h.rated.after.deviation));
                    });
                    row.col(|ui| {
                        ui.label(format!("{}/{}", h.rated.score, h.rated.games));
                    });
                });
            });
    }

    fn events_ui(&mut self, ui: &mut Ui) {
        hint(
            ui,
            "A completed tournament becomes a rated event with the date of its last day of play; \
             the list is recomputed at once, and again whenever one of its results changes.",
        );
        let mut chosen = None;
        StripBuilder::new(ui)
            .size(Size::exact(600.0))
            .size(Size::exact(12.0))
            .size(Size::remainder())
            .horizontal(|mut strip| {
                strip.cell(|ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("rated-events")
                        .show(ui, |ui| {
                            for e in self.events.clone() {
                                if self.event_row(ui, &e) {
                                    chosen = Some(e.id);
                                }
                                ui.separator();
                            }
                        });
                });
                strip.cell(|ui| {
                    ui.separator();
                });
                strip.cell(|ui| self.report_ui(ui));
            });
        if let Some(t) = chosen {
            self.event = Some(t);
            self.reason.clear();
            self.watch.force();
        }
    }

    /// One tournament: its state and what can be done; true if its report was asked for.
    fn event_row(&mut self, ui: &mut Ui, e: &RatingEvent) -> bool {
        let name = super::director::display_name(e.id, &e.name);
        let mut show = false;
        ui.horizontal(|ui| {
            ui.label(RichText::new(&name).strong());
            match (&e.rated, &e.not_ready) {
                (Some(d), _) => {
                    common::badge(ui, &format!("RATED {d}"), common::BLUE);
                    if ui.button(format!("Report of {name}")).clicked() {
                        show = true;
                    }
                }
                (None, Some(why)) => {
                    ui.label(RichText::new(format!("not complete: {why}")).weak());
                }
                (None, None) => {
                    common::badge(ui, "COMPLETE", common::GREEN);
                }
            }
        });
        if e.not_ready.is_none() {
            ui.horizontal(|ui| {
                let text = self.dates.entry(e.id).or_insert_with(|| {
                    e.rated
                        .map(|d| d.to_string())
                        .or_else(|| e.file_date.clone())
                        .unwrap_or_default()
                });
                let l = ui.label(format!("Last day of play of {name}:"));
                ui.add(
                    egui::TextEdit::singleline(text)
                        .hint_text("YYYY-MM-DD")
                        .desired_width(100.0),
                )
                .labelled_by(l.id);
                let parsed = Date::parse(text.trim());
                let label = if e.rated.is_some() {
                    format!("Change the date of {name}")
                } else {
                    format!("Rate {name}")
                };
                let button = ui.add_enabled(parsed.is_ok(), egui::Button::new(label));
                if let Err(why) = &parsed
                    && !text.trim().is_empty()
                {
                    ui.label(RichText::new(why.to_string()).color(common::RED));
                }
                if button.clicked()
                    && let Ok(d) = parsed
                {
                    self.queued.push(Cmd::Mark(e.id, d));
                }
            });
        }
        show
    }

    /// The chosen event's rating report, with printing, CSV and taking it off the list.
    fn report_ui(&mut self, ui: &mut Ui) {
        let Some(tid) = self.event else {
            ui.label("Choose a rated event's report on the left.");
            return;
        };
        let Some(e) = self.events.iter().find(|e| e.id == tid).cloned() else {
            return;
        };
        let Some(date) = e.rated else {
            ui.label("This event is no longer rated.");
            return;
        };
        let name = super::director::display_name(e.id, &e.name);
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(format!("Rating report: {name}, {date}"))
                    .heading()
                    .strong(),
            );
            if ui.button("Print report").clicked() {
                self.queued.push(Cmd::PrintReport(tid));
            }
            if ui.button("Export report (CSV)").clicked() {
                self.queued.push(Cmd::ExportReport(tid));
            }
        });
        TableBuilder::new(ui)
            .id_salt("rating-report")
            .striped(true)
            .max_scroll_height(360.0)
            .column(Column::remainder().at_least(150.0))
            .column(Column::exact(70.0))
            .column(Column::exact(78.0))
            .column(Column::exact(70.0))
            .column(Column::exact(50.0))
            .column(Column::exact(50.0))
            .column(Column::exact(70.0))
            .header(22.0, |mut h| {
                common::header_cells(
                    &mut h,
                    &[
                        "Name", "Before", "After", "Change", "Games", "Score", "Expected",
                    ],
                );
            })
            .body(|body| {
                body.rows(22.0, self.report.len(), |mut row| {
                    let r = &self.report[row.index()].rated;
                    row.col(|ui| {
                        ui.label(&r.name);
                    });
                    row.col(|ui| {
                        ui.label(fmt2(r.before.rating));
                    });
                    row.col(|ui| {
                        let p = if r.after.is_provisional() { " P" } else { "" };
                        ui.label(RichText::new(format!("{}{p}", fmt2(r.after.rating))).strong());
                    });
                    row.col(|ui| {
                        let c = r.change();
                        let color = if c >= 0.0 { common::GREEN } else { common::RED };
                        let sign = if c >= 0.0 { "+" } else { "" };
                        ui.label(RichText::new(format!("{sign}{}", fmt2(c))).color(color));
                    });
                    row.col(|ui| {
                        ui.label(r.games.to_string());
                    });
                    row.col(|ui| {
                        ui.label(r.score.to_string());
                    });
                    row.col(|ui| {
                        ui.label(fmt2(r.expected));
                    });
                });
            });
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            let l = ui.label("Reason to take it off the list:");
            ui.add(egui::TextEdit::singleline(&mut self.reason).desired_width(220.0))
                .labelled_by(l.id);
            let ok = !self.reason.trim().is_empty();
            if ui
                .add_enabled(ok, egui::Button::new(format!("Take {name} off the list")))
                .clicked()
            {
                self.queued
                    .push(Cmd::Unmark(tid, self.reason.trim().to_string()));
            }
        });
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>) {
        let actor = Actor::director();
        match cmd {
            Cmd::Mark(tid, date) => {
                let r = cx.store.mark_rated(tid, date, &actor);
                if cx
                    .notices
                    .report(
                        r,
                        &format!("Rated on {date}; the rating list is recomputed"),
                    )
                    .is_some()
                {
                    self.event = Some(tid);
                }
            }
            Cmd::Unmark(tid, reason) => {
                let r = cx.store.unmark_rated(tid, &reason, &actor);
                if cx
                    .notices
                    .report(
                        r,
                        "Taken off the rated events; the rating list is recomputed",
                    )
                    .is_some()
                {
                    self.reason.clear();
                    self.dates.remove(&tid);
                }
            }
            Cmd::Recompute => {
                let r = cx.store.rebuild_ratings(&actor);
                if let Some(n) = cx.notices.report(r, "") {
                    cx.notices.info(if n == 0 {
                        "The list is recomputed: it was up to date".to_string()
                    } else {
                        format!("The list is recomputed: {n} rating(s) changed")
                    });
                }
            }
            Cmd::ExportList => {
                let rows: Vec<ListRow<String>> = self
                    .list
                    .iter()
                    .map(|r| ListRow {
                        rank: r.rank,
                        key: r.federation_id.clone(),
                        standing: r.standing.clone(),
                    })
                    .collect();
                let r = write_export(cx.store, "rating-list.csv", &list_csv(&rows));
                if let Some(file) = cx.notices.report(r, "") {
                    files::written(cx.notices, "Rating list (CSV)", &file);
                }
            }
            Cmd::ExportReport(tid) | Cmd::PrintReport(tid) => {
                let Some(e) = self.events.iter().find(|e| e.id == tid) else {
                    return;
                };
                let date = e.rated.map(|d| d.to_string()).unwrap_or_default();
                let stem = format!("{}-rating-report", file_stem(&e.name));
                let rows: Vec<(String, ggdesk_core::rating::PlayerEvent)> = self
                    .report
                    .iter()
                    .map(|r| (r.federation_id.clone(), r.rated.clone()))
                    .collect();
                if matches!(cmd, Cmd::ExportReport(_)) {
                    let r = write_export(cx.store, &format!("{stem}.csv"), &report_csv(&rows));
                    if let Some(file) = cx.notices.report(r, "") {
                        files::written(cx.notices, "Rating report (CSV)", &file);
                    }
                } else {
                    let r = cx
                        .store
                        .tournament_details(tid)
                        .map_err(|e| e.to_string())
                        .and_then(|d| {
                            write_export(
                                cx.store,
                                &format!("{stem}.html"),
                                &rating_report_page(&d, &date, &rows),
                            )
                        });
                    if let Some(file) = cx.notices.report(r, "") {
                        files::print_page(cx.notices, cx.launcher, "Rating report", &file);
                    }
                }
            }
        }
        self.watch.force();
    }
}

fn sort_name(s: SortBy) -> &'static str {
    match s {
        SortBy::Rank => "rank",
        SortBy::Name => "name",
        SortBy::Games => "games played",
        SortBy::LastEvent => "last event",
    }
}
