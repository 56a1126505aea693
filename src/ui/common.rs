//! Small pieces shared by the pages: formatting, colours, notices, confirmation dialogs.

use egui::{Color32, RichText, Ui};

/// `m:ss` for a duration in nanoseconds; negative durations (past a limit) as `-m:ss`.
pub fn fmt_clock(ns: i64) -> String {
    let sign = if ns < 0 { "-" } else { "" };
    // Round towards the limit: a clock showing 0:00 has really run out.
    let secs = if ns >= 0 {
        ns.div_euclid(1_000_000_000) + i64::from(ns.rem_euclid(1_000_000_000) > 0)
    } else {
        (-ns).div_euclid(1_000_000_000)
    };
    format!("{sign}{}:{:02}", secs / 60, secs % 60)
}

/// A time since the game started or a duration used, in whole seconds rounded down (as a
/// wall clock shows it): `0:17`, `12:05`, `1:02:03`. Clocks counting down use
/// [`fmt_clock`], which rounds towards the limit.
pub fn fmt_elapsed(ns: i64) -> String {
    ggdesk_core::export::audit::game_time(ns.max(0) as f64 / 1e9)
}

/// `h:mm:ss` for the game clock.
pub fn fmt_hms(ns: i64) -> String {
    let secs = ns.max(0) / 1_000_000_000;
    format!("{}:{:02}:{:02}", secs / 3600, (secs % 3600) / 60, secs % 60)
}

/// Local wall-clock time `HH:MM` of a Unix-ms instant.
pub fn fmt_local_time(ms: i64) -> String {
    use chrono::TimeZone;
    chrono::Local
        .timestamp_millis_opt(ms)
        .single()
        .map(|t| t.format("%H:%M").to_string())
        .unwrap_or_else(|| "--:--".into())
}

