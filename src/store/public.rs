//! What the public pages need beyond the desk's read views: one consistent moment of the
//! database for a whole page's worth of reads.

use super::{Conn, Result, Store};

impl Store {
    /// Runs `f` inside one read snapshot, so that everything it reads comes from the same
    /// moment of the database: a write committed meanwhile is seen by the next call, never
    /// half by this one. Nothing is written. (SQLite: one deferred transaction; PostgreSQL:
    /// one `REPEATABLE READ READ ONLY` transaction.)
    pub fn read_consistent<T>(&self, f: impl FnOnce(&Store) -> Result<T>) -> Result<T> {
        if self.snapshot.get() {
            return f(self);
        }
        match &mut *self.borrow()? {
            Conn::Sqlite(c) => {
                if !c.is_autocommit() {
                    // A read left open by an earlier call that did not finish: end it first.
                    c.execute_batch("ROLLBACK")?;
                }
                c.execute_batch("BEGIN DEFERRED")?;
            }
            Conn::Postgres(pg) => pg.begin_snapshot()?,
        }
        self.snapshot.set(true);
        let value = f(self);
        self.snapshot.set(false);
        let ok = value.is_ok();
        let end = match &mut *self.borrow()? {
            Conn::Sqlite(c) => c
                .execute_batch(if ok { "COMMIT" } else { "ROLLBACK" })
                .map_err(Into::into),
            Conn::Postgres(pg) => pg.end_snapshot(ok),
        };
        let value = value?;
        end?;
        Ok(value)
    }
}
