//! Staged files that the mutation runs showed untested (see "Mutation testing" in
//! ARCHITECTURE.md): refusals of spec/stages.md's settings rules, each naming the place
//! and the exact fault.

use ggdesk_core::tournament::stages::{Event, SettingsFault, StageFault};
use ggdesk_core::tournament::{FileFault, StageNo, TournamentFileError};
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
