//! The Carlson–Langer chain (MODELS §3.2) against results derived by hand and an independent
//! integration: the single block's stick–slip cycle in closed form (no velocity weakening),
//! its slip with weakening against a fine fixed-step integration written here, no backward
//! slip in a long chain run, and the energy account.

#![allow(clippy::unwrap_used)]

use tribolab::integrate::{Role, Simulation};
use tribolab::preset::{Preset, builtin};

fn preset(blocks: usize) -> Preset {
    let mut p = builtin::load("carlson_langer_100").unwrap().unwrap();
    p.set_path("system.blocks", &blocks.to_string()).unwrap();
    p
}

fn rows(p: &Preset, t_end: f64) -> (Simulation, Vec<Vec<f64>>) {
    let mut sim = p.build_simulation().unwrap();
    let mut out = Vec::<Vec<f64>>::new();
    sim.advance(t_end, &mut out).unwrap();
    (sim, out)
}

fn col(sim: &Simulation, role: Role) -> usize {
    sim.columns().iter().position(|c| c.role == role).unwrap()
}

/// `(break-away times, re-stick times, U at each re-stick)` of block 1 from the switch rows
/// (a single block writes a row before and after every switch).
fn switches(sim: &Simulation, r: &[Vec<f64>]) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (ev, stick, u) = (
        col(sim, Role::EventFlag),
        col(sim, Role::Stick(0)),
        col(sim, Role::Position(0)),
    );
    let (mut breaks, mut sticks, mut u_stick) = (vec![], vec![], vec![]);
    for w in r.windows(2) {
        if w[0][ev] == 1.0 && w[1][ev] == 1.0 && w[0][0] == w[1][0] {
            if w[0][stick] == 1.0 && w[1][stick] == 0.0 {
                breaks.push(w[0][0]);
            } else if w[0][stick] == 0.0 && w[1][stick] == 1.0 {
                sticks.push(w[0][0]);
                u_stick.push(w[1][u]);
            }
        }
    }
    (breaks, sticks, u_stick)
}

/// One block, no velocity weakening (α = 0, friction 1 − σ while slipping). With
/// `W = U − ν·τ + (1 − σ)` the slip obeys `Ẅ = −W` from `W = −σ`, `Ẇ = −ν`:
/// `U̇ = σ·sin s + ν·(1 − cos s)` vanishes again at `tan(s/2) = −σ/ν`, so the slip lasts
/// `s* = 2π − 2·arctan(σ/ν)`, ends with the spring force at `1 − 2σ` (W* = σ) and the block
/// sticks for `2σ/ν` until the force is back at 1. Period `T = s* + 2σ/ν`; slip per cycle
/// `ν·T`. With σ = ν = 0.01: s* = 3π/2, T = 3π/2 + 2.
#[test]
fn single_block_cycle_matches_the_closed_form() {
    let mut p = preset(1);
    p.set_path("system.alpha", "0").unwrap();
    p.set_path("system.initial_spread", "0").unwrap();
    p.run.rtol = 1e-10;
    let (sim, r) = rows(&p, 140.0);
    let (breaks, sticks, u_stick) = switches(&sim, &r);
    let (sigma, nu) = (0.01f64, 0.01f64);
    let s_star = std::f64::consts::TAU - 2.0 * (sigma / nu).atan();
    let period = s_star + 2.0 * sigma / nu;
    assert!((s_star - 1.5 * std::f64::consts::PI).abs() < 1e-14);
    // First break-away when the plate has pulled the spring to the threshold: τ = 1/ν.
    assert!((breaks[0] - 1.0 / nu).abs() < 1e-8, "{}", breaks[0]);
    assert!(breaks.len() >= 5, "{breaks:?}");
    for k in 0..4 {
        let slip = sticks[k] - breaks[k];
        assert!((slip - s_star).abs() < 1e-7, "slip {k}: {slip} vs {s_star}");
        let cycle = breaks[k + 1] - breaks[k];
        assert!(
            (cycle - period).abs() < 1e-7,
            "cycle {k}: {cycle} vs {period}"
        );
        // At re-stick the spring force ν·τ − U is 1 − 2σ.
        let force = nu * sticks[k] - u_stick[k];
        assert!((force - (1.0 - 2.0 * sigma)).abs() < 1e-8, "force {force}");
    }
    assert_eq!(
        p.system.params().get("alpha"),
        Some(0.0),
        "the closed form is for α = 0"
    );
    let tribolab::systems::SystemConfig::CarlsonLanger(cl) = &p.system else {
        unreachable!()
    };
    assert!((cl.single_block_period_alpha0() - period).abs() < 1e-12);
}

