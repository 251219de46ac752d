//! The Stribeck test read: the mean resisting force over the second half of each speed level
//! against the law's steady characteristic `F_ss(v)` (when the friction comes from a law; a
//! system with friction of its own, the asperity model, is read alone).

use super::{
    Axis, Mark, RigReading, RigRecord, Series, complete_rows, log_space, percent, time_mean,
};
use crate::laws::{FrictionLaw, LawConfig};
use crate::systems::RigProgramme;
use crate::util::eng::format_si;

/// Points of the characteristic drawn.
const CURVE_POINTS: usize = 241;

pub(super) fn read(
    programme: &RigProgramme,
    law: Option<&LawConfig>,
    normal_load_n: f64,
    record: &RigRecord<'_>,
) -> RigReading {
    let law = law.map(LawConfig::build);
    let steady = |v: f64| {
        law.as_ref()
            .map_or(f64::NAN, |l| -l.steady_force(v, normal_load_n, 1.0))
    };
    let mut forward = Vec::new();
    let mut backward = Vec::new();
    let mut rows = Vec::new();
    let mut worst: Option<(f64, f64)> = None;
    for seg in programme.segments() {
        let Some(range) = complete_rows(record.time, seg.start_s, seg.end_s) else {
            continue;
        };
        let resisting = -time_mean(record.time, record.friction, range);
        let characteristic = steady(seg.value);
        let v = seg.value;
        if v > 0.0 {
            forward.push([v, resisting]);
        } else {
            backward.push([-v, -resisting]);
        }
        let miss = (resisting - characteristic).abs();
        if miss.is_finite() && worst.is_none_or(|(w, _)| miss > w) {
            worst = Some((miss, v));
        }
        rows.push(if law.is_some() {
            vec![v, resisting, characteristic]
        } else {
            vec![v, resisting]
        });
    }
    let (lo, hi) = programme.speed_range_mps;
    let curve: Vec<[f64; 2]> = log_space(
        lo / 3.0,
        hi * 3.0,
        CURVE_POINTS * usize::from(law.is_some()),
    )
    .map(|v| [v, steady(v)])
    .filter(|p| p[1].is_finite())
    .collect();
    let mut findings = Vec::new();
    if law.is_none() && !rows.is_empty() {
        findings.push(format!("Measured at {} speeds.", rows.len()));
    }
    if let Some((miss, v)) = worst {
        let scale = rows
            .iter()
            .map(|r| r[2].abs())
            .filter(|x| x.is_finite())
            .fold(0.0, f64::max);
        findings.push(format!(
            "Measured at {} speeds. The largest difference from the law's steady \
             characteristic is {} ({} of the largest friction), at {}.",
            rows.len(),
            format_si(miss, "N", 3),
            percent(miss / scale.max(f64::MIN_POSITIVE)),
            format_si(v, "m/s", 3),
        ));
    }
    // The longest fall along the forward curve (speed rising): the part that can self-excite.
    let mut sorted = forward.clone();
    sorted.sort_by(|a, b| a[0].total_cmp(&b[0]));
    // Falls smaller than a millionth of the friction (round-off of a flat curve) do not count.
    let tol = 1e-6 * sorted.iter().map(|p| p[1].abs()).fold(0.0, f64::max);
    let mut fall: Option<(usize, usize)> = None;
    let mut start = 0;
    for i in 1..=sorted.len() {
        if i == sorted.len() || sorted[i][1] >= sorted[i - 1][1] - tol {
            let drop = |(a, b): (usize, usize)| sorted[a][1] - sorted[b][1];
            if i - 1 > start && fall.is_none_or(|f| drop((start, i - 1)) > drop(f)) {
                fall = Some((start, i - 1));
            }
            start = i;
        }
    }
    if !sorted.is_empty() {
        findings.push(match fall {
            Some((a, b)) => format!(
                "Forward, friction falls from {} at {} to {} at {}: on a falling curve a \
                 sliding contact can self-excite (stick–slip).",
                format_si(sorted[a][1], "N", 3),
                format_si(sorted[a][0], "m/s", 3),
                format_si(sorted[b][1], "N", 3),
                format_si(sorted[b][0], "m/s", 3),
            ),
            None => "Forward, friction does not fall with speed anywhere in the measured \
                     range."
                .to_string(),
        });
    }
    RigReading {
        title: "Stribeck curve: steady friction against sliding speed".into(),
        x: Axis::log("sliding speed |v|", "m/s"),
        y: Axis::linear("friction |R|", "N"),
        series: [
            Series {
                name: "law's steady characteristic".into(),
                mark: Mark::Line,
                points: curve,
            },
            Series {
                name: "measured, forward".into(),
                mark: Mark::Points,
                points: forward,
            },
            Series {
                name: "measured, backward".into(),
                mark: Mark::Points,
                points: backward,
            },
        ]
        .into_iter()
        .filter(|s| !s.points.is_empty())
        .collect(),
        findings,
        figures: worst
            .map(|(miss, _)| vec![("largest_departure", miss)])
            .unwrap_or_default(),
        columns: if law.is_some() {
            vec![
                ("v", "m/s"),
                ("friction_measured", "N"),
                ("friction_steady", "N"),
            ]
        } else {
            vec![("v", "m/s"), ("friction_measured", "N")]
        },
        rows,
    }
}
