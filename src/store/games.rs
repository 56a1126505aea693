//! Games and their events. A game's board, clocks and result are never stored as such:
//! they are derived by replaying its events through the rules engine. Events are only ever
//! inserted; an arbiter's correction is an `undo` event naming the event it cancels.

use super::{Actor, Result, Store, StoreError, audit, now_ms};
use ggdesk_core::clock::Clock;
use ggdesk_core::clock::Time;
use ggdesk_core::physical_record::{self, PhysicalRecord};
use ggdesk_core::record::{
    self, Record, RecordError, TimedEvent, Verdict, event_value, parse_event, parse_rules,
    parse_setup, rules_value, setup_value,
};
use ggdesk_core::rules::{
    Applied, BySide, Event, Game, GameState, Outcome, PhysicalEvent, PhysicalGame, Position,
    RuleSettings, Side, SideSetup,
};
use rusqlite::{OptionalExtension, Transaction, params};
use serde_json::{Map, Value, json};

/// A game's row id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub i64);

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// How the desk follows a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameMode {
    /// The desk holds both setups and is the arbiter.
    Arbitrated,
    /// Played on a real board with a human arbiter; the desk keeps clocks and the tally.
    Physical,
}

impl GameMode {
    pub fn code(self) -> &'static str {
        match self {
            GameMode::Arbitrated => "arbitrated",
            GameMode::Physical => "physical",
        }
    }
}

/// What a new game needs.
#[derive(Debug, Clone, PartialEq)]
pub struct NewGame {
    pub tournament_id: Option<i64>,
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
}

/// A game's stored facts other than its setups and events.
#[derive(Debug, Clone, PartialEq)]
pub struct GameMeta {
    pub id: GameId,
    pub tournament_id: Option<i64>,
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
    pub created_at: i64,
}

/// One stored event.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    pub seq: u32,
    pub t: f64,
    pub kind: StoredEventKind,
    pub wall_time: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StoredEventKind {
    /// An event of the record format (a game the desk arbitrates).
    Game(Event),
    /// An event of a game on a physical board.
    Physical(PhysicalEvent),
    /// Cancels the event with this sequence number (the last one still in force).
    Undo { seq: u32 },
}

/// An arbiter event of either kind of game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnyEvent {
    Game(Event),
    Physical(PhysicalEvent),
}

impl AnyEvent {
    /// The pause (or resume) of a game followed in `mode`.
    pub fn pause(mode: GameMode, pause: bool) -> AnyEvent {
        match (mode, pause) {
            (GameMode::Arbitrated, true) => AnyEvent::Game(Event::Pause),
            (GameMode::Arbitrated, false) => AnyEvent::Game(Event::Resume),
            (GameMode::Physical, true) => AnyEvent::Physical(PhysicalEvent::Pause),
            (GameMode::Physical, false) => AnyEvent::Physical(PhysicalEvent::Resume),
        }
    }

    /// An event common to both kinds of game (pause, resume, penalty, resignation, draw for
    /// respect, end) for a game followed in `mode`. `None` for a move on a physical board,
    /// which has its own events.
    pub fn for_mode(mode: GameMode, event: Event) -> Option<AnyEvent> {
        match mode {
            GameMode::Arbitrated => Some(AnyEvent::Game(event)),
            GameMode::Physical => Some(AnyEvent::Physical(match event {
                Event::Move { .. } => return None,
                Event::Penalty { kind, side } => PhysicalEvent::Penalty { kind, side },
                Event::Resign(side) => PhysicalEvent::Resign(side),
                Event::DrawForRespect => PhysicalEvent::DrawForRespect,
                Event::Pause => PhysicalEvent::Pause,
                Event::Resume => PhysicalEvent::Resume,
                Event::End => PhysicalEvent::End,
            })),
        }
    }

    pub fn end(mode: GameMode) -> AnyEvent {
        match mode {
            GameMode::Arbitrated => AnyEvent::Game(Event::End),
            GameMode::Physical => AnyEvent::Physical(PhysicalEvent::End),
        }
    }

