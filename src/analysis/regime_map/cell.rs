//! One cell of a regime map: the run at one (x, y), its steady state named from the Poincaré
//! returns, and the measures read from the rows after the transient.

use super::{Axis, MapSpec, lyapunov};
use crate::analysis::classify::{PoincareShape, poincare_shape};
use crate::analysis::dynamics::SectionChoice;
use crate::analysis::slip_events::slip_statistics;
use crate::analysis::spectrum::{Window, amplitude_spectrum};
use crate::analysis::sweep::{Capture, SweepError, SweepSpec, SweepStart, ValueRun, run_value};
use crate::integrate::{Column, Role};
use crate::preset::Preset;

/// The steady state of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Regime {
    /// No return to the section after the transient: an equilibrium, steady sliding.
    Steady,
    /// A periodic orbit with this many distinct points on the section.
    Periodic(usize),
    /// Points on a closed curve: quasi-periodic motion.
    QuasiPeriodic,
    /// Points neither repeating nor on a curve: chaos (or motion too slow for the run).
    Chaotic,
    /// Returns too few to tell: the run ended inside its transient or with fewer than three
    /// points (lengthen the run).
    Unsettled,
    /// The run failed (the message says why).
    Failed,
}

impl Regime {
    /// The code written to CSV: `steady`, `periodic`, `quasi-periodic`, `chaotic`,
    /// `unsettled`, `failed` (the period is a column of its own).
    pub fn code(self) -> &'static str {
        match self {
            Regime::Steady => "steady",
            Regime::Periodic(_) => "periodic",
            Regime::QuasiPeriodic => "quasi-periodic",
            Regime::Chaotic => "chaotic",
            Regime::Unsettled => "unsettled",
            Regime::Failed => "failed",
        }
    }

    /// Reads a code and a period back (the inverse of [`Regime::code`]).
    pub fn from_code(code: &str, period: usize) -> Option<Self> {
        Some(match code {
            "steady" => Regime::Steady,
            "periodic" => Regime::Periodic(period),
            "quasi-periodic" => Regime::QuasiPeriodic,
            "chaotic" => Regime::Chaotic,
            "unsettled" => Regime::Unsettled,
            "failed" => Regime::Failed,
            _ => return None,
        })
    }

    /// Section points per period (periodic orbits), else 0.
    pub fn period(self) -> usize {
        match self {
            Regime::Periodic(k) => k,
            _ => 0,
        }
    }

    /// In words, for a legend or a hover.
    pub fn describe(self) -> String {
        match self {
            Regime::Steady => "steady (equilibrium or steady sliding)".into(),
            Regime::Periodic(1) => "periodic".into(),
            Regime::Periodic(k) => format!("periodic, {k} points per period"),
            Regime::QuasiPeriodic => "quasi-periodic".into(),
            Regime::Chaotic => "chaotic".into(),
            Regime::Unsettled => "unsettled (lengthen the run)".into(),
            Regime::Failed => "run failed".into(),
        }
    }
}

/// The outcome of one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct MapCell {
    /// Cell number, row by row: `iy·nx + ix`.
    pub cell: usize,
    /// Column index (x).
    pub ix: usize,
    /// Row index (y).
    pub iy: usize,
    /// x value.
    pub x: f64,
    /// y value.
    pub y: f64,
    /// The steady state.
    pub regime: Regime,
    /// Section returns recorded after the transient.
    pub returns: usize,
    /// Fraction of the recorded time the contacts stick (mean over contacts; NaN without
    /// contacts).
    pub stick_fraction: f64,
    /// Half the peak-to-peak excursion of the first coordinate after the transient.
    pub amplitude: f64,
    /// Dominant frequency of the first coordinate [Hz] (NaN when steady).
    pub frequency_hz: f64,
    /// Complete slip events after the transient, summed over contacts.
    pub slip_events: usize,
    /// Largest Lyapunov exponent [1/s] (NaN unless asked for).
    pub lambda1_per_s: f64,
    /// Why the run failed (empty otherwise).
    pub message: String,
}

/// Samples kept per run for the measures.
const SAMPLES: f64 = 4096.0;

