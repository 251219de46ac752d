//! Regular output samples on the grid `t₀ + k·Δ`, taken from the dense output of each step.

use super::Simulation;
use super::sink::SampleSink;

impl Simulation {
    /// Prepares the stepper's dense output for the step from `self.y` to `y_new`, once.
    pub(super) fn ensure_dense(&mut self, y_new: &[f64]) {
        if !self.dense_ready {
            self.stepper.prepare_dense(&self.y, y_new);
            self.dense_ready = true;
        }
    }

    pub(super) fn next_output_time(&self) -> f64 {
        self.t0 + self.next_output as f64 * self.output_interval_s
    }

    /// Emits regular samples with times in `(last emitted, t_to]` from the last step.
    pub(super) fn emit_pending(&mut self, t_to: f64, sink: &mut dyn SampleSink) {
        let Some((ts, h)) = self.last_step else {
            return;
        };
        if !self.dense_ready {
            return;
        }
        loop {
            let tk = self.next_output_time();
            if tk > t_to || tk > ts + h {
                break;
            }
            let theta = if h > 0.0 {
                ((tk - ts) / h).clamp(0.0, 1.0)
            } else {
                1.0
            };
            let mut buf = std::mem::take(&mut self.buf);
            self.stepper.dense(theta, &mut buf);
            self.emit(tk, &buf, 0.0, sink);
            self.buf = buf;
            self.next_output += 1;
        }
    }

    /// Observes a row now; pushes it to `sink`, or holds it when it lies past the current
    /// `advance`'s stop time (or rows are held already, to keep the order).
    pub(super) fn emit(&mut self, t: f64, y: &[f64], event_flag: f64, sink: &mut dyn SampleSink) {
        let n = self.row.len();
        self.row[0] = t;
        self.model.observe(t, y, &mut self.row[1..n - 1]);
        self.row[n - 1] = event_flag;
        if t <= self.deliver_until && self.held.is_empty() {
            sink.push(&self.row);
        } else {
            self.held.push_back(self.row.clone());
        }
    }
}
