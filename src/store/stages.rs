//! Events in stages in the database (`spec/stages.md`, migration 6): a tournament whose
//! `format` is 2 is an event of stages (group round robins, Swiss stages, a knockout of
//! series, playoffs at a cut), the core's [`Event`].
//!
//! # The shape
//!
//! - `stages`: one row per stage (its system, rounds, groups, cut, tie-breaks and, for a
//!   knockout, its series, seeding and third-place match): the core's [`StageSpec`].
//! - The event's rounds are the tournament's `rounds`, numbered on across the stages (round
//!   7 may be the knockout's first round): the tables, the desk's games, the stations and the
//!   audit log know no other number. Each round says its `stage` and its `kind`: a round of
//!   the stage, or playoff games at the stage's cut (a set of playoff games is a round of its
//!   own: paired, published, played at tables and completed like any round). Each board
//!   names its `group_letter` (a grouped round robin and its playoffs) or its `match_id`
//!   (`R.M`, `3rd`). Penalties say the `stage` they count in.
//! - [`Store::load_event`] builds the core's `Event` from the published and complete rounds
//!   (a draft is not part of the event), which replays and checks it: seeding, groups, the
//!   cut and its playoffs, the bracket. Everything the desk shows of an event (the cut, the
//!   bracket, the standings per stage and group, the final placement) is the core's answer
//!   on it; the store runs the core's pure functions and saves what they decided, one
//!   transaction per desk action.
//! - Every change to a staged event's rounds, results, penalties or stages is checked in its
//!   own transaction by building the event again ([`check_event`]): a change that would
//!   leave it inconsistent (a result that changes a cut whose next stage has begun, a double
//!   forfeit in a knockout, a stage edited after it was seeded) is refused, naming why, and
//!   nothing is written.
//!
//! # What comes next
//!
//! [`Store::pair_round`] on an event of stages drafts the core's [`Event::next_step`]: the
//! next round of the current stage, the next playoff games at its cut, or (the cut clear)
//! the first round of the next stage, which seeds it: that is the director's word. Only a
//! Swiss stage's drafts can be changed by hand; a round robin's boards, a knockout's and the
//! playoffs follow from the rules. [`Store::start_next_games`] pairs and publishes in one
//! action the steps that leave nothing to decide (a knockout round, playoff games).
//!
//! # For the public pages
//!
//! [`Store::public_event`] reads an event from the columns the public views hold (names,
//! ratings, clubs, results, states, stages, groups, matches, penalty points) and nothing
//! else, with each published round's boards and their states.

use super::db::{Row, Tx, Value as DbValue, args};
use super::rounds::{RoundState, RoundView};
use super::tournaments::{TournamentSetup, read_setup};
use super::{Actor, BackupNote, Context, Result, Store, StoreError, TournamentId, audit, rejected};
use ggdesk_core::stages::{
    Event, EventParts, EventSettings, MatchFormat, NextStep, PlayoffGame, Seeding, StageBoard,
    StageFormat, StageGame, StagePenalty, StagePlay, StageRound, StageSpec, StepRefusal,
};
use ggdesk_core::tournament::{
    Game, GameResult, Penalty, Player, PlayerId, RoundNo, Score, StageNo, TieBreak,
};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Where a round of a tournament stands in its event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundPlace {
    /// Round `round` of stage `stage` (a tournament of one system: every round is stage 1's).
    Round { stage: StageNo, round: RoundNo },
    /// The `number`-th set of playoff games (from 1) at the cut of stage `stage`.
    Playoff { stage: StageNo, number: u32 },
}

impl RoundPlace {
    pub fn stage(self) -> StageNo {
        match self {
            RoundPlace::Round { stage, .. } | RoundPlace::Playoff { stage, .. } => stage,
        }
    }

    pub fn is_playoff(self) -> bool {
        matches!(self, RoundPlace::Playoff { .. })
    }
}

/// The places of a tournament's rounds, from each round's stage and kind in number order.
pub(crate) fn places(rows: &[(u32, StageNo, bool)]) -> Vec<RoundPlace> {
    let mut rounds: HashMap<StageNo, u32> = HashMap::new();
    let mut playoffs: HashMap<StageNo, u32> = HashMap::new();
    rows.iter()
        .map(|&(_, stage, playoff)| {
            let counter = if playoff { &mut playoffs } else { &mut rounds };
            let n = counter.entry(stage).or_insert(0);
            *n += 1;
            if playoff {
                RoundPlace::Playoff { stage, number: *n }
            } else {
                RoundPlace::Round {
                    stage,
                    round: RoundNo(*n),
                }
            }
        })
        .collect()
}

/// The kind of a round as the `rounds.kind` column holds it.
pub(crate) fn kind_code(playoff: bool) -> &'static str {
    if playoff { "playoff" } else { "round" }
}

pub(crate) fn parse_kind(code: &str) -> Option<bool> {
    match code {
        "round" => Some(false),
        "playoff" => Some(true),
        _ => None,
    }
}

fn damaged(tid: TournamentId, stage: impl std::fmt::Display, detail: impl ToString) -> StoreError {
    StoreError::Damaged {
        table: "stages",
        row: format!("tournament {tid}, stage {stage}"),
        detail: detail.to_string(),
    }
}

fn tiebreak_text(list: &[TieBreak]) -> String {
    list.iter().map(|t| t.name()).collect::<Vec<_>>().join(",")
}

const STAGE_COLUMNS: &str = "stage_no, name, system, round_count, groups, advance, tiebreaks, \
                             series, series_value, seeding, third_place";

