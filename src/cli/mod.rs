//! The command line: parses arguments into a command and runs it. Every command uses the
//! same library code as the desk; `main` only maps the result to an exit code.

mod feed;
mod host;
mod ratings;
mod replay;
mod round;
mod serve;
mod server;
mod store_cmds;
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
    /// Standard output was closed by its reader (`ggdesk standings FILE | head -1`): the
    /// command stops writing and ends quietly, with nothing on standard error and exit 0,
    /// as `head` expects (the reader took what it wanted).
    OutputClosed,
}

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 2,
            CliError::Other(_) => 1,
            CliError::OutputClosed => 0,
        }
    }

    /// The message on one line, as the specs require.
    pub fn message(&self) -> String {
        match self {
            CliError::Input(m) | CliError::Other(m) => m.replace(['\n', '\r'], " "),
            CliError::OutputClosed => "standard output was closed".into(),
        }
    }
}

/// Writes `text` to standard output as it is. A reader that closed the pipe ends the
/// command quietly ([`CliError::OutputClosed`]); any other failure to write is an error
/// (exit 1). The commands print through this and [`say`], never `print!`, which panics on
/// a closed pipe.
pub(crate) fn out(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                CliError::OutputClosed
            } else {
                CliError::Other(format!("cannot write to standard output: {e}"))
            }
        })
}

/// Writes `line` and a new line to standard output, as [`out`] does.
pub(crate) fn say(line: impl std::fmt::Display) -> Result<(), CliError> {
    out(&format!("{line}\n"))
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
    /// The database to use instead of the default one: a SQLite file, or an event server's
    /// PostgreSQL URL (postgres://USER:PASSWORD@HOST[:PORT][,HOST[:PORT]...]/DB[?PARAMS]).
    #[arg(long, global = true, value_name = "PATH|URL")]
    pub db: Option<String>,
    /// Opens an arbiter station's desk on the event server, from its card's link
    /// (https://HOST:PORT/NAME). The secret is read from GGDESK_STATION_SECRET, or asked for;
    /// on the first connection to a server, the card's authority from --authority (or
    /// GGDESK_STATION_AUTHORITY), or asked for.
    #[arg(long, value_name = "LINK", conflicts_with = "db")]
    pub station: Option<String>,
    /// The card's authority (sha256:HEX), checked before the secret is sent.
    #[arg(long, value_name = "SHA256", requires = "station")]
    pub authority: Option<String>,
    /// A standby's address the card lists (https://HOST:PORT/), tried when the link's server
    /// does not answer; may be given again.
    #[arg(long, value_name = "ADDRESS", requires = "station")]
    pub standby: Vec<String>,
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
    /// Pairs the next round of a tournament file (ggdesk-tournament/1 or /2) and prints it as
    /// JSON; on an event of stages, the next playoff games or the next stage's first round.
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
        /// The standings of stage K of an event of stages (default: the current stage).
        #[arg(long, value_name = "K", conflicts_with = "final_placement")]
        stage: Option<u32>,
        /// The event's final placement.
        #[arg(long = "final")]
        final_placement: bool,
        /// The team standings of a team event (of stage K with --stage).
        #[arg(long, conflicts_with_all = ["final_placement", "boards"])]
        teams: bool,
        /// The board prizes of a team event.
        #[arg(long, conflicts_with_all = ["final_placement", "stage"])]
        boards: bool,
    },
    /// Prints the knockout stage of an event of stages (ggdesk-tournament/2) as JSON.
    Bracket {
        /// The tournament file, or - for standard input.
        file: String,
    },
    /// Prints the cross-table of a tournament file as CSV.
    Crosstable {
        /// The tournament file, or - for standard input.
        file: String,
    },
    /// Rates the events of tournament files (ggdesk-tournament/1 or /2, each with its "date")
    /// with Glicko-2 in date order and prints the rating list as CSV (spec/ratings.md).
    Ratings {
        /// The event files (- for standard input).
        files: Vec<String>,
        /// First ratings: CSV with the header federation_id,name,rating,deviation,volatility.
        #[arg(long, value_name = "LIST.csv")]
        initial: Option<String>,
        /// Glicko-2's system constant (default 0.5).
        #[arg(long, value_name = "T")]
        tau: Option<String>,
        /// Print JSON with each player's history instead of CSV.
        #[arg(long)]
        json: bool,
    },
    /// Imports a tournament file or a game record into the database, in one transaction,
    /// and prints the new tournament's or game's id.
    Import {
        /// A ggdesk-tournament/1 or ggdesk-record/1 file, or - for standard input.
        file: String,
    },
    /// A tournament's rounds as the desk runs them: pair the next round, publish the draft,
    /// enter a table's result.
    Round {
        /// The tournament's id.
        tid: i64,
        #[command(subcommand)]
        what: round::RoundWhat,
    },
    /// Makes (or gives a new password to) a login of its own for `ggdesk serve` on a server
    /// ggdesk does not host: it reads only what the public pages show. Prints the URL for
    /// `ggdesk --db URL serve` (the password shown once).
    PagesLogin {
        /// The login's name.
        #[arg(default_value = "ggdesk_pages")]
        name: String,
    },
    /// Exports a tournament (ggdesk-tournament/1) or a game record (ggdesk-record/1).
    Export {
        #[command(subcommand)]
        what: ExportWhat,
    },
    /// Serves the public pages (pairings, results, standings) read-only over HTTP until
    /// stopped (Ctrl+C or SIGTERM).
    Serve {
        /// The address and port to listen on; 0.0.0.0:PORT for every network of this computer.
        #[arg(long, value_name = "ADDR:PORT", default_value = crate::serve::DEFAULT_LISTEN)]
        listen: String,
    },
    /// Copies everything (players, tournaments, rounds, games, reading sheets, the audit log;
    /// ids kept) into DST, a database with no ggdesk data yet (a path or a URL), in one
    /// transaction, and prints the counts.
    Copy {
        /// The destination: a SQLite file or a PostgreSQL URL.
        dst: String,
    },
    /// Arbiter stations of an event server.
    Station {
        #[command(subcommand)]
        what: StationWhat,
    },
    /// Plays a live game from standard input, one JSON line at a time: a record header, then
    /// one event per line, each committed before "ack SEQ" is printed.
    Feed {
        /// - for standard input.
        input: String,
    },
    /// Makes this laptop the event server: PostgreSQL in DIR (made the first time, with the
    /// event's own certificate authority and TLS), the stations' HTTPS API and the public
    /// pages; prints the director's URL and `ready`, and runs until Ctrl+C or SIGTERM.
    Host {
        /// The event's folder (created when absent).
        dir: PathBuf,
        /// The one address to listen on besides loopback (default: every address).
        #[arg(long, value_name = "ADDR")]
        listen: Option<std::net::IpAddr>,
        /// PostgreSQL's port.
        #[arg(long, default_value_t = crate::host::DEFAULT_PORT)]
        port: u16,
        /// The stations' HTTPS port.
        #[arg(long, value_name = "P", default_value_t = crate::host::DEFAULT_STATION_PORT)]
        station_port: u16,
        /// The public pages' port (plain HTTP: they carry nothing secret).
        #[arg(long, value_name = "P", default_value_t = crate::host::DEFAULT_PAGES_PORT)]
        pages_port: u16,
        /// When run as root: the user that runs the cluster and owns DIR.
        #[arg(long, value_name = "NAME")]
        user: Option<String>,
        /// Make DIR a synchronous standby of the running host whose director's URL this is.
        #[arg(long, value_name = "URL")]
        standby_of: Option<String>,
        /// A primary whose synchronous standby is not streaming when it starts waits this
        /// long for it, then stops waiting for it at each commit (until it streams again).
        #[arg(long, value_name = "SECONDS", default_value_t = crate::host::DEFAULT_STANDBY_WAIT_S)]
        standby_wait: u64,
    },
    /// Prints the state of the database's server(s), one line each (primary or standby,
    /// synchronous standby connected, how far behind).
    Status,
}

