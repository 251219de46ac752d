//! Armstrong's seven-parameter model against closed forms (MODELS §2.6, §3.5): pre-sliding
//! spring, dwell-time break-away, steady slip after the lag, frictional-lag loops, and the
//! stick durations of the dwell preset on the belt–block bench.
//!
//! Every expected value is computed here from the model's equations and the imposed motion
//! (the lag filter `τ_L·v̇_f = v − v_f` is linear, so `v_f` has a closed form for each motion);
//! the law only supplies the measured force, states and event times.

#![allow(clippy::unwrap_used)]

use std::f64::consts::TAU;

use tribolab::laws::armstrong::ArmstrongParams;
use tribolab::laws::{FrictionLaw, LawConfig};
use tribolab::preset::Preset;
use tribolab::rig::{Motion, run_prescribed};

// Columns of `run_prescribed` rows: t, x, v, friction_force, x_s, v_f, t_d, f_s_memory, event.
const T: usize = 0;
const V: usize = 2;
const F: usize = 3;
const XS: usize = 4;
const TD: usize = 6;
const MEMORY: usize = 7;
const EV: usize = 8;

fn run(p: &ArmstrongParams, motion: Motion, t_end: f64, dt: f64) -> Vec<Vec<f64>> {
    run_prescribed(
        LawConfig::Armstrong(p.clone()).build(),
        motion,
        1.0,
        t_end,
        1e-10,
        dt,
    )
    .expect("runs")
}

/// Event rows, as (before, after) pairs.
fn events(rows: &[Vec<f64>]) -> Vec<(&Vec<f64>, &Vec<f64>)> {
    let ev: Vec<&Vec<f64>> = rows.iter().filter(|r| r[EV] == 1.0).collect();
    ev.chunks(2).map(|c| (c[0], c[1])).collect()
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// Root of a function that goes from negative to positive on `[lo, hi]`, by bisection.
fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    assert!(f(lo) < 0.0 && f(hi) > 0.0, "no sign change");
    for _ in 0..200 {
        let m = 0.5 * (lo + hi);
        if f(m) < 0.0 {
            lo = m;
        } else {
            hi = m;
        }
    }
    0.5 * (lo + hi)
}

/// `v_f` for `x = A·sin ωt` from `v_f(0) = 0`: the filter of `v = Aω·cos ωt`.
fn vf_sine(a: f64, w: f64, tau: f64, t: f64) -> f64 {
    a * w * ((w * t).cos() + w * tau * (w * t).sin() - (-t / tau).exp()) / (1.0 + (w * tau).powi(2))
}

fn stribeck(v: f64, v_s: f64) -> f64 {
    1.0 / (1.0 + (v / v_s).powi(2))
}

/// Imposed `x = A·sin 2πft` with `2σ₀A` below the break-away force: the contact slips until
/// `t₁ = 1/(4f)`, then sticks for good, and the force is the pre-sliding spring
/// `F = −σ₀·(x − A) − σ₁·v` exactly, with no hysteresis.
#[test]
fn presliding_force_is_the_spring_from_the_stick_point() {
    for sigma1 in [0.0, 316.0] {
        let p = ArmstrongParams {
            sigma1_ns_per_m: sigma1,
            ..ArmstrongParams::default()
        };
        let (a, f) = (5e-6, 1.0);
        let w = TAU * f;
        // 2σ₀A = 1 N < F_C + F_S,a ≈ 1.5 N.
        assert!(2.0 * p.sigma0_n_per_m * a < p.f_c_n + 0.9 * p.f_s_n);
        let rows = run(
            &p,
            Motion::Sine {
                amplitude_m: a,
                frequency_hz: f,
            },
            2.5,
            1e-3,
        );
        let ev = events(&rows);
        assert_eq!(ev.len(), 1, "one switch (slip → stick), got {}", ev.len());
        let t1 = 0.25;
        assert!((ev[0].1[T] - t1).abs() < 1e-9, "stick at {}", ev[0].1[T]);
        let f_scale = p.f_c_n + p.f_s_n;
        let mut checked = 0;
        for r in rows.iter().filter(|r| r[T] > t1 && r[EV] == 0.0) {
            let t = r[T];
            let x_s = a * (w * t).sin() - a;
            let v = a * w * (w * t).cos();
            assert!(
                (r[XS] - x_s).abs() < 1e-6 * a,
                "t = {t}: x_s {} vs {x_s}",
                r[XS]
            );
            let expected = -p.sigma0_n_per_m * x_s - sigma1 * v;
            assert!(
                (r[F] - expected).abs() < 1e-6 * f_scale,
                "t = {t}: F {} vs {expected}",
                r[F]
            );
            checked += 1;
        }
        assert!(checked > 2000, "{checked} samples");
        // No hysteresis: back at x = A (t = t₁ + 1 s) the elastic force is zero again.
        let back = rows.iter().find(|r| (r[T] - 1.25).abs() < 1e-9).unwrap();
        assert!(
            (back[F] + sigma1 * a * w * (w * 1.25).cos()).abs() < 1e-6 * f_scale,
            "F at return {}",
            back[F]
        );
    }
}

