//! The tournament model: players, settings, rounds, results, scores, standings and
//! tie-breaks, and the `ggdesk-tournament/1` file. Pure: no IO.
//!
//! # Building a tournament
//!
//! A [`Tournament`] is always valid: every method that changes it checks the change and
//! leaves the tournament untouched when it returns an error ([`TournamentError`]).
//!
//! ```
//! use ggdesk_core::tournament::{GameResult, Penalty, Player, PlayerId, Score, Settings, Tournament};
//! use ggdesk_core::pairing::pair_next_round;
//!
//! let mut t = Tournament::new("Club night", Settings::swiss(5))?;
//! for (id, name, rating) in [(1, "Reyes, Ana", 1710), (2, "Cruz, Ben", 1650), (3, "Lim, Cy", 1500)] {
//!     t.add_player(Player::new(PlayerId(id), name, rating))?;
//! }
//! t.add_forbidden_pair(PlayerId(2), PlayerId(3))?;
//! let pairing = pair_next_round(&t, &[]).expect("a pairing exists");
//! t.add_round(pairing.to_round())?;
//! t.set_result(1, 0, GameResult::WhiteWins)?;
//! t.add_player(Player::new(t.next_player_id(), "Late, Dee", 1400))?; // a late entry
//! t.set_withdrawn(PlayerId(3), true)?;
//! t.add_penalty(Penalty { player: PlayerId(1), points: Score::from_halves(1), reason: "delay".into() })?;
//! assert!(t.is_round_complete(1));
//! # Ok::<(), ggdesk_core::tournament::TournamentError>(())
//! ```
//!
//! - Players: [`Tournament::add_player`] (after round 1 this is a late entry, absent in the
//!   earlier rounds), [`Tournament::update_player`], [`Tournament::set_withdrawn`],
//!   [`Tournament::next_player_id`].
//! - Rounds: [`Tournament::add_round`] (games, byes, absences, checked as the file is),
//!   [`Tournament::set_result`], [`Tournament::set_absent`],
//!   [`Tournament::remove_last_round`]. The pairing (`crate::pairing`) returns a
//!   `Pairing` whose `to_round()` is added with `add_round`; absences for the round to
//!   pair are passed to the pairing.
//! - Settings: [`Tournament::set_settings`], [`Tournament::add_forbidden_pair`];
//!   penalties: [`Tournament::add_penalty`].
//!
//! # Queries
//!
//! [`Tournament::score`] and [`Tournament::scores`] (after any round, penalties
//! included), [`Tournament::entry`] and [`Tournament::entries`] (what each round was for a
//! player: an [`Entry`]), [`Tournament::has_met`], [`Tournament::is_forbidden`],
//! [`Tournament::had_bye`], [`Tournament::has_forfeit_win`],
//! [`Tournament::is_round_complete`], [`Tournament::completed_rounds`],
//! [`Tournament::planned_rounds`]; [`standings`] after any round.
//!
//! # The file
//!
//! [`Tournament::from_json`] reads a `ggdesk-tournament/1` file with every check of
//! `spec/tournament.md`, refusing it with a [`TournamentFileError`] that names the place
//! (`rounds[2].games[0]: unknown player id 17`, indices from 0 as in a JSON path).
//! [`Tournament::to_json`] writes it back; reading that gives an equal tournament (unknown
//! player keys are kept in [`Player::extra`]).
//!
//! # Above it
//!
//! [`crate::stages`] is the event of stages of `spec/stages.md` (`ggdesk-tournament/2`),
//! each group of a stage a [`Tournament`]; [`crate::event`] is the event as the desk runs it.
//!
//! # Numbers
//!
//! Points are [`Score`]s in exact half-points; tie-break values are exact [`Ratio`]s,
//! written in plain decimal (`7`, `7.5`, `12.25`).

pub(crate) mod file;
mod ids;
mod model;
mod number;
mod standings;

pub use file::{FORMAT, FaultAt, FileFault, TournamentFileError};
pub use ids::{BoardNo, GameId, PenaltyId, RegistryId, RoundNo, StageNo, TableNo, TournamentId};
pub use model::{
    Entry, Game, GameOutcome, GameResult, MAX_POINTS, Penalty, Player, PlayerId, PointsScale,
    Round, RoundPart, Settings, System, TieBreak, Tournament, TournamentError,
};
pub use number::{Ratio, Score};
pub use standings::{StandingRow, Standings, standings};
