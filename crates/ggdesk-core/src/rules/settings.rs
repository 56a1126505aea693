//! The rule settings of `RULES.md`, each with its GGF default, and their one JSON encoding.

use serde_json::{Map, Value, json};

/// Every number `RULES.md` marks *(setting)*. Durations are whole nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleSettings {
    /// Thinking time per move before an overstep (2 minutes).
    pub move_limit_ns: i64,
    /// The overstep that loses the game (the 3rd).
    pub oversteps_to_lose: u32,
    /// Playing time before the game is adjudicated (2 hours).
    pub game_limit_ns: i64,
    /// Complete moves without a challenge that end the game (30; 0 turns it off).
    pub thirty_moves: u32,
    /// Moves of one attacked piece between two squares that draw (5; 0 turns it off).
    pub perpetual_short: u32,
    /// Moves of one attacked piece through more squares that draw (16; 0 turns it off).
    pub perpetual_long: u32,
    /// Complete moves each side must have made before a draw for respect (10).
    pub respect_min_moves: u32,
    /// Setup time per side (5 minutes); the desk's setup timer.
    pub setup_limit_ns: i64,
    /// Reading time for adjudication (15 minutes); the desk's reading timer.
    pub reading_limit_ns: i64,
    /// Grace period after the official start before a default loss (30 minutes).
    pub grace_ns: i64,
}

pub const NS_PER_S: i64 = 1_000_000_000;

/// The longest duration a setting may hold: 2^33 s (about 272 years). Every limit is then
/// exact in whole nanoseconds inside an `i64`, and far below the longest time a record may
/// carry, so a limit is never cut short.
pub const MAX_SETTING_SECS: f64 = 8_589_934_592.0;

/// How that bound reads in an error message.
const MAX_SETTING_TEXT: &str = "2^33 s, about 272 years";

impl Default for RuleSettings {
    fn default() -> Self {
        RuleSettings {
            move_limit_ns: 120 * NS_PER_S,
            oversteps_to_lose: 3,
            game_limit_ns: 7200 * NS_PER_S,
            thirty_moves: 30,
            perpetual_short: 5,
            perpetual_long: 16,
            respect_min_moves: 10,
            setup_limit_ns: 300 * NS_PER_S,
            reading_limit_ns: 900 * NS_PER_S,
            grace_ns: 1800 * NS_PER_S,
        }
    }
}

/// Why a rules object is refused; names the key (`rules.game_limit_s`, or the prefix the
/// caller gives, such as `settings.rules`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("{prefix} must be an object")]
    NotAnObject { prefix: String },
    #[error("{prefix}.{key} must be a number of seconds, not negative")]
    NotSeconds { prefix: String, key: String },
    #[error("{prefix}.{key} must be a whole number of seconds")]
    NotWholeSeconds { prefix: String, key: String },
    #[error("{prefix}.{key} = {value} s is beyond the longest setting ({MAX_SETTING_TEXT})")]
    TooLong {
        prefix: String,
        key: String,
        value: String,
    },
    #[error("{prefix}.{key} must be a whole number of at least {min}")]
    NotCount {
        prefix: String,
        key: String,
        min: u32,
    },
    #[error(
        "{prefix}.{key} is not a rule setting (the settings are {})",
        known_keys()
    )]
    UnknownKey { prefix: String, key: String },
}

/// The keys of the one encoding ([`RuleSettings::to_value`]), in its order: the record's
/// seven, then the desk's three timers. Taken from the encoding itself, so that the list
/// cannot drift from what is written and read.
fn known_keys() -> String {
    let encoding = RuleSettings::default().to_value();
    let keys: Vec<&str> = encoding
        .as_object()
        .into_iter()
        .flat_map(Map::keys)
        .map(String::as_str)
        .collect();
    keys.join(", ")
}

/// Which keys a rules object may hold, and what becomes of others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keys {
    /// A record's `rules`: the seven rule keys; any other key is ignored (the spec lists
    /// the keys it defines and outside tools write records).
    Record,
    /// The full encoding ggdesk writes itself (games, tournaments): the seven keys and the
    /// three timers; any other key is refused, since ggdesk never writes one and reading it
    /// as a default would replay a game under other rules.
    All,
}

fn secs_of(ns: i64) -> f64 {
    ns as f64 / NS_PER_S as f64
}

impl RuleSettings {
    /// A game record's `rules` object: the seven keys of `spec/record.md`.
    pub fn record_value(&self) -> Value {
        json!({
            "move_limit_s": secs_of(self.move_limit_ns),
            "oversteps_to_lose": self.oversteps_to_lose,
            "game_limit_s": secs_of(self.game_limit_ns),
            "thirty_moves": self.thirty_moves,
            "perpetual_short": self.perpetual_short,
            "perpetual_long": self.perpetual_long,
            "respect_min_moves": self.respect_min_moves,
        })
    }

