//! What the rating list takes of a team event (`spec/ratings.md`): its games played over
//! the board in any stage, playoffs included, and whether it is ready to be rated. A team
//! event is rated as any event is: one rating period, its players' own games (team points,
//! match points and byes are the teams', not games).

use super::model::TeamEvent;
use crate::tournament::{GameResult, PlayerId};

/// Whether a result is a game played over the board (won, lost or drawn).
fn over_the_board(result: GameResult) -> bool {
    matches!(
        result,
        GameResult::WhiteWins | GameResult::BlackWins | GameResult::Draw
    )
}

impl TeamEvent {
    /// The games played over the board (won, lost or drawn: no forfeit, no empty board, no
    /// bye, no pending game), as (white, black, result): every stage in order, each stage's
    /// rounds in order (a match's boards in board order, match after match; a board-groups
    /// or final round's games), then the stage's playoff games (the nominees' games). The
    /// games a rating list counts.
    pub fn games_over_the_board(&self) -> Vec<(PlayerId, PlayerId, GameResult)> {
        let mut out = Vec::new();
        for stage in &self.stages {
            for round in &stage.rounds {
                for m in &round.matches {
                    for b in &m.boards {
                        if let (Some(white), Some(black)) = (b.white, b.black)
                            && over_the_board(b.result)
                        {
                            out.push((white, black, b.result));
                        }
                    }
                }
                for g in &round.games {
                    if over_the_board(g.result) {
                        out.push((g.white, g.black, g.result));
                    }
                }
            }
            for g in &stage.playoffs {
                if over_the_board(g.result) {
                    out.push((g.white, g.black, g.result));
                }
            }
        }
        out
    }