/// A `stages` row (selected with [`STAGE_COLUMNS`]) as the core's stage.
fn stage_spec(tid: TournamentId, r: &Row) -> Result<(u32, StageSpec)> {
    let no: u32 = r.get(0).at("stages", format!("tournament {tid}"))?;
    let row = || -> Result<StageSpec> {
        let system: String = r.get(2)?;
        let round_count: Option<u32> = r.get(3)?;
        let groups: u32 = r.get(4)?;
        let advance: Option<u32> = r.get(5)?;
        let tiebreaks: String = r.get(6)?;
        let series: Option<String> = r.get(7)?;
        let value: Option<i64> = r.get(8)?;
        let seeding: Option<String> = r.get(9)?;
        let third: bool = r.get(10)?;
        let tiebreaks = tiebreaks
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| {
                TieBreak::from_name(s)
                    .ok_or_else(|| StoreError::Decode(format!("unknown tie-break {s:?}")))
            })
            .collect::<Result<Vec<_>>>()?;
        let format = match system.as_str() {
            "swiss" => StageFormat::Swiss {
                rounds: round_count
                    .ok_or_else(|| StoreError::Decode("a Swiss stage without rounds".into()))?,
            },
            "round_robin" => StageFormat::RoundRobin {
                groups,
                rounds: round_count,
            },
            "knockout" => {
                let series = match (series.as_deref(), value) {
                    (Some("best_of"), Some(k)) => MatchFormat::BestOf(
                        u32::try_from(k).map_err(|_| StoreError::Decode(format!("best_of {k}")))?,
                    ),
                    (Some("race_to"), Some(p)) => MatchFormat::RaceTo(Score::from_halves(p)),
                    (Some("twice_to_beat"), _) => MatchFormat::TwiceToBeat,
                    (s, v) => {
                        return Err(StoreError::Decode(format!(
                            "series {s:?} with value {v:?} is not a knockout's series"
                        )));
                    }
                };
                let seeding = match seeding.as_deref() {
                    None | Some("standard") => Seeding::Standard,
                    Some("cross_over") => Seeding::CrossOver,
                    Some(other) => {
                        return Err(StoreError::Decode(format!("unknown seeding {other:?}")));
                    }
                };
                StageFormat::Knockout {
                    series,
                    seeding,
                    third_place: third,
                }
            }
            other => return Err(StoreError::Decode(format!("unknown system {other:?}"))),
        };
        Ok(StageSpec {
            name: r.get(1)?,
            format,
            tiebreaks,
            advance,
        })
    };
    let spec = row().at("stages", format!("tournament {tid}, stage {no}"))?;
    Ok((no, spec))
}

/// A stage's system, round count, groups, series and its value, seeding and third-place
/// match, as the `stages` columns hold them.
type StageColumns = (
    &'static str,
    Option<u32>,
    u32,
    Option<&'static str>,
    Option<i64>,
    Option<&'static str>,
    bool,
);

/// The values of [`STAGE_COLUMNS`] for stage `no` (from 1).
fn stage_values(no: usize, s: &StageSpec) -> Vec<DbValue> {
    let (system, round_count, groups, series, value, seeding, third): StageColumns = match s.format
    {
        StageFormat::Swiss { rounds } => ("swiss", Some(rounds), 1, None, None, None, false),
        StageFormat::RoundRobin { groups, rounds } => {
            ("round_robin", rounds, groups, None, None, None, false)
        }
        StageFormat::Knockout {
            series,
            seeding,
            third_place,
        } => {
            let (name, value) = match series {
                MatchFormat::BestOf(k) => ("best_of", Some(i64::from(k))),
                MatchFormat::RaceTo(p) => ("race_to", Some(p.halves())),
                MatchFormat::TwiceToBeat => ("twice_to_beat", None),
            };
            let seeding = match seeding {
                Seeding::Standard => "standard",
                Seeding::CrossOver => "cross_over",
            };
            (
                "knockout",
                None,
                1,
                Some(name),
                value,
                Some(seeding),
                third_place,
            )
        }
    };
    args![
        no,
        s.name,
        system,
        round_count,
        groups,
        s.advance,
        tiebreak_text(&s.tiebreaks),
        series,
        value,
        seeding,
        third
    ]
    .to_vec()
}

/// Whether a tournament is an event of stages (`tournaments.format` 2).
pub(crate) fn is_staged(q: &mut Tx<'_>, tid: TournamentId) -> Result<bool> {
    let format: Option<i64> =
        q.query_opt("SELECT format FROM tournaments WHERE id = ?1", [tid], |r| {
            r.get(0).at("tournaments", format!("tournament {tid}"))
        })?;
    match format {
        None => Err(StoreError::NotFound(format!("tournament {tid}"))),
        Some(1) => Ok(false),
        Some(2) => Ok(true),
        Some(other) => Err(StoreError::Damaged {
            table: "tournaments",
            row: format!("tournament {tid}"),
            detail: format!("format holds {other}, neither 1 nor 2"),
        }),
    }
}

/// The stages of a tournament, in order; `None` for a tournament of one system.
pub(crate) fn read_stages(q: &mut Tx<'_>, tid: TournamentId) -> Result<Option<Vec<StageSpec>>> {
    if !is_staged(q, tid)? {
        return Ok(None);
    }
    let rows = q.query_map(
        &format!("SELECT {STAGE_COLUMNS} FROM stages WHERE tournament_id = ?1 ORDER BY stage_no"),
        [tid],
        |r| stage_spec(tid, r),
    )?;
    let mut out = Vec::new();
    for (k, (no, spec)) in rows.into_iter().enumerate() {
        if usize::try_from(no).ok() != Some(k + 1) {
            return Err(damaged(tid, no, format!("stage {no} follows stage {k}")));
        }
        out.push(spec);
    }
    if out.is_empty() {
        return Err(damaged(tid, 1, "an event of stages without a stage"));
    }
    Ok(Some(out))
}

/// Writes a tournament's stages (all of them, replacing any).
fn write_stages(tx: &mut Tx<'_>, tid: TournamentId, stages: &[StageSpec]) -> Result<()> {
    tx.execute("DELETE FROM stages WHERE tournament_id = ?1", [tid])?;
    for (k, s) in stages.iter().enumerate() {
        let mut values = vec![DbValue::Int(tid.0)];
        values.extend(stage_values(k + 1, s));
        tx.execute(
            &format!(
                "INSERT INTO stages (tournament_id, {STAGE_COLUMNS})
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
            ),
            &values[..],
        )?;
    }
    Ok(())
}

