//! A parameter change applied to a running simulation keeps the state, the discrete modes and
//! the laws' memories (`Simulation::reconfigure` → `Model::resume`): one regression test for
//! every law with memory, each changing parameters at a moment where that memory matters —
//! Armstrong in the middle of a long stick (pre-sliding strain and dwell time), GMS with
//! slipping elements, the irreversibility laws in the middle of a slip (filtered acceleration
//! and branch), subloading-overstress while sliding, Maxwell-slip with deflected elements.
//!
//! Each run is compared with the same run without the change. The change is a nudge of a
//! parameter that hardly matters over the compared stretch (the damping by 1e-9 of itself), so
//! the continuation must follow the undisturbed run to the integration tolerance; a restart of
//! the law's memory (what `initialize` used to do) departs from it at once. Choosing the modes
//! afresh instead made the Armstrong and both irreversibility tests fail (the stuck block
//! slipped; the filtered acceleration `v_f` jumped by 0.4–0.5 % of its range). GMS's slipping
//! elements below their threshold and the subloading law's static ratio inside its surface are
//! checked by unit tests next to those laws (their moments are hard to hit in a whole run);
//! Maxwell-slip keeps its memory in the deflections themselves, so its test guards the path.

use tribolab::integrate::Role;
use tribolab::preset::{Preset, builtin};

fn preset(stem: &str) -> Preset {
    builtin::load(stem)
        .expect("built-in preset")
        .expect("preset loads")
}

/// Runs `p` to `t_end`, applying `changed` live at `t_change` when given; the rows after
/// `t_change` (regular samples only).
fn run(p: &Preset, t_change: f64, t_end: f64, changed: Option<&Preset>) -> Vec<Vec<f64>> {
    let mut sim = p.build_simulation().expect("simulation starts");
    let mut rows = Vec::<Vec<f64>>::new();
    sim.advance(t_change, &mut rows)
        .expect("runs to the change");
    if let Some(c) = changed {
        sim.reconfigure(&c.spec()).expect("a live change");
    }
    let mut after = Vec::<Vec<f64>>::new();
    sim.advance(t_end, &mut after).expect("runs on");
    let ev = sim.columns().len() - 1;
    after.into_iter().filter(|r| r[ev] == 0.0).collect()
}

/// The same preset with its (first) damping nudged down by 1e-9 of itself (or set to
/// 1e-9 N·s/m when zero).
fn nudged(p: &Preset) -> Preset {
    let mut q = p.clone();
    let params = q.system.params_mut();
    let key = params
        .meta()
        .iter()
        .find(|m| m.key.starts_with("damping"))
        .map(|m| m.key)
        .expect("a damping parameter");
    let c = params.get(key).expect("damping");
    params
        .set(key, if c > 0.0 { c * (1.0 - 1e-9) } else { 1e-9 })
        .expect("a valid damping");
    q
}

/// History column of the first column with `role`.
fn column(p: &Preset, role: Role) -> usize {
    let sim = p.build_simulation().expect("simulation starts");
    sim.columns()
        .iter()
        .position(|c| c.role == role)
        .expect("the column")
}

/// Largest difference of column `k` between two runs, relative to the column's largest
/// magnitude in the undisturbed one.
fn relative_departure(a: &[Vec<f64>], b: &[Vec<f64>], k: usize) -> f64 {
    assert_eq!(a.len(), b.len(), "same sample grid");
    let scale = a.iter().map(|r| r[k].abs()).fold(0.0, f64::max).max(1e-300);
    a.iter()
        .zip(b)
        .map(|(ra, rb)| (ra[k] - rb[k]).abs())
        .fold(0.0, f64::max)
        / scale
}

/// The first time after `after_s` where the stick flag of contact 0 has held `stuck` for
/// `min_s`, plus half of it (the middle of a stick or slip of at least twice `min_s`).
fn inside_phase(p: &Preset, after_s: f64, until_s: f64, stuck: bool, min_s: f64) -> f64 {
    let rows = run(p, 0.0, until_s, None);
    let (it, is) = (0, column(p, Role::Stick(0)));
    let mut since = None;
    for r in &rows {
        let here = (r[is] > 0.5) == stuck;
        match (here, since) {
            (true, None) if r[it] > after_s => since = Some(r[it]),
            (true, Some(t0)) if r[it] - t0 >= min_s => return t0 + 0.5 * min_s,
            (false, _) => since = None,
            _ => {}
        }
    }
    panic!("no phase of {min_s} s between {after_s} and {until_s} s");
}