    /// Why the team event cannot be rated yet (`None`: it can), as
    /// [`crate::event::Event::not_ready_to_rate`] says of an event of players: it has
    /// played at least one round, every round it has is complete (no draft — `drafts` is
    /// how many rounds the desk holds as drafts, which the event read from the desk does not
    /// contain — no pending board or game, no pending playoff game), and it is over (its
    /// last stage played out, a final level on game points played off).
    pub fn not_ready_to_rate(&self, drafts: usize) -> Option<String> {
        let rounds = self.stages.iter().map(|s| s.rounds.len()).sum::<usize>();
        let open_rounds = self
            .stages
            .iter()
            .flat_map(|s| &s.rounds)
            .filter(|r| !r.is_complete())
            .count();
        // The desk keeps a stage's playoff games as one round of their own.
        let open_playoffs = self
            .stages
            .iter()
            .filter(|s| s.playoffs.iter().any(|g| g.result == GameResult::Pending))
            .count();
        let played = rounds - open_rounds;
        if played == 0 {
            return Some("no round has been played".to_string());
        }
        let open = drafts + open_rounds + open_playoffs;
        if open > 0 {
            return Some(format!(
                "{open} round{} not complete",
                if open == 1 { " is" } else { "s are" }
            ));
        }
        match self.final_placement() {
            Ok(_) => None,
            Err(e) => Some(match e.fault {
                super::TeamFault::NotOver(stage) => {
                    format!("stage {stage} is still being played")
                }
                other => other.to_string(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(name: &str) -> TeamEvent {
        let path = format!(
            "{}/../../tests/fixtures/teams/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("the fixture");
        TeamEvent::from_json(&text).expect("a team event")
    }

    /// The fixture's games over the board, read straight from its JSON (not through the
    /// reader): boards with both players and games, white/black/draw, playoffs after rounds.
    fn from_json(name: &str) -> Vec<(PlayerId, PlayerId, GameResult)> {
        let path = format!(
            "{}/../../tests/fixtures/teams/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("the fixture");
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let mut out = Vec::new();
        let mut push = |g: &serde_json::Value| {
            let result = match g["result"].as_str() {
                Some("white") => GameResult::WhiteWins,
                Some("black") => GameResult::BlackWins,
                Some("draw") => GameResult::Draw,
                _ => return,
            };
            let id = |k: &str| g[k].as_u64().map(|n| PlayerId(n as u32));
            if let (Some(w), Some(b)) = (id("white"), id("black")) {
                out.push((w, b, result));
            }
        };
        for s in v["stages"].as_array().expect("stages") {
            for r in s["rounds"].as_array().into_iter().flatten() {
                for m in r["matches"].as_array().into_iter().flatten() {
                    m["boards"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .for_each(&mut push);
                }
                r["games"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .for_each(&mut push);
            }
            s["playoffs"]
                .as_array()
                .into_iter()
                .flatten()
                .for_each(&mut push);
        }
        out
    }

    #[test]
    fn the_games_over_the_board_of_each_example() {
        // Counted by hand from the files: white + black + draw results.
        for (name, count) in [
            ("team-swiss-with-bye", 44),
            ("team-round-robin", 23),
            ("board-groups-then-final", 20),
        ] {
            let games = event(name).games_over_the_board();
            assert_eq!(games.len(), count, "{name}");
            assert_eq!(games, from_json(name), "{name}");
        }
    }

    #[test]
    fn forfeits_empty_boards_and_pending_games_are_not_games() {
        let mut e = event("team-round-robin");
        let before = e.games_over_the_board().len();
        let board = &mut e.stages[0].rounds[0].matches[0].boards[0];
        assert!(matches!(
            board.result,
            GameResult::WhiteWins | GameResult::BlackWins | GameResult::Draw
        ));
        board.result = GameResult::Pending;
        assert_eq!(e.games_over_the_board().len(), before - 1);
        e.stages[0].rounds[0].matches[0].boards[0].result = GameResult::WhiteWinsByForfeit;
        assert_eq!(e.games_over_the_board().len(), before - 1);
    }

    #[test]
    fn playoff_games_count_after_the_rounds() {
        let mut e = event("team-round-robin");
        let (a, b) = (e.teams[0].roster[0], e.teams[1].roster[0]);
        let before = e.games_over_the_board();
        for result in [GameResult::Draw, GameResult::Pending, GameResult::BlackWins] {
            e.stages[0].playoffs.push(crate::stages::PlayedOff {
                white: a,
                black: b,
                result,
            });
        }
        let after = e.games_over_the_board();
        assert_eq!(after.len(), before.len() + 2);
        assert_eq!(after[..before.len()], before[..]);
        assert_eq!(
            after[before.len()..],
            [(a, b, GameResult::Draw), (a, b, GameResult::BlackWins)]
        );
    }

    #[test]
    fn ready_to_rate_once_over_with_nothing_open() {
        // The round robin is over: every round played, every board decided.
        let done = event("team-round-robin");
        assert_eq!(done.not_ready_to_rate(0), None);
        assert_eq!(
            done.not_ready_to_rate(1).as_deref(),
            Some("1 round is not complete")
        );
        let mut pending = done.clone();
        pending.stages[0].rounds[2].matches[0].boards[1].result = GameResult::Pending;
        assert_eq!(
            pending.not_ready_to_rate(1).as_deref(),
            Some("2 rounds are not complete")
        );
        let mut short = done.clone();
        short.stages[0].rounds.pop();
        assert_eq!(
            short.not_ready_to_rate(0).as_deref(),
            Some("stage 1 is still being played")
        );
        let mut none = done;
        none.stages[0].rounds.clear();
        assert_eq!(
            none.not_ready_to_rate(0).as_deref(),
            Some("no round has been played")
        );
        // The Swiss has played its 4 rounds; the final after board groups 1 of its 3.
        assert_eq!(event("team-swiss-with-bye").not_ready_to_rate(0), None);
        assert_eq!(
            event("board-groups-then-final")
                .not_ready_to_rate(0)
                .as_deref(),
            Some("stage 2 is still being played")
        );
    }
}
