//! Changing a team event's teams at the desk (spec/teams.md, "Teams page"): a team added,
//! renamed or removed, a player put into a team or taken out, the roster's board order and
//! its captain. Every change is decided here on the event as it stands and refused with
//! its words; the store writes what this leaves. Teams and rosters change before the
//! event's first round only (a reserve replacing a player later is a line-up's business);
//! a player may be withdrawn from the event, and come back, at any time
//! ([`TeamEvent::set_withdrawn`]).
//! So do its settings ([`TeamEvent::with_settings`]: shape, name, points, boards, rounds),
//! which a director may correct until round 1 is paired: its pairings depend on them.

use super::fault::TeamFileError;
use super::model::{
    Team, TeamBye, TeamEvent, TeamId, TeamSettings, TeamStage, TeamSystem, TeamTieBreak,
};
use crate::tournament::{Player, PlayerId, PointsScale, Score};
use std::fmt;

/// Why a change to the teams is refused, in the desk's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamRefusal {
    /// A round has been published: the teams are fixed.
    Started,
    /// A round has been published: the event's settings are fixed (its pairings used them).
    SettingsFixed,
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
    /// The player (named) is withdrawn from the event already.
    AlreadyWithdrawn(String),
    /// The player (named) is in the event: there is nothing to come back from.
    NotWithdrawn(String),
}

