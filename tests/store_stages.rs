//! Events in stages in the store (issue 20, migration 6), on both engines: a
//! `ggdesk-tournament/2` file imported and exported comes back equal to the file; the store
//! agrees with the binary on the shared examples (the next step it pairs, the standings of
//! the current stage, the bracket, the final placement); `copy` carries the stages; the
//! rating list counts every game over the board in every stage, playoffs included; bad
//! files and changes that would break an event are refused, naming why, and change nothing.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/json.rs"]
mod json_support;
#[path = "support/pg.rs"]
mod pg;

use engines::Engine;
use ggdesk::store::{
    Actor, PlayerInput, RoundPlace, Store, StoreError, TournamentId, TournamentSetup,
};
use ggdesk_core::rating::Date;
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::stages::{Event, stage_standings_json};
use ggdesk_core::stages::{MatchFormat, Seeding, StageFormat, StageSpec};
use ggdesk_core::tournament::GameResult;
use ggdesk_core::tournament::{PlayerId, RoundNo, Score, StageNo, TieBreak};
use ggdesk_core::{Refusal, event};
use json_support::{missing_from, norm, shared};
use serde_json::{Value, json};
use std::path::PathBuf;

crate::on_both_engines!(
    every_example_round_trips_equal_to_the_file,
    the_store_agrees_with_the_binary_on_the_shared_examples,
    a_bad_file_is_refused_naming_the_fault_and_changes_nothing,
    groups_then_a_knockout_played_through_the_store_copied_and_rated,
    the_list_of_tournaments_names_each_stage_as_the_desk_does,
    a_correction_after_the_cut_stands_only_if_no_seed_changes,
    a_correction_cannot_undo_a_playoff_played,
    a_file_whose_group_results_would_re_seed_its_knockout_is_refused_in_words,
);

const EXAMPLES: [&str; 5] = [
    "groups-then-cross-over-final",
    "knockout-in-progress",
    "playoff-at-the-cut",
    "rr-rr-best-of-3-final",
    "swiss-then-final-twice-to-beat",
];

fn director() -> Actor {
    Actor::director()
}

fn every_example_round_trips_equal_to_the_file(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    for name in EXAMPLES {
        let file = shared("stages", &format!("{name}.json"));
        let id = s.import_tournament(&file, &director()).expect(name);
        let out = s.export_tournament(id).expect("export");
        // Everything the file says comes back unchanged, ...
        if let Some(at) = missing_from(&norm(&file), &norm(&out), "") {
            panic!("{name}: {at}");
        }
        // ... and the export is the core's own writing of the file's event, with the game
        // rules the desk adds in `settings.rules` (the defaults a reader takes, such as an
        // empty `byes` list, written out: nothing else).
        let event = Event::from_value(&file).expect("the example reads");
        let mut canonical = event.to_value();
        canonical["settings"]["rules"] = RuleSettings::default().to_value();
        assert_eq!(out, canonical, "{name}");
        assert_eq!(
            Event::from_value(&out).expect("the export reads").parts(),
            event.parts(),
            "{name}"
        );
        // And again from the database's own export: the same file, literally.
        let again = s.import_tournament(&out, &director()).expect("re-import");
        assert_ne!(again, id);
        assert_eq!(s.export_tournament(again).expect("export 2"), out, "{name}");
    }
}

/// The games of a pairing as `(low id, high id)`, sorted (colours and tables aside).
fn unordered(games: impl Iterator<Item = (u64, u64)>) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = games.map(|(w, b)| (w.min(b), w.max(b))).collect();
    out.sort_unstable();
    out
}

