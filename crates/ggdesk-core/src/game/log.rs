//! A game as the desk keeps it: its facts, its setups, its event log (only ever appended to;
//! a correction is an undo naming the entry it cancels) and its reading sheets. Everything
//! else is derived here: the events in force, the record, the game replayed, its status,
//! and the result it implies for the game and for its board of the round. The store reads
//! these facts and borrows them as a [`LoggedGame`]; it derives nothing itself.

use super::{AnyEvent, AnyGame, GameMode};
use crate::clock::Time;
use crate::physical_record::{self, PhysicalRecord};
use crate::record::{self, Record, RecordError, Status, TimedEvent, Verdict};
use crate::rules::{Applied, BySide, Event, Game, GameState, Outcome, PhysicalEvent, RuleSettings};
use crate::rules::{Side, SideSetup};
use crate::tournament::GameResult;
use serde_json::{Map, Value, json};

/// One entry of a game's log, as written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LogEntryKind {
    /// An event of the record format (a game the desk arbitrates).
    Game(Event),
    /// An event of a game on a physical board.
    Physical(PhysicalEvent),
    /// Cancels the entry with this sequence number (the last one still in force).
    Undo { seq: u32 },
}

impl From<AnyEvent> for LogEntryKind {
    fn from(e: AnyEvent) -> Self {
        match e {
            AnyEvent::Game(e) => LogEntryKind::Game(e),
            AnyEvent::Physical(e) => LogEntryKind::Physical(e),
        }
    }
}

impl LogEntryKind {
    /// The event, unless this is an undo.
    pub fn event(&self) -> Option<AnyEvent> {
        match *self {
            LogEntryKind::Game(e) => Some(AnyEvent::Game(e)),
            LogEntryKind::Physical(e) => Some(AnyEvent::Physical(e)),
            LogEntryKind::Undo { .. } => None,
        }
    }

    /// The kind's code: the event's (`move`, `pause`, ...) or `undo`.
    pub fn code(&self) -> &'static str {
        self.event().map_or("undo", |e| e.code())
    }

    /// The entry as written at time `t`: the event as its record writes it, or
    /// `{"t": t, "undo": seq}`.
    pub fn value(&self, t: f64) -> Value {
        match *self {
            LogEntryKind::Game(e) => AnyEvent::Game(e).value(t),
            LogEntryKind::Physical(e) => AnyEvent::Physical(e).value(t),
            LogEntryKind::Undo { seq } => json!({"t": t, "undo": seq}),
        }
    }

    /// Reads an entry of a game followed in `mode` back from its kind code and what
    /// [`LogEntryKind::value`] wrote.
    pub fn parse(mode: GameMode, code: &str, v: &Value) -> Result<LogEntryKind, String> {
        if code == "undo" {
            let seq = v
                .get("undo")
                .and_then(Value::as_u64)
                .and_then(|s| u32::try_from(s).ok())
                .ok_or("an undo must name the entry it cancels")?;
            return Ok(LogEntryKind::Undo { seq });
        }
        let (_, event) = AnyEvent::parse(mode, v)?;
        if event.code() != code {
            return Err(format!(
                "the kind is {code:?} but the event is a {:?}",
                event.code()
            ));
        }
        Ok(event.into())
    }
}

/// One entry of a game's log: its sequence number (from 0), its time `t` in seconds since
/// the game started, and what it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogEntry {
    pub seq: u32,
    pub t: f64,
    pub kind: LogEntryKind,
}

/// The events in force in a log: every event not cancelled by an undo, in order, with its
/// sequence number and time. An undo cancels the last event still in force when it names it
/// (and nothing otherwise).
pub fn effective(log: impl IntoIterator<Item = LogEntry>) -> Vec<(u32, f64, AnyEvent)> {
    let mut out: Vec<(u32, f64, AnyEvent)> = Vec::new();
    for entry in log {
        match entry.kind.event() {
            Some(event) => out.push((entry.seq, entry.t, event)),
            None => {
                if let LogEntryKind::Undo { seq } = entry.kind
                    && out.last().is_some_and(|(s, _, _)| *s == seq)
                {
                    out.pop();
                }
            }
        }
    }
    out
}

