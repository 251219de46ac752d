//! Floquet multipliers against closed forms (MODELS §4.3, §5): the undamped Coulomb stick–slip
//! cycle (period, multipliers {1, 0}, monodromy = product of smooth flows and saltation
//! matrices), a damped forced linear oscillator (|m| = e^(−ζωT)), the van der Pol cycle
//! (Liouville: Π m = exp ∫ tr J dt) and the LuGre stick–slip cycle.

#![allow(clippy::unwrap_used)]

use std::f64::consts::{PI, TAU};

use nalgebra::{Complex, DMatrix};
use tribolab::analysis::floquet::{FloquetOptions, JacobianMethod, Stability, floquet};
use tribolab::analysis::{Dynamics, PresetDynamics};
use tribolab::integrate::driver::DriverSettings;
use tribolab::integrate::{Column, Method, Model};
use tribolab::preset::builtin;

fn coulomb_dynamics() -> PresetDynamics {
    let p = builtin::load("coulomb_stick_slip_undamped")
        .unwrap()
        .unwrap();
    let mut d = PresetDynamics::new(p);
    d.rtol = Some(1e-10);
    d
}

/// `exp(A·t)` of the undamped slip motion `ẍ = −ω²x + const`.
fn harmonic(omega: f64, t: f64) -> DMatrix<f64> {
    let (c, s) = ((omega * t).cos(), (omega * t).sin());
    DMatrix::from_row_slice(2, 2, &[c, s / omega, -omega * s, c])
}

/// Saltation matrix `S = I + (f⁺ − f⁻)·∇hᵀ/(∇hᵀ·f⁻)` (MODELS §4.3).
fn saltation(f_minus: [f64; 2], f_plus: [f64; 2], grad_h: [f64; 2]) -> DMatrix<f64> {
    let den = grad_h[0] * f_minus[0] + grad_h[1] * f_minus[1];
    DMatrix::from_fn(2, 2, |i, j| {
        let id = if i == j { 1.0 } else { 0.0 };
        id + (f_plus[i] - f_minus[i]) * grad_h[j] / den
    })
}

#[test]
fn coulomb_cycle_has_closed_form_period_and_multipliers_one_and_zero() {
    let (m, k, n, mu_s, mu_k, vb): (f64, f64, f64, f64, f64, f64) =
        (1.0, 100.0, 10.0, 0.4, 0.3, 0.1);
    let omega = (k / m).sqrt();
    let d_gap = (mu_s - mu_k) * n / k;
    let t_stick = 2.0 * d_gap / vb;
    let t_slip = (2.0 * PI - 2.0 * (omega * d_gap / vb).atan()) / omega;
    let period = t_stick + t_slip;
    assert!((period - 0.671239).abs() < 1e-6);

    let opts = FloquetOptions {
        transient_s: 10.0,
        ..FloquetOptions::default()
    };
    let r = floquet(&coulomb_dynamics(), &opts).unwrap();
    assert!(!r.forced);
    assert!(r.section.starts_with("stick onset"), "{}", r.section);
    assert_eq!(r.returns, 1);
    assert!((r.period_s - period).abs() < 1e-9, "{}", r.period_s);
    // Fixed point: re-stick at x_K − D with the belt's speed.
    let x_restick = mu_k * n / k - d_gap;
    assert!(
        (r.fixed_point[0] - x_restick).abs() < 1e-9,
        "{:?}",
        r.fixed_point
    );
    assert!((r.fixed_point[1] - vb).abs() < 1e-12);
    assert_eq!(r.switches_per_period, 2);

    // Multipliers {1, 0}: the trivial one and the zero of entering stick.
    assert_eq!(r.multipliers.len(), 2);
    let trivial = r.trivial().unwrap();
    assert!((trivial - 1.0).norm() < 1e-6, "{trivial}");
    let other = r
        .multipliers
        .iter()
        .enumerate()
        .find(|(i, _)| Some(*i) != r.trivial_index)
        .unwrap()
        .1;
    assert!(other.norm() < 1e-6, "{other}");
    assert_eq!(r.map_multipliers.len(), 1);
    assert!(r.map_multipliers[0].norm() < 1e-6);
    assert!(r.stability.is_stable());

    // The flow-map monodromy is the product of smooth flows and saltation matrices. The base
    // point lies in the slip arc, `base_offset_s` after re-stick: slip on for τ₁, re-stick,
    // stick for t_stick, break away, slip for τ₂.
    let tau2 = r.base_offset_s - t_stick;
    let tau1 = t_slip - tau2;
    assert!(tau1 > 0.0 && tau2 > 0.0, "base point not in the slip arc");
    let x_break = mu_s * n / k;
    // Re-stick: h = v − v_b; slip field f⁻ = (v_b, (−k·x + μ_K N)/m), stick field (v_b, 0).
    let s_in = saltation([vb, (-k * x_restick + mu_k * n) / m], [vb, 0.0], [0.0, 1.0]);
    // Stick: ẋ = v (= v_b), v̇ = 0.
    let stick = DMatrix::from_row_slice(2, 2, &[1.0, t_stick, 0.0, 1.0]);
    // Break-away: h = μ_S N − k·x; stick field f⁻ = (v_b, 0), slip field (v_b, (−k·x + μ_K N)/m).
    let s_out = saltation([vb, 0.0], [vb, (-k * x_break + mu_k * n) / m], [-k, 0.0]);
    let phi = harmonic(omega, tau2) * s_out * stick * s_in * harmonic(omega, tau1);
    let err = (&r.monodromy - &phi).abs().max();
    assert!(err < 1e-6, "flow map\n{}analytic\n{phi}", r.monodromy);
}

