//! Printable pages for the tournament hall: the pairing list by table, the alphabetical
//! pairing list for the wall ("find your name, find your table"), a result slip per table
//! with signature lines, the standings and the cross-table; for an event in stages the
//! knockout bracket (landscape: one page for up to 16 players, two for 32) and the group
//! tables of a round-robin stage. Every page carries the tournament's details (name, dates,
//! venue, organiser, chief arbiter) as its header.
//!
//! Pure: plain values in, a complete HTML document out (the desk writes it to a file and
//! opens the browser, which prints it).

use super::forms::html_escape;
use crate::event::words::{bracket_round_title, game_mark, match_title, series_words};
use crate::rules::Side;
use crate::stages::{Event, Match, MatchFormat, MatchId, Reached};
use crate::tournament::{
    Entry, GameOutcome, GameResult, PlayerId, StageNo, Standings, TieBreak, Tournament,
};

/// What every printout says about the event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Details {
    pub event: String,
    pub dates: String,
    pub venue: String,
    pub organiser: String,
    pub chief_arbiter: String,
}

impl Details {
    /// The longest text a detail may hold.
    pub const MAX_LEN: usize = 200;

    /// Checks the details the director types: each one line of at most [`Self::MAX_LEN`]
    /// characters.
    pub fn check(&self) -> Result<(), crate::event::Refusal> {
        for (what, text) in [
            ("dates", &self.dates),
            ("venue", &self.venue),
            ("organiser", &self.organiser),
            ("chief arbiter", &self.chief_arbiter),
        ] {
            if text.chars().count() > Self::MAX_LEN || text.contains(['\n', '\r']) {
                return Err(crate::event::Refusal::DetailTooLong {
                    what,
                    max: Self::MAX_LEN,
                });
            }
        }
        Ok(())
    }

    /// The event's name with its dates and venue on one line, e.g. for a form's title.
    pub fn title_line(&self) -> String {
        let mut parts = vec![self.event.trim().to_string()];
        for p in [&self.dates, &self.venue] {
            if !p.trim().is_empty() {
                parts.push(p.trim().to_string());
            }
        }
        parts.retain(|p| !p.is_empty());
        parts.join(" · ")
    }
}

/// A player as a printout names them, with the points shown beside the name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrintPlayer {
    pub no: u32,
    pub name: String,
    /// Points before the round (pairing lists) or nothing.
    pub points: String,
}

/// One board of a round.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrintBoard {
    pub table: u32,
    pub white: PrintPlayer,
    pub black: PrintPlayer,
    /// The result as entered (`1-0`, `draw`, ...), empty while pending.
    pub result: String,
}

