//! A team playoff at the desk (spec/teams.md, "Ties at a team cut" and the level final):
//! the next playoff games of [`TeamEvent::next_step`] with the players the captains
//! nominate, and a result of a playoff game. Decided here on the event as it stands and
//! refused with the desk's words; the store writes what this gives.
//!
//! A team's nominee is one of its roster's players still in the event; once a team has
//! played a playoff game its nominee is fixed (the core reads it from the games played),
//! and another player named for it is refused.

use super::fault::TeamFileError;
use super::model::{TeamEvent, TeamId, TeamSystem};
use super::next::TeamStep;
use crate::stages::PlayedOff;
use crate::tournament::{GameResult, PlayerId};
use std::fmt;

/// Why a playoff step at the desk is refused, in the desk's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayoffRefusal {
    /// There is no next step at all (the core's words: a round not complete, a playoff
    /// game without a result, the event over…).
    NoStep(TeamFileError),
    /// The next step is a round, not a playoff.
    NotAPlayoff,
    /// A team that plays off has no nominee named.
    NoNominee { team: String },
    /// A nominee named for a team that does not play off now.
    NotPlayingOff { team: String },
    /// The nominee is not one of the team's players.
    NotInTeam { player: String, team: String },
    /// The nominee has withdrawn from the event.
    Withdrawn { player: String, team: String },
    /// The team's nominee is fixed by an earlier playoff game.
    Fixed {
        team: String,
        nominee: String,
        player: String,
    },
    /// There is no such playoff game (stage and game from 1).
    NoGame { stage: usize, game: usize },
    /// A later stage has a round: the playoff that seeded it stays as played.
    LaterStageStarted { stage: usize, later: usize },
    /// The event with the change is not one the core reads (the file's words).
    Breaks(TeamFileError),
}

