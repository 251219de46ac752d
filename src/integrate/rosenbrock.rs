//! Stiffly accurate, L-stable Rosenbrock methods of the Rodas family (Hairer & Wanner,
//! *Solving ODE II*, §IV.7, code RODAS): Rodas4, order 4(3) with six stages, and Rodas5
//! (Di Marzo 1993), order 5(4) with eight stages. Coefficients in `rosenbrock_tableaus.rs`.
//!
//! Each step solves `s` linear systems with the same matrix `(I/(hγ) − J)`:
//! ```text
//! (I/(hγ) − J)·u_i = f(t + c_i h, y + Σ_{j<i} a_ij u_j) + Σ_{j<i} (C_ij/h)·u_j + h·d_i·∂f/∂t
//! y_new = y + Σ_{j<s} a_sj u_j + u_s,          error estimate = u_s
//! ```
//! `J = ∂f/∂y` comes from the model's analytic Jacobian or from forward differences over the
//! non-quadrature components, and is reused across rejected steps from the same point. Small
//! (dense) systems difference one column per right-hand side and solve through an explicit
//! inverse ([`linalg`](super::linalg)); a model that declares a banded or sparse dynamic block
//! ([`Model::jacobian_structure`]) gets grouped differences and faer's sparse LU
//! (`rosenbrock_sparse.rs`). Dense output is the
//! method's own interpolant `y(θ) = (1−θ)y₀ + θ(y₁ + (1−θ)(k₁ + θ(k₂ + θk₃)))`, `k_r = Σ_j H_rj u_j`
//! (k₃ = 0 for Rodas4).

use super::jacobian_structure::JacobianStructure;
use super::linalg::{DenseLu, INVERSE_MAX_DIM, invert};
use super::rosenbrock_sparse::SparseSystem;
use super::rosenbrock_tableaus::Tableau;
use super::stepper::Stepper;
use super::{Model, Tolerance};

/// Rodas-type Rosenbrock stepper with finite-difference Jacobian.
///
/// Quadrature components (work integrals) feed nothing back: their Jacobian columns are zero, so
/// only the `n_d × n_d` block of the dynamic components is factored and the quadrature stage
/// increments follow explicitly, `u_q = hγ·(r_q + J_qd·u_d)`.
#[derive(Debug)]
pub struct Rosenbrock<const N: usize = 0> {
    tab: &'static Tableau,
    n: usize,
    /// Number of dynamic (non-quadrature) components, set at the first step.
    nd: usize,
    /// The linear algebra is set up for `nd` (at the first step).
    configured: bool,
    /// Stage increments, flat: `u[s·n + i]`.
    u: Vec<f64>,
    /// Explicit inverse of the factored `n_d × n_d` block (dense systems up to
    /// [`INVERSE_MAX_DIM`] solve by a matrix–vector product instead of two triangular sweeps).
    inv: Vec<f64>,
    f0: Vec<f64>,
    ft: Vec<f64>,
    stage_y: Vec<f64>,
    stage_f: Vec<f64>,
    rhs: Vec<f64>,
    /// `∂f/∂y` restricted to the dynamic columns, row-major `n × n_d` (dense path).
    jac: Vec<f64>,
    /// `I/(hγ) − J_dd`, row-major (dense path).
    matrix: Vec<f64>,
    /// LU of `matrix` for dense systems above [`INVERSE_MAX_DIM`].
    lu: DenseLu,
    /// The structured path, when the model declares a banded or sparse Jacobian.
    sparse: Option<SparseSystem>,
    /// `f0`, `ft` and `jac` hold data of the current start point.
    start_valid: bool,
    /// `h` of the current factorisation (NaN when none).
    factored_for_h: f64,
    y0: Vec<f64>,
    y1: Vec<f64>,
    k_dense: [Vec<f64>; 3],
    evals: u64,
}

impl<const N: usize> Rosenbrock<N> {
    /// State dimension: the compile-time `N` when given (loops unroll, no bounds checks), else
    /// the run-time one.
    #[inline(always)]
    fn dim(&self) -> usize {
        if N > 0 { N } else { self.n }
    }

    /// Workspace for a system of dimension `n` with the given method (`N` is 0 or `n`).
    pub fn new(tab: &'static Tableau, n: usize) -> Self {
        debug_assert!(N == 0 || N == n);
        Self {
            tab,
            n,
            nd: n,
            configured: false,
            u: vec![0.0; tab.stages * n],
            inv: Vec::new(),
            f0: vec![0.0; n],
            ft: vec![0.0; n],
            stage_y: vec![0.0; n],
            stage_f: vec![0.0; n],
            rhs: vec![0.0; n],
            jac: Vec::new(),
            matrix: Vec::new(),
            lu: DenseLu::default(),
            sparse: None,
            start_valid: false,
            factored_for_h: f64::NAN,
            y0: vec![0.0; n],
            y1: vec![0.0; n],
            k_dense: std::array::from_fn(|_| vec![0.0; n]),
            evals: 0,
        }
    }

