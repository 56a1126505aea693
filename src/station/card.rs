//! A station's card to print (`station add --card FILE`, issue 32): the stations' address, the
//! station, its secret (shown this once), the authority's first 16 hex digits and the QR code
//! of the card's link, on an A6 page (105 × 148 mm, portrait).
//!
//! Values in, bytes out: the command line writes the file. The PDF is written by hand (PDF
//! 1.4, one page, the standard Helvetica and Courier fonts that every reader has, so nothing
//! is embedded), uncompressed, so that its text can be searched and its QR code checked
//! module by module in the tests.

use crate::serve::qr::{QUIET_ZONE, QrMatrix};
use crate::store::EventServer;
use std::fmt::Write;
use std::path::Path;

/// What a station's card carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    /// The stations' address, `https://HOST:PORT/`.
    pub address: String,
    /// The station's name.
    pub station: String,
    /// The station's secret, 32 hex digits, shown this once.
    pub secret: String,
    /// The first 16 hex digits of the event authority's SHA-256 fingerprint.
    pub authority16: String,
    /// The card's link, `https://HOST:PORT/NAME`: what the QR code holds.
    pub link: String,
    /// The stations' addresses of the event server's standbys, where the station goes on
    /// once one is promoted (`spec/server.md`: with a standby, a card names both).
    pub standbys: Vec<String>,
}

/// A card's file format, told by the file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardFormat {
    Pdf,
}

impl CardFormat {
    /// The format `path`'s extension names (`.pdf`, in any case), or `None`.
    pub fn of(path: &Path) -> Option<CardFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "pdf" => Some(CardFormat::Pdf),
            _ => None,
        }
    }
}

/// Why a card could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    #[error("the card's link is too long for a QR code ({0} bytes)")]
    LinkTooLong(usize),
    #[error("the card cannot be written to {path}: {detail}")]
    Write { path: String, detail: String },
}

impl Card {
    /// The card of station `name` on the event server `server`, with its secret (shown this
    /// once): the server's address, the first 16 hex digits of the authority's fingerprint
    /// and the link its QR code holds.
    pub fn of_station(
        server: &EventServer,
        standbys: &[String],
        name: &str,
        secret: String,
    ) -> Card {
        Card {
            address: server.stations_address.clone(),
            station: name.to_string(),
            secret,
            authority16: crate::tls::short(&server.authority).to_string(),
            link: format!("{}{name}", server.stations_address),
            standbys: standbys
                .iter()
                .filter(|a| **a != server.stations_address)
                .cloned()
                .collect(),
        }
    }

    /// Writes the card in `format` to `path`, readable by its owner only (it holds the
    /// secret): the file is made, or emptied and made private, before the secret is written
    /// into it, and synced.
    pub fn write_private(&self, path: &Path, format: CardFormat) -> Result<(), CardError> {
        use std::io::Write as _;
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let bytes = self.render(format)?;
        let fault = |e: std::io::Error| CardError::Write {
            path: path.display().to_string(),
            detail: e.to_string(),
        };
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(path)
            .map_err(fault)?;
        // A file that was there keeps its mode through open: make it private before writing.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(fault)?;
        file.write_all(&bytes).map_err(fault)?;
        file.sync_all().map_err(fault)
    }

    /// The card in `format`.
    pub fn render(&self, format: CardFormat) -> Result<Vec<u8>, CardError> {
        match format {
            CardFormat::Pdf => self.pdf(),
        }
    }

    /// The secret in groups of four, for reading aloud and typing: two lines of four groups.
    pub fn secret_lines(&self) -> Vec<String> {
        let chars: Vec<char> = self.secret.chars().collect();
        let groups: Vec<String> = chars.chunks(4).map(|g| g.iter().collect()).collect();
        groups.chunks(4).map(|line| line.join(" ")).collect()
    }

