//! Friction identification (MODELS §4.10): laws and the bench fitted to synthetic noisy
//! measurements with known parameters. The truth must lie inside the reported 95 % intervals
//! (and, over many seeds, in about 95 % of them); a parameter the data cannot fix must be
//! reported as such; bounds must hold.

use std::sync::Arc;

use tribolab::identify::{
    FitResult, ForceData, LawFit, LawFitOptions, LmControl, LmSettings, TrajectoryData,
    TrajectoryFit, fit, force_data::VelocitySource,
};
use tribolab::integrate::Role;
use tribolab::laws::{FrictionLaw, LawConfig, SignModel};
use tribolab::rig::{Recording, force_along};
use tribolab::util::rng::SplitMix64;

/// A Tustin law with a smooth sign (so every sample, stick or slip, has one force).
fn tustin(mu_s: f64, mu_c: f64, v_s: f64, viscous: f64) -> LawConfig {
    let mut c = LawConfig::Tustin(Default::default());
    let p = c.params_mut();
    p.set("mu_s", mu_s).expect("in range");
    p.set("mu_c", mu_c).expect("in range");
    p.set("v_s", v_s).expect("in range");
    p.set("viscous", viscous).expect("in range");
    assert!(c.set_sign_model(SignModel::Tanh(1e-4)));
    c
}

/// Speeds from 0.1 mm/s to `10^top_exponent` m/s, log-spaced in each direction.
fn stribeck_samples(n_per_sign: usize, top_exponent: f64) -> (Vec<f64>, Vec<f64>) {
    let mut v = Vec::new();
    for sign in [-1.0, 1.0] {
        for i in 0..n_per_sign {
            let e = -4.0 + (top_exponent + 4.0) * i as f64 / (n_per_sign - 1) as f64;
            v.push(sign * 10f64.powf(e));
        }
    }
    v.sort_by(f64::total_cmp);
    let t = (0..v.len()).map(|i| i as f64 * 0.01).collect();
    (t, v)
}

fn noisy(truth: &[f64], sigma: f64, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    truth.iter().map(|f| f + sigma * rng.normal()).collect()
}

fn run(
    problem: &dyn tribolab::identify::FitProblem,
    params: &[tribolab::identify::FreeParam],
) -> FitResult {
    fit(
        problem,
        params,
        &[],
        LmSettings::default(),
        LmControl::default(),
    )
    .expect("fit runs")
}

fn inside(result: &FitResult, truth: &[f64]) -> Vec<bool> {
    result
        .statistics
        .estimates
        .iter()
        .zip(truth)
        .map(|(e, &t)| e.interval.is_some_and(|(a, b)| a <= t && t <= b))
        .collect()
}