/// Local date and time `YYYY-MM-DD HH:MM:SS` of a Unix-ms instant.
pub fn fmt_local_datetime(ms: i64) -> String {
    use chrono::TimeZone;
    chrono::Local
        .timestamp_millis_opt(ms)
        .single()
        .map(|t| t.format("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_else(|| "?".into())
}

pub const GREEN: Color32 = Color32::from_rgb(46, 160, 67);
pub const AMBER: Color32 = Color32::from_rgb(210, 140, 20);
pub const RED: Color32 = Color32::from_rgb(210, 60, 50);
pub const BLUE: Color32 = Color32::from_rgb(60, 120, 220);

/// A coloured status word, e.g. "PLAYING".
pub fn badge(ui: &mut Ui, text: &str, color: Color32) -> egui::Response {
    egui::Frame::new()
        .fill(color.gamma_multiply(0.25))
        .stroke(egui::Stroke::new(1.0, color))
        .corner_radius(4.0)
        .inner_margin(egui::Margin::symmetric(6, 1))
        .show(ui, |ui| ui.label(RichText::new(text).color(color).strong()))
        .response
}

/// A message shown at the bottom of the window for a few seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
    pub shown_at_ms: i64,
    /// A file written: the notice offers to open its folder.
    pub file: Option<std::path::PathBuf>,
}

impl Notice {
    /// How long the notice stays: errors 12 s, files written 30 s (time to open the
    /// folder), other confirmations 5 s.
    fn lasts_ms(&self) -> i64 {
        if self.error {
            12_000
        } else if self.file.is_some() {
            30_000
        } else {
            5_000
        }
    }
}

/// The notices raised while applying commands; the app shows and expires them.
#[derive(Debug, Default)]
pub struct Notices {
    pub items: Vec<Notice>,
    now_ms: i64,
    /// Programs started to open a page that ended in failure, told by their waiting
    /// threads; shown at the next frame.
    pub opens: super::files::OpenWatch,
}

impl Notices {
    /// Turns the openers that failed since the last frame into errors, saying where the
    /// file is.
    pub fn take_failed_opens(&mut self) {
        for f in self.opens.take() {
            self.error(format!(
                "{} could not be opened in the browser ({}): it is at {}; open it in a browser \
                 to print",
                f.what,
                f.status,
                f.path.display()
            ));
        }
    }

    pub fn set_now(&mut self, now_ms: i64) {
        self.now_ms = now_ms;
        self.items.retain(|n| now_ms - n.shown_at_ms < n.lasts_ms());
    }

    /// A confirmation. A good action clears the errors of earlier ones: they no longer
    /// describe the desk.
    pub fn info(&mut self, text: impl Into<String>) {
        self.items.retain(|n| !n.error);
        self.items.push(Notice {
            text: text.into(),
            error: false,
            shown_at_ms: self.now_ms,
            file: None,
        });
    }

    /// A file written: says where, and offers to open its folder.
    pub fn written(&mut self, text: impl Into<String>, file: &std::path::Path) {
        self.items.retain(|n| !n.error);
        self.items.push(Notice {
            text: text.into(),
            error: false,
            shown_at_ms: self.now_ms,
            file: Some(file.to_path_buf()),
        });
    }

    /// An error. The same error again (an action retried each frame while the database
    /// is away) keeps its one line, shown from now on, rather than filling the screen.
    pub fn error(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.items.retain(|n| !(n.error && n.text == text));
        self.items.push(Notice {
            text,
            error: true,
            shown_at_ms: self.now_ms,
            file: None,
        });
    }

    /// News that came with a backup (see [`crate::desk::backup_news`]): an error when the
    /// backup failed, so it neither looks like good news nor clears the errors shown.
    pub fn with_backup(&mut self, news: &str, backup: &crate::store::BackupNote) {
        let (text, failed) = crate::desk::backup_news(news, backup);
        self.say(text, failed);
    }

    /// A round become complete, with how its backup went: the one notice of every path a
    /// round completes by (see [`crate::desk::round_complete_news`]).
    pub fn round_complete(
        &mut self,
        round: ggdesk_core::tournament::RoundNo,
        backup: &crate::store::BackupNote,
    ) {
        let (text, failed) = crate::desk::round_complete_news(round, backup);
        self.say(text, failed);
    }

    /// What a restore of games in progress could not do, and the rounds it completed.
    pub fn restored(&mut self, report: &crate::store::Restored) {
        for (id, e) in &report.failed {
            self.error(format!("restoring game {id}: {e}"));
        }
        for c in &report.completed {
            self.round_complete(c.round, &c.backup);
        }
    }

    /// An error if `failed`, else a confirmation.
    pub fn say(&mut self, text: impl Into<String>, failed: bool) {
        if failed {
            self.error(text);
        } else {
            self.info(text);
        }
    }

    /// Drops the errors of earlier actions (a later action went well).
    pub fn clear_errors(&mut self) {
        self.items.retain(|n| !n.error);
    }

    /// The connection is back: the errors that said it was lost are over.
    pub fn clear_disconnected(&mut self) {
        let lost = crate::store::StoreError::Disconnected(String::new()).to_string();
        let prefix = lost.split(" (").next().unwrap_or(&lost).to_string();
        self.items
            .retain(|n| !(n.error && n.text.contains(&prefix)));
    }

    /// How long until the next notice expires (the desk repaints then to remove it).
    pub fn next_expiry_ms(&self) -> Option<i64> {
        self.items
            .iter()
            .map(|n| n.shown_at_ms + n.lasts_ms() - self.now_ms)
            .min()
            .map(|ms| ms.max(1))
    }

    /// The result of an action: an error becomes an error notice, success the given text.
    pub fn report<T, E: std::fmt::Display>(
        &mut self,
        result: Result<T, E>,
        done: &str,
    ) -> Option<T> {
        match result {
            Ok(v) => {
                if done.is_empty() {
                    self.items.retain(|n| !n.error);
                } else {
                    self.info(done);
                }
                Some(v)
            }
            Err(e) => {
                self.error(e.to_string());
                None
            }
        }
    }
}

/// A destructive or unusual action waiting for the user's confirmation, optionally with a
/// reason that goes into the audit log.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirm<A> {
    pub title: String,
    pub message: String,
    /// The label of the confirming button ("Withdraw", "Discard round").
    pub action_label: String,
    pub needs_reason: bool,
    pub reason: String,
    pub action: A,
}

