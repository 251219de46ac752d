//! Lyapunov exponents of the reference systems against published values (MODELS §5):
//! logistic map at r = 4 (ln 2), Hénon (0.419, −1.623; Σ = ln 0.3), Lorenz (0.906, 0, −14.572;
//! Σ = −(σ + 1 + β)), and the damped linear oscillator (λ₁ = λ₂ = −ζω).

#![allow(clippy::unwrap_used)]

use tribolab::analysis::classify::{Attractor, PoincareShape, SystemKind, classify};
use tribolab::analysis::lyapunov::{
    FlowBenettin, FlowSpectrum, LyapunovOptions, MapSpectrum, map_benettin, map_spectrum,
};
use tribolab::integrate::driver::{DriverSettings, NullSink};
use tribolab::integrate::{Column, MapModel, MapRun, Method, Model};
use tribolab::systems::{HenonMap, HenonParams, LogisticMap, LogisticParams, Lorenz, LorenzParams};

fn settings(method: Method, rtol: f64) -> DriverSettings {
    DriverSettings {
        method,
        rtol,
        rk4_dt_s: 1e-3,
        output_interval_s: 1.0,
    }
}

#[test]
fn logistic_r4_exponent_is_ln2() {
    let map = LogisticMap::new(LogisticParams::default());
    let x0 = map.initial_state();
    let opts = LyapunovOptions {
        transient: 100.0,
        duration: 1e5,
        ..LyapunovOptions::default()
    };
    let s = map_spectrum(Box::new(map.clone()), &x0, &opts).unwrap();
    assert_eq!(
        s.exponents.len(),
        1,
        "the companion start is not a direction"
    );
    let ln2 = std::f64::consts::LN_2;
    println!("logistic λ = {:.7} (ln 2 = {ln2:.7})", s.exponents[0]);
    assert!((s.exponents[0] - ln2).abs() < 1e-3, "{}", s.exponents[0]);
    assert_eq!(s.averaging_time, 1e5);
    let b = map_benettin(&map, &x0, &opts).unwrap();
    println!("logistic Benettin λ = {:.7}", b.exponent);
    assert!((b.exponent - ln2).abs() < 1e-3, "{}", b.exponent);
    let c = classify(&s.exponents, s.kind, s.averaging_time, &s.poincare_points);
    assert_eq!(c.attractor, Attractor::Chaos(1));
}

/// S1 Fig 15: two starts 1e-5 apart follow each other while the separation, multiplied by
/// |f'(x_n)| = |4 − 8x_n| each step, is small, and are unrelated after ~20 iterations.
#[test]
fn logistic_two_starts_diverge_as_s1_fig15() {
    let map = LogisticMap::new(LogisticParams::default());
    let mut run = MapRun::new(Box::new(map), vec![0.3, 0.3 + 1e-5]).unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    run.advance(60.0, &mut rows).unwrap();
    let names = run.column_names();
    let (ix, ix2) = (
        names.iter().position(|n| n == "x").unwrap(),
        names.iter().position(|n| n == "x2").unwrap(),
    );
    // Linearised growth of the separation: Π |4 − 8x_i|.
    let mut predicted = 1e-5;
    for n in 0..8 {
        let d = (rows[n][ix2] - rows[n][ix]).abs();
        assert!(
            (d / predicted - 1.0).abs() < 0.02,
            "n = {n}: separation {d:e}, linear prediction {predicted:e}"
        );
        predicted *= (4.0 - 8.0 * rows[n][ix]).abs();
    }
    // Close for the first iterations, O(1) apart within 25.
    assert!((rows[5][ix2] - rows[5][ix]).abs() < 1e-3);
    let first_far = (0..rows.len())
        .find(|&n| (rows[n][ix2] - rows[n][ix]).abs() > 0.1)
        .unwrap();
    println!("separation exceeds 0.1 at iteration {first_far}");
    assert!((10..=25).contains(&first_far), "{first_far}");
}

