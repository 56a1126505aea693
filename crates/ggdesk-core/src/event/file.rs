//! The tournament file in and out of the desk: one reader and one writer for its two
//! shapes, `ggdesk-tournament/1` (one system over its rounds) and `ggdesk-tournament/2`
//! (stages). Read, a file becomes the record of a new event (every round published, or
//! complete when all its results are in; a player absent from the start a late entry);
//! written, an event is its file with the desk's keys: the games' rules in
//! `settings.rules`, a rated event's `date`, and the keys of an imported file the desk does
//! not use.

use super::lifecycle::RoundState;
use super::model::{Event, Played};
use super::record::{
    Absence, BoardRecord, ByeRecord, Entrant, EventRecord, Format, PenaltyRecord, RoundKind,
    RoundRecord, TournamentSetup,
};
use super::refusal::Refusal;
use crate::rules::RuleSettings;
use crate::stages::{self, FORMAT_2};
use crate::tournament::{
    BoardNo, GameResult, PenaltyId, Player, PlayerId, RegistryId, RoundNo, StageNo, TableNo,
    Tournament, TournamentId,
};
use serde_json::{Map, Value};

/// The keys of a tournament file the event reads; the others are kept and written back.
const FILE_KEYS: [&str; 7] = [
    "format",
    "name",
    "settings",
    "players",
    "rounds",
    "penalties",
    "stages",
];

/// A tournament file read: the new event, replayed (numbered 0 until the store keeps it;
/// its players not yet linked to the registry: each is to be linked by federation id), and
/// the keys the desk does not use.
#[derive(Debug, Clone)]
pub struct FileEvent {
    pub event: Event,
    pub extra: Map<String, Value>,
}

/// The games' rules a file carries in `settings.rules` (ggdesk writes them there; other
/// programs ignore the key): absent, the GGF defaults.
fn file_rules(settings: Option<&Value>) -> Result<RuleSettings, Refusal> {
    match settings
        .and_then(|s| s.get("rules"))
        .filter(|v| !v.is_null())
    {
        None => Ok(RuleSettings::default()),
        Some(v) => RuleSettings::from_value(v, "settings.rules").map_err(Refusal::Rules),
    }
}

/// A player of a file as registered: not linked to the registry yet; a player absent in
/// the first `leading` rounds enters after them.
fn entrant(p: &Player, leading: usize) -> Entrant {
    Entrant {
        player: p.clone(),
        registry: RegistryId(0),
        entry_round: RoundNo::from_index(leading),
        banned: false,
    }
}

/// A round of a file as kept: complete when every result is in, else published.
fn round(
    number: RoundNo,
    stage: StageNo,
    kind: RoundKind,
    boards: Vec<BoardRecord>,
    byes: &[PlayerId],
    now: i64,
) -> RoundRecord {
    let complete = boards.iter().all(|b| b.result != GameResult::Pending);
    RoundRecord {
        number,
        stage,
        kind,
        state: if complete {
            RoundState::Complete
        } else {
            RoundState::Published
        },
        starts_at: None,
        published_at: Some(now),
        explanation: String::new(),
        boards,
        byes: byes
            .iter()
            .map(|&player| ByeRecord {
                player,
                explanation: String::new(),
            })
            .collect(),
    }
}

/// A game of a file as a board: its place in the round, its table (the place, when the
/// file gives none).
fn board(i: usize, g: &crate::tournament::Game) -> BoardRecord {
    let place = BoardNo::from_index(i);
    BoardRecord {
        board: place,
        table: g.table.map_or(TableNo(place.0), TableNo),
        table_given: g.table.is_some(),
        white: g.white,
        black: g.black,
        result: g.result,
        explanation: String::new(),
        group: None,
        series: None,
    }
}

fn absences(number: RoundNo, absent: &[PlayerId]) -> impl Iterator<Item = Absence> + '_ {
    absent.iter().map(move |&player| Absence {
        round: number,
        player,
        reason: "in the file".into(),
    })
}

