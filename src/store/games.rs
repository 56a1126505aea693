//! Games and their events. A game's board, clocks and result are never stored as such:
//! they are derived by replaying its events through the rules engine. Events are only ever
//! inserted; an arbiter's correction is an `undo` event naming the event it cancels.
//!
//! This module reads and writes rows; every derivation (the events in force, the record,
//! the status, the result, the reading-sheet check) is the core's `game` module.

use super::db::{Optional, Tx, args};
use super::{Actor, Result, Store, StoreError, TournamentId, audit, rejected};
use ggdesk_core::clock::Time;
use ggdesk_core::game::{
    AnyEvent, AnyGame, GameMode, LogEntry, LogEntryKind, LoggedGame, Restart, SheetEntryError,
    SheetRow,
};
use ggdesk_core::physical_record::{self, PhysicalRecord};
use ggdesk_core::record::{
    Record, RecordError, Status, TimedEvent, Verdict, parse_setup, setup_value,
};
use ggdesk_core::rules::{
    Applied, BySide, Game, GameState, Outcome, PhysicalEvent, Position, RuleSettings, Side,
    SideSetup,
};
use serde_json::{Map, Value};

/// A game's row id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub i64);

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a new game needs.
#[derive(Debug, Clone, PartialEq)]
pub struct NewGame {
    pub tournament_id: Option<TournamentId>,
    pub round: Option<u32>,
    pub table_no: Option<u32>,
    /// The tournament player numbers of White and Black.
    pub players: Option<BySide<u32>>,
    pub mode: GameMode,
    pub first: Side,
    pub ratings: Option<BySide<f64>>,
    pub rules: RuleSettings,
    /// The voided game this one replays (arbiter's mistake).
    pub replaces: Option<GameId>,
}

impl NewGame {
    /// A game outside any tournament, GGF rules, White first.
    pub fn standalone() -> NewGame {
        NewGame {
            tournament_id: None,
            round: None,
            table_no: None,
            players: None,
            mode: GameMode::Arbitrated,
            first: Side::White,
            ratings: None,
            rules: RuleSettings::default(),
            replaces: None,
        }
    }

    /// The game of a board of round `round` of a tournament, followed in `mode` under the
    /// tournament's `rules`: its table, its players and their ratings, White first.
    pub fn for_board(
        tournament_id: TournamentId,
        round: u32,
        board: &super::RoundBoard,
        mode: GameMode,
        rules: RuleSettings,
    ) -> NewGame {
        NewGame {
            tournament_id: Some(tournament_id),
            round: Some(round),
            table_no: Some(board.table_no),
            players: Some(BySide::new(board.white.no, board.black.no)),
            mode,
            first: Side::White,
            ratings: Some(BySide::new(
                board.white.rating as f64,
                board.black.rating as f64,
            )),
            rules,
            replaces: None,
        }
    }
}

/// A game's stored facts other than its setups and events.
#[derive(Debug, Clone, PartialEq)]
pub struct GameMeta {
    pub id: GameId,
    pub tournament_id: Option<TournamentId>,
    pub round: Option<u32>,
    pub table_no: Option<u32>,
    pub players: Option<BySide<u32>>,
    pub mode: GameMode,
    pub first: Side,
    pub ratings: Option<BySide<f64>>,
    pub rules: RuleSettings,
    /// Unix ms at which the game clock's t = 0; `None` while the setups are entered.
    pub started_at: Option<i64>,
    /// The last t at which the desk saw the clocks (restores them after a crash).
    pub clock_seen_t: Option<f64>,
    pub result: Option<String>,
    pub void: bool,
    pub void_reason: Option<String>,
    pub replaces: Option<GameId>,
    pub extra: Map<String, Value>,
    /// Imported from a record (an archive), rather than played at this desk.
    pub imported: bool,
    /// Played by `feed` (created with a token of its own): no desk writes into it by
    /// itself (see `stations::Keeper`).
    pub fed: bool,
    pub created_at: i64,
}

/// A game as stored: its facts, setups, every entry of its event log, reading sheets.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredGame {
    pub meta: GameMeta,
    pub setup: BySide<Option<SideSetup>>,
    /// Every entry of the log (events and undos), in order.
    pub events: Vec<LogEntry>,
    /// Each side's reading sheet as entered, if any.
    pub sheets: BySide<Option<SheetRow>>,
}

/// The derivations the desk asks of a stored game, each the core's (see
/// [`StoredGame::logged`]); kept here so that call sites read `stored.verdict()`.
impl StoredGame {
    /// The game as the core models it, borrowed from what was read.
    pub fn logged(&self) -> LoggedGame<'_> {
        let m = &self.meta;
        LoggedGame {
            mode: m.mode,
            first: m.first,
            ratings: m.ratings,
            rules: m.rules,
            setup: &self.setup,
            log: &self.events,
            sheets: &self.sheets,
            extra: &m.extra,
        }
    }

    /// The events in force, with their sequence numbers and times.
    pub fn effective(&self) -> Vec<(u32, f64, AnyEvent)> {
        self.logged().effective()
    }

    /// The record-format events in force (a game the desk arbitrates).
    pub fn effective_events(&self) -> Vec<(u32, TimedEvent)> {
        self.logged().effective_events()
    }

    /// The record of a physical-board game (`ggdesk-physical/1`).
    pub fn physical_record(&self) -> Option<PhysicalRecord> {
        self.logged().physical_record()
    }

    /// The game derived from its events, whichever way it is followed. `None` before an
    /// arbitrated game's setups are both in.
    pub fn derive(&self) -> Option<std::result::Result<AnyGame, String>> {
        self.logged().derive()
    }

    /// Status and outcome (adjudication included), for either kind of game.
    pub fn status(&self) -> Option<(Status, Option<Outcome>)> {
        self.logged().status()
    }

    /// The game as its export file: `ggdesk-record/1`, or `ggdesk-physical/1`.
    pub fn export_value(&self) -> Option<Value> {
        self.logged().export_value()
    }

    /// Both setups, once both are entered.
    pub fn setups(&self) -> Option<BySide<SideSetup>> {
        self.logged().setups()
    }

    /// The game record (`ggdesk-record/1`), once both setups are in.
    pub fn record(&self) -> Option<Record> {
        self.logged().record()
    }

    /// The game replayed through the rules engine up to its last event. `None` before both
    /// setups are in.
    pub fn game(&self) -> Option<std::result::Result<Game, RecordError>> {
        self.logged().game()
    }

    /// The verdict `ggdesk replay` would give the exported record.
    pub fn verdict(&self) -> Option<std::result::Result<Verdict, RecordError>> {
        self.logged().verdict()
    }

    /// The game clock's t for a Unix-ms wall time.
    pub fn t_at(&self, wall_ms: i64) -> Option<f64> {
        self.meta
            .started_at
            .map(|s| (wall_ms.saturating_sub(s).max(0)) as f64 / 1000.0)
    }
}