#[derive(Debug, Subcommand)]
pub enum StationWhat {
    /// Creates an arbiter station of the event server `ggdesk host` runs and prints its card
    /// (the stations' address, the station, its secret shown this once, the authority's
    /// fingerprint). A station never logs into the database; --tournament is required.
    Add {
        /// Letters, digits, - and _.
        name: String,
        /// The tournament whose round in play it runs.
        #[arg(long, value_name = "TID")]
        tournament: Option<i64>,
        /// The tables it runs in every round in play, e.g. 1-10,12.
        #[arg(long)]
        tables: Option<String>,
        /// Also writes the card to print (A6, with a QR code of its link) as FILE.pdf,
        /// readable by you only.
        #[arg(long, value_name = "FILE")]
        card: Option<PathBuf>,
    },
    /// Lists the stations and their tables.
    List,
    /// Gives a station a new secret and prints its new card (the secret shown this once);
    /// the old secret stops working and the station's open requests and streams end.
    Reset {
        name: String,
        /// Also writes its new card to print as FILE.pdf.
        #[arg(long, value_name = "FILE")]
        card: Option<PathBuf>,
    },
    /// Removes a station: its secret stops working and its open requests and streams end.
    Remove { name: String },
}

#[derive(Debug, Subcommand)]
pub enum ExportWhat {
    /// Writes a tournament as a ggdesk-tournament/1 file.
    Tournament {
        id: i64,
        /// Where to write (- for standard output).
        file: PathBuf,
    },
    /// Writes a game's record as a ggdesk-record/1 file.
    Game {
        id: i64,
        /// Where to write (- for standard output).
        file: PathBuf,
    },
}

