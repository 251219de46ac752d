//! Maxwell-slip friction (S2 eqs 1–2; Rizos & Fassois, IEEE TCST 17:153, 2009; MODELS §2.9):
//! `M` elasto-slide elements in parallel, element `j` a spring `k_j` in series with a Coulomb
//! slider that slips when the spring force reaches `k_j·Δ_j`.
//! ```text
//! per displacement increment Δx:   δ_j ← sgn(Δx + δ_j)·min(|Δx + δ_j|, Δ_j)
//! as an ODE:   δ̇_j = v  unless element j is saturated (|δ_j| = Δ_j and v·δ_j > 0), then δ̇_j = 0
//! F_f = −(Σ_j k_j·δ_j + c_v·v)
//! virgin curve F_v(x) = Σ_j k_j·min(x, Δ_j);  after a reversal at (x_r, F_r):
//! F = F_r − 2·F_v((x_r − x)/2)   (Masing; exact, up to the previous reversal point)
//! ```
//! `v = v_rel`. Rate-independent hysteresis with **nonlocal memory**: inner loops close at their
//! reversal points and wipe out of memory when the motion passes the older reversal.
//! Gross sliding at `F_C = Σ_j k_j·Δ_j`, no velocity dependence except the viscous `c_v·v`.
//!
//! **Elements.** From the slider parameters: `Δ_j = d_max·j/M`, `k_j = F_C/(M·Δ_j)`, so every
//! element carries `F_C/M` in slip and the contact is fully sliding after the pre-sliding
//! distance `d_max`. A non-empty `element_list` of `(k, delta)` pairs overrides `M`, `F_C` and
//! `d_max`.
//!
//! **Load.** Maxwell-slip is written in forces and stiffnesses that do not depend on `N`: it does
//! **not** follow the normal-load ratio (a load bump of the belt joint has no effect).
//!
//! **Exactness.** [`update_deflections`] is the algebraic update for a prescribed displacement
//! history (call it once per increment, with every reversal point as a sample). In the ODE the
//! modes switch by events: an elastic element saturates when `|δ_j|` reaches `Δ_j` (`δ_j` is set
//! to `±Δ_j` exactly), and all saturated elements release together when `v` changes sign. No
//! smoothing: between events the right-hand side is `v` or `0`.
//!
//! **Element count.** The number of elements fixes the number of states, so changing `M` (or the
//! length of `element_list`) on a running law keeps the old count; restart the run to apply it.

use serde::{Deserialize, Serialize};

use super::{Contact, FrictionLaw, LawSwitch, sgn};
use crate::integrate::Column;
use crate::params::ExtraField;

/// Equation shown in the GUI and `tribolab laws`.
pub const EQUATION: &str =
    "δ_j ← sgn(Δx + δ_j)·min(|Δx + δ_j|, Δ_j),  F_f = −(Σ_j k_j·δ_j + c_v·v)";
/// One-line explanation.
pub const SUMMARY: &str =
    "Parallel spring–slider elements: rate-independent hysteresis with nonlocal memory";

/// Largest number of elements accepted in an explicit list.
pub const MAX_ELEMENTS: usize = 1000;

/// One elasto-slide element of an explicit list.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlipElement {
    /// Spring stiffness `k_j` [N/m].
    #[serde(rename = "k")]
    pub stiffness_n_per_m: f64,
    /// Maximal spring deflection `Δ_j` [m] (the element slips at `k_j·Δ_j`).
    #[serde(rename = "delta")]
    pub max_deflection_m: f64,
}

/// Explicit element list; empty means "use `M`, `F_C` and `d_max`".
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ElementList(pub Vec<SlipElement>);

impl ExtraField for ElementList {
    fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if self.0.len() > MAX_ELEMENTS {
            out.push((
                String::new(),
                format!("at most {MAX_ELEMENTS} elements, got {}", self.0.len()),
            ));
        }
        for (i, e) in self.0.iter().enumerate() {
            for (name, v, unit) in [
                ("k", e.stiffness_n_per_m, "N/m"),
                ("delta", e.max_deflection_m, "m"),
            ] {
                if !(v.is_finite() && v > 0.0) {
                    out.push((
                        format!("{i}.{name}"),
                        format!("must be a positive finite number [{unit}], got {v}"),
                    ));
                }
            }
        }
        out
    }
}