    /// Evaluates `f0`, `∂f/∂t` and the Jacobian at the start point. The difference increment
    /// of component `j` is `√ε·max(|y_j|, s_j)` with `s_j = atol_j/rtol` its typical
    /// magnitude, so states far from unity (bristle deflections of 1e-8 m) are probed at their
    /// own scale.
    fn prepare_start(&mut self, model: &dyn Model, t: f64, y: &[f64], tol: &Tolerance) {
        let n = self.n;
        let nd = n - model.n_quadratures();
        if nd != self.nd || !self.configured {
            self.configure(model, nd);
        }
        model.rhs(t, y, &mut self.f0);
        self.evals += 1;
        if let Some(sparse) = &mut self.sparse {
            self.evals += sparse.prepare(model, t, y, &self.f0, tol);
        } else {
            self.dense_jacobian(model, t, y, tol);
        }
        if model.is_autonomous() {
            self.ft.iter_mut().for_each(|v| *v = 0.0);
        } else {
            // A forward difference that would reach past the model's next breakpoint (a
            // jump of an imposed velocity) differences across the jump: the step ending on
            // the breakpoint then collapses. Look backwards instead.
            let mut dt = (f64::EPSILON * t.abs().max(1e-5)).sqrt();
            if t + dt >= model.next_breakpoint_s(t) {
                dt = -dt;
            }
            model.rhs(t + dt, y, &mut self.stage_f);
            self.evals += 1;
            for i in 0..n {
                self.ft[i] = (self.stage_f[i] - self.f0[i]) / dt;
            }
        }
        self.start_valid = true;
        self.factored_for_h = f64::NAN;
    }

    /// Sets up the linear algebra for `nd` dynamic components: the structured path when the
    /// model declares a banded or sparse block (and faer accepts its pattern), else dense.
    fn configure(&mut self, model: &dyn Model, nd: usize) {
        self.nd = nd;
        self.configured = true;
        let structure = model.jacobian_structure();
        debug_assert!(
            !matches!(&structure, JacobianStructure::Sparse(p) if p.dim() != nd),
            "the declared sparsity pattern does not have the dynamic dimension {nd}"
        );
        self.sparse = structure
            .pattern(nd)
            .and_then(|p| SparseSystem::new(p, self.n));
        let (jac_len, inv_len) = if self.sparse.is_some() {
            (0, 0)
        } else {
            (self.n * nd, nd * nd)
        };
        self.jac = vec![0.0; jac_len];
        self.matrix = vec![0.0; inv_len];
        self.inv = vec![0.0; if nd <= INVERSE_MAX_DIM { inv_len } else { 0 }];
    }

    /// The dense Jacobian `n × n_d`: the model's analytic one, or forward differences, one
    /// right-hand side per dynamic column.
    fn dense_jacobian(&mut self, model: &dyn Model, t: f64, y: &[f64], tol: &Tolerance) {
        let (n, nd) = (self.n, self.nd);
        self.stage_y.copy_from_slice(y);
        let analytic = model.jacobian(t, y, &mut self.jac[..n * nd]);
        for j in 0..if analytic { 0 } else { nd } {
            let yj = y[j];
            let scale = tol.atol[j] / tol.rtol;
            let delta = f64::EPSILON.sqrt() * yj.abs().max(scale);
            self.stage_y[j] = yj + delta;
            model.rhs(t, &self.stage_y, &mut self.stage_f);
            self.stage_y[j] = yj;
            for i in 0..n {
                self.jac[i * nd + j] = (self.stage_f[i] - self.f0[i]) / delta;
            }
        }
        if !analytic {
            self.evals += nd as u64;
        }
    }

    /// Factors `I/(hγ) − J_dd`; returns `false` if singular.
    fn factor(&mut self, h: f64) -> bool {
        let nd = self.nd;
        let diag = 1.0 / (h * self.tab.gamma);
        self.factored_for_h = h;
        if let Some(sparse) = &mut self.sparse {
            return sparse.factor(diag);
        }
        let m = &mut self.matrix[..nd * nd];
        for i in 0..nd {
            let row = &self.jac[i * nd..(i + 1) * nd];
            let out = &mut m[i * nd..(i + 1) * nd];
            for (o, j) in out.iter_mut().zip(row) {
                *o = -j;
            }
            out[i] += diag;
        }
        if nd <= INVERSE_MAX_DIM {
            invert(m, nd, &mut self.inv[..nd * nd])
        } else {
            self.lu.factor(m, nd)
        }
    }

