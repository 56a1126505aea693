//! Keyboard input paced one focus change per frame.
//!
//! egui hands every event of a frame to the text field that has the focus *when that field
//! is drawn*, whatever the order of the events: a Tab pressed in a frame moves the focus
//! before the fields are drawn, so the characters typed before the Tab in the same frame
//! land in the next field, and a field that takes the focus by a click or by Shift+Tab
//! (one frame late) loses them. A fast typist, and a barcode scanner faster still, puts a
//! Tab (or an Enter) and characters into one frame, so the "1" of a rating ended up in the
//! wrong field.
//!
//! The fix is at the root: a frame never carries typed input on both sides of a focus
//! change. Before anything is drawn, the frame's events are cut at the first Tab, Enter or
//! pointer press; the typed events after the cut wait for the next frame (which is asked
//! for at once), so each keystroke reaches the field that has the focus when it was typed.

use egui::{Event, FocusDirection, Key};

/// What a frame could not take yet: typed events held for the next frame.
#[derive(Debug, Default)]
pub struct InputPacer {
    held: Vec<Event>,
}

/// An event that changes where typing goes: Tab, Enter, or a pointer press.
fn moves_focus(event: &Event) -> bool {
    matches!(
        event,
        Event::Key {
            key: Key::Tab | Key::Enter,
            pressed: true,
            ..
        } | Event::PointerButton { pressed: true, .. }
    )
}

/// An event that types or edits text (the kind that may be held back): characters, pasted
/// text, key presses. Pointer movements, key releases and the rest pass unchanged.
fn is_typed(event: &Event) -> bool {
    matches!(
        event,
        Event::Text(_) | Event::Paste(_) | Event::Key { pressed: true, .. }
    )
}

/// The direction a Tab among `events` moves the focus (the last Tab decides, as in egui).
fn tab_direction(events: &[Event]) -> FocusDirection {
    let mut dir = FocusDirection::None;
    for e in events {
        if let Event::Key {
            key: Key::Tab,
            pressed: true,
            modifiers,
            ..
        } = e
        {
            if !modifiers.any() {
                dir = FocusDirection::Next;
            } else if modifiers.shift_only() {
                dir = FocusDirection::Previous;
            }
        }
    }
    dir
}

/// Splits a frame's events: what this frame takes, and the typed events after its focus
/// change, which wait for the next frame. Typed input before the first focus change is
/// taken alone; a focus change at the start is taken alone with what is not typed.
pub fn split(events: Vec<Event>) -> (Vec<Event>, Vec<Event>) {
    let Some(first) = events.iter().position(moves_focus) else {
        return (events, Vec::new());
    };
    let typed_before = events[..first].iter().any(is_typed);
    let cut = if typed_before { first } else { first + 1 };
    let mut now = Vec::with_capacity(events.len());
    let mut later = Vec::new();
    for (i, e) in events.into_iter().enumerate() {
        // Pointer events never wait: egui has already moved the pointer state with them.
        if i < cut || !is_typed(&e) {
            now.push(e);
        } else {
            later.push(e);
        }
    }
    (now, later)
}

impl InputPacer {
    /// Paces this frame's input; call before anything is drawn.
    pub fn pace(&mut self, ctx: &egui::Context) {
        let held = std::mem::take(&mut self.held);
        let (seen, kept, later) = ctx.input_mut(|i| {
            // egui already saw the fresh events (it set the focus direction from a Tab
            // among them); the held ones it has not seen.
            let seen = tab_direction(&i.events);
            let mut events = held;
            events.append(&mut i.events);
            let (now, later) = split(events);
            let kept = tab_direction(&now);
            i.events = now;
            (seen, kept, later)
        });
        if seen != kept {
            // Undo the focus move of a Tab that now waits, or make a held Tab move it.
            ctx.memory_mut(|m| m.move_focus(kept));
        }
        if !later.is_empty() {
            self.held = later;
            ctx.request_repaint();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::Modifiers;

    fn key(k: Key) -> Event {
        Event::Key {
            key: k,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: Modifiers::NONE,
        }
    }

    fn text(s: &str) -> Event {
        Event::Text(s.into())
    }

    #[test]
    fn text_before_a_tab_is_taken_alone_and_the_rest_waits() {
        let (now, later) = split(vec![text("b"), key(Key::Tab), text("1")]);
        assert_eq!(now, vec![text("b")]);
        assert_eq!(later, vec![key(Key::Tab), text("1")]);
        let (now, later) = split(later);
        assert_eq!(now, vec![key(Key::Tab)]);
        assert_eq!(later, vec![text("1")]);
        let (now, later) = split(later);
        assert_eq!(now, vec![text("1")]);
        assert!(later.is_empty());
    }

    #[test]
    fn a_scanner_line_is_cut_at_each_enter() {
        let (now, later) = split(vec![
            text("1"),
            text("2"),
            key(Key::Enter),
            text("3"),
            key(Key::Enter),
        ]);
        assert_eq!(now, vec![text("1"), text("2")]);
        assert_eq!(later.len(), 3);
    }

    #[test]
    fn input_without_a_focus_change_passes_whole() {
        let events = vec![text("e3"), text("-e4"), key(Key::Space)];
        let (now, later) = split(events.clone());
        assert_eq!(now, events);
        assert!(later.is_empty());
    }

    #[test]
    fn a_tab_direction_follows_shift() {
        let back = Event::Key {
            key: Key::Tab,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: Modifiers::SHIFT,
        };
        assert_eq!(tab_direction(&[back]), FocusDirection::Previous);
        assert_eq!(tab_direction(&[key(Key::Tab)]), FocusDirection::Next);
        assert_eq!(tab_direction(&[text("x")]), FocusDirection::None);
    }
}
