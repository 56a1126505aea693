//! The adjudication desk: when game time runs out, each player reads the opponent's
//! remaining pieces, shown face down; the arbiter enters each reading by clicking a piece and
//! choosing a rank or "Abstain". The sheet refuses a second Flag and any rank named more often
//! than a set holds. Once both sheets are handed in, the verdict of every reading, NRS, the
//! Aliwalas value of every remaining piece, AVP, TAS and the result are shown.

use super::board::{self, BoardStyle, CellView};
use super::{Cap, TableCmd, TableLabel, capitalise};
use crate::desk::LiveTable;
use crate::store::GameId;
use crate::ui::common::{self, Confirm};
use egui::{RichText, Ui};
use ggdesk_core::adjudication::{Adjudication, Hundredths, ReadingVerdict, aliwalas_value};
use ggdesk_core::rules::{Game, GameState, Rank, Side, Square};
use serde_json::{Map, Value, json};

/// Whose sheet is shown and which piece is picked. The readings themselves are the
/// store's: each one is saved as it is chosen, and the sheet shown is always the one
/// stored, so a reading another desk added is built on, and one the store refused is not
/// shown as read.
#[derive(Debug, Default)]
pub struct AdjudicationState {
    pub black_reads: bool,
    pub picked: Option<Square>,
}

impl AdjudicationState {
    fn reader(&self) -> Side {
        if self.black_reads {
            Side::Black
        } else {
            Side::White
        }
    }
}

/// The reader's sheet as the store holds it.
fn stored_sheet(table: &LiveTable, reader: Side) -> Vec<(Square, Rank)> {
    table.stored.sheets[reader]
        .as_ref()
        .and_then(|row| row.sheet.as_object())
        .map(|obj| {
            obj.iter()
                .filter_map(|(sq, code)| Some((sq.parse().ok()?, code.as_str()?.parse().ok()?)))
                .collect()
        })
        .unwrap_or_default()
}

/// A sheet as the store and the record keep it: square → piece code.
pub fn sheet_value(readings: &[(Square, Rank)]) -> Value {
    let mut obj = Map::new();
    for (sq, rank) in readings {
        obj.insert(sq.to_string(), json!(rank.code()));
    }
    Value::Object(obj)
}

/// The sheet's state under the palette: handed in, or the button that hands it in (the
/// sheet then counts for the result). A sheet with no reading at all is handed in only
/// after a confirmation: every piece then counts as an abstention. Returns true when handed
/// in this frame.
#[allow(clippy::too_many_arguments)]
pub(crate) fn hand_in(
    ui: &mut Ui,
    game: GameId,
    reader: Side,
    locked: bool,
    readings: usize,
    sheet: impl FnOnce() -> Value,
    queued: &mut Vec<TableCmd>,
    confirm: &mut Option<Confirm<TableCmd>>,
) -> bool {
    if locked {
        ui.label(
            RichText::new(format!("{}'s sheet is handed in.", Cap(reader))).color(common::GREEN),
        );
        return false;
    }
    let button = RichText::new(format!("Hand in {}'s sheet", Cap(reader))).strong();
    if !ui.button(button).clicked() {
        return false;
    }
    let cmd = TableCmd::SaveSheet {
        game,
        side: reader,
        sheet: sheet(),
        complete: true,
    };
    if readings == 0 {
        *confirm = Some(Confirm::new(
            format!("Hand in {}'s sheet with no reading?", Cap(reader)),
            format!(
                "{} has read none of {}'s pieces: every piece counts as an abstention (0 points). \
                 A handed-in sheet cannot be changed.",
                Cap(reader),
                Cap(reader.opponent())
            ),
            "Hand in the empty sheet",
            cmd,
        ));
        return false;
    }
    queued.push(cmd);
    true
}

