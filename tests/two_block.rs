//! The two-block Burridge–Knopoff system (MODELS §3.2 with N = 2) against independent results:
//! a symmetric pair started together moves exactly like the one-block bench (its coupling
//! spring never stretches), the frictionless pair oscillates at the normal modes of its mass
//! and stiffness matrices, and the energy account closes with friction.

#![allow(clippy::unwrap_used)]

use tribolab::analysis::{Window, amplitude_spectrum};
use tribolab::integrate::{Method, Role, Simulation};
use tribolab::preset::{Preset, builtin};

fn rows(p: &Preset, t_end: f64) -> (Simulation, Vec<Vec<f64>>) {
    let mut sim = p.build_simulation().unwrap();
    let mut out = Vec::<Vec<f64>>::new();
    sim.advance(t_end, &mut out).unwrap();
    (sim, out)
}

fn col(sim: &Simulation, role: Role) -> usize {
    sim.columns().iter().position(|c| c.role == role).unwrap()
}

/// Regular sample rows only (the event rows repeat an instant).
fn regular(sim: &Simulation, rows: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let ev = col(sim, Role::EventFlag);
    rows.into_iter().filter(|r| r[ev] == 0.0).collect()
}

/// The bench and the two-block system with the same block, spring, damper, load, belt speed and
/// law; the pair's blocks start together, so `x₁ = x₂ = x` for all time.
fn bench_and_pair(law: &str, method: Method) -> (Preset, Preset) {
    let mut bench = builtin::load("coulomb_stick_slip_undamped")
        .unwrap()
        .unwrap();
    bench.set_path("law", law).unwrap();
    bench.set_path("system.damping", "0.3").unwrap();
    bench.set_path("system.initial_position", "0.01").unwrap();
    bench.run.integrator = method;
    let v_b = match &bench.system {
        tribolab::systems::SystemConfig::BeltBlock(b) => b.belt_speed_mps(),
        _ => unreachable!(),
    };
    let mut pair = bench.clone();
    pair.set_path("system", "two_block").unwrap();
    for (key, value) in [
        ("mass_1", "1"),
        ("mass_2", "1"),
        ("pull_stiffness_1", "100"),
        ("pull_stiffness_2", "100"),
        ("coupling_stiffness", "250"),
        ("damping_1", "0.3"),
        ("damping_2", "0.3"),
        ("normal_load_1", "10"),
        ("normal_load_2", "10"),
        ("initial_position_1", "0.01"),
        ("initial_position_2", "0.01"),
    ] {
        pair.set_path(&format!("system.{key}"), value).unwrap();
    }
    pair.set_path("system.belt_speed", &format!("{v_b:e}"))
        .unwrap();
    (bench, pair)
}

/// Largest difference between the bench's `x` and both blocks' positions, over 10 s.
fn pair_departure(law: &str, method: Method) -> f64 {
    let (bench, pair) = bench_and_pair(law, method);
    let (sb, rb) = rows(&bench, 10.0);
    let (sp, rp) = rows(&pair, 10.0);
    let (rb, rp) = (regular(&sb, rb), regular(&sp, rp));
    assert_eq!(rb.len(), rp.len());
    let x = col(&sb, Role::Position(0));
    let (x1, x2) = (col(&sp, Role::Position(0)), col(&sp, Role::Position(1)));
    rb.iter()
        .zip(&rp)
        .map(|(b, p)| (b[x] - p[x1]).abs().max((b[x] - p[x2]).abs()))
        .fold(0.0, f64::max)
}

/// With a fixed-step integrator both systems take the same steps with the same arithmetic: the
/// pair reproduces the bench to round-off (a few units in the last place of the ≈ 40 mm
/// amplitude: event times are located on interpolants of different dimension), stick–slip
/// switches included — both blocks switch at one instant, the driver's simultaneous-event path.
#[test]
fn a_symmetric_pair_moves_like_the_bench_to_round_off() {
    for law in ["static_kinetic", "lugre", "stribeck_s1"] {
        let d = pair_departure(law, Method::Rk4);
        assert!(
            d <= 1e-15,
            "{law}: the pair departs from the bench by {d:e} m"
        );
    }
}

/// With adaptive steps the error norms of the two systems agree too (the pair duplicates every
/// component), so the pair follows the bench to round-off.
#[test]
fn a_symmetric_pair_follows_the_bench_with_adaptive_steps() {
    for law in ["static_kinetic", "lugre"] {
        let d = pair_departure(law, Method::Auto);
        assert!(
            d < 1e-12,
            "{law}: the pair departs from the bench by {d:e} m"
        );
    }
}

