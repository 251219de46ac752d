//! The characterisation rig's standard tests against closed forms (MODELS §3.5): the Stribeck
//! test returns each law's steady characteristic, frictional lag opens loops only for laws with
//! a state, Maxwell-slip's loops close at their reversal points and follow the Masing rule while
//! Dahl's do not (Dahl's branches checked against their closed form), LuGre's break-away force
//! falls with the force rate as in Canudas de Wit et al. (1995), a set-valued law breaks away
//! at its static level whatever the rate, and the force rig's energy account closes.

#![allow(clippy::unwrap_used)]

use tribolab::analysis::rig_reading::{RigReading, run_and_read};
use tribolab::integrate::Role;
use tribolab::integrate::column::find_role;
use tribolab::laws::{FrictionLaw, LAWS, LawConfig};
use tribolab::preset::{Preset, builtin};
use tribolab::systems::{FrictionRigParams, RigTest, SystemConfig};

/// A rig preset with `law` running `test` for `duration_s`, rows every `dt_s`.
fn rig(params: FrictionRigParams, law: LawConfig, duration_s: f64, dt_s: f64) -> Preset {
    let mut p = Preset {
        system: SystemConfig::FrictionRig(params),
        law,
        ..Preset::default()
    };
    p.run.duration_s = duration_s;
    p.run.output_interval_s = dt_s;
    p.run.rtol = 1e-10;
    p
}

fn read(p: &Preset) -> RigReading {
    let run = run_and_read(p).unwrap();
    run.outcome.unwrap();
    run.reading
}

fn figure(r: &RigReading, name: &str) -> f64 {
    r.figures
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no {name} in {:?}", r.figures))
        .1
}

fn stribeck(speed_min: f64, speed_max: f64, speeds: f64, level_s: f64) -> FrictionRigParams {
    FrictionRigParams {
        normal_load_n: 10.0,
        speed_min_mps: speed_min,
        speed_max_mps: speed_max,
        speeds,
        level_s,
        test: RigTest::Stribeck,
        ..FrictionRigParams::default()
    }
}

/// Every law without a state answers the Stribeck test with its own characteristic `F_ss(v)`
/// at each speed, both ways, to 1e-6 N (at 10 N of load): the rig imposes the speed, and the
/// mean over the level is the law's force there.
#[test]
fn the_stribeck_test_returns_each_static_law_s_characteristic() {
    let mut checked = Vec::new();
    for info in LAWS {
        let law = (info.default_config)();
        if law.build().n_states() > 0 {
            continue;
        }
        let params = stribeck(1e-6, 1.0, 7.0, 1.0);
        let p = rig(
            params.clone(),
            law,
            params.programme().duration_s().unwrap(),
            0.05,
        );
        let r = read(&p);
        assert_eq!(r.rows.len(), 14, "{}", info.key);
        for row in &r.rows {
            let (v, measured, steady) = (row[0], row[1], row[2]);
            assert!(
                (measured - steady).abs() <= 1e-6,
                "{} at v = {v}: measured {measured}, F_ss {steady}",
                info.key
            );
            // The steady characteristic is the law's own, resisting the motion.
            assert!(measured * v >= 0.0, "{} at {v}: {measured}", info.key);
        }
        checked.push(info.key);
    }
    assert!(checked.len() >= 8, "static laws checked: {checked:?}");
}

/// LuGre and GMS settle on `F_ss(v) = s(v)·sgn v + σ₂v` at each speed when a level slides a
/// few hundred of their memory lengths before it is averaged (MODELS §5).
#[test]
fn the_stribeck_test_settles_lugre_and_gms_on_their_steady_curves() {
    for key in ["lugre", "gms"] {
        let law = (tribolab::laws::find_law(key).unwrap().default_config)();
        // 400 s at 10 µm/s: 2 mm slid before averaging, ~130 LuGre lengths F_S/σ₀.
        let params = FrictionRigParams {
            normal_load_n: 1.0,
            ..stribeck(1e-5, 0.1, 5.0, 400.0)
        };
        let p = rig(
            params.clone(),
            law,
            params.programme().duration_s().unwrap(),
            1.0,
        );
        let r = read(&p);
        assert_eq!(r.rows.len(), 10, "{key}");
        let worst = figure(&r, "largest_departure");
        assert!(
            worst <= 1e-6,
            "{key}: {worst} N from F_ss; rows {:?}",
            r.rows
        );
        // The curve falls from F_S towards F_C: the Stribeck effect.
        let slowest = r.rows[4][1];
        let fastest = r.rows[0][1];
        assert!(slowest > fastest + 0.4, "{key}: {slowest} vs {fastest}");
    }
}

