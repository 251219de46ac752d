//! The interface every friction law implements.

use super::{Contact, LawSwitch};

/// Partial derivatives of a law at one state, for analytic Jacobians (`v = v_rel`, `s` the
/// law's states, `F_hold` the holding force of the contact). The caller zeroes every entry.
#[derive(Debug)]
pub struct LawJacobian<'a> {
    /// `∂F/∂v`.
    pub df_dv: f64,
    /// `∂F/∂F_hold` (1 in rigid stick, where the law returns the holding force).
    pub df_dhold: f64,
    /// `∂F/∂s_j`.
    pub df_ds: &'a mut [f64],
    /// `∂ṡ_i/∂v`.
    pub dds_dv: &'a mut [f64],
    /// `∂ṡ_i/∂s_j`, row-major.
    pub dds_ds: &'a mut [f64],
}
use crate::integrate::Column;

/// A friction law: maps `(v_rel, N, state, t)` to the friction force on body 1 and, for dynamic
/// laws, to the rates of its internal states. Switching laws also carry a discrete mode, changed
/// only through events.
pub trait FrictionLaw {
    /// Number of internal continuous states.
    fn n_states(&self) -> usize {
        0
    }

    /// Output columns of the internal states (name, unit).
    fn state_columns(&self) -> Vec<Column> {
        Vec::new()
    }

    /// Typical magnitude of each state (sets its absolute tolerance).
    fn state_scales(&self, _out: &mut [f64]) {}

    /// Initial values of the states.
    fn initial_states(&self, _s: &mut [f64]) {}

    /// Chooses the initial mode; may adjust the states.
    fn initialize(&mut self, _c: &Contact, _s: &mut [f64]) -> LawSwitch {
        LawSwitch::Continue
    }

    /// Continues after the parameters changed in place ([`set_params`](super::Law::set_params)
    /// on a running law): keeps the states, the mode and its memory (dwell time, branch,
    /// slipping elements), and switches only where a guard of the current mode is now violated
    /// (`g < 0`: a lowered static threshold breaks a stuck contact away), exactly as the event
    /// would have fired. Laws whose states must also be projected onto the new parameters'
    /// invariant set (a lowered limit) do it in their after-step hook.
    fn resume(&mut self, c: &Contact, s: &mut [f64]) -> LawSwitch {
        resume_by_guards(self, c, s)
    }

    /// Friction force on body 1 [N]; writes the state rates into `ds`.
    fn eval(&self, c: &Contact, s: &[f64], ds: &mut [f64]) -> f64;

    /// Fills the partial derivatives at `(c, s)`; `false` (the default) means "not available"
    /// and the integrator differentiates numerically. The rates must not depend on `F_hold`.
    fn jacobian(&self, _c: &Contact, _s: &[f64], _j: &mut LawJacobian<'_>) -> bool {
        false
    }

    /// Number of event functions of the law.
    fn n_events(&self) -> usize {
        0
    }

    /// Event functions (positive while the current mode is valid).
    fn events(&self, _c: &Contact, _s: &[f64], _g: &mut [f64]) {}

    /// Handles event `index` (mode change); may reset the states.
    fn apply_event(&mut self, _index: usize, _c: &Contact, _s: &mut [f64]) -> LawSwitch {
        LawSwitch::Continue
    }

    /// Called after each accepted step; returns `true` if it changed states or mode.
    fn after_step(&mut self, _c: &Contact, _s: &mut [f64]) -> bool {
        false
    }

    /// Whether [`after_step`](FrictionLaw::after_step) does anything (lets systems skip
    /// computing the contact after every step, and take fixed steps in batches). No default:
    /// a law with a hook that forgot to say so would silently never run it.
    fn has_after_step(&self) -> bool;

    /// Whether the contact is stuck, when the law knows it exactly (set-valued or hybrid laws);
    /// `None` lets the system decide from a velocity threshold.
    fn stuck(&self) -> Option<bool> {
        None
    }

    /// Whether the contact is stuck at `c`, when the law decides it (its exact mode, or a
    /// band of its own such as Karnopp's `|v_rel| < D_v`); `None` lets the system decide from
    /// a velocity threshold.
    fn stuck_at(&self, _c: &Contact) -> Option<bool> {
        self.stuck()
    }

    /// Steady-state friction force on body 1 at constant `v_rel` and load [N] (the law's
    /// characteristic curve, e.g. for the friction–velocity plot). The load is given both as
    /// the force `N` (laws written with coefficients scale with it) and as its ratio
    /// `r = N/N₀` to the contact's nominal load (laws written with forces at `N₀` scale their
    /// load-dependent parts with it), as in [`Contact`].
    fn steady_force(&self, v_rel_mps: f64, normal_load_n: f64, load_ratio: f64) -> f64;

    /// Sets the states to their steady values at constant `v_rel` and load, where
    /// [`steady_force`](FrictionLaw::steady_force) is the force (a run that starts in steady
    /// sliding). The default leaves them as they are (laws without states, or whose steady
    /// state depends on their history).
    fn steady_states(&self, _v_rel_mps: f64, _normal_load_n: f64, _s: &mut [f64]) {}

    /// Whether the rates or force have a kink at `v_rel = 0` (terms in `|v|`) that the law does
    /// not already handle with its own events. Systems then place a velocity-reversal event
    /// there, so no integration step straddles the kink.
    fn kinks_at_reversal(&self) -> bool {
        false
    }

    /// Whether each internal state's rate depends only on `v_rel`, the load and that state
    /// itself (parallel elements: Maxwell-slip, GMS), so a system may declare a sparse
    /// Jacobian and factor it in `O(n)` instead of `O(n³)`. `false` (the default): the
    /// states may be coupled.
    fn states_are_independent(&self) -> bool {
        false
    }

    /// Whether the law makes the equations stiff (then an implicit integrator is the default).
    fn is_stiff(&self) -> bool {
        true
    }
}

/// Most mode switches [`FrictionLaw::resume`] makes in a row (a switch may leave another guard
/// violated, e.g. slip⁺ → stick → slip⁻; more would mean inconsistent guards).
const MAX_RESUME_SWITCHES: usize = 4;

/// [`FrictionLaw::resume`]'s default: fire every event whose guard is negative, in index
/// order, until none is (at most [`MAX_RESUME_SWITCHES`] switches). Returns
/// [`LawSwitch::Stick`] when the last switch entered rigid stick.
pub fn resume_by_guards<L: FrictionLaw + ?Sized>(
    law: &mut L,
    c: &Contact,
    s: &mut [f64],
) -> LawSwitch {
    let n = law.n_events();
    if n == 0 {
        return LawSwitch::Continue;
    }
    let mut g = vec![0.0; n];
    let mut switch = LawSwitch::Continue;
    for _ in 0..MAX_RESUME_SWITCHES {
        law.events(c, s, &mut g);
        let Some(i) = g.iter().position(|&gi| gi < 0.0) else {
            break;
        };
        switch = law.apply_event(i, c, s);
    }
    switch
}
