//! What the public pages' tests share: an event in a database file with games in progress
//! at the desk (setups, challenges, a reading sheet), a server on a free loopback port, and a
//! plain HTTP client that shows every byte.
// Each test file uses only some of these.
#![allow(dead_code)]

use ggdesk::record::TimedEvent;
use ggdesk::rules::{BySide, Event, PhysicalEvent, Rank, RuleSettings, Side};
use ggdesk::serve::{Limits, ServeConfig, Server};
use ggdesk::store::TournamentId;
use ggdesk::store::{Actor, GameId, GameMode, NewGame, PlayerInput, Store, TournamentSetup};
use ggdesk::tournament::{GameResult, PlayerId, RoundNo, TableNo};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::Duration;

#[path = "../support/games.rs"]
mod games;

/// The players. No name holds a piece code or a rank's name, so a scan that finds one has
/// found a leak; one name is markup, to prove every name is escaped.
pub const NAMES: [&str; 12] = [
    "Reyes, Ana",
    "Cruz, Ben",
    "Santos, Carla",
    "Dizon, Dan",
    "<script>alert(1)</script>",
    "Ong, Fe",
    "Tan, Gil",
    "Uy, Hana",
    "Bautista, Ivy",
    "Garcia, Jo",
    "Mendoza, Kai",
    "Aquino, Lea",
];

pub const SCRIPT_NAME: &str = "<script>alert(1)</script>";

/// A hall in the middle of round 3 of a 5-round Swiss: rounds 1 and 2 complete, and round 3
/// at the desk with a game being played (challenges made), one in adjudication (game time
/// up, a reading sheet entered), one decided at the desk, one on a physical board (a
/// challenge seen by the arbiter), one whose setups are being entered, and one result given
/// by the director.
pub struct Hall {
    pub dir: tempfile::TempDir,
    pub path: PathBuf,
    pub tid: TournamentId,
    /// The round in play.
    pub round: RoundNo,
    /// The desk's games of the round in play, by table.
    pub games: Vec<(u32, GameId)>,
}

pub fn director() -> Actor {
    Actor::director()
}

/// A tournament of `names` (ratings falling in the order given) in a new database file.
pub fn event_with(
    names: &[&str],
    rounds: u32,
) -> (tempfile::TempDir, PathBuf, Store, TournamentId) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("hall.sqlite3");
    let mut store = Store::open(&path).expect("store");
    let setup = TournamentSetup {
        name: "Hall Open 2026".into(),
        rounds: Some(rounds),
        ..TournamentSetup::default()
    };
    let tid = store
        .create_tournament(&setup, &director())
        .expect("tournament");
    for (i, name) in names.iter().enumerate() {
        let id = store
            .add_player(
                &PlayerInput {
                    name: (*name).into(),
                    federation_id: format!("PH-{i:04}"),
                    club: if i % 2 == 0 {
                        "QC Club".into()
                    } else {
                        String::new()
                    },
                    rating: 2000 - 10 * i as i64,
                },
                &director(),
            )
            .expect("player");
        store.register(tid, id, &director()).expect("register");
    }
    (dir, path, store, tid)
}

/// Pairs and publishes the next round; returns its number.
pub fn publish_next(store: &mut Store, tid: TournamentId) -> RoundNo {
    let n = store.pair_round(tid, &director()).expect("pair").round;
    store.publish_round(tid, n, &director()).expect("publish");
    n
}

/// Enters a result for every board of a round: White wins on odd tables, draws on even ones,
/// except a forfeit on table 3.
pub fn play_round_by_hand(store: &mut Store, tid: TournamentId, round: RoundNo) {
    let view = store.round_view(tid, round).expect("view").expect("round");
    for b in &view.boards {
        let result = match b.table.0 {
            3 => GameResult::BlackWinsByForfeit,
            n if n % 2 == 1 => GameResult::WhiteWins,
            _ => GameResult::Draw,
        };
        store
            .set_result(tid, round, b.board, result, "", &director())
            .expect("result");
    }
}

