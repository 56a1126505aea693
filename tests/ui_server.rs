//! The desk on an event server: a change at another desk shows by itself, the Tables
//! overview names each table's station, the Stations page makes a station of the API with
//! its card (and none where no event server runs, saying why), a lost connection is said on
//! every page until the desk has reconnected by itself, and a page that could not read
//! meanwhile reads again then. (An arbiter station's own desk is a client of the stations'
//! API: `station_desk.rs`.)

mod common;
#[path = "support/event.rs"]
mod event;
#[path = "support/pg.rs"]
mod pg;
#[path = "support/wait.rs"]
mod wait;

use common::{START_MS, all_text, click, desk, go, has_text, type_into};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use event::{connect, event_with_round, table_game_from};
use ggdesk::store::Actor;
use ggdesk::store::TournamentId;
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::tournament::{GameResult, RoundNo, TableNo};
use std::cell::Cell;
use std::rc::Rc;

/// A tournament of `n` players with round 1 published, on the server.
fn event(url: &str, n: u32) -> TournamentId {
    event_with_round(&mut connect(url), n)
}

/// The desk on the server at `url`, showing `page` of tournament `tid`.
fn server_desk(url: &str, page: Page, tid: TournamentId) -> Harness<'static, DeskApp> {
    desk(connect(url), page, Some(tid), &Rc::new(Cell::new(START_MS)))
}