/// With velocity weakening (α = 2.5) the single block's first slip against an independent
/// fixed-step RK4 integration of `Ü = ν·τ − U − φ(U̇)` from the break-away, stopped where `U̇`
/// returns to zero (located by cubic-free linear interpolation on a 10⁻⁴ step).
#[test]
fn single_block_slip_with_weakening_matches_an_independent_integration() {
    let mut p = preset(1);
    p.set_path("system.initial_spread", "0").unwrap();
    p.run.rtol = 1e-10;
    let (sim, r) = rows(&p, 110.0);
    let (breaks, sticks, u_stick) = switches(&sim, &r);
    let (alpha, sigma, nu) = (2.5f64, 0.01f64, 0.01f64);
    let phi = |v: f64| (1.0 - sigma) / (1.0 + 2.0 * alpha * v / (1.0 - sigma));
    let accel = |t: f64, u: f64, v: f64| nu * t - u - phi(v.max(0.0));
    let (mut t, mut u, mut v) = (1.0 / nu, 0.0f64, 0.0f64);
    let h = 1e-4;
    let mut moved = false;
    loop {
        let (k1u, k1v) = (v, accel(t, u, v));
        let (k2u, k2v) = (
            v + 0.5 * h * k1v,
            accel(t + 0.5 * h, u + 0.5 * h * k1u, v + 0.5 * h * k1v),
        );
        let (k3u, k3v) = (
            v + 0.5 * h * k2v,
            accel(t + 0.5 * h, u + 0.5 * h * k2u, v + 0.5 * h * k2v),
        );
        let (k4u, k4v) = (v + h * k3v, accel(t + h, u + h * k3u, v + h * k3v));
        let un = u + h / 6.0 * (k1u + 2.0 * k2u + 2.0 * k3u + k4u);
        let vn = v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
        if moved && vn <= 0.0 {
            let frac = v / (v - vn);
            t += frac * h;
            u += frac * (un - u);
            break;
        }
        moved |= vn > 1e-9;
        (t, u, v) = (t + h, un, vn);
    }
    assert!((breaks[0] - 1.0 / nu).abs() < 1e-8);
    assert!(
        (sticks[0] - t).abs() < 1e-6,
        "re-stick at {} vs {t}",
        sticks[0]
    );
    assert!((u_stick[0] - u).abs() < 1e-7, "slip {} vs {u}", u_stick[0]);
    // Weakening makes the slip longer than the α = 0 cycle's force drop would: the spring
    // force at re-stick is below 1 − 2σ.
    assert!(
        nu * t - u < 1.0 - 2.0 * sigma,
        "force at re-stick {}",
        nu * t - u
    );
}

/// A chain of 100 blocks over a few hundred time units: no block ever slides backwards,
/// stuck blocks are at rest, several blocks slip, and the energy put in by the plate is
/// stored, kinetic or dissipated to the tolerance.
#[test]
fn chain_never_slips_backwards_and_its_energy_closes() {
    let mut p = preset(100);
    p.run.output_interval_s = 0.5;
    let (sim, r) = rows(&p, 300.0);
    let n = 100;
    let (err, input) = (col(&sim, Role::EnergyError), col(&sim, Role::InputWork));
    let mut slipped = vec![false; n];
    let v_col: Vec<usize> = (0..n).map(|j| col(&sim, Role::Velocity(j))).collect();
    let stick_col: Vec<usize> = (0..n).map(|j| col(&sim, Role::Stick(j))).collect();
    for row in &r {
        for (j, s) in slipped.iter_mut().enumerate() {
            let v = row[v_col[j]];
            let stuck = row[stick_col[j]] == 1.0;
            assert!(v >= -1e-12, "block {j} slides back at {v} (t = {})", row[0]);
            if stuck {
                assert_eq!(v, 0.0, "a stuck block rests");
            } else {
                *s = true;
            }
        }
    }
    assert!(
        slipped.iter().filter(|&&s| s).count() > 50,
        "most blocks slipped"
    );
    let last = r.last().unwrap();
    let worst = r.iter().map(|row| row[err].abs()).fold(0.0, f64::max);
    assert!(last[input] > 1.0, "the plate put in {}", last[input]);
    assert!(
        worst < 1e-5 * last[input],
        "energy error {worst:e} of {}",
        last[input]
    );
}