fn lag_params() -> FrictionRigParams {
    match builtin::load("rig_frictional_lag_lugre")
        .unwrap()
        .unwrap()
        .system
    {
        SystemConfig::FrictionRig(p) => p,
        other => panic!("{other:?}"),
    }
}

/// The frictional-lag test: LuGre's loop at the mean speed widens with frequency (0.1, 1,
/// 10 Hz: more than tenfold over two decades), a law without a state draws no loop at all.
#[test]
fn lag_loops_widen_with_frequency_for_lugre_and_vanish_without_a_state() {
    let p = builtin::load("rig_frictional_lag_lugre").unwrap().unwrap();
    let r = read(&p);
    assert_eq!(r.rows.len(), 3);
    let widths: Vec<f64> = r.rows.iter().map(|row| row[1]).collect();
    assert!(
        widths.windows(2).all(|w| w[1] > w[0]) && widths[0] > 1e-3 && widths[2] > 10.0 * widths[0],
        "{widths:?}"
    );
    // Friction is higher while the speed rises (it lags behind it).
    assert!(widths.iter().all(|&w| w > 0.0));

    let tustin = (tribolab::laws::find_law("tustin").unwrap().default_config)();
    let q = rig(
        lag_params(),
        tustin,
        p.run.duration_s,
        p.run.output_interval_s,
    );
    let r = read(&q);
    assert_eq!(r.rows.len(), 3);
    for row in &r.rows {
        assert!(row[1].abs() < 1e-9, "Tustin loop width {}", row[1]);
    }
    assert!(
        r.findings.iter().any(|f| f.starts_with("No loop")),
        "{:?}",
        r.findings
    );
}

/// Maxwell-slip under nested reversals: every inner loop closes at its reversal point and the
/// branch down from the top reversal is the Masing curve `R_r − 2·R_v((x_r − x)/2)` of a
/// fresh contact's virgin curve, both to round-off and interpolation (1e-7 of the force range).
#[test]
fn maxwell_slip_loops_close_and_follow_the_masing_rule() {
    let p = builtin::load("rig_presliding_maxwell_slip")
        .unwrap()
        .unwrap();
    let r = read(&p);
    // Two inner loops per cycle, three cycles.
    assert_eq!(r.rows.len(), 6, "{} loops", r.rows.len());
    let mismatch = figure(&r, "return_mismatch_share");
    let masing = figure(&r, "masing_departure_share");
    assert!(mismatch < 1e-7, "return mismatch {mismatch}");
    assert!(masing < 1e-7, "Masing departure {masing}");
}

/// Dahl under the same motion: loops do not close (local memory only, more than 5 % of the
/// force range), the Masing rule fails, and every branch between reversals is Dahl's closed
/// form: with `s = sgn v`, `(R − s·F_C)·exp(s·σ·x/F_C)` is constant along it (α = 1).
#[test]
fn dahl_loops_do_not_close_and_each_branch_is_its_closed_form() {
    let p = builtin::load("rig_presliding_dahl").unwrap().unwrap();
    let r = read(&p);
    assert!(figure(&r, "return_mismatch_share") > 0.05);
    assert!(figure(&r, "masing_departure_share") > 0.02);

    let (sigma, f_c) = match &p.law {
        LawConfig::Dahl(d) => (d.sigma_n_per_m, d.f_c_n),
        other => panic!("{other:?}"),
    };
    let mut sim = p.build_runner().unwrap();
    let cols = sim.columns();
    let (ix, iv, if_) = (
        find_role(&cols, Role::Position(0)).unwrap(),
        find_role(&cols, Role::SlipVelocity(0)).unwrap(),
        find_role(&cols, Role::FrictionForce(0)).unwrap(),
    );
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(p.run.duration_s, &mut rows).unwrap();
    let mut branch: Vec<f64> = Vec::new();
    let mut worst = 0.0f64;
    let mut branches = 0;
    for w in rows.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if a[iv] * b[iv] <= 0.0 {
            // A reversal between the rows: the branch ends.
            if branch.len() > 10 {
                let k0 = branch[branch.len() / 2];
                worst = branch
                    .iter()
                    .fold(worst, |m, k| m.max(((k - k0) / k0).abs()));
                branches += 1;
            }
            branch.clear();
            continue;
        }
        let s = b[iv].signum();
        let resisting = -b[if_];
        branch.push((resisting - s * f_c) * (s * sigma * b[ix] / f_c).exp());
    }
    assert!(branches >= 10, "{branches} branches");
    assert!(worst < 1e-6, "Dahl invariant varies by {worst}");
}

