//! The one watcher of the database: a thread of its own that holds the server's read-only
//! connection (`Source`), asks it every `refresh` whether anything changed (the change
//! stamp, one cheap query), reads the views again when it did, and tells every open page
//! once per change through a broadcast channel. Requests never touch the database: they
//! take the views the watcher last read ([`Views`]), and only wait for it when a view was
//! never read yet (the first request for a tournament).
//!
//! - A view read again that is equal to the one kept (the stamp moves with every move at a
//!   desk, which no page shows) keeps its generation: no page is rendered again and no page
//!   is told.
//! - Views are read again after `reread` even when the stamp did not move: on a server, a
//!   transaction that took its audit row before another one's but committed after it leaves
//!   the stamp where it was.
//! - The rating list is read, like a tournament, once a page asks for it, and then again with
//!   every other view. A rated player's view (their row and their rated events) is read when
//!   first asked for, and again when the list read again differs from the one kept (every
//!   rebuild of the list moves it) or once it is `reread` old: not at every move at a desk,
//!   since a federation's site may keep hundreds of them.
//! - When the database cannot be read (a server down, a file locked), the views kept are
//!   served as they are, marked stale with the local time of the last check that could read
//!   ("as of 14:32"); the connection is opened again at the next check, and the pages come
//!   back by themselves once it reads.

use super::public::{EventIndex, PlayerRatings, RatingList, TournamentData};
use super::routes::Feed;
use super::source::Source;
use crate::store::{Address, StoreError};
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch};

/// While the database cannot be read, the watcher tries again at most this often.
const RETRY: Duration = Duration::from_secs(1);
/// Change notices a page's stream may fall behind by before it is told "something
/// changed" instead of each one.
const NOTICE_BACKLOG: usize = 64;

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every update under these locks is a few assignments: a panic elsewhere leaves
    // consistent data, so a poisoned lock is used as it is.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A view as read, with the generation it got when it was read.
struct Kept<T> {
    generation: u64,
    value: Arc<T>,
}

/// What a page is rendered from besides its view's data: the view's generation, and
/// whether the pages are stale (the local time they are current as of).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub generation: u64,
    pub stale: Option<Arc<str>>,
}

/// Which pages a change concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Every page: they went stale, or came back.
    All,
    /// The event's list (`index`), the rating pages (`ratings`) and the pages of these
    /// tournaments.
    Views {
        index: bool,
        ratings: bool,
        tournaments: Arc<[i64]>,
    },
}

/// A change the watcher found: sent once, to every open page's stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Numbers the changes in the order they were found, from 1.
    pub serial: u64,
    pub scope: Scope,
}

impl Change {
    /// Whether the pages of `feed` show it.
    pub fn concerns(&self, feed: Feed) -> bool {
        match (&self.scope, feed) {
            (Scope::All, _) => true,
            (Scope::Views { index, .. }, Feed::Event) => *index,
            (Scope::Views { ratings, .. }, Feed::Ratings) => *ratings,
            (Scope::Views { tournaments, .. }, Feed::Tournament(t)) => tournaments.contains(&t),
        }
    }
}

/// The views could not be had: the database cannot be read and they were never read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unavailable;

#[derive(Default)]
struct State {
    index: Option<Kept<EventIndex>>,
    tournaments: HashMap<i64, Kept<TournamentData>>,
    /// Tournaments a request asked for that were not read yet.
    wanted: HashSet<i64>,
    ratings: Option<Kept<RatingList>>,
    /// A request asked for the rating list, not read yet.
    ratings_wanted: bool,
    /// Rated players' views, by federation id.
    rated: HashMap<String, Kept<PlayerRatings>>,
    /// Rated players a request asked for that were not read yet.
    rated_wanted: HashSet<String>,
    /// Set while the database cannot be read: the local time ("14:32") of the last check
    /// that could.
    stale: Option<Arc<str>>,
}

impl State {
    fn version(&self, generation: u64) -> Version {
        Version {
            generation,
            stale: self.stale.clone(),
        }
    }
}

enum Command {
    /// A request waits for a view never read: check now.
    Wake,
    /// Check now, and say when done.
    CheckNow(mpsc::Sender<()>),
    Stop,
}

