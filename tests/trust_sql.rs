//! Issue 32, item 2: a station is never a database login. Migration 11 drops every login the
//! stations table names (its sessions ended first), with the views, functions and schema
//! that served them alone: an old card that was a login is refused by PostgreSQL itself,
//! while a station of the stations' API keeps its secret. A database upgraded from the
//! schema before it, with stations made the old way, ends with no station's role and the
//! privileges a new database has. The event is set up as the README says: a director's
//! login that is no superuser, may create roles and owns the database.

#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use ggdesk::store::{Actor, Address, AuditFilter, Store, TournamentId};
use ggdesk_core::tournament::TableNo;
use trust::{assert_login_refused, sql_client};

/// The migrations before 11, as the build that had them applied them.
const BEFORE_11: [&str; 10] = [
    "schema.postgres.sql",
    "migrations/002-event-tokens.postgres.sql",
    "migrations/003-desk-timers.postgres.sql",
    "migrations/004-station-functions.postgres.sql",
    "migrations/005-ratings.postgres.sql",
    "migrations/006-stages.postgres.sql",
    "migrations/007-station-audit.postgres.sql",
    "migrations/008-station-api.postgres.sql",
    "migrations/009-standby-addresses.postgres.sql",
    "migrations/010-teams.postgres.sql",
];

/// The secret hall-b's card holds in [`old_event`].
const HALL_B_SECRET: &str = "0123456789abcdef0123456789abcdef";

/// A director's login `login` (no superuser, may create roles) and database `db` it owns.
fn director(login: &str, db: &str) -> String {
    pg::cluster().director_database(login, db)
}

/// Database `db` as a build of schema version 10 left it, made by `login`: tournament "Open"
/// and two stations made as that build's `station add` made them, each a login with its
/// grants (`ggdesk_station_grants`): hall-a (tables 1 and 2) a login only, hall-b (tables 3
/// and 4) also a station of the API, with the tournament and the hash of
/// [`HALL_B_SECRET`]; and the public pages' role as the pages made it. Answers each
/// station's old card: the URL of its login.
fn old_event(login: &str, db: &str) -> (String, String) {
    let cluster = pg::cluster();
    let root = env!("CARGO_MANIFEST_DIR");
    let mut sql = format!("SET ROLE {login};\n");
    for file in BEFORE_11 {
        sql.push_str(&std::fs::read_to_string(format!("{root}/{file}")).expect("migration"));
        sql.push('\n');
    }
    sql.push_str(
        "UPDATE ggdesk_meta SET schema_version = 10;
         INSERT INTO tournaments (name, system, tiebreaks, rules, created_at)
             VALUES ('Open', 'swiss', '[]', '{}', 0);\n",
    );
    for (station, password, tables) in [("hall-a", "pw-a", [1, 2]), ("hall-b", "pw-b", [3, 4])] {
        let role = format!("{db}_{station}");
        sql.push_str(&format!(
            "CREATE ROLE \"{role}\" LOGIN CONNECTION LIMIT 4 PASSWORD '{password}';
             GRANT CONNECT ON DATABASE {db} TO \"{role}\";
             INSERT INTO stations (name, role, created_at) VALUES ('{station}', '{role}', 0);
             INSERT INTO station_tables VALUES ('{station}', {}), ('{station}', {});
             SELECT public.ggdesk_station_grants('{role}');\n",
            tables[0], tables[1]
        ));
    }
    sql.push_str(&format!(
        "UPDATE stations SET tournament_id = (SELECT id FROM tournaments WHERE name = 'Open'),
             secret_hash = 'sha256$00112233445566778899aabbccddeeff$'
                 || encode(sha256(convert_to('00112233445566778899aabbccddeeff'
                                             || '{HALL_B_SECRET}', 'UTF8')), 'hex')
         WHERE name = 'hall-b';
         CREATE ROLE {db}_public NOLOGIN;
         SELECT public.ggdesk_public_grants('{db}_public');
         GRANT {db}_public TO {login};\n"
    ));
    cluster.psql(db, &sql);
    let card = |station: &str, password: &str| {
        format!(
            "postgres://{db}_{station}:{password}@127.0.0.1:{}/{db}",
            cluster.port
        )
    };
    (card("hall-a", "pw-a"), card("hall-b", "pw-b"))
}

/// The roles of the cluster among `names`, comma-separated.
fn roles_among(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    pg::cluster().psql(
        "postgres",
        &format!(
            "SELECT coalesce(string_agg(rolname, ',' ORDER BY rolname), '') FROM pg_roles
             WHERE rolname IN ({})",
            quoted.join(", ")
        ),
    )
}

