//! Events of stages (`ggdesk-tournament/2`) through the binary: the shared worked examples,
//! refusals of bad files (exit 2, one line naming the fault and where), and the three
//! Generals League shapes played from the first pairing to the final placement the way a
//! director would, `pair` → results → `pair` … → `standings --final`. A little oracle here,
//! written from the spec, checks the colours of every series game and each race's end.

#[path = "support/json.rs"]
mod json_support;
use json_support::norm;
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write");
    child.wait_with_output().expect("finishes")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8")
}

/// Runs a command on a file given on standard input and reads its JSON answer.
fn answer(args: &[&str], file: &Value) -> Value {
    let mut all = args.to_vec();
    all.push("-");
    let o = run(&all, &file.to_string());
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("JSON")
}

/// A refusal: exit 2, nothing on standard output, one line on standard error naming it.
fn assert_refused(args: &[&str], file: &Value, message: &str) {
    let mut all = args.to_vec();
    all.push("-");
    let o = run(&all, &file.to_string());
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(message), "expected {message:?} in: {err}");
}

fn fixture(name: &str) -> Value {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/stages/{name}"));
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON")
}

fn unordered(games: &Value) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = games
        .as_array()
        .expect("games")
        .iter()
        .map(|g| {
            let (w, b) = (
                g["white"].as_u64().expect("w"),
                g["black"].as_u64().expect("b"),
            );
            (w.min(b), w.max(b))
        })
        .collect();
    out.sort();
    out
}

// ---------------------------------------------------------------- the shared examples

fn check_example(name: &str) {
    let file = fixture(&format!("{name}.json"));
    let expected = fixture(&format!("{name}.expected.json"));
    let want = &expected["pair"];
    if want.get("exit").is_some() {
        let o = run(&["pair", "-"], &file.to_string());
        assert_eq!(o.status.code(), Some(2), "{name}: pair");
        assert_eq!(stderr(&o).lines().count(), 1);
    } else {
        let got = answer(&["pair"], &file);
        if want.get("note").is_some() {
            // The spec leaves colours and tables open here: the same games, the rest equal.
            assert_eq!(
                unordered(&got["games"]),
                unordered(&want["games"]),
                "{name}"
            );
            assert_eq!(got["stage"], want["stage"]);
            assert_eq!(got["playoff"], want["playoff"]);
        } else {
            assert_eq!(norm(&got), norm(want), "{name}: pair");
        }
    }
    if let Some(want) = expected.get("standings_stage") {
        let stage = want["stage"].to_string();
        let rows = answer(&["standings", "--stage", &stage], &file);
        let got: Vec<Value> = rows
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| json!([r["rank"], r["id"], r["score"]]))
            .collect();
        assert_eq!(
            norm(&json!(got)),
            norm(&want["rows_rank_id_score"]),
            "{name}"
        );
        // The current stage is the default.
        assert_eq!(answer(&["standings"], &file), rows);
    }
    if let Some(want) = expected.get("bracket") {
        assert_eq!(
            norm(&answer(&["bracket"], &file)),
            norm(want),
            "{name}: bracket"
        );
    }
    if let Some(want) = expected.get("final_place_id") {
        let rows = answer(&["standings", "--final"], &file);
        let got: Vec<Value> = rows
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| json!([r["place"], r["id"]]))
            .collect();
        assert_eq!(norm(&json!(got)), norm(want), "{name}: final");
        assert!(
            rows.as_array()
                .expect("rows")
                .iter()
                .all(|r| r["name"].is_string() && r["stage"].is_u64())
        );
    }
}

#[test]
fn the_shared_examples_agree_through_the_binary() {
    for name in [
        "groups-then-cross-over-final",
        "knockout-in-progress",
        "playoff-at-the-cut",
        "rr-rr-best-of-3-final",
        "swiss-then-final-twice-to-beat",
    ] {
        check_example(name);
    }
}

#[test]
fn stage_standings_name_their_group_and_write_csv() {
    let file = fixture("groups-then-cross-over-final.json");
    let rows = answer(&["standings", "--stage", "1"], &file);
    let rows = rows.as_array().expect("rows");
    assert_eq!(rows.len(), 14);
    assert_eq!(rows[0]["group"], json!("A"));
    assert_eq!(rows[7]["group"], json!("B"));
    assert_eq!(rows[0]["rank"], json!(1));
    assert_eq!(rows[7]["rank"], json!(1));
    for key in [
        "direct_encounter",
        "fewest_forfeit_wins",
        "wins",
        "rating",
        "name",
    ] {
        assert!(rows[0].get(key).is_some(), "{key}");
    }
    let o = run(
        &["standings", "--stage", "1", "--csv", "-"],
        &file.to_string(),
    );
    assert_eq!(o.status.code(), Some(0));
    let csv = stdout(&o);
    assert!(csv.starts_with(
        "group,rank,id,name,rating,score,direct_encounter,fewest_forfeit_wins,wins\n"
    ));
    assert_eq!(csv.lines().count(), 15);
    let o = run(&["standings", "--final", "--csv", "-"], &file.to_string());
    assert!(stdout(&o).starts_with("place,id,name,stage\n1,4,\"Santos, P4\",2\n"));
}

