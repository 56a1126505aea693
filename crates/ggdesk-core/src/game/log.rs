//! A game as the desk keeps it: its facts, its setups, its event log (only ever appended to;
//! a correction is an undo naming the entry it cancels) and its reading sheets. Everything
//! else is derived here: the events in force, the record, the game replayed, its status,
//! and the result it implies for the game and for its board of the round. The store reads
//! these facts and borrows them as a [`LoggedGame`]; it derives nothing itself.

use super::{AnyEvent, AnyGame, GameMode};
use crate::physical_record::{self, PhysicalRecord};
use crate::record::{self, Record, RecordError, Status, TimedEvent, Verdict};
use crate::rules::clock::Time;
use crate::rules::{Applied, BySide, Event, Game, GameState, Outcome, PhysicalEvent, RuleSettings};
use crate::rules::{Reason, Side, SideSetup};
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

    /// The decision a kept code says ([`Decision::code`] read back), or what is wrong with
    /// the code.
    pub fn from_code(code: Option<&str>) -> Result<Decision, String> {
        let Some(code) = code else {
            return Ok(Decision::Undecided);
        };
        if code == Status::AdjudicationPending.code() {
            return Ok(Decision::AdjudicationPending);
        }
        let unknown = || format!("unknown result {code:?}");
        let (who, reason) = code.split_once(' ').ok_or_else(unknown)?;
        let reason = Reason::from_code(reason).ok_or_else(unknown)?;
        let outcome = match who {
            "draw" => Outcome::Draw { reason },
            side => Outcome::Win {
                side: side.parse().map_err(|_| unknown())?,
                reason,
            },
        };
        Ok(Decision::Decided(outcome))
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
        self.record_of(&self.effective())
    }

    /// The game record with these events (the events in force, or a part of them).
    fn record_of(&self, events: &[(u32, f64, AnyEvent)]) -> Option<Record> {
        if self.mode != GameMode::Arbitrated {
            return None;
        }
        let mut record = Record::new(self.setups()?);
        record.first = self.first;
        record.ratings = self.ratings;
        record.rules = self.rules;
        record.events = events
            .iter()
            .filter_map(|&(_, t, e)| match e {
                AnyEvent::Game(event) => Some(TimedEvent { t, event }),
                AnyEvent::Physical(_) => None,
            })
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
        self.physical_record_of(&self.effective())
    }

    /// The physical-board record with these events.
    fn physical_record_of(&self, events: &[(u32, f64, AnyEvent)]) -> Option<PhysicalRecord> {
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
            events: events
                .iter()
                .filter_map(|&(_, t, e)| match e {
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
        self.derive_of(&self.effective())
    }

    /// The game derived from these events (the events in force, or the first of them).
    fn derive_of(&self, events: &[(u32, f64, AnyEvent)]) -> Option<Result<AnyGame, String>> {
        match self.mode {
            GameMode::Arbitrated => self.record_of(events).map(|r| {
                record::replay_game(&r)
                    .map(|(g, _)| AnyGame::Arbitrated(g))
                    .map_err(|e| e.to_string())
            }),
            GameMode::Physical => self
                .physical_record_of(events)
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

/// Whether an event is a move (with or without a challenge, on either kind of board).
fn is_move(event: &AnyEvent) -> bool {
    matches!(
        event,
        AnyEvent::Game(Event::Move { .. }) | AnyEvent::Physical(PhysicalEvent::Move { .. })
    )
}

/// Whether an event only stops or restarts the clocks.
fn is_pause_or_resume(event: &AnyEvent) -> bool {
    matches!(
        event,
        AnyEvent::Game(Event::Pause | Event::Resume)
            | AnyEvent::Physical(PhysicalEvent::Pause | PhysicalEvent::Resume)
    )
}

/// An overstep the clocks counted after the last event in force: the move limit passed by
/// the side to move, while nobody entered anything.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overstep {
    pub side: Side,
    /// The side's oversteps, this one included.
    pub count: u32,
    /// How many oversteps lose the game.
    pub limit: u32,
    /// The moment the move limit was passed, in seconds since the game started.
    pub at: f64,
}

impl Overstep {
    /// The overstep as the audit log keeps it: `{"t": at, "overstep": side, "count": n,
    /// "of": limit}`.
    pub fn value(&self) -> Value {
        json!({"t": self.at, "overstep": self.side.name(), "count": self.count, "of": self.limit})
    }
}

/// The last move replaced at the time it was made: what the log takes, and what it replaces.
#[derive(Debug, Clone, PartialEq)]
pub struct Correction {
    /// The entries to append, in order: an undo of each pause or resume that followed the
    /// move and of the move itself (all at `corrected_at`), the replacement at the cancelled
    /// move's own time, then those pauses and resumes again at their own times.
    pub entries: Vec<LogEntry>,
    /// The move cancelled: its sequence number, its time and what it was.
    pub cancelled: (u32, f64, AnyEvent),
    /// The move that replaces it, at the same time.
    pub replacement: AnyEvent,
    /// When the correction was entered.
    pub corrected_at: f64,
}

impl Correction {
    /// The correction as the audit log keeps it: the move cancelled and the move entered,
    /// each as its record writes it (at its time), and when the correction was entered.
    pub fn value(&self) -> Value {
        let (seq, t, old) = self.cancelled;
        json!({
            "corrected_at": self.corrected_at,
            "cancelled": old.value(t),
            "cancelled_seq": seq,
            "entered": self.replacement.value(t),
        })
    }
}

/// Why the last move cannot be corrected. Nothing is written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CorrectionError {
    #[error("there is no move to correct")]
    NoMove,
    #[error("a correction replaces a move with a move, not a {0}")]
    NotAMove(&'static str),
    #[error(
        "event {seq} ({code}) came after the last move: only the last move can be corrected (undo event {seq} first)"
    )]
    EventAfter { seq: u32, code: &'static str },
    #[error("the corrected move is refused: {0}")]
    Refused(String),
    #[error("{0}")]
    Form(String),
}

/// A correction found in a log: the move cancelled and the move that replaced it at its time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CorrectionSeen {
    pub cancelled: AnyEvent,
    pub replacement: AnyEvent,
    /// The sequence number of the replacement.
    pub seq: u32,
    /// The time of both moves.
    pub t: f64,
    /// When the correction was entered.
    pub corrected_at: f64,
}

impl LoggedGame<'_> {
    /// Replaces the last move in force by `replacement` at the time the cancelled move was
    /// made (`corrected_at` is now): the clocks then count from the moment the move was
    /// really made, as if it had been entered right. Pauses and resumes entered after the
    /// move are kept at their times; any other event after it must be undone first. The
    /// replacement is checked against the game as it stood before the cancelled move.
    pub fn correction(
        &self,
        replacement: AnyEvent,
        corrected_at: f64,
    ) -> Result<Correction, CorrectionError> {
        if !is_move(&replacement) {
            return Err(CorrectionError::NotAMove(replacement.code()));
        }
        let effective = self.effective();
        let k = effective
            .iter()
            .rposition(|(_, _, e)| is_move(e))
            .ok_or(CorrectionError::NoMove)?;
        let after = &effective[k + 1..];
        if let Some(&(seq, _, e)) = after.iter().find(|(_, _, e)| !is_pause_or_resume(e)) {
            return Err(CorrectionError::EventAfter {
                seq,
                code: e.code(),
            });
        }
        let (seq, t, old) = effective[k];
        let mut game = self
            .derive_of(&effective[..k])
            .ok_or_else(|| CorrectionError::Form("the setups are not both entered".into()))?
            .map_err(CorrectionError::Form)?;
        let time = Time::from_secs_f64(t).ok_or_else(|| {
            CorrectionError::Form(format!("event {seq}: {}", record::time_out_of_range(t)))
        })?;
        game.apply(time, &replacement)
            .map_err(|e| CorrectionError::Refused(e.to_string()))?;
        // The pauses and resumes after it apply as they did (a paused game stays paused).
        for &(s, t, e) in after {
            let time = Time::from_secs_f64(t).ok_or_else(|| {
                CorrectionError::Form(format!("event {s}: {}", record::time_out_of_range(t)))
            })?;
            game.apply(time, &e)
                .map_err(|e| CorrectionError::Refused(format!("event {s} after it: {e}")))?;
        }
        let mut next = self.next_seq();
        let mut entries = Vec::new();
        let mut push = |t: f64, kind: LogEntryKind| {
            entries.push(LogEntry { seq: next, t, kind });
            next += 1;
        };
        for &(s, _, _) in after.iter().rev() {
            push(corrected_at, LogEntryKind::Undo { seq: s });
        }
        push(corrected_at, LogEntryKind::Undo { seq });
        push(t, replacement.into());
        for &(_, t, e) in after {
            push(t, e.into());
        }
        Ok(Correction {
            entries,
            cancelled: (seq, t, old),
            replacement,
            corrected_at,
        })
    }

    /// The last correction of a move in the log (see [`LoggedGame::correction`]): a move
    /// entered right after undos, one of which cancelled a move of the same time.
    pub fn last_correction(&self) -> Option<CorrectionSeen> {
        let by_seq = |seq: u32| self.log.iter().find(|e| e.seq == seq);
        self.log.iter().enumerate().rev().find_map(|(i, entry)| {
            let replacement = entry.kind.event().filter(is_move)?;
            let undos = self.log[..i]
                .iter()
                .rev()
                .take_while(|e| matches!(e.kind, LogEntryKind::Undo { .. }));
            undos.into_iter().find_map(|undo| {
                let LogEntryKind::Undo { seq } = undo.kind else {
                    return None;
                };
                let cancelled = by_seq(seq)?;
                let old = cancelled.kind.event().filter(is_move)?;
                (cancelled.t == entry.t).then_some(CorrectionSeen {
                    cancelled: old,
                    replacement,
                    seq: entry.seq,
                    t: entry.t,
                    corrected_at: undo.t,
                })
            })
        })
    }

    /// The playing time each side has used on its move clock from `since` (seconds since
    /// the game started) until `until`: pauses excluded, each stretch counted to the side
    /// whose turn it was. `None` when the game cannot be derived.
    pub fn used_between(&self, since: f64, until: Time) -> Option<BySide<i64>> {
        let effective = self.effective();
        let split = effective
            .iter()
            .position(|(_, t, _)| *t > since)
            .unwrap_or(effective.len());
        let mut game = self.derive_of(&effective[..split])?.ok()?;
        // The clocks up to `since` are before it: they count for nobody.
        let since = Time::from_secs_f64(since)?;
        if since > game.clock().now() {
            game.judge_clocks(since).ok()?;
        }
        let mut used = BySide::<i64>::default();
        for &(_, t, e) in &effective[split..] {
            let time = Time::from_secs_f64(t)?;
            run_clocks(&mut game, time, &mut used);
            if game.apply(time, &e).is_err() {
                return Some(used);
            }
        }
        run_clocks(&mut game, until, &mut used);
        Some(used)
    }

    /// The overstep the clocks count between the last event in force and `t`, if any: the
    /// side to move passing the move limit while nothing was entered (at most one, as a
    /// turn passes the limit once). An event at `t` would record it.
    pub fn overstep_before(&self, t: f64) -> Option<Overstep> {
        let game = self.derive()?.ok()?;
        let time = Time::from_secs_f64(t)?;
        let before = game.clock().oversteps();
        let mut judged = game.clone();
        judged.judge_clocks(time).ok()?;
        let after = judged.clock().oversteps();
        let side = Side::BOTH.into_iter().find(|s| after[*s] > before[*s])?;
        // The clocks ran from the last event without a pause (an overstep needs a running
        // move clock), so the limit was passed when what was left of it at that event had
        // run.
        let left = Time::from_ns(game.clock().move_remaining_ns().max(0));
        Some(Overstep {
            side,
            count: after[side],
            limit: game.settings().oversteps_to_lose,
            at: game.last_time().plus(left).as_secs_f64(),
        })
    }
}

