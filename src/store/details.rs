//! A tournament's details for the printouts (migration 2): dates, venue, organiser and
//! chief arbiter, free text, printed as the header of every page.

use super::audit::{Actor, audit};
use super::conn::Store;
use super::db::{Optional, args};
use super::error::{Result, StoreError};
use ggdesk_core::export::print::Details;
use ggdesk_core::tournament::TournamentId;

impl Store {
    /// A tournament's details, with its name as the event.
    pub fn tournament_details(&self, tid: TournamentId) -> Result<Details> {
        self.read(|q| q.query_row(
                "SELECT name, dates, venue, organiser, chief_arbiter FROM tournaments WHERE id = ?1",
                [tid],
                |r| {
                    Ok(Details {
                        event: r.get(0)?,
                        dates: r.get(1)?,
                        venue: r.get(2)?,
                        organiser: r.get(3)?,
                        chief_arbiter: r.get(4)?,
                    })
                },
            ).optional())?
            .ok_or_else(|| StoreError::NotFound(format!("tournament {tid}")))
    }

    /// Saves a tournament's dates, venue, organiser and chief arbiter (the event's name is
    /// a setting, saved with the others).
    pub fn set_tournament_details(
        &mut self,
        tid: TournamentId,
        d: &Details,
        actor: &Actor,
    ) -> Result<()> {
        d.check().map_err(|r| StoreError::Refused(r.into()))?;
        self.write(|tx| {
            let changed = tx.execute(
                "UPDATE tournaments SET dates = ?1, venue = ?2, organiser = ?3, chief_arbiter = ?4
                 WHERE id = ?5",
                args![
                    d.dates.trim(),
                    d.venue.trim(),
                    d.organiser.trim(),
                    d.chief_arbiter.trim(),
                    tid
                ],
            )?;
            if changed == 0 {
                return Err(StoreError::NotFound(format!("tournament {tid}")));
            }
            audit(
                tx,
                actor,
                "tournament details changed",
                Some(tid),
                None,
                "",
                &format!(
                    "dates: {}; venue: {}; organiser: {}; chief arbiter: {}",
                    d.dates.trim(),
                    d.venue.trim(),
                    d.organiser.trim(),
                    d.chief_arbiter.trim()
                ),
            )
        })
    }
}
