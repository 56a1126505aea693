//! Staged files that the mutation runs showed untested (see "Mutation testing" in
//! ARCHITECTURE.md): refusals of spec/stages.md's settings rules, each naming the place
//! and the exact fault; a stage not complete while a game of its last round is pending.

use ggdesk_core::tournament::stages::{Event, SettingsFault, StageFault, StepRefusal};
use ggdesk_core::tournament::{FileFault, RoundNo, StageNo, TournamentFileError};
use serde_json::{Value, json};

/// A staged file of eight players with the given stages (no rounds played).
fn file(stages: Value) -> String {
    let players: Vec<Value> = (1..=8)
        .map(|id| json!({"id": id, "name": format!("P{id}"), "rating": 2000 - id}))
        .collect();
    json!({
        "format": "ggdesk-tournament/2",
        "name": "Staged",
        "players": players,
        "stages": stages,
    })
    .to_string()
}

fn refused(stages: Value) -> TournamentFileError {
    match Event::from_json(&file(stages)) {
        Ok(_) => panic!("the file should be refused"),
        Err(e) => e,
    }
}

fn knockout(seeding: &str) -> Value {
    json!({"name": "Final", "system": "knockout", "seeding": seeding, "match": {"best_of": 1}})
}

/// Spec: `groups` is for a `round_robin` only; a knockout (or a Swiss) in groups is
/// refused, at the stage's `groups`.
#[test]
fn groups_outside_a_round_robin_are_refused_at_the_stage() {
    for groups in [2, 3] {
        let mut ko = knockout("standard");
        ko["groups"] = json!(groups);
        let e = refused(json!([
            {"name": "Qualifying", "system": "round_robin", "advance": 4},
            ko,
        ]));
        assert_eq!(e.at, "stages[1].groups", "groups {groups}: {e}");
        assert!(
            matches!(
                e.fault,
                FileFault::Stage(StageFault::Settings(
                    SettingsFault::GroupsOutsideRoundRobin(StageNo(2))
                ))
            ),
            "groups {groups}: {e}"
        );
    }
}

/// Spec: a `cross_over` knockout needs an even number of groups G before it and
/// `advance` 2. One group (a plain round robin) or three groups are refused, naming the
/// knockout's stage (2); two groups are accepted.
#[test]
fn cross_over_seeding_needs_pairs_of_groups() {
    for groups in [1, 3] {
        let e = refused(json!([
            {"name": "Groups", "system": "round_robin", "groups": groups, "advance": 2},
            knockout("cross_over"),
        ]));
        assert!(
            matches!(
                e.fault,
                FileFault::Stage(StageFault::Settings(
                    SettingsFault::CrossOverNeedsGroupPairs(StageNo(2))
                ))
            ),
            "groups {groups}: {e}"
        );
    }
    let e = refused(json!([
        {"name": "Swiss", "system": "swiss", "round_count": 3, "advance": 2},
        knockout("cross_over"),
    ]));
    assert!(
        matches!(
            e.fault,
            FileFault::Stage(StageFault::Settings(
                SettingsFault::CrossOverNeedsGroupPairs(StageNo(2))
            ))
        ),
        "after a Swiss: {e}"
    );
    Event::from_json(&file(json!([
        {"name": "Groups", "system": "round_robin", "groups": 2, "advance": 2},
        knockout("cross_over"),
    ])))
    .expect("two groups of which two advance fit a cross-over");
}

/// A stage whose every round is there but whose last game has no result is not complete:
/// nothing is seeded, and `pair` asks for that round's result (the Swiss then final example
/// with its last Swiss game pending and no final played yet).
#[test]
fn a_stage_with_a_pending_game_in_its_last_round_is_not_complete() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/stages/swiss-then-final-twice-to-beat.json");
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture")).expect("JSON");
    let last = v["stages"][0]["rounds"][4]["games"]
        .as_array_mut()
        .and_then(|g| g.last_mut())
        .expect("a game of round 5");
    last["result"] = json!("pending");
    v["stages"][1]["rounds"] = json!([]);
    let event = Event::from_value(&v).expect("a valid event");
    assert_eq!(event.reached().len(), 1, "the final is not seeded");
    assert!(!event.current().complete);
    assert_eq!(
        event.next_step(),
        Err(StepRefusal::RoundNotComplete {
            stage: StageNo(1),
            round: RoundNo(5),
        })
    );
}
