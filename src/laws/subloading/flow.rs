//! Pieces of the subloading-overstress law that are plain functions:
//! the overstress function `φ(X)` with a finite continuation past `r_m`, the change of variable
//! that removes the `cot` singularity of the `r_s` rule, and the steady-sliding closed forms.
//!
//! ```text
//! X = (r − r_s)/(r_m − r),   η·|u̇_p| = φ(X) = X^n  (power)   or  e^(n·X) − 1  (exponential)
//! c_s = cos(π·r_s/2):  ṙ_s = u·cot(π·r_s/2)·λ   ⇔   ċ_s = −(π/2)·u·λ·c_s
//! steady sliding at v:  μ_ss = (κ|v| + ξ)/(κ|v|/μ_k + ξ/μ_s),  r_ss = (1 + r_m·X_ss)/(1 + X_ss),
//!                       X_ss = φ⁻¹(η|v|)
//! ```

use serde::{Deserialize, Serialize};

use crate::params::ExtraField;

/// Largest value of `φ = η·λ` computed from the formula; beyond it (`r` within a hair of `r_m`,
/// or past it in a trial stage of the integrator) `λ` continues linearly in `r`, so it stays
/// finite and increasing. With η ≥ 10⁻³ s/m this is at least 10⁹ m/s of sliding: never reached
/// on a real solution.
pub const PHI_CAP: f64 = 1e12;

/// Form of the overstress function (S4 eqs 28–29).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum OverstressForm {
    /// `φ(X) = X^n` (S4 eq 28; used for the dry set).
    #[default]
    Power,
    /// `φ(X) = exp(n·X) − 1` (S4 eq 29; used for the fluid set).
    Exponential,
}

impl ExtraField for OverstressForm {
    fn choices() -> &'static [&'static str] {
        &["Power", "Exponential"]
    }
}

impl OverstressForm {
    /// Short name for menus.
    pub fn name(self) -> &'static str {
        match self {
            OverstressForm::Power => "power X^n",
            OverstressForm::Exponential => "exponential e^(nX) − 1",
        }
    }

    /// `φ(X)` and `φ'(X)` for `X ≥ 0`.
    pub fn phi(self, x: f64, n: f64) -> (f64, f64) {
        match self {
            OverstressForm::Power => {
                let p = x.powf(n - 1.0);
                (p * x, n * p)
            }
            OverstressForm::Exponential => {
                let e = (n * x).exp_m1();
                (e, n * (e + 1.0))
            }
        }
    }

    /// `X = φ⁻¹(y)` for `y ≥ 0`: the normalised overstress that slides at `λ = y/η`.
    pub fn inverse(self, y: f64, n: f64) -> f64 {
        match self {
            OverstressForm::Power => y.powf(1.0 / n),
            OverstressForm::Exponential => y.ln_1p() / n,
        }
    }
}

/// The flow rule: viscoplastic sliding speed `λ = |u̇_p|` [m/s] at loading ratio `r` with
/// static ratio `r_s`: zero for `r ≤ r_s`, `φ(X)/η` above, continued linearly in `r` (value and
/// slope matched) once `φ` would pass [`PHI_CAP`], which also covers `r ≥ r_m`.
pub fn flow_rate(form: OverstressForm, n: f64, r_m: f64, eta: f64, r: f64, r_s: f64) -> f64 {
    if r <= r_s {
        return 0.0;
    }
    let x_cap = form.inverse(PHI_CAP, n);
    let r_cap = (r_s + x_cap * r_m) / (1.0 + x_cap);
    if r < r_cap {
        let x = (r - r_s) / (r_m - r);
        return form.phi(x, n).0 / eta;
    }
    // dX/dr = (r_m − r_s)/(r_m − r)² = (1 + X)²/(r_m − r_s) at X = x_cap.
    let (phi, dphi) = form.phi(x_cap, n);
    let slope = dphi * (1.0 + x_cap).powi(2) / (r_m - r_s);
    (phi + slope * (r - r_cap)) / eta
}

/// `r_s` from the state `c_s = cos(π·r_s/2)` (clamped to `[0, 1]`, so `r_s ∈ [0, 1]`).
pub fn rs_from_cos(c_s: f64) -> f64 {
    std::f64::consts::FRAC_2_PI * c_s.clamp(0.0, 1.0).acos()
}

/// The state `c_s = cos(π·r_s/2)` of a static ratio `r_s` (clamped to `[0, 1]`).
pub fn cos_from_rs(r_s: f64) -> f64 {
    (std::f64::consts::FRAC_PI_2 * r_s.clamp(0.0, 1.0)).cos()
}

/// Steady-sliding friction-yield coefficient `μ_ss` at speed `|v|`: the balance of softening
/// `κ(μ/μ_k − 1)|v|` and recovery `ξ(1 − μ/μ_s)`.
pub fn mu_steady(mu_s: f64, mu_k: f64, kappa: f64, xi: f64, speed_mps: f64) -> f64 {
    let kv = kappa * speed_mps.abs();
    let den = kv / mu_k + xi / mu_s;
    if den > 0.0 { (kv + xi) / den } else { mu_s }
}

