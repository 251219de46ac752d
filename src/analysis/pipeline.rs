//! The whole time-series chain on one uniformly sampled series (MODELS §4.1, §4.5):
//! spectrum peaks → AMI delay τ → Theiler window w → Cao dimension d → largest exponent from the
//! divergence curve (Rosenstein, automatic straight region) and by Wolf's method.
//!
//! Automatic choices, each reported with its rule and overridable:
//! * τ: [`ami_delay`] (first deep minimum, else `I(0)/e`); none ⇒ τ = 1 with a warning.
//! * w: the mean period `round(1/(f̄·t_s))` with the power-weighted mean frequency
//!   `f̄ = Σ f_k A_k² / Σ A_k²` (Rosenstein et al. 1993), at least τ, at most N/20: temporal
//!   neighbours closer than about one cycle are not independent returns. (The dominant peak
//!   would not do: Lorenz x has its largest peak at 0.05 Hz from lobe switching, w = 2000.)
//! * d: Cao's rule ([`cao`]); when E1 never settles, `max_dim` with a warning.
//! * K (steps of the divergence curve): `clamp(5w, 20, N/4)`, enough to reach saturation.
//! * Fit range: the automatic straight region
//!   ([`find_straight_region`](super::linefit::find_straight_region)), or `fit_range_s`.
//!   The two exponent estimates are compared; a gap above [`DISAGREEMENT`] is a warning.

use super::cao::{CaoOptions, CaoResult, cao_reporting};
use super::divergence::{DivergenceCurve, DivergenceMethod, DivergenceOptions, divergence_curve};
use super::error::{SeriesError, check_finite};
use super::linefit::{LineFit, StraightCriteria};
use super::mutual_information::{AmiCurve, AmiOptions, DEFAULT_BINS, DelayRule, ami_delay};
use super::spectrum::{Peak, Spectrum, Window, amplitude_spectrum};
use super::wolf::{WolfOptions, WolfResult, wolf};

/// Relative gap between the Rosenstein and Wolf estimates above which the report warns.
/// On eight Lorenz records (N = 2–3·10⁴) the two agree within 2–12 % except where the
/// automatic region slid into the saturation bend (0.72 against 0.88, 20 %).
pub const DISAGREEMENT: f64 = 0.15;

/// Settings of the pipeline; `None` fields are chosen automatically (module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PipelineOptions {
    /// AMI bins per axis.
    pub bins: usize,
    /// Largest delay searched by AMI [samples]; default `min(N/10, 1000)`.
    pub max_delay: Option<usize>,
    /// Delay τ [samples] instead of the AMI choice.
    pub delay: Option<usize>,
    /// Largest dimension tried by Cao.
    pub max_dim: usize,
    /// Embedding dimension instead of Cao's.
    pub dim: Option<usize>,
    /// Theiler window [samples].
    pub theiler: Option<usize>,
    /// Steps K of the divergence curve.
    pub max_steps: Option<usize>,
    /// Number of spectral peaks reported.
    pub peaks: usize,
    /// Fit range `[t0, t1]` [s] of the divergence curve instead of the automatic region.
    pub fit_range_s: Option<(f64, f64)>,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        Self {
            bins: DEFAULT_BINS,
            max_delay: None,
            delay: None,
            max_dim: 10,
            dim: None,
            theiler: None,
            max_steps: None,
            peaks: 5,
            fit_range_s: None,
        }
    }
}

/// How a parameter of the chain was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Given by the user.
    Given,
    /// By the method's rule (AMI minimum, Cao plateau, one dominant period).
    Rule,
    /// By a fallback (AMI `I(0)/e`, no dominant peak, Cao never settled).
    Fallback,
}

impl Choice {
    /// Machine-readable name.
    pub fn key(self) -> &'static str {
        match self {
            Choice::Given => "given",
            Choice::Rule => "rule",
            Choice::Fallback => "fallback",
        }
    }
}

