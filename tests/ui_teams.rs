//! The Teams page (F12, issue 33 item 3): a team event's teams and rosters in board order,
//! built at the desk before the first round (teams added, renamed and removed; registry
//! players put in, moved a board up, made captain, taken out), a team players CSV checked
//! row by row before anything is saved, and the page's refusals in the core's words.

mod common;

use common::{START_MS, all_text, click, desk, go, has_text, store, type_into};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ggdesk::store::{Actor, AuditFilter, PlayerInput, Store, TournamentId};
use ggdesk::ui::{DeskApp, Page};
use ggdesk_core::rules::RuleSettings;
use ggdesk_core::teams::{TeamEvent, TeamId, TeamShape};
use ggdesk_core::tournament::{PlayerId, PointsScale, TableNo};
use std::cell::Cell;
use std::path::Path;
use std::rc::Rc;

fn clock() -> Rc<Cell<i64>> {
    Rc::new(Cell::new(START_MS))
}

/// A team Swiss of two boards and four registry players.
/// A team example of tests/fixtures/teams, as its file.
fn team_fixture(name: &str) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/teams")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).expect("reads")).expect("JSON")
}

/// Imports a tournament file: its tournament.
fn imported(s: &mut Store, file: &serde_json::Value) -> TournamentId {
    s.import_tournament(file, &Actor::director())
        .expect("imported")
}

fn team_swiss(s: &mut Store) -> TournamentId {
    for (name, rating) in [
        ("Reyes, Ana", 1710),
        ("Cruz, Ben", 1600),
        ("Lim, Cid", 1500),
        ("Tan, Dee", 1400),
    ] {
        s.add_player(
            &PlayerInput {
                name: name.into(),
                federation_id: String::new(),
                club: "Tondo".into(),
                rating,
            },
            &Actor::director(),
        )
        .expect("added");
    }
    let e = TeamEvent::preset(
        TeamShape::Swiss,
        "Inter-Club Cup",
        PointsScale::default(),
        2,
        5,
    );
    s.create_team_event(&e, &RuleSettings::default(), &Actor::director())
        .expect("created")
}

fn roster(h: &Harness<'_, DeskApp>, tid: TournamentId, team: u32) -> Vec<String> {
    let e = store(h)
        .team_event(tid)
        .expect("read")
        .expect("a team event");
    e.team(TeamId(team))
        .expect("team")
        .roster
        .iter()
        .filter_map(|p| e.player(*p).map(|p| p.name.clone()))
        .collect()
}

fn pick_file(h: &mut Harness<'_, DeskApp>, path: &Path) {
    click(h, "Choose a CSV file…");
    type_into(
        h,
        "File (a name here, or a whole path):",
        path.to_str().expect("path"),
    );
    click(h, "Open");
}

#[test]
fn a_team_is_built_in_board_order_with_its_captain() {
    let mut s = Store::open_in_memory().expect("store");
    let tid = team_swiss(&mut s);
    let clock = clock();
    let mut h = desk(s, Page::Teams, Some(tid), &clock);
    assert!(
        has_text(
            &h,
            "Next: add the teams on the right, or import a CSV file of the teams' players"
        ),
        "{:?}",
        all_text(&h)
    );
    type_into(&mut h, "Team name:", "Tondo Tigers");
    click(&mut h, "Add team");
    assert!(
        has_text(&h, "Team Tondo Tigers added"),
        "{:?}",
        all_text(&h)
    );
    // The team added is the one chosen: its players come from the registry.
    click(&mut h, "Add Lim, Cid");
    click(&mut h, "Add Reyes, Ana");
    click(&mut h, "Add Tan, Dee");
    assert_eq!(roster(&h, tid, 1), ["Lim, Cid", "Reyes, Ana", "Tan, Dee"]);
    assert!(has_text(&h, "Board 1: Lim, Cid · 1500 · Tondo"));
    assert!(has_text(&h, "Reserve 1: Tan, Dee · 1400 · Tondo"));
    click(&mut h, "Board 2: Reyes, Ana · 1710 · Tondo");
    click(&mut h, "Move up a board");
    click(&mut h, "Make captain");
    assert_eq!(roster(&h, tid, 1), ["Reyes, Ana", "Lim, Cid", "Tan, Dee"]);
    assert!(
        has_text(&h, "Board 1: Reyes, Ana · 1710 · Tondo · captain"),
        "{:?}",
        all_text(&h)
    );
    // A second team with the same name is refused in the core's words, and nothing changes.
    type_into(&mut h, "Team name:", "tondo tigers");
    click(&mut h, "Add team");
    assert!(
        has_text(&h, "there is already a team named tondo tigers"),
        "{:?}",
        all_text(&h)
    );
    let e = store(&h).team_event(tid).expect("read").expect("team");
    assert_eq!(e.teams.len(), 1);
    assert_eq!(e.teams[0].captain, Some(PlayerId(2)));
    // Taking a player out asks first.
    click(&mut h, "Reserve 1: Tan, Dee · 1400 · Tondo");
    click(&mut h, "Take out of the team");
    click(&mut h, "Take out");
    assert_eq!(roster(&h, tid, 1), ["Reyes, Ana", "Lim, Cid"]);
    let actions: Vec<String> = store(&h)
        .audit_log(AuditFilter::Tournament(tid))
        .expect("audit")
        .into_iter()
        .map(|a| a.action)
        .collect();
    assert_eq!(
        actions,
        [
            "tournament created",
            "team added",
            "team player added",
            "team player added",
            "team player added",
            "roster reordered",
            "team captain set",
            "team player removed",
        ]
    );
}