/// Steady-sliding loading ratio `r_ss = (1 + r_m·X)/(1 + X)`, `X = φ⁻¹(η|v|)` (with `r_s = 1`).
pub fn r_steady(form: OverstressForm, n: f64, r_m: f64, eta: f64, speed_mps: f64) -> f64 {
    let x = form.inverse(eta * speed_mps.abs(), n);
    if x.is_finite() {
        (1.0 + r_m * x) / (1.0 + x)
    } else {
        r_m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_undoes_phi() {
        for form in [OverstressForm::Power, OverstressForm::Exponential] {
            for n in [1.0, 1.4, 2.0, 8.0] {
                for x in [0.0, 1e-6, 0.3, 1.0, 4.5] {
                    let (y, _) = form.phi(x, n);
                    let back = form.inverse(y, n);
                    assert!(
                        (back - x).abs() <= 1e-12 * (1.0 + x),
                        "{form:?} n={n} x={x}"
                    );
                }
            }
        }
    }

    /// The derivative agrees with a central difference.
    #[test]
    fn phi_derivative() {
        for form in [OverstressForm::Power, OverstressForm::Exponential] {
            for (x, n) in [(0.5, 2.0), (1.3, 1.4), (0.2, 8.0)] {
                let h = 1e-6;
                let fd = (form.phi(x + h, n).0 - form.phi(x - h, n).0) / (2.0 * h);
                let d = form.phi(x, n).1;
                assert!((fd - d).abs() < 1e-6 * d.abs(), "{form:?}: {fd} vs {d}");
            }
        }
    }

    /// `λ` is zero up to `r_s`, follows `φ(X)/η` below the cap, is continuous and increasing
    /// across it, and finite at and beyond `r_m`.
    #[test]
    fn flow_rate_is_finite_continuous_and_monotone() {
        for form in [OverstressForm::Power, OverstressForm::Exponential] {
            let (n, r_m, eta, r_s) = (2.0, 3.0, 150.0, 0.7);
            assert_eq!(flow_rate(form, n, r_m, eta, 0.5, r_s), 0.0);
            assert_eq!(flow_rate(form, n, r_m, eta, r_s, r_s), 0.0);
            let r = 1.9;
            let x = (r - r_s) / (r_m - r);
            let expected = form.phi(x, n).0 / eta;
            assert!((flow_rate(form, n, r_m, eta, r, r_s) - expected).abs() < 1e-14 * expected);
            let x_cap = form.inverse(PHI_CAP, n);
            let r_cap = (r_s + x_cap * r_m) / (1.0 + x_cap);
            let below = flow_rate(form, n, r_m, eta, r_cap * (1.0 - 1e-15), r_s);
            let at = flow_rate(form, n, r_m, eta, r_cap, r_s);
            // 1e-15 in r moves X = 1e6 by ~1e-9 relative: a jump would be far larger.
            assert!(
                (below - at).abs() < 1e-6 * at,
                "{form:?}: jump {below} → {at}"
            );
            let mut last = 0.0;
            let mut rs = [2.5, 2.99, r_cap, r_m, r_m + 0.5, 50.0];
            rs.sort_by(f64::total_cmp);
            for r in rs {
                let l = flow_rate(form, n, r_m, eta, r, r_s);
                assert!(l.is_finite() && l >= last, "{form:?}: λ({r}) = {l}");
                last = l;
            }
        }
    }

    #[test]
    fn cos_variable_round_trips() {
        for r_s in [0.0, 1e-8, 0.25, 0.5, 0.999, 1.0] {
            assert!((rs_from_cos(cos_from_rs(r_s)) - r_s).abs() < 1e-7);
        }
        assert_eq!(rs_from_cos(1.5), 0.0);
        assert_eq!(rs_from_cos(-0.1), 1.0);
    }

    /// `ċ_s = −(π/2)·u·λ·c_s` is `ṙ_s = u·cot(π r_s/2)·λ` written for `c_s = cos(π r_s/2)`:
    /// `ċ_s = −(π/2)·sin(π r_s/2)·ṙ_s`.
    #[test]
    fn cos_variable_carries_the_cot_rule() {
        let (u, lambda) = (1.5e6, 2e-7);
        for r_s in [0.05, 0.4, 0.9] {
            let th = std::f64::consts::FRAC_PI_2 * r_s;
            let rs_dot = u * th.cos() / th.sin() * lambda;
            let c_dot_chain = -std::f64::consts::FRAC_PI_2 * th.sin() * rs_dot;
            let c_dot = -std::f64::consts::FRAC_PI_2 * u * lambda * th.cos();
            assert!((c_dot - c_dot_chain).abs() < 1e-12 * c_dot.abs());
        }
    }

    /// Hand values: set A at 0.2 μm/s, `η = 150 s/m`, power form, `n = 2`, `r_m = 3`:
    /// `κv = 7e-3 s⁻¹`, `μ_ss = 8e-3/(7e-3/0.38 + 1e-3/0.58)`, `X = √(3e-5)`.
    #[test]
    fn steady_closed_forms_by_hand() {
        let mu = mu_steady(0.58, 0.38, 35e3, 1e-3, 2e-7);
        let mu_hand = 8e-3 / (7e-3 / 0.38 + 1e-3 / 0.58);
        assert!((mu - mu_hand).abs() < 1e-15);
        let r = r_steady(OverstressForm::Power, 2.0, 3.0, 150.0, -2e-7);
        let x = 3e-5f64.sqrt();
        assert!((r - (1.0 + 3.0 * x) / (1.0 + x)).abs() < 1e-15);
        let r_exp = r_steady(OverstressForm::Exponential, 1.4, 8.0, 10.0, 1e-3);
        let x = (1.0f64 + 1e-2).ln() / 1.4;
        assert!((r_exp - (1.0 + 8.0 * x) / (1.0 + x)).abs() < 1e-15);
        assert_eq!(mu_steady(0.58, 0.38, 35e3, 0.0, 0.0), 0.58);
    }
}
