//! Least-squares lines and automatic detection of the straight part of a curve (used on the
//! divergence curve p(k), MODELS §4.5: transient, straight segment, saturation).
//! ```text
//! fit over k = a … b, x_k = k·Δx:   slope = S_xy/S_xx,   r² = S_xy²/(S_xx·S_yy)
//! local slope  σ_k = (y_{k+h} − y_{k−h}) / (2h·Δx),   h = max(1, K/40)
//! ```
//! **Straight region**: among segments `[a, b]` (ends on a grid of ≤ 120 steps of the curve
//! length K) with at least `max(5, K/20)` points, keep those whose fit has a positive slope,
//! `r² ≥ 0.99`, and every local slope inside the segment within ±30 % of the fitted slope;
//! the longest wins (ties: higher r²). The local-slope test rejects segments that bend into
//! the initial transient or the saturation although a line still fits them with high r²;
//! the r² test rejects flat, noisy plateaus (a noise series saturates at k = 1, so its curve
//! has no rising straight part: `None`).

/// A least-squares line over samples `start ..= end` of a curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineFit {
    /// First sample of the fit.
    pub start: usize,
    /// Last sample of the fit (inclusive).
    pub end: usize,
    /// Slope per unit of `x = k·Δx`.
    pub slope: f64,
    /// Value of the line at `x = 0`.
    pub intercept: f64,
    /// Coefficient of determination.
    pub r2: f64,
}

/// Criteria of the straight-region search (module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StraightCriteria {
    /// Minimum r² of the fit.
    pub min_r2: f64,
    /// Largest relative deviation of a local slope from the fitted slope.
    pub slope_tolerance: f64,
    /// Minimum length as a fraction of the curve (at least 5 points).
    pub min_fraction: f64,
}

impl Default for StraightCriteria {
    fn default() -> Self {
        Self {
            min_r2: 0.99,
            slope_tolerance: 0.3,
            min_fraction: 0.05,
        }
    }
}

/// Prefix sums for O(1) least-squares fits on any segment.
struct Sums {
    x: Vec<f64>,
    y: Vec<f64>,
    xx: Vec<f64>,
    xy: Vec<f64>,
    yy: Vec<f64>,
}

impl Sums {
    fn new(y: &[f64]) -> Self {
        let n = y.len();
        let mut s = Sums {
            x: vec![0.0; n + 1],
            y: vec![0.0; n + 1],
            xx: vec![0.0; n + 1],
            xy: vec![0.0; n + 1],
            yy: vec![0.0; n + 1],
        };
        for (k, &v) in y.iter().enumerate() {
            let x = k as f64;
            s.x[k + 1] = s.x[k] + x;
            s.y[k + 1] = s.y[k] + v;
            s.xx[k + 1] = s.xx[k] + x * x;
            s.xy[k + 1] = s.xy[k] + x * v;
            s.yy[k + 1] = s.yy[k] + v * v;
        }
        s
    }

    /// Fit over `a ..= b` with `x = k` (slope per sample).
    fn fit(&self, a: usize, b: usize) -> Option<(f64, f64, f64)> {
        let n = (b + 1 - a) as f64;
        let d = |v: &[f64]| v[b + 1] - v[a];
        let (sx, sy) = (d(&self.x), d(&self.y));
        let sxx = d(&self.xx) - sx * sx / n;
        let sxy = d(&self.xy) - sx * sy / n;
        let syy = d(&self.yy) - sy * sy / n;
        if n < 2.0 || sxx <= 0.0 {
            return None;
        }
        let slope = sxy / sxx;
        let r2 = if syy > 0.0 {
            sxy * sxy / (sxx * syy)
        } else {
            0.0
        };
        Some((slope, (sy - slope * sx) / n, r2))
    }
}

/// Least-squares line through `y[start ..= end]` against `x = k·dx`.
pub fn fit_line(y: &[f64], dx: f64, start: usize, end: usize) -> Option<LineFit> {
    if end >= y.len() || end <= start || dx <= 0.0 {
        return None;
    }
    let (slope, intercept, r2) = Sums::new(y).fit(start, end)?;
    Some(LineFit {
        start,
        end,
        slope: slope / dx,
        intercept,
        r2,
    })
}

