//! Average mutual information (Fraser & Swinney 1986; MODELS §4.5) and the delay it suggests.
//! ```text
//! B equal bins over [min s, max s];  histogram of the pairs (s_n, s_{n+τ}), n = 0 … N−τ−1
//! I(τ) = Σ_ab p_ab · ln(p_ab / (p_a · p_b))        [nats]
//! ```
//! Delay rule: the first local minimum τ* (`I(τ*−1) > I(τ*) ≤ I(τ*+1)`) whose depth — how far
//! `I` rises to the right of τ* before it falls below `I(τ*)` again — is at least
//! `min_depth · (I(0) − I(τ*))` (default 1 %). Binning noise makes dips of ~0.1 % of that drop
//! (Lorenz x, B = 32…64: spurious dips at τ = 25–29 have depth 0.04–0.2 %, the real minimum at
//! τ = 16 has 2.5–5.6 %), so the rule skips them without smoothing the curve. When no minimum
//! qualifies within the searched delays, the fallback is the first τ with `I(τ) < I(0)/e`.

use super::error::{SeriesError, check_finite};

/// Default number of bins per axis (MODELS: 16–64).
pub const DEFAULT_BINS: usize = 32;
/// Default minimum depth of the accepted minimum, as a fraction of `I(0) − I(τ*)`.
pub const DEFAULT_MIN_DEPTH: f64 = 0.01;

/// Settings of the AMI delay search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AmiOptions {
    /// Bins per axis `B`.
    pub bins: usize,
    /// Largest delay searched [samples].
    pub max_delay: usize,
    /// Minimum depth of an accepted minimum (fraction of `I(0) − I(τ*)`).
    pub min_depth: f64,
}

impl Default for AmiOptions {
    fn default() -> Self {
        Self {
            bins: DEFAULT_BINS,
            max_delay: 200,
            min_depth: DEFAULT_MIN_DEPTH,
        }
    }
}

/// Which rule chose the delay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayRule {
    /// First local minimum of `I(τ)` deep enough to stand above binning noise.
    FirstMinimum,
    /// Fallback: first `τ` with `I(τ) < I(0)/e`.
    OneOverE,
}

impl DelayRule {
    /// Short machine-readable name.
    pub fn key(self) -> &'static str {
        match self {
            DelayRule::FirstMinimum => "first_minimum",
            DelayRule::OneOverE => "one_over_e",
        }
    }

    /// The rule in words.
    pub fn describe(self) -> &'static str {
        match self {
            DelayRule::FirstMinimum => "first minimum of the mutual information",
            DelayRule::OneOverE => "no clear minimum; first delay with I(τ) < I(0)/e",
        }
    }
}

/// The chosen delay and why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DelayChoice {
    /// Delay τ [samples].
    pub delay: usize,
    /// Rule that decided.
    pub rule: DelayRule,
}

/// `I(τ)` for `τ = 0, 1, …` [nats].
#[derive(Clone, Debug, PartialEq)]
pub struct AmiCurve {
    /// Bins per axis.
    pub bins: usize,
    /// `values[τ] = I(τ)`.
    pub values: Vec<f64>,
}

/// Histogram bin of every sample (equal bins over the series' range).
fn bin_indices(series: &[f64], bins: usize) -> Result<Vec<usize>, SeriesError> {
    check_finite(series)?;
    let lo = series.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = series.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if hi <= lo {
        return Err(SeriesError::Constant {
            what: "mutual information",
        });
    }
    let scale = bins as f64 / (hi - lo);
    Ok(series
        .iter()
        .map(|&v| (((v - lo) * scale) as usize).min(bins - 1))
        .collect())
}

/// `I(τ)` from the bin indices.
fn mutual_information_at(idx: &[usize], bins: usize, tau: usize, joint: &mut [u32]) -> f64 {
    let m = idx.len() - tau;
    joint.iter_mut().for_each(|c| *c = 0);
    let mut pa = vec![0u32; bins];
    let mut pb = vec![0u32; bins];
    for n in 0..m {
        let (a, b) = (idx[n], idx[n + tau]);
        joint[a * bins + b] += 1;
        pa[a] += 1;
        pb[b] += 1;
    }
    let mf = m as f64;
    let mut sum = 0.0;
    for a in 0..bins {
        for b in 0..bins {
            let c = joint[a * bins + b];
            if c > 0 {
                let c = f64::from(c);
                sum += c * (c * mf / (f64::from(pa[a]) * f64::from(pb[b]))).ln();
            }
        }
    }
    sum / mf
}

impl AmiCurve {
    /// `I(τ)` for `τ = 0 ..= max_delay` with `bins` bins per axis.
    pub fn compute(series: &[f64], bins: usize, max_delay: usize) -> Result<Self, SeriesError> {
        Self::compute_until(series, bins, max_delay, |_| false)
    }

