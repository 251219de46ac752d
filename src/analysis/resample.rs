//! Sampling-grid check and explicit linear resampling of a measured series.
//! ```text
//! Δ_i = t_{i+1} − t_i,   Δ̃ = median Δ_i,   uniform ⇔ max_i |Δ_i − Δ̃| ≤ tol·Δ̃   (tol = 1 %)
//! resampled: t′_k = t_0 + k·Δ̃ (k = 0 … ⌊(t_end − t_0)/Δ̃⌋),
//!            s′_k = s_i + (s_{i+1} − s_i)·(t′_k − t_i)/(t_{i+1} − t_i),  t_i ≤ t′_k ≤ t_{i+1}
//! ```
//! The 1 % tolerance absorbs timestamps printed with few digits and clock jitter (1 ms samples
//! printed to 10 µs deviate by ≤ 1 %), while a missing sample (a 2Δ̃ step) or a rate change is
//! caught. Resampling is never done silently: the caller asks for it and the report says so.

/// Statistics of the time steps of a record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spacing {
    /// Median step Δ̃ [s].
    pub median_s: f64,
    /// Smallest step [s].
    pub min_s: f64,
    /// Largest step [s].
    pub max_s: f64,
    /// `max |Δ_i − Δ̃| / Δ̃`.
    pub max_deviation: f64,
    /// Index `i` of the worst step `t_i → t_{i+1}` (0-based data row).
    pub worst_step: usize,
    /// Tolerance the record was checked against (fraction of Δ̃).
    pub tolerance: f64,
}

/// Default tolerance of the uniform-spacing check (fraction of the median step).
pub const DEFAULT_SPACING_TOLERANCE: f64 = 0.01;

impl Spacing {
    /// Step statistics of the strictly increasing times `t` (at least two), checked against
    /// `tolerance`.
    pub fn of(t: &[f64], tolerance: f64) -> Option<Self> {
        if t.len() < 2 {
            return None;
        }
        let steps: Vec<f64> = t.windows(2).map(|w| w[1] - w[0]).collect();
        let mut sorted = steps.clone();
        sorted.sort_by(f64::total_cmp);
        let mid = sorted.len() / 2;
        let median_s = if sorted.len() % 2 == 1 {
            sorted[mid]
        } else {
            0.5 * (sorted[mid - 1] + sorted[mid])
        };
        let (worst_step, dev) = steps
            .iter()
            .map(|d| (d - median_s).abs())
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        Some(Self {
            median_s,
            min_s: sorted[0],
            max_s: sorted[sorted.len() - 1],
            max_deviation: dev / median_s,
            worst_step,
            tolerance,
        })
    }

    /// Whether every step is within the tolerance of the median.
    pub fn is_uniform(&self) -> bool {
        self.max_deviation <= self.tolerance
    }
}

/// Linear interpolation of `(t, v)` onto `t_0 + k·dt` up to the last time (module doc).
pub fn resample_linear(t: &[f64], v: &[f64], dt: f64) -> Vec<f64> {
    let (Some(&t0), Some(&t_end)) = (t.first(), t.last()) else {
        return Vec::new();
    };
    if dt.is_nan() || dt <= 0.0 || t.len() != v.len() {
        return Vec::new();
    }
    let count = ((t_end - t0) / dt * (1.0 + 1e-12)).floor() as usize + 1;
    let mut out = Vec::with_capacity(count);
    let mut i = 0;
    for k in 0..count {
        let tk = (t0 + k as f64 * dt).min(t_end);
        while i + 2 < t.len() && t[i + 1] < tk {
            i += 1;
        }
        let j = (i + 1).min(t.len() - 1);
        let w = if t[j] > t[i] {
            ((tk - t[i]) / (t[j] - t[i])).clamp(0.0, 1.0)
        } else {
            0.0
        };
        out.push(v[i] + (v[j] - v[i]) * w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_statistics() {
        let t = [0.0, 1.0, 2.0, 3.005, 4.0, 6.0];
        let s = Spacing::of(&t, 0.01).unwrap();
        assert_eq!(s.median_s, 1.0);
        assert!((s.min_s - 0.995).abs() < 1e-12 && s.max_s == 2.0);
        assert!((s.max_deviation - 1.0).abs() < 1e-12 && s.worst_step == 4);
        assert!(!s.is_uniform());
        assert!(Spacing::of(&t[..5], 0.01).unwrap().is_uniform());
    }

    #[test]
    fn resampling_reproduces_a_line_and_keeps_the_end() {
        let t = [0.0, 0.9, 2.1, 3.0, 4.2];
        let v: Vec<f64> = t.iter().map(|x| 2.0 * x - 1.0).collect();
        let r = resample_linear(&t, &v, 1.0);
        assert_eq!(r.len(), 5);
        for (k, y) in r.iter().enumerate() {
            assert!((y - (2.0 * k as f64 - 1.0)).abs() < 1e-12, "{r:?}");
        }
    }
}
