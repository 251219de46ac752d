//! Generalized Maxwell-slip (GMS) friction (Al-Bender, Lampaert, Swevers, IEEE TAC 50:1883,
//! 2005; MODELS §2.9), in **force form** with equal weights:
//! ```text
//! s(v)     = [F_C + (F_S − F_C)·exp(−|v/v_S|^δ)]·N/N₀            Stribeck curve
//! α_i      = 1/M,   d_i = d_max·i/M,   k_i = α_i·F_S/d_i,   σ_i = α_i·σ₁
//! stuck:     dF_i/dt = k_i·v                         until |F_i| reaches α_i·s(v)
//! slipping:  dF_i/dt = C·N/N₀·(α_i·sgn v − F_i/s(v))   until v changes sign, then stuck
//! F_f      = −(Σ_i [F_i + σ_i·(dF_i/dt)/k_i] + σ₂·v)
//! steady state: F_ss = −(s(v)·sgn v + σ₂·v)
//! ```
//! `v = v_rel`; `F_i` [N] is the force carried by element `i`. Pre-sliding hysteresis with
//! nonlocal memory (inner loops close), Stribeck effect, frictional lag, stick–slip, no drift.
//!
//! **Normalisation (MODELS §6, open point 3).** Papers write GMS either in deflections
//! (`ż_i = sgn(v)·C·(1 − z_i/s_i)`, `s_i = α_i·s(v)/k_i`) or in forces; here the state is the
//! element force `F_i` [N], the weights are `α_i = 1/M` (`Σα_i = 1`, so `F_ss = s(v)`), and the
//! attraction parameter `C` is in N/s (relaxation rate `C/s(v)`, 10–1000 s⁻¹). The element
//! stiffnesses follow from one pre-sliding distance: element `i` breaks away from rest after
//! `d_i = d_max·i/M` at the static level, `k_i·d_i = α_i·F_S`. The micro-damping `σ₁` is split
//! like the weights, so in full stick the damping force is `σ₁·v` (as LuGre's σ₁).
//!
//! **Sign.** The slipping law is printed as `dF_i/dt = sgn(v)·C·(α_i − F_i/s(v))`, which is only
//! right for `v > 0`: for `v < 0` it pushes `F_i` away from `−α_i·s`. It is written here as
//! `C·(α_i·sgn v − F_i/s(v))`, odd in `(v, F)`, attracting `F_i` to `α_i·s(v)·sgn v` both ways.
//! In slip, `sgn v` is the direction of the slipping mode (constant until the reversal event).
//!
//! **Load.** The force levels follow the normal load: `s(v)` and `C` are multiplied by `N/N₀`
//! (`Contact::load_ratio`), so the relaxation rate `C/s` does not change with the load; the
//! element stiffnesses `k_i` use the nominal `F_S`. The slipping rate is evaluated as
//! `C·((N/N₀)·α_i·sgn v − F_i/s₀(v))` with the nominal level `s₀`, the same expression made
//! regular at `N = 0`: without load the elements relax to zero force and friction vanishes
//! (stuck elements are set back onto their zero threshold after the step).
//!
//! **Switching (exact, event-driven).** Element `i` stuck and loaded by the motion
//! (`F_i·v ≥ 0`): event when `α_i·s(v) − |F_i|` crosses zero; it then slips in the direction of
//! `v` (that of its force). All slipping elements share the sliding direction and return to
//! stick together at one event, the zero crossing of `v`.
//!
//! **A threshold falling under an unloaded element** (normal-load drop, or a steep Stribeck drop
//! just after a reversal, `δ < 1`): the element is set back onto its threshold after the step
//! and stays stuck (its slider gives way by the excess, as in Maxwell-slip). Read literally, the
//! published rule would make it slip towards the opposite threshold `α_i·s·sgn v`; with
//! micro-damping the force jump of that switch reverses `v` at once, which ends the slip, and
//! the run chatters (Zeno) with no physical meaning. Under constant load with `δ ≥ 1` this case
//! does not occur.
//!
//! **Element count.** Fixed by the state vector; changing `M` on a running law keeps the old
//! count (restart the run to apply it).

