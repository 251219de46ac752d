//! Pacing of the simulation worker when it runs *as fast as possible*: the window keeps at
//! least [`MIN_FRAMES_PER_S`] by taking CPU time from the worker, not the other way round.
//!
//! Without a GPU the window's frames are drawn by the CPU (llvmpipe uses every core), so a
//! worker that computes without a break takes a core from the rasteriser: 8 frames/s were
//! measured that way against 33 at real-time speed. The window tells the worker how fast it
//! draws ([`FrameClock`], once per frame); after each chunk the worker pauses for a time
//! ([`Pacer`]) that grows while the window draws slower than the target and shrinks again when
//! it is faster — the simulation gets what the window leaves. The pause never exceeds four
//! times the chunk's own work (the run keeps at least a fifth of a core, even on a view that
//! cannot reach the target at all), and a window that has not drawn for a second (minimised,
//! covered) does not pace the worker.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Frame rate the window keeps while the worker runs as fast as possible [1/s].
pub const MIN_FRAMES_PER_S: f64 = 30.0;
/// The frame interval the pacer aims at: the minimum rate plus a margin for jitter [s].
const TARGET_INTERVAL_S: f64 = 1.0 / (MIN_FRAMES_PER_S + 4.0);
/// A window that has not drawn for this long is not drawing (hidden): no pacing [s].
const STALE_S: f64 = 1.0;
/// Longest pause after a chunk, relative to the chunk's work.
const MAX_PAUSE_PER_WORK: f64 = 4.0;

/// When the window drew its frames, shared with the worker.
#[derive(Debug)]
pub struct FrameClock {
    origin: Instant,
    /// Microseconds from `origin` to the last frame (0: none yet).
    last_us: AtomicU64,
    /// Smoothed interval between frames [µs].
    interval_us: AtomicU64,
}

impl Default for FrameClock {
    fn default() -> Self {
        Self {
            origin: Instant::now(),
            last_us: AtomicU64::new(0),
            interval_us: AtomicU64::new(0),
        }
    }
}

impl FrameClock {
    /// The window drew a frame now.
    pub fn frame(&self) {
        self.frame_at(Instant::now());
    }

    fn frame_at(&self, now: Instant) {
        let now_us = (now - self.origin).as_micros().max(1) as u64;
        let last = self.last_us.swap(now_us, Ordering::Relaxed);
        if last == 0 || now_us <= last {
            return;
        }
        let dt = now_us - last;
        let old = self.interval_us.load(Ordering::Relaxed);
        // Exponential smoothing over about four frames.
        let smoothed = if old == 0 { dt } else { (3 * old + dt) / 4 };
        self.interval_us.store(smoothed, Ordering::Relaxed);
    }

    /// The window's smoothed frame interval [s], when it drew within the last second.
    pub fn interval_s(&self) -> Option<f64> {
        self.interval_at(Instant::now())
    }

    fn interval_at(&self, now: Instant) -> Option<f64> {
        let last = self.last_us.load(Ordering::Relaxed);
        let interval = self.interval_us.load(Ordering::Relaxed);
        if last == 0 || interval == 0 {
            return None;
        }
        let since_s = (now - self.origin).as_secs_f64() - last as f64 * 1e-6;
        (since_s < STALE_S).then_some(interval as f64 * 1e-6)
    }
}

/// The worker's pause after each chunk at full speed.
#[derive(Debug, Default)]
pub struct Pacer {
    pause_s: f64,
}

impl Pacer {
    /// The pause after a chunk that took `work_s`, given the window's frame interval.
    pub fn pause(&mut self, window_interval_s: Option<f64>, work_s: f64) -> Duration {
        let cap = MAX_PAUSE_PER_WORK * work_s.max(1e-3);
        self.pause_s = match window_interval_s {
            None => 0.0,
            Some(dt) if dt > TARGET_INTERVAL_S => (1.25 * self.pause_s + 1e-3).min(cap),
            Some(_) => (0.9 * self.pause_s - 1e-4).max(0.0),
        };
        Duration::from_secs_f64(self.pause_s)
    }

    /// The current pause [s].
    pub fn pause_s(&self) -> f64 {
        self.pause_s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_reports_the_smoothed_interval_until_the_window_stops_drawing() {
        let clock = FrameClock::default();
        let t0 = clock.origin;
        assert_eq!(clock.interval_at(t0), None);
        for k in 1..=40 {
            clock.frame_at(t0 + Duration::from_millis(50 * k));
        }
        let at = t0 + Duration::from_millis(2010);
        let dt = clock.interval_at(at).unwrap();
        assert!((dt - 0.05).abs() < 1e-6, "{dt}");
        // Faster frames pull the estimate down within a few frames.
        for k in 1..=12 {
            clock.frame_at(t0 + Duration::from_millis(2000 + 10 * k));
        }
        let dt = clock.interval_at(t0 + Duration::from_millis(2125)).unwrap();
        assert!((dt - 0.01).abs() < 0.002, "{dt}");
        // Nothing drawn for over a second: not drawing.
        assert_eq!(clock.interval_at(t0 + Duration::from_millis(3200)), None);
    }

    #[test]
    fn pause_grows_while_the_window_is_slow_and_decays_when_it_is_fast() {
        let mut p = Pacer::default();
        let slow = Some(1.0 / 10.0);
        let fast = Some(1.0 / 60.0);
        let work = 0.02;
        for _ in 0..5 {
            p.pause(slow, work);
        }
        let grown = p.pause_s();
        assert!(grown > 0.005, "{grown}");
        // Never above four times the chunk's work.
        for _ in 0..100 {
            p.pause(slow, work);
        }
        assert!((p.pause_s() - 4.0 * work).abs() < 1e-12, "{}", p.pause_s());
        for _ in 0..60 {
            p.pause(fast, work);
        }
        assert!(p.pause_s() < 1e-3, "{}", p.pause_s());
        for _ in 0..60 {
            p.pause(fast, work);
        }
        assert_eq!(p.pause_s(), 0.0);
        // A hidden window does not pace.
        p.pause(slow, work);
        assert!(p.pause_s() > 0.0);
        assert_eq!(p.pause(None, work), Duration::ZERO);
    }
}