impl fmt::Display for PlayoffRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayoffRefusal::NoStep(why) => write!(f, "no playoff game to pair: {why}"),
            PlayoffRefusal::NotAPlayoff => write!(
                f,
                "the next step is a round, not a playoff: pair the round on the Rounds page"
            ),
            PlayoffRefusal::NoNominee { team } => write!(
                f,
                "{team} has no nominee: its captain names one of its players for the playoff"
            ),
            PlayoffRefusal::NotPlayingOff { team } => {
                write!(f, "{team} does not play off now: it needs no nominee")
            }
            PlayoffRefusal::NotInTeam { player, team } => write!(
                f,
                "{player} is not in the team {team}: a nominee is one of its players"
            ),
            PlayoffRefusal::Withdrawn { player, team } => write!(
                f,
                "{player} of {team} has withdrawn from the event: a nominee is a player still in it"
            ),
            PlayoffRefusal::Fixed {
                team,
                nominee,
                player,
            } => write!(
                f,
                "{team} nominated {nominee} in an earlier playoff game: {player} cannot play \
                 off for it (a team keeps its nominee until the playoff ends)"
            ),
            PlayoffRefusal::NoGame { stage, game } => {
                write!(f, "stage {stage} has no playoff game {game}")
            }
            PlayoffRefusal::LaterStageStarted { stage, later } => write!(
                f,
                "stage {later} has started: the playoff at the cut of stage {stage} that \
                 seeded it keeps its results"
            ),
            PlayoffRefusal::Breaks(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for PlayoffRefusal {}

impl TeamEvent {
    fn team_words(&self, t: TeamId) -> String {
        self.team(t)
            .map_or_else(|| format!("team {t}"), |x| x.name.clone())
    }

    fn player_words(&self, p: PlayerId) -> String {
        self.player(p)
            .map_or_else(|| format!("player {p}"), |x| x.name.clone())
    }

    /// Whether stage `stage` (from 1) is the last and a Scheveningen final: its playoff is
    /// the final's tie, not a cut's.
    pub fn is_final_playoff(&self, stage: usize) -> bool {
        stage == self.stages.len()
            && self
                .stages
                .last()
                .is_some_and(|s| s.system == TeamSystem::Scheveningen)
    }

    /// The next playoff games (the stage, from 1, and the games, colours as the core's
    /// step gives them, without a result) with the players `nominees` names for the teams
    /// that play off: every team of the step needs one, unless an earlier playoff game
    /// fixed it (then a nominee named for it must be that player).
    pub fn playoff_games(
        &self,
        nominees: &[(TeamId, PlayerId)],
    ) -> Result<(usize, Vec<PlayedOff>), PlayoffRefusal> {
        let (stage, step) = match self.next_step().map_err(PlayoffRefusal::NoStep)? {
            TeamStep::Playoff { stage, games } => (stage, games),
            _ => return Err(PlayoffRefusal::NotAPlayoff),
        };
        if let Some((t, _)) = nominees
            .iter()
            .find(|(t, _)| !step.iter().any(|g| g.0 == *t || g.1 == *t))
        {
            return Err(PlayoffRefusal::NotPlayingOff {
                team: self.team_words(*t),
            });
        }
        let nominee = |team: TeamId, known: Option<PlayerId>| -> Result<PlayerId, PlayoffRefusal> {
            let named = nominees.iter().find(|(t, _)| *t == team).map(|(_, p)| *p);
            let words = self.team_words(team);
            match (known, named) {
                (Some(k), Some(p)) if k != p => Err(PlayoffRefusal::Fixed {
                    team: words,
                    nominee: self.player_words(k),
                    player: self.player_words(p),
                }),
                (Some(k), _) => Ok(k),
                (None, None) => Err(PlayoffRefusal::NoNominee { team: words }),
                (None, Some(p)) => {
                    let in_team = self.team(team).is_some_and(|t| t.roster.contains(&p));
                    if !in_team {
                        return Err(PlayoffRefusal::NotInTeam {
                            player: self.player_words(p),
                            team: words,
                        });
                    }
                    if self.player(p).is_some_and(|x| x.withdrawn) {
                        return Err(PlayoffRefusal::Withdrawn {
                            player: self.player_words(p),
                            team: words,
                        });
                    }
                    Ok(p)
                }
            }
        };
        let mut games = Vec::new();
        for (wt, bt, wn, bn) in step {
            games.push(PlayedOff {
                white: nominee(wt, wn)?,
                black: nominee(bt, bn)?,
                result: GameResult::Pending,
            });
        }
        // What the desk writes is an event the core reads.
        let mut after = self.clone();
        if let Some(s) = after.stages.get_mut(stage - 1) {
            s.playoffs.extend(games.iter().copied());
        }
        after.check_stages().map_err(PlayoffRefusal::Breaks)?;
        Ok((stage, games))
    }

    /// The event with `result` for playoff game `game` of stage `stage` (both from 1),
    /// checked: a stage after it must not have started, and the playoff must still read
    /// (a result that decides the playoff before a later game was played is refused).
    pub fn with_playoff_result(
        &self,
        stage: usize,
        game: usize,
        result: GameResult,
    ) -> Result<TeamEvent, PlayoffRefusal> {
        let no_game = PlayoffRefusal::NoGame { stage, game };
        let exists = stage
            .checked_sub(1)
            .and_then(|k| self.stages.get(k))
            .and_then(|s| game.checked_sub(1).and_then(|i| s.playoffs.get(i)))
            .is_some();
        if !exists {
            return Err(no_game);
        }
        if let Some(later) = (stage..self.stages.len()).find(|&k| !self.stages[k].rounds.is_empty())
        {
            return Err(PlayoffRefusal::LaterStageStarted {
                stage,
                later: later + 1,
            });
        }
        let mut after = self.clone();
        if let Some(g) = after
            .stages
            .get_mut(stage - 1)
            .and_then(|s| s.playoffs.get_mut(game - 1))
        {
            g.result = result;
        }
        after.check_stages().map_err(PlayoffRefusal::Breaks)?;
        Ok(after)
    }
}
