//! Rate-and-state friction (Dieterich 1979, Ruina 1983; MODELS §2.14):
//! ```text
//! μ = μ₀ + a·ln(v/v₀) + b·ln(v₀θ/D_c) [+ b₂·ln(v₀θ₂/D_c2)]          (classic, v = |v_rel| > 0)
//! μ = a·asinh[(v_rel/2v₀)·exp(Ψ/a)],  Ψ = μ₀ + b·ln(v₀θ/D_c) [+ …]   (regularised, odd in v_rel)
//! aging (Dieterich):  θ̇ = 1 − vθ/D_c        slip (Ruina):  θ̇ = −(vθ/D_c)·ln(vθ/D_c)
//! F_f = −N·μ·sgn(v_rel) − η_r·v_rel
//! steady state θ_ss = D_c/v:  μ_ss = μ₀ + (a − b − b₂)·ln(v/v₀)
//! ```
//! `θ` [s] is the state ("age" of the contacts), `D_c` the slip distance over which it renews,
//! `a` the direct and `b` the evolution effect: `a − b < 0` is velocity weakening (stick–slip on
//! a soft enough spring), `a − b > 0` velocity strengthening. `η_r` is the optional radiation
//! damping of quasi-dynamic earthquake models, here in N·s/m.
//!
//! **Load.** μ multiplies the instantaneous normal load `N`, as for the static laws. The state
//! does not react to load changes (no Linker–Dieterich term).
//!
//! **State variable (decided).** The integrated states are `φ = ln(v₀θ/D_c)` (one per state
//! variable), not θ: θ spans many decades between slip (θ ≈ D_c/v) and long holds (θ ≈ t), the
//! slip law is linear in φ (`φ̇ = −(v/D_c)·(φ + ln(v/v₀))`) and the aging law reads
//! `φ̇ = (v₀/D_c)·e^(−φ) − v/D_c`. At steady state `φ_ss = ln(v₀/v)`: 0 at the reference speed.
//! The columns show φ; `θ = (D_c/v₀)·e^φ`.
//!
//! **Form (decided).** The regularised form (Rice & Ben-Zion 1996; Lapusta et al. 2000) is the
//! default: it is defined through `v_rel = 0`, where the force vanishes smoothly. Near rest its
//! slope `∂F/∂v` is about 1e26 N·s/m (μ₀ = 0.6, a = 0.01), so a body whose absolute velocity is
//! integrated (a block starting at rest on a moving belt, chain blocks) cannot resolve the creep
//! speed and the integration stalls there: start such runs sliding. It differs from the classic form by less than `e^(−2Ψ/a)/4` relative (1e-52 at μ₀ = 0.6,
//! a = 0.01). The classic form is offered for comparison with rock-mechanics codes; below the
//! speed where it reaches μ = 0 it is clamped at 0 (it would push the body along its motion) and
//! it is 0 at `v_rel = 0`.
//!
//! **Initial state.** `θ₀` for the first variable; the second starts at the same relative age,
//! `θ₂(0) = θ₀·D_c2/D_c` (both at steady state for the speed `D_c/θ₀`).
//!
//! **Stiffness.** Near stick the friction slope `∂F/∂v ≈ −N·a/|v|` is steep: the default
//! integrator is the L-stable Rodas4 with the analytic Jacobian below.

use serde::{Deserialize, Serialize};

use super::{Contact, FrictionLaw, LawJacobian, sgn};
use crate::integrate::Column;
use crate::params::ExtraField;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str =
    "μ = μ₀ + a·ln(v/v₀) + b·ln(v₀θ/D_c),  aging θ̇ = 1 − vθ/D_c or slip θ̇ = −(vθ/D_c)·ln(vθ/D_c)";
/// One-line explanation.
pub const SUMMARY: &str = "Friction that depends on the sliding speed and on the age of the contacts (rocks, many engineering interfaces)";