fn new_game(
    tid: TournamentId,
    round: RoundNo,
    table: TableNo,
    players: BySide<PlayerId>,
    mode: GameMode,
) -> NewGame {
    let mut new = NewGame::standalone();
    new.tournament_id = Some(tid);
    new.round = Some(round);
    new.table_no = Some(table);
    new.players = Some(players);
    new.mode = mode;
    new
}

/// Creates an arbitrated game at a table with random setups entered; starts it if asked.
fn desk_game(store: &mut Store, new: &NewGame, seed: u64, start: bool) -> GameId {
    let setups = games::random_both(&mut StdRng::seed_from_u64(seed));
    let actor = Actor::arbiter(new.table_no.map(|t| i64::from(t.0)));
    let id = games::set_up(store, new, &setups, &actor).expect("game");
    if start {
        store
            .start_game(id, 1_800_000_000_000, Side::White, &actor)
            .expect("start");
    }
    id
}

/// Plays up to `plies` moves, taking a challenge whenever one is there while fewer than
/// `challenges` were made; stops when the game ends. Returns the challenges made, and the
/// time of the last move.
fn play(store: &mut Store, id: GameId, plies: u32, challenges: u32, seed: u64) -> (u32, f64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut made = 0;
    let mut t = 0.0;
    for _ in 0..plies {
        let game = games::live(store, id);
        if game.is_over() {
            break;
        }
        let side = game.to_move();
        let moves = game.position().legal_moves(side);
        let attacks: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| game.position().get(m.to).is_some())
            .collect();
        let quiet: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| game.position().get(m.to).is_none())
            .collect();
        let mv = if made < challenges && !attacks.is_empty() {
            attacks[rng.random_range(0..attacks.len())]
        } else if !quiet.is_empty() {
            quiet[rng.random_range(0..quiet.len())]
        } else {
            moves[0]
        };
        t += 3.0;
        let out = store
            .append_event(
                id,
                TimedEvent {
                    t,
                    event: Event::Move { mv, by: None },
                },
                &Actor::arbiter(None),
                "",
            )
            .expect("move");
        if out.applied.challenge.is_some() {
            made += 1;
        }
        if out.applied.ended {
            break;
        }
    }
    (made, t)
}

/// One quiet move (no challenge) in a game under way at the desk, a second after its last
/// event: the audit log grows and nothing public changes. Panics if the move ends the game.
pub fn quiet_move(store: &mut Store, id: GameId) {
    let game = games::live(store, id);
    let mv = game
        .position()
        .legal_moves(game.to_move())
        .into_iter()
        .find(|m| game.position().get(m.to).is_none())
        .expect("a quiet move");
    let t = store
        .load_game(id)
        .expect("game")
        .events
        .last()
        .map_or(0.0, |e| e.t);
    let out = store
        .append_event(
            id,
            TimedEvent {
                t: t + 1.0,
                event: Event::Move { mv, by: None },
            },
            &Actor::arbiter(None),
            "",
        )
        .expect("move");
    assert!(!out.applied.ended, "the quiet move ended the game");
}

