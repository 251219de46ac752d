//! The Prandtl–Tomlinson tip (MODELS §3.3) against independent results: multistability
//! exactly when η > 1, the quasi-static slip point in closed form, the athermal friction
//! plateau as v → 0 from the energy of a slip, single and multiple slips, equipartition of the
//! BAOAB thermostat, the Sang–Dubé–Grant law of thermally activated friction, and the energy
//! account.

#![allow(clippy::unwrap_used)]

use std::f64::consts::TAU;

use tribolab::analysis::friction_sweep::{FrictionSweepSpec, Span, friction_sweep};
use tribolab::analysis::lattice_slips::count_slips;
use tribolab::analysis::lyapunov::{LyapunovOptions, analyze};
use tribolab::integrate::{BOLTZMANN_J_PER_K, Column, Role};
use tribolab::preset::{Preset, builtin};
use tribolab::systems::tomlinson::quasi_static::QuasiStatic;
use tribolab::systems::{ConfigOf, TomlinsonParams};

fn preset(stem: &str) -> Preset {
    builtin::load(stem).unwrap().unwrap()
}

fn params(p: &Preset) -> TomlinsonParams {
    TomlinsonParams::of(&p.system).unwrap().clone()
}

/// Rows of a run of `p` to `t_end` (by whichever runner the preset builds).
fn run(p: &Preset, t_end: f64) -> (Vec<Column>, Vec<Vec<f64>>) {
    let mut r = p.build_runner().unwrap();
    let mut rows = Vec::<Vec<f64>>::new();
    r.advance(t_end, &mut rows).unwrap();
    (r.columns(), rows)
}

fn col(cols: &[Column], role: Role) -> usize {
    cols.iter().position(|c| c.role == role).unwrap()
}

