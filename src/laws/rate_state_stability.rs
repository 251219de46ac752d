//! Linear stability of steady sliding of a spring–slider with rate-and-state friction
//! (Ruina 1983; Rice & Ruina 1983; Gu, Rice, Ruina, Tse 1984; MODELS §2.14).
//!
//! Linearising `m·v̇ = k·δ − c·v − N·μ(v, θ) − η_r·v`, `δ̇ = V − v` and either evolution law
//! about steady sliding at speed `V` (both laws have the same linearisation,
//! `θ̇′ = −v′/V − (V/D_c)·θ′`) gives, with `β = V/D_c` and the velocity-strengthening slope
//! `A = N·a/V + c + η_r`,
//! ```text
//! m·s³ + (m·β + A)·s² + (k + A·β − N·b/D_c)·s + k·β = 0
//! Hopf (s = iω):  k_c = (N·b/D_c − A·β)·(1 + m·β/A),   ω_c² = k_c·β/(m·β + A)
//! c = η_r = 0:    k_c = N·(b − a)/D_c·(1 + m·V²/(N·a·D_c)),  ω_c = (V/D_c)·√((b − a)/a)
//! ```
//! Steady sliding is unstable for `k < k_c` (oscillations growing at about `ω_c`, ending in
//! stick–slip) and stable above. With a second state variable the cubic becomes a quartic; the
//! threshold here is for one state variable (`b₂ = 0`).

use super::rate_state::RateStateParams;

/// The Hopf threshold of steady sliding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HopfThreshold {
    /// Critical spring stiffness `k_c` [N/m]: unstable below.
    pub critical_stiffness_n_per_m: f64,
    /// Angular frequency of the oscillation born at `k_c` [rad/s].
    pub frequency_rad_per_s: f64,
}

/// The threshold of a slider of mass `m` [kg] with damping `c` [N·s/m] under load `N` [N]
/// sliding steadily at `V` [m/s]; `None` when steady sliding is stable for every stiffness
/// (velocity strengthening, `N·b/D_c ≤ A·β`), or with two state variables.
pub fn hopf_threshold(
    law: &RateStateParams,
    normal_load_n: f64,
    mass_kg: f64,
    damping_ns_per_m: f64,
    speed_mps: f64,
) -> Option<HopfThreshold> {
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if law.b2 > 0.0 || !positive(speed_mps) || !positive(normal_load_n) {
        return None;
    }
    let beta = speed_mps / law.d_c_m;
    let slope = normal_load_n * law.a / speed_mps + damping_ns_per_m + law.eta_r_ns_per_m;
    let weakening = normal_load_n * law.b / law.d_c_m - slope * beta;
    if weakening <= 0.0 {
        return None;
    }
    let k_c = weakening * (1.0 + mass_kg * beta / slope);
    let omega = (k_c * beta / (mass_kg * beta + slope)).sqrt();
    Some(HopfThreshold {
        critical_stiffness_n_per_m: k_c,
        frequency_rad_per_s: omega,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The general formula reduces to the textbook one without damping.
    #[test]
    fn reduces_to_the_textbook_threshold() {
        let law = RateStateParams::default();
        let (n, m, v) = (10.0, 2.0, 3e-3);
        let h = hopf_threshold(&law, n, m, 0.0, v).unwrap();
        let k_c = n * (law.b - law.a) / law.d_c_m * (1.0 + m * v * v / (n * law.a * law.d_c_m));
        let w = v / law.d_c_m * ((law.b - law.a) / law.a).sqrt();
        assert!((h.critical_stiffness_n_per_m / k_c - 1.0).abs() < 1e-12);
        assert!((h.frequency_rad_per_s / w - 1.0).abs() < 1e-12);
    }

    /// At k_c the cubic has the roots ±iω_c.
    #[test]
    fn the_cubic_vanishes_at_the_hopf_point() {
        let law = RateStateParams {
            eta_r_ns_per_m: 30.0,
            ..RateStateParams::default()
        };
        let (n, m, c, v) = (5.0, 0.3, 5.0, 1e-4);
        let h = hopf_threshold(&law, n, m, c, v).unwrap();
        let beta = v / law.d_c_m;
        let a_slope = n * law.a / v + c + law.eta_r_ns_per_m;
        let k = h.critical_stiffness_n_per_m;
        let w = h.frequency_rad_per_s;
        let re = -(m * beta + a_slope) * w * w + k * beta;
        let im = -m * w * w * w + (k + a_slope * beta - n * law.b / law.d_c_m) * w;
        assert!(re.abs() < 1e-9 * k * beta, "{re}");
        assert!(im.abs() < 1e-9 * k * w, "{im}");
    }

    /// Velocity strengthening is stable on every spring.
    #[test]
    fn strengthening_has_no_threshold() {
        let law = RateStateParams {
            a: 0.02,
            b: 0.015,
            ..RateStateParams::default()
        };
        assert!(hopf_threshold(&law, 10.0, 1.0, 0.0, 1e-6).is_none());
    }
}
