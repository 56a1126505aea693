//! `ggdesk ratings` run as the binary: the list as the spec prints it, the history in JSON,
//! the players it does not rate, and its refusals (exit 2, one line on standard error,
//! nothing on standard output).

use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Output};

fn file(text: &str, suffix: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(suffix)
        .tempfile()
        .expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    f
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(args)
        .output()
        .expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8")
}

fn path(f: &tempfile::NamedTempFile) -> &str {
    f.path().to_str().expect("a UTF-8 path")
}

/// A `/1` event: players (id, name, federation id) and games (white, black, result).
fn event(
    name: &str,
    date: Option<&str>,
    players: &[(u32, &str, Option<&str>)],
    games: &[(u32, u32, &str)],
) -> String {
    let players: Vec<Value> = players
        .iter()
        .map(|(id, n, f)| match f {
            Some(f) => json!({"id": id, "name": n, "federation_id": f}),
            None => json!({"id": id, "name": n}),
        })
        .collect();
    let rounds: Vec<Value> = games
        .iter()
        .map(|(w, b, r)| json!({"games": [{"white": w, "black": b, "result": r}]}))
        .collect();
    let mut v = json!({
        "format": "ggdesk-tournament/1",
        "name": name,
        "settings": {"system": "swiss", "rounds": games.len().max(1)},
        "players": players,
        "rounds": rounds,
    });
    if let Some(d) = date {
        v["date"] = json!(d);
    }
    v.to_string()
}

const INITIAL: &str = "federation_id,name,rating,deviation,volatility
P,Pia,1500,200,0.06
A,Abe,1400,30,0.06
B,Bea,1550,100,0.06
C,Cid,1700,300,0.06
Z,Zed,1800,90,0.05
";

fn papers_event() -> String {
    event(
        "Example Open",
        Some("2026-01-10"),
        &[
            (1, "Reyes, Pia", Some("P")),
            (2, "Abe", Some("A")),
            (3, "Bea", Some("B")),
            (4, "Cid", Some("C")),
        ],
        &[(1, 2, "white"), (3, 1, "white"), (1, 4, "black")],
    )
}

#[test]
fn the_papers_example_through_the_binary() {
    let initial = file(INITIAL, ".csv");
    let ev = file(&papers_event(), ".json");
    let out = run(&["ratings", "--initial", path(&initial), path(&ev)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "rank,federation_id,name,rating,deviation,volatility,games,events,last_event"
    );
    // Zed never played: listed with 0 games and the initial list's name.
    assert_eq!(lines[1], "1,Z,Zed,1800.00,90.00,0.050000,0,0,");
    let p = lines
        .iter()
        .find(|l| l.contains(",P,"))
        .expect("P is listed");
    assert!(
        p.ends_with(",P,\"Reyes, Pia\",1464.05,151.52,0.059996,3,1,2026-01-10"),
        "{p}"
    );
    assert_eq!(lines.len(), 6);
    let ranks: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split(',').next().unwrap_or(""))
        .collect();
    assert_eq!(ranks, ["1", "2", "3", "4", "5"]);
}

#[test]
fn files_are_rated_in_date_order_whatever_the_order_given() {
    let players = [
        (1, "A", Some("F-A")),
        (2, "B", Some("F-B")),
        (3, "C", Some("F-C")),
    ];
    let jan = file(
        &event(
            "Jan",
            Some("2026-01-05"),
            &players,
            &[(1, 2, "white"), (2, 3, "draw")],
        ),
        ".json",
    );
    let mar = file(
        &event("Mar", Some("2026-03-20"), &players, &[(3, 1, "white")]),
        ".json",
    );
    let a = run(&["ratings", path(&mar), path(&jan)]);
    let b = run(&["ratings", path(&jan), path(&mar)]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b));
    // The C row: two events, two games, last on 2026-03-20.
    assert!(
        stdout(&a)
            .lines()
            .any(|l| l.contains(",F-C,C,") && l.ends_with(",2,2,2026-03-20")),
        "{}",
        stdout(&a)
    );
}

