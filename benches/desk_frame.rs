//! CPU time of one frame of the Tables page with 50 live tables, rendered headless.

use criterion::{Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use ggdesk::store::{Actor, NewGame, Store};
use ggdesk::ui::{DeskApp, Page, Prefs, TimeSource};
use ggdesk_core::record::TimedEvent;
use ggdesk_core::rules::{Event, Side};
use ggdesk_core::sim::random_setups;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::cell::Cell;
use std::rc::Rc;

const START_MS: i64 = 1_800_000_000_000;

fn fifty_live_tables() -> Store {
    let mut store = Store::open_in_memory().expect("store");
    let mut rng = StdRng::seed_from_u64(50);
    let actor = Actor::arbiter(None);
    for _ in 0..50 {
        let id = store
            .create_game(&NewGame::standalone(), &actor)
            .expect("game");
        let setups = random_setups(&mut |n| rng.random_range(0..n.max(1)));
        for side in Side::BOTH {
            store
                .save_setup(id, side, &setups[side], &actor)
                .expect("setup");
        }
        store
            .start_game(id, START_MS, Side::White, &actor)
            .expect("start");
        for i in 0..10 {
            let game = store
                .load_game(id)
                .expect("load")
                .game()
                .expect("setups")
                .expect("replay");
            let moves = game.position().legal_moves(game.to_move());
            let event = Event::Move {
                mv: moves[rng.random_range(0..moves.len())],
                by: None,
            };
            let _ = store.append_event(
                id,
                TimedEvent {
                    t: (i + 1) as f64,
                    event,
                },
                &actor,
                "",
            );
        }
    }
    store
}

fn tables_page(c: &mut Criterion) {
    let clock = Rc::new(Cell::new(START_MS + 20_000));
    let prefs = Prefs {
        page: Page::Tables,
        ..Prefs::default()
    };
    let app = DeskApp::new(
        Ok(fifty_live_tables()),
        prefs,
        TimeSource::Manual(clock.clone()),
    );
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1366.0, 768.0))
        .build_ui_state(|ui, app: &mut DeskApp| app.show(ui), app);
    harness.run();
    c.bench_function("tables_page_frame_50_live_tables", |b| {
        b.iter(|| {
            clock.set(clock.get() + 16);
            harness.step();
        })
    });
}

criterion_group!(benches, tables_page);
criterion_main!(benches);
