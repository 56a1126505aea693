//! The state of an event server and its standby, as `ggdesk status` prints it and the
//! director's desk shows it: which host is the primary, whether a synchronous standby is
//! connected, and how far behind it is. Read from PostgreSQL's own views
//! (`pg_stat_replication`, `pg_stat_wal_receiver`); ggdesk adds no replication of its own.

use super::conn::Address;
use super::error::{Result, StoreError};
use super::pg;
use super::pgtls::Endpoint;
use super::sqlite::SCHEMA_VERSION;
use postgres::Config;
use postgres::config::Host;
use std::time::Duration;

/// One server of the address, as seen now.
#[derive(Debug, Clone, PartialEq)]
pub enum ServerState {
    /// A SQLite file: one copy, no standby.
    File {
        path: String,
    },
    Primary {
        host: String,
        /// Standbys connected: (name, sync state, bytes not yet replayed, replay lag in s).
        standbys: Vec<StandbyState>,
        /// `synchronous_standby_names` as set on the primary.
        synchronous_names: String,
    },
    Standby {
        host: String,
        /// Streaming from the primary now.
        streaming: bool,
        /// Bytes received but not yet replayed.
        replay_behind: i64,
        /// Seconds since the last transaction replayed (`None` before any).
        last_replay_age_s: Option<f64>,
    },
    /// The login may not see the replication views' details (PostgreSQL shows them only to
    /// superusers and members of `pg_read_all_stats`, which `pg_monitor` includes): whether a
    /// standby is connected, synchronous, or how far behind, is not known.
    Unmonitored {
        host: String,
        /// The server is a standby (in recovery).
        standby: bool,
    },
    Unreachable {
        host: String,
        detail: String,
    },
}

/// A standby as the primary sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct StandbyState {
    pub name: String,
    /// `sync`, `quorum`, `potential` or `async`.
    pub sync_state: String,
    /// `streaming`, `catchup`, ...
    pub state: String,
    pub bytes_behind: i64,
    pub replay_lag_s: Option<f64>,
}

impl ServerState {
    /// Commits are being acknowledged without a synchronous standby holding them.
    pub fn unprotected(&self) -> bool {
        match self {
            ServerState::Primary { standbys, .. } => !standbys
                .iter()
                .any(|s| s.sync_state == "sync" || s.sync_state == "quorum"),
            _ => false,
        }
    }

    /// What the director should look at: commits unprotected, a standby's state not known,
    /// or a server that does not answer.
    pub fn warning(&self) -> bool {
        self.unprotected()
            || matches!(
                self,
                ServerState::Unmonitored { .. } | ServerState::Unreachable { .. }
            )
    }
}

impl std::fmt::Display for ServerState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServerState::File { path } => write!(
                f,
                "{path}: SQLite file (schema {SCHEMA_VERSION}), one copy: no standby; backups in backups/ beside it"
            ),
            ServerState::Primary {
                host,
                standbys,
                synchronous_names,
            } => {
                write!(f, "{host}: primary")?;
                if standbys.is_empty() {
                    write!(f, "; no standby connected")?;
                }
                for s in standbys {
                    write!(
                        f,
                        "; standby {} {} ({}), {} bytes behind",
                        s.name, s.sync_state, s.state, s.bytes_behind
                    )?;
                    if let Some(lag) = s.replay_lag_s {
                        write!(f, ", replay lag {lag:.3} s")?;
                    }
                }
                if self.unprotected() {
                    write!(
                        f,
                        "; WARNING: commits are acknowledged without a synchronous standby"
                    )?;
                    if synchronous_names.is_empty() {
                        write!(f, " (synchronous_standby_names is not set)")?;
                    }
                }
                Ok(())
            }
            ServerState::Standby {
                host,
                streaming,
                replay_behind,
                last_replay_age_s,
            } => {
                write!(
                    f,
                    "{host}: standby, {}, {replay_behind} bytes received not yet replayed",
                    if *streaming {
                        "streaming from the primary"
                    } else {
                        "NOT streaming from a primary"
                    }
                )?;
                if let Some(age) = last_replay_age_s {
                    write!(f, ", last transaction replayed {age:.1} s ago")?;
                }
                Ok(())
            }
            ServerState::Unmonitored { host, standby } => write!(
                f,
                "{host}: {}; standby state unknown: grant pg_monitor to the director",
                if *standby { "standby" } else { "primary" }
            ),
            ServerState::Unreachable { host, detail } => {
                write!(f, "{host}: unreachable ({detail})")
            }
        }
    }
}

