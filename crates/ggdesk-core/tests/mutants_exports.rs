//! Public functions of the core that only the `ggdesk` shell called: no test of the core
//! did, so `cargo mutants -p ggdesk-core` missed every mutant of them (issue 24, item 4).
//! Each test checks the whole output (whole CSV text, whole lines of a page, whole JSON
//! values) against values written by hand, from the stage fixtures' expected answers (the
//! separate reference implementation's) or from small inputs worked out on paper.

use ggdesk_core::export::print::{Details, rating_report_page};
use ggdesk_core::export::{placement_csv, stage_standings_csv};
use ggdesk_core::rating::list::{HistoryEntry, list_json, report_csv};
use ggdesk_core::rating::{Date, ListRow, PlayerEvent, Rating, Standing};
use ggdesk_core::record::Record;
use ggdesk_core::stages::{Bracket, Event};
use ggdesk_core::tournament::{PlayerId, Ratio, Score, Settings, Tournament};
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;

/// A file of the workspace's `tests/fixtures`.
fn workspace_fixture(path: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn stage_fixture(name: &str) -> Event {
    Event::from_json(&workspace_fixture(&format!("stages/{name}"))).expect("a valid event")
}

/// Four players, two groups of two (one game each), then a single-game final between the
/// group winners. Worked out by hand:
/// - seeds by rating 1, 2, 3, 4; serpentine groups: A = {1, 4}, B = {2, 3};
/// - A: 1 wins by forfeit against 4 (2 points, no win over the board, one forfeit win);
///   B: 3 beats 2 with Black (2 points, one win);
/// - the final's seeds: both winners have 2 points, then `fewest_forfeit_wins` puts 3
///   (0) above 1 (-1): seed 1 is player 3, who has White in the game; 1 wins it with Black.
fn mini_event() -> Event {
    Event::from_value(&json!({
        "format": "ggdesk-tournament/2",
        "name": "Mini",
        "players": [
            {"id": 1, "name": "Reyes, Ana", "rating": 1800},
            {"id": 2, "name": "=Cruz, Ben", "rating": 1700},
            {"id": 3, "name": "Diaz, Carla", "rating": 1600},
            {"id": 4, "name": "Lim", "rating": 1500}
        ],
        "stages": [
            {"name": "Groups", "system": "round_robin", "groups": 2, "advance": 1,
             "tiebreaks": ["fewest_forfeit_wins", "wins"],
             "rounds": [{"games": [
                 {"group": "A", "table": 1, "white": 1, "black": 4, "result": "white_forfeit"},
                 {"group": "B", "table": 2, "white": 2, "black": 3, "result": "black"}
             ]}],
             "playoffs": []},
            {"name": "Final", "system": "knockout", "match": {"best_of": 1},
             "rounds": [{"games": [
                 {"match": "1.1", "table": 1, "white": 3, "black": 1, "result": "black"}
             ]}]}
        ]
    }))
    .expect("a valid event")
}

// ------------------------------------------------------------------ export::stage_standings_csv

/// A grouped stage: the `group` column first, the stage's tie-breaks last; a name with a
/// comma quoted, a name beginning with `=` made formula-safe, a negative tie-break value
/// written as the number it is.
#[test]
fn stage_standings_csv_of_a_grouped_stage_leads_with_the_group() {
    let s = mini_event()
        .stage_standings(Some(ggdesk_core::tournament::StageNo(1)))
        .expect("stage 1");
    assert_eq!(
        stage_standings_csv(&s),
        "group,rank,id,name,rating,score,fewest_forfeit_wins,wins\n\
         A,1,1,\"Reyes, Ana\",1800,2,-1,0\n\
         A,2,4,Lim,1500,0,0,0\n\
         B,1,3,\"Diaz, Carla\",1600,2,0,1\n\
         B,2,2,\"'=Cruz, Ben\",1700,0,0,0\n"
    );
}

/// A Swiss stage has no `group` column; with no tie-breaks the columns end at `score`.
/// Ranks, ids and scores are the fixture's `standings_stage` (tied players by seed).
#[test]
fn stage_standings_csv_of_a_swiss_stage_has_no_group_column() {
    let s = stage_fixture("playoff-at-the-cut.json")
        .stage_standings(Some(ggdesk_core::tournament::StageNo(1)))
        .expect("stage 1");
    assert_eq!(
        stage_standings_csv(&s),
        "rank,id,name,rating,score\n\
         1,11,\"Lim, P11\",1470,5\n\
         2,3,\"Aquino, P3\",1870,4\n\
         2,9,\"Lim, P9\",1700,4\n\
         2,2,\"Garcia, P2\",1290,4\n\
         2,7,\"Garcia, P7\",1240,4\n\
         6,12,\"Navarro, P12\",2260,3\n\
         6,5,\"Bautista, P5\",2160,3\n\
         6,6,\"Aquino, P6\",2130,3\n\
         6,1,\"Castillo, P1\",2000,3\n\
         6,13,\"Torres, P13\",1520,3\n\
         11,10,\"Mendoza, P10\",1570,2\n\
         11,8,\"Santos, P8\",1520,2\n\
         13,14,\"Aquino, P14\",2010,1\n\
         13,4,\"Navarro, P4\",1520,1\n"
    );
}

// ------------------------------------------------------------------ export::placement_csv

/// The fixture's `final_place_id`, with each player's name and the stage they were placed
/// in (the four of the knockout in stage 2, the rest in stage 1).
#[test]
fn placement_csv_lists_place_id_name_and_stage() {
    let rows = stage_fixture("groups-then-cross-over-final.json")
        .final_placement()
        .expect("the event is over");
    assert_eq!(
        placement_csv(&rows),
        "place,id,name,stage\n\
         1,4,\"Santos, P4\",2\n\
         2,8,\"Flores, P8\",2\n\
         3,6,\"Santos, P6\",2\n\
         3,3,\"Ramos, P3\",2\n\
         5,5,\"Castillo, P5\",1\n\
         6,13,\"Torres, P13\",1\n\
         7,9,\"Villanueva, P9\",1\n\
         8,12,\"Villanueva, P12\",1\n\
         9,1,\"Castillo, P1\",1\n\
         10,11,\"Castillo, P11\",1\n\
         11,14,\"Bautista, P14\",1\n\
         12,2,\"Bautista, P2\",1\n\
         13,10,\"Ñora, P10\",1\n\
         14,7,\"Lim, P7\",1\n"
    );
}

/// A name beginning with `=` is made formula-safe; the second places of the groups follow
/// the final's two players, group A's first (equal on everything, then group letter).
#[test]
fn placement_csv_defuses_a_formula_name() {
    let rows = mini_event().final_placement().expect("the event is over");
    assert_eq!(
        placement_csv(&rows),
        "place,id,name,stage\n\
         1,1,\"Reyes, Ana\",2\n\
         2,3,\"Diaz, Carla\",2\n\
         3,4,Lim,1\n\
         4,2,\"'=Cruz, Ben\",1\n"
    );
}

// ------------------------------------------------------------------ export::print::Details::title_line

fn details(event: &str, dates: &str, venue: &str) -> Details {
    Details {
        event: event.into(),
        dates: dates.into(),
        venue: venue.into(),
        organiser: "GGF".into(),
        chief_arbiter: "A. Reyes".into(),
    }
}

#[test]
fn title_line_joins_name_dates_and_venue_trimmed() {
    let d = details("  League night ", " 30 August 2026", "Quezon City  ");
    assert_eq!(
        d.title_line(),
        "League night · 30 August 2026 · Quezon City"
    );
}

#[test]
fn title_line_leaves_out_empty_and_blank_parts() {
    assert_eq!(
        details("League night", "", "Quezon City").title_line(),
        "League night · Quezon City"
    );
    assert_eq!(
        details("League night", "30 August 2026", "   ").title_line(),
        "League night · 30 August 2026"
    );
    assert_eq!(
        details(" ", "30 August 2026", "").title_line(),
        "30 August 2026"
    );
    assert_eq!(details("", "", " ").title_line(), "");
}

// ------------------------------------------------------------------ rating rows

fn rating(rating: f64, deviation: f64, volatility: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility,
    }
}

