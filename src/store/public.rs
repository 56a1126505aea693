//! What the public pages need beyond the desk's read views: one consistent moment of the
//! database for a whole page's worth of reads.

use super::{Result, Store};

impl Store {
    /// Runs `f` inside one read transaction, so that everything it reads comes from the same
    /// moment of the database: a write committed meanwhile is seen by the next call, never
    /// half by this one. On a read-only store nothing is written.
    pub fn read_consistent<T>(&self, f: impl FnOnce(&Store) -> Result<T>) -> Result<T> {
        let conn = self.conn();
        if !conn.is_autocommit() {
            // A read left open by an earlier call that did not finish: end it first.
            conn.execute_batch("ROLLBACK")?;
        }
        conn.execute_batch("BEGIN DEFERRED")?;
        let value = f(self);
        let end = conn.execute_batch(if value.is_ok() { "COMMIT" } else { "ROLLBACK" });
        let value = value?;
        end?;
        Ok(value)
    }
}
