//! Changing a team event's teams at the desk (spec/teams.md, "Teams page"): a team added,
//! renamed or removed, a player put into a team or taken out, the roster's board order and
//! its captain. Every change is decided here on the event as it stands and refused with
//! its words; the store writes what this leaves. Teams and rosters change before the
//! event's first round only (a reserve replacing a player later is a line-up's business).

use super::model::{Team, TeamEvent, TeamId, TeamSettings, TeamStage, TeamSystem, TeamTieBreak};
use crate::tournament::{Player, PlayerId, PointsScale};
use std::fmt;

/// Why a change to the teams is refused, in the desk's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamRefusal {
    /// A round has been published: the teams are fixed.
    Started,
    /// A team needs a name.
    NameEmpty,
    /// Another team has this name (compared without case and surrounding spaces).
    NameTaken(String),
    NoTeam(TeamId),
    NoPlayer(PlayerId),
    /// The player is in a team already (one team per player).
    InTeam {
        player: String,
        team: String,
    },
    /// A captain must be one of the team's own players.
    CaptainNotInTeam {
        player: String,
        team: String,
    },
}

impl fmt::Display for TeamRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TeamRefusal::Started => write!(
                f,
                "the event has started: teams and rosters change before its first round only"
            ),
            TeamRefusal::NameEmpty => write!(f, "a team needs a name"),
            TeamRefusal::NameTaken(name) => write!(f, "there is already a team named {name}"),
            TeamRefusal::NoTeam(id) => write!(f, "there is no team {id}"),
            TeamRefusal::NoPlayer(id) => write!(f, "there is no player {id} in a team"),
            TeamRefusal::InTeam { player, team } => {
                write!(f, "{player} is already in the team {team}")
            }
            TeamRefusal::CaptainNotInTeam { player, team } => {
                write!(
                    f,
                    "{player} is not in the team {team}: a captain is one of its players"
                )
            }
        }
    }
}

impl std::error::Error for TeamRefusal {}

impl TeamEvent {
    /// Whether a round (or a playoff game) of the event has been published.
    pub fn has_started(&self) -> bool {
        self.stages
            .iter()
            .any(|s| !s.rounds.is_empty() || !s.playoffs.is_empty())
    }

    fn unstarted(&self) -> Result<(), TeamRefusal> {
        if self.has_started() {
            Err(TeamRefusal::Started)
        } else {
            Ok(())
        }
    }

    /// A team's name as typed, or why it cannot be (`me`: the team renamed).
    fn team_name(&self, name: &str, me: Option<TeamId>) -> Result<String, TeamRefusal> {
        let name = name.trim();
        if name.is_empty() {
            return Err(TeamRefusal::NameEmpty);
        }
        let folded = name.to_lowercase();
        if self
            .teams
            .iter()
            .any(|t| Some(t.id) != me && t.name.trim().to_lowercase() == folded)
        {
            return Err(TeamRefusal::NameTaken(name.to_string()));
        }
        Ok(name.to_string())
    }

    fn team_mut(&mut self, id: TeamId) -> Result<&mut Team, TeamRefusal> {
        self.teams
            .iter_mut()
            .find(|t| t.id == id)
            .ok_or(TeamRefusal::NoTeam(id))
    }

    fn player_name(&self, id: PlayerId) -> String {
        self.player(id)
            .map_or_else(|| format!("player {id}"), |p| p.name.clone())
    }

    /// Adds a team with an empty roster; returns its id (one more than the highest).
    pub fn add_team(&mut self, name: &str) -> Result<TeamId, TeamRefusal> {
        self.unstarted()?;
        let name = self.team_name(name, None)?;
        let id = TeamId(self.teams.iter().map(|t| t.id.0).max().unwrap_or(0) + 1);
        self.teams.push(Team {
            id,
            name,
            roster: Vec::new(),
            captain: None,
        });
        Ok(id)
    }

    /// Renames a team.
    pub fn rename_team(&mut self, id: TeamId, name: &str) -> Result<(), TeamRefusal> {
        self.unstarted()?;
        let name = self.team_name(name, Some(id))?;
        self.team_mut(id)?.name = name;
        Ok(())
    }

    /// Removes a team and its players from the event; returns the players removed.
    pub fn remove_team(&mut self, id: TeamId) -> Result<Vec<PlayerId>, TeamRefusal> {
        self.unstarted()?;
        let roster = self.team_mut(id)?.roster.clone();
        self.teams.retain(|t| t.id != id);
        self.players.retain(|p| !roster.contains(&p.id));
        Ok(roster)
    }

