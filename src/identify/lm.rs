//! The Levenberg–Marquardt run: the adapter between a [`FitProblem`] and the
//! `levenberg-marquardt` crate (MINPACK's trust-region LM over nalgebra 0.34, imported here as
//! `nalgebra_lm`; nothing else in tribolab sees that release).
//!
//! The crate moves the unbounded coordinates `u` ([`FreeParam`]); the Jacobian is taken by
//! central differences in the scaled coordinates `z` (columns in parallel: each may be a
//! simulation) and carried to `u` by `dz/du`. A trial point whose residuals fail (a simulation
//! that diverges there) is given the last good residuals times ten, so the trust region shrinks
//! and the run goes on; a cancel request makes the residuals fail, which ends the run.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};

use levenberg_marquardt::{LeastSquaresProblem, LevenbergMarquardt, TerminationReason};
use nalgebra_lm::{DMatrix, DVector, Dyn, Owned};
use rayon::prelude::*;

use super::free_param::FreeParam;
use super::problem::FitProblem;

/// How long the estimator may try.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LmSettings {
    /// Relative reduction of the sum of squares below which the run has converged.
    pub ftol: f64,
    /// Relative change of the parameters below which the run has converged.
    pub xtol: f64,
    /// Most residual evaluations per free parameter (MINPACK's patience).
    pub patience: usize,
}

impl Default for LmSettings {
    fn default() -> Self {
        Self {
            ftol: 1e-10,
            xtol: 1e-10,
            patience: 100,
        }
    }
}

/// Progress of a run, reported after every residual evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LmProgress {
    /// Residual evaluations so far (Jacobian columns included).
    pub evaluations: usize,
    /// Root mean square of the best residuals so far.
    pub best_rms: f64,
}

/// Where a run reports to and how it is stopped.
#[derive(Clone, Copy, Default)]
pub struct LmControl<'a> {
    /// Set to stop the run at its next evaluation.
    pub cancel: Option<&'a AtomicBool>,
    /// Called after each evaluation.
    pub progress: Option<&'a (dyn Fn(LmProgress) + Sync)>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct LmOutcome {
    /// The best parameters [their units].
    pub p: Vec<f64>,
    /// Whether the estimator's convergence tests passed.
    pub converged: bool,
    /// Why it stopped, in words.
    pub termination: String,
    /// Residual evaluations used.
    pub evaluations: usize,
    /// Trial points where the model could not be evaluated (a simulation that failed): the
    /// optimum may then lie against a region where the model does not run.
    pub failed_evaluations: usize,
}

/// Errors that end a fit.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LmError {
    /// The residuals fail at the start values.
    #[error("the model cannot be evaluated at the start values: {0}")]
    Start(String),
    /// The residuals or their derivatives fail at the fitted values.
    #[error("the model cannot be evaluated at the fitted values: {0}")]
    End(String),
    /// The user cancelled.
    #[error("cancelled")]
    Cancelled,
    /// No more data than free parameters (no degree of freedom left for the errors).
    #[error("{n} residuals cannot determine {k} free parameters and their errors")]
    TooFewData {
        /// Residuals.
        n: usize,
        /// Free parameters.
        k: usize,
    },
}

/// Runs Levenberg–Marquardt on `problem` from the start values of `params`.
pub fn minimize(
    problem: &dyn FitProblem,
    params: &[FreeParam],
    settings: LmSettings,
    control: LmControl<'_>,
) -> Result<LmOutcome, LmError> {
    let (n, k) = (problem.n_residuals(), params.len());
    if n <= k || k == 0 {
        return Err(LmError::TooFewData { n, k });
    }
    let u0: Vec<f64> = params.iter().map(FreeParam::u_start).collect();
    let p0 = p_of_u(params, &u0);
    let mut r0 = vec![0.0; n];
    problem.residuals(&p0, &mut r0).map_err(LmError::Start)?;
    if r0.iter().any(|r| !r.is_finite()) {
        return Err(LmError::Start("a residual is not a finite number".into()));
    }
    let adapter = Adapter {
        problem,
        params,
        u: DVector::from_vec(u0),
        best: RefCell::new((rms(&r0), p0)),
        last_good: RefCell::new(r0),
        evaluations: Cell::new(1),
        failures: Cell::new(0),
        control,
        cancelled: Cell::new(false),
    };
    let lm = LevenbergMarquardt::new()
        .with_ftol(settings.ftol)
        .with_xtol(settings.xtol)
        .with_gtol(0.0)
        .with_patience(settings.patience);
    let (adapter, report) = lm.minimize(adapter);
    if adapter.cancelled.get() {
        return Err(LmError::Cancelled);
    }
    let converged = report.termination.was_successful();
    let termination = describe(&report.termination);
    let evaluations = adapter.evaluations.get();
    let failed_evaluations = adapter.failures.get();
    let p = adapter.best.into_inner().1;
    Ok(LmOutcome {
        p,
        converged,
        termination,
        evaluations,
        failed_evaluations,
    })
}

