//! The desk's keys, all in one list: opened by the "Keys" button on the navigation bar, by
//! Shift+F1, or by `?` when no text field has the keyboard (F1 itself opens the Players
//! page, as F2-F7 and F9 open the others).

use egui::{RichText, Ui};

/// Every shortcut of the desk: where it works, the key, what it does.
pub const SHORTCUTS: &[(&str, &str, &str)] = &[
    (
        "Every page",
        "F1 … F7, F9 … F12",
        "Players, Tournaments, Registration, Rounds, Tables, Standings, Settings, Stations, \
         Ratings, Bracket, Teams",
    ),
    ("Every page", "Shift+F1 or ?", "This list of keys"),
    (
        "Every page",
        "Esc",
        "Leave a text field (then the page's own keys work)",
    ),
    ("Every page", "Tab", "The next field"),
    (
        "Dialogs",
        "Enter",
        "Confirm (when the reason asked for is typed)",
    ),
    ("Dialogs", "Esc", "Cancel"),
    ("Players", "Ctrl+F", "Search the players"),
    ("Players", "Ctrl+N", "A new player"),
    (
        "Players",
        "Enter",
        "Save the player form (in any of its fields)",
    ),
    ("Rounds", "Ctrl+P", "Pair the next round"),
    ("Rounds", "Ctrl+Enter", "Publish the draft"),
    ("Rounds", "Ctrl+Shift+P", "Print the pairings"),
    ("Rounds", "Up / Down", "Choose a table"),
    (
        "Rounds",
        "W / B / D",
        "White wins / Black wins / draw at the chosen table",
    ),
    ("Rounds", "Esc", "Cancel a swap"),
    (
        "Bracket",
        "Ctrl+P",
        "Start the next games of the knockout (or the playoff)",
    ),
    (
        "Tables",
        "F8",
        "Pause or resume the open table's clocks (also while typing)",
    ),
    ("Tables", "Space", "Pause or resume, outside the move box"),
    ("Tables", "Enter", "Play the move typed in the move box"),
    (
        "Tables",
        "Enter",
        "Physical board: record \"Move made\" (outside a text field)",
    ),
    ("Tables", "PageUp / PageDown", "The previous / next table"),
    ("Tables", "Esc", "Back to all tables"),
    ("Standings", "Ctrl+E", "Export the standings (CSV)"),
    ("File picker", "Enter", "Open the file or folder typed"),
];

/// The list of keys, when open.
#[derive(Debug, Default)]
pub struct Help {
    pub open: bool,
}

impl Help {
    /// Shift+F1 (whatever has the keyboard: it types nothing) or `?` (only when no field
    /// has it) opens or closes the list. Called before the function keys switch pages.
    pub fn keys(&mut self, ctx: &egui::Context, typing: bool) {
        let shift_f1 = ctx.input_mut(|i| i.consume_key(egui::Modifiers::SHIFT, egui::Key::F1));
        let question = !typing
            && ctx.input(|i| {
                i.events
                    .iter()
                    .any(|e| matches!(e, egui::Event::Text(t) if t == "?"))
            });
        if shift_f1 || question {
            self.open = !self.open;
        }
    }

    /// The window with every key.
    pub fn ui(&mut self, ctx: &egui::Context) {
        if !self.open {
            return;
        }
        let mut open = self.open;
        egui::Window::new("Every key of the desk")
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .default_width(620.0)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, table);
        self.open = open;
    }
}

fn table(ui: &mut Ui) {
    egui::Grid::new("keys-grid")
        .num_columns(3)
        .striped(true)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            for head in ["Where", "Key", "What it does"] {
                ui.label(RichText::new(head).strong());
            }
            ui.end_row();
            for (place, key, what) in SHORTCUTS {
                ui.label(*place);
                ui.label(RichText::new(*key).monospace().strong());
                ui.label(*what);
                ui.end_row();
            }
        });
}
