//! The three Generals League shapes (issue 20, item 6) played from their first round to
//! the final placement through the director's desk (egui_kittest): every Swiss and
//! round-robin round paired as a draft and published on the Rounds page, every result
//! entered there as a director does, every knockout and playoff game started on the
//! Bracket page (F11) with its one-click button; the outcome read off the Bracket page.
//!
//! Only the event itself (its stages, its players) is made through the store: the desk's
//! stage setup form is not part of these tests. Results follow one rule per shape, written
//! at each test; the expected names, scores and places are worked out by hand from it in
//! the comments, never recomputed by the code under test.
//!
//! Players are "Player 01" .. "Player NN", id N, rated 2000 − 10 N: the first stage seeds
//! them in number order.

mod common;

use common::{START_MS, all_text, click, go, has_text, store};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ggdesk::store::{Actor, PlayerInput, RoundState, Store, TournamentId, TournamentSetup};
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::stages::{MatchFormat, Seeding, StageFormat, StageSpec};
use ggdesk_core::tournament::{GameResult, PlayerId, RoundNo, Score, TieBreak};
use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

type Desk = Harness<'static, DeskApp>;

/// How many times each pair of players has met so far (either colour), kept by the test
/// itself so that a rule can say "the third game between 1 and 2".
type Meetings = HashMap<(u32, u32), u32>;

/// The event made through the store with players 1..=`players` registered, and the desk
/// open on it (Rounds page).
fn event(
    name: &str,
    stages: Vec<StageSpec>,
    players: u32,
) -> (tempfile::TempDir, Desk, TournamentId) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Store::open(&dir.path().join("gl.sqlite3")).expect("store");
    let setup = TournamentSetup {
        name: name.into(),
        ..TournamentSetup::default()
    };
    let tid = s
        .create_staged_tournament(&setup, &stages, &Actor::director())
        .expect("create the event");
    for i in 1..=players {
        let r = s
            .add_player(
                &PlayerInput {
                    name: format!("Player {i:02}"),
                    federation_id: format!("GL-{i}"),
                    club: String::new(),
                    rating: 2000 - 10 * i64::from(i),
                },
                &Actor::director(),
            )
            .expect("player");
        let p = s.register(tid, r, &Actor::director()).expect("register");
        assert_eq!(p, PlayerId(i), "players are numbered as registered");
    }
    let clock = Rc::new(Cell::new(START_MS));
    let h = common::desk(s, Page::Rounds, Some(tid), &clock);
    (dir, h, tid)
}

fn stage(
    name: &str,
    format: StageFormat,
    tiebreaks: Vec<TieBreak>,
    advance: Option<u32>,
) -> StageSpec {
    StageSpec {
        name: name.into(),
        format,
        tiebreaks,
        advance,
    }
}

fn knockout(series: MatchFormat, seeding: Seeding) -> StageFormat {
    StageFormat::Knockout {
        series,
        seeding,
        third_place: false,
    }
}

/// The number the next round of the tournament gets.
fn next_number(h: &Desk, tid: TournamentId) -> u32 {
    let n = store(h).event(tid).expect("event").rounds().len();
    u32::try_from(n).expect("round count") + 1
}

/// Pairs the next round as a draft on the Rounds page and publishes it; its number.
fn pair_and_publish(h: &mut Desk, tid: TournamentId) -> u32 {
    go(h, Page::Rounds);
    let n = next_number(h, tid);
    let button = format!("Pair round {n}");
    if h.query_by_label(&button).is_some() {
        click(h, &button);
    } else {
        // The first round of a stage is drafted by the page's "Seed stage K (name)".
        let seed = all_text(h)
            .into_iter()
            .find(|t| t.starts_with("Seed stage"))
            .unwrap_or_else(|| panic!("neither {button:?} nor \"Seed stage\" on the page"));
        click(h, &seed);
    }
    click(h, &format!("Publish round {n}"));
    let event = store(h).event(tid).expect("event");
    let last = event.rounds().last().expect("the round");
    assert_eq!(
        (last.number, last.state),
        (RoundNo(n), RoundState::Published)
    );
    n
}

