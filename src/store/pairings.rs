//! A round's life: paired as a draft (the pairing's proposal with its explanation per
//! board), changed by hand (every change in the audit log; a rematch or a forbidden pair only
//! once confirmed), published, played, complete. Results by hand, default losses after the
//! grace period, re-pairing a published round. A backup is written at every round
//! transition (published, complete).

use super::registrations::registration_banned;
use super::seen::Scope;
use super::tournaments::{load, read_setup};
use super::{Actor, Result, Store, TournamentId, audit, rejected};
use ggdesk_core::pairing::{explain, pair_next_round};
use ggdesk_core::rules::Side;
const NS_PER_S: i64 = 1_000_000_000;
use super::db::{Optional, Tx, args};
use ggdesk_core::event::{self as lifecycle, DraftRound, RoundState, Seat, SwapPlan};
use ggdesk_core::tournament::{BoardNo, GameResult, PlayerId, RoundNo, Tournament};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What became of the backup written after a round transition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackupNote {
    Written(PathBuf),
    /// The database lives in memory (tests): no backup folder.
    NotOnDisk,
    /// The database is on an event server: the server and its standby keep it, there is
    /// no file to copy.
    OnServer,
    /// The transition is committed; only the backup failed.
    Failed(String),
}

impl BackupNote {
    /// A line for the desk's notices.
    pub fn describe(&self) -> String {
        match self {
            BackupNote::Written(p) => format!("backup written: {}", p.display()),
            BackupNote::NotOnDisk => "no backup (database in memory)".into(),
            BackupNote::OnServer => "kept by the event server (and its standby)".into(),
            BackupNote::Failed(e) => format!("the backup failed: {e}"),
        }
    }
}

/// What a result entered did to its round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultSaved {
    /// The round became complete with this result (and was backed up).
    pub completed: Option<BackupNote>,
}

/// A round just paired as a draft, and the round before it if pairing completed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paired {
    pub round: u32,
    pub completed: Option<RoundCompleted>,
}

/// A round that became complete with the result that was its last, and its backup
/// (written after the commit; a failed backup is reported here, never dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundCompleted {
    pub tournament: TournamentId,
    pub round: u32,
    pub backup: BackupNote,
}

/// Who did not come to the board within the grace period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absentee {
    White,
    Black,
    Both,
}

impl Absentee {
    /// The result it gives: the present player wins by forfeit; both absent, both lose.
    pub fn result(self) -> GameResult {
        match self {
            Absentee::White => GameResult::BlackWinsByForfeit,
            Absentee::Black => GameResult::WhiteWinsByForfeit,
            Absentee::Both => GameResult::DoubleForfeit,
        }
    }
}

fn state_of(conn: &mut Tx<'_>, tid: TournamentId, round: u32) -> Result<RoundState> {
    super::registrations::round_state(conn, tid, round)?
        .ok_or_else(|| rejected(format!("round {round} has not been paired")))
}

fn player_name(t: &Tournament, id: PlayerId) -> String {
    t.player(id)
        .map_or_else(|| id.to_string(), |p| format!("{id} {}", p.name))
}

/// The number of boards of a round still without a result.
pub(crate) fn pending_boards(conn: &mut Tx<'_>, tid: TournamentId, round: u32) -> Result<u32> {
    conn.query_row(
        "SELECT count(*) FROM pairings WHERE tournament_id = ?1 AND round = ?2 AND result = 'pending'",
        args![tid, round],
        |r| r.get(0),
    )
}

/// Marks a published round complete when none of its boards is pending. True if it did.
pub(crate) fn complete_if_done(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    round: u32,
    actor: &Actor,
) -> Result<bool> {
    // Two last results entered at once: the second to take this lock counts the first's.
    tx.lock(
        "rounds",
        "tournament_id = ?1 AND number = ?2",
        args![tid, round],
    )?;
    let state = state_of(tx, tid, round)?;
    let pending = pending_boards(tx, tid, round)?;
    if (state, state.after_results(pending)) != (RoundState::Published, RoundState::Complete) {
        return Ok(false);
    }
    tx.execute(
        "UPDATE rounds SET state = 'complete', completed_at = ?1 WHERE tournament_id = ?2 AND number = ?3",
        args![tx.now(), tid, round],
    )?;
    audit(
        tx,
        actor,
        "round complete",
        Some(tid),
        None,
        "",
        &format!("round {round}: every result is in"),
    )?;
    Ok(true)
}

