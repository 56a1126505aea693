//! The pages' live updates: one Server-Sent Events stream per open page, `/t/ID/events` for a
//! tournament's pages, `/ratings/events` for the rating pages and `/events` for the event's
//! list and the wall. The watcher sends each
//! change it finds once on a broadcast channel; each stream passes on those that concern its
//! pages as one `change` event (its data: the change's serial number), and the page's script
//! fetches itself again. A stream that fell behind the channel is sent one `change` (its
//! page fetches itself and is current again). Every stream ends when the server stops.

use super::routes::Feed;
use super::watch::{Change, Views};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream, StreamExt};
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;

/// How long a browser waits before it opens a stream again after losing it.
const RETRY: Duration = Duration::from_secs(2);
/// A comment sent on a quiet stream this often, so that a connection that died is noticed
/// and no router on the way forgets it.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The next change for the pages of `feed`; `None` when the server stops.
async fn next(rx: &mut Receiver<Change>, feed: Feed) -> Option<Event> {
    loop {
        match rx.recv().await {
            Ok(change) if change.concerns(feed) => {
                return Some(
                    Event::default()
                        .event("change")
                        .data(change.serial.to_string()),
                );
            }
            Ok(_) => {}
            Err(RecvError::Lagged(_)) => return Some(Event::default().event("change").data("0")),
            Err(RecvError::Closed) => return None,
        }
    }
}

/// The stream for the pages of `feed`: first a comment saying it is open (with the retry
/// interval), then one `change` per change that concerns them.
pub fn stream(
    views: &Views,
    feed: Feed,
) -> Sse<impl Stream<Item = Result<Event, Infallible>> + Send + 'static> {
    let open = Event::default().retry(RETRY).comment("open");
    let changes = match views.subscribe() {
        Some(rx) => stream::unfold(rx, move |mut rx| async move {
            next(&mut rx, feed).await.map(|e| (e, rx))
        })
        .left_stream(),
        None => stream::empty().right_stream(),
    };
    Sse::new(stream::once(async move { open }).chain(changes).map(Ok))
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
}