/// Runs cell `cell` of `spec` on `base`.
pub(super) fn run_cell(
    base: &Preset,
    spec: &MapSpec,
    cell: usize,
    cancel: Option<&std::sync::atomic::AtomicBool>,
) -> Result<MapCell, SweepError> {
    let nx = spec.x.values.len();
    let (ix, iy) = (cell % nx, cell / nx);
    let (x, y) = (spec.x.values[ix], spec.y.values[iy]);
    let mut out = MapCell {
        cell,
        ix,
        iy,
        x,
        y,
        regime: Regime::Failed,
        returns: 0,
        stick_fraction: f64::NAN,
        amplitude: f64::NAN,
        frequency_hz: f64::NAN,
        slip_events: 0,
        lambda1_per_s: f64::NAN,
        message: String::new(),
    };
    let mut preset = base.clone();
    if let Err(m) = set(&mut preset, &spec.y, y) {
        out.message = m;
        return Ok(out);
    }
    let columns = preset.build_runner().map(|r| r.columns());
    let columns = match columns {
        Ok(c) => c,
        Err(e) => {
            out.message = e.to_string();
            return Ok(out);
        }
    };
    let first = columns.iter().find(|c| c.role == Role::Position(0));
    let record_s = match spec.transient {
        crate::analysis::sweep::Transient::Seconds(s) => spec.duration_s - s,
        crate::analysis::sweep::Transient::Returns(_) => spec.duration_s,
    };
    let sweep = SweepSpec {
        param: spec.x.param.clone(),
        values: vec![x],
        start: SweepStart::Fixed,
        duration_s: spec.duration_s,
        transient: spec.transient,
        section: section(&preset, spec.section),
        capture: Some(Capture {
            column: first.map_or_else(|| columns[1].name.clone(), |c| c.name.clone()),
            interval_s: record_s / SAMPLES,
            rows: true,
        }),
        threads: Some(1),
    };
    let run = match run_value(&preset, &sweep, 0, cancel) {
        Ok(run) => run,
        Err(SweepError::Cancelled { .. }) => {
            return Err(SweepError::Cancelled { done: 0, total: 0 });
        }
        Err(e @ SweepError::NoSection { .. }) => return Err(e),
        Err(e) => {
            out.message = e.to_string();
            return Ok(out);
        }
    };
    out.regime = regime(&run, &columns);
    // A forced system returns to its stroboscopic section once per period whatever it does:
    // no return means the run was shorter than the transient plus a period, not steady.
    if out.regime == Regime::Steady
        && run.final_state
        && sweep.section == SectionChoice::Stroboscopic
        || (run.final_state && preset.system.forcing_period_s().is_some())
    {
        out.regime = Regime::Unsettled;
    }
    out.returns = if run.final_state { 0 } else { run.points.len() };
    measure(&mut out, &preset, &columns, &run, sweep.capture.as_ref());
    if spec.lyapunov && out.regime != Regime::Failed {
        // A transient counted in returns has no duration before the run: λ₁ then averages
        // over the second half.
        let transient_s = match spec.transient {
            crate::analysis::sweep::Transient::Seconds(s) => s,
            crate::analysis::sweep::Transient::Returns(_) => 0.5 * spec.duration_s,
        };
        let mut at = preset.clone();
        let exponent = set(&mut at, &spec.x, x)
            .and_then(|()| lyapunov::largest_exponent(&at, transient_s, spec.duration_s, cancel));
        match exponent {
            Ok(Some((l1, tol))) => {
                out.lambda1_per_s = l1;
                out.regime = lyapunov::combine(out.regime, l1, tol);
            }
            Ok(None) => return Err(SweepError::Cancelled { done: 0, total: 0 }),
            Err(m) => out.message = m,
        }
    }
    Ok(out)
}

fn set(preset: &mut Preset, axis: &Axis, value: f64) -> Result<(), String> {
    preset.set_path(&axis.param, &format!("{value}"))?;
    match preset.problems().into_iter().next() {
        Some((path, message)) => Err(format!("{} = {value}: {path}: {message}", axis.param)),
        None => Ok(()),
    }
}

