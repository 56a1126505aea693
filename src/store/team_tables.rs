//! The tables of a tournament, whatever its kind (`spec/teams.md`, "Tables": every board
//! of a team match, every game of a board-groups round or of the final, is a table of its
//! own, arbitrated as any game): the round its tables play and its boards by table, for
//! the Tables page and the stations' API; and a team board's result following its game at
//! the desk, as an individual board follows it through the core's `DeskResult`.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::{Tx, args};
use super::error::Result;
use super::event_rows::{self, Reader};
use super::team_rounds::{self, read_rounds};
use super::team_rows;
use ggdesk_core::event::{BoardView, RoundKind, RoundState};
use ggdesk_core::tournament::{GameId, GameResult, PlayerId, RoundNo, TableNo, TournamentId};

/// The round a tournament's tables play (its last round that is not a draft) with its
/// boards by table, each with its live game at the desk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablesRound {
    pub number: RoundNo,
    pub state: RoundState,
    pub boards: Vec<BoardView>,
}

/// The tournament's name and the round its tables play, if any: for an event of players
/// the core's event's answer, for a team event the core's team event's on its rounds.
pub(super) fn tables_of(
    q: &mut Tx<'_>,
    tid: TournamentId,
) -> Result<(String, Option<TablesRound>)> {
    if !team_rows::is_team_event(q, tid)? {
        let event = event_rows::load(q, tid, Reader::Desk)?;
        let round = event.playing_round().map(|r| TablesRound {
            number: r.number,
            state: r.state,
            boards: event.boards_by_table(r.number),
        });
        return Ok((event.name().to_string(), round));
    }
    let (event, _) = team_rows::load(q, tid)?;
    // The last round that is not a draft, of any kind (a playoff's games are tables too).
    let last: Option<(RoundNo, RoundState)> = q.query_opt(
        "SELECT number, state FROM rounds WHERE tournament_id = ?1 AND state <> ?2
         ORDER BY number DESC LIMIT 1",
        args![tid, RoundState::Draft.code()],
        |r| Ok((r.get(0)?, r.code("state", RoundState::from_code)?)),
    )?;
    let Some((number, state)) = last else {
        return Ok((event.name, None));
    };
    let boards = team_boards(q, tid, &event, number)?;
    Ok((
        event.name,
        Some(TablesRound {
            number,
            state,
            boards,
        }),
    ))
}

/// The boards of round `n` of team event `event` by table: a round of matches or games, or
/// a stage's playoff round; none for a round that does not exist.
fn team_boards(
    q: &mut Tx<'_>,
    tid: TournamentId,
    event: &ggdesk_core::teams::TeamEvent,
    n: RoundNo,
) -> Result<Vec<BoardView>> {
    let desk = event_rows::read_desk(q, tid)?;
    if let Some(r) = read_rounds(q, tid)?.into_iter().find(|r| r.number == n) {
        return Ok(event.boards_by_table(n, &r.round, &desk));
    }
    let playoff: Option<usize> = q.query_opt(
        "SELECT stage FROM rounds WHERE tournament_id = ?1 AND number = ?2 AND kind = ?3",
        args![tid, n, RoundKind::Playoff.code()],
        |r| r.get(0),
    )?;
    let Some(stage) = playoff else {
        return Ok(Vec::new());
    };
    let games: Vec<_> = team_rows::read_pairings(q, tid)?
        .remove(&n)
        .unwrap_or_default()
        .iter()
        .map(|p| (TableNo(p.table), p.white, p.black, p.result))
        .collect();
    Ok(event.playoff_boards_by_table(n, stage, &games, &desk))
}

/// The boards of round `n` by table (any round, not only the one in play), for an event of
/// players or a team event alike; none for a round that does not exist.
pub(super) fn boards_of_round(
    q: &mut Tx<'_>,
    tid: TournamentId,
    n: RoundNo,
) -> Result<Vec<BoardView>> {
    if !team_rows::is_team_event(q, tid)? {
        return Ok(event_rows::load(q, tid, Reader::Desk)?.boards_by_table(n));
    }
    let (event, _) = team_rows::load(q, tid)?;
    team_boards(q, tid, &event, n)
}