/// Runs frames (with real time passing: the server's notices are real) until `done`; fails
/// after a generous bound ([`wait::BOUND`]) naming `what` was awaited and what the desk
/// shows then.
fn until(
    h: &mut Harness<'_, DeskApp>,
    what: &str,
    mut done: impl FnMut(&Harness<'_, DeskApp>) -> bool,
) {
    let h = std::cell::RefCell::new(h);
    wait::until_or(
        what,
        || {
            let mut h = h.borrow_mut();
            h.run();
            done(&h)
        },
        || format!("the desk shows {:?}", all_text(&h.borrow())),
    );
}

#[test]
fn a_result_entered_at_another_desk_appears_in_the_directors_round() {
    let url = pg::new_database();
    let tid = event(&url, 8);
    let mut h = server_desk(&url, Page::Rounds, tid);
    assert!(!has_text(&h, "1-0"), "{:?}", all_text(&h));
    // Another desk enters the result of the last table.
    let mut other = connect(&url);
    let view = other
        .round_view(tid, RoundNo(1))
        .expect("view")
        .expect("round");
    let board = view.boards.last().expect("a board");
    other
        .set_result(
            tid,
            RoundNo(1),
            board.board,
            GameResult::WhiteWins,
            "",
            &Actor::director(),
        )
        .expect("result");
    until(&mut h, "the director's round shows the result", |h| {
        has_text(h, "1-0")
    });
}

#[test]
fn the_tables_show_each_tables_station() {
    let url = pg::new_database();
    let tid = event(&url, 8);
    let mut director = connect(&url);
    director
        .add_station("hall-a", tid, &[TableNo(1), TableNo(2)], &Actor::director())
        .expect("station");
    let mut h = server_desk(&url, Page::Tables, tid);
    h.run();
    assert!(has_text(&h, "Table 1 · hall-a"), "{:?}", all_text(&h));
    assert!(has_text(&h, "Table 3"), "the director sees every table");
    // The footer names the server, never its password.
    let shown = url.replace(&format!(":{}@", pg::SUPERUSER_PASSWORD), "@");
    assert_ne!(shown, url, "the test's URL has a password to hide");
    assert!(
        has_text(&h, &format!("Database: {shown}")),
        "{:?}",
        all_text(&h)
    );
    assert!(
        !all_text(&h)
            .iter()
            .any(|t| t.contains(pg::SUPERUSER_PASSWORD)),
        "no password on screen"
    );
}

/// A station speaks to the event server `ggdesk host` runs, with its card: on a server with
/// none, the page makes no station (and never a database login) and says why.
#[test]
fn where_no_event_server_runs_the_stations_page_makes_no_station_and_says_why() {
    let url = pg::new_database();
    let tid = event(&url, 6);
    let director = connect(&url);
    let mut h = server_desk(&url, Page::Stations, tid);
    type_into(&mut h, "New station", "hall-b");
    type_into(&mut h, "tables", "2-3");
    click(&mut h, "Add the station");
    assert!(
        has_text(
            &h,
            "this database has no event server: start it with ggdesk host"
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(
        !all_text(&h).iter().any(|t| t.starts_with("postgres://")),
        "no database login is shown"
    );
    assert!(director.stations().expect("stations").is_empty());
}

#[test]
fn a_lost_connection_is_said_on_every_page_until_the_desk_reconnects_by_itself() {
    let server = pg::own_cluster("desk-lost");
    let url = server.url("postgres");
    let tid = event(&url, 4);
    // A game runs at table 1: its clocks are stored every second while connected.
    table_game_from(&mut connect(&url), tid, 1, &Actor::director(), START_MS).expect("game");
    let clock = Rc::new(Cell::new(START_MS));
    let mut h = desk(connect(&url), Page::Tables, Some(tid), &clock);
    assert!(has_text(&h, "PLAYING"), "{:?}", all_text(&h));
    go(&mut h, Page::Rounds);
    assert!(!has_text(&h, "NOT CONNECTED: nothing is being saved."));
    server.stop();
    until(
        &mut h,
        "the desk to show \"NOT CONNECTED: nothing is being saved.\"",
        |h| has_text(h, "NOT CONNECTED: nothing is being saved."),
    );
    for page in [Page::Players, Page::Tables, Page::Standings] {
        go(&mut h, page);
        assert!(
            has_text(&h, "NOT CONNECTED: nothing is being saved."),
            "{page:?}: {:?}",
            all_text(&h)
        );
    }
    // The running game's heartbeat fails quietly, and a page that cannot read says only
    // that: the red line says the rest once, and the database is not called damaged.
    for _ in 0..5 {
        clock.set(clock.get() + 1_000);
        h.run();
    }
    let texts = all_text(&h);
    assert!(
        !texts
            .iter()
            .any(|t| t.contains("nothing is being saved") && !t.starts_with("NOT CONNECTED")),
        "{texts:?}"
    );
    assert!(
        !texts
            .iter()
            .any(|t| t.contains("The database could not be read")),
        "{texts:?}"
    );
    assert!(
        has_text(&h, "Not shown while the desk is not connected"),
        "{texts:?}"
    );
    server.start();
    until(
        &mut h,
        "the desk to stop showing \"NOT CONNECTED: nothing is being saved.\"",
        |h| !has_text(h, "NOT CONNECTED: nothing is being saved."),
    );
    assert!(has_text(&h, "Connected again"), "{:?}", all_text(&h));
}

#[test]
fn the_directors_desk_warns_when_commits_have_no_synchronous_standby() {
    let url = pg::new_database();
    let tid = event(&url, 4);
    let mut h = server_desk(&url, Page::Rounds, tid);
    until(
        &mut h,
        "the desk to show \"WARNING: commits are acknowledged without a synchronous standby\"",
        |h| {
            has_text(
                h,
                "WARNING: commits are acknowledged without a synchronous standby",
            )
        },
    );
    assert!(has_text(&h, "primary"), "{:?}", all_text(&h));
}

#[test]
fn a_page_that_could_not_read_while_offline_reads_again_once_reconnected() {
    let server = pg::own_cluster("desk-banner");
    let url = server.url("postgres");
    let tid = event(&url, 4);
    let mut h = server_desk(&url, Page::Rounds, tid);
    let stamp = connect(&url).change_stamp().expect("stamp");
    server.stop();
    until(
        &mut h,
        "the desk to show \"NOT CONNECTED: nothing is being saved.\"",
        |h| has_text(h, "NOT CONNECTED: nothing is being saved."),
    );
    // A page first shown while offline cannot read: it says so.
    go(&mut h, Page::Standings);
    assert!(
        has_text(&h, "Not shown while the desk is not connected"),
        "{:?}",
        all_text(&h)
    );
    server.start();
    until(
        &mut h,
        "the desk to stop showing \"NOT CONNECTED: nothing is being saved.\"",
        |h| !has_text(h, "NOT CONNECTED: nothing is being saved."),
    );
    // Nothing was written meanwhile (the change stamp is the same, and a server desk has
    // no two-second poll), yet the page reads again once connected.
    until(
        &mut h,
        "the desk to stop showing \"Not shown while the desk is not connected\"",
        |h| !has_text(h, "Not shown while the desk is not connected"),
    );
    assert_eq!(
        connect(&url).change_stamp().expect("stamp"),
        stamp,
        "no write was needed"
    );
    assert!(has_text(&h, "Player 0"), "{:?}", all_text(&h));
}

/// On a server, a transaction may take its audit row before another desk's and commit after
/// it: the database's highest audit id (its change stamp) then does not move when it
/// commits. The director's page shows its change all the same, from the server's notice.
#[test]
fn a_change_committed_after_a_later_numbered_one_still_shows() {
    let url = pg::new_database();
    let tid = event(&url, 4);
    let mut h = server_desk(&url, Page::Players, tid);
    // A slow desk adds a player and takes its audit row, and has not committed yet.
    let mut slow = postgres::Client::connect(&url, postgres::NoTls).expect("client");
    let mut tx = slow.transaction().expect("begin");
    tx.batch_execute(
        "INSERT INTO players (name, federation_id, club, rating, created_at)
             VALUES ('Slow Player', '', '', 1000, 0);
         INSERT INTO audit_log (at, actor, action, details)
             VALUES (0, 'director', 'player added', 'Slow Player');",
    )
    .expect("the slow desk's writes");
    // Meanwhile another desk adds a player and commits (a higher audit id).
    connect(&url)
        .add_player(
            &ggdesk::store::PlayerInput {
                name: "Quick Player".into(),
                ..Default::default()
            },
            &Actor::director(),
        )
        .expect("quick player");
    until(&mut h, "the desk to show \"Quick Player\"", |h| {
        has_text(h, "Quick Player")
    });
    tx.commit().expect("the slow desk commits");
    until(&mut h, "the desk to show \"Slow Player\"", |h| {
        has_text(h, "Slow Player")
    });
}

/// m1: while another desk floods the server with commits (each one a change notice), the
/// desk reloads its pages at most once per `COALESCE_MS` (of real time: its clock may be set),
/// yet goes on reloading while the flood lasts, and nothing waits unshown after it.
#[test]
fn a_flood_of_change_notices_reloads_the_desk_at_most_once_per_coalescing_time() {
    use ggdesk::store::PlayerInput;
    use ggdesk::ui::live::{COALESCE_MS, Live};
    let url = pg::new_database();
    let desk_store = connect(&url);
    let mut writer = connect(&url);
    let ctx = egui::Context::default();
    let mut live = Live::default();
    let mut now = START_MS;
    live.frame(&desk_store, &ctx, now);
    wait::until("the desk to listen to the server's notices", || {
        live.listening()
    });
    now += 5_000;
    live.frame(&desk_store, &ctx, now);
    // The flood lasts at least four coalescing times however fast the machine commits, so
    // that it spans several reloads.
    let lasts = std::time::Duration::from_millis(4 * COALESCE_MS);
    let flood = std::thread::spawn(move || {
        let began = std::time::Instant::now();
        let mut i = 0;
        while i < 300 || began.elapsed() < lasts {
            let input = PlayerInput {
                name: format!("Flood {i}"),
                federation_id: format!("FL-{i:04}"),
                club: String::new(),
                rating: 1500,
            };
            writer
                .add_player(&input, &Actor::director())
                .expect("a commit of the flood");
            i += 1;
        }
    });
    // Frames as fast as the machine gives them (the desk's clock 10 ms on each) while the
    // flood lasts, and 300 after (past the quiet poll of the desk's clock) and a second.
    let mut reloads = Vec::new();
    let mut after_the_flood = 0;
    let mut flood_ended = None;
    let settled = std::time::Duration::from_millis(4 * COALESCE_MS);
    let began = std::time::Instant::now();
    while after_the_flood < 300
        || flood_ended.is_none_or(|t: std::time::Instant| t.elapsed() < settled)
    {
        now += 10;
        // The frame's reload happens between these two instants.
        let before = std::time::Instant::now();
        if live.frame(&desk_store, &ctx, now).changed {
            reloads.push((before, std::time::Instant::now()));
        }
        if flood.is_finished() {
            after_the_flood += 1;
            flood_ended.get_or_insert_with(std::time::Instant::now);
        }
        assert!(began.elapsed() < wait::BOUND, "the flood never ended");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    flood.join().expect("the flood");
    assert!(reloads.len() >= 2, "{reloads:?}");
    // Nothing of the flood waits unshown.
    assert!(!live.holds_a_change());
    let apart: Vec<u128> = reloads
        .windows(2)
        .map(|pair| (pair[1].1 - pair[0].0).as_millis())
        .collect();
    assert!(
        apart.iter().all(|ms| *ms >= u128::from(COALESCE_MS)),
        "reloads closer than {COALESCE_MS} ms: {apart:?} ms apart"
    );
}

/// On an event `ggdesk host` runs (its event server recorded), the Stations page makes
/// stations of the API, not database logins: a station of the chosen tournament whose card
/// (address, station, secret, authority, link) is shown once and saved as a private PDF to
/// print; its secret opens the station and nothing else; "New secret" gives a new card and
/// the old secret stops.
#[test]
fn on_a_hosted_event_the_stations_page_makes_a_station_of_the_api_and_its_card() {
    use ggdesk::store::{EventServer, Station};
    use std::os::unix::fs::PermissionsExt;
    let url = pg::new_database();
    let tid = event(&url, 6);
    let mut director = connect(&url);
    let server = EventServer {
        stations_address: "https://127.0.0.1:8443/".into(),
        authority: "ab".repeat(32),
    };
    director
        .set_event_server(&server)
        .expect("the event server");
    let (mut h, opened) = common::desk_recording(
        connect(&url),
        Page::Stations,
        Some(tid),
        &Rc::new(Cell::new(START_MS)),
    );
    assert!(
        has_text(
            &h,
            "This event's server runs the stations' HTTPS API at https://127.0.0.1:8443/ \
             (authority sha256:abababababababab…). A station never logs into the database: its \
             card holds its secret."
        ),
        "{:?}",
        all_text(&h)
    );
    type_into(&mut h, "New station", "hall-b");
    type_into(&mut h, "tables", "2-3");
    click(&mut h, "Add the station");
    let texts = all_text(&h);
    assert!(
        !texts.iter().any(|t| t.starts_with("postgres://")),
        "no database login is shown: {texts:?}"
    );
    let stations = director.stations().expect("stations");
    let hall_b: &Station = stations
        .iter()
        .find(|s| s.name == "hall-b")
        .expect("the station is made");
    assert_eq!(hall_b.tournament, tid);
    assert_eq!(hall_b.tables, vec![TableNo(2), TableNo(3)]);
    // The card's lines; the secret in groups of four.
    for line in [
        "https://127.0.0.1:8443/",
        "sha256:abababababababab",
        "https://127.0.0.1:8443/hall-b",
    ] {
        assert!(has_text(&h, line), "{line} in {texts:?}");
    }
    let grouped = texts
        .iter()
        .find(|t| t.len() == 39 && t.split([' ', '\n']).all(|g| g.len() == 4))
        .expect("the secret, shown once")
        .clone();
    let secret: String = grouped.split([' ', '\n']).collect();
    assert!(
        director
            .station_by_secret("hall-b", &secret)
            .expect("the secret checked")
            .is_some()
    );
    // Saved as a PDF readable by its owner only, and opened to print.
    let dir = tempfile::tempdir().expect("dir");
    let pdf = dir.path().join("cards").join("hall-b.pdf");
    // The field holds a path in the user's data folder: replaced by the test's.
    assert!(
        has_text(
            &h,
            &format!(
                "{}",
                ggdesk::store::Store::default_path()
                    .and_then(|p| p.parent().map(|d| d.join("cards").join("hall-b.pdf")))
                    .expect("a data folder")
                    .display()
            )
        ),
        "{:?}",
        all_text(&h)
    );
    h.get_by_label("Save the card as").focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Save the card as")
        .type_text(&pdf.display().to_string());
    h.run();
    click(&mut h, "Save and open the PDF");
    let bytes = std::fs::read(&pdf).expect("the card is written");
    assert!(bytes.starts_with(b"%PDF-"));
    assert_eq!(
        std::fs::metadata(&pdf).expect("meta").permissions().mode() & 0o777,
        0o600
    );
    assert_eq!(opened.borrow().as_slice(), std::slice::from_ref(&pdf));
    click(&mut h, "Done: hide the secret");
    assert!(!all_text(&h).contains(&grouped), "the secret is shown once");
    // A new secret: a new card, the old secret stops.
    click(&mut h, "New secret");
    click(
        &mut h,
        "New secret: its desk stops until it uses the new card",
    );
    assert!(
        has_text(
            &h,
            "Station hall-b has a new secret, shown only now: print its new card (the old card \
             no longer works)."
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(
        director
            .station_by_secret("hall-b", &secret)
            .expect("the old secret checked")
            .is_none()
    );
    let grouped = all_text(&h)
        .into_iter()
        .find(|t| t.len() == 39 && t.split([' ', '\n']).all(|g| g.len() == 4))
        .expect("the new secret, shown once");
    let renewed: String = grouped.split([' ', '\n']).collect();
    assert!(
        director
            .station_by_secret("hall-b", &renewed)
            .expect("the new secret checked")
            .is_some()
    );
    click(&mut h, "Done: hide the secret");
    // Removed: its row goes and its secret opens nothing.
    click(&mut h, "Remove");
    click(&mut h, "Remove: its desk stops");
    assert!(has_text(&h, "Station hall-b removed"), "{:?}", all_text(&h));
    assert!(director.stations().expect("stations").is_empty());
    assert!(
        director
            .station_by_secret("hall-b", &renewed)
            .expect("the new secret checked")
            .is_none()
    );
}