    /// The desk's timers: `setup_s`, `reading_s`, `grace_s` (whole seconds).
    pub fn timers_value(&self) -> Value {
        json!({
            "setup_s": self.setup_limit_ns / NS_PER_S,
            "reading_s": self.reading_limit_ns / NS_PER_S,
            "grace_s": self.grace_ns / NS_PER_S,
        })
    }

    /// The one encoding of every setting: the record's seven keys and the desk's three
    /// timers. A tournament's `settings.rules` and every stored game's rules are written so.
    pub fn to_value(&self) -> Value {
        let mut obj = match self.record_value() {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        if let Value::Object(timers) = self.timers_value() {
            obj.extend(timers);
        }
        Value::Object(obj)
    }

    /// Reads [`RuleSettings::to_value`] back. A key not written keeps its GGF default (rules
    /// stored before the timers were, with the seven record keys only, meant exactly that);
    /// a value of the wrong type, negative or beyond the bound, and an unknown key, are
    /// refused with the key named after `prefix`.
    pub fn from_value(v: &Value, prefix: &str) -> Result<RuleSettings, RulesError> {
        Self::read(Some(v), prefix, Keys::All)
    }

    /// Reads a game record's `rules` (absent or null: the GGF defaults). Keys other than the
    /// seven of the record format are ignored; the timers keep their defaults.
    pub fn from_record_value(v: Option<&Value>) -> Result<RuleSettings, RulesError> {
        Self::read(v, "rules", Keys::Record)
    }

    /// Sets the desk's timers from an object of `setup_s`, `reading_s`, `grace_s` (each
    /// optional); any other key is refused.
    pub fn read_timers(&mut self, v: &Value, prefix: &str) -> Result<(), RulesError> {
        let obj = v.as_object().ok_or_else(|| RulesError::NotAnObject {
            prefix: prefix.into(),
        })?;
        for (key, value) in obj {
            if !self.read_timer(key, value, prefix)? {
                return Err(RulesError::UnknownKey {
                    prefix: prefix.into(),
                    key: key.clone(),
                });
            }
        }
        Ok(())
    }

    fn read(v: Option<&Value>, prefix: &str, keys: Keys) -> Result<RuleSettings, RulesError> {
        let mut rules = RuleSettings::default();
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return Ok(rules);
        };
        let obj = v.as_object().ok_or_else(|| RulesError::NotAnObject {
            prefix: prefix.into(),
        })?;
        for (key, value) in obj {
            let known = rules.read_rule(key, value, prefix)?
                || (keys == Keys::All && rules.read_timer(key, value, prefix)?);
            if !known && keys == Keys::All {
                return Err(RulesError::UnknownKey {
                    prefix: prefix.into(),
                    key: key.clone(),
                });
            }
        }
        Ok(rules)
    }

