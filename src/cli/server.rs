//! `ggdesk copy`, `ggdesk station` and `ggdesk status`: the commands of an event run on a
//! server (`spec/server.md`).

use super::CliError;
use super::store_cmds::{address_of, db_address, open, store_error};
use crate::store::{Actor, EventServer, Store, TournamentId, parse_tables, tables_text};

pub fn copy(db: Option<String>, dst: &str) -> Result<(), CliError> {
    let src = open(db)?;
    let dst_address = address_of(dst)?;
    if src.address() == Some(&dst_address) {
        return Err(CliError::Input(format!(
            "{dst_address} is the database being copied: give another destination"
        )));
    }
    let mut dst = Store::connect(&dst_address).map_err(store_error)?;
    let counts = src.copy_into(&mut dst).map_err(store_error)?;
    println!("{counts}");
    Ok(())
}

/// `station add NAME [--tournament TID] [--tables LIST]`: with a tournament, a station of the
/// event server's API and its card; without, the database login of a server ggdesk does not
/// host (printed as its URL).
pub fn station_add(
    db: Option<String>,
    name: &str,
    tournament: Option<i64>,
    tables: Option<&str>,
) -> Result<(), CliError> {
    let tables = match tables {
        Some(text) => parse_tables(text).map_err(|e| CliError::Input(format!("--tables: {e}")))?,
        None => Vec::new(),
    };
    let mut store = open(db)?;
    let Some(tournament) = tournament else {
        let login = store
            .add_station(name, &tables, &Actor::director())
            .map_err(store_error)?;
        println!("{}", login.url);
        return Ok(());
    };
    let server = event_server(&store)?;
    store
        .add_station(name, &tables, &Actor::director())
        .map_err(store_error)?;
    let secret =
        match store.issue_station_secret(name, TournamentId(tournament), &Actor::director()) {
            Ok(secret) => secret,
            Err(e) => {
                // The station was made for this card only: without its secret it goes again.
                let _ = store.remove_station(name, &Actor::director());
                return Err(store_error(e));
            }
        };
    print_card(&server, name, &secret);
    Ok(())
}

/// The event server ggdesk hosts on this database, or why a card cannot be made.
fn event_server(store: &Store) -> Result<EventServer, CliError> {
    store.event_server().map_err(store_error)?.ok_or_else(|| {
        CliError::Input(
            "this database has no event server: a station's card names the server that \
             `ggdesk host` runs (start it, then add the station)"
                .into(),
        )
    })
}

/// A station's card: the server's address, the station, its secret (shown this once) and
/// the first 16 hex digits of the authority's fingerprint.
fn print_card(server: &EventServer, name: &str, secret: &str) {
    println!("address: {}", server.stations_address);
    println!("station: {name}");
    println!("secret: {secret}");
    println!("authority: sha256:{}", crate::tls::short(&server.authority));
    println!("link: {}{name}", server.stations_address);
}

pub fn station_list(db: Option<String>) -> Result<(), CliError> {
    let store = open(db)?;
    let stations = store.stations().map_err(store_error)?;
    if stations.is_empty() {
        println!("no stations");
    }
    for s in stations {
        println!(
            "{} (login {}): tables {}",
            s.name,
            s.role,
            tables_text(&s.tables)
        );
    }
    Ok(())
}

pub fn station_reset(db: Option<String>, name: &str) -> Result<(), CliError> {
    let mut store = open(db)?;
    let station = store
        .stations()
        .map_err(store_error)?
        .into_iter()
        .find(|s| s.name == name);
    if let Some(tournament) = station.and_then(|s| s.tournament) {
        let server = event_server(&store)?;
        let secret = store
            .issue_station_secret(name, tournament, &Actor::director())
            .map_err(store_error)?;
        print_card(&server, name, &secret);
        return Ok(());
    }
    let login = store
        .reset_station(name, &Actor::director())
        .map_err(store_error)?;
    println!("{}", login.url);
    Ok(())
}

pub fn station_remove(db: Option<String>, name: &str) -> Result<(), CliError> {
    let mut store = open(db)?;
    store
        .remove_station(name, &Actor::director())
        .map_err(store_error)?;
    println!("station {name} removed");
    Ok(())
}

pub fn status(db: Option<String>) -> Result<(), CliError> {
    let address = db_address(db)?;
    let lines = crate::store::server_status(&address).map_err(store_error)?;
    for line in lines {
        println!("{line}");
    }
    Ok(())
}