/// How the state evolves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Evolution {
    /// Dieterich's aging law `θ̇ = 1 − vθ/D_c`: the state grows at rest (healing in stick).
    #[default]
    Aging,
    /// Ruina's slip law `θ̇ = −(vθ/D_c)·ln(vθ/D_c)`: the state changes only with slip.
    Slip,
}

impl ExtraField for Evolution {}

/// Which expression of μ is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RateStateForm {
    /// `μ = a·asinh[(v/2v₀)·exp(Ψ/a)]`, defined at `v = 0`.
    #[default]
    Regularized,
    /// `μ = Ψ + a·ln(|v|/v₀)`, clamped at 0, undefined (0) at `v = 0`.
    Classic,
}

impl ExtraField for RateStateForm {}

crate::param_struct! {
    /// Rate-and-state parameters (defaults: typical laboratory rock values).
    pub struct RateStateParams {
        /// Friction coefficient at steady sliding at the reference speed.
        mu0: "mu0" = 0.6, "Reference friction coefficient", "μ₀", "", [0.0, 2.0], Linear;
        /// Direct effect: instant change of μ per e-fold of speed.
        a: "a" = 0.01, "Direct effect", "a", "", [1e-4, 0.1], Log;
        /// Evolution effect: change of μ per e-fold of the state.
        b: "b" = 0.015, "Evolution effect", "b", "", [0.0, 0.1], Linear;
        /// Slip distance over which the state renews.
        d_c_m: "d_c" = 1e-5, "Critical slip distance", "D_c", "m", [1e-9, 1.0], Log;
        /// Reference speed of μ₀.
        v0_mps: "v0" = 1e-6, "Reference speed", "v₀", "m/s", [1e-12, 10.0], Log;
        /// Initial state (the age of the contacts at the start).
        theta0_s: "theta0" = 10.0, "Initial state", "θ₀", "s", [1e-9, 1e12], Log, restart;
        /// Evolution effect of a second state variable (0: one state variable).
        b2: "b2" = 0.0, "Second evolution effect", "b₂", "", [0.0, 0.1], Linear;
        /// Slip distance of the second state variable.
        d_c2_m: "d_c2" = 1e-4, "Second slip distance", "D_c2", "m", [1e-9, 1.0], Log;
        /// Radiation damping (quasi-dynamic earthquake models).
        eta_r_ns_per_m: "radiation_damping" = 0.0, "Radiation damping", "η_r", "N·s/m", [0.0, 1e6], Linear;
    }
    extra {
        /// State evolution: `Aging` (Dieterich) or `Slip` (Ruina).
        evolution: "evolution": Evolution = Evolution::Aging;
        /// Expression of μ: `Regularized` (defined at v = 0) or `Classic`.
        form: "form": RateStateForm = RateStateForm::Regularized;
    }
}

impl RateStateParams {
    /// Number of state variables (2 when `b₂ > 0`).
    pub fn n_state_variables(&self) -> usize {
        if self.b2 > 0.0 { 2 } else { 1 }
    }

    /// Steady-state friction coefficient at speed `|v|` > 0:
    /// `μ_ss = μ₀ + (a − b − b₂)·ln(v/v₀)` in the classic form, its regularised value otherwise.
    pub fn mu_steady(&self, speed_mps: f64) -> f64 {
        let phi = (self.v0_mps / speed_mps).ln();
        let psi = self.mu0 + (self.b + self.b2) * phi;
        self.mu_of(speed_mps, psi)
    }

    /// `μ` at relative speed `v ≥ 0` and `Ψ = μ₀ + Σ b_i·φ_i`.
    fn mu_of(&self, speed_mps: f64, psi: f64) -> f64 {
        match self.form {
            RateStateForm::Regularized => {
                self.a * asinh_scaled(speed_mps / (2.0 * self.v0_mps), psi / self.a)
            }
            RateStateForm::Classic => {
                if speed_mps > 0.0 {
                    (psi + self.a * (speed_mps / self.v0_mps).ln()).max(0.0)
                } else {
                    0.0
                }
            }
        }
    }

