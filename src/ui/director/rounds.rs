//! Rounds (F4): pair the next round and look at the proposal with the pairing's reasons per
//! board, swap players by hand (a rematch or a forbidden pair asks first), publish or
//! discard; then the round in play: official start and grace period with one-click default
//! losses, results per board (arbitrated games report theirs by themselves), printouts
//! (pairings by table and by name, result slips), re-pairing after a confirmation, and the
//! round's state at a glance.
//!
//! An event in stages: each round is named by its stage ("Stage 1 · Swiss · round 3 of 6",
//! a knockout round by its name), the players out of the event are shown as out (where they
//! went out), a complete stage shows its cut (who goes on with their seeds, a tie at the
//! cut with its playoff games) and the one next action: pair the next round, seed the next
//! stage, or start the next games of a knockout or a playoff (the Bracket page's action).
//!
//! Pages draw; commands apply: the drawing functions only queue a [`Cmd`]; `apply` runs
//! them through the store after drawing, one transaction each.

use super::{
    Watch, file_stem, hint, need_tournament, next_step, result_long, result_short, round_badges,
    state_badge, status_badge, write_export,
};
use crate::store::{ResultSaved, TournamentId};
use crate::ui::PageCtx;
use crate::ui::common::{
    self, Confirm, LoadErrors, Reasoned, badge, fmt_clock, fmt_local_time, poll_confirm,
};
use crate::ui::files;
use egui::{Key, Modifiers, RichText, Ui};
use egui_extras::Column;
use ggdesk_core::event::words::match_title;
use ggdesk_core::event::{
    Absentee, BoardStatus, BoardView as RoundBoard, Confirmation, Event, NextAction, RoundState,
    RoundView,
};
use ggdesk_core::export::print::{self, PrintBoard, PrintPlayer, PrintRound};
use ggdesk_core::pairing::{self, Pairing};
use ggdesk_core::tournament::{BoardNo, GameResult, PlayerId, RoundNo, Score, StageNo};
use std::collections::HashMap;

/// The width kept for a player's rating after the name on the boards.
const RATING_WIDTH: f32 = 44.0;

/// A printout of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Printout {
    /// The pairing list by table (and its CSV).
    ByTable,
    /// Every player in alphabetical order, for the wall.
    ByName,
    /// A result slip per table with signature lines.
    Slips,
}

#[derive(Debug, Clone, PartialEq)]
enum Cmd {
    Pair,
    Publish(RoundNo),
    Discard(RoundNo),
    Repair(RoundNo, String),
    Complete(RoundNo),
    /// Check a swap; swap at once when nothing needs confirming.
    TrySwap(RoundNo, PlayerId, PlayerId),
    /// A swap confirmed despite the warnings shown.
    SwapConfirmed(RoundNo, PlayerId, PlayerId),
    Result(RoundNo, BoardNo, GameResult, String),
    Default(RoundNo, BoardNo, Absentee),
    StartAt(RoundNo, Option<i64>),
    Print(RoundNo, Printout),
    /// An event in stages: pair and publish the next games of a knockout, or the playoff
    /// games at a cut (the Bracket page's "Start the next games").
    StartNext,
}

impl Reasoned for Cmd {
    fn with_reason(self, reason: String) -> Self {
        match self {
            Cmd::Repair(r, _) => Cmd::Repair(r, reason),
            Cmd::Result(r, b, res, _) => Cmd::Result(r, b, res, reason),
            other => other,
        }
    }
}

/// The Rounds page's own state.
#[derive(Default)]
pub struct RoundsPage {
    /// A team event's rounds (drawn instead of these when the tournament is one).
    pub team: super::team_rounds::TeamRoundsPage,
    pub view: Option<RoundView>,
    /// When the grace period of the round shown ends (its start plus the tournament's
    /// grace period), as the event says.
    grace_ends: Option<i64>,
    /// Every player's points before the round shown (in its stage), once per reload.
    scores_before: HashMap<PlayerId, Score>,
    watch: Watch,
    load: LoadErrors,
    /// The round shown; `None` follows the newest.
    pub shown: Option<RoundNo>,
    /// The board whose explanation is shown (and that the result keys act on).
    pub board: Option<BoardNo>,
    /// The first player picked for a swap in a draft.
    pub swap_from: Option<PlayerId>,
    pub start_text: String,
    busy: Option<Cmd>,
    confirm: Option<Confirm<Cmd>>,
    queued: Vec<Cmd>,
    tid: Option<TournamentId>,
    /// The games at this desk's tables whose clocks the arbiter paused (set by the desk
    /// before each frame of this page): their boards say PAUSED, not PLAYING.
    pub paused: std::collections::HashSet<ggdesk_core::tournament::GameId>,
    /// An arbiter station's desk: the round's pairings read-only (no pairing, publishing,
    /// start, re-pair or result: the director's), drafts not shown.
    station: bool,
    /// The tournament's event as the core replays it (its rounds, stages, cuts, playoffs,
    /// bracket, and what comes next).
    pub event: Option<Event>,
    /// What the event says comes next, asked once when it is read (not at every frame).
    next: Option<NextAction>,
}

impl RoundsPage {
    fn reload(&mut self, cx: &mut PageCtx<'_>, tid: TournamentId) {
        if self.tid != Some(tid) {
            self.tid = Some(tid);
            self.shown = None;
            self.board = None;
            self.swap_from = None;
            self.watch.force();
        }
        if !self.watch.stale(cx, Some(tid)) {
            return;
        }
        let mut load = LoadErrors::default();
        self.event = super::event_of(&mut load, cx.store, tid, "the rounds");
        self.next = self.event.as_ref().map(Event::next_action);
        self.view = None;
        self.grace_ends = None;
        self.scores_before = HashMap::new();
        if let Some(event) = &self.event {
            let number = self
                .shown
                .filter(|n| self.rounds().iter().any(|r| r.number == *n))
                .or_else(|| self.rounds().last().map(|r| r.number));
            if let Some(n) = number {
                cx.store.shown(event, n);
                self.view = event.round_view(n);
                self.grace_ends = event.grace_ends_at(n);
                // The points within the round's stage (a stage starts from 0); none in a
                // knockout or a playoff, which score no points.
                self.scores_before = event.scores_before(n);
            }
        }
        self.load = load;
    }

