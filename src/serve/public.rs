//! What the public pages may show, as types that hold nothing else: the tournaments, their
//! players, who plays whom at which table, each table's state, results, scores, standings and
//! the cross-table. No type here has a place for a rank, a setup, a move, a reading sheet, a
//! challenge, a penalty's reason, a forbidden pair or a pairing explanation: the source copies
//! only these fields out of the store, so a page cannot show what it was never given.
//!
//! The rating list is the public views' rows as they are ([`PublicRatingRow`],
//! [`PublicRatingEvent`]): a rank, a federation id, names, numbers, events' names and dates.

use super::teams::TeamData;
pub use crate::store::{PublicRatingEvent, PublicRatingRow};
use crate::store::{PublicTeamEvent, TournamentSummary};
use ggdesk_core::event::words::{series_words, stage_format_after_name};
use ggdesk_core::event::{BoardStatus, RoundState, RoundView};
use ggdesk_core::export::print::sort_key;
use ggdesk_core::rules::Side;
use ggdesk_core::stages::{
    Event, GroupId, Match, MatchFormat, Placed, placement_json, stage_standings_json,
};
use ggdesk_core::tournament::{
    Entry, GameResult, Score, StageNo, StandingRow, Standings, System, TieBreak, Tournament,
    standings,
};
use std::collections::HashMap;

/// The event: every tournament in the database, newest first, and how many players the
/// rating list holds (its link is shown when there is one).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EventIndex {
    pub tournaments: Vec<TournamentLine>,
    pub rated_players: u32,
}

/// One tournament in the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentLine {
    pub id: i64,
    pub name: String,
    pub system: System,
    pub rounds_planned: Option<u32>,
    pub players: u32,
    /// The last round published (the one being played, or the last one played).
    pub round_in_play: Option<u32>,
    /// An event of stages: its stages' names in order; empty for one system.
    pub stages: Vec<String>,
    /// A team event (spec/teams.md).
    pub team: bool,
}

impl EventIndex {
    pub fn from_summaries(list: &[TournamentSummary], rated_players: u32) -> EventIndex {
        EventIndex {
            rated_players,
            tournaments: list
                .iter()
                .map(|s| TournamentLine {
                    id: s.id.0,
                    name: s.name.clone(),
                    system: s.system,
                    rounds_planned: s.rounds,
                    players: s.players,
                    round_in_play: (s.rounds_started > 0).then_some(s.rounds_started),
                    stages: s.stages.clone(),
                    team: s.team,
                })
                .collect(),
        }
    }

    pub fn contains(&self, id: i64) -> bool {
        self.tournaments.iter().any(|t| t.id == id)
    }
}

/// Where a table stands, as the hall may know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TableState {
    /// No result yet and no game under way at the desk.
    AwaitingResult,
    /// A game is under way at the desk.
    Playing,
    /// Game time ran out: the arbiter is adjudicating.
    Adjudication,
    /// The result is in.
    Finished,
}

impl TableState {
    pub fn code(self) -> &'static str {
        match self {
            TableState::AwaitingResult => "awaiting_result",
            TableState::Playing => "playing",
            TableState::Adjudication => "adjudication",
            TableState::Finished => "finished",
        }
    }

    /// A board no desk runs (a team event's, today): its result is in, or it is awaited.
    fn of_result(result: GameResult) -> TableState {
        if result == GameResult::Pending {
            TableState::AwaitingResult
        } else {
            TableState::Finished
        }
    }

    fn from_status(status: BoardStatus) -> TableState {
        match status {
            BoardStatus::Finished => TableState::Finished,
            // A public page knows no setup: the game is on at its table.
            BoardStatus::SettingUp | BoardStatus::Playing => TableState::Playing,
            BoardStatus::Adjudication => TableState::Adjudication,
            BoardStatus::AwaitingResult => TableState::AwaitingResult,
        }
    }
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicPlayer {
    pub no: u32,
    pub name: String,
    pub rating: i64,
    pub club: Option<String>,
    pub withdrawn: bool,
}

