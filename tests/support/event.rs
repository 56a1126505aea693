//! An event on a store for the server tests: a connection by URL and a tournament with its
//! first round published.
#![allow(dead_code)]

use ggdesk::store::{
    Actor, Address, GameId, GameMode, NewGame, PlayerInput, Store, StoreError, TournamentId,
    TournamentSetup,
};
use ggdesk_core::rules::{BySide, SideSetup};
use ggdesk_core::tournament::{RoundNo, TableNo};
use rand::SeedableRng;
use rand::rngs::StdRng;

#[path = "games.rs"]
pub mod games;

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
pub fn event_paired(store: &mut Store, n: u32) -> (TournamentId, RoundNo) {
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

/// Both sides' setups, random from `seed`.
pub fn setups(seed: u64) -> BySide<SideSetup> {
    games::random_both(&mut StdRng::seed_from_u64(seed))
}

/// The game of a table of round 1, started with random setups (its clocks from Unix ms
/// 1000).
pub fn table_game(
    store: &mut Store,
    tid: TournamentId,
    table: u32,
    actor: &Actor,
) -> Result<GameId, StoreError> {
    table_game_from(store, tid, table, actor, 1_000)
}

/// [`table_game`] with its clocks started at Unix ms `started_ms`.
pub fn table_game_from(
    store: &mut Store,
    tid: TournamentId,
    table: u32,
    actor: &Actor,
    started_ms: i64,
) -> Result<GameId, StoreError> {
    let view = store.round_view(tid, RoundNo(1))?.expect("round 1");
    let board = view
        .boards
        .iter()
        .find(|b| b.table == TableNo(table))
        .expect("the table");
    let new = NewGame::for_board(
        tid,
        RoundNo(1),
        board,
        GameMode::Arbitrated,
        Default::default(),
    );
    let id = games::start_with(store, &new, &setups(u64::from(table)), started_ms, actor)?;
    Ok(id)
}
