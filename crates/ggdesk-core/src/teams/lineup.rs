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
        let sides =
            (0..boards).map_while(|b| m.sides(b).map(|(h, a)| if home_side { h } else { a }));
        check_side(team, sides, &team_of).map_err(|(b, f)| fault(board_at(b), f))?;
    }
    Ok(())
}

/// The line-up rule for one team's side of a match, boards in order (`None`: left empty):
/// its own players only, in roster order, each once, no filled board below an empty one.
/// A refusal names the board (from 0) and the fault.
fn check_side(
    team: &Team,
    sides: impl Iterator<Item = Option<PlayerId>>,
    team_of: &impl Fn(PlayerId) -> Option<crate::teams::TeamId>,
) -> Result<(), (usize, TeamFault)> {
    // (board, player, roster index) of the team's filled boards so far.
    let mut last: Option<(usize, PlayerId, usize)> = None;
    let mut empty: Option<usize> = None;
    let mut seen: Vec<PlayerId> = Vec::new();
    for (b, p) in sides.enumerate() {
        let Some(p) = p else {
            empty.get_or_insert(b);
            continue;
        };
        if seen.contains(&p) {
            return Err((b, TeamFault::TwiceInMatch(p)));
        }
        seen.push(p);
        let Some(index) = team.roster.iter().position(|r| *r == p) else {
            let f = match team_of(p) {
                None => TeamFault::NoTeam(p),
                Some(_) => TeamFault::NotInTeam {
                    player: p,
                    team: team.id,
                },
            };
            return Err((b, f));
        };
        if let Some(e) = empty {
            return Err((
                b,
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
            return Err((
                b,
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
    Ok(())
}

/// One team's line-up as the desk types it (B boards, `None` empty), checked by the rule of
/// a match's line-ups: the board and the fault in the file's words
/// (`board 2: player 7 is not in team 3`).
pub fn check_lineup(
    event: &crate::teams::TeamEvent,
    team: crate::teams::TeamId,
    lineup: &[Option<PlayerId>],
) -> Result<(), TeamFileError> {
    let Some(t) = event.team(team) else {
        return Err(fault("", TeamFault::UnknownTeam(team)));
    };
    if lineup.len() != event.settings.boards {
        return Err(fault(
            "",
            TeamFault::BoardCount {
                boards: event.settings.boards,
                has: lineup.len(),
            },
        ));
    }
    check_side(t, lineup.iter().copied(), &|p| event.team_of(p))
        .map_err(|(b, f)| fault(format!("board {}", b + 1), f))
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

impl crate::teams::TeamEvent {
    /// A team's line-up before the captain says otherwise: its first B roster players still
    /// in the event (a withdrawn player is skipped, so a reserve moves up), the boards left
    /// empty from the bottom when fewer remain.
    pub fn default_lineup(&self, team: crate::teams::TeamId) -> Vec<Option<PlayerId>> {
        let b = self.settings.boards;
        let mut lineup: Vec<Option<PlayerId>> = self
            .team(team)
            .map(|t| {
                t.roster
                    .iter()
                    .filter(|p| self.player(**p).is_some_and(|p| !p.withdrawn))
                    .take(b)
                    .map(|p| Some(*p))
                    .collect()
            })
            .unwrap_or_default();
        lineup.resize(b, None);
        lineup
    }
}

#[cfg(test)]
mod tests {
    use crate::teams::{TeamEvent, TeamId, TeamShape};
    use crate::tournament::{Player, PlayerId, PointsScale};

    fn event() -> TeamEvent {
        let mut e = TeamEvent::preset(TeamShape::Swiss, "Cup", PointsScale::default(), 3, 3);
        let a = e.add_team("A").expect("team");
        let b = e.add_team("B").expect("team");
        for (i, t) in [a, a, a, a, b, b, b].into_iter().enumerate() {
            let id = PlayerId(i as u32 + 1);
            e.add_to_team(t, Player::new(id, format!("P{}", i + 1), 1500))
                .expect("added");
        }
        e
    }

    #[test]
    fn a_line_up_is_checked_as_typed_with_the_files_words() {
        let e = event();
        let a = TeamId(1);
        let p = |n| Some(PlayerId(n));
        assert_eq!(super::check_lineup(&e, a, &[p(1), p(2), p(4)]), Ok(()));
        assert_eq!(super::check_lineup(&e, a, &[p(1), p(2), None]), Ok(()));
        let words = |l: &[Option<PlayerId>]| {
            super::check_lineup(&e, a, l)
                .map_err(|f| f.to_string())
                .err()
        };
        assert_eq!(
            words(&[p(2), p(1), p(3)]).as_deref(),
            Some(
                "board 2: player 1 plays board 2 but comes after player 2 (board 1) in the \
                 roster of team 1: boards follow the roster order"
            )
        );
        assert_eq!(
            words(&[p(1), None, p(3)]).as_deref(),
            Some("board 3: team 1 fills board 3 below its empty board 2")
        );
        assert_eq!(
            words(&[p(1), p(5), None]).as_deref(),
            Some("board 2: player 5 is not in team 1")
        );
        assert_eq!(
            words(&[p(1), p(1), None]).as_deref(),
            Some("board 2: player 1 plays twice in this match")
        );
        assert_eq!(
            words(&[p(1)]).as_deref(),
            Some("a match has 3 boards (team.boards), this one has 1")
        );
    }

    #[test]
    fn the_default_line_up_skips_the_withdrawn_and_leaves_the_bottom_empty() {
        let mut e = event();
        let p = |n| Some(PlayerId(n));
        assert_eq!(e.default_lineup(TeamId(1)), [p(1), p(2), p(3)]);
        if let Some(x) = e.players.iter_mut().find(|x| x.id == PlayerId(2)) {
            x.withdrawn = true;
        }
        assert_eq!(e.default_lineup(TeamId(1)), [p(1), p(3), p(4)]);
        e.remove_from_team(PlayerId(7)).expect("out");
        assert_eq!(e.default_lineup(TeamId(2)), [p(5), p(6), None]);
    }
}
