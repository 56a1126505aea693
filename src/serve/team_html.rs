//! A team event's pages: each round's matches board by board with the running match score
//! (a board-group stage's or the final's games by table), the team standings of each stage
//! with the spec's columns, a page per team (roster in board order, matches, points), a
//! player's games, and the board prizes. Written as `super::html` writes the other pages
//! (its frame, tabs and helpers), complete without JavaScript and narrow enough for a
//! 390-pixel phone: a match is a card whose boards are a three-column table, and a player's
//! or team's name wraps rather than widening a row.

use super::html::{
    HALL_LINES, Tab, board_result, counts_line, esc, find_form, follow_buttons, player_link,
    rounds_links, tournament_page,
};
use super::public::TournamentData;
use super::teams::{GameLine, MatchBoard, MatchLine, TeamData, TeamRoundData, TeamStageData};
use ggdesk_core::rules::Side;
use ggdesk_core::teams::{
    MatchResult, TeamId, TeamStandings, TeamSystem, TeamTieBreak, board_points,
};
use ggdesk_core::tournament::{GameResult, Score};
use std::fmt::Write;

/// A team tie-break's short column heading and its full name.
fn tiebreak_heading(tb: TeamTieBreak) -> (&'static str, &'static str) {
    match tb {
        TeamTieBreak::GamePoints => ("GP", "Game points"),
        TeamTieBreak::MatchPoints => ("MP", "Match points"),
        TeamTieBreak::DirectEncounter => ("DE", "Direct encounter"),
        TeamTieBreak::Buchholz => ("BH", "Buchholz"),
        TeamTieBreak::SonnebornBerger => ("SB", "Sonneborn-Berger"),
        TeamTieBreak::BoardCount => ("BC", "Board count"),
        TeamTieBreak::Wins => ("W", "Matches won"),
    }
}

fn system_words(s: TeamSystem) -> &'static str {
    match s {
        TeamSystem::Swiss => "team Swiss",
        TeamSystem::RoundRobin => "team round robin",
        TeamSystem::BoardGroups => "board groups",
        TeamSystem::Scheveningen => "Scheveningen final",
    }
}

fn team_link(t: &TournamentData, td: &TeamData, id: TeamId) -> String {
    format!(
        "<a href=\"/t/{}/team/{id}\">{}</a>",
        t.id,
        esc(td.team_name(id))
    )
}

/// A side of a board: the player with their colour, or the empty board.
fn seat(t: &TournamentData, no: Option<u32>, side: Side) -> String {
    let swatch = match side {
        Side::White => "<span class=\"sw\" title=\"White\"></span>",
        Side::Black => "<span class=\"sk\" title=\"Black\"></span>",
    };
    match no {
        Some(no) => format!("{swatch}{}", player_link(t, no)),
        None => "<span class=\"note\">(board left empty)</span>".into(),
    }
}

/// A board's result as the home team's points against the away team's ("1–0" home won the
/// board), or where it stands while pending.
fn board_cell(t: &TournamentData, b: &MatchBoard) -> String {
    if b.result == GameResult::Pending {
        return "<span class=\"awaiting_result\">Awaiting result</span>".into();
    }
    let home_white = b.board % 2 == 1;
    let (home_side, away_side) = if home_white {
        (Side::White, Side::Black)
    } else {
        (Side::Black, Side::White)
    };
    let points = |side| board_points(&t_points(t), b.result, side);
    let (_, note) = board_result(b.result);
    let note = note.map_or(String::new(), |n| format!("<small>{n}</small>"));
    match (points(home_side), points(away_side)) {
        (Some(h), Some(a)) => format!("<span class=\"finished\"><b>{h}–{a}</b></span>{note}"),
        _ => String::new(),
    }
}

/// The points of a game, as the team event counts them: a board's points are the points a
/// game scores in the event (win, draw, loss; a forfeit as a win or a loss).
fn t_points(t: &TournamentData) -> ggdesk_core::tournament::PointsScale {
    t.teams.as_ref().map(|td| td.points).unwrap_or_default()
}

/// The running score of a match, in words under its teams.
fn score_words(m: &MatchLine) -> String {
    let (h, a) = m.score.game_points;
    match m.score.result {
        MatchResult::Pending => {
            let done = m.score.boards.iter().flatten().count();
            format!("{h}–{a} after {done} of {} boards", m.boards.len())
        }
        _ => format!(
            "{h}–{a} · match points {}–{}",
            m.score.match_points.0, m.score.match_points.1
        ),
    }
}

