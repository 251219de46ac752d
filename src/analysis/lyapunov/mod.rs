//! Lyapunov exponents of a model (MODELS §4.4): the full spectrum from the variational
//! equations with Gram–Schmidt re-orthonormalisation, saltation matrices at every mode switch;
//! the largest exponent by Benettin's two-trajectory method; maps by products of Jacobians.
//!
//! * [`FlowSpectrum`]: spectrum of a flow ([`Variational`] model inside the ordinary driver, so
//!   events are located and modes switched exactly as in a plain run).
//! * [`FlowBenettin`]: largest exponent from a reference and a shadow trajectory, each with its
//!   own events.
//! * [`map_spectrum`], [`map_benettin`]: the same for maps.
//! * [`flow_jacobian`]: `∂x(t₁)/∂x(t₀)` through switches (monodromy matrix over a period).
//! * [`analyze`]: everything for a preset, with the [classification](crate::analysis::classify).
//!
//! Conventions (README-ready):
//!
//! * **Units.** Flows: 1/s of model time. Maps: per iteration. Natural logarithms.
//! * **Tangent space.** The non-quadrature states (work integrals are excluded): `[x, ẋ, law
//!   states…]` for the belt–block. Tangent vectors are measured in the model's state scales
//!   (`δx_i/s_i`); exponents do not depend on that metric, the conditioning of the QR does.
//! * **Forced systems.** With the belt joint the bench is periodic in time. The state is
//!   integrated *without* the phase θ, so the computed spectrum has one exponent per state
//!   direction; the exact zero that θ would add is inserted only when classifying (and reported
//!   as such). [`SystemKind`] records it; noise-forced runs are `Aperiodic`.
//! * **Switches.** At every event the tangent vectors are multiplied by
//!   `S = I + (f⁺ − f⁻)·nᵀ/(nᵀf⁻ + ∂h/∂t)` (see [`saltation`]) and re-orthonormalised at once.
//!   Entering stick S is singular: that direction's `R_ii` is zero to round-off, the direction
//!   is counted as collapsed and its exponent is `−∞` (multiplier 0), reported as such rather
//!   than as a finite number set by round-off.
//! * **Renormalisation.** Every `τ` (scheduled, also the points of the running estimate), after
//!   each switch, and whenever a vector's residual drops below 10⁻³ of its norm or a norm
//!   leaves [10⁻³, 10³]. Integration steps end on the scheduled times.
//! * **Transient.** Averaging starts at the first renormalisation at or after `transient`; the
//!   vectors are propagated and orthonormalised during the transient so they start aligned.
//! * **Running estimate.** [`ExponentLog`] holds `Σ ln R_ii` and, at each scheduled
//!   renormalisation, `(T, λ(T))`; it is shared, so a front end reads it while the run goes on.

mod benettin;
mod flow;
pub mod jacobian;
mod log;
mod map;
pub mod qr;
pub mod saltation;
mod variational;

pub use benettin::{FlowBenettin, map_benettin};
pub use flow::{FlowSpectrum, flow_jacobian, flow_kind};
pub use log::{ExponentLog, SharedLog, lock};
pub use map::{MapSpectrum, map_spectrum};
pub use variational::{Schedule, Variational};

use super::classify::{Classification, SystemKind, classify};
use crate::integrate::{SimError, Stats};
use crate::preset::Preset;

/// Settings of a Lyapunov computation.
#[derive(Clone, Debug, PartialEq)]
pub struct LyapunovOptions {
    /// Time (iterations for maps) run before averaging starts.
    pub transient: f64,
    /// Averaging time (iterations for maps) after the transient.
    pub duration: f64,
    /// Interval `τ` of the scheduled renormalisations (iterations between running-estimate
    /// entries for maps, which are re-orthonormalised every iteration).
    pub renorm_interval: f64,
    /// Number of exponents (`None`: all).
    pub n_exponents: Option<usize>,
    /// Benettin's initial separation `d₀`, relative to the attractor's extent (`None`: 10⁻⁸
    /// for maps; for flows `10⁴·rtol` within [10⁻⁸, 10⁻⁴], see [`default_separation`]).
    pub separation: Option<f64>,
    /// Period of the explicit forcing, for forced flows (stroboscopic Poincaré points, extended
    /// classification).
    pub forcing_period_s: Option<f64>,
    /// Largest number of running-estimate entries kept (older ones are thinned).
    pub history_capacity: usize,
    /// With an implicit integrator, let the step size follow the state only and merely damp
    /// the stiff tangent directions (see [`Variational`]): hundreds of times faster for stiff
    /// laws (LuGre bristles), λ₁ and the classification stay reliable, the other exponents
    /// become upper bounds ([`volume_check`] says so). Off (default): every exponent resolved.
    pub fast_stiff: bool,
}

