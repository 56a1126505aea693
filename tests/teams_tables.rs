//! A team event's boards at the tables (issue 33, spec/teams.md "Tables"), on both
//! engines: every filled board of a published round's matches is a table of its own at
//! (t−1)×B + b, run as any game at the desk; the game's result reaches its board (and the
//! match, and the round's completion); a void game puts its board back to pending; a
//! line-up change voids a game whose clocks have not started and is refused for one that
//! has, as is a result entered by hand for a board whose game is under way at the desk.

#[path = "support/engines.rs"]
mod engines;
#[path = "support/games.rs"]
mod games;
#[path = "support/pg.rs"]
mod pg;

use engines::Engine;
use ggdesk::store::{Actor, AuditFilter, GameId, NewGame, Store, StoreError, TournamentId};
use ggdesk_core::event::{BoardStatus, RoundState};
use ggdesk_core::export::import_team_players_csv;
use ggdesk_core::game::GameMode;
use ggdesk_core::record::TimedEvent;
use ggdesk_core::rules::{Event, RuleSettings, Side};
use ggdesk_core::teams::{TeamEvent, TeamId, TeamShape};
use ggdesk_core::tournament::{GameResult, PlayerId, PointsScale, RoundNo, TableNo};
use rand::SeedableRng;
use rand::rngs::StdRng;

crate::on_both_engines!(
    a_team_rounds_boards_are_tables_and_their_games_decide_the_boards,
    a_line_up_change_voids_a_game_not_started_and_spares_one_started,
);

fn director() -> Actor {
    Actor::director()
}

fn arbiter() -> Actor {
    Actor::arbiter(Some(1))
}

/// Four teams of two boards (Tigers with a reserve), round 1 paired and published: Tigers
/// v Sharks at table 1 (tables 1, 2), Eagles v Bears at table 2 (tables 3, 4).
fn four_teams_round_one(s: &mut Store) -> TournamentId {
    let e = TeamEvent::preset(TeamShape::Swiss, "Cup", PointsScale::default(), 2, 3);
    let t = s
        .create_team_event(&e, &RuleSettings::default(), &director())
        .expect("created");
    let rows = import_team_players_csv(
        "team,name,federation_id,club,rating\n\
         Tigers,Ana,,,1900\nTigers,Ben,,,1800\nTigers,Cid,,,1700\n\
         Eagles,Dee,,,1600\nEagles,Eve,,,1500\n\
         Sharks,Fay,,,1400\nSharks,Gil,,,1300\n\
         Bears,Hal,,,1200\nBears,Ivy,,,1100\n",
    )
    .expect("read");
    s.import_teams(t, &rows, &director()).expect("imported");
    let n = s.pair_team_round(t, &director()).expect("paired");
    s.publish_team_round(t, n, &director()).expect("published");
    t
}

/// (table, white, black, status, game) of every board the tables play.
fn tables(s: &Store, t: TournamentId) -> Vec<(u32, String, String, BoardStatus, Option<GameId>)> {
    let (_, round) = s.tables_round(t).expect("the tables");
    let round = round.expect("a round in play");
    assert_eq!(round.number, RoundNo(1));
    let from_page = s.playing_boards(t).expect("boards").expect("round");
    assert_eq!(from_page.1, round.boards, "the Tables page's boards");
    round
        .boards
        .iter()
        .map(|b| {
            (
                b.table.0,
                b.white.name.clone(),
                b.black.name.clone(),
                b.status,
                b.game,
            )
        })
        .collect()
}

fn at(t: f64, event: Event) -> TimedEvent {
    TimedEvent { t, event }
}

/// The game of the board at `table`, set up and started.
fn started_at_table(s: &mut Store, t: TournamentId, table: u32, seed: u64) -> GameId {
    let board = s
        .board_at(t, RoundNo(1), TableNo(table))
        .expect("read")
        .expect("a board there");
    let new = NewGame::for_board(
        t,
        RoundNo(1),
        &board,
        GameMode::Arbitrated,
        RuleSettings::default(),
    );
    let setups = games::random_both(&mut StdRng::seed_from_u64(seed));
    games::start_with(s, &new, &setups, 1_000_000, &arbiter()).expect("started")
}

