//! The public pages from an event server: the hall of `serve_support` copied onto a
//! PostgreSQL database gives, page for page, what it gives from its SQLite file; the server
//! reads as the database's public role in read-only transactions, which cannot write and
//! cannot read a setup, an event or a reading sheet.

#[path = "support/pg.rs"]
mod pg;
mod serve_support;

use ggdesk::serve::{ServeConfig, Server};
use ggdesk::store::{Actor, Address, PlayerInput, Store, StoreError};
use serve_support::{every_path, get, hall};

fn serve_address(address: Address) -> Server {
    let config = ServeConfig::new(address, "127.0.0.1:0".parse().expect("addr"));
    Server::start(&config).expect("server starts")
}

/// The hall of `serve_support` in its file and copied onto a new server database; that
/// database's URL.
fn hall_on_server() -> (serve_support::Hall, String) {
    let h = hall();
    let url = pg::new_database();
    let src = Store::open(&h.path).expect("file");
    let mut dst = Store::connect(&Address::Server(url.clone())).expect("server");
    src.copy_into(&mut dst)
        .expect("copy the hall onto the server");
    (h, url)
}

/// A body without what legitimately differs between two servers: the address in the wall
/// page and the validators.
fn comparable(body: &str, addr: std::net::SocketAddr) -> String {
    body.replace(&addr.to_string(), "ADDR")
}

#[test]
fn the_public_pages_from_a_server_are_those_from_the_file() {
    let (h, url) = hall_on_server();
    let from_file = serve_address(Address::File(h.path.clone()));
    let from_server = serve_address(Address::Server(url.clone()));
    let mut compared = 0;
    // The wall page shows the server's own address (and its QR code): not compared.
    for path in every_path(h.tid, h.round, 12)
        .into_iter()
        .filter(|p| p != "/wall")
    {
        let a = get(from_file.addr(), &path);
        let b = get(from_server.addr(), &path);
        assert_eq!(a.status, b.status, "{path}");
        assert_eq!(
            comparable(&a.body, from_file.addr()),
            comparable(&b.body, from_server.addr()),
            "{path}: the same page from either engine"
        );
        compared += 1;
    }
    assert!(compared > 20, "{compared} pages compared");
}