/// Starts the next games on the Bracket page (F11) with its one-click button, labelled
/// `button`; the new round's number.
fn start_next_games(h: &mut Desk, tid: TournamentId, button: &str) -> u32 {
    h.key_press(egui::Key::F11);
    h.run();
    assert_eq!(h.state().prefs.page, Page::Bracket);
    let n = next_number(h, tid);
    click(h, button);
    let event = store(h).event(tid).expect("event");
    let last = event.rounds().last().expect("the round");
    assert_eq!(
        (last.number, last.state),
        (RoundNo(n), RoundState::Published),
        "{button:?} started round {n}"
    );
    n
}

/// Enters the result of every board of `round` on the Rounds page (each table's result
/// picked from its list), as `rule(white, black, meeting)` says, where `meeting` counts
/// this game among the pair's games (1 for their first). Returns the games as
/// (white, black, result).
fn enter_results(
    h: &mut Desk,
    tid: TournamentId,
    round: u32,
    met: &mut Meetings,
    rule: impl Fn(u32, u32, u32) -> GameResult,
) -> Vec<(u32, u32, GameResult)> {
    go(h, Page::Rounds);
    // The round's tab (a button; the round's heading beside it is a label of the same
    // words).
    let tab = format!("Round {round}");
    h.get_by_role_and_label(egui::accesskit::Role::Button, &tab)
        .click();
    h.run();
    h.run();
    let view = h.state().rounds.view.clone().expect("the round shown");
    assert_eq!(view.number, RoundNo(round));
    let mut games = Vec::new();
    for b in &view.boards {
        let (w, k) = (b.white.no.0, b.black.no.0);
        let count = met.entry((w.min(k), w.max(k))).or_insert(0);
        *count += 1;
        let result = rule(w, k, *count);
        click(h, &format!("Result of table {}", b.table));
        click(h, result_words(result));
        games.push((w, k, result));
    }
    let view = store(h)
        .round_view(tid, RoundNo(round))
        .expect("view")
        .expect("round");
    for (b, (_, _, r)) in view.boards.iter().zip(&games) {
        assert_eq!(b.result, *r, "table {} of round {round}", b.table);
    }
    assert_eq!(
        view.state,
        RoundState::Complete,
        "the last result completes round {round}"
    );
    games
}

fn result_words(r: GameResult) -> &'static str {
    match r {
        GameResult::WhiteWins => "White wins",
        GameResult::BlackWins => "Black wins",
        GameResult::Draw => "Draw",
        other => panic!("the tests enter only played results, not {other:?}"),
    }
}

/// The player numbered lower wins.
fn lower_wins(white: u32, black: u32) -> GameResult {
    if white < black {
        GameResult::WhiteWins
    } else {
        GameResult::BlackWins
    }
}

/// `winner` wins the game between `white` and `black`.
fn won_by(winner: u32, white: u32) -> GameResult {
    if winner == white {
        GameResult::WhiteWins
    } else {
        GameResult::BlackWins
    }
}

/// The games of a round as unordered pairs (lower number first), sorted.
fn pairs(games: &[(u32, u32, GameResult)]) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = games
        .iter()
        .map(|&(w, b, _)| (w.min(b), w.max(b)))
        .collect();
    v.sort_unstable();
    v
}

/// The Bracket page (F11) shown, and its texts.
fn bracket_texts(h: &mut Desk) -> Vec<String> {
    h.key_press(egui::Key::F11);
    h.run();
    assert_eq!(h.state().prefs.page, Page::Bracket);
    all_text(h)
}

/// The final placement as the Bracket page lists it: (place, "id name", stage).
fn placement(texts: &[String]) -> Vec<(String, String, String)> {
    let at = texts
        .iter()
        .position(|t| t == "Final placement")
        .unwrap_or_else(|| panic!("no final placement among {texts:?}"));
    // Each label is read twice (the label and its text run).
    let mut rest = texts[at..].to_vec();
    rest.dedup();
    rest[1..]
        .chunks(3)
        .take_while(|c| c.len() == 3 && c[2].starts_with("placed in stage "))
        .map(|c| (c[0].clone(), c[1].clone(), c[2].clone()))
        .collect()
}

fn expect_placement(texts: &[String], rows: &[(u32, u32, u32)]) {
    let want: Vec<(String, String, String)> = rows
        .iter()
        .map(|&(place, id, stage)| {
            (
                place.to_string(),
                format!("{id} Player {id:02}"),
                format!("placed in stage {stage}"),
            )
        })
        .collect();
    assert_eq!(placement(texts), want, "the final placement");
}

