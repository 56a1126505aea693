//! Two directors editing one round: the later is refused with what changed.
//!
//! A store remembers each round as it last showed it ([`Store::round_view`]). A change to the
//! round (a swap, publishing, a result...) first compares the round in the database with
//! what this store showed; if another desk changed it since, nothing is written and the
//! refusal lists the differences. Transactions alone would not say this: the other change
//! committed before ours began, so ours would simply apply on top of a round the director
//! has not seen. A store that never showed the round (the command line) checks nothing.

use ggdesk_core::event::RoundRecord;
use ggdesk_core::tournament::{BoardNo, GameResult, PlayerId, RoundNo, TableNo, TournamentId};
use std::collections::HashMap;

/// What the director saw of a round: its state, start, boards and byes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RoundPrint {
    state: Option<String>,
    starts_at: Option<i64>,
    boards: Vec<BoardPrint>,
    /// Sorted by number.
    byes: Vec<PlayerId>,
}

/// What the director saw of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BoardPrint {
    board: BoardNo,
    table: TableNo,
    white: PlayerId,
    black: PlayerId,
    result: GameResult,
}

/// How much of the round a change depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The whole round (swaps, publishing, re-pairing).
    Round,
    /// The round's state and one board (a result on that board).
    Board(BoardNo),
}

/// Rounds as this store last showed them.
pub(crate) type Seen = HashMap<(TournamentId, RoundNo), RoundPrint>;

/// The print of a round as it stands (`None`: not paired).
pub(crate) fn round_print(round: Option<&RoundRecord>) -> RoundPrint {
    let Some(r) = round else {
        return RoundPrint {
            state: None,
            starts_at: None,
            boards: Vec::new(),
            byes: Vec::new(),
        };
    };
    let mut byes: Vec<PlayerId> = r.byes.iter().map(|b| b.player).collect();
    byes.sort_unstable();
    RoundPrint {
        state: Some(r.state.code().to_string()),
        starts_at: r.starts_at,
        boards: r
            .boards
            .iter()
            .map(|b| BoardPrint {
                board: b.board,
                table: b.table,
                white: b.white,
                black: b.black,
                result: b.result,
            })
            .collect(),
        byes,
    }
}

/// The refusal of a change of a round another desk changed since this store showed it:
/// `None` when what the change depends on is as shown.
pub(crate) fn conflict(
    round: RoundNo,
    shown: &RoundPrint,
    now: &RoundPrint,
    scope: Scope,
) -> Option<super::error::StoreError> {
    let changed = differences(round, shown, now, scope);
    (!changed.is_empty()).then(|| {
        super::error::StoreError::Conflict(format!(
            "round {round} was changed at another desk since this page showed it: {}. \
             Nothing was saved; the page now shows the round as it is",
            changed.join("; ")
        ))
    })
}

/// What differs between the round as shown and as it is now, in words.
fn differences(round: RoundNo, shown: &RoundPrint, now: &RoundPrint, scope: Scope) -> Vec<String> {
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
    let board_of = |p: &RoundPrint, b: BoardNo| p.boards.iter().find(|x| x.board == b).copied();
    let mut numbers: Vec<BoardNo> = shown
        .boards
        .iter()
        .chain(&now.boards)
        .map(|b| b.board)
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
                if (x.white, x.black) != (y.white, y.black) {
                    out.push(format!(
                        "table {}: players {} - {} are now {} - {}",
                        y.table, x.white, x.black, y.white, y.black
                    ));
                }
                if x.result != y.result {
                    out.push(format!(
                        "table {}: result {} is now {}",
                        y.table,
                        x.result.name(),
                        y.result.name()
                    ));
                }
                if x.table != y.table {
                    out.push(format!(
                        "board {b}: table {} is now table {}",
                        x.table, y.table
                    ));
                }
            }
            (Some(x), None) => out.push(format!("table {}: the board is gone", x.table)),
            (None, Some(y)) => out.push(format!(
                "table {}: a new board {} - {}",
                y.table, y.white, y.black
            )),
            _ => {}
        }
    }
    if scope == Scope::Round {
        if shown.byes != now.byes {
            let list = |byes: &[PlayerId]| {
                let numbers: Vec<String> = byes.iter().map(PlayerId::to_string).collect();
                format!("[{}]", numbers.join(", "))
            };
            out.push(format!(
                "byes {} are now {}",
                list(&shown.byes),
                list(&now.byes)
            ));
        }
        if shown.starts_at != now.starts_at {
            out.push("the official start was changed".into());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(state: &str, boards: &[(u32, u32, u32, u32, GameResult)]) -> RoundPrint {
        RoundPrint {
            state: Some(state.into()),
            starts_at: None,
            boards: boards
                .iter()
                .map(|&(board, table, white, black, result)| BoardPrint {
                    board: BoardNo(board),
                    table: TableNo(table),
                    white: PlayerId(white),
                    black: PlayerId(black),
                    result,
                })
                .collect(),
            byes: vec![],
        }
    }

    use GameResult::{Pending, WhiteWins};

    #[test]
    fn a_result_elsewhere_does_not_stop_a_result_on_another_board() {
        let shown = print("published", &[(1, 1, 1, 2, Pending), (2, 2, 3, 4, Pending)]);
        let now = print(
            "published",
            &[(1, 1, 1, 2, Pending), (2, 2, 3, 4, WhiteWins)],
        );
        assert!(differences(RoundNo(3), &shown, &now, Scope::Board(BoardNo(1))).is_empty());
        assert_eq!(
            differences(RoundNo(3), &shown, &now, Scope::Board(BoardNo(2))),
            vec!["table 2: result pending is now white".to_string()]
        );
        assert_eq!(differences(RoundNo(3), &shown, &now, Scope::Round).len(), 1);
    }

    #[test]
    fn a_swap_and_a_publication_are_named() {
        let shown = print("draft", &[(1, 1, 1, 2, Pending)]);
        let now = print("published", &[(1, 1, 1, 3, Pending)]);
        let d = differences(RoundNo(3), &shown, &now, Scope::Round);
        assert_eq!(
            d,
            vec![
                "round 3 is now published (it was draft)".to_string(),
                "table 1: players 1 - 2 are now 1 - 3".to_string()
            ]
        );
    }
}
