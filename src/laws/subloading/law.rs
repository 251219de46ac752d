//! The subloading-overstress law as a [`FrictionLaw`]: states `[τ, μ, c_s]`, the two modes of
//! the sweeping rule `r_s := min(r_s, r)` and their events (see the module notes above).

use super::SubloadingParams;
use super::flow::{cos_from_rs, rs_from_cos};
use crate::integrate::Column;
use crate::laws::{Contact, FrictionLaw, LawSwitch, sgn};

/// What the law reads off its states.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SubloadingState {
    /// Traction ratio `τ = f_t/f_n`.
    pub tau: f64,
    /// Friction-yield coefficient `μ`, clamped to `[μ_k, μ_s]`.
    pub mu: f64,
    /// Loading ratio `r = |f_t|/(μ·f_n)`.
    pub r: f64,
    /// Static ratio `r_s ∈ [0, 1]`.
    pub r_s: f64,
    /// Viscoplastic sliding speed `λ = |u̇_p|` [m/s].
    pub lambda_mps: f64,
}

/// Discrete mode of the sweeping rule `r_s := min(r_s, r)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubloadingMode {
    /// `λ` from the overstress formula; `r ≥ r_s`.
    Flowing,
    /// Unloading or resting inside the static surface: `λ = 0` and `r_s` follows `r`.
    Elastic,
}

/// Subloading-overstress law.
#[derive(Clone, Debug, PartialEq)]
pub struct Subloading {
    /// Parameters.
    pub params: SubloadingParams,
    mode: SubloadingMode,
}

impl Subloading {
    /// Law with the given parameters (elastic until the run's start decides).
    pub fn new(params: SubloadingParams) -> Self {
        Self {
            params,
            mode: SubloadingMode::Elastic,
        }
    }

    /// Replaces the parameters, keeping the mode.
    pub fn set_params(&mut self, params: SubloadingParams) {
        self.params = params;
    }

    /// Current mode.
    pub fn mode(&self) -> SubloadingMode {
        self.mode
    }

    /// Traction, ratios and flow rate of the states `[τ, μ, c_s]` (flow as if flowing).
    pub fn read(&self, s: &[f64]) -> SubloadingState {
        let p = &self.params;
        let (lo, hi) = p.mu_bounds();
        let mu = s[1].clamp(lo, hi);
        let tau = s[0];
        let r = tau.abs() / mu;
        let r_s = rs_from_cos(s[2]);
        SubloadingState {
            tau,
            mu,
            r,
            r_s,
            lambda_mps: p.flow_rate(r, r_s),
        }
    }

    /// `ṙ` with no flow: `sgn(τ)·τ̇/μ − |τ|·μ̇/μ²`, `τ̇ = (α_t/f_n)·v`, `μ̇ = ξ(1 − μ/μ_s)`.
    fn elastic_ratio_rate(&self, c: &Contact, s: &[f64]) -> f64 {
        let p = &self.params;
        let st = self.read(s);
        let tau_dot = p.alpha_t_pa_per_m / p.f_n_pa * c.v_rel_mps;
        let mu_dot = p.xi_per_s * (1.0 - s[1] / p.mu_s);
        // At τ = 0 the ratio grows whichever way the contact moves.
        let sign = if st.tau == 0.0 {
            sgn(tau_dot)
        } else {
            sgn(st.tau)
        };
        sign * tau_dot / st.mu - st.tau.abs() * mu_dot / (st.mu * st.mu)
    }

    /// Enters `mode` with `r_s := min(r_s, r)`.
    fn enter(&mut self, mode: SubloadingMode, s: &mut [f64]) {
        let st = self.read(s);
        s[2] = cos_from_rs(st.r.min(st.r_s));
        self.mode = mode;
    }

    /// Whether the contact is (or would be) loading with no flow: `ṙ > 0`.
    fn loading(&self, c: &Contact, s: &[f64]) -> bool {
        self.elastic_ratio_rate(c, s) > 0.0
    }
}

