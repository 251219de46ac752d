//! Monodromy by the variational equations of a smooth model (MODELS §4.3):
//! ```text
//! ẏ = f(t, y),   Φ̇ = J(t, y)·Φ,  Φ(0) = I,   q̇ = tr J(t, y)     (J = ∂f/∂y, dynamic part)
//! ```
//! `J` is the model's analytic Jacobian when it offers one ([`Model::jacobian`]), else central
//! differences of its right-hand side with the increment `h_j = 1e-6·max(|y_j|, scale_j)`;
//! `q(T) = ∫₀ᵀ tr J dt` gives Liouville's check `det Φ(T) = Π m_i = exp(∫ tr J dt)`.
//!
//! A model with mode switches gets its monodromy from the tangent dynamics of the Lyapunov
//! analysis ([`lyapunov::Variational`]): the same variational equations between switches and,
//! at each switch, the switch's saltation matrix with its reset differenced
//! ([`lyapunov::saltation`]), started in the modes the orbit has at the base point. It is
//! independent of the flow-map differences (no perturbed trajectories), so the two cross-check
//! each other.

use std::cell::RefCell;

use nalgebra::DMatrix;

use crate::analysis::dynamics::Dynamics;
use crate::analysis::lyapunov;
use crate::analysis::probe::{ModeSnapshot, ProbeSink, StateProbe};
use crate::integrate::{Column, Model, SimError, Simulation};

/// Relative increment of the right-hand-side differences.
const JAC_STEP: f64 = 1e-6;

/// The model extended by `Φ` (row-major, `n_d × n_d`) and `∫ tr J dt`; its output row is the
/// whole extended state.
struct Variational {
    inner: StateProbe,
    /// Dimension of the model.
    n: usize,
    /// Dynamic (non-quadrature) dimension.
    nd: usize,
    scales: Vec<f64>,
    scratch: RefCell<Scratch>,
}

/// Work arrays of the right-hand side: shifted state, `f(y + h)`, `f(y − h)`, `J` (row-major,
/// `n_d × n_d`), the model's analytic Jacobian (`n × n_d`).
#[derive(Default)]
struct Scratch {
    y: Vec<f64>,
    f_plus: Vec<f64>,
    f_minus: Vec<f64>,
    jac: Vec<f64>,
    analytic: Vec<f64>,
}

impl Variational {
    fn new(inner: Box<dyn Model + Send>) -> Self {
        let n = inner.dim();
        let nd = n - inner.n_quadratures();
        let mut scales = vec![1.0; n];
        inner.state_scales(&mut scales);
        Self {
            inner: StateProbe::new(inner),
            n,
            nd,
            scales,
            scratch: RefCell::new(Scratch {
                y: vec![0.0; n],
                f_plus: vec![0.0; n],
                f_minus: vec![0.0; n],
                jac: vec![0.0; nd * nd],
                analytic: vec![0.0; n * nd],
            }),
        }
    }
}

impl Variational {
    /// `J` (dynamic block) by central differences of the model's right-hand side at `y`.
    fn difference_jacobian(
        &self,
        t: f64,
        y: &[f64],
        yp: &mut [f64],
        fp: &mut [f64],
        fm: &mut [f64],
        jac: &mut [f64],
    ) {
        let nd = self.nd;
        yp.copy_from_slice(y);
        for j in 0..nd {
            let h = JAC_STEP * y[j].abs().max(self.scales[j]);
            yp[j] = y[j] + h;
            self.inner.rhs(t, yp, fp);
            yp[j] = y[j] - h;
            self.inner.rhs(t, yp, fm);
            yp[j] = y[j];
            for i in 0..nd {
                jac[i * nd + j] = (fp[i] - fm[i]) / (2.0 * h);
            }
        }
    }
}

