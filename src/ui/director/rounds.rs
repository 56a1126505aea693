//! Rounds (F4): pair the next round and look at the proposal with the pairing's reasons per
//! board, swap players by hand (a rematch or a forbidden pair asks first), publish or
//! discard; then the round in play: official start and grace period with one-click default
//! losses, results per board (arbitrated games report theirs by themselves), a printable
//! pairing list, re-pairing after a confirmation, and the round's state at a glance.

use super::{
    Watch, file_stem, hint, need_tournament, next_step, result_long, result_short, round_badges,
    state_badge, status_badge, typing, write_export,
};
use crate::store::{
    Absentee, Actor, BoardStatus, ResultSaved, RoundBoard, RoundInfo, RoundState, RoundView,
};
use crate::ui::PageCtx;
use crate::ui::common::{self, Confirm, ConfirmOutcome, badge, fmt_clock, fmt_local_time};
use egui::{Key, Modifiers, RichText, Ui};
use egui_extras::{Column, TableBuilder};
use ggdesk_core::export::forms::html_escape;
use ggdesk_core::pairing::{self, Pairing};
use ggdesk_core::tournament::{GameResult, PlayerId, Score, Tournament};

#[derive(Debug, Clone, PartialEq)]
enum Guarded {
    Discard(u32),
    Repair(u32),
    /// A manual change the pairing rules advise against, with the warnings shown.
    Swap(PlayerId, PlayerId),
    /// Changing a result already entered.
    Result(u32, u32, GameResult),
}

#[derive(Debug, Clone, PartialEq)]
enum Cmd {
    Pair,
    Publish(u32),
    Discard(u32),
    Repair(u32, String),
    Complete(u32),
    /// Check a swap; swap at once when nothing needs confirming.
    TrySwap(u32, PlayerId, PlayerId),
    Swap(u32, PlayerId, PlayerId),
    Result(u32, u32, GameResult, String),
    Default(u32, u32, Absentee),
    StartAt(u32, Option<i64>),
    Print(u32),
}

/// The Rounds page's own state.
#[derive(Default)]
pub struct RoundsPage {
    rounds: Vec<RoundInfo>,
    pub view: Option<RoundView>,
    tournament: Option<Tournament>,
    grace_ms: i64,
    /// Every player's score before the round shown, computed once per reload.
    scores_before: std::collections::HashMap<u32, Score>,
    watch: Watch,
    /// The round shown; `None` follows the newest.
    pub shown: Option<u32>,
    /// The board whose explanation is shown (and that the result keys act on).
    pub board: Option<u32>,
    /// The first player picked for a swap in a draft.
    pub swap_from: Option<PlayerId>,
    pub start_text: String,
    busy: Option<Cmd>,
    confirm: Option<Confirm<Guarded>>,
    queued: Vec<Cmd>,
    tid: Option<i64>,
}

