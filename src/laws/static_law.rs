//! Static (memoryless) friction laws `F_f = −N·μ(|v_rel|)·sgn(v_rel) − c_v·v_rel` with a choice of
//! sign treatment: set-valued stick, tanh/arctan smoothing or Karnopp's band (MODELS §2.1–2.4).

use super::set_valued::StickMode;
use super::{Contact, FrictionLaw, LawJacobian, LawSwitch, SignModel, sgn};

/// Cross-parameter check of a Stribeck-type curve: it falls from `μ_S` at rest to `μ_C` in
/// sliding, so `μ_C ≤ μ_S` (equal is Coulomb's law).
pub fn stribeck_order(mu_s: f64, mu_c: f64) -> Option<(String, String)> {
    crate::params::not_above(
        ("mu_c", "μ_C", mu_c),
        ("mu_s", "μ_S", mu_s),
        "this law's curve falls from the static level μ_S at rest to the sliding level μ_C, \
         so μ_C must not exceed μ_S (for friction that rises with speed add the viscous \
         term c_v)",
    )
}

/// Cross-parameter check of a static/kinetic pair: `μ_K ≤ μ_S`. With kinetic friction above
/// static friction the body stops again the instant it breaks away (endless stick/slip
/// switching at one instant).
pub fn kinetic_order(mu_s: f64, mu_k: f64) -> Option<(String, String)> {
    crate::params::not_above(
        ("mu_k", "μ_K", mu_k),
        ("mu_s", "μ_S", mu_s),
        "kinetic friction above static friction would stop the body the instant it breaks \
         away, so μ_K must not exceed μ_S",
    )
}

/// Cross-parameter check of a law with a break-away force `F_S` and a sliding (Coulomb)
/// force `F_C`: `F_C ≤ F_S`.
pub fn break_away_order(f_s: f64, f_c: f64) -> Option<(String, String)> {
    crate::params::not_above(
        ("f_c", "F_C", f_c),
        ("f_s", "F_S", f_s),
        "F_S is the break-away (static) level the friction falls from to the sliding level \
         F_C, so F_C must not exceed F_S",
    )
}

/// A friction coefficient curve `μ(|v|)` with its static threshold.
pub trait MuCurve {
    /// Sliding friction coefficient at speed `|v_rel|` > 0 (−).
    fn mu(&self, speed_mps: f64) -> f64;
    /// Derivative `dμ/d|v|` at speed `|v_rel|` [s/m] (for the analytic Jacobian).
    fn mu_derivative(&self, speed_mps: f64) -> f64;
    /// Static coefficient `μ_S`: the stick threshold is `μ_S·N`.
    fn mu_static(&self) -> f64;
    /// Viscous coefficient `c_v` [N·s/m].
    fn viscous(&self) -> f64;
    /// Sign treatment.
    fn sign_model(&self) -> SignModel;
}

/// A static law built from a coefficient curve.
#[derive(Clone, Debug, PartialEq)]
pub struct StaticLaw<C> {
    /// The law's parameters.
    pub params: C,
    mode: StickMode,
}

impl<C: MuCurve> StaticLaw<C> {
    /// Law with the given parameters, initially sliding forward (the run's start chooses).
    pub fn new(params: C) -> Self {
        Self {
            params,
            mode: StickMode::Slip(1.0),
        }
    }

    /// Replaces the parameters, keeping the current mode.
    pub fn set_params(&mut self, params: C) {
        self.params = params;
    }

    fn f_static(&self, c: &Contact) -> f64 {
        self.params.mu_static() * c.normal_load_n
    }

    /// Current set-valued mode.
    pub fn mode(&self) -> StickMode {
        self.mode
    }
}

impl<C: MuCurve> FrictionLaw for StaticLaw<C> {
    fn has_after_step(&self) -> bool {
        false
    }

    fn initialize(&mut self, c: &Contact, _s: &mut [f64]) -> LawSwitch {
        if self.params.sign_model() != SignModel::SetValued {
            return LawSwitch::Continue;
        }
        let (mode, switch) = StickMode::choose(c, self.f_static(c));
        self.mode = mode;
        switch
    }

    /// A live change: slide with the motion when it no longer matches the mode
    /// ([`StickMode::resumed_slip`]), else keep the mode and fire violated guards.
    fn resume(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        if self.params.sign_model() == SignModel::SetValued
            && let Some(mode) = self.mode.resumed_slip(c)
        {
            self.mode = mode;
            return LawSwitch::Continue;
        }
        super::resume_by_guards(self, c, s)
    }