/// A match as a card: its teams with their game points, then its boards.
fn match_card(t: &TournamentData, td: &TeamData, m: &MatchLine) -> String {
    let tables: Vec<u32> = m.boards.iter().filter_map(|b| b.table).collect();
    let where_ = match (tables.first(), tables.last()) {
        (Some(a), Some(b)) if a != b => format!(" · tables {a}–{b}"),
        (Some(a), _) => format!(" · table {a}"),
        _ => String::new(),
    };
    let mut out = format!(
        "<section class=\"tm\"><div class=\"mh\">Match {}{where_}</div>",
        m.table
    );
    for (id, pts) in [
        (m.home, m.score.game_points.0),
        (m.away, m.score.game_points.1),
    ] {
        let _ = write!(
            out,
            "<div class=\"ms\"><span class=\"nm\">{}</span><span class=\"sc\">{pts}</span></div>",
            team_link(t, td, id)
        );
    }
    let _ = write!(
        out,
        "<div class=\"counts\">{}</div><table><thead><tr><th class=\"n\">Bd</th>\
         <th>{} · {}</th><th class=\"n\">Result</th></tr></thead><tbody>",
        score_words(m),
        esc(td.team_name(m.home)),
        esc(td.team_name(m.away))
    );
    for b in &m.boards {
        let (home, away) = if b.board % 2 == 1 {
            (seat(t, b.white, Side::White), seat(t, b.black, Side::Black))
        } else {
            (seat(t, b.black, Side::Black), seat(t, b.white, Side::White))
        };
        let table = b.table.map_or(String::new(), |n| {
            format!(" <span class=\"no\">table {n}</span>")
        });
        let _ = write!(
            out,
            "<tr><td class=\"n\">{}</td><td class=\"name\">{home}<br>{away}{table}</td>\
             <td class=\"r\">{}</td></tr>",
            b.board,
            board_cell(t, b)
        );
    }
    out.push_str("</tbody></table></section>\n");
    out
}

/// A game of a board-group stage, the final or a playoff, as a row.
fn game_row(t: &TournamentData, g: &GameLine) -> String {
    let group = g.board_group.map_or(String::new(), |b| {
        format!("<div class=\"no\">Board group B{b}</div>")
    });
    let (text, note) = board_result(g.result);
    let result = if g.result == GameResult::Pending {
        "<span class=\"awaiting_result\">Awaiting result</span>".to_string()
    } else {
        let note = note.map_or(String::new(), |n| format!("<small>{n}</small>"));
        format!("<span class=\"finished\"><b>{text}</b>{note}</span>")
    };
    format!(
        "<li><div class=\"tno\"><small>Table</small>{}</div><div class=\"who\">{group}\
         <div>{}</div><div>{}</div></div><div class=\"st\">{result}</div></li>\n",
        g.table,
        seat(t, Some(g.white), Side::White),
        seat(t, Some(g.black), Side::Black)
    )
}

fn round_heading(td: &TeamData, r: &TeamRoundData) -> String {
    let stage = td
        .stages
        .get(r.stage.saturating_sub(1))
        .map(TeamStageData::title)
        .unwrap_or_default();
    if r.playoff {
        format!("Round {} · {} · playoff", r.number, esc(&stage))
    } else {
        format!("Round {} · {}", r.number, esc(&stage))
    }
}

/// A round of a team event: its matches board by board, its team byes, or its games.
pub fn round(t: &TournamentData, td: &TeamData, number: Option<u32>) -> Option<String> {
    let r = match number {
        Some(n) => Some(td.round(n)?),
        None => td.round_in_play(),
    };
    let Some(r) = r else {
        let main = format!(
            "<h2>No round published yet</h2><p class=\"note\">The matches appear here as soon \
             as the director publishes them.</p>{}",
            find_form(t, "")
        );
        return Some(tournament_page(t, Tab::Round, "Matches", &main));
    };
    let in_play = td.round_in_play().is_some_and(|p| p.number == r.number);
    let mut main = format!("<h2>{}</h2>", round_heading(td, r));
    if let Some(pr) = t.round(r.number) {
        let _ = writeln!(main, "<p class=\"counts\">{}</p>", counts_line(pr));
    }
    if in_play {
        main.push_str(&find_form(t, ""));
    }
    for m in &r.matches {
        main.push_str(&match_card(t, td, m));
    }
    if !r.byes.is_empty() {
        let names: Vec<String> = r.byes.iter().map(|id| team_link(t, td, *id)).collect();
        let _ = writeln!(main, "<p><b>Bye:</b> {}</p>", names.join(", "));
    }
    if !r.games.is_empty() {
        main.push_str("<ul class=\"list\">\n");
        for g in &r.games {
            main.push_str(&game_row(t, g));
        }
        main.push_str("</ul>\n");
    }
    main.push_str(&rounds_links(t, r.number));
    Some(tournament_page(
        t,
        if in_play { Tab::Round } else { Tab::None },
        &format!("Round {}", r.number),
        &main,
    ))
}

