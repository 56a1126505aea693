//! The route table: every path the public pages answer, parsed into a [`Route`] before
//! anything is read or rendered. A path that is not here is a 404, whatever it holds
//! (`..`, percent escapes, a number with a leading zero): nothing is ever looked up by a
//! path's text.
//!
//! Pages of a kind to come plug in here: a variant of [`Route`], its line in
//! [`Route::parse`], in [`Route::view`] (the view it is rendered from) and in [`ENDPOINTS`]
//! (for `/api/`), and its rendering in `site::render` from that view.
//!
//! An event of stages has its stage pages (`/t/ID/stage/N`, one group's table at
//! `/t/ID/stage/N/group/X`, the bracket at `/t/ID/bracket`, the final placement at
//! `/t/ID/final`) and their `/api/` twins, rendered from the `staged` part of the
//! tournament's view: the cache and the live updates follow that view. A group is one
//! capital letter; a stage or group the event does not have is a 404, as is any of these
//! pages for a tournament of one system.
//!
//! The rating list's pages are keyed by a player's federation id, the list's own key: text,
//! percent-encoded in the path (`/ratings/player/PH-0012`). It is decoded here and only ever
//! looked up in the list the watcher read; an id that is not on it is a 404.

use ggdesk_core::stages::GroupId;

/// Which pages a stream of change notices is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feed {
    /// The event's list of tournaments, and the wall.
    Event,
    /// A tournament's pages.
    Tournament(i64),
    /// The rating list and the players' rating pages.
    Ratings,
}

/// The view of the database a page is rendered from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View<'a> {
    /// The event's list of tournaments.
    Index,
    Tournament(i64),
    /// The rating list.
    Ratings,
    /// A player of the rating list, by federation id, with their rated events.
    RatedPlayer(&'a str),
}

/// A path the server answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Index,
    Wall,
    Script,
    /// `/hall.js`: the hall display's script.
    HallScript,
    /// A tournament's hall display, for a projector or a TV.
    Hall(i64),
    /// The stream of change notices for a kind of pages.
    Events(Feed),
    Round {
        t: i64,
        n: Option<u32>,
    },
    Names {
        t: i64,
        q: Option<String>,
    },
    Standings(i64),
    Crosstable(i64),
    Player {
        t: i64,
        no: u32,
    },
    /// Stage N of an event of stages: its group tables (a knockout: its bracket).
    Stage {
        t: i64,
        n: u32,
    },
    /// One group's table of stage N.
    Group {
        t: i64,
        n: u32,
        g: GroupId,
    },
    /// The knockout's bracket.
    Bracket(i64),
    /// The event's final placement.
    Final(i64),
    /// A team of a team event: roster, matches, points.
    Team {
        t: i64,
        no: u32,
    },
    /// A team event's board prizes.
    Boards(i64),
    /// The rating list, or the players whose name or federation id matches `q`.
    Ratings {
        q: Option<String>,
    },
    /// A player's rating and rated events, by federation id.
    RatedPlayer(String),
    /// `/api/`: the list of the API's endpoints.
    ApiEndpoints,
    ApiIndex,
    ApiTournament(i64),
    ApiRound {
        t: i64,
        n: Option<u32>,
    },
    ApiPlayers {
        t: i64,
        q: Option<String>,
    },
    ApiStandings(i64),
    ApiCrosstable(i64),
    ApiPlayer {
        t: i64,
        no: u32,
    },
    ApiRatings {
        q: Option<String>,
    },
    ApiRatedPlayer(String),
    ApiStages(i64),
    ApiStage {
        t: i64,
        n: u32,
    },
    ApiGroup {
        t: i64,
        n: u32,
        g: GroupId,
    },
    ApiBracket(i64),
    ApiFinal(i64),
    ApiTeams(i64),
    ApiTeam {
        t: i64,
        no: u32,
    },
    ApiBoards(i64),
}

