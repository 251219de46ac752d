//! Lorentzian Stribeck curve (Hess & Soom 1990; S1 eq 9, MODELS §2.4):
//! ```text
//! μ(v) = μ_C + (μ_S − μ_C)/(1 + (v_rel/v_S)²),      F_f = −μ(v)·N·sgn(v_rel) − c_v·v_rel
//! ```

use super::SignModel;
use super::static_law::MuCurve;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str = "μ(v) = μ_C + (μ_S − μ_C)/(1 + (v/v_S)²),  F = −μ(v)·N·sgn(v) − c_v·v";
/// One-line explanation.
pub const SUMMARY: &str = "Lorentzian Stribeck curve (Hess & Soom 1990)";

crate::param_struct! {
    /// Lorentzian Stribeck law parameters.
    pub struct LorentzianParams {
        /// Friction coefficient at zero velocity (static).
        mu_s: "mu_s" = 0.4, "Static coefficient", "μ_S", "", [0.0, 1.5], Linear;
        /// Coulomb coefficient approached at high speed.
        mu_c: "mu_c" = 0.3, "Coulomb coefficient", "μ_C", "", [0.0, 1.5], Linear;
        /// Stribeck velocity.
        v_s_mps: "v_s" = 0.01, "Stribeck velocity", "v_S", "m/s", [1e-5, 1.0], Log;
        /// Viscous friction coefficient added to the dry force.
        viscous_ns_per_m: "viscous" = 0.0, "Viscous coefficient", "c_v", "N·s/m", [0.0, 10.0], Linear;
    }
    extra {
        /// Treatment of sgn(v) at zero velocity.
        sign: "sign": SignModel = SignModel::SetValued;
    }
    consistency = |p: &Self| super::static_law::stribeck_order(p.mu_s, p.mu_c);
}

impl MuCurve for LorentzianParams {
    fn mu(&self, speed_mps: f64) -> f64 {
        let r = speed_mps / self.v_s_mps;
        self.mu_c + (self.mu_s - self.mu_c) / (1.0 + r * r)
    }
    fn mu_derivative(&self, speed_mps: f64) -> f64 {
        let r = speed_mps / self.v_s_mps;
        let d = 1.0 + r * r;
        -(self.mu_s - self.mu_c) * 2.0 * r / (self.v_s_mps * d * d)
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
