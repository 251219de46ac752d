//! The frictional-lag test read: the friction–velocity loop of the last cycle at each
//! frequency, its width at the mean speed (the force on the way down minus the force on the
//! way up) and its area, against the steady characteristic the loops shrink to as the
//! frequency falls.

use super::{Axis, Mark, RigReading, RigRecord, Series, complete_rows};
use crate::laws::{FrictionLaw, LawConfig};
use crate::systems::RigProgramme;
use crate::util::eng::format_si;

/// Points of the characteristic drawn.
const CURVE_POINTS: usize = 201;

/// Linear interpolation of `y` at time `t` (rows in time order).
fn at_time(time: &[f64], y: &[f64], t: f64) -> f64 {
    let i = time.partition_point(|&s| s < t).clamp(1, time.len() - 1);
    let (t0, t1) = (time[i - 1], time[i]);
    if t1 <= t0 {
        return y[i];
    }
    y[i - 1] + (y[i] - y[i - 1]) * (t - t0) / (t1 - t0)
}

pub(super) fn read(
    programme: &RigProgramme,
    law: Option<&LawConfig>,
    normal_load_n: f64,
    record: &RigRecord<'_>,
) -> RigReading {
    let law = law.map(LawConfig::build);
    let mut series = Vec::new();
    let mut rows = Vec::new();
    for seg in programme.segments() {
        let Some(range) = complete_rows(record.time, seg.start_s, seg.end_s) else {
            continue;
        };
        let mut points: Vec<[f64; 2]> = range
            .clone()
            .map(|i| [record.velocity[i], -record.friction[i]])
            .collect();
        // Close the loop.
        if let Some(&first) = points.first() {
            points.push(first);
        }
        // Phase 0 (accelerating through v₀) and phase π (decelerating through v₀).
        let up = -at_time(record.time, record.friction, seg.start_s);
        let down = -at_time(
            record.time,
            record.friction,
            0.5 * (seg.start_s + seg.end_s),
        );
        let area = 0.5
            * points
                .windows(2)
                .map(|w| w[0][0] * w[1][1] - w[1][0] * w[0][1])
                .sum::<f64>()
                .abs();
        rows.push(vec![seg.value, up - down, area]);
        series.push(Series {
            name: format!("f = {}", format_si(seg.value, "Hz", 3)),
            mark: Mark::Line,
            points,
        });
    }
    let v0 = programme.mean_speed_mps;
    let v1 = programme.speed_amplitude_mps;
    if let Some(law) = &law {
        let curve: Vec<[f64; 2]> = (0..CURVE_POINTS)
            .map(|i| v0 - v1 + 2.0 * v1 * i as f64 / (CURVE_POINTS - 1) as f64)
            .map(|v| [v, -law.steady_force(v, normal_load_n, 1.0)])
            .filter(|p| p[1].is_finite())
            .collect();
        series.insert(
            0,
            Series {
                name: "law's steady characteristic".into(),
                mark: Mark::Dashed,
                points: curve,
            },
        );
    }
    let mut findings = Vec::new();
    if !rows.is_empty() {
        let widths: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{} at {}",
                    format_si(r[1], "N", 3),
                    format_si(r[0], "Hz", 3)
                )
            })
            .collect();
        findings.push(format!(
            "At the mean speed {}, friction while the speed rises minus friction while it \
             falls (the lag of friction behind the speed): {}.",
            format_si(v0, "m/s", 3),
            widths.join(", ")
        ));
        let widths: Vec<f64> = rows.iter().map(|r| r[1].abs()).collect();
        let largest = widths.iter().copied().fold(0.0, f64::max);
        let scale = series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p[1].abs()))
            .fold(largest, f64::max);
        if largest <= 1e-9 * scale {
            findings.push(
                "No loop: friction follows its steady characteristic at every frequency (a \
                 law without a state)."
                    .to_string(),
            );
        } else if widths.len() >= 2 && widths.windows(2).all(|w| w[1] > w[0]) {
            findings.push(
                "The loop widens as the frequency rises: the faster the speed changes, the \
                 further friction lags behind it."
                    .to_string(),
            );
        } else if widths.len() >= 2 {
            findings.push("The loop width does not grow steadily with frequency.".to_string());
        }
    }
    RigReading {
        title: "Frictional lag: friction–velocity loops at rising frequency".into(),
        x: Axis::linear("sliding velocity v", "m/s"),
        y: Axis::linear("friction R", "N"),
        series,
        findings,
        figures: Vec::new(),
        columns: vec![
            ("frequency", "Hz"),
            ("width_at_mean_speed", "N"),
            ("loop_area", "W"),
        ],
        rows,
    }
}
