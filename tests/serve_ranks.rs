//! Never a rank: with games in progress at the desk (setups entered, challenges made, a game
//! in adjudication with a reading sheet, a physical board whose challenge the arbiter saw),
//! every page and API answer, headers included, is scanned for every piece code and rank
//! name. No player or tournament name holds one, so any hit is a leak.

mod serve_support;

use ggdesk::rules::Rank;
use ggdesk::store::Store;
use serve_support::{every_path, get, hall, ranks_in, rated_event, raw, request, serve};

/// Moves as a record writes them (`c3-c4`): a page showing one tells about a game.
fn moves_in(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let square = |i: usize| {
        b.get(i).is_some_and(|c| (b'a'..=b'i').contains(c))
            && b.get(i + 1).is_some_and(|c| (b'1'..=b'8').contains(c))
    };
    (0..b.len())
        .filter(|&i| square(i) && b.get(i + 2) == Some(&b'-') && square(i + 3))
        .map(|i| String::from_utf8_lossy(&b[i..i + 5]).into_owned())
        .collect()
}

#[test]
fn the_scan_finds_every_code_and_name_and_nothing_in_the_test_data() {
    for rank in Rank::ALL {
        let found = ranks_in(&format!("x {} y", rank.code()));
        assert!(found.contains(&rank.code().to_string()), "{found:?}");
        assert!(
            ranks_in(&format!("<td>{}</td>", rank.name().to_uppercase()))
                .contains(&rank.name().to_string()),
            "{}",
            rank.name()
        );
    }
    assert_eq!(moves_in("{\"move\":\"c3-c4\"}"), ["c3-c4"]);
    for name in serve_support::NAMES {
        assert!(ranks_in(name).is_empty(), "{name}");
    }
    assert!(ranks_in("Hall Open 2026 QC Club").is_empty());
}

#[test]
fn no_page_or_api_answer_reveals_a_rank_a_setup_a_move_or_a_reading() {
    let h = hall();
    // The games hold what must not leak: the scan finds it in their records.
    let store = Store::open(&h.path).expect("store");
    for &(table, game) in &h.games {
        let record = store.export_game(game).expect("export").to_string();
        if table != 6 {
            assert!(
                !ranks_in(&record).is_empty(),
                "table {table}'s record has ranks"
            );
        }
    }
    let sheet = store.load_game(h.games[1].1).expect("game").sheets;
    assert!(sheet.white.is_some(), "table 2 has a reading sheet");
    drop(store);

    // A rated event beside it: the rating pages are scanned too.
    let rating_paths = rated_event(&h.path);

    let server = serve(&h.path);
    let addr = server.addr();
    let mut paths = every_path(h.tid, h.round, 12);
    for path in &rating_paths {
        assert_eq!(get(addr, path).status, 200, "{path}: a rating page to scan");
    }
    paths.extend(rating_paths);
    paths.extend([
        "/nowhere".into(),
        "/api/nowhere".into(),
        "/t/1/player/99".into(),
        "/ratings/player/PH-0099".into(),
    ]);
    let mut checked = 0;
    for path in &paths {
        for method in ["GET", "HEAD"] {
            let r = request(addr, method, path, "");
            assert!(
                r.status == 200 || r.status == 404,
                "{method} {path}: {}",
                r.head
            );
            let whole = format!("{}\r\n\r\n{}", r.head, r.body);
            assert_eq!(
                ranks_in(&whole),
                Vec::<String>::new(),
                "{method} {path}:\n{whole}"
            );
            assert_eq!(moves_in(&whole), Vec::<String>::new(), "{method} {path}");
            checked += 1;
        }
    }
    assert!(checked > 60, "{checked} answers scanned");
    // The refusals too.
    for bad in [
        &b"BREW /t/1 HTTP/1.1\r\nHost: x\r\n\r\n"[..],
        b"GET /t/1 HTTP/1.1\r\n\r\n",
        b"GET /t/1 HTTP/9.9\r\nHost: x\r\n\r\n",
    ] {
        let text = raw(addr, bad);
        assert_eq!(ranks_in(&text), Vec::<String>::new(), "{text}");
    }
    // The decided game's result is public; how it was decided is not.
    let round = get(addr, &format!("/api/t/{}/round", h.tid)).body;
    assert!(round.contains("\"result\":\"white\""), "{round}");
    assert!(!round.contains("resign"), "{round}");
}
