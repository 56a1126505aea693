//! A team event's playoffs at the desk through the store, on both engines: two teams tied
//! across the cut of a team Swiss play off through their captains' nominees until the final
//! is seeded, and a final level on game points is decided by a playoff; each step one
//! audited transaction in the rows the import writes (the export is the spec's file), each
//! refusal in the core's words, and nothing written when refused.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/team_files.rs"]
mod team_files;

use engines::Engine;
use ggdesk::store::{Actor, AuditFilter, Store, StoreError, TournamentId};
use ggdesk_core::teams::{TeamId, TeamStep};
use ggdesk_core::tournament::{GameResult, PlayerId, RoundNo, TableNo};
use serde_json::{Value, json};
use team_files::swiss_then_final;

crate::on_both_engines!(
    teams_tied_at_the_cut_of_a_swiss_play_off_until_the_final_is_seeded,
    a_nominee_not_of_the_team_is_refused_and_nothing_is_written,
    a_level_final_is_decided_by_a_playoff_at_the_desk,
    a_playoff_game_is_a_table_whose_game_decides_it,
);

fn director() -> Actor {
    Actor::director()
}

fn refusal(r: Result<impl std::fmt::Debug, StoreError>) -> String {
    r.expect_err("refused").to_string()
}

/// Players 1…12 (P1…P12), teams of three (two boards and a reserve): A 1–3, B 4–6,
/// C 7–9, D 10–12.
fn players_and_teams(teams: usize) -> (Value, Value) {
    let players: Vec<Value> = (1..=3 * teams)
        .map(|i| json!({"id": i, "name": format!("P{i}"), "rating": 2000 - 10 * i}))
        .collect();
    let teams: Vec<Value> = (0..teams)
        .map(|t| {
            let first = 3 * t + 1;
            let name = ["A", "B", "C", "D"][t];
            json!({"id": t + 1, "name": name,
                   "players": [first, first + 1, first + 2]})
        })
        .collect();
    (json!(players), json!(teams))
}

/// The audit's actions and details for the tournament, those of its playoffs only.
fn playoff_audit(s: &Store, t: TournamentId) -> Vec<(String, String)> {
    s.audit_log(AuditFilter::Tournament(t))
        .expect("audit")
        .into_iter()
        .filter(|a| a.action.starts_with("playoff"))
        .map(|a| (a.action, a.details))
        .collect()
}

fn teams_tied_at_the_cut_of_a_swiss_play_off_until_the_final_is_seeded(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let t = s
        .import_tournament(&swiss_then_final(), &director())
        .expect("imported");
    let (c, d) = (TeamId(3), TeamId(4));
    // The rounds' pairing points to the playoff card.
    assert_eq!(
        refusal(s.pair_team_round(t, &director())),
        "the next step is a playoff between tied teams, whose captains name the players: pair \
         it with their nominees (the Rounds page's playoff card)"
    );
    assert_eq!(
        refusal(s.pair_team_playoff(t, &[(c, PlayerId(8))], &director())),
        "D has no nominee: its captain names one of its players for the playoff"
    );
    // C (the better seed) white first; D nominates its reserve.
    let n = s
        .pair_team_playoff(t, &[(c, PlayerId(8)), (d, PlayerId(12))], &director())
        .expect("paired");
    assert_eq!(n, RoundNo(2));
    let e = s.team_event(t).expect("read").expect("team");
    let games: Vec<(u32, u32, GameResult)> = e.stages[0]
        .playoffs
        .iter()
        .map(|g| (g.white.0, g.black.0, g.result))
        .collect();
    assert_eq!(games, [(8, 12, GameResult::Pending)]);
    assert_eq!(
        refusal(s.pair_team_playoff(t, &[], &director())),
        "no playoff game to pair: a playoff game has no result yet"
    );
    s.set_team_playoff_result(t, (1, 1), GameResult::Draw, &director())
        .expect("drawn");
    // Drawn: D's nominee white in the next game; both nominees are fixed now.
    let e = s.team_event(t).expect("read").expect("team");
    assert_eq!(
        e.next_step().expect("a playoff game"),
        TeamStep::Playoff {
            stage: 1,
            games: vec![(d, c, Some(PlayerId(12)), Some(PlayerId(8)))]
        }
    );
    assert_eq!(
        refusal(s.pair_team_playoff(t, &[(d, PlayerId(11))], &director())),
        "D nominated P12 in an earlier playoff game: P11 cannot play off for it (a team keeps \
         its nominee until the playoff ends)"
    );
    // The next game joins the stage's playoff round, as the import keeps them.
    assert_eq!(
        s.pair_team_playoff(t, &[], &director()).expect("paired"),
        RoundNo(2)
    );
    assert_eq!(
        refusal(s.set_team_playoff_result(t, (1, 3), GameResult::WhiteWins, &director())),
        "stage 1 has no playoff game 3"
    );
    // A result that would decide the playoff before the game played after it.
    assert_eq!(
        refusal(s.set_team_playoff_result(t, (1, 1), GameResult::BlackWins, &director())),
        "stages[0].playoffs[1]: the playoff is over: the cut is clear"
    );
    s.set_team_playoff_result(t, (1, 2), GameResult::WhiteWins, &director())
        .expect("D wins");
    let e = s.team_event(t).expect("read").expect("team");
    let order: Vec<(u32, u32)> = e
        .team_standings(Some(1))
        .expect("standings")
        .rows
        .iter()
        .map(|r| (r.rank, r.team.0))
        .collect();
    assert_eq!(order, [(1, 1), (2, 4), (2, 3), (4, 2)]);
    // The export is the spec's file: the playoff games in order, read back the same.
    let file = s.export_tournament(t).expect("exported");
    assert_eq!(
        file["stages"][0]["playoffs"],
        json!([{"white": 8, "black": 12, "result": "draw"},
               {"white": 12, "black": 8, "result": "white"}])
    );
    let again = s
        .import_tournament(&file, &director())
        .expect("re-imported");
    assert_eq!(
        s.team_event(again).expect("read").expect("team"),
        e,
        "the file read back is the event the desk played"
    );
    // The final is seeded: A (home) against D.
    let n = s
        .pair_team_round(t, &director())
        .expect("the final's round 1");
    assert_eq!(n, RoundNo(3));
    let view = s.team_rounds(t).expect("rounds").pop().expect("the round");
    assert_eq!(view.stage, 2);
    let first = view.round.games.first().expect("a game");
    assert_eq!((first.white, first.black), (PlayerId(1), PlayerId(10)));
    // While the final's draft stands, and once it is published, the playoff stays.
    assert_eq!(
        refusal(s.set_team_playoff_result(t, (1, 2), GameResult::Draw, &director())),
        "round 3 is a draft: publish it or discard it first"
    );
    s.publish_team_round(t, n, &director()).expect("published");
    assert_eq!(
        refusal(s.set_team_playoff_result(t, (1, 2), GameResult::Draw, &director())),
        "stage 2 has started: the playoff at the cut of stage 1 that seeded it keeps its results"
    );
    assert_eq!(
        playoff_audit(&s, t),
        [
            (
                "playoff paired".to_string(),
                "playoff at the cut of stage 1, round 2: P8 (C) – P12 (D)".to_string()
            ),
            (
                "playoff result entered".to_string(),
                "playoff at the cut of stage 1, game 1: P8 (C) – P12 (D): Draw".to_string()
            ),
            (
                "playoff paired".to_string(),
                "playoff at the cut of stage 1, round 2: P12 (D) – P8 (C)".to_string()
            ),
            (
                "playoff result entered".to_string(),
                "playoff at the cut of stage 1, game 2: P12 (D) – P8 (C): White wins".to_string()
            ),
        ]
    );
}

