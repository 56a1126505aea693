//! Issue 19, the attacks of the trial by hand, made directly in SQL with a station's login
//! (as psql would): every one is refused with its exact SQLSTATE and the refusal names what
//! it was about, and the event is left exactly as it was (its dump, the server's roles).
//! The event is set up as the README says: a director's login that is no superuser and owns
//! the database, two stations.

#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use ggdesk::store::{Actor, Address, GameId, Store, StoreError};
use ggdesk_core::tournament::{RoundNo, TableNo};
use trust::{assert_denied, dump, refusal, roles, sql_client, stored_setups};

/// The piece codes a setup or a reading sheet is written with.
const CODES: [&str; 15] = [
    "FLG", "SPY", "PVT", "SGT", "2LT", "1LT", "CPT", "MAJ", "LTC", "COL", "G1", "G2", "G3", "G4",
    "G5",
];

/// The next event number of a game, as the director's store sees it.
fn next_seq(store: &Store, id: GameId) -> u32 {
    store
        .load_game(id)
        .expect("game")
        .events
        .last()
        .map_or(0, |e| e.seq + 1)
}

#[test]
fn a_station_reads_no_hidden_rank_of_a_game_not_at_its_tables() {
    let ev = trust::event();
    let mut a = sql_client(&ev.a.url);
    // The tables themselves: no privilege at all.
    for table in [
        "games",
        "game_events",
        "adjudication_sheets",
        "audit_log",
        "players",
    ] {
        assert_denied(
            &mut a,
            &format!("SELECT * FROM public.{table}"),
            &format!("permission denied for table {table}"),
        );
    }
    // Through its views: the other station's game is there, its setups are not.
    let rows = a
        .query(
            "SELECT id, setup_white, setup_black FROM games WHERE id = ANY($1) ORDER BY id",
            &[&vec![ev.game_a.0, ev.game_b.0]],
        )
        .expect("the games' rows");
    assert_eq!(rows.len(), 2);
    for r in &rows {
        let id: i64 = r.get(0);
        let (w, b): (Option<String>, Option<String>) = (r.get(1), r.get(2));
        if id == ev.game_a.0 {
            assert!(w.is_some() && b.is_some(), "its own game's setups");
        } else {
            assert_eq!((w, b), (None, None), "game {id} is hall-b's");
        }
    }
    let events: i64 = a
        .query_one(
            "SELECT count(*) FROM game_events WHERE game_id = $1",
            &[&ev.game_b.0],
        )
        .expect("count")
        .get(0);
    assert_eq!(events, 0, "no event of hall-b's game");
    let own: i64 = a
        .query_one(
            "SELECT count(*) FROM game_events WHERE game_id = $1",
            &[&ev.game_a.0],
        )
        .expect("count")
        .get(0);
    assert!(own > 0, "its own game's events");
    // Not a piece code of hall-b's game anywhere in what hall-a may read, and not its
    // setups' text, whichever view it reads.
    let secret = stored_setups(&ev.db, ev.game_b);
    assert_eq!(secret.len(), 2, "hall-b's game has both setups");
    let views: Vec<String> = a
        .query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'ggdesk_station'",
            &[],
        )
        .expect("views")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(views.len() >= 17, "{views:?}");
    for view in &views {
        let rows = a
            .query(&format!("SELECT x::text FROM ggdesk_station.{view} x"), &[])
            .expect("a view reads");
        let text: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
        for s in &secret {
            assert!(
                !text.iter().any(|t| t.contains(s.as_str())),
                "{view} holds hall-b's setup"
            );
        }
        // The rows about hall-b's game hold no piece code.
        let about: Vec<&String> = text
            .iter()
            .filter(|t| match view.as_str() {
                "games" => t.starts_with(&format!("({},", ev.game_b.0)),
                "game_events" | "adjudication_sheets" => {
                    t.starts_with(&format!("({},", ev.game_b.0))
                }
                "audit_log" => t.contains(&format!(",{},", ev.game_b.0)),
                _ => false,
            })
            .collect();
        for t in about {
            for code in CODES {
                assert!(
                    !t.contains(&format!("\"{code}\"")),
                    "{view}: {t} names a piece of hall-b's game"
                );
            }
        }
    }
}

