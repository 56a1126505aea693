//! The desk's changes to a team event's teams through the store (issue 33, the Teams page),
//! on both engines: a team event created from a preset; teams added, renamed and removed;
//! registry players put into rosters in board order, moved, made captain and taken out; a
//! team players CSV checked row by row and imported all or nothing; each change one audited
//! transaction, each refusal in the core's words, and nothing changed once a round is
//! published.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/json.rs"]
mod json_support;
#[path = "support/pg.rs"]
mod pg;

use engines::Engine;
use ggdesk::store::{Actor, AuditFilter, PlayerInput, Store, StoreError, TournamentId};
use ggdesk_core::export::import_team_players_csv;
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::teams::{TeamEvent, TeamId, TeamShape};
use ggdesk_core::tournament::{PlayerId, PointsScale};
use json_support::{board_prize_rows, norm};

crate::on_both_engines!(
    teams_and_rosters_change_in_audited_steps,
    every_refusal_says_why_and_writes_nothing,
    a_team_csv_is_checked_then_imported_whole,
    nothing_changes_once_a_round_is_published,
    round_paired_published_lined_up_started_and_played,
    the_generals_league_example_played_at_the_desk_answers_as_expected,
    the_team_round_robin_example_played_at_the_desk_answers_as_expected,
    the_settings_are_corrected_before_round_1_keeping_the_teams,
    wrong_settings_are_refused_as_creation_refuses_them,
    the_settings_are_fixed_once_round_1_is_paired,
    a_player_withdrawn_after_round_1_leaves_the_next_default_line_up,
    a_withdrawal_is_refused_in_words_and_writes_nothing,
);

fn director() -> Actor {
    Actor::director()
}

/// A new team Swiss of three boards.
pub fn team_swiss(s: &mut Store) -> TournamentId {
    let e = TeamEvent::preset(
        TeamShape::Swiss,
        "Inter-Club Cup",
        PointsScale::default(),
        3,
        5,
    );
    s.create_team_event(&e, &RuleSettings::default(), &director())
        .expect("created")
}

fn registry_player(s: &mut Store, name: &str, fid: &str, rating: i64) -> ggdesk::store::RegistryId {
    s.add_player(
        &PlayerInput {
            name: name.into(),
            federation_id: fid.into(),
            club: String::new(),
            rating,
        },
        &director(),
    )
    .expect("added")
}

fn refusal(r: Result<impl std::fmt::Debug, StoreError>) -> String {
    r.expect_err("refused").to_string()
}

fn teams_and_rosters_change_in_audited_steps(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let t = team_swiss(&mut s);
    let a = s.add_team(t, " Tondo Tigers ", &director()).expect("team");
    let b = s.add_team(t, "Eagles", &director()).expect("team");
    assert_eq!((a, b), (TeamId(1), TeamId(2)));
    let ana = registry_player(&mut s, "Reyes, Ana", "PH-1", 1710);
    let ben = registry_player(&mut s, "Cruz, Ben", "", 1600);
    let cid = registry_player(&mut s, "Lim, Cid", "", 1500);
    assert_eq!(
        s.add_team_player(t, a, ana, &director()).ok(),
        Some(PlayerId(1))
    );
    assert_eq!(
        s.add_team_player(t, a, ben, &director()).ok(),
        Some(PlayerId(2))
    );
    assert_eq!(
        s.add_team_player(t, a, cid, &director()).ok(),
        Some(PlayerId(3))
    );
    s.move_team_player(t, PlayerId(3), 0, &director())
        .expect("moved");
    s.set_team_captain(t, a, Some(PlayerId(2)), &director())
        .expect("captain");
    s.rename_team(t, b, "Makati Eagles", &director())
        .expect("renamed");
    let e = s.team_event(t).expect("read").expect("a team event");
    let tigers = e.team(a).expect("team a");
    assert_eq!(tigers.name, "Tondo Tigers");
    assert_eq!(tigers.roster, [PlayerId(3), PlayerId(1), PlayerId(2)]);
    assert_eq!(tigers.captain, Some(PlayerId(2)));
    assert_eq!(e.team(b).expect("team b").name, "Makati Eagles");
    assert_eq!(
        e.player(PlayerId(1)).and_then(|p| p.federation_id.clone()),
        Some("PH-1".to_string())
    );
    // The captain taken out leaves the team without one and the event without the player.
    s.remove_team_player(t, PlayerId(2), &director())
        .expect("removed");
    s.remove_team(t, b, &director()).expect("removed");
    let e = s.team_event(t).expect("read").expect("a team event");
    assert_eq!(e.teams.len(), 1);
    assert_eq!(e.teams[0].captain, None);
    assert_eq!(e.players.len(), 2);
    let actions: Vec<String> = s
        .audit_log(AuditFilter::Tournament(t))
        .expect("audit")
        .into_iter()
        .map(|a| format!("{}: {}", a.action, a.details))
        .collect();
    assert_eq!(
        actions,
        [
            "tournament created: Inter-Club Cup: team event, 3 boards, stages swiss",
            "team added: team 1: Tondo Tigers",
            "team added: team 2: Eagles",
            "team player added: Reyes, Ana (player 1) into Tondo Tigers",
            "team player added: Cruz, Ben (player 2) into Tondo Tigers",
            "team player added: Lim, Cid (player 3) into Tondo Tigers",
            "roster reordered: Lim, Cid (player 3) to place 1",
            "team captain set: team 1: Cruz, Ben",
            "team renamed: team 2: Eagles -> Makati Eagles",
            "team player removed: Cruz, Ben (player 2)",
            "team removed: team 2: Makati Eagles, with 0 player(s)",
        ]
    );
    // A player of a team is not the desk's player of a tournament.
    assert_eq!(s.team_event(TournamentId(999)).ok().flatten(), None);
}

