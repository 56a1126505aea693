//! Settings, the public pages: start and stop the read-only server for the phones in the
//! hall, its address, the QR code to scan, and the page to print for the wall. The server
//! runs on its own threads with its own read-only connection to the database file: the desk
//! only holds its handle, so drawing a frame never waits for it.

use super::PageCtx;
use crate::serve::qr::{QUIET_ZONE, QrMatrix};
use crate::serve::{ServeConfig, Server, parse_listen};
use egui::{Color32, RichText, Sense, Ui};

/// The section's state: the address to listen on, and the running server.
pub struct PublicPages {
    listen: String,
    server: Option<(Server, Option<QrMatrix>)>,
    error: Option<String>,
}

impl Default for PublicPages {
    fn default() -> Self {
        PublicPages {
            // Every network of this computer: phones on the venue's Wi-Fi reach it.
            listen: "0.0.0.0:8080".into(),
            server: None,
            error: None,
        }
    }
}

impl PublicPages {
    fn start(&mut self, db: &crate::store::Address) {
        self.error = None;
        let addr = match parse_listen(&self.listen) {
            Ok(a) => a,
            Err(e) => {
                self.error = Some(e);
                return;
            }
        };
        match Server::start(&ServeConfig::new(db.clone(), addr)) {
            Ok(server) => {
                let qr = QrMatrix::new(server.url());
                self.server = Some((server, qr));
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    pub fn ui(&mut self, ui: &mut Ui, cx: &mut PageCtx<'_>) {
        ui.heading("Public pages");
        ui.label(
            "Pairings, table states, results and standings, read-only, on any phone on the \
             venue's network: no app and no internet needed. Nothing about a game in \
             progress is shown beyond who plays whom and its state.",
        );
        let Some(db) = cx.store.address().cloned() else {
            ui.label(
                "This database lives in memory: the public pages need a database file or a server.",
            );
            return;
        };
        let mut stop = false;
        match &self.server {
            None => {
                ui.horizontal(|ui| {
                    let label = ui.label("Listen on");
                    ui.add(egui::TextEdit::singleline(&mut self.listen).desired_width(160.0))
                        .labelled_by(label.id);
                    if ui.button("Start the public pages").clicked() {
                        self.start(&db);
                    }
                });
                ui.label(
                    RichText::new(
                        "0.0.0.0:PORT answers on every network of this computer; \
                         127.0.0.1:PORT on this computer only.",
                    )
                    .weak(),
                );
                if let Some(e) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
            }
            Some((server, qr)) => {
                let url = server.url().to_string();
                ui.horizontal(|ui| {
                    ui.label("Phones open");
                    ui.label(RichText::new(&url).strong().size(20.0));
                });
                ui.horizontal(|ui| {
                    if let Some(qr) = qr {
                        draw_qr(ui, qr, 5.0);
                    }
                    ui.vertical(|ui| {
                        ui.label(format!("Listening on {}", server.addr()));
                        if ui.button("Open the page to print for the wall").clicked() {
                            let wall = format!("{url}wall");
                            if !cx.launcher.open(std::path::Path::new(&wall)) {
                                cx.notices.error(format!(
                                    "no program could open {wall}: open it in a browser by hand"
                                ));
                            }
                        }
                        if ui.button("Stop the public pages").clicked() {
                            stop = true;
                        }
                    });
                });
            }
        }
        if stop && let Some((server, _)) = self.server.take() {
            server.stop();
        }
    }
}

/// Draws a QR code as rectangles, `module` points per module, with its quiet zone.
fn draw_qr(ui: &mut Ui, qr: &QrMatrix, module: f32) {
    let side = (qr.width + 2 * QUIET_ZONE) as f32 * module;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(side, side), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::WHITE);
    for y in 0..qr.width {
        for x in 0..qr.width {
            if qr.is_dark(x, y) {
                let min = rect.min
                    + egui::vec2(
                        (x + QUIET_ZONE) as f32 * module,
                        (y + QUIET_ZONE) as f32 * module,
                    );
                painter.rect_filled(
                    egui::Rect::from_min_size(min, egui::vec2(module, module)),
                    0.0,
                    Color32::BLACK,
                );
            }
        }
    }
}
