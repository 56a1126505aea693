//! Properties of the rating list on generated events: a player who wins every game never
//! goes down; the order of games inside an event changes nothing; an event without games
//! changes nobody; inactivity never lowers a deviation and stops at 350; replaying stored
//! reports gives the list the computation gives.

use ggdesk_core::rating::{
    Config, Date, MAX_DEVIATION, Played, RatedEvent, RatedGame, Rating, Ratings, inactivity,
    rate_all,
};
use proptest::prelude::*;
use std::collections::BTreeMap;

const PLAYERS: u32 = 12;

fn played(n: u8) -> Played {
    match n % 3 {
        0 => Played::WhiteWins,
        1 => Played::Draw,
        _ => Played::BlackWins,
    }
}

/// Events of random games among `PLAYERS` players, a few days to a few months apart.
fn events() -> impl Strategy<Value = Vec<RatedEvent<u32>>> {
    let game = (0..PLAYERS, 1..PLAYERS, any::<u8>());
    let one = (prop::collection::vec(game, 0..25), 0i64..120);
    prop::collection::vec(one, 1..6).prop_map(|specs| {
        let mut day = Date::parse("2025-01-01").expect("date").days_since_epoch();
        specs
            .into_iter()
            .enumerate()
            .map(|(i, (games, gap))| {
                day += gap;
                let games: Vec<RatedGame<u32>> = games
                    .into_iter()
                    .map(|(w, d, r)| RatedGame {
                        white: w,
                        black: (w + d) % PLAYERS,
                        result: played(r),
                    })
                    .collect();
                let names = games
                    .iter()
                    .flat_map(|g| [g.white, g.black])
                    .map(|p| (p, format!("P{p}")))
                    .collect();
                RatedEvent {
                    name: format!("Event {i}"),
                    date: date_of(day),
                    names,
                    games,
                }
            })
            .collect()
    })
}

fn date_of(days: i64) -> Date {
    // Walk from 2025-01-01; the generated spans are short.
    let mut d = Date::parse("2025-01-01").expect("date");
    while d.days_since_epoch() < days {
        let next = Date::new(d.year(), d.month(), d.day() + 1)
            .or_else(|| Date::new(d.year(), d.month() + 1, 1))
            .or_else(|| Date::new(d.year() + 1, 1, 1))
            .expect("a next day");
        d = next;
    }
    d
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_player_who_wins_every_game_never_goes_down(evs in events(), winner in 0..PLAYERS) {
        // The winner wins every game they play; the others keep their results.
        let evs: Vec<RatedEvent<u32>> = evs.into_iter().map(|mut e| {
            for g in &mut e.games {
                if g.white == winner { g.result = Played::WhiteWins; }
                if g.black == winner { g.result = Played::BlackWins; }
            }
            e
        }).collect();
        let (_, reports) = rate_all(Config::default(), Vec::new(), &evs);
        for (_, report) in &reports {
            if let Some(p) = report.players.get(&winner) {
                prop_assert!(p.after.rating >= p.before.rating, "{p:?}");
            }
        }
    }

    #[test]
    fn the_order_of_games_inside_an_event_does_not_matter(evs in events(), seed in any::<u64>()) {
        let (list, reports) = rate_all(Config::default(), Vec::new(), &evs);
        let shuffled: Vec<RatedEvent<u32>> = evs.iter().map(|e| {
            let mut e = e.clone();
            // A deterministic shuffle from the seed, and each game seen from the other side.
            let n = e.games.len();
            let mut s = seed;
            for i in (1..n).rev() {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                e.games.swap(i, (s >> 33) as usize % (i + 1));
            }
            for g in &mut e.games {
                std::mem::swap(&mut g.white, &mut g.black);
                g.result = match g.result {
                    Played::WhiteWins => Played::BlackWins,
                    Played::BlackWins => Played::WhiteWins,
                    Played::Draw => Played::Draw,
                };
            }
            e
        }).collect();
        let (list2, reports2) = rate_all(Config::default(), Vec::new(), &shuffled);
        prop_assert_eq!(list.list(), list2.list());
        prop_assert_eq!(reports, reports2);
    }

    #[test]
    fn an_event_without_games_changes_nobody(evs in events(), at in 0usize..6) {
        let (before, _) = rate_all(Config::default(), Vec::new(), &evs);
        let at = at.min(evs.len());
        let mut with_empty = evs.clone();
        let on = if at < evs.len() { evs[at].date } else { evs[evs.len() - 1].date };
        with_empty.insert(at, RatedEvent {
            name: "No games".into(),
            date: on,
            names: BTreeMap::from([(0, "Somebody".to_string())]),
            games: Vec::new(),
        });
        let (after, reports) = rate_all(Config::default(), Vec::new(), &with_empty);
        prop_assert_eq!(before.list(), after.list());
        prop_assert!(reports.iter().any(|(_, r)| r.players.is_empty()));
    }

    #[test]
    fn inactivity_never_lowers_a_deviation_and_stops_at_350(
        deviation in 1.0f64..=350.0, volatility in 0.001f64..0.5, days in -100i64..20_000
    ) {
        let r = Rating::checked(1500.0, deviation, volatility).expect("valid");
        let after = inactivity(r, days);
        prop_assert!(after.deviation >= r.deviation);
        prop_assert!(after.deviation <= MAX_DEVIATION);
        prop_assert_eq!(after.rating, r.rating);
        prop_assert_eq!(after.volatility, r.volatility);
        // More time never gives less.
        prop_assert!(inactivity(r, days + 30).deviation >= after.deviation);
    }

    #[test]
    fn replaying_the_reports_gives_the_computed_list(evs in events(), from in 0usize..6) {
        let (list, reports) = rate_all(Config::default(), Vec::new(), &evs);
        // The earlier events from their reports, the later ones computed again.
        let from = from.min(reports.len());
        let mut again = Ratings::new(Config::default(), Vec::new());
        for (_, r) in &reports[..from] {
            again.replay(r);
        }
        for (i, r) in &reports[from..] {
            prop_assert_eq!(&again.rate(&evs[*i]), r);
        }
        prop_assert_eq!(again.list(), list.list());
    }
}
