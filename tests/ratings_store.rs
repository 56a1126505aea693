//! The rating list in the store, on both engines: marking completed tournaments rated, the
//! list as the core's fold computes it from the exported files, rebuilt in the transaction of
//! a changed result (equal to the list computed from scratch, named in the audit log),
//! unrating and moving a date, first ratings from the players CSV, registrations seeded by
//! the list, and the public role's views.

use ggdesk::store::{
    Actor, Address, AuditFilter, PlayerInput, RatingRow, Store, StoreError, TournamentId,
    TournamentSetup,
};
use ggdesk_core::Refusal;
use ggdesk_core::rating::list::list_csv;
use ggdesk_core::rating::{
    Config, Date, ListRow, Played, RatedEvent, RatedGame, event_file, rate_all,
};
use ggdesk_core::tournament::{BoardNo, GameResult, PlayerId, RoundNo, TableNo};
use serde_json::{Value, json};
use std::collections::BTreeMap;

#[path = "support/engines.rs"]
mod engines;
#[path = "support/pg.rs"]
mod pg;
use engines::Engine;

crate::on_both_engines!(
    rated_events_give_the_list_the_files_give,
    an_incomplete_tournament_cannot_be_rated,
    a_changed_result_rebuilds_the_list_as_from_scratch_and_says_so,
    unrating_and_moving_a_date_rebuild_the_list,
    first_ratings_from_the_players_csv_and_registrations_seeded_by_the_list,
    a_federation_id_taken_away_takes_the_player_off_the_list,
    re_pairing_the_last_round_of_a_rated_event_rebuilds_the_list,
    a_copy_carries_the_rated_events_first_ratings_and_the_list,
    a_team_event_is_rated_by_its_games_over_the_board,
    a_team_event_not_over_cannot_be_rated,
);

fn director() -> Actor {
    Actor::director()
}

fn date(s: &str) -> Date {
    Date::parse(s).expect("a date")
}

/// A complete Swiss of `rounds` rounds among players `ids` (federation ids `GGF-<id>`),
/// results from `seed`: some over the board, some forfeits.
fn event_file_value(name: &str, ids: &[u32], rounds: usize, seed: u32) -> Value {
    let players: Vec<Value> = ids
        .iter()
        .map(|i| json!({"id": i, "name": format!("Player {i}"), "rating": 1500, "federation_id": format!("GGF-{i}")}))
        .collect();
    let results = ["white", "black", "draw", "white", "black_forfeit", "black"];
    let mut all_rounds = Vec::new();
    for r in 0..rounds {
        let mut games = Vec::new();
        let n = ids.len();
        for k in 0..n / 2 {
            let a = ids[(k + r) % n];
            let b = ids[(n - 1 - k + r) % n];
            let pick = (seed as usize + r * 7 + k * 3) % results.len();
            games.push(json!({"table": k + 1, "white": a, "black": b, "result": results[pick]}));
        }
        all_rounds.push(json!({"games": games}));
    }
    json!({
        "format": "ggdesk-tournament/1",
        "name": name,
        "settings": {"system": "swiss", "rounds": rounds},
        "players": players,
        "rounds": all_rounds,
    })
}

fn import(store: &mut Store, v: &Value) -> TournamentId {
    store.import_tournament(v, &director()).expect("import")
}

/// Three events of overlapping players, rated on three dates (the second two months after
/// the first, so inactivity counts).
fn three_rated_events(store: &mut Store) -> Vec<TournamentId> {
    let a = import(
        store,
        &event_file_value("Spring Open", &[1, 2, 3, 4, 5, 6], 3, 1),
    );
    let b = import(
        store,
        &event_file_value("Summer Cup", &[3, 4, 5, 6, 7, 8, 9, 10], 4, 2),
    );
    let c = import(store, &event_file_value("Autumn Open", &[1, 2, 7, 8], 2, 3));
    store
        .mark_rated(a, date("2026-03-01"), &director())
        .expect("rate a");
    store
        .mark_rated(c, date("2026-09-20"), &director())
        .expect("rate c");
    store
        .mark_rated(b, date("2026-05-10"), &director())
        .expect("rate b");
    vec![a, b, c]
}