// ---------------------------------------------------------------- refusals

#[test]
fn bad_files_are_refused_naming_the_fault_and_where() {
    let good = fixture("groups-then-cross-over-final.json");

    // A player in a stage they did not qualify for (1 was fifth in group B).
    let mut v = good.clone();
    v["stages"][1]["rounds"][2]["games"][0]["black"] = json!(1);
    assert_refused(
        &["standings"],
        &v,
        "stages[1].rounds[2].games[0]: player 1 did not qualify for stage 2",
    );

    // A group that does not exist.
    let mut v = good.clone();
    v["stages"][0]["rounds"][0]["games"][0]["group"] = json!("C");
    assert_refused(
        &["pair"],
        &v,
        "stages[0].rounds[0].games[0].group: group \"C\" does not exist in this stage",
    );

    // A game of a grouped stage without its group.
    let mut v = good.clone();
    v["stages"][0]["rounds"][0]["games"][0]
        .as_object_mut()
        .expect("game")
        .remove("group");
    assert_refused(
        &["pair"],
        &v,
        "stages[0].rounds[0].games[0]: a game of a stage with groups names its group",
    );

    // A match that does not exist, and one already decided.
    let mut v = good.clone();
    v["stages"][1]["rounds"][0]["games"][1]["match"] = json!("1.3");
    assert_refused(
        &["bracket"],
        &v,
        "stages[1].rounds[0].games[1]: match 1.3 does not exist",
    );
    let mut v = good.clone();
    v["stages"][1]["rounds"][1]["games"]
        .as_array_mut()
        .expect("games")
        .push(json!({"match": "1.2", "white": 8, "black": 6, "result": "white"}));
    assert_refused(
        &["bracket"],
        &v,
        "stages[1].rounds[1].games[1]: match 1.2 is already decided",
    );

    // A double forfeit in a knockout.
    let mut v = good.clone();
    v["stages"][1]["rounds"][2]["games"][0]["result"] = json!("double_forfeit");
    assert_refused(
        &["standings", "--final"],
        &v,
        "stages[1].rounds[2].games[0]: a knockout game cannot be a double_forfeit",
    );

    // A game in a stage that is not seeded yet: the group stage is not complete.
    let mut v = good.clone();
    v["stages"][0]["rounds"][6]["games"][0]["result"] = json!("pending");
    assert_refused(
        &["pair"],
        &v,
        "stages[1].rounds[0]: stage 2 is not seeded yet",
    );

    // An open match without its game in a round.
    let mut v = good.clone();
    v["stages"][1]["rounds"][0]["games"]
        .as_array_mut()
        .expect("games")
        .remove(1);
    assert_refused(
        &["pair"],
        &v,
        "stages[1].rounds[0]: match 1.2 has no game in this round",
    );

    // Settings: a knockout that is not the last stage; a stage with groups last.
    let mut v = good.clone();
    v["stages"] = json!([good["stages"][1], good["stages"][0]]);
    assert_refused(
        &["pair"],
        &v,
        "stage 1: a knockout is always the last stage",
    );
    let mut v = good.clone();
    v["stages"] = json!([good["stages"][0]]);
    assert_refused(
        &["pair"],
        &v,
        "stage 1: a stage with groups is never the last",
    );
    let mut v = good.clone();
    v["stages"][1]["match"] = json!({"best_of": 2});
    assert_refused(
        &["pair"],
        &v,
        "stage 2: best_of must be odd and at least 1, not 2",
    );
    let mut v = good.clone();
    v["stages"][1]["system"] = json!("ladder");
    assert_refused(&["pair"], &v, "stages[1].system: unknown system \"ladder\"");

    // A playoff game where no playoff is due.
    let mut v = good.clone();
    v["stages"][0]["playoffs"] = json!([{"white": 4, "black": 8, "result": "white"}]);
    assert_refused(
        &["pair"],
        &v,
        "stages[0].playoffs[0]: group A has no tie at its cut",
    );

    // A group result that would re-seed the knockout played: every command says who goes
    // on by the file's results.
    let mut v = good.clone();
    v["stages"][0]["rounds"][0]["games"][0]["result"] = json!("black");
    for command in [&["pair"][..], &["standings"], &["bracket"]] {
        assert_refused(
            command,
            &v,
            "player 8 did not qualify for stage 2: by the results of stage 1, the players \
             going on to stage 2 are, by seed, 6, 5, 4, 3; a result cannot change who went on \
             or their seeds",
        );
    }

    // Standings of a stage that does not exist; a bracket of a file without a knockout.
    assert_refused(&["standings", "--stage", "3"], &good, "there is no stage 3");
    let swiss = fixture("playoff-at-the-cut.json");
    assert_refused(&["bracket"], &swiss, "the knockout stage is not seeded yet");
    assert_refused(&["standings", "--final"], &swiss, "the event is not over");
}

