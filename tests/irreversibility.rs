//! Friction-irreversibility laws (MODELS §2.5; S1 eqs 11, 14) against closed forms on the
//! prescribed-motion rig, and on the belt–block bench with set-valued stick.
//!
//! Under `v = v₀ + v₁·sin ωt` the acceleration filter `τ_a·v̇_f = v − v_f` (started at
//! `v_f(0) = v₀`) has the closed form `a_f = (v − v_f)/τ_a = v₁ω·(cos ωt + ωτ_a·sin ωt −
//! e^(−t/τ_a))/(1 + ω²τ_a²)`, so every expected force below is computed here from the equations.

#![allow(clippy::unwrap_used)]

use std::f64::consts::{FRAC_PI_2, TAU};

use tribolab::laws::LawConfig;
use tribolab::laws::powell_wiercigroch::PowellWiercigrochParams;
use tribolab::laws::stefanski::StefanskiParams;
use tribolab::preset::Preset;
use tribolab::rig::{Motion, run_prescribed};

// Columns of `run_prescribed` rows: t, x, v, friction_force, v_f, event.
const T: usize = 0;
const V: usize = 2;
const F: usize = 3;
const EV: usize = 5;

const N: f64 = 10.0;

struct Sine {
    v0: f64,
    v1: f64,
    w: f64,
    tau: f64,
}

impl Sine {
    fn new(v0: f64, v1: f64, f: f64, tau: f64) -> Self {
        Self {
            v0,
            v1,
            w: TAU * f,
            tau,
        }
    }
    fn motion(&self) -> Motion {
        Motion::VelocitySine {
            mean_mps: self.v0,
            amplitude_mps: self.v1,
            frequency_hz: self.w / TAU,
        }
    }
    fn v(&self, t: f64) -> f64 {
        self.v0 + self.v1 * (self.w * t).sin()
    }
    /// True acceleration `v̇`.
    fn a(&self, t: f64) -> f64 {
        self.v1 * self.w * (self.w * t).cos()
    }
    /// Filtered acceleration `a_f` (closed form).
    fn a_f(&self, t: f64) -> f64 {
        let (w, tau) = (self.w, self.tau);
        self.v1 * w * ((w * t).cos() + w * tau * (w * t).sin() - (-t / tau).exp())
            / (1.0 + (w * tau).powi(2))
    }
}

fn run(law: LawConfig, s: &Sine, t_end: f64, dt: f64) -> Vec<Vec<f64>> {
    run_prescribed(law.build(), s.motion(), N, t_end, 1e-10, dt).expect("runs")
}

fn event_times(rows: &[Vec<f64>]) -> Vec<f64> {
    let ev: Vec<&Vec<f64>> = rows.iter().filter(|r| r[EV] == 1.0).collect();
    ev.chunks(2).map(|c| c[1][T]).collect()
}

/// Root of `f` in `[lo, hi]` (sign change), by bisection.
fn bisect(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let flo = f(lo);
    assert!(flo * f(hi) < 0.0, "no sign change in [{lo}, {hi}]");
    for _ in 0..200 {
        let m = 0.5 * (lo + hi);
        if (f(m) < 0.0) == (flo < 0.0) {
            lo = m;
        } else {
            hi = m;
        }
    }
    0.5 * (lo + hi)
}

/// `F = −N·[μ_C + s·(μ_S − μ_C)·G]_{≥0} − c_v·v` for `v > 0`, branch `s = ±1`.
fn branch_force(mu_s: f64, mu_c: f64, g: f64, s: f64, cv: f64, v: f64) -> f64 {
    -N * (mu_c + s * (mu_s - mu_c) * g).max(0.0) - cv * v
}

fn pw(mu_s: f64, mu_c: f64, alpha: f64, cv: f64) -> PowellWiercigrochParams {
    PowellWiercigrochParams {
        mu_s,
        mu_c,
        alpha_s_per_m: alpha,
        viscous_ns_per_m: cv,
        tau_a_s: 1e-3,
    }
}