/// One board of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublicBoard {
    pub table: u32,
    pub white: u32,
    pub black: u32,
    pub result: GameResult,
    pub state: TableState,
    /// In an event of stages: the board's group (a grouped round robin or its playoff).
    pub group: Option<ggdesk_core::stages::GroupId>,
    /// In an event of stages: the board's match (a knockout).
    pub series: Option<ggdesk_core::stages::MatchId>,
}

impl PublicBoard {
    /// What the board belongs to in a staged round, in words: `Group A`, `Match 1.2`,
    /// `Third-place match`.
    pub fn part(&self) -> Option<String> {
        match (self.group, self.series) {
            (_, Some(m)) => Some(ggdesk_core::event::words::match_title(m)),
            (Some(g), None) => Some(format!("Group {g}")),
            (None, None) => None,
        }
    }
}

/// A round published or complete (a draft is never public).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicRound {
    pub number: u32,
    /// Every result is in.
    pub complete: bool,
    pub boards: Vec<PublicBoard>,
    pub byes: Vec<u32>,
    pub absent: Vec<u32>,
}

impl PublicRound {
    /// How many tables stand where: (awaiting result, playing, adjudication, finished).
    pub fn counts(&self) -> [usize; 4] {
        let mut c = [0; 4];
        for b in &self.boards {
            c[match b.state {
                TableState::AwaitingResult => 0,
                TableState::Playing => 1,
                TableState::Adjudication => 2,
                TableState::Finished => 3,
            }] += 1;
        }
        c
    }

    /// The board a player sits at, with their colour.
    pub fn board_of(&self, no: u32) -> Option<(&PublicBoard, Side)> {
        self.boards.iter().find_map(|b| {
            if b.white == no {
                Some((b, Side::White))
            } else if b.black == no {
                Some((b, Side::Black))
            } else {
                None
            }
        })
    }
}

/// What one round was for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerRound {
    pub round: u32,
    pub entry: Entry,
    /// The table, for a game.
    pub table: Option<u32>,
    /// The table's state, for a game.
    pub state: Option<TableState>,
    /// The player's score after this round, once the round's result is in for them.
    pub score_after: Option<Score>,
}

/// One tournament, everything its pages show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentData {
    pub id: i64,
    pub name: String,
    pub system: System,
    pub rounds_planned: Option<u32>,
    pub tiebreaks: Vec<TieBreak>,
    /// By player number.
    pub players: Vec<PublicPlayer>,
    /// Published and complete rounds, in order.
    pub rounds: Vec<PublicRound>,
    /// The standings after the last complete round (none when no round is complete).
    pub standings: Standings,
    /// The cross-table's cells, a row per line of `standings`, a cell per round counted.
    pub crosstable: Vec<Vec<Entry>>,
    /// Each player's rounds, indexed like `players`.
    pub history: Vec<Vec<PlayerRound>>,
    /// Each player's score after every round published, indexed like `players`.
    pub scores: Vec<Score>,
    /// An event of stages: its stages, groups, bracket and final placement (`None` for a
    /// tournament of one system, whose pages are the flat rounds' alone).
    pub staged: Option<StagedData>,
    /// A team event: its teams, matches, team standings and board prizes (`None` for an
    /// event of players). Its `rounds` are then every game over a board, by table, and it
    /// has no standings, cross-table or scores of players.
    pub teams: Option<TeamData>,
    index: HashMap<u32, usize>,
}