/// The record of a `/1` file's tournament.
fn one_system(t: &Tournament, rules: RuleSettings, now: i64) -> EventRecord {
    let leading = |p: PlayerId| {
        t.rounds()
            .iter()
            .take_while(|r| r.absent.contains(&p))
            .count()
    };
    let mut record = bare(
        TournamentSetup {
            name: t.name().to_string(),
            system: t.settings().system,
            rounds: t.settings().rounds,
            points: t.settings().points,
            tiebreaks: t.settings().tiebreaks.clone(),
            rules,
        },
        Format::OneSystem,
        &t.settings().forbidden,
        t.players(),
        leading,
    );
    for (k, r) in t.rounds().iter().enumerate() {
        let number = RoundNo::from_index(k);
        let boards = r
            .games
            .iter()
            .enumerate()
            .map(|(i, g)| board(i, g))
            .collect();
        record.rounds.push(round(
            number,
            StageNo(1),
            RoundKind::Round,
            boards,
            &r.byes,
            now,
        ));
        record.absences.extend(absences(number, &r.absent));
    }
    record.penalties = t
        .penalties()
        .iter()
        .enumerate()
        .map(|(i, p)| PenaltyRecord {
            id: PenaltyId(i64::try_from(i).unwrap_or(i64::MAX)),
            stage: StageNo(1),
            player: p.player,
            points: p.points,
            reason: p.reason.clone(),
            decided_at: now,
        })
        .collect();
    record
}

/// A file's event before its rounds: its setup and format, forbidden pairs and players
/// (each absent from the `leading(p)` first rounds).
fn bare(
    setup: TournamentSetup,
    format: Format,
    forbidden: &[(PlayerId, PlayerId)],
    players: &[Player],
    leading: impl Fn(PlayerId) -> usize,
) -> EventRecord {
    EventRecord {
        setup,
        format,
        forbidden: pairs(forbidden),
        entrants: players.iter().map(|p| entrant(p, leading(p.id))).collect(),
        rounds: Vec::new(),
        absences: Vec::new(),
        penalties: Vec::new(),
        desk: Vec::new(),
    }
}

