//! Fixed-step RK4 in statically dispatched batches (`Model::rk4_batch`) must be the general
//! path bit for bit: same samples, same event rows, same step count, same error. Each run
//! is repeated with the model wrapped so it declines batches, and the two are compared.

use tribolab::integrate::driver::{DriverSettings, SectionId};
use tribolab::integrate::rk4_batch::{BatchRhs, Rk4Batch};
use tribolab::integrate::{Column, Method, Model, SampleSink, SimError, Simulation};
use tribolab::preset::{Preset, builtin};
use tribolab::systems::{Restart, SystemSpec};

/// The model with every method delegated except `rk4_batch` (default: decline).
struct Unbatched(Box<dyn Model + Send>);

impl Model for Unbatched {
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn n_quadratures(&self) -> usize {
        self.0.n_quadratures()
    }
    fn state_names(&self) -> Vec<String> {
        self.0.state_names()
    }
    fn state_scales(&self, scales: &mut [f64]) {
        self.0.state_scales(scales);
    }
    fn is_autonomous(&self) -> bool {
        self.0.is_autonomous()
    }
    fn max_step_s(&self, t_s: f64) -> f64 {
        self.0.max_step_s(t_s)
    }
    fn next_breakpoint_s(&self, t: f64) -> f64 {
        self.0.next_breakpoint_s(t)
    }
    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.0.initialize(t, y)
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.0.rhs(t, y, dy);
    }
    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        self.0.jacobian(t, y, jac)
    }
    fn n_events(&self) -> usize {
        self.0.n_events()
    }
    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        self.0.events(t, y, g);
    }
    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.0.apply_event(index, t, y)
    }
    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        self.0.after_step(t, y)
    }
    fn columns(&self) -> Vec<Column> {
        self.0.columns()
    }
    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        self.0.observe(t, y, row);
    }
    fn prefers_implicit(&self) -> bool {
        self.0.prefers_implicit()
    }
    fn section_names(&self) -> Vec<String> {
        self.0.section_names()
    }
    fn reconfigure(&mut self, spec: &SystemSpec) -> Result<(), Restart> {
        self.0.reconfigure(spec)
    }
    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.0.resume(t, y)
    }
    fn sections(&self, t: f64, y: &[f64], s: &mut [f64]) {
        self.0.sections(t, y, s);
    }
}

/// Rows and Poincaré points of a run.
#[derive(Default)]
struct Collected {
    rows: Vec<Vec<f64>>,
    points: Vec<(SectionId, Vec<f64>)>,
}

impl SampleSink for Collected {
    fn push(&mut self, row: &[f64]) {
        self.rows.push(row.to_vec());
    }
    fn push_section(&mut self, section: SectionId, row: &[f64]) {
        self.points.push((section, row.to_vec()));
    }
}

fn bits(r: &[f64]) -> Vec<u64> {
    r.iter().map(|v| v.to_bits()).collect()
}

fn preset(stem: &str, sets: &[(&str, &str)]) -> Preset {
    let mut p = builtin::load(stem)
        .expect("built-in preset")
        .expect("preset loads");
    p.run.integrator = Method::Rk4;
    for (path, value) in sets {
        p.set_path(path, value).expect("valid --set");
    }
    p
}

fn simulation(p: &Preset, batched: bool) -> Simulation {
    let (model, y0) = p.build_model();
    let model: Box<dyn Model + Send> = if batched {
        model
    } else {
        Box::new(Unbatched(model))
    };
    let settings = DriverSettings {
        method: Method::Rk4,
        ..p.driver_settings()
    };
    Simulation::new(model, y0, 0.0, settings).expect("simulation starts")
}

/// What a run produced: rows, Poincaré points, step count, and the error if it stopped on one.
struct Outcome {
    out: Collected,
    steps: u64,
    batched_steps: u64,
    error: Option<String>,
}

/// Runs to `t_end` in `chunks` calls of `advance` (as the window's worker does), with the
/// model's Poincaré sections and the stroboscopic section at `strobe_s` when asked.
fn run(p: &Preset, batched: bool, t_end: f64, chunks: usize, strobe_s: Option<f64>) -> Outcome {
    run_with(p, batched, t_end, chunks, strobe_s, |_| {})
}

/// As [`run`], calling `change` on the simulation after the first chunk (a live edit).
fn run_with(
    p: &Preset,
    batched: bool,
    t_end: f64,
    chunks: usize,
    strobe_s: Option<f64>,
    change: impl Fn(&mut Simulation),
) -> Outcome {
    let mut sim = simulation(p, batched);
    if strobe_s.is_some() {
        sim.track_sections(strobe_s);
    }
    let mut out = Collected::default();
    let mut error = None;
    for i in 1..=chunks {
        if let Err(e) = sim.advance(t_end * i as f64 / chunks as f64, &mut out) {
            error = Some(e.to_string());
            break;
        }
        if i == 1 {
            change(&mut sim);
        }
    }
    let stats = sim.stats();
    Outcome {
        out,
        steps: stats.steps,
        batched_steps: stats.batched_steps,
        error,
    }
}