impl TournamentData {
    /// Builds the public view from the core model and the rounds as the store shows them
    /// (`views[k]` is round k + 1). Only names, numbers, results and states are copied.
    pub fn build(id: i64, t: &Tournament, views: &[RoundView]) -> TournamentData {
        let players = Self::public_players(t);
        let index: HashMap<u32, usize> =
            players.iter().enumerate().map(|(i, p)| (p.no, i)).collect();
        let rounds = Self::public_rounds(views);
        let played = t.rounds().len();
        let complete = t.completed_rounds();
        let table = standings(t, complete);
        let entries_all = t.entries(played);
        let crosstable = Self::crosstable(t, &table, &entries_all, complete);
        let (history, scores) = Self::histories(t, &index, &rounds, &entries_all, players.len());
        TournamentData {
            id,
            name: t.name().to_string(),
            system: t.settings().system,
            rounds_planned: t.planned_rounds(),
            tiebreaks: t.settings().tiebreaks.clone(),
            players,
            rounds,
            standings: table,
            crosstable,
            history,
            scores,
            staged: None,
            teams: None,
            index,
        }
    }

    /// Builds the public view of a team event from its public read: its players, every
    /// published round's games by table (as the pages of an event of players show a round),
    /// and its team pages' data. Only names, numbers and results are copied.
    pub fn team_event(id: i64, read: &PublicTeamEvent) -> TournamentData {
        let e = &read.event;
        let mut players: Vec<PublicPlayer> = e
            .players
            .iter()
            .map(|p| PublicPlayer {
                no: p.id.0,
                name: p.name.clone(),
                rating: p.rating,
                club: p.club.clone().filter(|c| !c.trim().is_empty()),
                withdrawn: p.withdrawn,
            })
            .collect();
        players.sort_by_key(|p| p.no);
        let index: HashMap<u32, usize> =
            players.iter().enumerate().map(|(i, p)| (p.no, i)).collect();
        let teams = TeamData::build(read);
        let rounds = teams
            .rounds
            .iter()
            .map(|r| {
                let mut boards: Vec<PublicBoard> = r
                    .matches
                    .iter()
                    .flat_map(|m| &m.boards)
                    .filter_map(|b| {
                        Some(PublicBoard {
                            table: b.table?,
                            white: b.white?,
                            black: b.black?,
                            result: b.result,
                            state: TableState::of_result(b.result),
                            group: None,
                            series: None,
                        })
                    })
                    .chain(r.games.iter().map(|g| PublicBoard {
                        table: g.table,
                        white: g.white,
                        black: g.black,
                        result: g.result,
                        state: TableState::of_result(g.result),
                        group: None,
                        series: None,
                    }))
                    .collect();
                boards.sort_by_key(|b| b.table);
                PublicRound {
                    number: r.number,
                    complete: r.complete(),
                    boards,
                    byes: Vec::new(),
                    absent: Vec::new(),
                }
            })
            .collect();
        let n = players.len();
        TournamentData {
            id,
            name: e.name.clone(),
            system: System::RoundRobin,
            rounds_planned: None,
            tiebreaks: Vec::new(),
            players,
            rounds,
            standings: Standings {
                after_round: 0,
                tiebreaks: Vec::new(),
                rows: Vec::new(),
            },
            crosstable: Vec::new(),
            history: vec![Vec::new(); n],
            scores: vec![Score::ZERO; n],
            staged: None,
            teams: Some(teams),
            index,
        }
    }

    /// The players as the pages show them, by number.
    fn public_players(t: &Tournament) -> Vec<PublicPlayer> {
        let mut players: Vec<PublicPlayer> = t
            .players()
            .iter()
            .map(|p| PublicPlayer {
                no: p.id.0,
                name: p.name.clone(),
                rating: p.rating,
                club: p.club.clone().filter(|c| !c.trim().is_empty()),
                withdrawn: p.withdrawn,
            })
            .collect();
        players.sort_by_key(|p| p.no);
        players
    }

    /// The published rounds (every round but a draft), with their boards' states.
    fn public_rounds(views: &[RoundView]) -> Vec<PublicRound> {
        views
            .iter()
            .filter(|v| v.state != RoundState::Draft)
            .map(|v| PublicRound {
                number: v.number.0,
                complete: v.boards.iter().all(|b| b.result != GameResult::Pending),
                boards: v
                    .boards
                    .iter()
                    .map(|b| PublicBoard {
                        table: b.table.0,
                        white: b.white.no.0,
                        black: b.black.no.0,
                        result: b.result,
                        state: TableState::from_status(b.status),
                        group: b.group,
                        series: b.series,
                    })
                    .collect(),
                byes: v.byes.iter().map(|(p, _)| p.no.0).collect(),
                absent: v.absent.iter().map(|p| p.no.0).collect(),
            })
            .collect()
    }

