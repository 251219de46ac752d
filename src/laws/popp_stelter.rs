//! Popp–Stelter friction curve (1990; S1 eq 10 as rebuilt in MODELS §2.4):
//! ```text
//! μ(v) = μ_C + (μ_S − μ_C)/(1 + η₁·|v_rel|) + η₂·v_rel²,   F_f = −μ(v)·N·sgn(v_rel) − c_v·v_rel
//! ```
//! Falls from μ_S, then rises again at high speed. The seed's layout is garbled; this is the
//! dimensionally consistent reading of MODELS (open point 2).

use super::SignModel;
use super::static_law::MuCurve;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str =
    "μ(v) = μ_C + (μ_S − μ_C)/(1 + η₁|v|) + η₂v²,  F = −μ(v)·N·sgn(v) − c_v·v";
/// One-line explanation.
pub const SUMMARY: &str = "Falling then rising friction (Popp & Stelter 1990)";

crate::param_struct! {
    /// Popp–Stelter law parameters.
    pub struct PoppStelterParams {
        /// Friction coefficient at zero velocity (static).
        mu_s: "mu_s" = 0.4, "Static coefficient", "μ_S", "", [0.0, 1.5], Linear;
        /// Coulomb coefficient of the falling branch.
        mu_c: "mu_c" = 0.3, "Coulomb coefficient", "μ_C", "", [0.0, 1.5], Linear;
        /// Decay rate of the falling branch.
        eta1_s_per_m: "eta1" = 20.0, "Falling-branch rate", "η₁", "s/m", [0.0, 100.0], Linear;
        /// Curvature of the rising high-speed branch.
        eta2_s2_per_m2: "eta2" = 0.5, "Rising-branch coefficient", "η₂", "s²/m²", [0.0, 1.0], Linear;
        /// Viscous friction coefficient added to the dry force.
        viscous_ns_per_m: "viscous" = 0.0, "Viscous coefficient", "c_v", "N·s/m", [0.0, 10.0], Linear;
    }
    extra {
        /// Treatment of sgn(v) at zero velocity.
        sign: "sign": SignModel = SignModel::SetValued;
    }
    consistency = |p: &Self| super::static_law::stribeck_order(p.mu_s, p.mu_c);
}

impl MuCurve for PoppStelterParams {
    fn mu(&self, speed_mps: f64) -> f64 {
        self.mu_c
            + (self.mu_s - self.mu_c) / (1.0 + self.eta1_s_per_m * speed_mps)
            + self.eta2_s2_per_m2 * speed_mps * speed_mps
    }
    fn mu_derivative(&self, speed_mps: f64) -> f64 {
        let d = 1.0 + self.eta1_s_per_m * speed_mps;
        -(self.mu_s - self.mu_c) * self.eta1_s_per_m / (d * d)
            + 2.0 * self.eta2_s2_per_m2 * speed_mps
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
