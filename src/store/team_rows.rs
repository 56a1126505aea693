//! A team event's rows (spec/teams.md, migration 10): the one writer of an imported team
//! file and the one reader that builds the core's [`TeamEvent`] back from the tables.
//! Nothing here checks the rules: the core read the file ([`TeamEvent::from_value`], every
//! line-up checked, each refusal naming its match and board), and what the reader builds
//! is the core's event again or the database is damaged.
//!
//! Where a team event keeps what: `tournaments` (format 2: its name, points, game rules and
//! the file's unused keys), `registrations` (its players), `rounds` (numbered on across the
//! stages, each with its stage and kind), `pairings` (every game over a board, each with its
//! `board_group` in a `board_groups` stage), and beside them `team_events` (the `team`
//! settings), `team_stages`, `teams` with `team_players` (rosters in board order),
//! `team_matches` with `team_boards` (each match's line-up; a board left empty has no
//! pairing) and `team_byes`.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::{Tx, args};
use super::error::{Context, Result, StoreError};
use super::event_rows::{self, Reader};
use ggdesk_core::event::{Entrant, RoundKind, RoundState, TournamentSetup};
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::stages::PlayedOff;
use ggdesk_core::teams::{
    BoardGame, GroupGame, MatchPoints, Primary, Team, TeamBye, TeamEvent, TeamId, TeamMatch,
    TeamRound, TeamSettings, TeamStage, TeamSystem, TeamTieBreak,
};
use ggdesk_core::tournament::{GameResult, PlayerId, RegistryId, RoundNo, Score, TournamentId};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The keys of a team file the store keeps in its tables; the others are kept as they are
/// (`tournaments.extra`) and written back.
const FILE_KEYS: [&str; 8] = [
    "format",
    "name",
    "settings",
    "players",
    "penalties",
    "stages",
    "team",
    "teams",
];

/// Whether tournament `tid` is a team event.
pub(crate) fn is_team_event(q: &mut Tx<'_>, tid: TournamentId) -> Result<bool> {
    Ok(q.query_opt(
        "SELECT 1 FROM team_events WHERE tournament_id = ?1",
        [tid],
        |_| Ok(()),
    )?
    .is_some())
}

/// The words for a team event opened where the desk runs events of players (the Tables
/// page's games, `ggdesk round`).
pub(crate) fn not_at_the_desk(tid: TournamentId) -> StoreError {
    StoreError::Rejected(format!(
        "tournament {tid} is a team event: the desk runs it on its team pages (Teams F12, \
         Rounds F4, Standings F6), not as an event of players (`ggdesk export tournament \
         {tid} FILE` writes its file, which `ggdesk pair` and `ggdesk standings --teams` read)"
    ))
}

/// The result a board with an empty side has (the core checked the file says so).
fn empty_board_result(white: Option<PlayerId>, black: Option<PlayerId>) -> GameResult {
    match (white, black) {
        (Some(_), None) => GameResult::WhiteWinsByForfeit,
        (None, Some(_)) => GameResult::BlackWinsByForfeit,
        _ => GameResult::DoubleForfeit,
    }
}

/// The table of board `b` (from 0) of the match at table `t`: (t−1)×B + b + 1.
pub(super) fn board_table(t: u32, boards: usize, b: usize) -> i64 {
    let boards = i64::try_from(boards).unwrap_or(i64::MAX);
    let b = i64::try_from(b).unwrap_or(i64::MAX);
    (i64::from(t) - 1)
        .saturating_mul(boards)
        .saturating_add(b + 1)
}

/// A game over the board as a `pairings` row.
pub(super) struct Board {
    pub(super) board_no: usize,
    pub(super) table: i64,
    pub(super) table_given: bool,
    pub(super) white: PlayerId,
    pub(super) black: PlayerId,
    pub(super) result: GameResult,
    pub(super) board_group: Option<usize>,
}

pub(super) fn insert_board(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    round: RoundNo,
    b: &Board,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO pairings (tournament_id, round, board_no, table_no, table_given, white,
             black, result, explanation, board_group)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, '', ?9)",
    )?
    .execute(args![
        tid,
        round,
        b.board_no,
        b.table,
        b.table_given,
        b.white,
        b.black,
        b.result.name(),
        b.board_group
    ])?;
    Ok(())
}