fn series(rows: &[Vec<f64>], c: usize, from: f64) -> Vec<f64> {
    rows.iter().filter(|r| r[0] >= from).map(|r| r[c]).collect()
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Slip events of the tip in a run (jumps faster than a tenth of the lattice time).
fn slips(
    p: &TomlinsonParams,
    cols: &[Column],
    rows: &[Vec<f64>],
) -> tribolab::analysis::lattice_slips::SlipCount {
    let t = series(rows, 0, 0.0);
    let x = series(rows, col(cols, Role::Position(0)), 0.0);
    let lt = p.lattice_time_s();
    count_slips(&t, &x, p.lattice, 0.1 * lt, 0.25 * lt)
}

/// Multistability exactly when η > 1: the number of minima of `E(x; X)`, found by scanning the
/// gradient, is more than one for some support position iff η > 1; the minima agree with a
/// brute-force search of the sampled energy.
#[test]
fn multistable_exactly_when_eta_exceeds_one() {
    let base = params(&preset("pt_single_slips"));
    let scale = base.stiffness * base.lattice * base.lattice / (4.0 * std::f64::consts::PI.powi(2));
    for eta in [0.5, 0.9, 0.98, 1.02, 1.1, 3.0, 7.0] {
        let mut p = base.clone();
        p.corrugation = eta * scale;
        let qs = QuasiStatic::new(&p);
        assert!((qs.eta() / eta - 1.0).abs() < 1e-12);
        let most = (0..400)
            .map(|i| qs.minima(p.lattice * i as f64 / 400.0).len())
            .max()
            .unwrap();
        assert_eq!(most > 1, eta > 1.0, "η = {eta}: {most} minima");
        // Brute force at one support position: local minima of the sampled energy.
        let support = 0.5 * p.lattice;
        let h = p.lattice / 20_000.0;
        let e: Vec<f64> = (0..200_000)
            .map(|i| qs.energy(support - 5.0 * p.lattice + i as f64 * h, support))
            .collect();
        let brute: Vec<f64> = (1..e.len() - 1)
            .filter(|&i| e[i] < e[i - 1] && e[i] <= e[i + 1])
            .map(|i| support - 5.0 * p.lattice + i as f64 * h)
            .collect();
        let found = qs.minima(support);
        assert_eq!(found.len(), brute.len(), "η = {eta}");
        for (a, b) in found.iter().zip(&brute) {
            assert!((a - b).abs() < 2.0 * h, "η = {eta}: {a} vs {b}");
        }
    }
}

/// The slip point: the occupied minimum vanishes where `cos(2πx/a) = −1/η`, at the support
/// position of the force balance; just before it the minimum exists, just after it is gone.
/// A slow run jumps there, and its peak lateral force is the substrate's largest, `2πU₀/a`
/// (reached at the inflection point before the jump).
#[test]
fn slip_point_matches_the_closed_form() {
    let p0 = params(&preset("pt_single_slips"));
    let qs = QuasiStatic::new(&p0);
    let slip = qs.slip_point().unwrap();
    let eta = p0.eta();
    assert!(((TAU * slip.tip_m / p0.lattice).cos() + 1.0 / eta).abs() < 1e-12);
    let f_star = TAU * p0.corrugation / p0.lattice * (1.0 - 1.0 / (eta * eta)).sqrt();
    assert!((slip.force_n / f_star - 1.0).abs() < 1e-12);
    let in_well0 = |x_support: f64| {
        qs.minima(x_support)
            .iter()
            .any(|&x| x.abs() < 0.5 * p0.lattice)
    };
    assert!(in_well0(slip.support_m * (1.0 - 1e-6)));
    assert!(!in_well0(slip.support_m * (1.0 + 1e-6)));
    // A slow run (ṽ ≈ 1.5e-4): the tip leaves well 0 within 0.5 % of X*.
    let mut pr = preset("pt_single_slips");
    pr.set_path("system.speed", "1e-9").unwrap();
    let p = params(&pr);
    pr.run.output_interval_s = p.lattice_time_s() / 20_000.0;
    let (cols, rows) = run(&pr, 1.5 * p.lattice_time_s());
    let (ix, iv, isup) = (
        col(&cols, Role::Position(0)),
        col(&cols, Role::Velocity(0)),
        col(&cols, Role::DriverPosition),
    );
    let jump = rows.iter().find(|r| r[iv] > 100.0 * p.speed).unwrap();
    assert!(jump[ix] < 0.5 * p.lattice, "the jump starts in well 0");
    assert!(
        (jump[isup] / slip.support_m - 1.0).abs() < 5e-3,
        "X at the jump {} vs X* {}",
        jump[isup],
        slip.support_m
    );
    let fl = series(&rows, col(&cols, Role::SpringForce(0)), 0.0);
    let peak = fl.iter().cloned().fold(f64::MIN, f64::max);
    let largest = TAU * p.corrugation / p.lattice;
    assert!((peak / largest - 1.0).abs() < 2e-3, "{peak} vs {largest}");
}

/// T = 0 friction as v → 0: the mean lateral force tends to the energy one slip dissipates per
/// lattice period, from above and like v^(2/3).
#[test]
fn athermal_friction_plateau() {
    let mut excess = Vec::new();
    for v in [1e-8, 1e-9] {
        let mut pr = preset("pt_single_slips");
        pr.set_path("system.speed", &v.to_string()).unwrap();
        let p = params(&pr);
        pr.run.output_interval_s = p.lattice_time_s() / 2000.0;
        let (cols, rows) = run(&pr, 6.0 * p.lattice_time_s());
        let f = series(&rows, col(&cols, Role::SpringForce(0)), p.lattice_time_s());
        let plateau = QuasiStatic::new(&p).athermal_friction_n().unwrap();
        excess.push(mean(&f) / plateau - 1.0);
    }
    assert!(excess[1] > 0.0 && excess[1] < 7e-3, "{excess:?}");
    // Ten times slower: the excess shrinks like v^(2/3) (factor 4.6), within 20 %.
    let ratio = excess[0] / excess[1];
    assert!(
        (ratio / 10f64.powf(2.0 / 3.0) - 1.0).abs() < 0.2,
        "{excess:?}"
    );
}

/// Smooth sliding below η = 1, one site per slip at η = 3 with damping, several at η = 7 with
/// little damping.
#[test]
fn smooth_single_and_multiple_slips() {
    let cases = [
        ("pt_smooth_sliding", 0.0, 0.0),
        ("pt_single_slips", 1.0, 1.0),
        ("pt_multiple_slips", 2.0, 10.0),
    ];
    for (stem, lo, hi) in cases {
        let pr = preset(stem);
        let p = params(&pr);
        let (cols, rows) = run(&pr, pr.run.duration_s);
        let c = slips(&p, &cols, &rows);
        if hi == 0.0 {
            assert_eq!(c.events, 0, "{stem}: {c:?}");
            let stick = series(&rows, col(&cols, Role::Stick(0)), 0.0);
            assert!(stick.iter().all(|&s| s == 1.0), "{stem}: a slip flagged");
        } else {
            let sites = c.sites_per_slip();
            assert!((lo..=hi).contains(&sites), "{stem}: {sites} sites per slip");
            // Every lattice period of the support's travel is one site.
            let periods = pr.run.duration_s / p.lattice_time_s();
            assert!(
                (c.net_sites as f64 - periods).abs() <= 1.5 + hi,
                "{stem}: {c:?}"
            );
        }
    }
}

/// The energy account closes: at T = 0 to the integration's accuracy, at T = 300 K to the
/// BAOAB splitting error (order h², under 5 % of k_BT).
#[test]
fn energy_account_closes() {
    let pr = preset("pt_single_slips");
    let p = params(&pr);
    let (cols, rows) = run(&pr, pr.run.duration_s);
    let e = series(&rows, col(&cols, Role::EnergyError), 0.0);
    let worst = e.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(worst < 1e-5 * p.corrugation, "{worst}");
    let pr = preset("pt_thermal_300k");
    let (cols, rows) = run(&pr, pr.run.duration_s);
    let e = series(&rows, col(&cols, Role::EnergyError), 0.0);
    let worst = e.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(worst < 0.05 * BOLTZMANN_J_PER_K * 300.0, "{worst}");
}

/// Equipartition of the BAOAB thermostat: a tip on a flat surface held by its spring, at
/// 300 K, has ⟨½mẋ²⟩ = ⟨½k·u²⟩ = ½k_BT within 2 %; the same seed gives the same run.
#[test]
fn thermostat_equipartition() {
    let mut pr = preset("pt_thermal_300k");
    pr.set_path("system.corrugation", "1e-23").unwrap();
    pr.set_path("system.speed", "1e-12").unwrap();
    pr.run.output_interval_s = 2e-6;
    let p = params(&pr);
    let (cols, rows) = run(&pr, 1.5);
    let half_kt = 0.5 * BOLTZMANN_J_PER_K * p.temperature;
    let v = series(&rows, col(&cols, Role::Velocity(0)), 0.01);
    let kinetic = 0.5 * p.mass * v.iter().map(|v| v * v).sum::<f64>() / v.len() as f64;
    let lateral = series(&rows, col(&cols, Role::SpringForce(0)), 0.01);
    let spring = lateral
        .iter()
        .map(|f| 0.5 * f * f / p.stiffness)
        .sum::<f64>()
        / lateral.len() as f64;
    assert!(
        (kinetic / half_kt - 1.0).abs() < 0.02,
        "kinetic {}",
        kinetic / half_kt
    );
    assert!(
        (spring / half_kt - 1.0).abs() < 0.02,
        "spring {}",
        spring / half_kt
    );
    let (_, again) = run(&pr, 0.01);
    assert_eq!(&rows[..again.len()], &again[..], "seeded runs repeat");
}

/// A live speed change keeps the tip and the support where they are.
#[test]
fn live_speed_change_is_continuous() {
    let pr = preset("pt_single_slips");
    let mut r = pr.build_runner().unwrap();
    let mut rows = Vec::<Vec<f64>>::new();
    r.advance(0.004, &mut rows).unwrap();
    let mut faster = pr.clone();
    faster.set_path("system.speed", "3e-7").unwrap();
    r.reconfigure(&faster.spec()).unwrap();
    let before = rows.last().unwrap().clone();
    rows.clear();
    r.advance(0.004 + 2e-6, &mut rows).unwrap();
    let cols = r.columns();
    let after = rows.first().unwrap();
    for role in [Role::Position(0), Role::DriverPosition] {
        let c = col(&cols, role);
        assert!((after[c] - before[c]).abs() < 1e-12, "{role:?}");
    }
}

/// Thermal activation (Sang–Dubé–Grant): at 50 K (k_BT/U₀ ≈ 0.03) kicks carry the tip over
/// the barrier before the spring removes it, so the mean friction lies below the cold tip's
/// quasi-static friction, by a fraction of order (k_BT/U₀ · ln(v_c/v))^(2/3) ≈ ½ of it, and
/// grows with the logarithm of the speed. The viscous drag γ·v is taken off first.
#[test]
fn thermal_friction_is_activated() {
    let mut p = preset("pt_thermal_300k");
    p.set_path("system.temperature", "50").unwrap();
    p.set_path("run.output_interval", "2e-6").unwrap();
    let study = p.system.thermal_friction().unwrap();
    let f_c = study.athermal_friction_n.unwrap();
    assert_eq!(
        Some(f_c),
        QuasiStatic::new(&params(&p)).athermal_friction_n()
    );
    let spec = FrictionSweepSpec {
        param: "system.speed".into(),
        values: vec![1e-9, 1e-8, 1e-7],
        seeds: vec![1, 2],
        transient: Span::DrivePeriods(1.0),
        measure: Span::DrivePeriods(4.0),
        threads: None,
    };
    let points = friction_sweep(&p, &spec, None, None).unwrap();
    let f: Vec<f64> = points
        .iter()
        .map(|q| q.mean_n - study.drag_kg_per_s * q.value)
        .collect();
    println!(
        "F_c = {f_c:e} N; F = {f:?}; sem = {:?}",
        points.iter().map(|q| q.sem_n).collect::<Vec<_>>()
    );
    for (q, f) in points.iter().zip(&f) {
        assert!(*f < f_c && *f > f_c / 3.0, "v = {}: F = {f:e}", q.value);
        assert!(
            (q.slips_per_period - 1.0).abs() < 0.3,
            "single slips: {}",
            q.slips_per_period
        );
    }
    let margin = 3.0 * (points[0].sem_n + points[2].sem_n);
    assert!(f[0] + margin < f[2], "F grows with speed: {f:?}");
    assert!(f[0] < f[1] && f[1] < f[2], "{f:?}");
}

/// The exponents of a run with a heat bath would be those of the cold tip (the noise is not in
/// the tangent equations): the analysis refuses and says so.
#[test]
fn lyapunov_refuses_a_thermal_run() {
    let p = preset("pt_thermal_300k");
    let err = analyze(&p, &LyapunovOptions::default(), false).unwrap_err();
    assert!(err.to_string().contains("temperature to 0 K"), "{err}");
}

/// A tip damped far beyond its oscillation is stiff: the automatic choice is implicit and a
/// lattice period costs few steps.
#[test]
fn an_overdamped_tip_runs_implicitly() {
    let mut p = preset("pt_single_slips");
    p.set_path("system.damping", "1").unwrap();
    p.set_path("system.mass", "1e-16").unwrap();
    let mut sim = p.build_simulation().unwrap();
    assert_eq!(sim.method_name(), "Rodas4");
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(p.run.duration_s, &mut rows).unwrap();
    assert!(sim.stats().steps < 200_000, "{} steps", sim.stats().steps);
    assert!(rows.iter().flatten().all(|v| v.is_finite()));
}
