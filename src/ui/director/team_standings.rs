//! The Standings page (F6) of a team event: the core's team standings of a stage (primary
//! score, the other score, the stage's team tie-breaks, exact) and its board prizes (each
//! board's players by percentage), each exported as the core writes its CSV
//! (`team_standings_csv`, `board_prizes_csv`) and printed as the core makes its pages
//! (`team_standings_page`, `board_prizes_page`).

use super::{Watch, file_stem, hint, write_export};
use crate::store::TournamentId;
use crate::ui::PageCtx;
use crate::ui::common::LoadErrors;
use crate::ui::files;
use egui::{Key, Modifiers, RichText, Ui};
use ggdesk_core::export::team_print::{
    self, percentage_words as percentage, team_tiebreak_title, team_tiebreak_words,
};
use ggdesk_core::export::{board_prizes_csv, team_placement_csv, team_standings_csv};
use ggdesk_core::teams::{Primary, TeamEvent};

/// What the page shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TeamView {
    /// The team standings of a stage (`None`: the current stage).
    #[default]
    Teams,
    Boards,
    /// The event's final placement, once it is over.
    Final,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmd {
    Export,
    Print,
}

/// The team event's standings, as the Standings page shows them.
#[derive(Default)]
pub struct TeamStandingsPage {
    pub event: Option<TeamEvent>,
    pub view: TeamView,
    /// The stage shown (from 1; `None`: the current one).
    pub stage: Option<u32>,
    watch: Watch,
    load: LoadErrors,
    tid: Option<TournamentId>,
    queued: Vec<Cmd>,
}

