//! Friction irreversibility (MODELS §2.5): the engine shared by the Powell–Wiercigroch and
//! Stefański–Wojewoda laws, which differ only in the decay `G` (see [`IrreversibleLaw`]).

use super::set_valued::StickMode;
use super::{Contact, FrictionLaw, LawSwitch, sgn};
use crate::integrate::Column;

/// The parameters of an irreversibility law: coefficients, decay `G`, viscous term, filter.
pub trait IrreversibleCurve {
    /// Static coefficient `μ_S` (stick threshold `μ_S·N`, upper branch at `v = 0`).
    fn mu_static(&self) -> f64;
    /// Coulomb coefficient `μ_C` (midline of the branches).
    fn mu_coulomb(&self) -> f64;
    /// Decay `G(|v|, |v̇|) ∈ [0, 1]` with `G(0, ·) = 1` (the magnitude of `g`).
    fn decay(&self, speed_mps: f64, accel_mps2: f64) -> f64;
    /// Viscous coefficient `c_v` [N·s/m].
    fn viscous(&self) -> f64;
    /// Time constant τ_a of the acceleration filter [s].
    fn tau_a(&self) -> f64;
}

/// Which branch of the irreversible law acts during slip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// `|v_rel|` grows: `μ = μ_C + (μ_S − μ_C)·G`.
    Upper,
    /// `|v_rel|` falls: `μ = max(0, μ_C − (μ_S − μ_C)·G)`.
    Lower,
    /// `v̇_rel = 0` held between the branches (Filippov sliding on `a_f = 0`).
    Hold,
}

/// A friction-irreversibility law (MODELS §2.5; S1 eqs 5, 11, 14), built from its curve `C`.
/// ```text
/// F_f = −N·μ·sgn(v_rel) − c_v·v_rel,      μ = μ_C + (μ_S − μ_C)·G(|v_rel|, |v̇_rel|)·sgn(v_rel·v̇_rel)
/// upper branch (|v_rel| grows):  μ = μ_C + (μ_S − μ_C)·G
/// lower branch (|v_rel| falls):  μ = max(0, μ_C − (μ_S − μ_C)·G)
/// stick (v_rel = 0):             |F_f| ≤ μ_S·N              (set-valued, as MODELS §2.2)
/// τ_a·v̇_f = v_rel − v_f,   a_f = (v_rel − v_f)/τ_a ≈ v̇_rel
/// ```
/// `G(0, ·) = 1`, so the upper branch starts at `μ_S` at break-away and the lower one ends at
/// `2μ_C − μ_S` (or 0) at re-stick.
///
/// Numerics (all [PROPOSED]; MODELS leaves the algebraic loop `F(v̇)`, `v̇(F)` open):
/// * **Filtered acceleration.** `v̇_rel` is replaced by `a_f`, the relative velocity through the
///   first-order high-pass `τ_a·v̇_f = v_rel − v_f` (equivalently `a_f` is `v̇_rel` through a
///   low-pass of time constant τ_a). It needs no mass and no last-step value, works the same in
///   mechanical systems and prescribed-motion rigs, and lags `v̇_rel` by `atan(ωτ_a)/ω ≈ τ_a`.
///   For the Stefański law the loop `F(|a_f|)` is contractive (∂F/∂|v̇| opposes the
///   acceleration), so the filtered system converges to the algebraic one as τ_a → 0.
/// * **Branch as a discrete mode.** `sgn(v_rel·a_f)` is a mode (upper/lower) switched by an
///   event at `a_f = 0`, so the jump of the force is located on the solution (~1e-12 s) instead
///   of being smeared over a step. At the switch `v_f` is set to `v_rel` (`a_f = 0` exactly, a
///   shift of at most the event tolerance).
/// * **Velocity plateau (Filippov sliding on `a_f = 0`).** In a mechanical system the branch
///   switch can be inconsistent both ways: at an extremum of `|v_rel|` the upper branch
///   decelerates the body while the lower one (less friction) accelerates it again. The
///   filtered system then slides on `a_f = 0`, i.e. `v̇_rel = 0` with the friction force equal to
///   the holding force `F_req` ([`Contact::f_hold_n`]), as long as `F_req` lies between the two
///   branch forces. This hold mode is left by an event when `F_req` reaches either branch; the
///   branch on that side is taken. Without it the branch would chatter at the event tolerance
///   (Zeno). At every switch in a mechanical system the new branch is chosen from `F_req`
///   (upper if it alone is consistent, lower likewise, else hold); in prescribed-motion rigs
///   (`F_req` undefined) the branch simply flips, as the imposed motion decides.
/// * **Stick.** Set-valued at `μ_S·N` with the exact event logic of [`StickMode`]; the filter
///   is reset (`v_f = v_rel`, `a_f = 0`) when a stick begins or ends, since the contact has no
///   acceleration history at rest. A zero crossing with `F_req` undefined (prescribed motion)
///   passes straight into the opposite slip.
/// * **Characteristic curve.** At constant velocity `sgn(v·v̇) = sgn 0 = 0`, so
///   [`FrictionLaw::steady_force`] is the midline `−μ_C·N·sgn v − c_v·v`; the branches lie
///   `±(μ_S − μ_C)·G·N` about it.
///
/// State `[v_f]`.
#[derive(Clone, Debug, PartialEq)]
pub struct IrreversibleLaw<C> {
    /// Parameters.
    pub params: C,
    stick: StickMode,
    branch: Branch,
}

