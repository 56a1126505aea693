//! `ggdesk copy`, `ggdesk station` and `ggdesk status`: the commands of an event run on a
//! server (`spec/server.md`).

use super::CliError;
use super::store_cmds::{db_address, open, store_error};
use crate::store::{Actor, Address, Store, parse_tables, tables_text};

pub fn copy(db: Option<String>, dst: &str) -> Result<(), CliError> {
    let src = open(db)?;
    let dst_address = Address::parse(dst);
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

pub fn station_add(db: Option<String>, name: &str, tables: Option<&str>) -> Result<(), CliError> {
    let tables = match tables {
        Some(text) => parse_tables(text).map_err(|e| CliError::Input(format!("--tables: {e}")))?,
        None => Vec::new(),
    };
    let mut store = open(db)?;
    let login = store
        .add_station(name, &tables, &Actor::director())
        .map_err(store_error)?;
    println!("{}", login.url);
    Ok(())
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