impl FrictionLaw for Subloading {
    fn n_states(&self) -> usize {
        3
    }

    fn state_columns(&self) -> Vec<Column> {
        vec![
            Column::new("ft_fn", ""),
            Column::new("mu", ""),
            Column::new("cos_rs", ""),
        ]
    }

    fn state_scales(&self, out: &mut [f64]) {
        let (_, hi) = self.params.mu_bounds();
        out[0] = hi;
        out[1] = hi;
        out[2] = 1.0;
    }

    fn initial_states(&self, s: &mut [f64]) {
        s[0] = 0.0;
        s[1] = self.params.mu_s;
        s[2] = cos_from_rs(0.0);
    }

    /// Above `r_s`: flowing. Inside or on the static surface: `r_s := r`, then flowing if
    /// the motion loads the contact, elastic if it unloads or rests.
    fn initialize(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        let st = self.read(s);
        self.mode = if st.r > st.r_s {
            SubloadingMode::Flowing
        } else {
            s[2] = cos_from_rs(st.r);
            if self.loading(c, s) {
                SubloadingMode::Flowing
            } else {
                SubloadingMode::Elastic
            }
        };
        LawSwitch::Continue
    }

    #[inline]
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64 {
        let p = &self.params;
        let st = self.read(s);
        let lambda = match self.mode {
            SubloadingMode::Flowing => st.lambda_mps,
            SubloadingMode::Elastic => 0.0,
        };
        ds[0] = p.alpha_t_pa_per_m / p.f_n_pa * (c.v_rel_mps - lambda * sgn(st.tau));
        ds[1] =
            -p.kappa_per_m * (s[1] / p.mu_k - 1.0) * lambda + p.xi_per_s * (1.0 - s[1] / p.mu_s);
        ds[2] = match self.mode {
            SubloadingMode::Flowing => {
                -std::f64::consts::FRAC_PI_2 * p.u_per_m * lambda * s[2].clamp(0.0, 1.0)
            }
            // r_s = r while elastic: c_s = cos(π·r/2) follows r in the vector field itself, so
            // the after-step pinning only removes round-off and tangent vectors stay on the
            // constraint.
            SubloadingMode::Elastic => {
                let half_pi = std::f64::consts::FRAC_PI_2;
                -half_pi * (half_pi * st.r.clamp(0.0, 1.0)).sin() * self.elastic_ratio_rate(c, s)
            }
        };
        -st.tau * c.normal_load_n
    }

    fn n_events(&self) -> usize {
        1
    }

    /// Flowing: `g = r − r_s`, armed only while the motion unloads (+1 while it loads, so the
    /// overshoot of a fast-growing `r_s` near 0 cannot chatter); elastic: `g = −ṙ` (positive
    /// while `r` falls or rests).
    fn events(&self, c: &Contact, s: &[f64], g: &mut [f64]) {
        g[0] = match self.mode {
            SubloadingMode::Flowing => {
                let st = self.read(s);
                let gate = if self.loading(c, s) { 1.0 } else { 0.0 };
                st.r - st.r_s + gate
            }
            SubloadingMode::Elastic => -self.elastic_ratio_rate(c, s),
        };
    }

    fn apply_event(&mut self, _index: usize, _c: &Contact, s: &mut [f64]) -> LawSwitch {
        let next = match self.mode {
            SubloadingMode::Flowing => SubloadingMode::Elastic,
            SubloadingMode::Elastic => SubloadingMode::Flowing,
        };
        self.enter(next, s);
        LawSwitch::Continue
    }