    /// Puts a player at the end of a team's roster (the next board, or a reserve). A player
    /// of the event must be in no team yet; one new to the event joins its players.
    pub fn add_to_team(&mut self, id: TeamId, player: Player) -> Result<(), TeamRefusal> {
        self.unstarted()?;
        if self.team(id).is_none() {
            return Err(TeamRefusal::NoTeam(id));
        }
        if let Some(t) = self.team_of(player.id).and_then(|t| self.team(t)) {
            return Err(TeamRefusal::InTeam {
                player: self.player_name(player.id),
                team: t.name.clone(),
            });
        }
        let pid = player.id;
        if self.player(pid).is_none() {
            self.players.push(player);
        }
        self.team_mut(id)?.roster.push(pid);
        Ok(())
    }

    /// Takes a player out of their team and out of the event (a captain taken out leaves
    /// the team without one).
    pub fn remove_from_team(&mut self, player: PlayerId) -> Result<(), TeamRefusal> {
        self.unstarted()?;
        let team = self.team_of(player).ok_or(TeamRefusal::NoPlayer(player))?;
        let t = self.team_mut(team)?;
        t.roster.retain(|p| *p != player);
        if t.captain == Some(player) {
            t.captain = None;
        }
        self.players.retain(|p| p.id != player);
        Ok(())
    }

    /// Moves a player to place `to` (from 0) of their team's roster, the others keeping
    /// their order (a place past the end is the last).
    pub fn move_in_roster(&mut self, player: PlayerId, to: usize) -> Result<(), TeamRefusal> {
        self.unstarted()?;
        let team = self.team_of(player).ok_or(TeamRefusal::NoPlayer(player))?;
        let t = self.team_mut(team)?;
        t.roster.retain(|p| *p != player);
        let to = to.min(t.roster.len());
        t.roster.insert(to, player);
        Ok(())
    }

    /// Names a team's captain (one of its players), or none.
    pub fn set_captain(
        &mut self,
        id: TeamId,
        captain: Option<PlayerId>,
    ) -> Result<(), TeamRefusal> {
        self.unstarted()?;
        let team = self.team(id).ok_or(TeamRefusal::NoTeam(id))?;
        if let Some(c) = captain
            && !team.roster.contains(&c)
        {
            return Err(TeamRefusal::CaptainNotInTeam {
                player: self.player_name(c),
                team: team.name.clone(),
            });
        }
        self.team_mut(id)?.captain = captain;
        Ok(())
    }

    /// The id a player new to the event gets: one more than the highest.
    pub fn next_player_id(&self) -> PlayerId {
        PlayerId(self.players.iter().map(|p| p.id.0).max().unwrap_or(0) + 1)
    }
}

/// The three shapes of a team event the desk creates from a preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamShape {
    /// Team matches paired by Swiss over a number of rounds.
    Swiss,
    /// Team matches, every team against every other once.
    RoundRobin,
    /// The Generals League: a round robin per board (board groups), then the final of the
    /// two best teams, every player against every opposing player.
    GeneralsLeague,
}

impl TeamShape {
    pub const ALL: [TeamShape; 3] = [
        TeamShape::Swiss,
        TeamShape::RoundRobin,
        TeamShape::GeneralsLeague,
    ];

    /// The shape in the desk's words.
    pub fn words(self) -> &'static str {
        match self {
            TeamShape::Swiss => "Team Swiss",
            TeamShape::RoundRobin => "Team round robin",
            TeamShape::GeneralsLeague => "Generals League (board groups + final)",
        }
    }
}

fn stage(name: &str, system: TeamSystem) -> TeamStage {
    TeamStage {
        name: name.into(),
        system,
        round_count: None,
        advance: None,
        tiebreaks: TeamTieBreak::default_order(),
        rounds: Vec::new(),
        playoffs: Vec::new(),
    }
}