impl TeamStandingsPage {
    /// Reads the chosen tournament; true when it is a team event (this page draws it).
    pub fn is_team_event(&mut self, cx: &mut PageCtx<'_>, tid: TournamentId) -> bool {
        if self.tid != Some(tid) {
            self.tid = Some(tid);
            self.stage = None;
            self.watch.force();
        }
        if self.watch.stale(cx, Some(tid)) {
            let mut load = LoadErrors::default();
            self.event = load
                .check("the standings", cx.store.team_event(tid))
                .flatten();
            self.load = load;
        }
        self.event.is_some() || !self.load.is_empty()
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, tid: TournamentId) {
        if self.load.banner(ui) {
            return;
        }
        let Some(e) = self.event.clone() else {
            return;
        };
        if !cx.typing && ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::E)) {
            self.queued.push(Cmd::Export);
        }
        ui.horizontal(|ui| {
            ui.heading("Standings");
            ui.label(RichText::new(format!("{} (team event)", e.name)).weak());
            ui.separator();
            if ui
                .selectable_label(self.view == TeamView::Teams, "Team standings")
                .clicked()
            {
                self.view = TeamView::Teams;
            }
            if ui
                .selectable_label(self.view == TeamView::Boards, "Board prizes")
                .clicked()
            {
                self.view = TeamView::Boards;
            }
            if e.stages.len() > 1
                && ui
                    .selectable_label(self.view == TeamView::Final, "Final placement")
                    .clicked()
            {
                self.view = TeamView::Final;
            }
            ui.separator();
            if ui
                .button("Export CSV")
                .on_hover_text("Ctrl+E; the view shown into the exports folder")
                .clicked()
            {
                self.queued.push(Cmd::Export);
            }
            if ui
                .button("Print")
                .on_hover_text("The view shown as a page to print, opened in the browser")
                .clicked()
            {
                self.queued.push(Cmd::Print);
            }
        });
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| match self.view {
                TeamView::Teams => self.teams_ui(ui, &e),
                TeamView::Boards => boards_ui(ui, &e),
                TeamView::Final => placement_ui(ui, &e),
            });
        for cmd in std::mem::take(&mut self.queued) {
            match cmd {
                Cmd::Export => self.export(cx, &e, tid),
                Cmd::Print => self.print(cx, &e, tid),
            }
        }
    }

    fn teams_ui(&mut self, ui: &mut Ui, e: &TeamEvent) {
        if e.stages.len() > 1 {
            ui.horizontal(|ui| {
                ui.label("Stage:");
                let current = shown_stage(e);
                for (k, st) in e.stages.iter().enumerate() {
                    let no = u32::try_from(k + 1).unwrap_or(u32::MAX);
                    let chosen = self.stage.unwrap_or(current) == no;
                    if ui
                        .selectable_label(chosen, format!("Stage {no}: {}", st.name))
                        .clicked()
                    {
                        self.stage = Some(no);
                    }
                }
            });
        }
        let s = match e.team_standings(self.stage.or(Some(shown_stage(e)))) {
            Ok(s) => s,
            Err(why) => {
                ui.label(RichText::new(format!("No standings for this stage yet: {why}")).weak());
                return;
            }
        };
        // Board groups and the final play games, not matches: ranked by game points, with
        // no match points to show.
        let matches = e.stage_plays_matches(s.stage);
        let primary = match e.stage_primary(s.stage) {
            Primary::MatchPoints => "match points",
            Primary::GamePoints => "game points",
        };
        let names: Vec<&str> = s
            .tiebreaks
            .iter()
            .map(|t| team_tiebreak_words(*t))
            .collect();
        hint(
            ui,
            &format!(
                "Ranked by {primary}{}{}, then team rating.{}",
                if names.is_empty() { "" } else { ", then " },
                names.join(", then "),
                if matches {
                    " A match with a board still pending counts nothing yet."
                } else {
                    ""
                }
            ),
        );
        let heads: &[&str] = if matches {
            &["Rank", "Team", "Match points", "Game points"]
        } else {
            &["Rank", "Team", "Game points"]
        };
        // A tie-break that is one of the scores has its column already.
        let shown: Vec<usize> = (0..s.tiebreaks.len())
            .filter(|&i| !s.tiebreaks[i].is_a_score())
            .collect();
        egui::Grid::new(("team-standings", s.stage))
            .striped(true)
            .num_columns(heads.len() + shown.len())
            .spacing([16.0, 4.0])
            .show(ui, |ui| {
                // The columns keep their titles' capitals; the sentence above is in words.
                let titles = shown.iter().map(|&i| team_tiebreak_title(s.tiebreaks[i]));
                for title in heads.iter().copied().chain(titles) {
                    ui.label(RichText::new(title).strong());
                }
                ui.end_row();
                for r in &s.rows {
                    ui.label(r.rank.to_string());
                    ui.label(&r.name);
                    if matches {
                        ui.label(r.match_points.to_string());
                    }
                    ui.label(r.game_points.to_string());
                    for &i in &shown {
                        ui.label(
                            r.tiebreaks
                                .get(i)
                                .map_or_else(String::new, |v| v.to_string()),
                        );
                    }
                    ui.end_row();
                }
            });
    }

    /// The view shown as a page to print: the stage's team standings (provisional while
    /// one of its rounds is in play) or the board prizes.
    fn print(&mut self, cx: &mut PageCtx<'_>, e: &TeamEvent, tid: TournamentId) {
        let stem = format!("{}-{tid}", file_stem(&e.name));
        let r = cx
            .store
            .tournament_details(tid)
            .map_err(|x| x.to_string())
            .and_then(|d| match self.view {
                TeamView::Teams => {
                    let s = e
                        .team_standings(self.stage.or(Some(shown_stage(e))))
                        .map_err(|x| x.to_string())?;
                    let provisional = e
                        .stages
                        .get(s.stage.saturating_sub(1))
                        .is_some_and(|st| st.rounds.iter().any(|r| !r.is_complete()));
                    Ok((
                        "Team standings",
                        format!("team-standings-stage-{}", s.stage),
                        team_print::team_standings_page(&d, e, &s, provisional),
                    ))
                }
                TeamView::Boards => Ok((
                    "Board prizes",
                    "board-prizes".to_string(),
                    team_print::board_prizes_page(&d, e, &e.board_prizes()),
                )),
                TeamView::Final => {
                    let rows = e.final_placement().map_err(|x| x.to_string())?;
                    Ok((
                        "Final placement",
                        "final-placement".to_string(),
                        team_print::team_placement_page(&d, e, &rows),
                    ))
                }
            })
            .and_then(|(what, name, html)| {
                write_export(cx.store, &format!("{stem}-{name}.html"), &html).map(|f| (what, f))
            });
        if let Some((what, file)) = cx.notices.report(r, "") {
            files::print_page(cx.notices, cx.launcher, what, &file);
        }
    }

    fn export(&mut self, cx: &mut PageCtx<'_>, e: &TeamEvent, tid: TournamentId) {
        let stem = format!("{}-{tid}", file_stem(&e.name));
        let (what, name, text) = match self.view {
            TeamView::Teams => match e.team_standings(self.stage.or(Some(shown_stage(e)))) {
                Ok(s) => (
                    format!("Team standings of stage {}", s.stage),
                    format!("team-standings-stage-{}", s.stage),
                    Ok(team_standings_csv(&s)),
                ),
                Err(why) => (String::new(), String::new(), Err(why.to_string())),
            },
            TeamView::Boards => (
                "Board prizes".to_string(),
                "board-prizes".to_string(),
                Ok(board_prizes_csv(&e.board_prizes())),
            ),
            TeamView::Final => (
                "Final placement".to_string(),
                "final-placement".to_string(),
                e.final_placement()
                    .map(|rows| team_placement_csv(&rows))
                    .map_err(|x| x.to_string()),
            ),
        };
        let r = text.and_then(|t| write_export(cx.store, &format!("{stem}-{name}.csv"), &t));
        if let Some(file) = cx.notices.report(r, "") {
            files::written(cx.notices, &format!("{what} (CSV)"), &file);
        }
    }
}