    /// The card as a one-page PDF 1.4 of A6 size.
    pub fn pdf(&self) -> Result<Vec<u8>, CardError> {
        let qr = QrMatrix::new(&self.link).ok_or(CardError::LinkTooLong(self.link.len()))?;
        let content = self.page_content(&qr);
        let title = format!("ggdesk arbiter station {}", self.station);
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] \
                 /Resources << /Font << /F1 4 0 R /F2 5 0 R /F3 6 0 R /F4 7 0 R >> >> /Contents 8 0 R >>",
                num(PAGE_W),
                num(PAGE_H)
            ),
            font("Helvetica"),
            font("Helvetica-Bold"),
            font("Courier"),
            font("Courier-Bold"),
            format!(
                "<< /Length {} >>\nstream\n{content}endstream",
                content.len()
            ),
            format!("<< /Title {} /Producer (ggdesk) >>", pdf_string(&title)),
        ];
        let mut out: Vec<u8> = Vec::new();
        // The second line's bytes above 127 tell transfer programs the file is binary.
        out.extend_from_slice(b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n");
        let mut offsets = Vec::with_capacity(objects.len());
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
        }
        let xref = out.len();
        let mut tail = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
        for offset in offsets {
            // Each entry is exactly 20 bytes, its end of line the two bytes " \n".
            let _ = writeln!(tail, "{offset:010} 00000 n ");
        }
        let _ = write!(
            tail,
            "trailer\n<< /Size {} /Root 1 0 R /Info 9 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        );
        out.extend_from_slice(tail.as_bytes());
        Ok(out)
    }

    /// The page's drawing: the lines of text from the top, then the QR code.
    fn page_content(&self, qr: &QrMatrix) -> String {
        let usable = PAGE_W - 2.0 * MARGIN;
        let mut c = String::new();
        let mut y = PAGE_H - MARGIN;
        let line = |c: &mut String, y: &mut f64, font: Font, size: f64, text: &str| {
            *y -= size;
            text_at(c, font, size, MARGIN, *y, text);
        };
        line(
            &mut c,
            &mut y,
            Font::Regular,
            10.0,
            "ggdesk arbiter station",
        );
        y -= 6.0;
        let name_size = (usable / bold_width(&self.station)).min(28.0);
        line(&mut c, &mut y, Font::Bold, name_size, &self.station);
        y -= 12.0;
        line(&mut c, &mut y, Font::Regular, 7.0, "Address");
        y -= 3.0;
        let address_size = fitted(usable, &self.address, 11.0);
        line(&mut c, &mut y, Font::Mono, address_size, &self.address);
        for standby in &self.standbys {
            y -= 3.0;
            let text = format!("or {standby}");
            let size = fitted(usable, &text, 11.0);
            line(&mut c, &mut y, Font::Mono, size, &text);
        }
        y -= 10.0;
        line(&mut c, &mut y, Font::Regular, 7.0, "Secret");
        for text in self.secret_lines() {
            y -= 3.0;
            line(&mut c, &mut y, Font::MonoBold, 15.0, &text);
        }
        y -= 10.0;
        line(&mut c, &mut y, Font::Regular, 7.0, "Authority");
        y -= 3.0;
        let authority = format!("sha256:{}", self.authority16);
        line(&mut c, &mut y, Font::Mono, 11.0, &authority);
        // The QR code fills what is left above the last lines, centred, quiet zone included.
        let bottom = MARGIN + 38.0;
        let side = (y - 8.0 - bottom).min(usable);
        let modules = qr.width + 2 * QUIET_ZONE;
        // A whole number of hundredths of a point per module keeps every edge exact.
        let module = (side / modules as f64 * 100.0).floor() / 100.0;
        let side = module * modules as f64;
        let left = ((PAGE_W - side) / 2.0 * 100.0).round() / 100.0;
        let top = bottom + side;
        qr_rectangles(&mut c, qr, left, top, module);
        let link_size = fitted(usable, &self.link, 8.0);
        text_at(
            &mut c,
            Font::Mono,
            link_size,
            (PAGE_W - mono_width(&self.link) * link_size) / 2.0,
            bottom - 2.0,
            &self.link,
        );
        text_at(
            &mut c,
            Font::Regular,
            7.0,
            MARGIN,
            MARGIN + 21.0,
            "At the table: ggdesk, Stations (F9), Connect to an event.",
        );
        text_at(
            &mut c,
            Font::Bold,
            7.5,
            MARGIN,
            MARGIN + 10.0,
            "The secret is shown this once: this card stays with the arbiter.",
        );
        text_at(
            &mut c,
            Font::Regular,
            7.0,
            MARGIN,
            MARGIN,
            "Lost or seen? The director gives a new one: station reset.",
        );
        c
    }
}

