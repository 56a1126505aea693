//! A team round's games at the tables (`spec/teams.md`, "Tables"): every board of a match
//! with both sides filled, and every game of a board-groups round or of the final, is a
//! board of the Tables page at its own table, arbitrated as any game. A board a team left
//! empty has no game to play (its forfeit is its result) and no table card.

use super::model::{TeamEvent, TeamRound, board_table};
use crate::event::{BoardStatus, BoardView, DeskGame, Seated};
use crate::tournament::{BoardNo, PlayerId, RoundNo, TableNo};

impl TeamEvent {
    /// A player as seated at a board.
    fn seated(&self, p: PlayerId) -> Seated {
        let player = self.player(p);
        Seated {
            no: p,
            name: player.map(|x| x.name.clone()).unwrap_or_default(),
            rating: player.map_or(0, |x| x.rating),
        }
    }

    fn name_of_team(&self, id: super::TeamId) -> String {
        self.team(id)
            .map_or_else(|| format!("team {id}"), |t| t.name.clone())
    }

    /// The games of `round` (the tournament's round `n`) by table, each with its live game
    /// at the desk (`desk`: the live games of the event, oldest first; the newest at a
    /// table is its game) and its status, as the Tables page and the stations show them.
    /// Boards are numbered in the order the round lists them, from 1.
    pub fn boards_by_table(
        &self,
        n: RoundNo,
        round: &TeamRound,
        desk: &[DeskGame],
    ) -> Vec<BoardView> {
        let game_at = |table: TableNo| desk.iter().rev().find(|g| g.round == n && g.table == table);
        let mut listed: Vec<(
            TableNo,
            PlayerId,
            PlayerId,
            crate::tournament::GameResult,
            String,
        )> = Vec::new();
        let b_count = self.settings.boards;
        for (i, m) in round.matches.iter().enumerate() {
            let t = m.table_or(i);
            let (home, away) = (self.name_of_team(m.home), self.name_of_team(m.away));
            for (b, g) in m.boards.iter().enumerate() {
                if let (Some(w), Some(k)) = (g.white, g.black) {
                    listed.push((
                        TableNo(board_table(t, b_count, b)),
                        w,
                        k,
                        g.result,
                        format!("Board {} of {home} v {away} (match {t})", b + 1),
                    ));
                }
            }
        }
        for (i, g) in round.games.iter().enumerate() {
            let table = g
                .table
                .unwrap_or_else(|| u32::try_from(i + 1).unwrap_or(u32::MAX));
            let words = match g.board {
                Some(b) => format!("Board group B{b}"),
                None => format!("The final, table {table}"),
            };
            listed.push((TableNo(table), g.white, g.black, g.result, words));
        }
        self.views(listed, game_at)
    }

    /// The playoff games of stage `stage` (from 1) in round `n` by table (`games`: each
    /// game's table, white, black and result, in the playoff's order), as the Tables page and
    /// the stations show them: a nominee's game is arbitrated as any game.
    pub fn playoff_boards_by_table(
        &self,
        n: RoundNo,
        stage: usize,
        games: &[(TableNo, PlayerId, PlayerId, crate::tournament::GameResult)],
        desk: &[DeskGame],
    ) -> Vec<BoardView> {
        let game_at = |table: TableNo| desk.iter().rev().find(|g| g.round == n && g.table == table);
        let place = if self.is_final_playoff(stage) {
            "of the final".to_string()
        } else {
            format!("at the cut of stage {stage}")
        };
        let listed = games
            .iter()
            .enumerate()
            .map(|(i, &(table, w, k, result))| {
                (
                    table,
                    w,
                    k,
                    result,
                    format!("Playoff {place}, game {}", i + 1),
                )
            })
            .collect();
        self.views(listed, game_at)
    }

    /// Boards from (table, white, black, result, words), numbered in that order, by table.
    fn views<'d>(
        &self,
        listed: Vec<(
            TableNo,
            PlayerId,
            PlayerId,
            crate::tournament::GameResult,
            String,
        )>,
        game_at: impl Fn(TableNo) -> Option<&'d DeskGame>,
    ) -> Vec<BoardView> {
        let mut boards: Vec<BoardView> = listed
            .into_iter()
            .enumerate()
            .map(|(i, (table, w, k, result, explanation))| {
                let game = game_at(table);
                BoardView {
                    board: BoardNo(u32::try_from(i + 1).unwrap_or(u32::MAX)),
                    table,
                    white: self.seated(w),
                    black: self.seated(k),
                    result,
                    explanation,
                    status: BoardStatus::of(result, game),
                    game: game.map(|g| g.id),
                    group: None,
                    series: None,
                }
            })
            .collect();
        boards.sort_by_key(|b| (b.table, b.board));
        boards
    }
}

