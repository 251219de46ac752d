//! Bifurcation sweeps (MODELS §4.7) against predictions made without the code under test: the
//! re-stick position of the undamped Coulomb cycle, the linear stability boundary of steady
//! sliding on a Stribeck curve with viscous friction, up/down hysteresis, cancellation, progress
//! and errors that name the failing value.

#![allow(clippy::unwrap_used)]

use std::f64::consts::TAU;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use tribolab::analysis::sweep::{
    Branch, SweepControl, SweepError, SweepProgress, SweepSpec, SweepStart, Transient, ValueRun,
    sweep,
};
use tribolab::integrate::SimError;
use tribolab::preset::{Preset, builtin};

fn preset(stem: &str) -> Preset {
    builtin::load(stem).unwrap().unwrap()
}

fn xs(run: &ValueRun, ix: usize) -> Vec<f64> {
    run.points.iter().map(|p| p.row[ix]).collect()
}

#[test]
fn coulomb_restick_position_follows_mu_s_on_both_branches() {
    // Undamped Coulomb cycle: re-stick at x = x_K − D = (2μ_K − μ_S)·N/k for any belt speed.
    let p = preset("coulomb_stick_slip_undamped");
    let mut spec = SweepSpec::new("law.mu_s", 0.32, 0.5, 4, 8.0);
    spec.transient = Transient::Returns(3);
    let r = sweep(&p, &spec, SweepControl::default()).unwrap();
    let ix = r.column("x").unwrap();
    assert_eq!(r.runs.len(), 8);
    assert_eq!(
        r.runs.iter().map(|r| r.branch).collect::<Vec<_>>(),
        [[Branch::Up; 4], [Branch::Down; 4]].concat()
    );
    for run in &r.runs {
        assert!(run.section.starts_with("stick onset"));
        assert!(!run.final_state && run.dropped == 3);
        let expected = (2.0 * 0.3 - run.value) * 10.0 / 100.0;
        let x = xs(run, ix);
        assert!(x.len() >= 5, "{} points", x.len());
        for xi in x {
            assert!((xi - expected).abs() < 1e-9, "μ_S = {}: {xi}", run.value);
        }
    }
    // The down branch runs the values in reverse.
    assert_eq!(r.runs[4].value, 0.5);
    assert_eq!(r.runs[7].value, 0.32);
}

/// Steady sliding at belt speed v on `F = μ(v_rel)·N − c_v·v_rel` (v_rel = −v) linearises to
/// `m·ξ̈ + (c + c_v + N·μ'(v))·ξ̇ + k·ξ = 0`: stable iff `c + c_v + N·μ'(v) > 0`. With the
/// Gaussian curve `μ' = −(μ_S − μ_C)·(2v/v_S²)·exp(−(v/v_S)²)`, the critical speed above the
/// slope's extremum `v_S/√2` solves `c + c_v = N(μ_S − μ_C)(2v/v_S²)exp(−(v/v_S)²)`.
fn critical_speed(c: f64, c_v: f64, n: f64, d_mu: f64, v_s: f64) -> f64 {
    let g = |v: f64| c + c_v - n * d_mu * 2.0 * v / (v_s * v_s) * (-(v / v_s).powi(2)).exp();
    let (mut lo, mut hi) = (v_s / 2f64.sqrt(), 100.0 * v_s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) < 0.0 { lo = mid } else { hi = mid }
    }
    0.5 * (lo + hi)
}