/// A6 portrait in points (1/72 inch): 105 × 148 mm.
const PAGE_W: f64 = 105.0 * 72.0 / 25.4;
const PAGE_H: f64 = 148.0 * 72.0 / 25.4;
/// 10 mm all round.
const MARGIN: f64 = 10.0 * 72.0 / 25.4;

#[derive(Debug, Clone, Copy)]
enum Font {
    Regular,
    Bold,
    Mono,
    MonoBold,
}

impl Font {
    fn resource(self) -> &'static str {
        match self {
            Font::Regular => "F1",
            Font::Bold => "F2",
            Font::Mono => "F3",
            Font::MonoBold => "F4",
        }
    }
}

fn font(name: &str) -> String {
    format!("<< /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding /WinAnsiEncoding >>")
}

fn text_at(c: &mut String, font: Font, size: f64, x: f64, y: f64, text: &str) {
    let _ = writeln!(
        c,
        "BT /{} {} Tf {} {} Td {} Tj ET",
        font.resource(),
        num(size),
        num(x),
        num(y),
        pdf_string(text)
    );
}

/// The dark modules as filled rectangles, one for each run of dark modules in a row, with the
/// code's top left corner (inside the quiet zone) at `left`, `top`.
fn qr_rectangles(c: &mut String, qr: &QrMatrix, left: f64, top: f64, module: f64) {
    let x0 = left + QUIET_ZONE as f64 * module;
    let y0 = top - QUIET_ZONE as f64 * module;
    c.push_str("0 g\n");
    for (y, x, run) in dark_runs(qr) {
        let _ = writeln!(
            c,
            "{} {} {} {} re",
            num(x0 + x as f64 * module),
            num(y0 - (y + 1) as f64 * module),
            num(run as f64 * module),
            num(module)
        );
    }
    c.push_str("f\n");
}

/// Each row's runs of dark modules: (row, first column, length).
pub fn dark_runs(qr: &QrMatrix) -> Vec<(usize, usize, usize)> {
    let mut runs = Vec::new();
    for y in 0..qr.width {
        let mut x = 0;
        while x < qr.width {
            if qr.is_dark(x, y) {
                let start = x;
                while x < qr.width && qr.is_dark(x, y) {
                    x += 1;
                }
                runs.push((y, start, x - start));
            } else {
                x += 1;
            }
        }
    }
    runs
}