    /// The cross-table's cells: a row per line of the standings `table`, a cell per
    /// complete round.
    fn crosstable(
        t: &Tournament,
        table: &Standings,
        entries_all: &[Vec<Entry>],
        complete: usize,
    ) -> Vec<Vec<Entry>> {
        table
            .rows
            .iter()
            .map(|row| {
                t.player_index(row.id)
                    .and_then(|i| entries_all.get(i))
                    .map(|e| e[..complete.min(e.len())].to_vec())
                    .unwrap_or_default()
            })
            .collect()
    }

    /// Each player's rounds and score after every round played, indexed like the public
    /// players (`index`: player number to position among `player_count`).
    fn histories(
        t: &Tournament,
        index: &HashMap<u32, usize>,
        rounds: &[PublicRound],
        entries_all: &[Vec<Entry>],
        player_count: usize,
    ) -> (Vec<Vec<PlayerRound>>, Vec<Score>) {
        let played = t.rounds().len();
        // Scores after each round, indexed like the core's players.
        let by_round: Vec<Vec<Score>> = (1..=played).map(|r| t.scores(r)).collect();
        let mut history = vec![Vec::new(); player_count];
        let mut scores = vec![Score::ZERO; player_count];
        for (core_i, p) in t.players().iter().enumerate() {
            let Some(&i) = index.get(&p.id.0) else {
                continue;
            };
            scores[i] = by_round
                .last()
                .and_then(|s| s.get(core_i).copied())
                .unwrap_or(Score::ZERO);
            let entries = entries_all
                .get(core_i)
                .map(Vec::as_slice)
                .unwrap_or_default();
            history[i] = Self::player_rounds(p.id.0, core_i, entries, rounds, &by_round);
        }
        (history, scores)
    }

    /// What each round was for player `no` (the core's player `core_i`): their entry, the
    /// table and its state for a game, and their score after it once decided.
    fn player_rounds(
        no: u32,
        core_i: usize,
        entries: &[Entry],
        rounds: &[PublicRound],
        by_round: &[Vec<Score>],
    ) -> Vec<PlayerRound> {
        let mut list = Vec::new();
        for (r, entry) in entries.iter().enumerate() {
            let board = rounds.get(r).and_then(|round| round.board_of(no));
            let decided = !matches!(
                entry,
                Entry::Game {
                    outcome: ggdesk_core::tournament::GameOutcome::Pending,
                    ..
                }
            );
            list.push(PlayerRound {
                round: r as u32 + 1,
                entry: *entry,
                table: board.map(|(b, _)| b.table),
                state: board.map(|(b, _)| b.state),
                score_after: if decided {
                    by_round.get(r).and_then(|s| s.get(core_i).copied())
                } else {
                    None
                },
            });
        }
        list
    }

    /// A player by number.
    pub fn player(&self, no: u32) -> Option<&PublicPlayer> {
        self.index.get(&no).map(|&i| &self.players[i])
    }

    /// A player's rounds and score.
    pub fn record_of(&self, no: u32) -> Option<(&[PlayerRound], Score)> {
        let &i = self.index.get(&no)?;
        Some((self.history.get(i)?.as_slice(), *self.scores.get(i)?))
    }

    /// The name of a player by number (empty for an unknown number).
    pub fn name(&self, no: u32) -> &str {
        self.player(no).map_or("", |p| p.name.as_str())
    }

    /// The round the tables are playing: the last one published.
    pub fn round_in_play(&self) -> Option<&PublicRound> {
        self.rounds.last()
    }

    pub fn round(&self, number: u32) -> Option<&PublicRound> {
        self.rounds.iter().find(|r| r.number == number)
    }

    /// Rounds counted in the standings.
    pub fn complete_rounds(&self) -> usize {
        self.standings.after_round
    }

