//! A side's setup typed or pasted as it is written on a setup sheet: three lines, one per
//! rank, in the order the desk draws the board (top line first: ranks 3, 2, 1 for White,
//! 8, 7, 6 for Black), each with nine cells for files a to i. A cell is a piece code
//! (`G5 G4 G3 G2 G1 COL LTC MAJ CPT 1LT 2LT SGT PVT SPY FLG`, any case) or `-` / `.` for an
//! empty square. A line may start with its rank number and a colon (`3:`), which is
//! checked. The setup is then checked as every setup is (`SideSetup::validate`), so the
//! messages are the palette's.

use ggdesk_core::rules::{FILES, Rank, Side, SideSetup, Square};

/// The ranks of a side's lines, top line first, as the board is drawn.
fn line_rows(side: Side) -> [u8; 3] {
    match side {
        Side::White => [2, 1, 0],
        Side::Black => [7, 6, 5],
    }
}

/// Reads a typed setup for `side`; the error names the line and the square.
pub fn parse_setup_text(side: Side, text: &str) -> Result<SideSetup, String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let rows = line_rows(side);
    if lines.len() != 3 {
        return Err(format!(
            "{} lines given: type three, one per rank ({}, {}, {}, top line first)",
            lines.len(),
            rows[0] + 1,
            rows[1] + 1,
            rows[2] + 1
        ));
    }
    let mut placements = Vec::new();
    for (n, (line, row)) in lines.iter().zip(rows).enumerate() {
        let rank_no = row + 1;
        let mut cells = line.trim();
        if let Some((label, rest)) = cells.split_once(':') {
            let label = label.trim();
            if label.parse::<u8>().ok() != Some(rank_no) {
                return Err(format!(
                    "line {}: {label:?} is not rank {rank_no} (the lines go {}, {}, {}, top first)",
                    n + 1,
                    rows[0] + 1,
                    rows[1] + 1,
                    rows[2] + 1
                ));
            }
            cells = rest;
        }
        let tokens: Vec<&str> = cells
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.len() != usize::from(FILES) {
            return Err(format!(
                "line {} (rank {rank_no}): {} cells given, 9 needed (files a to i; - for an empty square)",
                n + 1,
                tokens.len()
            ));
        }
        for (file, token) in tokens.iter().enumerate() {
            let Some(square) = Square::new(file as u8, row) else {
                continue;
            };
            if *token == "-" || *token == "." {
                continue;
            }
            let rank = Rank::from_code(&token.to_uppercase()).ok_or_else(|| {
                format!(
                    "line {} (rank {rank_no}), {square}: {token:?} is not a piece code \
                     (G5 G4 G3 G2 G1 COL LTC MAJ CPT 1LT 2LT SGT PVT SPY FLG, or - for empty)",
                    n + 1
                )
            })?;
            placements.push((square, rank));
        }
    }
    let setup = SideSetup::new(placements);
    setup.validate(side).map_err(|e| e.to_string())?;
    Ok(setup)
}

/// A side's setup written in the typed form (for showing the format, and round trips).
pub fn setup_text(side: Side, setup: &SideSetup) -> String {
    line_rows(side)
        .iter()
        .map(|&row| {
            (0..FILES)
                .map(|f| {
                    Square::new(f, row)
                        .and_then(|sq| setup.rank_at(sq))
                        .map_or("-".to_string(), |r| r.code().to_string())
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: &str = "PVT PVT PVT PVT PVT PVT SPY SPY -\n\
                         G5 G4 G3 G2 G1 COL LTC MAJ CPT\n\
                         1lt 2lt sgt FLG - - - - -";

    #[test]
    fn a_typed_setup_places_every_piece_on_its_square() {
        let setup = parse_setup_text(Side::White, WHITE).expect("legal");
        let at = |s: &str| setup.rank_at(s.parse().expect("square"));
        assert_eq!(at("a3"), Some(Rank::Private));
        assert_eq!(at("i3"), None);
        assert_eq!(at("a2"), Some(Rank::G5));
        assert_eq!(at("d1"), Some(Rank::Flag));
        assert_eq!(at("c1"), Some(Rank::Sergeant));
        assert_eq!(setup_text(Side::White, &setup), WHITE.to_uppercase());
    }

    #[test]
    fn faults_are_named_by_line_and_square() {
        let e = parse_setup_text(Side::White, "G5").expect_err("one line");
        assert!(e.contains("1 lines given"), "{e}");
        let bad = WHITE.replace("MAJ", "MJR");
        let e = parse_setup_text(Side::White, &bad).expect_err("bad code");
        assert!(e.contains("line 2 (rank 2), h2: \"MJR\""), "{e}");
        let short = WHITE.replace(" CPT", "");
        let e = parse_setup_text(Side::White, &short).expect_err("short");
        assert!(e.contains("line 2 (rank 2): 8 cells given"), "{e}");
        let two_flags = WHITE.replace("sgt", "FLG");
        let e = parse_setup_text(Side::White, &two_flags).expect_err("counts");
        assert!(e.contains("a set holds"), "{e}");
        let e = parse_setup_text(Side::Black, &format!("6: {WHITE}")).expect_err("label");
        assert!(e.contains("is not rank 8"), "{e}");
    }

    #[test]
    fn black_lines_are_ranks_eight_to_six() {
        let setup = parse_setup_text(Side::Black, WHITE).expect("legal for Black too");
        assert_eq!(
            setup.rank_at("a8".parse().expect("sq")),
            Some(Rank::Private)
        );
        assert_eq!(setup.rank_at("d6".parse().expect("sq")), Some(Rank::Flag));
    }
}