    /// Solves `(I/(hγ) − J)·u_s = r` for one stage: the dynamic block (its inverse, its dense
    /// LU or the sparse LU), then the quadratures explicitly. `(t, y)` is the step's start;
    /// returns the right-hand-side evaluations spent.
    fn solve_stage(&mut self, model: &dyn Model, t: f64, y: &[f64], s: usize, h: f64) -> u64 {
        let (n, nd) = (self.dim(), self.nd);
        let u = &mut self.u[s * n..(s + 1) * n];
        let r = &self.rhs[..n];
        let hg = h * self.tab.gamma;
        if let Some(sparse) = &mut self.sparse {
            return sparse.solve(model, t, y, &self.f0[..n], r, u, hg);
        }
        if nd <= INVERSE_MAX_DIM {
            for i in 0..nd {
                let row = &self.inv[i * nd..(i + 1) * nd];
                u[i] = row.iter().zip(&r[..nd]).map(|(a, b)| a * b).sum();
            }
        } else {
            u[..nd].copy_from_slice(&r[..nd]);
            self.lu.solve(&mut u[..nd]);
        }
        for i in nd..n {
            let row = &self.jac[i * nd..(i + 1) * nd];
            let coupling: f64 = row.iter().zip(&u[..nd]).map(|(a, b)| a * b).sum();
            u[i] = hg * (r[i] + coupling);
        }
        0
    }
}

