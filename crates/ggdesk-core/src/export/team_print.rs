//! Printable pages of a team event (`spec/teams.md`, "The desk, the pages, the prints"):
//! the pairings of a round by table, a match slip per match (its B boards, a result box
//! and the running totals per board, the signatures of both captains and the arbiter),
//! a line-up sheet per team for its captain to hand in, the team standings of a stage and
//! the board prizes. Each page carries the tournament's details as its header (see
//! [`super::print`]) and fits A4 portrait.
//!
//! Pure: the team event and plain values in, a complete HTML document out, every name
//! escaped. No page shows anything of a game but its players and its result.

use super::forms::html_escape;
use super::print::{Details, page_styled};
use crate::event::words::result_short;
use crate::teams::{
    BoardPrizes, Primary, TeamEvent, TeamId, TeamMatch, TeamRound, TeamStandings, TeamTieBreak,
    board_table,
};
use crate::tournament::{GameResult, PlayerId};

/// The rules the team prints add to the common style: boxes to write in, one sheet a page.
const TEAM_STYLE: &str = "@page{size:A4 portrait;margin:1.2cm}\
.box{display:inline-block;width:2.2em;height:1.4em;border:1px solid #111;vertical-align:middle}\
td.mark{width:3em;text-align:center}.team{font-size:.8em;color:#444}\
tr.match td{background:#f3f3f3;font-weight:bold}\
.slip table{margin-top:.3em}.slip .sign div{width:11em}\
.sheet{page-break-after:always;break-after:page}.sheet:last-child{page-break-after:auto}\
.totals{margin-top:.6em}.totals .box{width:3em}";

/// A team tie-break's title in a column head.
pub fn team_tiebreak_title(t: TeamTieBreak) -> &'static str {
    match t {
        TeamTieBreak::GamePoints => "Game points",
        TeamTieBreak::MatchPoints => "Match points",
        TeamTieBreak::DirectEncounter => "Direct encounter",
        TeamTieBreak::Buchholz => "Buchholz",
        TeamTieBreak::SonnebornBerger => "Sonneborn-Berger",
        TeamTieBreak::BoardCount => "Board count",
        TeamTieBreak::Wins => "Wins",
    }
}

/// A team tie-break as a sentence says it ("Ranked by match points, then board count"):
/// the column title in lower case, but for the names of Buchholz and Sonneborn-Berger.
pub fn team_tiebreak_words(t: TeamTieBreak) -> &'static str {
    match t {
        TeamTieBreak::GamePoints => "game points",
        TeamTieBreak::MatchPoints => "match points",
        TeamTieBreak::DirectEncounter => "direct encounter",
        TeamTieBreak::Buchholz => "Buchholz",
        TeamTieBreak::SonnebornBerger => "Sonneborn-Berger",
        TeamTieBreak::BoardCount => "board count",
        TeamTieBreak::Wins => "wins",
    }
}

/// A percentage in hundredths (`8000`) in words (`80%`, `66.67%`).
pub fn percentage_words(cents: i64) -> String {
    if cents % 100 == 0 {
        format!("{}%", cents / 100)
    } else {
        format!("{}.{:02}%", cents / 100, cents % 100)
    }
}

fn team_name(e: &TeamEvent, t: TeamId) -> String {
    html_escape(
        &e.team(t)
            .map_or_else(|| format!("Team {t}"), |x| x.name.clone()),
    )
}

fn player_name(e: &TeamEvent, p: PlayerId) -> String {
    html_escape(
        &e.player(p)
            .map_or_else(|| p.to_string(), |x| x.name.clone()),
    )
}

/// A board's player with their team under the name; an empty board says so.
fn seat(e: &TeamEvent, p: Option<PlayerId>, team: TeamId) -> String {
    match p {
        Some(p) => format!(
            "{}<br><span class=team>{}</span>",
            player_name(e, p),
            team_name(e, team)
        ),
        None => format!(
            "<i>(empty board)</i><br><span class=team>{}</span>",
            team_name(e, team)
        ),
    }
}

