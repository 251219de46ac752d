//! Reading a characterisation rig's record the way a tribology laboratory reads its test
//! (MODELS §3.5): the Stribeck curve against the law's own characteristic, the F–v loops of
//! frictional lag, the F–x loops of pre-sliding with their return points and the Masing rule,
//! the break-away force against the force rate, the friction coefficient against the sliding
//! distance of slides at several speeds. The result is a plot description (series with
//! axes, for any front end to draw), plain-language findings and a table (the CLI's CSV).
//!
//! Friction here is the force the contact resists with, `R = −F_f` (positive for forward
//! sliding), as a tribometer's load cell reports it.

mod break_away;
mod lag;
mod normal_creep;
mod presliding;
mod run;
mod slides;
mod stribeck;

pub use run::{RigRun, RigRunError, run_and_read};

use crate::laws::LawConfig;
use crate::systems::{RigProgramme, RigTest};

/// An axis of a reading's plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// What is plotted, in words with its symbol.
    pub label: String,
    /// SI unit.
    pub unit: &'static str,
    /// Logarithmic.
    pub log: bool,
}

impl Axis {
    /// A linear axis.
    pub fn linear(label: &str, unit: &'static str) -> Option<Self> {
        Some(Self {
            label: label.to_string(),
            unit,
            log: false,
        })
    }

    /// A logarithmic axis.
    pub fn log(label: &str, unit: &'static str) -> Option<Self> {
        Some(Self {
            label: label.to_string(),
            unit,
            log: true,
        })
    }
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Markers (measurements).
    Points,
    /// A line (records, reference curves).
    Line,
    /// A dashed line (a prediction to compare with).
    Dashed,
}

/// One series of a reading's plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// How it is drawn.
    pub mark: Mark,
    /// Points `[x, y]` in the axes' units (not their logarithms).
    pub points: Vec<[f64; 2]>,
}

/// A test read: its standard plot, findings and table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RigReading {
    /// Title of the standard plot.
    pub title: String,
    /// Horizontal axis.
    pub x: Option<Axis>,
    /// Vertical axis.
    pub y: Option<Axis>,
    /// The series.
    pub series: Vec<Series>,
    /// What the test shows, in sentences (empty while nothing is complete).
    pub findings: Vec<String>,
    /// The numbers the findings rest on, by name (`masing_departure` …), in SI units or as
    /// shares of a range.
    pub figures: Vec<(&'static str, f64)>,
    /// Table columns `(name, unit)`.
    pub columns: Vec<(&'static str, &'static str)>,
    /// Table rows.
    pub rows: Vec<Vec<f64>>,
}

/// The columns of a rig's record the reading takes (rows in time order).
#[derive(Clone, Copy, Debug)]
pub struct RigRecord<'a> {
    /// Time [s].
    pub time: &'a [f64],
    /// Displacement [m].
    pub position: &'a [f64],
    /// Sliding velocity [m/s].
    pub velocity: &'a [f64],
    /// Friction force on the sample `F_f` [N].
    pub friction: &'a [f64],
    /// Force the rig applies (break-away test) [N].
    pub applied: Option<&'a [f64]>,
    /// Height of the body above the counter-surface's reference (normal-creep test: the second
    /// degree of freedom's position) [m].
    pub normal: Option<&'a [f64]>,
}

/// Reads `record` of `programme` run with `law` under `normal_load_n` (`law` is `None` for a
/// system whose friction is its own, such as the asperity model: nothing is compared with a
/// law's characteristic or virgin curve then).
pub fn read(
    programme: &RigProgramme,
    law: Option<&LawConfig>,
    normal_load_n: f64,
    record: &RigRecord<'_>,
) -> RigReading {
    match programme.test {
        RigTest::Stribeck => stribeck::read(programme, law, normal_load_n, record),
        RigTest::FrictionalLag => lag::read(programme, law, normal_load_n, record),
        RigTest::PreSliding => presliding::read(programme, law, normal_load_n, record),
        RigTest::BreakAway => break_away::read(programme, record),
        RigTest::Slides => slides::read(programme, normal_load_n, record),
        RigTest::NormalCreep => normal_creep::read(record),
    }
}

/// Rows with `start ≤ t < end`, when the record reaches `end` or its last output row before
/// it (the stretch is complete).
fn complete_rows(time: &[f64], start_s: f64, end_s: f64) -> Option<std::ops::Range<usize>> {
    let last = *time.last()?;
    // A record whose start was dropped (the window keeps a bounded history) misses the stretch.
    if time[0] > start_s {
        return None;
    }
    // The output interval: the last step between two distinct rows (event rows repeat a time).
    let step = time
        .iter()
        .rev()
        .find(|&&t| t < last)
        .map_or(0.0, |&before| last - before);
    if last + 1.01 * step < end_s * (1.0 - 1e-12) {
        return None;
    }
    let a = time.partition_point(|&t| t < start_s);
    let b = time.partition_point(|&t| t < end_s * (1.0 - 1e-12));
    (b > a + 1).then_some(a..b)
}

/// Time average of `y` over rows `range` (trapezoids; uneven rows allowed).
fn time_mean(time: &[f64], y: &[f64], range: std::ops::Range<usize>) -> f64 {
    let (a, b) = (range.start, range.end);
    let span = time[b - 1] - time[a];
    if span <= 0.0 {
        return y[a..b].iter().sum::<f64>() / (b - a) as f64;
    }
    let area: f64 = (a..b - 1)
        .map(|i| 0.5 * (y[i] + y[i + 1]) * (time[i + 1] - time[i]))
        .sum();
    area / span
}

/// Log-spaced values from `lo` to `hi` (both > 0), `n ≥ 2` of them.
fn log_space(lo: f64, hi: f64, n: usize) -> impl Iterator<Item = f64> {
    let r = hi / lo;
    (0..n).map(move |i| lo * r.powf(i as f64 / (n - 1) as f64))
}

/// A share of a whole as a percentage a reader can take in (`12.5 %`, `0.031 %`,
/// `under 0.001 %`).
fn percent(share: f64) -> String {
    let p = 100.0 * share.abs();
    if p >= 1.0 {
        format!("{p:.1} %")
    } else if p >= 1e-3 {
        format!("{p:.3} %")
    } else {
        "under 0.001 %".to_string()
    }
}
