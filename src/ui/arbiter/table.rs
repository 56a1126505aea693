//! The view of one table: setup entry before the clocks start, then the board, the clocks,
//! the rules' counters and the arbiter's actions.

use super::board::{self, BoardStyle, CellView};
use super::{Cap, Guarded, TableCmd, TablesPage, capitalise, phase_badge, setup};
use crate::desk::Phase;
use crate::store::{GameId, StoredEventKind};
use crate::ui::PageCtx;
use crate::ui::common::{self, Confirm, badge, fmt_clock};
use egui::{RichText, Ui};
use ggdesk_core::record::TimedEvent;
use ggdesk_core::rules::{Event, Game, GameState, Move, PenaltyKind, Side};

impl TablesPage {
    pub(super) fn table_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, id: GameId) {
        let now = cx.now_ms;
        // A copy for this frame, so the page's own state can change while it is drawn.
        let Some(table) = self.tables.tables.get(&id).cloned() else {
            return;
        };
        let table = &table;
        let card = self.card_of(id).cloned();
        let phase = table.phase(now);
        let title = match card.as_ref().and_then(|c| c.table_no) {
            Some(n) => format!("Table {n}"),
            None if table.stored.meta.imported => format!("Imported game {}", id.0),
            None => format!("Practice table {}", id.0),
        };
        let names = card.as_ref().map_or_else(
            || ("White".to_string(), "Black".to_string()),
            |c| c.names.clone(),
        );

        ui.horizontal(|ui| {
            if ui
                .button("Back to tables")
                .on_hover_text("Back to all tables (Esc)")
                .clicked()
            {
                self.queued.push(TableCmd::Back);
            }
            ui.heading(&title);
            ui.label(
                RichText::new(format!("{} (White)  vs  {} (Black)", names.0, names.1)).strong(),
            );
            let (text, color) = phase_badge(phase);
            badge(ui, &text, color);
        });
        ui.separator();

        if let Some(err) = &table.error {
            ui.colored_label(common::RED, format!("This game cannot be replayed: {err}"));
            return;
        }
        if table.mode() == crate::store::GameMode::Physical {
            self.physical_ui(ui, table, now, phase);
            return;
        }
        if !table.started() {
            let first = self.first.entry(id).or_insert(Side::White);
            setup::ui(ui, &mut self.setup, table, first, now, &mut self.queued);
            return;
        }
        let Some(game) = table.game_at(now) else {
            return;
        };
        if matches!(game.state(), GameState::AdjudicationPending { .. }) && !self.player_fullscreen
        {
            super::adjudication::ui(
                ui,
                &mut self.adjudication,
                table,
                &game,
                now,
                &mut self.queued,
            );
            return;
        }
        if table.stored.meta.imported {
            ui.label(
                RichText::new("An imported record: shown as it stands, read-only.")
                    .color(common::AMBER),
            );
            self.status_panel(ui, &game, phase);
            return;
        }
        if self.player_fullscreen {
            ui.horizontal(|ui| {
                if ui.button("Leave player view").clicked() {
                    self.player_fullscreen = false;
                }
                ui.label(RichText::new("Player view: every piece face down").weak());
            });
            let view = ggdesk_core::rules::PlayerView::of(&game);
            super::player_view_panel(ui, &view, Some(&game));
            return;
        }

        let marked: Vec<_> = last_move(table)
            .into_iter()
            .flat_map(|m| [m.from, m.to])
            .collect();
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(560.0);
                ui.horizontal(|ui| {
                    ui.checkbox(&mut self.show_ranks, "Show ranks (arbiter only)");
                    if ui
                        .selectable_label(self.player_window, "Player view window")
                        .on_hover_text(
                            "Open the players' board, every piece face down, in its own window",
                        )
                        .clicked()
                    {
                        self.player_window = !self.player_window;
                    }
                    if ui.button("Player view full screen").clicked() {
                        self.player_fullscreen = true;
                    }
                });
                let style = BoardStyle {
                    selected: self.from,
                    marked,
                    max_square: 58.0,
                    ..BoardStyle::default()
                };
                let show = self.show_ranks;
                let position = game.position().clone();
                let clicked = ui
                    .allocate_ui(egui::vec2(560.0, 490.0), |ui| {
                        board::draw(
                            ui,
                            "arbiter",
                            |sq| match position.get(sq) {
                                Some(p) if show => CellView::Open(p),
                                Some(p) => CellView::FaceDown(p.side),
                                None => CellView::Empty,
                            },
                            |sq, _| sq.to_string(),
                            &style,
                            !game.is_over(),
                        )
                    })
                    .inner;
                if let Some(sq) = clicked {
                    self.square_clicked(id, &game, sq);
                }
                self.move_entry(ui, id, &game);
                if let Some(a) = &table.last_announcement {
                    ui.label(RichText::new(&a.text).strong().size(16.0));
                }
            });
            ui.separator();
            ui.vertical(|ui| {
                self.status_panel(ui, &game, phase);
                if let Phase::Finished(_) = phase {
                    super::confirmation(ui, table, &mut self.queued);
                }
                ui.separator();
                self.actions(ui, id, game.is_over(), game.respect_allowed(), phase);
                ui.separator();
                event_log(ui, table);
            });
        });
    }

    fn square_clicked(&mut self, id: GameId, game: &Game, sq: ggdesk_core::rules::Square) {
        let own = game
            .position()
            .get(sq)
            .is_some_and(|p| p.side == game.to_move());
        match self.from {
            Some(from) if from == sq => self.from = None,
            Some(_) if own => self.from = Some(sq),
            Some(from) => {
                self.from = None;
                self.queued.push(TableCmd::Event {
                    game: id,
                    event: Event::Move {
                        mv: Move::new(from, sq),
                        by: None,
                    },
                    reason: String::new(),
                });
            }
            None if own => self.from = Some(sq),
            None => {
                self.move_error = Some(format!(
                    "{sq}: choose one of {}'s pieces first",
                    game.to_move()
                ))
            }
        }
    }

    fn move_entry(&mut self, ui: &mut Ui, id: GameId, game: &Game) {
        if game.is_over() {
            return;
        }
        ui.horizontal(|ui| {
            let label = ui.label(format!("{} moves:", capitalise(game.to_move().name())));
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut self.move_text)
                        .hint_text("e3-e4, then Enter")
                        .desired_width(120.0)
                        .font(egui::TextStyle::Monospace),
                )
                .labelled_by(label.id);
            let submit = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Play move").clicked() || submit {
                match Move::parse_typed(&self.move_text) {
                    Ok(mv) => {
                        self.queued.push(TableCmd::Event {
                            game: id,
                            event: Event::Move { mv, by: None },
                            reason: String::new(),
                        });
                        self.move_text.clear();
                    }
                    Err(e) => self.move_error = Some(e),
                }
                edit.request_focus();
            }
            // Keep the keyboard on the move field while nothing else has it.
            if ui.memory(|m| m.focused().is_none()) && self.confirm.is_none() {
                edit.request_focus();
            }
        });
        if let Some(err) = &self.move_error {
            ui.colored_label(common::RED, err);
        }
    }

    fn status_panel(&self, ui: &mut Ui, game: &Game, phase: Phase) {
        let c = game.clock();
        let limit = game.settings().oversteps_to_lose;
        match phase {
            Phase::Finished(o) => super::result_banner(ui, o),
            Phase::AdjudicationPending => {
                ui.label(
                    RichText::new("Game time is up")
                        .size(24.0)
                        .strong()
                        .color(common::AMBER),
                );
                ui.label("The game goes to adjudication: both players read the opponent's pieces.");
            }
            Phase::Paused => {
                ui.label(
                    RichText::new("PAUSED")
                        .size(26.0)
                        .strong()
                        .color(common::AMBER),
                );
                ui.label("Space resumes both clocks.");
            }
            _ => {
                ui.label(
                    RichText::new(format!("{} to move", capitalise(game.to_move().name())))
                        .size(24.0)
                        .strong(),
                );
            }
        }
        if let Phase::FlagPending(side) = phase {
            ui.label(
                RichText::new(format!(
                    "{}'s Flag is on the back rank: {} has this one turn to take it.",
                    capitalise(side.name()),
                    side.opponent()
                ))
                .color(common::RED)
                .strong(),
            );
        }
        super::clock_panel(ui, c, limit, !game.is_over());
        let moves = game.moves_by();
        ui.label(format!(
            "Moves {} (White {}, Black {}) · challenges {}",
            game.plies(),
            moves.white,
            moves.black,
            game.challenges()
        ));
        let pieces = ggdesk_core::rules::BySide::from_fn(|s| game.position().count(s));
        ui.label(format!(
            "Pieces  White {}   Black {}",
            pieces.white, pieces.black
        ));
        let thirty = game.settings().thirty_moves;
        if thirty > 0 && game.challenges() == 0 {
            ui.label(format!(
                "Thirty-move rule: {} of {thirty} moves without a challenge",
                game.plies()
            ));
        }
        let perp = game.perpetual_counts();
        if perp.white > 1 || perp.black > 1 {
            ui.label(
                RichText::new(format!(
                    "Perpetual count: White {}, Black {} (draw at {} / {})",
                    perp.white,
                    perp.black,
                    game.settings().perpetual_short,
                    game.settings().perpetual_long
                ))
                .color(common::AMBER),
            );
        }
        let lost = game.lost_turns();
        if lost.white + lost.black > 0 {
            ui.label(format!(
                "Moves to lose for own exposure: White {}, Black {}",
                lost.white, lost.black
            ));
        }
    }

    /// The arbiter's actions common to both kinds of table.
    pub(super) fn actions(
        &mut self,
        ui: &mut Ui,
        id: GameId,
        over: bool,
        respect: Result<(), String>,
        phase: Phase,
    ) {
        ui.horizontal_wrapped(|ui| {
            let pause = match phase {
                Phase::Paused => Some((Event::Resume, "Resume (Space)")),
                _ if !over => Some((Event::Pause, "Pause (Space)")),
                _ => None,
            };
            if let Some((event, label)) = pause
                && ui.button(label).clicked()
            {
                self.queued.push(TableCmd::Event {
                    game: id,
                    event,
                    reason: String::new(),
                });
            }
            if ui.button("Undo last event…").clicked() {
                self.confirm = Some(
                    Confirm::new(
                        "Undo the last event",
                        "The last event is cancelled by a new undo event; both stay in the record of corrections.",
                        "Undo",
                        Guarded::Undo,
                    )
                    .with_reason(),
                );
            }
            if ui.button("Export record").clicked() {
                self.queued.push(TableCmd::Export { game: id });
            }
        });
        if !over {
            ui.label(RichText::new("Penalties").strong());
            for side in Side::BOTH {
                ui.horizontal(|ui| {
                    ui.label(format!("{}:", capitalise(side.name())));
                    for (kind, label, effect) in [
                        (
                            PenaltyKind::OwnExposure,
                            "Own exposure",
                            "loses its next move",
                        ),
                        (
                            PenaltyKind::CausedExposure,
                            "Caused exposure",
                            "loses the game",
                        ),
                        (PenaltyKind::Removal, "Removal", "loses the game"),
                    ] {
                        if ui
                            .button(label)
                            .on_hover_text(format!("{} {effect}", capitalise(side.name())))
                            .clicked()
                        {
                            self.confirm = Some(
                                Confirm::new(
                                    format!("{label} by {side}"),
                                    format!("{} {effect}.", capitalise(side.name())),
                                    format!("Penalise {side}"),
                                    Guarded::Penalty(kind, side),
                                )
                                .with_reason(),
                            );
                        }
                    }
                    if ui.button("Resigns").clicked() {
                        self.confirm = Some(Confirm::new(
                            format!("{} resigns", capitalise(side.name())),
                            format!(
                                "{} wins by resignation.",
                                capitalise(side.opponent().name())
                            ),
                            "Record resignation",
                            Guarded::Resign(side),
                        ));
                    }
                });
            }

            let button = ui.add_enabled(respect.is_ok(), egui::Button::new("Draw for respect"));
            let button = match &respect {
                Ok(()) => button.on_hover_text("Both players sign for a draw"),
                Err(why) => button.on_disabled_hover_text(format!("Not allowed: {why}")),
            };
            if button.clicked() {
                self.confirm = Some(Confirm::new(
                    "Draw for respect",
                    "Both players have signed for a draw for respect.",
                    "Record the draw",
                    Guarded::Respect,
                ));
            }
        }
        if ui
            .button("Arbiter's mistake: void and replay…")
            .on_hover_text(
                "The director confirms; the game is replayed and this record kept, marked void",
            )
            .clicked()
        {
            self.confirm = Some(
                Confirm::new(
                    "Void this game and replay it",
                    "Only after the director has confirmed an arbiter's mistake (or exposure by nature). \
                     This game's record is kept, marked void, and a new game of the same pairing starts with new setups.",
                    "Void and replay",
                    Guarded::Void,
                )
                .with_reason(),
            );
        }
    }
}

