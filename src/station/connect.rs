//! A station's desk connecting to the event server from its card: the link
//! (`https://HOST:PORT/NAME`), the secret, and on the first connection the authority's
//! fingerprint as the card prints it (`sha256:` and 16 hex digits), which the server's
//! certificate must match before the secret is sent. The whole fingerprint seen is then
//! remembered for that server (as SSH remembers a host's key): a later connection is checked
//! against it, and another authority is refused naming both.

use super::client::{StationClient, StationLink};
use crate::store::Store;
use crate::tls::Pin;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The authorities this desk has connected to, by server (`HOST:PORT`): a small JSON file in
/// the user's data directory.
#[derive(Debug, Clone, Default)]
pub struct KnownAuthorities {
    path: Option<PathBuf>,
    servers: BTreeMap<String, String>,
}

impl KnownAuthorities {
    /// `known-authorities.json` beside the default database.
    pub fn default_path() -> Option<PathBuf> {
        Store::default_path().and_then(|p| p.parent().map(|d| d.join("known-authorities.json")))
    }

    /// The authorities remembered in `path` (none yet when the file does not exist); `None`:
    /// remembered in memory only.
    pub fn load(path: Option<PathBuf>) -> Result<KnownAuthorities, String> {
        let servers = match &path {
            Some(p) if p.exists() => {
                let text = std::fs::read_to_string(p)
                    .map_err(|e| format!("{}: cannot be read: {e}", p.display()))?;
                serde_json::from_str::<BTreeMap<String, String>>(&text).map_err(|e| {
                    format!(
                        "{}: not a list of known authorities ({e}); remove it to connect anew",
                        p.display()
                    )
                })?
            }
            _ => BTreeMap::new(),
        };
        Ok(KnownAuthorities { path, servers })
    }

    /// The whole fingerprint remembered for `server`.
    pub fn get(&self, server: &str) -> Option<&str> {
        self.servers.get(server).map(String::as_str)
    }

    /// Remembers `fingerprint` for `server` (the file written whole, then renamed into place).
    pub fn remember(&mut self, server: &str, fingerprint: &str) -> Result<(), String> {
        self.servers
            .insert(server.to_string(), fingerprint.to_string());
        let Some(path) = &self.path else {
            return Ok(());
        };
        write_file(path, &self.servers)
    }
}

fn write_file(path: &Path, servers: &BTreeMap<String, String>) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(servers).unwrap_or_default();
    let temp = path.with_extension("json.new");
    std::fs::write(&temp, text + "\n")
        .and_then(|()| std::fs::rename(&temp, path))
        .map_err(|e| format!("{}: cannot be written: {e}", path.display()))
}

/// A station's desk connected: its store on the API, the authority's whole fingerprint, and
/// whether this was the first connection to that server (the fingerprint was just
/// remembered).
pub struct Connected {
    pub store: Store,
    pub link: StationLink,
    pub authority: String,
    pub first_use: bool,
}

impl std::fmt::Debug for Connected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connected")
            .field("link", &self.link)
            .field("authority", &self.authority)
            .field("first_use", &self.first_use)
            .finish()
    }
}

/// Connects a station's desk from its card's fields: the link, and each standby's address
/// the card lists (tried when the link's server does not answer). `card_authority` (the card's
/// `sha256:` digits) is needed on the first connection to a server; later the remembered
/// fingerprint is checked, and a card naming another authority is refused.
pub fn connect(
    link: &str,
    standbys: &[String],
    secret: &str,
    card_authority: &str,
    known: &mut KnownAuthorities,
) -> Result<Connected, String> {
    let link = StationLink::parse(link)?;
    let server = link.server();
    let card = match card_authority.trim() {
        "" => None,
        text => Some(Pin::parse(text)?),
    };
    let remembered = known.get(&server).map(str::to_string);
    let pin = match (&remembered, &card) {
        (Some(full), Some(c)) if !c.accepts(full) => {
            return Err(format!(
                "the card's authority sha256:{} is not the authority this desk connected to at \
                 {server} before (sha256:{full}): refused; if the event was made again, the \
                 director's new cards name the new one, and {} must be told to forget the old",
                c.as_str(),
                KnownAuthorities::default_path()
                    .map_or_else(|| "this desk".to_string(), |p| p.display().to_string())
            ));
        }
        (Some(full), _) => Pin::parse(full)?,
        (None, Some(c)) => c.clone(),
        (None, None) => {
            return Err(format!(
                "the first connection to {server} needs the card's authority (the digits after \
                 \"authority: sha256:\"): the server is checked against it before the secret is sent"
            ));
        }
    };
    let client = Arc::new(
        StationClient::new(link.clone(), secret, pin)
            .map_err(|e| e.to_string())?
            .with_standbys(standbys)?,
    );
    let store = Store::on_station_api(client.clone()).map_err(|e| e.to_string())?;
    let authority = client.authority_seen().unwrap_or_default();
    let first_use = remembered.is_none();
    if first_use {
        known.remember(&server, &authority)?;
    }
    Ok(Connected {
        store,
        link,
        authority,
        first_use,
    })
}
