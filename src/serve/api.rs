//! The same data as the pages, as JSON for a federation's site. Numbers are JSON numbers
//! (scores and tie-breaks in plain decimal, as `ggdesk standings` writes them).

use super::public::{
    EventIndex, PlayerRatings, PlayerRound, PublicBoard, PublicPlayer, PublicRatingEvent,
    PublicRatingRow, PublicRound, RatingList, StageData, StagedData, TournamentData,
};
use super::teams::{GameLine, MatchLine, TeamData, TeamRoundData};
use ggdesk_core::rating::PROVISIONAL_DEVIATION;
use ggdesk_core::rating::list::{fmt2, fmt6};
use ggdesk_core::rules::Side;
use ggdesk_core::stages::GroupId;
use ggdesk_core::teams::{MatchResult, TeamId};
use ggdesk_core::tournament::{Entry, GameOutcome, Score};
use serde_json::{Map, Value, json};

fn score(s: Score) -> Value {
    s.to_ratio().to_json()
}

fn side(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// A rating's number as `ggdesk ratings` prints it (`text`: two or six decimals), as a JSON
/// number.
fn decimal(text: String) -> Value {
    text.parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// `GET /api/`: the API's endpoints, each with what it answers.
pub fn endpoints(list: &[(&str, &str)]) -> Value {
    json!({
        "endpoints": list
            .iter()
            .map(|(path, what)| json!({"path": path, "what": what}))
            .collect::<Vec<_>>(),
    })
}

/// `GET /api/tournaments`.
pub fn index(ev: &EventIndex) -> Value {
    Value::Array(
        ev.tournaments
            .iter()
            .map(|t| {
                json!({
                    "id": t.id,
                    "name": t.name,
                    "system": t.system.name(),
                    "rounds": t.rounds_planned,
                    "players": t.players,
                    "round_in_play": t.round_in_play,
                    "stages": t.stages,
                    "team_event": t.team,
                })
            })
            .collect(),
    )
}

fn player_ref(t: &TournamentData, no: u32) -> Value {
    json!({"no": no, "name": t.name(no)})
}

fn player(p: &PublicPlayer) -> Value {
    json!({
        "no": p.no,
        "name": p.name,
        "rating": p.rating,
        "club": p.club,
        "withdrawn": p.withdrawn,
    })
}

/// `GET /api/t/ID`: the tournament, its settings as the public sees them, and its players.
pub fn tournament(t: &TournamentData) -> Value {
    json!({
        "id": t.id,
        "name": t.name,
        "system": t.system.name(),
        "rounds": t.rounds_planned,
        "tiebreaks": t.tiebreaks.iter().map(|tb| tb.name()).collect::<Vec<_>>(),
        "round_in_play": t.round_in_play().map(|r| r.number),
        "complete_rounds": t.complete_rounds(),
        "rounds_published": t.rounds.iter().map(|r| r.number).collect::<Vec<_>>(),
        "players": t.players.iter().map(player).collect::<Vec<_>>(),
        "stages": t.staged.as_ref().map(|sd| sd.stages.iter().map(stage_line).collect::<Vec<_>>()),
        "team_event": t.teams.is_some(),
    })
}

/// A JSON text the core wrote (`ggdesk standings`, `bracket`), as a value.
fn core_json(text: Option<&str>) -> Value {
    text.and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(Value::Null)
}

fn stage_line(st: &StageData) -> Value {
    json!({
        "stage": st.number,
        "name": st.name,
        "system": st.system,
        "format": st.format,
        "state": st.state.code(),
        "advance": st.advance,
        "groups": st.tables.iter().filter_map(|t| t.group).map(|g| g.to_string()).collect::<Vec<_>>(),
        "tiebreaks": st.tiebreaks.iter().map(|tb| tb.name()).collect::<Vec<_>>(),
    })
}

/// `GET /api/t/ID/stages`: an event in stages, each stage with its format and state.
/// `None` for a tournament of one system.
pub fn stages(t: &TournamentData) -> Option<Value> {
    let sd = t.staged.as_ref()?;
    Some(json!({
        "tournament": t.id,
        "current": sd.current,
        "over": sd.over,
        "stages": sd.stages.iter().map(stage_line).collect::<Vec<_>>(),
    }))
}

/// `GET /api/t/ID/stage/N[/group/X]`: the stage's standings as `ggdesk standings --stage N`
/// writes them (only group X's rows when asked), each row with whether the player goes on
/// (`goes_on`) and plays off at the cut (`playoff`); the playoff games; a knockout's
/// bracket. `None` for a stage or group the event does not have.
pub fn stage(t: &TournamentData, number: u32, group: Option<GroupId>) -> Option<Value> {
    let sd: &StagedData = t.staged.as_ref()?;
    let st = sd.stage(number)?;
    if let Some(g) = group {
        st.table(g)?;
    }
    let lines: Vec<_> = st.tables.iter().flat_map(|t| &t.rows).collect();
    let rows: Vec<Value> = match core_json(st.standings_json.as_deref()) {
        Value::Array(rows) => rows
            .into_iter()
            .filter(|r| {
                group.is_none_or(|g| r.get("group").and_then(Value::as_str) == Some(&g.to_string()))
            })
            .map(|mut r| {
                let id = r.get("id").and_then(Value::as_u64);
                let line = lines.iter().find(|l| Some(u64::from(l.row.id.0)) == id);
                if let Value::Object(m) = &mut r {
                    m.insert("goes_on".into(), json!(line.is_some_and(|l| l.through)));
                    m.insert("playoff".into(), json!(line.is_some_and(|l| l.playoff)));
                }
                r
            })
            .collect(),
        _ => Vec::new(),
    };
    let playoffs: Vec<Value> = st
        .playoffs
        .iter()
        .filter(|p| group.is_none_or(|g| p.group == Some(g)))
        .map(|p| {
            let mut m = Map::new();
            if let Some(g) = p.group {
                m.insert("group".into(), json!(g.to_string()));
            }
            m.insert("white".into(), json!(p.white));
            m.insert("black".into(), json!(p.black));
            m.insert("result".into(), json!(p.result.name()));
            Value::Object(m)
        })
        .collect();
    let mut out = json!({
        "tournament": t.id,
        "stage": st.number,
        "name": st.name,
        "system": st.system,
        "state": st.state.code(),
        "advance": st.advance,
        "tiebreaks": st.tiebreaks.iter().map(|tb| tb.name()).collect::<Vec<_>>(),
        "standings": rows,
        "playoffs": playoffs,
    });
    if let (Some(g), Value::Object(m)) = (group, &mut out) {
        m.insert("group".into(), json!(g.to_string()));
    }
    if st.knockout
        && let Value::Object(m) = &mut out
    {
        let bracket = sd
            .bracket
            .as_ref()
            .filter(|b| b.stage == st.number)
            .and(sd.bracket_json.as_deref());
        m.insert("bracket".into(), core_json(bracket));
    }
    Some(out)
}

/// `GET /api/t/ID/bracket`: the knockout as `ggdesk bracket` writes it. `None` when the
/// event has no knockout seeded (or is of one system).
pub fn bracket(t: &TournamentData) -> Option<Value> {
    let sd = t.staged.as_ref()?;
    sd.bracket_json.as_ref()?;
    Some(core_json(sd.bracket_json.as_deref()))
}

/// `GET /api/t/ID/final`: whether the event is over and its final placement as `ggdesk
/// standings --final` writes it (empty before). `None` for a tournament of one system.
pub fn final_placement(t: &TournamentData) -> Option<Value> {
    let sd = t.staged.as_ref()?;
    let placement = match core_json(sd.placement_json.as_deref()) {
        Value::Null => json!([]),
        v => v,
    };
    Some(json!({"tournament": t.id, "over": sd.over, "placement": placement}))
}

fn board(t: &TournamentData, b: &PublicBoard) -> Value {
    json!({
        "table": b.table,
        "white": player_ref(t, b.white),
        "black": player_ref(t, b.black),
        "state": b.state.code(),
        "result": b.result.name(),
    })
}

/// `GET /api/t/ID/round` and `/api/t/ID/round/N`: the boards by table, byes and absences.
pub fn round(t: &TournamentData, r: &PublicRound) -> Value {
    json!({
        "tournament": t.id,
        "round": r.number,
        "complete": r.complete,
        "in_play": t.round_in_play().is_some_and(|p| p.number == r.number),
        "boards": r.boards.iter().map(|b| board(t, b)).collect::<Vec<_>>(),
        "byes": r.byes.iter().map(|&no| player_ref(t, no)).collect::<Vec<_>>(),
        "absent": r.absent.iter().map(|&no| player_ref(t, no)).collect::<Vec<_>>(),
    })
}

/// `GET /api/t/ID/players[?q=]`: the players by name, each with their seat in the round in
/// play.
pub fn players(t: &TournamentData, query: Option<&str>) -> Value {
    let r = t.round_in_play();
    let list: Vec<Value> = t
        .players_by_name(query)
        .into_iter()
        .map(|p| {
            let mut v = player(p);
            if let (Some(r), Value::Object(m)) = (r, &mut v) {
                m.insert("round".into(), json!(r.number));
                m.insert("seat".into(), seat(r, p.no));
            }
            v
        })
        .collect();
    json!({"tournament": t.id, "query": query.unwrap_or(""), "players": list})
}

fn seat(r: &PublicRound, no: u32) -> Value {
    if let Some((b, s)) = r.board_of(no) {
        let opponent = match s {
            Side::White => b.black,
            Side::Black => b.white,
        };
        json!({
            "table": b.table,
            "colour": side(s),
            "opponent": opponent,
            "state": b.state.code(),
            "result": b.result.name(),
        })
    } else if r.byes.contains(&no) {
        json!("bye")
    } else {
        json!("not_paired")
    }
}

/// `GET /api/t/ID/standings`: the spec's standings rows (`rank`, `id`, `name`, `rating`,
/// `score` and one key per tie-break) after the last complete round.
pub fn standings(t: &TournamentData) -> Value {
    let s = &t.standings;
    let rows: Vec<Value> = t
        .counted_rows()
        .map(|(row, _)| {
            let mut m = Map::new();
            m.insert("rank".into(), json!(row.rank));
            m.insert("id".into(), json!(row.id.0));
            m.insert("name".into(), json!(row.name));
            m.insert("rating".into(), json!(row.rating));
            m.insert("score".into(), score(row.score));
            for (tb, v) in s.tiebreaks.iter().zip(&row.tiebreaks) {
                m.insert(tb.name().into(), v.to_json());
            }
            Value::Object(m)
        })
        .collect();
    json!({
        "tournament": t.id,
        "after_round": s.after_round,
        "tiebreaks": s.tiebreaks.iter().map(|tb| tb.name()).collect::<Vec<_>>(),
        "rows": rows,
    })
}

fn outcome(o: GameOutcome) -> &'static str {
    match o {
        GameOutcome::Win => "win",
        GameOutcome::Loss => "loss",
        GameOutcome::Draw => "draw",
        GameOutcome::ForfeitWin => "forfeit_win",
        GameOutcome::ForfeitLoss => "forfeit_loss",
        GameOutcome::DoubleForfeit => "double_forfeit",
        GameOutcome::Pending => "pending",
    }
}

fn entry(e: &Entry) -> Value {
    match e {
        Entry::Game {
            opponent,
            colour,
            outcome: o,
        } => json!({"opponent": opponent.0, "colour": side(*colour), "outcome": outcome(*o)}),
        Entry::Bye => json!({"outcome": "bye"}),
        Entry::Absent => json!({"outcome": "absent"}),
    }
}

/// `GET /api/t/ID/crosstable`: a row per player in standings order, a cell per round.
pub fn crosstable(t: &TournamentData) -> Value {
    let s = &t.standings;
    let rows: Vec<Value> = t
        .counted_rows()
        .map(|(row, cells)| {
            json!({
                "rank": row.rank,
                "id": row.id.0,
                "name": row.name,
                "score": score(row.score),
                "rounds": cells.iter().map(entry).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({"tournament": t.id, "after_round": s.after_round, "rows": rows})
}

fn player_round(pr: &PlayerRound) -> Value {
    let mut v = entry(&pr.entry);
    if let Value::Object(m) = &mut v {
        m.insert("round".into(), json!(pr.round));
        if let Some(table) = pr.table {
            m.insert("table".into(), json!(table));
        }
        if let Some(state) = pr.state {
            m.insert("state".into(), json!(state.code()));
        }
        m.insert(
            "score_after".into(),
            pr.score_after.map_or(Value::Null, score),
        );
    }
    v
}

/// `GET /api/t/ID/player/NO`: the player, their score and every round.
pub fn player_page(t: &TournamentData, no: u32) -> Option<Value> {
    let p = t.player(no)?;
    let (history, total) = t.record_of(no)?;
    let mut v = player(p);
    if let Value::Object(m) = &mut v {
        m.insert("tournament".into(), json!(t.id));
        m.insert("score".into(), score(total));
        m.insert(
            "rounds".into(),
            Value::Array(history.iter().map(player_round).collect()),
        );
    }
    Some(v)
}

/// A player of the rating list: the columns of `ggdesk ratings` (the same keys and decimals
/// as its `--json`), and whether the rating is provisional.
fn rating_row(r: &PublicRatingRow) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("rank".into(), json!(r.rank));
    m.insert("federation_id".into(), json!(r.federation_id));
    m.insert("name".into(), json!(r.name));
    m.insert("rating".into(), decimal(fmt2(r.rating)));
    m.insert("deviation".into(), decimal(fmt2(r.deviation)));
    m.insert("volatility".into(), decimal(fmt6(r.volatility)));
    m.insert("games".into(), json!(r.games));
    m.insert("events".into(), json!(r.events));
    m.insert(
        "last_event".into(),
        r.last_event.map_or(Value::Null, |d| json!(d.to_string())),
    );
    m.insert(
        "provisional".into(),
        json!(r.deviation > PROVISIONAL_DEVIATION),
    );
    m
}

/// `GET /api/ratings[?q=]`: the rating list by rank (or the players whose name or federation
/// id matches the search).
pub fn ratings(list: &RatingList, query: Option<&str>) -> Value {
    let rows: Vec<Value> = list
        .matching(query)
        .into_iter()
        .map(|r| Value::Object(rating_row(r)))
        .collect();
    json!({
        "players": list.rows.len(),
        "latest_event": list.latest_event().map(|d| d.to_string()),
        "provisional_above": PROVISIONAL_DEVIATION,
        "query": query.unwrap_or(""),
        "rows": rows,
    })
}

fn rated_event(e: &PublicRatingEvent) -> Value {
    json!({
        "tournament": e.tournament.0,
        "event": e.event,
        "date": e.date.to_string(),
        "name": e.name,
        "before": decimal(fmt2(e.before)),
        "after": decimal(fmt2(e.after)),
        "change": decimal(fmt2(e.after - e.before)),
        "deviation_before": decimal(fmt2(e.before_deviation)),
        "deviation_after": decimal(fmt2(e.after_deviation)),
        "games": e.games,
        "score": score(e.score),
        "expected": decimal(fmt2(e.expected)),
    })
}

/// `GET /api/ratings/player/ID`: the player's row of the list and their rated events, oldest
/// first (the history keys of `ggdesk ratings --json`, with the tournament, the player's name
/// in it and the change).
pub fn rated_player(p: &PlayerRatings) -> Value {
    let mut m = rating_row(&p.row);
    m.insert("of".into(), json!(p.of));
    m.insert(
        "history".into(),
        Value::Array(p.history.iter().map(rated_event).collect()),
    );
    Value::Object(m)
}

fn team_ref(td: &TeamData, id: TeamId) -> Value {
    json!({"id": id.0, "name": td.team_name(id)})
}

fn seat_ref(t: &TournamentData, no: Option<u32>) -> Value {
    no.map_or(Value::Null, |no| player_ref(t, no))
}

/// A match with its boards (`null` for a side left empty) and its running score: game
/// points of the boards finished so far, match points once none is pending.
fn team_match(t: &TournamentData, td: &TeamData, m: &MatchLine) -> Value {
    let pending = m.score.result == MatchResult::Pending;
    json!({
        "match": m.table,
        "home": team_ref(td, m.home),
        "away": team_ref(td, m.away),
        "boards": m.boards.iter().map(|b| json!({
            "board": b.board,
            "table": b.table,
            "white": seat_ref(t, b.white),
            "black": seat_ref(t, b.black),
            "result": b.result.name(),
        })).collect::<Vec<_>>(),
        "game_points": [score(m.score.game_points.0), score(m.score.game_points.1)],
        "match_points": if pending {
            Value::Null
        } else {
            json!([score(m.score.match_points.0), score(m.score.match_points.1)])
        },
        "complete": !pending,
    })
}

fn team_game(t: &TournamentData, g: &GameLine) -> Value {
    json!({
        "table": g.table,
        "board_group": g.board_group,
        "white": player_ref(t, g.white),
        "black": player_ref(t, g.black),
        "result": g.result.name(),
    })
}

/// `GET /api/t/ID/round[/N]` of a team event: the round's matches board by board, its
/// team byes, or its games.
pub fn team_round(t: &TournamentData, td: &TeamData, r: &TeamRoundData) -> Value {
    json!({
        "round": r.number,
        "stage": r.stage,
        "system": r.system.name(),
        "playoff": r.playoff,
        "complete": r.complete(),
        "matches": r.matches.iter().map(|m| team_match(t, td, m)).collect::<Vec<_>>(),
        "byes": r.byes.iter().map(|id| team_ref(td, *id)).collect::<Vec<_>>(),
        "games": r.games.iter().map(|g| team_game(t, g)).collect::<Vec<_>>(),
    })
}

/// `GET /api/t/ID/standings` of a team event: the current stage's team standings, rows as
/// `ggdesk standings --teams` writes them.
pub fn team_standings(t: &TournamentData, td: &TeamData) -> Value {
    let current = td.current_standings();
    json!({
        "tournament": t.id,
        "stage": td.current,
        "primary": td.primary.name(),
        "tiebreaks": current.map_or(Vec::new(), |(_, s)| s.tiebreaks.iter().map(|tb| tb.name()).collect()),
        "rows": current.map_or(Value::Array(Vec::new()), |(_, s)| s.to_json()),
    })
}

/// `GET /api/t/ID/teams`: the stages with their standings, the teams with their rosters.
pub fn teams(t: &TournamentData, td: &TeamData) -> Value {
    json!({
        "tournament": t.id,
        "boards": td.boards,
        "primary": td.primary.name(),
        "current_stage": td.current,
        "stages": td.stages.iter().map(|st| json!({
            "stage": st.number,
            "name": st.name,
            "system": st.system.name(),
            "advance": st.advance,
            "tiebreaks": st.tiebreaks.iter().map(|tb| tb.name()).collect::<Vec<_>>(),
            "standings": st.standings.as_ref().map(|s| s.to_json()),
        })).collect::<Vec<_>>(),
        "teams": td.teams.iter().map(|team| json!({
            "id": team.id.0,
            "name": team.name,
            "captain": team.captain,
            "roster": team.roster.iter().map(|&no| player_ref(t, no)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "placement": core_json(td.placement_json.as_deref()),
    })
}

/// `GET /api/t/ID/team/NO`: a team's roster in board order, its matches and byes.
pub fn team(t: &TournamentData, td: &TeamData, no: u32) -> Option<Value> {
    let id = TeamId(no);
    let team = td.team(id)?;
    let row = td
        .current_standings()
        .and_then(|(_, s)| s.rows.iter().find(|r| r.team == id));
    Some(json!({
        "id": team.id.0,
        "name": team.name,
        "captain": team.captain,
        "roster": team.roster.iter().enumerate().map(|(i, &no)| json!({
            "board": (i < td.boards).then_some(i + 1),
            "no": no,
            "name": t.name(no),
        })).collect::<Vec<_>>(),
        "rank": row.map(|r| r.rank),
        "match_points": row.map(|r| score(r.match_points)),
        "game_points": row.map(|r| score(r.game_points)),
        "matches": td.matches_of(id).iter().map(|(r, m)| {
            let mut v = team_match(t, td, m);
            if let Value::Object(o) = &mut v {
                o.insert("round".into(), json!(r.number));
            }
            v
        }).collect::<Vec<_>>(),
        "byes": td.byes_of(id),
    }))
}

/// `GET /api/t/ID/boards`: the board prizes as `ggdesk standings --boards` writes them.
pub fn board_prizes(td: &TeamData) -> Value {
    core_json(Some(&td.prizes_json))
}