/// Both runs produced the same rows, points, step counts and error; the batched one took
/// most of its steps in batches, the other none.
fn assert_outcomes_equal(name: &str, a: &Outcome, b: &Outcome) {
    assert_eq!(a.error, b.error, "{name}: errors differ");
    assert_eq!(a.steps, b.steps, "{name}: step counts differ");
    assert_eq!(
        b.batched_steps, 0,
        "{name}: the wrapped model must not batch"
    );
    assert!(
        a.batched_steps as f64 >= 0.9 * a.steps as f64,
        "{name}: only {} of {} steps in batches",
        a.batched_steps,
        a.steps
    );
    assert_eq!(
        a.out.rows.len(),
        b.out.rows.len(),
        "{name}: row counts differ"
    );
    for (ra, rb) in a.out.rows.iter().zip(&b.out.rows) {
        assert_eq!(bits(ra), bits(rb), "{name}: rows differ at t = {}", ra[0]);
    }
    assert_eq!(
        a.out.points.len(),
        b.out.points.len(),
        "{name}: point counts differ"
    );
    for ((ia, pa), (ib, pb)) in a.out.points.iter().zip(&b.out.points) {
        assert_eq!(ia, ib, "{name}: section differs at t = {}", pa[0]);
        assert_eq!(bits(pa), bits(pb), "{name}: point differs at t = {}", pa[0]);
    }
}

fn assert_same(stem: &str, sets: &[(&str, &str)], t_end: f64, min_events: usize) {
    assert_same_with(stem, sets, t_end, min_events, None, 0);
}

fn assert_same_with(
    stem: &str,
    sets: &[(&str, &str)],
    t_end: f64,
    min_events: usize,
    strobe_s: Option<f64>,
    min_points: usize,
) {
    let p = preset(stem, sets);
    let a = run(&p, true, t_end, 7, strobe_s);
    let b = run(&p, false, t_end, 7, strobe_s);
    assert_eq!(a.error, None, "{stem}: batched run failed");
    assert_outcomes_equal(stem, &a, &b);
    assert!(
        a.out.points.len() >= min_points,
        "{stem}: only {} Poincaré points",
        a.out.points.len()
    );
    let events = a.out.rows.iter().filter(|r| r.last() == Some(&1.0)).count();
    assert!(
        events >= min_events,
        "{stem}: only {events} event rows, the test should cross events inside batches"
    );
}

/// LuGre (W1): velocity-reversal events end batches; output every millisecond.
#[test]
fn lugre_batches_equal_the_general_path_bit_for_bit() {
    assert_same(
        "lugre_canudas_1995",
        &[("run.output_interval", "0.001")],
        20.0,
        6,
    );
}

/// Set-valued static/kinetic law: stick↔slip events from the law itself, RK4 at 1e-4 s.
#[test]
fn set_valued_stick_slip_batches_equal_the_general_path() {
    assert_same(
        "coulomb_stick_slip_undamped",
        &[("run.rk4_dt", "1e-4"), ("run.output_interval", "0.01")],
        20.0,
        4,
    );
}

/// S1 bench with the belt joint (time-varying load: the other compiled variant) and a
/// smoothed Stribeck law, plus load noise.
#[test]
fn varying_load_batches_equal_the_general_path() {
    assert_same(
        "s1_bench_19_36rpm",
        &[
            ("law.sign", "Tanh(1e-3)"),
            ("noise", "on"),
            ("run.rk4_dt", "1e-4"),
            ("run.output_interval", "0.005"),
        ],
        10.0,
        0,
    );
}

/// Poincaré tracking as in the window (model sections plus the stroboscopic section at the
/// belt-turn period): batches stop before each crossing and strobe time, and every point is
/// the general path's.
#[test]
fn poincare_points_are_the_general_paths() {
    let p = preset("s1_bench_19_36rpm", &[("law.sign", "Tanh(1e-3)")]);
    let strobe = p.system.forcing_period_s();
    assert!(
        strobe.is_some(),
        "the S1 bench with its joint is periodically forced"
    );
    assert_same_with(
        "s1_bench_19_36rpm",
        &[
            ("law.sign", "Tanh(1e-3)"),
            ("run.rk4_dt", "1e-4"),
            ("run.output_interval", "0.01"),
        ],
        20.0,
        0,
        strobe,
        20,
    );
    assert_same_with(
        "lugre_canudas_1995",
        &[("run.output_interval", "0.01")],
        20.0,
        6,
        Some(1.0),
        20,
    );
}

/// Armstrong's seven-parameter law (two states: dimension 7) with its dwell-time events, and
/// the S1 bench with its set-valued law and belt joint (time-varying load with stick/slip
/// events inside batches).
#[test]
fn dimension_seven_and_varying_load_with_events() {
    assert_same(
        "seven_parameter_dwell",
        &[("run.rk4_dt", "1e-5"), ("run.output_interval", "0.01")],
        5.0,
        0,
    );
    assert_same(
        "s1_bench_19_36rpm",
        &[("run.rk4_dt", "1e-4"), ("run.output_interval", "0.01")],
        20.0,
        4,
    );
}

