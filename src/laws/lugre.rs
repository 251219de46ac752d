//! LuGre dynamic friction (Canudas de Wit, Olsson, Åström, Lischinsky, IEEE TAC 40:419, 1995;
//! S1 eq 18, MODELS §2.8):
//! ```text
//! ż   = v − σ₀·|v|·z / g(v),        g(v) = F_C + (F_S − F_C)·exp(−(v/v_S)²)
//! F_f = −(σ₀·z + σ₁(v)·ż + σ₂·v),   σ₁(v) = σ₁·exp(−(v/v_d)²)  (v_d = 0: constant σ₁)
//! steady state: F_ss = −(g(v)·sgn v + σ₂·v)
//! ```
//! `v = v_rel`; `z` is the mean bristle deflection [m] at the nominal load. A varying normal
//! load `N` scales the bristle force, as in the LuGre models of tyre–road friction (Canudas de
//! Wit, Tsiotras, Velenis, Basset, Gissinger, *Vehicle System Dynamics* 39:189, 2003):
//! ```text
//! F_f = −((N/N₀)·(σ₀·z + σ₁(v)·ż) + σ₂·v),   steady state F_ss = −((N/N₀)·g(v)·sgn v + σ₂·v)
//! ```
//! so a normal-load bump changes the friction level and the dry friction **vanishes with the
//! load** (the viscous term is the lubricant's and stays). Until December 2026 `g` itself was
//! scaled by `N/N₀`, which gives the same steady force but a bristle relaxation rate σ₀|v|N₀/(gN)
//! that becomes infinite as `N → 0` (noise driving the load to zero made runs fail); both forms
//! agree at constant nominal load. Stiff: the bristle relaxation rate σ₀|v|/g reaches 1e4 s⁻¹
//! with the 1995 values, so the default integrator is the L-stable Rodas4.

use super::{Contact, FrictionLaw, LawJacobian, exp_neg, sgn};
use crate::integrate::Column;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str =
    "ż = v − σ₀|v|z/g(v),  g(v) = F_C + (F_S − F_C)·e^(−(v/v_S)²),  F = −(σ₀z + σ₁ż + σ₂v)";
/// One-line explanation.
pub const SUMMARY: &str = "Bristle model: Stribeck, pre-sliding, frictional lag, stick–slip";

crate::param_struct! {
    /// LuGre parameters (force units; the defaults are the 1995 paper's).
    pub struct LuGreParams {
        /// Bristle stiffness.
        sigma0_n_per_m: "sigma0" = 1e5, "Bristle stiffness", "σ₀", "N/m", [1e3, 1e9], Log;
        /// Bristle damping.
        sigma1_ns_per_m: "sigma1" = 316.227_766_016_837_94, "Bristle damping", "σ₁", "N·s/m", [0.0, 1e4], Linear;
        /// Viscous friction coefficient.
        sigma2_ns_per_m: "sigma2" = 0.4, "Viscous coefficient", "σ₂", "N·s/m", [0.0, 10.0], Linear;
        /// Coulomb friction force.
        f_c_n: "f_c" = 1.0, "Coulomb force", "F_C", "N", [0.0, 100.0], Linear;
        /// Static (break-away) friction force.
        f_s_n: "f_s" = 1.5, "Static force", "F_S", "N", [0.0, 100.0], Linear;
        /// Stribeck velocity.
        v_s_mps: "v_s" = 1e-3, "Stribeck velocity", "v_S", "m/s", [1e-5, 1.0], Log;
        /// Velocity scale of the damping decay σ₁(v) (0 = constant σ₁).
        v_d_mps: "v_d" = 0.0, "Damping decay velocity", "v_d", "m/s", [0.0, 1.0], Linear;
    }
    consistency = |p: &Self| super::static_law::break_away_order(p.f_s_n, p.f_c_n);
}