fn a_nominee_not_of_the_team_is_refused_and_nothing_is_written(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let t = s
        .import_tournament(&swiss_then_final(), &director())
        .expect("imported");
    let audit = s
        .audit_log(AuditFilter::Tournament(t))
        .expect("audit")
        .len();
    let before = s.export_tournament(t).expect("exported");
    assert_eq!(
        refusal(s.pair_team_playoff(
            t,
            &[(TeamId(3), PlayerId(10)), (TeamId(4), PlayerId(12))],
            &director()
        )),
        "P10 is not in the team C: a nominee is one of its players"
    );
    assert_eq!(
        refusal(s.pair_team_playoff(
            t,
            &[
                (TeamId(1), PlayerId(1)),
                (TeamId(3), PlayerId(8)),
                (TeamId(4), PlayerId(12))
            ],
            &director()
        )),
        "A does not play off now: it needs no nominee"
    );
    assert_eq!(
        s.audit_log(AuditFilter::Tournament(t))
            .expect("audit")
            .len(),
        audit
    );
    assert_eq!(s.export_tournament(t).expect("exported"), before);
}

/// The final between A and B (two boards, two rounds) played at the desk, every game drawn:
/// level on game points, the captains' nominees play off.
fn a_level_final_is_decided_by_a_playoff_at_the_desk(engine: Engine) {
    let (players, teams) = players_and_teams(2);
    let file = json!({
        "format": "ggdesk-tournament/2",
        "name": "League final",
        "settings": {"points": {"win": 2, "draw": 1, "loss": 0, "bye": 2, "forfeit_win": 2,
                                "forfeit_loss": 0, "absent": 0}},
        "team": {"boards": 2},
        "players": players,
        "teams": teams,
        "penalties": [],
        "stages": [{"name": "Final", "system": "scheveningen", "rounds": []}]
    });
    let mut s = engines::fresh_store(engine);
    let t = s.import_tournament(&file, &director()).expect("imported");
    for _ in 0..2 {
        let n = s.pair_team_round(t, &director()).expect("paired");
        s.publish_team_round(t, n, &director()).expect("published");
        for table in 1..=2 {
            s.set_team_board_result(t, n, TableNo(table), GameResult::Draw, &director())
                .expect("drawn");
        }
    }
    let e = s.team_event(t).expect("read").expect("team");
    assert_eq!(
        e.final_placement().expect_err("level").to_string(),
        "the final ended level on game points: the captains' nominees play off until one game \
         is won"
    );
    assert_eq!(
        refusal(s.pair_team_round(t, &director())),
        "the next step is a playoff between tied teams, whose captains name the players: pair \
         it with their nominees (the Rounds page's playoff card)"
    );
    let (a, b) = (TeamId(1), TeamId(2));
    let n = s
        .pair_team_playoff(t, &[(b, PlayerId(4)), (a, PlayerId(3))], &director())
        .expect("paired");
    assert_eq!(n, RoundNo(3));
    let e = s.team_event(t).expect("read").expect("team");
    assert_eq!(
        (e.stages[0].playoffs[0].white, e.stages[0].playoffs[0].black),
        (PlayerId(3), PlayerId(4)),
        "the better seed's nominee has white"
    );
    s.set_team_playoff_result(t, (1, 1), GameResult::BlackWins, &director())
        .expect("B wins");
    let e = s.team_event(t).expect("read").expect("team");
    let places: Vec<(u32, u32)> = e
        .final_placement()
        .expect("over")
        .iter()
        .map(|p| (p.place, p.team.0))
        .collect();
    assert_eq!(places, [(1, 2), (2, 1)]);
    assert_eq!(
        refusal(s.pair_team_playoff(t, &[], &director())),
        "no playoff game to pair: the event is over: every stage has been played"
    );
    let file = s.export_tournament(t).expect("exported");
    assert_eq!(
        file["stages"][0]["playoffs"],
        json!([{"white": 3, "black": 4, "result": "black"}])
    );
    assert_eq!(
        playoff_audit(&s, t),
        [
            (
                "playoff paired".to_string(),
                "playoff of the final (stage 1), round 3: P3 (A) – P4 (B)".to_string()
            ),
            (
                "playoff result entered".to_string(),
                "playoff of the final (stage 1), game 1: P3 (A) – P4 (B): Black wins".to_string()
            ),
        ]
    );
}