/// Powell–Wiercigroch under `v = 0.05 + 0.03·sin(4πt)` m/s: upper branch
/// `−N[μ_C + (μ_S − μ_C)e^(−αv)] − c_v·v` while `v` rises, lower branch while it falls, to 1e-9
/// relative at every sample (the branch is `sgn a_f`, which differs from `sgn v̇` only within
/// the filter lag after each extremum); the switches lie exactly at the zeros of `a_f`, i.e.
/// `atan(ωτ_a)/ω` (< τ_a) after the extrema of `v`.
#[test]
fn powell_wiercigroch_branches_and_switch_times() {
    let (mu_s, mu_c, alpha, cv) = (0.4, 0.3, 10.0, 0.5);
    let s = Sine::new(0.05, 0.03, 2.0, 1e-3);
    let rows = run(
        LawConfig::PowellWiercigroch(pw(mu_s, mu_c, alpha, cv)),
        &s,
        2.0,
        1e-4,
    );
    let switches = event_times(&rows);
    // Extrema of v at ωt = π/2 + kπ, k = 0..7 in 2 s.
    assert_eq!(switches.len(), 8, "switches at {switches:?}");
    let lag = (s.w * s.tau).atan() / s.w;
    assert!(lag > 0.0 && lag < s.tau);
    for (k, &ts) in switches.iter().enumerate() {
        let t_ext = (FRAC_PI_2 + k as f64 * std::f64::consts::PI) / s.w;
        let root = bisect(|t| s.a_f(t), t_ext - 0.5 * s.tau, t_ext + 5.0 * s.tau);
        // Located to 1e-12 s on the numerical v_f, whose error (atol 1e-12 m/s) shifts the
        // zero of a_f = (v − v_f)/τ_a by ~1e-12/(τ_a·|ȧ_f|) ≈ 3e-10 s.
        assert!(
            (ts - root).abs() < 2e-9,
            "switch {k}: {ts} vs a_f = 0 at {root}"
        );
        assert!(
            (ts - t_ext - lag).abs() < 2e-9,
            "switch {k}: {} s after the extremum, expected {lag}",
            ts - t_ext
        );
    }
    let mut n_upper = 0;
    let mut n_lower = 0;
    let mut n_lag = 0;
    for r in rows.iter().filter(|r| r[EV] == 0.0) {
        let t = r[T];
        if switches.iter().any(|&ts| (t - ts).abs() < 1e-7) {
            continue;
        }
        let branch = s.a_f(t).signum();
        let g = (-alpha * s.v(t)).exp();
        let expected = branch_force(mu_s, mu_c, g, branch, cv, s.v(t));
        assert!(
            (r[F] - expected).abs() < 1e-9 * expected.abs(),
            "t = {t}: F = {} vs {expected}",
            r[F]
        );
        assert!((r[V] - s.v(t)).abs() < 1e-15);
        if branch != s.a(t).signum() {
            n_lag += 1;
        } else if branch > 0.0 {
            n_upper += 1;
        } else {
            n_lower += 1;
        }
    }
    assert!(n_upper > 9000 && n_lower > 9000, "{n_upper} / {n_lower}");
    eprintln!("upper {n_upper}, lower {n_lower}, inside the lag {n_lag} samples; lag {lag:.9} s");
    // Samples inside the filter lag: 8 windows of atan(ωτ)/ω ≈ 1 ms at 0.1 ms spacing.
    assert!(
        (64..=88).contains(&n_lag),
        "{n_lag} samples in the lag windows"
    );
}

