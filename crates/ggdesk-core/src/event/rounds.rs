//! A round's life decided: paired as a draft (the pairing's proposal with its reasons per
//! board), changed by hand, published, played, complete; re-paired after a confirmation;
//! results by hand, default losses after the grace period, and the results of the games at
//! the desk. Every path a result takes ends in [`Event::after_result`], the one rule of a
//! round's completion.

use super::change::{Changes, Edit};
use super::command::{Absentee, Confirmation};
use super::lifecycle::{DraftRound, RoundState, Seat, SwapPlan, plan_swap};
use super::model::{Event, Played};
use super::record::{BoardRecord, RoundKind, RoundRecord};
use super::refusal::{ReasonFor, Refusal};
use super::words::utc_text;
use crate::rules::Side;
use crate::tournament::{BoardNo, GameId, GameResult, PlayerId, RoundNo, TableNo, Tournament};
use std::collections::BTreeMap;

impl Event {
    /// Round `n`, or the refusal for a round not paired.
    pub(crate) fn paired(&self, n: RoundNo) -> Result<&RoundRecord, Refusal> {
        self.round(n).ok_or(Refusal::NotPaired(n))
    }

    /// `7 Ana - 12 Ben`: a board's players for the audit log.
    pub(crate) fn board_names(&self, w: PlayerId, b: PlayerId) -> String {
        format!("{} - {}", self.named(w), self.named(b))
    }

    /// The round before the next one: a draft waits, results are missing, or (every result
    /// in, a database from before every last result completed its round) it completes now.
    pub(crate) fn last_round_done(&self, now: i64, changes: &mut Changes) -> Result<(), Refusal> {
        let Some(last) = self.last_round() else {
            return Ok(());
        };
        match last.state {
            RoundState::Draft => Err(Refusal::DraftWaiting(last.number)),
            RoundState::Published if last.pending() > 0 => Err(Refusal::ResultsMissing {
                round: last.number,
                pending: last.pending(),
            }),
            RoundState::Published => {
                self.complete_if_done(last, now, changes);
                Ok(())
            }
            RoundState::Complete => Ok(()),
        }
    }

    /// Marks a published round complete when none of its boards is pending.
    fn complete_if_done(&self, round: &RoundRecord, now: i64, changes: &mut Changes) {
        if (round.state, round.state.after_results(round.pending()))
            != (RoundState::Published, RoundState::Complete)
        {
            return;
        }
        changes.edit(Edit::Complete {
            round: round.number,
            at: now,
        });
        changes.audit(
            "round complete",
            "",
            format!("round {}: every result is in", round.number),
        );
        changes.completed.push(round.number);
    }

    /// The one rule of a round's completion, for every path a result takes (a result or a
    /// default loss entered by hand, a game decided at the desk): once its last result is
    /// in, a published round is complete; a result set back to pending (an undo, a voided
    /// game, a correction) reopens a complete round. A rated event's rating list follows.
    fn after_result(&self, n: RoundNo, reason: &str, now: i64, changes: &mut Changes) {
        changes.games_changed = Some(super::change::GamesChanged {
            what: format!("a result of round {n}"),
            reason: reason.to_string(),
        });
        let Ok(after) = self.after(changes) else {
            // The change breaks the event: `decide` refuses it.
            return;
        };
        let Some(round) = after.round(n) else {
            return;
        };
        let pending = round.pending();
        if (round.state, round.state.after_results(pending))
            == (RoundState::Complete, RoundState::Published)
        {
            changes.edit(Edit::Reopen(n));
            changes.audit(
                "round reopened",
                reason,
                format!("round {n}: {pending} result(s) pending again"),
            );
            return;
        }
        after.complete_if_done(round, now, changes);
    }

    pub(crate) fn pair(&self, now: i64) -> Result<Changes, Refusal> {
        let mut changes = Changes::default();
        self.last_round_done(now, &mut changes)?;
        let after = self.after(&changes).map_err(Refusal::Inconsistent)?;
        Ok(changes.then(after.draft_next("")?))
    }

