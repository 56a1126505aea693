//! Arbiter stations on an event server: rows of the stations' HTTPS API (`docs/station-api.md`),
//! never database logins. A station is its name, its tournament, the tables it runs in that
//! tournament's round in play and the salted hash of its secret; its desk speaks to the event
//! server (`ggdesk host`), which checks the secret and every command before it writes on the
//! director's connection. Migration 11 dropped the station logins made before, with their
//! views and functions. Which games a desk writes into by itself is [`Keeper`]'s rule.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::Engine;
use super::db::{Tx, args};
use super::error::{Result, StoreError};
use ggdesk_core::tournament::{TableNo, TournamentId};
use rand::Rng;
use sha2::{Digest, Sha256};

/// A station as the director's desk shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Station {
    pub name: String,
    /// The table numbers it runs in its tournament's round in play.
    pub tables: Vec<TableNo>,
    /// The tournament whose round in play it runs.
    pub tournament: TournamentId,
}

/// Reads a list of tables as the director types it: `1-10,12`.
pub fn parse_tables(text: &str) -> std::result::Result<Vec<TableNo>, String> {
    let mut out: Vec<u32> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |s: &str| -> std::result::Result<u32, String> {
            s.trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=10_000).contains(n))
                .ok_or_else(|| format!("{s:?} is not a table number (1 to 10000)"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    return Err(format!("{part}: the range runs backwards"));
                }
                out.extend(a..=b);
            }
            None => out.push(number(part)?),
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out.into_iter().map(TableNo).collect())
}