fn every_refusal_says_why_and_writes_nothing(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let t = team_swiss(&mut s);
    let a = s.add_team(t, "Tigers", &director()).expect("team");
    let b = s.add_team(t, "Eagles", &director()).expect("team");
    let ana = registry_player(&mut s, "Reyes, Ana", "", 1710);
    let ben = registry_player(&mut s, "Cruz, Ben", "", 1600);
    s.add_team_player(t, a, ana, &director()).expect("added");
    s.ban_player(ben, "collusion", None, &director())
        .expect("banned");
    // Teams still short of their three players are no file yet, in words.
    let short = refusal(s.export_tournament(t));
    assert!(
        short.starts_with(&format!(
            "tournament {t} has no file yet: its teams are not ready ("
        )),
        "{short}"
    );
    let before = s.team_event(t).ok();
    let audit = s.audit_log(AuditFilter::All).expect("audit").len();
    assert_eq!(
        refusal(s.add_team(t, "tigers", &director())),
        "there is already a team named tigers"
    );
    assert_eq!(
        refusal(s.add_team(t, "  ", &director())),
        "a team needs a name"
    );
    assert_eq!(
        refusal(s.add_team_player(t, b, ana, &director())),
        "Reyes, Ana is already in the team Tigers"
    );
    assert_eq!(
        refusal(s.add_team_player(t, b, ben, &director())),
        "Cruz, Ben is banned: a banned player cannot be registered"
    );
    assert_eq!(
        refusal(s.set_team_captain(t, b, Some(PlayerId(1)), &director())),
        "Reyes, Ana is not in the team Eagles: a captain is one of its players"
    );
    assert_eq!(
        refusal(s.remove_team(t, TeamId(9), &director())),
        "there is no team 9"
    );
    assert_eq!(s.team_event(t).ok(), before);
    assert_eq!(s.audit_log(AuditFilter::All).expect("audit").len(), audit);
    // An event of players has no teams.
    let solo = s
        .create_tournament(
            &ggdesk_core::event::TournamentSetup {
                name: "Open".into(),
                ..Default::default()
            },
            &director(),
        )
        .expect("created");
    assert_eq!(
        refusal(s.add_team(solo, "Tigers", &director())),
        format!("tournament {solo} is not a team event: its players are registered one by one")
    );
}

fn a_team_csv_is_checked_then_imported_whole(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let t = team_swiss(&mut s);
    let a = s.add_team(t, "Tigers", &director()).expect("team");
    let ana = registry_player(&mut s, "Reyes, Ana", "PH-1", 1710);
    s.add_team_player(t, a, ana, &director()).expect("added");
    let banned = registry_player(&mut s, "Sy, Dan", "PH-9", 1400);
    s.ban_player(banned, "collusion", None, &director())
        .expect("banned");
    let bad = import_team_players_csv(
        "team,name,federation_id,club,rating\n\
         Eagles,\"Reyes, Ana\",PH-1,,1710\n\
         Eagles,\"Sy, Dan\",PH-9,,1400\n\
         Eagles,Ed Go,,,1500\n",
    )
    .expect("read");
    let words: Vec<String> = s
        .check_teams_import(t, &bad)
        .expect("checked")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        words,
        [
            "line 2: Reyes, Ana is already in the team Tigers",
            "line 3: Sy, Dan is banned: a banned player cannot be registered",
        ]
    );
    let players = s.players().expect("registry").len();
    assert!(s.import_teams(t, &bad, &director()).is_err());
    assert_eq!(s.players().expect("registry").len(), players);
    assert_eq!(s.team_event(t).expect("read").expect("team").teams.len(), 1);

    let good = import_team_players_csv(
        "team,name,federation_id,club,rating\n\
         Eagles,Ed Go,PH-5,Makati,1500\n\
         tigers,Bo Tan,,,1600\n\
         Eagles,Fe Uy,,,1450\n",
    )
    .expect("read");
    assert!(s.check_teams_import(t, &good).expect("checked").is_empty());
    assert_eq!(s.import_teams(t, &good, &director()).ok(), Some(3));
    let e = s.team_event(t).expect("read").expect("team");
    let rosters: Vec<(String, Vec<String>)> = e
        .teams
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                t.roster
                    .iter()
                    .filter_map(|p| e.player(*p).map(|p| p.name.clone()))
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        rosters,
        [
            (
                "Tigers".to_string(),
                vec!["Reyes, Ana".to_string(), "Bo Tan".to_string()]
            ),
            (
                "Eagles".to_string(),
                vec!["Ed Go".to_string(), "Fe Uy".to_string()]
            ),
        ]
    );
    assert_eq!(s.players().expect("registry").len(), players + 3);
    let last = s.audit_log(AuditFilter::Tournament(t)).expect("audit");
    assert_eq!(
        last.last().map(|a| (a.action.as_str(), a.details.as_str())),
        Some((
            "teams imported",
            "3 players into teams from CSV (1 new teams)"
        ))
    );
}

