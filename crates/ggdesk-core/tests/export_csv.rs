//! CSV out (standings, cross-table, pairing list: RFC 4180 quoting, formula safety) and in
//! (the players list).

use ggdesk_core::export::{
    ImportedPlayer, RowError, crosstable_cell, crosstable_csv, defuse, import_players_csv,
    pairing_csv, standings_csv,
};
use ggdesk_core::pairing::pair_next_round;
use ggdesk_core::rules::Side;
use ggdesk_core::tournament::{Entry, GameOutcome, PlayerId, Tournament, standings};

/// Reads CSV text back into records, as a spreadsheet would.
fn read(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.expect("valid CSV").iter().map(str::to_string).collect())
        .collect()
}

const RISKY: &str = r#"{
  "format": "ggdesk-tournament/1", "name": "risky",
  "settings": {"system": "swiss", "rounds": 3, "tiebreaks": ["buchholz", "sonneborn_berger"]},
  "players": [
    {"id": 1, "name": "=HYPERLINK(\"http://x\",\"y\")", "rating": 1800},
    {"id": 2, "name": "Cruz, Ben \"The Wall\"", "rating": 1700},
    {"id": 3, "name": "+63 917", "rating": 1600},
    {"id": 4, "name": "-minus", "rating": 1500},
    {"id": 5, "name": "@SUM(A1)", "rating": 1400},
    {"id": 6, "name": "two\nlines", "rating": 1300},
    {"id": 7, "name": "plain=ok", "rating": 1200}
  ],
  "rounds": [
    {"games": [{"white": 1, "black": 2, "result": "white"},
               {"white": 3, "black": 4, "result": "draw"},
               {"white": 5, "black": 6, "result": "black_forfeit"}],
     "byes": [7]},
    {"games": [{"white": 2, "black": 3, "result": "double_forfeit"},
               {"white": 6, "black": 1, "result": "pending"},
               {"white": 7, "black": 4, "result": "white_forfeit"}],
     "absent": [5]}
  ],
  "penalties": [{"player": 2, "points": 1.5, "reason": "delay"}]
}"#;

#[test]
fn formula_characters_get_a_quote_in_front() {
    assert_eq!(defuse("=1+1"), "'=1+1");
    assert_eq!(defuse("+63"), "'+63");
    assert_eq!(defuse("-x"), "'-x");
    assert_eq!(defuse("@x"), "'@x");
    assert_eq!(defuse("a=b"), "a=b");
    assert_eq!(defuse(""), "");
}

