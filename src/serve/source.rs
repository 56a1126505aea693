//! Where the public pages read the database: the only part of the server that names the
//! store. It opens its own read-only connection and copies out the public views
//! (`super::public`). Another engine (a read-only role on PostgreSQL) plugs in here.

use super::public::{EventIndex, PlayerRatings, RatingList, StagedData, TournamentData};
use crate::store::Address;
use crate::store::TournamentId;
use crate::store::{Result, Store, StoreError};
use ggdesk_core::event::RoundView;

/// A read-only connection to the event's database.
#[derive(Debug)]
pub struct Source {
    store: Store,
}

impl Source {
    /// Opens the database read-only: a SQLite file with a read-only connection (a missing,
    /// foreign, damaged or newer file is refused without writing anything), or an event
    /// server as its public role in read-only transactions (`Store::connect_read_only`).
    pub fn open(address: &Address) -> Result<Source> {
        Ok(Source {
            store: Store::connect_read_only(address)?,
        })
    }

    /// A number that moves whenever a director or an arbiter writes anything.
    pub fn stamp(&self) -> Result<i64> {
        self.store.change_stamp()
    }

    /// The tournaments, with the stamp of the moment they were read.
    pub fn index(&self) -> Result<(i64, EventIndex)> {
        self.store.read_consistent(|s| {
            let stamp = s.change_stamp()?;
            let rated = s.public_rating_count()?;
            Ok((stamp, EventIndex::from_summaries(&s.tournaments()?, rated)))
        })
    }

    /// One tournament's public view, with the stamp of the moment it was read; `None` when
    /// there is no such tournament.
    pub fn tournament(&self, id: i64) -> Result<Option<(i64, TournamentData)>> {
        self.store.read_consistent(|s| {
            let stamp = s.change_stamp()?;
            // A team event: its teams, matches and games (migration 12's views on a server).
            if let Some(read) = s.public_team_event(TournamentId(id))? {
                return Ok(Some((stamp, TournamentData::team_event(id, &read))));
            }
            // Only what the pages show is read (on a server, the public role's views).
            let Some(event) = s.public_event(TournamentId(id))? else {
                return Ok(None);
            };
            let flat = event.flat().map_err(|d| StoreError::Corrupt {
                path: format!("tournament {id}"),
                detail: d.to_string(),
            })?;
            let views: Vec<RoundView> = event
                .rounds()
                .iter()
                .filter_map(|r| event.round_view(r.number))
                .collect();
            let mut data = TournamentData::build(id, &flat, &views);
            // An event of stages: its stages, groups and bracket, from the same event.
            if let Some(staged) = event.staged() {
                data.staged = Some(StagedData::build(staged));
            }
            Ok(Some((stamp, data)))
        })
    }

    /// The rating list (on a server, the public role's view `public_rating_list`).
    pub fn ratings(&self) -> Result<RatingList> {
        self.store
            .read_consistent(|s| Ok(RatingList::new(s.public_rating_list()?)))
    }

    /// A player of the rating list with their rated events, in one read; `None` when the
    /// list has no such player.
    pub fn rated_player(&self, federation_id: &str) -> Result<Option<PlayerRatings>> {
        self.store.read_consistent(|s| {
            let of = s.public_rating_count()?;
            Ok(s.public_rating_player(federation_id)?
                .map(|(row, history)| PlayerRatings { row, of, history }))
        })
    }
}
