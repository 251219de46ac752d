//! Burridge–Knopoff chains (MODELS §3.2) against independent results: the frictionless chain
//! rings at its normal modes for free, fixed and periodic ends; a uniform chain started in
//! step moves like the one-block bench to round-off; the energy account closes; per-block laws
//! and seeded spreads reach the blocks; the stiff path costs O(N).

#![allow(clippy::unwrap_used)]

use tribolab::analysis::{Window, amplitude_spectrum};
use tribolab::integrate::{Method, Role, Simulation};
use tribolab::preset::{Preset, builtin};
use tribolab::systems::SystemConfig;

fn rows(p: &Preset, t_end: f64) -> (Simulation, Vec<Vec<f64>>) {
    let mut sim = p.build_simulation().unwrap();
    let mut out = Vec::<Vec<f64>>::new();
    sim.advance(t_end, &mut out).unwrap();
    (sim, out)
}

fn col(sim: &Simulation, role: Role) -> usize {
    sim.columns().iter().position(|c| c.role == role).unwrap()
}

fn regular(sim: &Simulation, rows: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let ev = col(sim, Role::EventFlag);
    rows.into_iter().filter(|r| r[ev] == 0.0).collect()
}

fn chain(blocks: usize) -> Preset {
    let mut p = builtin::load("lugre_chain_w3").unwrap().unwrap();
    p.set_path("system.blocks", &blocks.to_string()).unwrap();
    p
}

/// The frictionless, undamped chain started from a seeded random displacement rings at all
/// its normal modes `ω_n² = (k_p + 4k_c·sin²θ_n)/m`; the spectrum of the sum of the block
/// positions weighted by a random vector (so that no mode is missed by symmetry) peaks at
/// each of them. The predicted frequencies are the closed form, not the model's eigenvalues.
#[test]
fn frictionless_chain_rings_at_its_normal_modes() {
    let (n, m, kp, kc) = (6usize, 1.0f64, 100.0f64, 40.0f64);
    for (ends, theta) in [
        (
            "Free",
            (0..n)
                .map(|k| k as f64 * std::f64::consts::PI / (2.0 * n as f64))
                .collect::<Vec<_>>(),
        ),
        (
            "Fixed",
            (1..=n)
                .map(|k| k as f64 * std::f64::consts::PI / (2.0 * (n as f64 + 1.0)))
                .collect(),
        ),
        // Periodic modes pair up (n and N − n): N = 6 gives 4 distinct lines.
        (
            "Periodic",
            (0..=n / 2)
                .map(|k| k as f64 * std::f64::consts::PI / n as f64)
                .collect(),
        ),
    ] {
        let mut p = chain(n);
        p.set_path("law", "coulomb").unwrap();
        p.set_path("law.mu_c", "0").unwrap();
        p.set_path("law.sign", "Tanh(1e-3)").unwrap();
        for (key, v) in [
            ("mass", m.to_string()),
            ("pull_stiffness", kp.to_string()),
            ("coupling_stiffness", kc.to_string()),
            ("belt_speed", "0".into()),
            ("initial_spread", "0.01".into()),
            ("ends", ends.into()),
            ("initial_pattern", "Random(seed: 3)".into()),
        ] {
            p.set_path(&format!("system.{key}"), &v).unwrap();
        }
        // No friction force at all: the explicit integrator is exact enough and fast.
        p.run.integrator = Method::Dopri5;
        p.run.rtol = 1e-10;
        p.run.output_interval_s = 0.02;
        let (sim, r) = rows(&p, 300.0);
        let r = regular(&sim, r);
        let weights = [0.3, -1.1, 0.7, 1.3, -0.4, 0.9];
        let xs: Vec<usize> = (0..n).map(|i| col(&sim, Role::Position(i))).collect();
        let signal: Vec<f64> = r
            .iter()
            .map(|row| xs.iter().zip(weights).map(|(&i, w)| w * row[i]).sum())
            .collect();
        let spectrum = amplitude_spectrum(&signal, 0.02, Window::Hann);
        let mut expected: Vec<f64> = theta
            .iter()
            .map(|th| ((kp + 4.0 * kc * th.sin().powi(2)) / m).sqrt() / std::f64::consts::TAU)
            .collect();
        expected.sort_by(f64::total_cmp);
        let mut found: Vec<f64> = spectrum
            .peaks(expected.len())
            .iter()
            .map(|pk| pk.freq_hz)
            .collect();
        found.sort_by(f64::total_cmp);
        assert_eq!(found.len(), expected.len(), "{ends}");
        for (f, e) in found.iter().zip(&expected) {
            // 300 s of record: bins of 3.3 mHz; the interpolated peak is far closer.
            assert!(
                (f / e - 1.0).abs() < 3e-4,
                "{ends}: peak {f} Hz, mode {e} Hz ({found:?} vs {expected:?})"
            );
        }
    }
}

