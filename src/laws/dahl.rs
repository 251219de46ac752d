//! Dahl friction with general shape exponent (Dahl 1968; S1 eqs 15–17, MODELS §2.7):
//! ```text
//! dF/dt = σ·|1 − (F/F_C)·sgn v|^α · sgn(1 − (F/F_C)·sgn v) · v,     F_f = −F
//! α = 1:  F(x) = s·F_C − (s·F_C − F_r)·exp(−σ·s·(x − x_r)/F_C)   on a branch of direction s
//!         started at the reversal point (x_r, F_r)
//! steady state: F_ss = −F_C·sgn v
//! ```
//! `v = v_rel`; the state `F` [N] is the friction state force (the force on body 2), `σ` the rest
//! stiffness `dF/dx` at `F = 0`, `α` the shape exponent. Rate-independent pre-sliding hysteresis
//! with local memory only; no Stribeck effect, no static peak, no stick–slip.
//!
//! **Load.** `F_C` is a force, so it follows the normal-load bump: the law uses `F_C·N/N₀`
//! (`Contact::load_ratio`). The state is not rescaled when the load changes; under a constant
//! load `|F| ≤ F_C` is invariant.
//!
//! **Saturation (exact, event-driven).** `|F| = F_C` while sliding outwards is an equilibrium of
//! the state equation. For `α < 1` it is reached in finite sliding distance and the right-hand
//! side is not Lipschitz there (`|1 − w|^α` with `w → 1`), which makes adaptive steppers chatter
//! across the limit. The law therefore has two modes: *free* (the equation above) and
//! *saturated* (`F ≡ d·F_C·N/N₀`, `d = ±1` the sliding direction, state held). Free → saturated
//! when `1 − F·sgn v/F_C` crosses zero (for `α ≥ 1` the limit is only approached, so this event
//! merely stops a round-off overshoot; beyond the limit the free rate is zero so an overshoot
//! cannot hide from the event); saturated → free when `v` changes sign, with the state
//! set to the limit so the force is continuous. While saturated the state column keeps the value
//! it had at saturation and the force is `d·F_C·N/N₀`.

use super::{Contact, FrictionLaw, LawSwitch, sgn};
use crate::integrate::Column;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str = "dF/dt = σ·|1 − (F/F_C)·sgn v|^α·sgn(1 − (F/F_C)·sgn v)·v,  F_f = −F";
/// One-line explanation.
pub const SUMMARY: &str =
    "Rate-independent pre-sliding hysteresis (local memory), F → F_C in gross sliding";

crate::param_struct! {
    /// Dahl parameters (force units; `F_C` follows the normal-load ratio N/N₀).
    pub struct DahlParams {
        /// Rest stiffness dF/dx at F = 0 (contact stiffness of the pre-sliding regime).
        sigma_n_per_m: "sigma" = 1e5, "Rest stiffness", "σ", "N/m", [1e3, 1e7], Log;
        /// Coulomb (gross-sliding) force at nominal load.
        f_c_n: "f_c" = 1.0, "Coulomb force", "F_C", "N", [1e-3, 100.0], Linear;
        /// Shape exponent: 1 gives exponential branches, < 1 reaches F_C in finite distance.
        alpha: "alpha" = 1.0, "Shape exponent", "α", "", [0.5, 3.0], Linear;
    }
}

/// Discrete mode of the Dahl law.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DahlMode {
    /// `|F| < F_C` or moving inwards: the state equation applies.
    Free,
    /// Gross sliding at the limit in direction `d = ±1`: `F ≡ d·F_C·N/N₀`.
    Saturated(f64),
}

/// Dahl law.
#[derive(Clone, Debug, PartialEq)]
pub struct Dahl {
    /// Parameters.
    pub params: DahlParams,
    mode: DahlMode,
}

impl Dahl {
    /// Law with the given parameters, starting free.
    pub fn new(params: DahlParams) -> Self {
        Self {
            params,
            mode: DahlMode::Free,
        }
    }

    /// Replaces the parameters, keeping the mode.
    pub fn set_params(&mut self, params: DahlParams) {
        self.params = params;
    }

