//! The list against an oracle written from the spec and Glickman's paper alone (its own
//! Glicko-2 steps 1-8, its own inactivity and ordering), on generated events with random
//! dates, initial entries and τ: every printed row must agree.

use ggdesk_core::rating::list::{fmt2, fmt6};
use ggdesk_core::rating::{Config, Date, Played, RatedEvent, RatedGame, Rating, rate_all};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;

#[derive(Clone, Copy)]
struct R {
    r: f64,
    d: f64,
    v: f64,
}

/// One rating period of Glickman's "Example of the Glicko-2 system", steps 2-8.
fn glicko2_period(me: R, games: &[(R, f64)], tau: f64) -> R {
    let s = 173.7178;
    let mu = (me.r - 1500.0) / s;
    let phi = me.d / s;
    let g = |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
    let e = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
    let mut v_inv = 0.0;
    let mut sum = 0.0;
    for (o, score) in games {
        let (mu_j, phi_j) = ((o.r - 1500.0) / s, o.d / s);
        let ej = e(mu_j, phi_j);
        v_inv += g(phi_j).powi(2) * ej * (1.0 - ej);
        sum += g(phi_j) * (score - ej);
    }
    let v = 1.0 / v_inv;
    let delta = v * sum;
    let a = (me.v * me.v).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 0.000_001 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let sigma = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * sum;
    R {
        r: mu_new * s + 1500.0,
        d: phi_new * s,
        v: sigma,
    }
}

/// An event of the oracle: its day and its games (white, black, white's score).
type Event = (i64, Vec<(String, String, f64)>);

struct Player {
    name: String,
    r: R,
    games: u32,
    events: u32,
    last: Option<i64>,
}

/// The spec's list, computed by the oracle: (fid, name, rating, deviation, volatility,
/// games, events, last day).
fn oracle(initial: &[(String, R)], events: &[Event], tau: f64) -> Vec<String> {
    let mut players: BTreeMap<String, Player> = initial
        .iter()
        .map(|(k, r)| {
            (
                k.clone(),
                Player {
                    name: format!("Init {k}"),
                    r: *r,
                    games: 0,
                    events: 0,
                    last: None,
                },
            )
        })
        .collect();
    let mut order: Vec<usize> = (0..events.len()).collect();
    order.sort_by_key(|&i| events[i].0);
    for i in order {
        let (day, games) = &events[i];
        let mut pre: BTreeMap<String, R> = BTreeMap::new();
        for (w, b, _) in games {
            for k in [w, b] {
                let p = players.entry(k.clone()).or_insert(Player {
                    name: String::new(),
                    r: R {
                        r: 1500.0,
                        d: 350.0,
                        v: 0.06,
                    },
                    games: 0,
                    events: 0,
                    last: None,
                });
                let mut r = p.r;
                if let Some(last) = p.last {
                    for _ in 0..(day - last) / 30 {
                        let phi = r.d / 173.7178;
                        r.d = ((phi * phi + r.v * r.v).sqrt() * 173.7178).min(350.0);
                    }
                }
                pre.insert(k.clone(), r);
            }
        }
        let mut mine: BTreeMap<String, Vec<(R, f64)>> = BTreeMap::new();
        for (w, b, s) in games {
            mine.entry(w.clone()).or_default().push((pre[b], *s));
            mine.entry(b.clone()).or_default().push((pre[w], 1.0 - s));
        }
        for (k, gs) in mine {
            let p = players.get_mut(&k).expect("entered above");
            p.r = glicko2_period(pre[&k], &gs, tau);
            p.games += gs.len() as u32;
            p.events += 1;
            p.last = Some(*day);
            p.name = format!("Name {k}");
        }
    }
    let mut rows: Vec<(&String, &Player)> = players.iter().collect();
    rows.sort_by(|a, b| b.1.r.r.total_cmp(&a.1.r.r).then(a.0.cmp(b.0)));
    rows.iter()
        .map(|(k, p)| {
            format!(
                "{k},{},{:.2},{:.2},{:.6},{},{},{:?}",
                p.name, p.r.r, p.r.d, p.r.v, p.games, p.events, p.last
            )
        })
        .collect()
}