impl Default for LyapunovOptions {
    fn default() -> Self {
        Self {
            transient: 100.0,
            duration: 1000.0,
            renorm_interval: 1.0,
            n_exponents: None,
            separation: None,
            forcing_period_s: None,
            history_capacity: 2000,
            fast_stiff: false,
        }
    }
}

/// Why a Lyapunov computation could not be done.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LyapunovError {
    /// An option is out of range.
    #[error("{name}: {message}")]
    InvalidOption {
        /// Option name.
        name: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The integration failed.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// The system's own equations are random (a heat bath above zero kelvin): the tangent
    /// equations would be those of the cold system, not of the run.
    #[error(
        "the thermal noise is not part of the tangent equations: set the temperature to 0 K for the exponents of the cold system"
    )]
    Thermal,
    /// The system has no tangent equations to follow (it says why).
    #[error("{0}")]
    NoTangent(&'static str),
}

/// Refuses systems whose own equations are random: their model is the noiseless one, so an
/// analysis would silently describe another motion than the run's. (Load noise is a fixed
/// signal of time in the model, so its runs are analysed.)
///
/// Also refuses systems without tangent equations ([`SystemConfig::tangent_refusal`]).
///
/// [`SystemConfig::tangent_refusal`]: crate::systems::SystemConfig::tangent_refusal
pub fn check_deterministic(preset: &Preset) -> Result<(), LyapunovError> {
    if let Some(why) = preset.system.tangent_refusal() {
        return Err(LyapunovError::NoTangent(why));
    }
    if preset.system.is_stochastic() {
        Err(LyapunovError::Thermal)
    } else {
        Ok(())
    }
}

impl LyapunovOptions {
    /// Checks the options.
    pub fn check(&self) -> Result<(), LyapunovError> {
        let bad = |name, message: String| Err(LyapunovError::InvalidOption { name, message });
        if !(self.transient.is_finite() && self.transient >= 0.0) {
            return bad(
                "transient",
                format!("must be finite and ≥ 0, got {}", self.transient),
            );
        }
        if !(self.duration.is_finite() && self.duration > 0.0) {
            return bad(
                "duration",
                format!("must be finite and > 0, got {}", self.duration),
            );
        }
        if !(self.renorm_interval.is_finite() && self.renorm_interval > 0.0) {
            return bad(
                "renormalisation interval",
                format!("must be finite and > 0, got {}", self.renorm_interval),
            );
        }
        if let Some(d) = self.separation
            && !(d > 0.0 && d <= 1e-3)
        {
            return bad("separation", format!("must be in (0, 1e-3], got {d}"));
        }
        if self.n_exponents == Some(0) {
            return bad("exponents", "at least one exponent".into());
        }
        Ok(())
    }
}

/// Benettin's initial separation for a flow integrated with relative tolerance `rtol`:
/// `10⁴·rtol`, kept within [10⁻⁸, 10⁻⁴] of the attractor's extent.
///
/// MODELS §4.4 suggests 10⁻⁸; that holds only when the integration error of the difference
/// of the two trajectories stays far below it. At the presets' rtol = 1e-8 it does not: on the
/// Dahl pre-sliding bench (a stable equilibrium, λ₁ = −0.500/s from the spectrum and from
/// ∫tr J) d₀ = 10⁻⁸ gave −1.11/s with Rodas4 and −0.0005/s with Dormand–Prince, d₀ = 10⁻⁴
/// gave −0.505 and −0.500; Lorenz, the stick–slip cycles and LuGre are unchanged to their
/// finite-time scatter.
pub fn default_separation(rtol: f64) -> f64 {
    (1e4 * rtol).clamp(1e-8, 1e-4)
}

/// A running estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Averaging time so far.
    pub averaging_time: f64,
    /// `λ_i(T)`.
    pub exponents: Vec<f64>,
}

/// A Lyapunov spectrum with what it was computed from.
#[derive(Clone, Debug, PartialEq)]
pub struct Spectrum {
    /// Exponents in Gram–Schmidt order (decreasing once converged); `−∞` for collapsed
    /// directions. One per state direction (forced flows: without the time direction).
    pub exponents: Vec<f64>,
    /// Averaging time (iterations for maps).
    pub averaging_time: f64,
    /// Kind of system.
    pub kind: SystemKind,
    /// Method in words.
    pub method: &'static str,
    /// Integrator.
    pub integrator: &'static str,
    /// `(∫tr J dt + Σ ln|det S|)/T` (maps: `Σ ln|det J|/N`) when the full spectrum was
    /// computed: what `Σλ` must equal.
    pub mean_divergence: Option<f64>,
    /// Switches with saltation applied during the averaging.
    pub switches: u64,
    /// Grazing switches left out.
    pub grazing: u64,
    /// Renormalisations during the averaging.
    pub renormalisations: u64,
    /// Integrator counters over the whole run (transient included; maps: one step per
    /// iteration).
    pub stats: Stats,
    /// Running estimate `(T, λ(T))`.
    pub history: Vec<(f64, Vec<f64>)>,
    /// Poincaré points (state) after the transient: the model's first section (autonomous),
    /// stroboscopic (forced), every iterate (maps).
    pub poincare_points: Vec<Vec<f64>>,
}

