//! The hybrid integration driver: adaptive stepping, output sampling on the dense solution,
//! event location to ~1e-12 s, mode switches and Zeno protection.

use std::collections::VecDeque;

use super::dopri5::Dopri5;
use super::rk4::Rk4;
use super::root::illinois;
use super::rosenbrock::Rosenbrock;
use super::rosenbrock_tableaus::{RODAS4, RODAS5};
use super::stepper::Stepper;
use super::{Method, Model, SimError, Tolerance};

/// Which Poincaré section a point belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionId {
    /// The model's section with this index (see `Model::section_names`).
    Model(usize),
    /// Stroboscopic section `t = t₀ + k·T`.
    Stroboscopic,
}

/// Receives output rows: `t`, then the model's columns, then the event flag (0 or 1).
pub trait SampleSink {
    /// One output row.
    fn push(&mut self, row: &[f64]);

    /// One Poincaré point (same row layout), when section tracking is on.
    fn push_section(&mut self, _section: SectionId, _row: &[f64]) {}
}

impl SampleSink for Vec<Vec<f64>> {
    fn push(&mut self, row: &[f64]) {
        Vec::push(self, row.to_vec());
    }
}

/// A sink that drops everything (for timing runs).
pub struct NullSink;

impl SampleSink for NullSink {
    fn push(&mut self, _row: &[f64]) {}
}

/// Counters of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Accepted steps.
    pub steps: u64,
    /// Rejected steps.
    pub rejected: u64,
    /// Events handled (mode switches).
    pub events: u64,
    /// Right-hand-side evaluations.
    pub rhs_evals: u64,
}

/// Settings of the driver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DriverSettings {
    /// Integration method.
    pub method: Method,
    /// Relative tolerance of the adaptive methods.
    pub rtol: f64,
    /// Step of the fixed-step method [s].
    pub rk4_dt_s: f64,
    /// Interval between regular output samples [s].
    pub output_interval_s: f64,
}

/// Rosenbrock with the dimension fixed at compile time for small systems (unrolled loops).
fn rosenbrock_for(
    tab: &'static super::rosenbrock_tableaus::Tableau,
    n: usize,
) -> Box<dyn Stepper + Send> {
    match n {
        5 => Box::new(Rosenbrock::<5>::new(tab, n)),
        6 => Box::new(Rosenbrock::<6>::new(tab, n)),
        7 => Box::new(Rosenbrock::<7>::new(tab, n)),
        8 => Box::new(Rosenbrock::<8>::new(tab, n)),
        _ => Box::new(Rosenbrock::<0>::new(tab, n)),
    }
}

/// RK4 with the dimension fixed at compile time for small systems (unrolled loops).
fn rk4_for(n: usize, dt: f64) -> Box<dyn Stepper + Send> {
    match n {
        4 => Box::new(Rk4::<4>::new(n, dt)),
        5 => Box::new(Rk4::<5>::new(n, dt)),
        6 => Box::new(Rk4::<6>::new(n, dt)),
        7 => Box::new(Rk4::<7>::new(n, dt)),
        8 => Box::new(Rk4::<8>::new(n, dt)),
        _ => Box::new(Rk4::<0>::new(n, dt)),
    }
}

/// Absolute event-time precision [s].
const EVENT_TIME_TOL_S: f64 = 1e-12;
/// Zeno guard: this many switches inside [`ZENO_WINDOW_S`] stop the run.
const ZENO_COUNT: usize = 1000;
const ZENO_WINDOW_S: f64 = 1e-9;

/// Step-size control. Implicit methods: Gustafsson's predictive correction (Hairer & Wanner,
/// *Solving ODE II*, §IV.8, as in RODAS) — the growth factor is the smaller of `0.9·err^(−1/q)`
/// and `(h/h_acc)·0.9·(err_acc/err²)^(1/q)` from the previous accepted step. Explicit methods:
/// the PI controller of DOPRI5 (Lund stabilisation, β = 0.04), `0.9·err^(−(1/q − 0.75β))·
/// err_acc^β`, which keeps stability-limited steps on stiff stretches from oscillating. After a
/// rejection the next step does not grow.
#[derive(Clone, Copy, Debug, Default)]
struct StepControl {
    /// Size and error of the previous accepted step.
    previous: Option<(f64, f64)>,
    /// Use the PI controller (explicit methods).
    pi: bool,
}

