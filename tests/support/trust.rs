//! An event set up as the README says, for the trust tests (issue 19): a director's login
//! that is no superuser, may create roles and owns the event's database; two arbiter
//! stations of the stations' API (never database logins), hall-a (tables 1 and 2) and hall-b
//! (tables 3 and 4) of the tournament in play; three tournaments: one with its round 1 in
//! play and a game running at tables 1 (hall-a) and 3 (hall-b), one whose round 1 is a
//! draft, and one whose round 1 is complete (table 1 decided by its arbiter).
//! Plus what an attack is checked with: SQL as a login, with its SQLSTATE, and the database
//! dumped to compare before and after.
#![allow(dead_code)]

use super::event::games;
use super::event::{connect, setups};
use super::pg;
use ggdesk::store::AnyEvent;
use ggdesk::store::{
    Actor, Address, GameId, GameMode, NewGame, PlayerInput, Store, StoreError, TournamentId,
    TournamentSetup,
};
use ggdesk_core::rules::{Event, Move, RuleSettings, Side};
use ggdesk_core::tournament::GameResult;
use ggdesk_core::tournament::{RoundNo, TableNo};
use std::sync::atomic::{AtomicU32, Ordering};

static NEXT: AtomicU32 = AtomicU32::new(1);

/// The moment (Unix ms) the fixture's desks write at and its games' clocks start: the
/// desk tests' `START_MS`.
pub const START: i64 = 1_800_000_000_000;

/// A station of the stations' API: its name and its secret (shown once when it was made).
pub struct StationCard {
    pub name: String,
    pub secret: String,
}

/// The event and its stations.
pub struct Trust {
    /// The director's URL (a login that owns the database, no superuser).
    pub url: String,
    pub db: String,
    pub director_login: String,
    pub director: Store,
    pub a: StationCard,
    pub b: StationCard,
    /// Round 1 in play.
    pub open: TournamentId,
    /// Round 1 paired, not published.
    pub draft: TournamentId,
    /// Round 1 complete.
    pub done: TournamentId,
    /// Tournament `open`, table 1 (hall-a): started, one move made.
    pub game_a: GameId,
    /// Tournament `open`, table 3 (hall-b): started, one move made.
    pub game_b: GameId,
    /// Tournament `done`, table 1 (hall-a): decided (Black resigned).
    pub game_done: GameId,
}

/// A tournament of `n` players (registry names and federation ids made from `tag`), its
/// round 1 paired.
pub fn tournament(store: &mut Store, tag: &str, n: u32) -> TournamentId {
    let d = Actor::director();
    let tid = store
        .create_tournament(
            &TournamentSetup {
                name: format!("Open {tag}"),
                ..TournamentSetup::default()
            },
            &d,
        )
        .expect("tournament");
    for i in 0..n {
        let p = store
            .add_player(
                &PlayerInput {
                    name: format!("Player {tag}{i}"),
                    federation_id: format!("F-{tag}-{i}"),
                    club: String::new(),
                    rating: 2000 - i64::from(i),
                },
                &d,
            )
            .expect("player");
        store.register(tid, p, &d).expect("register");
    }
    store.pair_round(tid, &d).expect("pair");
    tid
}

/// The game of table `table` of round 1 of `tid`, created and started by `store` with its
/// arbiter as the actor and random setups, its clocks from [`START`].
pub fn start_table(
    store: &mut Store,
    tid: TournamentId,
    table: u32,
    rules: RuleSettings,
) -> GameId {
    start_table_at(store, tid, table, rules, START)
}

/// [`start_table`] with its clocks from Unix ms `started_ms`.
pub fn start_table_at(
    store: &mut Store,
    tid: TournamentId,
    table: u32,
    rules: RuleSettings,
    started_ms: i64,
) -> GameId {
    let view = store
        .round_view(tid, RoundNo(1))
        .expect("view")
        .expect("round 1");
    let board = view
        .boards
        .iter()
        .find(|b| b.table == TableNo(table))
        .expect("the table")
        .clone();
    let new = NewGame::for_board(tid, RoundNo(1), &board, GameMode::Arbitrated, rules);
    let actor = Actor::arbiter(Some(i64::from(table)));
    games::start_with(store, &new, &setups(u64::from(table)), started_ms, &actor).expect("started")
}

