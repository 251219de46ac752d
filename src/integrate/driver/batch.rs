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
        let t_limit = self.batch_limit(t_stop);
        let Some(work) = self.batch_work.as_mut() else {
            return;
        };
        if self.t + self.h >= t_limit {
            return;
        }
        let mut no_sections: [f64; 0] = [];
        let s: &mut [f64] = match self.sections.as_mut() {
            Some(tr) => &mut tr.prev,
            None => &mut no_sections,
        };
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

    /// Batch steps end before this time: the next output sample, the next stroboscopic time
    /// or `t_stop`, whichever comes first.
    fn batch_limit(&self, t_stop: f64) -> f64 {
        let strobe = self.sections.as_ref().and_then(|tr| tr.next_strobe_time());
        self.next_output_time()
            .min(t_stop)
            .min(strobe.unwrap_or(f64::INFINITY))
    }
}
