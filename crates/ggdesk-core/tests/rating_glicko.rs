//! The rating list's computation: Glickman's worked example, which games count, inactivity,
//! first ratings, the order of events, and the list's order.

use ggdesk_core::rating::list::{fmt2, fmt6, list_csv, read_initial_csv};
use ggdesk_core::rating::{
    Config, Date, MAX_DEVIATION, Played, RatedEvent, RatedGame, Rating, Ratings, inactivity,
    rate_all,
};
use std::collections::BTreeMap;

fn date(s: &str) -> Date {
    Date::parse(s).expect("a date")
}

fn game(white: &str, black: &str, result: Played) -> RatedGame<String> {
    RatedGame {
        white: white.into(),
        black: black.into(),
        result,
    }
}

fn event(name: &str, on: &str, games: Vec<RatedGame<String>>) -> RatedEvent<String> {
    let mut names = BTreeMap::new();
    for g in &games {
        names.insert(g.white.clone(), format!("Player {}", g.white));
        names.insert(g.black.clone(), format!("Player {}", g.black));
    }
    RatedEvent {
        name: name.into(),
        date: date(on),
        names,
        games,
    }
}

fn rating(r: f64, d: f64, v: f64) -> Rating {
    Rating::checked(r, d, v).expect("a valid rating")
}

/// The paper's example: 1500/200/0.06 against 1400/30 (win), 1550/100 (loss), 1700/300
/// (loss), τ = 0.5.
fn papers_event() -> (Vec<(String, String, Rating)>, RatedEvent<String>) {
    let initial = vec![
        (
            "P".to_string(),
            "Player".to_string(),
            rating(1500.0, 200.0, 0.06),
        ),
        ("A".to_string(), "A".to_string(), rating(1400.0, 30.0, 0.06)),
        (
            "B".to_string(),
            "B".to_string(),
            rating(1550.0, 100.0, 0.06),
        ),
        (
            "C".to_string(),
            "C".to_string(),
            rating(1700.0, 300.0, 0.06),
        ),
    ];
    let e = event(
        "Example",
        "2026-01-10",
        vec![
            game("P", "A", Played::WhiteWins),
            game("B", "P", Played::WhiteWins),
            game("P", "C", Played::BlackWins),
        ],
    );
    (initial, e)
}

#[test]
fn glickmans_worked_example_gives_1464_05_151_52_0_059996() {
    let (initial, e) = papers_event();
    let mut ratings = Ratings::new(Config::default(), initial);
    let report = ratings.rate(&e);
    let p = &report.players["P"];
    assert_eq!(fmt2(p.after.rating), "1464.05");
    assert_eq!(fmt2(p.after.deviation), "151.52");
    assert_eq!(fmt6(p.after.volatility), "0.059996");
    // The paper's steps, unrounded: μ' = -0.2069, φ' = 0.8722 on the Glicko-2 scale.
    assert!(
        (p.after.rating - 1464.0507).abs() < 0.001,
        "{}",
        p.after.rating
    );
    assert!(
        (p.after.deviation - 151.5165).abs() < 0.001,
        "{}",
        p.after.deviation
    );
    assert_eq!(p.games, 3);
    assert_eq!(p.score.to_string(), "1");
    // Step 3's expected scores: 0.639 + 0.432 + 0.303.
    assert!((p.expected - 1.374).abs() < 0.002, "{}", p.expected);
    assert_eq!(p.before, rating(1500.0, 200.0, 0.06));
    // The list carries the same numbers.
    let row = ratings
        .list()
        .into_iter()
        .find(|r| r.key == "P")
        .expect("P is listed");
    assert_eq!(row.standing.games, 3);
    assert_eq!(row.standing.events, 1);
    assert_eq!(row.standing.last_event, Some(date("2026-01-10")));
    assert_eq!(row.standing.name, "Player P");
}

