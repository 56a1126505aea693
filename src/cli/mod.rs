//! The command line: parses arguments into a command and runs it. Every command uses the
//! same library code as the desk; `main` only maps the result to an exit code.

mod replay;
mod tournament;

use clap::{Parser, Subcommand};
use std::io::Read;
use std::path::PathBuf;

/// How a command failed, and the exit code that tells it.
#[derive(Debug)]
pub enum CliError {
    /// Bad input (a malformed record or tournament file, an impossible request): exit 2.
    Input(String),
    /// Anything else (an unreadable file, a database that cannot be opened): exit 1.
    Other(String),
}

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 2,
            CliError::Other(_) => 1,
        }
    }

    /// The message on one line, as the specs require.
    pub fn message(&self) -> String {
        let (CliError::Input(m) | CliError::Other(m)) = self;
        m.replace(['\n', '\r'], " ")
    }
}

#[derive(Debug, Parser)]
#[command(
    name = "ggdesk",
    version,
    about = "Tournament desk and table arbiter for Game of the Generals (GGF rules)",
    long_about = "Without a command, opens the desk on the database (by default \
                  ggdesk.sqlite3 in your data directory)."
)]
pub struct Args {
    /// The tournament database to use instead of the default one.
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replays a game record (ggdesk-record/1) and prints its verdict as JSON.
    Replay {
        /// The record file, or - for standard input.
        file: String,
    },
    /// Pairs the next round of a tournament file (ggdesk-tournament/1) and prints it as JSON.
    Pair {
        /// The tournament file, or - for standard input.
        file: String,
        /// Print the pairing with the reasons for each board, as text.
        #[arg(long)]
        explain: bool,
    },
    /// Ranks the players of a tournament file with every tie-break.
    Standings {
        /// The tournament file, or - for standard input.
        file: String,
        /// Print CSV instead of JSON.
        #[arg(long)]
        csv: bool,
    },
    /// Prints the cross-table of a tournament file as CSV.
    Crosstable {
        /// The tournament file, or - for standard input.
        file: String,
    },
}

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &str) -> Result<String, CliError> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| CliError::Other(format!("cannot read standard input: {e}")))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| CliError::Other(format!("cannot read {path}: {e}")))
    }
}

/// Runs a command-line command, writing its output to standard output.
pub fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        Some(Command::Replay { file }) => replay::run(&file),
        Some(Command::Pair { file, explain }) => tournament::pair(&file, explain),
        Some(Command::Standings { file, csv }) => tournament::standings(&file, csv),
        Some(Command::Crosstable { file }) => tournament::crosstable(&file),
        None => Err(CliError::Other(
            "the desk is not built into this binary yet".into(),
        )),
    }
}

/// Parses the process arguments, runs, reports an error on standard error, and returns the
/// exit code.
pub fn main() -> i32 {
    let args = Args::parse();
    match run(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("ggdesk: {}", e.message());
            e.exit_code()
        }
    }
}
