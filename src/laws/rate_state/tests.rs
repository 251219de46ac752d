//! Unit tests of the rate-and-state law: steady states, the regularised form at rest, the
//! analytic Jacobian, and the stick mode (threshold, healing, continuous break-away).
use super::*;

fn law(evolution: Evolution, form: RateStateForm, b2: f64) -> RateState {
    RateState::new(RateStateParams {
        evolution,
        form,
        b2,
        d_c2_m: 3e-5,
        eta_r_ns_per_m: 0.7,
        v_stick_mps: 0.0,
        ..RateStateParams::default()
    })
}

fn held(v_rel_mps: f64, f_hold_n: f64, normal_load_n: f64) -> Contact {
    Contact {
        f_hold_n,
        ..Contact::kinematic(0.0, v_rel_mps, normal_load_n)
    }
}

/// With a sticking speed, a contact at rest sticks while the holding force is within
/// `F_S = N·μ(v_s, θ)`, the law's own friction at `v_s` (the classic value, to round-off),
/// and slides against the holding force above it.
#[test]
fn sticks_below_its_static_level() {
    for evolution in [Evolution::Aging, Evolution::Slip] {
        let p = RateStateParams {
            evolution,
            ..RateStateParams::default()
        };
        let phi = 1.3;
        let n = 20.0;
        let f_s = n * (p.mu0 + p.a * (p.v_stick_mps / p.v0_mps).ln() + p.b * phi);
        let mut l = RateState::new(p.clone());
        let mut s = [phi];
        let got = l.static_force_n(&held(0.0, 0.0, n), &s);
        assert!((got - f_s).abs() < 1e-12 * f_s, "{got} vs {f_s}");
        assert_eq!(
            l.initialize(&held(0.0, 0.99 * f_s, n), &mut s),
            LawSwitch::Stick
        );
        assert_eq!(l.stuck(), Some(true));
        let mut ds = [0.0];
        // Stuck: the law returns what holds the contact; the state heals only by aging.
        assert_eq!(l.eval(&held(0.0, 0.99 * f_s, n), &s, &mut ds), 0.99 * f_s);
        let theta = l.theta_s(0, phi);
        match evolution {
            Evolution::Aging => assert!((ds[0] - 1.0 / theta).abs() < 1e-15 / theta),
            Evolution::Slip => assert_eq!(ds[0], 0.0),
        }
        let mut g = [0.0];
        l.events(&held(0.0, -0.5 * f_s, n), &s, &mut g);
        assert!((g[0] - 0.5 * f_s).abs() < 1e-12 * f_s);
        assert_eq!(
            l.initialize(&held(0.0, 1.01 * f_s, n), &mut s),
            LawSwitch::Continue
        );
        assert_eq!(l.mode(), StickMode::Slip(-1.0));
    }
}

/// Each e-fold of the state raises the static level by `N·b`; at rest the aging law makes
/// `θ̇ = 1`, so a contact held for `t` gains `N·b·ln((θ₀ + t)/θ₀)`.
#[test]
fn static_level_heals_by_b_per_e_fold() {
    let l = RateState::new(RateStateParams::default());
    let n = 7.0;
    let c = held(0.0, 0.0, n);
    let gain = l.static_force_n(&c, &[2.0]) - l.static_force_n(&c, &[1.0]);
    assert!((gain - n * l.params.b).abs() < 1e-12, "{gain}");
}

/// Break-away is continuous: at the instant `|F_hold| = F_S` the slip force at rest equals
/// the holding force, and its magnitude rises by `N·a` per e-fold of speed above `v_s`.
#[test]
fn break_away_is_continuous() {
    let mut l = RateState::new(RateStateParams::default());
    let n = 3.0;
    let mut s = [0.4];
    let f_s = l.static_force_n(&held(0.0, 0.0, n), &s);
    assert_eq!(
        l.initialize(&held(0.0, 0.5 * f_s, n), &mut s),
        LawSwitch::Stick
    );
    let at_threshold = held(0.0, f_s, n);
    assert_eq!(l.apply_event(0, &at_threshold, &mut s), LawSwitch::Continue);
    assert_eq!(l.mode(), StickMode::Slip(-1.0));
    let mut ds = [0.0];
    let f0 = l.eval(&held(0.0, f_s, n), &s, &mut ds);
    assert!((f0 - f_s).abs() < 1e-12 * f_s, "{f0} vs {f_s}");
    // Well above v_s, the direct effect: N·a per e-fold of speed over v_s.
    let v_s = l.params.v_stick_mps;
    let f_fast = l.eval(&held(-1e4 * v_s, f_s, n), &s, &mut ds);
    let expected = n * l.params.a * 1e4f64.ln();
    assert!(
        (f_fast - f0 - expected).abs() < 1e-6 * expected,
        "{f_fast} {f0}"
    );
}