impl TeamEvent {
    /// A new team event of `shape` on `boards` boards (a Swiss of `rounds` rounds), with the
    /// spec's defaults and no teams yet. The Generals League's board groups are ordered by
    /// game points, then board count, and send two teams to the final.
    pub fn preset(
        shape: TeamShape,
        name: &str,
        points: PointsScale,
        boards: usize,
        rounds: u32,
    ) -> TeamEvent {
        let stages = match shape {
            TeamShape::Swiss => vec![TeamStage {
                round_count: Some(rounds),
                ..stage("Swiss", TeamSystem::Swiss)
            }],
            TeamShape::RoundRobin => vec![stage("Round robin", TeamSystem::RoundRobin)],
            TeamShape::GeneralsLeague => vec![
                TeamStage {
                    advance: Some(2),
                    tiebreaks: vec![TeamTieBreak::BoardCount],
                    ..stage("Board groups", TeamSystem::BoardGroups)
                },
                TeamStage {
                    tiebreaks: Vec::new(),
                    ..stage("Final", TeamSystem::Scheveningen)
                },
            ],
        };
        TeamEvent {
            name: name.trim().to_string(),
            points,
            settings: TeamSettings::new(boards, &points),
            players: Vec::new(),
            teams: Vec::new(),
            stages,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teams::{TeamSettings, TeamStage, TeamSystem, TeamTieBreak};
    use crate::tournament::PointsScale;

    fn event() -> TeamEvent {
        TeamEvent {
            name: "Cup".into(),
            points: PointsScale::default(),
            settings: TeamSettings::new(3, &PointsScale::default()),
            players: Vec::new(),
            teams: Vec::new(),
            stages: vec![TeamStage {
                name: "Swiss".into(),
                system: TeamSystem::Swiss,
                round_count: Some(3),
                advance: None,
                tiebreaks: TeamTieBreak::default_order(),
                rounds: Vec::new(),
                playoffs: Vec::new(),
            }],
        }
    }

    #[test]
    fn every_preset_is_a_file_the_core_reads() {
        for shape in TeamShape::ALL {
            let e = TeamEvent::preset(shape, "Cup", PointsScale::default(), 3, 5);
            assert_eq!(TeamEvent::from_value(&e.to_value()), Ok(e), "{shape:?}");
        }
    }

    #[test]
    fn a_team_name_is_needed_once() {
        let mut e = event();
        assert_eq!(e.add_team("  Tigers "), Ok(TeamId(1)));
        assert_eq!(e.add_team(" "), Err(TeamRefusal::NameEmpty));
        assert_eq!(
            e.add_team("tigers").map_err(|r| r.to_string()),
            Err("there is already a team named tigers".to_string())
        );
        assert_eq!(e.add_team("Eagles"), Ok(TeamId(2)));
        assert_eq!(e.rename_team(TeamId(1), "TIGERS"), Ok(()));
        assert_eq!(e.teams[0].name, "TIGERS");
    }

    #[test]
    fn a_player_is_in_one_team_and_the_roster_keeps_its_order() {
        let mut e = event();
        let (a, b) = (
            e.add_team("A").expect("team"),
            e.add_team("B").expect("team"),
        );
        for (i, name) in ["Ana", "Ben", "Cid"].iter().enumerate() {
            let id = e.next_player_id();
            assert_eq!(id, PlayerId(i as u32 + 1));
            e.add_to_team(a, Player::new(id, *name, 1500))
                .expect("added");
        }
        assert_eq!(
            e.add_to_team(b, Player::new(PlayerId(2), "Ben", 1500))
                .map_err(|r| r.to_string()),
            Err("Ben is already in the team A".to_string())
        );
        e.move_in_roster(PlayerId(3), 0).expect("moved");
        assert_eq!(
            e.team(a).expect("a").roster,
            [PlayerId(3), PlayerId(1), PlayerId(2)]
        );
        e.set_captain(a, Some(PlayerId(1))).expect("captain");
        assert_eq!(
            e.set_captain(b, Some(PlayerId(1)))
                .map_err(|r| r.to_string()),
            Err("Ana is not in the team B: a captain is one of its players".to_string())
        );
        e.remove_from_team(PlayerId(1)).expect("removed");
        assert_eq!(e.team(a).expect("a").captain, None);
        assert_eq!(e.players.len(), 2);
        assert_eq!(e.remove_team(a), Ok(vec![PlayerId(3), PlayerId(2)]));
        assert!(e.players.is_empty());
    }

    #[test]
    fn nothing_changes_once_a_round_is_published() {
        let mut e = event();
        let a = e.add_team("A").expect("team");
        e.stages[0].rounds.push(Default::default());
        assert_eq!(
            e.add_team("B").map_err(|r| r.to_string()),
            Err(
                "the event has started: teams and rosters change before its first round only"
                    .to_string()
            )
        );
        assert_eq!(e.remove_team(a), Err(TeamRefusal::Started));
    }
}
