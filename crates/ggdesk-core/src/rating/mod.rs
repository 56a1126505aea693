//! The rating list (`spec/ratings.md`): Glicko-2 over the rated events in date order, one
//! event one rating period. A pure fold: the list is a function of the initial entries and
//! the events, so a corrected result is a recomputation, never a patch.
//!
//! The Glicko-2 step itself is the `skillratings` crate's (`glicko2_rating_period` for an
//! event, `decay_deviation` for a period without games); this module decides what the spec
//! decides: which games count, the pre-event ratings, inactivity, first ratings, the order
//! of events and the list's order.
//!
//! - [`Date`]: `YYYY-MM-DD`, computed purely.
//! - [`Rating`], [`Config`] (τ), [`inactivity`].
//! - [`RatedEvent`]: the rated games of one event, keyed by any player key (a federation id
//!   for the files, a registry player in the store); [`event_file`] reads them from a
//!   `ggdesk-tournament/1` or `/2` file.
//! - [`Ratings`]: the state of the list, [`Ratings::rate`] one event, [`Ratings::list`] the
//!   rows in order; [`Ratings::replay`] takes an event's earlier report instead of computing it
//!   again (the store's incremental rebuild).
//! - [`list`]: the CSV and JSON of `ggdesk ratings`, and the `--initial` list.

pub mod event_file;
pub mod list;

pub use crate::date::{Date, DateError};
pub use event_file::{EventFault, EventFile, EventFileError, Unrated, event_file};

use crate::tournament::Score;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2_rating_period};
use std::collections::BTreeMap;
use std::f64::consts::PI;

/// The deviation of a new player, and the most inactivity can grow a deviation to.
pub const MAX_DEVIATION: f64 = 350.0;
/// A rating whose deviation is above this is provisional (marked on the list).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// A deviation grows once for every full this many days without a rated event.
pub const INACTIVITY_DAYS: i64 = 30;
/// The system constant unless the list says otherwise.
pub const DEFAULT_TAU: f64 = 0.5;
/// The largest τ accepted: the volatility iteration's bracketing takes about τ/2 steps, and
/// Glickman advises 0.3 to 1.2.
pub const MAX_TAU: f64 = 100.0;
/// Where an initial rating may lie: far enough apart that no expected score underflows.
pub const RATING_RANGE: (f64, f64) = (0.0, 10_000.0);
/// The convergence tolerance of the volatility iteration (the paper's).
pub const TOLERANCE: f64 = 0.000_001;
/// Glicko-2's scale factor between the Glicko scale and its own (the paper's 173.7178).
const SCALE: f64 = 173.7178;

/// A rating on the Glicko scale: rating, deviation and volatility.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// A new player's: 1500 / 350 / 0.06.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// An initial rating as a list gives it, checked: a rating within [`RATING_RANGE`], a
    /// deviation above 0 and at most 350, a volatility above 0 and below 1.
    pub fn checked(rating: f64, deviation: f64, volatility: f64) -> Result<Rating, String> {
        let (lo, hi) = RATING_RANGE;
        if !(rating.is_finite() && (lo..=hi).contains(&rating)) {
            return Err(format!("rating {rating} is not between {lo} and {hi}"));
        }
        if !(deviation.is_finite() && deviation > 0.0 && deviation <= MAX_DEVIATION) {
            return Err(format!(
                "deviation {deviation} is not above 0 and at most {MAX_DEVIATION}"
            ));
        }
        if !(volatility.is_finite() && volatility > 0.0 && volatility < 1.0) {
            return Err(format!("volatility {volatility} is not between 0 and 1"));
        }
        Ok(Rating {
            rating,
            deviation,
            volatility,
        })
    }

    /// Deviation above [`PROVISIONAL_DEVIATION`].
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    fn glicko2(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko2(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// The system's settings: τ (the convergence tolerance is the paper's, fixed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    tau: f64,
}

impl Default for Config {
    fn default() -> Config {
        Config { tau: DEFAULT_TAU }
    }
}

impl Config {
    /// τ above 0 and at most [`MAX_TAU`].
    pub fn new(tau: f64) -> Result<Config, String> {
        if tau.is_finite() && tau > 0.0 && tau <= MAX_TAU {
            Ok(Config { tau })
        } else {
            Err(format!("tau {tau} is not above 0 and at most {MAX_TAU}"))
        }
    }

    pub fn tau(&self) -> f64 {
        self.tau
    }

    fn glicko2(&self) -> Glicko2Config {
        Glicko2Config {
            tau: self.tau,
            convergence_tolerance: TOLERANCE,
        }
    }
}

/// A rating before an event `days` after the player's last rated event: the deviation grows
/// by Glicko-2's step for a period without games (φ* = √(φ² + σ²)) once for every full
/// [`INACTIVITY_DAYS`], capped at [`MAX_DEVIATION`]. Never lowers a deviation.
pub fn inactivity(r: Rating, days: i64) -> Rating {
    let mut out = r;
    for _ in 0..days.max(0) / INACTIVITY_DAYS {
        if out.deviation >= MAX_DEVIATION {
            // At the cap every further step gives the cap again: nothing more to do.
            break;
        }
        let grown = Rating::from_glicko2(decay_deviation(&out.glicko2()));
        out.deviation = grown.deviation.max(out.deviation);
    }
    out
}

/// The result of a game played over the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Played {
    WhiteWins,
    Draw,
    BlackWins,
}

