//! Calendar dates as the rating files write them (`"YYYY-MM-DD"`), computed purely: the
//! proleptic Gregorian calendar, no clock and no time zone.

use std::fmt;

/// A day of the proleptic Gregorian calendar, years 1 to 9999. Ordered by time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: u16,
    month: u8,
    day: u8,
}

/// Why a text is not a date of the form `YYYY-MM-DD`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DateError {
    #[error("{0:?} is not a date of the form YYYY-MM-DD")]
    Form(String),
    #[error("{0:?} is not a day of the calendar")]
    NoSuchDay(String),
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

impl Date {
    /// The date of a year, month and day, if the calendar has that day (years 1 to 9999).
    pub fn new(year: u16, month: u8, day: u8) -> Option<Date> {
        let ok = (1..=9999).contains(&year)
            && (1..=12).contains(&month)
            && day >= 1
            && day <= days_in_month(i64::from(year), month);
        ok.then_some(Date { year, month, day })
    }

    /// Reads exactly `YYYY-MM-DD` (ten characters, digits and two dashes).
    pub fn parse(text: &str) -> Result<Date, DateError> {
        let form = || DateError::Form(text.to_string());
        let b = text.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return Err(form());
        }
        let number = |range: std::ops::Range<usize>| -> Result<u16, DateError> {
            let part = &b[range];
            if !part.iter().all(u8::is_ascii_digit) {
                return Err(form());
            }
            Ok(part.iter().fold(0u16, |n, d| n * 10 + u16::from(d - b'0')))
        };
        let year = number(0..4)?;
        let month = u8::try_from(number(5..7)?).map_err(|_| form())?;
        let day = u8::try_from(number(8..10)?).map_err(|_| form())?;
        Date::new(year, month, day).ok_or_else(|| DateError::NoSuchDay(text.to_string()))
    }

    pub fn year(self) -> u16 {
        self.year
    }

    pub fn month(self) -> u8 {
        self.month
    }

    pub fn day(self) -> u8 {
        self.day
    }

    /// Days since 1970-01-01 (negative before it), by the civil-from-days inverse of
    /// Howard Hinnant's algorithm.
    pub fn days_since_epoch(self) -> i64 {
        let (m, d) = (i64::from(self.month), i64::from(self.day));
        let y = i64::from(self.year) - i64::from(m <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The date `days` after 1970-01-01 (Hinnant's civil-from-days), within years 1 to 9999.
    pub fn from_days_since_epoch(days: i64) -> Option<Date> {
        let z = days.checked_add(719_468)?;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Date::new(
            u16::try_from(year).ok()?,
            u8::try_from(month).ok()?,
            u8::try_from(day).ok()?,
        )
    }

    /// Whole days from `self` to `later` (negative when `later` is earlier).
    pub fn days_until(self, later: Date) -> i64 {
        later.days_since_epoch() - self.days_since_epoch()
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_and_count_days() {
        let d = |s| Date::parse(s).expect(s);
        assert_eq!(d("1970-01-01").days_since_epoch(), 0);
        assert_eq!(d("2000-03-01").days_since_epoch(), 11_017);
        assert_eq!(d("1969-12-31").days_since_epoch(), -1);
        assert_eq!(d("2024-02-28").days_until(d("2024-03-01")), 2);
        assert_eq!(d("2023-02-28").days_until(d("2023-03-01")), 1);
        assert_eq!(d("0001-01-01").to_string(), "0001-01-01");
        assert!(d("2026-01-31") < d("2026-02-01"));
        for s in [
            "0001-01-01",
            "1969-12-31",
            "2000-02-29",
            "2026-12-01",
            "9999-12-31",
        ] {
            assert_eq!(
                Date::from_days_since_epoch(d(s).days_since_epoch()),
                Some(d(s))
            );
        }
        assert_eq!(Date::from_days_since_epoch(i64::MAX), None);
    }

    /// Every day of the calendar, counted one by one from 0001-01-01 with the month lengths
    /// and the leap rule written out here: its day number goes up by one each day, it reads
    /// back from that number, and 9999-12-31 is day 2,932,896 (from 1970-01-01, as Python's
    /// `date(9999, 12, 31) - date(1970, 1, 1)` also gives).
    #[test]
    fn every_day_of_the_calendar_counts_and_reads_back() {
        let mut expected = Date::parse("0001-01-01")
            .expect("day one")
            .days_since_epoch();
        assert_eq!(expected, -719_162);
        for year in 1..=9999u16 {
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            for month in 1..=12u8 {
                let days = match month {
                    2 if leap => 29,
                    2 => 28,
                    4 | 6 | 9 | 11 => 30,
                    _ => 31,
                };
                for day in 1..=days {
                    let d = Date::new(year, month, day).expect("a day of the calendar");
                    assert_eq!((d.year(), d.month(), d.day()), (year, month, day));
                    assert_eq!(d.days_since_epoch(), expected, "{d}");
                    assert_eq!(Date::from_days_since_epoch(expected), Some(d), "{d}");
                    expected += 1;
                }
                let first = Date::new(year, month, 1).expect("the first of the month");
                assert_eq!(first.to_string(), format!("{year:04}-{month:02}-01"));
                assert_eq!(Date::new(year, month, days + 1), None, "{year}-{month}");
            }
        }
        assert_eq!(expected - 1, 2_932_896);
        assert_eq!(Date::from_days_since_epoch(2_932_897), None);
        assert_eq!(Date::from_days_since_epoch(-719_163), None);
    }

    #[test]
    fn malformed_dates_are_refused_naming_the_text() {
        for bad in [
            "2026-1-01",
            "2026/01/01",
            "20260101",
            "2026-01-01T",
            "２０２６-01-01",
        ] {
            assert_eq!(Date::parse(bad), Err(DateError::Form(bad.into())), "{bad}");
        }
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-00-10",
            "0000-01-01",
            "2026-04-31",
        ] {
            assert_eq!(
                Date::parse(bad),
                Err(DateError::NoSuchDay(bad.into())),
                "{bad}"
            );
        }
        assert!(Date::parse("2024-02-29").is_ok());
        assert_eq!(
            Date::parse("1900-02-29"),
            Err(DateError::NoSuchDay("1900-02-29".into()))
        );
        assert!(Date::parse("2000-02-29").is_ok());
    }
}