    /// Clamps `μ` and `c_s`, applies `r_s := min(r_s, r)` (pinning `r_s` to `r` while
    /// elastic), and repairs a mode whose exit event was missed (the motion reversed within one
    /// step).
    fn after_step(&mut self, c: &Contact, s: &mut [f64]) -> bool {
        let before = [s[0], s[1], s[2]];
        let mode = self.mode;
        let (lo, hi) = self.params.mu_bounds();
        s[1] = s[1].clamp(lo, hi);
        s[2] = s[2].clamp(0.0, 1.0);
        let st = self.read(s);
        let loading = self.loading(c, s);
        // Elastic but outside the static surface happens only after a parameter change (μ
        // clamped to a new range); 1e-9 keeps the round-off of r_s := r from counting.
        let next = match self.mode {
            SubloadingMode::Elastic if loading || st.r > st.r_s + 1e-9 => SubloadingMode::Flowing,
            SubloadingMode::Flowing if st.r < st.r_s && !loading => SubloadingMode::Elastic,
            m => m,
        };
        if next == SubloadingMode::Elastic || st.r < st.r_s {
            self.enter(next, s);
        }
        self.mode = next;
        self.mode != mode || before.iter().zip(s.iter()).any(|(a, b)| a != b)
    }

    fn has_after_step(&self) -> bool {
        true
    }