/// Three players of a rating period, by name: a new player up 162.25 and still provisional;
/// one down 9.50; one unchanged at a deviation of exactly 110 (not provisional). Values
/// chosen exact in binary, so that the printed decimals are known.
fn report_rows() -> Vec<(String, PlayerEvent)> {
    vec![
        (
            "PH-0001".into(),
            PlayerEvent {
                name: "Aquino <Jr.> & Co".into(),
                before: rating(1500.0, 350.0, 0.06),
                after: rating(1662.25, 290.5, 0.059_999),
                games: 3,
                score: Score::from_halves(5),
                expected: 1.25,
            },
        ),
        (
            "PH-0002".into(),
            PlayerEvent {
                name: "Bautista, Ben".into(),
                before: rating(1800.0, 80.0, 0.06),
                after: rating(1790.5, 79.75, 0.06),
                games: 2,
                score: Score::from_halves(2),
                expected: 1.5,
            },
        ),
        (
            "-7".into(),
            PlayerEvent {
                name: "O'Neil, Cruz".into(),
                before: rating(1600.0, 110.0, 0.06),
                after: rating(1600.0, 110.0, 0.06),
                games: 2,
                score: Score::from_halves(2),
                expected: 1.0,
            },
        ),
    ]
}

// ------------------------------------------------------------------ export::print::rating_report_page

