//! Why each board of a pairing is what it is, as text a director can show a player.

use super::Pairing;
use super::round_robin::{berger_round, numbering};
use super::swiss::Field;
use crate::tournament::{PlayerId, System, Tournament};
use std::collections::HashMap;
use std::fmt::Write;

/// The explanation of a pairing made for `t` (by [`super::pair_next_round`]): score groups,
/// who moved between them, what was avoided (rematches, forbidden pairs) and why the bye
/// went to whom; for a round robin, the Berger table and the byes.
pub fn explain(t: &Tournament, pairing: &Pairing) -> String {
    match t.settings().system {
        System::Swiss => explain_swiss(t, pairing),
        System::RoundRobin => explain_round_robin(t, pairing),
    }
}

fn name(t: &Tournament, id: PlayerId) -> String {
    match t.player(id) {
        Some(p) if !p.name.is_empty() => format!("{id} {}", p.name),
        _ => id.to_string(),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn explain_swiss(t: &Tournament, pairing: &Pairing) -> String {
    let mut out = String::new();
    let field = match Field::new(t, &pairing.absent) {
        Ok(f) => f,
        Err(e) => return format!("Round {}: {e}\n", pairing.round),
    };
    let slot: HashMap<PlayerId, usize> = field
        .entrants
        .iter()
        .enumerate()
        .map(|(k, e)| (e.id, k))
        .collect();
    let _ = writeln!(
        out,
        "Round {} (Swiss): {} paired on {}, {}.",
        pairing.round,
        plural(field.len(), "player", "players"),
        plural(pairing.games.len(), "board", "boards"),
        plural(pairing.byes.len(), "bye", "byes"),
    );
    let _ = writeln!(out, "Score groups, each by rating:");
    let mut start = 0;
    for (g, &size) in field.group_sizes.iter().enumerate() {
        let ids: Vec<String> = field.entrants[start..start + size]
            .iter()
            .map(|e| e.id.to_string())
            .collect();
        let _ = writeln!(out, "  {}: {}", field.group_scores[g], ids.join(", "));
        start += size;
    }
    let group_start: Vec<usize> = field
        .group_sizes
        .iter()
        .scan(0, |acc, &s| {
            let here = *acc;
            *acc += s;
            Some(here)
        })
        .collect();

    // The ideal opponent inside the score group: top half against bottom half.
    let ideal = |k: usize| -> Option<usize> {
        let e = &field.entrants[k];
        let m = field.group_sizes[e.group];
        let h = m / 2;
        let p = e.position;
        let q = if p < h {
            p + h
        } else if p < 2 * h {
            p - h
        } else {
            return None;
        };
        Some(group_start[e.group] + q)
    };

    for board in &pairing.games {
        let (Some(&w), Some(&b)) = (slot.get(&board.white), slot.get(&board.black)) else {
            continue;
        };
        let (ew, eb) = (&field.entrants[w], &field.entrants[b]);
        let _ = writeln!(
            out,
            "\nTable {}: {} ({}) - {} ({})",
            board.table,
            name(t, ew.id),
            ew.score,
            name(t, eb.id),
            eb.score
        );
        if ew.group == eb.group {
            let m = field.group_sizes[ew.group];
            let _ = writeln!(
                out,
                "  Both in score group {}: #{} and #{} of {m} by rating (the ideal is the top half against the bottom half).",
                ew.score,
                ew.position + 1,
                eb.position + 1
            );
        } else {
            let (hi, lo) = if ew.group < eb.group {
                (ew, eb)
            } else {
                (eb, ew)
            };
            let _ = writeln!(
                out,
                "  {} moved down from score group {} (#{} of {}); {} moved up from score group {} (#{} of {}).",
                hi.id,
                hi.score,
                hi.position + 1,
                field.group_sizes[hi.group],
                lo.id,
                lo.score,
                lo.position + 1,
                field.group_sizes[lo.group]
            );
        }
        let colour = if ew.score != eb.score {
            "higher score"
        } else if ew.rating != eb.rating {
            "same score, higher rating"
        } else {
            "same score and rating, lower id"
        };
        let _ = writeln!(out, "  {} has white: {colour}.", ew.id);
        let mut avoided = Vec::new();
        for (me, partner) in [(w, b), (b, w)] {
            let Some(q) = ideal(me) else {
                continue;
            };
            if q == partner || q == w || q == b {
                continue;
            }
            let (a, c) = (field.entrants[me].id, field.entrants[q].id);
            let why = if let Some(r) = field.met_in(me, q) {
                format!("already met in round {r}")
            } else if field.is_forbidden(me, q) {
                "a forbidden pair".to_string()
            } else {
                format!("{c} was needed on another board for the best pairing overall")
            };
            avoided.push(format!("{a} - {c} ({why})"));
        }
        if !avoided.is_empty() {
            let _ = writeln!(out, "  Instead of: {}.", avoided.join("; "));
        }
    }

    for id in &pairing.byes {
        let Some(&k) = slot.get(id) else {
            continue;
        };
        let e = &field.entrants[k];
        let _ = writeln!(out, "\nBye: {} ({})", name(t, e.id), e.score);
        let _ = writeln!(
            out,
            "  An odd number of players: the bye goes to the lowest score possible, then the lowest rated."
        );
        let mut notes = Vec::new();
        for (j, other) in field.entrants.iter().enumerate() {
            let lower =
                other.score < e.score || (other.score == e.score && other.bye_rank < e.bye_rank);
            if j == k || !lower {
                continue;
            }
            let why = match (other.had_bye, other.forfeit_win) {
                (Some(r), _) => format!("had a bye in round {r}"),
                (None, Some(r)) => format!("won by forfeit in round {r}"),
                (None, None) if other.score < e.score => {
                    "the rest could not then be paired without a rematch or a forbidden pair"
                        .to_string()
                }
                (None, None) => {
                    "the rest would then have needed larger score differences or a rematch"
                        .to_string()
                }
            };
            notes.push(format!("{} ({}): {why}", other.id, other.score));
        }
        if notes.is_empty() {
            let _ = writeln!(out, "  Nobody scored less or is rated lower in that score.");
        } else {
            let _ = writeln!(out, "  Passed over: {}.", notes.join("; "));
        }
    }
    if !pairing.absent.is_empty() {
        let ids: Vec<String> = pairing.absent.iter().map(|p| p.to_string()).collect();
        let _ = writeln!(out, "\nNot paired at their request: {}.", ids.join(", "));
    }
    let withdrawn: Vec<String> = t
        .players()
        .iter()
        .filter(|p| p.withdrawn)
        .map(|p| p.id.to_string())
        .collect();
    if !withdrawn.is_empty() {
        let _ = writeln!(out, "Withdrawn, not paired: {}.", withdrawn.join(", "));
    }
    out
}

fn explain_round_robin(t: &Tournament, pairing: &Pairing) -> String {
    let mut out = String::new();
    let order = numbering(t);
    let players = t.players();
    let count = order.len();
    let numbers = count + count % 2;
    let cycle = numbers.saturating_sub(1).max(1);
    let played = pairing.round.saturating_sub(1);
    let in_cycle = played % cycle + 1;
    let number_of: HashMap<PlayerId, usize> = order
        .iter()
        .enumerate()
        .map(|(n, &i)| (players[i].id, n + 1))
        .collect();
    let _ = writeln!(
        out,
        "Round {} (round robin): round {in_cycle} of the Berger table for {numbers}.",
        pairing.round
    );
    let _ = writeln!(out, "Numbers by rating (highest first), then id:");
    for (n, &i) in order.iter().enumerate() {
        let p = &players[i];
        let _ = writeln!(
            out,
            "  {}: {} (rating {}){}",
            n + 1,
            name(t, p.id),
            p.rating,
            if p.withdrawn { ", withdrawn" } else { "" }
        );
    }
    let number = |id: &PlayerId| number_of.get(id).copied().unwrap_or(0);
    for board in &pairing.games {
        let _ = writeln!(
            out,
            "\nTable {}: {} (#{}) - {} (#{}), as the table pairs {} - {}.",
            board.table,
            name(t, board.white),
            number(&board.white),
            name(t, board.black),
            number(&board.black),
            number(&board.white),
            number(&board.black),
        );
    }
    let schedule = berger_round(
        u32::try_from(numbers).unwrap_or(0),
        u32::try_from(in_cycle).unwrap_or(0),
    );
    for id in &pairing.byes {
        let me = u32::try_from(number(id)).unwrap_or(0);
        let opponent = schedule
            .iter()
            .find_map(|&(w, b)| (w == me).then_some(b).or((b == me).then_some(w)));
        let why = match opponent {
            Some(o) if o as usize > count => format!("meets the missing number {o}"),
            Some(o) => {
                let other = (o as usize)
                    .checked_sub(1)
                    .and_then(|k| order.get(k))
                    .map(|&i| players[i].id);
                match other {
                    Some(other) => format!("the scheduled opponent #{o} ({other}) has withdrawn"),
                    None => format!("the scheduled opponent is #{o}"),
                }
            }
            None => "not in the schedule".to_string(),
        };
        let _ = writeln!(out, "\nBye: {} (#{me}): {why}.", name(t, *id));
    }
    out
}
