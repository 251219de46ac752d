//! Armstrong's seven-parameter friction model (Armstrong-Hélouvry, Dupont, Canudas de Wit,
//! Automatica 30:1083, 1994; S1 eqs 12–13, MODELS §2.6): a hybrid law with a compliant stick
//! mode and a slip mode, switched by events.
//! ```text
//! stick:  F_f = −σ₀·x_s − σ₁·v_rel            ẋ_s = v_rel,  x_s = 0 when sticking begins
//! slip:   F_f = −[F_C + F_S(γ, t_d)/(1 + (v_f/v_S)²)]·r·sgn(v_rel) − F_v·v_rel
//! dwell:  F_S(γ, t_d) = F_S,a + (F_S,∞ − F_S,a)·t_d/(t_d + γ)
//! lag:    τ_L·v̇_f = v_rel − v_f                  (v_f stands for v(t − τ_L))
//! stick → slip when σ₀·|x_s| = r·(F_C + F_S(γ, t_d));   slip → stick when v_rel = 0
//! ```
//! `r = N/N₀` ([`Contact::load_ratio`]); `t_d` is the time stuck so far; `F_S,a` is the Stribeck
//! term `F_S/(1 + (v_f/v_S)²)` at the end of the previous slip. The seven parameters are σ₀, F_C,
//! F_v, F_S,∞, v_S, τ_L and γ; σ₁ is ours.
//!
//! Choices where the paper leaves room (all [PROPOSED]):
//! * **Pre-sliding spring from the stick point.** `x_s` is the relative displacement since the
//!   contact stuck, so the force is zero when sticking begins and builds up as the junction is
//!   strained. Armstrong's model is two models joined at the switches; the friction force jumps at
//!   stick entry (from the slip level to 0) as MODELS §2.6 says. The stick mode is compliant:
//!   `v_rel` is not held at zero, the mechanics integrate the pre-sliding motion
//!   ([`LawSwitch::Continue`]), and the law also runs in prescribed-motion rigs.
//! * **Pre-sliding damping σ₁.** An undamped σ₀ spring rings at `√(σ₀/m)` for ever; after the
//!   force drop at stick entry it overshoots to twice the holding force and can break the junction
//!   on the first swing (chatter). The default `σ₁ = √(σ₀·1 kg)` gives a damping ratio ½ for a
//!   1 kg body (as LuGre's 1995 σ₁); `σ₁ = 0` is the literal model.
//! * **Break-away on the elastic force.** The junction breaks when `σ₀|x_s|` reaches the total
//!   static level `r·(F_C + F_S(γ, t_d))`, so with `σ₁ = 0`, `F_v = 0` and a settled lag
//!   (`v_f = 0`) the force is continuous at break-away. The damping part is left out of the
//!   criterion because at that crossing `|x_s|` grows, so the slip direction `sgn x_s` is the
//!   direction of `v_rel` and the slip mode starts valid; a criterion on the total force can fire
//!   while the body moves backwards. The force jumps by `σ₁·v_rel + F_v·|v_rel|` minus the lag
//!   reduction of the Stribeck term at break-away, all small under quasi-static loading.
//! * **Dwell memory.** `F_S,a` is taken at the zero crossing that ends a slip, with the lagged
//!   velocity, so a fast stop leaves a low `F_S,a` and the static level recovers towards `F_S,∞`
//!   over γ while stuck. The level `F_S(γ, t_d)` reached at break-away is frozen for the whole
//!   following slip.
//! * **Frictional lag by a filter.** The delayed velocity `v(t − τ_L)` is replaced by the
//!   first-order lag `τ_L·v̇_f = v − v_f` (the [PROPOSED] option of MODELS): a plain ODE state,
//!   so dense output, event location and stiff integrators work unchanged and no history buffer
//!   is needed. It has the delay's unit gain at DC and matches it to first order in `s·τ_L`; the
//!   phase lag at angular frequency ω is `atan(ωτ_L)` instead of `ωτ_L`. The filter runs in every
//!   mode (in stick its input is the pre-sliding velocity); `τ_L = 0` means no lag.
//! * **No direct reversal.** Every zero crossing of `v_rel` in slip starts a stick; if the load is
//!   above the threshold, the fresh junction breaks after a pre-sliding of `r·(F_C + F_S,a)/σ₀`.
//! * **Start of a run.** The contact is taken as having rested long before `t = 0`: a run that
//!   starts stuck uses `F_S,a = F_S,∞`, one that starts sliding uses the level `F_S,∞`, and
//!   `v_f(0) = 0`.
//! * **Memory in states.** The dwell time `t_d` and the static memory (`F_S,a` while stuck,
//!   the level `F_S(γ, t_d)` while sliding) are continuous states that are constant or grow
//!   linearly between switches and are reset by them, not data of the discrete mode: a
//!   perturbed trajectory (Floquet flow map, Lyapunov shadow, tangent vectors with their
//!   saltation matrices) then carries the perturbation of its dwell and levels.
//! * **Normal load.** `F_C` and the static/Stribeck level scale with `r = N/N₀` (the dwell memory
//!   is kept at nominal load); σ₀, σ₁ and F_v do not.

