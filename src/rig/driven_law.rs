//! The part every rig shares: a friction law whose contact the rig imposes, with its state
//! layout `[x, law states…]`, its events and the velocity-reversal event of laws with a kink at
//! `v = 0`. A rig says only how the contact moves ([`Contact`] at each time); this forwards the
//! rest of [`Model`](crate::integrate::Model) to the law.

use crate::integrate::SimError;
use crate::laws::{Contact, FrictionLaw, Law};
use crate::systems::reversal::Reversal;

/// A law driven through an imposed contact: state `[x, law states…]`, `ẋ = v_rel`.
#[derive(Clone, Debug)]
pub struct DrivenLaw {
    law: Law,
    n_law: usize,
    n_law_events: usize,
    /// Velocity-reversal event for laws with a kink at `v = 0`.
    reversal: Option<Reversal>,
}

impl DrivenLaw {
    /// `law`, whose imposed velocity starts at `v0_mps`.
    pub fn new(law: Law, v0_mps: f64) -> Self {
        let n_law = law.n_states();
        let n_law_events = law.n_events();
        let reversal = law.kinks_at_reversal().then(|| Reversal::new(v0_mps));
        Self {
            law,
            n_law,
            n_law_events,
            reversal,
        }
    }

    /// The law.
    pub fn law(&self) -> &Law {
        &self.law
    }

    /// Number of law states.
    pub fn n_law(&self) -> usize {
        self.n_law
    }

    /// State dimension (`x` and the law's states).
    pub fn dim(&self) -> usize {
        1 + self.n_law
    }

    /// `x = 0`, the law's initial states.
    pub fn initial_state(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.dim()];
        self.law.initial_states(&mut y[1..]);
        y
    }

    /// `x` and the law's state names.
    pub fn state_names(&self) -> Vec<String> {
        let mut v = vec!["x".to_string()];
        v.extend(self.law.state_columns().into_iter().map(|c| c.name));
        v
    }

    /// Scales of `x` (1 mm) and the law's states.
    pub fn state_scales(&self, scales: &mut [f64]) {
        scales[0] = 1e-3;
        self.law.state_scales(&mut scales[1..]);
    }

    /// The law's mode from the contact at the start.
    pub fn initialize(&mut self, c: &Contact, y: &mut [f64]) -> Result<(), SimError> {
        self.law.initialize(c, &mut y[1..]);
        Ok(())
    }

    /// `ẋ = v_rel` and the law's state rates.
    pub fn rhs(&self, c: &Contact, y: &[f64], dy: &mut [f64]) {
        dy[0] = c.v_rel_mps;
        self.law.eval(c, &y[1..], &mut dy[1..]);
    }

    /// The law's events, then the reversal's.
    pub fn n_events(&self) -> usize {
        self.n_law_events + usize::from(self.reversal.is_some())
    }

    /// Guard values of the law's events and the reversal.
    pub fn events(&self, c: &Contact, y: &[f64], g: &mut [f64]) {
        let ne = self.n_law_events;
        self.law.events(c, &y[1..], &mut g[..ne]);
        if let Some(r) = &self.reversal {
            g[ne] = r.guard(c.v_rel_mps);
        }
    }

    /// Applies event `index` (the last one is the reversal).
    pub fn apply_event(&mut self, index: usize, c: &Contact, y: &mut [f64]) {
        if index == self.n_law_events {
            if let Some(r) = self.reversal.as_mut() {
                r.flip();
            }
            return;
        }
        self.law.apply_event(index, c, &mut y[1..]);
    }

    /// The law's after-step projection, if it has one.
    pub fn after_step(&mut self, c: &Contact, y: &mut [f64]) -> bool {
        self.law.has_after_step() && self.law.after_step(c, &mut y[1..])
    }

    /// Whether the law asks for the implicit integrator.
    pub fn prefers_implicit(&self) -> bool {
        self.law.is_stiff()
    }

    /// The friction force on the body at the contact in state `y` [N].
    pub fn force_n(&self, c: &Contact, y: &[f64]) -> f64 {
        let mut ds = vec![0.0; self.n_law];
        self.law.eval(c, &y[1..], &mut ds)
    }
}
