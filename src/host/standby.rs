//! `ggdesk host DIR --standby-of URL`: DIR becomes a synchronous standby of a running host,
//! over TLS checked against the event's authority (replacing the manual steps of
//! `docs/standby.md`).
//!
//! The primary keeps its authority inside its cluster (`data/ggdesk-authority/`, readable by
//! the cluster's user only), so the base backup brings it to the standby, which signs its own
//! server certificate with it: desks' URLs naming both hosts check both against the one
//! authority. Before anything is sent to the primary, the standby checks the primary's
//! certificate against the fingerprint in the URL (`ggdesk_ca=sha256:HEX`) and keeps the
//! authority's certificate it presented (`DIR/ca.crt`) to check every later connection.
//!
//! The primary's host names each streaming standby in `synchronous_standby_names` once it
//! streams (not before: a named standby that is absent would hold every commit).

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::HostError;
use super::cluster::{Cluster, DIRECTOR, write_file};
use crate::tls::{Pin, PinnedAuthority};

/// Where the primary keeps its authority inside the cluster (copied by the base backup).
pub const AUTHORITY_IN_DATA: &str = "ggdesk-authority";
/// The standby's password file for its replication connection (0600).
const PASSFILE: &str = "standby.pgpass";

/// A director's URL as `host` prints it: the login, the hosts and the pinned authority.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectorUrl {
    pub user: String,
    pub password: String,
    pub hosts: Vec<(String, u16)>,
    pub pin: Pin,
}

impl DirectorUrl {
    /// Reads a director's URL of a running host, or says what is missing.
    pub fn parse(url: &str) -> Result<DirectorUrl, HostError> {
        let bad = |why: &str| HostError::Input(format!("--standby-of: {why}"));
        let rest = url
            .strip_prefix("postgres://")
            .or_else(|| url.strip_prefix("postgresql://"))
            .ok_or_else(|| bad("not a postgres:// URL"))?;
        let (login, rest) = rest.split_once('@').ok_or_else(|| {
            bad("the URL names no login (the director's URL of the primary's host)")
        })?;
        let (user, password) = login
            .split_once(':')
            .ok_or_else(|| bad("the URL has no password (use the primary's DIR/director.url)"))?;
        let (hosts, rest) = rest.split_once('/').unwrap_or((rest, ""));
        let query = rest.split_once('?').map(|(_, q)| q).unwrap_or("");
        let pin = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("ggdesk_ca="))
            .ok_or_else(|| {
                bad("the URL names no authority (ggdesk_ca=sha256:...): the standby would not know whom it copies")
            })
            .and_then(|fp| Pin::parse(fp).map_err(|e| bad(&e)))?;
        let hosts = hosts
            .split(',')
            .map(|h| {
                let (name, port) = match h.rsplit_once(':') {
                    Some((n, p)) if !n.ends_with(']') || h.starts_with('[') => (
                        n,
                        p.parse::<u16>()
                            .map_err(|_| bad(&format!("{h}: not a port")))?,
                    ),
                    _ => (h, 5432),
                };
                let name = name.trim_start_matches('[').trim_end_matches(']');
                if name.is_empty() {
                    return Err(bad("a host is empty"));
                }
                Ok((name.to_string(), port))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(DirectorUrl {
            user: user.to_string(),
            password: password.to_string(),
            hosts,
            pin,
        })
    }
}

/// The authority's certificate as the primary at `host:port` presents it, checked against
/// `pin` (PostgreSQL's TLS: the SSLRequest, then the handshake; nothing else is sent).
pub fn fetch_authority(host: &str, port: u16, pin: &Pin) -> Result<String, HostError> {
    let where_ = format!("{host}:{port}");
    let fail = |e: std::io::Error| HostError::Other(format!("the primary {where_}: {e}"));
    let addr = (host, port)
        .to_socket_addrs()
        .map_err(fail)?
        .next()
        .ok_or_else(|| HostError::Other(format!("the primary {where_}: no address")))?;
    let mut tcp = TcpStream::connect_timeout(&addr, Duration::from_secs(30)).map_err(fail)?;
    tcp.set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(fail)?;
    // PostgreSQL's SSLRequest: length 8, code 80877103.
    tcp.write_all(&[0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f])
        .map_err(fail)?;
    let mut answer = [0u8; 1];
    tcp.read_exact(&mut answer).map_err(fail)?;
    if answer[0] != b'S' {
        return Err(HostError::Other(format!(
            "the primary {where_} does not offer TLS"
        )));
    }
    let authority = PinnedAuthority::new(pin.clone());
    let config = authority
        .client_config()
        .map_err(|e| HostError::Other(e.to_string()))?;
    let name = rustls::pki_types::ServerName::try_from(host.to_string())
        .map_err(|e| HostError::Input(format!("--standby-of: {host}: {e}")))?;
    let mut tls = rustls::ClientConnection::new(Arc::new(config), name)
        .map_err(|e| HostError::Other(e.to_string()))?;
    while tls.is_handshaking() {
        tls.complete_io(&mut tcp)
            .map_err(|e| HostError::Other(format!("the primary {where_}: {}", unwrapped(&e))))?;
    }
    tls.send_close_notify();
    let _ = tls.complete_io(&mut tcp);
    authority
        .authority_pem()
        .ok_or_else(|| HostError::Other(format!("the primary {where_} presented no authority")))
}

/// A TLS failure's words without rustls' wrapping ("invalid peer certificate: Other(...)").
fn unwrapped(e: &std::io::Error) -> String {
    let text = e.to_string();
    match e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>())
    {
        Some(rustls::Error::General(words)) => words.clone(),
        Some(rustls::Error::InvalidCertificate(rustls::CertificateError::Other(o))) => {
            o.to_string()
        }
        _ => text,
    }
}