fn shows(texts: &[String], text: &str) {
    assert!(texts.iter().any(|t| t == text), "{text:?} not in {texts:?}");
}

/// Round robin qualifier (6 players, top 4 on), round robin final round (top 2 on), a
/// best-of-3 final.
///
/// Rule: the lower number wins every game, except the fourth game between 1 and 2 (the
/// second game of the final), which 2 wins.
///
/// By hand. Qualifier (everyone meets everyone once, 1..6 win against every higher
/// number): 1 has 10 points, 2 8, 3 6, 4 4, 5 2, 6 0; 1..4 go on, seeded in that order.
/// Final round: 1 6, 2 4, 3 2, 4 0; 1 and 2 go on. Final, seed 1 (player 1) white in game
/// 1, colours alternating: game 1 (their third meeting) 1 wins; game 2 (the fourth, 2
/// white) 2 wins; game 3 (1 white) 1 wins: 1 wins the match 2 games to 1, marks for 1
/// "1 0 1". Placement: 1, 2 (the final), then 3 and 4 by their place in the final round
/// (stage 2), then 5 and 6 by their place in the qualifier (stage 1).
#[test]
fn round_robin_then_round_robin_final_round_then_a_best_of_3_final() {
    let stages = vec![
        stage(
            "Qualifier",
            StageFormat::RoundRobin {
                groups: 1,
                rounds: None,
            },
            TieBreak::default_order(),
            Some(4),
        ),
        stage(
            "Final round",
            StageFormat::RoundRobin {
                groups: 1,
                rounds: None,
            },
            TieBreak::default_order(),
            Some(2),
        ),
        stage(
            "Final",
            knockout(MatchFormat::BestOf(3), Seeding::Standard),
            TieBreak::default_order(),
            None,
        ),
    ];
    let (_dir, mut h, tid) = event("League monthly", stages, 6);
    let mut met = Meetings::new();
    let rule = |w: u32, b: u32, meeting: u32| {
        if (w.min(b), w.max(b), meeting) == (1, 2, 4) {
            won_by(2, w)
        } else {
            lower_wins(w, b)
        }
    };
    // The qualifier: five rounds of three games, everyone meeting everyone once.
    let mut played = Vec::new();
    for _ in 0..5 {
        let n = pair_and_publish(&mut h, tid);
        let games = enter_results(&mut h, tid, n, &mut met, rule);
        assert_eq!(games.len(), 3, "round {n}: three games");
        played.extend(pairs(&games));
    }
    played.sort_unstable();
    let all: Vec<(u32, u32)> = (1..=6)
        .flat_map(|a| (a + 1..=6).map(move |b| (a, b)))
        .collect();
    assert_eq!(played, all, "the qualifier is one full cycle");
    // The final round: 1..4, three rounds of two games.
    let mut played = Vec::new();
    for _ in 0..3 {
        let n = pair_and_publish(&mut h, tid);
        let games = enter_results(&mut h, tid, n, &mut met, rule);
        assert_eq!(games.len(), 2, "round {n}: two games");
        played.extend(pairs(&games));
    }
    played.sort_unstable();
    assert_eq!(
        played,
        [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)],
        "the final round is 1..4 meeting once"
    );
    // The final, one game at a time from the Bracket page.
    let mut finals = Vec::new();
    for _ in 0..3 {
        let n = start_next_games(&mut h, tid, "Start the next games of the knockout");
        finals.extend(enter_results(&mut h, tid, n, &mut met, rule));
    }
    assert_eq!(
        finals,
        [
            (1, 2, GameResult::WhiteWins),
            (2, 1, GameResult::WhiteWins),
            (1, 2, GameResult::WhiteWins)
        ],
        "seed 1 white first, colours alternating, the match going to a third game"
    );
    let texts = bracket_texts(&mut h);
    shows(
        &texts,
        "Stages: 1 Qualifier (complete)  >  2 Final round (complete)  >  3 Final (complete)",
    );
    shows(&texts, "Match 1.1");
    shows(&texts, "(1) Player 01  (winner)   2");
    shows(&texts, "(2) Player 02   1");
    shows(&texts, "Games: 1 0 1");
    assert!(has_text(&h, "Next: the event is over"), "{texts:?}");
    expect_placement(
        &texts,
        &[
            (1, 1, 3),
            (2, 2, 3),
            (3, 3, 2),
            (4, 4, 2),
            (5, 5, 1),
            (6, 6, 1),
        ],
    );
}

