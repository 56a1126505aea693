//! The whole 15 × 15 challenge table, printed and compared with the table written out by
//! hand from RULES.md. Rows are attackers, columns defenders; `A` attacker wins, `D`
//! defender wins, `=` both removed.

use ggdesk_core::rules::{ChallengeResult, Rank, resolve};

const EXPECTED: &str = "\
    G5 G4 G3 G2 G1 COL LTC MAJ CPT 1LT 2LT SGT PVT SPY FLG
G5  =  A  A  A  A  A   A   A   A   A   A   A   A   D   A
G4  D  =  A  A  A  A   A   A   A   A   A   A   A   D   A
G3  D  D  =  A  A  A   A   A   A   A   A   A   A   D   A
G2  D  D  D  =  A  A   A   A   A   A   A   A   A   D   A
G1  D  D  D  D  =  A   A   A   A   A   A   A   A   D   A
COL D  D  D  D  D  =   A   A   A   A   A   A   A   D   A
LTC D  D  D  D  D  D   =   A   A   A   A   A   A   D   A
MAJ D  D  D  D  D  D   D   =   A   A   A   A   A   D   A
CPT D  D  D  D  D  D   D   D   =   A   A   A   A   D   A
1LT D  D  D  D  D  D   D   D   D   =   A   A   A   D   A
2LT D  D  D  D  D  D   D   D   D   D   =   A   A   D   A
SGT D  D  D  D  D  D   D   D   D   D   D   =   A   D   A
PVT D  D  D  D  D  D   D   D   D   D   D   D   =   A   A
SPY A  A  A  A  A  A   A   A   A   A   A   A   D   =   A
FLG D  D  D  D  D  D   D   D   D   D   D   D   D   D   A
";

fn printed_table() -> String {
    let mut out = String::from("   ");
    for d in Rank::ALL {
        out.push_str(&format!(" {:<3}", d.code()));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for a in Rank::ALL {
        let mut line = format!("{:<3}", a.code());
        for d in Rank::ALL {
            let cell = match resolve(a, d) {
                ChallengeResult::AttackerWins => "A",
                ChallengeResult::DefenderWins => "D",
                ChallengeResult::BothRemoved => "=",
            };
            line.push_str(&format!(" {:<3}", cell));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn normalise(s: &str) -> Vec<Vec<String>> {
    s.lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn challenge_table_matches_the_rulebook_whole() {
    assert_eq!(normalise(&printed_table()), normalise(EXPECTED));
}

#[test]
fn swapping_attacker_and_defender_swaps_the_winner_except_for_flags() {
    for a in Rank::ALL {
        for d in Rank::ALL {
            if a == Rank::Flag || d == Rank::Flag {
                continue;
            }
            let swapped = match resolve(d, a) {
                ChallengeResult::AttackerWins => ChallengeResult::DefenderWins,
                ChallengeResult::DefenderWins => ChallengeResult::AttackerWins,
                ChallengeResult::BothRemoved => ChallengeResult::BothRemoved,
            };
            assert_eq!(resolve(a, d), swapped, "{a} against {d}");
        }
    }
}
