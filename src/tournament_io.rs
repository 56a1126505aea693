//! Tournaments between the database and the `ggdesk-tournament/1` file.

use crate::store::{Store, StoreError};
use serde_json::Value;

pub const FORMAT: &str = "ggdesk-tournament/1";

pub fn import(_store: &mut Store, _file: &Value) -> Result<i64, StoreError> {
    Err(StoreError::Rejected(
        "tournament import is not available yet".into(),
    ))
}

pub fn export(_store: &Store, id: i64) -> Result<Value, StoreError> {
    Err(StoreError::NotFound(format!("tournament {id}")))
}