fn nothing_changes_once_a_round_is_published(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/teams/team-swiss-with-bye.json");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("reads")).expect("JSON");
    let t = s.import_tournament(&file, &director()).expect("imported");
    let words = "the event has started: teams and rosters change before its first round only";
    assert_eq!(refusal(s.add_team(t, "Late", &director())), words);
    assert_eq!(
        refusal(s.move_team_player(t, PlayerId(1), 2, &director())),
        words
    );
    let rows = import_team_players_csv("team,name,federation_id,club,rating\nLate,Al,,,1\n")
        .expect("read");
    assert_eq!(refusal(s.check_teams_import(t, &rows)), words);
}

/// Three teams of two boards (the first with a reserve), by CSV.
fn three_teams(s: &mut Store) -> TournamentId {
    let e = TeamEvent::preset(TeamShape::Swiss, "Cup", PointsScale::default(), 2, 3);
    let t = s
        .create_team_event(&e, &RuleSettings::default(), &director())
        .expect("created");
    let rows = import_team_players_csv(
        "team,name,federation_id,club,rating\n\
         Tigers,Ana,,,1900\nTigers,Ben,,,1800\nTigers,Cid,,,1700\n\
         Eagles,Dee,,,1600\nEagles,Eve,,,1500\n\
         Sharks,Fay,,,1400\nSharks,Gil,,,1300\n",
    )
    .expect("read");
    s.import_teams(t, &rows, &director()).expect("imported");
    t
}

