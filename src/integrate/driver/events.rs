//! Events: locating the earliest guard crossing of a step on the dense output (Illinois, to
//! ~1e-12 s), landing a real step on it, polishing the time by Newton steps on the landed
//! solution, switching the mode, and the Zeno guard.

use super::Simulation;
use super::sink::SampleSink;
use crate::integrate::SimError;
use crate::integrate::root::illinois;

/// Absolute event-time precision [s].
const EVENT_TIME_TOL_S: f64 = 1e-12;

/// Time tolerance of event and section location at time `t_s`: [`EVENT_TIME_TOL_S`], or a few
/// ulps of `t_s` where those are larger.
pub(super) fn event_time_tol(t_s: f64) -> f64 {
    EVENT_TIME_TOL_S.max(4.0 * f64::EPSILON * t_s.abs())
}
/// Zeno guard: this many switches inside [`ZENO_WINDOW_S`] stop the run.
const ZENO_COUNT: usize = 1000;
const ZENO_WINDOW_S: f64 = 1e-9;
/// Switches at one instant after a located event, per event function, before the rest is left
/// to the following steps (a cycle of modes that keep violating each other's guards).
const MAX_SIMULTANEOUS_PER_GUARD: usize = 2;
/// Events closer than this fraction of the model's time scale to the step start are taken
/// at the start, without landing a step on them.
const LAND_BELOW_TIME_SCALE: f64 = 1e-12;
/// A guard dip is searched for when a parabola through the step's three samples comes below
/// this fraction of the smaller end value (a guard that stays well clear costs nothing more).
const DIP_MARGIN: f64 = 0.25;
/// Golden-section iterations of the dip search (0.618⁴⁰ ≈ 4·10⁻⁹ of the step).
const DIP_ITERATIONS: usize = 40;

impl Simulation {
    /// Where inside the last step (`θ ∈ (0, 1)`) each guard that is positive at both ends
    /// dips below zero, into `self.dips` (NaN where it does not); `true` if one does: a
    /// grazing contact (v_rel touching zero, the holding force touching the static level
    /// during a load bump) that a test at the step ends misses. One dense sample at the
    /// midpoint per step; where the parabola through the three values has its minimum inside
    /// the step and within [`DIP_MARGIN`] of zero, a golden-section search for the minimum
    /// (stopping at the first negative value). A guard that oscillates within one step
    /// (faster than the state the step resolves) is beyond it.
    pub(super) fn grazing_dips(&mut self, t: f64, h: f64, y_new: &[f64]) -> bool {
        self.dips.fill(f64::NAN);
        let candidate = |g0: f64, g1: f64| g0 > 0.0 && g1 >= 0.0;
        if !self
            .g_prev
            .iter()
            .zip(&self.g_new)
            .any(|(&a, &b)| candidate(a, b))
        {
            return false;
        }
        self.ensure_dense(y_new);
        self.probe(t, h, 0.5);
        std::mem::swap(&mut self.g_mid, &mut self.g_probe);
        let mut found = false;
        for i in 0..self.dips.len() {
            let (g0, gm, g1) = (self.g_prev[i], self.g_mid[i], self.g_new[i]);
            if !candidate(g0, g1) {
                continue;
            }
            if gm < 0.0 {
                self.dips[i] = 0.5;
                found = true;
                continue;
            }
            // Parabola through θ = 0, ½, 1: a minimum inside the step, and how low.
            let c = 2.0 * (g0 - 2.0 * gm + g1);
            let b = -3.0 * g0 + 4.0 * gm - g1;
            let theta_v = -b / (2.0 * c);
            if !(c > 0.0 && theta_v > 0.0 && theta_v < 1.0) {
                continue;
            }
            let vertex = g0 - b * b / (4.0 * c);
            if vertex > DIP_MARGIN * g0.min(g1).min(gm) {
                continue;
            }
            if let Some(theta) = self.golden_dip(t, h, i) {
                self.dips[i] = theta;
                found = true;
            }
        }
        found
    }