/// One legal move in a game, at `t`.
pub fn move_at(store: &mut Store, id: GameId, t: f64) {
    let e = games::first_legal(store, id);
    store
        .append(
            id,
            t,
            ggdesk::store::AnyEvent::Game(e),
            &Actor::arbiter(None),
            "",
        )
        .expect("a move");
}

/// The event, on this process's cluster.
pub fn event() -> Trust {
    let cluster = pg::cluster();
    let n = NEXT.fetch_add(1, Ordering::SeqCst);
    let pid = std::process::id();
    let (login, db) = (format!("dir_{pid}_{n}"), format!("ev_{pid}_{n}"));
    let url = cluster.director_database(&login, &db);
    let mut director = connect(&url);
    director.set_now(START);
    let d = Actor::director();
    let open = tournament(&mut director, "o", 8);
    director
        .publish_round(open, RoundNo(1), &d)
        .expect("publish");
    let draft = tournament(&mut director, "d", 4);
    let done = tournament(&mut director, "c", 4);
    director
        .publish_round(done, RoundNo(1), &d)
        .expect("publish");
    let card = |director: &mut Store, name: &str, tables: [u32; 2]| StationCard {
        name: name.to_string(),
        secret: director
            .add_station(name, open, &tables.map(TableNo), &d)
            .expect("a station"),
    };
    let a = card(&mut director, "hall-a", [1, 2]);
    let b = card(&mut director, "hall-b", [3, 4]);
    let game_a = start_table(&mut director, open, 1, RuleSettings::default());
    move_at(&mut director, game_a, 2.0);
    let game_b = start_table(&mut director, open, 3, RuleSettings::default());
    move_at(&mut director, game_b, 2.0);
    // Tournament `done`: table 1 decided by its arbiter, table 2's result by hand.
    let game_done = start_table(&mut director, done, 1, RuleSettings::default());
    director
        .append(
            game_done,
            3.0,
            ggdesk::store::AnyEvent::Game(Event::Resign(Side::Black)),
            &Actor::arbiter(Some(1)),
            "",
        )
        .expect("resigned");
    let view = director
        .round_view(done, RoundNo(1))
        .expect("view")
        .expect("round");
    let board = view
        .boards
        .iter()
        .find(|b| b.table == TableNo(2))
        .expect("table 2")
        .board;
    director
        .set_result(done, RoundNo(1), board, GameResult::Draw, "", &d)
        .expect("result");
    Trust {
        url,
        db,
        director_login: login,
        director,
        a,
        b,
        open,
        draft,
        done,
        game_a,
        game_b,
        game_done,
    }
}

/// A connection as a login, for SQL by hand (as psql would be used).
pub fn sql_client(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).expect("connect by hand")
}

/// Runs `sql` as the client's login: the error's SQLSTATE and message, or `None` when it
/// ran.
pub fn refusal(client: &mut postgres::Client, sql: &str) -> Option<(String, String)> {
    match client.batch_execute(sql) {
        Ok(()) => None,
        Err(e) => Some(match e.as_db_error() {
            Some(db) => (db.code().code().to_string(), db.message().to_string()),
            None => ("none".into(), e.to_string()),
        }),
    }
}

/// Asserts that `sql` is refused with SQLSTATE 42501 (insufficient privilege), its message
/// naming `subject`.
pub fn assert_denied(client: &mut postgres::Client, sql: &str, subject: &str) {
    match refusal(client, sql) {
        Some((code, message)) => {
            assert_eq!(code, "42501", "{sql}: {message}");
            assert!(
                message.contains(subject),
                "{sql}: the refusal names {subject:?}: {message}"
            );
        }
        None => panic!("{sql}: must be refused, and it ran"),
    }
}

