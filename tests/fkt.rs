//! The Frenkel–Kontorova–Tomlinson chain (MODELS §3.3) against independent results: the
//! phonon frequencies of the chain without the substrate, superlubricity of the golden-mean
//! contact and its loss as the corrugation grows (the quasi-static threshold, above Aubry's
//! value for a chain tied to its body), pinning of the commensurate contact, the energy
//! account of a run.

#![allow(clippy::unwrap_used)]

use std::f64::consts::{PI, TAU};

use tribolab::analysis::lattice_slips::count_slips;
use tribolab::integrate::driver::DriverSettings;
use tribolab::integrate::{Column, Method, Role, Simulation};
use tribolab::preset::{Preset, builtin};
use tribolab::systems::fkt::quasi_static::{QuasiStaticChain, pinning_threshold};
use tribolab::systems::{ConfigOf, Fkt, FktParams, fkt::AUBRY_K_C};

fn preset(stem: &str) -> Preset {
    builtin::load(stem).unwrap().unwrap()
}

fn params(p: &Preset) -> FktParams {
    FktParams::of(&p.system).unwrap().clone()
}

/// `U₀` of the Frenkel–Kontorova corrugation `K = 4π²U₀/(k_c·a²)`.
fn with_k(mut p: FktParams, k: f64) -> FktParams {
    p.corrugation = k * p.coupling * p.lattice * p.lattice / (4.0 * PI * PI);
    p
}

fn col(cols: &[Column], role: Role) -> usize {
    cols.iter().position(|c| c.role == role).unwrap()
}

