//! The belt's overlapping joint (MODELS §3.1, [PROPOSED] there): once per belt turn the joint
//! passes under the block and raises the normal load with a smooth raised-cosine bump,
//! ```text
//! N(t) = N₀·(1 + a_j·w(t mod T_b)),   w(s) = ½(1 − cos(2πs/t_j)) for s < t_j = ℓ_j/v_b, else 0
//! ```
//! which makes the system periodic in time with the belt-turn period `T_b = L_b/v_b`.

/// Load bump of the belt joint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BeltJoint {
    /// Relative amplitude `a_j`.
    pub amplitude: f64,
    /// Belt-turn period `T_b` [s].
    pub period_s: f64,
    /// Passage duration `t_j` [s].
    pub duration_s: f64,
}

impl BeltJoint {
    /// The joint of a belt of length `belt_length_m` and joint length `joint_length_m` running
    /// at `belt_speed_mps`; `None` when it has no effect.
    pub fn new(
        amplitude: f64,
        belt_length_m: f64,
        joint_length_m: f64,
        belt_speed_mps: f64,
    ) -> Option<Self> {
        let v = belt_speed_mps.abs();
        if amplitude == 0.0 || joint_length_m <= 0.0 || v <= 0.0 {
            return None;
        }
        Some(Self {
            amplitude,
            period_s: belt_length_m / v,
            duration_s: (joint_length_m / v).min(belt_length_m / v),
        })
    }

    /// Bump shape `w ∈ [0, 1]` at time `t`.
    pub fn shape(&self, t_s: f64) -> f64 {
        let s = t_s.rem_euclid(self.period_s);
        if s < self.duration_s {
            0.5 * (1.0 - (std::f64::consts::TAU * s / self.duration_s).cos())
        } else {
            0.0
        }
    }

    /// Whether `t_s` lies in a passage, or a rounding error before one (a step landed on the
    /// passage's start, a breakpoint, may end a few ulps short of it).
    pub fn in_passage(&self, t_s: f64) -> bool {
        let s = t_s.rem_euclid(self.period_s);
        s < self.duration_s || self.period_s - s <= 1e-9 * self.period_s
    }

    /// Load factor `1 + a_j·w(t)`.
    pub fn factor(&self, t_s: f64) -> f64 {
        1.0 + self.amplitude * self.shape(t_s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bump_peaks_mid_passage_and_repeats_every_turn() {
        let j = BeltJoint::new(0.05, 1.0, 0.02, 0.1).expect("active joint");
        assert!((j.period_s - 10.0).abs() < 1e-12);
        assert!((j.duration_s - 0.2).abs() < 1e-12);
        assert!((j.factor(0.1) - 1.05).abs() < 1e-12);
        assert!((j.factor(10.1) - 1.05).abs() < 1e-12);
        assert_eq!(j.factor(0.5), 1.0);
        assert!(BeltJoint::new(0.0, 1.0, 0.02, 0.1).is_none());
    }
}