#[test]
fn pair_refuses_while_a_round_or_a_playoff_game_waits_and_when_the_event_is_over() {
    let mut v = fixture("knockout-in-progress.json");
    v["stages"][1]["rounds"] = json!([{"games": [
        {"match": "1.1", "white": 4, "black": 3, "result": "pending"},
        {"match": "1.2", "white": 6, "black": 8, "result": "white"}
    ]}]);
    assert_refused(&["pair"], &v, "stage 2, round 1 is not complete");

    let mut v = fixture("playoff-at-the-cut.json");
    v["stages"][0]["playoffs"] = json!([
        {"white": 3, "black": 7, "result": "pending"},
        {"white": 9, "black": 2, "result": "white"}
    ]);
    assert_refused(&["pair"], &v, "stage 1: a playoff game has no result yet");

    assert_refused(
        &["pair"],
        &fixture("rr-rr-best-of-3-final.json"),
        "the event is over",
    );
}

// ---------------------------------------------------------------- playing whole events

/// A director at the desk: the event file, played step by step through the binary.
struct Desk {
    file: Value,
    steps: Vec<Value>,
}

impl Desk {
    fn new(file: Value) -> Desk {
        Desk {
            file,
            steps: Vec::new(),
        }
    }

    /// Pairs the next step and records it with a result for each game from `result`
    /// (the step, the game); false when `pair` says the event is over.
    fn step(&mut self, mut result: impl FnMut(&Value, &Value) -> &'static str) -> bool {
        let o = run(&["pair", "-"], &self.file.to_string());
        if o.status.code() == Some(2) {
            assert!(stderr(&o).contains("the event is over"), "{}", stderr(&o));
            return false;
        }
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let step: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        let k = step["stage"].as_u64().expect("stage") as usize - 1;
        let games: Vec<Value> = step["games"]
            .as_array()
            .expect("games")
            .iter()
            .map(|g| {
                let mut g = g.clone();
                g["result"] = json!(result(&step, &g));
                g
            })
            .collect();
        let stage = &mut self.file["stages"][k];
        if step["playoff"] == json!(true) {
            let list = stage["playoffs"].as_array_mut().expect("playoffs");
            list.extend(games);
        } else {
            assert_eq!(
                step["round"].as_u64(),
                Some(stage["rounds"].as_array().expect("rounds").len() as u64 + 1)
            );
            stage["rounds"]
                .as_array_mut()
                .expect("rounds")
                .push(json!({"games": games, "byes": step["byes"]}));
        }
        self.steps.push(step);
        true
    }

    fn play(&mut self, mut result: impl FnMut(&Value, &Value) -> &'static str) {
        for _ in 0..500 {
            if !self.step(&mut result) {
                return;
            }
        }
        panic!("the event did not end in 500 steps");
    }

    fn final_places(&self) -> Vec<(u64, u64)> {
        answer(&["standings", "--final"], &self.file)
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                (
                    r["place"].as_u64().expect("place"),
                    r["id"].as_u64().expect("id"),
                )
            })
            .collect()
    }
}

fn id(g: &Value, side: &str) -> u64 {
    g[side].as_u64().expect("player")
}

/// The lower id (the better rating in these fields) wins, with either colour.
fn better_wins(g: &Value) -> &'static str {
    if id(g, "white") < id(g, "black") {
        "white"
    } else {
        "black"
    }
}

fn players(n: u64) -> Value {
    Value::Array(
        (1..=n)
            .map(|i| json!({"id": i, "name": format!("Player {i}"), "rating": 2400 - 10 * i}))
            .collect(),
    )
}

/// The oracle of a series from the spec: colours (game 1 white to the higher seed, then
/// alternating) and how a race to P stood after each game. Returns the race's points.
fn check_series_colours(m: &Value) {
    let seeds = &m["seeds"];
    let players = &m["players"];
    let (Some(s0), Some(s1)) = (seeds[0].as_u64(), seeds[1].as_u64()) else {
        return;
    };
    let higher = if s0 < s1 { &players[0] } else { &players[1] };
    for (n, g) in m["games"].as_array().expect("games").iter().enumerate() {
        let white_is_higher = &g["white"] == higher;
        assert_eq!(
            white_is_higher,
            n % 2 == 0,
            "match {}: game {}",
            m["match"],
            n + 1
        );
    }
}