    /// The rounds this desk shows: every one, or (a station) those published.
    fn rounds(&self) -> Vec<&ggdesk_core::event::RoundRecord> {
        self.event.as_ref().map_or_else(Vec::new, |e| {
            e.rounds()
                .iter()
                .filter(|r| !self.station || r.state != RoundState::Draft)
                .collect()
        })
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(tid) = need_tournament(ui, cx, "Rounds") else {
            return;
        };
        // A team event's rounds are matches on boards: their own page.
        if self.team.is_team_event(cx, tid) {
            self.team.ui(ui, cx, tid);
            return;
        }
        let station = cx.my_tables.is_some();
        if station != self.station {
            self.station = station;
            self.watch.force();
        }
        if let Some(cmd) = self.busy.take() {
            self.apply(cmd, cx, tid);
        }
        self.reload(cx, tid);
        let asking = self.confirm.is_some();
        match poll_confirm(&mut self.confirm, ui.ctx()) {
            Some(cmd) => self.queued.push(cmd),
            // Cancelled: a swap in hand is dropped with it.
            None if asking && self.confirm.is_none() => self.swap_from = None,
            None => {}
        }
        if self.load.banner(ui) {
            return;
        }
        self.keyboard(ui, cx.typing);
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
            egui::CentralPanel::default().show(ui, |ui| self.boards_ui(ui, cx.now_ms));
        }
        for cmd in std::mem::take(&mut self.queued) {
            if cmd == Cmd::Pair || matches!(cmd, Cmd::Repair(..)) {
                self.busy = Some(cmd);
                ui.ctx().request_repaint();
            } else {
                self.apply(cmd, cx, tid);
            }
        }
        // The grace period counts down by the second.
        if let Some(ends) = self.grace_ends
            && cx.now_ms < ends
        {
            let ms = (ends - cx.now_ms).rem_euclid(1000).max(1) as u64;
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(ms));
        }
    }

    /// The page's keys, none of them while a text field has the keyboard: Ctrl+P pairs,
    /// Ctrl+Enter publishes, Ctrl+Shift+P prints, Up/Down choose a table, W/B/D enter a
    /// result, Esc cancels a swap.
    fn keyboard(&mut self, ui: &mut Ui, typing: bool) {
        if self.confirm.is_some() || typing {
            return;
        }
        let Some(view) = &self.view else {
            if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::P))
                && let Some(cmd) = self.pair_cmd()
            {
                self.queued.push(cmd);
            }
            return;
        };
        let number = view.number;
        let state = view.state;
        if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::P)) {
            self.queued.push(Cmd::Print(number, Printout::ByTable));
        }
        if self.station {
            self.board_keys(ui);
            return;
        }
        if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::P))
            && let Some(cmd) = self.pair_cmd()
        {
            self.queued.push(cmd);
        }
        if state == RoundState::Draft
            && ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::Enter))
        {
            self.queued.push(Cmd::Publish(number));
        }
        if ui.input(|i| i.key_pressed(Key::Escape)) {
            self.swap_from = None;
        }
        let Some(pos) = self.board_keys(ui) else {
            return;
        };
        if state == RoundState::Draft {
            return;
        }
        let Some(board) = pos.and_then(|p| self.view.as_ref().map(|v| v.boards[p].clone())) else {
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

    /// Up/Down choose a board; the position of the board chosen before, or `None` when the
    /// round has no board.
    fn board_keys(&mut self, ui: &mut Ui) -> Option<Option<usize>> {
        let view = self.view.as_ref()?;
        if view.boards.is_empty() {
            return None;
        }
        let (down, up) = ui.input(|i| (i.key_pressed(Key::ArrowDown), i.key_pressed(Key::ArrowUp)));
        let n = view.boards.len();
        let pos = self
            .board
            .and_then(|b| view.boards.iter().position(|x| x.board == b));
        if down || up {
            let i = match (pos, down) {
                (Some(p), true) => (p + 1).min(n - 1),
                (Some(p), false) => p.saturating_sub(1),
                (None, _) => 0,
            };
            self.board = Some(view.boards[i].board);
        }
        Some(pos)
    }

    /// A result picked for a board: entered at once if the board had none and no game runs
    /// for it at the desk, confirmed with a reason if it changes one (and warned about when
    /// the result came from a game played at the desk, whose record then says otherwise) or
    /// if a game is under way at the desk (it plays on, and its result replaces this one).
    fn result_chosen(&mut self, round: RoundNo, board: &RoundBoard, result: GameResult) {
        if board.result == result {
            return;
        }
        if board.result == GameResult::Pending {
            match (board.status, board.game) {
                // A game whose clocks run gives its own result: the store refuses one from
                // here, and says so, without a dialog asking for a reason first.
                (BoardStatus::SettingUp | BoardStatus::Adjudication, Some(game)) => {
                    self.confirm = Some(
                        Confirm::new(
                            format!("Table {} is being played at the desk", board.table),
                            game_under_way(board, game, result),
                            "Enter the result",
                            Cmd::Result(round, board.board, result, String::new()),
                        )
                        .with_reason(),
                    );
                }
                _ => self
                    .queued
                    .push(Cmd::Result(round, board.board, result, String::new())),
            }
            return;
        }
        let mut message = format!(
            "{} - {}: {} becomes {}.",
            board.white.name,
            board.black.name,
            result_long(board.result),
            result_long(result)
        );
        if let Some(game) = board.game {
            message.push_str(&format!(
                "\n\nThis result came from the game played at the desk (game {game}). The new \
                 result contradicts the game's record, which stays as it was played: say why."
            ));
        }
        self.confirm = Some(
            Confirm::new(
                format!("Change the result of table {}", board.table),
                message,
                "Change the result",
                Cmd::Result(round, board.board, result, String::new()),
            )
            .with_reason(),
        );
    }

    /// What Ctrl+P does: the next action (pair, seed the next stage, start the next games);
    /// when nothing can be paired, the pairing is asked for and the refusal says why.
    fn pair_cmd(&self) -> Option<Cmd> {
        self.next.as_ref().map(command_for)
    }

    /// The next action as one button.
    fn next_button(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(next) = self.next.clone() else {
            return;
        };
        let cmd = command_for(&next);
        let in_stages = self.event.as_ref().is_some_and(Event::in_stages);
        // The button's words and what hovering it says.
        let (label, hover) = match next {
            NextAction::Pair { number, .. } => (
                format!("Pair round {number}"),
                "Ctrl+P: propose the pairing; nothing is shown to the players until you publish",
            ),
            NextAction::Start(words) => (
                words,
                "Ctrl+P: pairs and publishes one game for every open match (or the playoff \
                 games): the games appear at their tables",
            ),
            NextAction::Seed {
                label, start: true, ..
            } => (
                label,
                "Ctrl+P: seeds the knockout from the cut and starts its first games at their \
                 tables",
            ),
            NextAction::Seed { label, .. } => (
                label,
                "Ctrl+P: seeds the stage from the cut and proposes its first round as a draft; \
                 nothing is shown to the players until you publish",
            ),
            NextAction::Over if in_stages => {
                if ui.button("Final placement: Bracket page (F11)").clicked() {
                    *cx.goto = Some(crate::ui::Page::Bracket);
                }
                return;
            }
            _ => return,
        };
        if ui
            .button(RichText::new(label).strong())
            .on_hover_text(hover)
            .clicked()
        {
            self.queued.push(cmd);
        }
    }

    fn header(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        self.round_tabs(ui);
        // Wrapped: a stage's round title and the next action may not fit one line.
        ui.horizontal_wrapped(|ui| {
            if !self.station {
                self.next_button(ui, cx);
            }
            if let Some(view) = self.view.clone() {
                self.round_actions(ui, &view);
            }
        });
        self.round_hint(ui, cx);
        if !self.station {
            self.cut_ui(ui);
        }
    }

    /// The cut of a complete stage while it is the business at hand (its tie being played
    /// off, or the next stage not yet begun): who goes on, with their seeds, and any tie at
    /// the cut with its playoff games.
    fn cut_ui(&self, ui: &mut Ui) {
        let Some(event) = &self.event else { return };
        let rounds = self.rounds();
        let last_shown = self.view.as_ref().map(|v| v.number) == rounds.last().map(|r| r.number);
        if !last_shown {
            return;
        }
        let Some(cut) = event.cut_at_hand() else {
            return;
        };
        let name = |p: PlayerId| event.named(p).to_string();
        ui.add_space(4.0);
        egui::Frame::group(ui.style()).show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("stage-cut")
                .max_height(190.0)
                .show(ui, |ui| {
                    ui.label(
                        RichText::new(format!(
                            "The cut of stage {} ({}): the top {}{} go on",
                            cut.stage,
                            cut.name,
                            cut.advance,
                            if cut.grouped { " of each group" } else { "" }
                        ))
                        .strong(),
                    );
                    if let Some(next) = &cut.next {
                        let (stage, stage_name) = (next.stage, &next.name);
                        let seeds: Vec<String> = next
                            .seeds
                            .iter()
                            .enumerate()
                            .map(|(i, (p, place))| format!("{}. {} ({place})", i + 1, name(*p)))
                            .collect();
                        ui.label(format!(
                            "Going on to stage {stage} ({stage_name}), by seed: {}",
                            seeds.join(" · ")
                        ));
                    }
                    for group in &cut.groups {
                        cut_group_ui(ui, &cut, group, &name);
                    }
                });
        });
    }

    /// The rounds as tabs, and how many are planned.
    fn round_tabs(&mut self, ui: &mut Ui) {
        let Some(event) = &self.event else { return };
        let staged = event.in_stages();
        let rounds: Vec<(RoundNo, RoundState, StageNo)> = self
            .rounds()
            .iter()
            .map(|r| (r.number, r.state, r.stage))
            .collect();
        let planned = event.one_system().and_then(|t| t.planned_rounds());
        let mut clicked = None;
        // Wrapped: a knockout of series adds a round for every game.
        ui.horizontal_wrapped(|ui| {
            ui.heading("Rounds");
            let mut stage = None;
            for &(number, state, s) in &rounds {
                // An event in stages: each stage's rounds after its number.
                if staged && stage != Some(s) {
                    stage = Some(s);
                    ui.label(RichText::new(format!("Stage {s}:")).weak());
                }
                let shown = self.view.as_ref().map(|v| v.number) == Some(number);
                let text = match state {
                    RoundState::Draft => format!("Round {number} (draft)"),
                    _ => format!("Round {number}"),
                };
                if ui.selectable_label(shown, text).clicked() {
                    clicked = Some(number);
                }
            }
            if let Some(p) = planned {
                ui.label(RichText::new(format!("of {p}")).weak());
            }
        });
        if let Some(n) = clicked {
            self.shown = Some(n);
            self.board = None;
            self.swap_from = None;
            self.watch.force();
        }
    }

    /// What can be done with the round shown.
    fn round_actions(&mut self, ui: &mut Ui, view: &RoundView) {
        let (word, color) = state_badge(view.state);
        let title = match &self.event {
            Some(event) if event.in_stages() => {
                format!("{} (round {})", event.place_words(view.number), view.number)
            }
            _ => format!("Round {}", view.number),
        };
        ui.label(RichText::new(title).strong().size(16.0));
        badge(ui, word, color);
        let number = view.number;
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
                        format!(
                            "The proposed pairing of round {number} and every change made to it will be thrown away."
                        ),
                        "Discard",
                        Cmd::Discard(number),
                    ));
                }
            }
            RoundState::Published | RoundState::Complete => {
                round_badges(ui, view);
                for (label, what, hover) in [
                    (
                        "Print pairings",
                        Printout::ByTable,
                        "Ctrl+Shift+P: by table, with a CSV; opened in the browser",
                    ),
                    (
                        "Print by name",
                        Printout::ByName,
                        "Every player A-Z with table and opponent, for the wall",
                    ),
                    (
                        "Print result slips",
                        Printout::Slips,
                        "One slip per table with signature lines",
                    ),
                ] {
                    if ui.button(label).on_hover_text(hover).clicked() {
                        self.queued.push(Cmd::Print(number, what));
                    }
                }
                if self.station {
                    return;
                }
                let pending = view.boards.iter().any(|b| b.result == GameResult::Pending);
                if view.state == RoundState::Published
                    && !pending
                    && ui.button("Complete round").clicked()
                {
                    self.queued.push(Cmd::Complete(number));
                }
                // Offered only where a re-pair can be done (the last round; in an event of
                // stages, a Swiss stage's round: elsewhere the same boards would come back).
                let can_repair = self
                    .event
                    .as_ref()
                    .is_some_and(|e| e.can_repair(number).is_ok());
                if can_repair
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
                            Cmd::Repair(number, String::new()),
                        )
                        .with_reason(),
                    );
                }
            }
        }
    }

    /// The line under the actions: what to do next.
    fn round_hint(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        if self.station {
            self.station_hint(ui, cx);
            return;
        }
        let at_hand = self
            .view
            .as_ref()
            .is_none_or(|v| v.state == RoundState::Complete && self.is_last(v));
        if at_hand && let Some(next) = &self.next {
            let in_stages = self.event.as_ref().is_some_and(Event::in_stages);
            next_hint(ui, next, in_stages);
        }
        let Some(view) = self.view.clone() else {
            return;
        };
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
                self.grace_ui(ui, cx, view.number, view.starts_at);
                hint(
                    ui,
                    "Results: pick one per table, or click a table and press W (White wins), \
                     B (Black wins) or D (draw); Up/Down move between tables. Games arbitrated \
                     on the Tables page (F5) report their results by themselves. The last \
                     result completes the round.",
                );
            }
            RoundState::Complete => {}
        }
    }

    /// What a station's arbiter reads under the round: the official start and the grace
    /// period as the director set them, and where results come from.
    fn station_hint(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(view) = self.view.clone() else {
            hint(
                ui,
                "No round of this tournament is published yet: the director pairs and \
                 publishes it, then its boards appear here.",
            );
            return;
        };
        if view.state == RoundState::Published {
            ui.horizontal(|ui| match (view.starts_at, self.grace_ends) {
                (Some(start), Some(ends)) => {
                    ui.label(format!("Official start {}", fmt_local_time(start)));
                    if cx.now_ms < ends {
                        badge(
                            ui,
                            &format!(
                                "Grace period: {} left",
                                fmt_clock((ends - cx.now_ms) * 1_000_000)
                            ),
                            common::GREEN,
                        );
                    } else {
                        badge(ui, "Grace period over", common::RED);
                    }
                }
                _ => {
                    ui.label(RichText::new("The director has not started the round yet").weak());
                }
            });
        }
        hint(
            ui,
            "The round as the director published it, read-only: the games at this station's \
             tables are played on the Tables page (F5) and give their results by themselves; \
             any other result is the director's.",
        );
    }

    fn grace_ui(
        &mut self,
        ui: &mut Ui,
        cx: &mut PageCtx<'_>,
        number: RoundNo,
        starts_at: Option<i64>,
    ) {
        ui.horizontal(|ui| match (starts_at, self.grace_ends) {
            (Some(start), Some(ends)) => {
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
            _ => {
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
        });
    }

    fn is_last(&self, view: &RoundView) -> bool {
        self.rounds().last().map(|r| r.number) == Some(view.number)
    }

    fn player_name(&self, p: PlayerId) -> String {
        self.event
            .as_ref()
            .map_or_else(|| p.to_string(), |e| e.named(p).to_string())
    }

    /// A player's score before the round shown.
    fn score_before(&self, p: PlayerId) -> String {
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
                    .and_then(|n| view.boards.iter().find(|b| b.board == n))
                {
                    ui.label(RichText::new(format!("Table {}", b.table)).strong());
                    if b.explanation.is_empty() {
                        ui.label("No explanation (the round came from a tournament file).");
                    } else {
                        ui.label(RichText::new(&b.explanation).monospace());
                    }
                    ui.separator();
                } else {
                    hint(ui, "Click a board to see why it was paired so.");
                }
                for (p, why) in &view.byes {
                    if !why.is_empty() {
                        ui.label(RichText::new(why).monospace());
                    } else {
                        ui.label(format!("Bye: {} {}", p.no, p.name));
                    }
                }
                if !view.explanation.is_empty() {
                    ui.separator();
                    ui.label(RichText::new(&view.explanation).monospace());
                }
            });
    }

    fn boards_ui(&mut self, ui: &mut Ui, now_ms: i64) {
        let Some(view) = self.view.clone() else {
            return;
        };
        let grace_over = self.grace_ends.is_some_and(|e| now_ms >= e);
        let picks = self.board_table(ui, &view, grace_over);
        let Some(event) = &self.event else { return };
        let out = event.out_of_event(view.number);
        let rest = if view.place.is_playoff() {
            "Not in the playoff:"
        } else if view.boards.iter().any(|b| b.series.is_some()) {
            "Still in, no game this round (match decided or a bye):"
        } else {
            "Not paired:"
        };
        let picked = players_out(ui, &view, event, self.swap_from, &out, rest);
        if self.station {
            // Read-only: only the board chosen (for its explanation) is taken.
            if let Some(n) = picks.board {
                self.board = Some(n);
            }
            return;
        }
        self.take_picks(&view, picks, picked);
    }

    /// The boards of the round as a table; returns what was clicked.
    fn board_table(&self, ui: &mut Ui, view: &RoundView, grace_over: bool) -> BoardPicks {
        let draft = view.state == RoundState::Draft;
        let mut picks = BoardPicks::default();
        let swap_from = self.swap_from;
        // A knockout round shows each board's match, the players by seed and the series
        // score, as the bracket does; other rounds the players' numbers and points.
        let series: Vec<Option<ggdesk_core::event::BoardSeries>> = view
            .boards
            .iter()
            .map(|b| {
                self.event
                    .as_ref()
                    .and_then(|e| e.board_series(view.number, b))
            })
            .collect();
        let knockout = series.iter().any(Option::is_some);
        let scores: Vec<(String, String)> = view
            .boards
            .iter()
            .zip(&series)
            .map(|(b, s)| match s {
                Some(s) => (s.score[0].to_string(), s.score[1].to_string()),
                None => (self.score_before(b.white.no), self.score_before(b.black.no)),
            })
            .collect();
        let selected_board = self.board;
        let paused = &self.paused;
        let table_height = (ui.available_height() - 70.0).max(120.0);
        let defaults = !draft && grace_over && !self.station;
        let station = self.station;
        let columns = [
            Column::exact(if knockout { 90.0 } else { 48.0 }),
            Column::remainder().at_least(150.0).clip(true),
            Column::exact(40.0),
            Column::remainder().at_least(150.0).clip(true),
            Column::exact(40.0),
            Column::exact(if draft { 110.0 } else { 160.0 }),
            Column::exact(if draft { 300.0 } else { 130.0 }).clip(true),
            Column::exact(if defaults { 220.0 } else { 1.0 }),
        ];
        let id = ("boards", view.number, draft, grace_over);
        common::clickable_rows(ui, id, &columns)
            .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
            .max_scroll_height(table_height)
            .header(24.0, |mut h| {
                common::header_cells(
                    &mut h,
                    &[
                        if knockout { "Table · match" } else { "Table" },
                        "White",
                        if knockout { "Series" } else { "Pts" },
                        "Black",
                        if knockout { "Series" } else { "Pts" },
                        if draft { "" } else { "Result" },
                        if draft {
                            "Why (click a board for more)"
                        } else {
                            "State"
                        },
                        if defaults { "Default loss" } else { "" },
                    ],
                );
            })
            .body(|body| {
                body.rows(28.0, view.boards.len(), |mut row| {
                    let i = row.index();
                    let b = &view.boards[i];
                    row.set_selected(selected_board == Some(b.board));
                    let board_series = series[i].as_ref();
                    row.col(|ui| {
                        ui.label(RichText::new(b.table.to_string()).strong());
                        if let Some(m) = board_series {
                            ui.label(RichText::new(m.id.to_string()).weak())
                                .on_hover_text(match_title(m.id));
                        }
                    });
                    for (side, (p, score)) in [(&b.white, &scores[i].0), (&b.black, &scores[i].1)]
                        .into_iter()
                        .enumerate()
                    {
                        row.col(|ui| {
                            let text = match board_series.map(|m| m.seeds[side]) {
                                Some(Some(seed)) => format!("({seed}) {}", p.name),
                                _ => format!("{} {}", p.no, p.name),
                            };
                            // A long name ends with an ellipsis before the rating (in full
                            // on hover).
                            let name_width = (ui.available_width() - RATING_WIDTH).max(40.0);
                            ui.allocate_ui_with_layout(
                                egui::vec2(name_width, 22.0),
                                egui::Layout::left_to_right(egui::Align::Center),
                                |ui| {
                                    if draft {
                                        let on = swap_from == Some(p.no);
                                        let button =
                                            egui::Button::selectable(on, text.as_str()).truncate();
                                        if ui.add(button).on_hover_text(&text).clicked() {
                                            picks.player = Some(p.no);
                                        }
                                    } else {
                                        common::cut_label(ui, text.as_str());
                                    }
                                },
                            );
                            ui.label(RichText::new(p.rating.to_string()).weak());
                        });
                        row.col(|ui| {
                            let cell = ui.label(score);
                            if let Some(note) = board_series.and_then(|m| m.note.as_ref()) {
                                cell.on_hover_text(note);
                            }
                        });
                    }
                    row.col(|ui| {
                        if station {
                            ui.label(result_short(b.result));
                        } else {
                            result_cell(ui, view.number, b, draft, i, &mut picks)
                        }
                    });
                    let is_paused = b.game.is_some_and(|g| paused.contains(&g));
                    row.col(|ui| state_cell(ui, b, draft, is_paused));
                    row.col(|ui| {
                        if defaults
                            && b.status == BoardStatus::AwaitingResult
                            && b.result == GameResult::Pending
                        {
                            default_buttons(ui, b, &mut picks);
                        }
                    });
                    if row.response().clicked() {
                        picks.board = Some(b.board);
                    }
                });
            });
        picks
    }

    /// Turns what was clicked in the boards into commands.
    fn take_picks(&mut self, view: &RoundView, picks: BoardPicks, picked: Option<PlayerId>) {
        let number = view.number;
        if let Some(n) = picks.board {
            self.board = Some(n);
        }
        if let Some(p) = picks.player.or(picked) {
            match self.swap_from {
                None => self.swap_from = Some(p),
                Some(a) if a == p => self.swap_from = None,
                Some(a) => {
                    self.swap_from = None;
                    self.queued.push(Cmd::TrySwap(number, a, p));
                }
            }
        }
        if let Some((i, result)) = picks.result {
            let b = &view.boards[i];
            if view.state == RoundState::Draft {
                self.queued
                    .push(Cmd::TrySwap(number, b.white.no, b.black.no));
            } else {
                self.board = Some(b.board);
                self.result_chosen(number, b, result);
            }
        }
        if let Some((board, who)) = picks.default {
            self.queued.push(Cmd::Default(number, board, who));
        }
    }

    fn report_saved(cx: &mut PageCtx<'_>, saved: Option<ResultSaved>, round: RoundNo) {
        if let Some(ResultSaved {
            completed: Some(note),
        }) = saved
        {
            cx.notices.round_complete(round, &note);
        }
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: TournamentId) {
        match cmd {
            Cmd::Pair | Cmd::Publish(_) | Cmd::Discard(_) | Cmd::Repair(..) | Cmd::Complete(_) => {
                self.apply_round(cmd, cx, tid)
            }
            Cmd::TrySwap(..) | Cmd::SwapConfirmed(..) => self.apply_swap(cmd, cx, tid),
            Cmd::Result(..) | Cmd::Default(..) | Cmd::StartAt(..) => {
                self.apply_result(cmd, cx, tid)
            }
            Cmd::StartNext => {
                let actor = cx.actor();
                let r = cx.store.start_next_games(tid, &actor);
                if let Some((n, note)) = cx.notices.report(r, "") {
                    cx.notices.with_backup(
                        &format!("Round {n} started: its games are at their tables"),
                        &note,
                    );
                    self.shown = None;
                    self.board = None;
                }
            }
            Cmd::Print(n, what) => {
                let result = print_round(cx, tid, n, what);
                if let Some(printed) = cx.notices.report(result, "") {
                    if let Some(csv) = &printed.csv {
                        files::written(cx.notices, "Pairing list (CSV)", csv);
                    }
                    files::print_page(cx.notices, cx.launcher, what.title(), &printed.html);
                }
            }
        }
        self.watch.force();
    }

    /// A round's life: pair, publish, discard, re-pair, complete.
    fn apply_round(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: TournamentId) {
        let actor = cx.actor();
        match cmd {
            Cmd::Pair => {
                let r = cx.store.pair_round(tid, &actor);
                if let Some(paired) = cx.notices.report(r, "") {
                    let n = paired.round;
                    cx.notices.info(format!(
                        "Round {n} proposed: check it, then publish (nothing is shown to the players yet)"
                    ));
                    // After the news of the draft, whose confirmation would clear its error.
                    if let Some(done) = &paired.completed {
                        cx.notices.round_complete(done.round, &done.backup);
                    }
                    self.shown = Some(n);
                    self.board = None;
                }
            }
            Cmd::Publish(n) => {
                let r = cx.store.publish_round(tid, n, &actor);
                if let Some(note) = cx.notices.report(r, "") {
                    cx.notices
                        .with_backup(&format!("Round {n} published: the tables can start"), &note);
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
                    cx.notices.round_complete(n, &note);
                }
            }
            _ => {}
        }
    }

    fn apply_swap(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: TournamentId) {
        let actor = cx.actor();
        match cmd {
            Cmd::TrySwap(n, a, b) => match cx.store.check_swap(tid, n, a, b) {
                Err(e) => cx.notices.error(e.to_string()),
                Ok(warnings) if warnings.is_empty() => {
                    let r = cx
                        .store
                        .swap_players(tid, n, a, b, Confirmation::Unconfirmed, &actor);
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
                        Cmd::SwapConfirmed(n, a, b),
                    ));
                }
            },
            Cmd::SwapConfirmed(n, a, b) => {
                let r = cx
                    .store
                    .swap_players(tid, n, a, b, Confirmation::Confirmed, &actor);
                cx.notices.report(
                    r,
                    "Board changed by hand; the confirmation is in the audit log",
                );
            }
            _ => {}
        }
    }

    fn apply_result(&self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: TournamentId) {
        let actor = cx.actor();
        match cmd {
            Cmd::Result(n, board, result, reason) => {
                let table = self
                    .view
                    .as_ref()
                    .and_then(|v| v.boards.iter().find(|b| b.board == board))
                    .map_or(board.0, |b| b.table.0);
                let r = cx.store.set_result(tid, n, board, result, &reason, &actor);
                let done = format!("Table {table}: {}", result_long(result));
                let saved = cx.notices.report(r, &done);
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
            _ => {}
        }
    }
}