/// A round as the printouts show it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrintRound {
    pub number: u32,
    pub boards: Vec<PrintBoard>,
    pub byes: Vec<PrintPlayer>,
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;color:#111}\
header{border-bottom:2px solid #111;margin-bottom:.8em;padding-bottom:.3em}\
header h1{font-size:1.5em;margin:0}header p{margin:.2em 0;color:#333}\
h2{font-size:1.2em;margin:.6em 0}\
table{border-collapse:collapse;margin-top:.6em;width:100%}\
td,th{border:1px solid #888;padding:.3em .6em;text-align:left}\
th{background:#eee}.num{text-align:right;width:3em}.res{width:7em}\
tr{page-break-inside:avoid}.col{font-size:.75em;color:#555;margin-left:.2em}\
.slip{border:1px solid #111;padding:.8em 1em;margin:0 0 1.2em 0;page-break-inside:avoid}\
.slip h3{margin:0 0 .4em 0}.sign{margin-top:2.4em;display:flex;gap:3em}\
.sign div{border-top:1px solid #111;width:12em;padding-top:.2em;font-size:.9em}\
.choices span{display:inline-block;border:1px solid #111;padding:.1em .6em;margin-right:.6em}\
.prov{color:#a00;font-weight:bold}\
@media print{body{margin:1cm}.slip{margin-bottom:.8cm}}";

/// The header every printout carries: the event and its details.
fn header(d: &Details) -> String {
    let mut lines = Vec::new();
    let mut first = Vec::new();
    for p in [&d.dates, &d.venue] {
        if !p.trim().is_empty() {
            first.push(html_escape(p.trim()));
        }
    }
    if !first.is_empty() {
        lines.push(first.join(" · "));
    }
    let mut second = Vec::new();
    if !d.organiser.trim().is_empty() {
        second.push(format!("Organiser: {}", html_escape(d.organiser.trim())));
    }
    if !d.chief_arbiter.trim().is_empty() {
        second.push(format!(
            "Chief arbiter: {}",
            html_escape(d.chief_arbiter.trim())
        ));
    }
    if !second.is_empty() {
        lines.push(second.join(" · "));
    }
    let event = if d.event.trim().is_empty() {
        "Tournament".to_string()
    } else {
        html_escape(d.event.trim())
    };
    let mut out = format!("<header><h1>{event}</h1>");
    for l in lines {
        out.push_str(&format!("<p>{l}</p>"));
    }
    out.push_str("</header>\n");
    out
}

/// A whole page: the details header, a title, the body.
fn page(d: &Details, title: &str, body: &str) -> String {
    page_styled(d, title, body, "")
}

/// A whole page with more style rules after the common ones (the team prints' boxes).
pub(super) fn page_styled(d: &Details, title: &str, body: &str, style: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} - {}</title>\
         <style>{STYLE}{style}</style></head><body>\n{}<h2>{}</h2>\n{body}</body></html>\n",
        html_escape(d.event.trim()),
        html_escape(title),
        header(d),
        html_escape(title),
    )
}

fn player(p: &PrintPlayer) -> String {
    format!("{} {}", p.no, html_escape(&p.name))
}

/// The pairing list by table, with each player's points before the round and an empty
/// result column for the arbiters; then the byes.
pub fn pairing_list(d: &Details, round: &PrintRound) -> String {
    let mut body = format!(
        "<p>{} tables. Points before the round.</p>\n<table><tr><th>Table</th><th>White</th>\
         <th>Pts</th><th>Black</th><th>Pts</th><th>Result</th></tr>\n",
        round.boards.len()
    );
    for b in &round.boards {
        body.push_str(&format!(
            "<tr><td class=num>{}</td><td>{}</td><td class=num>{}</td><td>{}</td><td class=num>{}</td><td class=res>{}</td></tr>\n",
            b.table,
            player(&b.white),
            html_escape(&b.white.points),
            player(&b.black),
            html_escape(&b.black.points),
            html_escape(&b.result)
        ));
    }
    body.push_str("</table>\n");
    if !round.byes.is_empty() {
        let byes: Vec<String> = round.byes.iter().map(player).collect();
        body.push_str(&format!("<p><b>Bye:</b> {}</p>\n", byes.join(", ")));
    }
    page(d, &format!("Round {}: pairings", round.number), &body)
}

/// The pairing list for the wall: every player of the round in alphabetical order (see
/// [`sort_key`]) with the table, the colour and the opponent; byes in their place.
pub fn alphabetical_pairings(d: &Details, round: &PrintRound) -> String {
    struct Line<'a> {
        me: &'a PrintPlayer,
        table: String,
        colour: &'static str,
        opponent: String,
    }
    let mut lines: Vec<Line<'_>> = Vec::new();
    for b in &round.boards {
        lines.push(Line {
            me: &b.white,
            table: b.table.to_string(),
            colour: "White",
            opponent: player(&b.black),
        });
        lines.push(Line {
            me: &b.black,
            table: b.table.to_string(),
            colour: "Black",
            opponent: player(&b.white),
        });
    }
    for p in &round.byes {
        lines.push(Line {
            me: p,
            table: String::new(),
            colour: "",
            opponent: "Bye".into(),
        });
    }
    lines.sort_by(|a, b| {
        sort_key(&a.me.name)
            .cmp(&sort_key(&b.me.name))
            .then(a.me.no.cmp(&b.me.no))
    });
    let mut body = String::from(
        "<p>Find your name, then your table.</p>\n<table><tr><th>Name</th><th>No</th>\
         <th>Table</th><th>Colour</th><th>Opponent</th></tr>\n",
    );
    for l in &lines {
        body.push_str(&format!(
            "<tr><td><b>{}</b></td><td class=num>{}</td><td class=num><b>{}</b></td><td>{}</td><td>{}</td></tr>\n",
            html_escape(&l.me.name),
            l.me.no,
            l.table,
            l.colour,
            l.opponent
        ));
    }
    body.push_str("</table>\n");
    page(
        d,
        &format!("Round {}: pairings by name", round.number),
        &body,
    )
}

/// A result slip per table: the players, the result to tick, and the signature lines of
/// both players and the arbiter.
pub fn result_slips(d: &Details, round: &PrintRound) -> String {
    let mut body = String::new();
    for b in &round.boards {
        body.push_str(&format!(
            "<div class=slip><h3>Round {} · Table {}</h3>\
             <p>White: <b>{}</b><br>Black: <b>{}</b></p>\
             <p class=choices>Result: <span>White wins</span><span>Draw</span><span>Black wins</span></p>\
             <p>Reason (flag captured, flag through, resignation, adjudication, ...): ______________________</p>\
             <div class=sign><div>White</div><div>Black</div><div>Arbiter</div></div></div>\n",
            round.number,
            b.table,
            player(&b.white),
            player(&b.black)
        ));
    }
    page(d, &format!("Round {}: result slips", round.number), &body)
}

/// A tie-break's name in words.
pub fn tiebreak_title(t: TieBreak) -> &'static str {
    match t {
        TieBreak::DirectEncounter => "Direct encounter",
        TieBreak::Buchholz => "Buchholz",
        TieBreak::BuchholzCut1 => "Buchholz cut 1",
        TieBreak::MedianBuchholz => "Median Buchholz",
        TieBreak::SonnebornBerger => "Sonneborn-Berger",
        TieBreak::Progressive => "Progressive score",
        TieBreak::Wins => "Wins",
        TieBreak::FewestForfeitWins => "Fewest forfeit wins",
    }
}

/// A player's name as the printed standings give it: "(withdrawn)" after a player who
/// withdrew (no longer paired; the games played count).
fn standings_name(t: &Tournament, id: crate::tournament::PlayerId, name: &str) -> String {
    if t.player(id).is_some_and(|p| p.withdrawn) {
        format!("{} <i>(withdrawn)</i>", html_escape(name))
    } else {
        html_escape(name)
    }
}

/// The note under standings that mark a withdrawn player.
const WITHDRAWN_NOTE: &str =
    "<p>(withdrawn): the player withdrew and is no longer paired; the games played count.</p>\n";

/// The standings after `s.after_round` rounds. `provisional` marks standings that count a
/// round still in play; a player who withdrew is marked.
pub fn standings_page(d: &Details, t: &Tournament, s: &Standings, provisional: bool) -> String {
    let mut body = String::new();
    if provisional {
        body.push_str(
            "<p class=prov>Provisional: a round counted here is still in play (its pending games count 0).</p>\n",
        );
    }
    body.push_str("<table><tr><th>Rank</th><th>No</th><th>Name</th><th>Rating</th><th>Points</th>");
    for t in &s.tiebreaks {
        body.push_str(&format!("<th>{}</th>", tiebreak_title(*t)));
    }
    body.push_str("</tr>\n");
    for r in &s.rows {
        body.push_str(&format!(
            "<tr><td class=num>{}</td><td class=num>{}</td><td>{}</td><td class=num>{}</td><td class=num><b>{}</b></td>",
            r.rank,
            r.id,
            standings_name(t, r.id, &r.name),
            r.rating,
            r.score
        ));
        for v in &r.tiebreaks {
            body.push_str(&format!("<td class=num>{v}</td>"));
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</table>\n");
    if s.rows
        .iter()
        .any(|r| t.player(r.id).is_some_and(|p| p.withdrawn))
    {
        body.push_str(WITHDRAWN_NOTE);
    }
    let title = if s.after_round == 0 {
        "Standings before round 1".to_string()
    } else {
        format!("Standings after round {}", s.after_round)
    };
    page(d, &title, &body)
}

/// A cross-table cell that cannot be misread: the result sign and the opponent's number
/// (`+5` win, `=5` draw, `-5` loss, `?5` pending; `+5f` / `-5f` by forfeit), with the
/// colour given apart (`None` for a bye or an absence). `BYE` and `ABS` (absent, withdrawn
/// or not yet entered) have no colour.
pub fn cross_cell(entry: &Entry) -> (String, Option<Side>) {
    match entry {
        Entry::Game {
            opponent,
            colour,
            outcome,
        } => {
            let text = match outcome {
                GameOutcome::Win => format!("+{opponent}"),
                GameOutcome::Draw => format!("={opponent}"),
                GameOutcome::Loss => format!("-{opponent}"),
                GameOutcome::ForfeitWin => format!("+{opponent}f"),
                GameOutcome::ForfeitLoss | GameOutcome::DoubleForfeit => format!("-{opponent}f"),
                GameOutcome::Pending => format!("?{opponent}"),
            };
            (text, Some(*colour))
        }
        Entry::Bye => ("BYE".into(), None),
        Entry::Absent => ("ABS".into(), None),
    }
}

/// The legend printed under every cross-table.
pub const CROSS_LEGEND: &str = "+5 won against player 5, =5 drew, -5 lost, ?5 pending; \
     f by forfeit; w / b the colour played; BYE, ABS absent.";

/// The cross-table after `s.after_round` rounds, in the order of the standings.
pub fn crosstable_page(d: &Details, t: &Tournament, s: &Standings, provisional: bool) -> String {
    let rounds = s.after_round;
    let entries = t.entries(rounds);
    let mut body = String::new();
    if provisional {
        body.push_str("<p class=prov>Provisional: a round counted here is still in play.</p>\n");
    }
    body.push_str("<table><tr><th>Rank</th><th>No</th><th>Name</th><th>Points</th>");
    for r in 1..=rounds {
        body.push_str(&format!("<th>R{r}</th>"));
    }
    body.push_str("</tr>\n");
    for row in &s.rows {
        body.push_str(&format!(
            "<tr><td class=num>{}</td><td class=num>{}</td><td>{}</td><td class=num><b>{}</b></td>",
            row.rank,
            row.id,
            standings_name(t, row.id, &row.name),
            row.score
        ));
        let cells = t.player_index(row.id).and_then(|i| entries.get(i));
        for k in 0..rounds {
            let cell = cells.and_then(|c| c.get(k)).map(cross_cell);
            match cell {
                Some((text, colour)) => {
                    let col = match colour {
                        Some(Side::White) => "<span class=col>w</span>",
                        Some(Side::Black) => "<span class=col>b</span>",
                        None => "",
                    };
                    body.push_str(&format!("<td>{text}{col}</td>"));
                }
                None => body.push_str("<td></td>"),
            }
        }
        body.push_str("</tr>\n");
    }
    body.push_str(&format!("</table>\n<p>{CROSS_LEGEND}</p>\n"));
    if s.rows
        .iter()
        .any(|r| t.player(r.id).is_some_and(|p| p.withdrawn))
    {
        body.push_str(WITHDRAWN_NOTE);
    }
    page(d, &format!("Cross-table after round {rounds}"), &body)
}

/// The key names sort by, as people expect: letters with accents sort with their base
/// letter ("Ñora" before "Villanueva", "Émile" with the E's), case does not count, and
/// ligatures spell out (Æ as AE, ß as ss).
pub fn sort_key(name: &str) -> String {
    let mut key = String::with_capacity(name.len());
    for c in name.chars() {
        match fold(c) {
            Some(s) => key.push_str(s),
            None => key.extend(c.to_lowercase()),
        }
    }
    key
}

/// The base letters of a Latin letter with a mark (Latin-1 and Latin Extended-A).
fn fold(c: char) -> Option<&'static str> {
    let s = match c {
        'À'..='Å' | 'à'..='å' | 'Ā' | 'ā' | 'Ă' | 'ă' | 'Ą' | 'ą' => "a",
        'Æ' | 'æ' => "ae",
        'Ç' | 'ç' | 'Ć' | 'ć' | 'Ĉ' | 'ĉ' | 'Ċ' | 'ċ' | 'Č' | 'č' => "c",
        'Ď' | 'ď' | 'Đ' | 'đ' | 'Ð' | 'ð' => "d",
        'È'..='Ë' | 'è'..='ë' | 'Ē' | 'ē' | 'Ĕ' | 'ĕ' | 'Ė' | 'ė' | 'Ę' | 'ę' | 'Ě' | 'ě' => {
            "e"
        }
        'Ĝ' | 'ĝ' | 'Ğ' | 'ğ' | 'Ġ' | 'ġ' | 'Ģ' | 'ģ' => "g",
        'Ĥ' | 'ĥ' | 'Ħ' | 'ħ' => "h",
        'Ì'..='Ï' | 'ì'..='ï' | 'Ĩ' | 'ĩ' | 'Ī' | 'ī' | 'Ĭ' | 'ĭ' | 'Į' | 'į' | 'İ' | 'ı' => {
            "i"
        }
        'Ĵ' | 'ĵ' => "j",
        'Ķ' | 'ķ' => "k",
        'Ĺ' | 'ĺ' | 'Ļ' | 'ļ' | 'Ľ' | 'ľ' | 'Ŀ' | 'ŀ' | 'Ł' | 'ł' => "l",
        'Ñ' | 'ñ' | 'Ń' | 'ń' | 'Ņ' | 'ņ' | 'Ň' | 'ň' => "n",
        'Ò'..='Ö' | 'Ø' | 'ò'..='ö' | 'ø' | 'Ō' | 'ō' | 'Ŏ' | 'ŏ' | 'Ő' | 'ő' => "o",
        'Œ' | 'œ' => "oe",
        'Ŕ' | 'ŕ' | 'Ŗ' | 'ŗ' | 'Ř' | 'ř' => "r",
        'Ś' | 'ś' | 'Ŝ' | 'ŝ' | 'Ş' | 'ş' | 'Š' | 'š' => "s",
        'ß' => "ss",
        'Ţ' | 'ţ' | 'Ť' | 'ť' | 'Ŧ' | 'ŧ' => "t",
        'Ù'..='Ü'
        | 'ù'..='ü'
        | 'Ũ'
        | 'ũ'
        | 'Ū'
        | 'ū'
        | 'Ŭ'
        | 'ŭ'
        | 'Ů'
        | 'ů'
        | 'Ű'
        | 'ű'
        | 'Ų'
        | 'ų' => "u",
        'Ŵ' | 'ŵ' => "w",
        'Ý' | 'ý' | 'ÿ' | 'Ŷ' | 'ŷ' | 'Ÿ' => "y",
        'Ź' | 'ź' | 'Ż' | 'ż' | 'Ž' | 'ž' => "z",
        _ => return None,
    };
    Some(s)
}

/// The rating report of a rated event (`spec/ratings.md`): each player of its rating period
/// with the rating before and after, the change, the deviation after, games, score and the
/// expected score, in the order given (by name).
pub fn rating_report_page(
    d: &Details,
    date: &str,
    rows: &[(String, crate::rating::PlayerEvent)],
) -> String {
    use crate::rating::list::fmt2;
    let mut body = format!(
        "<p>Glicko-2, one rating period dated {}: games played over the board only. \
         Provisional ratings (deviation above 110) are marked P.</p>\n",
        html_escape(date)
    );
    body.push_str(
        "<table><tr><th>Federation id</th><th>Name</th><th>Before</th><th>After</th>\
         <th>Change</th><th>Deviation</th><th>Games</th><th>Score</th><th>Expected</th></tr>\n",
    );
    for (fid, p) in rows {
        let change = p.change();
        body.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td class=num>{}</td><td class=num><b>{}</b>{}</td>\
             <td class=num>{}{}</td><td class=num>{}</td><td class=num>{}</td>\
             <td class=num>{}</td><td class=num>{}</td></tr>\n",
            html_escape(fid),
            html_escape(&p.name),
            fmt2(p.before.rating),
            fmt2(p.after.rating),
            if p.after.is_provisional() { " P" } else { "" },
            if change >= 0.0 { "+" } else { "" },
            fmt2(change),
            fmt2(p.after.deviation),
            p.games,
            p.score,
            fmt2(p.expected)
        ));
    }
    body.push_str("</table>\n");
    page(d, "Rating report", &body)
}

// ------------------------------------------------------------------ events in stages

const BRACKET_STYLE: &str = "@page{size:landscape;margin:1cm}\
body{font-family:sans-serif;margin:0;color:#111;font-size:9pt}\
header{border-bottom:2px solid #111;margin-bottom:.4em;padding-bottom:.2em}\
header h1{font-size:1.4em;margin:0}header p{margin:.1em 0;color:#333}\
h2{font-size:1.1em;margin:.3em 0}\
.sheet{page-break-after:always;break-after:page}.sheet:last-child{page-break-after:auto;break-after:auto}\
.bracket{display:flex;gap:1em;align-items:stretch;height:15.5cm}\
.round{display:flex;flex-direction:column;flex:1;min-width:0}\
.round h3{font-size:.95em;margin:0 0 .2em 0;text-align:center}\
.boxes{flex:1;display:flex;flex-direction:column;justify-content:space-around}\
.third h3{margin-top:.4em}\
.m{border:1px solid #555;border-radius:3px;margin:.15em 0;page-break-inside:avoid;break-inside:avoid}\
.m .id{font-size:.8em;color:#555;padding:0 .3em;border-bottom:1px solid #ccc}\
.p{display:flex;justify-content:space-between;padding:.05em .3em;white-space:nowrap;overflow:hidden}\
.p .n{overflow:hidden;text-overflow:ellipsis}.p .s{font-weight:bold;margin-left:.4em}\
.w{font-weight:bold;background:#e8e8e8}.tbd{color:#777;font-style:italic}\
.g{font-size:.8em;color:#333;padding:0 .3em;border-top:1px dotted #ccc}";

/// A whole landscape page set of `sheets` (each a `<section class=sheet>`), each with the
/// details header.
fn landscape(d: &Details, title: &str, sheets: &[String]) -> String {
    let mut body = String::new();
    for s in sheets {
        body.push_str(&format!(
            "<section class=sheet>\n{}<h2>{}</h2>\n{s}</section>\n",
            header(d),
            html_escape(title)
        ));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} - {}</title>\
         <style>{BRACKET_STYLE}</style></head><body>\n{body}</body></html>\n",
        html_escape(d.event.trim()),
        html_escape(title),
    )
}

/// One match box: its id, its two players (seed, name, series score; the winner marked),
/// a bye as such, a player not known yet as where they come from; its games.
fn match_box(event: &Event, format: MatchFormat, m: &Match, from: [&str; 2]) -> String {
    let score = m.series.score(format);
    let played = m.players().is_some();
    let mut out = format!("<div class=m><div class=id>{}</div>", match_title(m.id));
    for (i, slot) in m.slots.iter().enumerate() {
        let seed = slot.seed.map_or_else(String::new, |s| format!("({s}) "));
        match slot.player {
            Some(p) => {
                let name = event
                    .player(p)
                    .map_or_else(|| p.to_string(), |x| x.name.clone());
                let won = m.winner == Some(p);
                let s = if played && !m.games.is_empty() {
                    score[i].to_string()
                } else {
                    String::new()
                };
                out.push_str(&format!(
                    "<div class=\"p{}\"><span class=n>{}{}{}</span><span class=s>{}</span></div>",
                    if won { " w" } else { "" },
                    html_escape(&seed),
                    html_escape(&name),
                    if won { " ✓" } else { "" },
                    s
                ));
            }
            None if slot.seed.is_none() && m.players().is_none() && m.winner.is_some() => {
                out.push_str("<div class=\"p tbd\"><span class=n>bye</span></div>");
            }
            None => out.push_str(&format!(
                "<div class=\"p tbd\"><span class=n>{}{}</span></div>",
                html_escape(&seed),
                html_escape(from[i])
            )),
        }
    }
    if let (Some([top, _]), false) = (m.players(), m.games.is_empty()) {
        let marks: Vec<&str> = m
            .games
            .iter()
            .map(|g| game_mark(top, g.white, g.result))
            .collect();
        out.push_str(&format!("<div class=g>Games: {}</div>", marks.join(" ")));
    }
    out.push_str("</div>\n");
    out
}

/// An empty box for a match whose players are not known yet.
fn future_box(id: MatchId, from: [String; 2]) -> String {
    format!(
        "<div class=m><div class=id>{}</div>\
         <div class=\"p tbd\"><span class=n>{}</span></div>\
         <div class=\"p tbd\"><span class=n>{}</span></div></div>\n",
        match_title(id),
        html_escape(&from[0]),
        html_escape(&from[1])
    )
}

/// The knockout bracket of an event (its last knockout stage seeded) on landscape pages:
/// every bracket round as a column of matches, each with its players' seeds, names and
/// series score, the winner marked, byes and the players not known yet (`winner of 1.2`),
/// the games so far (from the top player's side), and the third-place match under the
/// final. Up to 16 players fit one page; a larger bracket prints its top half and its bottom
/// half on a page each (the semi-finals on, the final and the third-place match on the
/// second). `None` while the event has no knockout seeded.
pub fn bracket_page(d: &Details, event: &Event) -> Option<String> {
    let reached: &Reached = event.reached().iter().rev().find(|r| r.bracket.is_some())?;
    let b = reached.bracket.as_ref()?;
    let spec = reached
        .stage
        .index()
        .and_then(|k| event.settings().stages.get(k))?;
    let (next, next_third) = b.preview();
    let first = b.rounds.first()?.len();
    // How many bracket rounds the knockout has in all, and how many matches each.
    let mut sizes = vec![first];
    while *sizes.last()? > 1 {
        let n = *sizes.last()?;
        sizes.push(n.div_ceil(2));
    }
    let count = sizes.len();
    // Each column's boxes, top first.
    let mut columns: Vec<Vec<String>> = Vec::new();
    for (r, &size) in sizes.iter().enumerate() {
        let known: Option<&Vec<Match>> = b.rounds.get(r).or(if r == b.rounds.len() {
            next.as_ref()
        } else {
            None
        });
        let round_no = u32::try_from(r + 1).unwrap_or(u32::MAX);
        let feeders = |j: usize| -> [String; 2] {
            if r == 0 {
                return [String::new(), String::new()];
            }
            let n = u32::try_from(j).unwrap_or(u32::MAX);
            [
                format!("winner of {}.{}", round_no - 1, 2 * n + 1),
                format!("winner of {}.{}", round_no - 1, 2 * n + 2),
            ]
        };
        let boxes = (0..size)
            .map(|j| {
                let from = feeders(j);
                match known.and_then(|ms| ms.get(j)) {
                    Some(m) => match_box(event, b.format, m, [&from[0], &from[1]]),
                    None => future_box(
                        MatchId::Bracket {
                            round: round_no,
                            number: u32::try_from(j + 1).unwrap_or(u32::MAX),
                        },
                        from,
                    ),
                }
            })
            .collect();
        columns.push(boxes);
    }
    let third = if b.third_place && count >= 2 {
        let semis = count - 1;
        let from = [format!("loser of {semis}.1"), format!("loser of {semis}.2")];
        Some(match b.third.as_ref().or(next_third.as_ref()) {
            Some(m) => match_box(event, b.format, m, [&from[0], &from[1]]),
            None => future_box(MatchId::ThirdPlace, from),
        })
    } else {
        None
    };
    let column = |r: usize, boxes: &[String], with_third: bool| -> String {
        let mut out = format!(
            "<div class=round><h3>{}</h3><div class=boxes>\n",
            html_escape(&bracket_round_title(
                u32::try_from(r + 1).unwrap_or(u32::MAX),
                u32::try_from(count).unwrap_or(u32::MAX)
            ))
        );
        for x in boxes {
            out.push_str(x);
        }
        if with_third && let Some(t) = &third {
            out.push_str("<div class=third><h3>Third place</h3>\n");
            out.push_str(t);
            out.push_str("</div>\n");
        }
        out.push_str("</div></div>\n");
        out
    };
    let sheets = if first <= 8 {
        let mut s = String::from("<div class=bracket>\n");
        for (r, boxes) in columns.iter().enumerate() {
            s.push_str(&column(r, boxes, r + 1 == count));
        }
        s.push_str("</div>\n");
        vec![s]
    } else {
        // Two halves: every round but the final split at its middle.
        let mut halves = [
            String::from("<div class=bracket>\n"),
            String::from("<div class=bracket>\n"),
        ];
        for (r, boxes) in columns.iter().enumerate() {
            if r + 1 == count {
                halves[1].push_str(&column(r, boxes, true));
                continue;
            }
            let mid = boxes.len().div_ceil(2);
            halves[0].push_str(&column(r, &boxes[..mid], false));
            halves[1].push_str(&column(r, &boxes[mid..], false));
        }
        for h in &mut halves {
            h.push_str("</div>\n");
        }
        halves.to_vec()
    };
    let name = if spec.name.trim().is_empty() {
        "Knockout".to_string()
    } else {
        spec.name.trim().to_string()
    };
    let title = format!("{name}: the bracket ({})", series_words(b.format));
    let legend = "<p class=g>(n): seed in the stage. Score: the series score. ✓: the winner. \
                  Games: each game for the upper player of the box (1 won, ½ drawn, 0 lost, \
                  f by forfeit, … to be played).</p>\n";
    let sheets: Vec<String> = sheets.into_iter().map(|s| s + legend).collect();
    Some(landscape(d, &title, &sheets))
}

/// The tables of a round-robin stage's groups (`stage` from 1): per group its players in
/// rank order with their result against each other player of the group (`1`, `½`, `0`,
/// `1f`/`0f` by forfeit, one mark per game when they meet more than once, `…` to be
/// played), their points and the stage's tie-breaks, and the group's playoff games if any.
/// `None` when the stage is not a round robin or not seeded yet.
pub fn group_tables_page(d: &Details, event: &Event, stage: StageNo) -> Option<String> {
    let k = stage.index()?;
    let spec = event.settings().stages.get(k)?;
    if !matches!(spec.format, crate::stages::StageFormat::RoundRobin { .. }) {
        return None;
    }
    let reached = event.reached().get(k)?;
    let standings = event.stage_standings(Some(stage)).ok()?;
    let play = event.play(k);
    // Who went on: the next stage's players, once it is seeded (a playoff's winner, not
    // every player sharing the rank at the cut).
    let through: Vec<PlayerId> = event
        .reached()
        .get(k + 1)
        .map(|r| r.seeds.clone())
        .unwrap_or_default();
    let seeded = event.reached().len() > k + 1;
    let mut body = String::new();
    for g in &reached.groups {
        let rows: Vec<_> = standings
            .rows
            .iter()
            .filter(|(gid, _)| *gid == g.id)
            .map(|(_, r)| r)
            .collect();
        let order: Vec<PlayerId> = rows.iter().map(|r| r.id).collect();
        body.push_str(&format!("<h3>Group {}</h3>\n", g.id));
        body.push_str("<table><tr><th>Rank</th><th>No</th><th>Name</th>");
        for (i, _) in order.iter().enumerate() {
            body.push_str(&format!("<th class=num>{}</th>", i + 1));
        }
        body.push_str("<th>Points</th>");
        for t in &standings.tiebreaks {
            body.push_str(&format!("<th>{}</th>", tiebreak_title(*t)));
        }
        if seeded {
            body.push_str("<th>Next stage</th>");
        }
        body.push_str("</tr>\n");
        for (i, r) in rows.iter().enumerate() {
            body.push_str(&format!(
                "<tr><td class=num>{}</td><td class=num>{}</td><td>{} {}</td>",
                r.rank,
                r.id,
                i + 1,
                html_escape(&r.name)
            ));
            for &o in &order {
                if o == r.id {
                    body.push_str("<td class=num style=\"background:#ddd\"></td>");
                    continue;
                }
                let marks: Vec<&str> = g
                    .table
                    .rounds()
                    .iter()
                    .flat_map(|round| &round.games)
                    .filter(|x| {
                        (x.white == r.id && x.black == o) || (x.white == o && x.black == r.id)
                    })
                    .map(|x| game_mark(r.id, x.white, x.result))
                    .collect();
                body.push_str(&format!("<td class=num>{}</td>", marks.join(" ")));
            }
            body.push_str(&format!("<td class=num><b>{}</b></td>", r.score));
            for v in &r.tiebreaks {
                body.push_str(&format!("<td class=num>{v}</td>"));
            }
            if seeded {
                body.push_str(if through.contains(&r.id) {
                    "<td><b>through</b></td>"
                } else {
                    "<td></td>"
                });
            }
            body.push_str("</tr>\n");
        }
        body.push_str("</table>\n");
        let playoffs: Vec<String> = play
            .map(|p| &p.playoffs[..])
            .unwrap_or_default()
            .iter()
            .filter(|x| {
                x.group == Some(g.id) || (x.group.is_none() && g.members.contains(&x.white))
            })
            .map(|x| {
                let name = |p: PlayerId| {
                    event
                        .player(p)
                        .map_or_else(|| p.to_string(), |q| q.name.clone())
                };
                format!(
                    "{} – {}: {}",
                    html_escape(&name(x.white)),
                    html_escape(&name(x.black)),
                    match x.result {
                        GameResult::Pending => "to be played",
                        GameResult::WhiteWins => "1-0",
                        GameResult::BlackWins => "0-1",
                        GameResult::Draw => "½-½",
                        GameResult::WhiteWinsByForfeit => "1-0 by forfeit",
                        GameResult::BlackWinsByForfeit => "0-1 by forfeit",
                        GameResult::DoubleForfeit => "both forfeit",
                    }
                )
            })
            .collect();
        if !playoffs.is_empty() {
            body.push_str(&format!(
                "<p>Playoff at the cut: {}</p>\n",
                playoffs.join("; ")
            ));
        }
    }
    if let Some(a) = spec.advance {
        body.push_str(&format!(
            "<p>The top {a} of each group go on to the next stage.</p>\n"
        ));
    }
    let name = if spec.name.trim().is_empty() {
        format!("Stage {stage}")
    } else {
        spec.name.trim().to_string()
    };
    Some(page(d, &format!("{name}: group tables"), &body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Game, GameResult, PlayerId, Round, Settings, TieBreak, standings};
    use crate::tournament::{Player, Tournament};

    fn details() -> Details {
        Details {
            event: "GGF <Open>".into(),
            dates: "12-13 December 2026".into(),
            venue: "Quezon City".into(),
            organiser: "GGF".into(),
            chief_arbiter: "M. Santos".into(),
        }
    }

    fn pp(no: u32, name: &str) -> PrintPlayer {
        PrintPlayer {
            no,
            name: name.into(),
            points: String::new(),
        }
    }

    fn round() -> PrintRound {
        PrintRound {
            number: 2,
            boards: vec![
                PrintBoard {
                    table: 1,
                    white: pp(3, "Villanueva, Jo"),
                    black: pp(1, "Ñora, Ana"),
                    result: String::new(),
                },
                PrintBoard {
                    table: 2,
                    white: pp(2, "Abad, Cy"),
                    black: pp(4, "Émile, Dee"),
                    result: "1-0".into(),
                },
            ],
            byes: vec![pp(5, "Bautista, Ed")],
        }
    }

    #[test]
    fn names_sort_with_their_base_letters() {
        let mut names = vec!["Villanueva", "Ñora", "Émile", "abad", "Zuñiga", "Nuñez"];
        names.sort_by_key(|n| sort_key(n));
        assert_eq!(
            names,
            ["abad", "Émile", "Ñora", "Nuñez", "Villanueva", "Zuñiga"]
        );
        assert_eq!(sort_key("Æsop Straße"), "aesop strasse");
        // One letter of each base letter's group, upper case then lower case.
        assert_eq!(
            sort_key("ÅāÆæÇčĎđÉėĞģĤħÍıĴĵĶķŁľÑňØőŒœŘŕŠşßŤŧÜųŴŵÝÿŽź"),
            "aaaeaeccddeegghhiijjkkllnnoooeoerrssssttuuwwyyzz"
        );
        // A letter with no base letter here is lower-cased as it is.
        assert_eq!(sort_key("ŊΩЖ"), "ŋωж");
    }

    #[test]
    fn every_page_carries_the_details_header_escaped() {
        let d = details();
        let r = round();
        for html in [
            pairing_list(&d, &r),
            alphabetical_pairings(&d, &r),
            result_slips(&d, &r),
        ] {
            assert!(html.contains("<h1>GGF &lt;Open&gt;</h1>"), "{html}");
            assert!(html.contains("12-13 December 2026 · Quezon City"));
            assert!(html.contains("Organiser: GGF · Chief arbiter: M. Santos"));
        }
    }

    #[test]
    fn the_wall_list_is_alphabetical_with_table_colour_and_opponent() {
        let html = alphabetical_pairings(&details(), &round());
        let order: Vec<usize> = [
            "<b>Abad, Cy</b>",
            "<b>Bautista, Ed</b>",
            "<b>Émile, Dee</b>",
            "<b>Ñora, Ana</b>",
            "<b>Villanueva, Jo</b>",
        ]
        .iter()
        .map(|n| html.find(n).unwrap_or_else(|| panic!("{n} missing")))
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
        assert!(html.contains(
            "<td><b>Ñora, Ana</b></td><td class=num>1</td><td class=num><b>1</b></td><td>Black</td><td>3 Villanueva, Jo</td>"
        ));
        assert!(html.contains("<td>Bye</td>"));
    }

    #[test]
    fn a_slip_per_table_with_three_signature_lines() {
        let html = result_slips(&details(), &round());
        assert_eq!(html.matches("<div class=slip>").count(), 2);
        assert_eq!(html.matches("<div>Arbiter</div>").count(), 2);
        assert!(html.contains("Round 2 · Table 2"));
        assert!(html.contains("White: <b>2 Abad, Cy</b>"));
    }

    #[test]
    fn the_pairing_list_shows_results_and_byes() {
        let html = pairing_list(&details(), &round());
        assert!(html.contains("<td class=res>1-0</td>"));
        assert!(html.contains("<b>Bye:</b> 5 Bautista, Ed"));
    }

    fn two_player_tournament(result: GameResult) -> Tournament {
        let mut t = Tournament::new("Club", Settings::swiss(1)).expect("tournament");
        t.add_player(Player::new(PlayerId(1), "Ana", 1800))
            .expect("player");
        t.add_player(Player::new(PlayerId(2), "Ben", 1700))
            .expect("player");
        let mut g = Game::pending(Some(1), PlayerId(1), PlayerId(2));
        g.result = result;
        t.add_round(Round {
            games: vec![g],
            ..Round::default()
        })
        .expect("round");
        t
    }

    #[test]
    fn cross_cells_give_the_sign_the_opponent_and_the_colour_apart() {
        let t = two_player_tournament(GameResult::WhiteWins);
        let e = t.entries(1);
        assert_eq!(cross_cell(&e[0][0]), ("+2".to_string(), Some(Side::White)));
        assert_eq!(cross_cell(&e[1][0]), ("-1".to_string(), Some(Side::Black)));
        let t = two_player_tournament(GameResult::Draw);
        assert_eq!(cross_cell(&t.entries(1)[1][0]).0, "=1");
        let t = two_player_tournament(GameResult::BlackWinsByForfeit);
        assert_eq!(cross_cell(&t.entries(1)[1][0]).0, "+1f");
        assert_eq!(cross_cell(&Entry::Bye), ("BYE".to_string(), None));
    }

    #[test]
    fn standings_and_crosstable_pages_say_when_they_are_provisional() {
        let t = two_player_tournament(GameResult::Pending);
        let s = standings(&t, 1);
        let html = standings_page(&details(), &t, &s, true);
        assert!(html.contains("Provisional"));
        assert!(html.contains("Standings after round 1"));
        assert!(!standings_page(&details(), &t, &s, false).contains("Provisional"));
        assert!(!html.contains("withdrawn"), "nobody withdrew");
        let x = crosstable_page(&details(), &t, &s, false);
        assert!(x.contains("<td>?2<span class=col>w</span></td>"), "{x}");
        assert!(x.contains(CROSS_LEGEND));
        assert_eq!(tiebreak_title(TieBreak::Buchholz), "Buchholz");
    }

    #[test]
    fn printed_standings_mark_a_withdrawn_player() {
        let mut t = two_player_tournament(GameResult::WhiteWins);
        let second = t.players()[1].id;
        let name = t.players()[1].name.clone();
        t.set_withdrawn(second, true).expect("withdrawn");
        let s = standings(&t, 1);
        let html = standings_page(&details(), &t, &s, false);
        assert!(
            html.contains(&format!("{} <i>(withdrawn)</i>", html_escape(&name))),
            "{html}"
        );
        assert!(html.contains(WITHDRAWN_NOTE));
        let x = crosstable_page(&details(), &t, &s, false);
        assert!(x.contains("<i>(withdrawn)</i>"), "{x}");
        // The other player is not marked.
        assert_eq!(html.matches("(withdrawn)</i>").count(), 1);
    }
}
