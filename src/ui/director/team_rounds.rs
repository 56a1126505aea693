//! The Rounds page (F4) of a team event: the next round of matches paired by the core and
//! published; one card per match with its boards (each a table of its own, numbered as the
//! spec says), the running match score and a result per board; each team's line-up, its
//! default the first B roster players still in, checked as it is typed by the core's
//! line-up rule (its words shown), open until the round starts and a correction with a
//! reason after. The round's prints: its pairings by table (Ctrl+Shift+P, as for an event
//! of players), a match slip per match, and the captains' line-up sheets for the next round.

use super::{Watch, file_stem, next_step, result_long, result_short, state_badge, write_export};
use crate::store::{TeamRoundView, TournamentId};
use crate::ui::PageCtx;
use crate::ui::common::{self, LoadErrors, badge, fmt_local_time, labelled_text};
use crate::ui::files;
use egui::{Key, Modifiers, RichText, Ui};
use ggdesk_core::event::{BoardStatus, RoundState};
use ggdesk_core::export::team_print;
use ggdesk_core::teams::{
    MatchResult, MatchScore, TeamEvent, TeamId, TeamMatch, TeamStep, check_lineup,
};
use ggdesk_core::tournament::{GameResult, PlayerId, RoundNo, TableNo};
use std::collections::HashMap;

#[derive(Debug, Clone)]
enum Cmd {
    Pair,
    Publish(RoundNo),
    Discard(RoundNo),
    Start(RoundNo),
    Result(RoundNo, TableNo, GameResult),
    Lineup {
        round: RoundNo,
        match_no: usize,
        team: TeamId,
        lineup: Vec<Option<PlayerId>>,
        reason: String,
    },
    Print(RoundNo, TeamPrint),
    /// The line-up sheets of a round: its matches once published, else every team.
    PrintLineups(RoundNo, Vec<TeamMatch>),
    /// The next playoff game(s) with the captains' nominees named on the card.
    PairPlayoff(Vec<(TeamId, PlayerId)>),
    /// The result of playoff game (stage, game), both from 1.
    PlayoffResult(usize, usize, GameResult),
}

/// A print of a published round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamPrint {
    Pairings,
    Slips,
}

impl TeamPrint {
    fn title(self) -> &'static str {
        match self {
            TeamPrint::Pairings => "Team pairings",
            TeamPrint::Slips => "Match slips",
        }
    }

    fn file_part(self) -> &'static str {
        match self {
            TeamPrint::Pairings => "team-pairings",
            TeamPrint::Slips => "match-slips",
        }
    }
}

/// A line-up being typed: the match (from 1), the team and its boards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineupEdit {
    pub round: RoundNo,
    pub match_no: usize,
    pub team: TeamId,
    pub lineup: Vec<Option<PlayerId>>,
    pub reason: String,
}

/// The team event's rounds, as the Rounds page shows them.
#[derive(Default)]
pub struct TeamRoundsPage {
    /// The chosen tournament's team event (`None`: an event of players).
    pub event: Option<TeamEvent>,
    pub rounds: Vec<TeamRoundView>,
    /// The round shown (default: the last).
    pub shown: Option<RoundNo>,
    pub edit: Option<LineupEdit>,
    /// The captains' nominees chosen on the playoff card, not paired yet.
    pub nominees: Vec<(TeamId, PlayerId)>,
    /// The number the next round pairs as (after the playoff rounds too).
    next_no: Option<RoundNo>,
    /// The round the tables play and what is at the desk at each of its tables.
    desk: Option<(RoundNo, HashMap<TableNo, BoardStatus>)>,
    watch: Watch,
    load: LoadErrors,
    tid: Option<TournamentId>,
    queued: Vec<Cmd>,
}

/// The table of board `b` (from 0) of the match at table `t`: (t−1)×B + b + 1 (the core's).
pub fn board_table(t: u32, boards: usize, b: usize) -> TableNo {
    TableNo(ggdesk_core::teams::board_table(t, boards, b))
}

fn match_table(m: &TeamMatch, i: usize) -> u32 {
    m.table_or(i)
}