#[test]
fn damped_stribeck_stick_slip_cycle_also_has_multipliers_one_and_zero() {
    // Any 2-D stick–slip cycle with exact stick: entering stick collapses the velocity
    // perturbation (singular saltation), so the only non-trivial multiplier is 0 (MODELS §4.3).
    let p = builtin::load("stribeck_stick_slip").unwrap().unwrap();
    let mut d = PresetDynamics::new(p);
    d.rtol = Some(1e-10);
    let opts = FloquetOptions {
        transient_s: 20.0,
        ..FloquetOptions::default()
    };
    let r = floquet(&d, &opts).unwrap();
    assert_eq!(r.switches_per_period, 2);
    assert!(
        (r.trivial().unwrap() - 1.0).norm() < 1e-6,
        "{:?}",
        r.multipliers
    );
    assert!(r.multipliers.iter().any(|m| m.norm() < 1e-6));
    assert!(r.map_multipliers[0].norm() < 1e-9);
}

/// `ẍ + 2ζωẋ + ω²x = cos(2πt/T)`.
#[derive(Clone)]
struct ForcedOscillator {
    zeta: f64,
    omega: f64,
    period: f64,
}

impl Model for ForcedOscillator {
    fn dim(&self) -> usize {
        2
    }
    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "v".into()]
    }
    fn state_scales(&self, s: &mut [f64]) {
        s.fill(1.0);
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let w = self.omega;
        dy[0] = y[1];
        dy[1] = -2.0 * self.zeta * w * y[1] - w * w * y[0] + (TAU * t / self.period).cos();
    }
    fn columns(&self) -> Vec<Column> {
        vec![Column::new("x", "m"), Column::new("v", "m/s")]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row.copy_from_slice(y);
    }
    fn prefers_implicit(&self) -> bool {
        false
    }
}

struct Fixed<M: Model + Clone + Send + Sync + 'static> {
    model: M,
    y0: Vec<f64>,
    forcing: Option<f64>,
}

impl<M: Model + Clone + Send + Sync + 'static> Dynamics for Fixed<M> {
    fn build(&self) -> (Box<dyn Model + Send>, Vec<f64>) {
        (Box::new(self.model.clone()), self.y0.clone())
    }
    fn settings(&self) -> DriverSettings {
        DriverSettings {
            method: Method::Dopri5,
            rtol: 1e-11,
            rk4_dt_s: 1e-4,
            output_interval_s: 1e-2,
        }
    }
    fn forcing_period_s(&self) -> Option<f64> {
        self.forcing
    }
}

#[test]
fn forced_damped_oscillator_multipliers_have_modulus_exp_minus_zeta_omega_t() {
    let osc = ForcedOscillator {
        zeta: 0.1,
        omega: TAU,
        period: 0.7,
    };
    // Φ(T) = exp(A·T): eigenvalues exp((−ζω ± iω_d)·T).
    let modulus = (-osc.zeta * osc.omega * osc.period).exp();
    let omega_d = osc.omega * (1.0 - osc.zeta * osc.zeta).sqrt();
    let expected = Complex::from_polar(modulus, omega_d * osc.period);
    let dynamics = Fixed {
        model: osc.clone(),
        y0: vec![0.0, 0.0],
        forcing: Some(osc.period),
    };
    for method in [JacobianMethod::FlowMap, JacobianMethod::Variational] {
        let opts = FloquetOptions {
            transient_s: 10.0,
            jacobian: method,
            ..FloquetOptions::default()
        };
        let r = floquet(&dynamics, &opts).unwrap();
        assert!(r.forced && r.trivial_index.is_none());
        assert_eq!(r.returns, 1);
        assert!((r.period_s - 0.7).abs() < 1e-15);
        assert_eq!(r.multipliers.len(), 2);
        for m in &r.multipliers {
            assert!((m.norm() - modulus).abs() < 1e-7, "{method:?}: {m}");
            let e = if m.im * expected.im > 0.0 {
                expected
            } else {
                expected.conj()
            };
            assert!((m - e).norm() < 1e-7, "{method:?}: {m} vs {e}");
        }
        assert!(matches!(r.stability, Stability::Stable { .. }));
        // The fixed point is the particular solution X·cos(Ωt − φ) at t = 0.
        let big_omega = TAU / osc.period;
        let w2 = osc.omega * osc.omega;
        let den =
            (w2 - big_omega * big_omega).powi(2) + (2.0 * osc.zeta * osc.omega * big_omega).powi(2);
        let x0 = (w2 - big_omega * big_omega) / den;
        let v0 = big_omega * (2.0 * osc.zeta * osc.omega * big_omega) / den;
        assert!((r.fixed_point[0] - x0).abs() < 1e-9, "{:?}", r.fixed_point);
        assert!((r.fixed_point[1] - v0).abs() < 1e-9, "{:?}", r.fixed_point);
    }
}

