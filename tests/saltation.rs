//! Tangent dynamics through mode switches with state resets (MODELS §4.3): the flow Jacobian
//! `Φ(t₀ + T, t₀)` carried by the variational equations and the saltation matrices of every
//! switch must equal the central differences of the flow map itself, each perturbed trajectory
//! starting in the modes and memories the trajectory has at `t₀` (a copy of the model).
//!
//! Cases with real resets: Armstrong's seven-parameter law (`x_s := 0`, the dwell time and the
//! static memory updated at stick entry and break-away), the subloading law in a rig under a
//! sine motion (`r_s := r` on entering the elastic mode at every unloading, `c_s` pinned to `r`
//! while elastic), and GMS (elements set slipping or onto their thresholds at reversals).

#![allow(clippy::unwrap_used)]

use tribolab::analysis::lyapunov::Variational;
use tribolab::integrate::driver::{DriverSettings, NullSink};
use tribolab::integrate::{Column, Method, Model, SimError, Simulation};
use tribolab::laws::LawConfig;
use tribolab::laws::subloading::SubloadingParams;
use tribolab::preset::builtin;
use tribolab::rig::{Motion, PrescribedMotion};

/// A trajectory stopped at `t₀`: its time, state and a copy of the model there.
struct Base {
    t0: f64,
    y: Vec<f64>,
    model: Box<dyn Model + Send>,
}

fn base(model: Box<dyn Model + Send>, y0: Vec<f64>, t_a: f64, settings: DriverSettings) -> Base {
    let mut sim = Simulation::new(model, y0, 0.0, settings).unwrap();
    sim.advance(t_a, &mut NullSink).unwrap();
    Base {
        t0: sim.time_s(),
        y: sim.state().to_vec(),
        model: sim.model().boxed_clone().unwrap(),
    }
}

/// Runs all `m` tangent vectors (scaled unit vectors) from the base in its modes to exactly
/// `t₀ + span`; returns the final extended state, the tangent scales and the switches taken.
fn tangent_run(
    b: &Base,
    m: usize,
    span_s: f64,
    settings: DriverSettings,
) -> (Vec<f64>, Vec<f64>, u64) {
    let (mut var, ext) = Variational::new(b.model.boxed_clone().unwrap(), &b.y, b.t0, m, None);
    let t_end = b.t0 + span_s;
    var.land_at(t_end);
    let scales = var.scales().to_vec();
    let mut sim = Simulation::continuing(Box::new(var), ext, b.t0, settings).unwrap();
    sim.advance(t_end, &mut NullSink).unwrap();
    assert_eq!(sim.time_s(), t_end, "the run lands on the end of the span");
    (sim.state().to_vec(), scales, sim.stats().events)
}

/// The model unchanged, except that steps end exactly at `land_at` (so the state there is a
/// step's end, not an interpolant).
struct Landing {
    inner: Box<dyn Model + Send>,
    land_at: f64,
}

impl Model for Landing {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn n_quadratures(&self) -> usize {
        self.inner.n_quadratures()
    }
    fn state_names(&self) -> Vec<String> {
        self.inner.state_names()
    }
    fn state_scales(&self, scales: &mut [f64]) {
        self.inner.state_scales(scales);
    }
    fn is_autonomous(&self) -> bool {
        self.inner.is_autonomous()
    }
    fn time_scale_s(&self) -> f64 {
        self.inner.time_scale_s()
    }
    fn max_step_s(&self, t_s: f64) -> f64 {
        self.inner.max_step_s(t_s)
    }
    fn next_breakpoint_s(&self, t: f64) -> f64 {
        let inner = self.inner.next_breakpoint_s(t);
        if self.land_at > t {
            inner.min(self.land_at)
        } else {
            inner
        }
    }
    fn initialize(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.inner.initialize(t, y)
    }
    fn resume(&mut self, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.inner.resume(t, y)
    }
    fn project(&self, t: f64, y: &mut [f64]) {
        self.inner.project(t, y);
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.inner.rhs(t, y, dy);
    }
    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        self.inner.jacobian(t, y, jac)
    }
    fn n_events(&self) -> usize {
        self.inner.n_events()
    }
    fn events(&self, t: f64, y: &[f64], g: &mut [f64]) {
        self.inner.events(t, y, g);
    }
    fn apply_event(&mut self, index: usize, t: f64, y: &mut [f64]) -> Result<(), SimError> {
        self.inner.apply_event(index, t, y)
    }
    fn after_step(&mut self, t: f64, y: &mut [f64]) -> bool {
        self.inner.after_step(t, y)
    }
    fn columns(&self) -> Vec<Column> {
        self.inner.columns()
    }
    fn observe(&self, t: f64, y: &[f64], row: &mut [f64]) {
        self.inner.observe(t, y, row);
    }
    fn prefers_implicit(&self) -> bool {
        self.inner.prefers_implicit()
    }
}

