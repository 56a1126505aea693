//! The director's desk: players registry, tournaments, registration, rounds with their
//! pairings and results, standings. One module per page; each page draws, queues commands,
//! and applies them through the store after drawing (one transaction each).

pub mod bracket;
pub mod csv_preview;
pub mod players;
pub mod registration;
pub mod rounds;
pub mod standings;
pub mod team_rounds;
pub mod team_standings;
pub mod teams;
pub mod tournaments;

use super::PageCtx;
use super::common::{self, LoadErrors, badge};
use crate::store::Store;
use crate::store::TournamentId;
use egui::{Color32, RichText, Ui};
use ggdesk_core::event::{BoardStatus, Event, RoundState, RoundView};
use std::path::PathBuf;

/// Decides when a page reloads its data from the database: when the tournament changes,
/// when anything was written (the audit log grew), when the connection came back (a read
/// that failed offline is done again), after the page's own commands, and every two seconds
/// on a file (a game at the desk may have moved on).
#[derive(Debug, Default)]
pub struct Watch {
    key: Option<(Option<TournamentId>, i64)>,
    at_ms: i64,
    forced: bool,
}

impl Watch {
    /// True when the page should reload now.
    pub fn stale(&mut self, cx: &PageCtx<'_>, tournament: Option<TournamentId>) -> bool {
        let (stamp, now_ms) = (cx.stamp, cx.now_ms);
        let key = (tournament, stamp);
        if self.forced
            || self.key != Some(key)
            || (cx.poll && now_ms - self.at_ms >= 2000)
            || now_ms < self.at_ms
        {
            self.key = Some(key);
            self.at_ms = now_ms;
            self.forced = false;
            true
        } else {
            false
        }
    }

    /// Reload on the next frame.
    pub fn force(&mut self) {
        self.forced = true;
    }
}

/// The words for a result: the event's vocabulary.
pub use ggdesk_core::event::words::{result_long, result_short};

/// The status word and colour of a board.
pub fn status_badge(s: BoardStatus) -> (&'static str, Color32) {
    match s {
        BoardStatus::Finished => ("FINISHED", common::BLUE),
        BoardStatus::SettingUp => ("SETTING UP", common::GREEN),
        BoardStatus::Playing => ("PLAYING", common::GREEN),
        BoardStatus::Adjudication => ("ADJUDICATION", common::AMBER),
        BoardStatus::AwaitingResult => ("AWAITING RESULT", common::RED),
    }
}

/// The state word and colour of a round.
pub fn state_badge(s: RoundState) -> (&'static str, Color32) {
    match s {
        RoundState::Draft => ("DRAFT - not published", common::AMBER),
        RoundState::Published => ("PUBLISHED - in play", common::GREEN),
        RoundState::Complete => ("COMPLETE", common::BLUE),
    }
}

/// The round's counts as coloured badges: finished, playing, adjudication, awaiting result.
pub fn round_badges(ui: &mut Ui, view: &RoundView) {
    let [finished, playing, adjudication, awaiting] = view.counts();
    badge(ui, &format!("{playing} at the desk"), common::GREEN)
        .on_hover_text("Tables whose game is open at the arbiter desk (setting up or playing)");
    badge(ui, &format!("{finished} finished"), common::BLUE);
    if adjudication > 0 {
        badge(ui, &format!("{adjudication} adjudication"), common::AMBER);
    }
    let color = if awaiting > 0 {
        common::RED
    } else {
        Color32::GRAY
    };
    badge(ui, &format!("{awaiting} awaiting result"), color);
}

/// The line under the page buttons: the tournament chosen and where its round stands.
pub fn status_line(ui: &mut Ui, cx: &mut PageCtx<'_>, cache: &mut StatusCache) {
    if cx.store.is_on_station_api() {
        station_status(ui, cx, cache);
        return;
    }
    if cache.watch.stale(cx, *cx.tournament) {
        cache.reload(cx);
    }
    ui.horizontal(|ui| {
        let label = ui.label("Tournament:");
        let shown = cx
            .tournament
            .and_then(|t| cache.names.iter().find(|(id, _)| *id == t))
            .map_or_else(
                || "(none chosen)".to_string(),
                |(id, n)| display_name(*id, n),
            );
        let mut chosen = *cx.tournament;
        egui::ComboBox::from_id_salt("ggdesk-tournament")
            .selected_text(shown)
            .width(260.0)
            .show_ui(ui, |ui| {
                for (id, name) in &cache.names {
                    ui.selectable_value(&mut chosen, Some(*id), display_name(*id, name));
                }
            })
            .response
            .labelled_by(label.id);
        if chosen != *cx.tournament {
            *cx.tournament = chosen;
            cache.watch.force();
        }
        ui.separator();
        if !cache.load.is_empty() {
            ui.label(
                RichText::new(format!("Could not read {}", cache.load.joined()))
                    .color(common::RED)
                    .strong(),
            );
            return;
        }
        if let Some(team) = &cache.team {
            team_status(ui, team);
            return;
        }
        round_status(
            ui,
            (cache.round.as_ref(), cache.place.as_deref()),
            cache.registered,
            *cx.tournament,
            (cx.my_tables.is_some(), cache.staged, cache.over),
        );
    });
}

