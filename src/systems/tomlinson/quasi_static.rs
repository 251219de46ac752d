//! The Prandtl–Tomlinson tip at vanishing speed and zero temperature: the equilibria of the
//! total energy `E(x; X) = U₀·(1 − cos(2πx/a)) + ½k·(x − X)²` for a support position `X`, the
//! point where the occupied minimum disappears, and the friction this leaves as `v → 0`.
//!
//! * Equilibria: `E′ = (2πU₀/a)·sin(2πx/a) + k·(x − X) = 0`, all within
//!   `|x − X| ≤ 2πU₀/(k·a) = η·a/2π`; a minimum where `E″ = k·(1 + η·cos(2πx/a)) > 0`.
//!   More than one minimum for some `X` exactly when `η > 1`.
//! * Slip point: the minimum of well 0 merges with the saddle where `E″ = 0`,
//!   `cos(2πx*/a) = −1/η` (the root in `(a/4, a/2)`); the force balance gives the support
//!   `X* = x* + (2πU₀/(k·a))·sin(2πx*/a)` and the largest lateral force
//!   `F* = k·(X* − x*) = (2πU₀/a)·√(1 − 1/η²)`.
//! * Athermal friction as `v → 0`: at the slip point the tip falls to the next minimum
//!   downhill, dissipating `ΔE = E(x*; X*) − E(x_next; X*)`; once per lattice period, so the
//!   mean lateral force is `ΔE/a` (with the tip landing in the adjacent well, as it does when
//!   the slip is damped).

use std::f64::consts::{PI, TAU};

use super::TomlinsonParams;

/// The quasi-static tip of a parameter set.
#[derive(Clone, Copy, Debug)]
pub struct QuasiStatic {
    a: f64,
    u0: f64,
    k: f64,
}

/// Where the occupied minimum of well 0 disappears.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlipPoint {
    /// Support position `X*` [m].
    pub support_m: f64,
    /// Tip position `x*` [m].
    pub tip_m: f64,
    /// Lateral force `k·(X* − x*)` [N].
    pub force_n: f64,
}

impl QuasiStatic {
    /// The quasi-static problem of `p`.
    pub fn new(p: &TomlinsonParams) -> Self {
        Self {
            a: p.lattice,
            u0: p.corrugation,
            k: p.stiffness,
        }
    }

    /// `η = 4π²U₀/(k·a²)`.
    pub fn eta(&self) -> f64 {
        4.0 * PI * PI * self.u0 / (self.k * self.a * self.a)
    }

    /// Total energy `E(x; X)` [J].
    pub fn energy(&self, x: f64, support: f64) -> f64 {
        self.u0 * (1.0 - (TAU * x / self.a).cos()) + 0.5 * self.k * (x - support).powi(2)
    }

    /// `∂E/∂x` [N].
    pub fn gradient(&self, x: f64, support: f64) -> f64 {
        TAU * self.u0 / self.a * (TAU * x / self.a).sin() + self.k * (x - support)
    }

    /// The minima of `E(·; X)`, ascending [m].
    pub fn minima(&self, support: f64) -> Vec<f64> {
        let reach = TAU * self.u0 / (self.k * self.a) + self.a;
        let h = self.a / 400.0;
        let n = (2.0 * reach / h).ceil() as usize;
        let x = |i: usize| support - reach + i as f64 * h;
        let mut out = Vec::new();
        let mut g0 = self.gradient(x(0), support);
        for i in 1..=n {
            let g1 = self.gradient(x(i), support);
            // E′ from negative to non-negative: a minimum in between.
            if g0 < 0.0 && g1 >= 0.0 {
                out.push(self.bisect(x(i - 1), x(i), support));
            }
            g0 = g1;
        }
        out
    }

    fn bisect(&self, mut lo: f64, mut hi: f64, support: f64) -> f64 {
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            if self.gradient(mid, support) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }

    /// The slip point of well 0 (`None` for `η ≤ 1`: no slip, the tip slides smoothly).
    pub fn slip_point(&self) -> Option<SlipPoint> {
        let eta = self.eta();
        if eta <= 1.0 {
            return None;
        }
        let q = (-1.0 / eta).acos();
        let tip = self.a * q / TAU;
        let force = TAU * self.u0 / self.a * q.sin();
        Some(SlipPoint {
            support_m: tip + force / self.k,
            tip_m: tip,
            force_n: force,
        })
    }

    /// The minimum the tip falls into from the slip point: the first one downhill (to the
    /// right) [m].
    pub fn landing(&self, slip: &SlipPoint) -> Option<f64> {
        self.minima(slip.support_m)
            .into_iter()
            .find(|&x| x > slip.tip_m + 1e-9 * self.a)
    }

    /// Mean lateral force as `v → 0` at `T = 0`: the energy one slip dissipates over the
    /// lattice period [N]; `0` for `η ≤ 1`; `None` when the damped slip would not land in the
    /// adjacent well.
    pub fn athermal_friction_n(&self) -> Option<f64> {
        let Some(slip) = self.slip_point() else {
            return Some(0.0);
        };
        let x = self.landing(&slip)?;
        if x - slip.tip_m > self.a {
            return None;
        }
        let drop = self.energy(slip.tip_m, slip.support_m) - self.energy(x, slip.support_m);
        Some(drop / self.a)
    }
}