/// `before_end_s` before the end of the first complete stick (`stuck`) or slip phase that
/// starts after `after_s`.
fn late_in_phase(p: &Preset, after_s: f64, until_s: f64, stuck: bool, before_end_s: f64) -> f64 {
    let rows = run(p, 0.0, until_s, None);
    let is = column(p, Role::Stick(0));
    let mut started = None;
    for w in rows.windows(2) {
        let (a, b) = ((w[0][is] > 0.5) == stuck, (w[1][is] > 0.5) == stuck);
        match (a, b, started) {
            (false, true, None) if w[1][0] > after_s => started = Some(w[1][0]),
            (true, false, Some(t0)) if w[0][0] - before_end_s > t0 => {
                return w[0][0] - before_end_s;
            }
            _ => {}
        }
    }
    panic!("no complete phase between {after_s} and {until_s} s");
}

/// Runs the comparison: the nudged run must follow the undisturbed one in position, velocity
/// and every law state, to `tol` of each column's magnitude, over `span_s` after the change.
fn check(stem: &str, t_change: f64, span_s: f64, tol: f64) {
    let p = preset(stem);
    let q = nudged(&p);
    let a = run(&p, t_change, t_change + span_s, None);
    let b = run(&p, t_change, t_change + span_s, Some(&q));
    let sim = p.build_simulation().expect("simulation starts");
    let watched: Vec<(usize, String)> = sim
        .columns()
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            matches!(
                c.role,
                Role::Position(_) | Role::Velocity(_) | Role::LawState { .. } | Role::Stick(_)
            )
        })
        .map(|(k, c)| (k, c.name.clone()))
        .collect();
    for (k, name) in watched {
        let d = relative_departure(&a, &b, k);
        assert!(
            d <= tol,
            "{stem}: `{name}` departs by {d:.2e} of its range after a live change at \
             t = {t_change} s (tolerance {tol:.0e})"
        );
    }
}

/// Armstrong: a nudge in the middle of a long stick keeps the pre-sliding strain `x_s` and the
/// dwell time; resetting them made the stuck block slip at once.
#[test]
fn armstrong_keeps_its_stick_and_dwell_memory() {
    let p = preset("seven_parameter_dwell");
    let t = inside_phase(&p, 2.0, 60.0, true, 0.6);
    check("seven_parameter_dwell", t, 3.0, 1e-5);
}

/// GMS: a nudge near the end of a stick, while the elements break away one after another,
/// keeps which elements slip and their forces (slipping elements sit below their thresholds,
/// so choosing the modes afresh would make them stick again).
#[test]
fn gms_keeps_its_slipping_elements() {
    let p = preset("gms_stick_slip");
    let t = late_in_phase(&p, 2.0, 60.0, true, 0.3);
    check("gms_stick_slip", t, 3.0, 1e-5);
}

/// Powell–Wiercigroch: a nudge mid-slip keeps the filtered acceleration and the branch.
#[test]
fn irreversibility_keeps_its_branch_mid_slip() {
    let p = preset("powell_wiercigroch");
    let t = inside_phase(&p, 2.0, 60.0, false, 0.05);
    check("powell_wiercigroch", t, 3.0, 1e-5);
}

/// Stefański–Wojewoda: the same with the acceleration-dependent lower branch.
#[test]
fn stefanski_keeps_its_branch_mid_slip() {
    let p = preset("stefanski");
    let t = inside_phase(&p, 2.0, 60.0, false, 0.05);
    check("stefanski", t, 3.0, 1e-5);
}

/// Subloading-overstress: a nudge while sliding keeps the friction coefficient state, the
/// plastic slip and the quasi-static ratio.
#[test]
fn subloading_keeps_its_states_while_sliding() {
    // Past the peak (about 11 s at 0.2 µm/s): viscoplastic slip and softening under way. The
    // creep velocity (≈ 0.2 µm/s against a 1e6 N/m spring and 100 N·s/m) shows the step-size
    // restart at 2.5e-5 of its range; the states follow to 1e-8.
    check("subloading_dry", 15.0, 5.0, 1e-4);
}

