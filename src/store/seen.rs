//! Two directors editing one round: the later is refused with what changed.
//!
//! A store remembers each round as it last showed it ([`Store::round_view`]). A change to the
//! round (a swap, publishing, a result...) first compares the round in the database with
//! what this store showed; if another desk changed it since, nothing is written and the
//! refusal lists the differences. Transactions alone would not say this: the other change
//! committed before ours began, so ours would simply apply on top of a round the director
//! has not seen. A store that never showed the round (the command line) checks nothing.

use super::db::{Tx, args};
use super::{Result, Store, StoreError, TournamentId};
use std::collections::HashMap;

/// What the director saw of a round: its state, start, boards and byes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RoundPrint {
    state: Option<String>,
    starts_at: Option<i64>,
    /// (board, table, white, black, result)
    boards: Vec<(u32, u32, u32, u32, String)>,
    byes: Vec<u32>,
}

/// How much of the round a change depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The whole round (swaps, publishing, re-pairing).
    Round,
    /// The round's state and one board (a result on that board).
    Board(u32),
}

/// Rounds as this store last showed them.
pub(crate) type Seen = HashMap<(TournamentId, u32), RoundPrint>;

pub(crate) fn round_print(q: &mut Tx<'_>, tid: TournamentId, round: u32) -> Result<RoundPrint> {
    let head: Option<(String, Option<i64>)> = q.query_opt(
        "SELECT state, starts_at FROM rounds WHERE tournament_id = ?1 AND number = ?2",
        args![tid, round],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let boards = q.query_map(
        "SELECT board_no, table_no, white, black, result FROM pairings
         WHERE tournament_id = ?1 AND round = ?2 ORDER BY board_no",
        args![tid, round],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )?;
    let byes = q.query_map(
        "SELECT player_no FROM round_byes WHERE tournament_id = ?1 AND round = ?2 ORDER BY player_no",
        args![tid, round],
        |r| r.get(0),
    )?;
    Ok(RoundPrint {
        state: head.as_ref().map(|h| h.0.clone()),
        starts_at: head.and_then(|h| h.1),
        boards,
        byes,
    })
}

/// What differs between the round as shown and as it is now, in words.
fn differences(round: u32, shown: &RoundPrint, now: &RoundPrint, scope: Scope) -> Vec<String> {
    let mut out = Vec::new();
    if shown.state != now.state {
        out.push(match &now.state {
            Some(s) => format!(
                "round {round} is now {s} (it was {})",
                shown.state.as_deref().unwrap_or("not paired")
            ),
            None => format!("round {round} was withdrawn"),
        });
    }
    let board_of = |p: &RoundPrint, b: u32| p.boards.iter().find(|x| x.0 == b).cloned();
    let mut numbers: Vec<u32> = shown
        .boards
        .iter()
        .chain(&now.boards)
        .map(|b| b.0)
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    for b in numbers {
        if let Scope::Board(only) = scope
            && only != b
        {
            continue;
        }
        match (board_of(shown, b), board_of(now, b)) {
            (Some(x), Some(y)) if x != y => {
                if (x.2, x.3) != (y.2, y.3) {
                    out.push(format!(
                        "table {}: players {} - {} are now {} - {}",
                        y.1, x.2, x.3, y.2, y.3
                    ));
                }
                if x.4 != y.4 {
                    out.push(format!("table {}: result {} is now {}", y.1, x.4, y.4));
                }
                if x.1 != y.1 {
                    out.push(format!("board {b}: table {} is now table {}", x.1, y.1));
                }
            }
            (Some(x), None) => out.push(format!("table {}: the board is gone", x.1)),
            (None, Some(y)) => out.push(format!("table {}: a new board {} - {}", y.1, y.2, y.3)),
            _ => {}
        }
    }
    if scope == Scope::Round {
        if shown.byes != now.byes {
            out.push(format!("byes {:?} are now {:?}", shown.byes, now.byes));
        }
        if shown.starts_at != now.starts_at {
            out.push("the official start was changed".into());
        }
    }
    out
}

impl Store {
    /// Remembers a round as this store shows it.
    pub(crate) fn remember_round(&self, tid: TournamentId, round: u32, print: RoundPrint) {
        self.seen.borrow_mut().insert((tid, round), print);
    }

    /// Runs a change of a round in one transaction, refused when another desk changed what
    /// it depends on since this store showed the round; remembers the round as changed.
    pub(crate) fn round_write<T>(
        &mut self,
        tid: TournamentId,
        round: u32,
        scope: Scope,
        mut f: impl FnMut(&mut Tx<'_>) -> Result<T>,
    ) -> Result<T> {
        let shown = self.seen.borrow().get(&(tid, round)).cloned();
        let (value, print) = self.write(|tx| {
            // Tournament first, then round, then game: one order for every writer.
            tx.lock("tournaments", "id = ?1", [tid])?;
            tx.lock(
                "rounds",
                "tournament_id = ?1 AND number = ?2",
                args![tid, round],
            )?;
            if let Some(shown) = &shown {
                let now = round_print(tx, tid, round)?;
                let changed = differences(round, shown, &now, scope);
                if !changed.is_empty() {
                    return Err(StoreError::Conflict(format!(
                        "round {round} was changed at another desk since this page showed it: {}. \
                         Nothing was saved; the page now shows the round as it is",
                        changed.join("; ")
                    )));
                }
            }
            let value = f(tx)?;
            Ok((value, round_print(tx, tid, round)?))
        })?;
        self.remember_round(tid, round, print);
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(state: &str, boards: &[(u32, u32, u32, u32, &str)]) -> RoundPrint {
        RoundPrint {
            state: Some(state.into()),
            starts_at: None,
            boards: boards
                .iter()
                .map(|&(a, b, c, d, e)| (a, b, c, d, e.to_string()))
                .collect(),
            byes: vec![],
        }
    }

    #[test]
    fn a_result_elsewhere_does_not_stop_a_result_on_another_board() {
        let shown = print(
            "published",
            &[(1, 1, 1, 2, "pending"), (2, 2, 3, 4, "pending")],
        );
        let now = print(
            "published",
            &[(1, 1, 1, 2, "pending"), (2, 2, 3, 4, "white")],
        );
        assert!(differences(3, &shown, &now, Scope::Board(1)).is_empty());
        assert_eq!(
            differences(3, &shown, &now, Scope::Board(2)),
            vec!["table 2: result pending is now white".to_string()]
        );
        assert_eq!(differences(3, &shown, &now, Scope::Round).len(), 1);
    }

    #[test]
    fn a_swap_and_a_publication_are_named() {
        let shown = print("draft", &[(1, 1, 1, 2, "pending")]);
        let now = print("published", &[(1, 1, 1, 3, "pending")]);
        let d = differences(3, &shown, &now, Scope::Round);
        assert_eq!(
            d,
            vec![
                "round 3 is now published (it was draft)".to_string(),
                "table 1: players 1 - 2 are now 1 - 3".to_string()
            ]
        );
    }
}
