//! What the desk, the prints and the public pages show of an event, answered once: a
//! round with its boards and each board's status, what comes next, the points before a
//! round, who is out of the event, a round's place in words.

use super::lifecycle::{NextRound, RoundState, next_round};
use super::model::{Event, Played, RoundPlace};
use super::record::{DeskGame, DeskOutcome};
use super::steps::forced;
use super::words::{bracket_round_title, bracket_rounds, place_words, series_note, stage_name};
use crate::stages::{GroupId, MatchId, NextStep, StepRefusal};
use crate::tournament::{BoardNo, GameId, GameResult, PlayerId, RoundNo, Score, StageNo, TableNo};
use std::collections::HashMap;

/// A player as seated at a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seated {
    pub no: PlayerId,
    pub name: String,
    pub rating: i64,
}

/// Where a board of a published round stands, as the director sees it at a glance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardStatus {
    /// The result is in.
    Finished,
    /// A game is at the desk, its setups being entered: the clocks have not started.
    SettingUp,
    /// A game is under way at the desk: its clocks run.
    Playing,
    /// Game time ran out at the desk: the reading sheets are awaited.
    Adjudication,
    /// No result and no game running at the desk: played on a board the desk does not
    /// follow, or not started.
    AwaitingResult,
}

impl BoardStatus {
    /// The one rule of a board's status: its result, else its game at the desk.
    pub fn of(result: GameResult, game: Option<&DeskGame>) -> BoardStatus {
        match (result, game) {
            (r, _) if r != GameResult::Pending => BoardStatus::Finished,
            (_, Some(g)) if g.outcome == DeskOutcome::AdjudicationPending => {
                BoardStatus::Adjudication
            }
            (_, Some(g)) if g.outcome == DeskOutcome::Undecided && !g.started => {
                BoardStatus::SettingUp
            }
            (_, Some(g)) if g.outcome == DeskOutcome::Undecided => BoardStatus::Playing,
            _ => BoardStatus::AwaitingResult,
        }
    }
}

/// One board of a round with everything the Rounds page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// The board's place in the round (the key for results and swaps).
    pub board: BoardNo,
    pub table: TableNo,
    pub white: Seated,
    pub black: Seated,
    pub result: GameResult,
    /// Why the board is what it is (the pairing's words, or the manual change).
    pub explanation: String,
    pub status: BoardStatus,
    /// The live (not void) desk game of the table, if any.
    pub game: Option<GameId>,
    /// In an event of stages: the board's group (a grouped round robin, its playoffs).
    pub group: Option<GroupId>,
    /// In an event of stages: the board's match (a knockout).
    pub series: Option<MatchId>,
}

/// A knockout board's match as the Rounds page shows it, White's side first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardSeries {
    pub id: MatchId,
    /// The players' seeds in the knockout (White, Black).
    pub seeds: [Option<u32>; 2],
    /// The series score (won games, or points in a race), White's then Black's.
    pub score: [Score; 2],
    /// Why an undecided series goes on when its score does not say (`4-4: …`).
    pub note: Option<String>,
}

/// A round as the Rounds page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundView {
    pub number: RoundNo,
    pub state: RoundState,
    /// The round's place in its event.
    pub place: RoundPlace,
    pub starts_at: Option<i64>,
    pub published_at: Option<i64>,
    /// What the pairing said about the whole round.
    pub explanation: String,
    /// In board order.
    pub boards: Vec<BoardView>,
    /// Players given the bye, with the pairing's reason, by number.
    pub byes: Vec<(Seated, String)>,
    /// Players recorded absent in the round (asked, late entry, or as a file listed them),
    /// by number.
    pub absent: Vec<Seated>,
}

impl RoundView {
    /// How many boards stand where: (finished, at the desk (setting up or playing),
    /// adjudication, awaiting result).
    pub fn counts(&self) -> [usize; 4] {
        let mut c = [0; 4];
        for b in &self.boards {
            c[match b.status {
                BoardStatus::Finished => 0,
                BoardStatus::SettingUp | BoardStatus::Playing => 1,
                BoardStatus::Adjudication => 2,
                BoardStatus::AwaitingResult => 3,
            }] += 1;
        }
        c
    }

    pub fn board(&self, board: BoardNo) -> Option<&BoardView> {
        self.boards.iter().find(|b| b.board == board)
    }
}