/// The games a group stage must hold: every pair inside each group, once.
fn group_pairs(groups: &[&[u32]]) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = groups
        .iter()
        .flat_map(|g| {
            g.iter()
                .flat_map(move |&a| g.iter().filter(move |&&b| a < b).map(move |&b| (a, b)))
        })
        .collect();
    v.sort_unstable();
    v
}

/// Groups then a cross-over knockout (16 players): four round-robin groups of four, the
/// top two of each into cross-over quarter-finals played as race to 4 points (a win is 2,
/// a draw 1), then semi-finals and the final, the same series.
///
/// Rule: the lower number wins every game, except the quarter-final between 1 and 7: its
/// first five games are drawn and 7 wins the sixth.
///
/// By hand. Groups, serpentine by seed (= number): A 1 8 9 16, B 2 7 10 15, C 3 6 11 14,
/// D 4 5 12 13. In each group the lower number wins: winners 1 2 3 4 (6 points), seconds
/// 8 7 6 5 (4 points), equal on every tie-break group to group, so ordered by group
/// letter. Knockout seeds: 1 P1, 2 P2, 3 P3, 4 P4 (winners A..D), 5 P8, 6 P7, 7 P6, 8 P5
/// (seconds A..D). Cross-over: 1.1 A1-B2 = P1-P7, 1.2 C1-D2 = P3-P5, 1.3 B1-A2 = P2-P8,
/// 1.4 D1-C2 = P4-P6.
/// Quarter-finals: 1.2, 1.3 and 1.4 end 4-0 after two games (3, 2, 4 win). 1.1: four
/// draws make 4-4 (both reach 4 on one game: sudden death), a fifth draw 5-5, and 7 wins
/// game 6 (7 is white: game 1 white is the higher seed, 1, then colours alternate): 7-5
/// for 7, marks for 1 "½ ½ ½ ½ ½ 0". Six knockout rounds for the quarter-finals.
/// Semi-finals: 2.1 P7 (seed 6) - P3 (seed 3): 3 wins 4-0; 2.2 P2 - P4: 2 wins 4-0.
/// Final 3.1 P3 - P2: 2 wins 4-0.
/// Placement: 1 P2, 2 P3, 3 P4 and P7 (semi-final losers, by seed 4, 6), 5 P1 P8 P6 P5
/// (quarter-final losers by seed 1, 5, 7, 8); then the groups' thirds 9 10 11 12 and
/// fourths 16 15 14 13, each by group letter, on places 9 to 16.
#[test]
fn groups_then_a_cross_over_knockout_with_a_race_to_4_going_to_sudden_death() {
    let gl = vec![
        TieBreak::DirectEncounter,
        TieBreak::FewestForfeitWins,
        TieBreak::Wins,
    ];
    let stages = vec![
        stage(
            "Groups",
            StageFormat::RoundRobin {
                groups: 4,
                rounds: None,
            },
            gl.clone(),
            Some(2),
        ),
        stage(
            "Knockout",
            knockout(
                MatchFormat::RaceTo(Score::from_points(4)),
                Seeding::CrossOver,
            ),
            gl,
            None,
        ),
    ];
    let (_dir, mut h, tid) = event("League face-to-face", stages, 16);
    let mut met = Meetings::new();
    let rule = |w: u32, b: u32, meeting: u32| match (w.min(b), w.max(b), meeting) {
        (1, 7, 1..=5) => GameResult::Draw,
        (1, 7, _) => won_by(7, w),
        _ => lower_wins(w, b),
    };
    // The groups: three rounds of eight games (two a group).
    let mut played = Vec::new();
    for _ in 0..3 {
        let n = pair_and_publish(&mut h, tid);
        let games = enter_results(&mut h, tid, n, &mut met, rule);
        assert_eq!(games.len(), 8, "round {n}: eight games");
        played.extend(pairs(&games));
    }
    played.sort_unstable();
    assert_eq!(
        played,
        group_pairs(&[
            &[1, 8, 9, 16],
            &[2, 7, 10, 15],
            &[3, 6, 11, 14],
            &[4, 5, 12, 13]
        ]),
        "serpentine groups, each a full round robin"
    );
    // The quarter-finals, a game a match a round from the Bracket page.
    let button = "Start the next games of the knockout";
    let n = start_next_games(&mut h, tid, button);
    let games = enter_results(&mut h, tid, n, &mut met, rule);
    assert_eq!(
        pairs(&games),
        [(1, 7), (2, 8), (3, 5), (4, 6)],
        "cross-over quarter-finals A1-B2, C1-D2, B1-A2, D1-C2"
    );
    for &(w, _, _) in &games {
        assert!(
            w <= 4,
            "game 1 gives white to the higher seed (a group winner): {games:?}"
        );
    }
    let n = start_next_games(&mut h, tid, button);
    assert_eq!(enter_results(&mut h, tid, n, &mut met, rule).len(), 4);
    // Only 1.1 goes on: two more draws make 4-4.
    for _ in 0..2 {
        let n = start_next_games(&mut h, tid, button);
        let games = enter_results(&mut h, tid, n, &mut met, rule);
        assert_eq!(pairs(&games), [(1, 7)]);
    }
    let texts = bracket_texts(&mut h);
    // Both on 4 after one game: no winner yet, the match plays on.
    shows(&texts, "(1) Player 01   4");
    shows(&texts, "(6) Player 07   4");
    shows(&texts, "Games: ½ ½ ½ ½");
    shows(&texts, "(3) Player 03  (winner)   4");
    shows(&texts, "(8) Player 05   0");
    assert!(
        has_text(&h, "Next: a round of stage 2 (start it here)"),
        "{texts:?}"
    );
    // Sudden death: a fifth draw changes nothing, the sixth game decides.
    for expected in [GameResult::Draw, GameResult::WhiteWins] {
        let n = start_next_games(&mut h, tid, button);
        let games = enter_results(&mut h, tid, n, &mut met, rule);
        assert_eq!(games.len(), 1, "round {n}: only match 1.1 plays");
        assert_eq!(games[0].2, expected);
    }
    // Semi-finals and the final: two games a match.
    let mut later = Vec::new();
    for _ in 0..4 {
        let n = start_next_games(&mut h, tid, button);
        later.push(pairs(&enter_results(&mut h, tid, n, &mut met, rule)));
    }
    assert_eq!(
        later,
        [
            vec![(2, 4), (3, 7)],
            vec![(2, 4), (3, 7)],
            vec![(2, 3)],
            vec![(2, 3)]
        ]
    );
    let texts = bracket_texts(&mut h);
    shows(
        &texts,
        "Stages: 1 Groups (complete)  >  2 Knockout (complete)",
    );
    for m in [
        "Match 1.1",
        "Match 1.4",
        "Match 2.1",
        "Match 2.2",
        "Match 3.1",
    ] {
        shows(&texts, m);
    }
    // The quarter-final that went to sudden death.
    shows(&texts, "(1) Player 01   5");
    shows(&texts, "(6) Player 07  (winner)   7");
    shows(&texts, "Games: ½ ½ ½ ½ ½ 0");
    // A semi-final and the final.
    shows(&texts, "(6) Player 07   0");
    shows(&texts, "(3) Player 03  (winner)   4");
    shows(&texts, "(3) Player 03   0");
    shows(&texts, "(2) Player 02  (winner)   4");
    assert!(has_text(&h, "Next: the event is over"), "{texts:?}");
    expect_placement(
        &texts,
        &[
            (1, 2, 2),
            (2, 3, 2),
            (3, 4, 2),
            (3, 7, 2),
            (5, 1, 2),
            (5, 8, 2),
            (5, 6, 2),
            (5, 5, 2),
            (9, 9, 1),
            (10, 10, 1),
            (11, 11, 1),
            (12, 12, 1),
            (13, 16, 1),
            (14, 15, 1),
            (15, 14, 1),
            (16, 13, 1),
        ],
    );
}

