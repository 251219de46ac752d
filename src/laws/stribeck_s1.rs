//! The thesis' Stribeck law (S1 eq 4, MODELS §2.3), with our optional Coulomb floor:
//! ```text
//! μ(v) = μ_C + (μ_S − μ_C)/(1 + δ·|v_rel|)          (μ_C = 0 gives S1's μ_S/(1 + δ|v|))
//! F_f  = −μ(v)·N·sgn(v_rel) − c_v·v_rel
//! ```
//! The falling slope makes the belt–block self-excite into stick–slip.

use super::SignModel;
use super::static_law::MuCurve;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str = "μ(v) = μ_C + (μ_S − μ_C)/(1 + δ|v|),  F = −μ(v)·N·sgn(v) − c_v·v";
/// One-line explanation.
pub const SUMMARY: &str = "The thesis' falling friction law (S1 eq 4)";

crate::param_struct! {
    /// S1 Stribeck law parameters.
    pub struct StribeckS1Params {
        /// Friction coefficient at zero velocity (static).
        mu_s: "mu_s" = 0.4, "Static coefficient", "μ_S", "", [0.0, 1.5], Linear;
        /// Decay rate of the coefficient with sliding speed (S1 figure: 3 s/m).
        delta_s_per_m: "delta" = 3.0, "Stribeck decay", "δ", "s/m", [0.0, 100.0], Linear;
        /// Floor approached at high speed (0 = the thesis' form) [PROPOSED option].
        mu_c: "mu_c" = 0.0, "High-speed coefficient", "μ_C", "", [0.0, 1.5], Linear;
        /// Viscous friction coefficient added to the dry force.
        viscous_ns_per_m: "viscous" = 0.0, "Viscous coefficient", "c_v", "N·s/m", [0.0, 10.0], Linear;
    }
    extra {
        /// Treatment of sgn(v) at zero velocity.
        sign: "sign": SignModel = SignModel::SetValued;
    }
    consistency = |p: &Self| super::static_law::stribeck_order(p.mu_s, p.mu_c);
}

impl MuCurve for StribeckS1Params {
    fn mu(&self, speed_mps: f64) -> f64 {
        self.mu_c + (self.mu_s - self.mu_c) / (1.0 + self.delta_s_per_m * speed_mps)
    }
    fn mu_derivative(&self, speed_mps: f64) -> f64 {
        let d = 1.0 + self.delta_s_per_m * speed_mps;
        -(self.mu_s - self.mu_c) * self.delta_s_per_m / (d * d)
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