    /// The standings' rows with their cross-table cells, after the last complete round;
    /// none before the first round is complete.
    pub fn counted_rows(&self) -> impl Iterator<Item = (&StandingRow, &[Entry])> {
        let counted = if self.complete_rounds() == 0 {
            &[][..]
        } else {
            &self.standings.rows[..]
        };
        counted
            .iter()
            .zip(self.crosstable.iter().map(Vec::as_slice))
    }

    /// Players in alphabetical order as the wall printout has them ([`sort_key`]: case and
    /// accents do not count, then by number), those whose name or number matches `query`
    /// when one is given (a search without accents finds "Núñez").
    pub fn players_by_name(&self, query: Option<&str>) -> Vec<&PublicPlayer> {
        let needle = query
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .map(|q| (q, sort_key(q)));
        let mut list: Vec<(String, &PublicPlayer)> = self
            .players
            .iter()
            .map(|p| (sort_key(&p.name), p))
            .filter(|(key, p)| match &needle {
                None => true,
                Some((q, folded)) => key.contains(folded.as_str()) || p.no.to_string() == *q,
            })
            .collect();
        list.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.no.cmp(&b.1.no)));
        list.into_iter().map(|(_, p)| p).collect()
    }
}

/// Where a stage of an event stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageState {
    /// Not seeded yet: an earlier stage is still being played.
    NotSeeded,
    InPlay,
    /// Every round played (a knockout: every match decided).
    Complete,
}

impl StageState {
    pub fn code(self) -> &'static str {
        match self {
            StageState::NotSeeded => "not_seeded",
            StageState::InPlay => "in_play",
            StageState::Complete => "complete",
        }
    }
}

/// One line of a group's table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupRow {
    pub row: StandingRow,
    /// Goes on to the next stage (known once the stage is complete and, for this place,
    /// no playoff is still to decide it).
    pub through: bool,
    /// Shares the rank across the cut: plays (or played) off.
    pub playoff: bool,
}

/// A group's table (a stage without groups is one table, `group` none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupTable {
    pub group: Option<GroupId>,
    pub rows: Vec<GroupRow>,
}

/// A playoff game at a stage's cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayoffLine {
    pub group: Option<GroupId>,
    pub white: u32,
    pub black: u32,
    pub result: GameResult,
}

/// One stage of an event, as its pages show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageData {
    /// From 1.
    pub number: u32,
    pub name: String,
    /// How it is played, in words ("round robin in 2 groups, top 2 go on").
    pub format: String,
    /// `swiss`, `round_robin` or `knockout`, as the file names it.
    pub system: &'static str,
    pub knockout: bool,
    pub advance: Option<u32>,
    pub state: StageState,
    pub tiebreaks: Vec<TieBreak>,
    /// A round robin played in groups (its rows name their group).
    pub grouped: bool,
    /// The standings, group by group (none before the stage is seeded).
    pub tables: Vec<GroupTable>,
    /// The core's `standings --stage` JSON of the stage, once seeded.
    pub standings_json: Option<String>,
    /// The playoff games played or in play at the stage's cut, in order.
    pub playoffs: Vec<PlayoffLine>,
}

impl StageData {
    pub fn table(&self, group: GroupId) -> Option<&GroupTable> {
        self.tables
            .iter()
            .find(|t| t.group == Some(group) && self.grouped)
    }

    /// The stage's name, or its number when it has none.
    pub fn title(&self) -> String {
        if self.name.trim().is_empty() {
            format!("Stage {}", self.number)
        } else {
            self.name.clone()
        }
    }
}

/// A match of the bracket: its players (top first), games, series score and winner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchData {
    /// `1.1`, `2.1`, `3rd`.
    pub id: String,
    pub seeds: [Option<u32>; 2],
    /// `None` for a bye, or a player not known yet.
    pub players: [Option<u32>; 2],
    /// (white, black, result), the one in play last.
    pub games: Vec<(u32, u32, GameResult)>,
    /// Won games (points for a race), top first.
    pub score: [Score; 2],
    pub winner: Option<u32>,
    /// One player and no opponent: through without playing.
    pub bye: bool,
}