/// The store's list as the CLI prints it.
fn printed(rows: &[RatingRow]) -> String {
    let rows: Vec<ListRow<String>> = rows
        .iter()
        .map(|r| ListRow {
            rank: r.rank,
            key: r.federation_id.clone(),
            standing: r.standing.clone(),
        })
        .collect();
    list_csv(&rows)
}

/// The list `ggdesk ratings` computes from the store's exported files.
fn from_files(store: &Store, ids: &[TournamentId]) -> String {
    let events: Vec<_> = ids
        .iter()
        .map(|id| {
            let text = store.export_tournament(*id).expect("export").to_string();
            event_file(&text)
                .expect("an exported rated event reads back")
                .event
        })
        .collect();
    let (list, _) = rate_all(Config::default(), Vec::new(), &events);
    list_csv(&list.list())
}

fn rated_events_give_the_list_the_files_give(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let ids = three_rated_events(&mut store);
    let list = store.rating_list().expect("list");
    assert_eq!(list.len(), 10);
    assert_eq!(printed(&list), from_files(&store, &ids));
    assert_eq!(list, store.rating_list_from_scratch().expect("scratch"));
    // Player 1 played the first and third events.
    let p1 = list
        .iter()
        .find(|r| r.federation_id == "GGF-1")
        .expect("GGF-1");
    assert_eq!(p1.standing.events, 2);
    assert_eq!(p1.standing.last_event, Some(date("2026-09-20")));
    let history = store.rating_history(p1.player).expect("history");
    let events: Vec<(&str, Date)> = history.iter().map(|h| (h.event.as_str(), h.date)).collect();
    assert_eq!(
        events,
        [
            ("Spring Open", date("2026-03-01")),
            ("Autumn Open", date("2026-09-20"))
        ]
    );
    assert_eq!(history[1].rated.after, p1.standing.rating);
    // Inactivity between the two: the second starts from a grown deviation.
    assert!(history[1].rated.before.deviation > history[0].rated.after.deviation);
    // The event's report: every player of its period, by name.
    let report = store.event_ratings(ids[0]).expect("report");
    let names: Vec<&str> = report.iter().map(|r| r.rated.name.as_str()).collect();
    assert_eq!(names.len(), 6, "{names:?}");
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    // The exported file carries the rated date.
    assert_eq!(
        store.export_tournament(ids[1]).expect("export")["date"],
        "2026-05-10"
    );
    let audit = store
        .audit_log(AuditFilter::Tournament(ids[0]))
        .expect("audit");
    assert!(
        audit
            .iter()
            .any(|a| a.action == "event rated" && a.details.contains("rated on 2026-03-01")),
        "{audit:?}"
    );
    if engine == Engine::Postgres {
        the_public_role_reads_the_views(&store, &list);
    }
}

/// On a server the public pages' role reads the list and the histories through the views.
fn the_public_role_reads_the_views(store: &Store, list: &[RatingRow]) {
    let Some(Address::Server(url)) = store.address().cloned() else {
        panic!("a server store");
    };
    // Opening read-only creates the database's public role with its grants.
    let _reader = Store::connect_read_only(&Address::Server(url.clone())).expect("read-only");
    let db = url.rsplit('/').next().expect("a database name").to_string();
    let rows = pg::cluster().psql(
        &db,
        &format!(
            "SET ROLE {db}_public; SET search_path = ggdesk_public; SELECT rank || ',' || federation_id || ',' || round(rating::numeric, 2) \
             FROM public_rating_list ORDER BY rank"
        ),
    );
    let expected: Vec<String> = list
        .iter()
        .map(|r| {
            format!(
                "{},{},{:.2}",
                r.rank, r.federation_id, r.standing.rating.rating
            )
        })
        .collect();
    // psql echoes the SET first.
    let rows: Vec<&str> = rows.lines().filter(|l| *l != "SET").collect();
    assert_eq!(rows, expected);
    let history = pg::cluster().psql(
        &db,
        &format!(
            "SET ROLE {db}_public; SET search_path = ggdesk_public; SELECT count(*) FROM public_rating_history WHERE federation_id = 'GGF-1'"
        ),
    );
    assert_eq!(history.lines().last(), Some("2"));
}