#[test]
fn a_team_is_renamed_and_removed() {
    let mut s = Store::open_in_memory().expect("store");
    let tid = team_swiss(&mut s);
    s.add_team(tid, "Tigers", &Actor::director()).expect("team");
    let clock = clock();
    let mut h = desk(s, Page::Teams, Some(tid), &clock);
    click(&mut h, "Tigers");
    assert!(
        has_text(&h, "Next: Tigers has 0 of the 2 players a team fields"),
        "{:?}",
        all_text(&h)
    );
    type_into(&mut h, "Name:", " Eagles");
    click(&mut h, "Rename the team");
    assert!(
        has_text(&h, "Team renamed Tigers Eagles"),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Tigers Eagles");
    click(&mut h, "Remove the team");
    assert!(has_text(
        &h,
        "Tigers Eagles and its 0 player(s) leave the event"
    ));
    click(&mut h, "Remove");
    let e = store(&h).team_event(tid).expect("read").expect("team");
    assert!(e.teams.is_empty(), "{:?}", all_text(&h));
}

#[test]
fn a_teams_csv_is_shown_row_by_row_and_saved_only_when_every_row_is_right() {
    let dir = tempfile::tempdir().expect("dir");
    let mut s = Store::open(&dir.path().join("event.sqlite3")).expect("store");
    let tid = team_swiss(&mut s);
    let bad = dir.path().join("bad.csv");
    std::fs::write(
        &bad,
        "team,name,federation_id,club,rating\n,Ed Go,,,1500\nEagles,Fe Uy,,,x\n",
    )
    .expect("write");
    let good = dir.path().join("teams.csv");
    std::fs::write(
        &good,
        "team,name,federation_id,club,rating\n\
         Eagles,Ed Go,PH-5,Makati,1500\n\
         Eagles,Fe Uy,,,1450\n\
         Sharks,Gil Ong,,,1300\n",
    )
    .expect("write");
    let clock = clock();
    let mut h = desk(s, Page::Teams, Some(tid), &clock);
    pick_file(&mut h, &bad);
    assert!(
        has_text(
            &h,
            "2 bad rows: fix the file and preview again. Nothing was saved."
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "line 2: the team is empty"));
    assert!(has_text(
        &h,
        "line 3: the rating \"x\" is not a whole number"
    ));
    pick_file(&mut h, &good);
    assert!(
        has_text(&h, "3 players ready to import"),
        "{:?}",
        all_text(&h)
    );
    assert!(
        has_row(&h, &["2", "Eagles", "Ed Go", "PH-5", "Makati", "1500"]),
        "{:?}",
        all_text(&h)
    );
    // An empty cell is shown as a dash (the two dashes are one text to `has_row`, which
    // drops a text repeated).
    assert!(
        has_row(&h, &["3", "Eagles", "Fe Uy", "-", "1450"]),
        "{:?}",
        all_text(&h)
    );
    let before = store(&h).players().expect("registry").len();
    click(&mut h, "Import 3 players");
    let e = store(&h).team_event(tid).expect("read").expect("team");
    let names: Vec<&str> = e.teams.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Eagles", "Sharks"]);
    assert_eq!(roster(&h, tid, 1), ["Ed Go", "Fe Uy"]);
    assert_eq!(store(&h).players().expect("registry").len(), before + 3);
    assert!(
        has_text(&h, "Board 1: Gil Ong · 1300"),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "1 short"));
}

/// The trial's file: 13 players of four teams, each row with every column filled.
fn thirteen_rows() -> (String, Vec<(String, String)>) {
    let mut csv = String::from("team,name,federation_id,club,rating\n");
    let mut rows = Vec::new();
    for i in 1..=13 {
        let team = [
            "Makati Knights",
            "Quezon City Sharks",
            "Cebu Eagles",
            "Davao Lions",
        ][i % 4];
        let name = format!("Villanueva-Dela Cruz, Maria Teresa {i:02}");
        let rating = format!("{}", 1400 + i);
        csv.push_str(&format!(
            "{team},\"{name}\",PHL-GG-{:05},Metro Manila Generals Club {i},{rating}\n",
            1000 + i
        ));
        rows.push((name, rating));
    }
    (csv, rows)
}

#[test]
fn every_row_of_a_teams_csv_is_shown_in_full_before_the_import() {
    let dir = tempfile::tempdir().expect("dir");
    let mut s = Store::open(&dir.path().join("event.sqlite3")).expect("store");
    let tid = team_swiss(&mut s);
    let file = dir.path().join("thirteen.csv");
    let (csv, rows) = thirteen_rows();
    std::fs::write(&file, csv).expect("write");
    let clock = clock();
    let mut h = desk(s, Page::Teams, Some(tid), &clock);
    pick_file(&mut h, &file);
    assert!(
        has_text(&h, "13 players ready to import"),
        "{:?}",
        all_text(&h)
    );
    // The button under the rows: a row drawn below its top is hidden (the old list showed
    // eight rows in a fixed height and cut each off before its rating).
    let button = h.get_by_label("Import 13 players").rect();
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1366.0, 768.0));
    for (name, rating) in &rows {
        // The rating is a cell of its own, on the row of the name, right of it.
        let (Some(n), Some(r)) = (h.query_by_label(name), h.query_by_label(rating)) else {
            panic!("no {name:?} and {rating:?} among {:?}", all_text(&h));
        };
        let (n, r) = (n.rect(), r.rect());
        for cell in [n, r] {
            assert!(
                screen.contains_rect(cell),
                "{name}: {cell:?} off the screen"
            );
            assert!(
                cell.bottom() <= button.top(),
                "{name}: {cell:?} below the list's end at {button:?}"
            );
        }
        assert!(
            n.y_range().contains(r.center().y) && r.left() > n.right(),
            "{name}: the rating {r:?} is not on the name's row {n:?}"
        );
    }
    // Closed, nothing is saved; chosen again, it is imported.
    click(&mut h, "Close the preview");
    assert!(h.query_by_label("Import 13 players").is_none());
    let e = store(&h).team_event(tid).expect("read").expect("team");
    assert!(e.players.is_empty());
    pick_file(&mut h, &file);
    click(&mut h, "Import 13 players");
    let e = store(&h).team_event(tid).expect("read").expect("team");
    assert_eq!(e.players.len(), 13);
    assert!(h.query_by_label("Import 13 players").is_none());
}

