//! Stopping a background thread when the window closes: it has been told to stop; it may be
//! blocked sending into a full channel, so the channel is drained while waiting, and a thread
//! still busy after the grace period is left to finish detached (the window never hangs).

use std::sync::mpsc::Receiver;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a closing window waits for a thread.
const GRACE: Duration = Duration::from_secs(2);

/// Joins `thread` within [`GRACE`], draining `messages` meanwhile (messages are dropped).
pub fn join_draining<T>(thread: Option<JoinHandle<()>>, messages: &Receiver<T>) {
    let Some(t) = thread else {
        return;
    };
    let deadline = Instant::now() + GRACE;
    while !t.is_finished() && Instant::now() < deadline {
        while messages.try_recv().is_ok() {}
        std::thread::sleep(Duration::from_millis(2));
    }
    if t.is_finished() {
        let _ = t.join();
    }
}
