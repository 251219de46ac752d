//! The steppers against closed-form solutions: convergence order, dense output, stiffness.

#![allow(clippy::unwrap_used)]

use tribolab::integrate::driver::DriverSettings;
use tribolab::integrate::{Column, Method, Model, SimError, Simulation};

/// Damped oscillator ẍ + 2ζωẋ + ω²x = 0 with quadrature ∫x² dt, optionally very stiff:
/// ẏ = −λ(y − cos t) − sin t has the solution y = cos t for any λ.
struct Oscillator {
    zeta: f64,
    omega: f64,
    lambda: f64,
}

impl Oscillator {
    fn exact(&self, t: f64) -> [f64; 3] {
        let wd = self.omega * (1.0 - self.zeta * self.zeta).sqrt();
        let a = self.zeta * self.omega;
        let e = (-a * t).exp();
        // x(0) = 1, ẋ(0) = 0.
        let x = e * ((wd * t).cos() + a / wd * (wd * t).sin());
        let v = -e * (self.omega * self.omega / wd) * (wd * t).sin();
        [x, v, t.cos()]
    }
}

impl Model for Oscillator {
    fn dim(&self) -> usize {
        4
    }
    fn n_quadratures(&self) -> usize {
        1
    }
    fn state_names(&self) -> Vec<String> {
        ["x", "v", "y", "q"].map(String::from).to_vec()
    }
    fn state_scales(&self, s: &mut [f64]) {
        s.iter_mut().for_each(|v| *v = 1.0);
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = -2.0 * self.zeta * self.omega * y[1] - self.omega * self.omega * y[0];
        dy[2] = -self.lambda * (y[2] - t.cos()) - t.sin();
        dy[3] = y[0] * y[0];
    }
    fn columns(&self) -> Vec<Column> {
        vec![
            Column::new("x", ""),
            Column::new("v", ""),
            Column::new("y", ""),
        ]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row.copy_from_slice(&y[..3]);
    }
}

fn run(method: Method, rtol: f64, dt: f64, lambda: f64, t_end: f64) -> (Vec<Vec<f64>>, u64) {
    let model = Oscillator {
        zeta: 0.1,
        omega: 2.0,
        lambda,
    };
    let settings = DriverSettings {
        method,
        rtol,
        rk4_dt_s: dt,
        output_interval_s: 0.01,
    };
    let mut sim =
        Simulation::new(Box::new(model), vec![1.0, 0.0, 1.0, 0.0], 0.0, settings).unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(t_end, &mut rows).unwrap();
    (rows, sim.stats().steps)
}

fn max_error(rows: &[Vec<f64>]) -> f64 {
    let osc = Oscillator {
        zeta: 0.1,
        omega: 2.0,
        lambda: 0.0,
    };
    rows.iter()
        .map(|r| {
            let e = osc.exact(r[0]);
            (0..3).map(|i| (r[1 + i] - e[i]).abs()).fold(0.0, f64::max)
        })
        .fold(0.0, f64::max)
}

#[test]
fn rk4_converges_with_fourth_order() {
    let (r1, _) = run(Method::Rk4, 1e-8, 1e-2, 1.0, 5.0);
    let (r2, _) = run(Method::Rk4, 1e-8, 5e-3, 1.0, 5.0);
    let ratio = max_error(&r1) / max_error(&r2);
    // Halving the step divides the error by 2⁴ = 16 (dense output is also 4th order... cubic
    // Hermite: error O(h⁴)).
    assert!((12.0..20.0).contains(&ratio), "error ratio {ratio}");
}

#[test]
fn adaptive_methods_meet_their_tolerance_including_dense_output() {
    for method in [Method::Dopri5, Method::Rodas4, Method::Rodas5] {
        for rtol in [1e-6, 1e-9] {
            let (rows, _) = run(method, rtol, 0.0, 1.0, 10.0);
            let err = max_error(&rows);
            // Global error grows with the number of steps; allow a factor 100 over rtol.
            assert!(
                err < 100.0 * rtol,
                "{method:?} rtol {rtol}: max error {err}"
            );
        }
    }
}

#[test]
fn rodas_is_stable_on_a_very_stiff_component() {
    // λ = 1e8: an explicit method would need h < 3e-8; Rodas takes accuracy-sized steps.
    for method in [Method::Rodas4, Method::Rodas5] {
        let (rows, steps) = run(method, 1e-8, 0.0, 1e8, 10.0);
        assert!(
            max_error(&rows) < 1e-6,
            "{method:?} error {}",
            max_error(&rows)
        );
        assert!(steps < 5_000, "{method:?}: {steps} steps");
    }
}

