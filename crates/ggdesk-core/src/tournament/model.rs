//! The tournament itself: players, settings, rounds, results and penalties, kept valid by
//! every method that changes them.

use crate::rules::Side;
use crate::tournament::Score;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// The largest number of points an outcome or a penalty may be worth. It keeps every sum in
/// a tournament far from overflow.
pub const MAX_POINTS: i64 = 1_000_000;

/// A player's id: a positive integer, unique in the tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerId(pub u32);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// How the rounds are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum System {
    Swiss,
    RoundRobin,
}

impl System {
    pub fn name(self) -> &'static str {
        match self {
            System::Swiss => "swiss",
            System::RoundRobin => "round_robin",
        }
    }

    pub fn from_name(name: &str) -> Option<System> {
        match name {
            "swiss" => Some(System::Swiss),
            "round_robin" => Some(System::RoundRobin),
            _ => None,
        }
    }
}

/// What each outcome is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PointsScale {
    pub win: Score,
    pub draw: Score,
    pub loss: Score,
    pub bye: Score,
    pub forfeit_win: Score,
    pub forfeit_loss: Score,
    pub absent: Score,
}

impl Default for PointsScale {
    /// The usual GG scale: win 2, draw 1, loss 0, bye 2, forfeit win 2.
    fn default() -> PointsScale {
        PointsScale {
            win: Score::from_points(2),
            draw: Score::from_points(1),
            loss: Score::ZERO,
            bye: Score::from_points(2),
            forfeit_win: Score::from_points(2),
            forfeit_loss: Score::ZERO,
            absent: Score::ZERO,
        }
    }
}

impl PointsScale {
    /// The keys of the file's `settings.points`, in the order the file writes them.
    pub const KEYS: [&'static str; 7] = [
        "win",
        "draw",
        "loss",
        "bye",
        "forfeit_win",
        "forfeit_loss",
        "absent",
    ];

    /// The value of one of [`PointsScale::KEYS`].
    pub fn get(&self, key: &str) -> Option<Score> {
        Some(match key {
            "win" => self.win,
            "draw" => self.draw,
            "loss" => self.loss,
            "bye" => self.bye,
            "forfeit_win" => self.forfeit_win,
            "forfeit_loss" => self.forfeit_loss,
            "absent" => self.absent,
            _ => return None,
        })
    }

    /// Sets one of [`PointsScale::KEYS`]; false for an unknown key.
    pub fn set(&mut self, key: &str, value: Score) -> bool {
        let slot = match key {
            "win" => &mut self.win,
            "draw" => &mut self.draw,
            "loss" => &mut self.loss,
            "bye" => &mut self.bye,
            "forfeit_win" => &mut self.forfeit_win,
            "forfeit_loss" => &mut self.forfeit_loss,
            "absent" => &mut self.absent,
            _ => return false,
        };
        *slot = value;
        true
    }

    /// What a player's round is worth.
    pub fn points(&self, entry: &Entry) -> Score {
        match entry {
            Entry::Game { outcome, .. } => match outcome {
                GameOutcome::Win => self.win,
                GameOutcome::Draw => self.draw,
                GameOutcome::Loss => self.loss,
                GameOutcome::ForfeitWin => self.forfeit_win,
                GameOutcome::ForfeitLoss | GameOutcome::DoubleForfeit => self.forfeit_loss,
                GameOutcome::Pending => Score::ZERO,
            },
            Entry::Bye => self.bye,
            Entry::Absent => self.absent,
        }
    }
}

/// A tie-break, in the spec's words (see `tournament::standings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TieBreak {
    DirectEncounter,
    Buchholz,
    BuchholzCut1,
    MedianBuchholz,
    SonnebornBerger,
    Progressive,
    Wins,
    /// Minus the player's forfeit wins (`spec/stages.md`): a player without a default win
    /// ranks ahead, as in the Generals League.
    FewestForfeitWins,
}

impl TieBreak {
    pub const ALL: [TieBreak; 8] = [
        TieBreak::DirectEncounter,
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
        TieBreak::MedianBuchholz,
        TieBreak::SonnebornBerger,
        TieBreak::Progressive,
        TieBreak::Wins,
        TieBreak::FewestForfeitWins,
    ];

