//! Hand-checked values of the rules, the clocks and the adjudication that the fixture
//! records do not reach (written to kill the mutants `cargo mutants` found alive; see
//! "Mutation testing" in ARCHITECTURE.md). Every expected value comes from RULES.md or
//! spec/record.md, worked out by hand.

use ggdesk_core::adjudication::{Hundredths, aliwalas_total, aliwalas_value};
use ggdesk_core::clock::{Clock, ClockError, ClockSettings, Expiry, Time};
use ggdesk_core::physical_record::PhysicalRecord;
use ggdesk_core::record::{Record, replay_game};
use ggdesk_core::rules::{
    ByRank, BySide, ChallengeResult, Event, EventError, Game, GameState, Move, MoveError, Outcome,
    PenaltyKind, PhysicalEvent, Piece, PlayerView, Position, Rank, Reason, SetupError, Side,
    SideSetup, Square,
};
use serde_json::{Value, json};

fn rank(code: &str) -> Rank {
    code.parse().expect("a piece code of RULES.md")
}

/// RULES.md's table of Aliwalas values, in hundredths.
const VALUES: [(&str, i64, usize); 15] = [
    ("G5", 780, 1),
    ("G4", 695, 1),
    ("G3", 615, 1),
    ("G2", 540, 1),
    ("G1", 470, 1),
    ("COL", 405, 1),
    ("LTC", 345, 1),
    ("MAJ", 290, 1),
    ("CPT", 240, 1),
    ("1LT", 195, 1),
    ("2LT", 155, 1),
    ("SGT", 120, 1),
    ("PVT", 137, 6),
    ("SPY", 750, 2),
    ("FLG", 0, 1),
];

#[test]
fn every_piece_has_its_aliwalas_value_and_a_full_set_is_worth_71_72() {
    for (code, value, _) in VALUES {
        assert_eq!(aliwalas_value(rank(code)), Hundredths(value), "{code}");
        assert_eq!(rank(code).aliwalas_value(), value, "{code}");
    }
    let set = VALUES
        .iter()
        .flat_map(|&(code, _, count)| std::iter::repeat_n(rank(code), count));
    assert_eq!(aliwalas_total(set), Hundredths(7172));
}

#[test]
fn hundredths_are_written_exactly_with_their_sign() {
    let cases = [
        (5745, "57.45"),
        (7172, "71.72"),
        (5, "0.05"),
        (0, "0.00"),
        (-5, "-0.05"),
        (-100, "-1.00"),
        (-1234, "-12.34"),
    ];
    for (h, text) in cases {
        assert_eq!(Hundredths(h).to_string(), text, "{h}");
    }
    assert_eq!(Hundredths(5745).as_f64(), 57.45);
    assert_eq!(Hundredths(-250).as_f64(), -2.5);
}

// ---- Clocks -------------------------------------------------------------------------------

const S: i64 = 1_000_000_000;
/// 2^64: the units of a `Time` in one second.
const UNIT: i128 = 1 << 64;

fn secs(s: f64) -> Time {
    Time::from_secs_f64(s).expect("a time a record can hold")
}

#[test]
fn times_are_exact_counts_of_two_to_the_minus_64_seconds() {
    assert_eq!(Time::from_secs(3), Time(3 * UNIT));
    assert_eq!(secs(3.0), Time(3 * UNIT));
    assert_eq!(secs(1.5), Time(3 * UNIT / 2));
    assert_eq!(secs(0.0), Time(0));
    assert_eq!(Time::from_secs(-2), Time(-2 * UNIT));
    // Out of a record's range: negative, not finite, beyond 2^50 s.
    for bad in [-0.5, f64::NAN, f64::INFINITY, Time::MAX_SECS * 2.0] {
        assert_eq!(Time::from_secs_f64(bad), None, "{bad}");
    }
    assert_eq!(Time::from_secs_f64(Time::MAX_SECS), Some(Time(UNIT << 50)));
    // Whole nanoseconds: 1 ns is 2^64 / 10^9 = 18446744073.7… units, rounded to nearest,
    // away from zero for a negative duration.
    assert_eq!(Time::from_ns(1_500_000_000), secs(1.5));
    assert_eq!(Time::from_ns(-1_500_000_000), Time(-3 * UNIT / 2));
    assert_eq!(Time::from_ns(1), Time(18_446_744_074));
    assert_eq!(Time::from_ns(-1), Time(-18_446_744_074));
    assert_eq!(Time::from_ns(0), Time(0));
    // Back to seconds, nanoseconds and milliseconds (the last two towards zero).
    assert_eq!(secs(2.25).as_secs_f64(), 2.25);
    assert_eq!(secs(1.5).as_ns(), 1_500_000_000);
    assert_eq!(Time::from_ns(1).as_ns(), 1);
    assert_eq!(Time(UNIT - 1).as_ns(), 999_999_999);
    assert_eq!(secs(1.5).as_ms(), 1500);
    assert_eq!(Time(UNIT - 1).as_ms(), 999);
    assert_eq!(secs(0.0019).as_ms(), 1);
    assert_eq!(
        Time::from_secs(1).plus(Time::from_secs(2)),
        Time::from_secs(3)
    );
    assert_eq!(Time(i128::MAX).plus(Time(1)), Time(i128::MAX));
}

fn settings(move_s: i64, oversteps: u32, game_s: i64) -> ClockSettings {
    ClockSettings {
        move_limit_ns: move_s * S,
        oversteps_to_lose: oversteps,
        game_limit_ns: game_s * S,
    }
}