/// Everything a tournament's event is made of, from its tables: players as registered,
/// settings, forbidden pairs, penalties with their stages, and every published or complete
/// round (a draft is not part of the event) in its stage. `public` reads only what the
/// public views hold (no federation id, registration extra, penalty reason or forbidden
/// pair). `None` for a tournament of one system.
pub(crate) fn event_parts(
    q: &mut Tx<'_>,
    tid: TournamentId,
    public: bool,
) -> Result<Option<EventParts>> {
    let Some(stages) = read_stages(q, tid)? else {
        return Ok(None);
    };
    let setup = read_setup(q, tid)?;
    let players_sql = if public {
        "SELECT player_no, name, rating, club, withdrawn, NULL, '{}' FROM registrations
         WHERE tournament_id = ?1 ORDER BY seq, player_no"
    } else {
        "SELECT player_no, name, rating, club, withdrawn, federation_id, extra FROM registrations
         WHERE tournament_id = ?1 ORDER BY seq, player_no"
    };
    let players = q.query_map(players_sql, [tid], |r| {
        let no: u32 = r.get(0)?;
        (|| {
            let extra: String = r.get(6)?;
            Ok(Player {
                club: r.get(3)?,
                withdrawn: r.get::<i64>(4)? != 0,
                federation_id: r.get(5)?,
                extra: match serde_json::from_str(&extra) {
                    Ok(Value::Object(m)) => m,
                    _ => Map::new(),
                },
                ..Player::new(PlayerId(no), r.get::<String>(1)?, r.get(2)?)
            })
        })()
        .at("registrations", format!("tournament {tid}, player {no}"))
    })?;
    let forbidden = if public {
        Vec::new()
    } else {
        q.query_map(
            "SELECT player_a, player_b FROM forbidden_pairs WHERE tournament_id = ?1
             ORDER BY player_a, player_b",
            [tid],
            |r| Ok((PlayerId(r.get(0)?), PlayerId(r.get(1)?))),
        )?
    };
    let penalties_sql = if public {
        "SELECT player_no, points, '', stage, id FROM penalties WHERE tournament_id = ?1 ORDER BY id"
    } else {
        "SELECT player_no, points, reason, stage, id FROM penalties WHERE tournament_id = ?1 ORDER BY id"
    };
    let penalties = q.query_map(penalties_sql, [tid], |r| {
        let id: i64 = r.get(4)?;
        (|| {
            Ok(StagePenalty {
                stage: StageNo(r.get(3)?),
                penalty: Penalty {
                    player: PlayerId(r.get(0)?),
                    points: Score::from_halves(r.get(1)?),
                    reason: r.get(2)?,
                },
            })
        })()
        .at("penalties", format!("penalty {id}"))
    })?;

    // The rounds in number order, each in its stage.
    let rounds = q.query_map(
        "SELECT number, stage, kind FROM rounds WHERE tournament_id = ?1 AND state <> 'draft'
         ORDER BY number",
        [tid],
        |r| {
            let number: u32 = r.get(0)?;
            (|| Ok((number, r.get::<u32>(1)?, r.code("kind", parse_kind)?)))()
                .at("rounds", format!("tournament {tid}, round {number}"))
        },
    )?;
    let count = stages.len();
    let mut plays: Vec<StagePlay> = vec![StagePlay::default(); count];
    // Where each round number goes: (stage index, playoff, index of the round in the stage).
    let mut slot: HashMap<u32, (usize, bool, usize)> = HashMap::new();
    let mut last_stage = 0;
    for (k, &(number, stage, playoff)) in rounds.iter().enumerate() {
        let round_at = |detail: String| StoreError::Damaged {
            table: "rounds",
            row: format!("tournament {tid}, round {number}"),
            detail,
        };
        if usize::try_from(number).ok() != Some(k + 1) {
            return Err(round_at(format!("round {number} follows round {k}")));
        }
        let s = usize::try_from(stage).unwrap_or(usize::MAX);
        if s == 0 || s > count || s < last_stage {
            return Err(round_at(format!(
                "stage {stage} is not a stage of the event, or comes after stage {last_stage}"
            )));
        }
        last_stage = s;
        let play = &mut plays[s - 1];
        if playoff {
            slot.insert(number, (s - 1, true, 0));
        } else {
            slot.insert(number, (s - 1, false, play.rounds.len()));
            play.rounds.push(StageRound::default());
        }
    }
    let boards = q.query_map(
        "SELECT p.round, p.board_no, p.table_no, p.table_given, p.white, p.black, p.result,
                p.group_letter, p.match_id
         FROM pairings p JOIN rounds r ON r.tournament_id = p.tournament_id AND r.number = p.round
         WHERE p.tournament_id = ?1 AND r.state <> 'draft' ORDER BY p.round, p.board_no",
        [tid],
        |r| {
            let (round, board): (u32, u32) = (r.get(0)?, r.get(1)?);
            (|| {
                let (group, series) = super::rounds::stage_of_board(r, 7)?;
                Ok((
                    round,
                    StageGame {
                        group,
                        series,
                        game: Game {
                            table: (r.get::<i64>(3)? != 0).then_some(r.get(2)?),
                            white: PlayerId(r.get(4)?),
                            black: PlayerId(r.get(5)?),
                            result: r.code("result", GameResult::from_name)?,
                        },
                    },
                ))
            })()
            .at(
                "pairings",
                format!("tournament {tid}, round {round}, board {board}"),
            )
        },
    )?;
    for (round, g) in boards {
        let Some(&(s, playoff, i)) = slot.get(&round) else {
            continue;
        };
        if playoff {
            plays[s].playoffs.push(PlayoffGame {
                group: g.group,
                white: g.game.white,
                black: g.game.black,
                result: g.game.result,
            });
        } else {
            plays[s].rounds[i].games.push(g);
        }
    }
    for (table, absent) in [("round_byes", false), ("absences", true)] {
        let rows = q.query_map(
            &format!(
                "SELECT x.round, x.player_no FROM {table} x
                 JOIN rounds r ON r.tournament_id = x.tournament_id AND r.number = x.round
                 WHERE x.tournament_id = ?1 AND r.state <> 'draft'
                 ORDER BY x.round, x.seq, x.player_no"
            ),
            [tid],
            |r| Ok((r.get::<u32>(0)?, PlayerId(r.get(1)?))),
        )?;
        for (round, p) in rows {
            let Some(&(s, false, i)) = slot.get(&round) else {
                continue;
            };
            let r = &mut plays[s].rounds[i];
            if absent {
                r.absent.push(p);
            } else {
                r.byes.push(p);
            }
        }
    }
    Ok(Some(EventParts {
        name: setup.name,
        settings: EventSettings {
            points: setup.points,
            forbidden,
            stages,
        },
        players,
        penalties,
        stages: plays,
    }))
}