impl fmt::Display for TeamRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TeamRefusal::Started => write!(
                f,
                "the event has started: teams and rosters change before its first round only"
            ),
            TeamRefusal::SettingsFixed => write!(
                f,
                "round 1 is paired: the event's settings are fixed from round 1 on (its \
                 pairings depend on its shape, boards, rounds and points)"
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
            TeamRefusal::AlreadyWithdrawn(player) => write!(f, "{player} is withdrawn already"),
            TeamRefusal::NotWithdrawn(player) => write!(f, "{player} is not withdrawn"),
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

    /// Withdraws a team's player from the event (`true`) or brings them back (`false`),
    /// before or after its start: no round already paired changes, the next rounds'
    /// default line-ups skip a withdrawn player (a reserve moves up), and a withdrawn
    /// player cannot be nominated for a playoff. Refused for a player in no team, and for
    /// a change that changes nothing.
    pub fn set_withdrawn(&mut self, player: PlayerId, withdrawn: bool) -> Result<(), TeamRefusal> {
        if self.team_of(player).is_none() {
            return Err(TeamRefusal::NoPlayer(player));
        }
        let p = self
            .players
            .iter_mut()
            .find(|p| p.id == player)
            .ok_or(TeamRefusal::NoPlayer(player))?;
        match (p.withdrawn, withdrawn) {
            (true, true) => Err(TeamRefusal::AlreadyWithdrawn(p.name.clone())),
            (false, false) => Err(TeamRefusal::NotWithdrawn(p.name.clone())),
            _ => {
                p.withdrawn = withdrawn;
                Ok(())
            }
        }
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

impl TeamEvent {
    /// The preset shape the event's stages are, if they are one (an imported file may hold
    /// stages the desk's presets do not make).
    pub fn shape(&self) -> Option<TeamShape> {
        let systems: Vec<TeamSystem> = self.stages.iter().map(|s| s.system).collect();
        match systems.as_slice() {
            [TeamSystem::Swiss] => Some(TeamShape::Swiss),
            [TeamSystem::RoundRobin] => Some(TeamShape::RoundRobin),
            [TeamSystem::BoardGroups, TeamSystem::Scheveningen] => Some(TeamShape::GeneralsLeague),
            _ => None,
        }
    }

    /// The event with the settings of `new` (a preset: its name, points, boards, shape and
    /// rounds), keeping its players, teams, rosters and captains. When the shape stays the
    /// same, what a preset does not say stays as it was: the match points, the score that
    /// orders the teams, the stages' names, tie-breaks and teams going on, and a bye that
    /// is not the default one. Refused once a round is published: its pairings used them.
    pub fn with_settings(&self, new: &TeamEvent) -> Result<TeamEvent, TeamRefusal> {
        if self.has_started() {
            return Err(TeamRefusal::SettingsFixed);
        }
        let mut out = TeamEvent {
            players: self.players.clone(),
            teams: self.teams.clone(),
            ..new.clone()
        };
        if self.shape().is_some() && self.shape() == new.shape() {
            let old = &self.settings;
            let default_bye = |mp: Score, boards: usize, points: &PointsScale| TeamBye {
                match_points: mp,
                game_points: TeamSettings::new(boards, points).bye.game_points,
            };
            out.settings.match_points = old.match_points;
            out.settings.primary = old.primary;
            out.settings.bye =
                if old.bye == default_bye(old.match_points.draw, old.boards, &self.points) {
                    default_bye(old.match_points.draw, out.settings.boards, &out.points)
                } else {
                    old.bye
                };
            out.stages = self
                .stages
                .iter()
                .zip(&new.stages)
                .map(|(old, new)| TeamStage {
                    round_count: new.round_count,
                    ..old.clone()
                })
                .collect();
        }
        Ok(out)
    }

    /// Whether the core reads the event's settings as a file: its name, points, boards and
    /// stages (a Swiss's rounds), its teams aside (teams being built at the desk, a roster
    /// short of its boards, are no file yet).
    pub fn check_settings(&self) -> Result<(), TeamFileError> {
        let bare = TeamEvent {
            players: Vec::new(),
            teams: Vec::new(),
            ..self.clone()
        };
        TeamEvent::from_value(&bare.to_value()).map(|_| ())
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

    /// The event of `event()` with two teams of three and a captain.
    fn built() -> TeamEvent {
        let mut e = event();
        for (team, names) in [("A", ["Ana", "Ben", "Cid"]), ("B", ["Dee", "Eve", "Fay"])] {
            let t = e.add_team(team).expect("team");
            for name in names {
                let id = e.next_player_id();
                e.add_to_team(t, Player::new(id, name, 1500))
                    .expect("added");
            }
        }
        e.set_captain(TeamId(2), Some(PlayerId(5)))
            .expect("captain");
        e
    }

    #[test]
    fn a_player_is_withdrawn_and_back_before_and_after_the_start() {
        let mut e = built();
        assert_eq!(e.set_withdrawn(PlayerId(2), true), Ok(()));
        assert!(e.player(PlayerId(2)).is_some_and(|p| p.withdrawn));
        assert_eq!(e.set_withdrawn(PlayerId(2), false), Ok(()));
        assert!(e.player(PlayerId(2)).is_some_and(|p| !p.withdrawn));
        // After round 1: the teams are fixed, a withdrawal is not.
        e.stages[0].rounds.push(Default::default());
        let before = e.stages.clone();
        assert_eq!(e.add_team("C"), Err(TeamRefusal::Started));
        assert_eq!(e.set_withdrawn(PlayerId(5), true), Ok(()));
        assert!(e.player(PlayerId(5)).is_some_and(|p| p.withdrawn));
        assert_eq!(e.stages, before, "no round changes");
        assert_eq!(
            e.default_lineup(TeamId(2)),
            [Some(PlayerId(4)), Some(PlayerId(6)), None]
        );
        assert_eq!(e.set_withdrawn(PlayerId(5), false), Ok(()));
        assert_eq!(
            e.default_lineup(TeamId(2)),
            [Some(PlayerId(4)), Some(PlayerId(5)), Some(PlayerId(6))]
        );
    }

    #[test]
    fn a_withdrawal_that_changes_nothing_is_refused_in_words() {
        let mut e = built();
        let words = |e: &mut TeamEvent, p, w| {
            let before = e.clone();
            let out = e.set_withdrawn(PlayerId(p), w).map_err(|r| r.to_string());
            assert_eq!(*e, before, "a refusal changes nothing");
            out
        };
        assert_eq!(
            words(&mut e, 1, false),
            Err("Ana is not withdrawn".to_string())
        );
        e.set_withdrawn(PlayerId(1), true).expect("withdrawn");
        assert_eq!(
            words(&mut e, 1, true),
            Err("Ana is withdrawn already".to_string())
        );
        assert_eq!(
            words(&mut e, 9, true),
            Err("there is no player 9 in a team".to_string())
        );
        // A player of the event outside every team is not a team's player.
        e.players.push(Player::new(PlayerId(7), "Gus", 1500));
        assert_eq!(
            words(&mut e, 7, true),
            Err("there is no player 7 in a team".to_string())
        );
    }

    #[test]
    fn new_settings_keep_the_players_teams_rosters_and_captains() {
        let before = built();
        let points = PointsScale {
            win: Score::from_points(3),
            ..PointsScale::default()
        };
        let new = TeamEvent::preset(TeamShape::Swiss, " Open Cup ", points, 4, 7);
        let after = before.with_settings(&new).expect("changed");
        assert_eq!(after.name, "Open Cup");
        assert_eq!(after.points, points);
        assert_eq!(after.settings.boards, 4);
        assert_eq!(after.stages[0].round_count, Some(7));
        assert_eq!((after.players, after.teams), (before.players, before.teams));
        // A bye scores B drawn games (a point each): four now.
        assert_eq!(after.settings.bye.game_points, Score::from_points(4));
    }

    #[test]
    fn another_shape_takes_its_preset_stages() {
        let before = built();
        let new = TeamEvent::preset(
            TeamShape::GeneralsLeague,
            "Cup",
            PointsScale::default(),
            3,
            5,
        );
        let after = before.with_settings(&new).expect("changed");
        assert_eq!(before.shape(), Some(TeamShape::Swiss));
        assert_eq!(after.shape(), Some(TeamShape::GeneralsLeague));
        assert_eq!(after.stages, new.stages);
        assert_eq!(after.teams, before.teams);
    }

    #[test]
    fn the_same_shape_keeps_what_the_preset_does_not_say() {
        let mut before = built();
        before.settings.match_points.win = Score::from_points(3);
        before.settings.primary = super::super::Primary::GamePoints;
        before.stages[0].tiebreaks = vec![TeamTieBreak::Buchholz];
        before.stages[0].name = "Open".into();
        let new = TeamEvent::preset(TeamShape::Swiss, "Cup", PointsScale::default(), 3, 9);
        let after = before.with_settings(&new).expect("changed");
        assert_eq!(after.settings.match_points.win, Score::from_points(3));
        assert_eq!(after.settings.primary, super::super::Primary::GamePoints);
        assert_eq!(after.stages[0].tiebreaks, [TeamTieBreak::Buchholz]);
        assert_eq!(after.stages[0].name, "Open");
        assert_eq!(after.stages[0].round_count, Some(9));
        // A bye the file set itself stays as it is, whatever the boards.
        before.settings.bye.game_points = Score::ZERO;
        let new = TeamEvent::preset(TeamShape::Swiss, "Cup", PointsScale::default(), 5, 9);
        let after = before.with_settings(&new).expect("changed");
        assert_eq!(after.settings.bye.game_points, Score::ZERO);
    }

    #[test]
    fn the_settings_are_fixed_from_round_1_on() {
        let mut e = built();
        e.stages[0].rounds.push(Default::default());
        let new = TeamEvent::preset(TeamShape::Swiss, "Cup", PointsScale::default(), 4, 5);
        assert_eq!(
            e.with_settings(&new).map_err(|r| r.to_string()),
            Err(
                "round 1 is paired: the event's settings are fixed from round 1 on (its \
                 pairings depend on its shape, boards, rounds and points)"
                    .to_string()
            )
        );
    }

    #[test]
    fn settings_are_checked_as_a_file_with_teams_being_built() {
        // Rosters of three under four boards: teams being built, the settings still a file.
        let e = built()
            .with_settings(&TeamEvent::preset(
                TeamShape::Swiss,
                "Cup",
                PointsScale::default(),
                4,
                5,
            ))
            .expect("changed");
        assert_eq!(e.check_settings(), Ok(()));
        let words = |boards, rounds| {
            TeamEvent::preset(
                TeamShape::Swiss,
                "Cup",
                PointsScale::default(),
                boards,
                rounds,
            )
            .check_settings()
            .map_err(|e| e.to_string())
        };
        assert_eq!(
            words(0, 5),
            Err("team.boards: must be a positive integer".to_string())
        );
        assert_eq!(
            words(3, 0),
            Err("stages[0].round_count: must be a positive integer".to_string())
        );
    }
}
