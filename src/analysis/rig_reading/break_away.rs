//! The break-away test read: the largest friction force the contact held during each force
//! ramp (its break-away force) against the ramp's force rate, on a log axis.

use super::{Axis, Mark, RigReading, RigRecord, Series};
use crate::systems::RigProgramme;
use crate::util::eng::format_si;

pub(super) fn read(programme: &RigProgramme, rec: &RigRecord<'_>) -> RigReading {
    let mut rows = Vec::new();
    if let Some(applied) = rec.applied {
        // A ramp ends where the applied force drops (the load comes off). Its rate is read off
        // the record (the slope of the applied force), so a record whose start was dropped
        // still labels its ramps right; the first ramp of such a record may be cut and is left
        // out.
        let trimmed = rec.time.first().is_some_and(|&t| t > 0.0);
        let mut ramp = 0usize;
        let mut start: Option<usize> = None;
        let mut best: Option<(f64, f64)> = None;
        let mut last_loaded = 0usize;
        for i in 0..rec.time.len() {
            if i > 0 && applied[i] < applied[i - 1] {
                if let (Some((r, f)), Some(a)) = (best.take(), start.take())
                    && !(trimmed && ramp == 0)
                    && ramp < programme.ramps
                    && last_loaded > a
                {
                    let rate =
                        (applied[last_loaded] - applied[a]) / (rec.time[last_loaded] - rec.time[a]);
                    rows.push(vec![rate, r, f]);
                }
                ramp += 1;
            }
            if applied[i] > 0.0 {
                start.get_or_insert(i);
                last_loaded = i;
                let r = -rec.friction[i];
                if best.is_none_or(|(b, _)| r > b) {
                    best = Some((r, applied[i]));
                }
            }
        }
    }
    let mut findings = Vec::new();
    if let (Some(first), Some(last)) = (rows.first(), rows.last())
        && rows.len() >= 2
    {
        let rising = rows.windows(2).all(|w| w[1][1] > w[0][1]);
        let falling = rows.windows(2).all(|w| w[1][1] < w[0][1]);
        let trend = if rising {
            "rises steadily"
        } else if falling {
            "falls steadily"
        } else {
            "changes, not monotonically,"
        };
        findings.push(format!(
            "The break-away force {trend} from {} at {} to {} at {} ({} ramps).",
            format_si(first[1], "N", 4),
            format_si(first[0], "N/s", 3),
            format_si(last[1], "N", 4),
            format_si(last[0], "N/s", 3),
            rows.len()
        ));
    }
    RigReading {
        title: "Break-away force against the rate of the applied force".into(),
        x: Axis::log("force rate dF/dt", "N/s"),
        y: Axis::linear("break-away force", "N"),
        series: vec![Series {
            name: "largest friction held in each ramp".into(),
            mark: Mark::Points,
            points: rows.iter().map(|r| [r[0], r[1]]).collect(),
        }],
        findings,
        figures: Vec::new(),
        columns: vec![
            ("force_rate", "N/s"),
            ("break_away_force", "N"),
            ("applied_force_then", "N"),
        ],
        rows,
    }
}