/// The palette a reading is chosen from: every rank, with how many the sheet names already,
/// and Abstain. A rank the sheet names as often as a set holds cannot be named again
/// (choosing it again for the same piece is fine). Returns the choice made this frame:
/// `Some(Some(rank))`, `Some(None)` for Abstain.
pub(crate) fn reading_palette(
    ui: &mut Ui,
    id: &str,
    named: &[Rank],
    current: Option<Rank>,
    enabled: bool,
) -> Option<Option<Rank>> {
    let mut change = None;
    egui::Grid::new(id)
        .num_columns(2)
        .spacing([6.0, 3.0])
        .show(ui, |ui| {
            for rank in Rank::ALL {
                let count = named.iter().filter(|r| **r == rank).count();
                let others = count - usize::from(current == Some(rank));
                let allowed = enabled && others < rank.count_in_set();
                let text = format!("{} {}", rank.code(), rank.name());
                let button = egui::Button::selectable(current == Some(rank), text);
                if ui.add_enabled(allowed, button).clicked() {
                    change = Some(Some(rank));
                }
                ui.label(format!("{count}/{}", rank.count_in_set()));
                ui.end_row();
            }
        });
    if ui
        .add_enabled(enabled, egui::Button::new("Abstain"))
        .clicked()
    {
        change = Some(None);
    }
    change
}

#[allow(clippy::too_many_arguments)]
pub fn ui(
    ui: &mut Ui,
    state: &mut AdjudicationState,
    table: &LiveTable,
    label: &TableLabel,
    game: &Game,
    reading_started: Option<i64>,
    now_ms: i64,
    queued: &mut Vec<TableCmd>,
    confirm: &mut Option<Confirm<TableCmd>>,
) {
    let id = table.id();
    if !matches!(game.state(), GameState::AdjudicationPending { .. }) {
        return;
    }
    let handed_in = |s: Side| table.stored.sheets[s].as_ref().is_some_and(|r| r.complete);
    let verdict = table.stored.verdict().and_then(|v| v.ok());
    let adjudication = verdict.and_then(|v| v.adjudication);
    super::adjudication_heading(
        ui,
        reading_started,
        game.settings().reading_limit_ns,
        adjudication.is_some(),
        now_ms,
    );
    if let Some(adj) = &adjudication {
        super::confirmation(ui, table, label, queued);
        result_ui(ui, adj, queued, id);
        return;
    }
    reader_tabs(ui, state, table);
    let reader = state.reader();
    let enemy = reader.opponent();
    ui.label(
        RichText::new(format!(
            "{}'s remaining pieces are face down. Click a piece, then the rank {} names for it, or Abstain.",
            Cap(enemy),
            Cap(reader)
        ))
        .weak(),
    );
    let position = game.position().clone();
    let readings = stored_sheet(table, reader);
    let locked = handed_in(reader);
    ui.horizontal_top(|ui| {
        let style = BoardStyle {
            selected: state.picked,
            max_square: 56.0,
            ..BoardStyle::default()
        };
        let clicked = ui
            .allocate_ui(egui::vec2(540.0, 480.0), |ui| {
                board::draw(
                    ui,
                    "reading",
                    |sq| match position.get(sq) {
                        Some(p) if p.side == enemy => match readings.iter().find(|(s, _)| *s == sq)
                        {
                            Some((_, guess)) => CellView::Guessed(enemy, *guess),
                            None => CellView::FaceDown(enemy),
                        },
                        _ => CellView::Empty,
                    },
                    |sq, _| format!("read {sq}"),
                    &style,
                    !locked,
                )
            })
            .inner;
        if let Some(sq) = clicked {
            state.picked = position.get(sq).filter(|p| p.side == enemy).map(|_| sq);
        }
        ui.vertical(|ui| {
            match state.picked {
                Some(sq) => ui.label(RichText::new(format!("Reading for {sq}")).strong()),
                None => ui.label(RichText::new("Choose a piece on the board").strong()),
            };
            let current = state
                .picked
                .and_then(|sq| readings.iter().find(|(s, _)| *s == sq).map(|(_, r)| *r));
            let named_ranks: Vec<Rank> = readings.iter().map(|(_, r)| *r).collect();
            let change = reading_palette(
                ui,
                "reading-palette",
                &named_ranks,
                current,
                !locked && state.picked.is_some(),
            );
            if let (Some(choice), Some(sq)) = (change, state.picked) {
                let mut sheet = readings.clone();
                sheet.retain(|(s, _)| *s != sq);
                if let Some(rank) = choice {
                    sheet.push((sq, rank));
                }
                let value = sheet_value(&sheet);
                queued.push(TableCmd::SaveSheet {
                    game: id,
                    side: reader,
                    sheet: value,
                    complete: false,
                });
            }
            ui.add_space(8.0);
            let enemy_count = position.count(enemy);
            ui.label(format!(
                "{} of {enemy_count} pieces read; the rest abstain.",
                readings.len()
            ));
            let sheet = || sheet_value(&readings);
            if hand_in(
                ui,
                id,
                reader,
                locked,
                readings.len(),
                sheet,
                queued,
                confirm,
            ) && !handed_in(reader.opponent())
            {
                state.black_reads = reader == Side::White;
                state.picked = None;
            }
        });
    });
}