fn round_paired_published_lined_up_started_and_played(engine: Engine) {
    use ggdesk_core::event::RoundState;
    use ggdesk_core::tournament::{GameResult, RoundNo, TableNo};
    let mut s = engines::fresh_store(engine);
    let t = three_teams(&mut s);
    let n = s.pair_team_round(t, &director()).expect("paired");
    assert_eq!(n, RoundNo(1));
    // A draft is the desk's: the event as the core reads it has no round yet, and the
    // next pairing waits for it.
    let e = s.team_event(t).expect("read").expect("team");
    assert!(e.stages[0].rounds.is_empty());
    assert_eq!(
        refusal(s.pair_team_round(t, &director())),
        "round 1 is a draft: publish it or discard it first"
    );
    let rounds = s.team_rounds(t).expect("rounds");
    let r = &rounds[0];
    assert_eq!(r.state, RoundState::Draft);
    // By seed: Tigers (1850) against Eagles (1550) on table 1, Sharks' bye.
    assert_eq!(r.round.matches.len(), 1);
    let m = &r.round.matches[0];
    assert_eq!((m.home, m.away), (TeamId(1), TeamId(2)));
    assert_eq!(r.round.byes, [TeamId(3)]);
    // Board 1: home white; board 2: home black. The default line-ups are the first two.
    let p = |n| Some(PlayerId(n));
    let sides: Vec<_> = m.boards.iter().map(|b| (b.white, b.black)).collect();
    assert_eq!(sides, [(p(1), p(4)), (p(5), p(2))]);
    // While the draft stands the teams stay as they are.
    assert_eq!(
        refusal(s.add_team(t, "Late", &director())),
        "round 1 is paired as a draft: discard it on the Rounds page before the teams change"
    );
    s.discard_team_draft(t, n, &director()).expect("discarded");
    assert!(s.team_rounds(t).expect("rounds").is_empty());
    let n = s.pair_team_round(t, &director()).expect("paired again");
    s.publish_team_round(t, n, &director()).expect("published");

    // The captain's line-up, checked by the core's rule in its words.
    assert_eq!(
        refusal(s.set_team_lineup(t, (n, 1), TeamId(1), &[p(3), p(1)], "", &director())),
        "board 2: player 1 plays board 2 but comes after player 3 (board 1) in the roster of \
         team 1: boards follow the roster order"
    );
    assert_eq!(
        refusal(s.set_team_lineup(t, (n, 1), TeamId(1), &[p(1), p(4)], "", &director())),
        "board 2: player 4 is not in team 1"
    );
    s.set_team_lineup(t, (n, 1), TeamId(1), &[p(1), p(3)], "", &director())
        .expect("the reserve plays board 2");
    s.start_team_round(t, n, &director()).expect("started");
    // After the start a change is a correction with its reason.
    assert_eq!(
        refusal(s.set_team_lineup(t, (n, 1), TeamId(1), &[p(2), p(3)], "", &director())),
        "the round has started: a line-up changed now is a correction, give its reason"
    );
    s.set_team_lineup(
        t,
        (n, 1),
        TeamId(1),
        &[p(1), p(2)],
        "Cid fell ill before the clocks started",
        &director(),
    )
    .expect("corrected");
    let m = &s.team_rounds(t).expect("rounds")[0].round.matches[0];
    let sides: Vec<_> = m.boards.iter().map(|b| (b.white, b.black)).collect();
    assert_eq!(sides, [(p(1), p(4)), (p(5), p(2))]);
    // Results per board, at tables 1 and 2 (match table 1, B = 2).
    s.set_team_board_result(t, n, TableNo(1), GameResult::WhiteWins, &director())
        .expect("result");
    assert_eq!(
        s.team_rounds(t).expect("rounds")[0].state,
        RoundState::Published
    );
    // A board with a result keeps its players.
    assert_eq!(
        refusal(s.set_team_lineup(t, (n, 1), TeamId(1), &[p(2), p(3)], "swap", &director())),
        "board 1 has a result (White wins): take it back before its players change"
    );
    s.set_team_board_result(t, n, TableNo(2), GameResult::Draw, &director())
        .expect("result");
    assert_eq!(
        s.team_rounds(t).expect("rounds")[0].state,
        RoundState::Complete
    );
    let e = s.team_event(t).expect("read").expect("team");
    let standings = e.team_standings(None).expect("standings");
    let top: Vec<(u32, String)> = standings
        .rows
        .iter()
        .map(|r| (r.team.0, r.match_points.to_string()))
        .collect();
    assert_eq!(
        top,
        [
            (1, "2".to_string()),
            (3, "1".to_string()),
            (2, "0".to_string())
        ]
    );
    let audit: Vec<(String, String)> = s
        .audit_log(AuditFilter::Tournament(t))
        .expect("audit")
        .into_iter()
        .filter(|a| a.action.starts_with("line-up"))
        .map(|a| (a.action, a.reason))
        .collect();
    assert_eq!(
        audit,
        [
            ("line-up set".to_string(), String::new()),
            (
                "line-up corrected".to_string(),
                "Cid fell ill before the clocks started".to_string()
            )
        ]
    );
    // The next round is paired from the published ones.
    assert_eq!(s.pair_team_round(t, &director()).ok(), Some(RoundNo(2)));
}

/// A result seen from the other side of the board.
fn mirrored(r: ggdesk_core::tournament::GameResult) -> ggdesk_core::tournament::GameResult {
    use ggdesk_core::tournament::GameResult as G;
    match r {
        G::WhiteWins => G::BlackWins,
        G::BlackWins => G::WhiteWins,
        G::WhiteWinsByForfeit => G::BlackWinsByForfeit,
        G::BlackWinsByForfeit => G::WhiteWinsByForfeit,
        other => other,
    }
}

