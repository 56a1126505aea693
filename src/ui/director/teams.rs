//! Teams (F12): a team event's teams, each roster in board order (the first B play, the
//! others are reserves) with its captain. Before the first round: add, rename and remove a
//! team; put registry players into a team, move them up or down a board, name the captain,
//! take a player out; and a team players CSV (`team,name,federation_id,club,rating`)
//! previewed before anything is saved: every row in full, a column for each field, above
//! the teams (its bad rows reported on the right, as the Players page reports them). Before
//! and after the start: a player withdrawn from the event (a reason once it has started;
//! the next rounds' default line-ups skip them) or back in it. Every
//! change is one store method (one audited transaction); the core's refusals are shown in
//! its words.

use super::csv_preview::{CsvPreview, preview_ui, rows_table};
use super::{Watch, hint, need_tournament, next_step};
use crate::store::{RegistryId, RegistryPlayer, TournamentId};
use crate::ui::PageCtx;
use crate::ui::common::{self, Confirm, LoadErrors, Reasoned, labelled_text, poll_confirm};
use crate::ui::files::{FilePicker, poll_picker};
use egui::{RichText, Ui};
use ggdesk_core::export::print::sort_key;
use ggdesk_core::export::{ImportedTeamPlayer, import_team_players_csv};
use ggdesk_core::teams::{Team, TeamEvent, TeamId};
use ggdesk_core::tournament::PlayerId;
use std::path::PathBuf;

#[derive(Debug, Clone)]
enum Cmd {
    AddTeam(String),
    Rename(TeamId, String),
    RemoveTeam(TeamId),
    AddPlayer(TeamId, RegistryId),
    RemovePlayer(PlayerId),
    Move(PlayerId, usize),
    Captain(TeamId, Option<PlayerId>),
    /// The player, withdrawn (`true`) or back, with the reason.
    Withdraw(PlayerId, bool, String),
    Preview(PathBuf),
    Import,
}

impl Reasoned for Cmd {
    fn with_reason(self, _reason: String) -> Self {
        self
    }
}

/// The Teams page's own state.
#[derive(Default)]
pub struct TeamsPage {
    /// The chosen tournament's team event (`None`: not read, or not a team event).
    pub event: Option<TeamEvent>,
    /// The chosen tournament is an event of players.
    not_teams: bool,
    registry: Vec<RegistryPlayer>,
    /// The registry players in the event's teams.
    members: Vec<RegistryId>,
    watch: Watch,
    pub team: Option<TeamId>,
    pub player: Option<PlayerId>,
    pub new_name: String,
    pub rename: String,
    pub search: String,
    /// Why the chosen player is withdrawn or back (needed once the event has started).
    pub withdraw_reason: String,
    pub preview: Option<CsvPreview<ImportedTeamPlayer>>,
    picker: Option<FilePicker>,
    confirm: Option<Confirm<Cmd>>,
    queued: Vec<Cmd>,
    load: LoadErrors,
    tid: Option<TournamentId>,
}

/// `1 player`, `13 players`.
fn players(n: usize) -> String {
    format!("{n} player{}", if n == 1 { "" } else { "s" })
}

/// A roster place in words: `Board 2`, or `Reserve 1` after the first B.
pub fn place_words(boards: usize, index: usize) -> String {
    if index < boards {
        format!("Board {}", index + 1)
    } else {
        format!("Reserve {}", index + 1 - boards)
    }
}