/// The section a map reads: the spec's, except that `Auto` on an unforced system with more
/// than one model section takes the second — the first block's turning point on the bench, the
/// two blocks and the chains, the load point overtaken on the spring–slider. Their first,
/// stick onset (or stopping), never fires for an oscillation about steady sliding that does not
/// stick, such as the cycle born where steady sliding loses its stability, which would then be
/// taken for steady sliding.
fn section(preset: &Preset, choice: SectionChoice) -> SectionChoice {
    if choice != SectionChoice::Auto || preset.system.forcing_period_s().is_some() {
        return choice;
    }
    let (model, _) = preset.build_model();
    if model.section_names().len() >= 2 {
        SectionChoice::Model(1)
    } else {
        choice
    }
}

/// Whether a column is a coordinate of the motion's state (the Poincaré points are compared
/// in these: work integrals grow without bound and flags only repeat the state).
fn is_state(role: Role) -> bool {
    matches!(
        role,
        Role::Position(_)
            | Role::Velocity(_)
            | Role::SlipVelocity(_)
            | Role::LawState { .. }
            | Role::State(_)
    )
}

/// Relative size of a motion below which the state counts as at rest: an underdamped decay
/// keeps crossing its section in floating point (at 1e-100 of its size and below), which is
/// not an oscillation.
const STATIONARY: f64 = 1e-6;

/// Whether every state coordinate stays within [`STATIONARY`] of the largest state magnitude
/// over the recorded rows (rows: the time, then the model's columns).
fn stationary(rows: &[Vec<f64>], state: &[usize]) -> bool {
    if rows.len() < 2 || state.is_empty() {
        return false;
    }
    let (mut magnitude, mut range) = (0.0f64, 0.0f64);
    for &j in state {
        let (lo, hi) = rows
            .iter()
            .filter_map(|r| r.get(j + 1))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
        magnitude = magnitude.max(lo.abs()).max(hi.abs());
        range = range.max(hi - lo);
    }
    range.is_finite() && range <= STATIONARY * magnitude
}

/// The steady state from the section returns after the transient.
fn regime(run: &ValueRun, columns: &[Column]) -> Regime {
    if run.unsettled {
        return Regime::Unsettled;
    }
    // `columns` has the time first; the points hold the model's columns.
    let state: Vec<usize> = (0..run.points.first().map_or(0, |p| p.row.len()))
        .filter(|&j| columns.get(j + 1).is_some_and(|c| is_state(c.role)))
        .collect();
    if run.final_state || stationary(&run.rows, &state) {
        return Regime::Steady;
    }
    let points: Vec<Vec<f64>> = run
        .points
        .iter()
        .map(|p| {
            if state.is_empty() {
                p.row.clone()
            } else {
                state.iter().map(|&j| p.row[j]).collect()
            }
        })
        .collect();
    match poincare_shape(&points) {
        PoincareShape::Points(k) => Regime::Periodic(k),
        PoincareShape::ClosedCurve => Regime::QuasiPeriodic,
        PoincareShape::Scattered => Regime::Chaotic,
        PoincareShape::Unknown => Regime::Unsettled,
    }
}

/// Stick fraction and slip events per contact, amplitude and frequency of the first
/// coordinate, from the rows after the transient.
fn measure(
    out: &mut MapCell,
    preset: &Preset,
    columns: &[Column],
    run: &ValueRun,
    capture: Option<&Capture>,
) {
    let layout = preset.system.layout();
    let (mut fractions, mut events) = (Vec::new(), 0);
    for (c, contact) in layout.contacts.iter().enumerate() {
        if let Ok(s) = slip_statistics(columns, &run.rows, c, contact.dof, None) {
            fractions.push(s.stick_fraction);
            events += s.events.len();
        }
    }
    if !fractions.is_empty() {
        out.stick_fraction = fractions.iter().sum::<f64>() / fractions.len() as f64;
    }
    out.slip_events = events;
    let s = &run.samples;
    if s.len() >= 2 {
        let (lo, hi) = s
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
        out.amplitude = 0.5 * (hi - lo);
    }
    if out.regime != Regime::Steady
        && let Some(c) = capture
        && let Some(peak) = amplitude_spectrum(s, c.interval_s, Window::Hann).dominant()
    {
        out.frequency_hz = peak.freq_hz;
    }
}