/// The one rule of a round's completion, for every path a result takes (a result or a
/// default loss entered on the Rounds page, a game decided at the arbiter desk): once its
/// last result is in, a published round is complete; a result set back to pending (an
/// undo, a voided game, a correction) reopens a complete round. Runs inside the result's
/// own transaction, under the round's lock. True if the round became complete (the caller
/// backs it up after the commit).
pub(crate) fn round_after_result(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    round: u32,
    actor: &Actor,
    reason: &str,
) -> Result<bool> {
    tx.lock(
        "rounds",
        "tournament_id = ?1 AND number = ?2",
        args![tid, round],
    )?;
    // An event of stages must still hold together: a result that changes a cut whose next
    // stage has begun, or a double forfeit in a knockout, is refused.
    super::stages::check_event(tx, tid)?;
    // A rated event's result moves the rating list: rebuilt here, in the same transaction.
    super::ratings::after_result(tx, tid, round, actor, reason)?;
    let state = state_of(tx, tid, round)?;
    let pending = pending_boards(tx, tid, round)?;
    if (state, state.after_results(pending)) == (RoundState::Complete, RoundState::Published) {
        tx.execute(
            "UPDATE rounds SET state = 'published', completed_at = NULL WHERE tournament_id = ?1 AND number = ?2",
            args![tid, round],
        )?;
        audit(
            tx,
            actor,
            "round reopened",
            Some(tid),
            None,
            reason,
            &format!("round {round}: {pending} result(s) pending again"),
        )?;
        return Ok(false);
    }
    complete_if_done(tx, tid, round, actor)
}

/// Pairs the round after the last published or complete one, as a draft, inside `tx`.
fn draft_next_round(
    tx: &mut Tx<'_>,
    tid: TournamentId,
    actor: &Actor,
    reason: &str,
) -> Result<u32> {
    // An event of stages pairs its next step (a round of a stage, playoff games, the first
    // round of the stage it seeds) as the core decides it.
    if let Some((number, _)) = super::stages::draft_next(tx, tid, actor, reason)? {
        return Ok(number);
    }
    let t = load(tx, tid)?;
    let number = u32::try_from(t.rounds().len() + 1).unwrap_or(u32::MAX);
    // Absences asked for this round (and those of late entries).
    let mut stmt = tx.prepare_cached(
        "SELECT player_no FROM absences WHERE tournament_id = ?1 AND round = ?2 ORDER BY player_no",
    )?;
    let absent = stmt
        .query_map(args![tid, number], |r| Ok(PlayerId(r.get(0)?)))?
        .collect::<Result<Vec<_>>>()?;
    for p in t.players() {
        if !p.withdrawn && registration_banned(tx, tid, p.id)? {
            return Err(rejected(format!(
                "{} is banned but not withdrawn: withdraw the player first",
                player_name(&t, p.id)
            )));
        }
    }
    let pairing = pair_next_round(&t, &absent).map_err(|e| rejected(e.to_string()))?;
    // Each board's and bye's reasons are that part of the explanation, found by its data
    // (the table, the player), never by reading the text back.
    let explanation = explain(&t, &pairing);
    let mut round_text = explanation.round.to_string();
    // A round robin's schedule is fixed: a player scheduled despite an absence asked plays
    // (or forfeits) the game, and the absence is dropped.
    let seated: Vec<PlayerId> = pairing
        .games
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(pairing.byes.iter().copied())
        .collect();
    let mut dropped = Vec::new();
    for id in &absent {
        if seated.contains(id) {
            tx.execute(
                "DELETE FROM absences WHERE tournament_id = ?1 AND round = ?2 AND player_no = ?3",
                args![tid, number, id.0],
            )?;
            dropped.push(player_name(&t, *id));
        }
    }
    if !dropped.is_empty() {
        round_text.push_str(&format!(
            "\nAsked to be absent but scheduled by the fixed round-robin table (enter a forfeit if they do not come): {}.",
            dropped.join(", ")
        ));
    }
    tx.execute(
        "INSERT INTO rounds (tournament_id, number, state, explanation) VALUES (?1, ?2, 'draft', ?3)",
        args![tid, number, round_text],
    )?;
    for b in &pairing.games {
        tx.prepare_cached(
            "INSERT INTO pairings (tournament_id, round, board_no, table_no, white, black, explanation)
             VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6)",
        )?
        .execute(args![
            tid,
            number,
            b.table,
            b.white.0,
            b.black.0,
            explanation
                .board(b.table)
                .map(ToString::to_string)
                .unwrap_or_default()
        ])?;
    }
    for id in &pairing.byes {
        tx.prepare_cached(
            "INSERT INTO round_byes (tournament_id, round, player_no, explanation) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(args![
            tid,
            number,
            id.0,
            explanation
                .bye(*id)
                .map(ToString::to_string)
                .unwrap_or_default()
        ])?;
    }
    audit(
        tx,
        actor,
        "round paired (draft)",
        Some(tid),
        None,
        reason,
        &format!(
            "round {number}: {} board(s), {} bye(s)",
            pairing.games.len(),
            pairing.byes.len()
        ),
    )?;
    Ok(number)
}