/// μ_S = 0.5 > 2μ_C = 0.4: on the lower branch `μ_C − (μ_S − μ_C)e^(−αv)` is negative below
/// `v* = ln(1.5)/α = 40.5 mm/s`, where the force must be exactly zero.
#[test]
fn lower_branch_is_clamped_at_zero() {
    let (mu_s, mu_c, alpha) = (0.5, 0.2, 10.0);
    let s = Sine::new(0.03, 0.02, 1.0, 1e-3);
    let rows = run(
        LawConfig::PowellWiercigroch(pw(mu_s, mu_c, alpha, 0.0)),
        &s,
        3.0,
        1e-3,
    );
    let switches = event_times(&rows);
    let v_star = 1.5f64.ln() / alpha;
    let (mut clamped, mut lower_positive) = (0, 0);
    for r in rows.iter().filter(|r| r[EV] == 0.0) {
        let t = r[T];
        if s.a_f(t) >= 0.0 || switches.iter().any(|&ts| (t - ts).abs() < 1e-7) {
            continue;
        }
        let v = s.v(t);
        if v < v_star {
            assert_eq!(r[F], 0.0, "t = {t}, v = {v}");
            clamped += 1;
        } else {
            let expected = -N * (mu_c - (mu_s - mu_c) * (-alpha * v).exp());
            assert!(expected < 0.0);
            assert!(
                (r[F] - expected).abs() < 1e-9,
                "t = {t}: {} vs {expected}",
                r[F]
            );
            lower_positive += 1;
        }
    }
    assert!(
        clamped > 500 && lower_positive > 300,
        "{clamped} / {lower_positive}"
    );
}