impl Played {
    /// The score of white in half-points (2, 1, 0).
    fn white_halves(self) -> i64 {
        match self {
            Played::WhiteWins => 2,
            Played::Draw => 1,
            Played::BlackWins => 0,
        }
    }
}

/// A rated game: both players keyed, played over the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedGame<K> {
    pub white: K,
    pub black: K,
    pub result: Played,
}

/// The rated games of one event, with its date and what each player was called in it.
#[derive(Debug, Clone, PartialEq)]
pub struct RatedEvent<K> {
    pub name: String,
    pub date: Date,
    /// Every rated player of the event (with or without games) and the name they had in it.
    pub names: BTreeMap<K, String>,
    pub games: Vec<RatedGame<K>>,
}

/// What one event was for one player of its rating period.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerEvent {
    /// The name the player had in the event.
    pub name: String,
    /// The rating the period started from (after inactivity).
    pub before: Rating,
    pub after: Rating,
    /// Rated games in the event.
    pub games: u32,
    /// Points scored in them (win 1, draw 0.5), exact.
    pub score: Score,
    /// The sum of Glicko-2's expected scores E(μ, μⱼ, φⱼ) against the opponents' pre-event
    /// ratings, as the period's update uses them.
    pub expected: f64,
}

impl PlayerEvent {
    /// After minus before.
    pub fn change(&self) -> f64 {
        self.after.rating - self.before.rating
    }
}

/// An event's rating report: each player of its period, by key.
#[derive(Debug, Clone, PartialEq)]
pub struct EventReport<K> {
    pub date: Date,
    pub players: BTreeMap<K, PlayerEvent>,
}

/// A player on the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// The name in the latest rated event (or the initial list's).
    pub name: String,
    pub rating: Rating,
    pub games: u32,
    pub events: u32,
    /// The date of the latest event with a rated game.
    pub last_event: Option<Date>,
}

/// A row of the list in order.
#[derive(Debug, Clone, PartialEq)]
pub struct ListRow<K> {
    /// 1, 2, 3, … (no shared ranks).
    pub rank: u32,
    pub key: K,
    pub standing: Standing,
}

/// The rating list as it stands after the events rated so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Ratings<K> {
    config: Config,
    /// First ratings of players not yet rated (the initial list).
    initial: BTreeMap<K, (String, Rating)>,
    players: BTreeMap<K, Standing>,
}

/// Glicko-2's g(φ) and E(μ, μⱼ, φⱼ), on its own scale: the expected score as the rating
/// period's update uses it (the paper's step 3).
fn expected_score(player: &Rating, opponent: &Rating) -> f64 {
    let mu = (player.rating - 1500.0) / SCALE;
    let mu_j = (opponent.rating - 1500.0) / SCALE;
    let phi_j = opponent.deviation / SCALE;
    let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (PI * PI)).sqrt();
    1.0 / (1.0 + (-g * (mu - mu_j)).exp())
}

impl<K: Ord + Clone> Ratings<K> {
    /// An empty list with the initial entries (a player's first rating, name kept until
    /// they play).
    pub fn new(config: Config, initial: impl IntoIterator<Item = (K, String, Rating)>) -> Self {
        let initial: BTreeMap<K, (String, Rating)> = initial
            .into_iter()
            .map(|(k, name, r)| (k, (name, r)))
            .collect();
        let players = initial
            .iter()
            .map(|(k, (name, r))| {
                (
                    k.clone(),
                    Standing {
                        name: name.clone(),
                        rating: *r,
                        games: 0,
                        events: 0,
                        last_event: None,
                    },
                )
            })
            .collect();
        Ratings {
            config,
            initial,
            players,
        }
    }

