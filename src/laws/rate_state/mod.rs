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
//! speed: the stick mode below takes over there. It differs from the classic form by less than `e^(−2Ψ/a)/4` relative (1e-52 at μ₀ = 0.6,
//! a = 0.01). The classic form is offered for comparison with rock-mechanics codes; below the
//! speed where it reaches μ = 0 it is clamped at 0 (it would push the body along its motion) and
//! it is 0 at `v_rel = 0`.
//!
//! **Stick below a sticking speed (decided).** With the sticking speed `v_s > 0` (default
//! 1 pm/s) the law has a set-valued stick mode, like the static laws (MODELS §2.2): a contact
//! at `v_rel = 0` stays stuck while the holding force is within its static level
//! `F_S = N·μ(v_s, θ)` — the law's own friction at the sticking speed, which grows with the
//! state while stuck (aging: `θ̇ = 1`, so `F_S` rises by `N·b` per e-fold of hold time; slip
//! law: no healing without slip) — and breaks away when `|F_hold|` reaches it. In slip, μ and
//! the state rates see the effective speed `v_e = (σ + √(σ² + 4v_s²))/2`, `σ = d·v_rel` in
//! the direction `d` of the slip: `v_e` is the slip speed to a relative `(v_s/v)²` (1e-12 at
//! 1 µm/s), `v_s` at rest — so break-away is continuous — and smooth through `v_rel = 0`, so a
//! step never straddles a kink. Why: near rest the regularised law's slope `∂F/∂v ≈ N·a·e^(Ψ/a)/(2v₀)`
//! is about 1e26 N·s/m and the creep speeds it implies (1e-26 m/s) cannot be represented in a
//! block's absolute velocity on a moving belt (its resolution is ~1e-19 m/s at 1 mm/s): the
//! block glues or the step size collapses. What stick leaves out is creep below `v_s`: a slip
//! of at most `v_s·t` and a state error `v_s·θ/D_c` relative (1e-7·θ/s with the defaults),
//! negligible against `D_c` for holds up to days. `v_s = 0` gives the pure law (no stick
//! mode), for prescribed-motion rigs and comparison with rock-mechanics codes.
//!
//! **Initial state.** `θ₀` for the first variable; the second starts at the same relative age,
//! `θ₂(0) = θ₀·D_c2/D_c` (both at steady state for the speed `D_c/θ₀`).
//!
//! **Stiffness.** Near stick the friction slope `∂F/∂v ≈ −N·a/|v|` is steep: the default
//! integrator is the L-stable Rodas4 with the analytic Jacobian below.

use serde::{Deserialize, Serialize};

use super::set_valued::StickMode;
use super::{Contact, FrictionLaw, LawJacobian, LawSwitch, sgn};
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

impl ExtraField for Evolution {
    fn choices() -> &'static [&'static str] {
        &["Aging", "Slip"]
    }
}

/// Which expression of μ is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RateStateForm {
    /// `μ = a·asinh[(v/2v₀)·exp(Ψ/a)]`, defined at `v = 0`.
    #[default]
    Regularized,
    /// `μ = Ψ + a·ln(|v|/v₀)`, clamped at 0, undefined (0) at `v = 0`.
    Classic,
}

