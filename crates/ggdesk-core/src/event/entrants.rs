//! The players of an event decided: registration (a late entry is absent in the rounds
//! before it), withdrawal and re-entry, absences asked for a round, penalty deductions and
//! forbidden pairs.

use super::change::{Changes, Edit};
use super::command::{AbsenceChange, Registrant, Withdrawal};
use super::lifecycle::RoundState;
use super::model::Event;
use super::record::{Absence, Entrant};
use super::refusal::{ReasonFor, Refusal};
use crate::tournament::{MAX_POINTS, PenaltyId, Player, PlayerId, RoundNo, Score};

impl Event {
    /// A registered player's name, or the refusal naming the number.
    pub(crate) fn registered(&self, p: PlayerId) -> Result<&Entrant, Refusal> {
        self.entrant(p).ok_or(Refusal::NotRegistered {
            player: p,
            tournament: self.id(),
        })
    }

    /// Registers a registry player. After rounds have been played this is a late entry:
    /// absent (recorded so) in every round already published. A banned player is refused,
    /// and so is a late entry into an event of stages (its first stage's seeds are fixed).
    pub(crate) fn register(&self, r: &Registrant) -> Result<Changes, Refusal> {
        if r.banned {
            return Err(Refusal::BannedCannotRegister(r.name.clone()));
        }
        if let Some(e) = self.entrants().iter().find(|e| e.registry == r.registry) {
            return Err(Refusal::AlreadyRegistered {
                name: r.name.clone(),
                no: e.player.id,
            });
        }
        let no = PlayerId(
            self.entrants()
                .iter()
                .map(|e| e.player.id.0)
                .max()
                .unwrap_or(0)
                .saturating_add(1),
        );
        if self.in_stages() && !self.rounds().is_empty() {
            return Err(Refusal::NoLateEntryInStages);
        }
        let started = self
            .rounds()
            .iter()
            .filter(|x| x.state != RoundState::Draft)
            .count();
        let entry = RoundNo::from_index(started);
        let text = |s: &str| (!s.is_empty()).then(|| s.to_string());
        let mut changes = Changes::default();
        changes.edit(Edit::Register(Entrant {
            player: Player {
                club: text(&r.club),
                federation_id: text(&r.federation_id),
                ..Player::new(no, r.name.clone(), r.rating)
            },
            registry: r.registry,
            entry_round: entry,
            banned: false,
        }));
        for k in 0..started {
            changes.edit(Edit::AddAbsence(Absence {
                round: RoundNo::from_index(k),
                player: no,
                reason: "late entry".into(),
            }));
        }
        let late = if entry.0 > 1 {
            format!(", late entry from round {entry}")
        } else {
            String::new()
        };
        changes.audit(
            "player registered",
            "",
            format!("player {no}: {} (registry {}){late}", r.name, r.registry),
        );
        changes.registered.push(no);
        Ok(changes)
    }

    /// Takes back a registration made by mistake: only while the player is in no round, no
    /// forbidden pair and has no penalty.
    pub(crate) fn unregister(&self, p: PlayerId) -> Result<Changes, Refusal> {
        let name = self.registered(p)?.player.name.clone();
        let in_rounds = self.rounds().iter().any(|r| {
            r.boards.iter().any(|b| b.white == p || b.black == p)
                || r.byes.iter().any(|b| b.player == p)
        });
        let penalised = self.record.penalties.iter().any(|x| x.player == p);
        let forbidden = self.record.forbidden.iter().any(|&(a, b)| a == p || b == p);
        if in_rounds || penalised || forbidden {
            return Err(Refusal::CannotUnregister(name));
        }
        let mut changes = Changes::default();
        changes.edit(Edit::Unregister(p));
        changes.audit("registration removed", "", format!("player {p}: {name}"));
        Ok(changes)
    }

    /// Withdraws a player (not paired from the next round on) or re-enters one (paired again
    /// from the next round; the rounds missed count as absent). A banned player cannot
    /// re-enter.
    pub(crate) fn set_withdrawn(
        &self,
        p: PlayerId,
        change: Withdrawal,
        reason: &str,
    ) -> Result<Changes, Refusal> {
        let e = self.registered(p)?;
        let name = e.player.name.clone();
        let withdrawn = change == Withdrawal::Withdraw;
        if !withdrawn && e.banned {
            return Err(Refusal::BannedCannotReenter(name));
        }
        if e.player.withdrawn == withdrawn {
            return Err(if withdrawn {
                Refusal::AlreadyWithdrawn(name)
            } else {
                Refusal::AlreadyPlaying(name)
            });
        }
        let mut changes = Changes::default();
        changes.edit(Edit::SetWithdrawn {
            player: p,
            withdrawn,
        });
        changes.audit(
            if withdrawn {
                "player withdrawn"
            } else {
                "player re-entered"
            },
            reason.trim(),
            format!("player {p}: {name}"),
        );
        Ok(changes)
    }