use super::{Contact, FrictionLaw, LawSwitch, exp_neg, sgn};
use crate::integrate::Column;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str = "stuck: Ḟ_i = k_i·v until |F_i| = α_i·s(v);  slip: Ḟ_i = C·(α_i·sgn v − F_i/s(v));  \
     F_f = −(Σ[F_i + σ_i·Ḟ_i/k_i] + σ₂·v)";
/// One-line explanation.
pub const SUMMARY: &str =
    "Maxwell-slip elements with Stribeck slip: nonlocal-memory pre-sliding, lag, stick–slip";

crate::param_struct! {
    /// GMS parameters (force units; the force levels follow the normal-load ratio N/N₀).
    pub struct GmsParams {
        /// Number of elements M (weights α_i = 1/M, break distances d_i = d_max·i/M).
        n_elements: "n_elements" = 8.0, "Number of elements", "M", "", [1.0, 200.0], Linear, integer, restart;
        /// Coulomb (kinetic) force level of the Stribeck curve s(v).
        f_c_n: "f_c" = 1.0, "Coulomb force", "F_C", "N", [1e-3, 100.0], Linear;
        /// Static force level s(0); with d_max it sets the element stiffnesses.
        f_s_n: "f_s" = 1.5, "Static force", "F_S", "N", [1e-3, 100.0], Linear;
        /// Stribeck velocity.
        v_s_mps: "v_s" = 1e-3, "Stribeck velocity", "v_S", "m/s", [1e-5, 1.0], Log;
        /// Shape exponent of the Stribeck curve exp(−|v/v_S|^δ).
        delta: "delta" = 2.0, "Stribeck exponent", "δ", "", [0.2, 3.0], Linear;
        /// Pre-sliding distance: element i breaks away after d_max·i/M from rest.
        d_max_m: "d_max" = 1e-5, "Pre-sliding distance", "d_max", "m", [1e-8, 1e-2], Log;
        /// Attraction parameter C of the slipping elements (relaxation rate C/s(v)).
        attraction_n_per_s: "attraction" = 1e3, "Attraction parameter", "C", "N/s", [1.0, 1e7], Log;
        /// Total micro-damping, shared as σ_i = α_i·σ₁.
        sigma1_ns_per_m: "sigma1" = 316.227_766_016_837_94, "Micro-damping", "σ₁", "N·s/m", [0.0, 1e4], Linear;
        /// Viscous friction coefficient.
        sigma2_ns_per_m: "sigma2" = 0.4, "Viscous coefficient", "σ₂", "N·s/m", [0.0, 10.0], Linear;
    }
    consistency = |p: &Self| super::static_law::break_away_order(p.f_s_n, p.f_c_n);
}

impl GmsParams {
    /// Element count `M`.
    pub fn element_count(&self) -> usize {
        self.n_elements.max(1.0).round() as usize
    }

    /// Stribeck curve `s(v)` at nominal load [N].
    pub fn stribeck(&self, v: f64) -> f64 {
        let r = (v / self.v_s_mps).abs();
        let g = if self.delta == 2.0 {
            r * r
        } else {
            r.powf(self.delta)
        };
        self.f_c_n + (self.f_s_n - self.f_c_n) * exp_neg(g)
    }
}

/// GMS law.
#[derive(Clone, Debug, PartialEq)]
pub struct Gms {
    /// Parameters.
    pub params: GmsParams,
    weights: Vec<f64>,
    stiffness: Vec<f64>,
    slipping: Vec<bool>,
    /// Direction of the slipping elements (±1; 0 before any slip).
    dir: f64,
}

impl Gms {
    /// Law with the given parameters, all elements stuck.
    pub fn new(params: GmsParams) -> Self {
        let m = params.element_count();
        let mut law = Self {
            params,
            weights: Vec::new(),
            stiffness: Vec::new(),
            slipping: vec![false; m],
            dir: 0.0,
        };
        law.build_elements(m);
        law
    }