/// Static law, algebraic fit: over 200 noise seeds each true value lies inside its 95 %
/// interval 90–99 % of the time (binomial 1σ = 1.5 %), and the reported standard errors
/// match the spread of the estimates within 20 %.
#[test]
fn a_static_law_is_recovered_with_intervals_that_cover_the_truth() {
    let truth = [0.45, 0.3, 5e-3, 0.5];
    let law = tustin(truth[0], truth[1], truth[2], truth[3]).build();
    let (t, v) = stribeck_samples(40, -1.0);
    let load = vec![10.0; v.len()];
    let clean: Vec<f64> = v.iter().map(|&v| law.steady_force(v, 10.0, 1.0)).collect();
    let seeds = 200;
    let mut covered = [0usize; 4];
    let mut estimates: Vec<[f64; 4]> = Vec::new();
    let mut errors = [0.0; 4];
    for seed in 0..seeds {
        let data = ForceData {
            name: format!("seed {seed}"),
            t_s: t.clone(),
            v_mps: v.clone(),
            load_n: load.clone(),
            force_n: noisy(&clean, 0.02, seed),
            sigma_n: None,
            velocity: VelocitySource::Recorded,
        };
        let problem = LawFit::new(
            tustin(0.4, 0.25, 1e-2, 0.2),
            &["mu_s", "mu_c", "v_s", "viscous"],
            vec![data],
            LawFitOptions::default(),
        )
        .expect("valid fit");
        assert!(problem.is_algebraic());
        let result = run(&problem, &problem.free_params());
        assert!(result.converged(), "seed {seed}: {:?}", result.stages);
        for (c, ok) in covered.iter_mut().zip(inside(&result, &truth)) {
            *c += usize::from(ok);
        }
        let e = &result.statistics.estimates;
        assert!(e.iter().all(|e| e.is_determined()), "seed {seed}: {e:?}");
        estimates.push([e[0].value, e[1].value, e[2].value, e[3].value]);
        for (acc, e) in errors.iter_mut().zip(e) {
            *acc += e.std_error.expect("determined") / seeds as f64;
        }
    }
    for k in 0..4 {
        let share = covered[k] as f64 / seeds as f64;
        assert!(
            (0.90..=0.99).contains(&share),
            "parameter {k}: coverage {share}"
        );
        let mean = estimates.iter().map(|e| e[k]).sum::<f64>() / seeds as f64;
        let spread = (estimates.iter().map(|e| (e[k] - mean).powi(2)).sum::<f64>()
            / (seeds - 1) as f64)
            .sqrt();
        let ratio = errors[k] / spread;
        assert!(
            (0.8..1.25).contains(&ratio),
            "parameter {k}: mean reported SE {} vs spread {spread}",
            errors[k]
        );
    }
}

/// A sinusoidal velocity with reversals, 1 Hz, ±20 mm/s, 2 s at 500 Hz, constant 1 N.
fn reversal_record(amplitude: f64, mean: f64, seconds: f64, rate: f64) -> Arc<Recording> {
    let n = (seconds * rate) as usize + 1;
    let t: Vec<f64> = (0..n).map(|i| i as f64 / rate).collect();
    let v = t
        .iter()
        .map(|t| mean + amplitude * (std::f64::consts::TAU * t).sin())
        .collect();
    Arc::new(Recording {
        load_n: vec![1.0; n],
        t_s: t,
        v_mps: v,
    })
}

fn lugre(keys: &[(&str, f64)]) -> LawConfig {
    let mut c = LawConfig::LuGre(Default::default());
    for (k, v) in keys {
        c.params_mut().set(k, *v).expect("in range");
    }
    c
}

fn force_data(rec: &Arc<Recording>, force: Vec<f64>) -> ForceData {
    ForceData {
        name: "synthetic".into(),
        t_s: rec.t_s.clone(),
        v_mps: rec.v_mps.clone(),
        load_n: rec.load_n.clone(),
        force_n: force,
        sigma_n: None,
        velocity: VelocitySource::Recorded,
    }
}

/// LuGre simulated along a velocity with reversals: the Stribeck parameters, the viscous
/// term and the bristle stiffness come back inside their intervals, and the fit's residual
/// RMS equals the noise (10 mN) within 10 %.
#[test]
fn lugre_is_recovered_from_a_record_with_reversals() {
    let truth = [
        ("f_c", 1.0),
        ("f_s", 1.5),
        ("v_s", 1e-3),
        ("sigma2", 0.4),
        ("sigma0", 1e5),
    ];
    let rec = reversal_record(0.02, 0.0, 2.0, 500.0);
    let clean = force_along(lugre(&truth).build(), rec.clone(), 1.0, 1e-10).expect("runs");
    let data = force_data(&rec, noisy(&clean, 0.01, 7));
    let keys: Vec<&str> = truth.iter().map(|(k, _)| *k).collect();
    let start = lugre(&[
        ("f_c", 0.8),
        ("f_s", 1.2),
        ("v_s", 2e-3),
        ("sigma2", 0.2),
        ("sigma0", 3e4),
    ]);
    let problem = LawFit::new(start, &keys, vec![data], LawFitOptions::default()).expect("valid");
    assert!(!problem.is_algebraic());
    let result = run(&problem, &problem.free_params());
    assert!(result.converged(), "{:?}", result.stages);
    let values: Vec<f64> = truth.iter().map(|(_, v)| *v).collect();
    let ok = inside(&result, &values);
    assert!(ok.iter().all(|&b| b), "{:#?}", result.statistics.estimates);
    assert!((result.rms / 0.01 - 1.0).abs() < 0.1, "RMS {}", result.rms);
}