/// Without the substrate a ring of N atoms tied to the body has the phonons
/// `ω(q)² = (k_b + 4k_c·sin²(q/2))/m`, `q = 2πs/N`: a standing wave oscillates with that period.
#[test]
fn phonon_frequencies_without_the_substrate() {
    let mut p = params(&preset("fkt_incommensurate"));
    p.corrugation = 1e-30;
    p.damping = 1e-18;
    p.speed = 1e-9;
    for s in [1usize, 7, 30] {
        let n = p.n_atoms();
        let q = TAU * s as f64 / n as f64;
        let omega =
            ((p.body_stiffness + 4.0 * p.coupling * (q / 2.0).sin().powi(2)) / p.mass).sqrt();
        let period = TAU / omega;
        let model = Fkt::new(p.clone());
        let mut y0 = model.initial_state();
        for j in 0..n {
            y0[2 * j] = 1e-12 * (q * j as f64).cos();
        }
        let settings = DriverSettings {
            method: Method::Dopri5,
            rtol: 1e-11,
            rk4_dt_s: 1e-16,
            output_interval_s: period / 400.0,
        };
        let mut sim = Simulation::new(Box::new(model), y0, 0.0, settings).unwrap();
        let mut rows = Vec::<Vec<f64>>::new();
        sim.advance(5.2 * period, &mut rows).unwrap();
        let x = col(&sim.columns(), Role::Position(0));
        // Downward zero crossings of atom 1, linearly interpolated.
        let crossings: Vec<f64> = rows
            .windows(2)
            .filter(|w| w[0][x] > 0.0 && w[1][x] <= 0.0)
            .map(|w| w[0][0] + (w[1][0] - w[0][0]) * w[0][x] / (w[0][x] - w[1][x]))
            .collect();
        assert!(crossings.len() >= 5, "mode {s}: {crossings:?}");
        let measured =
            (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
        assert!(
            (measured / period - 1.0).abs() < 1e-4,
            "mode {s}: {measured} vs {period}"
        );
    }
}

/// The golden-mean contact (55/89) is superlubric at weak corrugation: the layer follows a
/// continuous family of minima, no fold, zero mean force; at K = 1.5 it pins, and the mean
/// force equals the energy the folds release per distance. The commensurate contact pins at
/// the same weak corrugation.
#[test]
fn superlubric_until_the_corrugation_pins_it() {
    let base = params(&preset("fkt_incommensurate"));
    let pinning_scale = base.n_atoms() as f64 * TAU * base.corrugation / base.lattice;
    let weak = QuasiStaticChain::new(&base).unwrap().forward_branch(200);
    assert_eq!(weak.folds, 0, "{weak:?}");
    assert!(weak.mean_force_n.abs() < 1e-9 * pinning_scale, "{weak:?}");
    assert!(weak.max_force_n.abs() < 1e-6 * pinning_scale, "{weak:?}");
    for p in [with_k(base.clone(), 1.5), {
        let mut c = base.clone();
        c.periods = c.atoms;
        c
    }] {
        let b = QuasiStaticChain::new(&p).unwrap().forward_branch(200);
        assert!(b.folds > 0, "{b:?}");
        assert!(b.mean_force_n > 1e-3 * pinning_scale, "{b:?}");
        assert!(
            (b.mean_force_n / b.dissipated_per_distance_n - 1.0).abs() < 0.02,
            "energy balance of the quasi-static branch: {b:?}"
        );
    }
}

/// The pinning threshold with the body springs (k_b/k_c = 0.1) lies above Aubry's K_c of the
/// free golden-mean chain (the springs stiffen the layer) and below 1.5 (pinned above).
#[test]
fn pinning_threshold_lies_above_aubry() {
    let p = params(&preset("fkt_incommensurate"));
    let scale = p.coupling * p.lattice * p.lattice / (4.0 * PI * PI);
    let k = pinning_threshold(&p, 0.9 * scale, 1.6 * scale, 1e-2).unwrap() / scale;
    assert!(k > AUBRY_K_C && k < 1.5, "{k}");
}

/// A run of each preset: the superlubric layer slides without a single atom jumping, the
/// commensurate one jumps, and the energy account closes.
#[test]
fn runs_slide_or_stick_slip_and_balance_energy() {
    for (stem, slips) in [("fkt_incommensurate", false), ("fkt_commensurate", true)] {
        let p = preset(stem);
        let q = params(&p);
        let mut r = p.build_runner().unwrap();
        let mut rows = Vec::<Vec<f64>>::new();
        r.advance(1.5 * q.lattice_time_s(), &mut rows).unwrap();
        let cols = r.columns();
        let t: Vec<f64> = rows.iter().map(|r| r[0]).collect();
        let lt = q.lattice_time_s();
        let jumps: usize = (0..q.n_atoms())
            .map(|j| {
                let x = col(&cols, Role::Position(j));
                let x: Vec<f64> = rows.iter().map(|r| r[x]).collect();
                count_slips(&t, &x, q.lattice, 0.1 * lt, 0.25 * lt).events
            })
            .sum();
        // Commensurate: every atom jumps once in the first 1.5 lattice periods.
        assert_eq!(jumps, if slips { q.n_atoms() } else { 0 }, "{stem}");
        let e = col(&cols, Role::EnergyError);
        let worst = rows.iter().fold(0.0f64, |m, row| m.max(row[e].abs()));
        assert!(
            worst < 1e-5 * q.n_atoms() as f64 * q.corrugation,
            "{stem}: {worst}"
        );
    }
}

/// Atoms damped far beyond their oscillation (γ/m = 3.4·10¹⁹/s against ω_max ≈ 10¹³ rad/s)
/// are stiff: the automatic choice takes the implicit method and the preset's 12 ns run in a
/// few thousand steps (the explicit method was held to steps of ~10⁻¹⁹ s: hours).
#[test]
fn overdamped_atoms_run_implicitly_in_bounded_steps() {
    let mut p = preset("fkt_incommensurate");
    p.set_path("system.damping", "3.4e-6").unwrap();
    p.set_path("system.corrugation", "1.46e-28").unwrap();
    assert!(params(&p).overdamped());
    assert!(!params(&preset("fkt_incommensurate")).overdamped());
    let mut sim = p.build_simulation().unwrap();
    assert_eq!(sim.method_name(), "Rodas4");
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(p.run.duration_s, &mut rows).unwrap();
    let steps = sim.stats().steps;
    assert!(steps < 100_000, "{steps} steps");
    assert!((rows.last().unwrap()[0] - p.run.duration_s).abs() < 1e-15);
    assert!(rows.iter().flatten().all(|v| v.is_finite()));
}