    fn build_elements(&mut self, m: usize) {
        let p = &self.params;
        self.weights = vec![1.0 / m as f64; m];
        self.stiffness = (1..=m)
            .map(|i| {
                let d_i = p.d_max_m * i as f64 / m as f64;
                p.f_s_n / (m as f64 * d_i)
            })
            .collect();
    }

    /// Replaces the parameters, keeping the modes and the element count (restart the run to
    /// change `M`).
    pub fn set_params(&mut self, params: GmsParams) {
        self.params = params;
        self.build_elements(self.slipping.len());
    }

    /// Element weights `α_i`.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// Element stiffnesses `k_i` [N/m].
    pub fn stiffness(&self) -> &[f64] {
        &self.stiffness
    }

    /// Which elements slip.
    pub fn slipping(&self) -> &[bool] {
        &self.slipping
    }

    /// Load-scaled Stribeck level, kept positive.
    fn level(&self, c: &Contact) -> f64 {
        (c.load_ratio * self.params.stribeck(c.v_rel_mps)).max(f64::MIN_POSITIVE)
    }

    /// Guard of a stuck element: `α_i·s(v) − |F_i|` while the motion loads it (`F_i·v ≥ 0`),
    /// `1` while it unloads it (then only a falling threshold can overtake `|F_i|`, and that is
    /// handled by [`update_stuck`](Self::update_stuck) after the step, not by an event).
    fn stuck_guard(&self, i: usize, v: f64, f: f64, level: f64) -> f64 {
        if f * v < 0.0 {
            1.0
        } else {
            self.weights[i] * level - f.abs()
        }
    }

    /// Applies the threshold to the stuck elements; returns whether anything changed.
    /// `motion` is the sign of the motion that loads or unloads them: `sgn v`, except right at a
    /// velocity reversal, where it is the new direction (the state landed on by the driver may
    /// still show a velocity of 1e-12 m/s on the old side).
    ///
    /// * A stuck element loaded by the motion (`F_i·motion ≥ 0`) at or beyond its threshold
    ///   slips, in the direction of its force. `fired` is the element whose event the driver
    ///   located: it slips even if the landed state is a hair inside its threshold (the located
    ///   time and the landed step can differ in the last digits; skipping it would fire the same
    ///   event again at once). With an event, elements exactly on their threshold slip too (equal
    ///   thresholds); otherwise only those beyond it.
    /// * A stuck element being unloaded (`F_i·motion < 0`) but beyond its threshold — the
    ///   threshold fell under it (normal-load drop, or a steep Stribeck drop right after a
    ///   reversal) — is set back onto the threshold and stays stuck: its slider gives way by the
    ///   excess, as in Maxwell-slip. The printed GMS rule would make it slip towards the
    ///   *opposite* threshold (`F_i → α_i·s·sgn v`); with micro-damping the force jump of that
    ///   switch reverses `v` at once, which reverses the switch: a Zeno chatter with no physical
    ///   meaning.
    fn update_stuck(
        &mut self,
        c: &Contact,
        s: &mut [f64],
        fired: Option<usize>,
        motion: f64,
    ) -> bool {
        let level = self.level(c);
        let mut changed = false;
        for i in 0..s.len() {
            if self.slipping[i] {
                continue;
            }
            let limit = self.weights[i] * level;
            let g = limit - s[i].abs();
            if s[i] * motion >= 0.0 {
                let reached = fired == Some(i) || g < 0.0 || (fired.is_some() && g == 0.0);
                if reached {
                    let d = if s[i] != 0.0 { sgn(s[i]) } else { motion };
                    self.slipping[i] = true;
                    self.dir = d;
                    changed = true;
                }
            } else if g < 0.0 {
                s[i] = sgn(s[i]) * limit;
                changed = true;
            }
        }
        changed
    }
}

impl FrictionLaw for Gms {
    fn n_states(&self) -> usize {
        self.slipping.len()
    }

