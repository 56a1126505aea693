//! Staged files that the mutation runs showed untested (see "Mutation testing" in
//! ARCHITECTURE.md): refusals of spec/stages.md's settings rules, each naming the place
//! and the exact fault; a stage not complete while a game of its last round is pending.

use ggdesk_core::stages::{
    Event, EventFault, EventFileError, MatchId, NextStep, SettingsFault, StageBoard, StageFault,
    StepRefusal,
};
use ggdesk_core::tournament::{GameResult, PlayerId, RoundNo, StageNo};
use serde_json::{Value, json};
use std::collections::BTreeMap;

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

fn refused(stages: Value) -> EventFileError {
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
                EventFault::Stage(StageFault::Settings(
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
                EventFault::Stage(StageFault::Settings(
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
            EventFault::Stage(StageFault::Settings(
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

/// A staged event of `n` players (ratings by id, highest first) with the given stages.
fn event(n: u32, stages: Value) -> Event {
    let players: Vec<Value> = (1..=n)
        .map(|id| json!({"id": id, "name": format!("P{id}"), "rating": 2000 - id}))
        .collect();
    Event::from_value(&json!({
        "format": "ggdesk-tournament/2",
        "name": "Staged",
        "players": players,
        "stages": stages,
    }))
    .expect("a valid event")
}

/// Pairs the next round and gives each game to the player `winner` picks.
fn play_round(e: &Event, winner: impl Fn(&StageBoard) -> PlayerId) -> (Event, Vec<StageBoard>) {
    play_some(e, |b| Some(winner(b)))
}

fn match_id(round: u32, number: u32) -> Option<MatchId> {
    Some(MatchId::Bracket { round, number })
}

/// The higher seed of a match is the lower seed number wherever it sits: after seed 4 beats
/// seed 1, the final puts seed 4 in the top slot and seed 2 below it, and game 1 of the
/// final gives White to seed 2.
#[test]
fn the_higher_seed_has_white_in_game_one_even_from_the_lower_slot() {
    let e = event(
        4,
        json!([{"name": "Cup", "system": "knockout", "match": {"best_of": 1}, "rounds": []}]),
    );
    assert_eq!(e.name(), "Staged");
    let (e, semis) = play_round(&e, |b| {
        if b.series == match_id(1, 1) {
            PlayerId(4)
        } else {
            PlayerId(2)
        }
    });
    assert_eq!(semis.len(), 2);
    let step = e.next_step().expect("the final");
    let NextStep::Round { games, .. } = step else {
        panic!("the final's round");
    };
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].series, match_id(2, 1));
    assert_eq!((games[0].white, games[0].black), (PlayerId(2), PlayerId(4)));
}

/// A semi-final that was a bye has no loser: three players with a third-place match play
/// the semi-final 2 against 3 and the final, and there is no third-place match.
#[test]
fn a_semi_final_bye_leaves_no_third_place_match() {
    let e = event(
        3,
        json!([{"name": "Cup", "system": "knockout", "match": {"best_of": 1},
                "third_place": true, "rounds": []}]),
    );
    let (e, semis) = play_round(&e, |_| PlayerId(2));
    assert_eq!(semis.len(), 1, "seed 1 has a bye");
    assert_eq!(semis[0].series, match_id(1, 2));
    let bracket = e.current().bracket.as_ref().expect("a bracket");
    assert_eq!(bracket.third, None);
    let step = e.next_step().expect("the final");
    let NextStep::Round { games, .. } = step else {
        panic!("the final's round");
    };
    let ids: Vec<_> = games.iter().map(|b| b.series).collect();
    assert_eq!(ids, [match_id(2, 1)]);
}

/// Groups of five and four: the group of four plays its three rounds and no more while the
/// group of five plays five. After the stage, each of group B's players has played three
/// games and each of group A's four (one bye each), and group B's `progressive` sums the
/// running score after each of its own three rounds only (2 points a win, counted here
/// from the games as they were played: White wins every game); group A's byes score 2.
#[test]
fn a_smaller_group_plays_only_its_own_rounds() {
    let mut e = event(
        9,
        json!([
            {"name": "Groups", "system": "round_robin", "groups": 2, "advance": 2,
             "tiebreaks": ["progressive"], "rounds": [], "playoffs": []},
            {"name": "Final", "system": "knockout", "match": {"best_of": 1}, "rounds": []}
        ]),
    );
    let mut games_of: BTreeMap<(String, PlayerId), usize> = BTreeMap::new();
    let mut running: BTreeMap<PlayerId, i64> = BTreeMap::new();
    let mut progressive: BTreeMap<PlayerId, i64> = BTreeMap::new();
    let mut wins_a: BTreeMap<PlayerId, i64> = BTreeMap::new();
    for _ in 0..5 {
        let (next, games) = play_round(&e, |b| b.white);
        for b in &games {
            let g = b.group.expect("a group").to_string();
            *games_of.entry((g.clone(), b.white)).or_default() += 1;
            *games_of.entry((g.clone(), b.black)).or_default() += 1;
            if g == "B" {
                *running.entry(b.white).or_default() += 2;
                running.entry(b.black).or_default();
            } else {
                *wins_a.entry(b.white).or_default() += 1;
                wins_a.entry(b.black).or_default();
            }
        }
        if games
            .iter()
            .any(|b| b.group.is_some_and(|g| g.to_string() == "B"))
        {
            for (p, r) in &running {
                *progressive.entry(*p).or_default() += r;
            }
        }
        e = next;
    }
    let count = |group: &str| -> Vec<usize> {
        games_of
            .iter()
            .filter(|((g, _), _)| g == group)
            .map(|(_, n)| *n)
            .collect()
    };
    assert_eq!(count("A"), [4, 4, 4, 4, 4]);
    assert_eq!(count("B"), [3, 3, 3, 3]);
    assert!(e.reached()[0].complete);
    let s = e
        .stage_standings(Some(ggdesk_core::tournament::StageNo(1)))
        .expect("stage 1 standings");
    assert_eq!(s.rows.len(), 9);
    // Group A's players each had one bye, worth a win's 2 points.
    for (_, row) in s.rows.iter().filter(|(g, _)| g.to_string() == "A") {
        assert_eq!(
            row.score.to_string(),
            (2 * wins_a[&row.id] + 2).to_string(),
            "player {}",
            row.id
        );
    }
    let b_rows: Vec<_> = s
        .rows
        .iter()
        .filter(|(g, _)| g.to_string() == "B")
        .collect();
    assert_eq!(b_rows.len(), 4);
    for (_, row) in b_rows {
        assert_eq!(
            row.tiebreaks[0].to_string(),
            progressive[&row.id].to_string(),
            "player {}",
            row.id
        );
    }
}

/// A playoff game that is not one of the games due is refused naming both players and the
/// games that are due: at the cut of the playoff example, four players tied for three places
/// play one round robin, whose first round is 3-7 and 9-2 (the example's expected `pair`).
#[test]
fn an_unexpected_playoff_game_is_refused_naming_the_games_due() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/stages/playoff-at-the-cut.json");
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture")).expect("JSON");
    v["stages"][0]["playoffs"] = json!([{"white": 3, "black": 9, "result": "white"}]);
    let e = match Event::from_value(&v) {
        Ok(_) => panic!("the playoff game should be refused"),
        Err(e) => e,
    };
    assert_eq!(
        e.to_string(),
        "stages[0].playoffs[0]: 3 against 9 is not a playoff game now (expected 3-7, 9-2)"
    );
}

/// Two groups of two, then a single-game final between the group winners (1 and 3), with
/// the given penalties.
fn groups_then_final(penalties: Value) -> Result<Event, EventFileError> {
    let players: Vec<Value> = (1..=4)
        .map(|id| json!({"id": id, "name": format!("P{id}"), "rating": 2000 - id}))
        .collect();
    Event::from_value(&json!({
        "format": "ggdesk-tournament/2",
        "name": "Staged",
        "players": players,
        "penalties": penalties,
        "stages": [
            {"name": "Groups", "system": "round_robin", "groups": 2, "advance": 1,
             "rounds": [{"games": [
                 {"group": "A", "table": 1, "white": 1, "black": 4, "result": "white"},
                 {"group": "B", "table": 2, "white": 2, "black": 3, "result": "black"}
             ]}],
             "playoffs": []},
            {"name": "Final", "system": "knockout", "match": {"best_of": 1},
             "rounds": [{"games": [
                 {"match": "1.1", "table": 1, "white": 1, "black": 3, "result": "white"}
             ]}]}
        ]
    }))
}

/// A penalty counts in its own stage only: one given in the groups to a player who did not
/// reach the final is accepted, the same penalty said to be of the final is refused at the
/// penalty's player.
#[test]
fn a_penalty_is_checked_against_its_own_stage_only() {
    let pen = |stage: u32| json!([{"player": 4, "points": 1, "reason": "late", "stage": stage}]);
    let e = groups_then_final(pen(1)).expect("a penalty of the groups");
    assert!(e.is_over());
    // The groups' cut is drawn; the last stage has none.
    assert!(!e.reached()[0].cut.is_empty());
    assert_eq!(e.reached().len(), 2);
    assert!(e.reached()[1].cut.is_empty(), "{:?}", e.reached()[1].cut);
    let e = match groups_then_final(pen(2)) {
        Ok(_) => panic!("a penalty in the final for a player not in it"),
        Err(e) => e,
    };
    assert_eq!(e.at, "penalties[0].player");
    assert!(
        matches!(
            e.fault,
            EventFault::Stage(StageFault::NotInStage {
                player: PlayerId(4),
                stage: StageNo(2)
            })
        ),
        "{e}"
    );
}

/// A knockout round while a game of the round before has no result is refused at that
/// round: best of three, match 1.1's first game pending and a second game written.
#[test]
fn a_knockout_round_after_an_incomplete_round_is_refused() {
    let e = match Event::from_json(&file(json!([
        {"name": "Cup", "system": "knockout", "match": {"best_of": 3}, "rounds": [
            {"games": [
                {"match": "1.1", "table": 1, "white": 1, "black": 8, "result": "pending"},
                {"match": "1.2", "table": 2, "white": 4, "black": 5, "result": "white"},
                {"match": "1.3", "table": 3, "white": 2, "black": 7, "result": "white"},
                {"match": "1.4", "table": 4, "white": 3, "black": 6, "result": "white"}
            ]},
            {"games": [
                {"match": "1.1", "table": 1, "white": 8, "black": 1, "result": "black"},
                {"match": "1.2", "table": 2, "white": 5, "black": 4, "result": "black"},
                {"match": "1.3", "table": 3, "white": 7, "black": 2, "result": "black"},
                {"match": "1.4", "table": 4, "white": 6, "black": 3, "result": "black"}
            ]}
        ]}
    ]))) {
        Ok(_) => panic!("round 2 after a pending game of round 1"),
        Err(e) => e,
    };
    assert_eq!(e.at, "stages[0].rounds[1]");
    assert!(
        matches!(e.fault, EventFault::Stage(StageFault::AfterIncompleteRound)),
        "{e}"
    );
}

/// Before a Swiss stage has all its rounds, `pair` asks for the result of its last round
/// (round 2 of the example's five, with a game pending).
#[test]
fn a_swiss_round_with_a_pending_game_is_named_before_the_next_is_paired() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/stages/swiss-then-final-twice-to-beat.json");
    let mut v: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture")).expect("JSON");
    let rounds = v["stages"][0]["rounds"].as_array_mut().expect("rounds");
    rounds.truncate(2);
    rounds[1]["games"][0]["result"] = json!("pending");
    v["stages"][1]["rounds"] = json!([]);
    let event = Event::from_value(&v).expect("a valid event");
    assert_eq!(
        event.next_step(),
        Err(StepRefusal::RoundNotComplete {
            stage: StageNo(1),
            round: RoundNo(2),
        })
    );
}

/// Pairs the next round and enters the results `result` gives (`None`: left pending), with
/// the round's games.
fn play_some(
    e: &Event,
    result: impl Fn(&StageBoard) -> Option<PlayerId>,
) -> (Event, Vec<StageBoard>) {
    let step = e.next_step().expect("a round to pair");
    let NextStep::Round {
        stage,
        round,
        games,
        ..
    } = &step
    else {
        panic!("a round, not {step:?}");
    };
    let mut out = e.record(&step).expect("recorded");
    for (i, b) in games.iter().enumerate() {
        if let Some(w) = result(b) {
            let r = if w == b.white {
                GameResult::WhiteWins
            } else {
                GameResult::BlackWins
            };
            out = out.set_result(*stage, *round, i, r).expect("a result");
        }
    }
    (out, games.clone())
}

/// While the semi-finals are played, the bracket shows what is known of the final and the
/// third-place match: seed 1 won semi-final 1.1 against seed 4, 1.2 is still on, so the final
/// has seed 1 on top and nobody yet below, the third-place match seed 4 on top; and once the
/// final is won with the third-place game still on, the knockout has no champion yet.
#[test]
fn the_bracket_shows_the_next_round_while_one_is_played_and_a_champion_only_at_the_end() {
    let e = event(
        4,
        json!([{"name": "Cup", "system": "knockout", "match": {"best_of": 1},
                "third_place": true, "rounds": []}]),
    );
    let (e, _) = play_some(&e, |b| (b.series == match_id(1, 1)).then_some(PlayerId(1)));
    let bracket = e.current().bracket.as_ref().expect("a bracket");
    let (next, third) = bracket.preview();
    let next = next.expect("the final, previewed");
    assert_eq!(next.len(), 1);
    assert_eq!(
        next[0].id,
        MatchId::Bracket {
            round: 2,
            number: 1
        }
    );
    assert_eq!(next[0].slots.map(|s| s.player), [Some(PlayerId(1)), None]);
    assert_eq!(next[0].slots.map(|s| s.seed), [Some(1), None]);
    let third = third.expect("the third-place match, previewed");
    assert_eq!(third.id, MatchId::ThirdPlace);
    assert_eq!(third.slots.map(|s| s.player), [Some(PlayerId(4)), None]);
    assert_eq!(bracket.champion(), None);

    // 1.2: seed 2 wins. Then the final (1 against 2) is won by 1, the third place left on.
    let e = e
        .set_result(StageNo(1), RoundNo(1), 1, GameResult::WhiteWins)
        .expect("1.2's result");
    let bracket = e.current().bracket.as_ref().expect("a bracket");
    assert_eq!(bracket.preview(), (None, None), "the final has begun");
    let (e, _) = play_some(&e, |b| (b.series == match_id(2, 1)).then_some(PlayerId(1)));
    let bracket = e.current().bracket.as_ref().expect("a bracket");
    assert_eq!(
        bracket.rounds.last().map(|r| r[0].winner),
        Some(Some(PlayerId(1)))
    );
    assert!(!bracket.is_complete());
    assert_eq!(bracket.champion(), None, "the third-place game is still on");
}
