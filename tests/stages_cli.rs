//! Events of stages (`ggdesk-tournament/2`) through the binary: the shared worked examples,
//! refusals of bad files (exit 2, one line naming the fault and where), and the three
//! Generals League shapes played from the first pairing to the final placement the way a
//! director would, `pair` → results → `pair` … → `standings --final`. A little oracle here,
//! written from the spec, checks the colours of every series game and each race's end.

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

/// Every number as a float, so that `1` and `1.0` compare equal.
fn norm(v: &Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64().expect("number")),
        Value::Array(a) => Value::Array(a.iter().map(norm).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), norm(v))).collect()),
        other => other.clone(),
    }
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
