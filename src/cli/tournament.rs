//! `ggdesk pair`, `ggdesk standings`, `ggdesk crosstable`: the tournament core on a file.

use super::{CliError, read_input};
use ggdesk_core::export::{crosstable_csv, standings_csv};
use ggdesk_core::pairing::{explain, pair_next_round};
use ggdesk_core::tournament::{Tournament, standings as rank};

fn load(file: &str) -> Result<Tournament, CliError> {
    let text = read_input(file)?;
    Tournament::from_json(&text).map_err(|e| CliError::Input(e.to_string()))
}

/// Pairs the round after the last one and prints it as JSON, or as text with the reasons.
pub fn pair(file: &str, explain_it: bool) -> Result<(), CliError> {
    let t = load(file)?;
    let pairing = pair_next_round(&t, &[]).map_err(|e| CliError::Input(e.to_string()))?;
    if explain_it {
        print!("{}", explain(&t, &pairing));
    } else {
        println!("{}", pairing.to_json());
    }
    Ok(())
}

/// Prints the standings after the last round, as JSON or CSV.
pub fn standings(file: &str, csv: bool) -> Result<(), CliError> {
    let t = load(file)?;
    let s = rank(&t, t.rounds().len());
    if csv {
        print!("{}", standings_csv(&s));
    } else {
        println!("{}", s.to_json());
    }
    Ok(())
}

/// Prints the cross-table as CSV.
pub fn crosstable(file: &str) -> Result<(), CliError> {
    let t = load(file)?;
    print!("{}", crosstable_csv(&t));
    Ok(())
}