/// The shared Generals League example played at the desk: its teams imported without
/// rounds, every round paired by the desk and given the example's results (the desk's
/// colours may differ from the file's in the board groups, which only the pairs bind), and
/// the event then answers as the example expects: the final's standings, the board prizes
/// and the next pairing.
fn the_generals_league_example_played_at_the_desk_answers_as_expected(engine: Engine) {
    use ggdesk_core::tournament::{GameResult, TableNo};
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/teams");
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).expect("reads"))
            .expect("JSON")
    };
    let file = read("board-groups-then-final.json");
    let expected = read("board-groups-then-final.expected.json");
    let mut empty = file.clone();
    for st in empty["stages"].as_array_mut().expect("stages") {
        st["rounds"] = serde_json::json!([]);
    }
    let mut s = engines::fresh_store(engine);
    let t = s.import_tournament(&empty, &director()).expect("imported");
    // (stage, round within it) of every round the file played.
    let played: Vec<(usize, usize)> = file["stages"]
        .as_array()
        .expect("stages")
        .iter()
        .enumerate()
        .flat_map(|(k, st)| (0..st["rounds"].as_array().map_or(0, Vec::len)).map(move |r| (k, r)))
        .collect();
    for (k, r) in played {
        let n = s.pair_team_round(t, &director()).expect("paired");
        s.publish_team_round(t, n, &director()).expect("published");
        let view = s.team_rounds(t).expect("rounds").pop().expect("the round");
        assert_eq!(view.stage, k + 1);
        let games = file["stages"][k]["rounds"][r]["games"]
            .as_array()
            .expect("games");
        assert_eq!(view.round.games.len(), games.len());
        for g in &view.round.games {
            let (w, b) = (u64::from(g.white.0), u64::from(g.black.0));
            let theirs = games
                .iter()
                .find(|x| {
                    let (xw, xb) = (x["white"].as_u64(), x["black"].as_u64());
                    (xw, xb) == (Some(w), Some(b)) || (xw, xb) == (Some(b), Some(w))
                })
                .unwrap_or_else(|| panic!("stage {k} round {r}: the file has no {w}-{b}"));
            let result = GameResult::from_name(theirs["result"].as_str().expect("result"))
                .expect("a result");
            let result = if theirs["white"].as_u64() == Some(w) {
                result
            } else {
                mirrored(result)
            };
            let table = TableNo(g.table.expect("a table"));
            s.set_team_board_result(t, n, table, result, &director())
                .expect("result");
        }
    }
    let e = s.team_event(t).expect("read").expect("team");
    let standings = e.team_standings(None).expect("standings").to_json();
    let rows: Vec<serde_json::Value> = standings
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| serde_json::json!([r["rank"], r["team"], r["match_points"], r["game_points"]]))
        .collect();
    assert_eq!(
        norm(&serde_json::json!(rows)),
        norm(&expected["standings_teams"])
    );
    let boards = board_prize_rows(&ggdesk_core::teams::board_prizes_json(&e.board_prizes()));
    assert_eq!(norm(&boards), norm(&expected["boards"]));
    assert_eq!(
        norm(&e.next_step().expect("the next round").to_json()),
        norm(&expected["pair"])
    );
}

/// The shared team round robin example played at the desk: its teams imported without
/// rounds; every round paired by the desk (the same matches and byes as the file's), each
/// team's line-up set as the file has it (reserves and empty boards included), the round
/// started and every board given the file's result; the event then answers as the example
/// expects. (The team Swiss example's rounds are not the Swiss engine's pairings, which the
/// file does not have to be: it cannot be replayed so.)
fn the_team_round_robin_example_played_at_the_desk_answers_as_expected(engine: Engine) {
    use ggdesk_core::tournament::{GameResult, TableNo};
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/teams");
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).expect("reads"))
            .expect("JSON")
    };
    let file = read("team-round-robin.json");
    let expected = read("team-round-robin.expected.json");
    let boards = file["team"]["boards"].as_u64().expect("boards") as usize;
    let mut empty = file.clone();
    empty["stages"][0]["rounds"] = serde_json::json!([]);
    let mut s = engines::fresh_store(engine);
    let t = s.import_tournament(&empty, &director()).expect("imported");
    let pid = |v: &serde_json::Value| v.as_u64().map(|n| PlayerId(n as u32));
    let rounds = file["stages"][0]["rounds"].as_array().expect("rounds");
    let pair_of = |m: &serde_json::Value| {
        let (h, a) = (
            m["home"].as_u64().unwrap_or(0),
            m["away"].as_u64().unwrap_or(0),
        );
        (h.min(a), h.max(a))
    };
    for _ in rounds {
        let n = s.pair_team_round(t, &director()).expect("paired");
        s.publish_team_round(t, n, &director()).expect("published");
        let view = s.team_rounds(t).expect("rounds").pop().expect("the round");
        // The file's round with the same pairs of teams (its order and home teams are the
        // file's own: the Berger tables may give them otherwise).
        let mut ours: Vec<(u64, u64)> = view
            .round
            .matches
            .iter()
            .map(|m| {
                let (h, a) = (u64::from(m.home.0), u64::from(m.away.0));
                (h.min(a), h.max(a))
            })
            .collect();
        ours.sort();
        let round = rounds
            .iter()
            .find(|r| {
                let mut theirs: Vec<(u64, u64)> = r["matches"]
                    .as_array()
                    .map(|ms| ms.iter().map(pair_of).collect())
                    .unwrap_or_default();
                theirs.sort();
                theirs == ours
            })
            .unwrap_or_else(|| panic!("the file has no round of {ours:?}"));
        let theirs = round["matches"].as_array().expect("matches");
        let file_match = |m: &ggdesk_core::teams::TeamMatch| {
            let key = {
                let (h, a) = (u64::from(m.home.0), u64::from(m.away.0));
                (h.min(a), h.max(a))
            };
            theirs
                .iter()
                .find(|x| pair_of(x) == key)
                .expect("the file's match")
        };
        for (i, m) in view.round.matches.iter().enumerate() {
            let fm = file_match(m);
            let fb = fm["boards"].as_array().expect("boards");
            // A team's line-up as the file has it: the file's home team white on odd boards.
            let lineup = |team: TeamId| -> Vec<Option<PlayerId>> {
                let home = fm["home"].as_u64() == Some(u64::from(team.0));
                fb.iter()
                    .enumerate()
                    .map(|(b, g)| {
                        let white = (b % 2 == 0) == home;
                        pid(&g[if white { "white" } else { "black" }])
                    })
                    .collect()
            };
            s.set_team_lineup(t, (n, i + 1), m.home, &lineup(m.home), "", &director())
                .expect("home line-up");
            s.set_team_lineup(t, (n, i + 1), m.away, &lineup(m.away), "", &director())
                .expect("away line-up");
        }
        s.start_team_round(t, n, &director()).expect("started");
        let view = s.team_rounds(t).expect("rounds").pop().expect("the round");
        for (i, m) in view.round.matches.iter().enumerate() {
            let fm = file_match(m);
            let same = fm["home"].as_u64() == Some(u64::from(m.home.0));
            let table = m.table.unwrap_or(i as u32 + 1);
            for (b, g) in m.boards.iter().enumerate() {
                if g.white.is_none() || g.black.is_none() {
                    continue;
                }
                let result =
                    GameResult::from_name(fm["boards"][b]["result"].as_str().expect("result"))
                        .expect("a result");
                let result = if same { result } else { mirrored(result) };
                let at = TableNo((table - 1) * boards as u32 + b as u32 + 1);
                s.set_team_board_result(t, n, at, result, &director())
                    .expect("result");
            }
        }
    }
    let e = s.team_event(t).expect("read").expect("team");
    let standings = e.team_standings(None).expect("standings").to_json();
    let columns: Vec<&str> = expected["standings_teams_columns"]
        .as_array()
        .expect("columns")
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    let rows: Vec<serde_json::Value> = standings
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| serde_json::Value::Array(columns.iter().map(|c| r[*c].clone()).collect()))
        .collect();
    assert_eq!(
        norm(&serde_json::json!(rows)),
        norm(&expected["standings_teams"])
    );
    let boards = board_prize_rows(&ggdesk_core::teams::board_prizes_json(&e.board_prizes()));
    assert_eq!(norm(&boards), norm(&expected["boards"]));
    // The example expects no next round (`pair` exits 2): the desk refuses in the core's
    // words.
    assert_eq!(expected["pair"], serde_json::json!({"exit": 2}));
    let why = e
        .next_step()
        .map(|s| s.to_json())
        .expect_err("no next round");
    assert_eq!(refusal(s.pair_team_round(t, &director())), why.to_string());
}

