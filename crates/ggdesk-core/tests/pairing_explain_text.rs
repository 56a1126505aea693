//! The pairing explanation's text (`ggdesk pair --explain`) is compared byte for byte with
//! `tests/fixtures/explain.txt`. The file was first taken from the former string-building
//! code, but it was re-blessed from the current code after the pairing fix of issue 11
//! (the new pairings changed its cases), so it is a change detector, not an independent
//! oracle: it says that the text changed, not that either text is right. Whether a pairing
//! is right is for the pairing tests (`pairing_swiss`, `pairing_properties`).
//!
//! The cases are random Swiss events (absences, withdrawals, forbidden pairs, byes, floats)
//! and round robins played round by round (withdrawals, odd fields, a second cycle). To
//! write the file again after a deliberate change of wording: `GGDESK_BLESS=1 cargo test
//! -p ggdesk-core --test pairing_explain_text`, and review the diff (the test then warns on
//! stderr that it wrote the file, so a run with the variable set by mistake is seen).

#[path = "../../../tests/fixtures/tournaments/random.rs"]
mod random;

use ggdesk_core::pairing::{Pairing, explain, pair_next_round};
use ggdesk_core::tournament::{GameResult, Player, PlayerId, Settings, Tournament};
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

fn golden_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/explain.txt")
}

/// Every case: its name, the tournament and the pairing made for it.
fn cases() -> Vec<(String, Tournament, Pairing)> {
    let mut out = Vec::new();
    let mut case = |name: String, t: &Tournament, p: &Pairing| {
        out.push((name, t.clone(), p.clone()));
    };
    for seed in 0..40u64 {
        let size = 3 + (seed as u32 * 5) % 23;
        let g = random::swiss(seed, size, 6);
        if let Ok(p) = pair_next_round(&g.tournament, &g.next_absent) {
            case(format!("swiss seed {seed} size {size}"), &g.tournament, &p);
        }
    }
    for (seed, size) in [(1u64, 3u32), (2, 5), (3, 6), (4, 7), (5, 8)] {
        let mut t = round_robin(size);
        let mut round = 0;
        while let Ok(p) = pair_next_round(&t, &[]) {
            round += 1;
            case(format!("round robin {size} round {round}"), &t, &p);
            let games = p.games.len();
            t.add_round(p.to_round()).expect("valid round");
            for g in 0..games {
                let result = [
                    GameResult::WhiteWins,
                    GameResult::Draw,
                    GameResult::BlackWins,
                ][(seed as usize + g + round) % 3];
                t.set_result(round, g, result).expect("game exists");
            }
            if (seed as usize + round).is_multiple_of(4) {
                let i = (seed as usize * 3 + round) % t.players().len();
                let id = t.players()[i].id;
                t.set_withdrawn(id, true).expect("known player");
            }
        }
    }
    // A pairing whose field cannot be rebuilt (an unknown absentee): the round says why.
    let t = round_robin(4);
    let mut settings = t.settings().clone();
    settings.system = ggdesk_core::tournament::System::Swiss;
    let mut swiss = Tournament::new("swiss", settings).expect("valid");
    for p in t.players() {
        swiss.add_player(p.clone()).expect("fresh");
    }
    let p = Pairing {
        round: 1,
        games: vec![],
        byes: vec![],
        absent: vec![PlayerId(99)],
    };
    case("swiss with an unknown absentee".into(), &swiss, &p);
    out
}

/// Every case as `=== name ===` followed by the explanation text.
fn golden_text() -> String {
    cases()
        .iter()
        .map(|(name, t, p)| format!("=== {name} ===\n{}", explain(t, p)))
        .collect()
}

fn round_robin(size: u32) -> Tournament {
    let mut settings = Settings::round_robin();
    let cycle = if size.is_multiple_of(2) {
        size - 1
    } else {
        size
    };
    settings.rounds = Some(cycle * 2);
    let mut t = Tournament::new("rr", settings).expect("valid settings");
    for id in 1..=size {
        let rating = 1500 + i64::from(id % 3) * 100;
        t.add_player(Player::new(PlayerId(id * 2), format!("R{id}"), rating))
            .expect("fresh id");
    }
    t
}