#[test]
fn a_station_changes_nothing_but_its_own_games_in_play_whatever_sql_it_sends() {
    let ev = trust::event();
    let before = dump(&ev.db);
    let roles_before = roles(&ev);
    let mut a = sql_client(&ev.a.url);
    let board = ev
        .director
        .round_view(ev.open, RoundNo(1))
        .expect("view")
        .expect("round")
        .boards
        .into_iter()
        .find(|b| b.table == TableNo(1))
        .expect("table 1");
    let next_a = next_seq(&ev.director, ev.game_a);
    let next_b = next_seq(&ev.director, ev.game_b);
    let next_done = next_seq(&ev.director, ev.game_done);
    let director = &ev.director_login;
    let attacks: Vec<(String, String)> = vec![
        // Another station's game, and the tables under the functions.
        (
            format!(
                "SELECT public.ggdesk_station_event({}, {next_b}, 9.0, 'pause', '{{\"t\":9.0,\"pause\":true}}', NULL, '', NULL, 'pending', 0)",
                ev.game_b.0
            ),
            format!("game {} is not at a table of station hall-a", ev.game_b.0),
        ),
        (
            format!(
                "INSERT INTO public.game_events (game_id, seq, t, kind, payload, wall_time) VALUES ({}, {next_b}, 9.0, 'pause', '{{\"t\":9.0,\"pause\":true}}', 0)",
                ev.game_b.0
            ),
            "permission denied for table game_events".into(),
        ),
        (
            format!(
                "UPDATE public.games SET result = 'white resignation' WHERE id = {}",
                ev.game_b.0
            ),
            "permission denied for table games".into(),
        ),
        (
            "UPDATE public.pairings SET result = 'black'".into(),
            "permission denied for table pairings".into(),
        ),
        // The director's draft published, a completed round reopened or changed, a round's
        // times moved.
        (
            format!(
                "UPDATE public.rounds SET state = 'published' WHERE tournament_id = {}",
                ev.draft
            ),
            "permission denied for table rounds".into(),
        ),
        (
            format!(
                "UPDATE rounds SET state = 'published' WHERE tournament_id = {}",
                ev.draft
            ),
            "permission denied for view rounds".into(),
        ),
        (
            format!(
                "UPDATE public.rounds SET state = 'published', completed_at = NULL WHERE tournament_id = {}",
                ev.done
            ),
            "permission denied for table rounds".into(),
        ),
        (
            "UPDATE public.rounds SET starts_at = 0, published_at = 0".into(),
            "permission denied for table rounds".into(),
        ),
        (
            format!(
                "UPDATE public.pairings SET result = 'black' WHERE tournament_id = {} AND table_no = 1",
                ev.done
            ),
            "permission denied for table pairings".into(),
        ),
        (
            format!(
                "SELECT public.ggdesk_station_event({}, {next_done}, 9.0, 'pause', '{{\"t\":9.0,\"pause\":true}}', NULL, '', NULL, 'pending', 0)",
                ev.game_done.0
            ),
            format!(
                "game {} is not in a round in play (round 1 is complete)",
                ev.game_done.0
            ),
        ),
        (
            format!(
                "SELECT public.ggdesk_station_create_game({}, 1, 1, {}, {}, 'arbitrated', 'white', {}, {}, '{{}}', 0)",
                ev.done, board.white.no, board.black.no, board.white.rating, board.black.rating
            ),
            format!("round 1 of tournament {} is not in play (complete)", ev.done),
        ),
        // The audit log's actor forged.
        (
            "INSERT INTO public.audit_log (at, actor, action) VALUES (0, 'director', 'round complete')"
                .into(),
            "permission denied for table audit_log".into(),
        ),
        (
            "SELECT public.ggdesk_station_audit('director', 'round complete', NULL, NULL, '', '', 0)"
                .into(),
            "permission denied for function ggdesk_station_audit".into(),
        ),
        // Its own game's setup or start rewritten after the start.
        (
            format!(
                "SELECT public.ggdesk_station_setup({}, 'white', '{{\"a1\":\"FLG\"}}', 0)",
                ev.game_a.0
            ),
            format!("game {} has started: its setups are fixed", ev.game_a.0),
        ),
        (
            format!(
                "UPDATE public.games SET setup_white = NULL, started_at = 0 WHERE id = {}",
                ev.game_a.0
            ),
            "permission denied for table games".into(),
        ),
        (
            format!(
                "SELECT public.ggdesk_station_start({}, 5, 'black', 'arbiter', 0)",
                ev.game_a.0
            ),
            format!("game {} has already started", ev.game_a.0),
        ),
        // An event that is not JSON, of no known kind, or not what it says it is.
        (
            format!(
                "SELECT public.ggdesk_station_event({}, {next_a}, 9.0, 'move', 'not json', NULL, '', NULL, 'pending', 0)",
                ev.game_a.0
            ),
            format!(
                "game {}: event {next_a} is not the JSON of a move event at its time",
                ev.game_a.0
            ),
        ),
        (
            format!(
                "SELECT public.ggdesk_station_event({}, {next_a}, 9.0, 'teleport', '{{\"t\":9.0,\"teleport\":true}}', NULL, '', NULL, 'pending', 0)",
                ev.game_a.0
            ),
            format!(
                "game {}: teleport is not an event of a arbitrated game",
                ev.game_a.0
            ),
        ),
        (
            format!(
                "SELECT public.ggdesk_station_event({}, {next_a}, 9.0, 'pause', '{{\"t\":1.0,\"pause\":true}}', NULL, '', NULL, 'pending', 0)",
                ev.game_a.0
            ),
            "is not the JSON of a pause event at its time".into(),
        ),
        (
            format!(
                "SELECT public.ggdesk_station_event({}, {next_a}, 1.0, 'pause', '{{\"t\":1.0,\"pause\":true}}', NULL, '', NULL, 'pending', 0)",
                ev.game_a.0
            ),
            "is before the event in force before it".into(),
        ),
        // A result the game does not give: its board and its result disagree.
        (
            format!(
                "SELECT public.ggdesk_station_event({}, {next_a}, 9.0, 'pause', '{{\"t\":9.0,\"pause\":true}}', NULL, '', 'white resignation', 'black', 0)",
                ev.game_a.0
            ),
            "white resignation is not a result a game gives (board black)".into(),
        ),
        // A second game at its table while the first is in play.
        (
            format!(
                "SELECT public.ggdesk_station_create_game({}, 1, 1, {}, {}, 'arbitrated', 'white', {}, {}, '{{}}', 0)",
                ev.open, board.white.no, board.black.no, board.white.rating, board.black.rating
            ),
            format!("table 1 has a game in play already (game {})", ev.game_a.0),
        ),
        (
            format!(
                "INSERT INTO public.games (tournament_id, round, table_no, rules, created_at) VALUES ({}, 1, 1, '{{}}', 0)",
                ev.open
            ),
            "permission denied for table games".into(),
        ),
        // The helpers and the grants: the owner's alone.
        (
            "SELECT public.ggdesk_station_grants(session_user)".into(),
            "permission denied for function ggdesk_station_grants".into(),
        ),
        (
            "SELECT public.ggdesk_public_grants(session_user)".into(),
            "permission denied for function ggdesk_public_grants".into(),
        ),
        (
            "SELECT public.ggdesk_station_in_play(NULL::public.games)".into(),
            "permission denied for function ggdesk_station_in_play".into(),
        ),
        // Objects of its own, another role, its own limits.
        (
            "CREATE TABLE public.stations_copy (name text)".into(),
            "permission denied for schema public".into(),
        ),
        (
            "CREATE TEMP TABLE stations (name text, role text, created_at bigint)".into(),
            "permission denied to create temporary tables".into(),
        ),
        (format!("SET ROLE {director}"), "permission denied to set role".into()),
        (
            "ALTER ROLE CURRENT_USER CONNECTION LIMIT -1".into(),
            "permission denied".into(),
        ),
        (
            "CREATE ROLE intruder LOGIN".into(),
            "permission denied to create role".into(),
        ),
    ];
    for (sql, subject) in &attacks {
        assert_denied(&mut a, sql, subject);
    }
    // Inserting into its views, which join the tables, is refused before any privilege
    // is looked at: the view cannot take it.
    for (sql, view) in [
        (
            "INSERT INTO audit_log (at, actor, action, reason, details) VALUES (0, 'director', 'x', '', '')",
            "audit_log",
        ),
        (
            "INSERT INTO game_events (game_id, seq, t, kind, payload, wall_time) VALUES (1, 99, 1, 'end', '{}', 0)",
            "game_events",
        ),
    ] {
        let (code, message) = refusal(&mut a, sql).expect("refused");
        assert_eq!(code, "55000", "{sql}: {message}");
        assert!(
            message.contains(&format!("cannot insert into view \"{view}\"")),
            "{sql}: {message}"
        );
    }
    drop(a);
    assert_eq!(dump(&ev.db), before, "the event is as it was");
    assert_eq!(
        roles(&ev),
        roles_before,
        "the server's roles are as they were"
    );
    // The director's login still does what only it may.
    let mut director = trust::sql_client(&ev.url);
    director
        .batch_execute("UPDATE rounds SET starts_at = 1 WHERE false")
        .expect("the owner writes its tables");
}

