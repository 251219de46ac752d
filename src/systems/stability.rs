//! Where steady sliding loses its stability as one parameter changes: a Hopf bifurcation of
//! the linearised equations, which the window draws on bifurcation diagrams and beside the
//! sliders (MODELS §2.14 for rate-and-state friction on a spring; §3.1 for a falling friction
//! characteristic against the damping).

use crate::laws::rate_state_stability::HopfThreshold;

/// The critical value of one parameter for steady sliding.
#[derive(Clone, Debug, PartialEq)]
pub struct StabilityBoundary {
    /// Preset path of the parameter (`system.stiffness`).
    pub path: String,
    /// Symbol of the critical value (`k_c`).
    pub symbol: &'static str,
    /// Unit of the parameter.
    pub unit: &'static str,
    /// The critical value.
    pub value: f64,
    /// Whether steady sliding is unstable below the critical value (else above).
    pub unstable_below: bool,
    /// Angular frequency of the oscillation born at the boundary [rad/s].
    pub frequency_rad_per_s: f64,
}

impl StabilityBoundary {
    /// The critical spring stiffness `system.stiffness` of a Hopf threshold (unstable below).
    pub fn stiffness(h: HopfThreshold) -> Self {
        Self {
            path: "system.stiffness".into(),
            symbol: "k_c",
            unit: "N/m",
            value: h.critical_stiffness_n_per_m,
            unstable_below: true,
            frequency_rad_per_s: h.frequency_rad_per_s,
        }
    }

    /// One line for people: `k_c = 50 kN/m (steady sliding unstable below, 1.2 Hz)`.
    pub fn describe(&self) -> String {
        format!(
            "{} = {} (steady sliding unstable {}; oscillation at {})",
            self.symbol,
            crate::util::eng::format_si(self.value, self.unit, 4),
            if self.unstable_below {
                "below"
            } else {
                "above"
            },
            crate::util::eng::format_si(self.frequency_rad_per_s / std::f64::consts::TAU, "Hz", 3)
        )
    }
}