/// The knockout's bracket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BracketData {
    pub stage: u32,
    /// The series in words ("best of 3").
    pub series: String,
    /// Whether the score counts points (a race) rather than won games.
    pub points: bool,
    /// The bracket rounds begun, then the next one once any of its players is known.
    pub rounds: Vec<Vec<MatchData>>,
    pub third: Option<MatchData>,
}

/// An event of stages, everything its stage pages show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StagedData {
    pub stages: Vec<StageData>,
    /// The stage being played (the last one once the event is over), from 1.
    pub current: u32,
    pub over: bool,
    pub bracket: Option<BracketData>,
    /// The core's `bracket` JSON.
    pub bracket_json: Option<String>,
    /// The final placement, once the event is over.
    pub placement: Option<Vec<Placed>>,
    /// The core's `standings --final` JSON.
    pub placement_json: Option<String>,
}

fn match_data(m: &Match, format: MatchFormat) -> MatchData {
    let players = m.slots.map(|s| s.player.map(|p| p.0));
    MatchData {
        id: m.id.to_string(),
        seeds: m.slots.map(|s| s.seed),
        players,
        games: m
            .games
            .iter()
            .map(|g| (g.white.0, g.black.0, g.result))
            .collect(),
        score: m.series.score(format),
        winner: m.winner.map(|p| p.0),
        bye: matches!(players, [Some(_), None] | [None, Some(_)]) && m.winner.is_some(),
    }
}

impl StagedData {
    /// Copies out of the core's event what the stage pages show: the stages, their
    /// standings by group with the cut, the playoff games, the bracket and the final
    /// placement. Only names, numbers and results.
    pub fn build(event: &Event) -> StagedData {
        let stages = (0..event.settings().stages.len())
            .map(|k| Self::stage_data(event, k))
            .collect();
        let placement = event.final_placement().ok();
        StagedData {
            stages,
            current: event.current().stage.0,
            over: event.is_over(),
            bracket: Self::bracket_data(event),
            bracket_json: event.bracket_json(),
            placement_json: placement.as_deref().map(placement_json),
            placement,
        }
    }

    /// Stage `k` (from 0) as its pages show it: how it is played and, once seeded, its
    /// state, its playoff games and its standings.
    fn stage_data(event: &Event, k: usize) -> StageData {
        let spec = &event.settings().stages[k];
        let number = u32::try_from(k + 1).unwrap_or(u32::MAX);
        let format = stage_format_after_name(spec);
        let mut stage = StageData {
            number,
            name: spec.name.clone(),
            format,
            system: spec.format.system_name(),
            knockout: spec.format.is_knockout(),
            advance: spec.advance,
            state: StageState::NotSeeded,
            tiebreaks: spec.tiebreaks.clone(),
            grouped: false,
            tables: Vec::new(),
            standings_json: None,
            playoffs: Vec::new(),
        };
        let Some(r) = event.reached().get(k) else {
            return stage;
        };
        stage.state = if r.complete {
            StageState::Complete
        } else {
            StageState::InPlay
        };
        stage.grouped = r.grouped;
        stage.playoffs = event
            .play(k)
            .map(|p| {
                p.playoffs
                    .iter()
                    .map(|g| PlayoffLine {
                        group: g.group,
                        white: g.white.0,
                        black: g.black.0,
                        result: g.result,
                    })
                    .collect()
            })
            .unwrap_or_default();
        Self::fill_standings(&mut stage, event);
        stage
    }