/// The hall described at [`Hall`].
pub fn hall() -> Hall {
    let (dir, path, mut store, tid) = event_with(&NAMES, 5);
    for _ in 0..2 {
        let n = publish_next(&mut store, tid);
        play_round_by_hand(&mut store, tid, n);
    }
    let round = publish_next(&mut store, tid);
    let view = store.round_view(tid, round).expect("view").expect("round");
    let seat = |table: u32| {
        let b = view
            .boards
            .iter()
            .find(|b| b.table == TableNo(table))
            .expect("table");
        (b.board, BySide::new(b.white.no, b.black.no))
    };
    let mut games = Vec::new();

    // Table 1: being played, challenges made. Seeds are tried until one keeps going.
    let (_, players) = seat(1);
    for seed in 0.. {
        let id = desk_game(
            &mut store,
            &new_game(tid, round, TableNo(1), players, GameMode::Arbitrated),
            seed,
            true,
        );
        let (made, _) = play(&mut store, id, 12, 3, seed);
        let g = store.load_game(id).expect("load");
        if made >= 2 && g.meta.result.code().is_none() {
            games.push((1, id));
            break;
        }
        store
            .void_and_replay(id, "test set-up: try another game", &director())
            .expect("void");
    }

    // Table 2: game time ran out: adjudication, with White's reading sheet entered.
    let (_, players) = seat(2);
    let mut short = new_game(tid, round, TableNo(2), players, GameMode::Arbitrated);
    short.rules = RuleSettings {
        game_limit_ns: 60 * 1_000_000_000,
        ..RuleSettings::default()
    };
    for seed in 100.. {
        let id = desk_game(&mut store, &short, seed, true);
        let (_, t) = play(&mut store, id, 8, 1, seed);
        let ended = store
            .load_game(id)
            .expect("load")
            .meta
            .result
            .code()
            .is_some();
        if ended || t >= 60.0 {
            store
                .void_and_replay(id, "test set-up: try another game", &director())
                .expect("void");
            continue;
        }
        store
            .append_event(
                id,
                TimedEvent {
                    t: 61.0,
                    event: Event::End,
                },
                &Actor::arbiter(Some(2)),
                "",
            )
            .expect("end");
        let g = store.load_game(id).expect("load");
        assert_eq!(
            g.meta.result.code().as_deref(),
            Some("adjudication_pending")
        );
        let derived = g.derive().expect("setups").expect("replays");
        let enemy: Vec<_> = derived
            .as_arbitrated()
            .expect("arbitrated")
            .position()
            .pieces_of(Side::Black)
            .take(3)
            .collect();
        let guesses = [Rank::Spy, Rank::Flag, Rank::G5];
        let sheet: serde_json::Map<String, serde_json::Value> = enemy
            .iter()
            .zip(guesses)
            .map(|((sq, _), r)| (sq.to_string(), r.code().into()))
            .collect();
        store
            .save_reading_sheet(
                id,
                Side::White,
                &serde_json::Value::Object(sheet),
                false,
                &Actor::arbiter(Some(2)),
            )
            .expect("sheet");
        games.push((2, id));
        break;
    }

    // Table 3: decided at the desk: Black resigns after a challenge.
    let (_, players) = seat(3);
    let id = desk_game(
        &mut store,
        &new_game(tid, round, TableNo(3), players, GameMode::Arbitrated),
        7,
        true,
    );
    let (_, t) = play(&mut store, id, 4, 1, 7);
    if store
        .load_game(id)
        .expect("load")
        .meta
        .result
        .code()
        .is_none()
    {
        store
            .append_event(
                id,
                TimedEvent {
                    t: t + 1.0,
                    event: Event::Resign(Side::Black),
                },
                &Actor::arbiter(Some(3)),
                "",
            )
            .expect("resign");
    }
    games.push((3, id));

    // Table 4: a physical board, a challenge seen by the arbiter.
    let (_, players) = seat(4);
    let actor = Actor::arbiter(Some(4));
    let id = store
        .create_game(
            &new_game(tid, round, TableNo(4), players, GameMode::Physical),
            &actor,
        )
        .expect("physical");
    store
        .start_game(id, 1_800_000_000_000, Side::White, &actor)
        .expect("start");
    store
        .append_physical_event(id, 5.0, PhysicalEvent::Move { challenge: None }, &actor, "")
        .expect("move");
    store
        .append_physical_event(
            id,
            9.0,
            PhysicalEvent::Move {
                challenge: Some((Rank::Sergeant, Rank::Private)),
            },
            &actor,
            "",
        )
        .expect("challenge");
    games.push((4, id));

    // Table 5: the director enters a draw.
    let (board_no, _) = seat(5);
    store
        .set_result(tid, round, board_no, GameResult::Draw, "", &director())
        .expect("draw");

    // Table 6: setups being entered.
    let (_, players) = seat(6);
    let id = desk_game(
        &mut store,
        &new_game(tid, round, TableNo(6), players, GameMode::Arbitrated),
        9,
        false,
    );
    games.push((6, id));

    Hall {
        dir,
        path,
        tid,
        round,
        games,
    }
}