    /// `v₀/D_c` and `1/D_c` of state variable `i`.
    fn rates(&self, i: usize) -> (f64, f64) {
        let d_c = if i == 0 { self.d_c_m } else { self.d_c2_m };
        (self.v0_mps / d_c, 1.0 / d_c)
    }

    /// `b` of state variable `i`.
    fn weight(&self, i: usize) -> f64 {
        if i == 0 { self.b } else { self.b2 }
    }
}

/// `asinh(u·e^q)` for `u ≥ 0` without overflow (`q` may be hundreds).
fn asinh_scaled(u: f64, q: f64) -> f64 {
    if u <= 0.0 {
        return 0.0;
    }
    let ln_x = u.ln() + q;
    if ln_x > 40.0 {
        // asinh x = ln 2x + 1/(4x²) − …; the correction is below 1e-35 here.
        ln_x + std::f64::consts::LN_2
    } else {
        ln_x.exp().asinh()
    }
}

/// `x/√(1 + x²)` and `e^q/√(1 + x²)` for `x = u·e^q`, `u ≥ 0`, without overflow (the second
/// saturates at `f64::MAX`).
fn asinh_slopes(u: f64, q: f64) -> (f64, f64) {
    let ln_x = if u > 0.0 {
        u.ln() + q
    } else {
        f64::NEG_INFINITY
    };
    if ln_x > 40.0 {
        // x/√(1+x²) = 1 to round-off; e^q/√(1+x²) = 1/u.
        (1.0, 1.0 / u)
    } else {
        let x = ln_x.exp();
        let root = (1.0 + x * x).sqrt();
        (x / root, (q.min(709.0)).exp() / root)
    }
}

/// Rate-and-state law.
#[derive(Clone, Debug, PartialEq)]
pub struct RateState {
    /// Parameters.
    pub params: RateStateParams,
}

impl RateState {
    /// Law with the given parameters.
    pub fn new(params: RateStateParams) -> Self {
        Self { params }
    }

    /// Replaces the parameters.
    pub fn set_params(&mut self, params: RateStateParams) {
        self.params = params;
    }

    /// State θ [s] of variable `i` from its integrated value `φ = ln(v₀θ/D_c)`.
    pub fn theta_s(&self, i: usize, phi: f64) -> f64 {
        let (v0_over_dc, _) = self.params.rates(i);
        phi.exp() / v0_over_dc
    }

    /// `Ψ = μ₀ + Σ b_i·φ_i`.
    fn psi(&self, s: &[f64]) -> f64 {
        let p = &self.params;
        let mut psi = p.mu0 + p.b * s[0];
        if s.len() > 1 {
            psi += p.b2 * s[1];
        }
        psi
    }

    /// `φ̇_i` at speed `v = |v_rel|`.
    fn phi_rate(&self, i: usize, speed: f64, phi: f64) -> f64 {
        let (v0_over_dc, inv_dc) = self.params.rates(i);
        match self.params.evolution {
            Evolution::Aging => v0_over_dc * (-phi).exp() - speed * inv_dc,
            Evolution::Slip => {
                if speed > 0.0 {
                    -speed * inv_dc * (phi + (speed / self.params.v0_mps).ln())
                } else {
                    0.0
                }
            }
        }
    }
}

impl FrictionLaw for RateState {
    fn n_states(&self) -> usize {
        self.params.n_state_variables()
    }

    fn state_columns(&self) -> Vec<Column> {
        let mut cols = vec![Column::new("rs_log_state", "")];
        if self.n_states() > 1 {
            cols.push(Column::new("rs_log_state_2", ""));
        }
        cols
    }

    fn state_scales(&self, out: &mut [f64]) {
        out.fill(1.0);
    }

    fn initial_states(&self, s: &mut [f64]) {
        let p = &self.params;
        let phi0 = (p.v0_mps * p.theta0_s / p.d_c_m).ln();
        s.fill(phi0);
    }