/// The trial by hand: a station that creates temporary tables named `stations` and
/// `station_tables` listing itself on another station's table. No login may create one now;
/// and where a database still let it (granted here by hand), the views and the functions
/// name their tables by schema, so the station gains nothing.
#[test]
fn the_temporary_table_attack_finds_nothing_to_stand_in_for() {
    let ev = trust::event();
    let before = dump(&ev.db);
    let mut a = sql_client(&ev.a.url);
    assert_denied(
        &mut a,
        "CREATE TEMP TABLE stations (name text, role text, created_at bigint)",
        "permission denied to create temporary tables in database",
    );
    drop(a);
    let role = &ev.a.station.role;
    let cluster = pg::cluster();
    cluster.psql(
        &ev.db,
        &format!("GRANT TEMPORARY ON DATABASE {} TO \"{role}\"", ev.db),
    );
    let mut a = sql_client(&ev.a.url);
    a.batch_execute(
        "CREATE TEMP TABLE stations (name text, role text, created_at bigint);
         INSERT INTO stations VALUES ('hall-a', session_user, 0);
         CREATE TEMP TABLE station_tables (station text, table_no bigint);
         INSERT INTO station_tables VALUES ('hall-a', 3), ('hall-a', 4);",
    )
    .expect("the temporary tables, where the database allows them");
    let setups = a
        .query_one(
            "SELECT setup_white, setup_black FROM ggdesk_station.games WHERE id = $1",
            &[&ev.game_b.0],
        )
        .expect("row");
    let (w, b): (Option<String>, Option<String>) = (setups.get(0), setups.get(1));
    assert_eq!((w, b), (None, None), "hall-b's setups stay hidden");
    let events: i64 = a
        .query_one(
            "SELECT count(*) FROM ggdesk_station.game_events WHERE game_id = $1",
            &[&ev.game_b.0],
        )
        .expect("count")
        .get(0);
    assert_eq!(events, 0);
    let next_b = next_seq(&ev.director, ev.game_b);
    assert_denied(
        &mut a,
        &format!(
            "SELECT public.ggdesk_station_event({}, {next_b}, 9.0, 'resign', '{{\"t\":9.0,\"resign\":\"white\"}}', NULL, '', 'black resignation', 'black', 0)",
            ev.game_b.0
        ),
        &format!("game {} is not at a table of station hall-a", ev.game_b.0),
    );
    assert_denied(
        &mut a,
        &format!(
            "SELECT public.ggdesk_station_clock_seen({}, 1.0)",
            ev.game_b.0
        ),
        &format!("game {} is not at a table of station hall-a", ev.game_b.0),
    );
    drop(a);
    cluster.psql(
        &ev.db,
        &format!("REVOKE TEMPORARY ON DATABASE {} FROM \"{role}\"", ev.db),
    );
    assert_eq!(dump(&ev.db), before, "the event is as it was");
}