#[test]
fn groups_then_a_cross_over_race_to_four_with_a_playoff_and_a_sudden_death() {
    // Sixteen players in four groups (serpentine: A 1 8 9 16, B 2 7 10 15, C 3 6 11 14,
    // D 4 5 12 13), the top two into cross-over quarter-finals raced to 4 points, a
    // third-place match.
    let file = json!({
        "format": "ggdesk-tournament/2",
        "name": "GL face to face",
        "settings": {"points": {"win": 2, "draw": 1, "loss": 0, "bye": 2, "forfeit_win": 2,
                                "forfeit_loss": 0, "absent": 0}},
        "players": players(16),
        "penalties": [],
        "stages": [
            {"name": "Groups", "system": "round_robin", "groups": 4, "advance": 2,
             "tiebreaks": ["direct_encounter", "fewest_forfeit_wins", "wins"],
             "rounds": [], "playoffs": []},
            {"name": "Knockout", "system": "knockout", "seeding": "cross_over",
             "match": {"race_to": 4}, "third_place": true, "rounds": []}
        ]
    });
    let mut desk = Desk::new(file);
    let group_a = [1u64, 8, 9, 16];
    // Group A draws every game: four players level on everything, a playoff at the cut.
    // Quarter-final 1.1 is drawn five times (both at 4 after the fourth: sudden death) and
    // then won by the better seed; every other game goes to the better seed.
    let mut quarter_games = 0;
    desk.play(|step, g| {
        if step["playoff"] == json!(true) {
            return better_wins(g);
        }
        if step["stage"] == json!(1) && group_a.contains(&id(g, "white")) {
            assert_eq!(g["group"], json!("A"));
            return "draw";
        }
        if g["match"] == json!("1.1") {
            quarter_games += 1;
            return if quarter_games <= 5 {
                "draw"
            } else {
                better_wins(g)
            };
        }
        better_wins(g)
    });

    // The playoff: one round robin among the four of group A (three rounds of two games).
    let playoffs: Vec<&Value> = desk
        .steps
        .iter()
        .filter(|s| s["playoff"] == json!(true))
        .collect();
    assert_eq!(playoffs.len(), 3, "{playoffs:?}");
    for p in &playoffs {
        assert_eq!(p["games"].as_array().expect("games").len(), 2);
        assert!(
            p["games"]
                .as_array()
                .expect("g")
                .iter()
                .all(|g| g["group"] == json!("A"))
        );
    }
    let stage1 = answer(&["standings", "--stage", "1"], &desk.file);
    let a: Vec<(u64, u64)> = stage1
        .as_array()
        .expect("rows")
        .iter()
        .filter(|r| r["group"] == json!("A"))
        .map(|r| {
            (
                r["rank"].as_u64().expect("r"),
                r["id"].as_u64().expect("id"),
            )
        })
        .collect();
    // Equal on everything, rank 1 for all four, listed in their playoff order.
    assert_eq!(a, [(1, 1), (1, 8), (1, 9), (1, 16)]);

    let bracket = answer(&["bracket"], &desk.file);
    let first = bracket["rounds"][0].as_array().expect("round 1");
    let pairs: Vec<(String, Value)> = first
        .iter()
        .map(|m| {
            (
                m["match"].as_str().expect("m").to_string(),
                m["players"].clone(),
            )
        })
        .collect();
    // Seeds: the winners B1 2, C1 3, D1 4 (6 points), A1 1 (3 points); then the seconds
    // B2 7, C2 6, D2 5 (4 points), A2 8 (3). Cross-over: A1–B2, C1–D2, B1–A2, D1–C2.
    assert_eq!(
        pairs,
        [
            ("1.1".to_string(), json!([1, 7])),
            ("1.2".to_string(), json!([3, 5])),
            ("1.3".to_string(), json!([2, 8])),
            ("1.4".to_string(), json!([4, 6])),
        ]
    );
    for round in bracket["rounds"].as_array().expect("rounds") {
        for m in round.as_array().expect("matches") {
            check_series_colours(m);
        }
    }
    check_series_colours(&bracket["third_place"]);
    // The race in 1.1: the oracle counts the points game by game.
    let race = &first[0];
    let mut pts = [0u64, 0];
    let mut both_at_four_after = None;
    for (n, g) in race["games"].as_array().expect("games").iter().enumerate() {
        let (w, b) = (&g["white"], &g["black"]);
        let idx = |p: &Value| usize::from(p != &race["players"][0]);
        match g["result"].as_str().expect("result") {
            "draw" => {
                pts[idx(w)] += 1;
                pts[idx(b)] += 1;
            }
            "white" => pts[idx(w)] += 2,
            "black" => pts[idx(b)] += 2,
            other => panic!("{other}"),
        }
        if pts == [4, 4] && both_at_four_after.is_none() {
            both_at_four_after = Some(n + 1);
        }
    }
    assert_eq!(
        both_at_four_after,
        Some(4),
        "both at 4 on the same (fourth) game"
    );
    assert_eq!(race["games"].as_array().expect("g").len(), 6);
    assert_eq!(norm(&race["score"]), norm(&json!([7, 5])));
    assert_eq!(race["winner"], json!(1));
    // The other quarter-finals took two games (two wins: 4 points): the knockout's first
    // bracket round was six rounds of the file, the semi-finals two, the final with the
    // third-place match two.
    let ko_rounds = desk.file["stages"][1]["rounds"]
        .as_array()
        .expect("r")
        .len();
    assert_eq!(ko_rounds, 6 + 2 + 2);
    assert_eq!(bracket["third_place"]["players"], json!([3, 4]));

    assert_eq!(
        desk.final_places(),
        [
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            // Quarter-final losers share 5, listed by their knockout seed (B2, C2, D2, A2).
            (5, 7),
            (5, 6),
            (5, 5),
            (5, 8),
            // Third places of the groups: A3 (3 points) first, then B3, C3, D3 by letter.
            (9, 9),
            (10, 10),
            (11, 11),
            (12, 12),
            (13, 16),
            (14, 15),
            (15, 14),
            (16, 13),
        ]
    );
}

