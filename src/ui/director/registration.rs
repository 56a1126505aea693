//! Registration (F3): the chosen tournament's players. Register from the registry (a late
//! entry is absent in the rounds already played), withdraw and re-enter, absences asked for
//! the next rounds, penalty deductions with their reasons, bans for collusion.

use super::{Watch, hint, need_tournament, next_step};
use crate::store::TournamentId;
use crate::store::{RegistryId, RegistryPlayer};
use crate::ui::PageCtx;
use crate::ui::common::{self, Confirm, LoadErrors, Reasoned, labelled_text, poll_confirm};
use egui::{RichText, Ui};
use egui_extras::Column;
use ggdesk_core::event::{
    AbsenceChange, Event, PenaltyRecord as PenaltyRow, Registration, Withdrawal,
};
use ggdesk_core::export::print::sort_key;
use ggdesk_core::tournament::{PenaltyId, RoundNo};
use ggdesk_core::tournament::{PlayerId, Score};

#[derive(Debug, Clone)]
enum Cmd {
    Register(RegistryId),
    RegisterAll(Vec<RegistryId>),
    Withdraw(PlayerId, String),
    ReEnter(PlayerId),
    Absence(PlayerId, RoundNo, AbsenceChange),
    Penalty(PlayerId, Score, String),
    CancelPenalty(PenaltyId, String),
    Ban(RegistryId, String),
    Unregister(PlayerId),
}

impl Reasoned for Cmd {
    fn with_reason(self, reason: String) -> Self {
        match self {
            Cmd::Withdraw(no, _) => Cmd::Withdraw(no, reason),
            Cmd::CancelPenalty(id, _) => Cmd::CancelPenalty(id, reason),
            Cmd::Ban(id, _) => Cmd::Ban(id, reason),
            other => other,
        }
    }
}

/// The Registration page's own state.
#[derive(Default)]
pub struct RegistrationPage {
    pub registered: Vec<Registration>,
    registry: Vec<RegistryPlayer>,
    penalties: Vec<PenaltyRow>,
    rounds_started: usize,
    /// The tournament's event, which says what may be done now.
    event: Option<Event>,
    watch: Watch,
    pub search: String,
    pub selected: Option<PlayerId>,
    pub absence_round: String,
    pub penalty_points: String,
    pub penalty_reason: String,
    confirm: Option<Confirm<Cmd>>,
    queued: Vec<Cmd>,
    goto_players: bool,
    load: LoadErrors,
    /// The tournament shown: a player picked (and what was typed for them) belongs to it.
    tid: Option<TournamentId>,
    /// The name of the chosen tournament when it is a team event (registered by team, on
    /// the Teams page).
    team_event: Option<String>,
}