/// Where a writer expects its event to go, and the token of its attempt (see
/// [`Store::append_expecting`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expect<'a> {
    /// The sequence number the event takes if the game is as the writer last saw it.
    pub seq: u32,
    /// Unique to the attempt: sent again unchanged when a confirmation was lost.
    pub token: &'a str,
}

/// What an appended event did.
#[derive(Debug, Clone, PartialEq)]
pub struct AppendOutcome {
    pub seq: u32,
    pub applied: Applied,
    pub state: GameState,
    /// The event decided the last game of its round: the round is complete (and backed up).
    pub round_completed: Option<super::RoundCompleted>,
}

/// What the restore after a start did: the games restored (brought back as they were, or
/// paused and resumed, or ended where a clock ran out), and each game that could not be,
/// with why.
#[derive(Debug, Default)]
pub struct Restored {
    pub restored: Vec<GameId>,
    pub failed: Vec<(GameId, StoreError)>,
    /// Rounds a restored game completed (its clock ran out while the desk was down), with
    /// their backups.
    pub completed: Vec<super::RoundCompleted>,
    /// Games another desk keeps (their clocks were seen lately, or that desk wrote first).
    pub left_to_their_desk: Vec<GameId>,
}

/// A row of the games table (or of a table about a game) that this build cannot read.
fn damaged(id: GameId, detail: impl std::fmt::Display) -> StoreError {
    StoreError::Damaged {
        table: "games",
        row: format!("game {id}"),
        detail: detail.to_string(),
    }
}

fn side_code(side: Side) -> &'static str {
    side.name()
}

fn ratings_of(w: Option<f64>, b: Option<f64>) -> Option<BySide<f64>> {
    match (w, b) {
        (Some(w), Some(b)) => Some(BySide::new(w, b)),
        _ => None,
    }
}

/// A games row as read, before its text columns are decoded.
struct GameRow {
    id: GameId,
    tournament_id: Option<TournamentId>,
    round: Option<u32>,
    table_no: Option<u32>,
    players: Option<BySide<u32>>,
    mode: String,
    first: String,
    ratings: Option<BySide<f64>>,
    rules: String,
    setup: BySide<Option<String>>,
    started_at: Option<i64>,
    clock_seen_t: Option<f64>,
    result: Option<String>,
    void: bool,
    void_reason: Option<String>,
    replaces: Option<GameId>,
    extra: String,
    origin: String,
    fed: bool,
    created_at: i64,
}

fn read_row(r: &super::db::Row) -> Result<GameRow> {
    let white_no: Option<u32> = r.get("white_no")?;
    let black_no: Option<u32> = r.get("black_no")?;
    Ok(GameRow {
        id: GameId(r.get("id")?),
        tournament_id: r.get("tournament_id")?,
        round: r.get("round")?,
        table_no: r.get("table_no")?,
        players: white_no.zip(black_no).map(|(w, b)| BySide::new(w, b)),
        mode: r.get("mode")?,
        first: r.get("first")?,
        ratings: ratings_of(r.get("white_rating")?, r.get("black_rating")?),
        rules: r.get("rules")?,
        setup: BySide::new(r.get("setup_white")?, r.get("setup_black")?),
        started_at: r.get("started_at")?,
        clock_seen_t: r.get("clock_seen_t")?,
        result: r.get("result")?,
        void: r.get::<bool>("void")?,
        void_reason: r.get("void_reason")?,
        replaces: r.get::<Option<i64>>("replaces")?.map(GameId),
        extra: r.get("extra")?,
        origin: r.get("origin")?,
        fed: r.get("fed")?,
        created_at: r.get("created_at")?,
    })
}

impl GameRow {
    /// The game's facts, every text column decoded; a value this build cannot read is an
    /// error naming the game, never a default (the game would be replayed under other
    /// rules).
    fn meta(&self) -> Result<GameMeta> {
        let id = self.id;
        let mode = GameMode::from_code(&self.mode)
            .ok_or_else(|| damaged(id, format!("unknown mode {:?}", self.mode)))?;
        let first: Side = self
            .first
            .parse()
            .map_err(|e| damaged(id, format!("first: {e}")))?;
        let rules_value: Value = serde_json::from_str(&self.rules)
            .map_err(|e| damaged(id, format!("its rules are not JSON: {e}")))?;
        let rules = RuleSettings::from_value(&rules_value, "rules").map_err(|e| damaged(id, e))?;
        let extra = match serde_json::from_str::<Value>(&self.extra) {
            Ok(Value::Object(m)) => m,
            _ => return Err(damaged(id, "extra is not a JSON object")),
        };
        Ok(GameMeta {
            id,
            tournament_id: self.tournament_id,
            round: self.round,
            table_no: self.table_no,
            players: self.players,
            mode,
            first,
            ratings: self.ratings,
            rules,
            started_at: self.started_at,
            clock_seen_t: self.clock_seen_t,
            result: self.result.clone(),
            void: self.void,
            void_reason: self.void_reason.clone(),
            replaces: self.replaces,
            extra,
            imported: self.origin == "import",
            fed: self.fed,
            created_at: self.created_at,
        })
    }

    /// Each side's setup as stored.
    fn setups(&self) -> Result<BySide<Option<SideSetup>>> {
        let mut out = BySide::default();
        for side in Side::BOTH {
            let Some(text) = &self.setup[side] else {
                continue;
            };
            let v: Value = serde_json::from_str(text)
                .map_err(|e| damaged(self.id, format!("{side} setup is not JSON: {e}")))?;
            out[side] = Some(parse_setup(&v, side).map_err(|e| damaged(self.id, e))?);
        }
        Ok(out)
    }
}

const GAME_COLUMNS: &str = "id, tournament_id, round, table_no, white_no, black_no, mode, first, \
     white_rating, black_rating, rules, setup_white, setup_black, started_at, clock_seen_t, \
     result, void, void_reason, replaces, extra, origin, created_at, token IS NOT NULL AS fed";

/// One row of `game_events`, decoded. Its `t` must be a time a record may carry.
fn decode_event(meta: &GameMeta, seq: u32, t: f64, kind: &str, payload: &str) -> Result<LogEntry> {
    let id = meta.id;
    if Time::from_secs_f64(t).is_none() {
        return Err(damaged(id, format!("event {seq}: t = {t} is out of range")));
    }
    let value: Value = serde_json::from_str(payload)
        .map_err(|e| damaged(id, format!("event {seq} is not JSON: {e}")))?;
    let kind = LogEntryKind::parse(meta.mode, kind, &value)
        .map_err(|e| damaged(id, format!("event {seq}: {e}")))?;
    Ok(LogEntry { seq, t, kind })
}

/// Loads a game to change it: its row stays locked until the transaction ends, so two desks
/// changing one game follow one another.
pub(crate) fn load_locked(tx: &mut Tx<'_>, id: GameId) -> Result<StoredGame> {
    tx.lock("games", "id = ?1", [id.0])?;
    load(tx, id)
}

