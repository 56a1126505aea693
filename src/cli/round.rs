//! `ggdesk --db DB round TID pair|publish|result`: an event's round commands from the command
//! line, done as the desk does them (the same store methods, the director's desk as the
//! actor), so that tests and scripts drive an event; a refused command exits 2 with the
//! desk's words.

use super::store_cmds::{not_found_is_input, open, store_error};
use super::{CliError, say};
use crate::store::{Actor, RoundState, Store, StoreError, TournamentId};
use clap::Subcommand;
use ggdesk_core::event::{Event, NextAction, RoundPlace, RoundView};
use ggdesk_core::tournament::{GameResult, RoundNo, TableNo};
use serde_json::{Map, Value, json};

#[derive(Debug, Subcommand)]
pub enum RoundWhat {
    /// Drafts the next round (or starts the next games of a knockout or a playoff, as the
    /// desk's Ctrl+P does) and prints it as `ggdesk pair` prints a file's.
    Pair,
    /// Publishes the drafted round.
    Publish,
    /// Enters the result of a table of the round in play; a change of an entered result
    /// needs --reason.
    Result {
        table: u32,
        /// white, black, draw, white_forfeit, black_forfeit, double_forfeit or pending.
        result: String,
        /// Why an entered result changes (kept in the audit log).
        #[arg(long, default_value = "")]
        reason: String,
    },
}

pub fn run(db: Option<String>, tid: i64, what: RoundWhat) -> Result<(), CliError> {
    let tid = TournamentId(tid);
    // A bad result is refused before the database is opened.
    let result = match &what {
        RoundWhat::Result { result, .. } => {
            Some(GameResult::from_name(result).ok_or_else(|| {
                CliError::Input(format!(
                    "unknown result {result:?} (expected white, black, draw, white_forfeit, \
                 black_forfeit, double_forfeit or pending)"
                ))
            })?)
        }
        _ => None,
    };
    let mut store = open(db)?;
    // A team event's rounds are its matches (spec/teams.md): the desk's team methods.
    if store.team_event(tid).map_err(not_found_is_input)?.is_some() {
        return run_team(&mut store, tid, what, result);
    }
    let event = store.event(tid).map_err(|e| match e {
        StoreError::NotFound(_) => CliError::Input(format!("no tournament {tid} in the database")),
        other => not_found_is_input(other),
    })?;
    let actor = Actor::director();
    match what {
        RoundWhat::Pair => {
            let number = match event.next_action() {
                NextAction::Start(_) | NextAction::Seed { start: true, .. } => {
                    store.start_next_games(tid, &actor).map_err(store_error)?.0
                }
                _ => store.pair_round(tid, &actor).map_err(store_error)?.round,
            };
            say(paired_json(&store, tid, number)?)
        }
        RoundWhat::Publish => {
            let draft = event
                .rounds()
                .last()
                .ok_or_else(|| CliError::Input("no round has been paired".into()))?
                .number;
            store
                .publish_round(tid, draft, &actor)
                .map_err(store_error)?;
            say(format!("round {draft} published"))
        }
        RoundWhat::Result { table, reason, .. } => {
            let result = result.unwrap_or(GameResult::Pending);
            let (round, view) = in_play(&store, &event, tid)?;
            let board = view
                .boards
                .iter()
                .find(|b| b.table == TableNo(table))
                .ok_or_else(|| CliError::Input(format!("round {round} has no table {table}")))?
                .board;
            let saved = store
                .set_result(tid, round, board, result, &reason, &actor)
                .map_err(store_error)?;
            say(format!("round {round}, table {table}: {}", result.name()))?;
            if saved.completed.is_some() {
                say(format!("round {round} is complete"))?;
            }
            Ok(())
        }
    }
}