    #[inline(always)]
    fn eval(&self, c: &Contact, _s: &[f64], _ds: &mut [f64]) -> f64 {
        let p = &self.params;
        let v = c.v_rel_mps;
        let n = c.normal_load_n;
        match p.sign_model() {
            SignModel::SetValued => match self.mode {
                StickMode::Stick => c.f_hold_n,
                StickMode::Slip(dir) => -dir * p.mu(v.abs()) * n - p.viscous() * v,
            },
            sm @ (SignModel::Tanh(_) | SignModel::Arctan(_)) => {
                -p.mu(v.abs()) * n * sm.smooth_sign(v) - p.viscous() * v
            }
            SignModel::Karnopp(dv) => {
                if v.abs() < dv && !c.f_hold_n.is_nan() {
                    let fs = p.mu_static() * n;
                    c.f_hold_n.clamp(-fs, fs)
                } else {
                    -p.mu(v.abs()) * n * sgn(v) - p.viscous() * v
                }
            }
        }
    }

    fn n_events(&self) -> usize {
        usize::from(self.params.sign_model() == SignModel::SetValued)
    }

    fn events(&self, c: &Contact, _s: &[f64], g: &mut [f64]) {
        if let Some(g0) = g.first_mut() {
            *g0 = self.mode.guard(c, self.f_static(c));
        }
    }

    fn apply_event(&mut self, _index: usize, c: &Contact, _s: &mut [f64]) -> LawSwitch {
        let (mode, switch) = self.mode.after_event(c, self.f_static(c));
        self.mode = mode;
        switch
    }

    fn stuck(&self) -> Option<bool> {
        (self.params.sign_model() == SignModel::SetValued).then(|| self.mode.is_stick())
    }

    /// Karnopp's band decides: stuck while `|v_rel| < D_v` and the holding force stays within
    /// `μ_S·N` (beyond it the force saturates and the body accelerates out of the band).
    fn stuck_at(&self, c: &Contact) -> Option<bool> {
        match self.params.sign_model() {
            SignModel::Karnopp(dv) => Some(
                c.v_rel_mps.abs() < dv
                    && !c.f_hold_n.is_nan()
                    && c.f_hold_n.abs() <= self.f_static(c),
            ),
            _ => self.stuck(),
        }
    }

    fn jacobian(&self, c: &Contact, _s: &[f64], j: &mut LawJacobian<'_>) -> bool {
        let p = &self.params;
        let v = c.v_rel_mps;
        let n = c.normal_load_n;
        let (df_dv, df_dhold) = match p.sign_model() {
            SignModel::SetValued => match self.mode {
                StickMode::Stick => (0.0, 1.0),
                StickMode::Slip(dir) => {
                    let sign = if v == 0.0 { dir } else { sgn(v) };
                    (
                        -dir * p.mu_derivative(v.abs()) * sign * n - p.viscous(),
                        0.0,
                    )
                }
            },
            sm @ (SignModel::Tanh(ve) | SignModel::Arctan(ve)) => {
                let sigma = sm.smooth_sign(v);
                let x = v / ve;
                let dsigma = match sm {
                    SignModel::Tanh(_) => (1.0 - sigma * sigma) / ve,
                    _ => std::f64::consts::FRAC_2_PI / (ve * (1.0 + x * x)),
                };
                let dmu = p.mu_derivative(v.abs()) * sgn(v);
                (
                    -n * (dmu * sigma + p.mu(v.abs()) * dsigma) - p.viscous(),
                    0.0,
                )
            }
            SignModel::Karnopp(_) => return false,
        };
        if !df_dv.is_finite() {
            return false;
        }
        j.df_dv = df_dv;
        j.df_dhold = df_dhold;
        true
    }

    fn steady_force(&self, v_rel_mps: f64, normal_load_n: f64, _load_ratio: f64) -> f64 {
        let p = &self.params;
        let v = v_rel_mps;
        let sign = match p.sign_model() {
            sm @ (SignModel::Tanh(_) | SignModel::Arctan(_)) => sm.smooth_sign(v),
            _ => sgn(v),
        };
        -p.mu(v.abs()) * normal_load_n * sign - p.viscous() * v
    }

    fn is_stiff(&self) -> bool {
        matches!(
            self.params.sign_model(),
            SignModel::Tanh(_) | SignModel::Arctan(_)
        )
    }
}
