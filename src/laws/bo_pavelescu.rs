//! Bo–Pavelescu exponential Stribeck curve (1982; S1 eq 7, MODELS §2.4):
//! ```text
//! μ(v) = μ_C + (μ_S − μ_C)·exp(−(|v_rel|/v_S)^δ),   F_f = −μ(v)·N·sgn(v_rel) − c_v·v_rel
//! ```
//! S1 writes `exp(−α·|v|^δ)`; `α = v_S^(−δ)`. δ = 1 is Tustin, δ = 2 the Gaussian.

use super::SignModel;
use super::static_law::MuCurve;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str = "μ(v) = μ_C + (μ_S − μ_C)·e^(−(|v|/v_S)^δ),  F = −μ(v)·N·sgn(v) − c_v·v";
/// One-line explanation.
pub const SUMMARY: &str = "Stribeck curve with adjustable shape (Bo & Pavelescu 1982)";

crate::param_struct! {
    /// Bo–Pavelescu law parameters.
    pub struct BoPavelescuParams {
        /// Friction coefficient at zero velocity (static).
        mu_s: "mu_s" = 0.4, "Static coefficient", "μ_S", "", [0.0, 1.5], Linear;
        /// Coulomb coefficient approached at high speed.
        mu_c: "mu_c" = 0.3, "Coulomb coefficient", "μ_C", "", [0.0, 1.5], Linear;
        /// Stribeck velocity.
        v_s_mps: "v_s" = 0.01, "Stribeck velocity", "v_S", "m/s", [1e-5, 1.0], Log;
        /// Shape exponent of the decay.
        shape: "shape" = 1.5, "Shape exponent", "δ", "", [0.2, 3.0], Linear;
        /// Viscous friction coefficient added to the dry force.
        viscous_ns_per_m: "viscous" = 0.0, "Viscous coefficient", "c_v", "N·s/m", [0.0, 10.0], Linear;
    }
    extra {
        /// Treatment of sgn(v) at zero velocity.
        sign: "sign": SignModel = SignModel::SetValued;
    }
    consistency = |p: &Self| super::static_law::stribeck_order(p.mu_s, p.mu_c);
}

impl MuCurve for BoPavelescuParams {
    fn mu(&self, speed_mps: f64) -> f64 {
        self.mu_c + (self.mu_s - self.mu_c) * (-(speed_mps / self.v_s_mps).powf(self.shape)).exp()
    }
    fn mu_derivative(&self, speed_mps: f64) -> f64 {
        if speed_mps <= 0.0 {
            return if self.shape < 1.0 {
                f64::NEG_INFINITY
            } else if self.shape == 1.0 {
                -(self.mu_s - self.mu_c) / self.v_s_mps
            } else {
                0.0
            };
        }
        let r = speed_mps / self.v_s_mps;
        let rp = r.powf(self.shape);
        -(self.mu_s - self.mu_c) * (-rp).exp() * self.shape * rp / speed_mps
    }
    fn mu_static(&self) -> f64 {
        self.mu_s
    }
    fn viscous(&self) -> f64 {
        self.viscous_ns_per_m
    }
    fn sign_model(&self) -> SignModel {
        self.sign
    }
}