/// 300 connections opened with a station's login: it gets its four, and the director and
/// the other station still connect and work.
#[test]
fn a_flood_of_connections_by_a_station_leaves_the_director_room() {
    let ev = trust::event();
    let mut held = Vec::new();
    let mut refused = Vec::new();
    for _ in 0..300 {
        match postgres::Client::connect(&ev.a.url, postgres::NoTls) {
            Ok(c) => held.push(c),
            Err(e) => {
                let code = e.code().map(|c| c.code().to_string());
                let message = e
                    .as_db_error()
                    .map_or_else(|| e.to_string(), |db| db.message().to_string());
                refused.push((code, message));
            }
        }
    }
    assert_eq!(
        held.len() as i64,
        ggdesk::store::STATION_CONNECTIONS,
        "the station holds its limit"
    );
    assert_eq!(refused.len(), 300 - held.len());
    for (code, message) in &refused {
        assert_eq!(code.as_deref(), Some("53300"), "{message}");
        assert!(
            message.contains(&format!(
                "too many connections for role \"{}\"",
                ev.a.station.role
            )),
            "{message}"
        );
    }
    // The director connects and writes; the other station runs its table.
    let mut director = Store::connect(&Address::Server(ev.url.clone())).expect("the director");
    director
        .add_player(
            &ggdesk::store::PlayerInput {
                name: "Late Entry".into(),
                ..Default::default()
            },
            &Actor::director(),
        )
        .expect("the director writes");
    let mut b = Store::connect(&Address::Server(ev.b.url.clone())).expect("hall-b connects");
    trust::move_at(&mut b, ev.game_b, 5.0);
    drop(held);
}