    /// Current mode.
    pub fn mode(&self) -> DahlMode {
        self.mode
    }

    /// Load-scaled Coulomb force `F_C·N/N₀` [N] (kept positive so the ratios stay finite).
    fn limit(&self, c: &Contact) -> f64 {
        (self.params.f_c_n * c.load_ratio).max(f64::MIN_POSITIVE)
    }

    /// `dF/dx` of the free mode at state `f` moving with velocity sign `dir` under limit `lim`.
    ///
    /// Beyond the limit (`1 − F·sgn v/F_C < 0`, reachable only by round-off or a load drop, and
    /// left at once by the saturation event) the slope is zero rather than the restoring
    /// `−σ·|…|^α`: an overshoot then persists to the end of the step, where the event sees it.
    /// With the restoring value a stepper can hover a hair below the limit for ever (α < 1).
    fn slope(&self, f: f64, dir: f64, lim: f64) -> f64 {
        let p = &self.params;
        let e = 1.0 - f * dir / lim;
        if e <= 0.0 {
            0.0
        } else if p.alpha == 1.0 {
            p.sigma_n_per_m * e
        } else {
            p.sigma_n_per_m * e.powf(p.alpha)
        }
    }

    /// Free-mode guard `1 − F·sgn v/F_C` (negative beyond the limit while sliding outwards).
    fn free_guard(&self, c: &Contact, f: f64) -> f64 {
        1.0 - f * sgn(c.v_rel_mps) / self.limit(c)
    }
}

impl FrictionLaw for Dahl {
    fn n_states(&self) -> usize {
        1
    }

    fn state_columns(&self) -> Vec<Column> {
        vec![Column::new("f_dahl", "N")]
    }

    fn state_scales(&self, out: &mut [f64]) {
        out[0] = self.params.f_c_n.max(1e-12);
    }

    fn initialize(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        self.mode = DahlMode::Free;
        if self.free_guard(c, s[0]) <= 0.0 && c.v_rel_mps != 0.0 {
            let d = sgn(c.v_rel_mps);
            s[0] = d * self.limit(c);
            self.mode = DahlMode::Saturated(d);
        }
        LawSwitch::Continue
    }

    #[inline]
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64 {
        let v = c.v_rel_mps;
        match self.mode {
            DahlMode::Free => {
                ds[0] = self.slope(s[0], sgn(v), self.limit(c)) * v;
                -s[0]
            }
            DahlMode::Saturated(d) => {
                ds[0] = 0.0;
                -d * self.limit(c)
            }
        }
    }

    fn n_events(&self) -> usize {
        1
    }

    fn events(&self, c: &Contact, s: &[f64], g: &mut [f64]) {
        g[0] = match self.mode {
            DahlMode::Free => self.free_guard(c, s[0]),
            DahlMode::Saturated(d) => d * c.v_rel_mps,
        };
    }

    fn apply_event(&mut self, _index: usize, c: &Contact, s: &mut [f64]) -> LawSwitch {
        match self.mode {
            DahlMode::Free => {
                // The guard can only go negative while sliding outwards, so sgn v ≠ 0 here.
                let d = sgn(c.v_rel_mps);
                if d != 0.0 {
                    s[0] = d * self.limit(c);
                    self.mode = DahlMode::Saturated(d);
                }
            }
            DahlMode::Saturated(d) => {
                s[0] = d * self.limit(c);
                self.mode = DahlMode::Free;
            }
        }
        LawSwitch::Continue
    }

    fn has_after_step(&self) -> bool {
        true
    }

    fn after_step(&mut self, c: &Contact, s: &mut [f64]) -> bool {
        // Safety net for a guard that is already negative (e.g. F_C lowered on a running law):
        // the event could not fire from below zero.
        if self.mode == DahlMode::Free && c.v_rel_mps != 0.0 && self.free_guard(c, s[0]) < 0.0 {
            self.apply_event(0, c, s);
            return true;
        }
        false
    }

    fn kinks_at_reversal(&self) -> bool {
        true
    }

