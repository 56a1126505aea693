//! What the event server's commands print (issue 23, item 6): `station list` says when
//! there is no station, then each station's tournament and tables, and `docs/standby.sh sync` prints its one line and nothing else.

#[path = "support/pg.rs"]
mod pg;

use ggdesk::store::{
    Actor, Address, EventServer, ServerState, Store, TournamentSetup, server_status,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn ggdesk(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ggdesk"))
        .args(args)
        .output()
        .expect("run ggdesk");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn station_list_says_there_is_no_station_then_lists_them() {
    let url = pg::new_database();
    let mut store = Store::connect(&Address::Server(url.clone())).expect("the event's schema");
    let tid = store
        .create_tournament(
            &TournamentSetup {
                name: "Open".into(),
                ..TournamentSetup::default()
            },
            &Actor::director(),
        )
        .expect("a tournament");
    store
        .set_event_server(&EventServer {
            stations_address: "https://127.0.0.1:8443/".into(),
            authority: "ab".repeat(32),
        })
        .expect("the event server");
    drop(store);
    let (code, out, err) = ggdesk(&["--db", &url, "station", "list"]);
    assert_eq!((code, out.as_str()), (0, "no stations\n"), "{err}");
    let tid = tid.to_string();
    let (code, _, err) = ggdesk(&[
        "--db",
        &url,
        "station",
        "add",
        "hall-a",
        "--tournament",
        &tid,
        "--tables",
        "1-3",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = ggdesk(&["--db", &url, "station", "list"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("hall-a: tournament {tid}, tables 1-3\n"));
}

const REPLICATION_PASSWORD: &str = "replicate-me";

/// Runs a step of docs/standby.sh as the clusters' owner; its standard output.
fn step(bin: &Path, socket: &Path, args: &[&str]) -> String {
    let script: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/standby.sh");
    let mut c = pg::pg_command(Path::new("/usr/bin"), "env");
    c.arg(format!("PGBIN={}", bin.display()))
        .arg(format!("SOCKETDIR={}", socket.display()))
        .arg(format!("REPLICATION_PASSWORD={REPLICATION_PASSWORD}"))
        .arg("LISTEN=127.0.0.1")
        .arg("EXTRA_OPTIONS=-c max_connections=300")
        .arg("bash")
        .arg(script)
        .args(args);
    let out = c.output().expect("run standby.sh");
    assert!(
        out.status.success(),
        "standby.sh {args:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn standby_sync_prints_its_line_and_nothing_else() {
    let bin = pg::bin_dir();
    let primary = pg::server_folder("sync-primary");
    let standby = pg::server_folder("sync-standby");
    let (p1, p2) = (pg::free_port(), pg::free_port());
    pg::init_and_start(&bin, &primary, p1, &[]);
    pg::stop_when_done(&bin, &primary);
    pg::stop_when_done(&bin, &standby);
    let primary_data = primary.join("data").display().to_string();
    let standby_data = standby.join("data").display().to_string();
    let url = format!(
        "postgres://postgres:{}@127.0.0.1:{p1}/postgres",
        pg::SUPERUSER_PASSWORD
    );
    drop(Store::connect(&Address::Server(url.clone())).expect("schema on the primary"));
    step(
        &bin,
        &primary,
        &["prepare-primary", &primary_data, "127.0.0.1"],
    );
    step(
        &bin,
        &standby,
        &[
            "clone",
            "127.0.0.1",
            &p1.to_string(),
            &standby_data,
            "standby1",
        ],
    );
    step(&bin, &standby, &["start", &standby_data, &p2.to_string()]);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let states = server_status(&Address::Server(url.clone())).expect("status");
        if matches!(&states[0], ServerState::Primary { standbys, .. } if standbys.iter().any(|s| s.state == "streaming"))
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the standby never streamed (awaited 60 s): {states:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let printed = step(&bin, &primary, &["sync", &primary_data, "standby1"]);
    assert_eq!(printed, "commits now wait for standby standby1\n");
}