    /// The name used in the file, the JSON keys and the CSV header.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::DirectEncounter => "direct_encounter",
            TieBreak::Buchholz => "buchholz",
            TieBreak::BuchholzCut1 => "buchholz_cut1",
            TieBreak::MedianBuchholz => "median_buchholz",
            TieBreak::SonnebornBerger => "sonneborn_berger",
            TieBreak::Progressive => "progressive",
            TieBreak::Wins => "wins",
            TieBreak::FewestForfeitWins => "fewest_forfeit_wins",
        }
    }

    pub fn from_name(name: &str) -> Option<TieBreak> {
        TieBreak::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The spec's default order.
    pub fn default_order() -> Vec<TieBreak> {
        vec![
            TieBreak::DirectEncounter,
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
        ]
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the tournament is run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub system: System,
    /// How many rounds the event has. `None` in a round robin means one full cycle; in a
    /// Swiss built through the API it means no limit (the file always gives one).
    pub rounds: Option<u32>,
    pub points: PointsScale,
    pub tiebreaks: Vec<TieBreak>,
    /// Pairs that must never be paired, as given (each pair once).
    pub forbidden: Vec<(PlayerId, PlayerId)>,
}

impl Settings {
    /// A Swiss of `rounds` rounds with the default points and tie-breaks.
    pub fn swiss(rounds: u32) -> Settings {
        Settings {
            system: System::Swiss,
            rounds: Some(rounds),
            points: PointsScale::default(),
            tiebreaks: TieBreak::default_order(),
            forbidden: Vec::new(),
        }
    }

    /// A single round robin with the default points and tie-breaks.
    pub fn round_robin() -> Settings {
        Settings {
            system: System::RoundRobin,
            rounds: None,
            ..Settings::swiss(0)
        }
    }
}

/// A registered player.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    pub rating: i64,
    pub club: Option<String>,
    pub federation_id: Option<String>,
    /// Not paired from the next round on.
    pub withdrawn: bool,
    /// Keys of the file's player object that ggdesk does not use, kept for the round trip.
    pub extra: Map<String, Value>,
}

impl Player {
    pub fn new(id: PlayerId, name: impl Into<String>, rating: i64) -> Player {
        Player {
            id,
            name: name.into(),
            rating,
            club: None,
            federation_id: None,
            withdrawn: false,
            extra: Map::new(),
        }
    }
}

/// The result of one game, as the file writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won over the board (`white`).
    WhiteWins,
    /// Black won over the board (`black`).
    BlackWins,
    /// Drawn over the board (`draw`).
    Draw,
    /// White wins, Black did not play (`white_forfeit`).
    WhiteWinsByForfeit,
    /// Black wins, White did not play (`black_forfeit`).
    BlackWinsByForfeit,
    /// Neither played; both lose (`double_forfeit`).
    DoubleForfeit,
    /// Not decided yet (`pending`).
    Pending,
}

impl GameResult {
    pub const ALL: [GameResult; 7] = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::WhiteWinsByForfeit,
        GameResult::BlackWinsByForfeit,
        GameResult::DoubleForfeit,
        GameResult::Pending,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "white",
            GameResult::BlackWins => "black",
            GameResult::Draw => "draw",
            GameResult::WhiteWinsByForfeit => "white_forfeit",
            GameResult::BlackWinsByForfeit => "black_forfeit",
            GameResult::DoubleForfeit => "double_forfeit",
            GameResult::Pending => "pending",
        }
    }

    pub fn from_name(name: &str) -> Option<GameResult> {
        GameResult::ALL.into_iter().find(|r| r.name() == name)
    }

    /// What the game means for the player of `side`.
    pub fn outcome_for(self, side: Side) -> GameOutcome {
        use GameOutcome as O;
        let (white, black) = match self {
            GameResult::WhiteWins => (O::Win, O::Loss),
            GameResult::BlackWins => (O::Loss, O::Win),
            GameResult::Draw => (O::Draw, O::Draw),
            GameResult::WhiteWinsByForfeit => (O::ForfeitWin, O::ForfeitLoss),
            GameResult::BlackWinsByForfeit => (O::ForfeitLoss, O::ForfeitWin),
            GameResult::DoubleForfeit => (O::DoubleForfeit, O::DoubleForfeit),
            GameResult::Pending => (O::Pending, O::Pending),
        };
        match side {
            Side::White => white,
            Side::Black => black,
        }
    }

    /// Whether the game was played over the board (a win, loss or draw).
    pub fn is_played(self) -> bool {
        matches!(
            self,
            GameResult::WhiteWins | GameResult::BlackWins | GameResult::Draw
        )
    }
}

