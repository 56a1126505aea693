//! The players registry's rules, shared by every tournament: what a player needs, a
//! federation id held once, a ban and its lifting given with a reason, a players list taken
//! all or nothing. The store looks up what the registry holds and asks here.

use crate::export::{ImportedPlayer, RowError};
use crate::tournament::RegistryId;
use std::fmt;

/// The largest rating the desk accepts (a typing error beyond it is refused).
pub const MAX_RATING: i64 = 100_000;

/// What the director types for a new player or an edit.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlayerInput {
    pub name: String,
    pub federation_id: String,
    pub club: String,
    pub rating: i64,
}

/// Who holds a federation id in the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub id: RegistryId,
    pub name: String,
}

/// Why the registry refuses a change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryRefusal {
    #[error("a player needs a name")]
    NoName,
    #[error("rating {0} is out of range (0 to {MAX_RATING})")]
    RatingOutOfRange(i64),
    #[error("federation id {federation_id} is already that of player {} ({})", .holder.id, .holder.name)]
    FederationIdTaken {
        federation_id: String,
        holder: Holder,
    },
    #[error("a ban needs a reason")]
    BanNeedsReason,
    #[error("{0} is already banned")]
    AlreadyBanned(String),
    #[error("lifting a ban needs a reason")]
    LiftNeedsReason,
    #[error("{0} is not banned")]
    NotBanned(String),
    /// A players list with bad rows: every one, by its line; nothing is imported.
    #[error("{}", rows_message(.0))]
    BadRows(Vec<RowError>),
}

/// Every bad row of a players list, one per line.
pub fn rows_message(rows: &[RowError]) -> String {
    let mut text = format!(
        "{} bad row{}; nothing was imported:",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    );
    for r in rows {
        text.push_str(&format!("\n{r}"));
    }
    text
}

impl PlayerInput {
    /// The input with its text trimmed, checked: a name, a rating from 0 to
    /// [`MAX_RATING`].
    pub fn checked(&self) -> Result<PlayerInput, RegistryRefusal> {
        let name = self.name.trim().to_string();
        if name.is_empty() {
            return Err(RegistryRefusal::NoName);
        }
        if !(0..=MAX_RATING).contains(&self.rating) {
            return Err(RegistryRefusal::RatingOutOfRange(self.rating));
        }
        Ok(PlayerInput {
            name,
            federation_id: self.federation_id.trim().to_string(),
            club: self.club.trim().to_string(),
            rating: self.rating,
        })
    }

    /// A row of a players list as the registry takes it.
    pub fn of_row(row: &ImportedPlayer) -> PlayerInput {
        PlayerInput {
            name: row.name.clone(),
            federation_id: row.federation_id.clone().unwrap_or_default(),
            club: row.club.clone().unwrap_or_default(),
            rating: row.rating,
        }
    }
}

/// Refuses a federation id another registry player holds (`holder`: who holds it, if
/// anyone; `me`: the player being edited).
pub fn check_federation_id(
    federation_id: &str,
    holder: Option<Holder>,
    me: Option<RegistryId>,
) -> Result<(), RegistryRefusal> {
    match holder {
        Some(h) if Some(h.id) != me => Err(RegistryRefusal::FederationIdTaken {
            federation_id: federation_id.to_string(),
            holder: h,
        }),
        _ => Ok(()),
    }
}

/// The rows of a players list the registry refuses, each with why: a name or rating it
/// refuses, or a federation id another player holds (`holders`, one per row, in order).
pub fn bad_rows(rows: &[ImportedPlayer], holders: &[Option<Holder>]) -> Vec<RowError> {
    let mut bad = Vec::new();
    for (row, holder) in rows.iter().zip(holders) {
        let input = PlayerInput::of_row(row);
        if let Err(e) = input.checked() {
            bad.push(RowError {
                line: row.line,
                reason: e.to_string(),
            });
            continue;
        }
        if let Some(h) = holder {
            bad.push(RowError {
                line: row.line,
                reason: format!(
                    "federation id {} is already in the registry (player {}, {})",
                    input.federation_id.trim(),
                    h.id,
                    h.name
                ),
            });
        }
    }
    bad
}

/// Whether a player may be banned now: with a reason, and not banned already.
pub fn check_ban(name: &str, banned: bool, reason: &str) -> Result<(), RegistryRefusal> {
    if reason.trim().is_empty() {
        return Err(RegistryRefusal::BanNeedsReason);
    }
    if banned {
        return Err(RegistryRefusal::AlreadyBanned(name.to_string()));
    }
    Ok(())
}

/// Whether a player's ban may be lifted now: with a reason, and banned.
pub fn check_lift(name: &str, banned: bool, reason: &str) -> Result<(), RegistryRefusal> {
    if reason.trim().is_empty() {
        return Err(RegistryRefusal::LiftNeedsReason);
    }
    if !banned {
        return Err(RegistryRefusal::NotBanned(name.to_string()));
    }
    Ok(())
}

/// What an edit of a registry player changes, in words for the audit log.
pub fn edit_words(old: &PlayerInput, new: &PlayerInput) -> Vec<String> {
    let mut changes = Vec::new();
    if old.name != new.name {
        changes.push(format!("name {:?} -> {:?}", old.name, new.name));
    }
    if old.federation_id != new.federation_id {
        changes.push(format!(
            "federation id {:?} -> {:?}",
            old.federation_id, new.federation_id
        ));
    }
    if old.club != new.club {
        changes.push(format!("club {:?} -> {:?}", old.club, new.club));
    }
    if old.rating != new.rating {
        changes.push(format!("rating {} -> {}", old.rating, new.rating));
    }
    changes
}

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {} ({})", self.id, self.name)
    }
}