#[test]
fn a_started_event_shows_its_teams_and_changes_none() {
    let mut s = Store::open_in_memory().expect("store");
    let file = team_fixture("team-swiss-with-bye.json");
    let tid = imported(&mut s, &file);
    let clock = clock();
    let h = desk(s, Page::Teams, Some(tid), &clock);
    assert!(
        has_text(
            &h,
            "The event has started: teams and rosters change before its first round only."
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(h.query_by_label("Add team").is_none());
    // The page bar with the Teams page still fits a 1366-pixel laptop screen.
    let keys = h.get_by_label("Keys").rect();
    assert!(keys.right() <= 1366.0, "{keys:?}");
    assert!(h.query_by_label("Choose a CSV file…").is_none());
    assert!(
        has_text(
            &h,
            "9 teams, 36 players · 3 boards: each team fields its first 3, the others are reserves"
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "Reserve 2: Dela Cruz, Ivy 9 · 2180"));
    assert!(has_text(&h, "Board 1: Torres, Nina 1 · 1460 · captain"));
    // The status line says what the desk does with a team event, not that it cannot read it.
    assert!(!has_text(&h, "Could not read"), "{:?}", all_text(&h));
    // Its four rounds of four are played: nothing is left to pair, as the Rounds page says
    // too (the status line once offered to pair the next round of an event that was over).
    let why = TeamEvent::from_value(&file)
        .expect("reads")
        .next_step()
        .expect_err("the event is over")
        .to_string();
    assert!(
        has_text(&h, &format!("all results in; no round to pair: {why}")),
        "{:?}",
        all_text(&h)
    );
    assert!(!has_text(&h, "all results in: pair the next round (F4)"));
}

#[test]
fn an_event_of_players_has_no_teams_and_a_team_events_registration_leads_to_them() {
    let mut s = Store::open_in_memory().expect("store");
    let solo = s
        .create_tournament(
            &ggdesk_core::event::TournamentSetup {
                name: "Open".into(),
                ..Default::default()
            },
            &Actor::director(),
        )
        .expect("created");
    let tid = team_swiss(&mut s);
    let clock = clock();
    let mut h = desk(s, Page::Teams, Some(solo), &clock);
    assert!(
        has_text(
            &h,
            "The chosen tournament is not a team event: its players are registered one by one \
             on the Registration page (F3). A team event is created on the Tournaments page (F2)."
        ),
        "{:?}",
        all_text(&h)
    );
    h.state_mut().prefs.tournament = Some(tid);
    common::go(&mut h, Page::Registration);
    assert!(
        has_text(
            &h,
            "Inter-Club Cup is a team event: its players are registered by team, on the Teams page (F12)."
        ),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Open the Teams page (F12)");
    assert_eq!(h.state().prefs.page, Page::Teams);
}

#[test]
fn a_team_event_is_created_from_each_preset() {
    let clock = clock();
    let mut h = desk(
        Store::open_in_memory().expect("store"),
        Page::Tournaments,
        None,
        &clock,
    );
    type_into(&mut h, "Tournament name:", "Generals League");
    click(&mut h, "By teams");
    click(&mut h, "Generals League (board groups + final)");
    // The boards as typed say what is wrong beside them, and nothing is created.
    type_into(&mut h, "Boards per team:", "x");
    assert!(
        has_text(&h, "Not a whole number (\"3x\")"),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Create tournament");
    assert!(
        has_text(&h, "Boards per team: Not a whole number (\"3x\")"),
        "{:?}",
        all_text(&h)
    );
    assert!(store(&h).tournaments().expect("list").is_empty());
    if let Some(team) = &mut h.state_mut().tournaments.form.team {
        team.boards = "3".into();
    }
    click(&mut h, "Create tournament");
    assert!(
        has_text(
            &h,
            "Generals League created: now build its teams on the Teams page (F12)"
        ),
        "{:?}",
        all_text(&h)
    );
    let list = store(&h).tournaments().expect("list");
    let league = list.first().map(|t| t.id).expect("created");
    let e = store(&h)
        .team_event(league)
        .expect("read")
        .expect("a team event");
    assert_eq!(
        e,
        TeamEvent::preset(
            TeamShape::GeneralsLeague,
            "Generals League",
            PointsScale::default(),
            3,
            5
        )
    );
    assert!(
        has_text(
            &h,
            "Stages: Board groups (board groups, 2 teams go on) > Final (final, every player \
             against every opponent)"
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(
        has_text(
            &h,
            "Team event, no round yet: 0 teams, 0 players; build the teams on the Teams page (F12)"
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(
        &h,
        "Generals League\nteam event; 0 players; 0 rounds started"
    ));

    // A team Swiss of four boards and seven rounds.
    click(&mut h, "New tournament");
    type_into(&mut h, "Tournament name:", "Club Cup");
    click(&mut h, "By teams");
    if let Some(team) = &mut h.state_mut().tournaments.form.team {
        team.boards = "4".into();
        team.rounds = "7".into();
    }
    h.run();
    click(&mut h, "Create tournament");
    let cup = store(&h).tournaments().expect("list")[0].id;
    let e = store(&h).team_event(cup).expect("read").expect("team");
    assert_eq!(
        e,
        TeamEvent::preset(TeamShape::Swiss, "Club Cup", PointsScale::default(), 4, 7)
    );
    click(&mut h, "Open the Teams page (F12)");
    assert_eq!(h.state().prefs.page, Page::Teams);

    // A team round robin.
    common::go(&mut h, Page::Tournaments);
    click(&mut h, "New tournament");
    type_into(&mut h, "Tournament name:", "League");
    click(&mut h, "By teams");
    click(&mut h, "Team round robin");
    assert!(h.query_by_label("Rounds:").is_none(), "one full cycle");
    click(&mut h, "Create tournament");
    let rr = store(&h).tournaments().expect("list")[0].id;
    let e = store(&h).team_event(rr).expect("read").expect("team");
    assert_eq!(
        e,
        TeamEvent::preset(
            TeamShape::RoundRobin,
            "League",
            PointsScale::default(),
            3,
            5
        )
    );
    let actions: Vec<String> = store(&h)
        .audit_log(AuditFilter::Tournament(rr))
        .expect("audit")
        .into_iter()
        .map(|a| format!("{}: {}", a.action, a.details))
        .collect();
    assert_eq!(
        actions,
        ["tournament created: League: team event, 3 boards, stages round_robin"]
    );
}

/// A team Swiss of two boards with three teams (Tigers with a reserve), by CSV.
fn three_teams(s: &mut Store) -> TournamentId {
    let e = TeamEvent::preset(TeamShape::Swiss, "Cup", PointsScale::default(), 2, 3);
    let t = s
        .create_team_event(&e, &RuleSettings::default(), &Actor::director())
        .expect("created");
    let rows = ggdesk_core::export::import_team_players_csv(
        "team,name,federation_id,club,rating\n\
         Tigers,Ana,,,1900\nTigers,Ben,,,1800\nTigers,Cid,,,1700\n\
         Eagles,Dee,,,1600\nEagles,Eve,,,1500\n\
         Sharks,Fay,,,1400\nSharks,Gil,,,1300\n",
    )
    .expect("read");
    s.import_teams(t, &rows, &Actor::director())
        .expect("imported");
    t
}

#[test]
fn a_team_round_is_paired_lined_up_started_and_played_match_by_match() {
    use ggdesk_core::event::RoundState;
    let mut s = Store::open_in_memory().expect("store");
    let tid = three_teams(&mut s);
    let clock = clock();
    let mut h = desk(s, Page::Rounds, Some(tid), &clock);
    assert!(
        has_text(
            &h,
            "Team event, no round yet: 3 teams, 7 players; pair round 1 on the Rounds page (F4)"
        ),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Pair round 1");
    assert!(!has_text(&h, "in play"), "a draft is not in play");
    assert!(
        has_text(&h, "Round 1 paired as a draft: check it and publish it"),
        "{:?}",
        all_text(&h)
    );
    assert!(
        has_text(&h, "Match 1 · Tigers 0 – 0 Eagles"),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "Bye: Sharks"));
    // Board 2 of the match at table 1 is table 2, the home team's player black.
    assert!(has_text(&h, "Board 2 · table 2"));
    assert!(has_text(&h, "White: Eve"));
    assert!(has_text(&h, "Black: Ben"));
    assert!(has_text(&h, "check and publish it on the Rounds page (F4)"));
    click(&mut h, "Publish round 1");
    assert!(has_text(
        &h,
        "line-ups open: start the round on the Rounds page (F4)"
    ));
    // The reserve plays board 2; a line-up out of roster order shows the core's words.
    click(&mut h, "Line-up of Tigers");
    click(&mut h, "Tigers, board 1:");
    click(&mut h, "Cid (Reserve 1)");
    assert!(
        has_text(
            &h,
            "board 2: player 2 plays board 2 but comes after player 3 (board 1) in the roster \
             of team 1: boards follow the roster order"
        ),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Tigers, board 1:");
    click(&mut h, "Ana (Board 1)");
    click(&mut h, "Tigers, board 2:");
    click(&mut h, "Cid (Reserve 1)");
    assert!(has_text(&h, "The line-up follows the roster order"));
    click(&mut h, "Save the line-up of Tigers");
    assert!(has_text(&h, "Black: Cid"), "{:?}", all_text(&h));
    click(&mut h, "Start the round");
    assert!(
        has_text(&h, "2 boards awaiting a result"),
        "{:?}",
        all_text(&h)
    );
    // After the start a change needs its reason.
    click(&mut h, "Line-up of Tigers");
    click(&mut h, "Tigers, board 2:");
    click(&mut h, "Ben (Board 2)");
    assert!(
        h.get_by_label("Save the line-up of Tigers")
            .accesskit_node()
            .is_disabled(),
        "a reason is needed first"
    );
    type_into(&mut h, "Reason for the correction:", "Cid is unwell");
    click(&mut h, "Save the line-up of Tigers");
    assert!(has_text(&h, "Black: Ben"), "{:?}", all_text(&h));
    let corrected = store(&h)
        .audit_log(AuditFilter::Tournament(tid))
        .expect("audit")
        .into_iter()
        .find(|a| a.action == "line-up corrected")
        .map(|a| a.reason);
    assert_eq!(corrected.as_deref(), Some("Cid is unwell"));
    // Results board by board, the match score running.
    click(&mut h, "Result of table 1");
    click(&mut h, "White wins");
    assert!(
        has_text(&h, "Match 1 · Tigers 2 – 0 Eagles"),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Result of table 2");
    click(&mut h, "Draw");
    assert!(
        has_text(&h, "Match 1 · Tigers 3 – 1 Eagles"),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "Tigers win the match"));
    let rounds = store(&h).team_rounds(tid).expect("rounds");
    assert_eq!(rounds[0].state, RoundState::Complete);
    assert!(has_text(&h, "Pair round 2"), "{:?}", all_text(&h));
    assert!(has_text(&h, "Team event · Round 1"));
    assert!(
        has_text(&h, "all results in: pair the next round (F4)"),
        "{:?}",
        all_text(&h)
    );
}

/// Whether the texts on screen hold `row` in a run (a text the screen reader reads twice,
/// as a label and a value, counted once).
fn has_row(h: &Harness<'_, DeskApp>, row: &[&str]) -> bool {
    let mut texts = all_text(h);
    texts.dedup();
    texts
        .windows(row.len())
        .any(|w| w.iter().zip(row).all(|(a, b)| a == b))
}

#[test]
fn team_standings_and_board_prizes_are_the_cores_and_export_as_it_writes_them() {
    let dir = tempfile::tempdir().expect("dir");
    let mut s = Store::open(&dir.path().join("event.sqlite3")).expect("store");
    let file = team_fixture("team-swiss-with-bye.json");
    let tid = imported(&mut s, &file);
    let clock = clock();
    let mut h = desk(s, Page::Standings, Some(tid), &clock);
    // The shared example's first line: rank, team, match points, game points, direct
    // encounter, Buchholz.
    assert!(
        has_row(&h, &["1", "Iloilo Eagles", "9", "16", "3", "29"]),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(
        &h,
        "Ranked by match points, then direct encounter, then Buchholz, then team rating. A \
         match with a board still pending counts nothing yet."
    ));
    // The columns keep their titles.
    assert!(
        all_text(&h).iter().any(|t| t == "Direct encounter"),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Export CSV");
    let e = store(&h).team_event(tid).expect("read").expect("team");
    let written = dir.path().join(format!(
        "exports/team-event-0-{tid}-team-standings-stage-1.csv"
    ));
    assert_eq!(
        std::fs::read_to_string(&written).ok(),
        Some(ggdesk_core::export::team_standings_csv(
            &e.team_standings(None).expect("standings")
        )),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Board prizes");
    assert!(
        has_row(
            &h,
            &["1", "Cruz, Ely 14", "Iloilo Eagles", "3", "6", "100%"]
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "66.67%"));
    click(&mut h, "Export CSV");
    let written = dir
        .path()
        .join(format!("exports/team-event-0-{tid}-board-prizes.csv"));
    assert_eq!(
        std::fs::read_to_string(&written).ok(),
        Some(ggdesk_core::export::board_prizes_csv(&e.board_prizes()))
    );
    // Its rounds, imported complete, are over: nothing to start, nothing to pair.
    common::go(&mut h, Page::Rounds);
    assert!(
        has_text(
            &h,
            "No round to pair: the event is over: every stage has been played"
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(h.query_by_label("Start the round").is_none());
    assert!(has_text(&h, "Match 2 · Iloilo Eagles 4 – 2 Bacolod Spies"));
    assert!(has_text(&h, "Iloilo Eagles win the match"));
}

#[test]
fn a_board_groups_round_is_paired_and_played_game_by_game() {
    let mut s = Store::open_in_memory().expect("store");
    let mut file = team_fixture("board-groups-then-final.json");
    for st in file["stages"].as_array_mut().expect("stages") {
        st["rounds"] = serde_json::json!([]);
    }
    let tid = imported(&mut s, &file);
    let clock = clock();
    let mut h = desk(s, Page::Rounds, Some(tid), &clock);
    assert!(
        has_text(&h, "Board groups: 6 games in the board groups"),
        "{:?}",
        all_text(&h)
    );
    click(&mut h, "Pair round 1");
    assert!(has_text(&h, "Group B1 · table 1"), "{:?}", all_text(&h));
    assert!(has_text(&h, "Group B3 · table 6"));
    click(&mut h, "Publish round 1");
    for table in 1..=6 {
        click(&mut h, &format!("Result of table {table}"));
        click(&mut h, "Draw");
    }
    let rounds = store(&h).team_rounds(tid).expect("rounds");
    assert_eq!(rounds[0].state, ggdesk_core::event::RoundState::Complete);
    assert!(has_text(&h, "Pair round 2"), "{:?}", all_text(&h));
    // The Tables page runs the round's games as tables, each with its players.
    common::go(&mut h, Page::Tables);
    assert!(
        !has_text(&h, "The database could not be read"),
        "{:?}",
        all_text(&h)
    );
    for table in 1..=6 {
        let board = store(&h)
            .board_at(tid, ggdesk_core::tournament::RoundNo(1), TableNo(table))
            .expect("read")
            .expect("a board at the table");
        assert!(
            has_text(&h, &format!("Table {table}")),
            "{:?}",
            all_text(&h)
        );
        assert!(
            has_text(
                &h,
                &format!("{}  vs  {}", board.white.name, board.black.name)
            ),
            "table {table}: {:?}",
            all_text(&h)
        );
    }
}

#[test]
fn a_team_events_bracket_page_shows_its_placement() {
    let mut s = Store::open_in_memory().expect("store");
    let file = team_fixture("board-groups-then-final.json");
    let tid = imported(&mut s, &file);
    let clock = clock();
    let h = desk(s, Page::Bracket, Some(tid), &clock);
    // The example's final has one round of three played: no placement yet, in the core's
    // words, and no banner of a damaged database.
    assert!(
        !has_text(&h, "The database could not be read"),
        "{:?}",
        all_text(&h)
    );
    assert!(
        has_text(&h, "No final placement yet: "),
        "{:?}",
        all_text(&h)
    );
}

#[test]
fn a_team_rounds_prints_are_written_and_opened_from_the_rounds_page() {
    let dir = tempfile::tempdir().expect("dir");
    let mut s = Store::open(&dir.path().join("cup.sqlite3")).expect("store");
    let tid = three_teams(&mut s);
    let d = Actor::director();
    let n = s.pair_team_round(tid, &d).expect("paired");
    s.publish_team_round(tid, n, &d).expect("published");
    let clock = clock();
    let (mut h, opened) = common::desk_recording(s, Page::Rounds, Some(tid), &clock);
    let exports = dir.path().join("exports");
    let read = |name: &str| std::fs::read_to_string(exports.join(name)).ok();
    // Line-ups are open: the sheets are for round 1, for the two teams that play.
    click(&mut h, "Print line-up sheets");
    let sheets = read("cup-round-1-lineup-sheets.html").expect("line-up sheets written");
    assert_eq!(sheets.matches("<div class=sheet>").count(), 2, "{sheets}");
    assert!(sheets.contains("<h3>Tigers: line-up for round 1</h3>"));
    assert!(sheets.contains("Match 1 against <b>Eagles</b>, tables 1–2"));
    assert!(sheets.contains("Cid <span class=team>(reserve)</span>"));
    click(&mut h, "Print match slips");
    let slips = read("cup-round-1-match-slips.html").expect("match slips written");
    assert_eq!(slips.matches("<div class=slip>").count(), 1);
    assert!(
        slips.contains("<div>Captain, Tigers</div><div>Captain, Eagles</div><div>Arbiter</div>")
    );
    // Ctrl+Shift+P prints the pairings, as on the Rounds page of an event of players.
    common::one_frame(
        &mut h,
        vec![egui::Event::Key {
            key: egui::Key::P,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        }],
    );
    let pairings = read("cup-round-1-team-pairings.html").expect("pairings written");
    assert!(
        pairings.contains("Match 1 · Tigers – Eagles · tables 1–2"),
        "{pairings}"
    );
    assert!(pairings.contains("<b>Bye:</b> Sharks"));
    assert_eq!(opened.borrow().len(), 3, "each page opened to print");
    assert!(has_text(&h, "Team pairings written:"), "{:?}", all_text(&h));
    click(&mut h, "Print pairings");
    assert_eq!(opened.borrow().len(), 4);
    // Once the round starts, the sheets are for the round to pair: every team.
    click(&mut h, "Start the round");
    click(&mut h, "Print line-up sheets");
    let next = read("cup-round-2-lineup-sheets.html").expect("next round's sheets written");
    assert_eq!(next.matches("<div class=sheet>").count(), 3, "{next}");
    assert!(next.contains("<h3>Sharks: line-up for round 2</h3>"));
}

#[test]
fn team_standings_and_board_prizes_print_from_the_standings_page() {
    let dir = tempfile::tempdir().expect("dir");
    let mut s = Store::open(&dir.path().join("event.sqlite3")).expect("store");
    let file = team_fixture("team-swiss-with-bye.json");
    let tid = imported(&mut s, &file);
    let clock = clock();
    let (mut h, opened) = common::desk_recording(s, Page::Standings, Some(tid), &clock);
    let exports = dir.path().join("exports");
    click(&mut h, "Print");
    let standings = std::fs::read_to_string(
        exports.join(format!("team-event-0-{tid}-team-standings-stage-1.html")),
    )
    .expect("standings written");
    assert!(
        standings.contains("<tr><td class=num>1</td><td><b>Iloilo Eagles</b></td><td class=num>9</td><td class=num>16</td><td class=num>3</td><td class=num>29</td></tr>"),
        "{standings}"
    );
    assert!(!standings.contains("Provisional"));
    click(&mut h, "Board prizes");
    click(&mut h, "Print");
    let prizes =
        std::fs::read_to_string(exports.join(format!("team-event-0-{tid}-board-prizes.html")))
            .expect("board prizes written");
    assert!(prizes.contains("<h3>Board 1</h3>"), "{prizes}");
    assert!(prizes.contains("<td><b>Cruz, Ely 14</b></td><td>Iloilo Eagles</td><td class=num>3</td><td class=num>6</td><td class=num>100%</td>"));
    assert_eq!(opened.borrow().len(), 2, "each page opened to print");
}

/// A Generals League at the desk (trial by hand): board groups played, the final paired,
/// started and played game by game. Its rounds have no line-ups and say so by saying
/// nothing of them; the status line counts the games awaiting a result; the standings rank
/// board groups and the final by game points, with no match points, and show the stage
/// played rather than the final not yet begun; the Rounds page gives the final's score;
/// the Standings page gives the final placement, exported and printed.
#[test]
fn a_generals_league_final_is_played_and_placed_at_the_desk() {
    let dir = tempfile::tempdir().expect("dir");
    let mut s = Store::open(&dir.path().join("league.sqlite3")).expect("store");
    let mut file = team_fixture("board-groups-then-final.json");
    file["stages"][1]["rounds"] = serde_json::json!([]);
    let tid = imported(&mut s, &file);
    let clock = clock();
    let (mut h, opened) = common::desk_recording(s, Page::Standings, Some(tid), &clock);
    // The board groups are over and the final not paired: their standings are shown.
    assert!(
        has_text(
            &h,
            "Ranked by game points, then board count, then team rating."
        ),
        "{:?}",
        all_text(&h)
    );
    // The sentence is in words; the column keeps its title.
    assert!(
        all_text(&h).iter().any(|t| t == "Board count"),
        "{:?}",
        all_text(&h)
    );
    assert!(!has_text(&h, "Match points"), "{:?}", all_text(&h));
    assert!(!has_text(&h, "No standings for this stage yet"));
    let exports = dir.path().join("exports");
    let stem = format!("team-event-2-{tid}");
    click(&mut h, "Print");
    let printed =
        std::fs::read_to_string(exports.join(format!("{stem}-team-standings-stage-1.html")))
            .expect("standings printed");
    assert!(
        printed.contains("<p>Ranked by game points, then board count, then team rating.</p>"),
        "{printed}"
    );
    assert!(
        printed.contains("<th class=num>Board count</th>"),
        "{printed}"
    );
    assert!(!printed.contains("Match points"), "{printed}");
    common::go(&mut h, Page::Rounds);
    click(&mut h, "Pair round 4");
    click(&mut h, "Publish round 4");
    assert!(
        has_text(&h, "Round 4 published: start it when its games begin"),
        "{:?}",
        all_text(&h)
    );
    assert!(!has_text(&h, "line-ups are open until the round starts"));
    assert!(has_text(&h, "start the round on the Rounds page (F4)"));
    assert!(!has_text(
        &h,
        "line-ups open: start the round on the Rounds page (F4)"
    ));
    click(&mut h, "Start the round");
    assert!(
        has_text(&h, "3 games awaiting a result"),
        "{:?}",
        all_text(&h)
    );
    assert!(!has_text(&h, "a line-up changed now is a correction"));
    assert!(has_text(
        &h,
        "The final so far: Davao Dragons 0 – 0 Iloilo Eagles"
    ));
    for (round, result) in [(4, "White wins"), (5, "Draw"), (6, "Draw")] {
        if round > 4 {
            click(&mut h, &format!("Pair round {round}"));
            click(&mut h, &format!("Publish round {round}"));
            click(&mut h, "Start the round");
        }
        for table in 1..=3 {
            click(&mut h, &format!("Result of table {table}"));
            click(&mut h, result);
        }
    }
    assert!(
        has_text(
            &h,
            "The final is over, Davao Dragons 10 – 8 Iloilo Eagles: Davao Dragons win the event"
        ),
        "{:?}",
        all_text(&h)
    );
    common::go(&mut h, Page::Standings);
    click(&mut h, "Final placement");
    assert!(
        has_row(&h, &["1", "Davao Dragons", "Final"]),
        "{:?}",
        all_text(&h)
    );
    assert!(has_row(&h, &["2", "Iloilo Eagles", "Final"]));
    click(&mut h, "Export CSV");
    let e = store(&h).team_event(tid).expect("read").expect("team");
    let csv = std::fs::read_to_string(exports.join(format!("{stem}-final-placement.csv")));
    assert_eq!(
        csv.ok(),
        Some(ggdesk_core::export::team_placement_csv(
            &e.final_placement().expect("over")
        )),
        "{:?} {:?}",
        std::fs::read_dir(&exports).map(|d| d.flatten().map(|f| f.file_name()).collect::<Vec<_>>()),
        all_text(&h)
    );
    click(&mut h, "Print");
    let page = std::fs::read_to_string(exports.join(format!("{stem}-final-placement.html")))
        .expect("placement printed");
    assert!(
        page.contains("<tr><td class=num>1</td><td><b>Davao Dragons</b></td><td>Final</td></tr>"),
        "{page}"
    );
    assert_eq!(opened.borrow().len(), 2, "each page opened to print");
}

/// Line-up sheets are for rounds of matches to come: not offered once a team Swiss is over,
/// nor in a Generals League whose final (games of fixed boards, no line-ups) is being
/// played.
#[test]
fn line_up_sheets_are_offered_only_while_rounds_of_matches_are_to_come() {
    for (fixture, words) in [
        (
            "team-swiss-with-bye.json",
            "No round to pair: the event is over: every stage has been played",
        ),
        ("board-groups-then-final.json", "Round 4 · Final"),
    ] {
        let mut s = Store::open_in_memory().expect("store");
        let file = team_fixture(fixture);
        let tid = imported(&mut s, &file);
        let clock = clock();
        let h = desk(s, Page::Rounds, Some(tid), &clock);
        assert!(has_text(&h, words), "{fixture}: {:?}", all_text(&h));
        assert!(
            h.query_by_label("Print line-up sheets").is_none(),
            "{fixture}: {:?}",
            all_text(&h)
        );
    }
}

/// The default team tie-breaks begin with game points, which the standings show as their
/// own column: the desk's table and its print show it once, not again as a tie-break
/// (found by the team Swiss trial by hand).
#[test]
fn a_score_used_as_a_tie_break_is_one_column_not_two() {
    use ggdesk_core::tournament::{GameResult, RoundNo};
    let dir = tempfile::tempdir().expect("dir");
    let mut s = Store::open(&dir.path().join("cup.sqlite3")).expect("store");
    let tid = three_teams(&mut s);
    let d = Actor::director();
    let n = s.pair_team_round(tid, &d).expect("paired");
    s.publish_team_round(tid, n, &d).expect("published");
    for table in [1, 2] {
        s.set_team_board_result(tid, RoundNo(1), TableNo(table), GameResult::WhiteWins, &d)
            .expect("result");
    }
    let clock = clock();
    let (mut h, _) = common::desk_recording(s, Page::Standings, Some(tid), &clock);
    assert!(
        has_text(&h, "Ranked by match points, then game points"),
        "{:?}",
        all_text(&h)
    );
    assert_eq!(
        h.query_all_by_label("Game points").count(),
        1,
        "{:?}",
        all_text(&h)
    );
    assert_eq!(h.query_all_by_label("Sonneborn-Berger").count(), 1);
    click(&mut h, "Print");
    let page = std::fs::read_to_string(
        dir.path()
            .join("exports")
            .join(format!("cup-{tid}-team-standings-stage-1.html")),
    )
    .expect("standings written");
    assert_eq!(page.matches("Game points</th>").count(), 1, "{page}");
    assert_eq!(page.matches("Sonneborn-Berger</th>").count(), 1, "{page}");
}

/// A board whose game is at a table (arbitrated at this desk or at a station) says so on its
/// match card: the director sees which boards are under way before their results come.
#[test]
fn a_match_card_says_which_boards_are_at_the_tables() {
    use ggdesk::store::NewGame;
    use ggdesk_core::game::GameMode;
    use ggdesk_core::tournament::RoundNo;
    let mut s = Store::open_in_memory().expect("store");
    let tid = three_teams(&mut s);
    let d = Actor::director();
    let n = s.pair_team_round(tid, &d).expect("paired");
    s.publish_team_round(tid, n, &d).expect("published");
    let board = s
        .board_at(tid, RoundNo(1), TableNo(2))
        .expect("read")
        .expect("table 2");
    let new = NewGame::for_board(
        tid,
        RoundNo(1),
        &board,
        GameMode::Arbitrated,
        RuleSettings::default(),
    );
    s.create_game(&new, &d).expect("a game at table 2");
    let clock = clock();
    let h = desk(s, Page::Rounds, Some(tid), &clock);
    assert_eq!(
        h.query_all_by_label("setting up at the table").count(),
        1,
        "{:?}",
        all_text(&h)
    );
    assert!(!has_text(&h, "playing at the table"), "{:?}", all_text(&h));
}

/// Replaces what the field labelled `label` holds (`len` characters) with `text`, as a
/// person does: backspaces, then the new text.
fn retype(h: &mut Harness<'_, DeskApp>, label: &str, len: usize, text: &str) {
    h.get_by_label(label).focus();
    h.run();
    common::one_frame(h, vec![common::key_event(egui::Key::Backspace); len]);
    type_into(h, label, text);
}

#[test]
fn a_team_events_settings_are_corrected_until_round_1_is_paired() {
    let mut s = Store::open_in_memory().expect("store");
    let e = TeamEvent::preset(TeamShape::Swiss, "Cup", PointsScale::default(), 3, 5);
    let tid = s
        .create_team_event(&e, &RuleSettings::default(), &Actor::director())
        .expect("created");
    let rows = ggdesk_core::export::import_team_players_csv(
        "team,name,federation_id,club,rating\n\
         Tigers,Ana,,,1900\nTigers,Ben,,,1800\nTigers,Cid,,,1700\nTigers,Dan,,,1650\n\
         Eagles,Eve,,,1600\nEagles,Fay,,,1500\nEagles,Gil,,,1400\nEagles,Hal,,,1300\n",
    )
    .expect("read");
    s.import_teams(tid, &rows, &Actor::director())
        .expect("imported");
    let clock = clock();
    let mut h = desk(s, Page::Teams, Some(tid), &clock);
    assert!(has_text(&h, "Reserve 1: Dan · 1650"), "{:?}", all_text(&h));
    common::go(&mut h, Page::Tournaments);
    assert!(
        has_text(&h, "Until round 1 is paired the settings can be corrected"),
        "{:?}",
        all_text(&h)
    );
    // The creation's form, filled with the event's settings.
    click(&mut h, "Edit the settings");
    let value = |h: &Harness<'_, DeskApp>, label: &str| {
        h.get_by_label(label)
            .accesskit_node()
            .value()
            .unwrap_or_default()
    };
    assert_eq!(value(&h, "Tournament name:"), "Cup");
    assert_eq!(value(&h, "Boards per team:"), "3");
    assert_eq!(value(&h, "Rounds:"), "5");
    assert_eq!(value(&h, "Points for win:"), "2");
    assert_eq!(value(&h, "Move time (seconds):"), "120");
    // Cancel leaves everything as it was.
    retype(&mut h, "Boards per team:", 1, "9");
    click(&mut h, "Cancel");
    assert!(h.query_by_label("Boards per team:").is_none());
    let e = store(&h).team_event(tid).expect("read").expect("team");
    assert_eq!(e.settings.boards, 3);
    // A field in error says so beside it, and nothing is saved.
    click(&mut h, "Edit the settings");
    retype(&mut h, "Rounds:", 1, "0");
    click(&mut h, "Save the settings");
    assert!(
        has_text(&h, "Rounds: A Swiss needs at least one round"),
        "{:?}",
        all_text(&h)
    );
    retype(&mut h, "Rounds:", 1, "7");
    retype(&mut h, "Boards per team:", 1, "4");
    type_into(&mut h, "Tournament name:", " Open");
    click(&mut h, "Save the settings");
    assert!(has_text(&h, "Settings saved"), "{:?}", all_text(&h));
    assert!(
        has_text(&h, "4 boards a team; a match won 2, drawn 1, lost 0"),
        "{:?}",
        all_text(&h)
    );
    assert!(
        has_text(&h, "Stages: Swiss (team Swiss, 7 rounds)"),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "Cup Open (team event)"), "{:?}", all_text(&h));
    let e = store(&h).team_event(tid).expect("read").expect("team");
    assert_eq!((e.settings.boards, e.stages[0].round_count), (4, Some(7)));
    assert_eq!(roster(&h, tid, 1), ["Ana", "Ben", "Cid", "Dan"]);
    // The Teams page follows: Dan plays board 4.
    common::go(&mut h, Page::Teams);
    assert!(
        has_text(
            &h,
            "2 teams, 8 players · 4 boards: each team fields its first 4"
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(&h, "Board 4: Dan · 1650"), "{:?}", all_text(&h));

    // Once round 1 is paired (a draft too) the settings are fixed, and the page says why.
    common::go(&mut h, Page::Rounds);
    click(&mut h, "Pair round 1");
    common::go(&mut h, Page::Tournaments);
    assert!(h.query_by_label("Edit the settings").is_none());
    assert!(
        has_text(
            &h,
            "The settings are fixed from round 1 on: its pairings depend on the shape, the \
             boards, the rounds and the points."
        ),
        "{:?}",
        all_text(&h)
    );
}

#[test]
fn a_player_withdrawn_after_round_1_leaves_the_next_default_line_up() {
    use ggdesk_core::tournament::GameResult;
    let mut s = Store::open_in_memory().expect("store");
    let tid = three_teams(&mut s);
    let d = Actor::director();
    // Round 1 published and played: Tigers against Eagles, Sharks' bye.
    let n = s.pair_team_round(tid, &d).expect("paired");
    s.publish_team_round(tid, n, &d).expect("published");
    s.start_team_round(tid, n, &d).expect("started");
    for table in [1, 2] {
        s.set_team_board_result(tid, n, TableNo(table), GameResult::Draw, &d)
            .expect("result");
    }
    let clock = clock();
    let mut h = desk(s, Page::Teams, Some(tid), &clock);
    assert!(
        has_text(
            &h,
            "The event has started: teams and rosters are fixed (a reserve plays through a \
             round's line-up). A player can still be withdrawn from the event (click them): \
             the next rounds' default line-ups skip them."
        ),
        "{:?}",
        all_text(&h)
    );
    assert!(h.query_by_label("Withdraw from the event").is_none());
    click(&mut h, "Board 2: Ben · 1800");
    assert!(
        h.get_by_label("Withdraw from the event")
            .accesskit_node()
            .is_disabled(),
        "a reason is needed first"
    );
    type_into(&mut h, "Reason:", "fell ill");
    click(&mut h, "Withdraw from the event");
    assert!(
        has_text(&h, "Board 2: Ben · 1800 (withdrawn)"),
        "{:?}",
        all_text(&h)
    );
    assert!(has_text(
        &h,
        "Ben is withdrawn: the next rounds' default line-ups skip them."
    ));
    assert!(h.query_by_label("Back in the event").is_some());
    let audit = store(&h)
        .audit_log(AuditFilter::Tournament(tid))
        .expect("audit")
        .into_iter()
        .find(|a| a.action == "player withdrawn")
        .map(|a| (a.reason, a.details));
    assert_eq!(
        audit,
        Some((
            "fell ill".to_string(),
            "Ben (player 2) of Tigers".to_string()
        ))
    );
    // Round 2: Tigers field Ana and their reserve Cid.
    go(&mut h, Page::Rounds);
    click(&mut h, "Pair round 2");
    assert!(
        has_text(&h, "Round 2 paired as a draft: check it and publish it"),
        "{:?}",
        all_text(&h)
    );
    let texts = all_text(&h);
    let shown = |name: &str| {
        texts
            .iter()
            .any(|t| *t == format!("White: {name}") || *t == format!("Black: {name}"))
    };
    assert!(shown("Ana") && shown("Cid"), "{texts:?}");
    assert!(!shown("Ben"), "{texts:?}");
}

/// Every page of the desk reads a team event as what it is (found by a trial by hand: the
/// Players page said "The database could not be read" because it asked for the
/// registrations of an event of players); the Players page says a team event's players
/// join it through its teams.
#[test]
fn every_page_reads_a_team_event_and_the_players_page_points_to_its_teams() {
    let mut s = Store::open_in_memory().expect("store");
    let file = team_fixture("team-swiss-with-bye.json");
    let tid = imported(&mut s, &file);
    let member = file["players"][0]["name"]
        .as_str()
        .expect("a player's name")
        .to_string();
    let clock = clock();
    let mut h = desk(s, Page::Players, Some(tid), &clock);
    for page in Page::ALL {
        common::go(&mut h, page);
        assert!(
            !has_text(&h, "The database could not be read"),
            "{page:?}: {:?}",
            all_text(&h)
        );
    }
    common::go(&mut h, Page::Players);
    type_into(&mut h, "Search players:", &member);
    click(&mut h, &member);
    assert!(
        has_text(&h, "In a team of the chosen tournament"),
        "{:?}",
        all_text(&h)
    );
    assert!(
        h.query_by_label("Register in the chosen tournament")
            .is_none()
    );
}