/// What was clicked in the boards table this frame.
#[derive(Default)]
struct BoardPicks {
    board: Option<BoardNo>,
    player: Option<PlayerId>,
    /// A result chosen (a colour swap in a draft): the board's index and the result.
    result: Option<(usize, GameResult)>,
    default: Option<(BoardNo, Absentee)>,
}

fn result_cell(
    ui: &mut Ui,
    round: RoundNo,
    b: &RoundBoard,
    draft: bool,
    i: usize,
    picks: &mut BoardPicks,
) {
    if draft {
        if ui
            .small_button("Swap colours")
            .on_hover_text(format!("Swap colours on table {}", b.table))
            .clicked()
        {
            picks.result = Some((i, GameResult::Pending));
        }
        return;
    }
    let mut value = b.result;
    let label = format!("Result of table {}", b.table);
    egui::ComboBox::from_id_salt(("result", round, b.board))
        .selected_text(result_short(b.result))
        .width(150.0)
        .show_ui(ui, |ui| {
            for r in GameResult::ALL {
                ui.selectable_value(&mut value, r, result_long(r));
            }
        })
        .response
        .accessible_name(label);
    if value != b.result {
        picks.result = Some((i, value));
    }
}

/// What a result entered by hand does to a board whose game is under way at the desk: the
/// game is not stopped, and when it ends the store writes its result over the board's
/// (`settle`), however the round stands by then.
fn game_under_way(
    board: &RoundBoard,
    game: ggdesk_core::tournament::GameId,
    result: GameResult,
) -> String {
    let table = board.table;
    let what = if board.status == BoardStatus::Adjudication {
        format!(
            "Game {game} of table {table} awaits its adjudication at the desk (its game time \
             ran out), and entering a result here does not close it. When the reading sheets \
             decide it, its result replaces this one, even once the round is complete."
        )
    } else {
        format!(
            "Game {game} of table {table} is being set up at the desk, and entering a result \
             here does not stop it. When it ends, its result replaces this one, even once the \
             round is complete; if its game time runs out, the board goes back to pending until \
             the adjudication. Once its clocks run, a result from here is refused: it comes \
             from the arbiter."
        )
    };
    format!(
        "{} - {}: {}.\n\n{what}",
        board.white.name,
        board.black.name,
        result_long(result)
    )
}