fn board_result(s: &Store, t: TournamentId, table: u32) -> GameResult {
    let (_, round) = s.tables_round(t).expect("the tables");
    round
        .expect("round")
        .boards
        .iter()
        .find(|b| b.table == TableNo(table))
        .expect("the board")
        .result
}

fn a_team_rounds_boards_are_tables_and_their_games_decide_the_boards(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let t = four_teams_round_one(&mut s);
    let (name, _) = s.tables_round(t).expect("tables");
    assert_eq!(name, "Cup");
    let s4 = |x: &str| x.to_string();
    // Board 1: the home team's player has white; board 2: black.
    assert_eq!(
        tables(&s, t),
        [
            (1, s4("Ana"), s4("Fay"), BoardStatus::AwaitingResult, None),
            (2, s4("Gil"), s4("Ben"), BoardStatus::AwaitingResult, None),
            (3, s4("Dee"), s4("Hal"), BoardStatus::AwaitingResult, None),
            (4, s4("Ivy"), s4("Eve"), BoardStatus::AwaitingResult, None),
        ]
    );
    let board = s
        .board_at(t, RoundNo(1), TableNo(2))
        .expect("read")
        .expect("table 2");
    assert_eq!(board.explanation, "Board 2 of Tigers v Sharks (match 1)");
    assert_eq!(s.board_at(t, RoundNo(1), TableNo(5)).expect("read"), None);

    // A game at table 1, played to Black's resignation: the board is White's win.
    let id = started_at_table(&mut s, t, 1, 1);
    assert_eq!(tables(&s, t)[0].3, BoardStatus::Playing);
    assert_eq!(tables(&s, t)[0].4, Some(id));
    let e = games::first_legal(&s, id);
    s.append_event(id, at(1.0, e), &arbiter(), "")
        .expect("a move");
    s.append_event(id, at(2.0, Event::Resign(Side::Black)), &arbiter(), "")
        .expect("resigned");
    assert_eq!(board_result(&s, t, 1), GameResult::WhiteWins);
    assert_eq!(tables(&s, t)[0].3, BoardStatus::Finished);
    let line = s
        .audit_log(AuditFilter::Game(id.0))
        .expect("audit")
        .into_iter()
        .find(|a| a.action == "result from the arbiter desk")
        .expect("the board's line");
    assert_eq!(line.details, "round 1, table 1: white");
    let rounds = s.team_rounds(t).expect("rounds");
    assert_eq!(
        rounds[0].round.matches[0].boards[0].result,
        GameResult::WhiteWins
    );

    // Void and replayed: the board is pending again, its game the replay.
    let replay = s
        .void_and_replay(id, "the setups were swapped", &director())
        .expect("void");
    assert_eq!(board_result(&s, t, 1), GameResult::Pending);
    assert_eq!(tables(&s, t)[0].3, BoardStatus::SettingUp);
    assert_eq!(tables(&s, t)[0].4, Some(replay));

    // Every board decided at the desk: the round is complete, the match scored.
    for (table, seed) in [(2, 2), (3, 3), (4, 4)] {
        let g = started_at_table(&mut s, t, table, seed);
        s.append_event(g, at(1.0, Event::Resign(Side::White)), &arbiter(), "")
            .expect("resigned");
    }
    assert_eq!(
        s.team_rounds(t).expect("rounds")[0].state,
        RoundState::Published
    );
    for side in Side::BOTH {
        let setups = games::random_both(&mut StdRng::seed_from_u64(9));
        s.save_setup(replay, side, &setups[side], &arbiter())
            .expect("setup");
    }
    s.start_game(replay, 1_000_000, Side::White, &arbiter())
        .expect("started");
    s.append_event(replay, at(1.0, Event::Resign(Side::White)), &arbiter(), "")
        .expect("resigned");
    let rounds = s.team_rounds(t).expect("rounds");
    assert_eq!(rounds[0].state, RoundState::Complete);
    let results: Vec<GameResult> = rounds[0]
        .round
        .matches
        .iter()
        .flat_map(|m| m.boards.iter().map(|b| b.result))
        .collect();
    assert_eq!(
        results,
        [
            GameResult::BlackWins,
            GameResult::BlackWins,
            GameResult::BlackWins,
            GameResult::BlackWins
        ]
    );
    // The core's standings count the games played at the tables: Tigers lost at table 1
    // (white on board 1) and won at table 2 (black on board 2): one win, 2 game points.
    let e = s.team_event(t).expect("read").expect("a team event");
    let rows = e.team_standings(None).expect("standings").rows;
    let tigers = rows.iter().find(|r| r.team == TeamId(1)).expect("Tigers");
    assert_eq!(tigers.game_points, PointsScale::default().win);
}

