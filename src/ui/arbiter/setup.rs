//! Setup entry: one side at a time, the other side's pieces hidden. Pieces are placed from a
//! palette that shows how many of each rank are left, so a wrong count cannot be entered.

use super::board::{self, BoardStyle, CellView};
use super::{Cap, StartGate, TableCmd, timer_line};
use crate::desk::LiveTable;
use crate::store::TableTimers;
use crate::ui::common::{self, Confirm};
use egui::{RichText, Ui};
use ggdesk_core::rules::{Piece, Rank, Side, SideSetup, Square};

/// What the setup editor remembers between frames (for the table open; a table opens on
/// White's setup with nothing picked).
#[derive(Debug, Default)]
pub struct SetupState {
    /// The side being entered (White first).
    pub black: bool,
    pub brush: Option<Rank>,
    pub pick: Option<Square>,
    /// A setup typed or pasted, and what is wrong with it.
    pub typed: String,
    pub typed_error: Option<String>,
}

impl SetupState {
    pub fn side(&self) -> Side {
        if self.black { Side::Black } else { Side::White }
    }
}

fn remaining(setup: &SideSetup, rank: Rank) -> usize {
    rank.count_in_set()
        .saturating_sub(setup.placements.iter().filter(|(_, r)| *r == rank).count())
}

fn next_brush(setup: &SideSetup, from: Rank) -> Option<Rank> {
    let start = Rank::ALL.iter().position(|&r| r == from).unwrap_or(0);
    (0..Rank::ALL.len())
        .map(|i| Rank::ALL[(start + i) % Rank::ALL.len()])
        .find(|&r| remaining(setup, r) > 0)
}

/// Applies a click on `square` to the side's setup; returns the new setup if it changed.
fn click(
    state: &mut SetupState,
    setup: &SideSetup,
    side: Side,
    square: Square,
) -> Option<SideSetup> {
    if !side.home_rows().contains(&square.row()) {
        state.pick = None;
        return None;
    }
    let mut new = setup.clone();
    let here = new.placements.iter().position(|(s, _)| *s == square);
    match (here, state.pick) {
        (Some(_), None) => {
            state.pick = Some(square);
            None
        }
        (Some(_), Some(p)) if p == square => {
            state.pick = None;
            None
        }
        (Some(i), Some(p)) => {
            // Swap the two pieces.
            let j = new.placements.iter().position(|(s, _)| *s == p)?;
            new.placements[i].0 = p;
            new.placements[j].0 = square;
            state.pick = None;
            Some(new)
        }
        (None, Some(p)) => {
            let j = new.placements.iter().position(|(s, _)| *s == p)?;
            new.placements[j].0 = square;
            state.pick = None;
            Some(new)
        }
        (None, None) => {
            let rank = state.brush.filter(|&r| remaining(setup, r) > 0)?;
            new.placements.push((square, rank));
            state.brush = next_brush(&new, rank);
            Some(new)
        }
    }
}

/// The setup page of a table. Queues commands for every change, so nothing entered is lost.
#[allow(clippy::too_many_arguments)]
pub fn ui(
    ui: &mut Ui,
    state: &mut SetupState,
    table: &LiveTable,
    first: &mut Option<Side>,
    timers: TableTimers,
    now_ms: i64,
    queued: &mut Vec<TableCmd>,
    confirm: &mut Option<Confirm<TableCmd>>,
) {
    let id = table.id();
    let side = state.side();
    let empty = SideSetup::default();
    let setup = table.stored.setup[side].as_ref().unwrap_or(&empty);
    // The palette starts on the first rank still to place.
    if state.brush.is_none_or(|r| remaining(setup, r) == 0) && state.pick.is_none() {
        state.brush = next_brush(setup, Rank::G5);
    }
    tabs(ui, state, table, timers, now_ms);
    let gate = setup_gate(ui, table, timers, now_ms, confirm);
    ui.label(
        RichText::new(format!(
            "Only {s}'s pieces are shown while {s}'s setup is entered. Pick a rank in the \
             palette, then click squares on {s}'s three ranks; click two pieces to swap them. \
             Or type the setup sheet below.",
            s = Cap(side)
        ))
        .weak(),
    );
    ui.horizontal_top(|ui| {
        let style = BoardStyle {
            selected: state.pick,
            dim_rows: (0..8u8).filter(|r| !side.home_rows().contains(r)).collect(),
            max_square: 52.0,
            ..BoardStyle::default()
        };
        let clicked = ui
            .allocate_ui(egui::vec2(500.0, 450.0), |ui| {
                board::draw(
                    ui,
                    "setup",
                    |sq| match setup.rank_at(sq) {
                        Some(rank) => CellView::Open(Piece { side, rank }),
                        None => CellView::Empty,
                    },
                    |sq, _| sq.to_string(),
                    &style,
                    true,
                )
            })
            .inner;
        if let Some(sq) = clicked
            && let Some(new) = click(state, setup, side, sq)
        {
            queued.push(TableCmd::SaveSetup {
                game: id,
                side,
                setup: new,
            });
        }
        // The palette, the typed sheet and the start scroll rather than run off the screen.
        egui::ScrollArea::vertical()
            .id_salt("setup-side")
            .show(ui, |ui| {
                // One below the other (the row around the scroll area is horizontal).
                ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                    palette(ui, state, setup, side, id, queued);
                    typed_entry(ui, state, side, id, queued);
                    ui.add_space(6.0);
                    let complete = |s: Side| {
                        table.stored.setup[s]
                            .as_ref()
                            .is_some_and(|x| x.validate(s).is_ok())
                    };
                    if complete(Side::White) && complete(Side::Black) {
                        ui.separator();
                        ui.label(
                            RichText::new("Both setups are in.")
                                .strong()
                                .color(common::GREEN),
                        );
                        let lots = timers.lots_drawn_at.is_some();
                        super::start_clocks(ui, id, first, lots, &gate, queued);
                    } else if complete(side) {
                        let other = side.opponent();
                        ui.label(
                            RichText::new(format!("{}'s setup is complete.", Cap(side)))
                                .color(common::GREEN),
                        );
                        if ui.button(format!("Enter {}'s setup", Cap(other))).clicked() {
                            state.black = other == Side::Black;
                            state.pick = None;
                            state.typed.clear();
                            state.typed_error = None;
                        }
                    }
                });
            });
    });
}