impl ExtraField for RateStateForm {
    fn choices() -> &'static [&'static str] {
        &["Regularized", "Classic"]
    }
}

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
        /// Speed below which a contact at rest stays stuck (0: no stick mode, the pure law).
        v_stick_mps: "v_stick" = 1e-12, "Sticking speed", "v_s", "m/s", [0.0, 1e-3], Log;
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

    /// Whether the law has its set-valued stick mode (`v_s > 0`).
    pub fn sticks(&self) -> bool {
        self.v_stick_mps > 0.0
    }

    /// The static level `F_S = N·μ(v_s, Ψ)` of a stuck contact at load `N` and `Ψ`.
    fn static_force_n(&self, normal_load_n: f64, psi: f64) -> f64 {
        normal_load_n * self.mu_of(self.v_stick_mps, psi)
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

/// The effective speed `(σ + √(σ² + 4v_s²))/2` of a slip speed `σ ≥ 0` ([`RateState`]'s stick
/// mode; `σ` itself when `v_s = 0`).
fn effective_speed(sigma: f64, v_stick_mps: f64) -> f64 {
    0.5 * (sigma + sigma.hypot(2.0 * v_stick_mps))
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

/// The speed a slipping contact's law sees ([`RateState::seen_speed`]).
#[derive(Clone, Copy, Debug)]
struct SeenSpeed {
    /// Speed `v_e ≥ 0` at which μ and the state rates are evaluated [m/s].
    speed: f64,
    /// `∂v_e/∂v_rel`.
    slope: f64,
    /// Direction of the force (`F = −N·μ·sign`).
    sign: f64,
}

/// Rate-and-state law.
#[derive(Clone, Debug, PartialEq)]
pub struct RateState {
    /// Parameters.
    pub params: RateStateParams,
    /// Set-valued mode (used when the sticking speed is positive).
    mode: StickMode,
}

impl RateState {
    /// Law with the given parameters (the mode is chosen when a run starts).
    pub fn new(params: RateStateParams) -> Self {
        Self {
            params,
            mode: StickMode::Slip(1.0),
        }
    }

    /// Current set-valued mode.
    pub fn mode(&self) -> StickMode {
        self.mode
    }

    /// The static level `F_S = N·μ(v_s, θ)` of the contact at its current state [N].
    pub fn static_force_n(&self, c: &Contact, s: &[f64]) -> f64 {
        self.params.static_force_n(c.normal_load_n, self.psi(s))
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

    /// The speed the law sees in slip at `v_rel`, its derivative and the direction of the
    /// force: without a stick mode `|v_rel|` and `sgn v_rel`; in the slip mode of direction `d`
    /// the effective speed `v_e = (σ + √(σ² + 4v_s²))/2` of `σ = d·v_rel` — the slip speed to a
    /// relative `(v_s/v)²` above `v_s`, `v_s` at rest, smooth and positive through `v_rel = 0`.
    fn seen_speed(&self, v_rel_mps: f64) -> SeenSpeed {
        let p = &self.params;
        match (p.sticks(), self.mode) {
            (true, StickMode::Slip(dir)) => {
                let sigma = dir * v_rel_mps;
                let two_vs = 2.0 * p.v_stick_mps;
                let root = sigma.hypot(two_vs);
                // (σ + r)/2 without cancellation for σ < 0: 2v_s²/(r − σ).
                let speed = if sigma >= 0.0 {
                    0.5 * (sigma + root)
                } else {
                    0.5 * two_vs * two_vs / (root - sigma)
                };
                SeenSpeed {
                    speed,
                    slope: dir * speed / root,
                    sign: dir,
                }
            }
            _ => SeenSpeed {
                speed: v_rel_mps.abs(),
                slope: sgn(v_rel_mps),
                sign: sgn(v_rel_mps),
            },
        }
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

    fn initialize(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        if !self.params.sticks() {
            return LawSwitch::Continue;
        }
        let (mode, switch) = StickMode::choose(c, self.static_force_n(c, s));
        self.mode = mode;
        switch
    }

    /// A live change: slide with the motion when it no longer matches the mode, else keep the
    /// mode (and the state) and fire violated guards (a lowered static level breaks away).
    fn resume(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        if self.params.sticks()
            && let Some(mode) = self.mode.resumed_slip(c)
        {
            self.mode = mode;
            return LawSwitch::Continue;
        }
        super::resume_by_guards(self, c, s)
    }

    #[inline]
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64 {
        let p = &self.params;
        if p.sticks() && self.mode.is_stick() {
            // Held at v_rel = 0: the state heals (aging) or stays (slip law).
            for (i, d) in ds.iter_mut().enumerate() {
                *d = self.phi_rate(i, 0.0, s[i]);
            }
            return c.f_hold_n;
        }
        let v = c.v_rel_mps;
        let seen = self.seen_speed(v);
        for (i, d) in ds.iter_mut().enumerate() {
            *d = self.phi_rate(i, seen.speed, s[i]);
        }
        let mu = p.mu_of(seen.speed, self.psi(s));
        -c.normal_load_n * mu * seen.sign - p.eta_r_ns_per_m * v
    }

    fn n_events(&self) -> usize {
        usize::from(self.params.sticks())
    }

    fn events(&self, c: &Contact, s: &[f64], g: &mut [f64]) {
        if let Some(g0) = g.first_mut() {
            *g0 = self.mode.guard(c, self.static_force_n(c, s));
        }
    }

    fn apply_event(&mut self, _index: usize, c: &Contact, s: &mut [f64]) -> LawSwitch {
        let (mode, switch) = self.mode.after_event(c, self.static_force_n(c, s));
        self.mode = mode;
        switch
    }

    /// Stuck in the stick mode; while slipping the system decides from its velocity
    /// threshold (MODELS §4.8), so the slow creep between fast slips — the "stick" phase of
    /// rate-and-state stick–slip, where the speed falls by decades without reaching zero —
    /// counts as stick as it does for the other laws without an exact stick.
    fn stuck(&self) -> Option<bool> {
        (self.params.sticks() && self.mode.is_stick()).then_some(true)
    }

    fn jacobian(&self, c: &Contact, s: &[f64], j: &mut LawJacobian<'_>) -> bool {
        let p = &self.params;
        let n = self.n_states();
        if p.sticks() && self.mode.is_stick() {
            // F = F_hold; the rates do not depend on v (held at 0).
            j.df_dhold = 1.0;
            for i in 0..n {
                let (v0_over_dc, _) = p.rates(i);
                j.dds_ds[i * n + i] = match p.evolution {
                    Evolution::Aging => -v0_over_dc * (-s[i]).exp(),
                    Evolution::Slip => 0.0,
                };
            }
            return true;
        }
        let seen = self.seen_speed(c.v_rel_mps);
        let speed = seen.speed;
        if speed == 0.0 && p.evolution == Evolution::Slip {
            // ∂φ̇/∂v ∝ ln v is unbounded at rest.
            return false;
        }
        let load = c.normal_load_n;
        let psi = self.psi(s);
        // ∂μ/∂v_e and ∂μ/∂Ψ; F = −N·μ(v_e)·sign ⇒ ∂F/∂v = −N·sign·∂μ/∂v_e·∂v_e/∂v.
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
        j.df_dv = -load * seen.sign * dmu_dspeed * seen.slope - p.eta_r_ns_per_m;
        j.df_dhold = 0.0;
        for i in 0..n {
            j.df_ds[i] = -load * seen.sign * dmu_dpsi * p.weight(i);
            let (v0_over_dc, inv_dc) = p.rates(i);
            let (dv, dphi) = match p.evolution {
                Evolution::Aging => (-inv_dc * seen.slope, -v0_over_dc * (-s[i]).exp()),
                Evolution::Slip => (
                    -inv_dc * (s[i] + (speed / p.v0_mps).ln() + 1.0) * seen.slope,
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

    /// The state rates depend on `|v_rel|`; with the stick mode its events already stop every
    /// step at `v_rel = 0`.
    fn kinks_at_reversal(&self) -> bool {
        !self.params.sticks()
    }

    /// `φ_i = ln(v₀/v_e)` (θ_i = D_c,i/v_e) at the effective speed of `|v_rel|` (the speed
    /// itself without a stick mode); unchanged at rest without a stick mode.
    fn steady_states(&self, v_rel_mps: f64, _normal_load_n: f64, s: &mut [f64]) {
        let p = &self.params;
        let speed = effective_speed(v_rel_mps.abs(), p.v_stick_mps);
        if speed > 0.0 {
            s.fill((p.v0_mps / speed).ln());
        }
    }

    /// `−N·μ_ss(v_e)·sgn v − η_r·v` at the effective speed of `|v_rel|` (the speed itself
    /// without a stick mode; 0 at rest).
    fn steady_force(&self, v_rel_mps: f64, normal_load_n: f64, _load_ratio: f64) -> f64 {
        let speed = v_rel_mps.abs();
        if speed == 0.0 {
            return 0.0;
        }
        let p = &self.params;
        -normal_load_n * p.mu_steady(effective_speed(speed, p.v_stick_mps)) * sgn(v_rel_mps)
            - p.eta_r_ns_per_m * v_rel_mps
    }
}

#[cfg(test)]
mod tests;