/// σ₁ acts only while the bristles move; a slow, smooth record barely moves them. The fit must
/// say so instead of printing a number: σ₁ is *not determined*, the dry levels are.
#[test]
fn lugre_damping_from_slow_data_is_reported_not_determined() {
    let rec = {
        let n = 1001;
        let t: Vec<f64> = (0..n).map(|i| i as f64 * 0.01).collect();
        let v = t
            .iter()
            .map(|t| 0.01 + 0.005 * (std::f64::consts::TAU * 0.05 * t).sin())
            .collect();
        Arc::new(Recording {
            load_n: vec![1.0; n],
            t_s: t,
            v_mps: v,
        })
    };
    let truth = [("f_c", 1.0), ("f_s", 1.5), ("sigma1", 316.0)];
    let clean = force_along(lugre(&truth).build(), rec.clone(), 1.0, 1e-10).expect("runs");
    let data = force_data(&rec, noisy(&clean, 0.01, 3));
    let start = lugre(&[("f_c", 0.9), ("f_s", 1.3), ("sigma1", 100.0)]);
    let problem = LawFit::new(
        start,
        &["f_c", "sigma1"],
        vec![data],
        LawFitOptions::default(),
    )
    .expect("ok");
    let result = run(&problem, &problem.free_params());
    let e = &result.statistics.estimates;
    assert!(e[0].is_determined(), "{:?}", e[0]);
    assert!((e[0].value - 1.0).abs() < 0.01, "{:?}", e[0]);
    assert!(!e[1].is_determined(), "{:?}", e[1]);
    assert!(e[1].std_error.is_none() && e[1].interval.is_none());
    let text = tribolab::identify::report::text("LuGre", &result, "N");
    assert!(text.contains("not determined"), "{text}");
}

/// Bounds hold: with μ_C's range cut to [0, 0.25] below the truth 0.3, the fit ends on the
/// bound, inside the range, and says so.
#[test]
fn a_fit_whose_optimum_lies_beyond_a_bound_stops_on_it_and_says_so() {
    let law = tustin(0.45, 0.3, 5e-3, 0.5).build();
    let (t, v) = stribeck_samples(30, -1.0);
    let clean: Vec<f64> = v.iter().map(|&v| law.steady_force(v, 10.0, 1.0)).collect();
    let data = ForceData {
        name: "bounded".into(),
        t_s: t,
        load_n: vec![10.0; v.len()],
        v_mps: v,
        force_n: noisy(&clean, 0.01, 11),
        sigma_n: None,
        velocity: VelocitySource::Recorded,
    };
    let problem = LawFit::new(
        tustin(0.4, 0.2, 1e-2, 0.5),
        &["mu_s", "mu_c"],
        vec![data],
        LawFitOptions::default(),
    )
    .expect("valid");
    let mut params = problem.free_params();
    params[1] = params[1].clone().with_bounds(0.0, 0.25);
    let result = run(&problem, &params);
    let mu_c = &result.statistics.estimates[1];
    assert!(mu_c.value <= 0.25 && mu_c.value > 0.249, "{mu_c:?}");
    assert!(
        mu_c.flags
            .iter()
            .any(|f| matches!(f, tribolab::identify::Flag::AtBound { upper: true })),
        "{mu_c:?}"
    );
}