impl TeamRoundsPage {
    /// Reads the chosen tournament; true when it is a team event (this page draws it).
    pub fn is_team_event(&mut self, cx: &mut PageCtx<'_>, tid: TournamentId) -> bool {
        if self.tid != Some(tid) {
            self.tid = Some(tid);
            self.shown = None;
            self.edit = None;
            self.nominees.clear();
            self.watch.force();
        }
        if self.watch.stale(cx, Some(tid)) {
            let mut load = LoadErrors::default();
            self.event = load.check("the event", cx.store.team_event(tid)).flatten();
            self.rounds = if self.event.is_some() {
                load.check("the rounds", cx.store.team_rounds(tid))
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            self.next_no = if self.event.is_some() {
                load.check("the rounds", cx.store.next_team_round_no(tid))
            } else {
                None
            };
            self.desk = if self.event.is_some() {
                load.check("the tables", cx.store.tables_round(tid))
                    .and_then(|(_, r)| r)
                    .map(|r| {
                        let tables = r.boards.iter().map(|b| (b.table, b.status)).collect();
                        (r.number, tables)
                    })
            } else {
                None
            };
            if self
                .shown
                .is_some_and(|n| !self.rounds.iter().any(|r| r.number == n))
            {
                self.shown = None;
            }
            self.load = load;
        }
        self.event.is_some() || !self.load.is_empty()
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>, tid: TournamentId) {
        if self.load.banner(ui) {
            return;
        }
        let Some(event) = self.event.clone() else {
            return;
        };
        let shown = self.shown.or_else(|| self.rounds.last().map(|r| r.number));
        if !cx.typing
            && let Some(n) = shown
            && self
                .rounds
                .iter()
                .any(|r| r.number == n && r.state != RoundState::Draft)
            && ui.input_mut(|i| i.consume_key(Modifiers::COMMAND | Modifiers::SHIFT, Key::P))
        {
            self.queued.push(Cmd::Print(n, TeamPrint::Pairings));
        }
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                self.header(ui, &event);
                self.playoffs_ui(ui, &event);
                let shown = self.shown.or_else(|| self.rounds.last().map(|r| r.number));
                if let Some(r) = shown.and_then(|n| self.rounds.iter().find(|r| r.number == n)) {
                    let r = r.clone();
                    self.round_ui(ui, &event, &r);
                }
            });
        for cmd in std::mem::take(&mut self.queued) {
            self.apply(cmd, cx, tid);
        }
    }

    /// The rounds to choose from and what comes next.
    fn header(&mut self, ui: &mut Ui, e: &TeamEvent) {
        ui.horizontal(|ui| {
            ui.heading("Rounds");
            ui.label(RichText::new(format!("{} (team event)", e.name)).weak());
            ui.separator();
            for r in &self.rounds {
                let chosen = self
                    .shown
                    .unwrap_or_else(|| self.rounds.last().map_or(r.number, |l| l.number))
                    == r.number;
                if ui
                    .selectable_label(chosen, format!("Round {}", r.number))
                    .clicked()
                {
                    self.shown = Some(r.number);
                    self.edit = None;
                }
            }
            ui.separator();
            // Line-up sheets only for a round of matches to come (board groups, the final
            // and a playoff have none, nor has an event that is over).
            if let Some((n, matches)) = self.lineup_round(e) {
                let words = if matches.is_empty() {
                    format!("Round {n}: a sheet for every team, its roster with a box per board")
                } else {
                    format!("Round {n}: a sheet for each team that plays, naming its opponent")
                };
                if ui
                    .button("Print line-up sheets")
                    .on_hover_text(format!("{words}; opened in the browser"))
                    .clicked()
                {
                    self.queued.push(Cmd::PrintLineups(n, matches));
                }
            }
        });
        if let Some(d) = self.rounds.iter().find(|r| r.state == RoundState::Draft) {
            next_step(
                ui,
                &format!(
                    "check round {} and publish it (or discard the draft)",
                    d.number
                ),
            );
            return;
        }
        let what = match e.next_step() {
            Ok(TeamStep::Matches {
                stage,
                matches,
                byes,
                ..
            }) => Ok((
                stage,
                format!(
                    "{} matches{}",
                    matches.len(),
                    if byes.is_empty() { "" } else { " and a bye" }
                ),
            )),
            Ok(TeamStep::BoardGroups { stage, games, .. }) => {
                Ok((stage, format!("{} games in the board groups", games.len())))
            }
            Ok(TeamStep::Final { stage, games, .. }) => {
                Ok((stage, format!("{} games of the final", games.len())))
            }
            Ok(TeamStep::Playoff { stage, .. }) => {
                next_step(
                    ui,
                    &format!(
                        "{}: name each captain's nominee and pair the game on the card below",
                        playoff_title(e, stage)
                    ),
                );
                return;
            }
            Err(why) => Err(why.to_string()),
        };
        match what {
            Ok((stage, words)) => {
                let name = e.stages.get(stage - 1).map_or("", |s| s.name.as_str());
                ui.horizontal(|ui| {
                    if ui
                        .button(
                            RichText::new(format!(
                                "Pair round {}",
                                self.next_no.map_or_else(
                                    || self.rounds.last().map_or(1, |r| r.number.0 + 1),
                                    |n| n.0
                                )
                            ))
                            .strong(),
                        )
                        .clicked()
                    {
                        self.queued.push(Cmd::Pair);
                    }
                    ui.label(RichText::new(format!("{name}: {words}")).weak());
                });
            }
            Err(why) => {
                ui.label(RichText::new(format!("No round to pair: {why}")).weak());
            }
        }
    }

    /// Each stage's playoff, while it is to be paired or once it has games: a card with its
    /// games and their results, and for the next games a nominee picker per team (a team
    /// that played off keeps its nominee) and the button that pairs them.
    fn playoffs_ui(&mut self, ui: &mut Ui, e: &TeamEvent) {
        let next = match e.next_step() {
            Ok(TeamStep::Playoff { stage, games }) => Some((stage, games)),
            _ => None,
        };
        for (k, st) in e.stages.iter().enumerate() {
            let stage = k + 1;
            let step = next.as_ref().filter(|(s, _)| *s == stage).map(|(_, g)| g);
            if st.playoffs.is_empty() && step.is_none() {
                continue;
            }
            ui.add_space(4.0);
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.set_width(ui.available_width());
                ui.label(RichText::new(playoff_title(e, stage)).strong().size(16.0));
                super::hint(
                    ui,
                    "The teams level across the line play off: each captain names one player \
                     of the team, who plays for it until the playoff ends (two teams: single \
                     games, colours alternating, until one is won).",
                );
                self.playoff_games_ui(ui, e, stage);
                if let Some(games) = step {
                    self.nominees_ui(ui, e, stage, games);
                }
            });
        }
    }

    /// The playoff games of stage `stage` played or in play, a result menu each.
    fn playoff_games_ui(&mut self, ui: &mut Ui, e: &TeamEvent, stage: usize) {
        let Some(st) = e.stages.get(stage - 1) else {
            return;
        };
        let with_team = |p: PlayerId| {
            let team = e
                .team_of(p)
                .map_or_else(String::new, |t| format!(" ({})", Self::team_name(e, t)));
            format!("{}{team}", Self::player_name(e, Some(p)))
        };
        egui::Grid::new(("team-playoff", stage))
            .striped(true)
            .num_columns(4)
            .spacing([14.0, 4.0])
            .show(ui, |ui| {
                for (i, g) in st.playoffs.iter().enumerate() {
                    let game = i + 1;
                    ui.label(format!("Playoff game {game}"));
                    ui.label(format!("White: {}", with_team(g.white)));
                    ui.label(format!("Black: {}", with_team(g.black)));
                    let mut value = g.result;
                    egui::ComboBox::from_id_salt(("team-playoff-result", stage, game))
                        .selected_text(result_short(g.result))
                        .width(150.0)
                        .show_ui(ui, |ui| {
                            for res in GameResult::ALL {
                                ui.selectable_value(&mut value, res, result_long(res));
                            }
                        })
                        .response
                        .accessible_name(format!("Result of playoff game {game} of stage {stage}"));
                    if value != g.result {
                        self.queued.push(Cmd::PlayoffResult(stage, game, value));
                    }
                    ui.end_row();
                }
            });
    }

    /// The next playoff games: each team's nominee (chosen, or fixed by an earlier game)
    /// and the button that pairs them once every team has one.
    fn nominees_ui(
        &mut self,
        ui: &mut Ui,
        e: &TeamEvent,
        stage: usize,
        games: &[(TeamId, TeamId, Option<PlayerId>, Option<PlayerId>)],
    ) {
        let boards = e.settings.boards;
        let mut ready = true;
        egui::Grid::new(("team-playoff-next", stage))
            .num_columns(2)
            .spacing([14.0, 4.0])
            .show(ui, |ui| {
                for (white, black, wn, bn) in games {
                    ui.label(
                        RichText::new(format!(
                            "Next game: {} (white) – {} (black)",
                            Self::team_name(e, *white),
                            Self::team_name(e, *black)
                        ))
                        .strong(),
                    );
                    ui.end_row();
                    for (team, known) in [(*white, *wn), (*black, *bn)] {
                        let name = Self::team_name(e, team);
                        let label = ui.label(format!("Nominee of {name}:"));
                        if let Some(p) = known {
                            ui.label(format!(
                                "{} (named in an earlier playoff game)",
                                Self::player_name(e, Some(p))
                            ));
                            ui.end_row();
                            continue;
                        }
                        let chosen = self
                            .nominees
                            .iter()
                            .find(|(t, _)| *t == team)
                            .map(|(_, p)| *p);
                        ready &= chosen.is_some();
                        let mut value = chosen;
                        let roster = e.team(team).map(|t| t.roster.clone()).unwrap_or_default();
                        egui::ComboBox::from_id_salt(("team-playoff-nominee", stage, team.0))
                            .selected_text(chosen.map_or_else(
                                || "(choose a player)".to_string(),
                                |p| Self::player_name(e, Some(p)),
                            ))
                            .width(220.0)
                            .show_ui(ui, |ui| {
                                for (k, p) in roster.iter().enumerate() {
                                    if e.player(*p).is_some_and(|x| x.withdrawn) {
                                        continue;
                                    }
                                    let place = super::teams::place_words(boards, k);
                                    let player = Self::player_name(e, Some(*p));
                                    ui.selectable_value(
                                        &mut value,
                                        Some(*p),
                                        format!("{player} ({place})"),
                                    );
                                }
                            })
                            .response
                            .labelled_by(label.id);
                        if value != chosen
                            && let Some(p) = value
                        {
                            self.nominees.retain(|(t, _)| *t != team);
                            self.nominees.push((team, p));
                        }
                        ui.end_row();
                    }
                }
            });
        let words = if games.len() == 1 {
            "Pair the playoff game"
        } else {
            "Pair the playoff games"
        };
        let pair = ui
            .add_enabled(ready, egui::Button::new(RichText::new(words).strong()))
            .on_disabled_hover_text("Name every team's nominee first");
        if pair.clicked() {
            // Only the nominees of the teams that play these games.
            let nominees = self
                .nominees
                .iter()
                .filter(|(t, _)| games.iter().any(|g| g.0 == *t || g.1 == *t))
                .copied()
                .collect();
            self.queued.push(Cmd::PairPlayoff(nominees));
        }
    }

    /// The round the captains' line-up sheets are for: a published round not started yet
    /// (its matches known), else the next round to pair.
    /// `None` when no round of matches is to come (board groups, the final or a playoff
    /// next, or the event over).
    fn lineup_round(&self, e: &TeamEvent) -> Option<(RoundNo, Vec<TeamMatch>)> {
        if let Some(r) = self.rounds.iter().find(|r| {
            r.state == RoundState::Published && r.starts_at.is_none() && !r.round.matches.is_empty()
        }) {
            return Some((r.number, r.round.matches.clone()));
        }
        match self.rounds.last() {
            Some(r) if r.state == RoundState::Draft => {
                (!r.round.matches.is_empty()).then(|| (r.number, Vec::new()))
            }
            // While a round is in play, the sheets are for the one after it.
            _ => e.matches_to_come().then(|| {
                let next = self
                    .next_no
                    .unwrap_or_else(|| RoundNo(self.rounds.last().map_or(1, |r| r.number.0 + 1)));
                (next, Vec::new())
            }),
        }
    }

    fn round_ui(&mut self, ui: &mut Ui, e: &TeamEvent, r: &TeamRoundView) {
        let n = r.number;
        // Board groups and the final play games between players, with no line-ups.
        let lineups = !r.round.matches.is_empty() || r.round.games.is_empty();
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            let stage = e.stages.get(r.stage - 1).map_or("", |s| s.name.as_str());
            ui.label(
                RichText::new(format!("Round {n} · {stage}"))
                    .strong()
                    .size(16.0),
            );
            let (word, color) = state_badge(r.state);
            badge(ui, word, color);
            match (r.state, r.starts_at) {
                (RoundState::Draft, _) => {
                    if ui
                        .button(RichText::new(format!("Publish round {n}")).strong())
                        .clicked()
                    {
                        self.queued.push(Cmd::Publish(n));
                    }
                    if ui.button("Discard the draft").clicked() {
                        self.queued.push(Cmd::Discard(n));
                    }
                }
                // A round complete without an official start (an imported one) is over.
                (RoundState::Complete, None) => {}
                (_, None) => {
                    let start = ui.button(RichText::new("Start the round").strong());
                    let start = if lineups {
                        start.on_hover_text(
                            "The line-ups are fixed from now: a change is a correction",
                        )
                    } else {
                        start.on_hover_text("Marks the official start of the round's games")
                    };
                    if start.clicked() {
                        self.queued.push(Cmd::Start(n));
                    }
                    if lineups {
                        ui.label(RichText::new("line-ups are open until the round starts").weak());
                    }
                }
                (_, Some(at)) => {
                    let words = if lineups {
                        format!(
                            "started {}: a line-up changed now is a correction with its reason",
                            fmt_local_time(at)
                        )
                    } else {
                        format!("started {}", fmt_local_time(at))
                    };
                    ui.label(RichText::new(words).weak());
                }
            }
        });
        if r.state != RoundState::Draft {
            ui.horizontal(|ui| {
                for (label, what, hover) in [
                    (
                        "Print pairings",
                        TeamPrint::Pairings,
                        "Ctrl+Shift+P: every match's boards by table; opened in the browser",
                    ),
                    (
                        "Print match slips",
                        TeamPrint::Slips,
                        "One slip per match: its boards, result boxes, both captains' and the \
                         arbiter's signatures",
                    ),
                ] {
                    if ui.button(label).on_hover_text(hover).clicked() {
                        self.queued.push(Cmd::Print(n, what));
                    }
                }
            });
        }
        if !r.round.byes.is_empty() {
            let names: Vec<String> = r
                .round
                .byes
                .iter()
                .map(|t| e.team(*t).map_or_else(|| t.to_string(), |x| x.name.clone()))
                .collect();
            ui.label(format!("Bye: {}", names.join(", ")));
        }
        for (i, m) in r.round.matches.iter().enumerate() {
            self.match_card(ui, e, r, (i, m));
            ui.add_space(4.0);
        }
        if !r.round.games.is_empty() {
            self.games_ui(ui, e, r);
        }
    }

    /// A round of board groups or of the final: its games, each at its table; in the final,
    /// the two teams' game points so far.
    fn games_ui(&mut self, ui: &mut Ui, e: &TeamEvent, r: &TeamRoundView) {
        if let Some(words) = final_score_words(e, r.stage) {
            ui.label(RichText::new(words).strong());
        }
        let with_team = |p: PlayerId| {
            let team = e
                .team_of(p)
                .map_or_else(String::new, |t| format!(" ({})", Self::team_name(e, t)));
            format!("{}{team}", Self::player_name(e, Some(p)))
        };
        egui::Grid::new(("team-games", r.number))
            .striped(true)
            .num_columns(5)
            .spacing([14.0, 4.0])
            .show(ui, |ui| {
                for (i, g) in r.round.games.iter().enumerate() {
                    let table = TableNo(
                        g.table
                            .unwrap_or_else(|| u32::try_from(i + 1).unwrap_or(u32::MAX)),
                    );
                    match g.board {
                        Some(b) => ui.label(format!("Group B{b} · table {table}")),
                        None => ui.label(format!("Table {table}")),
                    };
                    ui.label(format!("White: {}", with_team(g.white)));
                    ui.label(format!("Black: {}", with_team(g.black)));
                    if r.state == RoundState::Draft {
                        ui.label(result_short(g.result));
                    } else {
                        self.result_menu(ui, r.number, table, g.result);
                    }
                    self.at_the_desk(ui, r.number, table);
                    ui.end_row();
                }
            });
    }

    /// What the desk is doing at `table` of round `n`, when a game is under way there.
    fn at_the_desk(&self, ui: &mut Ui, n: RoundNo, table: TableNo) {
        let status = self
            .desk
            .as_ref()
            .filter(|(round, _)| *round == n)
            .and_then(|(_, tables)| tables.get(&table));
        let words = match status {
            Some(BoardStatus::SettingUp) => "setting up at the table",
            Some(BoardStatus::Playing) => "playing at the table",
            Some(BoardStatus::Adjudication) => "adjudication: reading sheets",
            _ => "",
        };
        ui.label(RichText::new(words).color(common::GREEN));
    }

    /// The result of the game at `table`, as a menu named for its table.
    fn result_menu(&mut self, ui: &mut Ui, n: RoundNo, table: TableNo, result: GameResult) {
        let mut value = result;
        egui::ComboBox::from_id_salt(("team-result", n, table.0))
            .selected_text(result_short(result))
            .width(150.0)
            .show_ui(ui, |ui| {
                for res in GameResult::ALL {
                    ui.selectable_value(&mut value, res, result_long(res));
                }
            })
            .response
            .accessible_name(format!("Result of table {table}"));
        if value != result {
            self.queued.push(Cmd::Result(n, table, value));
        }
    }

    fn team_name(e: &TeamEvent, t: TeamId) -> String {
        e.team(t).map_or_else(|| t.to_string(), |x| x.name.clone())
    }

    fn player_name(e: &TeamEvent, p: Option<PlayerId>) -> String {
        p.map_or_else(
            || "(empty)".to_string(),
            |p| {
                e.player(p)
                    .map_or_else(|| p.to_string(), |x| x.name.clone())
            },
        )
    }

    /// One match: its score so far, its boards with their results, its line-ups.
    fn match_card(
        &mut self,
        ui: &mut Ui,
        e: &TeamEvent,
        r: &TeamRoundView,
        (i, m): (usize, &TeamMatch),
    ) {
        let boards = e.settings.boards;
        let t = match_table(m, i);
        let score = MatchScore::of(m, &e.points, &e.settings.match_points);
        let (home, away) = (Self::team_name(e, m.home), Self::team_name(e, m.away));
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format!(
                        "Match {} · {home} {} – {} {away}",
                        i + 1,
                        score.game_points.0,
                        score.game_points.1
                    ))
                    .strong(),
                );
                let verdict = match score.result {
                    MatchResult::Pending => None,
                    MatchResult::HomeWins => Some(format!("{home} win the match")),
                    MatchResult::AwayWins => Some(format!("{away} win the match")),
                    MatchResult::Drawn => Some("match drawn".to_string()),
                };
                match verdict {
                    Some(v) => {
                        badge(ui, &v, common::BLUE);
                    }
                    // A draft is not played yet.
                    None if r.state != RoundState::Draft => {
                        badge(ui, "in play", common::GREEN);
                    }
                    None => {}
                }
            });
            egui::Grid::new(("team-match", r.number, i))
                .num_columns(5)
                .spacing([14.0, 4.0])
                .show(ui, |ui| {
                    for (b, g) in m.boards.iter().enumerate() {
                        let table = board_table(t, boards, b);
                        ui.label(format!("Board {} · table {table}", b + 1));
                        ui.label(format!("White: {}", Self::player_name(e, g.white)));
                        ui.label(format!("Black: {}", Self::player_name(e, g.black)));
                        if g.white.is_some() && g.black.is_some() && r.state != RoundState::Draft {
                            self.result_menu(ui, r.number, table, g.result);
                        } else {
                            ui.label(result_short(g.result));
                        }
                        self.at_the_desk(ui, r.number, table);
                        ui.end_row();
                    }
                });
            if r.state == RoundState::Complete && r.starts_at.is_none() {
                return;
            }
            ui.horizontal(|ui| {
                for team in [m.home, m.away] {
                    let label = format!("Line-up of {}", Self::team_name(e, team));
                    if ui.button(label).clicked() {
                        let (h, a): (Vec<_>, Vec<_>) = (0..boards)
                            .map(|b| m.sides(b).unwrap_or((None, None)))
                            .unzip();
                        self.edit = Some(LineupEdit {
                            round: r.number,
                            match_no: i + 1,
                            team,
                            lineup: if team == m.home { h } else { a },
                            reason: String::new(),
                        });
                    }
                }
            });
            if let Some(edit) = &mut self.edit
                && edit.round == r.number
                && edit.match_no == i + 1
                && let Some(cmd) = lineup_ui(ui, e, edit, r.starts_at.is_some())
            {
                self.queued.push(cmd);
            }
        });
    }

    /// Writes a print of the event into the exports folder and opens it to print.
    fn print(&self, cx: &mut PageCtx<'_>, tid: TournamentId, cmd: &Cmd) {
        let Some(e) = &self.event else { return };
        let r = cx
            .store
            .tournament_details(tid)
            .map_err(|x| x.to_string())
            .and_then(|d| {
                let (n, part, html) = match cmd {
                    Cmd::Print(n, what) => {
                        let round = &self
                            .rounds
                            .iter()
                            .find(|r| r.number == *n)
                            .ok_or_else(|| format!("round {n} has not been paired"))?
                            .round;
                        let html = match what {
                            TeamPrint::Pairings => team_print::team_pairings(&d, e, n.0, round),
                            TeamPrint::Slips => team_print::match_slips(&d, e, n.0, round),
                        };
                        (*n, what.file_part(), html)
                    }
                    Cmd::PrintLineups(n, matches) => (
                        *n,
                        "lineup-sheets",
                        team_print::lineup_sheets(&d, e, n.0, matches),
                    ),
                    _ => return Err("nothing to print".to_string()),
                };
                let name = format!("{}-round-{n}-{part}.html", file_stem(&e.name));
                write_export(cx.store, &name, &html)
            });
        let what = match cmd {
            Cmd::Print(_, what) => what.title(),
            _ => "Line-up sheets",
        };
        if let Some(file) = cx.notices.report(r, "") {
            files::print_page(cx.notices, cx.launcher, what, &file);
        }
    }

    fn apply(&mut self, cmd: Cmd, cx: &mut PageCtx<'_>, tid: TournamentId) {
        let actor = cx.actor();
        match cmd {
            Cmd::Print(..) | Cmd::PrintLineups(..) => {
                self.print(cx, tid, &cmd);
                return;
            }
            Cmd::Pair => {
                let r = cx.store.pair_team_round(tid, &actor);
                if let Some(n) = cx.notices.report(r, "") {
                    cx.notices.info(format!(
                        "Round {n} paired as a draft: check it and publish it"
                    ));
                    self.shown = Some(n);
                }
            }
            Cmd::Publish(n) => {
                let games = self
                    .rounds
                    .iter()
                    .find(|r| r.number == n)
                    .is_some_and(|r| r.round.matches.is_empty() && !r.round.games.is_empty());
                let r = cx.store.publish_team_round(tid, n, &actor);
                cx.notices.report(
                    r,
                    &if games {
                        format!("Round {n} published: start it when its games begin")
                    } else {
                        format!("Round {n} published: line-ups are open until it starts")
                    },
                );
            }
            Cmd::Discard(n) => {
                let r = cx.store.discard_team_draft(tid, n, &actor);
                if cx
                    .notices
                    .report(r, &format!("Draft of round {n} discarded"))
                    .is_some()
                {
                    self.shown = None;
                }
            }
            Cmd::Start(n) => {
                let r = cx.store.start_team_round(tid, n, &actor);
                cx.notices.report(r, &format!("Round {n} started"));
            }
            Cmd::Result(n, table, result) => {
                let r = cx
                    .store
                    .set_team_board_result(tid, n, table, result, &actor);
                cx.notices.report(r, "");
            }
            Cmd::PairPlayoff(nominees) => {
                let r = cx.store.pair_team_playoff(tid, &nominees, &actor);
                if cx
                    .notices
                    .report(r, "Playoff paired: enter its result")
                    .is_some()
                {
                    self.nominees.clear();
                }
            }
            Cmd::PlayoffResult(stage, game, result) => {
                let r = cx
                    .store
                    .set_team_playoff_result(tid, (stage, game), result, &actor);
                cx.notices.report(r, "");
            }
            Cmd::Lineup {
                round,
                match_no,
                team,
                lineup,
                reason,
            } => {
                let r = cx.store.set_team_lineup(
                    tid,
                    (round, match_no),
                    team,
                    &lineup,
                    &reason,
                    &actor,
                );
                if cx.notices.report(r, "Line-up saved").is_some() {
                    self.edit = None;
                }
            }
        }
        self.watch.force();
    }
}