/// What the director does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextAction {
    /// Pair round `number` of the event as a draft: round `round` of stage `stage`.
    Pair {
        number: RoundNo,
        stage: StageNo,
        round: RoundNo,
    },
    /// The stage before is complete and its cut clear: round `number` seeds stage `stage`.
    /// `start`: a knockout's first games, started at once; else a draft.
    Seed {
        number: RoundNo,
        stage: StageNo,
        label: String,
        start: bool,
    },
    /// Games that leave nothing to decide, started in one action: the button's words.
    Start(String),
    /// The draft of this round waits: publish or discard it first.
    DraftWaiting(RoundNo),
    /// This round is in play: some of its results are not in.
    InPlay(RoundNo),
    /// Fewer than two players are registered.
    TooFewPlayers,
    /// Every round is played: the event is over.
    Over,
    /// Nothing can be paired yet: why.
    Wait(String),
}

/// What starting `step` at once starts, in words: `None` for a round to pair and look at.
fn games_words(event: &crate::stages::Event, step: &NextStep) -> Option<String> {
    match step {
        NextStep::Playoff { .. } => Some(format!(
            "Start the playoff games at stage {}'s cut",
            step.stage()
        )),
        NextStep::Round { .. } => {
            let spec = step
                .stage()
                .index()
                .and_then(|k| event.settings().stages.get(k))?;
            spec.format
                .is_knockout()
                .then(|| "Start the next games of the knockout".to_string())
        }
    }
}

impl Event {
    /// A player as seated (an unknown number shows no name).
    pub fn seated(&self, p: PlayerId) -> Seated {
        let e = self.entrant(p);
        Seated {
            no: p,
            name: e.map(|e| e.player.name.clone()).unwrap_or_default(),
            rating: e.map_or(0, |e| e.player.rating),
        }
    }

    /// Round `n` with its boards, byes and absences, and each board's status.
    pub fn round_view(&self, n: RoundNo) -> Option<RoundView> {
        let r = self.round(n)?;
        let boards = r
            .boards
            .iter()
            .map(|b| {
                let game = self.desk_game(n, b.table);
                BoardView {
                    board: b.board,
                    table: b.table,
                    white: self.seated(b.white),
                    black: self.seated(b.black),
                    result: b.result,
                    explanation: b.explanation.clone(),
                    status: BoardStatus::of(b.result, game),
                    game: game.map(|g| g.id),
                    group: b.group,
                    series: b.series,
                }
            })
            .collect();
        let mut byes: Vec<(Seated, String)> = r
            .byes
            .iter()
            .map(|b| (self.seated(b.player), b.explanation.clone()))
            .collect();
        byes.sort_by_key(|(p, _)| p.no);
        let mut absent: Vec<Seated> = self.absences(n).map(|a| self.seated(a.player)).collect();
        absent.sort_by_key(|p| p.no);
        Some(RoundView {
            number: n,
            state: r.state,
            place: self.place(n)?,
            starts_at: r.starts_at,
            published_at: r.published_at,
            explanation: r.explanation.clone(),
            boards,
            byes,
            absent,
        })
    }

    /// The boards of a round by table number (as the Tables page lists them).
    pub fn boards_by_table(&self, n: RoundNo) -> Vec<BoardView> {
        let mut boards = self.round_view(n).map(|v| v.boards).unwrap_or_default();
        boards.sort_by_key(|b| (b.table, b.board));
        boards
    }

    /// What the director does next.
    pub fn next_action(&self) -> NextAction {
        let Played::Stages(event) = &self.played else {
            return self.next_action_of_one_system();
        };
        let last = self.last_round();
        if let Some(r) = last.filter(|r| r.state == RoundState::Draft) {
            return NextAction::DraftWaiting(r.number);
        }
        let step = match event.next_step() {
            Ok(step) => step,
            Err(StepRefusal::Over) => return NextAction::Over,
            Err(e) => return NextAction::Wait(e.to_string()),
        };
        let number = RoundNo::from_index(self.rounds().len());
        let stage = step.stage();
        let start = forced(event, &step);
        if stage.0 > 1 && !self.rounds().iter().any(|r| r.stage == stage) {
            let name = stage
                .index()
                .and_then(|k| event.settings().stages.get(k))
                .map(stage_name)
                .unwrap_or_default();
            return NextAction::Seed {
                number,
                stage,
                label: format!("Seed stage {stage} ({name})"),
                start,
            };
        }
        if start {
            return NextAction::Start(
                games_words(event, &step).unwrap_or_else(|| "Start the next games".to_string()),
            );
        }
        NextAction::Pair {
            number,
            stage,
            round: match step {
                NextStep::Round { round, .. } => round,
                NextStep::Playoff { .. } => RoundNo(0),
            },
        }
    }