/// A stage's team standings as a table: rank, team, match points, game points, then the
/// stage's tie-breaks in order.
fn standings_table(t: &TournamentData, td: &TeamData, s: &TeamStandings) -> String {
    let mut out = String::from(
        "<div class=\"wide\"><table class=\"teams\">\n<thead><tr><th class=\"n\">#</th>\
         <th>Team</th><th class=\"n\" title=\"Match points\">MP</th>\
         <th class=\"n\" title=\"Game points\">GP</th>",
    );
    for &tb in &s.tiebreaks {
        let (short, long) = tiebreak_heading(tb);
        let _ = write!(out, "<th class=\"n\" title=\"{long}\">{short}</th>");
    }
    out.push_str("</tr></thead><tbody>\n");
    for row in &s.rows {
        let _ = write!(
            out,
            "<tr><td class=\"n\">{}</td><td class=\"name\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td>",
            row.rank,
            team_link(t, td, row.team),
            row.match_points,
            row.game_points
        );
        for v in &row.tiebreaks {
            let _ = write!(out, "<td class=\"n\">{v}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    out
}

fn standings_legend(td: &TeamData, s: &TeamStandings) -> String {
    let primary = match td.primary {
        ggdesk_core::teams::Primary::MatchPoints => "match points",
        ggdesk_core::teams::Primary::GamePoints => "game points",
    };
    let mut parts = vec!["MP: match points".to_string(), "GP: game points".into()];
    parts.extend(s.tiebreaks.iter().map(|&tb| {
        let (short, long) = tiebreak_heading(tb);
        format!("{short}: {long}")
    }));
    format!(
        "<p class=\"legend\">Teams are ordered by {primary}, then the tie-breaks in this \
         order. {}.</p>\n",
        parts.join(" · ")
    )
}

/// The team standings of every stage begun (the current one first), the final placement
/// once the event is over, and the teams.
pub fn standings(t: &TournamentData, td: &TeamData) -> String {
    let mut main = String::new();
    if let Some(place) = &td.placement {
        main.push_str("<h2>Final placement</h2><table><tbody>\n");
        for p in place {
            let _ = writeln!(
                main,
                "<tr><td class=\"n\">{}</td><td class=\"name\">{}</td></tr>",
                p.place,
                team_link(t, td, p.team)
            );
        }
        main.push_str("</tbody></table>\n");
    }
    let mut shown = 0;
    for st in td.stages.iter().rev() {
        let Some(s) = &st.standings else { continue };
        if st.number != td.current && !td.rounds.iter().any(|r| r.stage == st.number) {
            continue;
        }
        let _ = writeln!(
            main,
            "<h2>{} · {}</h2>",
            esc(&st.title()),
            system_words(st.system)
        );
        if s.rows.is_empty() {
            main.push_str("<p class=\"note\">No team yet.</p>");
            continue;
        }
        main.push_str(&standings_table(t, td, s));
        main.push_str(&standings_legend(td, s));
        if let Some(n) = st.advance {
            let _ = writeln!(
                main,
                "<p class=\"note\">The top {n} teams go on to the next stage.</p>"
            );
        }
        shown += 1;
    }
    if shown == 0 && td.placement.is_none() {
        main.push_str(
            "<h2>Standings</h2><p class=\"note\">The standings appear here once the first \
             round is published.</p>",
        );
    }
    main.push_str("<h2>Teams</h2><ul class=\"list\">\n");
    for team in &td.teams {
        let _ = writeln!(
            main,
            "<li><div class=\"who\"><div>{}</div><div class=\"no\">{} players</div></div></li>",
            team_link(t, td, team.id),
            team.roster.len()
        );
    }
    main.push_str("</ul>\n");
    tournament_page(t, Tab::Standings, "Team standings", &main)
}

/// A team's page: its roster in board order (reserves after the first B), its matches with
/// their scores, its byes, and its line in the current standings.
pub fn team(t: &TournamentData, td: &TeamData, id: u32) -> Option<String> {
    let id = TeamId(id);
    let team = td.team(id)?;
    let mut main = format!("<h2>{}</h2>", esc(&team.name));
    if let Some((st, s)) = td.current_standings()
        && let Some(row) = s.rows.iter().find(|r| r.team == id)
    {
        let _ = writeln!(
            main,
            "<p>Place <b>{}</b> · match points <b>{}</b> · game points <b>{}</b> in the \
             <a href=\"/t/{}/standings\">standings</a> of {}</p>",
            row.rank,
            row.match_points,
            row.game_points,
            t.id,
            esc(&st.title())
        );
    }
    main.push_str(
        "<h3>Roster</h3><table><thead><tr><th class=\"n\">Bd</th><th>Player</th>\
         <th class=\"n\">Rating</th></tr></thead><tbody>\n",
    );
    for (i, &no) in team.roster.iter().enumerate() {
        let mut notes = Vec::new();
        if team.captain == Some(no) {
            notes.push("captain");
        }
        if i >= td.boards {
            notes.push("reserve");
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!(" <span class=\"note\">({})</span>", notes.join(", "))
        };
        let board = if i < td.boards {
            (i + 1).to_string()
        } else {
            "–".into()
        };
        let rating = t.player(no).map_or(String::new(), |p| p.rating.to_string());
        let _ = writeln!(
            main,
            "<tr><td class=\"n\">{board}</td><td class=\"name\">{}{notes}</td>\
             <td class=\"n\">{rating}</td></tr>",
            player_link(t, no)
        );
    }
    main.push_str("</tbody></table>\n");
    let matches = td.matches_of(id);
    let byes = td.byes_of(id);
    if !matches.is_empty() || !byes.is_empty() {
        main.push_str(
            "<h3>Matches</h3><table><thead><tr><th class=\"n\">Rd</th><th>Opponent</th>\
             <th class=\"n\">GP</th><th class=\"n\">MP</th></tr></thead><tbody>\n",
        );
        let mut rows: Vec<(u32, String)> = matches
            .iter()
            .map(|(r, m)| {
                let opponent = m.opponent_of(id).map_or(String::new(), |o| team_link(t, td, o));
                let (gp_for, gp_against) = if m.home == id {
                    m.score.game_points
                } else {
                    (m.score.game_points.1, m.score.game_points.0)
                };
                let mp = match m.score.result {
                    MatchResult::Pending => "–".to_string(),
                    _ => m
                        .points_of(id)
                        .map_or(String::new(), |(_, mp)| mp.to_string()),
                };
                (
                    r.number,
                    format!(
                        "<tr><td class=\"n\"><a href=\"/t/{}/round/{}\">{}</a></td>\
                         <td class=\"name\">{opponent}</td><td class=\"n\">{gp_for}–{gp_against}</td>\
                         <td class=\"n\">{mp}</td></tr>",
                        t.id, r.number, r.number
                    ),
                )
            })
            .collect();
        rows.extend(byes.iter().map(|&n| {
            (
                n,
                format!(
                    "<tr><td class=\"n\">{n}</td><td class=\"name\">Bye</td><td class=\"n\">\
                     </td><td class=\"n\"></td></tr>"
                ),
            )
        }));
        rows.sort_by_key(|(n, _)| *n);
        for (_, row) in rows {
            main.push_str(&row);
            main.push('\n');
        }
        main.push_str("</tbody></table>\n");
    }
    Some(tournament_page(t, Tab::None, &team.name, &main))
}

/// Where a player of a team event is in a round.
enum Now<'a> {
    /// On a board: of a match (with its board number), of a board group, or of the final.
    Seat {
        table: Option<u32>,
        board: Option<usize>,
        group: Option<usize>,
        side: Side,
        opponent: Option<u32>,
        result: GameResult,
        of: Option<&'a MatchLine>,
    },
    /// Their team plays (in this match, if it is one) without them.
    NotInLineUp(Option<&'a MatchLine>),
    /// Their team has the round's bye.
    TeamBye,
    /// Their team does not play this round.
    NotPlaying,
}

fn now_of<'a>(td: &TeamData, r: &'a TeamRoundData, no: u32) -> Now<'a> {
    let team = td.team_of(no).map(|(t, _)| t);
    for m in &r.matches {
        for b in &m.boards {
            let (side, opponent) = if b.white == Some(no) {
                (Side::White, b.black)
            } else if b.black == Some(no) {
                (Side::Black, b.white)
            } else {
                continue;
            };
            return Now::Seat {
                table: b.table,
                board: Some(b.board),
                group: None,
                side,
                opponent,
                result: b.result,
                of: Some(m),
            };
        }
    }
    for g in &r.games {
        let (side, opponent) = if g.white == no {
            (Side::White, g.black)
        } else if g.black == no {
            (Side::Black, g.white)
        } else {
            continue;
        };
        return Now::Seat {
            table: Some(g.table),
            board: None,
            group: g.board_group,
            side,
            opponent: Some(opponent),
            result: g.result,
            of: None,
        };
    }
    let Some(team) = team else {
        return Now::NotPlaying;
    };
    if let Some(m) = r
        .matches
        .iter()
        .find(|m| m.home == team.id || m.away == team.id)
    {
        return Now::NotInLineUp(Some(m));
    }
    if r.byes.contains(&team.id) {
        return Now::TeamBye;
    }
    let mate = |p: u32| team.roster.contains(&p);
    if r.games.iter().any(|g| mate(g.white) || mate(g.black)) {
        return Now::NotInLineUp(None);
    }
    Now::NotPlaying
}

fn colour_word(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::White => ("White", "sw"),
        Side::Black => ("Black", "sk"),
    }
}