/// A chain of identical blocks started together never stretches its coupling springs (free
/// ends): every block follows the bench's block, switches included.
#[test]
fn a_uniform_chain_moves_like_the_bench() {
    for (law, method, tol) in [
        ("static_kinetic", Method::Rk4, 1e-15),
        ("lugre", Method::Rk4, 1e-15),
        // Adaptive steps: the error norm averages over other components (four blocks, one
        // friction-work integral for all), so step sizes agree to round-off only and the
        // event times by ~1e-15 s; the departure stays ~1e-10 of the 40 mm amplitude.
        ("static_kinetic", Method::Auto, 1e-11),
    ] {
        let mut bench = builtin::load("coulomb_stick_slip_undamped")
            .unwrap()
            .unwrap();
        bench.set_path("law", law).unwrap();
        bench.set_path("system.damping", "0.3").unwrap();
        bench.set_path("system.initial_position", "0.01").unwrap();
        bench.run.integrator = method;
        let SystemConfig::BeltBlock(b) = &bench.system else {
            unreachable!()
        };
        let (v_b, k, n_load) = (b.belt_speed_mps(), b.stiffness_n_per_m, b.normal_load_n);
        let mut c = bench.clone();
        c.set_path("system", "chain").unwrap();
        for (key, value) in [
            ("blocks", "4".to_string()),
            ("mass", "1".into()),
            ("pull_stiffness", k.to_string()),
            ("coupling_stiffness", "300".into()),
            ("damping", "0.3".into()),
            ("normal_load", n_load.to_string()),
            ("belt_speed", format!("{v_b:e}")),
            ("initial_spread", "0.01".into()),
            ("initial_pattern", "Uniform".into()),
        ] {
            c.set_path(&format!("system.{key}"), &value).unwrap();
        }
        let (sb, rb) = rows(&bench, 4.0);
        let (sc, rc) = rows(&c, 4.0);
        let (rb, rc) = (regular(&sb, rb), regular(&sc, rc));
        assert_eq!(rb.len(), rc.len());
        let x = col(&sb, Role::Position(0));
        let mut worst = 0.0f64;
        let amplitude = rb.iter().map(|r| r[x].abs()).fold(0.0, f64::max);
        for (b, cr) in rb.iter().zip(&rc) {
            for i in 0..4 {
                worst = worst.max((b[x] - cr[col(&sc, Role::Position(i))]).abs());
            }
        }
        assert!(amplitude > 1e-3, "{law}: the bench moves ({amplitude} m)");
        assert!(
            worst <= tol,
            "{law} ({method:?}): the chain departs from the bench by {worst:e} m"
        );
    }
}

/// The energy account of a stick–slip chain closes to the tolerance: what the belt puts in is
/// stored, kinetic or dissipated by friction.
#[test]
fn the_chain_energy_account_closes() {
    let mut p = chain(20);
    p.run.duration_s = 10.0;
    let (sim, r) = rows(&p, 10.0);
    let (err, input) = (col(&sim, Role::EnergyError), col(&sim, Role::InputWork));
    let last = r.last().unwrap();
    let worst = r.iter().map(|row| row[err].abs()).fold(0.0, f64::max);
    assert!(last[input].abs() > 1.0, "the belt put in {} J", last[input]);
    assert!(
        worst < 1e-6 * last[input].abs(),
        "energy error {worst:e} J against {} J put in",
        last[input]
    );
}