/// A playoff card's title: the cut of a stage, or the final's tie.
pub fn playoff_title(e: &TeamEvent, stage: usize) -> String {
    if e.is_final_playoff(stage) {
        "Final tie: playoff".to_string()
    } else {
        format!("Playoff at the cut of stage {stage}")
    }
}

/// A team's line-up being typed: one choice per board, checked as typed by the core's
/// rule; after the start, the reason of the correction. Returns the command to save it.
fn lineup_ui(ui: &mut Ui, e: &TeamEvent, edit: &mut LineupEdit, started: bool) -> Option<Cmd> {
    let team = e.team(edit.team)?;
    let boards = e.settings.boards;
    ui.separator();
    ui.label(RichText::new(format!("Line-up of {}", team.name)).strong());
    egui::Grid::new(("lineup", edit.round, edit.match_no, edit.team.0))
        .num_columns(2)
        .show(ui, |ui| {
            for b in 0..boards {
                let label = ui.label(format!("{}, board {}:", team.name, b + 1));
                let chosen = edit.lineup.get(b).copied().flatten();
                let mut value = chosen;
                egui::ComboBox::from_id_salt(("lineup-board", edit.match_no, edit.team.0, b))
                    .selected_text(TeamRoundsPage::player_name(e, chosen))
                    .width(220.0)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut value, None, "(empty)");
                        for (k, p) in team.roster.iter().enumerate() {
                            let place = super::teams::place_words(boards, k);
                            let name = TeamRoundsPage::player_name(e, Some(*p));
                            ui.selectable_value(&mut value, Some(*p), format!("{name} ({place})"));
                        }
                    })
                    .response
                    .labelled_by(label.id);
                if value != chosen
                    && let Some(slot) = edit.lineup.get_mut(b)
                {
                    *slot = value;
                }
                ui.end_row();
            }
        });
    let check = check_lineup(e, edit.team, &edit.lineup);
    match &check {
        Ok(()) => {
            ui.label(RichText::new("The line-up follows the roster order").color(common::GREEN));
        }
        Err(why) => {
            ui.label(RichText::new(why.to_string()).color(common::RED));
        }
    }
    if started {
        labelled_text(ui, "Reason for the correction:", &mut edit.reason, 300.0);
    }
    let ready = check.is_ok() && (!started || !edit.reason.trim().is_empty());
    let save = ui
        .add_enabled(
            ready,
            egui::Button::new(RichText::new(format!("Save the line-up of {}", team.name)).strong()),
        )
        .clicked();
    save.then(|| Cmd::Lineup {
        round: edit.round,
        match_no: edit.match_no,
        team: edit.team,
        lineup: edit.lineup.clone(),
        reason: edit.reason.clone(),
    })
}

