//! Players (F1): the registry shared by every tournament, as a sortable, searchable table;
//! add, edit, ban (collusion) and lift a ban; a players CSV previewed row by row before
//! anything is saved; and registration into the chosen tournament.

use super::csv_preview::player_words;
use super::{Watch, hint};
use crate::store::{PlayerInput, RegistryId, RegistryPlayer};
use crate::ui::PageCtx;
use crate::ui::common::{self, Confirm, LoadErrors, Reasoned, labelled_text, poll_confirm};
use crate::ui::files::{FilePicker, poll_picker};
use egui::{Key, Modifiers, RichText, Ui};
use egui_extras::Column;
use ggdesk_core::export::print::sort_key;
use ggdesk_core::export::{ImportedPlayer, import_players_csv};
use std::path::PathBuf;

/// The column the table is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortKey {
    #[default]
    Name,
    Id,
    FederationId,
    Club,
    Rating,
    Status,
}

/// The form on the right: a new player or the one being edited.
#[derive(Debug, Clone, Default)]
pub struct PlayerForm {
    pub editing: Option<RegistryId>,
    pub name: String,
    pub federation_id: String,
    pub club: String,
    pub rating: String,
}

impl PlayerForm {
    fn of(p: &RegistryPlayer) -> PlayerForm {
        PlayerForm {
            editing: Some(p.id),
            name: p.name.clone(),
            federation_id: p.federation_id.clone(),
            club: p.club.clone(),
            rating: p.rating.to_string(),
        }
    }

    fn input(&self) -> Result<PlayerInput, String> {
        let rating = match self.rating.trim() {
            "" => 0,
            r => r
                .parse::<i64>()
                .map_err(|_| format!("rating {r:?} is not a whole number"))?,
        };
        Ok(PlayerInput {
            name: self.name.clone(),
            federation_id: self.federation_id.clone(),
            club: self.club.clone(),
            rating,
        })
    }
}

/// A players CSV read and checked, waiting for the director's go.
pub type CsvPreview = super::csv_preview::CsvPreview<ImportedPlayer>;

#[derive(Debug, Clone)]
enum Cmd {
    Save(PlayerForm),
    Ban(RegistryId, String),
    Lift(RegistryId, String),
    Preview(PathBuf),
    Import,
    Register(RegistryId),
}

impl Reasoned for Cmd {
    fn with_reason(self, reason: String) -> Self {
        match self {
            Cmd::Ban(id, _) => Cmd::Ban(id, reason),
            Cmd::Lift(id, _) => Cmd::Lift(id, reason),
            other => other,
        }
    }
}

/// The Players page's own state.
#[derive(Default)]
pub struct PlayersPage {
    pub players: Vec<RegistryPlayer>,
    registered: Vec<RegistryId>,
    /// The chosen tournament is a team event (its players join through its teams).
    team_event: bool,
    watch: Watch,
    pub search: String,
    pub sort: SortKey,
    pub descending: bool,
    pub selected: Option<RegistryId>,
    pub form: PlayerForm,
    pub preview: Option<CsvPreview>,
    picker: Option<FilePicker>,
    confirm: Option<Confirm<Cmd>>,
    queued: Vec<Cmd>,
    focus_search: bool,
    focus_name: bool,
    load: LoadErrors,
}

impl PlayersPage {
    fn reload(&mut self, cx: &mut PageCtx<'_>) {
        if !self.watch.stale(cx, *cx.tournament) {
            return;
        }
        let mut load = LoadErrors::default();
        self.players = load
            .check("the players registry", cx.store.players())
            .unwrap_or_default();
        self.registered = match *cx.tournament {
            Some(t) => load
                .check("the tournament's players", cx.store.tournament_players(t))
                .unwrap_or_default(),
            None => Vec::new(),
        };
        self.team_event = match *cx.tournament {
            Some(t) => load
                .check("the tournament", cx.store.team_event(t))
                .is_some_and(|e| e.is_some()),
            None => false,
        };
        self.load = load;
    }

