//! What the public pages may show, as types that hold nothing else: the tournaments, their
//! players, who plays whom at which table, each table's state, results, scores, standings and
//! the cross-table. No type here has a place for a rank, a setup, a move, a reading sheet, a
//! challenge, a penalty's reason, a forbidden pair or a pairing explanation: the source copies
//! only these fields out of the store, so a page cannot show what it was never given.

use crate::store::{BoardStatus, RoundState, RoundView, TournamentSummary};
use ggdesk_core::export::print::sort_key;
use ggdesk_core::rules::Side;
use ggdesk_core::tournament::{
    Entry, GameResult, Score, StandingRow, Standings, System, TieBreak, Tournament, standings,
};
use std::collections::HashMap;

/// The event: every tournament in the database, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EventIndex {
    pub tournaments: Vec<TournamentLine>,
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
}

impl EventIndex {
    pub fn from_summaries(list: &[TournamentSummary]) -> EventIndex {
        EventIndex {
            tournaments: list
                .iter()
                .map(|s| TournamentLine {
                    id: s.id.0,
                    name: s.name.clone(),
                    system: s.system,
                    rounds_planned: s.rounds,
                    players: s.players,
                    round_in_play: (s.rounds_started > 0).then_some(s.rounds_started),
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
    index: HashMap<u32, usize>,
}

impl TournamentData {
    /// Builds the public view from the core model and the rounds as the store shows them
    /// (`views[k]` is round k + 1). Only names, numbers, results and states are copied.
    pub fn build(id: i64, t: &Tournament, views: &[RoundView]) -> TournamentData {
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
        let index: HashMap<u32, usize> =
            players.iter().enumerate().map(|(i, p)| (p.no, i)).collect();

        let rounds: Vec<PublicRound> = views
            .iter()
            .filter(|v| v.state != RoundState::Draft)
            .map(|v| PublicRound {
                number: v.number,
                complete: v.boards.iter().all(|b| b.result != GameResult::Pending),
                boards: v
                    .boards
                    .iter()
                    .map(|b| PublicBoard {
                        table: b.table_no,
                        white: b.white.no,
                        black: b.black.no,
                        result: b.result,
                        state: TableState::from_status(b.status),
                    })
                    .collect(),
                byes: v.byes.iter().map(|(p, _)| p.no).collect(),
                absent: v.absent.iter().map(|p| p.no).collect(),
            })
            .collect();

        let played = t.rounds().len();
        let complete = t.completed_rounds();
        let table = standings(t, complete);
        let entries_all = t.entries(played);
        let crosstable = table
            .rows
            .iter()
            .map(|row| {
                t.player_index(row.id)
                    .and_then(|i| entries_all.get(i))
                    .map(|e| e[..complete.min(e.len())].to_vec())
                    .unwrap_or_default()
            })
            .collect();
        // Scores after each round, indexed like the core's players.
        let by_round: Vec<Vec<Score>> = (1..=played).map(|r| t.scores(r)).collect();
        let mut history = vec![Vec::new(); players.len()];
        let mut scores = vec![Score::ZERO; players.len()];
        for (core_i, p) in t.players().iter().enumerate() {
            let Some(&i) = index.get(&p.id.0) else {
                continue;
            };
            scores[i] = by_round
                .last()
                .and_then(|s| s.get(core_i).copied())
                .unwrap_or(Score::ZERO);
            let mut list = Vec::new();
            for (r, entry) in entries_all
                .get(core_i)
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                let board = rounds.get(r).and_then(|round| round.board_of(p.id.0));
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
            history[i] = list;
        }
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
            index,
        }
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
}