/// In slip with a stick mode the analytic Jacobian matches central differences through
/// `v_rel = 0`, where the effective speed keeps the force smooth.
#[test]
fn slip_mode_jacobian_matches_differences() {
    for evolution in [Evolution::Aging, Evolution::Slip] {
        let mut l = RateState::new(RateStateParams {
            evolution,
            ..RateStateParams::default()
        });
        let mut s = [0.7];
        // Start sliding forward.
        l.initialize(&held(1e-9, 0.0, 4.0), &mut s);
        assert_eq!(l.mode(), StickMode::Slip(1.0));
        let v_s = l.params.v_stick_mps;
        for v in [3.0 * v_s, 0.4 * v_s, -0.3 * v_s, 50.0 * v_s] {
            let mut df_ds = [0.0];
            let mut dds_dv = [0.0];
            let mut dds_ds = [0.0];
            let mut j = LawJacobian {
                df_dv: 0.0,
                df_dhold: 0.0,
                df_ds: &mut df_ds,
                dds_dv: &mut dds_dv,
                dds_ds: &mut dds_ds,
            };
            assert!(l.jacobian(&held(v, 0.0, 4.0), &s, &mut j));
            let df_dv = j.df_dv;
            let eval = |v: f64| {
                let mut ds = [0.0];
                let f = l.eval(&held(v, 0.0, 4.0), &s, &mut ds);
                (f, ds[0])
            };
            let h = 1e-4 * v_s;
            let ((fp, dp), (fm, dm)) = (eval(v + h), eval(v - h));
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-5 * b.abs();
            assert!(close(df_dv, (fp - fm) / (2.0 * h)), "{v}: {df_dv}");
            assert!(
                close(dds_dv[0], (dp - dm) / (2.0 * h)),
                "{v}: {}",
                dds_dv[0]
            );
        }
    }
}

/// The steady state of both evolution laws is `φ = ln(v₀/v)`, where the force is
/// `μ₀ + (a − b − b₂)·ln(v/v₀)` times the load, plus the radiation damping.
#[test]
fn steady_state_of_both_laws() {
    for evolution in [Evolution::Aging, Evolution::Slip] {
        for form in [RateStateForm::Regularized, RateStateForm::Classic] {
            for b2 in [0.0, 0.004] {
                let l = law(evolution, form, b2);
                let p = &l.params;
                for v in [1e-9f64, 3.7e-6, -2e-3, 0.4] {
                    let phi = (p.v0_mps / v.abs()).ln();
                    let s = vec![phi; l.n_states()];
                    let mut ds = vec![1.0; l.n_states()];
                    let c = Contact::kinematic(0.0, v, 9.0);
                    let f = l.eval(&c, &s, &mut ds);
                    for d in &ds {
                        assert!(d.abs() < 1e-9 * v.abs() / p.d_c_m, "{evolution:?} {d}");
                    }
                    let mu = p.mu0 + (p.a - p.b - b2) * (v.abs() / p.v0_mps).ln();
                    let expected = -9.0 * mu * v.signum() - 0.7 * v;
                    assert!((f - expected).abs() < 1e-12, "{f} vs {expected}");
                    assert!((l.steady_force(v, 9.0, 1.0) - expected).abs() < 1e-12);
                }
            }
        }
    }
}

/// The regularised force is odd, zero at rest and finite for huge states.
#[test]
fn regularized_force_at_and_near_rest() {
    let l = law(Evolution::Aging, RateStateForm::Regularized, 0.0);
    let mut ds = [0.0];
    let f0 = l.eval(&Contact::kinematic(0.0, 0.0, 5.0), &[3.0], &mut ds);
    assert_eq!(f0, 0.0);
    // At rest the aging law heals: θ̇ = 1 ⇔ φ̇ = 1/θ.
    let theta = l.theta_s(0, 3.0);
    assert!((ds[0] - 1.0 / theta).abs() < 1e-15 / theta);
    let c = Contact::kinematic(0.0, 1e-15, 5.0);
    let fp = l.eval(&c, &[3.0], &mut ds);
    let fm = l.eval(&Contact::kinematic(0.0, -1e-15, 5.0), &[3.0], &mut ds);
    assert_eq!(fp, -fm);
    assert!(fp < 0.0);
    let huge = l.eval(&c, &[1e4], &mut ds);
    assert!(huge.is_finite() && huge < 0.0);
}

/// The analytic Jacobian matches central differences.
#[test]
fn jacobian_matches_differences() {
    for evolution in [Evolution::Aging, Evolution::Slip] {
        for form in [RateStateForm::Regularized, RateStateForm::Classic] {
            let l = law(evolution, form, 0.004);
            for (v, s) in [
                (2e-6f64, [0.4, -1.0]),
                (-3e-4, [2.0, 1.5]),
                (1e-9, [-0.5, 0.0]),
            ] {
                let c = Contact::kinematic(0.0, v, 7.0);
                let mut df_ds = [0.0; 2];
                let mut dds_dv = [0.0; 2];
                let mut dds_ds = [0.0; 4];
                let mut j = LawJacobian {
                    df_dv: 0.0,
                    df_dhold: 0.0,
                    df_ds: &mut df_ds,
                    dds_dv: &mut dds_dv,
                    dds_ds: &mut dds_ds,
                };
                assert!(l.jacobian(&c, &s, &mut j));
                let df_dv = j.df_dv;
                let eval = |v: f64, s: [f64; 2]| {
                    let mut ds = [0.0; 2];
                    let f = l.eval(&Contact::kinematic(0.0, v, 7.0), &s, &mut ds);
                    (f, ds)
                };
                let h = 1e-6 * v.abs();
                let (fp, dsp) = eval(v + h, s);
                let (fm, dsm) = eval(v - h, s);
                let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1e-9);
                assert!(close(df_dv, (fp - fm) / (2.0 * h)), "{df_dv}");
                for i in 0..2 {
                    assert!(close(dds_dv[i], (dsp[i] - dsm[i]) / (2.0 * h)));
                    let mut sp = s;
                    let mut sm = s;
                    sp[i] += 1e-6;
                    sm[i] -= 1e-6;
                    let (fp, dsp) = eval(v, sp);
                    let (fm, dsm) = eval(v, sm);
                    assert!(close(df_ds[i], (fp - fm) / 2e-6), "{evolution:?} {form:?}");
                    for k in 0..2 {
                        assert!(close(dds_ds[k * 2 + i], (dsp[k] - dsm[k]) / 2e-6));
                    }
                }
            }
        }
    }
}
