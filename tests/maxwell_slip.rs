//! Maxwell-slip against the Masing rules (MODELS §2.9, §3.5 test 4, §5 "Maxwell-slip: Masing
//! branch after a reversal, to round-off").
//!
//! Reference: `tests/common` (Masing + memory rules), with elements `Δ_j = d_max·j/M`,
//! `k_j = F_C/(M·Δ_j)` written out from the formula.

#![allow(clippy::unwrap_used)]

mod common;

use std::f64::consts::TAU;

use common::{Masing, equal_force_elements, harmonic_reversal_phases, harmonic_x};

use tribolab::laws::LawConfig;
use tribolab::laws::maxwell_slip::{MaxwellSlipParams, update_deflections};
use tribolab::rig::{Motion, run_prescribed};

const M: usize = 8;
const F_C: f64 = 1.0;
const D_MAX: f64 = 2e-5;

fn params() -> MaxwellSlipParams {
    MaxwellSlipParams {
        n_elements: M as f64,
        f_c_n: F_C,
        d_max_m: D_MAX,
        ..MaxwellSlipParams::default()
    }
}

fn elements() -> (Vec<f64>, Vec<f64>) {
    equal_force_elements(M, F_C, D_MAX)
}

fn reference() -> Masing {
    let (k, d) = elements();
    Masing::new(k, d)
}

/// Algebraic Maxwell-slip (the law's public update) along a sample sequence; returns `F`.
fn algebraic(xs: &[f64]) -> Vec<f64> {
    let (k, d) = elements();
    let mut delta = vec![0.0; M];
    let mut x_prev = 0.0;
    xs.iter()
        .map(|&x| {
            update_deflections(&mut delta, &d, x - x_prev);
            x_prev = x;
            k.iter().zip(&delta).map(|(k, d)| k * d).sum()
        })
        .collect()
}

fn compare_with_masing(xs: &[f64]) -> f64 {
    let alg = algebraic(xs);
    let mut reference = reference();
    let mut worst = 0.0f64;
    for (x, f) in xs.iter().zip(&alg) {
        worst = worst.max((f - reference.go_to(*x)).abs());
    }
    worst
}

/// Sine of 15 μm (the largest element slips at 20 μm, so some stay elastic on the virgin
/// branch and all slip on the 30 μm return strokes): 3 cycles, 400 samples per cycle.
#[test]
fn masing_branches_under_sine_to_round_off() {
    let amp = 1.5e-5;
    let xs: Vec<f64> = (0..=1200)
        .map(|n| amp * (TAU * n as f64 / 400.0).sin())
        .collect();
    // Hand check of the reference: virgin force at 15 μm = Σ_j F_C/M·min(15/Δ_j, 1)
    // = (1/8)·(6 + 15/17.5 + 15/20) = 0.950892857 N.
    let mut r = reference();
    let top = r.go_to(amp);
    assert!(
        (top - 0.125 * (6.0 + 15.0 / 17.5 + 0.75)).abs() < 1e-15,
        "{top}"
    );
    let worst = compare_with_masing(&xs);
    println!("sine: largest |F − F_Masing| = {worst:e} N");
    assert!(worst < 1e-13 * F_C, "{worst:e}");
}

/// Nested reversals `x = A(sin θ + ½ sin 3θ)`: the inner loop (1.076A → 0.5A → 1.076A) closes
/// at its start and the outer branch continues as if it had not happened (checked by the
/// reference's memory rules, and directly at the two maxima).
#[test]
fn nested_inner_loops_close_to_round_off() {
    let amp = 1e-5;
    let mut thetas: Vec<f64> = (0..=1200).map(|n| TAU * n as f64 / 400.0).collect();
    for k in 0..3 {
        thetas.extend(
            harmonic_reversal_phases()
                .iter()
                .map(|t| t + TAU * k as f64),
        );
    }
    thetas.sort_by(f64::total_cmp);
    let xs: Vec<f64> = thetas.iter().map(|&t| harmonic_x(amp, t)).collect();
    let worst = compare_with_masing(&xs);
    println!("nested: largest |F − F_Masing| = {worst:e} N");
    assert!(worst < 1e-13 * F_C, "{worst:e}");
    // The force at the second maximum of each cycle equals the first (return-point memory).
    let alg = algebraic(&xs);
    let phases = harmonic_reversal_phases();
    for cycle in 0..3 {
        let at = |theta: f64| {
            let i = thetas
                .iter()
                .position(|&t| t == theta + TAU * cycle as f64)
                .unwrap();
            alg[i]
        };
        let (f1, f2) = (at(phases[0]), at(phases[2]));
        assert!((f1 - f2).abs() < 1e-14, "cycle {cycle}: {f1} vs {f2}");
    }
}