    /// Puts a seeded stage's standings into `stage`: the core's JSON, the tie-breaks, and
    /// the tables group by group with the cut marked (nothing when the core has none).
    fn fill_standings(stage: &mut StageData, event: &Event) {
        let Ok(st) = event.stage_standings(Some(StageNo(stage.number))) else {
            return;
        };
        stage.standings_json = Some(stage_standings_json(&st));
        stage.tiebreaks = st.tiebreaks.clone();
        for (g, row) in st.rows {
            let group = st.grouped.then_some(g);
            if stage.tables.last().is_none_or(|t| t.group != group) {
                stage.tables.push(GroupTable {
                    group,
                    rows: Vec::new(),
                });
            }
            let Some(table) = stage.tables.last_mut() else {
                continue;
            };
            table.rows.push(GroupRow {
                row,
                through: false,
                playoff: false,
            });
        }
        // The cut, as the core marks it: who goes on, who plays (or played) off.
        let marks = event.cut_marks(StageNo(stage.number));
        for table in &mut stage.tables {
            for line in &mut table.rows {
                line.playoff = marks.tied.contains(&line.row.id);
                line.through = marks.through.contains(&line.row.id);
            }
        }
    }

    /// The bracket of the event's last knockout stage seeded: the bracket rounds begun,
    /// then the next one and the third-place match once any of their players is known.
    fn bracket_data(event: &Event) -> Option<BracketData> {
        event
            .reached()
            .iter()
            .rev()
            .find_map(|r| r.bracket.as_ref().map(|b| (r, b)))
            .map(|(r, b)| {
                let (next, next_third) = b.preview();
                BracketData {
                    stage: r.stage.0,
                    series: series_words(b.format),
                    points: matches!(b.format, MatchFormat::RaceTo(_)),
                    rounds: b
                        .rounds
                        .iter()
                        .chain(next.as_ref())
                        .map(|ms| ms.iter().map(|m| match_data(m, b.format)).collect())
                        .collect(),
                    third: b
                        .third
                        .as_ref()
                        .or(next_third.as_ref())
                        .map(|m| match_data(m, b.format)),
                }
            })
    }

    /// A stage by number (from 1).
    pub fn stage(&self, number: u32) -> Option<&StageData> {
        self.stages.iter().find(|s| s.number == number)
    }
}

/// Whether `query` (trimmed, folded as [`sort_key`] folds: case and accents do not count)
/// is found in `text`.
fn folded_match(folded_query: &str, text: &str) -> bool {
    sort_key(text).contains(folded_query)
}

/// The rating list as read: every rated player by rank.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RatingList {
    pub rows: Vec<PublicRatingRow>,
    /// Federation id -> position in `rows`.
    index: HashMap<String, usize>,
}

impl RatingList {
    pub fn new(mut rows: Vec<PublicRatingRow>) -> RatingList {
        rows.sort_by_key(|r| r.rank);
        let index = rows
            .iter()
            .enumerate()
            .map(|(i, r)| (r.federation_id.clone(), i))
            .collect();
        RatingList { rows, index }
    }

    pub fn contains(&self, federation_id: &str) -> bool {
        self.index.contains_key(federation_id)
    }

    /// The players whose name or federation id holds `query` (case and accents do not
    /// count), by rank; everyone without one.
    pub fn matching(&self, query: Option<&str>) -> Vec<&PublicRatingRow> {
        let folded = query.map(str::trim).filter(|q| !q.is_empty()).map(sort_key);
        self.rows
            .iter()
            .filter(|r| match &folded {
                None => true,
                Some(q) => folded_match(q, &r.name) || folded_match(q, &r.federation_id),
            })
            .collect()
    }

    /// The date of the latest rated event on the list.
    pub fn latest_event(&self) -> Option<ggdesk_core::rating::Date> {
        self.rows.iter().filter_map(|r| r.last_event).max()
    }
}