/// Copies the primary's authority into its cluster, for the base backup to carry.
pub fn keep_authority_in_cluster(cluster: &Cluster) -> Result<(), HostError> {
    let into = cluster.data().join(AUTHORITY_IN_DATA);
    std::fs::create_dir_all(&into)
        .map_err(|e| HostError::Other(format!("{}: {e}", into.display())))?;
    for file in ["ca.crt", "ca.key", "ca.name"] {
        let text = std::fs::read_to_string(cluster.dir.join(file))
            .map_err(|e| HostError::Other(format!("{}: {e}", cluster.dir.join(file).display())))?;
        write_file(&into.join(file), &text, 0o600)?;
    }
    cluster.user.own(&into)
}

/// Makes DIR/data a standby of `primary`: the authority checked and kept, a base backup over
/// TLS with a replication slot, and the connection it streams by. Answers the standby's name.
pub fn make(cluster: &Cluster, primary: &DirectorUrl) -> Result<String, HostError> {
    let (host, port) = primary
        .hosts
        .first()
        .cloned()
        .ok_or_else(|| HostError::Input("--standby-of: the URL names no host".into()))?;
    let ca_pem = fetch_authority(&host, port, &primary.pin)?;
    let dir = &cluster.dir;
    write_file(&dir.join("ca.crt"), &ca_pem, 0o644)?;
    let passfile = dir.join(PASSFILE);
    write_file(
        &passfile,
        &format!(
            "*:*:*:{}:{}\n",
            escape_pgpass(&primary.user),
            escape_pgpass(&primary.password)
        ),
        0o600,
    )?;
    cluster.user.own(dir)?;
    let name = format!("ggdesk_standby_{}", &crate::store::new_token()[..8]);
    let conninfo = conninfo(&host, port, &primary.user, dir, &name);
    let data = cluster.data().to_string_lossy().into_owned();
    let out = cluster
        .user
        .command(&cluster.bin.join("pg_basebackup"))
        .args([
            "-D", &data, "-X", "stream", "-c", "fast", "-C", "-S", &name, "-R", "-w", "-d",
        ])
        .arg(&conninfo)
        .env("PGPASSFILE", &passfile)
        .output()
        .map_err(|e| HostError::Other(format!("cannot run pg_basebackup: {e}")))?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(cluster.data());
        return Err(HostError::Other(format!(
            "copying the primary {host}:{port}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    // The authority came with the copy: the standby signs its own certificate with it.
    let from = cluster.data().join(AUTHORITY_IN_DATA);
    for file in ["ca.key", "ca.name"] {
        let text = std::fs::read_to_string(from.join(file)).map_err(|e| {
            HostError::Other(format!(
                "the primary's copy holds no authority ({}: {e}): is it run by `ggdesk host`?",
                from.join(file).display()
            ))
        })?;
        write_file(&dir.join(file), &text, 0o600)?;
    }
    // The connection it streams by: checked against the authority, the password in its
    // own file, named so the primary can wait for it.
    let auto = cluster.data().join("postgresql.auto.conf");
    let text = std::fs::read_to_string(&auto)
        .map_err(|e| HostError::Other(format!("{}: {e}", auto.display())))?;
    // The primary's own `synchronous_standby_names` does not come along: pg_basebackup's
    // stream carries the standby's name, which the primary's watch may have named before
    // the copy was taken, and a standby promoted with its own name there would wait at
    // every commit for a standby that never comes.
    let mut kept: Vec<&str> = text
        .lines()
        .filter(|l| {
            !l.starts_with("primary_conninfo")
                && !l.starts_with("primary_slot_name")
                && !l.starts_with("synchronous_standby_names")
        })
        .collect();
    let line = format!(
        "primary_conninfo = '{}'\nprimary_slot_name = '{name}'",
        conninfo.replace('\'', "''")
    );
    kept.push(&line);
    write_file(&auto, &(kept.join("\n") + "\n"), 0o600)?;
    cluster.user.own(dir)?;
    Ok(name)
}

/// The standby's connection to its primary (libpq's words), with no password in it.
fn conninfo(host: &str, port: u16, user: &str, dir: &Path, name: &str) -> String {
    format!(
        "host={host} port={port} user={user} passfile={} sslmode=verify-full sslrootcert={} \
         application_name={name}",
        dir.join(PASSFILE).display(),
        dir.join("ca.crt").display()
    )
}

fn escape_pgpass(text: &str) -> String {
    text.replace('\\', "\\\\").replace(':', "\\:")
}

/// Whether DIR/data is a standby (not yet promoted).
pub fn is_standby(cluster: &Cluster) -> bool {
    cluster.data().join("standby.signal").exists()
}

/// The primary's watch: names each streaming standby in `synchronous_standby_names`, so
/// that no commit is acknowledged before the standby has it.
pub struct SyncWatch {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl SyncWatch {
    pub fn start(cluster: &Cluster) -> SyncWatch {
        let stop = Arc::new(AtomicBool::new(false));
        let watcher = Cluster {
            dir: cluster.dir.clone(),
            bin: cluster.bin.clone(),
            user: cluster.user.clone(),
            port: cluster.port,
        };
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("ggdesk-sync-standby".into())
            .spawn(move || {
                while !flag.load(Ordering::SeqCst) {
                    let _ = name_streaming_standbys(&watcher);
                    for _ in 0..10 {
                        if flag.load(Ordering::SeqCst) {
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(100));
                    }
                }
            })
            .ok();
        SyncWatch { stop, thread }
    }
}

impl Drop for SyncWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// One look: on a primary, every streaming standby of ggdesk's named synchronous.
fn name_streaming_standbys(cluster: &Cluster) -> Result<(), HostError> {
    let state = cluster.sql(
        "postgres",
        "SELECT pg_is_in_recovery()::text || '|' || current_setting('synchronous_standby_names') \
         || '|' || coalesce((SELECT string_agg(application_name, ',' ORDER BY application_name) \
         FROM pg_stat_replication WHERE state = 'streaming' \
         AND application_name LIKE 'ggdesk\\_standby\\_%'), '');",
    )?;
    let parts: Vec<&str> = state.trim().splitn(3, '|').collect();
    let [recovery, named, streaming] = parts.as_slice() else {
        return Ok(());
    };
    if *recovery != "false" || streaming.is_empty() {
        return Ok(());
    }
    let mut names: Vec<String> = named_standbys(named);
    let before = names.len();
    for s in streaming.split(',') {
        if !names.iter().any(|n| n == s) {
            names.push(s.to_string());
        }
    }
    if names.len() == before {
        return Ok(());
    }
    let setting = format!("FIRST 1 ({})", names.join(", "));
    cluster.sql(
        "postgres",
        &format!(
            "ALTER SYSTEM SET synchronous_standby_names = '{setting}';\nSELECT pg_reload_conf();"
        ),
    )?;
    Ok(())
}

/// At a primary's start: when `synchronous_standby_names` names standbys and none of them
/// streams, waits up to `wait` for one; if none comes, the primary stops waiting for them
/// at each commit (the setting is reset; the watch names a standby again as soon as it
/// streams) and says so. Without this, a primary restarted after its standby laptop was
/// lost held every commit, its own start's among them, without a word.
pub fn settle(cluster: &Cluster, wait: Duration) -> Result<Option<String>, HostError> {
    let look = || -> Result<(Vec<String>, bool), HostError> {
        let state = cluster.sql(
            "postgres",
            "SELECT current_setting('synchronous_standby_names') || '|' || \
             coalesce((SELECT string_agg(application_name, ',') FROM pg_stat_replication \
             WHERE state = 'streaming'), '');",
        )?;
        let (named, streaming) = state.trim().split_once('|').unwrap_or((state.trim(), ""));
        let names = named_standbys(named);
        let streams = streaming.split(',').any(|s| names.iter().any(|n| n == s));
        Ok((names, streams))
    };
    let began = std::time::Instant::now();
    loop {
        let (names, streams) = look()?;
        if names.is_empty() || streams {
            return Ok(None);
        }
        if began.elapsed() >= wait {
            forget_synchronous_standbys(cluster)?;
            return Ok(Some(format!(
                "warning: the synchronous standby {} did not connect within {} s: commits no \
                 longer wait for it (it is named again as soon as it streams; make a standby \
                 with ggdesk host DIR --standby-of URL)",
                names.join(", "),
                wait.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// A standby just promoted waits for no standby: whatever `synchronous_standby_names` it
/// holds (a copy made before this build kept the primary's) is reset, and the watch names
/// the standbys that stream to it from now on.
pub fn forget_synchronous_standbys(cluster: &Cluster) -> Result<(), HostError> {
    cluster.sql(
        "postgres",
        "ALTER SYSTEM RESET synchronous_standby_names;\nSELECT pg_reload_conf();",
    )?;
    Ok(())
}

/// The names in a `synchronous_standby_names` value ggdesk wrote (`FIRST 1 (a, b)`).
fn named_standbys(setting: &str) -> Vec<String> {
    let inner = setting
        .split_once('(')
        .and_then(|(_, r)| r.rsplit_once(')'))
        .map(|(i, _)| i)
        .unwrap_or(setting);
    inner
        .split(',')
        .map(|s| s.trim().trim_matches('"').to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The URL desks use once there is a standby: both hosts, whichever is primary now.
pub fn both_hosts_url(primary: &DirectorUrl, standby_host: &str, standby_port: u16) -> String {
    let mut hosts: Vec<String> = primary
        .hosts
        .iter()
        .map(|(h, p)| format!("{}:{p}", bracketed(h)))
        .collect();
    hosts.push(format!("{}:{standby_port}", bracketed(standby_host)));
    format!(
        "postgres://{DIRECTOR}:{}@{}/event?target_session_attrs=read-write&ggdesk_ca=sha256:{}",
        primary.password,
        hosts.join(","),
        primary.pin.as_str()
    )
}

fn bracketed(host: &str) -> String {
    if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directors_url_gives_login_hosts_and_pin() {
        let fp = "ab".repeat(32);
        let url = DirectorUrl::parse(&format!(
            "postgres://director:pw@10.0.0.2:5433,[::1]:6000/event?ggdesk_ca=sha256:{fp}"
        ))
        .expect("a director's URL");
        assert_eq!(url.user, "director");
        assert_eq!(url.password, "pw");
        assert_eq!(
            url.hosts,
            vec![("10.0.0.2".to_string(), 5433), ("::1".to_string(), 6000)]
        );
        assert_eq!(url.pin.as_str(), fp);
        let refused = DirectorUrl::parse("postgres://director:pw@10.0.0.2:5433/event")
            .expect_err("no authority");
        assert_eq!(
            refused.to_string(),
            "--standby-of: the URL names no authority (ggdesk_ca=sha256:...): the standby \
             would not know whom it copies"
        );
    }

    #[test]
    fn the_names_ggdesk_wrote_are_read_back() {
        assert_eq!(
            named_standbys("FIRST 1 (ggdesk_standby_a, ggdesk_standby_b)"),
            vec!["ggdesk_standby_a", "ggdesk_standby_b"]
        );
        assert!(named_standbys("").is_empty());
    }
}