/// Reads a file, or standard input for `-`. A file that cannot be read fails with exit 1;
/// one that is not UTF-8 is bad input (exit 2), like any other malformed JSON.
pub fn read_input(path: &str) -> Result<String, CliError> {
    let bytes = if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::Other(format!("cannot read standard input: {e}")))?;
        bytes
    } else {
        std::fs::read(path).map_err(|e| CliError::Other(format!("cannot read {path}: {e}")))?
    };
    String::from_utf8(bytes).map_err(|e| {
        CliError::Input(format!(
            "not valid JSON: the text is not UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Runs a command-line command, writing its output to standard output.
pub fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        Some(Command::Replay { file }) => replay::run(&file),
        Some(Command::Pair { file, explain }) => tournament::pair(&file, explain),
        Some(Command::Standings {
            file,
            csv,
            stage,
            final_placement,
            teams,
            boards,
        }) => tournament::standings(
            &file,
            tournament::StandingsView {
                csv,
                stage,
                final_placement,
                teams,
                boards,
            },
        ),
        Some(Command::Bracket { file }) => tournament::bracket(&file),
        Some(Command::Crosstable { file }) => tournament::crosstable(&file),
        Some(Command::Ratings {
            files,
            initial,
            tau,
            json,
        }) => ratings::run(&files, initial.as_deref(), tau.as_deref(), json),
        Some(Command::Import { file }) => store_cmds::import(args.db, &file),
        Some(Command::Round { tid, what }) => round::run(args.db, tid, what),
        Some(Command::PagesLogin { name }) => server::pages_login(args.db, &name),
        Some(Command::Export {
            what: ExportWhat::Game { id, file },
        }) => store_cmds::export_game(args.db, id, &file),
        Some(Command::Export {
            what: ExportWhat::Tournament { id, file },
        }) => store_cmds::export_tournament(args.db, id, &file),
        Some(Command::Copy { dst }) => server::copy(args.db, &dst),
        Some(Command::Station {
            what:
                StationWhat::Add {
                    name,
                    tournament,
                    tables,
                    card,
                },
        }) => server::station_add(
            args.db,
            &name,
            tournament,
            tables.as_deref(),
            card.as_deref(),
        ),
        Some(Command::Station {
            what: StationWhat::List,
        }) => server::station_list(args.db),
        Some(Command::Station {
            what: StationWhat::Reset { name, card },
        }) => server::station_reset(args.db, &name, card.as_deref()),
        Some(Command::Station {
            what: StationWhat::Remove { name },
        }) => server::station_remove(args.db, &name),
        Some(Command::Feed { input }) => feed::run(args.db, &input),
        Some(Command::Status) => server::status(args.db),
        Some(Command::Host {
            dir,
            listen,
            port,
            station_port,
            pages_port,
            user,
            standby_of,
            standby_wait,
        }) => host::run(crate::host::HostOptions {
            dir,
            listen,
            port,
            station_port,
            pages_port,
            user,
            standby_of,
            standby_wait: std::time::Duration::from_secs(standby_wait),
        }),
        Some(Command::Serve { listen }) => serve::run(args.db, &listen),
        None => match args.station {
            Some(link) => station_desk(&link, &args.standby, args.authority.as_deref()),
            None => {
                let db = store_cmds::db_address(args.db)?;
                crate::ui::run(db).map_err(CliError::Other)
            }
        },
    }
}

/// `ggdesk --station LINK`: an arbiter station's desk on the event server's API.
fn station_desk(link: &str, standbys: &[String], authority: Option<&str>) -> Result<(), CliError> {
    use crate::station::connect::{KnownAuthorities, connect};
    // The link is checked before anything is asked.
    let parsed = crate::station::client::StationLink::parse(link).map_err(CliError::Input)?;
    let mut known =
        KnownAuthorities::load(KnownAuthorities::default_path()).map_err(CliError::Other)?;
    let secret = match std::env::var("GGDESK_STATION_SECRET") {
        Ok(s) if !s.trim().is_empty() => s,
        _ => ask(&format!(
            "The secret of station {} (on its card): ",
            parsed.station
        ))?,
    };
    let authority = match authority
        .map(str::to_string)
        .or_else(|| std::env::var("GGDESK_STATION_AUTHORITY").ok())
    {
        Some(a) => a,
        None if known.get(&parsed.server()).is_some() => String::new(),
        None => ask("The authority on the card (sha256:…): ")?,
    };
    let connected =
        connect(link, standbys, &secret, &authority, &mut known).map_err(CliError::Input)?;
    if connected.first_use {
        eprintln!(
            "ggdesk: connected to {}: authority sha256:{} (it matches the card; remembered)",
            connected.link.server(),
            connected.authority
        );
    }
    let title = connected.link.shown();
    crate::ui::run_store(Ok(connected.store), &title).map_err(CliError::Other)
}

/// Asks on standard error and reads one line of standard input.
fn ask(question: &str) -> Result<String, CliError> {
    use std::io::Write;
    eprint!("{question}");
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| CliError::Other(format!("standard input: {e}")))?;
    Ok(line.trim().to_string())
}

/// Parses the process arguments, runs, reports an error on standard error, and returns the
/// exit code.
pub fn main() -> i32 {
    let args = Args::parse();
    match run(args) {
        Ok(()) => 0,
        Err(e @ CliError::OutputClosed) => e.exit_code(),
        Err(e) => {
            eprintln!("ggdesk: {}", e.message());
            e.exit_code()
        }
    }
}
