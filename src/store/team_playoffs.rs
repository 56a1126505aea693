//! A team event's playoffs at the desk (spec/teams.md, "Ties at a team cut" and the level
//! final): the next playoff games of the core's step with the players the captains
//! nominate ([`TeamEvent::playoff_games`] decides them and refuses in its words), and a
//! result per playoff game ([`TeamEvent::with_playoff_result`]). One transaction each,
//! audited.
//!
//! A stage's playoff games are kept in the rows the import writes: one round of kind
//! `playoff` for the stage (created with its first game, its later games added to it), a
//! `pairings` row per game numbered on in the stage's order (its table its number, not
//! given), so [`team_rows::load`] reads them back as the stage's `playoffs` and the export
//! writes them as the file's.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::{Tx, args};
use super::error::{Result, StoreError};
use super::team_rows::{self, Board, insert_board};
use ggdesk_core::event::words::result_long;
use ggdesk_core::event::{RoundKind, RoundState};
use ggdesk_core::teams::{TeamEvent, TeamId};
use ggdesk_core::tournament::{GameResult, PlayerId, RoundNo, TournamentId};

fn refused(e: impl Into<ggdesk_core::Refusal>) -> StoreError {
    StoreError::Refused(e.into())
}

/// A draft round stops the playoff: it was paired from the event as it stood.
fn no_draft(tx: &mut Tx<'_>, tid: TournamentId) -> Result<()> {
    let draft: Option<RoundNo> = tx.query_opt(
        "SELECT number FROM rounds WHERE tournament_id = ?1 AND state = ?2 ORDER BY number",
        args![tid, RoundState::Draft.code()],
        |r| r.get(0),
    )?;
    match draft {
        Some(n) => Err(StoreError::Rejected(format!(
            "round {n} is a draft: publish it or discard it first"
        ))),
        None => Ok(()),
    }
}