crate::param_struct! {
    /// Maxwell-slip parameters (not scaled by the normal load).
    pub struct MaxwellSlipParams {
        /// Number of elasto-slide elements M (Δ_j = d_max·j/M, k_j = F_C/(M·Δ_j)).
        n_elements: "n_elements" = 8.0, "Number of elements", "M", "", [1.0, 200.0], Linear, integer, restart;
        /// Gross-sliding force Σ k_j·Δ_j.
        f_c_n: "f_c" = 1.0, "Gross-sliding force", "F_C", "N", [1e-3, 100.0], Linear;
        /// Pre-sliding distance: the largest element deflection, reached when all elements slip.
        d_max_m: "d_max" = 2e-5, "Pre-sliding distance", "d_max", "m", [1e-8, 1e-2], Log;
        /// Viscous friction coefficient added to the element forces.
        viscous_ns_per_m: "viscous" = 0.0, "Viscous coefficient", "c_v", "N·s/m", [0.0, 10.0], Linear;
    }
    extra {
        /// Explicit elements `[(k: N/m, delta: m), …]`; when non-empty it replaces M, F_C, d_max.
        element_list: "element_list": ElementList = ElementList::default();
    }
}

impl MaxwellSlipParams {
    /// Element stiffnesses `k_j` [N/m] and maximal deflections `Δ_j` [m].
    pub fn elements(&self) -> (Vec<f64>, Vec<f64>) {
        if self.element_list.0.is_empty() {
            let m = self.n_elements.max(1.0).round() as usize;
            let limits: Vec<f64> = (1..=m)
                .map(|j| self.d_max_m * j as f64 / m as f64)
                .collect();
            let stiffness = limits.iter().map(|d| self.f_c_n / (m as f64 * d)).collect();
            (stiffness, limits)
        } else {
            self.element_list
                .0
                .iter()
                .map(|e| (e.stiffness_n_per_m, e.max_deflection_m))
                .unzip()
        }
    }
}

/// The exact Maxwell-slip update for one displacement increment `dx` [m]:
/// `δ_j ← sgn(dx + δ_j)·min(|dx + δ_j|, Δ_j)` for every element.
///
/// Exact for any displacement history that is monotone between successive calls: pass every
/// reversal point of the history as a sample.
pub fn update_deflections(deflections_m: &mut [f64], limits_m: &[f64], dx_m: f64) {
    for (d, &lim) in deflections_m.iter_mut().zip(limits_m) {
        let trial = *d + dx_m;
        *d = sgn(trial) * trial.abs().min(lim);
    }
}

/// Total element force `Σ_j k_j·δ_j` [N] (the friction force on body 1 is its negative).
pub fn element_force(stiffness_n_per_m: &[f64], deflections_m: &[f64]) -> f64 {
    stiffness_n_per_m
        .iter()
        .zip(deflections_m)
        .map(|(k, d)| k * d)
        .sum()
}

/// Maxwell-slip law for the ODE driver.
#[derive(Clone, Debug, PartialEq)]
pub struct MaxwellSlip {
    /// Parameters.
    pub params: MaxwellSlipParams,
    stiffness: Vec<f64>,
    limits: Vec<f64>,
    saturated: Vec<bool>,
    /// Sliding direction of the saturated elements (±1; 0 before any saturation).
    dir: f64,
}

impl MaxwellSlip {
    /// Law with the given parameters, all elements elastic.
    pub fn new(params: MaxwellSlipParams) -> Self {
        let (stiffness, limits) = params.elements();
        let n = limits.len();
        Self {
            params,
            stiffness,
            limits,
            saturated: vec![false; n],
            dir: 0.0,
        }
    }

    /// Replaces the parameters, keeping the modes. The element count is fixed by the state
    /// vector: a different count is ignored (the first elements of the new set are used, or the
    /// set is rebuilt with the old `M`); restart the run to change it.
    pub fn set_params(&mut self, params: MaxwellSlipParams) {
        let n = self.limits.len();
        let (mut stiffness, mut limits) = params.elements();
        if limits.len() != n {
            let mut fixed = params.clone();
            fixed.element_list = ElementList::default();
            fixed.n_elements = n as f64;
            (stiffness, limits) = fixed.elements();
        }
        self.stiffness = stiffness;
        self.limits = limits;
        self.params = params;
    }

    /// Element stiffnesses `k_j` [N/m].
    pub fn stiffness(&self) -> &[f64] {
        &self.stiffness
    }

    /// Maximal deflections `Δ_j` [m].
    pub fn limits(&self) -> &[f64] {
        &self.limits
    }