/// Everything the chain found.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesReport {
    /// Series name (column).
    pub name: String,
    /// Samples analysed.
    pub samples: usize,
    /// Sampling interval t_s [s].
    pub dt_s: f64,
    /// Strongest spectral peaks, strongest first (Hann window).
    pub peaks: Vec<Peak>,
    /// The dominant frequency and its harmonics k·f₀, k = 1, 2, … (as many as `peaks`).
    pub harmonics: Vec<Peak>,
    /// Spectral resolution [Hz].
    pub resolution_hz: f64,
    /// The AMI curve.
    pub ami: AmiCurve,
    /// Delay τ [samples].
    pub delay: usize,
    /// How τ was chosen; with the AMI rule when it decided.
    pub delay_choice: (Choice, Option<DelayRule>),
    /// Theiler window w [samples].
    pub theiler: usize,
    /// How w was chosen.
    pub theiler_choice: Choice,
    /// Cao's curves (with delay τ and window w).
    pub cao: CaoResult,
    /// Embedding dimension d used for the exponents.
    pub dim: usize,
    /// How d was chosen.
    pub dim_choice: Choice,
    /// Rosenstein divergence curve.
    pub divergence: DivergenceCurve,
    /// Its straight region (`None`: no straight part, noise rather than chaos).
    pub fit: Option<LineFit>,
    /// Whether the fit range was given or found automatically.
    pub fit_choice: Choice,
    /// Wolf's estimate (`None` when it could not run; see the warnings).
    pub wolf: Option<WolfResult>,
    /// Things the reader should know (noise flag, fallbacks, failures).
    pub warnings: Vec<String>,
}

/// Runs the chain on `values` sampled every `dt_s` seconds (module doc).
pub fn analyze_series(
    name: &str,
    values: &[f64],
    dt_s: f64,
    o: &PipelineOptions,
) -> Result<SeriesReport, SeriesError> {
    analyze_series_reporting(name, values, dt_s, o, &mut |_| {})
}

