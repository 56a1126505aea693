//! The pages, as HTML written on the server: mobile first, legible on a phone held in a
//! crowd, complete without JavaScript (one small script only brings a shown page up to date
//! when the server says it changed). Every text that comes from the database goes through
//! [`esc`].

use super::public::{
    EventIndex, GroupTable, MatchData, PlayerRatings, PlayerRound, PublicBoard, PublicPlayer,
    PublicRatingEvent, PublicRatingRow, PublicRound, RatingList, StageData, StageState, StagedData,
    TableState, TournamentData,
};
use super::routes::encode_id;
use ggdesk_core::event::words::{bracket_round_title, bracket_rounds};
use ggdesk_core::export::print::{CROSS_LEGEND, cross_cell, tiebreak_title};
use ggdesk_core::rating::list::fmt2;
use ggdesk_core::rating::{Date, PROVISIONAL_DEVIATION};
use ggdesk_core::rules::Side;
use ggdesk_core::stages::GroupId;
use ggdesk_core::tournament::{Entry, GameOutcome, GameResult, Score, System, TieBreak};
use std::fmt::Write;

/// Escapes text for HTML content and for attribute values in double or single quotes.
pub use ggdesk_core::export::forms::html_escape as esc;

const STYLE: &str = r#"
:root{color-scheme:light dark;--bg:#fff;--fg:#16181d;--mut:#5f6672;--line:#e2e4e8;--card:#f2f4f7;--acc:#0a58ca;--live:#b54708;--ok:#067647}
@media (prefers-color-scheme:dark){:root{--bg:#111318;--fg:#eceef2;--mut:#a3a9b4;--line:#2c3038;--card:#1d2027;--acc:#7cb0ff;--live:#fdb022;--ok:#47cd89}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
a{color:var(--acc)}
header{padding:14px 16px 4px;max-width:820px;margin:0 auto}
header .up{font-size:15px;color:var(--mut);text-decoration:none}
h1{font-size:23px;line-height:1.2;margin:4px 0 2px;overflow-wrap:anywhere}
h2{font-size:19px;margin:14px 0 4px}
.sub{color:var(--mut);font-size:15px;margin:0}
nav{position:sticky;top:0;z-index:1;background:var(--bg);border-bottom:1px solid var(--line)}
nav div{display:flex;gap:8px;overflow-x:auto;padding:8px 16px;max-width:820px;margin:0 auto}
nav a{flex:none;padding:7px 14px;border-radius:18px;background:var(--card);color:var(--fg);text-decoration:none;font-size:16px}
nav a[aria-current]{background:var(--acc);color:var(--bg);font-weight:600}
main{padding:4px 16px 28px;max-width:820px;margin:0 auto}
footer{color:var(--mut);font-size:14px;text-align:center;padding:0 16px 24px}
form.find{display:flex;gap:8px;margin:10px 0 6px}
form.find input{flex:1;min-width:0;font:inherit;padding:10px 12px;border:1px solid var(--mut);border-radius:10px;background:var(--bg);color:var(--fg)}
form.find button{font:inherit;font-weight:600;padding:10px 16px;border:0;border-radius:10px;background:var(--acc);color:var(--bg)}
ul.list{list-style:none;margin:0;padding:0}
ul.list>li{display:flex;gap:12px;align-items:center;padding:11px 0;border-bottom:1px solid var(--line)}
.tno{flex:none;width:46px;text-align:center;font-size:22px;font-weight:700;font-variant-numeric:tabular-nums}
.tno small{display:block;font-size:12px;font-weight:400;color:var(--mut)}
.who{flex:1;min-width:0}
.who>div{overflow-wrap:anywhere}
.who a{color:var(--fg);text-decoration:none}
.no{color:var(--mut);font-size:14px}
.sw,.sk{display:inline-block;width:13px;height:13px;border:1.5px solid var(--fg);border-radius:3px;margin-right:7px;vertical-align:-1px}
.sw{background:#fff}.sk{background:#16181d}
.st{flex:none;max-width:34%;text-align:right;font-size:15px}
.st b{font-size:18px}
.st small{display:block;color:var(--mut)}
.playing,.adjudication{color:var(--live);font-weight:600}
.awaiting_result{color:var(--mut)}
.finished{color:var(--ok)}
.playing,.adjudication,.awaiting_result,.finished{white-space:nowrap}
.seat{margin-top:2px}
.counts{color:var(--mut);font-size:15px;margin:2px 0 0}
.card{display:block;padding:12px 14px;margin:10px 0;border-radius:12px;background:var(--card);color:var(--fg);text-decoration:none}
.card strong{display:block;font-size:19px;overflow-wrap:anywhere}
.card span{color:var(--mut);font-size:15px}
.wide{overflow-x:auto;margin:8px -16px 0;padding:0 16px}
table{border-collapse:collapse;font-size:15px;width:100%}
th,td{padding:7px 6px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-size:13px;color:var(--mut);font-weight:600;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.c{white-space:nowrap;font-variant-numeric:tabular-nums}
.side{color:var(--mut);font-size:smaller;margin-left:1px}
td.name{min-width:9em;overflow-wrap:anywhere}
td.name a{color:var(--fg)}
.x td:nth-child(2),.x th:nth-child(2){position:sticky;left:0;background:var(--bg)}
.legend{color:var(--mut);font-size:14px;margin:10px 0}
.note{color:var(--mut)}
.me{background:var(--card)}
.now{padding:12px 14px;border-radius:12px;background:var(--card);margin:12px 0}
.now b{font-size:19px}
.follow button{font:inherit;padding:8px 14px;border-radius:10px;border:1px solid var(--mut);background:var(--card);color:var(--fg)}
.mine td.name{min-width:0}
#me{display:block;text-decoration:none;color:var(--fg);border:2px solid var(--acc)}
.stale{margin:0;padding:9px 16px;background:#fef0c7;color:#7a2e0e;text-align:center;font-weight:600}
.prov{display:inline-block;margin-left:5px;padding:0 5px;border-radius:6px;background:#fef0c7;color:#7a2e0e;font-size:12px;font-weight:700;vertical-align:1px}
.gain{color:var(--ok)}.loss{color:#d92d20}
.dev{display:block;color:var(--mut);font-size:13px}
.plot{display:block;width:100%;height:auto;margin:12px 0 4px}
.plot .band{fill:var(--acc);fill-opacity:.16}
.plot .line{fill:none;stroke:var(--acc);stroke-width:2.5;stroke-linejoin:round}
.plot .dot{fill:var(--acc)}
.plot .grid{stroke:var(--line);stroke-width:1}
.plot text{fill:var(--mut);font-size:12px;font-family:inherit}
.tag{display:inline-block;margin-left:5px;padding:0 6px;border-radius:6px;font-size:12px;font-weight:700;vertical-align:1px;white-space:nowrap}
.tag.on{background:var(--ok);color:var(--bg)}
.tag.po{background:#fef0c7;color:#7a2e0e}
tr.on td{font-weight:600}
.match{padding:10px 12px;margin:10px 0;border-radius:12px;background:var(--card)}
.match .mh{color:var(--mut);font-size:14px;margin-bottom:4px}
.match .mp{display:flex;gap:8px;align-items:baseline;padding:3px 0}
.match .mp .nm{flex:1;min-width:0;overflow-wrap:anywhere}
.match .mp .nm a{color:var(--fg)}
.match .mp .sd{flex:none;width:2.2em;color:var(--mut);font-size:13px;font-variant-numeric:tabular-nums}
.match .mp .sc{flex:none;min-width:1.6em;text-align:right;font-size:19px;font-weight:700;font-variant-numeric:tabular-nums}
.match .mp.win .nm{font-weight:700}
.match .mp.win .sc{color:var(--ok)}
.match ol{margin:6px 0 0;padding-left:22px;color:var(--mut);font-size:14px}
.match ol a{color:var(--mut)}
.tm{padding:10px 12px;margin:12px 0;border-radius:12px;background:var(--card)}
.tm .mh{color:var(--mut);font-size:14px}
.tm .ms{display:flex;gap:8px;align-items:baseline;padding:2px 0;font-size:18px}
.tm .ms .nm{flex:1;min-width:0;overflow-wrap:anywhere;font-weight:600}
.tm .ms .nm a{color:var(--fg)}
.tm .ms .sc{flex:none;font-weight:700;font-variant-numeric:tabular-nums}
.tm table{margin-top:6px}
.tm td.name{min-width:0}
.tm th{white-space:normal}
.tm td.r{text-align:right;white-space:nowrap}
.tm td.r small{display:block;color:var(--mut)}
"#;

/// Which tab of a tournament's pages is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tab {
    Round,
    Names,
    Standings,
    Crosstable,
    /// A stage of an event of stages (the bracket is its knockout stage's).
    Stage(u32),
    Final,
    /// A team event's board prizes.
    Boards,
    None,
}

/// Where every page's body starts: the stale line goes right after it.
const BODY_TAG: &str = "<body>\n";

/// A page with the line that says it is not current: the database could not be read since
/// `as_of` (a local time, "14:32"), and what was read then is shown.
pub fn mark_stale(page: &str, as_of: &str) -> String {
    let line = format!(
        "<p class=\"stale\" role=\"status\">as of {} \u{2014} results since then are not shown yet</p>\n",
        esc(as_of)
    );
    // Names are escaped, so the first body tag is the page's own.
    match page.find(BODY_TAG) {
        Some(at) => {
            let at = at + BODY_TAG.len();
            format!("{}{line}{}", &page[..at], &page[at..])
        }
        None => format!("{line}{page}"),
    }
}

fn page(title: &str, header: &str, nav: &str, main: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{title}</title><style>{STYLE}</style>\
         <script src=\"/live.js\" defer></script></head>\n{BODY_TAG}<header>{header}</header>\n\
         {nav}<main>\n{main}</main>\n<footer>Read-only pages of the tournament desk. \
         This page updates by itself while it is open.</footer>\n</body></html>\n"
    )
}

pub(super) fn tournament_page(t: &TournamentData, tab: Tab, title: &str, main: &str) -> String {
    let header = format!(
        "<a class=\"up\" href=\"/\">&#8249; All tournaments</a><h1>{}</h1><p class=\"sub\">{}</p>",
        esc(&t.name),
        esc(&tournament_line(t))
    );
    let round_label = match t.round_in_play() {
        Some(r) => format!("Round {}", r.number),
        None => "Pairings".into(),
    };
    let mut nav = String::from("<nav aria-label=\"Tournament pages\"><div>");
    let mut tabs: Vec<(Tab, String, String)> = vec![
        (Tab::Round, format!("/t/{}", t.id), round_label),
        (
            Tab::Names,
            format!("/t/{}/names", t.id),
            "Find your name".into(),
        ),
    ];
    match &t.staged {
        // A team event: its team standings (with its teams) and its board prizes.
        None if t.teams.is_some() => {
            tabs.push((
                Tab::Standings,
                format!("/t/{}/standings", t.id),
                "Standings".into(),
            ));
            tabs.push((
                Tab::Boards,
                format!("/t/{}/boards", t.id),
                "Board prizes".into(),
            ));
        }
        // An event of stages: its stages, one tab each once seeded, and the final placement
        // once it is over; the flat rounds' standings and cross-table mean nothing there.
        Some(sd) => {
            tabs.push((
                Tab::Standings,
                format!("/t/{}/standings", t.id),
                "Stages".into(),
            ));
            for st in sd
                .stages
                .iter()
                .filter(|s| s.state != StageState::NotSeeded)
            {
                tabs.push((
                    Tab::Stage(st.number),
                    format!("/t/{}/stage/{}", t.id, st.number),
                    esc(&st.title()),
                ));
            }
            if sd.over {
                tabs.push((
                    Tab::Final,
                    format!("/t/{}/final", t.id),
                    "Final placement".into(),
                ));
            }
        }
        None => {
            tabs.push((
                Tab::Standings,
                format!("/t/{}/standings", t.id),
                "Standings".into(),
            ));
            tabs.push((
                Tab::Crosstable,
                format!("/t/{}/crosstable", t.id),
                "Cross-table".into(),
            ));
        }
    }
    for (link_tab, href, label) in tabs {
        let current = if link_tab == tab {
            " aria-current=\"page\""
        } else {
            ""
        };
        let _ = write!(nav, "<a href=\"{href}\"{current}>{label}</a>");
    }
    nav.push_str("</div></nav>\n");
    page(
        &format!("{} · {}", esc(title), esc(&t.name)),
        &header,
        &nav,
        main,
    )
}

fn system_name(system: System) -> &'static str {
    match system {
        System::Swiss => "Swiss",
        System::RoundRobin => "Round robin",
    }
}

fn tournament_line(t: &TournamentData) -> String {
    if let Some(td) = &t.teams {
        let names: Vec<String> = td.stages.iter().map(|s| s.title()).collect();
        let now = match t.round_in_play() {
            Some(r) => format!("round {}", r.number),
            None => "not started".into(),
        };
        return format!(
            "{} · {} teams of {} · {now}",
            names.join(" \u{2192} "),
            td.teams.len(),
            td.boards
        );
    }
    if let Some(sd) = &t.staged {
        let names: Vec<String> = sd.stages.iter().map(StageData::title).collect();
        let now = match sd.stage(sd.current) {
            _ if sd.over => "over".to_string(),
            Some(st) => format!("stage {} of {}: {}", st.number, sd.stages.len(), st.title()),
            None => "not started".into(),
        };
        let now = if t.rounds.is_empty() {
            "not started".to_string()
        } else {
            now
        };
        return format!(
            "{} · {} players · {now}",
            names.join(" \u{2192} "),
            t.players.len()
        );
    }
    let rounds = match (t.round_in_play(), t.rounds_planned) {
        (Some(r), Some(n)) => format!("round {} of {n}", r.number),
        (Some(r), None) => format!("round {}", r.number),
        (None, Some(n)) => format!("{n} rounds, not started"),
        (None, None) => "not started".into(),
    };
    format!(
        "{} · {} players · {rounds}",
        system_name(t.system),
        t.players.len()
    )
}

/// A tie-break's short column heading, for a phone's narrow table; its full name is the
/// printouts' [`tiebreak_title`].
fn tiebreak_abbreviation(tb: TieBreak) -> &'static str {
    match tb {
        TieBreak::DirectEncounter => "DE",
        TieBreak::Buchholz => "BH",
        TieBreak::BuchholzCut1 => "BH-1",
        TieBreak::MedianBuchholz => "MBH",
        TieBreak::SonnebornBerger => "SB",
        TieBreak::Progressive => "Prog",
        TieBreak::Wins => "Wins",
        TieBreak::FewestForfeitWins => "FFW",
    }
}

/// The list of tournaments.
pub fn index(ev: &EventIndex) -> String {
    let mut main = String::new();
    if ev.tournaments.is_empty() {
        main.push_str("<p class=\"note\">No tournament yet.</p>");
    }
    for t in &ev.tournaments {
        let rounds = match (t.round_in_play, t.rounds_planned) {
            (Some(r), Some(n)) => format!("round {r} of {n}"),
            (Some(r), None) => format!("round {r}"),
            (None, _) => "not started".into(),
        };
        let system = if t.team {
            "Team event".to_string()
        } else if t.stages.is_empty() {
            system_name(t.system).to_string()
        } else {
            t.stages.join(" \u{2192} ")
        };
        let _ = writeln!(
            main,
            "<a class=\"card\" href=\"/t/{}\"><strong>{}</strong><span>{} · {} players · {rounds}</span></a>",
            t.id,
            esc(&t.name),
            esc(&system),
            t.players
        );
    }
    let sub = if ev.rated_players > 0 {
        main.push_str(&format!(
            "<h2>Ratings</h2>\n<a class=\"card\" href=\"/ratings\"><strong>Rating list</strong>\
             <span>{} · Glicko-2, every rated event</span></a>\n",
            players_count(ev.rated_players)
        ));
        "Pairings, results, standings and the rating list"
    } else {
        "Pairings, results and standings"
    };
    page(
        "Tournaments",
        &format!("<h1>Tournaments</h1><p class=\"sub\">{sub}</p>"),
        "",
        &main,
    )
}

/// "1 player", "12 players".
fn players_count(n: u32) -> String {
    match n {
        1 => "1 player".into(),
        n => format!("{n} players"),
    }
}

pub(super) fn player_link(t: &TournamentData, no: u32) -> String {
    format!(
        "<a href=\"/t/{}/player/{no}\">{}</a> <span class=\"no\">{no}</span>",
        t.id,
        esc(t.name(no))
    )
}

/// The result of a board as the hall reads it: "1–0", with "forfeit" under it when no game
/// was played.
pub(super) fn board_result(result: GameResult) -> (&'static str, Option<&'static str>) {
    match result {
        GameResult::WhiteWins => ("1–0", None),
        GameResult::BlackWins => ("0–1", None),
        GameResult::Draw => ("½–½", None),
        GameResult::WhiteWinsByForfeit => ("1–0", Some("forfeit")),
        GameResult::BlackWinsByForfeit => ("0–1", Some("forfeit")),
        GameResult::DoubleForfeit => ("0–0", Some("forfeit")),
        GameResult::Pending => ("", None),
    }
}

fn state_label(state: TableState) -> &'static str {
    match state {
        TableState::AwaitingResult => "Not started or awaiting result",
        TableState::Playing => "Playing",
        TableState::Adjudication => "Adjudication",
        TableState::Finished => "Finished",
    }
}

fn state_cell(b: &PublicBoard) -> String {
    if b.result != GameResult::Pending {
        let (text, note) = board_result(b.result);
        let note = note.map_or(String::new(), |n| format!("<small>{n}</small>"));
        return format!("<span class=\"finished\"><b>{text}</b>{note}</span>");
    }
    let short = match b.state {
        TableState::AwaitingResult => "Awaiting result",
        other => state_label(other),
    };
    format!("<span class=\"{}\">{short}</span>", b.state.code())
}

pub(super) fn find_form(t: &TournamentData, query: &str) -> String {
    format!(
        "<form class=\"find\" action=\"/t/{}/names\" method=\"get\" role=\"search\">\
         <input type=\"search\" name=\"q\" value=\"{}\" placeholder=\"Your name or number\" \
         aria-label=\"Your name or number\" autocomplete=\"off\"><button type=\"submit\">Find</button></form>\n",
        t.id,
        esc(query)
    )
}

pub(super) fn counts_line(r: &PublicRound) -> String {
    let [waiting, playing, adjudication, finished] = r.counts();
    let mut parts = Vec::new();
    if playing > 0 {
        parts.push(format!("{playing} playing"));
    }
    if adjudication > 0 {
        parts.push(format!("{adjudication} in adjudication"));
    }
    if waiting > 0 {
        parts.push(format!("{waiting} awaiting result"));
    }
    parts.push(format!("{finished} of {} finished", r.boards.len()));
    parts.join(" · ")
}

pub(super) fn rounds_links(t: &TournamentData, shown: u32) -> String {
    if t.rounds.len() < 2 {
        return String::new();
    }
    let mut out = String::from("<p class=\"note\">Rounds: ");
    for r in &t.rounds {
        if r.number == shown {
            let _ = write!(out, "<b>{}</b> ", r.number);
        } else {
            let _ = write!(
                out,
                "<a href=\"/t/{}/round/{}\">{}</a> ",
                t.id, r.number, r.number
            );
        }
    }
    out.push_str("</p>\n");
    out
}

/// A round by table: who plays whom, each table's state or result, the byes and absences.
/// `None` for the round in play of a tournament with no round yet.
pub fn round(t: &TournamentData, number: Option<u32>) -> Option<String> {
    let r = match number {
        Some(n) => Some(t.round(n)?),
        None => t.round_in_play(),
    };
    let Some(r) = r else {
        let mut main = String::from(
            "<h2>No round published yet</h2><p class=\"note\">The pairings appear here as soon \
             as the director publishes them.</p>",
        );
        main.push_str(&find_form(t, ""));
        return Some(tournament_page(t, Tab::Round, "Pairings", &main));
    };
    let in_play = t.round_in_play().is_some_and(|p| p.number == r.number);
    let mut main = String::new();
    let _ = writeln!(
        main,
        "<h2>Round {} · by table</h2><p class=\"counts\">{}</p>",
        r.number,
        counts_line(r)
    );
    if in_play {
        main.push_str(&find_form(t, ""));
    }
    main.push_str("<ul class=\"list\">\n");
    for b in &r.boards {
        // A staged round's board says its group or match above the players.
        let part = b.part().map_or_else(String::new, |p| {
            format!("<div class=\"no\">{}</div>", esc(&p))
        });
        let _ = writeln!(
            main,
            "<li><div class=\"tno\"><small>Table</small>{}</div><div class=\"who\">{part}\
             <div><span class=\"sw\" title=\"White\"></span>{}</div>\
             <div><span class=\"sk\" title=\"Black\"></span>{}</div></div>\
             <div class=\"st\">{}</div></li>",
            b.table,
            player_link(t, b.white),
            player_link(t, b.black),
            state_cell(b)
        );
    }
    main.push_str("</ul>\n");
    let names = |list: &[u32]| -> String {
        list.iter()
            .map(|&no| player_link(t, no))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !r.byes.is_empty() {
        let _ = writeln!(main, "<p><b>Bye:</b> {}</p>", names(&r.byes));
    }
    if !r.absent.is_empty() {
        let _ = writeln!(main, "<p><b>Absent:</b> {}</p>", names(&r.absent));
    }
    main.push_str(&rounds_links(t, r.number));
    Some(tournament_page(
        t,
        if in_play { Tab::Round } else { Tab::None },
        &format!("Round {}", r.number),
        &main,
    ))
}

/// Where a player is in a round, in a few words: "Table 12 · White · against X".
fn seat_line(t: &TournamentData, r: &PublicRound, no: u32) -> String {
    if let Some((b, side)) = r.board_of(no) {
        let (colour, swatch, opponent) = match side {
            Side::White => ("White", "sw", b.black),
            Side::Black => ("Black", "sk", b.white),
        };
        let part = b
            .part()
            .map_or_else(String::new, |p| format!(" · {}", esc(&p)));
        format!(
            "<b>Table {}</b>{part} · <span class=\"{swatch}\"></span>{colour} · against {} · {}",
            b.table,
            player_link(t, opponent),
            state_cell(b)
        )
    } else if r.byes.contains(&no) {
        "<b>Bye</b>".into()
    } else if r.absent.contains(&no) {
        "<b>Absent</b> this round".into()
    } else {
        "<span class=\"note\">Not paired yet</span>".into()
    }
}

/// In an event of stages, where the player stands in the stage being played: their group's
/// table (with their place) or their path through the bracket.
fn stage_path(t: &TournamentData, no: u32) -> Option<String> {
    let sd = t.staged.as_ref()?;
    let name = |p: u32| {
        t.player(p)
            .map_or_else(|| p.to_string(), |x| x.name.clone())
    };
    // The bracket: each match of theirs, its score from their side, won or lost.
    if let Some(b) = &sd.bracket {
        let mine: Vec<String> = b
            .rounds
            .iter()
            .flatten()
            .chain(b.third.as_ref())
            .filter_map(|m| {
                let side = m.players.iter().position(|p| *p == Some(no))?;
                let other = m.players[1 - side];
                let outcome = match m.winner {
                    Some(w) if w == no => " · won",
                    Some(_) => " · lost",
                    None => "",
                };
                Some(format!(
                    "Match {} against {}: {}–{}{outcome}",
                    esc(&m.id),
                    other.map_or_else(|| "a bye".to_string(), |o| esc(&name(o))),
                    m.score[side],
                    m.score[1 - side]
                ))
            })
            .collect();
        if !mine.is_empty() {
            return Some(format!(
                "<p><a href=\"/t/{}/bracket\">The bracket</a>: {}</p>",
                t.id,
                mine.join("; ")
            ));
        }
    }
    // The latest stage with a table holding them: its group, their place.
    sd.stages.iter().rev().find_map(|st| {
        st.tables.iter().find_map(|table| {
            let row = table.rows.iter().find(|r| r.row.id.0 == no)?;
            let (href, what) = match table.group {
                Some(g) => (
                    format!("/t/{}/stage/{}/group/{g}", t.id, st.number),
                    format!("group {g}'s table"),
                ),
                None => (
                    format!("/t/{}/stage/{}", t.id, st.number),
                    "its table".to_string(),
                ),
            };
            Some(format!(
                "<p>{}: <a href=\"{href}\">{what}</a> · place <b>{}</b>{}</p>",
                esc(&st.title()),
                row.row.rank,
                if row.through { " · goes on" } else { "" }
            ))
        })
    })
}

/// Where a player sits in the round in play, as a page title: `Table 7 · White · vs Cruz`
/// (the opponent's name up to its comma), `Bye`, or the player's name when not paired.
fn seat_title(t: &TournamentData, r: &PublicRound, no: u32, name: &str) -> String {
    if let Some((b, side)) = r.board_of(no) {
        let (colour, opponent) = match side {
            Side::White => ("White", b.black),
            Side::Black => ("Black", b.white),
        };
        let other = t.player(opponent).map_or(String::new(), |p| p.name.clone());
        let short = other.split(',').next().unwrap_or("").trim().to_string();
        format!("Table {} · {colour} · vs {short}", b.table)
    } else if r.byes.contains(&no) {
        format!("Bye · {name}")
    } else {
        name.to_string()
    }
}

/// The round in play by name, with the search form ("find your name, find your table").
pub fn names(t: &TournamentData, query: Option<&str>) -> String {
    let query = query.unwrap_or("").trim();
    let mut main = String::new();
    let r = t.round_in_play();
    match r {
        Some(r) => {
            let _ = write!(main, "<h2>Round {} · by name</h2>", r.number);
        }
        None => main.push_str("<h2>Players</h2>"),
    }
    main.push_str(&find_form(t, query));
    let list = t.players_by_name(Some(query));
    if !query.is_empty() {
        let _ = writeln!(
            main,
            "<p class=\"counts\">{} found for “{}” · <a href=\"/t/{}/names\">show everyone</a></p>",
            match list.len() {
                0 => "Nobody".to_string(),
                1 => "1 player".to_string(),
                n => format!("{n} players"),
            },
            esc(query),
            t.id
        );
    }
    main.push_str("<ul class=\"list\">\n");
    for p in list {
        let seat = match r {
            Some(r) => seat_line(t, r, p.no),
            None => String::new(),
        };
        let _ = writeln!(
            main,
            "<li><div class=\"who\"><div>{}{}</div><div class=\"seat\">{seat}</div></div></li>",
            player_link(t, p.no),
            if p.withdrawn {
                " <span class=\"note\">(withdrawn)</span>"
            } else {
                ""
            }
        );
    }
    main.push_str("</ul>\n");
    tournament_page(t, Tab::Names, "Find your name", &main)
}

/// The standings after the last complete round, with the tournament's tie-breaks; for an
/// event of stages, its stages and the final placement.
pub fn standings(t: &TournamentData) -> String {
    if let Some(sd) = &t.staged {
        return stages_overview(t, sd);
    }
    let s = &t.standings;
    let mut main = String::new();
    if t.complete_rounds() == 0 {
        main.push_str(
            "<h2>Standings</h2><p class=\"note\">The standings appear here once the first round \
             is complete.</p>",
        );
        return tournament_page(t, Tab::Standings, "Standings", &main);
    }
    let _ = write!(
        main,
        "<h2>Standings after round {}</h2>\n<div class=\"wide\"><table>\n<thead><tr>\
         <th class=\"n\">#</th><th>Player</th><th class=\"n\">Pts</th>",
        s.after_round
    );
    for &tb in &s.tiebreaks {
        let _ = write!(
            main,
            "<th class=\"n\" title=\"{}\">{}</th>",
            tiebreak_title(tb),
            tiebreak_abbreviation(tb)
        );
    }
    main.push_str("</tr></thead><tbody>\n");
    for row in &s.rows {
        let _ = write!(
            main,
            "<tr><td class=\"n\">{}</td><td class=\"name\"><a href=\"/t/{}/player/{}\">{}</a></td>\
             <td class=\"n\"><b>{}</b></td>",
            row.rank,
            t.id,
            row.id.0,
            esc(&row.name),
            row.score
        );
        for v in &row.tiebreaks {
            let _ = write!(main, "<td class=\"n\">{v}</td>");
        }
        main.push_str("</tr>\n");
    }
    main.push_str("</tbody></table></div>\n");
    if !s.tiebreaks.is_empty() {
        let legend: Vec<String> = s
            .tiebreaks
            .iter()
            .map(|&tb| {
                let (short, long) = (tiebreak_abbreviation(tb), tiebreak_title(tb));
                if short == long {
                    short.to_string()
                } else {
                    format!("{short}: {long}")
                }
            })
            .collect();
        let _ = writeln!(
            main,
            "<p class=\"legend\">Ties on points are broken in this order: {}.</p>",
            legend.join(" · ")
        );
    }
    tournament_page(t, Tab::Standings, "Standings", &main)
}

fn stage_state_text(st: &StageData) -> &'static str {
    match st.state {
        StageState::NotSeeded => "not seeded yet",
        StageState::InPlay => "being played",
        StageState::Complete => "complete",
    }
}

/// An event of stages' overview (its Standings tab): each stage with its format and state,
/// and the final placement once the event is over.
fn stages_overview(t: &TournamentData, sd: &StagedData) -> String {
    let mut main = String::from("<h2>Stages</h2>\n");
    for st in &sd.stages {
        let line = format!(
            "<strong>{}. {}</strong><span>{} · {}</span>",
            st.number,
            esc(&st.title()),
            esc(&st.format),
            stage_state_text(st)
        );
        if st.state == StageState::NotSeeded {
            let _ = writeln!(main, "<div class=\"card\">{line}</div>");
        } else {
            let _ = writeln!(
                main,
                "<a class=\"card\" href=\"/t/{}/stage/{}\">{line}</a>",
                t.id, st.number
            );
        }
    }
    if sd.bracket.is_some() {
        let _ = writeln!(
            main,
            "<p><a href=\"/t/{}/bracket\">The bracket</a></p>",
            t.id
        );
    }
    match &sd.placement {
        Some(rows) => {
            main.push_str("<h2>Final placement</h2>\n");
            main.push_str(&placement_table(t, sd, rows));
        }
        None => main.push_str(
            "<p class=\"note\">The final placement appears here when the last stage is over.</p>\n",
        ),
    }
    tournament_page(t, Tab::Standings, "Stages", &main)
}

fn placement_table(
    t: &TournamentData,
    sd: &StagedData,
    rows: &[ggdesk_core::stages::Placed],
) -> String {
    let mut out = String::from(
        "<div class=\"wide\"><table><thead><tr><th class=\"n\">Place</th><th>Player</th>\
         <th>Placed in</th></tr></thead><tbody>\n",
    );
    for p in rows {
        let stage = sd
            .stage(p.stage.0)
            .map_or_else(|| format!("Stage {}", p.stage.0), StageData::title);
        let _ = writeln!(
            out,
            "<tr><td class=\"n\"><b>{}</b></td><td class=\"name\">{}</td><td>{}</td></tr>",
            p.place,
            player_link(t, p.id.0),
            esc(&stage)
        );
    }
    out.push_str("</tbody></table></div>\n");
    out
}

/// One group's table: rank, player, points, the stage's tie-breaks, who goes on marked.
fn group_table(t: &TournamentData, st: &StageData, table: &GroupTable) -> String {
    let mut out = String::new();
    if let Some(g) = table.group {
        let _ = writeln!(
            out,
            "<h3 id=\"group-{g}\"><a href=\"/t/{}/stage/{}/group/{g}\">Group {g}</a></h3>",
            t.id, st.number
        );
    }
    out.push_str(
        "<div class=\"wide\"><table>\n<thead><tr><th class=\"n\">#</th><th>Player</th>\
         <th class=\"n\">Pts</th>",
    );
    for &tb in &st.tiebreaks {
        let _ = write!(
            out,
            "<th class=\"n\" title=\"{}\">{}</th>",
            tiebreak_title(tb),
            tiebreak_abbreviation(tb)
        );
    }
    out.push_str("</tr></thead><tbody>\n");
    for line in &table.rows {
        let row = &line.row;
        let mark = if line.through {
            "<span class=\"tag on\">goes on</span>"
        } else if line.playoff {
            "<span class=\"tag po\">playoff</span>"
        } else {
            ""
        };
        let _ = write!(
            out,
            "<tr{}><td class=\"n\">{}</td><td class=\"name\">{}{mark}</td><td class=\"n\"><b>{}</b></td>",
            if line.through { " class=\"on\"" } else { "" },
            row.rank,
            player_link(t, row.id.0),
            row.score
        );
        for v in &row.tiebreaks {
            let _ = write!(out, "<td class=\"n\">{v}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    let games: Vec<_> = st
        .playoffs
        .iter()
        .filter(|g| g.group == table.group || !st.grouped)
        .collect();
    if !games.is_empty() {
        out.push_str("<p class=\"note\">Playoff at the cut:</p><ol class=\"note\">\n");
        for g in games {
            let _ = writeln!(
                out,
                "<li>{} – {}: {}</li>",
                player_link(t, g.white),
                player_link(t, g.black),
                game_result_text(g.result)
            );
        }
        out.push_str("</ol>\n");
    }
    out
}

fn game_result_text(result: GameResult) -> String {
    match board_result(result) {
        ("", _) => "in play".into(),
        (text, Some(note)) => format!("{text} ({note})"),
        (text, None) => text.into(),
    }
}

/// The legend under a stage's tables: the cut and the tie-breaks.
fn stage_legend(t: &TournamentData, sd: &StagedData, st: &StageData) -> String {
    let mut out = String::new();
    if let Some(a) = st.advance {
        let next = sd
            .stage(st.number + 1)
            .map_or_else(|| "the next stage".to_string(), StageData::title);
        let whom = if st.grouped {
            format!("The top {a} of each group go on to {}", esc(&next))
        } else {
            format!("The top {a} go on to {}", esc(&next))
        };
        let when = match st.state {
            StageState::Complete => ".",
            _ => ", marked once the stage is complete.",
        };
        let _ = writeln!(
            out,
            "<p class=\"legend\">{whom}{when} A tie across the cut is settled by playoff games.</p>"
        );
    }
    if !st.tiebreaks.is_empty() {
        let legend: Vec<String> = st
            .tiebreaks
            .iter()
            .map(|&tb| {
                let (short, long) = (tiebreak_abbreviation(tb), tiebreak_title(tb));
                if short == long {
                    short.to_string()
                } else {
                    format!("{short}: {long}")
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "<p class=\"legend\">Ties on points are broken in this order: {}.</p>",
            legend.join(" · ")
        );
    }
    let _ = t;
    out
}

fn stage_heading(st: &StageData) -> String {
    format!(
        "<h2>{}</h2><p class=\"sub\">Stage {} · {} · {}</p>\n",
        esc(&st.title()),
        st.number,
        esc(&st.format),
        stage_state_text(st)
    )
}

/// Stage N: its group tables (who goes on marked, the playoffs at the cut), or for a
/// knockout its bracket. `None` for a tournament of one system or a stage it does not have.
pub fn stage(t: &TournamentData, number: u32) -> Option<String> {
    let sd = t.staged.as_ref()?;
    let st = sd.stage(number)?;
    if st.knockout {
        return bracket_page(t, sd, st);
    }
    let mut main = stage_heading(st);
    if st.state == StageState::NotSeeded {
        main.push_str(
            "<p class=\"note\">This stage is seeded when the stage before it is complete.</p>\n",
        );
    } else {
        if st.grouped && st.tables.len() > 1 {
            main.push_str("<p class=\"note\">Groups: ");
            for table in &st.tables {
                if let Some(g) = table.group {
                    let _ = write!(main, "<a href=\"#group-{g}\">{g}</a> ");
                }
            }
            main.push_str("</p>\n");
        }
        for table in &st.tables {
            main.push_str(&group_table(t, st, table));
        }
        main.push_str(&stage_legend(t, sd, st));
    }
    Some(tournament_page(t, Tab::Stage(number), &st.title(), &main))
}

/// One group of stage N.
pub fn group(t: &TournamentData, number: u32, g: GroupId) -> Option<String> {
    let sd = t.staged.as_ref()?;
    let st = sd.stage(number)?;
    let table = st.table(g)?;
    let mut main = stage_heading(st);
    main.push_str(&group_table(t, st, table));
    main.push_str(&stage_legend(t, sd, st));
    let _ = writeln!(
        main,
        "<p><a href=\"/t/{}/stage/{}\">Every group of {}</a></p>",
        t.id,
        number,
        esc(&st.title())
    );
    Some(tournament_page(
        t,
        Tab::Stage(number),
        &format!("{} · Group {g}", st.title()),
        &main,
    ))
}

/// The knockout's page: the bracket.
pub fn bracket(t: &TournamentData) -> Option<String> {
    let sd = t.staged.as_ref()?;
    let b = sd.bracket.as_ref()?;
    let st = sd.stage(b.stage)?;
    bracket_page(t, sd, st)
}

/// A match as a card: both players with their seeds and the series score, the winner in
/// bold with a check mark, a bye or a player still to come said in words, and its games.
fn match_card(t: &TournamentData, m: &MatchData, from: [String; 2], points: bool) -> String {
    let state = if m.bye {
        "bye".to_string()
    } else if m.winner.is_some() {
        "decided".into()
    } else if m.players.iter().all(Option::is_some) {
        match m.games.iter().any(|g| g.2 == GameResult::Pending) {
            true => format!("game {} in play", m.games.len()),
            false if m.games.is_empty() => "not started".into(),
            false => format!("{} played", games_count(m.games.len())),
        }
    } else {
        "waiting for its players".into()
    };
    let title = if m.id == "3rd" {
        "Third-place match".to_string()
    } else {
        format!("Match {}", m.id)
    };
    let mut out = format!(
        "<div class=\"match\"><div class=\"mh\">{title} · {state}{}</div>\n",
        if points && !m.bye { " · points" } else { "" }
    );
    for (i, from) in from.iter().enumerate() {
        let won = m.winner.is_some() && m.winner == m.players[i];
        let seed = m.seeds[i].map_or(String::new(), |s| format!("#{s}"));
        let (name, score) = match m.players[i] {
            Some(no) => (
                format!(
                    "{}{}",
                    player_link(t, no),
                    if won { " \u{2713}" } else { "" }
                ),
                // A score only once both players are known (not for a bye, nor for a
                // match still waiting for one of them).
                if m.bye || m.players.iter().any(Option::is_none) {
                    String::new()
                } else {
                    m.score[i].to_string()
                },
            ),
            None if m.bye => ("<span class=\"note\">bye</span>".to_string(), String::new()),
            None => (format!("<span class=\"note\">{from}</span>"), String::new()),
        };
        let _ = writeln!(
            out,
            "<div class=\"mp{}\"><span class=\"sd\">{seed}</span><span class=\"nm\">{name}</span>\
             <span class=\"sc\">{score}</span></div>",
            if won { " win" } else { "" }
        );
    }
    if !m.games.is_empty() {
        out.push_str("<ol>\n");
        for &(white, black, result) in &m.games {
            let _ = writeln!(
                out,
                "<li><span class=\"sw\" title=\"White\"></span>{} – <span class=\"sk\" title=\"Black\"></span>{}: {}</li>",
                esc(t.name(white)),
                esc(t.name(black)),
                game_result_text(result)
            );
        }
        out.push_str("</ol>\n");
    }
    out.push_str("</div>\n");
    out
}

fn games_count(n: usize) -> String {
    match n {
        1 => "1 game".into(),
        n => format!("{n} games"),
    }
}

fn bracket_page(t: &TournamentData, sd: &StagedData, st: &StageData) -> Option<String> {
    let mut main = stage_heading(st);
    match sd.bracket.as_ref().filter(|b| b.stage == st.number) {
        None => main.push_str(
            "<p class=\"note\">The bracket is drawn when the stage before it is complete.</p>\n",
        ),
        Some(b) => {
            let _ = writeln!(
                main,
                "<p class=\"note\">Each match: {}. The number after a name is the {} in \
                 the match; \u{2713} marks the winner.</p>",
                esc(&b.series),
                if b.points { "points" } else { "games won" }
            );
            let last = b.rounds.len();
            let count = bracket_rounds(b.rounds.first().map_or(1, Vec::len));
            for (r, matches) in b.rounds.iter().enumerate() {
                let _ = writeln!(
                    main,
                    "<h3>{}</h3>",
                    bracket_round_title(u32::try_from(r + 1).unwrap_or(u32::MAX), count)
                );
                for m in matches {
                    let number: usize =
                        m.id.split_once('.')
                            .and_then(|(_, n)| n.parse().ok())
                            .unwrap_or(1);
                    let from = [0, 1].map(|i| format!("winner of {r}.{}", 2 * number - 1 + i));
                    main.push_str(&match_card(t, m, from, b.points));
                }
                if r + 1 == last
                    && let Some(third) = &b.third
                {
                    main.push_str("<h3>Third place</h3>\n");
                    let from = [0, 1].map(|i| format!("loser of {}.{}", last - 1, i + 1));
                    main.push_str(&match_card(t, third, from, b.points));
                }
            }
        }
    }
    if let Some(rows) = &sd.placement {
        main.push_str("<h2>Final placement</h2>\n");
        main.push_str(&placement_table(t, sd, rows));
    }
    Some(tournament_page(
        t,
        Tab::Stage(st.number),
        &st.title(),
        &main,
    ))
}

/// The event's final placement: `None` for a tournament of one system.
pub fn final_placement(t: &TournamentData) -> Option<String> {
    let sd = t.staged.as_ref()?;
    let mut main = String::from("<h2>Final placement</h2>\n");
    match &sd.placement {
        Some(rows) => main.push_str(&placement_table(t, sd, rows)),
        None => main.push_str(
            "<p class=\"note\">The final placement appears here when the last stage is over.</p>\n",
        ),
    }
    Some(tournament_page(t, Tab::Final, "Final placement", &main))
}

/// A cross-table cell as the desk and its printouts write it (`+5` won, `=5` drew, `-5`
/// lost, `?5` pending, `f` by forfeit) with a true minus sign (a hyphen is easily lost on a
/// phone), and the colour apart (w / b).
fn cell(entry: &Entry) -> String {
    let (text, colour) = cross_cell(entry);
    let col = match colour {
        Some(Side::White) => "<span class=\"side\">w</span>",
        Some(Side::Black) => "<span class=\"side\">b</span>",
        None => "",
    };
    format!("{}{col}", esc(&text.replacen('-', "\u{2212}", 1)))
}

/// The cross-table after the last complete round.
pub fn crosstable(t: &TournamentData) -> String {
    let s = &t.standings;
    let mut main = String::new();
    if t.complete_rounds() == 0 {
        main.push_str(
            "<h2>Cross-table</h2><p class=\"note\">The cross-table appears here once the first \
             round is complete.</p>",
        );
        return tournament_page(t, Tab::Crosstable, "Cross-table", &main);
    }
    let _ = write!(
        main,
        "<h2>Cross-table after round {}</h2>\n<div class=\"wide\"><table class=\"x\">\n<thead><tr>\
         <th class=\"n\">#</th><th>Player</th>",
        s.after_round
    );
    for r in 1..=s.after_round {
        let _ = write!(main, "<th>R{r}</th>");
    }
    main.push_str("<th class=\"n\">Pts</th></tr></thead><tbody>\n");
    for (row, cells) in s.rows.iter().zip(&t.crosstable) {
        let _ = write!(
            main,
            "<tr><td class=\"n\">{}</td><td class=\"name\"><a href=\"/t/{}/player/{}\">{}</a> \
             <span class=\"no\">{}</span></td>",
            row.rank,
            t.id,
            row.id.0,
            esc(&row.name),
            row.id.0
        );
        for c in cells {
            let _ = write!(main, "<td class=\"c\">{}</td>", cell(c));
        }
        let _ = writeln!(main, "<td class=\"n\"><b>{}</b></td></tr>", row.score);
    }
    main.push_str("</tbody></table></div>\n");
    let _ = writeln!(
        main,
        "<p class=\"legend\">{}</p>",
        esc(&CROSS_LEGEND.replace("-5", "\u{2212}5"))
    );
    tournament_page(t, Tab::Crosstable, "Cross-table", &main)
}

fn outcome_text(pr: &PlayerRound) -> (&'static str, &'static str) {
    match pr.entry {
        Entry::Game { outcome, .. } => match outcome {
            GameOutcome::Win => ("Won", "finished"),
            GameOutcome::Loss => ("Lost", "finished"),
            GameOutcome::Draw => ("Draw", "finished"),
            GameOutcome::ForfeitWin => ("Won by forfeit", "finished"),
            GameOutcome::ForfeitLoss => ("Lost by forfeit", "finished"),
            GameOutcome::DoubleForfeit => ("Double forfeit", "finished"),
            GameOutcome::Pending => match pr.state {
                Some(TableState::Playing) => ("Playing", "playing"),
                Some(TableState::Adjudication) => ("Adjudication", "adjudication"),
                _ => ("Awaiting result", "awaiting_result"),
            },
        },
        Entry::Bye => ("Bye", "finished"),
        Entry::Absent => ("Absent", "awaiting_result"),
    }
}

fn player_heading(p: &PublicPlayer) -> String {
    let mut facts = vec![format!("No. {}", p.no), format!("rating {}", p.rating)];
    if let Some(club) = &p.club {
        facts.push(esc(club));
    }
    if p.withdrawn {
        facts.push("withdrawn".into());
    }
    facts.join(" · ")
}

/// "This is me" (follow) and "Alert me" on a player's page: shown by /live.js, which keeps
/// the choice in the browser's own storage (no account); a page without scripts shows
/// neither.
pub(super) fn follow_buttons(t: &TournamentData, no: u32) -> String {
    format!(
        "<p class=\"follow\"><button id=\"follow\" type=\"button\" hidden \
         data-follow=\"{}/{no}\">This is me</button> <button id=\"alert\" type=\"button\" \
         hidden>Alert me</button> <span id=\"alert-note\" class=\"note\"></span></p>\n",
        t.id
    )
}

/// A player's page: where they play now, and every round with opponent, colour, result and
/// score after it.
pub fn player(t: &TournamentData, no: u32) -> Option<String> {
    let p = t.player(no)?;
    let (history, score) = t.record_of(no)?;
    let mut main = String::new();
    let _ = writeln!(
        main,
        "<h2>{}</h2><p class=\"sub\">{}</p>",
        esc(&p.name),
        player_heading(p)
    );
    main.push_str(&follow_buttons(t, no));
    if let Some(r) = t.round_in_play() {
        let _ = writeln!(
            main,
            "<div class=\"now\" data-round=\"{}\">Round {}: {}</div>",
            r.number,
            r.number,
            seat_line(t, r, no)
        );
    }
    // An event of stages has no standings over all its rounds: its stages' pages have them.
    let rank = t
        .standings
        .rows
        .iter()
        .find(|row| row.id.0 == no)
        .filter(|_| t.complete_rounds() > 0 && t.staged.is_none());
    let _ = write!(main, "<p>Score <b>{score}</b>");
    if let Some(row) = rank {
        let _ = write!(
            main,
            " · place <b>{}</b> in the <a href=\"/t/{}/standings\">standings after round {}</a>",
            row.rank,
            t.id,
            t.complete_rounds()
        );
    }
    main.push_str("</p>\n");
    if let Some(path) = stage_path(t, no) {
        main.push_str(&path);
    }
    if history.is_empty() {
        main.push_str("<p class=\"note\">No round played yet.</p>");
    } else {
        // Four columns (the colour as a swatch before the opponent): a 390-pixel phone
        // shows the whole row without scrolling sideways.
        main.push_str(
            "<table class=\"mine\"><thead><tr><th class=\"n\">Rd</th><th>Opponent</th>\
             <th>Result</th><th class=\"n\">Score</th></tr></thead><tbody>\n",
        );
        for pr in history {
            let (opponent, colour) = match pr.entry {
                Entry::Game {
                    opponent, colour, ..
                } => (
                    format!(
                        "{}{}",
                        player_link(t, opponent.0),
                        pr.table.map_or(String::new(), |n| {
                            format!("<br><span class=\"no\">table {n}</span>")
                        })
                    ),
                    match colour {
                        Side::White => "<span class=\"sw\" title=\"White\"></span>",
                        Side::Black => "<span class=\"sk\" title=\"Black\"></span>",
                    },
                ),
                _ => ("–".to_string(), ""),
            };
            let (text, class) = outcome_text(pr);
            let after = pr.score_after.map_or("–".to_string(), |s| s.to_string());
            let _ = writeln!(
                main,
                "<tr><td class=\"n\"><a href=\"/t/{}/round/{}\">{}</a></td><td class=\"name\">{colour}{opponent}</td>\
                 <td class=\"{class}\">{text}</td><td class=\"n\">{after}</td></tr>",
                t.id, pr.round, pr.round
            );
        }
        main.push_str("</tbody></table>\n");
    }
    // The title says where the player sits now: it changes when a round is published.
    let title = t
        .round_in_play()
        .map_or_else(|| p.name.clone(), |r| seat_title(t, r, no, &p.name));
    Some(tournament_page(t, Tab::None, &title, &main))
}

/// The mark of a provisional rating (deviation above 110).
fn provisional_mark(deviation: f64) -> &'static str {
    if deviation > PROVISIONAL_DEVIATION {
        "<span class=\"prov\" title=\"Provisional: deviation above 110\">P</span>"
    } else {
        ""
    }
}

fn rated_player_href(federation_id: &str) -> String {
    format!("/ratings/player/{}", encode_id(federation_id))
}

/// A rating's change as the list prints it, signed ("+12.34", "−5.67", "0.00"), with the
/// class that colours it.
fn change_text(change: f64) -> (String, &'static str) {
    let text = fmt2(change.abs());
    if text == "0.00" {
        (text, "")
    } else if change > 0.0 {
        (format!("+{text}"), "gain")
    } else {
        (format!("\u{2212}{text}"), "loss")
    }
}

fn ratings_header(list: &RatingList) -> String {
    let latest = list
        .latest_event()
        .map_or(String::new(), |d| format!(" · rated events up to {d}"));
    format!(
        "<a class=\"up\" href=\"/\">&#8249; All tournaments</a><h1>Rating list</h1>\
         <p class=\"sub\">Glicko-2 · {}{latest}</p>",
        players_count(list.rows.len() as u32)
    )
}

/// The rating list by rank (or the players whose name or federation id matches the
/// search), with the search form: a plain GET, no script needed.
pub fn ratings(list: &RatingList, query: Option<&str>) -> String {
    let query = query.unwrap_or("").trim();
    let mut main = String::new();
    if list.rows.is_empty() {
        main.push_str(
            "<p class=\"note\">No rated event yet. The list appears here once the director \
             marks a completed tournament rated.</p>\n",
        );
        return page("Rating list", &ratings_header(list), "", &main);
    }
    let _ = writeln!(
        main,
        "<form class=\"find\" action=\"/ratings\" method=\"get\" role=\"search\">\
         <input type=\"search\" name=\"q\" value=\"{}\" placeholder=\"Name or federation id\" \
         aria-label=\"Name or federation id\" autocomplete=\"off\"><button type=\"submit\">Find</button></form>",
        esc(query)
    );
    let rows = list.matching(Some(query));
    if !query.is_empty() {
        let _ = writeln!(
            main,
            "<p class=\"counts\">{} found for “{}” · <a href=\"/ratings\">show everyone</a></p>",
            match rows.len() {
                0 => "Nobody".to_string(),
                n => players_count(n as u32),
            },
            esc(query)
        );
    }
    if !rows.is_empty() {
        main.push_str(
            "<div class=\"wide\"><table>\n<thead><tr><th class=\"n\">#</th><th>Player</th>\
             <th class=\"n\">Rating</th><th class=\"n\" title=\"Rating deviation\">Dev.</th>\
             <th class=\"n\">Games</th><th class=\"n\">Events</th><th>Last event</th></tr></thead>\
             <tbody>\n",
        );
        for r in rows {
            let _ = writeln!(
                main,
                "<tr><td class=\"n\">{}</td><td class=\"name\"><a href=\"{}\">{}</a> \
                 <span class=\"no\">{}</span></td><td class=\"n\"><b>{}</b>{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"c\">{}</td></tr>",
                r.rank,
                esc(&rated_player_href(&r.federation_id)),
                esc(&r.name),
                esc(&r.federation_id),
                fmt2(r.rating),
                provisional_mark(r.deviation),
                fmt2(r.deviation),
                r.games,
                r.events,
                r.last_event.map_or("–".to_string(), |d| d.to_string())
            );
        }
        main.push_str("</tbody></table></div>\n");
    }
    main.push_str(
        "<p class=\"legend\">Glicko-2 ratings over every rated event, one event one rating \
         period. Dev.: the rating deviation, how uncertain the rating is; it grows while a \
         player does not play. <span class=\"prov\">P</span> provisional: deviation above \
         110.</p>\n",
    );
    page("Rating list", &ratings_header(list), "", &main)
}

/// A round number for an axis: `step` times the nearest whole number at or below `x`.
fn floor_to(x: f64, step: f64) -> f64 {
    (x / step).floor() * step
}

/// The rating after each event as a small inline plot: the line of the ratings, the band of
/// one deviation either side, a dot per event (its title says which), ratings on the left
/// and the first and last dates below. Pure SVG: no script, no external file.
fn rating_plot(history: &[PublicRatingEvent]) -> String {
    const W: f64 = 640.0;
    const H: f64 = 220.0;
    const LEFT: f64 = 50.0;
    const RIGHT: f64 = 14.0;
    const TOP: f64 = 10.0;
    const BOTTOM: f64 = 28.0;
    let Some(first) = history.first() else {
        return String::new();
    };
    let last = history.last().unwrap_or(first);
    let days = |d: Date| d.days_since_epoch() as f64;
    let (mut x0, mut x1) = (days(first.date), days(last.date));
    if x1 - x0 < 1.0 {
        x0 -= 15.0;
        x1 += 15.0;
    }
    let low = history
        .iter()
        .map(|e| e.after - e.after_deviation)
        .fold(f64::INFINITY, f64::min);
    let high = history
        .iter()
        .map(|e| e.after + e.after_deviation)
        .fold(f64::NEG_INFINITY, f64::max);
    let step = [25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0]
        .into_iter()
        .find(|s| (high - low) / s <= 5.0)
        .unwrap_or(2000.0);
    let y0 = floor_to(low, step);
    let y1 = floor_to(high, step) + step;
    let x = |d: f64| LEFT + (d - x0) / (x1 - x0) * (W - LEFT - RIGHT);
    let y = |r: f64| TOP + (y1 - r) / (y1 - y0) * (H - TOP - BOTTOM);
    let mut svg = format!(
        "<svg class=\"plot\" viewBox=\"0 0 {W} {H}\" role=\"img\" \
         aria-label=\"Rating after each rated event, with a band of one deviation either side\">\n"
    );
    let mut tick = y0;
    while tick <= y1 + 0.5 {
        let _ = writeln!(
            svg,
            "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{tick:.0}</text>",
            W - RIGHT,
            y(tick),
            y(tick),
            LEFT - 6.0,
            y(tick) + 4.0
        );
        tick += step;
    }
    let mut band: Vec<String> = history
        .iter()
        .map(|e| {
            format!(
                "{:.1},{:.1}",
                x(days(e.date)),
                y(e.after + e.after_deviation)
            )
        })
        .collect();
    band.extend(history.iter().rev().map(|e| {
        format!(
            "{:.1},{:.1}",
            x(days(e.date)),
            y(e.after - e.after_deviation)
        )
    }));
    if history.len() == 1 {
        // One event: a band as wide as a dot.
        let (cx, top, bottom) = (
            x(days(first.date)),
            y(first.after + first.after_deviation),
            y(first.after - first.after_deviation),
        );
        band = vec![
            format!("{:.1},{top:.1}", cx - 6.0),
            format!("{:.1},{top:.1}", cx + 6.0),
            format!("{:.1},{bottom:.1}", cx + 6.0),
            format!("{:.1},{bottom:.1}", cx - 6.0),
        ];
    }
    let _ = writeln!(
        svg,
        "<polygon class=\"band\" points=\"{}\"/>",
        band.join(" ")
    );
    let line: Vec<String> = history
        .iter()
        .map(|e| format!("{:.1},{:.1}", x(days(e.date)), y(e.after)))
        .collect();
    let _ = writeln!(
        svg,
        "<polyline class=\"line\" points=\"{}\"/>",
        line.join(" ")
    );
    for e in history {
        let _ = writeln!(
            svg,
            "<circle class=\"dot\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4.5\"><title>{} · {}: {} ± {}</title></circle>",
            x(days(e.date)),
            y(e.after),
            e.date,
            esc(&e.event),
            fmt2(e.after),
            fmt2(e.after_deviation)
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{LEFT}\" y=\"{:.1}\">{}</text>",
        H - 8.0,
        first.date
    );
    if history.len() > 1 {
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            W - RIGHT,
            H - 8.0,
            last.date
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// A rated player's page: the rating now, a plot of its history, and every rated event
/// (newest first) with the rating before and after, the change, games, score and expected
/// score.
pub fn rated_player(p: &PlayerRatings) -> String {
    let r: &PublicRatingRow = &p.row;
    let header = format!(
        "<a class=\"up\" href=\"/ratings\">&#8249; Rating list</a><h1>{}</h1>\
         <p class=\"sub\">Federation id {} · rank {} of {}</p>",
        esc(&r.name),
        esc(&r.federation_id),
        r.rank,
        p.of
    );
    let mut main = String::new();
    let last = r
        .last_event
        .map_or(String::new(), |d| format!(" · last event {d}"));
    let _ = writeln!(
        main,
        "<div class=\"now\">Rating <b>{}</b> ± {}{} · rank {} of {}<br>\
         <span class=\"note\">{} rated {} in {} {}{last}</span></div>",
        fmt2(r.rating),
        fmt2(r.deviation),
        provisional_mark(r.deviation),
        r.rank,
        p.of,
        r.games,
        if r.games == 1 { "game" } else { "games" },
        r.events,
        if r.events == 1 { "event" } else { "events" },
    );
    if p.history.is_empty() {
        main.push_str(
            "<p class=\"note\">No rated game yet: this is a first rating from the federation's \
             initial list.</p>\n",
        );
    } else {
        main.push_str(&rating_plot(&p.history));
        main.push_str(
            "<h2>Rated events</h2>\n<div class=\"wide\"><table>\n<thead><tr><th>Event</th>\
             <th class=\"n\">Rating</th><th class=\"n\">Change</th><th class=\"n\">Games</th>\
             <th class=\"n\">Score</th><th class=\"n\" title=\"Expected score\">Exp.</th>\
             </tr></thead><tbody>\n",
        );
        for e in p.history.iter().rev() {
            let (change, class) = change_text(e.after - e.before);
            let _ = writeln!(
                main,
                "<tr><td class=\"name\"><a href=\"/t/{}/standings\">{}</a>\
                 <span class=\"dev\">{}</span></td>\
                 <td class=\"n\">{} → <b>{}</b><span class=\"dev\">± {} → ± {}</span></td>\
                 <td class=\"n {class}\">{change}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                e.tournament.0,
                esc(&e.event),
                e.date,
                fmt2(e.before),
                fmt2(e.after),
                fmt2(e.before_deviation),
                fmt2(e.after_deviation),
                e.games,
                e.score,
                fmt2(e.expected)
            );
        }
        main.push_str("</tbody></table></div>\n");
        main.push_str(
            "<p class=\"legend\">Rating: before the event (after any growth of the deviation \
             for the time without play) → after it, with the deviations below. Exp.: the score \
             the ratings expected against these opponents.</p>\n",
        );
    }
    page(
        &format!("{} · Rating list", esc(&r.name)),
        &header,
        "",
        &main,
    )
}

/// The page to print for the wall: the address in large type and its QR code.
pub fn wall(ev: &EventIndex, url: &str, qr_svg: &str) -> String {
    let names: Vec<String> = ev.tournaments.iter().map(|t| esc(&t.name)).collect();
    let main = format!(
        "<style>.wall{{text-align:center}}.wall svg{{width:min(80vw,70vh);height:auto;display:block;margin:18px auto}}\
         .wall .url{{font-size:clamp(22px,6vw,44px);font-weight:700;overflow-wrap:anywhere}}\
         .wall h1{{font-size:clamp(26px,7vw,54px)}}footer{{display:none}}@media print{{.noprint{{display:none}}}}</style>\
         <div class=\"wall\"><h1>Pairings and standings on your phone</h1>\
         <p class=\"sub\">{}</p>{qr_svg}<p class=\"url\">{}</p>\
         <p>Join the venue's Wi-Fi, then scan the code or type the address.<br>\
         Find your name, your table and your opponent; results and standings as they come in.</p>\
         <p class=\"noprint note\">Print this page (Ctrl+P) for the wall.</p></div>\n",
        names.join(" · "),
        esc(url)
    );
    page("Pairings on your phone", "", "", &main)
}

/// Lines on one page of the hall display: at 1920×1080 they fit in type of 30 px.
pub(super) const HALL_LINES: usize = 22;

/// The hall display's slides of an event of players or of stages: each a title and its
/// lines.
fn hall_slides(t: &TournamentData) -> Vec<(String, Vec<String>)> {
    let mut slides: Vec<(String, Vec<String>)> = Vec::new();
    let name_of = |no: u32| {
        t.player(no)
            .map_or_else(|| no.to_string(), |p| p.name.clone())
    };
    // The pairings by name.
    if let Some(r) = t.round_in_play() {
        let mut lines: Vec<(String, String)> = Vec::new();
        for b in &r.boards {
            let part = b
                .part()
                .map_or_else(String::new, |p| format!(" · {}", esc(&p)));
            for (me, other, colour) in [(b.white, b.black, "White"), (b.black, b.white, "Black")] {
                let name = name_of(me);
                lines.push((
                    ggdesk_core::export::print::sort_key(&name),
                    format!(
                        "<span class=\"nm\">{}</span><span class=\"tb\">Table {}</span>\
                         <span class=\"op\">{colour} · vs {}{part}</span>",
                        esc(&name),
                        b.table,
                        esc(&name_of(other))
                    ),
                ));
            }
        }
        for (list, word) in [(&r.byes, "bye"), (&r.absent, "absent")] {
            for &no in list.iter() {
                let name = name_of(no);
                lines.push((
                    ggdesk_core::export::print::sort_key(&name),
                    format!(
                        "<span class=\"nm\">{}</span><span class=\"tb\">{word}</span>\
                         <span class=\"op\"></span>",
                        esc(&name)
                    ),
                ));
            }
        }
        lines.sort();
        let pages = lines.len().div_ceil(HALL_LINES).max(1);
        for (k, chunk) in lines.chunks(HALL_LINES).enumerate() {
            let title = if pages > 1 {
                format!("Round {} · pairings by name ({}/{pages})", r.number, k + 1)
            } else {
                format!("Round {} · pairings by name", r.number)
            };
            slides.push((title, chunk.iter().map(|(_, l)| l.clone()).collect()));
        }
    }
    // The standings, or in an event of stages the current stage's tables.
    let row_line = |rank: u32, name: &str, score: Score, mark: &str| {
        format!(
            "<span class=\"rk\">{rank}</span><span class=\"nm\">{}{mark}</span>\
             <span class=\"sc\">{score}</span>",
            esc(name)
        )
    };
    match &t.staged {
        Some(sd) => {
            if let Some(st) = sd.stages.iter().find(|s| s.number == sd.current) {
                for table in &st.tables {
                    let lines: Vec<String> = table
                        .rows
                        .iter()
                        .map(|r| {
                            let mark = if r.through { " ✓" } else { "" };
                            row_line(r.row.rank, &r.row.name, r.row.score, mark)
                        })
                        .collect();
                    let title = match table.group {
                        Some(g) => format!("{} · group {g}", esc(&st.title())),
                        None => esc(&st.title()),
                    };
                    for chunk in lines.chunks(HALL_LINES) {
                        slides.push((title.clone(), chunk.to_vec()));
                    }
                }
            }
            if let Some(b) = &sd.bracket {
                let lines: Vec<String> = b
                    .rounds
                    .iter()
                    .flatten()
                    .chain(b.third.as_ref())
                    .map(|m| {
                        let side = |i: usize| {
                            let seed = m.seeds[i].map_or_else(String::new, |s| format!("({s}) "));
                            match m.players[i] {
                                Some(p) => format!("{seed}{}", esc(&name_of(p))),
                                None if m.bye => "bye".to_string(),
                                None => format!("{seed}to come"),
                            }
                        };
                        format!(
                            "<span class=\"tb\">{}</span><span class=\"nm\">{} – {}</span>\
                             <span class=\"sc\">{}–{}</span>",
                            esc(&m.id),
                            side(0),
                            side(1),
                            m.score[0],
                            m.score[1]
                        )
                    })
                    .collect();
                for chunk in lines.chunks(HALL_LINES) {
                    slides.push(("The bracket".to_string(), chunk.to_vec()));
                }
            }
        }
        None => {
            let lines: Vec<String> = t
                .standings
                .rows
                .iter()
                .map(|r| row_line(r.rank, &r.name, r.score, ""))
                .collect();
            let pages = lines.len().div_ceil(HALL_LINES).max(1);
            for (k, chunk) in lines.chunks(HALL_LINES).enumerate() {
                let title = if pages > 1 {
                    format!("Standings ({}/{pages})", k + 1)
                } else {
                    "Standings".to_string()
                };
                slides.push((title, chunk.to_vec()));
            }
        }
    }
    slides
}

/// The hall display (`/t/ID/hall`): a page for a projector or a TV, in large type, its
/// slides shown one after the other by `/hall.js` (the pairings by name, paged; the
/// standings, paged; in an event of stages the current stage's groups and the bracket), a
/// QR code to the phone pages in a corner, kept up to date by `/live.js`. Without scripts
/// every slide shows, one under the other.
pub fn hall(t: &TournamentData, url: &str, qr_svg: &str) -> String {
    // A team event: its matches, team standings and board prizes.
    let mut slides = match &t.teams {
        Some(td) => super::team_html::hall_slides(t, td),
        None => hall_slides(t),
    };
    if slides.is_empty() {
        slides.push((
            "Pairings".to_string(),
            vec!["<span class=\"nm\">The pairings appear here as soon as a round is published.</span>".to_string()],
        ));
    }
    let mut body = String::new();
    for (title, lines) in &slides {
        let _ = write!(body, "<section class=\"slide\"><h2>{title}</h2><ol>");
        for l in lines {
            let _ = write!(body, "<li>{l}</li>");
        }
        body.push_str("</ol></section>\n");
    }
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{name} · hall</title><style>{HALL_STYLE}</style>\
         <script src=\"/live.js\" defer></script><script src=\"/hall.js\" defer></script>\
         </head>\n{BODY_TAG}<header><h1>{name}</h1><div class=\"qr\">{qr_svg}\
         <p>{url}</p></div></header>\n<main>\n{body}</main>\n</body></html>\n",
        name = esc(&t.name),
        url = esc(url),
    )
}

/// The hall display's look: large type on a dark screen, one slide at a time once
/// `/hall.js` runs (it marks the page `cycling`).
const HALL_STYLE: &str = "html,body{margin:0;background:#101318;color:#f2f4f7;\
font:30px/1.3 system-ui,-apple-system,\"Segoe UI\",Roboto,\"Noto Sans\",sans-serif}\
header{padding:12px 230px 0 32px}h1{font-size:36px;margin:0 0 6px}\
h2{font-size:32px;margin:0 0 8px;color:#7cb0ff}\
.qr{position:fixed;top:12px;right:24px;text-align:center;font-size:16px;width:180px}\
.qr svg{width:160px;height:160px;background:#fff;padding:6px;box-sizing:border-box}\
.qr p{margin:4px 0 0;overflow-wrap:anywhere}main{padding:0 230px 0 32px}\
ol{list-style:none;margin:0;padding:0}li{display:flex;gap:28px;border-bottom:1px solid #2c3038;padding:1px 0}\
.nm,.op{flex:1;min-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\
.tb{flex:none;width:170px;font-weight:700;color:#fdb022}\
.rk{flex:none;width:70px;text-align:right}.sc{flex:none;width:110px;text-align:right;font-weight:700}\
.hd{color:#7cb0ff;font-weight:700}\
.slide{margin-bottom:28px}.cycling .slide{display:none;margin:0}.cycling .slide.on{display:block}";

/// The hall display's script, `/hall.js`: shows its slides one after the other (every 12
/// seconds, or `?every=S`), and keeps doing so when `/live.js` swaps the page's body in.
pub const HALL_JS: &str = r#""use strict";
(function () {
  var m = /[?&]every=(\d+)/.exec(location.search);
  var every = m ? Math.max(1, +m[1]) * 1000 : 12000;
  var at = 0;
  document.documentElement.classList.add("cycling");
  function show() {
    var slides = document.querySelectorAll(".slide");
    if (!slides.length) return;
    at = at % slides.length;
    for (var k = 0; k < slides.length; k++) {
      slides[k].classList.toggle("on", k === at);
    }
    document.documentElement.setAttribute("data-slide", String(at));
  }
  function start() {
    show();
    setInterval(function () { at += 1; show(); }, every);
    new MutationObserver(function (changes) {
      for (var i = 0; i < changes.length; i++) {
        if (changes[i].target === document.documentElement) { show(); return; }
      }
    }).observe(document.documentElement, { childList: true });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
"#;

/// The page for every address the server does not answer.
pub fn not_found() -> String {
    page(
        "Not found",
        "<a class=\"up\" href=\"/\">&#8249; All tournaments</a><h1>Page not found</h1>",
        "",
        "<p>There is no such page. <a href=\"/\">See the tournaments</a>.</p>\n",
    )
}

/// The one script, `/live.js`: keeps a shown page up to date. It listens to the server's
/// change notices for the page's tournament (`/t/ID/events`, `/ratings/events` for the
/// rating pages, or `/events` for the event's list) and, on each, fetches its own page again (a 304 when it did not change) and swaps the
/// new body in, unless someone is typing in the search box (then when they leave it) or the
/// page is hidden (then when it is shown). Where the browser has no `EventSource` (or no
/// `fetch`), or the server refuses the stream, it reloads the page every 20 seconds instead.
/// The pages work without it.
pub const LIVE_JS: &str = r#""use strict";
(function () {
  var m = /^\/t\/(\d+)(\/|$)/.exec(location.pathname);
  var stream = m ? "/t/" + m[1] + "/events"
    : /^\/ratings(\/|$)/.test(location.pathname) ? "/ratings/events" : "/events";
  var wanted = false, busy = false, polling = false;
  function typing() {
    var a = document.activeElement;
    return !!a && a.tagName === "INPUT";
  }
  function shown() {
    return document.visibilityState === "visible";
  }
  function update() {
    wanted = true;
    if (busy || typing() || !shown()) return;
    wanted = false;
    busy = true;
    fetch(location.href, { cache: "no-cache", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (text === null) return;
        var doc = new DOMParser().parseFromString(text, "text/html");
        // The followed player's banner goes over with the page (decorate() brings it up
        // to date), so that it never blinks out while the page is swapped.
        var me = document.getElementById("me"), into = doc.querySelector("main");
        if (me && into) into.insertBefore(me.cloneNode(true), into.firstChild);
        if (doc.body && doc.body.innerHTML !== document.body.innerHTML) {
          document.title = doc.title;
          document.body.replaceWith(doc.body);
          decorate();
        }
      })
      // Unreachable now: the stream's next "open" brings the page up to date.
      .catch(function () {})
      .then(function () {
        busy = false;
        if (wanted) update();
      });
  }
  function poll() {
    if (polling) return;
    polling = true;
    setInterval(function () {
      if (shown() && !typing()) location.reload();
    }, 20000);
  }
  // "This is me": the followed player ("T/NO") is kept in this browser's own storage. Every
  // page of that tournament (and the list of tournaments) shows their board in the round in
  // play at the top; their own page carries "Alert me", which, once tapped, makes a newly
  // published round vibrate the phone and play a short sound.
  var FOLLOW = "ggdesk-follow", SEEN = "ggdesk-follow-round", ALERT = "ggdesk-alert";
  var audio = null;
  function store(key, value) {
    try {
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
    } catch (e) {}
  }
  function stored(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }
  function note(text) {
    var n = document.getElementById("alert-note");
    if (n) n.textContent = text;
  }
  function ring() {
    var said = [];
    if (navigator.vibrate) navigator.vibrate([300, 120, 300]);
    else said.push("this browser cannot vibrate");
    try {
      if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
      var o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 880;
      g.gain.value = 0.2;
      o.connect(g);
      g.connect(audio.destination);
      o.start();
      o.stop(audio.currentTime + 0.4);
    } catch (e) {
      said.push("this browser plays no sound");
    }
    return said;
  }
  // A round newer than the one last seen for the followed player: say so.
  function seen(round) {
    if (!round) return;
    var before = stored(SEEN);
    store(SEEN, round);
    if (before && before !== round && stored(ALERT) === "1") ring();
  }
  function decorate() {
    var f = stored(FOLLOW);
    var follow = document.getElementById("follow");
    var alert = document.getElementById("alert");
    if (follow) {
      var mine = f === follow.getAttribute("data-follow");
      follow.hidden = false;
      follow.textContent = mine ? "Following: this is me (tap to stop)" : "This is me";
      if (alert) {
        alert.hidden = !mine;
        alert.textContent = stored(ALERT) === "1" ? "Alerts on (tap to stop)" : "Alert me";
      }
      if (mine) {
        var now = document.querySelector(".now[data-round]");
        if (now) seen(now.getAttribute("data-round"));
      }
    }
    if (!f || !window.fetch || !window.DOMParser) return;
    // The hall display is the whole hall's screen: no one's banner there.
    if (/\/hall$/.test(location.pathname)) return;
    var parts = f.split("/");
    if (m && m[1] !== parts[0]) return;
    if (follow && follow.getAttribute("data-follow") === f) return;
    var main = document.querySelector("main");
    if (!main) return;
    var page = "/t/" + parts[0] + "/player/" + parts[1];
    fetch(page, { cache: "no-cache", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (text === null) return;
        var doc = new DOMParser().parseFromString(text, "text/html");
        var now = doc.querySelector(".now");
        var who = doc.querySelector("main h2");
        var banner = document.getElementById("me");
        if (!banner) {
          banner = document.createElement("a");
          banner.id = "me";
          banner.className = "now";
          main.insertBefore(banner, main.firstChild);
        }
        banner.href = page;
        banner.textContent = (who ? who.textContent + " · " : "") +
          (now ? now.textContent : "not paired yet");
        if (now) seen(now.getAttribute("data-round"));
      })
      .catch(function () {});
  }
  document.addEventListener("click", function (e) {
    var id = e.target && e.target.id;
    if (id === "follow") {
      var mine = e.target.getAttribute("data-follow");
      store(FOLLOW, stored(FOLLOW) === mine ? null : mine);
      store(SEEN, null);
      decorate();
    } else if (id === "alert") {
      if (stored(ALERT) === "1") {
        store(ALERT, null);
        note("");
      } else {
        store(ALERT, "1");
        // Browsers allow sound and vibration only after a tap: this one.
        var refused = ring();
        note(refused.length ? refused.join("; ") : "");
      }
      decorate();
    }
  });
  decorate();
  if (!window.EventSource || !window.fetch || !window.DOMParser) {
    poll();
    return;
  }
  var source = new EventSource(stream);
  source.addEventListener("change", update);
  // On every (re)connection: a change may have come while there was no stream.
  source.addEventListener("open", update);
  source.addEventListener("error", function () {
    if (source.readyState === EventSource.CLOSED) poll();
  });
  document.addEventListener("visibilitychange", function () {
    if (wanted) update();
  });
  document.addEventListener("focusout", function () {
    if (wanted) setTimeout(update, 0);
  });
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup_and_no_quote_to_break_out_of() {
        assert_eq!(
            esc("<script>alert(1)</script> & \"x\" 'y'"),
            "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; &#39;y&#39;"
        );
    }
}

/// The event's words are said the same everywhere: a bracket round's title on the desk
/// (each knockout round's place), in the printed bracket and on the public bracket page.
#[cfg(test)]
mod one_vocabulary {
    use crate::serve::public::{StagedData, TournamentData};
    use ggdesk_core::event::words::{bracket_round_title, bracket_rounds};
    use ggdesk_core::event::{Event, RoundKind, read_file};
    use ggdesk_core::export::print::{self, Details};
    use ggdesk_core::tournament::{RoundNo, StageNo};

    /// An event of group round robins and a cross-over knockout of two bracket rounds
    /// (the semi-finals played over two games in one match), finished.
    fn event() -> Event {
        let text = include_str!("../../tests/fixtures/stages/groups-then-cross-over-final.json");
        let value: serde_json::Value = serde_json::from_str(text).expect("json");
        read_file(&value, 0).expect("the file").event
    }

    /// The `<h3>` titles of a page, in order.
    fn titles(html: &str) -> Vec<String> {
        html.split("<h3>")
            .skip(1)
            .filter_map(|s| s.split("</h3>").next())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn a_bracket_round_has_one_name_on_the_desk_in_print_and_on_the_pages() {
        let event = event();
        let staged = event.staged().expect("in stages");
        let bracket = staged.reached()[1].bracket.as_ref().expect("the bracket");
        let count = bracket_rounds(bracket.rounds[0].len());
        assert_eq!(count, 2);
        let names: Vec<String> = (1..=count).map(|r| bracket_round_title(r, count)).collect();
        // Written by hand: the two bracket rounds of a four-player knockout.
        assert_eq!(names, ["Semi-finals", "Final"]);

        // The desk: each knockout round says its bracket round, the semi-finals' second
        // game included.
        let desk: Vec<String> = event
            .rounds()
            .iter()
            .filter(|r| r.stage == StageNo(2) && r.kind == RoundKind::Round)
            .map(|r| event.place_words(r.number))
            .collect();
        assert_eq!(
            desk,
            [
                "Stage 2 · Knockout · Semi-finals",
                "Stage 2 · Knockout · Semi-finals",
                "Stage 2 · Knockout · Final"
            ]
        );

        // The print: a column per bracket round.
        let printed = print::bracket_page(&Details::default(), staged).expect("printed");
        let printed = titles(&printed);
        for name in &names {
            assert!(printed.contains(name), "{name} in the print: {printed:?}");
        }

        // The pages: a heading per bracket round.
        let flat = event.flat().expect("flat");
        let views: Vec<_> = (1..=event.rounds().len())
            .filter_map(|n| event.round_view(RoundNo::from_index(n - 1)))
            .collect();
        let mut data = TournamentData::build(1, &flat, &views);
        data.staged = Some(StagedData::build(staged));
        let page = super::bracket(&data).expect("the bracket page");
        let shown: Vec<String> = titles(&page)
            .into_iter()
            .filter(|t| names.contains(t) || t.starts_with("Round"))
            .collect();
        assert_eq!(shown, names);
    }
}
