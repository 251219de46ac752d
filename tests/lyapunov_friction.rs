//! Lyapunov exponents and saltation matrices of the belt–block (MODELS §2.2, §4.3–4.4, §5).
//!
//! Reference: the undamped static/kinetic Coulomb cycle of MODELS §5 (m = 1 kg, k = 100 N/m,
//! N = 10 N, μ_S = 0.4, μ_K = 0.3, v_b = 0.1 m/s): ω = 10 rad/s, x_K = 0.03 m, D = 0.01 m,
//! stick from x_K − D = 0.02 m to x_S = 0.04 m, slip `x(s) = x_K + D cos ωs + (v_b/ω) sin ωs`,
//! period T = 0.671239 s. Its Floquet multipliers are {1, 0} (Leine & Nijmeijer: entering stick
//! the saltation matrix is singular), so its exponents are {0, −∞}.

#![allow(clippy::unwrap_used)]

use tribolab::analysis::classify::{Attractor, PoincareShape, SystemKind};
use tribolab::analysis::lyapunov::jacobian::Work;
use tribolab::analysis::lyapunov::saltation::switch;
use tribolab::analysis::lyapunov::{LyapunovOptions, analyze, flow_jacobian};
use tribolab::integrate::driver::DriverSettings;
use tribolab::integrate::{Method, Model, Simulation};
use tribolab::laws::static_kinetic::StaticKineticParams;
use tribolab::laws::{FrictionLaw, LawConfig, SignModel};
use tribolab::preset::{Preset, builtin};
use tribolab::systems::{BeltBlock, BeltBlockParams, SystemConfig};

const V_B: f64 = 0.1;
/// t_stick + t_slip = 2D/v_b + (π + 2·arctan(v_b/(ωD)))/ω = 0.2 + 1.5π/10 s.
const T_CYCLE: f64 = 0.2 + 0.15 * std::f64::consts::PI;

fn cycle_params() -> BeltBlockParams {
    BeltBlockParams {
        mass_kg: 1.0,
        stiffness_n_per_m: 100.0,
        damping_ns_per_m: 0.0,
        normal_load_n: 10.0,
        wheel_radius_m: 0.1,
        wheel_rpm: 60.0 / std::f64::consts::TAU,
        joint_amplitude: 0.0,
        ..BeltBlockParams::default()
    }
}

fn cycle_law() -> LawConfig {
    LawConfig::StaticKinetic(StaticKineticParams {
        mu_s: 0.4,
        mu_k: 0.3,
        viscous_ns_per_m: 0.0,
        sign: SignModel::SetValued,
    })
}

fn cycle_model() -> BeltBlock {
    BeltBlock::new(cycle_params(), cycle_law().build(), None)
}

fn settings(rtol: f64, output_interval_s: f64) -> DriverSettings {
    DriverSettings {
        method: Method::Dopri5,
        rtol,
        rk4_dt_s: 1e-4,
        output_interval_s,
    }
}