/// The flow map from `y` at `t₀` over `span` in the base's modes.
fn flow(b: &Base, y: &[f64], span_s: f64, settings: DriverSettings) -> Vec<f64> {
    let t_end = b.t0 + span_s;
    let model = Landing {
        inner: b.model.boxed_clone().unwrap(),
        land_at: t_end,
    };
    let mut sim = Simulation::continuing(Box::new(model), y.to_vec(), b.t0, settings).unwrap();
    sim.advance(t_end, &mut NullSink).unwrap();
    assert_eq!(sim.time_s(), t_end, "the run lands on the end of the span");
    sim.state().to_vec()
}

/// Largest entry of `D⁻¹·(Φ_tangent − Φ_differences)·D` (scaled coordinates) and the switches
/// on the way.
fn tangent_against_differences(
    b: &Base,
    span_s: f64,
    settings: DriverSettings,
    fd_rel: f64,
) -> (f64, u64) {
    let m = b.model.dim() - b.model.n_quadratures();
    let (ext, scales, switches) = tangent_run(b, m, span_s, settings);
    let q = &ext[m..m + m * m];
    let mut worst: f64 = 0.0;
    for j in 0..m {
        let h = fd_rel * scales[j];
        let mut yp = b.y.clone();
        let mut ym = b.y.clone();
        yp[j] += h;
        ym[j] -= h;
        let fp = flow(b, &yp, span_s, settings);
        let fm = flow(b, &ym, span_s, settings);
        for i in 0..m {
            // Scaled entry of the differences: (δy_i/s_i)/(δy_j/s_j).
            let fd = (fp[i] - fm[i]) / (2.0 * h) * scales[j] / scales[i];
            let diff = (q[j * m + i] - fd).abs();
            assert!(diff.is_finite(), "Φ[{i}][{j}] not finite");
            worst = worst.max(diff);
        }
    }
    (worst, switches)
}

fn settings(method: Method, rtol: f64) -> DriverSettings {
    DriverSettings {
        method,
        rtol,
        rk4_dt_s: 1e-3,
        output_interval_s: 1.0,
    }
}

/// Armstrong on the belt: a stick entry (x_s := 0, t_d := 0, F_S,a from the lagged Stribeck
/// term) and a break-away (the reached level frozen) inside the span (resets taken as the
/// identity: 6.1 off).
#[test]
fn seven_parameter_switches_carry_their_resets() {
    let p = builtin::load("seven_parameter_dwell").unwrap().unwrap();
    let (model, y0) = p.build_model();
    let s = settings(p.run.integrator, 1e-10);
    let b = base(model, y0, 20.0, s);
    let (worst, switches) = tangent_against_differences(&b, 4.5, s, 1e-6);
    eprintln!("seven-parameter: {switches} switches, worst scaled difference {worst:.2e}");
    assert!(
        switches >= 2,
        "the span must hold stick entry and break-away"
    );
    assert!(worst < 1e-4, "tangent vs flow-map differences: {worst:.3e}");
}