fn the_store_agrees_with_the_binary_on_the_shared_examples(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    for name in EXAMPLES {
        let file = shared("stages", &format!("{name}.json"));
        let expected = shared("stages", &format!("{name}.expected.json"));
        let id = s.import_tournament(&file, &director()).expect(name);
        let event = s
            .event(id)
            .expect("event")
            .staged()
            .cloned()
            .expect("an event of stages");
        if let Some(want) = expected.get("standings_stage") {
            let stage = u32::try_from(want["stage"].as_u64().expect("stage")).expect("u32");
            let st = event
                .stage_standings(Some(ggdesk_core::tournament::StageNo(stage)))
                .expect("standings");
            let rows: Value = serde_json::from_str(&stage_standings_json(&st)).expect("JSON");
            let got: Vec<Value> = rows
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| json!([r["rank"], r["id"], r["score"]]))
                .collect();
            assert_eq!(
                norm(&json!(got)),
                norm(&want["rows_rank_id_score"]),
                "{name}"
            );
        }
        if let Some(want) = expected.get("bracket") {
            let got: Value =
                serde_json::from_str(&event.bracket_json().expect("a bracket")).expect("JSON");
            assert_eq!(norm(&got), norm(want), "{name}: bracket");
        }
        if let Some(want) = expected.get("final_place_id") {
            let got: Vec<Value> = event
                .final_placement()
                .expect("over")
                .iter()
                .map(|p| json!([p.place, p.id.0]))
                .collect();
            assert_eq!(norm(&json!(got)), norm(want), "{name}: final");
        }
        // The next step, paired by the store as a draft round after the file's.
        let want = &expected["pair"];
        let before = s.event(id).expect("event").rounds().len();
        match s.pair_round(id, &director()) {
            Err(StoreError::Refused(Refusal::Event(m))) => {
                assert!(want.get("exit").is_some(), "{name}: refused: {m}");
                assert_eq!(s.event(id).expect("event").rounds().len(), before, "{name}");
            }
            Err(e) => panic!("{name}: {e:?}"),
            Ok(_) => {
                assert!(want.get("exit").is_none(), "{name}: the binary refuses");
                let event = s.event(id).expect("event");
                let rounds = event.rounds();
                assert_eq!(rounds.len(), before + 1, "{name}");
                let number = rounds.last().expect("draft").number;
                let view = s.round_view(id, number).expect("view").expect("draft");
                assert_eq!(
                    u64::from(view.place.stage().0),
                    want["stage"].as_u64().expect("stage"),
                    "{name}"
                );
                assert_eq!(
                    view.place.is_playoff(),
                    want.get("playoff")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                    "{name}"
                );
                let got: Vec<(u64, u64)> = view
                    .boards
                    .iter()
                    .map(|b| (u64::from(b.white.no.0), u64::from(b.black.no.0)))
                    .collect();
                let games = want["games"].as_array().expect("games");
                let wanted: Vec<(u64, u64)> = games
                    .iter()
                    .map(|g| {
                        (
                            g["white"].as_u64().expect("w"),
                            g["black"].as_u64().expect("b"),
                        )
                    })
                    .collect();
                if want.get("note").is_some() {
                    assert_eq!(
                        unordered(got.into_iter()),
                        unordered(wanted.into_iter()),
                        "{name}"
                    );
                } else {
                    assert_eq!(got, wanted, "{name}: colours and order");
                    let tables: Vec<u64> =
                        view.boards.iter().map(|b| u64::from(b.table.0)).collect();
                    let want_tables: Vec<u64> = games
                        .iter()
                        .map(|g| g["table"].as_u64().expect("table"))
                        .collect();
                    assert_eq!(tables, want_tables, "{name}: tables");
                }
                assert!(view.boards.iter().all(|b| b.result == GameResult::Pending));
            }
        }
    }
}

fn a_bad_file_is_refused_naming_the_fault_and_changes_nothing(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let mut file = shared("stages", "groups-then-cross-over-final.json");
    // A game of the knockout between players who are not in that match.
    let games = file["stages"][1]["rounds"][0]["games"]
        .as_array_mut()
        .expect("the knockout's first round");
    let first_white = games[0]["white"].clone();
    games[1]["white"] = first_white;
    let before = s.tournaments().expect("list").len();
    match s.import_tournament(&file, &director()) {
        Err(StoreError::Refused(Refusal::Event(event::Refusal::StagedFile(e)))) => {
            let m = e.to_string();
            assert!(m.starts_with("stages[1].rounds[0].games[1]"), "{m}")
        }
        other => panic!("must be refused, got {other:?}"),
    }
    assert_eq!(s.tournaments().expect("list").len(), before);
}

