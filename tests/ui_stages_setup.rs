//! Setting up an event in stages at the desk (the Tournaments page) and the Rounds page of
//! an event in stages, through their widgets (egui_kittest): a preset chosen, edited and
//! saved; a stage list with a fault refused beside its field; a stage with a round paired
//! read-only while the next stays editable; a complete stage's cut and the next stage
//! seeded on the director's word; a tie at the cut with its playoff games; players out of
//! the event shown as out, not as "Not paired".

mod common;

use common::{START_MS, all_text, assert_shows, click, has_text, store, type_into};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ggdesk::store::{Actor, RoundPlace, RoundState, Store, TournamentId};
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::stages::{MatchFormat, Seeding, StageFormat, StageSpec};
use ggdesk_core::tournament::{GameResult, PlayerId, RoundNo, StageNo, TieBreak};
use serde_json::Value;
use std::cell::Cell;
use std::path::PathBuf;
use std::rc::Rc;

fn fixture(name: &str) -> Value {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/stages/{name}"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON")
}

/// A desk showing `page` on a fresh store.
fn fresh_desk(page: Page) -> Harness<'static, DeskApp> {
    let clock = Rc::new(Cell::new(START_MS));
    common::desk(Store::open_in_memory().expect("store"), page, None, &clock)
}

/// A desk showing `page` on a store holding `file`, imported.
fn desk_with(
    file: &Value,
    page: Page,
) -> (tempfile::TempDir, Harness<'static, DeskApp>, TournamentId) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Store::open(&dir.path().join("s.sqlite3")).expect("store");
    let tid = s
        .import_tournament(file, &Actor::director())
        .expect("import");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = common::desk(s, page, Some(tid), &clock);
    h.run();
    (dir, h, tid)
}

fn only_tournament(h: &Harness<'_, DeskApp>) -> Option<TournamentId> {
    let list = store(h).tournaments().expect("tournaments");
    assert!(list.len() <= 1, "{} tournaments", list.len());
    list.first().map(|t| t.id)
}