    fn next_action_of_one_system(&self) -> NextAction {
        let Some(t) = self.one_system() else {
            return NextAction::Over;
        };
        match next_round(t, self.last_round().map(|r| (r.number, r.state))) {
            NextRound::Ready(n) => NextAction::Pair {
                number: n,
                stage: StageNo(1),
                round: n,
            },
            NextRound::TooFewPlayers => NextAction::TooFewPlayers,
            NextRound::DraftWaiting(n) => NextAction::DraftWaiting(n),
            NextRound::InPlay(n) => NextAction::InPlay(n),
            NextRound::AllPlayed => NextAction::Over,
        }
    }

    /// What the one-click button would start now, in words: `None` when the next step is a
    /// round to pair and look at (Swiss, round robin), or nothing can start.
    pub fn next_games(&self) -> Option<String> {
        let event = self.staged()?;
        games_words(event, &event.next_step().ok()?)
    }

    /// The bracket round of a knockout round and how many the knockout has (the
    /// third-place match is played beside the final).
    pub fn bracket_round(&self, n: RoundNo) -> Option<(u32, u32)> {
        let event = self.staged()?;
        let round = self.round(n)?;
        let k = round.stage.index()?;
        let bracket = event.reached().get(k)?.bracket.as_ref()?;
        let count = bracket_rounds(bracket.rounds.first().map_or(1, Vec::len));
        let r = round
            .boards
            .iter()
            .filter_map(|b| match b.series {
                Some(MatchId::Bracket { round, .. }) => Some(round),
                Some(MatchId::ThirdPlace) => Some(count),
                None => None,
            })
            .max()?;
        Some((r, count))
    }

    /// A round's place in its event in words: `Stage 1 · Swiss · round 3 of 6`, `Stage 2 ·
    /// Knockout · Quarter-finals`, `Stage 1 · Groups · playoff games at the cut`; a
    /// tournament of one system's round is `Round 3`.
    pub fn place_words(&self, n: RoundNo) -> String {
        let (Some(event), Some(place)) = (self.staged(), self.place(n)) else {
            return format!("Round {n}");
        };
        let Some(spec) = place
            .stage()
            .index()
            .and_then(|k| event.settings().stages.get(k))
        else {
            return format!("Round {n}");
        };
        let planned = place
            .stage()
            .index()
            .and_then(|k| event.reached().get(k))
            .and_then(|r| r.planned);
        place_words(place, spec, self.bracket_round(n), planned)
    }

    /// Every player's points before round `n`, in its stage (a stage starts from 0; a
    /// knockout round or playoff games score none: empty).
    pub fn scores_before(&self, n: RoundNo) -> HashMap<PlayerId, Score> {
        let before = n.index().unwrap_or(0);
        match &self.played {
            Played::One(t) => t
                .players()
                .iter()
                .map(|p| p.id)
                .zip(t.scores(before))
                .collect(),
            Played::Stages(event) => {
                let Some(RoundPlace::Round { stage, round }) = self.place(n) else {
                    return HashMap::new();
                };
                let Some(reached) = stage.index().and_then(|k| event.reached().get(k)) else {
                    return HashMap::new();
                };
                if reached.bracket.is_some() {
                    return HashMap::new();
                }
                let before = round.index().unwrap_or(0);
                reached
                    .groups
                    .iter()
                    .flat_map(|g| {
                        g.table
                            .players()
                            .iter()
                            .map(|p| p.id)
                            .zip(g.table.scores(before))
                            .collect::<Vec<_>>()
                    })
                    .collect()
            }
        }
    }

    /// The players out of an event of stages as of round `n` (not through an earlier
    /// stage's cut, or knocked out by then), each with where they went out.
    pub fn out_of_event(&self, n: RoundNo) -> HashMap<PlayerId, String> {
        let mut out = HashMap::new();
        let (Some(event), Some(place)) = (self.staged(), self.place(n)) else {
            return out;
        };
        let k = place.stage().index().unwrap_or(0);
        for p in event.players() {
            for j in 1..=k {
                let Some(reached) = event.reached().get(j) else {
                    break;
                };
                if !reached.seeds.contains(&p.id) {
                    let before = StageNo::from_index(j - 1);
                    let name = before
                        .index()
                        .and_then(|i| event.settings().stages.get(i))
                        .map(stage_name)
                        .unwrap_or_default();
                    out.insert(p.id, format!("out after stage {before} ({name})"));
                    break;
                }
            }
        }
        if let Some(bracket) = event.reached().get(k).and_then(|r| r.bracket.as_ref()) {
            let count = bracket_rounds(bracket.rounds.first().map_or(1, Vec::len));
            let now = self.bracket_round(n).map_or(count, |(r, _)| r);
            for (p, r) in bracket.eliminated() {
                let r = u32::try_from(r).unwrap_or(u32::MAX);
                if r <= now {
                    out.entry(p).or_insert_with(|| {
                        format!(
                            "out after the {}",
                            bracket_round_title(r, count).to_lowercase()
                        )
                    });
                }
            }
        }
        out
    }
}