fn state_cell(ui: &mut Ui, b: &RoundBoard, draft: bool, paused: bool) {
    if draft {
        let first = b
            .explanation
            .lines()
            .nth(1)
            .unwrap_or(b.explanation.as_str())
            .trim();
        let r = ui.add(egui::Label::new(first).truncate());
        if !b.explanation.is_empty() {
            r.on_hover_text(&b.explanation);
        }
        return;
    }
    let (word, color) = if paused && b.status == BoardStatus::Playing {
        ("PAUSED", common::AMBER)
    } else {
        status_badge(b.status)
    };
    ui.label(RichText::new(word).color(color).strong());
}

fn default_buttons(ui: &mut Ui, b: &RoundBoard, picks: &mut BoardPicks) {
    ui.horizontal(|ui| {
        for (text, who, name) in [
            ("W absent", Absentee::White, "White absent"),
            ("B absent", Absentee::Black, "Black absent"),
            ("Both", Absentee::Both, "Both absent"),
        ] {
            if ui
                .small_button(text)
                .accessible_name(format!("{name} at table {}", b.table))
                .on_hover_text(format!(
                    "{name}: default loss ({})",
                    result_long(who.result())
                ))
                .clicked()
            {
                picks.default = Some((b.board, who));
            }
        }
    });
}