/// Stefański–Wojewoda under `v = 0.05 + 0.03·sin 2πft`: the force equals
/// `−N[μ_C ± (μ_S − μ_C)·exp(−a₁v/(|a_f| + a₂))] − c_v·v` with the closed-form `a_f` (1e-8
/// relative), stays within the filter's error bound of the same formula with the true `|v̇|`,
/// and the loop width at `v = v₀` grows with f as `2N(μ_S − μ_C)·exp(−a₁v₀/(|a_f| + a₂))`.
/// Powell–Wiercigroch's width at `v₀` stays `2N(μ_S − μ_C)e^(−αv₀)` at every f.
#[test]
fn stefanski_loop_widens_with_acceleration() {
    let (mu_s, mu_c, a1, a2, cv) = (0.4, 0.3, 10.0, 1.0, 0.0);
    let mut widths = Vec::new();
    for f in [0.5, 2.0, 8.0] {
        let s = Sine::new(0.05, 0.03, f, 1e-3);
        let period = 1.0 / f;
        let law = LawConfig::Stefanski(StefanskiParams {
            mu_s,
            mu_c,
            a1_per_s: a1,
            a2_mps2: a2,
            viscous_ns_per_m: cv,
            tau_a_s: 1e-3,
        });
        let rows = run(law, &s, 3.0 * period, period / 2000.0);
        let switches = event_times(&rows);
        assert_eq!(switches.len(), 6, "f = {f}: {switches:?}");
        let g = |v: f64, a: f64| (-a1 * v / (a.abs() + a2)).exp();
        let mut worst_true_accel: f64 = 0.0;
        for r in rows.iter().filter(|r| r[EV] == 0.0) {
            let t = r[T];
            if switches.iter().any(|&ts| (t - ts).abs() < 1e-7) {
                continue;
            }
            let (v, af) = (s.v(t), s.a_f(t));
            let expected = branch_force(mu_s, mu_c, g(v, af), af.signum(), cv, v);
            // rtol 1e-10 on v_f ≈ 0.08 m/s is ~1e-8 m/s² on a_f = (v − v_f)/τ_a.
            assert!(
                (r[F] - expected).abs() < 1e-8 * expected.abs(),
                "f = {f}, t = {t}: F = {} vs {expected}",
                r[F]
            );
            // Away from the switches (|ωt − extremum| > 0.1 rad, same branch) the filtered law
            // tracks the algebraic one with the true acceleration: |a_f − v̇| ≤ v₁ω²τ_a in steady
            // state and |∂F/∂|v̇|| ≤ N(μ_S − μ_C)·a₁·v/a₂², which bounds the difference.
            let phase = (s.w * t - FRAC_PI_2).rem_euclid(std::f64::consts::PI);
            if t > 0.05 && phase > 0.1 && phase < std::f64::consts::PI - 0.1 {
                let a = s.a(t);
                let algebraic = branch_force(mu_s, mu_c, g(v, a), a.signum(), cv, v);
                let bound = N * (mu_s - mu_c) * a1 * v / (a2 * a2) * s.v1 * s.w * s.w * s.tau;
                worst_true_accel = worst_true_accel.max((r[F] - algebraic).abs() / bound);
            }
        }
        eprintln!(
            "f = {f} Hz: |F_filtered − F_algebraic| ≤ {worst_true_accel:.2} × the a-priori bound"
        );
        assert!(worst_true_accel < 1.0, "f = {f}: {worst_true_accel}");
        // Loop width at v = v₀: ωt = 2π (rising, upper) and 3π (falling, lower).
        let at = |t: f64| {
            rows.iter()
                .find(|r| (r[T] - t).abs() < 1e-9 && r[EV] == 0.0)
                .unwrap()[F]
        };
        let (t_up, t_down) = (2.0 * period / 2.0, 3.0 * period / 2.0);
        let width = at(t_down) - at(t_up);
        let expected = N * (mu_s - mu_c) * (g(s.v0, s.a_f(t_up)) + g(s.v0, s.a_f(t_down)));
        assert!(
            (width - expected).abs() < 1e-8 * N,
            "f = {f}: width {width} vs {expected}"
        );
        eprintln!("f = {f} Hz: loop width at v₀ {width:.6} N");
        widths.push(width);
    }
    assert!(
        widths[0] < widths[1] && widths[1] < widths[2],
        "widths {widths:?} must grow with f"
    );
    // Powell–Wiercigroch: same width at every frequency.
    for f in [0.5, 8.0] {
        let s = Sine::new(0.05, 0.03, f, 1e-3);
        let period = 1.0 / f;
        let rows = run(
            LawConfig::PowellWiercigroch(pw(mu_s, mu_c, 10.0, 0.0)),
            &s,
            3.0 * period,
            period / 2000.0,
        );
        let at = |t: f64| {
            rows.iter()
                .find(|r| (r[T] - t).abs() < 1e-9 && r[EV] == 0.0)
                .unwrap()[F]
        };
        let width = at(1.5 * period) - at(period);
        let expected = 2.0 * N * (mu_s - mu_c) * (-10.0 * s.v0).exp();
        assert!(
            (width - expected).abs() < 1e-9,
            "f = {f}: {width} vs {expected}"
        );
    }
}

struct BeltRun {
    rows: Vec<Vec<f64>>,
    names: Vec<String>,
}

impl BeltRun {
    fn new(mut p: Preset, t_end: f64) -> Self {
        p.run.output_interval_s = 1e-3;
        let mut sim = p.build_simulation().unwrap();
        let mut rows: Vec<Vec<f64>> = Vec::new();
        sim.advance(t_end, &mut rows).unwrap();
        Self {
            rows,
            names: sim.column_names(),
        }
    }
    fn col(&self, name: &str) -> usize {
        self.names.iter().position(|c| c == name).unwrap()
    }
    /// Event pairs (before, after).
    fn events(&self) -> Vec<(&Vec<f64>, &Vec<f64>)> {
        let iev = self.col("event");
        let ev: Vec<&Vec<f64>> = self.rows.iter().filter(|r| r[iev] == 1.0).collect();
        ev.chunks(2).map(|c| (c[0], c[1])).collect()
    }
}

fn preset(stem: &str) -> Preset {
    tribolab::preset::builtin::load(stem).unwrap().unwrap()
}