#[test]
fn standings_csv_has_the_spec_header_and_safe_quoted_names() {
    let t = Tournament::from_json(RISKY).expect("valid");
    let text = standings_csv(&standings(&t, 2));
    assert_eq!(
        text.lines().next(),
        Some("rank,id,name,rating,score,buchholz,sonneborn_berger")
    );
    assert!(
        text.contains(r#""'=HYPERLINK(""http://x"",""y"")""#),
        "{text}"
    );
    assert!(text.contains(r#""Cruz, Ben ""The Wall""""#), "{text}");
    let rows = read(&text);
    let name_of = |id: &str| {
        rows.iter()
            .find(|r| r[1] == id)
            .map(|r| r[2].clone())
            .expect("row")
    };
    assert_eq!(name_of("1"), "'=HYPERLINK(\"http://x\",\"y\")");
    assert_eq!(name_of("2"), "Cruz, Ben \"The Wall\"");
    assert_eq!(name_of("3"), "'+63 917");
    assert_eq!(name_of("4"), "'-minus");
    assert_eq!(name_of("5"), "'@SUM(A1)");
    assert_eq!(name_of("6"), "two\nlines");
    assert_eq!(name_of("7"), "plain=ok");
    // Player 2: 0 + 0 (double forfeit) - 1.5 penalty = -1.5: a number, written as is.
    let row2 = rows.iter().find(|r| r[1] == "2").expect("row");
    assert_eq!(row2[4], "-1.5");
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r.len() == 7));
}

#[test]
fn crosstable_has_a_cell_per_round_for_every_outcome() {
    let t = Tournament::from_json(RISKY).expect("valid");
    let rows = read(&crosstable_csv(&t));
    assert_eq!(
        rows[0],
        ["rank", "id", "name", "rating", "score", "R1", "R2"]
    );
    let cells = |id: &str| {
        rows.iter()
            .find(|r| r[1] == id)
            .map(|r| r[5..].to_vec())
            .expect("row")
    };
    assert_eq!(cells("1"), ["W2", "?6"]);
    assert_eq!(cells("2"), ["L1", "L3f"]);
    assert_eq!(cells("3"), ["D4", "L2f"]);
    assert_eq!(cells("4"), ["D3", "L7f"]);
    assert_eq!(cells("5"), ["L6f", "ABS"]);
    assert_eq!(cells("6"), ["W5f", "?1"]);
    assert_eq!(cells("7"), ["BYE", "W4f"]);
    // No cell a spreadsheet would read as a number or a formula.
    for row in &rows[1..] {
        for cell in &row[5..] {
            assert!(!cell.starts_with(['+', '-', '=', '@']), "{cell}");
        }
    }
    assert_eq!(
        crosstable_cell(&Entry::Game {
            opponent: PlayerId(12),
            colour: Side::Black,
            outcome: GameOutcome::Win
        }),
        "W12"
    );
}

#[test]
fn the_pairing_list_names_both_players_and_the_bye() {
    let mut t = Tournament::from_json(RISKY).expect("valid");
    t.set_result(2, 1, ggdesk_core::tournament::GameResult::Draw)
        .expect("exists");
    let p = pair_next_round(&t, &[]).expect("pairs");
    let rows = read(&pairing_csv(&t, &p));
    assert_eq!(rows[0], ["table", "white_id", "white", "black_id", "black"]);
    assert_eq!(rows.len(), 1 + p.games.len() + p.byes.len());
    assert_eq!(rows[1][0], "1");
    let bye = rows.last().expect("bye row");
    assert_eq!(bye[0], "");
    assert_eq!(bye[4], "BYE");
    for row in &rows[1..] {
        if let Ok(id) = row[1].parse::<u32>() {
            let name = &t.player(PlayerId(id)).expect("known").name;
            assert_eq!(&row[2], &defuse(name));
        }
    }
}

fn imported(
    line: u64,
    name: &str,
    fed: Option<&str>,
    club: Option<&str>,
    rating: i64,
) -> ImportedPlayer {
    ImportedPlayer {
        line,
        name: name.into(),
        federation_id: fed.map(Into::into),
        club: club.map(Into::into),
        rating,
        initial: None,
    }
}

#[test]
fn a_good_players_list_is_read_whole() {
    let text = "\u{feff}Name,Federation_ID,club,rating,email\n\
                \"Reyes, Ana\",GGF-0012,QC,1710,ana@example.org\n\
                Cruz Ben,,,,\n\
                \n\
                Lim Cy,GGF-3,\"Manila \"\"Generals\"\"\", 1500 ,x\n";
    let players = import_players_csv(text).expect("all good");
    assert_eq!(
        players,
        vec![
            imported(2, "Reyes, Ana", Some("GGF-0012"), Some("QC"), 1710),
            imported(3, "Cruz Ben", None, None, 0),
            imported(
                5,
                "Lim Cy",
                Some("GGF-3"),
                Some("Manila \"Generals\""),
                1500
            ),
        ]
    );
    let reordered = "rating,club,name,federation_id\n1200,,Sy Di,\n";
    assert_eq!(
        import_players_csv(reordered).expect("good"),
        vec![imported(2, "Sy Di", None, None, 1200)]
    );
}

#[test]
fn every_bad_row_is_reported_and_nothing_is_imported() {
    let text = "name,federation_id,club,rating\n\
                Good One,F1,,1500\n\
                ,F2,,1400\n\
                \"Multi\nLine\",F3,,12x\n\
                Short,F4\n\
                Again,F1,,1300\n\
                Fine,,,\n";
    let e = import_players_csv(text).expect_err("bad rows");
    assert_eq!(
        e.rows,
        vec![
            RowError {
                line: 3,
                reason: "the name is empty".into()
            },
            RowError {
                line: 4,
                reason: "the rating \"12x\" is not a whole number".into()
            },
            RowError {
                line: 6,
                reason: "2 fields, the header needs at least 4".into()
            },
            RowError {
                line: 7,
                reason: "federation id \"F1\" is already on line 2".into()
            },
        ]
    );
    assert!(
        e.to_string()
            .starts_with("line 3: the name is empty; line 4: ")
    );
}

#[test]
fn a_players_list_needs_its_header() {
    let e = import_players_csv("").expect_err("empty");
    assert_eq!(e.rows[0].line, 1);
    let e = import_players_csv("name,rating\nA,1\n").expect_err("columns missing");
    assert_eq!(
        e.rows,
        vec![RowError {
            line: 1,
            reason: "the header lacks the column(s) federation_id, club".into()
        }]
    );
}

#[test]
fn a_players_list_may_carry_initial_ratings() {
    use ggdesk_core::rating::Rating;
    let text = "name,federation_id,club,rating,deviation,volatility\n\
                \"Reyes, Ana\",GGF-1,QC,1710.6,80,0.05\n\
                Cruz Ben,GGF-2,,1500,,\n";
    let players = import_players_csv(text).expect("all good");
    assert_eq!(
        players[0].initial,
        Some(Rating::checked(1710.6, 80.0, 0.05).expect("valid"))
    );
    assert_eq!(players[0].rating, 1711);
    assert_eq!(players[1].initial, None);
    assert_eq!(players[1].rating, 1500);

    let bad = "name,federation_id,club,rating,deviation,volatility\n\
               Ana,GGF-1,,1700,80,\n\
               Ben,,,1600,90,0.06\n\
               Cy,GGF-3,,1600,400,0.06\n\
               Dee,GGF-4,,strong,90,0.06\n";
    let e = import_players_csv(bad).expect_err("bad rows");
    let reasons: Vec<String> = e.rows.iter().map(ToString::to_string).collect();
    assert_eq!(
        reasons,
        [
            "line 2: an initial rating needs both a deviation and a volatility",
            "line 3: an initial rating needs a federation id",
            "line 4: initial rating: deviation 400 is not above 0 and at most 350",
            "line 5: initial rating: the rating \"strong\" is not a number",
        ]
    );
}