/// A registered player as the Registration page shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// The player's number in the event (the file's and the pairing's id).
    pub no: PlayerId,
    pub player: crate::tournament::RegistryId,
    pub name: String,
    pub rating: i64,
    pub club: Option<String>,
    pub federation_id: Option<String>,
    /// The first round the player could be paired in.
    pub entry_round: RoundNo,
    pub withdrawn: bool,
    /// Banned in the registry (then also withdrawn).
    pub banned: bool,
    /// Rounds the player asked to miss (including those of a late entry), in order.
    pub absences: Vec<RoundNo>,
    /// The total of the player's penalties.
    pub penalty: Score,
}

impl Event {
    /// The players by number, as the Registration page shows them.
    pub fn registrations(&self) -> Vec<Registration> {
        let mut out: Vec<Registration> = self
            .entrants()
            .iter()
            .map(|e| {
                let p = &e.player;
                let mut absences: Vec<RoundNo> = self
                    .record
                    .absences
                    .iter()
                    .filter(|a| a.player == p.id)
                    .map(|a| a.round)
                    .collect();
                absences.sort();
                Registration {
                    no: p.id,
                    player: e.registry,
                    name: p.name.clone(),
                    rating: p.rating,
                    club: p.club.clone(),
                    federation_id: p.federation_id.clone(),
                    entry_round: e.entry_round,
                    withdrawn: p.withdrawn,
                    banned: e.banned,
                    absences,
                    penalty: self
                        .record
                        .penalties
                        .iter()
                        .filter(|x| x.player == p.id)
                        .map(|x| x.points)
                        .sum(),
                }
            })
            .collect();
        out.sort_by_key(|r| r.no);
        out
    }

    /// Why the event cannot be rated yet (`None`: it can): it has played at least one
    /// round, every round it has is complete (no draft, no pending game), and as many as it
    /// plans; an event of stages, besides, has its last stage over.
    pub fn not_ready_to_rate(&self) -> Option<String> {
        let complete = self
            .rounds()
            .iter()
            .filter(|r| r.state == RoundState::Complete)
            .count();
        let open = self.rounds().len() - complete;
        if complete == 0 {
            return Some("no round has been played".to_string());
        }
        if open > 0 {
            return Some(format!(
                "{open} round{} not complete",
                if open == 1 { " is" } else { "s are" }
            ));
        }
        match &self.played {
            Played::One(t) => match t.planned_rounds() {
                Some(n) if complete < n as usize => {
                    Some(format!("{complete} of its {n} rounds have been played"))
                }
                _ => None,
            },
            Played::Stages(e) if !e.is_over() => {
                Some(format!("stage {} is still being played", e.current().stage))
            }
            Played::Stages(_) => None,
        }
    }

    /// The games played over the board (won, lost or drawn: no forfeit, bye or pending
    /// game) in the published and complete rounds, playoffs included, in round and board
    /// order: the games a rating list counts.
    pub fn games_over_the_board(&self) -> Vec<(PlayerId, PlayerId, GameResult)> {
        self.rounds()
            .iter()
            .filter(|r| r.state != RoundState::Draft)
            .flat_map(|r| &r.boards)
            .filter(|b| {
                matches!(
                    b.result,
                    GameResult::WhiteWins | GameResult::BlackWins | GameResult::Draw
                )
            })
            .map(|b| (b.white, b.black, b.result))
            .collect()
    }
}

/// A tie across a group's cut and its playoff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutTie {
    /// The tied players, in their playoff order.
    pub tied: Vec<PlayerId>,
    /// How many places they play off for.
    pub places: usize,
    /// The playoff games: played or in play (`Some(result)`, pending while in play), then
    /// those due and not started yet (`None`).
    pub games: Vec<(PlayerId, PlayerId, Option<GameResult>)>,
}

/// One group's cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutGroup {
    pub group: GroupId,
    /// Who goes on above any tie (the whole top of the group when there is no tie).
    pub through: Vec<PlayerId>,
    pub tie: Option<CutTie>,
}

/// The cut of a complete stage while it is the business at hand (its tie being played
/// off, or the next stage not yet begun): who goes on, with their seeds, and any tie at the
/// cut with its playoff games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutView {
    pub stage: StageNo,
    pub name: String,
    pub advance: usize,
    /// The stage is played in groups (more than one).
    pub grouped: bool,
    /// The stage the cut seeded.
    pub next: Option<SeededStage>,
    pub groups: Vec<CutGroup>,
}

