//! `ggdesk pair`, `ggdesk standings`, `ggdesk crosstable`, `ggdesk bracket`: the tournament
//! core on a file, a `ggdesk-tournament/1` tournament or a `ggdesk-tournament/2` event of
//! stages (spec/stages.md).

use super::{CliError, out, read_input, say};
use ggdesk_core::export::{crosstable_csv, placement_csv, stage_standings_csv, standings_csv};
use ggdesk_core::pairing::{explain, pair_next_round};
use ggdesk_core::stages::{Event, FORMAT_2, Placed, placement_json, stage_standings_json};
use ggdesk_core::tournament::{
    FileFault, StageNo, Tournament, TournamentFileError, standings as rank,
};
use serde_json::Value;

/// A tournament file of either format.
enum File {
    One(Tournament),
    Staged(Event),
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
    if value.get("format").and_then(Value::as_str) == Some(FORMAT_2) {
        Event::from_value(&value).map(File::Staged).map_err(input)
    } else {
        Tournament::from_value(&value).map(File::One).map_err(input)
    }
}

fn one_stage_only(file: &str) -> Result<Tournament, CliError> {
    match load(file)? {
        File::One(t) => Ok(t),
        File::Staged(_) => Err(CliError::Input(
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
    }
    Ok(())
}

/// Prints the standings after the last round (of stage K, or the current stage, of an event
/// of stages), or the event's final placement, as JSON or CSV.
pub fn standings(
    file: &str,
    csv: bool,
    stage: Option<u32>,
    final_placement: bool,
) -> Result<(), CliError> {
    match load(file)? {
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