/// A drafted round as the core's swap planning sees it: its boards, byes and the absences
/// asked for it.
fn draft_round(
    conn: &mut Tx<'_>,
    tid: TournamentId,
    round: u32,
    state: RoundState,
) -> Result<DraftRound> {
    let mut stmt = conn.prepare_cached(
        "SELECT board_no, white, black FROM pairings WHERE tournament_id = ?1 AND round = ?2",
    )?;
    let boards = stmt
        .query_map(args![tid, round], |r| {
            Ok((
                BoardNo(r.get(0)?),
                (PlayerId(r.get(1)?), PlayerId(r.get(2)?)),
            ))
        })?
        .collect::<Result<BTreeMap<_, _>>>()?;
    let mut stmt = conn.prepare_cached(
        "SELECT player_no FROM round_byes WHERE tournament_id = ?1 AND round = ?2 ORDER BY player_no",
    )?;
    let byes = stmt
        .query_map(args![tid, round], |r| Ok(PlayerId(r.get(0)?)))?
        .collect::<Result<Vec<_>>>()?;
    let mut stmt = conn.prepare_cached(
        "SELECT player_no FROM absences WHERE tournament_id = ?1 AND round = ?2 ORDER BY player_no",
    )?;
    let asked_absent = stmt
        .query_map(args![tid, round], |r| Ok(PlayerId(r.get(0)?)))?
        .collect::<Result<Vec<_>>>()?;
    Ok(DraftRound {
        number: RoundNo(round),
        state,
        boards,
        byes,
        asked_absent,
    })
}

/// Loads what a swap needs and lets the core decide it: a refusal, or the seats and the
/// warnings to confirm.
/// The warnings of a swap as the desk shows them and the audit log keeps them.
fn warning_texts(plan: &SwapPlan) -> Vec<String> {
    plan.warnings.iter().map(ToString::to_string).collect()
}

fn plan_swap(
    conn: &mut Tx<'_>,
    tid: TournamentId,
    round: u32,
    a: PlayerId,
    b: PlayerId,
) -> Result<(Tournament, SwapPlan)> {
    let state = state_of(conn, tid, round)?;
    // In an event of stages only a Swiss stage's draft changes by hand, against the stage.
    let t = match super::stages::swap_table(conn, tid, round)? {
        Some(stage) => stage,
        None => load(conn, tid)?,
    };
    let draft = draft_round(conn, tid, round, state)?;
    let mut banned = Vec::new();
    for p in [a, b] {
        if registration_banned(conn, tid, p)? {
            banned.push(p);
        }
    }
    let plan =
        lifecycle::plan_swap(&t, &draft, a, b, &banned).map_err(|e| rejected(e.to_string()))?;
    Ok((t, plan))
}