impl StepControl {
    const SAFETY: f64 = 0.9;

    fn accepted(&mut self, h: f64, err: f64, q: f64, after_rejection: bool) -> f64 {
        const BETA: f64 = 0.04;
        let err_floor = err.max(1e-10);
        let mut growth = Self::SAFETY * err_floor.powf(-1.0 / q);
        if let Some((h_acc, err_acc)) = self.previous {
            if self.pi {
                growth =
                    Self::SAFETY * err_floor.powf(-(1.0 / q - 0.75 * BETA)) * err_acc.powf(BETA);
            } else {
                let predictive =
                    (h / h_acc) * Self::SAFETY * (err_acc / (err_floor * err_floor)).powf(1.0 / q);
                growth = growth.min(predictive);
            }
        }
        growth = growth.clamp(0.2, 5.0);
        if after_rejection {
            growth = growth.min(1.0);
        }
        self.previous = Some((h, err.max(if self.pi { 1e-4 } else { 1e-2 })));
        h * growth
    }

    fn rejected(&mut self, h: f64, err: f64, q: f64) -> f64 {
        let fac = if err.is_finite() {
            (Self::SAFETY * err.powf(-1.0 / q)).clamp(0.1, 0.9)
        } else {
            0.25
        };
        h * fac
    }
}

/// State of Poincaré section tracking.
#[derive(Clone, Debug)]
struct SectionTracker {
    prev: Vec<f64>,
    new: Vec<f64>,
    strobe_period_s: Option<f64>,
    next_strobe: u64,
}

/// A running simulation of one model.
pub struct Simulation {
    model: Box<dyn Model + Send>,
    stepper: Box<dyn Stepper + Send>,
    tol: Tolerance,
    names: Vec<String>,
    t: f64,
    y: Vec<f64>,
    h: f64,
    h_max: f64,
    t0: f64,
    output_interval_s: f64,
    /// Index `k` of the next regular output time `t0 + k·Δ`.
    next_output: u64,
    /// The last step `[t_start, t_start + h]` available as dense output.
    last_step: Option<(f64, f64)>,
    g_prev: Vec<f64>,
    g_new: Vec<f64>,
    y_new: Vec<f64>,
    y_event: Vec<f64>,
    buf: Vec<f64>,
    row: Vec<f64>,
    recent_events: VecDeque<f64>,
    /// The stepper's dense output describes `last_step`.
    dense_ready: bool,
    /// Poincaré section tracking (off unless asked for).
    sections: Option<SectionTracker>,
    control: StepControl,
    stats: Stats,
    started: bool,
}

