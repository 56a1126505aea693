//! The line-up rules of a match: B boards; each team's players in roster order, each at
//! most once, only its own; no filled board below an empty one; a forfeit result exactly
//! where a side is empty. Every refusal names the match and the board.

use super::fault::{TeamFault, TeamFileError, fault};
use super::model::{Team, TeamMatch};
use crate::tournament::{GameResult, PlayerId};

/// Checks the line-ups of a match at `at` (`stages[0].rounds[1].matches[2]`).
pub(crate) fn check_match(
    m: &TeamMatch,
    home: &Team,
    away: &Team,
    boards: usize,
    team_of: impl Fn(PlayerId) -> Option<crate::teams::TeamId>,
    at: &str,
) -> Result<(), TeamFileError> {
    if m.boards.len() != boards {
        return Err(fault(
            format!("{at}.boards"),
            TeamFault::BoardCount {
                boards,
                has: m.boards.len(),
            },
        ));
    }
    let board_at = |b: usize| format!("{at}.boards[{b}]");
    let mut seen: Vec<PlayerId> = Vec::new();
    for (b, g) in m.boards.iter().enumerate() {
        for p in [g.white, g.black].into_iter().flatten() {
            if seen.contains(&p) {
                return Err(fault(board_at(b), TeamFault::TwiceInMatch(p)));
            }
            seen.push(p);
        }
        check_forfeit(g.white, g.black, g.result).map_err(|f| fault(board_at(b), f))?;
    }
    for (team, home_side) in [(home, true), (away, false)] {
        // (board, player, roster index) of the team's filled boards so far.
        let mut last: Option<(usize, PlayerId, usize)> = None;
        let mut empty: Option<usize> = None;
        for b in 0..boards {
            let Some((h, a)) = m.sides(b) else { break };
            let Some(p) = (if home_side { h } else { a }) else {
                empty.get_or_insert(b);
                continue;
            };
            let Some(index) = team.roster.iter().position(|r| *r == p) else {
                let f = match team_of(p) {
                    None => TeamFault::NoTeam(p),
                    Some(_) => TeamFault::NotInTeam {
                        player: p,
                        team: team.id,
                    },
                };
                return Err(fault(board_at(b), f));
            };
            if let Some(e) = empty {
                return Err(fault(
                    board_at(b),
                    TeamFault::FilledBelowEmpty {
                        team: team.id,
                        board: b + 1,
                        empty: e + 1,
                    },
                ));
            }
            if let Some((above_board, above, above_index)) = last
                && above_index > index
            {
                return Err(fault(
                    board_at(b),
                    TeamFault::RosterOrder {
                        player: p,
                        board: b + 1,
                        above,
                        above_board: above_board + 1,
                        team: team.id,
                    },
                ));
            }
            last = Some((b, p, index));
        }
    }
    Ok(())
}

/// A board with an empty side has the forfeit result that says so.
fn check_forfeit(
    white: Option<PlayerId>,
    black: Option<PlayerId>,
    result: GameResult,
) -> Result<(), TeamFault> {
    let (side, expected) = match (white, black) {
        (Some(_), Some(_)) => return Ok(()),
        (Some(_), None) => ("black empty", GameResult::WhiteWinsByForfeit),
        (None, Some(_)) => ("white empty", GameResult::BlackWinsByForfeit),
        (None, None) => ("both sides empty", GameResult::DoubleForfeit),
    };
    if result == expected {
        Ok(())
    } else {
        Err(TeamFault::ForfeitMismatch {
            result: result.name(),
            side,
            expected: expected.name(),
        })
    }
}