/// The stage a cut seeded, with its players by seed, each with their place at the cut
/// (`A1` in a stage of groups, `place 3` else).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeededStage {
    pub stage: StageNo,
    pub name: String,
    pub seeds: Vec<(PlayerId, String)>,
}

impl Event {
    /// The cut at hand in an event of stages: the current stage's, complete with a tie being
    /// played off, or the one before a stage seeded and not begun.
    pub fn cut_at_hand(&self) -> Option<CutView> {
        let event = self.staged()?;
        let current = event.current();
        let started = |s: StageNo| self.rounds().iter().any(|r| r.stage == s);
        let k = match current.stage.index() {
            Some(k) if current.complete && !current.cut.is_empty() => k,
            Some(k) if k > 0 && !started(current.stage) => k - 1,
            _ => return None,
        };
        let reached = event.reached().get(k)?;
        let spec = event.settings().stages.get(k)?;
        let advance = spec
            .advance
            .map_or(0, |a| usize::try_from(a).unwrap_or(usize::MAX));
        let grouped = reached.groups.len() > 1;
        let place = |p: PlayerId| -> String {
            for cut in &reached.cut {
                if let Some(i) = cut.standings.rows.iter().position(|r| r.id == p) {
                    return if grouped {
                        format!("{}{}", cut.group, i + 1)
                    } else {
                        format!("place {}", i + 1)
                    };
                }
            }
            String::new()
        };
        let next = event.reached().get(k + 1).map(|n| {
            let name = event
                .settings()
                .stages
                .get(k + 1)
                .map(stage_name)
                .unwrap_or_default();
            let seeds = n.seeds.iter().map(|&p| (p, place(p))).collect();
            SeededStage {
                stage: n.stage,
                name,
                seeds,
            }
        });
        let playoffs = event.play(k).map_or(&[][..], |p| p.playoffs.as_slice());
        let groups = reached
            .cut
            .iter()
            .map(|cut| cut_group(cut, advance, playoffs))
            .collect();
        Some(CutView {
            stage: reached.stage,
            name: stage_name(spec),
            advance,
            grouped,
            next,
            groups,
        })
    }
}

/// A group's cut: those above a tie through, the tied playing off for the rest.
fn cut_group(
    cut: &crate::stages::GroupCut,
    advance: usize,
    playoffs: &[crate::stages::PlayoffGame],
) -> CutGroup {
    let top = cut.standings.rows.iter().take(advance);
    let Some(playoff) = &cut.playoff else {
        return CutGroup {
            group: cut.group,
            through: top.map(|r| r.id).collect(),
            tie: None,
        };
    };
    let through: Vec<PlayerId> = top
        .filter(|r| !playoff.order.contains(&r.id))
        .map(|r| r.id)
        .collect();
    let mut games: Vec<(PlayerId, PlayerId, Option<GameResult>)> = playoffs
        .iter()
        .filter(|g| g.group.is_none_or(|x| x == cut.group) && playoff.order.contains(&g.white))
        .map(|g| (g.white, g.black, Some(g.result)))
        .collect();
    if let crate::stages::PlayoffState::Next(due) = &playoff.state {
        games.extend(due.iter().map(|&(w, b)| (w, b, None)));
    }
    CutGroup {
        group: cut.group,
        tie: Some(CutTie {
            tied: playoff.order.clone(),
            places: advance.saturating_sub(through.len()),
            games,
        }),
        through,
    }
}

impl Event {
    /// The match of a knockout board of round `round`: seeds, series score and note.
    pub fn board_series(&self, round: RoundNo, board: &BoardView) -> Option<BoardSeries> {
        let id = board.series?;
        let k = self.place(round)?.stage().index()?;
        let bracket = self.staged()?.reached().get(k)?.bracket.as_ref()?;
        let m = bracket
            .rounds
            .iter()
            .flatten()
            .chain(bracket.third.as_ref())
            .find(|m| m.id == id)?;
        let side = |p: PlayerId| m.slots.iter().position(|s| s.player == Some(p));
        let (w, b) = (side(board.white.no)?, side(board.black.no)?);
        let score = m.series.score(bracket.format);
        Some(BoardSeries {
            id,
            seeds: [m.slots[w].seed, m.slots[b].seed],
            score: [score[w], score[b]],
            note: series_note(
                bracket.format,
                &crate::stages::Series {
                    points: [m.series.points[w], m.series.points[b]],
                    ..m.series
                },
            ),
        })
    }
}