    fn code(&self) -> &'static str {
        match self {
            AnyEvent::Game(e) => event_kind_code(e),
            AnyEvent::Physical(e) => e.code(),
        }
    }

    fn value(&self, t: f64) -> Value {
        match self {
            AnyEvent::Game(event) => event_value(&TimedEvent { t, event: *event }),
            AnyEvent::Physical(e) => physical_record::event_value(t, e),
        }
    }
}

/// A game derived from its events, whichever way the desk follows it.
#[derive(Debug, Clone, PartialEq)]
pub enum Derived {
    Arbitrated(Game),
    Physical(PhysicalGame),
}

impl Derived {
    pub fn state(&self) -> GameState {
        match self {
            Derived::Arbitrated(g) => g.state(),
            Derived::Physical(g) => g.state(),
        }
    }
    pub fn is_over(&self) -> bool {
        self.state() != GameState::Playing
    }
    pub fn clock(&self) -> &Clock {
        match self {
            Derived::Arbitrated(g) => g.clock(),
            Derived::Physical(g) => g.clock(),
        }
    }
    pub fn to_move(&self) -> Side {
        match self {
            Derived::Arbitrated(g) => g.to_move(),
            Derived::Physical(g) => g.to_move(),
        }
    }
    pub fn plies(&self) -> u32 {
        match self {
            Derived::Arbitrated(g) => g.plies(),
            Derived::Physical(g) => g.plies(),
        }
    }
    pub fn settings(&self) -> &RuleSettings {
        match self {
            Derived::Arbitrated(g) => g.settings(),
            Derived::Physical(g) => g.settings(),
        }
    }
    pub fn last_time(&self) -> Time {
        match self {
            Derived::Arbitrated(g) => g.last_time(),
            Derived::Physical(g) => g.last_time(),
        }
    }
    /// Judges the clocks up to `t` without an event.
    pub fn judge_clocks(&mut self, t: Time) -> std::result::Result<(), String> {
        match self {
            Derived::Arbitrated(g) => g.judge_clocks(t).map_err(|e| e.to_string()),
            Derived::Physical(g) => g.judge_clocks(t).map_err(|e| e.to_string()),
        }
    }
    /// Applies an event of the game's kind; on error nothing changes.
    pub fn apply(&mut self, t: Time, event: &AnyEvent) -> std::result::Result<Applied, String> {
        match (self, event) {
            (Derived::Arbitrated(g), AnyEvent::Game(e)) => g.apply(t, e).map_err(|e| e.to_string()),
            (Derived::Physical(g), AnyEvent::Physical(e)) => g
                .apply(t, e)
                .map(|()| Applied {
                    challenge: None,
                    ended: g.is_over(),
                })
                .map_err(|e| e.to_string()),
            _ => Err("this event belongs to the other kind of game".into()),
        }
    }
    pub fn as_arbitrated(&self) -> Option<&Game> {
        match self {
            Derived::Arbitrated(g) => Some(g),
            Derived::Physical(_) => None,
        }
    }
    pub fn as_physical(&self) -> Option<&PhysicalGame> {
        match self {
            Derived::Physical(g) => Some(g),
            Derived::Arbitrated(_) => None,
        }
    }
}

/// A game as stored: facts, setups, every event, reading sheets.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredGame {
    pub meta: GameMeta,
    pub setup: BySide<Option<SideSetup>>,
    pub events: Vec<StoredEvent>,
    /// Each side's reading sheet as entered (square → piece code), if any.
    pub sheets: BySide<Option<SheetRow>>,
}

/// One side's reading sheet: the readings so far, and whether it has been handed in.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetRow {
    pub sheet: Value,
    pub complete: bool,
}

impl StoredGame {
    /// The events in force: every game event not cancelled by an undo, in order, with their
    /// sequence numbers.
    pub fn effective(&self) -> Vec<(u32, f64, AnyEvent)> {
        let mut out: Vec<(u32, f64, AnyEvent)> = Vec::with_capacity(self.events.len());
        for e in &self.events {
            match e.kind {
                StoredEventKind::Game(event) => out.push((e.seq, e.t, AnyEvent::Game(event))),
                StoredEventKind::Physical(event) => {
                    out.push((e.seq, e.t, AnyEvent::Physical(event)))
                }
                StoredEventKind::Undo { seq } => {
                    if out.last().is_some_and(|(s, _, _)| *s == seq) {
                        out.pop();
                    }
                }
            }
        }
        out
    }

