//! The event's PostgreSQL cluster in `DIR/data`: found (Debian's newest server), made the
//! first time (initdb, the authority's certificate, `pg_hba.conf`, the director's login
//! and the event database), started and stopped with `pg_ctl`, always as the cluster's
//! own user.
//!
//! Its `pg_hba.conf` has no `trust` line and no plain-text remote line: the superuser only
//! over the cluster's own socket (`peer`: no password exists for it), the director over
//! that socket or over TLS (`hostssl`), both with `scram-sha-256`. Every other connection
//! is refused by PostgreSQL itself before a password is asked.

use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::HostError;

/// The event database's name.
pub const DATABASE: &str = "event";
/// The director's login.
pub const DIRECTOR: &str = "director";

/// The public pages' own login (m5 of issue 32): a member of the pages' read-only role and
/// nothing else, allowed only over the cluster's socket, its password new at each start and
/// known to the host alone.
pub const PAGES: &str = "event_pages";

/// The settings ggdesk writes (included from `postgresql.conf`), rewritten at every start.
const SETTINGS: &str = "ggdesk.conf";
/// The cluster's log, in DIR.
const LOG: &str = "postgresql.log";

/// Who runs the cluster: the user its programs run as, and whether this process must switch
/// to it (`runuser`) because it runs as root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterUser {
    pub name: String,
    pub switch: bool,
}

impl ClusterUser {
    /// The user the cluster runs as, from whether this process is root and `--user`.
    /// PostgreSQL refuses to run as root: root must name a user (exit 2 otherwise); a user
    /// other than root can only run it as itself.
    pub fn choose(
        root: bool,
        me: &str,
        asked: Option<&str>,
    ) -> std::result::Result<ClusterUser, String> {
        match (root, asked) {
            (true, None) => Err(
                "PostgreSQL does not run as root: run `ggdesk host` as the user who keeps the \
                 event, or as root with --user NAME (the user that runs the cluster and owns DIR)"
                    .into(),
            ),
            (true, Some("root")) => Err("--user root: PostgreSQL does not run as root".into()),
            (true, Some(name)) => Ok(ClusterUser {
                name: name.to_string(),
                switch: true,
            }),
            (false, Some(name)) if name != me => Err(format!(
                "--user {name}: only root may run the cluster as another user (this is {me})"
            )),
            (false, _) => Ok(ClusterUser {
                name: me.to_string(),
                switch: false,
            }),
        }
    }

    /// A command running `program` as this user.
    pub fn command(&self, program: &Path) -> Command {
        if self.switch {
            let mut c = Command::new("runuser");
            c.args(["-u", &self.name, "--"]).arg(program);
            c
        } else {
            Command::new(program)
        }
    }