/// A player with their team in brackets.
fn with_team(e: &TeamEvent, p: PlayerId) -> String {
    match e.team_of(p) {
        Some(t) => format!(
            "{}<br><span class=team>{}</span>",
            player_name(e, p),
            team_name(e, t)
        ),
        None => player_name(e, p),
    }
}

fn result_text(r: GameResult) -> &'static str {
    if r == GameResult::Pending {
        ""
    } else {
        result_short(r)
    }
}

/// The tables a match's boards are played at: `tables 1–2` (`table 3` for one board).
fn tables_words(t: u32, boards: usize) -> String {
    let first = board_table(t, boards, 0);
    let last = board_table(t, boards, boards.saturating_sub(1));
    if first == last {
        format!("table {first}")
    } else {
        format!("tables {first}–{last}")
    }
}

/// The home team's and the away team's players of board `b`, which side has white.
fn board_sides(m: &TeamMatch, b: usize) -> [(Option<PlayerId>, TeamId); 2] {
    let g = m.boards.get(b);
    let (white, black) = g.map_or((None, None), |g| (g.white, g.black));
    if b.is_multiple_of(2) {
        [(white, m.home), (black, m.away)]
    } else {
        [(white, m.away), (black, m.home)]
    }
}

/// The team byes of a round, in a line.
fn byes_line(e: &TeamEvent, round: &TeamRound) -> String {
    if round.byes.is_empty() {
        return String::new();
    }
    let names: Vec<String> = round.byes.iter().map(|t| team_name(e, *t)).collect();
    format!("<p><b>Bye:</b> {}</p>\n", names.join(", "))
}

/// The pairings of round `number` by table: each match with its tables and its boards
/// (board, table, white and black with their teams, the result once known), then the
/// team byes; a round of board groups or of the final, its games by table.
pub fn team_pairings(d: &Details, e: &TeamEvent, number: u32, round: &TeamRound) -> String {
    let boards = e.settings.boards;
    let mut body = String::new();
    if !round.matches.is_empty() {
        let count = round.matches.len();
        body.push_str(&format!(
            "<p>{count} {} of {boards} boards; every board a table of its own. On odd boards \
             the first-named team has white.</p>\n<table><tr><th>Table</th><th>Board</th>\
             <th>White</th><th>Black</th><th class=res>Result</th></tr>\n",
            if count == 1 { "match" } else { "matches" }
        ));
        for (i, m) in round.matches.iter().enumerate() {
            let t = m.table_or(i);
            body.push_str(&format!(
                "<tr class=match><td colspan=5>Match {} · {} – {} · {}</td></tr>\n",
                i + 1,
                team_name(e, m.home),
                team_name(e, m.away),
                tables_words(t, boards)
            ));
            for b in 0..boards {
                let [white, black] = board_sides(m, b);
                let result = m.boards.get(b).map_or(GameResult::Pending, |g| g.result);
                body.push_str(&format!(
                    "<tr><td class=num><b>{}</b></td><td class=num>{}</td><td>{}</td><td>{}</td>\
                     <td class=res>{}</td></tr>\n",
                    board_table(t, boards, b),
                    b + 1,
                    seat(e, white.0, white.1),
                    seat(e, black.0, black.1),
                    result_text(result)
                ));
            }
        }
        body.push_str("</table>\n");
    }
    if !round.games.is_empty() {
        body.push_str(
            "<table><tr><th>Table</th><th>Group</th><th>White</th><th>Black</th>\
             <th class=res>Result</th></tr>\n",
        );
        for (i, g) in round.games.iter().enumerate() {
            let table = g
                .table
                .unwrap_or_else(|| u32::try_from(i + 1).unwrap_or(u32::MAX));
            body.push_str(&format!(
                "<tr><td class=num><b>{table}</b></td><td>{}</td><td>{}</td><td>{}</td>\
                 <td class=res>{}</td></tr>\n",
                g.board
                    .map_or_else(|| "Final".to_string(), |b| format!("B{b}")),
                with_team(e, g.white),
                with_team(e, g.black),
                result_text(g.result)
            ));
        }
        body.push_str("</table>\n");
    }
    body.push_str(&byes_line(e, round));
    page_styled(
        d,
        &format!("Round {number}: team pairings"),
        &body,
        TEAM_STYLE,
    )
}