#[test]
fn henon_spectrum_and_exact_sum() {
    let map = HenonMap::new(HenonParams::default());
    let x0 = map.initial_state();
    let opts = LyapunovOptions {
        transient: 1000.0,
        duration: 1e6,
        ..LyapunovOptions::default()
    };
    let s = map_spectrum(Box::new(map.clone()), &x0, &opts).unwrap();
    let ln03 = 0.3f64.ln();
    println!(
        "Hénon λ = {:?}, Σ = {:.10} (ln 0.3 = {ln03:.10})",
        s.exponents,
        s.sum()
    );
    assert!((s.exponents[0] - 0.41922).abs() < 2e-3, "{:?}", s.exponents);
    assert!((s.exponents[1] + 1.62319).abs() < 2e-3, "{:?}", s.exponents);
    assert!((s.sum() - ln03).abs() < 1e-6);
    assert!((s.mean_divergence.unwrap() - ln03).abs() < 1e-9);
    let b = map_benettin(&map, &x0, &opts).unwrap();
    assert!((b.exponent - 0.41922).abs() < 2e-3, "{}", b.exponent);
    let c = classify(&s.exponents, s.kind, s.averaging_time, &s.poincare_points);
    assert_eq!(c.attractor, Attractor::Chaos(1));
    assert_eq!(c.poincare, PoincareShape::Scattered);
    // Kaplan–Yorke 1 + 0.419/1.623 ≈ 1.258 (Russell, Hanson & Ott 1980: 1.26).
    assert!((c.kaplan_yorke - 1.258).abs() < 3e-3, "{}", c.kaplan_yorke);
}

/// The Hénon map at b = 0.3 doubles its period at a = 3(1 − b)²/4 = 0.3675 (fixed point →
/// period 2) and near a = 0.9125 (→ period 4), before chaos (Hénon 1976; standard cascade).
#[test]
fn henon_periodic_windows_are_periodic_orbits() {
    for (a, period) in [(0.2, 1), (0.6, 2), (1.0, 4)] {
        let map = HenonMap::new(HenonParams {
            a,
            ..HenonParams::default()
        });
        let opts = LyapunovOptions {
            transient: 1000.0,
            duration: 1e4,
            ..LyapunovOptions::default()
        };
        let s = map_spectrum(Box::new(map.clone()), &map.initial_state(), &opts).unwrap();
        assert!(s.exponents[0] < -0.01, "a = {a}: {:?}", s.exponents);
        let c = classify(
            &s.exponents,
            SystemKind::Map,
            s.averaging_time,
            &s.poincare_points,
        );
        let expected = if period == 1 {
            Attractor::LimitCycle
        } else {
            Attractor::Subharmonic(period)
        };
        assert_eq!(c.attractor, expected, "a = {a}: {c:?}");
    }
}

#[test]
fn lorenz_spectrum_matches_published_values() {
    let p = LorenzParams::default();
    let model = Lorenz::new(p.clone());
    let y0 = model.initial_state();
    let opts = LyapunovOptions {
        transient: 50.0,
        duration: 2000.0,
        renorm_interval: 0.5,
        ..LyapunovOptions::default()
    };
    let mut run = FlowSpectrum::new(
        Box::new(model),
        y0.clone(),
        settings(Method::Dopri5, 1e-9),
        &opts,
    )
    .unwrap();
    run.run().unwrap();
    let s = run.spectrum();
    let sum_exact = -(p.sigma + 1.0 + p.beta);
    println!(
        "Lorenz λ = {:?}, Σ = {:.9} (exact {sum_exact:.9}), {} renormalisations",
        s.exponents,
        s.sum(),
        s.renormalisations
    );
    // Published: (0.9056, 0, −14.5723) (Sprott 2003; Wolf et al. 1985 give 2.16 bits/s).
    assert!(
        (s.exponents[0] - 0.9056).abs() < 0.02 * 0.9056,
        "{:?}",
        s.exponents
    );
    assert!(s.exponents[1].abs() < 0.01, "{:?}", s.exponents);
    assert!(
        (s.exponents[2] + 14.5723).abs() < 0.02 * 14.5723,
        "{:?}",
        s.exponents
    );
    assert!(
        ((s.sum() - sum_exact) / sum_exact).abs() < 1e-6,
        "{}",
        s.sum()
    );
    assert!(((s.mean_divergence.unwrap() - sum_exact) / sum_exact).abs() < 1e-9);
    // The running estimate converges onto the final value.
    let (t_last, last) = s.history.last().unwrap();
    assert!((t_last - s.averaging_time).abs() < 1.0 && (last[0] - s.exponents[0]).abs() < 1e-3);
    let c = classify(&s.exponents, s.kind, s.averaging_time, &s.poincare_points);
    assert_eq!(c.attractor, Attractor::Chaos(1));
    assert!((c.kaplan_yorke - 2.062).abs() < 0.01, "{}", c.kaplan_yorke);

    let build = || -> Box<dyn Model + Send> { Box::new(Lorenz::new(LorenzParams::default())) };
    let mut b = FlowBenettin::new(&build, y0, settings(Method::Dopri5, 1e-9), &opts).unwrap();
    b.run().unwrap();
    let l = b.result();
    println!("Lorenz Benettin λ₁ = {:.5}", l.exponent);
    assert!(
        (l.exponent - 0.9056).abs() < 0.03 * 0.9056,
        "{}",
        l.exponent
    );
}