/// The slip-event catalogue of that single block, built by hand from the closed-form cycle:
/// one event per cycle, epicentre block 1, potency ν·T (the plate's advance in one period, as
/// the block starts and ends each slip at rest), duration s* to within the two output samples
/// that bracket it, peak slip rate max(σ·sin s + ν·(1 − cos s)) = σ·sin(3π/4) + ν·(1 +
/// cos(π/4)) for σ = ν, force drop 2σ (threshold 1 before, 1 − 2σ after).
#[test]
fn catalogue_of_the_single_block_is_its_cycle() {
    use tribolab::analysis::chain_catalogue::ChainCatalogue;
    use tribolab::integrate::SampleSink;
    struct Feed<'a>(&'a mut ChainCatalogue);
    impl SampleSink for Feed<'_> {
        fn push(&mut self, row: &[f64]) {
            self.0.push_row(row);
        }
    }
    let mut p = preset(1);
    p.set_path("system.alpha", "0").unwrap();
    p.set_path("system.initial_spread", "0").unwrap();
    p.run.rtol = 1e-10;
    let dt = 0.01;
    p.run.output_interval_s = dt;
    let mut sim = p.build_simulation().unwrap();
    let mut cat = ChainCatalogue::new(&sim.columns(), &p.system.layout()).unwrap();
    sim.advance(200.0, &mut Feed(&mut cat)).unwrap();
    let events = cat.finish();
    let (sigma, nu) = (0.01f64, 0.01f64);
    let s_star = std::f64::consts::TAU - 2.0 * (sigma / nu).atan();
    let period = s_star + 2.0 * sigma / nu;
    let complete: Vec<_> = events.iter().filter(|e| !e.truncated).collect();
    // Break-aways at 1/ν + k·T; those whose slip ends before τ = 200 are complete.
    let expected = (0..)
        .map(|k| 1.0 / nu + k as f64 * period)
        .take_while(|b| b + s_star < 200.0 - dt)
        .count();
    assert_eq!(complete.len(), expected, "{events:?}");
    let peak = sigma * (0.75 * std::f64::consts::PI).sin() + nu * (1.0 + 0.5f64.sqrt());
    for (k, e) in complete.iter().enumerate() {
        let b = 1.0 / nu + k as f64 * period;
        assert_eq!((e.epicentre, e.blocks), (0, 1), "event {k}");
        assert!(
            (e.potency_m - nu * period).abs() < 1e-8,
            "event {k}: potency {} vs {}",
            e.potency_m,
            nu * period
        );
        assert!((e.magnitude - (nu * period).log10()).abs() < 1e-6);
        assert!(
            e.start_s <= b && e.start_s > b - dt - 1e-9,
            "event {k} starts {}",
            e.start_s
        );
        let d = e.duration_s();
        assert!(
            d >= s_star - 1e-9 && d <= s_star + 2.0 * dt + 1e-9,
            "event {k}: duration {d} vs {s_star}"
        );
        assert!(
            (e.peak_slip_rate_mps - peak).abs() < 1e-6,
            "event {k}: peak {}",
            e.peak_slip_rate_mps
        );
        assert!(
            (e.force_drop_n - 2.0 * sigma).abs() < 2.0 * nu * dt,
            "event {k}: force drop {}",
            e.force_drop_n
        );
    }
}

/// Rows of a run through the runner the window and `tribolab events` use.
fn runner_rows(p: &Preset, t_end: f64) -> (tribolab::integrate::Runner, Vec<Vec<f64>>) {
    let mut run = p.build_runner().unwrap();
    let mut out = Vec::<Vec<f64>>::new();
    run.advance(t_end, &mut out).unwrap();
    (run, out)
}