fn an_incomplete_tournament_cannot_be_rated(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let mut pending = event_file_value("Pending", &[1, 2, 3, 4], 2, 0);
    pending["rounds"][1]["games"][0]["result"] = json!("pending");
    let tid = import(&mut store, &pending);
    let e = store
        .mark_rated(tid, date("2026-01-01"), &director())
        .expect_err("not complete");
    assert!(
        matches!(&e, StoreError::Refused(Refusal::Rating(_)))
            && e.to_string()
                == "\"Pending\" cannot be rated before it is complete: 1 round is not complete",
        "{e}"
    );
    let mut short = event_file_value("Short", &[1, 2, 3, 4], 2, 0);
    short["settings"]["rounds"] = json!(5);
    let tid = import(&mut store, &short);
    let e = store
        .mark_rated(tid, date("2026-01-01"), &director())
        .expect_err("rounds missing");
    assert!(
        matches!(&e, StoreError::Refused(Refusal::Rating(_)))
            && e.to_string()
                .ends_with("2 of its 5 rounds have been played"),
        "{e}"
    );
    assert!(store.rating_list().expect("list").is_empty());
    let ok = import(&mut store, &event_file_value("Done", &[1, 2, 3, 4], 2, 0));
    store
        .mark_rated(ok, date("2026-01-01"), &director())
        .expect("rated");
    let e = store
        .mark_rated(ok, date("2026-01-01"), &director())
        .expect_err("same date again");
    assert!(
        matches!(&e, StoreError::Refused(Refusal::Rating(_)))
            && e.to_string() == "\"Done\" is already rated on 2026-01-01",
        "{e}"
    );
    let events = store.rating_events().expect("events");
    let done = events.iter().find(|e| e.id == ok).expect("listed");
    assert_eq!(done.rated, Some(date("2026-01-01")));
    assert_eq!(done.not_ready, None);
}

fn a_changed_result_rebuilds_the_list_as_from_scratch_and_says_so(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let ids = three_rated_events(&mut store);
    let before = store.rating_list().expect("list");
    // A result of the middle event corrected: white won, not black.
    let t = store
        .event(ids[1])
        .expect("load")
        .one_system()
        .cloned()
        .expect("one system");
    let (round, board, game) = t
        .rounds()
        .iter()
        .enumerate()
        .flat_map(|(r, round)| {
            round
                .games
                .iter()
                .enumerate()
                .map(move |(b, g)| (r + 1, b, g))
        })
        .find(|(_, _, g)| g.result == GameResult::BlackWins)
        .expect("a black win");
    let round = RoundNo(u32::try_from(round).expect("round"));
    let white = t.player(game.white).expect("white").name.clone();
    store
        .set_result(
            ids[1],
            round,
            BoardNo(u32::try_from(board + 1).expect("board")),
            GameResult::WhiteWins,
            "score sheet misread",
            &director(),
        )
        .expect("result changed");
    let after = store.rating_list().expect("list");
    assert_ne!(printed(&before), printed(&after));
    assert_eq!(after, store.rating_list_from_scratch().expect("scratch"));
    assert_eq!(printed(&after), from_files(&store, &ids));
    let audit = store
        .audit_log(AuditFilter::Tournament(ids[1]))
        .expect("audit");
    let line = audit
        .iter()
        .rev()
        .find(|a| a.action == "ratings recomputed")
        .expect("the rebuild is in the audit log");
    assert_eq!(line.reason, "score sheet misread");
    assert!(
        line.details.starts_with(&format!(
            "a result of round {round} of the rated event \"Summer Cup\" (2026-05-10) changed: "
        )),
        "{}",
        line.details
    );
    assert!(
        line.details.contains(&white),
        "{} names {white}",
        line.details
    );
    // A forfeit is not a game: turning a played game into a forfeit removes it.
    let games_before: u32 = after.iter().map(|r| r.standing.games).sum();
    store
        .set_result(
            ids[1],
            round,
            BoardNo(u32::try_from(board + 1).expect("board")),
            GameResult::WhiteWinsByForfeit,
            "black never came",
            &director(),
        )
        .expect("forfeit");
    let games_after: u32 = store
        .rating_list()
        .expect("list")
        .iter()
        .map(|r| r.standing.games)
        .sum();
    assert_eq!(games_after + 2, games_before);
    // The whole list computed again changes nothing: the cache was right.
    assert_eq!(store.rebuild_ratings(&director()).expect("rebuild"), 0);
    assert_eq!(
        printed(&store.rating_list().expect("list")),
        from_files(&store, &ids)
    );
}