/// One game of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Game {
    pub table: Option<u32>,
    pub white: PlayerId,
    pub black: PlayerId,
    pub result: GameResult,
}

impl Game {
    /// A game not played yet.
    pub fn pending(table: Option<u32>, white: PlayerId, black: PlayerId) -> Game {
        Game {
            table,
            white,
            black,
            result: GameResult::Pending,
        }
    }
}

/// A round played or in play.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Round {
    pub games: Vec<Game>,
    /// Players given a bye by the pairing.
    pub byes: Vec<PlayerId>,
    /// Players not paired this round, by request or late entry. Anyone not mentioned in a
    /// round counts as absent too; this list only records it explicitly.
    pub absent: Vec<PlayerId>,
}

impl Round {
    /// Complete when no game is pending.
    pub fn is_complete(&self) -> bool {
        self.games.iter().all(|g| g.result != GameResult::Pending)
    }
}

/// A point deduction decided by the director.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Penalty {
    pub player: PlayerId,
    pub points: Score,
    pub reason: String,
}

/// What one round was for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entry {
    Game {
        opponent: PlayerId,
        colour: Side,
        outcome: GameOutcome,
    },
    Bye,
    /// Absent by request, not yet entered, withdrawn, or simply not mentioned.
    Absent,
}

/// What a game was for one of its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameOutcome {
    Win,
    Loss,
    Draw,
    ForfeitWin,
    ForfeitLoss,
    DoubleForfeit,
    Pending,
}

impl GameOutcome {
    /// Whether the game was played over the board.
    pub fn is_played(self) -> bool {
        matches!(
            self,
            GameOutcome::Win | GameOutcome::Loss | GameOutcome::Draw
        )
    }
}

/// Where in a round a fault is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundPart {
    Round,
    Game(usize),
    Bye(usize),
    Absent(usize),
}

impl fmt::Display for RoundPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundPart::Round => Ok(()),
            RoundPart::Game(i) => write!(f, ".games[{i}]"),
            RoundPart::Bye(i) => write!(f, ".byes[{i}]"),
            RoundPart::Absent(i) => write!(f, ".absent[{i}]"),
        }
    }
}

/// Why a change to a tournament was refused. The tournament is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("player ids must be positive integers, not 0")]
    ZeroId,
    #[error("duplicate player id {0}")]
    DuplicatePlayer(PlayerId),
    #[error("unknown player id {0}")]
    UnknownPlayer(PlayerId),
    #[error("player {0} cannot be paired with themself")]
    SamePlayer(PlayerId),
    #[error("player {0} appears twice in the round")]
    TwiceInRound(PlayerId),
    #[error("a Swiss round has at most one bye, this one has {0}")]
    TooManyByes(usize),
    #[error("{what} must be a multiple of 0.5 between 0 and {MAX_POINTS}, not {value}")]
    PointsOutOfRange { what: &'static str, value: Score },
    #[error("a tie-break may be listed only once: {0}")]
    DuplicateTieBreak(TieBreak),
    #[error("rounds must be at least 1")]
    NoRounds,
    #[error("round {round}{part}: {error}")]
    InRound {
        round: usize,
        part: RoundPart,
        error: Box<TournamentError>,
    },
    #[error("there is no round {0}")]
    NoSuchRound(usize),
    #[error("round {round} has no game {game}")]
    NoSuchGame { round: usize, game: usize },
    #[error("player {player} is already in round {round}")]
    AlreadyInRound { player: PlayerId, round: usize },
}

/// A tournament: always valid, whatever sequence of calls built it.
#[derive(Debug, Clone, PartialEq)]
pub struct Tournament {
    name: String,
    settings: Settings,
    players: Vec<Player>,
    index: HashMap<PlayerId, usize>,
    rounds: Vec<Round>,
    penalties: Vec<Penalty>,
}

fn check_points(what: &'static str, value: Score) -> Result<(), TournamentError> {
    if value < Score::ZERO || value > Score::from_points(MAX_POINTS) {
        return Err(TournamentError::PointsOutOfRange { what, value });
    }
    Ok(())
}