impl<C: IrreversibleCurve> IrreversibleLaw<C> {
    /// Law with the given parameters, initially sliding forward (the run's start chooses).
    pub fn new(params: C) -> Self {
        Self {
            params,
            stick: StickMode::Slip(1.0),
            branch: Branch::Upper,
        }
    }

    /// Replaces the parameters, keeping the current mode.
    pub fn set_params(&mut self, params: C) {
        self.params = params;
    }

    /// Current stick/slip mode.
    pub fn stick_mode(&self) -> StickMode {
        self.stick
    }

    /// Current branch (meaningful in slip).
    pub fn branch(&self) -> Branch {
        self.branch
    }

    /// Filtered relative acceleration `a_f = (v_rel − v_f)/τ_a` [m/s²].
    pub fn filtered_acceleration(&self, v_rel_mps: f64, s: &[f64]) -> f64 {
        (v_rel_mps - s[0]) / self.params.tau_a()
    }

    /// Friction coefficient of a branch at speed `|v|` and acceleration magnitude `|a|`.
    /// `Hold` has no coefficient of its own; it returns the midline `μ_C`.
    pub fn mu(&self, branch: Branch, speed_mps: f64, accel_mps2: f64) -> f64 {
        let p = &self.params;
        let gap = (p.mu_static() - p.mu_coulomb()) * p.decay(speed_mps, accel_mps2);
        match branch {
            Branch::Upper => p.mu_coulomb() + gap,
            Branch::Lower => (p.mu_coulomb() - gap).max(0.0),
            Branch::Hold => p.mu_coulomb(),
        }
    }

    fn f_static(&self, c: &Contact) -> f64 {
        self.params.mu_static() * c.normal_load_n
    }

    /// Resisting force magnitudes `(M_upper, M_lower)` at `a = 0`, including `c_v·|v|`.
    fn bracket(&self, c: &Contact) -> (f64, f64) {
        let speed = c.v_rel_mps.abs();
        let n = c.normal_load_n;
        let visc = self.params.viscous() * speed;
        (
            self.mu(Branch::Upper, speed, 0.0) * n + visc,
            self.mu(Branch::Lower, speed, 0.0) * n + visc,
        )
    }

