//! Bracket (F11): an event in stages at a glance. The knockout's bracket rounds side by
//! side, each match with its seeds, players, series score and games, the winner marked,
//! byes shown, the players still to come, the third-place match; the next games of the
//! knockout (or the playoff games at a cut) started in one click when every game before
//! them is decided; the bracket and the group tables printed; the final placement once
//! the event is over. A tournament of one system has no bracket: the page says so.

use super::{Watch, file_stem, hint, need_tournament, write_export};
use crate::store::TournamentId;
use crate::ui::PageCtx;
use crate::ui::common::LoadErrors;
use crate::ui::files;
use egui::{RichText, Ui};
use ggdesk_core::event::words::{
    bracket_round_title, bracket_rounds, game_mark, match_title, series_note, series_words,
    stage_name,
};
use ggdesk_core::export::print;
use ggdesk_core::stages::{Event, Match, NextStep, StageFormat};
use ggdesk_core::tournament::PlayerId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmd {
    StartNext,
    PrintBracket,
    PrintGroups(ggdesk_core::tournament::StageNo),
}

/// The Bracket page's own state.
#[derive(Default)]
pub struct BracketPage {
    /// The tournament's event (an event of stages has a bracket).
    pub event: Option<ggdesk_core::event::Event>,
    /// The tournament's team event, when it is one (no bracket: its placement).
    pub team: Option<ggdesk_core::teams::TeamEvent>,
    watch: Watch,
    load: LoadErrors,
    tid: Option<TournamentId>,
    queued: Vec<Cmd>,
}

fn name(event: &Event, p: PlayerId) -> String {
    event
        .player(p)
        .map_or_else(|| p.to_string(), |x| x.name.clone())
}