fn last_move(table: &crate::desk::LiveTable) -> Option<Move> {
    table
        .stored
        .effective_events()
        .iter()
        .rev()
        .find_map(|(_, e)| match e.event {
            Event::Move { mv, .. } => Some(mv),
            _ => None,
        })
}

fn describe(e: &TimedEvent) -> String {
    match e.event {
        Event::Move { mv, .. } => format!("move {mv}"),
        Event::Penalty { kind, side } => {
            format!("penalty {} ({})", kind.code().replace('_', " "), Cap(side))
        }
        Event::Resign(side) => format!("{} resigns", Cap(side)),
        Event::DrawForRespect => "draw for respect".into(),
        Event::Pause => "pause".into(),
        Event::Resume => "resume".into(),
        Event::End => "end".into(),
    }
}

pub(super) fn event_log(ui: &mut Ui, table: &crate::desk::LiveTable) {
    ui.label(RichText::new("Events").strong());
    egui::ScrollArea::vertical()
        .max_height(180.0)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for e in &table.stored.events {
                let text = match e.kind {
                    StoredEventKind::Game(event) => describe(&TimedEvent { t: e.t, event }),
                    StoredEventKind::Physical(event) => event.code().replace('_', " "),
                    StoredEventKind::Undo { seq } => format!("undo of event {seq}"),
                };
                ui.label(
                    RichText::new(format!(
                        "{:>3}  {}  {text}",
                        e.seq,
                        fmt_clock((e.t * 1e9) as i64)
                    ))
                    .monospace()
                    .small(),
                );
            }
        });
    if let Some(GameState::Finished { .. }) = table.game().map(|g| g.state()) {
        ui.label(
            RichText::new("Finished games cannot take more moves; undo needs a reason.").weak(),
        );
    }
}