/// Exponent `p` of a power law `c ∝ n^p` through points `(n, c)`: the least-squares slope of
/// `ln c` against `ln n` (cost against problem size, for the scaling tables).
pub fn power_law_exponent(points: &[(f64, f64)]) -> f64 {
    let logs: Vec<(f64, f64)> = points.iter().map(|(n, c)| (n.ln(), c.ln())).collect();
    line_through(&logs).map_or(f64::NAN, |(slope, _)| slope)
}

/// Least-squares line `y = slope·x + intercept` through points `(x, y)`; `None` with fewer
/// than two distinct `x`.
pub fn line_through(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let m = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / m;
    let my = points.iter().map(|p| p.1).sum::<f64>() / m;
    let (sxy, sxx) = points.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
        let dx = x - mx;
        (a + dx * (y - my), b + dx * dx)
    });
    let slope = sxy / sxx;
    (sxx > 0.0 && slope.is_finite()).then_some((slope, my - slope * mx))
}

/// The straight region of `y` (module doc), `x = k·dx`; `None` when no segment qualifies.
pub fn find_straight_region(y: &[f64], dx: f64, crit: &StraightCriteria) -> Option<LineFit> {
    if y.len() < 5 || dx <= 0.0 || y.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let last = y.len() - 1;
    let h = (last / 40).max(1);
    let local: Vec<Option<f64>> = (0..=last)
        .map(|k| (k >= h && k + h <= last).then(|| (y[k + h] - y[k - h]) / (2 * h) as f64))
        .collect();
    let step = (last / 120).max(1);
    let min_len = ((crit.min_fraction * last as f64).ceil() as usize).max(5);
    let sums = Sums::new(y);
    let mut best: Option<LineFit> = None;
    for a in (0..=last).step_by(step) {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut scanned = a;
        for b in (a..=last).step_by(step) {
            for s in local[scanned..=b].iter().flatten() {
                lo = lo.min(*s);
                hi = hi.max(*s);
            }
            scanned = b + 1;
            if b + 1 - a < min_len {
                continue;
            }
            let Some((slope, intercept, r2)) = sums.fit(a, b) else {
                continue;
            };
            let band = crit.slope_tolerance * slope;
            if slope <= 0.0 || r2 < crit.min_r2 || lo < slope - band || hi > slope + band {
                continue;
            }
            let better = best.is_none_or(|f| (b - a, r2) > (f.end - f.start, f.r2));
            if better {
                best = Some(LineFit {
                    start: a,
                    end: b,
                    slope: slope / dx,
                    intercept,
                    r2,
                });
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_law_exponent_recovers_the_exponent() {
        let pts: Vec<(f64, f64)> = [10.0f64, 100.0, 1000.0]
            .iter()
            .map(|&n| (n, 0.3 * n.powf(1.7)))
            .collect();
        assert!((power_law_exponent(&pts) - 1.7).abs() < 1e-12);
    }

    #[test]
    fn fits_a_line_exactly() {
        let y: Vec<f64> = (0..50).map(|k| 2.0 + 0.5 * k as f64).collect();
        let f = fit_line(&y, 0.1, 3, 40).unwrap();
        assert!((f.slope - 5.0).abs() < 1e-12 && (f.r2 - 1.0).abs() < 1e-12);
        assert!((f.intercept - 2.0).abs() < 1e-9);
    }

    #[test]
    fn finds_the_ramp_between_transient_and_saturation() {
        // Fast transient to k = 20, straight slope 0.05/sample to k = 200, then flat.
        let y: Vec<f64> = (0..400)
            .map(|k| {
                let k = k as f64;
                let ramp = 1.0 - (-k / 5.0).exp() + 0.05 * (k.min(200.0) - 20.0).max(0.0);
                ramp + 0.01 * (k * 0.7).sin()
            })
            .collect();
        let f = find_straight_region(&y, 1.0, &StraightCriteria::default()).unwrap();
        assert!((f.slope - 0.05).abs() < 0.003, "{f:?}");
        assert!(f.start <= 40 && f.end >= 180 && f.end <= 215, "{f:?}");
    }

    #[test]
    fn flat_noisy_curve_has_no_straight_region() {
        let mut g = crate::util::rng::SplitMix64::new(1);
        let y: Vec<f64> = (0..200)
            .map(|k| if k == 0 { 0.0 } else { 3.0 + 0.01 * g.normal() })
            .collect();
        assert_eq!(
            find_straight_region(&y, 1.0, &StraightCriteria::default()),
            None
        );
    }
}