/// A player of the rating list and their rated events, oldest first.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRatings {
    pub row: PublicRatingRow,
    /// How many players the list holds ("rank 3 of 120").
    pub of: u32,
    pub history: Vec<PublicRatingEvent>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use ggdesk_core::tournament::{Player, PlayerId, Round, Settings};

    #[test]
    fn the_search_finds_names_in_any_case_and_numbers_exactly() {
        let mut t = Tournament::new("T", Settings::swiss(3)).expect("t");
        for (id, name) in [
            (1, "Reyes, Ana"),
            (2, "cruz, Ben"),
            (3, "Ana Cruz"),
            (12, "Lim"),
        ] {
            t.add_player(Player::new(PlayerId(id), name, 1000))
                .expect("p");
        }
        t.add_round(Round::default()).expect("round");
        let data = TournamentData::build(1, &t, &[]);
        let names = |q: Option<&str>| -> Vec<u32> {
            data.players_by_name(q).iter().map(|p| p.no).collect()
        };
        assert_eq!(names(None), [3, 2, 12, 1]);
        assert_eq!(names(Some("  CRUZ ")), [3, 2]);
        assert_eq!(names(Some("12")), [12]);
        assert_eq!(names(Some("1")), [1]);
        assert!(names(Some("zzz")).is_empty());
    }

    #[test]
    fn names_sort_and_match_as_the_wall_printout_sorts_them_accents_folded() {
        let mut t = Tournament::new("T", Settings::swiss(3)).expect("t");
        let list = [
            (1, "Villanueva, Ana"),
            (2, "Ñora, Beth"),
            (3, "Núñez, Carlo"),
            (4, "Nunez, Dan"),
            (5, "Ocampo, Eli"),
            (6, "Émile, Fe"),
        ];
        for (id, name) in list {
            t.add_player(Player::new(PlayerId(id), name, 1000))
                .expect("p");
        }
        let data = TournamentData::build(1, &t, &[]);
        let names = |q: Option<&str>| -> Vec<u32> {
            data.players_by_name(q).iter().map(|p| p.no).collect()
        };
        // As the alphabetical pairing list for the wall: Ñ with the N's, É with the E's.
        assert_eq!(names(None), [6, 2, 3, 4, 5, 1]);
        let shown: Vec<&str> = data
            .players_by_name(None)
            .iter()
            .map(|p| &*p.name)
            .collect();
        // Written by hand: É as E, Ñ and Ú as N and U, then the rest of the name (Carlo
        // before Dan whatever their numbers).
        let printed = [
            "Émile, Fe",
            "Ñora, Beth",
            "Núñez, Carlo",
            "Nunez, Dan",
            "Ocampo, Eli",
            "Villanueva, Ana",
        ];
        assert_eq!(shown, printed);
        // A phone's keyboard without accents finds the accented names, and accents find the
        // plain ones.
        assert_eq!(names(Some("nunez")), [3, 4]);
        assert_eq!(names(Some("NÚÑEZ")), [3, 4]);
        assert_eq!(names(Some("nora")), [2]);
        assert_eq!(names(Some("emile")), [6]);
        assert_eq!(names(Some("3")), [3]);
    }

    fn rated(rank: u32, id: &str, name: &str) -> PublicRatingRow {
        PublicRatingRow {
            rank,
            federation_id: id.into(),
            name: name.into(),
            rating: 1500.0,
            deviation: 100.0,
            volatility: 0.06,
            games: 1,
            events: 1,
            last_event: None,
        }
    }

    #[test]
    fn the_rating_list_is_searched_by_name_or_federation_id_in_rank_order() {
        let list = RatingList::new(vec![
            rated(3, "PH-0003", "Núñez, Carlo"),
            rated(1, "PH-0001", "Reyes, Ana"),
            rated(2, "GGF-77", "Nunez, Dan"),
        ]);
        let ids =
            |q: Option<&str>| -> Vec<u32> { list.matching(q).iter().map(|r| r.rank).collect() };
        assert_eq!(ids(None), [1, 2, 3]);
        assert_eq!(ids(Some("  ")), [1, 2, 3]);
        assert_eq!(ids(Some("NUNEZ")), [2, 3]);
        assert_eq!(ids(Some("ggf")), [2]);
        assert_eq!(ids(Some("ph-000")), [1, 3]);
        assert!(ids(Some("zzz")).is_empty());
        assert!(list.contains("GGF-77") && !list.contains("ggf-77"));
    }
}