use super::{Contact, FrictionLaw, LawSwitch, sgn};
use crate::integrate::Column;

/// Index of the dwell-time state `t_d`.
const DWELL: usize = 2;
/// Index of the static-memory state (`F_S,a` in stick, `F_S(γ, t_d)` in slip).
const MEMORY: usize = 3;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str = "stick: F = −σ₀x_s − σ₁v;  slip: F = −[F_C + F_v|v| + F_S(γ,t_d)/(1 + (v_f/v_S)²)]·sgn v;  \
     F_S(γ,t_d) = F_S,a + (F_S,∞ − F_S,a)·t_d/(t_d + γ),  τ_L·v̇_f = v − v_f";
/// One-line explanation.
pub const SUMMARY: &str =
    "Seven-parameter model: pre-sliding spring, Stribeck, frictional lag, dwell-time break-away";

crate::param_struct! {
    /// Seven-parameter model parameters (force units, at the nominal normal load N₀).
    pub struct ArmstrongParams {
        /// Tangential stiffness of the stuck contact (pre-sliding spring).
        sigma0_n_per_m: "sigma0" = 1e5, "Pre-sliding stiffness", "σ₀", "N/m", [1e2, 1e9], Log;
        /// Damping of the pre-sliding spring [PROPOSED]; 0 = literal model (rings for ever).
        sigma1_ns_per_m: "sigma1" = 316.227_766_016_837_94, "Pre-sliding damping", "σ₁", "N·s/m", [0.0, 1e5], Linear;
        /// Coulomb friction force.
        f_c_n: "f_c" = 1.0, "Coulomb force", "F_C", "N", [0.0, 100.0], Linear;
        /// Viscous friction coefficient during slip.
        f_v_ns_per_m: "f_v" = 0.4, "Viscous coefficient", "F_v", "N·s/m", [0.0, 10.0], Linear;
        /// Static excess over F_C after a long dwell (break-away force F_C + F_S,∞).
        f_s_n: "f_s" = 0.5, "Static excess after long dwell", "F_S,∞", "N", [0.0, 100.0], Linear;
        /// Stribeck velocity.
        v_s_mps: "v_s" = 1e-3, "Stribeck velocity", "v_S", "m/s", [1e-6, 1.0], Log;
        /// Time constant of the frictional lag (0 = none).
        tau_l_s: "tau_l" = 0.01, "Frictional lag", "τ_L", "s", [0.0, 1.0], Linear;
        /// Dwell time over which the static level recovers half-way to F_S,∞.
        gamma_s: "gamma" = 1.0, "Dwell time constant", "γ", "s", [1e-3, 1e3], Log;
    }
}

/// Discrete mode of the seven-parameter model. The memory the paper attaches to the switches
/// (dwell time, `F_S,a`, the level reached at break-away) lives in continuous states, so that
/// tangent dynamics, flow-map restarts and Lyapunov shadows see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArmstrongMode {
    /// Stuck: the states hold the dwell time so far and `F_S,a`.
    Stick,
    /// Sliding in direction `dir` (±1); the memory state holds `F_S(γ, t_d)` reached at
    /// break-away.
    Slip {
        /// Direction of sliding.
        dir: f64,
    },
}

