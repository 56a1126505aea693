//! Exact numbers for scores and tie-breaks: half-points and rationals, written in plain
//! decimal. Never binary floating point in a computation.

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// A number of points, kept in exact half-points (`7.5` points is `Score::from_halves(15)`).
///
/// Arithmetic saturates instead of overflowing: inputs are bounded when a tournament is
/// built, so saturation is never reached in practice, but no input can make it panic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(i64);

impl Score {
    pub const ZERO: Score = Score(0);

    /// A score of `halves` half-points.
    pub const fn from_halves(halves: i64) -> Score {
        Score(halves)
    }

    /// A whole number of points.
    pub const fn from_points(points: i64) -> Score {
        Score(points.saturating_mul(2))
    }

    /// The score in half-points.
    pub const fn halves(self) -> i64 {
        self.0
    }

    /// The score as an exact rational number of points.
    pub fn to_ratio(self) -> Ratio {
        Ratio::new(i128::from(self.0), 2)
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, rhs: Score) -> Score {
        Score(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl Sub for Score {
    type Output = Score;
    fn sub(self, rhs: Score) -> Score {
        Score(self.0.saturating_sub(rhs.0))
    }
}

impl SubAssign for Score {
    fn sub_assign(&mut self, rhs: Score) {
        *self = *self - rhs;
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(self.0.saturating_neg())
    }
}

impl std::iter::Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::ZERO, |a, b| a + b)
    }
}

impl fmt::Display for Score {
    /// Plain decimal: `7`, `7.5`, `-0.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        if abs.is_multiple_of(2) {
            write!(f, "{sign}{}", abs / 2)
        } else {
            write!(f, "{sign}{}.5", abs / 2)
        }
    }
}

/// An exact rational number (a tie-break value), always in lowest terms with a positive
/// denominator, so that equal values are equal structs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: i128,
    den: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };

    /// `num / den`, reduced. A zero denominator gives zero (callers never pass one; this
    /// keeps the type total).
    pub fn new(num: i128, den: i128) -> Ratio {
        if den == 0 {
            return Ratio::ZERO;
        }
        let g = gcd(num, den).max(1);
        let (mut num, mut den) = (num / g, den / g);
        if den < 0 {
            num = -num;
            den = -den;
        }
        Ratio { num, den }
    }

    /// A whole number.
    pub fn integer(n: i64) -> Ratio {
        Ratio {
            num: i128::from(n),
            den: 1,
        }
    }

    pub fn numerator(self) -> i128 {
        self.num
    }

    pub fn denominator(self) -> i128 {
        self.den
    }

    /// Whether the value is a whole number.
    pub fn is_integer(self) -> bool {
        self.den == 1
    }

    /// The value as a JSON number: an integer when it is one, otherwise the decimal
    /// written by [`Ratio`]'s `Display`, read back as the nearest `f64` (exact for every
    /// value with a terminating decimal of up to 15 significant digits).
    pub fn to_json(self) -> serde_json::Value {
        if self.den == 1
            && let Ok(n) = i64::try_from(self.num)
        {
            return serde_json::Value::from(n);
        }
        let text = self.to_string();
        text.parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(serde_json::Value::Null, serde_json::Value::Number)
    }
}

impl Default for Ratio {
    fn default() -> Ratio {
        Ratio::ZERO
    }
}

impl From<Score> for Ratio {
    fn from(s: Score) -> Ratio {
        s.to_ratio()
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        if self.den == other.den {
            return self.num.cmp(&other.num);
        }
        // Denominators are positive, so cross-multiplying keeps the order. The values in
        // a tournament are far below the point where this could overflow; saturation keeps
        // it total anyway.
        let a = self.num.saturating_mul(other.den);
        let b = other.num.saturating_mul(self.den);
        a.cmp(&b)
    }
}

impl fmt::Display for Ratio {
    /// Plain decimal (`7`, `7.5`, `12.25`). A value whose decimal does not terminate (a
    /// denominator with a prime factor other than 2 and 5, e.g. a `win` worth 1.5 points in
    /// a Sonneborn-Berger) is written as the shortest decimal that reads back as the
    /// nearest double: the only rounding anywhere, and only in the output.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.num < 0 { "-" } else { "" };
        let num = self.num.unsigned_abs();
        let den = self.den.unsigned_abs();
        let whole = num / den;
        let mut rem = num % den;
        if rem == 0 {
            return write!(f, "{sign}{whole}");
        }
        let mut d = den;
        while d.is_multiple_of(2) {
            d /= 2;
        }
        while d.is_multiple_of(5) {
            d /= 5;
        }
        let terminates = d == 1;
        // Long division: exact when the decimal terminates, otherwise 40 digits, plenty to
        // find the nearest double.
        let mut digits = String::new();
        while rem != 0 && digits.len() < 40 {
            rem *= 10;
            let digit = rem / den;
            rem %= den;
            digits.push(char::from(b'0' + (digit as u8)));
        }
        if terminates {
            return write!(f, "{sign}{whole}.{digits}");
        }
        let approx: f64 = format!("{whole}.{digits}").parse().unwrap_or(0.0);
        write!(f, "{sign}{approx}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_in_plain_decimal() {
        assert_eq!(Score::from_halves(14).to_string(), "7");
        assert_eq!(Score::from_halves(15).to_string(), "7.5");
        assert_eq!(Score::from_halves(-1).to_string(), "-0.5");
        assert_eq!(Score::from_halves(0).to_string(), "0");
    }

    #[test]
    fn ratios_print_exactly_when_they_terminate() {
        assert_eq!(Ratio::new(49, 4).to_string(), "12.25");
        assert_eq!(Ratio::new(-3, 8).to_string(), "-0.375");
        assert_eq!(Ratio::new(14, 2).to_string(), "7");
        assert_eq!(Ratio::new(1, 3).to_string(), "0.3333333333333333");
        assert_eq!(Ratio::new(7, 3).to_string(), "2.3333333333333335");
    }

    #[test]
    fn ratios_compare_exactly() {
        assert!(Ratio::new(1, 3) < Ratio::new(334, 1000));
        assert_eq!(Ratio::new(2, 4), Ratio::new(-1, -2));
        assert!(Ratio::new(-1, 2) < Ratio::ZERO);
    }
}