/// A captain's signature line: `Captain, Tigers (Ana Reyes)`.
fn captain_line(e: &TeamEvent, t: TeamId) -> String {
    let captain = e
        .team(t)
        .and_then(|x| x.captain)
        .map_or_else(String::new, |c| format!(" ({})", player_name(e, c)));
    format!("<div>Captain, {}{captain}</div>", team_name(e, t))
}

/// A match slip per match of round `number`: the match's tables, both teams, each board's
/// table, its white and black player and a box for its result, the running totals of
/// both teams after each board, the match's game points and match points, and the
/// signatures of both captains and the arbiter. A round of board groups or of the final
/// has no matches: a slip per game, with the signatures of both players and the arbiter.
pub fn match_slips(d: &Details, e: &TeamEvent, number: u32, round: &TeamRound) -> String {
    let boards = e.settings.boards;
    let mut body = String::new();
    for (i, m) in round.matches.iter().enumerate() {
        let t = m.table_or(i);
        let (home, away) = (team_name(e, m.home), team_name(e, m.away));
        body.push_str(&format!(
            "<div class=slip><h3>Round {number} · Match {} · {}</h3>\
             <p><b>{home}</b> (white on board 1) against <b>{away}</b></p>\
             <table><tr><th>Board</th><th>Table</th><th>White</th><th>Black</th>\
             <th class=mark>Result</th><th class=mark>{home}</th><th class=mark>{away}</th></tr>\n",
            i + 1,
            tables_words(t, boards)
        ));
        for b in 0..boards {
            let [white, black] = board_sides(m, b);
            body.push_str(&format!(
                "<tr><td class=num>{}</td><td class=num><b>{}</b></td><td>{}</td><td>{}</td>\
                 <td class=mark><span class=box></span></td><td class=mark><span class=box>\
                 </span></td><td class=mark><span class=box></span></td></tr>\n",
                b + 1,
                board_table(t, boards, b),
                seat(e, white.0, white.1),
                seat(e, black.0, black.1),
            ));
        }
        body.push_str(&format!(
            "</table>\n<p class=team>Result: 1-0, draw or 0-1 (f: by forfeit). The last two \
             columns: each team's game points so far, after that board.</p>\n\
             <p class=totals>Game points: {home} <span class=box></span> – \
             <span class=box></span> {away} &nbsp; Match points: {home} <span class=box></span> \
             – <span class=box></span> {away}</p>\n\
             <div class=sign>{}{}<div>Arbiter</div></div></div>\n",
            captain_line(e, m.home),
            captain_line(e, m.away)
        ));
    }
    for (i, g) in round.games.iter().enumerate() {
        let table = g
            .table
            .unwrap_or_else(|| u32::try_from(i + 1).unwrap_or(u32::MAX));
        let group = g
            .board
            .map_or_else(|| "Final".to_string(), |b| format!("Group B{b}"));
        body.push_str(&format!(
            "<div class=slip><h3>Round {number} · {group} · Table {table}</h3>\
             <p>White: <b>{}</b><br>Black: <b>{}</b></p>\
             <p class=choices>Result: <span>White wins</span><span>Draw</span>\
             <span>Black wins</span></p>\
             <div class=sign><div>White</div><div>Black</div><div>Arbiter</div></div></div>\n",
            with_team(e, g.white),
            with_team(e, g.black)
        ));
    }
    if round.matches.is_empty() && round.games.is_empty() {
        body.push_str("<p>The round has no match to play.</p>\n");
    }
    page_styled(
        d,
        &format!("Round {number}: match slips"),
        &body,
        TEAM_STYLE,
    )
}