impl Spectrum {
    /// `Σλ_i` of the computed exponents.
    pub fn sum(&self) -> f64 {
        self.exponents.iter().sum()
    }
}

/// Largest exponent by Benettin's method.
#[derive(Clone, Debug, PartialEq)]
pub struct LargestExponent {
    /// `λ₁`.
    pub exponent: f64,
    /// Averaging time (iterations for maps).
    pub averaging_time: f64,
    /// Initial separation `d₀` (relative to the attractor's extent).
    pub separation: f64,
    /// Rescalings during the averaging.
    pub renormalisations: u64,
    /// Running estimate `(T, [λ₁(T)])`.
    pub history: Vec<(f64, Vec<f64>)>,
}

/// Everything `tribolab lyapunov` reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The spectrum.
    pub spectrum: Spectrum,
    /// Benettin's largest exponent (when asked for).
    pub largest: Option<LargestExponent>,
    /// The classification.
    pub classification: Classification,
}

/// A note when `Σλ` misses the exact mean volume growth (`⟨tr J⟩` plus the switches): the
/// fastest directions were not resolved (stiff law, implicit integrator).
pub fn volume_check(s: &Spectrum, tolerance: f64) -> Option<String> {
    let div = s.mean_divergence?;
    let sum = s.sum();
    if !(div.is_finite() && sum.is_finite()) {
        return None;
    }
    ((sum - div).abs() > tolerance.max(1e-3 * div.abs())).then(|| {
        format!(
            "Σλ = {sum:.4} differs from the exact mean volume growth {div:.4}: the fast \
             (stiff) directions were damped by the implicit integrator, not resolved, so the \
             most negative exponents are only upper bounds (drop --fast-stiff to resolve them)"
        )
    })
}

/// Classification of a spectrum (its kind, averaging time and Poincaré points), with the
/// [`volume_check`] note when Σλ misses the exact volume growth.
pub fn classify_spectrum(spectrum: &Spectrum) -> Classification {
    let mut classification = classify(
        &spectrum.exponents,
        spectrum.kind,
        spectrum.averaging_time,
        &spectrum.poincare_points,
    );
    if let Some(note) = volume_check(spectrum, classification.zero_tolerance) {
        classification.notes.push(note);
    }
    classification
}

/// An exponent as text with its sign (Unicode minus), `−∞` for a collapsed direction and
/// `n/a` for an undefined one.
pub fn signed(v: f64, decimals: usize) -> String {
    if v == f64::NEG_INFINITY {
        "−∞".into()
    } else if v.is_nan() {
        "n/a".into()
    } else {
        format!("{v:+.decimals$}").replace('-', "−")
    }
}

/// Spectrum (and optionally Benettin's λ₁) of the system a preset describes, classified.
/// The forcing period comes from the preset (belt joint).
pub fn analyze(
    preset: &Preset,
    opts: &LyapunovOptions,
    benettin: bool,
) -> Result<Report, LyapunovError> {
    check_deterministic(preset)?;
    let mut opts = opts.clone();
    opts.forcing_period_s = opts
        .forcing_period_s
        .or_else(|| preset.system.forcing_period_s());
    let (spectrum, largest) = match preset.build_map() {
        Some((map, x0)) => {
            let spectrum = map_spectrum(map, &x0, &opts)?;
            let map = preset.build_map().map(|(m, _)| m).ok_or_else(|| {
                LyapunovError::Sim(SimError::Model {
                    t_s: 0.0,
                    message: "the map could not be rebuilt".into(),
                })
            })?;
            let largest = if benettin {
                Some(map_benettin(map.as_ref(), &x0, &opts)?)
            } else {
                None
            };
            (spectrum, largest)
        }
        None => {
            let (model, y0) = preset.build_model();
            let settings = preset.driver_settings();
            let mut run = FlowSpectrum::new(model, y0.clone(), settings, &opts)?;
            run.run()?;
            let spectrum = run.spectrum();
            let largest = if benettin {
                let build = || preset.build_model().0;
                let mut b = FlowBenettin::new(&build, y0, settings, &opts)?;
                b.run()?;
                Some(b.result())
            } else {
                None
            };
            (spectrum, largest)
        }
    };
    let classification = classify_spectrum(&spectrum);
    Ok(Report {
        spectrum,
        largest,
        classification,
    })
}