/// Armstrong's seven-parameter law. States `[x_s, v_f, t_d, F_mem]`: pre-sliding displacement,
/// lagged velocity, dwell time (`ṫ_d = 1` in stick, 0 in slip, `t_d := 0` when sticking begins)
/// and the static memory at nominal load (`F_S,a` in stick, `F_S(γ, t_d)` in slip; constant
/// between switches).
#[derive(Clone, Debug, PartialEq)]
pub struct Armstrong {
    /// Parameters.
    pub params: ArmstrongParams,
    mode: ArmstrongMode,
}

impl Armstrong {
    /// Law with the given parameters (the mode is chosen when a run starts).
    pub fn new(params: ArmstrongParams) -> Self {
        Self {
            params,
            mode: ArmstrongMode::Stick,
        }
    }

    /// Replaces the parameters, keeping the current mode and dwell memory.
    pub fn set_params(&mut self, params: ArmstrongParams) {
        self.params = params;
    }

    /// Current mode.
    pub fn mode(&self) -> ArmstrongMode {
        self.mode
    }

    /// Dwell law `F_S(γ, t_d) = F_S,a + (F_S,∞ − F_S,a)·t_d/(t_d + γ)` at nominal load [N].
    pub fn dwell_level(&self, f_sa_n: f64, t_d_s: f64) -> f64 {
        let p = &self.params;
        let t_d = t_d_s.max(0.0);
        f_sa_n + (p.f_s_n - f_sa_n) * t_d / (t_d + p.gamma_s)
    }

    /// Stribeck factor `1/(1 + (v/v_S)²)`.
    fn stribeck(&self, v: f64) -> f64 {
        let r = v / self.params.v_s_mps;
        1.0 / (1.0 + r * r)
    }

    /// The lagged velocity `v_f` (the state, or `v` itself without lag).
    fn lagged(&self, v: f64, s: &[f64]) -> f64 {
        if self.params.tau_l_s > 0.0 { s[1] } else { v }
    }

    /// Break-away threshold of the elastic force in stick [N] (states `s`).
    fn threshold(&self, c: &Contact, s: &[f64]) -> f64 {
        c.load_ratio * (self.params.f_c_n + self.dwell_level(s[MEMORY], s[DWELL]))
    }
}

impl FrictionLaw for Armstrong {
    fn has_after_step(&self) -> bool {
        false
    }

    fn n_states(&self) -> usize {
        4
    }

    fn state_columns(&self) -> Vec<Column> {
        vec![
            Column::new("x_s", "m"),
            Column::new("v_f", "m/s"),
            Column::new("t_d", "s"),
            Column::new("f_s_memory", "N"),
        ]
    }

    fn state_scales(&self, out: &mut [f64]) {
        let p = &self.params;
        out[0] = ((p.f_c_n + p.f_s_n) / p.sigma0_n_per_m).max(1e-15);
        out[1] = p.v_s_mps;
        out[DWELL] = p.gamma_s;
        out[MEMORY] = (p.f_c_n + p.f_s_n).max(1e-15);
    }

    fn initial_states(&self, s: &mut [f64]) {
        s[..MEMORY].fill(0.0);
        s[MEMORY] = self.params.f_s_n;
    }

    /// The contact has rested long before the start: `F_S,a = F_S,∞` (stuck) or the level
    /// `F_S,∞` (sliding), dwell time from the start.
    fn initialize(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        s[0] = 0.0;
        s[DWELL] = 0.0;
        s[MEMORY] = self.params.f_s_n;
        self.mode = if c.v_rel_mps != 0.0 {
            ArmstrongMode::Slip {
                dir: sgn(c.v_rel_mps),
            }
        } else {
            ArmstrongMode::Stick
        };
        LawSwitch::Continue
    }