    #[inline]
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64 {
        let p = &self.params;
        let v = c.v_rel_mps;
        let speed = v.abs();
        for (i, d) in ds.iter_mut().enumerate() {
            *d = self.phi_rate(i, speed, s[i]);
        }
        let mu = p.mu_of(speed, self.psi(s));
        -c.normal_load_n * mu * sgn(v) - p.eta_r_ns_per_m * v
    }

    fn jacobian(&self, c: &Contact, s: &[f64], j: &mut LawJacobian<'_>) -> bool {
        let p = &self.params;
        let v = c.v_rel_mps;
        let speed = v.abs();
        if speed == 0.0 && p.evolution == Evolution::Slip {
            // ∂φ̇/∂v ∝ ln v is unbounded at rest.
            return false;
        }
        let n = self.n_states();
        let load = c.normal_load_n;
        let psi = self.psi(s);
        // ∂μ/∂|v| and ∂μ/∂Ψ, then F = −N·μ(|v|)·sgn v ⇒ ∂F/∂v = −N·∂μ/∂|v|.
        let (dmu_dspeed, dmu_dpsi) = match p.form {
            RateStateForm::Regularized => {
                let (ratio, slope) = asinh_slopes(speed / (2.0 * p.v0_mps), psi / p.a);
                (p.a * slope / (2.0 * p.v0_mps), ratio)
            }
            RateStateForm::Classic => {
                if speed == 0.0 || p.mu_of(speed, psi) <= 0.0 {
                    (0.0, 0.0)
                } else {
                    (p.a / speed, 1.0)
                }
            }
        };
        j.df_dv = -load * dmu_dspeed - p.eta_r_ns_per_m;
        j.df_dhold = 0.0;
        let sign = sgn(v);
        for i in 0..n {
            j.df_ds[i] = -load * sign * dmu_dpsi * p.weight(i);
            let (v0_over_dc, inv_dc) = p.rates(i);
            let (dv, dphi) = match p.evolution {
                Evolution::Aging => (-sign * inv_dc, -v0_over_dc * (-s[i]).exp()),
                Evolution::Slip => (
                    -sign * inv_dc * (s[i] + (speed / p.v0_mps).ln() + 1.0),
                    -speed * inv_dc,
                ),
            };
            j.dds_dv[i] = dv;
            for k in 0..n {
                j.dds_ds[i * n + k] = if k == i { dphi } else { 0.0 };
            }
        }
        true
    }

    fn has_after_step(&self) -> bool {
        false
    }

    /// The state rates depend on `|v_rel|`.
    fn kinks_at_reversal(&self) -> bool {
        true
    }