fn unrating_and_moving_a_date_rebuild_the_list(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let ids = three_rated_events(&mut store);
    let e = store
        .unmark_rated(ids[0], " ", &director())
        .expect_err("a reason is needed");
    assert!(
        matches!(&e, StoreError::Refused(Refusal::Rating(_)))
            && e.to_string().contains("needs a reason"),
        "{e}"
    );
    store
        .unmark_rated(ids[0], "not a federation event", &director())
        .expect("unrated");
    let list = store.rating_list().expect("list");
    assert_eq!(list, store.rating_list_from_scratch().expect("scratch"));
    assert_eq!(printed(&list), from_files(&store, &ids[1..]));
    // Player 1 now has only the autumn event.
    let p1 = list
        .iter()
        .find(|r| r.federation_id == "GGF-1")
        .expect("GGF-1");
    assert_eq!(p1.standing.events, 1);
    assert!(store.event_ratings(ids[0]).expect("report").is_empty());
    // The autumn event moved before the summer one: the order of rating changes.
    store
        .mark_rated(ids[2], date("2026-04-01"), &director())
        .expect("moved");
    let moved = store.rating_list().expect("list");
    assert_eq!(moved, store.rating_list_from_scratch().expect("scratch"));
    assert_eq!(printed(&moved), from_files(&store, &[ids[2], ids[1]]));
    let audit = store
        .audit_log(AuditFilter::Tournament(ids[2]))
        .expect("audit");
    assert!(audit.iter().any(|a| a.action == "rated date changed"
        && a.details.contains("rated date 2026-09-20 -> 2026-04-01")));
    assert!(
        store
            .audit_log(AuditFilter::Tournament(ids[0]))
            .expect("audit")
            .iter()
            .any(|a| a.action == "event unrated" && a.reason == "not a federation event")
    );
}