impl Simulation {
    /// Prepares a run of `model` from its initial state at `t0`.
    pub fn new(
        mut model: Box<dyn Model + Send>,
        y0: Vec<f64>,
        t0: f64,
        settings: DriverSettings,
    ) -> Result<Self, SimError> {
        let n = model.dim();
        assert_eq!(y0.len(), n, "initial state has the wrong dimension");
        let mut y = y0;
        model.initialize(t0, &mut y)?;
        let mut scales = vec![1.0; n];
        model.state_scales(&mut scales);
        let n_controlled = n - model.n_quadratures();
        let tol = Tolerance::from_scales(settings.rtol, &scales, n_controlled);
        let method = match settings.method {
            Method::Auto if model.prefers_implicit() => Method::Rodas4,
            Method::Auto => Method::Dopri5,
            m => m,
        };
        let stepper: Box<dyn Stepper + Send> = match method {
            Method::Rodas4 => rosenbrock_for(&RODAS4, n),
            Method::Rodas5 => rosenbrock_for(&RODAS5, n),
            Method::Rk4 => rk4_for(n, settings.rk4_dt_s),
            _ => Box::new(Dopri5::new(n)),
        };
        let ne = model.n_events();
        let h_max = model.max_step_s();
        let row_len = 2 + model.columns().len();
        let names = model.state_names();
        let mut sim = Self {
            model,
            stepper,
            tol,
            names,
            t: t0,
            y,
            h: 0.0,
            h_max,
            t0,
            output_interval_s: settings.output_interval_s,
            next_output: 0,
            last_step: None,
            g_prev: vec![0.0; ne],
            g_new: vec![0.0; ne],
            y_new: vec![0.0; n],
            y_event: vec![0.0; n],
            buf: vec![0.0; n],
            row: vec![0.0; row_len],
            recent_events: VecDeque::new(),
            dense_ready: false,
            sections: None,
            control: StepControl {
                previous: None,
                pi: !matches!(method, Method::Rodas4 | Method::Rodas5),
            },
            stats: Stats::default(),
            started: false,
        };
        sim.check_finite(t0, &sim.y.clone())?;
        sim.h = match sim.stepper.fixed_step() {
            Some(dt) => dt,
            None => sim.initial_step(),
        };
        sim.model.events(sim.t, &sim.y, &mut sim.g_prev);
        Ok(sim)
    }

    /// Current simulation time [s].
    pub fn time_s(&self) -> f64 {
        self.t
    }

    /// Current state vector.
    pub fn state(&self) -> &[f64] {
        &self.y
    }

    /// The model being integrated.
    pub fn model(&self) -> &dyn Model {
        self.model.as_ref()
    }

    /// Mutable access to the model (for live parameter changes); call
    /// [`reinitialize`](Self::reinitialize) afterwards.
    pub fn model_mut(&mut self) -> &mut (dyn Model + Send) {
        self.stepper.reset();
        self.model.as_mut()
    }

    /// Restarts the integration from the current state after the model changed: the model
    /// re-chooses its mode, the stepper forgets cached data and the step size restarts.
    pub fn reinitialize(&mut self) -> Result<(), SimError> {
        self.model.initialize(self.t, &mut self.y)?;
        self.stepper.reset();
        self.model.events(self.t, &self.y, &mut self.g_prev);
        if let Some(tr) = self.sections.as_mut() {
            self.model.sections(self.t, &self.y, &mut tr.prev);
        }
        self.h_max = self.model.max_step_s();
        if self.stepper.fixed_step().is_none() {
            self.h = self.initial_step();
        }
        Ok(())
    }

    /// Run counters.
    pub fn stats(&self) -> Stats {
        Stats {
            rhs_evals: self.stepper.rhs_evals(),
            ..self.stats
        }
    }