/// The event of a tournament as its tables hold it; `None` for a tournament of one system.
/// An event the core refuses is a damaged database (every write checked it).
pub(crate) fn load_event_in(q: &mut Tx<'_>, tid: TournamentId) -> Result<Option<Event>> {
    let Some(parts) = event_parts(q, tid, false)? else {
        return Ok(None);
    };
    Event::new(parts)
        .map(Some)
        .map_err(|e| StoreError::Corrupt {
            path: format!("tournament {tid}"),
            detail: format!("its rounds do not fit its stages: {e}"),
        })
}

/// Checks, inside a write, that a staged tournament's event is still consistent: the event
/// is built again from the tables as they now are. A change that breaks it is refused
/// (the caller's transaction is rolled back). Nothing to check for a tournament of one
/// system.
pub(crate) fn check_event(tx: &mut Tx<'_>, tid: TournamentId) -> Result<Option<Event>> {
    let Some(parts) = event_parts(tx, tid, false)? else {
        return Ok(None);
    };
    Event::new(parts).map(Some).map_err(|e| {
        rejected(format!(
            "this change would leave the event's stages inconsistent ({e}); nothing was changed"
        ))
    })
}

/// What a refusal of the next step says at the desk.
fn step_refusal(e: &StepRefusal) -> String {
    match e {
        StepRefusal::Over => "the event is over: every stage is complete".into(),
        other => other.to_string(),
    }
}

/// Whether a step leaves nothing to decide: a knockout round or playoff games (a Swiss or a
/// round robin round is proposed as a draft to look at).
fn forced(event: &Event, step: &NextStep) -> bool {
    match step {
        NextStep::Playoff { .. } => true,
        NextStep::Round { stage, .. } => stage
            .index()
            .and_then(|k| event.settings().stages.get(k))
            .is_some_and(|s| s.format.is_knockout()),
    }
}

/// The words of a stage for the audit log and the explanations: `stage 2 (Knockout)`.
fn stage_words(event: &Event, stage: StageNo) -> String {
    let name = stage
        .index()
        .and_then(|k| event.settings().stages.get(k))
        .map_or("", |s| s.name.trim());
    if name.is_empty() {
        format!("stage {stage}")
    } else {
        format!("stage {stage} ({name})")
    }
}

/// A series in words: `race to 4 points`, `best of 3`, `twice to beat`.
pub fn series_words(m: MatchFormat) -> String {
    match m {
        MatchFormat::BestOf(1) => "single game".into(),
        MatchFormat::BestOf(k) => format!("best of {k}"),
        MatchFormat::RaceTo(p) => format!("race to {p} points"),
        MatchFormat::TwiceToBeat => "twice to beat (the higher seed wins with one won game)".into(),
    }
}

/// Why a board of a step is what it is.
fn board_reason(event: &Event, step: &NextStep, b: &StageBoard) -> String {
    let name = |p: PlayerId| {
        event
            .player(p)
            .map_or_else(|| p.to_string(), |x| format!("{p} {}", x.name))
    };
    let cur = event.current();
    match (step, b.series, b.group) {
        (NextStep::Playoff { .. }, _, group) => {
            let at = group.map_or_else(|| "the cut".to_string(), |g| format!("group {g}'s cut"));
            format!(
                "Playoff at {at}: {} and {} are level on score and every tie-break across the cut; \
                 the playoff goes on until the cut is clear.",
                name(b.white),
                name(b.black)
            )
        }
        (_, Some(id), _) => {
            let played = cur
                .bracket
                .as_ref()
                .and_then(|br| br.current().into_iter().find(|m| m.id == id))
                .map_or(0, |m| m.games.len());
            let series = cur
                .bracket
                .as_ref()
                .map_or_else(String::new, |br| series_words(br.format));
            format!(
                "Match {id} ({series}), game {}: game 1 gives White to the higher seed, then colours \
                 alternate.",
                played + 1
            )
        }
        (_, None, Some(g)) => format!(
            "Group {g}: the round-robin (Berger) table of the group, players numbered by seed."
        ),
        _ => "Swiss pairing within the stage: points in this stage, seeds in place of ratings."
            .into(),
    }
}