/// Byes and players not in the round (they can be swapped in a draft); returns the player
/// clicked.
fn players_out(
    ui: &mut Ui,
    view: &RoundView,
    event: &Event,
    swap_from: Option<PlayerId>,
    out_of_event: &HashMap<PlayerId, String>,
    rest: &str,
) -> Option<PlayerId> {
    let draft = view.state == RoundState::Draft;
    let seated: std::collections::HashSet<PlayerId> = view
        .boards
        .iter()
        .flat_map(|b| [b.white.no, b.black.no])
        .chain(view.byes.iter().map(|(p, _)| p.no))
        .collect();
    let out: Vec<(PlayerId, String, bool)> = event
        .entrants()
        .iter()
        .map(|e| &e.player)
        .filter(|p| !seated.contains(&p.id))
        .map(|p| (p.id, p.name.clone(), p.withdrawn))
        .collect();
    let mut picked = None;
    let mut pick = |ui: &mut Ui, no: PlayerId, text: String| {
        if draft {
            if ui.selectable_label(swap_from == Some(no), text).clicked() {
                picked = Some(no);
            }
        } else {
            ui.label(text);
        }
    };
    // One line each: the bye, the players not paired, the withdrawn (who are not in the
    // round at all), so that nobody reads a withdrawal as the bye's.
    if !view.byes.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("Bye:").strong());
            for (p, _) in &view.byes {
                pick(ui, p.no, format!("{} {}", p.no, p.name));
            }
        });
    }
    // An event in stages: players out of it are not "not paired" but out, saying where.
    let gone: Vec<String> = out
        .iter()
        .filter(|p| !p.2)
        .filter_map(|(no, name, _)| {
            out_of_event
                .get(no)
                .map(|where_| format!("{no} {name} ({where_})"))
        })
        .collect();
    let playing: Vec<&(PlayerId, String, bool)> = out
        .iter()
        .filter(|p| !p.2 && !out_of_event.contains_key(&p.0))
        .collect();
    if !playing.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(rest).strong());
            for (no, name, _) in playing {
                let asked = view.absent.iter().any(|a| a.no == *no);
                pick(
                    ui,
                    *no,
                    format!("{no} {name}{}", if asked { " (absent)" } else { "" }),
                );
            }
        });
    }
    if !gone.is_empty() {
        ui.label(RichText::new(format!("Out of the event: {}", gone.join(", "))).weak());
    }
    let withdrawn: Vec<String> = out
        .iter()
        .filter(|p| p.2)
        .map(|(no, name, _)| format!("{no} {name}"))
        .collect();
    if !withdrawn.is_empty() {
        ui.label(
            RichText::new(format!(
                "Withdrawn from the tournament (not paired): {}",
                withdrawn.join(", ")
            ))
            .weak(),
        );
    }
    picked
}