impl<const N: usize> Stepper for Rosenbrock<N> {
    fn name(&self) -> &'static str {
        self.tab.name
    }

    fn order(&self) -> usize {
        self.tab.order
    }

    fn step(
        &mut self,
        model: &dyn Model,
        t: f64,
        y: &[f64],
        h: f64,
        y_new: &mut [f64],
        tol: &Tolerance,
    ) -> f64 {
        let n = self.dim();
        if !self.start_valid {
            self.prepare_start(model, t, y, tol);
        }
        if self.factored_for_h != h && !self.factor(h) {
            return f64::INFINITY;
        }
        let tab = self.tab;
        let stages = tab.stages;
        let y = &y[..n];
        let inv_h = 1.0 / h;
        for s in 0..stages {
            let (a, gc) = (tab.a[s], tab.gamma_c[s]);
            let (done, _) = self.u.split_at(s * n);
            if s == 0 {
                self.stage_f[..n].copy_from_slice(&self.f0[..n]);
            } else {
                // Stage argument y + Σ a_sj u_j.
                let sy = &mut self.stage_y[..n];
                sy.copy_from_slice(y);
                for (j, &aj) in a.iter().enumerate() {
                    let uj = &done[j * n..(j + 1) * n];
                    for i in 0..n {
                        sy[i] += aj * uj[i];
                    }
                }
                model.rhs(t + tab.c[s] * h, &self.stage_y, &mut self.stage_f);
                self.evals += 1;
            }
            // r = f + h·d_s·f_t + Σ (C_sj/h)·u_j
            let hd = h * tab.d[s];
            let r = &mut self.rhs[..n];
            let (f, ft) = (&self.stage_f[..n], &self.ft[..n]);
            for i in 0..n {
                r[i] = f[i] + hd * ft[i];
            }
            for (j, &cj) in gc.iter().enumerate() {
                let uj = &done[j * n..(j + 1) * n];
                let c = cj * inv_h;
                for i in 0..n {
                    r[i] += c * uj[i];
                }
            }
            self.evals += self.solve_stage(model, t, y, s, h);
        }
        // Stiffly accurate: y_new = y + Σ_{j<s} a_sj u_j + u_s (the last stage's argument
        // plus its increment).
        let last = &self.u[(stages - 1) * n..stages * n];
        let (sy, y_new) = (&self.stage_y[..n], &mut y_new[..n]);
        for i in 0..n {
            y_new[i] = sy[i] + last[i];
        }
        if y_new.iter().any(|v| !v.is_finite()) {
            return f64::INFINITY;
        }
        tol.error_norm(last, y, y_new)
    }

    fn dense(&self, theta: f64, out: &mut [f64]) {
        let th1 = 1.0 - theta;
        let [k1, k2, k3] = &self.k_dense;
        for i in 0..out.len() {
            out[i] = th1 * self.y0[i]
                + theta * (self.y1[i] + th1 * (k1[i] + theta * (k2[i] + theta * k3[i])));
        }
    }

    fn prepare_dense(&mut self, y: &[f64], y_new: &[f64]) {
        for k in &mut self.k_dense {
            k.iter_mut().for_each(|v| *v = 0.0);
        }
        let n = self.dim();
        for (row, k) in self.tab.h.iter().zip(self.k_dense.iter_mut()) {
            for (j, &hj) in row.iter().enumerate() {
                for (kv, uj) in k.iter_mut().zip(&self.u[j * n..(j + 1) * n]) {
                    *kv += hj * uj;
                }
            }
        }
        self.y0.copy_from_slice(y);
        self.y1.copy_from_slice(y_new);
    }

    fn accept(&mut self) {
        self.start_valid = false;
    }

    fn reset(&mut self) {
        self.start_valid = false;
    }

    fn rhs_evals(&self) -> u64 {
        self.evals
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integrate::rosenbrock_tableaus::{RODAS4, RODAS5};
    use crate::integrate::{Column, Model};

    /// y' = cos(t)·y, y(0) = 1: y = exp(sin t) (non-autonomous, smooth).
    struct Growth;

    impl Model for Growth {
        fn dim(&self) -> usize {
            1
        }
        fn state_names(&self) -> Vec<String> {
            vec!["y".into()]
        }
        fn state_scales(&self, s: &mut [f64]) {
            s[0] = 1.0;
        }
        fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
            dy[0] = t.cos() * y[0];
        }
        fn columns(&self) -> Vec<Column> {
            vec![]
        }
        fn observe(&self, _t: f64, _y: &[f64], _row: &mut [f64]) {}
    }

    /// One step of size h from t = 0.3; largest error of the step end and of the dense output.
    fn errors(tab: &'static Tableau, h: f64) -> (f64, f64) {
        let mut st = Rosenbrock::<0>::new(tab, 1);
        let tol = Tolerance::from_scales(1e-6, &[1.0], 1);
        let t0: f64 = 0.3;
        let y0 = [t0.sin().exp()];
        let mut y1 = [0.0];
        st.step(&Growth, t0, &y0, h, &mut y1, &tol);
        st.prepare_dense(&y0, &y1);
        let end = (y1[0] - (t0 + h).sin().exp()).abs();
        let mut dense = 0.0f64;
        let mut out = [0.0];
        for k in 1..10 {
            let th = k as f64 / 10.0;
            st.dense(th, &mut out);
            dense = dense.max((out[0] - (t0 + th * h).sin().exp()).abs());
        }
        (end, dense)
    }

    /// `y' = 0` up to and including `b = 2840 s`, `y' = 1` after (an imposed speed that
    /// jumps, held to the end of its piece), with `b` declared a breakpoint.
    struct JumpAt;

    const JUMP_S: f64 = 2840.0;

    impl Model for JumpAt {
        fn dim(&self) -> usize {
            1
        }
        fn state_names(&self) -> Vec<String> {
            vec!["y".into()]
        }
        fn state_scales(&self, s: &mut [f64]) {
            s[0] = 1.0;
        }
        fn next_breakpoint_s(&self, t: f64) -> f64 {
            if t < JUMP_S { JUMP_S } else { f64::INFINITY }
        }
        fn rhs(&self, t: f64, _y: &[f64], dy: &mut [f64]) {
            dy[0] = if t <= JUMP_S { 0.0 } else { 1.0 };
        }
        fn columns(&self) -> Vec<Column> {
            vec![]
        }
        fn observe(&self, _t: f64, _y: &[f64], _row: &mut [f64]) {}
    }

    /// A step that ends on a breakpoint, started closer to it than the time difference of
    /// `∂f/∂t` (√(ε·t) ≈ 0.8 µs at 2840 s), is exact: the difference looks backwards instead
    /// of across the jump (forwards it read ∂f/∂t ≈ 1.3e6 and the step was rejected, again and
    /// again as the driver shrank it, until the step size collapsed).
    #[test]
    fn the_time_difference_does_not_cross_a_breakpoint() {
        let mut st = Rosenbrock::<0>::new(&RODAS4, 1);
        let tol = Tolerance::from_scales(1e-10, &[1.0], 1);
        let h = 1e-7;
        let mut y1 = [0.0];
        let err = st.step(&JumpAt, JUMP_S - h, &[1.0], h, &mut y1, &tol);
        assert!(err < 1e-6, "error estimate {err}");
        assert!((y1[0] - 1.0).abs() < 1e-15, "{}", y1[0]);
    }

    #[test]
    fn step_and_dense_output_have_their_orders() {
        // Local error of a method of order p scales as h^(p+1); dense output of order p_d as
        // h^(p_d+1). Halving h divides them by 2^(p+1) and 2^(p_d+1).
        for (tab, p, pd) in [(&RODAS4, 4, 3), (&RODAS5, 5, 4)] {
            let (e1, d1) = errors(tab, 0.2);
            let (e2, d2) = errors(tab, 0.1);
            let step_ratio = (e1 / e2).log2();
            let dense_ratio = (d1 / d2).log2();
            assert!(
                step_ratio > p as f64 + 0.5,
                "{}: step order {step_ratio}",
                tab.name
            );
            assert!(
                dense_ratio > pd as f64 + 0.5,
                "{}: dense order {dense_ratio}",
                tab.name
            );
        }
    }
}
