//! Regime maps over two parameters (MODELS §4.11): every cell of an `nx × ny` grid runs from
//! the preset's initial state, drops its transient, and names its steady state from its
//! Poincaré returns — steady (no return: equilibrium or steady sliding), periodic with K points
//! on the section, quasi-periodic (a closed curve), chaotic (scattered), unsettled, failed — with
//! the stick fraction, the amplitude and dominant frequency of the first coordinate, the
//! number of slip events and, when asked, the largest Lyapunov exponent as measures.
//!
//! * **Independent cells.** Each cell is a fixed-start run (no continuation), so any subset of
//!   cells gives the same numbers wherever it runs: a map splits into shards
//!   ([`Shard`]: cell `i` belongs to shard `k` of `n` when `i mod n = k − 1`, which spreads the
//!   costly corners of a map over every shard) and the shard files merge into the unsplit file
//!   ([`csv::merge`]).
//! * **Failures are cells.** A run that fails (a value out of range, a diverging integration)
//!   marks its cell `failed` with the message; the map goes on.
//! * **Scheduling.** Cells run one per task on the worker pool, so a slow cell never holds up a
//!   block of others; progress is reported per cell and cancellation is checked between
//!   integration chunks.

mod cell;
pub mod csv;
pub mod figure;
mod lyapunov;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;

pub use crate::analysis::shard::Shard;
pub use cell::{MapCell, Regime};

use super::dynamics::SectionChoice;
use super::sweep::{SweepError, Transient, linspace};
use crate::preset::Preset;

/// One axis of a map: a preset parameter by its dotted path and its values.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Dotted preset path (`system.belt_speed`, `law.mu_s`).
    pub param: String,
    /// First value.
    pub from: f64,
    /// Last value.
    pub to: f64,
    /// Values from `from` to `to`, evenly spaced, both included.
    pub values: Vec<f64>,
}

impl Axis {
    /// `steps` evenly spaced values of `param` from `from` to `to`.
    pub fn new(param: &str, from: f64, to: f64, steps: usize) -> Self {
        Self {
            param: param.to_string(),
            from,
            to,
            values: linspace(from, to, steps),
        }
    }

    /// Parses `PATH=A:B:N`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || format!("`{text}`: expected PATH=FROM:TO:STEPS, e.g. law.mu_s=0.3:0.6:50");
        let (path, range) = text.split_once('=').ok_or_else(bad)?;
        let parts: Vec<&str> = range.split(':').collect();
        let [a, b, n] = parts.as_slice() else {
            return Err(bad());
        };
        let num = |s: &str| -> Result<f64, String> {
            crate::util::eng::parse_si(s, "")
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("`{text}`: `{s}` is not a finite number"))
        };
        let steps: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("`{text}`: STEPS `{n}` is not a whole number"))?;
        if !(1..=10_000).contains(&steps) {
            return Err(format!("`{text}`: STEPS must be 1 to 10000, got {steps}"));
        }
        if path.trim().is_empty() {
            return Err(bad());
        }
        Ok(Self::new(path.trim(), num(a)?, num(b)?, steps))
    }

    /// `PATH=A:B:N`, as parsed.
    pub fn describe(&self) -> String {
        format!(
            "{}={}:{}:{}",
            self.param,
            self.from,
            self.to,
            self.values.len()
        )
    }
}

/// A regime map.
#[derive(Clone, Debug, PartialEq)]
pub struct MapSpec {
    /// The parameter along x.
    pub x: Axis,
    /// The parameter along y.
    pub y: Axis,
    /// Model time of each run [s].
    pub duration_s: f64,
    /// What is dropped before the steady state is read.
    pub transient: Transient,
    /// Poincaré section.
    pub section: SectionChoice,
    /// The cells to run.
    pub shard: Shard,
    /// Worker threads (default: available parallelism).
    pub threads: Option<usize>,
    /// Also compute each cell's largest Lyapunov exponent (about twice the cost) and let it
    /// decide between quasi-periodic and chaotic ([`lyapunov`]).
    pub lyapunov: bool,
}

impl MapSpec {
    /// Cells in the whole grid.
    pub fn cells(&self) -> usize {
        self.x.values.len() * self.y.values.len()
    }

    /// The cells of this spec's shard, in order.
    pub fn shard_cells(&self) -> Vec<usize> {
        self.shard.units(self.cells())
    }
}

