//! A whole fit: Levenberg–Marquardt in stages, then the statistics at the optimum.
//!
//! A *staged* fit frees its parameters a group at a time (the static ones first, then the
//! dynamic ones, each stage from the values the last one left), which keeps a state law's
//! fast parameters from wandering while its Stribeck curve is still wrong. The statistics
//! are then taken over every free parameter together at the final point, so the reported
//! intervals and correlations are the joint ones, not those of the last stage alone.

use super::free_param::FreeParam;
use super::lm::{LmControl, LmError, LmOutcome, LmSettings, jacobian_z, minimize, rms};
use super::problem::FitProblem;
use super::statistics::{Statistics, statistics};

/// A fit's result.
#[derive(Clone, Debug, PartialEq)]
pub struct FitResult {
    /// Each stage's outcome, in order.
    pub stages: Vec<LmOutcome>,
    /// The final parameters [their units].
    pub p: Vec<f64>,
    /// Root mean square of the weighted residuals at the start.
    pub start_rms: f64,
    /// Root mean square of the weighted residuals at the end.
    pub rms: f64,
    /// The statistics at the end (every free parameter together).
    pub statistics: Statistics,
}

impl FitResult {
    /// Whether every stage converged.
    pub fn converged(&self) -> bool {
        self.stages.iter().all(|s| s.converged)
    }
}

/// Fits `params` of `problem`: `stages` lists the indices freed in each stage (empty: one
/// stage with all of them).
pub fn fit(
    problem: &dyn FitProblem,
    params: &[FreeParam],
    stages: &[Vec<usize>],
    settings: LmSettings,
    control: LmControl<'_>,
) -> Result<FitResult, LmError> {
    let all: Vec<usize> = (0..params.len()).collect();
    let stages: Vec<&[usize]> = if stages.iter().all(Vec::is_empty) {
        vec![all.as_slice()]
    } else {
        stages
            .iter()
            .filter(|s| !s.is_empty())
            .map(Vec::as_slice)
            .collect()
    };
    let mut current: Vec<FreeParam> = params.to_vec();
    let n = problem.n_residuals();
    if n <= params.len() {
        return Err(LmError::TooFewData { n, k: params.len() });
    }
    let mut r = vec![0.0; n];
    let p0: Vec<f64> = current.iter().map(|p| p.start).collect();
    problem.residuals(&p0, &mut r).map_err(LmError::Start)?;
    let start_rms = rms(&r);
    let mut outcomes = Vec::new();
    for free in stages {
        let sub = Subset {
            inner: problem,
            values: current.iter().map(|p| p.start).collect(),
            free: free.to_vec(),
        };
        let sub_params: Vec<FreeParam> = free.iter().map(|&i| current[i].clone()).collect();
        let outcome = minimize(&sub, &sub_params, settings, control)?;
        for (&i, &v) in free.iter().zip(&outcome.p) {
            current[i].start = v;
        }
        outcomes.push(outcome);
    }
    let p: Vec<f64> = current.iter().map(|q| q.start).collect();
    problem.residuals(&p, &mut r).map_err(LmError::End)?;
    let j = jacobian_z(problem, params, &p).map_err(LmError::End)?;
    let statistics = statistics(params, &p, &r, &j);
    Ok(FitResult {
        stages: outcomes,
        start_rms,
        rms: rms(&r),
        p,
        statistics,
    })
}

/// A problem with some parameters held at given values.
struct Subset<'a> {
    inner: &'a dyn FitProblem,
    values: Vec<f64>,
    free: Vec<usize>,
}

impl FitProblem for Subset<'_> {
    fn n_residuals(&self) -> usize {
        self.inner.n_residuals()
    }

    fn residuals(&self, p: &[f64], out: &mut [f64]) -> Result<(), String> {
        let mut all = self.values.clone();
        for (&i, &v) in self.free.iter().zip(p) {
            all[i] = v;
        }
        self.inner.residuals(&all, out)
    }

    fn difference_step(&self) -> f64 {
        self.inner.difference_step()
    }
}

/// The values to keep from a fit: each determined estimate, and the start value of every
/// parameter the data did not determine (its end value says nothing).
pub fn kept_values(result: &FitResult) -> Vec<f64> {
    result
        .statistics
        .estimates
        .iter()
        .map(|e| {
            if e.is_determined() {
                e.value
            } else {
                e.param.start
            }
        })
        .collect()
}