    /// Pairs the round after the last one as a draft.
    pub(crate) fn draft_next(&self, reason: &str) -> Result<Changes, Refusal> {
        match &self.played {
            Played::One(t) => self.draft_one_system(t, reason),
            Played::Stages(_) => self.draft_step(reason),
        }
    }

    /// The next round of a tournament of one system, with the pairing's reasons.
    fn draft_one_system(&self, t: &Tournament, reason: &str) -> Result<Changes, Refusal> {
        let number = RoundNo::from_index(t.rounds().len());
        let mut absent: Vec<PlayerId> = self.absences(number).map(|a| a.player).collect();
        absent.sort();
        for e in self.entrants() {
            if !e.player.withdrawn && e.banned {
                return Err(Refusal::BannedNotWithdrawn(self.named(e.player.id)));
            }
        }
        let pairing = crate::pairing::pair_next_round(t, &absent).map_err(Refusal::Pairing)?;
        // Each board's and bye's reasons are that part of the explanation, found by its data
        // (the table, the player), never by reading the text back.
        let explanation = crate::pairing::explain(t, &pairing);
        let mut round_text = explanation.round.to_string();
        let mut changes = Changes::default();
        // A round robin's schedule is fixed: a player scheduled despite an absence asked
        // plays (or forfeits) the game, and the absence is dropped.
        let seated: Vec<PlayerId> = pairing
            .games
            .iter()
            .flat_map(|b| [b.white, b.black])
            .chain(pairing.byes.iter().copied())
            .collect();
        let mut dropped = Vec::new();
        for id in absent.iter().filter(|id| seated.contains(id)) {
            changes.edit(Edit::RemoveAbsence {
                round: number,
                player: *id,
            });
            dropped.push(self.named(*id).to_string());
        }
        if !dropped.is_empty() {
            round_text.push_str(&format!(
                "\nAsked to be absent but scheduled by the fixed round-robin table (enter a forfeit if they do not come): {}.",
                dropped.join(", ")
            ));
        }
        let boards = pairing
            .games
            .iter()
            .map(|b| BoardRecord {
                board: BoardNo(b.table),
                table: TableNo(b.table),
                table_given: true,
                white: b.white,
                black: b.black,
                result: GameResult::Pending,
                explanation: explanation
                    .board(b.table)
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                group: None,
                series: None,
            })
            .collect();
        let byes = pairing
            .byes
            .iter()
            .map(|id| super::record::ByeRecord {
                player: *id,
                explanation: explanation
                    .bye(*id)
                    .map(ToString::to_string)
                    .unwrap_or_default(),
            })
            .collect();
        changes.edit(Edit::AddRound(RoundRecord {
            number,
            stage: crate::tournament::StageNo(1),
            kind: RoundKind::Round,
            state: RoundState::Draft,
            starts_at: None,
            published_at: None,
            explanation: round_text,
            boards,
            byes,
        }));
        changes.audit(
            "round paired (draft)",
            reason,
            format!(
                "round {number}: {} board(s), {} bye(s)",
                pairing.games.len(),
                pairing.byes.len()
            ),
        );
        changes.paired = Some(number);
        Ok(changes)
    }

    pub(crate) fn discard(&self, n: RoundNo) -> Result<Changes, Refusal> {
        if self.paired(n)?.state != RoundState::Draft {
            return Err(Refusal::DiscardPublished(n));
        }
        let mut changes = Changes::default();
        changes.edit(Edit::DeleteRound(n));
        changes.audit("draft discarded", "", format!("round {n}"));
        Ok(changes)
    }