/// The bench of the closed-form preset, damped: μ_S, μ_K and the damping come back from a
/// noisy recording of the block's displacement (2 s, 200 Hz, σ = 20 µm), from starts 10–40 %
/// off, inside their intervals.
#[test]
fn the_bench_is_recovered_from_a_noisy_displacement_record() {
    let mut truth_preset = tribolab::preset::builtin::load("coulomb_stick_slip_undamped")
        .expect("built in")
        .expect("valid");
    truth_preset
        .set_path("system.damping", "0.5")
        .expect("valid");
    truth_preset.run.duration_s = 2.0;
    let keys = ["law.mu_s", "law.mu_k", "system.damping"];
    let truth = [0.4, 0.3, 0.5];
    let t: Vec<f64> = (0..=400).map(|i| i as f64 * 0.005).collect();
    let mut start = truth_preset.clone();
    start.set_path("law.mu_s", "0.36").expect("valid");
    start.set_path("law.mu_k", "0.33").expect("valid");
    start.set_path("system.damping", "0.3").expect("valid");
    let record = |values: Vec<f64>| TrajectoryData {
        name: "bench".into(),
        t_s: t.clone(),
        values,
        sigma: None,
        observed: Role::Position(0),
    };
    let reference =
        TrajectoryFit::new(truth_preset, &keys, vec![record(vec![0.0; t.len()])]).expect("valid");
    let clean = reference.predicted(&truth).expect("runs").remove(0);
    let problem =
        TrajectoryFit::new(start, &keys, vec![record(noisy(&clean, 2e-5, 5))]).expect("valid");
    let result = run(&problem, &problem.free_params());
    assert!(result.converged(), "{:?}", result.stages);
    let ok = inside(&result, &truth);
    assert!(ok.iter().all(|&b| b), "{:#?}", result.statistics.estimates);
    assert!((result.rms / 2e-5 - 1.0).abs() < 0.15, "RMS {}", result.rms);
}

/// Free parameters and truth for every law of the registry (a new law must be added here).
/// Truths are the defaults; starts are 15 % low (linear) or a factor 1.5 off (logarithmic).
const EVERY_LAW: [(&str, &[&str]); 17] = [
    ("coulomb", &["mu_c", "viscous"]),
    ("static_kinetic", &["mu_k", "viscous"]),
    ("stribeck_s1", &["mu_s", "delta", "mu_c"]),
    ("tustin", &["mu_s", "mu_c", "v_s"]),
    ("bo_pavelescu", &["mu_s", "mu_c", "v_s", "shape"]),
    ("gaussian", &["mu_s", "mu_c", "v_s"]),
    ("lorentzian", &["mu_s", "mu_c", "v_s"]),
    ("popp_stelter", &["mu_s", "mu_c", "eta1", "eta2"]),
    ("lugre", &["f_c", "f_s", "v_s", "sigma0"]),
    ("armstrong", &["f_c", "f_s", "f_v"]),
    ("powell_wiercigroch", &["mu_s", "mu_c", "alpha"]),
    ("stefanski", &["mu_s", "mu_c", "a1"]),
    ("subloading", &["mu_s", "mu_k"]),
    ("dahl", &["sigma", "f_c"]),
    ("maxwell_slip", &["f_c", "d_max"]),
    ("gms", &["f_c", "f_s", "v_s"]),
    ("rate_state", &["mu0", "a", "b"]),
];

