//! Static/kinetic Coulomb friction with set-valued stick (S1 eq 3, MODELS §2.2):
//! ```text
//! stick (v_rel = 0):  |F_f| ≤ F_S = μ_S·N     (F_f is whatever keeps v_rel = 0)
//! slip  (v_rel ≠ 0):  F_f = −μ_K·N·sgn(v_rel) − c_v·v_rel
//! ```
//! Static above kinetic friction gives stick–slip. The discontinuity at `v = 0` has no smooth
//! counterpart: with tanh/arctan smoothing only `μ_K` remains; use set-valued or Karnopp.

use super::SignModel;
use super::static_law::MuCurve;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str = "stick: |F| ≤ μ_S·N;  slip: F = −μ_K·N·sgn(v) − c_v·v";
/// One-line explanation.
pub const SUMMARY: &str = "Static above kinetic friction: the classic stick–slip law";

crate::param_struct! {
    /// Static/kinetic law parameters.
    pub struct StaticKineticParams {
        /// Static friction coefficient: stick holds while |F_req| ≤ μ_S·N.
        mu_s: "mu_s" = 0.4, "Static coefficient", "μ_S", "", [0.0, 1.5], Linear;
        /// Kinetic friction coefficient during slip.
        mu_k: "mu_k" = 0.3, "Kinetic coefficient", "μ_K", "", [0.0, 1.5], Linear;
        /// Viscous friction coefficient added to the dry force.
        viscous_ns_per_m: "viscous" = 0.0, "Viscous coefficient", "c_v", "N·s/m", [0.0, 10.0], Linear;
    }
    extra {
        /// Treatment of sgn(v) at zero velocity.
        sign: "sign": SignModel = SignModel::SetValued;
    }
    consistency = |p: &Self| super::static_law::kinetic_order(p.mu_s, p.mu_k);
}

impl MuCurve for StaticKineticParams {
    fn mu(&self, _speed_mps: f64) -> f64 {
        self.mu_k
    }
    fn mu_derivative(&self, _speed_mps: f64) -> f64 {
        0.0
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
