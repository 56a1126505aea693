//! The event's rows: the one reader that builds the core's [`Event`] from the tables (with
//! what a reader may see as a parameter), and the one writer of what the core decided
//! ([`Changes`]). Nothing here decides anything: a row this build never writes is an error
//! naming the table and the row, a record the core refuses is a damaged database.
//!
//! The tables: `tournaments` (the setup, `format` 1 or 2), `stages`, `registrations`,
//! `forbidden_pairs`, `rounds` (numbered on across the stages, each with its `stage` and
//! `kind`), `pairings` (the boards, each with its group or match), `round_byes`,
//! `absences`, `penalties` (each with its stage), and of `games` the live games at the
//! tables.

use super::db::{Row, Tx, Value as DbValue, args};
use super::error::{Context, Result, StoreError};
use ggdesk_core::event::{
    Absence, BoardRecord, ByeRecord, Changes, DeskGame, DeskOutcome, Edit, Entrant, Event,
    EventRecord, Format, PenaltyRecord, RoundKind, RoundRecord, RoundState, TournamentSetup,
};
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::rules::clock::NS_PER_S;
use ggdesk_core::stages::{GroupId, MatchFormat, MatchId, Seeding, StageFormat, StageSpec};
use ggdesk_core::tournament::{
    GameResult, PenaltyId, Player, PlayerId, PointsScale, RegistryId, RoundNo, Score, StageNo,
    System, TieBreak, TournamentId,
};
use serde_json::{Map, Value};

/// Who reads an event, and so which columns they may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reader {
    /// The director's desk, or an arbiter station (whose views hide federation ids and
    /// registration extras: they read as none).
    Desk,
    /// The public pages: names, numbers, ratings, clubs, results, states and points of the
    /// published and complete rounds; no federation id, registry link, reason, explanation,
    /// official start or forbidden pair.
    Public,
}

fn corrupt(tid: TournamentId, detail: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        path: format!("tournament {tid}"),
        detail: detail.to_string(),
    }
}

fn tiebreaks(text: &str) -> Result<Vec<TieBreak>> {
    text.split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            TieBreak::from_name(s)
                .ok_or_else(|| StoreError::Decode(format!("unknown tie-break {s:?}")))
        })
        .collect()
}

const SETUP_COLUMNS: &str =
    "name, system, rounds, win_points, draw_points, loss_points, bye_points,
     forfeit_win_points, forfeit_loss_points, absent_points, tiebreaks, rules, setup_s,
     reading_s, grace_s";

/// A `tournaments` row (selected with [`SETUP_COLUMNS`]) as a setup.
fn setup_of(r: &Row) -> Result<TournamentSetup> {
    let half = |i: usize| -> Result<Score> { Ok(Score::from_halves(r.get(i)?)) };
    let rules: String = r.get(11)?;
    let value: Value = serde_json::from_str(&rules)
        .map_err(|e| StoreError::Decode(format!("its rules are not JSON: {e}")))?;
    let mut rules = RuleSettings::from_record_value(Some(&value))
        .map_err(|e| StoreError::Decode(format!("its rules: {e}")))?;
    rules.setup_limit_ns = r.get::<i64>(12)?.saturating_mul(NS_PER_S);
    rules.reading_limit_ns = r.get::<i64>(13)?.saturating_mul(NS_PER_S);
    rules.grace_ns = r.get::<i64>(14)?.saturating_mul(NS_PER_S);
    Ok(TournamentSetup {
        name: r.get(0)?,
        system: r.code("system", System::from_name)?,
        rounds: r.get(2)?,
        points: PointsScale {
            win: half(3)?,
            draw: half(4)?,
            loss: half(5)?,
            bye: half(6)?,
            forfeit_win: half(7)?,
            forfeit_loss: half(8)?,
            absent: half(9)?,
        },
        tiebreaks: tiebreaks(&r.get::<String>(10)?)?,
        rules,
    })
}

