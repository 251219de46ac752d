//! Fixed-step RK4 between output samples in statically dispatched batches
//! ([`Rk4Batch`]): the model takes the steps with its concrete right-hand side, the driver
//! takes over at the first step that needs it (an event, a section crossing, a non-finite
//! state, an output sample, a stroboscopic time, the stop time). Same arithmetic as the
//! general path, so the same numbers.

use super::Simulation;
use crate::integrate::rk4_batch::Rk4Batch;

impl Simulation {
    /// Takes the steps that end before the next output sample, the next stroboscopic time and
    /// `t_stop` in one batch, when the method is RK4 and the model offers batches.
    pub(super) fn run_batch(&mut self, t_stop: f64) {
        let Some(work) = self.batch_work.as_mut() else {
            return;
        };
        let mut t_limit = (self.t0 + self.next_output as f64 * self.output_interval_s).min(t_stop);
        let mut no_sections: [f64; 0] = [];
        let s: &mut [f64] = match self.sections.as_mut() {
            Some(tr) => {
                if let Some(period) = tr.strobe_period_s {
                    t_limit = t_limit.min(tr.next_strobe as f64 * period);
                }
                &mut tr.prev
            }
            None => &mut no_sections,
        };
        if self.t + self.h >= t_limit {
            return;
        }
        let mut batch = Rk4Batch {
            t: self.t,
            y: &mut self.y,
            h: self.h,
            t_limit,
            g: &mut self.g_prev,
            s,
            work,
            steps: 0,
            rhs_evals: 0,
        };
        if !self.model.rk4_batch(&mut batch) {
            return;
        }
        let (t, steps, evals) = (batch.t, batch.steps, batch.rhs_evals);
        self.batch_evals += evals;
        if steps > 0 {
            self.t = t;
            self.stats.steps += steps;
            self.stats.batched_steps += steps;
            // The stepper's cached first stage and dense output belong to the old state.
            self.stepper.reset();
            self.last_step = None;
            self.dense_ready = false;
        }
    }
}
