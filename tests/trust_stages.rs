//! Issue 20 on the event server, as the stations see it: a station reads an event's stages
//! through its views and runs the playoff games and the knockout's series games of its own
//! tables through its functions, like any other game; at another station's table it is
//! refused, naming the table, and nothing is written.

#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use event::{connect, games};
use ggdesk::store::{
    Actor, Address, AnyEvent, GameMode, NewGame, PlayerInput, RoundPlace, RoundState, Store,
    StoreError, TournamentId, TournamentSetup,
};
use ggdesk_core::rules::{Event, RuleSettings, Side};
use ggdesk_core::stages::{MatchFormat, Seeding, StageFormat, StageSpec};
use ggdesk_core::tournament::{GameResult, RoundNo, Score, StageNo, TableNo};

fn assert_denied<T: std::fmt::Debug>(r: Result<T, StoreError>, subject: &str, what: &str) {
    match r {
        Err(StoreError::Denied(m)) => assert!(
            m.contains(subject),
            "{what}: the refusal names {subject:?}: {m}"
        ),
        other => panic!("{what}: must be refused for this login, got {other:?}"),
    }
}

/// A Swiss of one round for eight (no tie-breaks: a tie at the cut is played off), the top
/// four into a knockout, race to 4 points (two wins).
fn staged(director: &mut Store) -> TournamentId {
    let d = Actor::director();
    let stages = [
        StageSpec {
            name: "Swiss".into(),
            format: StageFormat::Swiss { rounds: 1 },
            tiebreaks: Vec::new(),
            advance: Some(4),
        },
        StageSpec {
            name: "Finals".into(),
            format: StageFormat::Knockout {
                series: MatchFormat::RaceTo(Score::from_points(4)),
                seeding: Seeding::Standard,
                third_place: false,
            },
            tiebreaks: Vec::new(),
            advance: None,
        },
    ];
    let tid = director
        .create_staged_tournament(
            &TournamentSetup {
                name: "Staged open".into(),
                ..TournamentSetup::default()
            },
            &stages,
            &d,
        )
        .expect("tournament");
    for i in 0..8 {
        let p = director
            .add_player(
                &PlayerInput {
                    name: format!("Player st{i}"),
                    federation_id: format!("F-st-{i}"),
                    club: String::new(),
                    rating: 2000 - i64::from(i),
                },
                &d,
            )
            .expect("player");
        director.register(tid, p, &d).expect("register");
    }
    tid
}

/// The event of stages of a tournament, as `store` reads it.
fn staged_event(store: &Store, tid: TournamentId) -> ggdesk_core::stages::Event {
    store
        .event(tid)
        .expect("the event")
        .staged()
        .cloned()
        .expect("an event of stages")
}

/// The game of `table` in round `round`, created and started by `store`, then resigned by
/// Black. The round's completion, if this was its last game.
fn play_table(
    store: &mut Store,
    tid: TournamentId,
    round: RoundNo,
    table: u32,
) -> Result<Option<RoundNo>, StoreError> {
    let view = store.round_view(tid, round)?.expect("the round");
    let board = view
        .boards
        .iter()
        .find(|b| b.table == TableNo(table))
        .expect("the table")
        .clone();
    let new = NewGame::for_board(
        tid,
        round,
        &board,
        GameMode::Arbitrated,
        RuleSettings::default(),
    );
    let me = Actor::arbiter(Some(i64::from(table)));
    let id = games::start_with(
        store,
        &new,
        &event::setups(u64::from(table + round.0)),
        trust::START,
        &me,
    )?;
    let out = store.append(id, 3.0, AnyEvent::Game(Event::Resign(Side::Black)), &me, "")?;
    Ok(out.round_completed.map(|c| c.round))
}