/// Runs a game's clocks up to `to` without an event, counting the playing time that passed
/// to the side whose turn it is (nothing while paused or once a clock ran out).
fn run_clocks(game: &mut AnyGame, to: Time, used: &mut BySide<i64>) {
    let side = game.to_move();
    let before = game.clock().game_used_ns();
    if to > game.clock().now() && game.judge_clocks(to).is_ok() {
        used[side] += game.clock().game_used_ns() - before;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_decision_reads_back_from_the_code_the_database_keeps() {
        let mut all = vec![Decision::Undecided, Decision::AdjudicationPending];
        for reason in Reason::ALL {
            all.push(Decision::Decided(Outcome::Draw { reason }));
            for side in [Side::White, Side::Black] {
                all.push(Decision::Decided(Outcome::Win { side, reason }));
            }
        }
        for d in all {
            assert_eq!(Decision::from_code(d.code().as_deref()), Ok(d), "{d:?}");
        }
    }

    #[test]
    fn a_code_the_desk_never_writes_is_named_in_the_refusal() {
        for bad in [
            "white",
            "red resignation",
            "draw sleep",
            "white  resignation",
            "",
        ] {
            assert_eq!(
                Decision::from_code(Some(bad)),
                Err(format!("unknown result {bad:?}")),
            );
        }
    }
}