/// [`analyze_series`], telling `progress` what it is about to compute ("Cao's method,
/// d = 3 of 11"): a long series takes minutes and a command line should say why.
pub fn analyze_series_reporting(
    name: &str,
    values: &[f64],
    dt_s: f64,
    o: &PipelineOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<SeriesReport, SeriesError> {
    check_finite(values)?;
    let n = values.len();
    if !(dt_s > 0.0 && dt_s.is_finite()) {
        return Err(SeriesError::InvalidParameter {
            what: "analysis",
            message: format!("the sampling interval must be positive, got {dt_s} s"),
        });
    }
    if n < 200 {
        return Err(SeriesError::TooShort {
            what: "analysis",
            got: n,
            need: 200,
        });
    }
    let mut warnings = Vec::new();
    progress("spectrum");
    let spectrum = amplitude_spectrum(values, dt_s, Window::Hann);
    let peaks = spectrum.peaks(o.peaks);
    let harmonics = spectrum.harmonics(o.peaks);
    // Delay, dimension and exponents do not depend on the signal's scale; their distances
    // do (squares of 1e160 overflow, of 1e-200 vanish), so they see the standardised series.
    let standardised = standardise(values);
    let values = standardised.as_slice();

    let ami_opts = AmiOptions {
        bins: o.bins,
        max_delay: o.max_delay.unwrap_or((n / 10).min(1000)),
        ..AmiOptions::default()
    };
    progress("mutual information (delay)");
    let (ami, ami_choice) = ami_delay(values, &ami_opts)?;
    let (delay, delay_choice) = match (o.delay, ami_choice) {
        (Some(d), _) => (d.max(1), (Choice::Given, None)),
        (None, Some(c)) if c.rule == DelayRule::FirstMinimum => {
            (c.delay.max(1), (Choice::Rule, Some(c.rule)))
        }
        (None, Some(c)) => {
            warnings.push(format!(
                "no clear minimum of the mutual information within {} samples; τ from I(τ) < I(0)/e",
                ami_opts.max_delay
            ));
            (c.delay.max(1), (Choice::Fallback, Some(c.rule)))
        }
        (None, None) => {
            warnings.push("the mutual information never fell below I(0)/e; τ = 1".into());
            (1, (Choice::Fallback, None))
        }
    };

    let cap = (n / 20).max(1);
    let (theiler, theiler_choice) = match (o.theiler, mean_frequency_hz(&spectrum)) {
        (Some(w), _) => (w, Choice::Given),
        (None, Some(f)) => {
            let period = (1.0 / (f * dt_s)).round() as usize;
            (period.max(delay).min(cap), Choice::Rule)
        }
        (None, None) => (delay.min(cap), Choice::Fallback),
    };

    let span = |d: usize| (d + 1) * delay + 2 * theiler + 10;
    let max_dim =
        (2..=o.max_dim.max(2))
            .rev()
            .find(|&d| span(d) <= n)
            .ok_or(SeriesError::TooShort {
                what: "Cao's method",
                got: n,
                need: span(2),
            })?;
    if max_dim < o.max_dim {
        warnings.push(format!(
            "series too short for Cao up to d = {}; stopped at {max_dim}",
            o.max_dim
        ));
    }
    let cao = cao_reporting(
        values,
        &CaoOptions {
            delay,
            max_dim,
            theiler,
        },
        &mut |d| {
            progress(&format!(
                "Cao's method (dimension), d = {d} of {}",
                max_dim + 1
            ))
        },
    )?;
    if cao.noise {
        warnings.push("Cao: E2 ≈ 1 for every d — the series looks like noise".into());
    }
    let (dim, dim_choice) = match (o.dim, cao.dimension) {
        (Some(d), _) => (d.max(1), Choice::Given),
        (None, Some(d)) => (d, Choice::Rule),
        (None, None) => {
            warnings.push(format!(
                "Cao: E1 did not settle up to d = {max_dim}; using d = {max_dim}"
            ));
            (max_dim, Choice::Fallback)
        }
    };

    let embedded = n.saturating_sub((dim - 1) * delay);
    let k_cap = (embedded / 4).max(1);
    let max_steps = o
        .max_steps
        .unwrap_or((5 * theiler).clamp(20, k_cap.max(20)))
        .min(k_cap);
    let div_opts = DivergenceOptions {
        dim,
        delay,
        theiler,
        max_steps,
        method: DivergenceMethod::Rosenstein,
    };
    progress("divergence curve (Rosenstein)");
    let divergence = divergence_curve(values, dt_s, &div_opts)?;
    let (fit, fit_choice) = match o.fit_range_s {
        Some((t0, t1)) => (divergence.fit_between(t0, t1), Choice::Given),
        None => (
            divergence.fit_auto(&StraightCriteria::default()),
            Choice::Rule,
        ),
    };
    if fit.is_none() {
        warnings.push(match fit_choice {
            Choice::Given => "the given fit range holds fewer than two points of the curve".into(),
            _ => "divergence curve has no straight region — no exponent; noise rather than chaos?"
                .into(),
        });
    }
    progress("largest exponent (Wolf)");
    let wolf = match wolf(
        values,
        dt_s,
        &WolfOptions::for_series(values, dim, delay, theiler),
    ) {
        Ok(w) => Some(w),
        Err(e) => {
            warnings.push(format!("Wolf: {e}"));
            None
        }
    };
    if let (Some(f), Some(w)) = (fit, wolf) {
        let gap = (f.slope - w.lambda_per_s).abs() / (0.5 * (f.slope + w.lambda_per_s).abs());
        if gap > DISAGREEMENT {
            warnings.push(format!(
                "Rosenstein ({:.4} 1/s) and Wolf ({:.4} 1/s) differ by {:.0} %: check the fit \
                 range on the divergence curve",
                f.slope,
                w.lambda_per_s,
                100.0 * gap
            ));
        }
    }
    Ok(SeriesReport {
        name: name.to_string(),
        samples: n,
        dt_s,
        peaks,
        harmonics,
        resolution_hz: spectrum.resolution_hz,
        ami,
        delay,
        delay_choice,
        theiler,
        theiler_choice,
        cao,
        dim,
        dim_choice,
        divergence,
        fit,
        fit_choice,
        wolf,
        warnings,
    })
}

/// Power-weighted mean frequency `Σ f_k A_k² / Σ A_k²` over `k ≥ 1` [Hz].
/// `(x − mean)/std`, computed after dividing by `max|x|` so that neither huge nor tiny values
/// overflow or underflow; a constant series is returned centred.
fn standardise(values: &[f64]) -> Vec<f64> {
    let peak = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if peak == 0.0 {
        return values.to_vec();
    }
    let scaled: Vec<f64> = values.iter().map(|v| v / peak).collect();
    let n = scaled.len() as f64;
    let mean = scaled.iter().sum::<f64>() / n;
    let var = scaled.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let sd = if var > 0.0 { var.sqrt() } else { 1.0 };
    scaled.iter().map(|v| (v - mean) / sd).collect()
}

fn mean_frequency_hz(spectrum: &Spectrum) -> Option<f64> {
    // Power relative to the largest amplitude: squares of 1e160 or 1e-200 would not survive.
    let peak = spectrum
        .amplitudes
        .iter()
        .skip(1)
        .fold(0.0f64, |m, a| m.max(a.abs()));
    if !(peak > 0.0 && peak.is_finite()) {
        return None;
    }
    let (mut num, mut den) = (0.0, 0.0);
    for (f, a) in spectrum.freqs_hz.iter().zip(&spectrum.amplitudes).skip(1) {
        let power = (a / peak).powi(2);
        num += f * power;
        den += power;
    }
    (den > 0.0 && num > 0.0).then(|| num / den)
}
