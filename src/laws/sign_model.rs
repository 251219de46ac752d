//! How a static law treats `sgn(v_rel)` at zero relative velocity (MODELS §2.2).

use serde::{Deserialize, Serialize};

use crate::params::ExtraField;

/// Treatment of the sign function of a static friction law.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum SignModel {
    /// True set-valued stick, integrated event-driven: the contact sticks while the holding force
    /// stays within `μ_S·N` and slips exactly when it reaches it (the reference model).
    #[default]
    SetValued,
    /// `sgn v ≈ tanh(v/v_ε)`, with `v_ε` [m/s] given.
    Tanh(f64),
    /// `sgn v ≈ (2/π)·arctan(v/v_ε)`, with `v_ε` [m/s] given; S1's `ε` [s/m] is `1/v_ε`.
    Arctan(f64),
    /// Karnopp (1985): `|v_rel| < D_v` [m/s] counts as stuck, where the friction force cancels
    /// the holding force up to `μ_S·N`.
    Karnopp(f64),
}

/// Accepted range of the regularisation velocities [m/s].
pub const REGULARIZATION_RANGE_MPS: (f64, f64) = (1e-9, 1.0);

impl SignModel {
    /// Short name for menus.
    pub fn name(&self) -> &'static str {
        match self {
            SignModel::SetValued => "set-valued (event-driven)",
            SignModel::Tanh(_) => "tanh smoothing",
            SignModel::Arctan(_) => "arctan smoothing",
            SignModel::Karnopp(_) => "Karnopp zero-velocity band",
        }
    }

    /// The regularisation velocity, if any [m/s].
    pub fn velocity_mps(&self) -> Option<f64> {
        match *self {
            SignModel::SetValued => None,
            SignModel::Tanh(v) | SignModel::Arctan(v) | SignModel::Karnopp(v) => Some(v),
        }
    }

    /// Smooth approximation of `sgn v` (only for `Tanh`/`Arctan`; exact sign otherwise).
    pub fn smooth_sign(&self, v: f64) -> f64 {
        match *self {
            SignModel::Tanh(ve) => (v / ve).tanh(),
            SignModel::Arctan(ve) => std::f64::consts::FRAC_2_PI * (v / ve).atan(),
            _ => super::sgn(v),
        }
    }
}

impl ExtraField for SignModel {
    fn problems(&self) -> Vec<(String, String)> {
        let (lo, hi) = REGULARIZATION_RANGE_MPS;
        match self.velocity_mps() {
            Some(v) if !v.is_finite() || !(lo..=hi).contains(&v) => vec![(
                String::new(),
                format!(
                    "regularisation velocity of {} must be finite and within [{lo:e}, {hi}] m/s, got {v}",
                    self.name()
                ),
            )],
            _ => Vec::new(),
        }
    }
}
