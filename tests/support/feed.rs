//! `ggdesk feed` children for the tests: a random game's lines, a child fed by a thread or
//! in parts ([`Feed`]), and the checks that every acknowledged event is stored once with its
//! audit row.
#![allow(dead_code)]

#[path = "wait.rs"]
pub mod wait;

use ggdesk::store::{AuditFilter, GameId, Store};
use ggdesk_core::record::Record;
use ggdesk_core::sim::{SimOptions, random_record};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::Instant;

/// The lines `feed` reads for one random game: the header, then one event per line.
pub fn feed_lines(seed: u64) -> Vec<String> {
    feed_lines_up_to(seed, 3000)
}

/// The same for a game of at most `max_events` events.
pub fn feed_lines_up_to(seed: u64, max_events: usize) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut options = SimOptions {
        max_events,
        max_think_ms: 5_000,
        arbiter_events: true,
        ..SimOptions::default()
    };
    options.rules.thirty_moves = 0;
    let record: Record = random_record(&mut |n| rng.random_range(0..n.max(1)), options)
        .expect("the simulator plays only what the rules allow");
    let mut value = record.to_value();
    let events = value
        .as_object_mut()
        .and_then(|o| o.remove("events"))
        .and_then(|e| e.as_array().cloned())
        .unwrap_or_default();
    if let Some(o) = value.as_object_mut() {
        o.remove("readings");
    }
    let mut lines = vec![value.to_string()];
    lines.extend(events.iter().map(Value::to_string));
    lines
}

/// A `feed` child writing into `db`, its whole input written by a thread.
pub fn spawn_feed(db: &str, lines: Vec<String>) -> (Child, std::thread::JoinHandle<Vec<String>>) {
    let mut feed = Feed::spawn(db);
    feed.give(lines);
    feed.close_input();
    let Feed {
        child,
        output,
        mut seen,
        ..
    } = feed;
    let reader = std::thread::spawn(move || {
        seen.extend(output.iter());
        seen.into_iter().map(|(_, line)| line).collect()
    });
    (child, reader)
}

/// A `feed` child that the test gives its input in parts, holding its standard input open
/// in between (the child then waits for more, in the middle of its game), and whose output
/// lines the test sees as they come, each with the moment it arrived. A test that kills at
/// a point it has observed waits for a line ([`Feed::until_line`]) and kills then.
pub struct Feed {
    pub child: Child,
    /// The thread writing the latest part; it hands the standard input back when done
    /// (`None` once the child stopped reading).
    writer: Option<std::thread::JoinHandle<Option<ChildStdin>>>,
    stdin: Option<ChildStdin>,
    output: mpsc::Receiver<(Instant, String)>,
    /// Every line the child wrote that the test has received so far.
    pub seen: Vec<(Instant, String)>,
}

impl Feed {
    /// `ggdesk --db DB feed -`, given nothing yet.
    pub fn spawn(db: &str) -> Feed {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
            .args(["--db", db, "feed", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn feed");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (send, output) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Feed {
            child,
            writer: None,
            stdin,
            output,
            seen: Vec::new(),
        }
    }

    /// Writes `lines` to the child (by a thread: the child may be slow to read), after
    /// whatever was given before.
    pub fn give(&mut self, lines: Vec<String>) {
        let stdin = self.take_stdin();
        self.writer = Some(std::thread::spawn(move || {
            let mut stdin = stdin?;
            for line in lines {
                writeln!(stdin, "{line}").ok()?;
            }
            Some(stdin)
        }));
    }

    /// The standard input back from the writer, once it has written everything given.
    fn take_stdin(&mut self) -> Option<ChildStdin> {
        match self.writer.take() {
            Some(w) => w.join().expect("the writer thread"),
            None => self.stdin.take(),
        }
    }

    /// Closes the child's standard input once all that was given is written: the end of
    /// its game.
    pub fn close_input(&mut self) {
        drop(self.take_stdin());
    }

    /// Receives the child's output until a line is `line`; fails naming it, with every
    /// line seen, when the child ends first or after [`wait::BOUND`].
    pub fn until_line(&mut self, line: &str) {
        let deadline = Instant::now() + wait::BOUND;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok((at, got)) => {
                    let found = got == line;
                    self.seen.push((at, got));
                    if found {
                        return;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => panic!(
                    "waited {:?} for the feed to write {line:?}, in vain; it wrote {:?}",
                    wait::BOUND,
                    self.text()
                ),
                Err(mpsc::RecvTimeoutError::Disconnected) => panic!(
                    "the feed ended before it wrote {line:?}; it wrote {:?}",
                    self.text()
                ),
            }
        }
    }

    /// Kills the child with SIGKILL where it stands and reaps it.
    pub fn kill(&mut self) -> ExitStatus {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reap")
    }

    /// Closes the input (if still open), waits for the child to exit and receives the rest
    /// of its output; its exit status.
    pub fn finish(&mut self) -> ExitStatus {
        self.close_input();
        let status = self.child.wait().expect("wait for feed");
        self.seen.extend(self.output.iter());
        status
    }

    /// The output lines seen so far, without their times.
    pub fn text(&self) -> Vec<String> {
        self.seen.iter().map(|(_, l)| l.clone()).collect()
    }
}

/// The game a feed's output names, and the sequence numbers it acknowledged.
pub fn acknowledged(lines: &[String]) -> Option<(i64, Vec<u32>)> {
    let game = lines.first()?.strip_prefix("game ")?.trim().parse().ok()?;
    let acks = lines
        .iter()
        .filter_map(|l| l.strip_prefix("ack ")?.trim().parse().ok())
        .collect();
    Some((game, acks))
}

/// Checks that the database holds every acknowledged event of `game`, each once with its
/// audit row, and that the game replays.
pub fn check_game(store: &Store, game: i64, acks: &[u32], round: u64) {
    // One snapshot for the game and its audit rows: a killed writer's server process may
    // still commit its last transaction between two separate reads.
    let (stored, log) = store
        .read_consistent(|s| {
            Ok((
                s.load_game(GameId(game))?,
                s.audit_log(AuditFilter::Game(game))?,
            ))
        })
        .expect("the acknowledged game exists");
    let seqs: Vec<u32> = stored.events.iter().map(|e| e.seq).collect();
    assert_eq!(
        seqs,
        (0..seqs.len() as u32).collect::<Vec<_>>(),
        "round {round}: no gaps, no event twice"
    );
    assert_eq!(
        acks,
        (0..acks.len() as u32).collect::<Vec<_>>(),
        "round {round}: feed acknowledges 0, 1, 2, ..."
    );
    assert!(
        acks.len() <= seqs.len(),
        "round {round}: game {game}: {} acknowledged, {} stored",
        acks.len(),
        seqs.len()
    );
    let audited: Vec<&str> = log
        .iter()
        .filter(|a| {
            !matches!(
                a.action.as_str(),
                "game created" | "setup entered" | "game started"
            )
        })
        .map(|a| a.action.as_str())
        .collect();
    assert_eq!(
        audited.len(),
        seqs.len(),
        "round {round}: game {game}: every stored event has its audit row: {audited:?} for {:?}",
        stored
            .events
            .iter()
            .map(|e| e.kind.code())
            .collect::<Vec<_>>()
    );
    assert!(
        stored.verdict().expect("setups").is_ok(),
        "round {round}: the stored game replays"
    );
}