/// The name of a player's team, in brackets after their name; empty when they have none.
fn team_in_brackets(td: &TeamData, no: u32) -> String {
    td.team_of(no)
        .map_or(String::new(), |(team, _)| format!(" ({})", esc(&team.name)))
}

/// Where the player is in the round in play, in a few words: "Table 7 · Board 2 · White ·
/// vs Cruz, Ben (Cebu Colonels) · Awaiting result", "not in the line-up", "team bye".
fn now_line(t: &TournamentData, td: &TeamData, now: &Now<'_>) -> String {
    match now {
        Now::Seat {
            table,
            board,
            group,
            side,
            opponent,
            result,
            ..
        } => {
            let mut parts = Vec::new();
            if let Some(n) = table {
                parts.push(format!("<b>Table {n}</b>"));
            }
            if let Some(b) = board {
                parts.push(format!("Board {b}"));
            }
            if let Some(g) = group {
                parts.push(format!("Board group B{g}"));
            }
            let (colour, swatch) = colour_word(*side);
            parts.push(format!("<span class=\"{swatch}\"></span>{colour}"));
            parts.push(match opponent {
                Some(o) => format!(
                    "vs <a href=\"/t/{}/player/{o}\">{}</a>{}",
                    t.id,
                    esc(t.name(*o)),
                    team_in_brackets(td, *o)
                ),
                None => "no opponent: the other team left the board empty".into(),
            });
            parts.push(if *result == GameResult::Pending {
                "<span class=\"awaiting_result\">Awaiting result</span>".into()
            } else {
                let (text, note) = board_result(*result);
                let note = note.map_or(String::new(), |n| format!(" <small>{n}</small>"));
                format!("<span class=\"finished\"><b>{text}</b>{note}</span>")
            });
            parts.join(" · ")
        }
        Now::NotInLineUp(_) => "<b>Not in the line-up</b> this round".into(),
        Now::TeamBye => "<b>Team bye</b>".into(),
        Now::NotPlaying => "<span class=\"note\">Not playing this round</span>".into(),
    }
}