/// Drafts the event's next step as a round numbered after the last published or complete
/// one, inside `tx`: the next round of the current stage (of the stage just seeded), or the
/// next playoff games. `None` for a tournament of one system (the caller pairs it).
/// Refused, saying why, when nothing can be paired (a result missing, the event over, no
/// valid pairing). A withdrawn or banned player's knockout or playoff game is drafted with
/// the opponent's forfeit win already entered (nothing else can seat them).
pub(crate) fn draft_next(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    actor: &Actor,
    reason: &str,
) -> Result<Option<(u32, bool)>> {
    let Some(event) = load_event_in(tx, tid)? else {
        return Ok(None);
    };
    let step = event.next_step().map_err(|e| rejected(step_refusal(&e)))?;
    let number: u32 = tx.query_one(
        "SELECT CAST(coalesce(max(number), 0) + 1 AS BIGINT) FROM rounds WHERE tournament_id = ?1",
        [tid],
        |r| r.get(0),
    )?;
    let stage = step.stage();
    let is_forced = forced(&event, &step);
    let out: Vec<PlayerId> = event
        .players()
        .iter()
        .filter(|p| p.withdrawn)
        .map(|p| p.id)
        .collect();
    let (what, playoff) = match &step {
        NextStep::Round { round, .. } => (
            format!("{}, round {round}", stage_words(&event, stage)),
            false,
        ),
        NextStep::Playoff { .. } => (
            format!("{}: playoff games at the cut", stage_words(&event, stage)),
            true,
        ),
    };
    let mut round_text = match &step {
        NextStep::Round { round, .. } if round.0 == 1 && stage.0 > 1 => format!(
            "{what}: the first round of the stage, which seeds it from the qualifiers of the \
             stage before."
        ),
        NextStep::Round { .. } if is_forced => {
            format!("{what}: every open match plays its next game.")
        }
        NextStep::Round { .. } => format!("{what}."),
        NextStep::Playoff { .. } => {
            format!("{what}: players level on score and every tie-break across a cut play off.")
        }
    };
    tx.execute(
        "INSERT INTO rounds (tournament_id, number, state, explanation, stage, kind)
         VALUES (?1, ?2, 'draft', '', ?3, ?4)",
        args![tid, number, stage.0, kind_code(playoff)],
    )?;
    let mut forfeits = Vec::new();
    for (i, b) in step.games().iter().enumerate() {
        let result = if is_forced {
            match (out.contains(&b.white), out.contains(&b.black)) {
                (true, false) => GameResult::BlackWinsByForfeit,
                // Both gone: a knockout game cannot be a double forfeit; the higher seed
                // (White in game 1) goes through.
                (false, true) | (true, true) => GameResult::WhiteWinsByForfeit,
                (false, false) => GameResult::Pending,
            }
        } else {
            GameResult::Pending
        };
        if result != GameResult::Pending {
            forfeits.push(format!("table {}: {}", b.table, result.name()));
        }
        tx.prepare_cached(
            "INSERT INTO pairings (tournament_id, round, board_no, table_no, white, black, result,
                 explanation, group_letter, match_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        )?
        .execute(args![
            tid,
            number,
            i + 1,
            b.table.0,
            b.white.0,
            b.black.0,
            result.name(),
            board_reason(&event, &step, b),
            b.group.map(|g| g.to_string()),
            b.series.map(|m| m.to_string())
        ])?;
    }
    if let NextStep::Round { byes, .. } = &step {
        for (i, p) in byes.iter().enumerate() {
            tx.prepare_cached(
                "INSERT INTO round_byes (tournament_id, round, player_no, explanation, seq)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(args![
                tid,
                number,
                p.0,
                format!(
                    "Bye: {} {} (the pairing of the stage leaves them without an opponent).",
                    p,
                    event.player(*p).map_or("", |x| x.name.as_str())
                ),
                i
            ])?;
        }
    }
    if !forfeits.is_empty() {
        round_text.push_str(&format!(
            "\nWithdrawn players lose their games by forfeit: {}.",
            forfeits.join(", ")
        ));
    }
    tx.execute(
        "UPDATE rounds SET explanation = ?1 WHERE tournament_id = ?2 AND number = ?3",
        args![round_text, tid, number],
    )?;
    audit(
        tx,
        actor,
        "round paired (draft)",
        Some(tid),
        None,
        reason,
        &format!(
            "round {number} ({what}): {} board(s){}",
            step.games().len(),
            match &step {
                NextStep::Round { byes, .. } if !byes.is_empty() =>
                    format!(", {} bye(s)", byes.len()),
                _ => String::new(),
            }
        ),
    )?;
    Ok(Some((number, is_forced)))
}

