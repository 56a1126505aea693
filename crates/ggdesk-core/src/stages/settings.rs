//! An event's settings: the points and forbidden pairs of every stage, and each stage's
//! system, rounds, groups, cut, tie-breaks and (for a knockout) its series, seeding and
//! third-place match. One type, checked in one place ([`EventSettings::check`]), whoever
//! builds it: the file reader, the desk.

use crate::tournament::{MAX_POINTS, PlayerId, PointsScale, Score, StageNo, TieBreak};
use std::fmt;

/// A group of a stage: `A`, `B`, … (index 0 is `A`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupId(pub u8);

impl GroupId {
    /// At most 26 groups, `A` to `Z`.
    pub const MAX: u32 = 26;

    /// The group named by one capital letter.
    pub fn from_letter(text: &str) -> Option<GroupId> {
        match text.as_bytes() {
            [c @ b'A'..=b'Z'] => Some(GroupId(c - b'A')),
            _ => None,
        }
    }

    /// The group at a place in the list of groups (from 0).
    pub fn from_index(i: usize) -> GroupId {
        GroupId(u8::try_from(i).unwrap_or(u8::MAX))
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn letter(self) -> char {
        char::from(b'A'.saturating_add(self.0))
    }
}

impl fmt::Display for GroupId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A match of a knockout: bracket round R, match M from the top (`"R.M"`, both from 1), or
/// the third-place match (`"3rd"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchId {
    Bracket { round: u32, number: u32 },
    ThirdPlace,
}

impl MatchId {
    pub fn parse(text: &str) -> Option<MatchId> {
        if text == "3rd" {
            return Some(MatchId::ThirdPlace);
        }
        let (r, m) = text.split_once('.')?;
        let num = |s: &str| {
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with('0'))
                .then(|| s.parse::<u32>().ok())
                .flatten()
        };
        Some(MatchId::Bracket {
            round: num(r)?,
            number: num(m)?,
        })
    }
}

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchId::Bracket { round, number } => write!(f, "{round}.{number}"),
            MatchId::ThirdPlace => f.write_str("3rd"),
        }
    }
}

/// The series every pairing of a knockout plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchFormat {
    /// The first to win (K+1)/2 games (K odd, at least 1).
    BestOf(u32),
    /// The first to reach P points (the event's points per game) while the opponent has
    /// fewer; both at P on one game, the next won game decides.
    RaceTo(Score),
    /// The higher seed wins with its first won game, the lower seed must win two.
    TwiceToBeat,
}

/// How a knockout's first bracket round is filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seeding {
    /// Standard bracket order (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight slots).
    Standard,
    /// Group winners against the seconds of the neighbouring group, in opposite halves.
    CrossOver,
}

/// How a stage is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StageFormat {
    Swiss {
        rounds: u32,
    },
    /// `groups` separate round robins (1 for a plain one); `rounds` absent is one full
    /// cycle of the largest group.
    RoundRobin {
        groups: u32,
        rounds: Option<u32>,
    },
    Knockout {
        series: MatchFormat,
        seeding: Seeding,
        third_place: bool,
    },
}

impl StageFormat {
    /// The system's name in the file.
    pub fn system_name(&self) -> &'static str {
        match self {
            StageFormat::Swiss { .. } => "swiss",
            StageFormat::RoundRobin { .. } => "round_robin",
            StageFormat::Knockout { .. } => "knockout",
        }
    }

    /// How many groups the stage has (1 unless a grouped round robin).
    pub fn groups(&self) -> u32 {
        match self {
            StageFormat::RoundRobin { groups, .. } => *groups,
            _ => 1,
        }
    }

    pub fn is_knockout(&self) -> bool {
        matches!(self, StageFormat::Knockout { .. })
    }
}

/// One stage of an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageSpec {
    pub name: String,
    pub format: StageFormat,
    pub tiebreaks: Vec<TieBreak>,
    /// How many players of each group go on to the next stage (every stage but the last).
    pub advance: Option<u32>,
}

/// Everything about how an event is run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventSettings {
    pub points: PointsScale,
    /// Pairs that must never be paired, in any stage.
    pub forbidden: Vec<(PlayerId, PlayerId)>,
    pub stages: Vec<StageSpec>,
}

