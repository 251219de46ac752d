//! The 3-D double pendulum of MODELS §3.6 and the sliding–spinning contact of §2.11 against
//! closed forms: energy and angular momentum conservation, the linearised swing frequencies,
//! the large-swing period of the locked pendulum, contact onset located as an event, the
//! energy account with everything on, and the Padé law against the exact integral model.

#![allow(clippy::unwrap_used)] // a failed setup should stop the test loudly

use tribolab::analysis::lyapunov::{LyapunovOptions, analyze};
use tribolab::integrate::{Column, Method, Role};
use tribolab::laws::sliding_spinning::integral::{fit_b_t, force_ratio, pade_error};
use tribolab::preset::{Preset, builtin};
use tribolab::systems::pendulum3d::{
    Drive, HOLD_RATE, Obstacle, Pendulum3d, Pendulum3dParams, SecondJoint,
};
use tribolab::systems::{ConfigOf, SystemConfig};

fn preset(stem: &str) -> Preset {
    builtin::load(stem).unwrap().unwrap()
}

/// A preset of the seed pendulum with `params`, run by Dormand–Prince at `rtol`.
fn with_params(params: Pendulum3dParams, rtol: f64, dt_out: f64) -> Preset {
    let mut p = preset("pendulum_3d_seed");
    p.system = SystemConfig::Pendulum3d(params);
    p.run.rtol = rtol;
    p.run.output_interval_s = dt_out;
    p.run.integrator = Method::Dopri5;
    p
}

/// The seed pendulum with nothing that adds or removes energy.
fn conservative() -> Pendulum3dParams {
    Pendulum3dParams {
        joint_torque: 0.0,
        drive_amplitude: 0.0,
        obstacle: Obstacle::Removed,
        ..Default::default()
    }
}

fn run(p: &Preset, t_end: f64) -> (Vec<Column>, Vec<Vec<f64>>) {
    let mut r = p.build_runner().unwrap();
    let mut rows = Vec::<Vec<f64>>::new();
    r.advance(t_end, &mut rows).unwrap();
    (r.columns(), rows)
}

fn col(cols: &[Column], role: Role) -> usize {
    cols.iter().position(|c| c.role == role).unwrap()
}

fn named(cols: &[Column], name: &str) -> usize {
    cols.iter().position(|c| c.name == name).unwrap()
}

/// Times at which column `c` crosses zero upwards (linear interpolation between samples).
fn upward_crossings(rows: &[Vec<f64>], c: usize) -> Vec<f64> {
    rows.windows(2)
        .filter(|w| w[0][c] < 0.0 && w[1][c] >= 0.0)
        .map(|w| {
            let (t0, t1, a, b) = (w[0][0], w[1][0], w[0][c], w[1][c]);
            t0 + (t1 - t0) * (-a) / (b - a)
        })
        .collect()
}