    pub fn config(&self) -> Config {
        self.config
    }

    /// A player's standing (listed players only: played, or on the initial list).
    pub fn get(&self, key: &K) -> Option<&Standing> {
        self.players.get(key)
    }

    /// The rating a player would start an event on `date` from: their last rating with
    /// the inactivity since their last rated event, or their first rating.
    pub fn pre_event(&self, key: &K, date: Date) -> Rating {
        match self.players.get(key) {
            Some(s) => match s.last_event {
                Some(last) => inactivity(s.rating, last.days_until(date)),
                None => s.rating,
            },
            None => self.initial.get(key).map_or(Rating::NEW, |(_, r)| *r),
        }
    }

    /// Rates one event (one rating period) and returns its report. Events must come in
    /// date order; a player without a game in it is not in its period and keeps everything.
    pub fn rate(&mut self, event: &RatedEvent<K>) -> EventReport<K> {
        // Each player's games, scored from their side.
        let mut results: BTreeMap<&K, Vec<(&K, i64)>> = BTreeMap::new();
        for g in &event.games {
            let white = g.result.white_halves();
            results.entry(&g.white).or_default().push((&g.black, white));
            results
                .entry(&g.black)
                .or_default()
                .push((&g.white, 2 - white));
        }
        // Everyone's pre-event rating first: the period rates all games at once.
        let pre: BTreeMap<&K, Rating> = results
            .keys()
            .map(|k| (*k, self.pre_event(k, event.date)))
            .collect();
        let mut report = BTreeMap::new();
        for (key, mut games) in results {
            // A canonical order, so that the order of games in the file changes nothing,
            // not even the last bit of a sum.
            games.sort();
            let me = pre[key];
            let period: Vec<(Glicko2Rating, Outcomes)> = games
                .iter()
                .map(|(opp, halves)| {
                    let outcome = match halves {
                        2 => Outcomes::WIN,
                        1 => Outcomes::DRAW,
                        _ => Outcomes::LOSS,
                    };
                    (pre[opp].glicko2(), outcome)
                })
                .collect();
            let after = Rating::from_glicko2(glicko2_rating_period(
                &me.glicko2(),
                &period,
                &self.config.glicko2(),
            ));
            let expected = games
                .iter()
                .map(|(opp, _)| expected_score(&me, &pre[opp]))
                .sum();
            let name = event
                .names
                .get(key)
                .cloned()
                .or_else(|| self.players.get(key).map(|s| s.name.clone()))
                .unwrap_or_default();
            report.insert(
                key.clone(),
                PlayerEvent {
                    name,
                    before: me,
                    after,
                    games: u32::try_from(games.len()).unwrap_or(u32::MAX),
                    score: Score::from_halves(games.iter().map(|(_, h)| h).sum()),
                    expected,
                },
            );
        }
        let report = EventReport {
            date: event.date,
            players: report,
        };
        self.replay(&report);
        report
    }

    /// Takes an event's report as rated before (the store's cache) instead of rating the
    /// event again: the list then stands as if [`Ratings::rate`] had run.
    pub fn replay(&mut self, report: &EventReport<K>) {
        for (key, p) in &report.players {
            let s = self.players.entry(key.clone()).or_insert_with(|| Standing {
                name: String::new(),
                rating: Rating::NEW,
                games: 0,
                events: 0,
                last_event: None,
            });
            s.name = p.name.clone();
            s.rating = p.after;
            s.games = s.games.saturating_add(p.games);
            s.events = s.events.saturating_add(1);
            s.last_event = Some(report.date);
        }
    }

    /// The list: highest rating first, then key; ranks 1, 2, 3, …
    pub fn list(&self) -> Vec<ListRow<K>> {
        let mut rows: Vec<(&K, &Standing)> = self.players.iter().collect();
        rows.sort_by(|a, b| {
            b.1.rating
                .rating
                .total_cmp(&a.1.rating.rating)
                .then_with(|| a.0.cmp(b.0))
        });
        rows.into_iter()
            .enumerate()
            .map(|(i, (k, s))| ListRow {
                rank: u32::try_from(i + 1).unwrap_or(u32::MAX),
                key: k.clone(),
                standing: s.clone(),
            })
            .collect()
    }
}

