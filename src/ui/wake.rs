//! Waking the desk when another program writes its database file, instead of drawing a
//! frame every two seconds to look (issue 23: a desk doing nothing must cost next to nothing;
//! each frame costs 20-30 ms of software rendering under Xvfb).
//!
//! A thread looks at the file and its write-ahead log every half second: their sizes and
//! modification times. The desk's own writes move them too, so after each frame the desk
//! says what it has seen ([`FileWatch::seen`]); only a change after that wakes it. It reads
//! no row: what changed is for the frame to find out (`Live::frame` reads the change stamp).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// How often the thread looks at the files.
const LOOK: Duration = Duration::from_millis(500);

/// What the files look like: each one's size and modification time (`None` if absent).
type Signature = Vec<Option<(u64, SystemTime)>>;

fn signature(files: &[PathBuf]) -> Signature {
    files
        .iter()
        .map(|f| {
            std::fs::metadata(f)
                .ok()
                .map(|m| (m.len(), m.modified().unwrap_or(SystemTime::UNIX_EPOCH)))
        })
        .collect()
}

/// Whether the files as they are `now` are news for the desk: not what it has `seen`, and
/// not what it was already woken for (the desk may take a moment to draw the frame).
fn should_wake(now: &Signature, seen: &Signature, woken: &Option<Signature>) -> bool {
    now != seen && woken.as_ref() != Some(now)
}

/// The database file and its write-ahead log, watched for other programs' writes.
pub struct FileWatch {
    files: Vec<PathBuf>,
    /// The files as the desk last saw them (at the end of its last frame).
    seen: Arc<Mutex<Signature>>,
    stop: Arc<AtomicBool>,
}

impl FileWatch {
    /// Starts watching the SQLite file `db` (and `db-wal`); `wake` is called when they change
    /// after what the desk has seen.
    pub fn start(db: &Path, wake: impl Fn() + Send + 'static) -> std::io::Result<FileWatch> {
        let mut wal = db.as_os_str().to_owned();
        wal.push("-wal");
        let files = vec![db.to_path_buf(), PathBuf::from(wal)];
        let seen = Arc::new(Mutex::new(signature(&files)));
        let stop = Arc::new(AtomicBool::new(false));
        let (thread_files, thread_seen, thread_stop) = (files.clone(), seen.clone(), stop.clone());
        std::thread::Builder::new()
            .name("ggdesk-file-watch".into())
            .spawn(move || {
                let mut woken: Option<Signature> = None;
                while !thread_stop.load(Ordering::SeqCst) {
                    std::thread::sleep(LOOK);
                    let now = signature(&thread_files);
                    let seen = thread_seen.lock().map(|s| s.clone()).unwrap_or_default();
                    if should_wake(&now, &seen, &woken) {
                        woken = Some(now);
                        wake();
                    }
                }
            })?;
        Ok(FileWatch { files, seen, stop })
    }

    /// The desk has seen the database as it is now (called at the end of each frame, after
    /// its own writes): only later changes wake it.
    pub fn seen(&self) {
        let now = signature(&self.files);
        if let Ok(mut seen) = self.seen.lock() {
            *seen = now;
        }
    }
}

impl Drop for FileWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn at(len: u64) -> Signature {
        vec![Some((len, SystemTime::UNIX_EPOCH)), None]
    }

    /// What the desk has seen (its own writes) wakes nothing; a change after it wakes the
    /// desk once.
    #[test]
    fn only_a_change_the_desk_has_not_seen_wakes_it_once() {
        assert!(!should_wake(&at(1), &at(1), &None));
        assert!(should_wake(&at(2), &at(1), &None));
        assert!(!should_wake(&at(2), &at(1), &Some(at(2))), "woken once");
        assert!(
            should_wake(&at(3), &at(1), &Some(at(2))),
            "a further change"
        );
    }

    /// Another program's write wakes the desk.
    #[test]
    fn a_write_by_another_program_wakes_the_desk() {
        let dir = tempfile::tempdir().expect("dir");
        let db = dir.path().join("event.sqlite3");
        std::fs::write(&db, b"one").expect("write");
        let (tx, rx) = mpsc::channel();
        let watch = FileWatch::start(&db, move || {
            let _ = tx.send(());
        })
        .expect("watching");
        watch.seen();
        let mut wal = db.as_os_str().to_owned();
        wal.push("-wal");
        std::fs::write(PathBuf::from(wal), b"frames").expect("write");
        rx.recv_timeout(Duration::from_secs(30))
            .expect("a write by another program wakes the desk (awaited 30 s)");
    }
}