/// LuGre law.
#[derive(Clone, Debug, PartialEq)]
pub struct LuGre {
    /// Parameters.
    pub params: LuGreParams,
    /// `1/v_S`, cached for the hot path.
    inv_v_s: f64,
    /// A floor of the Stribeck level at nominal load [N]: `F_C` when `F_S ≥ F_C` (then
    /// `F_C + (F_S − F_C)·e ≥ F_C` holds in floating point too), else 0 (no usable floor:
    /// with `F_S ≪ F_C` the rounded level can reach 0).
    level_floor_n: f64,
}

impl LuGre {
    /// Law with the given parameters.
    pub fn new(params: LuGreParams) -> Self {
        let inv_v_s = 1.0 / params.v_s_mps;
        let level_floor_n = if params.f_s_n >= params.f_c_n {
            params.f_c_n
        } else {
            0.0
        };
        Self {
            params,
            inv_v_s,
            level_floor_n,
        }
    }

    /// Replaces the parameters.
    pub fn set_params(&mut self, params: LuGreParams) {
        *self = Self::new(params);
    }

    /// Stribeck level `g(v)` at nominal load [N].
    #[inline]
    pub fn g(&self, v: f64) -> f64 {
        let p = &self.params;
        let r = v * self.inv_v_s;
        p.f_c_n + (p.f_s_n - p.f_c_n) * exp_neg(r * r)
    }

    fn sigma1(&self, v: f64) -> f64 {
        let p = &self.params;
        if p.v_d_mps > 0.0 {
            let r = v / p.v_d_mps;
            p.sigma1_ns_per_m * exp_neg(r * r)
        } else {
            p.sigma1_ns_per_m
        }
    }
}

impl FrictionLaw for LuGre {
    fn has_after_step(&self) -> bool {
        false
    }

    fn n_states(&self) -> usize {
        1
    }

    fn state_columns(&self) -> Vec<Column> {
        vec![Column::new("z", "m")]
    }

    fn state_scales(&self, out: &mut [f64]) {
        let p = &self.params;
        out[0] = (p.f_s_n.max(p.f_c_n) / p.sigma0_n_per_m).max(1e-15);
    }

    #[inline]
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64 {
        let p = &self.params;
        let v = c.v_rel_mps;
        let z = s[0];
        let g = self.g(v);
        // g ≥ floor: when that is positive the guard against g = 0 is a no-op, and deciding it
        // from the floor keeps it off the integrator's critical path.
        let g = if self.level_floor_n > 1e-300 {
            g
        } else {
            g.max(f64::MIN_POSITIVE)
        };
        let zdot = v - p.sigma0_n_per_m * v.abs() * z / g;
        ds[0] = zdot;
        -(c.load_ratio * (p.sigma0_n_per_m * z + self.sigma1(v) * zdot) + p.sigma2_ns_per_m * v)
    }

    fn kinks_at_reversal(&self) -> bool {
        true
    }

    /// `∂ż/∂v = 1 − σ₀z·(sgn v·g − |v|·g′)/g²`, `∂ż/∂z = −σ₀|v|/g`, with `r = N/N₀`:
    /// `∂F/∂v = −(r·(σ₁′(v)ż + σ₁(v)∂ż/∂v) + σ₂)`, `∂F/∂z = −r·(σ₀ + σ₁(v)∂ż/∂z)`.
    fn jacobian(&self, c: &Contact, s: &[f64], j: &mut LawJacobian<'_>) -> bool {
        let p = &self.params;
        let v = c.v_rel_mps;
        let z = s[0];
        let r = v * self.inv_v_s;
        let e = exp_neg(r * r);
        let g_raw = p.f_c_n + (p.f_s_n - p.f_c_n) * e;
        if g_raw <= f64::MIN_POSITIVE {
            return false;
        }
        let dg = (p.f_s_n - p.f_c_n) * e * (-2.0 * r * self.inv_v_s);
        let load = c.load_ratio;
        let s0 = p.sigma0_n_per_m;
        let zdot = v - s0 * v.abs() * z / g_raw;
        let dzdot_dv = 1.0 - s0 * z * (sgn(v) * g_raw - v.abs() * dg) / (g_raw * g_raw);
        let dzdot_dz = -s0 * v.abs() / g_raw;
        let (s1, ds1) = if p.v_d_mps > 0.0 {
            let q = v / p.v_d_mps;
            let e1 = p.sigma1_ns_per_m * exp_neg(q * q);
            (e1, e1 * (-2.0 * q / p.v_d_mps))
        } else {
            (p.sigma1_ns_per_m, 0.0)
        };
        j.df_dv = -(load * (ds1 * zdot + s1 * dzdot_dv) + p.sigma2_ns_per_m);
        j.df_ds[0] = -load * (s0 + s1 * dzdot_dz);
        j.dds_dv[0] = dzdot_dv;
        j.dds_ds[0] = dzdot_dz;
        true
    }