    /// Name of the integrator in use.
    pub fn method_name(&self) -> &'static str {
        self.stepper.name()
    }

    /// Turns Poincaré tracking on: the model's sections and, with `strobe_period_s`, the
    /// stroboscopic section `t = k·T`. Points go to [`SampleSink::push_section`].
    pub fn track_sections(&mut self, strobe_period_s: Option<f64>) {
        let n = self.model.section_names().len();
        let mut prev = vec![0.0; n];
        self.model.sections(self.t, &self.y, &mut prev);
        let strobe = strobe_period_s.filter(|p| p.is_finite() && *p > 0.0);
        self.sections = Some(SectionTracker {
            prev,
            new: vec![0.0; n],
            strobe_period_s: strobe,
            next_strobe: strobe.map_or(0, |p| (self.t / p).floor() as u64 + 1),
        });
    }

    /// Output column names: `t`, the model's columns, `event`.
    pub fn column_names(&self) -> Vec<String> {
        let mut v = vec!["t".to_string()];
        v.extend(self.model.columns().into_iter().map(|c| c.name));
        v.push("event".into());
        v
    }

    /// Integrates until `t ≥ t_stop`, pushing every output sample with time `≤ t_stop` and a
    /// pair of rows (before and after) at every event.
    pub fn advance(&mut self, t_stop: f64, sink: &mut dyn SampleSink) -> Result<(), SimError> {
        if !self.started {
            self.started = true;
            self.next_output = 1;
            let y = self.y.clone();
            self.emit(self.t0, &y, 0.0, sink);
        }
        // Samples still pending from the last step.
        self.emit_pending(t_stop.min(self.t), sink);
        while self.t < t_stop {
            self.one_step(t_stop, sink)?;
        }
        Ok(())
    }

    fn one_step(&mut self, t_stop: f64, sink: &mut dyn SampleSink) -> Result<(), SimError> {
        let t = self.t;
        let fixed = self.stepper.fixed_step().is_some();
        let mut h = if fixed {
            self.h
        } else {
            self.h.min(self.h_max)
        };
        // End the step on the next breakpoint of the model's time inputs (never a sliver).
        if !fixed {
            let to_break = self.model.next_breakpoint_s(t) - t;
            if to_break > 1e-12 * t.abs().max(1.0) && to_break < h * 1.01 {
                h = to_break;
            }
        }
        let order = self.stepper.order() as f64;
        let mut rejected = false;
        loop {
            let err = self.stepper.step(
                self.model.as_ref(),
                t,
                &self.y,
                h,
                &mut self.y_new,
                &self.tol,
            );
            if fixed || err <= 1.0 {
                if !fixed {
                    self.h = self
                        .control
                        .accepted(h, err, order, rejected)
                        .min(self.h_max);
                }
                break;
            }
            self.stats.rejected += 1;
            rejected = true;
            h = self.control.rejected(h, err, order);
            if h < 1e-14 * t.abs().max(1.0) {
                return Err(SimError::StepTooSmall {
                    t_s: t,
                    h_s: h,
                    method: self.stepper.name(),
                });
            }
        }
        self.stats.steps += 1;
        self.dense_ready = false;
        let t_new = t + h;
        let y_new = std::mem::take(&mut self.y_new);
        let result = self.finish_step(t, h, t_new, &y_new, t_stop, sink);
        self.y_new = y_new;
        result
    }

    fn finish_step(
        &mut self,
        t: f64,
        h: f64,
        t_new: f64,
        y_new: &[f64],
        t_stop: f64,
        sink: &mut dyn SampleSink,
    ) -> Result<(), SimError> {
        self.check_finite(t_new, y_new)?;
        let ne = self.g_prev.len();
        if ne > 0 {
            self.model.events(t_new, y_new, &mut self.g_new);
            let triggered = (0..ne).any(|i| self.g_prev[i] >= 0.0 && self.g_new[i] < 0.0);
            if triggered {
                self.ensure_dense(y_new);
                if let Some((index, theta)) = self.first_event(t, h) {
                    return self.handle_event(index, t, h * theta, h, t_stop, sink);
                }
            }
        }
        // Dense output is only prepared when an output sample falls inside the step.
        if self.next_output_time() <= t_new {
            self.ensure_dense(y_new);
        }
        if self.sections.is_some() {
            self.ensure_dense(y_new);
            self.record_sections(t, h, y_new, sink);
        }
        self.last_step = Some((t, h));
        self.t = t_new;
        self.y.copy_from_slice(y_new);
        self.emit_pending(t_stop.min(t_new), sink);
        self.stepper.accept();
        std::mem::swap(&mut self.g_prev, &mut self.g_new);
        if self.model.after_step(self.t, &mut self.y) {
            self.stepper.reset();
            self.model.events(self.t, &self.y, &mut self.g_prev);
        }
        Ok(())
    }

    /// Earliest triggered event of the last step as `(index, θ)`.
    fn first_event(&mut self, t: f64, h: f64) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        let time_tol = EVENT_TIME_TOL_S.max(4.0 * f64::EPSILON * (t + h).abs());
        let theta_tol = time_tol / h;
        for i in 0..self.g_prev.len() {
            if !(self.g_prev[i] >= 0.0 && self.g_new[i] < 0.0) {
                continue;
            }
            let upper = best.map_or(1.0, |b| b.1);
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
            if upper < 1.0 && gi(upper) >= 0.0 {
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

    fn handle_event(
        &mut self,
        index: usize,
        t: f64,
        h_event: f64,
        h_full: f64,
        t_stop: f64,
        sink: &mut dyn SampleSink,
    ) -> Result<(), SimError> {
        let mut h_event = h_event;
        if h_event > 0.0 {
            // Land a real step on the event time so the switch state is on the solution, and
            // polish the time by Newton steps on the landed solution (slope from the dense
            // output): the guard then vanishes on the solution itself, not only on the
            // interpolant.
            let mut y_ev = std::mem::take(&mut self.y_event);
            let mut g = vec![0.0; self.g_prev.len()];
            let time_tol = EVENT_TIME_TOL_S.max(4.0 * f64::EPSILON * t.abs());
            // Newton on the landed solution; a correction is kept only if it shrinks the
            // guard's residual (guards may have kinks where the dense slope misleads).
            let mut best = (h_event, f64::INFINITY);
            for iteration in 0..3 {
                self.stepper.step(
                    self.model.as_ref(),
                    t,
                    &self.y,
                    h_event,
                    &mut y_ev,
                    &self.tol,
                );
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
                self.stepper.step(
                    self.model.as_ref(),
                    t,
                    &self.y,
                    h_event,
                    &mut y_ev,
                    &self.tol,
                );
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
            self.emit_pending(t_stop.min(t_event), sink);
            self.stepper.accept();
        }
        let t_event = self.t.max(t + h_event);
        let y = self.y.clone();
        self.emit(t_event, &y, 1.0, sink);
        self.model.apply_event(index, t_event, &mut self.y)?;
        let y = self.y.clone();
        self.emit(t_event, &y, 1.0, sink);
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
        self.guard_zeno(t_event)
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

    /// Records section crossings inside the step `[t, t + h]` ending at `y_new` (dense output
    /// must be ready) and the stroboscopic points it contains.
    fn record_sections(&mut self, t: f64, h: f64, y_new: &[f64], sink: &mut dyn SampleSink) {
        let Some(mut tr) = self.sections.take() else {
            return;
        };
        let t_new = t + h;
        self.model.sections(t_new, y_new, &mut tr.new);
        let theta_tol = EVENT_TIME_TOL_S.max(4.0 * f64::EPSILON * t_new.abs()) / h;
        for i in 0..tr.new.len() {
            if tr.prev[i] < 0.0 && tr.new[i] >= 0.0 {
                let mut buf = std::mem::take(&mut self.buf);
                let mut s = vec![0.0; tr.new.len()];
                let theta = {
                    let (stepper, model) = (&self.stepper, &self.model);
                    let mut si = |th: f64| {
                        stepper.dense(th, &mut buf);
                        model.sections(t + th * h, &buf, &mut s);
                        -s[i]
                    };
                    illinois(&mut si, 0.0, 1.0, theta_tol)
                };
                self.stepper.dense(theta, &mut buf);
                self.emit_section(SectionId::Model(i), t + theta * h, &buf, sink);
                self.buf = buf;
            }
        }
        std::mem::swap(&mut tr.prev, &mut tr.new);
        if let Some(period) = tr.strobe_period_s {
            loop {
                let tk = tr.next_strobe as f64 * period;
                if tk > t_new {
                    break;
                }
                let mut buf = std::mem::take(&mut self.buf);
                self.stepper.dense(((tk - t) / h).clamp(0.0, 1.0), &mut buf);
                self.emit_section(SectionId::Stroboscopic, tk, &buf, sink);
                self.buf = buf;
                tr.next_strobe += 1;
            }
        }
        self.sections = Some(tr);
    }

    /// After a mode switch the section functions restart from the new state; a switch that
    /// lands exactly on a section (e.g. re-stick at `v_rel = 0`) records it.
    fn section_after_switch(&mut self, t: f64, sink: &mut dyn SampleSink) {
        let Some(mut tr) = self.sections.take() else {
            return;
        };
        self.model.sections(t, &self.y, &mut tr.new);
        for i in 0..tr.new.len() {
            if tr.prev[i] < 0.0 && tr.new[i] >= 0.0 {
                let y = self.y.clone();
                self.emit_section(SectionId::Model(i), t, &y, sink);
            }
        }
        std::mem::swap(&mut tr.prev, &mut tr.new);
        self.sections = Some(tr);
    }

    fn emit_section(&mut self, id: SectionId, t: f64, y: &[f64], sink: &mut dyn SampleSink) {
        let n = self.row.len();
        self.row[0] = t;
        self.model.observe(t, y, &mut self.row[1..n - 1]);
        self.row[n - 1] = 0.0;
        sink.push_section(id, &self.row);
    }

    /// Prepares the stepper's dense output for the step from `self.y` to `y_new`, once.
    fn ensure_dense(&mut self, y_new: &[f64]) {
        if !self.dense_ready {
            self.stepper.prepare_dense(&self.y, y_new);
            self.dense_ready = true;
        }
    }

    fn next_output_time(&self) -> f64 {
        self.t0 + self.next_output as f64 * self.output_interval_s
    }

    /// Emits regular samples with times in `(last emitted, t_to]` from the last step.
    fn emit_pending(&mut self, t_to: f64, sink: &mut dyn SampleSink) {
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

    fn emit(&mut self, t: f64, y: &[f64], event_flag: f64, sink: &mut dyn SampleSink) {
        let n = self.row.len();
        self.row[0] = t;
        self.model.observe(t, y, &mut self.row[1..n - 1]);
        self.row[n - 1] = event_flag;
        sink.push(&self.row);
    }

    fn check_finite(&self, t: f64, y: &[f64]) -> Result<(), SimError> {
        // One branch-free pass on the hot path (NaN fails the comparison); details only on error.
        if y.iter().all(|v| v.abs() <= 1e150) {
            return Ok(());
        }
        let (i, v) = y
            .iter()
            .enumerate()
            .find(|(_, v)| v.is_nan() || v.abs() > 1e150)
            .map_or((0, f64::NAN), |(i, v)| (i, *v));
        Err(SimError::NonFinite {
            t_s: t,
            name: self
                .names
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("y[{i}]")),
            value: v,
        })
    }

    /// Starting step size (Hairer, Nørsett & Wanner, *Solving ODE I*, §II.4).
    fn initial_step(&mut self) -> f64 {
        let n = self.tol.n_controlled;
        let order = self.stepper.order() as f64;
        let mut f0 = vec![0.0; self.y.len()];
        let mut f1 = vec![0.0; self.y.len()];
        self.model.rhs(self.t, &self.y, &mut f0);
        let sk: Vec<f64> = (0..n)
            .map(|i| self.tol.atol[i] + self.tol.rtol * self.y[i].abs())
            .collect();
        let norm = |v: &[f64]| -> f64 {
            ((0..n).map(|i| (v[i] / sk[i]).powi(2)).sum::<f64>() / n.max(1) as f64).sqrt()
        };
        let (d0, d1) = (norm(&self.y), norm(&f0));
        let mut h = if d0 < 1e-5 || d1 < 1e-5 {
            1e-6
        } else {
            0.01 * d0 / d1
        };
        h = h.min(self.h_max);
        let y1: Vec<f64> = self.y.iter().zip(&f0).map(|(y, f)| y + h * f).collect();
        self.model.rhs(self.t + h, &y1, &mut f1);
        let diff: Vec<f64> = f1.iter().zip(&f0).map(|(a, b)| a - b).collect();
        let d2 = norm(&diff) / h;
        let dmax = d1.max(d2);
        let h1 = if dmax <= 1e-15 {
            (h * 1e-3).max(1e-6)
        } else {
            (0.01 / dmax).powf(1.0 / order)
        };
        (100.0 * h).min(h1).min(self.h_max)
    }
}
