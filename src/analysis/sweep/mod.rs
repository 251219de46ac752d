//! Bifurcation (orbit) diagrams (MODELS §4.7): step one numeric preset parameter, run each value,
//! drop the transient and collect the Poincaré points.
//!
//! * **Parameter**: any numeric preset field by its dotted path (`system.wheel_rpm`,
//!   `law.mu_s`, `system.damping`), set with [`Preset::set_path`] and validated against its range.
//! * **Continuation** ([`SweepStart::Continue`]): the *up* branch runs the values from first to
//!   last, the *down* branch from last to first; each run starts from the previous run's end state
//!   and clock (the first of each branch from the preset's initial state), so coexisting attractors
//!   show as hysteresis between the branches. The two branches are independent and run in
//!   parallel.
//! * **Fixed initial conditions** ([`SweepStart::Fixed`]): every value starts from the preset's
//!   initial state at `t = 0`; the runs are independent and spread over all workers.
//! * **Transient**: by default the first 50 returns to the section (50 forcing periods on the
//!   stroboscopic section, 50 slip cycles at stick onset) are dropped, or a fixed time.
//! * **Section**: stroboscopic `x` when the preset is forced (belt joint), else stick onset for
//!   laws with exact stick, else the turning point (see [`SectionChoice`]). A run that never
//!   returns to the section after the transient (steady sliding) contributes its final state,
//!   flagged, so the equilibrium branch shows in the diagram.
//! * **Control**: an `AtomicBool` cancels between integration chunks (≤ 1/32 of a run); a
//!   callback reports each finished value with the running count.
//! * **Maps** (logistic, Hénon) are iterated instead ([`map`]): the duration and transient count
//!   iterations and every iterate is a point.

mod map;
mod run;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;

use super::dynamics::SectionChoice;
use crate::integrate::SimError;
use crate::preset::Preset;
use run::run_branch;

/// Where each run starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SweepStart {
    /// Up and down branches, each run continuing from the previous end state.
    #[default]
    Continue,
    /// Every value from the preset's initial state (probes multistability; fully parallel).
    Fixed,
}

/// What is dropped before points are recorded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Transient {
    /// The first `n` returns to the section.
    Returns(usize),
    /// The first seconds of each run.
    Seconds(f64),
}

impl Default for Transient {
    fn default() -> Self {
        Transient::Returns(50)
    }
}

/// A regular-sample signal recorded after the transient (for spectra).
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    /// Model column to record (e.g. `x`).
    pub column: String,
    /// Sample interval [s].
    pub interval_s: f64,
    /// Also keep every output row after the transient, event rows included (for statistics
    /// read by role, such as the stick fraction).
    pub rows: bool,
}

/// A sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSpec {
    /// Dotted preset path of the parameter.
    pub param: String,
    /// Parameter values in the order of the up branch.
    pub values: Vec<f64>,
    /// Continuation or fixed initial conditions.
    pub start: SweepStart,
    /// Model time of each run [s].
    pub duration_s: f64,
    /// Transient rule.
    pub transient: Transient,
    /// Poincaré section.
    pub section: SectionChoice,
    /// Optional signal to record.
    pub capture: Option<Capture>,
    /// Worker threads (default: available parallelism).
    pub threads: Option<usize>,
}

impl SweepSpec {
    /// A continuation sweep of `param` over `steps` values from `from` to `to`.
    pub fn new(param: &str, from: f64, to: f64, steps: usize, duration_s: f64) -> Self {
        Self {
            param: param.to_string(),
            values: linspace(from, to, steps),
            start: SweepStart::Continue,
            duration_s,
            transient: Transient::default(),
            section: SectionChoice::Auto,
            capture: None,
            threads: None,
        }
    }

    /// Number of runs the sweep makes (a single value runs once).
    pub fn total_runs(&self) -> usize {
        match self.start {
            SweepStart::Continue if self.values.len() > 1 => 2 * self.values.len(),
            _ => self.values.len(),
        }
    }
}

/// `steps` evenly spaced values from `from` to `to`, both included (`steps = 1`: `from`).
pub fn linspace(from: f64, to: f64, steps: usize) -> Vec<f64> {
    match steps {
        0 => Vec::new(),
        1 => vec![from],
        n => (0..n)
            .map(|i| {
                if i == n - 1 {
                    to
                } else {
                    from + (to - from) * i as f64 / (n - 1) as f64
                }
            })
            .collect(),
    }
}

/// Which branch a run belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// Values in the given order, continuing.
    Up,
    /// Values in reverse order, continuing.
    Down,
    /// Fixed initial conditions.
    Fixed,
}

impl Branch {
    /// `up`, `down` or `fixed`.
    pub fn name(self) -> &'static str {
        match self {
            Branch::Up => "up",
            Branch::Down => "down",
            Branch::Fixed => "fixed",
        }
    }
}