/// The whole database as `pg_dump` writes it (as the superuser), without the random
/// `\restrict` key lines of pg_dump 15.14+.
pub fn dump(db: &str) -> String {
    let cluster = pg::cluster();
    let out = pg::pg_command(&cluster.bin, "pg_dump")
        .arg("-h")
        .arg(&cluster.dir)
        .args(["-p", &cluster.port.to_string(), "-U", "postgres", "-d", db])
        .output()
        .expect("run pg_dump");
    assert!(
        out.status.success(),
        "pg_dump failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with("\\restrict") && !l.starts_with("\\unrestrict"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The cluster's roles with their attributes, and who is a member of what: what a dump of
/// one database does not hold.
pub fn roles(ev: &Trust) -> String {
    // Only this event's roles (its director, its public role, any role named after its
    // database) and the server's own: other tests create logins on the same cluster
    // meanwhile.
    pg::cluster().psql(
        "postgres",
        &format!(
            "SELECT string_agg(r.rolname || ':' || r.rolcanlogin || ':' || r.rolconnlimit || ':' ||
                      coalesce((SELECT string_agg(m.rolname, ',' ORDER BY m.rolname)
                                FROM pg_auth_members am JOIN pg_roles m ON m.oid = am.roleid
                                WHERE am.member = r.oid), ''), ' ' ORDER BY r.rolname)
             FROM pg_roles r
             WHERE left(r.rolname, length('{db}') + 1) = '{db}_' OR r.rolname = '{director}'
                   OR r.rolname LIKE 'pg\\_%'
                   OR r.rolname = 'postgres'",
            db = ev.db,
            director = ev.director_login
        ),
    )
}

/// The sessions the login `role` has open now.
pub fn sessions(role: &str) -> i64 {
    pg::cluster()
        .psql(
            "postgres",
            &format!("SELECT count(*) FROM pg_stat_activity WHERE usename = '{role}'"),
        )
        .parse()
        .expect("a count")
}

/// The setup of each side of a game as stored (read as the superuser).
pub fn stored_setups(db: &str, game: GameId) -> Vec<String> {
    pg::cluster()
        .psql(
            db,
            &format!(
                "SELECT setup_white || E'\\n' || setup_black FROM games WHERE id = {}",
                game.0
            ),
        )
        .lines()
        .map(str::to_string)
        .collect()
}

/// The log of a game: sequence number, time and kind of each entry.
pub fn log(store: &Store, id: GameId) -> Vec<(u32, f64, String)> {
    store
        .load_game(id)
        .expect("game")
        .events
        .iter()
        .map(|e| (e.seq, e.t, e.kind.code().to_string()))
        .collect()
}

/// The move made first in the fixture's game and another legal move of the
/// same side from the same position.
pub fn made_and_other(store: &Store, id: GameId) -> (Move, Move) {
    let stored = store.load_game(id).expect("game");
    let made = match stored.events[0].kind.event() {
        Some(AnyEvent::Game(Event::Move { mv, .. })) => mv,
        other => panic!("the fixture's game begins with a move: {other:?}"),
    };
    let mut before = stored.clone();
    before.events.clear();
    let game = before.game().expect("setups").expect("replays");
    let other = game
        .position()
        .legal_moves(game.to_move())
        .into_iter()
        .find(|m| *m != made)
        .expect("another legal move");
    (made, other)
}

/// An old address no longer logs in: the server refuses its password (the login was
/// dropped, or its password changed), not any other failure such as the server being
/// unreachable.
pub fn assert_login_refused(url: &str) {
    match Store::connect(&Address::Server(url.to_string())) {
        // The store reports every failure to log in as not connected, with the server's
        // words.
        Err(StoreError::Disconnected(m))
            if m.starts_with("password authentication failed for user") => {}
        Err(e) => panic!("expected the password refused, got {e:?}"),
        Ok(_) => panic!("the old address still logs in"),
    }
}