fn mean_period(crossings: &[f64]) -> f64 {
    (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64
}

#[test]
fn energy_and_vertical_angular_momentum_are_conserved_in_a_3d_swing() {
    let params = Pendulum3dParams {
        initial_phi1: 0.4,
        initial_phi2: 0.9,
        initial_phi3: -0.5,
        initial_phi4: 0.7,
        initial_rate1: 1.0,
        initial_rate2: -2.0,
        initial_rate3: 3.0,
        initial_rate4: 0.5,
        ..conservative()
    };
    // Output every millisecond so the drive's angular impulse integrates to ~1e-10 (Simpson).
    let p = with_params(params.clone(), 1e-12, 1e-3);
    let (cols, rows) = run(&p, 5.0);
    let (ie, ik) = (
        col(&cols, Role::EnergyError),
        col(&cols, Role::KineticEnergy),
    );
    let scale = rows.iter().map(|r| r[ik]).fold(0.0, f64::max);
    let worst = rows.iter().map(|r| r[ie].abs()).fold(0.0, f64::max);
    assert!(
        worst < 1e-8 * scale,
        "energy error {worst:e} J against {scale} J"
    );
    // Gravity has no moment about the vertical through the pivot, but the Cardan joint does not
    // let link 1 twist: the (held) base takes a torque τ_ψ about the vertical. So
    // L_z(t) − L_z(0) = ∫ τ_ψ dt — a check of the momentum and of the reported drive torque.
    let model = Pendulum3d::new(params);
    let state = |r: &Vec<f64>| {
        let mut y = vec![0.0; 11];
        for d in 0..4 {
            y[d] = r[col(&cols, Role::Position(d))];
            y[4 + d] = r[col(&cols, Role::Velocity(d))];
        }
        y
    };
    let itau = named(&cols, "drive_torque");
    let l0 = model.angular_momentum(0.0, &state(&rows[0]));
    let l_scale = l0.norm().max(1.0);
    let h = rows[1][0] - rows[0][0];
    let (mut impulse, mut worst_l, mut largest_change) = (0.0, 0.0f64, 0.0f64);
    for i in (2..rows.len()).step_by(2) {
        let (a, b, c) = (rows[i - 2][itau], rows[i - 1][itau], rows[i][itau]);
        impulse += h / 3.0 * (a + 4.0 * b + c);
        let l = model.angular_momentum(rows[i][0], &state(&rows[i]));
        worst_l = worst_l.max((l.z - l0.z - impulse).abs());
        largest_change = largest_change.max((l.z - l0.z).abs());
    }
    println!(
        "L_z: largest change {largest_change:e}, worst mismatch {worst_l:e} (|L₀| = {l_scale})"
    );
    assert!(worst_l < 1e-8 * l_scale, "L_z against ∫τ_ψ dt: {worst_l:e}");
    // The base torque is not negligible, so the check has teeth.
    assert!(largest_change > 1e-3 * l_scale, "{largest_change:e}");
    // …and the motion is really three-dimensional.
    assert!(l0.z.abs() > 0.05, "L_z = {}", l0.z);
}

/// Small swings in the plane of `(φ_a, φ_b)` (x–z for φ₂, φ₄; y–z for φ₁, φ₃) along each
/// eigenvector of the planar compound double pendulum: `M₀ = [[I₁ + m₁e₁² + I₂ + m₂(L₁+e₂)²,
/// I₂ + m₂e₂(L₁+e₂)], [·, I₂ + m₂e₂²]]`, `K₀ = g[[m₁e₁ + m₂(L₁+e₂), m₂e₂], [m₂e₂, m₂e₂]]`.
#[test]
fn small_swings_at_the_linearised_eigenfrequencies() {
    let base = conservative();
    let (m1, m2, e1, e2, l1, g) = (
        base.mass1,
        base.mass2,
        base.com1,
        base.com2,
        base.length1,
        base.gravity,
    );
    for (plane, i1, i2) in [
        ("x–z", base.inertia1_y, base.inertia2_y),
        ("y–z", base.inertia1_x, base.inertia2_x),
    ] {
        let m = [
            [
                i1 + m1 * e1 * e1 + i2 + m2 * (l1 + e2).powi(2),
                i2 + m2 * e2 * (l1 + e2),
            ],
            [i2 + m2 * e2 * (l1 + e2), i2 + m2 * e2 * e2],
        ];
        let k = [
            [g * (m1 * e1 + m2 * (l1 + e2)), g * m2 * e2],
            [g * m2 * e2, g * m2 * e2],
        ];
        // det(K − λM) = 0.
        let a = m[0][0] * m[1][1] - m[0][1] * m[1][0];
        let b = -(k[0][0] * m[1][1] + k[1][1] * m[0][0] - k[0][1] * m[1][0] - k[1][0] * m[0][1]);
        let c = k[0][0] * k[1][1] - k[0][1] * k[1][0];
        let disc = (b * b - 4.0 * a * c).sqrt();
        for lambda in [(-b - disc) / (2.0 * a), (-b + disc) / (2.0 * a)] {
            // Eigenvector: (K − λM) v = 0 → v = (−(k₁₂ − λm₁₂), k₁₁ − λm₁₁).
            let v = [-(k[0][1] - lambda * m[0][1]), k[0][0] - lambda * m[0][0]];
            let norm = v[0].hypot(v[1]);
            let amp = 1e-4 / norm;
            let period = std::f64::consts::TAU / lambda.sqrt();
            let mut params = base.clone();
            if plane == "x–z" {
                params.initial_phi2 = amp * v[0];
                params.initial_phi4 = amp * v[1];
            } else {
                params.initial_phi2 = 0.0;
                params.initial_phi1 = amp * v[0];
                params.initial_phi3 = amp * v[1];
            }
            let p = with_params(params, 1e-11, period / 200.0);
            let (cols, rows) = run(&p, 20.5 * period);
            let which = if plane == "x–z" { 1 } else { 0 };
            let crossings = upward_crossings(&rows, col(&cols, Role::Position(which)));
            let measured = mean_period(&crossings);
            assert!(
                (measured / period - 1.0).abs() < 2e-5,
                "{plane}: period {measured} s against {period} s"
            );
        }
    }
}

/// The locked pendulum (joint 2 fixed) is one rigid physical pendulum: its period at any
/// amplitude is `4·√(I/(m g d))·K(sin(θ₀/2))`.
#[test]
fn locked_pendulum_has_the_exact_large_swing_period() {
    let theta0: f64 = 1.2;
    let params = Pendulum3dParams {
        second_joint: SecondJoint::Locked,
        initial_phi2: theta0,
        initial_rate4: 3.0, // locked: ignored
        ..conservative()
    };
    let (m1, m2, e1, e2, l1) = (
        params.mass1,
        params.mass2,
        params.com1,
        params.com2,
        params.length1,
    );
    let inertia = params.inertia1_y + m1 * e1 * e1 + params.inertia2_y + m2 * (l1 + e2).powi(2);
    let mgd = params.gravity * (m1 * e1 + m2 * (l1 + e2));
    // K(k) by the arithmetic–geometric mean.
    let k = (theta0 / 2.0).sin();
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..30 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    let kk = std::f64::consts::PI / (2.0 * a);
    let period = 4.0 * (inertia / mgd).sqrt() * kk;
    let p = with_params(params, 1e-12, period / 400.0);
    let (cols, rows) = run(&p, 10.3 * period);
    // Joint 2 stays locked.
    let i4 = col(&cols, Role::Position(3));
    assert!(rows.iter().all(|r| r[i4] == 0.0));
    let measured = mean_period(&upward_crossings(&rows, col(&cols, Role::Position(1))));
    assert!(
        (measured / period - 1.0).abs() < 1e-7,
        "period {measured} s against {period} s"
    );
}

/// The motor swinging link 1 about joint 1's outer axis, with joint 2 locked and no sideways
/// motion, turns one rigid physical pendulum along `ψ(t) = (q/Ω)·sin Ωt`; the torque it needs is
/// `τ = I_O·ψ̈ + m·g·d·sin ψ` at every instant, and the held φ₂ never moves.
#[test]
fn swing_drive_torque_matches_the_driven_rigid_pendulum() {
    let params = Pendulum3dParams {
        drive: Drive::Swing,
        second_joint: SecondJoint::Locked,
        drive_amplitude: 2.5,
        drive_frequency: 4.0,
        initial_phi2: 0.0,
        ..conservative()
    };
    let (m1, m2, e1, e2, l1) = (
        params.mass1,
        params.mass2,
        params.com1,
        params.com2,
        params.length1,
    );
    let inertia = params.inertia1_y + m1 * e1 * e1 + params.inertia2_y + m2 * (l1 + e2).powi(2);
    let mgd = params.gravity * (m1 * e1 + m2 * (l1 + e2));
    let (q, big) = (params.drive_amplitude, params.drive_frequency);
    let p = with_params(params, 1e-10, 1e-2);
    let (cols, rows) = run(&p, 5.0);
    let (itau, ipsi, i2) = (
        named(&cols, "drive_torque"),
        named(&cols, "psi"),
        col(&cols, Role::Position(1)),
    );
    let scale = mgd + inertia * q * big;
    let mut worst: f64 = 0.0;
    for r in &rows {
        let t = r[0];
        let psi = q / big * (big * t).sin();
        assert!(
            (r[ipsi] - psi).abs() < 1e-12,
            "ψ({t}) = {} against {psi}",
            r[ipsi]
        );
        assert_eq!(r[i2], 0.0, "φ₂ moved at t = {t}");
        let expected = inertia * (-q * big * (big * t).sin()) + mgd * psi.sin();
        worst = worst.max((r[itau] - expected).abs());
    }
    assert!(
        worst < 1e-9 * scale,
        "motor torque off by {worst:e} N·m (scale {scale} N·m)"
    );
}

/// Held coordinates are not dynamics: in the Lyapunov spectrum of the swing-driven pendulum
/// their directions decay at exactly the hold rate, and they add no spurious zero exponent
/// (before, a rate perturbation grew the held angle linearly: λ = 0, and Benettin's λ₁ = 0).
#[test]
fn held_coordinates_decay_in_the_lyapunov_spectrum() {
    let params = Pendulum3dParams {
        drive: Drive::Swing,
        initial_phi2: 0.0,
        initial_phi1: 0.2,
        obstacle: Obstacle::Removed,
        ..Default::default()
    };
    let p = with_params(params, 1e-9, 1e-2);
    let opts = LyapunovOptions {
        transient: 2.0,
        duration: 20.0,
        renorm_interval: 0.5,
        forcing_period_s: p.system.forcing_period_s(),
        ..LyapunovOptions::default()
    };
    let r = analyze(&p, &opts, true).unwrap();
    let l = &r.spectrum.exponents;
    println!(
        "λ = {l:?}, Benettin {:?}",
        r.largest.as_ref().map(|b| b.exponent)
    );
    assert_eq!(l.len(), 8);
    let held: Vec<f64> = l
        .iter()
        .copied()
        .filter(|x| (x + HOLD_RATE).abs() < 0.1)
        .collect();
    assert_eq!(
        held.len(),
        2,
        "two held directions at −{HOLD_RATE}/s: {l:?}"
    );
    // The free motion (φ₁, φ₃, φ₄ with joint friction) is damped: nothing near zero or above
    // but the slowest, and Benettin agrees with the largest.
    let l1 = l[0];
    let benettin = r.largest.as_ref().unwrap().exponent;
    assert!(l1 < 0.0, "λ₁ = {l1}");
    assert!(
        (benettin - l1).abs() < 0.2 * l1.abs() + 0.02,
        "Benettin {benettin} vs {l1}"
    );
}

#[test]
fn contact_onset_is_located_as_an_event() {
    let p = preset("pendulum_3d_no_spin");
    let (cols, rows) = run(&p, 3.0);
    let (iflag, idelta, inormal) = (
        col(&cols, Role::EventFlag),
        named(&cols, "penetration"),
        col(&cols, Role::NormalLoad(0)),
    );
    let events: Vec<&Vec<f64>> = rows.iter().filter(|r| r[iflag] != 0.0).collect();
    assert!(events.len() >= 4, "{} event rows", events.len());
    for r in &events {
        assert!(
            r[idelta].abs() < 1e-10,
            "δ = {:e} m at t = {}",
            r[idelta],
            r[0]
        );
    }
    // The ball strikes with tens of newtons and leaves.
    let peak = rows.iter().map(|r| r[inormal]).fold(0.0, f64::max);
    assert!(peak > 10.0 && peak < 1e4, "peak normal force {peak} N");
}

/// With the drive, the spinning obstacle, joint friction and contact damping all on, the
/// energy account closes: kinetic + stored = initial + drive and motor work + friction work −
/// damping, to the integration accuracy.
#[test]
fn energy_account_closes_with_everything_on() {
    let mut p = preset("pendulum_3d_seed");
    p.run.integrator = Method::Dopri5;
    let (cols, rows) = run(&p, 20.0);
    let c = |r: Role| col(&cols, r);
    let (ie, ik, iin, ifr, idamp, inormal) = (
        c(Role::EnergyError),
        c(Role::KineticEnergy),
        c(Role::InputWork),
        c(Role::FrictionWork(Some(0))),
        c(Role::DampingWork),
        c(Role::NormalLoad(0)),
    );
    let last = rows.last().unwrap();
    let scale = rows.iter().map(|r| r[ik]).fold(0.0, f64::max);
    let worst = rows.iter().map(|r| r[ie].abs()).fold(0.0, f64::max);
    assert!(rows.iter().any(|r| r[inormal] > 1.0), "no contact");
    assert!(last[ifr] < -1e-3, "friction work {}", last[ifr]);
    assert!(last[idamp] > 1e-3, "damping work {}", last[idamp]);
    assert!(last[iin].abs() > 1e-3, "input work {}", last[iin]);
    assert!(
        worst < 1e-5 * scale,
        "energy error {worst:e} J against {scale} J"
    );
}

/// MODELS §2.11: the Padé law against the exact model — Coulomb traction integrated over the
/// Hertz pressure of the contact circle.
#[test]
fn pade_law_against_the_exact_integral_model() {
    let seed = pade_error(0.681);
    let best = fit_b_t();
    println!("b_T = 0.681: {seed:?}\nbest fit: {best:?}");
    // Limits: pure sliding is Coulomb, pure spin gives no force.
    assert!((force_ratio(1e9) - 1.0).abs() < 1e-8);
    assert!(force_ratio(1e-9) < 1e-8);
    // Measured: b_T = 0.681 stays within 5.8 % of μN (worst near ξ = 0.3, where the exact
    // curve rises more slowly); the least-squares coefficient over ξ ∈ [10⁻³, 10³] is 0.722
    // (RMS error 2.0 % against 2.2 %). The seed's value is close to, not at, the best fit.
    assert!(seed.max_error < 0.06, "{seed:?}");
    assert!((best.b_t - 0.722).abs() < 0.005, "{best:?}");
    // Small ξ: the exact curve starts with slope 3π/8 (1.178), the Padé law with 1/b_T.
    let slope = force_ratio(1e-3) / 1e-3;
    assert!(
        (slope - 3.0 * std::f64::consts::PI / 8.0).abs() < 1e-6,
        "slope {slope}"
    );
    assert!(best.rms_error <= seed.rms_error);
}

#[test]
fn spin_rig_reports_the_pade_law_and_the_exact_model() {
    let p = preset("spin_rig");
    let (cols, rows) = run(&p, 10.0);
    let (ip, ix, ierr, iratio) = (
        named(&cols, "ratio_pade"),
        named(&cols, "ratio_exact"),
        named(&cols, "ratio_error"),
        col(&cols, Role::SpinSlideRatio(0)),
    );
    let rig = tribolab::systems::spin_rig::SpinRigParams::of(&p.system)
        .unwrap()
        .clone();
    // The sweep restarts every `sweep_time`: look at the first one.
    let rows: Vec<_> = rows.into_iter().filter(|r| r[0] < rig.sweep_time).collect();
    for r in rows.iter().step_by(50) {
        let xi = 1.0 / r[iratio];
        assert!((r[ix] - force_ratio(xi)).abs() < 1e-8);
        let pade = xi / (xi * xi + rig.pade_b * rig.pade_b).sqrt();
        assert!((r[ip] - pade).abs() < 1e-6, "{} vs {pade}", r[ip]);
        assert!((r[ierr] - (pade - r[ix])).abs() < 1e-6);
    }
    // The sweep runs from sliding-dominated to spin-dominated friction.
    assert!(rows.first().unwrap()[ip] > 0.99);
    assert!(rows.last().unwrap()[ip] < 0.1);
}