/// The privileges a database holds, with the database's name taken out: its tables',
/// views', sequences', functions' and schemas' grants (each as who may do what, an owner's
/// implicit grants written out), and its stations' limits and settings.
fn privileges(db: &str) -> String {
    let cluster = pg::cluster();
    let acl = |column: &str, kind: &str, owner: &str| {
        format!(
            "(SELECT coalesce(string_agg(CASE e.grantee WHEN 0 THEN 'PUBLIC' ELSE pg_get_userbyid(e.grantee)::text END
                                         || '=' || e.privilege_type, ',' ORDER BY 1), '')
              FROM aclexplode(coalesce({column}, acldefault({kind}, {owner}))) e)"
        )
    };
    let sql = format!(
        "SELECT string_agg(line, E'\\n' ORDER BY line) FROM (
             SELECT 'rel ' || n.nspname || '.' || c.relname || ' ' || {rel} || ' rls '
                    || c.relrowsecurity::text AS line
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname IN ('public', 'ggdesk_station', 'ggdesk_public')
               AND c.relkind IN ('r', 'v', 'S')
             UNION ALL
             SELECT 'col ' || c.relname || '.' || a.attname || ' ' || a.attacl::text
             FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
             JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = 'public' AND cardinality(a.attacl) > 0
             UNION ALL
             SELECT 'fn ' || p.oid::regprocedure::text || ' ' || {func} || ' definer '
                    || p.prosecdef::text || ' ' || coalesce(array_to_string(p.proconfig, ';'), '')
             FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = 'public'
             UNION ALL
             SELECT 'schema ' || n.nspname || ' ' || {schema}
             FROM pg_namespace n WHERE n.nspname IN ('public', 'ggdesk_station', 'ggdesk_public')
             UNION ALL
             SELECT 'policy ' || tablename || ' ' || policyname FROM pg_policies
             UNION ALL
             SELECT 'db ' || {database} FROM pg_database d WHERE d.datname = current_database()
             UNION ALL
             SELECT 'role ' || r.rolname || ' ' || r.rolcanlogin::text || ' ' || r.rolconnlimit
                    || ' ' || coalesce((SELECT string_agg(array_to_string(s.setconfig, ';'), '|'
                                                          ORDER BY s.setdatabase)
                                        FROM pg_db_role_setting s WHERE s.setrole = r.oid), '')
             FROM pg_roles r WHERE r.rolname LIKE current_database() || '%'
         ) x",
        rel = acl(
            "c.relacl",
            "CASE c.relkind WHEN 'S' THEN 's' ELSE 'r' END::\"char\"",
            "c.relowner"
        ),
        func = acl("p.proacl", "'f'", "p.proowner"),
        schema = acl("n.nspacl", "'n'", "n.nspowner"),
        database = acl("d.datacl", "'d'", "d.datdba"),
    );
    cluster.psql(db, &sql).replace(db, "DB")
}

