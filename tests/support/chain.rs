//! A synthetic stiff chain for the structured-Jacobian tests and the scaling measurement:
//! `N` unit masses in a line, each tied to its neighbours (free ends) and to the ground,
//! with smoothed Coulomb friction against a moving belt and, on every fourth block, a stiff
//! damper; the first block is forced. States interleaved, `y = [x_0, v_0, x_1, v_1, …, W]`:
//! ```text
//! ẋ_k = v_k
//! v̇_k = −k_c·(2x_k − x_{k−1} − x_{k+1}) − k_g·x_k − c_k·v_k − F·tanh((v_k − v_b)/ε) + δ_k0·A·sin(ωt)
//! Ẇ  = Σ_k c_k·v_k²        (damper work, a quadrature)
//! ```
//! The dynamic block is banded with `lower = 3` (v̇_k on x_{k−1}) and `upper = 1`
//! (ẋ_k on v_k, v̇_k on x_{k+1}); its exact pattern has 5 entries per block.
//! Eigenvalues reach `−c_stiff = −10⁴/s` and `−F/ε = −10³/s`: stiff, so the Rosenbrock
//! matrix matters.

#![allow(dead_code)]

use tribolab::integrate::{Column, JacobianStructure, Model, SparsityPattern};

/// Coupling stiffness [N/m].
pub const K_C: f64 = 400.0;
/// Ground stiffness [N/m].
pub const K_G: f64 = 25.0;
/// Damping of a stiff block [N·s/m].
pub const C_STIFF: f64 = 1e4;
/// Damping of the other blocks [N·s/m].
pub const C_SOFT: f64 = 0.5;
/// Friction level [N].
pub const F_FRICTION: f64 = 1.0;
/// Friction smoothing velocity [m/s].
pub const EPS_V: f64 = 1e-3;
/// Belt velocity [m/s].
pub const V_BELT: f64 = 0.05;
/// Forcing amplitude [N] and frequency [rad/s] on block 0.
pub const FORCE_N: f64 = 2.0;
pub const OMEGA: f64 = 7.0;

/// How the chain declares its Jacobian.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    /// The default (dense path).
    Dense,
    /// `Banded { lower: 3, upper: 1 }`.
    Banded,
    /// The exact 5-per-block pattern.
    Sparse,
    /// The band with analytic values (`jacobian_sparse`).
    BandedAnalytic,
    /// A band too narrow for the model (`lower = 1`, missing v̇_k's dependence on x_{k−1}):
    /// a wrong declaration, for negative checks.
    TooNarrow,
}

/// The chain of `blocks` blocks.
#[derive(Clone, Debug)]
pub struct Chain {
    pub blocks: usize,
    pub declared: Declared,
}

impl Chain {
    pub fn new(blocks: usize, declared: Declared) -> Self {
        Self { blocks, declared }
    }

    /// Initial state: a smooth initial deflection with one kink, at rest, no work done.
    pub fn initial_state(&self) -> Vec<f64> {
        let n = self.blocks;
        let mut y = vec![0.0; 2 * n + 1];
        for k in 0..n {
            let s = (k as f64 + 0.5) / n as f64;
            y[2 * k] =
                0.01 * (std::f64::consts::PI * s).sin() + if k == n / 3 { 0.005 } else { 0.0 };
        }
        y
    }

    fn damping(k: usize) -> f64 {
        if k % 4 == 3 { C_STIFF } else { C_SOFT }
    }

    /// The exact pattern of the dynamic block.
    pub fn exact_pattern(&self) -> SparsityPattern {
        let n = self.blocks;
        let mut e = Vec::new();
        for k in 0..n {
            let (x, v) = (2 * k, 2 * k + 1);
            e.push((x, v));
            e.push((v, x));
            e.push((v, v));
            if k > 0 {
                e.push((v, x - 2));
            }
            if k + 1 < n {
                e.push((v, x + 2));
            }
        }
        SparsityPattern::from_entries(2 * n, e).expect("entries inside the block")
    }

    /// Analytic `∂f/∂y` entry of the dynamic block.
    pub fn jacobian_entry(&self, y: &[f64], i: usize, j: usize) -> f64 {
        let n = self.blocks;
        let k = i / 2;
        if i.is_multiple_of(2) {
            return if j == i + 1 { 1.0 } else { 0.0 };
        }
        let x = 2 * k;
        let neighbours = usize::from(k > 0) + usize::from(k + 1 < n);
        if j == x {
            -K_C * neighbours as f64 - K_G
        } else if j == i {
            let s = ((y[i] - V_BELT) / EPS_V).tanh();
            -Self::damping(k) - F_FRICTION * (1.0 - s * s) / EPS_V
        } else if (k > 0 && j + 2 == x) || (k + 1 < n && j == x + 2) {
            K_C
        } else {
            0.0
        }
    }
}

impl Model for Chain {
    fn dim(&self) -> usize {
        2 * self.blocks + 1
    }
    fn n_quadratures(&self) -> usize {
        1
    }
    fn state_names(&self) -> Vec<String> {
        let mut v: Vec<String> = (0..self.blocks)
            .flat_map(|k| [format!("x{k}"), format!("v{k}")])
            .collect();
        v.push("work".into());
        v
    }
    fn state_scales(&self, s: &mut [f64]) {
        for k in 0..self.blocks {
            s[2 * k] = 0.01;
            s[2 * k + 1] = 0.1;
        }
        s[2 * self.blocks] = 1e-3;
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let n = self.blocks;
        let mut work = 0.0;
        for k in 0..n {
            let (x, v) = (y[2 * k], y[2 * k + 1]);
            let mut spring = -K_G * x;
            if k > 0 {
                spring -= K_C * (x - y[2 * k - 2]);
            }
            if k + 1 < n {
                spring -= K_C * (x - y[2 * k + 2]);
            }
            let c = Self::damping(k);
            let mut a = spring - c * v - F_FRICTION * ((v - V_BELT) / EPS_V).tanh();
            if k == 0 {
                a += FORCE_N * (OMEGA * t).sin();
            }
            dy[2 * k] = v;
            dy[2 * k + 1] = a;
            work += c * v * v;
        }
        dy[2 * n] = work;
    }
    fn columns(&self) -> Vec<Column> {
        vec![
            Column::new("x0", "m"),
            Column::new("v_mid", "m/s"),
            Column::new("work", "J"),
        ]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        let n = self.blocks;
        row[0] = y[0];
        row[1] = y[2 * (n / 2) + 1];
        row[2] = y[2 * n];
    }
    fn jacobian_structure(&self) -> JacobianStructure {
        match self.declared {
            Declared::Dense => JacobianStructure::Dense,
            Declared::Banded | Declared::BandedAnalytic => {
                JacobianStructure::Banded { lower: 3, upper: 1 }
            }
            Declared::Sparse => JacobianStructure::Sparse(self.exact_pattern()),
            Declared::TooNarrow => JacobianStructure::Banded { lower: 1, upper: 1 },
        }
    }
    fn jacobian_sparse(&self, _t: f64, y: &[f64], values: &mut [f64]) -> bool {
        if self.declared != Declared::BandedAnalytic {
            return false;
        }
        let p = SparsityPattern::banded(2 * self.blocks, 3, 1);
        for (v, (i, j)) in values.iter_mut().zip(p.entries()) {
            *v = self.jacobian_entry(y, i, j);
        }
        true
    }
}
