//! "Host this event on the network" at the desk (issue 32, part 4): a director's desk on an
//! event file starts the event server in a folder, the event is copied into it and the desk
//! goes on there, with the Stations page making stations of the API; closing the desk stops
//! the server.

mod common;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/wait.rs"]
mod wait;

use common::{START_MS, all_text, click, desk, has_text, type_into};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ggdesk::store::{Actor, Engine, PlayerInput, Store, TournamentSetup};
use ggdesk::ui::{DeskApp, Page};
use std::cell::Cell;
use std::rc::Rc;

/// Replaces what field `label` holds by `text`.
fn set_field(h: &mut Harness<'_, DeskApp>, label: &str, text: &str) {
    if h.query_by_label(label).is_none() {
        panic!("no field {label:?} among {:?}", all_text(h));
    }
    h.get_by_label(label).focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Runs frames until the desk shows `text` (the server starts on a thread of its own).
fn until_shown(h: &mut Harness<'_, DeskApp>, what: &str, text: &str) {
    let h = std::cell::RefCell::new(h);
    wait::until_or(
        what,
        || {
            let mut h = h.borrow_mut();
            h.run();
            has_text(&h, text)
        },
        || format!("the desk shows {:?}", all_text(&h.borrow())),
    );
}

/// The hosting form: the folder, loopback, the cluster's user when root, and the ports.
fn fill_form(h: &mut Harness<'_, DeskApp>, dir: &std::path::Path, ports: (u16, u16, u16)) {
    set_field(h, "Folder", &dir.display().to_string());
    type_into(h, "Address on the hall's network", "127.0.0.1");
    if pg::debian::is_root() {
        type_into(h, "Run PostgreSQL as", "postgres");
    }
    set_field(h, "PostgreSQL port", &ports.0.to_string());
    set_field(h, "Stations' port", &ports.1.to_string());
    set_field(h, "Public pages' port", &ports.2.to_string());
}

#[test]
fn the_desk_hosts_its_event_goes_on_there_and_stops_the_server_when_it_closes() {
    pg::bin_dir();
    let files = tempfile::tempdir().expect("dir");
    let file = files.path().join("club.sqlite3");
    let d = Actor::director();
    let tid = {
        let mut store = Store::open(&file).expect("the event file");
        let setup = TournamentSetup {
            name: "Club night".into(),
            ..TournamentSetup::default()
        };
        let tid = store.create_tournament(&setup, &d).expect("tournament");
        for i in 0..4 {
            let p = PlayerInput {
                name: format!("Player {i}"),
                federation_id: String::new(),
                club: String::new(),
                rating: 2000 - i * 10,
            };
            let id = store.add_player(&p, &d).expect("player");
            store.register(tid, id, &d).expect("register");
        }
        tid
    };
    // The cluster's user must reach the folder: not inside a private temporary folder.
    let dir = std::env::temp_dir().join(format!("ggdesk-uihost-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (port, station_port, pages_port) = (pg::free_port(), pg::free_port(), pg::free_port());
    let mut h = desk(
        Store::open(&file).expect("the event file"),
        Page::Stations,
        Some(tid),
        &Rc::new(Cell::new(START_MS)),
    );
    assert!(has_text(&h, "Host this event on the network"));
    fill_form(&mut h, &dir, (port, station_port, pages_port));
    // A port that is not one is refused before anything starts.
    set_field(&mut h, "Public pages' port", "80800");
    click(&mut h, "Host this event on the network");
    assert!(
        has_text(
            &h,
            "Public pages' port: \"80800\" is not a port (1 to 65535)"
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(!dir.exists(), "nothing was made");
    set_field(&mut h, "Public pages' port", &pages_port.to_string());
    click(&mut h, "Host this event on the network");
    let running = format!(
        "This desk runs the event server (folder {}; public pages http://127.0.0.1:{pages_port}/): \
         keep it open while the event runs. Closing it stops the server; every saved result is \
         kept.",
        dir.display()
    );
    until_shown(
        &mut h,
        "the desk to go on on the server it started",
        &running,
    );
    assert!(h.state().hosts_the_event());
    let store = h.state().store().expect("the desk's store");
    assert_eq!(store.engine(), Engine::Postgres);
    assert_eq!(
        store.tournament_names().expect("tournaments"),
        vec![(tid, "Club night".to_string())]
    );
    assert_eq!(store.registrations(tid).expect("players").len(), 4);
    assert!(
        has_text(
            &h,
            &format!(
                "This event's server runs the stations' HTTPS API at https://127.0.0.1:{station_port}/ \
                 (authority sha256:{}…). A station never logs into the database: its card holds \
                 its secret.",
                &store
                    .event_server()
                    .expect("read")
                    .expect("recorded")
                    .authority[..16]
            )
        ),
        "{:?}",
        all_text(&h)
    );
    // A station made here has its card.
    type_into(&mut h, "New station", "hall-a");
    type_into(&mut h, "tables", "1-2");
    click(&mut h, "Add the station");
    assert!(
        has_text(&h, &format!("https://127.0.0.1:{station_port}/hall-a")),
        "{:?}",
        all_text(&h)
    );
    // Closing the desk stops the server.
    h.state_mut().closing();
    assert!(!h.state().hosts_the_event());
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "PostgreSQL still accepts connections"
    );
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", station_port)).is_err(),
        "the stations' API still accepts connections"
    );
    drop(h);

    // The next day: a desk on the file starts that folder's server again, its event as the
    // server kept it (the station made there is still there), without copying the file.
    let mut h = desk(
        Store::open(&file).expect("the event file"),
        Page::Stations,
        Some(tid),
        &Rc::new(Cell::new(START_MS)),
    );
    fill_form(&mut h, &dir, (port, station_port, pages_port));
    click(&mut h, "Start this folder's server and go on there");
    until_shown(&mut h, "the desk to go on on the folder's server", &running);
    let store = h.state().store().expect("the desk's store");
    assert_eq!(
        store
            .stations()
            .expect("stations")
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>(),
        vec!["hall-a"]
    );
    assert_eq!(store.registrations(tid).expect("players").len(), 4);
    h.state_mut().closing();
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}