fn insert_round(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    (number, stage, kind): (RoundNo, usize, RoundKind),
    complete: bool,
) -> Result<()> {
    let now = tx.now();
    let state = if complete {
        RoundState::Complete
    } else {
        RoundState::Published
    };
    tx.execute(
        "INSERT INTO rounds (tournament_id, number, state, published_at, completed_at, stage, kind)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        args![
            tid,
            number,
            state.code(),
            now,
            complete.then_some(now),
            stage,
            kind.code()
        ],
    )?;
    Ok(())
}

/// Writes round `number` of stage `stage` (from 1): its matches with their line-ups and
/// games, its team byes, or its games.
fn write_round(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    e: &TeamEvent,
    (number, stage): (RoundNo, usize),
    r: &TeamRound,
) -> Result<()> {
    insert_round(tx, tid, (number, stage, RoundKind::Round), r.is_complete())?;
    let boards = e.settings.boards;
    let mut board_no = 0;
    for (i, m) in r.matches.iter().enumerate() {
        tx.execute(
            "INSERT INTO team_matches (tournament_id, round, match_no, table_no, home, away)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            args![tid, number, i + 1, m.table, m.home.0, m.away.0],
        )?;
        let t = m
            .table
            .unwrap_or_else(|| u32::try_from(i + 1).unwrap_or(u32::MAX));
        for (b, g) in m.boards.iter().enumerate() {
            let game = match (g.white, g.black) {
                (Some(white), Some(black)) => {
                    board_no += 1;
                    insert_board(
                        tx,
                        tid,
                        number,
                        &Board {
                            board_no,
                            table: board_table(t, boards, b),
                            table_given: true,
                            white,
                            black,
                            result: g.result,
                            board_group: None,
                        },
                    )?;
                    Some(board_no)
                }
                _ => None,
            };
            tx.execute(
                "INSERT INTO team_boards (tournament_id, round, match_no, board, white, black,
                     board_no)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                args![tid, number, i + 1, b + 1, g.white, g.black, game],
            )?;
        }
    }
    for (i, t) in r.byes.iter().enumerate() {
        tx.execute(
            "INSERT INTO team_byes (tournament_id, round, team_no, seq) VALUES (?1, ?2, ?3, ?4)",
            args![tid, number, t.0, i],
        )?;
    }
    for (i, g) in r.games.iter().enumerate() {
        insert_board(
            tx,
            tid,
            number,
            &Board {
                board_no: i + 1,
                table: g
                    .table
                    .map_or(i64::try_from(i + 1).unwrap_or(i64::MAX), i64::from),
                table_given: g.table.is_some(),
                white: g.white,
                black: g.black,
                result: g.result,
                board_group: g.board,
            },
        )?;
    }
    Ok(())
}

/// Writes a stage's playoff games as one round of kind `playoff`.
fn write_playoffs(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    (number, stage): (RoundNo, usize),
    games: &[PlayedOff],
) -> Result<()> {
    let complete = games.iter().all(|g| g.result != GameResult::Pending);
    insert_round(tx, tid, (number, stage, RoundKind::Playoff), complete)?;
    for (i, g) in games.iter().enumerate() {
        insert_board(
            tx,
            tid,
            number,
            &Board {
                board_no: i + 1,
                table: i64::try_from(i + 1).unwrap_or(i64::MAX),
                table_given: false,
                white: g.white,
                black: g.black,
                result: g.result,
                board_group: None,
            },
        )?;
    }
    Ok(())
}