/// The game under way at `table` of round `n` (started, not decided, not void), whose
/// result only the arbiter at the table gives: the refusal of a result typed by hand.
pub(super) fn under_way_refusal(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    (n, table): (RoundNo, TableNo),
) -> Result<()> {
    let playing: Option<i64> = tx.query_opt(
        "SELECT id FROM games WHERE tournament_id = ?1 AND round = ?2 AND table_no = ?3
         AND void = 0 AND started_at IS NOT NULL AND result IS NULL
         ORDER BY id DESC LIMIT 1",
        args![tid, n, table],
        |r| r.get(0),
    )?;
    match playing {
        Some(game) => Err(super::error::StoreError::Refused(
            ggdesk_core::event::Refusal::AtTheDesk {
                table,
                game: GameId(game),
            }
            .into(),
        )),
        None => Ok(()),
    }
}

/// A game at the desk at `table` of round `n` of a team event decided (`game`), or voided
/// (`None`, its board pending again): the board at that table with those players takes the
/// result and the round's state follows. Returns the round if it became complete.
pub(super) fn desk_result(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    (game, n, table): (Option<GameId>, RoundNo, TableNo),
    players: Option<(PlayerId, PlayerId)>,
    (result, reason): (GameResult, &str),
    actor: &Actor,
) -> Result<Option<RoundNo>> {
    // A playoff game's result is the core's to check (a playoff is decided in order).
    if let Some(at) = super::team_playoffs::game_at_table(tx, tid, (n, table))? {
        let was_complete = team_rounds::round_state(tx, tid, n)? == RoundState::Complete;
        let current: GameResult = tx.query_one(
            "SELECT result FROM pairings WHERE tournament_id = ?1 AND round = ?2 AND table_no = ?3",
            args![tid, n, table],
            |r| r.code("result", GameResult::from_name),
        )?;
        if current == result {
            return Ok(None);
        }
        super::team_playoffs::enter_result(tx, tid, at, (result, game), actor)?;
        let complete = team_rounds::round_state(tx, tid, n)? == RoundState::Complete;
        return Ok((complete && !was_complete).then_some(n));
    }
    let changed = match players {
        Some((w, k)) => tx.execute(
            "UPDATE pairings SET result = ?1
             WHERE tournament_id = ?2 AND round = ?3 AND table_no = ?4 AND result <> ?1
             AND white = ?5 AND black = ?6",
            args![result.name(), tid, n, table, w, k],
        )?,
        None => tx.execute(
            "UPDATE pairings SET result = ?1
             WHERE tournament_id = ?2 AND round = ?3 AND table_no = ?4 AND result <> ?1",
            args![result.name(), tid, n, table],
        )?,
    };
    if changed == 0 {
        return Ok(None);
    }
    let action = if game.is_some() {
        "result from the arbiter desk"
    } else {
        "board pending again (game void)"
    };
    audit(
        tx,
        actor,
        action,
        Some(tid),
        game.map(|g| g.0),
        reason,
        &format!("round {n}, table {table}: {}", result.name()),
    )?;
    let was_complete = team_rounds::round_state(tx, tid, n)? == RoundState::Complete;
    team_rounds::settle(tx, tid, n)?;
    let complete = team_rounds::round_state(tx, tid, n)? == RoundState::Complete;
    super::ratings::after_change(tx, tid, &format!("a result of round {n}"), actor, reason)?;
    Ok((complete && !was_complete).then_some(n))
}

impl Store {
    /// The tournament's name and the round its tables play, with its boards by table (an
    /// event of players or a team event alike). See [`TablesRound`].
    pub fn tables_round(&self, tid: TournamentId) -> Result<(String, Option<TablesRound>)> {
        self.read(|q| tables_of(q, tid))
    }

    /// The boards of round `n` of a tournament by table (an event of players or a team
    /// event alike).
    pub(super) fn boards_of_round(&self, tid: TournamentId, n: RoundNo) -> Result<Vec<BoardView>> {
        self.read(|q| boards_of_round(q, tid, n))
    }
}