/// Progress of a running map.
#[derive(Debug)]
pub struct MapProgress<'a> {
    /// Cells finished so far.
    pub done: usize,
    /// Cells to run.
    pub total: usize,
    /// The cell that just finished.
    pub cell: &'a MapCell,
}

/// Cancellation and progress reporting.
#[derive(Clone, Copy, Default)]
pub struct MapControl<'a> {
    /// Set to `true` to stop the map (checked between integration chunks).
    pub cancel: Option<&'a AtomicBool>,
    /// Called (from worker threads) after each finished cell.
    pub progress: Option<&'a (dyn Fn(&MapProgress<'_>) + Sync)>,
}

fn check(base: &Preset, spec: &MapSpec) -> Result<(), SweepError> {
    if base.system.is_map() {
        return Err(SweepError::Spec(
            "regime maps run flows; iterate a map with `tribolab sweep`".into(),
        ));
    }
    if spec.x.param == spec.y.param {
        return Err(SweepError::Spec(format!(
            "both axes vary {}: choose two parameters",
            spec.x.param
        )));
    }
    if spec.cells() == 0 {
        return Err(SweepError::Spec("the map has no cells".into()));
    }
    for axis in [&spec.x, &spec.y] {
        let mut p = base.clone();
        p.set_path(&axis.param, &format!("{}", axis.from))
            .map_err(|message| SweepError::Parameter {
                param: axis.param.clone(),
                value: axis.from,
                message,
            })?;
    }
    if !(spec.duration_s.is_finite() && spec.duration_s > 0.0) {
        return Err(SweepError::Spec(format!(
            "the run duration must be a positive number of seconds, got {}",
            spec.duration_s
        )));
    }
    if let Transient::Seconds(s) = spec.transient
        && !(s.is_finite() && s >= 0.0 && s < spec.duration_s)
    {
        return Err(SweepError::Spec(format!(
            "the transient ({s} s) must be shorter than the run ({} s)",
            spec.duration_s
        )));
    }
    Ok(())
}

/// Runs the cells of `spec`'s shard; the cells come back in cell order.
pub fn regime_map(
    base: &Preset,
    spec: &MapSpec,
    control: MapControl<'_>,
) -> Result<Vec<MapCell>, SweepError> {
    check(base, spec)?;
    let cells = spec.shard_cells();
    let total = cells.len();
    let done = AtomicUsize::new(0);
    let results: Vec<Result<MapCell, SweepError>> =
        super::parallel::with_pool(spec.threads, || {
            cells
                .par_iter()
                .with_max_len(1)
                .map(|&c| {
                    let cell = cell::run_cell(base, spec, c, control.cancel)?;
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if let Some(f) = control.progress {
                        f(&MapProgress {
                            done: d,
                            total,
                            cell: &cell,
                        });
                    }
                    Ok(cell)
                })
                .collect()
        });
    let mut out = Vec::with_capacity(total);
    for r in results {
        match r {
            Ok(c) => out.push(c),
            Err(SweepError::Cancelled { .. }) => {
                return Err(SweepError::Cancelled {
                    done: done.load(Ordering::Relaxed),
                    total,
                });
            }
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// Where steady sliding loses its linear stability across the map, as the system states it
/// ([`crate::systems::StabilityBoundary`]): for each x the critical value of the y parameter
/// (or, when the system states a boundary in x, for each y the critical x). Returns the
/// boundary's symbol and the `(x, y)` points (empty when the system states none for either
/// axis).
pub fn stability_curve(base: &Preset, spec: &MapSpec) -> (String, Vec<[f64; 2]>) {
    let mut symbol = String::new();
    let mut points = Vec::new();
    for (along, across, flip) in [(&spec.x, &spec.y, false), (&spec.y, &spec.x, true)] {
        for &v in &along.values {
            let mut p = base.clone();
            if p.set_path(&along.param, &format!("{v}")).is_err() {
                continue;
            }
            let laws = p.contact_laws();
            if let Some(b) = p
                .system
                .stability_boundaries(&laws)
                .into_iter()
                .find(|b| b.path == across.param)
            {
                symbol = b.symbol.to_string();
                points.push(if flip { [b.value, v] } else { [v, b.value] });
            }
        }
        if !points.is_empty() {
            break;
        }
    }
    (symbol, points)
}