/// The page title of a player of a team event: where they sit in the round in play,
/// `Table 7 · Board 2 · White · vs Cruz (Cebu Colonels)` (the opponent's name up to its
/// comma), `Team bye · NAME`, `Not in the line-up · NAME`, or their name.
fn now_title(td: &TeamData, t: &TournamentData, now: &Now<'_>, name: &str) -> String {
    match now {
        Now::Seat {
            table,
            board,
            group,
            side,
            opponent,
            ..
        } => {
            let mut parts = Vec::new();
            if let Some(n) = table {
                parts.push(format!("Table {n}"));
            }
            if let Some(b) = board {
                parts.push(format!("Board {b}"));
            }
            if let Some(g) = group {
                parts.push(format!("B{g}"));
            }
            parts.push(colour_word(*side).0.to_string());
            if let Some(o) = opponent {
                let other = t.player(*o).map_or(String::new(), |p| p.name.clone());
                let short = other.split(',').next().unwrap_or("").trim().to_string();
                let team = td
                    .team_of(*o)
                    .map_or(String::new(), |(team, _)| format!(" ({})", team.name));
                parts.push(format!("vs {short}{team}"));
            }
            parts.join(" · ")
        }
        Now::NotInLineUp(_) => format!("Not in the line-up · {name}"),
        Now::TeamBye => format!("Team bye · {name}"),
        Now::NotPlaying => name.to_string(),
    }
}

/// A match in a line under the player's board: its number, its teams and its score.
fn match_line(t: &TournamentData, td: &TeamData, r: &TeamRoundData, m: &MatchLine) -> String {
    format!(
        "<p class=\"sub\"><a href=\"/t/{}/round/{}\">Match {}</a>: {} vs {} · {}</p>\n",
        t.id,
        r.number,
        m.table,
        team_link(t, td, m.home),
        team_link(t, td, m.away),
        score_words(m)
    )
}

