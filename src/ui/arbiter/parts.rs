//! Pieces of the table views shared by both kinds of table: the result banner, the start
//! of the clocks with the lots, the clock panel, the timers' headings, the result's
//! confirmation, and the players' view.

use super::board::draw_player_view;
use super::{TableCmd, TableLabel};
use crate::desk::{LiveTable, Phase};
use crate::store::GameId;
use crate::ui::common::{self, badge, fmt_clock, fmt_hms};
use egui::{Color32, RichText, Ui};
use ggdesk_core::rules::{Outcome, Side, Square};

/// A side's name as a proper noun in the desk's sentences: "White", "Black".
pub(crate) struct Cap(pub Side);

impl std::fmt::Display for Cap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            Side::White => "White",
            Side::Black => "Black",
        })
    }
}

pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The words for a decided game: "White wins — flag captured", "Draw — draw for respect".
pub(crate) fn outcome_words(outcome: Outcome) -> String {
    let who = match outcome.winner() {
        Some(w) => format!("{} wins", Cap(w)),
        None => "Draw".to_string(),
    };
    format!("{who} — {}", outcome.reason().describe())
}

/// The result of a decided game, large: who won (or a draw) and why.
pub(crate) fn result_banner(ui: &mut Ui, outcome: Outcome) {
    let text = match outcome.winner() {
        Some(w) => format!("{} wins", Cap(w)),
        None => "Draw".to_string(),
    };
    ui.label(RichText::new(text).size(26.0).strong().color(common::BLUE));
    ui.label(RichText::new(outcome.reason().describe()).size(16.0));
}

/// The large amber PAUSED over a paused game's clocks.
pub(crate) fn paused_banner(ui: &mut Ui) {
    ui.label(
        RichText::new("PAUSED")
            .size(26.0)
            .strong()
            .color(common::AMBER),
    );
}

/// Why the clocks cannot start yet, if they cannot.
pub(crate) struct StartGate {
    pub blocked: Option<String>,
}

/// Who moves first and the button that starts the clocks. The desk draws the lot once and
/// records it; or the arbiter, who drew lots at the table, chooses by hand. "Start clocks"
/// stays disabled until one or the other has decided, and the audit log says which.
pub(crate) fn start_clocks(
    ui: &mut Ui,
    game: GameId,
    first: &mut Option<Side>,
    lots_drawn: bool,
    gate: &StartGate,
    queued: &mut Vec<TableCmd>,
) {
    if lots_drawn {
        let side = first.unwrap_or(Side::White);
        ui.label(
            RichText::new(format!("Drawn by lot: {} moves first", Cap(side)))
                .strong()
                .color(common::GREEN),
        );
    } else {
        ui.horizontal(|ui| {
            ui.label("Who moves first:");
            if ui
                .button("Draw lots")
                .on_hover_text("The desk draws who moves first, once; the audit log keeps it")
                .clicked()
            {
                queued.push(TableCmd::DrawLots { game });
            }
            ui.label("or, drawn at the table:");
        });
        ui.horizontal(|ui| {
            for side in Side::BOTH {
                if ui
                    .radio(*first == Some(side), format!("{} moves first", Cap(side)))
                    .clicked()
                {
                    *first = Some(side);
                }
            }
        });
    }
    let blocked = match (&gate.blocked, *first) {
        (Some(why), _) => Some(why.clone()),
        (None, None) => Some("Decide who moves first: draw lots, or choose White or Black".into()),
        (None, Some(_)) => None,
    };
    let button = ui.add_enabled(
        blocked.is_none(),
        egui::Button::new(RichText::new("Start clocks").strong().size(18.0)),
    );
    let button = match &blocked {
        Some(why) => button.on_disabled_hover_text(why),
        None => button,
    };
    if button.clicked()
        && let Some(side) = *first
    {
        queued.push(TableCmd::Start { game, first: side });
    }
    if let Some(why) = &blocked {
        ui.label(RichText::new(why).color(common::AMBER));
    }
}