    /// `I(τ)` for increasing τ until `max_delay`, or earlier once `stop(values so far)`.
    fn compute_until(
        series: &[f64],
        bins: usize,
        max_delay: usize,
        stop: impl Fn(&[f64]) -> bool,
    ) -> Result<Self, SeriesError> {
        if bins < 2 {
            return Err(SeriesError::InvalidParameter {
                what: "mutual information",
                message: format!("needs at least 2 bins, got {bins}"),
            });
        }
        let need = max_delay + 2 * bins;
        if series.len() < need {
            return Err(SeriesError::TooShort {
                what: "mutual information",
                got: series.len(),
                need,
            });
        }
        let idx = bin_indices(series, bins)?;
        let mut joint = vec![0u32; bins * bins];
        let mut values = Vec::new();
        for tau in 0..=max_delay {
            values.push(mutual_information_at(&idx, bins, tau, &mut joint));
            if stop(&values) {
                break;
            }
        }
        Ok(Self { bins, values })
    }

    /// The delay by the first-minimum rule, else the `I(0)/e` fallback (module doc).
    pub fn choose_delay(&self, min_depth: f64) -> Option<DelayChoice> {
        first_deep_minimum(&self.values, min_depth)
            .map(|delay| DelayChoice {
                delay,
                rule: DelayRule::FirstMinimum,
            })
            .or_else(|| {
                let limit = self.values.first()? / std::f64::consts::E;
                let delay = self.values.iter().position(|&v| v < limit)?;
                Some(DelayChoice {
                    delay,
                    rule: DelayRule::OneOverE,
                })
            })
    }
}

/// First local minimum of `v` whose right-hand rise reaches `min_depth·(v[0] − v[τ])` before
/// `v` falls below `v[τ]`.
pub fn first_deep_minimum(v: &[f64], min_depth: f64) -> Option<usize> {
    let i0 = *v.first()?;
    for t in 1..v.len().saturating_sub(1) {
        if !(v[t] < v[t - 1] && v[t] <= v[t + 1]) {
            continue;
        }
        let need = min_depth * (i0 - v[t]);
        let mut rise = 0.0_f64;
        for &u in &v[t + 1..] {
            if u < v[t] {
                break;
            }
            rise = rise.max(u - v[t]);
            if rise >= need && rise > 0.0 {
                return Some(t);
            }
        }
    }
    None
}

/// AMI curve and chosen delay; stops computing once a minimum is confirmed and the curve has
/// been followed to twice its delay (enough to plot the rise), else goes to `max_delay`.
pub fn ami_delay(
    series: &[f64],
    opts: &AmiOptions,
) -> Result<(AmiCurve, Option<DelayChoice>), SeriesError> {
    let depth = opts.min_depth;
    let curve = AmiCurve::compute_until(series, opts.bins, opts.max_delay, |v| {
        first_deep_minimum(v, depth).is_some_and(|t| v.len() > 2 * t + 1)
    })?;
    let choice = curve.choose_delay(depth);
    Ok((curve, choice))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_delay_gives_the_entropy_and_independent_pairs_nearly_zero() {
        // A sawtooth through all 4 bins equally: I(0) = H = ln 4.
        let s: Vec<f64> = (0..4000).map(|n| (n % 4) as f64).collect();
        let c = AmiCurve::compute(&s, 4, 3).unwrap();
        assert!((c.values[0] - 4f64.ln()).abs() < 1e-12);
        // s_{n+1} is a function of s_n: still ln 4 (up to the one pair dropped).
        assert!((c.values[1] - 4f64.ln()).abs() < 1e-3);
        let mut g = crate::util::rng::SplitMix64::new(3);
        let noise: Vec<f64> = (0..20000).map(|_| g.uniform_open()).collect();
        let c = AmiCurve::compute(&noise, 8, 2).unwrap();
        // Bias of the plug-in estimate ≈ (B−1)²/(2N) = 1.2e-3.
        assert!(c.values[1] < 5e-3, "{}", c.values[1]);
    }

    #[test]
    fn shallow_dips_are_skipped() {
        let v = [3.0, 2.0, 1.0, 0.999, 0.9995, 0.8, 0.7, 0.9, 1.0];
        assert_eq!(first_deep_minimum(&v, 0.01), Some(6));
        let mono = [3.0, 2.0, 1.5, 1.2, 1.0, 0.9];
        let c = AmiCurve {
            bins: 2,
            values: mono.to_vec(),
        };
        assert_eq!(
            c.choose_delay(0.01),
            Some(DelayChoice {
                delay: 4,
                rule: DelayRule::OneOverE
            })
        );
    }

    #[test]
    fn noisy_sine_delay_is_a_quarter_period() {
        // For a noisy sine the first AMI minimum sits near a quarter period. (A pure sine is
        // degenerate for binned AMI: its joint histogram is a curve and I(τ) wiggles.)
        let mut g = crate::util::rng::SplitMix64::new(5);
        let s: Vec<f64> = (0..20000)
            .map(|n| (std::f64::consts::TAU * n as f64 / 100.0).sin() + 0.3 * g.normal())
            .collect();
        let (_, choice) = ami_delay(&s, &AmiOptions::default()).unwrap();
        let choice = choice.unwrap();
        assert_eq!(choice.rule, DelayRule::FirstMinimum);
        assert!((23..=27).contains(&choice.delay), "{choice:?}");
    }

    #[test]
    fn rejects_constant_and_short_series() {
        assert!(matches!(
            AmiCurve::compute(&[1.0; 500], 16, 10),
            Err(SeriesError::Constant { .. })
        ));
        assert!(matches!(
            AmiCurve::compute(&[1.0, 2.0], 16, 10),
            Err(SeriesError::TooShort { .. })
        ));
    }
}
