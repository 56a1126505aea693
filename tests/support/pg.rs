//! A private PostgreSQL cluster for the tests: created in a temporary folder on a free
//! loopback port the first time a test asks for it, and stopped (folder removed) when the
//! test process ends. Each test gets a database of its own.
//!
//! On a machine without the PostgreSQL server, the cluster installs Debian's `postgresql`
//! package when it runs as root (as `.ci/run` does first anyway); otherwise it stops with
//! what to install. PostgreSQL refuses to run as root, so as root the server runs as the
//! `postgres` user.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// The password of the cluster's superuser (`postgres`); connections over TCP need it.
pub const SUPERUSER_PASSWORD: &str = "ggdesk-test";

/// A running cluster.
pub struct Cluster {
    pub dir: PathBuf,
    pub port: u16,
    pub bin: PathBuf,
}

static CLUSTER: OnceLock<Cluster> = OnceLock::new();
static NEXT_DB: AtomicU32 = AtomicU32::new(1);

#[path = "debian.rs"]
pub mod debian;
use debian::is_root;

/// The newest PostgreSQL server's `bin` folder, installing the server first if it is missing
/// and this process may.
pub fn bin_dir() -> PathBuf {
    debian::ensure("postgresql", || find_bin().is_some());
    find_bin().expect(
        "the tests need a PostgreSQL server: install Debian's postgresql package \
         (apt-get install postgresql), or run the tests as root so they install it",
    )
}

fn find_bin() -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, b)| b)
}

/// Runs a server program, as the `postgres` user when this process is root.
pub fn pg_command(bin: &Path, program: &str) -> Command {
    let exe = bin.join(program);
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(exe);
        c
    } else {
        Command::new(exe)
    }
}

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// A new empty folder the server's user may write to.
pub fn server_folder(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ggdesk-{label}-{}-{}",
        std::process::id(),
        NEXT_DB.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the cluster folder");
    if is_root() {
        let ok = Command::new("chown")
            .args(["-R", "postgres:postgres"])
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "chown of {} to postgres failed", dir.display());
    }
    dir
}

/// Creates a cluster in `dir/data` (superuser `postgres` with [`SUPERUSER_PASSWORD`], TCP
/// connections by password, C collation) and starts it on `port` with `extra` settings.
pub fn init_and_start(bin: &Path, dir: &Path, port: u16, extra: &[&str]) {
    let pwfile = dir.join("pw");
    std::fs::write(&pwfile, SUPERUSER_PASSWORD).expect("write the password file");
    if is_root() {
        let _ = Command::new("chown")
            .arg("postgres:postgres")
            .arg(&pwfile)
            .status();
    }
    let out = pg_command(bin, "initdb")
        .arg("-D")
        .arg(dir.join("data"))
        .args([
            "-U",
            "postgres",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        ])
        .arg(format!("--pwfile={}", pwfile.display()))
        .output()
        .expect("run initdb");
    assert!(
        out.status.success(),
        "initdb failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    start(bin, dir, port, extra);
}

/// Starts (or restarts) the cluster in `dir/data` on `port`.
pub fn start(bin: &Path, dir: &Path, port: u16, extra: &[&str]) {
    let mut options = format!(
        "-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=300",
        dir.display()
    );
    for e in extra {
        options.push_str(" -c ");
        options.push_str(e);
    }
    let out = pg_command(bin, "pg_ctl")
        .arg("-D")
        .arg(dir.join("data"))
        .args(["-w", "-t", "120", "-l"])
        .arg(dir.join("log"))
        .args(["-o", &options, "start"])
        .output()
        .expect("run pg_ctl");
    assert!(
        out.status.success(),
        "pg_ctl start failed: {}{}",
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(dir.join("log")).unwrap_or_default()
    );
}

/// Stops the cluster in `dir/data` when this process ends, and removes `dir`: a watcher
/// process waits for this one to be gone.
pub fn stop_when_done(bin: &Path, dir: &Path) {
    let pg_ctl = bin.join("pg_ctl");
    let as_user = if is_root() {
        "runuser -u postgres -- "
    } else {
        ""
    };
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
         {as_user}{pg_ctl} -D {data} -m immediate stop >/dev/null 2>&1; rm -rf {dir}",
        pid = std::process::id(),
        pg_ctl = pg_ctl.display(),
        data = dir.join("data").display(),
        dir = dir.display(),
    );
    let _ = Command::new("setsid")
        .args(["sh", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
}

/// The cluster of this test process, started on first use.
pub fn cluster() -> &'static Cluster {
    CLUSTER.get_or_init(|| own_cluster("pg"))
}

/// A cluster of one test's own (one that test may stop and start again), stopped and
/// removed when this process ends.
pub fn own_cluster(label: &str) -> Cluster {
    let bin = bin_dir();
    let dir = server_folder(label);
    let port = free_port();
    init_and_start(&bin, &dir, port, &[]);
    stop_when_done(&bin, &dir);
    Cluster { dir, port, bin }
}

impl Cluster {
    /// A director's login `login` (no superuser, may create roles, password `director-pw`)
    /// and a database `db` it owns, as the README's set-up makes them: the director's URL.
    pub fn director_database(&self, login: &str, db: &str) -> String {
        self.psql(
            "postgres",
            &format!("CREATE ROLE {login} LOGIN PASSWORD 'director-pw' NOSUPERUSER CREATEROLE"),
        );
        self.psql("postgres", &format!("CREATE DATABASE {db} OWNER {login}"));
        format!(
            "postgres://{login}:director-pw@127.0.0.1:{}/{db}",
            self.port
        )
    }

    /// Stops the server (fast shutdown: connections are cut), waiting until it is down.
    pub fn stop(&self) {
        let out = pg_command(&self.bin, "pg_ctl")
            .arg("-D")
            .arg(self.dir.join("data"))
            .args(["-m", "fast", "-w", "-t", "120", "stop"])
            .output()
            .expect("run pg_ctl");
        assert!(
            out.status.success(),
            "pg_ctl stop failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Starts the stopped server again on its port.
    pub fn start(&self) {
        start(&self.bin, &self.dir, self.port, &[]);
    }

    /// The superuser's URL for database `db`.
    pub fn url(&self, db: &str) -> String {
        format!(
            "postgres://postgres:{SUPERUSER_PASSWORD}@127.0.0.1:{}/{db}",
            self.port
        )
    }

    /// Runs SQL as the superuser in database `db` (through psql on the socket).
    pub fn psql(&self, db: &str, sql: &str) -> String {
        let out = pg_command(&self.bin, "psql")
            .args(["-h"])
            .arg(&self.dir)
            .args(["-p", &self.port.to_string(), "-U", "postgres", "-d", db])
            .args(["-v", "ON_ERROR_STOP=1", "-tA", "-c", sql])
            .output()
            .expect("run psql");
        assert!(
            out.status.success(),
            "psql failed on {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// A new empty database; its URL (superuser).
    pub fn new_database(&self) -> String {
        let name = format!(
            "t{}_{}",
            std::process::id(),
            NEXT_DB.fetch_add(1, Ordering::SeqCst)
        );
        self.psql("postgres", &format!("CREATE DATABASE {name}"));
        self.url(&name)
    }
}

/// A new empty database on this process's cluster; its URL.
pub fn new_database() -> String {
    cluster().new_database()
}
