//! Writing a team event as its file: the one writer beside [`file`](super::file)'s reader,
//! so that what a store keeps of a team event comes back out as a file the reader takes
//! to the same event (every default the reader took written out).

use super::model::{
    GroupGame, Primary, Team, TeamEvent, TeamMatch, TeamRound, TeamStage, TeamSystem,
};
use crate::stages::FORMAT_2;
use crate::tournament::PointsScale;
use crate::tournament::file::{player_value, score_value};
use serde_json::{Map, Value, json};

fn system_name(s: TeamSystem) -> &'static str {
    match s {
        TeamSystem::Swiss => "swiss",
        TeamSystem::RoundRobin => "round_robin",
        TeamSystem::BoardGroups => "board_groups",
        TeamSystem::Scheveningen => "scheveningen",
    }
}

fn points_value(p: &PointsScale) -> Value {
    let mut m = Map::new();
    for key in PointsScale::KEYS {
        if let Some(v) = p.get(key) {
            m.insert(key.into(), score_value(v));
        }
    }
    Value::Object(m)
}

fn team_value(t: &Team) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), json!(t.id.0));
    m.insert("name".into(), json!(t.name));
    m.insert(
        "players".into(),
        t.roster.iter().map(|p| json!(p.0)).collect(),
    );
    if let Some(c) = t.captain {
        m.insert("captain".into(), json!(c.0));
    }
    Value::Object(m)
}

fn match_value(m: &TeamMatch) -> Value {
    let mut v = Map::new();
    if let Some(t) = m.table {
        v.insert("table".into(), json!(t));
    }
    v.insert("home".into(), json!(m.home.0));
    v.insert("away".into(), json!(m.away.0));
    let boards: Vec<Value> = m
        .boards
        .iter()
        .map(|b| {
            json!({"white": b.white.map(|p| p.0), "black": b.black.map(|p| p.0),
                   "result": b.result.name()})
        })
        .collect();
    v.insert("boards".into(), Value::Array(boards));
    Value::Object(v)
}

fn game_value(g: &GroupGame) -> Value {
    let mut v = Map::new();
    if let Some(b) = g.board {
        v.insert("group".into(), json!(format!("B{b}")));
    }
    if let Some(t) = g.table {
        v.insert("table".into(), json!(t));
    }
    v.insert("white".into(), json!(g.white.0));
    v.insert("black".into(), json!(g.black.0));
    v.insert("result".into(), json!(g.result.name()));
    Value::Object(v)
}

fn round_value(r: &TeamRound, system: TeamSystem) -> Value {
    if system.has_matches() {
        json!({"matches": r.matches.iter().map(match_value).collect::<Vec<_>>(),
               "byes": r.byes.iter().map(|t| t.0).collect::<Vec<_>>()})
    } else if system == TeamSystem::BoardGroups {
        json!({"games": r.games.iter().map(game_value).collect::<Vec<_>>(), "byes": []})
    } else {
        json!({"games": r.games.iter().map(game_value).collect::<Vec<_>>()})
    }
}

fn stage_value(s: &TeamStage, last: bool) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(s.name));
    m.insert("system".into(), json!(system_name(s.system)));
    if let Some(n) = s.round_count {
        m.insert("round_count".into(), json!(n));
    }
    if let Some(a) = s.advance {
        m.insert("advance".into(), json!(a));
    }
    m.insert(
        "team_tiebreaks".into(),
        s.tiebreaks.iter().map(|t| json!(t.name())).collect(),
    );
    let rounds: Vec<Value> = s.rounds.iter().map(|r| round_value(r, s.system)).collect();
    m.insert("rounds".into(), Value::Array(rounds));
    // The last stage has no cut: only a Scheveningen final there has playoffs.
    if !last || s.system == TeamSystem::Scheveningen {
        let playoffs: Vec<Value> = s
            .playoffs
            .iter()
            .map(|g| json!({"white": g.white.0, "black": g.black.0, "result": g.result.name()}))
            .collect();
        m.insert("playoffs".into(), Value::Array(playoffs));
    }
    Value::Object(m)
}

impl TeamEvent {
    /// The team event as a `ggdesk-tournament/2` JSON value: [`TeamEvent::from_value`]
    /// reads it back to this event.
    pub fn to_value(&self) -> Value {
        let s = &self.settings;
        let primary = match s.primary {
            Primary::MatchPoints => "match_points",
            Primary::GamePoints => "game_points",
        };
        let count = self.stages.len();
        json!({
            "format": FORMAT_2,
            "name": self.name,
            "settings": {"points": points_value(&self.points)},
            "team": {
                "boards": s.boards,
                "match_points": {"win": score_value(s.match_points.win),
                                 "draw": score_value(s.match_points.draw),
                                 "loss": score_value(s.match_points.loss)},
                "bye": {"match_points": score_value(s.bye.match_points),
                        "game_points": score_value(s.bye.game_points)},
                "primary": primary,
            },
            "players": self.players.iter().map(player_value).collect::<Vec<_>>(),
            "teams": self.teams.iter().map(team_value).collect::<Vec<_>>(),
            "penalties": [],
            "stages": self.stages.iter().enumerate()
                .map(|(k, st)| stage_value(st, k + 1 == count))
                .collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape of the spec written and read back is the same event.
    #[test]
    fn an_event_written_reads_back_the_same() {
        let file = json!({
            "format": "ggdesk-tournament/2", "name": "Cup",
            "settings": {"points": {"win": 2, "draw": 1, "loss": 0, "bye": 2,
                                    "forfeit_win": 2, "forfeit_loss": 0, "absent": 0}},
            "team": {"boards": 2, "match_points": {"win": 3, "draw": 1, "loss": 0},
                     "bye": {"match_points": 3, "game_points": 2.5}, "primary": "game_points"},
            "players": [{"id": 1, "name": "A", "rating": 1500, "club": "X"},
                        {"id": 2, "name": "B", "rating": 1400},
                        {"id": 3, "name": "C", "rating": 1300, "federation_id": "F3"},
                        {"id": 4, "name": "D", "rating": 1200},
                        {"id": 5, "name": "E", "rating": 1100}],
            "teams": [{"id": 1, "name": "One", "players": [1, 2, 5], "captain": 2},
                      {"id": 2, "name": "Two", "players": [3, 4]}],
            "penalties": [],
            "stages": [{"name": "RR", "system": "round_robin", "advance": 2,
                        "rounds": [{"matches": [{"table": 1, "home": 1, "away": 2, "boards": [
                            {"white": 1, "black": 3, "result": "draw"},
                            {"white": null, "black": 5, "result": "black_forfeit"}]}],
                                    "byes": []}]},
                       {"name": "Final", "system": "scheveningen", "rounds": []}]
        });
        let event = TeamEvent::from_value(&file).expect("the file reads");
        let written = event.to_value();
        let again = TeamEvent::from_value(&written).expect("the writing reads");
        assert_eq!(again, event);
        assert_eq!(again.to_value(), written);
    }
}