#[test]
fn stribeck_steady_sliding_loses_stability_at_the_linear_critical_speed() {
    let (c, c_v, n, v_s, radius) = (0.5, 0.5, 9.81, 0.01, 0.05);
    let v_c = critical_speed(c, c_v, n, 0.4 - 0.3, v_s);
    let rpm = |v: f64| v * 60.0 / (TAU * radius);
    assert!((v_c - 0.024881).abs() < 1e-6, "{v_c}");

    let mut p = preset("stribeck_stick_slip");
    p.set_path("law.viscous", "0.5").unwrap();
    // Start in steady sliding at the top speed: block at rest at x_eq, belt slipping beneath.
    let top = 6.9;
    let v_top = TAU * radius * top / 60.0;
    let mu = 0.3 + 0.1 * (-(v_top / v_s).powi(2)).exp();
    let x_eq = (mu * n + c_v * v_top) / 200.0;
    p.set_path("system.initial_position", &x_eq.to_string())
        .unwrap();
    p.set_path("system.initial_slip_velocity", &(-v_top).to_string())
        .unwrap();
    // 0.4 rpm steps; no grid value within 0.15 rpm of the critical 4.752 rpm.
    let mut spec = SweepSpec::new("system.wheel_rpm", 2.9, top, 11, 30.0);
    spec.transient = Transient::Seconds(15.0);
    let r = sweep(&p, &spec, SweepControl::default()).unwrap();
    let ix = r.column("x").unwrap();
    let (up, down): (Vec<&ValueRun>, Vec<&ValueRun>) =
        r.runs.iter().partition(|r| r.branch == Branch::Up);

    // Down branch: steady sliding (no stick onset after the transient) down to the first value
    // above v_c, stick–slip below.
    let speed = |run: &ValueRun| TAU * radius * run.value / 60.0;
    for run in &down {
        let stick_slip = !run.final_state;
        assert_eq!(stick_slip, speed(run) < v_c, "down, {} rpm", run.value);
        if !stick_slip {
            // The final state is the equilibrium x_eq(v).
            let v = speed(run);
            let mu = 0.3 + 0.1 * (-(v / v_s).powi(2)).exp();
            let x_eq = (mu * n + c_v * v) / 200.0;
            assert!(
                (run.points[0].row[ix] - x_eq).abs() < 1e-6,
                "{} rpm",
                run.value
            );
        }
    }
    let lowest_steady = down
        .iter()
        .filter(|r| r.final_state)
        .map(|r| r.value)
        .fold(f64::MAX, f64::min);
    assert!(lowest_steady > rpm(v_c) && lowest_steady - 0.4 < rpm(v_c));

    // Up branch: the stick–slip cycle persists above v_c (subcritical: hysteresis).
    for run in &up {
        assert!(!run.final_state, "up, {} rpm: no stick–slip", run.value);
    }
    // Where both branches stick–slip they are on the same cycle.
    for u in &up {
        if let Some(d) = down.iter().find(|d| d.value == u.value && !d.final_state) {
            let (a, b) = (xs(u, ix), xs(d, ix));
            let spread = a
                .iter()
                .chain(&b)
                .fold(0.0f64, |m, x| m.max((x - a[0]).abs()));
            assert!(spread < 1e-7, "{} rpm: {spread}", u.value);
        }
    }
}

#[test]
fn fixed_initial_conditions_run_each_value_once_and_report_progress() {
    let p = preset("coulomb_stick_slip_undamped");
    let mut spec = SweepSpec::new("system.wheel_rpm", 5.0, 15.0, 5, 6.0);
    spec.start = SweepStart::Fixed;
    spec.transient = Transient::Seconds(3.0);
    spec.threads = Some(2);
    let seen = Mutex::new(Vec::new());
    let progress = |p: &SweepProgress<'_>| seen.lock().unwrap().push((p.done, p.total));
    let control = SweepControl {
        progress: Some(&progress),
        ..SweepControl::default()
    };
    let r = sweep(&p, &spec, control).unwrap();
    assert_eq!(r.runs.len(), 5);
    let ix = r.column("x").unwrap();
    for (i, run) in r.runs.iter().enumerate() {
        assert_eq!((run.branch, run.index), (Branch::Fixed, i));
        // x_K − D = 0.02 m whatever the belt speed.
        assert!(xs(run, ix).iter().all(|x| (x - 0.02).abs() < 1e-9));
    }
    let mut seen = seen.into_inner().unwrap();
    seen.sort();
    assert_eq!(seen, (1..=5).map(|d| (d, 5)).collect::<Vec<_>>());
}