/// A tournament's setup and whether it is an event of stages.
pub(crate) fn read_setup(q: &mut Tx<'_>, tid: TournamentId) -> Result<(TournamentSetup, bool)> {
    q.query_opt(
        &format!("SELECT {SETUP_COLUMNS}, format FROM tournaments WHERE id = ?1"),
        [tid],
        |r| {
            (|| {
                let staged = match r.get::<i64>(15)? {
                    1 => false,
                    2 => true,
                    other => {
                        return Err(StoreError::Decode(format!(
                            "format holds {other}, neither 1 nor 2"
                        )));
                    }
                };
                Ok((setup_of(r)?, staged))
            })()
            .at("tournaments", format!("tournament {tid}"))
        },
    )?
    .ok_or_else(|| StoreError::NotFound(format!("tournament {tid}")))
}

const STAGE_COLUMNS: &str = "stage_no, name, system, round_count, groups, advance, tiebreaks, \
                             series, series_value, seeding, third_place";

/// A knockout's series and seeding from its `stages` columns.
fn knockout(r: &Row) -> Result<StageFormat> {
    let series: Option<String> = r.get(7)?;
    let value: Option<i64> = r.get(8)?;
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
    let seeding = match r.get::<Option<String>>(9)?.as_deref() {
        None | Some("standard") => Seeding::Standard,
        Some("cross_over") => Seeding::CrossOver,
        Some(other) => return Err(StoreError::Decode(format!("unknown seeding {other:?}"))),
    };
    Ok(StageFormat::Knockout {
        series,
        seeding,
        third_place: r.get(10)?,
    })
}

/// A `stages` row (selected with [`STAGE_COLUMNS`]) as the core's stage.
fn stage_spec(r: &Row) -> Result<StageSpec> {
    let round_count: Option<u32> = r.get(3)?;
    let format = match r.get::<String>(2)?.as_str() {
        "swiss" => StageFormat::Swiss {
            rounds: round_count
                .ok_or_else(|| StoreError::Decode("a Swiss stage without rounds".into()))?,
        },
        "round_robin" => StageFormat::RoundRobin {
            groups: r.get(4)?,
            rounds: round_count,
        },
        "knockout" => knockout(r)?,
        other => return Err(StoreError::Decode(format!("unknown system {other:?}"))),
    };
    Ok(StageSpec {
        name: r.get(1)?,
        format,
        tiebreaks: tiebreaks(&r.get::<String>(6)?)?,
        advance: r.get(5)?,
    })
}

/// The stages of an event of stages, in order.
fn read_stages(q: &mut Tx<'_>, tid: TournamentId) -> Result<Vec<StageSpec>> {
    let rows = q.query_map(
        &format!("SELECT {STAGE_COLUMNS} FROM stages WHERE tournament_id = ?1 ORDER BY stage_no"),
        [tid],
        |r| {
            let no: u32 = r.get(0).at("stages", format!("tournament {tid}"))?;
            Ok((
                no,
                stage_spec(r).at("stages", format!("tournament {tid}, stage {no}"))?,
            ))
        },
    )?;
    let mut out = Vec::new();
    for (k, (no, spec)) in rows.into_iter().enumerate() {
        if usize::try_from(no).ok() != Some(k + 1) {
            return Err(StoreError::Damaged {
                table: "stages",
                row: format!("tournament {tid}, stage {no}"),
                detail: format!("stage {no} follows stage {k}"),
            });
        }
        out.push(spec);
    }
    Ok(out)
}

/// Every event's stages, by tournament (for the list of tournaments).
pub(crate) fn every_stage(q: &mut Tx<'_>) -> Result<Vec<(TournamentId, StageSpec)>> {
    q.query_map(
        &format!(
            "SELECT {STAGE_COLUMNS}, tournament_id FROM stages ORDER BY tournament_id, stage_no"
        ),
        args![],
        |r| {
            let tid: TournamentId = r.get(11)?;
            Ok((
                tid,
                stage_spec(r).at("stages", format!("tournament {tid}"))?,
            ))
        },
    )
}