/// Subloading in a rig under `x = A·sin 2πft` with `A` inside the elastic range: past the peak
/// the contact unloads into the elastic mode (`r_s := r`) and the span ends inside it, where
/// `c_s = cos(π·r/2)` must follow `r` in the tangent too (identity there: 0.15 off).
#[test]
fn subloading_elastic_entries_carry_their_projection() {
    let law = LawConfig::Subloading(SubloadingParams::default()).build();
    let rig = PrescribedMotion::new(
        law,
        Motion::Sine {
            amplitude_m: 0.2e-6,
            frequency_hz: 0.05,
        },
        1.0,
    );
    let y0 = rig.initial_state();
    let s = settings(Method::Rodas4, 1e-10);
    let b = base(Box::new(rig), y0, 4.0, s);
    let (worst, switches) = tangent_against_differences(&b, 3.5, s, 1e-6);
    eprintln!("subloading rig: {switches} switches, worst scaled difference {worst:.2e}");
    assert!(
        switches >= 1,
        "the span must hold the entry into the elastic mode"
    );
    assert!(worst < 1e-4, "tangent vs flow-map differences: {worst:.3e}");
}

/// GMS on the belt: elements slip one after another, all stick again at the reversal.
#[test]
fn gms_element_switches_carry_their_resets() {
    let p = builtin::load("gms_stick_slip").unwrap().unwrap();
    let (model, y0) = p.build_model();
    let s = settings(p.run.integrator, 1e-10);
    let b = base(model, y0, 20.0, s);
    let s = settings(p.run.integrator, 1e-9);
    let (worst, switches) = tangent_against_differences(&b, 3.0, s, 1e-5);
    eprintln!("GMS: {switches} switches, worst scaled difference {worst:.2e}");
    assert!(
        switches >= 4,
        "the span must hold element slips and a reversal"
    );
    assert!(worst < 1e-4, "tangent vs flow-map differences: {worst:.3e}");
}

/// `ȧ = 1` with `b` held up by the rising floor `a²` after every step (`b := max(b, a²)`), as
/// a GMS element is held on its falling threshold: the constraint is enforced by the after-step
/// projection, not by the vector field (`ḃ = 0`).
#[derive(Clone)]
struct Floor;

impl Model for Floor {
    fn dim(&self) -> usize {
        2
    }
    fn state_names(&self) -> Vec<String> {
        vec!["a".into(), "b".into()]
    }
    fn state_scales(&self, s: &mut [f64]) {
        s.fill(1.0);
    }
    fn rhs(&self, _t: f64, _y: &[f64], dy: &mut [f64]) {
        dy[0] = 1.0;
        dy[1] = 0.0;
    }
    fn after_step(&mut self, _t: f64, y: &mut [f64]) -> bool {
        let floor = y[0] * y[0];
        let held = y[1] < floor;
        if held {
            y[1] = floor;
        }
        held
    }
    fn boxed_clone(&self) -> Option<Box<dyn Model + Send>> {
        Some(Box::new(self.clone()))
    }
    fn columns(&self) -> Vec<Column> {
        vec![Column::new("a", ""), Column::new("b", "")]
    }
    fn observe(&self, _t: f64, y: &[f64], row: &mut [f64]) {
        row.copy_from_slice(y);
    }
    fn prefers_implicit(&self) -> bool {
        false
    }
}

/// A state held on a moving constraint by the after-step projection: from `a = 1` over 1 s
/// `b = a²` throughout, so `δb(T) = 2·a(T)·δa(0) = 4·δa` and the start's `δb` is forgotten:
/// `Φ = [[1, 0], [4, 0]]`. Taken as the identity, the tangent kept `Φ = I`.
#[test]
fn a_state_held_by_an_after_step_projection_follows_its_constraint() {
    let b = Base {
        t0: 0.0,
        y: vec![1.0, 0.5],
        model: Box::new(Floor),
    };
    let s = settings(Method::Dopri5, 1e-9);
    let (ext, _, _) = tangent_run(&b, 2, 1.0, s);
    let phi = &ext[2..6]; // columns δ₁ = (Φ₀₀, Φ₁₀), δ₂ = (Φ₀₁, Φ₁₁)
    assert!(
        (ext[0] - 2.0).abs() < 1e-12 && (ext[1] - 4.0).abs() < 1e-12,
        "{ext:?}"
    );
    assert!((phi[0] - 1.0).abs() < 1e-9, "Φ₀₀ = {}", phi[0]);
    assert!((phi[1] - 4.0).abs() < 1e-6, "Φ₁₀ = {}", phi[1]);
    assert!(
        phi[2].abs() < 1e-9 && phi[3].abs() < 1e-6,
        "Φ₀₁, Φ₁₁ = {:?}",
        &phi[2..]
    );
}
