//! The overview of the Tables page: one card per table of the round in play (and the
//! practice tables), each with what its table is doing.

use super::{
    Card, TableCmd, TablesPage, capitalise, move_clock_color, oversteps_marks, phase_badge,
};
use crate::desk::{LiveTable, Phase};
use crate::store::{GameMode, TableTimers};
use crate::ui::PageCtx;
use crate::ui::common::{self, badge, fmt_clock, fmt_hms};
use egui::{Color32, RichText, Ui};
use ggdesk_core::rules::Side;

/// The width of a table's card on the overview.
const CARD_WIDTH: f32 = 262.0;

/// What the counts above the cards say.
#[derive(Default)]
struct Counts {
    playing: usize,
    finished: usize,
    adjudication: usize,
    not_opened: usize,
    setting_up: usize,
}

impl TablesPage {
    pub(super) fn overview(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let mut counts = Counts::default();
        for card in &self.cards {
            match card
                .game
                .and_then(|g| self.tables.tables.get(&g))
                .map(|t| t.phase(cx.now_ms))
            {
                Some(p) if p.is_live() => counts.playing += 1,
                Some(Phase::Finished(_)) => counts.finished += 1,
                Some(Phase::AdjudicationPending) => counts.adjudication += 1,
                Some(Phase::Setup | Phase::Ready) => counts.setting_up += 1,
                // A result entered at the director's desk: the table is done.
                None if card
                    .board
                    .as_ref()
                    .is_some_and(|b| b.result != ggdesk_core::tournament::GameResult::Pending) =>
                {
                    counts.finished += 1
                }
                _ => counts.not_opened += 1,
            }
        }
        self.overview_header(ui, cx, &counts);
        ui.label(
            RichText::new(
                "Click a table to arbitrate it. PageUp/PageDown switch tables, Esc comes back here.",
            )
            .weak(),
        );
        ui.add_space(4.0);
        let now = cx.now_ms;
        let round = self.round;
        let connected = cx.connected;
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                // As many cards per row as the width takes.
                let per_row = ((ui.available_width() + 8.0) / (CARD_WIDTH + 8.0 + 18.0))
                    .floor()
                    .max(1.0) as usize;
                ui.spacing_mut().item_spacing = egui::vec2(8.0, 8.0);
                for row in self.cards.chunks(per_row) {
                    ui.horizontal(|ui| {
                        for card in row {
                            let table = card.game.and_then(|g| self.tables.tables.get(&g));
                            let mut title = card_title(card, table);
                            // On a server: which station runs the table.
                            if let Some(station) = card
                                .table_no
                                .zip(*cx.tournament)
                                .and_then(|(n, t)| cx.table_stations.get(&(t, n)))
                            {
                                title = format!("{title} · {station}");
                            }
                            let timers = card.game.and_then(|g| self.timers.get(&g)).copied();
                            let damaged = card.game.and_then(|g| self.damaged.get(&g));
                            if let Some(damaged) = damaged {
                                damaged_card_ui(ui, card, &title, damaged);
                            } else if let Some(cmd) =
                                card_ui(ui, card, &title, table, timers, now, (round, connected))
                            {
                                self.queued.push(cmd);
                            }
                        }
                    });
                }
                if self.cards.is_empty() {
                    ui.label("No tables yet.");
                }
            });
    }

    fn overview_header(&mut self, ui: &mut Ui, cx: &PageCtx<'_>, counts: &Counts) {
        ui.horizontal(|ui| {
            ui.heading("Tables");
            match (&self.tournament_name, self.round, *cx.tournament) {
                (Some(name), Some(r), _) => {
                    ui.label(RichText::new(format!("{name} — round {r}")).strong());
                }
                (Some(name), None, _) => {
                    ui.label(if cx.my_tables.is_some() {
                        format!("{name}: no round published yet (the director publishes it)")
                    } else {
                        format!("{name}: no round published yet (publish one on the Rounds page)")
                    });
                }
                (None, _, Some(_)) => {
                    ui.label("The chosen tournament: no round published yet");
                }
                (None, _, None) => {
                    ui.label("No tournament chosen: practice tables only");
                }
            }
            ui.separator();
            badge(ui, &format!("{} playing", counts.playing), common::GREEN);
            badge(ui, &format!("{} finished", counts.finished), common::BLUE);
            if counts.adjudication > 0 {
                badge(
                    ui,
                    &format!("{} adjudication", counts.adjudication),
                    common::AMBER,
                );
            }
            if counts.setting_up > 0 {
                badge(
                    ui,
                    &format!("{} setting up", counts.setting_up),
                    common::BLUE,
                );
            }
            badge(
                ui,
                &format!("{} not opened", counts.not_opened),
                Color32::GRAY,
            );
            // Practice tables and imported records are the director's desk's: a station
            // creates only the games of its tables' boards.
            if cx.my_tables.is_some() {
                return;
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui
                    .button("Import a game record…")
                    .on_hover_text("A ggdesk-record/1 or ggdesk-physical/1 file: an archive, or a game to adjudicate here")
                    .clicked()
                {
                    self.picker = Some(crate::ui::files::FilePicker::new(
                        "Import a game record",
                        cx.last_folder.as_deref(),
                        &["json"],
                    ));
                }
                if ui.button("New physical-board table").clicked() {
                    self.queued.push(TableCmd::CreatePractice {
                        mode: GameMode::Physical,
                    });
                }
                let hint = if cx.tournament.is_some() {
                    "A table outside the rounds, under the chosen tournament's rules"
                } else {
                    "A table outside any tournament, under the GGF rules"
                };
                if ui
                    .button("New practice table")
                    .on_hover_text(hint)
                    .clicked()
                {
                    self.queued.push(TableCmd::CreatePractice {
                        mode: GameMode::Arbitrated,
                    });
                }
            });
        });
    }
}

