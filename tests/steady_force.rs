//! The characteristic a law reports (`steady_force`, drawn on the friction–velocity plot) is the
//! force it settles to when slid at constant speed, at its nominal load and at twice it: laws
//! written with coefficients scale with `N`, laws written with forces at the nominal load
//! (LuGre, Dahl, GMS, the seven-parameter model) with `N/N₀`.

#![allow(clippy::unwrap_used)]

use tribolab::integrate::driver::DriverSettings;
use tribolab::integrate::{Method, Simulation};
use tribolab::laws::{FrictionLaw, LAWS};
use tribolab::rig::{Motion, PrescribedMotion};

/// Friction force after sliding at `v` for `t_end` s with load `n` (nominal load 1 N), and
/// the law's characteristic there.
fn settled_force(key: &str, v: f64, n: f64, t_end: f64) -> (f64, f64) {
    let info = tribolab::laws::find_law(key).unwrap();
    let law = (info.default_config)().build();
    let expected = law.steady_force(v, n, n);
    let rig = PrescribedMotion::new(law, Motion::ConstantVelocity { velocity_mps: v }, n)
        .with_nominal_load(1.0);
    let y0 = rig.initial_state();
    let settings = DriverSettings {
        method: Method::Auto,
        rtol: 1e-10,
        rk4_dt_s: 1e-5,
        output_interval_s: t_end / 10.0,
    };
    let mut sim = Simulation::new(Box::new(rig), y0, 0.0, settings).unwrap();
    let mut rows: Vec<Vec<f64>> = Vec::new();
    sim.advance(t_end, &mut rows).unwrap();
    let last = rows.iter().rev().find(|r| r[r.len() - 1] == 0.0).unwrap();
    (last[3], expected)
}

/// Laws whose characteristic is the midline of a hysteresis: the friction-irreversibility
/// laws (Powell–Wiercigroch, Stefański–Wojewoda) take the upper branch while `|v|` grows and
/// the lower one while it falls; at constant speed `sgn(v·v̇) = 0` gives the midline `μ_C`,
/// while a slide started from rest stays on the upper branch, above it and below `μ_S·N`.
const HYSTERETIC: &[&str] = &["powell_wiercigroch", "stefanski"];

#[test]
fn every_law_settles_on_its_characteristic_at_any_load() {
    for info in LAWS {
        for n in [1.0, 2.0] {
            for v in [-0.03, 0.01] {
                let (f, expected) = settled_force(info.key, v, n, 30.0);
                eprintln!(
                    "{:>18} N = {n} v = {v:+}: settled {f:.9e}, characteristic {expected:.9e}",
                    info.key
                );
                assert!(f.is_finite() && expected.is_finite(), "{}", info.key);
                if HYSTERETIC.contains(&info.key) {
                    // Upper branch: above the midline, below the static level (μ_S ≤ 1 here).
                    assert!(
                        f.abs() > expected.abs() && f.abs() < n,
                        "{} N = {n} v = {v}: {f} against the midline {expected}",
                        info.key
                    );
                    assert_eq!(f.signum(), expected.signum());
                } else {
                    assert!(
                        (f - expected).abs() <= 1e-6 * expected.abs(),
                        "{} N = {n} v = {v}: settled {f}, characteristic {expected}",
                        info.key
                    );
                }
            }
        }
    }
}
