//! Stefański–Wojewoda friction irreversibility (Stefański, Wojewoda et al. 2003; S1 eqs 5 and
//! 14, MODELS §2.5):
//! ```text
//! F_f = −N·[μ_C + (μ_S − μ_C)·g]·sgn(v_rel) − c_v·v_rel,
//! g = exp(−a₁·|v_rel|/(|v̇_rel| + a₂))·sgn(v_rel·v̇_rel)
//! ```
//! As Powell–Wiercigroch (higher friction while `|v_rel|` grows), but the gap between the
//! branches decays more slowly with speed when the velocity changes fast: the friction–velocity
//! loop widens as `|v̇_rel|` grows. The lower branch is clamped at `μ ≥ 0`; stick is set-valued at
//! `μ_S·N`. `v̇_rel` is a filtered derivative (its magnitude enters the force); the branch is an
//! event-switched mode with a velocity plateau where neither branch is consistent: see
//! [`IrreversibleLaw`](super::IrreversibleLaw) for these choices.

use super::irreversibility::IrreversibleCurve;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str = "F = −N·[μ_C + (μ_S − μ_C)·e^(−a₁|v|/(|v̇| + a₂))·sgn(v·v̇)]·sgn(v) − c_v·v,  \
     stick: |F| ≤ μ_S·N";
/// One-line explanation.
pub const SUMMARY: &str =
    "Friction irreversibility whose loop widens with the acceleration (Stefański, Wojewoda)";

crate::param_struct! {
    /// Stefański–Wojewoda law parameters.
    pub struct StefanskiParams {
        /// Static coefficient: stick threshold, and the upper branch at v = 0.
        mu_s: "mu_s" = 0.4, "Static coefficient", "μ_S", "", [0.0, 1.5], Linear;
        /// Coulomb coefficient: the midline of the two branches.
        mu_c: "mu_c" = 0.3, "Coulomb coefficient", "μ_C", "", [0.0, 1.5], Linear;
        /// Decay rate of the branch gap with speed.
        a1_per_s: "a1" = 10.0, "Decay rate", "a₁", "1/s", [0.01, 1000.0], Log;
        /// Acceleration scale: below it the acceleration hardly widens the loop.
        a2_mps2: "a2" = 1.0, "Acceleration scale", "a₂", "m/s²", [1e-4, 100.0], Log;
        /// Viscous friction coefficient added during slip.
        viscous_ns_per_m: "viscous" = 0.0, "Viscous coefficient", "c_v", "N·s/m", [0.0, 10.0], Linear;
        /// Time constant of the filter that estimates the relative acceleration.
        /// At least 10 µs: the cost grows like 1/τ_a, and at 1 µs the branch switches at an
        /// extremum of |v| chatter without end (a Zeno stop after 0.42 s on the Stefański bench).
        tau_a_s: "tau_a" = 1e-3, "Acceleration filter", "τ_a", "s", [1e-5, 0.1], Log;
    }
    consistency = |p: &Self| super::static_law::stribeck_order(p.mu_s, p.mu_c);
}

impl IrreversibleCurve for StefanskiParams {
    fn mu_static(&self) -> f64 {
        self.mu_s
    }
    fn mu_coulomb(&self) -> f64 {
        self.mu_c
    }
    fn decay(&self, speed_mps: f64, accel_mps2: f64) -> f64 {
        (-self.a1_per_s * speed_mps / (accel_mps2 + self.a2_mps2)).exp()
    }
    fn viscous(&self) -> f64 {
        self.viscous_ns_per_m
    }
    fn tau_a(&self) -> f64 {
        self.tau_a_s
    }
}