impl Printout {
    fn title(self) -> &'static str {
        match self {
            Printout::ByTable => "Pairing list",
            Printout::ByName => "Pairing list by name",
            Printout::Slips => "Result slips",
        }
    }

    fn file_part(self) -> &'static str {
        match self {
            Printout::ByTable => "pairings",
            Printout::ByName => "pairings-by-name",
            Printout::Slips => "result-slips",
        }
    }
}

/// The files a printout wrote.
struct Printed {
    html: std::path::PathBuf,
    csv: Option<std::path::PathBuf>,
}

/// A round as the printouts take it: each player's points before the round (in its stage).
pub fn print_round_of(event: &Event, view: &RoundView) -> PrintRound {
    let scores = event.scores_before(view.number);
    let player = |no: PlayerId, name: &str| PrintPlayer {
        no: no.0,
        name: name.to_string(),
        points: scores.get(&no).map_or_else(String::new, |s| s.to_string()),
    };
    PrintRound {
        number: view.number.0,
        boards: view
            .boards
            .iter()
            .map(|b| PrintBoard {
                table: b.table.0,
                white: player(b.white.no, &b.white.name),
                black: player(b.black.no, &b.black.name),
                result: if b.result == GameResult::Pending {
                    String::new()
                } else {
                    result_short(b.result).to_string()
                },
            })
            .collect(),
        byes: view
            .byes
            .iter()
            .map(|(p, _)| player(p.no, &p.name))
            .collect(),
    }
}