/// A three-round Swiss of eight players, the top two into a final where the top seed has
/// twice to beat; tie-breaks head-to-head, then wins.
///
/// Rule: the lower number wins every game, except the first playoff game between 2 and 4
/// (their second meeting), which 4 wins, and the first game of the final (the second
/// meeting of 1 and 2), which 2 wins.
///
/// By hand. Round 1, top half against bottom half: 1-5, 2-6, 3-7, 4-8; 1..4 win. Round 2:
/// on 2 points 1-3, 2-4, on 0 5-7, 6-8: 1 and 2 on 4, 3 4 5 6 on 2, 7 8 on 0. Round 3:
/// 1-2; 3-5, 4-6 (top half against bottom half of the group of 2 points, no rematch); 7-8.
/// Final scores: 1 6; 2 3 4 on 4; 5 6 7 on 2; 8 0. The cut (2 go on) falls inside the tie
/// of 2, 3, 4: head-to-head cannot settle it (3 met neither 2 nor 4), and each has one
/// win: they play off, a round robin. First round robin: 2 beats 3, 3 beats 4, 4 beats 2
/// (the exception): still level, all three, across the cut: another round robin, where 2
/// beats 3 and 4 and 3 beats 4. 2 goes on; 3 then 4 are the Swiss's third and fourth.
/// Final: 1 (seed 1, white in game 1) against 2. Game 1: 2 wins; game 2 (2 white): 1
/// wins, and with it the match (one won game each, marks for 1 "0 1").
/// Placement: 1 P1, 2 P2; then the Swiss's places: 3 P3, 4 P4 (their playoff order), 5 P5,
/// 6 P6, 7 P7 (equal on score and tie-breaks, each on a place of their own by seed), 8 P8.
#[test]
fn swiss_then_a_twice_to_beat_final_with_a_playoff_at_the_cut() {
    let (_dir, mut h, tid) = swiss_then_final();
    let mut met = Meetings::new();
    let rule = |w: u32, b: u32, meeting: u32| match (w.min(b), w.max(b), meeting) {
        (2, 4, 2) => won_by(4, w),
        (1, 2, 2) => won_by(2, w),
        _ => lower_wins(w, b),
    };
    play_swiss(&mut h, tid, &mut met, rule);
    // The tie at the cut: playoff games started from the Bracket page until it is clear.
    let texts = bracket_texts(&mut h);
    assert!(
        has_text(&h, "Next: playoff games of stage 1 (start it here)"),
        "{texts:?}"
    );
    let mut playoff = Vec::new();
    let playoff_button = "Start the playoff games at stage 1's cut";
    for _ in 0..12 {
        bracket_texts(&mut h);
        if h.query_by_label(playoff_button).is_none() {
            break;
        }
        let n = start_next_games(&mut h, tid, playoff_button);
        playoff.extend(enter_results(&mut h, tid, n, &mut met, rule));
    }
    let mut games: Vec<(u32, u32, u32)> = playoff
        .iter()
        .map(|&(w, b, r)| {
            let winner = match r {
                GameResult::WhiteWins => w,
                GameResult::BlackWins => b,
                other => panic!("a playoff game here is won: {other:?}"),
            };
            (w.min(b), w.max(b), winner)
        })
        .collect();
    games.sort_unstable();
    assert_eq!(
        games,
        [
            (2, 3, 2),
            (2, 3, 2),
            (2, 4, 2),
            (2, 4, 4),
            (3, 4, 3),
            (3, 4, 3)
        ],
        "two round robins among 2, 3 and 4: {playoff:?}"
    );
    // The final: twice to beat.
    let button = "Start the next games of the knockout";
    let mut fin = Vec::new();
    for _ in 0..2 {
        let n = start_next_games(&mut h, tid, button);
        fin.extend(enter_results(&mut h, tid, n, &mut met, rule));
    }
    assert_eq!(
        fin,
        [(1, 2, GameResult::BlackWins), (2, 1, GameResult::BlackWins)],
        "seed 1 white in game 1; 2 wins it, 1 wins game 2"
    );
    let texts = bracket_texts(&mut h);
    shows(&texts, "Stages: 1 Swiss (complete)  >  2 Final (complete)");
    shows(&texts, "Match 1.1");
    shows(&texts, "(1) Player 01  (winner)   1");
    shows(&texts, "(2) Player 02   1");
    shows(&texts, "Games: 0 1");
    assert!(has_text(&h, "Next: the event is over"), "{texts:?}");
    assert!(h.query_by_label(playoff_button).is_none());
    expect_placement(
        &texts,
        &[
            (1, 1, 2),
            (2, 2, 2),
            (3, 3, 1),
            (4, 4, 1),
            (5, 5, 1),
            (6, 6, 1),
            (7, 7, 1),
            (8, 8, 1),
        ],
    );
}