/// What happened to a confirmation dialog this frame.
pub enum ConfirmOutcome<A> {
    Open,
    Cancelled,
    Confirmed { action: A, reason: String },
}

impl<A: Clone> Confirm<A> {
    pub fn new(
        title: impl Into<String>,
        message: impl Into<String>,
        action_label: impl Into<String>,
        action: A,
    ) -> Self {
        Confirm {
            title: title.into(),
            message: message.into(),
            action_label: action_label.into(),
            needs_reason: false,
            reason: String::new(),
            action,
        }
    }

    pub fn with_reason(mut self) -> Self {
        self.needs_reason = true;
        self
    }

    /// Shows the dialog as a modal; Escape cancels, Enter confirms when allowed (and is
    /// consumed, so the page under the dialog never also acts on it).
    pub fn show(&mut self, ctx: &egui::Context) -> ConfirmOutcome<A> {
        let mut outcome = ConfirmOutcome::Open;
        let modal = egui::Modal::new(egui::Id::unique("ggdesk-confirm")).show(ctx, |ui| {
            ui.set_max_width(460.0);
            ui.heading(&self.title);
            ui.add_space(4.0);
            ui.label(&self.message);
            if self.needs_reason {
                ui.add_space(6.0);
                let label = ui.label("Reason (kept in the audit log):");
                let edit = ui
                    .add(
                        egui::TextEdit::singleline(&mut self.reason)
                            .desired_width(f32::INFINITY)
                            .hint_text("why"),
                    )
                    .labelled_by(label.id);
                if ui.memory(|m| m.focused().is_none()) {
                    edit.request_focus();
                }
            }
            ui.add_space(8.0);
            let allowed = !self.needs_reason || !self.reason.trim().is_empty();
            ui.horizontal(|ui| {
                let confirm = ui.add_enabled(
                    allowed,
                    egui::Button::new(RichText::new(&self.action_label).strong()),
                );
                // The Enter that confirms is the dialog's alone: consumed, no page drawn
                // after it this frame sees it (the physical board's "Move made (Enter)").
                let enter = allowed
                    && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
                if confirm.clicked() || enter {
                    outcome = ConfirmOutcome::Confirmed {
                        action: self.action.clone(),
                        reason: self.reason.trim().to_string(),
                    };
                }
                if ui.button("Cancel").clicked() {
                    outcome = ConfirmOutcome::Cancelled;
                }
            });
        });
        if modal.should_close() && matches!(outcome, ConfirmOutcome::Open) {
            outcome = ConfirmOutcome::Cancelled;
        }
        outcome
    }
}

/// A page's command that may carry the reason given in a confirmation dialog.
pub trait Reasoned {
    /// The command with the reason given (commands without a reason ignore it).
    fn with_reason(self, reason: String) -> Self;
}

/// Shows the confirmation dialog in `slot`, if any, and returns its command, with the
/// reason given, once confirmed; a cancelled dialog is dropped.
pub fn poll_confirm<A: Clone + Reasoned>(
    slot: &mut Option<Confirm<A>>,
    ctx: &egui::Context,
) -> Option<A> {
    let confirm = slot.as_mut()?;
    match confirm.show(ctx) {
        ConfirmOutcome::Open => None,
        ConfirmOutcome::Cancelled => {
            *slot = None;
            None
        }
        ConfirmOutcome::Confirmed { action, reason } => {
            *slot = None;
            Some(action.with_reason(reason))
        }
    }
}

/// Whether a text field has the keyboard. Shortcuts other than the function keys wait
/// while one has: a key typed into a field is the field's, never also a command.
pub fn typing(ctx: &egui::Context) -> bool {
    ctx.text_edit_focused()
}

/// What a page could not read from the database this time: shown as a banner naming what
/// failed, instead of the page, so a damaged database never looks like an empty one.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LoadErrors {
    /// What could not be read, and why.
    pub failures: Vec<String>,
    /// Every failure was the server out of reach (not a damaged database).
    disconnected: bool,
}

