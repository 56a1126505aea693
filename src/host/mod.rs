//! `ggdesk host DIR`: this laptop becomes the event server (`spec/server.md`, "`ggdesk
//! host`"). One process keeps Debian's PostgreSQL in `DIR/data` (made the first time, with
//! the event's own certificate authority, TLS and a `pg_hba.conf` without `trust` or
//! plain-text remote lines) and the public pages, prints the director's URL, the stations'
//! address and the authority's fingerprint, then `ready`, and runs until Ctrl+C or SIGTERM,
//! when it stops the cluster with a fast shutdown.
//!
//! What it holds in DIR: `data/` (the cluster), `ca.crt`/`ca.key`/`ca.name` (the authority;
//! the key readable by its owner only), `director.url` (0600), `host.lock` (held while a
//! host runs, with its pid), `postgresql.log`, and the cluster's socket.

pub mod cluster;
pub mod standby;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};

use crate::store::Address;
use crate::tls::Authority;
use cluster::{Cluster, ClusterUser, DATABASE, DIRECTOR, Listen};

/// How `host` failed: bad input (exit 2) or anything else (exit 1).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("{0}")]
    Input(String),
    #[error("{0}")]
    Other(String),
}

/// What `ggdesk host` was asked for.
#[derive(Debug, Clone)]
pub struct HostOptions {
    pub dir: PathBuf,
    /// `--listen`: the one address to listen on besides loopback (`None`: every address).
    pub listen: Option<IpAddr>,
    pub port: u16,
    pub station_port: u16,
    pub pages_port: u16,
    pub user: Option<String>,
    /// `--standby-of`: a running host's director URL; DIR becomes its synchronous standby.
    pub standby_of: Option<String>,
    /// `--standby-wait`: how long a primary whose named synchronous standby does not stream
    /// waits for it at its start ([`standby::settle`]).
    pub standby_wait: std::time::Duration,
}

/// How long a primary waits at its start for the synchronous standby it names.
pub const DEFAULT_STANDBY_WAIT_S: u64 = 30;

/// The stations' port, PostgreSQL's and the pages' by default.
pub const DEFAULT_PORT: u16 = 5433;
pub const DEFAULT_STATION_PORT: u16 = 8443;
pub const DEFAULT_PAGES_PORT: u16 = 8080;

const LOCK: &str = "host.lock";
const DIRECTOR_URL: &str = "director.url";

/// A running event server: the cluster, the pages, what was printed.
pub struct Host {
    cluster: Cluster,
    pages: Option<crate::serve::Server>,
    /// The stations' HTTPS API.
    stations: Option<crate::station::StationServer>,
    /// On a primary: names streaming standbys synchronous.
    sync: Option<standby::SyncWatch>,
    /// The director's login over the cluster's socket, for the event server.
    local: Option<Address>,
    /// Where the event server listens, and its TLS.
    servers: Option<Servers>,
    /// Held while the host runs: a second host on DIR finds it taken.
    _lock: std::fs::File,
    pub director_url: String,
    pub stations_address: String,
    pub pages_address: String,
    pub fingerprint: String,
    /// What the start found worth saying (a standby that did not come back).
    pub notes: Vec<String>,
    standby_wait: std::time::Duration,
}