/// Writes a team event's `team` settings (its `team_events` row, new or over the one it
/// has) and its stages (in place of those it had). Its teams and rounds are not touched.
pub(super) fn write_settings(tx: &mut Tx<'_>, id: TournamentId, e: &TeamEvent) -> Result<()> {
    let s = &e.settings;
    tx.execute(
        "INSERT INTO team_events (tournament_id, boards, match_win_points, match_draw_points,
             match_loss_points, bye_match_points, bye_game_points, primary_score)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (tournament_id) DO UPDATE SET boards = excluded.boards,
             match_win_points = excluded.match_win_points,
             match_draw_points = excluded.match_draw_points,
             match_loss_points = excluded.match_loss_points,
             bye_match_points = excluded.bye_match_points,
             bye_game_points = excluded.bye_game_points,
             primary_score = excluded.primary_score",
        args![
            id,
            s.boards,
            s.match_points.win.halves(),
            s.match_points.draw.halves(),
            s.match_points.loss.halves(),
            s.bye.match_points.halves(),
            s.bye.game_points.halves(),
            s.primary.name()
        ],
    )?;
    tx.execute("DELETE FROM team_stages WHERE tournament_id = ?1", [id])?;
    for (k, st) in e.stages.iter().enumerate() {
        let tiebreaks: Vec<&str> = st.tiebreaks.iter().map(|t| t.name()).collect();
        tx.execute(
            "INSERT INTO team_stages (tournament_id, stage_no, name, system, round_count,
                 advance, tiebreaks)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            args![
                id,
                k + 1,
                st.name,
                st.system.name(),
                st.round_count,
                st.advance,
                tiebreaks.join(",")
            ],
        )?;
    }
    Ok(())
}

/// The tournament row of a team event made at the desk (its name, points and games' rules),
/// its settings checked as the core reads them in a file (boards and a Swiss's rounds from
/// 1, teams aside) and as any tournament's (a name, the points, the rules).
pub(super) fn desk_setup(event: &TeamEvent, rules: &RuleSettings) -> Result<TournamentSetup> {
    event
        .check_settings()
        .map_err(|e| StoreError::Rejected(e.to_string()))?;
    TournamentSetup {
        name: event.name.clone(),
        points: event.points,
        rules: *rules,
        ..TournamentSetup::default()
    }
    .for_stages()
    .checked()
    .map_err(|r| StoreError::Refused(r.into()))
}

/// Writes a new team event (an import): the tournament row, the players linked to the
/// registry, the teams, the stages and every round. Returns the tournament's id.
fn insert(
    tx: &mut Tx<'_>,
    e: &TeamEvent,
    setup: &TournamentSetup,
    extra: &Map<String, Value>,
) -> Result<TournamentId> {
    let id = event_rows::insert_tournament(tx, setup, Some(&[]), extra)?;
    write_settings(tx, id, e)?;
    let mut entrants: Vec<Entrant> = e
        .players
        .iter()
        .map(|p| Entrant {
            player: p.clone(),
            registry: RegistryId(0),
            entry_round: RoundNo(1),
            banned: false,
        })
        .collect();
    super::players::link_entrants(tx, &mut entrants)?;
    for (i, en) in entrants.iter().enumerate() {
        event_rows::insert_entrant(tx, id, en, i64::try_from(i).unwrap_or(i64::MAX))?;
    }
    for (i, t) in e.teams.iter().enumerate() {
        tx.execute(
            "INSERT INTO teams (tournament_id, team_no, name, captain, seq)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            args![id, t.id.0, t.name, t.captain, i],
        )?;
        for (k, p) in t.roster.iter().enumerate() {
            tx.execute(
                "INSERT INTO team_players (tournament_id, team_no, position, player_no)
                 VALUES (?1, ?2, ?3, ?4)",
                args![id, t.id.0, k + 1, p],
            )?;
        }
    }
    let mut number = 0;
    for (k, st) in e.stages.iter().enumerate() {
        for r in &st.rounds {
            number += 1;
            write_round(tx, id, e, (RoundNo(number), k + 1), r)?;
        }
        if !st.playoffs.is_empty() {
            number += 1;
            write_playoffs(tx, id, (RoundNo(number), k + 1), &st.playoffs)?;
        }
    }
    Ok(id)
}

fn damaged(table: &'static str, tid: TournamentId, detail: impl Into<String>) -> StoreError {
    StoreError::Damaged {
        table,
        row: format!("tournament {tid}"),
        detail: detail.into(),
    }
}