    /// Reads one of the seven record keys; false if `key` is not one.
    fn read_rule(&mut self, key: &str, value: &Value, prefix: &str) -> Result<bool, RulesError> {
        match key {
            "move_limit_s" => self.move_limit_ns = duration(value, prefix, key)?,
            "game_limit_s" => self.game_limit_ns = duration(value, prefix, key)?,
            "oversteps_to_lose" => self.oversteps_to_lose = count(value, prefix, key, 1)?,
            "thirty_moves" => self.thirty_moves = count(value, prefix, key, 0)?,
            "perpetual_short" => self.perpetual_short = count(value, prefix, key, 0)?,
            "perpetual_long" => self.perpetual_long = count(value, prefix, key, 0)?,
            "respect_min_moves" => self.respect_min_moves = count(value, prefix, key, 0)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Reads one of the three timer keys; false if `key` is not one.
    fn read_timer(&mut self, key: &str, value: &Value, prefix: &str) -> Result<bool, RulesError> {
        let slot = match key {
            "setup_s" => &mut self.setup_limit_ns,
            "reading_s" => &mut self.reading_limit_ns,
            "grace_s" => &mut self.grace_ns,
            _ => return Ok(false),
        };
        // The desk's timers are whole seconds (the tournament keeps them so).
        let ns = duration(value, prefix, key)?;
        if ns % NS_PER_S != 0 {
            return Err(RulesError::NotWholeSeconds {
                prefix: prefix.into(),
                key: key.into(),
            });
        }
        *slot = ns;
        Ok(true)
    }
}

/// A duration setting in seconds, as whole nanoseconds: not negative, at most
/// [`MAX_SETTING_SECS`].
fn duration(v: &Value, prefix: &str, key: &str) -> Result<i64, RulesError> {
    let secs = v
        .as_f64()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| RulesError::NotSeconds {
            prefix: prefix.into(),
            key: key.into(),
        })?;
    if secs > MAX_SETTING_SECS {
        return Err(RulesError::TooLong {
            prefix: prefix.into(),
            key: key.into(),
            value: secs.to_string(),
        });
    }
    // At most 2^33 s, so at most 8.6 · 10^18 ns: inside an i64.
    Ok((secs * NS_PER_S as f64).round() as i64)
}

/// A count setting: a whole number of at least `min`, also when written as a float
/// (`30.0`). A count beyond `u32` is as good as never reached and is held as `u32::MAX`.
fn count(v: &Value, prefix: &str, key: &str, min: u32) -> Result<u32, RulesError> {
    let n = v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0)
            .map(|f| f.min(u64::MAX as f64) as u64)
    });
    n.filter(|&n| n >= u64::from(min))
        .map(|n| n.min(u64::from(u32::MAX)) as u32)
        .ok_or_else(|| RulesError::NotCount {
            prefix: prefix.into(),
            key: key.into(),
            min,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_round_trips_through_the_one_encoding() {
        let rules = RuleSettings {
            move_limit_ns: 90 * NS_PER_S + 500_000_000,
            oversteps_to_lose: 2,
            game_limit_ns: 3600 * NS_PER_S,
            thirty_moves: 0,
            perpetual_short: 4,
            perpetual_long: 12,
            respect_min_moves: 8,
            setup_limit_ns: 420 * NS_PER_S,
            reading_limit_ns: 600 * NS_PER_S,
            grace_ns: 1200 * NS_PER_S,
        };
        let v = rules.to_value();
        assert_eq!(v.as_object().map(Map::len), Some(10));
        assert_eq!(RuleSettings::from_value(&v, "rules"), Ok(rules));
        // The record's object has the seven keys only, and reads back without the timers.
        let r = rules.record_value();
        assert_eq!(r.as_object().map(Map::len), Some(7));
        let back = RuleSettings::from_record_value(Some(&r)).expect("reads");
        assert_eq!(
            back,
            RuleSettings {
                setup_limit_ns: 300 * NS_PER_S,
                reading_limit_ns: 900 * NS_PER_S,
                grace_ns: 1800 * NS_PER_S,
                ..rules
            }
        );
    }

    #[test]
    fn bad_values_and_unknown_keys_are_refused_naming_the_key() {
        let refused = |v: Value| RuleSettings::from_value(&v, "game 7 rules").expect_err("refused");
        let at = |key: &str| (String::from("game 7 rules"), String::from(key));
        let (prefix, key) = at("move_limit_s");
        let e = refused(json!({"move_limit_s": "120"}));
        assert_eq!(e, RulesError::NotSeconds { prefix, key });
        assert!(e.to_string().contains("game 7 rules.move_limit_s"), "{e}");
        let (prefix, key) = at("game_limit_s");
        let e = refused(json!({"game_limit_s": -1}));
        assert_eq!(e, RulesError::NotSeconds { prefix, key });
        assert!(e.to_string().contains("not negative"), "{e}");
        let e = refused(json!({"game_limit_s": 1e10}));
        assert!(
            matches!(&e, RulesError::TooLong { prefix, key, .. }
                if (prefix.as_str(), key.as_str()) == ("game 7 rules", "game_limit_s")),
            "{e:?}"
        );
        assert!(e.to_string().contains("2^33 s"), "{e}");
        let (prefix, key) = at("oversteps_to_lose");
        let e = refused(json!({"oversteps_to_lose": 0}));
        assert_eq!(
            e,
            RulesError::NotCount {
                prefix,
                key,
                min: 1
            }
        );
        assert!(e.to_string().contains("at least 1"), "{e}");
        let (prefix, key) = at("reading_s");
        let e = refused(json!({"reading_s": 0.5}));
        assert_eq!(e, RulesError::NotWholeSeconds { prefix, key });
        assert!(e.to_string().contains("whole number of seconds"), "{e}");
        let (prefix, key) = at("move_limt_s");
        let e = refused(json!({"move_limt_s": 60}));
        assert_eq!(e, RulesError::UnknownKey { prefix, key });
        // The unknown key's message lists the ten keys of the encoding, in its order.
        assert_eq!(
            refused(json!({"move_limt_s": 60})).to_string(),
            "game 7 rules.move_limt_s is not a rule setting (the settings are move_limit_s, \
             oversteps_to_lose, game_limit_s, thirty_moves, perpetual_short, perpetual_long, \
             respect_min_moves, setup_s, reading_s, grace_s)"
        );
        assert_eq!(
            refused(json!([1])),
            RulesError::NotAnObject {
                prefix: "game 7 rules".into()
            }
        );
        // A record ignores keys it does not define, but not bad values of its own keys.
        assert!(RuleSettings::from_record_value(Some(&json!({"move_limt_s": 60}))).is_ok());
        assert_eq!(
            RuleSettings::from_record_value(Some(&json!({"thirty_moves": -2}))),
            Err(RulesError::NotCount {
                prefix: "rules".into(),
                key: "thirty_moves".into(),
                min: 0
            })
        );
    }
}
