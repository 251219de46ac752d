//! Flow maps of a [`Dynamics`]: the state at an exact time and at the next Poincaré crossing,
//! read from the driver's dense output through a model wrapper whose output row is the state.
//!
//! A flow map evaluated at a point of a trajectory starts from the model as it was there
//! ([`ModeSnapshot`]: its discrete modes and law memories), not from modes chosen afresh: a
//! perturbed start inside a compliant stick stays stuck, a dwell memory is kept.

use std::sync::Mutex;

use super::dynamics::Dynamics;
use crate::integrate::driver::{SampleSink, SectionId};
use crate::integrate::{Column, Model, SimError, Simulation};

/// Wraps a model so that every output row (`observe`) is the full state vector `y`.
pub(crate) struct StateProbe {
    inner: Box<dyn Model + Send>,
    /// Steps end exactly here (the end of a flow map), so the state and the modes at the end
    /// are those of that instant.
    land_at: f64,
}

impl StateProbe {
    pub(crate) fn new(inner: Box<dyn Model + Send>) -> Self {
        Self {
            inner,
            land_at: f64::INFINITY,
        }
    }
}

/// A copy of a probed model at one point of its trajectory (modes and memories), shareable
/// between the threads of a finite-difference Jacobian.
pub(crate) struct ModeSnapshot(Mutex<Box<dyn Model + Send>>);

impl ModeSnapshot {
    /// The snapshot of `model`, if it can be copied ([`Model::boxed_clone`]).
    pub(crate) fn of(model: &dyn Model) -> Option<Self> {
        model.boxed_clone().map(|m| Self(Mutex::new(m)))
    }

    /// A fresh copy to run.
    pub(crate) fn copy(&self) -> Option<Box<dyn Model + Send>> {
        let guard = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        guard.boxed_clone()
    }
}

impl Model for StateProbe {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn n_quadratures(&self) -> usize {
        self.inner.n_quadratures()
    }
    fn state_names(&self) -> Vec<String> {
        self.inner.state_names()
    }
    fn state_scales(&self, scales: &mut [f64]) {
        self.inner.state_scales(scales);
    }
    fn is_autonomous(&self) -> bool {
        self.inner.is_autonomous()
    }
    fn max_step_s(&self, t_s: f64) -> f64 {
        self.inner.max_step_s(t_s)
    }
    fn time_scale_s(&self) -> f64 {
        self.inner.time_scale_s()
    }
    fn next_breakpoint_s(&self, t: f64) -> f64 {
        let inner = self.inner.next_breakpoint_s(t);
        if self.land_at > t {
            inner.min(self.land_at)
        } else {
            inner
        }
    }
    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.inner.initialize(t, y)
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.inner.rhs(t, y, dy);
    }
    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        self.inner.jacobian(t, y, jac)
    }
    fn n_events(&self) -> usize {
        self.inner.n_events()
    }
    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        self.inner.events(t, y, g);
    }
    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.inner.apply_event(index, t, y)
    }
    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        self.inner.after_step(t, y)
    }
    /// The probe is only a view: its copy is a copy of the model it views (a run from a
    /// snapshot wraps it in a fresh probe).
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        self.inner.boxed_clone()
    }
    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.inner.resume(t, y)
    }
    fn project(&self, t: f64, y: &mut [f64]) {
        self.inner.project(t, y);
    }
    fn columns(&self) -> Vec<Column> {
        self.inner
            .state_names()
            .into_iter()
            .map(|n| Column::new(n, ""))
            .collect()
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row.copy_from_slice(y);
    }
    fn section_names(&self) -> Vec<String> {
        self.inner.section_names()
    }
    fn sections(&self, t: f64, y: &[f64], s: &mut [f64]) {
        self.inner.sections(t, y, s);
    }
    fn prefers_implicit(&self) -> bool {
        self.inner.prefers_implicit()
    }
}

