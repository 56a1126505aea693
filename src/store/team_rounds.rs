//! A team event's rounds at the desk (spec/teams.md, "Line-ups" and "Rounds"): the next
//! round paired by the core ([`TeamEvent::next_step`]: matches through the team image and
//! the `/1` engine, or the games of a board groups round or of the final) and kept as a
//! draft, each match's teams on their default line-ups; published; each
//! team's line-up set before the round starts (checked by the core's line-up rule) and
//! corrected after it only with a reason; the official start; a result per board. Every
//! game over a board is a `pairings` row at table (t−1)×B + b, so the Tables page and the
//! stations see whole matches. One transaction each, audited.
//!
//! Draft rounds are this module's: the core's event ([`team_rows::load`]) holds the rounds
//! published, so a draft never counts and the next pairing waits for it.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::{Tx, args};
use super::error::{Context, Result, StoreError};
use super::team_rows::{self, Board, board_table, insert_board, read_matches, read_pairings};
use ggdesk_core::event::words::result_long;
use ggdesk_core::event::{RoundKind, RoundState};
use ggdesk_core::teams::{GroupGame, TeamId, TeamMatch, TeamRound, TeamStep, check_lineup};
use ggdesk_core::tournament::{GameResult, PlayerId, RoundNo, TableNo, TournamentId};

/// A round of a team event as the desk shows it: its state, whether it has started, and
/// its matches with their line-ups and results (or its games, in a stage of games).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRoundView {
    pub number: RoundNo,
    /// The stage, from 1.
    pub stage: usize,
    pub state: RoundState,
    /// The official start (Unix ms): a line-up changed after it is a correction.
    pub starts_at: Option<i64>,
    pub round: TeamRound,
}

fn refused(e: impl Into<ggdesk_core::Refusal>) -> StoreError {
    StoreError::Refused(e.into())
}