/// One side's reading sheet as entered: the readings so far, and whether it has been handed
/// in. For a game the desk arbitrates, enemy square → piece code; on a physical board, a
/// list of `[piece, reading]`.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetRow {
    pub sheet: Value,
    pub complete: bool,
}

/// A game as the desk keeps it, borrowed from whoever read it. Its board, clocks, record,
/// status and result are never kept: they are derived from this by the methods below, the
/// same way for every caller.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoggedGame<'a> {
    pub mode: GameMode,
    pub first: Side,
    pub ratings: Option<BySide<f64>>,
    pub rules: RuleSettings,
    /// Each side's setup as entered so far (a game the desk arbitrates).
    pub setup: &'a BySide<Option<SideSetup>>,
    /// Every entry, in order of sequence number.
    pub log: &'a [LogEntry],
    pub sheets: &'a BySide<Option<SheetRow>>,
    /// An imported record's unknown top-level keys, kept for export; also its `readings` as
    /// written.
    pub extra: &'a Map<String, Value>,
}

/// What a game's events have decided so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Still being played, or its events cannot be replayed yet (setups missing).
    Undecided,
    /// Game time ran out and the reading sheets are not both in.
    AdjudicationPending,
    Decided(Outcome),
}

impl Decision {
    /// The text the database keeps as the game's result: `None`, `adjudication_pending`, or
    /// the winner (or `draw`) and the reason: `white flag_captured`, `draw respect`.
    pub fn code(&self) -> Option<String> {
        match self {
            Decision::Undecided => None,
            Decision::AdjudicationPending => Some(Status::AdjudicationPending.code().into()),
            Decision::Decided(outcome) => Some(format!(
                "{} {}",
                outcome.winner().map_or("draw", Side::name),
                outcome.reason().code()
            )),
        }
    }

    /// The result this gives the game's board of the round; `None` leaves it pending.
    pub fn board_result(&self) -> Option<GameResult> {
        match self {
            Decision::Decided(outcome) => Some(match outcome.winner() {
                Some(Side::White) => GameResult::WhiteWins,
                Some(Side::Black) => GameResult::BlackWins,
                None => GameResult::Draw,
            }),
            Decision::Undecided | Decision::AdjudicationPending => None,
        }
    }
}