impl Host {
    /// Makes DIR the first time, starts the cluster and the event server. Nothing is
    /// printed; [`Host::announce`] prints the lines `host` prints.
    pub fn start(options: &HostOptions) -> Result<Host, HostError> {
        let (root, me) = cluster::whoami();
        let user =
            ClusterUser::choose(root, &me, options.user.as_deref()).map_err(HostError::Input)?;
        let bin = cluster::find_bin()?;
        let dir = prepare_dir(&options.dir, &user)?;
        let lock = take_lock(&dir)?;
        let cluster = Cluster {
            dir: dir.clone(),
            bin,
            user,
            port: options.port,
        };
        let primary = match &options.standby_of {
            Some(url) => Some(standby::DirectorUrl::parse(url)?),
            None => None,
        };
        if let Some(primary) = &primary {
            if !cluster.exists() {
                standby::make(&cluster, primary)?;
            } else if !standby::is_standby(&cluster) {
                return Err(HostError::Input(format!(
                    "--standby-of: {} holds a primary's cluster already (a standby is made in an \
                     empty folder)",
                    dir.display()
                )));
            }
        }
        let authority = match Authority::load(&dir) {
            Ok(a) => a,
            Err(_) if !dir.join("ca.crt").exists() => {
                let a = Authority::create(&format!("ggdesk event {}", dir_label(&dir)))
                    .map_err(|e| HostError::Other(e.to_string()))?;
                a.save(&dir).map_err(|e| HostError::Other(e.to_string()))?;
                a
            }
            Err(e) => return Err(HostError::Other(format!("the event's authority: {e}"))),
        };
        let public = public_host(options.listen);
        let names = certificate_names(options.listen, public);
        let cert = authority
            .issue(&names)
            .map_err(|e| HostError::Other(e.to_string()))?;
        if !cluster.exists() {
            cluster.create()?;
        }
        // A host killed without its stop leaves the postmaster running: stop it first, so
        // this start's settings (port, address, certificate) are the ones in force.
        cluster.stop()?;
        cluster.configure(
            &Listen {
                addr: options.listen,
            },
            &format!("{}{}", cert.cert_pem, authority.cert_pem()),
            &cert.key_pem,
        )?;
        cluster.start()?;
        // From here on, a failure stops the cluster again (the host is dropped).
        let standby = standby::is_standby(&cluster);
        let mut host = Host {
            cluster,
            pages: None,
            stations: None,
            sync: None,
            local: None,
            servers: None,
            _lock: lock,
            director_url: String::new(),
            stations_address: format!("https://{}:{}/", url_host(public), options.station_port),
            pages_address: String::new(),
            fingerprint: authority.fingerprint(),
            notes: Vec::new(),
            standby_wait: options.standby_wait,
        };
        let password = match (read_director_password(&dir), &primary) {
            (Some(p), _) => p,
            (None, Some(primary)) => primary.password.clone(),
            (None, None) => {
                let password = crate::store::new_token();
                let verifier = postgres_protocol::password::scram_sha_256(password.as_bytes());
                host.cluster.director(&verifier)?;
                password
            }
        };
        host.director_url = match &primary {
            Some(primary) => standby::both_hosts_url(primary, &public.to_string(), options.port),
            None => format!(
                "postgres://{DIRECTOR}:{password}@{}:{}/{DATABASE}?ggdesk_ca=sha256:{}",
                url_host(public),
                options.port,
                host.fingerprint
            ),
        };
        cluster::write_file(
            &dir.join(DIRECTOR_URL),
            &format!("{}\n", host.director_url),
            0o600,
        )?;
        host.local = Some(host.local_address(&password));
        host.servers = Some(Servers {
            bind: options.listen.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED)),
            station_port: options.station_port,
            pages_port: options.pages_port,
            tls: std::sync::Arc::new(
                cert.server_config()
                    .map_err(|e| HostError::Other(e.to_string()))?,
            ),
        });
        host.pages_address = format!("http://{}:{}/", url_host(public), options.pages_port);
        // A standby's stations' address goes on the primary's cards (through the primary:
        // the standby itself is read-only).
        if let (Some(url), true) = (&options.standby_of, standby)
            && let Err(e) = record_standby(url, &host.stations_address)
        {
            host.notes.push(format!(
                "warning: this standby's stations' address could not be recorded on the \
                 primary ({e}): cards made there name only the primary's"
            ));
        }
        if !standby {
            host.serve()?;
        }
        Ok(host)
    }

    /// Whether this host's cluster is a standby not yet promoted (its event server waits).
    pub fn is_standby(&self) -> bool {
        self.stations.is_none()
    }

    /// Looks once whether a standby was promoted; then starts its event server. Answers
    /// whether it did just now.
    pub fn poll(&mut self) -> Result<bool, HostError> {
        if self.stations.is_some() || standby::is_standby(&self.cluster) {
            return Ok(false);
        }
        standby::forget_synchronous_standbys(&self.cluster)?;
        self.serve()?;
        Ok(true)
    }

    /// The event server of a primary: the event's tables brought up to this build, the
    /// server recorded for the stations' cards, the authority kept for a standby's copy, the
    /// watch that makes standbys synchronous, the stations' API and the public pages.
    fn serve(&mut self) -> Result<(), HostError> {
        let (Some(local), Some(servers)) = (self.local.clone(), self.servers.clone()) else {
            return Ok(());
        };
        let db = |e: crate::store::StoreError| HostError::Other(format!("the event database: {e}"));
        // A synchronous standby named before this start that does not stream would hold
        // every commit, the event server's first among them: waited for a while, then not.
        if let Some(note) = standby::settle(&self.cluster, self.standby_wait)? {
            self.notes.push(note);
        }
        // The event server's own connections go over the cluster's socket. The first one
        // makes the event's tables (or brings them up to this build's schema).
        let mut store = crate::store::Store::connect(&local).map_err(db)?;
        store
            .set_event_server(&crate::store::EventServer {
                stations_address: self.stations_address.clone(),
                authority: self.fingerprint.clone(),
            })
            .map_err(db)?;
        standby::keep_authority_in_cluster(&self.cluster)?;
        self.sync = Some(standby::SyncWatch::start(&self.cluster));
        let station_listener =
            std::net::TcpListener::bind(SocketAddr::new(servers.bind, servers.station_port))
                .map_err(|e| {
                    HostError::Other(format!("the stations' port {}: {e}", servers.station_port))
                })?;
        self.stations = Some(
            crate::station::spawn(station_listener, servers.tls.clone(), local.clone())
                .map_err(|e| HostError::Other(format!("the stations' API: {e}")))?,
        );
        // The public pages read with a login of their own (a member of the pages' read-only
        // role and nothing else, over the socket only), never the director's: a new password
        // at each start, known to this process alone.
        let pages_password = crate::store::new_token();
        store
            .set_pages_login(
                cluster::PAGES,
                &postgres_protocol::password::scram_sha_256(pages_password.as_bytes()),
            )
            .map_err(db)?;
        let pages_login = self.socket_address(cluster::PAGES, &pages_password);
        let pages = crate::serve::Server::start(&crate::serve::ServeConfig::new(
            pages_login,
            SocketAddr::new(servers.bind, servers.pages_port),
        ))
        .map_err(|e| HostError::Other(format!("the public pages: {e}")))?;
        self.pages = Some(pages);
        Ok(())
    }

    /// The director's login over the cluster's own socket (for the event server itself).
    fn local_address(&self, password: &str) -> Address {
        self.socket_address(DIRECTOR, password)
    }

    /// `login` over the cluster's own socket.
    fn socket_address(&self, login: &str, password: &str) -> Address {
        let socket = percent_encoded(&self.cluster.dir.to_string_lossy());
        Address::Server(format!(
            "postgres://{login}:{password}@{socket}:{}/{DATABASE}",
            self.cluster.port
        ))
    }

    /// The lines `host` prints once it is ready, `ready` last.
    pub fn announce(&self, out: &mut impl Write) -> std::io::Result<()> {
        writeln!(out, "director: {}", self.director_url)?;
        writeln!(out, "stations: {}", self.stations_address)?;
        writeln!(out, "authority: sha256:{}", self.fingerprint)?;
        writeln!(out, "public pages: {}", self.pages_address)?;
        for note in &self.notes {
            writeln!(out, "{note}")?;
        }
        if self.is_standby() {
            writeln!(
                out,
                "standby: every commit of the primary is here; the stations' API and the public \
                 pages start here once it is promoted (pg_ctl promote -D {})",
                self.cluster.data().display()
            )?;
        }
        writeln!(
            out,
            "the director's URL is in {} (readable by its owner only); Ctrl+C stops",
            self.cluster.dir.join(DIRECTOR_URL).display()
        )?;
        writeln!(out, "ready")?;
        out.flush()
    }

    /// Stops the event server and the cluster (fast shutdown: every commit kept).
    pub fn stop(mut self) -> Result<(), HostError> {
        self.stop_all()
    }

    fn stop_all(&mut self) -> Result<(), HostError> {
        self.sync.take();
        if let Some(stations) = self.stations.take() {
            stations.stop();
        }
        if let Some(pages) = self.pages.take() {
            pages.stop();
        }
        self.cluster.stop()
    }
}