/// The views the watcher read, shared with the requests.
pub struct Views {
    state: Mutex<State>,
    /// Counts the watcher's checks: a request waiting for a view waits for the next one.
    passes: watch::Sender<u64>,
    /// Taken (closing every page's stream) when the watcher stops.
    changes: Mutex<Option<broadcast::Sender<Change>>>,
    commands: mpsc::Sender<Command>,
    /// Views read from the database (the event's list and tournaments), for the tests of
    /// when the watcher reads.
    reads: std::sync::atomic::AtomicU64,
}

impl Views {
    /// How many views the watcher has read from the database so far.
    #[cfg(test)]
    pub fn reads(&self) -> u64 {
        self.reads.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// While the database cannot be read: the local time ("14:32") of the last check that
    /// could, which every answer then carries.
    pub fn stale(&self) -> Option<Arc<str>> {
        lock(&self.state).stale.clone()
    }

    /// Waits until `look` finds what it needs in the views, waking the watcher for it; gives
    /// up after `bound`, or once a check found the database unreadable.
    async fn wait<R>(
        &self,
        bound: Duration,
        mut look: impl FnMut(&mut State) -> Option<R>,
    ) -> Result<R, Unavailable> {
        let mut passes = self.passes.subscribe();
        let deadline = tokio::time::Instant::now() + bound;
        let mut after_a_check = false;
        loop {
            {
                let mut s = lock(&self.state);
                if let Some(found) = look(&mut s) {
                    return Ok(found);
                }
                if after_a_check && s.stale.is_some() {
                    return Err(Unavailable);
                }
            }
            let _ = self.commands.send(Command::Wake);
            match tokio::time::timeout_at(deadline, passes.changed()).await {
                Ok(Ok(())) => after_a_check = true,
                Ok(Err(_)) | Err(_) => return Err(Unavailable),
            }
        }
    }

    /// The event's list of tournaments.
    pub async fn index(&self, bound: Duration) -> Result<(Version, Arc<EventIndex>), Unavailable> {
        self.wait(bound, |s| {
            let k = s.index.as_ref()?;
            Some((s.version(k.generation), k.value.clone()))
        })
        .await
    }

    /// A tournament's view; `None` when the event has no such tournament. Only tournaments
    /// in the event's list are read (and kept): made-up ids cost nothing.
    pub async fn tournament(
        &self,
        id: i64,
        bound: Duration,
    ) -> Result<Option<(Version, Arc<TournamentData>)>, Unavailable> {
        self.wait(bound, |s| {
            if !s.index.as_ref()?.value.contains(id) {
                return Some(None);
            }
            if let Some(k) = s.tournaments.get(&id) {
                return Some(Some((s.version(k.generation), k.value.clone())));
            }
            s.wanted.insert(id);
            None
        })
        .await
    }

    /// The rating list.
    pub async fn ratings(
        &self,
        bound: Duration,
    ) -> Result<(Version, Arc<RatingList>), Unavailable> {
        self.wait(bound, |s| match &s.ratings {
            Some(k) => Some((s.version(k.generation), k.value.clone())),
            None => {
                s.ratings_wanted = true;
                None
            }
        })
        .await
    }

    /// A rated player's view; `None` when the rating list has no such player. Only players
    /// on the list are read (and kept): made-up ids cost nothing.
    pub async fn rated_player(
        &self,
        federation_id: &str,
        bound: Duration,
    ) -> Result<Option<(Version, Arc<PlayerRatings>)>, Unavailable> {
        self.wait(bound, |s| {
            let Some(list) = &s.ratings else {
                s.ratings_wanted = true;
                return None;
            };
            if !list.value.contains(federation_id) {
                return Some(None);
            }
            if let Some(k) = s.rated.get(federation_id) {
                return Some(Some((s.version(k.generation), k.value.clone())));
            }
            s.rated_wanted.insert(federation_id.to_string());
            None
        })
        .await
    }

    /// A receiver of every change found from now on; `None` once the server stops.
    pub fn subscribe(&self) -> Option<broadcast::Receiver<Change>> {
        lock(&self.changes)
            .as_ref()
            .map(broadcast::Sender::subscribe)
    }

    /// Makes the watcher check the database at once, and returns when it has: every change
    /// committed before the call is then in the views (unless the database cannot be read).
    pub fn check_now(&self) {
        let (tx, rx) = mpsc::channel();
        if self.commands.send(Command::CheckNow(tx)).is_ok() {
            let _ = rx.recv();
        }
    }
}

/// How the watcher runs.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// How often the database is asked whether it changed.
    pub refresh: Duration,
    /// How old a view may get before it is read again though the stamp did not move.
    pub reread: Duration,
}

