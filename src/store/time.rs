//! Where the store's time and its writers' tokens come from: the system clock (the default
//! clock of a store, and the desk's) and the operating system's randomness. Only the shell
//! reads them.

use std::sync::Arc;

/// The current time in Unix milliseconds, from the system clock: the default clock of a
/// store, and the desk's. Only the shell calls it.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// A token no other writer will ever use, for an append that may have to be sent again
/// ([`Expect`]): 128 bits from the operating system's randomness.
pub fn new_token() -> String {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::from_os_rng();
    format!("{:032x}", rng.random::<u128>())
}

/// Where the store's time comes from: Unix milliseconds.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;