/// Dwell-time break-away (MODELS §3.5 test 3 with an imposed reversal): `x = A·sin 2πft`.
/// The first slip ends at `t₁ = 1/(4f)` with the lagged velocity `v_f(t₁)` in closed form, so
/// `F_S,a = F_S,∞/(1 + (v_f/v_S)²)`; in stick `x_s = A·sin ωt − A`, and the junction breaks when
/// `σ₀·|x_s| = F_C + F_S,a + (F_S,∞ − F_S,a)·t_d/(t_d + γ)`, `t_d = t − t₁`. Three stiffnesses
/// give three dwell times; the break-away force rises with the dwell.
#[test]
fn break_away_force_follows_the_dwell_law() {
    let (a, f) = (1e-4, 1.0);
    let w = TAU * f;
    let t1 = 0.25;
    let mut previous: Option<(f64, f64)> = None;
    for sigma0 in [4e4, 2e4, 1.2e4] {
        let p = ArmstrongParams {
            sigma0_n_per_m: sigma0,
            sigma1_ns_per_m: 0.0,
            f_c_n: 1.0,
            f_v_ns_per_m: 0.4,
            f_s_n: 1.0,
            v_s_mps: 1.5e-4,
            tau_l_s: 0.05,
            gamma_s: 0.1,
        };
        let (fc, fsi, vs, tau, gamma) = (1.0, 1.0, 1.5e-4, 0.05, 0.1);
        let f_sa = fsi * stribeck(vf_sine(a, w, tau, t1), vs);
        // The lag makes F_S,a clearly lower than F_S,∞ (≈ 0.42 N).
        assert!((0.3..0.5).contains(&f_sa), "F_S,a = {f_sa}");
        let level = |t_d: f64| f_sa + (fsi - f_sa) * t_d / (t_d + gamma);
        let t_b = bisect(
            |t| sigma0 * a * (1.0 - (w * t).sin()) - (fc + level(t - t1)),
            t1 + 1e-9,
            0.75,
        );
        let f_break = fc + level(t_b - t1);

        let rows = run(
            &p,
            Motion::Sine {
                amplitude_m: a,
                frequency_hz: f,
            },
            t_b + 0.05,
            1e-4,
        );
        // First slip: F = −(F_C + F_S,∞·S(v_f)) − F_v·v with the closed-form v_f.
        for r in rows.iter().filter(|r| r[T] < t1 - 1e-3 && r[EV] == 0.0) {
            let t = r[T];
            let v = a * w * (w * t).cos();
            let expected = -(fc + fsi * stribeck(vf_sine(a, w, tau, t), vs)) - 0.4 * v;
            assert!(
                (r[F] - expected).abs() < 1e-7 * fc,
                "t = {t}: F {} vs {expected}",
                r[F]
            );
        }
        let ev = events(&rows);
        assert_eq!(ev.len(), 2, "stick and break-away, got {} events", ev.len());
        assert!((ev[0].1[T] - t1).abs() < 1e-9, "stick at {}", ev[0].1[T]);
        let (before, after) = ev[1];
        assert!(
            (before[T] - t_b).abs() < 1e-9,
            "σ₀ = {sigma0}: break-away at {} vs {t_b}",
            before[T]
        );
        // σ₁ = 0: the stick force is the elastic force.
        assert!(
            rel(before[F], f_break) < 1e-6,
            "σ₀ = {sigma0}: break-away force {} vs {f_break}",
            before[F]
        );
        // The memory states: dwell time t_b − t₁ and F_S,a before, the reached level after.
        assert!(
            (before[TD] - (t_b - t1)).abs() < 1e-8 && rel(before[MEMORY], f_sa) < 1e-9,
            "before break-away: t_d = {}, memory {} (F_S,a = {f_sa})",
            before[TD],
            before[MEMORY]
        );
        assert!(
            rel(after[MEMORY], level(t_b - t1)) < 1e-6,
            "after break-away: memory {} vs level {}",
            after[MEMORY],
            level(t_b - t1)
        );
        // Slip starts backwards (x_s < 0) at the reached level, with the lagged Stribeck term.
        let v_b = a * w * (w * t_b).cos();
        let slip = fc + level(t_b - t1) * stribeck(vf_sine(a, w, tau, t_b), vs);
        assert!(
            rel(after[F], slip - 0.4 * v_b) < 1e-6,
            "slip force {} vs {}",
            after[F],
            slip - 0.4 * v_b
        );
        eprintln!(
            "σ₀ = {sigma0}: t_d = {:.6} s, break-away {f_break:.9} N, event error {:.1e} s, force rel. error {:.1e}",
            t_b - t1,
            before[T] - t_b,
            rel(before[F], f_break)
        );
        if let Some((t_d_prev, f_prev)) = previous {
            assert!(t_b - t1 > t_d_prev && f_break > f_prev, "dwell effect");
        }
        previous = Some((t_b - t1, f_break));
    }
    // Between F_C + F_S,a (no dwell) and F_C + F_S,∞ (infinite dwell).
    let (_, f_last) = previous.unwrap();
    assert!(f_last > 1.8 && f_last < 2.0, "{f_last}");
}

