//! Dormand–Prince 5(4) (Dormand & Prince 1980; Hairer, Nørsett & Wanner, *Solving ODE I*,
//! §II.5 and the code DOPRI5): seven stages, first-same-as-last, local extrapolation, and the
//! 4th-order continuous extension of Shampine (1986) used for output and event location.

use super::stepper::Stepper;
use super::{Model, Tolerance};

const C2: f64 = 1.0 / 5.0;
const C3: f64 = 3.0 / 10.0;
const C4: f64 = 4.0 / 5.0;
const C5: f64 = 8.0 / 9.0;
const A21: f64 = 1.0 / 5.0;
const A31: f64 = 3.0 / 40.0;
const A32: f64 = 9.0 / 40.0;
const A41: f64 = 44.0 / 45.0;
const A42: f64 = -56.0 / 15.0;
const A43: f64 = 32.0 / 9.0;
const A51: f64 = 19372.0 / 6561.0;
const A52: f64 = -25360.0 / 2187.0;
const A53: f64 = 64448.0 / 6561.0;
const A54: f64 = -212.0 / 729.0;
const A61: f64 = 9017.0 / 3168.0;
const A62: f64 = -355.0 / 33.0;
const A63: f64 = 46732.0 / 5247.0;
const A64: f64 = 49.0 / 176.0;
const A65: f64 = -5103.0 / 18656.0;
const A71: f64 = 35.0 / 384.0;
const A73: f64 = 500.0 / 1113.0;
const A74: f64 = 125.0 / 192.0;
const A75: f64 = -2187.0 / 6784.0;
const A76: f64 = 11.0 / 84.0;
const E1: f64 = 71.0 / 57600.0;
const E3: f64 = -71.0 / 16695.0;
const E4: f64 = 71.0 / 1920.0;
const E5: f64 = -17253.0 / 339200.0;
const E6: f64 = 22.0 / 525.0;
const E7: f64 = -1.0 / 40.0;
const D1: f64 = -12715105075.0 / 11282082432.0;
const D3: f64 = 87487479700.0 / 32700410799.0;
const D4: f64 = -10690763975.0 / 1880347072.0;
const D5: f64 = 701980252875.0 / 199316789632.0;
const D6: f64 = -1453857185.0 / 822651844.0;
const D7: f64 = 69997945.0 / 29380423.0;

/// Dormand–Prince 5(4) stepper.
#[derive(Clone, Debug)]
pub struct Dopri5 {
    k: [Vec<f64>; 7],
    tmp: Vec<f64>,
    err: Vec<f64>,
    /// `k[0]` holds `f(t, y)` of the current start point.
    f_start_valid: bool,
    /// Dense-output coefficients of the last step.
    rcont: [Vec<f64>; 5],
    h_last: f64,
    evals: u64,
}

impl Dopri5 {
    /// Workspace for a system of dimension `n`.
    pub fn new(n: usize) -> Self {
        Self {
            k: std::array::from_fn(|_| vec![0.0; n]),
            tmp: vec![0.0; n],
            err: vec![0.0; n],
            f_start_valid: false,
            rcont: std::array::from_fn(|_| vec![0.0; n]),
            h_last: 0.0,
            evals: 0,
        }
    }
}

impl Stepper for Dopri5 {
    fn name(&self) -> &'static str {
        "Dormand–Prince 5(4)"
    }

    fn order(&self) -> usize {
        5
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
        let n = y.len();
        let [k1, k2, k3, k4, k5, k6, k7] = &mut self.k;
        let tmp = &mut self.tmp;
        if !self.f_start_valid {
            model.rhs(t, y, k1);
            self.evals += 1;
            self.f_start_valid = true;
        }
        for i in 0..n {
            tmp[i] = y[i] + h * A21 * k1[i];
        }
        model.rhs(t + C2 * h, tmp, k2);
        for i in 0..n {
            tmp[i] = y[i] + h * (A31 * k1[i] + A32 * k2[i]);
        }
        model.rhs(t + C3 * h, tmp, k3);
        for i in 0..n {
            tmp[i] = y[i] + h * (A41 * k1[i] + A42 * k2[i] + A43 * k3[i]);
        }
        model.rhs(t + C4 * h, tmp, k4);
        for i in 0..n {
            tmp[i] = y[i] + h * (A51 * k1[i] + A52 * k2[i] + A53 * k3[i] + A54 * k4[i]);
        }
        model.rhs(t + C5 * h, tmp, k5);
        for i in 0..n {
            tmp[i] =
                y[i] + h * (A61 * k1[i] + A62 * k2[i] + A63 * k3[i] + A64 * k4[i] + A65 * k5[i]);
        }
        model.rhs(t + h, tmp, k6);
        for i in 0..n {
            y_new[i] =
                y[i] + h * (A71 * k1[i] + A73 * k3[i] + A74 * k4[i] + A75 * k5[i] + A76 * k6[i]);
        }
        model.rhs(t + h, y_new, k7);
        self.evals += 6;
        for i in 0..n {
            self.err[i] =
                h * (E1 * k1[i] + E3 * k3[i] + E4 * k4[i] + E5 * k5[i] + E6 * k6[i] + E7 * k7[i]);
        }
        self.h_last = h;
        tol.error_norm(&self.err, y, y_new)
    }

    fn prepare_dense(&mut self, y: &[f64], y_new: &[f64]) {
        let h = self.h_last;
        let [k1, _, k3, k4, k5, k6, k7] = &self.k;
        let [r1, r2, r3, r4, r5] = &mut self.rcont;
        for i in 0..y.len() {
            let ydiff = y_new[i] - y[i];
            let bspl = h * k1[i] - ydiff;
            r1[i] = y[i];
            r2[i] = ydiff;
            r3[i] = bspl;
            r4[i] = ydiff - h * k7[i] - bspl;
            r5[i] =
                h * (D1 * k1[i] + D3 * k3[i] + D4 * k4[i] + D5 * k5[i] + D6 * k6[i] + D7 * k7[i]);
        }
    }

    fn dense(&self, theta: f64, out: &mut [f64]) {
        let th1 = 1.0 - theta;
        let [r1, r2, r3, r4, r5] = &self.rcont;
        for i in 0..out.len() {
            out[i] = r1[i] + theta * (r2[i] + th1 * (r3[i] + theta * (r4[i] + th1 * r5[i])));
        }
    }

    fn accept(&mut self) {
        // First same as last: f(t + h, y_new) becomes f at the new start point.
        self.k.swap(0, 6);
        self.f_start_valid = true;
    }

    fn reset(&mut self) {
        self.f_start_valid = false;
    }

    fn rhs_evals(&self) -> u64 {
        self.evals
    }
}