/// The table a draft's swap is checked against: for a Swiss stage its one group's own
/// tournament (rematches, byes and forfeit wins within the stage); `None` for a tournament
/// of one system. Refused for any other stage's round: its boards follow from the rules.
pub(crate) fn swap_table(
    q: &mut Tx<'_>,
    tid: TournamentId,
    round: u32,
) -> Result<Option<ggdesk_core::tournament::Tournament>> {
    let Some(event) = load_event_in(q, tid)? else {
        return Ok(None);
    };
    let (stage, kind): (u32, String) = q
        .query_opt(
            "SELECT stage, kind FROM rounds WHERE tournament_id = ?1 AND number = ?2",
            args![tid, round],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?
        .ok_or_else(|| rejected(format!("round {round} has not been paired")))?;
    let k = usize::try_from(stage)
        .unwrap_or(usize::MAX)
        .saturating_sub(1);
    let spec = event.settings().stages.get(k);
    let swiss = matches!(spec.map(|s| s.format), Some(StageFormat::Swiss { .. }));
    if kind != "round" || !swiss {
        return Err(rejected(format!(
            "round {round}'s boards follow from the rules of {} (a round-robin group's table, \
             a knockout's bracket or a playoff): they cannot be changed by hand",
            stage_words(&event, StageNo(stage))
        )));
    }
    event
        .reached()
        .get(k)
        .and_then(|r| r.groups.first())
        .map(|g| Some(g.table.clone()))
        .ok_or_else(|| rejected(format!("stage {stage} is not seeded")))
}

/// A staged tournament's checks before its draft `round` is published: nobody banned or
/// withdrawn is seated unless their game is already lost by forfeit. `false` for a
/// tournament of one system (the caller checks it as such).
pub(crate) fn publish_checks(tx: &mut Tx<'_>, tid: TournamentId, round: u32) -> Result<bool> {
    if !is_staged(tx, tid)? {
        return Ok(false);
    }
    let boards = tx.query_map(
        "SELECT p.table_no, p.white, p.black, p.result FROM pairings p
         WHERE p.tournament_id = ?1 AND p.round = ?2 ORDER BY p.board_no",
        args![tid, round],
        |r| {
            Ok((
                r.get::<u32>(0)?,
                PlayerId(r.get(1)?),
                PlayerId(r.get(2)?),
                r.code("result", GameResult::from_name)?,
            ))
        },
    )?;
    let unable = tx.query_map(
        "SELECT g.player_no, g.name, g.withdrawn,
                EXISTS (SELECT 1 FROM bans b WHERE b.player_id = g.player_id AND b.lifted_at IS NULL
                        AND (b.tournament_id IS NULL OR b.tournament_id = g.tournament_id))
         FROM registrations g WHERE g.tournament_id = ?1",
        [tid],
        |r| {
            Ok((
                PlayerId(r.get(0)?),
                r.get::<String>(1)?,
                r.get::<bool>(2)?,
                r.get::<bool>(3)?,
            ))
        },
    )?;
    for (table, w, b, result) in boards {
        for (p, lost) in [
            (w, result == GameResult::BlackWinsByForfeit),
            (b, result == GameResult::WhiteWinsByForfeit),
        ] {
            if let Some((_, name, withdrawn, banned)) = unable.iter().find(|x| x.0 == p)
                && (*withdrawn || *banned)
                && !lost
            {
                return Err(rejected(format!(
                    "{p} {name} is {} and seated at table {table}: enter the forfeit, or re-pair",
                    if *banned { "banned" } else { "withdrawn" }
                )));
            }
        }
    }
    Ok(true)
}

/// The stage a penalty given now counts in: the current stage of an event (the last one
/// seeded), 1 for a tournament of one system.
pub(crate) fn penalty_stage(tx: &mut Tx<'_>, tid: TournamentId) -> Result<u32> {
    Ok(load_event_in(tx, tid)?.map_or(1, |e| e.current().stage.0))
}

/// Refuses a late entry into an event of stages: its first stage's seeds (and groups) are
/// fixed once a round is paired.
pub(crate) fn refuse_late_entry(tx: &mut Tx<'_>, tid: TournamentId) -> Result<()> {
    if !is_staged(tx, tid)? {
        return Ok(());
    }
    let paired: i64 = tx.query_one(
        "SELECT count(*) FROM rounds WHERE tournament_id = ?1",
        [tid],
        |r| r.get(0),
    )?;
    if paired > 0 {
        return Err(rejected(
            "an event in stages takes no late entries: its first stage was seeded when round 1 \
             was paired (its seeds and groups are fixed)",
        ));
    }
    Ok(())
}

/// Refuses an absence asked in an event of stages: every qualified player is paired (a
/// player who does not come loses by forfeit, or is withdrawn).
pub(crate) fn refuse_absence(tx: &mut Tx<'_>, tid: TournamentId) -> Result<()> {
    if is_staged(tx, tid)? {
        return Err(rejected(
            "an event in stages pairs every player of the stage: a player who cannot come loses \
             by default, or withdraw them",
        ));
    }
    Ok(())
}

/// The placeholder one-system settings of an event of stages' tournament row (its stages
/// hold the real ones; `system`, `rounds` and `tiebreaks` are not read for it).
fn placeholder(setup: &TournamentSetup) -> TournamentSetup {
    TournamentSetup {
        system: ggdesk_core::tournament::System::RoundRobin,
        rounds: None,
        tiebreaks: Vec::new(),
        ..setup.clone()
    }
}

/// Checks a stage list with the event's points, as the core does.
fn check_settings(setup: &TournamentSetup, stages: &[StageSpec]) -> Result<()> {
    EventSettings {
        points: setup.points,
        forbidden: Vec::new(),
        stages: stages.to_vec(),
    }
    .check()
    .map_err(|e| rejected(e.to_string()))
}

/// One stage in a line, for the audit log.
pub fn stage_line(s: &StageSpec) -> String {
    let mut out = format!(
        "{} ",
        if s.name.trim().is_empty() {
            "(unnamed)"
        } else {
            s.name.trim()
        }
    );
    out.push_str(&match s.format {
        StageFormat::Swiss { rounds } => format!("Swiss, {rounds} rounds"),
        StageFormat::RoundRobin { groups, rounds } => format!(
            "round robin{}{}",
            if groups > 1 {
                format!(" in {groups} groups")
            } else {
                String::new()
            },
            rounds.map_or_else(String::new, |r| format!(", {r} rounds"))
        ),
        StageFormat::Knockout {
            series,
            seeding,
            third_place,
        } => format!(
            "knockout, {}{}{}",
            series_words(series),
            if seeding == Seeding::CrossOver {
                ", cross-over"
            } else {
                ""
            },
            if third_place {
                ", third-place match"
            } else {
                ""
            }
        ),
    });
    if let Some(a) = s.advance {
        out.push_str(&format!(", top {a} go on"));
    }
    out
}

/// How many rounds (drafts included) each stage has in the database, by stage index.
fn paired_per_stage(tx: &mut Tx<'_>, tid: TournamentId) -> Result<HashMap<usize, u32>> {
    let rows = tx.query_map(
        "SELECT stage, count(*) FROM rounds WHERE tournament_id = ?1 GROUP BY stage",
        [tid],
        |r| Ok((r.get::<u32>(0)?, r.get::<u32>(1)?)),
    )?;
    Ok(rows
        .into_iter()
        .map(|(s, n)| {
            (
                usize::try_from(s).unwrap_or(usize::MAX).saturating_sub(1),
                n,
            )
        })
        .collect())
}

impl Store {
    /// Creates an event of stages: `setup` gives its name, points and game rules (its
    /// system, rounds and tie-breaks are the stages'), `stages` its stages, checked as the
    /// core checks them.
    pub fn create_staged_tournament(
        &mut self,
        setup: &TournamentSetup,
        stages: &[StageSpec],
        actor: &Actor,
    ) -> Result<TournamentId> {
        let mut setup = placeholder(setup);
        setup.name = setup.name.trim().to_string();
        if setup.name.is_empty() {
            return Err(rejected("a tournament needs a name"));
        }
        setup.check()?;
        check_settings(&setup, stages)?;
        self.write(|tx| {
            let id = super::tournaments::insert_tournament(tx, &setup, &Map::new())?;
            tx.execute("UPDATE tournaments SET format = 2 WHERE id = ?1", [id])?;
            write_stages(tx, id, stages)?;
            let lines: Vec<String> = stages.iter().map(stage_line).collect();
            audit(
                tx,
                actor,
                "tournament created",
                Some(id),
                None,
                "",
                &format!("{} (in stages: {})", setup.name, lines.join(" -> ")),
            )?;
            Ok(id)
        })
    }

    /// The stages of a tournament, in order; `None` for a tournament of one system.
    pub fn stages(&self, tid: TournamentId) -> Result<Option<Vec<StageSpec>>> {
        self.read(|q| read_stages(q, tid))
    }

    /// Sets a tournament's stages: `Some` makes it an event of stages (or changes its
    /// stages), `None` a tournament of one system again. A stage is fixed once a round of it
    /// is paired (a draft included): only the stages after the last one paired can change,
    /// be added or removed, and a tournament with a round paired cannot change between one
    /// system and stages. In the audit log with `reason`.
    pub fn set_stages(
        &mut self,
        tid: TournamentId,
        stages: Option<&[StageSpec]>,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [tid])?;
            let setup = read_setup(tx, tid)?;
            let old = read_stages(tx, tid)?;
            let paired = paired_per_stage(tx, tid)?;
            let any_paired = !paired.is_empty();
            match (&old, stages) {
                (None, None) => return Ok(()),
                (None, Some(_)) | (Some(_), None) if any_paired => {
                    return Err(rejected(
                        "a round has been paired: the tournament cannot change between one system \
                         and stages",
                    ));
                }
                _ => {}
            }
            let Some(new) = stages else {
                tx.execute("DELETE FROM stages WHERE tournament_id = ?1", [tid])?;
                tx.execute("UPDATE tournaments SET format = 1, system = 'swiss', rounds = 5, tiebreaks = ?1 WHERE id = ?2",
                    args![tiebreak_text(&TieBreak::default_order()), tid])?;
                return audit(tx, actor, "tournament settings changed", Some(tid), None, reason.trim(),
                    "one system (a 5-round Swiss) instead of stages");
            };
            check_settings(&setup, new)?;
            let old = old.unwrap_or_default();
            for (&k, _) in paired.iter() {
                if old.get(k) != new.get(k) {
                    return Err(rejected(format!(
                        "stage {} has a round paired: it is fixed (only the stages after it can change)",
                        k + 1
                    )));
                }
            }
            if old == new {
                return Ok(());
            }
            if old.is_empty() {
                let placeholder = placeholder(&setup);
                tx.execute(
                    "UPDATE tournaments SET format = 2, system = ?1, rounds = NULL, tiebreaks = '' WHERE id = ?2",
                    args![placeholder.system.name(), tid],
                )?;
            }
            write_stages(tx, tid, new)?;
            check_event(tx, tid)?;
            let lines: Vec<String> = new.iter().map(stage_line).collect();
            audit(
                tx,
                actor,
                "tournament settings changed",
                Some(tid),
                None,
                reason.trim(),
                &format!("stages: {}", lines.join(" -> ")),
            )
        })
    }

    /// The event of a tournament of stages, built by the core from its tables (every
    /// published or complete round; a draft is not part of it): its stages with their
    /// seeds, groups, cuts, playoffs and bracket, and everything the core answers on it
    /// (`next_step`, `stage_standings`, `final_placement`, `bracket_json`). Refused for a
    /// tournament of one system (its model is [`Store::load_tournament`]).
    pub fn load_event(&self, tid: TournamentId) -> Result<Event> {
        self.read(|q| load_event_in(q, tid))?
            .ok_or_else(|| rejected(format!("tournament {tid} is not an event in stages")))
    }

    /// An event as the public pages show it, read from what the public may see alone (see
    /// [`super::public`]): the core's event (players with names, ratings, clubs and
    /// withdrawals; stages; every published or complete round with its groups and matches;
    /// penalties' points) and each of those rounds as the pages show it, with its place in
    /// the event and each board's group or match and state, in one read. `None` when there
    /// is no such tournament or it is not an event of stages.
    pub fn public_event(&self, tid: TournamentId) -> Result<Option<(Event, Vec<RoundView>)>> {
        self.read(|q| {
            let staged =
                q.query_opt("SELECT format FROM tournaments WHERE id = ?1", [tid], |r| {
                    r.get::<i64>(0)
                })?;
            if staged != Some(2) {
                return Ok(None);
            }
            let Some((_, views)) = super::public::public_tournament_in(q, tid)? else {
                return Ok(None);
            };
            let Some(parts) = event_parts(q, tid, true)? else {
                return Ok(None);
            };
            let event = Event::new(parts).map_err(|e| StoreError::Corrupt {
                path: format!("tournament {tid}"),
                detail: format!("its rounds do not fit its stages: {e}"),
            })?;
            Ok(Some((event, views)))
        })
    }

    /// Pairs and publishes, in one action, the next step of an event of stages when it
    /// leaves nothing to decide: the next games of the knockout (one for every open match:
    /// a match's next game appears when the round before is complete) or the next playoff
    /// games at a cut. Refused for a Swiss or round-robin round (pair it as a draft, look at
    /// it, publish it) and for a tournament of one system. Returns the round's number and
    /// its backup.
    pub fn start_next_games(
        &mut self,
        tid: TournamentId,
        actor: &Actor,
    ) -> Result<(u32, BackupNote)> {
        let (number, completed) = self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [tid])?;
            if !is_staged(tx, tid)? {
                return Err(rejected(
                    "only an event of stages has knockout or playoff games: pair the round",
                ));
            }
            let last = super::rounds::rounds_in(tx, tid)?.last().copied();
            if let Some(last) = last {
                match last.state {
                    RoundState::Draft => {
                        return Err(rejected(format!(
                            "round {} is drafted already: publish or discard it first",
                            last.number
                        )));
                    }
                    RoundState::Published => {
                        let pending = super::pairings::pending_boards(tx, tid, last.number)?;
                        if pending > 0 {
                            return Err(rejected(format!(
                                "round {} still has {pending} game{} without a result",
                                last.number,
                                if pending == 1 { "" } else { "s" }
                            )));
                        }
                        super::pairings::complete_if_done(tx, tid, last.number, actor)?;
                    }
                    RoundState::Complete => {}
                }
            }
            let event = load_event_in(tx, tid)?.ok_or_else(|| rejected("not staged"))?;
            let step = event.next_step().map_err(|e| rejected(step_refusal(&e)))?;
            if !forced(&event, &step) {
                return Err(rejected(format!(
                    "the next round of {} is a pairing to look at: pair it as a draft, then publish it",
                    stage_words(&event, step.stage())
                )));
            }
            let Some((number, _)) = draft_next(tx, tid, actor, "")? else {
                return Err(rejected("not staged"));
            };
            tx.execute(
                "UPDATE rounds SET state = 'published', published_at = ?1
                 WHERE tournament_id = ?2 AND number = ?3",
                args![tx.now(), tid, number],
            )?;
            audit(tx, actor, "round published", Some(tid), None, "", &format!("round {number}"))?;
            check_event(tx, tid)?;
            // Every game already decided (withdrawn players' forfeits): the round is complete.
            let completed = super::pairings::complete_if_done(tx, tid, number, actor)?;
            Ok((number, completed))
        })?;
        let label = if completed {
            format!("t{tid}-round-{number}-complete")
        } else {
            format!("t{tid}-round-{number}-published")
        };
        Ok((number, self.backup_note(&label)))
    }
}

