//! What the desk keeps of an event, as typed values: the rows a store reads into an
//! [`EventRecord`] and writes back as the [`Edit`](super::Edit)s the event decides. Nothing
//! here checks anything: [`Event::new`](super::Event::new) replays a record and refuses one
//! that does not make an event.

use crate::rules::RuleSettings;
use crate::rules::clock::NS_PER_S;
use crate::stages::{GroupId, MatchId, StageSpec};
use crate::tournament::{
    BoardNo, Game, GameId, GameResult, PenaltyId, Player, PlayerId, PointsScale, RegistryId,
    RoundNo, Score, StageNo, System, TableNo, TieBreak,
};

use super::lifecycle::RoundState;

/// Everything the director sets for a tournament of one system, and the name, points and
/// game rules of an event of stages (whose stages hold its system, rounds and tie-breaks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSetup {
    pub name: String,
    pub system: System,
    /// `None`: one full cycle of a round robin.
    pub rounds: Option<u32>,
    pub points: PointsScale,
    pub tiebreaks: Vec<TieBreak>,
    /// The GGF rule settings of the games, with the desk's setup, reading and grace timers
    /// (whole seconds).
    pub rules: RuleSettings,
}

impl Default for TournamentSetup {
    /// A 5-round Swiss with the usual GG points, the spec's tie-breaks and the GGF rules.
    fn default() -> Self {
        TournamentSetup {
            name: String::new(),
            system: System::Swiss,
            rounds: Some(5),
            points: PointsScale::default(),
            tiebreaks: TieBreak::default_order(),
            rules: RuleSettings::default(),
        }
    }
}

impl TournamentSetup {
    /// The core model's settings (without the forbidden pairs).
    pub fn settings(&self) -> crate::tournament::Settings {
        crate::tournament::Settings {
            system: self.system,
            rounds: self.rounds,
            points: self.points,
            tiebreaks: self.tiebreaks.clone(),
            forbidden: Vec::new(),
        }
    }

    /// The settings an event of stages keeps beside its stages: its own name, points and
    /// rules; a round robin of one cycle and no tie-breaks in the columns its stages hold.
    pub fn for_stages(&self) -> TournamentSetup {
        TournamentSetup {
            system: System::RoundRobin,
            rounds: None,
            tiebreaks: Vec::new(),
            ..self.clone()
        }
    }

    /// The grace period in whole milliseconds.
    pub fn grace_ms(&self) -> i64 {
        self.rules.grace_ns / (NS_PER_S / 1000)
    }
}

/// How an event is played: one system over its rounds (`ggdesk-tournament/1`), or stages
/// (`ggdesk-tournament/2`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Format {
    /// The setup's system, rounds and tie-breaks.
    OneSystem,
    Stages(Vec<StageSpec>),
}

/// A player of the event as registered.
#[derive(Debug, Clone, PartialEq)]
pub struct Entrant {
    /// Name, rating, club and federation id as they stood for this event; the file's extra
    /// keys; withdrawn or not.
    pub player: Player,
    /// The registry player behind the registration.
    pub registry: RegistryId,
    /// The first round the player could be paired in (a late entry is absent before it).
    pub entry_round: RoundNo,
    /// Banned in the registry (a banned player cannot be registered, re-enter or be
    /// paired).
    pub banned: bool,
}

/// What a round holds: a round of its stage, or playoff games at its stage's cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundKind {
    Round,
    Playoff,
}

impl RoundKind {
    /// The code the store writes.
    pub fn code(self) -> &'static str {
        match self {
            RoundKind::Round => "round",
            RoundKind::Playoff => "playoff",
        }
    }

    pub fn from_code(code: &str) -> Option<RoundKind> {
        match code {
            "round" => Some(RoundKind::Round),
            "playoff" => Some(RoundKind::Playoff),
            _ => None,
        }
    }
}