    #[inline]
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64 {
        let p = &self.params;
        let v = c.v_rel_mps;
        ds[1] = if p.tau_l_s > 0.0 {
            (v - s[1]) / p.tau_l_s
        } else {
            0.0
        };
        ds[MEMORY] = 0.0;
        match self.mode {
            ArmstrongMode::Stick => {
                ds[0] = v;
                ds[DWELL] = 1.0;
                -(p.sigma0_n_per_m * s[0] + p.sigma1_ns_per_m * v)
            }
            ArmstrongMode::Slip { dir } => {
                ds[0] = 0.0;
                ds[DWELL] = 0.0;
                let level = p.f_c_n + s[MEMORY] * self.stribeck(self.lagged(v, s));
                // F_v·|v|·sgn v = F_v·v; the mode's direction keeps the dry part smooth up to
                // the zero crossing that ends the slip.
                -dir * c.load_ratio * level - p.f_v_ns_per_m * v
            }
        }
    }

    fn n_events(&self) -> usize {
        1
    }

    fn events(&self, c: &Contact, s: &[f64], g: &mut [f64]) {
        g[0] = match self.mode {
            ArmstrongMode::Stick => self.threshold(c, s) - self.params.sigma0_n_per_m * s[0].abs(),
            ArmstrongMode::Slip { dir, .. } => dir * c.v_rel_mps,
        };
    }

    fn apply_event(&mut self, _index: usize, c: &Contact, s: &mut [f64]) -> LawSwitch {
        match self.mode {
            ArmstrongMode::Stick => {
                // Break-away: slide the way the junction was strained, with the level reached.
                let dir = if s[0] != 0.0 {
                    sgn(s[0])
                } else if c.v_rel_mps != 0.0 {
                    sgn(c.v_rel_mps)
                } else {
                    1.0
                };
                self.mode = ArmstrongMode::Slip { dir };
                s[MEMORY] = self.dwell_level(s[MEMORY], s[DWELL]);
                s[0] = 0.0;
            }
            ArmstrongMode::Slip { .. } => {
                // Zero crossing: a new junction forms, unstrained; F_S,a is the Stribeck term
                // at the lagged velocity.
                s[MEMORY] *= self.stribeck(self.lagged(c.v_rel_mps, s));
                s[DWELL] = 0.0;
                self.mode = ArmstrongMode::Stick;
                s[0] = 0.0;
            }
        }
        LawSwitch::Continue
    }

    fn stuck(&self) -> Option<bool> {
        Some(matches!(self.mode, ArmstrongMode::Stick))
    }

