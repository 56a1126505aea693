//! Adjudication when game time runs out: reading sheets, Net Reading Score, Aliwalas value
//! of the pieces, Total Adjudication Score, all in exact hundredths.

use crate::rules::{ByRank, BySide, Position, Rank, Side, Square};
use std::fmt;

/// An exact amount in hundredths (`57.45` is `Hundredths(5745)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Hundredths(pub i64);

impl Hundredths {
    /// The nearest `f64`, for JSON output only.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 100.0
    }
}

impl fmt::Display for Hundredths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

/// The Aliwalas value of one piece.
pub fn aliwalas_value(rank: Rank) -> Hundredths {
    Hundredths(rank.aliwalas_value())
}

/// One player's reading of the opponent's remaining pieces: enemy square → rank. A square
/// not named is an abstention.
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct ReadingSheet {
    pub readings: Vec<(Square, Rank)>,
}

impl ReadingSheet {
    pub fn new(readings: Vec<(Square, Rank)>) -> ReadingSheet {
        ReadingSheet { readings }
    }

    pub fn reading_at(&self, square: Square) -> Option<Rank> {
        self.readings
            .iter()
            .find(|(s, _)| *s == square)
            .map(|(_, r)| *r)
    }
}

/// Why a reading sheet is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    #[error("{reader}'s reading sheet names {square}, where there is no {} piece", reader.opponent())]
    NotEnemySquare { reader: Side, square: Square },
    #[error("{reader}'s reading sheet names {square} twice")]
    SquareTwice { reader: Side, square: Square },
    #[error("{reader}'s reading sheet names {found} {rank}, but a set holds {limit}")]
    TooMany {
        reader: Side,
        rank: Rank,
        found: usize,
        limit: usize,
    },
}

/// Checks `reader`'s sheet against the pieces on the board.
pub fn validate_sheet(
    reader: Side,
    sheet: &ReadingSheet,
    position: &Position,
) -> Result<(), SheetError> {
    let mut seen = Vec::with_capacity(sheet.readings.len());
    for &(square, _) in &sheet.readings {
        if seen.contains(&square) {
            return Err(SheetError::SquareTwice { reader, square });
        }
        seen.push(square);
        if position.get(square).is_none_or(|p| p.side == reader) {
            return Err(SheetError::NotEnemySquare { reader, square });
        }
    }
    check_counts(reader, sheet.readings.iter().map(|(_, r)| *r))
}

/// How one reading of one piece was judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReadingVerdict {
    Correct,
    Incorrect,
    Abstained,
}

/// One enemy piece as read by the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceReading {
    pub square: Square,
    pub actual: Rank,
    pub read: Option<Rank>,
    pub verdict: ReadingVerdict,
}

/// One side's adjudication score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideScore {
    /// Net Reading Score: 2 per correct reading, −1 per incorrect one.
    pub net_reading_score: i64,
    /// Aliwalas Value of the side's own pieces on the board.
    pub aliwalas_value: Hundredths,
    /// Total Adjudication Score = NRS + AVP.
    pub total: Hundredths,
    /// The side's readings of every enemy piece.
    pub readings: Vec<PieceReading>,
    /// The side's own remaining pieces with their values.
    pub own_pieces: Vec<(Square, Rank)>,
}

/// Both scores and the result: the higher TAS wins, equal TAS draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudication {
    pub scores: BySide<SideScore>,
    pub winner: Option<Side>,
}

/// Scores both sheets against the position the game stopped in. Both are checked first.
pub fn adjudicate(
    position: &Position,
    sheets: &BySide<ReadingSheet>,
) -> Result<Adjudication, SheetError> {
    for side in Side::BOTH {
        validate_sheet(side, &sheets[side], position)?;
    }
    let scores = BySide::from_fn(|side| score_side(side, &sheets[side], position));
    let winner = winner_by_total(BySide::new(scores.white.total, scores.black.total));
    Ok(Adjudication { scores, winner })
}

/// The verdict on one reading of a piece whose real rank is `actual`.
pub fn judge_reading(actual: Rank, read: Option<Rank>) -> ReadingVerdict {
    match read {
        None => ReadingVerdict::Abstained,
        Some(r) if r == actual => ReadingVerdict::Correct,
        Some(_) => ReadingVerdict::Incorrect,
    }
}

/// Net Reading Score of a set of verdicts: 2 per correct reading, −1 per incorrect one.
pub fn net_reading_score(verdicts: impl IntoIterator<Item = ReadingVerdict>) -> i64 {
    verdicts
        .into_iter()
        .map(|v| match v {
            ReadingVerdict::Correct => 2,
            ReadingVerdict::Incorrect => -1,
            ReadingVerdict::Abstained => 0,
        })
        .sum()
}

/// Aliwalas Value of a side's remaining pieces.
pub fn aliwalas_total(pieces: impl IntoIterator<Item = Rank>) -> Hundredths {
    Hundredths(pieces.into_iter().map(Rank::aliwalas_value).sum())
}