/// Collects the rows of a probed run: rows are `[t, y…, event flag]`.
#[derive(Default)]
pub(crate) struct ProbeSink {
    /// Regular samples `(t, y)`.
    pub samples: Vec<(f64, Vec<f64>)>,
    /// Times of mode switches (one per before/after pair).
    pub event_times: Vec<f64>,
    /// Section points `(section, t, y)`.
    pub sections: Vec<(SectionId, f64, Vec<f64>)>,
    /// Keep regular samples (off: only the last one is kept).
    pub keep_samples: bool,
    /// The model at the latest point of each section (when asked for with
    /// [`with_modes`](Self::with_modes)).
    pub section_modes: Vec<(SectionId, f64, ModeSnapshot)>,
    keep_modes: bool,
    pending_event: bool,
}

impl ProbeSink {
    pub(crate) fn new(keep_samples: bool) -> Self {
        Self {
            keep_samples,
            ..Self::default()
        }
    }

    /// Also keeps the model at the latest point of each section.
    pub(crate) fn with_modes(mut self) -> Self {
        self.keep_modes = true;
        self
    }

    /// The model at the latest point of `section`, if that point is at time `t`.
    pub(crate) fn modes_at(&self, section: SectionId, t: f64) -> Option<&ModeSnapshot> {
        self.section_modes
            .iter()
            .find(|(id, ts, _)| *id == section && *ts == t)
            .map(|(_, _, m)| m)
    }
}

fn split(row: &[f64]) -> (f64, Vec<f64>, bool) {
    let n = row.len();
    (row[0], row[1..n - 1].to_vec(), row[n - 1] != 0.0)
}

impl SampleSink for ProbeSink {
    fn push(&mut self, row: &[f64]) {
        let (t, y, event) = split(row);
        if event {
            // Before/after pairs: count the pair once.
            if !self.pending_event {
                self.event_times.push(t);
            }
            self.pending_event = !self.pending_event;
            return;
        }
        if !self.keep_samples {
            self.samples.clear();
        }
        self.samples.push((t, y));
    }

    fn push_section(&mut self, section: SectionId, row: &[f64]) {
        let (t, y, _) = split(row);
        self.sections.push((section, t, y));
    }

    fn wants_section_models(&self) -> bool {
        self.keep_modes
    }

    /// Keeps the model at the latest point of `section`; a report after a switch at the
    /// point's instant also replaces the point's state by the state after the switch (the
    /// point then starts the new mode, consistently with its modes).
    fn section_model(&mut self, section: SectionId, t_s: f64, y: &[f64], model: &dyn Model) {
        if let Some(point) = self
            .sections
            .iter_mut()
            .rev()
            .find(|(id, t, _)| *id == section && *t == t_s)
        {
            point.2.copy_from_slice(y);
        }
        let Some(snapshot) = ModeSnapshot::of(model) else {
            return;
        };
        self.section_modes.retain(|(id, _, _)| *id != section);
        self.section_modes.push((section, t_s, snapshot));
    }
}

/// Failure of a flow-map evaluation.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FlowError {
    /// The integration failed.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// No crossing of the section within the allowed time.
    #[error("no return to the section within {0} s")]
    NoReturn(f64),
}

/// A probed simulation of `dynamics` from `y0` at `t0`, samples every `interval_s`; with
/// `modes`, the model continues in the modes of that snapshot ([`Simulation::continuing`]).
pub(crate) fn probe_simulation(
    dynamics: &dyn Dynamics,
    y0: &[f64],
    t0: f64,
    interval_s: f64,
    modes: Option<&ModeSnapshot>,
) -> Result<Simulation, SimError> {
    probe_landing(dynamics, y0, t0, interval_s, modes, f64::INFINITY)
}