/// Every law, fitted to its own output with 1 % noise: a Stribeck sweep of both signs for
/// the laws without states, a sinusoidal slide with reversals (±20 mm/s, 1 Hz, 2 s at 500 Hz)
/// for the others. Each truth lies inside its 95 % interval and is reported determined.
#[test]
fn every_law_is_recovered_from_its_own_noisy_output() {
    use tribolab::laws::{FrictionLaw as _, LAWS};
    for info in LAWS {
        let (_, keys) = EVERY_LAW
            .iter()
            .find(|(k, _)| *k == info.key)
            .unwrap_or_else(|| panic!("law {} has no line in EVERY_LAW", info.key));
        let mut truth_config = (info.default_config)();
        truth_config.set_sign_model(SignModel::Tanh(1e-4));
        let law = truth_config.build();
        let (rec, clean) = if law.n_states() == 0 {
            // Up to 1 m/s, where Popp–Stelter's rising term shows.
            let (t, v) = stribeck_samples(40, 0.0);
            let n = t.len();
            let rec = Arc::new(Recording {
                t_s: t,
                v_mps: v,
                load_n: vec![10.0; n],
            });
            let f = rec
                .v_mps
                .iter()
                .map(|&v| law.steady_force(v, 10.0, 1.0))
                .collect();
            (rec, f)
        } else {
            let rec = reversal_record(0.02, 0.0, 2.0, 500.0);
            let f = force_along(law, rec.clone(), 1.0, 1e-10)
                .unwrap_or_else(|e| panic!("{}: {e}", info.key));
            (rec, f)
        };
        let scale = clean.iter().fold(0.0f64, |m, f| m.max(f.abs()));
        let data = force_data(&rec, noisy(&clean, 0.01 * scale, 17));
        let truth: Vec<f64> = keys
            .iter()
            .map(|k| truth_config.params().get(k).expect("key"))
            .collect();
        let mut start = truth_config.clone();
        for (k, v) in keys.iter().zip(&truth) {
            let meta = info.meta.iter().find(|m| m.key == *k).expect("meta");
            let s = if meta.scale == tribolab::params::Scale::Log {
                v * 1.5
            } else if *v == 0.0 {
                0.1 * meta.max
            } else {
                v * 0.85
            };
            start.params_mut().set(k, s).expect("start in range");
        }
        let problem = LawFit::new(start, keys, vec![data], LawFitOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", info.key));
        let result = run(&problem, &problem.free_params());
        let text = tribolab::identify::report::text(info.key, &result, "N");
        assert!(result.converged(), "{text}");
        let ok = inside(&result, &truth);
        assert!(
            ok.iter().all(|&b| b),
            "{}: truth {truth:?}\n{text}",
            info.key
        );
    }
}

/// Two records (slow and fast reversals) fitted together, in two stages (the Stribeck curve
/// first, then the bristle stiffness with everything free): the truth lies inside the joint
/// intervals, which are narrower than those of either record alone for F_C.
#[test]
fn two_records_fitted_together_in_stages() {
    let truth = [("f_c", 1.0), ("f_s", 1.5), ("v_s", 1e-3), ("sigma0", 1e5)];
    let keys: Vec<&str> = truth.iter().map(|(k, _)| *k).collect();
    let values: Vec<f64> = truth.iter().map(|(_, v)| *v).collect();
    let records = [
        reversal_record(0.004, 0.0, 2.0, 500.0),
        reversal_record(0.03, 0.0, 2.0, 500.0),
    ];
    let data: Vec<ForceData> = records
        .iter()
        .enumerate()
        .map(|(i, rec)| {
            let clean = force_along(lugre(&truth).build(), rec.clone(), 1.0, 1e-10).expect("runs");
            force_data(rec, noisy(&clean, 0.01, 100 + i as u64))
        })
        .collect();
    let start = lugre(&[("f_c", 0.8), ("f_s", 1.2), ("v_s", 2e-3), ("sigma0", 3e4)]);
    let joint =
        LawFit::new(start.clone(), &keys, data.clone(), LawFitOptions::default()).expect("valid");
    let params = joint.free_params();
    let result = fit(
        &joint,
        &params,
        &[vec![0, 1, 2], vec![0, 1, 2, 3]],
        LmSettings::default(),
        LmControl::default(),
    )
    .expect("fit runs");
    assert_eq!(result.stages.len(), 2);
    assert!(result.converged(), "{:?}", result.stages);
    assert!(
        inside(&result, &values).iter().all(|&b| b),
        "{:#?}",
        result.statistics.estimates
    );
    let width = |r: &FitResult| {
        let (a, b) = r.statistics.estimates[0].interval.expect("determined");
        b - a
    };
    for single in data {
        let alone = LawFit::new(start.clone(), &keys, vec![single], LawFitOptions::default())
            .expect("valid");
        let r = run(&alone, &alone.free_params());
        assert!(
            width(&result) < width(&r),
            "joint {} vs alone {}",
            width(&result),
            width(&r)
        );
    }
}

/// Sliding data cannot tell a static coefficient: with a smooth sign the static/kinetic law's
/// force in slip is μ_K·N whatever μ_S is, and the fit must say so.
#[test]
fn a_static_coefficient_from_sliding_data_is_not_determined() {
    let mut truth = LawConfig::StaticKinetic(Default::default());
    truth.set_sign_model(SignModel::Tanh(1e-4));
    let law = truth.build();
    let (t, v) = stribeck_samples(20, -1.0);
    let clean: Vec<f64> = v.iter().map(|&v| law.steady_force(v, 10.0, 1.0)).collect();
    let data = ForceData {
        name: "sliding".into(),
        t_s: t,
        load_n: vec![10.0; v.len()],
        v_mps: v,
        force_n: noisy(&clean, 0.01, 1),
        sigma_n: None,
        velocity: VelocitySource::Recorded,
    };
    let problem = LawFit::new(
        truth,
        &["mu_s", "mu_k"],
        vec![data],
        LawFitOptions::default(),
    )
    .expect("ok");
    let result = run(&problem, &problem.free_params());
    let e = &result.statistics.estimates;
    assert!(
        !e[0].is_determined() && e[0].std_error.is_none(),
        "{:?}",
        e[0]
    );
    assert!(
        e[1].is_determined() && (e[1].value - 0.3).abs() < 1e-3,
        "{:?}",
        e[1]
    );
    assert_eq!(tribolab::identify::kept_values(&result)[0], 0.4);
}

/// No spare data, no errors: as many samples as free parameters is refused, not reported with
/// intervals of zero width.
#[test]
fn a_fit_without_spare_data_is_refused() {
    let law = tustin(0.45, 0.3, 5e-3, 0.5).build();
    let v = vec![0.01, 0.05];
    let clean: Vec<f64> = v.iter().map(|&v| law.steady_force(v, 10.0, 1.0)).collect();
    let data = ForceData {
        name: "two samples".into(),
        t_s: vec![0.0, 1.0],
        load_n: vec![10.0; 2],
        v_mps: v,
        force_n: clean,
        sigma_n: None,
        velocity: VelocitySource::Recorded,
    };
    let problem = LawFit::new(
        tustin(0.4, 0.25, 5e-3, 0.5),
        &["mu_s", "mu_c"],
        vec![data],
        LawFitOptions::default(),
    )
    .expect("valid");
    let err = fit(
        &problem,
        &problem.free_params(),
        &[],
        LmSettings::default(),
        LmControl::default(),
    )
    .expect_err("refused");
    assert!(
        err.to_string().contains("2 residuals cannot determine 2"),
        "{err}"
    );
}

/// A linear parameter started a billion times below its value: the difference step follows
/// the value (`h·max(|z|, 1)` in `z = p/|p₀|`), so the fit still finds and determines it.
#[test]
fn a_parameter_started_far_below_its_value_is_still_determined() {
    let law = tustin(0.45, 0.3, 5e-3, 0.5).build();
    let (t, v) = stribeck_samples(30, -1.0);
    let clean: Vec<f64> = v.iter().map(|&v| law.steady_force(v, 10.0, 1.0)).collect();
    let data = ForceData {
        name: "viscous".into(),
        t_s: t,
        load_n: vec![10.0; v.len()],
        v_mps: v,
        force_n: noisy(&clean, 0.01, 21),
        sigma_n: None,
        velocity: VelocitySource::Recorded,
    };
    let problem = LawFit::new(
        tustin(0.45, 0.3, 5e-3, 5e-10),
        &["mu_c", "viscous"],
        vec![data],
        LawFitOptions::default(),
    )
    .expect("valid");
    let result = run(&problem, &problem.free_params());
    let c = &result.statistics.estimates[1];
    assert!(c.is_determined(), "{c:?}");
    assert!(
        inside(&result, &[0.3, 0.5]).iter().all(|&b| b),
        "{:?}",
        result.statistics.estimates
    );
}
