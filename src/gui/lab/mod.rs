//! The window's side of the analyses: the handle on the analysis thread, the job in progress,
//! the latest result of each kind, the imported series and the import window. Results stay
//! until a job of the same kind replaces them; messages of superseded jobs are ignored.

mod actions;
pub mod fit;
pub mod import;
pub mod series;
pub mod settings;

use std::time::Instant;

use eframe::egui;

use crate::analysis::floquet::FloquetReport;
use crate::analysis::regime_map::{MapCell, MapSpec};
use crate::analysis::sweep::{SweepResult, ValueRun};
use crate::preset::Preset;

pub use actions::{friction_speed_range, friction_temperature_range};
pub use import::{ImportDialog, ImportedSeries};
pub use settings::{LabSettings, SeriesSource};

use super::jobs::{
    AnalysisHandle, FitOutput, FrictionSweepResult, JobKind, JobMsg, LyapunovSnapshot, SeriesResult,
};

/// A number to six significant digits for display (measured time steps and swept values are
/// long in full: `0.0020000000000000018`).
pub fn short(v: f64) -> String {
    crate::params::fmt_num(format!("{v:.5e}").parse().unwrap_or(v))
}

/// Time budget for draining analysis messages per frame [s].
const DRAIN_BUDGET_S: f64 = 0.004;

/// The job the thread is working on.
#[derive(Clone, Debug, PartialEq)]
pub struct ActiveJob {
    /// Job id.
    pub id: u64,
    /// Kind.
    pub kind: JobKind,
    /// Fraction done.
    pub fraction: f32,
    /// What it does, in words.
    pub text: String,
    /// Cancel was asked for.
    pub cancelling: bool,
}

/// A sweep as the diagram shows it: filled run by run while it goes on.
#[derive(Clone, Debug, Default)]
pub struct SweepView {
    /// Parameter path.
    pub param: String,
    /// Values in up-branch order.
    pub values: Vec<f64>,
    /// Output columns of the points.
    pub columns: Vec<String>,
    /// Runs received so far.
    pub runs: Vec<ValueRun>,
    /// The sweep completed.
    pub complete: bool,
    /// The sweep was cancelled (the runs so far are kept).
    pub cancelled: bool,
}

impl SweepView {
    /// Number of points in the diagram.
    pub fn points(&self) -> usize {
        self.runs.iter().map(|r| r.points.len()).sum()
    }

    fn finish(&mut self, result: SweepResult) {
        self.columns = result.columns;
        self.runs = result.runs;
        self.complete = true;
    }
}

/// A regime map as the window shows it: filled cell by cell while it runs.
#[derive(Clone, Debug)]
pub struct MapView {
    /// Axes and run settings.
    pub spec: MapSpec,
    /// The preset the map ran on (for saving the CSV).
    pub preset: Box<Preset>,
    /// Unit of the first coordinate (the amplitude's unit).
    pub amplitude_unit: String,
    /// Cells by cell number (`None` until it arrives).
    pub cells: Vec<Option<MapCell>>,
    /// Where steady sliding loses its linear stability: `(x, y)` points across the map.
    pub boundary: Vec<[f64; 2]>,
    /// Symbol of the boundary (`c_c`).
    pub boundary_symbol: String,
    /// The map completed.
    pub complete: bool,
    /// The map was cancelled (the cells so far are kept).
    pub cancelled: bool,
}

impl MapView {
    /// Cells received so far.
    pub fn done(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    fn put(&mut self, cell: MapCell) {
        if let Some(slot) = self.cells.get_mut(cell.cell) {
            *slot = Some(cell);
        }
    }
}

/// A value of the sweep picked in the diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct PickedValue {
    /// Parameter path.
    pub param: String,
    /// Value.
    pub value: f64,
    /// Output value of the point clicked (`None` when chosen from the list).
    pub y: Option<f64>,
}

/// Analysis state of the window.
#[derive(Default)]
pub struct Lab {
    pub(super) handle: Option<AnalysisHandle>,
    pub(super) active: Option<ActiveJob>,
    pub(super) lyapunov: Option<LyapunovSnapshot>,
    pub(super) floquet: Option<FloquetReport>,
    pub(super) sweep: Option<SweepView>,
    pub(super) map: Option<MapView>,
    pub(super) friction: Option<FrictionSweepResult>,
    pub(super) series: Option<SeriesResult>,
    pub(super) imported: Option<ImportedSeries>,
    pub(super) import: Option<ImportDialog>,
    /// The Fit tab's file and choices.
    pub(super) fit_setup: fit::FitSetup,
    /// The latest fit.
    pub(super) fit: Option<FitOutput>,
    /// Last failure or cancellation of each kind, in words.
    pub(super) outcome: Vec<(JobKind, String)>,
    pub(super) picked: Option<PickedValue>,
    /// Screen ↔ plot transform of the bifurcation diagram as last drawn.
    pub(super) sweep_transform: Option<egui_plot::PlotTransform>,
    /// Screen ↔ plot transform of the regime map as last drawn.
    pub(super) map_transform: Option<egui_plot::PlotTransform>,
}

impl Lab {
    /// The job in progress.
    pub fn active(&self) -> Option<&ActiveJob> {
        self.active.as_ref()
    }

    /// Whether a job of this kind is in progress.
    pub fn is_running(&self, kind: JobKind) -> bool {
        self.active.as_ref().is_some_and(|a| a.kind == kind)
    }

    /// The latest Lyapunov estimate (live while running, final when `done`).
    pub fn lyapunov(&self) -> Option<&LyapunovSnapshot> {
        self.lyapunov.as_ref()
    }