    fn state_columns(&self) -> Vec<Column> {
        (1..=self.slipping.len())
            .map(|i| Column::new(format!("gms_f_{i}"), "N"))
            .collect()
    }

    fn state_scales(&self, out: &mut [f64]) {
        let f = self.params.f_s_n.max(self.params.f_c_n);
        for (o, w) in out.iter_mut().zip(&self.weights) {
            *o = (w * f).max(1e-15);
        }
    }

    fn initialize(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        self.slipping.iter_mut().for_each(|b| *b = false);
        self.dir = 0.0;
        self.update_stuck(c, s, None, sgn(c.v_rel_mps));
        LawSwitch::Continue
    }

    #[inline]
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64 {
        let p = &self.params;
        let v = c.v_rel_mps;
        // C·(N/N₀)·(α_i·sgn v − F_i/s(v)) with s(v) = (N/N₀)·s₀(v), written with the nominal
        // level s₀ so that it stays regular as the load goes to zero: the elements then relax
        // to zero force at the rate C/s₀ (the load-scaled form froze them, at rate 0·(…/0)).
        let nominal = self.params.stribeck(v).max(f64::MIN_POSITIVE);
        let pull = p.attraction_n_per_s * c.load_ratio * self.dir;
        let relax = p.attraction_n_per_s / nominal;
        let mut f = 0.0;
        for i in 0..s.len() {
            let (w, k) = (self.weights[i], self.stiffness[i]);
            let rate = if self.slipping[i] {
                w * pull - relax * s[i]
            } else {
                k * v
            };
            ds[i] = rate;
            f += s[i] + w * p.sigma1_ns_per_m * rate / k;
        }
        -(f + p.sigma2_ns_per_m * v)
    }

    fn n_events(&self) -> usize {
        self.slipping.len() + 1
    }

    fn events(&self, c: &Contact, s: &[f64], g: &mut [f64]) {
        let m = s.len();
        let level = self.level(c);
        let mut any = false;
        for i in 0..m {
            g[i] = if self.slipping[i] {
                any = true;
                1.0
            } else {
                self.stuck_guard(i, c.v_rel_mps, s[i], level)
            };
        }
        g[m] = if any { self.dir * c.v_rel_mps } else { 1.0 };
    }

    fn apply_event(&mut self, index: usize, c: &Contact, s: &mut [f64]) -> LawSwitch {
        if index < s.len() {
            // Every element at its threshold slips now (equal thresholds, or thresholds reached
            // within the event-time tolerance, would otherwise start below zero).
            self.update_stuck(c, s, Some(index), sgn(c.v_rel_mps));
        } else {
            self.slipping.iter_mut().for_each(|b| *b = false);
            self.dir = -self.dir;
            // Released elements sit on their thresholds and are unloaded from now on (set back
            // onto the threshold if they lag a hair beyond it).
            self.update_stuck(c, s, None, self.dir);
        }
        LawSwitch::Continue
    }

    fn has_after_step(&self) -> bool {
        true
    }

    /// Each element's rate depends on `v`, the load and its own force only.
    fn states_are_independent(&self) -> bool {
        true
    }

    fn after_step(&mut self, c: &Contact, s: &mut [f64]) -> bool {
        // Stuck elements overtaken by a falling threshold while unloaded are set back onto it;
        // also a safety net for a threshold lowered on a running law (an event cannot fire from
        // below zero).
        self.update_stuck(c, s, None, sgn(c.v_rel_mps))
    }