/// A per-block law and a seeded spread reach the blocks they name: block 3's static
/// coefficient is its own, and the spread gives every block another threshold, the same for
/// the same seed.
#[test]
fn per_block_laws_and_spreads_reach_their_blocks() {
    let mut p = chain(8);
    p.set_path("law", "static_kinetic").unwrap();
    p.set_path("contact.3", "static_kinetic").unwrap();
    p.set_path("contact.3.mu_s", "0.9").unwrap();
    p.set_path("spread.mu_k", "0.05").unwrap();
    let laws = p.contact_laws();
    assert_eq!(laws.len(), 8);
    let mu_s = |i: usize| laws[i].params().get("mu_s").unwrap();
    let mu_k = |i: usize| laws[i].params().get("mu_k").unwrap();
    assert_eq!(mu_s(2), 0.9);
    assert_eq!(mu_s(0), mu_s(1));
    assert_ne!(mu_k(0), mu_k(1), "the spread varies the blocks");
    assert_eq!(p.contact_laws(), laws, "seeded: the same spread every time");
}

/// The declared block-tridiagonal Jacobian pattern holds every entry the right-hand side
/// really depends on (differenced at a slipping state), for open chains and rings, and grows
/// like N.
#[test]
fn the_declared_jacobian_pattern_covers_the_dependencies() {
    use tribolab::integrate::JacobianStructure;
    for ends in ["Free", "Fixed", "Periodic"] {
        let mut p = chain(7);
        p.set_path("system.ends", ends).unwrap();
        let (sim, _) = rows(&p, 0.5);
        let model = sim.model();
        let JacobianStructure::Sparse(pattern) = model.jacobian_structure() else {
            panic!("{ends}: the chain declares a sparse pattern");
        };
        let nd = model.dim() - model.n_quadratures();
        assert_eq!(pattern.dim(), nd);
        assert!(pattern.nnz() < 12 * nd, "{ends}: {} entries", pattern.nnz());
        let y = sim.state().to_vec();
        let t = sim.time_s();
        let mut f0 = vec![0.0; model.dim()];
        model.rhs(t, &y, &mut f0);
        for j in 0..nd {
            let mut yj = y.clone();
            yj[j] += 1e-7 * y[j].abs().max(1e-6);
            let mut f1 = vec![0.0; model.dim()];
            model.rhs(t, &yj, &mut f1);
            for i in 0..nd {
                if f1[i] != f0[i] {
                    assert!(
                        pattern.position(i, j).is_some(),
                        "{ends}: ∂f{i}/∂y{j} ≠ 0 is not declared"
                    );
                }
            }
        }
    }
}

/// The analytic Jacobian equals central differences of the right-hand side, entry by entry,
/// for open chains, rings and the two-block ring (whose neighbours coincide), at a state with
/// blocks sticking and slipping.
#[test]
fn the_analytic_jacobian_matches_differences() {
    for (ends, blocks) in [("Free", 7), ("Fixed", 7), ("Periodic", 7), ("Periodic", 2)] {
        let mut p = chain(blocks);
        p.set_path("system.ends", ends).unwrap();
        p.set_path("system.damping", "0.3").unwrap();
        let (sim, out) = rows(&p, 12.0);
        let last = out.last().unwrap();
        let slipping = (0..blocks)
            .filter(|&b| last[col(&sim, Role::SlipVelocity(b))].abs() > 1e-3)
            .count();
        assert!(slipping > 0, "{ends}: a block slips at t = 12 s");
        let model = sim.model();
        let tribolab::integrate::JacobianStructure::Sparse(pattern) = model.jacobian_structure()
        else {
            panic!("{ends}: the chain declares a sparse pattern");
        };
        let (t, y) = (sim.time_s(), sim.state().to_vec());
        let mut values = vec![0.0; pattern.nnz()];
        assert!(
            model.jacobian_sparse(t, &y, &mut values),
            "{ends}: analytic"
        );
        let n = model.dim();
        for (k, (i, j)) in pattern.entries().enumerate() {
            let h = 1e-7 * y[j].abs().max(1e-6);
            let (mut up, mut down) = (y.clone(), y.clone());
            up[j] += h;
            down[j] -= h;
            let (mut fu, mut fd) = (vec![0.0; n], vec![0.0; n]);
            model.rhs(t, &up, &mut fu);
            model.rhs(t, &down, &mut fd);
            let numeric = (fu[i] - fd[i]) / (2.0 * h);
            let err = (values[k] - numeric).abs() / numeric.abs().max(1.0);
            assert!(
                err < 1e-5,
                "{ends}, N = {blocks}: ∂f{i}/∂y{j} analytic {} vs differenced {numeric}",
                values[k]
            );
        }
    }
}