/// The Jacobian `∂r/∂z` (scaled coordinates) at `p`, by central differences with the
/// problem's step, one-sided where a step would leave the range or fail.
pub fn jacobian_z(
    problem: &dyn FitProblem,
    params: &[FreeParam],
    p: &[f64],
) -> Result<Vec<Vec<f64>>, String> {
    let n = problem.n_residuals();
    let h = problem.difference_step();
    (0..params.len())
        .into_par_iter()
        .map(|j| {
            let param = &params[j];
            let z = param.z_of(p[j]);
            let h = param.z_step(z, h);
            let (lo, hi) = param.z_bounds();
            let eval = |z_j: f64| -> Option<Vec<f64>> {
                if z_j < lo || z_j > hi {
                    return None;
                }
                let mut q = p.to_vec();
                q[j] = param.p_of(z_j);
                let mut r = vec![0.0; n];
                problem.residuals(&q, &mut r).ok()?;
                r.iter().all(|x| x.is_finite()).then_some(r)
            };
            let centre = || {
                let mut r = vec![0.0; n];
                problem.residuals(p, &mut r).map(|()| r)
            };
            match (eval(z + h), eval(z - h)) {
                (Some(a), Some(b)) => {
                    Ok(a.iter().zip(&b).map(|(a, b)| (a - b) / (2.0 * h)).collect())
                }
                (Some(a), None) => {
                    let c = centre()?;
                    Ok(a.iter().zip(&c).map(|(a, c)| (a - c) / h).collect())
                }
                (None, Some(b)) => {
                    let c = centre()?;
                    Ok(c.iter().zip(&b).map(|(c, b)| (c - b) / h).collect())
                }
                (None, None) => Err(format!(
                    "{} cannot be varied by {h:e} of its scale about {}: the model fails on \
                     both sides",
                    param.key, p[j]
                )),
            }
        })
        .collect()
}

/// Root mean square of `r`.
pub fn rms(r: &[f64]) -> f64 {
    (r.iter().map(|x| x * x).sum::<f64>() / r.len().max(1) as f64).sqrt()
}

fn p_of_u(params: &[FreeParam], u: &[f64]) -> Vec<f64> {
    params
        .iter()
        .zip(u)
        .map(|(p, &u)| p.p_of(p.z_of_u(u)))
        .collect()
}

fn describe(t: &TerminationReason) -> String {
    match t {
        TerminationReason::Converged { .. } | TerminationReason::ResidualsZero => {
            "converged".into()
        }
        TerminationReason::Orthogonal => "converged (the gradient vanishes)".into(),
        TerminationReason::LostPatience => {
            "stopped at the evaluation limit before converging".into()
        }
        TerminationReason::NoImprovementPossible(what) => {
            format!("stopped: no further improvement possible ({what})")
        }
        TerminationReason::User(what) => format!("stopped: {what}"),
        TerminationReason::Numerical(what) => format!("stopped: a non-finite {what}"),
        other => format!("stopped: {other:?}"),
    }
}

/// The crate's view of the problem.
struct Adapter<'a> {
    problem: &'a dyn FitProblem,
    params: &'a [FreeParam],
    u: DVector<f64>,
    /// Best residual RMS so far and its parameters.
    best: RefCell<(f64, Vec<f64>)>,
    last_good: RefCell<Vec<f64>>,
    evaluations: Cell<usize>,
    failures: Cell<usize>,
    control: LmControl<'a>,
    cancelled: Cell<bool>,
}

