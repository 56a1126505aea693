//! Store tests run on both engines: each test is a function of the [`Engine`], and
//! `on_both_engines!(name, ...)` makes a `sqlite::name` and a `postgres::name` test of it.
//! The PostgreSQL side runs on a private cluster ([`super::pg`]), a new database per test.
#![allow(dead_code)]

use ggdesk::store::{Address, Store};
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

/// A new empty database's address: a file in `dir`, or a new database on the cluster.
pub fn fresh_address(engine: Engine, dir: &Path) -> Address {
    match engine {
        Engine::Sqlite => Address::File(dir.join(format!(
            "db-{}.sqlite3",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ))),
        Engine::Postgres => Address::Server(super::pg::new_database()),
    }
}

/// A new empty store: in memory, or a new database on the cluster.
pub fn fresh_store(engine: Engine) -> Store {
    match engine {
        Engine::Sqlite => Store::open_in_memory().expect("store"),
        Engine::Postgres => Store::connect(&Address::Server(super::pg::new_database()))
            .expect("store on the server"),
    }
}

/// `on_both_engines!(a, b, c)`: the tests `sqlite::a` … and `postgres::a` … of the functions
/// `a(engine: Engine)` ….
#[macro_export]
macro_rules! on_both_engines {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[test]
            fn $name() {
                super::$name(super::engines::Engine::Sqlite)
            })*
        }
        mod postgres {
            $(#[test]
            fn $name() {
                super::$name(super::engines::Engine::Postgres)
            })*
        }
    };
}