/// Constant sliding from rest: `v_f = v·(1 − e^(−t/τ_L))`, so
/// `F = −[F_C + F_S,∞/(1 + (v_f/v_S)²)]·sgn v − F_v·v` at every sample, and after 40 τ_L the
/// steady Stribeck curve `−[F_C + F_S,∞/(1 + (v/v_S)²)]·sgn v − F_v·v`.
#[test]
fn slip_force_settles_on_the_steady_curve() {
    let p = ArmstrongParams::default();
    let (fc, fs, fv, vs, tau) = (1.0, 0.5, 0.4, 1e-3, 0.01);
    for v in [-0.01, 5e-4, 2e-3, 0.05] {
        let rows = run(&p, Motion::ConstantVelocity { velocity_mps: v }, 0.4, 1e-3);
        let sign = v.signum();
        for r in rows.iter().filter(|r| r[EV] == 0.0) {
            let vf = v * (1.0 - (-r[T] / tau).exp());
            let expected = -sign * (fc + fs * stribeck(vf, vs)) - fv * v;
            assert!(
                (r[F] - expected).abs() < 1e-8,
                "v = {v}, t = {}: {} vs {expected}",
                r[T],
                r[F]
            );
        }
        let last = rows.last().unwrap();
        let steady = -sign * (fc + fs / (1.0 + (v / vs).powi(2))) - fv * v;
        assert!(
            (last[F] - steady).abs() < 1e-9,
            "v = {v}: {} vs {steady}",
            last[F]
        );
        let law = LawConfig::Armstrong(p.clone()).build();
        assert!((law.steady_force(v, 1.0, 1.0) - steady).abs() < 1e-12);
        assert!(rows.iter().all(|r| r[EV] == 0.0), "no switch while sliding");
    }
}