impl Adapter<'_> {
    fn p(&self) -> Vec<f64> {
        p_of_u(self.params, self.u.as_slice())
    }

    fn is_cancelled(&self) -> bool {
        let c = self
            .control
            .cancel
            .is_some_and(|c| c.load(Ordering::Relaxed));
        if c {
            self.cancelled.set(true);
        }
        c
    }

    fn report(&self) {
        if let Some(progress) = self.control.progress {
            progress(LmProgress {
                evaluations: self.evaluations.get(),
                best_rms: self.best.borrow().0,
            });
        }
    }
}

impl LeastSquaresProblem<f64, Dyn, Dyn> for Adapter<'_> {
    type ResidualStorage = Owned<f64, Dyn>;
    type JacobianStorage = Owned<f64, Dyn, Dyn>;
    type ParameterStorage = Owned<f64, Dyn>;

    fn set_params(&mut self, u: &DVector<f64>) {
        self.u.copy_from(u);
    }

    fn params(&self) -> DVector<f64> {
        self.u.clone()
    }

    fn residuals(&self) -> Option<DVector<f64>> {
        if self.is_cancelled() {
            return None;
        }
        let p = self.p();
        let mut r = vec![0.0; self.problem.n_residuals()];
        self.evaluations.set(self.evaluations.get() + 1);
        let ok = self.problem.residuals(&p, &mut r).is_ok() && r.iter().all(|x| x.is_finite());
        if ok {
            let value = rms(&r);
            let mut best = self.best.borrow_mut();
            if value < best.0 {
                *best = (value, p);
            }
            drop(best);
            self.last_good.borrow_mut().clone_from(&r);
        } else {
            self.failures.set(self.failures.get() + 1);
            r = self.last_good.borrow().iter().map(|x| 10.0 * x).collect();
        }
        self.report();
        Some(DVector::from_vec(r))
    }

    fn jacobian(&self) -> Option<DMatrix<f64>> {
        if self.is_cancelled() {
            return None;
        }
        let p = self.p();
        let columns = jacobian_z(self.problem, self.params, &p).ok()?;
        self.evaluations
            .set(self.evaluations.get() + 2 * self.params.len());
        self.report();
        let n = self.problem.n_residuals();
        Some(DMatrix::from_fn(n, self.params.len(), |i, j| {
            columns[j][i] * self.params[j].dz_du(self.u[j])
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `r_i = a·e^(b·t_i) − y_i`: the differenced Jacobian in the scaled coordinates
    /// (`a` linear, `b` logarithmic) matches the analytic one to 1e-8.
    struct Exponential {
        t: Vec<f64>,
    }

    impl FitProblem for Exponential {
        fn n_residuals(&self) -> usize {
            self.t.len()
        }
        fn residuals(&self, p: &[f64], out: &mut [f64]) -> Result<(), String> {
            for (o, t) in out.iter_mut().zip(&self.t) {
                *o = p[0] * (p[1] * t).exp() - 1.0;
            }
            Ok(())
        }
    }

    #[test]
    fn the_differenced_jacobian_matches_the_analytic_one() {
        let problem = Exponential {
            t: (0..20).map(|i| 0.1 * i as f64).collect(),
        };
        let a = FreeParam {
            key: "a".into(),
            symbol: "a".into(),
            unit: String::new(),
            start: 2.0,
            min: 0.0,
            max: 10.0,
            log: false,
        };
        let b = FreeParam {
            key: "b".into(),
            start: 0.7,
            min: 1e-3,
            max: 10.0,
            log: true,
            ..a.clone()
        };
        let p = [2.0, 0.7];
        let j = jacobian_z(&problem, &[a, b], &p).expect("differences");
        for (i, t) in problem.t.iter().enumerate() {
            let e = (p[1] * t).exp();
            // ∂r/∂z_a = ∂r/∂a · |a₀|,  ∂r/∂z_b = ∂r/∂b · b.
            let (ja, jb) = (e * 2.0, p[0] * t * e * p[1]);
            assert!(
                (j[0][i] - ja).abs() < 1e-8 * ja.abs().max(1.0),
                "{i}: {} vs {ja}",
                j[0][i]
            );
            assert!(
                (j[1][i] - jb).abs() < 1e-8 * jb.abs().max(1.0),
                "{i}: {} vs {jb}",
                j[1][i]
            );
        }
    }
}
