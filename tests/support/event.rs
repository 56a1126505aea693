//! An event on a store for the server tests: a connection by URL and a tournament with its
//! first round published.
#![allow(dead_code)]

use ggdesk::store::{Actor, Address, PlayerInput, Store, TournamentId, TournamentSetup};

/// A desk's connection to the server at `url`.
pub fn connect(url: &str) -> Store {
    Store::connect(&Address::Server(url.to_string())).expect("connect")
}

/// A tournament of `n` players with round 1 published: its id.
pub fn event_with_round(store: &mut Store, n: u32) -> TournamentId {
    let (tid, round) = event_paired(store, n);
    store
        .publish_round(tid, round, &Actor::director())
        .expect("publish");
    tid
}

/// A tournament of `n` players with round 1 paired but not yet published: its id and round.
pub fn event_paired(store: &mut Store, n: u32) -> (TournamentId, u32) {
    let d = Actor::director();
    let tid = store
        .create_tournament(
            &TournamentSetup {
                name: "Open".into(),
                ..TournamentSetup::default()
            },
            &d,
        )
        .expect("tournament");
    for i in 0..n {
        let p = store
            .add_player(
                &PlayerInput {
                    name: format!("Player {i}"),
                    federation_id: format!("F{i}"),
                    club: String::new(),
                    rating: 2000 - i64::from(i),
                },
                &d,
            )
            .expect("player");
        store.register(tid, p, &d).expect("register");
    }
    let round = store.pair_round(tid, &d).expect("pair").round;
    (tid, round)
}