    /// Branch consistent with the holding force when sliding in `dir` at `a_f = 0`:
    /// `dir·v̇_rel ∝ h − M` with `h = −dir·F_req`, so the upper branch holds if `h > M_upper`,
    /// the lower if `h < M_lower`, the plateau in between. `None` without mechanics.
    fn consistent_branch(&self, c: &Contact, dir: f64) -> Option<Branch> {
        if c.f_hold_n.is_nan() {
            return None;
        }
        let h = -dir * c.f_hold_n;
        let (m_up, m_low) = self.bracket(c);
        Some(if h > m_up {
            Branch::Upper
        } else if h < m_low {
            Branch::Lower
        } else {
            Branch::Hold
        })
    }
}

impl<C: IrreversibleCurve> FrictionLaw for IrreversibleLaw<C> {
    fn has_after_step(&self) -> bool {
        false
    }

    fn n_states(&self) -> usize {
        1
    }

    fn state_columns(&self) -> Vec<Column> {
        vec![Column::new("v_f", "m/s")]
    }

    fn state_scales(&self, out: &mut [f64]) {
        out[0] = 0.01;
    }

    fn initialize(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        // No acceleration history at the start.
        s[0] = c.v_rel_mps;
        self.branch = Branch::Upper;
        if c.f_hold_n.is_nan() && c.v_rel_mps == 0.0 {
            // Prescribed motion from rest: the motion decides the direction at the first event.
            self.stick = StickMode::Slip(1.0);
            return LawSwitch::Continue;
        }
        let (mode, switch) = StickMode::choose(c, self.f_static(c));
        self.stick = mode;
        switch
    }

    /// A live change: slide with the motion when it no longer matches the mode (the
    /// acceleration filter restarts, as at a break-away), else keep mode, branch and filter and
    /// fire violated guards.
    fn resume(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        if let Some(mode) = self.stick.resumed_slip(c) {
            self.stick = mode;
            self.branch = Branch::Upper;
            s[0] = c.v_rel_mps;
            return LawSwitch::Continue;
        }
        super::resume_by_guards(self, c, s)
    }

    #[inline]
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64 {
        let p = &self.params;
        let v = c.v_rel_mps;
        let a = self.filtered_acceleration(v, s);
        ds[0] = a;
        match (self.stick, self.branch) {
            (StickMode::Stick, _) | (StickMode::Slip(_), Branch::Hold) => c.f_hold_n,
            (StickMode::Slip(dir), b) => {
                -dir * self.mu(b, v.abs(), a.abs()) * c.normal_load_n - p.viscous() * v
            }
        }
    }

    fn n_events(&self) -> usize {
        2
    }

    fn events(&self, c: &Contact, s: &[f64], g: &mut [f64]) {
        g[0] = self.stick.guard(c, self.f_static(c));
        g[1] = match self.stick {
            StickMode::Stick => 1.0,
            StickMode::Slip(dir) => {
                let a = self.filtered_acceleration(c.v_rel_mps, s);
                match self.branch {
                    Branch::Upper => dir * a,
                    Branch::Lower => -dir * a,
                    Branch::Hold => {
                        let h = -dir * c.f_hold_n;
                        let (m_up, m_low) = self.bracket(c);
                        (h - m_low).min(m_up - h)
                    }
                }
            }
        };
    }