    /// Which elements are saturated (slipping).
    pub fn saturated(&self) -> &[bool] {
        &self.saturated
    }

    /// Gross-sliding force `Σ_j k_j·Δ_j` [N].
    pub fn gross_sliding_force(&self) -> f64 {
        element_force(&self.stiffness, &self.limits)
    }

    /// Saturates every elastic element at or beyond its limit while moving outwards
    /// (`v·δ_j > 0`); clamps the others. `fired` is the element whose event the driver located:
    /// it is treated as reached even if the state landed on by the driver's step is a hair inside
    /// (the located time and the landed step can differ in the last digits; skipping it would
    /// fire the same event again at once). Returns whether anything changed.
    fn saturate_reached(&mut self, v: f64, s: &mut [f64], fired: Option<usize>) -> bool {
        let mut changed = false;
        for j in 0..s.len() {
            if self.saturated[j] || (s[j].abs() < self.limits[j] && fired != Some(j)) {
                continue;
            }
            let d = if s[j] != 0.0 { sgn(s[j]) } else { sgn(v) };
            if s[j] != d * self.limits[j] {
                s[j] = d * self.limits[j];
                changed = true;
            }
            // At the located event v has the element's sign; v = 0 only at a start or when a
            // limit was lowered on a running law: clamp without saturating then.
            if v * d > 0.0 {
                self.saturated[j] = true;
                self.dir = d;
                changed = true;
            }
        }
        changed
    }
}

impl FrictionLaw for MaxwellSlip {
    fn n_states(&self) -> usize {
        self.limits.len()
    }

    fn state_columns(&self) -> Vec<Column> {
        (1..=self.limits.len())
            .map(|j| Column::new(format!("delta_{j}"), "m"))
            .collect()
    }

    fn state_scales(&self, out: &mut [f64]) {
        for (o, l) in out.iter_mut().zip(&self.limits) {
            *o = *l;
        }
    }

    fn initialize(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        self.saturated.iter_mut().for_each(|b| *b = false);
        self.dir = 0.0;
        self.saturate_reached(c.v_rel_mps, s, None);
        LawSwitch::Continue
    }

    #[inline]
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64 {
        let v = c.v_rel_mps;
        let mut f = 0.0;
        for j in 0..s.len() {
            ds[j] = if self.saturated[j] { 0.0 } else { v };
            f += self.stiffness[j] * s[j];
        }
        -(f + self.params.viscous_ns_per_m * v)
    }

    fn n_events(&self) -> usize {
        self.limits.len() + 1
    }

    fn events(&self, c: &Contact, s: &[f64], g: &mut [f64]) {
        let m = s.len();
        let mut any = false;
        for j in 0..m {
            g[j] = if self.saturated[j] {
                any = true;
                1.0
            } else {
                self.limits[j] - s[j].abs()
            };
        }
        // Velocity reversal releases every saturated element (they all share the direction).
        g[m] = if any { self.dir * c.v_rel_mps } else { 1.0 };
    }

    fn apply_event(&mut self, index: usize, c: &Contact, s: &mut [f64]) -> LawSwitch {
        if index < s.len() {
            // Every element at its limit saturates now, not only `index` (equal Δ_j, or limits
            // reached within the event-time tolerance, would otherwise start below zero).
            self.saturate_reached(c.v_rel_mps, s, Some(index));
        } else {
            self.saturated.iter_mut().for_each(|b| *b = false);
            self.dir = -self.dir;
        }
        LawSwitch::Continue
    }

    fn has_after_step(&self) -> bool {
        true
    }

    fn after_step(&mut self, c: &Contact, s: &mut [f64]) -> bool {
        // Safety net: an elastic element found beyond its limit (limits lowered on a running
        // law) could not trigger its event from below zero.
        self.saturate_reached(c.v_rel_mps, s, None)
    }

    fn steady_force(&self, v_rel_mps: f64, _normal_load_n: f64, _load_ratio: f64) -> f64 {
        -(self.gross_sliding_force() * sgn(v_rel_mps) + self.params.viscous_ns_per_m * v_rel_mps)
    }

    fn is_stiff(&self) -> bool {
        false
    }

