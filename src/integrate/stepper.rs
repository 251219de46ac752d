//! The common interface of the one-step integrators.

use super::{Model, Tolerance};

/// A one-step method with an error estimate and dense output.
///
/// Protocol: the driver calls [`step`](Stepper::step) from `(t, y)` (possibly several times after
/// rejections or to land on an event), calls [`prepare_dense`](Stepper::prepare_dense) for the
/// step it keeps and reads [`dense`](Stepper::dense) over it, then
/// calls [`accept`](Stepper::accept) once it moves to the step's end. After a discontinuity (a
/// mode switch) it calls [`reset`](Stepper::reset).
pub trait Stepper {
    /// Integrator name for messages.
    fn name(&self) -> &'static str;

    /// Order of the error estimator (for step-size control).
    fn order(&self) -> usize;

    /// Whether the step size is fixed (no error control).
    fn fixed_step(&self) -> Option<f64> {
        None
    }

    /// One step of size `h`; writes the result to `y_new` and returns the scaled error norm
    /// (≤ 1 means acceptable).
    fn step(
        &mut self,
        model: &dyn Model,
        t: f64,
        y: &[f64],
        h: f64,
        y_new: &mut [f64],
        tol: &Tolerance,
    ) -> f64;

    /// Prepares dense output for the step just taken from `y` to `y_new` (called once the
    /// driver keeps the step; rejected steps never pay for it).
    fn prepare_dense(&mut self, y: &[f64], y_new: &[f64]);

    /// Dense output at `t + θ·h` of the last prepared step, `θ ∈ [0, 1]`.
    fn dense(&self, theta: f64, out: &mut [f64]);

    /// The last step becomes the new starting point.
    fn accept(&mut self);

    /// Forget cached data (the right-hand side changed discontinuously).
    fn reset(&mut self);

    /// Number of right-hand-side evaluations so far.
    fn rhs_evals(&self) -> u64;
}