/// The whole page: the details header, the title, the paragraph with the date, and one row
/// a player with `P` after a provisional rating, `+` before a change of 0 or more, and
/// every text escaped.
#[test]
fn rating_report_page_marks_provisional_ratings_and_signs_changes() {
    let d = details("League <night>", "30 August 2026", "Quezon City");
    let html = rating_report_page(&d, "2026-08-30", &report_rows());
    let body = "<p>Glicko-2, one rating period dated 2026-08-30: games played over the board \
                only. Provisional ratings (deviation above 110) are marked P.</p>\n\
                <table><tr><th>Federation id</th><th>Name</th><th>Before</th><th>After</th>\
                <th>Change</th><th>Deviation</th><th>Games</th><th>Score</th>\
                <th>Expected</th></tr>\n\
                <tr><td>PH-0001</td><td>Aquino &lt;Jr.&gt; &amp; Co</td>\
                <td class=num>1500.00</td><td class=num><b>1662.25</b> P</td>\
                <td class=num>+162.25</td><td class=num>290.50</td><td class=num>3</td>\
                <td class=num>2.5</td><td class=num>1.25</td></tr>\n\
                <tr><td>PH-0002</td><td>Bautista, Ben</td>\
                <td class=num>1800.00</td><td class=num><b>1790.50</b></td>\
                <td class=num>-9.50</td><td class=num>79.75</td><td class=num>2</td>\
                <td class=num>1</td><td class=num>1.50</td></tr>\n\
                <tr><td>-7</td><td>O&#39;Neil, Cruz</td>\
                <td class=num>1600.00</td><td class=num><b>1600.00</b></td>\
                <td class=num>+0.00</td><td class=num>110.00</td><td class=num>2</td>\
                <td class=num>1</td><td class=num>1.00</td></tr>\n\
                </table>\n";
    assert!(
        html.starts_with(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <title>League &lt;night&gt; - Rating report</title><style>"
        ),
        "{html}"
    );
    let tail = format!(
        "</style></head><body>\n<header><h1>League &lt;night&gt;</h1>\
         <p>30 August 2026 · Quezon City</p><p>Organiser: GGF · Chief arbiter: A. Reyes</p>\
         </header>\n<h2>Rating report</h2>\n{body}</body></html>\n"
    );
    assert!(html.ends_with(&tail), "{html}");
}

// ------------------------------------------------------------------ rating::list::report_csv

/// Text formula-safe and quoted where needed; the change signed only when negative; the
/// score in plain decimal.
#[test]
fn report_csv_writes_one_row_per_player() {
    assert_eq!(
        report_csv(&report_rows()),
        "federation_id,name,before,after,change,deviation,games,score,expected\n\
         PH-0001,Aquino <Jr.> & Co,1500.00,1662.25,162.25,290.50,3,2.5,1.25\n\
         PH-0002,\"Bautista, Ben\",1800.00,1790.50,-9.50,79.75,2,1,1.50\n\
         '-7,\"O'Neil, Cruz\",1600.00,1600.00,0.00,110.00,2,1,1.00\n"
    );
}

