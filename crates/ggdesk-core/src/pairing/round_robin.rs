//! Round robin by the FIDE Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! Players are numbered by rating (highest first), then id (lowest first), withdrawn
//! players included: the schedule stays fixed. With an odd number n, the tables for n + 1
//! are used and the player who would meet number n + 1 (the missing number) gets the bye;
//! where the schedule meets a withdrawn player, the opponent gets a bye instead.
//!
//! A double cycle (`settings.rounds` = 2 × the cycle) repeats the first cycle exactly, as the
//! spec says: the same games in the same rounds, colours included. (FIDE reverses the
//! colours and swaps the last two rounds of the first cycle; in Game of the Generals the
//! first move is drawn by lot, so a colour is only a side of the board and there is nothing
//! to balance.) Further cycles repeat it again.

use super::{Board, Pairing, PairingError, check_can_pair};
use crate::tournament::{PlayerId, Tournament};

/// Round `round` (from 1 to n − 1) of the Berger table for `n` numbers (`n` even, at least
/// 2): the games as (white, black) numbers from 1, in table order. Empty for arguments
/// outside those ranges.
///
/// Number n meets `x` = (round + 1) / 2 in odd rounds (x has white) and n/2 + round/2 in
/// even rounds (n has white); table k ≥ 2 is `x + k − 1` (white) against `x − k + 1`,
/// counted cyclically in 1..n − 1.
pub fn berger_round(n: u32, round: u32) -> Vec<(u32, u32)> {
    if n < 2 || n % 2 == 1 || round == 0 || round >= n {
        return Vec::new();
    }
    let cycle = i64::from(n) - 1;
    let wrap = |v: i64| -> u32 { u32::try_from((v - 1).rem_euclid(cycle) + 1).unwrap_or(0) };
    let x = if round % 2 == 1 {
        round.div_ceil(2)
    } else {
        n / 2 + round / 2
    };
    let mut games = Vec::with_capacity(n as usize / 2);
    games.push(if round % 2 == 1 { (x, n) } else { (n, x) });
    for k in 2..=i64::from(n / 2) {
        games.push((wrap(i64::from(x) + k - 1), wrap(i64::from(x) - k + 1)));
    }
    games
}

/// The players in the order of their numbers (index into `t.players()`): rating, highest
/// first, then id.
pub(crate) fn numbering(t: &Tournament) -> Vec<usize> {
    let players = t.players();
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .rating
            .cmp(&players[a].rating)
            .then(players[a].id.cmp(&players[b].id))
    });
    order
}

/// Pairs the next round of a round robin from the Berger tables.
pub fn pair_round_robin(t: &Tournament) -> Result<Pairing, PairingError> {
    let players = t.players();
    if players.is_empty() {
        return Err(PairingError::NoPlayers);
    }
    check_can_pair(t)?;
    let order = numbering(t);
    let count =
        u32::try_from(order.len()).map_err(|_| PairingError::TooManyPlayers(order.len()))?;
    let numbers = count + count % 2;
    let cycle = (numbers - 1) as usize;
    let played = t.rounds().len();
    let round_in_cycle = u32::try_from(played % cycle + 1).unwrap_or(1);

    // The player of a number, unless the number is the missing one.
    let player = |number: u32| -> Option<(PlayerId, bool)> {
        let i = *order.get((number as usize).checked_sub(1)?)?;
        Some((players[i].id, players[i].withdrawn))
    };
    let mut games = Vec::new();
    let mut byes = Vec::new();
    for (w, b) in berger_round(numbers, round_in_cycle) {
        match (player(w), player(b)) {
            (Some((w, false)), Some((b, false))) => games.push((w, b)),
            (Some((p, false)), _) | (_, Some((p, false))) => byes.push(p),
            _ => {}
        }
    }
    Ok(Pairing {
        round: played + 1,
        games: games
            .into_iter()
            .enumerate()
            .map(|(k, (white, black))| Board {
                table: u32::try_from(k + 1).unwrap_or(u32::MAX),
                white,
                black,
            })
            .collect(),
        byes,
        absent: Vec::new(),
    })
}