/// Why an event's settings are refused; `stage` names the stage when the fault is one
/// stage's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsFault {
    #[error("an event has at least one stage")]
    NoStages,
    #[error("{what} must be a multiple of 0.5 between 0 and {MAX_POINTS}, not {value}")]
    PointsOutOfRange { what: &'static str, value: Score },
    #[error("stage {stage}: a tie-break may be listed only once: {tiebreak}")]
    DuplicateTieBreak { stage: StageNo, tiebreak: TieBreak },
    #[error("stage {0}: a Swiss needs at least one round")]
    NoRounds(StageNo),
    #[error(
        "stage {stage}: groups must be between 1 and {}, not {groups}",
        GroupId::MAX
    )]
    BadGroups { stage: StageNo, groups: u32 },
    #[error("stage {0}: only a round robin is played in groups")]
    GroupsOutsideRoundRobin(StageNo),
    #[error("stage {0}: a stage with groups is never the last")]
    GroupsLast(StageNo),
    #[error("stage {0}: a knockout is always the last stage")]
    KnockoutNotLast(StageNo),
    #[error("stage {0}: every stage but the last says how many players advance")]
    NoAdvance(StageNo),
    #[error("stage {0}: the last stage has no cut (advance)")]
    AdvanceInLastStage(StageNo),
    #[error("stage {0}: advance must be at least 1")]
    AdvanceZero(StageNo),
    #[error("stage {stage}: best_of must be odd and at least 1, not {k}")]
    BadBestOf { stage: StageNo, k: u32 },
    #[error("stage {0}: race_to must be more than 0 points")]
    BadRaceTo(StageNo),
    #[error(
        "stage {0}: cross_over seeding needs a stage before it with an even number of groups and advance 2"
    )]
    CrossOverNeedsGroupPairs(StageNo),
}

/// The part of a stage a settings fault is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StagePart {
    System,
    Rounds,
    Groups,
    Series,
    Seeding,
    Advance,
    Tiebreaks,
}

impl SettingsFault {
    /// The stage the fault is about (`None`: the event's settings as a whole) and its part.
    pub fn place(&self) -> (Option<StageNo>, StagePart) {
        use SettingsFault as F;
        match self {
            F::NoStages | F::PointsOutOfRange { .. } => (None, StagePart::System),
            F::DuplicateTieBreak { stage, .. } => (Some(*stage), StagePart::Tiebreaks),
            F::NoRounds(s) => (Some(*s), StagePart::Rounds),
            F::BadGroups { stage, .. } => (Some(*stage), StagePart::Groups),
            F::GroupsOutsideRoundRobin(s) | F::GroupsLast(s) => (Some(*s), StagePart::Groups),
            F::KnockoutNotLast(s) => (Some(*s), StagePart::System),
            F::NoAdvance(s) | F::AdvanceInLastStage(s) | F::AdvanceZero(s) => {
                (Some(*s), StagePart::Advance)
            }
            F::BadBestOf { stage, .. } => (Some(*stage), StagePart::Series),
            F::BadRaceTo(s) => (Some(*s), StagePart::Series),
            F::CrossOverNeedsGroupPairs(s) => (Some(*s), StagePart::Seeding),
        }
    }

    /// The fault as the desk says it beside its stage's field: a sentence without the
    /// stage's number, in the desk's words ("Cross-over seeding needs…", where the file's
    /// error says "stage 2: cross_over seeding needs…").
    pub fn desk_words(&self) -> String {
        use SettingsFault as F;
        match self {
            F::NoStages => "An event has at least one stage".into(),
            F::PointsOutOfRange { what, value } => format!(
                "{} must be a multiple of 0.5 between 0 and {MAX_POINTS}, not {value}",
                capital(&what.replace('_', " "))
            ),
            F::DuplicateTieBreak { tiebreak, .. } => {
                format!("A tie-break may be listed only once: {tiebreak}")
            }
            F::NoRounds(_) => "A Swiss needs at least one round".into(),
            F::BadGroups { groups, .. } => format!(
                "Groups must be between 1 and {}, not {groups}",
                GroupId::MAX
            ),
            F::GroupsOutsideRoundRobin(_) => "Only a round robin is played in groups".into(),
            F::GroupsLast(_) => "A stage with groups is never the last".into(),
            F::KnockoutNotLast(_) => "A knockout is always the last stage".into(),
            F::NoAdvance(_) => "Every stage but the last says how many players advance".into(),
            F::AdvanceInLastStage(_) => "The last stage has no cut".into(),
            F::AdvanceZero(_) => "Advance must be at least 1".into(),
            F::BadBestOf { k, .. } => format!("Best of must be odd and at least 1, not {k}"),
            F::BadRaceTo(_) => "Race to must be more than 0 points".into(),
            F::CrossOverNeedsGroupPairs(_) => "Cross-over seeding needs a stage before it with \
                 an even number of groups and advance 2"
                .into(),
        }
    }
}