/// [`probe_simulation`] whose steps end exactly at `land_at`.
fn probe_landing(
    dynamics: &dyn Dynamics,
    y0: &[f64],
    t0: f64,
    interval_s: f64,
    modes: Option<&ModeSnapshot>,
    land_at: f64,
) -> Result<Simulation, SimError> {
    let mut settings = dynamics.settings();
    settings.output_interval_s = interval_s;
    let probe = |inner| Box::new(StateProbe { inner, land_at });
    match modes.and_then(ModeSnapshot::copy) {
        Some(model) => Simulation::continuing(probe(model), y0.to_vec(), t0, settings),
        None => {
            let (model, _) = dynamics.build();
            Simulation::new(probe(model), y0.to_vec(), t0, settings)
        }
    }
}

/// Result of integrating over a fixed time.
pub(crate) struct FlowResult {
    /// State at `t0 + duration`.
    pub y: Vec<f64>,
    /// Switch times in `(t0, t0 + duration]`.
    pub event_times: Vec<f64>,
    /// The model at the end (its modes there), if it can be copied.
    pub modes: Option<ModeSnapshot>,
}

/// The state at exactly `t0 + duration_s` (a step ends there), starting in the modes of
/// `modes` when given.
pub(crate) fn flow(
    dynamics: &dyn Dynamics,
    y0: &[f64],
    t0: f64,
    duration_s: f64,
    modes: Option<&ModeSnapshot>,
) -> Result<FlowResult, SimError> {
    if duration_s <= 0.0 {
        return Ok(FlowResult {
            y: y0.to_vec(),
            event_times: Vec::new(),
            modes: modes
                .and_then(ModeSnapshot::copy)
                .map(|m| ModeSnapshot(Mutex::new(m))),
        });
    }
    let t_end = t0 + duration_s;
    let mut sim = probe_landing(dynamics, y0, t0, duration_s, modes, t_end)?;
    let mut sink = ProbeSink::new(false);
    sim.advance(t_end, &mut sink)?;
    let y = match sink.samples.last() {
        Some((t, y)) if *t == t_end => y.clone(),
        _ => {
            return Err(SimError::Model {
                t_s: sim.time_s(),
                message: "internal: no sample at the end of the flow map".into(),
            });
        }
    };
    let modes = (sim.time_s() == t_end)
        .then(|| ModeSnapshot::of(sim.model()))
        .flatten();
    Ok(FlowResult {
        y,
        event_times: sink.event_times,
        modes,
    })
}

/// Result of integrating to a section crossing.
pub(crate) struct ReturnResult {
    /// Time of the `count`-th crossing.
    pub t: f64,
    /// State there.
    pub y: Vec<f64>,
    /// Switch times on the way.
    pub event_times: Vec<f64>,
}

/// Integrates from `y0` at `t0` (in the modes of `modes`, when given) to the `count`-th upward
/// crossing of model section `index` (a start exactly on the section does not count), giving
/// up after `max_time_s`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn next_return(
    dynamics: &dyn Dynamics,
    y0: &[f64],
    t0: f64,
    modes: Option<&ModeSnapshot>,
    index: usize,
    count: usize,
    chunk_s: f64,
    max_time_s: f64,
) -> Result<ReturnResult, FlowError> {
    let mut sim = probe_simulation(dynamics, y0, t0, f64::MAX / 4.0, modes)?;
    sim.track_sections(None);
    // With modes: a return that lands on a switch reports the state after it, like the start.
    let mut sink = ProbeSink::new(false);
    if modes.is_some() {
        sink = sink.with_modes();
    }
    let mut t_stop = t0;
    loop {
        t_stop += chunk_s;
        sim.advance(t_stop, &mut sink)?;
        let mut hits = sink
            .sections
            .iter()
            .filter(|(id, t, _)| *id == SectionId::Model(index) && *t > t0);
        if let Some((_, t, y)) = hits.nth(count - 1) {
            let t = *t;
            return Ok(ReturnResult {
                t,
                y: y.clone(),
                event_times: sink.event_times.into_iter().filter(|e| *e <= t).collect(),
            });
        }
        if t_stop - t0 > max_time_s {
            return Err(FlowError::NoReturn(max_time_s));
        }
    }
}