    fn steady_force(&self, v_rel_mps: f64, _normal_load_n: f64, load_ratio: f64) -> f64 {
        -load_ratio * self.params.f_c_n * sgn(v_rel_mps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn law(alpha: f64) -> Dahl {
        Dahl::new(DahlParams {
            sigma_n_per_m: 2e5,
            f_c_n: 2.0,
            alpha,
        })
    }

    /// The rate at F = 0 is σ·v for every α (σ is the rest stiffness).
    #[test]
    fn rest_stiffness_is_sigma() {
        for alpha in [0.5, 1.0, 2.0, 3.0] {
            let l = law(alpha);
            for v in [-0.3, 1e-4] {
                let mut ds = [0.0];
                let f = l.eval(&Contact::kinematic(0.0, v, 1.0), &[0.0], &mut ds);
                assert_eq!(f, 0.0);
                assert!(
                    (ds[0] - 2e5 * v).abs() <= 1e-12 * (2e5 * v).abs(),
                    "α {alpha}"
                );
            }
        }
    }

    /// Hand values of the state equation: F = 1 N, F_C = 2 N, v = ±0.01 m/s, α = 2:
    /// outwards 2e5·(1 − 0.5)²·0.01 = 500 N/s, inwards 2e5·(1 + 0.5)²·(−0.01) = −4500 N/s.
    #[test]
    fn rate_matches_hand_values_alpha_2() {
        let l = law(2.0);
        let mut ds = [0.0];
        l.eval(&Contact::kinematic(0.0, 0.01, 1.0), &[1.0], &mut ds);
        assert!((ds[0] - 500.0).abs() < 1e-9, "{}", ds[0]);
        l.eval(&Contact::kinematic(0.0, -0.01, 1.0), &[1.0], &mut ds);
        assert!((ds[0] + 4500.0).abs() < 1e-9, "{}", ds[0]);
    }

    /// At and beyond the limit while sliding outwards the free rate is zero (the saturation
    /// event takes over); moving back from beyond it the rate is finite, for α < 1 too.
    #[test]
    fn rate_at_and_beyond_the_limit() {
        for alpha in [0.5, 1.0, 2.5] {
            let l = law(alpha);
            for (f, v) in [(2.0 + 1e-9, 0.1), (-2.0 - 1e-9, -0.1), (2.0, 0.1)] {
                let mut ds = [1.0];
                l.eval(&Contact::kinematic(0.0, v, 1.0), &[f], &mut ds);
                assert_eq!(ds[0], 0.0, "α {alpha}, F {f}");
            }
            let mut ds = [0.0];
            l.eval(&Contact::kinematic(0.0, -0.1, 1.0), &[2.0 + 1e-9], &mut ds);
            let expected = -2e5 * 2.0f64.powf(alpha) * 0.1;
            assert!(
                (ds[0] - expected).abs() < 1e-6 * expected.abs(),
                "{}",
                ds[0]
            );
        }
    }

    /// The limit follows the load ratio, and a saturated contact releases at reversal with a
    /// continuous force.
    #[test]
    fn saturation_and_release() {
        let mut l = law(0.5);
        let mut c = Contact::kinematic(0.0, 0.1, 1.0);
        c.load_ratio = 1.5;
        let mut s = [2.9];
        let mut g = [0.0];
        l.events(&c, &s, &mut g);
        assert!((g[0] - (1.0 - 2.9 / 3.0)).abs() < 1e-15);
        s[0] = 3.0 + 1e-12;
        l.apply_event(0, &c, &mut s);
        assert_eq!(l.mode(), DahlMode::Saturated(1.0));
        assert_eq!(s[0], 3.0);
        let mut ds = [1.0];
        assert_eq!(l.eval(&c, &s, &mut ds), -3.0);
        assert_eq!(ds[0], 0.0);
        c.v_rel_mps = -1e-15;
        l.events(&c, &s, &mut g);
        assert!(g[0] < 0.0);
        c.load_ratio = 1.0;
        l.apply_event(0, &c, &mut s);
        assert_eq!(l.mode(), DahlMode::Free);
        assert_eq!(s[0], 2.0);
        assert_eq!(l.steady_force(-0.2, 9.81, 1.0), 2.0);
    }
}