// ------------------------------------------------------------------ rating::list::list_json

/// Two rows: a rated player with a history of two events (oldest first, a half-point
/// score as 1.5 and a whole one as the integer 2), and a player of the initial list with
/// no rated game (`last_event` null, an empty history). Numbers carry the printed decimals.
#[test]
fn list_json_gives_each_row_with_its_history() {
    let date = |s: &str| Date::parse(s).expect("a date");
    let rows = vec![
        ListRow {
            rank: 1,
            key: "PH-0002".to_string(),
            standing: Standing {
                name: "Bautista, Ben".into(),
                rating: rating(1790.504, 79.746, 0.059_999_6),
                games: 12,
                events: 3,
                last_event: Some(date("2026-08-30")),
            },
        },
        ListRow {
            rank: 2,
            key: "PH-0001".to_string(),
            standing: Standing {
                name: "Aquino".into(),
                rating: rating(1662.25, 290.5, 0.059_999),
                games: 0,
                events: 0,
                last_event: None,
            },
        },
    ];
    let mut history: HashMap<String, Vec<HistoryEntry>> = HashMap::new();
    history.insert(
        "PH-0002".into(),
        vec![
            HistoryEntry {
                event: "June Open".into(),
                date: date("2026-06-01"),
                rated: PlayerEvent {
                    name: "Bautista, B.".into(),
                    before: rating(1750.0, 120.0, 0.06),
                    after: rating(1800.0, 80.0, 0.06),
                    games: 3,
                    score: Score::from_halves(3),
                    expected: 0.75,
                },
            },
            HistoryEntry {
                event: "August League".into(),
                date: date("2026-08-30"),
                rated: PlayerEvent {
                    name: "Bautista, Ben".into(),
                    before: rating(1800.0, 80.0, 0.06),
                    after: rating(1790.5, 79.75, 0.06),
                    games: 2,
                    score: Score::from_halves(4),
                    expected: 2.25,
                },
            },
        ],
    );
    let want = json!([
        {
            "rank": 1,
            "federation_id": "PH-0002",
            "name": "Bautista, Ben",
            "rating": 1790.5,
            "deviation": 79.75,
            "volatility": 0.06,
            "games": 12,
            "events": 3,
            "last_event": "2026-08-30",
            "history": [
                {"event": "June Open", "date": "2026-06-01", "before": 1750.0, "after": 1800.0,
                 "deviation_before": 120.0, "deviation_after": 80.0, "games": 3,
                 "score": 1.5, "expected": 0.75},
                {"event": "August League", "date": "2026-08-30", "before": 1800.0,
                 "after": 1790.5, "deviation_before": 80.0, "deviation_after": 79.75,
                 "games": 2, "score": 2, "expected": 2.25}
            ]
        },
        {
            "rank": 2,
            "federation_id": "PH-0001",
            "name": "Aquino",
            "rating": 1662.25,
            "deviation": 290.5,
            "volatility": 0.059999,
            "games": 0,
            "events": 0,
            "last_event": null,
            "history": []
        }
    ]);
    let got = list_json(&rows, &history);
    assert_eq!(got, want);
    // A whole score is the integer 2, not 2.0 (JSON numbers compare by kind).
    assert_eq!(got[0]["history"][1]["score"].as_u64(), Some(2), "{got}");
    assert_eq!(got[0]["history"][0]["score"].as_f64(), Some(1.5), "{got}");
}

// ------------------------------------------------------------------ record::Record::to_json_pretty