/// The watcher's thread, stopped by [`Watcher::stop`] (or when dropped).
pub struct Watcher {
    views: Arc<Views>,
    thread: Option<JoinHandle<()>>,
}

impl Watcher {
    /// Starts the thread on an open source, and reads the event's list at once.
    pub fn start(source: Source, address: Address, timing: Timing) -> std::io::Result<Watcher> {
        let (commands, inbox) = mpsc::channel();
        let (passes, _) = watch::channel(0);
        let (changes, _) = broadcast::channel(NOTICE_BACKLOG);
        let views = Arc::new(Views {
            state: Mutex::new(State::default()),
            passes,
            changes: Mutex::new(Some(changes)),
            commands,
            reads: std::sync::atomic::AtomicU64::new(0),
        });
        let reader = Reader {
            views: views.clone(),
            address,
            source: Some(source),
            inbox,
            timing: Timing {
                // A zero interval would spin a core.
                refresh: timing.refresh.max(Duration::from_millis(10)),
                reread: timing.reread,
            },
            last_stamp: None,
            last_read: None,
            last_rated_read: None,
            last_good: chrono::Local::now(),
            next_generation: 0,
            next_serial: 0,
        };
        let thread = std::thread::Builder::new()
            .name("ggdesk-serve-watch".into())
            .spawn(move || reader.run())?;
        Ok(Watcher {
            views,
            thread: Some(thread),
        })
    }

    pub fn views(&self) -> &Arc<Views> {
        &self.views
    }

    /// Stops the thread and closes every page's stream.
    pub fn stop(mut self) {
        self.stop_thread();
    }