impl TeamsPage {
    fn reload(&mut self, cx: &mut PageCtx<'_>, tid: TournamentId) {
        if self.tid != Some(tid) {
            // Team and player numbers start at 1 in every event.
            self.tid = Some(tid);
            self.team = None;
            self.player = None;
            self.withdraw_reason.clear();
            self.preview = None;
            self.confirm = None;
            self.watch.force();
        }
        if !self.watch.stale(cx, Some(tid)) {
            return;
        }
        let mut load = LoadErrors::default();
        let event = load.check("the teams", cx.store.team_event(tid));
        self.not_teams = matches!(event, Some(None));
        self.event = event.flatten();
        self.registry = load
            .check("the players registry", cx.store.players())
            .unwrap_or_default();
        self.registry.sort_by(|a, b| {
            sort_key(&a.name)
                .cmp(&sort_key(&b.name))
                .then(a.id.cmp(&b.id))
        });
        self.members = load
            .check("the teams' players", cx.store.team_members(tid))
            .unwrap_or_default();
        self.load = load;
        let event = self.event.as_ref();
        // What was chosen and is gone (removed here or at another desk) is no longer chosen.
        if self
            .team
            .is_some_and(|t| event.and_then(|e| e.team(t)).is_none())
        {
            self.team = None;
        }
        if self
            .player
            .is_some_and(|p| event.and_then(|e| e.team_of(p)).is_none())
        {
            self.player = None;
        }
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(tid) = need_tournament(ui, cx, "Teams") else {
            return;
        };
        self.reload(cx, tid);
        if let Some(cmd) = poll_confirm(&mut self.confirm, ui.ctx()) {
            self.queued.push(cmd);
        }
        if let Some(path) = poll_picker(&mut self.picker, ui.ctx(), cx.last_folder) {
            self.queued.push(Cmd::Preview(path));
        }
        if self.load.banner(ui) {
            return;
        }
        if self.not_teams {
            ui.heading("Teams");
            ui.add_space(8.0);
            ui.label(
                "The chosen tournament is not a team event: its players are registered one \
                 by one on the Registration page (F3). A team event is created on the \
                 Tournaments page (F2).",
            );
            return;
        }
        let Some(event) = self.event.clone() else {
            return;
        };
        egui::Panel::right("teams-side")
            .resizable(false)
            .exact_size(420.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.side(ui, cx, &event));
            });
        egui::CentralPanel::default().show(ui, |ui| {
            // A file's rows ready to import are shown here, where a row fits in full; a
            // file with bad rows is reported on the right.
            if self.preview.as_ref().is_some_and(|p| p.bad.is_empty()) {
                self.preview_ui(ui);
                ui.separator();
            }
            self.teams_ui(ui, &event)
        });
        for cmd in std::mem::take(&mut self.queued) {
            self.apply(cmd, cx, tid);
        }
    }

    /// Every team with its roster in board order; a click chooses a team or a player.
    fn teams_ui(&mut self, ui: &mut Ui, e: &TeamEvent) {
        let boards = e.settings.boards;
        ui.horizontal(|ui| {
            ui.heading("Teams");
            ui.label(format!(
                "{} teams, {} players · {boards} boards: each team fields its first {boards}, \
                 the others are reserves",
                e.teams.len(),
                e.players.len()
            ));
        });
        if e.has_started() {
            // Board groups and the final have no line-ups: the first B of a roster play.
            let lineups = (1..=e.stages.len()).any(|k| e.stage_plays_matches(k));
            hint(
                ui,
                &if lineups {
                    "The event has started: teams and rosters are fixed (a reserve plays through \
                     a round's line-up). A player can still be withdrawn from the event (click \
                     them): the next rounds' default line-ups skip them."
                        .to_string()
                } else {
                    format!(
                        "The event has started: teams and rosters are fixed. The board groups and \
                         the final have no line-ups: each team's first {boards} play every round, \
                         and a reserve cannot come in at the desk. A player can still be \
                         withdrawn from the event (click them)."
                    )
                },
            );
        } else {
            hint(
                ui,
                "Click a team to add players to it, a player to move them or name the captain. \
                 The roster's order is the board order.",
            );
        }
        if e.teams.is_empty() {
            ui.add_space(8.0);
            next_step(
                ui,
                "add the teams on the right, or import a CSV file of the teams' players",
            );
            return;
        }
        let short: Vec<&Team> = e.teams.iter().filter(|t| t.roster.len() < boards).collect();
        if let Some(t) = short.first()
            && !e.has_started()
        {
            next_step(
                ui,
                &format!(
                    "{} has {} of the {boards} players a team fields{}",
                    t.name,
                    t.roster.len(),
                    if short.len() > 1 {
                        format!(" ({} teams are short)", short.len())
                    } else {
                        String::new()
                    }
                ),
            );
        }
        ui.add_space(4.0);
        egui::ScrollArea::vertical()
            .id_salt("teams-list")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for t in &e.teams {
                    self.team_card(ui, e, t);
                    ui.add_space(6.0);
                }
            });
    }

    fn team_card(&mut self, ui: &mut Ui, e: &TeamEvent, t: &Team) {
        let boards = e.settings.boards;
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                let chosen = self.team == Some(t.id);
                if ui
                    .selectable_label(chosen, RichText::new(&t.name).strong().size(16.0))
                    .on_hover_text("Choose the team")
                    .clicked()
                {
                    self.team = Some(t.id);
                    self.rename = t.name.clone();
                    self.player = None;
                }
                // The team's rating (the exact mean of its first B) to the nearest point.
                let r = e.team_rating(t.id);
                let rating = (2 * r.numerator() + r.denominator()) / (2 * r.denominator());
                ui.label(
                    RichText::new(format!(
                        "team {} · {} player{} · rating {}",
                        t.id,
                        t.roster.len(),
                        if t.roster.len() == 1 { "" } else { "s" },
                        rating
                    ))
                    .weak(),
                );
                if t.roster.len() < boards {
                    common::badge(
                        ui,
                        &format!("{} short", boards - t.roster.len()),
                        common::AMBER,
                    );
                }
            });
            if t.roster.is_empty() {
                ui.label(RichText::new("No players yet").weak());
            }
            for (i, p) in t.roster.iter().enumerate() {
                let Some(player) = e.player(*p) else { continue };
                let captain = if t.captain == Some(*p) {
                    " · captain"
                } else {
                    ""
                };
                let club = player
                    .club
                    .as_deref()
                    .filter(|c| !c.trim().is_empty())
                    .map_or_else(String::new, |c| format!(" · {c}"));
                let withdrawn = if player.withdrawn { " (withdrawn)" } else { "" };
                let text = format!(
                    "{}: {} · {}{club}{captain}{withdrawn}",
                    place_words(boards, i),
                    player.name,
                    player.rating,
                );
                let mut text = RichText::new(text);
                if i >= boards || player.withdrawn {
                    text = text.weak();
                }
                if ui.selectable_label(self.player == Some(*p), text).clicked() {
                    if self.player != Some(*p) {
                        self.withdraw_reason.clear();
                    }
                    self.player = Some(*p);
                    self.team = Some(t.id);
                    self.rename = t.name.clone();
                }
            }
        });
    }

    fn side(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, e: &TeamEvent) {
        if e.has_started() {
            ui.heading("Teams are fixed");
            ui.label(
                "The event has started: teams and rosters change before its first round only.",
            );
            ui.label(
                "A player can still be withdrawn from the event, or come back: click them in \
                 their team.",
            );
            if let Some(p) = self.player
                && e.team_of(p).is_some()
            {
                ui.add_space(8.0);
                ui.separator();
                let name = e.player(p).map(|x| x.name.clone()).unwrap_or_default();
                ui.heading(name);
                self.withdraw_ui(ui, e, p);
            }
            return;
        }
        ui.heading("New team");
        let name = labelled_text(ui, "Team name:", &mut self.new_name, 240.0);
        let entered = name.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button(RichText::new("Add team").strong()).clicked() || entered {
            self.queued.push(Cmd::AddTeam(self.new_name.clone()));
        }
        if let Some(t) = self.team.and_then(|t| e.team(t)).cloned() {
            ui.add_space(8.0);
            ui.separator();
            self.team_side(ui, &t);
        }
        if let Some(p) = self.player
            && let Some(t) = e.team_of(p).and_then(|t| e.team(t)).cloned()
        {
            ui.add_space(8.0);
            ui.separator();
            self.player_side(ui, e, &t, p);
        }
        ui.add_space(8.0);
        ui.separator();
        self.import_ui(ui, cx);
    }

    /// The chosen team: rename, remove, and registry players to put into it.
    fn team_side(&mut self, ui: &mut Ui, t: &Team) {
        ui.heading(format!("Team: {}", t.name));
        ui.horizontal(|ui| {
            let field = labelled_text(ui, "Name:", &mut self.rename, 200.0);
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Rename the team").clicked() || entered {
                self.queued.push(Cmd::Rename(t.id, self.rename.clone()));
            }
        });
        if ui.button("Remove the team").clicked() {
            self.confirm = Some(Confirm::new(
                "Remove a team",
                format!(
                    "{} and its {} player(s) leave the event (they stay in the players \
                     registry).",
                    t.name,
                    t.roster.len()
                ),
                "Remove",
                Cmd::RemoveTeam(t.id),
            ));
        }
        ui.add_space(6.0);
        ui.label(RichText::new(format!("Put a registry player into {}", t.name)).strong());
        labelled_text(ui, "Search the registry:", &mut self.search, 220.0);
        let needle = self.search.trim().to_lowercase();
        // Registry players in no team of this event, the search's first ten.
        let free: Vec<&RegistryPlayer> = self
            .registry
            .iter()
            .filter(|p| !p.is_banned() && !self.members.contains(&p.id))
            .filter(|p| {
                needle.is_empty()
                    || p.name.to_lowercase().contains(&needle)
                    || p.club.to_lowercase().contains(&needle)
                    || p.federation_id.to_lowercase().contains(&needle)
            })
            .collect();
        if free.is_empty() {
            ui.label(
                RichText::new("No registry player to put in: add players on the Players page (F1)")
                    .weak(),
            );
        }
        for p in free.iter().take(10) {
            ui.horizontal(|ui| {
                if ui.button(format!("Add {}", p.name)).clicked() {
                    self.queued.push(Cmd::AddPlayer(t.id, p.id));
                }
                ui.label(RichText::new(format!("{} · {}", p.rating, p.club)).weak());
            });
        }
        if free.len() > 10 {
            ui.label(
                RichText::new(format!("{} more: search to find them", free.len() - 10)).weak(),
            );
        }
    }

    /// The chosen player: their board, captaincy, or out of the team.
    fn player_side(&mut self, ui: &mut Ui, e: &TeamEvent, t: &Team, p: PlayerId) {
        let Some(at) = t.roster.iter().position(|x| *x == p) else {
            return;
        };
        let name = e.player(p).map(|x| x.name.clone()).unwrap_or_default();
        ui.heading(format!("{name} ({})", place_words(e.settings.boards, at)));
        ui.horizontal(|ui| {
            if ui
                .add_enabled(at > 0, egui::Button::new("Move up a board"))
                .clicked()
            {
                self.queued.push(Cmd::Move(p, at - 1));
            }
            if ui
                .add_enabled(
                    at + 1 < t.roster.len(),
                    egui::Button::new("Move down a board"),
                )
                .clicked()
            {
                self.queued.push(Cmd::Move(p, at + 1));
            }
        });
        ui.horizontal(|ui| {
            if t.captain == Some(p) {
                if ui.button("No captain").clicked() {
                    self.queued.push(Cmd::Captain(t.id, None));
                }
            } else if ui.button("Make captain").clicked() {
                self.queued.push(Cmd::Captain(t.id, Some(p)));
            }
            if ui.button("Take out of the team").clicked() {
                self.confirm = Some(Confirm::new(
                    "Take a player out",
                    format!(
                        "{name} leaves {} and the event (they stay in the players registry).",
                        t.name
                    ),
                    "Take out",
                    Cmd::RemovePlayer(p),
                ));
            }
        });
        self.withdraw_ui(ui, e, p);
    }

    /// The chosen player withdrawn from the event, or back in it; once the event has
    /// started, with the reason.
    fn withdraw_ui(&mut self, ui: &mut Ui, e: &TeamEvent, p: PlayerId) {
        let Some(player) = e.player(p) else {
            return;
        };
        let withdrawn = player.withdrawn;
        if withdrawn {
            ui.label(
                RichText::new(format!(
                    "{} is withdrawn: the next rounds' default line-ups skip them.",
                    player.name
                ))
                .weak(),
            );
        }
        let started = e.has_started();
        if started {
            labelled_text(ui, "Reason:", &mut self.withdraw_reason, 240.0);
        }
        let reason = self.withdraw_reason.trim().to_string();
        let ready = !started || !reason.is_empty();
        let label = if withdrawn {
            "Back in the event"
        } else {
            "Withdraw from the event"
        };
        let hover = if withdrawn {
            "The next rounds' default line-ups have them again"
        } else {
            "No round already paired changes; the next rounds' default line-ups skip them (a \
             reserve moves up)"
        };
        if ui
            .add_enabled(ready, egui::Button::new(label))
            .on_hover_text(hover)
            .on_disabled_hover_text("The event has started: give the reason first")
            .clicked()
        {
            self.queued.push(Cmd::Withdraw(p, !withdrawn, reason));
        }
    }

    /// A team players CSV chosen in the file picker, previewed before anything is saved.
    fn import_ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        ui.heading("Import teams from CSV");
        hint(
            ui,
            "Columns team, name, federation_id, club, rating (a header line first), one row \
             per player, each team's players in board order. Nothing is saved until every row \
             is right.",
        );
        if ui
            .button("Choose a CSV file…")
            .on_hover_text("Every row is checked and shown before anything is saved")
            .clicked()
        {
            self.picker = Some(FilePicker::new(
                "Import teams from a CSV file",
                cx.last_folder.as_deref(),
                &["csv"],
            ));
        }
        match &self.preview {
            // The bad rows, reported as the Players page reports them (it has no button).
            Some(preview) if !preview.bad.is_empty() => {
                preview_ui(ui, preview, |_| (0, String::new()), ("player", "players"));
            }
            Some(preview) => {
                ui.label(RichText::new(format!("File: {}", preview.path.display())).weak());
                ui.label(format!(
                    "Every row is right: the {} are shown on the left to check, with the \
                     button that imports them.",
                    players(preview.rows.len())
                ));
            }
            None => {}
        }
    }

    /// A file's rows ready to import, in full (team, name, federation id, club and
    /// rating, a column each), with the buttons to import them or close the preview.
    fn preview_ui(&mut self, ui: &mut Ui) {
        let Some(preview) = &self.preview else {
            return;
        };
        let n = preview.rows.len();
        ui.horizontal(|ui| {
            ui.heading("Import from CSV");
            ui.label(RichText::new(format!("File: {}", preview.path.display())).weak());
        });
        ui.label(
            RichText::new(format!("{} ready to import", players(n)))
                .color(common::GREEN)
                .strong(),
        );
        // What follows the table: its button row and the separator.
        let below = ui.spacing().interact_size.y + 3.0 * ui.spacing().item_spacing.y + 8.0;
        rows_table(
            ui,
            "teams-csv-rows",
            &preview.rows,
            &["Team", "Name", "Federation id", "Club", "Rating"],
            |r| {
                let p = &r.player;
                (
                    p.line,
                    vec![
                        r.team.clone(),
                        p.name.clone(),
                        p.federation_id.clone().unwrap_or_default(),
                        p.club.clone().unwrap_or_default(),
                        p.rating.to_string(),
                    ],
                )
            },
            below,
        );
        ui.horizontal(|ui| {
            if ui
                .button(RichText::new(format!("Import {}", players(n))).strong())
                .clicked()
            {
                self.queued.push(Cmd::Import);
            }
            if ui
                .button("Close the preview")
                .on_hover_text("Nothing is saved")
                .clicked()
            {
                self.preview = None;
            }
        });
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: TournamentId) {
        let actor = cx.actor();
        match cmd {
            Cmd::AddTeam(name) => {
                let r = cx.store.add_team(tid, &name, &actor);
                if let Some(id) = cx.notices.report(r, &format!("Team {} added", name.trim())) {
                    self.new_name.clear();
                    self.team = Some(id);
                    self.rename = name.trim().to_string();
                    self.player = None;
                }
            }
            Cmd::Rename(team, name) => {
                let r = cx.store.rename_team(tid, team, &name, &actor);
                cx.notices
                    .report(r, &format!("Team renamed {}", name.trim()));
            }
            Cmd::RemoveTeam(team) => {
                let r = cx.store.remove_team(tid, team, &actor);
                if cx.notices.report(r, "Team removed").is_some() {
                    self.team = None;
                    self.player = None;
                }
            }
            Cmd::AddPlayer(team, reg) => {
                let r = cx.store.add_team_player(tid, team, reg, &actor);
                if let Some(no) = cx.notices.report(r, "") {
                    cx.notices.info(format!("Put into the team as player {no}"));
                }
            }
            Cmd::RemovePlayer(p) => {
                let r = cx.store.remove_team_player(tid, p, &actor);
                if cx
                    .notices
                    .report(r, "Player taken out of the team")
                    .is_some()
                {
                    self.player = None;
                }
            }
            Cmd::Move(p, to) => {
                let r = cx.store.move_team_player(tid, p, to, &actor);
                cx.notices.report(r, "");
            }
            Cmd::Captain(team, captain) => {
                let r = cx.store.set_team_captain(tid, team, captain, &actor);
                cx.notices.report(
                    r,
                    if captain.is_some() {
                        "Captain named"
                    } else {
                        "The team has no captain now"
                    },
                );
            }
            Cmd::Withdraw(p, withdrawn, reason) => {
                let r = cx
                    .store
                    .set_team_player_withdrawn(tid, p, withdrawn, &reason, &actor);
                let done = if withdrawn {
                    "Player withdrawn from the event: the next rounds' default line-ups skip them"
                } else {
                    "Player back in the event"
                };
                if cx.notices.report(r, done).is_some() {
                    self.withdraw_reason.clear();
                }
            }
            Cmd::Preview(path) => {
                let store = &*cx.store;
                if let Some(p) =
                    CsvPreview::read(path, cx.notices, import_team_players_csv, |rows| {
                        store.check_teams_import(tid, rows)
                    })
                {
                    self.preview = Some(p);
                }
            }
            Cmd::Import => {
                let Some(preview) = self.preview.take() else {
                    return;
                };
                let r = cx.store.import_teams(tid, &preview.rows, &actor);
                if cx
                    .notices
                    .report(
                        r,
                        &format!(
                            "{} players put into teams from {}",
                            preview.rows.len(),
                            preview.path.display()
                        ),
                    )
                    .is_none()
                {
                    self.preview = Some(preview);
                }
            }
        }
        self.watch.force();
    }
}