#[test]
fn rodas5_takes_fewer_steps_than_rodas4_at_tight_tolerance() {
    let (_, s4) = run(Method::Rodas4, 1e-10, 0.0, 1.0, 10.0);
    let (rows, s5) = run(Method::Rodas5, 1e-10, 0.0, 1.0, 10.0);
    assert!(max_error(&rows) < 1e-8, "error {}", max_error(&rows));
    assert!(s5 < s4, "Rodas5 {s5} steps vs Rodas4 {s4}");
}

/// A model whose state blows up in finite time: y' = y², y(0) = 1 (pole at t = 1).
struct Blowup;

impl Model for Blowup {
    fn dim(&self) -> usize {
        1
    }
    fn state_names(&self) -> Vec<String> {
        vec!["y".into()]
    }
    fn state_scales(&self, s: &mut [f64]) {
        s[0] = 1.0;
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[0] * y[0];
    }
    fn columns(&self) -> Vec<Column> {
        vec![Column::new("y", "")]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row[0] = y[0];
    }
}

#[test]
fn divergence_is_a_typed_error_with_the_time() {
    for method in [Method::Dopri5, Method::Rodas4, Method::Rk4] {
        let settings = DriverSettings {
            method,
            rtol: 1e-8,
            rk4_dt_s: 1e-3,
            output_interval_s: 0.01,
        };
        let mut sim = Simulation::new(Box::new(Blowup), vec![1.0], 0.0, settings).unwrap();
        let mut rows: Vec<Vec<f64>> = Vec::new();
        let err = sim.advance(2.0, &mut rows).unwrap_err();
        let t = err.time_s();
        assert!((0.99..=1.01).contains(&t), "{method:?}: {err} at {t}");
        assert!(matches!(
            err,
            SimError::NonFinite { .. } | SimError::StepTooSmall { .. }
        ));
        assert!(err.to_string().contains("t = "), "{err}");
    }
}

/// A bouncing ball with restitution 0.5: infinitely many impacts before t* (Zeno behaviour).
struct BouncingBall;

impl Model for BouncingBall {
    fn dim(&self) -> usize {
        2
    }
    fn state_names(&self) -> Vec<String> {
        vec!["h".into(), "v".into()]
    }
    fn state_scales(&self, s: &mut [f64]) {
        s.iter_mut().for_each(|v| *v = 1.0);
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = -9.81;
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, _t: f64, y: &[f64], g: &mut [f64]) {
        g[0] = y[0];
    }
    fn apply_event(&mut self, _i: usize, _t: f64, y: &mut [f64]) -> Result<(), SimError> {
        y[0] = 0.0;
        y[1] = 0.5 * y[1].abs();
        Ok(())
    }
    fn columns(&self) -> Vec<Column> {
        vec![Column::new("h", "m")]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row[0] = y[0];
    }
    fn prefers_implicit(&self) -> bool {
        false
    }
}

#[test]
fn zeno_accumulation_ends_in_a_typed_error_not_a_hang() {
    // Dropped from 1 m: impacts accumulate at t* = √(2/g)·(1 + 2·0.5/(1 − 0.5)) = 1.3552 s.
    let t_star = (2.0f64 / 9.81).sqrt() * 3.0;
    let settings = DriverSettings {
        method: Method::Dopri5,
        rtol: 1e-10,
        rk4_dt_s: 1e-3,
        output_interval_s: 0.01,
    };
    let mut sim = Simulation::new(Box::new(BouncingBall), vec![1.0, 0.0], 0.0, settings).unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let started = std::time::Instant::now();
    let res = sim.advance(3.0, &mut rows);

    let err = res.unwrap_err();
    assert!(started.elapsed().as_secs() < 10, "took too long");
    assert!(
        (err.time_s() - t_star).abs() < 1e-3,
        "{err} (t* = {t_star})"
    );
    // The first impacts happen on time: t₁ = √(2/g), t₂ = t₁ + 2·0.5·√(2/g).
    let t1 = (2.0f64 / 9.81).sqrt();
    let impacts: Vec<f64> = rows.iter().filter(|r| r[2] == 1.0).map(|r| r[0]).collect();
    assert!((impacts[0] - t1).abs() < 1e-12, "{}", impacts[0]);
    assert!((impacts[2] - 2.0 * t1).abs() < 1e-12, "{}", impacts[2]);
}

/// Decay whose steps are capped far below anything useful (as a law at the edge of its range
/// makes them collapse).
struct Crawl;

