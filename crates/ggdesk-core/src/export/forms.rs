//! Printable HTML pages: the adjudication form for the record slip. Pure: values in,
//! a complete HTML document out (the desk writes it to a file and opens the browser).

use crate::adjudication::{Adjudication, ReadingVerdict, aliwalas_value};
use crate::rules::Side;

/// Escapes text for HTML.
pub fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// What the adjudication form prints besides the scores.
#[derive(Debug, Clone, Default)]
pub struct FormHeading {
    pub event: String,
    pub round: Option<u32>,
    pub table: Option<u32>,
    pub white: String,
    pub black: String,
    /// The playing time when game time ran out (pauses excluded), as the form should show
    /// it: the game clock's limit.
    pub played: String,
    /// When game time ran out on the wall clock since the game started (pauses included);
    /// empty when the game was never paused.
    pub stopped_at: String,
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;color:#111}\
h1{font-size:1.4em;margin-bottom:.2em}h2{font-size:1.1em;margin-top:1.4em}\
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #888;padding:.2em .6em;text-align:left}\
th{background:#eee}.num{text-align:right}.total{font-weight:bold}\
.sign{margin-top:3em;display:flex;gap:4em}.sign div{border-top:1px solid #111;width:14em;padding-top:.2em}\
@media print{body{margin:1cm}}";

/// The adjudication form: for each side the readings judged piece by piece, NRS, the
/// Aliwalas value of every remaining piece, AVP, TAS, and the result.
pub fn adjudication_form(heading: &FormHeading, adjudication: &Adjudication) -> String {
    let mut html = String::new();
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    html.push_str(&format!(
        "<title>Adjudication: {} vs {}</title><style>{STYLE}</style></head><body>\n",
        html_escape(&heading.white),
        html_escape(&heading.black)
    ));
    html.push_str(&format!(
        "<h1>Adjudication form — {}</h1>\n",
        html_escape(&heading.event)
    ));
    let mut where_ = Vec::new();
    if let Some(r) = heading.round {
        where_.push(format!("Round {r}"));
    }
    if let Some(t) = heading.table {
        where_.push(format!("Table {t}"));
    }
    match (heading.played.is_empty(), heading.stopped_at.is_empty()) {
        (false, true) => where_.push(format!(
            "game time ran out after {} of play",
            html_escape(&heading.played)
        )),
        (false, false) => where_.push(format!(
            "game time ran out after {} of play ({} since the start, pauses included)",
            html_escape(&heading.played),
            html_escape(&heading.stopped_at)
        )),
        (true, false) => where_.push(format!(
            "game time ran out at {}",
            html_escape(&heading.stopped_at)
        )),
        (true, true) => {}
    }
    html.push_str(&format!(
        "<p>{}<br>White: <b>{}</b> &nbsp; Black: <b>{}</b></p>\n",
        where_.join(" · "),
        html_escape(&heading.white),
        html_escape(&heading.black)
    ));
    for reader in Side::BOTH {
        let score = &adjudication.scores[reader];
        let name = match reader {
            Side::White => &heading.white,
            Side::Black => &heading.black,
        };
        html.push_str(&format!(
            "<h2>{} ({}) reads {}'s pieces</h2>\n<table><tr><th>Square</th><th>Piece</th><th>Reading</th><th>Verdict</th><th class=\"num\">Points</th></tr>\n",
            html_escape(name),
            reader,
            reader.opponent()
        ));
        for r in &score.readings {
            let (verdict, points) = match r.verdict {
                ReadingVerdict::Correct => ("correct", "+2"),
                ReadingVerdict::Incorrect => ("incorrect", "−1"),
                ReadingVerdict::Abstained => ("abstained", "0"),
            };
            html.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{verdict}</td><td class=\"num\">{points}</td></tr>\n",
                r.square,
                r.actual.code(),
                r.read.map_or("—", |x| x.code())
            ));
        }
        html.push_str(&format!(
            "<tr class=\"total\"><td colspan=\"4\">Net Reading Score (NRS)</td><td class=\"num\">{}</td></tr></table>\n",
            score.net_reading_score
        ));
        html.push_str("<table><tr><th>Own piece</th><th>Square</th><th class=\"num\">Aliwalas value</th></tr>\n");
        for (square, rank) in &score.own_pieces {
            html.push_str(&format!(
                "<tr><td>{}</td><td>{square}</td><td class=\"num\">{}</td></tr>\n",
                rank.code(),
                aliwalas_value(*rank)
            ));
        }
        html.push_str(&format!(
            "<tr class=\"total\"><td colspan=\"2\">Aliwalas Value of Pieces (AVP)</td><td class=\"num\">{}</td></tr>\n\
             <tr class=\"total\"><td colspan=\"2\">Total Adjudication Score (TAS = NRS + AVP)</td><td class=\"num\">{}</td></tr></table>\n",
            score.aliwalas_value, score.total
        ));
    }
    let result = match adjudication.winner {
        Some(Side::White) => format!(
            "White ({}) wins by adjudication",
            html_escape(&heading.white)
        ),
        Some(Side::Black) => format!(
            "Black ({}) wins by adjudication",
            html_escape(&heading.black)
        ),
        None => "Draw: equal Total Adjudication Scores".to_string(),
    };
    html.push_str(&format!(
        "<h2>Result</h2><p><b>{result}</b> (TAS White {} · Black {})</p>\n",
        adjudication.scores.white.total, adjudication.scores.black.total
    ));
    html.push_str(
        "<div class=\"sign\"><div>White</div><div>Black</div><div>Arbiter</div></div>\n</body></html>\n",
    );
    html
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adjudication::{ReadingSheet, adjudicate};
    use crate::rules::{BySide, Piece, Position, Rank, Square};

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    #[test]
    fn the_form_shows_every_reading_every_value_and_the_result_escaped() {
        let mut p = Position::empty();
        p.set(
            sq("a1"),
            Some(Piece {
                side: Side::White,
                rank: Rank::Spy,
            }),
        );
        p.set(
            sq("e8"),
            Some(Piece {
                side: Side::Black,
                rank: Rank::G5,
            }),
        );
        p.set(
            sq("f8"),
            Some(Piece {
                side: Side::Black,
                rank: Rank::Flag,
            }),
        );
        let sheets = BySide::new(
            ReadingSheet::new(vec![(sq("e8"), Rank::G5), (sq("f8"), Rank::Private)]),
            ReadingSheet::default(),
        );
        let adj = adjudicate(&p, &sheets).expect("valid sheets");
        let heading = FormHeading {
            event: "GGF <Open>".into(),
            round: Some(2),
            table: Some(7),
            white: "Reyes, Ana".into(),
            black: "Cruz & Co".into(),
            played: "2:00:00".into(),
            stopped_at: "2:07:30".into(),
        };
        let html = adjudication_form(&heading, &adj);
        assert!(
            html.contains(
                "game time ran out after 2:00:00 of play (2:07:30 since the start, pauses included)"
            ),
            "{html}"
        );
        let unpaused = FormHeading {
            stopped_at: String::new(),
            ..heading.clone()
        };
        assert!(
            adjudication_form(&unpaused, &adj).contains("game time ran out after 2:00:00 of play<")
        );
        assert!(html.contains("GGF &lt;Open&gt;"));
        assert!(html.contains("Cruz &amp; Co"));
        // White: +2 for e8, −1 for f8: NRS 1; AVP 7.50; TAS 8.50. Black: AVP 7.80.
        assert!(html.contains("<td class=\"num\">1</td>"));
        assert!(html.contains("8.50"));
        assert!(html.contains("7.80"));
        assert!(html.contains("incorrect"));
        assert!(html.contains("White (Reyes, Ana) wins by adjudication"));
    }
}