    /// Makes `path` (and all under it) this user's, when this process is root.
    pub fn own(&self, path: &Path) -> Result<(), HostError> {
        if !self.switch {
            return Ok(());
        }
        let out = Command::new("chown")
            .arg("-R")
            .arg(&self.name)
            .arg(path)
            .output()
            .map_err(|e| HostError::Other(format!("chown {}: {e}", path.display())))?;
        if !out.status.success() {
            return Err(HostError::Input(format!(
                "cannot give {} to the user {}: {}",
                path.display(),
                self.name,
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        // Owning the folder is not enough when a folder above it is private to root (a home
        // folder): the cluster could not even be made there.
        let reaches = self
            .command(Path::new("test"))
            .arg("-x")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success());
        if !reaches {
            return Err(HostError::Input(format!(
                "the user {} cannot reach {}: a folder above it is private; choose a folder it \
                 can reach (such as /srv/event)",
                self.name,
                path.display()
            )));
        }
        Ok(())
    }
}

/// Whether this process runs as root, and its user name.
pub fn whoami() -> (bool, String) {
    let read = |flag: &str| {
        Command::new("id")
            .arg(flag)
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    (read("-u") == "0", read("-un"))
}

/// The newest PostgreSQL server's programs: `/usr/lib/postgresql/N/bin` (Debian), else
/// `pg_config --bindir`.
pub fn find_bin() -> Result<PathBuf, HostError> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    found.sort();
    if let Some((_, bin)) = found.pop() {
        return Ok(bin);
    }
    let from_config = Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .filter(|b| b.join("initdb").exists());
    from_config.ok_or_else(|| {
        HostError::Other(
            "no PostgreSQL server found (/usr/lib/postgresql/N/bin or pg_config --bindir): \
             install Debian's postgresql package (apt-get install postgresql)"
                .into(),
        )
    })
}

/// The cluster of one DIR.
pub struct Cluster {
    pub dir: PathBuf,
    pub bin: PathBuf,
    pub user: ClusterUser,
    pub port: u16,
}

/// What `listen_addresses` and the certificate's names are made of.
pub struct Listen {
    /// `--listen` (`None`: every address).
    pub addr: Option<IpAddr>,
}

impl Cluster {
    pub fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// Whether DIR holds a cluster already.
    pub fn exists(&self) -> bool {
        self.data().join("PG_VERSION").exists()
    }

    fn run(&self, program: &str, args: &[&str], what: &str) -> Result<String, HostError> {
        let out = self
            .user
            .command(&self.bin.join(program))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| HostError::Other(format!("{what}: cannot run {program}: {e}")))?;
        if !out.status.success() {
            return Err(HostError::Other(format!(
                "{what}: {program} failed: {}{}",
                String::from_utf8_lossy(&out.stderr).trim(),
                self.log_tail()
            )));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// The last lines of the cluster's log, to explain a failure.
    fn log_tail(&self) -> String {
        let Ok(text) = std::fs::read_to_string(self.dir.join(LOG)) else {
            return String::new();
        };
        let lines: Vec<&str> = text.lines().rev().take(3).collect();
        if lines.is_empty() {
            return String::new();
        }
        let lines: Vec<&str> = lines.into_iter().rev().collect();
        format!(
            " (its log, {}: {})",
            self.dir.join(LOG).display(),
            lines.join(" / ")
        )
    }

    /// Creates the cluster in DIR/data: `initdb` with the cluster's user as superuser, peer
    /// authentication over the socket, and ggdesk's `pg_hba.conf`.
    pub fn create(&self) -> Result<(), HostError> {
        let data = self.data();
        let data_s = data.to_string_lossy().into_owned();
        self.run(
            "initdb",
            &[
                "-D",
                &data_s,
                "-U",
                &self.user.name,
                "--auth-local=peer",
                "--auth-host=scram-sha-256",
                "-E",
                "UTF8",
                "--locale=C",
            ],
            "creating the cluster",
        )?;
        let conf = data.join("postgresql.conf");
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&conf)
            .map_err(|e| HostError::Other(format!("{}: {e}", conf.display())))?;
        writeln!(file, "\n# ggdesk host: its settings\ninclude '{SETTINGS}'")
            .map_err(|e| HostError::Other(format!("{}: {e}", conf.display())))?;
        self.user.own(&data)
    }

    /// Writes the settings of this start: where it listens, TLS with `cert`, SCRAM.
    pub fn configure(
        &self,
        listen: &Listen,
        cert_pem: &str,
        key_pem: &str,
    ) -> Result<(), HostError> {
        let data = self.data();
        write_file(&data.join("server.crt"), cert_pem, 0o600)?;
        write_file(&data.join("server.key"), key_pem, 0o600)?;
        let addresses = match listen.addr {
            None => "*".to_string(),
            Some(a) if a.is_loopback() => a.to_string(),
            // The cluster's own socket and loopback always; the named address besides.
            Some(a) => format!("127.0.0.1,{a}"),
        };
        let settings = format!(
            "# Written by `ggdesk host` at every start: edits are lost.\n\
             listen_addresses = '{addresses}'\n\
             port = {port}\n\
             unix_socket_directories = '{socket}'\n\
             ssl = on\n\
             ssl_cert_file = 'server.crt'\n\
             ssl_key_file = 'server.key'\n\
             ssl_min_protocol_version = 'TLSv1.2'\n\
             password_encryption = 'scram-sha-256'\n\
             max_connections = 300\n",
            port = self.port,
            socket = self.dir.display().to_string().replace('\'', "''"),
        );
        write_file(&data.join(SETTINGS), &settings, 0o600)?;
        write_file(&data.join("pg_hba.conf"), &hba(&self.user.name), 0o600)?;
        self.user.own(&data)
    }

    /// Whether the cluster's postmaster runs (left running by a host that was killed).
    pub fn running(&self) -> bool {
        let data = self.data();
        self.user
            .command(&self.bin.join("pg_ctl"))
            .arg("status")
            .arg("-D")
            .arg(&data)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Starts the cluster and waits until it accepts connections.
    pub fn start(&self) -> Result<(), HostError> {
        let data = self.data().to_string_lossy().into_owned();
        let log = self.dir.join(LOG).to_string_lossy().into_owned();
        self.run(
            "pg_ctl",
            &["start", "-D", &data, "-l", &log, "-w", "-t", "300"],
            "starting PostgreSQL",
        )
        .map(|_| ())
    }

    /// Stops the cluster: fast shutdown (sessions ended, every commit kept).
    pub fn stop(&self) -> Result<(), HostError> {
        if !self.running() {
            return Ok(());
        }
        let data = self.data().to_string_lossy().into_owned();
        self.run(
            "pg_ctl",
            &["stop", "-D", &data, "-m", "fast", "-w", "-t", "300"],
            "stopping PostgreSQL",
        )
        .map(|_| ())
    }

    /// Runs SQL as the superuser over the cluster's socket (peer: no password), fed on
    /// standard input so nothing of it shows in the process list. Answers psql's output
    /// (unaligned, tuples only).
    pub fn sql(&self, database: &str, sql: &str) -> Result<String, HostError> {
        let socket = self.dir.to_string_lossy().into_owned();
        let port = self.port.to_string();
        let mut child = self
            .user
            .command(&self.bin.join("psql"))
            .args([
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                &socket,
                "-p",
                &port,
                "-U",
                &self.user.name,
                "-d",
                database,
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| HostError::Other(format!("cannot run psql: {e}")))?;
        if let Some(mut input) = child.stdin.take() {
            input
                .write_all(sql.as_bytes())
                .map_err(|e| HostError::Other(format!("psql: {e}")))?;
        }
        let out = child
            .wait_with_output()
            .map_err(|e| HostError::Other(format!("psql: {e}")))?;
        if !out.status.success() {
            return Err(HostError::Other(format!(
                "setting up the event database: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Makes the director's login (with `verifier`, a SCRAM verifier: the password itself
    /// never reaches the server) and the event database, or gives the login that verifier
    /// when it exists.
    pub fn director(&self, verifier: &str) -> Result<(), HostError> {
        let verifier = verifier.replace('\'', "''");
        let exists = self.sql(
            "postgres",
            &format!("SELECT 1 FROM pg_roles WHERE rolname = '{DIRECTOR}';"),
        )?;
        let role = if exists.trim() == "1" {
            format!("ALTER ROLE {DIRECTOR} LOGIN PASSWORD '{verifier}';")
        } else {
            format!("CREATE ROLE {DIRECTOR} LOGIN CREATEROLE REPLICATION PASSWORD '{verifier}';")
        };
        self.sql("postgres", &role)?;
        let db = self.sql(
            "postgres",
            &format!("SELECT 1 FROM pg_database WHERE datname = '{DATABASE}';"),
        )?;
        if db.trim() != "1" {
            self.sql(
                "postgres",
                &format!(
                    "CREATE DATABASE {DATABASE} OWNER {DIRECTOR};\n\
                     REVOKE ALL ON DATABASE {DATABASE} FROM PUBLIC;\n\
                     GRANT CONNECT, TEMPORARY ON DATABASE {DATABASE} TO {DIRECTOR};\n\
                     GRANT pg_monitor TO {DIRECTOR};"
                ),
            )?;
        }
        Ok(())
    }
}

/// ggdesk's `pg_hba.conf`: no `trust`, no plain-text remote line.
pub fn hba(superuser: &str) -> String {
    format!(
        "# Written by `ggdesk host`. No trust, no plain-text remote connection:\n\
         # the superuser only over this cluster's own socket (peer), the director over the\n\
         # socket or over TLS, the public pages' login over the socket only, with\n\
         # scram-sha-256. Anything else is refused.\n\
         # TYPE   DATABASE     USER        ADDRESS     METHOD\n\
         local    all          {superuser:<11} peer\n\
         local    {DATABASE:<12} {DIRECTOR:<11} scram-sha-256\n\
         local    {DATABASE:<12} {PAGES:<11} scram-sha-256\n\
         hostssl  {DATABASE:<12} {DIRECTOR:<11} 0.0.0.0/0   scram-sha-256\n\
         hostssl  {DATABASE:<12} {DIRECTOR:<11} ::/0        scram-sha-256\n\
         hostssl  replication  {DIRECTOR:<11} 0.0.0.0/0   scram-sha-256\n\
         hostssl  replication  {DIRECTOR:<11} ::/0        scram-sha-256\n"
    )
}

/// Writes `text` to `path` with `mode`, replacing it (written aside, then renamed).
pub fn write_file(path: &Path, text: &str, mode: u32) -> Result<(), HostError> {
    use std::os::unix::fs::OpenOptionsExt;
    let aside = path.with_extension("ggdesk-new");
    let _ = std::fs::remove_file(&aside);
    let fail = |e: std::io::Error| HostError::Other(format!("{}: {e}", path.display()));
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(&aside)
        .map_err(fail)?;
    file.write_all(text.as_bytes()).map_err(fail)?;
    file.sync_all().map_err(fail)?;
    std::fs::rename(&aside, path).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_must_name_the_clusters_user() {
        let refused = ClusterUser::choose(true, "root", None).expect_err("refused");
        assert!(
            refused.starts_with("PostgreSQL does not run as root"),
            "{refused}"
        );
        assert_eq!(
            ClusterUser::choose(true, "root", Some("root")).expect_err("refused"),
            "--user root: PostgreSQL does not run as root"
        );
        assert_eq!(
            ClusterUser::choose(true, "root", Some("postgres")),
            Ok(ClusterUser {
                name: "postgres".into(),
                switch: true
            })
        );
        assert_eq!(
            ClusterUser::choose(false, "ana", Some("bo")).expect_err("refused"),
            "--user bo: only root may run the cluster as another user (this is ana)"
        );
        assert_eq!(
            ClusterUser::choose(false, "ana", None),
            Ok(ClusterUser {
                name: "ana".into(),
                switch: false
            })
        );
    }

    #[test]
    fn hba_has_no_trust_and_no_plain_text_remote_line() {
        let text = hba("postgres");
        let lines: Vec<Vec<&str>> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(lines.len(), 7);
        for l in &lines {
            assert!(matches!(l[0], "local" | "hostssl"), "{l:?}");
            assert_ne!(l.last(), Some(&"trust"), "{l:?}");
        }
        assert_eq!(lines[0], ["local", "all", "postgres", "peer"]);
    }
}