#[test]
fn a_clock_counts_thinking_and_playing_time_up_to_the_moment_given() {
    let set = settings(120, 3, 7200);
    let mut c = Clock::new(set, Side::Black);
    assert_eq!(c.settings(), set);
    assert_eq!(
        (c.now(), c.turn(), c.is_paused()),
        (Time(0), Side::Black, false)
    );
    assert_eq!((c.thinking_ns(), c.game_used_ns()), (0, 0));
    assert_eq!(
        (c.move_remaining_ns(), c.game_remaining_ns()),
        (120 * S, 7200 * S)
    );
    assert_eq!(c.oversteps(), BySide::new(0, 0));
    assert_eq!((c.expired(), c.turn_overstepped()), (None, false));

    assert_eq!(c.advance(secs(30.0)), Ok(None));
    assert_eq!(c.now(), secs(30.0));
    assert_eq!((c.thinking_ns(), c.game_used_ns()), (30 * S, 30 * S));
    assert_eq!(
        (c.move_remaining_ns(), c.game_remaining_ns()),
        (90 * S, 7170 * S)
    );
    assert_eq!(
        c.advance(secs(10.0)),
        Err(ClockError::TimeWentBack {
            from: 30.0,
            to: 10.0
        })
    );
    assert_eq!(c.now(), secs(30.0), "a refused time changes nothing");

    // Exactly at the limit is in time; beyond it is one overstep, counted once a turn.
    assert_eq!(c.advance(secs(120.0)), Ok(None));
    assert_eq!(
        (c.oversteps(), c.turn_overstepped()),
        (BySide::new(0, 0), false)
    );
    assert_eq!(c.advance(secs(121.0)), Ok(None));
    assert_eq!(
        (c.oversteps(), c.turn_overstepped()),
        (BySide::new(0, 1), true)
    );
    assert_eq!(c.move_remaining_ns(), -S);
    assert_eq!(c.advance(secs(400.0)), Ok(None));
    assert_eq!(c.oversteps(), BySide::new(0, 1));

    // A new turn starts its move clock from zero; the game clock goes on.
    c.start_turn(Side::White);
    assert_eq!(
        (c.turn(), c.thinking_ns(), c.turn_overstepped()),
        (Side::White, 0, false)
    );
    assert_eq!(c.game_used_ns(), 400 * S);

    // A pause stops both clocks.
    assert_eq!(c.pause(), Ok(()));
    assert!(c.is_paused());
    assert_eq!(c.pause(), Err(ClockError::AlreadyPaused));
    assert_eq!(c.advance(secs(1000.0)), Ok(None));
    assert_eq!(
        (c.now(), c.game_used_ns(), c.thinking_ns()),
        (secs(1000.0), 400 * S, 0)
    );
    assert_eq!(c.resume(), Ok(()));
    assert_eq!(c.resume(), Err(ClockError::NotPaused));
    assert_eq!(c.advance(secs(1010.0)), Ok(None));
    assert_eq!((c.game_used_ns(), c.thinking_ns()), (410 * S, 10 * S));
}

#[test]
fn the_losing_overstep_and_the_game_limit_expire_at_their_exact_moment() {
    // Two oversteps lose: the second comes 60 s into White's second turn.
    let mut c = Clock::new(settings(60, 2, 7200), Side::White);
    assert_eq!(c.advance(secs(61.0)), Ok(None));
    c.start_turn(Side::Black);
    assert_eq!(c.advance(secs(70.0)), Ok(None));
    c.start_turn(Side::White);
    let expiry = Expiry::MoveTime {
        side: Side::White,
        at: secs(130.0),
    };
    assert_eq!(c.advance(secs(500.0)), Ok(Some(expiry)));
    assert_eq!((c.now(), c.expired()), (secs(130.0), Some(expiry)));
    assert_eq!(c.oversteps(), BySide::new(2, 0));
    assert_eq!(expiry.at(), secs(130.0));
    // Frozen from then on.
    assert_eq!(c.advance(secs(900.0)), Ok(Some(expiry)));
    assert_eq!(c.now(), secs(130.0));

    // The game clock: 100 s of play, 50 of them paused away.
    let mut c = Clock::new(settings(120, 3, 100), Side::White);
    assert_eq!(c.advance(secs(40.0)), Ok(None));
    c.start_turn(Side::Black);
    assert_eq!(c.pause(), Ok(()));
    assert_eq!(c.advance(secs(90.0)), Ok(None));
    assert_eq!(c.resume(), Ok(()));
    let expiry = Expiry::GameTime { at: secs(150.0) };
    assert_eq!(c.advance(secs(400.0)), Ok(Some(expiry)));
    assert_eq!((expiry.at(), c.game_remaining_ns()), (secs(150.0), 0));

    // Both at the same moment: move time is judged first (the rulebook lists it first).
    let mut c = Clock::new(settings(100, 1, 100), Side::Black);
    let expiry = Expiry::MoveTime {
        side: Side::Black,
        at: secs(100.0),
    };
    assert_eq!(c.advance(secs(100.5)), Ok(Some(expiry)));
    // An overstep that does not lose, at the moment the game time runs out: counted, then
    // the game clock expires at that same moment.
    let mut c = Clock::new(settings(100, 3, 100), Side::White);
    assert_eq!(
        c.advance(secs(101.0)),
        Ok(Some(Expiry::GameTime { at: secs(100.0) }))
    );
    assert_eq!(c.oversteps(), BySide::new(1, 0));
    // The game limit first, before a later overstep.
    let mut c = Clock::new(settings(100, 1, 50), Side::White);
    assert_eq!(
        c.advance(secs(101.0)),
        Ok(Some(Expiry::GameTime { at: secs(50.0) }))
    );
    assert_eq!(c.oversteps(), BySide::new(0, 0));
}

// ---- Rules --------------------------------------------------------------------------------

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

fn mv(text: &str) -> Move {
    text.parse().expect("a move")
}