/// A live edit in the middle of the run (stiffer spring, as a slider does: new parameters
/// through `reconfigure`): both paths continue identically from it.
#[test]
fn live_parameter_change_keeps_the_paths_equal() {
    let p = preset("lugre_canudas_1995", &[("run.output_interval", "0.002")]);
    let mut stiff = p.clone();
    stiff
        .set_path("system.stiffness", "5")
        .expect("a valid stiffness");
    let spec = stiff.spec();
    let stiffer = |sim: &mut Simulation| {
        sim.reconfigure(&spec).expect("a live change");
    };
    let a = run_with(&p, true, 20.0, 5, None, stiffer);
    let b = run_with(&p, false, 20.0, 5, None, stiffer);
    assert_eq!(a.error, None);
    assert_outcomes_equal("live change", &a, &b);
    // The change took effect: the spring force k·x is now 5·x.
    let last = a.out.rows.last().expect("rows");
    let (x, spring) = (last[1], last[5]);
    assert!(
        (spring + 5.0 * x).abs() < 1e-12,
        "spring {spring} at x = {x}"
    );
}

/// A step far beyond RK4's stability limit for the stiff bristles: both paths stop with the
/// same typed error (same time, same state component, same value) after the same rows, and
/// the blow-up is met inside a batch.
#[test]
fn divergence_is_reported_identically() {
    let p = preset(
        "lugre_canudas_1995",
        &[("run.rk4_dt", "2e-3"), ("run.output_interval", "1")],
    );
    let a = run(&p, true, 20.0, 1, None);
    let b = run(&p, false, 20.0, 1, None);
    let err = a
        .error
        .clone()
        .expect("RK4 at 2e-3 s must diverge on σ₀ = 1e5 N/m");
    assert!(
        err.contains("diverged at t = "),
        "message names the time: {err}"
    );
    assert_outcomes_equal("divergence", &a, &b);
}

/// Models outside the compiled dimensions (9 and 300 states: uncoupled oscillators, the
/// generic loop) that implement batches themselves through the public API, with one event
/// function.
#[test]
fn generic_dimension_batches_equal_the_general_path() {
    for n_osc in [3, 100] {
        let run = |batched: bool| {
            let model = Oscillators { n_osc, batched };
            let y0 = (0..model.dim()).map(|i| 1.0 + i as f64).collect();
            let settings = DriverSettings {
                method: Method::Rk4,
                rtol: 1e-8,
                rk4_dt_s: 1e-3,
                output_interval_s: 0.05,
            };
            let mut sim = Simulation::new(Box::new(model), y0, 0.0, settings).expect("starts");
            let mut out = Collected::default();
            sim.advance(10.0, &mut out).expect("runs");
            Outcome {
                out,
                steps: sim.stats().steps,
                batched_steps: sim.stats().batched_steps,
                error: None,
            }
        };
        let (a, b) = (run(true), run(false));
        let name = format!("{} states", 3 * n_osc);
        assert_outcomes_equal(&name, &a, &b);
        assert_eq!(
            a.out.rows[0].len(),
            1 + 3 * n_osc + 1,
            "{name}: t, states, event flag"
        );
        let events = a.out.rows.iter().filter(|r| r.last() == Some(&1.0)).count();
        assert!(events >= 4, "{name}: {events} event rows");
    }
}

/// `ẍ_i = −ω_i² x_i` (ω_i = 3 + i rad/s) for `n_osc` oscillators in (x, v) pairs plus `n_osc`
/// pure integrals of `x_i²`; one event (x₀ falling through 0) that changes nothing.
struct Oscillators {
    n_osc: usize,
    batched: bool,
}

impl BatchRhs for Oscillators {
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let m = self.n_osc;
        for i in 0..m {
            let w = 3.0 + i as f64;
            dy[2 * i] = y[2 * i + 1];
            dy[2 * i + 1] = -w * w * y[2 * i];
            dy[2 * m + i] = y[2 * i] * y[2 * i];
        }
    }
    fn events(&self, _t: f64, y: &[f64], g: &mut [f64]) {
        g[0] = y[0];
    }
    fn sections(&self, _t: f64, _y: &[f64], _s: &mut [f64]) {}
}

impl Model for Oscillators {
    fn dim(&self) -> usize {
        3 * self.n_osc
    }
    fn n_quadratures(&self) -> usize {
        self.n_osc
    }
    fn state_names(&self) -> Vec<String> {
        (0..self.dim()).map(|i| format!("y{i}")).collect()
    }
    fn state_scales(&self, scales: &mut [f64]) {
        scales.fill(1.0);
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        BatchRhs::rhs(self, t, y, dy);
    }
    fn n_events(&self) -> usize {
        1
    }
    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        BatchRhs::events(self, t, y, g);
    }
    fn columns(&self) -> Vec<Column> {
        (0..self.dim())
            .map(|i| Column::new(format!("y{i}"), ""))
            .collect()
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row.copy_from_slice(y);
    }
    fn rk4_batch(&self, batch: &mut Rk4Batch<'_>) -> bool {
        if self.batched {
            batch.run(self);
        }
        self.batched
    }
    fn prefers_implicit(&self) -> bool {
        false
    }
}