fn read_settings(q: &mut Tx<'_>, tid: TournamentId) -> Result<TeamSettings> {
    q.query_opt(
        "SELECT boards, match_win_points, match_draw_points, match_loss_points,
                bye_match_points, bye_game_points, primary_score
         FROM team_events WHERE tournament_id = ?1",
        [tid],
        |r| {
            (|| {
                let half = |i: usize| -> Result<Score> { Ok(Score::from_halves(r.get(i)?)) };
                Ok(TeamSettings {
                    boards: r.get(0)?,
                    match_points: MatchPoints {
                        win: half(1)?,
                        draw: half(2)?,
                        loss: half(3)?,
                    },
                    bye: TeamBye {
                        match_points: half(4)?,
                        game_points: half(5)?,
                    },
                    primary: r.code("primary_score", |c| match c {
                        "match_points" => Some(Primary::MatchPoints),
                        "game_points" => Some(Primary::GamePoints),
                        _ => None,
                    })?,
                })
            })()
            .at("team_events", format!("tournament {tid}"))
        },
    )?
    .ok_or_else(|| StoreError::NotFound(format!("team event {tid}")))
}

fn read_stages(q: &mut Tx<'_>, tid: TournamentId) -> Result<Vec<TeamStage>> {
    let rows = q.query_map(
        "SELECT stage_no, name, system, round_count, advance, tiebreaks FROM team_stages
         WHERE tournament_id = ?1 ORDER BY stage_no",
        [tid],
        |r| {
            let no: usize = r.get(0)?;
            (|| {
                let tiebreaks = r
                    .get::<String>(5)?
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        TeamTieBreak::from_name(s).ok_or_else(|| {
                            StoreError::Decode(format!("unknown team tie-break {s:?}"))
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                Ok((
                    no,
                    TeamStage {
                        name: r.get(1)?,
                        system: r.code("system", TeamSystem::from_name)?,
                        round_count: r.get(3)?,
                        advance: r.get(4)?,
                        tiebreaks,
                        rounds: Vec::new(),
                        playoffs: Vec::new(),
                    },
                ))
            })()
            .at("team_stages", format!("tournament {tid}, stage {no}"))
        },
    )?;
    let mut out = Vec::new();
    for (k, (no, stage)) in rows.into_iter().enumerate() {
        if no != k + 1 {
            return Err(damaged(
                "team_stages",
                tid,
                format!("stage {no} follows stage {k}"),
            ));
        }
        out.push(stage);
    }
    Ok(out)
}

fn read_teams(q: &mut Tx<'_>, tid: TournamentId) -> Result<Vec<Team>> {
    let mut teams = q.query_map(
        "SELECT team_no, name, captain FROM teams WHERE tournament_id = ?1 ORDER BY seq, team_no",
        [tid],
        |r| {
            let no: u32 = r.get(0)?;
            (|| {
                Ok(Team {
                    id: TeamId(no),
                    name: r.get(1)?,
                    roster: Vec::new(),
                    captain: r.get(2)?,
                })
            })()
            .at("teams", format!("tournament {tid}, team {no}"))
        },
    )?;
    let roster: Vec<(u32, PlayerId)> = q.query_map(
        "SELECT team_no, player_no FROM team_players WHERE tournament_id = ?1
         ORDER BY team_no, position",
        [tid],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    for (team, player) in roster {
        match teams.iter_mut().find(|t| t.id.0 == team) {
            Some(t) => t.roster.push(player),
            None => return Err(damaged("team_players", tid, format!("no team {team}"))),
        }
    }
    Ok(teams)
}

/// A `pairings` row of a team event.
pub(super) struct Paired {
    pub(super) board_no: u32,
    pub(super) table: u32,
    pub(super) table_given: bool,
    pub(super) white: PlayerId,
    pub(super) black: PlayerId,
    pub(super) result: GameResult,
    pub(super) board_group: Option<usize>,
}

/// Every game over the board, by round, in board order.
pub(super) fn read_pairings(
    q: &mut Tx<'_>,
    tid: TournamentId,
) -> Result<HashMap<RoundNo, Vec<Paired>>> {
    let rows = q.query_map(
        "SELECT round, board_no, table_no, table_given, white, black, result, board_group
         FROM pairings WHERE tournament_id = ?1 ORDER BY round, board_no",
        [tid],
        |r| {
            let (round, board): (RoundNo, u32) = (r.get(0)?, r.get(1)?);
            (|| {
                Ok((
                    round,
                    Paired {
                        board_no: board,
                        table: r.get(2)?,
                        table_given: r.get(3)?,
                        white: r.get(4)?,
                        black: r.get(5)?,
                        result: r.code("result", GameResult::from_name)?,
                        board_group: r.get(7)?,
                    },
                ))
            })()
            .at(
                "pairings",
                format!("tournament {tid}, round {round}, board {board}"),
            )
        },
    )?;
    let mut out: HashMap<RoundNo, Vec<Paired>> = HashMap::new();
    for (round, p) in rows {
        out.entry(round).or_default().push(p);
    }
    Ok(out)
}

/// The matches of every round with their line-ups, the games' results from `pairings`.
pub(super) fn read_matches(
    q: &mut Tx<'_>,
    tid: TournamentId,
    games: &HashMap<RoundNo, Vec<Paired>>,
) -> Result<HashMap<RoundNo, Vec<TeamMatch>>> {
    type MatchRow = (RoundNo, u32, Option<u32>, u32, u32);
    let rows: Vec<MatchRow> = q.query_map(
        "SELECT round, match_no, table_no, home, away FROM team_matches
         WHERE tournament_id = ?1 ORDER BY round, match_no",
        [tid],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )?;
    let mut out: HashMap<RoundNo, Vec<TeamMatch>> = HashMap::new();
    let mut index: HashMap<(RoundNo, u32), usize> = HashMap::new();
    for (round, no, table, home, away) in rows {
        let list = out.entry(round).or_default();
        index.insert((round, no), list.len());
        list.push(TeamMatch {
            table,
            home: TeamId(home),
            away: TeamId(away),
            boards: Vec::new(),
        });
    }
    type BoardRow = (
        RoundNo,
        u32,
        Option<PlayerId>,
        Option<PlayerId>,
        Option<u32>,
    );
    let boards: Vec<BoardRow> = q.query_map(
        "SELECT round, match_no, white, black, board_no FROM team_boards
         WHERE tournament_id = ?1 ORDER BY round, match_no, board",
        [tid],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )?;
    for (round, no, white, black, board_no) in boards {
        let result = match board_no {
            None => empty_board_result(white, black),
            Some(b) => {
                let game = games
                    .get(&round)
                    .and_then(|list| list.iter().find(|g| g.board_no == b))
                    .filter(|g| Some(g.white) == white && Some(g.black) == black)
                    .ok_or_else(|| {
                        damaged(
                            "team_boards",
                            tid,
                            format!("round {round}, match {no}: board {b} is not its game"),
                        )
                    })?;
                game.result
            }
        };
        let m = index
            .get(&(round, no))
            .and_then(|&i| out.get_mut(&round).and_then(|l| l.get_mut(i)))
            .ok_or_else(|| damaged("team_boards", tid, format!("round {round}: no match {no}")))?;
        m.boards.push(BoardGame {
            white,
            black,
            result,
        });
    }
    Ok(out)
}

/// The team event of tournament `tid` as the core reads it, and its games' rules.
pub(crate) fn load(q: &mut Tx<'_>, tid: TournamentId) -> Result<(TeamEvent, RuleSettings)> {
    let (event, rules, _) = load_as(q, tid, Reader::Desk)?;
    Ok((event, rules))
}

/// A round of a team event as the tournament numbers it (numbered on across the stages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamRoundNo {
    pub number: RoundNo,
    /// From 1.
    pub stage: usize,
    pub kind: RoundKind,
}

/// A team event as the public pages may see it (migration 12's views on a server): the
/// core's event of its published and complete rounds, without federation ids or
/// registration extras, and the tournament's number of each of those rounds in order.
#[derive(Debug, Clone, PartialEq)]
pub struct PublicTeamEvent {
    pub event: TeamEvent,
    pub rounds: Vec<TeamRoundNo>,
}

/// The table of board `b` (from 0) of the `index`-th match (from 0) of a round: the match's
/// table, or its place in the round when it has none, as the store numbers its games
/// (spec/teams.md: tables (t−1)×B + 1 … t×B).
pub fn team_board_table(m: &TeamMatch, index: usize, boards: usize, b: usize) -> u32 {
    let t = m
        .table
        .unwrap_or_else(|| u32::try_from(index + 1).unwrap_or(u32::MAX));
    u32::try_from(board_table(t, boards, b)).unwrap_or(u32::MAX)
}

/// The team event of tournament `tid` as `reader` may read it, its games' rules, and the
/// tournament's number of each round read.
fn load_as(
    q: &mut Tx<'_>,
    tid: TournamentId,
    reader: Reader,
) -> Result<(TeamEvent, RuleSettings, Vec<TeamRoundNo>)> {
    let (setup, _) = event_rows::read_setup(q, tid)?;
    let settings = read_settings(q, tid)?;
    let mut stages = read_stages(q, tid)?;
    let players = event_rows::read_entrants(q, tid, reader)?
        .into_iter()
        .map(|e| e.player)
        .collect();
    let teams = read_teams(q, tid)?;
    let games = read_pairings(q, tid)?;
    let mut matches = read_matches(q, tid, &games)?;
    let byes: Vec<(RoundNo, u32)> = q.query_map(
        "SELECT round, team_no FROM team_byes WHERE tournament_id = ?1
         ORDER BY round, seq, team_no",
        [tid],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let rounds: Vec<(RoundNo, usize, RoundKind)> = q.query_map(
        "SELECT number, stage, kind FROM rounds WHERE tournament_id = ?1 AND state <> 'draft'
         ORDER BY number",
        [tid],
        |r| {
            let n: RoundNo = r.get(0)?;
            (|| Ok((n, r.get(1)?, r.code("kind", RoundKind::from_code)?)))()
                .at("rounds", format!("tournament {tid}, round {n}"))
        },
    )?;
    let numbers = rounds
        .iter()
        .map(|&(number, stage, kind)| TeamRoundNo {
            number,
            stage,
            kind,
        })
        .collect();
    for (n, stage, kind) in rounds {
        let st = stage
            .checked_sub(1)
            .and_then(|k| stages.get_mut(k))
            .ok_or_else(|| {
                damaged(
                    "rounds",
                    tid,
                    format!("round {n}: there is no stage {stage}"),
                )
            })?;
        let played = games.get(&n).map(Vec::as_slice).unwrap_or_default();
        if kind == RoundKind::Playoff {
            st.playoffs.extend(played.iter().map(|g| PlayedOff {
                white: g.white,
                black: g.black,
                result: g.result,
            }));
            continue;
        }
        let mut round = TeamRound::default();
        if st.system.has_matches() {
            round.matches = matches.remove(&n).unwrap_or_default();
            round.byes = byes
                .iter()
                .filter(|(r, _)| *r == n)
                .map(|(_, t)| TeamId(*t))
                .collect();
        } else {
            round.games = played
                .iter()
                .map(|g| GroupGame {
                    board: g.board_group,
                    table: g.table_given.then_some(g.table),
                    white: g.white,
                    black: g.black,
                    result: g.result,
                })
                .collect();
        }
        st.rounds.push(round);
    }
    let event = TeamEvent {
        name: setup.name.clone(),
        points: setup.points,
        settings,
        players,
        teams,
        stages,
    };
    Ok((event, setup.rules, numbers))
}

/// The team event of tournament `tid` as its file: the core's writing of the event, the
/// games' rules in `settings.rules`, the date it is rated on (if it is), the imported
/// file's keys the store does not use. A database whose rows do not make a team event the
/// core reads is damaged.
pub(crate) fn file(q: &mut Tx<'_>, tid: TournamentId) -> Result<Value> {
    let (event, rules) = load(q, tid)?;
    let (extra, rated): (String, Option<String>) = q.query_one(
        "SELECT extra, rated_date FROM tournaments WHERE id = ?1",
        [tid],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut value = event.to_value();
    if let Err(e) = TeamEvent::from_value(&value) {
        // Teams being built at the desk (a roster short of B players) are no file yet.
        if !event.has_started() {
            return Err(StoreError::Rejected(format!(
                "tournament {tid} has no file yet: its teams are not ready ({e})"
            )));
        }
        return Err(StoreError::Corrupt {
            path: format!("tournament {tid}"),
            detail: format!("its rows do not make a team event: {e}"),
        });
    }
    if let Value::Object(top) = &mut value {
        if let Some(Value::Object(settings)) = top.get_mut("settings") {
            settings.insert("rules".into(), rules.to_value());
        }
        // A rated event's file carries the date it is rated on (spec/ratings.md).
        if let Some(date) = rated {
            top.insert("date".into(), Value::String(date));
        }
        if let Ok(Value::Object(extra)) = serde_json::from_str::<Value>(&extra) {
            for (k, v) in extra {
                top.entry(k).or_insert(v);
            }
        }
    }
    Ok(value)
}

/// The games' rules a team file carries in `settings.rules` (absent: the GGF defaults).
fn file_rules(file: &Value) -> Result<RuleSettings> {
    match file
        .get("settings")
        .and_then(|s| s.get("rules"))
        .filter(|v| !v.is_null())
    {
        None => Ok(RuleSettings::default()),
        Some(v) => RuleSettings::from_value(v, "settings.rules")
            .map_err(|e| StoreError::Rejected(e.to_string())),
    }
}

impl Store {
    /// Creates a team event at the desk: `event` gives its name, points, `team` settings and
    /// stages (no teams, players or rounds yet: the Teams page adds them), `rules` its
    /// games' rules.
    pub fn create_team_event(
        &mut self,
        event: &TeamEvent,
        rules: &RuleSettings,
        actor: &Actor,
    ) -> Result<TournamentId> {
        // The core reads the event as its file: what the desk creates is a file it reads.
        let setup = desk_setup(event, rules)?;
        self.write(|tx| {
            let id = insert(tx, event, &setup, &Map::new())?;
            let systems: Vec<&str> = event.stages.iter().map(|s| s.system.name()).collect();
            audit(
                tx,
                actor,
                "tournament created",
                Some(id),
                None,
                "",
                &format!(
                    "{}: team event, {} boards, stages {}",
                    event.name,
                    event.settings.boards,
                    systems.join(", ")
                ),
            )?;
            Ok(id)
        })
    }

    /// Tournament `tid` as the public pages show a team event; `None` when there is no such
    /// tournament or it is not a team event. Reads only what the public may see (on a
    /// server, the public role's views of migrations 4, 10 and 12).
    pub fn public_team_event(&self, tid: TournamentId) -> Result<Option<PublicTeamEvent>> {
        let read = self.read(|q| {
            if !is_team_event(q, tid)? {
                return Ok(None);
            }
            let (event, _, rounds) = load_as(q, tid, Reader::Public)?;
            Ok(Some(PublicTeamEvent { event, rounds }))
        });
        match read {
            Err(StoreError::NotFound(_)) => Ok(None),
            other => other,
        }
    }

    /// Imports a team event (a `ggdesk-tournament/2` file with `teams`, spec/teams.md) in
    /// one transaction: the whole event or nothing. The core reads the file with every
    /// check (a bad line-up is refused naming its match and board); players are linked to
    /// the registry as any import's.
    pub(crate) fn import_team_event(
        &mut self,
        file: &Value,
        actor: &Actor,
    ) -> Result<TournamentId> {
        let event = TeamEvent::from_value(file).map_err(|e| StoreError::Rejected(e.to_string()))?;
        let setup = TournamentSetup {
            name: event.name.clone(),
            points: event.points,
            rules: file_rules(file)?,
            ..TournamentSetup::default()
        }
        .for_stages()
        .checked()
        .map_err(|r| StoreError::Refused(r.into()))?;
        let extra: Map<String, Value> = file
            .as_object()
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| !FILE_KEYS.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default();
        self.write(|tx| {
            let id = insert(tx, &event, &setup, &extra)?;
            // What was written is the file's event again.
            if load(tx, id)?.0 != event {
                return Err(StoreError::Database(
                    "the team event read back from the database differs from the file's \
                     (nothing was imported)"
                        .into(),
                ));
            }
            let rounds: usize = event.stages.iter().map(|s| s.rounds.len()).sum();
            let details = format!(
                "{}: {} players, {} teams, {} stages, {rounds} rounds",
                event.name,
                event.players.len(),
                event.teams.len(),
                event.stages.len()
            );
            audit(
                tx,
                actor,
                "tournament imported",
                Some(id),
                None,
                "",
                &details,
            )?;
            Ok(id)
        })
    }
}