/// The colour of a move clock: amber in its last 20 seconds, red once overstepped.
pub(crate) fn move_clock_color(ui: &Ui, left_ns: i64) -> Color32 {
    if left_ns < 0 {
        common::RED
    } else if left_ns < 20_000_000_000 {
        common::AMBER
    } else {
        ui.visuals().strong_text_color()
    }
}

pub(crate) fn oversteps_marks(n: u32, limit: u32) -> String {
    format!("{n}/{limit}")
}

/// The clocks of a table: the move clock of the side to move (while it runs; its line is
/// kept when it does not, so nothing below moves), the game clock, both sides' oversteps.
pub(crate) fn clock_panel(
    ui: &mut Ui,
    clock: &ggdesk_core::clock::Clock,
    oversteps_to_lose: u32,
    move_clock: bool,
) {
    let left = clock.move_remaining_ns();
    let color = if move_clock {
        move_clock_color(ui, left)
    } else {
        ui.visuals().weak_text_color()
    };
    ui.horizontal(|ui| {
        ui.label("Move clock");
        let text = if move_clock {
            fmt_clock(left)
        } else {
            "-:--".to_string()
        };
        ui.label(
            RichText::new(text)
                .monospace()
                .size(34.0)
                .strong()
                .color(color),
        );
        if move_clock && clock.turn_overstepped() {
            badge(ui, "OVERSTEP", common::RED);
        }
    });
    ui.label(
        RichText::new(format!(
            "Game clock {} left",
            fmt_hms(clock.game_remaining_ns())
        ))
        .monospace()
        .size(18.0),
    );
    ui.label(format!(
        "Oversteps  White {}   Black {}",
        oversteps_marks(clock.oversteps().white, oversteps_to_lose),
        oversteps_marks(clock.oversteps().black, oversteps_to_lose)
    ));
}

/// The thirty-move rule's line. It stays in place when the rule no longer applies (after a
/// challenge, or switched off), so nothing below it moves.
pub(crate) fn thirty_line(ui: &mut Ui, thirty: u32, challenges: u32, plies: u32) {
    ui.label(if thirty == 0 {
        "Thirty-move rule: off".to_string()
    } else if challenges == 0 {
        format!("Thirty-move rule: {plies} of {thirty} moves without a challenge")
    } else {
        "Thirty-move rule: a challenge has happened".to_string()
    });
}

/// A timer's line: time left, or how long ago it ran out (red).
pub(crate) fn timer_line(ui: &mut Ui, what: &str, started: Option<i64>, limit_ns: i64, now: i64) {
    let Some(start) = started else {
        ui.label(RichText::new(format!("{what}: starting…")).weak());
        return;
    };
    let left = limit_ns - (now - start) * 1_000_000;
    if left >= 0 {
        ui.label(
            RichText::new(format!("{what} left: {}", fmt_clock(left)))
                .strong()
                .size(16.0),
        );
    } else {
        ui.label(
            RichText::new(format!("{what} is over ({} ago)", fmt_clock(-left)))
                .strong()
                .size(16.0)
                .color(common::RED),
        );
    }
}

/// The heading of an adjudication with its reading timer, which runs from the moment game
/// time ran out (kept in the database) and stops at the result.
pub(crate) fn adjudication_heading(
    ui: &mut Ui,
    reading_started: Option<i64>,
    reading_limit_ns: i64,
    decided: bool,
    now_ms: i64,
) {
    ui.horizontal(|ui| {
        ui.label(
            RichText::new("Adjudication")
                .size(22.0)
                .strong()
                .color(common::AMBER),
        );
        if decided {
            ui.label(RichText::new("both sheets are in: reading finished").strong());
        } else {
            timer_line(
                ui,
                "Reading time",
                reading_started,
                reading_limit_ns,
                now_ms,
            );
        }
    });
    if !decided && reading_started.is_some_and(|s| now_ms - s > reading_limit_ns / 1_000_000) {
        ui.label(
            RichText::new(
                "Reading time ran out: each sheet was handed in as it stood (every piece \
                 not read is an abstention).",
            )
            .color(common::RED),
        );
    }
}