impl RoundsPage {
    fn reload(&mut self, cx: &mut PageCtx<'_>, tid: i64) {
        if self.tid != Some(tid) {
            self.tid = Some(tid);
            self.shown = None;
            self.board = None;
            self.swap_from = None;
            self.watch.force();
        }
        if !self.watch.stale(cx.store, Some(tid), cx.now_ms) {
            return;
        }
        self.rounds = cx.store.rounds_of(tid).unwrap_or_default();
        let number = self
            .shown
            .filter(|n| self.rounds.iter().any(|r| r.number == *n))
            .or_else(|| self.rounds.last().map(|r| r.number));
        self.view = number.and_then(|n| cx.store.round_view(tid, n).ok().flatten());
        match cx.store.load_tournament(tid) {
            Ok(t) => {
                let before = self
                    .view
                    .as_ref()
                    .map_or(0, |v| v.number.saturating_sub(1) as usize);
                self.scores_before = t
                    .players()
                    .iter()
                    .zip(t.scores(before))
                    .map(|(p, s)| (p.id.0, s))
                    .collect();
                self.tournament = Some(t);
            }
            Err(e) => {
                self.tournament = None;
                cx.notices.error(e.to_string());
            }
        }
        self.grace_ms = cx
            .store
            .tournament_rules(tid)
            .map_or(30 * 60_000, |r| r.grace_ns / 1_000_000);
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(tid) = need_tournament(ui, cx, "Rounds") else {
            return;
        };
        if let Some(cmd) = self.busy.take() {
            self.apply(cmd, cx, tid);
        }
        self.reload(cx, tid);
        if let Some(confirm) = &mut self.confirm {
            match confirm.show(ui.ctx()) {
                ConfirmOutcome::Open => {}
                ConfirmOutcome::Cancelled => {
                    self.confirm = None;
                    self.swap_from = None;
                }
                ConfirmOutcome::Confirmed { action, reason } => {
                    self.confirm = None;
                    let round = self.view.as_ref().map_or(0, |v| v.number);
                    self.queued.push(match action {
                        Guarded::Discard(r) => Cmd::Discard(r),
                        Guarded::Repair(r) => Cmd::Repair(r, reason),
                        Guarded::Swap(a, b) => Cmd::Swap(round, a, b),
                        Guarded::Result(r, b, res) => Cmd::Result(r, b, res, reason),
                    });
                }
            }
        }
        self.keyboard(ui);
        self.header(ui, cx);
        if let Some(Cmd::Pair) = &self.busy {
            ui.label(
                RichText::new("Pairing the round... (a large field takes a few seconds)")
                    .color(common::AMBER)
                    .strong(),
            );
        }
        if self.view.is_some() {
            egui::Panel::right("round-explanation")
                .resizable(false)
                .exact_size(340.0)
                .show(ui, |ui| self.explanation_ui(ui));
            egui::CentralPanel::default().show(ui, |ui| self.boards_ui(ui, cx));
        }
        for cmd in std::mem::take(&mut self.queued) {
            if cmd == Cmd::Pair || matches!(cmd, Cmd::Repair(..)) {
                self.busy = Some(cmd);
                ui.ctx().request_repaint();
            } else {
                self.apply(cmd, cx, tid);
            }
        }
    }

