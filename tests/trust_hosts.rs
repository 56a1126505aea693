//! Issue 23, item 5, at a desk on an event server named by several hosts: a dead host's
//! line does not say that nothing is saved while the desk saves on the other host.
//! (What a station's desk shows is its own on the stations' API: `station_desk.rs`.)

mod common;
#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/trust.rs"]
mod trust;

use common::{START_MS, all_text, click, desk, has_text, until};
use event::connect;
use ggdesk::ui::Page;
use ggdesk_core::tournament::RoundNo;
use std::cell::Cell;
use std::rc::Rc;

#[test]
fn a_dead_hosts_line_does_not_say_nothing_is_saved_while_the_desk_saves_on_the_other() {
    let ev = trust::event();
    // A port nobody listens on: the address's first host is dead, its second the server.
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("its address")
        .port();
    let port = pg::cluster().port;
    let url = ev.url.replace(
        &format!("127.0.0.1:{port}"),
        &format!("127.0.0.1:{dead},127.0.0.1:{port}"),
    ) + "?target_session_attrs=read-write";
    let clock = Rc::new(Cell::new(START_MS + 5_000));
    let mut h = desk(connect(&url), Page::Rounds, Some(ev.open), &clock);
    assert!(
        until(&mut h, |h| has_text(
            h,
            &format!("127.0.0.1:{dead}: unreachable")
        )),
        "the dead host's line: {:?}",
        all_text(&h)
    );
    let said = all_text(&h);
    let line = said
        .iter()
        .find(|t| t.contains(&format!("127.0.0.1:{dead}: unreachable")))
        .expect("the line");
    assert!(!line.contains("nothing is being saved"), "{line}");
    assert!(
        said.iter()
            .any(|t| t == "This desk is connected and saving."),
        "{said:?}"
    );
    assert!(
        !said.iter().any(|t| t.contains("NOT CONNECTED")),
        "{said:?}"
    );
    // It does save: a start time set on Rounds is in the database.
    click(&mut h, "Start the round now");
    let view = ev
        .director
        .round_view(ev.open, RoundNo(1))
        .expect("view")
        .expect("round");
    assert!(view.starts_at.is_some(), "{:?}", all_text(&h));
}
