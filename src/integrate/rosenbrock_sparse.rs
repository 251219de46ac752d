//! The structured linear algebra of the Rosenbrock stepper, for models that declare a banded
//! or sparse dynamic Jacobian block ([`Model::jacobian_structure`]).
//!
//! - `J_dd` (the dynamic block) comes from the model's analytic
//!   [`Model::jacobian_sparse`] or from forward differences with Curtis–Powell–Reid column
//!   grouping: one right-hand side per group of structurally orthogonal columns
//!   ([`GroupedDifference`]), `l + u + 1` for a band instead of `n_d`. The increments are those
//!   of the dense path, `δ_j = √ε·max(|y_j|, s_j)`.
//! - `I/(hγ) − J_dd` is factored by faer's sparse LU ([`SparseLu`]), symbolic analysis once.
//! - Quadrature rows (work integrals) may depend on every dynamic state, so they are not
//!   differenced column by column: their stage increments `u_q = hγ·(r_q + J_qd·u_d)` take
//!   `J_qd·u_d` as one directional difference `(f_q(y + σu_d) − f_q(y))/σ` per stage, with
//!   `σ` such that no component moves by more than `√ε·max(|y_j|, s_j)`.

use super::column_groups::GroupedDifference;
use super::jacobian_structure::SparsityPattern;
use super::sparse_lu::SparseLu;
use super::{Model, Tolerance};

/// Jacobian values, grouping and factorisation of one declared pattern.
#[derive(Debug)]
pub(super) struct SparseSystem {
    pattern: SparsityPattern,
    diff: GroupedDifference,
    /// `J_dd` in pattern order.
    values: Vec<f64>,
    lu: SparseLu,
    /// Difference increments `δ_j` (and the scales of the directional differences).
    delta: Vec<f64>,
    y_dir: Vec<f64>,
    f_dir: Vec<f64>,
}

impl SparseSystem {
    /// Set-up for the dynamic-block pattern `pattern` of a model of dimension `n`; `None` when
    /// faer's symbolic analysis fails (the caller then uses the dense path).
    pub(super) fn new(pattern: SparsityPattern, n: usize) -> Option<Self> {
        let lu = SparseLu::new(&pattern).ok()?;
        Some(Self {
            diff: GroupedDifference::new(&pattern, n),
            values: vec![0.0; pattern.nnz()],
            lu,
            delta: vec![0.0; pattern.dim()],
            y_dir: vec![0.0; n],
            f_dir: vec![0.0; n],
            pattern,
        })
    }

    /// Dimension of the dynamic block.
    pub(super) fn dim(&self) -> usize {
        self.pattern.dim()
    }

    /// `J_dd` at `(t, y)` with `f0 = f(t, y)`; returns the right-hand-side evaluations spent.
    pub(super) fn prepare(
        &mut self,
        model: &dyn Model,
        t: f64,
        y: &[f64],
        f0: &[f64],
        tol: &Tolerance,
    ) -> u64 {
        for (j, d) in self.delta.iter_mut().enumerate() {
            let scale = tol.atol[j] / tol.rtol;
            *d = f64::EPSILON.sqrt() * y[j].abs().max(scale);
        }
        if model.jacobian_sparse(t, y, &mut self.values) {
            return 0;
        }
        self.diff.difference(
            model,
            t,
            y,
            f0,
            &self.delta,
            &self.pattern,
            &mut self.values,
        )
    }

    /// Factors `I/(hγ) − J_dd` with `inv_hg = 1/(hγ)`; `false` if structurally singular.
    pub(super) fn factor(&mut self, inv_hg: f64) -> bool {
        self.lu.factor(inv_hg, &self.values)
    }

    /// Solves one stage: `u_d = (I/(hγ) − J_dd)⁻¹ r_d`, then the quadratures
    /// `u_q = hγ·(r_q + J_qd·u_d)` (module documentation). `y` and `f0` are the step's start
    /// point; returns the right-hand-side evaluations spent.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn solve(
        &mut self,
        model: &dyn Model,
        t: f64,
        y: &[f64],
        f0: &[f64],
        r: &[f64],
        u: &mut [f64],
        hg: f64,
    ) -> u64 {
        let (n, nd) = (y.len(), self.dim());
        u[..nd].copy_from_slice(&r[..nd]);
        self.lu.solve_in_place(&mut u[..nd]);
        if nd == n {
            return 0;
        }
        // σ·|u_j| ≤ δ_j for every dynamic component.
        let reach = (0..nd)
            .map(|j| u[j].abs() / self.delta[j])
            .fold(0.0f64, f64::max);
        if reach == 0.0 || !reach.is_finite() {
            for i in nd..n {
                u[i] = hg * r[i];
            }
            return 0;
        }
        let sigma = 1.0 / reach;
        self.y_dir[..n].copy_from_slice(y);
        for j in 0..nd {
            self.y_dir[j] += sigma * u[j];
        }
        model.rhs(t, &self.y_dir[..n], &mut self.f_dir[..n]);
        for i in nd..n {
            let coupling = (self.f_dir[i] - f0[i]) / sigma;
            u[i] = hg * (r[i] + coupling);
        }
        1
    }
}