/// The event of the Swiss tests: a three-round Swiss of eight players (head-to-head, then
/// wins), the top two into a final where the top seed has twice to beat.
fn swiss_then_final() -> (tempfile::TempDir, Desk, TournamentId) {
    let stages = vec![
        stage(
            "Swiss",
            StageFormat::Swiss { rounds: 3 },
            vec![TieBreak::DirectEncounter, TieBreak::Wins],
            Some(2),
        ),
        stage(
            "Final",
            knockout(MatchFormat::TwiceToBeat, Seeding::Standard),
            TieBreak::default_order(),
            None,
        ),
    ];
    event("League online monthly", stages, 8)
}

/// Plays the Swiss's three rounds through the Rounds page under `rule`, checking its
/// pairings, the same under both Swiss tests' rules (they differ from "the lower number
/// wins" only from round 3's results on): round 1 top half against bottom half (1-5, 2-6,
/// 3-7, 4-8), round 2 inside the groups of 2 and 0 points (1-3, 2-4; 5-7, 6-8), round 3
/// 1-2 (both on 4), 3-5 and 4-6 (top half against bottom half of the four on 2, no
/// rematch), 7-8.
fn play_swiss(
    h: &mut Desk,
    tid: TournamentId,
    met: &mut Meetings,
    rule: impl Fn(u32, u32, u32) -> GameResult + Copy,
) {
    let mut swiss = Vec::new();
    for _ in 0..3 {
        let n = pair_and_publish(h, tid);
        swiss.push(pairs(&enter_results(h, tid, n, met, rule)));
    }
    assert_eq!(
        swiss,
        [
            vec![(1, 5), (2, 6), (3, 7), (4, 8)],
            vec![(1, 3), (2, 4), (5, 7), (6, 8)],
            vec![(1, 2), (3, 5), (4, 6), (7, 8)],
        ],
        "the Swiss's pairings"
    );
}