#[test]
fn a_player_without_a_federation_id_is_named_on_standard_error() {
    let ev = file(
        &event(
            "Club",
            Some("2026-02-01"),
            &[
                (1, "Ana", Some("GGF-1")),
                (2, "Ben", None),
                (3, "Cy", Some("GGF-3")),
            ],
            &[(1, 2, "white"), (3, 1, "draw")],
        ),
        ".json",
    );
    let out = run(&["ratings", path(&ev)]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        format!(
            "ggdesk: {}: player 2 (Ben) has no federation_id: not rated\n",
            path(&ev)
        )
    );
    let text = stdout(&out);
    assert!(!text.contains("Ben"));
    // The game against Ben counts for nobody: Ana has one rated game.
    assert!(
        text.lines()
            .any(|l| l.contains(",GGF-1,Ana,") && l.ends_with(",1,1,2026-02-01")),
        "{text}"
    );
}

#[test]
fn json_gives_the_rows_and_each_players_history() {
    let initial = file(INITIAL, ".csv");
    let ev = file(&papers_event(), ".json");
    let out = run(&["ratings", "--json", "--initial", path(&initial), path(&ev)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let rows = v.as_array().expect("a list");
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0]["federation_id"], "Z");
    assert_eq!(rows[0]["last_event"], Value::Null);
    assert_eq!(rows[0]["history"], json!([]));
    let p = rows.iter().find(|r| r["federation_id"] == "P").expect("P");
    assert_eq!(p["rating"], json!(1464.05));
    assert_eq!(p["deviation"], json!(151.52));
    assert_eq!(p["volatility"], json!(0.059996));
    assert_eq!(p["games"], json!(3));
    let h = &p["history"][0];
    assert_eq!(h["event"], "Example Open");
    assert_eq!(h["date"], "2026-01-10");
    assert_eq!(h["before"], json!(1500.0));
    assert_eq!(h["after"], json!(1464.05));
    assert_eq!(h["deviation_before"], json!(200.0));
    assert_eq!(h["games"], json!(3));
    assert_eq!(h["score"], json!(1));
    assert_eq!(h["expected"], json!(1.37));
}

#[test]
fn tau_is_used_and_checked() {
    let initial = file(INITIAL, ".csv");
    let ev = file(&papers_event(), ".json");
    let default = run(&["ratings", "--initial", path(&initial), path(&ev)]);
    let other = run(&[
        "ratings",
        "--tau",
        "1.2",
        "--initial",
        path(&initial),
        path(&ev),
    ]);
    assert_eq!(other.status.code(), Some(0));
    assert_ne!(stdout(&default), stdout(&other));
    let explicit = run(&[
        "ratings",
        "--tau",
        "0.5",
        "--initial",
        path(&initial),
        path(&ev),
    ]);
    assert_eq!(stdout(&default), stdout(&explicit));
    for (bad, says) in [
        ("abc", "--tau: \"abc\" is not a number"),
        ("0", "--tau: tau 0 is not above 0 and at most 100"),
    ] {
        let out = run(&["ratings", "--tau", bad, path(&ev)]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert_eq!(stderr(&out), format!("ggdesk: {says}\n"));
        assert_eq!(stdout(&out), "");
    }
}

/// Exit 2, one line on standard error that names the file and says what, nothing on
/// standard output.
fn refused(args: &[&str], says: &str) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    assert_eq!(stdout(&out), "", "{args:?}");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(says), "{err} should say {says}");
}

