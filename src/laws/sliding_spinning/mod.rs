//! Coupled sliding and spinning friction of a circular Hertz contact, the Padé approximant of
//! Kudra & Awrejcewicz (MODELS §2.11):
//! ```text
//! T   = −μ·N·v_s / √(|v_s|² + b_T²·a²·ω_s² + ε²)          (vector in the contact plane)
//! a   = (3·N·R / (4·E*))^(1/3),   1/E* = (1 − ν₁²)/E₁ + (1 − ν₂²)/E₂     (Hertz radius)
//! ```
//! `v_s` is the sliding velocity at the centre of the contact, `ω_s` the relative spin about
//! the normal. Coulomb friction is fully developed over the contact circle: a spinning contact
//! slides everywhere, so a little sliding meets little resistance. Pure sliding (`ω_s = 0`) gives
//! regularised Coulomb friction; pure spinning gives no net force. The friction torque about the
//! normal is neglected, as in the seed.
//!
//! **Decisions.** The square root is inferred (every term of the denominator is squared so the
//! ratio is dimensionless); `ε` is a velocity [m/s] (the seed prints 1/s). `b_T = 0.681` is the
//! seed's value; [`integral`] computes the exact model it approximates (Coulomb traction
//! integrated over the Hertz pressure) so the approximation error can be stated, and fits
//! `b_T` to it.

pub mod integral;

use nalgebra::Vector3;

/// Equation shown with the systems that use the law.
pub const EQUATION: &str = "T = −μN·v_s/√(|v_s|² + b_T²a²ω_s² + ε²),  a = (3NR/4E*)^⅓";

/// The Padé sliding–spinning law's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PadeSpinFriction {
    /// Friction coefficient μ.
    pub mu: f64,
    /// Padé coefficient `b_T` (0.681 for a Hertz pressure distribution, per the seed).
    pub b_t: f64,
    /// Regularising speed ε [m/s].
    pub eps_mps: f64,
}

impl PadeSpinFriction {
    /// Friction force on body 1 [N] for the sliding velocity `v_s` (in the contact plane) and
    /// spin `ω_s` [rad/s] at normal load `N` with contact radius `a` [m].
    pub fn force(
        &self,
        v_s: &Vector3<f64>,
        spin_rad_s: f64,
        normal_n: f64,
        radius_m: f64,
    ) -> Vector3<f64> {
        let d = self.denominator(v_s.norm_squared(), spin_rad_s, radius_m);
        if normal_n <= 0.0 || d == 0.0 {
            return Vector3::zeros();
        }
        -(self.mu * normal_n / d) * v_s
    }

    /// `|T|/(μN)` for slide speed `|v_s|` and spin `ω_s` with contact radius `a`.
    pub fn coefficient_ratio(&self, slide_mps: f64, spin_rad_s: f64, radius_m: f64) -> f64 {
        let d = self.denominator(slide_mps * slide_mps, spin_rad_s, radius_m);
        if d == 0.0 { 0.0 } else { slide_mps.abs() / d }
    }

    fn denominator(&self, v2: f64, spin_rad_s: f64, radius_m: f64) -> f64 {
        let s = self.b_t * radius_m * spin_rad_s;
        (v2 + s * s + self.eps_mps * self.eps_mps).sqrt()
    }
}

/// Effective modulus `E*` [Pa] of two elastic bodies: `1/E* = (1 − ν₁²)/E₁ + (1 − ν₂²)/E₂`.
pub fn effective_modulus_pa(e1_pa: f64, nu1: f64, e2_pa: f64, nu2: f64) -> f64 {
    1.0 / ((1.0 - nu1 * nu1) / e1_pa + (1.0 - nu2 * nu2) / e2_pa)
}

/// Hertz contact radius of a sphere of radius `R` on a flat: `a = (3NR/(4E*))^(1/3)` [m]
/// (0 without load).
pub fn hertz_radius_m(normal_n: f64, sphere_radius_m: f64, e_star_pa: f64) -> f64 {
    if normal_n <= 0.0 {
        return 0.0;
    }
    (0.75 * normal_n * sphere_radius_m / e_star_pa).cbrt()
}

/// Hertz stiffness `k_H = (4/3)·E*·√R` [N/m^1.5]: `N = k_H·δ^1.5` for an indentation `δ`.
pub fn hertz_stiffness(sphere_radius_m: f64, e_star_pa: f64) -> f64 {
    4.0 / 3.0 * e_star_pa * sphere_radius_m.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAW: PadeSpinFriction = PadeSpinFriction {
        mu: 0.5,
        b_t: 0.681,
        eps_mps: 1e-3,
    };

    #[test]
    fn pure_sliding_is_regularised_coulomb() {
        let v = Vector3::new(0.3, -0.4, 0.0);
        let t = LAW.force(&v, 0.0, 20.0, 1e-3);
        let expected = -0.5 * 20.0 * v / (0.25f64 + 1e-6).sqrt();
        assert!((t - expected).norm() < 1e-12 * expected.norm());
        // Opposes the sliding, at μN up to the regularisation.
        assert!((t.norm() / 10.0 - 1.0).abs() < 3e-6);
    }

    #[test]
    fn pure_spin_gives_no_force_and_spin_weakens_sliding_friction() {
        let t = LAW.force(&Vector3::zeros(), 50.0, 20.0, 1e-3);
        assert_eq!(t.norm(), 0.0);
        let slow = LAW.coefficient_ratio(0.01, 0.0, 1e-3);
        let spun = LAW.coefficient_ratio(0.01, 50.0, 1e-3);
        // a·ω = 0.05 m/s against 0.01 m/s of sliding: b_T·aω/v = 3.4, ratio ≈ 1/√(1 + 11.6).
        assert!((spun - 0.01 / (1e-4f64 + (0.681 * 0.05f64).powi(2) + 1e-6).sqrt()).abs() < 1e-14);
        assert!(spun < 0.3 * slow);
    }

    #[test]
    fn hertz_radius_and_stiffness_of_the_seed_contact() {
        let e = effective_modulus_pa(1e7, 0.3, 1e7, 0.3);
        assert!((e - 5.494_505e6).abs() < 1.0, "E* = {e}");
        let k = hertz_stiffness(0.025, e);
        assert!((k - 1.158_3e6).abs() < 1e2, "k_H = {k}");
        // Consistency: N = k δ^1.5 with δ = a²/R.
        let n = 30.0;
        let a = hertz_radius_m(n, 0.025, e);
        let delta = a * a / 0.025;
        assert!((k * delta.powf(1.5) / n - 1.0).abs() < 1e-12);
    }
}