    /// The record-format events in force (a game the desk arbitrates).
    pub fn effective_events(&self) -> Vec<(u32, TimedEvent)> {
        self.effective()
            .into_iter()
            .filter_map(|(seq, t, e)| match e {
                AnyEvent::Game(event) => Some((seq, TimedEvent { t, event })),
                AnyEvent::Physical(_) => None,
            })
            .collect()
    }

    /// The record of a physical-board game (`ggdesk-physical/1`).
    pub fn physical_record(&self) -> Option<PhysicalRecord> {
        if self.meta.mode != GameMode::Physical {
            return None;
        }
        let readings = match (&self.sheets.white, &self.sheets.black) {
            (Some(w), Some(b)) if w.complete && b.complete => {
                match (
                    physical_record::parse_sheet(&w.sheet),
                    physical_record::parse_sheet(&b.sheet),
                ) {
                    (Ok(w), Ok(b)) => Some(BySide::new(w, b)),
                    _ => None,
                }
            }
            _ => None,
        };
        Some(PhysicalRecord {
            first: self.meta.first,
            ratings: self.meta.ratings,
            rules: self.meta.rules,
            events: self
                .effective()
                .into_iter()
                .filter_map(|(_, t, e)| match e {
                    AnyEvent::Physical(e) => Some((t, e)),
                    AnyEvent::Game(_) => None,
                })
                .collect(),
            readings,
            extra: self.meta.extra.clone(),
        })
    }

    /// The game derived from its events, whichever way it is followed. `None` before an
    /// arbitrated game's setups are both in.
    pub fn derive(&self) -> Option<std::result::Result<Derived, String>> {
        match self.meta.mode {
            GameMode::Arbitrated => self
                .game()
                .map(|r| r.map(Derived::Arbitrated).map_err(|e| e.to_string())),
            GameMode::Physical => self
                .physical_record()
                .map(|r| r.replay_game().map(Derived::Physical)),
        }
    }

    /// Status and outcome (adjudication included), for either kind of game.
    pub fn status(&self) -> Option<(record::Status, Option<Outcome>)> {
        match self.meta.mode {
            GameMode::Arbitrated => match self.verdict()? {
                Ok(v) => Some((v.status, v.outcome)),
                Err(_) => None,
            },
            GameMode::Physical => match self.physical_record()?.judge() {
                Ok(v) => Some((v.status, v.outcome)),
                Err(_) => None,
            },
        }
    }

    /// The game as its export file: `ggdesk-record/1`, or `ggdesk-physical/1` for a game
    /// on a physical board.
    pub fn export_value(&self) -> Option<Value> {
        match self.meta.mode {
            GameMode::Arbitrated => self.record().map(|r| r.to_value()),
            GameMode::Physical => self.physical_record().map(|r| r.to_value()),
        }
    }

    /// Both setups, once both are entered.
    pub fn setups(&self) -> Option<BySide<SideSetup>> {
        match (&self.setup.white, &self.setup.black) {
            (Some(w), Some(b)) => Some(BySide::new(w.clone(), b.clone())),
            _ => None,
        }
    }

    /// The game record (`ggdesk-record/1`), once both setups are in.
    pub fn record(&self) -> Option<Record> {
        let setup = self.setups()?;
        let mut extra = self.meta.extra.clone();
        extra.remove("readings");
        let mut record = Record::new(setup);
        record.first = self.meta.first;
        record.ratings = self.meta.ratings;
        record.rules = self.meta.rules;
        record.events = self
            .effective_events()
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        // The readings count once both sheets are handed in; an imported record keeps its
        // readings as written.
        record.readings = match (&self.sheets.white, &self.sheets.black) {
            (Some(w), Some(b)) if w.complete && b.complete => {
                Some(json!({"white": w.sheet, "black": b.sheet}))
            }
            _ => self.meta.extra.get("readings").cloned(),
        };
        record.extra = extra;
        Some(record)
    }

    /// The game replayed through the rules engine up to its last event. `None` before both
    /// setups are in.
    pub fn game(&self) -> Option<std::result::Result<Game, RecordError>> {
        let record = self.record()?;
        Some(record::replay_game(&record).map(|(g, _)| g))
    }

