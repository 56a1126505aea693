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
use crate::store::TournamentId;
use crate::store::{
    Absentee, BoardStatus, NextRound, ResultSaved, RoundBoard, RoundInfo, RoundPlace, RoundState,
    RoundView,
};
use crate::ui::PageCtx;
use crate::ui::common::{
    self, Confirm, LoadErrors, Reasoned, badge, fmt_clock, fmt_local_time, poll_confirm,
};
use crate::ui::files;
use egui::{Key, Modifiers, RichText, Ui};
use egui_extras::Column;
use ggdesk_core::export::print::{self, PrintBoard, PrintPlayer, PrintRound};
use ggdesk_core::pairing::{self, Pairing};
use ggdesk_core::stages::{Event, MatchId, NextStep, StageFormat, StepRefusal};
use ggdesk_core::tournament::{GameResult, PlayerId, Score, StageNo, Tournament};
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
    Publish(u32),
    Discard(u32),
    Repair(u32, String),
    Complete(u32),
    /// Check a swap; swap at once when nothing needs confirming.
    TrySwap(u32, PlayerId, PlayerId),
    /// A swap confirmed despite the warnings shown.
    SwapConfirmed(u32, PlayerId, PlayerId),
    Result(u32, u32, GameResult, String),
    Default(u32, u32, Absentee),
    StartAt(u32, Option<i64>),
    Print(u32, Printout),
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
    rounds: Vec<RoundInfo>,
    pub view: Option<RoundView>,
    tournament: Option<Tournament>,
    next: Option<NextRound>,
    /// When the grace period of the round shown ends (its start plus the tournament's
    /// grace period), as the store says.
    grace_ends: Option<i64>,
    /// Every player's score before the round shown, computed once per reload.
    scores_before: std::collections::HashMap<u32, Score>,
    watch: Watch,
    load: LoadErrors,
    /// The round shown; `None` follows the newest.
    pub shown: Option<u32>,
    /// The board whose explanation is shown (and that the result keys act on).
    pub board: Option<u32>,
    /// The first player picked for a swap in a draft.
    pub swap_from: Option<PlayerId>,
    pub start_text: String,
    busy: Option<Cmd>,
    confirm: Option<Confirm<Cmd>>,
    queued: Vec<Cmd>,
    tid: Option<TournamentId>,
    /// The games at this desk's tables whose clocks the arbiter paused (set by the desk
    /// before each frame of this page): their boards say PAUSED, not PLAYING.
    pub paused: std::collections::HashSet<i64>,
    /// An arbiter station's desk: the round's pairings read-only (no pairing, publishing,
    /// start, re-pair or result: the director's), drafts not shown.
    station: bool,
    /// An event in stages as the core replays it (its stages, cuts, playoffs, bracket);
    /// `None` for a tournament of one system.
    pub event: Option<Event>,
}

/// What comes next in an event in stages, once no draft waits.
#[derive(Debug, Clone, PartialEq)]
enum StagedNext {
    /// Round `number` of the event: round `round` of stage `stage`, a draft to look at.
    Pair {
        number: u32,
        stage: StageNo,
        round: u32,
    },
    /// The next games of a knockout or a playoff, started in one action: the words of
    /// the Bracket page's button.
    Start(String),
    /// A stage just seeded: its first round on the director's word. `forced`: a knockout's
    /// first games (started at once), else a draft.
    Seed {
        label: String,
        stage: StageNo,
        forced: bool,
    },
    /// The event is over.
    Over,
    /// Nothing can start: why.
    Wait(String),
}

/// A stage's name, or its system when it has none.
fn stage_name(event: &Event, stage: StageNo) -> String {
    let Some(spec) = stage.index().and_then(|k| event.settings().stages.get(k)) else {
        return String::new();
    };
    if spec.name.trim().is_empty() {
        match spec.format {
            StageFormat::Swiss { .. } => "Swiss".into(),
            StageFormat::RoundRobin { .. } => "Round robin".into(),
            StageFormat::Knockout { .. } => "Knockout".into(),
        }
    } else {
        spec.name.trim().to_string()
    }
}

/// How many bracket rounds a knockout whose first round has `matches` matches takes.
fn bracket_rounds(matches: usize) -> u32 {
    (2 * matches.max(1)).next_power_of_two().trailing_zeros()
}