#[test]
fn the_explanation_text_is_unchanged() {
    let got = golden_text();
    if std::env::var_os("GGDESK_BLESS").is_some() {
        std::fs::write(golden_path(), &got).expect("write the golden file");
        // Straight to stderr, not eprintln!: the test harness swallows a passing test's
        // eprintln!, and this warning is for a run that passes.
        let _ = writeln!(
            std::io::stderr(),
            "warning: GGDESK_BLESS is set: {} was written from the current code, so this \
             test compared nothing; review its diff",
            golden_path().display()
        );
    }
    let want = std::fs::read_to_string(golden_path()).expect("the golden file");
    assert!(got.len() > 10_000, "too few cases: {} bytes", got.len());
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(g, w)| g != w)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "the explanation text changed at line {}:\n got:  {:?}\n want: {:?}",
            line + 1,
            got.lines().nth(line),
            want.lines().nth(line)
        );
    }
}

/// The parts the desk keeps per round, board and bye, as the former code cut them out of
/// the text at its `Table N:` and `Bye:` headings.
struct FormerCut {
    round: String,
    boards: HashMap<u32, String>,
    byes: Vec<String>,
}

fn former_cut(text: &str) -> FormerCut {
    enum Part {
        Round,
        Board(u32),
        Bye(usize),
    }
    let mut out = FormerCut {
        round: String::new(),
        boards: HashMap::new(),
        byes: Vec::new(),
    };
    let mut part = Part::Round;
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("Table ")
            && let Some((n, _)) = rest.split_once(':')
            && let Ok(n) = n.parse::<u32>()
        {
            part = Part::Board(n);
        } else if line.starts_with("Bye:") {
            out.byes.push(String::new());
            part = Part::Bye(out.byes.len() - 1);
        } else if !line.starts_with(' ') && !matches!(part, Part::Round) {
            part = Part::Round;
        }
        let target = match part {
            Part::Round => &mut out.round,
            Part::Board(n) => out.boards.entry(n).or_default(),
            Part::Bye(i) => &mut out.byes[i],
        };
        target.push_str(line);
        target.push('\n');
    }
    out.round = out.round.trim_end().to_string();
    for s in out.boards.values_mut().chain(out.byes.iter_mut()) {
        *s = s.trim_end().to_string();
    }
    out
}

/// What the desk keeps for each round, board and bye is each part's own `Display`: the
/// same text the former code cut out of the whole, found by data rather than by parsing.
#[test]
fn each_part_of_the_explanation_is_what_the_desk_kept_per_round_board_and_bye() {
    for (name, t, p) in cases() {
        let e = explain(&t, &p);
        let cut = former_cut(&e.to_string());
        assert_eq!(e.round.to_string(), cut.round, "{name}: the round");
        assert_eq!(e.boards.len(), cut.boards.len(), "{name}");
        assert_eq!(e.boards.len(), p.games.len(), "{name}: one part per board");
        assert_eq!(e.byes.len(), p.byes.len(), "{name}: one part per bye");
        for b in &p.games {
            let part = e
                .board(b.table)
                .unwrap_or_else(|| panic!("{name}: table {} is explained", b.table))
                .to_string();
            let former = cut
                .boards
                .get(&b.table)
                .unwrap_or_else(|| panic!("{name}: table {} is in the text", b.table));
            assert_eq!(&part, former, "{name}: table {}", b.table);
        }
        let byes: Vec<String> = p
            .byes
            .iter()
            .map(|id| {
                e.bye(*id)
                    .unwrap_or_else(|| panic!("{name}: the bye of {id:?} is explained"))
                    .to_string()
            })
            .collect();
        assert_eq!(byes, cut.byes, "{name}: the byes");
    }
}