    /// The verdict `ggdesk replay` would give the exported record.
    pub fn verdict(&self) -> Option<std::result::Result<Verdict, RecordError>> {
        self.record().map(|r| record::replay(&r))
    }

    /// The game clock's t for a Unix-ms wall time.
    pub fn t_at(&self, wall_ms: i64) -> Option<f64> {
        self.meta
            .started_at
            .map(|s| ((wall_ms - s).max(0)) as f64 / 1000.0)
    }
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

fn rejected(e: impl ToString) -> StoreError {
    StoreError::Rejected(e.to_string())
}

fn side_code(side: Side) -> &'static str {
    side.name()
}

fn parse_side_column(s: &str) -> Side {
    if s == "black" {
        Side::Black
    } else {
        Side::White
    }
}

fn ratings_of(w: Option<f64>, b: Option<f64>) -> Option<BySide<f64>> {
    match (w, b) {
        (Some(w), Some(b)) => Some(BySide::new(w, b)),
        _ => None,
    }
}

fn map_meta(r: &rusqlite::Row<'_>) -> rusqlite::Result<(GameMeta, Option<String>, Option<String>)> {
    let rules_text: String = r.get("rules")?;
    let extra_text: String = r.get("extra")?;
    let white_no: Option<u32> = r.get("white_no")?;
    let black_no: Option<u32> = r.get("black_no")?;
    let mode: String = r.get("mode")?;
    let first: String = r.get("first")?;
    let rules = serde_json::from_str::<Value>(&rules_text)
        .ok()
        .and_then(|v| parse_rules(Some(&v)).ok())
        .unwrap_or_default();
    let meta = GameMeta {
        id: GameId(r.get("id")?),
        tournament_id: r.get("tournament_id")?,
        round: r.get("round")?,
        table_no: r.get("table_no")?,
        players: white_no.zip(black_no).map(|(w, b)| BySide::new(w, b)),
        mode: if mode == "physical" {
            GameMode::Physical
        } else {
            GameMode::Arbitrated
        },
        first: parse_side_column(&first),
        ratings: ratings_of(r.get("white_rating")?, r.get("black_rating")?),
        rules,
        started_at: r.get("started_at")?,
        clock_seen_t: r.get("clock_seen_t")?,
        result: r.get("result")?,
        void: r.get::<_, i64>("void")? != 0,
        void_reason: r.get("void_reason")?,
        replaces: r.get::<_, Option<i64>>("replaces")?.map(GameId),
        extra: serde_json::from_str(&extra_text).unwrap_or_default(),
        imported: r.get::<_, String>("origin")? == "import",
        created_at: r.get("created_at")?,
    };
    Ok((meta, r.get("setup_white")?, r.get("setup_black")?))
}

const GAME_COLUMNS: &str = "id, tournament_id, round, table_no, white_no, black_no, mode, first, \
     white_rating, black_rating, rules, setup_white, setup_black, started_at, clock_seen_t, \
     result, void, void_reason, replaces, extra, origin, created_at";

fn decode_setup(text: Option<String>, side: Side) -> Result<Option<SideSetup>> {
    match text {
        None => Ok(None),
        Some(t) => {
            let v: Value = serde_json::from_str(&t).map_err(|e| StoreError::Corrupt {
                path: "database".into(),
                detail: format!("{side} setup is not JSON: {e}"),
            })?;
            parse_setup(&v, side)
                .map(Some)
                .map_err(|e| StoreError::Corrupt {
                    path: "database".into(),
                    detail: e.to_string(),
                })
        }
    }
}

fn decode_event(
    mode: GameMode,
    seq: u32,
    t: f64,
    kind: &str,
    payload: &str,
    wall_time: i64,
) -> Result<StoredEvent> {
    let corrupt = |detail: String| StoreError::Corrupt {
        path: "database".into(),
        detail,
    };
    let value: Value = serde_json::from_str(payload)
        .map_err(|e| corrupt(format!("event {seq} is not JSON: {e}")))?;
    let kind = match kind {
        "undo" => StoredEventKind::Undo {
            seq: value
                .get("undo")
                .and_then(Value::as_u64)
                .ok_or_else(|| corrupt(format!("undo event {seq} names no event")))?
                as u32,
        },
        _ if mode == GameMode::Physical => StoredEventKind::Physical(
            physical_record::parse_event(&value)
                .map_err(|e| corrupt(format!("event {seq}: {e}")))?
                .1,
        ),
        _ => StoredEventKind::Game(
            parse_event(&value)
                .map_err(|e| corrupt(format!("event {seq}: {e}")))?
                .event,
        ),
    };
    Ok(StoredEvent {
        seq,
        t,
        kind,
        wall_time,
    })
}