/// The two sides' tabs and the setup timer.
fn tabs(ui: &mut Ui, state: &mut SetupState, table: &LiveTable, timers: TableTimers, now: i64) {
    let placed = |s: Side| {
        table.stored.setup[s]
            .as_ref()
            .map_or(0, |x| x.placements.len())
    };
    let complete = |s: Side| {
        table.stored.setup[s]
            .as_ref()
            .is_some_and(|x| x.validate(s).is_ok())
    };
    ui.horizontal(|ui| {
        for s in Side::BOTH {
            let mark = if complete(s) { " complete" } else { "" };
            let text = format!("{}'s setup ({}/21){mark}", Cap(s), placed(s));
            if ui.selectable_label(state.side() == s, text).clicked() && state.side() != s {
                state.black = s == Side::Black;
                state.pick = None;
                state.typed.clear();
                state.typed_error = None;
            }
        }
        ui.separator();
        let limit = table.stored.meta.rules.setup_limit_ns;
        timer_line(ui, "Setup time", timers.setup_started_at, limit, now);
    });
}

/// What the desk does when setup time has run out (RULES.md gives 5 minutes and says no
/// more): the arbiter is told, and the clocks cannot start until the arbiter has recorded a
/// ruling (who was late, what was decided) in the audit log.
fn setup_gate(
    ui: &mut Ui,
    table: &LiveTable,
    timers: TableTimers,
    now: i64,
    confirm: &mut Option<Confirm<TableCmd>>,
) -> StartGate {
    let limit_ms = table.stored.meta.rules.setup_limit_ns / 1_000_000;
    let over = timers.setup_started_at.is_some_and(|s| now > s + limit_ms);
    if !over {
        return StartGate { blocked: None };
    }
    if timers.setup_overrun_at.is_some() {
        ui.label(
            RichText::new("Setup time ran out; the arbiter's ruling is in the audit log.")
                .color(common::AMBER),
        );
        return StartGate { blocked: None };
    }
    let late: Vec<String> = Side::BOTH
        .into_iter()
        .filter(|s| {
            table.stored.setup[*s]
                .as_ref()
                .is_none_or(|x| x.validate(*s).is_err())
        })
        .map(|s| Cap(s).to_string())
        .collect();
    ui.horizontal(|ui| {
        let who = if late.is_empty() {
            "both setups are in, late".to_string()
        } else {
            format!("not complete: {}", late.join(" and "))
        };
        ui.label(
            RichText::new(format!("Setup time is over ({who})."))
                .strong()
                .color(common::RED),
        );
        if ui.button("Record the ruling…").clicked() {
            *confirm = Some(
                Confirm::new(
                    "Setup time is over",
                    "Record what you decided (e.g. \"Black late 1 minute, warned\"). It goes into \
                     the audit log; then the setups can be finished and the clocks started.",
                    "Record the ruling",
                    TableCmd::SetupRuling {
                        game: table.id(),
                        reason: String::new(),
                    },
                )
                .with_reason(),
            );
        }
    });
    StartGate {
        blocked: Some("Setup time ran out: record your ruling first".into()),
    }
}

