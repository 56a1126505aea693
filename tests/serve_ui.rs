//! The desk's Settings page starts and stops the public pages on the database it has open,
//! shows the address phones open, and says what is wrong with a bad address.

mod common;
mod serve_support;

use common::{START_MS, all_text, click};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ggdesk::store::Store;
use ggdesk::ui::{DeskApp, Page};
use std::cell::Cell;
use std::rc::Rc;

fn set_listen(h: &mut Harness<'_, DeskApp>, text: &str) {
    let field = h.get_by_label("Listen on");
    field.focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Listen on").type_text(text);
    h.run();
}

fn shown_url(h: &Harness<'_, DeskApp>) -> Option<String> {
    all_text(h)
        .into_iter()
        .find(|t| t.starts_with("http://") && t.ends_with('/'))
}

#[test]
fn settings_start_the_public_pages_show_their_address_and_stop_them() {
    let (_dir, path, store, _tid) = serve_support::event_with(&["Reyes, Ana", "Cruz, Ben"], 3);
    drop(store);
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = common::desk(
        Store::open(&path).expect("store"),
        Page::Settings,
        None,
        &clock,
    );
    assert!(all_text(&h).iter().any(|t| t == "Public pages"));
    set_listen(&mut h, "nowhere");
    click(&mut h, "Start the public pages");
    assert!(
        all_text(&h)
            .iter()
            .any(|t| t.contains("is not an address to listen on")),
        "{:?}",
        all_text(&h)
    );
    set_listen(&mut h, "127.0.0.1:0");
    click(&mut h, "Start the public pages");
    let url = shown_url(&h).unwrap_or_else(|| panic!("no address among {:?}", all_text(&h)));
    let addr: std::net::SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .expect("an address");
    let page = serve_support::get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Hall Open 2026"));
    // The desk keeps drawing while the server serves: frames go on.
    for _ in 0..3 {
        h.run();
    }
    click(&mut h, "Stop the public pages");
    assert!(h.query_by_label("Start the public pages").is_some());
    let after = std::net::TcpStream::connect(addr).map_err(|e| e.kind());
    assert_eq!(
        after.err(),
        Some(std::io::ErrorKind::ConnectionRefused),
        "stopped: the port is closed"
    );
}

#[test]
fn a_database_in_memory_has_no_public_pages() {
    let clock = Rc::new(Cell::new(START_MS));
    let h = common::desk(
        Store::open_in_memory().expect("store"),
        Page::Settings,
        None,
        &clock,
    );
    assert!(
        all_text(&h)
            .iter()
            .any(|t| t.contains("the public pages need a database file"))
    );
    assert!(h.query_by_label("Start the public pages").is_none());
}