    /// Each element's rate is `v` or 0, by its own saturation.
    fn states_are_independent(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slider parametrisation: M = 4, F_C = 2 N, d_max = 8 μm gives Δ = 2, 4, 6, 8 μm and
    /// k = 2/(4·Δ_j) = 2.5e5, 1.25e5, 8.333e4, 6.25e4 N/m, each carrying 0.5 N in slip.
    #[test]
    fn elements_from_sliders() {
        let p = MaxwellSlipParams {
            n_elements: 4.0,
            f_c_n: 2.0,
            d_max_m: 8e-6,
            ..MaxwellSlipParams::default()
        };
        let (k, d) = p.elements();
        let d_hand = [2e-6, 4e-6, 6e-6, 8e-6];
        let k_hand = [2.5e5, 1.25e5, 2.0 / 24e-6, 6.25e4];
        for j in 0..4 {
            assert!((d[j] - d_hand[j]).abs() < 1e-20);
            assert!((k[j] - k_hand[j]).abs() < 1e-9 * k_hand[j]);
        }
        let law = MaxwellSlip::new(p);
        assert!((law.gross_sliding_force() - 2.0).abs() < 1e-14);
        assert_eq!(law.n_states(), 4);
        assert_eq!(law.n_events(), 5);
    }

    /// The update by hand: Δ = 1 μm, δ = 0.4 μm; +0.5 μm → 0.9 μm; +0.5 μm → 1 μm (slips);
    /// −1.5 μm → −0.5 μm; −2 μm → −1 μm.
    #[test]
    fn update_by_hand() {
        let mut d = [0.4e-6];
        let lim = [1e-6];
        let expect = [0.9e-6, 1e-6, -0.5e-6, -1e-6];
        for (dx, e) in [0.5e-6, 0.5e-6, -1.5e-6, -2e-6].iter().zip(expect) {
            update_deflections(&mut d, &lim, *dx);
            assert!((d[0] - e).abs() < 1e-21, "{} vs {e}", d[0]);
        }
    }

    /// An explicit list overrides the sliders and is validated.
    #[test]
    fn explicit_list() {
        let mut p = MaxwellSlipParams {
            element_list: ElementList(vec![
                SlipElement {
                    stiffness_n_per_m: 1e5,
                    max_deflection_m: 1e-6,
                },
                SlipElement {
                    stiffness_n_per_m: 2e4,
                    max_deflection_m: 5e-5,
                },
            ]),
            ..MaxwellSlipParams::default()
        };
        let law = MaxwellSlip::new(p.clone());
        assert_eq!(law.n_states(), 2);
        assert!((law.gross_sliding_force() - 1.1).abs() < 1e-14);
        assert!((law.steady_force(-0.1, 9.81, 1.0) - 1.1).abs() < 1e-14);
        p.element_list.0[1].max_deflection_m = -1.0;
        let problems = crate::params::ParamSet::problems(&p);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, "element_list.1.delta");
    }

    /// Saturation is exact, reversal releases every saturated element, and the element count
    /// of a running law does not change with its parameters.
    #[test]
    fn modes_and_live_parameters() {
        let p = MaxwellSlipParams {
            n_elements: 2.0,
            f_c_n: 1.0,
            d_max_m: 2e-6,
            ..MaxwellSlipParams::default()
        };
        let mut law = MaxwellSlip::new(p.clone());
        let c = Contact::kinematic(0.0, 1e-3, 1.0);
        let mut s = [1e-6 + 1e-18, 1e-6 + 1e-18];
        let mut g = [0.0; 3];
        law.events(&c, &s, &mut g);
        assert!(g[0] < 0.0 && g[1] > 0.0 && g[2] == 1.0);
        law.apply_event(0, &c, &mut s);
        assert_eq!(s[0], 1e-6);
        assert_eq!(law.saturated(), &[true, false]);
        let mut ds = [0.0; 2];
        let f = law.eval(&c, &s, &mut ds);
        assert_eq!(ds, [0.0, 1e-3]);
        // k = 1/(2·1e-6) = 5e5 and 1/(2·2e-6) = 2.5e5 N/m.
        assert!((f + (5e5 * 1e-6 + 2.5e5 * (1e-6 + 1e-18))).abs() < 1e-12);
        let back = Contact::kinematic(0.0, -1e-9, 1.0);
        law.events(&back, &s, &mut g);
        assert!(g[2] < 0.0);
        law.apply_event(2, &back, &mut s);
        assert_eq!(law.saturated(), &[false, false]);
        let mut bigger = p;
        bigger.n_elements = 5.0;
        law.set_params(bigger);
        assert_eq!(law.n_states(), 2);
    }
}