fn first_ratings_from_the_players_csv_and_registrations_seeded_by_the_list(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    store
        .import_players_csv(
            "name,federation_id,club,rating,deviation,volatility\n\
             Player 1,GGF-1,QC,2100.4,60,0.05\n\
             Player 2,GGF-2,QC,1400,,\n\
             Player 9,GGF-9,QC,1980,70,0.06\n",
            &director(),
        )
        .expect("imported");
    // Listed before any game, with the initial numbers.
    let list = store.rating_list().expect("list");
    let shown: Vec<(&str, u32, f64)> = list
        .iter()
        .map(|r| {
            (
                r.federation_id.as_str(),
                r.standing.games,
                r.standing.rating.rating,
            )
        })
        .collect();
    assert_eq!(shown, [("GGF-1", 0, 2100.4), ("GGF-9", 0, 1980.0)]);
    let tid = import(&mut store, &event_file_value("Open", &[1, 2, 3, 4], 3, 5));
    store
        .mark_rated(tid, date("2026-02-02"), &director())
        .expect("rated");
    let report = store.event_ratings(tid).expect("report");
    let p1 = report
        .iter()
        .find(|r| r.federation_id == "GGF-1")
        .expect("GGF-1");
    assert_eq!(p1.rated.before.rating, 2100.4);
    assert_eq!(p1.rated.before.deviation, 60.0);
    let p3 = report
        .iter()
        .find(|r| r.federation_id == "GGF-3")
        .expect("GGF-3");
    assert_eq!(p3.rated.before.deviation, 350.0);

    // A new tournament: registering takes the list's rating, rounded; an unlisted player
    // keeps the registry's.
    let new = store
        .create_tournament(
            &TournamentSetup {
                name: "Next".into(),
                ..Default::default()
            },
            &director(),
        )
        .expect("tournament");
    let listed = list_of(&store, "GGF-3");
    let registry = store.players().expect("players");
    let p3_id = registry
        .iter()
        .find(|p| p.federation_id == "GGF-3")
        .expect("p3")
        .id;
    let unlisted = store
        .add_player(
            &PlayerInput {
                name: "New Face".into(),
                federation_id: String::new(),
                club: String::new(),
                rating: 1234,
            },
            &director(),
        )
        .expect("added");
    let no3 = store.register(new, p3_id, &director()).expect("registered");
    let no_new = store
        .register(new, unlisted, &director())
        .expect("registered");
    let regs = store.registrations(new).expect("registrations");
    let rating_of = |no: PlayerId| regs.iter().find(|r| r.no == no).expect("reg").rating;
    assert_eq!(rating_of(no3), listed.round() as i64);
    assert_eq!(rating_of(no_new), 1234);
    // The list moves (another rated event): the tournament not yet started follows it.
    let later = import(&mut store, &event_file_value("Later", &[3, 4, 5, 6], 2, 4));
    store
        .mark_rated(later, date("2026-03-03"), &director())
        .expect("rated");
    let moved = list_of(&store, "GGF-3");
    assert_ne!(moved.round(), listed.round());
    let regs = store.registrations(new).expect("registrations");
    assert_eq!(
        regs.iter().find(|r| r.no == no3).expect("reg").rating,
        moved.round() as i64
    );
}

fn list_of(store: &Store, fid: &str) -> f64 {
    store
        .rating_list()
        .expect("list")
        .iter()
        .find(|r| r.federation_id == fid)
        .expect("listed")
        .standing
        .rating
        .rating
}

fn a_federation_id_taken_away_takes_the_player_off_the_list(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let ids = three_rated_events(&mut store);
    let p5 = store
        .players()
        .expect("players")
        .into_iter()
        .find(|p| p.federation_id == "GGF-5")
        .expect("p5");
    store
        .update_player(
            p5.id,
            &PlayerInput {
                name: p5.name.clone(),
                federation_id: String::new(),
                club: p5.club.clone(),
                rating: p5.rating,
            },
            &director(),
        )
        .expect("edited");
    let list = store.rating_list().expect("list");
    assert!(list.iter().all(|r| r.player != p5.id));
    assert_eq!(list, store.rating_list_from_scratch().expect("scratch"));
    let audit = store.audit_log(AuditFilter::All).expect("audit");
    let line = audit.last().expect("a line");
    assert_eq!(line.action, "ratings recomputed");
    assert!(
        line.details
            .starts_with("federation id of Player 5 \"GGF-5\" -> \"\": "),
        "{}",
        line.details
    );
    let _ = ids;
}

fn re_pairing_the_last_round_of_a_rated_event_rebuilds_the_list(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let ids = three_rated_events(&mut store);
    let before = store.rating_list().expect("list");
    store
        .repair_round(ids[0], RoundNo(3), "wrong players seated", &director())
        .expect("re-paired");
    let after = store.rating_list().expect("list");
    assert_ne!(before, after);
    assert_eq!(after, store.rating_list_from_scratch().expect("scratch"));
    assert_eq!(printed(&after), from_files(&store, &ids));
    let audit = store
        .audit_log(AuditFilter::Tournament(ids[0]))
        .expect("audit");
    assert!(audit.iter().any(|a| {
        a.action == "ratings recomputed"
            && a.details
                .starts_with("round 3 of the rated event \"Spring Open\" (2026-03-01) changed: ")
            && a.reason == "wrong players seated"
    }));
}

