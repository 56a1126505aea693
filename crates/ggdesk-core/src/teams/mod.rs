//! Team events (`spec/teams.md`): a `ggdesk-tournament/2` file with `teams`. Teams play
//! matches on B boards in `swiss` and `round_robin` stages, or the Generals League's
//! `board_groups` (one round robin per board) and a `scheveningen` final between two
//! teams. Pure: no IO.
//!
//! # The shape
//!
//! [`TeamEvent::from_value`] reads the file ([`file`]) and checks every match's line-ups
//! ([`lineup`]), refusing with a [`TeamFileError`] that names the match and the board
//! (`stages[0].rounds[1].matches[2].boards[1]: …`). A match scores as [`score`] says
//! (board points, game points, match points; a pending board leaves the match counting
//! nothing). [`TeamEvent::team_standings`] ranks the teams of a stage with the exact
//! team tie-breaks ([`standings`]); [`TeamEvent::board_prizes`] ranks each board's
//! players ([`boards`]). [`TeamEvent::next_step`] pairs what comes next ([`next`]): a
//! team Swiss or round robin through its **team image** (the teams as players of a `/1`
//! tournament, so the `/1` pairing engine pairs them), or a round of the final.

mod boards;
mod edit;
mod fault;
mod file;
mod lineup;
mod model;
mod next;
mod playoff;
mod rated;
mod score;
mod standings;
mod tables;
mod write;

pub use boards::{BoardPrizeRow, BoardPrizes, board_prizes_json};
pub use edit::{TeamRefusal, TeamShape};
pub use fault::{TeamFault, TeamFileError};
pub use lineup::check_lineup;
pub use model::{
    BoardGame, GroupGame, MatchPoints, Primary, Team, TeamBye, TeamEvent, TeamId, TeamMatch,
    TeamRound, TeamSettings, TeamStage, TeamSystem, TeamTieBreak, board_table,
};
pub use next::{TeamPlace, TeamStep, team_placement_json};
pub use playoff::PlayoffRefusal;
pub use score::{MatchResult, MatchScore, board_points};
pub use standings::{TeamRow, TeamStandings};

/// Whether a parsed `ggdesk-tournament/2` file is a team event (it has `teams`).
pub fn is_team_file(value: &serde_json::Value) -> bool {
    value.get("teams").is_some_and(|t| !t.is_null())
}