    /// Guards at `θ` of the last step, into `self.g_probe`.
    fn probe(&mut self, t: f64, h: f64, theta: f64) {
        self.stepper.dense(theta, &mut self.buf);
        self.model
            .events(t + theta * h, &self.buf, &mut self.g_probe);
    }

    /// Golden-section search of guard `i`'s minimum over the step (smooth over one step),
    /// returning the first `θ` where it is negative; one guard evaluation per iteration.
    fn golden_dip(&mut self, t: f64, h: f64, i: usize) -> Option<f64> {
        const INV_PHI: f64 = 0.618_033_988_749_894_9;
        let f = |sim: &mut Self, theta: f64| {
            sim.probe(t, h, theta);
            sim.g_probe[i]
        };
        let (mut a, mut b) = (0.0f64, 1.0f64);
        let (mut x1, mut x2) = (b - INV_PHI * (b - a), a + INV_PHI * (b - a));
        let (mut f1, mut f2) = (f(self, x1), f(self, x2));
        for _ in 0..DIP_ITERATIONS {
            if f1 < 0.0 {
                return Some(x1);
            }
            if f2 < 0.0 {
                return Some(x2);
            }
            if f1 < f2 {
                (b, x2, f2) = (x2, x1, f1);
                x1 = b - INV_PHI * (b - a);
                f1 = f(self, x1);
            } else {
                (a, x1, f1) = (x1, x2, f2);
                x2 = a + INV_PHI * (b - a);
                f2 = f(self, x2);
            }
        }
        None
    }