/// Forbidden pairs as the desk keeps them: the lower number first, each once, in order.
fn pairs(list: &[(PlayerId, PlayerId)]) -> Vec<(PlayerId, PlayerId)> {
    let mut out: Vec<(PlayerId, PlayerId)> = list
        .iter()
        .map(|&(a, b)| if a < b { (a, b) } else { (b, a) })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The record of a `/2` file's event: every round of every stage, each stage's playoff
/// games (all of them, as one round) after its rounds.
fn staged(event: &stages::Event, rules: RuleSettings, now: i64) -> EventRecord {
    let parts = event.parts();
    let first = parts.stages.first();
    let leading = |p: PlayerId| {
        first.map_or(0, |play| {
            play.rounds
                .iter()
                .take_while(|r| r.absent.contains(&p))
                .count()
        })
    };
    let mut record = bare(
        TournamentSetup {
            name: event.name().to_string(),
            points: event.settings().points,
            rules,
            ..TournamentSetup::default()
        }
        .for_stages(),
        Format::Stages(event.settings().stages.clone()),
        &event.settings().forbidden,
        event.players(),
        leading,
    );
    for (k, play) in parts.stages.iter().enumerate() {
        let stage = StageNo::from_index(k);
        for r in &play.rounds {
            let number = RoundNo::from_index(record.rounds.len());
            let boards = r
                .games
                .iter()
                .enumerate()
                .map(|(i, g)| BoardRecord {
                    group: g.group,
                    series: g.series,
                    ..board(i, &g.game)
                })
                .collect();
            record
                .rounds
                .push(round(number, stage, RoundKind::Round, boards, &r.byes, now));
            record.absences.extend(absences(number, &r.absent));
        }
        if !play.playoffs.is_empty() {
            let number = RoundNo::from_index(record.rounds.len());
            let boards = play
                .playoffs
                .iter()
                .enumerate()
                .map(|(i, g)| BoardRecord {
                    group: g.group,
                    ..board(
                        i,
                        &crate::tournament::Game {
                            table: None,
                            white: g.white,
                            black: g.black,
                            result: g.result,
                        },
                    )
                })
                .collect();
            record
                .rounds
                .push(round(number, stage, RoundKind::Playoff, boards, &[], now));
        }
    }
    record.penalties = parts
        .penalties
        .iter()
        .enumerate()
        .map(|(i, p)| PenaltyRecord {
            id: PenaltyId(i64::try_from(i).unwrap_or(i64::MAX)),
            stage: p.stage,
            player: p.penalty.player,
            points: p.penalty.points,
            reason: p.penalty.reason.clone(),
            decided_at: now,
        })
        .collect();
    record
}

/// Reads a tournament file of either shape with every check of its spec, as of `now`
/// (Unix ms: when its rounds are published). Refused, naming the place.
pub fn read_file(file: &Value, now: i64) -> Result<FileEvent, Refusal> {
    let rules = file_rules(file.get("settings"))?;
    let record = if file.get("format").and_then(Value::as_str) == Some(FORMAT_2) {
        let event = stages::Event::from_value(file).map_err(Refusal::StagedFile)?;
        staged(&event, rules, now)
    } else {
        let t = Tournament::from_value(file).map_err(Refusal::File)?;
        one_system(&t, rules, now)
    };
    record.setup.check()?;
    let extra = file
        .as_object()
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !FILE_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    let event = Event::new(TournamentId(0), record).map_err(Refusal::Inconsistent)?;
    Ok(FileEvent { event, extra })
}

impl Event {
    /// The event as its file (`/1` or `/2` by its format): every published or complete
    /// round, the games' rules in `settings.rules`, a rated event's `date`, and the keys of
    /// an imported file the desk does not use (`extra`).
    pub fn to_file(&self, extra: &Map<String, Value>, rated: Option<&str>) -> Value {
        let mut value = match &self.played {
            Played::One(t) => t.to_value(),
            Played::Stages(e) => e.to_value(),
        };
        if let Value::Object(top) = &mut value {
            if let Some(Value::Object(settings)) = top.get_mut("settings") {
                settings.insert("rules".into(), self.setup().rules.to_value());
            }
            if let Some(date) = rated {
                top.insert("date".into(), Value::String(date.to_string()));
            }
            for (k, v) in extra {
                top.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
        value
    }
}

/// What the registry holds under a federation id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub registry: RegistryId,
    pub name: String,
    pub banned: bool,
}

/// How a player of an imported file is linked to the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// To the registry player holding the file player's federation id.
    To(RegistryId),
    /// To a new registry player, with this federation id (empty when another player of the
    /// file holds it: the registry holds each federation id once).
    New { federation_id: String },
}

/// Links a file's players to the registry: each to the registry player with the same
/// federation id (`listed`, in the players' order: what the registry holds under each
/// one's id before the import), or to a new registry player. A banned player refuses the
/// file.
pub fn links(entrants: &[Entrant], listed: &[Option<Listed>]) -> Result<Vec<Link>, Refusal> {
    let mut linked: Vec<RegistryId> = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (i, e) in entrants.iter().enumerate() {
        let fid = e.player.federation_id.as_deref().unwrap_or("").trim();
        let link = match listed.get(i).and_then(Option::as_ref) {
            Some(l) if l.banned => {
                return Err(Refusal::FileBanned {
                    index: i,
                    name: e.player.name.clone(),
                    federation_id: fid.to_string(),
                    registry_name: l.name.clone(),
                });
            }
            Some(l) if !linked.contains(&l.registry) => {
                linked.push(l.registry);
                Link::To(l.registry)
            }
            Some(_) => Link::New {
                federation_id: String::new(),
            },
            None if !fid.is_empty() && taken.iter().any(|t| t == fid) => Link::New {
                federation_id: String::new(),
            },
            None => {
                if !fid.is_empty() {
                    taken.push(fid.to_string());
                }
                Link::New {
                    federation_id: fid.to_string(),
                }
            }
        };
        out.push(link);
    }
    Ok(out)
}