/// The two presets on the belt–block bench: 30 s run without Zeno, energy balance closed. Every
/// turning point of |v_rel| is a velocity plateau (Filippov sliding on a_f = 0): v_rel constant
/// to 1e-12 while the friction equals the holding force, left exactly at a branch force. The
/// plateaus alternate between fast slip (|v_rel| > 1.5 v_b) and slow creep (< 0.3 v_b, the first
/// ones within 1 % of the belt speed), i.e. stick–slip-like cycles whose quasi-stick is a creep.
#[test]
fn belt_block_presets_loop_with_velocity_plateaus() {
    for stem in ["powell_wiercigroch", "stefanski"] {
        let p = preset(stem);
        let (mu_s, mu_c) = match &p.law {
            LawConfig::PowellWiercigroch(l) => (l.mu_s, l.mu_c),
            LawConfig::Stefanski(l) => (l.mu_s, l.mu_c),
            _ => unreachable!(),
        };
        let n = 9.81;
        let run = BeltRun::new(p, 30.0);
        let (it, iv, ifr, isp, istick) = (
            run.col("t"),
            run.col("v_rel"),
            run.col("friction_force"),
            run.col("spring_force"),
            run.col("stick"),
        );
        let vb = 0.101_368;
        // Plateaus: consecutive events at the same v_rel (entry and exit of the hold mode).
        let ev = run.events();
        let mut plateaus = 0;
        let (mut slow, mut fast, mut slowest) = (0, 0, f64::MAX);
        for w in ev.windows(2) {
            let ((_, entry), (exit, after)) = (w[0], w[1]);
            if (entry[iv] - exit[iv]).abs() > 1e-12
                || entry[istick] == 1.0
                || exit[it] - entry[it] < 1e-3
            {
                continue;
            }
            plateaus += 1;
            let (t0, t1, v) = (entry[it], exit[it], entry[iv]);
            // Inside: v_rel frozen, friction = holding force = −spring force (c = 0, v̇ = 0).
            for r in run.rows.iter().filter(|r| r[it] > t0 && r[it] < t1) {
                assert!(
                    (r[iv] - v).abs() < 1e-12,
                    "{stem}: v_rel drifts at {}",
                    r[it]
                );
                assert!(
                    (r[ifr] + r[isp]).abs() < 1e-9 * n,
                    "{stem}: F ≠ F_req at {}",
                    r[it]
                );
            }
            // The exit is on a branch at a = 0: F = N·(μ_C ± (μ_S − μ_C)·G(|v|, 0)), v < 0.
            let speed = v.abs();
            let gap = match stem {
                "powell_wiercigroch" => (-10.0 * speed).exp(),
                _ => (-10.0 * speed / 1.0).exp(),
            } * (mu_s - mu_c);
            let (upper, lower) = (n * (mu_c + gap), n * (mu_c - gap).max(0.0));
            let f_exit = after[ifr];
            assert!(
                (f_exit - upper).abs() < 1e-9 * n || (f_exit - lower).abs() < 1e-9 * n,
                "{stem}: exit force {f_exit} not on a branch ({upper}, {lower}) at t = {}",
                exit[it]
            );
            if speed < 0.3 * vb {
                slow += 1;
                slowest = slowest.min(speed);
            } else if speed > 1.5 * vb {
                fast += 1;
            }
        }
        eprintln!(
            "{stem}: {plateaus} plateaus, {slow} slow (slowest {slowest:.2e} m/s), {fast} fast"
        );
        assert!(
            slow >= 40 && fast >= 40,
            "{stem}: {slow} slow, {fast} fast plateaus"
        );
        assert!(slowest < 0.01 * vb, "{stem}: slowest plateau {slowest} m/s");
        let late: Vec<&Vec<f64>> = run.rows.iter().filter(|r| r[it] > 15.0).collect();
        let v_min = late.iter().map(|r| r[iv]).fold(f64::MAX, f64::min);
        assert!(v_min < -1.8 * vb, "{stem}: slip reaches {v_min}");
        let f_max = late.iter().map(|r| r[ifr]).fold(f64::MIN, f64::max);
        assert!(
            f_max < mu_s * n && f_max > 0.9 * mu_s * n,
            "{stem}: F_max {f_max}"
        );
        let end = run.rows.last().unwrap();
        let err = end[run.col("energy_error")].abs();
        assert!(
            err < 1e-8 * end[run.col("w_belt")].abs(),
            "{stem}: energy error {err}"
        );
    }
}