impl std::fmt::Display for Branch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One recorded point: time and the model's output columns.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// Model time [s] (the branch's clock).
    pub t_s: f64,
    /// Model output row (see [`SweepResult::columns`]).
    pub row: Vec<f64>,
}

/// The outcome of one parameter value.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueRun {
    /// Branch.
    pub branch: Branch,
    /// Index into [`SweepSpec::values`].
    pub index: usize,
    /// Parameter value.
    pub value: f64,
    /// Name of the section the points lie on.
    pub section: String,
    /// Section points after the transient; if none, the final state (see `final_state`).
    pub points: Vec<SweepPoint>,
    /// The run never returned to the section after the transient: `points` holds its final
    /// state (an equilibrium, or a motion slower than the run).
    pub final_state: bool,
    /// Section returns dropped as transient.
    pub dropped: usize,
    /// The run kept returning to the section but ended before the transient's count of
    /// returns was reached: its `final_state` point is not an equilibrium (lengthen the run).
    pub unsettled: bool,
    /// Captured signal after the transient (empty unless asked for).
    pub samples: Vec<f64>,
    /// Output rows after the transient (`t`, the model's columns, the event flag; empty unless
    /// [`Capture::rows`] asked for them).
    pub rows: Vec<Vec<f64>>,
}

/// A finished sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepResult {
    /// Parameter path.
    pub param: String,
    /// Names of the model's output columns (the `row` of each point).
    pub columns: Vec<String>,
    /// Runs: the up (or fixed) branch in value order, then the down branch in its run order.
    pub runs: Vec<ValueRun>,
}

impl SweepResult {
    /// Index of a model column.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }
}

/// Progress of a running sweep.
#[derive(Debug)]
pub struct SweepProgress<'a> {
    /// Runs finished so far.
    pub done: usize,
    /// Runs in total.
    pub total: usize,
    /// The run that just finished.
    pub run: &'a ValueRun,
}

/// Cancellation and progress reporting.
#[derive(Clone, Copy, Default)]
pub struct SweepControl<'a> {
    /// Set to `true` to stop the sweep (checked between integration chunks).
    pub cancel: Option<&'a AtomicBool>,
    /// Called (from worker threads) after each finished run.
    pub progress: Option<&'a (dyn Fn(&SweepProgress<'_>) + Sync)>,
}

/// Why a sweep stopped.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SweepError {
    /// The sweep is ill-posed.
    #[error("{0}")]
    Spec(String),
    /// The parameter cannot take this value.
    #[error("{param} = {value}: {message}")]
    Parameter {
        /// Parameter path.
        param: String,
        /// Value.
        value: f64,
        /// Why.
        message: String,
    },
    /// No section to record at this value.
    #[error(
        "{param} = {value}: the system is not forced and the model has no Poincaré section to \
         record"
    )]
    NoSection {
        /// Parameter path.
        param: String,
        /// Value.
        value: f64,
    },
    /// The simulation failed.
    #[error("{param} = {value} ({branch} branch): simulation failed: {source}")]
    Run {
        /// Parameter path.
        param: String,
        /// Value.
        value: f64,
        /// Branch.
        branch: Branch,
        /// The integration error.
        source: SimError,
    },
    /// Cancelled through [`SweepControl::cancel`].
    #[error("sweep cancelled after {done} of {total} runs")]
    Cancelled {
        /// Runs finished.
        done: usize,
        /// Runs planned.
        total: usize,
    },
}

/// Shared state of the workers.
pub(crate) struct Shared<'a> {
    pub base: &'a Preset,
    pub spec: &'a SweepSpec,
    pub control: SweepControl<'a>,
    /// Set when a branch fails, so the others stop early.
    pub abort: AtomicBool,
    pub done: AtomicUsize,
}

impl Shared<'_> {
    pub(crate) fn stopped(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
            || self
                .control
                .cancel
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    pub(crate) fn finished(&self, run: &ValueRun) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(cb) = self.control.progress {
            cb(&SweepProgress {
                done,
                total: self.spec.total_runs(),
                run,
            });
        }
    }

    fn cancelled(&self) -> SweepError {
        SweepError::Cancelled {
            done: self.done.load(Ordering::Relaxed),
            total: self.spec.total_runs(),
        }
    }
}