/// The shared example `clock_pause_overstep` written back: every rule setting written out
/// (the record's seven at their defaults, the desk's timers), the setup in the file's
/// order, each event with `t` first. Two-space indentation.
#[test]
fn to_json_pretty_writes_the_whole_record_indented() {
    let text = workspace_fixture("examples/clock_pause_overstep.json");
    let record = Record::from_json_str(&text).expect("a well-formed record");
    let setup_white = [
        ("a3", "PVT"),
        ("c1", "FLG"),
        ("h1", "PVT"),
        ("b2", "PVT"),
        ("i2", "1LT"),
        ("g1", "COL"),
        ("b3", "LTC"),
        ("e2", "SPY"),
        ("c3", "PVT"),
        ("c2", "SGT"),
        ("e1", "CPT"),
        ("b1", "MAJ"),
        ("i3", "PVT"),
        ("h2", "2LT"),
        ("d1", "PVT"),
        ("g3", "SPY"),
        ("i1", "G5"),
        ("d3", "G2"),
        ("g2", "G4"),
        ("f3", "G3"),
        ("f2", "G1"),
    ];
    let setup_black = [
        ("i6", "PVT"),
        ("b8", "G3"),
        ("f8", "PVT"),
        ("g6", "LTC"),
        ("e8", "PVT"),
        ("d8", "SPY"),
        ("c6", "1LT"),
        ("i8", "G2"),
        ("e6", "SPY"),
        ("d7", "FLG"),
        ("d6", "G1"),
        ("a7", "CPT"),
        ("b6", "PVT"),
        ("g7", "PVT"),
        ("c7", "PVT"),
        ("h7", "COL"),
        ("a6", "MAJ"),
        ("b7", "G4"),
        ("a8", "G5"),
        ("g8", "2LT"),
        ("h6", "SGT"),
    ];
    let side = |pieces: &[(&str, &str)]| {
        pieces
            .iter()
            .map(|(sq, code)| format!("      \"{sq}\": \"{code}\""))
            .collect::<Vec<_>>()
            .join(",\n")
    };
    let want = format!(
        r#"{{
  "format": "ggdesk-record/1",
  "first": "white",
  "rules": {{
    "move_limit_s": 120.0,
    "oversteps_to_lose": 3,
    "game_limit_s": 7200.0,
    "thirty_moves": 30,
    "perpetual_short": 5,
    "perpetual_long": 16,
    "respect_min_moves": 10
  }},
  "desk_timers": {{
    "setup_s": 300,
    "reading_s": 900,
    "grace_s": 1800
  }},
  "setup": {{
    "white": {{
{}
    }},
    "black": {{
{}
    }}
  }},
  "events": [
    {{
      "t": 100.0,
      "move": "a3-a2"
    }},
    {{
      "t": 160.0,
      "pause": true
    }},
    {{
      "t": 760.0,
      "resume": true
    }},
    {{
      "t": 821.0,
      "move": "i6-i7"
    }}
  ]
}}"#,
        side(&setup_white),
        side(&setup_black)
    );
    assert_eq!(record.to_json_pretty(), want);
}

// ------------------------------------------------------------------ stages::Bracket::{eliminated, seed_of}

fn bracket_of(event: &Event) -> &Bracket {
    event
        .reached()
        .iter()
        .find_map(|r| r.bracket.as_ref())
        .expect("a knockout stage seeded")
}

/// The fixture's bracket (its `bracket` answer): 1.1 seeds 1 and 4 are players 4 and 3,
/// 4 won; 1.2 seeds 2 and 3 are players 6 and 8, 8 won; the final 2.1, 4 beat 8.
#[test]
fn eliminated_and_seed_of_in_a_played_bracket() {
    let event = stage_fixture("groups-then-cross-over-final.json");
    let b = bracket_of(&event);
    assert_eq!(
        b.eliminated(),
        vec![(PlayerId(3), 1), (PlayerId(6), 1), (PlayerId(8), 2)]
    );
    for (player, seed) in [(4, 1), (6, 2), (8, 3), (3, 4)] {
        assert_eq!(b.seed_of(PlayerId(player)), Some(seed), "player {player}");
    }
    // Player 5 was out after the groups: no seed in the bracket.
    assert_eq!(b.seed_of(PlayerId(5)), None);
}

