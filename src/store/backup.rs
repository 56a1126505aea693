//! Online backups (SQLite's backup API) into `backups/` beside the database.

use super::conn::Store;
use super::error::{Result, StoreError};
use std::path::{Path, PathBuf};

/// How many backups are kept; older ones are deleted after a new one is written.
pub const BACKUPS_KEPT: usize = 20;

/// The backup folder for a database file: `backups/` beside it.
pub fn backup_dir(db_path: &Path) -> PathBuf {
    db_path
        .parent()
        .map_or_else(|| PathBuf::from("backups"), |p| p.join("backups"))
}

/// What became of the backup written after a round transition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackupNote {
    Written(PathBuf),
    /// The database lives in memory (tests): no backup folder.
    NotOnDisk,
    /// The database is on an event server: the server and its standby keep it, there is
    /// no file to copy.
    OnServer,
    /// The transition is committed; only the backup failed.
    Failed(String),
}

impl BackupNote {
    /// A line for the desk's notices.
    pub fn describe(&self) -> String {
        match self {
            BackupNote::Written(p) => format!("backup written: {}", p.display()),
            BackupNote::NotOnDisk => "no backup (database in memory)".into(),
            BackupNote::OnServer => "kept by the event server (and its standby)".into(),
            BackupNote::Failed(e) => format!("the backup failed: {e}"),
        }
    }
}

impl Store {
    /// Writes a backup and says how it went (the change before it is committed either way).
    pub(crate) fn backup_note(&self, label: &str) -> BackupNote {
        if self.path().is_none() {
            return if self.address().is_some() {
                BackupNote::OnServer
            } else {
                BackupNote::NotOnDisk
            };
        }
        match self.backup(label) {
            Ok(p) => BackupNote::Written(p),
            Err(e) => BackupNote::Failed(e.to_string()),
        }
    }

    /// Writes a consistent copy of the database into `backups/` while it stays open, named by
    /// the time and `label` (e.g. `round-3-published`), and keeps the newest
    /// [`BACKUPS_KEPT`]. Returns the new file.
    pub fn backup(&self, label: &str) -> Result<PathBuf> {
        let db = self
            .path()
            .ok_or_else(|| StoreError::Io("an in-memory database has no backup folder".into()))?;
        let dir = backup_dir(db);
        std::fs::create_dir_all(&dir)
            .map_err(|e| StoreError::Io(format!("cannot create {}: {e}", dir.display())))?;
        let stem = db.file_stem().map_or_else(
            || "ggdesk".to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        let label: String = label
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let stamp = format_stamp(self.now());
        let mut target = dir.join(format!("{stem}-{stamp}-{label}.sqlite3"));
        let mut n = 1;
        while target.exists() {
            n += 1;
            target = dir.join(format!("{stem}-{stamp}-{label}-{n}.sqlite3"));
        }
        let written = self.with_sqlite(|c| {
            c.backup(rusqlite::MAIN_DB, &target, None)
                .map_err(|e| StoreError::Io(format!("backup to {} failed: {e}", target.display())))
        });
        match written {
            Some(result) => result?,
            None => {
                return Err(StoreError::Io(
                    "only a SQLite database is backed up into a file".into(),
                ));
            }
        }
        prune(&dir, &stem)?;
        Ok(target)
    }

    /// The backups of this database, oldest first.
    pub fn backups(&self) -> Result<Vec<PathBuf>> {
        let Some(db) = self.path() else {
            return Ok(Vec::new());
        };
        let stem = db.file_stem().map_or_else(
            || "ggdesk".to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        list(&backup_dir(db), &stem)
    }
}

fn list(dir: &Path, stem: &str) -> Result<Vec<PathBuf>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let prefix = format!("{stem}-");
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".sqlite3"))
        })
        .map(|p| {
            let modified = std::fs::metadata(&p)
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (modified, p)
        })
        .collect();
    // Names start with a sortable time stamp; the file time breaks nothing but ties.
    files.sort_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
    Ok(files.into_iter().map(|(_, p)| p).collect())
}

fn prune(dir: &Path, stem: &str) -> Result<()> {
    let files = list(dir, stem)?;
    if files.len() > BACKUPS_KEPT {
        for old in &files[..files.len() - BACKUPS_KEPT] {
            std::fs::remove_file(old)
                .map_err(|e| StoreError::Io(format!("cannot remove {}: {e}", old.display())))?;
        }
    }
    Ok(())
}

/// `20261129-153000-123` (UTC) from Unix milliseconds: sortable, no clock crate needed.
fn format_stamp(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{millis:03}",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
pub(crate) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}