impl RegistrationPage {
    fn reload(&mut self, cx: &mut PageCtx<'_>, tid: TournamentId) {
        if self.tid != Some(tid) {
            // Player numbers start at 1 in every tournament: the player picked in the last
            // one (and the round, points and reason typed for them) would act on whoever has
            // the same number in this one.
            self.tid = Some(tid);
            self.selected = None;
            self.absence_round.clear();
            self.penalty_points.clear();
            self.penalty_reason.clear();
            self.confirm = None;
            self.watch.force();
        }
        if !self.watch.stale(cx, Some(tid)) {
            return;
        }
        let mut load = LoadErrors::default();
        self.team_event = load
            .check("the registrations", cx.store.team_event(tid))
            .flatten()
            .map(|e| e.name);
        if self.team_event.is_some() {
            self.event = None;
            self.load = load;
            return;
        }
        self.event = super::event_of(&mut load, cx.store, tid, "the registrations");
        self.registry = load
            .check("the players registry", cx.store.players())
            .unwrap_or_default();
        self.registry.sort_by(|a, b| {
            sort_key(&a.name)
                .cmp(&sort_key(&b.name))
                .then(a.id.cmp(&b.id))
        });
        self.load = load;
        let event = self.event.as_ref();
        self.registered = event.map(Event::registrations).unwrap_or_default();
        self.penalties = event.map_or_else(Vec::new, |e| e.record().penalties.clone());
        self.rounds_started = event.map_or(0, |e| {
            e.rounds()
                .iter()
                .filter(|r| r.state != ggdesk_core::event::RoundState::Draft)
                .count()
        });
        // The field starts at the first round not paired yet.
        if self.absence_round.is_empty() {
            let next = RoundNo::from_index(event.map_or(0, |e| e.rounds().len()));
            self.absence_round = next.to_string();
        }
        if let Some(s) = self.selected
            && !self.registered.iter().any(|r| r.no == s)
        {
            self.selected = None;
        }
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(tid) = need_tournament(ui, cx, "Registration") else {
            return;
        };
        self.reload(cx, tid);
        if let Some(cmd) = poll_confirm(&mut self.confirm, ui.ctx()) {
            self.queued.push(cmd);
        }
        if self.load.banner(ui) {
            return;
        }
        if let Some(name) = &self.team_event {
            ui.heading("Registration");
            ui.add_space(8.0);
            ui.label(format!(
                "{} is a team event: its players are registered by team, on the Teams page \
                 (F12).",
                super::display_name(tid, name)
            ));
            if ui.button("Open the Teams page (F12)").clicked() {
                *cx.goto = Some(crate::ui::Page::Teams);
            }
            return;
        }
        egui::Panel::left("registration-registry")
            .resizable(false)
            .exact_size(360.0)
            .show(ui, |ui| self.registry_ui(ui));
        egui::Panel::bottom("registration-player")
            .resizable(false)
            .exact_size(175.0)
            .show(ui, |ui| self.player_ui(ui));
        egui::CentralPanel::default().show(ui, |ui| self.table_ui(ui));
        for cmd in std::mem::take(&mut self.queued) {
            self.apply(cmd, cx, tid);
        }
        if std::mem::take(&mut self.goto_players) {
            *cx.goto = Some(crate::ui::Page::Players);
        }
    }

    fn registry_ui(&mut self, ui: &mut Ui) {
        ui.heading("Register players");
        hint(
            ui,
            "From the registry (add new players on the Players page, F1).",
        );
        labelled_text(ui, "Search the registry:", &mut self.search, 170.0);
        let needle = self.search.trim().to_lowercase();
        let taken: std::collections::HashSet<RegistryId> =
            self.registered.iter().map(|r| r.player).collect();
        let candidates: Vec<&RegistryPlayer> = self
            .registry
            .iter()
            .filter(|p| !taken.contains(&p.id))
            .filter(|p| {
                needle.is_empty()
                    || p.name.to_lowercase().contains(&needle)
                    || p.federation_id.to_lowercase().contains(&needle)
                    || p.club.to_lowercase().contains(&needle)
            })
            .collect();
        // Registered in rating order, so that player numbers follow the ratings.
        let mut by_rating: Vec<&&RegistryPlayer> =
            candidates.iter().filter(|p| !p.is_banned()).collect();
        by_rating.sort_by(|a, b| {
            b.rating
                .cmp(&a.rating)
                .then_with(|| sort_key(&a.name).cmp(&sort_key(&b.name)))
        });
        let eligible: Vec<RegistryId> = by_rating.iter().map(|p| p.id).collect();
        if !eligible.is_empty()
            && ui
                .button(format!("Register all {} shown", eligible.len()))
                .clicked()
        {
            self.confirm = Some(Confirm::new(
                "Register every player shown",
                format!("{} players will be registered in one go.", eligible.len()),
                "Register them",
                Cmd::RegisterAll(eligible.clone()),
            ));
        }
        if self.registry.is_empty() {
            ui.label("The registry is empty: add the players (or import a CSV file) first.");
            if ui.button("Open the Players page (F1)").clicked() {
                self.goto_players = true;
            }
        } else if candidates.is_empty() {
            ui.label(if needle.is_empty() {
                "Everyone in the registry is registered."
            } else {
                "Nobody to register matches the search."
            });
        }
        let mut register = None;
        egui::ScrollArea::vertical()
            .id_salt("registry-candidates")
            .auto_shrink([false, false])
            .show_rows(ui, 24.0, candidates.len(), |ui, range| {
                for p in &candidates[range] {
                    ui.horizontal(|ui| {
                        if p.is_banned() {
                            ui.add_enabled(false, egui::Button::new("Register"))
                                .on_disabled_hover_text(format!(
                                    "Banned: {}",
                                    p.ban.as_deref().unwrap_or("")
                                ));
                            common::cut_label(
                                ui,
                                RichText::new(format!("{} (BANNED)", p.name)).color(common::RED),
                            );
                        } else {
                            if ui
                                .button("Register")
                                .on_hover_text(format!("Register {}", p.name))
                                .clicked()
                            {
                                register = Some(p.id);
                            }
                            common::cut_label(ui, format!("{}  {}", p.name, p.rating));
                        }
                    });
                }
            });
        if let Some(id) = register {
            self.queued.push(Cmd::Register(id));
        }
    }