#[test]
fn a_swiss_then_a_final_where_the_top_seed_has_twice_to_beat() {
    // Ten players, six Swiss rounds; player 1 wins every game and every other game is
    // drawn, so the players who did not meet 1 share second place: a playoff at the cut.
    let file = json!({
        "format": "ggdesk-tournament/2",
        "name": "GL monthly",
        "players": players(10),
        "stages": [
            {"name": "Swiss", "system": "swiss", "round_count": 6, "advance": 2,
             "tiebreaks": [], "rounds": [], "playoffs": []},
            {"name": "Final", "system": "knockout", "match": {"twice_to_beat": true}, "rounds": []}
        ]
    });
    let mut desk = Desk::new(file);
    let mut final_games = 0;
    desk.play(|step, g| {
        if step["playoff"] == json!(true) {
            return better_wins(g);
        }
        if step["stage"] == json!(2) {
            // The lower seed wins the first game, then a draw, then the top seed wins.
            final_games += 1;
            return match final_games {
                1 => {
                    if id(g, "white") == 1 {
                        "black"
                    } else {
                        "white"
                    }
                }
                2 => "draw",
                _ => better_wins(g),
            };
        }
        if id(g, "white") == 1 {
            "white"
        } else if id(g, "black") == 1 {
            "black"
        } else {
            "draw"
        }
    });
    let swiss_rounds = &desk.file["stages"][0]["rounds"];
    // Who met player 1: they scored 5 draws and a loss; the others six draws (6 points).
    let met_one: Vec<u64> = swiss_rounds
        .as_array()
        .expect("rounds")
        .iter()
        .flat_map(|r| r["games"].as_array().expect("g").clone())
        .filter(|g| id(g, "white") == 1 || id(g, "black") == 1)
        .map(|g| id(&g, "white") + id(&g, "black") - 1)
        .collect();
    let tied: Vec<u64> = (2..=10).filter(|p| !met_one.contains(p)).collect();
    assert_eq!(tied.len(), 3, "{met_one:?}");
    // They played off in one round robin; the best seed among them won both its games.
    let playoff_games: usize = desk
        .steps
        .iter()
        .filter(|s| s["playoff"] == json!(true))
        .map(|s| s["games"].as_array().expect("g").len())
        .sum();
    assert_eq!(playoff_games, 3);
    let second = tied[0];
    let bracket = answer(&["bracket"], &desk.file);
    let m = &bracket["rounds"][0][0];
    assert_eq!(m["players"], json!([1, second]));
    assert_eq!(m["seeds"], json!([1, 2]));
    assert_eq!(norm(&m["score"]), norm(&json!([1, 1])));
    assert_eq!(m["winner"], json!(1));
    check_series_colours(m);
    let places = desk.final_places();
    assert_eq!(&places[..3], &[(1, 1), (2, second), (3, tied[1])]);
    assert_eq!(places[3], (4, tied[2]));
    assert_eq!(places.len(), 10);
}

#[test]
fn a_round_robin_a_final_round_and_a_best_of_three_final() {
    // Eight players meet once; the top four play a final round robin, whose top two play a
    // best-of-3 final. In the final round 2 and 3 draw and both beat 4: equal on points and
    // on their direct encounter, they play single games (2 white first) until one is won.
    let file = json!({
        "format": "ggdesk-tournament/2",
        "name": "GL online",
        "players": players(8),
        "stages": [
            {"name": "Qualifying", "system": "round_robin", "advance": 4,
             "tiebreaks": ["direct_encounter"], "rounds": [], "playoffs": []},
            {"name": "Final round", "system": "round_robin", "advance": 2,
             "tiebreaks": ["direct_encounter"], "rounds": [], "playoffs": []},
            {"name": "Final", "system": "knockout", "match": {"best_of": 3}, "rounds": []}
        ]
    });
    let mut desk = Desk::new(file);
    let mut playoff_games = 0;
    let mut final_games = 0;
    desk.play(|step, g| {
        let (w, b) = (id(g, "white"), id(g, "black"));
        if step["playoff"] == json!(true) {
            playoff_games += 1;
            return if playoff_games < 3 {
                "draw"
            } else if w == 3 {
                "white"
            } else {
                "black"
            };
        }
        match step["stage"].as_u64() {
            Some(2) if (w.min(b), w.max(b)) == (2, 3) => "draw",
            Some(3) => {
                final_games += 1;
                match final_games {
                    1 => {
                        if w == 3 {
                            "white"
                        } else {
                            "black"
                        }
                    }
                    3 => "draw",
                    _ => better_wins(g),
                }
            }
            _ => better_wins(g),
        }
    });
    // The playoff: 2–3 (2 white), 3–2, 2–3, the third won by 3.
    let played: Vec<(u64, u64)> = desk.file["stages"][1]["playoffs"]
        .as_array()
        .expect("playoffs")
        .iter()
        .map(|g| (id(g, "white"), id(g, "black")))
        .collect();
    assert_eq!(played, [(2, 3), (3, 2), (2, 3)]);
    let stage2 = answer(&["standings", "--stage", "2"], &desk.file);
    let order: Vec<(u64, u64)> = stage2
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["rank"].as_u64().expect("r"),
                r["id"].as_u64().expect("id"),
            )
        })
        .collect();
    assert_eq!(order, [(1, 1), (2, 3), (2, 2), (4, 4)]);
    let bracket = answer(&["bracket"], &desk.file);
    let m = &bracket["rounds"][0][0];
    assert_eq!(m["players"], json!([1, 3]));
    assert_eq!(norm(&m["score"]), norm(&json!([2, 1])));
    assert_eq!(m["games"].as_array().expect("g").len(), 4);
    assert_eq!(m["winner"], json!(1));
    check_series_colours(m);
    assert_eq!(
        desk.final_places(),
        [
            (1, 1),
            (2, 3),
            (3, 2),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
            (8, 8)
        ]
    );
}