/// The audit log's last "settings changed" line of a tournament.
fn settings_audit(s: &Store, t: TournamentId) -> Vec<String> {
    s.audit_log(AuditFilter::Tournament(t))
        .expect("audit")
        .into_iter()
        .filter(|a| a.action == "settings changed")
        .map(|a| a.details)
        .collect()
}

fn the_settings_are_corrected_before_round_1_keeping_the_teams(engine: Engine) {
    use ggdesk_core::tournament::Score;
    let mut s = engines::fresh_store(engine);
    let t = three_teams(&mut s);
    let before = s.team_event(t).expect("read").expect("team");
    s.set_team_captain(t, TeamId(1), Some(PlayerId(2)), &director())
        .expect("captain");
    let points = PointsScale {
        win: Score::from_points(3),
        ..PointsScale::default()
    };
    let rules = RuleSettings {
        move_limit_ns: 90_000_000_000,
        ..RuleSettings::default()
    };
    let new = TeamEvent::preset(TeamShape::Swiss, " Open Cup ", points, 3, 7);
    s.set_team_event_settings(t, &new, &rules, &director())
        .expect("changed");
    let after = s.team_event(t).expect("read").expect("team");
    assert_eq!(after.name, "Open Cup");
    assert_eq!(after.points, points);
    assert_eq!(after.settings.boards, 3);
    assert_eq!(after.stages[0].round_count, Some(7));
    assert_eq!(after.players, before.players);
    assert_eq!(after.teams[0].captain, Some(PlayerId(2)));
    let rosters = |e: &TeamEvent| -> Vec<(String, Vec<PlayerId>)> {
        e.teams
            .iter()
            .map(|t| (t.name.clone(), t.roster.clone()))
            .collect()
    };
    assert_eq!(rosters(&after), rosters(&before));
    assert_eq!(s.team_event_rules(t).expect("rules"), rules);
    let listed = s.tournaments().expect("list");
    assert_eq!(
        listed.iter().find(|x| x.id == t).map(|x| x.name.clone()),
        Some("Open Cup".to_string())
    );
    // Another shape: the round robin's stage in place of the Swiss's.
    let rr = TeamEvent::preset(TeamShape::RoundRobin, "Open Cup", points, 2, 7);
    s.set_team_event_settings(t, &rr, &rules, &director())
        .expect("changed");
    let after = s.team_event(t).expect("read").expect("team");
    assert_eq!(after.shape(), Some(TeamShape::RoundRobin));
    assert_eq!(rosters(&after), rosters(&before));
    assert_eq!(
        settings_audit(&s, t),
        [
            "name Cup -> Open Cup; boards 2 -> 3; Swiss rounds 3 -> 7; points for win 2 -> 3; \
             rules.move_limit_s 120 -> 90",
            "stages swiss -> round_robin; boards 3 -> 2; Swiss rounds 7 -> none"
        ]
    );
}