    fn steady_force(&self, v_rel_mps: f64, _normal_load_n: f64, load_ratio: f64) -> f64 {
        let p = &self.params;
        // Every element slipping at its steady level α_i·r·s₀(v), Σα_i = 1.
        -(load_ratio * p.stribeck(v_rel_mps) * sgn(v_rel_mps) + p.sigma2_ns_per_m * v_rel_mps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> GmsParams {
        GmsParams {
            n_elements: 4.0,
            f_c_n: 1.0,
            f_s_n: 2.0,
            v_s_mps: 1e-3,
            delta: 2.0,
            d_max_m: 8e-6,
            attraction_n_per_s: 500.0,
            sigma1_ns_per_m: 100.0,
            sigma2_ns_per_m: 0.5,
        }
    }

    /// Elements by hand: α_i = 0.25, d_i = 2, 4, 6, 8 μm, k_i = 0.25·2/d_i = 2.5e5, 1.25e5,
    /// 8.333e4, 6.25e4 N/m.
    #[test]
    fn elements_by_hand() {
        let law = Gms::new(params());
        let k_hand = [2.5e5, 1.25e5, 0.5 / 6e-6, 6.25e4];
        for i in 0..4 {
            assert_eq!(law.weights()[i], 0.25);
            assert!((law.stiffness()[i] - k_hand[i]).abs() < 1e-9 * k_hand[i]);
        }
        assert_eq!(law.n_events(), 5);
    }

    /// Stuck rates k_i·v and the force with micro-damping: at v = 1e-4 m/s with F = (0.1, 0.2,
    /// 0, −0.1) N, F_f = −(0.2 + 100·1e-4 + 0.5·1e-4) = −0.21005 N (Σσ_i·k_i·v/k_i = σ₁·v).
    #[test]
    fn stuck_rates_and_force() {
        let law = Gms::new(params());
        let c = Contact::kinematic(0.0, 1e-4, 1.0);
        let mut ds = [0.0; 4];
        let f = law.eval(&c, &[0.1, 0.2, 0.0, -0.1], &mut ds);
        for i in 0..4 {
            assert!((ds[i] - law.stiffness()[i] * 1e-4).abs() < 1e-9);
        }
        assert!((f + 0.21005).abs() < 1e-12, "{f}");
    }

    /// Slipping rates are odd in (v, F): at v = ±2e-3 m/s, s = 1 + e^−4 N; an element at
    /// F = ±0.1 N relaxes to ±0.25·s at the rate C·(0.25 − 0.1/s) = 500·(0.25 − 0.1/1.0183).
    #[test]
    fn slipping_rate_is_odd() {
        let s = 1.0 + (-4.0f64).exp();
        let expected = 500.0 * (0.25 - 0.1 / s);
        for sign in [1.0, -1.0] {
            let mut law = Gms::new(params());
            let c = Contact::kinematic(0.0, sign * 2e-3, 1.0);
            let mut st = [sign * 0.5, 0.0, 0.0, 0.0];
            law.apply_event(0, &c, &mut st);
            assert_eq!(law.slipping(), &[true, false, false, false]);
            st[0] = sign * 0.1;
            let mut ds = [0.0; 4];
            law.eval(&c, &st, &mut ds);
            assert!(
                (ds[0] - sign * expected).abs() < 1e-9,
                "{} vs {}",
                ds[0],
                sign * expected
            );
        }
    }

    /// A load drop puts thresholds (0.25·2·0.5 = 0.25 N at v ≈ 0) under two stuck elements at
    /// ±0.4 N while v = 1e-6 m/s: the one loaded by the motion (+0.4 N) slips forwards, the one
    /// being unloaded (−0.4 N) is set back onto −0.25 N and stays stuck (no opposite slip).
    #[test]
    fn falling_threshold() {
        let mut law = Gms::new(params());
        let mut c = Contact::kinematic(0.0, 1e-6, 1.0);
        c.load_ratio = 0.5;
        let mut st = [0.4, -0.4, 0.1, 0.0];
        let mut g = [0.0; 5];
        law.events(&c, &st, &mut g);
        assert!(g[0] < 0.0 && g[1] == 1.0 && g[2] > 0.0);
        assert!(law.after_step(&c, &mut st));
        assert_eq!(law.slipping(), &[true, false, false, false]);
        let level = 0.25 * 0.5 * (1.0 + (-1e-6f64).exp());
        assert!((st[1] + level).abs() < 1e-15, "{}", st[1]);
        assert_eq!(st[0], 0.4);
        assert!(!law.after_step(&c, &mut st));
    }

    /// Regression: at zero load the slipping rate `C·0·(α sgn v − F/0⁺)` was 0, so the
    /// elements kept their force and friction did not vanish with the load. Now every element
    /// relaxes to zero (slipping ones at the rate C/s₀, stuck ones set back onto their zero
    /// threshold), leaving only the viscous σ₂·v.
    #[test]
    fn friction_vanishes_with_the_load() {
        let mut law = Gms::new(params());
        let mut c = Contact::kinematic(0.0, 1e-3, 1.0);
        c.load_ratio = 0.0;
        let mut st = [0.4, 0.3, 0.2, 0.1];
        // Elements over their (zero) threshold and loaded by the motion slip; the rest are set
        // back onto it.
        law.after_step(&c, &mut st);
        let dt = 1e-6;
        let mut ds = [0.0; 4];
        let mut f = 0.0;
        for _ in 0..100_000 {
            f = law.eval(&c, &st, &mut ds);
            for (x, d) in st.iter_mut().zip(&ds) {
                *x += dt * d;
            }
        }
        let viscous = -params().sigma2_ns_per_m * 1e-3;
        assert!((f - viscous).abs() < 1e-9, "F = {f} N, σ₂ part {viscous} N");
        assert!(st.iter().all(|x| x.abs() < 1e-9), "{st:?}");
    }

    /// Thresholds α_i·s(v) follow the load ratio, reversal sticks every element.
    #[test]
    fn thresholds_and_reversal() {
        let mut law = Gms::new(params());
        let mut c = Contact::kinematic(0.0, 0.0, 1.0);
        c.load_ratio = 2.0;
        let mut g = [0.0; 5];
        let mut st = [0.9, 0.0, 0.0, 0.0];
        law.events(&c, &st, &mut g);
        assert!((g[0] - (0.25 * 2.0 * 2.0 - 0.9)).abs() < 1e-15);
        assert_eq!(g[4], 1.0);
        c.v_rel_mps = 1e-6;
        st[0] = 1.0;
        law.apply_event(0, &c, &mut st);
        assert!(law.slipping()[0]);
        law.events(&c, &st, &mut g);
        assert_eq!(g[4], 1e-6);
        c.v_rel_mps = -1e-12;
        law.apply_event(4, &c, &mut st);
        assert_eq!(law.slipping(), &[false; 4]);
        assert_eq!(law.steady_force(0.0, 1.0, 1.0), 0.0);
        assert!(
            (law.steady_force(-1e-3, 1.0, 1.0) - (1.0 + (-1.0f64).exp() + 0.5e-3)).abs() < 1e-15
        );
    }

    /// A slipping element sits below its threshold once `s(v)` rises (the block slows down);
    /// a live parameter change (`resume`) keeps it slipping, where choosing the modes afresh
    /// (`initialize`) would make it stick again and load it at `k_i·v`.
    #[test]
    fn resume_keeps_slipping_elements_below_their_threshold() {
        let mut law = Gms::new(params());
        let mut s = [0.0; 4];
        let fast = Contact::kinematic(0.0, 1e-3, 1.0);
        law.initialize(&fast, &mut s);
        // Element 0 a hair past its threshold at 1 mm/s: the after-step hook lets it slip.
        s[0] = law.weights()[0] * law.params.stribeck(1e-3) * (1.0 + 1e-12);
        assert!(law.after_step(&fast, &mut s));
        assert_eq!(law.slipping(), &[true, false, false, false]);
        // Slower: s(v) rises, the slipping element is now below its threshold.
        let slow = Contact::kinematic(0.1, 1e-4, 1.0);
        assert!(s[0] < law.weights()[0] * law.params.stribeck(1e-4));
        let mut afresh = law.clone();
        afresh.initialize(&slow, &mut s.clone());
        assert_eq!(afresh.slipping(), &[false; 4], "what a restart did");
        assert_eq!(law.resume(&slow, &mut s), LawSwitch::Continue);
        assert_eq!(law.slipping(), &[true, false, false, false]);
    }
}