    fn apply_event(&mut self, index: usize, c: &Contact, s: &mut [f64]) -> LawSwitch {
        let v = c.v_rel_mps;
        if index == 0 {
            return match self.stick {
                StickMode::Slip(dir) if c.f_hold_n.is_nan() => {
                    // Imposed motion through zero velocity: slide on the other way, |v| grows.
                    self.stick = StickMode::Slip(-dir);
                    self.branch = Branch::Upper;
                    if -dir * self.filtered_acceleration(v, s) < 0.0 {
                        s[0] = v;
                    }
                    LawSwitch::Continue
                }
                mode => {
                    let (next, switch) = mode.after_event(c, self.f_static(c));
                    self.stick = next;
                    self.branch = Branch::Upper;
                    match next {
                        // Stick begins or a slip starts from rest: no acceleration history.
                        StickMode::Stick => s[0] = 0.0,
                        StickMode::Slip(_) if mode.is_stick() => s[0] = v,
                        // Reversal through v = 0: keep the filter if it agrees with the new
                        // direction (|v| grows), else restart it at a_f = 0.
                        StickMode::Slip(d) => {
                            if d * self.filtered_acceleration(v, s) < 0.0 {
                                s[0] = v;
                            }
                        }
                    }
                    switch
                }
            };
        }
        let StickMode::Slip(dir) = self.stick else {
            return LawSwitch::Continue;
        };
        s[0] = v;
        self.branch = match (self.branch, self.consistent_branch(c, dir)) {
            // Leaving the plateau: take the branch whose force the holding force reached.
            (Branch::Hold, _) => {
                let h = -dir * c.f_hold_n;
                let (m_up, m_low) = self.bracket(c);
                if m_up - h < h - m_low {
                    Branch::Upper
                } else {
                    Branch::Lower
                }
            }
            (_, Some(b)) => b,
            (Branch::Upper, None) => Branch::Lower,
            (Branch::Lower, None) => Branch::Upper,
        };
        LawSwitch::Continue
    }

    fn stuck(&self) -> Option<bool> {
        Some(self.stick.is_stick())
    }

