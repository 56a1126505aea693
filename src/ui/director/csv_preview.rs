//! A CSV file read and checked, shown row by row before anything is saved: the Players
//! page's players list and the Teams page's team players list share it.

use crate::ui::common;
use egui::{RichText, Ui};
use ggdesk_core::export::{ImportedPlayer, PlayersCsvError, RowError};
use std::path::PathBuf;

/// A CSV read and checked, waiting for the director's go.
#[derive(Debug, Clone)]
pub struct CsvPreview<R> {
    pub path: PathBuf,
    pub rows: Vec<R>,
    pub bad: Vec<RowError>,
}

impl<R> CsvPreview<R> {
    /// Reads the CSV at `path` for its preview: `parse` reads its rows (a row it refuses is
    /// a bad row), then, when every row reads, `check` asks the store what it would refuse.
    /// `None` (said in `notices`) when the file cannot be read; a check that fails is said
    /// and the rows are shown as read.
    pub fn read(
        path: PathBuf,
        notices: &mut common::Notices,
        parse: impl FnOnce(&str) -> Result<Vec<R>, PlayersCsvError>,
        check: impl FnOnce(&[R]) -> Result<Vec<RowError>, crate::store::StoreError>,
    ) -> Option<CsvPreview<R>> {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                notices.error(format!("cannot read {}: {e}", path.display()));
                return None;
            }
        };
        let (rows, mut bad) = match parse(&text) {
            Ok(rows) => (rows, Vec::new()),
            Err(e) => (Vec::new(), e.rows),
        };
        if bad.is_empty() {
            match check(&rows) {
                Ok(b) => bad = b,
                Err(e) => notices.error(e.to_string()),
            }
        }
        Some(CsvPreview { path, rows, bad })
    }
}

/// A player row in words: every column of the file (name, club, federation id, rating).
pub fn player_words(r: &ImportedPlayer) -> String {
    format!(
        "{} · club {} · id {} · rating {}",
        r.name,
        r.club.as_deref().filter(|c| !c.is_empty()).unwrap_or("-"),
        r.federation_id
            .as_deref()
            .filter(|f| !f.is_empty())
            .unwrap_or("-"),
        r.rating
    )
}

/// Shows the preview: the file, then every row (`words`, after its line) ready to import
/// with the button `Import N <noun>`, or every bad row in red. True when the button is
/// clicked. `noun` is singular and plural.
pub fn preview_ui<R>(
    ui: &mut Ui,
    preview: &CsvPreview<R>,
    words: impl Fn(&R) -> (u64, String),
    (one, many): (&str, &str),
) -> bool {
    ui.label(RichText::new(format!("File: {}", preview.path.display())).weak());
    let mut import = false;
    if preview.bad.is_empty() {
        let n = preview.rows.len();
        let noun = if n == 1 { one } else { many };
        ui.label(
            RichText::new(format!("{n} {noun} ready to import"))
                .color(common::GREEN)
                .strong(),
        );
        egui::ScrollArea::vertical()
            .id_salt("csv-good")
            .max_height(160.0)
            .show(ui, |ui| {
                for r in &preview.rows {
                    let (line, text) = words(r);
                    common::cut_label(ui, format!("line {line}: {text}"));
                }
            });
        if ui
            .button(RichText::new(format!("Import {n} {noun}")).strong())
            .clicked()
        {
            import = true;
        }
    } else {
        ui.label(
            RichText::new(format!(
                "{} bad row{}: fix the file and preview again. Nothing was saved.",
                preview.bad.len(),
                if preview.bad.len() == 1 { "" } else { "s" }
            ))
            .color(common::RED)
            .strong(),
        );
        egui::ScrollArea::vertical()
            .id_salt("csv-bad")
            .max_height(200.0)
            .show(ui, |ui| {
                for r in &preview.bad {
                    ui.label(RichText::new(r.to_string()).color(common::RED));
                }
            });
    }
    import
}

/// The rows ready to import as a table, every row in full: a column for the file's line
/// and one for each of `heads` (the cells from `cells`, an empty one shown as `-`). When
/// the rows are wider than the page the widest columns are narrowed alike and their long
/// cells wrapped, so the table fits the width. The rows scroll in the height left but
/// `below` (what follows the table), so the last row can always be reached.
pub fn rows_table<R>(
    ui: &mut Ui,
    id: &str,
    rows: &[R],
    heads: &[&str],
    cells: impl Fn(&R) -> (u64, Vec<String>),
    below: f32,
) {
    let rows: Vec<(String, Vec<String>)> = rows
        .iter()
        .map(|r| {
            let (line, texts) = cells(r);
            let texts = texts
                .into_iter()
                .map(|t| if t.trim().is_empty() { "-".into() } else { t })
                .collect();
            (line.to_string(), texts)
        })
        .collect();
    let gap = 16.0;
    let font = egui::TextStyle::Body.resolve(ui.style());
    let width = |t: &str| {
        ui.painter()
            .layout_no_wrap(t.to_string(), font.clone(), egui::Color32::WHITE)
            .size()
            .x
    };
    // Each column's width unwrapped, the line's first.
    let mut natural: Vec<f32> = std::iter::once("Line")
        .chain(heads.iter().copied())
        .map(|h| width(h) + 2.0)
        .collect();
    for (line, texts) in &rows {
        for (k, t) in std::iter::once(line).chain(texts).enumerate() {
            if let Some(w) = natural.get_mut(k) {
                *w = w.max(width(t));
            }
        }
    }
    let cap = fitted_cap(
        &natural,
        ui.available_width() - gap * (natural.len() as f32 - 1.0) - 32.0,
    );
    egui::ScrollArea::vertical()
        .id_salt(id)
        .max_height((ui.available_height() - below).max(120.0))
        .show(ui, |ui| {
            egui::Grid::new(id)
                .striped(true)
                .num_columns(natural.len())
                .spacing([gap, 4.0])
                .max_col_width(cap)
                .show(ui, |ui| {
                    ui.label(RichText::new("Line").strong());
                    for h in heads {
                        ui.label(RichText::new(*h).strong());
                    }
                    ui.end_row();
                    for (line, texts) in rows {
                        ui.label(RichText::new(line).weak());
                        for t in texts {
                            ui.add(egui::Label::new(t).wrap());
                        }
                        ui.end_row();
                    }
                });
        });
}

/// The widest a column may be for columns `natural` wide to fit `room`: the narrow ones
/// keep their width, the wide ones share what is left alike (at least 60 points each).
/// Finite even when all fit: a grid column of no finite width gives a wrapped label only
/// the width the column had the frame before (a narrow one on the first frame).
fn fitted_cap(natural: &[f32], room: f32) -> f32 {
    let mut sorted = natural.to_vec();
    sorted.sort_by(f32::total_cmp);
    let mut left = room;
    for (i, w) in sorted.iter().enumerate() {
        let others = (sorted.len() - i) as f32;
        if w * others > left {
            return (left / others).max(60.0);
        }
        left -= w;
    }
    sorted.last().map_or(60.0, |w| w.ceil() + 1.0)
}

#[cfg(test)]
mod tests {
    use super::fitted_cap;

    #[test]
    fn only_the_widest_columns_are_narrowed_to_fit() {
        assert_eq!(fitted_cap(&[10.0, 20.0, 29.5], 100.0), 31.0);
        // 10 and 20 keep theirs; 300 and 400 share the 70 left.
        assert_eq!(fitted_cap(&[300.0, 10.0, 400.0, 20.0], 100.0), 60.0);
        assert_eq!(fitted_cap(&[300.0, 10.0, 400.0, 20.0], 230.0), 100.0);
    }
}