/// What psql says (its SQLSTATE with the message, `VERBOSITY=verbose`) when the database's
/// public role runs `sql` with the search path the public pages' connection has; `Ok` with
/// the output when it runs.
fn as_public_role(db: &str, role: &str, sql: &str) -> Result<String, String> {
    let cluster = pg::cluster();
    let out = pg::pg_command(&cluster.bin, "psql")
        .arg("-h")
        .arg(&cluster.dir)
        .args(["-p", &cluster.port.to_string(), "-U", "postgres", "-d", db])
        .args([
            "-X",
            "-v",
            "ON_ERROR_STOP=1",
            "-v",
            "VERBOSITY=verbose",
            "-tA",
            "-c",
        ])
        .arg(format!(
            "SET ROLE \"{role}\"; SET search_path = ggdesk_public; {sql}"
        ))
        .output()
        .expect("psql");
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

#[test]
fn the_servers_public_connection_can_neither_write_nor_read_a_game_in_progress() {
    let (_hall, url) = hall_on_server();
    let mut public = Store::connect_read_only(&Address::Server(url.clone())).expect("read only");
    // It reads what the pages show.
    assert!(!public.tournaments().expect("tournaments").is_empty());
    // It writes nothing.
    let refused = public.add_player(
        &PlayerInput {
            name: "Intruder".into(),
            ..PlayerInput::default()
        },
        &Actor::director(),
    );
    assert!(matches!(refused, Err(StoreError::Denied(_))), "{refused:?}");
    // And the database itself holds the public role to the views of what the pages show:
    // every private column, whichever way it is asked for, is refused, each with its own
    // refusal (the table: no privilege; its view: no such column).
    let db = url.rsplit('/').next().expect("database name").to_string();
    let role = format!("{db}_public");
    let private = [
        ("players", "federation_id"),
        ("registrations", "federation_id"),
        ("registrations", "extra"),
        ("penalties", "reason"),
        ("forbidden_pairs", "player_a"),
        ("bans", "reason"),
        ("absences", "reason"),
        ("pairings", "explanation"),
        ("round_byes", "explanation"),
        ("rounds", "explanation"),
        ("tournaments", "extra"),
        ("games", "setup_white"),
        ("games", "setup_black"),
        ("game_events", "payload"),
        ("adjudication_sheets", "sheet"),
        ("audit_log", "details"),
        ("audit_log", "reason"),
        ("stations", "secret_hash"),
    ];
    for (table, column) in private {
        let direct = as_public_role(&db, &role, &format!("SELECT {column} FROM public.{table}"));
        let message = direct.expect_err(&format!("public.{table}.{column} must be refused"));
        assert!(
            message.contains(&format!("42501: permission denied for table {table}")),
            "public.{table}.{column}: {message}"
        );
        let through_view = as_public_role(&db, &role, &format!("SELECT {column} FROM {table}"));
        let message = through_view.expect_err(&format!("{table}.{column} must be refused"));
        let expected = match table {
            // No view at all: nothing of these tables is shown.
            "players"
            | "forbidden_pairs"
            | "bans"
            | "game_events"
            | "adjudication_sheets"
            | "stations" => format!("42P01: relation \"{table}\" does not exist"),
            _ => format!("42703: column \"{column}\" does not exist"),
        };
        assert!(
            message.contains(&expected),
            "{table}.{column} through the views: {message}"
        );
    }
    // Writes: refused on the tables and on the views alike.
    for (sql, subject) in [
        (
            "INSERT INTO public.players (name, created_at) VALUES ('x', 0)",
            "table players",
        ),
        (
            "UPDATE public.pairings SET result = 'draw'",
            "table pairings",
        ),
        ("DELETE FROM registrations", "view registrations"),
        ("INSERT INTO audit_log (id) VALUES (99)", "view audit_log"),
    ] {
        let message = as_public_role(&db, &role, sql).expect_err(sql);
        assert!(
            message.contains(&format!("42501: permission denied for {subject}")),
            "{sql}: {message}"
        );
    }
    // What the pages show is read through the views, a draft excepted.
    let boards = as_public_role(&db, &role, "SELECT count(*) FROM pairings").expect("pairings");
    let count = boards.lines().last().unwrap_or("");
    assert!(count.parse::<i64>().is_ok_and(|n| n > 0), "{boards}");
    let drafts = as_public_role(
        &db,
        &role,
        "SELECT count(*) FROM rounds WHERE state = 'draft'",
    )
    .expect("rounds");
    assert_eq!(drafts.lines().last(), Some("0"));
}

/// A login that may not create the public role does not read as itself instead: the public
/// pages refuse to start, saying what to do, until the database's owner has made the role
/// and granted it to that login; they then read as the role.
#[test]
fn a_login_that_cannot_make_the_public_role_is_refused_until_it_is_granted_one() {
    let (h, url) = hall_on_server();
    let db = url.rsplit('/').next().expect("database name").to_string();
    let cluster = pg::cluster();
    let clerk = format!("{db}_clerk");
    // The clerk may read every table (setups included) but create no role.
    cluster.psql(
        &db,
        &format!(
            "CREATE ROLE \"{clerk}\" LOGIN PASSWORD 'clerk-pw' NOCREATEROLE;
             GRANT SELECT ON ALL TABLES IN SCHEMA public TO \"{clerk}\""
        ),
    );
    let clerk_url = format!(
        "postgres://{clerk}:clerk-pw@127.0.0.1:{}/{db}",
        cluster.port
    );
    let refused = Store::connect_read_only(&Address::Server(clerk_url.clone()));
    match refused {
        Err(StoreError::Denied(m)) => {
            assert!(m.contains(&format!("{db}_public")), "names the role: {m}");
            assert!(m.contains("GRANT"), "says what to do: {m}");
        }
        other => panic!("the clerk's public connection should be refused: {other:?}"),
    }
    // The owner starts the public pages once (the role is made), then grants it.
    drop(Store::connect_read_only(&Address::Server(url.clone())).expect("owner"));
    cluster.psql(&db, &format!("GRANT \"{db}_public\" TO \"{clerk}\""));
    let public =
        Store::connect_read_only(&Address::Server(clerk_url)).expect("the clerk, with the role");
    assert!(!public.tournaments().expect("tournaments").is_empty());
    let setups = public.load_game(h.games[0].1);
    // The clerk as itself could read the games table; the session reads as the public
    // role, whose `games` is the view without a game's private columns, so the desk's query
    // of a game finds a column missing there (a connection error or a denial would be
    // another refusal).
    match setups {
        Err(StoreError::Database(m))
            if m.starts_with("column \"") && m.ends_with("\" does not exist") => {}
        other => panic!("the role reads no setup: {other:?}"),
    }
}