    /// The latest Floquet result.
    pub fn floquet(&self) -> Option<&FloquetReport> {
        self.floquet.as_ref()
    }

    /// The bifurcation diagram's data.
    pub fn sweep(&self) -> Option<&SweepView> {
        self.sweep.as_ref()
    }

    /// The regime map's data.
    pub fn regime_map(&self) -> Option<&MapView> {
        self.map.as_ref()
    }

    /// The latest friction sweep.
    pub fn friction_sweep(&self) -> Option<&FrictionSweepResult> {
        self.friction.as_ref()
    }

    /// The latest series analysis.
    pub fn series(&self) -> Option<&SeriesResult> {
        self.series.as_ref()
    }

    /// The imported series.
    pub fn imported(&self) -> Option<&ImportedSeries> {
        self.imported.as_ref()
    }

    /// The Fit tab's file and choices.
    pub fn fit_setup(&self) -> &fit::FitSetup {
        &self.fit_setup
    }

    /// The latest fit.
    pub fn fit(&self) -> Option<&FitOutput> {
        self.fit.as_ref()
    }

    /// The import window, when open.
    pub fn import_dialog(&self) -> Option<&ImportDialog> {
        self.import.as_ref()
    }

    /// The last failure or cancellation of a kind of job.
    pub fn outcome(&self, kind: JobKind) -> Option<&str> {
        self.outcome
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, m)| m.as_str())
    }

    /// The value last picked in the bifurcation diagram.
    pub fn picked(&self) -> Option<&PickedValue> {
        self.picked.as_ref()
    }

    /// Screen position of the newest point of the sweep run at `run` (always drawn), as the
    /// diagram was last drawn.
    pub fn sweep_point_on_screen(&self, run: usize, column: usize) -> Option<egui::Pos2> {
        let t = self.sweep_transform.as_ref()?;
        let r = self.sweep.as_ref()?.runs.get(run)?;
        let y = r.points.last()?.row.get(column)?;
        Some(t.position_from_point(&egui_plot::PlotPoint::new(r.value, *y)))
    }

    /// Screen position of the centre of regime-map cell `cell`, as the map was last drawn.
    pub fn map_cell_on_screen(&self, cell: usize) -> Option<egui::Pos2> {
        let t = self.map_transform.as_ref()?;
        let m = self.map.as_ref()?;
        let nx = m.spec.x.values.len();
        let (x, y) = (
            m.spec.x.values.get(cell % nx)?,
            m.spec.y.values.get(cell / nx)?,
        );
        Some(t.position_from_point(&egui_plot::PlotPoint::new(*x, *y)))
    }

    fn set_outcome(&mut self, kind: JobKind, text: Option<String>) {
        self.outcome.retain(|(k, _)| *k != kind);
        if let Some(t) = text {
            self.outcome.push((kind, t));
        }
    }

    /// Handles the messages that arrived (within a small time budget).
    pub(super) fn drain(&mut self) {
        let started = Instant::now();
        while started.elapsed().as_secs_f64() < DRAIN_BUDGET_S {
            let Some(msg) = self.handle.as_ref().and_then(AnalysisHandle::try_recv) else {
                break;
            };
            self.handle_msg(msg);
        }
    }

    fn handle_msg(&mut self, msg: JobMsg) {
        let Some(active) = self.active.as_mut().filter(|a| a.id == msg.id()) else {
            return; // a superseded job
        };
        let kind = active.kind;
        match msg {
            JobMsg::Progress { fraction, text, .. } => {
                active.fraction = fraction;
                active.text = text;
            }
            JobMsg::Lyapunov { snapshot, .. } => {
                let done = snapshot.done;
                self.lyapunov = Some(*snapshot);
                if done {
                    self.active = None;
                }
            }
            JobMsg::Floquet { report, .. } => {
                self.floquet = Some(*report);
                self.active = None;
            }
            JobMsg::SweepRun { run, .. } => {
                if let Some(s) = self.sweep.as_mut() {
                    s.runs.push(*run);
                }
            }
            JobMsg::Sweep { result, .. } => {
                if let Some(s) = self.sweep.as_mut() {
                    s.finish(*result);
                }
                self.active = None;
            }
            JobMsg::MapCell { cell, .. } => {
                if let Some(m) = self.map.as_mut() {
                    m.put(*cell);
                }
            }
            JobMsg::RegimeMap { cells, .. } => {
                if let Some(m) = self.map.as_mut() {
                    for c in cells {
                        m.put(c);
                    }
                    m.complete = true;
                }
                self.active = None;
            }
            JobMsg::FrictionSweep { result, .. } => {
                self.friction = Some(*result);
                self.active = None;
            }
            JobMsg::Series { result, .. } => {
                self.series = Some(*result);
                self.active = None;
            }
            JobMsg::Fit { output, .. } => {
                self.fit = Some(*output);
                self.active = None;
            }
            JobMsg::Failed { message, .. } => {
                self.set_outcome(kind, Some(message));
                self.active = None;
            }
            JobMsg::Cancelled { .. } => {
                if let Some(s) = self.sweep.as_mut().filter(|_| kind == JobKind::Sweep) {
                    s.cancelled = true;
                }
                if let Some(m) = self.map.as_mut().filter(|_| kind == JobKind::RegimeMap) {
                    m.cancelled = true;
                }
                self.set_outcome(kind, Some(format!("{} cancelled", kind.describe())));
                self.active = None;
            }
        }
    }
}
