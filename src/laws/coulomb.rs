//! Coulomb friction (S1 eq 2, MODELS §2.1):
//! ```text
//! F_f = −μ_C·N·sgn(v_rel) − c_v·v_rel,     stick while |F_req| ≤ μ_C·N
//! ```
//! No static peak, no velocity dependence. An undamped belt–block has a centre of neutral orbits
//! inside the one that touches `v_rel = 0`.

use super::SignModel;
use super::static_law::MuCurve;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str = "F = −μ_C·N·sgn(v) − c_v·v;  stick while |F_req| ≤ μ_C·N";
/// One-line explanation.
pub const SUMMARY: &str = "Constant dry friction, no static peak";

crate::param_struct! {
    /// Coulomb law parameters.
    pub struct CoulombParams {
        /// Coulomb (kinetic = static) friction coefficient.
        mu_c: "mu_c" = 0.3, "Coulomb coefficient", "μ_C", "", [0.0, 1.5], Linear;
        /// Viscous friction coefficient added to the dry force.
        viscous_ns_per_m: "viscous" = 0.0, "Viscous coefficient", "c_v", "N·s/m", [0.0, 10.0], Linear;
    }
    extra {
        /// Treatment of sgn(v) at zero velocity.
        sign: "sign": SignModel = SignModel::SetValued;
    }
}

impl MuCurve for CoulombParams {
    fn mu(&self, _speed_mps: f64) -> f64 {
        self.mu_c
    }
    fn mu_derivative(&self, _speed_mps: f64) -> f64 {
        0.0
    }
    fn mu_static(&self) -> f64 {
        self.mu_c
    }
    fn viscous(&self) -> f64 {
        self.viscous_ns_per_m
    }
    fn sign_model(&self) -> SignModel {
        self.sign
    }
}
