//! A game's rows: what a new game needs, its stored facts, its events and reading sheets as
//! read (`StoredGame`, whose every derivation is the core's), and the statements that read
//! and insert them.

use super::audit::{Actor, audit};
use super::db::{Optional, Tx, args};
use super::error::{Result, StoreError};
use ggdesk_core::clock::Time;
use ggdesk_core::event::BoardView;
use ggdesk_core::game::{
    AnyEvent, AnyGame, Decision, GameMode, LogEntry, LogEntryKind, LoggedGame, SheetRow,
};
use ggdesk_core::physical_record::PhysicalRecord;
use ggdesk_core::record::{Record, RecordError, Status, TimedEvent, Verdict, parse_setup};
use ggdesk_core::rules::{
    Applied, BySide, Game, GameState, Outcome, RuleSettings, Side, SideSetup,
};
use ggdesk_core::tournament::TournamentId;
use ggdesk_core::tournament::{PlayerId, RoundNo, TableNo};
use serde_json::{Map, Value};

/// A game's row id (the core's typed key).
pub use ggdesk_core::tournament::GameId;

/// What a new game needs.
#[derive(Debug, Clone, PartialEq)]
pub struct NewGame {
    pub tournament_id: Option<TournamentId>,
    pub round: Option<RoundNo>,
    pub table_no: Option<TableNo>,
    /// The tournament player numbers of White and Black.
    pub players: Option<BySide<PlayerId>>,
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
        round: RoundNo,
        board: &BoardView,
        mode: GameMode,
        rules: RuleSettings,
    ) -> NewGame {
        NewGame {
            tournament_id: Some(tournament_id),
            round: Some(round),
            table_no: Some(board.table),
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
    pub round: Option<RoundNo>,
    pub table_no: Option<TableNo>,
    pub players: Option<BySide<PlayerId>>,
    pub mode: GameMode,
    pub first: Side,
    pub ratings: Option<BySide<f64>>,
    pub rules: RuleSettings,
    /// Unix ms at which the game clock's t = 0; `None` while the setups are entered.
    pub started_at: Option<i64>,
    /// The last t at which the desk saw the clocks (restores them after a crash).
    pub clock_seen_t: Option<f64>,
    /// What its events have decided, as last kept.
    pub result: Decision,
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
    pub round_completed: Option<super::events::RoundCompleted>,
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
    pub completed: Vec<super::events::RoundCompleted>,
    /// Games another desk keeps (their clocks were seen lately, or that desk wrote first).
    pub left_to_their_desk: Vec<GameId>,
}

/// A row of the games table (or of a table about a game) that this build cannot read.
pub(crate) fn damaged(id: GameId, detail: impl std::fmt::Display) -> StoreError {
    StoreError::Damaged {
        table: "games",
        row: format!("game {id}"),
        detail: detail.to_string(),
    }
}

pub(crate) fn side_code(side: Side) -> &'static str {
    side.name()
}

fn ratings_of(w: Option<f64>, b: Option<f64>) -> Option<BySide<f64>> {
    match (w, b) {
        (Some(w), Some(b)) => Some(BySide::new(w, b)),
        _ => None,
    }
}

/// A games row as read, before its text columns are decoded.
pub(crate) struct GameRow {
    id: GameId,
    tournament_id: Option<TournamentId>,
    round: Option<RoundNo>,
    table_no: Option<TableNo>,
    players: Option<BySide<PlayerId>>,
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

pub(crate) fn read_row(r: &super::db::Row) -> Result<GameRow> {
    let white_no: Option<PlayerId> = r.get("white_no")?;
    let black_no: Option<PlayerId> = r.get("black_no")?;
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
    pub(crate) fn meta(&self) -> Result<GameMeta> {
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
            result: Decision::from_code(self.result.as_deref()).map_err(|e| damaged(id, e))?,
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

pub(crate) const GAME_COLUMNS: &str = "id, tournament_id, round, table_no, white_no, black_no, mode, first, \
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
pub(crate) fn load(conn: &mut Tx<'_>, id: GameId) -> Result<StoredGame> {
    let row = conn
        .query_row(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
            [id.0],
            |r| {
                use super::error::Context;
                read_row(r).at("games", format!("game {id}"))
            },
        )
        .optional()?
        .ok_or_else(|| StoreError::NotFound(format!("game {id}")))?;
    let meta = row.meta()?;
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

pub(crate) fn insert_event(
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

pub(crate) fn insert_game(
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