/// Set-valued stick: a block launched faster than the belt decelerates on the lower branch,
/// sticks exactly at v_rel = 0 (the holding force is within μ_S·N) and breaks away when the
/// spring force reaches μ_S·N; during the stick v_rel ≡ 0 and F = F_req.
#[test]
fn belt_block_sticks_exactly_and_breaks_away_at_mu_s() {
    for stem in ["powell_wiercigroch", "stefanski"] {
        let mut p = preset(stem);
        p.set_path("system.initial_slip_velocity", "0.3").unwrap();
        p.set_path("system.damping", "0.5").unwrap();
        let mu_s = 0.4;
        let n = 9.81;
        let run = BeltRun::new(p, 5.0);
        let (it, iv, ifr, isp, istick) = (
            run.col("t"),
            run.col("v_rel"),
            run.col("friction_force"),
            run.col("spring_force"),
            run.col("stick"),
        );
        let ev = run.events();
        let stick = ev
            .iter()
            .position(|(b, a)| b[istick] == 0.0 && a[istick] == 1.0)
            .expect("sticks");
        let (t_s, t_b) = (ev[stick].1[it], ev[stick + 1].0[it]);
        assert_eq!(
            ev[stick + 1].1[istick],
            0.0,
            "{stem}: next event is the break-away"
        );
        assert!(t_b - t_s > 0.01, "{stem}: stick of {} s", t_b - t_s);
        let iv_abs = run.col("v");
        let stuck: Vec<&Vec<f64>> = run.rows.iter().filter(|r| r[istick] == 1.0).collect();
        assert!(stuck.len() > 10, "{stem}: {} stuck samples", stuck.len());
        for r in stuck {
            assert!(r[it] >= t_s && r[it] <= t_b, "{stem}: one stick only");
            assert!(
                r[iv].abs() < 1e-15,
                "{stem}: v_rel = {} at {}",
                r[iv],
                r[it]
            );
            // Holding force: k·x + c·ẋ = −spring + c·v_b.
            let hold = -r[isp] + 0.5 * r[iv_abs];
            assert!((r[ifr] - hold).abs() < 1e-12, "{stem}: F at {}", r[it]);
        }
        let f_break = ev[stick + 1].0[ifr];
        assert!(
            (f_break - mu_s * n).abs() < 1e-9 * mu_s * n,
            "{stem}: break-away at {f_break} N"
        );
    }
}

/// Regression (issue 10 item 9): a 1 µs acceleration filter made the Stefański bench chatter
/// between branches at an extremum of |v| (a Zeno stop after 0.42 s); the filter is refused
/// below 10 µs, naming the field, and 10 µs runs.
#[test]
fn an_acceleration_filter_below_ten_microseconds_is_refused() {
    for name in ["stefanski", "powell_wiercigroch"] {
        let mut p = tribolab::preset::builtin::load(name).unwrap().unwrap();
        let err = p.set_path("law.tau_a", "1e-6").unwrap_err();
        assert!(
            err.contains("tau_a") && err.contains("outside"),
            "{name}: {err}"
        );
        p.set_path("law.tau_a", "1e-5").unwrap();
        p.run.duration_s = 1.0;
        let mut sim = p.build_runner().unwrap();
        let mut rows = Vec::<Vec<f64>>::new();
        sim.advance(1.0, &mut rows).unwrap();
        assert!(rows.last().is_some_and(|r| r[0] >= 1.0 - 1e-9), "{name}");
    }
}