    fn stop_thread(&mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = self.views.commands.send(Command::Stop);
            let _ = thread.join();
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

/// What one check read.
struct Read {
    /// The stamp, when every view was read again.
    stamp: Option<i64>,
    index: Option<EventIndex>,
    /// Tournaments read (`None`: no longer in the event).
    tournaments: Vec<(i64, Option<TournamentData>)>,
    ratings: Option<RatingList>,
    /// Rated players read (`None`: no longer on the list).
    rated: Vec<(String, Option<PlayerRatings>)>,
    /// Every rated player kept was read again.
    rated_all: bool,
}

/// The thread's side: the source and what it last saw.
struct Reader {
    views: Arc<Views>,
    address: Address,
    /// `None` after a failure: opened again at the next check.
    source: Option<Source>,
    inbox: mpsc::Receiver<Command>,
    timing: Timing,
    last_stamp: Option<i64>,
    last_read: Option<Instant>,
    /// When every rated player's view kept was last read again.
    last_rated_read: Option<Instant>,
    last_good: chrono::DateTime<chrono::Local>,
    next_generation: u64,
    next_serial: u64,
}

impl Reader {
    fn run(mut self) {
        let mut replies: Vec<mpsc::Sender<()>> = Vec::new();
        'checks: loop {
            self.check();
            self.views.passes.send_modify(|n| *n += 1);
            for reply in replies.drain(..) {
                let _ = reply.send(());
            }
            let stale = lock(&self.views.state).stale.is_some();
            let wait = if stale {
                self.timing.refresh.max(RETRY)
            } else {
                self.timing.refresh
            };
            let first = match self.inbox.recv_timeout(wait) {
                Ok(c) => Some(c),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            // Every command waiting is answered by the one check that follows.
            for command in first
                .into_iter()
                .chain(std::iter::from_fn(|| self.inbox.try_recv().ok()))
            {
                match command {
                    Command::Wake => {}
                    Command::CheckNow(reply) => replies.push(reply),
                    Command::Stop => break 'checks,
                }
            }
        }
        // Closing the channel ends every page's stream.
        lock(&self.views.changes).take();
    }

    fn notify(&mut self, scope: Scope) {
        self.next_serial += 1;
        let change = Change {
            serial: self.next_serial,
            scope,
        };
        if let Some(tx) = lock(&self.views.changes).as_ref() {
            // No receiver (no page open) is not an error.
            let _ = tx.send(change);
        }
    }

    /// One check: read what changed, publish it, and tell the pages.
    fn check(&mut self) {
        let now = Instant::now();
        let read = match self.source.take() {
            Some(source) => Ok(source),
            None => Source::open(&self.address),
        }
        .and_then(|source| {
            let read = self.read(&source, now);
            // After a failure the connection is dropped: a server's may be broken for good.
            if read.is_ok() {
                self.source = Some(source);
            }
            read
        });
        match read {
            Ok(read) => self.publish(read, now),
            Err(e) => self.unreadable(&e),
        }
    }

    fn read(&self, source: &Source, now: Instant) -> Result<Read, StoreError> {
        let stamp = source.stamp()?;
        struct Known {
            has_index: bool,
            loaded: Vec<i64>,
            wanted: Vec<i64>,
            stale: bool,
            ratings: Option<Arc<RatingList>>,
            ratings_wanted: bool,
            rated: Vec<String>,
            rated_wanted: Vec<String>,
        }
        let kept = {
            let s = lock(&self.views.state);
            Known {
                has_index: s.index.is_some(),
                loaded: s.tournaments.keys().copied().collect(),
                wanted: s.wanted.iter().copied().collect(),
                stale: s.stale.is_some(),
                ratings: s.ratings.as_ref().map(|k| k.value.clone()),
                ratings_wanted: s.ratings_wanted,
                rated: s.rated.keys().cloned().collect(),
                rated_wanted: s.rated_wanted.iter().cloned().collect(),
            }
        };
        let old =
            |at: Option<Instant>| at.is_none_or(|t| now.duration_since(t) >= self.timing.reread);
        let all =
            !kept.has_index || kept.stale || self.last_stamp != Some(stamp) || old(self.last_read);
        let mut read = Read {
            stamp: all.then_some(stamp),
            index: None,
            tournaments: Vec::new(),
            ratings: None,
            rated: Vec::new(),
            rated_all: false,
        };
        let count = || {
            self.views
                .reads
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        };
        let mut ids = kept.wanted;
        if all {
            read.index = Some(source.index()?.1);
            count();
            ids.extend(kept.loaded);
            ids.sort_unstable();
            ids.dedup();
        }
        let listed = |id: i64| match &read.index {
            Some(index) => index.contains(id),
            None => lock(&self.views.state)
                .index
                .as_ref()
                .is_some_and(|k| k.value.contains(id)),
        };
        for id in ids {
            let view = if listed(id) {
                count();
                source.tournament(id)?.map(|(_, t)| t)
            } else {
                None
            };
            read.tournaments.push((id, view));
        }
        if kept.ratings_wanted || (all && kept.ratings.is_some()) {
            read.ratings = Some(source.ratings()?);
            count();
        }
        // Every rated player kept is read again when the list moved, or once old.
        let list_moved = match (&read.ratings, &kept.ratings) {
            (Some(new), Some(old)) => new != &**old,
            _ => false,
        };
        read.rated_all = all && (list_moved || old(self.last_rated_read));
        let mut fids = kept.rated_wanted;
        if read.rated_all {
            fids.extend(kept.rated);
        }
        fids.sort_unstable();
        fids.dedup();
        let list = read.ratings.as_ref().or(kept.ratings.as_deref());
        for fid in fids {
            let view = if list.is_some_and(|l| l.contains(&fid)) {
                count();
                source.rated_player(&fid)?
            } else {
                None
            };
            read.rated.push((fid, view));
        }
        Ok(read)
    }

    /// Puts the views read in place of those kept (those equal to the kept ones keep their
    /// generation), clears the stale mark, and tells the pages what changed.
    fn publish(&mut self, read: Read, now: Instant) {
        if let Some(stamp) = read.stamp {
            self.last_stamp = Some(stamp);
            self.last_read = Some(now);
        }
        if read.rated_all {
            self.last_rated_read = Some(now);
        }
        self.last_good = chrono::Local::now();
        let kept = self.kept_views(&read);
        let fresh = fresh_views(read, &kept);
        let index_changed = fresh.index.is_some();
        let ratings_changed = fresh.ratings.is_some() || !fresh.rated.is_empty();
        let changed: Vec<i64> = fresh.tournaments.iter().map(|(id, _)| *id).collect();
        let was_stale = self.put_in_place(fresh);
        if was_stale {
            eprintln!("ggdesk serve: the database can be read again; the pages are current");
            self.notify(Scope::All);
        } else if index_changed || ratings_changed || !changed.is_empty() {
            self.notify(Scope::Views {
                index: index_changed,
                ratings: ratings_changed,
                tournaments: changed.into(),
            });
        }
    }

    /// The views kept of those `read` has, to compare with outside the lock: only this
    /// thread replaces them.
    fn kept_views(&self, read: &Read) -> KeptViews {
        let s = lock(&self.views.state);
        KeptViews {
            index: s.index.as_ref().map(|k| k.value.clone()),
            tournaments: read
                .tournaments
                .iter()
                .filter_map(|(id, _)| s.tournaments.get(id).map(|k| (*id, k.value.clone())))
                .collect(),
            ratings: s.ratings.as_ref().map(|k| k.value.clone()),
            rated: read
                .rated
                .iter()
                .filter_map(|(id, _)| s.rated.get(id).map(|k| (id.clone(), k.value.clone())))
                .collect(),
        }
    }

    /// Keeps the fresh views, each under a new generation, marks what was read as no longer
    /// wanted, and clears the stale mark. Returns whether the views were stale.
    fn put_in_place(&mut self, fresh: Fresh) -> bool {
        let mut s = lock(&self.views.state);
        if let Some(ev) = fresh.index {
            self.next_generation += 1;
            s.index = Some(Kept {
                generation: self.next_generation,
                value: Arc::new(ev),
            });
        }
        for id in &fresh.read_ids {
            s.wanted.remove(id);
        }
        if fresh.ratings_read {
            s.ratings_wanted = false;
        }
        if let Some(list) = fresh.ratings {
            self.next_generation += 1;
            s.ratings = Some(Kept {
                generation: self.next_generation,
                value: Arc::new(list),
            });
        }
        for fid in &fresh.read_fids {
            s.rated_wanted.remove(fid);
        }
        keep_views(&mut s.rated, fresh.rated, &mut self.next_generation);
        keep_views(
            &mut s.tournaments,
            fresh.tournaments,
            &mut self.next_generation,
        );
        s.stale.take().is_some()
    }

    /// The database could not be read: the views kept stay, marked as of the last good
    /// check, and every page is told once.
    fn unreadable(&mut self, e: &StoreError) {
        let newly = {
            let mut s = lock(&self.views.state);
            let newly = s.stale.is_none();
            if newly {
                s.stale = Some(Arc::from(self.last_good.format("%H:%M").to_string()));
            }
            newly
        };
        if newly {
            eprintln!(
                "ggdesk serve: the database cannot be read ({e}); the pages show what was read \
                 at {} until it can",
                self.last_good.format("%H:%M")
            );
            self.notify(Scope::All);
        }
    }
}

/// The views kept that a check's views are compared with.
struct KeptViews {
    index: Option<Arc<EventIndex>>,
    tournaments: HashMap<i64, Arc<TournamentData>>,
    ratings: Option<Arc<RatingList>>,
    rated: HashMap<String, Arc<PlayerRatings>>,
}

/// What a check read that differs from the views kept, with what it read.
struct Fresh {
    /// The event's list, when it changed.
    index: Option<EventIndex>,
    /// Whether the rating list was read.
    ratings_read: bool,
    /// The rating list, when it changed.
    ratings: Option<RatingList>,
    /// The rated players read.
    read_fids: Vec<String>,
    /// The rated players whose view changed (`None`: no longer on the list).
    rated: Vec<(String, Option<PlayerRatings>)>,
    /// The tournaments read.
    read_ids: Vec<i64>,
    /// The tournaments whose view changed (`None`: no longer in the event).
    tournaments: Vec<(i64, Option<TournamentData>)>,
}

/// What `read` has that differs from the views `kept`.
fn fresh_views(read: Read, kept: &KeptViews) -> Fresh {
    let index = read.index.filter(|ev| kept.index.as_deref() != Some(ev));
    let ratings_read = read.ratings.is_some();
    let ratings = read
        .ratings
        .filter(|list| kept.ratings.as_deref() != Some(list));
    let read_fids: Vec<String> = read.rated.iter().map(|(id, _)| id.clone()).collect();
    let rated = changed_views(read.rated, &kept.rated);
    let read_ids: Vec<i64> = read.tournaments.iter().map(|(id, _)| *id).collect();
    let tournaments = changed_views(read.tournaments, &kept.tournaments);
    Fresh {
        index,
        ratings_read,
        ratings,
        read_fids,
        rated,
        read_ids,
        tournaments,
    }
}

/// The views read that differ from those kept: a view that is not kept, a view kept that
/// is gone (`None`), or a view kept that changed; in the order read.
fn changed_views<K: Eq + Hash, V: PartialEq>(
    read: Vec<(K, Option<V>)>,
    kept: &HashMap<K, Arc<V>>,
) -> Vec<(K, Option<V>)> {
    let mut updates = Vec::new();
    for (key, view) in read {
        match (view, kept.get(&key)) {
            (Some(view), Some(old)) if **old == view => {}
            (None, None) => {}
            (view, _) => updates.push((key, view)),
        }
    }
    updates
}

/// Keeps each view in place of the one kept, under the next generation, or drops the one
/// kept when the view is gone (`None`).
fn keep_views<K: Eq + Hash, V>(
    kept: &mut HashMap<K, Kept<V>>,
    updates: Vec<(K, Option<V>)>,
    next_generation: &mut u64,
) {
    for (key, view) in updates {
        match view {
            Some(view) => {
                *next_generation += 1;
                kept.insert(
                    key,
                    Kept {
                        generation: *next_generation,
                        value: Arc::new(view),
                    },
                );
            }
            None => {
                kept.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Actor, Store, TournamentSetup};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("runtime")
    }

    const WAIT: Duration = Duration::from_secs(60);

    /// A watcher on a new database file with one tournament, checking only when told.
    fn watcher(reread: Duration) -> (tempfile::TempDir, Store, i64, Watcher) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("event.sqlite3");
        let mut store = Store::open(&path).expect("store");
        let setup = TournamentSetup {
            name: "Open".into(),
            rounds: Some(3),
            ..Default::default()
        };
        let tid = store
            .create_tournament(&setup, &Actor::director())
            .expect("tournament");
        let source = Source::open(&path.as_path().into()).expect("source");
        let timing = Timing {
            refresh: Duration::from_secs(3600),
            reread,
        };
        let w = Watcher::start(source, path.as_path().into(), timing).expect("watcher");
        (dir, store, tid.0, w)
    }

    fn rename(store: &mut Store, tid: i64, name: &str) {
        let mut setup = store
            .tournament_setup(crate::store::TournamentId(tid))
            .expect("setup");
        setup.name = name.into();
        store
            .update_tournament(
                crate::store::TournamentId(tid),
                &setup,
                "test",
                &Actor::director(),
            )
            .expect("rename");
    }

    #[test]
    fn views_are_read_again_when_the_stamp_moves_or_once_old_and_not_otherwise() {
        let (_dir, mut store, tid, w) = watcher(Duration::from_secs(3600));
        let views = w.views().clone();
        let rt = runtime();
        let first = rt
            .block_on(views.tournament(tid, WAIT))
            .expect("read")
            .expect("the tournament");
        views.check_now();
        let reads = views.reads();
        assert!(reads >= 2, "the list and the tournament were read: {reads}");
        views.check_now();
        views.check_now();
        assert_eq!(views.reads(), reads, "the stamp did not move: nothing read");
        rename(&mut store, tid, "Open 2026");
        views.check_now();
        assert_eq!(views.reads(), reads + 2, "the stamp moved: both read again");
        let (version, data) = rt
            .block_on(views.tournament(tid, WAIT))
            .expect("read")
            .expect("the tournament");
        assert_eq!(data.name, "Open 2026");
        assert_ne!(version, first.0);
        drop(rt);
        w.stop();
        // Old enough, views are read again though the stamp did not move.
        let (_dir, _store, tid, w) = watcher(Duration::ZERO);
        let views = w.views().clone();
        runtime()
            .block_on(views.tournament(tid, WAIT))
            .expect("read")
            .expect("the tournament");
        // A wake-up the wait left queued is done with once a check asked for later is.
        views.check_now();
        let reads = views.reads();
        views.check_now();
        assert_eq!(views.reads(), reads + 2);
        w.stop();
    }

    #[test]
    fn a_view_read_again_unchanged_keeps_its_generation_and_tells_no_page() {
        let (_dir, mut store, tid, w) = watcher(Duration::ZERO);
        let views = w.views().clone();
        let rt = runtime();
        let (first, _) = rt
            .block_on(views.tournament(tid, WAIT))
            .expect("read")
            .expect("the tournament");
        let mut changes = views.subscribe().expect("a stream");
        // Read again (reread is zero), equal: the same generation, no notice.
        views.check_now();
        let (again, _) = rt
            .block_on(views.tournament(tid, WAIT))
            .expect("read")
            .expect("the tournament");
        assert_eq!(again, first);
        assert_eq!(
            changes.try_recv().err(),
            Some(broadcast::error::TryRecvError::Empty),
            "no notice for no change"
        );
        // A change the pages show: a new generation, and one notice naming the tournament
        // and the list (its name is on both).
        rename(&mut store, tid, "Open 2026");
        views.check_now();
        let (changed, _) = rt
            .block_on(views.tournament(tid, WAIT))
            .expect("read")
            .expect("the tournament");
        assert_ne!(changed, first);
        let change = changes.try_recv().expect("a notice");
        assert!(
            change.concerns(Feed::Tournament(tid)) && change.concerns(Feed::Event),
            "{change:?}"
        );
        assert!(!change.concerns(Feed::Tournament(tid + 1)));
        assert!(!change.concerns(Feed::Ratings));
        assert_eq!(
            changes.try_recv().err(),
            Some(broadcast::error::TryRecvError::Empty),
            "one notice for one change"
        );
        drop(rt);
        w.stop();
        assert!(
            matches!(
                changes.try_recv(),
                Err(broadcast::error::TryRecvError::Closed)
            ),
            "the streams end when the watcher stops"
        );
    }

    #[test]
    fn a_tournament_not_in_the_event_is_never_read() {
        let (_dir, _store, tid, w) = watcher(Duration::from_secs(3600));
        let views = w.views().clone();
        let rt = runtime();
        rt.block_on(views.index(WAIT)).expect("the list");
        views.check_now();
        let reads = views.reads();
        for id in [tid + 1, 99, 1_000_000] {
            assert!(
                rt.block_on(views.tournament(id, WAIT))
                    .expect("answered")
                    .is_none()
            );
        }
        views.check_now();
        assert_eq!(views.reads(), reads);
        drop(rt);
        w.stop();
    }

    #[test]
    fn a_change_concerns_the_pages_it_names() {
        let change = Change {
            serial: 1,
            scope: Scope::All,
        };
        assert!(
            change.concerns(Feed::Event)
                && change.concerns(Feed::Tournament(5))
                && change.concerns(Feed::Ratings)
        );
        let only = Change {
            serial: 2,
            scope: Scope::Views {
                index: false,
                ratings: false,
                tournaments: Arc::from([5]),
            },
        };
        assert!(
            !only.concerns(Feed::Event)
                && only.concerns(Feed::Tournament(5))
                && !only.concerns(Feed::Tournament(6))
                && !only.concerns(Feed::Ratings)
        );
        let ratings = Change {
            serial: 3,
            scope: Scope::Views {
                index: false,
                ratings: true,
                tournaments: Arc::from([]),
            },
        };
        assert!(ratings.concerns(Feed::Ratings) && !ratings.concerns(Feed::Event));
    }
}
