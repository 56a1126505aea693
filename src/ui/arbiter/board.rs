//! Drawing the 9 × 8 board: the arbiter's board (ranks behind a toggle, clickable squares)
//! and the players' board, which is drawn from a `PlayerView` and so has no rank to show.

use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, StrokeKind, Ui, Vec2};
use ggdesk_core::rules::{FILES, Piece, PlayerView, ROWS, Side, Square};

/// What one square shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellView {
    Empty,
    /// A piece shown face down: only its side.
    FaceDown(Side),
    /// A piece with its rank (the arbiter's eyes only).
    Open(Piece),
    /// A piece face down with a reader's guess written on it (adjudication).
    Guessed(Side, ggdesk_core::rules::Rank),
}

/// Highlights and limits for one drawing.
#[derive(Debug, Clone, Default)]
pub struct BoardStyle {
    pub selected: Option<Square>,
    pub marked: Vec<Square>,
    /// Rows (0-based) drawn as out of play (dimmed), e.g. the enemy half during setup.
    pub dim_rows: Vec<u8>,
    pub max_square: f32,
}

fn side_color(side: Side) -> Color32 {
    match side {
        Side::White => Color32::from_rgb(238, 236, 225),
        Side::Black => Color32::from_rgb(40, 40, 46),
    }
}

fn text_color(side: Side) -> Color32 {
    match side {
        Side::White => Color32::from_rgb(20, 20, 20),
        Side::Black => Color32::from_rgb(240, 240, 240),
    }
}

