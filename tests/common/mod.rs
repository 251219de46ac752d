//! Shared reference for the hysteresis tests: the Masing rules with the memory (wipe-out)
//! rules, written from the textbook statement and independent of the laws' code.
//!
//! Elements `(k_j, Δ_j)`, virgin curve `F_v(x) = Σ_j k_j·min(x, Δ_j)`. On the branch of
//! direction `s` from the last reversal point `(x_r, F_r)`: `F = F_r + s·2·F_v(s·(x − x_r)/2)`
//! (for `s = −1` the MODELS §2.9 form `F = F_r − 2·F_v((x_r − x)/2)`). When the motion passes the
//! reversal point before the last one, the inner loop is closed and both points are forgotten
//! (the older branch continues); passing `−x_1` after the first reversal `x_1` returns to the
//! virgin curve `F = sgn(x)·F_v(|x|)`.

#![allow(dead_code)]

use std::f64::consts::{PI, TAU};

pub fn sgn(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Masing + memory-rule reference for a piecewise-monotone displacement history from rest.
pub struct Masing {
    k: Vec<f64>,
    d: Vec<f64>,
    turns: Vec<(f64, f64)>,
    dir: f64,
    x: f64,
    f: f64,
}

impl Masing {
    /// Reference for elements with stiffnesses `k` [N/m] and slip deflections `d` [m].
    pub fn new(k: Vec<f64>, d: Vec<f64>) -> Self {
        Self {
            k,
            d,
            turns: Vec::new(),
            dir: 0.0,
            x: 0.0,
            f: 0.0,
        }
    }

    /// Virgin curve `F_v(u)`, `u ≥ 0`.
    pub fn virgin(&self, u: f64) -> f64 {
        self.k.iter().zip(&self.d).map(|(k, d)| k * u.min(*d)).sum()
    }

    /// Moves monotonically to `x` (every reversal must be a call) and returns the element force.
    pub fn go_to(&mut self, x: f64) -> f64 {
        let s = sgn(x - self.x);
        if s == 0.0 {
            return self.f;
        }
        if self.dir != 0.0 && s != self.dir {
            self.turns.push((self.x, self.f));
        }
        self.dir = s;
        loop {
            let n = self.turns.len();
            if n >= 2 && s * (x - self.turns[n - 2].0) >= 0.0 {
                self.turns.truncate(n - 2);
            } else if n == 1 && s * (x + self.turns[0].0) >= 0.0 {
                self.turns.clear();
            } else {
                break;
            }
        }
        self.f = match self.turns.last() {
            None => sgn(x) * self.virgin(x.abs()),
            Some(&(xr, fr)) => fr + s * 2.0 * self.virgin(s * (x - xr) / 2.0),
        };
        self.x = x;
        self.f
    }
}

/// Elements of the slider parametrisation, written out from the formula:
/// `Δ_j = d_max·j/M`, `k_j = F/(M·Δ_j)` (each element carries `F/M` in slip).
pub fn equal_force_elements(m: usize, force: f64, d_max: f64) -> (Vec<f64>, Vec<f64>) {
    let d: Vec<f64> = (1..=m).map(|j| d_max * j as f64 / m as f64).collect();
    let k = d.iter().map(|dj| force / (m as f64 * dj)).collect();
    (k, d)
}

/// Reversal phases θ of `sin θ + ½ sin 3θ` in [0, 2π): `cos θ·(6cos²θ − 3.5) = 0`.
pub fn harmonic_reversal_phases() -> Vec<f64> {
    let a = (7.0f64 / 12.0).sqrt().acos();
    vec![a, PI / 2.0, PI - a, PI + a, 1.5 * PI, TAU - a]
}

/// `x = A·(sin θ + ½ sin 3θ)`.
pub fn harmonic_x(amp: f64, theta: f64) -> f64 {
    amp * (theta.sin() + 0.5 * (3.0 * theta).sin())
}

/// Reversal times of `x = A·(sin 2πft + ½ sin 6πft)` up to `t_end`.
pub fn harmonic_reversal_times(freq: f64, t_end: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut k = 0;
    loop {
        for p in harmonic_reversal_phases() {
            let t = (p + TAU * k as f64) / (TAU * freq);
            if t > t_end {
                return out;
            }
            out.push(t);
        }
        k += 1;
    }
}
