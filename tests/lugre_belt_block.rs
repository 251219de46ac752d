//! LuGre on the belt–block (Canudas de Wit et al. 1995 example): the stick–slip period converges
//! as rtol tightens, the stiff bristles integrate for σ₀ from 1e3 to 1e8 N/m without a
//! user-chosen step, and the energy balance closes within the stated tolerance.

#![allow(clippy::unwrap_used)]

use tribolab::preset::Preset;
use tribolab::preset::builtin;

fn lugre_1995() -> Preset {
    builtin::load("lugre_canudas_1995").unwrap().unwrap()
}

fn col(names: &[String], n: &str) -> usize {
    names.iter().position(|c| c == n).unwrap()
}

/// Limit-cycle period from successive downward crossings of v_rel through −0.05 m/s (the peer
/// benchmark's checksum: its v_r = v_b − ẋ crossing +0.05 upwards), interpolated linearly
/// between dense samples at 0.5 ms.
fn period(p: &Preset, t_end: f64) -> f64 {
    let mut p = p.clone();
    p.run.output_interval_s = 5e-4;
    let mut sim = p.build_simulation().unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(t_end, &mut rows).unwrap();
    let names = sim.column_names();
    let (it, iv) = (col(&names, "t"), col(&names, "v_rel"));
    let mut crossings = vec![];
    for w in rows.windows(2) {
        let (a, b) = (w[0][iv] + 0.05, w[1][iv] + 0.05);
        if a > 0.0 && b <= 0.0 {
            crossings.push(w[0][it] + a / (a - b) * (w[1][it] - w[0][it]));
        }
    }
    let n = crossings.len();
    assert!(n >= 6, "only {n} cycles");
    (crossings[n - 1] - crossings[n - 6]) / 5.0
}

#[test]
fn stick_slip_period_converges_as_rtol_tightens() {
    let base = lugre_1995();
    let periods: Vec<f64> = [1e-5, 1e-7, 1e-9, 1e-11]
        .iter()
        .map(|&rtol| {
            let mut p = base.clone();
            p.run.rtol = rtol;
            period(&p, 60.0)
        })
        .collect();
    let diffs: Vec<f64> = periods.windows(2).map(|w| (w[1] - w[0]).abs()).collect();
    // Each tightening by 100× shrinks the change; the last two agree to 1e-8 relative.
    assert!(diffs[1] < diffs[0] && diffs[2] < diffs[1], "{periods:?}");
    assert!(diffs[2] / periods[3] < 1e-8, "{periods:?}");
    // Scipy Radau and numba RK4 (dt = 1e-5) give 6.3627198 s for the same checksum.
    assert!(
        (periods[3] - 6.3627198).abs() < 1e-6,
        "period {}",
        periods[3]
    );
}

#[test]
fn stiff_bristles_from_1e3_to_1e8_integrate_without_a_user_step() {
    for sigma0 in [1e3f64, 1e5, 1e7, 1e8] {
        let mut p = lugre_1995();
        p.set_path("law.sigma0", &sigma0.to_string()).unwrap();
        // Critical bristle damping for m = 1 kg keeps the comparison fair across σ₀.
        p.set_path("law.sigma1", &(2.0 * sigma0.sqrt()).min(1e4).to_string())
            .unwrap();
        p.run.output_interval_s = 0.01;
        let mut sim = p.build_simulation().unwrap();
        let mut rows: Vec<Vec<f64>> = Vec::new();
        sim.advance(20.0, &mut rows).unwrap();
        let steps = sim.stats().steps;
        assert!(steps < 50_000, "σ0 = {sigma0}: {steps} steps");
        // The friction force never exceeds the static level by more than the bristle damping
        // transient allows (here: stays below 1.6 N for F_S = 1.5 N).
        let names = sim.column_names();
        let f = col(&names, "friction_force");
        let f_max = rows.iter().map(|r| r[f].abs()).fold(0.0, f64::max);
        assert!(f_max < 1.6, "σ0 = {sigma0}: |F| up to {f_max}");
    }
}

#[test]
fn energy_balance_closes_to_a_multiple_of_rtol() {
    let mut p = lugre_1995();
    p.run.rtol = 1e-8;
    p.run.output_interval_s = 0.01;
    let mut sim = p.build_simulation().unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(100.0, &mut rows).unwrap();
    let names = sim.column_names();
    let last = rows.last().unwrap();
    let input = last[col(&names, "w_belt")].abs();
    let err = rows
        .iter()
        .map(|r| r[col(&names, "energy_error")].abs())
        .fold(0.0, f64::max);
    // Stated tolerance for the adaptive integrators: |error| ≤ 100·rtol × belt input.
    assert!(input > 1.0);
    assert!(
        err <= 100.0 * 1e-8 * input,
        "energy error {err} J of {input} J"
    );
}

/// Regression: with load noise driving N to zero the bristle rate σ₀|v|/g became infinite
/// (g scaled by N/N₀) and the run failed ("step size fell to 3e-15 s"). The bristle force is
/// now scaled by the load instead: the run goes through, and whenever N = 0 the friction is
/// the viscous σ₂·v alone.
#[test]
fn lugre_runs_through_zero_load_and_its_dry_friction_vanishes_there() {
    let mut p = tribolab::preset::builtin::load("lugre_canudas_1995")
        .unwrap()
        .unwrap();
    p.set_path("noise", "on").unwrap();
    p.set_path("noise.sigma", "0.5").unwrap();
    let mut sim = p.build_simulation().unwrap();
    let names = sim.column_names();
    let col = |n: &str| names.iter().position(|c| c == n).unwrap();
    let (load, friction, v_rel) = (col("normal_load"), col("friction_force"), col("v_rel"));
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(5.0, &mut rows).unwrap();
    let unloaded: Vec<&Vec<f64>> = rows.iter().filter(|r| r[load] == 0.0).collect();
    assert!(
        unloaded.len() > 10,
        "only {} samples at zero load",
        unloaded.len()
    );
    let sigma2 = p.law.params().get("sigma2").unwrap();
    for r in unloaded {
        assert!(
            (r[friction] + sigma2 * r[v_rel]).abs() < 1e-12,
            "t = {}: F = {} N at zero load, σ₂·v = {}",
            r[0],
            r[friction],
            sigma2 * r[v_rel]
        );
    }
}