/// Whom a team meets in a round: the match's number (from 1), the opponent, the tables.
fn fixture(e: &TeamEvent, matches: &[TeamMatch], team: TeamId) -> Option<String> {
    let boards = e.settings.boards;
    matches.iter().enumerate().find_map(|(i, m)| {
        let (opponent, colour) = if m.home == team {
            (m.away, "white")
        } else if m.away == team {
            (m.home, "black")
        } else {
            return None;
        };
        Some(format!(
            "Match {} against <b>{}</b>, {}; your board 1 has {colour}.",
            i + 1,
            team_name(e, opponent),
            tables_words(m.table_or(i), boards)
        ))
    })
}

/// The line-up sheets of round `number`, one a page, for the captains to fill in and hand
/// in before the round starts: the team's roster in board order (withdrawn players
/// marked), a box per board for each player, the rule, the captain's signature. With the
/// round's `matches` (a published round), a sheet for each team that plays, naming its
/// opponent and tables; without them, a sheet for every team.
pub fn lineup_sheets(d: &Details, e: &TeamEvent, number: u32, matches: &[TeamMatch]) -> String {
    let boards = e.settings.boards;
    let teams: Vec<TeamId> = if matches.is_empty() {
        e.teams.iter().map(|t| t.id).collect()
    } else {
        matches.iter().flat_map(|m| [m.home, m.away]).collect()
    };
    let mut body = String::new();
    for id in teams {
        let Some(team) = e.team(id) else { continue };
        body.push_str(&format!(
            "<div class=sheet><h3>{}: line-up for round {number}</h3>\n",
            html_escape(&team.name)
        ));
        if let Some(words) = fixture(e, matches, id) {
            body.push_str(&format!("<p>{words}</p>\n"));
        }
        body.push_str(&format!(
            "<p>Mark one box per board, 1 to {boards}: the players in roster order, no board \
             left empty above a board that is played. A board left empty is lost by forfeit.\
             </p>\n<table><tr><th class=num>No</th><th>Player</th><th class=num>Rating</th>"
        ));
        for b in 1..=boards {
            body.push_str(&format!("<th class=mark>Board {b}</th>"));
        }
        body.push_str("</tr>\n");
        for (k, p) in team.roster.iter().enumerate() {
            let player = e.player(*p);
            let withdrawn = player.is_some_and(|x| x.withdrawn);
            let place = if k < boards {
                String::new()
            } else {
                " <span class=team>(reserve)</span>".to_string()
            };
            let captain = if team.captain == Some(*p) {
                " <span class=team>(captain)</span>"
            } else {
                ""
            };
            body.push_str(&format!(
                "<tr><td class=num>{}</td><td>{}{place}{captain}{}</td><td class=num>{}</td>",
                k + 1,
                player_name(e, *p),
                if withdrawn { " <i>(withdrawn)</i>" } else { "" },
                player.map_or(0, |x| x.rating)
            ));
            for _ in 0..boards {
                if withdrawn {
                    body.push_str("<td class=mark></td>");
                } else {
                    body.push_str("<td class=mark><span class=box></span></td>");
                }
            }
            body.push_str("</tr>\n");
        }
        body.push_str(&format!(
            "</table>\n<div class=sign><div>Captain, {}</div><div>Handed in at (time)</div>\
             <div>Arbiter</div></div></div>\n",
            html_escape(&team.name)
        ));
    }
    page_styled(
        d,
        &format!("Round {number}: line-up sheets"),
        &body,
        TEAM_STYLE,
    )
}