/// Writes a round's printout (and, for the list by table, the CSV of the core's writer)
/// into the exports folder.
fn print_round(
    cx: &mut PageCtx<'_>,
    tid: TournamentId,
    n: RoundNo,
    what: Printout,
) -> Result<Printed, String> {
    let event = cx.store.event(tid).map_err(|e| e.to_string())?;
    let view = event
        .round_view(n)
        .ok_or_else(|| format!("round {n} has not been paired"))?;
    let details = cx
        .store
        .tournament_details(tid)
        .map_err(|e| e.to_string())?;
    let round = print_round_of(&event, &view);
    let stem = format!("{}-round-{n}", file_stem(event.name()));
    let html = match what {
        Printout::ByTable => print::pairing_list(&details, &round),
        Printout::ByName => print::alphabetical_pairings(&details, &round),
        Printout::Slips => print::result_slips(&details, &round),
    };
    let file = write_export(
        cx.store,
        &format!("{stem}-{}.html", what.file_part()),
        &html,
    )?;
    let csv = if what == Printout::ByTable {
        let pairing = Pairing {
            round: n.index().map_or(0, |i| i + 1),
            games: view
                .boards
                .iter()
                .map(|b| pairing::Board {
                    table: b.table.0,
                    white: b.white.no,
                    black: b.black.no,
                })
                .collect(),
            byes: view.byes.iter().map(|(p, _)| p.no).collect(),
            absent: Vec::new(),
        };
        let t = event.flat().map_err(|e| e.to_string())?;
        Some(write_export(
            cx.store,
            &format!("{stem}-pairings.csv"),
            &ggdesk_core::export::pairing_csv(&t, &pairing),
        )?)
    } else {
        None
    };
    Ok(Printed { html: file, csv })
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

/// The line under the actions when nothing is in play: what to do next.
/// What the next action sends: the games started at once (a knockout's, a playoff's, a
/// knockout seeded), else a pairing asked for (drafted, or refused with the event's words).
fn command_for(next: &NextAction) -> Cmd {
    match next {
        NextAction::Start(_) | NextAction::Seed { start: true, .. } => Cmd::StartNext,
        _ => Cmd::Pair,
    }
}

fn next_hint(ui: &mut Ui, next: &NextAction, in_stages: bool) {
    match next {
        NextAction::Pair { number, .. } if !in_stages => {
            next_step(ui, &format!("pair round {number} (Ctrl+P)"))
        }
        NextAction::Pair {
            number,
            stage,
            round,
        } => next_step(
            ui,
            &format!("pair round {number}: stage {stage}, round {round} (Ctrl+P)"),
        ),
        NextAction::Start(words) => {
            let words = words.replacen("Start", "start", 1);
            next_step(ui, &format!("{words} (Ctrl+P), at their tables"))
        }
        NextAction::Seed { label, stage, .. } => next_step(
            ui,
            &format!(
                "stage {} is complete: check the cut below, then \"{label}\" (Ctrl+P)",
                stage.0.saturating_sub(1),
            ),
        ),
        NextAction::Over if in_stages => next_step(
            ui,
            "the event is over: the final placement is on the Bracket page (F11)",
        ),
        NextAction::Over => next_step(
            ui,
            "the last round is complete: see the final standings (F6)",
        ),
        NextAction::TooFewPlayers => next_step(ui, "register at least two players (F3)"),
        NextAction::Wait(why) => hint(ui, &format!("Nothing to pair yet: {why}.")),
        NextAction::DraftWaiting(_) | NextAction::InPlay(_) => {}
    }
}

/// A group's cut: who goes on, and a tie across the cut with its playoff games.
fn cut_group_ui(
    ui: &mut Ui,
    cut: &ggdesk_core::event::CutView,
    group: &ggdesk_core::event::CutGroup,
    name: &dyn Fn(PlayerId) -> String,
) {
    let through: Vec<String> = group.through.iter().map(|&p| name(p)).collect();
    // Every group by its letter ("Group A: through …", "Group B: …").
    let (through_words, tie_words) = if cut.grouped {
        (
            format!("Group {}: through", group.group),
            format!("Group {}: tie at the cut", group.group),
        )
    } else {
        ("Through".to_string(), "Tie at the cut".to_string())
    };
    let Some(tie) = &group.tie else {
        if cut.next.is_none() {
            ui.label(format!("{through_words}: {}", through.join(", ")));
        }
        return;
    };
    if !through.is_empty() {
        ui.label(format!("{through_words}: {}", through.join(", ")));
    }
    let tied: Vec<String> = tie.tied.iter().map(|&p| name(p)).collect();
    ui.label(
        RichText::new(format!(
            "{tie_words}: {} are level on score and every tie-break and play off for {} place{}",
            tied.join(", "),
            tie.places,
            if tie.places == 1 { "" } else { "s" }
        ))
        .color(common::AMBER),
    );
    for &(w, b, result) in &tie.games {
        let state = match result {
            None => "pending: not started".to_string(),
            Some(GameResult::Pending) => "pending".to_string(),
            Some(r) => format!("played: {}", result_long(r)),
        };
        ui.label(format!("Playoff game: {} – {} ({state})", name(w), name(b)));
    }
}