impl Model for Crawl {
    fn dim(&self) -> usize {
        1
    }
    fn state_names(&self) -> Vec<String> {
        vec!["y".into()]
    }
    fn state_scales(&self, s: &mut [f64]) {
        s[0] = 1.0;
    }
    fn max_step_s(&self, _t_s: f64) -> f64 {
        1e-12
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = -y[0];
    }
    fn columns(&self) -> Vec<Column> {
        vec![Column::new("y", "")]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row[0] = y[0];
    }
}

/// Regression: a run whose steps collapsed (LuGre at F_S = 0 advanced 3e-5 model-s per
/// wall-s) crawled on with no error. The stall guard stops it after one window of a million
/// steps with a typed error saying how far it got.
#[test]
fn a_run_whose_steps_collapse_stops_with_a_typed_error() {
    use tribolab::integrate::driver::STALL_WINDOW_STEPS;
    let settings = DriverSettings {
        method: Method::Dopri5,
        rtol: 1e-8,
        rk4_dt_s: 1e-3,
        output_interval_s: 0.01,
    };
    let start = std::time::Instant::now();
    let mut sim = Simulation::new(Box::new(Crawl), vec![1.0], 0.0, settings).unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let err = sim.advance(1.0, &mut rows).unwrap_err();
    let SimError::Stalled {
        steps, advanced_s, ..
    } = err
    else {
        panic!("expected a stall, got {err}");
    };
    assert_eq!(steps, STALL_WINDOW_STEPS);
    assert!((advanced_s - 1e-12 * STALL_WINDOW_STEPS as f64).abs() < 1e-9);
    assert!(err.to_string().contains("stalled"), "{err}");
    assert!((err.time_s() - 1e-6).abs() < 1e-9, "{}", err.time_s());
    // Bounded: one window, not the 1e12 steps the run asked for.
    assert!(start.elapsed().as_secs() < 120, "{:?}", start.elapsed());
}

/// An oscillator `x = cos t` with a guard `x + 0.999` that dips below zero only on
/// `|t − π| < acos(0.999) = 0.0447 s`: steps at rtol 1e-6 are longer than the dip, and one that
/// straddles it has positive guards at both ends.
struct Graze {
    fired_at: Option<f64>,
}

impl Model for Graze {
    fn dim(&self) -> usize {
        2
    }
    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "v".into()]
    }
    fn state_scales(&self, s: &mut [f64]) {
        s.iter_mut().for_each(|v| *v = 1.0);
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = -y[0];
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, _t: f64, y: &[f64], g: &mut [f64]) {
        g[0] = if self.fired_at.is_some() {
            1.0
        } else {
            y[0] + 0.999
        };
    }
    fn apply_event(&mut self, _i: usize, t: f64, _y: &mut [f64]) -> Result<(), SimError> {
        self.fired_at = Some(t);
        Ok(())
    }
    fn columns(&self) -> Vec<Column> {
        vec![Column::new("x", "")]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row[0] = y[0];
    }
    fn prefers_implicit(&self) -> bool {
        false
    }
}

/// Regression (grazing): events fired only on a sign change between step ends, so a guard
/// dipping below zero and back within one step (v_rel touching zero, the holding force
/// touching the static level during a load bump) was lost. It fires at the first crossing,
/// t = π − acos(0.999), under both integrators.
#[test]
fn a_guard_dipping_below_zero_within_a_step_fires() {
    for method in [Method::Dopri5, Method::Rodas4] {
        let settings = DriverSettings {
            method,
            rtol: 1e-6,
            rk4_dt_s: 1e-3,
            output_interval_s: 1.0,
        };
        let mut sim = Simulation::new(
            Box::new(Graze { fired_at: None }),
            vec![1.0, 0.0],
            0.0,
            settings,
        )
        .unwrap();
        let mut rows: Vec<Vec<f64>> = Vec::new();
        sim.advance(6.0, &mut rows).unwrap();
        eprintln!("{method:?}: {} steps", sim.stats().steps);
        let fired: Vec<f64> = rows.iter().filter(|r| r[2] == 1.0).map(|r| r[0]).collect();
        let expected = std::f64::consts::PI - 0.999f64.acos();
        assert!(!fired.is_empty(), "{method:?}: the dip was stepped over");
        assert!(
            // Integration error at rtol 1e-6 over a grazing crossing: δx/|ẋ| ≈ 1e-6/0.045.
            (fired[0] - expected).abs() < 1e-4,
            "{method:?}: fired at {} (expected {expected})",
            fired[0]
        );
    }
}