/// Chains longer than ten blocks run by the active-set scheme, which integrates only the
/// slipping blocks. It must follow the same solution as the generic driver stepping every
/// block: at a tight tolerance both agree to 1e-8 until the chaos of the first large events
/// (τ ≈ 200) separates any two runs, much closer than either agrees with itself at rtol
/// 1e-9; it keeps the energy account and never slips backwards; another integrator chosen
/// in the preset goes back to the generic driver.
#[test]
fn the_active_set_scheme_follows_the_generic_driver() {
    use tribolab::integrate::Runner;
    let mut p = preset(30);
    p.run.rtol = 1e-12;
    p.run.output_interval_s = 10.0;
    let (run, fast) = runner_rows(&p, 160.0);
    assert!(
        matches!(run, Runner::Engine(_)),
        "30 blocks: the active-set scheme"
    );
    let mut q = p.clone();
    q.set_path("run.integrator", "Dopri5").unwrap();
    let (generic, slow) = runner_rows(&q, 160.0);
    assert!(matches!(generic, Runner::Flow(_)));
    let cols = run.columns();
    assert_eq!(cols, generic.columns());
    let ev = cols.iter().position(|c| c.role == Role::EventFlag).unwrap();
    let regular = |r: Vec<Vec<f64>>| -> Vec<Vec<f64>> {
        r.into_iter().filter(|row| row[ev] == 0.0).collect()
    };
    let (fast, slow) = (regular(fast), regular(slow));
    assert_eq!(fast.len(), slow.len());
    let positions: Vec<usize> = (0..30)
        .map(|j| {
            cols.iter()
                .position(|c| c.role == Role::Position(j))
                .unwrap()
        })
        .collect();
    let mut moved = 0.0f64;
    for (a, b) in fast.iter().zip(&slow) {
        assert_eq!(a[0], b[0]);
        for &c in &positions {
            assert!(
                (a[c] - b[c]).abs() < 1e-8,
                "τ = {}: U {} vs {}",
                a[0],
                a[c],
                b[c]
            );
            moved = moved.max(a[c].abs());
        }
    }
    assert!(moved > 0.5, "the blocks slipped ({moved})");
    // Long run: energy account and forward slip only.
    let mut p = preset(60);
    p.run.output_interval_s = 0.5;
    p.run.rtol = 1e-8;
    let (run, r) = runner_rows(&p, 1500.0);
    let cols = run.columns();
    let err = cols
        .iter()
        .position(|c| c.role == Role::EnergyError)
        .unwrap();
    let e_spring = cols
        .iter()
        .position(|c| c.role == Role::StoredEnergy)
        .unwrap();
    let stored = r.last().unwrap()[e_spring];
    for row in &r {
        assert!(
            row[err].abs() < 1e-6 * stored.max(1.0),
            "τ = {}: ΔE = {}",
            row[0],
            row[err]
        );
        for j in 0..60 {
            let v = cols
                .iter()
                .position(|c| c.role == Role::Velocity(j))
                .unwrap();
            assert!(
                row[v] >= -1e-12,
                "block {j} slips backwards at τ = {}: {}",
                row[0],
                row[v]
            );
        }
    }
    assert!(run.stats().events > 500, "{:?}", run.stats());
}

/// A live change of the plate speed keeps the active-set run going, and the closed-form
/// break-away times follow: with the plate twice as fast, the first break-away of a chain at
/// rest comes at half the time.
#[test]
fn the_active_set_scheme_takes_live_changes() {
    let mut p = preset(20);
    p.set_path("system.initial_spread", "0").unwrap();
    p.run.output_interval_s = 0.1;
    let first_slip = |p: &Preset, change: Option<f64>| -> f64 {
        let mut run = p.build_runner().unwrap();
        let mut out = Vec::<Vec<f64>>::new();
        run.advance(10.0, &mut out).unwrap();
        if let Some(nu) = change {
            let mut q = p.clone();
            q.set_path("system.plate_speed", &nu.to_string()).unwrap();
            run.reconfigure(&q.spec()).unwrap();
        }
        run.advance(200.0, &mut out).unwrap();
        let cols = run.columns();
        let stick = cols.iter().position(|c| c.role == Role::Stick(0)).unwrap();
        out.iter().find(|r| r[stick] == 0.0).unwrap()[0]
    };
    // Plate at ν = 0.01 from rest: every block at the threshold at τ = 1/ν = 100.
    let base = first_slip(&p, None);
    assert!((base - 100.0).abs() <= 0.1 + 1e-9, "{base}");
    // ν = 0.02 from τ = 10: the leaf springs hold 0.1, the rest takes (1 − 0.1)/0.02 = 45.
    let faster = first_slip(&p, Some(0.02));
    assert!((faster - 55.0).abs() <= 0.1 + 1e-9, "{faster}");
}