impl LoadErrors {
    pub fn clear(&mut self) {
        self.failures.clear();
        self.disconnected = false;
    }

    /// The value read, or `None` with the failure noted under `what`.
    pub fn check<T>(
        &mut self,
        what: &str,
        result: Result<T, crate::store::StoreError>,
    ) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                let lost = e.is_disconnected();
                self.disconnected = lost && (self.failures.is_empty() || self.disconnected);
                self.failures.push(format!("{what}: {e}"));
                None
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.failures.is_empty()
    }

    /// The failures in one line.
    pub fn joined(&self) -> String {
        self.failures.join("; ")
    }

    /// Draws the banner when something failed; true if it did (the page then shows nothing
    /// else that could be mistaken for the database's content). When the server is out of
    /// reach, the banner says only that: the red line above every page says the rest, and
    /// the database is not damaged.
    pub fn banner(&self, ui: &mut Ui) -> bool {
        if self.failures.is_empty() {
            return false;
        }
        if self.disconnected {
            ui.label(
                RichText::new(
                    "Not shown while the desk is not connected: it reads the server again as \
                     soon as the connection is back.",
                )
                .color(AMBER)
                .strong(),
            );
            return true;
        }
        egui::Frame::new()
            .fill(RED.gamma_multiply(0.15))
            .stroke(egui::Stroke::new(1.5, RED))
            .corner_radius(4.0)
            .inner_margin(10.0)
            .show(ui, |ui| {
                ui.label(
                    RichText::new("The database could not be read")
                        .color(RED)
                        .strong()
                        .size(18.0),
                );
                for e in &self.failures {
                    ui.label(RichText::new(format!("Could not read {e}")).color(RED));
                }
                ui.label(
                    "Nothing is shown in its place. Check the file (Settings, F7, has the \
                     backups), or restart ggdesk on a backup with --db PATH.",
                );
            });
        true
    }
}

/// A text field with a visible label that is also its accessible name.
pub fn labelled_text(ui: &mut Ui, label: &str, value: &mut String, width: f32) -> egui::Response {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::TextEdit::singleline(value).desired_width(width))
            .labelled_by(l.id)
    })
    .inner
}

/// A striped table of these columns whose rows a click selects: a click on a name selects
/// its row rather than starting a text selection.
pub fn clickable_rows<'a>(
    ui: &'a mut Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    columns: &[egui_extras::Column],
) -> egui_extras::TableBuilder<'a> {
    ui.style_mut().interaction.selectable_labels = false;
    let table = egui_extras::TableBuilder::new(ui)
        .id_salt(id)
        .striped(true)
        .sense(egui::Sense::click());
    columns.iter().fold(table, |t, c| t.column(*c))
}

/// A table's header: one strong title per column, in order.
pub fn header_cells(h: &mut egui_extras::TableRow<'_, '_>, titles: &[&str]) {
    for t in titles {
        h.col(|ui| {
            ui.label(RichText::new(*t).strong());
        });
    }
}

/// Plain text cells, one per column, in order. A text too long for its column (a long
/// name, a club) ends with an ellipsis and shows in full on hover.
pub fn text_cells(row: &mut egui_extras::TableRow<'_, '_>, texts: &[&str]) {
    for t in texts {
        row.col(|ui| {
            cut_label(ui, *t);
        });
    }
}

/// A label that ends with an ellipsis where its space ends, the whole text on hover.
pub fn cut_label(ui: &mut Ui, text: impl Into<egui::WidgetText>) -> egui::Response {
    ui.add(egui::Label::new(text).truncate())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_count_down_to_the_limit_and_show_time_beyond_it() {
        assert_eq!(fmt_clock(120_000_000_000), "2:00");
        assert_eq!(fmt_clock(119_000_000_001), "2:00");
        assert_eq!(fmt_clock(59_000_000_000), "0:59");
        assert_eq!(fmt_clock(0), "0:00");
        assert_eq!(fmt_clock(-5_500_000_000), "-0:05");
        assert_eq!(fmt_hms(7_200_000_000_000), "2:00:00");
        assert_eq!(fmt_hms(61_000_000_000), "0:01:01");
    }
}
