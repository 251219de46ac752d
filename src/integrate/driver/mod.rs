//! The hybrid integration driver: adaptive stepping, output sampling on the dense solution,
//! event location to ~1e-12 s, mode switches and Zeno protection.
//!
//! [`Simulation`] owns the stepping loop (this file); its other duties live in one file each:
//! [`events`] (location, landing, polishing, switching, Zeno guard), [`sections`] (Poincaré
//! points), [`output`] (regular samples), [`step_control`] (step sizes), [`steppers`] (the
//! method's stepper), [`batch`] (statically dispatched RK4 runs between samples) and [`sink`]
//! (where rows go).

mod batch;
mod events;
mod output;
mod sections;
mod sink;
mod step_control;
mod steppers;

use std::collections::VecDeque;

use super::dopri5::Dopri5;
use super::rk4_batch::Rk4BatchWork;
use super::rosenbrock_tableaus::{RODAS4, RODAS5};
use super::stepper::Stepper;
use super::{Column, Method, Model, Role, SimError, Tolerance, is_bounded};
use crate::systems::{Restart, SystemSpec};
use sections::SectionTracker;
use step_control::StepControl;
use steppers::{rk4_for, rosenbrock_for};

pub use sink::{NullSink, SampleSink, SectionId};

/// Counters of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Accepted steps.
    pub steps: u64,
    /// Rejected steps.
    pub rejected: u64,
    /// Events handled (mode switches).
    pub events: u64,
    /// Right-hand-side evaluations actually made (with RK4 batches this includes one restart
    /// per batch and the steps a batch computed but left to the general path).
    pub rhs_evals: u64,
    /// Accepted steps taken inside RK4 batches (included in `steps`).
    pub batched_steps: u64,
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

/// Accepted steps per window of the stall guard ([`Simulation`] stops with
/// [`SimError::Stalled`] when a window advances less than [`STALL_MIN_ADVANCE`] time scales).
pub const STALL_WINDOW_STEPS: u64 = 1_000_000;
/// Least advance of a window of the stall guard, in units of the model's time scale: a mean
/// step of 1e-10 time scales (1e6 steps take seconds; at that rate one model-second takes
/// hours).
pub const STALL_MIN_ADVANCE: f64 = 1e-4;

/// A running simulation of one model.
pub struct Simulation {
    model: Box<dyn Model + Send>,
    stepper: Box<dyn Stepper + Send>,
    tol: Tolerance,
    names: Vec<String>,
    t: f64,
    y: Vec<f64>,
    h: f64,
    t0: f64,
    /// Start time and accepted steps of the current progress window (the stall guard).
    progress: (f64, u64),
    output_interval_s: f64,
    /// Index `k` of the next regular output time `t0 + k·Δ`.
    next_output: u64,
    /// The last step `[t_start, t_start + h]` available as dense output.
    last_step: Option<(f64, f64)>,
    g_prev: Vec<f64>,
    g_new: Vec<f64>,
    /// Guards at the step's midpoint and at the dip search's points (grazing).
    g_mid: Vec<f64>,
    g_probe: Vec<f64>,
    /// Where in the last step each guard dips below zero (NaN: nowhere), see `grazing_dips`.
    dips: Vec<f64>,
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
    /// Workspace of the RK4 batches (`None` for the adaptive methods).
    batch_work: Option<Rk4BatchWork>,
    /// Right-hand-side evaluations made in batches.
    batch_evals: u64,
    started: bool,
    /// Rows computed past the `t_stop` of the `advance` that computed them, in time order:
    /// every row is observed when the integration passes it (with the mode and parameters of
    /// that moment) and handed out by the first `advance` whose `t_stop` reaches it.
    held: VecDeque<Vec<f64>>,
    /// Rows with times up to this go to the sink at once (the current `advance`'s `t_stop`).
    deliver_until: f64,
    /// With `Method::Auto`: whether the model asked for an implicit method when the stepper
    /// was chosen (a live change that flips it needs a restart with the other method).
    auto_implicit: Option<bool>,
}

impl Simulation {
    /// Prepares a run of `model` from its initial state at `t0` (the model chooses its modes,
    /// [`Model::initialize`]).
    pub fn new(
        model: Box<dyn Model + Send>,
        y0: Vec<f64>,
        t0: f64,
        settings: DriverSettings,
    ) -> Result<Self, SimError> {
        Self::start(model, y0, t0, settings, false)
    }

    /// Prepares a run of a model that already has its modes and memories (a copy taken with
    /// [`Model::boxed_clone`] on another run) from `y0` at `t0`: the state is put on the
    /// constraints of those modes ([`Model::project`]) and only modes whose guards `y0`
    /// violates are switched ([`Model::resume`]). A perturbed restart of a trajectory thus
    /// continues as the trajectory would (a compliant stick stays stuck, a dwell memory is kept).
    pub fn continuing(
        model: Box<dyn Model + Send>,
        mut y0: Vec<f64>,
        t0: f64,
        settings: DriverSettings,
    ) -> Result<Self, SimError> {
        model.project(t0, &mut y0);
        Self::start(model, y0, t0, settings, true)
    }

