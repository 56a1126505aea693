//! Reading a team event: a `ggdesk-tournament/2` file with `teams` (spec/teams.md), with
//! every check, each refusal naming its place.

use super::fault::{TeamFault, TeamFileError, fault};
use super::lineup::check_match;
use super::model::{
    BoardGame, GroupGame, MatchPoints, Primary, Team, TeamBye, TeamEvent, TeamId, TeamMatch,
    TeamRound, TeamSettings, TeamStage, TeamSystem, TeamTieBreak,
};
use crate::stages::{FORMAT_2, PlayedOff};
use crate::tournament::file::{
    array, expected, id_list, object, optional, player_id, points, read_player, read_points,
    required, string,
};
use crate::tournament::{
    FileFault, GameResult, Player, PlayerId, PointsScale, Score, TournamentError,
};
use serde_json::{Map, Value};

fn file(at: impl Into<String>, f: FileFault) -> TeamFileError {
    fault(at, TeamFault::File(f))
}

fn positive(v: &Value, at: &str) -> Result<u32, TeamFileError> {
    v.as_u64()
        .filter(|&n| n >= 1)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| expected(at, "a positive integer").into())
}

fn optional_positive(
    map: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<u32>, TeamFileError> {
    optional(map, key)
        .map(|v| positive(v, &format!("{at}.{key}")))
        .transpose()
}

fn read_team_settings(v: &Value, scale: &PointsScale) -> Result<TeamSettings, TeamFileError> {
    let at = "team";
    let map = object(v, at)?;
    let boards = positive(required(map, "boards", "team.boards")?, "team.boards")? as usize;
    let mut mp = MatchPoints::default();
    if let Some(m) = optional(map, "match_points") {
        for (key, value) in object(m, "team.match_points")? {
            let key_at = format!("team.match_points.{key}");
            let slot = match key.as_str() {
                "win" => &mut mp.win,
                "draw" => &mut mp.draw,
                "loss" => &mut mp.loss,
                _ => return Err(file(key_at, FileFault::Expected("win, draw or loss"))),
            };
            *slot = points(value, &key_at)?;
        }
    }
    let mut bye = TeamBye {
        match_points: mp.draw,
        game_points: Score::from_halves(scale.draw.halves().saturating_mul(boards as i64)),
    };
    if let Some(b) = optional(map, "bye") {
        for (key, value) in object(b, "team.bye")? {
            let key_at = format!("team.bye.{key}");
            let slot = match key.as_str() {
                "match_points" => &mut bye.match_points,
                "game_points" => &mut bye.game_points,
                _ => {
                    return Err(file(
                        key_at,
                        FileFault::Expected("match_points or game_points"),
                    ));
                }
            };
            *slot = points(value, &key_at)?;
        }
    }
    let primary = match optional(map, "primary") {
        None => Primary::MatchPoints,
        Some(p) => {
            let name = string(p, "team.primary")?;
            match name.as_str() {
                "match_points" => Primary::MatchPoints,
                "game_points" => Primary::GamePoints,
                _ => return Err(fault("team.primary", TeamFault::UnknownPrimary(name))),
            }
        }
    };
    Ok(TeamSettings {
        boards,
        match_points: mp,
        bye,
        primary,
    })
}

fn read_teams(v: &Value, players: &[Player], boards: usize) -> Result<Vec<Team>, TeamFileError> {
    let mut teams: Vec<Team> = Vec::new();
    for (i, t) in array(v, "teams")?.iter().enumerate() {
        let at = format!("teams[{i}]");
        let map = object(t, &at)?;
        let id_at = format!("{at}.id");
        let id = TeamId(positive(required(map, "id", &id_at)?, &id_at)?);
        if teams.iter().any(|t| t.id == id) {
            return Err(fault(id_at, TeamFault::DuplicateTeam(id)));
        }
        let name_at = format!("{at}.name");
        let name = string(required(map, "name", &name_at)?, &name_at)?;
        let roster_at = format!("{at}.players");
        let roster = id_list(Some(required(map, "players", &roster_at)?), &roster_at)?;
        for (k, p) in roster.iter().enumerate() {
            let p_at = format!("{roster_at}[{k}]");
            if !players.iter().any(|x| x.id == *p) {
                return Err(file(
                    p_at,
                    FileFault::Tournament(TournamentError::UnknownPlayer(*p)),
                ));
            }
            if roster[..k].contains(p) {
                return Err(fault(
                    p_at,
                    TeamFault::TwiceInRoster {
                        player: *p,
                        team: id,
                    },
                ));
            }
            if let Some(other) = teams.iter().find(|t| t.roster.contains(p)) {
                return Err(fault(
                    p_at,
                    TeamFault::TwoTeams {
                        player: *p,
                        first: other.id,
                        second: id,
                    },
                ));
            }
        }
        if roster.len() < boards {
            return Err(fault(
                roster_at,
                TeamFault::ShortRoster {
                    boards,
                    has: roster.len(),
                },
            ));
        }
        let captain = match optional(map, "captain") {
            None => None,
            Some(c) => {
                let c_at = format!("{at}.captain");
                let c = player_id(c, &c_at)?;
                if !roster.contains(&c) {
                    return Err(fault(c_at, TeamFault::CaptainNotInRoster(c)));
                }
                Some(c)
            }
        };
        teams.push(Team {
            id,
            name,
            roster,
            captain,
        });
    }
    Ok(teams)
}

fn read_tiebreaks(
    v: Option<&Value>,
    at: &str,
    system: TeamSystem,
) -> Result<Vec<TeamTieBreak>, TeamFileError> {
    let Some(v) = v else {
        let mut list = TeamTieBreak::default_order();
        if system == TeamSystem::BoardGroups {
            list.retain(|t| t.for_board_groups());
        }
        return Ok(list);
    };
    let mut list = Vec::new();
    for (i, t) in array(v, at)?.iter().enumerate() {
        let t_at = format!("{at}[{i}]");
        let name = string(t, &t_at)?;
        let tb = TeamTieBreak::from_name(&name)
            .ok_or_else(|| fault(&t_at, TeamFault::UnknownTieBreak(name)))?;
        if list.contains(&tb) {
            return Err(fault(t_at, TeamFault::DuplicateTieBreak(tb.name())));
        }
        if system == TeamSystem::BoardGroups && !tb.for_board_groups() {
            return Err(fault(t_at, TeamFault::TieBreakNotForBoardGroups(tb.name())));
        }
        list.push(tb);
    }
    Ok(list)
}

fn optional_player(
    map: &Map<String, Value>,
    key: &str,
    at: &str,
) -> Result<Option<PlayerId>, TeamFileError> {
    let key_at = format!("{at}.{key}");
    if !map.contains_key(key) {
        return Err(file(key_at, FileFault::Missing));
    }
    match optional(map, key) {
        None => Ok(None),
        Some(v) => Ok(Some(player_id(v, &key_at)?)),
    }
}

fn result(map: &Map<String, Value>, at: &str) -> Result<GameResult, TeamFileError> {
    let result_at = format!("{at}.result");
    let name = string(required(map, "result", &result_at)?, &result_at)?;
    GameResult::from_name(&name).ok_or_else(|| file(&result_at, FileFault::UnknownResult(name)))
}

fn table(map: &Map<String, Value>, at: &str) -> Result<Option<u32>, TeamFileError> {
    optional_positive(map, "table", at)
}

/// Reads a match and checks its line-ups.
fn read_match(v: &Value, at: &str, event: &TeamEvent) -> Result<TeamMatch, TeamFileError> {
    let map = object(v, at)?;
    let team = |key: &str| -> Result<TeamId, TeamFileError> {
        let key_at = format!("{at}.{key}");
        let id = TeamId(positive(required(map, key, &key_at)?, &key_at)?);
        event
            .team(id)
            .map(|t| t.id)
            .ok_or_else(|| fault(key_at, TeamFault::UnknownTeam(id)))
    };
    let home = team("home")?;
    let away = team("away")?;
    if home == away {
        return Err(fault(format!("{at}.away"), TeamFault::PlaysItself(away)));
    }
    let boards_at = format!("{at}.boards");
    let mut boards = Vec::new();
    for (b, g) in array(required(map, "boards", &boards_at)?, &boards_at)?
        .iter()
        .enumerate()
    {
        let g_at = format!("{boards_at}[{b}]");
        let gm = object(g, &g_at)?;
        boards.push(BoardGame {
            white: optional_player(gm, "white", &g_at)?,
            black: optional_player(gm, "black", &g_at)?,
            result: result(gm, &g_at)?,
        });
    }
    let m = TeamMatch {
        table: table(map, at)?,
        home,
        away,
        boards,
    };
    let (Some(h), Some(a)) = (event.team(home), event.team(away)) else {
        return Err(fault(at, TeamFault::UnknownTeam(home)));
    };
    check_match(&m, h, a, event.settings.boards, |p| event.team_of(p), at)?;
    Ok(m)
}

fn read_group_game(
    v: &Value,
    at: &str,
    system: TeamSystem,
    boards: usize,
) -> Result<GroupGame, TeamFileError> {
    let map = object(v, at)?;
    let board = if system == TeamSystem::BoardGroups {
        let g_at = format!("{at}.group");
        let name = string(required(map, "group", &g_at)?, &g_at)?;
        let b = name
            .strip_prefix('B')
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|b| (1..=boards).contains(b) && name == format!("B{b}"))
            .ok_or_else(|| fault(&g_at, TeamFault::NoSuchGroup(name.clone(), boards)))?;
        Some(b)
    } else {
        None
    };
    let white_at = format!("{at}.white");
    let black_at = format!("{at}.black");
    Ok(GroupGame {
        board,
        table: table(map, at)?,
        white: player_id(required(map, "white", &white_at)?, &white_at)?,
        black: player_id(required(map, "black", &black_at)?, &black_at)?,
        result: result(map, at)?,
    })
}

