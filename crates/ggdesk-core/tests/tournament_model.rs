//! The model's API, as the store and the desk use it: building a tournament and asking it
//! questions.

use ggdesk_core::rules::Side;
use ggdesk_core::tournament::{
    Entry, Game, GameOutcome, GameResult, Penalty, Player, PlayerId, PointsScale, Round, Score,
    Settings, System, TieBreak, Tournament, TournamentError,
};

fn id(n: u32) -> PlayerId {
    PlayerId(n)
}

fn four() -> Tournament {
    let mut t = Tournament::new("model", Settings::swiss(4)).expect("valid");
    for n in 1..=4 {
        t.add_player(Player::new(id(n), format!("P{n}"), 1500))
            .expect("fresh");
    }
    t
}

#[test]
fn scores_count_every_outcome_and_penalties() {
    let mut settings = Settings::swiss(4);
    settings.points = PointsScale {
        win: Score::from_points(3),
        draw: Score::from_points(1),
        loss: Score::ZERO,
        bye: Score::from_points(2),
        forfeit_win: Score::from_halves(5),
        forfeit_loss: Score::from_halves(1),
        absent: Score::from_halves(1),
    };
    let mut t = Tournament::new("scale", settings).expect("valid");
    for n in 1..=5 {
        t.add_player(Player::new(id(n), "x", 0)).expect("fresh");
    }
    t.add_round(Round {
        games: vec![
            Game {
                table: None,
                white: id(1),
                black: id(2),
                result: GameResult::WhiteWinsByForfeit,
            },
            Game {
                table: None,
                white: id(3),
                black: id(4),
                result: GameResult::DoubleForfeit,
            },
        ],
        byes: vec![id(5)],
        absent: vec![],
    })
    .expect("valid");
    t.add_round(Round {
        games: vec![
            Game {
                table: None,
                white: id(2),
                black: id(1),
                result: GameResult::Draw,
            },
            Game {
                table: None,
                white: id(4),
                black: id(5),
                result: GameResult::Pending,
            },
        ],
        byes: vec![],
        absent: vec![id(3)],
    })
    .expect("valid");
    t.add_penalty(Penalty {
        player: id(1),
        points: Score::from_halves(1),
        reason: "delay".into(),
    })
    .expect("known");
    let after = |n, r| t.score(id(n), r).expect("known").halves();
    // 1: forfeit win 2.5 + draw 1 - 0.5; 2: forfeit loss 0.5 + draw 1; 3: 0.5 + absent 0.5;
    // 4: 0.5 + pending 0; 5: bye 2 + pending 0.
    assert_eq!(
        [
            after(1, 2),
            after(2, 2),
            after(3, 2),
            after(4, 2),
            after(5, 2)
        ],
        [6, 3, 2, 1, 4]
    );
    assert_eq!(after(1, 1), 4, "penalties count whatever the round");
    assert_eq!(
        t.scores(2).iter().map(|s| s.halves()).collect::<Vec<_>>(),
        vec![6, 3, 2, 1, 4]
    );
    assert_eq!(t.score(id(9), 2), None);
    assert_eq!(t.completed_rounds(), 1);
    assert!(t.is_round_complete(1) && !t.is_round_complete(2) && !t.is_round_complete(3));
}

#[test]
fn queries_about_meetings_byes_and_forfeits() {
    let mut t = four();
    t.add_forbidden_pair(id(1), id(4)).expect("known");
    t.add_forbidden_pair(id(4), id(1))
        .expect("again is harmless");
    assert_eq!(t.settings().forbidden.len(), 1);
    assert_eq!(
        t.add_forbidden_pair(id(1), id(1)),
        Err(TournamentError::SamePlayer(id(1)))
    );
    t.add_round(Round {
        games: vec![Game {
            table: Some(1),
            white: id(2),
            black: id(1),
            result: GameResult::BlackWinsByForfeit,
        }],
        byes: vec![id(3)],
        absent: vec![id(4)],
    })
    .expect("valid");
    assert!(t.has_met(id(1), id(2)) && t.has_met(id(2), id(1)));
    assert!(!t.has_met(id(1), id(3)));
    assert!(t.is_forbidden(id(4), id(1)));
    assert!(t.had_bye(id(3)) && !t.had_bye(id(1)));
    assert!(t.has_forfeit_win(id(1)) && !t.has_forfeit_win(id(2)));
    assert_eq!(
        t.entry(id(1), 1),
        Some(Entry::Game {
            opponent: id(2),
            colour: Side::Black,
            outcome: GameOutcome::ForfeitWin
        })
    );
    assert_eq!(t.entry(id(3), 1), Some(Entry::Bye));
    assert_eq!(t.entry(id(4), 1), Some(Entry::Absent));
    assert_eq!(t.entry(id(4), 2), None);
}

#[test]
fn late_entries_withdrawals_and_player_changes() {
    let mut t = four();
    t.add_round(Round {
        games: vec![
            Game::pending(None, id(1), id(2)),
            Game::pending(None, id(3), id(4)),
        ],
        ..Round::default()
    })
    .expect("valid");
    let late = t.next_player_id();
    assert_eq!(late, id(5));
    t.add_player(Player::new(late, "late", 1400))
        .expect("fresh");
    assert_eq!(t.entry(late, 1), Some(Entry::Absent));
    t.set_absent(1, late).expect("not in round 1 yet");
    assert_eq!(t.rounds()[0].absent, vec![late]);
    t.set_withdrawn(id(2), true).expect("known");
    assert!(t.player(id(2)).is_some_and(|p| p.withdrawn));
    t.update_player(id(3), |p| {
        p.name = "renamed".into();
        p.id = id(99);
        p.club = Some("QC".into());
    })
    .expect("known");
    let p = t.player(id(3)).expect("the id stays");
    assert_eq!(
        (p.name.as_str(), p.club.as_deref()),
        ("renamed", Some("QC"))
    );
    assert_eq!(
        t.set_withdrawn(id(42), true),
        Err(TournamentError::UnknownPlayer(id(42)))
    );
    let removed = t.remove_last_round().expect("one round");
    assert_eq!(removed.games.len(), 2);
    assert!(t.rounds().is_empty());
}

#[test]
fn settings_are_checked() {
    let mut s = Settings::swiss(3);
    s.tiebreaks = vec![TieBreak::Wins, TieBreak::Wins];
    assert_eq!(
        Tournament::new("x", s).map(|_| ()),
        Err(TournamentError::DuplicateTieBreak(TieBreak::Wins))
    );
    let mut s = Settings::swiss(3);
    s.points.bye = Score::from_halves(-1);
    assert!(matches!(
        Tournament::new("x", s),
        Err(TournamentError::PointsOutOfRange { what: "bye", .. })
    ));
    assert_eq!(
        Tournament::new("x", Settings::swiss(0)).map(|_| ()),
        Err(TournamentError::NoRounds)
    );
    let rr = Tournament::new("rr", Settings::round_robin()).expect("valid");
    assert_eq!(rr.settings().system, System::RoundRobin);
    assert_eq!(rr.planned_rounds(), Some(0));
    let mut t = four();
    let mut s = t.settings().clone();
    s.forbidden = vec![(id(1), id(7))];
    assert_eq!(
        t.set_settings(s),
        Err(TournamentError::UnknownPlayer(id(7)))
    );
    assert_eq!(
        t.add_penalty(Penalty {
            player: id(1),
            points: Score::from_points(-1),
            reason: String::new()
        }),
        Err(TournamentError::PointsOutOfRange {
            what: "a penalty",
            value: Score::from_points(-1)
        })
    );
}