    /// The players matching the search, in the table's order (names as people sort them:
    /// "Ñora" before "Villanueva").
    pub fn shown(&self) -> Vec<&RegistryPlayer> {
        let needle = self.search.trim().to_lowercase();
        let mut rows: Vec<&RegistryPlayer> = self
            .players
            .iter()
            .filter(|p| {
                needle.is_empty()
                    || p.name.to_lowercase().contains(&needle)
                    || p.federation_id.to_lowercase().contains(&needle)
                    || p.club.to_lowercase().contains(&needle)
            })
            .collect();
        rows.sort_by(|a, b| {
            let o = match self.sort {
                SortKey::Name => sort_key(&a.name).cmp(&sort_key(&b.name)),
                SortKey::Id => a.id.cmp(&b.id),
                SortKey::FederationId => a.federation_id.cmp(&b.federation_id),
                SortKey::Club => sort_key(&a.club).cmp(&sort_key(&b.club)),
                SortKey::Rating => a.rating.cmp(&b.rating),
                SortKey::Status => a.is_banned().cmp(&b.is_banned()),
            };
            let o = o.then(a.id.cmp(&b.id));
            if self.descending { o.reverse() } else { o }
        });
        rows
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        self.reload(cx);
        if !cx.typing {
            self.keyboard(ui);
        }
        if let Some(cmd) = poll_confirm(&mut self.confirm, ui.ctx()) {
            self.queued.push(cmd);
        }
        if let Some(path) = poll_picker(&mut self.picker, ui.ctx(), cx.last_folder) {
            self.queued.push(Cmd::Preview(path));
        }
        if self.load.banner(ui) {
            return;
        }
        egui::Panel::right("players-side")
            .resizable(false)
            .exact_size(400.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.side(ui, cx));
            });
        egui::CentralPanel::default().show(ui, |ui| self.table(ui));
        for cmd in std::mem::take(&mut self.queued) {
            self.apply(cmd, cx);
        }
    }

    /// Ctrl+F searches, Ctrl+N starts a new player (while no text field has the keyboard).
    fn keyboard(&mut self, ui: &mut Ui) {
        if self.confirm.is_some() || self.picker.is_some() {
            return;
        }
        if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::F)) {
            self.focus_search = true;
        }
        if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::N)) {
            self.form = PlayerForm::default();
            self.selected = None;
            self.focus_name = true;
        }
    }

    fn table(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.heading("Players");
            ui.label(format!("{} in the registry", self.players.len()));
        });
        hint(
            ui,
            "Everyone who has ever played: register them into a tournament from here or from Registration (F3). \
             Ctrl+F searches, Ctrl+N adds a player. Click a column title to sort.",
        );
        let search = labelled_text(ui, "Search players:", &mut self.search, 260.0);
        if self.focus_search {
            search.request_focus();
            self.focus_search = false;
        }
        ui.add_space(4.0);
        let rows = self.shown();
        let mut clicked: Option<RegistryId> = None;
        let mut sort_to: Option<SortKey> = None;
        let arrow = |k: SortKey, sort: SortKey, asc: bool| {
            if k == sort {
                if asc { " ^" } else { " v" }
            } else {
                ""
            }
        };
        let (sort, asc) = (self.sort, !self.descending);
        let selected = self.selected;
        let columns = [
            Column::exact(50.0),
            Column::remainder().at_least(180.0).clip(true),
            Column::exact(110.0).clip(true),
            Column::exact(120.0).clip(true),
            Column::exact(70.0),
            Column::exact(150.0),
        ];
        common::clickable_rows(ui, "players-table", &columns)
            .header(22.0, |mut header| {
                for (k, title) in [
                    (SortKey::Id, "Id"),
                    (SortKey::Name, "Name"),
                    (SortKey::FederationId, "Federation id"),
                    (SortKey::Club, "Club"),
                    (SortKey::Rating, "Rating"),
                    (SortKey::Status, "Status"),
                ] {
                    header.col(|ui| {
                        let text = format!("{title}{}", arrow(k, sort, asc));
                        if ui
                            .add(egui::Button::new(RichText::new(text).strong()).frame(false))
                            .on_hover_text(format!("Sort by {}", title.to_lowercase()))
                            .clicked()
                        {
                            sort_to = Some(k);
                        }
                    });
                }
            })
            .body(|body| {
                body.rows(22.0, rows.len(), |mut row| {
                    let p = rows[row.index()];
                    row.set_selected(selected == Some(p.id));
                    common::text_cells(
                        &mut row,
                        &[
                            &p.id.to_string(),
                            &p.name,
                            &p.federation_id,
                            &p.club,
                            &p.rating.to_string(),
                        ],
                    );
                    row.col(|ui| match &p.ban {
                        Some(reason) => {
                            ui.label(RichText::new("BANNED").color(common::RED).strong())
                                .on_hover_text(reason);
                        }
                        None => {
                            ui.label("active");
                        }
                    });
                    if row.response().clicked() {
                        clicked = Some(p.id);
                    }
                });
            });
        if rows.is_empty() {
            ui.add_space(8.0);
            if self.players.is_empty() {
                ui.label("The registry is empty: add players on the right, or import a CSV file.");
            } else {
                ui.label("No player matches the search.");
            }
        }
        if let Some(k) = sort_to {
            if self.sort == k {
                self.descending = !self.descending;
            } else {
                self.sort = k;
                self.descending = false;
            }
        }
        if let Some(id) = clicked {
            self.select(id);
        }
    }

    /// Selects a player and loads the edit form.
    pub fn select(&mut self, id: RegistryId) {
        self.selected = Some(id);
        if let Some(p) = self.players.iter().find(|p| p.id == id) {
            self.form = PlayerForm::of(p);
        }
    }

    fn side(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let editing = self.form.editing;
        ui.heading(if editing.is_some() {
            "Edit player"
        } else {
            "New player"
        });
        let name = labelled_text(ui, "Name:", &mut self.form.name, 260.0);
        if self.focus_name {
            name.request_focus();
            self.focus_name = false;
        }
        let fields = [
            name,
            labelled_text(ui, "Federation id:", &mut self.form.federation_id, 200.0),
            labelled_text(ui, "Club:", &mut self.form.club, 240.0),
            labelled_text(ui, "Rating:", &mut self.form.rating, 80.0),
        ];
        // Enter in any field of the form saves it.
        let entered = ui.input(|i| i.key_pressed(Key::Enter))
            && fields.iter().any(egui::Response::lost_focus);
        ui.horizontal(|ui| {
            let label = if editing.is_some() {
                "Save player"
            } else {
                "Add player"
            };
            if ui
                .button(RichText::new(label).strong())
                .on_hover_text("Enter in any field does the same")
                .clicked()
                || entered
            {
                self.queued.push(Cmd::Save(self.form.clone()));
            }
            if editing.is_some() && ui.button("New player instead").clicked() {
                self.form = PlayerForm::default();
                self.selected = None;
            }
        });
        if let Some(id) = editing
            && let Some(p) = self.players.iter().find(|p| p.id == id).cloned()
        {
            self.player_actions(ui, cx, &p);
        }
        ui.add_space(10.0);
        ui.separator();
        self.import_ui(ui, cx);
    }

    /// Ban (or lift a ban on) the player edited, or register them in the chosen tournament.
    fn player_actions(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, p: &RegistryPlayer) {
        let id = p.id;
        ui.add_space(6.0);
        match &p.ban {
            Some(reason) => {
                ui.label(
                    RichText::new(format!("Banned: {reason}"))
                        .color(common::RED)
                        .strong(),
                );
                if ui.button("Lift the ban").clicked() {
                    self.confirm = Some(
                        Confirm::new(
                            "Lift the ban",
                            format!("{} may be registered and paired again.", p.name),
                            "Lift the ban",
                            Cmd::Lift(id, String::new()),
                        )
                        .with_reason(),
                    );
                }
            }
            None => {
                if ui
                    .button("Ban for collusion")
                    .on_hover_text("A banned player cannot be registered or paired again")
                    .clicked()
                {
                    self.confirm = Some(
                            Confirm::new(
                                "Ban a player",
                                format!(
                                    "{} will be withdrawn from every tournament and cannot be registered or paired again.",
                                    p.name
                                ),
                                "Ban",
                                Cmd::Ban(id, String::new()),
                            )
                            .with_reason(),
                        );
                }
                if cx.tournament.is_some() {
                    if self.team_event {
                        // A team event's players join it through its teams.
                        let words = if self.registered.contains(&id) {
                            "In a team of the chosen tournament"
                        } else {
                            "The chosen tournament is a team event: players join it in a team \
                             (Teams, F12)"
                        };
                        ui.label(RichText::new(words).weak());
                    } else if self.registered.contains(&id) {
                        ui.label(RichText::new("Registered in the chosen tournament").weak());
                    } else if ui.button("Register in the chosen tournament").clicked() {
                        self.queued.push(Cmd::Register(id));
                    }
                }
            }
        }
    }

    /// A players CSV chosen in the file picker, previewed row by row before anything is saved.
    fn import_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        ui.heading("Import players from CSV");
        hint(
            ui,
            "Columns name, federation_id, club, rating (a header line first). Nothing is saved \
             until every row is right.",
        );
        if ui
            .button("Choose a CSV file…")
            .on_hover_text("Every row is checked and shown before anything is saved")
            .clicked()
        {
            self.picker = Some(FilePicker::new(
                "Import players from a CSV file",
                cx.last_folder.as_deref(),
                &["csv"],
            ));
        }
        if let Some(preview) = &self.preview
            && super::csv_preview::preview_ui(
                ui,
                preview,
                |r| (r.line, player_words(r)),
                ("player", "players"),
            )
        {
            self.queued.push(Cmd::Import);
        }
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>) {
        let actor = cx.actor();
        match cmd {
            Cmd::Save(form) => {
                let input = match form.input() {
                    Ok(i) => i,
                    Err(e) => {
                        cx.notices.error(e);
                        return;
                    }
                };
                match form.editing {
                    Some(id) => {
                        let r = cx.store.update_player(id, &input, &actor);
                        cx.notices
                            .report(r, &format!("{} saved", input.name.trim()));
                    }
                    None => {
                        let r = cx.store.add_player(&input, &actor);
                        if cx
                            .notices
                            .report(r, &format!("{} added to the registry", input.name.trim()))
                            .is_some()
                        {
                            self.form = PlayerForm::default();
                            self.selected = None;
                            self.focus_name = true;
                        }
                    }
                }
            }
            Cmd::Ban(id, reason) => {
                let r = cx.store.ban_player(id, &reason, *cx.tournament, &actor);
                cx.notices
                    .report(r, "Player banned and withdrawn from every tournament");
            }
            Cmd::Lift(id, reason) => {
                let r = cx.store.lift_ban(id, &reason, &actor);
                cx.notices.report(r, "Ban lifted");
            }
            Cmd::Preview(path) => {
                let store = &*cx.store;
                if let Some(p) = CsvPreview::read(path, cx.notices, import_players_csv, |rows| {
                    store.check_players_import(rows)
                }) {
                    self.preview = Some(p);
                }
            }
            Cmd::Import => {
                let Some(preview) = self.preview.take() else {
                    return;
                };
                let r = cx.store.import_players(&preview.rows, &actor);
                if cx
                    .notices
                    .report(
                        r,
                        &format!(
                            "{} players imported from {}",
                            preview.rows.len(),
                            preview.path.display()
                        ),
                    )
                    .is_none()
                {
                    self.preview = Some(preview);
                }
            }
            Cmd::Register(id) => {
                let Some(t) = *cx.tournament else { return };
                let r = cx.store.register(t, id, &actor);
                if let Some(no) = cx.notices.report(r, "") {
                    cx.notices.info(format!("Registered as player {no}"));
                }
            }
        }
        self.watch.force();
    }
}