#[test]
fn the_migration_drops_every_station_login_and_an_old_card_is_refused() {
    let n = std::process::id();
    let (login, db) = (format!("drop_dir_{n}"), format!("drop_old_{n}"));
    let url = director(&login, &db);
    let (card_a, card_b) = old_event(&login, &db);
    let cluster = pg::cluster();
    let station_roles: Vec<String> = cluster
        .psql(&db, "SELECT role FROM stations ORDER BY name")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(
        station_roles,
        [format!("{db}_hall-a"), format!("{db}_hall-b")]
    );
    assert_eq!(roles_among(&station_roles), station_roles.join(","));
    // hall-a's desk is logged in, as its card let it.
    let mut held = sql_client(&card_a);
    let me: String = held
        .query_one("SELECT public.ggdesk_station_name()", &[])
        .expect("a station's login")
        .get(0);
    assert_eq!(me, "hall-a");
    // The director's desk opens the database: migration 11 runs.
    let director = Store::connect(&Address::Server(url.clone())).expect("upgraded");
    assert_eq!(
        director.schema_version().expect("version"),
        ggdesk::store::SCHEMA_VERSION
    );
    // No role of a station is left; the session the login had is ended; each old card is
    // refused by PostgreSQL itself.
    assert_eq!(roles_among(&station_roles), "");
    let ended = held.batch_execute("SELECT 1");
    assert!(ended.is_err(), "hall-a's session was ended: {ended:?}");
    assert_login_refused(&card_a);
    assert_login_refused(&card_b);
    // What served the logins alone is gone: their schema, views, functions and column.
    assert_eq!(
        cluster.psql(
            &db,
            "SELECT (SELECT count(*) FROM pg_namespace WHERE nspname = 'ggdesk_station')
                    || ' ' || (SELECT count(*) FROM pg_proc WHERE proname LIKE 'ggdesk\\_station%')
                    || ' ' || (SELECT count(*) FROM information_schema.columns
                               WHERE table_name = 'stations' AND column_name = 'role')"
        ),
        "0 0 0"
    );
    // hall-b, a station of the API, keeps its row, tables and secret; hall-a was only a
    // login, and is gone.
    let hall_b = director
        .station_by_secret("hall-b", HALL_B_SECRET)
        .expect("read")
        .expect("hall-b's card still opens the API");
    assert_eq!(hall_b.tables, [TableNo(3), TableNo(4)]);
    let names: Vec<String> = director
        .stations()
        .expect("stations")
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["hall-b"]);
    let lines: Vec<(String, String, String)> = director
        .audit_log(AuditFilter::All)
        .expect("the audit log")
        .into_iter()
        .map(|e| (e.actor, e.action, e.details))
        .collect();
    let said = |station: &str| {
        (
            "ggdesk".to_string(),
            "station login dropped".to_string(),
            format!(
                "station {station}: its database login {db}_{station} is dropped (migration \
                 11); a station speaks only to the event server's API"
            ),
        )
    };
    assert_eq!(
        lines,
        [
            said("hall-a"),
            said("hall-b"),
            (
                "ggdesk".to_string(),
                "station removed".to_string(),
                "station hall-a: it was a database login with no secret of the stations' API \
                 (migration 11); add it again with its tournament for a card"
                    .to_string()
            ),
        ]
    );
}

/// The privileges a database holds, with the database's name taken out: its tables',
/// views', sequences', functions' and schemas' grants (each as who may do what, an owner's
/// implicit grants written out), and the limits and settings of every role named after it
/// (its public role; the stations' logins, while there were any).
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

/// A database of schema version 10 with stations made the old way (logins with their
/// grants) and the public pages' role, upgraded by the director's desk that opens it: no
/// station's role is left, and it has the privileges of a database made new with a station
/// and the public pages started once.
#[test]
fn an_upgraded_database_has_no_station_role_and_the_privileges_of_a_new_one() {
    let n = std::process::id();
    let login = format!("mig_dir_{n}");
    let (old, new) = (format!("mig_old_{n}"), format!("mig_new_{n}"));
    let url_old = director(&login, &old);
    old_event(&login, &old);
    let stale = privileges(&old);
    assert!(
        stale.contains("hall-a") && stale.contains("ggdesk_station"),
        "{stale}"
    );
    let upgraded = Store::connect(&Address::Server(url_old.clone())).expect("upgraded");
    assert_eq!(
        upgraded.schema_version().expect("version"),
        ggdesk::store::SCHEMA_VERSION
    );
    drop(upgraded);
    let after = privileges(&old);
    assert!(
        !after.contains("hall-") && !after.contains("ggdesk_station"),
        "{after}"
    );
    // A new database with a station of the API and the public pages started once.
    let cluster = pg::cluster();
    cluster.psql("postgres", &format!("CREATE DATABASE {new} OWNER {login}"));
    let url_new = format!(
        "postgres://{login}:director-pw@127.0.0.1:{}/{new}",
        cluster.port
    );
    let mut fresh = Store::connect(&Address::Server(url_new.clone())).expect("new");
    let tid: TournamentId = trust::tournament(&mut fresh, "m", 4);
    fresh
        .add_station("hall-b", tid, &[TableNo(3), TableNo(4)], &Actor::director())
        .expect("hall-b");
    drop(Store::connect_read_only(&Address::Server(url_new)).expect("the public role"));
    assert_eq!(
        after.replace(&old, "DB"),
        privileges(&new).replace(&new, "DB")
    );
    // Opening it again changes nothing more.
    drop(Store::connect(&Address::Server(url_old)).expect("again"));
    assert_eq!(privileges(&old), after);
}