impl Model for Variational {
    fn dim(&self) -> usize {
        self.n + self.nd * self.nd + 1
    }
    fn n_quadratures(&self) -> usize {
        1
    }
    fn state_names(&self) -> Vec<String> {
        let mut v = self.inner.state_names();
        for i in 0..self.nd {
            for j in 0..self.nd {
                v.push(format!("phi_{i}_{j}"));
            }
        }
        v.push("int_trace_j".into());
        v
    }
    fn state_scales(&self, scales: &mut [f64]) {
        scales[..self.n].copy_from_slice(&self.scales);
        for s in &mut scales[self.n..] {
            *s = 1.0;
        }
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
        self.inner.next_breakpoint_s(t)
    }
    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.inner.initialize(t, &mut y[..self.n])
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let (n, nd) = (self.n, self.nd);
        self.inner.rhs(t, &y[..n], &mut dy[..n]);
        let mut guard = self.scratch.borrow_mut();
        let Scratch {
            y: yp,
            f_plus: fp,
            f_minus: fm,
            jac,
            analytic,
        } = &mut *guard;
        if self.inner.jacobian(t, &y[..n], analytic) {
            for i in 0..nd {
                jac[i * nd..(i + 1) * nd].copy_from_slice(&analytic[i * nd..(i + 1) * nd]);
            }
        } else {
            self.difference_jacobian(t, &y[..n], yp, fp, fm, jac);
        }
        let phi = &y[n..n + nd * nd];
        let dphi = &mut dy[n..n + nd * nd];
        for i in 0..nd {
            for k in 0..nd {
                let mut s = 0.0;
                for j in 0..nd {
                    s += jac[i * nd + j] * phi[j * nd + k];
                }
                dphi[i * nd + k] = s;
            }
        }
        dy[n + nd * nd] = (0..nd).map(|i| jac[i * nd + i]).sum();
    }
    fn n_events(&self) -> usize {
        self.inner.n_events()
    }
    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        self.inner.events(t, &y[..self.n], g);
    }
    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.inner.apply_event(index, t, &mut y[..self.n])
    }
    fn columns(&self) -> Vec<Column> {
        self.state_names()
            .into_iter()
            .map(|n| Column::new(n, ""))
            .collect()
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row.copy_from_slice(y);
    }
    fn prefers_implicit(&self) -> bool {
        self.inner.prefers_implicit()
    }
}

/// Monodromy `Φ(t0 + T, t0)` at `y0` by the variational equations, with `∫ tr J dt`.
///
/// Only for models without mode switches ([`Dynamics::smooth`]): the model's events (velocity
/// reversals at kinks) still end steps, but no saltation is applied.
pub(crate) fn monodromy(
    dynamics: &dyn Dynamics,
    y0: &[f64],
    t0: f64,
    period_s: f64,
) -> Result<(DMatrix<f64>, f64), SimError> {
    let (model, _) = dynamics.build();
    let var = Variational::new(model);
    let (n, nd) = (var.n, var.nd);
    let mut ext = vec![0.0; var.dim()];
    ext[..n].copy_from_slice(y0);
    for i in 0..nd {
        ext[n + i * nd + i] = 1.0;
    }
    let mut settings = dynamics.settings();
    settings.output_interval_s = period_s;
    let mut sim = Simulation::new(Box::new(var), ext, t0, settings)?;
    let mut sink = ProbeSink::new(false);
    let t_end = t0 + period_s;
    sim.advance(t_end, &mut sink)?;
    let Some((t, y)) = sink.samples.last() else {
        return Err(SimError::Model {
            t_s: t_end,
            message: "internal: no sample at the end of the period".into(),
        });
    };
    debug_assert_eq!(*t, t_end);
    let phi = DMatrix::from_row_slice(nd, nd, &y[n..n + nd * nd]);
    Ok((phi, y[n + nd * nd]))
}

/// Monodromy `Φ(t0 + T, t0)` at `y0` of a model with mode switches: tangent vectors with
/// saltation matrices ([`lyapunov::Variational`] without renormalisation), the model starting in
/// the modes of `modes` (the orbit's at `y0`; chosen afresh without them).
pub(crate) fn monodromy_with_switches(
    dynamics: &dyn Dynamics,
    y0: &[f64],
    modes: Option<&ModeSnapshot>,
    t0: f64,
    period_s: f64,
) -> Result<DMatrix<f64>, SimError> {
    let (inner, keep_modes) = match modes.and_then(ModeSnapshot::copy) {
        Some(model) => (model, true),
        None => (dynamics.build().0, false),
    };
    let m = inner.dim() - inner.n_quadratures();
    let (mut var, ext) = lyapunov::Variational::new(inner, y0, t0, m, None);
    let t_end = t0 + period_s;
    var.land_at(t_end);
    let scales = var.scales().to_vec();
    let mut settings = dynamics.settings();
    settings.output_interval_s = period_s;
    let mut sim = if keep_modes {
        Simulation::continuing(Box::new(var), ext, t0, settings)?
    } else {
        Simulation::new(Box::new(var), ext, t0, settings)?
    };
    let mut sink = ProbeSink::new(false);
    sim.advance(t_end, &mut sink)?;
    if sim.time_s() != t_end {
        return Err(SimError::Model {
            t_s: sim.time_s(),
            message: "internal: the tangent run did not land on the end of the period".into(),
        });
    }
    // Columns q_c = D⁻¹·δy_c for δy_c(0) = D·e_c: Φ = D·Q·D⁻¹.
    let q = &sim.state()[m..m + m * m];
    Ok(DMatrix::from_fn(m, m, |i, j| {
        scales[i] * q[j * m + i] / scales[j]
    }))
}