    fn keyboard(&mut self, ui: &mut Ui) {
        if self.confirm.is_some() {
            return;
        }
        let Some(view) = &self.view else {
            if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::P)) {
                self.queued.push(Cmd::Pair);
            }
            return;
        };
        let number = view.number;
        let state = view.state;
        if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::P)) {
            self.queued.push(Cmd::Print(number));
        }
        if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::P)) {
            self.queued.push(Cmd::Pair);
        }
        if state == RoundState::Draft
            && ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::Enter))
        {
            self.queued.push(Cmd::Publish(number));
        }
        if ui.input(|i| i.key_pressed(Key::Escape)) {
            self.swap_from = None;
        }
        if typing(ui) || view.boards.is_empty() {
            return;
        }
        let (down, up) = ui.input(|i| (i.key_pressed(Key::ArrowDown), i.key_pressed(Key::ArrowUp)));
        let n = view.boards.len();
        let pos = self
            .board
            .and_then(|b| view.boards.iter().position(|x| x.board_no == b));
        if down || up {
            let i = match (pos, down) {
                (Some(p), true) => (p + 1).min(n - 1),
                (Some(p), false) => p.saturating_sub(1),
                (None, _) => 0,
            };
            self.board = Some(view.boards[i].board_no);
        }
        if state == RoundState::Draft {
            return;
        }
        let Some(board) = pos.map(|p| view.boards[p].clone()) else {
            return;
        };
        let keyed = ui.input(|i| {
            if i.modifiers.any() {
                None
            } else if i.key_pressed(Key::W) {
                Some(GameResult::WhiteWins)
            } else if i.key_pressed(Key::B) {
                Some(GameResult::BlackWins)
            } else if i.key_pressed(Key::D) {
                Some(GameResult::Draw)
            } else {
                None
            }
        });
        if let Some(result) = keyed {
            self.result_chosen(number, &board, result);
        }
    }

    /// A result picked for a board: entered at once if the board had none, confirmed with
    /// a reason if it changes one.
    fn result_chosen(&mut self, round: u32, board: &RoundBoard, result: GameResult) {
        if board.result == result {
            return;
        }
        if board.result == GameResult::Pending {
            self.queued
                .push(Cmd::Result(round, board.board_no, result, String::new()));
        } else {
            self.confirm = Some(
                Confirm::new(
                    format!("Change the result of table {}", board.table_no),
                    format!(
                        "{} - {}: {} becomes {}.",
                        board.white.name,
                        board.black.name,
                        result_long(board.result),
                        result_long(result)
                    ),
                    "Change the result",
                    Guarded::Result(round, board.board_no, result),
                )
                .with_reason(),
            );
        }
    }

    fn planned(&self) -> Option<u32> {
        self.tournament
            .as_ref()
            .and_then(Tournament::planned_rounds)
    }

    fn header(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        ui.horizontal(|ui| {
            ui.heading("Rounds");
            for r in &self.rounds {
                let shown = self.view.as_ref().map(|v| v.number) == Some(r.number);
                let text = match r.state {
                    RoundState::Draft => format!("Round {} (draft)", r.number),
                    _ => format!("Round {}", r.number),
                };
                if ui.selectable_label(shown, text).clicked() {
                    self.shown = Some(r.number);
                    self.board = None;
                    self.swap_from = None;
                    self.watch.force();
                }
            }
            if let Some(p) = self.planned() {
                ui.label(RichText::new(format!("of {p}")).weak());
            }
        });
        let last = self.rounds.last().copied();
        let players = self.tournament.as_ref().map_or(0, |t| t.players().len());
        let next = last.map_or(1, |r| r.number + 1);
        let all_played = self
            .planned()
            .is_some_and(|p| last.map_or(0, |r| r.number) >= p);
        let can_pair = match last {
            None => players >= 2,
            Some(r) if r.state == RoundState::Draft => false,
            Some(_) => {
                !all_played
                    && self
                        .tournament
                        .as_ref()
                        .is_some_and(|t| t.is_round_complete(t.rounds().len()))
            }
        };
        ui.horizontal(|ui| {
            if can_pair
                && ui
                    .button(RichText::new(format!("Pair round {next}")).strong())
                    .on_hover_text("Ctrl+P: propose the pairing; nothing is shown to the players until you publish")
                    .clicked()
            {
                self.queued.push(Cmd::Pair);
            }
            let Some(view) = &self.view else {
                if players < 2 {
                    next_step(ui, "register at least two players (F3)");
                } else {
                    next_step(ui, &format!("pair round {next} (Ctrl+P)"));
                }
                return;
            };
            let (word, color) = state_badge(view.state);
            ui.label(RichText::new(format!("Round {}", view.number)).strong().size(16.0));
            badge(ui, word, color);
            let number = view.number;
            let is_last = last.map(|r| r.number) == Some(number);
            match view.state {
                RoundState::Draft => {
                    if ui
                        .button(RichText::new(format!("Publish round {number}")).strong())
                        .on_hover_text("Ctrl+Enter: the round is on; the tables can start")
                        .clicked()
                    {
                        self.queued.push(Cmd::Publish(number));
                    }
                    if ui.button("Discard draft").clicked() {
                        self.confirm = Some(Confirm::new(
                            "Discard the draft",
                            format!("The proposed pairing of round {number} and every change made to it will be thrown away."),
                            "Discard",
                            Guarded::Discard(number),
                        ));
                    }
                }
                RoundState::Published | RoundState::Complete => {
                    round_badges(ui, view);
                    if ui
                        .button("Print pairings")
                        .on_hover_text("Ctrl+Shift+P: a pairing list as CSV and a page to print, opened in the browser")
                        .clicked()
                    {
                        self.queued.push(Cmd::Print(number));
                    }
                    let pending = view.boards.iter().any(|b| b.result == GameResult::Pending);
                    if view.state == RoundState::Published && !pending && ui.button("Complete round").clicked() {
                        self.queued.push(Cmd::Complete(number));
                    }
                    if is_last
                        && ui
                            .button(format!("Re-pair round {number}"))
                            .on_hover_text("Withdraw the published pairing and pair the round again")
                            .clicked()
                    {
                        self.confirm = Some(
                            Confirm::new(
                                format!("Re-pair round {number}?"),
                                "The published pairing is withdrawn: games started at the desk are voided \
                                 (their records kept) and results entered for this round are dropped. \
                                 A new draft takes its place.",
                                "Re-pair",
                                Guarded::Repair(number),
                            )
                            .with_reason(),
                        );
                    }
                }
            }
        });
        let Some(view) = &self.view else { return };
        match view.state {
            RoundState::Draft => {
                hint(
                    ui,
                    "To change a board, click one player and then the player to swap with (a bye \
                     or a player not paired works too). Esc cancels.",
                );
                if let Some(p) = self.swap_from {
                    ui.label(
                        RichText::new(format!(
                            "Swapping {}: now click the player to swap with",
                            self.player_name(p)
                        ))
                        .color(common::AMBER)
                        .strong(),
                    );
                } else {
                    next_step(
                        ui,
                        &format!(
                            "check the boards, then publish round {} (Ctrl+Enter)",
                            view.number
                        ),
                    );
                }
            }
            RoundState::Published => {
                let number = view.number;
                let starts_at = view.starts_at;
                self.grace_ui(ui, cx, number, starts_at);
                hint(
                    ui,
                    "Results: pick one per table, or click a table and press W (White wins), \
                     B (Black wins) or D (draw); Up/Down move between tables. Games arbitrated \
                     on the Tables page (F5) report their results by themselves.",
                );
            }
            RoundState::Complete => {
                if last.map(|r| r.number) == Some(view.number) {
                    if all_played {
                        next_step(
                            ui,
                            "the last round is complete: see the final standings (F6)",
                        );
                    } else {
                        next_step(ui, &format!("pair round {next} (Ctrl+P)"));
                    }
                }
            }
        }
    }

    fn grace_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, number: u32, starts_at: Option<i64>) {
        ui.horizontal(|ui| match starts_at {
            None => {
                if ui
                    .button("Start the round now")
                    .on_hover_text("Sets the official start: the grace period runs from it")
                    .clicked()
                {
                    self.queued.push(Cmd::StartAt(number, Some(cx.now_ms)));
                }
                let l = ui.label("or official start at (HH:MM):");
                ui.add(egui::TextEdit::singleline(&mut self.start_text).desired_width(50.0))
                    .labelled_by(l.id);
                if ui.button("Set start").clicked() {
                    match local_time_today(&self.start_text, cx.now_ms) {
                        Some(ms) => self.queued.push(Cmd::StartAt(number, Some(ms))),
                        None => cx.notices.error(format!(
                            "{:?} is not a time of day (HH:MM)",
                            self.start_text.trim()
                        )),
                    }
                }
            }
            Some(start) => {
                let ends = start + self.grace_ms;
                ui.label(format!("Official start {}", fmt_local_time(start)));
                if cx.now_ms < ends {
                    let left = (ends - cx.now_ms) * 1_000_000;
                    badge(
                        ui,
                        &format!("Grace period: {} left", fmt_clock(left)),
                        common::GREEN,
                    );
                    ui.label(
                        RichText::new(format!(
                            "a player not seated by {} loses by default",
                            fmt_local_time(ends)
                        ))
                        .weak(),
                    );
                } else {
                    badge(ui, "Grace period over", common::RED);
                    ui.label(
                        RichText::new(
                            "boards still awaiting a result can be given a default loss below",
                        )
                        .weak(),
                    );
                }
                if ui.small_button("Clear start").clicked() {
                    self.queued.push(Cmd::StartAt(number, None));
                }
            }
        });
        if let Some(view) = &self.view
            && view.boards.iter().all(|b| b.result != GameResult::Pending)
            && !view.boards.is_empty()
        {
            next_step(ui, "every result is in: complete the round");
        }
    }

    fn player_name(&self, p: PlayerId) -> String {
        self.tournament
            .as_ref()
            .and_then(|t| t.player(p))
            .map_or_else(|| p.to_string(), |x| format!("{} {}", p, x.name))
    }

    /// A player's score before the round shown.
    fn score_before(&self, p: u32) -> String {
        self.scores_before
            .get(&p)
            .map_or_else(String::new, |s| s.to_string())
    }

    fn explanation_ui(&mut self, ui: &mut Ui) {
        let Some(view) = &self.view else { return };
        ui.heading("Why these boards");
        egui::ScrollArea::vertical()
            .id_salt("explanation")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if let Some(b) = self
                    .board
                    .and_then(|n| view.boards.iter().find(|b| b.board_no == n))
                {
                    ui.label(RichText::new(format!("Table {}", b.table_no)).strong());
                    if b.explanation.is_empty() {
                        ui.label("No explanation (the round came from a tournament file).");
                    } else {
                        ui.label(RichText::new(&b.explanation).monospace().size(11.5));
                    }
                    ui.separator();
                } else {
                    hint(ui, "Click a board to see why it was paired so.");
                }
                for (p, why) in &view.byes {
                    if !why.is_empty() {
                        ui.label(RichText::new(why).monospace().size(11.5));
                    } else {
                        ui.label(format!("Bye: {} {}", p.no, p.name));
                    }
                }
                if !view.explanation.is_empty() {
                    ui.separator();
                    ui.label(RichText::new(&view.explanation).monospace().size(11.5));
                }
            });
    }

    fn boards_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(view) = self.view.clone() else {
            return;
        };
        let draft = view.state == RoundState::Draft;
        let grace_over = view
            .starts_at
            .is_some_and(|s| cx.now_ms >= s + self.grace_ms);
        let number = view.number;
        let mut clicked_board = None;
        let mut picked: Option<PlayerId> = None;
        let mut chosen: Option<(usize, GameResult)> = None;
        let mut default: Option<(u32, Absentee)> = None;
        let swap_from = self.swap_from;
        let scores: Vec<(String, String)> = view
            .boards
            .iter()
            .map(|b| (self.score_before(b.white.no), self.score_before(b.black.no)))
            .collect();
        let selected_board = self.board;
        let table_height = (ui.available_height() - 70.0).max(120.0);
        // A click on a name selects the row rather than starting a text selection.
        ui.style_mut().interaction.selectable_labels = false;
        TableBuilder::new(ui)
            .id_salt(("boards", number, draft, grace_over))
            .striped(true)
            .sense(egui::Sense::click())
            .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
            .max_scroll_height(table_height)
            .column(Column::exact(44.0))
            .column(Column::remainder().at_least(150.0).clip(true))
            .column(Column::exact(40.0))
            .column(Column::remainder().at_least(150.0).clip(true))
            .column(Column::exact(40.0))
            .column(Column::exact(if draft { 100.0 } else { 150.0 }))
            .column(Column::exact(if draft { 300.0 } else { 120.0 }).clip(true))
            .column(Column::exact(if draft || !grace_over {
                1.0
            } else {
                190.0
            }))
            .header(22.0, |mut h| {
                for t in [
                    "Table",
                    "White",
                    "Pts",
                    "Black",
                    "Pts",
                    if draft { "" } else { "Result" },
                    if draft {
                        "Why (click a board for more)"
                    } else {
                        "State"
                    },
                    if draft || !grace_over {
                        ""
                    } else {
                        "Default loss"
                    },
                ] {
                    h.col(|ui| {
                        ui.label(RichText::new(t).strong());
                    });
                }
            })
            .body(|body| {
                body.rows(26.0, view.boards.len(), |mut row| {
                    let i = row.index();
                    let b = &view.boards[i];
                    row.set_selected(selected_board == Some(b.board_no));
                    row.col(|ui| {
                        ui.label(RichText::new(b.table_no.to_string()).strong());
                    });
                    for (p, score) in [(&b.white, &scores[i].0), (&b.black, &scores[i].1)] {
                        row.col(|ui| {
                            let text = format!("{} {}", p.no, p.name);
                            let rating = RichText::new(p.rating.to_string()).weak().small();
                            ui.horizontal(|ui| {
                                if draft {
                                    let on = swap_from == Some(PlayerId(p.no));
                                    if ui.selectable_label(on, text).clicked() {
                                        picked = Some(PlayerId(p.no));
                                    }
                                } else {
                                    ui.label(text);
                                }
                                ui.label(rating);
                            });
                        });
                        row.col(|ui| {
                            ui.label(score);
                        });
                    }
                    row.col(|ui| {
                        if draft {
                            if ui
                                .small_button("Swap colours")
                                .on_hover_text(format!("Swap colours on table {}", b.table_no))
                                .clicked()
                            {
                                chosen = Some((i, GameResult::Pending));
                            }
                            return;
                        }
                        let mut value = b.result;
                        let label = format!("Result of table {}", b.table_no);
                        egui::ComboBox::from_id_salt(("result", number, b.board_no))
                            .selected_text(result_short(b.result))
                            .width(140.0)
                            .show_ui(ui, |ui| {
                                for r in GameResult::ALL {
                                    ui.selectable_value(&mut value, r, result_long(r));
                                }
                            })
                            .response
                            .accessible_name(label);
                        if value != b.result {
                            chosen = Some((i, value));
                        }
                    });
                    row.col(|ui| {
                        if draft {
                            let first = b
                                .explanation
                                .lines()
                                .nth(1)
                                .unwrap_or(b.explanation.as_str())
                                .trim();
                            let r =
                                ui.add(egui::Label::new(RichText::new(first).small()).truncate());
                            if !b.explanation.is_empty() {
                                r.on_hover_text(&b.explanation);
                            }
                            return;
                        }
                        let (word, color) = status_badge(b.status);
                        ui.horizontal(|ui| {
                            ui.label(RichText::new(word).color(color).strong().small());
                        });
                    });
                    row.col(|ui| {
                        if !draft
                            && grace_over
                            && b.status == BoardStatus::AwaitingResult
                            && b.result == GameResult::Pending
                        {
                            ui.horizontal(|ui| {
                                for (text, who, name) in [
                                    ("W absent", Absentee::White, "White absent"),
                                    ("B absent", Absentee::Black, "Black absent"),
                                    ("Both", Absentee::Both, "Both absent"),
                                ] {
                                    if ui
                                        .small_button(text)
                                        .accessible_name(format!("{name} at table {}", b.table_no))
                                        .on_hover_text(format!(
                                            "{name}: default loss ({})",
                                            result_long(who.result())
                                        ))
                                        .clicked()
                                    {
                                        default = Some((b.board_no, who));
                                    }
                                }
                            });
                        }
                    });
                    if row.response().clicked() {
                        clicked_board = Some(b.board_no);
                    }
                });
            });
        // Byes and players not in the round: they can be swapped in a draft.
        let t = self.tournament.as_ref();
        let seated: std::collections::HashSet<u32> = view
            .boards
            .iter()
            .flat_map(|b| [b.white.no, b.black.no])
            .chain(view.byes.iter().map(|(p, _)| p.no))
            .collect();
        let out: Vec<(u32, String, bool)> = t
            .map(|t| {
                t.players()
                    .iter()
                    .filter(|p| !seated.contains(&p.id.0))
                    .map(|p| (p.id.0, p.name.clone(), p.withdrawn))
                    .collect()
            })
            .unwrap_or_default();
        ui.horizontal_wrapped(|ui| {
            if !view.byes.is_empty() {
                ui.label(RichText::new("Bye:").strong());
                for (p, _) in &view.byes {
                    let text = format!("{} {}", p.no, p.name);
                    if draft {
                        if ui
                            .selectable_label(swap_from == Some(PlayerId(p.no)), text)
                            .clicked()
                        {
                            picked = Some(PlayerId(p.no));
                        }
                    } else {
                        ui.label(text);
                    }
                }
            }
            let playing: Vec<&(u32, String, bool)> = out.iter().filter(|p| !p.2).collect();
            if !playing.is_empty() {
                ui.label(RichText::new("Not paired:").strong());
                for (no, name, _) in playing {
                    let asked = view.absent.iter().any(|a| a.no == *no);
                    let text = format!("{no} {name}{}", if asked { " (absent)" } else { "" });
                    if draft {
                        if ui
                            .selectable_label(swap_from == Some(PlayerId(*no)), text)
                            .clicked()
                        {
                            picked = Some(PlayerId(*no));
                        }
                    } else {
                        ui.label(text);
                    }
                }
            }
            let withdrawn = out.iter().filter(|p| p.2).count();
            if withdrawn > 0 {
                ui.label(RichText::new(format!("{withdrawn} withdrawn")).weak());
            }
        });
        if let Some(n) = clicked_board {
            self.board = Some(n);
        }
        if let Some(p) = picked {
            match self.swap_from {
                None => self.swap_from = Some(p),
                Some(a) if a == p => self.swap_from = None,
                Some(a) => {
                    self.swap_from = None;
                    self.queued.push(Cmd::TrySwap(number, a, p));
                }
            }
        }
        if let Some((i, result)) = chosen {
            let b = &view.boards[i];
            if draft {
                self.queued.push(Cmd::TrySwap(
                    number,
                    PlayerId(b.white.no),
                    PlayerId(b.black.no),
                ));
            } else {
                self.board = Some(b.board_no);
                self.result_chosen(number, b, result);
            }
        }
        if let Some((board, who)) = default {
            self.queued.push(Cmd::Default(number, board, who));
        }
    }

    fn report_saved(cx: &mut PageCtx<'_>, saved: Option<ResultSaved>, round: u32) {
        if let Some(ResultSaved {
            completed: Some(note),
        }) = saved
        {
            cx.notices
                .info(format!("Round {round} is complete; {}", note.describe()));
        }
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: i64) {
        let actor = Actor::director();
        match cmd {
            Cmd::Pair => {
                let r = cx.store.pair_round(tid, &actor);
                if let Some(n) = cx.notices.report(r, "") {
                    cx.notices.info(format!(
                        "Round {n} proposed: check it, then publish (nothing is shown to the players yet)"
                    ));
                    self.shown = Some(n);
                    self.board = None;
                }
            }
            Cmd::Publish(n) => {
                let r = cx.store.publish_round(tid, n, &actor);
                if let Some(note) = cx.notices.report(r, "") {
                    cx.notices.info(format!(
                        "Round {n} published: the tables can start; {}",
                        note.describe()
                    ));
                }
            }
            Cmd::Discard(n) => {
                let r = cx.store.discard_draft(tid, n, &actor);
                if cx
                    .notices
                    .report(r, &format!("Draft of round {n} discarded"))
                    .is_some()
                {
                    self.shown = None;
                }
            }
            Cmd::Repair(n, reason) => {
                let r = cx.store.repair_round(tid, n, &reason, &actor);
                if let Some(n) = cx.notices.report(r, "") {
                    cx.notices.info(format!(
                        "Round {n} re-paired as a draft: check it and publish it again"
                    ));
                    self.shown = Some(n);
                }
            }
            Cmd::Complete(n) => {
                let r = cx.store.complete_round(tid, n, &actor);
                if let Some(note) = cx.notices.report(r, "") {
                    cx.notices
                        .info(format!("Round {n} complete; {}", note.describe()));
                }
            }
            Cmd::TrySwap(n, a, b) => match cx.store.check_swap(tid, n, a, b) {
                Err(e) => cx.notices.error(e.to_string()),
                Ok(warnings) if warnings.is_empty() => {
                    let r = cx.store.swap_players(tid, n, a, b, false, &actor);
                    cx.notices
                        .report(r, "Board changed by hand (in the audit log)");
                }
                Ok(warnings) => {
                    self.confirm = Some(Confirm::new(
                        "This change breaks a pairing rule",
                        format!(
                            "{}.\nSwap anyway? The confirmation goes into the audit log.",
                            warnings.join(";\n")
                        ),
                        "Swap anyway",
                        Guarded::Swap(a, b),
                    ));
                }
            },
            Cmd::Swap(n, a, b) => {
                let r = cx.store.swap_players(tid, n, a, b, true, &actor);
                cx.notices.report(
                    r,
                    "Board changed by hand; the confirmation is in the audit log",
                );
            }
            Cmd::Result(n, board, result, reason) => {
                let r = cx.store.set_result(tid, n, board, result, &reason, &actor);
                let saved = cx.notices.report(r, "");
                Self::report_saved(cx, saved, n);
            }
            Cmd::Default(n, board, who) => {
                let r = cx.store.default_loss(tid, n, board, who, cx.now_ms, &actor);
                let saved = cx.notices.report(r, "Default loss entered");
                Self::report_saved(cx, saved, n);
            }
            Cmd::StartAt(n, at) => {
                let r = cx.store.set_round_start(tid, n, at, &actor);
                cx.notices.report(
                    r,
                    if at.is_some() {
                        "Official start set: the grace period runs"
                    } else {
                        "Official start cleared"
                    },
                );
            }
            Cmd::Print(n) => {
                let result = self.print(cx, tid, n);
                if let Some((csv, html)) = cx.notices.report(result, "") {
                    cx.notices
                        .info(format!("Pairing list written: {}", csv.display()));
                    crate::ui::arbiter::open_in_browser(&html, cx.notices);
                }
            }
        }
        self.watch.force();
    }

    /// Writes the pairing list of a round as CSV (the core's writer) and as a page to print.
    fn print(
        &self,
        cx: &mut PageCtx<'_>,
        tid: i64,
        n: u32,
    ) -> Result<(std::path::PathBuf, std::path::PathBuf), String> {
        let view = cx
            .store
            .round_view(tid, n)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("round {n} has not been paired"))?;
        let t = cx.store.load_tournament(tid).map_err(|e| e.to_string())?;
        let pairing = Pairing {
            round: n as usize,
            games: view
                .boards
                .iter()
                .map(|b| pairing::Board {
                    table: b.table_no,
                    white: PlayerId(b.white.no),
                    black: PlayerId(b.black.no),
                })
                .collect(),
            byes: view.byes.iter().map(|(p, _)| PlayerId(p.no)).collect(),
            absent: Vec::new(),
        };
        let stem = format!("{}-round-{n}", file_stem(t.name()));
        let csv = write_export(
            cx.store,
            &format!("{stem}-pairings.csv"),
            &ggdesk_core::export::pairing_csv(&t, &pairing),
        )?;
        let html = write_export(
            cx.store,
            &format!("{stem}-pairings.html"),
            &pairing_page(&t, &view),
        )?;
        Ok((csv, html))
    }
}

