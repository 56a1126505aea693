//! A table played on a real board with a human arbiter. The desk runs the clocks and
//! counts moves ("Move made", Enter), resolves each challenge from the two ranks the arbiter
//! saw, keeps each side's tally of remaining pieces, asks for the counts across the midpoint
//! at the thirty-move rule, and takes the arbiter's declarations of a perpetual or a Flag
//! through. Adjudication reads each remaining piece of the tally.

use super::{Cap, StartGate, TableCmd, TableLabel, TablesPage, capitalise};
use crate::desk::{LiveTable, Phase};
use crate::store::GameId;
use crate::ui::common::{self};
use egui::{RichText, Ui};
use ggdesk_core::adjudication::ReadingVerdict;
use ggdesk_core::physical_record::{self, TallySheet};
use ggdesk_core::rules::{GameState, PhysicalEvent, PhysicalGame, Rank, Side};

/// The physical view's own state between frames.
#[derive(Debug, Default)]
pub struct PhysicalState {
    pub attacker: Option<Rank>,
    pub defender: Option<Rank>,
    pub across_white: String,
    pub across_black: String,
    pub black_reads: bool,
    pub picked: Option<usize>,
}

fn physical(cmd_game: GameId, event: PhysicalEvent) -> TableCmd {
    TableCmd::Any {
        game: cmd_game,
        event: crate::store::AnyEvent::Physical(event),
        reason: String::new(),
    }
}

