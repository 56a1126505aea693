//! Issue 23 item 3: an open table with a running clock is quiet. It draws a frame when the
//! move clock shows its next second and not in between, and a frame costs as little as the
//! desk can make it on a software renderer: the panels are not painted, the window is
//! cleared to their colour instead (egui_kittest).

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

/// The move clock as the open table shows it (`1:59`): the only `M:SS` text on screen.
fn move_clock(h: &Harness<'_, DeskApp>) -> String {
    let shown: Vec<String> = all_text(h)
        .into_iter()
        .filter(|t| {
            let b = t.as_bytes();
            b.len() == 4
                && b[0].is_ascii_digit()
                && b[1] == b':'
                && b[2..].iter().all(u8::is_ascii_digit)
        })
        .collect();
    assert_eq!(shown.len(), 1, "one move clock on screen: {shown:?}");
    shown[0].clone()
}

/// Draws one frame at `at_ms` (the desk's clock), as the window's next repaint would.
fn frame_at(h: &mut Harness<'_, DeskApp>, clock: &std::rc::Rc<std::cell::Cell<i64>>, at_ms: i64) {
    clock.set(at_ms);
    h.step();
}

/// Black moves from 0:05.0; the move clock shows 2:00 until 0:06.0 and 1:59 just after.
/// A frame at 0:05.3 asks for the next one at 0:06.001, a frame drawn in between (input,
/// say) asks for the same moment, and the frame at that moment shows the new second and
/// asks for the next one a whole second later: one frame per shown second.
#[test]
fn an_open_table_draws_once_per_shown_second_of_its_move_clock() {
    let (mut h, clock) = tables_desk();
    common::started_practice_table(&mut h);
    clock.set(START_MS + 5_000);
    type_move(&mut h, "a3-a4");
    assert!(h.ctx.text_edit_focused(), "the move box has the keyboard");

    frame_at(&mut h, &clock, START_MS + 5_300);
    assert_eq!(move_clock(&h), "2:00");
    assert_eq!(
        next_frame(&h),
        Duration::from_millis(701),
        "asked at 0:05.3"
    );

    frame_at(&mut h, &clock, START_MS + 5_700);
    assert_eq!(move_clock(&h), "2:00");
    assert_eq!(
        next_frame(&h),
        Duration::from_millis(301),
        "a frame in between asks for the same moment (0:06.001)"
    );

    frame_at(&mut h, &clock, START_MS + 6_001);
    assert_eq!(move_clock(&h), "1:59", "the next second is shown");
    assert_eq!(
        next_frame(&h),
        Duration::from_millis(1_000),
        "the following second, 0:07.001"
    );

    frame_at(&mut h, &clock, START_MS + 7_001);
    assert_eq!(move_clock(&h), "1:58");
    assert_eq!(next_frame(&h), Duration::from_millis(1_000));
}

/// The desk's panels are transparent in both themes, and the window is cleared to the colour
/// they would have had: the same look, one full-window layer less to shade at every frame.
#[test]
fn the_window_is_cleared_to_the_panels_colour_and_the_panels_are_not_painted() {
    let (h, _clock) = tables_desk();
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