/// The same Swiss, its tie at the cut settled by head-to-head: no playoff.
///
/// Rule: the lower number wins every game, except 3-5 in round 3 (their first meeting),
/// drawn.
///
/// By hand. The pairings as in [`play_swiss`]. Scores: 1 6; 2 and 4 on 4; 3 and 5 on 3;
/// 6 and 7 on 2; 8 0. The cut falls between 2 and 4: they met in round 2 and 2 won, so
/// head-to-head puts 2 second and 4 third: the cut is clear, no playoff, and the final
/// starts at once. Final: 1 wins game 1 (white, the higher seed), and with it the match
/// (1 game to 0, marks "1"). Placement: 1 P1, 2 P2; then the Swiss's places: 3 P4; 3 and
/// 5 drew each other and have one win each: equal, on places 4 and 5 by seed (3, 5); 6
/// and 7 never met and have one win each: places 6 and 7 by seed; 8 P8.
#[test]
fn swiss_then_a_twice_to_beat_final_a_tie_at_the_cut_settled_head_to_head() {
    let (_dir, mut h, tid) = swiss_then_final();
    let mut met = Meetings::new();
    let rule = |w: u32, b: u32, meeting: u32| match (w.min(b), w.max(b), meeting) {
        (3, 5, 1) => GameResult::Draw,
        _ => lower_wins(w, b),
    };
    play_swiss(&mut h, tid, &mut met, rule);
    let texts = bracket_texts(&mut h);
    assert!(
        has_text(&h, "Next: a round of stage 2 (start it here)"),
        "no playoff: {texts:?}"
    );
    assert!(
        h.query_by_label("Start the playoff games at stage 1's cut")
            .is_none()
    );
    let n = start_next_games(&mut h, tid, "Start the next games of the knockout");
    let fin = enter_results(&mut h, tid, n, &mut met, rule);
    assert_eq!(fin, [(1, 2, GameResult::WhiteWins)]);
    let texts = bracket_texts(&mut h);
    shows(&texts, "Stages: 1 Swiss (complete)  >  2 Final (complete)");
    shows(&texts, "(1) Player 01  (winner)   1");
    shows(&texts, "(2) Player 02   0");
    shows(&texts, "Games: 1");
    assert!(has_text(&h, "Next: the event is over"), "{texts:?}");
    expect_placement(
        &texts,
        &[
            (1, 1, 2),
            (2, 2, 2),
            (3, 4, 1),
            (4, 3, 1),
            (5, 5, 1),
            (6, 6, 1),
            (7, 7, 1),
            (8, 8, 1),
        ],
    );
}