fn a_copy_carries_the_rated_events_first_ratings_and_the_list(engine: Engine) {
    let mut src = Store::open_in_memory().expect("store");
    src.import_players_csv(
        "name,federation_id,club,rating,deviation,volatility\nPlayer 1,GGF-1,QC,2000,80,0.05\n",
        &director(),
    )
    .expect("first ratings");
    let ids = three_rated_events(&mut src);
    let mut dst = engines::fresh_store(engine);
    src.copy_into(&mut dst).expect("copied");
    assert_eq!(
        dst.rating_list().expect("list"),
        src.rating_list().expect("list")
    );
    assert_eq!(
        dst.rating_list_from_scratch().expect("scratch"),
        src.rating_list().expect("list")
    );
    assert_eq!(
        dst.event_ratings(ids[1]).expect("report"),
        src.event_ratings(ids[1]).expect("report")
    );
    assert_eq!(
        dst.rating_events().expect("events"),
        src.rating_events().expect("events")
    );
}

/// A team example of `tests/fixtures/teams/` with every player a federation id (`GGT-` and
/// the player's id).
fn team_example(name: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/teams/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the team example");
    let mut v: Value = serde_json::from_str(&text).expect("JSON");
    for p in v["players"].as_array_mut().expect("players") {
        let id = p["id"].as_u64().expect("a player id");
        p["federation_id"] = json!(format!("GGT-{id}"));
    }
    v
}

/// The list of one event rated on `date`: the team file's games over the board read from
/// its JSON by hand (every board with both players and every game, won, lost or drawn,
/// stage by stage, playoffs after the rounds), rated by the core's fold, as the CLI prints
/// it.
fn team_list_by_hand(v: &Value, date: Date) -> (String, BTreeMap<String, u32>) {
    let fid = |id: &Value| format!("GGT-{}", id.as_u64().expect("a player id"));
    let mut games = Vec::new();
    let mut take = |g: &Value| {
        let result = match g["result"].as_str() {
            Some("white") => Played::WhiteWins,
            Some("black") => Played::BlackWins,
            Some("draw") => Played::Draw,
            _ => return,
        };
        if g["white"].is_u64() && g["black"].is_u64() {
            games.push(RatedGame {
                white: fid(&g["white"]),
                black: fid(&g["black"]),
                result,
            });
        }
    };
    let list = |v: &Value| v.as_array().cloned().unwrap_or_default();
    for s in list(&v["stages"]) {
        for r in list(&s["rounds"]) {
            for m in list(&r["matches"]) {
                list(&m["boards"]).iter().for_each(&mut take);
            }
            list(&r["games"]).iter().for_each(&mut take);
        }
        list(&s["playoffs"]).iter().for_each(&mut take);
    }
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    for g in &games {
        *counts.entry(g.white.clone()).or_default() += 1;
        *counts.entry(g.black.clone()).or_default() += 1;
    }
    let names = list(&v["players"])
        .iter()
        .map(|p| {
            (
                fid(&p["id"]),
                p["name"].as_str().expect("a name").to_string(),
            )
        })
        .collect();
    let event = RatedEvent {
        name: v["name"].as_str().expect("a name").to_string(),
        date,
        names,
        games,
    };
    let (ratings, _) = rate_all(Config::default(), Vec::new(), &[event]);
    (list_csv(&ratings.list()), counts)
}