impl TablesPage {
    pub(super) fn physical_ui(
        &mut self,
        ui: &mut Ui,
        table: &LiveTable,
        label: &TableLabel,
        now: i64,
        phase: Phase,
    ) {
        let id = table.id();
        if !table.started() {
            ui.label(
                "Physical board: the players set up and play on the real board. The desk runs the \
                 clocks, counts the moves and keeps the tally of remaining pieces from the \
                 challenges you enter.",
            );
            let timers = self.timers(id);
            super::timer_line(
                ui,
                "Setup time",
                timers.setup_started_at,
                table.stored.meta.rules.setup_limit_ns,
                now,
            );
            let mut first = self.first_mover(table, timers);
            let gate = StartGate { blocked: None };
            let lots = timers.lots_drawn_at.is_some();
            super::start_clocks(ui, id, &mut first, lots, &gate, &mut self.queued);
            if let Some(side) = first {
                self.first.insert(id, side);
            }
            return;
        }
        let Some(game) = table.derived_at(now) else {
            return;
        };
        let Some(game) = game.as_physical().cloned() else {
            return;
        };
        if matches!(game.state(), GameState::AdjudicationPending { .. }) {
            self.physical_adjudication(ui, table, label, &game, now);
            return;
        }
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(600.0);
                // The tally is long: it scrolls rather than run off a 768-pixel screen.
                egui::ScrollArea::vertical()
                    .id_salt("physical-moves")
                    .show(ui, |ui| {
                        self.physical_status(ui, &game, phase);
                        if let Phase::Finished(_) = phase {
                            super::confirmation(ui, table, label, &mut self.queued);
                        }
                        ui.separator();
                        if game.awaiting_thirty_count() {
                            self.thirty_prompt(ui, id, &game);
                        } else if !game.is_over() {
                            self.moves_panel(ui, id, &game, phase);
                        }
                    });
            });
            ui.separator();
            ui.vertical(|ui| {
                let respect = game.respect_allowed();
                self.actions(ui, table, game.is_over(), respect, phase);
                if !game.is_over() && !game.awaiting_thirty_count() {
                    self.declarations(ui, id);
                }
                ui.separator();
                super::table::event_log(ui, table);
            });
        });
    }

    /// The arbiter's declarations on a physical board: perpetuals and a Flag through.
    fn declarations(&mut self, ui: &mut Ui, id: GameId) {
        ui.label(RichText::new("Declarations").strong());
        ui.horizontal_wrapped(|ui| {
            if ui.button("Declare 5-move perpetual").clicked() {
                self.ask(
                    "5-move perpetual",
                    "The same attacked piece moved 5 turns between the same two squares: the game is drawn.",
                    "Record the draw",
                    physical(id, PhysicalEvent::Perpetual { long: false }),
                    false,
                );
            }
            if ui.button("Declare 16-move perpetual").clicked() {
                self.ask(
                    "16-move perpetual",
                    "The same attacked piece moved 16 turns through more than two squares: the game is drawn.",
                    "Record the draw",
                    physical(id, PhysicalEvent::Perpetual { long: true }),
                    false,
                );
            }
            for side in Side::BOTH {
                if ui
                    .button(format!("{}'s Flag came through", Cap(side)))
                    .clicked()
                {
                    self.ask(
                        &format!("{}'s Flag came through", Cap(side)),
                        &format!(
                            "{}'s Flag reached the back rank and was not taken: {} wins by flag through.",
                            Cap(side),
                            Cap(side)
                        ),
                        "Record the win",
                        physical(id, PhysicalEvent::FlagThrough(side)),
                        false,
                    );
                }
            }
        });
    }

    fn physical_status(&self, ui: &mut Ui, game: &PhysicalGame, phase: Phase) {
        let c = game.clock();
        match phase {
            Phase::Finished(o) => super::result_banner(ui, o),
            Phase::Paused => {
                super::paused_banner(ui);
            }
            _ => {
                ui.label(
                    RichText::new(format!("{} to move", capitalise(game.to_move().name())))
                        .size(24.0)
                        .strong(),
                );
            }
        }
        let running = !game.is_over() && !game.awaiting_thirty_count();
        super::clock_panel(ui, c, game.settings().oversteps_to_lose, running);
        let m = game.moves_by();
        ui.label(format!(
            "Moves {} (White {}, Black {}) · challenges {}",
            game.plies(),
            m.white,
            m.black,
            game.challenges()
        ));
        // With the counts, above the tally (which scrolls): always on screen at 1366 × 768.
        ui.label(format!(
            "Pieces left: White {}, Black {}",
            game.count(Side::White),
            game.count(Side::Black)
        ));
        super::thirty_line(
            ui,
            game.settings().thirty_moves,
            game.challenges(),
            game.plies(),
        );
    }

    fn moves_panel(&mut self, ui: &mut Ui, id: GameId, game: &PhysicalGame, phase: Phase) {
        let side = game.to_move();
        let paused = phase == Phase::Paused;
        // "Move made" and "Record challenge" side by side, above the tally: both on screen
        // without scrolling at 1366 × 768.
        ui.horizontal(|ui| {
            // Enter records a move made, unless a text field has the keyboard.
            let enter = !self.typing
                && ui.input(|i| i.key_pressed(egui::Key::Enter))
                && self.confirm.is_none();
            if ui
                .add_enabled(
                    !paused,
                    egui::Button::new(RichText::new("Move made (Enter)").strong().size(20.0)),
                )
                .on_hover_text(format!("{} moved without a challenge", Cap(side)))
                .clicked()
                || (enter && !paused)
            {
                self.queued
                    .push(physical(id, PhysicalEvent::Move { challenge: None }));
                self.physical.attacker = None;
                self.physical.defender = None;
            }
            let ready = self.physical.attacker.zip(self.physical.defender);
            let label = match ready {
                Some((a, d)) => format!(
                    "Record challenge: {}'s {} attacks {}'s {}",
                    Cap(side),
                    a.code(),
                    Cap(side.opponent()),
                    d.code()
                ),
                None => "Record challenge".to_string(),
            };
            if ui
                .add_enabled(ready.is_some() && !paused, egui::Button::new(label))
                .clicked()
                && let Some(pair) = ready
            {
                self.queued.push(physical(
                    id,
                    PhysicalEvent::Move {
                        challenge: Some(pair),
                    },
                ));
                self.physical.attacker = None;
                self.physical.defender = None;
            }
        });
        ui.add_space(6.0);
        ui.label(
            RichText::new(format!(
                "Challenge: pick {}'s attacking rank and {}'s defending rank as you saw them",
                Cap(side),
                Cap(side.opponent())
            ))
            .strong(),
        );
        egui::Grid::new("tally")
            .striped(true)
            .num_columns(3)
            .show(ui, |ui| {
                ui.label(RichText::new("Rank").strong());
                for s in Side::BOTH {
                    let role = if s == side { "attacker" } else { "defender" };
                    ui.label(RichText::new(format!("{} ({role})", capitalise(s.name()))).strong());
                }
                ui.end_row();
                for rank in Rank::ALL {
                    ui.label(rank.name());
                    for s in Side::BOTH {
                        let left = game.remaining(s, rank);
                        let letter = if s == Side::White { 'W' } else { 'B' };
                        let chosen = if s == side {
                            self.physical.attacker
                        } else {
                            self.physical.defender
                        };
                        let text = format!("{letter} {} x{left}", rank.code());
                        let b = egui::Button::selectable(chosen == Some(rank), text);
                        if ui.add_enabled(left > 0 && !paused, b).clicked() {
                            if s == side {
                                self.physical.attacker = Some(rank);
                            } else {
                                self.physical.defender = Some(rank);
                            }
                        }
                    }
                    ui.end_row();
                }
            });
    }

    fn thirty_prompt(&mut self, ui: &mut Ui, id: GameId, game: &PhysicalGame) {
        ui.label(
            RichText::new(format!(
                "Thirty-move rule: {} moves without a challenge. The game ends now: count each side's pieces across the midpoint.",
                game.plies()
            ))
            .strong()
            .color(common::AMBER),
        );
        let parsed = |s: &str| s.trim().parse::<u32>().ok();
        ui.horizontal(|ui| {
            let l = ui.label("White pieces on ranks 5-8:");
            ui.add(egui::TextEdit::singleline(&mut self.physical.across_white).desired_width(40.0))
                .labelled_by(l.id);
            let l = ui.label("Black pieces on ranks 1-4:");
            ui.add(egui::TextEdit::singleline(&mut self.physical.across_black).desired_width(40.0))
                .labelled_by(l.id);
        });
        let counts = parsed(&self.physical.across_white).zip(parsed(&self.physical.across_black));
        if ui
            .add_enabled(counts.is_some(), egui::Button::new("Record counts"))
            .clicked()
            && let Some((white, black)) = counts
        {
            self.queued
                .push(physical(id, PhysicalEvent::ThirtyCount { white, black }));
        }
    }

    fn physical_adjudication(
        &mut self,
        ui: &mut Ui,
        table: &LiveTable,
        label: &TableLabel,
        game: &PhysicalGame,
        now: i64,
    ) {
        let id = table.id();
        if !matches!(game.state(), GameState::AdjudicationPending { .. }) {
            return;
        }
        let adjudication = table
            .stored
            .physical_record()
            .and_then(|r| r.judge().ok())
            .and_then(|v| v.adjudication);
        super::adjudication_heading(
            ui,
            self.timers(id).reading_started_at,
            game.settings().reading_limit_ns,
            adjudication.is_some(),
            now,
        );
        if let Some(adj) = adjudication {
            super::confirmation(ui, table, label, &mut self.queued);
            tally_result_ui(ui, &adj);
            return;
        }
        let reader = if self.physical.black_reads {
            Side::Black
        } else {
            Side::White
        };
        let handed_in = |s: Side| table.stored.sheets[s].as_ref().is_some_and(|r| r.complete);
        ui.horizontal(|ui| {
            for r in Side::BOTH {
                let done = if handed_in(r) { ", handed in" } else { "" };
                let text = format!("{} reads {}'s pieces{done}", Cap(r), Cap(r.opponent()));
                if ui.selectable_label(reader == r, text).clicked() {
                    self.physical.black_reads = r == Side::Black;
                    self.physical.picked = None;
                }
            }
        });
        let pieces = game.remaining_pieces(reader.opponent());
        // The readings are the store's (each is saved as it is chosen): see
        // [`super::adjudication::AdjudicationState`].
        let reads: Vec<Option<Rank>> = table.stored.sheets[reader]
            .as_ref()
            .and_then(|row| physical_record::parse_sheet(&row.sheet).ok())
            .filter(|sheet| sheet.len() == pieces.len())
            .map(|sheet| sheet.into_iter().map(|(_, r)| r).collect())
            .unwrap_or_else(|| vec![None; pieces.len()]);
        let locked = handed_in(reader);
        ui.label(
            RichText::new(format!(
                "Turn each of {}'s pieces up in turn: click it here by its real rank, then the rank {} wrote for it, or Abstain.",
                Cap(reader.opponent()),
                Cap(reader)
            ))
            .weak(),
        );
        ui.horizontal_top(|ui| {
            egui::ScrollArea::vertical()
                .max_height(430.0)
                .id_salt("pieces")
                .show(ui, |ui| {
                    ui.set_width(330.0);
                    // One piece per line (the row above is horizontal).
                    ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                        for (i, rank) in pieces.iter().enumerate() {
                            let read = reads.get(i).copied().flatten();
                            let text = format!(
                                "piece {}: {} read as {}",
                                i + 1,
                                rank.code(),
                                read.map_or("-", Rank::code)
                            );
                            if ui
                                .add_enabled(
                                    !locked,
                                    egui::Button::selectable(self.physical.picked == Some(i), text),
                                )
                                .clicked()
                            {
                                self.physical.picked = Some(i);
                            }
                        }
                    });
                });
            ui.vertical(|ui| {
                let current = self
                    .physical
                    .picked
                    .and_then(|i| reads.get(i).copied().flatten());
                let named: Vec<Rank> = reads.iter().flatten().copied().collect();
                let change = super::adjudication::reading_palette(
                    ui,
                    "physical-reading-palette",
                    &named,
                    current,
                    !locked && self.physical.picked.is_some(),
                );
                let sheet_of = |reads: &[Option<Rank>]| -> TallySheet {
                    pieces.iter().copied().zip(reads.iter().copied()).collect()
                };
                if let (Some(choice), Some(i)) = (change, self.physical.picked)
                    && i < reads.len()
                {
                    let mut entry = reads.clone();
                    entry[i] = choice;
                    let sheet = physical_record::sheet_value(&sheet_of(&entry));
                    self.queued.push(TableCmd::SaveSheet {
                        game: id,
                        side: reader,
                        sheet,
                        complete: false,
                    });
                }
                ui.add_space(8.0);
                let sheet = || physical_record::sheet_value(&sheet_of(&reads));
                let read = reads.iter().flatten().count();
                if super::adjudication::hand_in(
                    ui,
                    id,
                    reader,
                    locked,
                    read,
                    sheet,
                    &mut self.queued,
                    &mut self.confirm,
                ) {
                    self.physical.black_reads = reader == Side::White;
                    self.physical.picked = None;
                }
            });
        });
    }
}