    /// Earliest triggered event of the last step as `(index, θ)`: guards that crossed
    /// (`≥ 0` at the start, `< 0` at the end) and, with `dipped`, those with a dip below zero
    /// inside the step (`self.dips`, see [`grazing_dips`](Self::grazing_dips)).
    pub(super) fn first_event(&mut self, t: f64, h: f64, dipped: bool) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        let time_tol = event_time_tol(t + h);
        let theta_tol = time_tol / h;
        for i in 0..self.g_prev.len() {
            let crossed = self.g_prev[i] >= 0.0 && self.g_new[i] < 0.0;
            let dip = if dipped { self.dips[i] } else { f64::NAN };
            if !crossed && !dip.is_finite() {
                continue;
            }
            let end = if crossed { 1.0 } else { dip };
            let upper = best.map_or(end, |b| b.1.min(end));
            let stepper = &self.stepper;
            let model = &self.model;
            let buf = &mut self.buf;
            let mut g = vec![0.0; self.g_prev.len()];
            let mut gi = |theta: f64| {
                stepper.dense(theta, buf);
                model.events(t + theta * h, buf, &mut g);
                g[i]
            };
            // The event may already lie past an earlier one: only search up to it.
            if upper < end && gi(upper) >= 0.0 {
                continue;
            }
            // A guard that starts exactly at zero (a mode just entered on its boundary) counts
            // only once it has been positive: bracket from the first positive sample.
            let mut lower = 0.0;
            if self.g_prev[i] == 0.0 {
                const SAMPLES: usize = 32;
                for k in 1..SAMPLES {
                    let th = upper * k as f64 / SAMPLES as f64;
                    let g = gi(th);
                    if g > 0.0 {
                        lower = th;
                        break;
                    }
                    if g < 0.0 {
                        break;
                    }
                }
            }
            let theta = illinois(&mut gi, lower, upper, theta_tol);
            if best.is_none_or(|b| theta < b.1) {
                best = Some((i, theta));
            }
        }
        best
    }

    /// A real step of size `h` from the current state `(t, y)` into `y_out`: the landing on
    /// an event time.
    fn land(&mut self, t: f64, h: f64, y_out: &mut [f64]) {
        self.stepper
            .step(self.model.as_ref(), t, &self.y, h, y_out, &self.tol);
    }

    pub(super) fn handle_event(
        &mut self,
        index: usize,
        t: f64,
        h_event: f64,
        h_full: f64,
        sink: &mut dyn SampleSink,
    ) -> Result<(), SimError> {
        // An event within 1e-12 of the model's time scale of the step start happens at
        // the start: landing a step that short changes nothing measurable, and a Rosenbrock
        // step of 2e-229 s (a static level of 1e-230 N broken at once) returned NaN.
        let mut h_event = h_event;
        if h_event <= LAND_BELOW_TIME_SCALE * self.model.time_scale_s() {
            h_event = 0.0;
        }
        if h_event > 0.0 {
            // Land a real step on the event time so the switch state is on the solution, and
            // polish the time by Newton steps on the landed solution (slope from the dense
            // output): the guard then vanishes on the solution itself, not only on the
            // interpolant.
            let mut y_ev = std::mem::take(&mut self.y_event);
            let mut g = vec![0.0; self.g_prev.len()];
            let time_tol = event_time_tol(t);
            // Newton on the landed solution; a correction is kept only if it shrinks the
            // guard's residual (guards may have kinks where the dense slope misleads).
            let mut best = (h_event, f64::INFINITY);
            for iteration in 0..3 {
                self.land(t, h_event, &mut y_ev);
                self.model.events(t + h_event, &y_ev, &mut g);
                let residual = g[index].abs();
                // A correction counts only if it shrinks the residual and keeps the guard on the
                // triggered side (a guard that jumps, e.g. a rate changing sign at a kink, must
                // not be "polished" back across its jump).
                let on_side = iteration == 0 || g[index] <= 0.0 || residual <= 1e-14;
                if residual >= best.1 || !on_side {
                    break;
                }
                best = (h_event, residual);
                let slope = self.guard_slope(index, t, h_event, h_full);
                if residual == 0.0 || !(slope.is_finite() && slope != 0.0) {
                    break;
                }
                // Interpolation errors shift roots by tiny amounts: cap the correction.
                let max_shift = 1e-3 * h_event;
                let shift = (-g[index] / slope).clamp(-max_shift, max_shift);
                let h_new = h_event + shift;
                if (h_new - h_event).abs() <= time_tol {
                    break;
                }
                h_event = h_new;
            }
            if h_event != best.0 {
                h_event = best.0;
                self.land(t, h_event, &mut y_ev);
            }
            self.stepper.prepare_dense(&self.y, &y_ev);
            self.dense_ready = true;
            if self.sections.is_some() {
                self.record_sections(t, h_event, &y_ev, sink);
            }
            let t_event = t + h_event;
            let finite = self.check_finite(t_event, &y_ev);
            self.y_event = y_ev;
            finite?;
            self.last_step = Some((t, h_event));
            self.t = t_event;
            self.y.copy_from_slice(&self.y_event);
            self.emit_pending(t_event, sink);
            self.stepper.accept();
        }
        let t_event = self.t.max(t + h_event);
        // Guards that crossed in this step as well (≥ 0 at its start, < 0 at the event): other
        // contacts switching at the same instant.
        let mut at_event = vec![0.0; self.g_prev.len()];
        self.model.events(t_event, &self.y, &mut at_event);
        let also_crossed: Vec<usize> = (0..at_event.len())
            .filter(|&j| j != index && self.g_prev[j] >= 0.0 && at_event[j] < 0.0)
            .collect();
        self.emit_switch_row(t_event, sink);
        self.model.apply_event(index, t_event, &mut self.y)?;
        self.emit_switch_row(t_event, sink);
        self.section_after_switch(t_event, sink);
        self.stats.events += 1;
        self.stepper.reset();
        // Restart with a fresh step-size estimate: the switch may start a fast transient (a force
        // jump exciting a stiff mode) that the pre-event step size would step over. Rodas4 then
        // leaves a slowly decaying numerical ringing that its error estimate does not see (GMS
        // belt–block at rtol 1e-8: a spurious 0.15 s oscillation of v_rel, 2e-7 m/s, after each
        // element's slip onset, shifting the stick–slip period by 3e-4 s).
        if self.stepper.fixed_step().is_none() {
            self.h = self.h.min(self.initial_step());
        }
        self.model.events(self.t, &self.y, &mut self.g_prev);
        self.guard_zeno(t_event)?;
        self.simultaneous_events(t_event, &also_crossed, sink)
    }

    /// Fires the other guards that crossed in the same step and are still below zero after the
    /// located switch: two contacts reaching stick (or break-away) at the same instant cross
    /// within the event tolerance, and the one not located first would otherwise sit below
    /// zero for good (a guard fires only on `≥ 0 → < 0`). Each switch gets its before/after
    /// rows like a located one.
    fn simultaneous_events(
        &mut self,
        t_event: f64,
        crossed: &[usize],
        sink: &mut dyn SampleSink,
    ) -> Result<(), SimError> {
        // Each guard fires at most MAX_SIMULTANEOUS_PER_GUARD times here, so one that stays a
        // hair below zero after its own switch cannot use up the others' turns.
        let mut fired = vec![0usize; crossed.len()];
        loop {
            let next = (0..crossed.len())
                .find(|&k| fired[k] < MAX_SIMULTANEOUS_PER_GUARD && self.g_prev[crossed[k]] < 0.0);
            let Some(k) = next else {
                return Ok(());
            };
            fired[k] += 1;
            let j = crossed[k];
            self.emit_switch_row(t_event, sink);
            self.model.apply_event(j, t_event, &mut self.y)?;
            self.emit_switch_row(t_event, sink);
            self.section_after_switch(t_event, sink);
            self.stats.events += 1;
            self.stepper.reset();
            self.model.events(self.t, &self.y, &mut self.g_prev);
            self.guard_zeno(t_event)?;
        }
    }

    /// The row just before or just after a switch (event flag 1), when the model records them
    /// ([`Model::records_switch_rows`](crate::integrate::Model::records_switch_rows)).
    fn emit_switch_row(&mut self, t_event: f64, sink: &mut dyn SampleSink) {
        if self.model.records_switch_rows() {
            let y = self.y.clone();
            self.emit(t_event, &y, 1.0, sink);
        }
    }

    /// `dg_i/dh` at `ts + h` from the dense output of the step `[ts, ts + hs]` (still prepared
    /// while the event is polished).
    fn guard_slope(&mut self, index: usize, ts: f64, h: f64, hs: f64) -> f64 {
        let dtheta = 1e-6;
        let th = (h / hs).clamp(dtheta, 1.0 - dtheta);
        let n = self.g_prev.len();
        let (mut ga, mut gb) = (vec![0.0; n], vec![0.0; n]);
        let mut buf = std::mem::take(&mut self.buf);
        self.stepper.dense(th - dtheta, &mut buf);
        self.model.events(ts + (th - dtheta) * hs, &buf, &mut ga);
        self.stepper.dense(th + dtheta, &mut buf);
        self.model.events(ts + (th + dtheta) * hs, &buf, &mut gb);
        self.buf = buf;
        (gb[index] - ga[index]) / (2.0 * dtheta * hs)
    }

    fn guard_zeno(&mut self, t_event: f64) -> Result<(), SimError> {
        self.recent_events.push_back(t_event);
        if self.recent_events.len() > ZENO_COUNT {
            self.recent_events.pop_front();
        }
        if self.recent_events.len() == ZENO_COUNT {
            let first = self.recent_events.front().copied().unwrap_or(t_event);
            let window = t_event - first;
            if window <= ZENO_WINDOW_S.max(1e3 * f64::EPSILON * t_event.abs()) {
                return Err(SimError::Zeno {
                    t_s: t_event,
                    count: ZENO_COUNT,
                    window_s: window,
                });
            }
        }
        Ok(())
    }
}
