//! Where a server's password comes from when the URL holds none, as libpq finds it: the
//! `PGPASSWORD` environment variable, else the password file (`PGPASSFILE`, else
//! `~/.pgpass`: lines `host:port:database:user:password`, `*` for any, `\:` and `\\`
//! escaped, ignored unless only its owner may read it). Passwords are then never required
//! on a command line, where `ps` shows them to every user of the machine.

use postgres::Config;
use postgres::config::Host;
use std::path::{Path, PathBuf};

/// Gives `config` a password from the environment or the password file when it has none.
pub(crate) fn fill_in(config: &mut Config) {
    if config.get_password().is_some() {
        return;
    }
    if let Ok(password) = std::env::var("PGPASSWORD")
        && !password.is_empty()
    {
        config.password(password);
        return;
    }
    let Some(file) = password_file() else {
        return;
    };
    let Some(text) = readable_by_owner_only(&file) else {
        return;
    };
    let user = config.get_user().unwrap_or_default().to_string();
    let database = config
        .get_dbname()
        .map(str::to_string)
        .unwrap_or_else(|| user.clone());
    let ports = config.get_ports();
    for (i, host) in config.get_hosts().iter().enumerate() {
        let host = match host {
            Host::Tcp(name) => name.clone(),
            // libpq's word for a socket in the password file.
            Host::Unix(_) => "localhost".to_string(),
        };
        let port = ports
            .get(i)
            .or(ports.first())
            .copied()
            .unwrap_or(5432)
            .to_string();
        if let Some(password) = find(&text, &host, &port, &database, &user) {
            config.password(password);
            return;
        }
    }
}

fn password_file() -> Option<PathBuf> {
    if let Some(file) = std::env::var_os("PGPASSFILE") {
        return Some(PathBuf::from(file));
    }
    std::env::var_os("HOME").map(|home| Path::new(&home).join(".pgpass"))
}

/// The file's text, when it is a file only its owner may read or write (as libpq asks).
fn readable_by_owner_only(file: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(file).ok()?;
    if !meta.is_file() || meta.permissions().mode() & 0o077 != 0 {
        return None;
    }
    std::fs::read_to_string(file).ok()
}

/// The password of the first line of a password file that matches.
pub(crate) fn find(
    text: &str,
    host: &str,
    port: &str,
    database: &str,
    user: &str,
) -> Option<String> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .find_map(|line| {
            let fields = split(line);
            let [h, p, d, u, password] = fields.as_slice() else {
                return None;
            };
            let fits = |pattern: &str, value: &str| pattern == "*" || pattern == value;
            (fits(h, host) && fits(p, port) && fits(d, database) && fits(u, user))
                .then(|| password.clone())
        })
}

/// A password file's line in its fields (`:` separates, `\` escapes the next character).
fn split(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next()
                    && let Some(last) = fields.last_mut()
                {
                    last.push(next);
                }
            }
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => {
                if let Some(last) = fields.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_matching_line_gives_the_password() {
        let text = "# the event\n\
                    10.0.0.2:5433:event:director:first\n\
                    *:*:event:director:any\\:host\n\
                    *:*:*:*:last\\\\one\n";
        assert_eq!(
            find(text, "10.0.0.2", "5433", "event", "director").as_deref(),
            Some("first")
        );
        assert_eq!(
            find(text, "127.0.0.1", "5433", "event", "director").as_deref(),
            Some("any:host")
        );
        assert_eq!(
            find(text, "127.0.0.1", "5432", "other", "ana").as_deref(),
            Some("last\\one")
        );
        assert_eq!(
            find("h:1:d:u\n", "h", "1", "d", "u"),
            None,
            "four fields: no line"
        );
    }
}