impl BracketPage {
    fn reload(&mut self, cx: &mut PageCtx<'_>, tid: TournamentId) {
        if self.tid != Some(tid) {
            self.tid = Some(tid);
            self.watch.force();
        }
        if !self.watch.stale(cx, Some(tid)) {
            return;
        }
        let mut load = LoadErrors::default();
        // A team event has no bracket: its placement is the core's (the final's winner
        // first, then by the stages' team standings).
        self.team = load
            .check("the bracket", cx.store.team_event(tid))
            .flatten();
        self.event = if self.team.is_some() {
            None
        } else {
            super::event_of(&mut load, cx.store, tid, "the bracket")
        };
        self.load = load;
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        let Some(tid) = need_tournament(ui, cx, "Bracket") else {
            return;
        };
        self.reload(cx, tid);
        if self.load.banner(ui) {
            return;
        }
        if let Some(e) = &self.team {
            team_placement_ui(ui, e);
            return;
        }
        let Some(whole) = self.event.clone() else {
            return;
        };
        let Some(event) = whole.staged().cloned() else {
            ui.heading("Bracket");
            hint(
                ui,
                "This tournament is played in one system: it has no stages and no bracket. \
                 An event in stages (groups, Swiss, knockout) is imported from a \
                 ggdesk-tournament/2 file.",
            );
            return;
        };
        let next_games = whole.next_games();
        // Ctrl+P starts the next games here as on the Rounds page (not while typing).
        if next_games.is_some()
            && !cx.typing
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::P))
        {
            self.queued.push(Cmd::StartNext);
        }
        self.controls(ui, &event, next_games);
        egui::ScrollArea::both()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                stages_line(ui, &event);
                ui.separator();
                bracket_ui(ui, &event);
                placement_ui(ui, &event);
            });
        for cmd in std::mem::take(&mut self.queued) {
            self.apply(cmd, cx, tid, &event);
        }
    }

    fn controls(&mut self, ui: &mut Ui, event: &Event, next_games: Option<String>) {
        ui.horizontal(|ui| {
            ui.heading("Bracket");
            match next_games.clone() {
                Some(words) => {
                    if ui
                        .button(&words)
                        .on_hover_text(
                            "Ctrl+P: pairs and publishes one game for every open match (or \
                             the playoff games): the games appear at their tables.",
                        )
                        .clicked()
                    {
                        self.queued.push(Cmd::StartNext);
                    }
                }
                None => {
                    let why = match event.next_step() {
                        Err(e) => e.to_string(),
                        Ok(_) => "the next round is paired on the Rounds page".to_string(),
                    };
                    ui.add_enabled(false, egui::Button::new("Start the next games"))
                        .on_disabled_hover_text(why);
                }
            }
            let has_bracket = event.reached().iter().any(|r| r.bracket.is_some());
            if ui
                .add_enabled(has_bracket, egui::Button::new("Print the bracket"))
                .clicked()
            {
                self.queued.push(Cmd::PrintBracket);
            }
            for (k, r) in event.reached().iter().enumerate() {
                let rr = matches!(
                    event.settings().stages.get(k).map(|s| s.format),
                    Some(StageFormat::RoundRobin { .. })
                );
                if rr
                    && ui
                        .button(format!("Print stage {}'s group tables", r.stage))
                        .clicked()
                {
                    self.queued.push(Cmd::PrintGroups(r.stage));
                }
            }
        });
        match event.next_step() {
            Err(e) => hint(ui, &format!("Next: {e}.")),
            Ok(step) => hint(
                ui,
                &format!(
                    "Next: {} of stage {}{}.",
                    if matches!(step, NextStep::Playoff { .. }) {
                        "playoff games"
                    } else {
                        "a round"
                    },
                    step.stage(),
                    if next_games.is_some() {
                        " (start it here)"
                    } else {
                        " (pair it on the Rounds page)"
                    }
                ),
            ),
        }
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: TournamentId, event: &Event) {
        let stem = file_stem(event.name());
        match cmd {
            Cmd::StartNext => {
                match cx
                    .store
                    .start_next_games(tid, &crate::store::Actor::director())
                {
                    Ok((round, backup)) => {
                        cx.notices.info(format!(
                            "Round {round} started: its games are at their tables. {}",
                            backup.describe()
                        ));
                    }
                    Err(e) => cx.notices.error(e.to_string()),
                }
                self.watch.force();
            }
            Cmd::PrintBracket | Cmd::PrintGroups(_) => {
                let r = cx
                    .store
                    .tournament_details(tid)
                    .map_err(|e| e.to_string())
                    .and_then(|d| {
                        let (file, html) = match cmd {
                            Cmd::PrintGroups(k) => (
                                format!("{stem}-stage-{k}-groups.html"),
                                print::group_tables_page(&d, event, k),
                            ),
                            _ => (
                                format!("{stem}-bracket.html"),
                                print::bracket_page(&d, event),
                            ),
                        };
                        let html = html.ok_or("nothing to print yet")?;
                        write_export(cx.store, &file, &html)
                    });
                if let Some(file) = cx.notices.report(r, "") {
                    let what = if cmd == Cmd::PrintBracket {
                        "Bracket"
                    } else {
                        "Group tables"
                    };
                    files::print_page(cx.notices, cx.launcher, what, &file);
                }
            }
        }
    }
}

/// The stages in one line: `1 Groups (complete)  >  2 Knockout (being played)`.
fn stages_line(ui: &mut Ui, event: &Event) {
    let reached = event.reached().len();
    let parts: Vec<String> = event
        .settings()
        .stages
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let started = event
                .play(k)
                .is_some_and(|p| !p.rounds.is_empty() || !p.playoffs.is_empty());
            let state = match event.reached().get(k) {
                Some(r) if r.complete => "complete",
                Some(_) if !started => "not started",
                Some(_) => "being played",
                None if k >= reached => "to come",
                None => "",
            };
            format!("{} {} ({state})", k + 1, stage_name(s))
        })
        .collect();
    ui.label(RichText::new(format!("Stages: {}", parts.join("  >  "))).strong());
}

