//! `ggdesk import` and `ggdesk export`: files in and out of the database, each import in
//! one transaction.

use super::{CliError, read_input};
use crate::store::{Actor, GameId, Store, StoreError};
use ggdesk_core::record::Record;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The database the command works on: `--db PATH`, or the default one.
pub fn db_path(db: Option<PathBuf>) -> Result<PathBuf, CliError> {
    db.or_else(Store::default_path).ok_or_else(|| {
        CliError::Other("cannot find your data directory: give the database with --db PATH".into())
    })
}

pub fn open(db: Option<PathBuf>) -> Result<Store, CliError> {
    let path = db_path(db)?;
    Store::open(&path).map_err(store_error)
}

/// Refusals of bad input exit 2; a database that cannot be used exits 1.
pub fn store_error(e: StoreError) -> CliError {
    match e {
        StoreError::Rejected(m) => CliError::Input(m),
        other => CliError::Other(other.to_string()),
    }
}

pub fn import(db: Option<PathBuf>, file: &str) -> Result<(), CliError> {
    let text = read_input(file)?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| CliError::Input(format!("{file}: not valid JSON: {e}")))?;
    let format = value.get("format").and_then(Value::as_str).unwrap_or("");
    match format {
        ggdesk_core::record::FORMAT => {
            let record =
                Record::from_value(&value).map_err(|e| CliError::Input(format!("{file}: {e}")))?;
            let mut store = open(db)?;
            let id = store
                .import_record(&record, &Actor::director())
                .map_err(store_error)?;
            println!("{id}");
            Ok(())
        }
        ggdesk_core::physical_record::FORMAT => {
            let record = ggdesk_core::physical_record::PhysicalRecord::from_value(&value)
                .map_err(|e| CliError::Input(format!("{file}: {e}")))?;
            let mut store = open(db)?;
            let id = store
                .import_physical(&record, &Actor::director())
                .map_err(store_error)?;
            println!("{id}");
            Ok(())
        }
        ggdesk_core::tournament::FORMAT => {
            // Check the whole file before the database is opened: a bad file changes nothing.
            ggdesk_core::tournament::Tournament::from_value(&value)
                .map_err(|e| CliError::Input(format!("{file}: {e}")))?;
            let mut store = open(db)?;
            let id = store
                .import_tournament(&value, &Actor::director())
                .map_err(|e| match e {
                    StoreError::Rejected(m) => CliError::Input(format!("{file}: {m}")),
                    other => store_error(other),
                })?;
            println!("{id}");
            Ok(())
        }
        other => Err(CliError::Input(format!(
            "{file}: unknown format {other:?} (expected {:?}, {:?} or {:?})",
            ggdesk_core::record::FORMAT,
            ggdesk_core::physical_record::FORMAT,
            ggdesk_core::tournament::FORMAT
        ))),
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), CliError> {
    if path.as_os_str() == "-" {
        println!("{text}");
        return Ok(());
    }
    // Write beside the target and rename, so a crash never leaves half a file.
    let tmp = path.with_extension("ggdesk-partial");
    std::fs::write(&tmp, format!("{text}\n"))
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::Other(format!("cannot write {}: {e}", path.display())))
}

pub fn export_game(db: Option<PathBuf>, id: i64, file: &Path) -> Result<(), CliError> {
    let store = open(db)?;
    let value = store.export_game(GameId(id)).map_err(|e| match e {
        StoreError::NotFound(m) => CliError::Input(m),
        other => store_error(other),
    })?;
    write_file(
        file,
        &serde_json::to_string_pretty(&value).unwrap_or_default(),
    )
}

pub fn export_tournament(db: Option<PathBuf>, id: i64, file: &Path) -> Result<(), CliError> {
    let store = open(db)?;
    let value = store.export_tournament(id).map_err(|e| match e {
        StoreError::NotFound(m) => CliError::Input(m),
        other => store_error(other),
    })?;
    write_file(
        file,
        &serde_json::to_string_pretty(&value).unwrap_or_default(),
    )
}

/// The child process of the crash test: plays random games from random setups, appending
/// one move per transaction and printing `ack GAME SEQ` after each commit, until `events`
/// moves are in (a game that ends is followed by a new one, so the child is always busy).
pub fn crash_child(db: Option<PathBuf>, seed: u64, events: usize) -> Result<(), CliError> {
    use crate::store::NewGame;
    use ggdesk_core::record::TimedEvent;
    use ggdesk_core::rules::{Event, Game, Position, Side};
    use rand::{Rng, SeedableRng};
    use std::io::Write;

    let io = |e: std::io::Error| CliError::Other(e.to_string());
    let mut store = open(db)?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut pick = |n: usize| if n == 0 { 0 } else { rng.random_range(0..n) };
    let actor = Actor::arbiter(None);
    let mut new = NewGame::standalone();
    new.rules.thirty_moves = 0;
    let mut out = std::io::stdout().lock();
    let mut appended = 0;
    while appended < events {
        let setups = ggdesk_core::sim::random_setups(&mut pick);
        let id = store.create_game(&new, &actor).map_err(store_error)?;
        for side in Side::BOTH {
            store
                .save_setup(id, side, &setups[side], &actor)
                .map_err(store_error)?;
        }
        store
            .start_game(id, crate::store::now_ms(), new.first, &actor)
            .map_err(store_error)?;
        let position =
            Position::from_setups(&setups).map_err(|e| CliError::Other(e.to_string()))?;
        let mut game = Game::new(new.rules, new.first, None, position);
        writeln!(out, "game {id}").map_err(io)?;
        out.flush().map_err(io)?;
        let mut t = 0;
        while appended < events && !game.is_over() {
            let moves = game.position().legal_moves(game.to_move());
            if moves.is_empty() {
                break;
            }
            let event = Event::Move {
                mv: moves[pick(moves.len())],
                by: None,
            };
            t += 1;
            let outcome = store
                .append_event(id, TimedEvent { t: t as f64, event }, &actor, "")
                .map_err(store_error)?;
            let _ = game.apply(ggdesk_core::clock::Time::from_secs(t), &event);
            appended += 1;
            writeln!(out, "ack {id} {}", outcome.seq).map_err(io)?;
            out.flush().map_err(io)?;
        }
    }
    Ok(())
}