/// Loads a game inside a transaction or on the connection.
fn load(conn: &mut Tx<'_>, id: GameId) -> Result<StoredGame> {
    let row = conn
        .query_row(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
            [id.0],
            |r| {
                use super::Context;
                read_row(r).at("games", format!("game {id}"))
            },
        )
        .optional()?
        .ok_or_else(|| StoreError::NotFound(format!("game {id}")))?;
    let meta = row.meta()?;
    super::stations::check_reads_game(conn, id, meta.table_no)?;
    let setup = row.setups()?;
    let mut stmt = conn.prepare_cached(
        "SELECT seq, t, kind, payload FROM game_events WHERE game_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt
        .query_map([id.0], |r| {
            Ok((
                r.get::<u32>(0)?,
                r.get::<f64>(1)?,
                r.get::<String>(2)?,
                r.get::<String>(3)?,
            ))
        })?
        .collect::<Result<Vec<_>>>()?;
    let events = rows
        .into_iter()
        .map(|(seq, t, kind, payload)| decode_event(&meta, seq, t, &kind, &payload))
        .collect::<Result<Vec<_>>>()?;
    let mut sheets = BySide::<Option<SheetRow>>::default();
    let mut stmt = conn.prepare_cached(
        "SELECT side, sheet, complete FROM adjudication_sheets WHERE game_id = ?1",
    )?;
    for row in stmt.query_map([id.0], |r| {
        Ok((r.get::<String>(0)?, r.get::<String>(1)?, r.get::<i64>(2)?))
    })? {
        let (side, sheet, complete) = row?;
        let complete: i64 = complete;
        let side: Side = side
            .parse()
            .map_err(|e| damaged(id, format!("reading sheet: {e}")))?;
        let sheet = serde_json::from_str(&sheet)
            .map_err(|e| damaged(id, format!("{side}'s reading sheet is not JSON: {e}")))?;
        sheets[side] = Some(SheetRow {
            sheet,
            complete: complete != 0,
        });
    }
    Ok(StoredGame {
        meta,
        setup,
        events,
        sheets,
    })
}

/// Writes the derived result into the game row and, for a tournament game that is not void,
/// into its board of the round: the result reaches the round in the same transaction as the
/// event that decided it, and the round's completion follows the one rule of every result
/// (`pairings::round_after_result`). Returns the round if it became complete (backed up by
/// the caller after the commit).
fn settle(tx: &mut Tx<'_>, game: &StoredGame, actor: &Actor) -> Result<Option<u32>> {
    let decision = game.logged().decision();
    let result = decision.code();
    if result == game.meta.result {
        return Ok(None);
    }
    tx.execute(
        "UPDATE games SET result = ?1 WHERE id = ?2",
        args![result, game.meta.id.0],
    )?;
    let m = &game.meta;
    if let (Some(tid), Some(round), Some(table), false) =
        (m.tournament_id, m.round, m.table_no, m.void)
    {
        let new = decision
            .board_result()
            .unwrap_or(ggdesk_core::tournament::GameResult::Pending)
            .name();
        // The board of this game: its table, and its players where they are known (a file
        // may give two boards the same table number).
        let (w, b) = m
            .players
            .map_or((None, None), |p| (Some(p.white), Some(p.black)));
        let changed = tx.execute(
            "UPDATE pairings SET result = ?1 WHERE tournament_id = ?2 AND round = ?3 AND table_no = ?4
                 AND (CAST(?5 AS BIGINT) IS NULL OR white = ?5) AND (CAST(?6 AS BIGINT) IS NULL OR black = ?6) AND result <> ?1",
            args![new, tid, round, table, w, b],
        )?;
        if changed > 0 {
            audit(
                tx,
                actor,
                "result from the arbiter desk",
                Some(tid),
                Some(m.id.0),
                "",
                &format!("round {round}, table {table}: {new}"),
            )?;
            if super::pairings::round_after_result(tx, tid, round, actor, "")? {
                return Ok(Some(round));
            }
        }
    }
    Ok(None)
}

impl Store {
    /// Creates a game (its setups still to be entered).
    pub fn create_game(&mut self, new: &NewGame, actor: &Actor) -> Result<GameId> {
        self.write(|tx| {
            if tx.is_station() {
                return super::stations::create_game(tx, new);
            }
            insert_game(tx, new, &Map::new(), actor)
        })
    }

    /// Creates a game with both setups entered and its clocks started at `started_at`, in
    /// one transaction, for a writer that may have to try again after a lost connection
    /// (`feed`): a second call with the same `token` answers the game the first created.
    pub fn create_started_game(
        &mut self,
        new: &NewGame,
        setups: &BySide<SideSetup>,
        started_at: i64,
        token: &str,
        actor: &Actor,
    ) -> Result<GameId> {
        Position::from_setups(setups).map_err(rejected)?;
        self.write(|tx| {
            let known: Option<i64> = tx.query_opt(
                "SELECT id FROM games WHERE token = ?1",
                args![token],
                |r| r.get(0),
            )?;
            if let Some(id) = known {
                return Ok(GameId(id));
            }
            let id = insert_game(tx, new, &Map::new(), actor)?;
            tx.execute(
                "UPDATE games SET setup_white = ?1, setup_black = ?2, started_at = ?3, token = ?4 WHERE id = ?5",
                args![
                    setup_value(&setups.white).to_string(),
                    setup_value(&setups.black).to_string(),
                    started_at,
                    token,
                    id.0
                ],
            )?;
            audit(
                tx,
                actor,
                "game started",
                new.tournament_id,
                Some(id.0),
                "",
                &format!("setups entered, {} moves first", new.first),
            )?;
            Ok(id)
        })
    }

    pub fn load_game(&self, id: GameId) -> Result<StoredGame> {
        self.read(|q| load(q, id))
    }

    /// Every game's facts, for one tournament round or (with `None`) all games.
    pub fn game_metas(&self, round: Option<(TournamentId, u32)>) -> Result<Vec<GameMeta>> {
        let (sql, params): (String, Vec<super::db::Value>) = match round {
            Some((t, r)) => (
                format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE tournament_id = ?1 AND round = ?2 ORDER BY table_no, id"
                ),
                args![t, r].to_vec(),
            ),
            None => (
                format!("SELECT {GAME_COLUMNS} FROM games ORDER BY id"),
                vec![],
            ),
        };
        let rows = self.read(|q| {
            q.query_map(&sql, &params[..], |r| {
                use super::Context;
                let id: i64 = r.get("id")?;
                read_row(r).at("games", format!("game {id}"))
            })
        })?;
        rows.iter().map(GameRow::meta).collect()
    }

    /// The games the arbiter desk's Tables page shows, with their timers, in one read: the
    /// live (not void) games of `round` and the live games of no round (practice tables,
    /// imported records still waiting for their readings), by id. The page reads them
    /// whenever anything was written, so it reads neither the whole event's games nor each
    /// table's timers on its own.
    pub fn desk_games(
        &self,
        round: Option<(TournamentId, u32)>,
    ) -> Result<Vec<(GameMeta, super::TableTimers)>> {
        let (tournament, number) = (round.map(|r| r.0), round.map(|r| r.1));
        let rows = self.read(|q| {
            q.query_map(
                &format!(
                    "SELECT {GAME_COLUMNS}, {timers} FROM games
                     WHERE void = 0
                       AND (round IS NULL AND (origin <> 'import' OR result = ?3)
                            OR tournament_id = ?1 AND round = ?2)
                     ORDER BY id",
                    timers = super::tables::TIMER_COLUMNS
                ),
                args![
                    tournament,
                    number,
                    ggdesk_core::record::Status::AdjudicationPending.code()
                ],
                |r| {
                    use super::Context;
                    let id: i64 = r.get("id")?;
                    let timers = super::TableTimers::read(r)?;
                    Ok((read_row(r).at("games", format!("game {id}"))?, timers))
                },
            )
        })?;
        rows.into_iter()
            .map(|(row, timers)| Ok((row.meta()?, timers)))
            .collect()
    }

    /// Games started and not yet decided (nor void): the ones to restore on start.
    pub fn games_in_progress(&self) -> Result<Vec<GameId>> {
        self.read(|q| {
            q.query_map(
                "SELECT id FROM games WHERE started_at IS NOT NULL AND void = 0 AND result IS NULL ORDER BY id",
                args![],
                |r| r.get::<i64>(0).map(GameId),
            )
        })
    }

    /// Stores one side's setup as entered so far. Allowed until the game starts.
    pub fn save_setup(
        &mut self,
        id: GameId,
        side: Side,
        setup: &SideSetup,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            let game = load_locked(tx, id)?;
            if game.meta.started_at.is_some() {
                return Err(rejected(format!(
                    "game {id} has started: its setups are fixed"
                )));
            }
            if tx.is_station() {
                return super::stations::save_setup(tx, id, side, &setup_value(setup).to_string());
            }
            let column = match side {
                Side::White => "setup_white",
                Side::Black => "setup_black",
            };
            tx.execute(
                &format!("UPDATE games SET {column} = ?1 WHERE id = ?2"),
                args![setup_value(setup).to_string(), id.0],
            )?;
            audit(
                tx,
                actor,
                "setup entered",
                game.meta.tournament_id,
                Some(id.0),
                "",
                &format!("{side}: {} pieces placed", setup.placements.len()),
            )
        })
    }

    /// Starts the clocks with `first` to move (drawn by lot, or chosen by the arbiter): both
    /// setups must be complete and legal. `started_at` is the Unix ms of t = 0.
    pub fn start_game(
        &mut self,
        id: GameId,
        started_at: i64,
        first: Side,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            let game = load_locked(tx, id)?;
            if game.meta.started_at.is_some() {
                return Err(rejected(format!("game {id} has already started")));
            }
            if game.meta.mode == GameMode::Arbitrated {
                let setups = game.setups().ok_or_else(|| {
                    rejected("both setups must be entered before the game starts")
                })?;
                Position::from_setups(&setups).map_err(rejected)?;
            }
            // Who moves first was drawn by lot at the desk (and is kept), or the arbiter
            // chose it: the audit log says which (at a station, its start function writes
            // the same words, after checking the lots itself: migration 7).
            let lots: Option<i64> = tx.query_row(
                "SELECT lots_drawn_at FROM games WHERE id = ?1",
                [id.0],
                |r| r.get(0),
            )?;
            let by_lot = lots.is_some() && game.meta.first == first;
            if tx.is_station() {
                return super::stations::start_game(tx, id, started_at, first, by_lot);
            }
            let how = if by_lot {
                "by lot"
            } else {
                "chosen by the arbiter"
            };
            tx.execute(
                "UPDATE games SET started_at = ?1, first = ?2 WHERE id = ?3",
                args![started_at, side_code(first), id.0],
            )?;
            audit(
                tx,
                actor,
                "game started",
                game.meta.tournament_id,
                Some(id.0),
                "",
                &format!("{first} moves first ({how})"),
            )
        })
    }

    /// Appends one arbiter event after checking it against the game replayed so far. An
    /// event the rules refuse is not written ([`StoreError::Rejected`] with the reason).
    pub fn append_event(
        &mut self,
        id: GameId,
        event: TimedEvent,
        actor: &Actor,
        reason: &str,
    ) -> Result<AppendOutcome> {
        self.append(id, event.t, AnyEvent::Game(event.event), actor, reason)
    }

    /// Appends one event of a physical-board game.
    pub fn append_physical_event(
        &mut self,
        id: GameId,
        t: f64,
        event: PhysicalEvent,
        actor: &Actor,
        reason: &str,
    ) -> Result<AppendOutcome> {
        self.append(id, t, AnyEvent::Physical(event), actor, reason)
    }

    /// Appends an event of either kind (it must be the kind of the game).
    pub fn append(
        &mut self,
        id: GameId,
        t: f64,
        event: AnyEvent,
        actor: &Actor,
        reason: &str,
    ) -> Result<AppendOutcome> {
        self.append_expecting(id, None, t, event, actor, reason)
    }

    /// Appends an event where the writer expects it: at `expect.seq` (the game as the writer
    /// last saw it). When another desk added an event first, nothing is written and the
    /// answer is [`StoreError::Conflict`]: the writer reloads and shows the game as it is.
    /// When the writer's own earlier attempt with the same `expect.token` was committed (its
    /// confirmation lost with the connection), that event is the answer: never stored twice.
    pub fn append_expecting(
        &mut self,
        id: GameId,
        expect: Option<Expect<'_>>,
        t: f64,
        event: AnyEvent,
        actor: &Actor,
        reason: &str,
    ) -> Result<AppendOutcome> {
        self.write(|tx| append_in(tx, id, expect, t, event, actor, reason))
            .map(|(mut outcome, completed)| {
                outcome.round_completed =
                    completed.map(|(round, tid)| self.completion_backup(tid, round));
                outcome
            })
    }

    /// Appends several events to one game, each where the writer expects it (as
    /// [`Store::append_expecting`]), in one transaction: all of them are stored, or none.
    /// Returns the round they completed, if any, with its backup.
    fn append_all_expecting(
        &mut self,
        id: GameId,
        events: &[(Expect<'_>, f64, AnyEvent)],
        actor: &Actor,
        reason: &str,
    ) -> Result<Option<super::RoundCompleted>> {
        let completed = self.write(|tx| {
            let mut completed = None;
            for &(expect, t, event) in events {
                let (_, done) = append_in(tx, id, Some(expect), t, event, actor, reason)?;
                completed = completed.or(done);
            }
            Ok(completed)
        })?;
        Ok(completed.map(|(round, tid)| self.completion_backup(tid, round)))
    }

    /// Cancels the last event still in force, with a reason (an arbiter's correction). The
    /// cancelled event stays in the database; the undo is a new event.
    pub fn undo_last_event(
        &mut self,
        id: GameId,
        t: f64,
        actor: &Actor,
        reason: &str,
    ) -> Result<u32> {
        if reason.trim().is_empty() {
            return Err(rejected("an undo needs a reason"));
        }
        self.write(|tx| {
            let mut game = load_locked(tx, id)?;
            let (target, undone_t, undone) = game
                .effective()
                .last()
                .copied()
                .ok_or_else(|| rejected("there is no event to undo"))?;
            let seq = game.logged().next_seq();
            let undo = LogEntryKind::Undo { seq: target };
            if tx.is_station() {
                game.events.push(LogEntry { seq, t, kind: undo });
                let payload = undo.value(t).to_string();
                let entry = super::stations::Entry {
                    seq,
                    t: t.max(0.0),
                    kind: undo.code(),
                    payload: &payload,
                    token: None,
                    reason,
                };
                super::stations::append(tx, id, &entry, &game.logged().decision())?;
                return Ok(target);
            }
            insert_event(tx, id, seq, t.max(0.0), undo.code(), &undo.value(t), None)?;
            game.events.push(LogEntry { seq, t, kind: undo });
            audit(
                tx,
                actor,
                "undo",
                game.meta.tournament_id,
                Some(id.0),
                reason,
                &format!("cancelled event {target}: {}", undone.value(undone_t)),
            )?;
            // An undo only takes an event away: it can reopen a round, never complete one.
            settle(tx, &game, actor)?;
            Ok(target)
        })
    }

    /// Corrects the last move in force: it is cancelled by an undo and `replacement` is
    /// entered at the time the cancelled move was made, so the clocks count from the moment
    /// it was really made (pauses and resumes entered after it are kept at their times; the
    /// core's `LoggedGame::correction`). `corrected_at` is the game time now, the undo's.
    /// One transaction: the undo, the move and one audit row naming both, or nothing. With
    /// `expect`, as [`Store::append_expecting`]: refused when another desk wrote first, and
    /// answered as done when this attempt (its token) was committed already.
    #[allow(clippy::too_many_arguments)]
    pub fn correct_last_move(
        &mut self,
        id: GameId,
        expect: Option<Expect<'_>>,
        corrected_at: f64,
        replacement: AnyEvent,
        actor: &Actor,
        reason: &str,
    ) -> Result<AppendOutcome> {
        if reason.trim().is_empty() {
            return Err(rejected("a correction needs a reason"));
        }
        let written = self.write(|tx| {
            let mut game = load_locked(tx, id)?;
            if let Some(expect) = expect {
                let done: Option<u32> = tx.query_opt(
                    "SELECT seq FROM game_events WHERE game_id = ?1 AND token = ?2",
                    args![id.0, expect.token],
                    |r| r.get(0),
                )?;
                if let Some(seq) = done {
                    // Committed before (its confirmation lost): the game as it now is.
                    let derived = game.derive().and_then(|g| g.ok());
                    let state = derived.map_or(GameState::Playing, |g| g.state());
                    let applied = Applied {
                        challenge: None,
                        ended: state != GameState::Playing,
                    };
                    return Ok((
                        AppendOutcome {
                            seq,
                            applied,
                            state,
                            round_completed: None,
                        },
                        None,
                    ));
                }
                let next = game.logged().next_seq();
                if expect.seq != next {
                    return Err(StoreError::Conflict(format!(
                        "game {id} changed at another desk: nothing was corrected; the game is \
                         shown as it now is"
                    )));
                }
            }
            if game.meta.void {
                return Err(rejected(format!("game {id} is void")));
            }
            if game.meta.started_at.is_none() {
                return Err(rejected(format!("game {id} has not started")));
            }
            let correction = game
                .logged()
                .correction(replacement, corrected_at.max(0.0))
                .map_err(rejected)?;
            let (_, t, _) = correction.cancelled;
            // What the move does, checked on the game as it stood before the cancelled one.
            let mut before = game.clone();
            let first_new = correction.entries.first().map_or(0, |e| e.seq);
            before.events.extend(
                correction
                    .entries
                    .iter()
                    .take_while(|e| matches!(e.kind, LogEntryKind::Undo { .. })),
            );
            let (applied, _) = apply_checked(&before, t, &replacement)?;
            if tx.is_station() {
                // A station writes the whole correction through its correction function
                // (migration 7): the database checks its table, the round in play, the game
                // in play, each entry as any event and that the entries are a correction of
                // the last move, and writes the one "move corrected" line with the station
                // as its actor, in the director's desk's words. The token goes with the
                // first entry, as the director's path stores it.
                let mut seq = first_new;
                for entry in &correction.entries {
                    game.events.push(*entry);
                    if entry.kind.event() == Some(replacement) && entry.t == t {
                        seq = entry.seq;
                    }
                }
                let completed = super::stations::correct(
                    tx,
                    id,
                    &correction,
                    expect.map(|e| e.token),
                    reason,
                    &game.logged().decision(),
                )?;
                let state = game
                    .derive()
                    .and_then(|g| g.ok())
                    .map_or(GameState::Playing, |g| g.state());
                return Ok((
                    AppendOutcome {
                        seq,
                        applied,
                        state,
                        round_completed: None,
                    },
                    completed
                        .then_some(game.meta.round)
                        .flatten()
                        .zip(game.meta.tournament_id),
                ));
            }
            let mut seq = first_new;
            for entry in &correction.entries {
                let token = (entry.seq == first_new)
                    .then(|| expect.map(|e| e.token))
                    .flatten();
                insert_event(
                    tx,
                    id,
                    entry.seq,
                    entry.t,
                    entry.kind.code(),
                    &entry.kind.value(entry.t),
                    token,
                )?;
                if entry.kind.event() == Some(replacement) && entry.t == t {
                    seq = entry.seq;
                }
                game.events.push(*entry);
            }
            audit(
                tx,
                actor,
                "move corrected",
                game.meta.tournament_id,
                Some(id.0),
                reason,
                &correction.value().to_string(),
            )?;
            let completed = settle(tx, &game, actor)?;
            let state = game
                .derive()
                .and_then(|g| g.ok())
                .map_or(GameState::Playing, |g| g.state());
            Ok((
                AppendOutcome {
                    seq,
                    applied,
                    state,
                    round_completed: None,
                },
                completed.zip(game.meta.tournament_id),
            ))
        })?;
        let (mut outcome, completed) = written;
        outcome.round_completed = completed.map(|(round, tid)| self.completion_backup(tid, round));
        Ok(outcome)
    }

    /// Stores (or replaces) one side's reading sheet for the adjudication, as entered so far
    /// or handed in (`complete`). The sheet is checked against the position the game stopped
    /// in; the result is decided once both sheets are handed in.
    pub fn save_reading_sheet(
        &mut self,
        id: GameId,
        side: Side,
        sheet: &Value,
        complete: bool,
        actor: &Actor,
    ) -> Result<Option<super::RoundCompleted>> {
        let completed = self.write(|tx| {
            let mut game = load_locked(tx, id)?;
            let not_waiting = || rejected(format!("game {id} is not waiting for an adjudication"));
            let derived = game.derive().and_then(|g| g.ok()).ok_or_else(not_waiting)?;
            derived.check_sheet(side, sheet).map_err(|e| match e {
                SheetEntryError::NotWaiting => not_waiting(),
                other => rejected(other),
            })?;
            if tx.is_station() {
                game.sheets[side] = Some(SheetRow {
                    sheet: sheet.clone(),
                    complete,
                });
                let decision = game.logged().decision();
                let completed = super::stations::save_sheet(
                    tx,
                    id,
                    side,
                    &sheet.to_string(),
                    complete,
                    &decision,
                )?;
                return Ok(completed
                    .then_some(game.meta.round)
                    .flatten()
                    .zip(game.meta.tournament_id));
            }
            tx.execute(
                "INSERT INTO adjudication_sheets (game_id, side, sheet, complete, entered_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (game_id, side) DO UPDATE SET sheet = excluded.sheet,
                     complete = excluded.complete, entered_at = excluded.entered_at",
                args![id.0, side_code(side), sheet.to_string(), complete, tx.now()],
            )?;
            game.sheets[side] = Some(SheetRow {
                sheet: sheet.clone(),
                complete,
            });
            if complete {
                audit(
                    tx,
                    actor,
                    "reading sheet handed in",
                    game.meta.tournament_id,
                    Some(id.0),
                    "",
                    &format!("{side}: {sheet}"),
                )?;
            }
            Ok(settle(tx, &game, actor)?.zip(game.meta.tournament_id))
        })?;
        Ok(completed.map(|(round, tid)| self.completion_backup(tid, round)))
    }

    /// Remembers, for the running games given, the last t at which the desk saw their
    /// clocks (one transaction for all), so a restart brings the clocks back to it.
    pub fn record_clocks_seen(&mut self, seen: &[(GameId, f64)]) -> Result<()> {
        if seen.is_empty() {
            return Ok(());
        }
        self.write(|tx| {
            if tx.is_station() {
                for (id, t) in seen {
                    super::stations::clock_seen(tx, *id, *t)?;
                }
                return Ok(());
            }
            let mut stmt = tx.prepare_cached("UPDATE games SET clock_seen_t = ?1 WHERE id = ?2")?;
            for (id, t) in seen {
                stmt.execute(args![t, id.0])?;
            }
            Ok(())
        })
    }

    /// Restores the games in progress after a start: a game whose clocks were running when
    /// the desk stopped gets a pause at the last moment the desk saw its clocks and a resume
    /// now, so its clocks continue exactly from where they were and the time the desk was
    /// down is charged to nobody. A clock that had run out by then ends the game there. A
    /// game whose clocks had stopped (paused, or waiting for the thirty-move counts or for
    /// the adjudication) comes back as it was: nothing is written for it. Only the games
    /// this desk runs are restored (`stations::Keeper`): never a game `feed` plays.
    ///
    /// One game's problem never stops the others: each game that could not be restored is
    /// reported with its error, after every other game was restored.
    pub fn restore_games_in_progress(&mut self, now_ms: i64) -> Result<Restored> {
        let ids = self.games_in_progress()?;
        self.restore_games_as(
            &ids,
            now_ms,
            None,
            "the desk restarted: clocks stopped while it was down",
            &Actor::restore_after_restart(),
        )
    }

    /// The restore of a desk starting on an event server, where other desks may be running
    /// their games: of the games this desk runs, only those with no event written for
    /// `quiet_ms` (their desk is gone too) are restored; the others are left to the desk that
    /// keeps them.
    pub fn restore_unattended_games(&mut self, now_ms: i64, quiet_ms: i64) -> Result<Restored> {
        let ids = self.games_in_progress()?;
        self.restore_games_as(
            &ids,
            now_ms,
            Some(quiet_ms),
            "no desk kept the clocks: they stopped when the last desk saw them",
            &Actor::restore_after_restart(),
        )
    }

    /// Restores the given games (a desk whose connection to the server came back restores
    /// its own tables: the time it could not reach the server is charged to nobody), of
    /// those the games this desk runs (`stations::Keeper`: a station's desk its tables, the
    /// director's desk the tables no station runs and the games at no table, never a game
    /// `feed` plays); the others are left to their desk. With `quiet_ms`, a game whose last
    /// event was written less than that long ago is left alone too (its desk is there).
    pub fn restore_games(
        &mut self,
        ids: &[GameId],
        now_ms: i64,
        quiet_ms: Option<i64>,
        why: &str,
    ) -> Result<Restored> {
        let actor = Actor::restore_after_reconnection();
        self.restore_games_as(ids, now_ms, quiet_ms, why, &actor)
    }

    /// Restores the given games, with `actor` (which restore this is) in the audit log.
    fn restore_games_as(
        &mut self,
        ids: &[GameId],
        now_ms: i64,
        quiet_ms: Option<i64>,
        why: &str,
        actor: &Actor,
    ) -> Result<Restored> {
        let mut report = Restored::default();
        let keeper = self.keeper()?;
        for &id in ids {
            let runs = self
                .read(|q| {
                    q.query_row(
                        "SELECT table_no, token IS NOT NULL AS fed FROM games WHERE id = ?1",
                        [id.0],
                        |r| Ok((r.get::<Option<u32>>(0)?, r.get::<bool>(1)?)),
                    )
                    .optional()
                })
                .map(|row| row.is_some_and(|(table, fed)| keeper.runs_table(table, fed)));
            match runs {
                Ok(true) => {}
                Ok(false) => {
                    report.left_to_their_desk.push(id);
                    continue;
                }
                Err(e) => {
                    report.failed.push((id, e));
                    continue;
                }
            }
            match self.restore_game(id, now_ms, quiet_ms, why, actor, &mut report.completed) {
                Ok(true) => report.restored.push(id),
                Ok(false) => report.left_to_their_desk.push(id),
                Err(e) => report.failed.push((id, e)),
            }
        }
        Ok(report)
    }

    /// Restores one game in progress (see [`Store::restore_games_in_progress`]); false when
    /// another desk keeps it. A round it completes goes into `completed`.
    fn restore_game(
        &mut self,
        id: GameId,
        now_ms: i64,
        quiet_ms: Option<i64>,
        why: &str,
        actor: &Actor,
        completed: &mut Vec<super::RoundCompleted>,
    ) -> Result<bool> {
        let game = self.load_game(id)?;
        let derived = match game.derive() {
            None => return Ok(true), // setups still being entered: no clocks yet
            Some(derived) => derived.map_err(|e| damaged(id, e))?,
        };
        // Idle: no event written for `quiet` ms (the game's own last event, when it was
        // stored; its start before any), whoever wrote it and whatever its `t` says.
        if let (Some(quiet), Some(started)) = (quiet_ms, game.meta.started_at) {
            let last: Option<i64> = self.read(|q| {
                q.query_one(
                    "SELECT max(wall_time) FROM game_events WHERE game_id = ?1",
                    [id.0],
                    |r| r.get(0),
                )
            })?;
            if now_ms.saturating_sub(last.unwrap_or(started).max(started)) < quiet {
                return Ok(false);
            }
        }
        let mode = game.meta.mode;
        let next = game.logged().next_seq();
        let events = match derived.restart(game.meta.clock_seen_t, game.t_at(now_ms)) {
            Restart::Nothing => return Ok(true),
            Restart::End { at } => vec![(next, at, AnyEvent::end(mode))],
            // One transaction: a pause stored without its resume (the connection lost between
            // the two) would leave the game paused for good, as the next restore finds its
            // clocks stopped.
            Restart::PauseAndResume {
                pause_at,
                resume_at,
            } => vec![
                (next, pause_at, AnyEvent::pause(mode)),
                (next + 1, resume_at, AnyEvent::resume(mode)),
            ],
        };
        let tokens: Vec<String> = events
            .iter()
            .map(|(seq, _, _)| format!("restore-{id}-{seq}-{now_ms}"))
            .collect();
        // Written where this desk saw the game: if another desk wrote first, it keeps it.
        let expected: Vec<(Expect<'_>, f64, AnyEvent)> = events
            .iter()
            .zip(&tokens)
            .map(|(&(seq, t, event), token)| (Expect { seq, token }, t, event))
            .collect();
        match self.append_all_expecting(id, &expected, actor, why) {
            Ok(done) => {
                completed.extend(done);
                Ok(true)
            }
            Err(StoreError::Conflict(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The arbiter confirms the result the rules reached (audit log).
    pub fn confirm_result(&mut self, id: GameId, actor: &Actor) -> Result<()> {
        self.write(|tx| {
            let game = load_locked(tx, id)?;
            let result = game
                .meta
                .result
                .clone()
                .filter(|r| r != Status::AdjudicationPending.code())
                .ok_or_else(|| rejected(format!("game {id} has no result to confirm")))?;
            if tx.is_station() {
                return super::stations::confirm(tx, id);
            }
            audit(
                tx,
                actor,
                "result confirmed",
                game.meta.tournament_id,
                Some(id.0),
                "",
                &result,
            )
        })
    }

    /// Whether the arbiter has confirmed the game's result.
    pub fn result_confirmed(&self, id: GameId) -> Result<bool> {
        let n: i64 = self.read(|q| {
            q.query_row(
                "SELECT count(*) FROM audit_log WHERE game_id = ?1 AND action = 'result confirmed'",
                [id.0],
                |r| r.get(0),
            )
        })?;
        Ok(n > 0)
    }

    /// Marks a game void (an arbiter's mistake, or exposure by nature, confirmed by the
    /// director) and creates the game that replays it: same pairing, setups to be entered
    /// again. The void game's record is kept.
    pub fn void_and_replay(&mut self, id: GameId, reason: &str, actor: &Actor) -> Result<GameId> {
        if reason.trim().is_empty() {
            return Err(rejected("voiding a game needs a reason"));
        }
        self.write(|tx| {
            let game = load_locked(tx, id)?;
            if game.meta.void {
                return Err(rejected(format!("game {id} is already void")));
            }
            tx.execute(
                "UPDATE games SET void = 1, void_reason = ?1 WHERE id = ?2",
                args![reason, id.0],
            )?;
            let m = &game.meta;
            let new = NewGame {
                tournament_id: m.tournament_id,
                round: m.round,
                table_no: m.table_no,
                players: m.players,
                mode: m.mode,
                first: m.first,
                ratings: m.ratings,
                rules: m.rules,
                replaces: Some(id),
            };
            let replay = insert_game(tx, &new, &Map::new(), actor)?;
            if let (Some(tid), Some(round), Some(table)) = (m.tournament_id, m.round, m.table_no) {
                let (w, b) = m.players.map_or((None, None), |p| (Some(p.white), Some(p.black)));
                tx.execute(
                    "UPDATE pairings SET result = 'pending' WHERE tournament_id = ?1 AND round = ?2 AND table_no = ?3
                         AND (CAST(?4 AS BIGINT) IS NULL OR white = ?4) AND (CAST(?5 AS BIGINT) IS NULL OR black = ?5)",
                    args![tid, round, table, w, b],
                )?;
                // The board is pending again: a complete round reopens.
                super::pairings::round_after_result(tx, tid, round, actor, reason)?;
            }
            audit(
                tx,
                actor,
                "game void, replayed",
                m.tournament_id,
                Some(id.0),
                reason,
                &format!("replayed as game {replay}"),
            )?;
            Ok(replay)
        })
    }

    /// Imports a game record in one transaction: all of it or nothing. The record must be
    /// well formed (it is replayed first). An imported game is an archive, not a live table:
    /// it has no start time, so it is never restored as a game in progress.
    pub fn import_record(&mut self, record: &Record, actor: &Actor) -> Result<GameId> {
        ggdesk_core::record::replay(record).map_err(rejected)?;
        self.write(|tx| {
            let new = NewGame {
                first: record.first,
                ratings: record.ratings,
                rules: record.rules,
                ..NewGame::standalone()
            };
            let mut extra = record.extra.clone();
            // The readings as written are kept whole (an empty object still means "both
            // abstain"); each side's sheet also goes where the desk enters sheets.
            if let Some(readings) = &record.readings {
                extra.insert("readings".into(), readings.clone());
            }
            let sheets = match &record.readings {
                Some(Value::Object(obj)) => BySide::from_fn(|s| obj.get(s.name()).filter(|v| !v.is_null()).cloned()),
                _ => BySide::default(),
            };
            let id = insert_game(tx, &new, &extra, actor)?;
            tx.execute(
                "UPDATE games SET setup_white = ?1, setup_black = ?2, origin = 'import' WHERE id = ?3",
                args![
                    setup_value(&record.setup.white).to_string(),
                    setup_value(&record.setup.black).to_string(),
                    id.0
                ],
            )?;
            for (seq, e) in record.events.iter().enumerate() {
                let event = AnyEvent::Game(e.event);
                insert_event(tx, id, seq as u32, e.t, event.code(), &event.value(e.t), None)?;
            }
            for side in Side::BOTH {
                if let Some(sheet) = &sheets[side] {
                    tx.execute(
                        "INSERT INTO adjudication_sheets (game_id, side, sheet, complete, entered_at) VALUES (?1, ?2, ?3, 1, ?4)",
                        args![id.0, side_code(side), sheet.to_string(), tx.now()],
                    )?;
                }
            }
            let game = load_locked(tx, id)?;
            settle(tx, &game, actor)?;
            audit(tx, actor, "game imported", None, Some(id.0), "", &format!("{} events", record.events.len()))?;
            Ok(id)
        })
    }

    /// Imports a physical-board game record in one transaction.
    pub fn import_physical(&mut self, record: &PhysicalRecord, actor: &Actor) -> Result<GameId> {
        record.judge().map_err(rejected)?;
        self.write(|tx| {
            let new = NewGame {
                mode: GameMode::Physical,
                first: record.first,
                ratings: record.ratings,
                rules: record.rules,
                ..NewGame::standalone()
            };
            let id = insert_game(tx, &new, &record.extra, actor)?;
            tx.execute("UPDATE games SET origin = 'import' WHERE id = ?1", [id.0])?;
            for (seq, (t, e)) in record.events.iter().enumerate() {
                let event = AnyEvent::Physical(*e);
                insert_event(tx, id, seq as u32, *t, event.code(), &event.value(*t), None)?;
            }
            if let Some(readings) = &record.readings {
                for side in Side::BOTH {
                    tx.execute(
                        "INSERT INTO adjudication_sheets (game_id, side, sheet, complete, entered_at) VALUES (?1, ?2, ?3, 1, ?4)",
                        args![id.0, side_code(side), physical_record::sheet_value(&readings[side]).to_string(), tx.now()],
                    )?;
                }
            }
            let game = load_locked(tx, id)?;
            settle(tx, &game, actor)?;
            audit(tx, actor, "game imported", None, Some(id.0), "", &format!("{} events, physical board", record.events.len()))?;
            Ok(id)
        })
    }

    /// The game's record for export (a game the desk arbitrated).
    pub fn export_record(&self, id: GameId) -> Result<Record> {
        self.load_game(id)?.record().ok_or_else(|| {
            rejected(format!(
                "game {id} has no record yet: its setups are not both entered"
            ))
        })
    }

    /// The game's export file, whichever kind of game it is.
    pub fn export_game(&self, id: GameId) -> Result<Value> {
        self.load_game(id)?.export_value().ok_or_else(|| {
            rejected(format!(
                "game {id} has no record yet: its setups are not both entered"
            ))
        })
    }
}

/// Checks `event` against the game replayed so far, returning what it does.
fn apply_checked(game: &StoredGame, t: f64, event: &AnyEvent) -> Result<(Applied, GameState)> {
    if game.meta.void {
        return Err(rejected(format!("game {} is void", game.meta.id)));
    }
    if game.meta.started_at.is_none() {
        return Err(rejected(format!("game {} has not started", game.meta.id)));
    }
    game.logged().check_event(t, event).map_err(rejected)
}

/// Appends one event inside the caller's transaction (see [`Store::append_expecting`]): what
/// it did, and the round it completed with its tournament (backed up by the caller after the
/// commit).
fn append_in(
    tx: &mut Tx<'_>,
    id: GameId,
    expect: Option<Expect<'_>>,
    t: f64,
    event: AnyEvent,
    actor: &Actor,
    reason: &str,
) -> Result<(AppendOutcome, Option<(u32, TournamentId)>)> {
    let mut game = load_locked(tx, id)?;
    if let Some(expect) = expect {
        let stored: Option<(i64, u32)> = tx.query_opt(
            "SELECT game_id, seq FROM game_events WHERE token = ?1",
            args![expect.token],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if let Some((game_id, seq)) = stored {
            if game_id != id.0 {
                return Err(rejected(format!(
                    "token {} belongs to an event of game {game_id}",
                    expect.token
                )));
            }
            // Our own event, committed before: answer as the first time.
            let mut before = game.clone();
            before.events.retain(|e| e.seq < seq);
            let (applied, state) = apply_checked(&before, t, &event)?;
            return Ok((
                AppendOutcome {
                    seq,
                    applied,
                    state,
                    round_completed: None,
                },
                None,
            ));
        }
        let next = game.logged().next_seq();
        if expect.seq != next {
            let added = next.saturating_sub(expect.seq);
            return Err(StoreError::Conflict(format!(
                "game {id} changed at another desk ({added} event{} added since): \
                 nothing was saved; the game is shown as it now is",
                if added == 1 { "" } else { "s" }
            )));
        }
    }
    let outcome = apply_checked(&game, t, &event)?;
    let seq = game.logged().next_seq();
    let payload = event.value(t);
    if tx.is_station() {
        game.events.push(LogEntry {
            seq,
            t,
            kind: event.into(),
        });
        let text = payload.to_string();
        let entry = super::stations::Entry {
            seq,
            t,
            kind: event.code(),
            payload: &text,
            token: expect.map(|e| e.token),
            reason,
        };
        let completed = super::stations::append(tx, id, &entry, &game.logged().decision())?;
        return Ok((
            AppendOutcome {
                seq,
                applied: outcome.0,
                state: outcome.1,
                round_completed: None,
            },
            completed
                .then_some(game.meta.round)
                .flatten()
                .zip(game.meta.tournament_id),
        ));
    }
    // A move limit passed since the last event is said in the log, before the event that
    // records it (the clocks count it; nobody entered it).
    if let Some(overstep) = game.logged().overstep_before(t) {
        let details = overstep.value().to_string();
        audit(
            tx,
            actor,
            "overstep",
            game.meta.tournament_id,
            Some(id.0),
            "",
            &details,
        )?;
    }
    insert_event(
        tx,
        id,
        seq,
        t,
        event.code(),
        &payload,
        expect.map(|e| e.token),
    )?;
    game.events.push(LogEntry {
        seq,
        t,
        kind: event.into(),
    });
    audit(
        tx,
        actor,
        event.code(),
        game.meta.tournament_id,
        Some(id.0),
        reason,
        &payload.to_string(),
    )?;
    let completed = settle(tx, &game, actor)?;
    Ok((
        AppendOutcome {
            seq,
            applied: outcome.0,
            state: outcome.1,
            round_completed: None,
        },
        completed.zip(game.meta.tournament_id),
    ))
}

fn insert_event(
    tx: &mut Tx<'_>,
    id: GameId,
    seq: u32,
    t: f64,
    kind: &str,
    payload: &Value,
    token: Option<&str>,
) -> Result<()> {
    let now = tx.now();
    tx.execute(
        "INSERT INTO game_events (game_id, seq, t, kind, payload, wall_time, token) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        args![id.0, seq, t, kind, payload.to_string(), now, token],
    )?;
    Ok(())
}

fn insert_game(
    tx: &mut Tx<'_>,
    new: &NewGame,
    extra: &Map<String, Value>,
    actor: &Actor,
) -> Result<GameId> {
    let (w, b) = match new.players {
        Some(p) => (Some(p.white), Some(p.black)),
        None => (None, None),
    };
    let (wr, br) = match new.ratings {
        Some(r) => (Some(r.white), Some(r.black)),
        None => (None, None),
    };
    let now = tx.now();
    let id: i64 = tx.query_one(
        "INSERT INTO games (tournament_id, round, table_no, white_no, black_no, mode, first,
             white_rating, black_rating, rules, replaces, extra, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) RETURNING id",
        args![
            new.tournament_id,
            new.round,
            new.table_no,
            w,
            b,
            new.mode.code(),
            side_code(new.first),
            wr,
            br,
            new.rules.to_value().to_string(),
            new.replaces.map(|g| g.0),
            Value::Object(extra.clone()).to_string(),
            now
        ],
        |r| r.get(0),
    )?;
    let id = GameId(id);
    audit(
        tx,
        actor,
        "game created",
        new.tournament_id,
        Some(id.0),
        "",
        &match (new.round, new.table_no) {
            (Some(r), Some(t)) => format!("round {r}, table {t}, {}", new.mode.code()),
            _ => new.mode.code().to_string(),
        },
    )?;
    Ok(id)
}