/// The name of bracket round `r` (from 1) of `count`: Final, Semi-finals, Quarter-finals,
/// else Round of 16, 32, …
pub fn bracket_round_title(r: u32, count: u32) -> String {
    match count.saturating_sub(r) {
        0 => "Final".into(),
        1 => "Semi-finals".into(),
        2 => "Quarter-finals".into(),
        n => format!("Round of {}", 1u64 << (n + 1).min(62)),
    }
}

/// The bracket round of a knockout round: its matches' (the third-place match is played
/// beside the final).
fn view_bracket_round(event: &Event, view: &RoundView) -> Option<(u32, u32)> {
    let k = view.place.stage().index()?;
    let bracket = event.reached().get(k)?.bracket.as_ref()?;
    let count = bracket_rounds(bracket.rounds.first().map_or(1, Vec::len));
    let r = view
        .boards
        .iter()
        .filter_map(|b| match b.series {
            Some(MatchId::Bracket { round, .. }) => Some(round),
            Some(MatchId::ThirdPlace) => Some(count),
            None => None,
        })
        .max()?;
    Some((r, count))
}

/// A round's place in its event in words: `Stage 1 · Swiss · round 3 of 6`, `Stage 2 ·
/// Knockout · Quarter-finals`, `Stage 1 · playoff games at the cut`.
pub fn place_words(event: &Event, view: &RoundView) -> String {
    match view.place {
        RoundPlace::Playoff { stage, number } => format!(
            "Stage {stage} · {} · playoff games at the cut{}",
            stage_name(event, stage),
            if number > 1 {
                format!(" ({number})")
            } else {
                String::new()
            }
        ),
        RoundPlace::Round { stage, round } => {
            let name = stage_name(event, stage);
            let knockout = stage
                .index()
                .and_then(|k| event.settings().stages.get(k))
                .is_some_and(|s| s.format.is_knockout());
            if knockout {
                match view_bracket_round(event, view) {
                    Some((r, count)) => {
                        format!("Stage {stage} · {name} · {}", bracket_round_title(r, count))
                    }
                    None => format!("Stage {stage} · {name} · round {round}"),
                }
            } else {
                let planned = stage
                    .index()
                    .and_then(|k| event.reached().get(k))
                    .and_then(|r| r.planned);
                match planned {
                    Some(p) => format!("Stage {stage} · {name} · round {round} of {p}"),
                    None => format!("Stage {stage} · {name} · round {round}"),
                }
            }
        }
    }
}

/// The players of an event out of it as of round `view` (not through an earlier stage's
/// cut, or knocked out by then), each with where they went out.
fn out_of_event(event: &Event, view: &RoundView) -> HashMap<u32, String> {
    let mut out = HashMap::new();
    let k = view.place.stage().index().unwrap_or(0);
    for p in event.players() {
        for j in 1..=k {
            let Some(reached) = event.reached().get(j) else {
                break;
            };
            if !reached.seeds.contains(&p.id) {
                let before = StageNo::from_index(j - 1);
                out.insert(
                    p.id.0,
                    format!("out after stage {before} ({})", stage_name(event, before)),
                );
                break;
            }
        }
    }
    if let Some(bracket) = event.reached().get(k).and_then(|r| r.bracket.as_ref()) {
        let count = bracket_rounds(bracket.rounds.first().map_or(1, Vec::len));
        let now = view_bracket_round(event, view).map_or(count, |(r, _)| r);
        for (p, r) in bracket.eliminated() {
            let r = u32::try_from(r).unwrap_or(u32::MAX);
            if r <= now {
                out.entry(p.0).or_insert_with(|| {
                    format!(
                        "out after the {}",
                        bracket_round_title(r, count).to_lowercase()
                    )
                });
            }
        }
    }
    out
}

