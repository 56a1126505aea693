//! A correction in a finished stage must never re-seed a stage being played: a pairing once
//! made stands. A change to a stage whose next stage has started (or whose playoff has been
//! played) is allowed when the qualifiers, their seed order and every playoff already
//! played stay as they are; otherwise it is refused before anything is written, saying
//! what would change.

use super::event::{Event, EventParts, StagePlay};
use super::fault::{EventFault, EventFileError, StageFault};
use super::settings::GroupId;
use crate::tournament::{PlayerId, StageNo};

/// What a change would do to a stage already started or a playoff already played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reseeding {
    /// A qualifier of the started stage would take another seed.
    Seed {
        player: PlayerId,
        from: usize,
        to: usize,
        started: StageNo,
    },
    /// A qualifier would no longer go on; `instead` would.
    Out {
        player: PlayerId,
        instead: Option<PlayerId>,
        started: StageNo,
    },
    /// Players would be level across the cut again and need a playoff.
    NewTie {
        group: Option<GroupId>,
        players: Vec<PlayerId>,
        started: StageNo,
    },
    /// A result of the finished stage would go back to pending, though the next stage has
    /// started (`started`) or, if not, its playoff has been played.
    Reopens {
        stage: StageNo,
        started: Option<StageNo>,
    },
    /// A playoff already played would be unnecessary or among other players.
    PlayoffVoided {
        stage: StageNo,
        group: Option<GroupId>,
        players: Vec<PlayerId>,
    },
}

/// Whether the event `after` (the parts a change would make of `before`) keeps every started
/// stage's qualifiers and seeds and every played playoff. Faults of another kind are left
/// to the event's own check.
pub fn check_correction(before: &Event, after: &EventParts) -> Result<(), Reseeding> {
    let stage_count = before.settings().stages.len();
    for k in 0..stage_count.saturating_sub(1) {
        let played_off = before.play(k).is_some_and(|p| !p.playoffs.is_empty());
        let started = before
            .play(k + 1)
            .is_some_and(|p| !p.rounds.is_empty() || !p.playoffs.is_empty())
            && before.reached().len() > k + 1;
        if !played_off && !started {
            continue;
        }
        // The change's event up to stage k, with stage k + 1 seeded but nothing played in
        // it: who goes on, and in which order, as the change would have it.
        let mut upto = after.clone();
        for (j, play) in upto.stages.iter_mut().enumerate() {
            if j > k {
                *play = StagePlay::default();
            }
        }
        upto.penalties
            .retain(|p| p.stage.index().is_some_and(|j| j <= k));
        let next = StageNo::from_index(k + 1);
        let rebuilt = match Event::new(upto) {
            Ok(e) => e,
            Err(e) if matches!(e.fault, EventFault::Stage(StageFault::PlayoffTooEarly)) => {
                return Err(Reseeding::Reopens {
                    stage: StageNo::from_index(k),
                    started: started.then_some(next),
                });
            }
            Err(e) => {
                let playoff_at = format!("stages[{k}].playoffs");
                let voids = e.at.starts_with(&playoff_at)
                    && matches!(
                        e.fault,
                        EventFault::Stage(StageFault::NoTieInGroup(_) | StageFault::Playoff(_))
                    );
                if voids {
                    return Err(voided(before, k));
                }
                // Another fault: the event's own check names it.
                return Ok(());
            }
        };
        if !started {
            continue;
        }
        if !rebuilt.reached().get(k).is_some_and(|r| r.complete) {
            return Err(Reseeding::Reopens {
                stage: StageNo::from_index(k),
                started: Some(next),
            });
        }
        let Some(now) = rebuilt.reached().get(k + 1) else {
            // The cut is no longer clear: a tie to be played off.
            let tie = rebuilt
                .reached()
                .get(k)
                .and_then(|r| r.cut.iter().find(|c| !c.is_clear()));
            let grouped = rebuilt.reached().get(k).is_some_and(|r| r.grouped);
            return Err(Reseeding::NewTie {
                group: tie.filter(|_| grouped).map(|c| c.group),
                players: tie
                    .and_then(|c| c.playoff.as_ref())
                    .map(|p| p.order.clone())
                    .unwrap_or_default(),
                started: next,
            });
        };
        let was = &before.reached()[k + 1].seeds;
        if let Some(i) = (0..was.len()).find(|&i| now.seeds.get(i) != Some(&was[i])) {
            let player = was[i];
            return Err(match now.seed(player) {
                Some(to) => Reseeding::Seed {
                    player,
                    from: i + 1,
                    to,
                    started: next,
                },
                None => Reseeding::Out {
                    player,
                    instead: now.seeds.iter().copied().find(|p| !was.contains(p)),
                    started: next,
                },
            });
        }
    }
    Ok(())
}

/// The first playoff played at stage `k`'s cut, as a refusal.
fn voided(before: &Event, k: usize) -> Reseeding {
    let reached = before.reached().get(k);
    let cut = reached.and_then(|r| r.cut.iter().find(|c| c.playoff.is_some()));
    Reseeding::PlayoffVoided {
        stage: StageNo::from_index(k),
        group: cut
            .filter(|_| reached.is_some_and(|r| r.grouped))
            .map(|c| c.group),
        players: cut
            .and_then(|c| c.playoff.as_ref())
            .map(|p| p.order.clone())
            .unwrap_or_default(),
    }
}

/// A file's fault in a stage played with players or seeds the stage before it does not
/// give (a result changed after the cut): said with who goes on by the file's results.
pub(crate) fn explain_file_fault(parts: &EventParts, e: EventFileError) -> EventFileError {
    let EventFault::Stage(fault) = &e.fault else {
        return e;
    };
    let seeding = matches!(
        fault,
        StageFault::NotQualified { .. }
            | StageFault::NotInGroup { .. }
            | StageFault::GroupsDiffer(..)
            | StageFault::NotInStage { .. }
            | StageFault::Bracket(_)
    );
    // The stage the fault is in: `stages[j]…`.
    let stage =
        e.at.strip_prefix("stages[")
            .and_then(|rest| rest.split(']').next())
            .and_then(|j| j.parse::<usize>().ok());
    let (true, Some(j)) = (seeding, stage) else {
        return e;
    };
    if j == 0 {
        return e;
    }
    // The event up to stage j − 1, with stage j seeded but nothing played in it.
    let mut upto = parts.clone();
    for (i, play) in upto.stages.iter_mut().enumerate() {
        if i >= j {
            *play = StagePlay::default();
        }
    }
    upto.penalties
        .retain(|p| p.stage.index().is_some_and(|i| i < j));
    let Some(seeds) = Event::new(upto)
        .ok()
        .and_then(|ev| ev.reached().get(j).map(|r| r.seeds.clone()))
    else {
        return e;
    };
    EventFileError {
        at: e.at.clone(),
        fault: EventFault::Stage(StageFault::Reseeded {
            fault: Box::new(fault.clone()),
            before: StageNo::from_index(j - 1),
            stage: StageNo::from_index(j),
            seeds,
        }),
    }
}