/// `round` on a team event: `pair` drafts the next round of matches (or of board groups or
/// the final) and prints it as `ggdesk pair` prints the event's file; `publish` publishes
/// the draft; `result` enters the result of a table (a board of a match, a game) of the
/// round in play. A playoff needs the captains' nominees: the desk's Rounds page pairs it.
fn run_team(
    store: &mut Store,
    tid: TournamentId,
    what: RoundWhat,
    result: Option<GameResult>,
) -> Result<(), CliError> {
    let actor = Actor::director();
    let rounds = store.team_rounds(tid).map_err(store_error)?;
    match what {
        RoundWhat::Pair => {
            let event = store
                .team_event(tid)
                .map_err(store_error)?
                .ok_or_else(|| CliError::Other(format!("tournament {tid} is no team event")))?;
            // The step the store pairs is the core's next step of this very event.
            let step = event.next_step().ok();
            store.pair_team_round(tid, &actor).map_err(store_error)?;
            let step = step.ok_or_else(|| {
                CliError::Other("the round was paired but its step cannot be read".into())
            })?;
            say(step.to_json().to_string())
        }
        RoundWhat::Publish => {
            let draft = rounds
                .iter()
                .find(|r| r.state == RoundState::Draft)
                .ok_or_else(|| CliError::Input("no round is drafted".into()))?
                .number;
            store
                .publish_team_round(tid, draft, &actor)
                .map_err(store_error)?;
            say(format!("round {draft} published"))
        }
        RoundWhat::Result { table, .. } => {
            let result = result.unwrap_or(GameResult::Pending);
            let round = rounds
                .iter()
                .rev()
                .find(|r| r.state != RoundState::Draft)
                .ok_or_else(|| CliError::Input("no round has been published".into()))?
                .number;
            store
                .board_at(tid, round, TableNo(table))
                .map_err(store_error)?
                .ok_or_else(|| CliError::Input(format!("round {round} has no table {table}")))?;
            store
                .set_team_board_result(tid, round, TableNo(table), result, &actor)
                .map_err(store_error)?;
            say(format!("round {round}, table {table}: {}", result.name()))?;
            let complete = store
                .team_rounds(tid)
                .map_err(store_error)?
                .iter()
                .any(|r| r.number == round && r.state == RoundState::Complete);
            if complete {
                say(format!("round {round} is complete"))?;
            }
            Ok(())
        }
    }
}

/// The last round that is not a draft, with its view.
fn in_play(
    store: &Store,
    event: &Event,
    tid: TournamentId,
) -> Result<(RoundNo, RoundView), CliError> {
    let round = event
        .rounds()
        .iter()
        .rev()
        .find(|r| r.state != RoundState::Draft)
        .ok_or_else(|| CliError::Input("no round has been published".into()))?
        .number;
    let view = store
        .round_view(tid, round)
        .map_err(store_error)?
        .ok_or_else(|| CliError::Input(format!("round {round} has not been paired")))?;
    Ok((round, view))
}

/// A round just paired as `ggdesk pair` prints a file's: `{"round", "games", "byes"}`; in an
/// event of stages `{"stage", "round", "games", "byes"}` (games naming their group or match)
/// or, for playoff games, `{"stage", "playoff": true, "games"}`.
fn paired_json(store: &Store, tid: TournamentId, number: RoundNo) -> Result<String, CliError> {
    let view = store
        .round_view(tid, number)
        .map_err(store_error)?
        .ok_or_else(|| CliError::Other(format!("round {number} was paired but cannot be read")))?;
    let staged = store.event(tid).map_err(store_error)?.in_stages();
    let games: Vec<Value> = view
        .boards
        .iter()
        .map(|b| {
            let mut m = Map::new();
            if let Some(g) = b.group {
                m.insert("group".into(), json!(g.to_string()));
            }
            if let Some(s) = b.series {
                m.insert("match".into(), json!(s.to_string()));
            }
            m.insert("table".into(), json!(b.table.0));
            m.insert("white".into(), json!(b.white.no.0));
            m.insert("black".into(), json!(b.black.no.0));
            Value::Object(m)
        })
        .collect();
    let byes: Vec<u32> = view.byes.iter().map(|(p, _)| p.no.0).collect();
    let value = match view.place {
        _ if !staged => json!({"round": number.0, "games": games, "byes": byes}),
        RoundPlace::Round { stage, round } => {
            json!({"stage": stage.0, "round": round.0, "games": games, "byes": byes})
        }
        RoundPlace::Playoff { stage, .. } => {
            json!({"stage": stage.0, "playoff": true, "games": games})
        }
    };
    Ok(value.to_string())
}