    fn table_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.heading("Registered");
            let playing = self.registered.iter().filter(|r| !r.withdrawn).count();
            ui.label(format!(
                "{} registered, {} playing, {} withdrawn",
                self.registered.len(),
                playing,
                self.registered.len() - playing
            ));
        });
        if self.registered.len() >= 2 && self.rounds_started == 0 {
            next_step(
                ui,
                "when everyone is registered, pair round 1 on the Rounds page (F4)",
            );
        } else if self.registered.is_empty() {
            next_step(ui, "register players from the list on the left");
        }
        let rows = &self.registered;
        let selected = self.selected;
        let mut clicked = None;
        let columns = [
            Column::exact(40.0),
            Column::remainder().at_least(160.0).clip(true),
            Column::exact(60.0),
            Column::exact(100.0).clip(true),
            Column::exact(170.0),
            Column::exact(110.0),
            Column::exact(60.0),
        ];
        common::clickable_rows(ui, "registered-table", &columns)
            .header(22.0, |mut h| {
                common::header_cells(
                    &mut h,
                    &[
                        "No",
                        "Name",
                        "Rating",
                        "Club",
                        "Status",
                        "Absent in",
                        "Penalty",
                    ],
                );
            })
            .body(|body| {
                body.rows(22.0, rows.len(), |mut row| {
                    let r = &rows[row.index()];
                    row.set_selected(selected == Some(r.no));
                    common::text_cells(
                        &mut row,
                        &[
                            &r.no.to_string(),
                            &r.name,
                            &r.rating.to_string(),
                            r.club.as_deref().unwrap_or(""),
                        ],
                    );
                    row.col(|ui| {
                        let (text, color) = if r.banned {
                            ("BANNED".to_string(), common::RED)
                        } else if r.withdrawn {
                            ("withdrawn".to_string(), common::AMBER)
                        } else if r.entry_round.0 > 1 {
                            (format!("late entry, round {}", r.entry_round), common::BLUE)
                        } else {
                            ("playing".to_string(), ui.visuals().text_color())
                        };
                        ui.label(RichText::new(text).color(color));
                    });
                    row.col(|ui| {
                        let rounds: Vec<String> =
                            r.absences.iter().map(|n| n.to_string()).collect();
                        ui.label(rounds.join(", "));
                    });
                    row.col(|ui| {
                        if r.penalty > Score::ZERO {
                            ui.label(RichText::new(format!("-{}", r.penalty)).color(common::RED));
                        }
                    });
                    if row.response().clicked() {
                        clicked = Some(r.no);
                    }
                });
            });
        if let Some(no) = clicked {
            self.selected = Some(no);
        }
    }

    fn player_ui(&mut self, ui: &mut Ui) {
        let Some(r) = self
            .selected
            .and_then(|s| self.registered.iter().find(|r| r.no == s))
            .cloned()
        else {
            ui.add_space(6.0);
            hint(
                ui,
                "Click a registered player for withdrawal, re-entry, absences, penalties or a ban.",
            );
            return;
        };
        ui.horizontal(|ui| {
            ui.heading(format!("{} {}", r.no, r.name));
            if r.banned {
                common::badge(ui, "BANNED", common::RED);
            } else if r.withdrawn {
                common::badge(ui, "WITHDRAWN", common::AMBER);
            }
        });
        ui.horizontal(|ui| {
            if r.withdrawn {
                if ui
                    .add_enabled(!r.banned, egui::Button::new("Re-enter"))
                    .on_hover_text("Paired again from the next round; the rounds missed count as absent")
                    .clicked()
                {
                    self.queued.push(Cmd::ReEnter(r.no));
                }
            } else if ui
                .button("Withdraw")
                .on_hover_text("Not paired from the next round on")
                .clicked()
            {
                self.confirm = Some(
                    Confirm::new(
                        "Withdraw a player",
                        format!("{} will not be paired from the next round on.", r.name),
                        "Withdraw",
                        Cmd::Withdraw(r.no, String::new()),
                    )
                    .with_reason(),
                );
            }
            if !r.banned
                && ui
                    .button("Ban for collusion")
                    .on_hover_text("Withdrawn now; cannot be registered or paired again")
                    .clicked()
            {
                self.confirm = Some(
                    Confirm::new(
                        "Ban a player for collusion",
                        format!(
                            "{} will be withdrawn from every tournament and cannot be registered or paired again.",
                            r.name
                        ),
                        "Ban",
                        Cmd::Ban(r.player, String::new()),
                    )
                    .with_reason(),
                );
            }
            if self.rounds_started == 0
                && ui
                    .button("Remove registration")
                    .on_hover_text("Only before the player has been paired")
                    .clicked()
            {
                self.confirm = Some(Confirm::new(
                    "Remove a registration",
                    format!("{} will no longer be in this tournament.", r.name),
                    "Remove",
                    Cmd::Unregister(r.no),
                ));
            }
        });
        self.absence_ui(ui, &r);
        self.penalty_ui(ui, &r);
    }

    /// An absence asked for a round not paired yet, or cancelled.
    fn absence_ui(&mut self, ui: &mut Ui, r: &Registration) {
        ui.horizontal(|ui| {
            let l = ui.label("Absent in round:");
            ui.add(egui::TextEdit::singleline(&mut self.absence_round).desired_width(40.0))
                .labelled_by(l.id);
            let round = self.absence_round.trim().parse::<u32>().ok().map(RoundNo);
            let asked = round.is_some_and(|n| r.absences.contains(&n));
            let (text, change) = if asked {
                ("Cancel the absence", AbsenceChange::TakeBack)
            } else {
                ("Mark absent", AbsenceChange::Ask)
            };
            // Whether the event takes the absence now, and if not why: its own words.
            let refused = match (round, &self.event) {
                (Some(n), Some(event)) => event
                    .may_set_absence(r.no, n, change)
                    .err()
                    .map(|e| e.to_string()),
                _ => Some("rounds are numbered from 1".to_string()),
            };
            if ui
                .add_enabled(refused.is_none(), egui::Button::new(text))
                .on_disabled_hover_text(refused.unwrap_or_default())
                .clicked()
                && let Some(n) = round
            {
                self.queued.push(Cmd::Absence(r.no, n, change));
            }
        });
    }

    /// Penalty points deducted with a reason, and the deductions already made.
    fn penalty_ui(&mut self, ui: &mut Ui, r: &Registration) {
        ui.horizontal(|ui| {
            let l = ui.label("Penalty points:");
            ui.add(egui::TextEdit::singleline(&mut self.penalty_points).desired_width(40.0))
                .labelled_by(l.id);
            let l = ui.label("Reason:");
            ui.add(egui::TextEdit::singleline(&mut self.penalty_reason).desired_width(220.0))
                .labelled_by(l.id);
            if ui.button("Deduct points").clicked() {
                let text = self.penalty_points.trim().to_string();
                match text.parse::<f64>() {
                    Ok(v) if v > 0.0 && (v * 2.0).fract() == 0.0 && v <= 1e6 => {
                        self.queued.push(Cmd::Penalty(
                            r.no,
                            Score::from_halves((v * 2.0) as i64),
                            self.penalty_reason.clone(),
                        ));
                    }
                    _ => self.queued.push(Cmd::Penalty(r.no, Score::ZERO, text)),
                }
            }
        });
        let mine: Vec<&PenaltyRow> = self.penalties.iter().filter(|p| p.player == r.no).collect();
        for p in mine {
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format!(
                        "-{} on {}: {}",
                        p.points,
                        common::fmt_local_datetime(p.decided_at),
                        p.reason
                    ))
                    .color(common::RED),
                );
                if ui.small_button("Cancel penalty").clicked() {
                    self.confirm = Some(
                        Confirm::new(
                            "Cancel a penalty",
                            format!("The deduction of {} points will be cancelled.", p.points),
                            "Cancel the penalty",
                            Cmd::CancelPenalty(p.id, String::new()),
                        )
                        .with_reason(),
                    );
                }
            });
        }
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: TournamentId) {
        let actor = cx.actor();
        match cmd {
            Cmd::Register(id) => {
                let r = cx.store.register(tid, id, &actor);
                if let Some(no) = cx.notices.report(r, "") {
                    let late = self.rounds_started > 0;
                    cx.notices.info(if late {
                        format!("Registered as player {no}: a late entry, absent in the rounds already played")
                    } else {
                        format!("Registered as player {no}")
                    });
                    self.selected = Some(no);
                }
            }
            Cmd::RegisterAll(ids) => {
                let r = cx.store.register_all(tid, &ids, &actor);
                if let Some(nos) = cx.notices.report(r, "") {
                    cx.notices.info(format!("{} players registered", nos.len()));
                }
            }
            Cmd::Withdraw(no, reason) => {
                let r = cx
                    .store
                    .set_withdrawn(tid, no, Withdrawal::Withdraw, &reason, &actor);
                cx.notices
                    .report(r, "Player withdrawn: not paired from the next round on");
            }
            Cmd::ReEnter(no) => {
                let r = cx
                    .store
                    .set_withdrawn(tid, no, Withdrawal::Reenter, "", &actor);
                cx.notices
                    .report(r, "Player re-entered: paired again from the next round");
            }
            Cmd::Absence(no, round, change) => {
                let r = cx
                    .store
                    .set_absence(tid, no, round, change, "asked by the player", &actor);
                let done = if change == AbsenceChange::Ask {
                    format!("Player {no} will not be paired in round {round}")
                } else {
                    format!("Player {no} will be paired in round {round}")
                };
                cx.notices.report(r, &done);
            }
            Cmd::Penalty(no, points, reason) => {
                if points == Score::ZERO {
                    cx.notices.error(format!(
                        "penalty points: {reason:?} is not a positive multiple of 0.5"
                    ));
                    return;
                }
                let r = cx.store.add_penalty(tid, no, points, &reason, &actor);
                if cx
                    .notices
                    .report(r, &format!("{points} point(s) deducted from player {no}"))
                    .is_some()
                {
                    self.penalty_points.clear();
                    self.penalty_reason.clear();
                }
            }
            Cmd::CancelPenalty(id, reason) => {
                let r = cx.store.remove_penalty(tid, id, &reason, &actor);
                cx.notices.report(r, "Penalty cancelled");
            }
            Cmd::Ban(id, reason) => {
                let r = cx.store.ban_player(id, &reason, Some(tid), &actor);
                cx.notices.report(r, "Player banned and withdrawn");
            }
            Cmd::Unregister(no) => {
                let r = cx.store.unregister(tid, no, &actor);
                cx.notices.report(r, "Registration removed");
            }
        }
        self.watch.force();
    }
}