/// The rounds of a `ggdesk-tournament/2` file as the store writes them, in number order:
/// (stage index, playoff, games, byes, absences), the playoff games of a stage (all of them,
/// as one round) after its rounds.
type FileRound = (usize, bool, Vec<StageGame>, Vec<PlayerId>, Vec<PlayerId>);

fn file_rounds(event: &Event) -> Vec<FileRound> {
    let mut out = Vec::new();
    for (k, play) in event.parts().stages.iter().enumerate() {
        for r in &play.rounds {
            out.push((k, false, r.games.clone(), r.byes.clone(), r.absent.clone()));
        }
        if !play.playoffs.is_empty() {
            let games = play
                .playoffs
                .iter()
                .map(|g| StageGame {
                    group: g.group,
                    series: None,
                    game: Game {
                        table: None,
                        white: g.white,
                        black: g.black,
                        result: g.result,
                    },
                })
                .collect();
            out.push((k, true, games, Vec::new(), Vec::new()));
        }
    }
    out
}

/// The keys of a `/2` file the event reads; others are kept in `tournaments.extra`.
const FILE_KEYS_2: [&str; 6] = [
    "format",
    "name",
    "settings",
    "players",
    "penalties",
    "stages",
];

impl Store {
    /// Imports a `ggdesk-tournament/2` file (an event of stages, checked as `pair` checks
    /// it) in one transaction: the tournament, its stages, players (linked to the registry
    /// as a `/1` file's are), forbidden pairs, every round of every stage (complete ones as
    /// complete, the others as published), each stage's playoff games as one round after
    /// its rounds, and the penalties with their stages.
    pub(crate) fn import_event(&mut self, file: &Value, actor: &Actor) -> Result<TournamentId> {
        let event = Event::from_value(file).map_err(|e| rejected(e.to_string()))?;
        let rules = super::tournaments::file_rules(file.get("settings"))?;
        let extra: Map<String, Value> = file
            .as_object()
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| !FILE_KEYS_2.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let setup = placeholder(&TournamentSetup {
            name: event.name().to_string(),
            points: event.settings().points,
            rules,
            ..TournamentSetup::default()
        });
        setup.check()?;
        let rounds = file_rounds(&event);
        self.write(|tx| {
            super::trace("import transaction begun");
            let id = super::tournaments::insert_tournament(tx, &setup, &extra)?;
            tx.execute("UPDATE tournaments SET format = 2 WHERE id = ?1", [id])?;
            write_stages(tx, id, &event.settings().stages)?;
            // A player absent in every round of the first stage so far is a late entry from
            // the round after.
            let first: Vec<&FileRound> = rounds.iter().filter(|r| r.0 == 0 && !r.1).collect();
            let leading = |p: PlayerId| -> u32 {
                let n = first.iter().take_while(|r| r.4.contains(&p)).count();
                u32::try_from(n).unwrap_or(u32::MAX)
            };
            super::tournaments::write_players(tx, id, event.players(), &leading)?;
            for &(a, b) in &event.settings().forbidden {
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                tx.prepare_cached(
                    "INSERT INTO forbidden_pairs (tournament_id, player_a, player_b) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
                )?
                .execute(args![id, lo.0, hi.0])?;
            }
            let now = tx.now();
            for (n, (k, playoff, games, byes, absent)) in rounds.iter().enumerate() {
                let number = n + 1;
                let complete = games.iter().all(|g| g.game.result != GameResult::Pending);
                tx.prepare_cached(
                    "INSERT INTO rounds (tournament_id, number, state, published_at, completed_at, stage, kind)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )?
                .execute(args![
                    id,
                    number,
                    if complete { "complete" } else { "published" },
                    now,
                    complete.then_some(now),
                    k + 1,
                    kind_code(*playoff)
                ])?;
                for (i, g) in games.iter().enumerate() {
                    let board = i + 1;
                    tx.prepare_cached(
                        "INSERT INTO pairings (tournament_id, round, board_no, table_no, table_given, white,
                             black, result, group_letter, match_id)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                    )?
                    .execute(args![
                        id,
                        number,
                        board,
                        g.game.table.map_or(i64::try_from(board).unwrap_or(i64::MAX), i64::from),
                        g.game.table.is_some(),
                        g.game.white.0,
                        g.game.black.0,
                        g.game.result.name(),
                        g.group.map(|x| x.to_string()),
                        g.series.map(|x| x.to_string())
                    ])?;
                }
                for (i, b) in byes.iter().enumerate() {
                    tx.prepare_cached(
                        "INSERT INTO round_byes (tournament_id, round, player_no, seq) VALUES (?1, ?2, ?3, ?4)",
                    )?
                    .execute(args![id, number, b.0, i])?;
                }
                for (i, a) in absent.iter().enumerate() {
                    tx.prepare_cached(
                        "INSERT INTO absences (tournament_id, round, player_no, reason, seq) VALUES (?1, ?2, ?3, 'in the file', ?4)",
                    )?
                    .execute(args![id, number, a.0, i])?;
                }
            }
            for p in &event.parts().penalties {
                tx.prepare_cached(
                    "INSERT INTO penalties (tournament_id, player_no, points, reason, decided_at, stage)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )?
                .execute(args![
                    id,
                    p.penalty.player.0,
                    p.penalty.points.halves(),
                    p.penalty.reason,
                    now,
                    p.stage.0
                ])?;
            }
            // What was written is the file's event again.
            let stored = load_event_in(tx, id)?;
            if stored.as_ref().map(Event::parts) != Some(event.parts()) {
                return Err(rejected(
                    "the event read back from the database differs from the file's (nothing was imported)",
                ));
            }
            let played: usize = event.parts().stages.iter().map(|p| p.rounds.len()).sum();
            audit(
                tx,
                actor,
                "tournament imported",
                Some(id),
                None,
                "",
                &format!(
                    "{}: {} players, {} stages, {played} rounds",
                    event.name(),
                    event.players().len(),
                    event.settings().stages.len()
                ),
            )?;
            super::trace("import transaction committing");
            Ok(id)
        })
    }

    /// An event of stages as a `ggdesk-tournament/2` file: every published or complete
    /// round of every stage and the playoffs, the GGF rule settings in `settings.rules`, a
    /// rated event's `date`, and the keys of an imported file this desk does not use.
    pub(crate) fn export_event(&self, tid: TournamentId) -> Result<Value> {
        let (event, setup, extra, rated) = self.read(|q| {
            let event = load_event_in(q, tid)?
                .ok_or_else(|| rejected(format!("tournament {tid} is not an event in stages")))?;
            let setup = read_setup(q, tid)?;
            let (extra, rated): (String, Option<String>) = q.query_row(
                "SELECT extra, rated_date FROM tournaments WHERE id = ?1",
                [tid],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            Ok((event, setup, extra, rated))
        })?;
        Ok(super::tournaments::with_desk_keys(
            event.to_value(),
            &setup,
            &extra,
            rated,
        ))
    }
}
