//! Each static law's μ(v) against its formula written out independently here (MODELS §2.1–2.4),
//! through the public characteristic `steady_force` and through a run at constant sliding
//! velocity on the prescribed-motion rig.

#![allow(clippy::unwrap_used)]

use tribolab::laws::{FrictionLaw, LAWS, LawConfig, SignModel};
use tribolab::rig::{Motion, run_prescribed};

/// μ(|v|) written from MODELS.md for the parameters set below.
fn expected_mu(variant: &str, v: f64) -> f64 {
    let (mu_s, mu_c, v_s): (f64, f64, f64) = (0.45, 0.25, 0.02);
    match variant {
        "Coulomb" => mu_c,
        "StaticKinetic" => mu_c,
        "StribeckS1" => 0.05 + (mu_s - 0.05) / (1.0 + 7.0 * v),
        "Tustin" => mu_c + (mu_s - mu_c) * (-v / v_s).exp(),
        "BoPavelescu" => mu_c + (mu_s - mu_c) * (-(v / v_s).powf(0.7)).exp(),
        "Gaussian" => mu_c + (mu_s - mu_c) * (-(v / v_s).powi(2)).exp(),
        "Lorentzian" => mu_c + (mu_s - mu_c) / (1.0 + (v / v_s).powi(2)),
        "PoppStelter" => mu_c + (mu_s - mu_c) / (1.0 + 30.0 * v) + 0.3 * v * v,
        _ => f64::NAN,
    }
}

fn configured(variant: &str) -> LawConfig {
    let info = LAWS.iter().find(|l| l.variant == variant).unwrap();
    let mut cfg = (info.default_config)();
    let p = cfg.params_mut();
    let set = |p: &mut dyn tribolab::params::ParamSet, k: &str, v: f64| {
        if p.get(k).is_some() {
            p.set(k, v).unwrap();
        }
    };
    set(p, "mu_s", 0.45);
    set(p, "mu_k", 0.25);
    set(p, "mu_c", if variant == "StribeckS1" { 0.05 } else { 0.25 });
    set(p, "v_s", 0.02);
    set(p, "delta", 7.0);
    set(p, "shape", 0.7);
    set(p, "eta1", 30.0);
    set(p, "eta2", 0.3);
    set(p, "viscous", 0.35);
    cfg
}

const STATIC: [&str; 8] = [
    "Coulomb",
    "StaticKinetic",
    "StribeckS1",
    "Tustin",
    "BoPavelescu",
    "Gaussian",
    "Lorentzian",
    "PoppStelter",
];

#[test]
fn characteristic_matches_each_formula() {
    let n = 7.5;
    for variant in STATIC {
        let law = configured(variant).build();
        for v in [-0.3f64, -0.01, -1e-4, 2e-5, 0.003, 0.02, 0.08, 0.5] {
            let f = law.steady_force(v, n, 1.0);
            let expected = -expected_mu(variant, v.abs()) * n * v.signum() - 0.35 * v;
            assert!(
                (f - expected).abs() <= 1e-12 * expected.abs().max(1.0),
                "{variant} at v = {v}: {f} vs {expected}"
            );
        }
        // Set-valued sign: sgn 0 = 0, no force at rest on the characteristic.
        assert_eq!(law.steady_force(0.0, n, 1.0), 0.0, "{variant}");
    }
}

#[test]
fn smoothed_sign_follows_tanh_and_arctan() {
    let n = 2.0;
    for (sign, smooth) in [
        (SignModel::Tanh(1e-3), (|x: f64| x.tanh()) as fn(f64) -> f64),
        (SignModel::Arctan(1e-3), |x: f64| {
            std::f64::consts::FRAC_2_PI * x.atan()
        }),
    ] {
        let mut cfg = configured("Gaussian");
        assert!(cfg.set_sign_model(sign));
        let law = cfg.build();
        for v in [-0.01f64, -5e-4, 1e-4, 2e-3] {
            let expected = -expected_mu("Gaussian", v.abs()) * n * smooth(v / 1e-3) - 0.35 * v;
            let f = law.steady_force(v, n, 1.0);
            assert!(
                (f - expected).abs() < 1e-12,
                "{sign:?} v = {v}: {f} vs {expected}"
            );
        }
    }
}

#[test]
fn constant_velocity_runs_give_the_formula() {
    // The rig imposes v_rel; in slip the set-valued laws give −μ(|v|)N·sgn v − c_v v exactly.
    for variant in STATIC {
        for v in [-0.04f64, 0.015] {
            let rows = run_prescribed(
                configured(variant).build(),
                Motion::ConstantVelocity { velocity_mps: v },
                3.0,
                0.01,
                1e-8,
                1e-3,
            )
            .unwrap();
            let f = rows.last().unwrap()[3];
            let expected = -expected_mu(variant, v.abs()) * 3.0 * v.signum() - 0.35 * v;
            assert!(
                (f - expected).abs() <= 1e-12 * expected.abs(),
                "{variant} v = {v}: {f} vs {expected}"
            );
        }
    }
}
