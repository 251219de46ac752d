//! Fixed-step RK4 in statically dispatched batches (`Model::rk4_batch`) must be the general
//! path bit for bit: same samples, same event rows, same step count, same error. Each run
//! is repeated with the model wrapped so it declines batches, and the two are compared.

use tribolab::integrate::driver::{DriverSettings, SectionId};
use tribolab::integrate::{Column, Method, Model, SampleSink, SimError, Simulation};
use tribolab::laws::NormalLoadNoise;
use tribolab::preset::{Preset, builtin};

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
    fn max_step_s(&self) -> f64 {
        self.0.max_step_s()
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
    let noise = p.noise.clone().map(NormalLoadNoise::new);
    let (model, y0) = p.system.build(&p.law, noise);
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
    error: Option<String>,
}

/// Runs to `t_end` in `chunks` calls of `advance` (as the window's worker does), with the
/// model's Poincaré sections and the stroboscopic section at `strobe_s` when asked.
fn run(p: &Preset, batched: bool, t_end: f64, chunks: usize, strobe_s: Option<f64>) -> Outcome {
    let mut sim = simulation(p, batched);
    if strobe_s.is_some() {
        sim.track_sections(strobe_s);
    }
    let mut out = Collected::default();
    for i in 1..=chunks {
        if let Err(e) = sim.advance(t_end * i as f64 / chunks as f64, &mut out) {
            let steps = sim.stats().steps;
            return Outcome {
                out,
                steps,
                error: Some(e.to_string()),
            };
        }
    }
    let steps = sim.stats().steps;
    Outcome {
        out,
        steps,
        error: None,
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
    assert_eq!(b.error, None, "{stem}: general run failed");
    assert_eq!(a.steps, b.steps, "{stem}: step counts differ");
    assert_eq!(
        a.out.rows.len(),
        b.out.rows.len(),
        "{stem}: row counts differ"
    );
    for (ra, rb) in a.out.rows.iter().zip(&b.out.rows) {
        assert_eq!(bits(ra), bits(rb), "{stem}: rows differ at t = {}", ra[0]);
    }
    assert_eq!(
        a.out.points.len(),
        b.out.points.len(),
        "{stem}: point counts differ"
    );
    for ((ia, pa), (ib, pb)) in a.out.points.iter().zip(&b.out.points) {
        assert_eq!(ia, ib, "{stem}: section differs at t = {}", pa[0]);
        assert_eq!(bits(pa), bits(pb), "{stem}: point differs at t = {}", pa[0]);
    }
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

/// A step far beyond RK4's stability limit for the stiff bristles: both paths stop with the
/// same typed error (same time, same state component, same value).
#[test]
fn divergence_is_reported_identically() {
    let p = preset(
        "lugre_canudas_1995",
        &[("run.rk4_dt", "1e-2"), ("run.output_interval", "0.1")],
    );
    let err_a = run(&p, true, 5.0, 1, None).error;
    let err_b = run(&p, false, 5.0, 1, None).error;
    let err_a = err_a.expect("RK4 at 1e-2 s must diverge on σ₀ = 1e5 N/m");
    assert_eq!(Some(err_a.clone()), err_b);
    assert!(err_a.contains("t = "), "message names the time: {err_a}");
}