fn a_file_whose_group_results_would_re_seed_its_knockout_is_refused_in_words(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let mut file = shared("stages", "groups-then-cross-over-final.json");
    // Group A's first game (4 beat 5) turned round: 5 goes on in 8's place, and the seeds
    // change, but the knockout was played with the file's first results.
    let game = &mut file["stages"][0]["rounds"][0]["games"][0];
    assert_eq!((&game["white"], &game["black"]), (&json!(4), &json!(5)));
    game["result"] = json!("black");
    let before = s.tournaments().expect("list").len();
    match s.import_tournament(&file, &director()) {
        Err(StoreError::Refused(Refusal::Event(event::Refusal::StagedFile(e)))) => assert_eq!(
            e.to_string(),
            "stages[1].rounds[0].games[1]: player 8 did not qualify for stage 2: by the \
             results of stage 1, the players going on to stage 2 are, by seed, 6, 5, 4, 3; a \
             result cannot change who went on or their seeds"
        ),
        other => panic!("must be refused, got {other:?}"),
    }
    assert_eq!(s.tournaments().expect("list").len(), before);
}

/// Two groups of four (serpentine by rating), the top two of each into a cross-over
/// knockout, race to 4 points (two wins on the usual GG points).
fn groups_then_knockout(s: &mut Store) -> TournamentId {
    let stages = [
        StageSpec {
            name: "Groups".into(),
            format: StageFormat::RoundRobin {
                groups: 2,
                rounds: None,
            },
            tiebreaks: TieBreak::default_order(),
            advance: Some(2),
        },
        StageSpec {
            name: "Knockout".into(),
            format: StageFormat::Knockout {
                series: MatchFormat::RaceTo(Score::from_points(4)),
                seeding: Seeding::CrossOver,
                third_place: false,
            },
            tiebreaks: TieBreak::default_order(),
            advance: None,
        },
    ];
    let setup = TournamentSetup {
        name: "League night".into(),
        ..TournamentSetup::default()
    };
    let tid = s
        .create_staged_tournament(&setup, &stages, &director())
        .expect("create");
    for i in 1..=8 {
        let p = s
            .add_player(
                &PlayerInput {
                    name: format!("Player {i}"),
                    federation_id: format!("L-{i}"),
                    club: String::new(),
                    rating: 2100 - 10 * i64::from(i),
                },
                &director(),
            )
            .expect("player");
        s.register(tid, p, &director()).expect("register");
    }
    tid
}

/// The event of stages of a tournament, as the stages replay it.
fn staged(s: &Store, tid: TournamentId) -> ggdesk_core::stages::Event {
    s.event(tid)
        .expect("event")
        .staged()
        .cloned()
        .expect("an event of stages")
}

/// Plays the event's next step as the desk does (a group round paired as a draft and
/// published; a knockout round started in one action) with the higher-rated player
/// (the lower number) winning every game. Returns the round's number.
fn play_step(s: &mut Store, tid: TournamentId) -> RoundNo {
    let event = s
        .event(tid)
        .expect("event")
        .staged()
        .cloned()
        .expect("an event of stages");
    let step = event.next_step().expect("a next step");
    let knockout = step
        .stage()
        .index()
        .and_then(|k| event.settings().stages.get(k))
        .expect("the step's stage")
        .format
        .is_knockout();
    let number = if knockout {
        s.start_next_games(tid, &director()).expect("next games").0
    } else {
        let n = s.pair_round(tid, &director()).expect("pair").round;
        s.publish_round(tid, n, &director()).expect("publish");
        n
    };
    let view = s.round_view(tid, number).expect("view").expect("round");
    for b in &view.boards {
        let result = if b.white.no < b.black.no {
            GameResult::WhiteWins
        } else {
            GameResult::BlackWins
        };
        s.set_result(tid, number, b.board, result, "", &director())
            .expect("result");
    }
    number
}

fn the_list_of_tournaments_names_each_stage_as_the_desk_does(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let tid = groups_then_knockout(&mut s);
    let mut specs = s
        .event(tid)
        .expect("event")
        .stage_specs()
        .expect("stages")
        .to_vec();
    // A stage without a name is called by its system, in the core's words.
    specs[0].name = String::new();
    s.set_stages(tid, Some(&specs), "unnamed", &director())
        .expect("not fixed yet");
    let listed = s.tournaments().expect("list");
    let summary = listed.iter().find(|t| t.id == tid).expect("listed");
    assert_eq!(summary.stages, ["Round robin", "Knockout"]);
}