/// The team standings of a stage: rank, team, match points, game points and the stage's
/// tie-breaks, exact, with the order they rank by; `provisional` when a round counted is
/// still in play (its matches with a pending board count nothing).
pub fn team_standings_page(
    d: &Details,
    e: &TeamEvent,
    s: &TeamStandings,
    provisional: bool,
) -> String {
    let mut body = String::new();
    // Board groups and the final play games, not matches: no match points, no match
    // left pending.
    let matches = e.stage_plays_matches(s.stage);
    if provisional {
        body.push_str(if matches {
            "<p class=prov>Provisional: a round counted here is still in play (a match with a \
             board still pending counts nothing yet).</p>\n"
        } else {
            "<p class=prov>Provisional: a round counted here is still in play.</p>\n"
        });
    }
    let primary = match e.stage_primary(s.stage) {
        Primary::MatchPoints => "match points",
        Primary::GamePoints => "game points",
    };
    let mut order = vec![primary.to_string()];
    order.extend(
        s.tiebreaks
            .iter()
            .map(|t| team_tiebreak_words(*t).to_string()),
    );
    order.push("team rating".into());
    body.push_str(&format!(
        "<p>Ranked by {}.</p>\n<table><tr><th class=num>Rank</th><th>Team</th>{}\
         <th class=num>Game points</th>",
        html_escape(&order.join(", then ")),
        if matches {
            "<th class=num>Match points</th>"
        } else {
            ""
        }
    ));
    // A tie-break that is one of the scores has its column already.
    let shown = |t: &crate::teams::TeamTieBreak| !t.is_a_score();
    for t in s.tiebreaks.iter().filter(|t| shown(t)) {
        body.push_str(&format!("<th class=num>{}</th>", team_tiebreak_title(*t)));
    }
    body.push_str("</tr>\n");
    for r in &s.rows {
        body.push_str(&format!(
            "<tr><td class=num>{}</td><td><b>{}</b></td>",
            r.rank,
            html_escape(&r.name),
        ));
        if matches {
            body.push_str(&format!("<td class=num>{}</td>", r.match_points));
        }
        body.push_str(&format!("<td class=num>{}</td>", r.game_points));
        for (_, v) in s
            .tiebreaks
            .iter()
            .zip(&r.tiebreaks)
            .filter(|(t, _)| shown(t))
        {
            body.push_str(&format!("<td class=num>{v}</td>"));
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</table>\n");
    let stage = e
        .stages
        .get(s.stage.saturating_sub(1))
        .map(|st| st.name.trim().to_string())
        .filter(|n| !n.is_empty() && e.stages.len() > 1);
    let title = match stage {
        Some(name) => format!("Team standings: {name}"),
        None => "Team standings".to_string(),
    };
    page_styled(d, &title, &body, TEAM_STYLE)
}

/// The board prizes: for each board its players by percentage, then games, rating and
/// lowest id (the core's order), with their team, games, points and percentage.
pub fn board_prizes_page(d: &Details, e: &TeamEvent, prizes: &BoardPrizes) -> String {
    let mut body = String::from(
        "<p>Each board's players by the percentage of the points they could score \
         (forfeits count as games, byes do not), then games, rating, lowest id.</p>\n",
    );
    for (board, rows) in prizes {
        body.push_str(&format!("<h3>Board {board}</h3>\n"));
        if rows.is_empty() {
            body.push_str("<p>Not played yet.</p>\n");
            continue;
        }
        body.push_str(
            "<table><tr><th class=num>Place</th><th>Player</th><th>Team</th>\
             <th class=num>Games</th><th class=num>Points</th><th class=num>Percentage</th></tr>\n",
        );
        for (i, r) in rows.iter().enumerate() {
            body.push_str(&format!(
                "<tr><td class=num>{}</td><td><b>{}</b></td><td>{}</td><td class=num>{}</td>\
                 <td class=num>{}</td><td class=num>{}</td></tr>\n",
                i + 1,
                html_escape(&r.name),
                r.team.map_or_else(|| "-".to_string(), |t| team_name(e, t)),
                r.games,
                r.points,
                percentage_words(r.percentage_cents)
            ));
        }
        body.push_str("</table>\n");
    }
    page_styled(d, "Board prizes", &body, TEAM_STYLE)
}

/// The event's final placement: place, team and the stage each team was placed in (the
/// final's winner 1 and loser 2, then the teams out in earlier stages).
pub fn team_placement_page(d: &Details, e: &TeamEvent, rows: &[crate::teams::TeamPlace]) -> String {
    let mut body =
        String::from("<table><tr><th class=num>Place</th><th>Team</th><th>Placed in</th></tr>\n");
    for r in rows {
        let stage = e
            .stages
            .get(r.stage.saturating_sub(1))
            .map_or_else(|| format!("Stage {}", r.stage), |s| s.name.clone());
        body.push_str(&format!(
            "<tr><td class=num>{}</td><td><b>{}</b></td><td>{}</td></tr>\n",
            r.place,
            html_escape(&r.name),
            html_escape(&stage)
        ));
    }
    body.push_str("</table>\n");
    page_styled(d, "Final placement", &body, TEAM_STYLE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teams::{BoardGame, TeamSettings, TeamStage, TeamSystem, TeamTieBreak};
    use crate::tournament::{Player, PointsScale};

    fn details() -> Details {
        Details {
            event: "Inter-Club Cup".into(),
            dates: "12 December 2026".into(),
            venue: "Cebu".into(),
            organiser: "GGF".into(),
            chief_arbiter: "M. Santos".into(),
        }
    }

    /// Two teams of two boards (Tigers with a reserve and a captain, a team named with a
    /// `<`), and a third; round 1: Tigers against the second team, the third a bye.
    fn event() -> TeamEvent {
        let mut e = TeamEvent {
            name: "Inter-Club Cup".into(),
            points: PointsScale::default(),
            settings: TeamSettings::new(2, &PointsScale::default()),
            players: Vec::new(),
            teams: Vec::new(),
            stages: vec![TeamStage {
                name: "Swiss".into(),
                system: TeamSystem::Swiss,
                round_count: Some(3),
                advance: None,
                tiebreaks: TeamTieBreak::default_order(),
                rounds: Vec::new(),
                playoffs: Vec::new(),
            }],
        };
        let tigers = e.add_team("Tigers").expect("team");
        let lt = e.add_team("A<B & Co").expect("team");
        let sharks = e.add_team("Sharks").expect("team");
        for (no, (team, name, rating)) in [
            (tigers, "Reyes, Ana", 1900),
            (tigers, "Cruz, Ben", 1800),
            (tigers, "Lim, Cid", 1700),
            (lt, "Tan, Dee", 1600),
            (lt, "Go, Eve", 1500),
            (sharks, "Uy, Fay", 1400),
            (sharks, "Sy, Gil", 1300),
        ]
        .into_iter()
        .enumerate()
        {
            let id = PlayerId(u32::try_from(no + 1).expect("small"));
            e.add_to_team(team, Player::new(id, name, rating))
                .expect("player");
        }
        e.set_captain(tigers, Some(PlayerId(2))).expect("captain");
        e
    }

    /// Round 1: Tigers (home) against A<B & Co at match table 1, board 2 drawn.
    fn round() -> TeamRound {
        TeamRound {
            matches: vec![TeamMatch {
                table: Some(1),
                home: TeamId(1),
                away: TeamId(2),
                boards: vec![
                    BoardGame {
                        white: Some(PlayerId(1)),
                        black: Some(PlayerId(4)),
                        result: GameResult::Pending,
                    },
                    BoardGame {
                        white: Some(PlayerId(5)),
                        black: Some(PlayerId(3)),
                        result: GameResult::Draw,
                    },
                ],
            }],
            byes: vec![TeamId(3)],
            games: Vec::new(),
        }
    }

    fn played(mut e: TeamEvent) -> TeamEvent {
        let mut r = round();
        r.matches[0].boards[0].result = GameResult::WhiteWins;
        e.stages[0].rounds.push(r);
        e
    }

    #[test]
    fn the_pairings_give_each_board_its_table_players_and_teams_escaped() {
        let html = team_pairings(&details(), &event(), 1, &round());
        assert!(html.contains("<h1>Inter-Club Cup</h1>"), "{html}");
        assert!(html.contains("Chief arbiter: M. Santos"));
        assert!(html.contains("<h2>Round 1: team pairings</h2>"));
        assert!(
            html.contains("Match 1 · Tigers – A&lt;B &amp; Co · tables 1–2"),
            "{html}"
        );
        assert!(!html.contains("A<B"), "a team name is escaped");
        // Board 2 at table 2: the away team's player has white.
        assert!(html.contains(
            "<tr><td class=num><b>2</b></td><td class=num>2</td><td>Go, Eve<br><span \
             class=team>A&lt;B &amp; Co</span></td><td>Lim, Cid<br><span class=team>Tigers\
             </span></td><td class=res>draw</td></tr>"
        ));
        assert!(html.contains("<b>Bye:</b> Sharks"));
        assert!(html.contains("<p>1 match of 2 boards;"));
    }

    #[test]
    fn a_match_slip_has_its_boards_boxes_and_three_signatures() {
        let html = match_slips(&details(), &event(), 1, &round());
        assert_eq!(html.matches("<div class=slip>").count(), 1);
        assert!(
            html.contains("<h3>Round 1 · Match 1 · tables 1–2</h3>"),
            "{html}"
        );
        assert!(
            html.contains("<p><b>Tigers</b> (white on board 1) against <b>A&lt;B &amp; Co</b></p>")
        );
        assert!(html.contains(
            "<tr><td class=num>1</td><td class=num><b>1</b></td><td>Reyes, Ana<br><span \
             class=team>Tigers</span></td><td>Tan, Dee<br><span class=team>A&lt;B &amp; Co\
             </span></td>"
        ));
        // A result box and the two running totals on each board, then the totals.
        assert_eq!(html.matches("<span class=box></span>").count(), 2 * 3 + 4);
        assert!(html.contains(
            "<div class=sign><div>Captain, Tigers (Cruz, Ben)</div><div>Captain, A&lt;B &amp; \
             Co</div><div>Arbiter</div></div>"
        ));
        assert!(!html.contains("A<B"));
    }

    #[test]
    fn a_line_up_sheet_per_team_lists_its_roster_with_a_box_per_board() {
        let e = event();
        let html = lineup_sheets(&details(), &e, 1, &round().matches);
        // The two teams that play, not the one with the bye.
        assert_eq!(html.matches("<div class=sheet>").count(), 2);
        assert!(
            html.contains("<h3>Tigers: line-up for round 1</h3>"),
            "{html}"
        );
        assert!(html.contains("<h3>A&lt;B &amp; Co: line-up for round 1</h3>"));
        assert!(html.contains(
            "Match 1 against <b>A&lt;B &amp; Co</b>, tables 1–2; your board 1 has white."
        ));
        assert!(html.contains(
            "<tr><td class=num>3</td><td>Lim, Cid <span class=team>(reserve)</span></td>\
             <td class=num>1700</td><td class=mark><span class=box></span></td><td \
             class=mark><span class=box></span></td></tr>"
        ));
        assert!(html.contains("Cruz, Ben <span class=team>(captain)</span>"));
        assert!(html.contains("<div>Captain, Tigers</div><div>Handed in at (time)</div>"));
        // Without a published round: a sheet for every team.
        let all = lineup_sheets(&details(), &e, 2, &[]);
        assert_eq!(all.matches("<div class=sheet>").count(), 3);
        assert!(all.contains("<h3>Sharks: line-up for round 2</h3>"));
        assert!(!all.contains("A<B"));
    }

    #[test]
    fn a_withdrawn_player_is_marked_and_gets_no_boxes() {
        let mut e = event();
        if let Some(p) = e.players.iter_mut().find(|p| p.id == PlayerId(2)) {
            p.withdrawn = true;
        }
        let html = lineup_sheets(&details(), &e, 1, &[]);
        assert!(html.contains(
            "<td>Cruz, Ben <span class=team>(captain)</span> <i>(withdrawn)</i></td><td \
             class=num>1800</td><td class=mark></td><td class=mark></td></tr>"
        ));
    }

    #[test]
    fn the_standings_page_gives_the_cores_standings_escaped() {
        let e = played(event());
        let s = e.team_standings(None).expect("standings");
        let html = team_standings_page(&details(), &e, &s, false);
        assert!(html.contains("<h2>Team standings</h2>"), "{html}");
        assert!(html.contains(
            "Ranked by match points, then game points, then direct encounter, then \
             Sonneborn-Berger, then team rating."
        ));
        // Tigers won 3 – 1 in game points (the 2/1/0 scale): the match.
        let first = s.rows.first().expect("a row");
        assert_eq!(first.name, "Tigers");
        assert!(html.contains(&format!(
            "<tr><td class=num>1</td><td><b>Tigers</b></td><td class=num>{}</td><td \
             class=num>{}</td>",
            first.match_points, first.game_points
        )));
        assert!(html.contains("<td><b>A&lt;B &amp; Co</b></td>"));
        assert!(!html.contains("A<B"));
        assert!(!html.contains("Provisional"));
        assert!(team_standings_page(&details(), &e, &s, true).contains("Provisional"));
    }

    #[test]
    fn the_board_prizes_page_lists_each_board_with_percentages() {
        let e = played(event());
        let html = board_prizes_page(&details(), &e, &e.board_prizes());
        assert!(html.contains("<h3>Board 1</h3>"), "{html}");
        assert!(html.contains("<h3>Board 2</h3>"));
        assert!(html.contains(
            "<tr><td class=num>1</td><td><b>Reyes, Ana</b></td><td>Tigers</td><td \
             class=num>1</td>"
        ));
        assert!(html.contains("<td class=num>100%</td>"));
        assert!(html.contains("<td class=num>50%</td>"));
        assert!(html.contains("<td>A&lt;B &amp; Co</td>"));
        assert!(!html.contains("A<B"));
        assert_eq!(percentage_words(6667), "66.67%");
    }

    #[test]
    fn a_round_of_board_groups_prints_its_games_and_a_slip_per_game() {
        use crate::teams::GroupGame;
        let round = TeamRound {
            games: vec![GroupGame {
                board: Some(2),
                table: Some(4),
                white: PlayerId(2),
                black: PlayerId(5),
                result: GameResult::BlackWins,
            }],
            ..TeamRound::default()
        };
        let html = team_pairings(&details(), &event(), 3, &round);
        assert!(
            html.contains(
                "<tr><td class=num><b>4</b></td><td>B2</td><td>Cruz, Ben<br><span class=team>\
             Tigers</span></td><td>Go, Eve<br><span class=team>A&lt;B &amp; Co</span></td>\
             <td class=res>0-1</td></tr>"
            ),
            "{html}"
        );
        let slips = match_slips(&details(), &event(), 3, &round);
        assert!(
            slips.contains("<h3>Round 3 · Group B2 · Table 4</h3>"),
            "{slips}"
        );
        assert!(slips.contains("<div>White</div><div>Black</div><div>Arbiter</div>"));
        assert!(!slips.contains("A<B"));
    }

    #[test]
    fn board_tables_follow_the_spec() {
        assert_eq!(board_table(1, 3, 0), 1);
        assert_eq!(board_table(2, 3, 0), 4);
        assert_eq!(board_table(2, 3, 2), 6);
        assert_eq!(tables_words(3, 1), "table 3");
    }
}