fn read_round(
    v: &Value,
    at: &str,
    system: TeamSystem,
    event: &TeamEvent,
) -> Result<TeamRound, TeamFileError> {
    let map = object(v, at)?;
    let mut round = TeamRound::default();
    if system.has_matches() {
        if map.contains_key("games") {
            return Err(fault(format!("{at}.games"), TeamFault::GamesInMatchStage));
        }
        let m_at = format!("{at}.matches");
        let mut seen: Vec<TeamId> = Vec::new();
        for (i, m) in array(required(map, "matches", &m_at)?, &m_at)?
            .iter()
            .enumerate()
        {
            let at = format!("{m_at}[{i}]");
            let m = read_match(m, &at, event)?;
            for (key, t) in [("home", m.home), ("away", m.away)] {
                if seen.contains(&t) {
                    return Err(fault(format!("{at}.{key}"), TeamFault::TeamTwice(t)));
                }
                seen.push(t);
            }
            round.matches.push(m);
        }
        let byes_at = format!("{at}.byes");
        if let Some(list) = optional(map, "byes") {
            for (i, b) in array(list, &byes_at)?.iter().enumerate() {
                let b_at = format!("{byes_at}[{i}]");
                let t = TeamId(positive(b, &b_at)?);
                if event.team(t).is_none() {
                    return Err(fault(b_at, TeamFault::UnknownTeam(t)));
                }
                if seen.contains(&t) {
                    return Err(fault(b_at, TeamFault::TeamTwice(t)));
                }
                seen.push(t);
                round.byes.push(t);
            }
        }
    } else {
        if map.contains_key("matches") {
            return Err(fault(
                format!("{at}.matches"),
                TeamFault::MatchesInGameStage,
            ));
        }
        let g_at = format!("{at}.games");
        let mut seen: Vec<PlayerId> = Vec::new();
        for (i, g) in array(required(map, "games", &g_at)?, &g_at)?
            .iter()
            .enumerate()
        {
            let at = format!("{g_at}[{i}]");
            let g = read_group_game(g, &at, system, event.settings.boards)?;
            for (key, p) in [("white", g.white), ("black", g.black)] {
                if event.player(p).is_none() {
                    return Err(file(
                        format!("{at}.{key}"),
                        FileFault::Tournament(TournamentError::UnknownPlayer(p)),
                    ));
                }
                if seen.contains(&p) {
                    return Err(fault(format!("{at}.{key}"), TeamFault::PlayerTwice(p)));
                }
                seen.push(p);
            }
            if event.team_of(g.white).is_some() && event.team_of(g.white) == event.team_of(g.black)
            {
                return Err(fault(at, TeamFault::SameTeam(g.white, g.black)));
            }
            if let Some(b) = g.board {
                for (key, p) in [("white", g.white), ("black", g.black)] {
                    let on_board = event
                        .team_of(p)
                        .and_then(|t| event.team(t))
                        .is_some_and(|t| t.roster.get(b - 1) == Some(&p));
                    if !on_board {
                        return Err(fault(
                            format!("{at}.{key}"),
                            TeamFault::NotInGroup {
                                player: p,
                                board: b,
                            },
                        ));
                    }
                }
            }
            round.games.push(g);
        }
    }
    Ok(round)
}