fn groups_then_a_knockout_played_through_the_store_copied_and_rated(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let tid = groups_then_knockout(&mut s);
    // A group round is a pairing to look at: never started in one action.
    match s.start_next_games(tid, &director()) {
        Err(StoreError::Refused(Refusal::Event(r @ event::Refusal::NotForced(_)))) => {
            let m = r.to_string();
            assert!(m.contains("pair it as a draft, then publish it"), "{m}")
        }
        other => panic!("must be refused, got {other:?}"),
    }
    assert!(s.event(tid).expect("event").rounds().is_empty());
    // The groups: A = 1, 4, 5, 8 and B = 2, 3, 6, 7; three rounds each.
    for r in 1..=3 {
        let n = play_step(&mut s, tid);
        let view = s.round_view(tid, n).expect("view").expect("round");
        assert_eq!(
            view.place,
            RoundPlace::Round {
                stage: StageNo(1),
                round: RoundNo(r)
            }
        );
        assert!(
            view.boards
                .iter()
                .all(|b| b.group.is_some() && b.series.is_none())
        );
    }
    // The groups complete, the knockout's first round (the cross-over semi-finals) starts
    // in one action: it seeds the stage.
    s.start_next_games(tid, &director())
        .expect("the knockout's first round");
    let event = s.event(tid).expect("event");
    let first = event.rounds().last().expect("round 4");
    assert_eq!(first.number, RoundNo(4));
    assert_eq!(
        event.place(first.number).expect("its place"),
        RoundPlace::Round {
            stage: StageNo(2),
            round: RoundNo(1)
        }
    );
    let view = s.round_view(tid, RoundNo(4)).expect("view").expect("round");
    let mut semis: Vec<(PlayerId, PlayerId)> = view
        .boards
        .iter()
        .map(|b| (b.white.no.min(b.black.no), b.white.no.max(b.black.no)))
        .collect();
    semis.sort_unstable();
    // A1 = 1 against B2 = 3, B1 = 2 against A2 = 4.
    assert_eq!(
        semis,
        [(PlayerId(1), PlayerId(3)), (PlayerId(2), PlayerId(4))]
    );
    assert!(
        view.boards
            .iter()
            .all(|b| b.series.is_some() && b.group.is_none())
    );
    // A group result that would change the cut, now that the knockout has begun: refused,
    // in the director's words, and nothing changes.
    let before = s.export_tournament(tid).expect("export");
    assert_eq!(
        refused_correction(&mut s, tid, (5, 4), Some(5)),
        "Player 4 would no longer go on (Player 5 would instead); stage 2 (Knockout) has \
         started: a result cannot change who went on or their seeds; nothing was changed"
    );
    assert_eq!(s.export_tournament(tid).expect("export"), before);
    // The semi-finals' games: each match's next game appears when the round before is
    // complete; two wins each, then the final, two wins.
    for b in &view.boards {
        let result = if b.white.no < b.black.no {
            GameResult::WhiteWins
        } else {
            GameResult::BlackWins
        };
        s.set_result(tid, RoundNo(4), b.board, result, "", &director())
            .expect("result");
    }
    let mut played = RoundNo(4);
    while !staged(&s, tid).is_over() {
        played = play_step(&mut s, tid);
        assert!(played < RoundNo(20), "the event ends");
    }
    assert_eq!(played, RoundNo(7), "2 semi-final games, then 2 final games");
    match s.start_next_games(tid, &director()) {
        Err(StoreError::Refused(Refusal::Event(
            r @ event::Refusal::Step(ggdesk_core::stages::StepRefusal::Over),
        ))) => {
            let m = r.to_string();
            assert!(m.contains("the event is over"), "{m}")
        }
        other => panic!("nothing follows the final, got {other:?}"),
    }
    let places: Vec<(u32, u32)> = staged(&s, tid)
        .final_placement()
        .expect("over")
        .iter()
        .map(|p| (p.place, p.id.0))
        .collect();
    assert_eq!(places[..2], [(1, 1), (2, 2)]);
    let mut semi_losers: Vec<u32> = places[2..4].iter().map(|p| p.1).collect();
    semi_losers.sort_unstable();
    assert_eq!(semi_losers, [3, 4]);

    // `copy` carries the stages: the copy's event and file are the original's.
    let mut dst = Store::open_in_memory().expect("copy");
    s.copy_into(&mut dst).expect("copied");
    assert_eq!(staged(&dst, tid).parts(), staged(&s, tid).parts());
    assert_eq!(
        dst.export_tournament(tid).expect("export"),
        s.export_tournament(tid).expect("export")
    );
    assert_eq!(
        dst.event(tid).expect("event").stage_specs(),
        s.event(tid).expect("event").stage_specs()
    );

    // Rated: every game over the board in every stage counts (groups 3 each; semi-finals 2
    // more for 1-4; the final 2 more for 1 and 2).
    s.mark_rated(tid, Date::new(2026, 8, 30).expect("date"), &director())
        .expect("rated");
    let mut games: Vec<(String, u32)> = s
        .event_ratings(tid)
        .expect("ratings")
        .into_iter()
        .map(|r| (r.federation_id, r.rated.games))
        .collect();
    games.sort();
    assert_eq!(
        games,
        [
            ("L-1".to_string(), 7),
            ("L-2".to_string(), 7),
            ("L-3".to_string(), 5),
            ("L-4".to_string(), 5),
            ("L-5".to_string(), 3),
            ("L-6".to_string(), 3),
            ("L-7".to_string(), 3),
            ("L-8".to_string(), 3),
        ]
    );
}