#[test]
fn negatively_damped_forced_oscillator_orbit_is_found_and_unstable() {
    // ζ < 0: the forced response is still a T-periodic orbit, now with multipliers
    // exp((|ζ|ω ± iω_d)·T) outside the unit circle; Newton finds it from anywhere (linear map).
    let osc = ForcedOscillator {
        zeta: -0.05,
        omega: TAU,
        period: 0.7,
    };
    let modulus = (-osc.zeta * osc.omega * osc.period).exp();
    let dynamics = Fixed {
        model: osc.clone(),
        y0: vec![0.0, 0.0],
        forcing: Some(osc.period),
    };
    let opts = FloquetOptions {
        transient_s: 1.0,
        returns: Some(1),
        ..FloquetOptions::default()
    };
    let r = floquet(&dynamics, &opts).unwrap();
    assert!(r.newton_iterations >= 1);
    for m in &r.multipliers {
        assert!((m.norm() - modulus).abs() < 1e-7, "{m}");
    }
    match r.stability {
        Stability::Unstable { max_modulus, via } => {
            assert!((max_modulus - modulus).abs() < 1e-7);
            assert_eq!(via, tribolab::analysis::floquet::Crossing::ComplexPair);
        }
        other => panic!("{other:?}"),
    }
}

/// Van der Pol `ẍ − μ(1 − x²)ẋ + x = 0`, turning-point section `ẋ = 0, ẍ < 0`.
#[derive(Clone)]
struct VanDerPol {
    mu: f64,
}

impl Model for VanDerPol {
    fn dim(&self) -> usize {
        2
    }
    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "v".into()]
    }
    fn state_scales(&self, s: &mut [f64]) {
        s.fill(1.0);
    }
    fn is_autonomous(&self) -> bool {
        true
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = self.mu * (1.0 - y[0] * y[0]) * y[1] - y[0];
    }
    fn columns(&self) -> Vec<Column> {
        vec![Column::new("x", ""), Column::new("v", "")]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row.copy_from_slice(y);
    }
    fn section_names(&self) -> Vec<String> {
        vec!["turning point".into()]
    }
    fn sections(&self, _t: f64, y: &[f64], s: &mut [f64]) {
        s[0] = -y[1];
    }
    fn prefers_implicit(&self) -> bool {
        false
    }
}

#[test]
fn van_der_pol_cycle_satisfies_liouville_and_both_methods_agree() {
    let dynamics = Fixed {
        model: VanDerPol { mu: 1.0 },
        y0: vec![0.5, 0.0],
        forcing: None,
    };
    let run = |jacobian| {
        let opts = FloquetOptions {
            transient_s: 60.0,
            jacobian,
            ..FloquetOptions::default()
        };
        floquet(&dynamics, &opts).unwrap()
    };
    let fd = run(JacobianMethod::FlowMap);
    let var = run(JacobianMethod::Variational);
    // Period of the μ = 1 cycle (e.g. Strogatz, Nonlinear Dynamics and Chaos, §7.5): 6.6633.
    assert!((fd.period_s - 6.663287).abs() < 1e-5, "{}", fd.period_s);
    // The fixed point is the cycle's maximum, x ≈ 2.0086.
    assert!(
        (fd.fixed_point[0] - 2.00862).abs() < 1e-4,
        "{:?}",
        fd.fixed_point
    );
    for r in [&fd, &var] {
        assert!(
            (r.trivial().unwrap() - 1.0).norm() < 1e-6,
            "{:?}",
            r.multipliers
        );
        assert!(r.stability.is_stable());
    }
    // Liouville: the product of the multipliers is exp(∫ tr J dt), ∫ tr J = ∮ μ(1 − x²) dt.
    let trace = var.trace_integral.unwrap();
    assert!(trace < -5.0 && trace > -10.0, "{trace}");
    let product = |r: &tribolab::analysis::FloquetReport| {
        r.multipliers.iter().map(|m| m.norm()).product::<f64>()
    };
    for r in [&fd, &var] {
        assert!(
            (product(r) / trace.exp() - 1.0).abs() < 1e-4,
            "{} vs {}",
            product(r),
            trace.exp()
        );
        // The non-trivial map multiplier is the same number.
        assert!((r.map_multipliers[0].re / trace.exp() - 1.0).abs() < 1e-4);
    }
}