/// Each board's players in prize order (the team-match and board-group stages, not the
/// final): games, points, percentage.
fn boards_ui(ui: &mut Ui, e: &TeamEvent) {
    hint(
        ui,
        "Each board's players by percentage of the points they could score (forfeits count \
         as games, byes do not), then games, rating, lowest id.",
    );
    let prizes = e.board_prizes();
    if prizes.iter().all(|(_, rows)| rows.is_empty()) {
        ui.label(RichText::new("No board has been played yet.").weak());
        return;
    }
    for (board, rows) in &prizes {
        ui.add_space(6.0);
        ui.label(RichText::new(format!("Board {board}")).strong());
        egui::Grid::new(("board-prizes", *board))
            .striped(true)
            .num_columns(6)
            .spacing([16.0, 4.0])
            .show(ui, |ui| {
                for title in ["Place", "Player", "Team", "Games", "Points", "Percentage"] {
                    ui.label(RichText::new(title).weak());
                }
                ui.end_row();
                for (i, r) in rows.iter().enumerate() {
                    ui.label((i + 1).to_string());
                    ui.label(&r.name);
                    let team = r
                        .team
                        .and_then(|t| e.team(t))
                        .map_or_else(|| "-".to_string(), |t| t.name.clone());
                    ui.label(team);
                    ui.label(r.games.to_string());
                    ui.label(r.points.to_string());
                    ui.label(percentage(r.percentage_cents));
                    ui.end_row();
                }
            });
    }
}

/// The stage the team standings show unless another is chosen: the last stage with a round
/// paired (a stage that has not begun has nothing to rank yet), else the first.
fn shown_stage(e: &TeamEvent) -> u32 {
    let k = e
        .stages
        .iter()
        .rposition(|s| !s.rounds.is_empty() || !s.playoffs.is_empty())
        .unwrap_or(0);
    u32::try_from(k + 1).unwrap_or(1)
}

/// The event's final placement: the final's winner 1 and loser 2, then the teams out in
/// earlier stages; before the event is over, why not yet in the core's words.
fn placement_ui(ui: &mut Ui, e: &TeamEvent) {
    let rows = match e.final_placement() {
        Ok(rows) => rows,
        Err(why) => {
            hint(ui, &format!("No final placement yet: {why}."));
            return;
        }
    };
    hint(
        ui,
        "The final's winner first, its loser second, then the teams out in earlier stages by \
         those stages' team standings.",
    );
    egui::Grid::new("team-final-placement")
        .striped(true)
        .num_columns(3)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            for title in ["Place", "Team", "Placed in"] {
                ui.label(RichText::new(title).strong());
            }
            ui.end_row();
            for r in &rows {
                ui.label(RichText::new(r.place.to_string()).strong());
                ui.label(&r.name);
                let stage = e
                    .stages
                    .get(r.stage.saturating_sub(1))
                    .map_or_else(|| format!("Stage {}", r.stage), |s| s.name.clone());
                ui.label(stage);
                ui.end_row();
            }
        });
}
