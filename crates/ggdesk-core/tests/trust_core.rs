//! The core's part of issue 19: a record that has ended takes no further event (the store,
//! `feed` and a desk all check events through `LoggedGame::check_event`, and `replay`
//! refuses an event after `end`), and every CSV the desk writes defuses a cell that a
//! spreadsheet would run as a formula, a leading tab or carriage return included.

use ggdesk_core::export::audit::{AuditLine, audit_csv};
use ggdesk_core::export::{crosstable_csv, defuse, pairing_csv, standings_csv};
use ggdesk_core::game::{AnyEvent, GameMode, LogEntry, LogEntryKind, LoggedGame};
use ggdesk_core::pairing::pair_next_round;
use ggdesk_core::rules::{BySide, Event, RuleSettings, Side, SideSetup};
use ggdesk_core::sim::random_setups;
use ggdesk_core::tournament::{Tournament, standings};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value};

fn setups(seed: u64) -> BySide<Option<SideSetup>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let both = random_setups(&mut |n| if n == 0 { 0 } else { rng.random_range(0..n) });
    BySide::new(Some(both.white), Some(both.black))
}

fn logged<'a>(
    mode: GameMode,
    setup: &'a BySide<Option<SideSetup>>,
    log: &'a [LogEntry],
    sheets: &'a BySide<Option<ggdesk_core::game::SheetRow>>,
    extra: &'a Map<String, Value>,
) -> LoggedGame<'a> {
    LoggedGame {
        mode,
        first: Side::White,
        ratings: None,
        rules: RuleSettings::default(),
        setup,
        log,
        sheets,
        extra,
    }
}

fn entry(seq: u32, t: f64, event: AnyEvent) -> LogEntry {
    LogEntry {
        seq,
        t,
        kind: event.into(),
    }
}

/// `feed` acknowledged a pause after `{"end": true}` and the stored game then failed
/// `replay` ("end" must be the last event): the event is refused before it is stored, for
/// either kind of game, and an undo of the end lets the game go on.
#[test]
fn nothing_follows_an_end_in_force() {
    let extra = Map::new();
    let sheets = BySide::default();
    for mode in GameMode::ALL {
        let setup = match mode {
            GameMode::Arbitrated => setups(7),
            GameMode::Physical => BySide::default(),
        };
        let mut log = vec![
            entry(0, 10.0, AnyEvent::pause(mode)),
            entry(1, 20.0, AnyEvent::resume(mode)),
            entry(2, 21.0, AnyEvent::end(mode)),
        ];
        let game = logged(mode, &setup, &log, &sheets, &extra);
        for next in [AnyEvent::pause(mode), AnyEvent::end(mode)] {
            let refused = game.check_event(22.0, &next);
            assert_eq!(
                refused.err().as_deref(),
                Some("the record has ended (event 2 is \"end\"): nothing may follow it"),
                "{mode:?}: {next:?} after the end"
            );
        }
        // The end undone: the game goes on.
        log.push(LogEntry {
            seq: 3,
            t: 21.5,
            kind: LogEntryKind::Undo { seq: 2 },
        });
        let game = logged(mode, &setup, &log, &sheets, &extra);
        assert!(
            game.check_event(22.0, &AnyEvent::pause(mode)).is_ok(),
            "{mode:?}: a pause once the end is undone"
        );
    }
    // Before the end, the same pause was accepted: the end alone refuses it.
    let setup = setups(7);
    let log = vec![entry(0, 10.0, AnyEvent::Game(Event::Pause))];
    let game = logged(GameMode::Arbitrated, &setup, &log, &sheets, &extra);
    assert!(
        game.check_event(11.0, &AnyEvent::Game(Event::Resume))
            .is_ok()
    );
}

const NAMES: [&str; 8] = [
    "\t=cmd|' /C calc'!A0",
    "\r=1+1",
    "=SUM(A1)",
    "+63 917",
    "-minus",
    "@SUM(A1)",
    "Tab\tinside",
    "plain",
];

fn tournament() -> Tournament {
    let players: Vec<String> = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| {
            format!(
                r#"{{"id": {}, "name": {}, "rating": {}}}"#,
                i + 1,
                serde_json::to_string(n).expect("name"),
                2000 - i
            )
        })
        .collect();
    Tournament::from_json(&format!(
        r#"{{"format": "ggdesk-tournament/1", "name": "risky",
             "settings": {{"system": "swiss", "rounds": 3}},
             "players": [{}],
             "rounds": [{{"games": [{{"white": 1, "black": 2, "result": "white"}},
                                    {{"white": 3, "black": 4, "result": "draw"}},
                                    {{"white": 5, "black": 6, "result": "black"}},
                                    {{"white": 7, "black": 8, "result": "white"}}]}}]}}"#,
        players.join(",")
    ))
    .expect("valid")
}

/// The cells of CSV text as a spreadsheet reads them.
fn cells(text: &str) -> Vec<String> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .flat_map(|r| {
            r.expect("valid CSV")
                .iter()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// No cell of `text` begins with what a spreadsheet runs as a formula, and each risky name
/// is there, defused.
fn assert_safe(what: &str, text: &str) {
    let cells = cells(text);
    for cell in &cells {
        let formula = cell.starts_with(['=', '+', '@', '\t', '\r'])
            || (cell.starts_with('-') && cell.parse::<f64>().is_err());
        assert!(!formula, "{what}: the cell {cell:?} would run as a formula");
    }
    for name in &NAMES[..6] {
        let defused = format!("'{name}");
        assert!(
            cells.contains(&defused),
            "{what}: {name:?} is written as {defused:?}"
        );
    }
}

#[test]
fn a_leading_tab_or_carriage_return_is_defused_like_a_formula() {
    assert_eq!(defuse("\t=1+1"), "'\t=1+1");
    assert_eq!(defuse("\r=1+1"), "'\r=1+1");
    assert_eq!(defuse("\tplain"), "'\tplain");
    assert_eq!(defuse("Tab\tinside"), "Tab\tinside");
    assert_eq!(defuse("plain"), "plain");
}

#[test]
fn every_csv_the_desk_writes_defuses_formula_cells() {
    let t = tournament();
    assert_safe("standings", &standings_csv(&standings(&t, 1)));
    assert_safe("cross-table", &crosstable_csv(&t));
    let pairing = pair_next_round(&t, &[]).expect("round 2 pairs");
    assert_safe("pairings", &pairing_csv(&t, &pairing));
    let lines: Vec<AuditLine> = NAMES
        .iter()
        .map(|n| AuditLine {
            at: "2026-12-12 14:03:07".into(),
            who: (*n).into(),
            what: (*n).into(),
            tournament: (*n).into(),
            round: Some(1),
            table: Some(2),
            game: Some(3),
            reason: (*n).into(),
            details: (*n).into(),
        })
        .collect();
    assert_safe("audit log", &audit_csv(&lines));
}
