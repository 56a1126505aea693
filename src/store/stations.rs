//! Arbiter stations on an event server: one PostgreSQL login per station, its password kept
//! by the server as a SCRAM verifier only, the tables it runs, and what the database lets it
//! do (granted here; the row-level policies of migration 2 hold it to its own tables).

use super::db::{Tx, args};
use super::{Actor, Address, Engine, Result, Store, StoreError, audit};
use rand::Rng;

/// A station as the director's desk shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Station {
    pub name: String,
    /// The server login of the station.
    pub role: String,
    /// The table numbers it runs, in every round in play.
    pub tables: Vec<u32>,
}

/// A station just created: its password is shown this once and stored nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StationLogin {
    pub station: Station,
    /// The URL an arbiter desk connects with (the password in it).
    pub url: String,
}

/// Reads a list of tables as the director types it: `1-10,12`.
pub fn parse_tables(text: &str) -> std::result::Result<Vec<u32>, String> {
    let mut out = Vec::new();
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
    Ok(out)
}

/// The tables as the director would type them: `1-10, 12`.
pub fn tables_text(tables: &[u32]) -> String {
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

fn stations_in(q: &mut Tx<'_>) -> Result<Vec<Station>> {
    let mut stations = q.query_map(
        "SELECT name, role FROM stations ORDER BY name",
        args![],
        |r| {
            Ok(Station {
                name: r.get(0)?,
                role: r.get(1)?,
                tables: Vec::new(),
            })
        },
    )?;
    let tables = q.query_map(
        "SELECT station, table_no FROM station_tables ORDER BY station, table_no",
        args![],
        |r| Ok((r.get::<String>(0)?, r.get::<u32>(1)?)),
    )?;
    for (name, table) in tables {
        if let Some(s) = stations.iter_mut().find(|s| s.name == name) {
            s.tables.push(table);
        }
    }
    Ok(stations)
}

/// Gives a station its tables (inside the caller's transaction).
fn assign(tx: &mut Tx<'_>, name: &str, tables: &[u32]) -> Result<()> {
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

/// The privileges of an arbiter station: read what a desk shows; write only what running
/// a game at a table needs (the row-level policies keep those writes to its own tables).
const STATION_GRANTS: &[&str] = &[
    "GRANT USAGE ON SCHEMA {schema} TO {role}",
    "GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {role}",
    "GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
    "GRANT INSERT ON games, game_events, audit_log TO {role}",
    "GRANT UPDATE (setup_white, setup_black, started_at, first, clock_seen_t, result,
         setup_started_at, setup_overrun_at, reading_started_at, lots_drawn_at) ON games TO {role}",
    "GRANT UPDATE (state, completed_at) ON rounds TO {role}",
    "GRANT INSERT, UPDATE (sheet, complete, entered_at) ON adjudication_sheets TO {role}",
    "GRANT UPDATE (result) ON pairings TO {role}",
];

impl Store {
    /// The stations of the event server (none on SQLite).
    pub fn stations(&self) -> Result<Vec<Station>> {
        if self.engine() != Engine::Postgres {
            return Ok(Vec::new());
        }
        self.read(stations_in)
    }

    /// The station this desk's login is, on an event server: an arbiter desk.
    pub fn my_station(&self) -> Result<Option<Station>> {
        if self.engine() != Engine::Postgres {
            return Ok(None);
        }
        self.read(|q| {
            let role: String = q.query_one("SELECT current_user", args![], |r| r.get(0))?;
            Ok(stations_in(q)?.into_iter().find(|s| s.role == role))
        })
    }

    /// Creates an arbiter station's login with a new password and assigns it `tables`.
    /// Only the director's login (the owner of the tables, allowed to create logins) may.
    pub fn add_station(
        &mut self,
        name: &str,
        tables: &[u32],
        actor: &Actor,
    ) -> Result<StationLogin> {
        server_only(self)?;
        if !valid_name(name) {
            return Err(StoreError::Rejected(format!(
                "{name:?} is not a station name: use letters, digits, - and _ (at most 32)"
            )));
        }
        let Some(Address::Server(url)) = self.address().cloned() else {
            return Err(StoreError::Rejected(
                "this database has no server address".into(),
            ));
        };
        let password = new_password();
        let verifier = postgres_protocol::password::scram_sha_256(password.as_bytes());
        let station = self.write(|tx| {
            let (db, schema, director): (String, String, bool) = tx.query_one(
                "SELECT current_database(), current_schema(),
                        (SELECT tableowner FROM pg_catalog.pg_tables
                         WHERE schemaname = current_schema() AND tablename = 'stations') = current_user",
                args![],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?;
            if !director {
                return Err(StoreError::Denied(
                    "only the director's login may add arbiter stations".into(),
                ));
            }
            let role = format!("{db}_{name}").to_lowercase();
            if role.len() > 63 {
                return Err(StoreError::Rejected(format!(
                    "the login {role} would be longer than the server allows: choose a shorter station name"
                )));
            }
            let taken: i64 = tx.query_one(
                "SELECT count(*) FROM stations WHERE name = ?1",
                args![name],
                |r| r.get(0),
            )?;
            if taken > 0 {
                return Err(StoreError::Rejected(format!("station {name} exists already")));
            }
            let role_q = quoted(&role);
            tx.batch(&format!(
                "CREATE ROLE {role_q} LOGIN PASSWORD '{}'",
                verifier.replace('\'', "''")
            ))?;
            tx.batch(&format!("GRANT CONNECT ON DATABASE {} TO {role_q}", quoted(&db)))?;
            for grant in STATION_GRANTS {
                tx.batch(
                    &grant
                        .replace("{schema}", &quoted(&schema))
                        .replace("{role}", &role_q),
                )?;
            }
            let now = tx.now();
            tx.execute(
                "INSERT INTO stations (name, role, created_at) VALUES (?1, ?2, ?3)",
                args![name, role, now],
            )?;
            assign(tx, name, tables)?;
            audit(
                tx,
                actor,
                "station added",
                None,
                None,
                "",
                &format!("station {name} (login {role}), tables {}", tables_text(tables)),
            )?;
            Ok(Station {
                name: name.to_string(),
                role,
                tables: tables.to_vec(),
            })
        })?;
        let url = url_for(&url, &station.role, &password);
        Ok(StationLogin { station, url })
    }

    /// Assigns a station the tables it runs (replacing the ones it had).
    pub fn set_station_tables(&mut self, name: &str, tables: &[u32], actor: &Actor) -> Result<()> {
        server_only(self)?;
        self.write(|tx| {
            let n = tx.execute("DELETE FROM station_tables WHERE station = ?1", args![name])?;
            let exists: i64 = tx.query_one(
                "SELECT count(*) FROM stations WHERE name = ?1",
                args![name],
                |r| r.get(0),
            )?;
            if exists == 0 {
                return Err(StoreError::NotFound(format!("station {name}")));
            }
            assign(tx, name, tables)?;
            audit(
                tx,
                actor,
                "station tables",
                None,
                None,
                "",
                &format!("station {name}: tables {} (had {n})", tables_text(tables)),
            )
        })
    }

    /// Removes a station: its login can no longer connect.
    pub fn remove_station(&mut self, name: &str, actor: &Actor) -> Result<()> {
        server_only(self)?;
        self.write(|tx| {
            let role: Option<String> = tx.query_opt(
                "SELECT role FROM stations WHERE name = ?1",
                args![name],
                |r| r.get(0),
            )?;
            let role = role.ok_or_else(|| StoreError::NotFound(format!("station {name}")))?;
            tx.execute("DELETE FROM stations WHERE name = ?1", args![name])?;
            let role_q = quoted(&role);
            let (db, schema): (String, String) = tx.query_one(
                "SELECT current_database(), current_schema()",
                args![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            tx.batch(&format!(
                "REVOKE ALL ON ALL TABLES IN SCHEMA {s} FROM {role_q};
                 REVOKE ALL ON ALL SEQUENCES IN SCHEMA {s} FROM {role_q};
                 REVOKE ALL ON SCHEMA {s} FROM {role_q};
                 REVOKE ALL ON DATABASE {d} FROM {role_q};
                 DROP ROLE {role_q}",
                s = quoted(&schema),
                d = quoted(&db)
            ))?;
            audit(
                tx,
                actor,
                "station removed",
                None,
                None,
                "",
                &format!("station {name} (login {role})"),
            )
        })
    }

    /// Which station runs each table (table number → station name).
    pub fn table_stations(&self) -> Result<std::collections::BTreeMap<u32, String>> {
        Ok(self
            .stations()?
            .into_iter()
            .flat_map(|s| s.tables.into_iter().map(move |t| (t, s.name.clone())))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_read_as_the_director_types_them() {
        assert_eq!(parse_tables("1-3, 7,5 ,2").ok(), Some(vec![1, 2, 3, 5, 7]));
        assert_eq!(tables_text(&[1, 2, 3, 5, 7, 8]), "1-3, 5, 7-8");
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