/// The status line of a station's desk on the event server's API: its tournament and the
/// round in play, as the server says.
fn station_status(ui: &mut Ui, cx: &mut PageCtx<'_>, cache: &mut StatusCache) {
    if cache.watch.stale(cx, *cx.tournament) {
        cache.load.clear();
        cache.names = cache
            .load
            .check("the tournament", cx.store.tournament_names())
            .unwrap_or_default();
        cache.station_round = cx.tournament.and_then(|t| {
            cache
                .load
                .check("the round in play", cx.store.playing_boards(t))
                .flatten()
                .map(|(r, _)| r)
        });
    }
    ui.horizontal(|ui| {
        let name = cache
            .names
            .first()
            .map_or_else(String::new, |(id, n)| display_name(*id, n));
        ui.label(format!("Tournament: {name}"));
        ui.separator();
        if !cache.load.is_empty() {
            ui.label(
                RichText::new(format!("Could not read {}", cache.load.joined()))
                    .color(common::RED)
                    .strong(),
            );
            return;
        }
        match cache.station_round {
            Some(r) => ui.label(RichText::new(format!("Round {r} in play")).strong()),
            None => ui.label("No round in play: the director publishes it"),
        };
    });
}

/// Where the chosen tournament's last round stands, in the status line.
fn round_status(
    ui: &mut Ui,
    (round, place): (Option<&RoundView>, Option<&str>),
    registered: usize,
    tournament: Option<TournamentId>,
    (station, staged, over): (bool, bool, bool),
) {
    match (round, tournament) {
        (_, None) if station => {
            ui.label(RichText::new("Choose a tournament in the list").weak());
        }
        (_, None) => {
            ui.label(
                RichText::new("Create or choose a tournament on the Tournaments page (F2)").weak(),
            );
        }
        (None, Some(_)) if station => {
            ui.label("No round published yet: the director publishes it");
        }
        (None, Some(_)) if registered < 2 => {
            ui.label(format!(
                "No round paired yet, {registered} registered: register the players (F3), \
                 then pair round 1 (F4)"
            ));
        }
        (None, Some(_)) => {
            ui.label(format!(
                "No round paired yet: {registered} players registered; pair round 1 on the \
                 Rounds page (F4)"
            ));
        }
        (Some(view), Some(_)) => {
            let (word, color) = state_badge(view.state);
            // An event in stages: the round's place beside its number, in the words of the
            // Rounds page and the bracket (`Stage 2 · Knockout · Semi-finals`).
            let place = match place {
                Some(words) if staged => format!(" ({words})"),
                _ => String::new(),
            };
            ui.label(RichText::new(format!("Round {}{place}", view.number)).strong());
            badge(ui, word, color);
            match view.state {
                RoundState::Draft => {
                    ui.label(RichText::new("check and publish it on the Rounds page (F4)").weak());
                }
                RoundState::Published => round_badges(ui, view),
                RoundState::Complete if over => {
                    ui.label(
                        RichText::new(
                            "the event is over: the final placement is on the Bracket page (F11)",
                        )
                        .weak(),
                    );
                }
                RoundState::Complete if staged => {
                    ui.label(
                        RichText::new(format!(
                            "all {} results in: the next step is on the Rounds page (F4)",
                            view.boards.len()
                        ))
                        .weak(),
                    );
                }
                RoundState::Complete => {
                    ui.label(
                        RichText::new(format!(
                            "all {} results in: pair the next round or see the standings",
                            view.boards.len()
                        ))
                        .weak(),
                    );
                }
            }
        }
    }
}

