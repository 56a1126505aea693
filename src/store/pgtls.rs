//! How a PostgreSQL URL is reached (`spec/server.md`, "Encryption" and "The database
//! address"): in plain text only to this computer, otherwise over TLS with the server's
//! certificate checked, before anything (a login, a password) is sent.
//!
//! ggdesk reads and removes from the URL what the postgres crate does not know or means
//! otherwise: `ggdesk_ca=sha256:HEX` (the event's authority, pinned by its fingerprint),
//! `sslrootcert=PATH` (a PEM file of authorities) and `sslmode` (libpq's `verify-ca` and
//! `verify-full` are unknown to the crate). Every connection to a server (the store's, the
//! listener's, `status`'s) is made here, through [`Endpoint::connect`].
//!
//! | the URL says | to this computer | to another host |
//! |---|---|---|
//! | `ggdesk_ca=` or `sslrootcert=` | TLS, checked | TLS, checked |
//! | nothing, `verify-ca`, `verify-full` | plain text (nothing), else the system's authorities | the system's authorities |
//! | `require`, `prefer`, `allow` | TLS unchecked (libpq's meaning; `prefer` falls back to plain text) | refused |
//! | `disable` | plain text | refused |
//!
//! The spec's rule comes first: `disable`, `prefer` and `require` to another host are refused
//! even beside an authority; on loopback an authority makes `prefer` and `require` checked
//! TLS, and makes `disable` a contradiction (refused).
//!
//! "This computer" is a loopback address (127.0.0.0/8, ::1), `localhost` or a socket folder,
//! for every host and `hostaddr` of the URL. A checked certificate is always checked for the
//! host name or address dialled too (`verify-ca` is read as `verify-full`).

use super::error::{Result, StoreError};
use crate::tls;
use postgres::config::{Host, SslMode};
use postgres::{Client, Config, NoTls};
use std::net::IpAddr;
use std::path::Path;
use std::str::FromStr;
use tokio_postgres_rustls::MakeRustlsConnect;

/// The system's authorities (Debian's bundle), for a URL that names none of its own.
const SYSTEM_ROOTS: &str = "/etc/ssl/certs/ca-certificates.crt";

/// How a server is reached: the postgres crate's configuration, and the encryption of its
/// connections.
#[derive(Clone)]
pub(crate) struct Endpoint {
    config: Config,
    transport: Transport,
}

#[derive(Clone)]
enum Transport {
    /// Plain text: only to this computer.
    Plain,
    /// TLS with the check the connector's configuration holds.
    Tls(MakeRustlsConnect),
}

/// Why a connection was not made: the TLS handshake failed (the certificate did not check,
/// or the server does not speak TLS), and nothing was sent; or the server (or the network)
/// said no.
pub(crate) enum ConnectError {
    Tls(String),
    Server(postgres::Error),
}

/// The URL without its password, to show or log.
pub(crate) fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let authority = match authority.rsplit_once('@') {
        Some((user, hosts)) => {
            let user = user.split(':').next().unwrap_or("");
            format!("{user}@{hosts}")
        }
        None => authority.to_string(),
    };
    // A password given as a parameter is dropped too.
    let tail: String = match tail.split_once('?') {
        Some((path, query)) => {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|kv| !kv.starts_with("password="))
                .collect();
            if kept.is_empty() {
                path.to_string()
            } else {
                format!("{path}?{}", kept.join("&"))
            }
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

/// A URL's `%XX` escapes decoded (a path in `sslrootcert` may carry some).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What the URL asks of the encryption, taken out of it.
#[derive(Debug, Default, PartialEq)]
struct Asked {
    mode: Option<String>,
    pin: Option<String>,
    root_file: Option<String>,
}

/// Splits the URL into what ggdesk reads itself and the URL the postgres crate reads.
fn take_parameters(url: &str) -> (Asked, String) {
    let mut asked = Asked::default();
    let Some((base, query)) = url.split_once('?') else {
        return (asked, url.to_string());
    };
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match percent_decoded(key).as_str() {
            "sslmode" => asked.mode = Some(percent_decoded(value)),
            "ggdesk_ca" => asked.pin = Some(percent_decoded(value)),
            "sslrootcert" => asked.root_file = Some(percent_decoded(value)),
            _ => kept.push(pair),
        }
    }
    if kept.is_empty() {
        (asked, base.to_string())
    } else {
        (asked, format!("{base}?{}", kept.join("&")))
    }
}

