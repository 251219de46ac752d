//! Two blocks with asymmetric friction: the period-doubling route to chaos that Huang &
//! Turcotte (1990) found in the two-block Burridge–Knopoff model ("Are earthquakes an example
//! of deterministic chaos?", Geophys. Res. Lett. 17:223).
//!
//! Our parameters, not their figure: both blocks 1 kg, pull springs 100 N/m, coupling
//! 100 N/m (stiffness ratio 1), no damping, static/kinetic friction μ_S = 0.4, μ_K = 0.2 on
//! both (static-to-kinetic ratio 2), a slow belt (0.01 m/s), and the asymmetry β as the ratio
//! of the normal loads N₂/N₁ (it scales block 2's static and kinetic friction together, H&T's
//! ratio of the frictional strengths). Counting the distinct values of x₂ each time block 1
//! sticks (64 returns after a transient, all runs from the same start): symmetric blocks
//! (β = 1) repeat one return; lowering β from 1.31 the period doubles 2 → 4 → 8 (β = 1.29,
//! 1.25, 1.2325), and at β = 1.2 the returns never repeat and the largest Lyapunov exponent
//! is positive, by the variational equations with saltation matrices and by Benettin's two
//! trajectories alike (≈ +0.07 /s), where the periodic orbits give ≈ 0.

#![allow(clippy::unwrap_used)]

use tribolab::analysis::lyapunov::{LyapunovOptions, analyze};
use tribolab::integrate::SampleSink;
use tribolab::integrate::driver::SectionId;
use tribolab::preset::{Preset, builtin};

fn pair(beta: f64) -> Preset {
    let mut p = builtin::load("two_block_bk").unwrap().unwrap();
    for (path, value) in [
        ("contact.2", "default".to_string()),
        ("law.mu_s", "0.4".into()),
        ("law.mu_k", "0.2".into()),
        ("system.damping_1", "0".into()),
        ("system.damping_2", "0".into()),
        ("system.belt_speed", "0.01".into()),
        ("system.coupling_stiffness", "100".into()),
        ("system.normal_load_2", (9.81 * beta).to_string()),
        ("run.output_interval", "0.01".into()),
    ] {
        p.set_path(path, &value).unwrap();
    }
    p
}

/// x₂ at every stick of block 1 (the model's first section) after `transient` seconds.
struct Returns {
    x2: usize,
    after_s: f64,
    values: Vec<f64>,
}

impl SampleSink for Returns {
    fn push(&mut self, _row: &[f64]) {}
    fn push_section(&mut self, section: SectionId, row: &[f64]) {
        if section == SectionId::Model(0) && row[0] > self.after_s {
            self.values.push(row[self.x2]);
        }
    }
}

/// Distinct values (to 1e-7 m) among the last 64 returns.
fn period(beta: f64) -> usize {
    let p = pair(beta);
    let mut sim = p.build_simulation().unwrap();
    sim.track_sections(None);
    let x2 = sim
        .columns()
        .iter()
        .position(|c| c.role == tribolab::integrate::Role::Position(1))
        .unwrap();
    let mut r = Returns {
        x2,
        after_s: 400.0,
        values: Vec::new(),
    };
    sim.advance(800.0, &mut r).unwrap();
    assert!(
        r.values.len() >= 64,
        "β = {beta}: {} returns",
        r.values.len()
    );
    let mut keys: Vec<i64> = r.values[r.values.len() - 64..]
        .iter()
        .map(|x| (x * 1e7).round() as i64)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys.len()
}

#[test]
fn asymmetric_friction_doubles_the_period_into_chaos() {
    assert_eq!(period(1.0), 1, "symmetric blocks");
    assert_eq!(period(1.29), 2);
    assert_eq!(period(1.25), 4);
    assert_eq!(period(1.2325), 8);
    assert!(period(1.2) > 32, "β = 1.2 does not repeat");
}

#[test]
fn the_chaotic_pair_has_a_positive_largest_exponent() {
    let opts = LyapunovOptions {
        transient: 300.0,
        duration: 700.0,
        ..LyapunovOptions::default()
    };
    let chaotic = analyze(&pair(1.2), &opts, true).unwrap();
    let l1 = chaotic.spectrum.exponents[0];
    let benettin = chaotic.largest.as_ref().unwrap().exponent;
    assert!(l1 > 0.03, "variational λ₁ = {l1}");
    assert!(
        (benettin - l1).abs() < 0.3 * l1,
        "Benettin {benettin} vs variational {l1}"
    );
    let periodic = analyze(&pair(1.25), &opts, false).unwrap();
    let l1 = periodic.spectrum.exponents[0];
    assert!(l1.abs() < 0.01, "period 4: λ₁ = {l1}");
}