/// A database made by migrations 1 to 3 with two stations granted as migration 2's
/// `station add` did, and the public pages' role as they made it, upgraded by a desk that
/// opens it: the same privileges as a database made new with the same stations.
#[test]
fn an_older_database_is_upgraded_to_the_state_of_a_new_one() {
    let cluster = pg::cluster();
    let n = std::process::id();
    let login = format!("mig_dir_{n}");
    cluster.psql(
        "postgres",
        &format!("CREATE ROLE {login} LOGIN PASSWORD 'director-pw' NOSUPERUSER CREATEROLE"),
    );
    let url_of = |db: &str| {
        format!(
            "postgres://{login}:director-pw@127.0.0.1:{}/{db}",
            cluster.port
        )
    };
    // The old database, as a build of migration 3 left it.
    let old = format!("mig_old_{n}");
    cluster.psql("postgres", &format!("CREATE DATABASE {old} OWNER {login}"));
    let root = env!("CARGO_MANIFEST_DIR");
    let mut sql = format!("SET ROLE {login};\n");
    for file in [
        "schema.postgres.sql",
        "migrations/002-event-tokens.postgres.sql",
        "migrations/003-desk-timers.postgres.sql",
    ] {
        sql.push_str(&std::fs::read_to_string(format!("{root}/{file}")).expect("migration"));
        sql.push('\n');
    }
    sql.push_str("UPDATE ggdesk_meta SET schema_version = 3;\n");
    for (station, tables) in [("hall-a", [1, 2]), ("hall-b", [3, 4])] {
        let role = format!("{old}_{station}");
        sql.push_str(&format!(
            "CREATE ROLE \"{role}\" LOGIN PASSWORD 'x';
             GRANT CONNECT ON DATABASE {old} TO \"{role}\";
             GRANT USAGE ON SCHEMA public TO \"{role}\";
             GRANT SELECT ON ALL TABLES IN SCHEMA public TO \"{role}\";
             GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \"{role}\";
             GRANT INSERT ON games, game_events, audit_log TO \"{role}\";
             GRANT UPDATE (setup_white, setup_black, started_at, first, clock_seen_t, result,
                  setup_started_at, setup_overrun_at, reading_started_at, lots_drawn_at) ON games TO \"{role}\";
             GRANT UPDATE (state, completed_at) ON rounds TO \"{role}\";
             GRANT INSERT, UPDATE (sheet, complete, entered_at) ON adjudication_sheets TO \"{role}\";
             GRANT UPDATE (result) ON pairings TO \"{role}\";
             INSERT INTO stations (name, role, created_at) VALUES ('{station}', '{role}', 0);
             INSERT INTO station_tables VALUES ('{station}', {}), ('{station}', {});\n",
            tables[0], tables[1]
        ));
    }
    sql.push_str(&format!(
        "CREATE ROLE {old}_public NOLOGIN;
         GRANT USAGE ON SCHEMA public TO {old}_public;
         GRANT SELECT ON tournaments, players, registrations, rounds, pairings,
               round_byes, absences, penalties, forbidden_pairs, bans TO {old}_public;
         GRANT SELECT (id, tournament_id, round, table_no, white_no, black_no, mode,
               started_at, result, void, created_at) ON games TO {old}_public;
         GRANT SELECT (id) ON audit_log TO {old}_public;
         GRANT {old}_public TO {login};\n"
    ));
    cluster.psql(&old, &sql);
    let stale = privileges(&old);
    assert!(stale.contains("hall-a"), "{stale}");
    // Opened by the director's desk: migration 4 runs.
    let upgraded = Store::connect(&Address::Server(url_of(&old))).expect("upgraded");
    assert_eq!(
        upgraded.schema_version().expect("version"),
        ggdesk::store::SCHEMA_VERSION
    );
    drop(upgraded);
    let after = privileges(&old);
    // A new database with the same stations and the public pages started once.
    let new = format!("mig_new_{n}");
    cluster.psql("postgres", &format!("CREATE DATABASE {new} OWNER {login}"));
    let mut fresh = Store::connect(&Address::Server(url_of(&new))).expect("new");
    let d = Actor::director();
    fresh
        .add_station("hall-a", &[TableNo(1), TableNo(2)], &d)
        .expect("hall-a");
    fresh
        .add_station("hall-b", &[TableNo(3), TableNo(4)], &d)
        .expect("hall-b");
    drop(Store::connect_read_only(&Address::Server(url_of(&new))).expect("the public role"));
    let expected = privileges(&new).replace(&new, "DB");
    assert_eq!(after.replace(&old, "DB"), expected);
    // Opening it again changes nothing more.
    drop(Store::connect(&Address::Server(url_of(&old))).expect("again"));
    assert_eq!(privileges(&old), after);
    // The old stations work through their functions now, and only so.
    let station_url = format!("postgres://{old}_hall-a:x@127.0.0.1:{}/{old}", cluster.port);
    let station = Store::connect(&Address::Server(station_url)).expect("an old station");
    assert!(station.is_station());
    let mut a = sql_client(&format!(
        "postgres://{old}_hall-a:x@127.0.0.1:{}/{old}",
        cluster.port
    ));
    assert_denied(
        &mut a,
        "UPDATE public.pairings SET result = 'draw'",
        "permission denied for table pairings",
    );
    let refused = station.load_game(GameId(1));
    assert!(
        matches!(refused, Err(StoreError::NotFound(_))),
        "{refused:?}"
    );
}
