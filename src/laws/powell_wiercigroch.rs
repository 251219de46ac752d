//! Powell–Wiercigroch friction irreversibility (Powell & Wiercigroch 1992; Wiercigroch, Sin et
//! al. 1999; S1 eqs 5 and 11, MODELS §2.5):
//! ```text
//! F_f = −N·[μ_C + (μ_S − μ_C)·g]·sgn(v_rel) − c_v·v_rel,   g = exp(−α·|v_rel|)·sgn(v_rel·v̇_rel)
//! ```
//! The friction is higher while `|v_rel|` grows than while it falls at the same speed, so the
//! force traces a loop in the friction–velocity plane during slip (frictional lag, S1 Figs
//! 10–11); the loop's width `2(μ_S − μ_C)·N·e^(−α|v|)` does not depend on how fast the velocity
//! changes. The lower branch is clamped at `μ ≥ 0` (it tends to `2μ_C − μ_S` at rest). Stick is
//! set-valued at `μ_S·N`. `v̇_rel` is a filtered derivative; the branch is an event-switched mode
//! with a velocity plateau where neither branch is consistent: see
//! [`IrreversibleLaw`](super::IrreversibleLaw) for these choices.

use super::irreversibility::IrreversibleCurve;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str =
    "F = −N·[μ_C + (μ_S − μ_C)·e^(−α|v|)·sgn(v·v̇)]·sgn(v) − c_v·v,  stick: |F| ≤ μ_S·N";
/// One-line explanation.
pub const SUMMARY: &str =
    "Friction irreversibility: higher while |v| grows than while it falls (loop in slip)";

crate::param_struct! {
    /// Powell–Wiercigroch law parameters.
    pub struct PowellWiercigrochParams {
        /// Static coefficient: stick threshold, and the upper branch at v = 0.
        mu_s: "mu_s" = 0.4, "Static coefficient", "μ_S", "", [0.0, 1.5], Linear;
        /// Coulomb coefficient: the midline of the two branches.
        mu_c: "mu_c" = 0.3, "Coulomb coefficient", "μ_C", "", [0.0, 1.5], Linear;
        /// Decay rate of the branch gap with speed.
        alpha_s_per_m: "alpha" = 10.0, "Decay rate", "α", "s/m", [0.01, 1000.0], Log;
        /// Viscous friction coefficient added during slip.
        viscous_ns_per_m: "viscous" = 0.0, "Viscous coefficient", "c_v", "N·s/m", [0.0, 10.0], Linear;
        /// Time constant of the filter that estimates the relative acceleration.
        /// At least 10 µs: the cost grows like 1/τ_a, and at 1 µs the branch switches at an
        /// extremum of |v| chatter without end (a Zeno stop after 0.42 s on the Stefański bench).
        tau_a_s: "tau_a" = 1e-3, "Acceleration filter", "τ_a", "s", [1e-5, 0.1], Log;
    }
    consistency = |p: &Self| super::static_law::stribeck_order(p.mu_s, p.mu_c);
}

impl IrreversibleCurve for PowellWiercigrochParams {
    fn mu_static(&self) -> f64 {
        self.mu_s
    }
    fn mu_coulomb(&self) -> f64 {
        self.mu_c
    }
    fn decay(&self, speed_mps: f64, _accel_mps2: f64) -> f64 {
        (-self.alpha_s_per_m * speed_mps).exp()
    }
    fn viscous(&self) -> f64 {
        self.viscous_ns_per_m
    }
    fn tau_a(&self) -> f64 {
        self.tau_a_s
    }
}
