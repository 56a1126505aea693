//! Team event files the tests share.
#![allow(dead_code)]

use serde_json::{Value, json};

/// A one-round team Swiss of four teams of two boards and a reserve (A 1–3, B 4–6, C 7–9,
/// D 10–12) sending two on to a final, its round played: A beats B, C and D draw 2–2 and
/// tie across the cut.
pub fn swiss_then_final() -> Value {
    let players: Vec<Value> = (1..=12)
        .map(|i| json!({"id": i, "name": format!("P{i}"), "rating": 2000 - 10 * i}))
        .collect();
    json!({
        "format": "ggdesk-tournament/2",
        "name": "Cup",
        "settings": {"points": {"win": 2, "draw": 1, "loss": 0, "bye": 2, "forfeit_win": 2,
                                "forfeit_loss": 0, "absent": 0}},
        "team": {"boards": 2},
        "players": players,
        "teams": [
            {"id": 1, "name": "A", "players": [1, 2, 3]},
            {"id": 2, "name": "B", "players": [4, 5, 6]},
            {"id": 3, "name": "C", "players": [7, 8, 9]},
            {"id": 4, "name": "D", "players": [10, 11, 12]}
        ],
        "penalties": [],
        "stages": [
            {"name": "Swiss", "system": "swiss", "round_count": 1, "advance": 2,
             "team_tiebreaks": ["game_points", "direct_encounter"],
             "rounds": [{"matches": [
                 {"table": 1, "home": 1, "away": 2, "boards": [
                     {"white": 1, "black": 4, "result": "white"},
                     {"white": 5, "black": 2, "result": "black"}]},
                 {"table": 2, "home": 3, "away": 4, "boards": [
                     {"white": 7, "black": 10, "result": "white"},
                     {"white": 11, "black": 8, "result": "white"}]}
             ], "byes": []}],
             "playoffs": []},
            {"name": "Final", "system": "scheveningen", "rounds": []}
        ]
    })
}