/// The final's score so far, `The final so far: Tigers 3 – 3 Eagles` (game points over its
/// rounds, the home team first), or the winner once every round has its result. `None`
/// outside a Scheveningen final.
pub fn final_score_words(e: &TeamEvent, stage: usize) -> Option<String> {
    let st = e.stages.get(stage.checked_sub(1)?)?;
    if st.system != ggdesk_core::teams::TeamSystem::Scheveningen {
        return None;
    }
    let s = e.team_standings(Some(u32::try_from(stage).ok()?)).ok()?;
    // The home team has white at table 1 of the final's first round.
    let home = e.team_of(st.rounds.first()?.games.first()?.white)?;
    let h = s.rows.iter().find(|r| r.team == home)?;
    let a = s.rows.iter().find(|r| r.team != home)?;
    let played = st.rounds.len() == e.settings.boards && st.rounds.iter().all(|r| r.is_complete());
    let score = format!(
        "{} {} – {} {}",
        h.name, h.game_points, a.game_points, a.name
    );
    Some(if !played {
        format!("The final so far: {score}")
    } else if h.game_points == a.game_points {
        format!("The final ended level, {score}: the captains' playoff decides it")
    } else {
        let winner = if h.game_points > a.game_points { h } else { a };
        format!("The final is over, {score}: {} win the event", winner.name)
    })
}