    fn start(
        mut model: Box<dyn Model + Send>,
        y0: Vec<f64>,
        t0: f64,
        settings: DriverSettings,
        keep_modes: bool,
    ) -> Result<Self, SimError> {
        let n = model.dim();
        assert_eq!(y0.len(), n, "initial state has the wrong dimension");
        let mut y = y0;
        if keep_modes {
            model.resume(t0, &mut y)?;
        } else {
            model.initialize(t0, &mut y)?;
        }
        let mut scales = vec![1.0; n];
        model.state_scales(&mut scales);
        let n_controlled = n - model.n_quadratures();
        let tol = Tolerance::from_scales(settings.rtol, &scales, n_controlled);
        let auto_implicit = (settings.method == Method::Auto).then(|| model.prefers_implicit());
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
        let model_sections = model.section_names().len();
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
            t0,
            progress: (t0, 0),
            output_interval_s: settings.output_interval_s,
            next_output: 0,
            last_step: None,
            g_prev: vec![0.0; ne],
            g_new: vec![0.0; ne],
            g_mid: vec![0.0; ne],
            g_probe: vec![0.0; ne],
            dips: vec![f64::NAN; ne],
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
            batch_work: (method == Method::Rk4).then(|| Rk4BatchWork::new(n, ne, model_sections)),
            batch_evals: 0,
            started: false,
            held: VecDeque::new(),
            deliver_until: t0,
            auto_implicit,
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
        self.restart_stepping();
        Ok(())
    }

    /// Forgets the stepper's cached data, re-reads event and section functions and the step
    /// limit, and restarts the step size (after the model or the state changed).
    fn restart_stepping(&mut self) {
        self.stepper.reset();
        self.model.events(self.t, &self.y, &mut self.g_prev);
        if let Some(tr) = self.sections.as_mut() {
            self.model.sections(self.t, &self.y, &mut tr.prev);
        }
        if self.stepper.fixed_step().is_none() {
            self.h = self.initial_step();
        }
    }

    /// Run counters.
    pub fn stats(&self) -> Stats {
        Stats {
            rhs_evals: self.stepper.rhs_evals() + self.batch_evals,
            ..self.stats
        }
    }