/// The tables as the director would type them: `1-10, 12`.
pub fn tables_text(tables: &[TableNo]) -> String {
    let tables: Vec<u32> = tables.iter().map(|t| t.0).collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < tables.len() {
        let start = tables[i];
        let mut end = start;
        while i + 1 < tables.len() && tables[i + 1] == end + 1 {
            i += 1;
            end = tables[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(", ")
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// An SQL identifier in double quotes.
fn quoted(ident: &str) -> String {
    format!("\"{}\"", ident.replace('"', "\"\""))
}

/// A password of 20 letters and digits from the operating system's randomness.
fn new_password() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut rng = rand::rngs::StdRng::from_os_rng();
    (0..20)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

use rand::SeedableRng;

/// The URL of `address` with another login: same hosts, database and parameters.
pub(crate) fn url_for(address: &str, user: &str, password: &str) -> String {
    let Some((scheme, rest)) = address.split_once("://") else {
        return address.to_string();
    };
    let hosts_and_rest = match rest.find(['/', '?']) {
        Some(i) => {
            let (authority, tail) = rest.split_at(i);
            let hosts = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            format!("{hosts}{tail}")
        }
        None => rest.rsplit_once('@').map_or(rest, |(_, h)| h).to_string(),
    };
    // The password may not ride along as a parameter of the director's URL.
    let hosts_and_rest = match hosts_and_rest.split_once('?') {
        Some((path, query)) => {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|kv| !kv.starts_with("password=") && !kv.starts_with("user="))
                .collect();
            if kept.is_empty() {
                path.to_string()
            } else {
                format!("{path}?{}", kept.join("&"))
            }
        }
        None => hosts_and_rest,
    };
    format!("{scheme}://{user}:{password}@{hosts_and_rest}")
}

/// Clears every setting of `role` (its own `ALTER ROLE … SET`, in every database).
fn clear_role_settings(tx: &mut super::db::Tx<'_>, role: &str) -> Result<()> {
    let db: String = tx.query_one("SELECT current_database()", args![], |r| r.get(0))?;
    tx.batch(&format!("ALTER ROLE {} RESET ALL", quoted(role)))?;
    tx.batch(&format!(
        "ALTER ROLE {} IN DATABASE {} RESET ALL",
        quoted(role),
        quoted(&db)
    ))
}

/// A row of `SELECT name, tournament_id FROM stations`, its tables not read yet.
fn station_row(r: &super::db::Row) -> Result<Station> {
    Ok(Station {
        name: r.get(0)?,
        tables: Vec::new(),
        tournament: r.get(1)?,
    })
}

fn stations_in(q: &mut Tx<'_>) -> Result<Vec<Station>> {
    let mut stations = q.query_map(
        "SELECT name, tournament_id FROM stations ORDER BY name",
        args![],
        station_row,
    )?;
    let tables = q.query_map(
        "SELECT station, table_no FROM station_tables ORDER BY station, table_no",
        args![],
        |r| Ok((r.get::<String>(0)?, r.get::<TableNo>(1)?)),
    )?;
    for (name, table) in tables {
        if let Some(s) = stations.iter_mut().find(|s| s.name == name) {
            s.tables.push(table);
        }
    }
    Ok(stations)
}

/// The station named `name` with its tables, alone (a request of the stations' API reads
/// its own station, not all of them).
fn station_named(q: &mut Tx<'_>, name: &str) -> Result<Option<Station>> {
    let found = q.query_opt(
        "SELECT name, tournament_id FROM stations WHERE name = ?1",
        args![name],
        station_row,
    )?;
    let Some(mut station) = found else {
        return Ok(None);
    };
    station.tables = q.query_map(
        "SELECT table_no FROM station_tables WHERE station = ?1 ORDER BY table_no",
        args![name],
        |r| r.get(0),
    )?;
    Ok(Some(station))
}

/// Gives a station its tables (inside the caller's transaction).
fn assign(tx: &mut Tx<'_>, name: &str, tables: &[TableNo]) -> Result<()> {
    for t in tables {
        tx.execute(
            "INSERT INTO station_tables (station, table_no) VALUES (?1, ?2)",
            args![name, t],
        )?;
    }
    Ok(())
}

fn server_only(store: &Store) -> Result<()> {
    if store.engine() == Engine::Postgres {
        Ok(())
    } else {
        Err(StoreError::Rejected(
            "arbiter stations exist only on an event server (a PostgreSQL database)".into(),
        ))
    }
}

/// Refuses, before anything is written, a login that is not the owner of the event's tables
/// (the director's): only it manages stations.
fn director_only(tx: &mut Tx<'_>, what: &str) -> Result<()> {
    let director: bool = tx.query_one(
        "SELECT (SELECT tableowner FROM pg_catalog.pg_tables
                 WHERE schemaname = 'public' AND tablename = 'stations') = current_user",
        args![],
        |r| r.get(0),
    )?;
    if director {
        Ok(())
    } else {
        Err(StoreError::Denied(format!(
            "only the director's login may {what}"
        )))
    }
}

/// The tournament of station `name`; [`StoreError::NotFound`] when there is none.
fn tournament_of(tx: &mut Tx<'_>, name: &str) -> Result<TournamentId> {
    tx.query_opt(
        "SELECT tournament_id FROM stations WHERE name = ?1",
        args![name],
        |r| r.get(0),
    )?
    .ok_or_else(|| StoreError::NotFound(format!("station {name}")))
}

/// Refuses a tournament that does not exist.
fn tournament_known(tx: &mut Tx<'_>, tournament: TournamentId) -> Result<()> {
    let known: i64 = tx.query_one(
        "SELECT count(*) FROM tournaments WHERE id = ?1",
        args![tournament],
        |r| r.get(0),
    )?;
    if known == 0 {
        return Err(StoreError::NotFound(format!("tournament {tournament}")));
    }
    Ok(())
}

/// Refuses station `name`'s tables when another station of `tournament` holds one of them:
/// two stations never hold the same table of one tournament.
fn tables_free(tx: &mut Tx<'_>, name: &str, tournament: TournamentId) -> Result<()> {
    let shared: Vec<(String, TableNo)> = tx.query_map(
        "SELECT o.station, o.table_no FROM station_tables o
         JOIN stations s ON s.name = o.station
         JOIN station_tables m ON m.table_no = o.table_no AND m.station = ?1
         WHERE s.tournament_id = ?2 AND o.station <> ?1
         ORDER BY o.table_no",
        args![name, tournament],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if let Some((other, table)) = shared.first() {
        return Err(StoreError::Rejected(format!(
            "station {other} runs table {table} of tournament {tournament} already: \
             two stations never hold the same table of one tournament"
        )));
    }
    Ok(())
}

/// The scheme of a stored secret's hash (`sha256$SALT$HASH`, migration 8).
const SECRET_SCHEME: &str = "sha256";

/// 128 bits from the operating system's randomness, as 32 lowercase hex digits.
fn random_hex128() -> String {
    let mut rng = rand::rngs::StdRng::from_os_rng();
    format!("{:032x}", rng.random::<u128>())
}

/// The SHA-256 (hex) of `salt` followed by `secret`.
fn salted_sha256(salt: &str, secret: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(salt.as_bytes());
    hasher.update(secret.as_bytes());
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What `stations.secret_hash` keeps of a secret: `sha256$SALT$HASH` with a new salt. The
/// secret is 128 random bits the server made, never a word a person chose: nobody can
/// guess it or try a dictionary on the hash, so one salted SHA-256 is enough (a slow
/// password hash guards what people choose, which this is not).
fn secret_hash(secret: &str) -> String {
    let salt = random_hex128();
    let hash = salted_sha256(&salt, secret);
    format!("{SECRET_SCHEME}${salt}${hash}")
}

/// Whether `secret` is the one `stored` keeps, comparing every byte whatever the first
/// difference (no answer comes sooner for a closer guess). A missing or unreadable hash
/// matches nothing, after the same work.
fn secret_matches(stored: Option<&str>, secret: &str) -> bool {
    let parts: Option<(&str, &str)> = stored.and_then(|s| {
        let mut it = s.split('$');
        match (it.next(), it.next(), it.next(), it.next()) {
            (Some(SECRET_SCHEME), Some(salt), Some(hash), None) => Some((salt, hash)),
            _ => None,
        }
    });
    let (salt, expected, known) = match parts {
        Some((salt, hash)) => (salt, hash, true),
        None => ("0", "", false),
    };
    let seen = salted_sha256(salt, secret);
    let same_length = seen.len() == expected.len();
    let diff = seen
        .bytes()
        .zip(expected.bytes().chain(std::iter::repeat(0)))
        .fold(0u8, |acc, (a, b)| acc | (a ^ b));
    known && same_length && diff == 0
}

impl Store {
    /// The stations of the event server (none on SQLite).
    pub fn stations(&self) -> Result<Vec<Station>> {
        if self.engine() != Engine::Postgres {
            return Ok(Vec::new());
        }
        self.read(stations_in)
    }

    /// The station this desk is, when it is an arbiter station's desk on the stations' API
    /// ([`Store::on_station_api`]); `None` for every other desk.
    pub fn my_station(&self) -> Result<Option<Station>> {
        match self.remote() {
            Some(r) => super::remote::my_station(&*r).map(Some),
            None => Ok(None),
        }
    }

    /// Creates station `name` of the stations' API for `tournament`, running `tables` of
    /// its round in play, and returns its secret: shown this once, kept only as a salted
    /// hash. A station is a row and nothing else: no database login, no password. Only the
    /// director's login may; a name taken, a tournament that does not exist or a table
    /// another station of the tournament runs is refused, and nothing is written.
    pub fn add_station(
        &mut self,
        name: &str,
        tournament: TournamentId,
        tables: &[TableNo],
        actor: &Actor,
    ) -> Result<String> {
        server_only(self)?;
        if !valid_name(name) {
            return Err(StoreError::Rejected(format!(
                "{name:?} is not a station name: use letters, digits, - and _ (at most 32)"
            )));
        }
        let secret = random_hex128();
        let hash = secret_hash(&secret);
        self.write(|tx| {
            director_only(tx, "add arbiter stations")?;
            let taken: i64 = tx.query_one(
                "SELECT count(*) FROM stations WHERE lower(name) = lower(?1)",
                args![name],
                |r| r.get(0),
            )?;
            if taken > 0 {
                return Err(StoreError::Rejected(format!(
                    "station {name} exists already"
                )));
            }
            tournament_known(tx, tournament)?;
            let now = tx.now();
            tx.execute(
                "INSERT INTO stations (name, tournament_id, secret_hash, created_at)
                 VALUES (?1, ?2, ?3, ?4)",
                args![name, tournament, hash, now],
            )?;
            assign(tx, name, tables)?;
            tables_free(tx, name, tournament)?;
            audit(
                tx,
                actor,
                "station added",
                Some(tournament),
                None,
                "",
                &format!(
                    "station {name}: tournament {tournament}, tables {}",
                    tables_text(tables)
                ),
            )
        })?;
        Ok(secret)
    }

    /// Assigns a station the tables it runs (replacing the ones it had).
    pub fn set_station_tables(
        &mut self,
        name: &str,
        tables: &[TableNo],
        actor: &Actor,
    ) -> Result<()> {
        server_only(self)?;
        self.write(|tx| {
            director_only(tx, "change a station's tables")?;
            let tournament = tournament_of(tx, name)?;
            let n = tx.execute("DELETE FROM station_tables WHERE station = ?1", args![name])?;
            assign(tx, name, tables)?;
            tables_free(tx, name, tournament)?;
            audit(
                tx,
                actor,
                "station tables",
                Some(tournament),
                None,
                "",
                &format!("station {name}: tables {} (had {n})", tables_text(tables)),
            )
        })
    }

    /// Removes a station: its row goes, and with it its tables and its secret. A request
    /// with its secret is refused from this commit on; the event server also ends its open
    /// requests and streams (the audit line, of the station's tournament, tells it at once).
    /// Only the director's login may.
    pub fn remove_station(&mut self, name: &str, actor: &Actor) -> Result<()> {
        server_only(self)?;
        self.write(|tx| {
            director_only(tx, "remove arbiter stations")?;
            let tournament = tournament_of(tx, name)?;
            tx.execute("DELETE FROM stations WHERE name = ?1", args![name])?;
            audit(
                tx,
                actor,
                "station removed",
                Some(tournament),
                None,
                "",
                &format!("station {name}: its secret no longer works"),
            )
        })
    }

    /// Issues station `name` a new secret for the stations' HTTPS API, for tournament
    /// `tournament` (whose round in play it runs at its tables), and returns it: shown this
    /// once, kept only as a salted hash. The old secret stops working at once (a request
    /// with it is refused from this commit on; the event server also ends the station's open
    /// requests and streams: `station::StationServer::end_station`). Only the director's
    /// login may; the station must exist, and no other station of the tournament may hold
    /// one of its tables.
    pub fn issue_station_secret(
        &mut self,
        name: &str,
        tournament: TournamentId,
        actor: &Actor,
    ) -> Result<String> {
        server_only(self)?;
        let secret = random_hex128();
        let hash = secret_hash(&secret);
        self.write(|tx| {
            director_only(tx, "issue a station's secret")?;
            tournament_of(tx, name)?;
            tournament_known(tx, tournament)?;
            tables_free(tx, name, tournament)?;
            tx.execute(
                "UPDATE stations SET tournament_id = ?1, secret_hash = ?2 WHERE name = ?3",
                args![tournament, hash, name],
            )?;
            audit(
                tx,
                actor,
                "station secret issued",
                Some(tournament),
                None,
                "",
                &format!(
                    "station {name}: tournament {tournament}, a new secret (any earlier one no \
                     longer works)"
                ),
            )
        })?;
        Ok(secret)
    }

    /// The station named `name` when `secret` is its secret for the stations' API (compared
    /// in constant time, with the same work for a station that does not exist or has no
    /// secret); `None` otherwise, and always on SQLite.
    pub fn station_by_secret(&self, name: &str, secret: &str) -> Result<Option<Station>> {
        if self.engine() != Engine::Postgres {
            return Ok(None);
        }
        self.read(|q| {
            let stored: Option<Option<String>> = q.query_opt(
                "SELECT secret_hash FROM stations WHERE name = ?1",
                args![name],
                |r| r.get(0),
            )?;
            if !secret_matches(stored.flatten().as_deref(), secret) {
                return Ok(None);
            }
            station_named(q, name)
        })
    }

    /// Which station runs each table of each tournament (a station runs tables of its own
    /// tournament only: table 3 of another event is not its).
    pub fn table_stations(&self) -> Result<TableStations> {
        if let Some(r) = self.remote() {
            return super::remote::table_stations(&*r);
        }
        Ok(self
            .stations()?
            .into_iter()
            .flat_map(|s| {
                let (t, name) = (s.tournament, s.name);
                s.tables.into_iter().map(move |n| ((t, n), name.clone()))
            })
            .collect())
    }

    /// Which games this desk writes into by itself (see [`Keeper`]).
    pub fn keeper(&self) -> Result<Keeper> {
        let me = self.my_station()?;
        let stations = self.table_stations()?;
        Ok(Keeper::new(
            me.as_ref().map(|s| (s.tournament, s.tables.as_slice())),
            &stations,
        ))
    }
}

/// Which station runs each table, by tournament and table number.
pub type TableStations = std::collections::BTreeMap<(TournamentId, TableNo), String>;

/// Which games a desk writes into by itself (its restore after a start or a reconnection,
/// the end when a clock runs out, the clocks' heartbeat, a reading timer): an arbiter
/// station's desk the games at its tables, the director's desk (and a desk on a file) the
/// games at tables no station runs and the games at no table; never a game that `feed`
/// plays (a game `feed` created: the only games with a token of their own, `games.token`),
/// which its feed writes alone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Keeper {
    /// The station's tournament and tables, for a station's desk.
    mine: Option<(TournamentId, Vec<TableNo>)>,
    /// The tables some station runs, by tournament.
    stations_run: std::collections::BTreeSet<(TournamentId, TableNo)>,
}

impl Keeper {
    /// The keeper of a desk that runs `mine` (a station's tournament and tables; `None`:
    /// the director's desk), with the tables each station runs.
    pub fn new(mine: Option<(TournamentId, &[TableNo])>, table_stations: &TableStations) -> Keeper {
        Keeper {
            mine: mine.map(|(t, tables)| (t, tables.to_vec())),
            stations_run: table_stations.keys().copied().collect(),
        }
    }

    /// Whether this desk writes by itself into a game of `tournament` at `table` (`fed`:
    /// played by `feed`).
    pub fn runs_table(
        &self,
        tournament: Option<TournamentId>,
        table: Option<TableNo>,
        fed: bool,
    ) -> bool {
        if fed {
            return false;
        }
        match (&self.mine, tournament, table) {
            (Some((t, mine)), Some(g), Some(n)) => *t == g && mine.contains(&n),
            (Some(_), _, _) => false,
            (None, Some(g), Some(n)) => !self.stations_run.contains(&(g, n)),
            (None, _, _) => true,
        }
    }

    /// Whether this desk writes by itself into the game `meta` describes.
    pub fn runs(&self, meta: &super::game_rows::GameMeta) -> bool {
        self.runs_table(meta.tournament_id, meta.table_no, meta.fed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Station hall-a runs tables 1-2 of tournament 1: table 1 of tournament 2 is the
    /// director's desk's to keep (its clocks judged, restored after a crash), not hall-a's.
    #[test]
    fn a_station_keeps_the_tables_of_its_own_tournament_only() {
        let (t1, t2) = (TournamentId(1), TournamentId(2));
        let stations: TableStations = [
            ((t1, TableNo(1)), "hall-a".to_string()),
            ((t1, TableNo(2)), "hall-a".to_string()),
        ]
        .into_iter()
        .collect();
        let director = Keeper::new(None, &stations);
        assert!(!director.runs_table(Some(t1), Some(TableNo(1)), false));
        assert!(director.runs_table(Some(t2), Some(TableNo(1)), false));
        assert!(director.runs_table(Some(t1), Some(TableNo(3)), false));
        assert!(director.runs_table(None, None, false));
        assert!(!director.runs_table(Some(t2), Some(TableNo(1)), true));
        let tables = [TableNo(1), TableNo(2)];
        let hall_a = Keeper::new(Some((t1, &tables)), &stations);
        assert!(hall_a.runs_table(Some(t1), Some(TableNo(2)), false));
        assert!(!hall_a.runs_table(Some(t2), Some(TableNo(2)), false));
        assert!(!hall_a.runs_table(Some(t1), Some(TableNo(3)), false));
        assert!(!hall_a.runs_table(None, None, false));
    }

    #[test]
    fn a_secret_matches_its_own_hash_only() {
        let hash = secret_hash("0123456789abcdef0123456789abcdef");
        assert!(hash.starts_with("sha256$") && hash.len() == 7 + 32 + 1 + 64);
        assert!(secret_matches(
            Some(&hash),
            "0123456789abcdef0123456789abcdef"
        ));
        assert!(!secret_matches(
            Some(&hash),
            "0123456789abcdef0123456789abcdee"
        ));
        assert!(!secret_matches(Some(&hash), ""));
        assert!(!secret_matches(None, ""));
        assert!(!secret_matches(Some("sha256$00$"), ""));
        // Two hashes of one secret differ by their salts.
        assert_ne!(hash, secret_hash("0123456789abcdef0123456789abcdef"));
    }

    #[test]
    fn tables_are_read_as_the_director_types_them() {
        let tables = |n: &[u32]| n.iter().copied().map(TableNo).collect::<Vec<_>>();
        assert_eq!(
            parse_tables("1-3, 7,5 ,2").ok(),
            Some(tables(&[1, 2, 3, 5, 7]))
        );
        assert_eq!(tables_text(&tables(&[1, 2, 3, 5, 7, 8])), "1-3, 5, 7-8");
        assert_eq!(
            parse_tables("3-1"),
            Err("3-1: the range runs backwards".into())
        );
        assert_eq!(
            parse_tables("a"),
            Err("\"a\" is not a table number (1 to 10000)".into())
        );
        assert_eq!(
            parse_tables("2, 0"),
            Err("\"0\" is not a table number (1 to 10000)".into())
        );
        assert_eq!(parse_tables("").ok(), Some(vec![]));
    }

    #[test]
    fn a_station_url_keeps_the_hosts_and_parameters_and_drops_the_directors_login() {
        assert_eq!(
            url_for(
                "postgres://dir:secret@h1:5432,h2:5433/event?target_session_attrs=read-write&password=x",
                "event_t1",
                "PW"
            ),
            "postgres://event_t1:PW@h1:5432,h2:5433/event?target_session_attrs=read-write"
        );
        assert_eq!(
            url_for("postgresql://h/db", "a", "b"),
            "postgresql://a:b@h/db"
        );
    }
}

/// The event server running on this database (`ggdesk host`): where stations reach it and
/// the fingerprint of the event's authority, for their cards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventServer {
    /// `https://HOST:PORT/`.
    pub stations_address: String,
    /// The authority's SHA-256 fingerprint, 64 hex digits.
    pub authority: String,
}

impl Store {
    /// Records the event server that runs on this database (each start of `ggdesk host`).
    pub fn set_event_server(&mut self, server: &EventServer) -> Result<()> {
        server_only(self)?;
        self.write(|tx| {
            let now = tx.now();
            tx.execute(
                "INSERT INTO event_server (singleton, stations_address, authority, started_at)
                 VALUES (1, ?1, ?2, ?3)
                 ON CONFLICT (singleton) DO UPDATE SET stations_address = excluded.stations_address,
                     authority = excluded.authority, started_at = excluded.started_at",
                args![server.stations_address, server.authority, now],
            )?;
            Ok(())
        })
    }

    /// A login of its own for `ggdesk serve` on a server ggdesk does not host (m5 of issue
    /// 32): `login` gets a new random password (its SCRAM verifier alone reaches the server)
    /// and may read only what the public pages read; answers the URL `serve --db` takes
    /// (this store's hosts, database and parameters). Run again, it gives a new password and
    /// the old one stops working.
    pub fn make_pages_login(&mut self, login: &str) -> Result<String> {
        let Some(super::Address::Server(address)) = self.address().cloned() else {
            return Err(StoreError::Rejected(
                "the public pages' login exists only on an event server".into(),
            ));
        };
        let password = new_password();
        self.set_pages_login(
            login,
            &postgres_protocol::password::scram_sha_256(password.as_bytes()),
        )?;
        Ok(url_for(&address, login, &password))
    }

    /// Makes `login` the public pages' own login (m5 of issue 32): it logs in with the
    /// password whose SCRAM verifier is `verifier` (a new one at each start of the event
    /// server), reads the schema's version and is a member of the pages' read-only role,
    /// and nothing else. Only the director's login may.
    pub fn set_pages_login(&mut self, login: &str, verifier: &str) -> Result<()> {
        server_only(self)?;
        let public = match &mut *self.borrow()? {
            super::conn::Conn::Postgres(pg) => pg.public_role()?,
            super::conn::Conn::Sqlite(_) | super::conn::Conn::Station(_) => {
                return Err(StoreError::Rejected(
                    "the public pages' login exists only on an event server".into(),
                ));
            }
        };
        self.write(|tx| {
            director_only(tx, "make the public pages' login")?;
            // An existing role is taken over only if it is a pages login made before (a member
            // of the pages' role and of nothing else, with no other right): never the
            // director's or anyone else's login.
            let someone_else: Option<bool> = tx.query_opt(
                "SELECT r.rolsuper OR r.rolcreaterole OR r.rolcreatedb OR r.rolreplication \
                     OR r.rolbypassrls OR r.rolname = current_user \
                     OR EXISTS (SELECT 1 FROM pg_catalog.pg_auth_members m \
                                JOIN pg_catalog.pg_roles g ON g.oid = m.roleid \
                                WHERE m.member = r.oid AND g.rolname <> ?2) \
                     OR NOT EXISTS (SELECT 1 FROM pg_catalog.pg_auth_members m \
                                    JOIN pg_catalog.pg_roles g ON g.oid = m.roleid \
                                    WHERE m.member = r.oid AND g.rolname = ?2) \
                 FROM pg_catalog.pg_roles r WHERE r.rolname = ?1",
                args![login, public.as_str()],
                |r| r.get(0),
            )?;
            if someone_else == Some(true) {
                return Err(StoreError::Rejected(format!(
                    "{login} is already a login of this server: choose another name for the \
                     public pages' login"
                )));
            }
            let can_login: Option<bool> = tx.query_opt(
                "SELECT rolcanlogin FROM pg_catalog.pg_roles WHERE rolname = ?1",
                args![login],
                |r| r.get(0),
            )?;
            let login_q = quoted(login);
            let password = verifier.replace('\'', "''");
            match can_login {
                None => tx.batch(&format!(
                    "CREATE ROLE {login_q} LOGIN NOINHERIT CONNECTION LIMIT 16 PASSWORD '{password}'"
                ))?,
                Some(_) => {
                    tx.batch(&format!(
                        "ALTER ROLE {login_q} LOGIN NOINHERIT PASSWORD '{password}'"
                    ))?;
                    // Settings the login gave itself go with the old password.
                    clear_role_settings(tx, login)?;
                }
            }
            let db: String = tx.query_one("SELECT current_database()", args![], |r| r.get(0))?;
            tx.batch(&format!("GRANT CONNECT ON DATABASE {} TO {login_q}", quoted(&db)))?;
            tx.batch(&format!("GRANT SELECT ON public.ggdesk_meta TO {login_q}"))?;
            tx.batch(&format!("GRANT {} TO {login_q}", quoted(&public)))?;
            Ok(())
        })
    }

    /// Records `address` (`https://HOST:PORT/`) as the stations' address of a standby of this
    /// event server (`ggdesk host --standby-of`, through the primary), for the cards.
    pub fn add_standby_address(&mut self, address: &str) -> Result<()> {
        server_only(self)?;
        self.write(|tx| {
            let now = tx.now();
            tx.execute(
                "INSERT INTO event_server_standbys (stations_address, started_at) VALUES (?1, ?2)
                 ON CONFLICT (stations_address) DO UPDATE SET started_at = excluded.started_at",
                args![address, now],
            )?;
            Ok(())
        })
    }

    /// The stations' addresses of this event server's standbys, oldest first (none on
    /// SQLite).
    pub fn standby_addresses(&self) -> Result<Vec<String>> {
        if self.engine() != Engine::Postgres {
            return Ok(Vec::new());
        }
        self.read(|q| {
            q.query_map(
                "SELECT stations_address FROM event_server_standbys
                 ORDER BY started_at, stations_address",
                args![],
                |r| r.get(0),
            )
        })
    }

    /// The event server that runs on this database, if one ever started (none on SQLite).
    pub fn event_server(&self) -> Result<Option<EventServer>> {
        if self.engine() != Engine::Postgres {
            return Ok(None);
        }
        self.read(|q| {
            q.query_opt(
                "SELECT stations_address, authority FROM event_server",
                args![],
                |r| {
                    Ok(EventServer {
                        stations_address: r.get(0)?,
                        authority: r.get(1)?,
                    })
                },
            )
        })
    }
}
