//! Issue 23 item 3: an open table with a running clock is quiet. It draws a frame when the
//! move clock shows its next second and not in between, and a frame is cheaper on a software
//! renderer: the panels are not painted, the window is cleared to their colour instead, and
//! shapes have no anti-aliasing fringe (egui_kittest).

mod common;

use common::{START_MS, all_text, tables_desk, type_move};
use egui_kittest::Harness;
use ggdesk::ui::DeskApp;
use std::time::Duration;

/// The delay before the next frame the desk asked for in its last frame.
fn next_frame(h: &Harness<'_, DeskApp>) -> Duration {
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map_or(Duration::MAX, |v| v.repaint_delay)
}

/// The move clock as the open table shows it (`1:59`): the only `M:SS` value on screen.
fn move_clock(h: &Harness<'_, DeskApp>) -> String {
    let mut shown: Vec<String> = all_text(h)
        .into_iter()
        .filter(|t| {
            let b = t.as_bytes();
            b.len() == 4
                && b[0].is_ascii_digit()
                && b[1] == b':'
                && b[2..].iter().all(u8::is_ascii_digit)
        })
        .collect();
    // The label and the text it holds may both be listed: one value.
    shown.dedup();
    assert_eq!(shown.len(), 1, "one move clock on screen: {shown:?}");
    shown[0].clone()
}

/// Draws one frame at `at_ms` (the desk's clock), as the window's next repaint would.
fn frame_at(h: &mut Harness<'_, DeskApp>, clock: &std::rc::Rc<std::cell::Cell<i64>>, at_ms: i64) {
    clock.set(at_ms);
    h.step();
}

/// Black moves at 0:05.0; the move clock shows 2:00 until 0:06.0. A frame at 0:05.3 asks for
/// the next one when the clock shows its next second (0:06, to the millisecond), and a frame
/// drawn in between (input, say) asks for the same moment. Then, drawing each frame when
/// the desk asked for it, for ten seconds: every frame shows a new second of the move
/// clock, none is drawn for nothing, none is a second late.
#[test]
fn an_open_table_draws_once_per_shown_second_of_its_move_clock() {
    let (mut h, clock) = tables_desk();
    common::started_practice_table(&mut h);
    clock.set(START_MS + 5_000);
    type_move(&mut h, "a3-a4");
    assert!(h.ctx.text_edit_focused(), "the move box has the keyboard");

    frame_at(&mut h, &clock, START_MS + 5_300);
    assert_eq!(move_clock(&h), "2:00");
    let asked = next_frame(&h);
    assert!(
        (Duration::from_millis(699)..=Duration::from_millis(701)).contains(&asked),
        "asked at 0:05.3 for 0:06: {asked:?}"
    );
    frame_at(&mut h, &clock, START_MS + 5_700);
    assert_eq!(move_clock(&h), "2:00");
    let asked = next_frame(&h);
    assert!(
        (Duration::from_millis(299)..=Duration::from_millis(301)).contains(&asked),
        "a frame in between asks for the same moment: {asked:?}"
    );

    let mut shown = vec![move_clock(&h)];
    while clock.get() < START_MS + 14_500 {
        let delay = next_frame(&h);
        assert!(
            delay <= Duration::from_secs(1),
            "the next frame is asked for within the second: {delay:?}"
        );
        let at = clock.get() + i64::try_from(delay.as_millis()).expect("ms");
        frame_at(&mut h, &clock, at);
        shown.push(move_clock(&h));
    }
    let mut distinct = shown.clone();
    distinct.dedup();
    assert_eq!(
        distinct, shown,
        "every frame showed a new second of the move clock"
    );
    assert_eq!(
        shown,
        [
            "2:00", "1:59", "1:58", "1:57", "1:56", "1:55", "1:54", "1:53", "1:52", "1:51", "1:50"
        ],
        "one frame per second, from 0:06 to 0:15"
    );
}

/// The desk's panels are transparent in both themes, and the window is cleared to the colour
/// they would have had: the same look, one full-window layer less to shade at every frame.
/// Shapes have no anti-aliasing fringe (thousands of thin triangles on an open table).
#[test]
fn the_window_is_cleared_to_the_panels_colour_and_the_panels_are_not_painted() {
    let (h, _clock) = tables_desk();
    assert!(
        !h.ctx.tessellation_options(|o| o.feathering),
        "shapes are drawn without feathering"
    );
    for (theme, visuals) in [
        (egui::Theme::Dark, egui::Visuals::dark()),
        (egui::Theme::Light, egui::Visuals::light()),
    ] {
        let style = h.ctx.style_of(theme);
        assert_eq!(
            style.visuals.panel_fill,
            egui::Color32::TRANSPARENT,
            "{theme:?}: the panels are not painted"
        );
        let clear = <DeskApp as eframe::App>::clear_color(h.state(), &style.visuals);
        assert_eq!(
            clear,
            visuals.panel_fill.to_normalized_gamma_f32(),
            "{theme:?}: the window is cleared to egui's panel colour"
        );
        assert_ne!(
            clear,
            egui::Color32::TRANSPARENT.to_normalized_gamma_f32(),
            "{theme:?}: the window is not cleared to nothing"
        );
    }
}