/// The board where players `a` and `b` met in a published round: its round, board and
/// the result that makes `winner` win (a draw when `None`).
fn board_of(
    s: &Store,
    tid: TournamentId,
    (a, b): (u32, u32),
    winner: Option<u32>,
) -> (RoundNo, ggdesk_core::tournament::BoardNo, GameResult) {
    let last = s.event(tid).expect("event").rounds().len();
    (1..=u32::try_from(last).expect("rounds"))
        .find_map(|r| {
            let v = s.round_view(tid, RoundNo(r)).expect("view").expect("round");
            v.boards.iter().find_map(|bd| {
                let pair = [bd.white.no, bd.black.no];
                if !(pair.contains(&PlayerId(a)) && pair.contains(&PlayerId(b))) {
                    return None;
                }
                let result = match winner {
                    None => GameResult::Draw,
                    Some(w) if bd.white.no == PlayerId(w) => GameResult::WhiteWins,
                    Some(_) => GameResult::BlackWins,
                };
                Some((RoundNo(r), bd.board, result))
            })
        })
        .expect("the two met")
}

/// Changes the result of `a` against `b` (to `winner` winning, or a draw) with a reason,
/// expecting a refusal for re-seeding; answers its words.
fn refused_correction(
    s: &mut Store,
    tid: TournamentId,
    pair: (u32, u32),
    winner: Option<u32>,
) -> String {
    let (round, board, result) = board_of(s, tid, pair, winner);
    match s.set_result(tid, round, board, result, "scoresheet misread", &director()) {
        Err(StoreError::Refused(Refusal::Event(r @ event::Refusal::Reseeds(_)))) => r.to_string(),
        other => panic!("must be refused for re-seeding, got {other:?}"),
    }
}

/// Two groups of four played through (the better seed winning every game) and the
/// knockout's first games started: A = 1, 4, 5, 8 and B = 2, 3, 6, 7; seeds 1, 2, 4, 3.
fn knockout_started(s: &mut Store) -> TournamentId {
    let tid = groups_then_knockout(s);
    for _ in 1..=3 {
        play_step(s, tid);
    }
    s.start_next_games(tid, &director())
        .expect("the knockout's first round");
    tid
}

