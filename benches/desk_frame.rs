//! CPU time of one frame of the Tables page with 50 live tables, rendered headless.

use criterion::{Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use ggdesk::store::{Actor, NewGame, Store};
use ggdesk::ui::{DeskApp, Page, Prefs, TimeSource};
use ggdesk_core::record::TimedEvent;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::cell::Cell;
use std::rc::Rc;

#[path = "../tests/support/games.rs"]
mod games;

const START_MS: i64 = 1_800_000_000_000;

fn fifty_live_tables() -> Store {
    let mut store = Store::open_in_memory().expect("store");
    let mut rng = StdRng::seed_from_u64(50);
    let actor = Actor::arbiter(None);
    for _ in 0..50 {
        let setups = games::random_both(&mut rng);
        let id = games::start_with(
            &mut store,
            &NewGame::standalone(),
            &setups,
            START_MS,
            &actor,
        )
        .expect("game");
        for i in 0..10 {
            let Some(event) = games::random_legal(&games::live(&store, id), &mut rng) else {
                break;
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
