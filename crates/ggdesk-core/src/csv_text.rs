//! CSV text: one record with RFC 4180 quoting, and text made formula-safe for
//! spreadsheets. A leaf: every CSV the core writes (standings, cross-tables, pairings, the
//! audit log, the rating list) is made of these two.

/// A text field made safe for spreadsheets: `'` in front of `=`, `+`, `-`, `@`, a tab or a
/// carriage return (a spreadsheet skips a leading tab or carriage return and reads the
/// formula after it).
pub fn defuse(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// One CSV field: quoted when it holds a comma, a quote, a line break or leading/trailing
/// space, with quotes doubled (RFC 4180).
fn field(text: &str) -> String {
    let needs_quotes =
        text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ');
    if needs_quotes {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A CSV record of already formatted fields, ending in a line feed (text made formula-safe
/// by the caller with [`defuse`]).
pub fn csv_record(fields: &[String]) -> String {
    let mut line = fields
        .iter()
        .map(|f| field(f))
        .collect::<Vec<_>>()
        .join(",");
    line.push('\n');
    line
}