/// The rounds of the event, drafts included, in order.
pub(super) fn read_rounds(q: &mut Tx<'_>, tid: TournamentId) -> Result<Vec<TeamRoundView>> {
    let rows: Vec<(RoundNo, RoundState, usize, Option<i64>)> = q.query_map(
        "SELECT number, state, stage, starts_at FROM rounds WHERE tournament_id = ?1
         AND kind = 'round' ORDER BY number",
        [tid],
        |r| {
            let n: RoundNo = r.get(0)?;
            (|| {
                Ok((
                    n,
                    r.code("state", RoundState::from_code)?,
                    r.get(2)?,
                    r.get(3)?,
                ))
            })()
            .at("rounds", format!("tournament {tid}, round {n}"))
        },
    )?;
    let games = read_pairings(q, tid)?;
    let mut matches = read_matches(q, tid, &games)?;
    let byes: Vec<(RoundNo, u32)> = q.query_map(
        "SELECT round, team_no FROM team_byes WHERE tournament_id = ?1
         ORDER BY round, seq, team_no",
        [tid],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(rows
        .into_iter()
        .map(|(number, state, stage, starts_at)| {
            let matches = matches.remove(&number).unwrap_or_default();
            // A round of board groups or of the final holds games, no matches.
            let games = if matches.is_empty() {
                games
                    .get(&number)
                    .map(|list| {
                        list.iter()
                            .map(|g| GroupGame {
                                board: g.board_group,
                                table: g.table_given.then_some(g.table),
                                white: g.white,
                                black: g.black,
                                result: g.result,
                            })
                            .collect()
                    })
                    .unwrap_or_default()
            } else {
                Vec::new()
            };
            TeamRoundView {
                number,
                stage,
                state,
                starts_at,
                round: TeamRound {
                    matches,
                    byes: byes
                        .iter()
                        .filter(|(r, _)| *r == number)
                        .map(|(_, t)| TeamId(*t))
                        .collect(),
                    games,
                },
            }
        })
        .collect())
}

fn round_of(q: &mut Tx<'_>, tid: TournamentId, n: RoundNo) -> Result<TeamRoundView> {
    read_rounds(q, tid)?
        .into_iter()
        .find(|r| r.number == n)
        .ok_or_else(|| StoreError::NotFound(format!("round {n} of tournament {tid}")))
}

/// The match's table: the file's, else its place in the round.
fn match_table(m: &TeamMatch, i: usize) -> u32 {
    m.table
        .unwrap_or_else(|| u32::try_from(i + 1).unwrap_or(u32::MAX))
}

/// The boards of a match from the two teams' line-ups: white is the home team's on odd
/// boards; a side left empty is the forfeit that says so.
fn boards_of(
    home: &[Option<PlayerId>],
    away: &[Option<PlayerId>],
) -> Vec<(Option<PlayerId>, Option<PlayerId>)> {
    home.iter()
        .zip(away)
        .enumerate()
        .map(|(b, (h, a))| if b % 2 == 0 { (*h, *a) } else { (*a, *h) })
        .collect()
}

/// The next free game number of round `n`.
fn next_board_no(tx: &mut Tx<'_>, tid: TournamentId, n: RoundNo) -> Result<usize> {
    tx.query_one(
        "SELECT COALESCE(MAX(board_no), 0) + 1 FROM pairings
         WHERE tournament_id = ?1 AND round = ?2",
        args![tid, n],
        |r| r.get(0),
    )
}

/// Writes the boards of match `match_no` (at table `t`): a game where both sides are
/// filled (its result kept from `kept` when the same two players were there), a line-up
/// row alone where a side is empty.
fn write_boards(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    (n, match_no, t, boards): (RoundNo, usize, u32, usize),
    sides: &[(Option<PlayerId>, Option<PlayerId>)],
    kept: &[(Option<PlayerId>, Option<PlayerId>, GameResult)],
) -> Result<()> {
    for (b, (white, black)) in sides.iter().enumerate() {
        let game = match (white, black) {
            (Some(w), Some(k)) => {
                let result = kept
                    .iter()
                    .find(|(kw, kb, _)| *kw == Some(*w) && *kb == Some(*k))
                    .map_or(GameResult::Pending, |(_, _, r)| *r);
                let board_no = next_board_no(tx, tid, n)?;
                insert_board(
                    tx,
                    tid,
                    n,
                    &Board {
                        board_no,
                        table: board_table(t, boards, b),
                        table_given: true,
                        white: *w,
                        black: *k,
                        result,
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
            args![tid, n, match_no, b + 1, white, black, game],
        )?;
    }
    Ok(())
}

impl Store {
    /// Every round of a team event, drafts included, with its matches as they stand.
    pub fn team_rounds(&self, tid: TournamentId) -> Result<Vec<TeamRoundView>> {
        self.read(|q| read_rounds(q, tid))
    }

    /// Pairs the event's next round of matches as a draft, each team on its default
    /// line-up (the first B roster players still in the event), the core deciding the
    /// matches and byes. Returns the round's number.
    pub fn pair_team_round(&mut self, tid: TournamentId, actor: &Actor) -> Result<RoundNo> {
        self.write(|tx| {
            let (event, _) = team_rows::load(tx, tid)?;
            let rounds = read_rounds(tx, tid)?;
            if let Some(d) = rounds.iter().find(|r| r.state == RoundState::Draft) {
                return Err(StoreError::Rejected(format!(
                    "round {} is a draft: publish it or discard it first",
                    d.number
                )));
            }
            let step = event.next_step().map_err(refused)?;
            let n: RoundNo = tx.query_one(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM rounds WHERE tournament_id = ?1",
                [tid],
                |r| r.get(0),
            )?;
            let (stage, matches, byes, games) = match step {
                TeamStep::Matches {
                    stage,
                    matches,
                    byes,
                    ..
                } => (stage, matches, byes, Vec::new()),
                TeamStep::BoardGroups { stage, games, .. } => (
                    stage,
                    Vec::new(),
                    Vec::new(),
                    games
                        .into_iter()
                        .map(|(b, t, w, k)| (Some(b), t, w, k))
                        .collect(),
                ),
                TeamStep::Final { stage, games, .. } => (
                    stage,
                    Vec::new(),
                    Vec::new(),
                    games.into_iter().map(|(t, w, k)| (None, t, w, k)).collect(),
                ),
                TeamStep::Playoff { .. } => {
                    return Err(StoreError::Rejected(
                        "the next step is a playoff between tied teams, whose captains name \
                         the players: pair it with their nominees (the Rounds page's playoff \
                         card)"
                            .into(),
                    ));
                }
            };
            tx.execute(
                "INSERT INTO rounds (tournament_id, number, state, stage, kind)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                args![
                    tid,
                    n,
                    RoundState::Draft.code(),
                    stage,
                    RoundKind::Round.code()
                ],
            )?;
            let boards = event.settings.boards;
            for (i, (t, home, away)) in matches.iter().enumerate() {
                tx.execute(
                    "INSERT INTO team_matches (tournament_id, round, match_no, table_no, home,
                         away)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    args![tid, n, i + 1, t, home.0, away.0],
                )?;
                let sides = boards_of(&event.default_lineup(*home), &event.default_lineup(*away));
                write_boards(tx, tid, (n, i + 1, *t, boards), &sides, &[])?;
            }
            for (i, (group, t, w, k)) in games.iter().enumerate() {
                insert_board(
                    tx,
                    tid,
                    n,
                    &Board {
                        board_no: i + 1,
                        table: i64::from(*t),
                        table_given: true,
                        white: *w,
                        black: *k,
                        result: GameResult::Pending,
                        board_group: *group,
                    },
                )?;
            }
            for (i, t) in byes.iter().enumerate() {
                tx.execute(
                    "INSERT INTO team_byes (tournament_id, round, team_no, seq)
                     VALUES (?1, ?2, ?3, ?4)",
                    args![tid, n, t.0, i],
                )?;
            }
            let names = |ids: &[TeamId]| -> Vec<String> {
                ids.iter()
                    .map(|t| {
                        event
                            .team(*t)
                            .map_or_else(|| t.to_string(), |x| x.name.clone())
                    })
                    .collect()
            };
            let bye = if byes.is_empty() {
                String::new()
            } else {
                format!("; bye: {}", names(&byes).join(", "))
            };
            audit(
                tx,
                actor,
                "round paired",
                Some(tid),
                None,
                "",
                &if games.is_empty() {
                    format!("round {n} (stage {stage}): {} matches{bye}", matches.len())
                } else {
                    format!("round {n} (stage {stage}): {} games", games.len())
                },
            )?;
            Ok(n)
        })
    }

    /// Publishes a draft round: its matches are shown, its line-ups still open until the
    /// round starts.
    pub fn publish_team_round(
        &mut self,
        tid: TournamentId,
        n: RoundNo,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            let r = round_of(tx, tid, n)?;
            if r.state != RoundState::Draft {
                return Err(StoreError::Rejected(format!(
                    "round {n} is published already"
                )));
            }
            let now = tx.now();
            tx.execute(
                "UPDATE rounds SET state = ?1, published_at = ?2
                 WHERE tournament_id = ?3 AND number = ?4",
                args![RoundState::Published.code(), now, tid, n],
            )?;
            audit(
                tx,
                actor,
                "round published",
                Some(tid),
                None,
                "",
                &format!("round {n}"),
            )
        })
    }

    /// Discards a draft round and everything paired in it.
    pub fn discard_team_draft(
        &mut self,
        tid: TournamentId,
        n: RoundNo,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            let r = round_of(tx, tid, n)?;
            if r.state != RoundState::Draft {
                return Err(StoreError::Rejected(format!(
                    "round {n} is published: only a draft is discarded"
                )));
            }
            for table in ["team_byes", "team_boards", "team_matches", "pairings"] {
                tx.execute(
                    &format!("DELETE FROM {table} WHERE tournament_id = ?1 AND round = ?2"),
                    args![tid, n],
                )?;
            }
            tx.execute(
                "DELETE FROM rounds WHERE tournament_id = ?1 AND number = ?2",
                args![tid, n],
            )?;
            audit(
                tx,
                actor,
                "draft discarded",
                Some(tid),
                None,
                "",
                &format!("round {n}"),
            )
        })
    }

    /// The round's official start: from it on, a line-up changed is a correction.
    pub fn start_team_round(&mut self, tid: TournamentId, n: RoundNo, actor: &Actor) -> Result<()> {
        self.write(|tx| {
            let r = round_of(tx, tid, n)?;
            if r.state == RoundState::Draft {
                return Err(StoreError::Rejected(format!(
                    "round {n} is a draft: publish it before it starts"
                )));
            }
            if r.starts_at.is_some() {
                return Err(StoreError::Rejected(format!(
                    "round {n} has started already"
                )));
            }
            let now = tx.now();
            tx.execute(
                "UPDATE rounds SET starts_at = ?1 WHERE tournament_id = ?2 AND number = ?3",
                args![now, tid, n],
            )?;
            audit(
                tx,
                actor,
                "round started",
                Some(tid),
                None,
                "",
                &format!("round {n}"),
            )
        })
    }

    /// Sets a team's line-up in match `match_no` (from 1) of round `n`: B boards, `None`
    /// left empty, checked by the core's line-up rule. Before the round starts it is the
    /// captain's line-up; after it, a correction that needs `reason`. A board whose players
    /// change must have no result yet.
    pub fn set_team_lineup(
        &mut self,
        tid: TournamentId,
        (n, match_no): (RoundNo, usize),
        team: TeamId,
        lineup: &[Option<PlayerId>],
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        let reason = reason.trim();
        self.write(|tx| {
            let (event, _) = team_rows::load(tx, tid)?;
            let r = round_of(tx, tid, n)?;
            let m = match_no
                .checked_sub(1)
                .and_then(|i| r.round.matches.get(i))
                .ok_or_else(|| StoreError::NotFound(format!("match {match_no} of round {n}")))?;
            let home_side = if m.home == team {
                true
            } else if m.away == team {
                false
            } else {
                return Err(StoreError::Rejected(format!(
                    "team {team} does not play match {match_no} of round {n}"
                )));
            };
            if r.state == RoundState::Complete && r.starts_at.is_none() {
                return Err(StoreError::Rejected(format!("round {n} is complete")));
            }
            let correction = r.starts_at.is_some();
            if correction && reason.is_empty() {
                return Err(StoreError::Rejected(
                    "the round has started: a line-up changed now is a correction, give its \
                     reason"
                        .into(),
                ));
            }
            check_lineup(&event, team, lineup).map_err(refused)?;
            let boards = event.settings.boards;
            let (home, away): (Vec<Option<PlayerId>>, Vec<Option<PlayerId>>) = (0..boards)
                .map(|b| m.sides(b).unwrap_or((None, None)))
                .unzip();
            let sides = if home_side {
                boards_of(lineup, &away)
            } else {
                boards_of(&home, lineup)
            };
            let old: Vec<(Option<PlayerId>, Option<PlayerId>, GameResult)> = m
                .boards
                .iter()
                .map(|g| (g.white, g.black, g.result))
                .collect();
            for (b, ((w, k), (ow, ok, result))) in sides.iter().zip(&old).enumerate() {
                let filled = ow.is_some() && ok.is_some();
                if (w, k) != (ow, ok) && filled && *result != GameResult::Pending {
                    return Err(StoreError::Rejected(format!(
                        "board {} has a result ({}): take it back before its players change",
                        b + 1,
                        result_long(*result)
                    )));
                }
            }
            let t = match_table(m, match_no - 1);
            for (b, ((w, k), (ow, ok, _))) in sides.iter().zip(&old).enumerate() {
                if (w, k) != (ow, ok) {
                    let table = TableNo(ggdesk_core::teams::board_table(t, boards, b));
                    set_aside_desk_game(tx, tid, (n, b + 1, table), reason, actor)?;
                }
            }
            tx.execute(
                "DELETE FROM team_boards WHERE tournament_id = ?1 AND round = ?2 AND match_no = ?3",
                args![tid, n, match_no],
            )?;
            tx.execute(
                "DELETE FROM pairings WHERE tournament_id = ?1 AND round = ?2
                 AND table_no > ?3 AND table_no <= ?4",
                args![
                    tid,
                    n,
                    board_table(t, boards, 0) - 1,
                    board_table(t, boards, boards.saturating_sub(1))
                ],
            )?;
            let kept: Vec<_> = old
                .iter()
                .filter(|(w, k, _)| w.is_some() && k.is_some())
                .copied()
                .collect();
            write_boards(tx, tid, (n, match_no, t, boards), &sides, &kept)?;
            let names: Vec<String> = lineup
                .iter()
                .map(|p| {
                    p.and_then(|p| event.player(p))
                        .map_or_else(|| "(empty)".to_string(), |p| p.name.clone())
                })
                .collect();
            let team_name = event
                .team(team)
                .map_or_else(String::new, |t| t.name.clone());
            let (action, why) = if correction {
                ("line-up corrected", reason)
            } else {
                ("line-up set", "")
            };
            audit(
                tx,
                actor,
                action,
                Some(tid),
                None,
                why,
                &format!(
                    "round {n}, match {match_no}: {team_name}: {}",
                    names.join(", ")
                ),
            )?;
            // A board whose result an empty side implies may complete the round.
            settle(tx, tid, n)?;
            super::ratings::after_change(tx, tid, &format!("a line-up of round {n}"), actor, why)
        })
    }

    /// Enters the result of the board at `table` of round `n` (published): the round is
    /// complete once every board has one.
    pub fn set_team_board_result(
        &mut self,
        tid: TournamentId,
        n: RoundNo,
        table: TableNo,
        result: GameResult,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            let r = round_of(tx, tid, n)?;
            if r.state == RoundState::Draft {
                return Err(StoreError::Rejected(format!(
                    "round {n} is a draft: publish it before its results"
                )));
            }
            // A game under way at the desk gives the board its result (as for any board).
            super::team_tables::under_way_refusal(tx, tid, (n, table))?;
            let changed = tx.execute(
                "UPDATE pairings SET result = ?1
                 WHERE tournament_id = ?2 AND round = ?3 AND table_no = ?4",
                args![result.name(), tid, n, table],
            )?;
            if changed == 0 {
                return Err(StoreError::NotFound(format!(
                    "a game at table {table} of round {n}"
                )));
            }
            audit(
                tx,
                actor,
                "result entered",
                Some(tid),
                None,
                "",
                &format!("round {n}, table {table}: {}", result_long(result)),
            )?;
            settle(tx, tid, n)?;
            super::ratings::after_change(tx, tid, &format!("a result of round {n}"), actor, "")
        })
    }
}