impl Tournament {
    /// A tournament without players or rounds. The settings are checked, except the
    /// forbidden pairs, which are checked as players are added (see
    /// [`Tournament::add_forbidden_pair`]); pass them empty here.
    pub fn new(name: impl Into<String>, settings: Settings) -> Result<Tournament, TournamentError> {
        let mut t = Tournament {
            name: name.into(),
            settings: Settings {
                forbidden: Vec::new(),
                ..settings.clone()
            },
            players: Vec::new(),
            index: HashMap::new(),
            rounds: Vec::new(),
            penalties: Vec::new(),
        };
        t.set_settings(settings)?;
        Ok(t)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Replaces the settings, checking points, tie-breaks, the number of rounds and the
    /// forbidden pairs against the players.
    pub fn set_settings(&mut self, settings: Settings) -> Result<(), TournamentError> {
        for key in PointsScale::KEYS {
            if let Some(v) = settings.points.get(key) {
                check_points(key, v)?;
            }
        }
        let mut seen = HashSet::new();
        for t in &settings.tiebreaks {
            if !seen.insert(*t) {
                return Err(TournamentError::DuplicateTieBreak(*t));
            }
        }
        if settings.rounds == Some(0) {
            return Err(TournamentError::NoRounds);
        }
        for &(a, b) in &settings.forbidden {
            self.check_pair(a, b)?;
        }
        self.settings = settings;
        Ok(())
    }

    fn check_pair(&self, a: PlayerId, b: PlayerId) -> Result<(), TournamentError> {
        for id in [a, b] {
            if !self.index.contains_key(&id) {
                return Err(TournamentError::UnknownPlayer(id));
            }
        }
        if a == b {
            return Err(TournamentError::SamePlayer(a));
        }
        Ok(())
    }

    /// Forbids pairing `a` with `b` (relatives, teammates). Forbidding a pair twice is
    /// harmless.
    pub fn add_forbidden_pair(&mut self, a: PlayerId, b: PlayerId) -> Result<(), TournamentError> {
        self.check_pair(a, b)?;
        if !self.is_forbidden(a, b) {
            self.settings.forbidden.push((a, b));
        }
        Ok(())
    }

    pub fn is_forbidden(&self, a: PlayerId, b: PlayerId) -> bool {
        self.settings
            .forbidden
            .iter()
            .any(|&(x, y)| (x == a && y == b) || (x == b && y == a))
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.index.get(&id).map(|&i| &self.players[i])
    }

    /// The position of a player in [`Tournament::players`].
    pub fn player_index(&self, id: PlayerId) -> Option<usize> {
        self.index.get(&id).copied()
    }

    /// Registers a player. Added after rounds were played, the player is a late entry:
    /// absent (scoring `points.absent`) in every earlier round.
    pub fn add_player(&mut self, player: Player) -> Result<(), TournamentError> {
        if player.id.0 == 0 {
            return Err(TournamentError::ZeroId);
        }
        if self.index.contains_key(&player.id) {
            return Err(TournamentError::DuplicatePlayer(player.id));
        }
        self.index.insert(player.id, self.players.len());
        self.players.push(player);
        Ok(())
    }

    /// The smallest id above every id in use.
    pub fn next_player_id(&self) -> PlayerId {
        PlayerId(
            self.players
                .iter()
                .map(|p| p.id.0)
                .max()
                .unwrap_or(0)
                .saturating_add(1),
        )
    }

    /// Changes a player's name, rating, club, federation id or extra keys (the id stays).
    pub fn update_player(
        &mut self,
        id: PlayerId,
        change: impl FnOnce(&mut Player),
    ) -> Result<(), TournamentError> {
        let i = *self
            .index
            .get(&id)
            .ok_or(TournamentError::UnknownPlayer(id))?;
        let mut player = self.players[i].clone();
        change(&mut player);
        player.id = id;
        self.players[i] = player;
        Ok(())
    }

    /// Withdraws a player (or takes them back, with `false`): a withdrawn player is not
    /// paired from the next round on.
    pub fn set_withdrawn(&mut self, id: PlayerId, withdrawn: bool) -> Result<(), TournamentError> {
        self.update_player(id, |p| p.withdrawn = withdrawn)
    }

    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// Round `number`, counting from 1.
    pub fn round(&self, number: usize) -> Option<&Round> {
        number.checked_sub(1).and_then(|i| self.rounds.get(i))
    }

    /// How many rounds the event has: `settings.rounds`, or for a round robin without it
    /// one full cycle (n − 1 rounds, n with an odd number of players). `None` for a Swiss
    /// built without a number of rounds.
    pub fn planned_rounds(&self) -> Option<u32> {
        match (self.settings.rounds, self.settings.system) {
            (Some(n), _) => Some(n),
            (None, System::RoundRobin) => {
                let n = u32::try_from(self.players.len()).unwrap_or(u32::MAX);
                Some(if n % 2 == 0 { n.saturating_sub(1) } else { n })
            }
            (None, System::Swiss) => None,
        }
    }

    /// Whether round `number` exists and none of its games is pending.
    pub fn is_round_complete(&self, number: usize) -> bool {
        self.round(number).is_some_and(Round::is_complete)
    }

    /// The number of leading rounds that are complete.
    pub fn completed_rounds(&self) -> usize {
        self.rounds
            .iter()
            .position(|r| !r.is_complete())
            .unwrap_or(self.rounds.len())
    }

    /// Checks a round against the players and the rules of the file.
    pub fn check_round(&self, round: &Round) -> Result<(), (RoundPart, TournamentError)> {
        let mut seen = HashSet::new();
        let mut mention = |id: PlayerId, part: RoundPart| {
            if !self.index.contains_key(&id) {
                return Err((part, TournamentError::UnknownPlayer(id)));
            }
            if !seen.insert(id) {
                return Err((part, TournamentError::TwiceInRound(id)));
            }
            Ok(())
        };
        for (i, g) in round.games.iter().enumerate() {
            let part = RoundPart::Game(i);
            if g.white == g.black && self.index.contains_key(&g.white) {
                return Err((part, TournamentError::SamePlayer(g.white)));
            }
            mention(g.white, part)?;
            mention(g.black, part)?;
        }
        for (i, &id) in round.byes.iter().enumerate() {
            mention(id, RoundPart::Bye(i))?;
        }
        for (i, &id) in round.absent.iter().enumerate() {
            mention(id, RoundPart::Absent(i))?;
        }
        if self.settings.system == System::Swiss && round.byes.len() > 1 {
            return Err((
                RoundPart::Round,
                TournamentError::TooManyByes(round.byes.len()),
            ));
        }
        Ok(())
    }

    /// Appends a round (games, byes, absences), checked as the file is. More rounds than
    /// planned are accepted (the director may extend an event); the pairing refuses to pair
    /// beyond [`Tournament::planned_rounds`].
    pub fn add_round(&mut self, round: Round) -> Result<(), TournamentError> {
        let number = self.rounds.len() + 1;
        self.check_round(&round)
            .map_err(|(part, error)| TournamentError::InRound {
                round: number,
                part,
                error: Box::new(error),
            })?;
        self.rounds.push(round);
        Ok(())
    }

    /// Removes the last round (to undo a pairing) and returns it.
    pub fn remove_last_round(&mut self) -> Option<Round> {
        self.rounds.pop()
    }

    /// Sets the result of game `game` (its index in the round, from 0) of round `round`.
    pub fn set_result(
        &mut self,
        round: usize,
        game: usize,
        result: GameResult,
    ) -> Result<(), TournamentError> {
        let r = round
            .checked_sub(1)
            .and_then(|i| self.rounds.get_mut(i))
            .ok_or(TournamentError::NoSuchRound(round))?;
        let g = r
            .games
            .get_mut(game)
            .ok_or(TournamentError::NoSuchGame { round, game })?;
        g.result = result;
        Ok(())
    }

    /// Records a player as absent in an existing round (by request, or a late entry).
    pub fn set_absent(&mut self, round: usize, id: PlayerId) -> Result<(), TournamentError> {
        if !self.index.contains_key(&id) {
            return Err(TournamentError::UnknownPlayer(id));
        }
        let r = round
            .checked_sub(1)
            .and_then(|i| self.rounds.get_mut(i))
            .ok_or(TournamentError::NoSuchRound(round))?;
        let mentioned = r.games.iter().any(|g| g.white == id || g.black == id)
            || r.byes.contains(&id)
            || r.absent.contains(&id);
        if mentioned {
            return Err(TournamentError::AlreadyInRound { player: id, round });
        }
        r.absent.push(id);
        Ok(())
    }

    pub fn penalties(&self) -> &[Penalty] {
        &self.penalties
    }

    /// Records a point deduction.
    pub fn add_penalty(&mut self, penalty: Penalty) -> Result<(), TournamentError> {
        if !self.index.contains_key(&penalty.player) {
            return Err(TournamentError::UnknownPlayer(penalty.player));
        }
        check_points("a penalty", penalty.points)?;
        self.penalties.push(penalty);
        Ok(())
    }

    /// What round `round` (from 1) was for a player; `None` for an unknown player or round.
    pub fn entry(&self, id: PlayerId, round: usize) -> Option<Entry> {
        if !self.index.contains_key(&id) {
            return None;
        }
        Some(entry_in(self.round(round)?, id))
    }

    /// Every player's entries for rounds 1..=`after_round`, indexed like
    /// [`Tournament::players`]. Linear in the size of the tournament.
    pub fn entries(&self, after_round: usize) -> Vec<Vec<Entry>> {
        let n = after_round.min(self.rounds.len());
        let mut table = vec![vec![Entry::Absent; n]; self.players.len()];
        for (r, round) in self.rounds.iter().take(n).enumerate() {
            for g in &round.games {
                for (side, id, opp) in [
                    (Side::White, g.white, g.black),
                    (Side::Black, g.black, g.white),
                ] {
                    if let Some(&i) = self.index.get(&id) {
                        table[i][r] = Entry::Game {
                            opponent: opp,
                            colour: side,
                            outcome: g.result.outcome_for(side),
                        };
                    }
                }
            }
            for id in &round.byes {
                if let Some(&i) = self.index.get(id) {
                    table[i][r] = Entry::Bye;
                }
            }
        }
        table
    }

    /// The total of a player's penalties.
    pub fn penalty_total(&self, id: PlayerId) -> Score {
        self.penalties
            .iter()
            .filter(|p| p.player == id)
            .map(|p| p.points)
            .sum()
    }

    /// A player's score counting rounds 1..=`after_round`, penalties included (every
    /// penalty counts, whenever it was given). `None` for an unknown player.
    pub fn score(&self, id: PlayerId, after_round: usize) -> Option<Score> {
        self.index.get(&id)?;
        let n = after_round.min(self.rounds.len());
        let points = &self.settings.points;
        let total: Score = self.rounds[..n]
            .iter()
            .map(|r| points.points(&entry_in(r, id)))
            .sum();
        Some(total - self.penalty_total(id))
    }

    /// Every player's score counting rounds 1..=`after_round`, penalties included, indexed
    /// like [`Tournament::players`].
    pub fn scores(&self, after_round: usize) -> Vec<Score> {
        let points = &self.settings.points;
        let mut scores: Vec<Score> = self
            .entries(after_round)
            .iter()
            .map(|row| row.iter().map(|e| points.points(e)).sum())
            .collect();
        for p in &self.penalties {
            if let Some(&i) = self.index.get(&p.player) {
                scores[i] -= p.points;
            }
        }
        scores
    }

    /// Whether `a` and `b` have a game in any round (played, forfeited or pending).
    pub fn has_met(&self, a: PlayerId, b: PlayerId) -> bool {
        self.rounds.iter().any(|r| {
            r.games
                .iter()
                .any(|g| (g.white == a && g.black == b) || (g.white == b && g.black == a))
        })
    }

    /// Whether a player was given a bye in any round.
    pub fn had_bye(&self, id: PlayerId) -> bool {
        self.rounds.iter().any(|r| r.byes.contains(&id))
    }

    /// Whether a player has won a game by forfeit in any round.
    pub fn has_forfeit_win(&self, id: PlayerId) -> bool {
        self.rounds.iter().any(|r| {
            r.games.iter().any(|g| {
                (g.white == id && g.result == GameResult::WhiteWinsByForfeit)
                    || (g.black == id && g.result == GameResult::BlackWinsByForfeit)
            })
        })
    }
}

/// What a round was for a player.
fn entry_in(round: &Round, id: PlayerId) -> Entry {
    for g in &round.games {
        if g.white == id {
            return Entry::Game {
                opponent: g.black,
                colour: Side::White,
                outcome: g.result.outcome_for(Side::White),
            };
        }
        if g.black == id {
            return Entry::Game {
                opponent: g.white,
                colour: Side::Black,
                outcome: g.result.outcome_for(Side::Black),
            };
        }
    }
    if round.byes.contains(&id) {
        Entry::Bye
    } else {
        Entry::Absent
    }
}