impl StatusCache {
    fn reload(&mut self, cx: &mut PageCtx<'_>) {
        let mut load = LoadErrors::default();
        self.names = load
            .check("the tournaments", cx.store.tournament_names())
            .unwrap_or_default();
        // On start, without a remembered choice, the newest tournament is the one at hand.
        if !self.started && load.is_empty() {
            self.started = true;
            if cx.tournament.is_none() {
                *cx.tournament = self.names.first().map(|(id, _)| *id);
            }
        }
        if let Some(t) = *cx.tournament
            && load.is_empty()
            && !self.names.iter().any(|(id, _)| *id == t)
        {
            *cx.tournament = None;
        }
        self.round = None;
        self.registered = 0;
        self.staged = false;
        self.over = false;
        self.place = None;
        self.team = None;
        if let Some(t) = *cx.tournament
            && let Some(e) = load.check("the event", cx.store.team_event(t)).flatten()
        {
            let rounds = load
                .check("the rounds", cx.store.team_rounds(t))
                .unwrap_or_default();
            self.team = Some(TeamStatus::of(&e, &rounds));
        }
        if let Some(t) = *cx.tournament
            && self.team.is_none()
            && load.is_empty()
            && let Some(event) = load.check("the event", cx.store.event(t))
        {
            self.staged = event.in_stages();
            self.over = event
                .staged()
                .is_some_and(ggdesk_core::stages::Event::is_over);
            // A station's desk follows the rounds published: a draft is the director's.
            let last = event
                .rounds()
                .iter()
                .rev()
                .find(|r| cx.my_tables.is_none() || r.state != RoundState::Draft);
            match last {
                Some(last) => {
                    cx.store.shown(&event, last.number);
                    self.round = event.round_view(last.number);
                    self.place = Some(event.place_words(last.number));
                }
                // Before round 1, the status line says whether the players are in.
                None => {
                    self.registered = event
                        .entrants()
                        .iter()
                        .filter(|e| !e.player.withdrawn)
                        .count();
                }
            }
        }
        self.load = load;
    }
}

/// Where a team event stands, in the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamStatus {
    teams: usize,
    players: usize,
    /// Teams with fewer players than the event's boards.
    short: usize,
    /// The last round: its number, state, whether it started, its games without a result.
    last: Option<(ggdesk_core::tournament::RoundNo, RoundState, bool, usize)>,
    /// The last round is one of board groups or of the final: games, no matches, no
    /// line-ups.
    games: bool,
    /// Why no round can be paired next, in the core's words (the event is over, …), as the
    /// Rounds page says it.
    no_next: Option<String>,
    /// What a playoff at hand asks of the director (its nominees, or a result).
    playoff: Option<String>,
}

impl TeamStatus {
    fn of(e: &ggdesk_core::teams::TeamEvent, rounds: &[crate::store::TeamRoundView]) -> TeamStatus {
        TeamStatus {
            teams: e.teams.len(),
            players: e.players.len(),
            short: e
                .teams
                .iter()
                .filter(|t| t.roster.len() < e.settings.boards)
                .count(),
            last: rounds.last().map(|r| {
                // A round of matches holds its games in the boards; one of board groups or
                // of the final, as games.
                let pending = r
                    .round
                    .matches
                    .iter()
                    .flat_map(|m| m.boards.iter().map(|b| b.result))
                    .chain(r.round.games.iter().map(|g| g.result))
                    .filter(|x| *x == ggdesk_core::tournament::GameResult::Pending)
                    .count();
                (r.number, r.state, r.starts_at.is_some(), pending)
            }),
            games: rounds
                .last()
                .is_some_and(|r| r.round.matches.is_empty() && !r.round.games.is_empty()),
            no_next: e.next_step().err().map(|why| why.to_string()),
            playoff: match e.next_step() {
                Ok(ggdesk_core::teams::TeamStep::Playoff { stage, .. }) => Some(format!(
                    "{}: name the captains' nominees and pair the playoff on the Rounds page \
                     (F4)",
                    if e.is_final_playoff(stage) {
                        "the final ended level".to_string()
                    } else {
                        format!("teams tie at the cut of stage {stage}")
                    }
                )),
                Err(why) if why.fault == ggdesk_core::teams::TeamFault::PlayoffWaiting => {
                    Some("a playoff game awaits its result on the Rounds page (F4)".to_string())
                }
                _ => None,
            },
        }
    }
}

