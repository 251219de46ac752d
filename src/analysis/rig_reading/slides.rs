//! The slides test read: the friction coefficient `μ = R/N` against the sliding distance of
//! each slide (the standard figure of a tribometer test), its peak, where the peak is, and its
//! value at the end of the slide.

use super::{Axis, Mark, RigReading, RigRecord, Series};
use crate::systems::RigProgramme;
use crate::util::eng::format_si;

pub(super) fn read(
    programme: &RigProgramme,
    normal_load_n: f64,
    rec: &RigRecord<'_>,
) -> RigReading {
    let mut series = Vec::new();
    let mut rows = Vec::new();
    let last = rec.time.last().copied().unwrap_or(0.0);
    for seg in programme.segments() {
        // The row on a slide's end belongs to it: the next slide renews the contact after.
        let a = if seg.start_s > 0.0 {
            rec.time.partition_point(|&t| t <= seg.start_s)
        } else {
            0
        };
        let b = rec.time.partition_point(|&t| t <= seg.end_s);
        if b <= a + 1 {
            continue;
        }
        let points: Vec<[f64; 2]> = (a..b)
            .map(|i| [rec.position[i], -rec.friction[i] / normal_load_n])
            .collect();
        let (peak_at, peak) = points.iter().fold((0.0, f64::NEG_INFINITY), |(x, m), p| {
            if p[1] > m { (p[0], p[1]) } else { (x, m) }
        });
        // Complete when the record reaches the slide's end or its last output row before it,
        // and holds its start.
        let step = rec.time.get(b - 1).copied().unwrap_or(0.0)
            - rec.time.get(b.saturating_sub(2)).copied().unwrap_or(0.0);
        let complete =
            last + 1.01 * step >= seg.end_s * (1.0 - 1e-12) && rec.time[0] <= seg.start_s;
        if complete && let Some(end) = points.last() {
            rows.push(vec![seg.value, peak, peak_at, end[1], end[0]]);
        }
        series.push(Series {
            name: format!("v = {}", format_si(seg.value, "m/s", 3)),
            mark: Mark::Line,
            points,
        });
    }
    let findings = rows
        .iter()
        .map(|r| {
            format!(
                "At {}: friction coefficient peaks at {:.4} after {} of sliding and is {:.4} \
                 after {}.",
                format_si(r[0], "m/s", 3),
                r[1],
                format_si(r[2], "m", 3),
                r[3],
                format_si(r[4], "m", 3)
            )
        })
        .collect();
    RigReading {
        title: "Slides: friction coefficient against sliding distance".into(),
        x: Axis::linear("sliding distance x", "m"),
        y: Axis::linear("friction coefficient f_t/f_n", ""),
        series,
        findings,
        figures: Vec::new(),
        columns: vec![
            ("speed", "m/s"),
            ("peak_coefficient", ""),
            ("distance_at_peak", "m"),
            ("final_coefficient", ""),
            ("distance", "m"),
        ],
        rows,
    }
}