/// LuGre (1995 parameters, 1 kg) pushed by ramps from 0.1 to 32 N/s: the break-away force
/// falls steadily with the force rate, from nearly F_S = 1.5 N towards F_C = 1 N (the 1995
/// paper's figure of break-away force against force rate).
#[test]
fn lugre_break_away_force_falls_with_the_force_rate() {
    let p = builtin::load("rig_break_away_lugre").unwrap().unwrap();
    let r = read(&p);
    assert_eq!(r.rows.len(), 6, "{:?}", r.rows);
    let forces: Vec<f64> = r.rows.iter().map(|row| row[1]).collect();
    assert!(forces.windows(2).all(|w| w[1] < w[0]), "{forces:?}");
    assert!((forces[0] - 1.5).abs() < 0.02, "{forces:?}");
    assert!(forces.iter().all(|&f| f > 1.0 && f <= 1.5), "{forces:?}");
    assert!(forces[5] < 1.1, "{forces:?}");
}

/// A set-valued law holds exactly until the applied force reaches its static level μ_S·N and
/// slides at once: the break-away force is μ_S·N at every rate (10 N load, μ_S = 0.4).
#[test]
fn a_set_valued_law_breaks_away_at_its_static_level_at_every_rate() {
    let law = (tribolab::laws::find_law("static_kinetic")
        .unwrap()
        .default_config)();
    let params = FrictionRigParams {
        normal_load_n: 10.0,
        mass_kg: 0.5,
        force_rate_n_per_s: 1.0,
        rate_growth: 10.0,
        ramps: 4.0,
        stop_slip_m: 1e-4,
        test: RigTest::BreakAway,
        ..FrictionRigParams::default()
    };
    // Each ramp takes 4/rate s to reach μ_S·N = 4 N, then slides 0.1 mm quickly.
    let p = rig(params, law, 4.0 + 0.4 + 0.04 + 0.004 + 1.0, 1e-4);
    let r = read(&p);
    assert_eq!(r.rows.len(), 4, "{:?}", r.rows);
    for row in &r.rows {
        assert!((row[1] - 4.0).abs() < 1e-9, "rate {}: {}", row[0], row[1]);
    }
}

/// The break-away rig's energy account: ½mẋ² = W_in + W_f (the rig's hand taking the kinetic
/// energy out at each stop), to 1e-9 J over six ramps of LuGre.
#[test]
fn the_break_away_rig_keeps_its_energy_account() {
    let p = builtin::load("rig_break_away_lugre").unwrap().unwrap();
    let mut sim = p.build_runner().unwrap();
    let cols = sim.columns();
    let ie = find_role(&cols, Role::EnergyError).unwrap();
    let iw = find_role(&cols, Role::FrictionWork(Some(0))).unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(p.run.duration_s, &mut rows).unwrap();
    let worst = rows.iter().map(|r| r[ie].abs()).fold(0.0, f64::max);
    let dissipated = -rows.last().unwrap()[iw];
    assert!(dissipated > 1e-4, "friction work {dissipated} J");
    assert!(worst < 1e-9, "energy error {worst} J");
}

/// The reference curve is the preset's law written out: Tustin's
/// `μ(v) = μ_C + (μ_S − μ_C)·e^(−|v|/v_S)` at 10 N, for its default and for a changed v_S.
#[test]
fn the_reference_curve_is_the_law_s_own() {
    for v_s in ["0.01", "0.001"] {
        let mut p = rig(
            stribeck(1e-4, 1e-2, 3.0, 1.0),
            (tribolab::laws::find_law("tustin").unwrap().default_config)(),
            7.0,
            0.05,
        );
        p.set_path("law.v_s", v_s).unwrap();
        let v_s: f64 = v_s.parse().unwrap();
        let r = read(&p);
        let curve = &r.series[0].points;
        assert!(curve.len() > 100);
        for pt in curve {
            let mu = 0.3 + 0.1 * (-pt[0] / v_s).exp();
            assert!((pt[1] - 10.0 * mu).abs() < 1e-12, "{pt:?} vs {}", 10.0 * mu);
        }
    }
}