fn check(spec: &SweepSpec) -> Result<(), SweepError> {
    if spec.values.is_empty() {
        return Err(SweepError::Spec("the sweep has no parameter values".into()));
    }
    if let Some(v) = spec.values.iter().find(|v| !v.is_finite()) {
        return Err(SweepError::Spec(format!(
            "{}: parameter value {v} is not finite",
            spec.param
        )));
    }
    if !(spec.duration_s.is_finite() && spec.duration_s > 0.0) {
        return Err(SweepError::Spec(format!(
            "the run duration must be a positive number of seconds, got {}",
            spec.duration_s
        )));
    }
    if let Transient::Seconds(s) = spec.transient
        && !(s.is_finite() && s >= 0.0 && s < spec.duration_s)
    {
        return Err(SweepError::Spec(format!(
            "the transient ({s} s) must be shorter than the run ({} s)",
            spec.duration_s
        )));
    }
    if let Some(c) = &spec.capture
        && !(c.interval_s.is_finite() && c.interval_s > 0.0)
    {
        return Err(SweepError::Spec(format!(
            "capture interval must be positive, got {}",
            c.interval_s
        )));
    }
    Ok(())
}

/// Runs a sweep of `spec` over `base`.
pub fn sweep(
    base: &Preset,
    spec: &SweepSpec,
    control: SweepControl<'_>,
) -> Result<SweepResult, SweepError> {
    if base.system.is_map() {
        return map::sweep_map(base, spec, control);
    }
    check(spec)?;
    let columns = {
        let (model, _) = base.build_model();
        model.columns().into_iter().map(|c| c.name).collect()
    };
    let shared = Shared {
        base,
        spec,
        control,
        abort: AtomicBool::new(false),
        done: AtomicUsize::new(0),
    };
    let n = spec.values.len();
    let runs = super::parallel::with_pool(spec.threads, || match spec.start {
        SweepStart::Continue if n == 1 => run_branch(&shared, Branch::Up, &[0]),
        SweepStart::Continue => {
            let up: Vec<usize> = (0..n).collect();
            let down: Vec<usize> = (0..n).rev().collect();
            let (a, b) = rayon::join(
                || run_branch(&shared, Branch::Up, &up),
                || run_branch(&shared, Branch::Down, &down),
            );
            match (a, b) {
                (Ok(mut a), Ok(b)) => {
                    a.extend(b);
                    Ok(a)
                }
                // Report the failure, not the stop it caused in the other branch.
                (Err(SweepError::Cancelled { .. }), Err(e)) | (Err(e), _) | (_, Err(e)) => Err(e),
            }
        }
        SweepStart::Fixed => {
            let results: Vec<Result<Vec<ValueRun>, SweepError>> = (0..n)
                .into_par_iter()
                .map(|i| run_branch(&shared, Branch::Fixed, &[i]))
                .collect();
            let mut runs = Vec::with_capacity(n);
            let mut first_err = None;
            for r in results {
                match r {
                    Ok(v) => runs.extend(v),
                    Err(e) => {
                        let replace = match (&first_err, &e) {
                            (None, _) => true,
                            (Some(SweepError::Cancelled { .. }), e) => {
                                !matches!(e, SweepError::Cancelled { .. })
                            }
                            _ => false,
                        };
                        if replace {
                            first_err = Some(e);
                        }
                    }
                }
            }
            match first_err {
                Some(e) => Err(e),
                None => Ok(runs),
            }
        }
    });
    let runs = match runs {
        Err(SweepError::Cancelled { .. }) => return Err(shared.cancelled()),
        r => r?,
    };
    Ok(SweepResult {
        param: spec.param.clone(),
        columns,
        runs,
    })
}

/// Runs value `index` of `spec` alone from the preset's initial state (the start rule of the
/// spec is not used), on the calling thread: one cell of a larger computation, such as a regime
/// map, that schedules its own runs.
pub fn run_value(
    base: &Preset,
    spec: &SweepSpec,
    index: usize,
    cancel: Option<&AtomicBool>,
) -> Result<ValueRun, SweepError> {
    check(spec)?;
    if index >= spec.values.len() {
        return Err(SweepError::Spec(format!(
            "value {index} of a sweep of {}",
            spec.values.len()
        )));
    }
    let shared = Shared {
        base,
        spec,
        control: SweepControl {
            cancel,
            progress: None,
        },
        abort: AtomicBool::new(false),
        done: AtomicUsize::new(0),
    };
    let mut runs = run_branch(&shared, Branch::Fixed, &[index])?;
    runs.pop()
        .ok_or_else(|| SweepError::Spec("the run produced nothing".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_includes_both_ends() {
        assert_eq!(linspace(1.0, 2.0, 3), vec![1.0, 1.5, 2.0]);
        assert_eq!(linspace(0.3, 0.1, 2), vec![0.3, 0.1]);
        assert_eq!(linspace(5.0, 9.0, 1), vec![5.0]);
        assert!(linspace(0.0, 1.0, 0).is_empty());
        let v = linspace(0.1, 0.7, 7);
        assert_eq!(v[6], 0.7);
    }
}