#[test]
fn cancellation_stops_the_sweep_early() {
    let p = preset("coulomb_stick_slip_undamped");
    let spec = SweepSpec::new("law.mu_s", 0.31, 0.5, 50, 20.0);
    let cancel = AtomicBool::new(false);
    let progress = |p: &SweepProgress<'_>| {
        if p.done >= 2 {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let control = SweepControl {
        cancel: Some(&cancel),
        progress: Some(&progress),
    };
    match sweep(&p, &spec, control) {
        Err(SweepError::Cancelled { done, total }) => {
            assert_eq!(total, 100);
            assert!((2..=4).contains(&done), "{done}");
        }
        other => panic!("expected cancellation, got {other:?}"),
    }
}

#[test]
fn errors_name_the_parameter_value() {
    let p = preset("coulomb_stick_slip_undamped");
    // μ_S beyond its documented range.
    let spec = SweepSpec::new("law.mu_s", 0.4, 2.0, 2, 2.0);
    match sweep(&p, &spec, SweepControl::default()) {
        Err(SweepError::Parameter { param, value, .. }) => {
            assert_eq!((param.as_str(), value), ("law.mu_s", 2.0));
        }
        other => panic!("{other:?}"),
    }
    // Fixed-step RK4 with Δt = 0.01 s is unstable for ω·Δt > 2.785: k = 1e5 N/m (ω = 316 rad/s)
    // diverges, k = 100 N/m does not.
    let mut p = p;
    p.set_path("run.integrator", "Rk4").unwrap();
    p.set_path("run.rk4_dt", "0.01").unwrap();
    let mut spec = SweepSpec::new("system.stiffness", 100.0, 1e5, 2, 20.0);
    spec.start = SweepStart::Fixed;
    let err = sweep(&p, &spec, SweepControl::default()).unwrap_err();
    match &err {
        SweepError::Run {
            value,
            source: SimError::NonFinite { .. },
            ..
        } => assert_eq!(*value, 1e5),
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string().contains("system.stiffness = 100000"),
        "{err}"
    );
}

#[test]
fn response_frequency_follows_the_closed_form_stick_slip_period() {
    use tribolab::analysis::response::response_frequencies;
    // Undamped Coulomb cycle: T(v_b) = 2D/v_b + (2π − 2·atan(ωD/v_b))/ω, ω = 10 rad/s,
    // D = 0.01 m; belt-turn frequency v_b/L_b with v_b = 2π·R·n/60, R = 0.1 m, L_b = 1 m.
    let p = preset("coulomb_stick_slip_undamped");
    let mut spec = SweepSpec::new("system.wheel_rpm", 6.0, 14.0, 3, 60.0);
    spec.start = SweepStart::Fixed;
    spec.transient = Transient::Seconds(10.0);
    let points = response_frequencies(&p, &spec, SweepControl::default()).unwrap();
    assert_eq!(points.len(), 3);
    for pt in &points {
        let vb = TAU * 0.1 * pt.value / 60.0;
        let (omega, d) = (10.0, 0.01);
        let period =
            2.0 * d / vb + (2.0 * std::f64::consts::PI - 2.0 * (omega * d / vb).atan()) / omega;
        let f = pt.response_hz.unwrap();
        assert!(
            (f * period - 1.0).abs() < 1e-6,
            "{} rpm: {f} Hz vs {}",
            pt.value,
            1.0 / period
        );
        assert!((pt.drive_hz - vb).abs() < 1e-12);
        assert!(pt.amplitude > 0.005, "{}", pt.amplitude);
    }
}

/// The core sweeps maps too (iterations instead of seconds): the logistic map has one fixed
/// point `1 − 1/r` at r = 2.8 and a period-2 orbit at r = 3.2, whose two points are the roots
/// of `r²x² − r(r + 1)x + (r + 1) = 0`.
#[test]
fn logistic_map_sweep_shows_the_first_period_doubling() {
    let p = preset("logistic_map");
    let mut spec = SweepSpec::new("system.r", 2.8, 3.2, 2, 2000.0);
    spec.start = SweepStart::Fixed;
    spec.transient = Transient::Returns(1500);
    let r = sweep(&p, &spec, SweepControl::default()).unwrap();
    let ix = r.column("x").unwrap();
    assert_eq!(r.runs.len(), 2);
    for run in &r.runs {
        assert_eq!(run.points.len(), 500);
        let mut distinct: Vec<f64> = xs(run, ix);
        distinct.sort_by(f64::total_cmp);
        distinct.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
        let rr = run.value;
        let expected: Vec<f64> = if rr < 3.0 {
            vec![1.0 - 1.0 / rr]
        } else {
            let (a, b, c) = (rr * rr, -rr * (rr + 1.0), rr + 1.0);
            let d = (b * b - 4.0 * a * c).sqrt();
            vec![(-b - d) / (2.0 * a), (-b + d) / (2.0 * a)]
        };
        assert_eq!(distinct.len(), expected.len(), "r = {rr}: {distinct:?}");
        for (x, e) in distinct.iter().zip(&expected) {
            assert!((x - e).abs() < 1e-9, "r = {rr}: {x} vs {e}");
        }
    }
}
