//! Derivatives of a [`Model`] in its current mode: the Jacobian `J = ∂f/∂y` of the
//! non-quadrature block and the gradient of an event function, by central differences at each
//! component's own scale (or the model's analytic Jacobian when it offers one).
//!
//! Differences are taken inside the current mode: a slip mode keeps its friction sign on both
//! sides of `v_rel = 0`, so the difference quotient sees the smooth field of the mode, never the
//! switch.

use crate::integrate::Model;

/// Central-difference increment of component `j`, relative to its scale `s_j`
/// (`h_j = FD_REL·s_j`: truncation ~1e-10, round-off ~1e-11 relative).
pub const FD_REL: f64 = 1e-5;

/// Scratch space for the differences (no allocation per call).
#[derive(Clone, Debug, Default)]
pub struct Work {
    y: Vec<f64>,
    fp: Vec<f64>,
    fm: Vec<f64>,
    gp: Vec<f64>,
    gm: Vec<f64>,
    /// The model's own `n × m` Jacobian.
    full: Vec<f64>,
}

impl Work {
    /// Scratch for a model of dimension `n` with `n_events` event functions.
    pub fn new(n: usize, n_events: usize) -> Self {
        Self {
            y: vec![0.0; n],
            fp: vec![0.0; n],
            fm: vec![0.0; n],
            gp: vec![0.0; n_events],
            gm: vec![0.0; n_events],
            full: Vec::new(),
        }
    }
}

/// Number of components the Jacobian covers (`dim − n_quadratures`).
pub fn active_dim(model: &dyn Model) -> usize {
    model.dim() - model.n_quadratures()
}

/// `J = ∂f/∂y` (`m × m`, row-major) at `(t, y)` in the current mode; returns `true` when it
/// came from the model's analytic [`Model::jacobian`] (whose `n × m` matrix also has the
/// quadrature rows, dropped here).
pub fn jacobian(
    model: &dyn Model,
    t: f64,
    y: &[f64],
    scales: &[f64],
    jac: &mut [f64],
    work: &mut Work,
) -> bool {
    let (n, m) = (model.dim(), active_dim(model));
    work.full.resize(n * m, 0.0);
    if model.jacobian(t, y, &mut work.full) {
        jac[..m * m].copy_from_slice(&work.full[..m * m]);
        return true;
    }
    work.y.clear();
    work.y.extend_from_slice(y);
    for j in 0..m {
        let h = FD_REL * scales[j];
        work.y[j] = y[j] + h;
        model.rhs(t, &work.y, &mut work.fp);
        work.y[j] = y[j] - h;
        model.rhs(t, &work.y, &mut work.fm);
        work.y[j] = y[j];
        let inv = 0.5 / h;
        for i in 0..m {
            jac[i * m + j] = (work.fp[i] - work.fm[i]) * inv;
        }
    }
    false
}

/// Gradient `∂g_index/∂y` (first `m` components, into `grad`) and `∂g_index/∂t` (returned; 0
/// for autonomous models) of an event function in the current mode.
pub fn guard_gradient(
    model: &dyn Model,
    index: usize,
    t: f64,
    y: &[f64],
    scales: &[f64],
    grad: &mut [f64],
    work: &mut Work,
) -> f64 {
    let m = active_dim(model);
    work.y.clear();
    work.y.extend_from_slice(y);
    for j in 0..m {
        let h = FD_REL * scales[j];
        work.y[j] = y[j] + h;
        model.events(t, &work.y, &mut work.gp);
        work.y[j] = y[j] - h;
        model.events(t, &work.y, &mut work.gm);
        work.y[j] = y[j];
        grad[j] = (work.gp[index] - work.gm[index]) / (2.0 * h);
    }
    if model.is_autonomous() {
        return 0.0;
    }
    let dt = 1e-7 * t.abs().max(1.0);
    model.events(t + dt, y, &mut work.gp);
    model.events(t - dt, y, &mut work.gm);
    (work.gp[index] - work.gm[index]) / (2.0 * dt)
}

/// The Jacobian at the model's own state scales, as a fresh matrix (convenience for checks
/// and for other analyses).
pub fn jacobian_at(model: &dyn Model, t: f64, y: &[f64]) -> Vec<f64> {
    let m = active_dim(model);
    let mut scales = vec![1.0; model.dim()];
    model.state_scales(&mut scales);
    let mut jac = vec![0.0; m * m];
    let mut work = Work::new(model.dim(), model.n_events());
    jacobian(model, t, y, &scales, &mut jac, &mut work);
    jac
}
