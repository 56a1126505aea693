//! `ggdesk import` and `ggdesk export`: files in and out of the database, each import in
//! one transaction.

use super::{CliError, read_input, say};
use crate::store::TournamentId;
use crate::store::{Actor, Address, GameId, Store, StoreError};
use ggdesk_core::record::Record;
use serde_json::Value;
use std::path::Path;

/// The database the command works on: `--db PATH|URL`, or the default one.
pub fn db_address(db: Option<String>) -> Result<Address, CliError> {
    match db {
        Some(text) => address_of(&text),
        None => Store::default_path().map(Address::File).ok_or_else(|| {
            CliError::Other(
                "cannot find your data directory: give the database with --db PATH".into(),
            )
        }),
    }
}

/// A database named on the command line: a file, a URL, or a folder that `ggdesk host`
/// keeps, which stands for its director's URL (`DIR/director.url`), so that the password
/// need not be typed, nor shown in the process list.
pub fn address_of(text: &str) -> Result<Address, CliError> {
    if !Path::new(text).is_dir() {
        return Ok(Address::parse(text));
    }
    let file = Path::new(text).join("director.url");
    let url = std::fs::read_to_string(&file).map_err(|e| {
        CliError::Input(format!(
            "{text} is a folder, not a database, and holds no director.url of `ggdesk host` \
             ({}: {e})",
            file.display()
        ))
    })?;
    Ok(Address::Server(url.trim().to_string()))
}

pub fn open(db: Option<String>) -> Result<Store, CliError> {
    Store::connect(&db_address(db)?).map_err(store_error)
}

/// Refusals of bad input exit 2; a database that cannot be used exits 1.
pub fn store_error(e: StoreError) -> CliError {
    match e {
        StoreError::Rejected(m) => CliError::Input(m),
        e @ (StoreError::Refused(_) | StoreError::Denied(_)) => CliError::Input(e.to_string()),
        other => CliError::Other(other.to_string()),
    }
}

pub fn import(db: Option<String>, file: &str) -> Result<(), CliError> {
    let text = read_input(file)?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| CliError::Input(format!("{file}: not valid JSON: {e}")))?;
    let format = value.get("format").and_then(Value::as_str).unwrap_or("");
    let bad = |e: &dyn std::fmt::Display| CliError::Input(format!("{file}: {e}"));
    let director = Actor::director();
    // Each file is checked whole before the database is opened: a bad file changes nothing.
    let id = match format {
        ggdesk_core::record::FORMAT => {
            let record = Record::from_value(&value).map_err(|e| bad(&e))?;
            open(db)?
                .import_record(&record, &director)
                .map_err(store_error)?
                .to_string()
        }
        ggdesk_core::physical_record::FORMAT => {
            let record = ggdesk_core::physical_record::PhysicalRecord::from_value(&value)
                .map_err(|e| bad(&e))?;
            open(db)?
                .import_physical(&record, &director)
                .map_err(store_error)?
                .to_string()
        }
        ggdesk_core::tournament::FORMAT => {
            ggdesk_core::tournament::Tournament::from_value(&value).map_err(|e| bad(&e))?;
            open(db)?
                .import_tournament(&value, &director)
                .map_err(|e| match e {
                    StoreError::Rejected(m) => bad(&m),
                    StoreError::Refused(r) => bad(&r),
                    other => store_error(other),
                })?
                .to_string()
        }
        // An event in stages or a team event: checked as `pair` checks it.
        ggdesk_core::stages::FORMAT_2 => {
            if ggdesk_core::teams::is_team_file(&value) {
                ggdesk_core::teams::TeamEvent::from_value(&value).map_err(|e| bad(&e))?;
            } else {
                ggdesk_core::stages::Event::from_value(&value).map_err(|e| bad(&e))?;
            }
            open(db)?
                .import_tournament(&value, &director)
                .map_err(|e| match e {
                    StoreError::Rejected(m) => bad(&m),
                    StoreError::Refused(r) => bad(&r),
                    other => store_error(other),
                })?
                .to_string()
        }
        other => {
            return Err(CliError::Input(format!(
                "{file}: unknown format {other:?} (expected {:?}, {:?}, {:?} or {:?})",
                ggdesk_core::record::FORMAT,
                ggdesk_core::physical_record::FORMAT,
                ggdesk_core::tournament::FORMAT,
                ggdesk_core::stages::FORMAT_2
            )));
        }
    };
    say(id)
}

fn write_file(path: &Path, text: &str) -> Result<(), CliError> {
    if path.as_os_str() == "-" {
        return say(text);
    }
    // Write beside the target and rename, so a crash never leaves half a file.
    let tmp = path.with_extension("ggdesk-partial");
    std::fs::write(&tmp, format!("{text}\n"))
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::Other(format!("cannot write {}: {e}", path.display())))
}

pub fn export_game(db: Option<String>, id: i64, file: &Path) -> Result<(), CliError> {
    let value = open(db)?
        .export_game(GameId(id))
        .map_err(not_found_is_input)?;
    write_json(file, &value)
}

pub fn export_tournament(db: Option<String>, id: i64, file: &Path) -> Result<(), CliError> {
    let value = open(db)?
        .export_tournament(TournamentId(id))
        .map_err(not_found_is_input)?;
    write_json(file, &value)
}

/// Asking for a game or tournament the database does not have is bad input (exit 2).
pub fn not_found_is_input(e: StoreError) -> CliError {
    match e {
        e @ StoreError::NotFound(_) => CliError::Input(e.to_string()),
        other => store_error(other),
    }
}

fn write_json(file: &Path, value: &Value) -> Result<(), CliError> {
    write_file(
        file,
        &serde_json::to_string_pretty(value).unwrap_or_default(),
    )
}