/// A server on a free loopback port for the database at `path`, as `ggdesk serve` starts
/// it. A test that changes the database calls `server.check_now()` before it asks for the
/// change: the server has then seen it, however slow the machine.
pub fn serve(path: &std::path::Path) -> Server {
    serve_config(path, |_| {})
}

pub fn serve_with(path: &std::path::Path, limits: Limits) -> Server {
    serve_config(path, |c| c.limits = limits)
}

/// A server with its configuration changed by `change`.
pub fn serve_config(path: &std::path::Path, change: impl FnOnce(&mut ServeConfig)) -> Server {
    let mut config = ServeConfig::new(path, "127.0.0.1:0".parse().expect("addr"));
    change(&mut config);
    Server::start(&config).expect("server starts")
}

/// Waits until `f` holds, checking every 10 ms, for at most `bound`; fails naming what was
/// awaited.
pub fn until(what: &str, bound: Duration, f: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + bound;
    while !f() {
        assert!(
            std::time::Instant::now() < deadline,
            "waited {bound:?} in vain for: {what}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A connection to `addr` from the loopback address `from` (127.0.0.2, ...): loopback
/// addresses are all this machine's, and the server counts connections per address.
pub fn connect_from(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    let socket =
        socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("socket");
    let local = SocketAddr::from((from, 0));
    socket.bind(&local.into()).expect("bind a loopback address");
    socket.connect(&addr.into()).expect("connect");
    socket.into()
}

/// This process's soft limit of open files: tests that hold a thousand connections (two
/// descriptors each, client and server in one process) check it first.
pub fn open_files_limit() -> usize {
    std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3))
                .and_then(|soft| soft.parse().ok())
        })
        .unwrap_or(1024)
}

/// A page's stream of change notices, read as a browser's `EventSource` would.
pub struct Notices {
    stream: TcpStream,
    buf: Vec<u8>,
}

/// One event of a stream: its `event:` name (empty for a comment-only block) and its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub event: String,
    pub data: String,
}

impl Notices {
    /// Opens `path`'s stream and waits (up to 60 s) for its first block, which says it is
    /// open: every change found after this returns is on it.
    pub fn open(addr: SocketAddr, path: &str) -> Notices {
        Notices::open_on(TcpStream::connect(addr).expect("connect"), addr, path)
    }

    pub fn open_on(mut stream: TcpStream, addr: SocketAddr, path: &str) -> Notices {
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        stream
            .write_all(
                format!(
                    "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\
                     Accept-Encoding: gzip, deflate, br\r\n\r\n"
                )
                .as_bytes(),
            )
            .expect("write");
        let mut n = Notices {
            stream,
            buf: Vec::new(),
        };
        let head = n.block().expect("the stream's head");
        assert!(
            head.starts_with("HTTP/1.1 200") && head.to_lowercase().contains("text/event-stream"),
            "{head}"
        );
        // Asked as a browser asks, the stream is never compressed: a compressor would hold
        // the notices back.
        assert!(!head.to_lowercase().contains("content-encoding"), "{head}");
        let first = n.block().expect("the stream's first block");
        assert!(first.contains(": open"), "{first}");
        n
    }