fn wrong_settings_are_refused_as_creation_refuses_them(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let t = three_teams(&mut s);
    let rules = RuleSettings::default();
    let preset = |name: &str, boards, rounds| {
        TeamEvent::preset(
            TeamShape::Swiss,
            name,
            PointsScale::default(),
            boards,
            rounds,
        )
    };
    let mut try_it = |e: TeamEvent| refusal(s.set_team_event_settings(t, &e, &rules, &director()));
    assert_eq!(try_it(preset("  ", 2, 3)), "a tournament needs a name");
    assert_eq!(
        try_it(preset("Cup", 0, 3)),
        "team.boards: must be a positive integer"
    );
    assert_eq!(
        try_it(preset("Cup", 2, 0)),
        "stages[0].round_count: must be a positive integer"
    );
    // The same words as creating such an event.
    assert_eq!(
        refusal(s.create_team_event(&preset("Cup", 0, 3), &rules, &director())),
        "team.boards: must be a positive integer"
    );
    let e = s.team_event(t).expect("read").expect("team");
    assert_eq!((e.name.as_str(), e.settings.boards), ("Cup", 2));
    assert!(settings_audit(&s, t).is_empty());
}

fn the_settings_are_fixed_once_round_1_is_paired(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let t = three_teams(&mut s);
    let new = TeamEvent::preset(TeamShape::Swiss, "Cup", PointsScale::default(), 3, 7);
    let rules = RuleSettings::default();
    let n = s.pair_team_round(t, &director()).expect("paired");
    let file = s.export_tournament(t).expect("exported");
    assert_eq!(
        refusal(s.set_team_event_settings(t, &new, &rules, &director())),
        "round 1 is paired as a draft: discard it on the Rounds page before the settings change"
    );
    s.publish_team_round(t, n, &director()).expect("published");
    let file = {
        let published = s.export_tournament(t).expect("exported");
        assert_ne!(published, file);
        published
    };
    assert_eq!(
        refusal(s.set_team_event_settings(t, &new, &rules, &director())),
        "round 1 is paired: the event's settings are fixed from round 1 on (its pairings \
         depend on its shape, boards, rounds and points)"
    );
    assert_eq!(s.export_tournament(t).expect("exported"), file);
    assert!(settings_audit(&s, t).is_empty());
}

/// The sides (home, away) of team `team`'s match in round `n` as the desk paired it, home
/// side first.
fn lineup_in(
    s: &Store,
    t: TournamentId,
    n: ggdesk_core::tournament::RoundNo,
    team: TeamId,
) -> Vec<Option<PlayerId>> {
    let rounds = s.team_rounds(t).expect("rounds");
    let r = rounds.iter().find(|r| r.number == n).expect("the round");
    let m = r
        .round
        .matches
        .iter()
        .find(|m| m.home == team || m.away == team)
        .expect("the team plays a match");
    (0..m.boards.len())
        .map(|b| {
            let (home, away) = m.sides(b).expect("a board");
            if m.home == team { home } else { away }
        })
        .collect()
}