#[test]
fn a_station_runs_playoff_and_series_games_at_its_tables_and_only_there() {
    let ev = trust::event();
    let d = Actor::director();
    let mut director = connect(&ev.url);
    director.set_now(trust::START);
    let tid = staged(&mut director);
    let n = director.pair_round(tid, &d).expect("pair").round;
    director.publish_round(tid, n, &d).expect("publish");
    // Three games won by White, one drawn: three players on 2 points, the two who drew
    // level on 1 point across the cut (one place left): they play off.
    let view = director.round_view(tid, n).expect("view").expect("round");
    let drawn = view.boards.last().expect("a board").board;
    for b in &view.boards {
        let r = if b.board == drawn {
            GameResult::Draw
        } else {
            GameResult::WhiteWins
        };
        director
            .set_result(tid, n, b.board, r, "", &d)
            .expect("result");
    }
    let drew = {
        let b = view.boards.last().expect("a board");
        let mut p = [b.white.no, b.black.no];
        p.sort_unstable();
        p
    };
    let (playoff, _) = director.start_next_games(tid, &d).expect("the playoff");
    let at_a_view = {
        let a = connect(&ev.a.url);
        a.round_view(tid, playoff)
            .expect("the station reads it")
            .expect("round")
    };
    assert_eq!(
        at_a_view.place,
        RoundPlace::Playoff {
            stage: StageNo(1),
            number: 1
        }
    );
    assert_eq!(at_a_view.boards.len(), 1);
    let b = &at_a_view.boards[0];
    let mut pair = [b.white.no, b.black.no];
    pair.sort_unstable();
    assert_eq!((b.table, pair), (TableNo(1), drew));

    // Hall-b may not run table 1, whatever the stage: refused, nothing written.
    let mut at_b = connect(&ev.b.url);
    at_b.set_now(trust::START);
    assert_denied(
        play_table(&mut at_b, tid, playoff, 1),
        "table 1 is not a table of station hall-b",
        "a playoff game at hall-a's table",
    );
    // Hall-a runs it; its result settles the cut and completes the playoff round.
    let mut at_a = connect(&ev.a.url);
    at_a.set_now(trust::START);
    assert_eq!(
        play_table(&mut at_a, tid, playoff, 1).expect("hall-a's playoff game"),
        Some(playoff)
    );
    // The station reads the event's stages and games as the director does (its views
    // hold no federation id).
    let at_station = staged_event(&at_a, tid);
    let full = staged_event(&director, tid);
    assert_eq!(at_station.parts().stages, full.parts().stages);
    assert_eq!(at_station.settings(), full.settings());
    assert!(
        at_station
            .players()
            .iter()
            .all(|p| p.federation_id.is_none())
    );

    // The knockout: two semi-finals at tables 1 and 2 (hall-a's).
    let (semis, _) = director.start_next_games(tid, &d).expect("the semi-finals");
    let view = director
        .round_view(tid, semis)
        .expect("view")
        .expect("round");
    let mut tables: Vec<TableNo> = view.boards.iter().map(|b| b.table).collect();
    tables.sort_unstable();
    assert_eq!(tables, [TableNo(1), TableNo(2)]);
    assert!(view.boards.iter().all(|b| b.series.is_some()));
    assert_denied(
        play_table(&mut at_b, tid, semis, 2),
        "table 2 is not a table of station hall-b",
        "a series game at hall-a's table",
    );
    assert_eq!(
        play_table(&mut at_a, tid, semis, 1).expect("game 1 of a semi"),
        None
    );
    assert_eq!(
        play_table(&mut at_a, tid, semis, 2).expect("game 1 of the other"),
        Some(semis)
    );
    // Each match's second game appears when the first is decided: the same two players,
    // colours alternated; hall-a runs it too.
    let (second, _) = director
        .start_next_games(tid, &d)
        .expect("the second games");
    let again = director
        .round_view(tid, second)
        .expect("view")
        .expect("round");
    for b in &again.boards {
        let first = view
            .boards
            .iter()
            .find(|x| x.series == b.series)
            .expect("the match");
        assert_eq!((b.white.no, b.black.no), (first.black.no, first.white.no));
    }
    play_table(&mut at_a, tid, second, 1).expect("game 2");
    play_table(&mut at_a, tid, second, 2).expect("game 2");
    assert_eq!(
        director
            .round_view(tid, second)
            .expect("view")
            .expect("round")
            .state,
        RoundState::Complete
    );

    // The public pages read the event as its public role: the same stages, rounds and
    // games, the players without their federation ids.
    let pages = Store::connect_read_only(&Address::Server(ev.url.clone())).expect("pages");
    let public_event = pages
        .public_event(tid)
        .expect("the public role reads it")
        .expect("the tournament");
    let public = public_event.staged().expect("an event in stages");
    let views: Vec<_> = public_event
        .rounds()
        .iter()
        .map(|r| public_event.round_view(r.number).expect("its view"))
        .collect();
    let full = staged_event(&director, tid);
    assert_eq!(public.parts().stages, full.parts().stages);
    assert_eq!(public.parts().settings.stages, full.parts().settings.stages);
    assert!(public.players().iter().all(|p| p.federation_id.is_none()));
    let desk = director.event(tid).expect("event");
    assert_eq!(
        views.iter().map(|v| v.place).collect::<Vec<_>>(),
        desk.rounds()
            .iter()
            .map(|r| desk.place(r.number).expect("its place"))
            .collect::<Vec<_>>()
    );
}