impl Drop for Host {
    /// A host that failed to start, or was not stopped, leaves no cluster running.
    fn drop(&mut self) {
        let _ = self.stop_all();
    }
}

/// Records `address` as a standby's stations' address on the primary `url` names.
fn record_standby(url: &str, address: &str) -> Result<(), crate::store::StoreError> {
    let mut primary = crate::store::Store::connect(&Address::Server(url.to_string()))?;
    primary.add_standby_address(address)
}

/// Where the event server listens (started at once on a primary, on promotion on a standby).
#[derive(Clone)]
struct Servers {
    bind: IpAddr,
    station_port: u16,
    pages_port: u16,
    tls: std::sync::Arc<rustls::ServerConfig>,
}

/// DIR made (0700) and given to the cluster's user; answers its absolute path.
fn prepare_dir(dir: &Path, user: &ClusterUser) -> Result<PathBuf, HostError> {
    use std::os::unix::fs::DirBuilderExt;
    let created = !dir.exists();
    if created {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| HostError::Other(format!("cannot create {}: {e}", dir.display())))?;
    }
    if !dir.is_dir() {
        return Err(HostError::Input(format!(
            "{} is not a folder",
            dir.display()
        )));
    }
    let dir = std::fs::canonicalize(dir)
        .map_err(|e| HostError::Other(format!("{}: {e}", dir.display())))?;
    // PostgreSQL's socket is DIR/.s.PGSQL.PORT: its path must fit in a socket address.
    if dir.as_os_str().len() + ".s.PGSQL.65535".len() + 1 > 107 {
        return Err(HostError::Input(format!(
            "{}: the folder's path is too long for PostgreSQL's socket (at most 92 characters)",
            dir.display()
        )));
    }
    let has_data = dir.join("data").exists();
    if !has_data && let Err(e) = user.own(&dir) {
        // A folder made for nothing goes again.
        if created {
            let _ = std::fs::remove_dir(&dir);
        }
        return Err(e);
    }
    Ok(dir)
}