/// The playoff rounds of stage `stage` (from 1) in order, with their games' numbers in
/// order: the stage's playoff games as the loader reads them.
fn playoff_games(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    stage: usize,
) -> Result<Vec<(RoundNo, usize)>> {
    tx.query_map(
        "SELECT p.round, p.board_no FROM pairings p
         JOIN rounds r ON r.tournament_id = p.tournament_id AND r.number = p.round
         WHERE p.tournament_id = ?1 AND r.stage = ?2 AND r.kind = ?3 AND r.state <> ?4
         ORDER BY p.round, p.board_no",
        args![
            tid,
            stage,
            RoundKind::Playoff.code(),
            RoundState::Draft.code()
        ],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// A playoff round's state from its games: complete once every game has a result.
fn settle(tx: &mut Tx<'_>, tid: TournamentId, n: RoundNo) -> Result<()> {
    let pending: i64 = tx.query_one(
        "SELECT COUNT(*) FROM pairings WHERE tournament_id = ?1 AND round = ?2 AND result = ?3",
        args![tid, n, GameResult::Pending.name()],
        |r| r.get(0),
    )?;
    let (state, completed) = if pending == 0 {
        (RoundState::Complete, Some(tx.now()))
    } else {
        (RoundState::Published, None)
    };
    tx.execute(
        "UPDATE rounds SET state = ?1, completed_at = ?2
         WHERE tournament_id = ?3 AND number = ?4 AND state <> ?1",
        args![state.code(), completed, tid, n],
    )?;
    Ok(())
}

/// "Reyes, Ana (Tondo Tigers)".
fn with_team(e: &TeamEvent, p: PlayerId) -> String {
    let name = e
        .player(p)
        .map_or_else(|| format!("player {p}"), |x| x.name.clone());
    match e.team_of(p).and_then(|t| e.team(t)) {
        Some(t) => format!("{name} ({})", t.name),
        None => name,
    }
}

/// "at the cut of stage 1" or "of the final (stage 2)".
fn playoff_place(e: &TeamEvent, stage: usize) -> String {
    if e.is_final_playoff(stage) {
        format!("of the final (stage {stage})")
    } else {
        format!("at the cut of stage {stage}")
    }
}

/// Enters the result of playoff game `game` of stage `stage` (both from 1), checked by the
/// core; `desk_game`: the game at the desk that decided it (`None`: entered by hand, where a
/// game under way at its table refuses it, as for any board). The playoff round's state
/// follows; a rated event's list is rebuilt.
pub(super) fn enter_result(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    (stage, game): (usize, usize),
    (result, desk_game): (GameResult, Option<ggdesk_core::tournament::GameId>),
    actor: &Actor,
) -> Result<()> {
    let (event, _) = team_rows::load(tx, tid)?;
    let after = event
        .with_playoff_result(stage, game, result)
        .map_err(refused)?;
    let rows = playoff_games(tx, tid, stage)?;
    let (n, board_no) = game
        .checked_sub(1)
        .and_then(|i| rows.get(i).copied())
        .ok_or_else(|| StoreError::NotFound(format!("playoff game {game} of stage {stage}")))?;
    if desk_game.is_none() {
        let table: ggdesk_core::tournament::TableNo = tx.query_one(
            "SELECT table_no FROM pairings WHERE tournament_id = ?1 AND round = ?2 AND board_no = ?3",
            args![tid, n, board_no],
            |r| r.get(0),
        )?;
        super::team_tables::under_way_refusal(tx, tid, (n, table))?;
    }
    tx.execute(
        "UPDATE pairings SET result = ?1
         WHERE tournament_id = ?2 AND round = ?3 AND board_no = ?4",
        args![result.name(), tid, n, board_no],
    )?;
    settle(tx, tid, n)?;
    let players = after
        .stages
        .get(stage - 1)
        .and_then(|s| s.playoffs.get(game - 1))
        .map(|g| (g.white, g.black));
    let Some((white, black)) = players else {
        return Err(StoreError::NotFound(format!(
            "playoff game {game} of stage {stage}"
        )));
    };
    let action = if desk_game.is_some() {
        "playoff result from the arbiter desk"
    } else {
        "playoff result entered"
    };
    audit(
        tx,
        actor,
        action,
        Some(tid),
        desk_game.map(|g| g.0),
        "",
        &format!(
            "playoff {}, game {game}: {} – {}: {}",
            playoff_place(&event, stage),
            with_team(&event, white),
            with_team(&event, black),
            result_long(result)
        ),
    )?;
    super::ratings::after_change(
        tx,
        tid,
        &format!("a playoff result of stage {stage}"),
        actor,
        "",
    )
}

/// The playoff game (stage, game, both from 1) at `table` of playoff round `n`, if any.
pub(super) fn game_at_table(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    (n, table): (RoundNo, ggdesk_core::tournament::TableNo),
) -> Result<Option<(usize, usize)>> {
    let at: Option<(usize, usize)> = tx.query_opt(
        "SELECT r.stage, p.board_no FROM pairings p
         JOIN rounds r ON r.tournament_id = p.tournament_id AND r.number = p.round
         WHERE p.tournament_id = ?1 AND p.round = ?2 AND p.table_no = ?3 AND r.kind = ?4",
        args![tid, n, table, RoundKind::Playoff.code()],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let Some((stage, board_no)) = at else {
        return Ok(None);
    };
    let rows = playoff_games(tx, tid, stage)?;
    Ok(rows
        .iter()
        .position(|&(r, b)| r == n && b == board_no)
        .map(|i| (stage, i + 1)))
}

impl Store {
    /// The number the event's next round is paired as: one past every round, the playoff
    /// rounds (which the rounds' list does not hold) included.
    pub fn next_team_round_no(&self, tid: TournamentId) -> Result<RoundNo> {
        self.read(|q| {
            q.query_one(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM rounds WHERE tournament_id = ?1",
                [tid],
                |r| r.get(0),
            )
        })
    }

    /// Pairs the next playoff games of a team event with the captains' nominees (a player
    /// of each team that plays off; a team that played off already keeps its nominee, and
    /// may be left out): the games the core's step gives, colours as it gives them, added
    /// to the stage's playoff round (created with the first game). Returns the round's
    /// number.
    pub fn pair_team_playoff(
        &mut self,
        tid: TournamentId,
        nominees: &[(TeamId, PlayerId)],
        actor: &Actor,
    ) -> Result<RoundNo> {
        self.write(|tx| {
            let (event, _) = team_rows::load(tx, tid)?;
            no_draft(tx, tid)?;
            let (stage, games) = event.playoff_games(nominees).map_err(refused)?;
            let existing: Option<RoundNo> = tx.query_opt(
                "SELECT number FROM rounds WHERE tournament_id = ?1 AND stage = ?2 AND kind = ?3
                 ORDER BY number DESC LIMIT 1",
                args![tid, stage, RoundKind::Playoff.code()],
                |r| r.get(0),
            )?;
            let n = match existing {
                Some(n) => n,
                None => {
                    let n: RoundNo = tx.query_one(
                        "SELECT COALESCE(MAX(number), 0) + 1 FROM rounds WHERE tournament_id = ?1",
                        [tid],
                        |r| r.get(0),
                    )?;
                    let now = tx.now();
                    tx.execute(
                        "INSERT INTO rounds (tournament_id, number, state, published_at, stage,
                             kind)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        args![
                            tid,
                            n,
                            RoundState::Published.code(),
                            now,
                            stage,
                            RoundKind::Playoff.code()
                        ],
                    )?;
                    n
                }
            };
            let mut board_no: usize = tx.query_one(
                "SELECT COALESCE(MAX(board_no), 0) FROM pairings
                 WHERE tournament_id = ?1 AND round = ?2",
                args![tid, n],
                |r| r.get(0),
            )?;
            for g in &games {
                board_no += 1;
                insert_board(
                    tx,
                    tid,
                    n,
                    &Board {
                        board_no,
                        table: i64::try_from(board_no).unwrap_or(i64::MAX),
                        table_given: false,
                        white: g.white,
                        black: g.black,
                        result: GameResult::Pending,
                        board_group: None,
                    },
                )?;
            }
            settle(tx, tid, n)?;
            let list: Vec<String> = games
                .iter()
                .map(|g| {
                    format!(
                        "{} – {}",
                        with_team(&event, g.white),
                        with_team(&event, g.black)
                    )
                })
                .collect();
            audit(
                tx,
                actor,
                "playoff paired",
                Some(tid),
                None,
                "",
                &format!(
                    "playoff {}, round {n}: {}",
                    playoff_place(&event, stage),
                    list.join("; ")
                ),
            )?;
            Ok(n)
        })
    }

    /// Enters the result of playoff game `game` of stage `stage` (both from 1, the game
    /// counted in the stage's playoff order, as the file's `playoffs`), checked by the
    /// core: a result may not decide the playoff before a game played after it, nor change
    /// a playoff whose next stage has started.
    pub fn set_team_playoff_result(
        &mut self,
        tid: TournamentId,
        (stage, game): (usize, usize),
        result: GameResult,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            no_draft(tx, tid)?;
            enter_result(tx, tid, (stage, game), (result, None), actor)
        })
    }
}