impl Store {
    /// Pairs the next round as a draft (the pairing's proposal with its explanation per
    /// board), for the director to look at, change and publish. The last round must be
    /// complete: a published round whose results are all in (a database from before every
    /// last result completed its round) is completed here and backed up, and how the backup
    /// went is in the answer.
    pub fn pair_round(&mut self, tid: TournamentId, actor: &Actor) -> Result<Paired> {
        // What the transaction completed is its answer, not a variable it sets: on PostgreSQL
        // the closure runs again after a deadlock, and a first run's completion must not
        // outlive its rollback.
        let (number, completed) = self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [tid])?;
            let rounds = rounds_in(tx, tid)?;
            let mut completed = None;
            if let Some(last) = rounds.last() {
                match last.1 {
                    RoundState::Draft => {
                        return Err(rejected(format!(
                            "round {} is drafted already: publish or discard it first",
                            last.0
                        )));
                    }
                    RoundState::Published => {
                        let pending = pending_boards(tx, tid, last.0)?;
                        if pending > 0 {
                            return Err(rejected(format!(
                                "round {} still has {pending} game{} without a result",
                                last.0,
                                if pending == 1 { "" } else { "s" }
                            )));
                        }
                        if complete_if_done(tx, tid, last.0, actor)? {
                            completed = Some(last.0);
                        }
                    }
                    _ => {}
                }
            }
            Ok((draft_next_round(tx, tid, actor, "")?, completed))
        })?;
        Ok(Paired {
            round: number,
            completed: completed.map(|r| self.completion_backup(tid, r)),
        })
    }

    /// Throws a draft away (its requested absences stay).
    pub fn discard_draft(&mut self, tid: TournamentId, round: u32, actor: &Actor) -> Result<()> {
        self.round_write(tid, round, Scope::Round, |tx| {
            if state_of(tx, tid, round)? != RoundState::Draft {
                return Err(rejected(format!(
                    "round {round} is published: it can be re-paired, not discarded"
                )));
            }
            delete_round(tx, tid, round)?;
            audit(
                tx,
                actor,
                "draft discarded",
                Some(tid),
                None,
                "",
                &format!("round {round}"),
            )
        })
    }

    /// Publishes a draft: the round is on, the tables can start. Refused while the draft
    /// seats a withdrawn or banned player. Backed up after the commit.
    pub fn publish_round(
        &mut self,
        tid: TournamentId,
        round: u32,
        actor: &Actor,
    ) -> Result<BackupNote> {
        self.round_write(tid, round, Scope::Round, |tx| {
            if state_of(tx, tid, round)? != RoundState::Draft {
                return Err(rejected(format!("round {round} is not a draft")));
            }
            let staged = super::stages::publish_checks(tx, tid, round)?;
            let t = load(tx, tid)?;
            let state = state_of(tx, tid, round)?;
            let seats = draft_round(tx, tid, round, state)?.seats(&t);
            for (p, seat) in seats.iter().filter(|_| !staged) {
                if *seat == Seat::Out {
                    continue;
                }
                if registration_banned(tx, tid, *p)? {
                    return Err(rejected(format!(
                        "{} is banned and cannot play: swap the player out first",
                        player_name(&t, *p)
                    )));
                }
                if t.player(*p).is_some_and(|x| x.withdrawn) {
                    return Err(rejected(format!(
                        "{} has withdrawn since the draft was made: swap the player out or re-pair",
                        player_name(&t, *p)
                    )));
                }
            }
            tx.execute(
                "UPDATE rounds SET state = 'published', published_at = ?1 WHERE tournament_id = ?2 AND number = ?3",
                args![tx.now(), tid, round],
            )?;
            audit(tx, actor, "round published", Some(tid), None, "", &format!("round {round}"))?;
            if staged {
                // The round joins the event: it must fit it as the event now stands, and a
                // round whose games were all decided when drafted (forfeits) is complete.
                super::stages::check_event(tx, tid)?;
                complete_if_done(tx, tid, round, actor)?;
            }
            Ok(())
        })?;
        Ok(self.backup_note(&format!("t{tid}-round-{round}-published")))
    }

    /// Re-pairs the last round after it was published (the director confirmed, with a
    /// reason): its games at the desk are voided (records kept), its results dropped, and a
    /// new draft takes its place. Returns the draft's number.
    pub fn repair_round(
        &mut self,
        tid: TournamentId,
        round: u32,
        reason: &str,
        actor: &Actor,
    ) -> Result<u32> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(rejected("re-pairing a published round needs a reason"));
        }
        self.round_write(tid, round, Scope::Round, |tx| {
            let rounds = rounds_in(tx, tid)?;
            let Some(last) = rounds.last() else {
                return Err(rejected("no round has been paired"));
            };
            if last.0 != round {
                return Err(rejected(format!(
                    "only the last round ({}) can be re-paired",
                    last.0
                )));
            }
            if last.1 == RoundState::Draft {
                return Err(rejected(format!(
                    "round {round} is a draft: discard it and pair again"
                )));
            }
            let mut stmt = tx.prepare(
                "SELECT table_no, result FROM pairings WHERE tournament_id = ?1 AND round = ?2 AND result <> 'pending' ORDER BY board_no",
            )?;
            let lost = stmt
                .query_map(args![tid, round], |r| {
                    Ok(format!("table {}: {}", r.get::<u32>(0)?, r.get::<String>(1)?))
                })?
                .collect::<Result<Vec<_>>>()?;
            let voided = tx.execute(
                "UPDATE games SET void = 1, void_reason = ?1 WHERE tournament_id = ?2 AND round = ?3 AND void = 0",
                args![format!("round {round} re-paired: {reason}"), tid, round],
            )?;
            delete_round(tx, tid, round)?;
            // Its games left the event: a rated event's list is rebuilt without them.
            super::ratings::after_change(tx, tid, &format!("round {round}"), actor, reason)?;
            audit(
                tx,
                actor,
                "published round withdrawn for re-pairing",
                Some(tid),
                None,
                reason,
                &format!(
                    "round {round}: {voided} desk game(s) voided; results dropped: {}",
                    if lost.is_empty() { "none".to_string() } else { lost.join(", ") }
                ),
            )?;
            draft_next_round(tx, tid, actor, reason)
        })
    }

    /// Marks a published round complete once every result is in. Backed up after.
    pub fn complete_round(
        &mut self,
        tid: TournamentId,
        round: u32,
        actor: &Actor,
    ) -> Result<BackupNote> {
        self.round_write(tid, round, Scope::Round, |tx| {
            let state = state_of(tx, tid, round)?;
            if state == RoundState::Complete {
                return Err(rejected(format!("round {round} is complete already")));
            }
            if state == RoundState::Draft {
                return Err(rejected(format!(
                    "round {round} is a draft: publish it first"
                )));
            }
            let pending = pending_boards(tx, tid, round)?;
            if pending > 0 {
                return Err(rejected(format!(
                    "round {round} still has {pending} game{} without a result",
                    if pending == 1 { "" } else { "s" }
                )));
            }
            complete_if_done(tx, tid, round, actor).map(|_| ())
        })?;
        Ok(self.backup_note(&format!("t{tid}-round-{round}-complete")))
    }

    /// Sets (or clears) a round's official start, from which the grace period runs.
    pub fn set_round_start(
        &mut self,
        tid: TournamentId,
        round: u32,
        starts_at: Option<i64>,
        actor: &Actor,
    ) -> Result<()> {
        self.round_write(tid, round, Scope::Round, |tx| {
            state_of(tx, tid, round)?;
            tx.execute(
                "UPDATE rounds SET starts_at = ?1 WHERE tournament_id = ?2 AND number = ?3",
                args![starts_at, tid, round],
            )?;
            audit(
                tx,
                actor,
                "round start set",
                Some(tid),
                None,
                "",
                &match starts_at {
                    Some(ms) => format!("round {round}: official start at {}", utc_text(ms)),
                    None => format!("round {round}: official start cleared"),
                },
            )
        })
    }

    /// What swapping two players of a draft would need confirmed (a rematch, a forbidden
    /// pair, a second bye, an absence asked); an error if the swap is not allowed at all.
    pub fn check_swap(
        &self,
        tid: TournamentId,
        round: u32,
        a: PlayerId,
        b: PlayerId,
    ) -> Result<Vec<String>> {
        Ok(warning_texts(
            &self.read(|q| plan_swap(q, tid, round, a, b))?.1,
        ))
    }

    /// Swaps two players of a draft: each takes the other's seat (a board side, the bye, or
    /// out of the round). With warnings (see [`Store::check_swap`]) it needs `confirmed`.
    /// Recorded in the audit log, with what was confirmed.
    pub fn swap_players(
        &mut self,
        tid: TournamentId,
        round: u32,
        a: PlayerId,
        b: PlayerId,
        confirmed: bool,
        actor: &Actor,
    ) -> Result<()> {
        self.round_write(tid, round, Scope::Round, |tx| {
            let (t, swap) = plan_swap(tx, tid, round, a, b)?;
            let warnings = warning_texts(&swap);
            if !warnings.is_empty() && !confirmed {
                return Err(rejected(format!(
                    "needs confirmation: {}",
                    warnings.join("; ")
                )));
            }
            // Free both seats, then fill them (the pairs table forbids a player twice on a
            // board, so the order matters when both sit on one board).
            let note = format!(
                "Changed by hand: {} and {} swapped.{}",
                player_name(&t, a),
                player_name(&t, b),
                if warnings.is_empty() {
                    String::new()
                } else {
                    format!(" Confirmed: {}.", warnings.join("; "))
                }
            );
            for (p, from, to) in [(a, swap.a_seat, swap.b_seat), (b, swap.b_seat, swap.a_seat)] {
                if from == Seat::Bye {
                    tx.execute(
                        "DELETE FROM round_byes WHERE tournament_id = ?1 AND round = ?2 AND player_no = ?3",
                        args![tid, round, p.0],
                    )?;
                }
                if to == Seat::Out {
                    continue;
                }
                tx.execute(
                    "DELETE FROM absences WHERE tournament_id = ?1 AND round = ?2 AND player_no = ?3",
                    args![tid, round, p.0],
                )?;
            }
            if let (Seat::Board(n, _), Seat::Board(m, _)) = (swap.a_seat, swap.b_seat)
                && n == m
            {
                tx.execute(
                    "UPDATE pairings SET white = black, black = white, explanation = ?1
                     WHERE tournament_id = ?2 AND round = ?3 AND board_no = ?4",
                    args![note, tid, round, n.0],
                )?;
            } else {
                for (p, to) in [(a, swap.b_seat), (b, swap.a_seat)] {
                    match to {
                        Seat::Board(n, side) => {
                            let column = match side {
                                Side::White => "white",
                                Side::Black => "black",
                            };
                            tx.execute(
                                &format!(
                                    "UPDATE pairings SET {column} = ?1, explanation = ?2
                                     WHERE tournament_id = ?3 AND round = ?4 AND board_no = ?5"
                                ),
                                args![p.0, note, tid, round, n.0],
                            )?;
                        }
                        Seat::Bye => {
                            tx.execute(
                                "INSERT INTO round_byes (tournament_id, round, player_no, explanation) VALUES (?1, ?2, ?3, ?4)",
                                args![tid, round, p.0, note],
                            )?;
                        }
                        Seat::Out => {}
                    }
                }
            }
            audit(
                tx,
                actor,
                "pairing changed by hand",
                Some(tid),
                None,
                &warnings.join("; "),
                &format!(
                    "round {round}: {} from {} to {}; {} from {} to {}",
                    player_name(&t, a),
                    swap.a_seat,
                    swap.b_seat,
                    player_name(&t, b),
                    swap.b_seat,
                    swap.a_seat
                ),
            )
        })
    }

    /// Enters a board's result by hand. Changing a result already entered needs a reason;
    /// a game still being played at the desk takes its result from there. The round is
    /// complete (and backed up) when its last result is in; setting a result back to
    /// pending reopens it.
    pub fn set_result(
        &mut self,
        tid: TournamentId,
        round: u32,
        board: u32,
        result: GameResult,
        reason: &str,
        actor: &Actor,
    ) -> Result<ResultSaved> {
        let reason = reason.trim().to_string();
        let completed = self.round_write(tid, round, Scope::Board(board), |tx| {
            let state = state_of(tx, tid, round)?;
            if state == RoundState::Draft {
                return Err(rejected(format!(
                    "round {round} is a draft: publish it before entering results"
                )));
            }
            let (table, white, black, old) = board_row(tx, tid, round, board)?;
            if old == result {
                return Ok(false);
            }
            if old != GameResult::Pending && reason.is_empty() {
                return Err(rejected(format!(
                    "table {table} already has a result ({}): changing it needs a reason",
                    old.name()
                )));
            }
            if let Some(game) = desk_game_in_progress(tx, tid, round, table)? {
                return Err(rejected(format!(
                    "table {table} is being played at the desk (game {game}): its result comes from the arbiter; \
                     void the game on the Tables page if it must not count"
                )));
            }
            tx.execute(
                "UPDATE pairings SET result = ?1 WHERE tournament_id = ?2 AND round = ?3 AND board_no = ?4",
                args![result.name(), tid, round, board],
            )?;
            let names = board_names(tx, tid, white, black)?;
            audit(
                tx,
                actor,
                if old == GameResult::Pending { "result entered" } else { "result changed" },
                Some(tid),
                None,
                &reason,
                &format!("round {round}, table {table} ({names}): {} -> {}", old.name(), result.name()),
            )?;
            round_after_result(tx, tid, round, actor, &reason)
        })?;
        Ok(ResultSaved {
            completed: completed.then(|| self.completion_backup(tid, round).backup),
        })
    }

    /// A default loss after the grace period: the absent player loses by forfeit; both
    /// absent, both lose. Refused before the grace period is over (`now_ms`), for a board
    /// with a result, and for a game already started at the desk.
    pub fn default_loss(
        &mut self,
        tid: TournamentId,
        round: u32,
        board: u32,
        absent: Absentee,
        now_ms: i64,
        actor: &Actor,
    ) -> Result<ResultSaved> {
        let completed = self.round_write(tid, round, Scope::Board(board), |tx| {
            let state = state_of(tx, tid, round)?;
            if state == RoundState::Draft {
                return Err(rejected(format!("round {round} is a draft: publish it first")));
            }
            let starts_at: Option<i64> = tx.query_row(
                "SELECT starts_at FROM rounds WHERE tournament_id = ?1 AND number = ?2",
                args![tid, round],
                |r| r.get(0),
            )?;
            let Some(starts_at) = starts_at else {
                return Err(rejected(format!(
                    "round {round} has no official start yet: start the round first"
                )));
            };
            let grace_ms = read_setup(tx, tid)?.rules.grace_ns / (NS_PER_S / 1000);
            let ends = starts_at.saturating_add(grace_ms);
            if now_ms < ends {
                let left = (ends - now_ms + 59_999) / 60_000;
                return Err(rejected(format!(
                    "the grace period is not over: {left} more minute{}",
                    if left == 1 { "" } else { "s" }
                )));
            }
            let (table, white, black, old) = board_row(tx, tid, round, board)?;
            if old != GameResult::Pending {
                return Err(rejected(format!(
                    "table {table} already has a result ({}): change it by hand, with a reason",
                    old.name()
                )));
            }
            if desk_game_started(tx, tid, round, table)? {
                return Err(rejected(format!(
                    "the game at table {table} has started at the desk: both players came"
                )));
            }
            let result = absent.result();
            tx.execute(
                "UPDATE pairings SET result = ?1 WHERE tournament_id = ?2 AND round = ?3 AND board_no = ?4",
                args![result.name(), tid, round, board],
            )?;
            let names = board_names(tx, tid, white, black)?;
            let who = match absent {
                Absentee::White => "White",
                Absentee::Black => "Black",
                Absentee::Both => "both players",
            };
            audit(
                tx,
                actor,
                "default loss",
                Some(tid),
                None,
                &format!("{who} not seated within the grace period"),
                &format!("round {round}, table {table} ({names}): {}", result.name()),
            )?;
            round_after_result(tx, tid, round, actor, "")
        })?;
        Ok(ResultSaved {
            completed: completed.then(|| self.completion_backup(tid, round).backup),
        })
    }

    /// The backup of a round that just became complete (after the commit), and how it went.
    pub(crate) fn completion_backup(&self, tid: TournamentId, round: u32) -> RoundCompleted {
        RoundCompleted {
            tournament: tid,
            round,
            backup: self.backup_note(&format!("t{tid}-round-{round}-complete")),
        }
    }

    /// Writes a backup and says how it went (the change before it is committed either way).
    pub(crate) fn backup_note(&self, label: &str) -> BackupNote {
        if self.path().is_none() {
            return if self.address().is_some() {
                BackupNote::OnServer
            } else {
                BackupNote::NotOnDisk
            };
        }
        match self.backup(label) {
            Ok(p) => BackupNote::Written(p),
            Err(e) => BackupNote::Failed(e.to_string()),
        }
    }
}

