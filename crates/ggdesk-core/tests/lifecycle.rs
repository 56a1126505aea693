//! A round's life in the core: its state after results, whether the next round can be
//! paired, and what a swap in a draft is refused for or needs confirmed.

use ggdesk_core::event::{
    DraftRound, NextRound, RoundState, Seat, SwapRefusal, SwapWarning, next_round, plan_swap,
};
use ggdesk_core::rules::Side;
use ggdesk_core::tournament::{
    BoardNo, Game, GameResult, Player, PlayerId, Round, RoundNo, Settings, Tournament,
};
use std::collections::BTreeMap;

fn p(n: u32) -> PlayerId {
    PlayerId(n)
}

/// Six players; round 1: 1-2 (white wins by forfeit), 3-4, 5-6 draws.
fn six() -> Tournament {
    let mut t = Tournament::new("T", Settings::swiss(3)).expect("settings");
    for id in 1..=6 {
        t.add_player(Player::new(p(id), format!("P{id}"), 2000 - i64::from(id)))
            .expect("player");
    }
    t.add_round(Round {
        games: vec![
            Game {
                table: Some(1),
                white: p(1),
                black: p(2),
                result: GameResult::WhiteWinsByForfeit,
            },
            Game {
                table: Some(2),
                white: p(3),
                black: p(4),
                result: GameResult::Draw,
            },
            Game {
                table: Some(3),
                white: p(5),
                black: p(6),
                result: GameResult::Draw,
            },
        ],
        byes: vec![],
        absent: vec![],
    })
    .expect("round");
    t
}

/// A draft of round 2: 1-3, 2-5 and 4 with the bye; 6 out (asked to be absent).
fn draft() -> DraftRound {
    DraftRound {
        number: RoundNo(2),
        state: RoundState::Draft,
        boards: BTreeMap::from([(BoardNo(1), (p(1), p(3))), (BoardNo(2), (p(2), p(5)))]),
        byes: vec![p(4)],
        asked_absent: vec![p(6)],
    }
}

#[test]
fn a_round_is_complete_with_its_last_result_and_reopens_on_a_pending_one() {
    assert_eq!(RoundState::Published.after_results(0), RoundState::Complete);
    assert_eq!(
        RoundState::Published.after_results(2),
        RoundState::Published
    );
    assert_eq!(RoundState::Complete.after_results(1), RoundState::Published);
    assert_eq!(RoundState::Complete.after_results(0), RoundState::Complete);
    assert_eq!(RoundState::Draft.after_results(0), RoundState::Draft);
    for s in [
        RoundState::Draft,
        RoundState::Published,
        RoundState::Complete,
    ] {
        assert_eq!(RoundState::from_code(s.code()), Some(s));
    }
    assert_eq!(RoundState::from_code("done"), None);
}

#[test]
fn the_next_round_waits_for_drafts_results_and_the_planned_count() {
    let empty = Tournament::new("T", Settings::swiss(3)).expect("settings");
    assert_eq!(next_round(&empty, None), NextRound::TooFewPlayers);
    let mut t = six();
    assert_eq!(
        next_round(&t, Some((RoundNo(2), RoundState::Draft))),
        NextRound::DraftWaiting(RoundNo(2))
    );
    assert_eq!(
        next_round(&t, Some((RoundNo(1), RoundState::Complete))),
        NextRound::Ready(RoundNo(2))
    );
    t.set_result(1, 1, GameResult::Pending).expect("result");
    assert_eq!(
        next_round(&t, Some((RoundNo(1), RoundState::Published))),
        NextRound::InPlay(RoundNo(1))
    );
    assert_eq!(
        next_round(&t, Some((RoundNo(3), RoundState::Complete))),
        NextRound::AllPlayed
    );
    let mut fresh = Tournament::new("T", Settings::swiss(3)).expect("settings");
    for id in 1..=2 {
        fresh
            .add_player(Player::new(p(id), "x", 0))
            .expect("player");
    }
    assert_eq!(next_round(&fresh, None), NextRound::Ready(RoundNo(1)));
}