/// A player of a team event: at the top where they play in the round in play (table,
/// board, colour, opponent and their team, the match) with the follow and alert buttons,
/// their team's place, then every game they played with their points.
pub fn player(t: &TournamentData, td: &TeamData, no: u32) -> Option<String> {
    let p = t.player(no)?;
    let mut main = format!("<h2>{}</h2>", esc(&p.name));
    let team = td.team_of(no);
    if let Some((team, place)) = team {
        let role = if place <= td.boards {
            format!("board {place}")
        } else {
            "reserve".into()
        };
        let _ = writeln!(
            main,
            "<p class=\"sub\">No. {no} · rating {} · {} · {role}</p>",
            p.rating,
            team_link(t, td, team.id)
        );
    }
    main.push_str(&follow_buttons(t, no));
    let title = match td.round_in_play() {
        Some(r) => {
            let now = now_of(td, r, no);
            let _ = writeln!(
                main,
                "<div class=\"now\" data-round=\"{}\">Round {}: {}</div>",
                r.number,
                r.number,
                now_line(t, td, &now)
            );
            match &now {
                Now::Seat { of: Some(m), .. } | Now::NotInLineUp(Some(m)) => {
                    main.push_str(&match_line(t, td, r, m));
                }
                _ => {}
            }
            now_title(td, t, &now, &p.name)
        }
        None => {
            main.push_str("<div class=\"now\">Not paired yet</div>\n");
            p.name.clone()
        }
    };
    if let Some((team, _)) = team
        && let Some((st, s)) = td.current_standings()
        && let Some(row) = s.rows.iter().find(|r| r.team == team.id)
        && td.rounds.iter().any(TeamRoundData::complete)
    {
        let _ = writeln!(
            main,
            "<p>{}: place <b>{}</b> · match points <b>{}</b> · game points <b>{}</b> in the \
             <a href=\"/t/{}/standings\">standings</a> of {}</p>",
            esc(&team.name),
            row.rank,
            row.match_points,
            row.game_points,
            t.id,
            esc(&st.title())
        );
    }
    let mut rows = String::new();
    let points = t_points(t);
    let mut total = Score::ZERO;
    let mut games = 0;
    for r in &td.rounds {
        let boards = r
            .matches
            .iter()
            .flat_map(|m| {
                m.boards
                    .iter()
                    .map(|b| (Some(b.board), b.table, b.white, b.black, b.result))
            })
            .chain(r.games.iter().map(|g| {
                (
                    g.board_group,
                    Some(g.table),
                    Some(g.white),
                    Some(g.black),
                    g.result,
                )
            }));
        for (board, table, white, black, result) in boards {
            let (side, opponent) = if white == Some(no) {
                (Side::White, black)
            } else if black == Some(no) {
                (Side::Black, white)
            } else {
                continue;
            };
            let got = board_points(&points, result, side);
            total += got.unwrap_or(Score::ZERO);
            games += usize::from(got.is_some());
            let text = match got {
                None => "<span class=\"awaiting_result\">Awaiting result</span>".to_string(),
                Some(s) => format!("<span class=\"finished\">{s}</span>"),
            };
            let under = |o: u32| {
                let team = td
                    .team_of(o)
                    .map_or(String::new(), |(team, _)| esc(&team.name));
                let table = table.map_or(String::new(), |n| format!(" · table&nbsp;{n}"));
                format!("<br><span class=\"no\">{team}{table}</span>")
            };
            let _ = writeln!(
                rows,
                "<tr><td class=\"n\"><a href=\"/t/{}/round/{}\">{}</a></td><td class=\"n\">{}</td>\
                 <td class=\"name\">{}</td><td class=\"n\">{text}</td></tr>",
                t.id,
                r.number,
                r.number,
                board.map_or("–".to_string(), |b| b.to_string()),
                match opponent {
                    Some(o) => format!(
                        "<span class=\"{}\" title=\"{}\"></span>{}{}",
                        colour_word(side).1,
                        colour_word(side).0,
                        player_link(t, o),
                        under(o)
                    ),
                    None => "<span class=\"note\">(board left empty)</span>".into(),
                }
            );
        }
    }
    if rows.is_empty() {
        main.push_str("<p class=\"note\">No game played yet.</p>");
    } else {
        let _ = write!(
            main,
            "<p>Points <b>{total}</b> from {games} {}</p><table class=\"mine\"><thead><tr>\
             <th class=\"n\">Rd</th><th class=\"n\">Bd</th><th>Opponent</th>\
             <th class=\"n\">Pts</th></tr></thead><tbody>\n{rows}</tbody></table>\n",
            if games == 1 { "game" } else { "games" }
        );
    }
    Some(tournament_page(t, Tab::None, &title, &main))
}