/// The palette: a rank to place, how many are left; random, remove, clear.
fn palette(
    ui: &mut Ui,
    state: &mut SetupState,
    setup: &SideSetup,
    side: Side,
    id: crate::store::GameId,
    queued: &mut Vec<TableCmd>,
) {
    ui.label(RichText::new("Palette").strong());
    // Two ranks to a row: the palette, the typed sheet and the start fit a 768-pixel screen.
    egui::Grid::new("palette")
        .num_columns(4)
        .spacing([6.0, 2.0])
        .show(ui, |ui| {
            for (i, rank) in Rank::ALL.into_iter().enumerate() {
                let left = remaining(setup, rank);
                let text = format!("{} {}", rank.code(), rank.name());
                let button = egui::Button::selectable(state.brush == Some(rank), text);
                if ui.add_enabled(left > 0, button).clicked() {
                    state.brush = Some(rank);
                    state.pick = None;
                }
                ui.label(format!("{left} left"));
                if i % 2 == 1 {
                    ui.end_row();
                }
            }
        });
    ui.horizontal_wrapped(|ui| {
        if ui.button("Random setup").clicked() {
            use rand::{Rng, SeedableRng};
            let mut rng = rand::rngs::StdRng::from_os_rng();
            let random = SideSetup::random(side, |n| rng.random_range(0..n.max(1)));
            queued.push(TableCmd::SaveSetup {
                game: id,
                side,
                setup: random,
            });
            state.pick = None;
        }
        if let Some(p) = state.pick
            && ui.button(format!("Remove piece on {p}")).clicked()
        {
            let mut new = setup.clone();
            new.placements.retain(|(s, _)| *s != p);
            state.pick = None;
            queued.push(TableCmd::SaveSetup {
                game: id,
                side,
                setup: new,
            });
        }
        if !setup.placements.is_empty() && ui.button("Clear").clicked() {
            queued.push(TableCmd::SaveSetup {
                game: id,
                side,
                setup: SideSetup::default(),
            });
        }
    });
}

/// The setup typed or pasted from the sheet: three lines of nine cells.
fn typed_entry(
    ui: &mut Ui,
    state: &mut SetupState,
    side: Side,
    id: crate::store::GameId,
    queued: &mut Vec<TableCmd>,
) {
    let ranks = match side {
        Side::White => "3, 2, 1",
        Side::Black => "8, 7, 6",
    };
    let l = ui.label(format!(
        "Or type {}'s sheet: ranks {ranks}, one line each, files a-i (- for empty)",
        Cap(side)
    ));
    ui.add(
        egui::TextEdit::multiline(&mut state.typed)
            .desired_rows(3)
            .desired_width(300.0)
            .font(egui::TextStyle::Monospace)
            .hint_text("PVT PVT SPY - G5 ...\nG4 G3 ...\n..."),
    )
    .labelled_by(l.id);
    if ui
        .button(format!("Use the typed setup for {}", Cap(side)))
        .clicked()
    {
        match super::parse_setup_text(side, &state.typed) {
            Ok(setup) => {
                queued.push(TableCmd::SaveSetup {
                    game: id,
                    side,
                    setup,
                });
                state.typed_error = None;
                state.pick = None;
            }
            Err(e) => state.typed_error = Some(e),
        }
    }
    if let Some(e) = &state.typed_error {
        ui.colored_label(common::RED, e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    #[test]
    fn placing_from_the_palette_moves_on_to_the_next_rank_left() {
        let mut state = SetupState {
            brush: Some(Rank::G5),
            ..SetupState::default()
        };
        let setup =
            click(&mut state, &SideSetup::default(), Side::White, sq("a1")).expect("placed");
        assert_eq!(setup.placements, vec![(sq("a1"), Rank::G5)]);
        assert_eq!(state.brush, Some(Rank::G4));
        // A square outside White's ranks takes nothing.
        assert!(click(&mut state, &setup, Side::White, sq("a4")).is_none());
    }

    #[test]
    fn a_rank_with_none_left_cannot_be_placed() {
        let mut setup = SideSetup::default();
        setup.placements.push((sq("a1"), Rank::Flag));
        let mut state = SetupState {
            brush: Some(Rank::Flag),
            ..SetupState::default()
        };
        assert!(click(&mut state, &setup, Side::White, sq("b1")).is_none());
    }

    #[test]
    fn clicking_two_pieces_swaps_them() {
        let setup = SideSetup::new(vec![(sq("a6"), Rank::Spy), (sq("b6"), Rank::Flag)]);
        let mut state = SetupState::default();
        assert!(click(&mut state, &setup, Side::Black, sq("a6")).is_none());
        let swapped = click(&mut state, &setup, Side::Black, sq("b6")).expect("swapped");
        assert_eq!(swapped.rank_at(sq("a6")), Some(Rank::Flag));
        assert_eq!(swapped.rank_at(sq("b6")), Some(Rank::Spy));
    }
}
