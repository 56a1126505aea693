//! `ggdesk replay FILE`: the verdict of a game record.

use super::{CliError, read_input, say};
use ggdesk_core::record::{Record, replay};

pub fn run(file: &str) -> Result<(), CliError> {
    let text = read_input(file)?;
    let verdict = Record::from_json_str(&text)
        .and_then(|record| replay(&record))
        .map_err(|e| CliError::Input(e.to_string()))?;
    say(verdict.to_value())
}