/// The API's endpoints and what each answers, as `/api/` lists them.
pub const ENDPOINTS: &[(&str, &str)] = &[
    ("/api/tournaments", "the event's tournaments"),
    (
        "/api/t/ID",
        "a tournament: its system, rounds, tie-breaks and players",
    ),
    (
        "/api/t/ID/round",
        "the round in play: the boards by table with their state and result, byes and absences",
    ),
    ("/api/t/ID/round/N", "round N, as above"),
    (
        "/api/t/ID/players?q=TEXT",
        "the players by name (or only those matching TEXT), each with their seat in the round in play",
    ),
    (
        "/api/t/ID/standings",
        "the standings after the last complete round, with the tie-breaks",
    ),
    (
        "/api/t/ID/crosstable",
        "the cross-table after the last complete round",
    ),
    (
        "/api/t/ID/player/NO",
        "player NO: opponents, colours, results and the score after each round",
    ),
    (
        "/api/t/ID/stages",
        "an event in stages: each stage with its format, state and cut, and whether the event \
         is over",
    ),
    (
        "/api/t/ID/stage/N",
        "stage N's standings group by group (as `ggdesk standings --stage N`), who goes on, its \
         playoff games; a knockout stage also its bracket",
    ),
    ("/api/t/ID/stage/N/group/X", "group X of stage N, as above"),
    (
        "/api/t/ID/bracket",
        "the knockout's bracket (as `ggdesk bracket`): each bracket round's matches with their \
         seeds, players, games, series score and winner, and the third-place match",
    ),
    (
        "/api/t/ID/final",
        "the event's final placement (as `ggdesk standings --final`), once it is over",
    ),
    (
        "/api/t/ID/teams",
        "a team event: its stages with their team standings (as `ggdesk standings --teams \
         --stage N`), its teams with their rosters in board order, and the final placement \
         once it is over",
    ),
    (
        "/api/t/ID/team/NO",
        "team NO of a team event: roster in board order, matches with game and match points, \
         byes",
    ),
    (
        "/api/t/ID/boards",
        "a team event's board prizes (as `ggdesk standings --boards`)",
    ),
    (
        "/api/ratings?q=TEXT",
        "the rating list (Glicko-2) by rank, or only the players whose name or federation id \
         matches TEXT; provisional: deviation above 110",
    ),
    (
        "/api/ratings/player/FEDERATION_ID",
        "a player of the rating list and their rated events: before, after, change, games, \
         score and expected score of each",
    ),
];

/// The longest federation id a path may name, in bytes once decoded.
const MAX_ID_BYTES: usize = 100;

/// The longest search kept from `?q=`, in characters.
pub const MAX_QUERY_CHARS: usize = 80;

/// A number in a path: ASCII digits without a leading zero.
fn number<T: std::str::FromStr>(s: &str) -> Option<T> {
    let canonical = !s.is_empty()
        && s.len() <= 12
        && s.bytes().all(|b| b.is_ascii_digit())
        && !(s.len() > 1 && s.starts_with('0'));
    if canonical { s.parse().ok() } else { None }
}

/// A federation id in a path: percent-decoded (every escape well formed), UTF-8, without
/// control characters or surrounding spaces, not empty and not longer than
/// [`MAX_ID_BYTES`].
fn federation_id(segment: &str) -> Option<String> {
    let raw = segment.as_bytes();
    let mut bytes = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%' {
            let hex = std::str::from_utf8(raw.get(i + 1..i + 3)?).ok()?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            bytes.push(raw[i]);
            i += 1;
        }
    }
    let id = String::from_utf8(bytes).ok()?;
    let fit = !id.is_empty()
        && id.len() <= MAX_ID_BYTES
        && id.trim() == id
        && !id.chars().any(char::is_control);
    fit.then_some(id)
}