/// Draws a board; returns the square clicked, if any. `label` gives each square its
/// accessible name (tests find squares by it).
pub fn draw(
    ui: &mut Ui,
    id_salt: &str,
    cell: impl Fn(Square) -> CellView,
    label: impl Fn(Square, CellView) -> String,
    style: &BoardStyle,
    interactive: bool,
) -> Option<Square> {
    let avail = ui.available_size();
    let max = if style.max_square > 0.0 {
        style.max_square
    } else {
        60.0
    };
    let side = ((avail.x - 24.0) / FILES as f32)
        .min((avail.y - 24.0) / ROWS as f32)
        .clamp(26.0, max);
    let size = Vec2::new(side * FILES as f32 + 24.0, side * ROWS as f32 + 22.0);
    let (outer, painter) = ui.allocate_painter(size, Sense::hover());
    let origin = outer.rect.min + Vec2::new(22.0, 0.0);
    let visuals = ui.visuals().clone();
    let light = if visuals.dark_mode {
        Color32::from_rgb(92, 108, 84)
    } else {
        Color32::from_rgb(196, 214, 178)
    };
    let dark = if visuals.dark_mode {
        Color32::from_rgb(78, 94, 72)
    } else {
        Color32::from_rgb(176, 196, 158)
    };
    let mut clicked = None;
    for square in Square::all() {
        let col = square.file() as f32;
        let row = (ROWS - 1 - square.row()) as f32;
        let rect = Rect::from_min_size(
            origin + Vec2::new(col * side, row * side),
            Vec2::splat(side),
        );
        let mut fill = if (square.file() + square.row()) % 2 == 0 {
            dark
        } else {
            light
        };
        // The midpoint between ranks 4 and 5 is marked by a slightly different tone.
        if style.dim_rows.contains(&square.row()) {
            fill = fill.gamma_multiply(0.45);
        }
        painter.rect_filled(rect.shrink(0.5), 2.0, fill);
        if square.row() == 4 {
            painter.line_segment(
                [rect.left_bottom(), rect.right_bottom()],
                Stroke::new(2.0, visuals.strong_text_color().gamma_multiply(0.6)),
            );
        }
        let view = cell(square);
        match view {
            CellView::Empty => {}
            CellView::FaceDown(s) => {
                let r = rect.shrink(side * 0.14);
                painter.rect_filled(r, 5.0, side_color(s));
                painter.rect_stroke(r, 5.0, Stroke::new(1.0, Color32::GRAY), StrokeKind::Inside);
            }
            CellView::Guessed(s, guess) => {
                let r = rect.shrink(side * 0.14);
                painter.rect_filled(r, 5.0, side_color(s));
                painter.rect_stroke(
                    r,
                    5.0,
                    Stroke::new(2.0, super::super::common::AMBER),
                    StrokeKind::Inside,
                );
                painter.text(
                    r.center(),
                    Align2::CENTER_CENTER,
                    format!("{}?", guess.code()),
                    FontId::proportional((side * 0.26).max(10.0)),
                    super::super::common::AMBER,
                );
            }
            CellView::Open(p) => {
                let r = rect.shrink(side * 0.14);
                painter.rect_filled(r, 5.0, side_color(p.side));
                painter.rect_stroke(r, 5.0, Stroke::new(1.0, Color32::GRAY), StrokeKind::Inside);
                painter.text(
                    r.center(),
                    Align2::CENTER_CENTER,
                    p.rank.code(),
                    FontId::proportional((side * 0.3).max(11.0)),
                    text_color(p.side),
                );
            }
        }
        if style.selected == Some(square) {
            painter.rect_stroke(
                rect.shrink(1.0),
                3.0,
                Stroke::new(3.0, super::super::common::BLUE),
                StrokeKind::Inside,
            );
        } else if style.marked.contains(&square) {
            painter.rect_stroke(
                rect.shrink(1.0),
                3.0,
                Stroke::new(2.0, super::super::common::AMBER),
                StrokeKind::Inside,
            );
        }
        let id = ui.scope_id().with((id_salt, square.index()));
        let sense = if interactive {
            Sense::click()
        } else {
            Sense::hover()
        };
        let response = ui.interact(rect, id, sense);
        let name = label(square, view);
        // What the square shows, for screen readers and tests: only what is drawn.
        let shown = match view {
            CellView::Empty => "empty".to_string(),
            CellView::FaceDown(s) => format!("{s} piece"),
            CellView::Open(p) => format!("{} {}", p.side, p.rank.code()),
            CellView::Guessed(s, r) => format!("{s} piece read as {}", r.code()),
        };
        response.widget_info(|| {
            let mut info = egui::WidgetInfo::labeled(egui::Role::Button, interactive, &name);
            info.current_text_value = Some(shown.clone());
            info
        });
        if interactive && response.clicked() {
            clicked = Some(square);
        }
    }
    // File letters under the board, rank numbers to its left.
    let font = FontId::monospace(12.0);
    let color = visuals.weak_text_color();
    for f in 0..FILES {
        let x = origin.x + (f as f32 + 0.5) * side;
        painter.text(
            Pos2::new(x, origin.y + ROWS as f32 * side + 10.0),
            Align2::CENTER_CENTER,
            (b'a' + f) as char,
            font.clone(),
            color,
        );
    }
    for r in 0..ROWS {
        let y = origin.y + (ROWS - 1 - r) as f32 * side + side * 0.5;
        painter.text(
            Pos2::new(outer.rect.min.x + 10.0, y),
            Align2::CENTER_CENTER,
            r + 1,
            font.clone(),
            color,
        );
    }
    clicked
}

/// The players' board: every piece face down. It is drawn from a [`PlayerView`] only.
pub fn draw_player_view(ui: &mut Ui, view: &PlayerView, marked: &[Square]) {
    let style = BoardStyle {
        marked: marked.to_vec(),
        max_square: 80.0,
        ..BoardStyle::default()
    };
    draw(
        ui,
        "player-view",
        |sq| match view.occupant(sq) {
            Some(side) => CellView::FaceDown(side),
            None => CellView::Empty,
        },
        |sq, v| match v {
            CellView::FaceDown(side) => format!("player view {sq}: {side} piece"),
            _ => format!("player view {sq}: empty"),
        },
        &style,
        false,
    );
}
