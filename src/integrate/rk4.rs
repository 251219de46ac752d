//! Classical fixed-step Runge–Kutta of order 4, for teaching and for side-by-side timing with
//! fixed-step codes. Dense output is the cubic Hermite interpolant through both step ends; the
//! derivative at the end is reused as the first stage of the next step, so a step costs four
//! right-hand sides.

use super::stepper::Stepper;
use super::{Model, Tolerance};

/// Fixed-step RK4 stepper. `N` is the state dimension when known at compile time (small
/// systems get fully unrolled loops); `N = 0` works for any dimension.
#[derive(Clone, Debug)]
pub struct Rk4<const N: usize = 0> {
    dt: f64,
    k: [Vec<f64>; 4],
    tmp: Vec<f64>,
    f_end: Vec<f64>,
    /// Copy of `f` at the start of the last step, for dense output after `accept`.
    f_start: Vec<f64>,
    /// Copy of `f` at the end of the prepared step (steps taken later leave it alone).
    f_end_dense: Vec<f64>,
    f_start_valid: bool,
    y0: Vec<f64>,
    y1: Vec<f64>,
    h_last: f64,
    /// Step size of the prepared dense output.
    h_dense: f64,
    evals: u64,
}

impl<const N: usize> Rk4<N> {
    /// Workspace for dimension `n` with step `dt` [s].
    pub fn new(n: usize, dt: f64) -> Self {
        Self {
            dt,
            k: std::array::from_fn(|_| vec![0.0; n]),
            tmp: vec![0.0; n],
            f_end: vec![0.0; n],
            f_start: vec![0.0; n],
            f_end_dense: vec![0.0; n],
            f_start_valid: false,
            y0: vec![0.0; n],
            y1: vec![0.0; n],
            h_last: 0.0,
            h_dense: 0.0,
            evals: 0,
        }
    }
}

impl<const N: usize> Stepper for Rk4<N> {
    fn name(&self) -> &'static str {
        "RK4"
    }

    fn order(&self) -> usize {
        4
    }

    fn fixed_step(&self) -> Option<f64> {
        Some(self.dt)
    }

    fn step(
        &mut self,
        model: &dyn Model,
        t: f64,
        y: &[f64],
        h: f64,
        y_new: &mut [f64],
        _tol: &Tolerance,
    ) -> f64 {
        let n = if N > 0 { N } else { y.len() };
        let y = &y[..n];
        let y_new = &mut y_new[..n];
        let [k1, k2, k3, k4] = &mut self.k;
        let (k1, k2, k3, k4) = (&mut k1[..n], &mut k2[..n], &mut k3[..n], &mut k4[..n]);
        let tmp = &mut self.tmp[..n];
        if !self.f_start_valid {
            model.rhs(t, y, k1);
            self.evals += 1;
            self.f_start_valid = true;
        }
        let hh = 0.5 * h;
        for ((o, yi), k) in tmp.iter_mut().zip(y).zip(k1.iter()) {
            *o = yi + hh * k;
        }
        model.rhs(t + hh, tmp, k2);
        for ((o, yi), k) in tmp.iter_mut().zip(y).zip(k2.iter()) {
            *o = yi + hh * k;
        }
        model.rhs(t + hh, tmp, k3);
        for ((o, yi), k) in tmp.iter_mut().zip(y).zip(k3.iter()) {
            *o = yi + h * k;
        }
        model.rhs(t + h, tmp, k4);
        let h6 = h / 6.0;
        for i in 0..n {
            y_new[i] = y[i] + h6 * (k1[i] + 2.0 * (k2[i] + k3[i]) + k4[i]);
        }
        model.rhs(t + h, y_new, &mut self.f_end);
        self.evals += 4;
        self.h_last = h;
        0.0
    }

    fn prepare_dense(&mut self, y: &[f64], y_new: &[f64]) {
        self.y0.copy_from_slice(y);
        self.y1.copy_from_slice(y_new);
        self.f_start.copy_from_slice(&self.k[0]);
        self.f_end_dense.copy_from_slice(&self.f_end);
        self.h_dense = self.h_last;
    }

    fn dense(&self, theta: f64, out: &mut [f64]) {
        // Cubic Hermite basis on [0, 1].
        let t2 = theta * theta;
        let t3 = t2 * theta;
        let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
        let h10 = t3 - 2.0 * t2 + theta;
        let h01 = -2.0 * t3 + 3.0 * t2;
        let h11 = t3 - t2;
        let h = self.h_dense;
        for i in 0..out.len() {
            out[i] = h00 * self.y0[i]
                + h10 * h * self.f_start[i]
                + h01 * self.y1[i]
                + h11 * h * self.f_end_dense[i];
        }
    }

    fn accept(&mut self) {
        std::mem::swap(&mut self.k[0], &mut self.f_end);
        self.f_start_valid = true;
    }

    fn reset(&mut self) {
        self.f_start_valid = false;
    }

    fn rhs_evals(&self) -> u64 {
        self.evals
    }
}
