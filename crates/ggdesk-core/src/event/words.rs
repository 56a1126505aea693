//! The event's words, made once: what a stage, a system, a series, a bracket round, a
//! game of a match, a result and a round's place are called. The desk, the prints, the
//! public pages, the CSV and the audit log all say them with these functions, so the same
//! thing reads the same everywhere.

use super::model::RoundPlace;
use super::record::TournamentSetup;
use crate::date::Date;
use crate::rules::clock::NS_PER_S;
use crate::stages::{MatchFormat, MatchId, Reseeding, Seeding, Series, StageFormat, StageSpec};
use crate::tournament::{GameResult, PlayerId, PointsScale, StageNo};

/// A system's name as the desk shows it: `Swiss`, `Round robin`, `Knockout`.
pub fn system_name(format: &StageFormat) -> &'static str {
    match format {
        StageFormat::Swiss { .. } => "Swiss",
        StageFormat::RoundRobin { .. } => "Round robin",
        StageFormat::Knockout { .. } => "Knockout",
    }
}

/// A stage's name, or its system when it has none.
pub fn stage_name(spec: &StageSpec) -> String {
    let name = spec.name.trim();
    if name.is_empty() {
        system_name(&spec.format).to_string()
    } else {
        name.to_string()
    }
}

/// A stage in the audit log's and the explanations' words: `stage 2 (Knockout)`, or
/// `stage 2` when it has no name.
pub fn stage_words(specs: &[StageSpec], stage: StageNo) -> String {
    let name = stage
        .index()
        .and_then(|k| specs.get(k))
        .map_or("", |s| s.name.trim());
    if name.is_empty() {
        format!("stage {stage}")
    } else {
        format!("stage {stage} ({name})")
    }
}

/// Names in a sentence: `A`, `A and B`, `A, B and C`.
pub fn names_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A correction refused because it would re-seed a started stage or undo a played playoff,
/// in the director's words (`Reyes would go from seed 1 to seed 4; stage 2 (Knockout) has
/// started: a result cannot change who went on or their seeds`).
pub fn reseeding_words(
    r: &Reseeding,
    specs: &[StageSpec],
    name: &dyn Fn(PlayerId) -> String,
) -> String {
    let stage = |s: StageNo| stage_words(specs, s);
    let fixed = |s: StageNo| {
        format!(
            "{} has started: a result cannot change who went on or their seeds",
            stage(s)
        )
    };
    let group = |g: &Option<crate::stages::GroupId>| {
        g.map(|g| format!(" of group {g}")).unwrap_or_default()
    };
    match r {
        Reseeding::Seed {
            player,
            from,
            to,
            started,
        } => format!(
            "{} would go from seed {from} to seed {to}; {}",
            name(*player),
            fixed(*started)
        ),
        Reseeding::Out {
            player,
            instead,
            started,
        } => format!(
            "{} would no longer go on{}; {}",
            name(*player),
            instead.map_or_else(String::new, |q| format!(" ({} would instead)", name(q))),
            fixed(*started)
        ),
        Reseeding::NewTie {
            group: g,
            players,
            started,
        } => {
            let names: Vec<String> = players.iter().map(|&p| name(p)).collect();
            format!(
                "{} would be level at the cut{} and need a playoff; {}",
                names_list(&names),
                group(g),
                fixed(*started)
            )
        }
        Reseeding::Reopens { stage: s, started } => format!(
            "a result of {} cannot go back to pending: {}",
            stage(*s),
            started.map_or_else(
                || "the playoff at its cut has been played".to_string(),
                |n| format!("{} has started", stage(n))
            )
        ),
        Reseeding::PlayoffVoided {
            stage: s,
            group: g,
            players,
        } => {
            let names: Vec<String> = players.iter().map(|&p| name(p)).collect();
            format!(
                "the playoff{} ({}) at the cut of {} has been played: this result would make it \
                 unnecessary or change who plays off, and a result cannot undo a playoff played",
                group(g),
                names_list(&names),
                stage(*s)
            )
        }
    }
}

/// A series in words: `single game`, `best of 3`, `race to 4 points`, `twice to beat`.
pub fn series_words(m: MatchFormat) -> String {
    match m {
        MatchFormat::BestOf(1) => "single game".into(),
        MatchFormat::BestOf(k) => format!("best of {k}"),
        MatchFormat::RaceTo(p) => format!("race to {p} points"),
        MatchFormat::TwiceToBeat => "twice to beat (the higher seed wins with one won game)".into(),
    }
}

