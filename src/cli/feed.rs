//! `ggdesk feed -`: a live game from standard input (`spec/server.md`). The first line is a
//! record header and creates the game; every later line is one event, appended in its own
//! transaction and acknowledged (`ack SEQ`) only after the commit. A lost connection is
//! waited out: the same event is sent again with the same token, so it is stored once.
//!
//! Input is bounded: a line is at most [`MAX_LINE`] bytes (a longer one is refused as soon
//! as the limit is passed, never held whole nor repeated in the message), and must be UTF-8;
//! either fault is bad input (exit 2), as is an event after `end` (the store refuses it).

use super::store_cmds::store_error;
use super::{CliError, say};
use crate::store::{Actor, AnyEvent, Expect, GameId, NewGame, Store, StoreError};
use ggdesk_core::record::{self, Record};
use serde_json::Value;
use std::io::BufRead;
use std::time::{Duration, Instant};

/// How long `feed` waits for a lost server to come back before it gives up.
const PATIENCE: Duration = Duration::from_secs(120);

/// The longest line `feed` reads, in bytes (its line feed not counted): a record header
/// with both setups is under 2 KiB, an event under 200 bytes.
pub const MAX_LINE: usize = 1024 * 1024;

/// One line of input: its bytes without the line feed, or `None` at the end of input.
/// A line longer than `limit` bytes is refused as soon as that is known: at most `limit`
/// bytes of it are ever held, and the rest is left unread.
fn read_line(
    input: &mut impl BufRead,
    limit: usize,
    what: &str,
) -> Result<Option<String>, CliError> {
    let mut line = Vec::new();
    let mut seen_any = false;
    loop {
        let buf = input
            .fill_buf()
            .map_err(|e| CliError::Other(format!("standard input: {e}")))?;
        if buf.is_empty() {
            break;
        }
        seen_any = true;
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if line.len() + take > limit {
            return Err(CliError::Input(format!(
                "{what}: the line is longer than {limit} bytes (the limit of a line): refused"
            )));
        }
        line.extend_from_slice(&buf[..take]);
        input.consume(take + usize::from(done));
        if done {
            break;
        }
    }
    if !seen_any {
        return Ok(None);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8(line).map(Some).map_err(|e| {
        CliError::Input(format!(
            "{what}: not valid JSON: the line is not UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

pub fn run(db: Option<String>, input: &str) -> Result<(), CliError> {
    if input != "-" {
        return Err(CliError::Input(format!(
            "feed reads standard input: give -, not {input}"
        )));
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let Some(header) = read_line(&mut input, MAX_LINE, "record header")? else {
        return Err(CliError::Input(
            "feed: no record header on the first line".into(),
        ));
    };
    let record = parse_header(&header)?;
    let mut store = open_patiently(db)?;
    let actor = Actor("feed".into());
    let id = create(&mut store, &record, &actor)?;
    say(format!("game {id}"))?;
    // A token unique to this feed and this event: a retry after a lost confirmation finds
    // the event it already stored. Its 128 random bits make it one no other writer can
    // guess (a token taken first by another writer would answer this feed's event with
    // that writer's; S2 of issue 32).
    let session = format!("feed-{}", crate::store::new_token());
    let mut seq: u32 = 0;
    while let Some(line) = read_line(&mut input, MAX_LINE, &format!("event {seq}"))? {
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(&line)
            .map_err(|e| CliError::Input(format!("event {seq}: not valid JSON: {e}")))?;
        let event = record::parse_event(&value)
            .map_err(|e| CliError::Input(format!("event {seq}: {}", brief(&e.to_string()))))?;
        let token = format!("{session}-{seq}");
        let stored = append(
            &mut store,
            id,
            seq,
            &token,
            event.t,
            AnyEvent::Game(event.event),
            &actor,
        )?;
        say(format!("ack {stored}"))?;
        seq = stored + 1;
    }
    Ok(())
}

/// Opens the database, waiting out a server that cannot be reached yet (a standby being
/// promoted).
fn open_patiently(db: Option<String>) -> Result<Store, CliError> {
    let address = super::store_cmds::db_address(db)?;
    let since = Instant::now();
    loop {
        match Store::connect(&address) {
            Ok(store) => return Ok(store),
            Err(e) if e.is_disconnected() && since.elapsed() < PATIENCE => {
                std::thread::sleep(Duration::from_millis(250));
            }
            Err(e) => return Err(store_error(e)),
        }
    }
}

/// The record header: the keys of a record other than `events` and `readings`.
fn parse_header(line: &str) -> Result<Record, CliError> {
    let mut value: Value = serde_json::from_str(line)
        .map_err(|e| CliError::Input(format!("record header: not valid JSON: {e}")))?;
    let Some(obj) = value.as_object_mut() else {
        return Err(CliError::Input("record header: not a JSON object".into()));
    };
    for key in ["events", "readings"] {
        if obj.contains_key(key) {
            return Err(CliError::Input(format!(
                "record header: {key} do not belong in the header: send events one per line"
            )));
        }
    }
    obj.insert("events".into(), Value::Array(Vec::new()));
    Record::from_value(&value)
        .map_err(|e| CliError::Input(format!("record header: {}", brief(&e.to_string()))))
}

/// A message about the input, at most 200 characters: a refused value is named, never
/// repeated whole.
fn brief(text: &str) -> String {
    const MOST: usize = 200;
    match text.char_indices().nth(MOST) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// Creates the game with both setups and starts its clocks now, in one transaction, waiting
/// out a lost connection (the token finds a game an unconfirmed attempt created).
fn create(store: &mut Store, record: &Record, actor: &Actor) -> Result<GameId, CliError> {
    let new = NewGame {
        first: record.first,
        ratings: record.ratings,
        rules: record.rules,
        ..NewGame::standalone()
    };
    let token = format!("feed-{}", crate::store::new_token());
    let now = store.now();
    let since = Instant::now();
    loop {
        match store.create_started_game(&new, &record.setup, now, &token, actor) {
            Ok(id) => return Ok(id),
            Err(e) if e.is_disconnected() && since.elapsed() < PATIENCE => {
                std::thread::sleep(Duration::from_millis(250));
            }
            Err(e) => return Err(store_error(e)),
        }
    }
}

/// Appends one event, waiting out a lost connection; the event's stored sequence number.
fn append(
    store: &mut Store,
    id: GameId,
    seq: u32,
    token: &str,
    t: f64,
    event: AnyEvent,
    actor: &Actor,
) -> Result<u32, CliError> {
    let since = Instant::now();
    loop {
        match store.append_expecting(id, Some(Expect { seq, token }), t, event, actor, "") {
            Ok(outcome) => return Ok(outcome.seq),
            Err(e) if e.is_disconnected() && since.elapsed() < PATIENCE => {
                std::thread::sleep(Duration::from_millis(250));
            }
            Err(e) => return Err(event_error(seq, e)),
        }
    }
}

/// An event the store would not take, as every command says it ([`store_error`]: a refusal,
/// of the input or of this login, exits 2), with the event's number.
fn event_error(seq: u32, e: StoreError) -> CliError {
    match store_error(e) {
        CliError::Input(m) => CliError::Input(format!("event {seq}: {m}")),
        CliError::Other(m) => CliError::Other(format!("event {seq}: {m}")),
        CliError::OutputClosed => CliError::OutputClosed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_over_the_limit_is_refused_without_reading_it_whole() {
        let mut input = std::io::Cursor::new(b"0123456789abc\nnext\n".to_vec());
        let err = read_line(&mut input, 10, "event 3").expect_err("too long");
        assert_eq!(err.exit_code(), 2);
        assert_eq!(
            err.message(),
            "event 3: the line is longer than 10 bytes (the limit of a line): refused"
        );
        assert!(
            input.position() <= 10,
            "at most the limit was read: {}",
            input.position()
        );
        // A line of the limit (its carriage return counted), then the last without a feed.
        let mut input = std::io::Cursor::new(b"012345678\r\nnext".to_vec());
        assert_eq!(
            read_line(&mut input, 10, "e").ok().flatten().as_deref(),
            Some("012345678")
        );
        assert_eq!(
            read_line(&mut input, 10, "e").ok().flatten().as_deref(),
            Some("next")
        );
        assert!(matches!(read_line(&mut input, 10, "e"), Ok(None)));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_bad_input() {
        let mut input = std::io::Cursor::new(b"{\"t\": 1, \"move\": \"\xff\"}\n".to_vec());
        let err = read_line(&mut input, MAX_LINE, "event 0").expect_err("not UTF-8");
        assert_eq!(err.exit_code(), 2);
        assert_eq!(
            err.message(),
            "event 0: not valid JSON: the line is not UTF-8 (byte 18)"
        );
    }

    #[test]
    fn a_long_refused_value_is_named_not_repeated() {
        let long = "x".repeat(5000);
        let said = brief(&format!("bad move {long:?}"));
        assert_eq!(said.chars().count(), 201);
        assert!(said.ends_with('…'));
        assert_eq!(brief("short"), "short");
    }

    #[test]
    fn an_event_refused_for_this_login_exits_2_like_every_other_command() {
        let denied = event_error(
            4,
            StoreError::Denied("permission denied for table game_events".into()),
        );
        assert_eq!(denied.exit_code(), 2);
        assert_eq!(
            denied.message(),
            "event 4: not allowed for this login: permission denied for table game_events"
        );
        let rejected = event_error(5, StoreError::Rejected("not your turn".into()));
        let refused = event_error(
            6,
            StoreError::Refused(ggdesk_core::game::desk::GameRefusal::NothingToUndo.into()),
        );
        assert_eq!(refused.exit_code(), 2);
        assert_eq!(refused.message(), "event 6: there is no event to undo");
        assert_eq!(rejected.exit_code(), 2);
        assert_eq!(rejected.message(), "event 5: not your turn");
        let broken = event_error(6, StoreError::Database("disk I/O error".into()));
        assert_eq!(broken.exit_code(), 1);
        assert_eq!(broken.message(), "event 6: database error: disk I/O error");
    }
}