#[test]
fn refusals_exit_2_with_one_line() {
    let players = [(1, "A", Some("X")), (2, "B", Some("Y"))];
    let good = file(
        &event("Good", Some("2026-01-01"), &players, &[(1, 2, "white")]),
        ".json",
    );
    let undated = file(
        &event("Undated", None, &players, &[(1, 2, "white")]),
        ".json",
    );
    refused(
        &["ratings", path(&good), path(&undated)],
        &format!(
            "{}: date: is missing: an event without a date cannot be rated",
            path(&undated)
        ),
    );
    let misdated = file(
        &event("Misdated", Some("01/02/2026"), &players, &[(1, 2, "white")]),
        ".json",
    );
    refused(
        &["ratings", path(&misdated)],
        &format!(
            "{}: date: \"01/02/2026\" is not a date of the form YYYY-MM-DD",
            path(&misdated)
        ),
    );
    let dup = file(
        &event(
            "Dup",
            Some("2026-01-01"),
            &[(1, "A", Some("X")), (2, "B", Some("X"))],
            &[(1, 2, "white")],
        ),
        ".json",
    );
    refused(
        &["ratings", path(&dup)],
        &format!(
            "{}: players[1].federation_id: federation id \"X\" is also that of player 1 in this event",
            path(&dup)
        ),
    );
    let broken = file("{\"format\": \"ggdesk-tournament/1\", ", ".json");
    refused(
        &["ratings", path(&broken)],
        &format!("{}: not valid JSON", path(&broken)),
    );
    let bad_list = file(
        "federation_id,name,rating,deviation,volatility\nX,A,1500,0,0.06\n",
        ".csv",
    );
    refused(
        &["ratings", "--initial", path(&bad_list), path(&good)],
        &format!(
            "{}: line 2: deviation 0 is not above 0 and at most 350",
            path(&bad_list)
        ),
    );
}

/// A team example of `tests/fixtures/teams/` with a date and every player a federation id
/// (`GG-` and the player's id).
fn team_example(name: &str, date: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/teams/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the team example");
    let mut v: Value = serde_json::from_str(&text).expect("JSON");
    v["date"] = json!(date);
    for p in v["players"].as_array_mut().expect("players") {
        let id = p["id"].as_u64().expect("a player id");
        p["federation_id"] = json!(format!("GG-{id}"));
    }
    v
}

/// The games of a team file played over the board, read from its JSON by hand: every
/// board of every match with both players and every game of every round (stage by stage),
/// then the stage's playoff games; only `white`, `black` and `draw`.
fn team_games_by_hand(v: &Value) -> Vec<(u64, u64, String)> {
    let mut out = Vec::new();
    let mut take = |g: &Value| {
        let (Some(w), Some(b), Some(r)) = (
            g["white"].as_u64(),
            g["black"].as_u64(),
            g["result"].as_str(),
        ) else {
            return;
        };
        if ["white", "black", "draw"].contains(&r) {
            out.push((w, b, r.to_string()));
        }
    };
    let list = |v: &Value| v.as_array().cloned().unwrap_or_default();
    for s in list(&v["stages"]) {
        for r in list(&s["rounds"]) {
            for m in list(&r["matches"]) {
                list(&m["boards"]).iter().for_each(&mut take);
            }
            list(&r["games"]).iter().for_each(&mut take);
        }
        list(&s["playoffs"]).iter().for_each(&mut take);
    }
    out
}

