//! Setup entry: one side at a time, the other side's pieces hidden. Pieces are placed from a
//! palette that shows how many of each rank are left, so a wrong count cannot be entered.

use super::board::{self, BoardStyle, CellView};
use super::{Cap, TableCmd};
use crate::desk::LiveTable;
use crate::ui::common::{self, fmt_clock};
use egui::{RichText, Ui};
use ggdesk_core::rules::{Piece, Rank, Side, SideSetup, Square};
use std::collections::HashMap;

/// What the setup editor remembers between frames.
#[derive(Debug, Default)]
pub struct SetupState {
    /// The side being entered (White first).
    pub black: bool,
    pub brush: Option<Rank>,
    pub pick: Option<Square>,
    /// When each side's entry began (for the setup timer), per game.
    pub started: HashMap<(i64, bool), i64>,
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
        (Some(i), Some(p)) if p == square => {
            let _ = i;
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
pub fn ui(
    ui: &mut Ui,
    state: &mut SetupState,
    table: &LiveTable,
    first: &mut Side,
    now_ms: i64,
    queued: &mut Vec<TableCmd>,
) {
    let id = table.id();
    let side = state.side();
    let empty = SideSetup::default();
    let setup = table.stored.setup[side].as_ref().unwrap_or(&empty);
    let placed = |s: Side| {
        table.stored.setup[s]
            .as_ref()
            .map_or(0, |x| x.placements.len())
    };
    // The palette starts on the first rank still to place.
    if state.brush.is_none_or(|r| remaining(setup, r) == 0) && state.pick.is_none() {
        state.brush = next_brush(setup, Rank::G5);
    }
    let complete = |s: Side| {
        table.stored.setup[s]
            .as_ref()
            .is_some_and(|x| x.validate(s).is_ok())
    };

    ui.horizontal(|ui| {
        for s in Side::BOTH {
            let mark = if complete(s) { " complete" } else { "" };
            let text = format!(
                "{}'s setup ({}/21){mark}",
                super::capitalise(s.name()),
                placed(s)
            );
            if ui.selectable_label(side == s, text).clicked() {
                state.black = s == Side::Black;
                state.pick = None;
            }
        }
        let started = *state.started.entry((id.0, state.black)).or_insert(now_ms);
        let limit = table.stored.meta.rules.setup_limit_ns;
        let left = limit - (now_ms - started) * 1_000_000;
        let color = if left < 0 {
            common::RED
        } else {
            ui.visuals().text_color()
        };
        ui.separator();
        ui.label(
            RichText::new(format!("Setup time left: {}", fmt_clock(left)))
                .color(color)
                .strong(),
        );
    });
    ui.label(
        RichText::new(format!(
            "Only {s}'s pieces are shown while {s}'s setup is entered. Pick a rank in the \
             palette, then click squares on {s}'s three ranks; click two pieces to swap them.",
            s = Cap(side)
        ))
        .weak(),
    );

    ui.horizontal_top(|ui| {
        let style = BoardStyle {
            selected: state.pick,
            dim_rows: (0..8u8).filter(|r| !side.home_rows().contains(r)).collect(),
            max_square: 58.0,
            ..BoardStyle::default()
        };
        let clicked = ui
            .allocate_ui(egui::vec2(560.0, 500.0), |ui| {
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

        ui.vertical(|ui| {
            ui.label(RichText::new("Palette").strong());
            egui::Grid::new("palette")
                .num_columns(2)
                .spacing([6.0, 3.0])
                .show(ui, |ui| {
                    for rank in Rank::ALL {
                        let left = remaining(setup, rank);
                        let text = format!("{} {}", rank.code(), rank.name());
                        let button = egui::Button::selectable(state.brush == Some(rank), text);
                        if ui.add_enabled(left > 0, button).clicked() {
                            state.brush = Some(rank);
                            state.pick = None;
                        }
                        ui.label(format!("{left} left"));
                        ui.end_row();
                    }
                });
            ui.add_space(6.0);
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
            ui.add_space(10.0);
            if complete(Side::White) && complete(Side::Black) {
                ui.separator();
                ui.label(
                    RichText::new("Both setups are in.")
                        .strong()
                        .color(common::GREEN),
                );
                super::start_clocks(ui, id, first, queued);
            } else if complete(side) {
                let other = side.opponent();
                ui.label(
                    RichText::new(format!("{}'s setup is complete.", Cap(side)))
                        .color(common::GREEN),
                );
                if ui.button(format!("Enter {}'s setup", Cap(other))).clicked() {
                    state.black = other == Side::Black;
                    state.pick = None;
                }
            }
        });
    });
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
