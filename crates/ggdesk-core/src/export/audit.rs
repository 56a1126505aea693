//! The audit log as CSV, for an appeal argued from it: one row per change, in words, with
//! the time, who, what, where (tournament, round, table, game), the reason and the details.
//! Text typed by a person is formula-safe (see the module's note).

use super::{defuse, record};

/// One line of the audit log as the desk shows it (already in words).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditLine {
    /// Local date and time, e.g. `2026-12-12 14:03:07`.
    pub at: String,
    pub who: String,
    pub what: String,
    pub tournament: String,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub game: Option<i64>,
    pub reason: String,
    pub details: String,
}

/// `at,who,what,tournament,round,table,game,reason,details`, one row per line.
pub fn audit_csv(lines: &[AuditLine]) -> String {
    let header: Vec<String> = [
        "at",
        "who",
        "what",
        "tournament",
        "round",
        "table",
        "game",
        "reason",
        "details",
    ]
    .iter()
    .map(|h| h.to_string())
    .collect();
    let mut out = record(&header);
    let num = |n: Option<String>| n.unwrap_or_default();
    for l in lines {
        out.push_str(&record(&[
            l.at.clone(),
            defuse(&l.who),
            defuse(&l.what),
            defuse(&l.tournament),
            num(l.round.map(|r| r.to_string())),
            num(l.table.map(|t| t.to_string())),
            num(l.game.map(|g| g.to_string())),
            defuse(&l.reason),
            defuse(&l.details),
        ]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_quoted_and_formula_safe() {
        let csv = audit_csv(&[AuditLine {
            at: "2026-12-12 14:03:07".into(),
            who: "arbiter (table 3)".into(),
            what: "move".into(),
            tournament: "GGF Open".into(),
            round: Some(2),
            table: Some(3),
            game: Some(17),
            reason: "=HYPERLINK(\"x\")".into(),
            details: "White: a3-a4, at 0:12".into(),
        }]);
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("at,who,what,tournament,round,table,game,reason,details")
        );
        assert_eq!(
            lines.next(),
            Some(
                "2026-12-12 14:03:07,arbiter (table 3),move,GGF Open,2,3,17,\"'=HYPERLINK(\"\"x\"\")\",\"White: a3-a4, at 0:12\""
            )
        );
    }
}
