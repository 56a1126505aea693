//! `ggdesk copy`, `ggdesk station` and `ggdesk status`: the commands of an event run on a
//! server (`spec/server.md`).

use super::store_cmds::{address_of, db_address, open, store_error};
use super::{CliError, say};
use crate::station::card::{Card, CardError, CardFormat};
use crate::store::{
    Actor, EventServer, Store, StoreError, TournamentId, parse_tables, tables_text,
};
use std::path::{Path, PathBuf};

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
    say(counts)
}

/// `pages-login [NAME]`: the public pages' own login on a server ggdesk does not host.
pub fn pages_login(db: Option<String>, name: &str) -> Result<(), CliError> {
    let url = open(db)?.make_pages_login(name).map_err(store_error)?;
    say(url)
}

/// `station add NAME --tournament TID [--tables LIST] [--card FILE]`: a station of the event
/// server's API and its card (printed, and written to FILE to print). A station is never a
/// database login: without its tournament it is refused before anything is opened.
pub fn station_add(
    db: Option<String>,
    name: &str,
    tournament: Option<i64>,
    tables: Option<&str>,
    card_file: Option<&Path>,
) -> Result<(), CliError> {
    let Some(tournament) = tournament else {
        return Err(CliError::Input(NEEDS_TOURNAMENT.into()));
    };
    let tables = match tables {
        Some(text) => parse_tables(text).map_err(|e| CliError::Input(format!("--tables: {e}")))?,
        None => Vec::new(),
    };
    let card_file = card_file.map(card_target).transpose()?;
    let mut store = open(db)?;
    let server = event_server(&store)?;
    let standbys = store.standby_addresses().map_err(store_error)?;
    let secret = store
        .add_station(name, TournamentId(tournament), &tables, &Actor::director())
        .map_err(store_error)?;
    let card = Card::of_station(&server, &standbys, name, secret);
    if let Some(target) = &card_file {
        // The station was made for this card only: without the card the director asked
        // for, it goes again.
        write_card(&card, target).inspect_err(|_| {
            let _ = store.remove_station(name, &Actor::director());
        })?;
    }
    print_card(&card)
}

/// Why `station add` without `--tournament` is refused.
pub const NEEDS_TOURNAMENT: &str = "a station needs its tournament: add it with --tournament TID, \
     on a server `ggdesk host` runs, which prints its card (a station speaks to that server \
     with the card's secret and never logs into the database)";

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

fn print_card(card: &Card) -> Result<(), CliError> {
    say(format!("address: {}", card.address))?;
    for standby in &card.standbys {
        say(format!("address: {standby}"))?;
    }
    say(format!("station: {}", card.station))?;
    say(format!("secret: {}", card.secret))?;
    say(format!("authority: sha256:{}", card.authority16))?;
    say(format!("link: {}", card.link))
}

/// The file `--card` names and its format, refused (exit 2) before anything is made when its
/// extension names no format.
fn card_target(path: &Path) -> Result<(PathBuf, CardFormat), CliError> {
    let png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    match CardFormat::of(path) {
        Some(format) => Ok((path.to_path_buf(), format)),
        None if png => Err(CliError::Input(format!(
            "--card {}: a card is not written as PNG yet: write FILE.pdf and print it at its \
             size (A6)",
            path.display()
        ))),
        None => Err(CliError::Input(format!(
            "--card {}: a card is written as FILE.pdf",
            path.display()
        ))),
    }
}

/// Writes the card readable by its owner only ([`Card::write_private`]).
fn write_card(card: &Card, (path, format): &(PathBuf, CardFormat)) -> Result<(), CliError> {
    card.write_private(path, *format).map_err(|e| match e {
        CardError::Write { .. } => CliError::Other(e.to_string()),
        CardError::LinkTooLong(_) => CliError::Input(e.to_string()),
    })
}

pub fn station_list(db: Option<String>) -> Result<(), CliError> {
    let store = open(db)?;
    let stations = store.stations().map_err(store_error)?;
    if stations.is_empty() {
        say("no stations")?;
    }
    for s in stations {
        say(format!(
            "{}: tournament {}, tables {}",
            s.name,
            s.tournament,
            tables_text(&s.tables)
        ))?;
    }
    Ok(())
}

/// `station reset NAME [--card FILE]`: a new secret for the station (the old one stops
/// working, and the event server ends the station's requests and streams), and its new card.
pub fn station_reset(
    db: Option<String>,
    name: &str,
    card_file: Option<&Path>,
) -> Result<(), CliError> {
    let card_file = card_file.map(card_target).transpose()?;
    let mut store = open(db)?;
    let Some(station) = store
        .stations()
        .map_err(store_error)?
        .into_iter()
        .find(|s| s.name == name)
    else {
        return Err(store_error(StoreError::NotFound(format!("station {name}"))));
    };
    let server = event_server(&store)?;
    let standbys = store.standby_addresses().map_err(store_error)?;
    let secret = store
        .issue_station_secret(name, station.tournament, &Actor::director())
        .map_err(store_error)?;
    let card = Card::of_station(&server, &standbys, name, secret);
    // The new secret is already the station's: it is printed even when the file cannot be
    // written, or the station would have a secret nobody saw.
    let written = card_file.as_ref().map(|target| write_card(&card, target));
    let printed = print_card(&card);
    written.unwrap_or(Ok(())).and(printed)
}

pub fn station_remove(db: Option<String>, name: &str) -> Result<(), CliError> {
    let mut store = open(db)?;
    store
        .remove_station(name, &Actor::director())
        .map_err(store_error)?;
    say(format!("station {name} removed"))
}

pub fn status(db: Option<String>) -> Result<(), CliError> {
    let address = db_address(db)?;
    let lines = crate::store::server_status(&address).map_err(store_error)?;
    for line in lines {
        say(line)?;
    }
    Ok(())
}