    /// Slip force with the lag settled and a fully aged contact (`F_S = F_S,∞`).
    fn steady_force(&self, v_rel_mps: f64, _normal_load_n: f64, load_ratio: f64) -> f64 {
        let p = &self.params;
        let v = v_rel_mps;
        -sgn(v) * load_ratio * (p.f_c_n + p.f_s_n * self.stribeck(v)) - p.f_v_ns_per_m * v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> ArmstrongParams {
        ArmstrongParams {
            sigma0_n_per_m: 1e5,
            sigma1_ns_per_m: 0.0,
            f_c_n: 1.0,
            f_v_ns_per_m: 0.4,
            f_s_n: 0.5,
            v_s_mps: 1e-3,
            tau_l_s: 0.01,
            gamma_s: 1.0,
        }
    }

    /// `F_S(γ, t_d)` starts at `F_S,a`, is half-way at `t_d = γ` and tends to `F_S,∞`.
    #[test]
    fn dwell_level_interpolates() {
        let law = Armstrong::new(params());
        assert_eq!(law.dwell_level(0.1, 0.0), 0.1);
        assert!((law.dwell_level(0.1, 1.0) - 0.3).abs() < 1e-15);
        assert!((law.dwell_level(0.1, 1e9) - 0.5).abs() < 1e-9);
    }

    /// A hand-driven cycle: slide forward with `v_f = v_S` at the zero crossing, so
    /// `F_S,a = 0.5/(1 + 1) = 0.25 N`; after 1 s stuck (`γ = 1 s`) the static excess is
    /// `0.25 + 0.25·½ = 0.375 N`, the break-away displacement `1.375 N/σ₀ = 13.75 μm`; the slip
    /// that follows starts backwards at `−(1 + 0.375·S(v_f))·(−1) − F_v·v`.
    #[test]
    fn hand_cycle_slip_stick_break_away() {
        let mut law = Armstrong::new(params());
        let mut s = [0.0; 4];
        law.initial_states(&mut s);
        let c0 = Contact::kinematic(0.0, 0.01, 1.0);
        assert_eq!(law.initialize(&c0, &mut s), LawSwitch::Continue);
        assert_eq!(law.stuck(), Some(false));
        // Sliding at 0.01 m/s with the lag settled: F = −(1 + 0.5/(1 + 100)) − 0.004.
        let mut ds = [0.0; 4];
        s[1] = 0.01;
        let f = law.eval(&c0, &s, &mut ds);
        assert!((f + 1.0 + 0.5 / 101.0 + 0.004).abs() < 1e-15, "{f}");
        // Zero crossing at t = 2 s with v_f = 1e-3.
        s[1] = 1e-3;
        let c1 = Contact::kinematic(2.0, 0.0, 1.0);
        let mut g = [0.0];
        law.events(&c1, &s, &mut g);
        assert_eq!(g[0], 0.0);
        law.apply_event(0, &c1, &mut s);
        assert_eq!(law.mode(), ArmstrongMode::Stick);
        assert_eq!((s[DWELL], s[MEMORY]), (0.0, 0.25));
        // Stuck: pre-sliding spring, ẋ_s = v, the dwell time runs; one second later:
        s[0] = -1e-5;
        s[DWELL] = 1.0;
        let c2 = Contact::kinematic(3.0, -1e-6, 1.0);
        let f = law.eval(&c2, &s, &mut ds);
        assert!(
            (f - 1.0).abs() < 1e-12 && ds[0] == -1e-6 && ds[DWELL] == 1.0,
            "{f}"
        );
        // At t = 3 s the threshold is 1.375 N: the guard changes sign at |x_s| = 13.75 μm.
        for (x_s, positive) in [(-13.7e-6, true), (-13.8e-6, false)] {
            s[0] = x_s;
            law.events(&c2, &s, &mut g);
            assert_eq!(g[0] > 0.0, positive, "x_s = {x_s}: g = {}", g[0]);
        }
        s[0] = -13.75e-6;
        law.events(&c2, &s, &mut g);
        assert!(g[0].abs() < 1e-12, "{}", g[0]);
        law.apply_event(0, &c2, &mut s);
        assert_eq!(law.mode(), ArmstrongMode::Slip { dir: -1.0 });
        assert_eq!((s[0], s[MEMORY]), (0.0, 0.375));
        s[1] = -1e-3;
        let f = law.eval(&c2, &s, &mut ds);
        assert!((f - (1.0 + 0.375 * 0.5) + 0.4 * -1e-6).abs() < 1e-15, "{f}");
    }

    /// `F_C` and the static level scale with `N/N₀`; σ₀ and F_v do not.
    #[test]
    fn load_ratio_scales_the_dry_levels() {
        let mut law = Armstrong::new(params());
        let mut s = [0.0, 2e-3, 0.0, 0.0];
        let mut c = Contact::kinematic(0.0, 2e-3, 1.0);
        law.initialize(&c, &mut s);
        c.load_ratio = 2.0;
        let mut ds = [0.0; 4];
        let f = law.eval(&c, &s, &mut ds);
        assert!(
            (f + 2.0 * (1.0 + 0.5 / 5.0) + 0.4 * 2e-3).abs() < 1e-15,
            "{f}"
        );
        // Stuck at the same load with the lag settled (F_S,a = F_S,∞): threshold 2·(1 + 0.5) = 3 N.
        c.v_rel_mps = 0.0;
        s[1] = 0.0;
        law.apply_event(0, &c, &mut s);
        s[0] = 2.9e-5;
        let mut g = [0.0];
        law.events(&c, &s, &mut g);
        assert!((g[0] - (3.0 - 2.9)).abs() < 1e-12, "{}", g[0]);
    }
}