    /// Who of a draft may not be seated: a banned or withdrawn player, unless their game is
    /// already lost by forfeit (a knockout's or a playoff's).
    fn check_seats(&self, round: &RoundRecord) -> Result<(), Refusal> {
        let unable = |p: PlayerId| {
            self.entrant(p).and_then(|e| {
                if e.banned {
                    Some(super::refusal::Unable::Banned)
                } else if e.player.withdrawn {
                    Some(super::refusal::Unable::Withdrawn)
                } else {
                    None
                }
            })
        };
        for b in &round.boards {
            for (p, lost) in [
                (b.white, b.result == GameResult::BlackWinsByForfeit),
                (b.black, b.result == GameResult::WhiteWinsByForfeit),
            ] {
                let Some(why) = unable(p).filter(|_| !lost) else {
                    continue;
                };
                if !self.in_stages() {
                    return Err(match why {
                        super::refusal::Unable::Banned => Refusal::PublishBanned(self.named(p)),
                        super::refusal::Unable::Withdrawn => {
                            Refusal::PublishWithdrawn(self.named(p))
                        }
                    });
                }
                return Err(Refusal::SeatedUnable {
                    player: self.named(p),
                    why,
                    table: b.table,
                });
            }
        }
        // A tournament of one system seats its byes too; a stage's byes are its pairing's.
        for bye in round.byes.iter().filter(|_| !self.in_stages()) {
            match unable(bye.player) {
                Some(super::refusal::Unable::Banned) => {
                    return Err(Refusal::PublishBanned(self.named(bye.player)));
                }
                Some(super::refusal::Unable::Withdrawn) => {
                    return Err(Refusal::PublishWithdrawn(self.named(bye.player)));
                }
                None => {}
            }
        }
        Ok(())
    }

    /// Publishes a draft: the round is on, the tables can start. A round whose games were
    /// all decided when drafted (forfeits) is complete at once.
    pub(crate) fn publish(&self, n: RoundNo, now: i64) -> Result<Changes, Refusal> {
        let round = self.paired(n)?;
        if round.state != RoundState::Draft {
            return Err(Refusal::NotADraft(n));
        }
        self.check_seats(round)?;
        let mut changes = Changes::default();
        changes.edit(Edit::Publish { round: n, at: now });
        changes.audit("round published", "", format!("round {n}"));
        changes.published = Some(n);
        let after = self.after(&changes).map_err(Refusal::Inconsistent)?;
        if let Some(r) = after.round(n) {
            after.complete_if_done(r, now, &mut changes);
        }
        Ok(changes)
    }

    /// Withdraws the last round after it was published (the director confirmed, with a
    /// reason): its games at the desk are voided (records kept), its results dropped, and a
    /// new draft takes its place.
    /// Whether round `n` can be re-paired (the reason aside): the last round, published,
    /// and, in an event of stages, a Swiss stage's round (a group's table, a bracket and a
    /// playoff give the same boards again). The desk offers "Re-pair" only then.
    pub fn can_repair(&self, n: RoundNo) -> Result<(), Refusal> {
        let last = self.last_round().ok_or(Refusal::NoRound)?;
        if last.number != n {
            return Err(Refusal::NotLastRound(last.number));
        }
        if last.state == RoundState::Draft {
            return Err(Refusal::RepairDraft(n));
        }
        if let Played::Stages(event) = &self.played {
            let swiss = matches!(
                last.stage
                    .index()
                    .and_then(|k| event.settings().stages.get(k))
                    .map(|s| s.format),
                Some(crate::stages::StageFormat::Swiss { .. })
            );
            if last.kind != RoundKind::Round || !swiss {
                return Err(Refusal::RepairFixed {
                    round: n,
                    stage: super::words::stage_words(&event.settings().stages, last.stage),
                });
            }
        }
        Ok(())
    }