/// Whether a host name or address is this computer.
fn is_loopback_name(name: &str) -> bool {
    let bare = name.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The first host (or `hostaddr`) of the configuration that is not this computer.
fn remote_host(config: &Config) -> Option<String> {
    let hosts = config.get_hosts().iter().filter_map(|h| match h {
        Host::Tcp(name) if !is_loopback_name(name) => Some(name.clone()),
        _ => None,
    });
    let addrs = config
        .get_hostaddrs()
        .iter()
        .filter(|a| !a.is_loopback())
        .map(IpAddr::to_string);
    hosts.chain(addrs).next()
}

/// The libpq `sslmode`s, as ggdesk reads them.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    Disable,
    /// `allow` and `prefer`: TLS if the server offers it.
    Prefer,
    Require,
    /// `verify-ca` and `verify-full`, and no `sslmode` at all.
    Verify,
}

fn mode(asked: Option<&str>) -> Result<Option<Mode>> {
    Ok(Some(match asked {
        None => return Ok(None),
        Some("disable") => Mode::Disable,
        Some("allow" | "prefer") => Mode::Prefer,
        Some("require") => Mode::Require,
        Some("verify-ca" | "verify-full") => Mode::Verify,
        Some(other) => {
            return Err(StoreError::Rejected(format!(
                "sslmode={other} is not one of disable, allow, prefer, require, verify-ca, \
                 verify-full"
            )));
        }
    }))
}

/// A TLS connector from a client configuration.
fn checked(config: std::result::Result<rustls::ClientConfig, tls::TlsError>) -> Result<Transport> {
    config
        .map(|c| Transport::Tls(MakeRustlsConnect::new(c)))
        .map_err(|e| StoreError::Rejected(e.to_string()))
}

/// The authorities of a PEM file (`sslrootcert`, or the system's bundle).
fn authorities_of(path: &Path, described: impl Fn(usize) -> String) -> Result<Transport> {
    let pem = std::fs::read(path).map_err(|e| {
        StoreError::Io(format!(
            "{}: {e}: the server's certificate cannot be checked without it",
            path.display()
        ))
    })?;
    let certs = tls::pem_certificates(&pem)
        .map_err(|e| StoreError::Rejected(format!("{}: {e}", path.display())))?;
    let described = described(certs.len());
    let check = tls::KnownAuthorities::new(certs, &described).map_err(|_| {
        StoreError::Rejected(format!(
            "{} holds no authority's certificate (PEM): the server's certificate cannot be \
             checked against it",
            path.display()
        ))
    })?;
    checked(check.client_config())
}

impl Endpoint {
    /// Reads a URL: the postgres crate's configuration, and how its connections are
    /// encrypted (the table above). A URL asking for plain text (or unchecked TLS) to another
    /// host is refused here, before any connection.
    pub(crate) fn parse(url: &str) -> Result<Endpoint> {
        let (asked, rest) = take_parameters(url);
        let mut config = Config::from_str(&rest).map_err(|e| {
            StoreError::Rejected(format!(
                "{} is not a PostgreSQL URL: {e}",
                without_password(url)
            ))
        })?;
        super::passwords::fill_in(&mut config);
        let mode = mode(asked.mode.as_deref())?;
        let remote = remote_host(&config);
        if let (Some(host), Some(Mode::Disable | Mode::Prefer | Mode::Require)) = (&remote, mode) {
            return Err(StoreError::Rejected(format!(
                "sslmode={} is allowed only to this computer (localhost, 127.0.0.0/8, ::1 or a \
                 socket), not to {host}: without it ggdesk checks the server's certificate \
                 (ggdesk_ca=sha256:HEX or sslrootcert=PATH in the URL, else the system's \
                 authorities); nothing was sent",
                asked.mode.as_deref().unwrap_or_default()
            )));
        }
        let transport = match (&asked.pin, &asked.root_file, mode) {
            (Some(_), Some(_), _) => {
                return Err(StoreError::Rejected(
                    "the URL names two authorities (ggdesk_ca and sslrootcert): give one".into(),
                ));
            }
            (Some(_), None, Some(Mode::Disable)) | (None, Some(_), Some(Mode::Disable)) => {
                return Err(StoreError::Rejected(
                    "sslmode=disable sends nothing encrypted, yet the URL names an authority \
                     to check the server's certificate against: drop one of them"
                        .into(),
                ));
            }
            (Some(pin), None, _) => {
                let pin = tls::Pin::parse(pin)
                    .map_err(|why| StoreError::Rejected(format!("ggdesk_ca: {why}")))?;
                checked(tls::PinnedAuthority::new(pin).client_config())?
            }
            (None, Some(file), _) => authorities_of(Path::new(file), |count| {
                format!("the {count} authorities of {file}")
            })?,
            (None, None, Some(Mode::Disable)) => Transport::Plain,
            (None, None, Some(Mode::Prefer | Mode::Require)) => {
                checked(tls::LoopbackUnchecked::client_config())?
            }
            (None, None, None) if remote.is_none() => Transport::Plain,
            (None, None, Some(Mode::Verify) | None) => {
                let system = Path::new(SYSTEM_ROOTS);
                if !system.exists() {
                    return Err(StoreError::Rejected(format!(
                        "there is no list of the system's authorities ({SYSTEM_ROOTS}) to check \
                         the server's certificate against: add ggdesk_ca=sha256:HEX (the \
                         event's authority, from its card) or sslrootcert=PATH to the URL"
                    )));
                }
                authorities_of(system, |count| {
                    format!("the system's {count} authorities ({SYSTEM_ROOTS})")
                })?
            }
        };
        // Only unchecked TLS (`prefer` on loopback, no authority) may fall back to plain text.
        let authority = asked.pin.is_some() || asked.root_file.is_some();
        config.ssl_mode(match (&transport, mode) {
            (Transport::Plain, _) => SslMode::Disable,
            (Transport::Tls(_), Some(Mode::Prefer)) if !authority => SslMode::Prefer,
            (Transport::Tls(_), _) => SslMode::Require,
        });
        Ok(Endpoint { config, transport })
    }

