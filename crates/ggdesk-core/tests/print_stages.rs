//! The printouts of an event in stages: the bracket on landscape pages (one for up to 16
//! players, two for 32) with each match's seeds, players, series score, winner and games;
//! the group tables of a round-robin stage.

use ggdesk_core::export::print::{Details, bracket_page, group_tables_page};
use ggdesk_core::stages::Event;
use ggdesk_core::tournament::StageNo;
use serde_json::{Value, json};
use std::path::PathBuf;

fn fixture(name: &str) -> Event {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/stages")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("fixture");
    Event::from_json(&text).expect("a valid event")
}

fn details() -> Details {
    Details {
        event: "League <night>".into(),
        dates: "30 August 2026".into(),
        venue: "Quezon City".into(),
        organiser: "GGF".into(),
        chief_arbiter: "A. Reyes".into(),
    }
}

/// A knockout of `n` players seeded by rating, single games, nothing played yet.
fn knockout(n: u32) -> Event {
    let players: Vec<Value> = (1..=n)
        .map(|i| json!({"id": i, "name": format!("Player {i:02}"), "rating": 2500 - i}))
        .collect();
    Event::from_value(&json!({
        "format": "ggdesk-tournament/2",
        "name": "Cup",
        "players": players,
        "stages": [{"name": "Cup", "system": "knockout", "match": {"best_of": 1},
                    "third_place": true, "rounds": []}]
    }))
    .expect("a knockout")
}

#[test]
fn a_played_bracket_shows_each_match_its_score_its_games_and_its_winner() {
    let event = fixture("groups-then-cross-over-final.json");
    let html = bracket_page(&details(), &event).expect("a knockout is seeded");
    // One landscape page, with the details header (escaped).
    assert_eq!(html.matches("<section class=sheet>").count(), 1);
    assert!(html.contains("@page{size:landscape"));
    assert!(html.contains("<h1>League &lt;night&gt;</h1>"));
    assert!(html.contains("Knockout: the bracket (single game)"));
    // The columns, and each match by its id.
    for title in ["<h3>Semi-finals</h3>", "<h3>Final</h3>"] {
        assert!(html.contains(title), "{title}");
    }
    for m in ["Match 1.1", "Match 1.2", "Match 2.1"] {
        assert_eq!(html.matches(m).count(), 1, "{m}");
    }
    // Semi-final 1.1: seeds 1 and 4, players 4 and 3; a draw, then 4 won with
    // Black: 1 to 0, and 4 marked the winner.
    let semi = &html[html.find("Match 1.1").expect("1.1")..html.find("Match 1.2").expect("1.2")];
    assert!(
        semi.contains("(1) Santos, P4 ✓</span><span class=s>1</span>"),
        "{semi}"
    );
    assert!(
        semi.contains("(4) Ramos, P3</span><span class=s>0</span>"),
        "{semi}"
    );
    assert!(semi.contains("Games: ½ 1"), "{semi}");
    // The final: 4 beat 8; no third-place match in this event.
    let fin = &html[html.find("Match 2.1").expect("2.1")..];
    assert!(fin.contains("(1) Santos, P4 ✓"), "{fin}");
    assert!(fin.contains("Games: 1</div>"), "{fin}");
    assert!(!html.contains("Third place"));
}

#[test]
fn sixteen_players_fit_one_page_and_thirty_two_take_two() {
    let html = bracket_page(&details(), &knockout(16)).expect("bracket");
    assert_eq!(html.matches("<section class=sheet>").count(), 1);
    assert_eq!(html.matches("<div class=m>").count(), 8 + 4 + 2 + 1 + 1);
    // Not played yet: the first round's players by seed (1 against 16), the later rounds
    // say where their players come from, the third-place match its semi-final losers.
    assert!(html.contains("(1) Player 01"));
    assert!(html.contains("(16) Player 16"));
    assert!(html.contains("winner of 1.1</span>"));
    assert!(html.contains("<h3>Third place</h3>"));
    assert!(html.contains("loser of 3.1</span>"));
    assert!(html.contains("<h3>Quarter-finals</h3>"));

    let html = bracket_page(&details(), &knockout(32)).expect("bracket");
    let sheets: Vec<&str> = html.split("<section class=sheet>").skip(1).collect();
    assert_eq!(sheets.len(), 2);
    // The top half on the first page, the bottom half with the final and the third-place
    // match on the second: 8 + 4 + 2 + 1 boxes, then the same and the final and 3rd.
    assert_eq!(sheets[0].matches("<div class=m>").count(), 15);
    assert_eq!(sheets[1].matches("<div class=m>").count(), 17);
    assert!(sheets[0].contains("Match 1.1<") && !sheets[0].contains("Match 1.9<"));
    assert!(sheets[1].contains("Match 1.9<") && sheets[1].contains("Match 5.1<"));
    assert!(!sheets[0].contains("<h3>Final</h3>"));
}