/// Four players by rating with a third-place match. Standard order 1, 4, 2, 3: 4 beats 1,
/// 2 beats 3; the final 2 beats 4; 3 beats 1 for third place. The third-place match's
/// players are not listed again: 1 and 3 are out in round 1, 4 in round 2.
#[test]
fn eliminated_leaves_out_the_third_place_match() {
    let event = Event::from_value(&json!({
        "format": "ggdesk-tournament/2",
        "name": "Cup",
        "players": [
            {"id": 1, "name": "A", "rating": 2000},
            {"id": 2, "name": "B", "rating": 1900},
            {"id": 3, "name": "C", "rating": 1800},
            {"id": 4, "name": "D", "rating": 1700}
        ],
        "stages": [{"name": "Cup", "system": "knockout", "match": {"best_of": 1},
                    "third_place": true, "rounds": [
            {"games": [
                {"match": "1.1", "white": 1, "black": 4, "result": "black"},
                {"match": "1.2", "white": 2, "black": 3, "result": "white"}
            ]},
            {"games": [
                {"match": "2.1", "white": 2, "black": 4, "result": "white"},
                {"match": "3rd", "white": 1, "black": 3, "result": "black"}
            ]}
        ]}]
    }))
    .expect("a played knockout");
    let b = bracket_of(&event);
    assert_eq!(
        b.eliminated(),
        vec![(PlayerId(1), 1), (PlayerId(3), 1), (PlayerId(4), 2)]
    );
    for (player, seed) in [(1, 1), (4, 4), (2, 2), (3, 3)] {
        assert_eq!(b.seed_of(PlayerId(player)), Some(seed), "player {player}");
    }
    assert_eq!(b.seed_of(PlayerId(9)), None);
}

// ------------------------------------------------------------------ tournament::number::Ratio::is_integer

#[test]
fn is_integer_is_true_for_whole_numbers_only() {
    for (num, den) in [(4, 2), (0, 5), (-9, 3), (7, 1)] {
        assert!(Ratio::new(num, den).is_integer(), "{num}/{den}");
    }
    assert!(Ratio::integer(-3).is_integer());
    assert!(Ratio::ZERO.is_integer());
    for (num, den) in [(3, 2), (-1, 3), (5, 4), (7, -2)] {
        assert!(!Ratio::new(num, den).is_integer(), "{num}/{den}");
    }
}

// ------------------------------------------------------------------ tournament::Tournament::set_name

#[test]
fn set_name_replaces_the_name_as_given() {
    let mut t = Tournament::new("Draft", Settings::swiss(5)).expect("valid settings");
    assert_eq!(t.name(), "Draft");
    t.set_name("August Open 2026");
    assert_eq!(t.name(), "August Open 2026");
    t.set_name(String::from(" Cup "));
    assert_eq!(t.name(), " Cup ");
}

// ------------------------------------------------------------------ export::print::group_tables_page

/// A playoff at a group's cut written without its `group` (the spec's `{"white", "black",
/// "result"}`) is listed once, under the group of its players: here group A drew, 1 and 4
/// played off, and group B's table has no playoff.
#[test]
fn a_playoff_without_its_group_is_listed_under_its_players_group_only() {
    let event = Event::from_value(&json!({
        "format": "ggdesk-tournament/2",
        "name": "Mini",
        "players": [
            {"id": 1, "name": "Reyes, Ana", "rating": 1800},
            {"id": 2, "name": "Cruz, Ben", "rating": 1700},
            {"id": 3, "name": "Diaz, Carla", "rating": 1600},
            {"id": 4, "name": "Lim", "rating": 1500}
        ],
        "stages": [
            {"name": "Groups", "system": "round_robin", "groups": 2, "advance": 1,
             "rounds": [{"games": [
                 {"group": "A", "table": 1, "white": 1, "black": 4, "result": "draw"},
                 {"group": "B", "table": 2, "white": 2, "black": 3, "result": "black"}
             ]}],
             "playoffs": [{"white": 1, "black": 4, "result": "white"}]},
            {"name": "Final", "system": "knockout", "match": {"best_of": 1}, "rounds": []}
        ]
    }))
    .expect("a valid event");
    let html = ggdesk_core::export::print::group_tables_page(
        &details("Mini", "", ""),
        &event,
        ggdesk_core::tournament::StageNo(1),
    )
    .expect("a round-robin stage");
    assert_eq!(html.matches("Playoff at the cut").count(), 1, "{html}");
    let a = html.find("<h3>Group A</h3>").expect("group A");
    let b = html.find("<h3>Group B</h3>").expect("group B");
    let playoff = html.find("Playoff at the cut").expect("the playoff");
    assert!(a < playoff && playoff < b, "{html}");
    assert!(
        html.contains("<p>Playoff at the cut: Reyes, Ana – Lim: 1-0</p>"),
        "{html}"
    );
}