/// Lines a board's players take on a slide of the hall's board prizes.
const HALL_PRIZE_ROWS: usize = 5;

/// Lines cut into slides of at most `HALL_LINES` lines, each block (a match with its boards,
/// a board with its leaders) kept whole on one slide where it fits; the slides titled
/// `title`, numbered when more than one.
fn hall_pages(title: &str, blocks: Vec<Vec<String>>) -> Vec<(String, Vec<String>)> {
    let mut pages: Vec<Vec<String>> = Vec::new();
    let mut page: Vec<String> = Vec::new();
    for block in blocks {
        if !page.is_empty() && page.len() + block.len() > HALL_LINES {
            pages.push(std::mem::take(&mut page));
        }
        for line in block {
            if page.len() == HALL_LINES {
                pages.push(std::mem::take(&mut page));
            }
            page.push(line);
        }
    }
    if !page.is_empty() {
        pages.push(page);
    }
    let n = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(k, lines)| {
            let title = if n > 1 {
                format!("{title} ({}/{n})", k + 1)
            } else {
                title.to_string()
            };
            (title, lines)
        })
        .collect()
}

/// A result for the hall: "1–0", or "…" while it is awaited.
fn hall_result(result: GameResult) -> String {
    if result == GameResult::Pending {
        "…".into()
    } else {
        board_result(result).0.into()
    }
}

/// The hall display's slides of a team event: the round in play's matches board by board
/// (a board-group stage's or the final's games by table), paged, each match kept on one
/// slide; the current stage's team standings; the board prizes' leaders.
pub fn hall_slides(t: &TournamentData, td: &TeamData) -> Vec<(String, Vec<String>)> {
    let mut slides = Vec::new();
    let name_of = |no: Option<u32>| match no {
        Some(no) => esc(t.name(no)),
        None => "(empty)".to_string(),
    };
    if let Some(r) = td.round_in_play() {
        let mut blocks: Vec<Vec<String>> = Vec::new();
        for m in &r.matches {
            let (h, a) = m.score.game_points;
            let mut block = vec![format!(
                "<span class=\"tb\">Match {}</span><span class=\"nm hd\">{} – {}</span>\
                 <span class=\"sc\">{h}–{a}</span>",
                m.table,
                esc(td.team_name(m.home)),
                esc(td.team_name(m.away))
            )];
            for b in &m.boards {
                let table = b
                    .table
                    .map_or_else(|| format!("Bd {}", b.board), |n| format!("Table {n}"));
                block.push(format!(
                    "<span class=\"tb\">{table}</span><span class=\"nm\">{}. {} – {}</span>\
                     <span class=\"sc\">{}</span>",
                    b.board,
                    name_of(b.white),
                    name_of(b.black),
                    hall_result(b.result)
                ));
            }
            blocks.push(block);
        }
        if !r.byes.is_empty() {
            let names: Vec<String> = r.byes.iter().map(|id| esc(td.team_name(*id))).collect();
            blocks.push(vec![format!(
                "<span class=\"tb\">Bye</span><span class=\"nm\">{}</span>",
                names.join(", ")
            )]);
        }
        blocks.extend(r.games.iter().map(|g| {
            let group = g.board_group.map_or(String::new(), |b| format!("B{b} · "));
            vec![format!(
                "<span class=\"tb\">Table {}</span><span class=\"nm\">{group}{} – {}</span>\
                 <span class=\"sc\">{}</span>",
                g.table,
                name_of(Some(g.white)),
                name_of(Some(g.black)),
                hall_result(g.result)
            )]
        }));
        slides.extend(hall_pages(&round_heading(td, r), blocks));
    }
    if let Some((st, s)) = td.current_standings()
        && !s.rows.is_empty()
        && !td.rounds.is_empty()
    {
        let mut lines = vec![
            "<span class=\"rk\">#</span><span class=\"nm hd\">Team</span>\
             <span class=\"sc hd\">MP</span><span class=\"sc hd\">GP</span>"
                .to_string(),
        ];
        lines.extend(s.rows.iter().map(|row| {
            format!(
                "<span class=\"rk\">{}</span><span class=\"nm\">{}</span>\
                 <span class=\"sc\">{}</span><span class=\"sc\">{}</span>",
                row.rank,
                esc(td.team_name(row.team)),
                row.match_points,
                row.game_points
            )
        }));
        let blocks = lines.into_iter().map(|l| vec![l]).collect();
        slides.extend(hall_pages(
            &format!("Team standings · {}", esc(&st.title())),
            blocks,
        ));
    }
    let blocks: Vec<Vec<String>> = td
        .prizes
        .iter()
        .filter(|(_, rows)| !rows.is_empty())
        .map(|(board, rows)| {
            let mut block = vec![format!(
                "<span class=\"tb\">Board {board}</span><span class=\"nm hd\"></span>\
                 <span class=\"sc hd\">Pts</span><span class=\"rk hd\">G</span>\
                 <span class=\"sc hd\">%</span>"
            )];
            block.extend(rows.iter().take(HALL_PRIZE_ROWS).enumerate().map(|(i, r)| {
                let team = r
                    .team
                    .map_or(String::new(), |id| format!(" ({})", esc(td.team_name(id))));
                format!(
                    "<span class=\"tb\">{}</span><span class=\"nm\">{}{team}</span>\
                     <span class=\"sc\">{}</span><span class=\"rk\">{}</span>\
                     <span class=\"sc\">{}</span>",
                    i + 1,
                    esc(t.name(r.id.0)),
                    r.points,
                    r.games,
                    percentage(r.percentage_cents)
                )
            }));
            block
        })
        .collect();
    slides.extend(hall_pages("Board prizes", blocks));
    slides
}