/// A card's title: its table, or what the game is.
fn card_title(card: &Card, table: Option<&LiveTable>) -> String {
    match card.table_no {
        Some(n) => format!("Table {n}"),
        None => match table.filter(|t| t.stored.meta.imported) {
            Some(_) => format!("Imported game {}", card.game.map_or(0, |g| g.0)),
            None => format!("Practice {}", card.game.map_or(0, |g| g.0)),
        },
    }
}

/// The card of a table whose stored game cannot be read: it says so and what is wrong, and
/// opens nothing (the other tables go on as usual).
fn damaged_card_ui(ui: &mut Ui, card: &Card, title: &str, damaged: &str) {
    egui::Frame::group(ui.style())
        .inner_margin(8.0)
        .corner_radius(6.0)
        .stroke(egui::Stroke::new(1.5, common::RED))
        .show(ui, |ui| {
            ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                ui.set_width(CARD_WIDTH);
                ui.set_height(112.0);
                ui.horizontal(|ui| {
                    ui.label(RichText::new(title).strong().size(17.0));
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        badge(ui, "DAMAGED", common::RED);
                    });
                });
                common::cut_label(ui, format!("{}  vs  {}", card.names.0, card.names.1));
                ui.label(
                    RichText::new(format!(
                        "This table's stored game cannot be read: {damaged}. The chief arbiter \
                         decides; the other tables go on."
                    ))
                    .color(common::RED),
                );
            });
        });
}

/// One card of the overview. Returns a command when clicked.
fn card_ui(
    ui: &mut Ui,
    card: &Card,
    title: &str,
    table: Option<&LiveTable>,
    timers: Option<TableTimers>,
    now: i64,
    (round, connected): (Option<ggdesk_core::tournament::RoundNo>, bool),
) -> Option<TableCmd> {
    let mut cmd = None;
    let phase = table.map(|t| t.phase(now));
    let frame = egui::Frame::group(ui.style())
        .inner_margin(8.0)
        .corner_radius(6.0);
    let response = frame
        .show(ui, |ui| {
            // The cards flow in a wrapping row; each card's own lines stack.
            ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                ui.set_width(CARD_WIDTH);
                ui.set_height(112.0);
                ui.horizontal(|ui| {
                    ui.label(RichText::new(title).strong().size(17.0));
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        match phase {
                            Some(p) => {
                                let (text, color) = phase_badge(p);
                                badge(ui, &text, color);
                            }
                            // No game at the desk, but a result entered by hand: the board is
                            // decided, not waiting.
                            None if hand_result(card).is_some() => {
                                badge(ui, "BY HAND", common::BLUE);
                            }
                            None => {
                                badge(ui, "NO GAME YET", Color32::GRAY);
                            }
                        }
                    });
                });
                // One line, whatever the names: the cards' lines stay level.
                common::cut_label(ui, format!("{}  vs  {}", card.names.0, card.names.1));
                if let Some(c) = card_lines(ui, card, table, timers, phase, now, (round, connected))
                {
                    cmd = Some(c);
                }
            });
        })
        .response;
    if let Some(id) = card.game {
        let click = ui.interact(
            response.rect,
            ui.scope_id().with(("card", id.0)),
            egui::Sense::click(),
        );
        click.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Button, true, format!("Open {title}"))
        });
        if click.clicked() && cmd.is_none() {
            cmd = Some(TableCmd::Open(id));
        }
    }
    cmd
}

