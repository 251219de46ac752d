//! Frame statistics on stderr (`tribolab gui --frame-stats`): once a second, the frames drawn,
//! the mean and worst time the window spent per frame, and the history length — a steadier
//! measure than the smoothed frame rate of the status bar, for benchmarking the window.

use std::time::Instant;

/// Accumulates frames between reports.
#[derive(Debug)]
pub struct FrameStats {
    since: Instant,
    frames: u32,
    cpu_sum_s: f64,
    cpu_max_s: f64,
    /// The first frame that shows samples was reported.
    first_reported: bool,
}

impl Default for FrameStats {
    fn default() -> Self {
        Self {
            since: Instant::now(),
            frames: 0,
            cpu_sum_s: 0.0,
            cpu_max_s: 0.0,
            first_reported: false,
        }
    }
}

impl FrameStats {
    /// Counts one frame that took `cpu_s` of the window's time (eframe's measure of the
    /// previous frame); returns the report line once a second has passed, with the run's
    /// speed (model seconds per wall second) when it runs.
    pub fn frame(
        &mut self,
        cpu_s: Option<f32>,
        samples: usize,
        real_time_factor: Option<f64>,
    ) -> Option<String> {
        if !self.first_reported && samples > 0 {
            self.first_reported = true;
            if let Some(t0) = super::LAUNCHED.get() {
                return Some(format!(
                    "frame stats: first frame with samples {:.0} ms after launch",
                    1e3 * t0.elapsed().as_secs_f64()
                ));
            }
        }
        self.frames += 1;
        let cpu = f64::from(cpu_s.unwrap_or(0.0));
        self.cpu_sum_s += cpu;
        self.cpu_max_s = self.cpu_max_s.max(cpu);
        let wall = self.since.elapsed().as_secs_f64();
        if wall < 1.0 {
            return None;
        }
        let speed =
            real_time_factor.map_or_else(String::new, |f| format!(", run {f:.3}× real time"));
        let line = format!(
            "frame stats: {:.1} frames/s, window time {:.1} ms/frame mean, {:.1} ms max, \
             {samples} samples{speed}",
            f64::from(self.frames) / wall,
            1e3 * self.cpu_sum_s / f64::from(self.frames),
            1e3 * self.cpu_max_s,
        );
        *self = Self {
            first_reported: true,
            ..Self::default()
        };
        Some(line)
    }
}