/// A federation id as a path segment: every byte but ASCII letters, digits, `-`, `_` and
/// `~` percent-encoded (a `.` too, so that no id is ever a dot segment).
pub fn encode_id(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The search of a query string (`q=`), percent-decoded, `+` as a space, trimmed and cut to
/// a bounded length; `None` when there is none.
pub fn search_query(query: Option<&str>) -> Option<String> {
    let raw = query?.split('&').find_map(|pair| pair.strip_prefix("q="))?;
    let mut bytes = Vec::with_capacity(raw.len());
    let mut it = raw.bytes();
    while let Some(b) = it.next() {
        match b {
            b'+' => bytes.push(b' '),
            b'%' => {
                let hex: Vec<u8> = it.clone().take(2).collect();
                let value = std::str::from_utf8(&hex)
                    .ok()
                    .filter(|h| h.len() == 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match value {
                    Some(v) => {
                        bytes.push(v);
                        it.nth(1);
                    }
                    None => bytes.push(b'%'),
                }
            }
            b => bytes.push(b),
        }
    }
    let text: String = String::from_utf8_lossy(&bytes)
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_QUERY_CHARS)
        .collect();
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

impl Route {
    /// The route of a path and query, or `None` (404).
    pub fn parse(path: &str, query: Option<&str>) -> Option<Route> {
        let parts: Vec<&str> = path.split('/').collect();
        // Every path starts with '/', so parts[0] is empty.
        if parts.first() != Some(&"") {
            return None;
        }
        let route = match parts.get(1..)? {
            [""] => Route::Index,
            ["wall"] => Route::Wall,
            ["live.js"] => Route::Script,
            ["hall.js"] => Route::HallScript,
            ["t", t, "hall"] => Route::Hall(number(t)?),
            ["events"] => Route::Events(Feed::Event),
            ["t", t] => Route::Round {
                t: number(t)?,
                n: None,
            },
            ["t", t, "events"] => Route::Events(Feed::Tournament(number(t)?)),
            ["t", t, "round", n] => Route::Round {
                t: number(t)?,
                n: Some(number(n)?),
            },
            ["t", t, "names"] => Route::Names {
                t: number(t)?,
                q: search_query(query),
            },
            ["t", t, "standings"] => Route::Standings(number(t)?),
            ["t", t, "crosstable"] => Route::Crosstable(number(t)?),
            ["t", t, "player", no] => Route::Player {
                t: number(t)?,
                no: number(no)?,
            },
            ["t", t, "stage", n] => Route::Stage {
                t: number(t)?,
                n: number(n)?,
            },
            ["t", t, "stage", n, "group", g] => Route::Group {
                t: number(t)?,
                n: number(n)?,
                g: GroupId::from_letter(g)?,
            },
            ["t", t, "bracket"] => Route::Bracket(number(t)?),
            ["t", t, "final"] => Route::Final(number(t)?),
            ["t", t, "team", no] => Route::Team {
                t: number(t)?,
                no: number(no)?,
            },
            ["t", t, "boards"] => Route::Boards(number(t)?),
            ["api", "t", t, "teams"] => Route::ApiTeams(number(t)?),
            ["api", "t", t, "team", no] => Route::ApiTeam {
                t: number(t)?,
                no: number(no)?,
            },
            ["api", "t", t, "boards"] => Route::ApiBoards(number(t)?),
            ["api", "t", t, "stages"] => Route::ApiStages(number(t)?),
            ["api", "t", t, "stage", n] => Route::ApiStage {
                t: number(t)?,
                n: number(n)?,
            },
            ["api", "t", t, "stage", n, "group", g] => Route::ApiGroup {
                t: number(t)?,
                n: number(n)?,
                g: GroupId::from_letter(g)?,
            },
            ["api", "t", t, "bracket"] => Route::ApiBracket(number(t)?),
            ["api", "t", t, "final"] => Route::ApiFinal(number(t)?),
            ["ratings"] => Route::Ratings {
                q: search_query(query),
            },
            ["ratings", "events"] => Route::Events(Feed::Ratings),
            ["ratings", "player", id] => Route::RatedPlayer(federation_id(id)?),
            ["api"] | ["api", ""] => Route::ApiEndpoints,
            ["api", "tournaments"] => Route::ApiIndex,
            ["api", "t", t] => Route::ApiTournament(number(t)?),
            ["api", "t", t, "round"] => Route::ApiRound {
                t: number(t)?,
                n: None,
            },
            ["api", "t", t, "round", n] => Route::ApiRound {
                t: number(t)?,
                n: Some(number(n)?),
            },
            ["api", "t", t, "players"] => Route::ApiPlayers {
                t: number(t)?,
                q: search_query(query),
            },
            ["api", "t", t, "standings"] => Route::ApiStandings(number(t)?),
            ["api", "t", t, "crosstable"] => Route::ApiCrosstable(number(t)?),
            ["api", "t", t, "player", no] => Route::ApiPlayer {
                t: number(t)?,
                no: number(no)?,
            },
            ["api", "ratings"] => Route::ApiRatings {
                q: search_query(query),
            },
            ["api", "ratings", "player", id] => Route::ApiRatedPlayer(federation_id(id)?),
            _ => return None,
        };
        Some(route)
    }

    /// The view the route is rendered from (the event's list for the routes that need
    /// none: the script, `/api/`, the streams and the wall are answered before any view).
    pub fn view(&self) -> View<'_> {
        match self {
            Route::Round { t, .. }
            | Route::Names { t, .. }
            | Route::Standings(t)
            | Route::Crosstable(t)
            | Route::Player { t, .. }
            | Route::Stage { t, .. }
            | Route::Group { t, .. }
            | Route::Bracket(t)
            | Route::Final(t)
            | Route::Team { t, .. }
            | Route::Boards(t)
            | Route::ApiTeams(t)
            | Route::ApiTeam { t, .. }
            | Route::ApiBoards(t)
            | Route::ApiStages(t)
            | Route::ApiStage { t, .. }
            | Route::ApiGroup { t, .. }
            | Route::ApiBracket(t)
            | Route::ApiFinal(t)
            | Route::ApiTournament(t)
            | Route::ApiRound { t, .. }
            | Route::ApiPlayers { t, .. }
            | Route::ApiStandings(t)
            | Route::ApiCrosstable(t)
            | Route::ApiPlayer { t, .. }
            | Route::Hall(t) => View::Tournament(*t),
            Route::Ratings { .. } | Route::ApiRatings { .. } => View::Ratings,
            Route::RatedPlayer(id) | Route::ApiRatedPlayer(id) => View::RatedPlayer(id),
            Route::Events(_)
            | Route::Index
            | Route::Wall
            | Route::Script
            | Route::HallScript
            | Route::ApiEndpoints
            | Route::ApiIndex => View::Index,
        }
    }

    /// Whether the route answers JSON (and its 404 is JSON too).
    pub fn is_api(&self) -> bool {
        matches!(
            self,
            Route::ApiEndpoints
                | Route::ApiIndex
                | Route::ApiTournament(_)
                | Route::ApiRound { .. }
                | Route::ApiPlayers { .. }
                | Route::ApiStandings(_)
                | Route::ApiCrosstable(_)
                | Route::ApiPlayer { .. }
                | Route::ApiRatings { .. }
                | Route::ApiRatedPlayer(_)
                | Route::ApiStages(_)
                | Route::ApiStage { .. }
                | Route::ApiGroup { .. }
                | Route::ApiBracket(_)
                | Route::ApiFinal(_)
                | Route::ApiTeams(_)
                | Route::ApiTeam { .. }
                | Route::ApiBoards(_)
        )
    }

    /// The key of the rendered page: the route itself, so that a query string the route
    /// does not read cannot fill the cache. A search has none: anyone can send any number of
    /// different ones, and kept they would push everyone's pages out of the cache, while
    /// filtering one tournament's names is cheap.
    pub fn cache_key(&self) -> Option<String> {
        match self {
            Route::Names { q: Some(_), .. }
            | Route::ApiPlayers { q: Some(_), .. }
            | Route::Ratings { q: Some(_) }
            | Route::ApiRatings { q: Some(_) } => None,
            _ => Some(format!("{self:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_take_canonical_numbers_only() {
        assert_eq!(Route::parse("/", None), Some(Route::Index));
        assert_eq!(
            Route::parse("/t/3/player/12", None),
            Some(Route::Player { t: 3, no: 12 })
        );
        assert_eq!(
            Route::parse("/api/t/3/round/2", None),
            Some(Route::ApiRound { t: 3, n: Some(2) })
        );
        assert_eq!(
            Route::parse("/t/3/events", None),
            Some(Route::Events(Feed::Tournament(3)))
        );
        assert_eq!(
            Route::parse("/events", None),
            Some(Route::Events(Feed::Event))
        );
        assert_eq!(
            Route::parse("/ratings/events", None),
            Some(Route::Events(Feed::Ratings))
        );
        assert_eq!(
            Route::parse("/ratings", Some("q=Cruz")),
            Some(Route::Ratings {
                q: Some("Cruz".into())
            })
        );
        assert_eq!(Route::parse("/api/", None), Some(Route::ApiEndpoints));
        assert_eq!(
            Route::parse("/t/3/stage/1/group/B", None),
            Some(Route::Group {
                t: 3,
                n: 1,
                g: GroupId(1)
            })
        );
        assert_eq!(
            Route::parse("/api/t/3/stage/2", None),
            Some(Route::ApiStage { t: 3, n: 2 })
        );
        assert_eq!(Route::parse("/t/3/bracket", None), Some(Route::Bracket(3)));
        assert_eq!(
            Route::parse("/api/t/3/final", None),
            Some(Route::ApiFinal(3))
        );
        for bad in [
            "/t/03",
            "/t/-1",
            "/t/1/",
            "/t/x",
            "/t/1/player/",
            "/t//standings",
            "//",
            "/index.html",
            "/api//",
            "/t/99999999999999999999",
            "/t/1/standings/x",
            "/../etc/passwd",
            "/t/%31",
            "/t/01/events",
            "/events/",
            "/ratings/",
            "/ratings/player",
            "/ratings/player/",
            "/ratings/player/a/b",
            "/ratings/player/%",
            "/ratings/player/%4",
            "/ratings/player/%zz",
            "/ratings/player/%FF",
            "/ratings/player/%20PH-1",
            "/ratings/player/PH%0A1",
            "/api/ratings/",
            "/api/ratings/player/",
            "/t/1/stage/",
            "/t/1/stage/01",
            "/t/1/stage/x",
            "/t/1/stage/1/group/a",
            "/t/1/stage/1/group/AB",
            "/t/1/stage/1/group/",
            "/t/1/stage/1/group/%41",
            "/t/1/stage/1/group/1",
            "/api/t/1/stage/-1",
            "/api/t/1/stage/1/group/Ä",
            "/t/1/bracket/1",
            "/api/t/1/final/",
            "*",
            "",
            "t/1",
        ] {
            assert_eq!(Route::parse(bad, None), None, "{bad}");
        }
    }

    #[test]
    fn a_federation_id_goes_into_a_path_and_back_whatever_it_holds() {
        for id in [
            "PH-0012", "GGF 7/2", "Ñ.1", "..", "a%b?c#d", "<script>", "x+y&z=1",
        ] {
            let path = format!("/ratings/player/{}", encode_id(id));
            assert!(
                path[1..]
                    .split('/')
                    .all(|s| !s.is_empty() && s != "." && s != ".."),
                "{path}"
            );
            assert!(
                path.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"/-_~%".contains(&b)),
                "{path}"
            );
            assert_eq!(
                Route::parse(&path, None),
                Some(Route::RatedPlayer(id.to_string())),
                "{path}"
            );
            assert_eq!(
                Route::parse(&format!("/api{path}"), None),
                Some(Route::ApiRatedPlayer(id.to_string()))
            );
        }
        // Escapes in either case, and letters sent escaped, name the same player.
        assert_eq!(
            Route::parse("/ratings/player/%c3%91%2e1", None),
            Some(Route::RatedPlayer("Ñ.1".into()))
        );
        assert_eq!(
            Route::parse("/ratings/player/%50H-1", None),
            Some(Route::RatedPlayer("PH-1".into()))
        );
        let long = "x".repeat(MAX_ID_BYTES + 1);
        assert_eq!(Route::parse(&format!("/ratings/player/{long}"), None), None);
        assert_eq!(
            Route::parse(&format!("/ratings/player/{}", &long[1..]), None),
            Some(Route::RatedPlayer(long[1..].to_string()))
        );
    }

    #[test]
    fn the_search_is_decoded_bounded_and_free_of_controls() {
        assert_eq!(
            search_query(Some("q=Cruz%2C+Ben")).as_deref(),
            Some("Cruz, Ben")
        );
        assert_eq!(
            search_query(Some("x=1&q=%E2%80%9Cana")).as_deref(),
            Some("\u{201c}ana")
        );
        assert_eq!(search_query(Some("q=%zz%4")).as_deref(), Some("%zz%4"));
        assert_eq!(search_query(Some("q=a%00b%0a")).as_deref(), Some("ab"));
        assert_eq!(search_query(Some("q=+++")), None);
        assert_eq!(search_query(Some("q")), None);
        assert_eq!(search_query(None), None);
        let long = format!("q={}", "a".repeat(500));
        assert_eq!(
            search_query(Some(&long)).map(|q| q.len()),
            Some(MAX_QUERY_CHARS)
        );
    }
}