#[test]
fn opponents_are_rated_against_pre_event_ratings_all_at_once() {
    // A beats B, then B beats C in the same event: C's period sees B before the event,
    // not B after losing to A.
    let together = event(
        "One event",
        "2026-02-01",
        vec![
            game("A", "B", Played::WhiteWins),
            game("B", "C", Played::WhiteWins),
        ],
    );
    let (list, _) = rate_all(
        Config::default(),
        Vec::new(),
        std::slice::from_ref(&together),
    );
    // C alone against a new player B, as B stood before the event:
    let alone = event(
        "C only",
        "2026-02-01",
        vec![game("B", "C", Played::WhiteWins)],
    );
    let (c_alone, _) = rate_all(Config::default(), Vec::new(), &[alone]);
    assert_eq!(
        list.get(&"C".to_string()).expect("C").rating,
        c_alone.get(&"C".to_string()).expect("C").rating
    );
    // Two events instead of one: B's loss to A now comes first and C meets a changed B.
    let split = [
        event(
            "First",
            "2026-02-01",
            vec![game("A", "B", Played::WhiteWins)],
        ),
        event(
            "Second",
            "2026-02-02",
            vec![game("B", "C", Played::WhiteWins)],
        ),
    ];
    let (later, _) = rate_all(Config::default(), Vec::new(), &split);
    assert_ne!(
        list.get(&"C".to_string()).expect("C").rating,
        later.get(&"C".to_string()).expect("C").rating
    );
}

#[test]
fn events_are_rated_in_date_order_then_given_order() {
    let a = event(
        "March",
        "2026-03-01",
        vec![game("X", "Y", Played::WhiteWins)],
    );
    let b = event(
        "January",
        "2026-01-01",
        vec![game("Y", "X", Played::WhiteWins)],
    );
    let c = event(
        "Also March",
        "2026-03-01",
        vec![game("X", "Z", Played::Draw)],
    );
    let (list, reports) = rate_all(
        Config::default(),
        Vec::new(),
        &[a.clone(), b.clone(), c.clone()],
    );
    let order: Vec<usize> = reports.iter().map(|(i, _)| *i).collect();
    assert_eq!(order, [1, 0, 2]);
    let (by_hand, _) = rate_all(Config::default(), Vec::new(), &[b, a, c]);
    assert_eq!(list.list(), by_hand.list());
}

#[test]
fn inactivity_grows_the_deviation_once_per_full_30_days_before_the_event() {
    let first = event(
        "First",
        "2026-01-01",
        vec![game("A", "B", Played::WhiteWins)],
    );
    let mut after_29 = Ratings::new(Config::default(), Vec::new());
    after_29.rate(&first);
    let mut after_30 = after_29.clone();
    let a = after_29.get(&"A".to_string()).expect("A").rating;
    // 29 days: no growth; 30 days: one step of φ* = √(φ² + σ²) on the Glicko-2 scale.
    assert_eq!(after_29.pre_event(&"A".to_string(), date("2026-01-30")), a);
    let grown = after_30.pre_event(&"A".to_string(), date("2026-01-31"));
    let phi = a.deviation / 173.7178;
    let expected = (phi * phi + a.volatility * a.volatility).sqrt() * 173.7178;
    assert!((grown.deviation - expected).abs() < 1e-9, "{grown:?}");
    assert_eq!(grown.rating, a.rating);
    // The period then starts from the grown deviation.
    let second = event("Second", "2026-01-31", vec![game("A", "C", Played::Draw)]);
    let report = after_30.rate(&second);
    assert_eq!(report.players["A"].before, grown);
    // A player's first event has no inactivity before it.
    assert_eq!(report.players["C"].before, Rating::NEW);
    // Years away: capped at 350.
    assert_eq!(inactivity(a, 40 * 365).deviation, MAX_DEVIATION);
}

#[test]
fn forfeit_only_players_and_initial_players_keep_their_rating_and_are_listed() {
    let initial = read_initial_csv(
        "federation_id,name,rating,deviation,volatility\nGGF-9,\"Reyes, Ana\",1710.5,80,0.05\n",
    )
    .expect("a valid initial list");
    let entries = initial
        .iter()
        .map(|e| (e.federation_id.clone(), e.name.clone(), e.rating));
    let e = event(
        "Open",
        "2026-05-01",
        vec![game("GGF-1", "GGF-2", Played::Draw)],
    );
    let (list, _) = rate_all(Config::default(), entries, &[e]);
    let csv = list_csv(&list.list());
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "rank,federation_id,name,rating,deviation,volatility,games,events,last_event"
    );
    assert_eq!(
        lines[1],
        "1,GGF-9,\"Reyes, Ana\",1710.50,80.00,0.050000,0,0,"
    );
    // Two new players who drew: equal ratings, listed by federation id.
    assert!(
        lines[2].starts_with("2,GGF-1,Player GGF-1,1500.00,"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].starts_with("3,GGF-2,Player GGF-2,1500.00,"),
        "{}",
        lines[3]
    );
    assert!(lines[3].ends_with(",1,1,2026-05-01"), "{}", lines[3]);
}