fn event_kind_code(e: &Event) -> &'static str {
    match e {
        Event::Move { .. } => "move",
        Event::Penalty { .. } => "penalty",
        Event::Resign(_) => "resign",
        Event::DrawForRespect => "draw_for_respect",
        Event::Pause => "pause",
        Event::Resume => "resume",
        Event::End => "end",
    }
}

/// Loads a game inside a transaction or on the connection.
fn load(conn: &rusqlite::Connection, id: GameId) -> Result<StoredGame> {
    let (meta, sw, sb) = conn
        .query_row(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
            [id.0],
            map_meta,
        )
        .optional()?
        .ok_or_else(|| StoreError::NotFound(format!("game {id}")))?;
    let setup = BySide::new(
        decode_setup(sw, Side::White)?,
        decode_setup(sb, Side::Black)?,
    );
    let mut stmt = conn.prepare_cached(
        "SELECT seq, t, kind, payload, wall_time FROM game_events WHERE game_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt
        .query_map([id.0], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, f64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let events = rows
        .into_iter()
        .map(|(seq, t, kind, payload, wall)| decode_event(meta.mode, seq, t, &kind, &payload, wall))
        .collect::<Result<Vec<_>>>()?;
    let mut sheets = BySide::<Option<SheetRow>>::default();
    let mut stmt = conn.prepare_cached(
        "SELECT side, sheet, complete FROM adjudication_sheets WHERE game_id = ?1",
    )?;
    for row in stmt.query_map([id.0], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
        ))
    })? {
        let (side, sheet, complete) = row?;
        sheets[parse_side_column(&side)] =
            serde_json::from_str(&sheet).ok().map(|sheet| SheetRow {
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

/// The verdict-derived result cache of a game, and the pairing result it implies.
fn result_of(game: &StoredGame) -> (Option<String>, Option<&'static str>) {
    let Some((status, outcome)) = game.status() else {
        return (None, None);
    };
    let code = match status {
        record::Status::Ongoing => return (None, None),
        record::Status::AdjudicationPending => return (Some("adjudication_pending".into()), None),
        record::Status::Finished => outcome,
    };
    let Some(outcome) = code else {
        return (None, None);
    };
    let pairing = match outcome.winner() {
        Some(Side::White) => "white",
        Some(Side::Black) => "black",
        None => "draw",
    };
    let text = format!(
        "{} {}",
        outcome.winner().map_or("draw", Side::name),
        outcome.reason().code()
    );
    (Some(text), Some(pairing))
}

/// Writes the derived result into the game row and, for a tournament game that is not void,
/// into its board of the round: the result reaches the round in the same transaction as the
/// event that decided it, and the round's completion follows the one rule of every result
/// (`pairings::round_after_result`). Returns the round if it became complete (backed up by
/// the caller after the commit).
fn settle(tx: &Transaction<'_>, game: &StoredGame, actor: &Actor) -> Result<Option<u32>> {
    let (result, pairing) = result_of(game);
    if result == game.meta.result {
        return Ok(None);
    }
    tx.execute(
        "UPDATE games SET result = ?1 WHERE id = ?2",
        params![result, game.meta.id.0],
    )?;
    let m = &game.meta;
    if let (Some(tid), Some(round), Some(table), false) =
        (m.tournament_id, m.round, m.table_no, m.void)
    {
        let new = pairing.unwrap_or("pending");
        // The board of this game: its table, and its players where they are known (a file
        // may give two boards the same table number).
        let (w, b) = m
            .players
            .map_or((None, None), |p| (Some(p.white), Some(p.black)));
        let changed = tx.execute(
            "UPDATE pairings SET result = ?1 WHERE tournament_id = ?2 AND round = ?3 AND table_no = ?4
                 AND (?5 IS NULL OR white = ?5) AND (?6 IS NULL OR black = ?6) AND result <> ?1",
            params![new, tid, round, table, w, b],
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
        self.write(|tx| insert_game(tx, new, &Map::new(), actor))
    }

    pub fn load_game(&self, id: GameId) -> Result<StoredGame> {
        load(self.conn(), id)
    }

    /// Every game's facts, for one tournament round or (with `None`) all games.
    pub fn game_metas(&self, round: Option<(i64, u32)>) -> Result<Vec<GameMeta>> {
        let (sql, params): (String, Vec<i64>) = match round {
            Some((t, r)) => (
                format!(
                    "SELECT {GAME_COLUMNS} FROM games WHERE tournament_id = ?1 AND round = ?2 ORDER BY table_no, id"
                ),
                vec![t, r as i64],
            ),
            None => (
                format!("SELECT {GAME_COLUMNS} FROM games ORDER BY id"),
                vec![],
            ),
        };
        let mut stmt = self.conn().prepare(&sql)?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(params), map_meta)?
            .map(|r| r.map(|(m, _, _)| m))
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// Games started and not yet decided (nor void): the ones to restore on start.
    pub fn games_in_progress(&self) -> Result<Vec<GameId>> {
        let mut stmt = self.conn().prepare(
            "SELECT id FROM games WHERE started_at IS NOT NULL AND void = 0 AND result IS NULL ORDER BY id",
        )?;
        let ids = stmt
            .query_map([], |r| r.get::<_, i64>(0).map(GameId))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(ids)
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
            let game = load(tx, id)?;
            if game.meta.started_at.is_some() {
                return Err(rejected(format!(
                    "game {id} has started: its setups are fixed"
                )));
            }
            let column = match side {
                Side::White => "setup_white",
                Side::Black => "setup_black",
            };
            tx.execute(
                &format!("UPDATE games SET {column} = ?1 WHERE id = ?2"),
                params![setup_value(setup).to_string(), id.0],
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

    /// Starts the clocks with `first` to move (decided by lot): both setups must be complete
    /// and legal. `started_at` is the Unix ms of t = 0.
    pub fn start_game(
        &mut self,
        id: GameId,
        started_at: i64,
        first: Side,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            let game = load(tx, id)?;
            if game.meta.started_at.is_some() {
                return Err(rejected(format!("game {id} has already started")));
            }
            if game.meta.mode == GameMode::Arbitrated {
                let setups = game.setups().ok_or_else(|| {
                    rejected("both setups must be entered before the game starts")
                })?;
                Position::from_setups(&setups).map_err(rejected)?;
            }
            tx.execute(
                "UPDATE games SET started_at = ?1, first = ?2 WHERE id = ?3",
                params![started_at, side_code(first), id.0],
            )?;
            audit(
                tx,
                actor,
                "game started",
                game.meta.tournament_id,
                Some(id.0),
                "",
                &format!("{first} moves first"),
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
        self.write(|tx| {
            let mut game = load(tx, id)?;
            let outcome = apply_checked(&game, t, &event)?;
            let seq = next_seq(&game);
            let payload = event.value(t);
            insert_event(tx, id, seq, t, event.code(), &payload)?;
            game.events.push(StoredEvent {
                seq,
                t,
                kind: match event {
                    AnyEvent::Game(e) => StoredEventKind::Game(e),
                    AnyEvent::Physical(e) => StoredEventKind::Physical(e),
                },
                wall_time: now_ms(),
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
        })
        .map(|(mut outcome, completed)| {
            outcome.round_completed =
                completed.map(|(round, tid)| self.completion_backup(tid, round));
            outcome
        })
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
            let mut game = load(tx, id)?;
            let (target, undone_t, undone) = game
                .effective()
                .last()
                .copied()
                .ok_or_else(|| rejected("there is no event to undo"))?;
            let seq = next_seq(&game);
            insert_event(
                tx,
                id,
                seq,
                t.max(0.0),
                "undo",
                &json!({"t": t, "undo": target}),
            )?;
            game.events.push(StoredEvent {
                seq,
                t,
                kind: StoredEventKind::Undo { seq: target },
                wall_time: now_ms(),
            });
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

    /// Stores (or replaces) one side's reading sheet for the adjudication, as entered so far
    /// or handed in (`complete`). The sheet is checked against the position the game stopped
    /// in; the result is decided once both sheets are handed in (and a round whose last
    /// result that was is complete, and backed up).
    pub fn save_reading_sheet(
        &mut self,
        id: GameId,
        side: Side,
        sheet: &Value,
        complete: bool,
        actor: &Actor,
    ) -> Result<Option<super::RoundCompleted>> {
        let completed = self.write(|tx| {
            let mut game = load(tx, id)?;
            let derived = game
                .derive()
                .and_then(|g| g.ok())
                .filter(|g| matches!(g.state(), GameState::GameTimeUp { .. }))
                .ok_or_else(|| rejected(format!("game {id} is not waiting for an adjudication")))?;
            check_sheet(side, sheet, &derived)?;
            tx.execute(
                "INSERT INTO adjudication_sheets (game_id, side, sheet, complete, entered_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (game_id, side) DO UPDATE SET sheet = excluded.sheet,
                     complete = excluded.complete, entered_at = excluded.entered_at",
                params![id.0, side_code(side), sheet.to_string(), complete, now_ms()],
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
            let mut stmt = tx.prepare_cached("UPDATE games SET clock_seen_t = ?1 WHERE id = ?2")?;
            for (id, t) in seen {
                stmt.execute(params![t, id.0])?;
            }
            Ok(())
        })
    }

    /// Restores the games in progress after a start: a game whose clocks were running when
    /// the desk stopped gets a pause at the last moment the desk saw its clocks and a resume
    /// now, so its clocks continue exactly from where they were and the time the desk was
    /// down is charged to nobody. A clock that had run out by then ends the game there.
    /// Returns the games restored.
    pub fn restore_games_in_progress(&mut self, now_ms: i64) -> Result<Vec<GameId>> {
        let ids = self.games_in_progress()?;
        for &id in &ids {
            let game = self.load_game(id)?;
            let Some(Ok(mut derived)) = game.derive() else {
                continue;
            };
            if derived.is_over() || derived.clock().is_paused() {
                continue;
            }
            let mode = game.meta.mode;
            let last_t = derived.last_time();
            let seen = game
                .meta
                .clock_seen_t
                .and_then(Time::from_secs_f64)
                .unwrap_or(last_t)
                .max(last_t);
            let seen_t = seen.as_secs_f64();
            let now_t = game.t_at(now_ms).unwrap_or(seen_t).max(seen_t);
            let actor = Actor::system();
            let why = "the desk restarted: clocks stopped while it was down";
            if derived.judge_clocks(seen).is_ok() && derived.is_over() {
                self.append(id, seen_t, AnyEvent::end(mode), &actor, why)?;
                continue;
            }
            self.append(id, seen_t, AnyEvent::pause(mode, true), &actor, why)?;
            self.append(id, now_t, AnyEvent::pause(mode, false), &actor, why)?;
        }
        Ok(ids)
    }

    /// The arbiter confirms the result the rules reached (audit log).
    pub fn confirm_result(&mut self, id: GameId, actor: &Actor) -> Result<()> {
        self.write(|tx| {
            let game = load(tx, id)?;
            let result = game
                .meta
                .result
                .clone()
                .filter(|r| r != "adjudication_pending")
                .ok_or_else(|| rejected(format!("game {id} has no result to confirm")))?;
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
        let n: i64 = self.conn().query_row(
            "SELECT count(*) FROM audit_log WHERE game_id = ?1 AND action = 'result confirmed'",
            [id.0],
            |r| r.get(0),
        )?;
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
            let game = load(tx, id)?;
            if game.meta.void {
                return Err(rejected(format!("game {id} is already void")));
            }
            tx.execute(
                "UPDATE games SET void = 1, void_reason = ?1 WHERE id = ?2",
                params![reason, id.0],
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
                         AND (?4 IS NULL OR white = ?4) AND (?5 IS NULL OR black = ?5)",
                    params![tid, round, table, w, b],
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
        record::replay(record).map_err(rejected)?;
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
                params![
                    setup_value(&record.setup.white).to_string(),
                    setup_value(&record.setup.black).to_string(),
                    id.0
                ],
            )?;
            for (seq, e) in record.events.iter().enumerate() {
                insert_event(tx, id, seq as u32, e.t, event_kind_code(&e.event), &event_value(e))?;
            }
            for side in Side::BOTH {
                if let Some(sheet) = &sheets[side] {
                    tx.execute(
                        "INSERT INTO adjudication_sheets (game_id, side, sheet, complete, entered_at) VALUES (?1, ?2, ?3, 1, ?4)",
                        params![id.0, side_code(side), sheet.to_string(), now_ms()],
                    )?;
                }
            }
            let game = load(tx, id)?;
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
                insert_event(tx, id, seq as u32, *t, event.code(), &event.value(*t))?;
            }
            if let Some(readings) = &record.readings {
                for side in Side::BOTH {
                    tx.execute(
                        "INSERT INTO adjudication_sheets (game_id, side, sheet, complete, entered_at) VALUES (?1, ?2, ?3, 1, ?4)",
                        params![id.0, side_code(side), physical_record::sheet_value(&readings[side]).to_string(), now_ms()],
                    )?;
                }
            }
            let game = load(tx, id)?;
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

fn next_seq(game: &StoredGame) -> u32 {
    game.events.last().map_or(0, |e| e.seq + 1)
}

/// Checks `event` against the game replayed so far, returning what it does.
fn apply_checked(game: &StoredGame, t: f64, event: &AnyEvent) -> Result<(Applied, GameState)> {
    if game.meta.void {
        return Err(rejected(format!("game {} is void", game.meta.id)));
    }
    if game.meta.started_at.is_none() {
        return Err(rejected(format!("game {} has not started", game.meta.id)));
    }
    let mut derived = game
        .derive()
        .ok_or_else(|| rejected("the setups are not both entered"))?
        .map_err(rejected)?;
    let time =
        Time::from_secs_f64(t).ok_or_else(|| rejected(format!("time {t} s is out of range")))?;
    let applied = derived.apply(time, event).map_err(rejected)?;
    Ok((applied, derived.state()))
}

/// Checks one side's reading sheet (as entered so far) against the game that stopped.
fn check_sheet(side: Side, sheet: &Value, derived: &Derived) -> Result<()> {
    match derived {
        Derived::Arbitrated(g) => {
            let mut probe = Record::new(BySide::default());
            probe.readings = Some(json!({ side.name(): sheet }));
            let sheets = probe
                .reading_sheets()
                .map_err(rejected)?
                .unwrap_or_default();
            ggdesk_core::adjudication::validate_sheet(side, &sheets[side], g.position())
                .map_err(rejected)
        }
        Derived::Physical(g) => {
            let readings = physical_record::parse_sheet(sheet).map_err(rejected)?;
            let mut listed: Vec<_> = readings.iter().map(|(a, _)| *a).collect();
            let mut left = g.remaining_pieces(side.opponent());
            listed.sort();
            left.sort();
            if listed != left {
                return Err(rejected(format!(
                    "{side}'s sheet must list the {} pieces {} has left",
                    left.len(),
                    side.opponent()
                )));
            }
            ggdesk_core::adjudication::check_counts(side, readings.iter().filter_map(|(_, r)| *r))
                .map_err(rejected)
        }
    }
}

fn insert_event(
    tx: &Transaction<'_>,
    id: GameId,
    seq: u32,
    t: f64,
    kind: &str,
    payload: &Value,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO game_events (game_id, seq, t, kind, payload, wall_time) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![id.0, seq, t, kind, payload.to_string(), now_ms()])?;
    Ok(())
}

fn insert_game(
    tx: &Transaction<'_>,
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
    tx.execute(
        "INSERT INTO games (tournament_id, round, table_no, white_no, black_no, mode, first,
             white_rating, black_rating, rules, replaces, extra, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        params![
            new.tournament_id,
            new.round,
            new.table_no,
            w,
            b,
            new.mode.code(),
            side_code(new.first),
            wr,
            br,
            rules_value(&new.rules).to_string(),
            new.replaces.map(|g| g.0),
            Value::Object(extra.clone()).to_string(),
            now_ms()
        ],
    )?;
    let id = GameId(tx.last_insert_rowid());
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