/// The side with the higher Total Adjudication Score, `None` on equal scores.
pub fn winner_by_total(totals: BySide<Hundredths>) -> Option<Side> {
    match totals.white.cmp(&totals.black) {
        std::cmp::Ordering::Greater => Some(Side::White),
        std::cmp::Ordering::Less => Some(Side::Black),
        std::cmp::Ordering::Equal => None,
    }
}

/// Checks that a sheet names no rank more often than a set holds (one Flag at most).
pub fn check_counts(reader: Side, reads: impl IntoIterator<Item = Rank>) -> Result<(), SheetError> {
    for (rank, &found) in ByRank::count(reads).iter() {
        let (found, limit) = (found as usize, rank.count_in_set());
        if found > limit {
            return Err(SheetError::TooMany {
                reader,
                rank,
                found,
                limit,
            });
        }
    }
    Ok(())
}

/// One piece of a physical-board adjudication: its real rank and the reading of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TallyReading {
    pub actual: Rank,
    pub read: Option<Rank>,
    pub verdict: ReadingVerdict,
}

/// One side's score in a physical-board adjudication.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TallyScore {
    pub net_reading_score: i64,
    pub aliwalas_value: Hundredths,
    pub total: Hundredths,
    pub readings: Vec<TallyReading>,
    pub own_pieces: Vec<Rank>,
}

/// A physical-board adjudication: both scores and the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TallyAdjudication {
    pub scores: BySide<TallyScore>,
    pub winner: Option<Side>,
}

/// Why a physical-board reading sheet is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TallySheetError {
    #[error("{reader}'s sheet lists {listed} pieces, but {} has {left} left", reader.opponent())]
    WrongPieces {
        reader: Side,
        listed: usize,
        left: usize,
    },
    #[error(transparent)]
    Sheet(#[from] SheetError),
}

/// Adjudicates a game whose squares the desk never saw: `readings[reader]` pairs each of the
/// opponent's remaining pieces (by its real rank, as the tally holds them) with the reading
/// of it; `remaining[side]` are the side's own pieces.
pub fn adjudicate_tally(
    readings: &BySide<Vec<(Rank, Option<Rank>)>>,
    remaining: &BySide<Vec<Rank>>,
) -> Result<TallyAdjudication, TallySheetError> {
    for reader in Side::BOTH {
        check_tally_sheet(reader, &readings[reader], &remaining[reader.opponent()])?;
    }
    let scores = BySide::from_fn(|reader| {
        let readings: Vec<TallyReading> = readings[reader]
            .iter()
            .map(|&(actual, read)| TallyReading {
                actual,
                read,
                verdict: judge_reading(actual, read),
            })
            .collect();
        let net_reading_score = net_reading_score(readings.iter().map(|r| r.verdict));
        let aliwalas_value = aliwalas_total(remaining[reader].iter().copied());
        TallyScore {
            net_reading_score,
            aliwalas_value,
            total: Hundredths(net_reading_score * 100 + aliwalas_value.0),
            readings,
            own_pieces: remaining[reader].clone(),
        }
    });
    let winner = winner_by_total(BySide::new(scores.white.total, scores.black.total));
    Ok(TallyAdjudication { scores, winner })
}

/// Checks `reader`'s physical-board sheet (as entered so far, or handed in): it lists each
/// of the opponent's remaining pieces (`opponents_left`) once, and names no rank more often
/// than a set holds.
pub fn check_tally_sheet(
    reader: Side,
    sheet: &[(Rank, Option<Rank>)],
    opponents_left: &[Rank],
) -> Result<(), TallySheetError> {
    let listed = ByRank::count(sheet.iter().map(|(actual, _)| *actual));
    if listed != ByRank::count(opponents_left.iter().copied()) {
        return Err(TallySheetError::WrongPieces {
            reader,
            listed: sheet.len(),
            left: opponents_left.len(),
        });
    }
    check_counts(reader, sheet.iter().filter_map(|(_, read)| *read))?;
    Ok(())
}

fn score_side(reader: Side, sheet: &ReadingSheet, position: &Position) -> SideScore {
    let readings: Vec<PieceReading> = position
        .pieces_of(reader.opponent())
        .map(|(square, actual)| {
            let read = sheet.reading_at(square);
            PieceReading {
                square,
                actual,
                read,
                verdict: judge_reading(actual, read),
            }
        })
        .collect();
    let net_reading_score = net_reading_score(readings.iter().map(|r| r.verdict));
    let own_pieces: Vec<(Square, Rank)> = position.pieces_of(reader).collect();
    let aliwalas_value = aliwalas_total(own_pieces.iter().map(|(_, r)| *r));
    SideScore {
        net_reading_score,
        aliwalas_value,
        total: Hundredths(net_reading_score * 100 + aliwalas_value.0),
        readings,
        own_pieces,
    }
}