/// `2026-11-29 15:30:00 UTC` from Unix milliseconds, for the audit log.
fn utc_text(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (y, m, d) = super::backup::civil_from_days(secs.div_euclid(86_400));
    let rem = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// (number, state) of every round of a tournament, in order.
fn rounds_in(conn: &mut Tx<'_>, tid: TournamentId) -> Result<Vec<(u32, RoundState)>> {
    super::tournaments::check_tournament(conn, tid)?;
    Ok(super::rounds::rounds_in(conn, tid)?
        .into_iter()
        .map(|r| (r.number, r.state))
        .collect())
}

/// Deletes a round with its boards and byes (requested absences stay).
fn delete_round(tx: &mut Tx<'_>, tid: TournamentId, round: u32) -> Result<()> {
    tx.execute(
        "DELETE FROM pairings WHERE tournament_id = ?1 AND round = ?2",
        args![tid, round],
    )?;
    tx.execute(
        "DELETE FROM round_byes WHERE tournament_id = ?1 AND round = ?2",
        args![tid, round],
    )?;
    tx.execute(
        "DELETE FROM rounds WHERE tournament_id = ?1 AND number = ?2",
        args![tid, round],
    )?;
    Ok(())
}

/// (table, white, black, result) of a board.
fn board_row(
    conn: &mut Tx<'_>,
    tid: TournamentId,
    round: u32,
    board: u32,
) -> Result<(u32, PlayerId, PlayerId, GameResult)> {
    let (table, w, b, result): (u32, u32, u32, String) = conn
        .query_row(
            "SELECT table_no, white, black, result FROM pairings WHERE tournament_id = ?1 AND round = ?2 AND board_no = ?3",
            args![tid, round, board],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?
        .ok_or_else(|| rejected(format!("round {round} has no board {board}")))?;
    let result = GameResult::from_name(&result).unwrap_or(GameResult::Pending);
    Ok((table, PlayerId(w), PlayerId(b), result))
}

fn board_names(conn: &mut Tx<'_>, tid: TournamentId, w: PlayerId, b: PlayerId) -> Result<String> {
    let mut name = |p: PlayerId| super::registrations::registration_name(conn, tid, p);
    Ok(format!("{w} {} - {b} {}", name(w)?, name(b)?))
}

/// The desk game of a table that has started and has no result yet.
fn desk_game_in_progress(
    conn: &mut Tx<'_>,
    tid: TournamentId,
    round: u32,
    table: u32,
) -> Result<Option<i64>> {
    conn.query_row(
        "SELECT id FROM games WHERE tournament_id = ?1 AND round = ?2 AND table_no = ?3
             AND void = 0 AND started_at IS NOT NULL AND result IS NULL ORDER BY id DESC LIMIT 1",
        args![tid, round, table],
        |r| r.get(0),
    )
    .optional()
}

/// Whether a table's game has started at the desk (then both players came).
fn desk_game_started(conn: &mut Tx<'_>, tid: TournamentId, round: u32, table: u32) -> Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM games WHERE tournament_id = ?1 AND round = ?2 AND table_no = ?3
         AND void = 0 AND started_at IS NOT NULL)",
        args![tid, round, table],
        |r| r.get(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audit_times_are_written_in_utc() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_text(1_800_000_000_000), "2027-01-15 08:00:00 UTC");
    }
}