/// Blocks of different masses (a seeded spread): uncoupled and frictionless, each rings at
/// its own `√(k_p/m_i)`, with `m_i` the masses the layout reports; another seed gives other
/// masses, and the energy account (kinetic energy with each block's mass) closes with
/// friction.
#[test]
fn a_mass_spread_gives_each_block_its_own_mass() {
    let mut p = chain(3);
    for (path, v) in [
        ("law", "coulomb"),
        ("law.mu_c", "0"),
        ("law.sign", "Tanh(1e-3)"),
        ("system.coupling_stiffness", "0"),
        ("system.pull_stiffness", "100"),
        ("system.belt_speed", "0"),
        ("system.initial_pattern", "Uniform"),
        ("system.initial_spread", "0.01"),
        ("system.mass_spread", "0.5"),
        ("system.mass_seed", "11"),
    ] {
        p.set_path(path, v).unwrap();
    }
    let masses: Vec<f64> = p.system.layout().dofs.iter().map(|d| d.mass).collect();
    assert!(masses.iter().all(|m| (0.5..=1.5).contains(m)), "{masses:?}");
    assert!((masses[0] - masses[1]).abs() > 1e-3 && (masses[1] - masses[2]).abs() > 1e-3);
    // The seed chooses the masses.
    let mut other = p.clone();
    other.set_path("system.mass_seed", "12").unwrap();
    let other: Vec<f64> = other.system.layout().dofs.iter().map(|d| d.mass).collect();
    assert!(masses.iter().zip(&other).all(|(a, b)| a != b), "{other:?}");
    p.run.output_interval_s = 1e-3;
    p.run.rtol = 1e-10;
    let (sim, out) = rows(&p, 40.0);
    let out = regular(&sim, out);
    for (i, m) in masses.iter().enumerate() {
        let x: Vec<f64> = out
            .iter()
            .map(|r| r[col(&sim, Role::Position(i))])
            .collect();
        // Period from the up-crossings of x = 0 (x(t) = A·cos ωt).
        let ups: Vec<f64> = x
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w[0] < 0.0 && w[1] >= 0.0)
            .map(|(k, w)| (k as f64 + w[0] / (w[0] - w[1])) * 1e-3)
            .collect();
        let period = (ups[ups.len() - 1] - ups[0]) / (ups.len() - 1) as f64;
        let expected = std::f64::consts::TAU * (m / 100.0).sqrt();
        assert!(
            (period - expected).abs() < 1e-5 * expected,
            "block {i}: period {period} vs {expected}"
        );
    }
    // With friction and coupling the energy account still closes.
    let mut q = builtin::load("chain_10_classroom").unwrap().unwrap();
    q.set_path("system.mass_spread", "0.3").unwrap();
    let (sim, out) = rows(&q, 30.0);
    let err = col(&sim, Role::EnergyError);
    let worst = out.iter().map(|r| r[err].abs()).fold(0.0, f64::max);
    assert!(worst < 1e-6, "energy error {worst}");
}