// ---------------------------------------------------------------- an oracle on random events

#[path = "fixtures/stages/random.rs"]
mod random;

/// A score or tie-break value in exact half-points (every value here is a multiple of 0.5
/// or a Sonneborn-Berger ratio; the comparison needs only order, so f64 of the printed
/// decimal is exact enough for these small fields).
fn num(v: &Value) -> f64 {
    v.as_f64().expect("number")
}

/// What the oracle knows of one stage.
struct OracleStage {
    /// Seeds in order.
    seeds: Vec<u64>,
    /// Per group (letter or "" without groups): rows as the spec orders them.
    groups: Vec<(String, Vec<Value>)>,
}

/// The event's stages recomputed from the spec: seeds, each group's order after its
/// playoffs, the qualifiers' seed order. Base ranks, scores and tie-breaks are the
/// binary's `standings --stage K` (the `/1` code); everything between stages is the
/// oracle's own.
fn oracle_stages(file: &Value, reached: usize) -> Vec<OracleStage> {
    let players = file["players"].as_array().expect("players");
    let mut seeds: Vec<(i64, u64)> = players
        .iter()
        .map(|p| {
            (
                -p["rating"].as_i64().unwrap_or(0),
                p["id"].as_u64().expect("id"),
            )
        })
        .collect();
    seeds.sort();
    let mut seeds: Vec<u64> = seeds.into_iter().map(|(_, id)| id).collect();
    let scale = |r: &str| -> (f64, f64) {
        match r {
            "white" => (2.0, 0.0),
            "black" => (0.0, 2.0),
            "draw" => (1.0, 1.0),
            "white_forfeit" => (2.0, 0.0),
            "black_forfeit" => (0.0, 2.0),
            _ => (0.0, 0.0),
        }
    };
    let mut out = Vec::new();
    for k in 0..reached {
        let stage = &file["stages"][k];
        let rows = answer(&["standings", "--stage", &(k + 1).to_string()], file);
        let mut groups: Vec<(String, Vec<Value>)> = Vec::new();
        for r in rows.as_array().expect("rows") {
            let g = r["group"].as_str().unwrap_or("").to_string();
            match groups.iter_mut().find(|(x, _)| *x == g) {
                Some((_, list)) => list.push(r.clone()),
                None => groups.push((g, vec![r.clone()])),
            }
        }
        let seed = |id: u64| seeds.iter().position(|&s| s == id).expect("seeded");
        let advance = stage["advance"].as_u64().map(|a| a as usize);
        // Each group: by rank; equal ranks by seed, except the players tied across the cut,
        // by their playoff points, round robin by round robin (a later one among those
        // still level only: points never add up across them), then seed.
        let playoffs = stage["playoffs"].as_array().cloned().unwrap_or_default();
        for (group, list) in &mut groups {
            list.sort_by(|x, y| {
                let id = |v: &Value| v["id"].as_u64().expect("id");
                x["rank"]
                    .as_u64()
                    .cmp(&y["rank"].as_u64())
                    .then(seed(id(x)).cmp(&seed(id(y))))
            });
            let Some(a) = advance.filter(|&a| a < list.len()) else {
                continue;
            };
            if list[a - 1]["rank"] != list[a]["rank"] {
                continue;
            }
            let rank = list[a]["rank"].clone();
            let start = list.iter().position(|r| r["rank"] == rank).expect("tied");
            let tied: Vec<u64> = list
                .iter()
                .filter(|r| r["rank"] == rank)
                .map(|r| r["id"].as_u64().expect("id"))
                .collect();
            let games: Vec<&Value> = playoffs
                .iter()
                .filter(|g| {
                    g["group"].as_str().unwrap_or("") == group.as_str()
                        || (g["group"].is_null() && tied.contains(&id(g, "white")))
                })
                .collect();
            let cut = a - start;
            let mut keys: std::collections::HashMap<u64, Vec<f64>> =
                tied.iter().map(|&p| (p, Vec::new())).collect();
            let ordered = |keys: &std::collections::HashMap<u64, Vec<f64>>| {
                let mut o = tied.clone();
                o.sort_by(|x, y| {
                    keys[y]
                        .partial_cmp(&keys[x])
                        .expect("numbers")
                        .then(seed(*x).cmp(&seed(*y)))
                });
                o
            };
            let mut pos = 0;
            loop {
                let o = ordered(&keys);
                let below = keys[&o[cut]].clone();
                if keys[&o[cut - 1]] != below {
                    break;
                }
                let level: Vec<u64> = tied.iter().copied().filter(|p| keys[p] == below).collect();
                let n = if level.len() == 2 {
                    1
                } else {
                    level.len() * (level.len() - 1) / 2
                };
                if pos + n > games.len() {
                    break;
                }
                let mut phase: std::collections::HashMap<u64, f64> = Default::default();
                for g in &games[pos..pos + n] {
                    let (w, b) = scale(g["result"].as_str().expect("result"));
                    *phase.entry(id(g, "white")).or_default() += w;
                    *phase.entry(id(g, "black")).or_default() += b;
                }
                for (p, k) in keys.iter_mut() {
                    k.push(phase.get(p).copied().unwrap_or(0.0));
                }
                pos += n;
            }
            let o = ordered(&keys);
            for (i, p) in o.iter().enumerate() {
                let at = list
                    .iter()
                    .position(|r| r["id"].as_u64() == Some(*p))
                    .expect("in the group");
                let row = list.remove(at);
                list.insert(start + i, row);
            }
        }
        out.push(OracleStage {
            seeds: seeds.clone(),
            groups: groups.clone(),
        });
        if let Some(a) = advance {
            // Qualifiers' seed order: place, score, tie-breaks in order, group letter.
            let tbs: Vec<String> = stage["tiebreaks"]
                .as_array()
                .map(|t| {
                    t.iter()
                        .map(|x| x.as_str().expect("name").to_string())
                        .collect()
                })
                .unwrap_or_else(|| {
                    ["direct_encounter", "buchholz", "sonneborn_berger", "wins"]
                        .map(String::from)
                        .to_vec()
                });
            seeds = by_place(&groups, &tbs, 0, a);
        }
    }
    out
}

