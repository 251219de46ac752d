//! Rodas4: a stiffly accurate, L-stable Rosenbrock method of order 4(3) with six stages
//! (Hairer & Wanner, *Solving ODE II*, §IV.7, code RODAS; coefficients of RODAS4).
//!
//! Each step solves six linear systems with the same matrix `(I/(hγ) − J)`:
//! ```text
//! (I/(hγ) − J)·u_i = f(t + c_i h, y + Σ_{j<i} a_ij u_j) + Σ_{j<i} (C_ij/h)·u_j + h·d_i·∂f/∂t
//! y_new = y + Σ_{j<6} a_6j u_j + u_6,          error estimate = u_6
//! ```
//! `J = ∂f/∂y` comes from forward differences over the non-quadrature components (one right-hand
//! side per column) and is reused across rejected steps from the same point. Dense output is the
//! method's own 3rd-order interpolant `y(θ) = (1−θ)y₀ + θ(y₁ + (1−θ)(k₁ + θk₂))`.

use super::linalg::DenseLu;
use super::stepper::Stepper;
use super::{Model, Tolerance};

const STAGES: usize = 6;
const GAMMA: f64 = 0.25;
const A: [[f64; 5]; 6] = [
    [0.0, 0.0, 0.0, 0.0, 0.0],
    [1.544, 0.0, 0.0, 0.0, 0.0],
    [0.9466785280815826, 0.2557011698983284, 0.0, 0.0, 0.0],
    [
        3.314825187068521,
        2.896124015972201,
        0.9986419139977817,
        0.0,
        0.0,
    ],
    [
        1.221224509226641,
        6.019134481288629,
        12.53708332932087,
        -0.687886036105895,
        0.0,
    ],
    [
        1.221224509226641,
        6.019134481288629,
        12.53708332932087,
        -0.687886036105895,
        1.0,
    ],
];
const C: [[f64; 5]; 6] = [
    [0.0, 0.0, 0.0, 0.0, 0.0],
    [-5.6688, 0.0, 0.0, 0.0, 0.0],
    [-2.430093356833875, -0.2063599157091915, 0.0, 0.0, 0.0],
    [
        -0.1073529058151375,
        -9.594562251023355,
        -20.47028614809616,
        0.0,
        0.0,
    ],
    [
        7.496443313967647,
        -10.24680431464352,
        -33.99990352819905,
        11.7089089320616,
        0.0,
    ],
    [
        8.083246795921522,
        -7.981132988064893,
        -31.52159432874371,
        16.31930543123136,
        -6.058818238834054,
    ],
];
const CT: [f64; 6] = [0.0, 0.386, 0.21, 0.63, 1.0, 1.0];
const D: [f64; 6] = [0.25, -0.1043, 0.1035, -0.0362, 0.0, 0.0];
const H: [[f64; 5]; 2] = [
    [
        10.12623508344586,
        -7.487995877610167,
        -34.80091861555747,
        -7.992771707568823,
        1.025137723295662,
    ],
    [
        -0.6762803392801253,
        6.087714651680015,
        16.43084320892478,
        24.76722511418386,
        -6.594389125716872,
    ],
];

/// Rodas4 stepper with finite-difference Jacobian.
///
/// Quadrature components (work integrals) feed nothing back: their Jacobian columns are zero, so
/// only the `n_d × n_d` block of the dynamic components is factored and the quadrature stage
/// increments follow explicitly, `u_q = hγ·(r_q + J_qd·u_d)`.
#[derive(Clone, Debug)]
pub struct Rodas4 {
    n: usize,
    /// Number of dynamic (non-quadrature) components, set at the first step.
    nd: usize,
    u: [Vec<f64>; STAGES],
    f0: Vec<f64>,
    ft: Vec<f64>,
    stage_y: Vec<f64>,
    stage_f: Vec<f64>,
    rhs: Vec<f64>,
    /// `∂f/∂y` restricted to the dynamic columns, row-major `n × n_d`.
    jac: Vec<f64>,
    lu: DenseLu,
    /// `f0`, `ft` and `jac` hold data of the current start point.
    start_valid: bool,
    /// `h` of the current factorisation (NaN when none).
    factored_for_h: f64,
    y0: Vec<f64>,
    y1: Vec<f64>,
    k_dense: [Vec<f64>; 2],
    evals: u64,
}

