//! `ggdesk pair`, `ggdesk standings`, `ggdesk crosstable`: the tournament core on a file.

use super::CliError;

pub fn pair(_file: &str, _explain: bool) -> Result<(), CliError> {
    Err(CliError::Other("ggdesk pair is not available yet".into()))
}

pub fn standings(_file: &str, _csv: bool) -> Result<(), CliError> {
    Err(CliError::Other(
        "ggdesk standings is not available yet".into(),
    ))
}

pub fn crosstable(_file: &str) -> Result<(), CliError> {
    Err(CliError::Other(
        "ggdesk crosstable is not available yet".into(),
    ))
}