/// The cells after the name in the row of `name` (the player's own cell empty).
fn cells(html: &str, name: &str) -> Vec<String> {
    let start = html.find(&format!("<td>{name}</td>")).expect(name);
    let row = &html[start..start + html[start..].find("</tr>").expect("row end")];
    row.split("<td")
        .skip(2)
        .map(|c| {
            let c = &c[c.find('>').expect("cell") + 1..];
            c.trim_end_matches("</td>")
                .replace("<b>", "")
                .replace("</b>", "")
        })
        .collect()
}

#[test]
fn group_tables_show_each_groups_results_points_and_the_cut() {
    let event = fixture("groups-then-cross-over-final.json");
    let html = group_tables_page(&details(), &event, StageNo(1)).expect("a round robin");
    assert!(html.contains("Groups: group tables"));
    assert_eq!(html.matches("<h3>Group ").count(), 2);
    assert!(html.contains("The top 2 of each group go on to the next stage."));
    // Group A's first game: 4 beat 5 with White: 4's row has 1 against 5, 5's row 0
    // against 4.
    let a =
        &html[html.find("<h3>Group A</h3>").expect("A")..html.find("<h3>Group B</h3>").expect("B")];
    // Ranks 1 and 3 of the group (columns 1 and 3).
    assert_eq!(cells(a, "1 Santos, P4")[2], "1");
    assert_eq!(cells(a, "3 Castillo, P5")[0], "0");
    assert_eq!(
        cells(a, "1 Santos, P4").len(),
        7 + 1 + 3 + 1,
        "7 players, points, 3 tie-breaks, next stage"
    );
    // The knockout stage has no group tables; a stage not there neither.
    assert!(group_tables_page(&details(), &event, StageNo(2)).is_none());
    assert!(group_tables_page(&details(), &event, StageNo(3)).is_none());
}

#[test]
fn group_tables_mark_who_went_on_the_playoffs_winner_not_everyone_at_the_rank() {
    use ggdesk_core::stages::{NextStep, PlayoffGame};
    use ggdesk_core::tournament::GameResult;
    // One group of four, the top two to a final: 1 beats 2, 2 beats 3, 3 beats 1 and all
    // three beat 4, so 1, 2 and 3 share rank 1 across the cut and play off.
    let game = |t: u32, w: u32, b: u32, r: &str| json!({"group": "A", "table": t, "white": w, "black": b, "result": r});
    let mut event = Event::from_value(&json!({
        "format": "ggdesk-tournament/2",
        "name": "Cut",
        "players": (1..=4).map(|i| json!({"id": i, "name": format!("P{i}"), "rating": 2000 - i}))
            .collect::<Vec<_>>(),
        "stages": [
            {"name": "Group", "system": "round_robin", "advance": 2, "tiebreaks": [],
             "rounds": [
                {"games": [game(1, 1, 4, "white"), game(2, 2, 3, "white")], "byes": []},
                {"games": [game(1, 4, 3, "black"), game(2, 1, 2, "white")], "byes": []},
                {"games": [game(1, 2, 4, "white"), game(2, 3, 1, "white")], "byes": []}
             ]},
            {"name": "Final", "system": "knockout", "match": {"best_of": 1}, "rounds": []}
        ]
    }))
    .expect("a valid event");
    // No mark before the next stage is seeded.
    let html = group_tables_page(&details(), &event, StageNo(1)).expect("a round robin");
    assert!(!html.contains("through"), "nobody has gone on yet");
    // The lower number wins every playoff game: the cut is clear after one round robin.
    while let Ok(NextStep::Playoff { games, .. }) = event.next_step() {
        let mut parts = event.parts().clone();
        for g in games {
            parts.stages[0].playoffs.push(PlayoffGame {
                group: g.group,
                white: g.white,
                black: g.black,
                result: if g.white < g.black {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                },
            });
        }
        event = Event::new(parts).expect("the playoff games fit");
    }
    let went_on = event.reached()[1].seeds.clone();
    let html = group_tables_page(&details(), &event, StageNo(1)).expect("a round robin");
    let rows: Vec<(String, bool)> = html
        .split("<tr>")
        .filter(|r| r.starts_with("<td class=num>"))
        .map(|r| {
            let rank = r["<td class=num>".len()..]
                .split('<')
                .next()
                .expect("rank")
                .to_string();
            (rank, r.contains("<b>through</b>"))
        })
        .collect();
    assert_eq!(
        rows.iter().filter(|r| r.1).count(),
        went_on.len(),
        "one mark per player who went on"
    );
    // Some rank is shared across the cut: among its players only the playoff's
    // winner(s) are marked.
    let split = rows
        .iter()
        .any(|(rank, marked)| *marked && rows.iter().any(|(r, m)| r == rank && !m));
    assert!(
        split,
        "a rank shared across the cut, its players told apart"
    );
}