/// The configuration of one host of `config`.
fn single_host(config: &Config, host: &Host, port: u16) -> Config {
    let mut one = Config::new();
    if let Some(u) = config.get_user() {
        one.user(u);
    }
    if let Some(p) = config.get_password() {
        one.password(p);
    }
    if let Some(d) = config.get_dbname() {
        one.dbname(d);
    }
    // The same encryption as the whole address's (`pgtls`).
    one.ssl_mode(config.get_ssl_mode());
    match host {
        Host::Tcp(h) => {
            one.host(h);
        }
        Host::Unix(p) => {
            one.host_path(p);
        }
    }
    one.port(port)
        .connect_timeout(Duration::from_secs(2))
        .application_name("ggdesk status");
    one
}

fn host_label(host: &Host, port: u16) -> String {
    match host {
        Host::Tcp(h) => format!("{h}:{port}"),
        Host::Unix(p) => format!("{}:{port}", p.display()),
    }
}

/// One value of a row, or why it could not be read (a NULL where a value was expected).
fn value<'a, T: postgres::types::FromSql<'a>>(
    row: &'a postgres::Row,
    i: usize,
) -> std::result::Result<T, String> {
    row.try_get(i)
        .map_err(|e| match std::error::Error::source(&e) {
            Some(cause) => format!("{e}: {cause}"),
            None => e.to_string(),
        })
}

/// The state of one server, never a panic: a value that cannot be read says so.
fn probe(endpoint: &Endpoint, host: String) -> ServerState {
    let unreachable = |detail: String| ServerState::Unreachable {
        host: host.clone(),
        detail,
    };
    // The cause alone: "not connected: nothing is being saved" is the desk's own connection's
    // line, and would be wrong here while the desk saves on another host.
    let cause = |e: postgres::Error| match StoreError::from(e) {
        StoreError::Disconnected(why) => why,
        other => other.to_string(),
    };
    let mut client = match endpoint.connect() {
        Ok(c) => c,
        Err(e) => {
            return unreachable(match StoreError::from(e) {
                StoreError::Disconnected(why) => why,
                other => other.to_string(),
            });
        }
    };
    let lost = cause;
    // The replication views show their details only to superusers and to members of
    // pg_read_all_stats (pg_monitor): others see NULLs, which would read as "no standby".
    let who = client
        .query_one(
            "SELECT pg_is_in_recovery(),
                    COALESCE((SELECT rolsuper FROM pg_roles WHERE rolname = current_user), false)
                    OR pg_has_role(current_user, 'pg_read_all_stats', 'USAGE')",
            &[],
        )
        .map_err(lost)
        .and_then(|r| Ok((value::<bool>(&r, 0)?, value::<bool>(&r, 1)?)));
    let (standby, monitored) = match who {
        Ok(v) => v,
        Err(e) => return unreachable(e),
    };
    if !monitored {
        return ServerState::Unmonitored { host, standby };
    }
    let state = if standby {
        client
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming'),
                        COALESCE(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()), 0)::float8,
                        EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp()))::float8",
                &[],
            )
            .map_err(lost)
            .and_then(|r| {
                Ok(ServerState::Standby {
                    host: host.clone(),
                    streaming: value(&r, 0)?,
                    replay_behind: value::<f64>(&r, 1)? as i64,
                    last_replay_age_s: value(&r, 2)?,
                })
            })
    } else {
        let names = client
            .query_one("SELECT current_setting('synchronous_standby_names')", &[])
            .map_err(lost)
            .and_then(|r| value::<String>(&r, 0));
        let rows = client
            .query(
                "SELECT COALESCE(application_name, ''), COALESCE(sync_state, 'unknown'),
                        COALESCE(state, 'unknown'),
                        COALESCE(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), 0)::float8,
                        EXTRACT(EPOCH FROM replay_lag)::float8
                 FROM pg_stat_replication ORDER BY application_name",
                &[],
            )
            .map_err(lost)
            .and_then(|rows| {
                rows.iter()
                    .map(|r| {
                        Ok(StandbyState {
                            name: value(r, 0)?,
                            sync_state: value(r, 1)?,
                            state: value(r, 2)?,
                            bytes_behind: value::<f64>(r, 3)? as i64,
                            replay_lag_s: value(r, 4)?,
                        })
                    })
                    .collect::<std::result::Result<Vec<_>, String>>()
            });
        names.and_then(|names| {
            Ok(ServerState::Primary {
                host: host.clone(),
                synchronous_names: names,
                standbys: rows?,
            })
        })
    };
    state.unwrap_or_else(unreachable)
}

/// The state of every server the address names.
pub fn server_status(address: &Address) -> Result<Vec<ServerState>> {
    match address {
        Address::File(path) => Ok(vec![ServerState::File {
            path: path.display().to_string(),
        }]),
        Address::Server(url) => {
            let endpoint = pg::endpoint(url)?;
            let config = endpoint.config();
            let hosts = config.get_hosts();
            let ports = config.get_ports();
            Ok(hosts
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
                    probe(
                        &endpoint.with_config(single_host(config, h, port)),
                        host_label(h, port),
                    )
                })
                .collect())
        }
    }
}