/// The two readers' tabs, each with how many pieces it has read.
fn reader_tabs(ui: &mut Ui, state: &mut AdjudicationState, table: &LiveTable) {
    let handed_in = |s: Side| table.stored.sheets[s].as_ref().is_some_and(|r| r.complete);
    ui.horizontal(|ui| {
        for reader in Side::BOTH {
            let done = if handed_in(reader) { ", handed in" } else { "" };
            let n = stored_sheet(table, reader).len();
            let text = format!(
                "{} reads {}'s pieces ({n} read{done})",
                Cap(reader),
                Cap(reader.opponent())
            );
            if ui
                .selectable_label(state.reader() == reader, text)
                .clicked()
            {
                state.black_reads = reader == Side::Black;
                state.picked = None;
            }
        }
    });
}

/// Both sides' scores in one line each (NRS, AVP, TAS per side), shown first so the result
/// and its totals are in view without scrolling.
/// Each reader's Net Reading Score, Aliwalas value and Total Adjudication Score, as
/// `score(reader)` gives them.
pub(crate) fn totals_ui(ui: &mut Ui, score: impl Fn(Side) -> (i64, Hundredths, Hundredths)) {
    for reader in Side::BOTH {
        let (nrs, avp, tas) = score(reader);
        ui.label(
            RichText::new(format!(
                "{}:  NRS {nrs}  +  AVP {avp}  =  TAS {tas}",
                Cap(reader)
            ))
            .strong()
            .size(17.0),
        );
    }
}

fn result_ui(ui: &mut Ui, adj: &Adjudication, queued: &mut Vec<TableCmd>, id: GameId) {
    let result = match adj.winner {
        Some(w) => format!("{} wins by adjudication", capitalise(w.name())),
        None => "Draw: equal Total Adjudication Scores".to_string(),
    };
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(result)
                .size(22.0)
                .strong()
                .color(common::BLUE),
        );
        if ui.button("Print adjudication form").clicked() {
            queued.push(TableCmd::PrintAdjudication { game: id });
        }
    });
    totals_ui(ui, |r| {
        let s = &adj.scores[r];
        (s.net_reading_score, s.aliwalas_value, s.total)
    });
    ui.separator();
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.columns(2, |cols| {
                for (col, reader) in cols.iter_mut().zip(Side::BOTH) {
                    let s = &adj.scores[reader];
                    col.label(
                        RichText::new(format!("{} reads {}", Cap(reader), Cap(reader.opponent())))
                            .strong(),
                    );
                    egui::Grid::new(("verdicts", reader.name()))
                        .striped(true)
                        .show(col, |ui| {
                            for h in ["Square", "Piece", "Reading", "Verdict"] {
                                ui.label(RichText::new(h).strong());
                            }
                            ui.end_row();
                            for r in &s.readings {
                                ui.label(r.square.to_string());
                                ui.label(r.actual.code());
                                ui.label(r.read.map_or("-", |x| x.code()));
                                let (text, color) = match r.verdict {
                                    ReadingVerdict::Correct => ("correct (+2)", common::GREEN),
                                    ReadingVerdict::Incorrect => ("incorrect (-1)", common::RED),
                                    ReadingVerdict::Abstained => ("abstained", egui::Color32::GRAY),
                                };
                                ui.label(RichText::new(text).color(color));
                                ui.end_row();
                            }
                        });
                    col.label(RichText::new(format!("NRS {}", s.net_reading_score)).strong());
                    let values: Vec<String> = s
                        .own_pieces
                        .iter()
                        .map(|(sq, r)| format!("{} {sq} {}", r.code(), aliwalas_value(*r)))
                        .collect();
                    col.label(format!("Own pieces: {}", values.join(", ")));
                    col.label(
                        RichText::new(format!("AVP {}   TAS {}", s.aliwalas_value, s.total))
                            .strong()
                            .size(16.0),
                    );
                }
            });
        });
}