/// The lines of a card under its players: clocks, setups, or how to start the table.
fn card_lines(
    ui: &mut Ui,
    card: &Card,
    table: Option<&LiveTable>,
    timers: Option<TableTimers>,
    phase: Option<Phase>,
    now: i64,
    (round, connected): (Option<ggdesk_core::tournament::RoundNo>, bool),
) -> Option<TableCmd> {
    match (table, table.and_then(|t| t.derived_at(now))) {
        (Some(t), Some(g)) if t.started() => {
            let c = g.clock();
            let limit = g.settings().oversteps_to_lose;
            let move_left = c.move_remaining_ns();
            let color = move_clock_color(ui, move_left);
            // Four lines on every card, whatever the table does, so the cards line up.
            ui.horizontal(|ui| match phase {
                Some(Phase::Finished(o)) => {
                    ui.label(o.reason().describe());
                }
                Some(Phase::AdjudicationPending) => {
                    ui.label("reading sheets awaited");
                }
                // The thirty-move rule stopped the clocks: no clock runs while the arbiter
                // counts.
                Some(Phase::ThirtyCountPending) => {
                    ui.label("clocks stopped: thirty-move counts awaited");
                }
                _ => {
                    ui.label(format!("{} to move", capitalise(g.to_move().name())));
                    ui.label(
                        RichText::new(fmt_clock(move_left))
                            .monospace()
                            .strong()
                            .color(color)
                            .size(17.0),
                    );
                }
            });
            ui.label(format!(
                "W {} B {} · {} left · {} move{}",
                oversteps_marks(c.oversteps().white, limit),
                oversteps_marks(c.oversteps().black, limit),
                fmt_hms(c.game_remaining_ns()),
                g.plies(),
                if g.plies() == 1 { "" } else { "s" }
            ));
            None
        }
        (Some(t), _) => {
            if t.mode() == GameMode::Physical {
                ui.label("Physical board: clocks not started");
            } else {
                let placed = |s: Side| t.stored.setup[s].as_ref().map_or(0, |x| x.placements.len());
                ui.label(format!(
                    "Setups: White {}/21, Black {}/21",
                    placed(Side::White),
                    placed(Side::Black)
                ));
            }
            let over = timers.and_then(|tm| {
                let start = tm.setup_started_at?;
                let limit_ms = t.stored.meta.rules.setup_limit_ns / 1_000_000;
                (now > start + limit_ms && tm.setup_overrun_at.is_none()).then_some(())
            });
            if over.is_some() {
                badge(ui, "SETUP TIME OVER", common::RED);
            }
            None
        }
        (None, _) => board_actions(ui, card, round, connected),
    }
}

/// The result of a board with no game at the desk, entered by hand at the director's desk
/// (on the Rounds page): `None` while it is pending.
fn hand_result(card: &Card) -> Option<ggdesk_core::tournament::GameResult> {
    card.board
        .as_ref()
        .filter(|b| b.result != ggdesk_core::tournament::GameResult::Pending)
        .map(|b| b.result)
}

/// A board with no game yet: its result if the director entered one, else the two ways to
/// start it (offered only while the desk is connected: nothing could be saved otherwise).
fn board_actions(
    ui: &mut Ui,
    card: &Card,
    round: Option<ggdesk_core::tournament::RoundNo>,
    connected: bool,
) -> Option<TableCmd> {
    if let Some(result) = hand_result(card) {
        // A result entered at the director's desk: nothing to arbitrate.
        let words = crate::ui::director::result_long(result);
        ui.label(format!("Result entered by hand: {words}"));
        return None;
    }
    let (Some(board), Some(round)) = (&card.board, round) else {
        return None;
    };
    let mut cmd = None;
    ui.add_enabled_ui(connected, |ui| {
        ui.horizontal(|ui| {
            if ui.button("Arbitrate here").clicked() {
                cmd = Some(TableCmd::CreateForBoard {
                    board: board.clone(),
                    round,
                    mode: GameMode::Arbitrated,
                });
            }
            if ui
                .button("Physical board")
                .on_hover_text("Played on a real board: the desk keeps the clocks and the tally")
                .clicked()
            {
                cmd = Some(TableCmd::CreateForBoard {
                    board: board.clone(),
                    round,
                    mode: GameMode::Physical,
                });
            }
        })
    });
    cmd
}
