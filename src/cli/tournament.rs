//! `ggdesk pair`, `ggdesk standings`, `ggdesk crosstable`, `ggdesk bracket`: the tournament
//! core on a file, a `ggdesk-tournament/1` tournament or a `ggdesk-tournament/2` event of
//! stages (spec/stages.md), or a team event (spec/teams.md: a `/2` file with `teams`).

use super::{CliError, out, read_input, say};
use ggdesk_core::export::{crosstable_csv, placement_csv, stage_standings_csv, standings_csv};
use ggdesk_core::pairing::{explain, pair_next_round};
use ggdesk_core::stages::{Event, FORMAT_2, Placed, placement_json, stage_standings_json};
use ggdesk_core::teams::{TeamEvent, board_prizes_json, is_team_file, team_placement_json};
use ggdesk_core::tournament::{
    FileFault, StageNo, Tournament, TournamentFileError, standings as rank,
};
use serde_json::Value;

/// A tournament file of either format, or a team event.
enum File {
    One(Tournament),
    Staged(Event),
    Teams(Box<TeamEvent>),
}

fn input(e: impl ToString) -> CliError {
    CliError::Input(e.to_string())
}

fn load(file: &str) -> Result<File, CliError> {
    let text = read_input(file)?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        input(TournamentFileError {
            at: String::new(),
            fault: FileFault::Json(e.to_string()),
        })
    })?;
    if value.get("format").and_then(Value::as_str) == Some(FORMAT_2) && is_team_file(&value) {
        TeamEvent::from_value(&value)
            .map(|e| File::Teams(Box::new(e)))
            .map_err(input)
    } else if value.get("format").and_then(Value::as_str) == Some(FORMAT_2) {
        Event::from_value(&value).map(File::Staged).map_err(input)
    } else {
        Tournament::from_value(&value).map(File::One).map_err(input)
    }
}

fn one_stage_only(file: &str) -> Result<Tournament, CliError> {
    match load(file)? {
        File::One(t) => Ok(t),
        File::Staged(_) | File::Teams(_) => Err(CliError::Input(
            "this command reads a ggdesk-tournament/1 file, not an event of stages".into(),
        )),
    }
}

/// Pairs the round after the last one and prints it as JSON, or as text with the reasons;
/// on an event of stages, its next step.
pub fn pair(file: &str, explain_it: bool) -> Result<(), CliError> {
    match load(file)? {
        File::One(t) => {
            let pairing = pair_next_round(&t, &[]).map_err(input)?;
            if explain_it {
                out(&explain(&t, &pairing).to_string())?;
            } else {
                say(pairing.to_json())?;
            }
        }
        File::Staged(event) => {
            if explain_it {
                return Err(CliError::Input(
                    "--explain is for ggdesk-tournament/1 files".into(),
                ));
            }
            say(event.next_step().map_err(input)?.to_json())?;
        }
        File::Teams(event) => {
            if explain_it {
                return Err(CliError::Input(
                    "--explain is for ggdesk-tournament/1 files".into(),
                ));
            }
            say(event.next_step().map_err(input)?.to_json().to_string())?;
        }
    }
    Ok(())
}

/// What `standings` prints.
pub struct StandingsView {
    pub csv: bool,
    pub stage: Option<u32>,
    pub final_placement: bool,
    /// The team standings of a team event.
    pub teams: bool,
    /// The board prizes of a team event.
    pub boards: bool,
}

/// Prints the standings after the last round (of stage K, or the current stage, of an event
/// of stages), or the event's final placement, as JSON or CSV.
pub fn standings(file: &str, view: StandingsView) -> Result<(), CliError> {
    let StandingsView {
        csv,
        stage,
        final_placement,
        teams,
        boards,
    } = view;
    let file = load(file)?;
    if (teams || boards) && !matches!(file, File::Teams(_)) {
        return Err(CliError::Input(
            "--teams and --boards are for team events (a ggdesk-tournament/2 file with teams)"
                .into(),
        ));
    }
    match file {
        File::One(t) => {
            let s = rank(&t, t.rounds().len());
            if final_placement {
                let over = t.planned_rounds().is_some_and(|p| {
                    t.rounds().len() >= p as usize && t.completed_rounds() == t.rounds().len()
                });
                if !over {
                    return Err(CliError::Input(
                        "the event is not over: stage 1 is still being played".into(),
                    ));
                }
                let rows: Vec<Placed> = s
                    .rows
                    .iter()
                    .map(|r| Placed {
                        place: r.rank,
                        id: r.id,
                        name: r.name.clone(),
                        stage: StageNo(1),
                    })
                    .collect();
                return print_placement(&rows, csv);
            }
            if let Some(k) = stage.filter(|&k| k != 1) {
                return Err(CliError::Input(format!(
                    "there is no stage {k}: a ggdesk-tournament/1 file is an event of one stage"
                )));
            }
            if csv {
                out(&standings_csv(&s))?;
            } else {
                say(s.to_json())?;
            }
        }
        File::Staged(event) => {
            if final_placement {
                let rows = event.final_placement().map_err(input)?;
                return print_placement(&rows, csv);
            }
            let s = event.stage_standings(stage.map(StageNo)).map_err(input)?;
            if csv {
                out(&stage_standings_csv(&s))?;
            } else {
                say(stage_standings_json(&s))?;
            }
        }
        File::Teams(event) => {
            use ggdesk_core::export::{board_prizes_csv, team_placement_csv, team_standings_csv};
            if final_placement {
                let rows = event.final_placement().map_err(input)?;
                if csv {
                    out(&team_placement_csv(&rows))?;
                } else {
                    say(team_placement_json(&rows).to_string())?;
                }
            } else if boards {
                let prizes = event.board_prizes();
                if csv {
                    out(&board_prizes_csv(&prizes))?;
                } else {
                    say(board_prizes_json(&prizes).to_string())?;
                }
            } else if teams {
                let s = event.team_standings(stage).map_err(input)?;
                if csv {
                    out(&team_standings_csv(&s))?;
                } else {
                    say(s.to_json().to_string())?;
                }
            } else {
                return Err(CliError::Input(
                    "a team event ranks teams (--teams), boards (--boards) and its final \
                     placement (--final); player standings are not supported yet"
                        .into(),
                ));
            }
        }
    }
    Ok(())
}

fn print_placement(rows: &[Placed], csv: bool) -> Result<(), CliError> {
    if csv {
        out(&placement_csv(rows))
    } else {
        say(placement_json(rows))
    }
}

/// Prints the knockout stage of an event of stages as JSON.
pub fn bracket(file: &str) -> Result<(), CliError> {
    match load(file)? {
        File::One(_) => Err(CliError::Input(
            "a ggdesk-tournament/1 file has no knockout stage".into(),
        )),
        File::Teams(_) => Err(CliError::Input("a team event has no knockout stage".into())),
        File::Staged(event) => {
            let has_knockout = event
                .settings()
                .stages
                .iter()
                .any(|s| s.format.is_knockout());
            match event.bracket_json() {
                Some(json) => say(json),
                None if has_knockout => Err(CliError::Input(format!(
                    "the knockout stage is not seeded yet: stage {} is still being played",
                    event.current().stage
                ))),
                None => Err(CliError::Input("the event has no knockout stage".into())),
            }
        }
    }
}

/// Prints the cross-table as CSV.
pub fn crosstable(file: &str) -> Result<(), CliError> {
    let t = one_stage_only(file)?;
    out(&crosstable_csv(&t))
}
