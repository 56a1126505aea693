//! Tournaments: their settings (system, rounds, points, tie-breaks, the GGF rule settings of
//! their games), forbidden pairs, the core model built from the tables
//! ([`Store::load_tournament`]), and the `ggdesk-tournament/1` file in and out, each import
//! in one transaction.

use super::db::{Optional, Tx, Value as DbValue, args};
use super::players::{PlayerInput, RegistryId, by_federation_id, insert_player};
use super::{Actor, Context, Result, Store, StoreError, TournamentId, audit, rejected};
use ggdesk_core::clock::NS_PER_S;
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::tournament::{
    Game, GameResult, Penalty, Player, PlayerId, PointsScale, Round, Score, Settings, System,
    TieBreak, Tournament,
};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// Everything the director sets for a tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSetup {
    pub name: String,
    pub system: System,
    /// `None`: one full cycle of a round robin.
    pub rounds: Option<u32>,
    pub points: PointsScale,
    pub tiebreaks: Vec<TieBreak>,
    /// The GGF rule settings of the games, with the desk's setup, reading and grace timers
    /// (whole seconds).
    pub rules: RuleSettings,
}

impl Default for TournamentSetup {
    /// A 5-round Swiss with the usual GG points, the spec's tie-breaks and the GGF rules.
    fn default() -> Self {
        TournamentSetup {
            name: String::new(),
            system: System::Swiss,
            rounds: Some(5),
            points: PointsScale::default(),
            tiebreaks: TieBreak::default_order(),
            rules: RuleSettings::default(),
        }
    }
}

impl TournamentSetup {
    /// The core model's settings (without the forbidden pairs).
    pub fn settings(&self) -> Settings {
        Settings {
            system: self.system,
            rounds: self.rounds,
            points: self.points,
            tiebreaks: self.tiebreaks.clone(),
            forbidden: Vec::new(),
        }
    }

    /// Checks the settings as the core model does, and the rule settings.
    pub fn check(&self) -> Result<()> {
        Tournament::new(&self.name, self.settings()).map_err(|e| rejected(e.to_string()))?;
        let r = &self.rules;
        let whole = |ns: i64| ns % NS_PER_S == 0;
        let checks = [
            (
                r.move_limit_ns > 0,
                "the move time must be more than 0 seconds",
            ),
            (
                r.game_limit_ns > 0,
                "the game time must be more than 0 seconds",
            ),
            (
                r.oversteps_to_lose >= 1,
                "the losing overstep must be at least the 1st",
            ),
            (
                r.setup_limit_ns > 0 && whole(r.setup_limit_ns),
                "the setup time must be a whole number of seconds above 0",
            ),
            (
                r.reading_limit_ns > 0 && whole(r.reading_limit_ns),
                "the reading time must be a whole number of seconds above 0",
            ),
            (
                r.grace_ns >= 0 && whole(r.grace_ns),
                "the grace period must be a whole number of seconds",
            ),
        ];
        for (ok, why) in checks {
            if !ok {
                return Err(rejected(why));
            }
        }
        Ok(())
    }
}

/// A tournament in the list of the Tournaments page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSummary {
    pub id: TournamentId,
    pub name: String,
    pub system: System,
    pub rounds: Option<u32>,
    pub players: u32,
    /// Rounds published or complete.
    pub rounds_started: u32,
    pub created_at: i64,
    /// An event of stages: its stages' names in order (a stage without a name by its
    /// system); empty for a tournament of one system.
    pub stages: Vec<String>,
}

fn inconsistent(id: TournamentId, what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        path: format!("tournament {id}"),
        detail: what.to_string(),
    }
}

fn tiebreak_text(list: &[TieBreak]) -> String {
    list.iter().map(|t| t.name()).collect::<Vec<_>>().join(",")
}

const SETUP_COLUMNS: &str =
    "name, system, rounds, win_points, draw_points, loss_points, bye_points,
     forfeit_win_points, forfeit_loss_points, absent_points, tiebreaks, rules, setup_s,
     reading_s, grace_s";