/// Rates events from scratch: sorted by date (a stable sort: events of one date keep their
/// order), each one period. Returns the list and every event's report, in rating order.
pub fn rate_all<K: Ord + Clone>(
    config: Config,
    initial: impl IntoIterator<Item = (K, String, Rating)>,
    events: &[RatedEvent<K>],
) -> (Ratings<K>, Vec<(usize, EventReport<K>)>) {
    let mut order: Vec<usize> = (0..events.len()).collect();
    order.sort_by_key(|&i| events[i].date);
    let mut ratings = Ratings::new(config, initial);
    let reports = order
        .into_iter()
        .map(|i| (i, ratings.rate(&events[i])))
        .collect();
    (ratings, reports)
}

/// Why the rating list refuses a change of which events it rates.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RatingRefusal {
    /// `event` is how the desk names the event (`"Spring Open"`, or `tournament 4`).
    #[error("{event} cannot be rated before it is complete: {why}")]
    NotComplete { event: String, why: String },
    #[error("{event} is already rated on {date}")]
    AlreadyRated { event: String, date: Date },
    #[error("taking an event off the rating list needs a reason")]
    UnrateNeedsReason,
    #[error("{0} is not rated")]
    NotRated(String),
}

/// An event as the rating list names it: its name in quotes, or `tournament N` when it has
/// none.
pub fn event_words(name: &str, id: crate::tournament::TournamentId) -> String {
    if name.trim().is_empty() {
        format!("tournament {id}")
    } else {
        format!("\"{name}\"")
    }
}

/// Whether an event may be marked rated on `date`: complete (`not_ready` says why not),
/// and not rated on that date already.
pub fn check_mark(
    event: &str,
    not_ready: Option<&str>,
    rated: Option<Date>,
    date: Date,
) -> Result<(), RatingRefusal> {
    if let Some(why) = not_ready {
        return Err(RatingRefusal::NotComplete {
            event: event.to_string(),
            why: why.to_string(),
        });
    }
    if rated == Some(date) {
        return Err(RatingRefusal::AlreadyRated {
            event: event.to_string(),
            date,
        });
    }
    Ok(())
}

/// Whether an event may be taken off the rating list: with a reason, and rated.
pub fn check_unmark(event: &str, rated: bool, reason: &str) -> Result<(), RatingRefusal> {
    if reason.trim().is_empty() {
        return Err(RatingRefusal::UnrateNeedsReason);
    }
    if !rated {
        return Err(RatingRefusal::NotRated(event.to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn expected_score_is_the_papers_e() {
        // Step 3 of Glickman's example: E against 1400/30 is 0.639.
        let e = expected_score(&r(1500.0, 200.0), &r(1400.0, 30.0));
        assert!((e - 0.639).abs() < 0.0005, "{e}");
        let e = expected_score(&r(1500.0, 200.0), &r(1700.0, 300.0));
        assert!((e - 0.303).abs() < 0.0005, "{e}");
        // Neither player at the scale's centre (1500), worked with the paper's formula by
        // hand: μ = 200 / 173.7178, g(50 / 173.7178) = 0.98764, E = 0.7571; and
        // μ - μⱼ = -200 / 173.7178 against a deviation of 120: E = 0.2543.
        let e = expected_score(&r(1700.0, 50.0), &r(1500.0, 50.0));
        assert!((e - 0.7571).abs() < 0.00005, "{e}");
        let e = expected_score(&r(1400.0, 80.0), &r(1600.0, 120.0));
        assert!((e - 0.2543).abs() < 0.00005, "{e}");
    }

    #[test]
    fn provisional_means_a_deviation_above_110() {
        assert!(!r(1500.0, 109.99).is_provisional());
        assert!(!r(1500.0, 110.0).is_provisional());
        assert!(r(1500.0, 110.01).is_provisional());
        assert!(r(1500.0, 350.0).is_provisional());
    }

    #[test]
    fn inactivity_counts_full_periods_only() {
        let start = r(1600.0, 100.0);
        assert_eq!(inactivity(start, 29), start);
        let once = inactivity(start, 30);
        assert!(once.deviation > 100.0);
        assert_eq!(inactivity(start, 59), once);
        assert!(inactivity(start, 60).deviation > once.deviation);
        assert_eq!(inactivity(start, -400), start);
    }
}