/// A state of the cycle `s` seconds after break-away (closed form), in slip⁻.
fn slip_state(s: f64) -> Vec<f64> {
    let (w, d, xk) = (10.0, 0.01, 0.03);
    let mut y = cycle_model().initial_state();
    y[0] = xk + d * (w * s).cos() + V_B / w * (w * s).sin();
    y[1] = -d * w * (w * s).sin() + V_B * (w * s).cos();
    y
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

#[test]
fn saltation_matrices_of_the_closed_form_cycle() {
    let mut scales = vec![1.0; 5];
    let mut model = cycle_model();
    model.state_scales(&mut scales);
    let mut work = Work::new(model.dim(), model.n_events());
    // Break-away at x_S = 0.04 m from stick: f⁻ = (v_b, 0), f⁺ = (v_b, (μ_K − μ_S)N/m) =
    // (0.1, −1), n = ∂(F_S − |kx|)/∂(x, v) = (−k, 0): S = I + (f⁺ − f⁻)nᵀ/(nᵀf⁻) =
    // [[1, 0], [a⁺/v_b, 1]] = [[1, 0], [−10, 1]].
    let mut y = model.initial_state();
    y[0] = 0.02;
    model.initialize(0.0, &mut y).unwrap();
    assert_eq!(model.law().stuck(), Some(true));
    y[0] = 0.04;
    let sw = switch(&mut model, 0, 0.0, &mut y, &scales, &mut work).unwrap();
    assert_eq!(model.law().stuck(), Some(false));
    assert!(
        close(&sw.matrix(), &[1.0, 0.0, -10.0, 1.0], 1e-6),
        "{:?}",
        sw.matrix()
    );
    assert!(sw.log_abs_det().abs() < 1e-9);
    // Re-stick at x_K − D = 0.02 m in slip⁻: f⁻ = (v_b, (μ_K N − kx)/m) = (0.1, 1),
    // f⁺ = (v_b, 0), n = ∂(−v_rel)/∂(x, v) = (0, −1): S = diag(1, 0), singular.
    let mut y = model.initial_state();
    y[0] = 0.02;
    y[1] = V_B - 1e-3;
    model.initialize(0.0, &mut y).unwrap();
    y[1] = V_B;
    let sw = switch(&mut model, 0, 0.0, &mut y, &scales, &mut work).unwrap();
    assert_eq!(model.law().stuck(), Some(true));
    assert!(
        close(&sw.matrix(), &[1.0, 0.0, 0.0, 0.0], 1e-9),
        "{:?}",
        sw.matrix()
    );
    assert_eq!(sw.log_abs_det(), f64::NEG_INFINITY);
}

/// End state of a plain event-driven run from `y0` over `[0, t1]` (dense output at `t1`).
fn flow_map(y0: &[f64], t1: f64) -> Vec<f64> {
    let mut sim = Simulation::new(
        Box::new(cycle_model()),
        y0.to_vec(),
        0.0,
        settings(1e-12, t1),
    )
    .unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(t1, &mut rows).unwrap();
    let row = rows
        .iter()
        .rev()
        .find(|r| (r[0] - t1).abs() < 1e-12)
        .unwrap();
    // Columns of the belt–block: t, x, v, …
    vec![row[1], row[2]]
}

/// The flow Jacobian through a re-stick, a stick phase and a break-away, against central
/// differences of the plain event-driven simulation (which knows nothing of saltation).
#[test]
fn flow_jacobian_through_switches_matches_finite_differences() {
    let y0 = slip_state(0.1);
    // Slip to re-stick (~0.37 s), stick 0.2 s, break-away, then 0.13 s of slip.
    let t1 = 0.7;
    let (x1, phi) =
        flow_jacobian(Box::new(cycle_model()), &y0, 0.0, t1, settings(1e-11, 1.0)).unwrap();
    let end = flow_map(&y0, t1);
    assert!(close(&x1[..2], &end, 1e-9), "{x1:?} vs {end:?}");
    let h = [1e-6, 1e-6];
    let mut fd = [0.0; 4];
    for j in 0..2 {
        let (mut yp, mut ym) = (y0.clone(), y0.clone());
        yp[j] += h[j];
        ym[j] -= h[j];
        let (ep, em) = (flow_map(&yp, t1), flow_map(&ym, t1));
        for i in 0..2 {
            fd[i * 2 + j] = (ep[i] - em[i]) / (2.0 * h[j]);
        }
    }
    println!("Φ (variational + saltation) = {phi:?}\nΦ (finite differences)      = {fd:?}");
    let scale = fd.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    assert!(close(&phi, &fd, 1e-4 * scale), "{phi:?} vs {fd:?}");
    // Entering stick leaves rank one; the break-away turns δx into δv = −10 δx (S above).
    let det = phi[0] * phi[3] - phi[1] * phi[2];
    assert!(det.abs() < 1e-9 * scale * scale, "det Φ = {det}");
}

/// Over one period from a point of the cycle the monodromy matrix has the multipliers {1, 0}
/// (MODELS §5): trace 1, determinant 0.
#[test]
fn monodromy_of_the_stick_slip_cycle_has_multipliers_one_and_zero() {
    let y0 = slip_state(0.1);
    let (x1, phi) = flow_jacobian(
        Box::new(cycle_model()),
        &y0,
        0.0,
        T_CYCLE,
        settings(1e-11, 1.0),
    )
    .unwrap();
    assert!(
        close(&x1[..2], &y0[..2], 1e-6),
        "not periodic: {x1:?} vs {y0:?}"
    );
    let trace = phi[0] + phi[3];
    let det = phi[0] * phi[3] - phi[1] * phi[2];
    println!("monodromy {phi:?}: trace {trace}, det {det}");
    assert!((trace - 1.0).abs() < 1e-5, "trace {trace}");
    assert!(det.abs() < 1e-9, "det {det}");
}

fn cycle_preset() -> Preset {
    builtin::load("coulomb_stick_slip_undamped")
        .unwrap()
        .unwrap()
}

/// Exponents of the cycle: λ₁ = 0 (within the 5/T resolution), λ₂ = −∞ (a collapse at every
/// re-stick); the saltation matrices are exercised twice per period.
#[test]
fn stick_slip_cycle_exponents_are_zero_and_minus_infinity() {
    let preset = cycle_preset();
    // The shipped preset is the closed-form bench.
    let SystemConfig::BeltBlock(ref b) = preset.system else {
        panic!("not the belt–block")
    };
    assert!((b.belt_speed_mps() - V_B).abs() < 1e-15 && b.joint_amplitude == 0.0);
    assert_eq!(preset.law, cycle_law());
    let opts = LyapunovOptions {
        transient: 20.0,
        duration: 200.0,
        renorm_interval: 0.5,
        ..LyapunovOptions::default()
    };
    let r = analyze(&preset, &opts, true).unwrap();
    let s = &r.spectrum;
    println!(
        "λ = {:?}, {} switches, {} renormalisations",
        s.exponents, s.switches, s.renormalisations
    );
    assert_eq!(s.kind, SystemKind::Autonomous);
    assert!(s.exponents[0].abs() < 5.0 / 200.0, "{:?}", s.exponents);
    assert_eq!(s.exponents[1], f64::NEG_INFINITY);
    let cycles = 200.0 / T_CYCLE;
    assert!(
        (s.switches as f64 - 2.0 * cycles).abs() <= 2.0,
        "{} switches in {cycles} cycles",
        s.switches
    );
    assert_eq!(s.grazing, 0);
    let l = r.largest.unwrap();
    println!("Benettin λ₁ = {}", l.exponent);
    assert!(l.exponent.abs() < 5.0 / 200.0, "{}", l.exponent);
    let c = &r.classification;
    assert_eq!(c.attractor, Attractor::LimitCycle, "{c:?}");
    assert_eq!(c.poincare, PoincareShape::Points(1));
    assert_eq!(c.kaplan_yorke, 1.0);
}

/// The damped Stribeck stick–slip preset (set-valued stick, c = 0.5 N·s/m): an attracting
/// stick–slip cycle, again {0, −∞}.
#[test]
fn damped_stribeck_stick_slip_is_a_limit_cycle() {
    let preset = builtin::load("stribeck_stick_slip").unwrap().unwrap();
    let opts = LyapunovOptions {
        transient: 50.0,
        duration: 150.0,
        ..LyapunovOptions::default()
    };
    let r = analyze(&preset, &opts, true).unwrap();
    let s = &r.spectrum;
    println!(
        "Stribeck λ = {:?}, Benettin {:?}",
        s.exponents,
        r.largest.as_ref().map(|l| l.exponent)
    );
    assert!(s.exponents[0].abs() < 5.0 / 150.0, "{:?}", s.exponents);
    assert_eq!(s.exponents[1], f64::NEG_INFINITY);
    assert!(s.switches > 100);
    // Reference and shadow cross each switching surface ~d₀ apart in time: both switches must
    // be taken (a missed one left the reference slipping in the wrong mode, λ₁ ≈ +158/s).
    let l1 = r.largest.as_ref().unwrap().exponent;
    assert!(l1.abs() < 5.0 / 150.0, "Benettin λ₁ = {l1}");
    assert_eq!(r.classification.attractor, Attractor::LimitCycle);
    assert_eq!(r.classification.kaplan_yorke, 1.0);
}

/// The S1 bench with the belt joint is forced with the belt-turn period: the spectrum has one
/// exponent per state direction and the classification adds the exact zero of the phase.
#[test]
fn forced_bench_is_classified_in_the_extended_space() {
    let preset = builtin::load("s1_bench_19_36rpm").unwrap().unwrap();
    let opts = LyapunovOptions {
        transient: 20.0,
        duration: 100.0,
        ..LyapunovOptions::default()
    };
    let r = analyze(&preset, &opts, false).unwrap();
    let period = preset.system.forcing_period_s().unwrap();
    assert_eq!(r.spectrum.kind, SystemKind::Forced { period });
    assert_eq!(r.spectrum.exponents.len(), 2);
    let c = &r.classification;
    assert!(c.time_zero_added);
    assert_eq!(c.spectrum.len(), 3);
    assert!(c.spectrum.contains(&0.0));
    // Stroboscopic points, one per belt turn after the transient.
    let turns = (opts.duration / period).floor() as usize;
    assert!(r.spectrum.poincare_points.len().abs_diff(turns) <= 1);
}

/// A smooth stick–slip limit cycle (LuGre, Canudas de Wit et al. 1995; no events): one zero
/// exponent (the direction along the orbit), the others negative. Run with `fast_stiff`: the
/// bristle directions are then damped, not resolved, so λ₂ and λ₃ are upper bounds — still
/// negative, which is what the limit cycle needs — and the volume check says so.
#[test]
fn lugre_limit_cycle_has_one_zero_exponent() {
    let preset = builtin::load("lugre_canudas_1995").unwrap().unwrap();
    let opts = LyapunovOptions {
        transient: 50.0,
        duration: 150.0,
        fast_stiff: true,
        ..LyapunovOptions::default()
    };
    let r = analyze(&preset, &opts, true).unwrap();
    let s = &r.spectrum;
    let l1 = r.largest.as_ref().unwrap().exponent;
    println!(
        "LuGre λ = {:?}, Benettin λ₁ = {l1}, ⟨tr J⟩ = {:?}",
        s.exponents, s.mean_divergence
    );
    assert_eq!(s.exponents.len(), 3);
    let tol = 5.0 / 150.0;
    assert!(s.exponents[0].abs() < tol, "{:?}", s.exponents);
    assert!(l1.abs() < tol, "{l1}");
    assert!(
        s.exponents[1] < -1.0 && s.exponents[2] < s.exponents[1],
        "{:?}",
        s.exponents
    );
    let c = &r.classification;
    assert_eq!((c.n_positive, c.n_zero), (0, 1), "{c:?}");
    assert!(matches!(
        c.attractor,
        Attractor::LimitCycle | Attractor::Subharmonic(_)
    ));
    assert!(
        c.notes.iter().any(|n| n.contains("upper bounds")),
        "{:?}",
        c.notes
    );
}

/// Regression: `--fast-stiff` was ignored under Rodas5 (only Rodas4 counted as implicit).
/// Under either Rosenbrock method it damps the bristle directions and says so.
#[test]
fn fast_stiff_applies_under_both_rosenbrock_methods() {
    for method in ["Rodas4", "Rodas5"] {
        let mut preset = builtin::load("lugre_canudas_1995").unwrap().unwrap();
        preset.set_path("run.integrator", method).unwrap();
        let opts = LyapunovOptions {
            transient: 1.0,
            duration: 4.0,
            fast_stiff: true,
            ..LyapunovOptions::default()
        };
        let r = analyze(&preset, &opts, false).unwrap();
        let notes = &r.classification.notes;
        assert!(
            notes.iter().any(|n| n.contains("upper bounds")),
            "{method}: {notes:?}"
        );
    }
}

/// With the tangents resolved, Σλ equals the exact mean volume growth (∫tr J dt)/T over any
/// window — here a stiff LuGre (σ₀ = 10⁴ N/m) over 3 s. (The gap is integration error:
/// 4e-5 relative at rtol 1e-8, 3e-7 at 1e-10, 0 at 1e-12.)
#[test]
fn resolved_stiff_spectrum_reproduces_the_volume_growth() {
    let mut preset = builtin::load("lugre_canudas_1995").unwrap().unwrap();
    preset.set_path("law.sigma0", "1e4").unwrap();
    preset.set_path("law.sigma1", "100").unwrap();
    preset.set_path("run.rtol", "1e-10").unwrap();
    let opts = LyapunovOptions {
        transient: 0.0,
        duration: 3.0,
        ..LyapunovOptions::default()
    };
    let r = analyze(&preset, &opts, false).unwrap();
    let s = &r.spectrum;
    let div = s.mean_divergence.unwrap();
    println!("λ = {:?}, Σ = {}, ⟨tr J⟩ = {div}", s.exponents, s.sum());
    assert!(div < -10.0, "{div}");
    assert!(((s.sum() - div) / div).abs() < 3e-6, "{} vs {div}", s.sum());
}

/// Benettin's shadow keeps its law memory across rescalings: re-initialising it every time
/// reset the Powell–Wiercigroch filtered acceleration and branch, and the shadow chattered
/// into a Zeno stop after ~13 s.
#[test]
fn benettin_shadow_keeps_law_memory() {
    let preset = builtin::load("powell_wiercigroch").unwrap().unwrap();
    let opts = LyapunovOptions {
        transient: 0.0,
        duration: 25.0,
        fast_stiff: true,
        ..LyapunovOptions::default()
    };
    let r = analyze(&preset, &opts, true).unwrap();
    let l = r.largest.unwrap();
    assert!(l.exponent.is_finite() && l.averaging_time >= 24.0, "{l:?}");
}

/// A stable equilibrium (Dahl pre-sliding bench: gross sliding at x = F_C/k after the ring-down):
/// λ₁ = λ₂ = −c/(2m) = −0.5/s for the block's damped mode, Benettin's λ₁ the same. With
/// d₀ = 10⁻⁸ at rtol = 1e-8 the shadow's separation drowned in integration error (−1.11/s).
#[test]
fn equilibrium_exponents_by_spectrum_and_benettin_agree() {
    let preset = builtin::load("dahl_presliding").unwrap().unwrap();
    let opts = LyapunovOptions {
        transient: 20.0,
        duration: 40.0,
        ..LyapunovOptions::default()
    };
    let r = analyze(&preset, &opts, true).unwrap();
    let s = &r.spectrum;
    let l1 = r.largest.as_ref().unwrap().exponent;
    println!("Dahl λ = {:?}, Benettin {l1}", s.exponents);
    let (c, m) = (1.0, 1.0);
    let expected = -c / (2.0 * m);
    for l in &s.exponents[..2] {
        assert!(
            (l - expected).abs() < 0.05 * expected.abs(),
            "{:?}",
            s.exponents
        );
    }
    assert!(
        (l1 - expected).abs() < 0.05 * expected.abs(),
        "Benettin {l1}"
    );
    assert_eq!(r.classification.attractor, Attractor::Equilibrium);
}

/// Frequent renormalisations (reseeds in stick, in slip and next to the switches, each put on
/// the shadow's mode constraint) leave the cycle's λ₁ = 0. (The reseed's projection itself is
/// tested in `benettin.rs`.)
#[test]
fn benettin_shadow_moves_with_the_belt_while_stuck() {
    let preset = cycle_preset();
    for interval in [0.05, 0.01] {
        let opts = LyapunovOptions {
            transient: 10.0,
            duration: 60.0,
            renorm_interval: interval,
            ..LyapunovOptions::default()
        };
        let r = analyze(&preset, &opts, true).unwrap();
        let l1 = r.largest.unwrap().exponent;
        println!("τ = {interval} s: Benettin λ₁ = {l1}");
        assert!(l1.abs() < 5.0 / 60.0, "τ = {interval} s: λ₁ = {l1}");
    }
}