#[test]
fn the_list_agrees_with_an_oracle_from_the_paper_on_every_printed_row() {
    let mut rng = SmallRng::seed_from_u64(20_261_201);
    let mut rows_checked = 0;
    for _ in 0..40 {
        let n = rng.random_range(4..30usize);
        let tau = [0.3, 0.5, 0.75, 1.2][rng.random_range(0..4usize)];
        let key = |i: usize| format!("F{i:03}");
        let mut initial: Vec<(String, R)> = Vec::new();
        for i in 0..n {
            if rng.random_bool(0.3) {
                let r = R {
                    r: rng.random_range(1000.0..2300.0),
                    d: rng.random_range(40.0..350.0),
                    v: rng.random_range(0.03..0.09),
                };
                initial.push((key(i), r));
            }
        }
        let base = Date::parse("2024-01-01").expect("date").days_since_epoch();
        let events: Vec<Event> = (0..rng.random_range(1..8))
            .map(|_| {
                let day = base + rng.random_range(0..900);
                let games = (0..rng.random_range(0..40))
                    .map(|_| {
                        let w = rng.random_range(0..n);
                        let b = (w + rng.random_range(1..n)) % n;
                        let s = [1.0, 0.5, 0.0][rng.random_range(0..3usize)];
                        (key(w), key(b), s)
                    })
                    .collect();
                (day, games)
            })
            .collect();

        // The same through the core.
        let date_of = |day: i64| {
            let mut d = Date::parse("2024-01-01").expect("date");
            while d.days_since_epoch() < day {
                d = Date::new(d.year(), d.month(), d.day() + 1)
                    .or_else(|| Date::new(d.year(), d.month() + 1, 1))
                    .or_else(|| Date::new(d.year() + 1, 1, 1))
                    .expect("next day");
            }
            d
        };
        let rated: Vec<RatedEvent<String>> = events
            .iter()
            .map(|(day, games)| {
                let games: Vec<RatedGame<String>> = games
                    .iter()
                    .map(|(w, b, s)| RatedGame {
                        white: w.clone(),
                        black: b.clone(),
                        result: if *s == 1.0 {
                            Played::WhiteWins
                        } else if *s == 0.5 {
                            Played::Draw
                        } else {
                            Played::BlackWins
                        },
                    })
                    .collect();
                let names = games
                    .iter()
                    .flat_map(|g| [g.white.clone(), g.black.clone()])
                    .map(|k| (k.clone(), format!("Name {k}")))
                    .collect();
                RatedEvent {
                    name: String::new(),
                    date: date_of(*day),
                    names,
                    games,
                }
            })
            .collect();
        let init = initial.iter().map(|(k, r)| {
            (
                k.clone(),
                format!("Init {k}"),
                Rating::checked(r.r, r.d, r.v).expect("valid"),
            )
        });
        let (list, _) = rate_all(Config::new(tau).expect("tau"), init, &rated);
        let ours: Vec<String> = list
            .list()
            .iter()
            .map(|row| {
                let s = &row.standing;
                format!(
                    "{},{},{},{},{},{},{},{:?}",
                    row.key,
                    s.name,
                    fmt2(s.rating.rating),
                    fmt2(s.rating.deviation),
                    fmt6(s.rating.volatility),
                    s.games,
                    s.events,
                    s.last_event.map(|d| d.days_since_epoch())
                )
            })
            .collect();
        let expected = oracle(&initial, &events, tau);
        assert_eq!(ours, expected, "tau {tau}");
        rows_checked += ours.len();
    }
    assert!(rows_checked > 200, "{rows_checked}");
}
