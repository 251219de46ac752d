//! The normal-creep test read: how far the loaded body has approached the counter-surface
//! since the start, against the log of time, and how much it approached in each decade of time
//! (a logarithmic creep law adds the same amount per decade).
//!
//! Decades are counted back from the end of the record (`[t_end/10, t_end]`,
//! `[t_end/100, t_end/10]`, …) while they start at least ten output intervals in.

use super::{Axis, Mark, RigReading, RigRecord, Series};
use crate::util::eng::format_si;

/// Points of the approach curve drawn (the record thinned on a log-time grid).
const CURVE_POINTS: usize = 400;

/// Per-decade increments within this factor of each other are called logarithmic creep.
const LOGARITHMIC: f64 = 1.5;

pub(super) fn read(rec: &RigRecord<'_>) -> RigReading {
    let mut reading = RigReading {
        title: "Normal creep: approach of the loaded body against time".into(),
        x: Axis::log("time t", "s"),
        y: Axis::linear("normal approach", "m"),
        columns: vec![
            ("decade_start", "s"),
            ("decade_end", "s"),
            ("approach_in_decade", "m"),
        ],
        ..RigReading::default()
    };
    let (Some(height), Some(&t_end)) = (rec.normal, rec.time.last()) else {
        reading.findings.push(
            "No normal approach recorded: the normal-creep test needs a body that can approach \
             the counter-surface."
                .to_string(),
        );
        return reading;
    };
    let n = rec.time.len().min(height.len());
    if n < 3 || t_end <= 0.0 {
        return reading;
    }
    // The approach counts from the start: a record whose start was dropped (the window keeps
    // a bounded history) cannot say it.
    if rec.time[0] > 0.0 {
        reading.findings.push(
            "The start of the record is no longer kept, so the approach since the load came \
             on is unknown: lengthen the history or run the test from the command line."
                .to_string(),
        );
        return reading;
    }
    let approach = |i: usize| height[0] - height[i];
    // The approach at time `t`: linear between the rows around it.
    let at = |t: f64| {
        let i = rec.time[..n].partition_point(|&ti| ti < t).clamp(1, n - 1);
        let (t0, t1) = (rec.time[i - 1], rec.time[i]);
        let w = if t1 > t0 { (t - t0) / (t1 - t0) } else { 1.0 };
        approach(i - 1) + w.clamp(0.0, 1.0) * (approach(i) - approach(i - 1))
    };
    let t_first = rec.time[..n]
        .iter()
        .copied()
        .find(|&t| t > 0.0)
        .unwrap_or(t_end);
    // The curve on a log grid from the first output to the end.
    if t_first < t_end {
        let ratio = t_end / t_first;
        let curve: Vec<[f64; 2]> = (0..CURVE_POINTS)
            .map(|k| t_first * ratio.powf(k as f64 / (CURVE_POINTS - 1) as f64))
            .map(|t| [t, at(t)])
            .collect();
        reading.series.push(Series {
            name: "approach".into(),
            mark: Mark::Line,
            points: curve,
        });
    }
    // Whole decades back from the end, each starting at least ten outputs in.
    let mut end = t_end;
    while end / 10.0 >= 10.0 * t_first {
        let start = end / 10.0;
        reading.rows.push(vec![start, end, at(end) - at(start)]);
        end = start;
    }
    reading.rows.reverse();
    reading.series.push(Series {
        name: "decade marks".into(),
        mark: Mark::Points,
        points: reading
            .rows
            .iter()
            .flat_map(|r| [[r[0], at(r[0])], [r[1], at(r[1])]])
            .collect(),
    });
    reading.figures.push(("approach_m", at(t_end)));
    reading.findings.push(format!(
        "The body approached the counter-surface by {} in {}.",
        format_si(at(t_end), "m", 3),
        format_si(t_end, "s", 3)
    ));
    if !reading.rows.is_empty() {
        let parts: Vec<String> = reading
            .rows
            .iter()
            .map(|r| {
                format!(
                    "{} from {} to {}",
                    format_si(r[2], "m", 3),
                    format_si(r[0], "s", 3),
                    format_si(r[1], "s", 3)
                )
            })
            .collect();
        reading.findings.push(format!(
            "Approach per decade of time: {}.",
            parts.join(", ")
        ));
    }
    if let [.., a, b] = reading.rows.as_slice() {
        let ratio = b[2] / a[2];
        if ratio.is_finite() {
            reading.figures.push(("last_decades_ratio", ratio));
        }
        reading.findings.push(
            if a[2] > 0.0 && b[2] > 0.0 && (1.0 / LOGARITHMIC..LOGARITHMIC).contains(&ratio) {
                "The last two decades add about the same approach: the creep grows as the \
                 logarithm of time (a straight line on this axis)."
                    .to_string()
            } else if b[2] < a[2] {
                "The creep slows down faster than the logarithm of time: it is settling \
                 towards an end."
                    .to_string()
            } else {
                "The creep speeds up on the log-time axis: the slow processes are still \
                 starting."
                    .to_string()
            },
        );
    }
    reading
}