/// A playoff game is a table of its own (as any game): its game at the desk decides it in
/// the core's order, and its result is not typed on the Rounds page while it is played.
fn a_playoff_game_is_a_table_whose_game_decides_it(engine: Engine) {
    use ggdesk::store::NewGame;
    use ggdesk_core::game::GameMode;
    use ggdesk_core::record::TimedEvent;
    use ggdesk_core::rules::{Event, RuleSettings, Side};
    let mut s = engines::fresh_store(engine);
    let t = s
        .import_tournament(&swiss_then_final(), &director())
        .expect("imported");
    let (c, d) = (TeamId(3), TeamId(4));
    let n = s
        .pair_team_playoff(t, &[(c, PlayerId(8)), (d, PlayerId(12))], &director())
        .expect("paired");
    let (_, round) = s.tables_round(t).expect("tables");
    let round = round.expect("the playoff in play");
    assert_eq!(round.number, n);
    let seen: Vec<(u32, String, String, String)> = round
        .boards
        .iter()
        .map(|b| {
            (
                b.table.0,
                b.white.name.clone(),
                b.black.name.clone(),
                b.explanation.clone(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [(
            1,
            "P8".to_string(),
            "P12".to_string(),
            "Playoff at the cut of stage 1, game 1".to_string()
        )]
    );
    let arbiter = Actor::arbiter(Some(1));
    let new = NewGame::for_board(
        t,
        n,
        &round.boards[0],
        GameMode::Arbitrated,
        RuleSettings::default(),
    );
    let id = s.create_game(&new, &arbiter).expect("created");
    let setups = ggdesk_core::sim::random_setups(&mut |k| k / 2);
    for side in Side::BOTH {
        s.save_setup(id, side, &setups[side], &arbiter)
            .expect("setup");
    }
    s.start_game(id, 1_000_000, Side::White, &arbiter)
        .expect("started");
    assert_eq!(
        refusal(s.set_team_playoff_result(t, (1, 1), GameResult::Draw, &director())),
        format!(
            "table 1 is being played at the desk (game {id}): its result comes from the \
             arbiter; void the game on the Tables page if it must not count"
        )
    );
    s.append_event(
        id,
        TimedEvent {
            t: 1.0,
            event: Event::Resign(Side::Black),
        },
        &arbiter,
        "",
    )
    .expect("resigned");
    // P8 (C) won the playoff game at the table: C goes on with A, the final is seeded.
    let e = s.team_event(t).expect("read").expect("team");
    let games: Vec<(u32, u32, GameResult)> = e.stages[0]
        .playoffs
        .iter()
        .map(|g| (g.white.0, g.black.0, g.result))
        .collect();
    assert_eq!(games, [(8, 12, GameResult::WhiteWins)]);
    assert!(
        matches!(e.next_step(), Ok(TeamStep::Final { .. })),
        "{:?}",
        e.next_step()
    );
    let line = s
        .audit_log(AuditFilter::Game(id.0))
        .expect("audit")
        .into_iter()
        .find(|a| a.action == "playoff result from the arbiter desk")
        .expect("the playoff's line");
    assert_eq!(
        line.details,
        "playoff at the cut of stage 1, game 1: P8 (C) – P12 (D): White wins"
    );
}