#[test]
fn an_initial_entry_is_the_first_rating_of_a_player() {
    let strong = rating(2000.0, 50.0, 0.06);
    let e = event(
        "Open",
        "2026-05-01",
        vec![game("S", "N", Played::BlackWins)],
    );
    let (list, reports) = rate_all(
        Config::default(),
        vec![("S".to_string(), "Strong".to_string(), strong)],
        &[e],
    );
    let s = &reports[0].1.players["S"];
    assert_eq!(s.before, strong);
    assert!(s.after.rating < 2000.0);
    // An upset by a new player moves the new player a lot.
    assert!(list.get(&"N".to_string()).expect("N").rating.rating > 1700.0);
}

#[test]
fn tau_changes_the_volatility_and_is_checked() {
    let (initial, e) = papers_event();
    let mut a = Ratings::new(Config::new(0.3).expect("tau"), initial.clone());
    let mut b = Ratings::new(Config::new(1.2).expect("tau"), initial);
    let pa = a.rate(&e).players["P"].after;
    let pb = b.rate(&e).players["P"].after;
    assert_ne!(pa.volatility, pb.volatility);
    // Each list keeps the τ it was made with; the default is the spec's 0.5.
    assert_eq!(a.config().tau(), 0.3);
    assert_eq!(b.config().tau(), 1.2);
    assert_eq!(Config::default().tau(), 0.5);
    assert_eq!(Config::new(100.0).map(|c| c.tau()), Ok(100.0));
    for (bad, text) in [
        (0.0, "0"),
        (-0.5, "-0.5"),
        (f64::NAN, "NaN"),
        (f64::INFINITY, "inf"),
        (101.0, "101"),
    ] {
        assert_eq!(
            Config::new(bad).map(|c| c.tau()),
            Err(format!("tau {text} is not above 0 and at most 100")),
            "{bad}"
        );
    }
}

#[test]
fn initial_list_rows_are_checked_naming_the_line() {
    let cases = [
        (
            "federation_id,name,rating\n",
            "line 1: the header lacks the column(s) deviation, volatility",
        ),
        (
            "",
            "line 1: the file is empty: expected the header federation_id,name,rating,deviation,volatility",
        ),
        (
            "federation_id,name,rating,deviation,volatility\nA,a,1500,350,0.06\nA,b,1500,350,0.06\n",
            "line 3: federation id \"A\" is already on line 2",
        ),
        (
            "federation_id,name,rating,deviation,volatility\n,a,1500,350,0.06\n",
            "line 2: the federation_id is empty",
        ),
        (
            "federation_id,name,rating,deviation,volatility\nA,a,strong,350,0.06\n",
            "line 2: the rating \"strong\" is not a number",
        ),
        (
            "federation_id,name,rating,deviation,volatility\nA,a,1500,400,0.06\n",
            "line 2: deviation 400 is not above 0 and at most 350",
        ),
        (
            "federation_id,name,rating,deviation,volatility\nA,a,1500,300,0\n",
            "line 2: volatility 0 is not between 0 and 1",
        ),
    ];
    for (text, message) in cases {
        let e = read_initial_csv(text).expect_err(text);
        assert_eq!(e.to_string(), message, "{text}");
    }
    // Columns in any order, extra columns ignored, blank lines skipped.
    let ok = read_initial_csv(
        "Volatility,club,Rating,Deviation,Name,Federation_ID\n0.07,QC,1600,120,Ana,X-1\n\n",
    )
    .expect("valid");
    assert_eq!(ok.len(), 1);
    assert_eq!(ok[0].rating, rating(1600.0, 120.0, 0.07));
    assert_eq!(ok[0].federation_id, "X-1");
}