#[cfg(test)]
mod tests {
    use crate::event::{BoardStatus, DeskGame, DeskOutcome};
    use crate::teams::{BoardGame, GroupGame, TeamEvent, TeamId, TeamMatch, TeamRound};
    use crate::tournament::{GameId, GameResult, PlayerId, RoundNo, TableNo};

    fn event(boards: usize) -> TeamEvent {
        let mut e = TeamEvent::preset(
            crate::teams::TeamShape::Swiss,
            "Cup",
            crate::tournament::PointsScale::default(),
            boards,
            3,
        );
        for (t, name) in ["Eagles", "Sharks"].iter().enumerate() {
            let id = e.add_team(name).expect("a team");
            for b in 0..boards {
                e.add_to_team(
                    id,
                    crate::tournament::Player {
                        id: e.next_player_id(),
                        name: format!("{name} {}", b + 1),
                        rating: 1500 + i64::try_from(t * 10 + b).expect("small"),
                        club: None,
                        federation_id: None,
                        withdrawn: false,
                        extra: Default::default(),
                    },
                )
                .expect("a player");
            }
        }
        e
    }

    fn p(n: u32) -> Option<PlayerId> {
        Some(PlayerId(n))
    }

    #[test]
    fn a_match_at_table_two_plays_its_filled_boards_at_its_own_tables() {
        let e = event(3);
        let round = TeamRound {
            matches: vec![TeamMatch {
                table: Some(2),
                home: TeamId(1),
                away: TeamId(2),
                boards: vec![
                    BoardGame {
                        white: p(1),
                        black: p(4),
                        result: GameResult::Pending,
                    },
                    BoardGame {
                        white: p(5),
                        black: None,
                        result: GameResult::WhiteWinsByForfeit,
                    },
                    BoardGame {
                        white: p(3),
                        black: p(6),
                        result: GameResult::Draw,
                    },
                ],
            }],
            byes: vec![],
            games: vec![],
        };
        let desk = [
            DeskGame {
                id: GameId(7),
                round: RoundNo(1),
                table: TableNo(4),
                started: true,
                outcome: DeskOutcome::Undecided,
            },
            // Another round's game at the same table is not this round's.
            DeskGame {
                id: GameId(8),
                round: RoundNo(2),
                table: TableNo(4),
                started: false,
                outcome: DeskOutcome::Undecided,
            },
        ];
        let boards = e.boards_by_table(RoundNo(1), &round, &desk);
        let seen: Vec<(u32, u32, u32, Option<GameId>, BoardStatus)> = boards
            .iter()
            .map(|b| (b.table.0, b.white.no.0, b.black.no.0, b.game, b.status))
            .collect();
        assert_eq!(
            seen,
            vec![
                (4, 1, 4, Some(GameId(7)), BoardStatus::Playing),
                (6, 3, 6, None, BoardStatus::Finished),
            ]
        );
        assert_eq!(boards[0].white.name, "Eagles 1");
        assert_eq!(
            boards[1].explanation,
            "Board 3 of Eagles v Sharks (match 2)"
        );
    }

    #[test]
    fn board_group_and_final_games_keep_their_tables() {
        let e = event(2);
        let round = TeamRound {
            matches: vec![],
            byes: vec![],
            games: vec![
                GroupGame {
                    board: Some(2),
                    table: Some(3),
                    white: PlayerId(2),
                    black: PlayerId(4),
                    result: GameResult::Pending,
                },
                GroupGame {
                    board: None,
                    table: None,
                    white: PlayerId(1),
                    black: PlayerId(3),
                    result: GameResult::WhiteWins,
                },
            ],
        };
        let boards = e.boards_by_table(RoundNo(3), &round, &[]);
        let seen: Vec<(u32, &str, BoardStatus)> = boards
            .iter()
            .map(|b| (b.table.0, b.explanation.as_str(), b.status))
            .collect();
        assert_eq!(
            seen,
            vec![
                (2, "The final, table 2", BoardStatus::Finished),
                (3, "Board group B2", BoardStatus::AwaitingResult),
            ]
        );
    }
}
