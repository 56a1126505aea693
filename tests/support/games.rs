//! Games for the tests and benchmarks: started from random setups, and read back as the
//! rules see them.
#![allow(dead_code)]

use ggdesk::store::{Actor, GameId, NewGame, Store, StoreError};
use ggdesk_core::rules::{BySide, Event, Game, Side, SideSetup};
use ggdesk_core::sim::random_setups;
use rand::Rng;

/// Both sides' setups, drawn from `rng`.
pub fn random_both<R: Rng>(rng: &mut R) -> BySide<SideSetup> {
    random_setups(&mut |n| rng.random_range(0..n.max(1)))
}

/// Creates `new` and enters both `setups`; its clocks are not started.
pub fn set_up(
    store: &mut Store,
    new: &NewGame,
    setups: &BySide<SideSetup>,
    actor: &Actor,
) -> Result<GameId, StoreError> {
    let id = store.create_game(new, actor)?;
    for side in Side::BOTH {
        store.save_setup(id, side, &setups[side], actor)?;
    }
    Ok(id)
}

/// [`set_up`], then its clocks started at Unix ms `started_ms`, White to move first.
pub fn start_with(
    store: &mut Store,
    new: &NewGame,
    setups: &BySide<SideSetup>,
    started_ms: i64,
    actor: &Actor,
) -> Result<GameId, StoreError> {
    let id = set_up(store, new, setups, actor)?;
    store.start_game(id, started_ms, Side::White, actor)?;
    Ok(id)
}

/// The stored game as the rules see it now (its setups entered, its events replaying).
pub fn live(store: &Store, id: GameId) -> Game {
    store
        .load_game(id)
        .expect("load")
        .game()
        .expect("setups")
        .expect("replays")
}

/// The first legal move of the side to move in a stored game.
pub fn first_legal(store: &Store, id: GameId) -> Event {
    let game = live(store, id);
    Event::Move {
        mv: game.position().legal_moves(game.to_move())[0],
        by: None,
    }
}

/// A random legal move of the side to move, or `None` when the game is over or that side
/// cannot move.
pub fn random_legal<R: Rng>(game: &Game, rng: &mut R) -> Option<Event> {
    if game.is_over() {
        return None;
    }
    let moves = game.position().legal_moves(game.to_move());
    if moves.is_empty() {
        return None;
    }
    Some(Event::Move {
        mv: moves[rng.random_range(0..moves.len())],
        by: None,
    })
}
