//! Properties on random tournaments: the file round-trips, and the standings equal a naive
//! computation written here straight from the spec, working on the file's JSON.

#[path = "../../../tests/fixtures/tournaments/random.rs"]
mod random;

use ggdesk_core::pairing::pair_next_round;
use ggdesk_core::tournament::{Ratio, Tournament, standings};
use proptest::prelude::*;
use serde_json::Value;
use std::collections::HashMap;

/// One row of the naive standings: id, rank, score, tie-break values.
type Row = (u64, u32, Ratio, Vec<Ratio>);

fn num(v: &Value) -> i128 {
    // Points are multiples of 0.5: work in halves.
    (v.as_f64().expect("number") * 2.0) as i128
}

/// The standings of a tournament file, computed the plainest way from the spec.
fn naive(file: &Value) -> Vec<Row> {
    let settings = &file["settings"];
    let mut points: HashMap<&str, i128> = [
        ("win", 4),
        ("draw", 2),
        ("loss", 0),
        ("bye", 4),
        ("forfeit_win", 4),
        ("forfeit_loss", 0),
        ("absent", 0),
    ]
    .into_iter()
    .collect();
    if let Some(p) = settings["points"].as_object() {
        for (k, v) in p {
            // The keys are those of the defaults above.
            let key = *points.keys().find(|x| **x == k).expect("known key");
            points.insert(key, num(v));
        }
    }
    let tiebreaks: Vec<String> = settings["tiebreaks"]
        .as_array()
        .expect("list")
        .iter()
        .map(|t| t.as_str().expect("name").to_string())
        .collect();
    let players = file["players"].as_array().expect("players");
    let ids: Vec<u64> = players
        .iter()
        .map(|p| p["id"].as_u64().expect("id"))
        .collect();
    let rating: Vec<i64> = players
        .iter()
        .map(|p| p["rating"].as_i64().unwrap_or(0))
        .collect();
    let at = |id: u64| ids.iter().position(|&x| x == id).expect("known id");
    let n = ids.len();
    let rounds = file["rounds"].as_array().expect("rounds");

    /// (points in halves, opponent whose score counts, won over the board, played over the
    /// board).
    type RoundOf = (i128, Option<usize>, bool, bool);
    // Per player per round: (points in halves, opponent whose score counts, won over the
    // board, played over the board).
    let mut sheet = vec![Vec::new(); n];
    let mut forfeit_wins = vec![0usize; n];
    for r in rounds {
        // `None`: a pending game, left out of the player's rounds altogether.
        let mut this: Vec<Option<RoundOf>> = vec![Some((points["absent"], None, false, false)); n];
        for g in r["games"].as_array().expect("games") {
            let (w, b) = (
                at(g["white"].as_u64().expect("w")),
                at(g["black"].as_u64().expect("b")),
            );
            let res = g["result"].as_str().expect("result");
            let (pw, pb, played) = match res {
                "white" => (points["win"], points["loss"], true),
                "black" => (points["loss"], points["win"], true),
                "draw" => (points["draw"], points["draw"], true),
                "white_forfeit" => (points["forfeit_win"], points["forfeit_loss"], false),
                "black_forfeit" => (points["forfeit_loss"], points["forfeit_win"], false),
                "double_forfeit" => (points["forfeit_loss"], points["forfeit_loss"], false),
                "pending" => (0, 0, false),
                other => panic!("unknown result {other}"),
            };
            // The opponent's score counts unless the game was forfeited. Only games played
            // over the board count as meetings.
            let pending = res == "pending";
            this[w] = (!pending).then_some((pw, played.then_some(b), res == "white", played));
            this[b] = (!pending).then_some((pb, played.then_some(w), res == "black", played));
            match res {
                "white_forfeit" => forfeit_wins[w] += 1,
                "black_forfeit" => forfeit_wins[b] += 1,
                _ => {}
            }
        }
        for b in r["byes"].as_array().into_iter().flatten() {
            this[at(b.as_u64().expect("id"))] = Some((points["bye"], None, false, false));
        }
        for (p, x) in this.into_iter().enumerate() {
            sheet[p].extend(x);
        }
    }
    let mut score: Vec<i128> = sheet.iter().map(|s| s.iter().map(|x| x.0).sum()).collect();
    for pen in file["penalties"].as_array().into_iter().flatten() {
        score[at(pen["player"].as_u64().expect("id"))] -= num(&pen["points"]);
    }
    let values = |p: usize| -> Vec<i128> {
        sheet[p]
            .iter()
            .map(|x| x.1.map_or(score[p], |o| score[o]))
            .collect()
    };
    let h = |x: i128| Ratio::new(x, 2);
    let mut cols: Vec<Vec<Ratio>> = Vec::new();
    for (k, tb) in tiebreaks.iter().enumerate() {
        let col: Vec<Ratio> = (0..n)
            .map(|p| {
                let mut v = values(p);
                v.sort();
                let sum: i128 = v.iter().sum();
                match tb.as_str() {
                    "buchholz" => h(sum),
                    "buchholz_cut1" => h(v.iter().skip(1).sum()),
                    "median_buchholz" => {
                        let len = v.len();
                        h(v.iter().skip(1).take(len.saturating_sub(2)).sum())
                    }
                    "sonneborn_berger" => {
                        if points["win"] == 0 {
                            return Ratio::ZERO;
                        }
                        let mut total = Ratio::ZERO;
                        for (x, val) in sheet[p].iter().zip(values(p)) {
                            // (val/2) · (x/2) / (win/2)
                            let term = Ratio::new(val * x.0, 2 * points["win"]);
                            total = Ratio::new(
                                total.numerator() * term.denominator()
                                    + term.numerator() * total.denominator(),
                                total.denominator() * term.denominator(),
                            );
                        }
                        total
                    }
                    "progressive" => {
                        let mut run = 0;
                        let mut t = 0;
                        for x in &sheet[p] {
                            run += x.0;
                            t += run;
                        }
                        h(t)
                    }
                    "wins" => Ratio::new(sheet[p].iter().filter(|x| x.2).count() as i128, 1),
                    "fewest_forfeit_wins" => Ratio::new(-(forfeit_wins[p] as i128), 1),
                    "direct_encounter" => {
                        let tied: Vec<usize> = (0..n)
                            .filter(|&q| {
                                score[q] == score[p] && (0..k).all(|j| cols[j][q] == cols[j][p])
                            })
                            .collect();
                        let met =
                            |a: usize, b: usize| sheet[a].iter().any(|x| x.3 && x.1 == Some(b));
                        let all = tied
                            .iter()
                            .all(|&a| tied.iter().all(|&b| a == b || met(a, b)));
                        if !all {
                            return Ratio::ZERO;
                        }
                        h(sheet[p]
                            .iter()
                            .filter(|x| x.3 && x.1.is_some_and(|o| tied.contains(&o)))
                            .map(|x| x.0)
                            .sum())
                    }
                    other => panic!("unknown tie-break {other}"),
                }
            })
            .collect();
        cols.push(col);
    }
    let key =
        |p: usize| -> (Ratio, Vec<Ratio>) { (h(score[p]), cols.iter().map(|c| c[p]).collect()) };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        key(b)
            .cmp(&key(a))
            .then(rating[b].cmp(&rating[a]))
            .then(ids[a].cmp(&ids[b]))
    });
    order
        .iter()
        .map(|&p| {
            let rank = 1 + (0..n).filter(|&q| key(q) > key(p)).count() as u32;
            (ids[p], rank, h(score[p]), key(p).1)
        })
        .collect()
}

fn library(t: &Tournament) -> Vec<Row> {
    standings(t, t.rounds().len())
        .rows
        .into_iter()
        .map(|r| (u64::from(r.id.0), r.rank, r.score.to_ratio(), r.tiebreaks))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn standings_equal_a_naive_computation_and_survive_the_round_trip(
        seed in any::<u64>(),
        size in 2u32..=60,
        leave_pending in any::<bool>(),
    ) {
        let mut t = random::swiss(seed, size, 7).tournament;
        if leave_pending && let Ok(p) = pair_next_round(&t, &[]) {
            t.add_round(p.to_round()).expect("valid");
        }
        let text = t.to_json();
        let back = Tournament::from_json(&text).expect("the written file reads back");
        prop_assert_eq!(&back, &t);
        let file: Value = serde_json::from_str(&text).expect("JSON");
        prop_assert_eq!(library(&back), naive(&file));
    }
}

#[test]
fn a_generated_round_robin_round_trips_with_its_standings() {
    let t = random::round_robin(5, 9, 2);
    let back = Tournament::from_json(&t.to_json()).expect("reads back");
    assert_eq!(back, t);
    let file: Value = serde_json::from_str(&t.to_json()).expect("JSON");
    assert_eq!(library(&t), naive(&file));
}