/// The board prizes: for each board, its players by percentage, then games.
pub fn boards(t: &TournamentData, td: &TeamData) -> String {
    let mut main = String::from("<h2>Board prizes</h2>");
    for (board, rows) in &td.prizes {
        let _ = writeln!(
            main,
            "<h3>Board {board}</h3><table><thead><tr><th class=\"n\">#</th><th>Player</th>\
             <th class=\"n\" title=\"Games\">G</th><th class=\"n\" title=\"Points\">Pts</th>\
             <th class=\"n\">%</th></tr></thead><tbody>"
        );
        if rows.is_empty() {
            main.push_str("<tr><td></td><td class=\"note\">No game yet.</td></tr>\n");
        }
        for (i, r) in rows.iter().enumerate() {
            let team = r.team.map_or(String::new(), |id| {
                format!("<br><span class=\"no\">{}</span>", esc(td.team_name(id)))
            });
            let _ = writeln!(
                main,
                "<tr><td class=\"n\">{}</td><td class=\"name\">{}{team}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                i + 1,
                player_link(t, r.id.0),
                r.games,
                r.points,
                percentage(r.percentage_cents)
            );
        }
        main.push_str("</tbody></table>\n");
    }
    main.push_str(
        "<p class=\"legend\">Every game played on the board counts (a forfeit too, a bye \
         not): the percentage of the points a player could have won, then more games, then \
         rating.</p>\n",
    );
    tournament_page(t, Tab::Boards, "Board prizes", &main)
}

/// A percentage in hundredths of a percent as the prints write it: `75`, `66.67`.
pub fn percentage(cents: i64) -> String {
    if cents % 100 == 0 {
        format!("{}", cents / 100)
    } else {
        format!("{}.{:02}", cents / 100, cents % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(tag: &str, n: usize) -> Vec<String> {
        (0..n).map(|i| format!("{tag}{i}")).collect()
    }

    #[test]
    fn the_hall_pages_keep_a_match_whole_and_number_the_slides() {
        // Seven matches of a heading and three boards: five fit a slide of 22 lines.
        let blocks: Vec<Vec<String>> = (0..7).map(|m| block(&format!("m{m}."), 4)).collect();
        let pages = hall_pages("Round 3 · Swiss", blocks);
        let shape: Vec<(&str, usize)> = pages.iter().map(|(t, l)| (t.as_str(), l.len())).collect();
        assert_eq!(
            shape,
            [("Round 3 · Swiss (1/2)", 20), ("Round 3 · Swiss (2/2)", 8)]
        );
        assert_eq!(
            pages[1].1[0], "m5.0",
            "the sixth match starts the next slide"
        );
        // One slide: no number. A block longer than a slide is cut where the slide ends.
        let pages = hall_pages("Board prizes", vec![block("b", 3)]);
        assert_eq!(pages, [("Board prizes".to_string(), block("b", 3))]);
        let pages = hall_pages("Long", vec![block("x", HALL_LINES + 2)]);
        let sizes: Vec<usize> = pages.iter().map(|(_, l)| l.len()).collect();
        assert_eq!(sizes, [HALL_LINES, 2]);
        assert!(hall_pages("None", Vec::new()).is_empty());
    }
}