    fn steady_force(&self, v_rel_mps: f64, normal_load_n: f64) -> f64 {
        let speed = v_rel_mps.abs();
        if speed == 0.0 {
            return 0.0;
        }
        -normal_load_n * self.params.mu_steady(speed) * sgn(v_rel_mps)
            - self.params.eta_r_ns_per_m * v_rel_mps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn law(evolution: Evolution, form: RateStateForm, b2: f64) -> RateState {
        RateState::new(RateStateParams {
            evolution,
            form,
            b2,
            d_c2_m: 3e-5,
            eta_r_ns_per_m: 0.7,
            ..RateStateParams::default()
        })
    }

    /// The steady state of both evolution laws is `φ = ln(v₀/v)`, where the force is
    /// `μ₀ + (a − b − b₂)·ln(v/v₀)` times the load, plus the radiation damping.
    #[test]
    fn steady_state_of_both_laws() {
        for evolution in [Evolution::Aging, Evolution::Slip] {
            for form in [RateStateForm::Regularized, RateStateForm::Classic] {
                for b2 in [0.0, 0.004] {
                    let l = law(evolution, form, b2);
                    let p = &l.params;
                    for v in [1e-9f64, 3.7e-6, -2e-3, 0.4] {
                        let phi = (p.v0_mps / v.abs()).ln();
                        let s = vec![phi; l.n_states()];
                        let mut ds = vec![1.0; l.n_states()];
                        let c = Contact::kinematic(0.0, v, 9.0);
                        let f = l.eval(&c, &s, &mut ds);
                        for d in &ds {
                            assert!(d.abs() < 1e-9 * v.abs() / p.d_c_m, "{evolution:?} {d}");
                        }
                        let mu = p.mu0 + (p.a - p.b - b2) * (v.abs() / p.v0_mps).ln();
                        let expected = -9.0 * mu * v.signum() - 0.7 * v;
                        assert!((f - expected).abs() < 1e-12, "{f} vs {expected}");
                        assert!((l.steady_force(v, 9.0) - expected).abs() < 1e-12);
                    }
                }
            }
        }
    }

    /// The regularised force is odd, zero at rest and finite for huge states.
    #[test]
    fn regularized_force_at_and_near_rest() {
        let l = law(Evolution::Aging, RateStateForm::Regularized, 0.0);
        let mut ds = [0.0];
        let f0 = l.eval(&Contact::kinematic(0.0, 0.0, 5.0), &[3.0], &mut ds);
        assert_eq!(f0, 0.0);
        // At rest the aging law heals: θ̇ = 1 ⇔ φ̇ = 1/θ.
        let theta = l.theta_s(0, 3.0);
        assert!((ds[0] - 1.0 / theta).abs() < 1e-15 / theta);
        let c = Contact::kinematic(0.0, 1e-15, 5.0);
        let fp = l.eval(&c, &[3.0], &mut ds);
        let fm = l.eval(&Contact::kinematic(0.0, -1e-15, 5.0), &[3.0], &mut ds);
        assert_eq!(fp, -fm);
        assert!(fp < 0.0);
        let huge = l.eval(&c, &[1e4], &mut ds);
        assert!(huge.is_finite() && huge < 0.0);
    }

    /// The analytic Jacobian matches central differences.
    #[test]
    fn jacobian_matches_differences() {
        for evolution in [Evolution::Aging, Evolution::Slip] {
            for form in [RateStateForm::Regularized, RateStateForm::Classic] {
                let l = law(evolution, form, 0.004);
                for (v, s) in [
                    (2e-6f64, [0.4, -1.0]),
                    (-3e-4, [2.0, 1.5]),
                    (1e-9, [-0.5, 0.0]),
                ] {
                    let c = Contact::kinematic(0.0, v, 7.0);
                    let mut df_ds = [0.0; 2];
                    let mut dds_dv = [0.0; 2];
                    let mut dds_ds = [0.0; 4];
                    let mut j = LawJacobian {
                        df_dv: 0.0,
                        df_dhold: 0.0,
                        df_ds: &mut df_ds,
                        dds_dv: &mut dds_dv,
                        dds_ds: &mut dds_ds,
                    };
                    assert!(l.jacobian(&c, &s, &mut j));
                    let df_dv = j.df_dv;
                    let eval = |v: f64, s: [f64; 2]| {
                        let mut ds = [0.0; 2];
                        let f = l.eval(&Contact::kinematic(0.0, v, 7.0), &s, &mut ds);
                        (f, ds)
                    };
                    let h = 1e-6 * v.abs();
                    let (fp, dsp) = eval(v + h, s);
                    let (fm, dsm) = eval(v - h, s);
                    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1e-9);
                    assert!(close(df_dv, (fp - fm) / (2.0 * h)), "{df_dv}");
                    for i in 0..2 {
                        assert!(close(dds_dv[i], (dsp[i] - dsm[i]) / (2.0 * h)));
                        let mut sp = s;
                        let mut sm = s;
                        sp[i] += 1e-6;
                        sm[i] -= 1e-6;
                        let (fp, dsp) = eval(v, sp);
                        let (fm, dsm) = eval(v, sm);
                        assert!(close(df_ds[i], (fp - fm) / 2e-6), "{evolution:?} {form:?}");
                        for k in 0..2 {
                            assert!(close(dds_ds[k * 2 + i], (dsp[k] - dsm[k]) / 2e-6));
                        }
                    }
                }
            }
        }
    }
}
