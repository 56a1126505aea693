//! The desk's procedures around a game, decided: entering the setups and starting the
//! clocks, the setup timer and the ruling when setup time runs out, the lots for the first
//! move, the reading timer of an adjudication, an arbiter's undo or correction (with a
//! reason), the director's void (with a reason), the confirmation of a result, a practice
//! table's removal. Each check answers `Ok` or the typed [`GameRefusal`] whose words the
//! desk shows; the store asks before it writes.

use super::{CorrectionError, Decision, GameMode, SheetEntryError};
use crate::rules::{BySide, Position, SetupError, SideSetup};
use crate::tournament::GameId;

/// What needs a reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReasonFor {
    Undo,
    Correction,
    Void,
    SetupRuling,
}

impl std::fmt::Display for ReasonFor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ReasonFor::Undo => "an undo",
            ReasonFor::Correction => "a correction",
            ReasonFor::Void => "voiding a game",
            ReasonFor::SetupRuling => "the ruling on the setup time",
        })
    }
}

/// Why the rules of the desk's procedures refuse a step of a game.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GameRefusal {
    #[error("{0} needs a reason")]
    NeedsReason(ReasonFor),
    #[error("game {0} has started: its setups are fixed")]
    SetupsFixed(GameId),
    #[error("game {0} has already started")]
    AlreadyStarted(GameId),
    #[error("both setups must be entered before the game starts")]
    SetupsMissing,
    #[error("{0}")]
    Setup(SetupError),
    #[error("there is no event to undo")]
    NothingToUndo,
    #[error("game {0} is void")]
    Void(GameId),
    #[error("game {0} has not started")]
    NotStarted(GameId),
    #[error("{0}")]
    Correction(CorrectionError),
    /// An event the rules refuse at this point of the game (its words are the rules').
    #[error("{0}")]
    Event(String),
    #[error("game {0} is not waiting for an adjudication")]
    NotWaiting(GameId),
    #[error("{0}")]
    Sheet(SheetEntryError),
    #[error("game {0} has no result to confirm")]
    NoResultToConfirm(GameId),
    #[error("game {0} is already void")]
    AlreadyVoid(GameId),
    #[error("game {0} has no record yet: its setups are not both entered")]
    NoRecordYet(GameId),
    #[error("game {0} is past its setups: no setup timer")]
    PastSetups(GameId),
    #[error("game {0} has started")]
    Started(GameId),
    #[error("the ruling on the setup time is recorded already")]
    RulingRecorded,
    #[error("game {0}'s setup timer has not started")]
    SetupTimerNotStarted(GameId),
    #[error("game {0} has started: too late for lots")]
    TooLateForLots(GameId),
    #[error("lots were drawn for game {0} already")]
    LotsDrawn(GameId),
    #[error("game {0} is not a practice table")]
    NotPractice(GameId),
    #[error("game {0} is removed already")]
    Removed(GameId),
}

/// A reason, or the refusal of a step that needs one.
pub fn reason_given(what: ReasonFor, reason: &str) -> Result<(), GameRefusal> {
    if reason.trim().is_empty() {
        return Err(GameRefusal::NeedsReason(what));
    }
    Ok(())
}

/// Whether a side's setup may be entered: until the game starts.
pub fn may_enter_setup(id: GameId, started: bool) -> Result<(), GameRefusal> {
    if started {
        return Err(GameRefusal::SetupsFixed(id));
    }
    Ok(())
}

/// Whether a game's clocks may start: once, and for a game the desk arbitrates, with both
/// setups entered and legal.
pub fn may_start(
    id: GameId,
    started: bool,
    mode: GameMode,
    setups: Option<BySide<SideSetup>>,
) -> Result<(), GameRefusal> {
    if started {
        return Err(GameRefusal::AlreadyStarted(id));
    }
    if mode == GameMode::Arbitrated {
        let setups = setups.ok_or(GameRefusal::SetupsMissing)?;
        Position::from_setups(&setups).map_err(GameRefusal::Setup)?;
    }
    Ok(())
}

/// Whether an event may be recorded in a game (a move, an end, a correction of the last
/// move): a game not void, whose clocks have started.
pub fn may_record(id: GameId, void: bool, started: bool) -> Result<(), GameRefusal> {
    if void {
        return Err(GameRefusal::Void(id));
    }
    if !started {
        return Err(GameRefusal::NotStarted(id));
    }
    Ok(())
}

/// Whether a game may be voided (and replayed): once.
pub fn may_void(id: GameId, void: bool) -> Result<(), GameRefusal> {
    if void {
        return Err(GameRefusal::AlreadyVoid(id));
    }
    Ok(())
}

/// The result an arbiter confirms: the game's, once decided (a game waiting for its
/// adjudication has none yet). Answers the decision's code, the words the audit log keeps.
pub fn result_to_confirm(id: GameId, decision: Decision) -> Result<String, GameRefusal> {
    match decision {
        Decision::Decided(_) => Ok(decision.code().unwrap_or_default()),
        Decision::Undecided | Decision::AdjudicationPending => {
            Err(GameRefusal::NoResultToConfirm(id))
        }
    }
}

/// Whether a table's setup timer may start: not once the game is past its setups.
pub fn may_start_setup_timer(id: GameId, started: bool, void: bool) -> Result<(), GameRefusal> {
    if started || void {
        return Err(GameRefusal::PastSetups(id));
    }
    Ok(())
}

/// Whether the ruling after setup time ran out may be recorded: before the game starts,
/// once, after the setup timer started (whose start is returned).
pub fn may_rule_on_setup(
    id: GameId,
    started: bool,
    ruled: bool,
    timer_started: Option<i64>,
) -> Result<i64, GameRefusal> {
    if started {
        return Err(GameRefusal::Started(id));
    }
    if ruled {
        return Err(GameRefusal::RulingRecorded);
    }
    timer_started.ok_or(GameRefusal::SetupTimerNotStarted(id))
}

/// Whether lots may be drawn for the first move: once, before the clocks start.
pub fn may_draw_lots(
    id: GameId,
    started: bool,
    void: bool,
    drawn: bool,
) -> Result<(), GameRefusal> {
    if started || void {
        return Err(GameRefusal::TooLateForLots(id));
    }
    if drawn {
        return Err(GameRefusal::LotsDrawn(id));
    }
    Ok(())
}

/// Whether a table may be removed from the desk as a practice table: a game of no round,
/// not an imported record, not removed already.
pub fn may_remove_practice(
    id: GameId,
    in_round: bool,
    imported: bool,
    void: bool,
) -> Result<(), GameRefusal> {
    if in_round || imported {
        return Err(GameRefusal::NotPractice(id));
    }
    if void {
        return Err(GameRefusal::Removed(id));
    }
    Ok(())
}

/// A reading sheet's refusal, for game `id`.
pub fn sheet_refusal(id: GameId, e: SheetEntryError) -> GameRefusal {
    match e {
        SheetEntryError::NotWaiting => GameRefusal::NotWaiting(id),
        other => GameRefusal::Sheet(other),
    }
}