/// One board of a round as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRecord {
    /// Its place in the round (the key for its result and for swaps).
    pub board: BoardNo,
    /// The table it is played at; a file may leave it out (`table_given` false, the table
    /// is then the board's place) or give two boards one table.
    pub table: TableNo,
    pub table_given: bool,
    pub white: PlayerId,
    pub black: PlayerId,
    pub result: GameResult,
    /// Why the board is what it is: the pairing's words, or the change made by hand.
    pub explanation: String,
    /// Its group (a grouped round robin and its playoffs) or match (a knockout).
    pub group: Option<GroupId>,
    pub series: Option<MatchId>,
}

impl BoardRecord {
    /// The board as a game of its tournament's rounds (its table when the desk or the file
    /// gave one).
    pub fn game(&self) -> Game {
        Game {
            table: self.table_given.then_some(self.table.0),
            white: self.white,
            black: self.black,
            result: self.result,
        }
    }
}

/// A bye of a round, with the pairing's reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByeRecord {
    pub player: PlayerId,
    pub explanation: String,
}

/// A round as kept: drafted, published or complete, in its stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRecord {
    /// Numbered on across the stages: the tables, games and the audit log know no other.
    pub number: RoundNo,
    pub stage: StageNo,
    pub kind: RoundKind,
    pub state: RoundState,
    /// The official start (Unix ms), from which the grace period runs.
    pub starts_at: Option<i64>,
    pub published_at: Option<i64>,
    /// What the pairing said about the round as a whole.
    pub explanation: String,
    pub boards: Vec<BoardRecord>,
    pub byes: Vec<ByeRecord>,
}

impl RoundRecord {
    /// The boards still without a result.
    pub fn pending(&self) -> u32 {
        let n = self
            .boards
            .iter()
            .filter(|b| b.result == GameResult::Pending)
            .count();
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    pub fn board(&self, board: BoardNo) -> Option<&BoardRecord> {
        self.boards.iter().find(|b| b.board == board)
    }
}

/// A player's absence from a round: asked for it before it was paired, a late entry's
/// earlier rounds, or as a file lists them. The round may not exist yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Absence {
    pub round: RoundNo,
    pub player: PlayerId,
    pub reason: String,
}

/// A point deduction, in the stage it counts in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PenaltyRecord {
    pub id: PenaltyId,
    pub stage: StageNo,
    pub player: PlayerId,
    pub points: Score,
    pub reason: String,
    pub decided_at: i64,
}

/// Where a game at the desk stands, as far as its round's board is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeskOutcome {
    /// Being set up or played.
    Undecided,
    /// Game time ran out: the reading sheets are awaited.
    AdjudicationPending,
    /// Its result is in (and on its board).
    Decided,
}

/// A live (not void) game at the desk, at a table of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeskGame {
    pub id: GameId,
    pub round: RoundNo,
    pub table: TableNo,
    /// Its clocks have started (both players came).
    pub started: bool,
    pub outcome: DeskOutcome,
}

/// Everything the desk keeps of an event, unchecked.
#[derive(Debug, Clone, PartialEq)]
pub struct EventRecord {
    pub setup: TournamentSetup,
    pub format: Format,
    /// Pairs who must never meet, each with the lower number first.
    pub forbidden: Vec<(PlayerId, PlayerId)>,
    /// In the order of the players list (a file's order, else by number).
    pub entrants: Vec<Entrant>,
    /// Every round, drafts included, in number order.
    pub rounds: Vec<RoundRecord>,
    /// In the order the rounds list their absent players.
    pub absences: Vec<Absence>,
    /// In the order they were decided.
    pub penalties: Vec<PenaltyRecord>,
    /// The live games at the desk's tables, oldest first.
    pub desk: Vec<DeskGame>,
}

impl EventRecord {
    /// The players absent from round `n`, in the order kept.
    pub fn absent_in(&self, n: RoundNo) -> Vec<PlayerId> {
        self.absences
            .iter()
            .filter(|a| a.round == n)
            .map(|a| a.player)
            .collect()
    }
}
