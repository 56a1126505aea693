//! The QR code of the pages' address, as a grid of modules: drawn as SVG for the wall page
//! and as rectangles by the desk.

use qrcode::{Color, EcLevel, QrCode};
use std::fmt::Write;

/// A QR code's modules, row by row, without the quiet zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrMatrix {
    pub width: usize,
    dark: Vec<bool>,
}

/// The light margin around a QR code, in modules, that scanners need.
pub const QUIET_ZONE: usize = 4;

impl QrMatrix {
    /// The code for `text` (medium error correction: it survives a worn print on a wall).
    pub fn new(text: &str) -> Option<QrMatrix> {
        let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).ok()?;
        let width = code.width();
        let dark = code.to_colors().iter().map(|&c| c == Color::Dark).collect();
        Some(QrMatrix { width, dark })
    }

    /// Whether the module at column `x`, row `y` is dark.
    pub fn is_dark(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.width && self.dark[y * self.width + x]
    }

    /// The code as an SVG image, quiet zone included, dark modules as one path.
    pub fn to_svg(&self, label: &str) -> String {
        let size = self.width + 2 * QUIET_ZONE;
        let mut path = String::new();
        for y in 0..self.width {
            for x in 0..self.width {
                if self.is_dark(x, y) {
                    let _ = write!(path, "M{} {}h1v1h-1z", x + QUIET_ZONE, y + QUIET_ZONE);
                }
            }
        }
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {size} {size}\" \
             shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"{}\">\
             <rect width=\"{size}\" height=\"{size}\" fill=\"#fff\"/><path fill=\"#000\" d=\"{path}\"/></svg>",
            super::html::esc(label)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_gives_a_square_code_with_its_three_finder_patterns() {
        let qr = QrMatrix::new("http://192.168.1.20:8080/").expect("encodes");
        assert!(
            qr.width >= 21 && (qr.width - 21).is_multiple_of(4),
            "{}",
            qr.width
        );
        let w = qr.width;
        // Each finder pattern's corner modules are dark and the ring inside is light.
        for (x0, y0) in [(0, 0), (w - 7, 0), (0, w - 7)] {
            assert!(qr.is_dark(x0, y0) && qr.is_dark(x0 + 6, y0 + 6));
            assert!(!qr.is_dark(x0 + 1, y0 + 1) && qr.is_dark(x0 + 2, y0 + 2));
        }
        assert!(!qr.is_dark(w, 0), "outside the code is light");
        let svg = qr.to_svg("http://192.168.1.20:8080/");
        assert!(
            svg.starts_with("<svg") && svg.contains(&format!("viewBox=\"0 0 {0} {0}\"", w + 8))
        );
    }
}