/// Rows of places `from..to` of every group, ordered by place, score, tie-breaks, letter.
fn by_place(groups: &[(String, Vec<Value>)], tbs: &[String], from: usize, to: usize) -> Vec<u64> {
    let mut q: Vec<(usize, &Value, &String)> = Vec::new();
    for (g, list) in groups {
        for (place, r) in list.iter().enumerate().take(to).skip(from) {
            q.push((place, r, g));
        }
    }
    q.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(
                num(&b.1["score"])
                    .partial_cmp(&num(&a.1["score"]))
                    .expect("n"),
            )
            .then_with(|| {
                tbs.iter()
                    .map(|t| num(&b.1[t]).partial_cmp(&num(&a.1[t])).expect("n"))
                    .find(|o| o.is_ne())
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .then(a.2.cmp(b.2))
    });
    q.into_iter()
        .map(|(_, r, _)| r["id"].as_u64().expect("id"))
        .collect()
}

/// The final placement from the spec, given the oracle's stages and the binary's bracket.
fn oracle_places(file: &Value, stages: &[OracleStage]) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    let last = stages.last().expect("a stage");
    let k = stages.len() - 1;
    if file["stages"][k]["system"] == json!("knockout") {
        let b = answer(&["bracket"], file);
        let rounds = b["rounds"].as_array().expect("rounds");
        let seed = |p: u64| last.seeds.iter().position(|&s| s == p).expect("seeded");
        let loser = |m: &Value| -> Option<u64> {
            let w = m["winner"].as_u64()?;
            let ps: Vec<u64> = m["players"]
                .as_array()?
                .iter()
                .filter_map(Value::as_u64)
                .collect();
            (ps.len() == 2).then(|| if ps[0] == w { ps[1] } else { ps[0] })
        };
        if rounds.is_empty() {
            out.push((1, last.seeds[0]));
            return out;
        }
        let fin = &rounds[rounds.len() - 1][0];
        out.push((1, fin["winner"].as_u64().expect("a champion")));
        out.extend(loser(fin).map(|l| (2, l)));
        let mut down = rounds.len() - 1;
        if !b["third_place"].is_null() {
            let t = &b["third_place"];
            out.push((3, t["winner"].as_u64().expect("third")));
            out.push((4, loser(t).expect("fourth")));
            down -= 1;
        }
        for r in (0..down).rev() {
            let mut l: Vec<u64> = rounds[r]
                .as_array()
                .expect("r")
                .iter()
                .filter_map(loser)
                .collect();
            l.sort_by_key(|&p| seed(p));
            let place = out.len() as u64 + 1;
            out.extend(l.into_iter().map(|p| (place, p)));
        }
    } else {
        for (_, list) in &last.groups {
            for r in list {
                out.push((
                    r["rank"].as_u64().expect("rank"),
                    r["id"].as_u64().expect("id"),
                ));
            }
        }
    }
    for s in (0..k).rev() {
        let a = file["stages"][s]["advance"].as_u64().expect("advance") as usize;
        let tbs: Vec<String> = file["stages"][s]["tiebreaks"]
            .as_array()
            .map(|t| {
                t.iter()
                    .map(|x| x.as_str().expect("name").to_string())
                    .collect()
            })
            .unwrap_or_else(|| {
                ["direct_encounter", "buchholz", "sonneborn_berger", "wins"]
                    .map(String::from)
                    .to_vec()
            });
        for p in by_place(&stages[s].groups, &tbs, a, usize::MAX) {
            out.push((out.len() as u64 + 1, p));
        }
    }
    out
}