#[test]
fn lugre_stick_slip_cycle_has_one_unit_multiplier_and_the_rest_inside() {
    let p = builtin::load("lugre_canudas_1995").unwrap().unwrap();
    let mut d = PresetDynamics::new(p);
    d.rtol = Some(1e-10);
    let opts = FloquetOptions {
        transient_s: 60.0,
        ..FloquetOptions::default()
    };
    let r = floquet(&d, &opts).unwrap();
    // No exact stick: turning-point section. The field has no mode switch; its events are the
    // velocity reversals that end steps at the |v| kink.
    assert!(r.section.starts_with("turning point"), "{}", r.section);
    assert!(r.smooth_field);
    assert_eq!(r.multipliers.len(), 3);
    assert!(
        (r.trivial().unwrap() - 1.0).norm() < 1e-4,
        "{:?}",
        r.multipliers
    );
    // The bristles contract by exp(∫ tr J dt) ≈ exp(−6e4) per cycle: the non-trivial
    // multipliers are zero to the precision of the differences.
    for (i, m) in r.multipliers.iter().enumerate() {
        if Some(i) != r.trivial_index {
            assert!(m.norm() < 1e-3, "{m}");
        }
    }
    assert!(r.stability.is_stable());
    assert!(r.period_s > 5.0 && r.period_s < 8.0, "{}", r.period_s);
}

/// Armstrong's seven-parameter law keeps memory across its switches (dwell time, static
/// level) and resets states at them. Two independent monodromies of its stick–slip orbit
/// agree: central differences of the flow map, every perturbed period starting in the modes
/// and memories the orbit has at the base point (inside a compliant stick), and the tangent
/// dynamics with the saltation matrices of the differenced resets. Before, the flow map
/// re-chose modes at each perturbed start (the stick became a slip and the dwell memory was
/// lost: Newton did not converge) and the saltation took the resets as the identity
/// (multipliers 1.13, 1, 1: "unstable").
#[test]
fn seven_parameter_orbit_flow_map_and_saltation_monodromies_agree() {
    let p = builtin::load("seven_parameter_dwell").unwrap().unwrap();
    let transient_s = p.run.duration_s.max(1.0);
    let mut d = PresetDynamics::new(p);
    d.rtol = Some(1e-8);
    let opts = FloquetOptions {
        transient_s,
        ..FloquetOptions::default()
    };
    let fd = floquet(&d, &opts).unwrap();
    let var = floquet(
        &d,
        &FloquetOptions {
            jacobian: JacobianMethod::Variational,
            ..opts
        },
    )
    .unwrap();
    assert_eq!(fd.switches_per_period, 2, "stick entry and break-away");
    // In the state scales: D⁻¹·(Φ_fd − Φ_var)·D.
    let (model, _) = d.build();
    let nd = fd.monodromy.nrows();
    let mut scales = vec![1.0; model.dim()];
    model.state_scales(&mut scales);
    let mut worst: f64 = 0.0;
    for i in 0..nd {
        for j in 0..nd {
            let diff = (fd.monodromy[(i, j)] - var.monodromy[(i, j)]) * scales[j] / scales[i];
            worst = worst.max(diff.abs());
        }
    }
    assert!(worst < 1e-3, "scaled monodromy difference {worst:.3e}");
    let by_size = |r: &tribolab::analysis::floquet::FloquetReport| {
        let mut m: Vec<f64> = r.multipliers.iter().map(|z| z.norm()).collect();
        m.sort_by(|a, b| b.total_cmp(a));
        m
    };
    let (a, b) = (by_size(&fd), by_size(&var));
    eprintln!("flow map {a:?}\nsaltation {b:?}, scaled difference {worst:.2e}");
    // The trivial multiplier 1, and the contraction of the cycle equal both ways (0.1089 is
    // the value they agree on, recorded from this build: the check is their agreement).
    assert!(
        (a[0] - 1.0).abs() < 1e-5 && (b[0] - 1.0).abs() < 1e-5,
        "{a:?} {b:?}"
    );
    assert!((a[1] - 0.1089).abs() < 1e-3, "{a:?}");
    assert!((a[1] - b[1]).abs() < 1e-5, "{a:?} {b:?}");
    assert!(
        a[2..].iter().chain(&b[2..]).all(|m| *m < 1e-6),
        "{a:?} {b:?}"
    );
    assert!(fd.stability.is_stable() && var.stability.is_stable());
}