    /// Records (or takes back) a player's wish to miss a round. Only for a round not paired
    /// yet: a drafted round must be discarded first, a published one is being played. An
    /// event of stages pairs every player of its stage.
    /// Whether player `p`'s absence from round `n` may be asked for (or taken back) now:
    /// the desk asks before it offers the button. An absence from a round not paired yet
    /// changes nothing played, so the rules alone answer (no replay of the event).
    pub fn may_set_absence(
        &self,
        p: PlayerId,
        n: RoundNo,
        change: AbsenceChange,
    ) -> Result<(), Refusal> {
        self.set_absence(p, n, change, "").map(|_| ())
    }

    pub(crate) fn set_absence(
        &self,
        p: PlayerId,
        n: RoundNo,
        change: AbsenceChange,
        reason: &str,
    ) -> Result<Changes, Refusal> {
        if n.0 == 0 {
            return Err(Refusal::RoundZero);
        }
        let name = self.registered(p)?.player.name.clone();
        if self.in_stages() {
            return Err(Refusal::NoAbsenceInStages);
        }
        match self.round(n).map(|r| r.state) {
            None => {}
            Some(RoundState::Draft) => return Err(Refusal::AbsenceInDraft { round: n, name }),
            Some(_) => return Err(Refusal::AbsenceInPublished { round: n, name }),
        }
        let asked = self.absences(n).any(|a| a.player == p);
        let mut changes = Changes::default();
        let action = match (change, asked) {
            (AbsenceChange::Ask, false) => {
                changes.edit(Edit::AddAbsence(Absence {
                    round: n,
                    player: p,
                    reason: reason.trim().to_string(),
                }));
                "absence asked"
            }
            (AbsenceChange::TakeBack, true) => {
                changes.edit(Edit::RemoveAbsence {
                    round: n,
                    player: p,
                });
                "absence taken back"
            }
            _ => return Ok(changes),
        };
        changes.audit(
            action,
            reason.trim(),
            format!("player {p} ({name}), round {n}"),
        );
        Ok(changes)
    }

    /// Deducts points from a player (unreasonable delay…), with the reason. In an event of
    /// stages a penalty counts in the stage being played.
    pub(crate) fn add_penalty(
        &self,
        p: PlayerId,
        points: Score,
        reason: &str,
        now: i64,
    ) -> Result<Changes, Refusal> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(Refusal::NeedsReason(ReasonFor::Penalty));
        }
        if points <= Score::ZERO || points > Score::from_points(MAX_POINTS) {
            return Err(Refusal::PenaltyPoints(points));
        }
        let name = self.registered(p)?.player.name.clone();
        let mut changes = Changes::default();
        changes.edit(Edit::AddPenalty {
            stage: self.current_stage(),
            player: p,
            points,
            reason: reason.to_string(),
            at: now,
        });
        changes.audit("penalty", reason, format!("player {p} ({name}): -{points}"));
        Ok(changes)
    }

    /// Cancels a penalty decided by mistake, with the reason.
    pub(crate) fn remove_penalty(&self, id: PenaltyId, reason: &str) -> Result<Changes, Refusal> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(Refusal::NeedsReason(ReasonFor::CancelPenalty));
        }
        let pen = self
            .record
            .penalties
            .iter()
            .find(|x| x.id == id)
            .ok_or(Refusal::NoSuchPenalty(id))?;
        let mut changes = Changes::default();
        changes.edit(Edit::RemovePenalty(id));
        changes.audit(
            "penalty cancelled",
            reason,
            format!("player {}: -{} ({})", pen.player, pen.points, pen.reason),
        );
        Ok(changes)
    }

    /// Forbids pairing two registered players; forbidding a pair twice is harmless.
    pub(crate) fn forbid_pair(&self, a: PlayerId, b: PlayerId) -> Result<Changes, Refusal> {
        if a == b {
            return Err(Refusal::ForbidSelf(a));
        }
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        self.registered(lo)?;
        self.registered(hi)?;
        let mut changes = Changes::default();
        if self.record.forbidden.contains(&(lo, hi)) {
            return Ok(changes);
        }
        changes.edit(Edit::AddForbidden(lo, hi));
        changes.audit("forbidden pair added", "", format!("{lo} - {hi}"));
        Ok(changes)
    }

    /// Allows a forbidden pair again.
    pub(crate) fn allow_pair(&self, a: PlayerId, b: PlayerId) -> Result<Changes, Refusal> {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        if !self.record.forbidden.contains(&(lo, hi)) {
            return Err(Refusal::NotForbidden(lo, hi));
        }
        let mut changes = Changes::default();
        changes.edit(Edit::RemoveForbidden(lo, hi));
        changes.audit("forbidden pair removed", "", format!("{lo} - {hi}"));
        Ok(changes)
    }
}
