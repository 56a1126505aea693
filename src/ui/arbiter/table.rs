//! The view of one table: setup entry before the clocks start, then the board, the clocks,
//! the rules' counters and the arbiter's actions.

use super::board::{self, BoardStyle, CellView};
use super::{Cap, TableCmd, TableLabel, TablesPage, confirmation, phase_badge, setup};
use crate::desk::{LiveTable, Phase};
use crate::store::{AnyEvent, GameId, GameMode, StoredEventKind};
use crate::ui::PageCtx;
use crate::ui::common::{self, badge, fmt_clock};
use egui::{RichText, Ui};
use ggdesk_core::record::TimedEvent;
use ggdesk_core::rules::{Event, Game, GameState, Move, PenaltyKind, Side, Square};

impl TablesPage {
    pub(super) fn table_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, id: GameId) {
        let now = cx.now_ms;
        // A copy for this frame, so the page's own state can change while it is drawn.
        let Some(table) = self.tables.tables.get(&id).cloned() else {
            return;
        };
        let table = &table;
        let label = self.label(id);
        let phase = table.phase(now);
        self.title_bar(ui, table, &label, phase);
        ui.separator();

        if let Some(err) = &table.error {
            ui.colored_label(common::RED, format!("This game cannot be replayed: {err}"));
            return;
        }
        if !table.started() && !table.stored.meta.void {
            // The setup timer runs from the moment the table is first opened for setups.
            if self.timers(id).setup_started_at.is_none()
                && !self
                    .queued
                    .contains(&TableCmd::StartSetupTimer { game: id })
            {
                self.queued.push(TableCmd::StartSetupTimer { game: id });
            }
        }
        if table.mode() == GameMode::Physical {
            self.physical_ui(ui, table, &label, now, phase);
            return;
        }
        if !table.started() {
            let first = *self.first.entry(id).or_insert(table.stored.meta.first);
            let mut first = first;
            let timers = self.timers(id);
            setup::ui(
                ui,
                &mut self.setup,
                table,
                &mut first,
                timers,
                now,
                &mut self.queued,
                &mut self.confirm,
            );
            self.first.insert(id, first);
            return;
        }
        let Some(game) = table.game_at(now) else {
            return;
        };
        if matches!(game.state(), GameState::AdjudicationPending { .. }) && !self.player_fullscreen
        {
            let reading = self.timers(id).reading_started_at;
            super::adjudication::ui(
                ui,
                &mut self.adjudication,
                table,
                &label,
                &game,
                reading,
                now,
                &mut self.queued,
                &mut self.confirm,
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
            let outcome = match phase {
                Phase::Finished(o) => Some(o),
                _ => None,
            };
            super::player_view_panel(ui, &view, Some(&game), &last_move_squares(table), outcome);
            return;
        }
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(560.0);
                self.board_column(ui, table, &game);
            });
            ui.separator();
            ui.vertical(|ui| {
                self.status_panel(ui, &game, phase);
                if let Phase::Finished(_) = phase {
                    confirmation(ui, table, &label, &mut self.queued);
                }
                ui.separator();
                self.actions(ui, table, game.is_over(), game.respect_allowed(), phase);
                ui.separator();
                event_log(ui, table);
            });
        });
    }

    fn title_bar(&mut self, ui: &mut Ui, table: &LiveTable, label: &TableLabel, phase: Phase) {
        ui.horizontal(|ui| {
            if ui
                .button("Back to tables")
                .on_hover_text("Back to all tables (Esc)")
                .clicked()
            {
                self.queued.push(TableCmd::Back);
            }
            ui.heading(&label.title);
            ui.label(
                RichText::new(format!(
                    "{} (White)  vs  {} (Black)",
                    label.names.0, label.names.1
                ))
                .strong(),
            );
            let (text, color) = phase_badge(phase);
            badge(ui, &text, color);
            let practice = table.stored.meta.round.is_none() && !table.stored.meta.imported;
            if practice {
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.button("Remove this practice table…").clicked() {
                        self.ask(
                            "Remove this practice table",
                            "The table leaves the desk; its record is kept in the database, marked void.",
                            "Remove",
                            TableCmd::RemovePractice {
                                game: table.id(),
                                reason: String::new(),
                            },
                            false,
                        );
                    }
                });
            }
        });
    }

    /// The arbiter's board, the move box and the last announcement.
    fn board_column(&mut self, ui: &mut Ui, table: &LiveTable, game: &Game) {
        let id = table.id();
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.show_ranks, "Show ranks (arbiter only)");
            if ui
                .selectable_label(self.player_window, "Player view window")
                .on_hover_text("Open the players' board, every piece face down, in its own window")
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
            marked: last_move_squares(table),
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
            self.square_clicked(id, game, sq);
        }
        self.move_entry(ui, id, game);
        match &table.last_announcement {
            Some(a) => ui.label(RichText::new(&a.text).strong().size(16.0)),
            None => ui.label(RichText::new(" ").size(16.0)),
        };
    }

    fn square_clicked(&mut self, id: GameId, game: &Game, sq: Square) {
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
                    Cap(game.to_move())
                ))
            }
        }
    }

    /// The move box: a move typed (`e3-e4`, `e3 e4`, `e3e4`), then Enter. A move the rules
    /// refuse stays in the box with the reason, for correction.
    fn move_entry(&mut self, ui: &mut Ui, id: GameId, game: &Game) {
        if game.is_over() {
            return;
        }
        ui.horizontal(|ui| {
            // A fixed width, so the box does not move when the side to move changes.
            let label = ui.add_sized(
                [100.0, 20.0],
                egui::Label::new(format!("{} moves:", Cap(game.to_move()))),
            );
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut self.move_text)
                        .hint_text("e3-e4, then Enter")
                        .desired_width(140.0)
                        .font(egui::TextStyle::Monospace),
                )
                .labelled_by(label.id);
            let submit = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Play move").clicked() || submit {
                match Move::parse_typed(&self.move_text) {
                    Ok(mv) => self.queued.push(TableCmd::Event {
                        game: id,
                        event: Event::Move { mv, by: None },
                        reason: String::new(),
                    }),
                    Err(e) => self.move_error = Some(e),
                }
                self.focus_move = true;
            }
            // The keyboard goes to the move box when the table opens and after a move, not
            // on every frame: Esc leaves the box, and then Space pauses and Esc goes back.
            if std::mem::take(&mut self.focus_move) && self.confirm.is_none() {
                edit.request_focus();
            }
        });
        match &self.move_error {
            Some(err) => ui.colored_label(common::RED, err),
            None => ui.label(" "),
        };
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
                super::paused_banner(ui);
                ui.label("F8 (or Space, outside the move box) resumes both clocks.");
            }
            _ => {
                ui.label(
                    RichText::new(format!("{} to move", Cap(game.to_move())))
                        .size(26.0)
                        .strong(),
                );
                ui.label(" ");
            }
        }
        if let Phase::FlagPending(side) = phase {
            ui.label(
                RichText::new(format!(
                    "{}'s Flag is on the back rank: {} has this one turn to take it.",
                    Cap(side),
                    Cap(side.opponent())
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
        super::thirty_line(
            ui,
            game.settings().thirty_moves,
            game.challenges(),
            game.plies(),
        );
        let perp = game.perpetual_counts();
        let text = format!(
            "Perpetual count: White {}, Black {} (draw at {} / {})",
            perp.white,
            perp.black,
            game.settings().perpetual_short,
            game.settings().perpetual_long
        );
        if perp.white > 1 || perp.black > 1 {
            ui.label(RichText::new(text).color(common::AMBER));
        } else {
            ui.label(text);
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
        table: &LiveTable,
        over: bool,
        respect: Result<(), String>,
        phase: Phase,
    ) {
        let id = table.id();
        ui.horizontal_wrapped(|ui| {
            let (event, label) = match phase {
                Phase::Paused => (Some(Event::Resume), "Resume (F8)"),
                _ if !over => (Some(Event::Pause), "Pause (F8)"),
                _ => (None, "Pause (F8)"),
            };
            // One width for Pause and Resume: the buttons beside it stay where they are.
            let button = ui
                .add_enabled_ui(event.is_some(), |ui| {
                    ui.add_sized([110.0, 24.0], egui::Button::new(label))
                })
                .inner
                .on_hover_text("Space does the same when the move box is not in use");
            if button.clicked()
                && let Some(event) = event
            {
                self.queued.push(TableCmd::Event {
                    game: id,
                    event,
                    reason: String::new(),
                });
            }
            if let Some(what) = last_event_words(table)
                && ui.button("Undo last event…").clicked()
            {
                self.ask(
                    "Undo the last event",
                    &format!(
                        "This undoes {what}. It is cancelled by a new undo event; both stay in the record of corrections."
                    ),
                    "Undo",
                    TableCmd::Undo {
                        game: id,
                        reason: String::new(),
                    },
                    true,
                );
            }
            if ui.button("Export record").clicked() {
                self.queued.push(TableCmd::Export { game: id });
            }
        });
        if !over {
            self.penalties(ui, id);
            let button = ui.add_enabled(respect.is_ok(), egui::Button::new("Draw for respect"));
            let button = match &respect {
                Ok(()) => button.on_hover_text("Both players sign for a draw"),
                Err(why) => button.on_disabled_hover_text(format!("Not allowed: {why}")),
            };
            if button.clicked() {
                self.ask(
                    "Draw for respect",
                    "Both players have signed for a draw for respect.",
                    "Record the draw",
                    TableCmd::Event {
                        game: id,
                        event: Event::DrawForRespect,
                        reason: String::new(),
                    },
                    false,
                );
            }
            if let Err(why) = &respect {
                ui.label(RichText::new(format!("Draw for respect not allowed: {why}")).weak());
            }
        }
        if ui
            .button("Arbiter's mistake: void and replay…")
            .on_hover_text(
                "The director confirms; the game is replayed and this record kept, marked void",
            )
            .clicked()
        {
            self.ask(
                "Void this game and replay it",
                "Only after the director has confirmed an arbiter's mistake (or exposure by nature). \
                 This game's record is kept, marked void, and a new game of the same pairing starts with new setups.",
                "Void and replay",
                TableCmd::VoidAndReplay {
                    game: id,
                    reason: String::new(),
                },
                true,
            );
        }
    }

    fn penalties(&mut self, ui: &mut Ui, id: GameId) {
        ui.label(RichText::new("Penalties").strong());
        for side in Side::BOTH {
            ui.horizontal(|ui| {
                ui.label(format!("{}:", Cap(side)));
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
                        .on_hover_text(format!("{} {effect}", Cap(side)))
                        .clicked()
                    {
                        self.ask(
                            &format!("{label} by {}", Cap(side)),
                            &format!("{} {effect}.", Cap(side)),
                            &format!("Penalise {}", Cap(side)),
                            TableCmd::Event {
                                game: id,
                                event: Event::Penalty { kind, side },
                                reason: String::new(),
                            },
                            true,
                        );
                    }
                }
                if ui.button("Resigns").clicked() {
                    self.ask(
                        &format!("{} resigns", Cap(side)),
                        &format!("{} wins by resignation.", Cap(side.opponent())),
                        "Record resignation",
                        TableCmd::Event {
                            game: id,
                            event: Event::Resign(side),
                            reason: String::new(),
                        },
                        false,
                    );
                }
            });
        }
    }
}

/// The from and to squares of the last move in force.
pub(super) fn last_move_squares(table: &LiveTable) -> Vec<Square> {
    table
        .stored
        .effective_events()
        .iter()
        .rev()
        .find_map(|(_, e)| match e.event {
            Event::Move { mv, .. } => Some(vec![mv.from, mv.to]),
            _ => None,
        })
        .unwrap_or_default()
}

/// The last event in force, in words ("event 12, move a3-a4 at 0:45"), if any.
fn last_event_words(table: &LiveTable) -> Option<String> {
    let (seq, t, event) = table.stored.effective().last().copied()?;
    let what = match event {
        AnyEvent::Game(event) => describe(&TimedEvent { t, event }),
        AnyEvent::Physical(e) => e.code().replace('_', " "),
    };
    Some(format!(
        "event {seq}, {what} at {}",
        fmt_clock((t * 1e9) as i64)
    ))
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

pub(super) fn event_log(ui: &mut Ui, table: &LiveTable) {
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
                    .monospace(),
                );
            }
        });
    if let Some(GameState::Finished { .. }) = table.game().map(|g| g.state()) {
        ui.label(
            RichText::new("Finished games cannot take more moves; undo needs a reason.").weak(),
        );
    }
}