    /// The next block (up to a blank line) as text; `None` when the stream ended or nothing
    /// came for 60 s. The chunked framing is skipped: blocks are found by their blank line.
    fn block(&mut self) -> Option<String> {
        let mut chunk = [0u8; 4096];
        loop {
            let text = String::from_utf8_lossy(&self.buf).into_owned();
            // Chunk sizes stand on their own lines: drop them before looking for a block.
            let ends = [(text.find("\n\n"), 2), (text.find("\r\n\r\n"), 4)];
            if let Some((end, sep)) = ends
                .into_iter()
                .filter_map(|(at, sep)| at.map(|at| (at, sep)))
                .min()
            {
                self.buf.drain(..end + sep);
                return Some(text[..end].to_string());
            }
            let n = self.stream.read(&mut chunk).ok()?;
            if n == 0 {
                return None;
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }

    /// The next event named `event:` (comments and keep-alives skipped); `None` when the
    /// stream ended or nothing came for 60 s.
    pub fn next_event(&mut self) -> Option<Notice> {
        loop {
            let block = self.block()?;
            let mut notice = Notice {
                event: String::new(),
                data: String::new(),
            };
            for line in block.lines() {
                let line = line.trim_end_matches('\r');
                if let Some(v) = line.strip_prefix("event:") {
                    notice.event = v.trim().to_string();
                } else if let Some(v) = line.strip_prefix("data:") {
                    notice.data = v.trim().to_string();
                }
            }
            if !notice.event.is_empty() {
                return Some(notice);
            }
        }
    }
}

/// An answer as it came over the wire.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Reply {
    /// A header's value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().skip(1).find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }
}

/// Sends raw bytes on a new connection and reads until the server closes it (or 5 s pass).
pub fn raw(addr: SocketAddr, bytes: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn split_reply(text: &str) -> Reply {
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Reply {
        status,
        head: head.to_string(),
        body: body.to_string(),
    }
}

/// A request with extra header lines (each ending in CRLF), on its own connection.
pub fn request(addr: SocketAddr, method: &str, path: &str, headers: &str) -> Reply {
    let text = raw(
        addr,
        format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\r\n")
            .as_bytes(),
    );
    split_reply(&text)
}

pub fn get(addr: SocketAddr, path: &str) -> Reply {
    request(addr, "GET", path, "")
}

/// Every page and API answer the server has for the hall: the tournament's pages, each
/// round, each player, the searches, and the JSON.
pub fn every_path(tid: TournamentId, rounds: RoundNo, players: u32) -> Vec<String> {
    let rounds = rounds.0;
    let mut paths: Vec<String> = vec![
        "/".into(),
        "/wall".into(),
        "/live.js".into(),
        "/api/".into(),
        "/api/tournaments".into(),
    ];
    for p in [
        "",
        "/names",
        "/names?q=an",
        "/names?q=%3Cscript",
        "/standings",
        "/crosstable",
    ] {
        paths.push(format!("/t/{tid}{p}"));
    }
    for p in [
        "",
        "/round",
        "/players",
        "/players?q=cruz",
        "/standings",
        "/crosstable",
    ] {
        paths.push(format!("/api/t/{tid}{p}"));
    }
    for r in 1..=rounds {
        paths.push(format!("/t/{tid}/round/{r}"));
        paths.push(format!("/api/t/{tid}/round/{r}"));
    }
    for no in 1..=players {
        paths.push(format!("/t/{tid}/player/{no}"));
        paths.push(format!("/api/t/{tid}/player/{no}"));
    }
    paths
}

/// Adds to the database at `path` a completed event of the hall's first six players
/// (federation ids `PH-0000` …, their names), marks it rated, and returns the rating pages
/// and answers the server then has: the list, a search, and each player's page and JSON.
pub fn rated_event(path: &std::path::Path) -> Vec<String> {
    let mut store = Store::open(path).expect("store");
    let ids: Vec<usize> = (0..6).collect();
    let players: Vec<serde_json::Value> = ids
        .iter()
        .map(|&i| {
            serde_json::json!({
                "id": i + 1, "name": NAMES[i], "rating": 1500,
                "federation_id": format!("PH-{i:04}"),
            })
        })
        .collect();
    let results = ["white", "black", "draw"];
    let rounds: Vec<serde_json::Value> = (0..3)
        .map(|r| {
            let games: Vec<serde_json::Value> = (0..3)
                .map(|k| {
                    serde_json::json!({
                        "table": k + 1,
                        "white": (k + r) % 6 + 1,
                        "black": (5 - k + r) % 6 + 1,
                        "result": results[(r + k) % 3],
                    })
                })
                .collect();
            serde_json::json!({ "games": games })
        })
        .collect();
    let file = serde_json::json!({
        "format": "ggdesk-tournament/1",
        "name": "Hall Rated Cup",
        "settings": {"system": "swiss", "rounds": 3},
        "players": players,
        "rounds": rounds,
    });
    let tid = store
        .import_tournament(&file, &director())
        .expect("import the rated event");
    store
        .mark_rated(
            tid,
            ggdesk_core::rating::Date::parse("2026-06-01").expect("date"),
            &director(),
        )
        .expect("rated");
    let mut paths = vec![
        "/ratings".to_string(),
        "/ratings?q=an".into(),
        "/ratings?q=%3Cscript".into(),
        "/api/ratings".into(),
        "/api/ratings?q=ph".into(),
    ];
    for i in ids {
        paths.push(format!("/ratings/player/PH-{i:04}"));
        paths.push(format!("/api/ratings/player/PH-{i:04}"));
    }
    paths
}

/// The distinctive words of the rank names; the generic ones ("Five", "Star", "First") are
/// checked as part of the whole names.
pub const RANK_WORDS: [&str; 9] = [
    "General",
    "Colonel",
    "Lieutenant",
    "Major",
    "Captain",
    "Sergeant",
    "Private",
    "Spy",
    "Flag",
];

/// The rank scan of the pages' tests: every rank code, rank word and whole rank name found in `text`, compared without case,
/// codes and words as whole tokens (letters and digits).
pub fn ranks_in(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let tokens: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    let mut found = Vec::new();
    for rank in Rank::ALL {
        let code = rank.code().to_lowercase();
        if tokens.contains(&code.as_str()) {
            found.push(rank.code().to_string());
        }
        let name = rank.name().to_lowercase().replace('-', " ");
        if tokens.join(" ").contains(&name) {
            found.push(rank.name().to_string());
        }
    }
    for word in RANK_WORDS {
        if tokens.contains(&word.to_lowercase().as_str()) {
            found.push(word.to_string());
        }
    }
    found.sort();
    found.dedup();
    found
}

/// A team Swiss of two boards in the store: Tondo Tigers (Reyes, Ana; Dizon, Dan; Lim, Cid
/// its reserve), Cebu Colonels (Cruz, Ben; Santos, Eve) and Davao Sharks (Uy, Fay; Go,
/// Gil), players 1 to 7 in that order. Its first round pairs the Tigers against the
/// Colonels on tables 1 and 2 (Reyes white on board 1, Dizon black on board 2) and gives
/// the Sharks the bye.
pub fn team_cup(store: &mut Store) -> TournamentId {
    use ggdesk_core::export::import_team_players_csv;
    use ggdesk_core::teams::{TeamEvent, TeamShape};
    use ggdesk_core::tournament::PointsScale;
    let e = TeamEvent::preset(TeamShape::Swiss, "Team Cup", PointsScale::default(), 2, 3);
    let t = store
        .create_team_event(&e, &RuleSettings::default(), &director())
        .expect("created");
    let rows = import_team_players_csv(
        "team,name,federation_id,club,rating\n\
         Tondo Tigers,\"Reyes, Ana\",,,1900\nTondo Tigers,\"Dizon, Dan\",,,1800\n\
         Tondo Tigers,\"Lim, Cid\",,,1700\n\
         Cebu Colonels,\"Cruz, Ben\",,,1600\nCebu Colonels,\"Santos, Eve\",,,1500\n\
         Davao Sharks,\"Uy, Fay\",,,1400\nDavao Sharks,\"Go, Gil\",,,1300\n",
    )
    .expect("read");
    store.import_teams(t, &rows, &director()).expect("imported");
    t
}

/// The public pages served from `address` on a free loopback port.
pub fn serve_at(address: ggdesk::store::Address) -> Server {
    Server::start(&ServeConfig::new(
        address,
        "127.0.0.1:0".parse().expect("addr"),
    ))
    .expect("server starts")
}

/// The body of an HTML page answered 200.
pub fn html_of(r: &Reply) -> &str {
    assert_eq!(r.status, 200, "{}", r.head);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("text/html; charset=utf-8")
    );
    &r.body
}

/// The JSON of an answer 200.
pub fn json_of(r: &Reply) -> serde_json::Value {
    assert_eq!(r.status, 200, "{}", r.head);
    assert_eq!(
        r.header("content-type").as_deref(),
        Some("application/json")
    );
    serde_json::from_str(&r.body).expect("JSON")
}

/// Text without its tags, entities of the pages' escaping undone, spaces collapsed.
pub fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}
