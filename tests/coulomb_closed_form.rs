//! Undamped static/kinetic Coulomb belt–block against the closed-form stick–slip cycle
//! (MODELS §5): period, stick and slip durations, amplitude and force extremes to 1e-6
//! relative, and the energy balance over 100 cycles to 1e-8 relative.

#![allow(clippy::unwrap_used)]

use tribolab::laws::LawConfig;
use tribolab::laws::static_kinetic::StaticKineticParams;
use tribolab::preset::Preset;
use tribolab::systems::{BeltBlockParams, SystemConfig};

/// MODELS §5 example: m = 1 kg, k = 100 N/m, N = 10 N, μ_S = 0.4, μ_K = 0.3, v_b = 0.1 m/s.
fn example_preset(rtol: f64) -> Preset {
    let mut p = Preset {
        // v_b = 2π·R·n/60 = 0.1 m/s with R = 0.1 m, n = 60/(2π) rpm.
        system: SystemConfig::BeltBlock(BeltBlockParams {
            mass_kg: 1.0,
            stiffness_n_per_m: 100.0,
            damping_ns_per_m: 0.0,
            normal_load_n: 10.0,
            wheel_radius_m: 0.1,
            wheel_rpm: 60.0 / std::f64::consts::TAU,
            joint_amplitude: 0.0,
            ..BeltBlockParams::default()
        }),
        law: LawConfig::StaticKinetic(StaticKineticParams {
            mu_s: 0.4,
            mu_k: 0.3,
            ..StaticKineticParams::default()
        }),
        ..Preset::default()
    };
    p.run.rtol = rtol;
    p.run.output_interval_s = 1e-3;
    p
}

struct Cycle {
    stick_start: Vec<f64>,
    slip_start: Vec<f64>,
    x_max: f64,
    x_min: f64,
    f_max: f64,
    f_min: f64,
}

fn run(p: &Preset, t_end: f64) -> (Vec<Vec<f64>>, Vec<String>) {
    let mut sim = p.build_simulation().expect("builds");
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(t_end, &mut rows).expect("runs");
    (rows, sim.column_names())
}

fn col(names: &[String], name: &str) -> usize {
    names.iter().position(|n| n == name).expect("column exists")
}

fn analyse(rows: &[Vec<f64>], names: &[String], t_from: f64) -> Cycle {
    let (it, ix, istick, ifr, iev) = (
        col(names, "t"),
        col(names, "x"),
        col(names, "stick"),
        col(names, "friction_force"),
        col(names, "event"),
    );
    let mut c = Cycle {
        stick_start: vec![],
        slip_start: vec![],
        x_max: f64::MIN,
        x_min: f64::MAX,
        f_max: f64::MIN,
        f_min: f64::MAX,
    };
    // Event rows come in (before, after) pairs.
    let events: Vec<&Vec<f64>> = rows.iter().filter(|r| r[iev] == 1.0).collect();
    for pair in events.chunks(2) {
        let (before, after) = (pair[0], pair[1]);
        if before[istick] == 0.0 && after[istick] == 1.0 {
            c.stick_start.push(after[it]);
        } else if before[istick] == 1.0 && after[istick] == 0.0 {
            c.slip_start.push(after[it]);
        }
    }
    for r in rows.iter().filter(|r| r[it] >= t_from) {
        c.x_max = c.x_max.max(r[ix]);
        c.x_min = c.x_min.min(r[ix]);
        c.f_max = c.f_max.max(r[ifr]);
        c.f_min = c.f_min.min(r[ifr]);
    }
    c
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

#[test]
fn undamped_cycle_matches_closed_form() {
    let (m, k, n, mus, muk, vb) = (1.0f64, 100.0, 10.0, 0.4, 0.3, 0.1);
    let omega = (k / m).sqrt();
    let d = (mus - muk) * n / k;
    let xk = muk * n / k;
    let t_stick = 2.0 * d / vb;
    let t_slip = (std::f64::consts::PI + 2.0 * (vb / (omega * d)).atan()) / omega;
    let period = t_stick + t_slip;
    let amp = (d * d + (vb / omega).powi(2)).sqrt();
    // Published numbers of the example (MODELS §5) check the formulas themselves.
    assert!((t_slip - 0.471239).abs() < 1e-6 && (period - 0.671239).abs() < 1e-6);
    assert!((xk + amp - 0.0441421).abs() < 1e-7);

    let p = example_preset(1e-10);
    let (rows, names) = run(&p, 20.0);
    let c = analyse(&rows, &names, 5.0);
    assert!(c.stick_start.len() > 25, "{} sticks", c.stick_start.len());
    let stick_durations: Vec<f64> = c
        .stick_start
        .iter()
        .filter_map(|&ts| c.slip_start.iter().find(|&&tl| tl > ts).map(|tl| tl - ts))
        .collect();
    let slip_durations: Vec<f64> = c
        .slip_start
        .iter()
        .filter_map(|&tl| c.stick_start.iter().find(|&&ts| ts > tl).map(|ts| ts - tl))
        .collect();
    // Skip the start-up transient (the block starts at x = 0 carried by the belt).
    for &ts in &stick_durations[2..] {
        assert!(rel(ts, t_stick) < 1e-6, "stick {ts} vs {t_stick}");
    }
    for &tl in &slip_durations[2..] {
        assert!(rel(tl, t_slip) < 1e-6, "slip {tl} vs {t_slip}");
    }
    let periods: Vec<f64> = c.stick_start.windows(2).map(|w| w[1] - w[0]).collect();
    for &tp in &periods[2..] {
        assert!(rel(tp, period) < 1e-6, "period {tp} vs {period}");
    }
    // Extremes from output samples at 1 ms: the top is in stick (sampled exactly at break-away
    // events), the bottom inside slip is sampled within 1 ms of the turning point.
    assert!(
        rel(c.x_max, xk + amp) < 1e-6,
        "x_max {} vs {}",
        c.x_max,
        xk + amp
    );
    let x_min = xk - amp;
    assert!(
        (c.x_min - x_min).abs() < 1e-6 * amp,
        "x_min {} vs {}",
        c.x_min,
        x_min
    );
    // Friction force: μ_S N at break-away, (2μ_K − μ_S) N at re-stick.
    assert!(rel(c.f_max, mus * n) < 1e-6, "F_max {}", c.f_max);
    assert!(
        rel(c.f_min, (2.0 * muk - mus) * n) < 1e-6,
        "F_min {}",
        c.f_min
    );
}

#[test]
fn energy_balance_closes_over_100_cycles() {
    let p = example_preset(1e-10);
    let (rows, names) = run(&p, 100.0 * 0.671239);
    let last = rows.last().expect("rows");
    let err = last[col(&names, "energy_error")];
    let input = last[col(&names, "w_belt")].abs();
    assert!(input > 1.0, "belt input {input} J");
    assert!(
        err.abs() / input < 1e-8,
        "energy error {err} J of {input} J"
    );
    // Dissipated per cycle = μ_K N v_b T (MODELS §5), checked on the friction work.
    let w_f = -last[col(&names, "w_friction")];
    let t = last[col(&names, "t")];
    let per_time = 0.3 * 10.0 * 0.1;
    assert!(rel(w_f / t, per_time) < 2e-2, "friction power {}", w_f / t);
}
