//! Swiss layouts that the mutation runs showed untested (see "Mutation testing" in
//! ARCHITECTURE.md): the rule stated, the expected boards worked out by hand from the
//! spec (tournament.md, `ggdesk pair`, Swiss criterion 4), not from the code.

use ggdesk_core::pairing::pair_next_round;
use ggdesk_core::tournament::{Player, PlayerId, Settings, Tournament};

/// A Swiss of `ratings.len()` players with ids 1.. and the given ratings.
fn swiss(ratings: &[i64]) -> Tournament {
    let mut t = Tournament::new("test", Settings::swiss(5)).expect("valid settings");
    for (i, &r) in ratings.iter().enumerate() {
        let id = u32::try_from(i + 1).expect("small id");
        t.add_player(Player::new(PlayerId(id), format!("P{id}"), r))
            .expect("fresh id");
    }
    t
}

/// The games as (white, black) ids, sorted.
fn games(t: &Tournament) -> Vec<(u32, u32)> {
    let p = pair_next_round(t, &[]).expect("a valid pairing exists");
    let mut g: Vec<(u32, u32)> = p.games.iter().map(|b| (b.white.0, b.black.0)).collect();
    g.sort_unstable();
    g
}

/// Round 1, one score group of six by rating: top half 1 2 3, bottom half 4 5 6; the
/// spec's games are 1–4, 2–5, 3–6. Forbidden: 2 with each of 4, 5, 6 (so 2 must meet a
/// top-half player and one game is played inside each half), 3–6 and 4–6.
///
/// By hand: 2 meets 1 or 3. With 2–3, the rest is 1–4 and 5–6, or 1–6 and 4–5 (1–5 would
/// leave 4–6, forbidden); with 1–2, it is 3–4 and 5–6 (3–5 would leave 4–6, 3–6 is
/// forbidden). Of the spec's games only 1–4 is still allowed, and "as far as the criteria
/// allow" keeps it: 1–4, 2–3, 5–6. Higher rating has white.
#[test]
fn a_split_group_keeps_the_spec_game_that_is_still_allowed() {
    let mut t = swiss(&[2600, 2500, 2400, 2300, 2200, 2100]);
    for (a, b) in [(2, 4), (2, 5), (2, 6), (3, 6), (4, 6)] {
        t.add_forbidden_pair(PlayerId(a), PlayerId(b))
            .expect("known players");
    }
    assert_eq!(games(&t), vec![(1, 4), (2, 3), (5, 6)]);
}