/// A fixture record of `tests/fixtures/records`, replayed.
fn fixture_game(name: &str) -> Game {
    let path = format!(
        "{}/../../tests/fixtures/records/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("fixture readable");
    let record = Record::from_json_str(&text).expect("a well-formed fixture");
    replay_game(&record).expect("it replays").0
}

#[test]
fn reasons_and_penalties_have_the_codes_of_the_record_format() {
    let codes = [
        "flag_captured",
        "flag_through",
        "resignation",
        "move_time",
        "thirty_moves",
        "perpetual_5",
        "perpetual_16",
        "caused_exposure",
        "removal",
        "respect",
        "game_time",
    ];
    assert_eq!(Reason::ALL.map(Reason::code), codes);
    for r in Reason::ALL {
        assert_eq!(r.to_string(), r.code());
        assert_eq!(Reason::from_code(r.code()), Some(r));
        assert!(!r.describe().is_empty());
    }
    assert_eq!(Reason::from_code("checkmate"), None);
    assert_eq!(Reason::FlagCaptured.describe(), "flag captured");
    assert_eq!(Reason::GameTime.describe(), "game time (adjudication)");
    let kinds = ["own_exposure", "caused_exposure", "removal"];
    assert_eq!(PenaltyKind::ALL.map(PenaltyKind::code), kinds);
    for k in PenaltyKind::ALL {
        assert_eq!(PenaltyKind::from_code(k.code()), Some(k));
    }
    assert_eq!(PenaltyKind::from_code("delay"), None);
}

#[test]
fn mirroring_turns_the_board_round_and_swaps_the_sides() {
    // a1 (file a, rank 1) faces i8; e4 faces e5.
    assert_eq!(sq("a1").mirror(), sq("i8"));
    assert_eq!(sq("e4").mirror(), sq("e5"));
    assert_eq!(mv("a3-a4").mirror(), mv("i6-i5"));
    let moved = Event::Move {
        mv: mv("a3-a4"),
        by: Some(Side::White),
    };
    assert_eq!(
        moved.mirrored(),
        Event::Move {
            mv: mv("i6-i5"),
            by: Some(Side::Black)
        }
    );
    let anyone = Event::Move {
        mv: mv("c3-c4"),
        by: None,
    };
    assert_eq!(
        anyone.mirrored(),
        Event::Move {
            mv: mv("g6-g5"),
            by: None
        }
    );
    let penalty = Event::Penalty {
        kind: PenaltyKind::Removal,
        side: Side::Black,
    };
    assert_eq!(
        penalty.mirrored(),
        Event::Penalty {
            kind: PenaltyKind::Removal,
            side: Side::White
        }
    );
    assert_eq!(
        Event::Resign(Side::White).mirrored(),
        Event::Resign(Side::Black)
    );
    for e in [
        Event::Pause,
        Event::Resume,
        Event::End,
        Event::DrawForRespect,
    ] {
        assert_eq!(e.mirrored(), e);
    }
}

#[test]
fn squares_sides_and_ranks_by_their_names() {
    assert_eq!(sq("a1").to_string(), "a1");
    assert_eq!(sq("i8").to_string(), "i8");
    assert_eq!((sq("c5").file(), sq("c5").row()), (2, 4));
    assert_eq!(Square::new(2, 4), Some(sq("c5")));
    assert_eq!(Square::new(9, 0), None);
    assert_eq!(Square::new(0, 8), None);
    assert_eq!(Square::from_index(sq("c5").index()), Some(sq("c5")));
    assert_eq!(Square::from_index(72), None);
    assert_eq!(Square::all().count(), 72);
    for bad in ["j1", "a9", "a0", "A1", "a", "a10", ""] {
        assert_eq!(
            bad.parse::<Square>(),
            Err(format!("{bad:?} is not a square (files a-i, ranks 1-8)"))
        );
    }
    let mut around: Vec<String> = sq("e4").neighbours().map(|s| s.to_string()).collect();
    around.sort();
    assert_eq!(around, ["d4", "e3", "e5", "f4"]);
    let mut corner: Vec<String> = sq("i8").neighbours().map(|s| s.to_string()).collect();
    corner.sort();
    assert_eq!(corner, ["h8", "i7"]);
    assert!(sq("e4").is_adjacent(sq("e5")) && sq("e4").is_adjacent(sq("d4")));
    assert!(!sq("e4").is_adjacent(sq("f5")) && !sq("e4").is_adjacent(sq("e6")));
    assert!(!sq("e4").is_adjacent(sq("e4")));
    assert_eq!(mv("e3-e4").to_string(), "e3-e4");
    assert_eq!(
        "e3e4".parse::<Move>(),
        Err("\"e3e4\" is not a move (write it FROM-TO, like e3-e4)".into())
    );
    assert_eq!(Move::parse_typed(" E3E4 "), Ok(mv("e3-e4")));
    assert_eq!(Move::parse_typed("e3 - e4"), Ok(mv("e3-e4")));
    assert_eq!(
        Move::parse_typed("e3"),
        Err("\"e3\" is not a move (write it FROM-TO, like e3-e4)".into())
    );
    assert_eq!(
        Move::parse_typed("e3-j4"),
        Err("\"j4\" is not a square (files a-i, ranks 1-8)".into()),
        "the square at fault is named"
    );

    assert_eq!("white".parse::<Side>(), Ok(Side::White));
    assert_eq!("black".parse::<Side>(), Ok(Side::Black));
    assert_eq!(
        "White".parse::<Side>(),
        Err("unknown side \"White\" (expected \"white\" or \"black\")".into())
    );
    assert_eq!(
        (Side::White.to_string(), Side::Black.name()),
        ("white".into(), "black")
    );
    assert_eq!(Side::White.opponent(), Side::Black);
    // Back ranks 8 and 1; home ranks 1-3 and 6-8; across the midpoint 5-8 and 1-4.
    assert_eq!(
        (Side::White.target_rank(), Side::Black.target_rank()),
        (7, 0)
    );
    assert_eq!(Side::White.home_rows(), 0..=2);
    assert_eq!(Side::Black.home_rows(), 5..=7);
    assert!(Side::White.is_across(4) && !Side::White.is_across(3));
    assert!(Side::Black.is_across(3) && !Side::Black.is_across(4));

    let names = [
        ("G5", "Five-Star General"),
        ("COL", "Colonel"),
        ("1LT", "First Lieutenant"),
        ("2LT", "Second Lieutenant"),
        ("SGT", "Sergeant"),
        ("PVT", "Private"),
        ("SPY", "Spy"),
        ("FLG", "Flag"),
    ];
    for (code, name) in names {
        assert_eq!(rank(code).name(), name);
        assert_eq!(rank(code).to_string(), code);
    }
    // Rank::ALL is the rulebook's table in order: its codes and set counts, rank by rank,
    // against VALUES written out from RULES.md.
    for (r, (code, _, count)) in Rank::ALL.into_iter().zip(VALUES) {
        assert_eq!((r.code(), r.count_in_set()), (code, count));
        assert_eq!(ByRank::from_fn(|x| x)[r], r);
        assert_eq!(Rank::from_code(r.code()), Some(r));
    }
    assert_eq!(Rank::from_code("GEN"), None);
    assert_eq!(
        Rank::ALL.map(Rank::count_in_set).iter().sum::<usize>(),
        Rank::SET_SIZE
    );

    let mut by = BySide::new(1, 2);
    by[Side::Black] += 10;
    assert_eq!((by[Side::White], *by.get(Side::Black)), (1, 12));
    assert_eq!(by.as_ref(), BySide::new(&1, &12));
    assert_eq!(
        by.map(|s, v| (s, v * 2)),
        BySide::new((Side::White, 2), (Side::Black, 24))
    );
    assert_eq!(BySide::from_fn(Side::name), BySide::new("white", "black"));
}

/// A board drawn by hand: White's PVT on a1 and SGT on a2, Black's FLG on b1 and G5 on e5,
/// White's Flag on e4.
fn small_position() -> Position {
    position_of(&[
        ("a1", Side::White, "PVT"),
        ("a2", Side::White, "SGT"),
        ("b1", Side::Black, "FLG"),
        ("e5", Side::Black, "G5"),
        ("e4", Side::White, "FLG"),
    ])
}

/// A board holding just these pieces: (square, side, piece code).
fn position_of(pieces: &[(&str, Side, &str)]) -> Position {
    let mut p = Position::empty();
    for &(s, side, code) in pieces {
        p.set(
            sq(s),
            Some(Piece {
                side,
                rank: rank(code),
            }),
        );
    }
    p
}

#[test]
fn a_position_knows_its_moves_its_attacked_pieces_and_its_counts() {
    let p = small_position();
    let mut white: Vec<String> = p
        .legal_moves(Side::White)
        .iter()
        .map(|m| m.to_string())
        .collect();
    white.sort();
    assert_eq!(
        white,
        [
            "a1-b1", "a2-a3", "a2-b2", "e4-d4", "e4-e3", "e4-e5", "e4-f4"
        ]
    );
    let mut black: Vec<String> = p
        .legal_moves(Side::Black)
        .iter()
        .map(|m| m.to_string())
        .collect();
    black.sort();
    assert_eq!(
        black,
        [
            "b1-a1", "b1-b2", "b1-c1", "e5-d5", "e5-e4", "e5-e6", "e5-f5"
        ]
    );
    assert!(p.is_attacked(sq("a1")) && p.is_attacked(sq("b1")));
    assert!(!p.is_attacked(sq("a2")) && !p.is_attacked(sq("c3")));
    assert!(p.is_attacked(sq("e4")) && p.is_attacked(sq("e5")));
    assert_eq!((p.count(Side::White), p.count(Side::Black)), (3, 2));
    // White across on ranks 5-8: none; Black across on ranks 1-4: the Flag on b1.
    assert_eq!(
        (p.count_across(Side::White), p.count_across(Side::Black)),
        (0, 1)
    );
    assert_eq!(p.flag_square(Side::White), Some(sq("e4")));
    assert_eq!(p.flag_square(Side::Black), Some(sq("b1")));
    assert_eq!(Position::empty().flag_square(Side::White), None);
    assert_eq!(p.pieces().count(), 5);
    assert_eq!(
        p.pieces_of(Side::Black).collect::<Vec<_>>(),
        [(sq("b1"), rank("FLG")), (sq("e5"), rank("G5"))]
    );
    let m = p.mirrored();
    assert_eq!(
        m.get(sq("i8")),
        Some(Piece {
            side: Side::Black,
            rank: rank("PVT")
        })
    );
    assert_eq!(
        m.get(sq("h8")),
        Some(Piece {
            side: Side::White,
            rank: rank("FLG")
        })
    );
    assert_eq!(m.mirrored(), p);
    let diagram = p.diagram();
    assert!(diagram.starts_with("8  .    ."), "{diagram}");
    assert!(diagram.contains("1 wPVT bFLG"), "{diagram}");
    assert!(diagram.contains("4  .    .    .    .   wFLG"), "{diagram}");
    assert!(
        diagram.ends_with("   a    b    c    d    e    f    g    h    i\n"),
        "{diagram}"
    );
}

#[test]
fn a_challenge_says_which_pieces_left_the_board() {
    let mut p = small_position();
    // The Private takes the Flag on b1.
    let c = p
        .play(Side::White, mv("a1-b1"))
        .expect("legal")
        .expect("a challenge");
    assert_eq!(c.result, ChallengeResult::AttackerWins);
    assert_eq!(c.removed(), (false, true));
    assert_eq!(c.losers().collect::<Vec<_>>(), [c.defender]);
    assert_eq!(p.get(sq("b1")).map(|x| x.rank), Some(rank("PVT")));
    assert_eq!(p.get(sq("a1")), None);
    // The White Flag attacks the Five-Star General: the Flag is lost.
    let c = p
        .play(Side::White, mv("e4-e5"))
        .expect("legal")
        .expect("a challenge");
    assert_eq!(
        (c.result, c.removed()),
        (ChallengeResult::DefenderWins, (true, false))
    );
    assert_eq!(c.losers().collect::<Vec<_>>(), [c.attacker]);
    assert_eq!(p.get(sq("e5")).map(|x| x.side), Some(Side::Black));
    // Equal ranks: both go.
    let mut p = Position::empty();
    p.set(
        sq("c3"),
        Some(Piece {
            side: Side::White,
            rank: rank("SPY"),
        }),
    );
    p.set(
        sq("c4"),
        Some(Piece {
            side: Side::Black,
            rank: rank("SPY"),
        }),
    );
    let c = p
        .play(Side::Black, mv("c4-c3"))
        .expect("legal")
        .expect("a challenge");
    assert_eq!(
        (c.result, c.removed()),
        (ChallengeResult::BothRemoved, (true, true))
    );
    assert_eq!(c.losers().count(), 2);
    assert_eq!(p.pieces().count(), 0);
    // A plain move is no challenge, and an illegal one changes nothing.
    let mut p = small_position();
    assert_eq!(p.play(Side::White, mv("a2-a3")), Ok(None));
    let before = p.clone();
    assert_eq!(
        p.play(Side::White, mv("a3-a5")),
        Err(MoveError::NotAdjacent { mv: mv("a3-a5") })
    );
    assert_eq!(
        p.play(Side::Black, mv("a3-a4")),
        Err(MoveError::NotYours {
            mv: mv("a3-a4"),
            side: Side::Black,
            owner: Side::White
        })
    );
    assert_eq!(p, before);
}

#[test]
fn setups_are_read_counted_mirrored_and_drawn_at_random() {
    let setup = SideSetup::new(vec![
        (sq("a1"), rank("FLG")),
        (sq("b2"), rank("PVT")),
        (sq("c2"), rank("PVT")),
    ]);
    assert_eq!(setup.rank_at(sq("b2")), Some(rank("PVT")));
    assert_eq!(setup.rank_at(sq("e3")), None);
    let counts = setup.counts();
    assert_eq!(
        (counts[rank("PVT")], counts[rank("FLG")], counts[rank("G5")]),
        (2, 1, 0)
    );
    assert_eq!(setup.mirrored().rank_at(sq("i8")), Some(rank("FLG")));
    let mut n = 7usize;
    let mut pick = move |k: usize| {
        n = (n * 31 + 17) % 1_000_003;
        n % k
    };
    for side in Side::BOTH {
        let s = SideSetup::random(side, &mut pick);
        assert_eq!(s.placements.len(), 21);
        assert_eq!(s.validate(side), Ok(()));
        // The first piece placed already stands outside the other side's ranks.
        let (first, _) = s.placements[0];
        assert_eq!(
            s.validate(side.opponent()),
            Err(SetupError::OutsideHome {
                side: side.opponent(),
                square: first,
                ranks: match side.opponent() {
                    Side::White => "1-3",
                    Side::Black => "6-8",
                },
            })
        );
    }
}

#[test]
fn a_game_reports_its_counters() {
    // White loses a turn (own exposure on its turn), then Black and White move.
    let g = fixture_game("penalty_own_exposure_own_turn_white");
    assert_eq!(g.lost_turns(), BySide::new(0, 0), "the lost turn is taken");
    assert_eq!(g.moves_by(), BySide::new(2, 2));
    assert_eq!(g.plies(), 4);
    assert_eq!(g.challenges(), 0);
    assert_eq!(g.to_move(), Side::Black);
    assert_eq!(g.last_time(), Time::from_secs(25));
    assert_eq!(g.ratings(), None);
    assert_eq!(
        g.respect_allowed(),
        Err("the players' ratings are not known".into())
    );
    assert_eq!(g.pending_flag(), None);
    assert_eq!(g.perpetual_counts(), BySide::new(0, 0));
    assert!(!g.is_over());
    // Black exposes a piece on White's turn: it has a move to lose, lost when its turn
    // comes, and White moves again.
    let mut g = fixture_game("move_by_names_side_ok");
    let own = Event::Penalty {
        kind: PenaltyKind::OwnExposure,
        side: Side::Black,
    };
    g.apply(Time::from_secs(12), &own).expect("a penalty");
    assert_eq!(
        (g.lost_turns(), g.to_move()),
        (BySide::new(0, 1), Side::White)
    );
    let white = Event::Move {
        mv: mv("a4-a5"),
        by: None,
    };
    g.apply(Time::from_secs(14), &white).expect("White moves");
    assert_eq!(
        (g.lost_turns(), g.to_move()),
        (BySide::new(0, 0), Side::White)
    );
    assert_eq!(g.moves_by(), BySide::new(2, 1));
    // White's attacked piece swung four times between two squares (five draw), and in
    // the other game walked fifteen times (sixteen draw).
    let g = fixture_game("perpetual_4_swings_ongoing");
    assert_eq!(g.perpetual_counts(), BySide::new(4, 0));
    let g = fixture_game("perpetual_16_after_15_ongoing");
    assert_eq!(g.perpetual_counts(), BySide::new(15, 0));
    // A guarded Flag on the back rank waits for Black's one turn.
    let g = fixture_game("flag_through_guarded_ongoing");
    assert_eq!(g.pending_flag(), Some(Side::White));
    assert_eq!(g.to_move(), Side::Black);
    // Ratings from the record; respect allowed after ten moves each at equal ratings.
    let g = fixture_game("respect_ok");
    assert_eq!(g.ratings(), Some(BySide::new(1500.0, 1500.0)));
    assert!(g.is_over());
}

#[test]
fn checking_an_event_changes_nothing() {
    let g = fixture_game("move_by_names_side_ok");
    let before = g.clone();
    let t = g.last_time();
    assert_eq!(
        g.check(
            t,
            &Event::Move {
                mv: mv("a4-a5"),
                by: None
            }
        ),
        Ok(())
    );
    assert_eq!(
        g.check(
            t,
            &Event::Move {
                mv: mv("a4-a6"),
                by: None
            }
        ),
        Err(EventError::Move(MoveError::NotAdjacent { mv: mv("a4-a6") }))
    );
    assert_eq!(
        g.check(
            t,
            &Event::Move {
                mv: mv("i5-i4"),
                by: None
            }
        ),
        Err(EventError::Move(MoveError::NotYours {
            mv: mv("i5-i4"),
            side: Side::White,
            owner: Side::Black
        }))
    );
    assert_eq!(
        g.check(Time(0), &Event::Pause),
        Err(EventError::Clock(ClockError::TimeWentBack {
            from: 10.0,
            to: 0.0
        })),
        "time going back"
    );
    assert_eq!(g, before);
}

#[test]
fn the_player_view_shows_sides_and_counters_and_no_rank() {
    let g = fixture_game("penalty_own_exposure_own_turn_white");
    let v = PlayerView::of(&g);
    assert_eq!(v.occupant(sq("a1")), Some(Side::White));
    assert_eq!(v.occupant(sq("a8")), Some(Side::Black));
    assert_eq!(v.occupant(sq("e5")), None);
    assert_eq!(
        (v.to_move, v.plies, v.paused, v.finished),
        (Side::Black, 4, false, None)
    );
    assert_eq!(v.pieces, BySide::new(21, 21));
    assert_eq!(v.oversteps, BySide::new(0, 0));
    let over = PlayerView::of(&fixture_game("resign_white"));
    assert_eq!(over.finished, Some((Some(Side::Black), "resignation")));
}

// ---- Games on a physical board (through `ggdesk-physical/1`) ------------------------------

/// A physical record with these events (White first, default rules unless given).
fn physical(events: Value, rules: Value) -> PhysicalRecord {
    let v = json!({"format": "ggdesk-physical/1", "first": "white", "rules": rules,
                   "events": events});
    PhysicalRecord::from_value(&v).expect("a well-formed physical record")
}

fn outcome(r: &PhysicalRecord) -> Option<Outcome> {
    r.judge().expect("judged").outcome
}

#[test]
fn a_physical_game_keeps_the_tally_of_every_challenge() {
    let r = physical(
        json!([
            {"t": 5, "challenge": ["SPY", "G5"]},   // White's Spy takes the G5
            {"t": 9, "challenge": ["PVT", "SPY"]},  // Black's Private takes a Spy
            {"t": 12, "challenge": ["SGT", "SGT"]}, // both Sergeants go
            {"t": 15, "move": true},
            {"t": 20, "challenge": ["COL", "G1"]}   // the Colonel is lost
        ]),
        json!({}),
    );
    let g = r.replay_game().expect("replays");
    assert_eq!((g.plies(), g.challenges()), (5, 4));
    assert_eq!(g.moves_by(), BySide::new(3, 2));
    assert_eq!(g.to_move(), Side::Black);
    assert_eq!(g.last_time(), Time::from_secs(20));
    assert_eq!((g.count(Side::White), g.count(Side::Black)), (18, 19));
    assert_eq!(g.remaining(Side::White, rank("SPY")), 1);
    assert_eq!(g.remaining(Side::White, rank("COL")), 0);
    assert_eq!(g.remaining(Side::Black, rank("G5")), 0);
    assert_eq!(g.remaining(Side::Black, rank("SGT")), 0);
    assert_eq!(g.remaining(Side::Black, rank("PVT")), 6);
    let white = g.remaining_pieces(Side::White);
    assert_eq!(white.len(), 18);
    assert_eq!(white.first(), Some(&rank("G5")));
    assert_eq!(white.last(), Some(&rank("FLG")));
    let place = |r: &Rank| Rank::ALL.iter().position(|x| x == r);
    assert!(white.windows(2).all(|w| place(&w[0]) <= place(&w[1])));
    assert_eq!(g.lost_turns(), BySide::new(0, 0));
    assert!(!g.is_over() && !g.awaiting_thirty_count());
}

#[test]
fn a_physical_game_ends_as_the_arbiter_sees_it() {
    // A Flag taken, a Flag that attacks, a perpetual and a Flag through declared.
    let taken = physical(json!([{"t": 5, "challenge": ["PVT", "FLG"]}]), json!({}));
    assert_eq!(
        outcome(&taken),
        Some(Outcome::Win {
            side: Side::White,
            reason: Reason::FlagCaptured
        })
    );
    let lost = physical(
        json!([{"t": 5, "move": true}, {"t": 6, "challenge": ["FLG", "PVT"]}]),
        json!({}),
    );
    assert_eq!(
        outcome(&lost),
        Some(Outcome::Win {
            side: Side::White,
            reason: Reason::FlagCaptured
        })
    );
    let short = physical(json!([{"t": 5, "perpetual": "perpetual_5"}]), json!({}));
    assert_eq!(
        outcome(&short),
        Some(Outcome::Draw {
            reason: Reason::Perpetual5
        })
    );
    let long = physical(json!([{"t": 5, "perpetual": "perpetual_16"}]), json!({}));
    assert_eq!(
        outcome(&long),
        Some(Outcome::Draw {
            reason: Reason::Perpetual16
        })
    );
    let through = physical(json!([{"t": 5, "flag_through": "black"}]), json!({}));
    assert_eq!(
        outcome(&through),
        Some(Outcome::Win {
            side: Side::Black,
            reason: Reason::FlagThrough
        })
    );
    let resigned = physical(
        json!([{"t": 5, "resign": "white"}, {"t": 9, "end": true}]),
        json!({}),
    );
    assert_eq!(
        outcome(&resigned),
        Some(Outcome::Win {
            side: Side::Black,
            reason: Reason::Resignation
        })
    );
}

#[test]
fn a_physical_game_asks_the_counts_at_the_thirty_move_rule() {
    let moves: Vec<Value> = (1..=4).map(|t| json!({"t": t, "move": true})).collect();
    let rules = json!({"thirty_moves": 4});
    let mut events = moves.clone();
    let waiting = physical(Value::Array(events.clone()), rules.clone());
    let g = waiting.replay_game().expect("replays");
    assert!(g.awaiting_thirty_count());
    assert!(
        matches!(g.state(), GameState::ThirtyCountPending { .. }),
        "the counts are awaited: no result yet"
    );
    events.push(json!({"t": 9, "thirty_count": {"white": 3, "black": 1}}));
    let counted = physical(Value::Array(events), rules.clone());
    assert_eq!(
        outcome(&counted),
        Some(Outcome::Win {
            side: Side::White,
            reason: Reason::ThirtyMoves
        })
    );
    let g = counted.replay_game().expect("replays");
    assert!(!g.awaiting_thirty_count());
    // The game ended at the fourth move, not when the counts came.
    assert_eq!(
        g.state(),
        GameState::Finished {
            outcome: Outcome::Win {
                side: Side::White,
                reason: Reason::ThirtyMoves
            },
            at: Time::from_secs(4)
        }
    );
    let mut equal = moves.clone();
    equal.push(json!({"t": 9, "thirty_count": {"white": 2, "black": 2}}));
    assert_eq!(
        outcome(&physical(Value::Array(equal), rules.clone())),
        Some(Outcome::Draw {
            reason: Reason::ThirtyMoves
        })
    );
    // Refusals: another event while the counts are awaited, counts nobody asked for, more
    // pieces than a side has, and counts given at an earlier time.
    let mut g = waiting.replay_game().expect("replays");
    let count = |white, black| PhysicalEvent::ThirtyCount { white, black };
    assert_eq!(
        g.apply(Time::from_secs(9), &PhysicalEvent::Move { challenge: None }),
        Err(EventError::CountsNeeded)
    );
    assert_eq!(
        g.apply(Time::from_secs(9), &count(22, 0)),
        Err(EventError::CountTooHigh {
            side: Side::White,
            count: 22,
            left: 21
        })
    );
    assert_eq!(
        g.apply(Time::from_secs(3), &count(1, 1)),
        Err(EventError::Clock(ClockError::TimeWentBack {
            from: 4.0,
            to: 3.0
        }))
    );
    assert!(g.awaiting_thirty_count());
    let mut at_once = g.clone();
    assert_eq!(
        at_once.apply(Time::from_secs(4), &count(1, 1)),
        Ok(()),
        "at the move's own time"
    );
    assert_eq!(g.apply(Time::from_secs(9), &count(21, 21)), Ok(()));
    let mut fresh = physical(json!([]), json!({}))
        .replay_game()
        .expect("replays");
    assert_eq!(
        fresh.apply(Time::from_secs(1), &count(1, 1)),
        Err(EventError::CountsNotAsked)
    );
    // A challenge with a piece the side no longer has is refused; the tally is unchanged.
    let mut g = physical(
        json!([{"t": 5, "challenge": ["SPY", "G5"]}, {"t": 6, "move": true}]),
        json!({}),
    )
    .replay_game()
    .expect("replays");
    let before = g.clone();
    let again = PhysicalEvent::Move {
        challenge: Some((rank("PVT"), rank("G5"))),
    };
    assert_eq!(
        g.apply(Time::from_secs(7), &again),
        Err(EventError::NoSuchPiece {
            side: Side::Black,
            rank: rank("G5")
        })
    );
    assert_eq!(g, before);
}

#[test]
fn physical_events_have_their_codes() {
    let c = |e: PhysicalEvent| e.code();
    assert_eq!(c(PhysicalEvent::Move { challenge: None }), "move");
    assert_eq!(
        c(PhysicalEvent::Move {
            challenge: Some((rank("G5"), rank("G4")))
        }),
        "challenge"
    );
    assert_eq!(c(PhysicalEvent::Resign(Side::White)), "resign");
    assert_eq!(c(PhysicalEvent::DrawForRespect), "draw_for_respect");
    assert_eq!(c(PhysicalEvent::Pause), "pause");
    assert_eq!(c(PhysicalEvent::Resume), "resume");
    assert_eq!(
        c(PhysicalEvent::ThirtyCount { white: 0, black: 0 }),
        "thirty_count"
    );
    assert_eq!(c(PhysicalEvent::Perpetual { long: true }), "perpetual");
    assert_eq!(c(PhysicalEvent::FlagThrough(Side::Black)), "flag_through");
    assert_eq!(c(PhysicalEvent::End), "end");
    let penalty = PhysicalEvent::Penalty {
        kind: PenaltyKind::Removal,
        side: Side::White,
    };
    assert_eq!(c(penalty), "penalty");
}

#[test]
fn a_perpetual_rule_set_to_zero_is_off() {
    // perpetual_5_white draws on White's fifth swing; with the short rule off the same
    // swings go on (two squares only, so never the sixteen-move rule either).
    let path = format!(
        "{}/../../tests/fixtures/records/perpetual_5_white.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("fixture readable");
    let mut record = Record::from_json_str(&text).expect("well formed");
    let (g, _) = replay_game(&record).expect("replays");
    assert_eq!(
        g.state(),
        GameState::Finished {
            outcome: Outcome::Draw {
                reason: Reason::Perpetual5
            },
            at: Time::from_secs(65),
        }
    );
    record.rules.perpetual_short = 0;
    let (g, _) = replay_game(&record).expect("replays");
    assert_eq!((g.state(), g.plies()), (GameState::Playing, 13));
}

#[test]
fn a_physical_game_plays_under_its_record_rules() {
    let rules = json!({"move_limit_s": 60, "oversteps_to_lose": 2, "thirty_moves": 0});
    let g = physical(json!([]), rules).replay_game().expect("replays");
    assert_eq!(g.settings().move_limit_ns, 60 * S);
    assert_eq!(g.settings().oversteps_to_lose, 2);
    assert_eq!(g.settings().thirty_moves, 0);
    assert_eq!(g.clock().settings().move_limit_ns, 60 * S);
}

#[test]
fn a_game_plays_under_its_record_rules() {
    let g = fixture_game("respect_custom_min_2");
    assert_eq!(g.settings().respect_min_moves, 2);
    assert_eq!(g.settings().move_limit_ns, 120 * S);
    let g = fixture_game("thirty_custom_10");
    assert_eq!(g.settings().thirty_moves, 10);
}

#[test]
fn a_physical_draw_for_respect_needs_equal_ratings_and_ten_moves_each() {
    let moves = |n: i64| -> Vec<Value> { (1..=n).map(|t| json!({"t": t, "move": true})).collect() };
    let game = |ratings: Value, n: i64| {
        let v = json!({"format": "ggdesk-physical/1", "ratings": ratings,
                       "events": Value::Array(moves(n))});
        PhysicalRecord::from_value(&v)
            .expect("well formed")
            .replay_game()
            .expect("replays")
    };
    let equal = json!({"white": 1500, "black": 1500});
    assert_eq!(
        game(equal.clone(), 19).respect_allowed(),
        Err("each side needs 10 complete moves (white has 10, black 9)".into()),
        "Black has made 9"
    );
    assert_eq!(game(equal.clone(), 20).respect_allowed(), Ok(()));
    let unequal = json!({"white": 1500, "black": 1510});
    assert_eq!(
        game(unequal, 20).respect_allowed(),
        Err("the ratings differ (white 1500, black 1510)".into())
    );
    let mut g = game(equal, 19);
    assert_eq!(
        g.apply(Time::from_secs(30), &PhysicalEvent::DrawForRespect),
        Err(EventError::RespectNotAllowed(
            "each side needs 10 complete moves (white has 10, black 9)".into()
        ))
    );
    assert!(!g.is_over());
}

#[test]
fn judging_the_clocks_without_an_event_ends_the_game_when_they_run_out() {
    // White to move since 10 s: the move limit passes at 130 s (one overstep, three lose),
    // the game time at 7200 s.
    let mut g = fixture_game("move_by_names_side_ok");
    assert_eq!(g.judge_clocks(Time::from_secs(100)), Ok(()));
    assert_eq!(
        (g.clock().oversteps(), g.state()),
        (BySide::new(0, 0), GameState::Playing)
    );
    assert_eq!(g.judge_clocks(Time::from_secs(131)), Ok(()));
    assert_eq!(g.clock().oversteps(), BySide::new(1, 0));
    assert_eq!(
        g.judge_clocks(Time::from_secs(120)),
        Err(EventError::Clock(ClockError::TimeWentBack {
            from: 131.0,
            to: 120.0
        })),
        "time going back"
    );
    assert_eq!(g.judge_clocks(Time::from_secs(7300)), Ok(()));
    assert_eq!(
        g.state(),
        GameState::AdjudicationPending {
            at: Time::from_secs(7200)
        }
    );
    assert!(g.is_over());
}

#[test]
fn a_physical_game_pauses_resumes_and_ends_its_record() {
    let r = physical(
        json!([{"t": 5, "move": true}, {"t": 8, "pause": true}, {"t": 50, "resume": true}]),
        json!({}),
    );
    let mut g = r.replay_game().expect("replays");
    assert!(!g.clock().is_paused() && !g.is_over());
    let pause = PhysicalEvent::Pause;
    assert_eq!(g.apply(Time::from_secs(60), &pause), Ok(()));
    assert!(g.clock().is_paused());
    assert_eq!(
        g.apply(Time::from_secs(61), &pause),
        Err(EventError::Clock(ClockError::AlreadyPaused)),
        "already paused"
    );
    let moved = PhysicalEvent::Move { challenge: None };
    assert_eq!(
        g.apply(Time::from_secs(62), &moved),
        Err(EventError::Paused),
        "no move while paused"
    );
    assert_eq!(g.apply(Time::from_secs(70), &PhysicalEvent::Resume), Ok(()));
    assert_eq!(
        g.apply(Time::from_secs(71), &PhysicalEvent::Resume),
        Err(EventError::Clock(ClockError::NotPaused))
    );
    assert_eq!(g.apply(Time::from_secs(72), &moved), Ok(()));
    assert_eq!(g.plies(), 2);
    // `end` judges the clocks up to its time: Black, to move since 5 s with 52 s paused,
    // has thought 245 - 5 - 52 = 188 s, past the 120 s limit once.
    let ended = physical(
        json!([{"t": 5, "move": true}, {"t": 8, "pause": true}, {"t": 60, "resume": true},
               {"t": 245, "end": true}]),
        json!({}),
    );
    let g = ended.replay_game().expect("replays");
    assert_eq!(
        (g.clock().oversteps(), g.last_time()),
        (BySide::new(0, 1), Time::from_secs(245))
    );
    // Over after a resignation.
    let resigned = physical(json!([{"t": 5, "resign": "black"}]), json!({}));
    assert!(resigned.replay_game().expect("replays").is_over());
}

/// A hand-made game: White's Flag on e7 next to Black's G3 on d8, White's Private on a4
/// next to Black's G5 on a5, Black's Flag on i8; White to move.
fn flag_race() -> Game {
    let p = position_of(&[
        ("e7", Side::White, "FLG"),
        ("a4", Side::White, "PVT"),
        ("d8", Side::Black, "G3"),
        ("a5", Side::Black, "G5"),
        ("i8", Side::Black, "FLG"),
    ]);
    Game::new(
        ggdesk_core::rules::RuleSettings::default(),
        Side::White,
        None,
        p,
    )
}

#[test]
fn a_guarded_flag_wins_when_the_one_turn_takes_something_else() {
    let mut g = flag_race();
    let arrive = Event::Move {
        mv: mv("e7-e8"),
        by: None,
    };
    g.apply(Time::from_secs(5), &arrive)
        .expect("the Flag arrives, guarded");
    assert_eq!(g.pending_flag(), Some(Side::White));
    // Black's one turn takes the Private, not the Flag: the Flag has survived.
    let elsewhere = Event::Move {
        mv: mv("a5-a4"),
        by: None,
    };
    g.apply(Time::from_secs(9), &elsewhere)
        .expect("a challenge elsewhere");
    assert_eq!(
        g.state(),
        GameState::Finished {
            outcome: Outcome::Win {
                side: Side::White,
                reason: Reason::FlagThrough
            },
            at: Time::from_secs(9)
        }
    );
    assert_eq!(g.pending_flag(), None);
    // Had Black resigned instead, nothing would wait any more either.
    let mut g = flag_race();
    g.apply(Time::from_secs(5), &arrive).expect("arrives");
    g.apply(Time::from_secs(7), &Event::Resign(Side::Black))
        .expect("resigns");
    assert_eq!(g.pending_flag(), None);
    assert!(g.is_over());
}

#[test]
fn the_sixteen_move_perpetual_needs_more_than_two_squares() {
    // perpetual_5_white: five swings of one attacked piece between two squares. With the
    // short rule off and the long one at 5, the count reaches 5 but the squares are two.
    let path = format!(
        "{}/../../tests/fixtures/records/perpetual_5_white.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("fixture readable");
    let mut record = Record::from_json_str(&text).expect("well formed");
    record.rules.perpetual_short = 0;
    record.rules.perpetual_long = 5;
    let (g, _) = replay_game(&record).expect("replays");
    assert_eq!(g.perpetual_counts().white, 5);
    assert_eq!(g.state(), GameState::Playing);
}

#[test]
fn a_random_setup_draws_each_square_from_the_numbers_it_is_given() {
    // `pick(n)` gives a number below n; always the highest leaves every square in place:
    // the set in the rulebook's order from a1 along each rank.
    let s = SideSetup::random(Side::White, |n| n - 1);
    let expect = [
        ("a1", "G5"),
        ("b1", "G4"),
        ("c1", "G3"),
        ("d1", "G2"),
        ("e1", "G1"),
        ("f1", "COL"),
        ("g1", "LTC"),
        ("h1", "MAJ"),
        ("i1", "CPT"),
        ("a2", "1LT"),
        ("b2", "2LT"),
        ("c2", "SGT"),
        ("d2", "PVT"),
        ("i2", "PVT"),
        ("a3", "SPY"),
        ("b3", "SPY"),
        ("c3", "FLG"),
    ];
    for (square, code) in expect {
        assert_eq!(s.rank_at(sq(square)), Some(rank(code)), "{square}");
    }
    assert_eq!(s.rank_at(sq("d3")), None);
    // Always 0 moves a different square to the end each time: another legal setup.
    let other = SideSetup::random(Side::White, |_| 0);
    assert_ne!(other, s);
    assert_eq!(other.validate(Side::White), Ok(()));
}

#[test]
fn a_typed_move_that_is_not_ascii_is_refused_without_a_panic() {
    for typed in ["aé3", "é3e", "e3é4"] {
        assert_eq!(
            Move::parse_typed(typed),
            Err(format!(
                "{typed:?} is not a move (write it FROM-TO, like e3-e4)"
            ))
        );
    }
    assert_eq!(Move::parse_typed("E3E4"), Ok(mv("e3-e4")));
}