/// A sentence's first letter in capitals.
fn capital(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn check_points(what: &'static str, value: Score) -> Result<(), SettingsFault> {
    if value < Score::ZERO || value > Score::from_points(MAX_POINTS) {
        return Err(SettingsFault::PointsOutOfRange { what, value });
    }
    Ok(())
}

impl EventSettings {
    /// Every rule of `spec/stages.md` on the settings alone (the players and rounds are
    /// checked as they are added).
    pub fn check(&self) -> Result<(), SettingsFault> {
        for key in PointsScale::KEYS {
            if let Some(v) = self.points.get(key) {
                check_points(key, v)?;
            }
        }
        if self.stages.is_empty() {
            return Err(SettingsFault::NoStages);
        }
        let last = self.stages.len() - 1;
        for (i, s) in self.stages.iter().enumerate() {
            let no = StageNo::from_index(i);
            let mut seen = Vec::new();
            for &t in &s.tiebreaks {
                if seen.contains(&t) {
                    return Err(SettingsFault::DuplicateTieBreak {
                        stage: no,
                        tiebreak: t,
                    });
                }
                seen.push(t);
            }
            match s.format {
                StageFormat::Swiss { rounds } => {
                    if rounds == 0 {
                        return Err(SettingsFault::NoRounds(no));
                    }
                }
                StageFormat::RoundRobin { groups, rounds } => {
                    if groups == 0 || groups > GroupId::MAX {
                        return Err(SettingsFault::BadGroups { stage: no, groups });
                    }
                    if groups > 1 && i == last {
                        return Err(SettingsFault::GroupsLast(no));
                    }
                    if rounds == Some(0) {
                        return Err(SettingsFault::NoRounds(no));
                    }
                }
                StageFormat::Knockout {
                    series, seeding, ..
                } => {
                    if i != last {
                        return Err(SettingsFault::KnockoutNotLast(no));
                    }
                    match series {
                        MatchFormat::BestOf(k) if k == 0 || k.is_multiple_of(2) => {
                            return Err(SettingsFault::BadBestOf { stage: no, k });
                        }
                        MatchFormat::RaceTo(p) if p <= Score::ZERO => {
                            return Err(SettingsFault::BadRaceTo(no));
                        }
                        MatchFormat::RaceTo(p) => check_points("race_to", p)?,
                        _ => {}
                    }
                    if seeding == Seeding::CrossOver {
                        let fits = i
                            .checked_sub(1)
                            .and_then(|p| self.stages.get(p))
                            .is_some_and(|prev| {
                                let g = prev.format.groups();
                                g.is_multiple_of(2) && prev.advance == Some(2)
                            });
                        if !fits {
                            return Err(SettingsFault::CrossOverNeedsGroupPairs(no));
                        }
                    }
                }
            }
            match (i == last, s.advance) {
                (false, None) => return Err(SettingsFault::NoAdvance(no)),
                (true, Some(_)) => return Err(SettingsFault::AdvanceInLastStage(no)),
                (false, Some(0)) => return Err(SettingsFault::AdvanceZero(no)),
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_ids_read_and_write_as_the_file_does() {
        assert_eq!(
            MatchId::parse("2.3"),
            Some(MatchId::Bracket {
                round: 2,
                number: 3
            })
        );
        assert_eq!(MatchId::parse("3rd"), Some(MatchId::ThirdPlace));
        for bad in [
            "", "1", "1.", ".1", "0.1", "1.0", "a.b", "1.1.1", "01.1", "-1.2",
        ] {
            assert_eq!(MatchId::parse(bad), None, "{bad}");
        }
        assert_eq!(MatchId::ThirdPlace.to_string(), "3rd");
        assert_eq!(
            MatchId::Bracket {
                round: 1,
                number: 4
            }
            .to_string(),
            "1.4"
        );
    }

    #[test]
    fn groups_are_letters() {
        assert_eq!(GroupId::from_letter("C"), Some(GroupId(2)));
        assert_eq!(GroupId::from_letter("c"), None);
        assert_eq!(GroupId::from_letter("AB"), None);
        assert_eq!(GroupId(25).to_string(), "Z");
    }
}