/// S4's dry test on the rig (0.2 µm/s, 60 µm): the coefficient peaks at 0.551 after 2.2 µm
/// and falls to 0.402 — the values the stiff-spring bench preset of the same test gives (its
/// load cell adds 0.55 µm of compliance, so the peaks agree to 2e-3 and 0.1 µm).
#[test]
fn s4_dry_test_on_the_rig_peaks_and_softens_as_on_the_bench() {
    let p = builtin::load("rig_subloading_dry").unwrap().unwrap();
    let r = read(&p);
    assert_eq!(r.rows.len(), 1);
    let (peak, at, end, distance) = (r.rows[0][1], r.rows[0][2], r.rows[0][3], r.rows[0][4]);
    assert!((peak - 0.551).abs() < 2e-3, "peak {peak}");
    assert!((at - 2.2e-6).abs() < 0.2e-6, "peak at {at}");
    assert!((end - 0.402).abs() < 1e-3, "end {end}");
    assert!((distance - 6e-5).abs() < 1e-9, "{distance}");
}

/// S4's lubricated test at its five speeds, each on a fresh contact: every slide starts from
/// zero force at zero distance, and after 30 mm the coefficient is 0.104, 0.097, 0.094,
/// 0.091, 0.092 from the fastest to the slowest (rate-strengthening down to 10 mm/min).
#[test]
fn s4_lubricated_test_at_five_speeds_renews_the_contact_each_time() {
    let p = builtin::load("rig_subloading_fluid").unwrap().unwrap();
    let r = read(&p);
    assert_eq!(r.rows.len(), 5);
    let finals: Vec<f64> = r.rows.iter().map(|row| row[3]).collect();
    for (got, want) in finals.iter().zip([0.104, 0.097, 0.094, 0.091, 0.092]) {
        assert!((got - want).abs() < 1e-3, "{finals:?}");
    }
    // Each slide's record starts on a fresh contact: within one output interval of x = 0,
    // far below its peak.
    for (s, row) in r.series.iter().zip(&r.rows) {
        let first = s.points[0];
        let step = row[0] * p.run.output_interval_s;
        assert!(first[0] <= 1.0001 * step, "{}: {first:?}", s.name);
        assert!(first[1] < 0.5 * row[1], "{}: {first:?}", s.name);
    }
    // The faster, the higher the peak.
    let peaks: Vec<f64> = r.rows.iter().map(|row| row[1]).collect();
    assert!(peaks.windows(2).all(|w| w[0] > w[1]), "{peaks:?}");
}

/// The dwell-time test on the spring–slider (its load point stops): the seven-parameter
/// model's break-away peak grows with the hold time over two decades (0.1–10 s) and levels
/// off as F_S(γ, t_d) = F_S,a + (F_S,∞ − F_S,a)·t_d/(t_d + γ) saturates (γ = 1 s): the rise
/// from the shortest to the longest hold stays below F_S,∞/N and the last half decade adds
/// less than the one before.
#[test]
fn dwell_time_peaks_grow_with_the_hold_and_saturate() {
    use tribolab::analysis::load_point::load_point_tests;
    let p = builtin::load("dwell_time_armstrong").unwrap().unwrap();
    let mut sim = p.build_runner().unwrap();
    let cols = sim.columns();
    let idx = |r| find_role(&cols, r).unwrap();
    let (it, iv, i_f, i_n) = (
        idx(Role::Time),
        idx(Role::DriverVelocity),
        idx(Role::FrictionForce(0)),
        idx(Role::NormalLoad(0)),
    );
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(p.run.duration_s, &mut rows).unwrap();
    let col = |i: usize| rows.iter().map(|r| r[i]).collect::<Vec<f64>>();
    let tests = load_point_tests(&col(it), &col(iv), &col(i_f), &col(i_n));
    let holds: Vec<_> = tests.holds.iter().filter(|h| h.complete).collect();
    assert_eq!(holds.len(), 5);
    let healing: Vec<f64> = holds.iter().map(|h| h.healing()).collect();
    assert!(healing.windows(2).all(|w| w[1] > w[0]), "{healing:?}");
    let (f_s_inf, n) = (0.981, 10.0);
    let rise = healing[4] - healing[0];
    assert!(
        rise > 0.5 * f_s_inf / n && rise < f_s_inf / n,
        "rise {rise}"
    );
    assert!(
        healing[4] - healing[3] < healing[3] - healing[2],
        "{healing:?}"
    );
}