fn match_ui(ui: &mut Ui, event: &Event, format: ggdesk_core::stages::MatchFormat, m: &Match) {
    let score = m.series.score(format);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(230.0);
        ui.label(RichText::new(match_title(m.id)).small().weak());
        for (i, slot) in m.slots.iter().enumerate() {
            let seed = slot.seed.map_or_else(String::new, |s| format!("({s}) "));
            match slot.player {
                Some(p) => {
                    let won = m.winner == Some(p);
                    let text = format!(
                        "{seed}{}{}{}",
                        name(event, p),
                        if won { "  (winner)" } else { "" },
                        if m.players().is_some() && !m.games.is_empty() {
                            format!("   {}", score[i])
                        } else {
                            String::new()
                        }
                    );
                    if won {
                        ui.label(RichText::new(text).strong());
                    } else {
                        ui.label(text);
                    }
                }
                None if m.players().is_none() && m.winner.is_some() => {
                    ui.label(RichText::new("bye").italics().weak());
                }
                None => {
                    ui.label(RichText::new(format!("{seed}to come")).italics().weak());
                }
            }
        }
        if let Some([top, _]) = m.players()
            && !m.games.is_empty()
        {
            let marks: Vec<&str> = m
                .games
                .iter()
                .map(|g| game_mark(top, g.white, g.result))
                .collect();
            ui.label(RichText::new(format!("Games: {}", marks.join(" "))).small());
        }
        if let Some(note) = series_note(format, &m.series) {
            ui.label(RichText::new(note).small().italics());
        }
    });
}

fn bracket_ui(ui: &mut Ui, event: &Event) {
    let Some(reached) = event.reached().iter().rev().find(|r| r.bracket.is_some()) else {
        hint(
            ui,
            "The knockout is not seeded yet: it is seeded when the stage before it is complete \
             and its cut is clear.",
        );
        return;
    };
    let Some(b) = reached.bracket.as_ref() else {
        return;
    };
    ui.label(format!(
        "Stage {}: knockout, {}{}",
        reached.stage,
        series_words(b.format),
        if b.third_place {
            ", third-place match"
        } else {
            ""
        }
    ));
    let (next, next_third) = b.preview();
    let rounds: Vec<&Vec<Match>> = b.rounds.iter().chain(next.as_ref()).collect();
    let count = bracket_rounds(b.rounds.first().map_or(1, Vec::len));
    ui.horizontal_top(|ui| {
        for (r, ms) in rounds.iter().enumerate() {
            let title = bracket_round_title(u32::try_from(r + 1).unwrap_or(u32::MAX), count);
            ui.vertical(|ui| {
                ui.label(RichText::new(title).strong());
                for m in ms.iter() {
                    match_ui(ui, event, b.format, m);
                }
                if r + 1 == rounds.len()
                    && let Some(t) = b.third.as_ref().or(next_third.as_ref())
                {
                    ui.label(RichText::new("Third place").strong());
                    match_ui(ui, event, b.format, t);
                }
            });
        }
    });
}

fn placement_ui(ui: &mut Ui, event: &Event) {
    ui.separator();
    match event.final_placement() {
        Err(e) => hint(ui, &format!("Final placement: {e}.")),
        Ok(rows) => {
            ui.label(RichText::new("Final placement").strong());
            egui::Grid::new("final-placement")
                .striped(true)
                .show(ui, |ui| {
                    for p in rows {
                        ui.label(p.place.to_string());
                        ui.label(format!("{} {}", p.id, p.name));
                        ui.label(format!("placed in stage {}", p.stage));
                        ui.end_row();
                    }
                });
        }
    }
}

/// A team event's final placement, or why there is none yet (the core's words).
fn team_placement_ui(ui: &mut Ui, e: &ggdesk_core::teams::TeamEvent) {
    ui.heading("Bracket");
    hint(
        ui,
        "A team event has no bracket: its placement is the final's winner, then the other \
         teams by their stages' team standings (the Standings page, F6, has them).",
    );
    match e.final_placement() {
        Ok(rows) => {
            ui.label(RichText::new("Final placement").strong());
            egui::Grid::new("team-placement")
                .striped(true)
                .num_columns(3)
                .show(ui, |ui| {
                    for r in &rows {
                        ui.label(r.place.to_string());
                        ui.label(&r.name);
                        let stage = e.stages.get(r.stage - 1).map_or("", |s| s.name.as_str());
                        ui.label(RichText::new(format!("placed by: {stage}")).weak());
                        ui.end_row();
                    }
                });
        }
        Err(why) => {
            ui.label(RichText::new(format!("No final placement yet: {why}")).weak());
        }
    }
}