#[test]
fn random_events_agree_with_an_oracle_from_the_spec() {
    let mut checked = 0;
    for seed in 0..40u64 {
        let (fresh, seen) = random::played(seed);
        let Some(end) = seen.last() else { continue };
        if !end.is_over() {
            continue; // a small Swiss ran out of valid pairings
        }
        let file: Value = serde_json::from_str(&end.to_json()).expect("JSON");
        let stages = oracle_stages(&file, end.reached().len());
        // Each stage's order, its groups, and the next stage's seeds.
        for (k, st) in stages.iter().enumerate() {
            let rows = answer(&["standings", "--stage", &(k + 1).to_string()], &file);
            let got: Vec<u64> = rows
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| r["id"].as_u64().expect("id"))
                .collect();
            let want: Vec<u64> = st
                .groups
                .iter()
                .flat_map(|(_, l)| l.iter().map(|r| r["id"].as_u64().expect("id")))
                .collect();
            assert_eq!(got, want, "seed {seed}, stage {}", k + 1);
            if file["stages"][k]["system"] == json!("round_robin") {
                let g = st.groups.len();
                for (i, &p) in st.seeds.iter().enumerate() {
                    let (block, pos) = (i / g, i % g);
                    let at = if block % 2 == 0 { pos } else { g - 1 - pos };
                    assert!(
                        st.groups[at].1.iter().any(|r| r["id"] == json!(p)),
                        "seed {seed}: serpentine"
                    );
                }
            }
        }
        let k = stages.len() - 1;
        if file["stages"][k]["system"] == json!("knockout") {
            let b = answer(&["bracket"], &file);
            let seeds = &stages[k].seeds;
            for m in b["rounds"][0].as_array().expect("round 1") {
                for (s, p) in m["seeds"]
                    .as_array()
                    .expect("s")
                    .iter()
                    .zip(m["players"].as_array().expect("p"))
                {
                    if let (Some(s), Some(p)) = (s.as_u64(), p.as_u64()) {
                        assert_eq!(seeds[s as usize - 1], p, "seed {seed}: bracket seed {s}");
                    }
                }
            }
            if file["stages"][k]["seeding"] == json!("cross_over") {
                let prev = &stages[k - 1].groups;
                let g = prev.len();
                let first = b["rounds"][0].as_array().expect("round 1");
                for j in 0..g / 2 {
                    for (m, (w, s)) in [(j, (2 * j, 2 * j + 1)), (g / 2 + j, (2 * j + 1, 2 * j))] {
                        assert_eq!(first[m]["players"][0], prev[w].1[0]["id"], "seed {seed}");
                        assert_eq!(first[m]["players"][1], prev[s].1[1]["id"], "seed {seed}");
                    }
                }
            }
        }
        let want = oracle_places(&file, &stages);
        let got: Vec<(u64, u64)> = answer(&["standings", "--final"], &file)
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                (
                    r["place"].as_u64().expect("p"),
                    r["id"].as_u64().expect("id"),
                )
            })
            .collect();
        assert_eq!(got.len(), fresh.players().len());
        // Within a shared place the spec orders by seed, which the oracle did too.
        assert_eq!(got, want, "seed {seed}: final placement");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} random events finished");
}

/// `tournament.md`: a game still pending counts nothing, and its round is left out of both
/// players' rounds for every tie-break, in a stage as in a `/1` event.
#[test]
fn a_pending_game_of_a_stage_counts_nothing_in_its_standings() {
    let game = |t: u32, w: u32, b: u32, r: &str| json!({"group": "A", "table": t, "white": w, "black": b, "result": r});
    let file = json!({
        "format": "ggdesk-tournament/2",
        "name": "In play",
        "players": (1..=4).map(|i| json!({"id": i, "name": format!("P{i}"), "rating": 2000 - i}))
            .collect::<Vec<_>>(),
        "stages": [
            {"name": "Group", "system": "round_robin", "advance": 2, "tiebreaks": ["buchholz"],
             "rounds": [
                {"games": [game(1, 1, 4, "white"), game(2, 2, 3, "white")], "byes": []},
                {"games": [game(1, 4, 3, "white"), game(2, 1, 2, "pending")], "byes": []}
             ]},
            {"name": "Final", "system": "knockout", "match": {"best_of": 1}, "rounds": []}
        ]
    });
    // 1, 2 and 4 have a win each. Buchholz without the pending round: 1 met 4 (2), 2 met
    // 3 (0), 4 met 1 and 3 (2 + 0), 3 met 2 and 4 (2 + 2). Counting 1-2 would give 1 and 2
    // each other's 2 and put 2 above 4.
    let rows = answer(&["standings", "--stage", "1"], &file);
    let got: Vec<(u64, f64)> = rows
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["id"].as_u64().expect("id"),
                r["buchholz"].as_f64().expect("buchholz"),
            )
        })
        .collect();
    assert_eq!(got, [(1, 2.0), (4, 2.0), (2, 0.0), (3, 4.0)]);
}