impl LoggedGame<'_> {
    /// The events in force, with their sequence numbers and times.
    pub fn effective(&self) -> Vec<(u32, f64, AnyEvent)> {
        effective(self.log.iter().copied())
    }

    /// The sequence number of the next entry.
    pub fn next_seq(&self) -> u32 {
        self.log.last().map_or(0, |e| e.seq + 1)
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

    /// Both setups, once both are entered.
    pub fn setups(&self) -> Option<BySide<SideSetup>> {
        match (&self.setup.white, &self.setup.black) {
            (Some(w), Some(b)) => Some(BySide::new(w.clone(), b.clone())),
            _ => None,
        }
    }

    /// Both sheets, once both are handed in.
    fn handed_in(&self) -> Option<BySide<&'_ Value>> {
        match (&self.sheets.white, &self.sheets.black) {
            (Some(w), Some(b)) if w.complete && b.complete => Some(BySide::new(&w.sheet, &b.sheet)),
            _ => None,
        }
    }

    /// The game record (`ggdesk-record/1`) of a game the desk arbitrates, once both setups
    /// are in.
    pub fn record(&self) -> Option<Record> {
        if self.mode != GameMode::Arbitrated {
            return None;
        }
        let mut record = Record::new(self.setups()?);
        record.first = self.first;
        record.ratings = self.ratings;
        record.rules = self.rules;
        record.events = self
            .effective_events()
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        // The readings count once both sheets are handed in; an imported record keeps its
        // readings as written.
        record.readings = match self.handed_in() {
            Some(s) => Some(json!({"white": s.white, "black": s.black})),
            None => self.extra.get("readings").cloned(),
        };
        record.extra = self.extra.clone();
        record.extra.remove("readings");
        Some(record)
    }

    /// The record of a game on a physical board (`ggdesk-physical/1`).
    pub fn physical_record(&self) -> Option<PhysicalRecord> {
        if self.mode != GameMode::Physical {
            return None;
        }
        let readings = self.handed_in().and_then(|s| {
            let white = physical_record::parse_sheet(s.white).ok()?;
            let black = physical_record::parse_sheet(s.black).ok()?;
            Some(BySide::new(white, black))
        });
        Some(PhysicalRecord {
            first: self.first,
            ratings: self.ratings,
            rules: self.rules,
            events: self
                .effective()
                .into_iter()
                .filter_map(|(_, t, e)| match e {
                    AnyEvent::Physical(e) => Some((t, e)),
                    AnyEvent::Game(_) => None,
                })
                .collect(),
            readings,
            extra: self.extra.clone(),
        })
    }

    /// The game derived from its events, whichever way it is followed. `None` before an
    /// arbitrated game's setups are both in.
    pub fn derive(&self) -> Option<Result<AnyGame, String>> {
        match self.mode {
            GameMode::Arbitrated => self
                .game()
                .map(|r| r.map(AnyGame::Arbitrated).map_err(|e| e.to_string())),
            GameMode::Physical => self
                .physical_record()
                .map(|r| r.replay_game().map(AnyGame::Physical)),
        }
    }

    /// The arbitrated game replayed through the rules engine up to its last event. `None`
    /// before both setups are in.
    pub fn game(&self) -> Option<Result<Game, RecordError>> {
        let record = self.record()?;
        Some(record::replay_game(&record).map(|(g, _)| g))
    }

    /// The verdict `ggdesk replay` would give the exported record.
    pub fn verdict(&self) -> Option<Result<Verdict, RecordError>> {
        self.record().map(|r| record::replay(&r))
    }

    /// Status and outcome (adjudication included), for either kind of game. `None` when the
    /// game cannot be judged (setups missing, or events the rules refuse).
    pub fn status(&self) -> Option<(Status, Option<Outcome>)> {
        match self.mode {
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

    /// What the game's events have decided.
    pub fn decision(&self) -> Decision {
        match self.status() {
            Some((Status::Finished, Some(outcome))) => Decision::Decided(outcome),
            Some((Status::AdjudicationPending, _)) => Decision::AdjudicationPending,
            _ => Decision::Undecided,
        }
    }

    /// The game as its export file: `ggdesk-record/1`, or `ggdesk-physical/1` for a game
    /// on a physical board. `None` before an arbitrated game's setups are both in.
    pub fn export_value(&self) -> Option<Value> {
        match self.mode {
            GameMode::Arbitrated => self.record().map(|r| r.to_value()),
            GameMode::Physical => self.physical_record().map(|r| r.to_value()),
        }
    }

    /// Checks `event` at time `t` against the game replayed so far: what it would do, and
    /// the state it would leave. Nothing changes.
    pub fn check_event(&self, t: f64, event: &AnyEvent) -> Result<(Applied, GameState), String> {
        // `end` ends the record: a record with anything after it is refused by `replay`.
        if let Some((seq, _, last)) = self.effective().last()
            && *last == AnyEvent::end(self.mode)
        {
            return Err(format!(
                "the record has ended (event {seq} is \"end\"): nothing may follow it"
            ));
        }
        let mut game = self.derive().ok_or("the setups are not both entered")??;
        let time = Time::from_secs_f64(t).ok_or_else(|| record::time_out_of_range(t))?;
        let applied = game.apply(time, event).map_err(|e| e.to_string())?;
        Ok((applied, game.state()))
    }
}