    /// Name of the integrator in use.
    pub fn method_name(&self) -> &'static str {
        self.stepper.name()
    }

    /// Output column names: `t`, the model's columns, `event`.
    pub fn column_names(&self) -> Vec<String> {
        self.columns().into_iter().map(|c| c.name).collect()
    }

    /// Output columns with their meaning: `t`, the model's columns, `event`.
    pub fn columns(&self) -> Vec<Column> {
        let mut v = vec![self.model.time_column()];
        v.extend(self.model.columns());
        v.push(Column::new("event", "").role(Role::EventFlag));
        v
    }

    /// Takes new parameters while running, keeping the state, modes and law memories
    /// ([`Model::reconfigure`], then [`resume`](Self::resume)). On `Err` the run must be
    /// started afresh (the model may already hold some of the new parameters).
    pub fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        self.model.reconfigure(spec)?;
        if self
            .auto_implicit
            .is_some_and(|was| was != self.model.prefers_implicit())
        {
            return Err(Restart::Changed(
                "the integrator Auto picks for the new parameters is another".into(),
            ));
        }
        self.resume()
            .map_err(|e| Restart::Changed(format!("cannot continue: {e}")))
    }

    /// Continues the integration from the current state after the model's parameters changed
    /// in place: the model keeps its modes and memories ([`Model::resume`]), the stepper
    /// forgets cached data and the step size restarts.
    pub fn resume(&mut self) -> Result<(), SimError> {
        self.model.resume(self.t, &mut self.y)?;
        self.restart_stepping();
        Ok(())
    }

    /// Integrates until `t ≥ t_stop`, pushing every output sample with time `≤ t_stop` and a
    /// pair of rows (before and after) at every event. Rows past `t_stop` inside the last step
    /// are observed now and pushed by the next call, so a run advanced in chunks gives the same
    /// rows as one advanced at once.
    pub fn advance(&mut self, t_stop: f64, sink: &mut dyn SampleSink) -> Result<(), SimError> {
        self.deliver_until = t_stop;
        while let Some(row) = self.held.front() {
            if row[0] > t_stop {
                break;
            }
            if let Some(row) = self.held.pop_front() {
                sink.push(&row);
            }
        }
        if !self.started {
            self.started = true;
            self.next_output = 1;
            let y = self.y.clone();
            self.emit(self.t0, &y, 0.0, sink);
        }
        while self.t < t_stop {
            self.one_step(t_stop, sink)?;
        }
        Ok(())
    }

    /// The stall guard: every [`STALL_WINDOW_STEPS`] accepted steps must advance the model by
    /// at least [`STALL_MIN_ADVANCE`] of its time scale, so a run whose steps collapse (a law
    /// at the edge of its range) stops with [`SimError::Stalled`] within a bounded time
    /// instead of crawling for hours. Adaptive steps only: a fixed step cannot collapse.
    fn guard_progress(&mut self, t: f64) -> Result<(), SimError> {
        if self.stepper.fixed_step().is_some() {
            return Ok(());
        }
        self.progress.1 += 1;
        if self.progress.1 < STALL_WINDOW_STEPS {
            return Ok(());
        }
        let advanced_s = t - self.progress.0;
        if advanced_s < STALL_MIN_ADVANCE * self.model.time_scale_s() {
            return Err(SimError::Stalled {
                t_s: t,
                steps: self.progress.1,
                advanced_s,
            });
        }
        self.progress = (t, 0);
        Ok(())
    }

    fn one_step(&mut self, t_stop: f64, sink: &mut dyn SampleSink) -> Result<(), SimError> {
        self.run_batch(t_stop);
        let t = self.t;
        let fixed = self.stepper.fixed_step().is_some();
        let h_max = self.model.max_step_s(t);
        let mut h = if fixed { self.h } else { self.h.min(h_max) };
        // End the step on the next breakpoint of the model's time inputs (never a sliver), at
        // exactly its time: `t + (b − t)` can miss `b` by an ulp, and a run then short of `b`
        // by less than the sliver limit would step past it next time.
        let mut landing = None;
        if !fixed {
            let next = self.model.next_breakpoint_s(t);
            let to_break = next - t;
            if to_break > 1e-12 * t.abs().max(1.0) && to_break < h * 1.01 {
                h = to_break;
                landing = Some(next);
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
                    self.h = self.control.accepted(h, err, order, rejected);
                }
                break;
            }
            self.stats.rejected += 1;
            rejected = true;
            h = self.control.rejected(h, err, order);
            if h < 1e-14 * t.abs().max(self.model.time_scale_s()) {
                return Err(SimError::StepTooSmall {
                    t_s: t,
                    h_s: h,
                    method: self.stepper.name(),
                });
            }
        }
        self.stats.steps += 1;
        self.guard_progress(t)?;
        self.dense_ready = false;
        let t_new = match landing {
            Some(b) if !rejected => b,
            _ => t + h,
        };
        let y_new = std::mem::take(&mut self.y_new);
        let result = self.finish_step(t, h, t_new, &y_new, sink);
        self.y_new = y_new;
        result
    }

    fn finish_step(
        &mut self,
        t: f64,
        h: f64,
        t_new: f64,
        y_new: &[f64],
        sink: &mut dyn SampleSink,
    ) -> Result<(), SimError> {
        self.check_finite(t_new, y_new)?;
        let ne = self.g_prev.len();
        if ne > 0 {
            self.model.events(t_new, y_new, &mut self.g_new);
            let triggered = (0..ne).any(|i| self.g_prev[i] >= 0.0 && self.g_new[i] < 0.0);
            // Adaptive steps also look inside the step for guards that dip below zero and
            // back (grazing); a fixed step is the user's resolution (and RK4 batches must
            // reproduce the step-by-step run bit for bit).
            let dipped = self.stepper.fixed_step().is_none() && self.grazing_dips(t, h, y_new);
            if triggered || dipped {
                self.ensure_dense(y_new);
                if let Some((index, theta)) = self.first_event(t, h, dipped) {
                    return self.handle_event(index, t, h * theta, h, sink);
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
        self.emit_pending(t_new, sink);
        self.stepper.accept();
        std::mem::swap(&mut self.g_prev, &mut self.g_new);
        if self.model.after_step(self.t, &mut self.y) {
            self.stepper.reset();
            self.model.events(self.t, &self.y, &mut self.g_prev);
        }
        Ok(())
    }

    fn check_finite(&self, t: f64, y: &[f64]) -> Result<(), SimError> {
        // One branch-free pass on the hot path (NaN fails the comparison); details only on error.
        if y.iter().all(|&v| is_bounded(v)) {
            return Ok(());
        }
        let (i, v) = y
            .iter()
            .enumerate()
            .find(|(_, v)| !is_bounded(**v))
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
        let scale = self.model.time_scale_s();
        let mut h = if d0 < 1e-5 || d1 < 1e-5 {
            1e-6 * scale
        } else {
            0.01 * d0 / d1
        };
        let h_max = self.model.max_step_s(self.t);
        h = h.min(h_max);
        let y1: Vec<f64> = self.y.iter().zip(&f0).map(|(y, f)| y + h * f).collect();
        self.model.rhs(self.t + h, &y1, &mut f1);
        let diff: Vec<f64> = f1.iter().zip(&f0).map(|(a, b)| a - b).collect();
        let d2 = norm(&diff) / h;
        let dmax = d1.max(d2);
        let h1 = if dmax <= 1e-15 {
            (h * 1e-3).max(1e-6 * scale)
        } else {
            (0.01 / dmax).powf(1.0 / order)
        };
        (100.0 * h).min(h1).min(h_max)
    }
}
