//! The variational equations (Lyapunov spectrum, flow Jacobian) have no built-in limit on the
//! dimension: a linear system `ẋ_i = a_i·x_i + b·x_{i+1}` of 12 and 40 states, where the
//! flow Jacobian and the exponents are known in closed form.

use tribolab::analysis::lyapunov::{FlowSpectrum, LyapunovOptions, flow_jacobian};
use tribolab::integrate::driver::DriverSettings;
use tribolab::integrate::{Column, Method, Model};

/// `ẋ_i = a_i x_i + b x_{i+1}` with `a_i = −0.05·(i + 1)` [1/s]: upper bidiagonal, so the
/// exponents are the `a_i` (one per direction) whatever `b`.
struct Bidiagonal {
    m: usize,
    b: f64,
}

fn rate(i: usize) -> f64 {
    -0.05 * (i + 1) as f64
}

impl Model for Bidiagonal {
    fn dim(&self) -> usize {
        self.m
    }
    fn state_names(&self) -> Vec<String> {
        (0..self.m).map(|i| format!("x{i}")).collect()
    }
    fn state_scales(&self, s: &mut [f64]) {
        s.fill(1.0);
    }
    fn is_autonomous(&self) -> bool {
        true
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        for i in 0..self.m {
            let next = if i + 1 < self.m { y[i + 1] } else { 0.0 };
            dy[i] = rate(i) * y[i] + self.b * next;
        }
    }
    fn columns(&self) -> Vec<Column> {
        vec![Column::new("x0", "")]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row[0] = y[0];
    }
    fn prefers_implicit(&self) -> bool {
        false
    }
}

fn settings() -> DriverSettings {
    DriverSettings {
        method: Method::Dopri5,
        rtol: 1e-10,
        rk4_dt_s: 1e-3,
        output_interval_s: 1.0,
    }
}

/// Φ(T) of the diagonal system (b = 0) at 40 states is `diag(exp(a_i T))` to 1e-8.
#[test]
fn flow_jacobian_of_forty_states() {
    let m = 40;
    let t1 = 2.0;
    let y0: Vec<f64> = (0..m).map(|i| 1.0 + 0.1 * i as f64).collect();
    let model = Bidiagonal { m, b: 0.0 };
    let (x1, phi) = flow_jacobian(Box::new(model), &y0, 0.0, t1, settings()).expect("runs");
    assert_eq!((x1.len(), phi.len()), (m, m * m));
    for i in 0..m {
        let e = (rate(i) * t1).exp();
        assert!(
            (x1[i] - y0[i] * e).abs() < 1e-8,
            "x{i}: {} vs {}",
            x1[i],
            y0[i] * e
        );
        for j in 0..m {
            let expected = if i == j { e } else { 0.0 };
            assert!(
                (phi[i * m + j] - expected).abs() < 1e-8,
                "Φ[{i}][{j}] = {} vs {expected}",
                phi[i * m + j]
            );
        }
    }
}

/// The full spectrum of the coupled system at 12 states: the exponents are the rates
/// `−0.05, −0.10, …, −0.60` /s, to 2e-3 /s after 200 s of averaging (the coupling's transient
/// growth contributes O(ln(cond)/T)).
#[test]
fn full_spectrum_of_twelve_states() {
    let m = 12;
    let model = Bidiagonal { m, b: 0.02 };
    let y0 = vec![1.0; m];
    let opts = LyapunovOptions {
        transient: 20.0,
        duration: 200.0,
        renorm_interval: 1.0,
        ..LyapunovOptions::default()
    };
    let mut spectrum = FlowSpectrum::new(Box::new(model), y0, settings(), &opts).expect("starts");
    spectrum.run().expect("runs");
    let s = spectrum.spectrum();
    assert_eq!(s.exponents.len(), m);
    for (i, l) in s.exponents.iter().enumerate() {
        assert!(
            (l - rate(i)).abs() < 2e-3,
            "λ{} = {l} vs {}: {:?}",
            i + 1,
            rate(i),
            s.exponents
        );
    }
}
