//! A CSV file read and checked, shown row by row before anything is saved: the Players
//! page's players list and the Teams page's team players list share it.

use crate::ui::common;
use egui::{RichText, Ui};
use ggdesk_core::export::{ImportedPlayer, RowError};
use std::path::PathBuf;

/// A CSV read and checked, waiting for the director's go.
#[derive(Debug, Clone)]
pub struct CsvPreview<R> {
    pub path: PathBuf,
    pub rows: Vec<R>,
    pub bad: Vec<RowError>,
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