/// Takes DIR's lock, or names the host that holds it (exit 1).
fn take_lock(dir: &Path) -> Result<std::fs::File, HostError> {
    let path = dir.join(LOCK);
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| HostError::Other(format!("{}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let pid = std::fs::read_to_string(&path).unwrap_or_default();
            let pid = pid.trim();
            let who = if pid.is_empty() {
                String::new()
            } else {
                format!(" (pid {pid})")
            };
            return Err(HostError::Other(format!(
                "another ggdesk host is running on {}{who}: stop it first",
                dir.display()
            )));
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(HostError::Other(format!("{}: {e}", path.display())));
        }
    }
    file.set_len(0)
        .and_then(|()| {
            use std::io::Seek;
            file.seek(std::io::SeekFrom::Start(0))?;
            writeln!(file, "{}", std::process::id())?;
            file.sync_all()
        })
        .map_err(|e| HostError::Other(format!("{}: {e}", path.display())))?;
    Ok(file)
}

/// The director's password from `DIR/director.url`, when a host wrote it before.
fn read_director_password(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(DIRECTOR_URL)).ok()?;
    let rest = text.trim().split_once("://")?.1;
    let credentials = rest.split_once('@')?.0;
    let (user, password) = credentials.split_once(':')?;
    (user == DIRECTOR && !password.is_empty()).then(|| password.to_string())
}

/// The address others reach this laptop by: `--listen`'s, else the address its traffic
/// leaves by (found without sending anything), else loopback.
fn public_host(listen: Option<IpAddr>) -> IpAddr {
    if let Some(a) = listen.filter(|a| !a.is_unspecified()) {
        return a;
    }
    UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| {
            s.connect("192.0.2.1:9")?;
            s.local_addr()
        })
        .map(|a| a.ip())
        .ok()
        .filter(|ip| !ip.is_unspecified())
        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
}

/// The names the server certificate holds: the laptop's host name, `localhost`, loopback,
/// and the addresses it is reached by.
fn certificate_names(listen: Option<IpAddr>, public: IpAddr) -> Vec<String> {
    let mut names = Vec::new();
    if let Ok(name) = std::fs::read_to_string("/proc/sys/kernel/hostname") {
        let name = name.trim();
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
        if valid {
            names.push(name.to_string());
        }
    }
    names.push("localhost".into());
    let mut ips = vec![
        IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(std::net::Ipv6Addr::LOCALHOST),
        public,
    ];
    ips.extend(listen.filter(|a| !a.is_unspecified()));
    for ip in ips {
        let text = ip.to_string();
        if !names.contains(&text) {
            names.push(text);
        }
    }
    names
}

/// A text as a URL's part: every byte but letters, digits and `-._~` as `%XX`.
fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A host as a URL writes it (an IPv6 address in brackets).
fn url_host(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("[{v6}]"),
    }
}

/// DIR's last component, to name the event's authority.
fn dir_label(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "event".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directors_password_is_read_back_from_its_url() {
        let dir = std::env::temp_dir().join(format!("ggdesk-host-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("unit test");
        assert_eq!(read_director_password(&dir), None);
        std::fs::write(
            dir.join(DIRECTOR_URL),
            "postgres://director:s3cret@10.0.0.2:5433/event?ggdesk_ca=sha256:ab\n",
        )
        .expect("unit test");
        assert_eq!(read_director_password(&dir).as_deref(), Some("s3cret"));
        std::fs::write(dir.join(DIRECTOR_URL), "postgres://someone:x@h/event\n")
            .expect("unit test");
        assert_eq!(read_director_password(&dir), None);
        std::fs::remove_dir_all(&dir).expect("unit test");
    }

    #[test]
    fn the_certificate_names_loopback_and_the_public_address() {
        let public: IpAddr = "192.168.1.10".parse().expect("unit test");
        let names = certificate_names(None, public);
        for want in ["localhost", "127.0.0.1", "::1", "192.168.1.10"] {
            assert!(
                names.iter().any(|n| n == want),
                "{want} missing from {names:?}"
            );
        }
        assert_eq!(url_host("::1".parse().expect("unit test")), "[::1]");
    }
}
