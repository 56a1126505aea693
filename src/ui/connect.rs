//! "Connect to an event" (Stations, F9, on a desk opened on a file): this laptop becomes an
//! arbiter station of an event another laptop hosts, from the station's card: its link, its
//! secret and, the first time this desk meets that server, the authority the card prints.
//! The connection is made on a thread of its own (a server that does not answer must not hold
//! the frame); once it is made the desk goes on as the station's desk, on the stations' API.

use super::common;
use crate::station::connect::{Connected, KnownAuthorities, connect};
use egui::{RichText, Ui};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// The form, and the connection under way.
pub struct ConnectPanel {
    link: String,
    standby: String,
    secret: String,
    authority: String,
    /// Where the authorities this desk met are remembered (tests use a file of their own).
    pub known: Option<PathBuf>,
    connecting: Option<Receiver<Result<Connected, String>>>,
    error: Option<String>,
}

impl Default for ConnectPanel {
    fn default() -> ConnectPanel {
        ConnectPanel {
            link: String::new(),
            standby: String::new(),
            secret: String::new(),
            authority: String::new(),
            known: KnownAuthorities::default_path(),
            connecting: None,
            error: None,
        }
    }
}

impl ConnectPanel {
    /// Draws the form; returns the station's desk once connected.
    pub fn ui(&mut self, ui: &mut Ui) -> Option<Connected> {
        ui.heading("Connect to an event as an arbiter station");
        ui.label(
            "For an arbiter at the tables of an event another laptop hosts: type the station's \
             card. The first time this desk meets that server it checks the server against the \
             card's authority before the secret is sent, and remembers it.",
        );
        egui::Grid::new("ggdesk-connect-form")
            .num_columns(2)
            .show(ui, |ui| {
                let l = ui.label("Link (https://HOST:PORT/STATION)");
                ui.add(
                    egui::TextEdit::singleline(&mut self.link)
                        .desired_width(360.0)
                        .hint_text("https://192.168.1.20:8443/hall-a"),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Standby's address (if the card lists two)");
                ui.add(
                    egui::TextEdit::singleline(&mut self.standby)
                        .desired_width(360.0)
                        .hint_text("https://192.168.1.21:8443/"),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Secret");
                ui.add(
                    egui::TextEdit::singleline(&mut self.secret)
                        .password(true)
                        .desired_width(360.0),
                )
                .labelled_by(l.id);
                ui.end_row();
                let l = ui.label("Authority (sha256:…)");
                ui.add(
                    egui::TextEdit::singleline(&mut self.authority)
                        .desired_width(360.0)
                        .hint_text("as the card prints it; not needed once connected before"),
                )
                .labelled_by(l.id);
                ui.end_row();
            });
        if self.connecting.is_some() {
            ui.label(RichText::new("Connecting to the event server…").strong());
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        } else if ui.button("Connect to the event").clicked() {
            self.start();
        }
        if let Some(e) = &self.error {
            ui.label(RichText::new(e).color(common::RED).strong());
        }
        self.poll()
    }

    fn start(&mut self) {
        self.error = None;
        let standbys: Vec<String> = self
            .standby
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let (link, secret, authority, known) = (
            self.link.clone(),
            self.secret.clone(),
            self.authority.clone(),
            self.known.clone(),
        );
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("ggdesk-connect".into())
            .spawn(move || {
                let result = KnownAuthorities::load(known)
                    .and_then(|mut k| connect(&link, &standbys, &secret, &authority, &mut k));
                let _ = tx.send(result);
            });
        match spawned {
            Ok(_) => self.connecting = Some(rx),
            Err(e) => self.error = Some(format!("cannot connect: {e}")),
        }
    }

    fn poll(&mut self) -> Option<Connected> {
        let rx = self.connecting.as_ref()?;
        match rx.try_recv() {
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                self.connecting = None;
                self.error = Some("the connection ended without a word".into());
                None
            }
            Ok(result) => {
                self.connecting = None;
                match result {
                    Ok(connected) => {
                        // The secret is not kept on this form once it has served.
                        self.secret.clear();
                        Some(connected)
                    }
                    Err(e) => {
                        self.error = Some(e);
                        None
                    }
                }
            }
        }
    }
}