/// The status line of a team event.
fn team_status(ui: &mut Ui, s: &TeamStatus) {
    let Some((n, state, started, pending)) = s.last else {
        let short = match s.short {
            0 => String::new(),
            1 => ", 1 team short of players".to_string(),
            n => format!(", {n} teams short of players"),
        };
        // Two teams or more, none short of players: round 1 can be paired.
        let next = if s.teams >= 2 && s.short == 0 {
            "pair round 1 on the Rounds page (F4)"
        } else {
            "build the teams on the Teams page (F12)"
        };
        ui.label(format!(
            "Team event, no round yet: {} teams, {} players{short}; {next}",
            s.teams, s.players
        ));
        return;
    };
    ui.label(RichText::new(format!("Team event · Round {n}")).strong());
    let (word, color) = state_badge(state);
    badge(ui, word, color);
    let next = match state {
        RoundState::Draft => "check and publish it on the Rounds page (F4)".to_string(),
        RoundState::Published if !started && s.games => {
            "start the round on the Rounds page (F4)".to_string()
        }
        RoundState::Published if !started => {
            "line-ups open: start the round on the Rounds page (F4)".to_string()
        }
        RoundState::Published => format!(
            "{pending} {} awaiting a result",
            match (s.games, pending) {
                (true, 1) => "game",
                (true, _) => "games",
                (false, 1) => "board",
                (false, _) => "boards",
            }
        ),
        RoundState::Complete if let Some(playoff) = &s.playoff => {
            format!("all results in; {playoff}")
        }
        RoundState::Complete => match &s.no_next {
            Some(why) => format!("all results in; no round to pair: {why}"),
            None => "all results in: pair the next round (F4)".to_string(),
        },
    };
    ui.label(RichText::new(next).weak());
}

/// What the status line keeps between frames.
#[derive(Debug, Default)]
pub struct StatusCache {
    /// The chosen tournament is a team event.
    team: Option<TeamStatus>,
    watch: Watch,
    started: bool,
    names: Vec<(TournamentId, String)>,
    round: Option<RoundView>,
    /// Players registered and not withdrawn, read while no round is paired.
    registered: usize,
    /// The tournament is an event in stages.
    staged: bool,
    /// An event in stages whose last stage is complete.
    over: bool,
    /// The place of the round shown, in words (an event in stages).
    place: Option<String>,
    load: LoadErrors,
    /// A station's desk on the API: the round in play, as the server says.
    station_round: Option<ggdesk_core::tournament::RoundNo>,
}

/// A tournament's name for lists (an imported file may have none).
pub fn display_name(id: TournamentId, name: &str) -> String {
    if name.trim().is_empty() {
        format!("Tournament {id} (no name)")
    } else {
        name.to_string()
    }
}

/// Asks for a tournament when none is chosen; true if one is.
pub fn need_tournament(ui: &mut Ui, cx: &mut PageCtx<'_>, title: &str) -> Option<TournamentId> {
    if let Some(t) = *cx.tournament {
        return Some(t);
    }
    ui.heading(title);
    ui.add_space(8.0);
    ui.label("No tournament is chosen. Create one, or choose one in the Tournament list above.");
    if ui.button("Open the Tournaments page (F2)").clicked() {
        *cx.goto = Some(super::Page::Tournaments);
    }
    None
}

/// Where the desk writes files for the director (pairing lists, standings): `exports/`
/// beside the database.
pub fn export_dir(store: &Store) -> PathBuf {
    store
        .path()
        .and_then(|p| p.parent().map(|d| d.join("exports")))
        .unwrap_or_else(|| PathBuf::from("exports"))
}

/// Writes a file into the exports folder; returns its path.
pub fn write_export(store: &Store, name: &str, text: &str) -> Result<PathBuf, String> {
    let dir = export_dir(store);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join(name);
    std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    Ok(file)
}

/// A file name made of letters, digits and dashes.
pub fn file_stem(text: &str) -> String {
    let s: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "tournament".into() } else { s }
}

/// A small grey line of help under a heading.
pub fn hint(ui: &mut Ui, text: &str) {
    ui.label(RichText::new(text).weak());
}

/// The mark of a required action: the next thing the director should do.
pub fn next_step(ui: &mut Ui, text: &str) {
    ui.label(
        RichText::new(format!("Next: {text}"))
            .color(common::AMBER)
            .strong(),
    );
}

/// The event of a tournament as a page reads it (`None` when it could not be read: the
/// failure is noted in `load` under the page's own words, `what`, so the banner says
/// what the director was looking at).
pub(crate) fn event_of(
    load: &mut LoadErrors,
    store: &Store,
    tid: TournamentId,
    what: &str,
) -> Option<Event> {
    load.check(what, store.event(tid))
}