fn a_team_event_is_rated_by_its_games_over_the_board(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    let mut file = team_example("team-round-robin");
    let tid = import(&mut store, &file);
    // The Ratings page lists it, ready: every round played, every board decided.
    let events = store.rating_events().expect("events");
    let listed = events.iter().find(|e| e.id == tid).expect("listed");
    assert_eq!(listed.name, "Team event 1");
    assert_eq!(listed.not_ready, None);
    assert_eq!(listed.rated, None);
    let day = date("2026-11-01");
    store.mark_rated(tid, day, &director()).expect("rated");
    let list = store.rating_list().expect("list");
    let (expected, counts) = team_list_by_hand(&file, day);
    assert_eq!(printed(&list), expected);
    assert_eq!(list, store.rating_list_from_scratch().expect("scratch"));
    // Player 13's forfeit win (an empty board) is no game: three boards over the board.
    let games = |list: &[RatingRow], fid: &str| {
        list.iter()
            .find(|r| r.federation_id == fid)
            .map(|r| r.standing.games)
    };
    assert_eq!(games(&list, "GGT-13"), Some(2));
    assert_eq!(counts.get("GGT-13"), Some(&2));
    for (fid, n) in &counts {
        assert_eq!(games(&list, fid), Some(*n), "{fid}");
    }
    assert_eq!(list.len(), counts.len());
    // The exported file is the team file with the rated date, and `ggdesk ratings`
    // (the core's reader of files) gives the same list.
    assert_eq!(from_files(&store, &[tid]), expected);

    // A board's result corrected on a rated team event rebuilds the list in its
    // transaction: round 1, table 1 (players 1 and 5) becomes a forfeit, which is no game.
    assert_eq!(
        file["stages"][0]["rounds"][0]["matches"][0]["boards"][0],
        json!({"white": 1, "black": 5, "result": "black"})
    );
    store
        .set_team_board_result(
            tid,
            RoundNo(1),
            TableNo(1),
            GameResult::BlackWinsByForfeit,
            &director(),
        )
        .expect("corrected");
    file["stages"][0]["rounds"][0]["matches"][0]["boards"][0]["result"] = json!("black_forfeit");
    let corrected = store.rating_list().expect("list");
    let (expected, counts) = team_list_by_hand(&file, day);
    assert_eq!(printed(&corrected), expected);
    assert_eq!(
        corrected,
        store.rating_list_from_scratch().expect("scratch")
    );
    assert_eq!(games(&corrected, "GGT-1"), Some(counts["GGT-1"]));
    assert_eq!(
        games(&corrected, "GGT-1"),
        games(&list, "GGT-1").map(|n| n - 1)
    );
    let audit = store
        .audit_log(AuditFilter::Tournament(tid))
        .expect("audit");
    assert!(
        audit.iter().any(|a| a.action == "ratings recomputed"
            && a.details.starts_with(
                "a result of round 1 of the rated event \"Team event 1\" (2026-11-01) changed: "
            )),
        "{audit:?}"
    );
    assert!(
        audit
            .iter()
            .any(|a| a.action == "event rated" && a.details.contains("rated on 2026-11-01")),
        "{audit:?}"
    );

    // Taken off the list as any event.
    store
        .unmark_rated(tid, "a friendly league", &director())
        .expect("unrated");
    assert!(store.rating_list().expect("list").is_empty());
    assert!(store.event_ratings(tid).expect("report").is_empty());
}

fn a_team_event_not_over_cannot_be_rated(engine: Engine) {
    let mut store = engines::fresh_store(engine);
    // The final after the board groups has played one round of three.
    let mut file = team_example("board-groups-then-final");
    file["date"] = json!("2026-10-04");
    let tid = import(&mut store, &file);
    let events = store.rating_events().expect("events");
    let listed = events.iter().find(|e| e.id == tid).expect("listed");
    assert_eq!(
        listed.not_ready.as_deref(),
        Some("stage 2 is still being played")
    );
    assert_eq!(listed.file_date.as_deref(), Some("2026-10-04"));
    let e = store
        .mark_rated(tid, date("2026-10-04"), &director())
        .expect_err("not over");
    assert!(matches!(&e, StoreError::Refused(Refusal::Rating(_))), "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "\"{}\" cannot be rated before it is complete: stage 2 is still being played",
            file["name"].as_str().expect("a name")
        )
    );
    // A board pending: its round is not complete.
    let mut pending = team_example("team-round-robin");
    pending["stages"][0]["rounds"][2]["matches"][0]["boards"][1]["result"] = json!("pending");
    let tid = import(&mut store, &pending);
    let events = store.rating_events().expect("events");
    let listed = events.iter().find(|e| e.id == tid).expect("listed");
    assert_eq!(listed.not_ready.as_deref(), Some("1 round is not complete"));
    assert!(store.rating_list().expect("list").is_empty());
}