#[test]
fn a_preset_chosen_edited_and_saved_gives_exactly_those_stages() {
    let mut h = fresh_desk(Page::Tournaments);
    type_into(&mut h, "Tournament name:", "August Championship");
    click(&mut h, "In stages");
    click(&mut h, "Groups then cross-over knockout");
    // Three rounds in the groups, no "wins" tie-break, best-of-3 matches without a
    // third-place match.
    type_into(&mut h, "Stage 1 rounds", "3");
    click(&mut h, "Stage 1: remove wins");
    click(&mut h, "Stage 2: best of");
    click(&mut h, "Stage 2: third-place match");
    assert!(
        has_text(
            &h,
            "The event: 1. Groups: round robin in 4 groups, 3 rounds, top 2 go on  >  \
             2. Knockout, best of 3, cross-over"
        ),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Create tournament");
    let tid = only_tournament(&h).expect("created");
    let expected = vec![
        StageSpec {
            name: "Groups".into(),
            format: StageFormat::RoundRobin {
                groups: 4,
                rounds: Some(3),
            },
            tiebreaks: vec![TieBreak::DirectEncounter, TieBreak::FewestForfeitWins],
            advance: Some(2),
        },
        StageSpec {
            name: "Knockout".into(),
            format: StageFormat::Knockout {
                series: MatchFormat::BestOf(3),
                seeding: Seeding::CrossOver,
                third_place: false,
            },
            tiebreaks: Vec::new(),
            advance: None,
        },
    ];
    assert_eq!(
        store(&h).event(tid).expect("event").stage_specs(),
        Some(expected.as_slice())
    );
    let setup = store(&h).tournament_setup(tid).expect("setup");
    assert_eq!(setup.name, "August Championship");
}

#[test]
fn a_stage_list_with_a_fault_shows_it_beside_its_field_and_saves_nothing() {
    let mut h = fresh_desk(Page::Tournaments);
    type_into(&mut h, "Tournament name:", "Faulty");
    click(&mut h, "In stages");
    click(&mut h, "Groups then cross-over knockout");
    // A Swiss has no groups: the knockout's cross-over seeding cannot follow it.
    click(&mut h, "Stage 1: Swiss");
    let fault = "Cross-over seeding needs a stage before it with an even number of groups and \
                 advance 2";
    let texts = all_text(&h);
    assert_shows(&texts, fault);
    // Beside the seeding it is about: on the same line as stage 2's seeding choice.
    let at = h.get_by_label(fault).rect();
    let seeding = h.get_by_label("Stage 2: cross-over seeding").rect();
    // On the seeding's line (or the line its words wrap onto).
    assert!(
        at.top() >= seeding.top() - 4.0 && at.top() <= seeding.bottom() + 24.0,
        "the fault at {at:?}, the seeding at {seeding:?}"
    );
    click(&mut h, "Create tournament");
    assert_eq!(only_tournament(&h), None, "nothing saved");
    assert!(
        has_text(
            &h,
            "Stage 2: cross-over seeding needs a stage before it with an even number of groups"
        ),
        "{:?}",
        all_text(&h)
    );
    // A field's own error beside it too: no number of players going on.
    click(&mut h, "Stage 1: round robin");
    type_into(&mut h, "Stage 1 players who go on", "x");
    assert_shows(&all_text(&h), "Not a whole number (\"2x\")");
    click(&mut h, "Create tournament");
    assert_eq!(only_tournament(&h), None, "nothing saved");
}

#[test]
fn a_stage_with_a_round_paired_is_fixed_and_the_next_stays_editable() {
    let file = fixture("knockout-in-progress.json");
    let (_dir, mut h, tid) = desk_with(&file, Page::Tournaments);
    let before = store(&h)
        .event(tid)
        .expect("event")
        .stage_specs()
        .expect("staged")
        .to_vec();
    assert!(
        has_text(&h, "fixed: a round of it is paired"),
        "{:?}",
        all_text(&h)
    );
    assert!(
        h.query_by_label("Stage 1 name").is_none(),
        "stage 1 is read-only"
    );
    assert!(
        h.query_by_label("Stage 2 name").is_some(),
        "stage 2 is editable"
    );
    assert!(
        h.query_by_label("Remove stage 1").is_none(),
        "a fixed stage cannot be removed"
    );
    click(&mut h, "Stage 2: third-place match");
    click(&mut h, "Save settings");
    let after = store(&h)
        .event(tid)
        .expect("event")
        .stage_specs()
        .expect("staged")
        .to_vec();
    assert_eq!(after[0], before[0]);
    let mut expected = before[1].clone();
    expected.format = StageFormat::Knockout {
        series: MatchFormat::BestOf(1),
        seeding: Seeding::CrossOver,
        third_place: true,
    };
    assert_eq!(after[1], expected);
}

/// The rounds-and-final fixture with only its first stage played: stage 1 complete, its cut
/// clear, stage 2 seeded and not begun.
fn first_stage_played() -> Value {
    let mut file = fixture("rr-rr-best-of-3-final.json");
    let stages = file["stages"].as_array_mut().expect("stages");
    for s in stages.iter_mut().skip(1) {
        s["rounds"] = Value::Array(Vec::new());
    }
    file
}

#[test]
fn a_complete_stage_shows_its_cut_and_seeding_the_next_drafts_its_first_round() {
    let (_dir, mut h, tid) = desk_with(&first_stage_played(), Page::Rounds);
    let texts = all_text(&h);
    assert_shows(&texts, "Stage 1 · Qualifying · round 9 of 9 (round 9)");
    assert_shows(&texts, "The cut of stage 1 (Qualifying): the top 4 go on");
    // Ramos 14 points, Bautista and Ñora 11 (equal on everything: by seed), Lim 9.
    assert_shows(
        &texts,
        "Going on to stage 2 (Final round), by seed: 1. 1 Ramos, P1 (place 1) · \
         2. 7 Bautista, P7 (place 2) · 3. 8 Ñora, P8 (place 3) · 4. 3 Lim, P3 (place 4)",
    );
    // No "of N" rounds for the whole event.
    assert!(!texts.iter().any(|t| t.starts_with("of ")), "{texts:?}");
    click(&mut h, "Seed stage 2 (Final round)");
    let event = store(&h).event(tid).expect("event");
    let rounds = event.rounds();
    let last = rounds.last().expect("a round");
    assert_eq!(last.number, RoundNo(10));
    assert_eq!(last.state, RoundState::Draft);
    assert_eq!(
        event.place(last.number).expect("place"),
        RoundPlace::Round {
            stage: StageNo(2),
            round: RoundNo(1)
        }
    );
    let view = store(&h)
        .round_view(tid, RoundNo(10))
        .expect("view")
        .expect("round");
    let mut pairs: Vec<[u32; 2]> = view
        .boards
        .iter()
        .map(|b| {
            let mut p = [b.white.no.0, b.black.no.0];
            p.sort();
            p
        })
        .collect();
    pairs.sort();
    assert_eq!(pairs, vec![[1, 3], [7, 8]]);
    let texts = all_text(&h);
    assert_shows(&texts, "Stage 2 · Final round · round 1 of 3 (round 10)");
    // A stage starts from 0 points: Ramos's 14 of stage 1 are not his points here.
    assert!(!texts.iter().any(|t| t == "14"), "{texts:?}");
    assert!(texts.iter().filter(|t| *t == "0").count() >= 4, "{texts:?}");
    // Published: the six players not through the cut are out, not "Not paired".
    click(&mut h, "Publish round 10");
    let texts = all_text(&h);
    assert!(!texts.iter().any(|t| t.contains("Not paired")), "{texts:?}");
    assert!(
        texts.iter().any(|t| t.starts_with("Out of the event: ")
            && t.contains("2 Villanueva, P2 (out after stage 1 (Qualifying))")
            && t.contains("6 Villanueva, P6 (out after stage 1 (Qualifying))")),
        "{texts:?}"
    );
}

#[test]
fn a_tie_at_the_cut_shows_its_playoff_games_pending_then_in_play() {
    let (_dir, mut h, tid) = desk_with(&fixture("playoff-at-the-cut.json"), Page::Rounds);
    let texts = all_text(&h);
    // Lim, P11 goes on; four players level at 4 points share places 2 to 5 for three
    // places: a round robin among them, the first games by seed.
    assert_shows(
        &texts,
        "Tie at the cut: 3 Aquino, P3, 9 Lim, P9, 2 Garcia, P2, 7 Garcia, P7 are level on \
         score and every tie-break and play off for 3 places",
    );
    assert_shows(&texts, "Through: 11 Lim, P11");
    assert!(
        has_text(
            &h,
            "Next: start the playoff games at stage 1's cut (Ctrl+P)"
        ),
        "{texts:?}"
    );
    assert_shows(
        &texts,
        "Playoff game: 3 Aquino, P3 – 7 Garcia, P7 (pending: not started)",
    );
    assert_shows(
        &texts,
        "Playoff game: 9 Lim, P9 – 2 Garcia, P2 (pending: not started)",
    );
    click(&mut h, "Start the playoff games at stage 1's cut");
    let event = store(&h).event(tid).expect("event");
    let rounds = event.rounds();
    let last = rounds.last().expect("the playoff round");
    assert_eq!(last.state, RoundState::Published);
    assert!(event.place(last.number).expect("place").is_playoff());
    let texts = all_text(&h);
    assert_shows(
        &texts,
        &format!(
            "Stage 1 · Swiss · playoff games at the cut (round {})",
            last.number
        ),
    );
    assert_shows(
        &texts,
        "Playoff game: 3 Aquino, P3 – 7 Garcia, P7 (pending)",
    );
    assert!(
        texts.iter().any(|t| t == "Not in the playoff:"),
        "{texts:?}"
    );
    // One result in: played, the other still pending.
    let n = last.number;
    let view = store(&h).round_view(tid, n).expect("view").expect("round");
    let board = view
        .boards
        .iter()
        .find(|b| b.white.no == PlayerId(3))
        .expect("Aquino's game")
        .board;
    h.state_mut()
        .store_mut()
        .expect("store")
        .set_result(tid, n, board, GameResult::WhiteWins, "", &Actor::director())
        .expect("result");
    h.run();
    h.run();
    let texts = all_text(&h);
    assert_shows(
        &texts,
        "Playoff game: 3 Aquino, P3 – 7 Garcia, P7 (played: White wins)",
    );
    assert_shows(&texts, "Playoff game: 9 Lim, P9 – 2 Garcia, P2 (pending)");
}

#[test]
fn knocked_out_players_are_out_not_not_paired() {
    let (_dir, mut h, tid) = desk_with(&fixture("knockout-in-progress.json"), Page::Rounds);
    assert!(
        has_text(
            &h,
            "The cut of stage 1 (Groups): the top 2 of each group go on"
        ),
        "{:?}",
        all_text(&h)
    );
    // The knockout's first games start on the director's word (the Bracket page's action).
    click(&mut h, "Seed stage 2 (Knockout)");
    let event = store(&h).event(tid).expect("event");
    let rounds = event.rounds();
    let semis = rounds.last().expect("the semi-finals");
    assert_eq!(semis.state, RoundState::Published);
    let n = semis.number;
    let texts = all_text(&h);
    assert_shows(
        &texts,
        &format!("Stage 2 · Knockout · Semi-finals (round {n})"),
    );
    assert!(!texts.iter().any(|t| t.contains("Not paired")), "{texts:?}");
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("Out of the event: ")
                && t.contains("(out after stage 1 (Groups))")),
        "{texts:?}"
    );
    // White wins both semi-finals: the final starts, and the losers are out after the
    // semi-finals.
    let view = store(&h).round_view(tid, n).expect("view").expect("round");
    let losers: Vec<String> = view
        .boards
        .iter()
        .map(|b| {
            format!(
                "{} {} (out after the semi-finals)",
                b.black.no, b.black.name
            )
        })
        .collect();
    for b in &view.boards {
        h.state_mut()
            .store_mut()
            .expect("store")
            .set_result(
                tid,
                n,
                b.board,
                GameResult::WhiteWins,
                "",
                &Actor::director(),
            )
            .expect("result");
    }
    h.run();
    h.run();
    click(&mut h, "Start the next games of the knockout");
    let texts = all_text(&h);
    assert_shows(
        &texts,
        &format!("Stage 2 · Knockout · Final (round {})", n.0 + 1),
    );
    assert!(!texts.iter().any(|t| t.contains("Not paired")), "{texts:?}");
    let out = texts
        .iter()
        .find(|t| t.starts_with("Out of the event: "))
        .expect("the players out");
    for l in &losers {
        assert!(out.contains(l.as_str()), "{l} in {out}");
    }
}