/// An irregular history of reversal points (μm) with deep nesting and wipe-outs, ramped
/// linearly with 25 samples per stroke.
#[test]
fn irregular_history_follows_memory_rules() {
    let turns_um = [
        12.0, -6.0, 4.0, -2.0, 3.0, -5.0, 8.0, -14.0, 9.0, -1.0, 2.0, 1.5, 22.0, -3.0, 5.0, -25.0,
        0.0, -7.0, 18.0,
    ];
    let mut xs = Vec::new();
    let mut x0 = 0.0;
    for &t in &turns_um {
        let x1 = t * 1e-6;
        for i in 1..=25 {
            xs.push(x0 + (x1 - x0) * i as f64 / 25.0);
        }
        x0 = x1;
    }
    let worst = compare_with_masing(&xs);
    println!("irregular: largest |F − F_Masing| = {worst:e} N");
    assert!(worst < 1e-13 * F_C, "{worst:e}");
}

/// The ODE/event law in the prescribed-motion rig matches the algebraic update at every regular
/// output sample; the algebraic update is fed the analytic x(t) at the output times plus every
/// reversal time.
fn ode_matches_algebraic(motion: Motion, reversal_times: Vec<f64>, x_of: &dyn Fn(f64) -> f64) {
    let t_end = 3.0;
    let rows = run_prescribed(
        LawConfig::MaxwellSlip(params()).build(),
        motion,
        1.0,
        t_end,
        1e-12,
        1e-3,
    )
    .unwrap();
    // Columns: t, x, v, friction_force, delta_1..delta_M, event.
    let regular: Vec<&Vec<f64>> = rows.iter().filter(|r| r[4 + M] == 0.0).collect();
    let events = rows.len() - regular.len();
    let mut times: Vec<(f64, Option<usize>)> = regular
        .iter()
        .enumerate()
        .map(|(i, r)| (r[0], Some(i)))
        .collect();
    times.extend(
        reversal_times
            .into_iter()
            .filter(|&t| t <= t_end)
            .map(|t| (t, None)),
    );
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let xs: Vec<f64> = times.iter().map(|(t, _)| x_of(*t)).collect();
    let alg = algebraic(&xs);
    let mut worst = 0.0f64;
    for ((_, idx), f_alg) in times.iter().zip(&alg) {
        if let Some(i) = idx {
            // The law returns the force on body 1, −Σ k_j δ_j.
            worst = worst.max((regular[*i][3] + f_alg).abs());
        }
    }
    println!(
        "ODE vs algebraic: largest difference {worst:e} N, {} samples, {} event rows",
        regular.len(),
        events
    );
    assert!(regular.len() > 2900);
    assert!(events > 20, "saturations and releases are events");
    assert!(worst < 1e-10 * F_C, "{worst:e}");
}

#[test]
fn ode_law_matches_algebraic_update_sine() {
    let (amp, freq) = (1.5e-5, 1.0);
    ode_matches_algebraic(
        Motion::Sine {
            amplitude_m: amp,
            frequency_hz: freq,
        },
        (0..6).map(|k| (2 * k + 1) as f64 / (4.0 * freq)).collect(),
        &|t| amp * (TAU * freq * t).sin(),
    );
}

#[test]
fn ode_law_matches_algebraic_update_nested() {
    let (amp, freq) = (1e-5, 1.0);
    let reversals = common::harmonic_reversal_times(freq, 3.0);
    ode_matches_algebraic(
        Motion::SineWithHarmonic {
            amplitude_m: amp,
            frequency_hz: freq,
            harmonic: 3.0,
            ratio: 0.5,
        },
        reversals,
        &|t| harmonic_x(amp, TAU * freq * t),
    );
}
