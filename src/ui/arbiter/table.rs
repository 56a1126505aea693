//! The view of one table: setup entry before the clocks start, then the board, the clocks,
//! the rules' counters and the arbiter's actions.

use super::board::{self, BoardStyle, CellView};
use super::{Cap, TableCmd, TableLabel, TablesPage, confirmation, phase_badge, setup};
use crate::desk::{LiveTable, Phase};
use crate::store::{AnyEvent, GameId, GameMode};
use crate::ui::PageCtx;
use crate::ui::common::{self, badge};
use egui::{RichText, Ui};
use ggdesk_core::game::LogEntryKind as StoredEventKind;
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
            let timers = self.timers(id);
            let mut first = self.first_mover(table, timers);
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
            if let Some(side) = first {
                self.first.insert(id, side);
            }
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
            self.status_panel(ui, &game, phase, None, now);
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
                self.status_panel(ui, &game, phase, Some(table), now);
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

    fn status_panel(
        &self,
        ui: &mut Ui,
        game: &Game,
        phase: Phase,
        table: Option<&LiveTable>,
        now: i64,
    ) {
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
        if let Some(table) = table {
            correction_line(ui, table, now);
        }
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
            if table.mode() == GameMode::Arbitrated
                && !table.stored.meta.imported
                && table.correctable_move().is_some()
                && ui
                    .button("Correct the last move…")
                    .on_hover_text(
                        "A move entered wrongly: the right move replaces it at the time it was made",
                    )
                    .clicked()
            {
                self.correcting = Some(Correcting {
                    game: id,
                    text: String::new(),
                    reason: String::new(),
                    error: None,
                    focus: true,
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
        common::fmt_elapsed((t * 1e9) as i64)
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
            let log = &table.stored.events;
            for (i, e) in log.iter().enumerate() {
                let mut text = match e.kind {
                    StoredEventKind::Game(event) => describe(&TimedEvent { t: e.t, event }),
                    StoredEventKind::Physical(event) => event.code().replace('_', " "),
                    StoredEventKind::Undo { seq } => format!("undo of event {seq}"),
                };
                if let Some((replaced, at)) = corrected_by(log, i) {
                    text.push_str(&format!(
                        " (replaces event {replaced}; entered at {})",
                        common::fmt_elapsed((at * 1e9) as i64)
                    ));
                }
                ui.label(
                    RichText::new(format!(
                        "{:>3}  {}  {text}",
                        e.seq,
                        common::fmt_elapsed((e.t * 1e9) as i64)
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

/// The "Correct the last move" dialog's state: the right move and the reason as typed.
#[derive(Debug, Clone)]
pub(super) struct Correcting {
    game: GameId,
    text: String,
    reason: String,
    error: Option<String>,
    /// Put the keyboard in the move field on the next frame (the dialog just opened).
    focus: bool,
}

/// Whether entry `i` of a log is the move of a correction: it follows undos, one of which
/// cancelled a move made at the same time. The event it replaces, and when the correction
/// was entered.
fn corrected_by(log: &[crate::store::LogEntry], i: usize) -> Option<(u32, f64)> {
    let entry = &log[i];
    entry.kind.event()?;
    log[..i]
        .iter()
        .rev()
        .take_while(|e| matches!(e.kind, StoredEventKind::Undo { .. }))
        .find_map(|undo| {
            let StoredEventKind::Undo { seq } = undo.kind else {
                return None;
            };
            let cancelled = log.iter().find(|e| e.seq == seq)?;
            (cancelled.t == entry.t && cancelled.kind.code() == entry.kind.code())
                .then_some((seq, undo.t))
        })
}

/// The thinking time each side has used since a moment, in words: "White 0:20, Black 0:00".
fn used_words(used: &ggdesk_core::rules::BySide<i64>) -> String {
    format!(
        "White {}, Black {}",
        fmt_used(used.white),
        fmt_used(used.black)
    )
}

/// A duration used, in whole seconds rounded down: `0:20`, `1:42`.
fn fmt_used(ns: i64) -> String {
    common::fmt_elapsed(ns)
}

/// Under the clocks after a correction (while the corrected move is the last move): what
/// was replaced, and the time each side has used since the move was made, so the arbiter
/// sees that the clocks count from the moment it was really made.
fn correction_line(ui: &mut Ui, table: &LiveTable, now: i64) {
    let Some(seen) = table.stored.logged().last_correction() else {
        return;
    };
    let last_move = table.correctable_move().map(|(seq, _, _)| seq);
    if last_move != Some(seen.seq) {
        return;
    }
    let Some(used) = table.used_since(seen.t, now) else {
        return;
    };
    let (AnyEvent::Game(old), AnyEvent::Game(new)) = (seen.cancelled, seen.replacement) else {
        return;
    };
    let at = fmt_used((seen.t * 1e9) as i64);
    ui.label(
        RichText::new(format!(
            "Corrected: {} replaced by {}, both at {at} (when the move was made).",
            describe(&TimedEvent {
                t: seen.t,
                event: old
            }),
            describe(&TimedEvent {
                t: seen.t,
                event: new
            }),
        ))
        .color(common::AMBER),
    )
    .on_hover_text(format!(
        "The correction was entered at {}; the clocks count from {at}",
        fmt_used((seen.corrected_at * 1e9) as i64)
    ));
    ui.label(
        RichText::new(format!(
            "Used since {at} (pauses excluded): {}",
            used_words(&used)
        ))
        .color(common::AMBER),
    );
}

impl TablesPage {
    /// The "Correct the last move" dialog: the move being replaced and when it was made,
    /// the time each side has used since then (which stays theirs: the right move is entered
    /// at that time), the right move and a reason.
    pub(super) fn correction_dialog(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(state) = self.correcting.as_mut() else {
            return;
        };
        let Some(table) = self.tables.tables.get(&state.game) else {
            self.correcting = None;
            return;
        };
        let Some((_, t, AnyEvent::Game(old))) = table.correctable_move() else {
            self.correcting = None;
            return;
        };
        let at = fmt_used((t * 1e9) as i64);
        let used = table.used_since(t, cx.now_ms);
        let mut close = false;
        let mut queue = None;
        let modal =
            egui::Modal::new(egui::Id::unique("ggdesk-correct-move")).show(ui.ctx(), |ui| {
                ui.set_max_width(480.0);
                ui.heading("Correct the last move");
                ui.add_space(4.0);
                ui.label(format!(
                    "The last move in force is {}, made at {at}. The move you type replaces it at \
                 {at}, the time it was made: the clocks count from then, as if it had been \
                 entered right. The game's record keeps only the right move; the audit log \
                 keeps the move it replaces, when it was made, and your reason.",
                    describe(&TimedEvent { t, event: old })
                ));
                if let Some(used) = &used {
                    ui.label(
                        RichText::new(format!(
                            "Used since {at} (pauses excluded): {}. That time stays where it is.",
                            used_words(used)
                        ))
                        .strong(),
                    );
                }
                ui.add_space(6.0);
                let label = ui.label("The right move:");
                let field = ui
                    .add(
                        egui::TextEdit::singleline(&mut state.text)
                            .hint_text("e3-e4")
                            .desired_width(140.0)
                            .font(egui::TextStyle::Monospace),
                    )
                    .labelled_by(label.id);
                if std::mem::take(&mut state.focus) {
                    field.request_focus();
                }
                let label = ui.label("Reason (kept in the audit log):");
                ui.add(
                    egui::TextEdit::singleline(&mut state.reason)
                        .desired_width(f32::INFINITY)
                        .hint_text("why"),
                )
                .labelled_by(label.id);
                if let Some(e) = &state.error {
                    ui.colored_label(common::RED, e);
                }
                ui.add_space(8.0);
                let allowed = !state.text.trim().is_empty() && !state.reason.trim().is_empty();
                ui.horizontal(|ui| {
                    let confirm = ui.add_enabled(
                        allowed,
                        egui::Button::new(RichText::new("Correct the move").strong()),
                    );
                    let enter = allowed
                        && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
                    if confirm.clicked() || enter {
                        match Move::parse_typed(&state.text) {
                            Ok(mv) => {
                                queue = Some(TableCmd::Correct {
                                    game: state.game,
                                    mv,
                                    reason: state.reason.trim().to_string(),
                                });
                                close = true;
                            }
                            Err(e) => state.error = Some(e),
                        }
                    }
                    if ui.button("Cancel").clicked() {
                        close = true;
                    }
                });
            });
        if modal.should_close() {
            close = true;
        }
        if let Some(cmd) = queue {
            self.queued.push(cmd);
            self.focus_move = true;
        }
        if close {
            self.correcting = None;
        }
    }
}