/// Reads a tournament's setup.
pub(crate) fn read_setup(conn: &mut Tx<'_>, id: TournamentId) -> Result<TournamentSetup> {
    let sql = format!("SELECT {SETUP_COLUMNS} FROM tournaments WHERE id = ?1");
    let row = conn
        .query_row(&sql, [id], |r| {
            let half = |i: usize| -> Result<Score> { Ok(Score::from_halves(r.get(i)?)) };
            let points = PointsScale {
                win: half(3)?,
                draw: half(4)?,
                loss: half(5)?,
                bye: half(6)?,
                forfeit_win: half(7)?,
                forfeit_loss: half(8)?,
                absent: half(9)?,
            };
            Ok((
                r.get::<String>(0)?,
                r.get::<String>(1)?,
                r.get::<Option<u32>>(2)?,
                points,
                r.get::<String>(10)?,
                r.get::<String>(11)?,
                (r.get::<i64>(12)?, r.get::<i64>(13)?, r.get::<i64>(14)?),
            ))
        })
        .optional()
        .at("tournaments", format!("tournament {id}"))?
        .ok_or_else(|| StoreError::NotFound(format!("tournament {id}")))?;
    let (name, system, rounds, points, tiebreaks, rules, (setup_s, reading_s, grace_s)) = row;
    let system = System::from_name(&system)
        .ok_or_else(|| inconsistent(id, format!("unknown system {system:?}")))?;
    let tiebreaks = tiebreaks
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            TieBreak::from_name(s)
                .ok_or_else(|| inconsistent(id, format!("unknown tie-break {s:?}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let value: Value = serde_json::from_str(&rules)
        .map_err(|e| inconsistent(id, format!("its rules are not JSON: {e}")))?;
    let mut rules = RuleSettings::from_record_value(Some(&value))
        .map_err(|e| inconsistent(id, format!("its rules: {e}")))?;
    rules.setup_limit_ns = setup_s.saturating_mul(NS_PER_S);
    rules.reading_limit_ns = reading_s.saturating_mul(NS_PER_S);
    rules.grace_ns = grace_s.saturating_mul(NS_PER_S);
    Ok(TournamentSetup {
        name,
        system,
        rounds,
        points,
        tiebreaks,
        rules,
    })
}

/// The values of [`SETUP_COLUMNS`] for a tournament's settings, in order.
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
        tiebreak_text(&s.tiebreaks),
        s.rules.record_value().to_string(),
        s.rules.setup_limit_ns / NS_PER_S,
        s.rules.reading_limit_ns / NS_PER_S,
        s.rules.grace_ns / NS_PER_S,
    ]
    .to_vec()
}

/// Inserts a tournament row and returns its id.
pub(crate) fn insert_tournament(
    tx: &mut Tx<'_>,
    s: &TournamentSetup,
    extra: &Map<String, Value>,
) -> Result<TournamentId> {
    let mut values = setup_values(s);
    values.push(DbValue::Text(Value::Object(extra.clone()).to_string()));
    values.push(DbValue::Int(tx.now()));
    tx.query_one(
        &format!(
            "INSERT INTO tournaments ({SETUP_COLUMNS}, extra, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
             RETURNING id"
        ),
        &values[..],
        |r| r.get(0),
    )
}

/// What changed between two setups, in words for the audit log.
fn describe_changes(old: &TournamentSetup, new: &TournamentSetup) -> Vec<String> {
    let mut out = Vec::new();
    if old.name != new.name {
        out.push(format!("name {:?} -> {:?}", old.name, new.name));
    }
    if old.system != new.system {
        out.push(format!(
            "system {} -> {}",
            old.system.name(),
            new.system.name()
        ));
    }
    if old.rounds != new.rounds {
        let show = |r: Option<u32>| r.map_or_else(|| "one cycle".to_string(), |n| n.to_string());
        out.push(format!(
            "rounds {} -> {}",
            show(old.rounds),
            show(new.rounds)
        ));
    }
    for key in PointsScale::KEYS {
        let (a, b) = (old.points.get(key), new.points.get(key));
        if a != b {
            out.push(format!(
                "points for {key} {} -> {}",
                a.unwrap_or_default(),
                b.unwrap_or_default()
            ));
        }
    }
    if old.tiebreaks != new.tiebreaks {
        out.push(format!(
            "tie-breaks {} -> {}",
            tiebreak_text(&old.tiebreaks),
            tiebreak_text(&new.tiebreaks)
        ));
    }
    if old.rules != new.rules {
        out.push(format!(
            "rules {} -> {} (setup {} s, reading {} s, grace {} s)",
            old.rules.record_value(),
            new.rules.record_value(),
            new.rules.setup_limit_ns / NS_PER_S,
            new.rules.reading_limit_ns / NS_PER_S,
            new.rules.grace_ns / NS_PER_S
        ));
    }
    out
}

/// The number of rounds of a tournament in the database, drafts included, and of those
/// published or complete.
pub(crate) fn round_counts(conn: &mut Tx<'_>, id: TournamentId) -> Result<(u32, u32)> {
    conn.query_row(
        "SELECT count(*), CAST(coalesce(sum(CASE WHEN state <> 'draft' THEN 1 ELSE 0 END), 0) AS BIGINT)
         FROM rounds WHERE tournament_id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// Checks that a tournament exists.
pub(crate) fn check_tournament(conn: &mut Tx<'_>, id: TournamentId) -> Result<String> {
    conn.query_row("SELECT name FROM tournaments WHERE id = ?1", [id], |r| {
        r.get(0)
    })
    .optional()?
    .ok_or_else(|| StoreError::NotFound(format!("tournament {id}")))
}

/// Builds the core model from the tables: players as registered, settings, forbidden pairs,
/// every round that is published or complete (not a draft), penalties.
pub(crate) fn load(conn: &mut Tx<'_>, id: TournamentId) -> Result<Tournament> {
    let name = check_tournament(conn, id)?;
    let setup = read_setup(conn, id)?;
    let mut t = Tournament::new(name, setup.settings()).map_err(|e| inconsistent(id, e))?;

    let mut stmt = conn.prepare_cached(
        "SELECT player_no, name, rating, club, federation_id, withdrawn, extra
         FROM registrations WHERE tournament_id = ?1 ORDER BY seq, player_no",
    )?;
    let players = stmt
        .query_map([id], |r| {
            let extra: String = r.get(6)?;
            Ok(Player {
                id: PlayerId(r.get(0)?),
                name: r.get(1)?,
                rating: r.get(2)?,
                club: r.get(3)?,
                federation_id: r.get(4)?,
                withdrawn: r.get::<i64>(5)? != 0,
                extra: match serde_json::from_str(&extra) {
                    Ok(Value::Object(m)) => m,
                    _ => Map::new(),
                },
            })
        })?
        .collect::<Result<Vec<_>>>()?;
    for p in players {
        t.add_player(p).map_err(|e| inconsistent(id, e))?;
    }

    let mut stmt = conn.prepare_cached(
        "SELECT player_a, player_b FROM forbidden_pairs WHERE tournament_id = ?1 ORDER BY player_a, player_b",
    )?;
    let pairs = stmt
        .query_map([id], |r| Ok((PlayerId(r.get(0)?), PlayerId(r.get(1)?))))?
        .collect::<Result<Vec<_>>>()?;
    for (a, b) in pairs {
        t.add_forbidden_pair(a, b)
            .map_err(|e| inconsistent(id, e))?;
    }

    let mut stmt = conn.prepare_cached(
        "SELECT number FROM rounds WHERE tournament_id = ?1 AND state <> 'draft' ORDER BY number",
    )?;
    let numbers = stmt
        .query_map([id], |r| r.get::<u32>(0))?
        .collect::<Result<Vec<_>>>()?;
    let count = numbers.len();
    for (k, &n) in numbers.iter().enumerate() {
        if n as usize != k + 1 {
            return Err(inconsistent(id, format!("round {n} follows round {k}")));
        }
    }
    let mut rounds: Vec<Round> = vec![Round::default(); count];
    let slot = |round: u32| -> Option<usize> {
        (round >= 1 && round as usize <= count).then(|| round as usize - 1)
    };
    let mut stmt = conn.prepare_cached(
        "SELECT round, table_no, table_given, white, black, result FROM pairings
         WHERE tournament_id = ?1 ORDER BY round, board_no",
    )?;
    let mut rows = stmt.query([id])?;
    while let Some(r) = rows.next()? {
        let Some(k) = slot(r.get(0)?) else { continue };
        let result: String = r.get(5)?;
        let result = GameResult::from_name(&result)
            .ok_or_else(|| inconsistent(id, format!("unknown result {result:?}")))?;
        rounds[k].games.push(Game {
            table: (r.get::<i64>(2)? != 0).then_some(r.get(1)?),
            white: PlayerId(r.get(3)?),
            black: PlayerId(r.get(4)?),
            result,
        });
    }
    // The byes and the absences of each round: rows of the same shape.
    for (sql, absent) in [
        (
            "SELECT round, player_no FROM round_byes WHERE tournament_id = ?1 ORDER BY round, seq, player_no",
            false,
        ),
        (
            "SELECT round, player_no FROM absences WHERE tournament_id = ?1 ORDER BY round, seq, player_no",
            true,
        ),
    ] {
        let mut stmt = conn.prepare_cached(sql)?;
        let mut rows = stmt.query([id])?;
        while let Some(r) = rows.next()? {
            if let Some(k) = slot(r.get(0)?) {
                let round = &mut rounds[k];
                let list = if absent {
                    &mut round.absent
                } else {
                    &mut round.byes
                };
                list.push(PlayerId(r.get(1)?));
            }
        }
    }
    for round in rounds {
        t.add_round(round).map_err(|e| inconsistent(id, e))?;
    }

    let mut stmt = conn.prepare_cached(
        "SELECT player_no, points, reason FROM penalties WHERE tournament_id = ?1 ORDER BY id",
    )?;
    let penalties = stmt
        .query_map([id], |r| {
            Ok(Penalty {
                player: PlayerId(r.get(0)?),
                points: Score::from_halves(r.get(1)?),
                reason: r.get(2)?,
            })
        })?
        .collect::<Result<Vec<_>>>()?;
    for p in penalties {
        t.add_penalty(p).map_err(|e| inconsistent(id, e))?;
    }
    Ok(t)
}

/// The keys of a tournament file the model reads; others are kept in `tournaments.extra`.
const FILE_KEYS: [&str; 6] = [
    "format",
    "name",
    "settings",
    "players",
    "rounds",
    "penalties",
];

/// The rule settings a tournament file may carry in `settings.rules` (ggdesk writes them
/// there; other programs ignore the key): the one encoding of every rule setting, the
/// record's rules object plus the desk's timers.
pub(crate) fn file_rules(settings: Option<&Value>) -> Result<RuleSettings> {
    match settings
        .and_then(|s| s.get("rules"))
        .filter(|v| !v.is_null())
    {
        None => Ok(RuleSettings::default()),
        Some(v) => {
            RuleSettings::from_value(v, "settings.rules").map_err(|e| rejected(e.to_string()))
        }
    }
}

impl Store {
    /// Every tournament with its size and progress, newest first.
    pub fn tournaments(&self) -> Result<Vec<TournamentSummary>> {
        self.read(|q| {
            let mut stages: HashMap<TournamentId, Vec<String>> = HashMap::new();
            for (id, name, system) in q.query_map(
                "SELECT tournament_id, name, system FROM stages ORDER BY tournament_id, stage_no",
                args![],
                |r| Ok((r.get::<TournamentId>(0)?, r.get::<String>(1)?, r.get::<String>(2)?)),
            )? {
                let shown = if name.trim().is_empty() {
                    system.replace('_', " ")
                } else {
                    name
                };
                stages.entry(id).or_default().push(shown);
            }
            let mut list = q.query_map(
                "SELECT t.id, t.name, t.system, t.rounds, t.created_at,
                        (SELECT count(*) FROM registrations r WHERE r.tournament_id = t.id),
                        (SELECT count(*) FROM rounds r WHERE r.tournament_id = t.id AND r.state <> 'draft')
                 FROM tournaments t ORDER BY t.id DESC",
                args![],
                |r| {
                    let id: TournamentId = r.get(0)?;
                    (|| {
                        Ok(TournamentSummary {
                            id,
                            name: r.get(1)?,
                            system: r.code("system", System::from_name)?,
                            rounds: r.get(3)?,
                            created_at: r.get(4)?,
                            players: r.get(5)?,
                            rounds_started: r.get(6)?,
                            stages: Vec::new(),
                        })
                    })()
                    .at("tournaments", format!("tournament {id}"))
                },
            )?;
            for t in &mut list {
                t.stages = stages.remove(&t.id).unwrap_or_default();
            }
            Ok(list)
        })
    }

    /// A tournament's settings.
    pub fn tournament_setup(&self, id: TournamentId) -> Result<TournamentSetup> {
        self.read(|q| read_setup(q, id))
    }

    /// Creates a tournament.
    pub fn create_tournament(
        &mut self,
        setup: &TournamentSetup,
        actor: &Actor,
    ) -> Result<TournamentId> {
        let mut setup = setup.clone();
        setup.name = setup.name.trim().to_string();
        if setup.name.is_empty() {
            return Err(rejected("a tournament needs a name"));
        }
        setup.check()?;
        self.write(|tx| {
            let id = insert_tournament(tx, &setup, &Map::new())?;
            audit(
                tx,
                actor,
                "tournament created",
                Some(id),
                None,
                "",
                &format!(
                    "{} ({}, {} rounds)",
                    setup.name,
                    setup.system.name(),
                    setup
                        .rounds
                        .map_or_else(|| "one cycle of".into(), |n| n.to_string())
                ),
            )?;
            Ok(id)
        })
    }

    /// Changes a tournament's settings. The system cannot change once a round is paired,
    /// nor the number of rounds fall below the rounds already paired. Changing points or
    /// tie-breaks after round 1 is allowed (the desk warns first); every change is in the
    /// audit log with `reason`.
    pub fn update_tournament(
        &mut self,
        id: TournamentId,
        setup: &TournamentSetup,
        reason: &str,
        actor: &Actor,
    ) -> Result<()> {
        let mut setup = setup.clone();
        setup.name = setup.name.trim().to_string();
        if setup.name.is_empty() {
            return Err(rejected("a tournament needs a name"));
        }
        setup.check()?;
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [id])?;
            let old = read_setup(tx, id)?;
            // An event of stages: its stages hold the system, rounds and tie-breaks.
            let staged = super::stages::is_staged(tx, id)?;
            let mut setup = setup.clone();
            if staged {
                setup.system = old.system;
                setup.rounds = old.rounds;
                setup.tiebreaks = old.tiebreaks.clone();
            }
            let (paired, _) = round_counts(tx, id)?;
            if paired > 0 && old.system != setup.system {
                return Err(rejected(
                    "the system cannot change once a round has been paired",
                ));
            }
            if let Some(n) = setup.rounds
                && n < paired
            {
                return Err(rejected(format!(
                    "{paired} rounds are already paired: the event cannot have only {n}"
                )));
            }
            let changes = describe_changes(&old, &setup);
            if changes.is_empty() {
                return Ok(());
            }
            let mut values = setup_values(&setup);
            values.push(DbValue::Int(id.0));
            tx.execute(
                "UPDATE tournaments SET name = ?1, system = ?2, rounds = ?3, win_points = ?4,
                    draw_points = ?5, loss_points = ?6, bye_points = ?7, forfeit_win_points = ?8,
                    forfeit_loss_points = ?9, absent_points = ?10, tiebreaks = ?11, rules = ?12,
                    setup_s = ?13, reading_s = ?14, grace_s = ?15
                 WHERE id = ?16",
                &values[..],
            )?;
            // New points may change a stage's cut: refused if a next stage was seeded by it.
            super::stages::check_event(tx, id)?;
            audit(
                tx,
                actor,
                "tournament settings changed",
                Some(id),
                None,
                reason.trim(),
                &changes.join("; "),
            )
        })
    }

    /// The forbidden pairs of a tournament (relatives, teammates), each with the lower
    /// number first.
    pub fn forbidden_pairs(&self, id: TournamentId) -> Result<Vec<(PlayerId, PlayerId)>> {
        self.read(|q| {
            q.query_map(
                "SELECT player_a, player_b FROM forbidden_pairs WHERE tournament_id = ?1 ORDER BY player_a, player_b",
                [id],
                |r| Ok((PlayerId(r.get(0)?), PlayerId(r.get(1)?))),
            )
        })
    }

    /// Forbids pairing two registered players; forbidding a pair twice is harmless.
    pub fn forbid_pair(
        &mut self,
        id: TournamentId,
        a: PlayerId,
        b: PlayerId,
        actor: &Actor,
    ) -> Result<()> {
        if a == b {
            return Err(rejected(format!(
                "player {a} cannot be paired with themself anyway"
            )));
        }
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [id])?;
            check_tournament(tx, id)?;
            for p in [lo, hi] {
                super::registrations::registration_name(tx, id, p)?;
            }
            let added = tx.execute(
                "INSERT INTO forbidden_pairs (tournament_id, player_a, player_b) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
                args![id, lo.0, hi.0],
            )?;
            if added > 0 {
                audit(tx, actor, "forbidden pair added", Some(id), None, "", &format!("{lo} - {hi}"))?;
            }
            Ok(())
        })
    }

    /// Allows a forbidden pair again.
    pub fn allow_pair(
        &mut self,
        id: TournamentId,
        a: PlayerId,
        b: PlayerId,
        actor: &Actor,
    ) -> Result<()> {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        self.write(|tx| {
            tx.lock("tournaments", "id = ?1", [id])?;
            let removed = tx.execute(
                "DELETE FROM forbidden_pairs WHERE tournament_id = ?1 AND player_a = ?2 AND player_b = ?3",
                args![id, lo.0, hi.0],
            )?;
            if removed == 0 {
                return Err(rejected(format!("{lo} - {hi} is not a forbidden pair")));
            }
            audit(tx, actor, "forbidden pair removed", Some(id), None, "", &format!("{lo} - {hi}"))
        })
    }

    /// The tournament as the core model: registered players, settings, forbidden pairs,
    /// every published or complete round (a draft is not a round yet) and the penalties.
    /// Standings, pairing and the CSV writers all work on it.
    pub fn load_tournament(&self, id: TournamentId) -> Result<Tournament> {
        self.read(|q| load(q, id))
    }

    /// Imports a `ggdesk-tournament/1` file (or a `ggdesk-tournament/2` event of stages,
    /// see `stages.rs`) in one transaction: the whole tournament or nothing. Players keep the file's ids; each is linked to the registry player with the
    /// same federation id, or added to the registry. A player banned in the registry refuses
    /// the file. Returns the new tournament's id.
    pub fn import_tournament(&mut self, file: &Value, actor: &Actor) -> Result<TournamentId> {
        if file.get("format").and_then(Value::as_str) == Some(ggdesk_core::stages::FORMAT_2) {
            return self.import_event(file, actor);
        }
        let t = Tournament::from_value(file).map_err(|e| rejected(e.to_string()))?;
        let settings_value = file.get("settings");
        let rules = file_rules(settings_value)?;
        let extra: Map<String, Value> = file
            .as_object()
            .map(|m| {
                m.iter()
                    .filter(|(k, _)| !FILE_KEYS.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let setup = TournamentSetup {
            name: t.name().to_string(),
            system: t.settings().system,
            rounds: t.settings().rounds,
            points: t.settings().points,
            tiebreaks: t.settings().tiebreaks.clone(),
            rules,
        };
        setup.check()?;
        self.write(|tx| {
            super::trace("import transaction begun");
            let id = insert_tournament(tx, &setup, &extra)?;
            let leading = |p: PlayerId| -> u32 {
                let n = t.rounds().iter().take_while(|r| r.absent.contains(&p)).count();
                u32::try_from(n).unwrap_or(u32::MAX)
            };
            write_players(tx, id, t.players(), &leading)?;
            for &(a, b) in &t.settings().forbidden {
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                tx.prepare_cached(
                    "INSERT INTO forbidden_pairs (tournament_id, player_a, player_b) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
                )?
                .execute(args![id, lo.0, hi.0])?;
            }
            write_rounds(tx, id, &t)?;
            let now = tx.now();
            for p in t.penalties() {
                tx.prepare_cached(
                    "INSERT INTO penalties (tournament_id, player_no, points, reason, decided_at)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )?
                .execute(args![id, p.player.0, p.points.halves(), p.reason, now])?;
            }
            audit(
                tx,
                actor,
                "tournament imported",
                Some(id),
                None,
                "",
                &format!(
                    "{}: {} players, {} rounds",
                    t.name(),
                    t.players().len(),
                    t.rounds().len()
                ),
            )?;
            super::trace("import transaction committing");
            Ok(id)
        })
    }

    /// The tournament as a `ggdesk-tournament/1` file (an event of stages as a
    /// `ggdesk-tournament/2` file, see `stages.rs`): every published or complete round,
    /// the GGF rule settings in `settings.rules`, and the keys of an imported file this desk
    /// does not use.
    pub fn export_tournament(&self, id: TournamentId) -> Result<Value> {
        if self.read(|q| super::stages::is_staged(q, id))? {
            return self.export_event(id);
        }
        let (t, setup, extra, rated) = self.read(|q| {
            let t = load(q, id)?;
            let setup = read_setup(q, id)?;
            let (extra, rated): (String, Option<String>) = q.query_row(
                "SELECT extra, rated_date FROM tournaments WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            Ok((t, setup, extra, rated))
        })?;
        Ok(with_desk_keys(t.to_value(), &setup, &extra, rated))
    }
}

/// A tournament file (`/1` or `/2`) as exported: the GGF rule settings in
/// `settings.rules`, a rated event's date (`spec/ratings.md`, over a file's own), and the
/// keys of an imported file this desk does not use (`extra`, a JSON object).
pub(crate) fn with_desk_keys(
    mut value: Value,
    setup: &TournamentSetup,
    extra: &str,
    rated: Option<String>,
) -> Value {
    if let Value::Object(top) = &mut value {
        if let Some(Value::Object(settings)) = top.get_mut("settings") {
            settings.insert("rules".into(), setup.rules.to_value());
        }
        if let Some(date) = rated {
            top.insert("date".into(), Value::String(date));
        }
        if let Ok(Value::Object(extra)) = serde_json::from_str::<Value>(extra) {
            for (k, v) in extra {
                top.entry(k).or_insert(v);
            }
        }
    }
    value
}

/// Registers a file's players (keeping their ids), linked to the registry; a player absent
/// in the first `leading_absences` rounds is a late entry from the round after.
pub(crate) fn write_players(
    tx: &mut Tx<'_>,
    id: TournamentId,
    players: &[Player],
    leading_absences: &dyn Fn(PlayerId) -> u32,
) -> Result<()> {
    let now = tx.now();
    let mut linked: HashSet<RegistryId> = HashSet::new();
    for (i, p) in players.iter().enumerate() {
        let fid = p.federation_id.clone().unwrap_or_default();
        let fid = fid.trim();
        let found = by_federation_id(tx, fid)?;
        let registry = match found {
            Some((_, name, true)) => {
                return Err(rejected(format!(
                    "players[{i}]: {} (federation id {fid}) is banned in the registry ({name}): \
                     a banned player cannot be registered",
                    p.name
                )));
            }
            Some((rid, _, false)) if !linked.contains(&rid) => rid,
            other => insert_player(
                tx,
                &PlayerInput {
                    name: p.name.clone(),
                    // A second player with the same federation id keeps it in the tournament
                    // only: the registry holds each federation id once.
                    federation_id: if other.is_some() {
                        String::new()
                    } else {
                        fid.to_string()
                    },
                    club: p.club.clone().unwrap_or_default(),
                    rating: p.rating,
                },
            )?,
        };
        linked.insert(registry);
        let entry = leading_absences(p.id) + 1;
        tx.prepare_cached(
            "INSERT INTO registrations (tournament_id, player_no, player_id, name, rating, club,
                 federation_id, entry_round, withdrawn, extra, seq, registered_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        )?
        .execute(args![
            id,
            p.id.0,
            registry.0,
            p.name,
            p.rating,
            p.club,
            p.federation_id,
            entry,
            p.withdrawn,
            Value::Object(p.extra.clone()).to_string(),
            i as i64,
            now
        ])?;
    }
    Ok(())
}

/// Writes the file's rounds: complete ones as complete, the others as published.
fn write_rounds(tx: &mut Tx<'_>, id: TournamentId, t: &Tournament) -> Result<()> {
    let now = tx.now();
    for (k, r) in t.rounds().iter().enumerate() {
        let number = k as i64 + 1;
        let complete = r.is_complete();
        tx.prepare_cached(
            "INSERT INTO rounds (tournament_id, number, state, published_at, completed_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(args![
            id,
            number,
            if complete { "complete" } else { "published" },
            now,
            complete.then_some(now)
        ])?;
        for (i, g) in r.games.iter().enumerate() {
            let board = i as i64 + 1;
            tx.prepare_cached(
                "INSERT INTO pairings (tournament_id, round, board_no, table_no, table_given, white, black, result)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(args![
                id,
                number,
                board,
                g.table.map_or(board, i64::from),
                g.table.is_some(),
                g.white.0,
                g.black.0,
                g.result.name()
            ])?;
        }
        for (i, b) in r.byes.iter().enumerate() {
            tx.prepare_cached(
                "INSERT INTO round_byes (tournament_id, round, player_no, seq) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(args![id, number, b.0, i as i64])?;
        }
        for (i, a) in r.absent.iter().enumerate() {
            tx.prepare_cached(
                "INSERT INTO absences (tournament_id, round, player_no, reason, seq) VALUES (?1, ?2, ?3, 'in the file', ?4)",
            )?
            .execute(args![id, number, a.0, i as i64])?;
        }
    }
    Ok(())
}