fn a_line_up_change_voids_a_game_not_started_and_spares_one_started(engine: Engine) {
    let mut s = engines::fresh_store(engine);
    let t = four_teams_round_one(&mut s);
    let p = |n| Some(PlayerId(n));
    // A game at table 2 whose setups are being entered (clocks not started).
    let board = s
        .board_at(t, RoundNo(1), TableNo(2))
        .expect("read")
        .expect("table 2");
    let new = NewGame::for_board(
        t,
        RoundNo(1),
        &board,
        GameMode::Arbitrated,
        RuleSettings::default(),
    );
    let waiting = s.create_game(&new, &arbiter()).expect("created");
    // The captain puts the reserve on board 2 before the start: the waiting game was for
    // Ben, so it is voided and the board's table is free for Cid's.
    s.set_team_lineup(
        t,
        (RoundNo(1), 1),
        TeamId(1),
        &[p(1), p(3)],
        "",
        &director(),
    )
    .expect("line-up");
    assert!(s.load_game(waiting).expect("read").meta.void);
    let board = s
        .board_at(t, RoundNo(1), TableNo(2))
        .expect("read")
        .expect("table 2");
    assert_eq!((board.black.name.as_str(), board.game), ("Cid", None));
    let void = s
        .audit_log(AuditFilter::Game(waiting.0))
        .expect("audit")
        .into_iter()
        .find(|a| a.action == "game void")
        .expect("the void's line");
    assert_eq!(void.reason, "line-up changed before the game started");

    // A game started at table 1: its players stay, in the store's words, and nothing is
    // written.
    let id = started_at_table(&mut s, t, 1, 5);
    s.start_team_round(t, RoundNo(1), &director())
        .expect("the round starts");
    let refused = s
        .set_team_lineup(
            t,
            (RoundNo(1), 1),
            TeamId(1),
            &[p(2), p(3)],
            "Ana is ill",
            &director(),
        )
        .expect_err("refused");
    assert!(matches!(&refused, StoreError::Rejected(_)), "{refused:?}");
    assert_eq!(
        refused.to_string(),
        format!(
            "board 1 is played at table 1 (game {id}): its players do not change once its \
             clocks have started"
        )
    );
    assert!(!s.load_game(id).expect("read").meta.void);
    // Its result comes from the arbiter at the table, not from the Rounds page.
    let refused = s
        .set_team_board_result(t, RoundNo(1), TableNo(1), GameResult::Draw, &director())
        .expect_err("refused");
    assert_eq!(
        refused.to_string(),
        format!(
            "table 1 is being played at the desk (game {id}): its result comes from the \
             arbiter; void the game on the Tables page if it must not count"
        )
    );
    assert_eq!(
        s.team_rounds(t).expect("rounds")[0].round.matches[0].boards[0].result,
        GameResult::Pending
    );
    let board = s
        .board_at(t, RoundNo(1), TableNo(1))
        .expect("read")
        .expect("table 1");
    assert_eq!((board.white.name.as_str(), board.game), ("Ana", Some(id)));
}
