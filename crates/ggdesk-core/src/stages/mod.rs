//! Events in stages (`ggdesk-tournament/2`, `spec/stages.md`): group round robins, Swiss
//! stages, knockouts of single games or series (best of K, race to P, twice to beat) with
//! a third-place match, playoffs at a cut, and the event's final placement. Pure.
//!
//! # The shape
//!
//! An [`Event`] holds its players, its [`EventSettings`] (the points, the forbidden pairs
//! and one [`StageSpec`] per stage, checked in one place) and what has been played in each
//! stage ([`StagePlay`]: rounds, playoffs). [`Event::new`] replays it stage by stage: the
//! first stage is seeded by rating; each group of a Swiss or round-robin stage (a Swiss is
//! one group) is a one-stage [`Tournament`](crate::tournament::Tournament) whose ratings
//! are the seeds, so the pairing, the standings and the tie-breaks are the `/1` code; a
//! complete stage's cut is read from its groups' standings and settled by its playoffs;
//! the next stage is seeded from its qualifiers; a knockout is a [`Bracket`]. Whatever is
//! played where the replay does not allow it is refused, naming where.
//!
//! What comes next is a pure function of the event: [`Event::next_step`] (a round, the
//! next playoff games, or a refusal), [`Event::stage_standings`],
//! [`Event::final_placement`], [`Event::bracket_json`].

mod bracket;
mod correction;
mod event;
mod fault;
mod file;
mod next;
mod playoff;
mod settings;

pub use bracket::{Bracket, BracketFault, Match, MatchGame, Series, Slot, bracket_order, series};
pub use correction::{Reseeding, check_correction};
pub use event::{
    Event, EventParts, Group, GroupCut, PlayoffGame, Reached, StageGame, StagePenalty, StagePlay,
    StageRound, serpentine,
};
pub use fault::{EventFault, EventFileError, StageFault};
pub use file::FORMAT_2;
pub use next::{
    CutMarks, NextStep, Placed, PlacementRefusal, StageBoard, StageStandings, StandingsRefusal,
    StepRefusal, placement_json, stage_standings_json,
};
pub use playoff::{PlayedOff, Playoff, PlayoffFault, PlayoffState, playoff};
pub use settings::{
    EventSettings, GroupId, MatchFormat, MatchId, Seeding, SettingsFault, StageFormat, StagePart,
    StageSpec,
};