fn extra_of(text: &str) -> Map<String, Value> {
    match serde_json::from_str(text) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// The players as registered, in the players list's order.
pub(crate) fn read_entrants(
    q: &mut Tx<'_>,
    tid: TournamentId,
    reader: Reader,
) -> Result<Vec<Entrant>> {
    let sql = match reader {
        Reader::Desk => {
            "SELECT r.player_no, r.name, r.rating, r.club, r.withdrawn, r.federation_id, r.extra,
                    r.player_id, r.entry_round, p.status = 'banned'
             FROM registrations r JOIN players p ON p.id = r.player_id
             WHERE r.tournament_id = ?1 ORDER BY r.seq, r.player_no"
        }
        Reader::Public => {
            "SELECT player_no, name, rating, club, withdrawn, NULL, '{}', 0, 1, 0 = 1
             FROM registrations WHERE tournament_id = ?1 ORDER BY seq, player_no"
        }
    };
    q.query_map(sql, [tid], |r| {
        let no: PlayerId = r.get(0)?;
        (|| {
            Ok(Entrant {
                player: Player {
                    club: r.get(3)?,
                    withdrawn: r.get(4)?,
                    federation_id: r.get(5)?,
                    extra: extra_of(&r.get::<String>(6)?),
                    ..Player::new(no, r.get::<String>(1)?, r.get(2)?)
                },
                registry: RegistryId(r.get(7)?),
                entry_round: r.get(8)?,
                banned: r.get(9)?,
            })
        })()
        .at("registrations", format!("tournament {tid}, player {no}"))
    })
}

/// The rounds with their boards and byes, in number order.
fn read_rounds(q: &mut Tx<'_>, tid: TournamentId, reader: Reader) -> Result<Vec<RoundRecord>> {
    let sql = match reader {
        Reader::Desk => {
            "SELECT number, state, stage, kind, starts_at, published_at, explanation FROM rounds
             WHERE tournament_id = ?1 ORDER BY number"
        }
        Reader::Public => {
            "SELECT number, state, stage, kind, NULL, NULL, '' FROM rounds
             WHERE tournament_id = ?1 AND state <> 'draft' ORDER BY number"
        }
    };
    let mut rounds = q.query_map(sql, [tid], |r| {
        let number: RoundNo = r.get(0)?;
        (|| {
            Ok(RoundRecord {
                number,
                state: r.code("state", RoundState::from_code)?,
                stage: r.get(2)?,
                kind: r.code("kind", RoundKind::from_code)?,
                starts_at: r.get(4)?,
                published_at: r.get(5)?,
                explanation: r.get(6)?,
                boards: Vec::new(),
                byes: Vec::new(),
            })
        })()
        .at("rounds", format!("tournament {tid}, round {number}"))
    })?;
    let count = rounds.len();
    let slot = |n: RoundNo| n.index().filter(|&i| i < count);
    for (n, board) in read_boards(q, tid, reader)? {
        if let Some(i) = slot(n) {
            rounds[i].boards.push(board);
        }
    }
    let sql = match reader {
        Reader::Desk => {
            "SELECT round, player_no, explanation FROM round_byes WHERE tournament_id = ?1
             ORDER BY round, seq, player_no"
        }
        Reader::Public => {
            "SELECT round, player_no, '' FROM round_byes WHERE tournament_id = ?1
             ORDER BY round, seq, player_no"
        }
    };
    for (n, bye) in q.query_map(sql, [tid], |r| {
        Ok((
            r.get::<RoundNo>(0)?,
            ByeRecord {
                player: r.get(1)?,
                explanation: r.get(2)?,
            },
        ))
    })? {
        if let Some(i) = slot(n) {
            rounds[i].byes.push(bye);
        }
    }
    Ok(rounds)
}

/// A board's group and match, from its `group_letter` and `match_id` columns.
fn stage_of_board(r: &Row) -> Result<(Option<GroupId>, Option<MatchId>)> {
    let group = r
        .get::<Option<String>>("group_letter")?
        .map(|g| {
            GroupId::from_letter(&g).ok_or_else(|| {
                StoreError::Decode(format!("group_letter holds an unknown group {g:?}"))
            })
        })
        .transpose()?;
    let series = r
        .get::<Option<String>>("match_id")?
        .map(|m| {
            MatchId::parse(&m)
                .ok_or_else(|| StoreError::Decode(format!("match_id holds an unknown match {m:?}")))
        })
        .transpose()?;
    Ok((group, series))
}

/// Every board of every round, in round and board order.
fn read_boards(
    q: &mut Tx<'_>,
    tid: TournamentId,
    reader: Reader,
) -> Result<Vec<(RoundNo, BoardRecord)>> {
    let explanation = match reader {
        Reader::Desk => "explanation",
        Reader::Public => "'' AS explanation",
    };
    q.query_map(
        &format!(
            "SELECT round, board_no, table_no, table_given, white, black, result, {explanation},
                    group_letter, match_id
             FROM pairings WHERE tournament_id = ?1 ORDER BY round, board_no"
        ),
        [tid],
        |r| {
            let (round, board): (RoundNo, u32) = (r.get(0)?, r.get(1)?);
            (|| {
                let (group, series) = stage_of_board(r)?;
                Ok((
                    round,
                    BoardRecord {
                        board: r.get(1)?,
                        table: r.get(2)?,
                        table_given: r.get(3)?,
                        white: r.get(4)?,
                        black: r.get(5)?,
                        result: r.code("result", GameResult::from_name)?,
                        explanation: r.get(7)?,
                        group,
                        series,
                    },
                ))
            })()
            .at(
                "pairings",
                format!("tournament {tid}, round {round}, board {board}"),
            )
        },
    )
}

/// What an event keeps beside its rounds.
struct Beside {
    absences: Vec<Absence>,
    penalties: Vec<PenaltyRecord>,
    forbidden: Vec<(PlayerId, PlayerId)>,
}

/// The absences, the penalties and the forbidden pairs (a public reader sees no reasons
/// and no forbidden pairs).
fn read_beside(q: &mut Tx<'_>, tid: TournamentId, reader: Reader) -> Result<Beside> {
    let (absences, penalties) = match reader {
        Reader::Desk => (
            "SELECT round, player_no, reason FROM absences WHERE tournament_id = ?1
             ORDER BY round, seq, player_no",
            "SELECT id, stage, player_no, points, reason, decided_at FROM penalties
             WHERE tournament_id = ?1 ORDER BY id",
        ),
        Reader::Public => (
            "SELECT round, player_no, '' FROM absences WHERE tournament_id = ?1
             ORDER BY round, seq, player_no",
            "SELECT id, stage, player_no, points, '', 0 FROM penalties
             WHERE tournament_id = ?1 ORDER BY id",
        ),
    };
    let absences = q.query_map(absences, [tid], |r| {
        Ok(Absence {
            round: r.get(0)?,
            player: r.get(1)?,
            reason: r.get(2)?,
        })
    })?;
    let penalties = q.query_map(penalties, [tid], |r| {
        let id: PenaltyId = r.get(0)?;
        (|| {
            Ok(PenaltyRecord {
                id,
                stage: r.get(1)?,
                player: r.get(2)?,
                points: Score::from_halves(r.get(3)?),
                reason: r.get(4)?,
                decided_at: r.get(5)?,
            })
        })()
        .at("penalties", format!("penalty {id}"))
    })?;
    let forbidden = match reader {
        Reader::Desk => q.query_map(
            "SELECT player_a, player_b FROM forbidden_pairs WHERE tournament_id = ?1
             ORDER BY player_a, player_b",
            [tid],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?,
        Reader::Public => Vec::new(),
    };
    Ok(Beside {
        absences,
        penalties,
        forbidden,
    })
}

/// The live (not void) games at the tables of the tournament's rounds, oldest first.
pub(super) fn read_desk(q: &mut Tx<'_>, tid: TournamentId) -> Result<Vec<DeskGame>> {
    let adjudication = ggdesk_core::record::Status::AdjudicationPending.code();
    q.query_map(
        "SELECT id, round, table_no, started_at IS NOT NULL, result FROM games
         WHERE tournament_id = ?1 AND void = 0 AND round IS NOT NULL AND table_no IS NOT NULL
         ORDER BY id",
        [tid],
        |r| {
            let id = r.get(0)?;
            (|| {
                Ok(DeskGame {
                    id,
                    round: r.get(1)?,
                    table: r.get(2)?,
                    started: r.get(3)?,
                    outcome: match r.get::<Option<String>>(4)? {
                        None => DeskOutcome::Undecided,
                        Some(c) if c == adjudication => DeskOutcome::AdjudicationPending,
                        Some(_) => DeskOutcome::Decided,
                    },
                })
            })()
            .at("games", format!("game {id}"))
        },
    )
}

/// The event of a tournament, as `reader` may see it. A record the core refuses is a
/// damaged database (every write was checked by the core).
pub(crate) fn load(q: &mut Tx<'_>, tid: TournamentId, reader: Reader) -> Result<Event> {
    let (setup, staged) = read_setup(q, tid)?;
    let format = if staged {
        let stages = read_stages(q, tid)?;
        // A team event keeps its stages beside these (migration 10).
        if stages.is_empty() && super::team_rows::is_team_event(q, tid)? {
            return Err(super::team_rows::not_at_the_desk(tid));
        }
        Format::Stages(stages)
    } else {
        Format::OneSystem
    };
    let entrants = read_entrants(q, tid, reader)?;
    let rounds = read_rounds(q, tid, reader)?;
    let Beside {
        absences,
        penalties,
        forbidden,
    } = read_beside(q, tid, reader)?;
    let desk = read_desk(q, tid)?;
    let record = EventRecord {
        setup,
        format,
        forbidden,
        entrants,
        rounds,
        absences,
        penalties,
        desk,
    };
    Event::new(tid, record).map_err(|d| corrupt(tid, d))
}

/// The values of [`SETUP_COLUMNS`] for a setup, in order.
fn setup_values(s: &TournamentSetup) -> Vec<DbValue> {
    let p = &s.points;
    args![
        s.name,
        s.system.name(),
        s.rounds,
        p.win.halves(),
        p.draw.halves(),
        p.loss.halves(),
        p.bye.halves(),
        p.forfeit_win.halves(),
        p.forfeit_loss.halves(),
        p.absent.halves(),
        ggdesk_core::event::words::tiebreak_text(&s.tiebreaks),
        s.rules.record_value().to_string(),
        s.rules.setup_limit_ns / NS_PER_S,
        s.rules.reading_limit_ns / NS_PER_S,
        s.rules.grace_ns / NS_PER_S,
    ]
    .to_vec()
}

/// Inserts a tournament row (with its stages) and returns its id. `extra`: the keys of an
/// imported file this desk does not use.
pub(crate) fn insert_tournament(
    tx: &mut Tx<'_>,
    s: &TournamentSetup,
    stages: Option<&[StageSpec]>,
    extra: &Map<String, Value>,
) -> Result<TournamentId> {
    let mut values = setup_values(s);
    values.push(DbValue::Text(Value::Object(extra.clone()).to_string()));
    values.push(DbValue::Int(tx.now()));
    values.push(DbValue::Int(if stages.is_some() { 2 } else { 1 }));
    let id = tx.query_one(
        &format!(
            "INSERT INTO tournaments ({SETUP_COLUMNS}, extra, created_at, format)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)
             RETURNING id"
        ),
        &values[..],
        |r| r.get(0),
    )?;
    if let Some(stages) = stages {
        write_stages(tx, id, stages)?;
    }
    Ok(id)
}

/// The `stages` columns of a stage's format: system, round count, groups, series and its
/// value, seeding, third-place match.
type FormatColumns = (
    &'static str,
    Option<u32>,
    u32,
    Option<&'static str>,
    Option<i64>,
    Option<&'static str>,
    bool,
);

fn format_columns(f: StageFormat) -> FormatColumns {
    match f {
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
    }
}

/// Writes a tournament's stages (all of them, replacing any).
fn write_stages(tx: &mut Tx<'_>, tid: TournamentId, stages: &[StageSpec]) -> Result<()> {
    tx.execute("DELETE FROM stages WHERE tournament_id = ?1", [tid])?;
    for (k, s) in stages.iter().enumerate() {
        let (system, round_count, groups, series, value, seeding, third) = format_columns(s.format);
        tx.execute(
            &format!(
                "INSERT INTO stages (tournament_id, {STAGE_COLUMNS})
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
            ),
            args![
                tid,
                k + 1,
                s.name,
                system,
                round_count,
                groups,
                s.advance,
                ggdesk_core::event::words::tiebreak_text(&s.tiebreaks),
                series,
                value,
                seeding,
                third
            ],
        )?;
    }
    Ok(())
}

/// Writes a new round with its boards and byes.
fn insert_round(tx: &mut Tx<'_>, tid: TournamentId, r: &RoundRecord) -> Result<()> {
    let now = tx.now();
    tx.prepare_cached(
        "INSERT INTO rounds (tournament_id, number, state, starts_at, published_at, completed_at,
             explanation, stage, kind)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(args![
        tid,
        r.number,
        r.state.code(),
        r.starts_at,
        r.published_at,
        (r.state == RoundState::Complete).then_some(now),
        r.explanation,
        r.stage,
        r.kind.code()
    ])?;
    for b in &r.boards {
        tx.prepare_cached(
            "INSERT INTO pairings (tournament_id, round, board_no, table_no, table_given, white,
                 black, result, explanation, group_letter, match_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?
        .execute(args![
            tid,
            r.number,
            b.board,
            b.table,
            b.table_given,
            b.white,
            b.black,
            b.result.name(),
            b.explanation,
            b.group.map(|g| g.to_string()),
            b.series.map(|m| m.to_string())
        ])?;
    }
    for (i, b) in r.byes.iter().enumerate() {
        tx.prepare_cached(
            "INSERT INTO round_byes (tournament_id, round, player_no, explanation, seq)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(args![tid, r.number, b.player, b.explanation, i])?;
    }
    Ok(())
}

/// Writes a registration at place `seq` of the players list.
pub(crate) fn insert_entrant(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    e: &Entrant,
    seq: i64,
) -> Result<()> {
    let p = &e.player;
    let now = tx.now();
    tx.prepare_cached(
        "INSERT INTO registrations (tournament_id, player_no, player_id, name, rating, club,
             federation_id, entry_round, withdrawn, extra, seq, registered_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(args![
        tid,
        p.id,
        e.registry,
        p.name,
        p.rating,
        p.club,
        p.federation_id,
        e.entry_round,
        p.withdrawn,
        Value::Object(p.extra.clone()).to_string(),
        seq,
        now
    ])?;
    Ok(())
}

/// Writes an absence (at place `seq` of its round's list); one already there stays.
fn insert_absence(tx: &mut Tx<'_>, tid: TournamentId, a: &Absence, seq: i64) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO absences (tournament_id, round, player_no, reason, seq)
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
    )?
    .execute(args![tid, a.round, a.player, a.reason, seq])?;
    Ok(())
}

/// Writes a penalty and returns its id.
fn insert_penalty(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    (stage, player, points, reason, at): (StageNo, PlayerId, Score, &str, i64),
) -> Result<PenaltyId> {
    tx.query_one(
        "INSERT INTO penalties (tournament_id, player_no, points, reason, decided_at, stage)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
        args![tid, player, points.halves(), reason, at, stage],
        |r| r.get(0),
    )
}

/// Writes the whole record of a new event (an import): its players, forbidden pairs,
/// rounds, absences and penalties. The tournament row is written first
/// ([`insert_tournament`]).
pub(crate) fn write_record(tx: &mut Tx<'_>, tid: TournamentId, r: &EventRecord) -> Result<()> {
    for (i, e) in r.entrants.iter().enumerate() {
        insert_entrant(tx, tid, e, i64::try_from(i).unwrap_or(i64::MAX))?;
    }
    for &(a, b) in &r.forbidden {
        write_edit(tx, tid, &Edit::AddForbidden(a, b))?;
    }
    for round in &r.rounds {
        insert_round(tx, tid, round)?;
    }
    let mut seq: std::collections::HashMap<RoundNo, i64> = std::collections::HashMap::new();
    for a in &r.absences {
        let n = seq.entry(a.round).or_insert(0);
        insert_absence(tx, tid, a, *n)?;
        *n += 1;
    }
    for p in &r.penalties {
        insert_penalty(
            tx,
            tid,
            (p.stage, p.player, p.points, &p.reason, p.decided_at),
        )?;
    }
    Ok(())
}

/// Writes a round's state change.
fn write_round_edit(tx: &mut Tx<'_>, tid: TournamentId, e: &Edit) -> Result<bool> {
    match e {
        Edit::AddRound(r) => insert_round(tx, tid, r)?,
        Edit::DeleteRound(n) => {
            for sql in [
                "DELETE FROM pairings WHERE tournament_id = ?1 AND round = ?2",
                "DELETE FROM round_byes WHERE tournament_id = ?1 AND round = ?2",
                "DELETE FROM rounds WHERE tournament_id = ?1 AND number = ?2",
            ] {
                tx.execute(sql, args![tid, n])?;
            }
        }
        Edit::Publish { round, at } => {
            tx.execute(
                "UPDATE rounds SET state = 'published', published_at = ?1
                 WHERE tournament_id = ?2 AND number = ?3",
                args![at, tid, round],
            )?;
        }
        Edit::Complete { round, at } => {
            tx.execute(
                "UPDATE rounds SET state = 'complete', completed_at = ?1
                 WHERE tournament_id = ?2 AND number = ?3",
                args![at, tid, round],
            )?;
        }
        Edit::Reopen(round) => {
            tx.execute(
                "UPDATE rounds SET state = 'published', completed_at = NULL
                 WHERE tournament_id = ?1 AND number = ?2",
                args![tid, round],
            )?;
        }
        Edit::SetStart { round, at } => {
            tx.execute(
                "UPDATE rounds SET starts_at = ?1 WHERE tournament_id = ?2 AND number = ?3",
                args![at, tid, round],
            )?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Writes a change of a round's boards and byes.
fn write_board_edit(tx: &mut Tx<'_>, tid: TournamentId, e: &Edit) -> Result<bool> {
    match e {
        Edit::SetResult {
            round,
            board,
            result,
        } => {
            tx.execute(
                "UPDATE pairings SET result = ?1
                 WHERE tournament_id = ?2 AND round = ?3 AND board_no = ?4",
                args![result.name(), tid, round, board],
            )?;
        }
        Edit::SetBoard {
            round,
            board,
            white,
            black,
            explanation,
        } => {
            tx.execute(
                "UPDATE pairings SET white = ?1, black = ?2, explanation = ?3
                 WHERE tournament_id = ?4 AND round = ?5 AND board_no = ?6",
                args![white, black, explanation, tid, round, board],
            )?;
        }
        Edit::AddBye { round, bye } => {
            tx.execute(
                "INSERT INTO round_byes (tournament_id, round, player_no, explanation)
                 VALUES (?1, ?2, ?3, ?4)",
                args![tid, round, bye.player, bye.explanation],
            )?;
        }
        Edit::RemoveBye { round, player } => {
            tx.execute(
                "DELETE FROM round_byes WHERE tournament_id = ?1 AND round = ?2 AND player_no = ?3",
                args![tid, round, player],
            )?;
        }
        Edit::VoidGames { round, reason } => {
            tx.execute(
                "UPDATE games SET void = 1, void_reason = ?1
                 WHERE tournament_id = ?2 AND round = ?3 AND void = 0",
                args![reason, tid, round],
            )?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Writes a change of the players, their absences and penalties, the forbidden pairs or the
/// settings; a penalty's new id is added to `ids`.
fn write_edit(tx: &mut Tx<'_>, tid: TournamentId, e: &Edit) -> Result<Option<PenaltyId>> {
    if write_round_edit(tx, tid, e)? || write_board_edit(tx, tid, e)? {
        return Ok(None);
    }
    match e {
        Edit::AddAbsence(a) => insert_absence(tx, tid, a, 0)?,
        Edit::RemoveAbsence { round, player } => {
            tx.execute(
                "DELETE FROM absences WHERE tournament_id = ?1 AND round = ?2 AND player_no = ?3",
                args![tid, round, player],
            )?;
        }
        Edit::Register(e) => insert_entrant(tx, tid, e, i64::from(e.player.id.0))?,
        Edit::Unregister(p) => {
            for sql in [
                "DELETE FROM absences WHERE tournament_id = ?1 AND player_no = ?2",
                "DELETE FROM registrations WHERE tournament_id = ?1 AND player_no = ?2",
            ] {
                tx.execute(sql, args![tid, p])?;
            }
        }
        Edit::SetWithdrawn { player, withdrawn } => {
            tx.execute(
                "UPDATE registrations SET withdrawn = ?1 WHERE tournament_id = ?2 AND player_no = ?3",
                args![withdrawn, tid, player],
            )?;
        }
        Edit::AddPenalty {
            stage,
            player,
            points,
            reason,
            at,
        } => {
            let id = insert_penalty(tx, tid, (*stage, *player, *points, reason, *at))?;
            return Ok(Some(id));
        }
        Edit::RemovePenalty(id) => {
            tx.execute(
                "DELETE FROM penalties WHERE id = ?1 AND tournament_id = ?2",
                args![id, tid],
            )?;
        }
        Edit::AddForbidden(a, b) => {
            tx.execute(
                "INSERT INTO forbidden_pairs (tournament_id, player_a, player_b) VALUES (?1, ?2, ?3)
                 ON CONFLICT DO NOTHING",
                args![tid, a, b],
            )?;
        }
        Edit::RemoveForbidden(a, b) => {
            tx.execute(
                "DELETE FROM forbidden_pairs WHERE tournament_id = ?1 AND player_a = ?2 AND player_b = ?3",
                args![tid, a, b],
            )?;
        }
        other => write_settings_edit(tx, tid, other)?,
    }
    Ok(None)
}

/// Writes a tournament's settings over its row (name, system, rounds, points, tie-breaks,
/// the games' rules).
pub(crate) fn update_setup(tx: &mut Tx<'_>, tid: TournamentId, s: &TournamentSetup) -> Result<()> {
    let mut values = setup_values(s);
    values.push(DbValue::Int(tid.0));
    tx.execute(
        "UPDATE tournaments SET name = ?1, system = ?2, rounds = ?3, win_points = ?4,
            draw_points = ?5, loss_points = ?6, bye_points = ?7, forfeit_win_points = ?8,
            forfeit_loss_points = ?9, absent_points = ?10, tiebreaks = ?11, rules = ?12,
            setup_s = ?13, reading_s = ?14, grace_s = ?15
         WHERE id = ?16",
        &values[..],
    )?;
    Ok(())
}

/// Writes a change of the settings or the stages.
fn write_settings_edit(tx: &mut Tx<'_>, tid: TournamentId, e: &Edit) -> Result<()> {
    match e {
        Edit::SetSetup(s) => update_setup(tx, tid, s)?,
        Edit::SetStages(Some(stages)) => {
            write_stages(tx, tid, stages)?;
            tx.execute("UPDATE tournaments SET format = 2 WHERE id = ?1", [tid])?;
        }
        Edit::SetStages(None) => {
            tx.execute("DELETE FROM stages WHERE tournament_id = ?1", [tid])?;
            tx.execute("UPDATE tournaments SET format = 1 WHERE id = ?1", [tid])?;
        }
        _ => {}
    }
    Ok(())
}

/// Writes what the core decided: its edits in order, then its lines of the audit log.
/// Returns the ids of the penalties it added.
pub(crate) fn write(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    changes: &Changes,
    actor: &super::audit::Actor,
) -> Result<Vec<PenaltyId>> {
    let mut ids = Vec::new();
    for e in &changes.edits {
        ids.extend(write_edit(tx, tid, e)?);
    }
    for line in &changes.audit {
        super::audit::audit(
            tx,
            actor,
            line.action,
            Some(tid),
            line.game.map(|g| g.0),
            &line.reason,
            &line.details,
        )?;
    }
    Ok(ids)
}
