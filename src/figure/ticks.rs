//! Tick positions and labels: linear axes at 1–2–5 steps in the prefixed unit of their values
//! (a 54 µm range reads 0, 20, 40 µm), logarithmic axes at decades (or 1–2–5 within a decade
//! when the range is shorter than two decades).

use crate::util::eng::{axis_unit, format_si};

/// Ticks of an axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Ticks {
    /// Positions in SI units.
    pub at: Vec<f64>,
    /// Labels (numbers in the axis' display unit; powers of ten in SI notation on log axes).
    pub labels: Vec<String>,
    /// The unit the labels are in (`µm`), for the axis title.
    pub unit: String,
}

/// The 1–2–5 step nearest `span / count`.
pub fn nice_step(span: f64, count: f64) -> f64 {
    let raw = (span.abs() / count).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powf(raw.log10().floor());
    let m = raw / magnitude;
    let nice = if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// Ticks between `lo` and `hi` (SI), about six, in `unit`.
pub fn ticks(lo: f64, hi: f64, unit: &str, log: bool) -> Ticks {
    if log && lo > 0.0 && hi > lo {
        let (a, b) = (lo.log10(), hi.log10());
        let at: Vec<f64> = if b - a >= 2.0 {
            let step = nice_step(b - a, 6.0).max(1.0).round();
            grid(a, b, step)
                .into_iter()
                .map(|e| 10f64.powf(e))
                .collect()
        } else {
            // Less than two decades: 1, 2 and 5 times each power of ten.
            let (first, last) = (a.floor() as i32, b.ceil() as i32);
            (first..=last)
                .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
                .filter(|v| *v >= lo * (1.0 - 1e-9) && *v <= hi * (1.0 + 1e-9))
                .collect()
        };
        let labels = at.iter().map(|&v| format_si(v, unit, 2)).collect();
        return Ticks {
            at,
            labels,
            unit: unit.to_string(),
        };
    }
    let (factor, shown) = axis_unit(lo.abs().max(hi.abs()), unit);
    let step = nice_step((hi - lo) * factor, 6.0);
    let at_shown = grid(lo * factor, hi * factor, step);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let labels = at_shown
        .iter()
        .map(|v| {
            let v = if v.abs() < step * 1e-9 { 0.0 } else { *v };
            format!("{v:.decimals$}").replace('-', "−")
        })
        .collect();
    Ticks {
        at: at_shown.iter().map(|v| v / factor).collect(),
        labels,
        unit: shown,
    }
}

/// Multiples of `step` in `[a, b]`.
fn grid(a: f64, b: f64, step: f64) -> Vec<f64> {
    if step.is_nan() || step <= 0.0 || !a.is_finite() || !b.is_finite() {
        return Vec::new();
    }
    let first = (a / step - 1e-9).ceil() as i64;
    let last = (b / step + 1e-9).floor() as i64;
    (first..=last.min(first + 1000))
        .map(|k| k as f64 * step)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_are_in_the_prefixed_unit() {
        let t = ticks(-5.4e-5, 5.4e-5, "m", false);
        assert_eq!(t.unit, "µm");
        assert_eq!(t.labels, ["−40", "−20", "0", "20", "40"]);
        assert!((t.at[3] - 2e-5).abs() < 1e-18);
        let t = ticks(0.0, 1.5, "N", false);
        assert_eq!(
            t.labels,
            ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0", "1.2", "1.4"]
        );
    }

    #[test]
    fn log_ticks_are_decades() {
        let t = ticks(1e-5, 0.1, "m/s", true);
        assert_eq!(
            t.labels,
            ["10 µm/s", "100 µm/s", "1.0 mm/s", "10 mm/s", "100 mm/s"]
        );
        let t = ticks(0.3, 4.0, "Hz", true);
        assert_eq!(t.labels, ["500 mHz", "1.0 Hz", "2.0 Hz"]);
    }
}