/// Under a decided result: where it went (its round, or nowhere for a game of no round);
/// the arbiter confirms it (or records an arbiter's mistake with the void-and-replay
/// action).
pub(crate) fn confirmation(
    ui: &mut Ui,
    table: &LiveTable,
    label: &TableLabel,
    queued: &mut Vec<TableCmd>,
) {
    let meta = &table.stored.meta;
    let whereto = match (meta.round, label.table_no) {
        (Some(r), Some(t)) => format!("The result has gone to round {r}, table {t}."),
        (Some(r), None) => format!("The result has gone to round {r}."),
        _ if meta.imported => {
            "An imported record: the result stays with the game (it belongs to no round)."
                .to_string()
        }
        _ => {
            "A practice table: the result stays with the game (it belongs to no round).".to_string()
        }
    };
    ui.label(whereto);
    if table.confirmed {
        ui.label(RichText::new("Confirmed by the arbiter.").color(common::GREEN));
    } else {
        ui.horizontal(|ui| {
            if ui
                .button(RichText::new("Confirm result").strong())
                .clicked()
            {
                queued.push(TableCmd::ConfirmResult { game: table.id() });
            }
            ui.label(RichText::new("or record an arbiter's mistake below").weak());
        });
    }
}

/// The clocks and state as the players may see them, the last move marked: nothing about
/// any rank. `outcome` is the game's result once decided (an adjudication included).
pub fn player_view_panel(
    ui: &mut Ui,
    view: &ggdesk_core::rules::PlayerView,
    game: Option<&ggdesk_core::rules::Game>,
    last_move: &[Square],
    outcome: Option<Outcome>,
) {
    ui.vertical_centered(|ui| {
        let status = match (outcome, view.finished) {
            (Some(o), _) => outcome_words(o),
            (None, Some((_, "game_time"))) => "Game time is up: adjudication".to_string(),
            (None, Some(_)) => "The game is over".to_string(),
            (None, None) if view.paused => "Paused by the arbiter".to_string(),
            (None, None) => format!("{} to move", Cap(view.to_move)),
        };
        ui.heading(RichText::new(status).size(26.0).strong());
        if let Some(g) = game {
            let c = g.clock();
            let move_clock = if view.finished.is_some() {
                "-:--".to_string()
            } else {
                fmt_clock(c.move_remaining_ns())
            };
            ui.label(
                RichText::new(format!(
                    "Move clock {move_clock}   ·   Game clock {} left",
                    fmt_hms(c.game_remaining_ns())
                ))
                .size(20.0),
            );
        }
        ui.label(format!(
            "Oversteps: White {}  Black {}   ·   Pieces: White {}  Black {}   ·   Moves {}",
            view.oversteps.white,
            view.oversteps.black,
            view.pieces.white,
            view.pieces.black,
            view.plies
        ));
    });
    ui.add_space(6.0);
    draw_player_view(ui, view, last_move);
}

/// The status word and colour of a table.
pub fn phase_badge(phase: Phase) -> (String, Color32) {
    match phase {
        Phase::Setup => ("SETUP".into(), Color32::GRAY),
        Phase::Ready => ("READY".into(), common::BLUE),
        Phase::Playing => ("PLAYING".into(), common::GREEN),
        Phase::Paused => ("PAUSED".into(), common::AMBER),
        Phase::FlagPending(_) => ("FLAG PENDING".into(), common::RED),
        Phase::AdjudicationPending => ("ADJUDICATION".into(), common::AMBER),
        Phase::ThirtyCountPending => ("COUNTS".into(), common::AMBER),
        Phase::Finished(o) => (
            match o.winner() {
                Some(w) => format!("{} WINS", w.name().to_uppercase()),
                None => "DRAW".into(),
            },
            common::BLUE,
        ),
        Phase::Void => ("VOID".into(), Color32::GRAY),
    }
}