/// The result of a physical-board adjudication: both sides' totals first, then each
/// reading judged.
fn tally_result_ui(ui: &mut Ui, adj: &ggdesk_core::adjudication::TallyAdjudication) {
    let result = match adj.winner {
        Some(w) => format!("{} wins by adjudication", capitalise(w.name())),
        None => "Draw: equal Total Adjudication Scores".into(),
    };
    ui.label(
        RichText::new(result)
            .size(22.0)
            .strong()
            .color(common::BLUE),
    );
    super::adjudication::totals_ui(ui, |r| {
        let s = &adj.scores[r];
        (s.net_reading_score, s.aliwalas_value, s.total)
    });
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt("tally-result")
        .auto_shrink([false, false])
        .show(ui, |ui| tally_columns(ui, adj));
}

/// Each side's readings judged, NRS, AVP and TAS, side by side.
fn tally_columns(ui: &mut Ui, adj: &ggdesk_core::adjudication::TallyAdjudication) {
    ui.columns(2, |cols| {
        for (col, reader) in cols.iter_mut().zip(Side::BOTH) {
            let s = &adj.scores[reader];
            col.label(
                RichText::new(format!("{} reads {}", Cap(reader), Cap(reader.opponent()))).strong(),
            );
            for r in &s.readings {
                let verdict = match r.verdict {
                    ReadingVerdict::Correct => "correct (+2)",
                    ReadingVerdict::Incorrect => "incorrect (-1)",
                    ReadingVerdict::Abstained => "abstained",
                };
                col.label(format!(
                    "{} read as {}: {verdict}",
                    r.actual.code(),
                    r.read.map_or("-", Rank::code)
                ));
            }
            col.label(RichText::new(format!("NRS {}", s.net_reading_score)).strong());
            col.label(
                RichText::new(format!("AVP {}   TAS {}", s.aliwalas_value, s.total))
                    .strong()
                    .size(16.0),
            );
        }
    });
}