/// One stage in a line: `Groups: round robin in 4 groups, top 2 go on`; a stage named as
/// its system (or not named) says it once: `Knockout, best of 3`.
pub fn stage_line(s: &StageSpec) -> String {
    let name = s.name.trim();
    let rest = stage_format_after_name(s);
    if name.is_empty() {
        let format = stage_format(s);
        let mut chars = format.chars();
        chars.next().map_or_else(String::new, |c| {
            c.to_uppercase().chain(chars).collect::<String>()
        })
    } else if rest.is_empty() {
        name.to_string()
    } else if name.eq_ignore_ascii_case(system_name(&s.format)) {
        format!("{name}, {rest}")
    } else {
        format!("{name}: {rest}")
    }
}

/// How a stage is played, after its name: without the system's word when the name
/// already says it (`Knockout` → `best of 3, cross-over`).
pub fn stage_format_after_name(s: &StageSpec) -> String {
    let format = stage_format(s);
    let system = system_name(&s.format).to_lowercase();
    if !s.name.trim().eq_ignore_ascii_case(&system) {
        return format;
    }
    let lower = format.to_lowercase();
    match lower.strip_prefix(&system) {
        Some(rest) => format[format.len() - rest.len()..]
            .trim_start_matches(',')
            .trim_start()
            .to_string(),
        None => format,
    }
}

/// How a stage is played, without its name: `round robin in 4 groups, top 2 go on`.
pub fn stage_format(s: &StageSpec) -> String {
    let mut out = String::new();
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

/// How many bracket rounds a knockout whose first round has `matches` matches takes.
pub fn bracket_rounds(matches: usize) -> u32 {
    (2 * matches.max(1)).next_power_of_two().trailing_zeros()
}

/// The name of bracket round `r` (from 1) of `count`: Final, Semi-finals, Quarter-finals,
/// else Round of 16, 32, …
pub fn bracket_round_title(r: u32, count: u32) -> String {
    match count.saturating_sub(r) {
        0 => "Final".into(),
        1 => "Semi-finals".into(),
        2 => "Quarter-finals".into(),
        n => format!("Round of {}", 1u64 << (n + 1).min(62)),
    }
}

/// Why an undecided series goes on when its score alone does not say:
/// `4-4: the next won game decides` (a race to P where both reached P on the same game).
pub fn series_note(format: MatchFormat, s: &Series) -> Option<String> {
    match format {
        MatchFormat::RaceTo(target)
            if s.winner.is_none() && s.points.iter().all(|&p| p >= target) =>
        {
            Some(format!(
                "{}-{}: the next won game decides",
                s.points[0], s.points[1]
            ))
        }
        _ => None,
    }
}

/// A match's title: `Match 1.2`, `Third-place match`.
pub fn match_title(id: MatchId) -> String {
    match id {
        MatchId::ThirdPlace => "Third-place match".into(),
        other => format!("Match {other}"),
    }
}

/// A game of a match from the view of the match's top player: `1`, `½`, `0`, `1f` / `0f`
/// by forfeit, `…` still to be played.
pub fn game_mark(top: PlayerId, white: PlayerId, result: GameResult) -> &'static str {
    let top_white = top == white;
    match (result, top_white) {
        (GameResult::Pending, _) => "…",
        (GameResult::Draw, _) => "½",
        (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => "1",
        (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => "0",
        (GameResult::WhiteWinsByForfeit, true) | (GameResult::BlackWinsByForfeit, false) => "1f",
        (GameResult::WhiteWinsByForfeit, false)
        | (GameResult::BlackWinsByForfeit, true)
        | (GameResult::DoubleForfeit, _) => "0f",
    }
}

/// A result in a few words, as the desk's boards show it: `1-0`, `draw`, `0-1 forfeit`,
/// `pending`.
pub fn result_short(r: GameResult) -> &'static str {
    match r {
        GameResult::WhiteWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "draw",
        GameResult::WhiteWinsByForfeit => "1-0 forfeit",
        GameResult::BlackWinsByForfeit => "0-1 forfeit",
        GameResult::DoubleForfeit => "0-0 both forfeit",
        GameResult::Pending => "pending",
    }
}

/// A result in words, as a menu offers it: `White wins`, `Double forfeit (both lose)`.
pub fn result_long(r: GameResult) -> &'static str {
    match r {
        GameResult::WhiteWins => "White wins",
        GameResult::BlackWins => "Black wins",
        GameResult::Draw => "Draw",
        GameResult::WhiteWinsByForfeit => "White wins by forfeit",
        GameResult::BlackWinsByForfeit => "Black wins by forfeit",
        GameResult::DoubleForfeit => "Double forfeit (both lose)",
        GameResult::Pending => "Pending (no result)",
    }
}