/// Today's local time `HH:MM` as Unix ms, on the day of `now_ms`.
fn local_time_today(text: &str, now_ms: i64) -> Option<i64> {
    use chrono::{Local, NaiveTime, TimeZone};
    let time = NaiveTime::parse_from_str(text.trim(), "%H:%M").ok()?;
    let today = Local.timestamp_millis_opt(now_ms).single()?.date_naive();
    let local = Local
        .from_local_datetime(&today.and_time(time))
        .earliest()?;
    Some(local.timestamp_millis())
}

/// The print-ready pairing list: tables in order with each player's score before the round,
/// an empty result column for the arbiters, then byes.
pub fn pairing_page(t: &Tournament, view: &RoundView) -> String {
    let scores: std::collections::HashMap<PlayerId, Score> = t
        .players()
        .iter()
        .map(|p| p.id)
        .zip(t.scores(view.number.saturating_sub(1) as usize))
        .collect();
    let score = |p: u32| {
        scores
            .get(&PlayerId(p))
            .map_or_else(String::new, |s| s.to_string())
    };
    let mut rows = String::new();
    for b in &view.boards {
        let result = if b.result == GameResult::Pending {
            String::new()
        } else {
            result_short(b.result).to_string()
        };
        rows.push_str(&format!(
            "<tr><td class=num>{}</td><td>{} {}</td><td class=num>{}</td><td>{} {}</td><td class=num>{}</td><td class=res>{}</td></tr>\n",
            b.table_no,
            b.white.no,
            html_escape(&b.white.name),
            score(b.white.no),
            b.black.no,
            html_escape(&b.black.name),
            score(b.black.no),
            html_escape(&result)
        ));
    }
    let byes: Vec<String> = view
        .byes
        .iter()
        .map(|(p, _)| format!("{} {}", p.no, html_escape(&p.name)))
        .collect();
    let byes = if byes.is_empty() {
        String::new()
    } else {
        format!("<p><b>Bye:</b> {}</p>", byes.join(", "))
    };
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title} - round {n}</title>\
         <style>body{{font-family:sans-serif;margin:2em;color:#111}}h1{{font-size:1.5em;margin:0}}\
         table{{border-collapse:collapse;margin-top:1em;width:100%}}td,th{{border:1px solid #888;padding:.3em .6em;text-align:left}}\
         th{{background:#eee}}.num{{text-align:right;width:3em}}.res{{width:7em}}tr{{page-break-inside:avoid}}\
         @media print{{body{{margin:1cm}}}}</style></head><body>\n\
         <h1>{title}</h1><p>Round {n}: pairings ({boards} tables). Points before the round.</p>\n\
         <table><tr><th>Table</th><th>White</th><th>Pts</th><th>Black</th><th>Pts</th><th>Result</th></tr>\n{rows}</table>\n{byes}\n\
         </body></html>\n",
        title = html_escape(t.name()),
        n = view.number,
        boards = view.boards.len(),
    )
}