    fn steady_force(&self, v_rel_mps: f64, normal_load_n: f64, _load_ratio: f64) -> f64 {
        -sgn(v_rel_mps) * self.params.steady_coefficient(v_rel_mps) * normal_load_n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::laws::subloading::OverstressForm;

    fn law(form: OverstressForm) -> Subloading {
        Subloading::new(SubloadingParams {
            form,
            ..SubloadingParams::default()
        })
    }

    /// On the steady state (`r_s = 1`, `μ = μ_ss`, `τ = sgn(v)·r_ss·μ_ss`) all rates vanish and
    /// the force is `−sgn(v)·r_ss·μ_ss·N` (closed forms, MODELS §2.10).
    #[test]
    fn steady_state_is_a_fixed_point() {
        for form in [OverstressForm::Power, OverstressForm::Exponential] {
            let mut l = law(form);
            let p = l.params.clone();
            let k = p.alpha_t_pa_per_m / p.f_n_pa;
            for v in [-0.1f64, -2e-7, 1e-9, 2e-7, 1e-4, 0.05] {
                let kv = p.kappa_per_m * v.abs();
                let mu = (kv + p.xi_per_s) / (kv / p.mu_k + p.xi_per_s / p.mu_s);
                let x = match form {
                    OverstressForm::Power => (p.eta_s_per_m * v.abs()).powf(1.0 / p.n),
                    OverstressForm::Exponential => (p.eta_s_per_m * v.abs()).ln_1p() / p.n,
                };
                let r = (1.0 + p.r_m * x) / (1.0 + x);
                let c = Contact::kinematic(0.0, v, 2.0);
                let mut s = [sgn(v) * r * mu, mu, 0.0];
                l.initialize(&c, &mut s);
                assert_eq!(l.mode(), SubloadingMode::Flowing);
                let mut ds = [0.0; 3];
                let f = l.eval(&c, &s, &mut ds);
                // Round-off in r − 1 ≈ X·(r_m − 1) costs ~ε/X relative in λ.
                let tol = 1e-13 * k * v.abs() * p.n * (1.0 + 1.0 / x);
                assert!(ds[0].abs() < tol, "{form:?} v={v}: τ̇ = {}", ds[0]);
                assert!(
                    ds[1].abs() < 1e-10 * (kv + p.xi_per_s),
                    "{form:?} v={v}: μ̇ = {}",
                    ds[1]
                );
                assert_eq!(ds[2], 0.0);
                let expected = -sgn(v) * r * mu * 2.0;
                assert!((f - expected).abs() < 1e-12 * expected.abs());
                assert!((l.steady_force(v, 2.0, 1.0) - expected).abs() < 1e-12 * expected.abs());
            }
        }
    }

    /// The start picks the mode: inside the static surface and unloading → elastic with
    /// `r_s := r`; loading from there → flowing with `r_s := r`; above `r_s` → flowing.
    #[test]
    fn initialize_chooses_the_mode() {
        let mut l = law(OverstressForm::Exponential);
        let (tau, mu) = (0.36, 0.45);
        for (v, r_s, mode, r_s_after) in [
            (-1e-6, 0.9, SubloadingMode::Elastic, 0.8),
            (1e-6, 0.9, SubloadingMode::Flowing, 0.8),
            (-1e-6, 0.5, SubloadingMode::Flowing, 0.5),
        ] {
            let mut s = [tau, mu, cos_from_rs(r_s)];
            l.initialize(&Contact::kinematic(0.0, v, 1.0), &mut s);
            assert_eq!(l.mode(), mode, "v = {v}, r_s = {r_s}");
            assert!((rs_from_cos(s[2]) - r_s_after).abs() < 1e-9);
        }
    }

    /// A live parameter change (`resume`) inside the static surface keeps the quasi-static
    /// ratio `r_s` the contact had reached; choosing the mode afresh (`initialize`) projects it
    /// down onto `r` and forgets how far the contact had been loaded.
    #[test]
    fn resume_keeps_the_static_ratio_inside_the_surface() {
        let mut l = law(OverstressForm::Exponential);
        let unloading = Contact::kinematic(0.0, -1e-6, 1.0);
        let (tau, mu, r_s) = (0.36, 0.45, 0.9);
        let mut s = [tau, mu, cos_from_rs(r_s)];
        l.initialize(&unloading, &mut s.clone());
        assert_eq!(l.mode(), SubloadingMode::Elastic);
        let mut afresh = l.clone();
        let mut s_afresh = s;
        afresh.initialize(&unloading, &mut s_afresh);
        assert!(
            (rs_from_cos(s_afresh[2]) - 0.8).abs() < 1e-9,
            "what a restart did"
        );
        assert_eq!(l.resume(&unloading, &mut s), LawSwitch::Continue);
        assert_eq!(l.mode(), SubloadingMode::Elastic);
        assert_eq!(s[2], cos_from_rs(r_s), "r_s kept");
    }

    /// Elastic: nothing flows, `τ̇ = (α_t/f_n)·v`, `μ` only recovers, `μ̇ = ξ(1 − μ/μ_s)`; the
    /// force is `−τN`; `c_s = cos(π·r/2)` follows `r`: `ċ_s = −(π/2)·sin(π·r/2)·ṙ`,
    /// `ṙ = sgn(τ)·τ̇/μ − |τ|·μ̇/μ²`. Flowing below `r_s` gives the same `τ̇`, `μ̇` and `ċ_s = 0`.
    #[test]
    fn inside_the_static_surface_the_contact_is_elastic() {
        let mut l = law(OverstressForm::Exponential);
        let p = l.params.clone();
        let (tau, mu, r_s) = (-0.4, 0.45, 0.9);
        let c = Contact::kinematic(0.0, 3e-3, 2.0);
        let s = [tau, mu, cos_from_rs(r_s)];
        let mut flowing = l.clone();
        let mut s_up = [0.5, mu, cos_from_rs(0.2)];
        flowing.initialize(&c, &mut s_up);
        assert_eq!(flowing.mode(), SubloadingMode::Flowing);
        l.initialize(&c, &mut s.clone());
        let tau_dot = p.alpha_t_pa_per_m / p.f_n_pa * 3e-3;
        let mu_dot = p.xi_per_s * (1.0 - mu / p.mu_s);
        let r = tau.abs() / mu;
        let r_dot = -tau_dot / mu - tau.abs() * mu_dot / (mu * mu);
        let half_pi = std::f64::consts::FRAC_PI_2;
        let cs_dot_elastic = -half_pi * (half_pi * r).sin() * r_dot;
        assert!(
            cs_dot_elastic > 0.0,
            "r falls, so c_s grows: {cs_dot_elastic}"
        );
        for (law, cs_dot) in [(&l, cs_dot_elastic), (&flowing, 0.0)] {
            let mut ds = [0.0; 3];
            let f = law.eval(&c, &s, &mut ds);
            assert_eq!(ds[0], tau_dot);
            assert_eq!(ds[1], mu_dot);
            assert!(
                (ds[2] - cs_dot).abs() <= 1e-15 * cs_dot.abs(),
                "{} {cs_dot}",
                ds[2]
            );
            assert_eq!(f, 0.8);
        }
    }

    /// Events: flowing watches `r − r_s`, elastic watches `−ṙ`; switching sets `r_s := r`.
    #[test]
    fn events_switch_modes_with_rs_on_r() {
        let mut l = law(OverstressForm::Power);
        let p = l.params.clone();
        let unloading = Contact::kinematic(0.0, -1e-6, 1.0);
        let mut s = [0.5, 0.4, cos_from_rs(0.9)];
        l.initialize(&unloading, &mut s);
        assert_eq!(l.mode(), SubloadingMode::Flowing);
        let mut g = [0.0];
        l.events(&unloading, &s, &mut g);
        assert!((g[0] - (0.5 / 0.4 - 0.9)).abs() < 1e-9);
        // While loading the flowing exit is disarmed.
        l.events(&Contact::kinematic(0.0, 1e-6, 1.0), &s, &mut g);
        assert!((g[0] - (1.0 + 0.5 / 0.4 - 0.9)).abs() < 1e-9);
        s[0] = 0.3;
        l.apply_event(0, &unloading, &mut s);
        assert_eq!(l.mode(), SubloadingMode::Elastic);
        assert!((rs_from_cos(s[2]) - 0.75).abs() < 1e-9);
        l.events(&unloading, &s, &mut g);
        let r_dot = -p.alpha_t_pa_per_m / p.f_n_pa * 1e-6 / 0.4
            - 0.3 * p.xi_per_s * (1.0 - 0.4 / p.mu_s) / (0.4 * 0.4);
        assert!((g[0] + r_dot).abs() < 1e-12 * r_dot.abs());
        // μ drifted above μ_s and the motion turned to loading: after_step repairs both.
        s[1] = 0.7;
        let loading = Contact::kinematic(0.0, 1e-6, 1.0);
        assert!(l.after_step(&loading, &mut s));
        assert_eq!(s[1], p.mu_s);
        assert_eq!(l.mode(), SubloadingMode::Flowing);
        assert!((rs_from_cos(s[2]) - 0.3 / p.mu_s).abs() < 1e-9);
    }

    /// A lowered `μ_s` pushes a resting contact outside its static surface: it flows again.
    #[test]
    fn parameter_change_outside_the_surface_resumes_flow() {
        let mut l = law(OverstressForm::Power);
        let rest = Contact::kinematic(0.0, 0.0, 1.0);
        let mut s = [0.5, 0.58, cos_from_rs(0.95)];
        l.initialize(&rest, &mut s);
        assert_eq!(l.mode(), SubloadingMode::Elastic);
        assert!(
            !l.after_step(&rest, &mut s),
            "a rested contact stays elastic"
        );
        l.set_params(SubloadingParams {
            mu_s: 0.45,
            ..l.params.clone()
        });
        assert!(l.after_step(&rest, &mut s));
        assert_eq!(s[1], 0.45);
        assert_eq!(l.mode(), SubloadingMode::Flowing);
        assert!(!l.after_step(&rest, &mut s), "stays put once flowing");
    }

    /// Rates stay finite for every reachable state, including `r_s = 0` and `r` past `r_m`.
    #[test]
    fn rates_are_finite_at_the_edges() {
        for form in [OverstressForm::Power, OverstressForm::Exponential] {
            for s0 in [
                [0.0, 0.58, 1.0],
                [0.3, 0.38, 1.0],
                [-0.9, 0.38, 0.0],
                [40.0, 0.1, 1.2],
                [-40.0, 3.0, -0.2],
            ] {
                let mut l = law(form);
                let c = Contact::kinematic(0.0, 0.1, 1.0);
                let mut s = s0;
                l.initialize(&c, &mut s);
                let mut ds = [0.0; 3];
                let f = l.eval(&c, &s0, &mut ds);
                assert!(
                    f.is_finite() && ds.iter().all(|d| d.is_finite()),
                    "{s0:?}: {ds:?}"
                );
            }
        }
    }
}