/// The `/1` event of the same name, date, players and games as a team file: one round a
/// game.
fn as_event_of_players(v: &Value, games: &[(u64, u64, String)]) -> String {
    let players: Vec<Value> = v["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| json!({"id": p["id"], "name": p["name"], "federation_id": p["federation_id"]}))
        .collect();
    let rounds: Vec<Value> = games
        .iter()
        .map(|(w, b, r)| json!({"games": [{"white": w, "black": b, "result": r}]}))
        .collect();
    json!({
        "format": "ggdesk-tournament/1",
        "name": v["name"],
        "date": v["date"],
        "settings": {"system": "swiss", "rounds": games.len()},
        "players": players,
        "rounds": rounds,
    })
    .to_string()
}

#[test]
fn a_team_event_is_rated_as_the_event_of_its_games_over_the_board() {
    // Counted by hand in the files: boards and games won, lost or drawn (the examples
    // also have board forfeits and empty boards, which are not games).
    for (name, count) in [
        ("team-swiss-with-bye", 44),
        ("team-round-robin", 23),
        ("board-groups-then-final", 20),
    ] {
        let team = team_example(name, "2026-11-01");
        let games = team_games_by_hand(&team);
        assert_eq!(games.len(), count, "{name}");
        let team_file = file(&team.to_string(), ".json");
        let players_file = file(&as_event_of_players(&team, &games), ".json");
        for json in [false, true] {
            let mut args = vec!["ratings"];
            if json {
                args.push("--json");
            }
            let a = run(&[args.as_slice(), &[path(&team_file)]].concat());
            let b = run(&[args.as_slice(), &[path(&players_file)]].concat());
            assert_eq!(a.status.code(), Some(0), "{name}: {}", stderr(&a));
            assert_eq!(b.status.code(), Some(0), "{name}: {}", stderr(&b));
            assert_eq!(stderr(&a), "", "{name}");
            assert_eq!(stdout(&a), stdout(&b), "{name}");
        }
        // Each player's games: those over the board only.
        let out = run(&["ratings", "--json", path(&team_file)]);
        let rows: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        let rows = rows.as_array().expect("a list");
        for row in rows {
            let fid = row["federation_id"].as_str().expect("a federation id");
            let id: u64 = fid
                .strip_prefix("GG-")
                .and_then(|n| n.parse().ok())
                .expect("GG-id");
            let played = games
                .iter()
                .filter(|(w, b, _)| *w == id || *b == id)
                .count();
            assert_eq!(row["games"], json!(played), "{name}: {fid}");
            assert_eq!(row["events"], json!(1), "{name}: {fid}");
        }
        // Everyone with a game over the board is listed, nobody else.
        let mut with_games: Vec<u64> = games.iter().flat_map(|(w, b, _)| [*w, *b]).collect();
        with_games.sort_unstable();
        with_games.dedup();
        assert_eq!(rows.len(), with_games.len(), "{name}");
    }
}

#[test]
fn a_team_events_players_without_federation_ids_are_named() {
    let mut team = team_example("team-round-robin", "2026-11-01");
    team["players"][0]
        .as_object_mut()
        .expect("a player")
        .remove("federation_id");
    let f = file(&team.to_string(), ".json");
    let out = run(&["ratings", path(&f)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "ggdesk: {}: player 1 (Reyes, Quin 1) has no federation_id: not rated\n",
            path(&f)
        )
    );
    assert!(!stdout(&out).contains(",GG-1,"), "{}", stdout(&out));
}

#[test]
fn a_bad_team_file_is_refused_with_the_team_readers_words_and_place() {
    // Round 2, match 1: Tondo Tigers' players 1 and 3 swap boards 1 and 3, so player 2
    // on board 2 comes after player 3 on board 1.
    let mut team = team_example("team-round-robin", "2026-11-01");
    let boards = &mut team["stages"][0]["rounds"][1]["matches"][0]["boards"];
    assert_eq!(boards[0]["white"], json!(1));
    assert_eq!(boards[2]["white"], json!(3));
    boards[0]["white"] = json!(3);
    boards[2]["white"] = json!(1);
    let f = file(&team.to_string(), ".json");
    let out = run(&["ratings", path(&f)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        format!(
            "ggdesk: {}: stages[0].rounds[1].matches[0].boards[1]: player 2 plays board 2 but \
             comes after player 3 (board 1) in the roster of team 1: boards follow the roster \
             order\n",
            path(&f)
        )
    );
    // A team event needs its `team` settings: the team reader says so at its place.
    let mut team = team_example("team-round-robin", "2026-11-01");
    team.as_object_mut().expect("the file").remove("team");
    let f = file(&team.to_string(), ".json");
    let out = run(&["ratings", path(&f)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!("ggdesk: {}: team: is missing\n", path(&f))
    );
    // Without a date it cannot be rated, as any event.
    let mut team = team_example("team-round-robin", "2026-11-01");
    team.as_object_mut().expect("the file").remove("date");
    let f = file(&team.to_string(), ".json");
    refused(
        &["ratings", path(&f)],
        &format!(
            "{}: date: is missing: an event without a date cannot be rated",
            path(&f)
        ),
    );
}