    fn steady_force(&self, v_rel_mps: f64, _normal_load_n: f64, load_ratio: f64) -> f64 {
        // ż = 0: σ₀z = g(v)·sgn v, and the bristle force scales with r = N/N₀.
        -(load_ratio * self.g(v_rel_mps) * sgn(v_rel_mps) + self.params.sigma2_ns_per_m * v_rel_mps)
    }

    /// `z_ss = g(v)·sgn(v)/σ₀` (at rest: undeflected bristles), whatever the load.
    fn steady_states(&self, v_rel_mps: f64, _normal_load_n: f64, s: &mut [f64]) {
        s[0] = self.g(v_rel_mps) * sgn(v_rel_mps) / self.params.sigma0_n_per_m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At constant velocity the bristle state relaxes to z_ss = g(v)·sgn(v)/σ₀ and the force to
    /// F_ss = −(g(v)·sgn v + σ₂v) (MODELS §5).
    #[test]
    fn steady_state_matches_closed_form() {
        let law = LuGre::new(LuGreParams::default());
        for &v in &[-0.1, -1e-3, 5e-4, 2e-3, 0.1] {
            let c = Contact::kinematic(0.0, v, 1.0);
            let z_ss = law.g(v) * sgn(v) / law.params.sigma0_n_per_m;
            let mut ds = [0.0];
            let f = law.eval(&c, &[z_ss], &mut ds);
            assert!(ds[0].abs() < 1e-15, "ż = {} at v = {v}", ds[0]);
            let expected = -(1.0 + 0.5 * (-(v / 1e-3f64).powi(2)).exp()) * sgn(v) - 0.4 * v;
            assert!((f - expected).abs() < 1e-12, "v = {v}: {f} vs {expected}");
            assert!((law.steady_force(v, 1.0, 1.0) - expected).abs() < 1e-12);
        }
    }

    /// With F_S ≪ F_C the rounded level F_C + (F_S − F_C)·e is exactly 0 at v = 0; the guard
    /// keeps ż finite there (0/0 otherwise), and it also holds for a zero load bump.
    #[test]
    fn zero_level_stays_finite() {
        let params = LuGreParams {
            f_c_n: 1.0,
            f_s_n: 1e-20,
            ..LuGreParams::default()
        };
        let law = LuGre::new(params);
        assert_eq!(law.g(0.0), 0.0, "the case this test is about");
        let mut ds = [0.0];
        let f = law.eval(&Contact::kinematic(0.0, 0.0, 1.0), &[0.0], &mut ds);
        assert_eq!((f, ds[0]), (0.0, 0.0));
        let unloaded = Contact {
            load_ratio: 0.0,
            ..Contact::kinematic(0.0, 1e-3, 0.0)
        };
        let default = LuGre::new(LuGreParams::default());
        let f = default.eval(&unloaded, &[1e-6], &mut ds);
        assert!(f.is_finite() && ds[0].is_finite(), "F = {f}, ż = {}", ds[0]);
        // Without load only the viscous term is left (σ₂·v).
        assert!((f + 0.4 * 1e-3).abs() < 1e-15, "F = {f}");
    }
}
