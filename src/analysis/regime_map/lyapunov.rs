//! The largest Lyapunov exponent of a map cell, when asked for (`--lyapunov`), and how it
//! sharpens the regime read from the Poincaré returns.
//!
//! λ₁ comes from the variational equations with saltation matrices (one tangent direction,
//! [`FlowSpectrum`]), over the same run as the cell: from the preset's initial state, averaged
//! after the cell's transient until its end. It roughly doubles a cell's cost.
//!
//! **Combination** (our decision, DECISIONS.md "λ₁ in regime maps"): with the zero tolerance
//! `tol = 5/T` of the Lyapunov tab (T the averaging time),
//! * a section that looks like a curve or like scatter is *chaotic* when `λ₁ > tol` (a thin
//!   chaotic band can pass for a curve; an exponent cannot);
//! * scattered returns with `|λ₁| ≤ tol` are a torus the curve test could not follow
//!   (*quasi-periodic*); with `λ₁ < −tol` the motion is still converging (*unsettled*);
//! * repeating returns (periodic) and steady cells keep their names: repetition to the
//!   section's tolerance is the stronger evidence, and λ₁ is reported beside them.

use std::sync::atomic::{AtomicBool, Ordering};

use super::Regime;
use crate::analysis::classify::zero_tolerance;
use crate::analysis::lyapunov::{FlowSpectrum, LyapunovOptions, check_deterministic};
use crate::preset::Preset;

/// Pieces the run is integrated in, with a cancellation check before each.
const CHUNKS: usize = 50;

/// λ₁ [1/s] of `preset` (the cell's parameters set) averaged over `transient_s…duration_s`,
/// with its zero tolerance [1/s]. `Ok(None)` when cancelled.
pub(super) fn largest_exponent(
    preset: &Preset,
    transient_s: f64,
    duration_s: f64,
    cancel: Option<&AtomicBool>,
) -> Result<Option<(f64, f64)>, String> {
    check_deterministic(preset).map_err(|e| e.to_string())?;
    let opts = LyapunovOptions {
        transient: transient_s,
        duration: duration_s - transient_s,
        n_exponents: Some(1),
        fast_stiff: true,
        forcing_period_s: preset.system.forcing_period_s(),
        ..LyapunovOptions::default()
    };
    let (model, y0) = preset.build_model();
    let mut run = FlowSpectrum::new(model, y0, preset.driver_settings(), &opts)
        .map_err(|e| format!("λ₁: {e}"))?;
    for k in 1..=CHUNKS {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Ok(None);
        }
        run.advance(duration_s * k as f64 / CHUNKS as f64)
            .map_err(|e| format!("λ₁: {e}"))?;
    }
    let s = run.spectrum();
    let l1 = s.exponents.first().copied().unwrap_or(f64::NAN);
    Ok(Some((l1, zero_tolerance(&[l1], s.averaging_time))))
}

/// The regime of a cell once its λ₁ (with zero tolerance `tol`) is known.
pub(super) fn combine(regime: Regime, l1: f64, tol: f64) -> Regime {
    if !l1.is_finite() {
        return regime;
    }
    match regime {
        Regime::QuasiPeriodic | Regime::Chaotic if l1 > tol => Regime::Chaotic,
        Regime::Chaotic if l1.abs() <= tol => Regime::QuasiPeriodic,
        Regime::Chaotic => Regime::Unsettled,
        r => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponent_decides_between_torus_and_chaos() {
        let tol = 0.005;
        assert_eq!(combine(Regime::QuasiPeriodic, 0.05, tol), Regime::Chaotic);
        assert_eq!(
            combine(Regime::QuasiPeriodic, 0.001, tol),
            Regime::QuasiPeriodic
        );
        assert_eq!(combine(Regime::Chaotic, 0.05, tol), Regime::Chaotic);
        assert_eq!(combine(Regime::Chaotic, -0.004, tol), Regime::QuasiPeriodic);
        assert_eq!(combine(Regime::Chaotic, -0.1, tol), Regime::Unsettled);
        assert_eq!(combine(Regime::Periodic(2), 0.05, tol), Regime::Periodic(2));
        assert_eq!(combine(Regime::Steady, 0.05, tol), Regime::Steady);
        assert_eq!(combine(Regime::Chaotic, f64::NAN, tol), Regime::Chaotic);
    }
}