    pub(crate) fn config(&self) -> &Config {
        &self.config
    }

    pub(crate) fn config_mut(&mut self) -> &mut Config {
        &mut self.config
    }

    /// The same encryption to another configuration (one host of this one's).
    pub(crate) fn with_config(&self, config: Config) -> Endpoint {
        Endpoint {
            config,
            transport: self.transport.clone(),
        }
    }

    /// Whether connections are encrypted.
    #[cfg(test)]
    pub(crate) fn encrypted(&self) -> bool {
        matches!(self.transport, Transport::Tls(_))
    }

    /// Connects. The server's certificate is checked during the TLS handshake, before the
    /// login (user, database) and any password are sent; a refusal says why in words.
    pub(crate) fn connect(&self) -> std::result::Result<Client, ConnectError> {
        match &self.transport {
            Transport::Plain => self.config.connect(NoTls),
            Transport::Tls(tls) => self.config.connect(tls.clone()),
        }
        .map_err(|e| match handshake_failure(&e) {
            Some(why) => ConnectError::Tls(why),
            None => ConnectError::Server(e),
        })
    }
}

/// The words of a failed TLS handshake, or `None` for any other failure.
fn handshake_failure(e: &postgres::Error) -> Option<String> {
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        let rustls_error = c.downcast_ref::<rustls::Error>().or_else(|| {
            c.downcast_ref::<std::io::Error>()
                .and_then(|io| io.get_ref())
                .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        });
        match rustls_error {
            // The check's own words (tls::wrong_authority, tls::not_among).
            Some(rustls::Error::General(words)) => return Some(words.clone()),
            Some(other) => {
                return Some(format!(
                    "the server's certificate does not check ({other}): refused before \
                     anything was sent"
                ));
            }
            None => {}
        }
        if c.to_string() == "server does not support TLS" {
            return Some(
                "the server does not accept TLS, and ggdesk sends nothing to it in plain text \
                 (plain text only to this computer: sslmode=disable)"
                    .into(),
            );
        }
        cause = c.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ggdesks_parameters_are_taken_out_of_the_url_and_the_rest_kept() {
        let (asked, rest) = take_parameters(
            "postgres://u@h:5433/event?ggdesk_ca=sha256:ab&sslrootcert=%2Ftmp%2Fca.crt\
             &target_session_attrs=read-write&sslmode=verify-full",
        );
        assert_eq!(
            asked,
            Asked {
                mode: Some("verify-full".into()),
                pin: Some("sha256:ab".into()),
                root_file: Some("/tmp/ca.crt".into()),
            }
        );
        assert_eq!(
            rest,
            "postgres://u@h:5433/event?target_session_attrs=read-write"
        );
        assert_eq!(
            take_parameters("postgres://u@h/e?sslmode=disable").1,
            "postgres://u@h/e"
        );
    }

    #[test]
    fn this_computer_is_loopback_localhost_or_a_socket() {
        for url in [
            "postgres://u@127.0.0.1/e",
            "postgres://u@127.9.8.7:5433,localhost:5434/e",
            "postgres://u@[::1]/e",
            "postgres://u@%2Frun%2Fpostgresql/e",
        ] {
            let config = Config::from_str(url).expect(url);
            assert_eq!(remote_host(&config), None, "{url}");
        }
        let config = Config::from_str("postgres://u@127.0.0.1,10.0.0.2/e").expect("two hosts");
        assert_eq!(remote_host(&config), Some("10.0.0.2".into()));
        let config =
            Config::from_str("postgres://u@localhost/e?hostaddr=192.0.2.7").expect("hostaddr");
        assert_eq!(remote_host(&config), Some("192.0.2.7".into()));
    }

    fn refusal(url: &str) -> String {
        match Endpoint::parse(url) {
            Ok(_) => panic!("{url} accepted"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn plain_text_to_another_host_is_refused_before_any_connection() {
        assert_eq!(
            refusal("postgres://u:secret@example.invalid/e?sslmode=disable"),
            "sslmode=disable is allowed only to this computer (localhost, 127.0.0.0/8, ::1 or \
             a socket), not to example.invalid: without it ggdesk checks the server's \
             certificate (ggdesk_ca=sha256:HEX or sslrootcert=PATH in the URL, else the \
             system's authorities); nothing was sent"
        );
        assert!(
            refusal("postgres://u@10.1.2.3/e?sslmode=require").starts_with(
                "sslmode=require is allowed only to this computer (localhost, 127.0.0.0/8, ::1 or \
             a socket), not to 10.1.2.3:"
            )
        );
        assert!(
            refusal("postgres://u@127.0.0.1,10.1.2.3/e?sslmode=prefer")
                .starts_with("sslmode=prefer is allowed only to this computer")
        );
        assert_eq!(
            refusal("postgres://u@h/e?sslmode=verify-everything"),
            "sslmode=verify-everything is not one of disable, allow, prefer, require, \
             verify-ca, verify-full"
        );
        assert_eq!(
            refusal("postgres://u@h/e?ggdesk_ca=sha256:12"),
            "ggdesk_ca: \"sha256:12\" is not an authority's fingerprint (16 to 64 hex digits)"
        );
        assert_eq!(
            refusal("postgres://u@127.0.0.1/e?ggdesk_ca=0123456789abcdef&sslmode=disable"),
            "sslmode=disable sends nothing encrypted, yet the URL names an authority to check \
             the server's certificate against: drop one of them"
        );
    }

    #[test]
    fn each_url_gets_the_encryption_of_the_table() {
        let plain = |url: &str| {
            let e = Endpoint::parse(url).expect(url);
            (e.encrypted(), e.config().get_ssl_mode())
        };
        assert_eq!(plain("postgres://u@127.0.0.1/e"), (false, SslMode::Disable));
        assert_eq!(
            plain("postgres://u@localhost/e?sslmode=disable"),
            (false, SslMode::Disable)
        );
        assert_eq!(
            plain("postgres://u@127.0.0.1/e?sslmode=require"),
            (true, SslMode::Require)
        );
        assert_eq!(
            plain("postgres://u@127.0.0.1/e?sslmode=prefer"),
            (true, SslMode::Prefer)
        );
        assert_eq!(
            plain("postgres://u@127.0.0.1/e?ggdesk_ca=sha256:0123456789abcdef&sslmode=prefer"),
            (true, SslMode::Require)
        );
        assert_eq!(
            plain("postgres://u@10.0.0.1/e?ggdesk_ca=sha256:0123456789abcdef"),
            (true, SslMode::Require)
        );
        assert!(
            refusal("postgres://u@10.0.0.1/e?ggdesk_ca=sha256:0123456789abcdef&sslmode=require")
                .starts_with("sslmode=require is allowed only to this computer")
        );
        if Path::new(SYSTEM_ROOTS).exists() {
            assert_eq!(
                plain("postgres://u@db.example.org/e"),
                (true, SslMode::Require)
            );
            assert_eq!(
                plain("postgres://u@127.0.0.1/e?sslmode=verify-full"),
                (true, SslMode::Require)
            );
        }
    }
}