/// Without friction or damping, an asymmetric pair oscillates at the two normal modes:
/// `det(K − ω²M) = 0`, `(k₁ + k_c − ω²m₁)(k₂ + k_c − ω²m₂) = k_c²`, solved here as a quadratic
/// in `ω²` (not by the model's own formula); the spectrum of `x₁` peaks at both frequencies.
#[test]
fn frictionless_pair_oscillates_at_its_normal_modes() {
    let (m1, m2, k1, k2, kc) = (1.0f64, 2.0f64, 100.0f64, 150.0f64, 50.0f64);
    let mut p = builtin::load("two_block_bk").unwrap().unwrap();
    p.contacts.clear();
    p.set_path("law", "coulomb").unwrap();
    p.set_path("law.mu_c", "0").unwrap();
    p.set_path("law.sign", "Tanh(1e-3)").unwrap();
    for (key, v) in [
        ("mass_1", m1),
        ("mass_2", m2),
        ("pull_stiffness_1", k1),
        ("pull_stiffness_2", k2),
        ("coupling_stiffness", kc),
        ("damping_1", 0.0),
        ("damping_2", 0.0),
        ("belt_speed", 0.0),
        ("initial_position_1", 0.01),
        ("initial_position_2", -0.004),
    ] {
        p.set_path(&format!("system.{key}"), &v.to_string())
            .unwrap();
    }
    p.run.rtol = 1e-11;
    let dt = 1e-3;
    let (sim, r) = rows(&p, 400.0);
    let r = regular(&sim, r);
    let x1 = col(&sim, Role::Position(0));
    let signal: Vec<f64> = r.iter().map(|row| row[x1]).collect();
    let spectrum = amplitude_spectrum(&signal, dt, Window::Hann);
    let mut found: Vec<f64> = spectrum.peaks(2).iter().map(|pk| pk.freq_hz).collect();
    found.sort_by(f64::total_cmp);
    // ω⁴·m₁m₂ − ω²·(m₁(k₂ + k_c) + m₂(k₁ + k_c)) + (k₁ + k_c)(k₂ + k_c) − k_c² = 0.
    let (a, b, c) = (
        m1 * m2,
        -(m1 * (k2 + kc) + m2 * (k1 + kc)),
        (k1 + kc) * (k2 + kc) - kc * kc,
    );
    let disc = (b * b - 4.0 * a * c).sqrt();
    let mut expected = [(-b - disc) / (2.0 * a), (-b + disc) / (2.0 * a)]
        .map(|w2: f64| w2.sqrt() / std::f64::consts::TAU);
    expected.sort_by(f64::total_cmp);
    for (f, e) in found.iter().zip(expected) {
        // 400 s of record: bins of 2.5 mHz, the sub-bin interpolation does far better.
        assert!(
            (f / e - 1.0).abs() < 2e-4,
            "peak {f} Hz, normal mode {e} Hz"
        );
    }
    // Conservative: the mechanical energy stays put.
    let (ek, es) = (
        col(&sim, Role::KineticEnergy),
        col(&sim, Role::StoredEnergy),
    );
    let e0 = r[0][ek] + r[0][es];
    let drift = r
        .iter()
        .map(|row| (row[ek] + row[es] - e0).abs())
        .fold(0.0, f64::max);
    assert!(drift < 1e-8 * e0, "energy drift {drift:e} J of {e0} J");
}

/// With friction the account closes: input by the belt = stored + kinetic + dissipated in each
/// contact and damper, to the integrator's tolerance, over a minute of stick–slip.
#[test]
fn the_energy_account_closes_with_friction() {
    let p = builtin::load("two_block_bk").unwrap().unwrap();
    let (sim, r) = rows(&p, 60.0);
    let (err, input) = (col(&sim, Role::EnergyError), col(&sim, Role::InputWork));
    let last = r.last().unwrap();
    let worst = r.iter().map(|row| row[err].abs()).fold(0.0, f64::max);
    assert!(last[input] > 10.0, "the belt put in {} J", last[input]);
    assert!(
        worst < 1e-7 * last[input],
        "energy balance error {worst:e} J against {} J put in",
        last[input]
    );
    // Both contacts dissipate, each through its own law.
    for c in 0..2 {
        let w = col(&sim, Role::FrictionWork(Some(c)));
        assert!(last[w] < -1.0, "contact {c}: friction work {}", last[w]);
    }
}

/// The preset's second block has its own law (μ_S = 0.5): its break-away force is 0.5·N₂ while
/// the first block's is 0.4·N₁.
#[test]
fn each_block_breaks_away_at_its_own_static_threshold() {
    let p = builtin::load("two_block_bk").unwrap().unwrap();
    let (sim, r) = rows(&p, 30.0);
    let ev = col(&sim, Role::EventFlag);
    for (contact, mu_s) in [(0usize, 0.4), (1, 0.5)] {
        let (stick, force) = (
            col(&sim, Role::Stick(contact)),
            col(&sim, Role::FrictionForce(contact)),
        );
        // Break-away pairs: a stuck event row followed by a slipping one at the same instant.
        let peaks: Vec<f64> = r
            .windows(2)
            .filter(|w| w[0][ev] == 1.0 && w[1][ev] == 1.0 && w[0][0] == w[1][0])
            .filter(|w| w[0][stick] == 1.0 && w[1][stick] == 0.0)
            .map(|w| w[0][force].abs())
            .collect();
        assert!(
            peaks.len() >= 3,
            "contact {contact}: {} break-aways",
            peaks.len()
        );
        for f in peaks {
            assert!(
                (f - mu_s * 9.81).abs() < 1e-6,
                "contact {contact}: breaks away at {f} N, expected {}",
                mu_s * 9.81
            );
        }
    }
}