fn a_player_withdrawn_after_round_1_leaves_the_next_default_line_up(engine: Engine) {
    use ggdesk_core::tournament::{GameResult, TableNo};
    let mut s = engines::fresh_store(engine);
    let t = three_teams(&mut s);
    // Before the start a withdrawal needs no reason; back again.
    s.set_team_player_withdrawn(t, PlayerId(1), true, "", &director())
        .expect("withdrawn before the start");
    s.set_team_player_withdrawn(t, PlayerId(1), false, "", &director())
        .expect("back");
    // Round 1: Tigers against Eagles, Sharks' bye; Tigers win both boards.
    let n = s.pair_team_round(t, &director()).expect("paired");
    s.publish_team_round(t, n, &director()).expect("published");
    s.start_team_round(t, n, &director()).expect("started");
    s.set_team_board_result(t, n, TableNo(1), GameResult::WhiteWins, &director())
        .expect("result");
    s.set_team_board_result(t, n, TableNo(2), GameResult::BlackWins, &director())
        .expect("result");
    let round_1 = s.team_rounds(t).expect("rounds");
    // Ben (Tigers' board 2, Cid their reserve) and Gil (Sharks' board 2, no reserve) fall ill.
    s.set_team_player_withdrawn(t, PlayerId(2), true, "ill", &director())
        .expect("withdrawn");
    s.set_team_player_withdrawn(t, PlayerId(7), true, "ill too", &director())
        .expect("withdrawn");
    assert_eq!(
        s.team_rounds(t).expect("rounds"),
        round_1,
        "round 1 unchanged"
    );
    let e = s.team_event(t).expect("read").expect("team");
    assert!(e.player(PlayerId(2)).is_some_and(|p| p.withdrawn));
    // Round 2: Tigers (2) against Sharks (bye, 1), Eagles' bye.
    let n2 = s.pair_team_round(t, &director()).expect("round 2 paired");
    let p = |n| Some(PlayerId(n));
    assert_eq!(
        lineup_in(&s, t, n2, TeamId(1)),
        [p(1), p(3)],
        "the reserve moves up"
    );
    assert_eq!(
        lineup_in(&s, t, n2, TeamId(3)),
        [p(6), None],
        "board 2 left empty"
    );
    // The file says so, and a file read back keeps it.
    let file = s.export_tournament(t).expect("exported");
    let flags: Vec<(u64, bool)> = file["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| {
            (
                p["id"].as_u64().expect("id"),
                p.get("withdrawn") == Some(&serde_json::json!(true)),
            )
        })
        .collect();
    assert_eq!(
        flags,
        [
            (1, false),
            (2, true),
            (3, false),
            (4, false),
            (5, false),
            (6, false),
            (7, true)
        ]
    );
    let back = s.import_tournament(&file, &director()).expect("imported");
    let e2 = s.team_event(back).expect("read").expect("team");
    assert_eq!(e2.players, e.players);
    // Ben back: round 2 paired again has him on board 2 again.
    s.discard_team_draft(t, n2, &director()).expect("discarded");
    s.set_team_player_withdrawn(t, PlayerId(2), false, "recovered", &director())
        .expect("back");
    let n2 = s.pair_team_round(t, &director()).expect("round 2 paired");
    assert_eq!(lineup_in(&s, t, n2, TeamId(1)), [p(1), p(2)]);
    let audit: Vec<(String, String, String)> = s
        .audit_log(AuditFilter::Tournament(t))
        .expect("audit")
        .into_iter()
        .filter(|a| a.action.starts_with("player"))
        .map(|a| (a.action, a.reason, a.details))
        .collect();
    let row = |a: &str, r: &str, d: &str| (a.to_string(), r.to_string(), d.to_string());
    assert_eq!(
        audit,
        [
            row("player withdrawn", "", "Ana (player 1) of Tigers"),
            row("player back", "", "Ana (player 1) of Tigers"),
            row("player withdrawn", "ill", "Ben (player 2) of Tigers"),
            row("player withdrawn", "ill too", "Gil (player 7) of Sharks"),
            row("player back", "recovered", "Ben (player 2) of Tigers"),
        ]
    );
}

fn a_withdrawal_is_refused_in_words_and_writes_nothing(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let t = three_teams(&mut s);
    let n = s.pair_team_round(t, &director()).expect("paired");
    s.publish_team_round(t, n, &director()).expect("published");
    s.set_team_player_withdrawn(t, PlayerId(4), true, "ill", &director())
        .expect("withdrawn");
    let solo = s
        .create_tournament(
            &ggdesk_core::event::TournamentSetup {
                name: "Open".into(),
                ..Default::default()
            },
            &director(),
        )
        .expect("created");
    let before = s.team_event(t).ok();
    let audit = s.audit_log(AuditFilter::All).expect("audit").len();
    let mut no = |p, w, reason: &str| {
        refusal(s.set_team_player_withdrawn(t, PlayerId(p), w, reason, &director()))
    };
    assert_eq!(
        no(2, true, ""),
        "the event has started: withdrawing a player needs a reason"
    );
    assert_eq!(
        no(4, false, " "),
        "the event has started: bringing a player back needs a reason"
    );
    assert_eq!(no(4, true, "ill"), "Dee is withdrawn already");
    assert_eq!(no(1, false, "well"), "Ana is not withdrawn");
    assert_eq!(no(99, true, "ill"), "there is no player 99 in a team");
    assert_eq!(
        refusal(s.set_team_player_withdrawn(solo, PlayerId(1), true, "ill", &director())),
        format!("tournament {solo} is not a team event: its players are registered one by one")
    );
    assert_eq!(s.team_event(t).ok(), before);
    assert_eq!(s.audit_log(AuditFilter::All).expect("audit").len(), audit);
}