/// Maxwell-slip: a nudge keeps the elements' deflections and which of them slip.
#[test]
fn maxwell_slip_keeps_its_element_deflections() {
    let p = preset("maxwell_slip");
    let t = inside_phase(&p, 2.0, 60.0, false, 0.05);
    check("maxwell_slip", t, 3.0, 1e-5);
}

/// A live change that lowers the static threshold below the holding force breaks a stuck
/// contact away at once, as its event would have.
#[test]
fn a_lowered_static_threshold_breaks_a_stuck_block_away() {
    let p = preset("coulomb_stick_slip_undamped");
    let t = inside_phase(&p, 1.0, 10.0, true, 0.15);
    let mut sim = p.build_simulation().expect("simulation starts");
    let mut rows = Vec::<Vec<f64>>::new();
    sim.advance(t, &mut rows).expect("runs");
    let is = column(&p, Role::Stick(0));
    assert_eq!(
        rows.last().expect("rows")[is],
        1.0,
        "stuck before the change"
    );
    let mut q = p.clone();
    // Mid-stick the spring holds 2.75 N; the new threshold is 0.25·10 N = 2.5 N.
    q.set_path("law.mu_k", "0.2").expect("a valid μ_K");
    q.set_path("law.mu_s", "0.25").expect("a valid μ_S");
    // The change applies where the integration stands (rows up to there were observed
    // before it).
    let t_change = sim.time_s();
    sim.reconfigure(&q.spec()).expect("a live change");
    let mut after = Vec::<Vec<f64>>::new();
    sim.advance(t_change + 0.01, &mut after).expect("runs on");
    let later: Vec<&Vec<f64>> = after.iter().filter(|r| r[0] > t_change).collect();
    assert!(
        !later.is_empty() && later.iter().all(|r| r[is] == 0.0),
        "the block slips as soon as μ_S·N falls below the spring force"
    );
}

/// A new belt speed while a block sticks: the block keeps its velocity (no impulse can make it
/// follow the belt at once), so it slides relative to the new belt speed instead of staying
/// "stuck" at the old one; and a slipping block whose slip a belt-speed jump reverses slides
/// the other way without being snapped onto the belt.
#[test]
fn a_belt_speed_change_releases_a_stuck_block_and_reverses_a_slip() {
    let p = preset("coulomb_stick_slip_undamped");
    let iv = column(&p, Role::Velocity(0));
    let (is, ir) = (
        column(&p, Role::Stick(0)),
        column(&p, Role::SlipVelocity(0)),
    );
    for (stuck, rpm) in [(true, "4.7746"), (false, "0.5")] {
        // Mid-stick; or late in a slip, where the block is about as fast as the belt again
        // and a slower belt turns its slip from backwards to forwards.
        let t = if stuck {
            inside_phase(&p, 1.0, 10.0, true, 0.15)
        } else {
            late_in_phase(&p, 1.0, 10.0, false, 0.03)
        };
        let mut sim = p.build_simulation().expect("simulation starts");
        let mut rows = Vec::<Vec<f64>>::new();
        sim.advance(t, &mut rows).expect("runs");
        let t_change = sim.time_s();
        let v_before = sim.state()[1];
        let mut q = p.clone();
        q.set_path("system.wheel_rpm", rpm).expect("a valid speed");
        sim.reconfigure(&q.spec()).expect("a live change");
        let mut after = Vec::<Vec<f64>>::new();
        sim.advance(t_change + 0.002, &mut after).expect("runs on");
        let first = after
            .iter()
            .find(|r| r[0] > t_change)
            .expect("a row after the change");
        assert_eq!(first[is], 0.0, "stuck = {stuck}: slides after the change");
        // Within the first sample the block accelerates by a few m/s² at most; a snap onto
        // the new belt would jump by |v − v_b|.
        let v_b = 2.0 * std::f64::consts::PI * 0.1 * rpm.parse::<f64>().expect("a number") / 60.0;
        assert!(
            (first[iv] - v_before).abs() < 0.2 * (v_before - v_b).abs(),
            "stuck = {stuck}: velocity {} m/s kept from {v_before} m/s (new belt {v_b} m/s)",
            first[iv]
        );
        assert!(
            (first[ir] - (first[iv] - v_b)).abs() < 1e-12 && first[ir] > 0.0,
            "stuck = {stuck}: v_rel = {} against the new belt",
            first[ir]
        );
    }
}
