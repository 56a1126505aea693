//! `ggdesk ratings [--initial LIST.csv] [--tau T] [--json] FILE...`: the rating list of the
//! files' events (`spec/ratings.md`), through the core's fold.

use super::{CliError, out, read_input, say};
use ggdesk_core::rating::list::{histories, list_csv, list_json, read_initial_csv};
use ggdesk_core::rating::{Config, event_file, rate_all};

/// Rates the files' events in date order (then the order given) and prints the list as CSV,
/// or JSON with each player's history. Players without a federation id are named on
/// standard error, one line each; they are not rated.
pub fn run(
    files: &[String],
    initial: Option<&str>,
    tau: Option<&str>,
    json: bool,
) -> Result<(), CliError> {
    let config = match tau {
        None => Config::default(),
        Some(t) => t
            .trim()
            .parse::<f64>()
            .map_err(|_| format!("{t:?} is not a number"))
            .and_then(Config::new)
            .map_err(|e| CliError::Input(format!("--tau: {e}")))?,
    };
    let initial = match initial {
        None => Vec::new(),
        Some(path) => {
            let text = std::fs::read(path)
                .map_err(|e| CliError::Other(format!("cannot read {path}: {e}")))?;
            let text = String::from_utf8(text)
                .map_err(|_| CliError::Input(format!("{path}: the text is not UTF-8")))?;
            read_initial_csv(&text).map_err(|e| CliError::Input(format!("{path}: {e}")))?
        }
    };
    let mut events = Vec::with_capacity(files.len());
    let mut warnings = Vec::new();
    for file in files {
        let text = read_input(file).map_err(|e| match e {
            CliError::Input(m) => CliError::Input(format!("{file}: {m}")),
            other => other,
        })?;
        let read = event_file(&text).map_err(|e| CliError::Input(format!("{file}: {e}")))?;
        for u in &read.unrated {
            warnings.push(format!(
                "ggdesk: {file}: player {} ({}) has no federation_id: not rated",
                u.id, u.name
            ));
        }
        events.push(read.event);
    }
    let entries = initial
        .into_iter()
        .map(|e| (e.federation_id, e.name, e.rating));
    let (ratings, reports) = rate_all(config, entries, &events);
    for w in warnings {
        eprintln!("{w}");
    }
    let rows = ratings.list();
    if json {
        let named: Vec<_> = reports
            .iter()
            .map(|(i, r)| (events[*i].name.clone(), r.date, &r.players))
            .collect();
        let value = list_json(&rows, &histories(&named));
        say(serde_json::to_string_pretty(&value).unwrap_or_default())
    } else {
        out(&list_csv(&rows))
    }
}