#[test]
fn swaps_are_refused_naming_why() {
    let t = six();
    let d = draft();
    let published = DraftRound {
        state: RoundState::Published,
        ..draft()
    };
    assert_eq!(
        plan_swap(&t, &published, p(1), p(2), &[]),
        Err(SwapRefusal::NotADraft(RoundNo(2)))
    );
    assert_eq!(
        plan_swap(&t, &d, p(1), p(1), &[]),
        Err(SwapRefusal::SamePlayer)
    );
    assert_eq!(
        plan_swap(&t, &d, p(1), p(9), &[]),
        Err(SwapRefusal::NotRegistered(p(9)))
    );
    // Two byes (a round robin with two groups' byes, say) are one kind of seat.
    let mut two_byes = draft();
    two_byes.byes.push(p(6));
    assert_eq!(
        plan_swap(&t, &two_byes, p(4), p(6), &[]),
        Err(SwapRefusal::SameSeat)
    );
    let banned = plan_swap(&t, &d, p(6), p(3), &[p(6)]).expect_err("banned");
    assert!(matches!(&banned, SwapRefusal::Banned(n) if n.id == p(6)));
    assert_eq!(
        banned.to_string(),
        "6 P6 is banned: a banned player cannot be paired"
    );
    let mut withdrawn = six();
    withdrawn.set_withdrawn(p(6), true).expect("withdraw");
    assert!(matches!(
        plan_swap(&withdrawn, &d, p(3), p(6), &[]),
        Err(SwapRefusal::Withdrawn(n)) if n.id == p(6)
    ));
    // Moving a banned player out of the round is allowed.
    assert!(plan_swap(&t, &d, p(3), p(6), &[p(3)]).is_ok());
    let mut two_out = d.clone();
    two_out.byes.clear();
    assert!(matches!(
        plan_swap(&t, &two_out, p(4), p(6), &[]),
        Err(SwapRefusal::NeitherInRound {
            round: RoundNo(2),
            ..
        })
    ));
}

#[test]
fn swaps_warn_of_rematches_forbidden_pairs_byes_and_absences() {
    let mut t = six();
    t.add_forbidden_pair(p(2), p(6)).expect("forbidden");
    let d = draft();
    // 2 and 3 change places: 1-2 is a rematch of round 1; 3-5 is new.
    let plan = plan_swap(&t, &d, p(2), p(3), &[]).expect("allowed");
    assert_eq!(plan.a_seat, Seat::Board(BoardNo(2), Side::White));
    assert_eq!(plan.b_seat, Seat::Board(BoardNo(1), Side::Black));
    assert_eq!(plan.warnings.len(), 1);
    assert!(matches!(
        &plan.warnings[0],
        SwapWarning::Rematch {
            round: RoundNo(1),
            ..
        }
    ));
    assert_eq!(
        plan.warnings[0].to_string(),
        "1 P1 and 2 P2 already met in round 1: a rematch"
    );
    // 6 (asked to be absent) replaces 5 opposite 2: a forbidden pair and an absence.
    let plan = plan_swap(&t, &d, p(6), p(5), &[]).expect("allowed");
    let texts: Vec<String> = plan.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        texts,
        [
            "2 P2 and 6 P6 are a forbidden pair",
            "6 P6 asked to be absent in round 2"
        ]
    );
    // 1 (a forfeit win in round 1) takes the bye.
    let plan = plan_swap(&t, &d, p(1), p(4), &[]).expect("allowed");
    assert!(
        plan.warnings
            .iter()
            .any(|w| matches!(w, SwapWarning::ByeAfterForfeitWin(n) if n.id == p(1)))
    );
    // A player who had the bye gets it again.
    let mut t2 = six();
    t2.add_round(Round {
        games: vec![],
        byes: vec![p(3)],
        absent: vec![],
    })
    .expect("round");
    let plan = plan_swap(&t2, &d, p(3), p(4), &[]).expect("allowed");
    assert!(
        plan.warnings
            .iter()
            .any(|w| matches!(w, SwapWarning::SecondBye(n) if n.id == p(3)))
    );
    // A plain swap needs nothing confirmed.
    assert!(
        plan_swap(&t, &d, p(5), p(3), &[])
            .expect("allowed")
            .warnings
            .is_empty()
    );
}