/// What comes next in an event in stages, after the rounds `rounds` (drafts included).
fn staged_next(event: &Event, rounds: &[RoundInfo]) -> StagedNext {
    let step = match event.next_step() {
        Ok(step) => step,
        Err(StepRefusal::Over) => return StagedNext::Over,
        Err(e) => return StagedNext::Wait(e.to_string()),
    };
    let stage = step.stage();
    let knockout = stage
        .index()
        .and_then(|k| event.settings().stages.get(k))
        .is_some_and(|s| s.format.is_knockout());
    let forced = matches!(step, NextStep::Playoff { .. }) || knockout;
    let first_of_stage = stage.0 > 1 && !rounds.iter().any(|r| r.place.stage() == stage);
    if first_of_stage {
        return StagedNext::Seed {
            label: format!("Seed stage {stage} ({})", stage_name(event, stage)),
            stage,
            forced,
        };
    }
    if forced {
        return StagedNext::Start(
            super::bracket::next_games(event).unwrap_or_else(|| "Start the next games".to_string()),
        );
    }
    let round = match step {
        NextStep::Round { round, .. } => round.0,
        NextStep::Playoff { .. } => 0,
    };
    StagedNext::Pair {
        number: rounds.last().map_or(1, |r| r.number + 1),
        stage,
        round,
    }
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
        self.rounds = load
            .check("the rounds", cx.store.rounds_of(tid))
            .unwrap_or_default();
        // A draft is the director's: a station sees a round once it is published.
        if self.station {
            self.rounds.retain(|r| r.state != RoundState::Draft);
        }
        let number = self
            .shown
            .filter(|n| self.rounds.iter().any(|r| r.number == *n))
            .or_else(|| self.rounds.last().map(|r| r.number));
        self.view = number.and_then(|n| {
            load.check(&format!("round {n}"), cx.store.round_view(tid, n))
                .flatten()
        });
        self.grace_ends = number.and_then(|n| {
            load.check("the grace period", cx.store.grace_ends_at(tid, n))
                .flatten()
        });
        self.next = load.check("the next round", cx.store.next_round(tid));
        self.event = super::staged_event(&mut load, cx.store, tid).1;
        self.tournament = load.check("the tournament", cx.store.load_tournament(tid));
        if let Some(t) = &self.tournament {
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
        }
        // An event in stages: the points within the round's stage (a stage starts from 0);
        // none in a knockout or a playoff, which score no points.
        if let (Some(event), Some(view)) = (&self.event, &self.view) {
            self.scores_before = stage_scores(event, view);
        }
        self.load = load;
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(tid) = need_tournament(ui, cx, "Rounds") else {
            return;
        };
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
            .and_then(|b| view.boards.iter().position(|x| x.board_no == b));
        if down || up {
            let i = match (pos, down) {
                (Some(p), true) => (p + 1).min(n - 1),
                (Some(p), false) => p.saturating_sub(1),
                (None, _) => 0,
            };
            self.board = Some(view.boards[i].board_no);
        }
        Some(pos)
    }

    /// A result picked for a board: entered at once if the board had none and no game runs
    /// for it at the desk, confirmed with a reason if it changes one (and warned about when
    /// the result came from a game played at the desk, whose record then says otherwise) or
    /// if a game is under way at the desk (it plays on, and its result replaces this one).
    fn result_chosen(&mut self, round: u32, board: &RoundBoard, result: GameResult) {
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
                            format!("Table {} is being played at the desk", board.table_no),
                            game_under_way(board, game, result),
                            "Enter the result",
                            Cmd::Result(round, board.board_no, result, String::new()),
                        )
                        .with_reason(),
                    );
                }
                _ => self
                    .queued
                    .push(Cmd::Result(round, board.board_no, result, String::new())),
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
                format!("Change the result of table {}", board.table_no),
                message,
                "Change the result",
                Cmd::Result(round, board.board_no, result, String::new()),
            )
            .with_reason(),
        );
    }

    /// What Ctrl+P does: pair the next round; in an event in stages, the next action
    /// (pair, seed the next stage, start the next games), nothing when the event is over.
    fn pair_cmd(&self) -> Option<Cmd> {
        let Some(event) = &self.event else {
            return Some(Cmd::Pair);
        };
        match staged_next(event, &self.rounds) {
            StagedNext::Pair { .. } | StagedNext::Seed { forced: false, .. } => Some(Cmd::Pair),
            StagedNext::Start(_) | StagedNext::Seed { forced: true, .. } => Some(Cmd::StartNext),
            StagedNext::Over | StagedNext::Wait(_) => None,
        }
    }

    /// What comes next in an event in stages, once no draft waits and the last round is
    /// complete (or all its results are in); `None` otherwise or for one system.
    fn staged_next(&self) -> Option<StagedNext> {
        let event = self.event.as_ref()?;
        if self
            .rounds
            .last()
            .is_some_and(|r| r.state == RoundState::Draft)
        {
            return None;
        }
        Some(staged_next(event, &self.rounds))
    }

    /// The next action of an event in stages as one button.
    fn staged_button(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(next) = self.staged_next() else {
            return;
        };
        match next {
            StagedNext::Pair { number, .. } => {
                if ui
                    .button(RichText::new(format!("Pair round {number}")).strong())
                    .on_hover_text("Ctrl+P: propose the pairing; nothing is shown to the players until you publish")
                    .clicked()
                {
                    self.queued.push(Cmd::Pair);
                }
            }
            StagedNext::Start(words) => {
                if ui
                    .button(RichText::new(words).strong())
                    .on_hover_text(
                        "Ctrl+P: pairs and publishes one game for every open match (or the \
                         playoff games): the games appear at their tables",
                    )
                    .clicked()
                {
                    self.queued.push(Cmd::StartNext);
                }
            }
            StagedNext::Seed { label, forced, .. } => {
                let hover = if forced {
                    "Ctrl+P: seeds the knockout from the cut and starts its first games at \
                     their tables"
                } else {
                    "Ctrl+P: seeds the stage from the cut and proposes its first round as a \
                     draft; nothing is shown to the players until you publish"
                };
                if ui
                    .button(RichText::new(label).strong())
                    .on_hover_text(hover)
                    .clicked()
                {
                    self.queued.push(if forced { Cmd::StartNext } else { Cmd::Pair });
                }
            }
            StagedNext::Over => {
                if ui.button("Final placement: Bracket page (F11)").clicked() {
                    *cx.goto = Some(crate::ui::Page::Bracket);
                }
            }
            StagedNext::Wait(_) => {}
        }
    }

    fn header(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        self.round_tabs(ui);
        // Wrapped: a stage's round title and the next action may not fit one line.
        ui.horizontal_wrapped(|ui| {
            if self.event.is_some() && !self.station {
                self.staged_button(ui, cx);
            } else if let Some(NextRound::Ready(next)) = self.next
                && !self.station
                && ui
                    .button(RichText::new(format!("Pair round {next}")).strong())
                    .on_hover_text("Ctrl+P: propose the pairing; nothing is shown to the players until you publish")
                    .clicked()
            {
                self.queued.push(Cmd::Pair);
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
        let last_shown =
            self.view.as_ref().map(|v| v.number) == self.rounds.last().map(|r| r.number);
        if !last_shown {
            return;
        }
        let current = event.current();
        let started = |s: StageNo| self.rounds.iter().any(|r| r.place.stage() == s);
        // The stage whose cut is at hand: the current one with a tie being played off, or
        // the one before a stage seeded and not begun.
        let k = match current.stage.index() {
            Some(k) if current.complete && !current.cut.is_empty() => k,
            Some(k) if k > 0 && !started(current.stage) => k - 1,
            _ => return,
        };
        let Some(reached) = event.reached().get(k) else {
            return;
        };
        let stage = reached.stage;
        let next = event.reached().get(k + 1);
        let name = |p: PlayerId| {
            event
                .player(p)
                .map_or_else(|| p.to_string(), |x| format!("{} {}", p, x.name))
        };
        let advance = event
            .settings()
            .stages
            .get(k)
            .and_then(|s| s.advance)
            .map_or(0, |a| a as usize);
        ui.add_space(4.0);
        egui::Frame::group(ui.style()).show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("stage-cut")
                .max_height(190.0)
                .show(ui, |ui| {
                    ui.label(
                        RichText::new(format!(
                            "The cut of stage {stage} ({}): the top {advance}{} go on",
                            stage_name(event, stage),
                            if reached.groups.len() > 1 {
                                " of each group"
                            } else {
                                ""
                            }
                        ))
                        .strong(),
                    );
                    if let Some(next) = next {
                        let seeds: Vec<String> = next
                            .seeds
                            .iter()
                            .enumerate()
                            .map(|(i, &p)| {
                                format!("{}. {}{}", i + 1, name(p), cut_place(reached, p))
                            })
                            .collect();
                        ui.label(format!(
                            "Going on to stage {} ({}), by seed: {}",
                            next.stage,
                            stage_name(event, next.stage),
                            seeds.join(" · ")
                        ));
                    }
                    let playoffs = event.play(k).map_or(&[][..], |p| p.playoffs.as_slice());
                    for cut in &reached.cut {
                        let Some(playoff) = &cut.playoff else {
                            if next.is_none() {
                                let through: Vec<String> = cut
                                    .standings
                                    .rows
                                    .iter()
                                    .take(advance)
                                    .map(|r| name(r.id))
                                    .collect();
                                ui.label(format!("Through: {}", through.join(", ")));
                            }
                            continue;
                        };
                        let (through_words, tie_words) = if reached.groups.len() > 1 {
                            (
                                format!("Group {}: through", cut.group),
                                format!("Group {}: tie at the cut", cut.group),
                            )
                        } else {
                            ("Through".to_string(), "Tie at the cut".to_string())
                        };
                        // Those above the tie are through; the tied play off for the rest.
                        let through: Vec<String> = cut
                            .standings
                            .rows
                            .iter()
                            .take(advance)
                            .filter(|r| !playoff.order.contains(&r.id))
                            .map(|r| name(r.id))
                            .collect();
                        if !through.is_empty() {
                            ui.label(format!("{through_words}: {}", through.join(", ")));
                        }
                        let places = advance.saturating_sub(through.len());
                        let tied: Vec<String> = playoff.order.iter().map(|&p| name(p)).collect();
                        ui.label(
                            RichText::new(format!(
                                "{tie_words}: {} are level on score and every \
                                 tie-break and play off for {places} place{}",
                                tied.join(", "),
                                if places == 1 { "" } else { "s" }
                            ))
                            .color(common::AMBER),
                        );
                        for g in playoffs.iter().filter(|g| {
                            g.group.is_none_or(|x| x == cut.group)
                                && playoff.order.contains(&g.white)
                        }) {
                            let state = if g.result == GameResult::Pending {
                                "pending".to_string()
                            } else {
                                format!("played: {}", result_long(g.result))
                            };
                            ui.label(format!(
                                "Playoff game: {} – {} ({state})",
                                name(g.white),
                                name(g.black)
                            ));
                        }
                        if let ggdesk_core::stages::PlayoffState::Next(games) = &playoff.state {
                            for (w, b) in games {
                                ui.label(format!(
                                    "Playoff game: {} – {} (pending: not started)",
                                    name(*w),
                                    name(*b)
                                ));
                            }
                        }
                    }
                });
        });
    }

    /// The rounds as tabs, and how many are planned.
    fn round_tabs(&mut self, ui: &mut Ui) {
        let staged = self.event.is_some();
        // Wrapped: a knockout of series adds a round for every game.
        ui.horizontal_wrapped(|ui| {
            ui.heading("Rounds");
            let mut stage = None;
            for r in &self.rounds {
                // An event in stages: each stage's rounds after its number.
                if staged && stage != Some(r.place.stage()) {
                    stage = Some(r.place.stage());
                    ui.label(RichText::new(format!("Stage {}:", r.place.stage())).weak());
                }
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
            if let Some(p) = self
                .tournament
                .as_ref()
                .and_then(Tournament::planned_rounds)
                .filter(|_| !staged)
            {
                ui.label(RichText::new(format!("of {p}")).weak());
            }
        });
    }

    /// What can be done with the round shown.
    fn round_actions(&mut self, ui: &mut Ui, view: &RoundView) {
        let (word, color) = state_badge(view.state);
        let title = match &self.event {
            Some(event) => format!("{} (round {})", place_words(event, view), view.number),
            None => format!("Round {}", view.number),
        };
        ui.label(RichText::new(title).strong().size(16.0));
        badge(ui, word, color);
        let number = view.number;
        let is_last = self.rounds.last().map(|r| r.number) == Some(number);
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
        if let Some(next) = self.staged_next()
            && self
                .view
                .as_ref()
                .is_none_or(|v| v.state == RoundState::Complete && self.is_last(v))
        {
            staged_hint(ui, &next);
            return;
        }
        let Some(view) = self.view.clone() else {
            match self.next {
                Some(NextRound::TooFewPlayers) => {
                    next_step(ui, "register at least two players (F3)")
                }
                Some(NextRound::Ready(n)) => next_step(ui, &format!("pair round {n} (Ctrl+P)")),
                _ => {}
            }
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
            RoundState::Complete => {
                if self.rounds.last().map(|r| r.number) == Some(view.number) {
                    match self.next {
                        Some(NextRound::AllPlayed) => next_step(
                            ui,
                            "the last round is complete: see the final standings (F6)",
                        ),
                        Some(NextRound::Ready(n)) => {
                            next_step(ui, &format!("pair round {n} (Ctrl+P)"))
                        }
                        _ => {}
                    }
                }
            }
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

    fn grace_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, number: u32, starts_at: Option<i64>) {
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
        self.rounds.last().map(|r| r.number) == Some(view.number)
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
        let (out, rest) = match &self.event {
            Some(event) if view.place.is_playoff() => {
                (out_of_event(event, &view), "Not in the playoff:")
            }
            Some(event) if view.boards.iter().any(|b| b.series.is_some()) => (
                out_of_event(event, &view),
                "Still in, no game this round (match decided or a bye):",
            ),
            Some(event) => (out_of_event(event, &view), "Not paired:"),
            None => (HashMap::new(), "Not paired:"),
        };
        let picked = players_out(
            ui,
            &view,
            self.tournament.as_ref(),
            self.swap_from,
            &out,
            rest,
        );
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
        let scores: Vec<(String, String)> = view
            .boards
            .iter()
            .map(|b| (self.score_before(b.white.no), self.score_before(b.black.no)))
            .collect();
        let selected_board = self.board;
        let paused = &self.paused;
        let table_height = (ui.available_height() - 70.0).max(120.0);
        let defaults = !draft && grace_over && !self.station;
        let station = self.station;
        let columns = [
            Column::exact(48.0),
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
                        if defaults { "Default loss" } else { "" },
                    ],
                );
            })
            .body(|body| {
                body.rows(28.0, view.boards.len(), |mut row| {
                    let i = row.index();
                    let b = &view.boards[i];
                    row.set_selected(selected_board == Some(b.board_no));
                    row.col(|ui| {
                        ui.label(RichText::new(b.table_no.to_string()).strong());
                    });
                    for (p, score) in [(&b.white, &scores[i].0), (&b.black, &scores[i].1)] {
                        row.col(|ui| {
                            let text = format!("{} {}", p.no, p.name);
                            // A long name ends with an ellipsis before the rating (in full
                            // on hover).
                            let name_width = (ui.available_width() - RATING_WIDTH).max(40.0);
                            ui.allocate_ui_with_layout(
                                egui::vec2(name_width, 22.0),
                                egui::Layout::left_to_right(egui::Align::Center),
                                |ui| {
                                    if draft {
                                        let on = swap_from == Some(PlayerId(p.no));
                                        let button =
                                            egui::Button::selectable(on, text.as_str()).truncate();
                                        if ui.add(button).on_hover_text(&text).clicked() {
                                            picks.player = Some(PlayerId(p.no));
                                        }
                                    } else {
                                        common::cut_label(ui, text.as_str());
                                    }
                                },
                            );
                            ui.label(RichText::new(p.rating.to_string()).weak());
                        });
                        row.col(|ui| {
                            ui.label(score);
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
                        picks.board = Some(b.board_no);
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
        if let Some((board, who)) = picks.default {
            self.queued.push(Cmd::Default(number, board, who));
        }
    }

    fn report_saved(cx: &mut PageCtx<'_>, saved: Option<ResultSaved>, round: u32) {
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
                        Cmd::SwapConfirmed(n, a, b),
                    ));
                }
            },
            Cmd::SwapConfirmed(n, a, b) => {
                let r = cx.store.swap_players(tid, n, a, b, true, &actor);
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
                    .and_then(|v| v.boards.iter().find(|b| b.board_no == board))
                    .map_or(board, |b| b.table_no);
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
    board: Option<u32>,
    player: Option<PlayerId>,
    /// A result chosen (a colour swap in a draft): the board's index and the result.
    result: Option<(usize, GameResult)>,
    default: Option<(u32, Absentee)>,
}

fn result_cell(
    ui: &mut Ui,
    round: u32,
    b: &RoundBoard,
    draft: bool,
    i: usize,
    picks: &mut BoardPicks,
) {
    if draft {
        if ui
            .small_button("Swap colours")
            .on_hover_text(format!("Swap colours on table {}", b.table_no))
            .clicked()
        {
            picks.result = Some((i, GameResult::Pending));
        }
        return;
    }
    let mut value = b.result;
    let label = format!("Result of table {}", b.table_no);
    egui::ComboBox::from_id_salt(("result", round, b.board_no))
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
fn game_under_way(board: &RoundBoard, game: i64, result: GameResult) -> String {
    let table = board.table_no;
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
                .accessible_name(format!("{name} at table {}", b.table_no))
                .on_hover_text(format!(
                    "{name}: default loss ({})",
                    result_long(who.result())
                ))
                .clicked()
            {
                picks.default = Some((b.board_no, who));
            }
        }
    });
}

/// Byes and players not in the round (they can be swapped in a draft); returns the player
/// clicked.
fn players_out(
    ui: &mut Ui,
    view: &RoundView,
    t: Option<&Tournament>,
    swap_from: Option<PlayerId>,
    out_of_event: &HashMap<u32, String>,
    rest: &str,
) -> Option<PlayerId> {
    let draft = view.state == RoundState::Draft;
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
    let mut picked = None;
    let mut pick = |ui: &mut Ui, no: u32, text: String| {
        if draft {
            if ui
                .selectable_label(swap_from == Some(PlayerId(no)), text)
                .clicked()
            {
                picked = Some(PlayerId(no));
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
    let playing: Vec<&(u32, String, bool)> = out
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

/// A round as the printouts take it: each player's points before the round.
pub fn print_round_of(t: &Tournament, view: &RoundView) -> PrintRound {
    let scores: std::collections::HashMap<PlayerId, Score> = t
        .players()
        .iter()
        .map(|p| p.id)
        .zip(t.scores(view.number.saturating_sub(1) as usize))
        .collect();
    let player = |no: u32, name: &str| PrintPlayer {
        no,
        name: name.to_string(),
        points: scores
            .get(&PlayerId(no))
            .map_or_else(String::new, |s| s.to_string()),
    };
    PrintRound {
        number: view.number,
        boards: view
            .boards
            .iter()
            .map(|b| PrintBoard {
                table: b.table_no,
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
    n: u32,
    what: Printout,
) -> Result<Printed, String> {
    let view = cx
        .store
        .round_view(tid, n)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("round {n} has not been paired"))?;
    let t = cx.store.load_tournament(tid).map_err(|e| e.to_string())?;
    let details = cx
        .store
        .tournament_details(tid)
        .map_err(|e| e.to_string())?;
    let round = print_round_of(&t, &view);
    let stem = format!("{}-round-{n}", file_stem(t.name()));
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

/// The line under the actions of an event in stages when nothing is in play: what to do next.
fn staged_hint(ui: &mut Ui, next: &StagedNext) {
    match next {
        StagedNext::Pair {
            number,
            stage,
            round,
        } => next_step(
            ui,
            &format!("pair round {number}: stage {stage}, round {round} (Ctrl+P)"),
        ),
        StagedNext::Start(words) => {
            let words = words.replacen("Start", "start", 1);
            next_step(ui, &format!("{words} (Ctrl+P), at their tables"))
        }
        StagedNext::Seed { label, stage, .. } => next_step(
            ui,
            &format!(
                "stage {} is complete: check the cut below, then \"{label}\" (Ctrl+P)",
                stage.0.saturating_sub(1),
            ),
        ),
        StagedNext::Over => next_step(
            ui,
            "the event is over: the final placement is on the Bracket page (F11)",
        ),
        StagedNext::Wait(why) => hint(ui, &format!("Nothing to pair yet: {why}.")),
    }
}

/// A qualifier's place at the cut: `(A1)` in a grouped stage, `(3rd)` else.
fn cut_place(reached: &ggdesk_core::stages::Reached, p: PlayerId) -> String {
    for cut in &reached.cut {
        if let Some(i) = cut.standings.rows.iter().position(|r| r.id == p) {
            return if reached.groups.len() > 1 {
                format!(" ({}{})", cut.group, i + 1)
            } else {
                format!(" (place {})", i + 1)
            };
        }
    }
    String::new()
}

/// Every player's points in the stage of round `view` before it (each group's own table);
/// empty for a knockout round or playoff games.
fn stage_scores(event: &Event, view: &RoundView) -> HashMap<u32, Score> {
    let RoundPlace::Round { stage, round } = view.place else {
        return HashMap::new();
    };
    let Some(reached) = stage.index().and_then(|k| event.reached().get(k)) else {
        return HashMap::new();
    };
    if reached.bracket.is_some() {
        return HashMap::new();
    }
    let before = usize::try_from(round.0.saturating_sub(1)).unwrap_or(0);
    reached
        .groups
        .iter()
        .flat_map(|g| {
            g.table
                .players()
                .iter()
                .map(|p| p.id.0)
                .zip(g.table.scores(before))
                .collect::<Vec<_>>()
        })
        .collect()
}