    pub(crate) fn repair(&self, n: RoundNo, reason: &str, _now: i64) -> Result<Changes, Refusal> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(Refusal::NeedsReason(ReasonFor::Repair));
        }
        self.can_repair(n)?;
        let last = self.last_round().ok_or(Refusal::NoRound)?;
        let lost: Vec<String> = last
            .boards
            .iter()
            .filter(|b| b.result != GameResult::Pending)
            .map(|b| format!("table {}: {}", b.table, b.result.name()))
            .collect();
        let voided = self.record.desk.iter().filter(|g| g.round == n).count();
        let mut changes = Changes::default();
        changes.edit(Edit::VoidGames {
            round: n,
            reason: format!("round {n} re-paired: {reason}"),
        });
        changes.edit(Edit::DeleteRound(n));
        changes.games_changed = Some(super::change::GamesChanged {
            what: format!("round {n}"),
            reason: reason.to_string(),
        });
        changes.audit(
            "published round withdrawn for re-pairing",
            reason,
            format!(
                "round {n}: {voided} desk game(s) voided; results dropped: {}",
                if lost.is_empty() {
                    "none".to_string()
                } else {
                    lost.join(", ")
                }
            ),
        );
        let after = self.after(&changes).map_err(Refusal::Inconsistent)?;
        Ok(changes.then(after.draft_next(reason)?))
    }

    /// Marks a published round complete once every result is in.
    pub(crate) fn complete(&self, n: RoundNo, now: i64) -> Result<Changes, Refusal> {
        let round = self.paired(n)?;
        match round.state {
            RoundState::Complete => return Err(Refusal::AlreadyComplete(n)),
            RoundState::Draft => return Err(Refusal::DraftNotPublished(n)),
            RoundState::Published => {}
        }
        if round.pending() > 0 {
            return Err(Refusal::ResultsMissing {
                round: n,
                pending: round.pending(),
            });
        }
        let mut changes = Changes::default();
        self.complete_if_done(round, now, &mut changes);
        Ok(changes)
    }

    /// Sets (or clears) a round's official start, from which the grace period runs.
    pub(crate) fn set_start(&self, n: RoundNo, at: Option<i64>) -> Result<Changes, Refusal> {
        self.paired(n)?;
        let mut changes = Changes::default();
        changes.edit(Edit::SetStart { round: n, at });
        changes.audit(
            "round start set",
            "",
            match at {
                Some(ms) => format!("round {n}: official start at {}", utc_text(ms)),
                None => format!("round {n}: official start cleared"),
            },
        );
        Ok(changes)
    }

    /// What swapping two players of a draft would need confirmed (a rematch, a forbidden
    /// pair, a second bye, an absence asked), or why it is not allowed at all; with the
    /// table the swap is checked against.
    pub fn plan_swap(
        &self,
        n: RoundNo,
        a: PlayerId,
        b: PlayerId,
    ) -> Result<(SwapPlan, Tournament), Refusal> {
        let round = self.paired(n)?;
        let t = self.swap_table(round)?;
        let mut byes: Vec<PlayerId> = round.byes.iter().map(|x| x.player).collect();
        byes.sort();
        let mut asked_absent: Vec<PlayerId> = self.absences(n).map(|x| x.player).collect();
        asked_absent.sort();
        let draft = DraftRound {
            number: n,
            state: round.state,
            boards: round
                .boards
                .iter()
                .map(|x| (x.board, (x.white, x.black)))
                .collect(),
            byes,
            asked_absent,
        };
        let banned: Vec<PlayerId> = [a, b]
            .into_iter()
            .filter(|p| self.entrant(*p).is_some_and(|e| e.banned))
            .collect();
        let plan = plan_swap(&t, &draft, a, b, &banned).map_err(Refusal::Swap)?;
        Ok((plan, t))
    }

    /// The table a draft's swap is checked against: the tournament of one system, or a
    /// Swiss stage's one group (rematches, byes and forfeit wins within the stage). Refused
    /// for any other stage's round: its boards follow from the rules.
    fn swap_table(&self, round: &RoundRecord) -> Result<Tournament, Refusal> {
        match &self.played {
            Played::One(t) => Ok(t.clone()),
            Played::Stages(event) => {
                let k = round.stage.index().unwrap_or(usize::MAX);
                let swiss = matches!(
                    event.settings().stages.get(k).map(|s| s.format),
                    Some(crate::stages::StageFormat::Swiss { .. })
                );
                if round.kind != RoundKind::Round || !swiss {
                    return Err(Refusal::FixedBoards {
                        round: round.number,
                        stage: super::words::stage_words(&event.settings().stages, round.stage),
                    });
                }
                event
                    .reached()
                    .get(k)
                    .and_then(|r| r.groups.first())
                    .map(|g| g.table.clone())
                    .ok_or(Refusal::StageNotSeeded(round.stage))
            }
        }
    }

    /// Swaps two players of a draft: each takes the other's seat (a board side, the bye, or
    /// out of the round). With warnings it needs the director's confirmation, which goes
    /// into the audit log.
    pub(crate) fn swap(
        &self,
        n: RoundNo,
        a: PlayerId,
        b: PlayerId,
        confirmation: Confirmation,
    ) -> Result<Changes, Refusal> {
        let (swap, t) = self.plan_swap(n, a, b)?;
        if !swap.warnings.is_empty() && confirmation == Confirmation::Unconfirmed {
            return Err(Refusal::NeedsConfirmation(swap.warnings));
        }
        let warnings: Vec<String> = swap.warnings.iter().map(ToString::to_string).collect();
        let name = |p: PlayerId| crate::pairing::Named::of(&t, p).to_string();
        let note = format!(
            "Changed by hand: {} and {} swapped.{}",
            name(a),
            name(b),
            if warnings.is_empty() {
                String::new()
            } else {
                format!(" Confirmed: {}.", warnings.join("; "))
            }
        );
        let mut changes = Changes::default();
        for (p, from, to) in [(a, swap.a_seat, swap.b_seat), (b, swap.b_seat, swap.a_seat)] {
            if from == Seat::Bye {
                changes.edit(Edit::RemoveBye {
                    round: n,
                    player: p,
                });
            }
            if to != Seat::Out && self.absences(n).any(|x| x.player == p) {
                changes.edit(Edit::RemoveAbsence {
                    round: n,
                    player: p,
                });
            }
        }
        let round = self.paired(n)?;
        let mut boards: BTreeMap<BoardNo, (PlayerId, PlayerId)> = round
            .boards
            .iter()
            .map(|x| (x.board, (x.white, x.black)))
            .collect();
        let mut touched: Vec<BoardNo> = Vec::new();
        for (p, to) in [(a, swap.b_seat), (b, swap.a_seat)] {
            match to {
                Seat::Board(board, side) => {
                    if let Some(x) = boards.get_mut(&board) {
                        match side {
                            Side::White => x.0 = p,
                            Side::Black => x.1 = p,
                        }
                    }
                    if !touched.contains(&board) {
                        touched.push(board);
                    }
                }
                Seat::Bye => changes.edit(Edit::AddBye {
                    round: n,
                    bye: super::record::ByeRecord {
                        player: p,
                        explanation: note.clone(),
                    },
                }),
                Seat::Out => {}
            }
        }
        for board in touched {
            if let Some(&(white, black)) = boards.get(&board) {
                changes.edit(Edit::SetBoard {
                    round: n,
                    board,
                    white,
                    black,
                    explanation: note.clone(),
                });
            }
        }
        changes.audit(
            "pairing changed by hand",
            warnings.join("; "),
            format!(
                "round {n}: {} from {} to {}; {} from {} to {}",
                name(a),
                swap.a_seat,
                swap.b_seat,
                name(b),
                swap.b_seat,
                swap.a_seat
            ),
        );
        Ok(changes)
    }

    /// A board of a round, or the refusal naming it.
    fn board(&self, n: RoundNo, board: BoardNo) -> Result<&BoardRecord, Refusal> {
        self.paired(n)?
            .board(board)
            .ok_or(Refusal::NoSuchBoard { round: n, board })
    }

    /// Enters a board's result by hand. Changing a result already entered needs a reason;
    /// a game still being played at the desk takes its result from there.
    pub(crate) fn set_result(
        &self,
        n: RoundNo,
        board: BoardNo,
        result: GameResult,
        reason: &str,
        now: i64,
    ) -> Result<Changes, Refusal> {
        let reason = reason.trim();
        if self.paired(n)?.state == RoundState::Draft {
            return Err(Refusal::ResultInDraft(n));
        }
        let b = self.board(n, board)?;
        let old = b.result;
        let mut changes = Changes::default();
        if old == result {
            return Ok(changes);
        }
        if old != GameResult::Pending && reason.is_empty() {
            return Err(Refusal::ChangeNeedsReason {
                table: b.table,
                old,
            });
        }
        if let Some(g) = self.desk_game_in_progress(n, b.table) {
            return Err(Refusal::AtTheDesk {
                table: b.table,
                game: g.id,
            });
        }
        changes.edit(Edit::SetResult {
            round: n,
            board,
            result,
        });
        changes.audit(
            if old == GameResult::Pending {
                "result entered"
            } else {
                "result changed"
            },
            reason,
            format!(
                "round {n}, table {} ({}): {} -> {}",
                b.table,
                self.board_names(b.white, b.black),
                old.name(),
                result.name()
            ),
        );
        self.after_result(n, reason, now, &mut changes);
        Ok(changes)
    }

    /// A default loss after the grace period: the absent player loses by forfeit; both
    /// absent, both lose. Refused before the grace period is over, for a board with a
    /// result, and for a game already started at the desk.
    pub(crate) fn default_loss(
        &self,
        n: RoundNo,
        board: BoardNo,
        absent: Absentee,
        now_ms: i64,
        now: i64,
    ) -> Result<Changes, Refusal> {
        let round = self.paired(n)?;
        if round.state == RoundState::Draft {
            return Err(Refusal::DraftNotPublished(n));
        }
        let Some(ends) = self.grace_ends_at(n) else {
            return Err(Refusal::NoStart(n));
        };
        if now_ms < ends {
            return Err(Refusal::GraceNotOver {
                minutes: (ends - now_ms + 59_999) / 60_000,
            });
        }
        let b = self.board(n, board)?;
        if b.result != GameResult::Pending {
            return Err(Refusal::DefaultOnResult {
                table: b.table,
                old: b.result,
            });
        }
        if self.desk_game_started(n, b.table) {
            return Err(Refusal::BothCame(b.table));
        }
        let result = absent.result();
        let mut changes = Changes::default();
        changes.edit(Edit::SetResult {
            round: n,
            board,
            result,
        });
        let who = match absent {
            Absentee::White => "White",
            Absentee::Black => "Black",
            Absentee::Both => "both players",
        };
        changes.audit(
            "default loss",
            format!("{who} not seated within the grace period"),
            format!(
                "round {n}, table {} ({}): {}",
                b.table,
                self.board_names(b.white, b.black),
                result.name()
            ),
        );
        self.after_result(n, "", now, &mut changes);
        Ok(changes)
    }

    /// The boards of a table of a round: its players' where the game knows them (a file may
    /// give two boards one table).
    fn boards_at(
        &self,
        n: RoundNo,
        table: TableNo,
        players: Option<(PlayerId, PlayerId)>,
    ) -> Vec<&BoardRecord> {
        self.round(n).map_or_else(Vec::new, |r| {
            r.boards
                .iter()
                .filter(|b| b.table == table && players.is_none_or(|p| p == (b.white, b.black)))
                .collect()
        })
    }

    /// A game at the desk decided, or undecided again (an undo): its board takes the result
    /// in the same transaction as the event that decided it.
    pub(crate) fn desk_result(
        &self,
        game: GameId,
        n: RoundNo,
        table: TableNo,
        players: Option<(PlayerId, PlayerId)>,
        result: GameResult,
        now: i64,
    ) -> Result<Changes, Refusal> {
        let mut changes = Changes::default();
        let boards: Vec<BoardNo> = self
            .boards_at(n, table, players)
            .into_iter()
            .filter(|b| b.result != result)
            .map(|b| b.board)
            .collect();
        if boards.is_empty() {
            return Ok(changes);
        }
        for board in boards {
            changes.edit(Edit::SetResult {
                round: n,
                board,
                result,
            });
        }
        changes.audit.push(super::change::AuditLine {
            game: Some(game),
            ..super::change::AuditLine::new(
                "result from the arbiter desk",
                "",
                format!("round {n}, table {table}: {}", result.name()),
            )
        });
        self.after_result(n, "", now, &mut changes);
        Ok(changes)
    }

    /// A game at the desk voided: its board is pending again and a complete round reopens.
    pub(crate) fn desk_voided(
        &self,
        n: RoundNo,
        table: TableNo,
        players: Option<(PlayerId, PlayerId)>,
        reason: &str,
        now: i64,
    ) -> Result<Changes, Refusal> {
        let mut changes = Changes::default();
        for b in self.boards_at(n, table, players) {
            if b.result != GameResult::Pending {
                changes.edit(Edit::SetResult {
                    round: n,
                    board: b.board,
                    result: GameResult::Pending,
                });
            }
        }
        self.after_result(n, reason, now, &mut changes);
        Ok(changes)
    }
}