impl Rodas4 {
    /// Workspace for a system of dimension `n`.
    pub fn new(n: usize) -> Self {
        Self {
            n,
            nd: n,
            u: std::array::from_fn(|_| vec![0.0; n]),
            f0: vec![0.0; n],
            ft: vec![0.0; n],
            stage_y: vec![0.0; n],
            stage_f: vec![0.0; n],
            rhs: vec![0.0; n],
            jac: vec![0.0; n * n],
            lu: DenseLu::new(n),
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
        if nd != self.nd {
            self.nd = nd;
            self.lu = DenseLu::new(nd);
        }
        model.rhs(t, y, &mut self.f0);
        self.evals += 1;
        self.stage_y.copy_from_slice(y);
        for j in 0..nd {
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
        self.evals += nd as u64;
        if model.is_autonomous() {
            self.ft.iter_mut().for_each(|v| *v = 0.0);
        } else {
            let dt = (f64::EPSILON * t.abs().max(1e-5)).sqrt();
            model.rhs(t + dt, y, &mut self.stage_f);
            self.evals += 1;
            for i in 0..n {
                self.ft[i] = (self.stage_f[i] - self.f0[i]) / dt;
            }
        }
        self.start_valid = true;
        self.factored_for_h = f64::NAN;
    }

    /// Factors `I/(hγ) − J_dd`; returns `false` if singular.
    fn factor(&mut self, h: f64) -> bool {
        let nd = self.nd;
        let diag = 1.0 / (h * GAMMA);
        let m = self.lu.matrix_mut();
        for i in 0..nd {
            let row = &self.jac[i * nd..(i + 1) * nd];
            let out = &mut m[i * nd..(i + 1) * nd];
            for (o, j) in out.iter_mut().zip(row) {
                *o = -j;
            }
            out[i] += diag;
        }
        self.factored_for_h = h;
        self.lu.factor()
    }

    /// Solves `(I/(hγ) − J)·u = r` for one stage: LU on the dynamic block, explicit
    /// quadratures.
    fn solve_stage(&mut self, s: usize, h: f64) {
        let (n, nd) = (self.n, self.nd);
        let u = &mut self.u[s];
        u.copy_from_slice(&self.rhs);
        self.lu.solve(&mut u[..nd]);
        let hg = h * GAMMA;
        for i in nd..n {
            let row = &self.jac[i * nd..(i + 1) * nd];
            let coupling: f64 = row.iter().zip(&u[..nd]).map(|(a, b)| a * b).sum();
            u[i] = hg * (self.rhs[i] + coupling);
        }
    }
}

impl Stepper for Rodas4 {
    fn name(&self) -> &'static str {
        "Rodas4"
    }

    fn order(&self) -> usize {
        4
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
        let n = self.n;
        if !self.start_valid {
            self.prepare_start(model, t, y, tol);
        }
        if self.factored_for_h != h && !self.factor(h) {
            return f64::INFINITY;
        }
        for s in 0..STAGES {
            // Stage argument y + Σ a_sj u_j.
            self.stage_y.copy_from_slice(y);
            for (j, &a) in A[s][..s].iter().enumerate() {
                if a != 0.0 {
                    for (sy, uj) in self.stage_y.iter_mut().zip(&self.u[j]) {
                        *sy += a * uj;
                    }
                }
            }
            if s == 0 {
                self.stage_f.copy_from_slice(&self.f0);
            } else {
                model.rhs(t + CT[s] * h, &self.stage_y, &mut self.stage_f);
                self.evals += 1;
            }
            // r = f + h·d_s·f_t + Σ (C_sj/h)·u_j
            let hd = h * D[s];
            for i in 0..n {
                self.rhs[i] = self.stage_f[i] + hd * self.ft[i];
            }
            for (j, &c) in C[s][..s].iter().enumerate() {
                let c = c / h;
                for (r, uj) in self.rhs.iter_mut().zip(&self.u[j]) {
                    *r += c * uj;
                }
            }
            self.solve_stage(s, h);
        }
        for i in 0..n {
            y_new[i] = self.stage_y[i] + self.u[STAGES - 1][i];
        }
        if y_new.iter().any(|v| !v.is_finite()) {
            return f64::INFINITY;
        }
        tol.error_norm(&self.u[STAGES - 1], y, y_new)
    }

    fn dense(&self, theta: f64, out: &mut [f64]) {
        let th1 = 1.0 - theta;
        let [k1, k2] = &self.k_dense;
        for i in 0..out.len() {
            out[i] = th1 * self.y0[i] + theta * (self.y1[i] + th1 * (k1[i] + theta * k2[i]));
        }
    }

    fn prepare_dense(&mut self, y: &[f64], y_new: &[f64]) {
        for (row, k) in H.iter().zip(self.k_dense.iter_mut()) {
            k.iter_mut().for_each(|v| *v = 0.0);
            for (j, &hj) in row.iter().enumerate() {
                for (kv, uj) in k.iter_mut().zip(&self.u[j]) {
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