/// A number as PDF writes it: at most two decimals, no trailing zeros.
fn num(v: f64) -> String {
    let text = format!("{v:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// A PDF literal string: parentheses and backslashes escaped, anything outside printable
/// ASCII shown as `?` (the standard fonts have no glyph we could rely on for it).
fn pdf_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('(');
    for ch in text.chars() {
        match ch {
            '(' | ')' | '\\' => {
                out.push('\\');
                out.push(ch);
            }
            ' '..='~' => out.push(ch),
            _ => out.push('?'),
        }
    }
    out.push(')');
    out
}

/// The largest size up to `max` at which `text` in Courier fits `width`.
fn fitted(width: f64, text: &str, max: f64) -> f64 {
    (width / mono_width(text)).min(max)
}

/// Courier's width of `text` at size 1: every glyph is 0.6 em.
fn mono_width(text: &str) -> f64 {
    0.6 * text.chars().count().max(1) as f64
}

/// Helvetica-Bold's width of `text` at size 1 (its metrics for the characters of a station's
/// name; the widest for any other).
fn bold_width(text: &str) -> f64 {
    let thousandths: u32 = text
        .chars()
        .map(|ch| match ch {
            'i' | 'j' | 'l' | 'I' => 278,
            '-' | 'f' | 't' => 333,
            'r' => 389,
            'z' => 500,
            'a' | 'c' | 'e' | 'k' | 's' | 'v' | 'x' | 'y' | 'J' | '_' | '0'..='9' => 556,
            'b' | 'd' | 'g' | 'h' | 'n' | 'o' | 'p' | 'q' | 'u' | 'F' | 'L' | 'T' | 'Z' => 611,
            'E' | 'P' | 'S' | 'V' | 'X' | 'Y' => 667,
            'A' | 'B' | 'C' | 'D' | 'H' | 'K' | 'N' | 'R' | 'U' => 722,
            'w' | 'G' | 'O' | 'Q' => 778,
            'M' => 833,
            'm' => 889,
            _ => 944,
        })
        .sum();
    f64::from(thousandths.max(1)) / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Card {
        Card {
            address: "https://192.168.1.20:8443/".into(),
            station: "hall-a".into(),
            secret: "0123456789abcdef0123456789abcdef".into(),
            authority16: "fedcba9876543210".into(),
            link: "https://192.168.1.20:8443/hall-a".into(),
            standbys: Vec::new(),
        }
    }

    fn text(pdf: &[u8]) -> String {
        String::from_utf8_lossy(pdf).into_owned()
    }

    #[test]
    fn a_card_names_the_standbys_addresses_after_the_primarys() {
        let server = EventServer {
            stations_address: "https://10.0.0.1:8443/".into(),
            authority: "ab".repeat(32),
        };
        let standbys = vec![
            "https://10.0.0.1:8443/".to_string(),
            "https://10.0.0.2:8443/".to_string(),
        ];
        let card = Card::of_station(&server, &standbys, "hall-a", "00".repeat(16));
        // The promoted standby's own address is the server's: named once.
        assert_eq!(card.standbys, vec!["https://10.0.0.2:8443/".to_string()]);
        assert_eq!(card.link, "https://10.0.0.1:8443/hall-a");
        let pdf = text(&card.pdf().expect("a card"));
        assert!(pdf.contains("(or https://10.0.0.2:8443/)"), "{pdf}");
    }

    #[test]
    fn a_card_is_a_pdf_1_4_whose_xref_points_at_every_object() {
        let pdf = card().pdf().expect("a card");
        assert!(pdf.starts_with(b"%PDF-1.4\n"));
        assert!(pdf.ends_with(b"%%EOF\n"));
        let t = text(&pdf);
        let startxref: usize = t
            .rsplit("startxref\n")
            .next()
            .and_then(|rest| rest.lines().next())
            .and_then(|n| n.parse().ok())
            .expect("startxref's offset");
        assert!(pdf[startxref..].starts_with(b"xref\n0 10\n0000000000 65535 f \n"));
        let table = &pdf[startxref + "xref\n0 10\n".len()..];
        for n in 1..10 {
            let entry = &table[n * 20..(n + 1) * 20];
            let entry = std::str::from_utf8(entry).expect("ASCII");
            assert!(entry.ends_with(" 00000 n \n"), "{entry:?}");
            let offset: usize = entry[..10].parse().expect("an offset");
            assert!(
                pdf[offset..].starts_with(format!("{n} 0 obj\n").as_bytes()),
                "object {n} at {offset}"
            );
        }
        assert!(t.contains("trailer\n<< /Size 10 /Root 1 0 R /Info 9 0 R >>"));
        // The stream's length is its bytes between "stream\n" and "endstream".
        let start = t.find("stream\n").expect("a stream") + "stream\n".len();
        let end = t.find("endstream").expect("its end");
        assert!(t.contains(&format!("<< /Length {} >>", end - start)));
    }

    #[test]
    fn a_card_carries_the_station_address_secret_in_fours_and_authority() {
        let t = text(&card().pdf().expect("a card"));
        for line in [
            "(ggdesk arbiter station) Tj",
            "(hall-a) Tj",
            "(https://192.168.1.20:8443/) Tj",
            "(0123 4567 89ab cdef) Tj",
            "(sha256:fedcba9876543210) Tj",
            "(https://192.168.1.20:8443/hall-a) Tj",
            "(The secret is shown this once: this card stays with the arbiter.) Tj",
        ] {
            assert!(t.contains(line), "{line} in {t}");
        }
        assert_eq!(t.matches("(0123 4567 89ab cdef) Tj").count(), 2);
        assert!(t.contains("/BaseFont /Courier "));
        assert!(t.contains("/F4 15 Tf"), "the secret in Courier-Bold");
        assert!(t.contains("/Title (ggdesk arbiter station hall-a)"));
    }

    #[test]
    fn parentheses_and_backslashes_are_escaped_and_other_characters_replaced() {
        assert_eq!(pdf_string(r"a(b)c\d"), r"(a\(b\)c\\d)");
        assert_eq!(pdf_string("é\n"), "(??)");
        let mut odd = card();
        odd.address = r"https://[::1]:8443/(x)\".into();
        let t = text(&odd.pdf().expect("a card"));
        assert!(t.contains(r"(https://[::1]:8443/\(x\)\\) Tj"), "{t}");
    }

    #[test]
    fn the_qr_code_is_one_rectangle_per_run_of_dark_modules_inside_the_quiet_zone() {
        let c = card();
        let qr = QrMatrix::new(&c.link).expect("a code");
        let t = text(&c.pdf().expect("a card"));
        let rects: Vec<[f64; 4]> = t
            .lines()
            .filter_map(|l| l.strip_suffix(" re"))
            .map(|l| {
                let v: Vec<f64> = l.split(' ').map(|n| n.parse().expect("a number")).collect();
                [v[0], v[1], v[2], v[3]]
            })
            .collect();
        let runs = dark_runs(&qr);
        assert_eq!(rects.len(), runs.len());
        let dark = (0..qr.width)
            .flat_map(|y| (0..qr.width).map(move |x| (x, y)))
            .filter(|&(x, y)| qr.is_dark(x, y))
            .count();
        let covered: usize = runs.iter().map(|r| r.2).sum();
        assert_eq!(covered, dark);
        // The code and its quiet zone stay on the page, clear of its margins and of the text.
        let module = rects[0][3];
        let left = rects.iter().map(|r| r[0]).fold(f64::MAX, f64::min);
        let right = rects.iter().map(|r| r[0] + r[2]).fold(0.0, f64::max);
        let bottom = rects.iter().map(|r| r[1]).fold(f64::MAX, f64::min);
        let quiet = QUIET_ZONE as f64 * module;
        assert!(left - quiet >= MARGIN - 0.01 && right + quiet <= PAGE_W - MARGIN + 0.01);
        assert!(bottom - quiet >= MARGIN + 20.0);
        assert!(module >= 2.5, "{module} pt per module scans from a print");
    }

    #[test]
    fn a_long_station_name_is_made_smaller_to_fit() {
        let mut c = card();
        c.station = "W".repeat(32);
        let t = text(&c.pdf().expect("a card"));
        let line = t
            .lines()
            .find(|l| l.contains(&c.station))
            .expect("the name");
        let size: f64 = line
            .split(' ')
            .nth(2)
            .and_then(|s| s.parse().ok())
            .expect("its size");
        assert!(size * 0.944 * 32.0 <= PAGE_W - 2.0 * MARGIN + 0.5, "{size}");
    }

    #[test]
    fn the_format_is_the_extension() {
        assert_eq!(
            CardFormat::of(Path::new("a/card.PDF")),
            Some(CardFormat::Pdf)
        );
        assert_eq!(CardFormat::of(Path::new("card.txt")), None);
        assert_eq!(CardFormat::of(Path::new("card")), None);
    }
}