/// `2026-11-29 15:30:00 UTC` from Unix milliseconds, for the audit log.
pub fn utc_text(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let rem = secs.rem_euclid(86_400);
    let day = Date::from_days_since_epoch(secs.div_euclid(86_400))
        .map_or_else(|| "????-??-??".to_string(), |d| d.to_string());
    format!(
        "{day} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// What changed between two setups, in words for the audit log.
pub fn setup_changes(old: &TournamentSetup, new: &TournamentSetup) -> Vec<String> {
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

/// Tie-breaks as the settings keep them: their names, comma separated.
pub fn tiebreak_text(list: &[crate::tournament::TieBreak]) -> String {
    list.iter().map(|t| t.name()).collect::<Vec<_>>().join(",")
}

/// What the audit log says of a tournament created: `Club night (swiss, 5 rounds)`, or
/// with its stages.
pub fn created_line(setup: &TournamentSetup, stages: Option<&[StageSpec]>) -> String {
    match stages {
        Some(stages) => {
            let lines: Vec<String> = stages.iter().map(stage_line).collect();
            format!("{} (in stages: {})", setup.name, lines.join(" -> "))
        }
        None => format!(
            "{} ({}, {} rounds)",
            setup.name,
            setup.system.name(),
            setup
                .rounds
                .map_or_else(|| "one cycle of".into(), |n| n.to_string())
        ),
    }
}

/// A round's place in words, for the desk's header and the prints: `Stage 1 · Swiss ·
/// round 3 of 6`, `Stage 2 · Knockout · Quarter-finals`, `Stage 1 · Groups · playoff games
/// at the cut`. `bracket` is the round's bracket round and how many there are, for a
/// knockout round; `planned` the stage's number of rounds.
pub fn place_words(
    place: RoundPlace,
    spec: &StageSpec,
    bracket: Option<(u32, u32)>,
    planned: Option<usize>,
) -> String {
    let name = stage_name(spec);
    match place {
        RoundPlace::Playoff { stage, number } => format!(
            "Stage {stage} · {name} · playoff games at the cut{}",
            if number > 1 {
                format!(" ({number})")
            } else {
                String::new()
            }
        ),
        RoundPlace::Round { stage, round } => match (bracket, planned) {
            (Some((r, count)), _) => {
                format!("Stage {stage} · {name} · {}", bracket_round_title(r, count))
            }
            (None, Some(p)) if !spec.format.is_knockout() => {
                format!("Stage {stage} · {name} · round {round} of {p}")
            }
            _ => format!("Stage {stage} · {name} · round {round}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::Score;

    fn spec(name: &str, format: StageFormat, advance: Option<u32>) -> StageSpec {
        StageSpec {
            name: name.into(),
            format,
            tiebreaks: Vec::new(),
            advance,
        }
    }

    #[test]
    fn a_stage_line_names_the_stage_then_how_it_is_played_saying_the_system_once() {
        let groups = StageFormat::RoundRobin {
            groups: 4,
            rounds: Some(3),
        };
        let knockout = StageFormat::Knockout {
            series: MatchFormat::BestOf(3),
            seeding: Seeding::CrossOver,
            third_place: false,
        };
        assert_eq!(
            stage_line(&spec("Groups", groups, Some(2))),
            "Groups: round robin in 4 groups, 3 rounds, top 2 go on"
        );
        assert_eq!(
            stage_line(&spec("Knockout", knockout, None)),
            "Knockout, best of 3, cross-over"
        );
        assert_eq!(
            stage_line(&spec("", knockout, None)),
            "Knockout, best of 3, cross-over"
        );
        assert_eq!(
            stage_format_after_name(&spec("knockout", knockout, None)),
            "best of 3, cross-over"
        );
        assert_eq!(
            stage_format_after_name(&spec("Cup", knockout, None)),
            "knockout, best of 3, cross-over"
        );
    }

    #[test]
    fn a_race_level_at_its_target_says_the_next_won_game_decides() {
        let race = MatchFormat::RaceTo(Score::from_points(4));
        let level = Series {
            wins: [1, 1],
            points: [Score::from_points(4), Score::from_points(4)],
            winner: None,
            decided_after: None,
        };
        assert_eq!(
            series_note(race, &level).as_deref(),
            Some("4-4: the next won game decides")
        );
        let short = Series {
            points: [Score::from_points(3), Score::from_points(4)],
            ..level
        };
        assert_eq!(series_note(race, &short), None);
        let decided = Series {
            winner: Some(0),
            ..level
        };
        assert_eq!(series_note(race, &decided), None);
        assert_eq!(series_note(MatchFormat::BestOf(3), &level), None);
    }

    #[test]
    fn audit_times_are_written_in_utc() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_text(1_800_000_000_000), "2027-01-15 08:00:00 UTC");
    }

    #[test]
    fn bracket_rounds_are_named_from_the_final_back() {
        assert_eq!(bracket_rounds(8), 4);
        assert_eq!(bracket_round_title(4, 4), "Final");
        assert_eq!(bracket_round_title(3, 4), "Semi-finals");
        assert_eq!(bracket_round_title(2, 4), "Quarter-finals");
        assert_eq!(bracket_round_title(1, 4), "Round of 16");
        assert_eq!(bracket_round_title(1, 5), "Round of 32");
    }
}
