//! Read-only views of tournaments, rounds and boards for the desk pages.

use super::db::{Tx, args};
use super::stages::{RoundPlace, parse_kind, places};
use super::{Context, Result, Store, TournamentId};
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::stages::{GroupId, MatchId};
use ggdesk_core::tournament::{GameResult, PlayerId, StageNo};
use std::collections::HashMap;

/// A round's state is the core's (`tournament::lifecycle`): the store only saves its code.
pub use ggdesk_core::event::RoundState;

/// A player as seated at a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardPlayer {
    pub no: u32,
    pub name: String,
    pub rating: i64,
}

/// A round's number, state and official start, and its place in its event (a tournament of
/// one system: round `number` of stage 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundInfo {
    pub number: u32,
    pub state: RoundState,
    pub starts_at: Option<i64>,
    pub place: RoundPlace,
}

impl Store {
    /// Every tournament's id and name, newest first.
    pub fn tournament_names(&self) -> Result<Vec<(TournamentId, String)>> {
        self.read(|q| {
            q.query_map(
                "SELECT id, name FROM tournaments ORDER BY id DESC",
                args![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
    }

    /// The GGF rule settings a tournament's games are played under, with the desk's setup,
    /// reading and grace timers.
    pub fn tournament_rules(&self, tournament_id: TournamentId) -> Result<RuleSettings> {
        Ok(self
            .read(|q| super::tournaments::read_setup(q, tournament_id))?
            .rules)
    }

    /// The rounds of a tournament, in order.
    pub fn rounds_of(&self, tournament_id: TournamentId) -> Result<Vec<RoundInfo>> {
        self.read(|q| rounds_in(q, tournament_id))
    }

    /// The round the tables are playing: the last published or complete one.
    pub fn playing_round(&self, tournament_id: TournamentId) -> Result<Option<RoundInfo>> {
        Ok(self
            .rounds_of(tournament_id)?
            .into_iter()
            .rev()
            .find(|r| r.state != RoundState::Draft))
    }

    /// The boards of a round, by table number (as the Tables page lists them), each as the
    /// Rounds page sees it.
    pub fn round_boards(&self, tournament_id: TournamentId, round: u32) -> Result<Vec<RoundBoard>> {
        let mut boards = self
            .read(|q| round_view_in(q, tournament_id, round))?
            .map(|v| v.boards)
            .unwrap_or_default();
        boards.sort_by_key(|b| (b.table_no, b.board_no));
        Ok(boards)
    }
}

/// The rounds of a tournament, in order, each with its place in its event; a state or kind
/// this program never writes is an error.
pub(crate) fn rounds_in(q: &mut Tx<'_>, tournament_id: TournamentId) -> Result<Vec<RoundInfo>> {
    let rows = q.query_map(
        "SELECT number, state, starts_at, stage, kind FROM rounds WHERE tournament_id = ?1 ORDER BY number",
        [tournament_id],
        |r| {
            let number: u32 = r.get(0)?;
            (|| {
                Ok((
                    number,
                    r.code("state", RoundState::from_code)?,
                    r.get::<Option<i64>>(2)?,
                    StageNo(r.get(3)?),
                    r.code("kind", parse_kind)?,
                ))
            })()
            .at(
                "rounds",
                format!("tournament {tournament_id}, round {number}"),
            )
        },
    )?;
    let at: Vec<(u32, StageNo, bool)> = rows.iter().map(|r| (r.0, r.3, r.4)).collect();
    Ok(rows
        .into_iter()
        .zip(places(&at))
        .map(|((number, state, starts_at, _, _), place)| RoundInfo {
            number,
            state,
            starts_at,
            place,
        })
        .collect())
}

/// Where a board of a published round stands, as the director sees it at a glance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardStatus {
    /// The result is in.
    Finished,
    /// A game is at the desk, its setups being entered: the clocks have not started.
    SettingUp,
    /// A game is under way at the desk: its clocks run.
    Playing,
    /// Game time ran out at the desk: the reading sheets are awaited.
    Adjudication,
    /// No result and no game running at the desk: played on a board the desk does not
    /// follow, or not started.
    AwaitingResult,
}

/// One board of a round with everything the Rounds page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundBoard {
    /// The board's place in the round, from 1 (the key for results and swaps).
    pub board_no: u32,
    pub table_no: u32,
    pub white: BoardPlayer,
    pub black: BoardPlayer,
    pub result: GameResult,
    /// Why the board is what it is (the pairing's words, or the manual change).
    pub explanation: String,
    pub status: BoardStatus,
    /// The live (not void) desk game of the table, if any.
    pub game: Option<i64>,
    /// In an event of stages: the board's group (a grouped round robin, its playoffs).
    pub group: Option<GroupId>,
    /// In an event of stages: the board's match (a knockout).
    pub series: Option<MatchId>,
}

/// A round as the Rounds page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundView {
    pub number: u32,
    pub state: RoundState,
    /// The round's place in its event.
    pub place: RoundPlace,
    pub starts_at: Option<i64>,
    pub published_at: Option<i64>,
    /// What the pairing said about the whole round.
    pub explanation: String,
    pub boards: Vec<RoundBoard>,
    /// Players given the bye, with the pairing's reason.
    pub byes: Vec<(BoardPlayer, String)>,
    /// Players recorded absent in the round (asked, late entry, or as a file listed them).
    pub absent: Vec<BoardPlayer>,
}

impl RoundView {
    /// How many boards stand where: (finished, at the desk (setting up or playing),
    /// adjudication, awaiting result).
    pub fn counts(&self) -> [usize; 4] {
        let mut c = [0; 4];
        for b in &self.boards {
            c[match b.status {
                BoardStatus::Finished => 0,
                BoardStatus::SettingUp | BoardStatus::Playing => 1,
                BoardStatus::Adjudication => 2,
                BoardStatus::AwaitingResult => 3,
            }] += 1;
        }
        c
    }
}

impl Store {
    /// A round with its boards, byes and absences, and each board's status.
    pub fn round_view(&self, tournament_id: TournamentId, round: u32) -> Result<Option<RoundView>> {
        let (view, print) = self.read(|q| {
            let view = round_view_in(q, tournament_id, round)?;
            Ok((view, super::seen::round_print(q, tournament_id, round)?))
        })?;
        self.remember_round(tournament_id, round, print);
        Ok(view)
    }
}

/// A round as the Rounds page shows it, read inside one transaction.
pub(crate) fn round_view_in(
    conn: &mut Tx<'_>,
    tournament_id: TournamentId,
    round: u32,
) -> Result<Option<RoundView>> {
    {
        let Some(info) = rounds_in(conn, tournament_id)?
            .into_iter()
            .find(|r| r.number == round)
        else {
            return Ok(None);
        };
        let (published_at, explanation): (Option<i64>, String) = conn.query_row(
            "SELECT published_at, explanation FROM rounds WHERE tournament_id = ?1 AND number = ?2",
            args![tournament_id, round],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let mut players: HashMap<u32, BoardPlayer> = HashMap::new();
        let mut stmt = conn.prepare_cached(
            "SELECT player_no, name, rating FROM registrations WHERE tournament_id = ?1",
        )?;
        let mut rows = stmt.query([tournament_id])?;
        while let Some(r) = rows.next()? {
            let no: u32 = r.get(0)?;
            players.insert(
                no,
                BoardPlayer {
                    no,
                    name: r.get(1)?,
                    rating: r.get(2)?,
                },
            );
        }
        let player = |no: u32| {
            players.get(&no).cloned().unwrap_or(BoardPlayer {
                no,
                name: String::new(),
                rating: 0,
            })
        };
        // The newest live game of each table: (id, started, result).
        let mut games: HashMap<u32, (i64, bool, Option<String>)> = HashMap::new();
        let mut stmt = conn.prepare_cached(
            "SELECT table_no, id, started_at IS NOT NULL, result FROM games
             WHERE tournament_id = ?1 AND round = ?2 AND void = 0 AND table_no IS NOT NULL ORDER BY id",
        )?;
        let mut rows = stmt.query(args![tournament_id, round])?;
        while let Some(r) = rows.next()? {
            games.insert(r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?));
        }
        let mut stmt = conn.prepare_cached(
            "SELECT board_no, table_no, white, black, result, explanation, group_letter, match_id
             FROM pairings WHERE tournament_id = ?1 AND round = ?2 ORDER BY board_no",
        )?;
        let mut boards = Vec::new();
        let mut rows = stmt.query(args![tournament_id, round])?;
        while let Some(r) = rows.next()? {
            let table_no: u32 = r.get(1)?;
            let board_no: u32 = r.get(0)?;
            let at = format!("tournament {tournament_id}, round {round}, board {board_no}");
            let result = r
                .code("result", GameResult::from_name)
                .at("pairings", &at)?;
            let (group, series) = stage_of_board(r, 6).at("pairings", &at)?;
            let game = games.get(&table_no);
            let status = match (result, game) {
                (r, _) if r != GameResult::Pending => BoardStatus::Finished,
                (_, Some((_, _, Some(res))))
                    if res == ggdesk_core::record::Status::AdjudicationPending.code() =>
                {
                    BoardStatus::Adjudication
                }
                (_, Some((_, false, None))) => BoardStatus::SettingUp,
                (_, Some((_, true, None))) => BoardStatus::Playing,
                _ => BoardStatus::AwaitingResult,
            };
            boards.push(RoundBoard {
                board_no,
                table_no,
                white: player(r.get(2)?),
                black: player(r.get(3)?),
                result,
                explanation: r.get(5)?,
                status,
                game: game.map(|g| g.0),
                group,
                series,
            });
        }
        let mut stmt = conn.prepare_cached(
            "SELECT player_no, explanation FROM round_byes WHERE tournament_id = ?1 AND round = ?2 ORDER BY player_no",
        )?;
        let byes = stmt
            .query_map(args![tournament_id, round], |r| {
                Ok((r.get::<u32>(0)?, r.get::<String>(1)?))
            })?
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .map(|(no, why)| (player(no), why))
            .collect();
        let mut stmt = conn.prepare_cached(
            "SELECT player_no FROM absences WHERE tournament_id = ?1 AND round = ?2 ORDER BY player_no",
        )?;
        let absent = stmt
            .query_map(args![tournament_id, round], |r| r.get::<u32>(0))?
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .map(player)
            .collect();
        Ok(Some(RoundView {
            number: info.number,
            state: info.state,
            place: info.place,
            starts_at: info.starts_at,
            published_at,
            explanation,
            boards,
            byes,
            absent,
        }))
    }
}

/// A board's group and match, from its `group_letter` and `match_id` columns (at `at` and
/// `at + 1` in the row).
pub(crate) fn stage_of_board(
    r: &super::db::Row,
    at: usize,
) -> Result<(Option<GroupId>, Option<MatchId>)> {
    let group: Option<String> = r.get(at)?;
    let series: Option<String> = r.get(at + 1)?;
    let group = group
        .map(|g| {
            GroupId::from_letter(&g).ok_or_else(|| {
                super::StoreError::Decode(format!("group_letter holds an unknown group {g:?}"))
            })
        })
        .transpose()?;
    let series = series
        .map(|m| {
            MatchId::parse(&m).ok_or_else(|| {
                super::StoreError::Decode(format!("match_id holds an unknown match {m:?}"))
            })
        })
        .transpose()?;
    Ok((group, series))
}

impl Store {
    /// A number that grows with the changes written to the database by a director or an
    /// arbiter (the newest audit log row): pages reload their data when it moves. On a
    /// server it can miss a change: a transaction that took its audit row before another
    /// one's and committed after it leaves the number where the other put it. The desk also
    /// reloads on the server's notices, and the public pages read again every few seconds.
    pub fn change_stamp(&self) -> Result<i64> {
        self.read(|q| {
            q.query_row("SELECT coalesce(max(id), 0) FROM audit_log", args![], |r| {
                r.get(0)
            })
        })
    }

    /// The player ids of a round's players, for a board's players by number.
    pub fn player_numbers(&self, tournament_id: TournamentId) -> Result<Vec<PlayerId>> {
        self.read(|q| {
            q.query_map(
                "SELECT player_no FROM registrations WHERE tournament_id = ?1 ORDER BY player_no",
                [tournament_id],
                |r| Ok(PlayerId(r.get(0)?)),
            )
        })
    }
}