/// `ẍ + 2ζωẋ + ω²x = 0`, written independently of the library's systems.
struct Oscillator {
    zeta: f64,
    omega: f64,
}

impl Model for Oscillator {
    fn dim(&self) -> usize {
        2
    }
    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "v".into()]
    }
    fn state_scales(&self, s: &mut [f64]) {
        s[0] = 1.0;
        s[1] = self.omega;
    }
    fn is_autonomous(&self) -> bool {
        true
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = -2.0 * self.zeta * self.omega * y[1] - self.omega * self.omega * y[0];
    }
    fn columns(&self) -> Vec<Column> {
        vec![Column::new("x", "m")]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row[0] = y[0];
    }
    fn prefers_implicit(&self) -> bool {
        false
    }
}

#[test]
fn damped_oscillator_exponents_are_minus_zeta_omega() {
    for (zeta, omega) in [(0.1, std::f64::consts::TAU), (0.02, 3.0)] {
        let opts = LyapunovOptions {
            transient: 0.0,
            duration: 200.0,
            renorm_interval: 0.25,
            ..LyapunovOptions::default()
        };
        let model = Oscillator { zeta, omega };
        let mut run = FlowSpectrum::new(
            Box::new(model),
            vec![1.0, 0.0],
            settings(Method::Dopri5, 1e-10),
            &opts,
        )
        .unwrap();
        run.run().unwrap();
        let s = run.spectrum();
        let expected = -zeta * omega;
        println!(
            "ζ = {zeta}, ω = {omega}: λ = {:?}, −ζω = {expected}",
            s.exponents
        );
        // Finite-time QR exponents of a focus oscillate by O(1/(ωT)) around −ζω.
        for l in &s.exponents {
            assert!(
                (l - expected).abs() < 0.01 * expected.abs() + 2.0 / 200.0,
                "{l}"
            );
        }
        assert!((s.sum() - 2.0 * expected).abs() < 1e-6 * expected.abs());
        let c = classify(&s.exponents, s.kind, s.averaging_time, &s.poincare_points);
        assert_eq!(c.attractor, Attractor::Equilibrium);
    }
    // Nothing is lost by running it through a plain simulation either.
    let mut sim = tribolab::integrate::Simulation::new(
        Box::new(Oscillator {
            zeta: 0.1,
            omega: 1.0,
        }),
        vec![1.0, 0.0],
        0.0,
        settings(Method::Dopri5, 1e-10),
    )
    .unwrap();
    sim.advance(1.0, &mut NullSink).unwrap();
}

#[test]
fn maps_collect_their_iterates_as_poincare_points() {
    let map = HenonMap::new(HenonParams::default());
    let opts = LyapunovOptions {
        transient: 10.0,
        duration: 100.0,
        ..LyapunovOptions::default()
    };
    let s = map_spectrum(Box::new(map.clone()), &map.initial_state(), &opts).unwrap();
    assert_eq!(s.poincare_points.len(), 100);
    let mut x = map.initial_state();
    let mut next = vec![0.0; 2];
    for _ in 0..110 {
        map.step(&x, &mut next);
        x.copy_from_slice(&next);
    }
    assert_eq!(s.poincare_points.last().unwrap(), &x);
}

/// The running estimate: advancing in chunks gives the same sums as one run, and the history
/// holds `(T, λ(T))` at the scheduled points, converging on the final value.
#[test]
fn running_estimate_is_available_while_a_run_goes_on() {
    let map = HenonMap::new(HenonParams::default());
    let opts = LyapunovOptions {
        transient: 100.0,
        duration: 20_000.0,
        renorm_interval: 100.0,
        ..LyapunovOptions::default()
    };
    let x0 = map.initial_state();
    let mut run = MapSpectrum::new(Box::new(map.clone()), x0.clone(), &opts).unwrap();
    let mut seen = Vec::new();
    for chunk in 1..=21 {
        run.advance((chunk as f64 * 1000.0).min(20_100.0)).unwrap();
        seen.push(run.estimate());
    }
    assert_eq!(run.iterations(), 20_100);
    let whole = map_spectrum(Box::new(map), &x0, &opts).unwrap();
    assert_eq!(run.spectrum().exponents, whole.exponents);
    assert!(seen[0].averaging_time == 900.0 && seen[0].exponents[0] > 0.3);
    let h = &whole.history;
    assert_eq!(h.len(), 200);
    assert!(h.windows(2).all(|w| w[1].0 > w[0].0));
    let (t, last) = h.last().unwrap();
    assert_eq!((*t, last[0]), (whole.averaging_time, whole.exponents[0]));
}