impl TeamEvent {
    /// Reads a team event from a `ggdesk-tournament/2` file's text.
    pub fn from_json(text: &str) -> Result<TeamEvent, TeamFileError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| file("", FileFault::Json(e.to_string())))?;
        TeamEvent::from_value(&value)
    }

    /// Reads a team event from a parsed file, with every check of `spec/teams.md`.
    pub fn from_value(value: &Value) -> Result<TeamEvent, TeamFileError> {
        let top = object(value, "")
            .map_err(|_| file("", FileFault::Expected("a JSON object (the tournament)")))?;
        let format = string(required(top, "format", "format")?, "format")?;
        if format != FORMAT_2 {
            return Err(file("format", FileFault::UnknownFormat(format)));
        }
        let name = match optional(top, "name") {
            None => String::new(),
            Some(n) => string(n, "name")?,
        };
        let points_scale = match optional(top, "settings") {
            None => PointsScale::default(),
            Some(s) => read_points(
                optional(object(s, "settings")?, "points"),
                "settings.points",
            )?,
        };
        let mut players: Vec<Player> = Vec::new();
        for (i, p) in array(required(top, "players", "players")?, "players")?
            .iter()
            .enumerate()
        {
            let at = format!("players[{i}]");
            let p = read_player(p, &at)?;
            if players.iter().any(|x| x.id == p.id) {
                return Err(file(
                    format!("{at}.id"),
                    FileFault::Tournament(TournamentError::DuplicatePlayer(p.id)),
                ));
            }
            players.push(p);
        }
        if let Some(list) = optional(top, "penalties")
            && !array(list, "penalties")?.is_empty()
        {
            return Err(file(
                "penalties",
                FileFault::Expected("empty in a team event (team penalties are not supported yet)"),
            ));
        }
        let settings = read_team_settings(required(top, "team", "team")?, &points_scale)?;
        let teams = read_teams(required(top, "teams", "teams")?, &players, settings.boards)?;
        let mut event = TeamEvent {
            name,
            points: points_scale,
            settings,
            players,
            teams,
            stages: Vec::new(),
        };
        let list = array(required(top, "stages", "stages")?, "stages")?;
        if list.is_empty() {
            return Err(file(
                "stages",
                FileFault::Expected("a list of one or more stages"),
            ));
        }
        for (k, s) in list.iter().enumerate() {
            let at = format!("stages[{k}]");
            let map = object(s, &at)?;
            let name_at = format!("{at}.name");
            let name = match optional(map, "name") {
                None => String::new(),
                Some(n) => string(n, &name_at)?,
            };
            let sys_at = format!("{at}.system");
            let sys_name = string(required(map, "system", &sys_at)?, &sys_at)?;
            let system = TeamSystem::from_name(&sys_name)
                .ok_or_else(|| fault(&sys_at, TeamFault::UnknownSystem(sys_name)))?;
            for key in ["groups", "match", "seeding", "third_place"] {
                if optional(map, key).is_some() {
                    return Err(fault(format!("{at}.{key}"), TeamFault::NotInTeamEvent(key)));
                }
            }
            let last = k + 1 == list.len();
            if system == TeamSystem::Scheveningen && !last {
                return Err(fault(sys_at, TeamFault::FinalNotLast));
            }
            let round_count = optional_positive(map, "round_count", &at)?;
            if system == TeamSystem::Swiss && round_count.is_none() {
                return Err(fault(format!("{at}.round_count"), TeamFault::NoRoundCount));
            }
            let advance = optional_positive(map, "advance", &at)?;
            if !last && advance.is_none() {
                return Err(fault(format!("{at}.advance"), TeamFault::NoAdvance));
            }
            let mut playoffs = Vec::new();
            if let Some(p) = optional(map, "playoffs") {
                let p_at = format!("{at}.playoffs");
                for (i, g) in array(p, &p_at)?.iter().enumerate() {
                    let g_at = format!("{p_at}[{i}]");
                    let g = read_group_game(g, &g_at, TeamSystem::Scheveningen, 0)?;
                    for (key, p) in [("white", g.white), ("black", g.black)] {
                        if event.player(p).is_none() {
                            return Err(file(
                                format!("{g_at}.{key}"),
                                FileFault::Tournament(TournamentError::UnknownPlayer(p)),
                            ));
                        }
                    }
                    if last && system != TeamSystem::Scheveningen {
                        return Err(fault(g_at, TeamFault::PlayoffInLastStage));
                    }
                    playoffs.push(PlayedOff {
                        white: g.white,
                        black: g.black,
                        result: g.result,
                    });
                }
            }
            let tiebreaks = read_tiebreaks(
                optional(map, "team_tiebreaks"),
                &format!("{at}.team_tiebreaks"),
                system,
            )?;
            let mut rounds = Vec::new();
            if let Some(r) = optional(map, "rounds") {
                for (i, r) in array(r, &format!("{at}.rounds"))?.iter().enumerate() {
                    rounds.push(read_round(r, &format!("{at}.rounds[{i}]"), system, &event)?);
                }
            }
            event.stages.push(TeamStage {
                name,
                system,
                round_count,
                advance,
                tiebreaks,
                rounds,
                playoffs,
            });
        }
        if let Some(k) = event.stages.len().checked_sub(1)
            && event.stages[k].system == TeamSystem::Scheveningen
        {
            if k == 0 && event.teams.len() != 2 {
                return Err(fault(
                    format!("stages[{k}].system"),
                    TeamFault::FinalNeedsTwo(event.teams.len()),
                ));
            }
            if k > 0 && event.stages[k - 1].advance != Some(2) {
                return Err(fault(
                    format!("stages[{}].advance", k - 1),
                    TeamFault::FinalAfterAdvance,
                ));
            }
        }
        event.check_stages()?;
        Ok(event)
    }
}