/// Frictional lag (MODELS §3.5 test 2): under `v = v₀ + v₁·sin 2πft` with `v₀ > v₁ > 0` the
/// force runs above the steady curve while v rises and below it while v falls; the loop area
/// `∮|F| dv` grows with f. Samples match the closed form (steady-state filter response) and the
/// areas match its quadrature.
#[test]
fn lag_loop_widens_with_frequency() {
    let p = ArmstrongParams {
        f_v_ns_per_m: 0.0,
        ..ArmstrongParams::default()
    };
    let (fc, fs, vs, tau) = (1.0, 0.5, 1e-3, 0.01);
    let (v0, v1) = (2e-3, 1e-3);
    let mut areas = Vec::new();
    for f in [0.2, 2.0, 20.0] {
        let w = TAU * f;
        let period = 1.0 / f;
        let n_per = 4000.0;
        // Start-up transient of the filter: e^(−t/τ) < 1e-30 after 0.7 s.
        let t_start = (0.7 / period).ceil() * period;
        let rows = run(
            &p,
            Motion::VelocitySine {
                mean_mps: v0,
                amplitude_mps: v1,
                frequency_hz: f,
            },
            t_start + period,
            period / n_per,
        );
        let steady_vf = |t: f64| {
            let s = w * tau;
            v0 + v1 * ((w * t).sin() - s * (w * t).cos()) / (1.0 + s * s)
        };
        let force = |t: f64| -(fc + fs * stribeck(steady_vf(t), vs));
        let last: Vec<&Vec<f64>> = rows
            .iter()
            .filter(|r| r[T] >= t_start - 1e-12 && r[EV] == 0.0)
            .collect();
        assert!(last.len() as f64 > n_per, "{} samples", last.len());
        let mut area = 0.0;
        for pair in last.windows(2) {
            let (r0, r1) = (pair[0], pair[1]);
            assert!(
                (r1[F] - force(r1[T])).abs() < 1e-8,
                "f = {f}, t = {}",
                r1[T]
            );
            // ∮|F| dv, trapezoidal.
            area += 0.5 * (r0[F].abs() + r1[F].abs()) * (r1[V] - r0[V]);
        }
        // Quadrature of the closed form over one period (midpoint rule, fine grid).
        let m = 200_000;
        let h = period / m as f64;
        let exact: f64 = (0..m)
            .map(|i| {
                let t = (i as f64 + 0.5) * h;
                force(t).abs() * v1 * w * (w * t).cos() * h
            })
            .sum();
        assert!(
            (area - exact).abs() < 1e-5 * exact.abs(),
            "f = {f}: area {area} vs {exact}"
        );
        eprintln!("f = {f} Hz: loop area {area:.6e} N·m/s (closed form {exact:.6e})");
        // Higher while accelerating: clockwise loop in (v, |F|), positive ∮|F| dv.
        assert!(area > 0.0, "f = {f}: area {area}");
        areas.push(area);
    }
    assert!(
        areas[0] < areas[1] && areas[1] < areas[2],
        "loop areas {areas:?} must grow with frequency"
    );
    // Quasi-static at 0.2 Hz (ωτ_L = 0.013): the loop almost closes onto the steady curve.
    assert!(areas[0] < 0.05 * areas[2], "{areas:?}");
}