fn a_correction_after_the_cut_stands_only_if_no_seed_changes(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let tid = knockout_started(&mut s);
    let seeds = |s: &Store| staged(s, tid).reached()[1].seeds.clone();
    assert_eq!(seeds(&s), [1, 2, 4, 3].map(PlayerId));
    let before = s.export_tournament(tid).expect("export");
    // Seed-changing: 4 beating 1 makes 4 group A's winner and 1 its second.
    assert_eq!(
        refused_correction(&mut s, tid, (1, 4), Some(4)),
        "Player 1 would go from seed 1 to seed 3; stage 2 (Knockout) has started: a result \
         cannot change who went on or their seeds; nothing was changed"
    );
    // Cut-changing: 5 beating 4 puts 5 through instead.
    assert_eq!(
        refused_correction(&mut s, tid, (4, 5), Some(5)),
        "Player 4 would no longer go on (Player 5 would instead); stage 2 (Knockout) has \
         started: a result cannot change who went on or their seeds; nothing was changed"
    );
    // A draw leaves 4 and 5 level on everything at the cut: a playoff would be needed.
    assert_eq!(
        refused_correction(&mut s, tid, (4, 5), None),
        "Player 4 and Player 5 would be level at the cut of group A and need a playoff; \
         stage 2 (Knockout) has started: a result cannot change who went on or their seeds; \
         nothing was changed"
    );
    // Back to pending: the group stage would no longer be complete.
    let (round, board, _) = board_of(&s, tid, (1, 8), Some(1));
    match s.set_result(tid, round, board, GameResult::Pending, "typo", &director()) {
        Err(StoreError::Refused(Refusal::Event(r @ event::Refusal::Reseeds(_)))) => assert_eq!(
            r.to_string(),
            "a result of stage 1 (Groups) cannot go back to pending: stage 2 (Knockout) has \
             started; nothing was changed"
        ),
        other => panic!("must be refused, got {other:?}"),
    }
    assert_eq!(s.export_tournament(tid).expect("export"), before);
    // Harmless: 5 and 8 drawing changes neither the qualifiers nor their seeds; it is
    // simply corrected, and the group's standings follow.
    let (round, board, draw) = board_of(&s, tid, (5, 8), None);
    s.set_result(tid, round, board, draw, "scoresheet misread", &director())
        .expect("a harmless correction");
    assert_eq!(seeds(&s), [1, 2, 4, 3].map(PlayerId));
    let groups = staged(&s, tid);
    let row = |p: u32| {
        groups.reached()[0].cut[0]
            .standings
            .rows
            .iter()
            .find(|r| r.id == PlayerId(p))
            .map(|r| r.score)
            .expect("in group A")
    };
    assert_eq!(
        (row(5), row(8)),
        (Score::from_points(1), Score::from_points(1))
    );
}

fn a_correction_cannot_undo_a_playoff_played(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let tid = groups_then_knockout(&mut s);
    for _ in 1..=3 {
        play_step(&mut s, tid);
    }
    // 4 and 5 drew, found before the knockout: allowed, and a playoff is due.
    let (round, board, draw) = board_of(&s, tid, (4, 5), None);
    s.set_result(tid, round, board, draw, "scoresheet misread", &director())
        .expect("nothing started yet");
    let playoff = play_step(&mut s, tid);
    assert!(
        s.event(tid)
            .expect("event")
            .place(playoff)
            .expect("placed")
            .is_playoff()
    );
    let before = s.export_tournament(tid).expect("export");
    // Undoing the draw would make the playoff just played unnecessary.
    let voided = "the playoff of group A (Player 4 and Player 5) at the cut of stage 1 \
                  (Groups) has been played: this result would make it unnecessary or change \
                  who plays off, and a result cannot undo a playoff played; nothing was changed";
    assert_eq!(refused_correction(&mut s, tid, (4, 5), Some(4)), voided);
    assert_eq!(s.export_tournament(tid).expect("export"), before);
    // The same once the knockout has started.
    s.start_next_games(tid, &director())
        .expect("the knockout's first round");
    let before = s.export_tournament(tid).expect("export");
    assert_eq!(refused_correction(&mut s, tid, (4, 5), Some(4)), voided);
    assert_eq!(s.export_tournament(tid).expect("export"), before);
}

/// `ggdesk --db DB import` takes a `/2` file (checked as `pair` checks it) and `export
/// tournament` writes it back as the same event.
#[test]
fn the_command_line_imports_and_exports_an_event_in_stages() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("cli.sqlite3");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/stages/knockout-in-progress.json");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .arg("--db")
            .arg(&db)
            .args(args)
            .output()
            .expect("runs")
    };
    let out = run(&["import", path.to_str().expect("path")]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let id = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .trim()
        .to_string();
    let out = run(&["export", "tournament", &id, "-"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let back: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let file = shared("stages", "knockout-in-progress.json");
    assert_eq!(
        Event::from_value(&back).expect("reads").parts(),
        Event::from_value(&file).expect("reads").parts()
    );
    // A bad /2 file: exit 2, the place named, nothing imported.
    let mut bad = file.clone();
    bad["stages"][0]["rounds"][0]["games"][0]["black"] = json!(99);
    let bad_path = dir.path().join("bad.json");
    std::fs::write(&bad_path, bad.to_string()).expect("write");
    let out = run(&["import", bad_path.to_str().expect("path")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).expect("UTF-8");
    assert!(err.contains("stages[0].rounds[0].games[0]"), "{err}");
}