/// Before board `b` (from 1) at `table` of round `n` changes its players: a game at the desk
/// there that has started refuses the change (its players are the ones who came); one
/// whose clocks have not started is voided, with the line-up's reason.
fn set_aside_desk_game(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    (n, b, table): (RoundNo, usize, TableNo),
    reason: &str,
    actor: &Actor,
) -> Result<()> {
    let games: Vec<(i64, bool)> = tx.query_map(
        "SELECT id, started_at IS NOT NULL FROM games
         WHERE tournament_id = ?1 AND round = ?2 AND table_no = ?3 AND void = 0
         ORDER BY id",
        args![tid, n, table],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if let Some((id, _)) = games.iter().find(|(_, started)| *started) {
        return Err(StoreError::Rejected(format!(
            "board {b} is played at table {table} (game {id}): its players do not change \
             once its clocks have started"
        )));
    }
    let why = if reason.is_empty() {
        "line-up changed before the game started"
    } else {
        reason
    };
    for (id, _) in games {
        tx.execute(
            "UPDATE games SET void = 1, void_reason = ?1 WHERE id = ?2",
            args![why, id],
        )?;
        audit(
            tx,
            actor,
            "game void",
            Some(tid),
            Some(id),
            why,
            &format!("round {n}, table {table}: board {b}'s line-up changed"),
        )?;
    }
    Ok(())
}

/// The state of round `n` as kept.
pub(super) fn round_state(tx: &mut Tx<'_>, tid: TournamentId, n: RoundNo) -> Result<RoundState> {
    tx.query_one(
        "SELECT state FROM rounds WHERE tournament_id = ?1 AND number = ?2",
        args![tid, n],
        |r| r.code("state", RoundState::from_code),
    )
}

/// The round's state from its boards: complete once every game has a result (published
/// again when one is taken back).
pub(super) fn settle(tx: &mut Tx<'_>, tid: TournamentId, n: RoundNo) -> Result<()> {
    let r = round_of(tx, tid, n)?;
    if r.state == RoundState::Draft {
        return Ok(());
    }
    let complete = r.round.is_complete();
    let state = if complete {
        RoundState::Complete
    } else {
        RoundState::Published
    };
    if state != r.state {
        let now = tx.now();
        tx.execute(
            "UPDATE rounds SET state = ?1, completed_at = ?2 WHERE tournament_id = ?3 AND number = ?4",
            args![state.code(), complete.then_some(now), tid, n],
        )?;
    }
    Ok(())
}