/// The dwell preset on the belt–block bench. In stick the equations are linear with linear
/// forcing, so after the pre-sliding transient (decay rate σ₁/2m ≈ 158 s⁻¹) the elastic force is
/// `σ₀·x_s(t) = σ₀/(σ₀ + k)·[−k·(x_e + v_b·t) − c·β + σ₁·k·v_b/(σ₀ + k)]`, `β = σ₀v_b/(σ₀ + k)`,
/// from the entry position `x_e`. The stick ends when its magnitude reaches
/// `F_C + F_S(γ, t)`, with `F_S,a` from the slip that ended it: the predicted stick durations must
/// match the located events, and the break-away forces the dwell law.
#[test]
fn dwell_preset_stick_durations_match_the_dwell_law() {
    let text = include_str!("../presets/seven_parameter_dwell.ron");
    let mut preset = Preset::from_ron(text, "seven_parameter_dwell").unwrap();
    preset.run.output_interval_s = 0.01;
    let (law, sys) = match (&preset.law, &preset.system) {
        (LawConfig::Armstrong(l), tribolab::systems::SystemConfig::BeltBlock(s)) => {
            (l.clone(), s.clone())
        }
        _ => panic!("dwell preset is an Armstrong belt–block"),
    };
    assert_eq!(sys.joint_amplitude, 0.0);
    let (k, c, vb) = (
        sys.stiffness_n_per_m,
        sys.damping_ns_per_m,
        sys.belt_speed_mps(),
    );
    let (s0, s1) = (law.sigma0_n_per_m, law.sigma1_ns_per_m);
    let (fc, fsi, vs, gamma) = (law.f_c_n, law.f_s_n, law.v_s_mps, law.gamma_s);

    let mut sim = preset.build_simulation().unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(40.0, &mut rows).unwrap();
    let names = sim.column_names();
    let col = |n: &str| names.iter().position(|c| c == n).unwrap();
    let (it, ix, istick, ixs, ivf, iev) = (
        col("t"),
        col("x"),
        col("stick"),
        col("x_s"),
        col("v_f"),
        col("event"),
    );
    // Sticks as (start time, entry x, v_f at entry); break-aways as the row before the switch.
    let mut sticks = vec![(0.0, 0.0, 0.0)];
    let mut breaks = Vec::new();
    let ev: Vec<&Vec<f64>> = rows.iter().filter(|r| r[iev] == 1.0).collect();
    for pair in ev.chunks(2) {
        let (b, a) = (pair[0], pair[1]);
        if b[istick] == 0.0 && a[istick] == 1.0 {
            sticks.push((b[it], b[ix], b[ivf]));
        } else if b[istick] == 1.0 && a[istick] == 0.0 {
            breaks.push(b.clone());
        }
    }
    assert!(breaks.len() >= 8, "{} break-aways in 40 s", breaks.len());
    let beta = s0 * vb / (s0 + k);
    let mut level_prev = fsi; // the contact is fully aged at t = 0
    for (i, br) in breaks.iter().enumerate() {
        let (t_s, x_e, vf) = sticks[i];
        let f_sa = if i == 0 {
            fsi
        } else {
            level_prev * stribeck(vf, vs)
        };
        let level = |t_d: f64| f_sa + (fsi - f_sa) * t_d / (t_d + gamma);
        let elastic =
            |t: f64| s0 / (s0 + k) * (k * (x_e + vb * t) + c * beta - s1 * k * vb / (s0 + k));
        let t_d_pred = bisect(|t| elastic(t) - (fc + level(t)), 1e-3, 30.0);
        let t_d = br[it] - t_s;
        assert!(
            (t_d - t_d_pred).abs() < 1e-8 * t_d_pred,
            "stick {i}: {t_d} s vs predicted {t_d_pred} s"
        );
        eprintln!(
            "stick {i}: t_d = {t_d:.6} s, predicted {t_d_pred:.6} s, rel. error {:.1e}",
            (t_d - t_d_pred).abs() / t_d_pred
        );
        let f_break = s0 * br[ixs].abs();
        assert!(
            rel(f_break, fc + level(t_d)) < 1e-9,
            "stick {i}: break-away {f_break} vs {}",
            fc + level(t_d)
        );
        level_prev = level(t_d);
    }
    // The first break-away (aged contact) is at F_C + F_S,∞; later ones are lower.
    let first = s0 * breaks[0][ixs].abs();
    assert!(rel(first, fc + fsi) < 1e-9, "{first}");
    let last = s0 * breaks.last().unwrap()[ixs].abs();
    assert!(
        last < first - 0.1,
        "dwell recovery incomplete: {last} vs {first}"
    );
    // Energy bookkeeping closes.
    let end = rows.last().unwrap();
    let err = end[col("energy_error")].abs();
    assert!(err < 1e-6 * end[col("w_belt")].abs(), "energy error {err}");
}