    fn steady_force(&self, v_rel_mps: f64, normal_load_n: f64, _load_ratio: f64) -> f64 {
        let p = &self.params;
        -p.mu_coulomb() * normal_load_n * sgn(v_rel_mps) - p.viscous() * v_rel_mps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::laws::powell_wiercigroch::PowellWiercigrochParams;
    use crate::laws::stefanski::StefanskiParams;

    fn pw() -> IrreversibleLaw<PowellWiercigrochParams> {
        IrreversibleLaw::new(PowellWiercigrochParams::default())
    }

    /// S1 eq 11 with μ_S = 0.4, μ_C = 0.3, α = 10 s/m: at 0.1 m/s the branches are
    /// 0.3 ± 0.1·e^(−1); at rest 0.4 and 0.2 = 2μ_C − μ_S.
    #[test]
    fn powell_wiercigroch_branches() {
        let law = pw();
        let e = (-1.0f64).exp();
        assert!((law.mu(Branch::Upper, 0.1, 0.0) - (0.3 + 0.1 * e)).abs() < 1e-15);
        assert!((law.mu(Branch::Lower, 0.1, 0.0) - (0.3 - 0.1 * e)).abs() < 1e-15);
        assert!((law.mu(Branch::Upper, 0.0, 5.0) - 0.4).abs() < 1e-15);
        assert!((law.mu(Branch::Lower, 0.0, 5.0) - 0.2).abs() < 1e-15);
    }

    /// S1 eq 14 with a₁ = 10 1/s, a₂ = 1 m/s²: at 0.1 m/s and |v̇| = 1 m/s² the gap factor is
    /// e^(−0.5); at |v̇| = 0 it is e^(−1).
    #[test]
    fn stefanski_decay_depends_on_acceleration() {
        let law = IrreversibleLaw::new(StefanskiParams::default());
        let upper = |a: f64| law.mu(Branch::Upper, 0.1, a);
        assert!((upper(1.0) - (0.3 + 0.1 * (-0.5f64).exp())).abs() < 1e-15);
        assert!((upper(0.0) - (0.3 + 0.1 * (-1.0f64).exp())).abs() < 1e-15);
    }

    /// μ_S = 0.5 > 2μ_C = 0.4: the lower branch would reach −0.1 at rest; it is clamped at 0.
    #[test]
    fn lower_branch_is_clamped_at_zero() {
        let law = IrreversibleLaw::new(PowellWiercigrochParams {
            mu_s: 0.5,
            mu_c: 0.2,
            ..PowellWiercigrochParams::default()
        });
        assert_eq!(law.mu(Branch::Lower, 0.0, 0.0), 0.0);
        // Zero crossing of μ_C − (μ_S − μ_C)e^(−αv) at v = ln(1.5)/α.
        let v_star = 1.5f64.ln() / 10.0;
        assert_eq!(law.mu(Branch::Lower, 0.999 * v_star, 0.0), 0.0);
        assert!(law.mu(Branch::Lower, 1.001 * v_star, 0.0) > 0.0);
    }

    /// With mechanics, the branch after `a_f = 0` is chosen from the holding force. Sliding
    /// forward at 0.05 m/s on N = 10 N: the resisting forces at `a = 0` are
    /// `10·(0.3 ± 0.1·e^(−0.5))` = 3.6065 / 2.3935 N; a holding force inside keeps `v` constant.
    #[test]
    fn branch_switch_follows_the_holding_force() {
        let e = (-0.5f64).exp();
        let (m_up, m_low) = (10.0 * (0.3 + 0.1 * e), 10.0 * (0.3 - 0.1 * e));
        let contact = |f_hold: f64| Contact {
            t_s: 0.0,
            v_rel_mps: 0.05,
            normal_load_n: 10.0,
            load_ratio: 1.0,
            f_hold_n: f_hold,
        };
        for (h, expected) in [
            (4.0, Branch::Upper),
            (3.0, Branch::Hold),
            (2.0, Branch::Lower),
        ] {
            let mut law = pw();
            let mut s = [0.05];
            assert_eq!(law.initialize(&contact(-h), &mut s), LawSwitch::Continue);
            assert_eq!(law.branch(), Branch::Upper);
            s[0] = 0.0501; // a_f = −0.1 m/s²: the upper guard is negative
            let mut g = [0.0; 2];
            law.events(&contact(-h), &s, &mut g);
            assert!(g[1] < 0.0);
            law.apply_event(1, &contact(-h), &mut s);
            assert_eq!(law.branch(), expected, "h = {h}");
            assert_eq!(s[0], 0.05, "a_f restarts at 0");
            let mut ds = [0.0];
            let f = law.eval(&contact(-h), &s, &mut ds);
            let expected_force = match expected {
                Branch::Upper => -m_up,
                Branch::Lower => -m_low,
                Branch::Hold => -h,
            };
            assert!((f - expected_force).abs() < 1e-12, "h = {h}: F = {f}");
            assert_eq!(ds[0], 0.0);
        }
        // Hold is left when the holding force reaches a branch: here the upper one.
        let mut law = pw();
        let mut s = [0.05];
        law.initialize(&contact(-3.0), &mut s);
        s[0] = 0.0501;
        law.apply_event(1, &contact(-3.0), &mut s);
        let mut g = [0.0; 2];
        law.events(&contact(-3.0), &s, &mut g);
        assert!((g[1] - (m_up - 3.0).min(3.0 - m_low)).abs() < 1e-12);
        law.events(&contact(-3.7), &s, &mut g);
        assert!(g[1] < 0.0);
        law.apply_event(1, &contact(-3.7), &mut s);
        assert_eq!(law.branch(), Branch::Upper);
    }

    /// Without mechanics (prescribed motion, `F_req` = NaN) the branch flips at every switch and
    /// a zero crossing passes into the opposite slip.
    #[test]
    fn prescribed_motion_flips_the_branch() {
        let mut law = pw();
        let c = Contact::kinematic(0.0, 0.05, 10.0);
        let mut s = [0.0];
        law.initialize(&c, &mut s);
        law.apply_event(1, &c, &mut s);
        assert_eq!(law.branch(), Branch::Lower);
        law.apply_event(1, &c, &mut s);
        assert_eq!(law.branch(), Branch::Upper);
        let c0 = Contact::kinematic(1.0, 0.0, 10.0);
        law.apply_event(0, &c0, &mut s);
        assert_eq!(law.stick_mode(), StickMode::Slip(-1.0));
        assert_eq!(law.stuck(), Some(false));
    }
}
